/* search.h - Slangenspel search: iterative-deepening PVS alpha-beta on the final store
 * difference, with a transposition table, egg-count bounds that prove results, and the
 * endgame database for few eggs; a search context owns the table and the database. */
#ifndef MANCALA_SEARCH_H
#define MANCALA_SEARCH_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "mancala/board.h"

#define MSEARCH_MAX_PV 64
#define MSEARCH_MAX_LINES 8 /* most best lines one search reports (MultiPV) */

typedef struct MSearch MSearch;

typedef struct {
    int multipv; /* which line, 1 = the best */
    int depth, seldepth;
    int score;  /* final store difference expected, side to move's view, in eggs */
    bool exact; /* score proven (see search.c for what "proven" assumes); for
                   lines after the first: that move's value */
    uint64_t nodes;
    double ms;
    int pvlen;
    MancalaMove pv[MSEARCH_MAX_PV];
} MSearchInfo;

typedef struct {
    int depth;               /* deepest iteration, 0 = no limit */
    uint64_t nodes;          /* 0 = no limit */
    double time_ms;          /* time for this move, 0 = no limit */
    bool fixed_time;         /* search all of time_ms (a fixed time per move), else stop
                                when the next iteration would not finish */
    int level;               /* 1..20 weaker play, 0 = full strength */
    int multipv;             /* best lines to report, 0 or 1 = one (1..MSEARCH_MAX_LINES) */
    uint64_t seed;           /* randomness of the weaker levels */
    bool no_db;              /* neither build nor use the endgame database */
    const atomic_bool *stop; /* set by another thread to end the search; may be NULL */
    void (*info)(const MSearchInfo *info, void *ud); /* after each iteration, once per
                                                        line; may be NULL */
    void *ud;
} MSearchLimits;

/* A context with a transposition table of about TT_MB megabytes (0 = default). */
MSearch *msearch_new(int tt_mb);
void msearch_free(MSearch *s);
/* Forgets all that earlier searches learnt (the endgame database stays). */
void msearch_clear(MSearch *s);

/* A playing level 1..19: its depth cap and the blur of root scores, in half
 * eggs (0 for full strength, 0 or 20). */
int mancala_level_depth(int level);
int mancala_level_blur(int level);

/* Searches ROOT and returns the best move (MANCALA_MOVE_NONE when the game is over).
 * HISTORY holds mancala_hash() of the game's positions before ROOT since the last capture
 * or store move (oldest first) for the repetition rule; PLIES_SINCE_CAPTURE feeds the 100-ply rule.
 * The last iteration's figures go to *OUT (may be NULL). */
MancalaMove msearch_go(MSearch *s, const MancalaPos *root, const uint64_t *history, int nhistory,
                       int plies_since_capture, const MSearchLimits *lim, MSearchInfo *out);

/* Benchmark: perft, search and database probe speed, and the largest egg count whose
 * test positions (file POSITIONS, NULL = tests/data/slangenspel-endgames.txt; seeded
 * random ones when it cannot be read) are all solved within 1 s each. */
void mancala_bench(FILE *out, const char *positions);

#endif
