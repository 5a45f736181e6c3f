/* timeman.h - how long one search may think: a soft bound (start no new
 * iteration after it, scaled by how settled the best move is) and a hard bound
 * (stop at once), on a monotonic millisecond clock. A fixed time per move
 * (movetime) is searched in full, like Stockfish: the iteration prediction is
 * for clocks only, where time saved now is time to spend later. Without a move count the
 * game is guessed to last 40 more moves (fewer later on), 50 in sudden death,
 * where a twentieth of the clock is also kept in reserve. */
#ifndef SEARCH_TIMEMAN_H
#define SEARCH_TIMEMAN_H

#include <stdbool.h>
#include <stdint.h>

#include "search/limits.h"

typedef struct {
    int64_t start_ms;
    int64_t soft_ms, hard_ms; /* 0 = no bound */
    int64_t min_ms;           /* the GUI's floor: charged anyway, so think that long */
    bool fixed;               /* movetime: think until the hard bound */
} TimeMan;

int64_t timeman_now_ms(void);
/* Bounds for the side to move (stm 0 = White) at game ply gply. */
void timeman_init(TimeMan *tm, const SearchLimits *lim, int stm, int gply);
int64_t timeman_elapsed(const TimeMan *tm);
/* May another iteration start? stability in 0..4: iterations the best move
 * has stayed the same (more = stop sooner). */
bool timeman_next_iteration(const TimeMan *tm, int stability, bool score_dropped);
bool timeman_hard_stop(const TimeMan *tm);

#endif
