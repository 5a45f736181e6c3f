/* test_web.c - the web app's registry under concurrent use: games added while
 * another thread lists and deletes them at once (the new game carries its caller's
 * reference before anyone can see it; the sanitizer build catches a use after free),
 * and every row gone with its game. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/web/games/play.h"
#include "test.h"

#define ADDS 150

static atomic_bool adding_done;
static atomic_int added, deleted;

static void *adder(void *arg) {
    WebGames *gs = arg;
    WebOptions opt = {{WEB_HUMAN, WEB_HUMAN}, 8, 1000, 0, 0};
    char err[ENGINE_ERR_LEN];
    for (int i = 0; i < ADDS; i++) {
        Game *g = engine_new(i % 2 ? "chess" : "slangenspel", NULL, err, sizeof err);
        WebError e;
        WebGame *w = g ? web_game_add(gs, g, &opt, NULL, &e) : NULL;
        if (!w)
            continue;
        atomic_fetch_add(&added, 1);
        cJSON_Delete(web_game_state(gs, w, NULL)); /* uses the game whatever a delete did */
        web_game_move(gs, w, NULL, i % 2 ? "e2e4" : "3+", 0, &e);
        web_game_put(w);
    }
    atomic_store(&adding_done, true);
    return NULL;
}

static void *deleter(void *arg) {
    WebGames *gs = arg;
    for (;;) {
        bool last = atomic_load(&adding_done);
        cJSON *list = web_games_list(gs), *g;
        cJSON_ArrayForEach(g, list) {
            const cJSON *id = cJSON_GetObjectItem(g, "id");
            WebError e;
            if (cJSON_IsString(id) && web_game_delete(gs, id->valuestring, &e))
                atomic_fetch_add(&deleted, 1);
        }
        cJSON_Delete(list);
        if (last)
            return NULL;
    }
}

static int rows_in(WebGames *gs, const char *table) {
    char sql[64], v[32];
    bool found;
    WebDbErr e;
    snprintf(sql, sizeof sql, "SELECT COUNT(*) FROM %s", table);
    return web_db_value(gs->store.db, sql, NULL, 0, v, sizeof v, &found, &e) ? atoi(v) : -1;
}

void test_web(void) {
    char dir[] = "/tmp/menagerie-test-web-XXXXXX", err[300];
    CHECK(mkdtemp(dir) != NULL);
    WebGames *gs = calloc(1, sizeof *gs);
    CHECK(gs && web_games_open(gs, dir, err, sizeof err));
    pthread_t a, d;
    pthread_create(&a, NULL, adder, gs);
    pthread_create(&d, NULL, deleter, gs);
    pthread_join(a, NULL);
    pthread_join(d, NULL);
    CHECK(atomic_load(&added) == ADDS);
    CHECK(atomic_load(&deleted) == ADDS);
    CHECK(rows_in(gs, "games") == 0);
    CHECK(rows_in(gs, "seats") == 0);
    cJSON *list = web_games_list(gs);
    CHECK(cJSON_GetArraySize(list) == 0);
    cJSON_Delete(list);
    web_games_close(gs);
    free(gs);
    test_remove_folder(dir);
}
