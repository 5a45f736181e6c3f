/* tt.h - the transposition table shared by all threads: buckets of four
 * two-word entries, the key word xored with the data word so a torn write from
 * another thread reads as a miss (lockless, relaxed atomics). */
#ifndef SEARCH_TT_H
#define SEARCH_TT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/types.h"

enum { BOUND_NONE = 0, BOUND_UPPER = 1, BOUND_LOWER = 2, BOUND_EXACT = 3 };

typedef struct {
    _Atomic uint64_t check; /* key ^ data */
    _Atomic uint64_t data;  /* move 32 | score 16 | eval 16 */
} TTEntry;

typedef struct {
    TTEntry e[4];
} TTBucket;

typedef struct {
    TTBucket *b;
    uint64_t mask; /* buckets - 1 (a power of two) */
    size_t bytes;  /* the mapping's length */
    size_t mb;
    uint8_t gen;
} TT;

typedef struct {
    Move move;
    int score, eval, depth, bound;
} TTHit;

/* Maps about MB megabytes (rounded down to a power of two), all zero; 0 on
 * success. */
int tt_init(TT *tt, size_t mb);
void tt_free(TT *tt);
void tt_clear(TT *tt);
void tt_new_search(TT *tt);
bool tt_probe(const TT *tt, uint64_t key, TTHit *hit);
void tt_store(TT *tt, uint64_t key, Move m, int score, int eval, int depth, int bound);
void tt_prefetch(const TT *tt, uint64_t key);
/* How full the table is, in permille: the entries of the current search's
 * generation among the first 1000 (UCI's hashfull, sampled as Stockfish does). */
int tt_hashfull(const TT *tt);

#endif
