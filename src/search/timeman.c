/* timeman.c - time allocation (see timeman.h). */
#include "search/timeman.h"

#include <time.h>

#define OVERHEAD_MS 25 /* pipes, the GUI, the operating system */

int64_t timeman_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void timeman_init(TimeMan *tm, const SearchLimits *lim, int stm, int gply) {
    tm->start_ms = timeman_now_ms();
    tm->soft_ms = tm->hard_ms = tm->min_ms = 0;
    tm->fixed = false;
    if (lim->infinite)
        return;
    if (lim->movetime_ms > 0) {
        int64_t t = lim->movetime_ms > 2 * OVERHEAD_MS ? lim->movetime_ms - OVERHEAD_MS
                                                       : lim->movetime_ms / 2 + 1;
        tm->soft_ms = tm->hard_ms = t;
        tm->fixed = true;
        return;
    }
    if (!lim->time_ms[stm])
        return;
    int64_t left = lim->time_ms[stm] > 0 ? lim->time_ms[stm] : 1; /* overdrawn: hurry */
    int64_t inc = lim->inc_ms[stm] > 0 ? lim->inc_ms[stm] : 0;
    /* moves still to play: the control's count, else a guess that shrinks as
     * the game goes on; in sudden death (no increment) a longer one, and a
     * reserve of the clock is never planned for */
    int mtg, gmoves = gply / 2;
    int64_t reserve = 0;
    if (lim->movestogo > 0)
        mtg = lim->movestogo;
    else if (inc)
        mtg = 40 - (gmoves > 20 ? 20 : gmoves);
    else {
        mtg = 50 - (gmoves / 2 > 20 ? 20 : gmoves / 2);
        reserve = left / 20;
    }
    if (mtg > 50)
        mtg = 50;
    int64_t usable = left - OVERHEAD_MS - reserve;
    if (usable < 1)
        usable = 1;
    int64_t soft = usable / mtg + inc * 3 / 4;
    int64_t hard = soft * 4;
    int64_t cap = lim->movestogo == 1 ? usable * 9 / 10 : usable / 5 + inc / 2;
    if (hard > cap)
        hard = cap;
    if (hard > usable)
        hard = usable;
    if (soft > hard)
        soft = hard;
    /* a move charged at least floor_ms may as well think that long */
    int64_t floor = limits_floor_think_ms(lim);
    if (soft < floor)
        soft = floor;
    if (hard < floor)
        hard = floor;
    tm->min_ms = floor;
    tm->soft_ms = soft > 1 ? soft : 1;
    tm->hard_ms = hard > 1 ? hard : 1;
}

int64_t timeman_elapsed(const TimeMan *tm) {
    return timeman_now_ms() - tm->start_ms;
}

bool timeman_next_iteration(const TimeMan *tm, int stability, bool score_dropped) {
    if (!tm->soft_ms || tm->fixed || timeman_elapsed(tm) < tm->min_ms)
        return true;
    static const int scale[5] = {130, 100, 80, 65, 55}; /* percent of the soft bound */
    int s = stability < 0 ? 0 : stability > 4 ? 4 : stability;
    int64_t bound = tm->soft_ms * scale[s] / 100;
    if (score_dropped)
        bound = bound * 3 / 2;
    /* the next iteration takes about as long as all before it, twice over */
    return timeman_elapsed(tm) < bound / 2 + bound / 4;
}

bool timeman_hard_stop(const TimeMan *tm) {
    return tm->hard_ms && timeman_elapsed(tm) >= tm->hard_ms;
}
