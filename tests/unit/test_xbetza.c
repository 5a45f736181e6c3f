/* test_xbetza.c - every fairy piece of the four games, compiled from its
 * XBetza and laid on a board: destinations from the centre, an edge and a
 * corner, on an empty board and with blockers. Each expected set was worked
 * out by hand from the piece's description in the rulings. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/movegen.h"
#include "core/xbetza.h"
#include "test.h"
#include "variants/loader.h"

/* A variant with no royal piece: the piece under test T and a plain
 * blocker X (W), so nothing else stands on the board. */
static Variant *one_piece(const char *betza, int files, int ranks) {
    char text[512], err[200];
    char fen[256] = "";
    for (int r = 0; r < ranks; r++)
        snprintf(fen + strlen(fen), sizeof fen - strlen(fen), "%s%d", r ? "/" : "", files);
    snprintf(text, sizeof text, "files=%d ranks=%d royal=-\nt:T:%s\nx:X:W\nstartFen=%s w - - 0 1\n",
             files, ranks, betza, fen);
    Variant *v = variant_load_text(text, "test", err, sizeof err);
    if (!v)
        test_fail(__FILE__, __LINE__, "variant for %s: %s", betza, err);
    return v;
}

/* Sorted, space-separated destinations of the piece on square `from`. */
static void dests(const Variant *v, const char *fen, const char *from, char *out) {
    static Position pos;
    char err[200];
    out[0] = 0;
    if (pos_from_fen(&pos, v, fen, err, sizeof err)) {
        test_fail(__FILE__, __LINE__, "%s: %s", fen, err);
        return;
    }
    int f = variant_parse_square(v, from, NULL);
    MoveList l;
    movegen_pseudo(&pos, &l);
    char names[MAX_MOVES][8];
    int n = 0;
    for (int i = 0; i < l.n; i++)
        if (move_from(l.m[i]) == f && !move_promo(l.m[i]))
            variant_square_name(v, move_to(l.m[i]), names[n++]);
    qsort(names, (size_t)n, sizeof names[0], (int (*)(const void *, const void *))strcmp);
    for (int i = 0; i < n; i++)
        snprintf(out + strlen(out), 1024 - strlen(out), "%s%s", i ? " " : "", names[i]);
}

static void sorted(const char *list, char *out) {
    char buf[1024], names[128][8];
    int n = 0;
    snprintf(buf, sizeof buf, "%s", list);
    for (char *t = strtok(buf, " "); t; t = strtok(NULL, " "))
        snprintf(names[n++], 8, "%s", t);
    qsort(names, (size_t)n, sizeof names[0], (int (*)(const void *, const void *))strcmp);
    out[0] = 0;
    for (int i = 0; i < n; i++)
        snprintf(out + strlen(out), 1024 - strlen(out), "%s%s", i ? " " : "", names[i]);
}

static void expect(const Variant *v, const char *fen, const char *from, const char *want,
                   int line) {
    char got[1024], w[1024];
    dests(v, fen, from, got);
    sorted(want, w);
    if (strcmp(got, w) != 0)
        test_fail(__FILE__, line, "%s from %s:\n     got  %s\n     want %s", fen, from, got, w);
}

void test_xbetza(void) {
    Variant *v;

    /* Mongoose: a sideways step, or a sideways step to an empty square and
     * then diagonally outward. */
    v = one_piece("sWsyafsW", 8, 8);
    expect(v, "8/8/8/8/3T4/8/8/8 w - - 0 1", "d4", "c4 e4 b5 a6 b3 a2 f5 g6 h7 f3 g2 h1", __LINE__);
    expect(v, "8/8/6x1/8/2XT4/8/8/8 w - - 0 1", "d4", "e4 f5 g6 f3 g2 h1", __LINE__);
    expect(v, "8/8/8/8/8/8/8/T7 w - - 0 1", "a1", "b1 c2 d3 e4 f5 g6 h7", __LINE__);
    expect(v, "8/8/8/8/T7/8/8/8 w - - 0 1", "a4", "b4 c5 d6 e7 f8 c3 d2 e1", __LINE__);
    variant_free(v);

    /* Snake: the same with a step forward or backward. */
    v = one_piece("vWvyafsW", 8, 8);
    expect(v, "8/8/8/8/3T4/8/8/8 w - - 0 1", "d4", "d5 d3 c6 b7 a8 e6 f7 g8 c2 b1 e2 f1", __LINE__);
    expect(v, "8/8/8/3x4/3T4/8/8/8 w - - 0 1", "d4", "d5 d3 c2 b1 e2 f1", __LINE__);
    variant_free(v);

    /* Acromantula / Manticore: an orthogonal step, or that step to an
     * empty square and then a diagonal slide outward (both 45-degree turns). */
    v = one_piece("WyafsW", 8, 8);
    expect(v, "8/8/8/8/3T4/8/8/8 w - - 0 1", "d4",
           "d5 d3 c4 e4 c6 b7 a8 e6 f7 g8 c2 b1 e2 f1 b5 a6 b3 a2 f5 g6 h7 f3 g2 h1", __LINE__);
    expect(v, "8/8/8/8/8/8/8/T7 w - - 0 1", "a1", "a2 b1 b3 c4 d5 e6 f7 g8 c2 d3 e4 f5 g6 h7",
           __LINE__);
    expect(v, "8/8/8/3x4/3T4/8/8/8 w - - 0 1", "d4",
           "d5 d3 c4 e4 c2 b1 e2 f1 b5 a6 b3 a2 f5 g6 h7 f3 g2 h1", __LINE__);
    expect(v, "8/8/8/8/7T/8/8/8 w - - 0 1", "h4", "h5 h3 g4 g6 f7 e8 g2 f1 f5 e6 d7 c8 f3 e2 d1",
           __LINE__);
    variant_free(v);

    /* Cobra: a Knight leap, or a (1,3) move through the Knight square,
     * which must be empty; the (1,1) square never blocks. */
    v = one_piece("NmpafsafF", 8, 8);
    expect(v, "8/8/8/8/3T4/8/8/8 w - - 0 1", "d4",
           "b3 b5 c2 c6 e2 e6 f3 f5 e7 g5 c7 a5 e1 g3 c1 a3", __LINE__);
    expect(v, "8/8/4X3/4xx2/3T4/8/8/8 w - - 0 1", "d4", "b3 b5 c2 c6 e2 f3 f5 c7 a5 e1 g3 c1 a3",
           __LINE__);
    expect(v, "8/8/8/8/8/8/8/T7 w - - 0 1", "a1", "b3 c2 b4 d2", __LINE__);
    variant_free(v);

    /* Adjutant: Bishop, or Dabbaba rider (odd squares are jumped). */
    v = one_piece("BD0", 8, 8);
    expect(v, "8/8/8/8/3T4/8/8/8 w - - 0 1", "d4",
           "c5 b6 a7 e5 f6 g7 h8 c3 b2 a1 e3 f2 g1 d6 d8 d2 b4 f4 h4", __LINE__);
    expect(v, "8/8/3x4/3X4/3T4/8/8/8 w - - 0 1", "d4",
           "c5 b6 a7 e5 f6 g7 h8 c3 b2 a1 e3 f2 g1 d6 d2 b4 f4 h4", __LINE__);
    expect(v, "8/8/8/8/8/8/8/T7 w - - 0 1", "a1", "b2 c3 d4 e5 f6 g7 h8 a3 a5 a7 c1 e1 g1",
           __LINE__);
    variant_free(v);

    /* Mortar (A and G leaps), Phoenix (W, A), Elephant (F, A), Unicorn
     * (W, N), Guard (K, not royal). */
    v = one_piece("AG", 8, 8);
    expect(v, "8/8/8/8/3T4/8/8/8 w - - 0 1", "d4", "b2 b6 f2 f6 a1 a7 g1 g7", __LINE__);
    expect(v, "8/8/5X2/4X3/3T4/8/8/8 w - - 0 1", "d4", "b2 b6 f2 a1 a7 g1 g7", __LINE__);
    variant_free(v);
    v = one_piece("WA", 8, 8);
    expect(v, "8/8/8/8/8/8/8/T7 w - - 0 1", "a1", "a2 b1 c3", __LINE__);
    expect(v, "8/8/8/8/8/8/1x6/T7 w - - 0 1", "a1", "a2 b1 c3", __LINE__);
    variant_free(v);
    v = one_piece("FA", 8, 8);
    expect(v, "8/8/8/8/3T4/8/8/8 w - - 0 1", "d4", "c3 c5 e3 e5 b2 b6 f2 f6", __LINE__);
    expect(v, "8/8/8/4X3/3T4/8/8/8 w - - 0 1", "d4", "c3 c5 e3 b2 b6 f2 f6", __LINE__);
    variant_free(v);
    v = one_piece("WN", 8, 8);
    expect(v, "7T/8/8/8/8/8/8/8 w - - 0 1", "h8", "g8 h7 f7 g6", __LINE__);
    variant_free(v);
    v = one_piece("K", 10, 10);
    expect(v, "10/10/10/10/10/T9/10/10/10/10 w - - 0 1", "a5", "a4 a6 b4 b5 b6", __LINE__);
    variant_free(v);

    /* Falcon (10x9): the 16 squares (1,3) and (2,3) away, each along three
     * king paths; one clear path suffices, and each target is one move. */
    char err[200];
    v = variant_load_builtin("hannibal", err, sizeof err);
    CHECK(v != NULL);
    if (v) {
        const char *all = "f8 d8 f2 d2 h6 h4 b6 b4 g8 c8 g2 c2 h7 h3 b7 b3";
        expect(v, "k9/10/10/10/4F5/10/10/10/9K[] w - - 0 1", "e5", all, __LINE__);
        /* e6 and f6 block every path to f8 and g8, but not to d8, c8, h6, h7 */
        expect(v, "k9/10/10/4PP4/4F5/10/10/10/9K[] w - - 0 1", "e5",
               "d8 f2 d2 h6 h4 b6 b4 c8 g2 c2 h7 h3 b7 b3", __LINE__);
        expect(v, "k9/10/10/10/10/10/10/10/F8K[] w - - 0 1", "a1", "b4 d2 c4 d3", __LINE__);
        variant_free(v);
    }

    /* Diamondback pawns: abilities by square (White's view). */
    v = variant_load_builtin("diamondback", err, sizeof err);
    CHECK(v != NULL);
    if (v) {
        /* normal c4: up and right (move or capture), up-right (move only) */
        expect(v, "7k/8/8/8/2P5/8/8/K7 w - - 0 1", "c4", "c5 d4 d5", __LINE__);
        expect(v, "7k/8/8/3p4/2P5/8/8/K7 w - - 0 1", "c4", "c5 d4", __LINE__);
        /* wing a5: also captures up-right */
        expect(v, "7k/8/1p6/P7/8/8/8/K7 w - - 0 1", "a5", "a6 b5 b6", __LINE__);
        /* guard b3 (also flank): along the a4-d1 diagonal both ways */
        expect(v, "7k/8/8/8/8/1P6/8/K7 w - - 0 1", "b3", "b4 c3 c4 a4 c2", __LINE__);
        /* flank e2 (rank 2): captures toward the edge, down-right */
        expect(v, "7k/8/8/8/8/8/4P3/K4p2 w - - 0 1", "e2", "e3 f2 f3 f1", __LINE__);
        /* Black's pawns are White's turned around: f5 goes down and left */
        expect(v, "7k/8/8/5p2/8/8/8/K7 b - - 0 1", "f5", "f4 e5 e4", __LINE__);
        variant_free(v);
    }

    /* Parser errors name the problem. */
    XbPiece xp;
    CHECK(xbetza_compile("WyafsW", &xp, err, sizeof err) == 0);
    CHECK(xbetza_compile("Wq", &xp, err, sizeof err) == -1);
    CHECK(xbetza_compile("fY", &xp, err, sizeof err) == -1 && strstr(err, "unknown atom"));
    CHECK(xbetza_compile("xW", &xp, err, sizeof err) == -1 && strstr(err, "unsupported modifier"));
    CHECK(xbetza_compile("fm", &xp, err, sizeof err) == -1 && strstr(err, "without an atom"));
    CHECK(xbetza_compile("R4294967297", &xp, err, sizeof err) == -1 && strstr(err, "too large"));
    CHECK(xbetza_compile("R99999999999999999999", &xp, err, sizeof err) == -1 &&
          strstr(err, "too large"));
    CHECK(xbetza_compile("R100", &xp, err, sizeof err) == -1 && strstr(err, "too large"));
    CHECK(xbetza_compile("R99", &xp, err, sizeof err) == 0);
    CHECK(xbetza_compile("KisO3", &xp, err, sizeof err) == 0 && xp.castle_dist[0] == 3 &&
          xp.castle_dist[1] == 3);
    CHECK(xbetza_compile("KirO4ilO3", &xp, err, sizeof err) == 0 && xp.castle_dist[0] == 4 &&
          xp.castle_dist[1] == 3);
    CHECK(xbetza_compile("KrO", &xp, err, sizeof err) == 0 && xp.castle_dist[0] == 2 &&
          xp.castle_dist[1] == 0);
}
