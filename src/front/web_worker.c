/* web_worker.c - the web app's engine: one worker thread per thinking game.
 *
 * The engine never thinks on the game itself: a worker searches a copy (start
 * position and moves replayed) while requests keep reading the game, and plays its
 * move on the game unless the move was cancelled (undo, resignation, deletion).
 *
 * Memory: a copy gets its search tables (ENGINE_HASH_MB) with its first search and
 * keeps them while it lives. At most MAX_SEARCHING copies search at once; more
 * thinking games wait their turn (state "queued"). A few games keep their copy
 * between moves (KEEP_COPIES), so the engine keeps its tables there; the others drop
 * theirs when the move is played. So at most MAX_SEARCHING + KEEP_COPIES tables
 * exist, whatever the number of games: 8 x 16 MB for chess (the mancala's search
 * takes 32 MB of its own). web_worker_stats reports the figures. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "front/web_game.h"

#define MAX_SEARCHING 4
#define KEEP_COPIES 4
#define ENGINE_HASH_MB 16

static atomic_bool closing;
static atomic_int kept_copies; /* copies with (or about to get) tables */
static pthread_mutex_t work_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t work_change = PTHREAD_COND_INITIALIZER;
static int workers;   /* worker threads alive */
static int searching; /* of them, searching now */
static int most_searching, most_kept;

typedef struct {
    WebGame *w;
    Game *pv; /* a second copy, for writing the principal variation in SAN */
    MoveDesc *md;
    SearchLimits lim;
} Worker;

/* A copy of g: same start and moves, so the repetition rules see the same past. */
static Game *clone_game(Game *g, const GameInfo *info) {
    char initial[WEB_POS_LEN], err[ENGINE_ERR_LEN];
    engine_initial_text(g, initial, sizeof initial);
    Game *c = engine_new(info->name, initial, err, sizeof err);
    if (!c)
        return NULL;
    int n;
    char(*h)[ENGINE_MOVE_TEXT] = web_history(g, false, &n);
    for (int i = 0; i < n; i++)
        if (!engine_play(c, h[i], err, sizeof err)) {
            engine_free(c);
            c = NULL;
            break;
        }
    free(h);
    return c;
}

static void pv_to_san(Worker *k, const char *pv, char *out, size_t len) {
    char tok[ENGINE_MOVE_TEXT], err[ENGINE_ERR_LEN];
    size_t o = 0;
    int played = 0;
    out[0] = 0;
    while (*pv) {
        while (*pv == ' ')
            pv++;
        size_t n = strcspn(pv, " ");
        if (!n)
            break;
        snprintf(tok, sizeof tok, "%.*s", (int)(n < sizeof tok ? n : sizeof tok - 1), pv);
        pv += n;
        int nm = engine_moves(k->pv, k->md, ENGINE_MAX_MOVES);
        const char *san = NULL;
        for (int i = 0; i < nm && i < ENGINE_MAX_MOVES; i++)
            if (!strcmp(k->md[i].text, tok))
                san = k->md[i].san;
        if (!san || strlen(san) + o + 2 > len)
            break;
        o += (size_t)snprintf(out + o, len - o, "%s%s", o ? " " : "", san);
        if (!engine_play(k->pv, tok, err, sizeof err))
            break;
        played++;
    }
    while (played-- > 0)
        engine_undo(k->pv);
}

static void on_info(const SearchInfo *si, void *ud) {
    Worker *k = ud;
    char san[600];
    pv_to_san(k, si->pv, san, sizeof san);
    pthread_mutex_lock(&k->w->lock);
    k->w->si = *si;
    snprintf(k->w->pv_san, sizeof k->w->pv_san, "%s", san);
    k->w->has_info = true;
    k->w->info_side = k->w->think_side;
    k->w->info_ply = k->w->think_ply;
    pthread_mutex_unlock(&k->w->lock);
}

/* Waits for a search slot; false when the move was cancelled meanwhile. */
static bool take_slot(WebGame *w) {
    pthread_mutex_lock(&w->lock);
    bool go = !w->cancel && !w->removed;
    pthread_mutex_unlock(&w->lock);
    pthread_mutex_lock(&work_lock);
    while (go && searching >= MAX_SEARCHING) {
        /* no game lock under work_lock: cancel is atomic, and a canceller wakes us */
        pthread_cond_wait(&work_change, &work_lock);
        go = !w->cancel && !atomic_load(&closing);
    }
    if (go && ++searching > most_searching)
        most_searching = searching;
    pthread_mutex_unlock(&work_lock);
    pthread_mutex_lock(&w->lock);
    w->queued = false;
    pthread_mutex_unlock(&w->lock);
    return go;
}

static void give_slot(void) {
    pthread_mutex_lock(&work_lock);
    searching--;
    pthread_cond_broadcast(&work_change);
    pthread_mutex_unlock(&work_lock);
}

/* The engine's move on the game and its file (lock held); false when it stops there. */
static bool play_best(WebGame *w, bool ok, const char *best) {
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
    if (!engine_play(w->g, best, err, sizeof err)) {
        snprintf(w->engine_error, sizeof w->engine_error, "the engine's move %s: %s", best, err);
        return false;
    }
    w->version++;
    w->plies++;
    web_refresh_before(w);
    WebError e;
    if (!web_commit(w, &e)) {
        /* the file keeps the game without the move: so does memory */
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
    WebGame *w = k->w;
    char best[64] = "";
    bool ok = false;
    // Step 1. A search slot, then the search on the copy.
    if (take_slot(w)) {
        SearchCallbacks cb = {on_info, k};
        ok = engine_go(w->think, &k->lim, &cb, best, sizeof best);
        give_slot();
    }
    // Step 2. The move on the game, saved.
    pthread_mutex_lock(&w->lock);
    bool played = play_best(w, ok, best);
    w->thinking = false;
    w->queued = false;
    Game *drop = NULL;
    if (atomic_load(&kept_copies) > KEEP_COPIES || w->removed) {
        drop = w->think; /* too many kept: this game makes a new copy next time */
        w->think = NULL;
        atomic_fetch_sub(&kept_copies, 1);
    }
    pthread_cond_broadcast(&w->idle);
    // Step 3. Engine against engine: the next move follows while someone watches (the
    // page polls); otherwise the page asks again when it opens the game.
    Side side = engine_side_to_move(w->g);
    if (played && w->opt.player[side] == WEB_ENGINE && !web_is_over(w) &&
        time(NULL) - w->seen <= 20)
        web_worker_start(w, w->opt.level, w->opt.movetime_ms, NULL);
    pthread_mutex_unlock(&w->lock);

    engine_free(drop);
    engine_free(k->pv);
    free(k->md);
    free(k);
    web_game_put(w);
    pthread_mutex_lock(&work_lock);
    workers--;
    pthread_cond_broadcast(&work_change);
    pthread_mutex_unlock(&work_lock);
    return NULL;
}

/* Brings the engine's copy level with the game: back to the start, then the
 * game's moves again (its tables survive). A new copy when it has none. */
static bool sync_copy(WebGame *w) {
    if (w->think) {
        char a[WEB_POS_LEN], b[WEB_POS_LEN], err[ENGINE_ERR_LEN];
        while (engine_undo(w->think))
            ;
        engine_initial_text(w->think, a, sizeof a);
        engine_initial_text(w->g, b, sizeof b);
        bool same = !strcmp(a, b);
        int n;
        char(*h)[ENGINE_MOVE_TEXT] = web_history(w->g, false, &n);
        for (int i = 0; same && i < n; i++)
            same = engine_play(w->think, h[i], err, sizeof err);
        free(h);
        if (same)
            return true;
        web_worker_drop_copy(w);
    }
    w->think = clone_game(w->g, &w->info);
    if (w->think) {
        int kept = atomic_fetch_add(&kept_copies, 1) + 1;
        pthread_mutex_lock(&work_lock);
        if (kept > most_kept)
            most_kept = kept;
        pthread_mutex_unlock(&work_lock);
    }
    return w->think != NULL;
}

void web_worker_drop_copy(WebGame *w) {
    if (!w->think)
        return;
    atomic_fetch_sub(&kept_copies, 1);
    engine_free(w->think);
    w->think = NULL;
}

static void free_worker(Worker *k) {
    engine_free(k->pv);
    free(k->md);
    free(k);
}

bool web_worker_start(WebGame *w, int level, int movetime_ms, WebError *e) {
    // Step 1. Only when the game can take a move now.
    if (atomic_load(&closing)) {
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
    // Step 2. The copies it thinks on and writes its line on.
    Worker *k = calloc(1, sizeof *k);
    if (!k)
        abort();
    k->w = w;
    k->md = malloc(ENGINE_MAX_MOVES * sizeof *k->md);
    if (!k->md)
        abort();
    k->pv = clone_game(w->g, &w->info);
    if (!k->pv || !sync_copy(w)) {
        free_worker(k);
        web_set_err(e, 500, "could not copy the game for the engine");
        return false;
    }
    k->lim.level = level;
    k->lim.movetime_ms = movetime_ms;
    k->lim.hash_mb = ENGINE_HASH_MB;
    w->thinking = true;
    w->queued = true;
    w->cancel = false;
    w->think_side = engine_side_to_move(w->g);
    w->think_ply = w->plies;
    w->has_info = false;
    w->engine_error[0] = 0;
    // Step 3. Its thread, counted so that closing can wait for it.
    atomic_fetch_add(&w->refs, 1);
    pthread_mutex_lock(&work_lock);
    workers++;
    pthread_mutex_unlock(&work_lock);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_t t;
    int rc = pthread_create(&t, &attr, worker_main, k);
    pthread_attr_destroy(&attr);
    if (rc != 0) {
        w->thinking = w->queued = false;
        free_worker(k);
        atomic_fetch_sub(&w->refs, 1);
        pthread_mutex_lock(&work_lock);
        workers--;
        pthread_mutex_unlock(&work_lock);
        web_set_err(e, 503, "cannot start the engine thread");
        return false;
    }
    return true;
}

void web_worker_wake(void) {
    pthread_mutex_lock(&work_lock);
    pthread_cond_broadcast(&work_change);
    pthread_mutex_unlock(&work_lock);
}

void web_worker_close(bool wait) {
    atomic_store(&closing, true);
    web_worker_wake();
    pthread_mutex_lock(&work_lock);
    while (wait && workers > 0)
        pthread_cond_wait(&work_change, &work_lock);
    pthread_mutex_unlock(&work_lock);
}

cJSON *web_worker_stats(void) {
    cJSON *o = cJSON_CreateObject();
    pthread_mutex_lock(&work_lock);
    cJSON_AddNumberToObject(o, "workers", workers);
    cJSON_AddNumberToObject(o, "searching", searching);
    cJSON_AddNumberToObject(o, "max_searching", MAX_SEARCHING);
    cJSON_AddNumberToObject(o, "most_searching", most_searching);
    cJSON_AddNumberToObject(o, "copies", atomic_load(&kept_copies));
    cJSON_AddNumberToObject(o, "keep_copies", KEEP_COPIES);
    cJSON_AddNumberToObject(o, "most_copies", most_kept);
    cJSON_AddNumberToObject(o, "hash_mb", ENGINE_HASH_MB);
    pthread_mutex_unlock(&work_lock);
    return o;
}
