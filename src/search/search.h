/* search.h - iterative deepening PVS for any chess-like variant. A SearchContext
 * belongs to one game and owns the shared table, the evaluation tables and one
 * Thread per Lazy SMP worker, each with its own root copy; nothing is global. */
#ifndef SEARCH_SEARCH_H
#define SEARCH_SEARCH_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/position.h"
#include "search/eval.h"
#include "search/limits.h"

#define MAX_PLY 120
#define MATE 30000
#define MATE_IN_MAX (MATE - 2 * MAX_PLY)
#define INF 31000
#define SCORE_NONE 32000

typedef struct SearchContext SearchContext;

/* Per-ply search state. */
typedef struct {
    Move move;       /* played from this ply; MOVE_NONE for a null move */
    int piece;       /* moved piece code, 0 for a null move */
    int eval;        /* static eval, SCORE_NONE when in check */
    int16_t *cont;   /* continuation history row of (piece, to) of move; NULL for none */
    Move killer[2];
    Move excluded;   /* singular extension test: the move left out, else MOVE_NONE */
    bool in_check;
} Stack;

/* One best line of the last complete iteration (MultiPV). */
typedef struct {
    Move pv[MAX_PLY + 2];
    int len, score;
} PvLine;

typedef struct Thread {
    SearchContext *ctx;
    int id;
    Position pos;
    int root_hply;
    _Atomic uint64_t nodes;
    int seldepth;
    int nmp_min_ply; /* no null move before this ply (verification) */
    int16_t history[2][MAX_SQ][MAX_SQ]; /* butterfly: [side][from][to] */
    Move counter[64][MAX_SQ];           /* reply to [piece][to] */
    /* continuation history: [(piece, to) some plies back][(piece, to)],
     * cont_n slots a side (search_cont_slot); NULL when too large */
    int16_t *cont;
    int cont_n;
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

/* How many plies back the continuation histories look: the moves one, two
 * and four plies before (the opponent's last, our last, our one before). */
enum { SEARCH_CONT_PLIES = 3 };
static const int search_cont_back[SEARCH_CONT_PLIES] = {1, 2, 4};

/* Slot of (piece, to) in a continuation history row. */
static inline int search_cont_slot(const Variant *v, Piece p, int to) {
    return ((piece_color(p) * (v->ntypes + 1) + piece_type(p)) * v->nsq) + to;
}

SearchContext *search_new(const Variant *v);
void search_free(SearchContext *ctx);
/* Forget what earlier searches learnt (a new game). */
void search_clear(SearchContext *ctx);
/* Search root under lim (see engine.h); info after each iteration goes to cb
 * (cb or cb->info may be NULL). stop is polled; another thread may set it.
 * Returns MOVE_NONE when root has no legal move; root is left unchanged. */
Move search_go(SearchContext *ctx, const Position *root, const SearchLimits *lim,
               const SearchCallbacks *cb, atomic_bool *stop);
/* What a playing level 1..19 (limits.h) takes away: a depth cap, a node cap
 * and up to noise centipawns added to the evaluation. False for full strength
 * (0 or 20). The one place of the formula: searches and level texts use it. */
typedef struct {
    int depth;
    uint64_t nodes;
    int noise;
} SearchLevel;
bool search_level(int level, SearchLevel *out);
/* Nodes of the last search_go, all threads. */
uint64_t search_nodes(const SearchContext *ctx);
/* Static evaluation of pos from the side to move's view (for tests, tools);
 * its terms too when terms is not NULL. */
int search_static_eval(SearchContext *ctx, const Position *pos, EvalTerms *terms);

#endif
