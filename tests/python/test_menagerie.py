"""Tests of the Python module `menagerie` (run by tests/scripts/python.sh,
which installs the module and names a variants folder holding horse-chess.var
in $MENAGERIE_VARIANTS, and that file's path in $HORSE_CHESS).
Prints one "ok python: ..." or "FAIL python: ..." line per test."""
import os
import re
import sys
import threading
import time
import unittest

import menagerie

TOP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
MAIN_GAMES = ["snake-vs-mongoose", "team-mate", "diamondback", "hannibal", "chess",
              "slangenspel"]
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
FOOLS_MATE = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
MATE_IN_ONE = "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 2 4"


def epd(variant):
    """(variant, fen, {depth: count}) of each line of tests/perft/VARIANT.epd."""
    out = []
    with open(os.path.join(TOP, "tests", "perft", variant + ".epd"), encoding="utf-8") as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            v = variant
            if "|" in line:  # the mancala's lines name their rule set
                rules, line = line.split("|", 1)
                rules = rules.strip()
                v = "slangenspel" if rules == "base" else "slangenspel-" + rules
            fields = line.split(";")
            counts = {int(m.group(1)): int(m.group(2))
                      for m in (re.match(r"\s*D(\d+)\s+(\d+)", x) for x in fields[1:]) if m}
            out.append((v, fields[0].strip(), counts))
    return out


def epd_files():
    return sorted(f[:-4] for f in os.listdir(os.path.join(TOP, "tests", "perft"))
                  if f.endswith(".epd"))


class Moves(unittest.TestCase):
    def test_legal_moves_are_perft_1_in_main_games(self):
        for v in MAIN_GAMES:
            g = menagerie.Game(v)
            moves = g.legal_moves()
            self.assertEqual(len(moves), g.perft(1), v)
            self.assertEqual(len(set(moves)), len(moves), v)
            self.assertEqual(len(g.legal_moves(san=True)), len(moves), v)
            self.assertEqual(len(moves), epd(v)[0][2][1], v)  # the reference count

    def test_legal_moves_in_every_epd_position(self):
        for name in epd_files():
            for v, fen, counts in epd(name):
                if 1 in counts:
                    self.assertEqual(len(menagerie.legal_moves(v, fen)), counts[1], fen)

    def test_moves_pairs_and_san(self):
        g = menagerie.Game("chess")
        pairs = dict(g.moves())
        self.assertEqual(pairs["g1f3"], "Nf3")
        self.assertEqual(pairs["e2e4"], "e4")
        self.assertEqual(g.san("g1f3"), "Nf3")
        self.assertEqual(g.san("Nf3"), "Nf3")
        self.assertEqual(menagerie.get_san("chess", MATE_IN_ONE, "h5f7"), "Qxf7#")
        self.assertEqual(menagerie.get_san("chess", "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q"),
                         "b8=Q+")
        self.assertEqual(menagerie.get_san("chess", "5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1"),
                         "O-O+")
        self.assertEqual(menagerie.get_san_moves("chess", None, ["e2e4", "e7e5", "g1f3"]),
                         ["e4", "e5", "Nf3"])
        with self.assertRaises(menagerie.Error):
            g.san("e2e5")

    def test_san_of_every_move_plays_the_same_move(self):
        for v in MAIN_GAMES:
            g = menagerie.Game(v)
            for text, san in g.moves():
                a, b = g.copy(), g.copy()
                a.push(text)
                b.push(san)
                self.assertEqual(a.fen(), b.fen(), (v, text, san))

    def test_push_pop_and_errors(self):
        g = menagerie.Game("chess")
        g.push("e4")
        g.push("e7e5")
        self.assertEqual(g.ply, 2)
        self.assertEqual(g.turn, 0)
        fen = g.fen()
        with self.assertRaisesRegex(menagerie.Error, "illegal move e2e4"):
            g.push("e2e4")
        self.assertEqual(g.fen(), fen)  # unchanged
        g.pop()
        self.assertEqual(g.turn, 1)
        g.pop()
        self.assertEqual(g.fen(), START)
        with self.assertRaises(IndexError):
            g.pop()
        self.assertTrue(issubclass(menagerie.Error, ValueError))

    def test_copy_and_repr(self):
        g = menagerie.Game("hannibal")
        c = g.copy()
        c.push(c.legal_moves()[0])
        self.assertEqual(g.ply, 0)
        self.assertEqual(c.ply, 1)
        self.assertEqual(repr(g), "menagerie.Game('hannibal', %r)" % g.fen())
        self.assertEqual(eval(repr(c), {"menagerie": menagerie}).fen(), c.fen())
        self.assertEqual(menagerie.__version__, menagerie.version())


class Positions(unittest.TestCase):
    def test_fen_round_trip(self):
        # Menagerie, like Stockfish, names an en-passant square only when a
        # capture there is legal: the one field that may come back changed;
        # Slangenspel's text gains the rule set's fields when they are left out.
        def no_ep(fen):
            f = fen.split()
            return " ".join(f[:3] + ["-"] + f[4:]) if len(f) == 6 else fen
        for name in epd_files():
            for v, fen, _ in epd(name):
                out = menagerie.Game(v, fen).fen()
                if v.startswith("slangenspel"):
                    self.assertTrue(out == fen or out.startswith(fen + " "), (v, fen, out))
                else:
                    self.assertIn(out, (fen, no_ep(fen)), v)
                self.assertEqual(menagerie.Game(v, out).fen(), out, v)
                self.assertTrue(menagerie.validate_fen(fen, v))
                self.assertIsNone(menagerie.fen_error(fen, v))

    def test_start_fen_and_get_fen(self):
        self.assertEqual(menagerie.start_fen("chess"), START)
        self.assertEqual(menagerie.start_fen("diamondback"), menagerie.start_fen("diamondback"))
        self.assertEqual(menagerie.get_fen("chess", None, ["e4"]),
                         "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
        for v in menagerie.variants():
            fen = menagerie.start_fen(v)
            self.assertEqual(menagerie.Game(v, fen).fen(), fen, v)

    def test_validation_errors(self):
        bad = [
            ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", "unknown piece"),
            ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "rank"),
            ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side"),
            ("slangenspel", "1/2/3 0 0 a", "hole"),
        ]
        for v, fen, why in bad:
            err = menagerie.fen_error(fen, v)
            self.assertIsNotNone(err, fen)
            self.assertRegex(err, why)
            self.assertFalse(menagerie.validate_fen(fen, v))
            with self.assertRaisesRegex(menagerie.Error, why):
                menagerie.Game(v, fen)
        self.assertFalse(menagerie.validate_fen("", "chess"))
        with self.assertRaisesRegex(menagerie.Error, 'unknown game "nosuch"'):
            menagerie.Game("nosuch")
        with self.assertRaises(menagerie.Error):
            menagerie.Game("/nonexistent/dir/x.var")


class GameEnd(unittest.TestCase):
    def test_mate(self):
        g = menagerie.Game("chess", FOOLS_MATE)
        self.assertEqual(g.result(), ("0-1", "checkmate"))
        self.assertTrue(g.is_check())
        self.assertEqual(g.legal_moves(), [])
        self.assertTrue(menagerie.is_game_end("chess", FOOLS_MATE))
        self.assertEqual(menagerie.game_result("chess", None, ["f3", "e5", "g4", "Qh4"]),
                         ("0-1", "checkmate"))
        with self.assertRaisesRegex(menagerie.Error, "game is over"):
            g.search(depth=2)

    def test_ongoing_stalemate_and_mancala(self):
        self.assertEqual(menagerie.game_result("chess"), ("*", ""))
        self.assertFalse(menagerie.is_game_end("chess", START))
        self.assertFalse(menagerie.Game("chess").is_check())
        self.assertEqual(menagerie.game_result("chess", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"),
                         ("1/2-1/2", "stalemate"))
        result, reason = menagerie.game_result("slangenspel", "0/0/0/0/0/0/0/0/1/0/0/0/0/0/0/0 3 4 a")
        self.assertIn(result, ("1-0", "0-1", "1/2-1/2"))
        self.assertTrue(reason)


class Perft(unittest.TestCase):
    def test_perft_against_epd(self):
        checked = 0
        for name in epd_files():
            for v, fen, counts in epd(name):
                for d, want in sorted(counts.items()):
                    if want <= 30000:
                        self.assertEqual(menagerie.perft(v, fen, d), want, (v, fen, d))
                        checked += 1
        self.assertGreater(checked, 100)

    def test_perft_bad_depth(self):
        with self.assertRaises(menagerie.Error):
            menagerie.Game("chess").perft(31)


class Search(unittest.TestCase):
    def test_depth(self):
        g = menagerie.Game("chess")
        r = g.search(depth=5)
        self.assertIn(r["best"], g.legal_moves())
        self.assertEqual(r["best_san"], g.san(r["best"]))
        self.assertEqual(r["lines"][0]["depth"], 5)
        self.assertEqual(r["lines"][0]["pv"].split()[0], r["best"])
        self.assertEqual(len(r["lines"][0]["pv"].split()), len(r["lines"][0]["pv_san"].split()))
        self.assertEqual(g.fen(), START)  # the search leaves the game as it was

    def test_mate_found(self):
        r = menagerie.search("chess", MATE_IN_ONE, depth=3)
        self.assertEqual(r["best"], "h5f7")
        self.assertEqual(r["lines"][0]["mate"], 1)
        self.assertTrue(r["lines"][0]["exact"])

    def test_movetime(self):
        g = menagerie.Game("snake-vs-mongoose")
        t0 = time.monotonic()
        r = g.search(movetime=300)
        took = time.monotonic() - t0
        self.assertIn(r["best"], g.legal_moves())
        self.assertGreater(took, 0.15)
        self.assertLess(took, 5)

    def test_multipv(self):
        for v in MAIN_GAMES:
            g = menagerie.Game(v)
            r = g.search(depth=3, multipv=3)
            self.assertEqual(len(r["lines"]), 3, v)
            firsts = [line["pv"].split()[0] for line in r["lines"]]
            self.assertEqual(len(set(firsts)), 3, v)
            self.assertEqual(firsts[0], r["best"], v)
            self.assertEqual([line["multipv"] for line in r["lines"]], [1, 2, 3], v)
            scores = [line["score"] for line in r["lines"]]
            self.assertEqual(scores, sorted(scores, reverse=True), v)

    def test_bad_limits(self):
        g = menagerie.Game("chess")
        with self.assertRaisesRegex(menagerie.Error, "out of range"):
            g.search(multipv=menagerie.MAX_LINES + 1)
        with self.assertRaises(TypeError):
            g.search(5)  # limits are keywords

    def test_stop_from_another_thread(self):
        g = menagerie.Game("chess")
        out = {}
        t = threading.Thread(target=lambda: out.update(g.search(movetime=60000)))
        t0 = time.monotonic()
        t.start()
        time.sleep(0.3)
        with self.assertRaisesRegex(RuntimeError, "searching"):
            g.push("e4")
        g.stop()
        t.join(10)
        self.assertFalse(t.is_alive())
        self.assertLess(time.monotonic() - t0, 10)
        self.assertIn(out["best"], g.legal_moves())


class UserVariant(unittest.TestCase):
    """horse-chess.var: chess with the Knight renamed Horse (H)."""

    def check(self, variant):
        g = menagerie.Game(variant)
        self.assertEqual([g.perft(d) for d in (1, 2, 3)], [20, 400, 8902])
        self.assertEqual(g.san("g1f3"), "Hf3")
        g.push("Hf3")
        self.assertEqual(g.fen(), "rhbqkbhr/pppppppp/8/8/8/5H2/PPPPPPPP/RHBQKB1R b KQkq - 1 1")
        self.assertIn(g.search(depth=3)["best"], g.legal_moves())
        self.assertIsNotNone(menagerie.fen_error("rhbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RHBQKBHR "
                                                 "w KQkq - 0 1", variant))

    def test_by_path(self):
        path = os.environ["HORSE_CHESS"]
        self.check(path)
        self.assertEqual(menagerie.Game(path).variant, path)

    def test_from_the_variants_folder(self):
        self.assertIn("horse-chess", menagerie.variants())
        self.check("horse-chess")


class OkFailResult(unittest.TextTestResult):
    """One "ok python: NAME" or "FAIL python: NAME: why" line per test."""

    def addSuccess(self, test):
        print("ok python: %s" % test.id().split(".", 1)[1], flush=True)

    def _fail(self, test, err):
        why = self._exc_info_to_string(err, test).strip().splitlines()
        print("FAIL python: %s: %s" % (test.id().split(".", 1)[1], why[-1]), flush=True)
        for line in why[-12:]:
            print("    " + line, flush=True)

    addFailure = _fail
    addError = _fail


if __name__ == "__main__":
    suite = unittest.defaultTestLoader.loadTestsFromModule(sys.modules[__name__])
    runner = unittest.TextTestRunner(stream=open(os.devnull, "w"), resultclass=OkFailResult)
    sys.exit(0 if runner.run(suite).wasSuccessful() else 1)
