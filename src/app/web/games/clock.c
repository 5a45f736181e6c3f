/* clock.c - chess clocks for web games. The side to move's time runs down; a move
 * takes the time it used and adds the increment. Reading the clock needs no ticking
 * thread: a flag falls when someone looks (play.c checks it before each request on
 * the game and saves the result), so the time the server measures is what counts. */
#include <time.h>

#include "app/web/games/clock.h"

int64_t web_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void web_clock_init(WebClock *c, int base_ms, int inc_ms, int64_t left0, int64_t left1) {
    c->base_ms = base_ms;
    c->inc_ms = inc_ms;
    c->left[0] = left0 > 0 ? left0 : base_ms;
    c->left[1] = left1 > 0 ? left1 : base_ms;
    c->since = web_now_ms();
    c->quota[0] = c->quota[1] = WEB_LAG_QUOTA_MS / 2;
    c->credited[0] = c->credited[1] = 0;
}

void web_clock_moved(WebClock *c, int side, int lag_ms) {
    if (!c->base_ms)
        return;
    int64_t now = web_now_ms(), spent = now - c->since;
    int quota = c->quota[side] + WEB_LAG_GAIN_MS;
    quota = quota < WEB_LAG_QUOTA_MS ? quota : WEB_LAG_QUOTA_MS;
    int credit = lag_ms > 0 ? (lag_ms < quota ? lag_ms : quota) : 0;
    if (credit > spent)
        credit = (int)spent;
    c->quota[side] = quota - credit;
    c->credited[side] = credit;
    c->left[side] -= spent - credit;
    if (c->left[side] > 0)
        c->left[side] += c->inc_ms;
    c->since = now;
}

void web_clock_restart(WebClock *c) {
    c->since = web_now_ms();
}

int64_t web_clock_left(const WebClock *c, int side, bool running) {
    return c->left[side] - (running ? web_now_ms() - c->since : 0);
}

cJSON *web_clock_json(const WebClock *c, int side, bool running) {
    if (!c->base_ms)
        return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "base_ms", c->base_ms);
    cJSON_AddNumberToObject(o, "inc_ms", c->inc_ms);
    cJSON *left = cJSON_AddArrayToObject(o, "left_ms");
    for (int s = 0; s < 2; s++) {
        int64_t t = web_clock_left(c, s, running && s == side);
        cJSON_AddItemToArray(left, cJSON_CreateNumber((double)(t > 0 ? t : 0)));
    }
    cJSON *lag = cJSON_AddArrayToObject(o, "lag_ms"); /* given back on the last moves */
    for (int s = 0; s < 2; s++)
        cJSON_AddItemToArray(lag, cJSON_CreateNumber(c->credited[s]));
    if (running)
        cJSON_AddNumberToObject(o, "running", side);
    else
        cJSON_AddNullToObject(o, "running");
    return o;
}
