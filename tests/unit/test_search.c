/* test_search.c - the searcher through the engine API: mates found (and
 * proved by brute force over the rules), Diamondback corner wins, draw
 * scores, determinism, stopping, weak levels, and the evaluation's sanity. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/movegen.h"
#include "core/notation.h"
#include "core/position.h"
#include "engine/engine.h"
#include "search/eval.h"
#include "search/movepick.h"
#include "search/params.h"
#include "search/search.h"
#include "search/timeman.h"
#include "test.h"
#include "variants/loader.h"

typedef struct {
    SearchInfo last;
    int calls;
} Seen;

static void on_info(const SearchInfo *si, void *ud) {
    Seen *s = ud;
    s->last = *si;
    s->calls++;
}

static Game *open_game(const char *variant, const char *fen) {
    char err[ENGINE_ERR_LEN];
    Game *g = engine_new(variant, fen, err, sizeof err);
    if (!g)
        test_fail(__FILE__, __LINE__, "%s %s: %s", variant, fen ? fen : "start", err);
    return g;
}

/* A search to depth with the search's numbers params (NULL: the defaults). */
static bool go_depth_with(Game *g, int depth, const SearchParams *params, Seen *seen, char *best) {
    SearchLimits lim;
    memset(&lim, 0, sizeof lim);
    lim.depth = depth;
    lim.threads = 1;
    lim.hash_mb = 8;
    lim.params = params;
    memset(seen, 0, sizeof *seen);
    SearchCallbacks cb = {on_info, seen};
    return engine_go(g, &lim, &cb, best, ENGINE_MOVE_TEXT);
}

static bool go_depth(Game *g, int depth, Seen *seen, char *best) {
    return go_depth_with(g, depth, NULL, seen, best);
}

/* The side to move wins (mate, corner) within n of its moves, whatever the
 * other side does: proved over the rules, not the searcher. */
static bool forces_win(Game *g, int n) {
    Side us = engine_side_to_move(g);
    ResultKind win = us == SIDE_FIRST ? RESULT_FIRST_WINS : RESULT_SECOND_WINS;
    char(*mine)[ENGINE_MOVE_TEXT] = malloc(ENGINE_MAX_MOVES * sizeof *mine);
    char(*theirs)[ENGINE_MOVE_TEXT] = malloc(ENGINE_MAX_MOVES * sizeof *theirs);
    int nm = engine_legal_moves(g, mine, ENGINE_MAX_MOVES, false);
    bool found = false;
    char err[ENGINE_ERR_LEN];
    for (int i = 0; i < nm && !found; i++) {
        engine_play(g, mine[i], err, sizeof err);
        GameResult r = engine_result(g);
        if (r.kind == win)
            found = true;
        else if (r.kind == RESULT_NONE && n > 1) {
            int nr = engine_legal_moves(g, theirs, ENGINE_MAX_MOVES, false);
            bool all = nr > 0;
            for (int j = 0; j < nr && all; j++) {
                engine_play(g, theirs[j], err, sizeof err);
                all = forces_win(g, n - 1);
                engine_undo(g);
            }
            found = all;
        }
        engine_undo(g);
    }
    free(mine);
    free(theirs);
    return found;
}

/* The engine finds a win in n moves: its move keeps the forced win in n
 * (checked by brute force) and it reports mate n. */
static void check_mate(const char *variant, const char *fen, int n, const char *reason) {
    Game *g = open_game(variant, fen);
    if (!g)
        return;
    Seen seen;
    char best[ENGINE_MOVE_TEXT], err[ENGINE_ERR_LEN];
    CHECK(go_depth(g, 2 * n + 5, &seen, best));
    if (seen.last.mate != n)
        test_fail(__FILE__, __LINE__, "%s %s: mate %d reported, want %d", variant, fen,
                  seen.last.mate, n);
    if (!engine_play(g, best, err, sizeof err)) {
        test_fail(__FILE__, __LINE__, "%s: illegal best move %s", variant, best);
    } else if (n == 1) {
        GameResult r = engine_result(g);
        CHECK(r.kind == RESULT_FIRST_WINS || r.kind == RESULT_SECOND_WINS);
        if (reason && strcmp(r.reason, reason))
            test_fail(__FILE__, __LINE__, "%s: %s ends by \"%s\", want \"%s\"", variant, best,
                      r.reason, reason);
    } else {
        /* every reply still loses within n - 1 */
        char(*rep)[ENGINE_MOVE_TEXT] = malloc(ENGINE_MAX_MOVES * sizeof *rep);
        int nr = engine_legal_moves(g, rep, ENGINE_MAX_MOVES, false);
        CHECK(nr > 0);
        for (int j = 0; j < nr; j++) {
            engine_play(g, rep[j], err, sizeof err);
            if (!forces_win(g, n - 1))
                test_fail(__FILE__, __LINE__, "%s: after %s %s no mate in %d", variant, best,
                          rep[j], n - 1);
            engine_undo(g);
        }
        free(rep);
    }
    engine_free(g);
}

static void test_mates(void) {
    /* back-rank mates: the queen or rook to the last rank */
    check_mate("chess", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 1, "checkmate");
    check_mate("snake-vs-mongoose", "5k4/4ppp3/10/10/10/10/10/10/10/Q4K4 w - - 0 1", 1,
               "checkmate");
    check_mate("hannibal", "5k4/4ppp3/10/10/10/10/10/10/Q4K4 w - - 0 1", 1, "checkmate");
    /* Team-Mate: the Phoenix's alfil leap checks h8, the Unicorn guards g8,
     * the King g7 and h7 */
    check_mate("team-mate", "7k/4U3/6K1/8/3F4/8/8/8 w - - 0 1", 1, "checkmate");
    /* king and rook: 1.Kb6 Kb8 2.Rg8# */
    check_mate("chess", "k7/8/2K5/8/8/8/8/6R1 w - - 0 1", 2, NULL);
    check_mate("snake-vs-mongoose", "k9/10/2K7/10/10/10/10/10/10/8R1 w - - 0 1", 2, NULL);
    /* Black to move mates too */
    check_mate("chess", "r5k1/8/8/8/8/8/5PPP/6K1 b - - 0 1", 1, "checkmate");
}

static void test_corners(void) {
    /* Diamondback: a King or pawn reaching the enemy King's corner wins */
    check_mate("diamondback", "8/6K1/8/8/8/1k6/8/8 w - - 0 1", 1, "reached the enemy corner");
    check_mate("diamondback", "8/6P1/8/4k3/8/8/8/K7 w - - 0 1", 1, "reached the enemy corner");
    /* Black's king walks to a1 */
    check_mate("diamondback", "8/8/8/8/4K3/8/1k6/8 b - - 0 1", 1, "reached the enemy corner");
    /* Shatranj: Rxc1 bares the King, which cannot bare two Rooks back */
    check_mate("shatranj", "4k3/8/8/8/8/8/8/RRn4K w - - 0 1", 1, "bare king");
    /* Shatranj: Fc7 stalemates, and stalemate loses */
    check_mate("shatranj", "k7/p7/P1KQ4/8/8/8/8/8 w - - 0 1", 1, "stalemate");
}

static void check_score(const char *variant, const char *fen, int depth, int lo, int hi) {
    Game *g = open_game(variant, fen);
    if (!g)
        return;
    Seen seen;
    char best[ENGINE_MOVE_TEXT];
    CHECK(go_depth(g, depth, &seen, best));
    if (seen.last.mate || seen.last.score < lo || seen.last.score > hi)
        test_fail(__FILE__, __LINE__, "%s %s: score %d mate %d, want %d..%d", variant, fen,
                  seen.last.score, seen.last.mate, lo, hi);
    engine_free(g);
}

static void test_draws(void) {
    /* a queen up, but the 50-move rule ends the game with the next move */
    check_score("chess", "7k/8/8/8/8/8/8/1Q5K w - - 99 80", 6, 0, 0);
    /* the same with a fresh clock is a win */
    check_score("chess", "7k/8/8/8/8/8/8/1Q5K w - - 0 80", 6, 500, 40000);
    /* a queen and rook down, perpetual check Qg5+/Qf6+ saves the game */
    check_score("chess", "r4rk1/5p1p/5Q2/8/8/8/q4PPP/6K1 w - - 0 1", 9, 0, 0);
    /* Team-Mate's 64-move rule */
    check_score("team-mate", "7k/8/8/8/3UC3/8/8/K7 w - - 127 90", 5, 0, 0);
    /* Team-Mate: a lone piece cannot mate; the eval knows it is drawish */
    check_score("team-mate", "7k/8/8/8/3U4/8/8/K7 w - - 0 1", 5, -60, 60);
}

/* Repetition through the game's own history: after the moves below the
 * start position has occurred twice; repeating it again draws. */
static void test_repetition_history(void) {
    Game *g = open_game("chess", "r4rk1/5p1p/8/6Q1/8/8/q4PPP/6K1 b - - 0 1");
    if (!g)
        return;
    char err[ENGINE_ERR_LEN];
    const char *moves[] = {"g8h8", "g5f6", "h8g8", "g5f6"};
    CHECK(engine_play(g, moves[0], err, sizeof err));
    CHECK(engine_play(g, moves[1], err, sizeof err));
    CHECK(engine_play(g, moves[2], err, sizeof err));
    Seen seen;
    char best[ENGINE_MOVE_TEXT];
    /* White to move, a queen and rook down: only the perpetual holds */
    CHECK(go_depth(g, 8, &seen, best));
    CHECK(seen.last.score == 0 && !seen.last.mate);
    CHECK(!strcmp(best, "f6g5"));
    engine_free(g);
}

static void test_determinism(void) {
    const char *variants[] = {"chess", "snake-vs-mongoose", "team-mate", "diamondback", "hannibal"};
    for (int i = 0; i < 5; i++) {
        uint64_t nodes[2];
        char best[2][ENGINE_MOVE_TEXT];
        for (int k = 0; k < 2; k++) {
            Game *g = open_game(variants[i], NULL);
            if (!g)
                return;
            Seen seen;
            go_depth(g, 6, &seen, best[k]);
            nodes[k] = seen.last.nodes;
            engine_free(g);
        }
        CHECK(nodes[0] == nodes[1] && nodes[0] > 0);
        CHECK(!strcmp(best[0], best[1]));
    }
    /* a node limit stops at the same node every time */
    uint64_t n[2];
    for (int k = 0; k < 2; k++) {
        Game *g = open_game("chess", NULL);
        SearchLimits lim;
        memset(&lim, 0, sizeof lim);
        lim.nodes = 30000;
        lim.threads = 1;
        Seen seen;
        memset(&seen, 0, sizeof seen);
        SearchCallbacks cb = {on_info, &seen};
        char best[ENGINE_MOVE_TEXT];
        CHECK(engine_go(g, &lim, &cb, best, sizeof best));
        n[k] = seen.last.nodes;
        engine_free(g);
    }
    CHECK(n[0] == n[1]);
}

typedef struct {
    Game *g;
    SearchLimits lim;
    char best[ENGINE_MOVE_TEXT];
    bool ok;
} GoJob;

static void *go_thread(void *arg) {
    GoJob *j = arg;
    j->ok = engine_go(j->g, &j->lim, NULL, j->best, sizeof j->best);
    return NULL;
}

static double seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static bool is_legal(Game *g, const char *move) {
    char(*all)[ENGINE_MOVE_TEXT] = malloc(ENGINE_MAX_MOVES * sizeof *all);
    int n = engine_legal_moves(g, all, ENGINE_MAX_MOVES, false);
    bool found = false;
    for (int i = 0; i < n; i++)
        found |= !strcmp(all[i], move);
    free(all);
    return found;
}

static void test_stop(void) {
    /* infinite analysis on two threads ends promptly on engine_stop */
    const char *variants[] = {"chess", "hannibal"};
    for (int i = 0; i < 2; i++) {
        GoJob j;
        memset(&j, 0, sizeof j);
        j.g = open_game(variants[i], NULL);
        if (!j.g)
            return;
        j.lim.infinite = true;
        j.lim.threads = 2;
        pthread_t t;
        pthread_create(&t, NULL, go_thread, &j);
        struct timespec ts = {0, 150000000};
        nanosleep(&ts, NULL);
        double t0 = seconds();
        engine_stop(j.g);
        pthread_join(t, NULL);
        double dt = seconds() - t0;
        if (dt > 0.5)
            test_fail(__FILE__, __LINE__, "%s: stop took %.3f s", variants[i], dt);
        CHECK(j.ok);
        CHECK(is_legal(j.g, j.best));
        engine_free(j.g);
    }
    /* a fixed time per move is kept */
    Game *g = open_game("snake-vs-mongoose", NULL);
    SearchLimits lim;
    memset(&lim, 0, sizeof lim);
    lim.movetime_ms = 200;
    char best[ENGINE_MOVE_TEXT];
    double t0 = seconds();
    CHECK(engine_go(g, &lim, NULL, best, sizeof best));
    double dt = seconds() - t0;
    CHECK(dt < 0.45);
    CHECK(is_legal(g, best));
    engine_free(g);
}

static void test_levels(void) {
    const char *variants[] = {"chess", "snake-vs-mongoose", "team-mate", "diamondback", "hannibal"};
    for (int i = 0; i < 5; i++) {
        Game *g = open_game(variants[i], NULL);
        if (!g)
            return;
        for (int ply = 0; ply < 12 && engine_result(g).kind == RESULT_NONE; ply++) {
            SearchLimits lim;
            memset(&lim, 0, sizeof lim);
            lim.level = ply % 2 ? 1 : 5;
            lim.time_ms[0] = lim.time_ms[1] = 60000;
            char best[ENGINE_MOVE_TEXT], err[ENGINE_ERR_LEN];
            CHECK(engine_go(g, &lim, NULL, best, sizeof best));
            if (!engine_play(g, best, err, sizeof err)) {
                test_fail(__FILE__, __LINE__, "%s level move %s: %s", variants[i], best, err);
                break;
            }
        }
        engine_free(g);
    }
    /* a finished game has no best move */
    Game *g = open_game("chess", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    char err[ENGINE_ERR_LEN], best[ENGINE_MOVE_TEXT];
    CHECK(engine_play(g, "a1a8", err, sizeof err));
    SearchLimits lim;
    memset(&lim, 0, sizeof lim);
    lim.depth = 3;
    CHECK(!engine_go(g, &lim, NULL, best, sizeof best));
    engine_free(g);
}

/* The evaluation of fen (side to move's view) in variant o with eval e. */
static int eval_fen(const Variant *o, const Eval *e, const char *fen) {
    char err[160];
    Position *pos = malloc(sizeof *pos);
    if (!pos || pos_from_fen(pos, o, fen, err, sizeof err)) {
        test_fail(__FILE__, __LINE__, "%s: %s", fen, pos ? err : "no memory");
        free(pos);
        return 0;
    }
    int s = eval_evaluate(e, pos);
    free(pos);
    return s;
}

/* Square weights ("N.b1.mg"): read by name with the variant, from White's
 * view with Black's squares mirrored, many of them in one file; and the
 * game phase the evaluation blends them by. */
static void test_square_weights(const char *base) {
    char err[160];
    size_t cap = 32768;
    char *text = malloc(cap);
    if (!text) {
        test_fail(__FILE__, __LINE__, "no memory");
        return;
    }
    /* every square of P, N, Q and K in both phases: 512 weights, more than
     * a file once held; each 1 but the knight's on b1 (40) */
    size_t used = (size_t)snprintf(text, cap, "%s", base);
    const char *letters = "PNQK";
    int items = 0;
    for (int l = 0; l < 4; l++)
        for (int ph = 0; ph < 2; ph++)
            for (int sq = 0; sq < 64; sq++) {
                bool b1 = letters[l] == 'N' && sq == 1;
                used += (size_t)snprintf(text + used, cap - used, "%s%c.%c%d.%s:%d",
                                         items % 8 ? "," : "eval=", letters[l], 'a' + sq % 8,
                                         sq / 8 + 1, ph ? "eg" : "mg", b1 ? 40 : 1);
                if (++items % 8 == 0)
                    used += (size_t)snprintf(text + used, cap - used, "\n");
            }
    Variant *o = variant_load_text(text, "x", err, sizeof err);
    CHECK(o != NULL);
    free(text);
    if (!o)
        return;
    Eval *e = eval_new(o);
    CHECK(e != NULL);
    if (!e) {
        variant_free(o);
        return;
    }
    int n = variant_type_by_letter(o, 'N');
    int i = eval_weight_index(e, "N.b1.mg"), t, sq, eg;
    char name[32];
    CHECK(i >= 0 && eval_weight_get(e, i) == 40);
    CHECK(eval_weight_square(e, i, &t, &sq, &eg) && t == n && sq == 1 && eg == 0);
    CHECK(eval_weight_name(e, i, name, sizeof name) && !strcmp(name, "N.b1.mg"));
    CHECK(eval_square_weight(e, WHITE, n, 1, 0) == i);
    CHECK(eval_square_weight(e, BLACK, n, 57, 0) == i); /* b8 seen from Black */
    CHECK(eval_weight_get(e, eval_weight_index(e, "K.h8.eg")) == 1);
    CHECK(eval_weight_index(e, "N.b9.mg") == -1 && eval_weight_index(e, "N.i1.mg") == -1);
    CHECK(eval_weight_index(e, "N.b1.xg") == -1 && eval_weight_index(e, "X.b1.mg") == -1);
    CHECK(eval_weight_index(e, "N.b1.mgx") == -1 && eval_weight_index(e, "N.b0.mg") == -1);
    CHECK(eval_weight_index(e, "N.b01.mg") == -1 && eval_weight_index(e, "N.b+1.mg") == -1);
    CHECK(eval_weight_index(e, "N.b.mg") == -1 && eval_weight_index(e, "N.b10.mg") == -1);
    CHECK(!eval_weight_square(e, eval_weight_index(e, "N.mg"), &t, &sq, &eg));
    /* a Black knight on b8 costs White what a White one on b1 earns */
    const char *black_n = "1n2k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1";
    const char *white_n = "4k3/pppppppp/8/8/8/8/PPPPPPPP/1N2K3 b - - 0 1";
    int with = eval_fen(o, e, black_n);
    CHECK(with == eval_fen(o, e, white_n));
    eval_weight_set(e, i, 1);
    eval_weight_set(e, eval_weight_index(e, "N.b1.eg"), 1);
    eval_weights_apply(e);
    CHECK(eval_fen(o, e, black_n) - with == 39);
    CHECK(eval_fen(o, e, white_n) - with == 39);
    /* the phase: 256 with the start's pieces, 0 without them */
    Position *pos = malloc(sizeof *pos);
    CHECK(pos && !pos_from_fen(pos, o, NULL, err, sizeof err));
    if (pos) {
        CHECK(eval_game_phase(e, pos) == 256);
        CHECK(
            !pos_from_fen(pos, o, "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1", err, sizeof err));
        CHECK(eval_game_phase(e, pos) == 0);
        free(pos);
    }
    eval_free(e);
    variant_free(o);
}

/* Mobility weights per number of moves ("N.mob2.mg"): read by name, only
 * for pieces that have a mobility, the last number (31) for that many or
 * more; the terms a position's score adds, for the tuner. */
static void test_mobility_weights(const char *base) {
    char err[160], text[1024];
    snprintf(text, sizeof text, "%seval=N.mob2.mg:60,N.mob2.eg:60\n", base);
    Variant *o = variant_load_text(text, "x", err, sizeof err);
    Eval *e = o ? eval_new(o) : NULL;
    CHECK(e != NULL);
    if (!e) {
        variant_free(o);
        return;
    }
    int i = eval_weight_index(e, "N.mob2.mg"), j = eval_weight_index(e, "N.mob2.eg"), mg, eg, t, sq,
        ph;
    char name[32];
    CHECK(i >= 0 && eval_weight_get(e, i) == 60 && eval_weight_get(e, j) == 60);
    CHECK(eval_weight_name(e, i, name, sizeof name) && !strcmp(name, "N.mob2.mg"));
    CHECK(eval_weight_table(e, i, &mg, &eg) && mg == i && eg == j);
    CHECK(eval_weight_table(e, j, &mg, &eg) && mg == i && eg == j);
    CHECK(!eval_weight_square(e, i, &t, &sq, &ph));
    CHECK(!eval_weight_table(e, eval_weight_index(e, "N.mob"), &mg, &eg));
    CHECK(eval_weight_index(e, "Q.mob31.eg") >= 0);
    /* every index may be asked (the tuner does); one without a name is 0 */
    for (int k = -1; k <= eval_weight_count(e); k++)
        if (!eval_weight_name(e, k, name, sizeof name) && eval_weight_get(e, k) != 0)
            test_fail(__FILE__, __LINE__, "weight %d has no name but a value", k);
    static const char *const refused[] = {"N.mob32.mg", "N.mob02.mg", "N.mob.mg",   "N.mob-1.mg",
                                          "N.mob+1.mg", "N.mob2.xg",  "N.mob2.mgx", "K.mob2.mg",
                                          "P.mob2.mg",  "X.mob2.mg",  "N.mob2"};
    for (size_t k = 0; k < sizeof refused / sizeof *refused; k++)
        if (eval_weight_index(e, refused[k]) != -1)
            test_fail(__FILE__, __LINE__, "%s accepted", refused[k]);
    /* a knight on a1 has two moves: White's earns 60, Black's on a8 costs
     * (pawns, so that no ending is scaled for want of mating material) */
    const char *white_n = "4k3/8/8/8/8/8/5PPP/N3K3 w - - 0 1",
               *black_n = "n3k3/5ppp/8/8/8/8/8/4K3 w - - 0 1";
    int with_w = eval_fen(o, e, white_n), with_b = eval_fen(o, e, black_n);
    eval_weight_set(e, i, 0);
    eval_weight_set(e, j, 0);
    eval_weights_apply(e);
    CHECK(with_w - eval_fen(o, e, white_n) == 60);
    CHECK(with_b - eval_fen(o, e, black_n) == -60);
    /* the terms: the knight's square and its number of moves, by colour */
    Position *pos = malloc(sizeof *pos);
    int terms[64];
    if (pos && !pos_from_fen(pos, o, black_n, err, sizeof err)) {
        int n = eval_table_terms(e, pos, terms, 64), found = 0;
        for (int k = 0; k < n; k++)
            found |=
                (terms[k] == (i << 1 | BLACK)) |
                (terms[k] ==
                 (eval_square_weight(e, BLACK, variant_type_by_letter(o, 'N'), 56, 0) << 1 | BLACK))
                    << 1;
        CHECK(n == 7 && found == 3); /* six pieces' squares, the knight's moves */
    } else
        test_fail(__FILE__, __LINE__, "%s: %s", black_n, pos ? err : "no memory");
    free(pos);
    eval_free(e);
    variant_free(o);

    /* an amazon (Queen and Knight) in the middle: 35 moves count as 31 */
    o = variant_load_text(
        "name=y\nfiles=8 ranks=8\nking:K:K:king\namazon:A:QN:amazon\n"
        "startFen=4k3/8/8/8/3A4/8/8/4K3 w - - 0 1\neval=A.mob31.mg:70,A.mob31.eg:70\n",
        "y", err, sizeof err);
    e = o ? eval_new(o) : NULL;
    CHECK(e != NULL);
    if (e) {
        int s0 = eval_fen(o, e, o->start_fen);
        eval_weight_set(e, eval_weight_index(e, "A.mob31.mg"), 0);
        eval_weight_set(e, eval_weight_index(e, "A.mob31.eg"), 0);
        eval_weights_apply(e);
        CHECK(s0 - eval_fen(o, e, o->start_fen) == 70);
        eval_free(e);
    }
    variant_free(o);
}

static void test_values(void) {
    char err[160];
    Variant *v = variant_load_builtin("chess", err, sizeof err);
    CHECK(v != NULL);
    if (!v)
        return;
    int n = variant_type_by_letter(v, 'N'), b = variant_type_by_letter(v, 'B');
    int r = variant_type_by_letter(v, 'R'), q = variant_type_by_letter(v, 'Q');
    int vn = eval_estimate_value(v, n), vb = eval_estimate_value(v, b);
    int vr = eval_estimate_value(v, r), vq = eval_estimate_value(v, q);
    CHECK(vn > 270 && vn < 380 && vb > 270 && vb < 380);
    CHECK(vr > 450 && vr < 580 && vq > 850 && vq < 1050);
    /* the start positions are nearly level */
    const char *variants[] = {"chess", "snake-vs-mongoose", "team-mate", "diamondback", "hannibal"};
    for (int i = 0; i < 5; i++) {
        Variant *w = variant_load_builtin(variants[i], err, sizeof err);
        Eval *e = eval_new(w);
        Position *pos = malloc(sizeof *pos);
        CHECK(e && pos && !pos_from_fen(pos, w, NULL, err, sizeof err));
        int s = eval_evaluate(e, pos);
        if (s < -100 || s > 100)
            test_fail(__FILE__, __LINE__, "%s start eval %d", variants[i], s);
        free(pos);
        eval_free(e);
        variant_free(w);
    }
    /* value=L:cp in a variant file overrides the estimate */
    Variant *o = variant_load_text("name=x\nfiles=8 ranks=8\npromoChoice=QN\n"
                                   "pawn:P:ifmnDfmWfceF:pawn\nknight:N:N:knight\n"
                                   "queen:Q:Q:queen\nking:K:K:king\nvalue=N:777\n"
                                   "startFen=4k3/pppppppp/8/8/8/8/PPPPPPPP/1N2K1Q1 w - - 0 1\n",
                                   "x", err, sizeof err);
    if (!o) {
        test_fail(__FILE__, __LINE__, "variant text: %s", err);
    } else {
        Eval *e = eval_new(o);
        CHECK(e && eval_piece_value(e, variant_type_by_letter(o, 'N')) == 777);
        eval_free(e);
        variant_free(o);
    }
    /* eval= weights: read with the variant, by name; unknown names ignored;
     * a malformed line is refused with its text */
    const char *base = "name=x\nfiles=8 ranks=8\npromoChoice=QN\n"
                       "pawn:P:ifmnDfmWfceF:pawn\nknight:N:N:knight\n"
                       "queen:Q:Q:queen\nking:K:K:king\n"
                       "startFen=4k3/pppppppp/8/8/8/8/PPPPPPPP/1N2K1Q1 w - - 0 1\n";
    char text[1024];
    snprintf(text, sizeof text, "%seval=N.mg:500,tempo:0,nosuch:3\neval=N.mob:150\n", base);
    o = variant_load_text(text, "x", err, sizeof err);
    CHECK(o != NULL);
    if (o) {
        Eval *e = eval_new(o);
        CHECK(e != NULL);
        if (e) {
            CHECK(eval_piece_value(e, variant_type_by_letter(o, 'N')) == 500);
            CHECK(eval_weight_index(e, "nosuch") == -1);
            int tempo = eval_weight_index(e, "tempo"), mob = eval_weight_index(e, "N.mob");
            CHECK(tempo >= 0 && eval_weight_get(e, tempo) == 0);
            CHECK(mob >= 0 && eval_weight_get(e, mob) == 150);
            char name[32];
            CHECK(eval_weight_name(e, mob, name, sizeof name) && !strcmp(name, "N.mob"));
            CHECK(!eval_weight_name(e, eval_weight_count(e), name, sizeof name));
            /* a weight set by a tool changes the evaluation after apply */
            Position *pos = malloc(sizeof *pos);
            CHECK(pos && !pos_from_fen(pos, o, NULL, err, sizeof err));
            if (pos) {
                int s0 = eval_evaluate(e, pos);
                eval_weight_set(e, tempo, 40);
                eval_weights_apply(e);
                CHECK(eval_evaluate(e, pos) == s0 + 40);
                free(pos);
            }
            eval_free(e);
        }
        variant_free(o);
    }
    test_square_weights(base);
    test_mobility_weights(base);
    static const char *const bad[] = {"eval=N.mg", "eval=tempo:x", "eval=:5", "eval=a b:1"};
    for (int i = 0; i < 4; i++) {
        snprintf(text, sizeof text, "%s%s\n", base, bad[i]);
        o = variant_load_text(text, "x", err, sizeof err);
        if (o) {
            test_fail(__FILE__, __LINE__, "%s accepted", bad[i]);
            variant_free(o);
        } else
            CHECK(strstr(err, "eval=") != NULL);
    }
    variant_free(v);
}

/* Terms of the evaluation, each seen through its weights set to 0 or to
 * 100: threats (a pawn attacking a piece, a piece attacking a more valuable
 * one, a piece attacked and not guarded), riders on open and half-open
 * files, safe checks, and passed pawns with a free way. */
typedef struct {
    const char *const *names;
    int n;
} WeightGroup;
static const char *const threat_names[] = {"threat.pawn.mg",  "threat.pawn.eg", "threat.piece.mg",
                                           "threat.piece.eg", "hanging.mg",     "hanging.eg"};
static const char *const file_names[] = {"file.open.mg", "file.open.eg", "file.semi.mg",
                                         "file.semi.eg"};
static const char *const check_names[] = {"check.safe"};
static const char *const free_names[] = {"passed.free.mg", "passed.free.eg"};
static const char *const conn_names[] = {"pawn.conn.mg", "pawn.conn.eg"};
static const char *const bound_names[] = {"bound.pawn.mg", "bound.pawn.eg"};
static const char *const initiative_names[] = {"initiative"};
static const char *const scale_names[] = {"scale.base", "scale.pawn", "scale.ocb",
                                          "scale.ocb.pawn"};
#define WEIGHT_GROUP(names)                                                                        \
    { names, (int)(sizeof names / sizeof *names) }
static const WeightGroup threats = WEIGHT_GROUP(threat_names), files = WEIGHT_GROUP(file_names),
                         checks = WEIGHT_GROUP(check_names), free_path = WEIGHT_GROUP(free_names),
                         conn = WEIGHT_GROUP(conn_names), bound = WEIGHT_GROUP(bound_names),
                         initiative = WEIGHT_GROUP(initiative_names);

/* fen's evaluation with the endgame's scale set to base + pawn a pawn of
 * the stronger side, ocb for opposite bishops alone and ocb_pawn a pawn
 * with opposite bishops and more (out of 64). */
static int eval_scaled(Variant *v, Eval *e, const char *fen, int base, int pawn, int ocb,
                       int ocb_pawn) {
    const int w[] = {base, pawn, ocb, ocb_pawn};
    for (int i = 0; i < 4; i++)
        eval_weight_set(e, eval_weight_index(e, scale_names[i]), w[i]);
    eval_weights_apply(e);
    return eval_fen(v, e, fen);
}

/* What the group's weights whose names start with prefix add, set to 100
 * rather than 0 (the group's other weights stay 0). */
static int weights_gain(Variant *v, Eval *e, const char *fen, WeightGroup g, const char *prefix) {
    for (int i = 0; i < g.n; i++)
        eval_weight_set(e, eval_weight_index(e, g.names[i]), 0);
    eval_weights_apply(e);
    int s0 = eval_fen(v, e, fen);
    for (int i = 0; i < g.n; i++)
        if (!strncmp(g.names[i], prefix, strlen(prefix)))
            eval_weight_set(e, eval_weight_index(e, g.names[i]), 100);
    eval_weights_apply(e);
    return eval_fen(v, e, fen) - s0;
}

/* Term i of fen's evaluation (middle game plus endgame) with every weight
 * of the group set to value. */
static int term_with(Variant *v, Eval *e, const char *fen, WeightGroup g, int value, int i) {
    char err[160];
    Position *pos = malloc(sizeof *pos);
    for (int k = 0; k < g.n; k++)
        eval_weight_set(e, eval_weight_index(e, g.names[k]), value);
    eval_weights_apply(e);
    if (!pos || pos_from_fen(pos, v, fen, err, sizeof err)) {
        test_fail(__FILE__, __LINE__, "%s: %s", fen, pos ? err : "no memory");
        free(pos);
        return 0;
    }
    EvalTerms t;
    eval_terms(e, pos, &t);
    free(pos);
    return t.mg[i] + t.eg[i];
}

static void check_gain(Variant *v, Eval *e, const char *fen, WeightGroup g, const char *prefix,
                       int want) {
    int got = weights_gain(v, e, fen, g, prefix);
    if (abs(got - want) > 1) /* the blend of the phases rounds */
        test_fail(__FILE__, __LINE__, "%s in %s adds %d, want %d", prefix, fen, got, want);
}

static void test_eval_terms(void) {
    char err[160];
    Variant *v = variant_load_builtin("chess", err, sizeof err);
    Eval *e = v ? eval_new(v) : NULL;
    CHECK(v && e);
    if (!e) {
        variant_free(v);
        return;
    }
    const WeightGroup groups[] = {threats, files, checks, free_path, conn, bound, initiative};
    for (size_t k = 0; k < sizeof groups / sizeof *groups; k++) /* every name is known */
        for (int i = 0; i < groups[k].n; i++)
            CHECK(eval_weight_index(e, groups[k].names[i]) >= 0);
    /* the terms are checked as they add up: without the endgame's scale and
     * the initiative, which have their own checks at the end */
    eval_scaled(v, e, "4k3/8/8/8/8/8/8/4K3 w - - 0 1", 64, 0, 64, 0);
    eval_weight_set(e, eval_weight_index(e, "initiative"), 0);

    /* e4 attacks the knight on d5 */
    check_gain(v, e, "4k3/pppp4/8/3n4/4P3/8/PPP5/4K3 w - - 0 1", threats, "threat.pawn", 100);
    /* the bishop on f1 attacks the rook on d3 */
    check_gain(v, e, "4k3/pppp4/8/8/8/3r4/PP6/4KB2 w - - 0 1", threats, "threat.piece", 100);
    /* the rook on h1 attacks the knight on h5, unguarded, then guarded by g6 */
    check_gain(v, e, "4k3/pppp4/8/7n/8/8/PPP5/4K2R w - - 0 1", threats, "hanging", 100);
    check_gain(v, e, "4k3/pppp4/6p1/7n/8/8/PPP5/4K2R w - - 0 1", threats, "hanging", 0);
    /* each in its term: with the threat weights at 0 the threats are worth
     * nothing, at 100 they are; the safe check is the king's */
    const char *thr = "4k3/pppp4/8/3n4/4P3/8/PPP5/4K3 w - - 0 1";
    CHECK(term_with(v, e, thr, threats, 0, EVAL_THREATS) == 0);
    CHECK(term_with(v, e, thr, threats, 100, EVAL_THREATS) > 0);
    const char *qn = "6k1/5ppp/8/8/3qn3/8/5PPP/6K1 w - - 0 1";
    CHECK(term_with(v, e, qn, checks, 0, EVAL_KING) > term_with(v, e, qn, checks, 100, EVAL_KING));
    /* and the other way round: Black to move, its threat counts for it */
    check_gain(v, e, "4k3/ppp5/8/4p3/3N4/8/PPPP4/4K3 b - - 0 1", threats, "threat.pawn", 100);

    /* a Rook on a file without pawns, without its own, behind its own pawn */
    const char *open = "6k1/ppp5/8/8/8/8/PPP5/4RK2 w - - 0 1";
    check_gain(v, e, open, files, "file.open", 100);
    check_gain(v, e, open, files, "file.semi", 0);
    const char *semi = "4k3/pppp4/8/8/8/8/PPP5/3RK3 w - - 0 1";
    check_gain(v, e, semi, files, "file.semi", 100);
    check_gain(v, e, semi, files, "file.open", 0);
    check_gain(v, e, "4k3/ppp5/8/8/8/8/PPP5/2R1K3 w - - 0 1", files, "file", 0);
    /* Black's Rook counts for Black; Knights and Bishops never */
    check_gain(v, e, "4r1k1/ppp5/8/8/8/8/PPP5/4KNB1 w - - 0 1", files, "file.open", -100);

    /* the queen on d4 and the knight on e4 attack f2, and Qd1+ is safe: the
     * danger grows (once two pieces attack the king); with a rook on b1
     * guarding d1 no safe check is left; Black to move, the danger is still
     * White's */
    CHECK(weights_gain(v, e, "6k1/5ppp/8/8/3qn3/8/5PPP/6K1 w - - 0 1", checks, "check") < 0);
    CHECK(weights_gain(v, e, "6k1/5ppp/8/8/3qn3/8/5PPP/1R4K1 w - - 0 1", checks, "check") == 0);
    CHECK(weights_gain(v, e, "6k1/5ppp/8/8/3qn3/8/5PPP/6K1 b - - 0 1", checks, "check") > 0);

    /* the passed pawn on e6: its way free; e8 attacked by the rook on h8
     * (half the bonus); e7 taken by a knight; e8 taken by White's own
     * bishop, still free; Black's pawn on e3 the same for Black */
    int all = weights_gain(v, e, "k7/8/4P3/8/8/8/8/K7 w - - 0 1", free_path, "passed");
    CHECK(all > 0);
    check_gain(v, e, "k6r/8/4P3/8/8/8/8/K7 w - - 0 1", free_path, "passed", all / 2);
    check_gain(v, e, "k7/4n3/4P3/8/8/8/8/K7 w - - 0 1", free_path, "passed", 0);
    check_gain(v, e, "k3B3/8/4P3/8/8/8/8/K7 w - - 0 1", free_path, "passed", all);
    check_gain(v, e, "k7/8/8/8/8/4p3/8/K7 b - - 0 1", free_path, "passed", all);

    /* connected pawns: side by side or one guarding the other, worth more
     * further up and less when an enemy pawn stands ahead on the file;
     * apart, nothing; Black's the same for Black */
    int phalanx = weights_gain(v, e, "4k3/8/8/8/3PP3/8/8/4K3 w - - 0 1", conn, "pawn.conn");
    CHECK(phalanx > 0);
    check_gain(v, e, "4k3/8/8/8/2P1P3/8/8/4K3 w - - 0 1", conn, "pawn.conn", 0);
    CHECK(weights_gain(v, e, "4k3/8/8/8/3P4/4P3/8/4K3 w - - 0 1", conn, "pawn.conn") > 0);
    CHECK(weights_gain(v, e, "4k3/8/8/3PP3/8/8/8/4K3 w - - 0 1", conn, "pawn.conn") > phalanx);
    CHECK(weights_gain(v, e, "4k3/3p4/8/8/3PP3/8/8/4K3 w - - 0 1", conn, "pawn.conn") < phalanx);
    check_gain(v, e, "4k3/8/8/3pp3/8/8/8/4K3 b - - 0 1", conn, "pawn.conn", phalanx);

    /* pawns on the squares of their side's bishop: c1 with b2 and d2 (a2
     * stands on the other colour) */
    check_gain(v, e, "4k3/8/8/8/8/8/PP1P4/2B1K3 w - - 0 1", bound, "bound.pawn", -200);

    /* the initiative: towards a draw with the pawns on one wing, no passed
     * pawn and the kings facing each other (never past it), away from one
     * with pawns on both wings and the kings files apart */
    const char *wing = "6k1/5pp1/8/8/8/8/5PPP/6K1 w - - 0 1";
    int calm = term_with(v, e, wing, initiative, 0, EVAL_INITIATIVE);
    int drawish = weights_gain(v, e, wing, initiative, "initiative");
    CHECK(calm == 0 && drawish < 0 && eval_fen(v, e, wing) >= 0);
    CHECK(weights_gain(v, e, "8/p5p1/8/k7/7K/8/PP4PP/8 w - - 0 1", initiative, "initiative") > 0);
    eval_weight_set(e, eval_weight_index(e, "initiative"), 0);

    /* the endgame scaled down: opposite bishops alone, not bishops of one
     * colour; a rook and one pawn against a bishop, not with four pawns */
    const char *ocb = "4k3/8/8/3b4/8/8/PP6/2B1K3 w - - 0 1";
    int full = eval_scaled(v, e, ocb, 64, 0, 64, 0);
    int less = eval_scaled(v, e, ocb, 64, 0, 16, 0);
    CHECK(full > 0 && less > 0 && less < full);
    const char *same = "4k3/8/8/4b3/8/8/PP6/2B1K3 w - - 0 1";
    CHECK(eval_scaled(v, e, same, 64, 0, 16, 0) == eval_scaled(v, e, same, 64, 0, 64, 0));
    const char *one = "4k1b1/8/8/8/8/8/P7/R3K3 w - - 0 1";
    full = eval_scaled(v, e, one, 64, 0, 64, 0);
    less = eval_scaled(v, e, one, 28, 11, 64, 0);
    CHECK(full > 0 && less > 0 && less < full);
    const char *four = "4k1b1/8/8/8/8/8/PPPP4/R3K3 w - - 0 1";
    CHECK(eval_scaled(v, e, four, 28, 11, 64, 0) == eval_scaled(v, e, four, 64, 0, 64, 0));
    eval_free(e);
    variant_free(v);
}

/* The searcher's own API: the same search after search_clear counts the same
 * nodes; a position mirrored (colours swapped) evaluates the same. */
static void test_context(void) {
    char err[160];
    Variant *v = variant_load_builtin("snake-vs-mongoose", err, sizeof err);
    Variant *c = variant_load_builtin("chess", err, sizeof err);
    Position *pos = malloc(sizeof *pos), *mir = malloc(sizeof *mir);
    SearchContext *ctx = v ? search_new(v) : NULL;
    CHECK(v && c && pos && mir && ctx);
    if (!v || !c || !pos || !mir || !ctx)
        return;
    CHECK(!pos_from_fen(pos, v, NULL, err, sizeof err));
    SearchLimits lim;
    memset(&lim, 0, sizeof lim);
    lim.depth = 6;
    lim.threads = 1;
    lim.hash_mb = 4;
    Move m1 = search_go(ctx, pos, &lim, NULL, NULL);
    uint64_t n1 = search_nodes(ctx);
    search_clear(ctx);
    Move m2 = search_go(ctx, pos, &lim, NULL, NULL);
    CHECK(m1 != MOVE_NONE && m1 == m2);
    CHECK(n1 > 0 && n1 == search_nodes(ctx));
    search_free(ctx);
    ctx = search_new(c);
    CHECK(!pos_from_fen(pos, c,
                        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4", err,
                        sizeof err));
    CHECK(!pos_from_fen(mir, c,
                        "rnbqk2r/pppp1ppp/5n2/2b1p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4", err,
                        sizeof err));
    CHECK(search_static_eval(ctx, pos, NULL) == search_static_eval(ctx, mir, NULL));
    search_free(ctx);
    free(pos);
    free(mir);
    variant_free(v);
    variant_free(c);
}

/* The static exchange: known chess exchanges (an x-ray, a king that may not
 * take back into a guarded square), and the threshold form equal to the
 * full exchange on every move of random games of every built-in variant. */
static void check_see(const Variant *v, const Eval *e, Position *pos, const char *fen,
                      const char *move, int want) {
    char err[160];
    Move m;
    if (pos_from_fen(pos, v, fen, err, sizeof err) ||
        notation_parse(pos, move, &m, err, sizeof err)) {
        test_fail(__FILE__, __LINE__, "%s in %s: %s", move, fen, err);
        return;
    }
    int got = movepick_see(pos, e, m);
    if (got != want)
        test_fail(__FILE__, __LINE__, "SEE of %s in %s = %d, want %d", move, fen, got, want);
}

/* A check of one position: how many of its *tried cases fail. */
typedef int (*PositionCheck)(const Eval *e, const Position *pos, const MoveList *legal, int *tried);

/* Runs check on every position of three random games (at most 80 plies) of
 * each built-in game; fails naming the game and what when any case fails
 * or fewer than min_tried were tried. */
static void check_random_games(PositionCheck check, const char *what, int min_tried) {
    char err[160];
    Position *pos = malloc(sizeof *pos);
    MoveList *ml = malloc(sizeof *ml);
    CHECK(pos && ml);
    for (const char *const *name = variant_builtin_names(); pos && ml && *name; name++) {
        Variant *v = variant_load_builtin(*name, err, sizeof err);
        Eval *e = v ? eval_new(v) : NULL;
        CHECK(v && e);
        int tried = 0, bad = 0;
        for (uint32_t seed = 7919;
             e && seed <= 3 * 7919 && !pos_from_fen(pos, v, NULL, err, sizeof err); seed += 7919) {
            uint32_t r = seed;
            for (int ply = 0; ply < 80 && !pos_game_end(pos); ply++) {
                movegen_legal(pos, ml);
                if (!ml->n)
                    break;
                bad += check(e, pos, ml, &tried);
                r = r * 1103515245u + 12345u;
                pos_make_move(pos, ml->m[(r >> 8) % (uint32_t)ml->n]);
            }
        }
        if (bad || tried < min_tried)
            test_fail(__FILE__, __LINE__, "%s: %s in %d of %d", *name, what, bad, tried);
        eval_free(e);
        variant_free(v);
    }
    free(pos);
    free(ml);
}

/* movepick_see_ge against the full exchange, every legal move, thresholds
 * either side of 0. */
static int see_ge_mismatches(const Eval *e, const Position *pos, const MoveList *ml, int *tried) {
    static const int thr[] = {-1500, -600, -300, -120, -60, -1, 0, 1, 60, 120, 300, 600};
    int bad = 0;
    for (int i = 0; i < ml->n; i++) {
        int see = movepick_see(pos, e, ml->m[i]);
        for (size_t k = 0; k < sizeof thr / sizeof *thr; k++) {
            bad += movepick_see_ge(pos, e, ml->m[i], thr[k]) != (see >= thr[k]);
            (*tried)++;
        }
    }
    return bad;
}

static void test_see(void) {
    char err[160];
    Variant *c = variant_load_builtin("chess", err, sizeof err);
    Eval *e = c ? eval_new(c) : NULL;
    Position *pos = malloc(sizeof *pos);
    CHECK(c && e && pos);
    if (c && e && pos) {
        int P = eval_piece_value(e, variant_type_by_letter(c, 'P'));
        int R = eval_piece_value(e, variant_type_by_letter(c, 'R'));
        check_see(c, e, pos, "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5", P);
        check_see(c, e, pos, "4k3/2p5/3p4/8/8/8/3R4/4K3 w - - 0 1", "d2d6", P - R);
        check_see(c, e, pos, "4k3/3p4/8/8/8/8/3R4/4K3 w - - 0 1", "d2d7", P - R);
        check_see(c, e, pos, "4k3/3p4/8/8/8/8/3R4/3RK3 w - - 0 1", "d2d7", P);
        check_see(c, e, pos, "4k3/8/8/8/8/8/3R4/4K3 w - - 0 1", "d2d5", 0);
        check_see(c, e, pos, "4k3/8/2p5/8/8/8/3R4/4K3 w - - 0 1", "d2d5", -R);
    }
    eval_free(e);
    variant_free(c);
    free(pos);
    check_random_games(see_ge_mismatches, "movepick_see_ge disagrees with the exchange", 1000);
}

/* The evaluation term by term adds up to the evaluation: the terms
 * blended by the phase are the blend, and the score is eval_evaluate's,
 * the scaled blend plus the tempo from the side to move's view. */
static int eval_terms_mismatch(const Eval *e, const Position *pos, const MoveList *ml, int *tried) {
    (void)ml;
    EvalTerms t;
    int score = eval_terms(e, pos, &t), mg = 0, eg = 0;
    for (int i = 0; i < EVAL_TERMS; i++) {
        mg += t.mg[i];
        eg += t.eg[i];
    }
    (*tried)++;
    return score != eval_evaluate(e, pos) ||
           t.blended != (mg * t.phase + eg * (256 - t.phase)) / 256 ||
           score != (pos->stm == WHITE ? 1 : -1) * (t.scaled + t.tempo) || t.phase < 0 ||
           t.phase > 256;
}

/* A floor the GUI charges anyway is thought in full: the iteration predictor
 * (which stops early once the best move is settled) may not cut it short. A
 * regression: it once stopped a 760 ms floor at about 300 ms. */
static void test_floor(void) {
    SearchLimits lim = {0};
    lim.time_ms[0] = lim.time_ms[1] = 200; /* a short clock ... */
    lim.inc_ms[0] = lim.inc_ms[1] = 50;
    lim.floor_ms = 950; /* ... but every move is charged 0.95 s */
    TimeMan tm;
    timeman_init(&tm, &lim, 0, 40);
    CHECK(tm.hard_ms >= limits_floor_think_ms(&lim));
    tm.start_ms = timeman_now_ms() - 500; /* 500 ms thought, best move settled */
    CHECK(timeman_next_iteration(&tm, 4, false));
    tm.start_ms = timeman_now_ms() - 2000;
    CHECK(!timeman_next_iteration(&tm, 4, false));
    lim.floor_ms = 0; /* without a floor the short clock rules */
    timeman_init(&tm, &lim, 0, 40);
    tm.start_ms = timeman_now_ms() - 500;
    CHECK(!timeman_next_iteration(&tm, 4, false));
}

/* Nodes of a search of chess's start to depth with params (NULL = none given). */
static uint64_t nodes_with(const SearchParams *params, int depth) {
    Game *g = open_game("chess", NULL);
    Seen seen;
    char best[ENGINE_MOVE_TEXT];
    CHECK(go_depth_with(g, depth, params, &seen, best));
    CHECK(is_legal(g, best));
    engine_free(g);
    return seen.last.nodes;
}

static void test_params(void) {
    SearchParams def, p, q;
    char err[ENGINE_ERR_LEN], text[1024];
    search_params_default(&def);
    /* every default within its bounds, every name found again */
    for (int i = 0; i < SP_COUNT; i++) {
        const SearchParamInfo *in = search_param_info(i);
        CHECK(in->min <= in->def && in->def <= in->max && in->step > 0);
        CHECK(search_param_index(in->name) == i);
    }
    CHECK(!search_param_info(SP_COUNT) && search_param_index("lmr") < 0);
    /* text both ways */
    p = def;
    CHECK(search_params_parse(&p, "rfp.margin:120,lmr.base:0", err, sizeof err));
    CHECK(p.v[SP_RFP_MARGIN] == 120 && p.v[SP_LMR_BASE] == 0 &&
          p.v[SP_FUT_MUL] == search_param_info(SP_FUT_MUL)->def);
    CHECK(search_params_format(&p, text, sizeof text));
    search_params_default(&q);
    CHECK(search_params_parse(&q, text, err, sizeof err) && !memcmp(&p, &q, sizeof p));
    CHECK(!search_params_format(&p, text, 20));
    CHECK(search_params_parse(&q, "", err, sizeof err) && !memcmp(&p, &q, sizeof p));
    /* bad text: refused with a reason, nothing changed, not even the good part */
    static const char *const bad[] = {"rfp.margin:120,lmr.base:301",
                                      "nope:3",
                                      "rfp.margin",
                                      "rfp.margin:",
                                      "rfp.margin:12x",
                                      "rfp.margin:1e2",
                                      "rfp.margin:120,,lmr.base:1",
                                      "rfp.margin:120,",
                                      ",rfp.margin:120",
                                      "rfp.margin:99999999999999999999",
                                      "rfp.margin:29",
                                      "lmr.base:-1"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        q = p;
        err[0] = '\0';
        if (search_params_parse(&q, bad[i], err, sizeof err))
            test_fail(__FILE__, __LINE__, "search parameters '%s' taken", bad[i]);
        CHECK(err[0] && !memcmp(&p, &q, sizeof p));
    }
    /* the search uses them: the defaults given are no parameters given,
     * other numbers search another tree */
    uint64_t none = nodes_with(NULL, 7), same = nodes_with(&def, 7), other = nodes_with(&p, 7);
    CHECK(none == same && none > 0);
    CHECK(other != none && other > 0);
    /* and each number is used: at one of its bounds it searches another
     * tree, at depth 7 or, for a number that acts only once the histories
     * have grown, at depth 12 (singular extensions from depth 4, so that
     * depth 7 has them) */
    SearchParams se = def;
    se.v[SP_SE_DEPTH] = search_param_info(SP_SE_DEPTH)->min;
    uint64_t base7 = nodes_with(&se, 7), base12 = 0;
    CHECK(base7 != none);
    for (int i = 0; i < SP_COUNT; i++) {
        const SearchParamInfo *in = search_param_info(i);
        bool used = false;
        for (int depth = 7; depth <= 12 && !used; depth += 5) {
            if (depth == 12 && !base12)
                base12 = nodes_with(&se, 12);
            uint64_t base = depth == 7 ? base7 : base12;
            q = se;
            q.v[i] = in->min;
            used = nodes_with(&q, depth) != base;
            q.v[i] = in->max;
            used = used || nodes_with(&q, depth) != base;
        }
        if (!used)
            test_fail(__FILE__, __LINE__, "search parameter %s changes nothing", in->name);
    }
}

void test_search(void) {
    test_floor();
    test_see();
    test_mates();
    test_corners();
    test_draws();
    test_repetition_history();
    test_determinism();
    test_stop();
    test_levels();
    test_values();
    test_eval_terms();
    check_random_games(eval_terms_mismatch, "the terms miss the evaluation", 60);
    test_context();
    test_params();
}
