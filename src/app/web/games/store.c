/* store.c - the web app's games in the database (store.h).
 *
 * The text is engine_export's: PGN tag pairs and numbered moves; the mancala's FEN
 * tag holds its position text and its moves are Slangenspel move texts (3+, 12-x,
 * S5+, pass). Tags named Web... keep who plays which side and how the engine plays;
 * a Result tag that the rules do not give (resignation, agreed draw) is kept with
 * its Termination tag. Seats, the invitation and whether the game is rated are
 * columns and seats rows only: the text is what anyone may download.
 *
 * A write is one transaction: the games row (inserted for a new game, else updated
 * where its version is still the one this copy has, and one higher), then its seats.
 * At open the folder must be writable; *.tmp files of the old folder's cut saves are
 * removed; its game files are imported (a file that cannot be read, or does not end
 * in a game termination marker, is left alone and listed with its reason). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/web/db/schema.h"
#include "app/web/games/store.h"

static const char *kind_name(GameKind kind) {
    return kind == KIND_MANCALA ? "mancala" : "chess";
}

/* The HTTP status and message of a failed database call (a refused key is a
 * conflict with another game's; a delete has none, so its refusal is a 500). */
static bool db_fail(WebError *e, const char *what, const WebDbErr *de) {
    char msg[sizeof e->msg];
    bool removing = strstr(what, "delete") != NULL;
    int status = de->status == WEB_DB_FULL                      ? 507
                 : de->status == WEB_DB_CONSTRAINT && !removing ? 409
                 : de->status == WEB_DB_LOST                    ? 503
                                                                : 500;
    snprintf(msg, sizeof msg, "%s: %s%s", what, de->status == WEB_DB_FULL ? "no space left: " : "",
             de->msg);
    web_set_err(e, status, msg);
    return false;
}

/* ---- the text ---- */

char *web_store_text(WebGame *w) {
    char date[32], created[32], level[16], movetime[16], players[32], white[48], black[48];
    struct tm tm;
    localtime_r(&w->created, &tm);
    strftime(date, sizeof date, "%Y.%m.%d", &tm);
    snprintf(created, sizeof created, "%lld", (long long)w->created);
    snprintf(level, sizeof level, "%d", w->opt.level);
    snprintf(movetime, sizeof movetime, "%d", w->opt.movetime_ms);
    snprintf(players, sizeof players, "%s %s", web_player_name(w->opt.player[0]),
             web_player_name(w->opt.player[1]));
    for (int s = 0; s < 2; s++) /* an online seat's player by name; never the seat's secret */
        snprintf(s ? black : white, sizeof white, "%s",
                 w->online && w->seat[s].held && w->seat[s].name[0] ? w->seat[s].name
                 : w->opt.player[s] == WEB_ENGINE                   ? "Menagerie"
                                                                    : "Human");
    const char *tags[48] = {"Event",       "Menagerie web game",
                            "Site",        "Menagerie",
                            "Date",        date,
                            "White",       white,
                            "Black",       black,
                            "WebId",       w->id,
                            "WebPlayers",  players,
                            "WebLevel",    level,
                            "WebMoveTime", movetime,
                            "WebCreated",  created};
    int nt = 20;
    char clock[48], left[48];
    if (w->clock.base_ms) { /* Clock: base and increment, and the time left at this turn */
        snprintf(clock, sizeof clock, "%d+%d", w->clock.base_ms, w->clock.inc_ms);
        snprintf(left, sizeof left, "%lld %lld", (long long)w->clock.left[0],
                 (long long)w->clock.left[1]);
        tags[nt++] = "WebClock", tags[nt++] = clock;
        tags[nt++] = "WebClockLeft", tags[nt++] = left;
    }
    bool forced = engine_result(w->g).kind == RESULT_NONE && w->forced != RESULT_NONE;
    if (forced) { /* the rules see no result: the forced one */
        tags[nt++] = "Termination";
        tags[nt++] = w->forced_reason;
        tags[nt++] = "Result";
        tags[nt++] = web_result_token(w->forced);
    }
    if (w->aborted) { /* ended before it began: no result */
        tags[nt++] = "Termination";
        tags[nt++] = "abandoned";
        tags[nt++] = "WebAborted";
        tags[nt++] = w->forced_reason;
    }
    /* online: where the game began, and the offers standing (every process sees them) */
    char first[16], offers[16];
    if (w->online) {
        snprintf(first, sizeof first, "%d", w->first_ply);
        snprintf(offers, sizeof offers, "%d %d", w->draw_offer, w->takeback_offer);
        tags[nt++] = "WebFirstPly", tags[nt++] = first;
        tags[nt++] = "WebOffers", tags[nt++] = offers;
    }
    tags[nt] = NULL;
    for (size_t len = 16384; len <= (64u << 20); len *= 2) {
        char *buf = malloc(len);
        if (!buf)
            abort();
        if (engine_export(w->g, tags, buf, len) >= 0)
            return buf;
        free(buf);
    }
    return NULL;
}

/* ---- writing ---- */

/* What a write needs of the game, taken under its lock. */
typedef struct {
    char id[WEB_ID_LEN];
    GameKind kind;
    char variant[40];
    int64_t stored;
    int64_t created, updated;
    char result[8];
    bool online, rated, aborted;
    WebSeat seat[2];
    unsigned char invite[WEB_HASH_LEN];
    char *text;
} Snapshot;

static bool all_zero(const unsigned char *p, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (p[i])
            return false;
    return true;
}

/* Inside write_row's transaction: when s ends a rated game with a result, marks
 * the row rated_done (only the first time) and calls the rating hook. */
static bool rate_end(const WebStore *st, const Snapshot *s, WebDbErr *de) {
    double score = !strcmp(s->result, "1-0")       ? 1
                   : !strcmp(s->result, "0-1")     ? 0
                   : !strcmp(s->result, "1/2-1/2") ? 0.5
                                                   : -1;
    if (!st->rated_end || !s->rated || s->aborted || score < 0 || !s->seat[0].account ||
        !s->seat[1].account)
        return true;
    WebDbArg a[1] = {web_db_text(s->id)};
    int64_t n = 0;
    if (!web_db_exec(st->db, "UPDATE games SET rated_done = 1 WHERE id = $1 AND rated_done = 0", a,
                     1, &n, de))
        return false;
    if (n != 1)
        return true; /* rated already */
    WebRatedEnd end = {
        s->id, s->variant, {s->seat[0].account, s->seat[1].account}, score, s->updated};
    return st->rated_end(st->rated_ctx, st->db, &end, de);
}

/* The row and its seats in one transaction; *version gets the row's new version. */
static bool write_row(const WebStore *st, const Snapshot *s, int64_t *version, WebError *e) {
    WebDbErr de;
    WebDbArg a[11] = {web_db_text(s->id),
                      web_db_text(kind_name(s->kind)),
                      web_db_text(s->variant),
                      web_db_int(s->stored + 1),
                      web_db_int(s->created),
                      web_db_int(s->updated),
                      web_db_text(s->result),
                      web_db_int(s->online),
                      web_db_int(s->rated),
                      all_zero(s->invite, WEB_HASH_LEN) ? web_db_null()
                                                        : web_db_blob(s->invite, WEB_HASH_LEN),
                      web_db_text(s->text)};
    WebDbArg old[2] = {web_db_text(s->id), web_db_int(s->stored)};
    // Step 1. The row: new, or the next version of the one this copy was.
    if (!web_db_begin(st->db, &de))
        return db_fail(e, "could not save the game", &de);
    int64_t n = 0;
    bool ok;
    if (s->stored == 0) {
        ok = web_db_exec(st->db,
                         "INSERT INTO games (id, kind, variant, version, created, updated, "
                         "result, online, rated, invite, text) "
                         "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
                         a, 11, &n, &de);
    } else {
        ok = web_db_exec(st->db,
                         "UPDATE games SET kind = $2, variant = $3, version = $4, created = $5, "
                         "updated = $6, result = $7, online = $8, rated = $9, invite = $10, "
                         "text = $11 WHERE id = $1 AND version = $4 - 1",
                         a, 11, &n, &de);
    }
    if (!ok) {
        web_db_rollback(st->db);
        return db_fail(e, "could not save the game", &de);
    }
    if (n != 1) {
        bool found = false;
        char v[32];
        web_db_value(st->db, "SELECT version FROM games WHERE id = $1", old, 1, v, sizeof v, &found,
                     &de);
        web_db_rollback(st->db);
        web_set_err(e, found ? 409 : 404,
                    found ? "the game was changed on another server meanwhile: load it again"
                          : "the game was deleted on another server");
        return false;
    }
    // Step 2. Its seats.
    ok = web_db_exec(st->db, "DELETE FROM seats WHERE game = $1", old, 1, NULL, &de);
    for (int side = 0; ok && side < 2; side++) {
        const WebSeat *seat = &s->seat[side];
        if (!seat->held)
            continue;
        WebDbArg sa[5] = {
            web_db_text(s->id), web_db_int(side), web_db_blob(seat->holder, WEB_HASH_LEN),
            seat->account ? web_db_int(seat->account) : web_db_null(), web_db_text(seat->name)};
        ok = web_db_exec(st->db,
                         "INSERT INTO seats (game, side, holder, account, name) "
                         "VALUES ($1, $2, $3, $4, $5)",
                         sa, 5, NULL, &de);
    }
    if (!ok) {
        web_db_rollback(st->db);
        return db_fail(e, "could not save the game", &de);
    }
    // Step 3. A rated game's end: the ratings, once.
    if (!rate_end(st, s, &de)) {
        web_db_rollback(st->db);
        return db_fail(e, "could not save the ratings", &de);
    }
    // Step 4. On the disk before anyone hears of it.
    if (!web_db_commit(st->db, &de))
        return db_fail(e, "could not save the game", &de);
    *version = s->stored + 1;
    return true;
}

/* Tells st->changed of w's change (lock held). */
static void changed(const WebStore *st, WebGame *w) {
    if (st->changed)
        st->changed(st->changed_ctx, w);
}

bool web_store_commit(const WebStore *st, WebGame *w, WebError *e) {
    Snapshot s;
    s.text = web_store_text(w);
    if (!s.text) {
        web_set_err(e, 500, "the game is too long to save");
        return false;
    }
    snprintf(s.id, sizeof s.id, "%s", w->id);
    s.kind = w->info.kind;
    snprintf(s.variant, sizeof s.variant, "%s", w->info.name);
    s.stored = atomic_load(&w->stored);
    s.created = w->created;
    s.updated = time(NULL);
    snprintf(s.result, sizeof s.result, "%s", web_result_token(web_result_of(w).kind));
    s.online = w->online;
    s.rated = w->rated;
    s.aborted = w->aborted;
    memcpy(s.seat, w->seat, sizeof s.seat);
    memcpy(s.invite, w->invite, sizeof s.invite);
    w->busy = true;
    pthread_mutex_unlock(&w->lock);
    int64_t version = 0;
    bool ok = write_row(st, &s, &version, e);
    free(s.text);
    if (ok) {
        atomic_store(&w->stored, version);
        web_db_notify(st->db, s.id, version); /* no lock held: listeners may take them */
    }
    pthread_mutex_lock(&w->lock);
    w->busy = false;
    pthread_cond_broadcast(&w->idle);
    if (ok) {
        w->updated = (time_t)s.updated;
        changed(st, w);
    }
    return ok;
}

bool web_store_remove(const WebStore *st, const char *id, WebError *e) {
    WebDbErr de;
    WebDbArg a[1] = {web_db_text(id)};
    if (!web_db_begin(st->db, &de))
        return db_fail(e, "could not delete the saved game", &de);
    if (!web_db_exec(st->db, "DELETE FROM seats WHERE game = $1", a, 1, NULL, &de) ||
        !web_db_exec(st->db, "DELETE FROM games WHERE id = $1", a, 1, NULL, &de)) {
        web_db_rollback(st->db);
        return db_fail(e, "could not delete the saved game", &de);
    }
    if (!web_db_commit(st->db, &de))
        return db_fail(e, "could not delete the saved game", &de);
    return true;
}

/* ---- reading ---- */

static void skip(WebStore *st, const char *name, const char *why) {
    fprintf(stderr, "menagerie serve: not loading %s: %s\n", name, why);
    if (st->nskipped == WEB_STORE_SKIPPED)
        return;
    int n = st->nskipped++;
    snprintf(st->skipped[n].file, sizeof st->skipped[n].file, "%s", name);
    snprintf(st->skipped[n].error, sizeof st->skipped[n].error, "%s", why);
}

cJSON *web_store_skipped(const WebStore *st) {
    cJSON *arr = cJSON_CreateArray();
    for (int i = 0; i < st->nskipped; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "file", st->skipped[i].file);
        cJSON_AddStringToObject(o, "error", st->skipped[i].error);
        cJSON_AddItemToArray(arr, o);
    }
    return arr;
}

/* The value of tag NAME in PGN text, "" when absent. */
static void tag_of(const char *text, const char *name, char *out, size_t len) {
    char key[64];
    snprintf(key, sizeof key, "[%s \"", name);
    out[0] = 0;
    const char *p = strstr(text, key);
    if (!p)
        return;
    p += strlen(key);
    size_t n = 0;
    while (*p && *p != '"' && *p != '\n' && n + 1 < len) {
        if (*p == '\\' && p[1])
            p++;
        out[n++] = *p++;
    }
    out[n] = 0;
}

/* Whether the text ends in the termination marker its Result tag names: a file
 * cut short ends anywhere else. */
static bool complete(const char *text) {
    char result[16];
    tag_of(text, "Result", result, sizeof result);
    size_t n = strlen(text), rl = strlen(result);
    while (n > 0 && (text[n - 1] == '\n' || text[n - 1] == '\r' || text[n - 1] == ' '))
        n--;
    return rl > 0 && n > rl && !strncmp(text + n - rl, result, rl) &&
           strchr(" \n)}", text[n - rl - 1]);
}

static void read_options(const char *text, WebOptions *opt) {
    char v[128];
    tag_of(text, "WebPlayers", v, sizeof v);
    if (v[0]) {
        char a[16] = "", b[16] = "";
        sscanf(v, "%15s %15s", a, b);
        opt->player[0] = !strcmp(a, "engine") ? WEB_ENGINE : WEB_HUMAN;
        opt->player[1] = !strcmp(b, "engine") ? WEB_ENGINE : WEB_HUMAN;
    }
    tag_of(text, "WebLevel", v, sizeof v);
    if (atoi(v) >= 1 && atoi(v) <= 20)
        opt->level = atoi(v);
    tag_of(text, "WebMoveTime", v, sizeof v);
    if (atoi(v) >= 50 && atoi(v) <= 600000)
        opt->movetime_ms = atoi(v);
    int base = 0, inc = 0;
    tag_of(text, "WebClock", v, sizeof v);
    if (sscanf(v, "%d+%d", &base, &inc) == 2 && base > 0 && base <= 10800000 && inc >= 0 &&
        inc <= 600000)
        opt->clock_ms = base, opt->inc_ms = inc; /* Clock */
}

/* A game from its saved text (id and times from the caller); NULL with the reason
 * in why. */
static WebGame *game_of_text(const char *text, const char *id, time_t when, char *why,
                             size_t whylen) {
    // Step 1. Complete, then the game.
    if (!complete(text)) {
        snprintf(why, whylen, "cut short or damaged: no result marker at the end");
        return NULL;
    }
    char err[ENGINE_ERR_LEN], v[128];
    Game *g = engine_import(text, err, sizeof err);
    if (!g) {
        snprintf(why, whylen, "%s", err);
        return NULL;
    }
    // Step 2. The web app's tags.
    WebOptions opt = {{WEB_HUMAN, WEB_ENGINE}, 8, 1000, 0, 0};
    read_options(text, &opt);
    WebGame *w = web_game_new(g, &opt);
    long long left0 = 0, left1 = 0;
    tag_of(text, "WebClockLeft", v, sizeof v);
    if (opt.clock_ms && sscanf(v, "%lld %lld", &left0, &left1) == 2) /* Clock: where it stood */
        web_clock_init(&w->clock, opt.clock_ms, opt.inc_ms, left0 > 0 ? left0 : 1,
                       left1 > 0 ? left1 : 1);
    snprintf(w->id, sizeof w->id, "%.12s", id);
    tag_of(text, "WebCreated", v, sizeof v);
    w->created = atoll(v) > 0 ? (time_t)atoll(v) : when;
    w->updated = when;
    tag_of(text, "WebFirstPly", v, sizeof v);
    w->first_ply = atoi(v) > 0 && atoi(v) <= w->plies ? atoi(v) : 0;
    int draw = -1, takeback = -1;
    tag_of(text, "WebOffers", v, sizeof v);
    if (sscanf(v, "%d %d", &draw, &takeback) == 2) {
        w->draw_offer = draw == 0 || draw == 1 ? draw : -1;
        w->takeback_offer = takeback == 0 || takeback == 1 ? takeback : -1;
    }
    tag_of(text, "WebAborted", v, sizeof v);
    if (v[0]) {
        w->aborted = true;
        snprintf(w->forced_reason, sizeof w->forced_reason, "%s", v);
    } else if (engine_result(g).kind == RESULT_NONE) {
        tag_of(text, "Result", v, sizeof v);
        ResultKind k = !strcmp(v, "1-0")       ? RESULT_FIRST_WINS
                       : !strcmp(v, "0-1")     ? RESULT_SECOND_WINS
                       : !strcmp(v, "1/2-1/2") ? RESULT_DRAW
                                               : RESULT_NONE;
        if (k != RESULT_NONE) {
            w->forced = k;
            tag_of(text, "Termination", w->forced_reason, sizeof w->forced_reason);
            if (!w->forced_reason[0])
                snprintf(w->forced_reason, sizeof w->forced_reason, "game ended");
        }
    }
    return w;
}

/* One row being read. */
typedef struct {
    WebGame *w;
    bool found;
    char why[200];
} RowRead;

static bool take_game(void *ctx, const WebDbRow *r) {
    RowRead *rr = ctx;
    rr->found = true;
    // columns: id, version, created, updated, online, rated, invite, text
    rr->w = game_of_text(web_db_col_text(r, 7), web_db_col_text(r, 0), (time_t)web_db_col_int(r, 3),
                         rr->why, sizeof rr->why);
    if (!rr->w)
        return false;
    WebGame *w = rr->w;
    atomic_store(&w->stored, web_db_col_int(r, 1));
    w->version = (unsigned)web_db_col_int(r, 1);
    w->created = (time_t)web_db_col_int(r, 2);
    w->updated = (time_t)web_db_col_int(r, 3);
    w->online = web_db_col_int(r, 4) != 0;
    w->rated = web_db_col_int(r, 5) != 0;
    size_t n = 0;
    const unsigned char *inv = web_db_col_blob(r, 6, &n);
    if (inv && n == WEB_HASH_LEN)
        memcpy(w->invite, inv, WEB_HASH_LEN);
    return false;
}

static bool take_seat(void *ctx, const WebDbRow *r) {
    WebGame *w = ctx;
    int side = (int)web_db_col_int(r, 0);
    size_t n = 0;
    const unsigned char *h = web_db_col_blob(r, 1, &n);
    if (side < 0 || side > 1 || !h || n != WEB_HASH_LEN)
        return true;
    WebSeat *s = &w->seat[side];
    s->held = true;
    memcpy(s->holder, h, WEB_HASH_LEN);
    s->account = web_db_col_int(r, 2);
    snprintf(s->name, sizeof s->name, "%s", web_db_col_text(r, 3));
    return true;
}

/* The row of id as a new game; NULL with *e (404: no row; 422: unreadable, why). */
static WebGame *read_game(const WebStore *st, const char *id, char *why, size_t whylen,
                          WebError *e) {
    WebDbErr de;
    RowRead rr = {NULL, false, ""};
    WebDbArg a[1] = {web_db_text(id)};
    if (!web_db_query(st->db,
                      "SELECT id, version, created, updated, online, rated, invite, text "
                      "FROM games WHERE id = $1",
                      a, 1, take_game, &rr, &de)) {
        db_fail(e, "could not read the game", &de);
        return NULL;
    }
    if (!rr.found) {
        web_set_err(e, 404, "no game with that id");
        return NULL;
    }
    if (!rr.w) {
        snprintf(why, whylen, "%s", rr.why);
        web_set_err(e, 422, rr.why);
        return NULL;
    }
    if (!web_db_query(st->db, "SELECT side, holder, account, name FROM seats WHERE game = $1", a, 1,
                      take_seat, rr.w, &de)) {
        web_game_free(rr.w);
        db_fail(e, "could not read the game's seats", &de);
        return NULL;
    }
    return rr.w;
}

WebGame *web_store_read(const WebStore *st, const char *id, WebError *e) {
    char why[200];
    return read_game(st, id, why, sizeof why, e);
}

int web_store_reload(const WebStore *st, WebGame *w, WebError *e) {
    WebGame *f = web_store_read(st, w->id, e);
    if (!f)
        return -1;
    if (atomic_load(&f->stored) <= atomic_load(&w->stored)) {
        web_game_free(f);
        return 0;
    }
    // Step 1. What is saved, from the fresh copy; what is only this process's stays.
    Game *g = w->g;
    w->g = f->g;
    f->g = g;
    web_game_drop_search(w); /* its tables were for the old game */
    w->info = f->info;
    w->opt = f->opt;
    w->created = f->created;
    w->updated = f->updated;
    w->plies = f->plies;
    w->forced = f->forced;
    memcpy(w->forced_reason, f->forced_reason, sizeof w->forced_reason);
    w->aborted = f->aborted;
    w->first_ply = f->first_ply;
    w->draw_offer = f->draw_offer;
    w->takeback_offer = f->takeback_offer;
    w->clock = f->clock;
    w->online = f->online;
    w->rated = f->rated;
    memcpy(w->seat, f->seat, sizeof w->seat);
    memcpy(w->invite, f->invite, sizeof w->invite);
    atomic_store(&w->stored, atomic_load(&f->stored));
    // Step 2. Its readers see a new version; the engine's notes were for the old one.
    w->version++;
    w->has_info = w->has_eval = false;
    w->engine_error[0] = 0;
    web_refresh_before(w);
    web_game_free(f);
    changed(st, w); /* those watching it here see the other process's change */
    return 1;
}

bool web_store_refresh(const WebStore *st, WebGame *w) {
    if (web_db_kind(st->db) != WEB_DB_POSTGRES)
        return true; /* one process: what is in memory is the row */
    WebDbErr de;
    WebError e;
    WebDbArg a[1] = {web_db_text(w->id)};
    char v[32] = "";
    bool found = false;
    if (!web_db_value(st->db, "SELECT version FROM games WHERE id = $1", a, 1, v, sizeof v, &found,
                      &de))
        return false;
    if (!found || atoll(v) <= atomic_load(&w->stored))
        return true;
    return web_store_reload(st, w, &e) >= 0;
}

typedef struct {
    char (*ids)[WEB_ID_LEN];
    int64_t *versions; /* with the ids when the query's second column has them */
    int n, cap;
} Ids;

static bool take_id(void *ctx, const WebDbRow *r) {
    Ids *ids = ctx;
    if (ids->n == ids->cap) {
        ids->cap = ids->cap ? 2 * ids->cap : 256;
        ids->ids = realloc(ids->ids, (size_t)ids->cap * sizeof *ids->ids);
        ids->versions = realloc(ids->versions, (size_t)ids->cap * sizeof *ids->versions);
        if (!ids->ids || !ids->versions)
            abort();
    }
    ids->versions[ids->n] = web_db_cols(r) > 1 ? web_db_col_int(r, 1) : 0;
    snprintf(ids->ids[ids->n++], WEB_ID_LEN, "%.12s", web_db_col_text(r, 0));
    return true;
}

bool web_store_versions(const WebStore *st, void (*fn)(void *ctx, const char *id, int64_t version),
                        void *ctx) {
    // Step 1. The list, read whole: fn may wait for a write, which needs the database.
    Ids ids = {NULL, NULL, 0, 0};
    WebDbErr de;
    bool ok = web_db_query(st->db, "SELECT id, version FROM games", NULL, 0, take_id, &ids, &de);
    // Step 2. Each to fn.
    for (int i = 0; ok && i < ids.n; i++)
        fn(ctx, ids.ids[i], ids.versions[i]);
    free(ids.ids);
    free(ids.versions);
    return ok;
}

void web_store_load(WebStore *st, bool (*add)(void *ctx, WebGame *w), void *ctx) {
    Ids ids = {NULL, NULL, 0, 0};
    WebDbErr de;
    if (!web_db_query(st->db, "SELECT id FROM games ORDER BY created, id", NULL, 0, take_id, &ids,
                      &de)) {
        skip(st, web_db_name(st->db), de.msg);
        return;
    }
    for (int i = 0; i < ids.n; i++) {
        char why[200] = "";
        WebError e;
        WebGame *w = read_game(st, ids.ids[i], why, sizeof why, &e);
        if (!w) {
            skip(st, ids.ids[i], e.msg);
        } else if (!add(ctx, w)) {
            skip(st, ids.ids[i], "too many games, or a second row for the same id");
            web_game_free(w);
        }
    }
    free(ids.ids);
    free(ids.versions);
}

/* ---- the folder and the upgrade from files ---- */

/* mkdir -p */
static bool make_dirs(const char *dir) {
    char p[2048];
    snprintf(p, sizeof p, "%s", dir);
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = 0;
            if (mkdir(p, 0777) != 0 && errno != EEXIST)
                return false;
            *s = '/';
        }
    return mkdir(p, 0777) == 0 || errno == EEXIST;
}

/* ID.pgn, ID.sgn; with tmp, ID.pgn.tmp and ID.sgn.tmp */
static bool game_file(const char *n, bool tmp) {
    size_t want = tmp ? 20 : 16;
    return strlen(n) == want && web_id_valid(n, WEB_ID_LEN - 1) &&
           (!strncmp(n + 12, ".pgn", 4) || !strncmp(n + 12, ".sgn", 4)) &&
           (!tmp || !strcmp(n + 16, ".tmp"));
}

/* Imports one game file of the old folder (name: ID.pgn or ID.sgn) and moves it
 * into DIR/imported/; a file that cannot be read stays and is listed. */
static void import_file(WebStore *store, const char *name) {
    // Step 1. The whole file, if it is of a sane size and a complete game.
    char path[2400], why[200];
    snprintf(path, sizeof path, "%s/%s", store->dir, name);
    FILE *f = fopen(path, "rb");
    struct stat st;
    if (!f || fstat(fileno(f), &st) != 0 || st.st_size > 8 * WEB_MAX_BODY) {
        skip(store, name, f ? "too large" : strerror(errno));
        if (f)
            fclose(f);
        return;
    }
    char *text = malloc((size_t)st.st_size + 1);
    if (!text)
        abort();
    size_t n = fread(text, 1, (size_t)st.st_size, f);
    text[n] = 0;
    bool read_ok = !ferror(f) && n == (size_t)st.st_size;
    fclose(f);
    WebGame *w = NULL;
    if (!read_ok || strlen(text) != n)
        snprintf(why, sizeof why, "could not read it whole");
    else
        w = game_of_text(text, name, st.st_mtime, why, sizeof why);
    if (!w) {
        skip(store, name, why);
        free(text);
        return;
    }
    // Step 2. Its row, as the file has it, unless the database has the game already.
    WebDbErr de;
    char result[8];
    snprintf(result, sizeof result, "%s", web_result_token(web_result_of(w).kind));
    WebDbArg a[7] = {web_db_text(w->id),
                     web_db_text(kind_name(w->info.kind)),
                     web_db_text(w->info.name),
                     web_db_int((int64_t)w->created),
                     web_db_int((int64_t)w->updated),
                     web_db_text(result),
                     web_db_text(text)};
    bool ok = web_db_exec(store->db,
                          "INSERT INTO games (id, kind, variant, version, created, updated, "
                          "result, text) VALUES ($1, $2, $3, 1, $4, $5, $6, $7) "
                          "ON CONFLICT (id) DO NOTHING",
                          a, 7, NULL, &de);
    web_game_free(w);
    free(text);
    if (!ok) {
        skip(store, name, de.msg);
        return;
    }
    // Step 3. Out of the way, kept.
    char to[2500];
    snprintf(to, sizeof to, "%s/imported/%s", store->dir, name);
    if (rename(path, to) != 0)
        fprintf(stderr, "menagerie serve: imported %s but could not move it to %s: %s\n", path, to,
                strerror(errno));
}

static bool import_folder(WebStore *st, char *err, size_t errlen) {
    char sub[2200];
    snprintf(sub, sizeof sub, "%s/imported", st->dir);
    DIR *d = opendir(st->dir);
    if (!d) {
        snprintf(err, errlen, "cannot read the data folder %s: %s", st->dir, strerror(errno));
        return false;
    }
    struct dirent *de;
    bool made = false;
    while ((de = readdir(d))) {
        char path[2400];
        snprintf(path, sizeof path, "%s/%s", st->dir, de->d_name);
        if (game_file(de->d_name, true)) { /* a write that a stop cut short */
            if (unlink(path) == 0)
                fprintf(stderr, "menagerie serve: removed %s (a save cut short)\n", path);
        } else if (game_file(de->d_name, false)) {
            if (!made && mkdir(sub, 0777) != 0 && errno != EEXIST) {
                snprintf(err, errlen, "cannot make %s: %s", sub, strerror(errno));
                closedir(d);
                return false;
            }
            made = true;
            import_file(st, de->d_name);
        }
    }
    closedir(d);
    return true;
}

bool web_store_open(WebStore *st, const char *dir, const char *db_url, char *err, size_t errlen) {
    char *datadir = st->dir;
    st->nskipped = 0;
    st->db = NULL;
    if (strlen(dir) >= sizeof st->dir - 40) {
        snprintf(err, errlen, "data folder name too long");
        return false;
    }
    snprintf(datadir, sizeof st->dir, "%s", dir);
    size_t l = strlen(datadir);
    while (l > 1 && datadir[l - 1] == '/')
        datadir[--l] = 0;
    if (!make_dirs(datadir)) {
        snprintf(err, errlen, "cannot make the data folder %s: %s", datadir, strerror(errno));
        return false;
    }
    // Step 1. The folder must take a file: write, flush and remove one.
    char probe[2200];
    snprintf(probe, sizeof probe, "%s/.write-test-%ld", datadir, (long)getpid());
    FILE *f = fopen(probe, "w");
    bool ok = f && fputs("menagerie\n", f) >= 0 && fflush(f) == 0 && fsync(fileno(f)) == 0;
    int code = errno;
    if (f && fclose(f) != 0 && ok)
        ok = false, code = errno;
    if (f)
        unlink(probe);
    if (!ok) {
        snprintf(err, errlen, "cannot write in the data folder %s: %s", datadir, strerror(code));
        return false;
    }
    // Step 2. The database and its schema.
    char def[2200];
    snprintf(def, sizeof def, "sqlite:%s/menagerie.db", datadir);
    WebDbErr de;
    st->db = web_db_open(db_url && db_url[0] ? db_url : def, &de);
    if (!st->db) {
        snprintf(err, errlen, "%s", de.msg);
        return false;
    }
    if (!web_db_migrate(st->db, web_schema, web_schema_steps, &de)) {
        snprintf(err, errlen, "cannot set up the database %s: %s", web_db_name(st->db), de.msg);
        web_store_close(st);
        return false;
    }
    // Step 3. The old folder's files.
    if (!import_folder(st, err, errlen)) {
        web_store_close(st);
        return false;
    }
    return true;
}

void web_store_close(WebStore *st) {
    web_db_close(st->db);
    st->db = NULL;
}
