/* store.h - where the web app keeps its games: one row per game in the database
 * (db/db.h; SQLite DIR/menagerie.db by default, or PostgreSQL shared by several
 * processes), written whole in one transaction after every change and read back at
 * start. The row holds the game's export text (PGN, or SGN for the mancala: what a
 * download gives) and, in columns and the seats table, what the site needs beside
 * it (version, times, result, the online game's seats and invitation). A WebStore is
 * the data folder's name, the open database, and what the start could not read;
 * below it are only the database, the game object and its clock. Loading hands each
 * game up through a callback, so the store needs nothing of the registry.
 *
 * Versions: a row's version rises by one with every saved change; WebGame.stored
 * is the version the game in memory was read or saved as. A write from a copy that
 * another process overtook (the row's version moved on) is refused with 409, never
 * written over. After each commit the store calls web_db_notify(id, version) with no
 * lock held; a deleted game is announced with version -1 by its deleter.
 *
 * Upgrade: at open, game files of the old data folder (DIR/ID.pgn, DIR/ID.sgn) not
 * in the database yet are imported and moved into DIR/imported/; those that cannot
 * be read stay where they are and are listed (web_store_skipped). */
#ifndef WEB_STORE_H
#define WEB_STORE_H

#include "app/web/db/db.h"
#include "app/web/games/game.h"

#define WEB_STORE_SKIPPED 64

/* A rated game's end, as the rating hook sees it. */
typedef struct {
    const char *id, *variant;
    int64_t account[2]; /* the two seats' accounts */
    double score;       /* the first side's: 1, 0.5 or 0 */
    int64_t at;         /* when it ended */
} WebRatedEnd;

typedef struct {
    char dir[2048];
    WebDb *db;
    /* files or rows found at start but not loaded (written by web_store_open and
     * web_store_load only, before any other thread runs) */
    struct {
        char file[64];
        char error[200];
    } skipped[WEB_STORE_SKIPPED];
    int nskipped;
    /* told of every change that those watching a game see, after its commit (and of
     * the changes not saved, such as a draw offer), the game's lock held; NULL: none */
    void (*changed)(void *ctx, WebGame *w);
    void *changed_ctx;
    /* called inside the transaction of the write that ends a rated game with a
     * result (not aborted), once per game (the row's rated_done is set in the same
     * transaction), to move the players' ratings; false rolls the write back. NULL:
     * rated games change no rating. */
    bool (*rated_end)(void *ctx, WebDb *db, const WebRatedEnd *end, WebDbErr *e);
    void *rated_ctx;
} WebStore;

/* Makes and checks the folder DIR, opens the database (db_url NULL or "":
 * DIR/menagerie.db), applies the schema and imports the old folder's files; false
 * with the reason in err. */
bool web_store_open(WebStore *st, const char *dir, const char *db_url, char *err, size_t errlen);
void web_store_close(WebStore *st);
char *web_store_text(WebGame *w); /* the export text (malloc'd), NULL when too long */
/* Saves w after a change (lock held on entry and on return, dropped meanwhile);
 * false with the error in *e: 5xx when the database could not take it (507: full),
 * 409 when another process changed the game first, 404 when it deleted it. */
bool web_store_commit(const WebStore *st, WebGame *w, WebError *e);
/* Deletes w's row (no lock needed: the caller made w busy). */
bool web_store_remove(const WebStore *st, const char *id, WebError *e);
/* Reads the saved games, calling add(ctx, w) for each (false: not taken, w is
 * freed); a row that cannot be read is remembered with its reason. */
void web_store_load(WebStore *st, bool (*add)(void *ctx, WebGame *w), void *ctx);
/* The game saved under id, made afresh (not listed); NULL with 404 in *e when there
 * is no such row, or another error. */
WebGame *web_store_read(const WebStore *st, const char *id, WebError *e);
/* Brings w (lock held, no engine and no write under way) up to its row when the row
 * is newer: 1 when it changed, 0 when it was up to date, -1 with *e on error (404:
 * the row is gone). */
int web_store_reload(const WebStore *st, WebGame *w, WebError *e);
/* Several processes on one database: brings w (lock held, no engine and no write
 * under way) up to its row when another process saved a change that its
 * notification has not brought yet, so that a request sees what that process
 * acknowledged. One cheap query; nothing with SQLite. False when it could not look. */
bool web_store_refresh(const WebStore *st, WebGame *w);
/* Every row's id and version to fn (to catch up after missed notifications). */
bool web_store_versions(const WebStore *st, void (*fn)(void *ctx, const char *id, int64_t version),
                        void *ctx);
cJSON *web_store_skipped(const WebStore *st); /* [{file, error}] */

#endif
