/* db.h - the web app's database: one small interface over SQLite (the embedded
 * default, one process) and PostgreSQL (one database for several `menagerie serve`
 * processes). A WebDb owns one connection and the mutex around it (the HTTP thread
 * pool and the engine workers share it), a dedicated second connection and thread
 * for PostgreSQL's LISTEN, and the in-process listeners. The store (games/store.c)
 * and the account tables (db/accounts.c) call it; it calls only the two libraries.
 *
 * SQL is written once with parameters $1, $2, ... (PostgreSQL's own; SQLite takes
 * them as names and binds by name). Values go in as WebDbArg (text, integer, blob,
 * NULL) and come out per row through a callback. Every call reports failure as a
 * message in a WebDbErr with its kind, never by crashing; a lost PostgreSQL
 * connection is reported and made again on the next call.
 *
 * Transactions: web_db_begin takes the connection for the calling thread until
 * web_db_commit or web_db_rollback (other threads wait); SQLite's is BEGIN
 * IMMEDIATE, in WAL mode with synchronous=FULL, so a commit that returns is on the
 * disk (NORMAL would keep WAL consistent but could lose the last commits on a power
 * cut, and a move is acknowledged only after its commit). */
#ifndef WEB_DB_H
#define WEB_DB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct WebDb WebDb;

typedef enum { WEB_DB_SQLITE, WEB_DB_POSTGRES } WebDbKind;

/* What went wrong, for the caller's HTTP status. */
typedef enum {
    WEB_DB_OK = 0,
    WEB_DB_ERROR,      /* anything else (500) */
    WEB_DB_FULL,       /* the disk or the database is full (507) */
    WEB_DB_CONSTRAINT, /* a unique key or check refused the row (409) */
    WEB_DB_LOST,       /* the server's connection went away (503; made again next call) */
} WebDbStatus;

typedef struct {
    WebDbStatus status;
    char msg[300];
} WebDbErr;

/* One parameter. */
typedef enum {
    WEB_DB_ARG_TEXT,
    WEB_DB_ARG_INT,
    WEB_DB_ARG_REAL,
    WEB_DB_ARG_BLOB,
    WEB_DB_ARG_NULL
} WebDbArgKind;
typedef struct {
    WebDbArgKind kind;
    const void *data; /* text (NUL-terminated) or blob */
    size_t len;       /* blob */
    int64_t i;
    double d;
} WebDbArg;
WebDbArg web_db_text(const char *s); /* NULL s: SQL NULL */
WebDbArg web_db_int(int64_t v);
WebDbArg web_db_real(double v);
WebDbArg web_db_blob(const void *p, size_t len);
WebDbArg web_db_null(void);

/* One row of a result, valid during the callback only. */
typedef struct WebDbRow WebDbRow;
int web_db_cols(const WebDbRow *r);
bool web_db_is_null(const WebDbRow *r, int col);
const char *web_db_col_text(const WebDbRow *r, int col); /* "" for NULL */
int64_t web_db_col_int(const WebDbRow *r, int col);      /* 0 for NULL or not a number */
double web_db_col_real(const WebDbRow *r, int col);
const unsigned char *web_db_col_blob(const WebDbRow *r, int col, size_t *len);
/* Called per row; false stops the query (not an error). */
typedef bool (*WebDbRowFn)(void *ctx, const WebDbRow *r);

/* Opens "sqlite:PATH", a bare PATH (SQLite), or "postgres://..." /
 * "postgresql://..." (libpq's URL); NULL with the reason in *e. */
WebDb *web_db_open(const char *url, WebDbErr *e);
void web_db_close(WebDb *db); /* stops the listener thread; NULL is fine */
WebDbKind web_db_kind(const WebDb *db);
const char *web_db_name(const WebDb *db); /* for messages: the path, or the URL without password */

/* Runs one statement; *changes (may be NULL) gets the rows it changed. */
bool web_db_exec(WebDb *db, const char *sql, const WebDbArg *args, int nargs, int64_t *changes,
                 WebDbErr *e);
/* Runs a query, row by row to fn (may be NULL). */
bool web_db_query(WebDb *db, const char *sql, const WebDbArg *args, int nargs, WebDbRowFn fn,
                  void *ctx, WebDbErr *e);
/* The first column of the first row as text into out; *found false when no row. */
bool web_db_value(WebDb *db, const char *sql, const WebDbArg *args, int nargs, char *out,
                  size_t outlen, bool *found, WebDbErr *e);

/* A transaction on the calling thread (it holds the connection until the end). */
bool web_db_begin(WebDb *db, WebDbErr *e);
bool web_db_commit(WebDb *db, WebDbErr *e); /* a failed commit has rolled back */
void web_db_rollback(WebDb *db);

/* The schema: an ordered list of steps, each SQL text per backend (several
 * statements allowed), applied once each, in its own transaction, numbered from 1
 * in schema_version. Steps are only ever added at the end. */
typedef struct {
    const char *sqlite, *postgres;
} WebDbStep;
bool web_db_migrate(WebDb *db, const WebDbStep *steps, int nsteps, WebDbErr *e);
int web_db_schema_version(WebDb *db); /* the highest step applied, -1 on error */

/* Change notification between processes: web_db_notify(game, version) after a
 * commit reaches every listener of every process on the database (PostgreSQL
 * NOTIFY on channel menagerie_games, delivered by the listener's own connection and
 * thread; SQLite: the listeners of this process, called at once). A process's own
 * notifications come back to it too. The callback runs on the listener's thread
 * (SQLite: the notifier's) holding no lock of the database's; game "" (PostgreSQL,
 * when the listening connection is made or made again) means that notifications
 * may have been missed. Up to 8 listeners, added before web_db_listen_stop. The
 * notifier must hold no lock that a listener takes. */
typedef void (*WebDbNotifyFn)(void *ctx, const char *game, int64_t version);
bool web_db_listen(WebDb *db, WebDbNotifyFn fn, void *ctx, WebDbErr *e);
void web_db_notify(WebDb *db, const char *game, int64_t version);
/* Stops the listener thread and forgets the listeners (web_db_close does too). */
void web_db_listen_stop(WebDb *db);

#endif
