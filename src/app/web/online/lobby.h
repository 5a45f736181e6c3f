/* lobby.h - the open seeks of the online site: a player offers a game (its options
 * as the new-game request gives them, a side, a clock) and whoever accepts it plays
 * it, as in lichess's lobby. A WebLobby is the table of seeks with its lock and a
 * version that moves on with every change; api.c adds, accepts and cancels seeks,
 * and makes the game an accepted seek becomes (the lobby knows nothing of games but
 * the id it is told). A seek that became a game stays listed to its maker for
 * WEB_LOBBY_MATCHED_S, so that the maker's page learns where to go. Seeks live in
 * the server's memory: a restart or a second server process does not see them. */
#ifndef WEB_LOBBY_H
#define WEB_LOBBY_H

#include <pthread.h>
#include <stdbool.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "app/web/games/game.h"

#define WEB_LOBBY_SEEKS 500    /* open at once, on the whole server */
#define WEB_LOBBY_PER_PLAYER 3 /* open at once, per session */
#define WEB_LOBBY_MATCHED_S 60
#define WEB_LOBBY_IDLE_S 3600 /* a seek nobody accepts goes after an hour */

typedef struct {
    bool used;
    char id[WEB_ID_LEN];
    unsigned char owner[WEB_HASH_LEN]; /* the maker's session, hashed */
    int64_t account;                   /* the maker's account, 0 a guest */
    bool rated;
    char name[WEB_NAME_LEN];
    char *options; /* the new-game request's JSON (variant, setup, gates, clock, side) */
    char variant[48], side[8];
    int clock_ms, inc_ms;
    time_t created;
    char game[WEB_ID_LEN]; /* non-empty: accepted, it became this game */
    time_t matched;
    bool taking; /* being made into a game */
} WebSeek;

typedef struct {
    pthread_mutex_t lock;
    WebSeek seek[WEB_LOBBY_SEEKS];
    unsigned version;
    /* told after every change, the lobby unlocked (NULL: nobody) */
    void (*changed)(void *ctx);
    void *changed_ctx;
} WebLobby;

void web_lobby_init(WebLobby *l);
void web_lobby_free(WebLobby *l);
/* Adds a seek of the owner's (options: the validated request, copied); false with
 * *e when the lobby or the owner's share of it is full. id gets the seek's id. */
bool web_lobby_add(WebLobby *l, const WebActor *owner, const char *name, const cJSON *options,
                   char id[WEB_ID_LEN], WebError *e);
/* Takes an open seek out for accepting (not the taker's own, by session or
 * account): its options (malloc'd) and the owner's seat (session hash, account,
 * name); false with *e. */
bool web_lobby_take(WebLobby *l, const char *id, const WebActor *taker, char **options,
                    WebSeat *owner, WebError *e);
/* The taken seek became game (NULL: it could not be made, the seek is open again). */
void web_lobby_matched(WebLobby *l, const char *id, const char *game);
bool web_lobby_cancel(WebLobby *l, const char *id, const WebActor *owner, WebError *e);
/* The seeks as the viewer sees them: [{id, name, variant, side, clock_ms, inc_ms,
 * created, mine, rated, game?}], newest first; *version the lobby's version. Ends seeks
 * past their time. */
cJSON *web_lobby_json(WebLobby *l, const WebActor *viewer, unsigned *version);

#endif
