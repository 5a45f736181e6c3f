/* search.c - the Slangenspel searcher.
 *
 * Scores are the final store difference from the side to move's view, in eggs.
 * Alpha-beta is fail-soft, so a returned v <= alpha means "at most v", v >= beta
 * "at least v", anything between "exactly v". Every node knows hard bounds on its
 * value (present stores +- the eggs still in play), and leaves that are decided by
 * them, by the end of the game, by the 100-ply rule or by the endgame database are
 * true values or true bounds. Leaves cut off by the depth limit (scored with the
 * present store difference) are guesses.
 *
 * Repetitions. The value proven is the database's: play that never captures again
 * gains nothing more. A repetition on the search path (since the last capture) is
 * scored as that end: the present store difference. This is exact for the node where
 * the cycle began, not for the nodes inside it: within one egg count the store
 * difference d is fixed, so for any threshold t the question "can the mover end with
 * t or more" is a reachability game (one side must leave through a capture, endless
 * play is the other side's win), and such a game has the same winner when the first
 * repetition ends it in the endless player's favour. Inside the cycle the result
 * depends on the path (a move back to the cycle's start is scored as the end, though
 * from there the opponent could have done better). So each result carries the
 * lowest path index of a repetition it rests on; at the node of that index or above
 * it the result is proven (a path-free value), below it it is true only on this path
 * and is kept in the table as a guess. Results that rest on a depth cutoff, on a
 * guess from the table or on a game position before the root are never proven.
 *
 * Each result says whether it is proven: a cutoff when the move that made it is (or a
 * later move whose value is known), any other result when every move's is.
 * Transposition entries remember whether they were proven; proven ones serve at any
 * depth and on any path. What "proven" assumes: the database ignores the 100-ply rule,
 * while the search applies it on its path (an entry proven near the rule's limit may
 * serve a path far from it: the usual graph-history caveat, now only for that rule).
 */
#include "mancala/search.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "mancala/egdb.h"

#define INF 30000
/* What a result rests on (see the top): a path index of a repetition, or one of these. */
#define DEP_PROVEN INT_MAX /* proven leaves only */
#define DEP_GUESS (-1)     /* a guess somewhere */
#define MAX_PLY 128
#define PATH_MAX_LEN (MAX_PLY + 256)

enum { B_UPPER = 1, B_LOWER = 2, B_EXACT = 3, F_PROVEN = 4 };

typedef struct {
    uint64_t key;
    int16_t score;
    uint16_t move;
    uint8_t depth;
    uint8_t flags;
    uint8_t gen;
    uint8_t pad;
} TTEntry;

typedef struct {
    TTEntry e[4];
} TTBucket;

struct MSearch {
    TTBucket *tt;
    size_t mask; /* buckets - 1 */
    uint8_t gen;
    MancalaDb *db;            /* built on demand (base rules) */
    const MancalaDb *file[2]; /* the database files: base rules, variant B */
    /* per search */
    uint64_t nodes, node_limit;
    double deadline; /* 0 = none */
    const atomic_bool *stop;
    bool aborted, can_abort, use_db;
    int seldepth;
    int pathlen, root_index; /* the root's place in path: game positions come before */
    uint64_t path[PATH_MAX_LEN];
    int32_t hist[2][128];
    MancalaPos kids[MAX_PLY + 1][MANCALA_MAX_MOVES];
};

MSearch *msearch_new(int tt_mb) {
    MSearch *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    if (tt_mb <= 0)
        tt_mb = 32;
    size_t buckets = 1;
    while (buckets * 2 * sizeof(TTBucket) <= (size_t)tt_mb << 20)
        buckets *= 2;
    s->tt = calloc(buckets, sizeof(TTBucket));
    s->db = mancala_db_new(MANCALA_BASE);
    if (!s->tt || !s->db) {
        msearch_free(s);
        return NULL;
    }
    s->mask = buckets - 1;
    return s;
}

void msearch_free(MSearch *s) {
    if (!s)
        return;
    free(s->tt);
    mancala_db_free(s->db);
    free(s);
}

void msearch_clear(MSearch *s) {
    memset(s->tt, 0, (s->mask + 1) * sizeof(TTBucket));
    memset(s->hist, 0, sizeof s->hist);
    s->gen = 0;
}

static TTEntry *tt_find(MSearch *s, uint64_t key) {
    TTBucket *b = &s->tt[key & s->mask];
    for (int i = 0; i < 4; i++)
        if (b->e[i].key == key && b->e[i].flags)
            return &b->e[i];
    return NULL;
}

static void tt_store(MSearch *s, uint64_t key, int depth, int score, int bound, bool proven,
                     MancalaMove move) {
    TTBucket *b = &s->tt[key & s->mask];
    TTEntry *victim = NULL;
    int worst = 1 << 30;
    for (int i = 0; i < 4; i++) {
        TTEntry *e = &b->e[i];
        if (e->key == key && e->flags) {
            victim = e;
            break;
        }
        int pri = !e->flags
                      ? -1000
                      : e->depth + ((e->flags & F_PROVEN) ? 200 : 0) - (e->gen != s->gen ? 100 : 0);
        if (pri < worst) {
            worst = pri;
            victim = e;
        }
    }
    /* never let a guess overwrite a proof of the same position */
    if (victim->key == key && (victim->flags & F_PROVEN) && !proven)
        return;
    victim->key = key;
    victim->score = (int16_t)score;
    victim->move = move;
    victim->depth = (uint8_t)(depth < 0 ? 0 : depth > 255 ? 255 : depth);
    victim->flags = (uint8_t)(bound | (proven ? F_PROVEN : 0));
    victim->gen = s->gen;
}

static void check_abort(MSearch *s) {
    if (!s->can_abort)
        return;
    if ((s->stop && atomic_load(s->stop)) || (s->node_limit && s->nodes >= s->node_limit) ||
        (s->deadline > 0 && mancala_clock_ms() >= s->deadline))
        s->aborted = true;
}

/* Hard bounds on the final store difference from the side to move's view. */
static void value_bounds(const MancalaPos *p, int *lo, int *hi) {
    int me = p->side, op = me ^ 1;
    int total = mancala_board_eggs(p) + p->store[0] + p->store[1];
    int min_me = p->store[me], min_op = p->store[op];
    if (p->rules & MANCALA_VAR_A) {
        /* store moves can take up to 5 eggs a time back out of a store */
        min_me -= 5 * (MANCALA_MAX_STORE_MOVES - p->used[me]);
        min_op -= 5 * (MANCALA_MAX_STORE_MOVES - p->used[op]);
        if (min_me < 0)
            min_me = 0;
        if (min_op < 0)
            min_op = 0;
    }
    *lo = 2 * min_me - total;
    *hi = total - 2 * min_op;
}

/* Orders the moves of ply PLY (children already made, gains known) in place. */
static void order_moves(MSearch *s, int ply, MancalaMove *mv, int *gain, int n, MancalaMove first,
                        int side) {
    int key[MANCALA_MAX_MOVES];
    for (int i = 0; i < n; i++)
        key[i] = mv[i] == first ? 1 << 30 : gain[i] * (1 << 20) + s->hist[side][mv[i] & 127];
    for (int i = 1; i < n; i++) {
        int k = key[i], g = gain[i];
        MancalaMove m = mv[i];
        MancalaPos c = s->kids[ply][i];
        int j = i - 1;
        for (; j >= 0 && key[j] < k; j--) {
            key[j + 1] = key[j];
            gain[j + 1] = gain[j];
            mv[j + 1] = mv[j];
            s->kids[ply][j + 1] = s->kids[ply][j];
        }
        key[j + 1] = k;
        gain[j + 1] = g;
        mv[j + 1] = m;
        s->kids[ply][j + 1] = c;
    }
}

/* The exact store gain still to come from the databases, when one answers for P. */
static bool probe(const MSearch *s, const MancalaPos *p, int *gain) {
    return mancala_db_probe(s->file[(p->rules & MANCALA_VAR_B) ? 1 : 0], p, gain) ||
           mancala_db_probe(s->db, p, gain);
}

/* The exact value of position P from its mover's view when the game is over or a
 * database answers; false otherwise. */
static bool known_value(const MSearch *s, const MancalaPos *p, int *v) {
    int diff = p->store[p->side] - p->store[p->side ^ 1], gain;
    if (mancala_over(p)) {
        *v = diff;
        return true;
    }
    if (s->use_db && probe(s, p, &gain)) {
        *v = diff + gain;
        return true;
    }
    return false;
}

/* Fail-soft negamax. *DEP tells what the returned bound (a lower bound when >= beta,
 * an upper bound when <= alpha, else the value) rests on: DEP_PROVEN for proven leaves
 * only (so a cutoff by a proven move is proven whatever its brothers), DEP_GUESS, or
 * the lowest path index of a repetition it needs (never this node's own: then the
 * result is proven here). */
static int negamax(MSearch *s, const MancalaPos *p, int depth, int alpha, int beta, int ply,
                   int floor, int since, int *dep) {
    int me = p->side;
    *dep = DEP_PROVEN;
    int diff = p->store[me] - p->store[me ^ 1];
    if (ply > s->seldepth)
        s->seldepth = ply;
    if ((++s->nodes & 1023) == 0)
        check_abort(s);
    if (s->aborted)
        return 0;
    if (mancala_over(p))
        return diff;
    if (since >= 100)
        return diff; /* the 100-ply rule ends the game */
    int lo, hi;
    value_bounds(p, &lo, &hi);
    if (lo >= beta || lo == hi)
        return lo;
    if (hi <= alpha)
        return hi;
    int gain_db;
    if (s->use_db && probe(s, p, &gain_db))
        return diff + gain_db;
    /* A cycle: scored as endless play, true on this path only (see the top); a game
     * position before the root proves nothing. */
    int here = s->pathlen - 1;
    uint64_t key = s->path[here];
    for (int k = here - 2; k >= floor; k -= 2)
        if (s->path[k] == key) {
            *dep = k >= s->root_index ? k : DEP_GUESS;
            return diff;
        }
    MancalaMove tt_move = MANCALA_MOVE_NONE;
    TTEntry *e = tt_find(s, key);
    if (e) {
        tt_move = e->move;
        bool sure = (e->flags & F_PROVEN) != 0;
        if (sure || e->depth >= depth) {
            int b = e->flags & 3, v = e->score;
            if (b == B_EXACT || (b == B_LOWER && v >= beta) || (b == B_UPPER && v <= alpha)) {
                *dep = sure ? DEP_PROVEN : DEP_GUESS;
                return v;
            }
        }
    }
    if (depth <= 0 || ply >= MAX_PLY) {
        *dep = DEP_GUESS;
        return diff;
    }
    MancalaMove mv[MANCALA_MAX_MOVES];
    int gain[MANCALA_MAX_MOVES];
    int n = mancala_moves(p, mv);
    for (int i = 0; i < n; i++)
        gain[i] = mancala_play(p, mv[i], &s->kids[ply][i]);
    order_moves(s, ply, mv, gain, n, tt_move, me);
    int all_dep = DEP_PROVEN, best_dep = DEP_GUESS;
    int alpha0 = alpha, best = -INF;
    MancalaMove best_move = MANCALA_MOVE_NONE;
    for (int i = 0; i < n; i++) {
        const MancalaPos *c = &s->kids[ply][i];
        bool irreversible = gain[i] > 0 || (mv[i] & MANCALA_M_STORE);
        s->path[s->pathlen++] = mancala_hash(c);
        int cfloor = irreversible ? s->pathlen - 1 : floor;
        int csince = gain[i] > 0 ? 0 : since + 1;
        int v, cd;
        if (i == 0) {
            v = -negamax(s, c, depth - 1, -beta, -alpha, ply + 1, cfloor, csince, &cd);
        } else {
            v = -negamax(s, c, depth - 1, -alpha - 1, -alpha, ply + 1, cfloor, csince, &cd);
            if (v > alpha && v < beta && !s->aborted)
                v = -negamax(s, c, depth - 1, -beta, -alpha, ply + 1, cfloor, csince, &cd);
        }
        s->pathlen--;
        if (s->aborted)
            return 0;
        if (cd < all_dep)
            all_dep = cd;
        if (v > best) {
            best = v;
            best_dep = cd;
            best_move = mv[i];
            if (v > alpha) {
                alpha = v;
                if (alpha >= beta) {
                    int32_t *h = &s->hist[me][mv[i] & 127];
                    *h += depth * depth;
                    if (*h > (1 << 19))
                        for (int k = 0; k < 128; k++)
                            s->hist[me][k] /= 2;
                    break;
                }
            }
        }
    }
    /* a cutoff by a guess: a later move whose value is known may prove it */
    for (int i = 0; best >= beta && best_dep != DEP_PROVEN && i < n; i++) {
        int cv;
        if (known_value(s, &s->kids[ply][i], &cv) && -cv >= beta) {
            best = -cv > best ? -cv : best;
            best_dep = DEP_PROVEN;
        }
    }
    int bound = best <= alpha0 ? B_UPPER : best >= beta ? B_LOWER : B_EXACT;
    *dep = bound == B_LOWER ? best_dep : all_dep;
    if (*dep >= here) /* the cycles it rests on begin here or below: a path-free value */
        *dep = DEP_PROVEN;
    tt_store(s, key, depth, best, bound, *dep == DEP_PROVEN, best_move);
    return best;
}

/* Principal variation from the table. */
static int extract_pv(MSearch *s, const MancalaPos *root, MancalaMove first, MancalaMove *pv,
                      int max) {
    MancalaPos p = *root;
    int n = 0;
    MancalaMove m = first;
    while (n < max && m != MANCALA_MOVE_NONE) {
        MancalaMove mv[MANCALA_MAX_MOVES];
        int nm = mancala_moves(&p, mv), k;
        for (k = 0; k < nm && mv[k] != m; k++)
            ;
        if (k == nm)
            break;
        pv[n++] = m;
        mancala_play(&p, m, &p);
        TTEntry *e = tt_find(s, mancala_hash(&p));
        m = e ? e->move : MANCALA_MOVE_NONE;
    }
    return n;
}

static uint64_t next_rand(uint64_t *x) {
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

/* Builds the endgame database as far as pays for this search: up to the root's egg
 * count (then the database answers at once) or up to what leaves after captures
 * reach, within a share of the time. Without a time limit: briefly for searches
 * bounded by depth or nodes, longer (until stopped) for an unbounded one. */
static void maybe_build_db(MSearch *s, const MancalaPos *root, const MSearchLimits *lim) {
    if (root->rules & MANCALA_VAR_B)
        return;
    int eggs = mancala_board_eggs(root);
    if (eggs > 40)
        return;
    if (root->rules & MANCALA_VAR_A) /* of use only once no store move can come */
        for (int side = 0; side < 2; side++)
            if (root->used[side] < MANCALA_MAX_STORE_MOVES && root->store[side] + eggs >= 5)
                return;
    int target = eggs < MANCALA_DB_DEMAND_EGGS ? eggs : MANCALA_DB_DEMAND_EGGS;
    if (target <= mancala_db_eggs(s->db) || target <= mancala_db_eggs(s->file[0]))
        return;
    double allow;
    if (lim->time_ms > 0)
        allow = lim->time_ms * (target == eggs ? 0.8 : 0.4);
    else if (lim->depth > 0 || lim->nodes > 0)
        allow = 300;
    else
        allow = 5000;
    MancalaDbBuild opt = {.deadline_ms = mancala_clock_ms() + allow, .stop = s->stop};
    mancala_db_build(s->db, target, &opt);
}

/* When every root move's value is known exactly (the children are over or in a
 * database), the move among the optimal ones: winning, the one that banks most eggs at
 * once, then leaves fewest on the board (the fastest win); otherwise one that does not
 * end the game, then leaves most eggs on the board (the longest defence). Else BEST. */
static MancalaMove pick_among_optimal(const MSearch *s, const MancalaMove *mv, const int *gain,
                                      const MancalaPos *kids, int n, MancalaMove best) {
    int val[MANCALA_MAX_MOVES], top = -INF;
    for (int i = 0; i < n; i++) {
        int cv;
        if (!known_value(s, &kids[i], &cv))
            return best;
        val[i] = -cv;
        if (val[i] > top)
            top = val[i];
    }
    bool winning = top > 0;
    int pick = -1;
    long pick_key = 0;
    for (int i = 0; i < n; i++) {
        if (val[i] != top)
            continue;
        int left = mancala_board_eggs(&kids[i]);
        long key =
            winning ? (long)gain[i] * 1000 - left : (mancala_over(&kids[i]) ? 0 : 1000) + left;
        if (pick < 0 || key > pick_key) {
            pick = i;
            pick_key = key;
        }
    }
    return mv[pick];
}

int mancala_level_depth(int level) {
    return level > 0 && level < 20 ? 1 + level / 2 + level * level / 20 : 0;
}

int mancala_level_blur(int level) {
    return level > 0 && level < 20 ? 20 - level : 0;
}

/* The Nth best of the first COUNT scores (N <= COUNT). */
static int nth_best(const int *score, int count, int nth) {
    int top[MSEARCH_MAX_LINES], k = 0; /* the best so far, best first */
    for (int i = 0; i < count; i++) {
        if (k == nth && score[i] <= top[nth - 1])
            continue;
        int j = k < nth ? k++ : nth - 1;
        for (; j > 0 && top[j - 1] < score[i]; j--)
            top[j] = top[j - 1];
        top[j] = score[i];
    }
    return top[nth - 1];
}

/* Moves root move I to place TO (<= I), the ones between one place back. */
static void move_to(MancalaMove *mv, MancalaPos *kids, int *gain, int *score, bool *sure, int i,
                    int to) {
    MancalaMove m = mv[i];
    MancalaPos k = kids[i];
    int g = gain[i], sc = score[i];
    bool su = sure[i];
    for (; i > to; i--) {
        mv[i] = mv[i - 1];
        kids[i] = kids[i - 1];
        gain[i] = gain[i - 1];
        score[i] = score[i - 1];
        sure[i] = sure[i - 1];
    }
    mv[to] = m;
    kids[to] = k;
    gain[to] = g;
    score[to] = sc;
    sure[to] = su;
}

/* Reports the best LINES lines (the root moves MV in order, with SCORE and SURE; the
 * first is exact when EXACT) through LIM->info, and leaves the first in *INFO. */
static void report(MSearch *s, const MancalaPos *root, const MSearchLimits *lim, MSearchInfo *info,
                   const MancalaMove *mv, const int *score, const bool *sure, int lines,
                   bool exact) {
    for (int k = 0; k < lines; k++) {
        MSearchInfo li = *info;
        li.multipv = k + 1;
        li.score = score[k];
        li.exact = k == 0 ? exact : sure[k];
        li.pvlen = extract_pv(s, root, mv[k], li.pv, MSEARCH_MAX_PV);
        if (lim->info)
            lim->info(&li, lim->ud);
        if (k == 0)
            *info = li;
    }
}

MancalaMove msearch_go(MSearch *s, const MancalaPos *root, const uint64_t *history, int nhistory,
                       int plies_since_capture, const MSearchLimits *lim, MSearchInfo *out) {
    MSearchLimits none;
    if (!lim) {
        memset(&none, 0, sizeof none);
        lim = &none;
    }
    double t0 = mancala_clock_ms();
    MSearchInfo info;
    memset(&info, 0, sizeof info);
    s->gen++;
    s->stop = lim->stop;
    s->nodes = 0;
    s->node_limit = lim->nodes;
    s->aborted = false;
    s->can_abort = false;
    s->deadline = lim->time_ms > 0 ? t0 + lim->time_ms : 0;

    MancalaMove mv[MANCALA_MAX_MOVES];
    int n = mancala_moves(root, mv);
    int lo, hi;
    value_bounds(root, &lo, &hi);
    if (n == 0) {
        info.score = root->store[root->side] - root->store[root->side ^ 1];
        info.exact = true;
        if (out)
            *out = info;
        return MANCALA_MOVE_NONE;
    }
    s->use_db = !lim->no_db;
    if (s->use_db) {
        s->file[0] = mancala_db_shared(MANCALA_BASE);
        s->file[1] = mancala_db_shared(MANCALA_VAR_B);
        maybe_build_db(s, root, lim);
    }

    /* the path: earlier positions of the game, then the root */
    int skip = nhistory > PATH_MAX_LEN - MAX_PLY - 2 ? nhistory - (PATH_MAX_LEN - MAX_PLY - 2) : 0;
    s->pathlen = 0;
    for (int i = skip; i < nhistory; i++)
        s->path[s->pathlen++] = history[i];
    s->path[s->pathlen++] = mancala_hash(root);
    int root_index = s->root_index = s->pathlen - 1;

    int level = lim->level > 0 && lim->level < 20 ? lim->level : 0;
    int max_depth = lim->depth > 0 ? lim->depth : MAX_PLY - 1;
    int cap = mancala_level_depth(level);
    if (cap && cap < max_depth)
        max_depth = cap;
    if (max_depth > MAX_PLY - 1)
        max_depth = MAX_PLY - 1;
    uint64_t rnd = lim->seed ? lim->seed : 0x2545f4914f6cdd1dULL;

    int lines = level ? 1 : lim->multipv < 1 ? 1 : lim->multipv;
    if (lines > MSEARCH_MAX_LINES)
        lines = MSEARCH_MAX_LINES;
    if (lines > n)
        lines = n;
    MancalaPos kids[MANCALA_MAX_MOVES];
    int gain[MANCALA_MAX_MOVES], score[MANCALA_MAX_MOVES];
    bool sure[MANCALA_MAX_MOVES];
    for (int i = 0; i < n; i++) {
        gain[i] = mancala_play(root, mv[i], &kids[i]);
        score[i] = -INF;
    }
    MancalaMove best = mv[0];
    for (int depth = 1; depth <= max_depth; depth++) {
        bool all_proven = true;
        s->seldepth = 0;
        int alpha = -INF, best_v = -INF, best_i = -1;
        for (int i = 0; i < n; i++) {
            if (lines > 1) /* the lines' last one must be exact: beat the lines-th best */
                alpha = i < lines ? -INF : nth_best(score, i, lines);
            const MancalaPos *c = &kids[i];
            bool irreversible = gain[i] > 0 || (mv[i] & MANCALA_M_STORE);
            s->path[s->pathlen++] = mancala_hash(c);
            int cfloor = irreversible ? s->pathlen - 1 : 0;
            int csince = gain[i] > 0 ? 0 : plies_since_capture + 1;
            int v, cd;
            if (level || alpha <= -INF) {
                v = -negamax(s, c, depth - 1, -INF, -alpha, 1, cfloor, csince, &cd);
            } else {
                v = -negamax(s, c, depth - 1, -alpha - 1, -alpha, 1, cfloor, csince, &cd);
                if (v > alpha && !s->aborted)
                    v = -negamax(s, c, depth - 1, -INF, -alpha, 1, cfloor, csince, &cd);
            }
            s->pathlen--;
            if (s->aborted)
                break;
            score[i] = v;
            /* the root's value may rest on cycles through the root; a line's own value
             * only when it is path-free */
            sure[i] = v > alpha && cd == DEP_PROVEN;
            all_proven &= cd >= root_index;
            if (v > best_v) {
                best_v = v;
                best_i = i;
            }
            if (!level && v > alpha)
                alpha = v;
        }
        if (s->aborted)
            break;
        /* this iteration is complete: move its best to the front (its best lines, in
         * order, with several) */
        if (lines > 1) {
            for (int i = 1; i < n; i++) {
                int j = i;
                while (j > 0 && score[j - 1] < score[i])
                    j--;
                move_to(mv, kids, gain, score, sure, i, j);
            }
        } else {
            move_to(mv, kids, gain, score, sure, best_i, 0);
        }
        best = mv[0];
        tt_store(s, s->path[root_index], depth, best_v, B_EXACT, all_proven, best);
        info.depth = depth;
        info.seldepth = s->seldepth;
        info.nodes = s->nodes;
        info.ms = mancala_clock_ms() - t0;
        report(s, root, lim, &info, mv, score, sure, lines, all_proven && !level);
        s->can_abort = true;
        if (all_proven)
            break; /* proven: deeper searches cannot change it */
        if (s->deadline > 0 && !lim->fixed_time && mancala_clock_ms() - t0 > 0.55 * lim->time_ms)
            break; /* the next iteration would not finish */
        if (lim->stop && atomic_load(lim->stop))
            break;
    }
    if (!level && info.exact && info.depth > 0) {
        best = pick_among_optimal(s, mv, gain, kids, n, best);
        if (best != mv[0]) { /* the lines start with the move played */
            int i = 0;
            while (mv[i] != best)
                i++;
            move_to(mv, kids, gain, score, sure, i, 0);
            report(s, root, lim, &info, mv, score, sure, lines, true);
        }
    }
    if (level) {
        /* weaker play: every root move's score, blurred by up to (20 - level) / 2 eggs */
        int amp = mancala_level_blur(level), pick = 0, pick_v = -4 * INF;
        for (int i = 0; i < n; i++) {
            if (score[i] <= -INF)
                continue;
            int v = 2 * score[i] + (int)(next_rand(&rnd) % (uint64_t)(amp + 1));
            if (v > pick_v) {
                pick_v = v;
                pick = i;
            }
        }
        best = mv[pick];
    }
    info.nodes = s->nodes;
    info.ms = mancala_clock_ms() - t0;
    if (out)
        *out = info;
    return best;
}

/* ---- benchmark ---- */

/* A position with EGGS eggs spread at random (fixed seed), both rings non-empty. */
static void bench_position(MancalaPos *p, int eggs, uint64_t seed) {
    for (;;) {
        memset(p, 0, sizeof *p);
        for (int k = 0; k < eggs; k++)
            p->hole[next_rand(&seed) % 16]++;
        if (mancala_ring_eggs(p, 0) && mancala_ring_eggs(p, 1))
            return;
    }
}

#define BENCH_MAX_EGGS 40
#define BENCH_PER_COUNT 200

typedef struct {
    MancalaPos *pos[BENCH_MAX_EGGS + 1];
    int n[BENCH_MAX_EGGS + 1];
} BenchSet;

/* The test positions (base rules, one position text a line, '#' comments), grouped by
 * egg count; false when the file cannot be read or holds a bad line. */
static bool bench_load(const char *path, BenchSet *set, FILE *out) {
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(out, "mancala solve: cannot read %s; using seeded random positions\n", path);
        return false;
    }
    char line[512], err[160];
    int lineno = 0;
    bool ok = true;
    while (ok && fgets(line, sizeof line, f)) {
        lineno++;
        if (line[0] == '#' || line[strspn(line, " \t\r\n")] == 0)
            continue;
        MancalaPos p;
        if (!mancala_parse(&p, MANCALA_BASE, line, err, sizeof err)) {
            fprintf(out, "mancala solve: %s:%d: %s\n", path, lineno, err);
            ok = false;
            break;
        }
        int e = mancala_board_eggs(&p);
        if (e > BENCH_MAX_EGGS || set->n[e] == BENCH_PER_COUNT)
            continue;
        if (!set->pos[e] && !(set->pos[e] = malloc(BENCH_PER_COUNT * sizeof(MancalaPos)))) {
            ok = false;
            break;
        }
        set->pos[e][set->n[e]++] = p;
    }
    fclose(f);
    return ok;
}

/* Solves P from an empty context within 1 s; false when it is not proven in time. */
static bool bench_solve(const MancalaPos *p, double *ms) {
    MSearch *s = msearch_new(32);
    if (!s)
        return false;
    MSearchLimits lim;
    memset(&lim, 0, sizeof lim);
    lim.time_ms = 1000;
    MSearchInfo info;
    double t1 = mancala_clock_ms();
    msearch_go(s, p, NULL, 0, 0, &lim, &info);
    *ms = mancala_clock_ms() - t1;
    msearch_free(s);
    return info.exact && *ms <= 1000.0;
}

/* Probes per second of a table over random boards within its layers. */
static void bench_probe(FILE *out, int rules) {
    const MancalaDb *db = mancala_db_shared(rules);
    int eggs = mancala_db_eggs(db);
    if (eggs < 1) {
        fprintf(out, "mancala egdb: no %s table under %s\n", rules ? "variant B" : "base rules",
                mancala_db_dir());
        return;
    }
    uint64_t seed = 0x1234567, sum = 0;
    int count = 1 << 20;
    MancalaPos p;
    double t0 = mancala_clock_ms();
    for (int k = 0; k < count; k++) {
        memset(&p, 0, sizeof p);
        p.rules = (uint8_t)rules;
        int n = 1 + (int)(next_rand(&seed) % (uint64_t)eggs);
        for (int e = 0; e < n; e++)
            p.hole[next_rand(&seed) % 16]++;
        int g = 0;
        mancala_db_probe(db, &p, &g);
        sum += (uint64_t)(g + 64);
    }
    double ms = mancala_clock_ms() - t0;
    fprintf(out, "mancala egdb: %s table, %d eggs, %.1f M probes/s (random boards; check %llu)\n",
            rules ? "variant B" : "base rules", eggs, ms > 0 ? count / ms / 1000.0 : 0.0,
            (unsigned long long)(sum % 1000));
}

void mancala_bench(FILE *out, const char *positions) {
    MancalaPos p;
    mancala_start(&p, MANCALA_BASE);
    for (int depth = 5; depth <= 6; depth++) {
        int reps = depth == 5 ? 20 : 1;
        uint64_t leaves = 0;
        double t0 = mancala_clock_ms();
        for (int r = 0; r < reps; r++)
            leaves += mancala_perft(&p, depth, NULL);
        double ms = mancala_clock_ms() - t0;
        fprintf(out,
                "mancala perft: start depth %d, %llu leaves x %d in %.0f ms, %.1f M leaves/s\n",
                depth, (unsigned long long)(leaves / (uint64_t)reps), reps, ms,
                ms > 0 ? (double)leaves / ms / 1000.0 : 0.0);
    }
    MSearch *s = msearch_new(32);
    if (!s) {
        fprintf(out, "mancala bench: out of memory\n");
        return;
    }
    MSearchLimits lim;
    memset(&lim, 0, sizeof lim);
    lim.time_ms = 2000;
    MSearchInfo info;
    MancalaMove m = msearch_go(s, &p, NULL, 0, 0, &lim, &info);
    char mt[MANCALA_MOVE_TEXT];
    mancala_move_text(m, mt, sizeof mt);
    fprintf(out,
            "mancala search: start, 2 s: depth %d, best %s, score %d, %llu nodes, %.0f "
            "nodes/s\n",
            info.depth, mt, info.score, (unsigned long long)info.nodes,
            info.ms > 0 ? (double)info.nodes / info.ms * 1000.0 : 0.0);
    msearch_free(s);
    bench_probe(out, MANCALA_BASE);
    bench_probe(out, MANCALA_VAR_B);
    /* largest egg count whose positions (and all smaller counts') are each solved within
     * 1 s, from an empty context each time (without a database file, the database is
     * built on demand) */
    BenchSet set;
    memset(&set, 0, sizeof set);
    const char *path = positions ? positions : "tests/data/slangenspel-endgames.txt";
    bool from_file = bench_load(path, &set, out);
    int solved = 0;
    for (int eggs = 2; eggs <= BENCH_MAX_EGGS; eggs++) {
        int n = from_file ? set.n[eggs] : 3;
        if (n == 0)
            break;
        bool all = true;
        double worst = 0, total = 0;
        for (int k = 0; k < n && all; k++) {
            if (from_file)
                p = set.pos[eggs][k];
            else
                bench_position(&p, eggs, 0x9e3779b97f4a7c15ULL * (uint64_t)(eggs * 3 + k + 1));
            double ms = 0;
            all = bench_solve(&p, &ms);
            total += ms;
            if (ms > worst)
                worst = ms;
        }
        if (!all)
            break;
        solved = eggs;
        fprintf(out, "mancala solve: %d eggs, %d positions, mean %.0f ms, slowest %.0f ms\n", eggs,
                n, total / n, worst);
    }
    for (int e = 0; e <= BENCH_MAX_EGGS; e++)
        free(set.pos[e]);
    fprintf(out, "mancala solve: largest egg count solved within 1 s: %d\n", solved);
}
