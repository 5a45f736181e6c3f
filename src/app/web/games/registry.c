/* web_registry.c - the web app's list of games: ids, counted references, adding,
 * deleting, loading them all at start and letting them go at the end.
 *
 * A new game carries its caller's reference before it is listed, so a delete that
 * comes at once cannot free it under the caller; it is busy until its first file
 * is written, so that delete waits for the file (see web_game.h on saving). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/web/games/game.h"

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static WebGame *games[WEB_MAX_GAMES];
static int ngames;

WebGame *web_game_new(Game *g, const WebOptions *opt) {
    WebGame *w = calloc(1, sizeof *w);
    if (!w)
        abort();
    pthread_mutex_init(&w->lock, NULL);
    pthread_cond_init(&w->idle, NULL);
    atomic_init(&w->refs, 1); /* the registry's */
    w->g = g;
    engine_info(g, &w->info);
    w->opt = *opt;
    web_clock_init(&w->clock, opt->clock_ms, opt->inc_ms, 0, 0);
    w->created = w->updated = time(NULL);
    w->plies = engine_ply_count(g);
    web_refresh_before(w);
    return w;
}

void web_game_free(WebGame *w) {
    web_worker_drop_copy(w);
    engine_free(w->g);
    pthread_mutex_destroy(&w->lock);
    pthread_cond_destroy(&w->idle);
    free(w);
}

void web_game_put(WebGame *w) {
    if (w && atomic_fetch_sub(&w->refs, 1) == 1)
        web_game_free(w);
}

static WebGame *find_locked(const char *id) {
    for (int i = 0; i < ngames; i++)
        if (!strcmp(games[i]->id, id))
            return games[i];
    return NULL;
}

WebGame *web_game_get(const char *id, WebError *e) {
    pthread_mutex_lock(&reg_lock);
    WebGame *w = find_locked(id);
    if (w)
        atomic_fetch_add(&w->refs, 1);
    pthread_mutex_unlock(&reg_lock);
    if (!w)
        web_set_err(e, 404, "no game with that id");
    return w;
}

static const char id_digits[] = "0123456789abcdef";

bool web_id_valid(const char *s, size_t len) {
    if (len != WEB_ID_LEN - 1)
        return false;
    for (size_t i = 0; i < len; i++)
        if (!s[i] || !strchr(id_digits, s[i]))
            return false;
    return true;
}

static void new_id(char *id) {
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

/* Lists w under a new id (or its own when it has one); false when full or taken. */
static bool enlist(WebGame *w) {
    pthread_mutex_lock(&reg_lock);
    bool ok = ngames < WEB_MAX_GAMES;
    if (ok && w->id[0]) {
        ok = !find_locked(w->id);
    } else if (ok) {
        do
            new_id(w->id);
        while (w->id[0] == 0 || find_locked(w->id));
    }
    if (ok)
        games[ngames++] = w;
    pthread_mutex_unlock(&reg_lock);
    return ok;
}

/* Takes w off the list; true for the one caller that did (and owns the list's
 * reference now). */
static bool unlist(WebGame *w) {
    bool found = false;
    pthread_mutex_lock(&reg_lock);
    for (int i = 0; i < ngames && !found; i++)
        if (games[i] == w) {
            games[i] = games[--ngames];
            found = true;
        }
    pthread_mutex_unlock(&reg_lock);
    return found;
}

WebGame *web_game_add(Game *game, const WebOptions *opt, WebError *e) {
    WebGame *w = web_game_new(game, opt);
    w->busy = true;                /* until the first file is written */
    atomic_fetch_add(&w->refs, 1); /* the caller's, before anyone else can see it */
    if (!enlist(w)) {
        web_set_err(e, 503, "too many games: delete some first");
        web_game_free(w);
        return NULL;
    }
    pthread_mutex_lock(&w->lock);
    w->busy = false;
    bool ok = web_commit(w, e);
    if (!ok)
        w->removed = true;
    pthread_mutex_unlock(&w->lock);
    if (ok)
        return w;
    if (unlist(w))
        web_game_put(w);
    web_game_put(w);
    return NULL;
}

bool web_game_delete(const char *id, WebError *e) {
    WebGame *w = web_game_get(id, e);
    if (!w)
        return false;
    // Step 1. No engine, no write under way; then the file goes, lock dropped.
    pthread_mutex_lock(&w->lock);
    web_wait_idle(w, true);
    bool ok = !w->removed;
    char err[ENGINE_ERR_LEN];
    if (!ok) {
        web_set_err(e, 404, "no game with that id");
    } else {
        w->busy = true;
        pthread_mutex_unlock(&w->lock);
        ok = web_store_remove(w->id, w->info.kind, err, sizeof err);
        pthread_mutex_lock(&w->lock);
        w->busy = false;
        w->removed = ok;
        pthread_cond_broadcast(&w->idle);
        if (!ok)
            web_set_err(e, web_store_status(errno), err);
    }
    pthread_mutex_unlock(&w->lock);
    // Step 2. Off the list: the list's reference and ours.
    if (ok && unlist(w))
        web_game_put(w);
    web_game_put(w);
    return ok;
}

cJSON *web_games_list(void) {
    cJSON *arr = cJSON_CreateArray();
    pthread_mutex_lock(&reg_lock);
    for (int i = 0; i < ngames; i++) {
        WebGame *w = games[i];
        pthread_mutex_lock(&w->lock);
        cJSON_AddItemToArray(arr, web_view_entry(w));
        pthread_mutex_unlock(&w->lock);
    }
    pthread_mutex_unlock(&reg_lock);
    /* files found at start but not loaded, so that nobody takes them for lost */
    cJSON *skipped = web_store_skipped(), *f;
    while ((f = cJSON_DetachItemFromArray(skipped, 0))) {
        cJSON_AddBoolToObject(f, "skipped", true);
        cJSON_AddItemToArray(arr, f);
    }
    cJSON_Delete(skipped);
    return arr;
}

cJSON *web_games_stats(void) {
    cJSON *o = cJSON_CreateObject();
    pthread_mutex_lock(&reg_lock);
    cJSON_AddNumberToObject(o, "games", ngames);
    pthread_mutex_unlock(&reg_lock);
    cJSON_AddNumberToObject(o, "max_games", WEB_MAX_GAMES);
    cJSON_AddItemToObject(o, "skipped", web_store_skipped());
    cJSON_AddItemToObject(o, "engine", web_worker_stats());
    return o;
}

bool web_games_open(const char *dir, char *err, size_t errlen) {
    if (!web_store_open(dir, err, errlen))
        return false;
    web_store_load(enlist);
    return true;
}

void web_games_close(void) {
    web_worker_close(false);
    pthread_mutex_lock(&reg_lock);
    for (int i = 0; i < ngames; i++) {
        pthread_mutex_lock(&games[i]->lock);
        web_wait_idle(games[i], true);
        pthread_mutex_unlock(&games[i]->lock);
    }
    pthread_mutex_unlock(&reg_lock);
    web_worker_close(true);
    pthread_mutex_lock(&reg_lock);
    for (int i = 0; i < ngames; i++)
        web_game_put(games[i]);
    ngames = 0;
    pthread_mutex_unlock(&reg_lock);
}
