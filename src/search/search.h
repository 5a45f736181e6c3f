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
