/* search.c - iterative deepening, aspiration windows, PVS, quiescence and
 * Lazy SMP (see search.h). */
#include "search/search.h"

#include <assert.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/movegen.h"
#include "core/notation.h"
#include "search/eval.h"
#include "search/history.h"
#include "search/movepick.h"
#include "search/nnue.h"
#include "search/params.h"
#include "search/timeman.h"
#include "search/tt.h"

#define MAX_THREADS 64
#define DEFAULT_HASH_MB 32
#define THREAD_STACK (32u << 20)

/* Per-ply search state. */
typedef struct {
    Move move;     /* played from this ply; MOVE_NONE for a null move */
    int piece;     /* moved piece code, 0 for a null move */
    int eval;      /* static eval, SCORE_NONE when in check */
    int16_t *cont; /* continuation history row of (piece, to) of move; NULL for none */
    Move killer[2];
    Move excluded; /* singular extension test: the move left out, else MOVE_NONE */
    bool in_check;
} Stack;

/* One best line of the last complete iteration (MultiPV). */
typedef struct {
    Move pv[MAX_PLY + 2];
    int len, score;
} PvLine;

/* One Lazy SMP worker. */
typedef struct {
    SearchContext *ctx;
    int id;
    Position pos;
    int root_hply;
    _Atomic uint64_t nodes;
    int seldepth;
    int nmp_min_ply; /* no null move before this ply (verification) */
    History hist;
    NnueAccumulator acc; /* the network's sums of the last position this thread scored */
    Stack stack[MAX_PLY + 8];
    Move pv[MAX_PLY + 2][MAX_PLY + 2];
    int pvlen[MAX_PLY + 2];
    /* results of the last completed iteration */
    int depth_done, score;
    Move best, root_best;
    /* MultiPV (main thread): the root moves of lines 0..nexcluded-1 are
     * left out of the search of the next line */
    int nexcluded;
    PvLine line[SEARCH_MAX_PV];
} Thread;

struct SearchContext {
    const Variant *v;
    Eval *eval;
    const NnueNet *net; /* the network in use (last search_go), NULL: the hand-made eval */
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
    Move avoid[16]; /* root moves left out (lim.avoid) */
    int navoid;
    int max_depth;
    uint64_t max_nodes;
    int noise;       /* level: random eval spread in centipawns */
    SearchParams p;  /* the tunable numbers in use */
    int lmr[64][64]; /* late-move reductions by depth and move number, from p */
    uint64_t seed;
    uint64_t last_nodes;
};

static inline int param(const Thread *t, SearchParamId i) {
    return t->ctx->p.v[i];
}

/* Takes the numbers p (NULL = the defaults) and the reductions made from them. */
static void set_params(SearchContext *ctx, const SearchParams *p) {
    SearchParams def;
    if (!p) {
        search_params_default(&def);
        p = &def;
    }
    ctx->p = *p;
    double base = p->v[SP_LMR_BASE] / 100.0, div = p->v[SP_LMR_DIV] / 100.0;
    for (int d = 0; d < 64; d++)
        for (int n = 0; n < 64; n++)
            ctx->lmr[d][n] = d && n ? (int)(base + log(d) * log(n) / div) : 0;
}

/* ---- the context ---------------------------------------------------------- */

SearchContext *search_new(const Variant *v) {
    SearchContext *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return NULL;
    ctx->v = v;
    set_params(ctx, NULL);
    ctx->eval = eval_new(v);
    if (!ctx->eval) {
        free(ctx);
        return NULL;
    }
    ctx->net = nnue_builtin(v);
    atomic_init(&ctx->stop_all, false);
    return ctx;
}

static Thread *thread_new(SearchContext *ctx, int id) {
    Thread *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->ctx = ctx;
    t->id = id;
    history_init(&t->hist, ctx->v);
    return t;
}

static void thread_free(Thread *t) {
    if (t)
        history_free(&t->hist);
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
    for (int i = 0; i < ctx->nthreads; i++)
        history_clear(&ctx->threads[i]->hist);
}

uint64_t search_nodes(const SearchContext *ctx) {
    return ctx->last_nodes;
}

int search_static_eval(SearchContext *ctx, const Position *pos, EvalTerms *terms) {
    if (terms || !ctx->net)
        return terms ? eval_terms(ctx->eval, pos, terms) : eval_evaluate(ctx->eval, pos);
    NnueAccumulator *acc = malloc(sizeof *acc);
    if (!acc)
        abort();
    nnue_reset(acc);
    int s = nnue_evaluate(ctx->net, acc, pos);
    free(acc);
    return s;
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

/* Counts a node; the main thread also watches the stop request (at every
 * node: a node can be slow, as when it first touches a page of a large
 * table), the clock and the limits. */
static inline void count_node(Thread *t) {
    uint64_t n = atomic_load_explicit(&t->nodes, memory_order_relaxed) + 1;
    atomic_store_explicit(&t->nodes, n, memory_order_relaxed);
    SearchContext *ctx = t->ctx;
    if (t->id != 0)
        return;
    if ((ctx->max_nodes && ctx->nthreads == 1 && n >= ctx->max_nodes) ||
        (ctx->ext_stop && atomic_load_explicit(ctx->ext_stop, memory_order_relaxed)))
        atomic_store(&ctx->stop_all, true);
    if (n & 1023)
        return;
    if (timeman_hard_stop(&ctx->tm) || (ctx->max_nodes && total_nodes(ctx) >= ctx->max_nodes))
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
    int s = ctx->net ? nnue_evaluate(ctx->net, &t->acc, &t->pos)
            : lazy   ? eval_evaluate_lazy(ctx->eval, &t->pos, alpha, beta, lazy)
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
    int limit = pos_reversible_plies(pos);
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

/* Does a table score with this bound settle the window? */
static bool tt_bound_cuts(int bound, int score, int alpha, int beta) {
    return bound == BOUND_EXACT || (bound == BOUND_LOWER && score >= beta) ||
           (bound == BOUND_UPPER && score <= alpha);
}

/* A root move the caller asked to leave out (SearchLimits.avoid). */
static bool avoided(const SearchContext *ctx, Move m) {
    for (int i = 0; i < ctx->navoid; i++)
        if (ctx->avoid[i] == m)
            return true;
    return false;
}

/* MultiPV: a root move that an earlier line of this iteration took; or an
 * avoided one. */
static bool excluded(const Thread *t, Move m) {
    for (int i = 0; i < t->nexcluded; i++)
        if (t->line[i].pv[0] == m)
            return true;
    return avoided(t->ctx, m);
}

/* The root moves named in lim.avoid, unless they are all there is. */
static void root_avoid(SearchContext *ctx, Position *pos, const MoveList *legal) {
    ctx->navoid = 0;
    for (int i = 0; i < legal->n && ctx->navoid < 16 && ctx->lim.avoid[0]; i++) {
        char text[MOVE_TEXT_LEN];
        notation_coord(pos, legal->m[i], text);
        size_t n = strlen(text);
        for (const char *p = ctx->lim.avoid; (p = strstr(p, text)); p += n)
            if ((p == ctx->lim.avoid || p[-1] == ' ') && (!p[n] || p[n] == ' ')) {
                ctx->avoid[ctx->navoid++] = legal->m[i];
                break;
            }
    }
    if (ctx->navoid == legal->n)
        ctx->navoid = 0;
}

static void update_pv(Thread *t, int ply, Move m) {
    t->pv[ply][ply] = m;
    for (int i = ply + 1; i < t->pvlen[ply + 1]; i++)
        t->pv[ply][i] = t->pv[ply + 1][i];
    t->pvlen[ply] = t->pvlen[ply + 1] > ply + 1 ? t->pvlen[ply + 1] : ply + 1;
}

/* The continuation rows of the moves before ply (history_quiet). */
static void node_conts(const Thread *t, int ply, int16_t *cont[HISTORY_CONT_PLIES]) {
    for (int k = 0; k < HISTORY_CONT_PLIES; k++) {
        int back = history_cont_back[k];
        cont[k] = ply >= back ? t->stack[ply - back].cont : NULL;
    }
}

/* The counter move to the move before ply; MOVE_NONE when none. */
static Move counter_move(const Thread *t, int ply) {
    if (ply == 0 || !t->stack[ply - 1].move)
        return MOVE_NONE;
    const Stack *prev = &t->stack[ply - 1];
    return history_counter(&t->hist, (Piece)prev->piece, move_to(prev->move));
}

/* Every move of the node at ply, ordered (movepick_init). */
static void pick_all(Thread *t, MovePicker *mp, Move tt_move, int ply) {
    int16_t *cont[HISTORY_CONT_PLIES];
    node_conts(t, ply, cont);
    movepick_init(mp, &t->pos, t->ctx->eval, tt_move, &t->hist, cont, t->stack[ply].killer,
                  counter_move(t, ply));
}

/* Plays m at ply like make_legal and notes it on the stack for the
 * histories; false (position unchanged) if m is not legal. */
static bool play_move(Thread *t, int ply, Move m, bool in_check, Pins *pins) {
    int piece = t->pos.board[move_from(m)];
    if (!make_legal(t, m, in_check, pins))
        return false;
    Stack *ss = &t->stack[ply];
    ss->move = m;
    ss->piece = piece;
    ss->cont = history_cont_row(&t->hist, (Piece)piece, move_to(m));
    return true;
}

static void update_quiet_stats(Thread *t, int ply, Move best, const Move *quiets, int nq,
                               int depth) {
    Stack *ss = &t->stack[ply];
    int bonus = depth * depth > 400 ? 400 : depth * depth;
    bonus *= 32;
    if (ss->killer[0] != best) {
        ss->killer[1] = ss->killer[0];
        ss->killer[0] = best;
    }
    if (ply > 0 && t->stack[ply - 1].move)
        history_set_counter(&t->hist, (Piece)t->stack[ply - 1].piece,
                            move_to(t->stack[ply - 1].move), best);
    int16_t *cont[HISTORY_CONT_PLIES];
    node_conts(t, ply, cont);
    history_update_quiet(&t->hist, cont, &t->pos, best, bonus);
    for (int i = 0; i < nq; i++)
        if (quiets[i] != best)
            history_update_quiet(&t->hist, cont, &t->pos, quiets[i], -bonus);
}

static int search(Thread *t, int alpha, int beta, int depth, int ply, bool cutnode);

/* ---- quiescence ----------------------------------------------------------- */

static int qsearch(Thread *t, int alpha, int beta, int ply, bool in_check) {
    assert(ply >= 0 && ply <= MAX_PLY && alpha < beta);
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
        if (hit.bound != BOUND_NONE && tt_bound_cuts(hit.bound, s, alpha, beta))
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
        pick_all(t, &mp, tt_move, ply);
    else
        movepick_init_noisy(&mp, pos, ctx->eval, tt_move);
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
            if (eval + gain + param(t, SP_QS_DELTA) <= alpha && !move_promo(m) && !wins)
                continue;
            if (!wins && movepick_bad_capture(pos, ctx->eval, m))
                continue;
        }
        if (!play_move(t, ply, m, in_check, &pins))
            continue;
        legal++;
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

/* What search() knows of its node, for its steps. */
typedef struct {
    int ply, depth;
    bool pv_node, root, in_check, cutnode;
    bool rule_draw; /* the N-move rule draws unless this is mate */
    /* the transposition table */
    bool tt_hit;
    TTHit hit;
    Move tt_move;
    int tt_score; /* SCORE_NONE without a bound */
    Move skip;    /* a singular extension's test leaves it out */
    /* static evaluation, sharpened by the table's bound; SCORE_NONE in check */
    int eval;
    bool improving;
} NodeState;

/* Step 2 of search: the score of a node the game ends in (a win square
 * reached, a repetition, a dead draw, the N-move rule, the ply limit), else
 * SCORE_NONE; sets n->rule_draw when the N-move rule draws unless this is
 * mate. */
static int game_end(Thread *t, NodeState *n) {
    const Position *pos = &t->pos;
    const Variant *v = pos->v;
    int end = v->sudden_end ? pos_game_end(pos) : 0;
    if (end)
        return end * (MATE - n->ply);
    if (is_repetition(t))
        return 0;
    if (pos->pcount[0] + pos->pcount[1] <= 8 && eval_dead_draw(t->ctx->eval, pos))
        return 0;
    if (v->move_rule && pos->halfmove >= 2 * v->move_rule) {
        if (!n->in_check)
            return 0;
        n->rule_draw = true;
    }
    if (n->ply >= MAX_PLY)
        return n->in_check ? 0 : evaluate(t, 0, 0, NULL);
    return SCORE_NONE;
}

/* Step 4 of search: reads the table into n; the table's score when it
 * settles this non-PV node, else SCORE_NONE. */
static int tt_lookup(Thread *t, NodeState *n, int alpha, int beta) {
    const Position *pos = &t->pos;
    const Variant *v = pos->v;
    n->tt_hit = tt_probe(&t->ctx->tt, pos->key, &n->hit);
    n->tt_move = n->tt_hit ? n->hit.move : MOVE_NONE;
    if (n->root && t->root_best)
        n->tt_move = t->root_best;
    n->tt_score =
        n->tt_hit && n->hit.bound != BOUND_NONE ? score_from_tt(n->hit.score, n->ply) : SCORE_NONE;
    n->skip = t->stack[n->ply].excluded;
    if (n->tt_hit && !n->pv_node && !n->skip && n->hit.depth >= n->depth &&
        n->tt_score != SCORE_NONE && !n->rule_draw &&
        (!v->move_rule || t->pos.halfmove < 2 * v->move_rule - 10) &&
        tt_bound_cuts(n->hit.bound, n->tt_score, alpha, beta))
        return n->tt_score;
    return SCORE_NONE;
}

/* Step 5 of search: the static evaluation (stored in a new table entry),
 * and whether it improved on two plies back. */
static void static_eval(Thread *t, NodeState *n) {
    Stack *ss = &t->stack[n->ply];
    if (n->in_check) {
        n->eval = ss->eval = SCORE_NONE;
    } else {
        n->eval = ss->eval =
            n->tt_hit && n->hit.eval != SCORE_NONE ? n->hit.eval : evaluate(t, 0, 0, NULL);
        if (!n->tt_hit)
            tt_store(&t->ctx->tt, t->pos.key, MOVE_NONE, SCORE_NONE, n->eval, -1, BOUND_NONE);
        /* a bound from the table may sharpen the eval */
        if (n->tt_score != SCORE_NONE && ((n->hit.bound == BOUND_LOWER && n->tt_score > n->eval) ||
                                          (n->hit.bound == BOUND_UPPER && n->tt_score < n->eval)))
            n->eval = n->tt_score;
    }
    n->improving = !n->in_check && n->ply >= 2 && t->stack[n->ply - 2].eval != SCORE_NONE &&
                   ss->eval > t->stack[n->ply - 2].eval;
}

/* Step 7 of search: the null move and, deep, its verification. The score
 * to return (0 when stopped), or SCORE_NONE when the node goes on. */
static int null_move(Thread *t, const NodeState *n, int beta) {
    Position *pos = &t->pos;
    Stack *ss = &t->stack[n->ply];
    int depth = n->depth, ply = n->ply, eval = n->eval;
    int over = (eval - beta) / param(t, SP_NMP_DIV);
    int r = (param(t, SP_NMP_BASE) + param(t, SP_NMP_DEPTH) * depth) / 100 + (over < 3 ? over : 3);
    ss->move = MOVE_NONE;
    ss->piece = 0;
    ss->cont = NULL;
    pos_make_null(pos);
    ss[1].in_check = false;
    int score = -search(t, -beta, -beta + 1, depth - r, ply + 1, !n->cutnode);
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

/* Steps 6 and 7 of search, at a non-PV node not in check: the score to
 * return when the node is pruned before its moves (reverse futility,
 * razoring, null move), else SCORE_NONE. */
static int prune_node(Thread *t, const NodeState *n, int beta) {
    const Position *pos = &t->pos;
    int depth = n->depth, eval = n->eval;

    // Step 6. Reverse futility pruning.
    if (depth <= 7 && eval - param(t, SP_RFP_MARGIN) * (depth - n->improving) >= beta &&
        eval < MATE_IN_MAX && beta > -MATE_IN_MAX)
        return eval;

    // Step 6b. Razoring: far below beta near the horizon, captures only.
    if (depth <= 3 && eval + param(t, SP_RAZOR_MARGIN) * depth < beta && beta < MATE_IN_MAX) {
        int q = qsearch(t, beta - 1, beta, n->ply, false);
        if (stopped(t))
            return 0;
        if (q < beta)
            return q;
    }

    // Step 7. Null move, only with pieces besides king and pawns (so
    // zugzwang is unlikely) and never while pieces wait in hand.
    if (depth >= 3 && eval >= beta && t->stack[n->ply].eval >= beta && n->ply > 0 &&
        n->ply >= t->nmp_min_ply && t->stack[n->ply - 1].move != MOVE_NONE &&
        !pos->nhand[pos->stm] && eval_has_pieces(t->ctx->eval, pos, pos->stm) &&
        beta > -MATE_IN_MAX)
        return null_move(t, n, beta);
    return SCORE_NONE;
}

/* Step 10 of search: may late move m (ordering score order) be skipped at
 * this shallow depth? Late, hopeless or badly scored quiet moves go, unless
 * they check (a mate may hide behind a check); so do losing captures that
 * cannot catch up, and moves that lose material by exchange (SEE). */
static bool late_move_pruned(Thread *t, const NodeState *n, Move m, int order, int nquiets,
                             bool quiet, bool killer, int alpha) {
    const Position *pos = &t->pos;
    const Eval *e = t->ctx->eval;
    int depth = n->depth;
    if (quiet && depth <= 8) {
        int lmp = (param(t, SP_LMP_BASE) + depth * depth) / (2 - n->improving);
        bool prune = nquiets >= lmp ||
                     (!n->in_check &&
                      n->eval + param(t, SP_FUT_BASE) + param(t, SP_FUT_MUL) * depth <= alpha &&
                      !killer && alpha < MATE_IN_MAX) ||
                     (depth <= 3 && order < -param(t, SP_HIST_PRUNE) * depth);
        if (prune && !movepick_gives_check(pos, e, m))
            return true;
    } else if (!quiet && depth <= 4 && order < 0 && !n->in_check &&
               n->eval + movepick_gain(pos, e, m) + param(t, SP_NOISY_FUT) * depth <= alpha)
        return true;
    if (depth <= 8 && !killer && (quiet || order < 0))
        return !movepick_see_ge(pos, e, m,
                                quiet ? -param(t, SP_SEE_QUIET) * depth
                                      : -param(t, SP_SEE_NOISY) * depth * depth);
    return false;
}

/* Step 11 of search: is m the hash move and singular - far better than
 * every other move, searched shallower without it? Sets *ext. The score to
 * return (a multi-cut when even the others beat beta; 0 when stopped), or
 * SCORE_NONE when the node goes on. */
static int singular(Thread *t, const NodeState *n, Move m, int beta, int *ext) {
    int depth = n->depth, tt_score = n->tt_score;
    if (n->root || m != n->tt_move || n->skip || depth < param(t, SP_SE_DEPTH) ||
        n->hit.depth < depth - 3 || !(n->hit.bound & BOUND_LOWER) || tt_score == SCORE_NONE ||
        tt_score <= -MATE_IN_MAX || tt_score >= MATE_IN_MAX)
        return SCORE_NONE;
    Stack *ss = &t->stack[n->ply];
    int sbeta = tt_score - param(t, SP_SE_MARGIN) * depth / 100;
    ss->excluded = m;
    int sv = search(t, sbeta - 1, sbeta, (depth - 1) / 2, n->ply, n->cutnode);
    ss->excluded = MOVE_NONE;
    if (stopped(t))
        return 0;
    if (sv < sbeta)
        *ext = 1;
    else if (sbeta >= beta)
        return sbeta;
    return SCORE_NONE;
}

/* Step 12 of search: the score of move m (played), the legal-th at this
 * node: a late move's reduced search first, then PVS. */
static int search_move(Thread *t, const NodeState *n, int alpha, int beta, int new_depth, int legal,
                       int order, bool killer, bool check, bool quiet, bool escape) {
    int ply = n->ply, depth = n->depth, score;
    if (depth >= 3 && legal > 1 + 2 * n->root && (quiet || order < 0)) {
        int r = t->ctx->lmr[depth < 64 ? depth : 63][legal < 64 ? legal : 63];
        r -= n->pv_node;
        r += n->cutnode * param(t, SP_LMR_CUT);
        r -= n->improving;
        r -= killer;
        r -= check;
        r -= 2 * escape;
        if (quiet && order < PICK_GOOD)
            r -= order / param(t, SP_LMR_HIST);
        int rd = new_depth - (r > 0 ? r : 0);
        if (rd < 1)
            rd = 1;
        if (rd > new_depth)
            rd = new_depth;
        score = -search(t, -alpha - 1, -alpha, rd, ply + 1, true);
        if (score > alpha && rd < new_depth)
            score = -search(t, -alpha - 1, -alpha, new_depth, ply + 1, !n->cutnode);
    } else if (!n->pv_node || legal > 1) {
        score = -search(t, -alpha - 1, -alpha, new_depth, ply + 1, !n->cutnode);
    } else
        score = alpha + 1; /* force the full window below */
    if (n->pv_node && (legal == 1 || (score > alpha && score < beta))) {
        t->stack[ply + 1].in_check = check;
        score = -search(t, -beta, -alpha, new_depth, ply + 1, false);
    }
    return score;
}

/* ---- the main search ------------------------------------------------------ */

static int search(Thread *t, int alpha, int beta, int depth, int ply, bool cutnode) {
    assert(ply >= 0 && ply <= MAX_PLY && alpha < beta);
    Position *pos = &t->pos;
    Stack *ss = &t->stack[ply];
    NodeState n = {.ply = ply,
                   .depth = depth,
                   .pv_node = beta - alpha > 1,
                   .root = ply == 0,
                   .in_check = ss->in_check,
                   .cutnode = cutnode};

    // Step 1. Quiescence at the horizon (no line below: the parent must not
    // copy a stale one into its principal variation).
    t->pvlen[ply] = ply;
    if (depth <= 0)
        return qsearch(t, alpha, beta, ply, n.in_check);
    count_node(t);
    if (stopped(t))
        return 0;
    if (ply > t->seldepth)
        t->seldepth = ply;

    if (!n.root) {
        // Step 2. The end of the game: win squares, bare kings, draws.
        int end = game_end(t, &n);
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
    int score = tt_lookup(t, &n, alpha, beta);
    if (score != SCORE_NONE)
        return score;

    // Step 5. Static evaluation.
    static_eval(t, &n);
    ss[1].killer[0] = ss[1].killer[1] = MOVE_NONE;

    // Steps 6 and 7. Reverse futility pruning, null move.
    if (!n.pv_node && !n.in_check && !n.skip) {
        score = prune_node(t, &n, beta);
        if (score != SCORE_NONE)
            return score;
    }

    // Step 8. Internal iterative reduction without a hash move.
    if (n.depth >= 5 && !n.tt_move && !n.root && !n.skip)
        n.depth--;

    // Step 9. The moves.
    MovePicker mp;
    pick_all(t, &mp, n.tt_move, ply);
    Pins pins = {.ready = false};
    Move quiets[64];
    int nquiets = 0, legal = 0;
    int best = -INF, old_alpha = alpha;
    Move best_move = MOVE_NONE, m;
    int order;
    while ((m = movepick_next(&mp, &order)) != MOVE_NONE) {
        if (m == n.skip || (n.root && (t->nexcluded || t->ctx->navoid) && excluded(t, m)))
            continue;
        bool quiet = !movepick_is_noisy(pos, m);
        bool killer = m == ss->killer[0] || m == ss->killer[1];

        // Step 10. Pruning of late moves at shallow depth.
        if (!n.root && best > -MATE_IN_MAX && legal > 0 &&
            late_move_pruned(t, &n, m, order, nquiets, quiet, killer, alpha))
            continue;

        // Step 11. Extensions: a hash move far better than every other
        // (singular), checks. When even the others beat beta, so will this
        // node (multi-cut).
        int ext = 0;
        score = singular(t, &n, m, beta, &ext);
        if (score != SCORE_NONE)
            return score;

        /* a direct check that loses material by exchange is not extended */
        bool check_ext = ply < 2 * n.depth + 8 && (!movepick_gives_check(pos, t->ctx->eval, m) ||
                                                   movepick_see_ge(pos, t->ctx->eval, m, 0));
        /* a quiet move that takes a piece out of a losing exchange is
         * reduced less (outside expected cut nodes) */
        bool escape = quiet && !n.cutnode && n.depth >= 3 && legal >= 1 + 2 * n.root &&
                      move_kind(m) == MK_NORMAL &&
                      movepick_threatened(pos, t->ctx->eval, move_from(m));
        if (!play_move(t, ply, m, n.in_check, &pins))
            continue;
        legal++;
        bool check = movegen_in_check(pos);
        ss[1].in_check = check;
        if (quiet && nquiets < 64)
            quiets[nquiets++] = m;
        int new_depth = n.depth - 1 + (ext || (check && check_ext));

        // Step 12. Late-move reductions, then PVS.
        score =
            search_move(t, &n, alpha, beta, new_depth, legal, order, killer, check, quiet, escape);
        pos_unmake_move(pos);
        if (stopped(t))
            return 0;

        // Step 13. Best so far.
        if (score > best) {
            best = score;
            if (score > alpha) {
                best_move = m;
                alpha = score;
                if (n.pv_node)
                    update_pv(t, ply, m);
                if (n.root)
                    t->root_best = m;
                if (score >= beta) {
                    if (quiet)
                        update_quiet_stats(t, ply, m, quiets, nquiets, n.depth);
                    break;
                }
            }
        }
    }

    // Step 14. Mate or stalemate; the N-move rule; store.
    if (!legal)
        return n.skip ? alpha : n.in_check || pos->v->stalemate_loss ? -MATE + ply : 0;
    if (n.rule_draw)
        return 0;
    if (n.skip)
        return best;
    int bound = best >= beta ? BOUND_LOWER : alpha > old_alpha ? BOUND_EXACT : BOUND_UPPER;
    tt_store(&t->ctx->tt, pos->key, best_move, score_to_tt(best, ply), ss->eval, n.depth, bound);
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
    si.hashfull = tt_hashfull(&ctx->tt);
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
    int n = l.n - t->ctx->navoid;
    return n < want ? (n > 0 ? n : 1) : want;
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
            int delta = param(t, SP_ASP_DELTA), alpha = -INF, beta = INF;
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
        /* a later line may come out better than an earlier one: best first */
        for (int k = 1; k < lines; k++)
            for (int j = k; j > 0 && t->line[j].score > t->line[j - 1].score; j--) {
                PvLine tmp = t->line[j];
                t->line[j] = t->line[j - 1];
                t->line[j - 1] = tmp;
                int p = line_prev[j];
                line_prev[j] = line_prev[j - 1];
                line_prev[j - 1] = p;
            }
        if (lines > 1)
            score = t->line[0].score;
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
    out->nodes = (uint64_t)(100.0 * pow(1.45, level - 1));
    out->noise = 10 * (20 - level);
    return true;
}

/* Level 1..19: shallower, fewer nodes and a noisy evaluation. The node cap
 * binds at every level: level 19 gets about 80 000 nodes, a fraction of what
 * full strength searches in the web app's 2 s a move, so each level is a
 * step below the next (docs/strength.md, "Levels", has the measured ladder). */
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
    set_params(ctx, lim->params);
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
    char why[200];
    const NnueNet *net = lim->hand_eval ? NULL
                         : lim->net && nnue_fits(lim->net, ctx->v, why, sizeof why)
                             ? lim->net
                             : nnue_builtin(ctx->v);
    if (net != ctx->net && ctx->tt.b)
        tt_clear(&ctx->tt); /* its static evals were another evaluation's */
    ctx->net = net;
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
    root_avoid(ctx, &main_t->pos, &legal);
    ctx->root_moves -= ctx->navoid;

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
        history_age(&t->hist);
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
    if (!found) {
        best = legal.m[0];
        for (int i = legal.n - 1; i >= 0; i--)
            if (!avoided(ctx, legal.m[i]))
                best = legal.m[i];
    }
    return best;
}
