/* accounts.h - the data of the online site's people: accounts (a name unique
 * without regard to case, a password hash made elsewhere), browser sessions (kept by
 * the hash of their secret cookie), and Glicko-2 ratings per game with their
 * history. Small exact reads and writes on a WebDb (db.h), no policy: the password
 * and rating modules and the HTTP routes sit above and decide. Each call is one
 * statement or one transaction; false with the reason in *e (WEB_DB_CONSTRAINT for
 * a name already taken). */
#ifndef WEB_ACCOUNTS_H
#define WEB_ACCOUNTS_H

#include "app/web/db/db.h"

#define WEB_DB_HASH_LEN 32    /* bytes of a session secret's hash */
#define WEB_DB_NAME_LEN 32    /* a name with its NUL */
#define WEB_DB_PWHASH_LEN 256 /* a password hash string with its NUL */

typedef struct {
    int64_t id;
    char name[WEB_DB_NAME_LEN];
    char pwhash[WEB_DB_PWHASH_LEN];
    int64_t created;
} WebAccount;

typedef struct {
    unsigned char hash[WEB_DB_HASH_LEN];
    int64_t account; /* 0: a guest */
    char name[WEB_DB_NAME_LEN];
    int64_t created, seen;
} WebSession;

typedef struct {
    double rating, rd, volatility;
    int games;
    int64_t updated;
} WebRating;

/* A new account; *id gets its number. A name longer than WEB_DB_NAME_LEN - 1 bytes,
 * or empty, is refused. */
bool web_db_account_add(WebDb *db, const char *name, const char *pwhash, int64_t *id, WebDbErr *e);
/* By name (any case) or by id; *found false when there is none. */
bool web_db_account_find(WebDb *db, const char *name, WebAccount *a, bool *found, WebDbErr *e);
bool web_db_account_get(WebDb *db, int64_t id, WebAccount *a, bool *found, WebDbErr *e);
bool web_db_account_set_pwhash(WebDb *db, int64_t id, const char *pwhash, WebDbErr *e);

/* Writes the session (new or changed). */
bool web_db_session_put(WebDb *db, const WebSession *s, WebDbErr *e);
bool web_db_session_get(WebDb *db, const unsigned char hash[WEB_DB_HASH_LEN], WebSession *s,
                        bool *found, WebDbErr *e);
bool web_db_session_touch(WebDb *db, const unsigned char hash[WEB_DB_HASH_LEN], int64_t seen,
                          WebDbErr *e);
bool web_db_session_delete(WebDb *db, const unsigned char hash[WEB_DB_HASH_LEN], WebDbErr *e);
/* Sessions not seen since before; *removed gets how many went. */
bool web_db_session_expire(WebDb *db, int64_t before, int64_t *removed, WebDbErr *e);

/* The account's rating in one game (a variant's name); *found false: none yet. */
bool web_db_rating_get(WebDb *db, int64_t account, const char *game, WebRating *r, bool *found,
                       WebDbErr *e);
/* Writes the rating and adds its point to the history, in one transaction. */
bool web_db_rating_put(WebDb *db, int64_t account, const char *game, const WebRating *r,
                       WebDbErr *e);
/* The same inside the caller's transaction (web_db_begin). */
bool web_db_rating_write(WebDb *db, int64_t account, const char *game, const WebRating *r,
                         WebDbErr *e);
/* The history, oldest first, at most max points to fn(ctx, at, rating, rd). */
bool web_db_rating_history(WebDb *db, int64_t account, const char *game, int max,
                           void (*fn)(void *ctx, int64_t at, double rating, double rd), void *ctx,
                           WebDbErr *e);

#endif
