/* game.c - the web game object: making and freeing one, its reference count, its
 * result, its history, and the shared helpers (ids, errors) of game.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/web/games/game.h"
#include "app/web/online/secret.h"

_Static_assert(WEB_HASH_LEN == WEB_SECRET_HASH_LEN, "seats keep secrets' hashes");

static const char id_digits[] = "0123456789abcdef";

bool web_id_valid(const char *s, size_t len) {
    if (len != WEB_ID_LEN - 1)
        return false;
    for (size_t i = 0; i < len; i++)
        if (!s[i] || !strchr(id_digits, s[i]))
            return false;
    return true;
}

void web_id_make(char id[WEB_ID_LEN]) {
    unsigned char b[6];
    FILE *f = fopen("/dev/urandom", "rb");
    size_t got = f ? fread(b, 1, sizeof b, f) : 0;
    if (f)
        fclose(f);
    for (size_t i = got; i < sizeof b; i++)
        b[i] = (unsigned char)(rand() ^ (int)time(NULL));
    for (int i = 0; i < 6; i++) {
        id[2 * i] = id_digits[b[i] >> 4];
        id[2 * i + 1] = id_digits[b[i] & 15];
    }
    id[12] = 0;
}

WebGame *web_game_new(Game *g, const WebOptions *opt) {
    WebGame *w = calloc(1, sizeof *w);
    if (!w)
        abort();
    pthread_mutex_init(&w->lock, NULL);
    pthread_cond_init(&w->idle, NULL);
    atomic_init(&w->refs, 1);
    w->g = g;
    engine_info(g, &w->info);
    w->opt = *opt;
    web_clock_init(&w->clock, opt->clock_ms, opt->inc_ms, 0, 0);
    w->created = w->updated = time(NULL);
    w->plies = engine_ply_count(g);
    w->draw_offer = w->takeback_offer = -1;
    web_refresh_before(w);
    return w;
}

void web_game_drop_search(WebGame *w) {
    if (!w->search)
        return;
    atomic_fetch_sub(w->searches, 1);
    engine_search_free(w->search);
    w->search = NULL;
}

void web_game_free(WebGame *w) {
    web_game_drop_search(w);
    engine_free(w->g);
    pthread_mutex_destroy(&w->lock);
    pthread_cond_destroy(&w->idle);
    free(w);
}

void web_game_put(WebGame *w) {
    if (w && atomic_fetch_sub(&w->refs, 1) == 1)
        web_game_free(w);
}

void web_set_err(WebError *e, int status, const char *msg) {
    if (!e)
        return;
    e->status = status;
    snprintf(e->msg, sizeof e->msg, "%s", msg);
}

const char *web_player_name(WebPlayer p) {
    return p == WEB_ENGINE ? "engine" : "human";
}

const char *web_result_token(ResultKind k) {
    static const char *const t[] = {"*", "1-0", "0-1", "1/2-1/2"};
    return t[k];
}

/* ---- helpers (game lock held) ---- */

char (*web_history(Game *g, bool san, int *n))[ENGINE_MOVE_TEXT] {
    for (int cap = 256;; cap *= 2) {
        char(*buf)[ENGINE_MOVE_TEXT] = malloc((size_t)cap * sizeof *buf);
        if (!buf)
            abort();
        int k = engine_history(g, buf, cap, san);
        if (k < cap || cap >= (1 << 17)) {
            *n = k;
            return buf;
        }
        free(buf);
    }
}

GameResult web_result_of(WebGame *w) {
    GameResult r = engine_result(w->g);
    if (r.kind == RESULT_NONE && w->forced != RESULT_NONE) {
        r.kind = w->forced;
        snprintf(r.reason, sizeof r.reason, "%s", w->forced_reason);
    }
    return r;
}

bool web_is_over(WebGame *w) {
    return w->aborted || web_result_of(w).kind != RESULT_NONE;
}

bool web_against_engine(WebGame *w) {
    return (w->online || w->opt.player[0] != w->opt.player[1]) && !web_is_over(w);
}

int web_seat_of(const WebGame *w, const WebActor *a) {
    if (!a || !a->known)
        return -1;
    for (int s = 0; s < 2; s++)
        if (w->seat[s].held && web_secret_equal(w->seat[s].holder, a->holder))
            return s;
    for (int s = 0; a->account && s < 2; s++)
        if (w->seat[s].held && w->seat[s].account == a->account)
            return s;
    return -1;
}

bool web_seats_full(const WebGame *w) {
    return w->seat[0].held && w->seat[1].held;
}

bool web_started(const WebGame *w) {
    return web_seats_full(w) && w->plies - w->first_ply >= 2;
}

bool web_clock_runs(WebGame *w) {
    return w->clock.base_ms && !web_is_over(w) && (!w->online || web_started(w));
}

/* The mancala position before the last move, for marking what the move changed. */
void web_refresh_before(WebGame *w) {
    MoveDesc last;
    w->before[0] = 0;
    if (w->info.kind != KIND_MANCALA || !engine_last_move(w->g, &last))
        return;
    char err[ENGINE_ERR_LEN];
    if (engine_undo(w->g)) {
        engine_position_text(w->g, w->before, sizeof w->before);
        if (!engine_play(w->g, last.text, err, sizeof err)) {
            /* cannot happen: the move was legal a moment ago */
            fprintf(stderr, "menagerie serve: could not replay %s: %s\n", last.text, err);
            w->before[0] = 0;
        }
    }
}
