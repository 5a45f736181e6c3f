/* registry.c - the web app's list of games (registry.h).
 *
 * A new game carries its caller's reference before it is listed, so a delete that
 * comes at once cannot free it under the caller; it is busy until its first row
 * is written, so that delete waits for the row (see game.h on saving).
 *
 * Other processes on the same database: their changes come as notifications (id,
 * version) on the database's listener thread. A game whose copy here is older is
 * read again in place under its lock (its engine stopped first); a game not listed
 * here is read and listed; version -1 is a deletion, and "" means notifications may
 * have been missed, so every row's version is looked at. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/web/games/registry.h"
#include "app/web/games/view.h"

static WebGame *find_locked(WebGames *gs, const char *id) {
    for (int i = 0; i < gs->n; i++)
        if (!strcmp(gs->games[i]->id, id))
            return gs->games[i];
    return NULL;
}

static bool enlist(void *ctx, WebGame *w);

WebGame *web_game_get(WebGames *gs, const char *id, WebError *e) {
    for (int tries = 0; tries < 2; tries++) {
        pthread_mutex_lock(&gs->lock);
        WebGame *w = find_locked(gs, id);
        if (w)
            atomic_fetch_add(&w->refs, 1);
        pthread_mutex_unlock(&gs->lock);
        if (w)
            return w;
        /* not here: made by another server process a moment ago, whose notification
         * has not come yet? Then it is in the database. */
        WebError re;
        WebGame *n = tries == 0 ? web_store_read(&gs->store, id, &re) : NULL;
        if (!n)
            break;
        if (!enlist(gs, n))
            web_game_free(n); /* listed meanwhile (look again), or the list is full */
    }
    web_set_err(e, 404, "no game with that id");
    return NULL;
}

/* Lists w under a new id (or its own when it has one); false when full or taken. */
static bool enlist(void *ctx, WebGame *w) {
    WebGames *gs = ctx;
    pthread_mutex_lock(&gs->lock);
    bool ok = gs->n < WEB_MAX_GAMES;
    if (ok && w->id[0]) {
        ok = !find_locked(gs, w->id);
    } else if (ok) {
        do
            web_id_make(w->id);
        while (w->id[0] == 0 || find_locked(gs, w->id));
    }
    if (ok)
        gs->games[gs->n++] = w;
    pthread_mutex_unlock(&gs->lock);
    return ok;
}

/* Takes w off the list; true for the one caller that did (and owns the list's
 * reference now). */
static bool unlist(WebGames *gs, WebGame *w) {
    bool found = false;
    pthread_mutex_lock(&gs->lock);
    for (int i = 0; i < gs->n && !found; i++)
        if (gs->games[i] == w) {
            gs->games[i] = gs->games[--gs->n];
            found = true;
        }
    pthread_mutex_unlock(&gs->lock);
    return found;
}

WebGame *web_game_add(WebGames *gs, Game *game, const WebOptions *opt, const WebOnline *online,
                      WebError *e) {
    WebGame *w = web_game_new(game, opt); /* with the registry's reference */
    if (online) {
        w->online = true;
        w->rated = online->rated;
        memcpy(w->seat, online->seat, sizeof w->seat);
        memcpy(w->invite, online->invite, sizeof w->invite);
        w->first_ply = w->plies;
    }
    w->busy = true;                /* until the first row is written */
    atomic_fetch_add(&w->refs, 1); /* the caller's, before anyone else can see it */
    if (!enlist(gs, w)) {
        web_set_err(e, 503, "too many games: delete some first");
        web_game_free(w);
        return NULL;
    }
    pthread_mutex_lock(&w->lock);
    w->busy = false;
    bool ok = web_store_commit(&gs->store, w, e);
    if (!ok)
        w->removed = true;
    pthread_mutex_unlock(&w->lock);
    if (ok)
        return w;
    if (unlist(gs, w))
        web_game_put(w);
    web_game_put(w);
    return NULL;
}

bool web_game_delete(WebGames *gs, const char *id, WebError *e) {
    WebGame *w = web_game_get(gs, id, e);
    if (!w)
        return false;
    // Step 1. No engine, no write under way; then the row goes, lock dropped.
    pthread_mutex_lock(&w->lock);
    web_worker_wait_idle(&gs->workers, w, true);
    bool ok = !w->removed;
    if (!ok) {
        web_set_err(e, 404, "no game with that id");
    } else {
        w->busy = true;
        pthread_mutex_unlock(&w->lock);
        ok = web_store_remove(&gs->store, w->id, e);
        pthread_mutex_lock(&w->lock);
        w->busy = false;
        w->removed = ok;
        pthread_cond_broadcast(&w->idle);
    }
    pthread_mutex_unlock(&w->lock);
    // Step 2. Off the list: the list's reference and ours; the other processes hear.
    if (ok && unlist(gs, w))
        web_game_put(w);
    if (ok)
        web_db_notify(gs->store.db, w->id, -1);
    web_game_put(w);
    return ok;
}

WebGame **web_games_online(WebGames *gs, int *n) {
    pthread_mutex_lock(&gs->lock);
    WebGame **list = malloc(((size_t)gs->n + 1) * sizeof *list);
    if (!list)
        abort();
    *n = 0;
    for (int i = 0; i < gs->n; i++)
        if (gs->games[i]->online) { /* set when made, never changed */
            atomic_fetch_add(&gs->games[i]->refs, 1);
            list[(*n)++] = gs->games[i];
        }
    pthread_mutex_unlock(&gs->lock);
    return list;
}

cJSON *web_games_list(WebGames *gs) {
    cJSON *arr = cJSON_CreateArray();
    pthread_mutex_lock(&gs->lock);
    for (int i = 0; i < gs->n; i++) {
        WebGame *w = gs->games[i];
        pthread_mutex_lock(&w->lock);
        cJSON_AddItemToArray(arr, web_view_entry(w));
        pthread_mutex_unlock(&w->lock);
    }
    pthread_mutex_unlock(&gs->lock);
    /* files found at start but not loaded, so that nobody takes them for lost */
    cJSON *skipped = web_store_skipped(&gs->store), *f;
    while ((f = cJSON_DetachItemFromArray(skipped, 0))) {
        cJSON_AddBoolToObject(f, "skipped", true);
        cJSON_AddItemToArray(arr, f);
    }
    cJSON_Delete(skipped);
    return arr;
}

cJSON *web_games_stats(WebGames *gs) {
    cJSON *o = cJSON_CreateObject();
    pthread_mutex_lock(&gs->lock);
    cJSON_AddNumberToObject(o, "games", gs->n);
    pthread_mutex_unlock(&gs->lock);
    cJSON_AddNumberToObject(o, "max_games", WEB_MAX_GAMES);
    cJSON_AddItemToObject(o, "skipped", web_store_skipped(&gs->store));
    cJSON_AddItemToObject(o, "engine", web_worker_stats(&gs->workers));
    return o;
}

/* ---- other processes' changes ---- */

/* Takes a game off the list that another process deleted. */
static void drop_deleted(WebGames *gs, WebGame *w) {
    pthread_mutex_lock(&w->lock);
    web_worker_wait_idle(&gs->workers, w, true);
    bool was = w->removed;
    w->removed = true;
    pthread_cond_broadcast(&w->idle);
    pthread_mutex_unlock(&w->lock);
    if (!was && unlist(gs, w))
        web_game_put(w);
}

static void on_change(void *ctx, const char *id, int64_t version) {
    WebGames *gs = ctx;
    if (!id[0]) { /* some may have been missed: look at every row */
        web_store_versions(&gs->store, on_change, gs);
        return;
    }
    if (!web_id_valid(id, strlen(id)))
        return;
    pthread_mutex_lock(&gs->lock);
    WebGame *w = find_locked(gs, id);
    if (w)
        atomic_fetch_add(&w->refs, 1);
    pthread_mutex_unlock(&gs->lock);
    WebError e;
    // Step 1. A game new here: read and listed.
    if (!w) {
        WebGame *n = version > 0 ? web_store_read(&gs->store, id, &e) : NULL;
        if (n && !enlist(gs, n))
            web_game_free(n); /* full, or listed meanwhile */
        return;
    }
    // Step 2. Gone, or newer than the copy here: read again in place.
    if (version < 0) {
        drop_deleted(gs, w);
    } else if (atomic_load(&w->stored) < version) {
        pthread_mutex_lock(&w->lock);
        web_worker_wait_idle(&gs->workers, w, true);
        bool gone = false;
        if (!w->removed && atomic_load(&w->stored) < version)
            gone = web_store_reload(&gs->store, w, &e) < 0 && e.status == 404;
        pthread_mutex_unlock(&w->lock);
        if (gone)
            drop_deleted(gs, w);
    }
    web_game_put(w);
}

bool web_games_open_db(WebGames *gs, const char *dir, const char *db_url, char *err,
                       size_t errlen) {
    pthread_mutex_init(&gs->lock, NULL);
    gs->n = 0;
    web_workers_init(&gs->workers, &gs->store);
    if (!web_store_open(&gs->store, dir, db_url, err, errlen)) {
        web_workers_destroy(&gs->workers);
        pthread_mutex_destroy(&gs->lock);
        return false;
    }
    web_store_load(&gs->store, enlist, gs);
    WebDbErr de;
    if (!web_db_listen(gs->store.db, on_change, gs, &de)) {
        snprintf(err, errlen, "cannot listen for other processes' changes: %s", de.msg);
        web_games_close(gs);
        return false;
    }
    return true;
}

bool web_games_open(WebGames *gs, const char *dir, char *err, size_t errlen) {
    return web_games_open_db(gs, dir, NULL, err, errlen);
}

void web_games_close(WebGames *gs) {
    web_db_listen_stop(gs->store.db); /* first the listener, which uses the games */
    web_worker_close(&gs->workers, false);
    pthread_mutex_lock(&gs->lock);
    for (int i = 0; i < gs->n; i++) {
        pthread_mutex_lock(&gs->games[i]->lock);
        web_worker_wait_idle(&gs->workers, gs->games[i], true);
        pthread_mutex_unlock(&gs->games[i]->lock);
    }
    pthread_mutex_unlock(&gs->lock);
    web_worker_close(&gs->workers, true);
    pthread_mutex_lock(&gs->lock);
    for (int i = 0; i < gs->n; i++)
        web_game_put(gs->games[i]);
    gs->n = 0;
    pthread_mutex_unlock(&gs->lock);
    web_workers_destroy(&gs->workers);
    pthread_mutex_destroy(&gs->lock);
    web_store_close(&gs->store);
}
