/* people.c - accounts, sessions, the player page and rated games' ends (people.h).
 *
 * Logging in binds the request's browser session (the hash of its cookie) to the
 * account in the sessions table; every request reads that row (web_people_identify),
 * so several server processes on one database agree. A wrong password and an
 * unknown name get the same answer after the same work (the unknown name is checked
 * against a dummy hash). Passwords are never logged nor kept: the request's copy is
 * wiped once hashed or checked. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app/web/db/accounts.h"
#include "app/web/games/view.h"
#include "app/web/online/glicko.h"
#include "app/web/online/password.h"
#include "app/web/people.h"

#define BAD_LOGIN "wrong name or password"
#define HISTORY_MAX 500

static WebDb *db_of(WebPeople *p) {
    return p->games ? p->games->store.db : NULL;
}

static void reply_db(WebReply *out, const char *what, const WebDbErr *de) {
    char msg[200];
    snprintf(msg, sizeof msg, "%s: %.150s", what, de->msg);
    web_reply_error(out,
                    de->status == WEB_DB_FULL   ? 507
                    : de->status == WEB_DB_LOST ? 503
                                                : 500,
                    msg);
}

void web_people_init(WebPeople *p, WebGames *games) {
    p->games = games;
    p->login_addr = web_limit_new(4096, WEB_LIMIT_LOGIN_BURST, WEB_LIMIT_LOGIN_REFILL_MS);
    p->login_name = web_limit_new(4096, WEB_LIMIT_LOGIN_BURST, WEB_LIMIT_LOGIN_REFILL_MS);
    if (games) {
        games->store.rated_end = web_people_rate;
        games->store.rated_ctx = p;
    }
}

void web_people_free(WebPeople *p) {
    web_limit_free(p->login_addr);
    web_limit_free(p->login_name);
    p->login_addr = p->login_name = NULL;
}

/* ---- who asks ---- */

static bool take_me(void *ctx, const WebDbRow *r) {
    WebActor *a = ctx;
    a->account = web_db_col_int(r, 0);
    snprintf(a->name, sizeof a->name, "%s", web_db_col_text(r, 1));
    return false;
}

void web_people_identify(WebPeople *p, WebActor *a) {
    a->account = 0;
    a->name[0] = 0;
    WebDb *db = db_of(p);
    if (!a->known || !db)
        return;
    WebDbArg arg[1] = {web_db_blob(a->holder, WEB_HASH_LEN)};
    WebDbErr de;
    if (!web_db_query(db,
                      "SELECT a.id, a.name FROM sessions s JOIN accounts a ON a.id = s.account "
                      "WHERE s.hash = $1",
                      arg, 1, take_me, a, &de)) {
        a->account = 0; /* the database is down: a guest for now */
        a->name[0] = 0;
    }
}

/* ---- register, login, logout ---- */

/* The "name" and "password" strings of body; false with 400. */
static bool credentials(cJSON *body, const char **name, cJSON **pw, WebReply *out) {
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(body, "name");
    cJSON *w = cJSON_GetObjectItemCaseSensitive(body, "password");
    if (!cJSON_IsString(n) || !cJSON_IsString(w)) {
        web_reply_error(out, 400, "\"name\" and \"password\" must be strings");
        return false;
    }
    *name = n->valuestring;
    *pw = w;
    return true;
}

static void wipe(cJSON *pw) {
    if (pw && cJSON_IsString(pw) && pw->valuestring)
        web_password_wipe(pw->valuestring, strlen(pw->valuestring));
}

/* Binds the session to the account (0: back to a guest). */
static bool bind_session(WebDb *db, const WebActor *a, int64_t account, const char *name,
                         WebReply *out) {
    WebSession s;
    memset(&s, 0, sizeof s);
    memcpy(s.hash, a->holder, WEB_DB_HASH_LEN);
    s.account = account;
    snprintf(s.name, sizeof s.name, "%s", name ? name : "");
    s.created = s.seen = (int64_t)time(NULL);
    WebDbErr de;
    if (!web_db_session_put(db, &s, &de)) {
        reply_db(out, "could not keep the session", &de);
        return false;
    }
    return true;
}

static bool need_session(WebDb *db, const WebPerson *who, WebReply *out) {
    if (!db) {
        web_reply_error(out, 503, "no database: accounts are not available");
        return false;
    }
    if (!who->actor || !who->actor->known) {
        web_reply_error(out, 403, "no session came with the request (are cookies allowed?)");
        return false;
    }
    return true;
}

/* Takes a login attempt from the address and for the name; false with 429. */
static bool login_allowed(WebPeople *p, const WebPerson *who, const char *name, WebReply *out) {
    if (!who->limited)
        return true;
    char key[WEB_PASSWORD_NAME_MAX + 8];
    snprintf(key, sizeof key, "n:%.20s", name);
    for (char *c = key; *c; c++)
        if (*c >= 'A' && *c <= 'Z')
            *c = (char)(*c - 'A' + 'a');
    int64_t now = web_now_ms(), wait = 0, wait2 = 0;
    bool by_addr = web_limit_take(p->login_addr, who->addr, now, &wait);
    bool by_name = web_limit_take(p->login_name, key, now, &wait2);
    if (by_addr && by_name)
        return true;
    if (wait2 > wait)
        wait = wait2;
    char msg[120];
    snprintf(msg, sizeof msg, "too many login attempts: wait %" PRId64 " s", (wait + 999) / 1000);
    web_reply_error(out, 429, msg);
    return false;
}

void web_people_register(WebPeople *p, const WebPerson *who, cJSON *body, WebReply *out) {
    WebDb *db = db_of(p);
    const char *name = NULL;
    cJSON *pw = NULL;
    const char *why;
    char hash[WEB_PASSWORD_HASH_LEN];
    // Step 1. The request: a session, a name and a password by the rules.
    if (!need_session(db, who, out) || !credentials(body, &name, &pw, out))
        goto done;
    if ((why = web_password_name_rule(name)) ||
        (why = web_password_rule(pw->valuestring, strlen(pw->valuestring), name))) {
        web_reply_error(out, 400, why);
        goto done;
    }
    if (!login_allowed(p, who, name, out))
        goto done;
    // Step 2. The hash, and the account (the name unique, case aside).
    bool hashed = web_password_hash(pw->valuestring, strlen(pw->valuestring), hash);
    wipe(pw);
    if (!hashed) {
        web_reply_error(out, 503, "the password could not be hashed now: try again");
        goto done;
    }
    int64_t id = 0;
    WebDbErr de;
    if (!web_db_account_add(db, name, hash, &id, &de)) {
        if (de.status == WEB_DB_CONSTRAINT)
            web_reply_error(out, 409, "that name is taken");
        else
            reply_db(out, "could not make the account", &de);
        goto done;
    }
    // Step 3. Logged in.
    if (!bind_session(db, who->actor, id, name, out))
        goto done;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", name);
    cJSON_AddNumberToObject(o, "id", (double)id);
    web_reply_json(out, 201, o);
done:
    wipe(pw);
    web_password_wipe(hash, sizeof hash);
}

void web_people_login(WebPeople *p, const WebPerson *who, cJSON *body, WebReply *out) {
    WebDb *db = db_of(p);
    const char *name = NULL;
    cJSON *pw = NULL;
    WebAccount acc;
    memset(&acc, 0, sizeof acc);
    if (!need_session(db, who, out) || !credentials(body, &name, &pw, out))
        goto done;
    if (!login_allowed(p, who, name, out))
        goto done;
    // Step 1. The account, and the password checked (against a dummy when none).
    bool found = false;
    WebDbErr de;
    if (web_password_name_rule(name) == NULL && !web_db_account_find(db, name, &acc, &found, &de)) {
        reply_db(out, "could not read the account", &de);
        goto done;
    }
    const char *against = found ? acc.pwhash : web_password_dummy();
    size_t len = strlen(pw->valuestring);
    bool ok = against && web_password_verify(against, pw->valuestring, len) && found;
    if (!ok) {
        web_reply_error(out, 401, BAD_LOGIN);
        goto done;
    }
    // Step 2. A hash made with older limits is made again.
    char fresh[WEB_PASSWORD_HASH_LEN];
    if (web_password_needs_rehash(acc.pwhash) && web_password_hash(pw->valuestring, len, fresh))
        web_db_account_set_pwhash(db, acc.id, fresh, &de); /* a failure keeps the old one */
    web_password_wipe(fresh, sizeof fresh);
    // Step 3. The session logged in.
    if (!bind_session(db, who->actor, acc.id, acc.name, out))
        goto done;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", acc.name);
    web_reply_json(out, 200, o);
done:
    wipe(pw);
    web_password_wipe(&acc, sizeof acc);
}

void web_people_logout(WebPeople *p, const WebPerson *who, WebReply *out) {
    WebDb *db = db_of(p);
    if (!need_session(db, who, out))
        return;
    WebDbErr de;
    if (!web_db_session_delete(db, who->actor->holder, &de)) {
        reply_db(out, "could not end the session", &de);
        return;
    }
    cJSON *o = cJSON_CreateObject();
    cJSON_AddBoolToObject(o, "logged_out", true);
    web_reply_json(out, 200, o);
}

void web_people_me(WebPeople *p, const WebPerson *who, WebReply *out) {
    (void)p;
    bool in = who->actor && who->actor->account;
    cJSON *o = cJSON_CreateObject();
    if (in)
        cJSON_AddStringToObject(o, "name", who->actor->name);
    else
        cJSON_AddNullToObject(o, "name");
    cJSON_AddBoolToObject(o, "account", in);
    web_reply_json(out, 200, o);
}

/* ---- the player page ---- */

static bool take_rating_row(void *ctx, const WebDbRow *r) {
    cJSON *arr = ctx;
    WebGlicko g = {web_db_col_real(r, 1), web_db_col_real(r, 2), web_db_col_real(r, 3)}, now = g;
    int64_t idle = (int64_t)time(NULL) - web_db_col_int(r, 5);
    web_glicko_age(&g, idle > 0 ? (double)idle : 0, &now);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "game", web_db_col_text(r, 0));
    cJSON_AddNumberToObject(o, "rating", (double)(int64_t)(g.rating + 0.5));
    cJSON_AddNumberToObject(o, "rd", (double)(int64_t)(now.rd + 0.5));
    cJSON_AddBoolToObject(o, "provisional", web_glicko_provisional(&now));
    cJSON_AddNumberToObject(o, "games", (double)web_db_col_int(r, 4));
    cJSON_AddItemToArray(arr, o);
    return true;
}

static void take_point(void *ctx, int64_t at, double rating, double rd) {
    (void)rd;
    cJSON *pt = cJSON_CreateArray();
    cJSON_AddItemToArray(pt, cJSON_CreateNumber((double)at));
    cJSON_AddItemToArray(pt, cJSON_CreateNumber((double)(int64_t)(rating + 0.5)));
    cJSON_AddItemToArray(ctx, pt);
}

static bool take_id(void *ctx, const WebDbRow *r) {
    cJSON_AddItemToArray(ctx, cJSON_CreateString(web_db_col_text(r, 0)));
    return true;
}

cJSON *web_people_games(WebPeople *p, const char *name, int max) {
    cJSON *list = cJSON_CreateArray(), *ids = cJSON_CreateArray();
    WebDb *db = db_of(p);
    WebAccount acc;
    bool found = false;
    WebDbErr de;
    if (!db || !name || !web_db_account_find(db, name, &acc, &found, &de)) {
        cJSON_Delete(ids);
        return list;
    }
    web_password_wipe(acc.pwhash, sizeof acc.pwhash);
    WebDbArg a[2] = {found ? web_db_int(acc.id) : web_db_text(name), web_db_int(max)};
    web_db_query(db,
                 found ? "SELECT g.id FROM seats s JOIN games g ON g.id = s.game "
                         "WHERE s.account = $1 ORDER BY g.updated DESC LIMIT $2"
                       : "SELECT g.id FROM seats s JOIN games g ON g.id = s.game "
                         "WHERE s.account IS NULL AND s.name = $1 ORDER BY g.updated DESC "
                         "LIMIT $2",
                 a, 2, take_id, ids, &de);
    const cJSON *id;
    cJSON_ArrayForEach(id, ids) {
        WebError e;
        WebGame *w = web_game_get(p->games, id->valuestring, &e);
        if (!w)
            continue; /* not kept in memory */
        pthread_mutex_lock(&w->lock);
        if (!w->removed)
            cJSON_AddItemToArray(list, web_view_entry(w));
        pthread_mutex_unlock(&w->lock);
        web_game_put(w);
    }
    cJSON_Delete(ids);
    return list;
}

void web_people_player(WebPeople *p, const char *name, WebReply *out) {
    WebDb *db = db_of(p);
    WebAccount acc;
    bool found = false;
    WebDbErr de;
    if (!db || web_password_name_rule(name)) {
        web_reply_error(out, 404, "no player of that name");
        return;
    }
    if (!web_db_account_find(db, name, &acc, &found, &de)) {
        reply_db(out, "could not read the player", &de);
        return;
    }
    web_password_wipe(acc.pwhash, sizeof acc.pwhash);
    if (!found) {
        web_reply_error(out, 404, "no player of that name");
        return;
    }
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", acc.name);
    cJSON_AddNumberToObject(o, "created", (double)acc.created);
    cJSON *ratings = cJSON_AddArrayToObject(o, "ratings");
    WebDbArg a[1] = {web_db_int(acc.id)};
    web_db_query(db,
                 "SELECT game, rating, rd, volatility, games, updated FROM ratings "
                 "WHERE account = $1 ORDER BY game",
                 a, 1, take_rating_row, ratings, &de);
    cJSON *history = cJSON_AddObjectToObject(o, "history");
    const cJSON *r;
    cJSON_ArrayForEach(r, ratings) {
        const char *game = cJSON_GetObjectItem(r, "game")->valuestring;
        cJSON *pts = cJSON_AddArrayToObject(history, game);
        web_db_rating_history(db, acc.id, game, HISTORY_MAX, take_point, pts, &de);
    }
    cJSON_AddItemToObject(o, "games", web_people_games(p, acc.name, 30));
    web_reply_json(out, 200, o);
}

/* ---- a rated game's end ---- */

bool web_people_rate(void *ctx, WebDb *db, const WebRatedEnd *end, WebDbErr *e) {
    (void)ctx;
    WebRating r[2];
    WebGlicko g[2];
    double idle[2];
    // Step 1. Both players' ratings in this game, and how long since each played it.
    for (int s = 0; s < 2; s++) {
        bool found = false;
        if (!web_db_rating_get(db, end->account[s], end->variant, &r[s], &found, e))
            return false;
        if (!found) {
            g[s] = web_glicko_default();
            r[s].games = 0;
            idle[s] = 0;
        } else {
            g[s] = (WebGlicko){r[s].rating, r[s].rd, r[s].volatility};
            idle[s] = end->at > r[s].updated ? (double)(end->at - r[s].updated) : 0;
        }
        if (!web_glicko_valid(&g[s]))
            g[s] = web_glicko_default();
    }
    // Step 2. One Glicko-2 game, both written.
    WebGlicko out[2];
    if (!web_glicko_game(&g[0], idle[0], &g[1], idle[1], end->score, WEB_GLICKO_TAU, &out[0],
                         &out[1])) {
        if (e) {
            e->status = WEB_DB_ERROR;
            snprintf(e->msg, sizeof e->msg, "the ratings could not be computed");
        }
        return false;
    }
    for (int s = 0; s < 2; s++) {
        WebRating nr = {out[s].rating, out[s].rd, out[s].vol, r[s].games + 1, end->at};
        if (!web_db_rating_write(db, end->account[s], end->variant, &nr, e))
            return false;
    }
    return true;
}
