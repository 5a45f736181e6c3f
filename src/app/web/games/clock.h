/* clock.h - a chess clock for a web game, kept by the server: each side's time left
 * at the start of the turn and when the turn began. The bottom of the web games: it
 * knows nothing of a game; play.c reads it before each request and lets a fallen
 * flag end the game there. */
#ifndef WEB_CLOCK_H
#define WEB_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include <cjson/cJSON.h>

typedef struct {
    int base_ms, inc_ms; /* base 0: no clock */
    int64_t left[2];     /* at the start of the current turn */
    int64_t since;       /* when the current turn began (web_now_ms) */
} WebClock;

int64_t web_now_ms(void); /* a monotonic clock */
/* left0/left1 <= 0: the base time */
void web_clock_init(WebClock *c, int base_ms, int inc_ms, int64_t left0, int64_t left1);
void web_clock_moved(WebClock *c, int side); /* side moved: charge it, add the increment */
void web_clock_restart(WebClock *c);         /* the turn begins now (take-back, load) */
int64_t web_clock_left(const WebClock *c, int side, bool running);
cJSON *web_clock_json(const WebClock *c, int side, bool running); /* null without a clock */

#endif
