/* web.h - the parts of the web front end (`menagerie serve`) that talk to each other.
 * web.c owns HTTP (libmicrohttpd, static files, the route table), web_api.c turns JSON
 * requests into calls on web_game.c, which keeps every game (a mutex each, an engine
 * worker thread each) and saves it to the data folder after every change. */
#ifndef WEB_H
#define WEB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "engine/engine.h"

#define WEB_ID_LEN 13 /* 12 hex digits and the NUL */
/* Whether the LEN characters at S are a game id: exactly 12 lower-case hex
 * digits (web_registry.c, which makes them). */
bool web_id_valid(const char *s, size_t len);
#define WEB_MAX_BODY (1 << 20)
#define WEB_MAX_GAMES 2000 /* games kept in memory (and loaded on start) */

/* A failed request: the HTTP status and a message for the JSON error. */
typedef struct {
    int status;
    char msg[200];
} WebError;

/* One reply: status, body (malloc'd, freed by web.c) and its type. */
typedef struct {
    int status;
    char *body;
    size_t len;
    const char *type;
    char filename[64]; /* non-empty: sent as an attachment of this name */
} WebReply;

/* Who plays a side, and how the engine thinks. */
typedef enum { WEB_HUMAN = 0, WEB_ENGINE = 1 } WebPlayer;

/* New games' engine defaults: the engine's, as `menagerie play`'s. */
#define WEB_LEVEL ENGINE_DEFAULT_LEVEL
#define WEB_MOVETIME ENGINE_DEFAULT_MOVETIME_MS

typedef struct {
    WebPlayer player[2];
    int level;       /* 1..20 */
    int movetime_ms; /* time per engine move (without a clock) */
    int clock_ms, inc_ms; /* a clock for each side: base and increment; 0 = none */
} WebOptions;

/* web_clock.c: each side's time, measured by the server. */
typedef struct {
    int base_ms, inc_ms; /* base 0: no clock */
    int64_t left[2];     /* at the start of the current turn */
    int64_t since;       /* when the current turn began (web_now_ms) */
} WebClock;
int64_t web_now_ms(void); /* a monotonic clock */
/* left0/left1 <= 0: the base time */
void web_clock_init(WebClock *c, int base_ms, int inc_ms, int64_t left0, int64_t left1);
void web_clock_moved(WebClock *c, int side); /* side moved: charge it, add the increment */
void web_clock_restart(WebClock *c);         /* the turn begins now (take-back, load) */
int64_t web_clock_left(const WebClock *c, int side, bool running);
cJSON *web_clock_json(const WebClock *c, int side, bool running); /* null without a clock */

/* web_api.c: answers every request under /api/. */
void web_api_handle(const char *method, const char *url, const char *body, size_t len,
                    WebReply *out);

/* web_game.c: the games. Errors fill *e and return NULL or false. */
typedef struct WebGame WebGame;

bool web_games_open(const char *dir, char *err, size_t errlen); /* loads saved games */
void web_games_close(void); /* stops every engine, waits, frees (all is saved already) */
cJSON *web_games_list(void);  /* the games, then {skipped: true, file, error} per unread file */
cJSON *web_games_stats(void); /* counts, unread files, the engine's memory */
WebGame *web_game_get(const char *id, WebError *e); /* a counted reference */
void web_game_put(WebGame *w);                      /* drops it */
/* A new game from a started Game (ownership passes, also on failure), or NULL. */
WebGame *web_game_add(Game *game, const WebOptions *opt, WebError *e);
bool web_game_delete(const char *id, WebError *e);

cJSON *web_game_state(WebGame *w);
cJSON *web_game_moves(WebGame *w);
bool web_game_move(WebGame *w, const char *move, WebError *e);
bool web_game_go(WebGame *w, int level, int movetime_ms, WebError *e);
bool web_game_stop(WebGame *w, WebError *e);
bool web_game_undo(WebGame *w, int count, WebError *e);
bool web_game_resign(WebGame *w, int side, WebError *e); /* side -1: the one to resign */
bool web_game_draw(WebGame *w, bool *accepted, WebError *e);
bool web_game_options(WebGame *w, const cJSON *players, int level, int movetime_ms, WebError *e);
char *web_game_export(WebGame *w, char *name, size_t namelen); /* malloc'd text */
/* A person plays the engine and the game is not over (then no analysis). */
bool web_game_against_engine(WebGame *w);

/* web_study.c: every position of a game (review), piece diagrams, and whether a
 * FEN is a position of a game (the board editor). */
/* The game ID as saved, read back into a Game of its own; NULL with the error
 * reply written. */
Game *web_study_saved(const char *id, WebReply *out);
void web_study_positions(const char *id, WebReply *out);
void web_study_diagram(const cJSON *body, WebReply *out);
void web_study_check(const cJSON *body, WebReply *out);
void web_study_levels(WebReply *out); /* GET /api/levels */

/* web_analysis.c: the engine's best lines for a position of a game, on demand. */
void web_analysis_start(const char *id, const cJSON *body, WebReply *out); /* {ply?, movetime_ms?} */
void web_analysis_get(const char *id, WebReply *out);
void web_analysis_close(void); /* stops and waits for every analysis */

/* web.c: the error reply every layer uses. */
void web_reply_error(WebReply *out, int status, const char *msg);
void web_reply_json(WebReply *out, int status, cJSON *json); /* takes json */

#endif
