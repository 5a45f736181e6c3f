/* test_position.c - FEN in and out for every game, rejection of bad FENs
 * with a reason, and make/unmake keeping board, key and FEN exact. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/movegen.h"
#include "test.h"
#include "variants/loader.h"

static Position pos, pos2;

static void roundtrip(const Variant *v, const char *fen) {
    char err[200], out[512];
    if (pos_from_fen(&pos, v, fen, err, sizeof err)) {
        test_fail(__FILE__, __LINE__, "%s: %s", fen, err);
        return;
    }
    pos_to_fen(&pos, out, sizeof out);
    CHECK_STR(out, fen);
}

static void rejects(const Variant *v, const char *fen, const char *why) {
    char err[200] = "";
    int rc = pos_from_fen(&pos, v, fen, err, sizeof err);
    if (rc == 0 || !strstr(err, why))
        test_fail(__FILE__, __LINE__, "%s: rc %d \"%s\", want a reason with \"%s\"", fen, rc, err,
                  why);
}

/* Plays random legal moves, undoing some, checking the key and FEN. */
static void random_walk(const Variant *v, unsigned seed) {
    char err[200], before[512], after[512];
    if (pos_from_fen(&pos, v, NULL, err, sizeof err)) {
        test_fail(__FILE__, __LINE__, "%s: %s", v->name, err);
        return;
    }
    for (int ply = 0; ply < 200; ply++) {
        MoveList l;
        movegen_legal(&pos, &l);
        if (!l.n)
            break;
        seed = seed * 1103515245u + 12345u;
        Move m = l.m[(seed >> 8) % (unsigned)l.n];
        pos_to_fen(&pos, before, sizeof before);
        uint64_t key = pos.key;
        pos_make_move(&pos, m);
        CHECK(pos.key == pos_compute_key(&pos));
        pos_to_fen(&pos, after, sizeof after);
        /* the FEN after the move reads back to the same position */
        if (pos_from_fen(&pos2, v, after, err, sizeof err) == 0)
            CHECK(pos2.key == pos.key);
        else
            test_fail(__FILE__, __LINE__, "%s: %s", after, err);
        if (seed % 5 == 0) {
            pos_unmake_move(&pos);
            pos_to_fen(&pos, after, sizeof after);
            CHECK_STR(after, before);
            CHECK(pos.key == key);
            pos_make_move(&pos, m);
        }
    }
}

void test_position(void) {
    char err[200];
    const char *names[] = {"chess", "snake-vs-mongoose", "team-mate", "hannibal", "diamondback"};
    for (int i = 0; i < 5; i++) {
        Variant *v = variant_load_builtin(names[i], err, sizeof err);
        if (!v) {
            test_fail(__FILE__, __LINE__, "%s", err);
            continue;
        }
        roundtrip(v, v->start_fen);
        for (unsigned s = 1; s <= 6; s++)
            random_walk(v, s * 7919u);
        variant_free(v);
    }

    Variant *h = variant_load_builtin("hannibal", err, sizeof err);
    roundtrip(h,
              "rnebqkbenr/pppppppppp/10/10/10/10/10/PPPPPPPPPP/RNEBQKBENR[MbFhmcfg] w KQkq - 2 2");
    roundtrip(h, "rnebqkbenr/pppppppppp/10/10/10/10/10/PPPPPPPPPP/RNEBQKBENR[MbFhmf] b KQkq - 1 1");
    /* an f after a piece letter is Black's Falcon, never a file */
    CHECK(pos_from_fen(&pos, h, "4k5/10/10/10/10/10/10/10/4K5[mf] b - - 0 1", err, sizeof err) ==
          0);
    CHECK(pos.nhand[BLACK] == 2);
    rejects(h, "4k5/10/10/10/10/10/10/10/4K5[Mb b - - 0 1", "without ']'");
    rejects(h, "4k5/10/10/10/10/10/10/10/4K5[MbFb] w - - 0 1", "two pieces waiting");
    rejects(h, "4k5/10/10/10/10/10/10/10/4K5[Xb] w - - 0 1", "unknown piece");
    /* set-up move, gating and a lost gate, through make/unmake */
    CHECK(pos_from_fen(&pos, h, NULL, err, sizeof err) == 0);
    MoveList l;
    movegen_legal(&pos, &l);
    CHECK(l.n == 72);
    variant_free(h);

    Variant *c = variant_load_builtin("chess", err, sizeof err);
    roundtrip(c, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    roundtrip(c, "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
    rejects(c, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "ranks");
    rejects(c, "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "too long");
    rejects(c, "rnbqkbnr/pppppppp/7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "squares");
    rejects(c, "rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "unknown piece");
    rejects(c, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side to move");
    rejects(c, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1", "castling right K");
    rejects(c, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1", "en passant");
    rejects(c, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1", "exactly one");
    rejects(c, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKKNR w kq - 0 1", "exactly one");
    rejects(c, "4k3/8/8/8/8/8/8/r3K3 b - - 0 1", "not to move is in check");
    rejects(c, "P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "unpromoted");
    rejects(c, "4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1", "no pieces in hand");
    rejects(c, "4k3/8/8/8/8/8/8/4K3 w - - -1 1", "move counters");
    /* numbers too large for an int are refused, never wrapped */
    rejects(c, "4k3/8/8/8/8/8/8/4K3 w - - 2147483647 1", "move counters");
    rejects(c, "4k3/8/8/8/8/8/8/4K3 b - - 0 2147483647", "move counters");
    rejects(c, "4k3/8/8/8/8/8/8/4K3 b - - 0 99999999999999999999", "move counters");
    rejects(c, "4k3/8/8/8/8/8/8/4K3 w - - x 1", "move counters");
    rejects(c, "K2147483647/8/8/8/8/8/8/k7 w - - 0 1", "too long");
    rejects(c, "4294967304/8/8/8/8/8/8/K6k w - - 0 1", "too long");
    roundtrip(c, "4k3/8/8/8/8/8/8/4K3 b - - 1000000 1000000");
    /* the en-passant square is kept only when a capture there is possible */
    roundtrip(c, "rnbqkbnr/pppp1ppp/8/8/3Pp3/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 2");
    CHECK(pos_from_fen(&pos, c, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", err,
                       sizeof err) == 0 &&
          pos.ep == SQ_NONE);
    /* a failed parse leaves the position as it was */
    CHECK(pos_from_fen(&pos, c, NULL, err, sizeof err) == 0);
    uint64_t key = pos.key;
    CHECK(pos_from_fen(&pos, c, "garbage", err, sizeof err) == -1);
    CHECK(pos.key == key);
    variant_free(c);

    /* found by fuzzing: "[MQgmiec]" printed as "[QgMecmi]", where "Me" reads as
     * a Manticore behind e. Only the pieces a game has in hand may be there. */
    Variant *hv = variant_load_builtin("hannibal", err, sizeof err);
    rejects(hv,
            "rnebqkbenr/pp5p1p/ppp1p5/3p4p1/9P/10/NPP3P3/P2PPp1PP1/FKEBQRBENR[MQgmiec] b kq - 0 8",
            "piece 'Q' (queen) is never in hand or at a gate");
    rejects(hv, "4k5/10/10/10/10/10/10/10/4K5[Eb] w - - 0 1", "piece 'E' (elephant) is never");
    roundtrip(hv, "4k5/10/10/10/10/10/10/10/4K5[MbFhmcfg] w - - 0 1");
    variant_free(hv);

    Variant *d = variant_load_builtin("diamondback", err, sizeof err);
    rejects(d, "7k/8/7P/8/8/8/8/K7 w - - 0 1", "unpromoted"); /* h6 promotes */
    /* h1 is on Black's edge but no promotion square: the pawn stays */
    CHECK(pos_from_fen(&pos, d, "7k/8/8/8/8/8/8/K6P w - - 0 1", err, sizeof err) == 0);
    variant_free(d);
}
