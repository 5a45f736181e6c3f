/* game.h - the web game object and the small things every layer of the web app
 * shares (ids, errors, options). The web app's data flows one way, each file
 * calling only those below it:
 *
 *   server.c     HTTP (libmicrohttpd), static files; makes the one WebServer
 *   api.c        the JSON route table
 *   analysis.c   the engine's lines for any position of a game, on demand
 *   study.c      review positions, piece diagrams, the board editor's check, levels
 *   reply.c      the JSON replies
 *   games/play.c      the requests on one game (move, undo, resign, ...)
 *   games/registry.c  the list of games: ids, counted references, add, delete, open, close
 *   games/worker.c    the engine worker threads and the memory their tables take
 *   games/store.c     the games in the database: writing a game's row, reading them back
 *   db/db.c           the database (SQLite or PostgreSQL); db/accounts.c its accounts
 *   games/view.c      JSON views of a game (state, legal moves, list entry)
 *   games/game.c      this object: making, freeing, reading one game
 *   games/clock.c     a game's clock
 *
 * Nothing here is kept in file-level variables: the registry (with its store and
 * worker pool) and the analysis table are members of one WebServer, which web_main
 * makes and hands down.
 *
 * Locks: the registry lock may be held while taking a game's lock, and a game's lock
 * while taking the workers' lock (worker.c), never the other way round. A game's
 * reference count is atomic; the registry holds one reference while the game is
 * listed, each request and each worker thread one more.
 *
 * Saving: a change is made on the game under its lock, the new text exported, and
 * the game marked busy; the lock is dropped while its row is written (readers and
 * other games go on), then taken again. A failed write rolls the change back and
 * reaches the client as a 5xx (or 409) error, so the game in memory is never ahead
 * of its row. Another process's change reaches the registry as a notification, and
 * the game is read again under its lock.
 * Changes wait while a game is busy, so at most one write per game is under way. */
#ifndef WEB_GAME_H
#define WEB_GAME_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "app/web/games/clock.h"
#include "engine/engine.h"

#define WEB_ID_LEN 13 /* 12 hex digits and the NUL */
#define WEB_POS_LEN 1024
#define WEB_MAX_BODY (1 << 20)
#define WEB_MAX_GAMES 2000 /* games kept in memory (and loaded on start) */

/* New games' engine defaults: the engine's, as `menagerie play`'s. */
#define WEB_LEVEL ENGINE_DEFAULT_LEVEL
#define WEB_MOVETIME ENGINE_DEFAULT_MOVETIME_MS

/* Whether the LEN characters at S are a game id: exactly 12 lower-case hex digits. */
bool web_id_valid(const char *s, size_t len);
void web_id_make(char id[WEB_ID_LEN]); /* a random one */

/* A failed request: the HTTP status and a message for the JSON error. */
typedef struct {
    int status;
    char msg[200];
} WebError;
void web_set_err(WebError *e, int status, const char *msg); /* e may be NULL */

/* Who plays a side, and how the engine thinks. */
typedef enum { WEB_HUMAN = 0, WEB_ENGINE = 1 } WebPlayer;
const char *web_player_name(WebPlayer p);

typedef struct {
    WebPlayer player[2];
    int level;            /* 1..20 */
    int movetime_ms;      /* time per engine move (without a clock) */
    int clock_ms, inc_ms; /* a clock for each side: base and increment; 0 = none */
} WebOptions;

/* Seats, in a game between people over the network (WebGame.online): who may act
 * for a side. A seat is held by a browser session (its secret cookie: 256 bits from
 * the OS, of which the server keeps only a BLAKE2b hash) and, for a registered
 * player, by the account as well, so that the player's other sessions act too. */
#define WEB_HASH_LEN 32 /* bytes of a secret's hash */
#define WEB_NAME_LEN 32 /* a player's name, with its NUL */
typedef struct {
    bool held;
    unsigned char holder[WEB_HASH_LEN]; /* the holder's session secret, hashed */
    int64_t account;                    /* the holder's account id, 0 for a guest */
    char name[WEB_NAME_LEN];            /* shown on the page */
} WebSeat;

/* How an online game starts: its seats (the creator's held) and invitation. */
typedef struct {
    WebSeat seat[2];
    unsigned char invite[WEB_HASH_LEN];
    bool rated;
} WebOnline;

typedef struct WebGame {
    pthread_mutex_t lock;
    pthread_cond_t idle; /* broadcast when a worker or a write finishes */
    atomic_int refs;
    bool removed;
    bool busy; /* a write or removal of its row is under way (lock dropped meanwhile) */
    char id[WEB_ID_LEN];
    Game *g;
    GameInfo info;
    WebOptions opt;
    time_t created, updated;
    time_t seen;         /* last time a page asked for the state */
    unsigned version;    /* changes with every move, undo and result */
    atomic_llong stored; /* the version of its database row this copy is (0: none yet);
                          * written by its one writer (busy) or a reload */
    int plies;
    /* a result the rules do not give: resignation or agreed draw */
    ResultKind forced;
    char forced_reason[64];
    char before[WEB_POS_LEN]; /* mancala position before the last move ("" at the start) */
    /* the engine */
    bool thinking, queued;
    atomic_bool cancel;   /* drop the engine's move; read by queued workers unlocked */
    EngineSearch *search; /* the engine's: kept between moves for a few games */
    atomic_int *searches; /* the worker pool's count of kept searches (with search) */
    int think_side, think_ply;
    bool has_info;
    SearchInfo si;
    char pv_san[600];
    int info_side, info_ply;
    bool has_eval;
    int eval_score, eval_mate, eval_depth; /* first player's view */
    bool eval_exact;
    char engine_error[200];
    WebClock clock; /* base 0 = no clock */
    /* between people over the network: only a seat's holder acts for its side */
    bool online;
    bool rated; /* both seats held by accounts, rated on its end */
    WebSeat seat[2];
    unsigned char invite[WEB_HASH_LEN]; /* the join link's token for a free seat, hashed;
                                         * all zero: open to anyone (a lobby seek) */
    int draw_offer, takeback_offer;     /* the side offering, -1 none */
    bool aborted;  /* ended before it began: no result (saved as Termination "abandoned") */
    int first_ply; /* the plies played when it was made (set-up placements): it begins
                    * once each side has moved after them */
} WebGame;

/* Who asks for a change. In an online game only a seat's holder acts, and only for
 * its side; a local game (two people at one screen, or against the engine) takes
 * every change from whoever can reach it, as before. */
typedef struct {
    bool known;                         /* the request came with a session */
    unsigned char holder[WEB_HASH_LEN]; /* its secret, hashed */
    int64_t account;                    /* the session's account (logged in), 0 a guest */
    char name[WEB_NAME_LEN];            /* the account's name ("" for a guest) */
} WebActor;

/* The side whose seat the actor holds in w (by session, or by account when both
 * are logged in), or -1 (a spectator; lock held). */
int web_seat_of(const WebGame *w, const WebActor *a);
/* Whether both seats are held: an online game starts then (lock held). */
bool web_seats_full(const WebGame *w);

/* Online games that nobody starts end by themselves (as on lichess): an invitation
 * nobody takes within WEB_INVITE_DAYS, a game whose first moves wait WEB_FIRST_MOVE_S
 * after both seats are held. A player who leaves a game on their move may be claimed
 * against once gone WEB_GONE_S. */
#define WEB_INVITE_DAYS 7
#define WEB_FIRST_MOVE_S 60
#define WEB_GONE_S 30

/* A game of g (ownership passes) with one reference, not listed anywhere. */
WebGame *web_game_new(Game *g, const WebOptions *opt);
void web_game_free(WebGame *w);
void web_game_put(WebGame *w); /* drops a reference: the last frees it */
/* Frees the kept search (lock held, or the game no longer shared). */
void web_game_drop_search(WebGame *w);

/* On one game, its lock held. */
GameResult web_result_of(WebGame *w);
bool web_is_over(WebGame *w);
/* A person plays the engine, or people play online, and the game is not over: the
 * engine's lines are nobody's help then (no planned line in the state, no analysis). */
bool web_against_engine(WebGame *w);
/* Whether the side to move's clock runs: a clock, the game on, and online both
 * seats held and each side's first move made (as on lichess). */
bool web_clock_runs(WebGame *w);
bool web_started(const WebGame *w); /* online: each side has made its first move */
void web_refresh_before(WebGame *w);
const char *web_result_token(ResultKind k); /* "*", "1-0", "0-1", "1/2-1/2" */
/* The moves played, as coordinate text or SAN (malloc'd); *n gets the count. */
char (*web_history(Game *g, bool san, int *n))[ENGINE_MOVE_TEXT];

#endif
