/* search.c - iterative deepening, aspiration windows, PVS, quiescence and
 * Lazy SMP (see search.h). */
#include "search/search.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/movegen.h"
#include "core/notation.h"
#include "search/eval.h"
#include "search/movepick.h"
#include "search/timeman.h"
#include "search/tt.h"

#define MAX_THREADS 64
#define DEFAULT_HASH_MB 32
#define THREAD_STACK (32u << 20)
#define CONT_MAX_BYTES (48u << 20) /* per thread */

struct SearchContext {
    const Variant *v;
    Eval *eval;
    TT tt;
    Thread *threads[MAX_THREADS];
    int nthreads;

    /* one search_go */
    atomic_bool stop_all; /* set by the main thread: every worker ends */
    atomic_bool *ext_stop;
    SearchLimits lim;
    const SearchCallbacks *cb;
    TimeMan tm;
    int root_moves; /* legal moves at the root */
    int max_depth;
    uint64_t max_nodes;
    int noise;       /* level: random eval spread in centipawns */
    uint64_t seed;
    uint64_t last_nodes;
};

static int lmr_table[64][64];
static pthread_once_t lmr_once = PTHREAD_ONCE_INIT;

static void init_lmr(void) {
    for (int d = 1; d < 64; d++)
        for (int n = 1; n < 64; n++)
            lmr_table[d][n] = (int)(0.75 + log(d) * log(n) / 2.25);
}

/* ---- the context ---------------------------------------------------------- */

SearchContext *search_new(const Variant *v) {
    pthread_once(&lmr_once, init_lmr);
    SearchContext *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return NULL;
    ctx->v = v;
    ctx->eval = eval_new(v);
    if (!ctx->eval) {
        free(ctx);
        return NULL;
    }
    atomic_init(&ctx->stop_all, false);
    return ctx;
}

/* A worker with its continuation history (none when it would be too large). */
static Thread *thread_new(SearchContext *ctx, int id) {
    Thread *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->ctx = ctx;
    t->id = id;
    size_t n = (size_t)2 * (ctx->v->ntypes + 1) * ctx->v->nsq;
    if (n * n * sizeof(int16_t) <= CONT_MAX_BYTES && (t->cont = calloc(n * n, sizeof(int16_t))))
        t->cont_n = (int)n;
    return t;
}

static void thread_free(Thread *t) {
    if (t)
        free(t->cont);
    free(t);
}

void search_free(SearchContext *ctx) {
    if (!ctx)
        return;
    for (int i = 0; i < ctx->nthreads; i++)
        thread_free(ctx->threads[i]);
    tt_free(&ctx->tt);
    eval_free(ctx->eval);
    free(ctx);
}

void search_clear(SearchContext *ctx) {
    if (ctx->tt.b)
        tt_clear(&ctx->tt);
    for (int i = 0; i < ctx->nthreads; i++) {
        memset(ctx->threads[i]->history, 0, sizeof ctx->threads[i]->history);
        memset(ctx->threads[i]->counter, 0, sizeof ctx->threads[i]->counter);
        if (ctx->threads[i]->cont)
            memset(ctx->threads[i]->cont, 0,
                   (size_t)ctx->threads[i]->cont_n * ctx->threads[i]->cont_n * sizeof(int16_t));
    }
}

uint64_t search_nodes(const SearchContext *ctx) { return ctx->last_nodes; }

int search_static_eval(SearchContext *ctx, const Position *pos) {
    return eval_evaluate(ctx->eval, pos);
}

static uint64_t total_nodes(SearchContext *ctx) {
    uint64_t n = 0;
    for (int i = 0; i < ctx->nthreads; i++)
        n += atomic_load_explicit(&ctx->threads[i]->nodes, memory_order_relaxed);
    return n;
}

/* ---- helpers ----------------------------------------------------------- */

static inline bool stopped(Thread *t) {
    return atomic_load_explicit(&t->ctx->stop_all, memory_order_relaxed);
}

/* Counts a node; the main thread also watches the clock and limits. */
static inline void count_node(Thread *t) {
    uint64_t n = atomic_load_explicit(&t->nodes, memory_order_relaxed) + 1;
    atomic_store_explicit(&t->nodes, n, memory_order_relaxed);
    SearchContext *ctx = t->ctx;
    if (t->id != 0)
        return;
    if (ctx->max_nodes && ctx->nthreads == 1 && n >= ctx->max_nodes)
        atomic_store(&ctx->stop_all, true);
    if (n & 1023)
        return;
    if ((ctx->ext_stop && atomic_load_explicit(ctx->ext_stop, memory_order_relaxed)) ||
        timeman_hard_stop(&ctx->tm) || (ctx->max_nodes && total_nodes(ctx) >= ctx->max_nodes))
        atomic_store(&ctx->stop_all, true);
}

static inline int score_to_tt(int s, int ply) {
    return s >= MATE_IN_MAX ? s + ply : s <= -MATE_IN_MAX ? s - ply : s;
}

static inline int score_from_tt(int s, int ply) {
    return s >= MATE_IN_MAX ? s - ply : s <= -MATE_IN_MAX ? s + ply : s;
}

/* Static eval with the playing level's noise; lazy (may be NULL) allows a
 * rough answer far outside (alpha, beta). */
static int evaluate(Thread *t, int alpha, int beta, bool *lazy) {
    SearchContext *ctx = t->ctx;
    int s = lazy ? eval_evaluate_lazy(ctx->eval, &t->pos, alpha, beta, lazy)
                 : eval_evaluate(ctx->eval, &t->pos);
    if (ctx->noise) {
        uint64_t h = (t->pos.key ^ ctx->seed) * 0x9E3779B97F4A7C15ull;
        h ^= h >> 29;
        s += (int)(h % (uint64_t)(2 * ctx->noise + 1)) - ctx->noise;
    }
    return s;
}

/* Repetition (twice within the search, or a third time counting the game
 * before the root), scanning no further than the last irreversible move or
 * null move. */
static bool is_repetition(const Thread *t) {
    const Position *pos = &t->pos;
    int limit = pos->halfmove < pos->hply ? pos->halfmove : pos->hply;
    int count = 0;
    for (int i = 1; i <= limit; i++) {
        const Undo *u = &pos->hist[pos->hply - i];
        if (u->move == MOVE_NONE)
            break;
        if (i >= 4 && !(i & 1) && u->key == pos->key) {
            if (pos->hply - i >= t->root_hply)
                return true;
            if (++count >= 2)
                return true;
        }
    }
    return false;
}

/* Lazily computed legality facts of one node. */
typedef struct {
    bool ready;
    uint8_t pinned[MAX_SQ];
} Pins;

/* Plays m if it is legal; false (position unchanged) if not. */
static bool make_legal(Thread *t, Move m, bool in_check, Pins *pins) {
    Position *pos = &t->pos;
    int us = pos->stm;
    bool test = false;
    if (pos->king[us] != SQ_NONE) {
        if (!in_check && !pins->ready) {
            movegen_pinned(pos, pins->pinned);
            pins->ready = true;
        }
        test = !movegen_surely_legal(pos, m, in_check, in_check ? NULL : pins->pinned);
    }
    pos_make_move(pos, m);
    tt_prefetch(&t->ctx->tt, pos->key);
    if (test && movegen_attacked(pos, pos->king[us], !us)) {
        pos_unmake_move(pos);
        return false;
    }
    return true;
}

/* MultiPV: a root move that an earlier line of this iteration took. */
static bool excluded(const Thread *t, Move m) {
    for (int i = 0; i < t->nexcluded; i++)
        if (t->line[i].pv[0] == m)
            return true;
    return false;
}

static void update_pv(Thread *t, int ply, Move m) {
    t->pv[ply][ply] = m;
    for (int i = ply + 1; i < t->pvlen[ply + 1]; i++)
        t->pv[ply][i] = t->pv[ply + 1][i];
    t->pvlen[ply] = t->pvlen[ply + 1] > ply + 1 ? t->pvlen[ply + 1] : ply + 1;
}

static void history_add(int16_t *h, int bonus) {
    int v = *h + bonus - *h * (bonus < 0 ? -bonus : bonus) / 16384;
    *h = (int16_t)(v > 16000 ? 16000 : v < -16000 ? -16000 : v);
}

/* Continuation history of quiet move m at ply (not yet played) after the
 * moves one and two plies back. */
static void cont_add(Thread *t, int ply, Move m, int bonus) {
    int slot = search_cont_slot(t->pos.v, t->pos.board[move_from(m)], move_to(m));
    for (int k = 1; k <= 2 && k <= ply; k++)
        if (t->stack[ply - k].cont)
            history_add(&t->stack[ply - k].cont[slot], bonus);
}

/* The continuation history row of piece's move m (NULL without a table). */
static inline int16_t *cont_row(Thread *t, int piece, Move m) {
    if (!t->cont)
        return NULL;
    size_t slot = (size_t)search_cont_slot(t->pos.v, (Piece)piece, move_to(m));
    return t->cont + slot * (size_t)t->cont_n;
}

static void update_quiet_stats(Thread *t, int ply, Move best, const Move *quiets, int nq,
                               int depth) {
    Stack *ss = &t->stack[ply];
    int us = t->pos.stm;
    int bonus = depth * depth > 400 ? 400 : depth * depth;
    bonus *= 4;
    if (ss->killer[0] != best) {
        ss->killer[1] = ss->killer[0];
        ss->killer[0] = best;
    }
    if (ply > 0 && t->stack[ply - 1].move)
        t->counter[t->stack[ply - 1].piece][move_to(t->stack[ply - 1].move)] = best;
    history_add(&t->history[us][move_from(best)][move_to(best)], bonus);
    cont_add(t, ply, best, bonus);
    for (int i = 0; i < nq; i++)
        if (quiets[i] != best) {
            history_add(&t->history[us][move_from(quiets[i])][move_to(quiets[i])], -bonus);
            cont_add(t, ply, quiets[i], -bonus);
        }
}

static int search(Thread *t, int alpha, int beta, int depth, int ply, bool cutnode);

/* ---- quiescence ----------------------------------------------------------- */

static int qsearch(Thread *t, int alpha, int beta, int ply, bool in_check) {
    Position *pos = &t->pos;
    SearchContext *ctx = t->ctx;
    const Variant *v = pos->v;

    // Step 1. Limits and the end of the game.
    count_node(t);
    if (stopped(t))
        return 0;
    if (ply > t->seldepth)
        t->seldepth = ply;
    int end = v->sudden_end ? pos_game_end(pos) : 0;
    if (end)
        return end * (MATE - ply);
    if (ply >= MAX_PLY)
        return in_check ? 0 : evaluate(t, 0, 0, NULL);
    if (pos->pcount[0] + pos->pcount[1] <= 8 && eval_dead_draw(ctx->eval, pos))
        return 0;

    // Step 2. Transposition table.
    TTHit hit;
    Move tt_move = MOVE_NONE;
    int tt_eval = SCORE_NONE;
    if (tt_probe(&ctx->tt, pos->key, &hit)) {
        int s = score_from_tt(hit.score, ply);
        if (hit.bound != BOUND_NONE && ((hit.bound == BOUND_EXACT) || (hit.bound == BOUND_LOWER && s >= beta) ||
            (hit.bound == BOUND_UPPER && s <= alpha)))
            return s;
        tt_move = hit.move;
        tt_eval = hit.eval;
    }

    // Step 3. Stand pat (not in check).
    int best = -INF, eval = SCORE_NONE, stored_eval = SCORE_NONE;
    if (!in_check) {
        bool lazy = false;
        eval = tt_eval != SCORE_NONE ? tt_eval : evaluate(t, alpha, beta, &lazy);
        if (!lazy)
            stored_eval = eval;
        best = eval;
        if (best >= beta)
            return best;
        if (best > alpha)
            alpha = best;
    }

    // Step 4. Captures and promotions; every evasion when in check.
    MovePicker mp;
    if (in_check)
        movepick_init(&mp, t, ctx->eval, tt_move, ply);
    else
        movepick_init_noisy(&mp, t, ctx->eval, tt_move);
    Pins pins = {.ready = false};
    int legal = 0;
    Move best_move = MOVE_NONE;
    int old_alpha = alpha;
    Move m;
    while ((m = movepick_next(&mp, NULL)) != MOVE_NONE) {
        if (!in_check) {
            // Step 5. Delta and losing-capture pruning.
            int gain = movepick_gain(pos, ctx->eval, m);
            bool wins = movepick_wins(pos, m);
            if (eval + gain + 200 <= alpha && !move_promo(m) && !wins)
                continue;
            if (!wins && movepick_bad_capture(pos, ctx->eval, m))
                continue;
        }
        int piece = pos->board[move_from(m)];
        if (!make_legal(t, m, in_check, &pins))
            continue;
        legal++;
        t->stack[ply].move = m;
        t->stack[ply].piece = piece;
        t->stack[ply].cont = cont_row(t, piece, m);
        bool check = movegen_in_check(pos);
        int score = -qsearch(t, -beta, -alpha, ply + 1, check);
        pos_unmake_move(pos);
        if (stopped(t))
            return 0;
        if (score > best) {
            best = score;
            if (score > alpha) {
                alpha = score;
                best_move = m;
                if (score >= beta)
                    break;
            }
        }
    }

    // Step 6. Mate; store.
    if (in_check && !legal)
        return -MATE + ply;
    int bound = best >= beta ? BOUND_LOWER : alpha > old_alpha ? BOUND_EXACT : BOUND_UPPER;
    tt_store(&ctx->tt, pos->key, best_move, score_to_tt(best, ply), stored_eval, 0, bound);
    return best;
}

/* Step 2 of search: the score of a node the game ends in (a win square
 * reached, a repetition, a dead draw, the N-move rule, the ply limit), else
 * SCORE_NONE; *rule_draw when the N-move rule draws unless this is mate. */
static int game_end(Thread *t, int ply, bool in_check, bool *rule_draw) {
    const Position *pos = &t->pos;
    const Variant *v = pos->v;
    int end = v->sudden_end ? pos_game_end(pos) : 0;
    if (end)
        return end * (MATE - ply);
    if (is_repetition(t))
        return 0;
    if (pos->pcount[0] + pos->pcount[1] <= 8 && eval_dead_draw(t->ctx->eval, pos))
        return 0;
    if (v->move_rule && pos->halfmove >= 2 * v->move_rule) {
        if (!in_check)
            return 0;
        *rule_draw = true;
    }
    if (ply >= MAX_PLY)
        return in_check ? 0 : evaluate(t, 0, 0, NULL);
    return SCORE_NONE;
}

/* Step 7 of search: the null move and, deep, its verification. The score
 * to return (0 when stopped), or SCORE_NONE when the node goes on. */
static int null_move(Thread *t, int beta, int depth, int ply, bool cutnode, int eval) {
    Position *pos = &t->pos;
    Stack *ss = &t->stack[ply];
    int r = 3 + depth / 5 + ((eval - beta) / 200 < 3 ? (eval - beta) / 200 : 3);
    ss->move = MOVE_NONE;
    ss->piece = 0;
    ss->cont = NULL;
    pos_make_null(pos);
    ss[1].in_check = false;
    int score = -search(t, -beta, -beta + 1, depth - r, ply + 1, !cutnode);
    pos_unmake_null(pos);
    if (stopped(t))
        return 0;
    if (score < beta)
        return SCORE_NONE;
    if (score >= MATE_IN_MAX)
        score = beta;
    if (depth < 10)
        return score;
    /* deep: verify without null moves near this ply */
    t->nmp_min_ply = ply + 3 * (depth - r) / 4;
    int vs = search(t, beta - 1, beta, depth - r, ply, false);
    t->nmp_min_ply = 0;
    return vs >= beta ? score : SCORE_NONE;
}

/* Step 11 of search: is the hash move m singular - far better than every
 * other move, searched shallower without it? Sets *ext. The score to return
 * (a multi-cut when even the others beat beta; 0 when stopped), or
 * SCORE_NONE when the node goes on. */
static int singular(Thread *t, Move m, int tt_score, int depth, int ply, int beta, bool cutnode,
                    int *ext) {
    Stack *ss = &t->stack[ply];
    int sbeta = tt_score - 2 * depth;
    ss->excluded = m;
    int sv = search(t, sbeta - 1, sbeta, (depth - 1) / 2, ply, cutnode);
    ss->excluded = MOVE_NONE;
    if (stopped(t))
        return 0;
    if (sv < sbeta)
        *ext = 1;
    else if (sbeta >= beta)
        return sbeta;
    return SCORE_NONE;
}

/* Step 10 of search: may late move m (ordering score order) be skipped at
 * this shallow depth? Late, hopeless or badly scored quiet moves go, unless
 * they check (a mate may hide behind a check); so do losing captures that
 * cannot catch up. */
static bool late_move_pruned(Thread *t, Move m, int depth, int order, int nquiets, bool quiet,
                             bool killer, bool improving, bool in_check, int eval, int alpha) {
    const Position *pos = &t->pos;
    const Eval *e = t->ctx->eval;
    if (quiet && depth <= 8) {
        int lmp = (3 + depth * depth) / (2 - improving);
        bool prune = nquiets >= lmp ||
                     (!in_check && eval + 100 + 80 * depth <= alpha && !killer &&
                      alpha < MATE_IN_MAX) ||
                     (depth <= 3 && order < -1500 * depth);
        return prune && !movepick_gives_check(pos, e, m);
    }
    return !quiet && depth <= 4 && order < 0 && !in_check &&
           eval + movepick_gain(pos, e, m) + 150 * depth <= alpha;
}

/* Step 12 of search: the depth of a late move's reduced search. */
static int reduced_depth(int depth, int legal, int new_depth, int order, bool pv_node,
                         bool cutnode, bool improving, bool killer, bool check, bool quiet) {
    int r = lmr_table[depth < 64 ? depth : 63][legal < 64 ? legal : 63];
    r -= pv_node;
    r += cutnode;
    r -= improving;
    r -= killer;
    r -= check;
    if (quiet && order < PICK_GOOD)
        r -= order / 6000;
    int rd = new_depth - (r > 0 ? r : 0);
    if (rd < 1)
        rd = 1;
    if (rd > new_depth)
        rd = new_depth;
    return rd;
}

/* ---- the main search ------------------------------------------------------ */

static int search(Thread *t, int alpha, int beta, int depth, int ply, bool cutnode) {
    Position *pos = &t->pos;
    SearchContext *ctx = t->ctx;
    const Variant *v = pos->v;
    Stack *ss = &t->stack[ply];
    bool pv_node = beta - alpha > 1;
    bool root = ply == 0;
    bool in_check = ss->in_check;

    // Step 1. Quiescence at the horizon (no line below: the parent must not
    // copy a stale one into its principal variation).
    t->pvlen[ply] = ply;
    if (depth <= 0)
        return qsearch(t, alpha, beta, ply, in_check);
    count_node(t);
    if (stopped(t))
        return 0;
    if (ply > t->seldepth)
        t->seldepth = ply;

    // Step 2. The end of the game: win squares, bare kings, draws.
    bool rule_draw = false;
    if (!root) {
        int end = game_end(t, ply, in_check, &rule_draw);
        if (end != SCORE_NONE)
            return end;

        // Step 3. Mate distance pruning.
        int lo = -MATE + ply, hi = MATE - ply - 1;
        if (alpha < lo)
            alpha = lo;
        if (beta > hi)
            beta = hi;
        if (alpha >= beta)
            return alpha;
    }

    // Step 4. Transposition table.
    TTHit hit;
    bool tt_hit = tt_probe(&ctx->tt, pos->key, &hit);
    Move tt_move = tt_hit ? hit.move : MOVE_NONE;
    if (root && t->root_best)
        tt_move = t->root_best;
    int tt_score = tt_hit && hit.bound != BOUND_NONE ? score_from_tt(hit.score, ply) : SCORE_NONE;
    Move skip = ss->excluded; /* a singular extension's test leaves it out */
    if (tt_hit && !pv_node && !skip && hit.depth >= depth && tt_score != SCORE_NONE &&
        !rule_draw && (!v->move_rule || pos->halfmove < 2 * v->move_rule - 10) &&
        ((hit.bound == BOUND_EXACT) || (hit.bound == BOUND_LOWER && tt_score >= beta) ||
         (hit.bound == BOUND_UPPER && tt_score <= alpha)))
        return tt_score;

    // Step 5. Static evaluation.
    int eval;
    if (in_check)
        eval = ss->eval = SCORE_NONE;
    else {
        eval = ss->eval = tt_hit && hit.eval != SCORE_NONE ? hit.eval : evaluate(t, 0, 0, NULL);
        if (!tt_hit)
            tt_store(&ctx->tt, pos->key, MOVE_NONE, SCORE_NONE, eval, -1, BOUND_NONE);
        /* a bound from the table may sharpen the eval */
        if (tt_score != SCORE_NONE &&
            ((hit.bound == BOUND_LOWER && tt_score > eval) ||
             (hit.bound == BOUND_UPPER && tt_score < eval)))
            eval = tt_score;
    }
    bool improving = !in_check && ply >= 2 && t->stack[ply - 2].eval != SCORE_NONE &&
                     ss->eval > t->stack[ply - 2].eval;
    ss[1].killer[0] = ss[1].killer[1] = MOVE_NONE;

    if (!pv_node && !in_check && !skip) {
        // Step 6. Reverse futility pruning.
        if (depth <= 7 && eval - 80 * (depth - improving) >= beta && eval < MATE_IN_MAX &&
            beta > -MATE_IN_MAX)
            return eval;

        // Step 7. Null move, only with pieces besides king and pawns (so
        // zugzwang is unlikely) and never while pieces wait in hand.
        if (depth >= 3 && eval >= beta && ss->eval >= beta && ply > 0 && ply >= t->nmp_min_ply &&
            t->stack[ply - 1].move != MOVE_NONE && !pos->nhand[pos->stm] &&
            eval_has_pieces(ctx->eval, pos, pos->stm) && beta > -MATE_IN_MAX) {
            int score = null_move(t, beta, depth, ply, cutnode, eval);
            if (score != SCORE_NONE)
                return score;
        }
    }

    // Step 8. Internal iterative reduction without a hash move.
    if (depth >= 5 && !tt_move && !root && !skip)
        depth--;

    // Step 9. The moves.
    MovePicker mp;
    movepick_init(&mp, t, ctx->eval, tt_move, ply);
    Pins pins = {.ready = false};
    Move quiets[64];
    int nquiets = 0, legal = 0;
    int best = -INF, old_alpha = alpha;
    Move best_move = MOVE_NONE, m;
    int order;
    while ((m = movepick_next(&mp, &order)) != MOVE_NONE) {
        if (m == skip || (root && t->nexcluded && excluded(t, m)))
            continue;
        bool noisy = movepick_is_noisy(pos, m);
        bool quiet = !noisy;
        bool killer = m == ss->killer[0] || m == ss->killer[1];

        // Step 10. Pruning of late quiet moves at shallow depth.
        if (!root && best > -MATE_IN_MAX && legal > 0 &&
            late_move_pruned(t, m, depth, order, nquiets, quiet, killer, improving, in_check,
                             eval, alpha))
            continue;

        // Step 11. Extensions: a hash move far better than every other
        // (singular), checks. When even the others beat beta, so will this
        // node (multi-cut).
        int ext = 0;
        if (!root && m == tt_move && !skip && depth >= 8 && hit.depth >= depth - 3 &&
            (hit.bound & BOUND_LOWER) && tt_score != SCORE_NONE && tt_score > -MATE_IN_MAX &&
            tt_score < MATE_IN_MAX) {
            int sc = singular(t, m, tt_score, depth, ply, beta, cutnode, &ext);
            if (sc != SCORE_NONE)
                return sc;
        }

        int piece = pos->board[move_from(m)];
        if (!make_legal(t, m, in_check, &pins))
            continue;
        legal++;
        ss->move = m;
        ss->piece = piece;
        ss->cont = cont_row(t, piece, m);
        bool check = movegen_in_check(pos);
        ss[1].in_check = check;
        if (quiet && nquiets < 64)
            quiets[nquiets++] = m;

        int new_depth = depth - 1 + (ext || (check && ply < 2 * depth + 8));

        // Step 12. Late-move reductions, then PVS.
        int score;
        if (depth >= 3 && legal > 1 + 2 * root && (quiet || order < 0)) {
            int rd = reduced_depth(depth, legal, new_depth, order, pv_node, cutnode, improving,
                                   killer, check, quiet);
            score = -search(t, -alpha - 1, -alpha, rd, ply + 1, true);
            if (score > alpha && rd < new_depth)
                score = -search(t, -alpha - 1, -alpha, new_depth, ply + 1, !cutnode);
        } else if (!pv_node || legal > 1) {
            score = -search(t, -alpha - 1, -alpha, new_depth, ply + 1, !cutnode);
        } else
            score = alpha + 1; /* force the full window below */
        if (pv_node && (legal == 1 || (score > alpha && score < beta))) {
            ss[1].in_check = check;
            score = -search(t, -beta, -alpha, new_depth, ply + 1, false);
        }
        pos_unmake_move(pos);
        if (stopped(t))
            return 0;

        // Step 13. Best so far.
        if (score > best) {
            best = score;
            if (score > alpha) {
                best_move = m;
                alpha = score;
                if (pv_node)
                    update_pv(t, ply, m);
                if (root)
                    t->root_best = m;
                if (score >= beta) {
                    if (quiet)
                        update_quiet_stats(t, ply, m, quiets, nquiets, depth);
                    break;
                }
            }
        }
    }

    // Step 14. Mate or stalemate; the N-move rule; store.
    if (!legal)
        return skip ? alpha : in_check || v->stalemate_loss ? -MATE + ply : 0;
    if (rule_draw)
        return 0;
    if (skip)
        return best;
    int bound = best >= beta ? BOUND_LOWER : alpha > old_alpha ? BOUND_EXACT : BOUND_UPPER;
    tt_store(&ctx->tt, pos->key, best_move, score_to_tt(best, ply), ss->eval, depth, bound);
    return best;
}

/* ---- iterative deepening -------------------------------------------------- */

static void report(Thread *t, int depth, int multipv, const PvLine *line) {
    SearchContext *ctx = t->ctx;
    if (!ctx->cb || !ctx->cb->info)
        return;
    SearchInfo si;
    memset(&si, 0, sizeof si);
    si.multipv = multipv;
    si.depth = depth;
    si.seldepth = t->seldepth;
    int score = line->score;
    si.score = score;
    if (score >= MATE_IN_MAX)
        si.mate = (MATE - score + 1) / 2;
    else if (score <= -MATE_IN_MAX)
        si.mate = -(MATE + score) / 2;
    si.nodes = total_nodes(ctx);
    si.time_ms = (int)timeman_elapsed(&ctx->tm);
    si.nps = si.time_ms > 0 ? si.nodes * 1000 / (uint64_t)si.time_ms : si.nodes * 1000;
    /* SAN on a copy: make/unmake may reorder the piece lists, and the
     * searcher's own position must see only what it saw before SAN came */
    Position *pos = &t->pos;
    size_t used = offsetof(Position, hist) + (size_t)pos->hply * sizeof(Undo);
    Position *san_pos = malloc(used + (size_t)(line->len + 1) * sizeof(Undo));
    if (san_pos)
        memcpy(san_pos, pos, used);
    size_t o = 0, os = 0;
    int made = 0;
    for (int i = 0; i < line->len; i++) {
        char txt[MOVE_TEXT_LEN], san[MOVE_TEXT_LEN] = "";
        notation_coord(pos, line->pv[i], txt);
        if (san_pos)
            notation_san(san_pos, line->pv[i], san);
        size_t l = strlen(txt), ls = strlen(san);
        if (o + l + 2 > sizeof si.pv || os + ls + 2 > sizeof si.pv_san)
            break;
        if (o)
            si.pv[o++] = ' ', si.pv_san[os++] = ' ';
        memcpy(si.pv + o, txt, l + 1);
        memcpy(si.pv_san + os, san, ls + 1);
        o += l;
        os += ls;
        pos_make_move(pos, line->pv[i]);
        if (san_pos)
            pos_make_move(san_pos, line->pv[i]);
        made++;
    }
    while (made--)
        pos_unmake_move(pos);
    free(san_pos);
    ctx->cb->info(&si, ctx->cb->ud);
}

/* Lines the main thread searches: MultiPV, at most the root's moves. */
static int root_lines(Thread *t) {
    int want = t->ctx->lim.multipv;
    if (t->id != 0 || want <= 1)
        return 1;
    MoveList l;
    movegen_legal(&t->pos, &l);
    want = want < SEARCH_MAX_PV ? want : SEARCH_MAX_PV;
    return l.n < want ? (l.n > 0 ? l.n : 1) : want;
}

static void iterate(Thread *t) {
    SearchContext *ctx = t->ctx;
    int prev = 0, stability = 0, npv = root_lines(t);
    int line_prev[SEARCH_MAX_PV] = {0};
    Move last_best = MOVE_NONE;
    for (int depth = 1; depth <= ctx->max_depth; depth++) {
        /* helpers spread over depths */
        if (t->id > 0 && depth > 1 && depth < ctx->max_depth && ((depth + t->id) % 3 == 0))
            continue;
        t->seldepth = 0;
        int score = 0, lines = 0;
        for (int k = 0; k < npv; k++) {
            /* line k: the best move but those of lines 0..k-1 */
            t->nexcluded = k;
            if (k)
                t->root_best = t->depth_done > 0 ? t->line[k].pv[0] : MOVE_NONE;
            int base = k ? line_prev[k] : prev, s;
            int delta = 18, alpha = -INF, beta = INF;
            if (depth >= 5) {
                alpha = base - delta > -INF ? base - delta : -INF;
                beta = base + delta < INF ? base + delta : INF;
            }
            for (;;) {
                t->stack[0].in_check = movegen_in_check(&t->pos);
                s = search(t, alpha, beta, depth, 0, false);
                if (stopped(t))
                    break;
                if (s <= alpha) {
                    beta = (alpha + beta) / 2;
                    alpha = s - delta > -INF ? s - delta : -INF;
                } else if (s >= beta) {
                    beta = s + delta < INF ? s + delta : INF;
                } else
                    break;
                delta += delta / 2 + 5;
            }
            if (k == 0)
                score = s;
            else if (stopped(t))
                break; /* only complete lines count */
            PvLine *ln = &t->line[k];
            ln->len = t->pvlen[0] > 0 ? t->pvlen[0] : 0;
            memcpy(ln->pv, t->pv[0], (size_t)ln->len * sizeof(Move));
            if (!ln->len)
                ln->pv[0] = t->root_best; /* the move, though no line came */
            ln->score = s;
            line_prev[k] = s;
            lines = k + 1;
            if (stopped(t))
                break;
        }
        t->nexcluded = 0;
        if (npv > 1)
            t->root_best = t->line[0].pv[0];
        if (stopped(t) && depth > 1)
            break;
        t->depth_done = depth;
        t->score = score;
        t->best = t->line[0].pv[0];
        if (t->id != 0)
            continue;
        for (int k = 0; k < lines; k++)
            report(t, depth, k + 1, &t->line[k]);
        stability = t->best == last_best ? stability + 1 : 0;
        last_best = t->best;
        bool dropped = score < prev - 30;
        prev = score;
        if (stopped(t))
            break;
        if (!timeman_next_iteration(&ctx->tm, stability, dropped))
            break;
        /* a forced mate found well within the depth */
        if (ctx->tm.soft_ms && score >= MATE_IN_MAX && depth > 2 * (MATE - score) + 4)
            break;
        /* a forced move: one iteration gives its line and score */
        if (ctx->tm.soft_ms && ctx->root_moves == 1)
            break;
    }
}

static void *thread_main(void *arg) {
    Thread *t = arg;
    iterate(t);
    if (t->id == 0) {
        /* infinite analysis waits for stop before the best move */
        SearchContext *ctx = t->ctx;
        while (ctx->lim.infinite && ctx->ext_stop && !atomic_load(ctx->ext_stop)) {
            struct timespec ts = {0, 2000000};
            nanosleep(&ts, NULL);
        }
        atomic_store(&ctx->stop_all, true);
    }
    return NULL;
}

bool search_level(int level, SearchLevel *out) {
    if (level <= 0 || level >= 20)
        return false;
    out->depth = 1 + level * 6 / 10;
    out->nodes = (uint64_t)(200.0 * pow(1.75, level));
    out->noise = 10 * (20 - level);
    return true;
}

/* Level 1..19: shallower, fewer nodes and a noisy evaluation. */
static void apply_level(SearchContext *ctx, int level) {
    SearchLevel l;
    if (!search_level(level, &l))
        return;
    if (ctx->max_depth > l.depth)
        ctx->max_depth = l.depth;
    if (!ctx->max_nodes || ctx->max_nodes > l.nodes)
        ctx->max_nodes = l.nodes;
    ctx->noise = l.noise;
}

Move search_go(SearchContext *ctx, const Position *root, const SearchLimits *lim,
               const SearchCallbacks *cb, atomic_bool *stop) {
    SearchLimits none;
    if (!lim) {
        memset(&none, 0, sizeof none);
        lim = &none;
    }

    // Step 1. Settle the limits, the table, the threads.
    ctx->lim = *lim;
    ctx->cb = cb;
    ctx->ext_stop = stop;
    atomic_store(&ctx->stop_all, false);
    timeman_init(&ctx->tm, lim, root->stm, root->hply);
    ctx->max_depth = lim->depth > 0 && lim->depth < MAX_PLY ? lim->depth : MAX_PLY - 1;
    ctx->max_nodes = lim->nodes;
    ctx->noise = 0;
    ctx->seed = 0;
    if (lim->level > 0 && lim->level < 20) {
        apply_level(ctx, lim->level);
        ctx->seed = (uint64_t)timeman_now_ms() * 0x2545F4914F6CDD1Dull ^ (uint64_t)(uintptr_t)ctx;
    }
    if (!lim->infinite && !lim->depth && !lim->nodes && !lim->movetime_ms &&
        !lim->time_ms[root->stm] && !ctx->max_nodes) {
        ctx->tm.soft_ms = ctx->tm.hard_ms = 1000; /* no limit given: one second */
    }
    size_t mb = lim->hash_mb > 0 ? (size_t)lim->hash_mb : DEFAULT_HASH_MB;
    if (!ctx->tt.b || mb != ctx->tt.mb) {
        /* the table is made by the first search, at the size it asks for */
        tt_free(&ctx->tt);
        if (tt_init(&ctx->tt, mb) && tt_init(&ctx->tt, DEFAULT_HASH_MB / 8))
            return MOVE_NONE;
    }
    tt_new_search(&ctx->tt);
    int want = lim->threads > 0 ? (lim->threads < MAX_THREADS ? lim->threads : MAX_THREADS) : 1;
    while (ctx->nthreads < want) {
        Thread *t = thread_new(ctx, ctx->nthreads);
        if (!t)
            break;
        ctx->threads[ctx->nthreads++] = t;
    }
    while (ctx->nthreads > want && ctx->nthreads > 1)
        thread_free(ctx->threads[--ctx->nthreads]);
    if (!ctx->nthreads)
        return MOVE_NONE;

    // Step 2. A root with no moves has nothing to search.
    Thread *main_t = ctx->threads[0];
    memcpy(&main_t->pos, root, offsetof(Position, hist) + (size_t)root->hply * sizeof(Undo));
    MoveList legal;
    movegen_legal(&main_t->pos, &legal);
    ctx->root_moves = legal.n;
    if (!legal.n) {
        ctx->last_nodes = 0;
        return MOVE_NONE;
    }

    // Step 3. Fresh per-search state, then the workers.
    for (int i = 0; i < ctx->nthreads; i++) {
        Thread *t = ctx->threads[i];
        if (i)
            memcpy(&t->pos, root, offsetof(Position, hist) + (size_t)root->hply * sizeof(Undo));
        t->root_hply = root->hply;
        atomic_store(&t->nodes, 0);
        t->depth_done = 0;
        t->nmp_min_ply = 0;
        t->best = t->root_best = MOVE_NONE;
        t->score = 0;
        memset(t->stack, 0, sizeof t->stack);
        memset(t->pvlen, 0, sizeof t->pvlen);
        memset(t->line, 0, sizeof t->line);
        /* older history still orders, but less */
        for (int c = 0; c < 2; c++)
            for (int a = 0; a < ctx->v->nsq; a++)
                for (int b = 0; b < ctx->v->nsq; b++)
                    t->history[c][a][b] /= 2;
    }
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, THREAD_STACK);
    pthread_t tid[MAX_THREADS];
    bool started[MAX_THREADS] = {false};
    for (int i = ctx->nthreads - 1; i >= 0; i--)
        started[i] = !pthread_create(&tid[i], &attr, thread_main, ctx->threads[i]);
    pthread_attr_destroy(&attr);
    if (!started[0])
        thread_main(main_t); /* no thread to be had: search here */
    else
        pthread_join(tid[0], NULL);
    atomic_store(&ctx->stop_all, true);
    for (int i = 1; i < ctx->nthreads; i++)
        if (started[i])
            pthread_join(tid[i], NULL);

    // Step 4. The best move: the main thread's last full iteration.
    ctx->last_nodes = total_nodes(ctx);
    Move best = main_t->best;
    if (main_t->root_best && main_t->root_best != best && main_t->depth_done > 0) {
        /* an unfinished iteration found a better move: it was fully searched */
        best = main_t->root_best;
    }
    bool found = false;
    for (int i = 0; i < legal.n; i++)
        found |= legal.m[i] == best;
    if (!found)
        best = legal.m[0];
    return best;
}
