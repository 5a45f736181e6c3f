/* db.c - the web app's database over SQLite and PostgreSQL (db.h).
 *
 * One connection per WebDb behind a recursive mutex: every call takes it, and a
 * transaction keeps it from web_db_begin to its end, so the calls a transaction
 * makes on its thread go through and other threads wait. The two backends differ
 * only inside the small run_* functions and the listener. */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libpq-fe.h>
#include <sqlite3.h>

#include "app/web/db/db.h"

#define MAX_LISTENERS 8
#define MAX_ARGS 32
#define MAX_COLS 64
#define CHANNEL "menagerie_games"
#define BUSY_MS 5000 /* how long SQLite waits for another process's write */

struct WebDb {
    WebDbKind kind;
    pthread_mutex_t lock; /* recursive: the connection and the fields below */
    char name[600];
    char *url;     /* PostgreSQL's, for the listener's connection */
    sqlite3 *lite; /* SQLite */
    PGconn *pg;    /* PostgreSQL */
    bool in_tx;    /* a transaction is open */
    bool tx_lost;  /* PostgreSQL: the connection went away inside it */
    /* listeners, and PostgreSQL's listening connection and thread */
    pthread_mutex_t listen_lock;
    struct {
        WebDbNotifyFn fn;
        void *ctx;
    } listeners[MAX_LISTENERS];
    int nlisteners;
    bool thread_started;
    pthread_t thread;
    int stop[2]; /* a pipe: written to stop the thread */
};

struct WebDbRow {
    sqlite3_stmt *st;
    PGresult *res;
    int row;
    unsigned char *bytea[MAX_COLS]; /* PostgreSQL: decoded on first use */
    size_t bytea_len[MAX_COLS];
};

/* ---- values ---- */

WebDbArg web_db_text(const char *s) {
    WebDbArg a = {s ? WEB_DB_ARG_TEXT : WEB_DB_ARG_NULL, s, 0, 0, 0};
    return a;
}

WebDbArg web_db_int(int64_t v) {
    WebDbArg a = {WEB_DB_ARG_INT, NULL, 0, v, 0};
    return a;
}

WebDbArg web_db_real(double v) {
    WebDbArg a = {WEB_DB_ARG_REAL, NULL, 0, 0, v};
    return a;
}

WebDbArg web_db_blob(const void *p, size_t len) {
    WebDbArg a = {WEB_DB_ARG_BLOB, p, len, 0, 0};
    return a;
}

WebDbArg web_db_null(void) {
    WebDbArg a = {WEB_DB_ARG_NULL, NULL, 0, 0, 0};
    return a;
}

int web_db_cols(const WebDbRow *r) {
    return r->st ? sqlite3_column_count(r->st) : PQnfields(r->res);
}

static bool col_ok(const WebDbRow *r, int col) {
    return col >= 0 && col < web_db_cols(r) && col < MAX_COLS;
}

bool web_db_is_null(const WebDbRow *r, int col) {
    if (!col_ok(r, col))
        return true;
    return r->st ? sqlite3_column_type(r->st, col) == SQLITE_NULL
                 : PQgetisnull(r->res, r->row, col) != 0;
}

const char *web_db_col_text(const WebDbRow *r, int col) {
    if (web_db_is_null(r, col))
        return "";
    if (r->st) {
        const unsigned char *t = sqlite3_column_text(r->st, col);
        return t ? (const char *)t : "";
    }
    return PQgetvalue(r->res, r->row, col);
}

int64_t web_db_col_int(const WebDbRow *r, int col) {
    if (web_db_is_null(r, col))
        return 0;
    if (r->st)
        return sqlite3_column_int64(r->st, col);
    return strtoll(PQgetvalue(r->res, r->row, col), NULL, 10);
}

double web_db_col_real(const WebDbRow *r, int col) {
    if (web_db_is_null(r, col))
        return 0;
    if (r->st)
        return sqlite3_column_double(r->st, col);
    return strtod(PQgetvalue(r->res, r->row, col), NULL);
}

const unsigned char *web_db_col_blob(const WebDbRow *r, int col, size_t *len) {
    *len = 0;
    if (web_db_is_null(r, col))
        return NULL;
    if (r->st) {
        const unsigned char *p = sqlite3_column_blob(r->st, col);
        *len = (size_t)sqlite3_column_bytes(r->st, col);
        return p;
    }
    WebDbRow *m = (WebDbRow *)r; /* the decoded copy is a cache of the row's */
    if (!m->bytea[col])
        m->bytea[col] = PQunescapeBytea((const unsigned char *)PQgetvalue(r->res, r->row, col),
                                        &m->bytea_len[col]);
    *len = m->bytea[col] ? m->bytea_len[col] : 0;
    return m->bytea[col];
}

/* ---- errors ---- */

static bool set_err(WebDbErr *e, WebDbStatus status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static bool set_err(WebDbErr *e, WebDbStatus status, const char *fmt, ...) {
    if (!e)
        return false;
    e->status = status;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    size_t n = strlen(e->msg); /* libpq's messages end in a newline */
    while (n > 0 && (e->msg[n - 1] == '\n' || e->msg[n - 1] == ' '))
        e->msg[--n] = 0;
    return false;
}

static void clear_err(WebDbErr *e) {
    if (e)
        e->status = WEB_DB_OK, e->msg[0] = 0;
}

static bool lite_err(WebDb *db, WebDbErr *e, int rc) {
    int base = rc & 0xff, sys = sqlite3_system_errno(db->lite);
    WebDbStatus s = base == SQLITE_FULL || sys == ENOSPC || sys == EDQUOT ? WEB_DB_FULL
                    : base == SQLITE_CONSTRAINT                           ? WEB_DB_CONSTRAINT
                                                                          : WEB_DB_ERROR;
    if (sys && (base == SQLITE_IOERR || base == SQLITE_FULL || base == SQLITE_CANTOPEN ||
                base == SQLITE_READONLY))
        return set_err(e, s, "%s (%s)", sqlite3_errmsg(db->lite), strerror(sys));
    return set_err(e, s, "%s", sqlite3_errmsg(db->lite));
}

/* ---- PostgreSQL's connection ---- */

static void pg_name(WebDb *db) {
    const char *host = PQhost(db->pg), *port = PQport(db->pg);
    snprintf(db->name, sizeof db->name, "postgres://%s@%s%s%s/%s", PQuser(db->pg),
             host && host[0] != '/' ? host : "localhost", port && port[0] ? ":" : "",
             port ? port : "", PQdb(db->pg));
}

/* The connection, made again if it was lost (lock held). */
static bool pg_ready(WebDb *db, WebDbErr *e) {
    if (PQstatus(db->pg) == CONNECTION_OK)
        return true;
    if (db->in_tx) {
        db->tx_lost = true;
        return set_err(e, WEB_DB_LOST, "the database connection was lost during a transaction");
    }
    PQreset(db->pg);
    if (PQstatus(db->pg) == CONNECTION_OK)
        return true;
    return set_err(e, WEB_DB_LOST, "cannot reach the database: %s", PQerrorMessage(db->pg));
}

static bool pg_result_err(WebDb *db, PGresult *res, WebDbErr *e) {
    if (PQstatus(db->pg) != CONNECTION_OK) {
        if (db->in_tx)
            db->tx_lost = true;
        return set_err(e, WEB_DB_LOST, "the database connection was lost: %s",
                       PQerrorMessage(db->pg));
    }
    const char *state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
    WebDbStatus s = state && !strncmp(state, "23", 2)  ? WEB_DB_CONSTRAINT
                    : state && !strcmp(state, "53100") ? WEB_DB_FULL
                                                       : WEB_DB_ERROR;
    return set_err(e, s, "%s", res ? PQresultErrorMessage(res) : PQerrorMessage(db->pg));
}

/* ---- opening ---- */

static WebDb *db_new(WebDbKind kind) {
    WebDb *db = calloc(1, sizeof *db);
    if (!db)
        abort();
    db->kind = kind;
    pthread_mutexattr_t at;
    pthread_mutexattr_init(&at);
    pthread_mutexattr_settype(&at, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&db->lock, &at);
    pthread_mutexattr_destroy(&at);
    pthread_mutex_init(&db->listen_lock, NULL);
    db->stop[0] = db->stop[1] = -1;
    return db;
}

static WebDb *open_sqlite(const char *path, WebDbErr *e) {
    WebDb *db = db_new(WEB_DB_SQLITE);
    snprintf(db->name, sizeof db->name, "%s", path);
    int rc = sqlite3_open_v2(
        path, &db->lite, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL);
    if (rc != SQLITE_OK) {
        if (db->lite)
            lite_err(db, e, rc);
        else
            set_err(e, WEB_DB_ERROR, "out of memory");
        set_err(e, e ? e->status : WEB_DB_ERROR, "cannot open the database %s: %s", path,
                e ? e->msg : "");
        web_db_close(db);
        return NULL;
    }
    sqlite3_extended_result_codes(db->lite, 1);
    sqlite3_busy_timeout(db->lite, BUSY_MS);
    // Step 1. WAL (readers do not wait for the writer), and every commit on the disk.
    char mode[16] = "";
    bool found = false;
    WebDbErr pe;
    if (!web_db_value(db, "PRAGMA journal_mode=WAL", NULL, 0, mode, sizeof mode, &found, &pe) ||
        strcmp(mode, "wal") != 0) {
        set_err(e, pe.status ? pe.status : WEB_DB_ERROR,
                "cannot use the database %s in WAL mode: %s", path, pe.status ? pe.msg : mode);
        web_db_close(db);
        return NULL;
    }
    if (!web_db_exec(db, "PRAGMA synchronous=FULL", NULL, 0, NULL, &pe) ||
        !web_db_exec(db, "PRAGMA foreign_keys=ON", NULL, 0, NULL, &pe)) {
        set_err(e, pe.status, "cannot set up the database %s: %s", path, pe.msg);
        web_db_close(db);
        return NULL;
    }
    return db;
}

static WebDb *open_postgres(const char *url, WebDbErr *e) {
    WebDb *db = db_new(WEB_DB_POSTGRES);
    db->url = strdup(url);
    if (!db->url)
        abort();
    db->pg = PQconnectdb(url);
    if (!db->pg || PQstatus(db->pg) != CONNECTION_OK) {
        set_err(e, WEB_DB_LOST, "cannot connect to the database: %s",
                db->pg ? PQerrorMessage(db->pg) : "out of memory");
        web_db_close(db);
        return NULL;
    }
    pg_name(db);
    PGresult *res = PQexec(db->pg, "SET client_min_messages TO warning");
    PQclear(res);
    return db;
}

WebDb *web_db_open(const char *url, WebDbErr *e) {
    clear_err(e);
    if (!url || !url[0]) {
        set_err(e, WEB_DB_ERROR, "no database named");
        return NULL;
    }
    if (!strncmp(url, "postgres://", 11) || !strncmp(url, "postgresql://", 13))
        return open_postgres(url, e);
    if (!strncmp(url, "sqlite:", 7))
        url += 7;
    if (!url[0]) {
        set_err(e, WEB_DB_ERROR, "no database file named after sqlite:");
        return NULL;
    }
    return open_sqlite(url, e);
}

void web_db_listen_stop(WebDb *db) {
    if (!db)
        return;
    if (db->thread_started) {
        ssize_t n = write(db->stop[1], "x", 1);
        (void)n;
        pthread_join(db->thread, NULL);
        db->thread_started = false;
    }
    for (int i = 0; i < 2; i++)
        if (db->stop[i] >= 0)
            close(db->stop[i]), db->stop[i] = -1;
    pthread_mutex_lock(&db->listen_lock);
    db->nlisteners = 0;
    pthread_mutex_unlock(&db->listen_lock);
}

void web_db_close(WebDb *db) {
    if (!db)
        return;
    web_db_listen_stop(db);
    if (db->lite)
        sqlite3_close_v2(db->lite);
    if (db->pg)
        PQfinish(db->pg);
    free(db->url);
    pthread_mutex_destroy(&db->lock);
    pthread_mutex_destroy(&db->listen_lock);
    free(db);
}

WebDbKind web_db_kind(const WebDb *db) {
    return db->kind;
}

const char *web_db_name(const WebDb *db) {
    return db->name;
}

/* ---- statements ---- */

/* SQLite: the statement with its parameters bound by name ($1 ...). */
static sqlite3_stmt *lite_prepare(WebDb *db, const char *sql, const WebDbArg *args, int nargs,
                                  WebDbErr *e) {
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db->lite, sql, -1, &st, NULL);
    if (rc != SQLITE_OK) {
        lite_err(db, e, rc);
        sqlite3_finalize(st);
        return NULL;
    }
    if (!st) {
        set_err(e, WEB_DB_ERROR, "empty statement");
        return NULL;
    }
    for (int i = 0; i < nargs; i++) {
        char name[16];
        snprintf(name, sizeof name, "$%d", i + 1);
        int idx = sqlite3_bind_parameter_index(st, name);
        if (idx == 0)
            continue; /* not used by this statement */
        const WebDbArg *a = &args[i];
        rc = a->kind == WEB_DB_ARG_TEXT   ? sqlite3_bind_text(st, idx, a->data, -1, SQLITE_STATIC)
             : a->kind == WEB_DB_ARG_INT  ? sqlite3_bind_int64(st, idx, a->i)
             : a->kind == WEB_DB_ARG_REAL ? sqlite3_bind_double(st, idx, a->d)
             : a->kind == WEB_DB_ARG_BLOB
                 ? sqlite3_bind_blob64(st, idx, a->len ? a->data : "", a->len, SQLITE_STATIC)
                 : sqlite3_bind_null(st, idx);
        if (rc != SQLITE_OK) {
            lite_err(db, e, rc);
            sqlite3_finalize(st);
            return NULL;
        }
    }
    return st;
}

static bool lite_run(WebDb *db, const char *sql, const WebDbArg *args, int nargs, WebDbRowFn fn,
                     void *ctx, int64_t *changes, WebDbErr *e) {
    sqlite3_stmt *st = lite_prepare(db, sql, args, nargs, e);
    if (!st)
        return false;
    WebDbRow row = {.st = st};
    int rc;
    bool more = true;
    while (more && (rc = sqlite3_step(st)) == SQLITE_ROW)
        more = !fn || fn(ctx, &row);
    if (more && rc != SQLITE_DONE) {
        lite_err(db, e, rc);
        sqlite3_finalize(st);
        return false;
    }
    if (changes)
        *changes = sqlite3_changes64(db->lite);
    sqlite3_finalize(st);
    return true;
}

static bool pg_run(WebDb *db, const char *sql, const WebDbArg *args, int nargs, WebDbRowFn fn,
                   void *ctx, int64_t *changes, WebDbErr *e) {
    if (nargs > MAX_ARGS)
        return set_err(e, WEB_DB_ERROR, "too many parameters");
    if (!pg_ready(db, e))
        return false;
    const char *vals[MAX_ARGS];
    int lens[MAX_ARGS], fmts[MAX_ARGS];
    char nums[MAX_ARGS][24];
    for (int i = 0; i < nargs; i++) {
        const WebDbArg *a = &args[i];
        lens[i] = 0, fmts[i] = 0, vals[i] = NULL;
        if (a->kind == WEB_DB_ARG_TEXT) {
            vals[i] = a->data;
        } else if (a->kind == WEB_DB_ARG_INT) {
            snprintf(nums[i], sizeof nums[i], "%" PRId64, a->i);
            vals[i] = nums[i];
        } else if (a->kind == WEB_DB_ARG_REAL) {
            snprintf(nums[i], sizeof nums[i], "%.17g", a->d);
            vals[i] = nums[i];
        } else if (a->kind == WEB_DB_ARG_BLOB) {
            vals[i] = a->len ? a->data : "", lens[i] = (int)a->len, fmts[i] = 1;
        }
    }
    PGresult *res = PQexecParams(db->pg, sql, nargs, NULL, vals, lens, fmts, 0);
    ExecStatusType s = res ? PQresultStatus(res) : PGRES_FATAL_ERROR;
    if (s != PGRES_COMMAND_OK && s != PGRES_TUPLES_OK) {
        pg_result_err(db, res, e);
        PQclear(res);
        return false;
    }
    if (PQnfields(res) > MAX_COLS) {
        PQclear(res);
        return set_err(e, WEB_DB_ERROR, "too many columns");
    }
    bool more = true;
    for (int r = 0; more && fn && r < PQntuples(res); r++) {
        WebDbRow row = {.res = res, .row = r};
        more = fn(ctx, &row);
        for (int c = 0; c < MAX_COLS; c++)
            if (row.bytea[c])
                PQfreemem(row.bytea[c]);
    }
    if (changes)
        *changes = strtoll(PQcmdTuples(res), NULL, 10);
    PQclear(res);
    return true;
}

static bool run(WebDb *db, const char *sql, const WebDbArg *args, int nargs, WebDbRowFn fn,
                void *ctx, int64_t *changes, WebDbErr *e) {
    clear_err(e);
    if (nargs < 0 || (nargs > 0 && !args))
        return set_err(e, WEB_DB_ERROR, "bad parameters");
    pthread_mutex_lock(&db->lock);
    bool ok;
    if (db->tx_lost)
        ok = set_err(e, WEB_DB_LOST, "the database connection was lost during a transaction");
    else if (db->kind == WEB_DB_SQLITE)
        ok = lite_run(db, sql, args, nargs, fn, ctx, changes, e);
    else
        ok = pg_run(db, sql, args, nargs, fn, ctx, changes, e);
    pthread_mutex_unlock(&db->lock);
    return ok;
}

bool web_db_exec(WebDb *db, const char *sql, const WebDbArg *args, int nargs, int64_t *changes,
                 WebDbErr *e) {
    return run(db, sql, args, nargs, NULL, NULL, changes, e);
}

bool web_db_query(WebDb *db, const char *sql, const WebDbArg *args, int nargs, WebDbRowFn fn,
                  void *ctx, WebDbErr *e) {
    return run(db, sql, args, nargs, fn, ctx, NULL, e);
}

typedef struct {
    char *out;
    size_t len;
    bool found;
} Value;

static bool take_value(void *ctx, const WebDbRow *r) {
    Value *v = ctx;
    v->found = true;
    snprintf(v->out, v->len, "%s", web_db_col_text(r, 0));
    return false;
}

bool web_db_value(WebDb *db, const char *sql, const WebDbArg *args, int nargs, char *out,
                  size_t outlen, bool *found, WebDbErr *e) {
    Value v = {out, outlen, false};
    if (outlen)
        out[0] = 0;
    bool ok = run(db, sql, args, nargs, take_value, &v, NULL, e);
    if (found)
        *found = v.found;
    return ok;
}

/* Several statements without parameters (a migration step). */
static bool run_script(WebDb *db, const char *sql, WebDbErr *e) {
    clear_err(e);
    pthread_mutex_lock(&db->lock);
    bool ok = true;
    if (db->kind == WEB_DB_SQLITE) {
        char *msg = NULL;
        int rc = sqlite3_exec(db->lite, sql, NULL, NULL, &msg);
        if (rc != SQLITE_OK)
            ok = set_err(e, WEB_DB_ERROR, "%s", msg ? msg : sqlite3_errmsg(db->lite));
        sqlite3_free(msg);
    } else if ((ok = pg_ready(db, e))) {
        PGresult *res = PQexec(db->pg, sql);
        ExecStatusType s = res ? PQresultStatus(res) : PGRES_FATAL_ERROR;
        if (s != PGRES_COMMAND_OK && s != PGRES_TUPLES_OK)
            ok = pg_result_err(db, res, e);
        PQclear(res);
    }
    pthread_mutex_unlock(&db->lock);
    return ok;
}

/* ---- transactions ---- */

bool web_db_begin(WebDb *db, WebDbErr *e) {
    pthread_mutex_lock(&db->lock);
    if (db->in_tx) {
        pthread_mutex_unlock(&db->lock);
        return set_err(e, WEB_DB_ERROR, "a transaction is open already");
    }
    const char *begin = db->kind == WEB_DB_SQLITE ? "BEGIN IMMEDIATE" : "BEGIN";
    bool ok = run(db, begin, NULL, 0, NULL, NULL, NULL, e);
    if (!ok && e && e->status == WEB_DB_LOST) /* nothing was done: once more, connected again */
        ok = run(db, begin, NULL, 0, NULL, NULL, NULL, e);
    if (!ok) {
        pthread_mutex_unlock(&db->lock);
        return false;
    }
    db->in_tx = true;
    db->tx_lost = false;
    return true; /* the lock stays taken until the end */
}

static void end_tx(WebDb *db) {
    db->in_tx = false;
    db->tx_lost = false;
    pthread_mutex_unlock(&db->lock);
}

bool web_db_commit(WebDb *db, WebDbErr *e) {
    bool ok = run(db, "COMMIT", NULL, 0, NULL, NULL, NULL, e);
    if (!ok && db->kind == WEB_DB_SQLITE && !sqlite3_get_autocommit(db->lite))
        run(db, "ROLLBACK", NULL, 0, NULL, NULL, NULL, NULL);
    if (!ok && db->kind == WEB_DB_POSTGRES && PQstatus(db->pg) == CONNECTION_OK &&
        PQtransactionStatus(db->pg) != PQTRANS_IDLE)
        run(db, "ROLLBACK", NULL, 0, NULL, NULL, NULL, NULL);
    end_tx(db);
    return ok;
}

void web_db_rollback(WebDb *db) {
    if (!db->tx_lost && (db->kind != WEB_DB_SQLITE || !sqlite3_get_autocommit(db->lite)))
        run(db, "ROLLBACK", NULL, 0, NULL, NULL, NULL, NULL);
    end_tx(db);
}

/* ---- the schema ---- */

static const char *step_sql(const WebDb *db, const WebDbStep *s) {
    return db->kind == WEB_DB_SQLITE ? s->sqlite : s->postgres;
}

/* Serialises migrations of several processes (inside a transaction). */
static bool migration_lock(WebDb *db, WebDbErr *e) {
    return db->kind == WEB_DB_SQLITE ||
           web_db_exec(db, "SELECT pg_advisory_xact_lock(7316872)", NULL, 0, NULL, e);
}

bool web_db_migrate(WebDb *db, const WebDbStep *steps, int nsteps, WebDbErr *e) {
    // Step 1. The table of applied steps.
    if (!web_db_begin(db, e))
        return false;
    if (!migration_lock(db, e) ||
        !web_db_exec(db,
                     "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, "
                     "applied BIGINT NOT NULL)",
                     NULL, 0, NULL, e)) {
        web_db_rollback(db);
        return false;
    }
    if (!web_db_commit(db, e))
        return false;
    // Step 2. Each step not applied yet, in its own transaction with its number.
    for (int i = 0; i < nsteps; i++) {
        WebDbArg arg[2] = {web_db_int(i + 1), web_db_int((int64_t)time(NULL))};
        bool found = false;
        char v[32];
        if (!web_db_begin(db, e))
            return false;
        bool ok = migration_lock(db, e) &&
                  web_db_value(db, "SELECT version FROM schema_version WHERE version = $1", arg, 1,
                               v, sizeof v, &found, e);
        if (ok && !found) {
            ok = run_script(db, step_sql(db, &steps[i]), e) &&
                 web_db_exec(db, "INSERT INTO schema_version (version, applied) VALUES ($1, $2)",
                             arg, 2, NULL, e);
            if (!ok)
                set_err(e, e->status, "schema step %d: %s", i + 1, e->msg);
        }
        if (!ok) {
            web_db_rollback(db);
            return false;
        }
        if (!web_db_commit(db, e))
            return false;
    }
    return true;
}

int web_db_schema_version(WebDb *db) {
    char v[32];
    bool found;
    WebDbErr e;
    if (!web_db_value(db, "SELECT COALESCE(MAX(version), 0) FROM schema_version", NULL, 0, v,
                      sizeof v, &found, &e) ||
        !found)
        return -1;
    return atoi(v);
}

/* ---- change notification ---- */

static void deliver(WebDb *db, const char *game, int64_t version) {
    pthread_mutex_lock(&db->listen_lock);
    int n = db->nlisteners;
    pthread_mutex_unlock(&db->listen_lock);
    for (int i = 0; i < n; i++) /* entries below n never change */
        db->listeners[i].fn(db->listeners[i].ctx, game, version);
}

/* "ID VERSION" */
static void deliver_payload(WebDb *db, const char *payload) {
    char game[64];
    long long version;
    if (sscanf(payload, "%63s %lld", game, &version) == 2)
        deliver(db, game, version);
}

static PGconn *listen_connect(WebDb *db) {
    PGconn *c = PQconnectdb(db->url);
    if (PQstatus(c) == CONNECTION_OK) {
        PGresult *res = PQexec(c, "LISTEN " CHANNEL);
        bool ok = res && PQresultStatus(res) == PGRES_COMMAND_OK;
        PQclear(res);
        if (ok)
            return c;
    }
    fprintf(stderr, "menagerie serve: the database's listener: %s", PQerrorMessage(c));
    PQfinish(c);
    return NULL;
}

static void *listen_main(void *arg) {
    WebDb *db = arg;
    PGconn *c = NULL;
    for (;;) {
        // Step 1. A listening connection; before it (at start, or while it was
        // lost) changes may have been missed: the listeners hear "" (look at all).
        if (!c) {
            c = listen_connect(db);
            if (c)
                deliver(db, "", 0);
        }
        struct pollfd p[2] = {{db->stop[0], POLLIN, 0}, {c ? PQsocket(c) : -1, POLLIN, 0}};
        int n = poll(p, c ? 2 : 1, c ? -1 : 1000);
        if (n < 0 && errno != EINTR)
            break;
        if (p[0].revents)
            break;
        if (!c || !(p[1].revents & (POLLIN | POLLHUP | POLLERR)))
            continue;
        // Step 2. What came in; a broken connection is made again.
        if (!PQconsumeInput(c) || PQstatus(c) != CONNECTION_OK) {
            fprintf(stderr, "menagerie serve: the database's listener lost its connection: %s",
                    PQerrorMessage(c));
            PQfinish(c);
            c = NULL;
            continue;
        }
        PGnotify *nt;
        while ((nt = PQnotifies(c))) {
            deliver_payload(db, nt->extra);
            PQfreemem(nt);
        }
    }
    PQfinish(c);
    return NULL;
}

bool web_db_listen(WebDb *db, WebDbNotifyFn fn, void *ctx, WebDbErr *e) {
    clear_err(e);
    pthread_mutex_lock(&db->listen_lock);
    if (db->nlisteners == MAX_LISTENERS) {
        pthread_mutex_unlock(&db->listen_lock);
        return set_err(e, WEB_DB_ERROR, "too many listeners");
    }
    db->listeners[db->nlisteners].fn = fn;
    db->listeners[db->nlisteners].ctx = ctx;
    db->nlisteners++;
    bool ok = true;
    if (db->kind == WEB_DB_POSTGRES && !db->thread_started) {
        if (pipe(db->stop) != 0) {
            ok = set_err(e, WEB_DB_ERROR, "pipe: %s", strerror(errno));
        } else if (pthread_create(&db->thread, NULL, listen_main, db) != 0) {
            ok = set_err(e, WEB_DB_ERROR, "cannot start the listener thread");
        } else {
            db->thread_started = true;
        }
        if (!ok)
            db->nlisteners--;
    }
    pthread_mutex_unlock(&db->listen_lock);
    return ok;
}

void web_db_notify(WebDb *db, const char *game, int64_t version) {
    if (db->kind == WEB_DB_SQLITE) {
        deliver(db, game, version);
        return;
    }
    char payload[128];
    snprintf(payload, sizeof payload, "%s %" PRId64, game, version);
    WebDbArg a[1] = {web_db_text(payload)};
    WebDbErr e;
    if (!web_db_exec(db, "SELECT pg_notify('" CHANNEL "', $1)", a, 1, NULL, &e))
        fprintf(stderr, "menagerie serve: could not notify the other processes: %s\n", e.msg);
}
