/* accounts.c - accounts, sessions and ratings in the database (accounts.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app/web/db/accounts.h"

static bool refuse(WebDbErr *e, const char *msg) {
    if (e) {
        e->status = WEB_DB_ERROR;
        snprintf(e->msg, sizeof e->msg, "%s", msg);
    }
    return false;
}

/* ---- accounts ---- */

bool web_db_account_add(WebDb *db, const char *name, const char *pwhash, int64_t *id, WebDbErr *e) {
    if (!name || !name[0] || strlen(name) >= WEB_DB_NAME_LEN)
        return refuse(e, "a name has 1 to 31 bytes");
    if (!pwhash || strlen(pwhash) >= WEB_DB_PWHASH_LEN)
        return refuse(e, "the password hash is too long");
    WebDbArg a[3] = {web_db_text(name), web_db_text(pwhash), web_db_int((int64_t)time(NULL))};
    char v[32];
    bool found;
    if (!web_db_value(db,
                      "INSERT INTO accounts (name, pwhash, created) VALUES ($1, $2, $3) "
                      "RETURNING id",
                      a, 3, v, sizeof v, &found, e))
        return false;
    if (id)
        *id = strtoll(v, NULL, 10);
    return true;
}

static bool take_account(void *ctx, const WebDbRow *r) {
    WebAccount *a = ctx;
    a->id = web_db_col_int(r, 0);
    snprintf(a->name, sizeof a->name, "%s", web_db_col_text(r, 1));
    snprintf(a->pwhash, sizeof a->pwhash, "%s", web_db_col_text(r, 2));
    a->created = web_db_col_int(r, 3);
    return false;
}

static bool account_by(WebDb *db, const char *where, WebDbArg arg, WebAccount *a, bool *found,
                       WebDbErr *e) {
    char sql[200];
    snprintf(sql, sizeof sql, "SELECT id, name, pwhash, created FROM accounts WHERE %s", where);
    memset(a, 0, sizeof *a);
    a->id = 0;
    if (!web_db_query(db, sql, &arg, 1, take_account, a, e))
        return false;
    *found = a->id != 0;
    return true;
}

bool web_db_account_find(WebDb *db, const char *name, WebAccount *a, bool *found, WebDbErr *e) {
    return account_by(db, "lower(name) = lower($1)", web_db_text(name ? name : ""), a, found, e);
}

bool web_db_account_get(WebDb *db, int64_t id, WebAccount *a, bool *found, WebDbErr *e) {
    return account_by(db, "id = $1", web_db_int(id), a, found, e);
}

bool web_db_account_set_pwhash(WebDb *db, int64_t id, const char *pwhash, WebDbErr *e) {
    if (!pwhash || strlen(pwhash) >= WEB_DB_PWHASH_LEN)
        return refuse(e, "the password hash is too long");
    WebDbArg a[2] = {web_db_text(pwhash), web_db_int(id)};
    int64_t n = 0;
    if (!web_db_exec(db, "UPDATE accounts SET pwhash = $1 WHERE id = $2", a, 2, &n, e))
        return false;
    return n == 1 || refuse(e, "no such account");
}

/* ---- sessions ---- */

bool web_db_session_put(WebDb *db, const WebSession *s, WebDbErr *e) {
    WebDbArg a[5] = {web_db_blob(s->hash, WEB_DB_HASH_LEN),
                     s->account ? web_db_int(s->account) : web_db_null(), web_db_text(s->name),
                     web_db_int(s->created), web_db_int(s->seen)};
    return web_db_exec(db,
                       "INSERT INTO sessions (hash, account, name, created, seen) "
                       "VALUES ($1, $2, $3, $4, $5) ON CONFLICT (hash) DO UPDATE SET "
                       "account = excluded.account, name = excluded.name, seen = excluded.seen",
                       a, 5, NULL, e);
}

static bool take_session(void *ctx, const WebDbRow *r) {
    WebSession *s = ctx;
    s->account = web_db_col_int(r, 0);
    snprintf(s->name, sizeof s->name, "%s", web_db_col_text(r, 1));
    s->created = web_db_col_int(r, 2);
    s->seen = web_db_col_int(r, 3);
    return false;
}

bool web_db_session_get(WebDb *db, const unsigned char hash[WEB_DB_HASH_LEN], WebSession *s,
                        bool *found, WebDbErr *e) {
    memset(s, 0, sizeof *s);
    s->created = -1;
    WebDbArg a[1] = {web_db_blob(hash, WEB_DB_HASH_LEN)};
    if (!web_db_query(db, "SELECT account, name, created, seen FROM sessions WHERE hash = $1", a, 1,
                      take_session, s, e))
        return false;
    *found = s->created != -1;
    if (!*found)
        s->created = 0;
    memcpy(s->hash, hash, WEB_DB_HASH_LEN);
    return true;
}

bool web_db_session_touch(WebDb *db, const unsigned char hash[WEB_DB_HASH_LEN], int64_t seen,
                          WebDbErr *e) {
    WebDbArg a[2] = {web_db_int(seen), web_db_blob(hash, WEB_DB_HASH_LEN)};
    return web_db_exec(db, "UPDATE sessions SET seen = $1 WHERE hash = $2", a, 2, NULL, e);
}

bool web_db_session_delete(WebDb *db, const unsigned char hash[WEB_DB_HASH_LEN], WebDbErr *e) {
    WebDbArg a[1] = {web_db_blob(hash, WEB_DB_HASH_LEN)};
    return web_db_exec(db, "DELETE FROM sessions WHERE hash = $1", a, 1, NULL, e);
}

bool web_db_session_expire(WebDb *db, int64_t before, int64_t *removed, WebDbErr *e) {
    WebDbArg a[1] = {web_db_int(before)};
    return web_db_exec(db, "DELETE FROM sessions WHERE seen < $1", a, 1, removed, e);
}

/* ---- ratings ---- */

static bool take_rating(void *ctx, const WebDbRow *r) {
    WebRating *g = ctx;
    g->rating = web_db_col_real(r, 0);
    g->rd = web_db_col_real(r, 1);
    g->volatility = web_db_col_real(r, 2);
    g->games = (int)web_db_col_int(r, 3);
    g->updated = web_db_col_int(r, 4);
    return false;
}

bool web_db_rating_get(WebDb *db, int64_t account, const char *game, WebRating *r, bool *found,
                       WebDbErr *e) {
    memset(r, 0, sizeof *r);
    r->games = -1;
    WebDbArg a[2] = {web_db_int(account), web_db_text(game ? game : "")};
    if (!web_db_query(db,
                      "SELECT rating, rd, volatility, games, updated FROM ratings "
                      "WHERE account = $1 AND game = $2",
                      a, 2, take_rating, r, e))
        return false;
    *found = r->games >= 0;
    if (!*found)
        r->games = 0;
    return true;
}

bool web_db_rating_write(WebDb *db, int64_t account, const char *game, const WebRating *r,
                         WebDbErr *e) {
    if (!game || !game[0])
        return refuse(e, "no game named for the rating");
    WebDbArg a[7] = {web_db_int(account),   web_db_text(game),          web_db_real(r->rating),
                     web_db_real(r->rd),    web_db_real(r->volatility), web_db_int(r->games),
                     web_db_int(r->updated)};
    return web_db_exec(
               db,
               "INSERT INTO ratings (account, game, rating, rd, volatility, games, updated) "
               "VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (account, game) DO UPDATE "
               "SET rating = excluded.rating, rd = excluded.rd, "
               "volatility = excluded.volatility, games = excluded.games, "
               "updated = excluded.updated",
               a, 7, NULL, e) &&
           web_db_exec(db,
                       "INSERT INTO rating_history (account, game, at, rating, rd) "
                       "VALUES ($1, $2, $3, $4, $5)",
                       (WebDbArg[5]){a[0], a[1], a[6], a[2], a[3]}, 5, NULL, e);
}

bool web_db_rating_put(WebDb *db, int64_t account, const char *game, const WebRating *r,
                       WebDbErr *e) {
    if (!game || !game[0])
        return refuse(e, "no game named for the rating");
    if (!web_db_begin(db, e))
        return false;
    if (!web_db_rating_write(db, account, game, r, e)) {
        web_db_rollback(db);
        return false;
    }
    return web_db_commit(db, e);
}

typedef struct {
    void (*fn)(void *ctx, int64_t at, double rating, double rd);
    void *ctx;
} History;

static bool take_point(void *ctx, const WebDbRow *r) {
    History *h = ctx;
    h->fn(h->ctx, web_db_col_int(r, 0), web_db_col_real(r, 1), web_db_col_real(r, 2));
    return true;
}

bool web_db_rating_history(WebDb *db, int64_t account, const char *game, int max,
                           void (*fn)(void *ctx, int64_t at, double rating, double rd), void *ctx,
                           WebDbErr *e) {
    History h = {fn, ctx};
    WebDbArg a[3] = {web_db_int(account), web_db_text(game ? game : ""),
                     web_db_int(max > 0 ? max : 1000)};
    return web_db_query(db,
                        "SELECT at, rating, rd FROM rating_history WHERE account = $1 AND "
                        "game = $2 ORDER BY at, rating LIMIT $3",
                        a, 3, take_point, &h, e);
}
