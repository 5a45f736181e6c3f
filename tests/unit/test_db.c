/* test_db.c - the web app's database layer on SQLite (migrations applied once,
 * parameters with quotes and blobs with NUL bytes, rollback, errors, several threads
 * in transactions, the in-process notification), the account tables, and the game
 * store on it: save, read back, reload from another copy, a stale write refused,
 * seats kept out of the text, and the import of an old data folder's file. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/web/db/accounts.h"
#include "app/web/db/schema.h"
#include "app/web/games/play.h"
#include "test.h"

static int count(WebDb *db, const char *sql) {
    char v[32];
    bool found;
    WebDbErr e;
    return web_db_value(db, sql, NULL, 0, v, sizeof v, &found, &e) && found ? atoi(v) : -1;
}

/* ---- the layer ---- */

static const WebDbStep steps[] = {
    {"CREATE TABLE t (id INTEGER PRIMARY KEY, s TEXT UNIQUE, b BLOB, n BIGINT, r REAL)",
     "CREATE TABLE t (id BIGSERIAL PRIMARY KEY, s TEXT UNIQUE, b bytea, n BIGINT, r FLOAT8)"},
    {"CREATE TABLE c (k INTEGER PRIMARY KEY, v BIGINT NOT NULL); INSERT INTO c VALUES (1, 0)",
     "CREATE TABLE c (k INTEGER PRIMARY KEY, v BIGINT NOT NULL); INSERT INTO c VALUES (1, 0)"},
};

typedef struct {
    char s[200];
    unsigned char b[8];
    size_t blen;
    int64_t n;
    double r;
    bool bnull;
} Got;

static bool take(void *ctx, const WebDbRow *r) {
    Got *g = ctx;
    snprintf(g->s, sizeof g->s, "%s", web_db_col_text(r, 0));
    const unsigned char *b = web_db_col_blob(r, 1, &g->blen);
    g->bnull = b == NULL;
    if (b && g->blen <= sizeof g->b)
        memcpy(g->b, b, g->blen);
    g->n = web_db_col_int(r, 2);
    g->r = web_db_col_real(r, 3);
    return true;
}

static void *bump(void *arg) {
    WebDb *db = arg;
    for (int i = 0; i < 50; i++) {
        WebDbErr e;
        char v[32];
        bool found;
        if (!web_db_begin(db, &e))
            continue;
        web_db_value(db, "SELECT v FROM c WHERE k = 1", NULL, 0, v, sizeof v, &found, &e);
        WebDbArg a[1] = {web_db_int(atoll(v) + 1)};
        web_db_exec(db, "UPDATE c SET v = $1 WHERE k = 1", a, 1, NULL, &e);
        web_db_commit(db, &e);
    }
    return NULL;
}

static int heard;
static char heard_id[32];
static int64_t heard_version;
static void on_note(void *ctx, const char *id, int64_t version) {
    (void)ctx;
    heard++;
    snprintf(heard_id, sizeof heard_id, "%s", id);
    heard_version = version;
}

static void layer(const char *dir) {
    char path[300];
    snprintf(path, sizeof path, "sqlite:%s/t.db", dir);
    WebDbErr e;
    // Step 1. Opening, and the errors of a bad name.
    CHECK(!web_db_open("", &e) && e.msg[0]);
    CHECK(!web_db_open("sqlite:", &e) && e.msg[0]);
    CHECK(!web_db_open("/nonexistent-folder/x/y.db", &e) && strstr(e.msg, "cannot open"));
    WebDb *db = web_db_open(path, &e);
    CHECK(db != NULL);
    if (!db)
        return;
    CHECK(web_db_kind(db) == WEB_DB_SQLITE);
    // Step 2. Migrations: each step once, also when asked again or on a longer list.
    CHECK(web_db_migrate(db, steps, 1, &e));
    CHECK(web_db_schema_version(db) == 1);
    CHECK(web_db_migrate(db, steps, 2, &e));
    CHECK(web_db_migrate(db, steps, 2, &e));
    CHECK(web_db_schema_version(db) == 2);
    CHECK(count(db, "SELECT COUNT(*) FROM c") == 1);
    // Step 3. Parameters: quotes, $ signs and SQL in text; NUL bytes in a blob.
    const char *nasty = "O'Brien \"x\" $1 ; DROP TABLE t; --";
    unsigned char blob[5] = {0, 1, 0, 255, 7};
    WebDbArg a[4] = {web_db_text(nasty), web_db_blob(blob, 5), web_db_int(-9007199254740993LL),
                     web_db_real(0.1 + 0.2)};
    int64_t changes = 0;
    CHECK(
        web_db_exec(db, "INSERT INTO t (s, b, n, r) VALUES ($1, $2, $3, $4)", a, 4, &changes, &e));
    CHECK(changes == 1);
    Got g = {0};
    CHECK(web_db_query(db, "SELECT s, b, n, r FROM t WHERE s = $1", a, 1, take, &g, &e));
    CHECK_STR(g.s, nasty);
    CHECK(g.blen == 5 && !memcmp(g.b, blob, 5));
    CHECK(g.n == -9007199254740993LL);
    CHECK(g.r == 0.1 + 0.2);
    WebDbArg nul[2] = {web_db_text("nothing"), web_db_null()};
    CHECK(web_db_exec(db, "INSERT INTO t (s, b) VALUES ($1, $2)", nul, 2, NULL, &e));
    CHECK(web_db_query(db, "SELECT s, b, n, r FROM t WHERE s = $1", nul, 1, take, &g, &e));
    CHECK(g.bnull && g.n == 0);
    // Step 4. Errors: bad SQL, a unique key, a missing table; the connection goes on.
    CHECK(!web_db_exec(db, "SELEC nonsense", NULL, 0, NULL, &e) && e.status == WEB_DB_ERROR &&
          e.msg[0]);
    CHECK(!web_db_exec(db, "INSERT INTO t (s) VALUES ($1)", a, 1, NULL, &e) &&
          e.status == WEB_DB_CONSTRAINT);
    CHECK(!web_db_query(db, "SELECT * FROM missing", NULL, 0, NULL, NULL, &e) &&
          strstr(e.msg, "missing"));
    CHECK(count(db, "SELECT COUNT(*) FROM t") == 2);
    // Step 5. Transactions: a rollback leaves nothing, a commit keeps it.
    CHECK(web_db_begin(db, &e));
    CHECK(!web_db_begin(db, &e)); /* not twice */
    WebDbArg one[1] = {web_db_text("rolled back")};
    CHECK(web_db_exec(db, "INSERT INTO t (s) VALUES ($1)", one, 1, NULL, &e));
    web_db_rollback(db);
    CHECK(count(db, "SELECT COUNT(*) FROM t") == 2);
    CHECK(web_db_begin(db, &e));
    CHECK(web_db_exec(db, "INSERT INTO t (s) VALUES ($1)", one, 1, NULL, &e));
    CHECK(web_db_commit(db, &e));
    CHECK(count(db, "SELECT COUNT(*) FROM t") == 3);
    // Step 6. Four threads' transactions, none lost.
    pthread_t th[4];
    for (int i = 0; i < 4; i++)
        pthread_create(&th[i], NULL, bump, db);
    for (int i = 0; i < 4; i++)
        pthread_join(th[i], NULL);
    CHECK(count(db, "SELECT v FROM c") == 200);
    // Step 7. Notification in one process: the listener at once.
    CHECK(web_db_listen(db, on_note, NULL, &e));
    web_db_notify(db, "0123456789ab", 7);
    CHECK(heard == 1 && !strcmp(heard_id, "0123456789ab") && heard_version == 7);
    web_db_close(db);
}

/* ---- accounts ---- */

static int points;
static void on_point(void *ctx, int64_t at, double rating, double rd) {
    (void)ctx, (void)rd;
    points += at > 0 && rating > 0;
}

static void accounts(const char *dir) {
    char path[300];
    snprintf(path, sizeof path, "%s/a.db", dir);
    WebDbErr e;
    WebDb *db = web_db_open(path, &e);
    CHECK(db && web_db_migrate(db, web_schema, web_schema_steps, &e));
    if (!db)
        return;
    int64_t id = 0, id2 = 0;
    CHECK(web_db_account_add(db, "Alice", "$argon2id$x", &id, &e) && id > 0);
    CHECK(!web_db_account_add(db, "aLiCe", "$argon2id$y", &id2, &e) &&
          e.status == WEB_DB_CONSTRAINT);
    CHECK(!web_db_account_add(db, "", "h", &id2, &e));
    CHECK(web_db_account_add(db, "Bob", "h", &id2, &e) && id2 > id);
    WebAccount acc;
    bool found = false;
    CHECK(web_db_account_find(db, "ALICE", &acc, &found, &e) && found && acc.id == id);
    CHECK_STR(acc.name, "Alice");
    CHECK_STR(acc.pwhash, "$argon2id$x");
    CHECK(web_db_account_find(db, "carol", &acc, &found, &e) && !found);
    CHECK(web_db_account_set_pwhash(db, id, "new", &e));
    CHECK(web_db_account_get(db, id, &acc, &found, &e) && found && !strcmp(acc.pwhash, "new"));
    // sessions
    WebSession s = {{0}, id, "Alice", 100, 100}, t;
    for (int i = 0; i < WEB_DB_HASH_LEN; i++)
        s.hash[i] = (unsigned char)(i * 7);
    CHECK(web_db_session_put(db, &s, &e));
    CHECK(web_db_session_get(db, s.hash, &t, &found, &e) && found && t.account == id &&
          t.created == 100 && !strcmp(t.name, "Alice"));
    CHECK(web_db_session_touch(db, s.hash, 200, &e));
    s.account = 0, s.seen = 300;
    CHECK(web_db_session_put(db, &s, &e));
    CHECK(web_db_session_get(db, s.hash, &t, &found, &e) && found && t.account == 0 &&
          t.seen == 300 && t.created == 100);
    int64_t removed = 0;
    CHECK(web_db_session_expire(db, 301, &removed, &e) && removed == 1);
    CHECK(web_db_session_get(db, s.hash, &t, &found, &e) && !found);
    // ratings
    WebRating r = {1500, 350, 0.06, 0, 1000}, q;
    CHECK(web_db_rating_get(db, id, "chess", &q, &found, &e) && !found);
    CHECK(web_db_rating_put(db, id, "chess", &r, &e));
    r.rating = 1562.3456789012345, r.rd = 290.5, r.games = 1, r.updated = 2000;
    CHECK(web_db_rating_put(db, id, "chess", &r, &e));
    CHECK(web_db_rating_get(db, id, "chess", &q, &found, &e) && found);
    CHECK(q.rating == r.rating && q.rd == r.rd && q.volatility == 0.06 && q.games == 1 &&
          q.updated == 2000);
    CHECK(web_db_rating_history(db, id, "chess", 10, on_point, NULL, &e) && points == 2);
    CHECK(web_db_rating_get(db, id, "shogi", &q, &found, &e) && !found);
    web_db_close(db);
}

/* ---- the store ---- */

static char *read_all(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}

/* The store's rating hook, counting its calls and keeping the last end. */
static int rated_calls;
static WebRatedEnd rated_last;
static bool on_rated(void *ctx, WebDb *db, const WebRatedEnd *end, WebDbErr *e) {
    (void)ctx, (void)db, (void)e;
    rated_calls++;
    rated_last = *end;
    return true;
}

static void store(const char *dir) {
    char err[300], path[400];
    WebError e;
    WebOptions opt = {{WEB_HUMAN, WEB_HUMAN}, 8, 1000, 0, 0};
    // Step 1. An old data folder's file, made as the file store wrote them.
    Game *g = engine_new("chess", NULL, err, sizeof err);
    CHECK(g && engine_play(g, "e2e4", err, sizeof err) && engine_play(g, "e7e5", err, sizeof err));
    if (!g)
        return;
    WebGame *old = web_game_new(g, &opt);
    snprintf(old->id, sizeof old->id, "00000000a1b2");
    char *text = web_store_text(old);
    snprintf(path, sizeof path, "%s/00000000a1b2.pgn", dir);
    FILE *f = fopen(path, "w");
    CHECK(f && fputs(text, f) >= 0);
    if (f)
        fclose(f);
    snprintf(path, sizeof path, "%s/00000000dead.pgn", dir);
    f = fopen(path, "w");
    CHECK(f && fputs("[Event \"x\"]\n\n1. e4", f) >= 0);
    if (f)
        fclose(f);
    web_game_free(old);
    // Step 2. Opened: imported, moved, the broken one left and listed.
    WebGames *gs = calloc(1, sizeof *gs), *gs2 = calloc(1, sizeof *gs2);
    CHECK(web_games_open(gs, dir, err, sizeof err));
    snprintf(path, sizeof path, "%s/imported/00000000a1b2.pgn", dir);
    CHECK(access(path, F_OK) == 0);
    snprintf(path, sizeof path, "%s/00000000dead.pgn", dir);
    CHECK(access(path, F_OK) == 0);
    CHECK(gs->store.nskipped == 1 && !strcmp(gs->store.skipped[0].file, "00000000dead.pgn"));
    WebGame *w = web_game_get(gs, "00000000a1b2", &e);
    CHECK(w != NULL);
    if (!w) {
        free(text);
        return;
    }
    CHECK(w->plies == 2 && atomic_load(&w->stored) == 1);
    char name[100];
    char *exported = web_game_export(w, name, sizeof name);
    CHECK_STR(exported, text); /* the export is the file's text */
    free(exported);
    snprintf(path, sizeof path, "%s/imported/00000000a1b2.pgn", dir);
    CHECK_STR(read_all(path), text);
    free(text);
    // Step 3. A move saved: the row's version and text.
    CHECK(web_game_move(gs, w, NULL, "g1f3", 0, &e));
    CHECK(atomic_load(&w->stored) == 2);
    CHECK(count(gs->store.db, "SELECT version FROM games WHERE id = '00000000a1b2'") == 2);
    // Step 4. A second copy on the same database (another process's): it moves on,
    // the first is refused with 409 and unchanged, then reloads.
    snprintf(path, sizeof path, "%s/two", dir);
    char url[400];
    snprintf(url, sizeof url, "sqlite:%s/menagerie.db", dir);
    CHECK(web_games_open_db(gs2, path, url, err, sizeof err));
    WebGame *w2 = web_game_get(gs2, "00000000a1b2", &e);
    CHECK(w2 && w2->plies == 3);
    if (w2) {
        CHECK(web_game_move(gs2, w2, NULL, "b8c6", 0, &e));
        CHECK(!web_game_move(gs, w, NULL, "b8c6", 0, &e) && e.status == 409);
        CHECK(w->plies == 3);
        pthread_mutex_lock(&w->lock);
        CHECK(web_store_reload(&gs->store, w, &e) == 1);
        CHECK(w->plies == 4 && atomic_load(&w->stored) == 3);
        CHECK(web_store_reload(&gs->store, w, &e) == 0);
        pthread_mutex_unlock(&w->lock);
        CHECK(web_game_move(gs, w, NULL, "f1b5", 0, &e));
        web_game_put(w2);
    }
    // Step 5. Seats: in their table, names in the tags, no secret in the text.
    pthread_mutex_lock(&w->lock);
    w->online = true;
    w->seat[0].held = true;
    memset(w->seat[0].holder, 0xab, WEB_HASH_LEN);
    w->seat[0].account = 42;
    snprintf(w->seat[0].name, sizeof w->seat[0].name, "Alice");
    memset(w->invite, 0x5c, WEB_HASH_LEN);
    w->version++;
    CHECK(web_store_commit(&gs->store, w, &e));
    pthread_mutex_unlock(&w->lock);
    WebGame *r = web_store_read(&gs->store, "00000000a1b2", &e);
    CHECK(r && r->online && r->seat[0].held && !r->seat[1].held && r->seat[0].account == 42 &&
          !strcmp(r->seat[0].name, "Alice") && r->seat[0].holder[31] == 0xab &&
          r->invite[0] == 0x5c && r->plies == 5);
    if (r)
        web_game_free(r);
    exported = web_game_export(w, name, sizeof name);
    CHECK(strstr(exported, "[White \"Alice\"]") && !strstr(exported, "abab") &&
          !strstr(exported, "ABAB"));
    free(exported);
    CHECK(count(gs->store.db, "SELECT COUNT(*) FROM seats") == 1);
    // Step 5b. A rated game's end calls the rating hook once, in its commit; saving
    // the ended game again does not.
    gs->store.rated_end = on_rated;
    pthread_mutex_lock(&w->lock);
    w->rated = true;
    w->seat[1].held = true;
    w->seat[1].account = 43;
    w->version++;
    CHECK(web_store_commit(&gs->store, w, &e) && rated_calls == 0); /* not over yet */
    w->forced = RESULT_SECOND_WINS;
    snprintf(w->forced_reason, sizeof w->forced_reason, "resignation");
    w->version++;
    CHECK(web_store_commit(&gs->store, w, &e) && rated_calls == 1);
    CHECK(rated_last.account[0] == 42 && rated_last.account[1] == 43 && rated_last.score == 0 &&
          !strcmp(rated_last.variant, "chess"));
    w->version++;
    CHECK(web_store_commit(&gs->store, w, &e) && rated_calls == 1);
    CHECK(count(gs->store.db, "SELECT rated_done FROM games WHERE id = '00000000a1b2'") == 1);
    pthread_mutex_unlock(&w->lock);
    web_game_put(w);
    // Step 6. Deleted: the row and its seats go; a reload finds nothing.
    CHECK(web_game_delete(gs, "00000000a1b2", &e));
    CHECK(count(gs->store.db, "SELECT COUNT(*) FROM games") == 0);
    CHECK(count(gs->store.db, "SELECT COUNT(*) FROM seats") == 0);
    CHECK(!web_store_read(&gs->store, "00000000a1b2", &e) && e.status == 404);
    web_games_close(gs2);
    web_games_close(gs);
    free(gs);
    free(gs2);
}

void test_db(void) {
    char dir[] = "/tmp/menagerie-test-db-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    layer(dir);
    accounts(dir);
    store(dir);
    test_remove_folder(dir);
}
