/* web_game.h - what the modules of the web app's games share; web.h is their face to
 * the HTTP side. One noun per module:
 *   web_registry.c  the list of games: ids, counted references, add, delete, open, close
 *   web_store.c     the data folder: writing a game's file, reading them all back
 *   web_view.c      JSON views of a game (state, legal moves, list entry)
 *   web_worker.c    the engine worker threads and the memory their tables take
 *   web_game.c      the requests on one game (move, undo, resign, ...)
 *   web_clock.c     the game's clock
 *
 * Locks: the registry lock may be held while taking a game's lock, and a game's lock
 * while taking the workers' lock (web_worker.c), never the other way round. A game's
 * reference count is atomic; the registry holds one reference while the game is
 * listed, each request and each worker thread one more.
 *
 * Saving: a change is made on the game under its lock, the new text exported, and
 * the game marked busy; the lock is dropped while the file is written (readers and
 * other games go on), then taken again. A failed write rolls the change back and
 * reaches the client as a 5xx error, so the game in memory is never ahead of its file.
 * Changes wait while a game is busy, so at most one write per game is under way. */
#ifndef WEB_GAME_H
#define WEB_GAME_H

#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include "app/web/web.h"

#define WEB_POS_LEN 1024

struct WebGame {
    pthread_mutex_t lock;
    pthread_cond_t idle; /* broadcast when a worker or a file write finishes */
    atomic_int refs;
    bool removed;
    bool busy; /* a file write or removal is under way (lock dropped meanwhile) */
    char id[WEB_ID_LEN];
    Game *g;
    GameInfo info;
    WebOptions opt;
    time_t created, updated;
    time_t seen;      /* last time a page asked for the state */
    unsigned version; /* changes with every move, undo and result */
    int plies;
    /* a result the rules do not give: resignation or agreed draw */
    ResultKind forced;
    char forced_reason[64];
    char before[WEB_POS_LEN]; /* mancala position before the last move ("" at the start) */
    /* the engine */
    bool thinking, queued;
    atomic_bool cancel; /* drop the engine's move; read by queued workers unlocked */
    EngineSearch *search; /* the engine's: kept between moves for a few games */
    int think_side, think_ply;
    bool has_info;
    SearchInfo si;
    char pv_san[600];
    int info_side, info_ply;
    bool has_eval;
    int eval_score, eval_mate, eval_depth; /* first player's view */
    bool eval_exact;
    char engine_error[200];
    WebClock clock; /* web_clock.c; base 0 = no clock */
};

/* web_game.c: helpers on one game (its lock held). */
void web_set_err(WebError *e, int status, const char *msg);
const char *web_player_name(WebPlayer p);
GameResult web_result_of(WebGame *w);
bool web_is_over(WebGame *w);
/* A person plays the engine and the game is not over: the engine's lines are
 * nobody's help then (no planned line in the state, no analysis). */
bool web_against_engine(WebGame *w);
void web_refresh_before(WebGame *w);
const char *web_result_token(ResultKind k); /* "*", "1-0", "0-1", "1/2-1/2" */
/* The moves played, as coordinate text or SAN (malloc'd); *n gets the count. */
char (*web_history(Game *g, bool san, int *n))[ENGINE_MOVE_TEXT];
/* Waits until no worker runs (cancel: drop its move) and no write is under way. */
void web_wait_idle(WebGame *w, bool stop_engine);
/* Saves w after a change (lock held on entry and on return, dropped meanwhile);
 * false with a 5xx in *e when the file could not be written. */
bool web_commit(WebGame *w, WebError *e);

/* web_clock.c: the game's clock (lock held). */
bool web_clock_fallen(WebGame *w); /* the side to move's time is up, the game not over */
void web_clock_flag(WebGame *w);   /* ends the game on that flag (the caller saves) */

/* web_registry.c */
WebGame *web_game_new(Game *g, const WebOptions *opt);
void web_game_free(WebGame *w);

/* web_store.c: the data folder. */
bool web_store_open(const char *dir, char *err, size_t errlen); /* makes, checks, cleans */
char *web_store_text(WebGame *w); /* the file's text (malloc'd), NULL when too long */
/* Writes text as w's file (temporary file, fsync, rename, fsync of the folder);
 * false with errno's message in err. No lock needed: only the writer touches it. */
bool web_store_write(const char *id, GameKind kind, const char *text, char *err, size_t errlen);
bool web_store_remove(const char *id, GameKind kind, char *err, size_t errlen);
/* Reads the saved games, calling add for each; a file that cannot be read is
 * remembered with its reason (web_store_skipped). */
void web_store_load(bool (*add)(WebGame *w));
cJSON *web_store_skipped(void); /* [{file, error}] */
/* The HTTP status for a failed write: 507 when the disk is full, else 500. */
int web_store_status(int err);

/* web_view.c */
cJSON *web_view_state(WebGame *w);
void web_view_moves(WebGame *w, cJSON *arr);
cJSON *web_view_entry(WebGame *w);
/* Adds "board" (squares, gates, hands, check) for a chess-like game. */
void web_view_board(cJSON *o, const Game *g);

/* web_worker.c: the engine. */
bool web_worker_start(WebGame *w, int level, int movetime_ms, WebError *e);
void web_worker_drop_copy(WebGame *w); /* frees the kept search of a freed game */
void web_worker_wake(void);            /* queued workers look at their cancel flag again */
/* No new workers from now; with wait, also waits until the running ones end. */
void web_worker_close(bool wait);
cJSON *web_worker_stats(void); /* tables in use and their bound */

#endif
