/* test_service.c - the engine service: game copies, move descriptions,
 * background searches with stop, ponder hit and several best lines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/engine.h"
#include "test.h"

static Game *game(const char *variant, const char *fen) {
    char err[ENGINE_ERR_LEN];
    Game *g = engine_new(variant, fen, err, sizeof err);
    if (!g)
        test_fail(__FILE__, __LINE__, "engine_new %s: %s", variant, err);
    return g;
}

static bool is_legal(Game *g, const char *move) {
    MoveDesc d;
    char err[ENGINE_ERR_LEN];
    return move[0] && engine_describe(g, move, &d, err, sizeof err) && !strcmp(d.text, move);
}

static void test_copy(void) {
    static const char *const moves[] = {"e4", "e5", "Nf3", "Nc6", "Bb5"};
    Game *g = game("chess", NULL);
    if (!g)
        return;
    char err[ENGINE_ERR_LEN];
    for (int i = 0; i < 5; i++)
        CHECK(engine_play(g, moves[i], err, sizeof err));
    Game *c = engine_copy(g);
    CHECK(c != NULL);
    if (!c) {
        engine_free(g);
        return;
    }
    char a[512], b[512];
    engine_position_text(g, a, sizeof a);
    engine_position_text(c, b, sizeof b);
    CHECK_STR(b, a);
    char h[8][ENGINE_MOVE_TEXT];
    CHECK(engine_history(c, h, 8, true) == 5);
    CHECK_STR(h[4], "Bb5");
    CHECK(engine_undo(c) && engine_undo(c)); /* the copy's undo stack is its own */
    CHECK(engine_play(c, "d6", err, sizeof err));
    engine_position_text(g, b, sizeof b);
    CHECK_STR(b, a);
    CHECK(engine_ply_count(g) == 5 && engine_ply_count(c) == 4);
    engine_free(g); /* the copy outlives its source */
    CHECK(engine_play(c, "Bb5", err, sizeof err));
    engine_free(c);

    Game *m = game("slangenspel", NULL);
    if (!m)
        return;
    CHECK(engine_play(m, "3+", err, sizeof err));
    Game *mc = engine_copy(m);
    CHECK(mc && engine_ply_count(mc) == 1);
    if (mc) {
        engine_position_text(m, a, sizeof a);
        engine_position_text(mc, b, sizeof b);
        CHECK_STR(b, a);
        CHECK(engine_undo(mc) && !engine_undo(mc));
    }
    engine_free(mc);
    engine_free(m);
}

static void test_describe(void) {
    Game *g = game("chess", NULL);
    if (!g)
        return;
    MoveDesc d;
    char err[ENGINE_ERR_LEN], before[512], after[512];
    engine_position_text(g, before, sizeof before);
    CHECK(engine_describe(g, "Nf3", &d, err, sizeof err));
    CHECK_STR(d.text, "g1f3");
    CHECK_STR(d.san, "Nf3");
    CHECK(d.from == 6 && d.to == 21 && d.kind == 'n');
    CHECK(!engine_describe(g, "Nf4", &d, err, sizeof err) && err[0]);
    engine_position_text(g, after, sizeof after);
    CHECK_STR(after, before);
    CHECK(engine_play(g, "g1f3", err, sizeof err));
    CHECK(engine_last_move(g, &d));
    CHECK_STR(d.san, "Nf3");
    engine_free(g);
}

/* A stop given right after the start is never lost, whatever the thread
 * has done by then. */
static void test_stop_at_once(void) {
    Game *g = game("team-mate", NULL);
    if (!g)
        return;
    EngineSearch *es = engine_search_new();
    SearchLimits lim;
    memset(&lim, 0, sizeof lim);
    lim.infinite = true;
    char err[ENGINE_ERR_LEN];
    for (int i = 0; i < 20; i++) {
        CHECK(engine_search_start(es, g, NULL, &lim, false, NULL, err, sizeof err));
        engine_search_stop(es);
        EngineResult r;
        CHECK(engine_search_wait(es, &r));
        CHECK(is_legal(g, r.best));
        CHECK(!engine_search_running(es));
    }
    engine_search_free(es);
    engine_free(g);
}

static int infos;

static void count_info(const SearchInfo *si, void *ud) {
    (void)si, (void)ud;
    infos++;
}

static void test_multipv(void) {
    Game *g = game("chess", NULL);
    if (!g)
        return;
    EngineSearch *es = engine_search_new();
    SearchLimits lim;
    memset(&lim, 0, sizeof lim);
    lim.depth = 5;
    lim.multipv = 3;
    EngineCallbacks cb = {count_info, NULL, NULL};
    char err[ENGINE_ERR_LEN];
    infos = 0;
    EngineResult r;
    CHECK(engine_search_start(es, g, NULL, &lim, false, &cb, err, sizeof err) &&
          engine_search_wait(es, &r));
    CHECK(r.nlines == 3 && infos >= 3 * 5);
    char first[3][ENGINE_MOVE_TEXT];
    for (int i = 0; i < 3 && i < r.nlines; i++) {
        CHECK(r.line[i].multipv == i + 1 && r.line[i].depth == 5);
        CHECK(sscanf(r.line[i].pv, "%31s", first[i]) == 1 && is_legal(g, first[i]));
        char san[ENGINE_MOVE_TEXT];
        MoveDesc d;
        CHECK(sscanf(r.line[i].pv_san, "%31s", san) == 1 &&
              engine_describe(g, san, &d, err, sizeof err) && !strcmp(d.text, first[i]));
        CHECK(i == 0 || r.line[i].score <= r.line[0].score);
    }
    CHECK(strcmp(first[0], first[1]) && strcmp(first[0], first[2]) && strcmp(first[1], first[2]));
    CHECK_STR(r.best, first[0]);
    MoveDesc d;
    CHECK(engine_describe(g, r.best, &d, err, sizeof err) && !strcmp(d.san, r.best_san));

    /* more lines than moves: as many as there are */
    Game *k = game("chess", "7k/8/8/8/8/8/8/K7 w - - 0 1");
    lim.multipv = 8;
    lim.depth = 3;
    CHECK(k && engine_search_start(es, k, NULL, &lim, false, NULL, err, sizeof err) &&
          engine_search_wait(es, &r) && r.nlines == 3);
    engine_free(k);
    engine_search_free(es);
    engine_free(g);
}

static void sleep_ms(int ms) {
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000};
    nanosleep(&ts, NULL);
}

static void test_ponder(void) {
    Game *g = game("chess", NULL);
    if (!g)
        return;
    EngineSearch *es = engine_search_new();
    SearchLimits lim;
    memset(&lim, 0, sizeof lim);
    lim.time_ms[0] = lim.time_ms[1] = 600;
    char err[ENGINE_ERR_LEN];
    /* pondering ignores the clock until the hit */
    CHECK(engine_search_start(es, g, "e2e4", &lim, true, NULL, err, sizeof err));
    sleep_ms(700);
    CHECK(engine_search_running(es) && !engine_search_done(es));
    engine_search_ponderhit(es, NULL);
    EngineResult r;
    CHECK(engine_search_wait(es, &r));
    CHECK(r.elapsed_ms >= 700);
    char e[ENGINE_ERR_LEN];
    CHECK(engine_play(g, "e2e4", e, sizeof e) && is_legal(g, r.best));
    CHECK(!r.ponder[0] || r.nlines > 0);
    /* an illegal extra move: no search */
    CHECK(!engine_search_start(es, g, "e2e4", &lim, true, NULL, err, sizeof err) && err[0]);
    CHECK(!engine_search_running(es));
    /* a clocked search stops by itself, the hard stop at the latest */
    CHECK(engine_search_start(es, g, NULL, &lim, false, NULL, err, sizeof err) &&
          engine_search_wait(es, &r) && is_legal(g, r.best));
    engine_search_free(es);
    engine_free(g);
}

static void test_mancala_service(void) {
    Game *g = game("slangenspel-a", NULL);
    if (!g)
        return;
    EngineSearch *es = engine_search_new();
    SearchLimits lim;
    memset(&lim, 0, sizeof lim);
    lim.depth = 4;
    char err[ENGINE_ERR_LEN];
    EngineResult r;
    for (int i = 0; i < 4; i++) { /* the copy follows the game, move by move */
        CHECK(engine_search_start(es, g, NULL, &lim, false, NULL, err, sizeof err) &&
              engine_search_wait(es, &r));
        CHECK(is_legal(g, r.best) && r.nlines == 1 && r.line[0].pv_san[0]);
        CHECK(engine_play(g, r.best, err, sizeof err));
    }
    lim.depth = 0;
    lim.infinite = true;
    CHECK(engine_search_start(es, g, NULL, &lim, false, NULL, err, sizeof err));
    engine_search_stop(es);
    CHECK(engine_search_wait(es, &r) && is_legal(g, r.best));
    engine_search_free(es);
    engine_free(g);
}

void test_service(void) {
    test_copy();
    test_describe();
    test_stop_at_once();
    test_multipv();
    test_ponder();
    test_mancala_service();
}
