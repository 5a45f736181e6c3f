/* test_notation.c - move text both ways: coordinates, SAN, the tokens of
 * special moves, and the reasons given for moves that are not legal. */
#include <stdio.h>
#include <string.h>

#include "core/movegen.h"
#include "core/notation.h"
#include "test.h"
#include "variants/loader.h"

static Position pos;

/* Parses `in` and checks its coordinate and SAN forms. */
static void both(const char *in, const char *coord, const char *san, int line) {
    Move m;
    char err[200], c[MOVE_TEXT_LEN], s[MOVE_TEXT_LEN];
    if (notation_parse(&pos, in, &m, err, sizeof err)) {
        test_fail(__FILE__, line, "parse %s: %s", in, err);
        return;
    }
    notation_coord(&pos, m, c);
    notation_san(&pos, m, s);
    if (strcmp(c, coord) || strcmp(s, san))
        test_fail(__FILE__, line, "%s: %s / %s, want %s / %s", in, c, s, coord, san);
}

static void bad(const char *in, const char *why, int line) {
    Move m;
    char err[200] = "";
    if (!notation_parse(&pos, in, &m, err, sizeof err) || !strstr(err, why))
        test_fail(__FILE__, line, "%s: \"%s\", want a reason with \"%s\"", in, err, why);
}

static bool at(Variant *v, const char *fen) {
    char err[200];
    if (!v || pos_from_fen(&pos, v, fen, err, sizeof err)) {
        test_fail(__FILE__, __LINE__, "%s: %s", fen ? fen : "the start position",
                  v ? err : "no variant");
        return false;
    }
    return true;
}

/* Every legal move's texts parse back to that move. */
static void all_round_trip(void) {
    MoveList l;
    movegen_legal(&pos, &l);
    for (int i = 0; i < l.n; i++) {
        char c[MOVE_TEXT_LEN], s[MOVE_TEXT_LEN], err[200];
        Move m1, m2;
        notation_coord(&pos, l.m[i], c);
        notation_san(&pos, l.m[i], s);
        CHECK(notation_parse(&pos, c, &m1, err, sizeof err) == 0 && m1 == l.m[i]);
        CHECK(notation_parse(&pos, s, &m2, err, sizeof err) == 0 && m2 == l.m[i]);
    }
}

void test_notation(void) {
    char err[200];
    Variant *c = variant_load_builtin("chess", err, sizeof err);
    if (at(c, NULL)) {
        both("e2e4", "e2e4", "e4", __LINE__);
        both("Nf3", "g1f3", "Nf3", __LINE__);
        both("g1-f3", "g1f3", "Nf3", __LINE__);
        both("Ng1f3", "g1f3", "Nf3", __LINE__);
        bad("e2e5", "cannot move to e5", __LINE__);
        bad("e3e4", "no piece on e3", __LINE__);
        bad("e7e5", "not yours", __LINE__);
        bad("Qh5", "no legal move", __LINE__);
        bad("hello", "cannot read", __LINE__);
        bad("", "cannot read", __LINE__);
        all_round_trip();
    }
    if (at(c, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")) {
        both("O-O", "e1g1", "O-O", __LINE__);
        both("0-0-0", "e1c1", "O-O-O", __LINE__);
        both("e1g1", "e1g1", "O-O", __LINE__);
        both("dxe6", "d5e6", "dxe6", __LINE__);
        both("Nxf7", "e5f7", "Nxf7", __LINE__);
        all_round_trip();
    }
    if (at(c, "4k3/P7/8/8/8/8/1p6/4K3 w - - 0 1")) {
        both("a8=Q+", "a7a8q", "a8=Q+", __LINE__);
        both("a8Q", "a7a8q", "a8=Q+", __LINE__);
        both("a7a8n", "a7a8n", "a8=N", __LINE__);
        bad("a7a8", "say what to promote to", __LINE__);
    }
    if (at(c, "4k3/8/8/8/8/8/4K3/R6R w - - 0 1")) { /* two rooks reach d1 */
        bad("Rd1", "ambiguous move Rd1: Rad1 or Rhd1", __LINE__);
        both("Rad1", "a1d1", "Rad1", __LINE__);
        both("Ra1d1", "a1d1", "Rad1", __LINE__);
        bad("R1d1", "ambiguous", __LINE__); /* both rooks stand on rank 1 */
    }
    if (at(c, "4r1k1/8/8/8/8/8/4R3/4K3 w - - 0 1")) { /* the rook e2 is pinned */
        bad("Rh2", "leave your king in check", __LINE__);
        bad("e2h2", "leave your king in check", __LINE__);
    }
    if (at(c, "7k/8/8/8/8/8/8/1R2R2K w - - 0 1")) /* mate marks */
        both("Re8", "e1e8", "Re8+", __LINE__);
    if (at(c, "7k/8/6K1/8/8/8/8/R7 w - - 0 1"))
        both("Ra8", "a1a8", "Ra8#", __LINE__);
    variant_free(c);

    /* Hannibal: set-up tokens, fast castling and its one-square token. */
    Variant *h = variant_load_builtin("hannibal", err, sizeof err);
    if (at(h, NULL)) {
        both("MbFh", "MbFh", "MbFh", __LINE__);
        bad("MfFh", "first place the pieces in hand", __LINE__);
        bad("e2e4", "first place the pieces in hand", __LINE__);
        all_round_trip();
    }
    if (at(h, "4k5/10/10/10/10/10/10/10/R4K3R[] w KQ - 0 1")) {
        both("f1h1", "f1h1", "O-h1", __LINE__);
        both("O-b1", "f1b1", "O-b1", __LINE__);
        both("f1a1", "f1a1", "O-e1", __LINE__); /* castling to e1: king-to-rook token */
        both("f1e1", "f1e1", "Ke1", __LINE__);  /* the plain king step */
        both("f1j1", "f1j1", "O-g1", __LINE__);
        all_round_trip();
    }
    variant_free(h);

    /* Diamondback castling: the King's squares; promotions; corner win. */
    Variant *d = variant_load_builtin("diamondback", err, sizeof err);
    if (at(d, "7k/8/8/8/R7/8/8/K2R4 w - - 0 1")) {
        both("a1c1", "a1c1", "O-c1", __LINE__);
        both("a1d1", "a1d1", "O-d1", __LINE__);
        both("O-a3", "a1a3", "O-a3", __LINE__);
        all_round_trip();
    }
    if (at(d, "8/6P1/8/8/3k4/8/8/K7 w - - 0 1")) {
        both("gh8", "g7h8", "h8", __LINE__);
        both("g7h7r", "g7h7r", "h7=R", __LINE__);
        all_round_trip();
    }
    /* Diamondback pawn steps: a square only one pawn reaches is named alone; one
     * that two pawns reach names both squares, as is read back (so is the file) */
    if (at(d, "3prnbk/4ppbq/5ppn/P3p1pr/RP1P3p/NPP5/BBPP4/KQNRP3 w - - 0 1")) {
        both("c3-c4", "c3c4", "c3-c4", __LINE__);
        both("cc4", "c3c4", "c3-c4", __LINE__);
        both("b4c4", "b4c4", "b4-c4", __LINE__);
        both("b4c5", "b4c5", "c5", __LINE__);
        all_round_trip();
    }
    variant_free(d);

    /* Team-Mate: castling with Unicorn and Cobra; promotion letters. */
    Variant *t = variant_load_builtin("team-mate", err, sizeof err);
    if (at(t, "u3k2c/8/8/8/8/8/8/U3K2C w KQkq - 0 1")) {
        both("O-O", "e1g1", "O-O", __LINE__);
        both("O-O-O", "e1c1", "O-O-O", __LINE__);
        all_round_trip();
    }
    if (at(t, "k7/4P3/8/8/8/8/8/K7 w - - 0 1")) {
        both("e8=J", "e7e8j", "e8=J+", __LINE__); /* the D rider checks a8 over d8, b8 */
        both("e8U", "e7e8u", "e8=U", __LINE__);
        bad("e7e8a", "cannot promote to 'a' (choose C, U, F, N, E, M, J)", __LINE__);
        bad("e7e8", "say what to promote to", __LINE__);
    }
    variant_free(t);
}
