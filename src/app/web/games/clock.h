/* clock.h - a chess clock for a web game, kept by the server: each side's time left
 * at the start of the turn and when the turn began. The bottom of the web games: it
 * knows nothing of a game; play.c reads it before each request and lets a fallen
 * flag end the game there.
 *
 * Lag, as lichess does it: a move may come with the network delay its page measured
 * (lag_ms); that much of the time charged is given back, up to the side's quota,
 * which each move refills by WEB_LAG_GAIN_MS up to WEB_LAG_QUOTA_MS. So a slow link
 * costs a player nothing, and a page that claims more than it has gains at most a
 * fraction of a second a move. */
#ifndef WEB_CLOCK_H
#define WEB_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#define WEB_LAG_GAIN_MS 100
#define WEB_LAG_QUOTA_MS 1000

typedef struct {
    int base_ms, inc_ms; /* base 0: no clock */
    int64_t left[2];     /* at the start of the current turn */
    int64_t since;       /* when the current turn began (web_now_ms) */
    int quota[2];        /* lag each side may still be given back */
    int credited[2];     /* given back on each side's last move */
} WebClock;

int64_t web_now_ms(void); /* a monotonic clock */
/* left0/left1 <= 0: the base time */
void web_clock_init(WebClock *c, int base_ms, int inc_ms, int64_t left0, int64_t left1);
/* side moved: charge it less the lag given back (lag_ms: as measured by its page,
 * 0 none), add the increment */
void web_clock_moved(WebClock *c, int side, int lag_ms);
void web_clock_restart(WebClock *c); /* the turn begins now (take-back, load) */
int64_t web_clock_left(const WebClock *c, int side, bool running);
cJSON *web_clock_json(const WebClock *c, int side, bool running); /* null without a clock */

#endif
