/* play.h - the requests on one web game (move, engine, undo, resign, draw, options,
 * export). Every change is saved before it is answered and rolled back when its file
 * cannot be written (game.h). Each takes the WebGames the game belongs to for its
 * store and worker pool; a clock's fallen flag is seen here, before each request, and
 * stops the game's engine through the pool. Nothing below calls these. */
#ifndef WEB_PLAY_H
#define WEB_PLAY_H

#include "app/web/games/registry.h"

/* Errors fill *e (which may be NULL) and return false. */
/* The state; "you" is the side whose seat a holds (null: none, or a NULL a). */
cJSON *web_game_state(WebGames *gs, WebGame *w, const WebActor *a);
cJSON *web_game_moves(WebGame *w);
/* A fallen flag ends the game now; an online game nobody starts is aborted. */
void web_game_tick(WebGames *gs, WebGame *w);
void web_games_tick(WebGames *gs); /* web_game_tick on every online game */
/* Online: a seat's holder ends the game before each side has moved (abort), or
 * claims it (win, or draw when win is false) against an opponent gone WEB_GONE_S
 * on their move; gone(ctx, side) says whether that seat's player is away. */
bool web_game_abort(WebGames *gs, WebGame *w, const WebActor *a, WebError *e);
bool web_game_claim(WebGames *gs, WebGame *w, const WebActor *a, bool win,
                    bool (*gone)(void *ctx, const char *id, int side), void *ctx, WebError *e);
/* The changes take the actor: in an online game only a seat's holder acts, for its
 * own side (403 for anybody else); in a local game anybody does. Online, undo and
 * draw are asked of the other player, who grants them by asking the same. */
/* lag_ms: the network delay the mover's page measured (clock.h), 0 none */
bool web_game_move(WebGames *gs, WebGame *w, const WebActor *a, const char *move, int lag_ms,
                   WebError *e);
bool web_game_go(WebGames *gs, WebGame *w, int level, int movetime_ms, WebError *e);
bool web_game_stop(WebGame *w, WebError *e);
bool web_game_undo(WebGames *gs, WebGame *w, const WebActor *a, int count, WebError *e);
bool web_game_resign(WebGames *gs, WebGame *w, const WebActor *a, int side,
                     WebError *e); /* side -1: the one to resign */
bool web_game_draw(WebGames *gs, WebGame *w, const WebActor *a, bool *accepted, WebError *e);
/* Takes the free seat of an online game for the actor, shown as name; the token's
 * hash must match the invitation when the game has one (403 otherwise). */
bool web_game_join(WebGames *gs, WebGame *w, const WebActor *a, const unsigned char *token_hash,
                   const char *name, WebError *e);
bool web_game_options(WebGames *gs, WebGame *w, const cJSON *players, int level, int movetime_ms,
                      WebError *e);
char *web_game_export(WebGame *w, char *name, size_t namelen); /* malloc'd text */
/* A person plays the engine and the game is not over (then no analysis). */
bool web_game_against_engine(WebGame *w);

#endif
