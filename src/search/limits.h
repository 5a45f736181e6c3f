/* limits.h - what a search is asked (SearchLimits) and what it reports
 * (SearchInfo), shared by both searchers and the engine layer above them.
 * Plain data with no dependency, so search/ never looks up at engine/. */
#ifndef SEARCH_LIMITS_H
#define SEARCH_LIMITS_H

#include <stdbool.h>
#include <stdint.h>

#define SEARCH_MAX_PV 8 /* most best lines one search reports (MultiPV) */

struct SearchParams; /* params.h */
struct NnueNet;      /* nnue.h */

typedef struct {
    int depth;       /* 0 = no limit */
    uint64_t nodes;  /* 0 = no limit */
    int movetime_ms; /* fixed time for this move, 0 = none */
    int time_ms[2];  /* clock of each side, 0 = no clock */
    int inc_ms[2];
    int movestogo;
    bool infinite;
    int level;                         /* 1..20 playing level, 0 = full strength */
    int threads;                       /* 0 = 1 */
    int hash_mb;                       /* transposition table size, 0 = default */
    int multipv;                       /* best lines to report, 0 or 1 = one (1..SEARCH_MAX_PV) */
    int floor_ms;                      /* the least a move costs the clock, however short its search
                                          (a GUI busy drawing the last move meanwhile), 0 = none known */
    const struct SearchParams *params; /* tuned search numbers, NULL = the defaults */
    /* the network to evaluate with, NULL = the variant's own where it has one
     * (one that is not made for the variant is not used); hand_eval: the
     * hand-made evaluation, whatever network there is */
    const struct NnueNet *net;
    bool hand_eval;
    /* root moves left out (a GUI that cannot show them): coordinate texts,
     * space-separated; "" = none. A root with no other move keeps them. */
    char avoid[128];
} SearchLimits;

/* The least time worth thinking on a move the GUI charges at least floor_ms
 * anyway (4/5 of the floor); 0 when no floor is known. */
static inline int64_t limits_floor_think_ms(const SearchLimits *lim) {
    return lim->floor_ms > 0 ? (int64_t)lim->floor_ms * 4 / 5 : 0;
}

typedef struct {
    int multipv; /* which line, 1 = the best */
    int depth, seldepth;
    int score;  /* side to move's view: centipawns, or eggs for mancala */
    int mate;   /* moves to mate, signed; 0 = not a mate score */
    bool exact; /* mancala: proven value */
    uint64_t nodes, nps;
    int time_ms;
    int hashfull;     /* permille of the hash table this search filled (0: none) */
    char pv[512];     /* space-separated move texts, coordinate form */
    char pv_san[512]; /* the same line in SAN */
} SearchInfo;

typedef struct {
    void (*info)(const SearchInfo *info, void *ud); /* may be NULL */
    void *ud;
} SearchCallbacks;

#endif
