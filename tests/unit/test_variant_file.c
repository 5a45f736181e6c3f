/* test_variant_file.c - definition files: a user's own variant loads and
 * plays; a malformed one is refused with its line and problem named. */
#include <stdio.h>
#include <string.h>

#include "core/movegen.h"
#include "core/perft.h"
#include "test.h"
#include "variants/loader.h"

static void refused(const char *text, const char *why, int line) {
    char err[200] = "";
    Variant *v = variant_load_text(text, "bad", err, sizeof err);
    if (v || !strstr(err, why))
        test_fail(__FILE__, line, "\"%s\": %s, want a reason with \"%s\"", text, v ? "loaded" : err,
                  why);
    variant_free(v);
}

void test_variant_file(void) {
    char err[200];
    /* A 5x5 game of King and Rook: Ra1 b1 c1 d1 a2-a5 (7), Ke1 d1 d2 e2
     * (3). 10 by hand. Both Interactive Diagram lines and our keys. */
    const char *mini = "# a tiny game\n"
                       "name=mini title=Mini\n"
                       "files=5 ranks=5 graphicsDir=/x/ squareSize=40\n"
                       "king:K:K:king\n"
                       "rook:R:R:rook\n"
                       "startFen=4k/5/5/5/R3K w - - 0 1\n";
    Variant *v = variant_load_text(mini, "mini", err, sizeof err);
    CHECK(v != NULL);
    if (v) {
        static Position pos;
        CHECK(pos_from_fen(&pos, v, NULL, err, sizeof err) == 0);
        CHECK_EQ_U64(perft(&pos, 1, NULL), 10);
        CHECK_STR(v->title, "Mini");
        variant_free(v);
    }
    /* Start squares from the diagram's piece lines when there is no startFen. */
    v = variant_load_text("files=4 ranks=4 king:K:K::a1,,d4 rook:R:R::c1,,b4", "x", err,
                          sizeof err);
    CHECK(v != NULL);
    if (v) {
        CHECK_STR(v->start_fen, "1r1k/4/4/K1R1 w - - 0 1");
        variant_free(v);
    }
    /* Holes are no squares: sliders stop at them and nothing lands on
     * them. Rook a1 with holes b1 and a3: a2 (1); Knight d1: b2, c3 (2).
     * FEN writes holes as '*'. */
    v = variant_load_text("files=4 ranks=4 royal=- holes=b1,a3 rook:R:R knight:N:N "
                          "startFen=4/4/4/4 w - - 0 1",
                          "holes", err, sizeof err);
    CHECK(v != NULL);
    if (v) {
        static Position pos;
        char fen[64];
        CHECK(pos_from_fen(&pos, v, "4/*3/4/R*1N w - - 0 1", err, sizeof err) == 0);
        CHECK_EQ_U64(perft(&pos, 1, NULL), 3);
        pos_to_fen(&pos, fen, sizeof fen);
        CHECK_STR(fen, "4/*3/4/R*1N w - - 0 1");
        CHECK(pos_from_fen(&pos, v, "4/4/4/RN1N w - - 0 1", err, sizeof err) == -1 &&
              strstr(err, "a piece on a hole"));
        CHECK(pos_from_fen(&pos, v, "4/*3/4/R**N w - - 0 1", err, sizeof err) == -1 &&
              strstr(err, "not a hole"));
        variant_free(v);
    }
    refused("files=8 ranks=8\nking:K:K\nwhat=1\n", "line 3: unknown setting \"what\"", __LINE__);
    refused("files=8\nranks=x\n", "line 2: ranks=x is not a number", __LINE__);
    refused("files=8 ranks=8\nstalemate=win\n", "line 2: stalemate=win: want draw or loss",
            __LINE__);
    refused("files=8 ranks=8\nbareKing=yes\n", "line 2: bareKing=yes: want none or loss", __LINE__);
    refused("files=99 ranks=8\n", "line 1", __LINE__);
    refused("files=8 ranks=8\nking:K:K\nstartFen=8/8/8/8/8/8/8/K7 w - - 0 1\nqueen:Q:Qz\n",
            "line 4: piece queen: XBetza \"Qz\"", __LINE__);
    refused("files=8 ranks=8\nking:K:K\nking2:K:W\nstartFen=8/8/8/8/8/8/8/K7 w - - 0 1\n",
            "line 3: pieces king and king2 share the letter K", __LINE__);
    refused("ranks=8\nking:K:K\n", "files= and ranks= are required", __LINE__);
    refused("files=8 ranks=8\nking:K:K\n", "no start position", __LINE__);
    refused("files=8 ranks=8\nking:K:K\nstartFen=9/8/8/8/8/8/8/K7 w - - 0 1\n", "line 3: startFen",
            __LINE__);
    refused("files=8 ranks=8\nking:K:K\nsetup=one:9/8/8/8/8/8/8/K7 w - - 0 1\n", "line 3: startFen",
            __LINE__); /* the first set-up is the start */
    refused("files=4 ranks=4\nking:K:K::a1,,d4\nrook:R:R::c9\n", "line 3: piece rook: bad square",
            __LINE__);
    refused("files=8 ranks=8\nking:K:K\nzone=Q:a1:W\nstartFen=8/8/8/8/8/8/8/K7 w - - 0 1\n",
            "line 3: zone moves for unknown piece 'Q'", __LINE__);
    refused("files=8 ranks=8\nking:K:K\nzone=K:a1-z9:W\nstartFen=8/8/8/8/8/8/8/K7 w - - 0 1\n",
            "line 3: bad square list", __LINE__);
    refused("files=8 ranks=8\nking:K:K\npawn:P:fW\nstartFen=8/8/8/8/8/8/8/K7 w - - 0 1\n",
            "promoChoice is empty", __LINE__);
    refused("files=8 ranks=8\nking:K:K\ninsufficient=-,KX\nstartFen=k7/8/8/8/8/8/8/K7 w - - 0 1\n",
            "insufficient: 'X' is not a piece", __LINE__);
    refused("files=8 ranks=8\nsymmetry=sideways\n", "line 2: symmetry=sideways", __LINE__);
    refused("files=8 ranks=8\nreflect=sideways\n",
            "line 2: reflect=sideways: want none, files or diagonal", __LINE__);
    refused(
        "files=10 ranks=8 reflect=diagonal\nking:K:K\nstartFen=k9/10/10/10/10/10/10/K9 w - - 0 1\n",
        "reflect=diagonal: wants a square board without gates", __LINE__);
    refused("files=8 ranks=8 reflect=files holes=a1\nking:K:K\n"
            "startFen=k7/8/8/8/8/8/8/1K6 w - - 0 1\n",
            "reflect=: the holes are not the same reflected", __LINE__);
    refused("files=8 ranks=8\nrandom words\n", "line 2: \"random\" is neither", __LINE__);
    refused("files=8 ranks=8\nking:K:K\nstartFen=8/8/8/8/8/8/8/K7 w - - 0 1\n",
            "line 3: start position: bad FEN: Black must have exactly one king", __LINE__);
    /* found by fuzzing: a castling whose king and rook share no line wrote past its list */
    refused("files=8 ranks=8\ncastling=free castlePartner=R\ncastles=a3-d1:d1-a1\nking:K:K\n"
            "rook:R:R\nstartFen=k7/8/8/8/8/K7/8/3R4 w - - 0 1\n",
            "castling entry \"a3-d1:d1-a1\": king and rook are not on one line", __LINE__);
    refused("files=8 ranks=8\ngating=setup\nking:K:K\nbishop:B:B\n"
            "startFen=4k3/8/8/8/8/8/8/4K3[bB] w - - 0 1\n",
            "piece in hand 'b' has the letter of a gate file", __LINE__);
    /* A missing file is named. */
    refused("files=8 ranks=8\nking:K:K::a4294967297,,h8\n", "bad square \"a4294967297\"", __LINE__);
    refused("files=8 ranks=8\nking:K:K::a1x,,h8\n", "bad square \"a1x\"", __LINE__);
    /* XBoard's piece lines: modifiers in the order XBoard reads them
     * (directions, then modes), zone moves added; free castling: the
     * castlings XBoard draws from two legs, the others listed alone, the
     * King's line with castling. */
    v = variant_load_text("files=8 ranks=8 symmetry=rotate castling=free castlePartner=R\n"
                          "castles=a1-c1:d1-b1,a1-d1:d1-a1,a1-a3:a4-a2\n"
                          "king:K:K\nrook:R:R\npawn:P:mfrFcfW:pawn\nzone=P:a1-a8:cmbrF\n"
                          "promoChoice=R\nstartFen=7k/8/8/8/R7/8/8/K2R4 w - - 0 1\n",
                          "x", err, sizeof err);
    CHECK(v != NULL);
    if (v) {
        int p = variant_type_by_letter(v, 'P'), k = variant_type_by_letter(v, 'K');
        CHECK_STR(v->show.xboard_betza[p], "frmFfcWbrmcF");
        CHECK_STR(v->show.xboard_betza[k], "KisO2");
        CHECK_STR(v->show.xboard_castles, "a1c1=a1d1,d1c1 a1d1 a1a3 h8f8=h8e8,e8f8 h8e8 h8h6");
        variant_free(v);
    }
    v = variant_load_builtin("courier", err, sizeof err);
    CHECK(v && !strncmp(v->show.xboard_start, "rnebmkfwbenr/pppppppppppp/", 26));
    variant_free(v);
    refused("files=8 ranks=8\nking:K:K\nxboardStart=8/8 w - - 0 1\n"
            "startFen=k7/8/8/8/8/8/8/K7 w - - 0 1\n",
            "xboardStart: bad FEN", __LINE__);
    CHECK(variant_load_file("no/such/file.var", err, sizeof err) == NULL &&
          strstr(err, "cannot open no/such/file.var"));
    CHECK(variant_load_builtin("no-such-game", err, sizeof err) == NULL &&
          strstr(err, "unknown variant"));
}
