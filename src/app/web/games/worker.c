/* worker.c - the web app's engine: one worker thread per thinking game, each
 * driving the game's EngineSearch (the engine service: a search on its own copy of
 * the game, with the principal variation in SAN and a stop that is never lost).
 * Requests keep reading the game meanwhile; the worker plays the move found on the
 * game unless it was cancelled (undo, resignation, deletion).
 *
 * Memory: an EngineSearch gets its tables (ENGINE_HASH_MB) with its first search
 * and keeps them while it lives. At most MAX_SEARCHING searches run at once; more
 * thinking games wait their turn (state "queued"). A few games keep their
 * EngineSearch between moves (KEEP_COPIES), so the engine keeps its tables there;
 * the others drop theirs when the move is played. So at most MAX_SEARCHING +
 * KEEP_COPIES tables exist, whatever the number of games: 8 x 16 MB for chess (the
 * mancala's search takes 32 MB of its own). web_worker_stats reports the figures.
 * A worker's move is saved like any change (web_store_commit). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/web/games/worker.h"

#define MAX_SEARCHING 4
#define KEEP_COPIES 4
#define ENGINE_HASH_MB 16

typedef struct {
    WebWorkers *ww;
    WebGame *w;
    SearchLimits lim;
} Worker;

static void on_info(const SearchInfo *si, void *ud) {
    Worker *k = ud;
    if (si->multipv > 1)
        return; /* the best line only */
    pthread_mutex_lock(&k->w->lock);
    k->w->si = *si;
    snprintf(k->w->pv_san, sizeof k->w->pv_san, "%s", si->pv_san);
    k->w->has_info = true;
    k->w->info_side = k->w->think_side;
    k->w->info_ply = k->w->think_ply;
    pthread_mutex_unlock(&k->w->lock);
}

/* Waits for a search slot; false when the move was cancelled meanwhile. */
static bool take_slot(WebWorkers *ww, WebGame *w) {
    pthread_mutex_lock(&w->lock);
    bool go = !w->cancel && !w->removed;
    pthread_mutex_unlock(&w->lock);
    pthread_mutex_lock(&ww->lock);
    while (go && ww->searching >= MAX_SEARCHING) {
        /* no game lock under the pool's: cancel is atomic, and a canceller wakes us */
        pthread_cond_wait(&ww->change, &ww->lock);
        go = !w->cancel && !atomic_load(&ww->closing);
    }
    if (go && ++ww->searching > ww->most_searching)
        ww->most_searching = ww->searching;
    pthread_mutex_unlock(&ww->lock);
    pthread_mutex_lock(&w->lock);
    w->queued = false;
    pthread_mutex_unlock(&w->lock);
    return go;
}

static void give_slot(WebWorkers *ww) {
    pthread_mutex_lock(&ww->lock);
    ww->searching--;
    pthread_cond_broadcast(&ww->change);
    pthread_mutex_unlock(&ww->lock);
}

/* The engine's move on the game and its row (lock held); false when it stops there. */
static bool play_best(WebWorkers *ww, WebGame *w, bool ok, const char *best) {
    char err[ENGINE_ERR_LEN];
    while (w->busy)
        pthread_cond_wait(&w->idle, &w->lock);
    if (w->cancel || w->removed)
        return false; /* dropped: the game changed or is going away */
    if (!ok || !best[0] || !strcmp(best, "(none)")) {
        snprintf(w->engine_error, sizeof w->engine_error,
                 "the engine found no move: %s has no searcher yet, or the game is over",
                 w->info.title);
        return false;
    }
    if (w->clock.base_ms && web_clock_left(&w->clock, w->think_side, true) <= 0)
        return false; /* Clock: too late; the flag falls when the game is next read */
    if (!engine_play(w->g, best, err, sizeof err)) {
        snprintf(w->engine_error, sizeof w->engine_error, "the engine's move %s: %s", best, err);
        return false;
    }
    WebClock clock = w->clock;
    web_clock_moved(&w->clock, w->think_side, 0);
    w->version++;
    w->plies++;
    web_refresh_before(w);
    WebError e;
    if (!web_store_commit(ww->store, w, &e)) {
        /* the row keeps the game without the move: so does memory */
        w->clock = clock;
        engine_undo(w->g);
        w->plies--;
        w->version++;
        web_refresh_before(w);
        snprintf(w->engine_error, sizeof w->engine_error, "the engine's move %s was not kept: %s",
                 best, e.msg);
        return false;
    }
    if (w->has_info && w->info_ply == w->think_ply) {
        int sign = w->think_side == SIDE_FIRST ? 1 : -1;
        w->has_eval = true;
        w->eval_score = sign * w->si.score;
        w->eval_mate = sign * w->si.mate;
        w->eval_depth = w->si.depth;
        w->eval_exact = w->si.exact;
    }
    return true;
}

static void *worker_main(void *arg) {
    Worker *k = arg;
    WebWorkers *ww = k->ww;
    WebGame *w = k->w;
    char best[64] = "";
    bool ok = false;
    // Step 1. A search slot, then the search (started under the game's lock, so a
    // cancel comes either before it, and it does not start, or after, and stops it).
    if (take_slot(ww, w)) {
        EngineCallbacks cb = {on_info, NULL, k};
        EngineResult res;
        char err[ENGINE_ERR_LEN];
        pthread_mutex_lock(&w->lock);
        bool started = !w->cancel && engine_search_start(w->search, w->g, NULL, &k->lim, false, &cb,
                                                         err, sizeof err);
        pthread_mutex_unlock(&w->lock);
        if (started && engine_search_wait(w->search, &res) && !res.fallback) {
            ok = true;
            snprintf(best, sizeof best, "%s", res.best);
        }
        give_slot(ww);
    }
    // Step 2. The move on the game, saved.
    pthread_mutex_lock(&w->lock);
    bool played = play_best(ww, w, ok, best);
    w->thinking = false;
    w->queued = false;
    EngineSearch *drop = NULL;
    if (atomic_load(&ww->kept_copies) > KEEP_COPIES || w->removed) {
        drop = w->search; /* too many kept: this game makes a new one next time */
        w->search = NULL;
        atomic_fetch_sub(&ww->kept_copies, 1);
    }
    pthread_cond_broadcast(&w->idle);
    // Step 3. Engine against engine: the next move follows while someone watches (the
    // page polls); otherwise the page asks again when it opens the game.
    Side side = engine_side_to_move(w->g);
    if (played && w->opt.player[side] == WEB_ENGINE && !web_is_over(w) &&
        time(NULL) - w->seen <= 20)
        web_worker_start(ww, w, w->opt.level, w->opt.movetime_ms, NULL);
    pthread_mutex_unlock(&w->lock);

    engine_search_free(drop);
    free(k);
    web_game_put(w);
    pthread_mutex_lock(&ww->lock);
    ww->workers--;
    pthread_cond_broadcast(&ww->change);
    pthread_mutex_unlock(&ww->lock);
    return NULL;
}

/* The game's EngineSearch, made when it has none (game lock held). */
static bool get_search(WebWorkers *ww, WebGame *w) {
    if (w->search)
        return true;
    w->search = engine_search_new();
    if (w->search) {
        w->searches = &ww->kept_copies; /* web_game_free lowers it */
        int kept = atomic_fetch_add(&ww->kept_copies, 1) + 1;
        pthread_mutex_lock(&ww->lock);
        if (kept > ww->most_kept)
            ww->most_kept = kept;
        pthread_mutex_unlock(&ww->lock);
    }
    return w->search != NULL;
}

void web_workers_init(WebWorkers *ww, const WebStore *store) {
    memset(ww, 0, sizeof *ww);
    ww->store = store;
    atomic_init(&ww->closing, false);
    atomic_init(&ww->kept_copies, 0);
    pthread_mutex_init(&ww->lock, NULL);
    pthread_cond_init(&ww->change, NULL);
}

void web_workers_destroy(WebWorkers *ww) {
    pthread_mutex_destroy(&ww->lock);
    pthread_cond_destroy(&ww->change);
}

bool web_worker_start(WebWorkers *ww, WebGame *w, int level, int movetime_ms, WebError *e) {
    // Step 1. Only when the game can take a move now.
    if (atomic_load(&ww->closing)) {
        web_set_err(e, 503, "the server is stopping");
        return false;
    }
    if (w->thinking) {
        web_set_err(e, 409, "the engine is already thinking");
        return false;
    }
    if (w->removed) {
        web_set_err(e, 404, "no game with that id");
        return false;
    }
    if (web_is_over(w)) {
        web_set_err(e, 409, "the game is over");
        return false;
    }
    // Step 2. The search it drives.
    if (!get_search(ww, w)) {
        web_set_err(e, 500, "could not make a search for the engine");
        return false;
    }
    Worker *k = calloc(1, sizeof *k);
    if (!k)
        abort();
    k->ww = ww;
    k->w = w;
    k->lim.level = level;
    k->lim.movetime_ms = movetime_ms;
    if (w->clock.base_ms) { /* Clock: the engine plays on its own clock */
        Side stm = engine_side_to_move(w->g);
        int64_t left = web_clock_left(&w->clock, stm, true);
        k->lim.movetime_ms = 0;
        k->lim.time_ms[stm] = left > 1 ? (int)left : 1;
        k->lim.inc_ms[stm] = w->clock.inc_ms;
    }
    k->lim.hash_mb = ENGINE_HASH_MB;
    k->lim.nodes = ww->node_cap;
    w->thinking = true;
    w->queued = true;
    w->cancel = false;
    w->think_side = engine_side_to_move(w->g);
    w->think_ply = w->plies;
    w->has_info = false;
    w->engine_error[0] = 0;
    // Step 3. Its thread, counted so that closing can wait for it.
    atomic_fetch_add(&w->refs, 1);
    pthread_mutex_lock(&ww->lock);
    ww->workers++;
    pthread_mutex_unlock(&ww->lock);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_t t;
    int rc = pthread_create(&t, &attr, worker_main, k);
    pthread_attr_destroy(&attr);
    if (rc != 0) {
        w->thinking = w->queued = false;
        free(k);
        atomic_fetch_sub(&w->refs, 1);
        pthread_mutex_lock(&ww->lock);
        ww->workers--;
        pthread_mutex_unlock(&ww->lock);
        web_set_err(e, 503, "cannot start the engine thread");
        return false;
    }
    return true;
}

void web_worker_wake(WebWorkers *ww) {
    pthread_mutex_lock(&ww->lock);
    pthread_cond_broadcast(&ww->change);
    pthread_mutex_unlock(&ww->lock);
}

void web_worker_wait_idle(WebWorkers *ww, WebGame *w, bool stop_engine) {
    if (w->thinking && stop_engine) {
        w->cancel = true;
        engine_search_stop(w->search);
        web_worker_wake(ww);
    }
    while (w->thinking || w->busy)
        pthread_cond_wait(&w->idle, &w->lock);
}

void web_worker_close(WebWorkers *ww, bool wait) {
    atomic_store(&ww->closing, true);
    web_worker_wake(ww);
    pthread_mutex_lock(&ww->lock);
    while (wait && ww->workers > 0)
        pthread_cond_wait(&ww->change, &ww->lock);
    pthread_mutex_unlock(&ww->lock);
}

cJSON *web_worker_stats(WebWorkers *ww) {
    cJSON *o = cJSON_CreateObject();
    pthread_mutex_lock(&ww->lock);
    cJSON_AddNumberToObject(o, "workers", ww->workers);
    cJSON_AddNumberToObject(o, "searching", ww->searching);
    cJSON_AddNumberToObject(o, "max_searching", MAX_SEARCHING);
    cJSON_AddNumberToObject(o, "most_searching", ww->most_searching);
    cJSON_AddNumberToObject(o, "copies", atomic_load(&ww->kept_copies));
    cJSON_AddNumberToObject(o, "keep_copies", KEEP_COPIES);
    cJSON_AddNumberToObject(o, "most_copies", ww->most_kept);
    cJSON_AddNumberToObject(o, "hash_mb", ENGINE_HASH_MB);
    pthread_mutex_unlock(&ww->lock);
    return o;
}
