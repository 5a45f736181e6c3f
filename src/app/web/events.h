/* events.h - a game's changes pushed to everyone watching it, as Server-Sent Events
 * (GET /api/games/ID/events). Each event is the game's whole state, for a spectator,
 * under the game's version as its event id:
 *
 *   id: 17
 *   event: state
 *   data: {...}
 *
 * so a stream that drops and comes back (EventSource sends Last-Event-ID) gets the
 * state at once when it moved on meanwhile, and nothing is lost or repeated: every
 * state holds every move. When a player's stream opens or closes, the others get
 * "event: presence" with {"present": [bool, bool]} (no id: the game did not change).
 * A comment line (": ping") goes out every PING_SECONDS (5) on a quiet stream, which
 * keeps proxies from closing it and finds clients that left (a suspended connection
 * sees no hang-up until it writes: a page that left is seen within about 10 s).
 *
 * A WebEvents is the table of open streams with its lock and its ticker thread. The
 * games tell it of each change (it is their store's `changed` hook); it wakes the
 * streams of that game, which libmicrohttpd suspends while there is nothing to send,
 * so a waiting stream holds no thread. Once a second the ticker lets the online
 * games' flags fall and aborts the games nobody starts (web_games_tick), so both
 * players see it without asking. It also knows whose seats are connected
 * (web_events_present), for games a player left. The server makes one WebEvents
 * beside its games. */
#ifndef WEB_EVENTS_H
#define WEB_EVENTS_H

#include <microhttpd.h>

#include "app/web/games/registry.h"

typedef struct WebEvents WebEvents;

WebEvents *web_events_new(WebGames *gs); /* hooks itself into gs->store.changed */
/* Ends every stream (before the server stops: libmicrohttpd wants no connection
 * suspended then); web_events_free, after it stopped, ends the ticker. */
void web_events_stop(WebEvents *ev);
void web_events_free(WebEvents *ev);
/* A stream of game id for a viewer (a: its session, for the seat it holds) that last
 * saw version `last` (-1: none), counted against the address client (NULL or "": not
 * limited; at most 32 streams an address); NULL with *status and *msg when there is
 * no such game or too many streams. */
struct MHD_Response *web_events_open(WebEvents *ev, struct MHD_Connection *c, const char *id,
                                     const WebActor *a, const char *client, long long last,
                                     int *status, const char **msg);
/* Whether the holder of a game's seat has a stream open now, or had one within the
 * last `grace` seconds. */
bool web_events_present(WebEvents *ev, const char *id, int side, int grace);
/* The lobby's stream (GET /api/lobby/events): view(ctx, viewer) makes what it sends
 * (event "lobby", no id: every event is the whole lobby). web_events_lobby_changed
 * (the lobby's `changed` hook) sends it anew; a game starting or ending does too. */
void web_events_lobby(WebEvents *ev, cJSON *(*view)(void *ctx, const WebActor *viewer), void *ctx);
void web_events_lobby_changed(void *ev);
struct MHD_Response *web_events_open_lobby(WebEvents *ev, struct MHD_Connection *c,
                                           const WebActor *a, const char *client, int *status,
                                           const char **msg);
/* Adds "present": [bool, bool] to an online game's state: whose players have a
 * stream open now. A player's stream opening or closing sends the state again. */
void web_events_presence(WebEvents *ev, cJSON *state);

#endif
