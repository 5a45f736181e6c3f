/* store.h - the web app's data folder: one file per game, written whole after every
 * change and read back at start (the format and the write's steps: store.c). A
 * WebStore is the folder's name and what the start could not read; below it are only
 * the game object and its clock. Loading hands each game up through a callback, so
 * the store needs nothing of the registry that lists them. */
#ifndef WEB_STORE_H
#define WEB_STORE_H

#include "app/web/games/game.h"

#define WEB_STORE_SKIPPED 64

typedef struct {
    char dir[2048];
    /* files found at start but not loaded (written by web_store_load only, before
     * any other thread runs) */
    struct {
        char file[64];
        char error[200];
    } skipped[WEB_STORE_SKIPPED];
    int nskipped;
    /* told of every change that those watching a game see, after its commit (and of
     * the changes not saved, such as a draw offer), the game's lock held; NULL: none */
    void (*changed)(void *ctx, WebGame *w);
    void *changed_ctx;
} WebStore;

bool web_store_open(WebStore *st, const char *dir, char *err,
                    size_t errlen); /* makes, checks, cleans */
char *web_store_text(WebGame *w);   /* the file's text (malloc'd), NULL when too long */
/* Writes text as w's file (temporary file, fsync, rename, fsync of the folder);
 * false with errno's message in err. No lock needed: only the writer touches it. */
bool web_store_write(const WebStore *st, const char *id, GameKind kind, const char *text, char *err,
                     size_t errlen);
bool web_store_remove(const WebStore *st, const char *id, GameKind kind, char *err, size_t errlen);
/* Saves w after a change (lock held on entry and on return, dropped meanwhile);
 * false with a 5xx in *e when the file could not be written. */
bool web_store_commit(const WebStore *st, WebGame *w, WebError *e);
void web_store_changed(const WebStore *st, WebGame *w); /* tells st->changed (lock held) */
/* Reads the saved games, calling add(ctx, w) for each (false: not taken, w is
 * freed); a file that cannot be read is remembered with its reason. */
void web_store_load(WebStore *st, bool (*add)(void *ctx, WebGame *w), void *ctx);
cJSON *web_store_skipped(const WebStore *st); /* [{file, error}] */
/* The HTTP status for a failed write: 507 when the disk is full, else 500. */
int web_store_status(int err);

#endif
