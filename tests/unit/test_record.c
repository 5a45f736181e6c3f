/* test_record.c - the engine API's game record: SAN history, PGN export
 * and import (chess, a set-up variant, the mancala), and bad PGN. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "engine/engine.h"
#include "test.h"

static void play(Game *g, const char *const *moves) {
    char err[ENGINE_ERR_LEN];
    for (int i = 0; moves[i]; i++)
        if (!engine_play(g, moves[i], err, sizeof err))
            test_fail(__FILE__, __LINE__, "%s: %s", moves[i], err);
}

static void round_trip(const char *variant, const char *fen, const char *const *moves,
                       const char *expect_in_pgn) {
    char err[ENGINE_ERR_LEN], pgn[8192], pgn2[8192], a[512], b[512];
    Game *g = engine_new(variant, fen, err, sizeof err);
    if (!g) {
        test_fail(__FILE__, __LINE__, "%s: %s", variant, err);
        return;
    }
    play(g, moves);
    const char *tags[] = {"White", "Ann", "Black", "Bob \"the\" Engine", NULL};
    CHECK(engine_export(g, tags, pgn, sizeof pgn) > 0);
    if (!strstr(pgn, expect_in_pgn))
        test_fail(__FILE__, __LINE__, "PGN lacks \"%s\":\n%s", expect_in_pgn, pgn);
    CHECK(strstr(pgn, "[Black \"Bob \\\"the\\\" Engine\"]") != NULL);
    Game *h = engine_import(pgn, err, sizeof err);
    if (!h) {
        test_fail(__FILE__, __LINE__, "import: %s\n%s", err, pgn);
    } else {
        engine_position_text(g, a, sizeof a);
        engine_position_text(h, b, sizeof b);
        CHECK_STR(b, a);
        CHECK(engine_export(h, tags, pgn2, sizeof pgn2) > 0);
        CHECK_STR(pgn2, pgn);
        engine_free(h);
    }
    CHECK(engine_export(g, NULL, pgn, 10) == -1); /* too small: refused */
    engine_free(g);
}

/* The halfmove count of g's position (its FEN's fifth field). */
static int halfmoves(const Game *g) {
    char fen[512];
    engine_position_text(g, fen, sizeof fen);
    int half = -1;
    const char *p = fen;
    for (int f = 0; f < 4 && p; f++)
        p = strchr(p + 1, ' ');
    if (p)
        sscanf(p, "%d", &half);
    return half;
}

/* A legal game far longer than any real one: pieces wander (no captures,
 * no position a third time) and a pawn steps just before the 50-move rule
 * would end it. At its length limit the engine adjudicates a draw instead
 * of refusing the next move silently (a front end would wait for ever). */
static void too_long_game(void) {
    char err[ENGINE_ERR_LEN];
    /* White's pawns on a-d and Black's on e-h pass each other: 48 steps */
    Game *g =
        engine_new("chess", "rnbqkbnr/4pppp/8/8/8/8/PPPP4/RNBQKBNR w KQkq - 0 1", err, sizeof err);
    if (!g) {
        test_fail(__FILE__, __LINE__, "%s", err);
        return;
    }
    static MoveDesc moves[256];
    uint32_t seed = 12345;
    GameResult r = engine_result(g);
    while (r.kind == RESULT_NONE) {
        int n = engine_moves(g, moves, 256);
        bool played = false;
        bool want_pawn = halfmoves(g) >= 96;
        /* a quiet move of the kind wanted, else any quiet move, else any */
        for (int tries = 0; tries < 12 * n && !played; tries++) {
            seed = seed * 1103515245u + 12345u;
            const MoveDesc *m = &moves[(seed >> 8) % (uint32_t)n];
            bool pawn = m->san[0] >= 'a' && m->san[0] <= 'h';
            if ((tries < 8 * n && strchr(m->san, 'x')) || (tries < 4 * n && pawn != want_pawn))
                continue;
            if (!engine_play(g, m->text, err, sizeof err))
                break;
            played = engine_result(g).kind == RESULT_NONE || engine_ply_count(g) >= 3584;
            if (!played)
                engine_undo(g);
        }
        if (!played) {
            test_fail(__FILE__, __LINE__, "no quiet move found after %d plies",
                      engine_ply_count(g));
            break;
        }
        r = engine_result(g);
    }
    CHECK(engine_ply_count(g) == 3584);
    CHECK(r.kind == RESULT_DRAW && strstr(r.reason, "too long"));
    CHECK(engine_moves(g, moves, 256) > 0); /* moves the rules allow, the record refuses */
    CHECK(!engine_play(g, moves[0].text, err, sizeof err) && strstr(err, "too long"));
    engine_free(g);
}

void test_record(void) {
    too_long_game();
    const char *chess[] = {"e4", "e7e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6", "dxc6", "O-O", NULL};
    round_trip("chess", NULL, chess, "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. O-O *");
    const char *hann[] = {"MbFh", "mcfg", "e3", "e8e7", "Nc3", NULL}; /* Nc3 gates M to b1 */
    round_trip("hannibal", NULL, hann, "1. MbFh McFg 2. e3 e7 3. Nc3 *");
    const char *mate[] = {"f3", "e5", "g4", "Qh4#", NULL};
    round_trip("chess", NULL, mate, "2. g4 Qh4# 0-1");
    const char *black_first[] = {"Nf6", NULL};
    round_trip("chess", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", black_first,
               "1... Nf6 *");
    const char *snake[] = {"3+", "12-", NULL};
    round_trip("slangenspel", NULL, snake, "1. 3+ 12- *");

    char err[ENGINE_ERR_LEN];
    Game *g = engine_import("[Variant \"nonsense\"]\n1. e4 *", err, sizeof err);
    CHECK(!g && strstr(err, "unknown variant"));
    g = engine_import("[Variant \"chess\"]\n1. e4 e5 2. Ke3 *", err, sizeof err);
    CHECK(!g && strstr(err, "move 3 (Ke3)"));
    g = engine_import("1. e4 {a comment} e5 (1... c5 2. Nf3) 2. Nf3 $1 *", err, sizeof err);
    CHECK(g != NULL);
    if (g) {
        char hist[4][ENGINE_MOVE_TEXT];
        CHECK(engine_history(g, hist, 4, true) == 3);
        CHECK_STR(hist[2], "Nf3");
        CHECK(engine_history(g, hist, 4, false) == 3);
        CHECK_STR(hist[2], "g1f3");
        MoveDesc last;
        CHECK(engine_last_move(g, &last) && last.from == 6 && last.to == 21 && last.kind == 'n');
        CHECK(engine_undo(g));
        CHECK(engine_history(g, hist, 4, false) == 2);
        engine_free(g);
    }

    /* Tags of one game's head: found by exact name, escapes read, cut to
     * the room given; none among the moves. */
    const char *head = "[Event \"x\"]\n[Round \"12\"]\n[White \"A \\\"B\\\"\"]\n\n"
                       "1. e4 [Result \"1-0\"] *";
    char val[8];
    CHECK(engine_pgn_tag(head, "Round", val, sizeof val));
    CHECK_STR(val, "12");
    CHECK(engine_pgn_tag(head, "White", val, sizeof val));
    CHECK_STR(val, "A \"B\"");
    CHECK(engine_pgn_tag(head, "Event", val, 2));
    CHECK_STR(val, "x");
    CHECK(!engine_pgn_tag(head, "Roun", val, sizeof val));
    CHECK(!engine_pgn_tag(head, "Result", val, sizeof val));
    CHECK(engine_pgn_tag("[Round", "Round", val, sizeof val) && !val[0]); /* cut short: empty */

    /* Stray or unbalanced brackets are errors, never a hang (issue: `( }`). */
    static const char *const broken[][2] = {
        {"( }", "'}' without"},
        {"1. e4 ( } e5", "'}' without"},
        {"1. e4 }", "'}' without"},
        {"1. e4 ) e5", "')' without"},
        {"1. e4 (1... c5", "'(' without"},
        {"((((", "'(' without"},
        {"1. e4 e5 )", "')' without"},
    };
    for (size_t i = 0; i < sizeof broken / sizeof broken[0]; i++) {
        err[0] = 0;
        g = engine_import(broken[i][0], err, sizeof err);
        if (g || !strstr(err, broken[i][1]))
            test_fail(__FILE__, __LINE__, "import \"%s\": %s", broken[i][0], g ? "accepted" : err);
        engine_free(g);
    }
    /* A result in tags counts for a game the rules have not ended (an
     * adjudication), once and at the end of the moves; never against the
     * rules' own result, never when it is no result. */
    static const struct {
        const char *moves[5], *given, *tag, *end;
    } adjudicated[] = {
        {{"e4", "e5", NULL}, "1/2-1/2", "[Result \"1/2-1/2\"]", "1. e4 e5 1/2-1/2\n"},
        {{"e4", "e5", NULL}, "0-1", "[Result \"0-1\"]", "1. e4 e5 0-1\n"},
        {{"e4", "e5", NULL}, "2-0", "[Result \"*\"]", "1. e4 e5 *\n"},
        {{"f3", "e5", "g4", "Qh4#", NULL}, "1-0", "[Result \"0-1\"]", "Qh4# 0-1\n"},
    };
    for (size_t i = 0; i < sizeof adjudicated / sizeof adjudicated[0]; i++) {
        char pgn[4096];
        g = engine_new("chess", NULL, err, sizeof err);
        play(g, adjudicated[i].moves);
        const char *tags[] = {"Result", adjudicated[i].given, NULL};
        CHECK(engine_export(g, tags, pgn, sizeof pgn) > 0);
        const char *tag = strstr(pgn, adjudicated[i].tag);
        size_t n = strlen(pgn), m = strlen(adjudicated[i].end);
        if (!tag || strstr(tag + 1, "[Result ") || n < m || strcmp(pgn + n - m, adjudicated[i].end))
            test_fail(__FILE__, __LINE__, "Result \"%s\":\n%s", adjudicated[i].given, pgn);
        engine_free(g);
    }

    char longword[200];
    memset(longword, 'a', sizeof longword - 1);
    longword[sizeof longword - 1] = 0;
    g = engine_import(longword, err, sizeof err);
    CHECK(!g && strstr(err, "too long"));
    engine_free(g);
}
