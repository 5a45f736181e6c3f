/* registry.h - the web app's list of games: ids, counted references, adding,
 * deleting, loading them all at start and letting them go at the end. A WebGames is
 * that list with its lock, and it holds the store (WebStore: folder and database) and the engine's
 * worker pool (WebWorkers) the games share: the server makes one and hands it to
 * every request. Below it are the worker, the store, the views and the game object;
 * the requests on one game (play.h) sit beside it. */
#ifndef WEB_REGISTRY_H
#define WEB_REGISTRY_H

#include "app/web/games/worker.h"

typedef struct {
    pthread_mutex_t lock; /* games and n */
    WebGame *games[WEB_MAX_GAMES];
    int n;
    WebStore store;
    WebWorkers workers;
} WebGames;

/* Opens the data folder DIR and the database (db_url NULL: SQLite in DIR), loads
 * its games and listens for other processes' changes; false with the reason in err. */
bool web_games_open_db(WebGames *gs, const char *dir, const char *db_url, char *err, size_t errlen);
bool web_games_open(WebGames *gs, const char *dir, char *err, size_t errlen); /* SQLite in DIR */
/* Stops every engine, waits, frees (all is saved already) and closes the database. */
void web_games_close(WebGames *gs);
cJSON *
web_games_list(WebGames *gs); /* the games, then {skipped: true, file, error} per unread file */
cJSON *web_games_stats(WebGames *gs); /* counts, unread files, the engine's memory */
WebGame *web_game_get(WebGames *gs, const char *id, WebError *e); /* a counted reference */
/* A new game from a started Game (ownership passes, also on failure), or NULL;
 * online: NULL for a local game. */
WebGame *web_game_add(WebGames *gs, Game *game, const WebOptions *opt, const WebOnline *online,
                      WebError *e);
bool web_game_delete(WebGames *gs, const char *id, WebError *e);
/* The online games, each with a reference for the caller (malloc'd; *n the count). */
WebGame **web_games_online(WebGames *gs, int *n);

#endif
