/* api.c - the JSON API under /api/: an exact route table (method and path
 * segments, ":id" standing for a game id), each route a handler that reads its
 * JSON body, calls the games (games/play.c, games/registry.c), study.c or
 * analysis.c and answers with JSON (errors: {"error": "..."}). */
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "app/web/api.h"
#include "app/web/games/play.h"
#include "app/web/games/view.h"
#include "app/web/online/limits.h"
#include "app/web/online/password.h"
#include "app/web/online/secret.h"
#include "app/web/people.h"
#include "app/web/study.h"

#define MAX_SEGS 8

typedef struct {
    WebApi *api;
    const WebClient *who;
    const char *id;    /* the :id segment, or NULL */
    const char *name;  /* the :name segment, or NULL */
    const char *query; /* what followed '?' in the address, or "" */
    const cJSON *body; /* a JSON object ({} when the request had no body) */
} Req;

typedef void (*Handler)(const Req *rq, WebReply *out);

/* ---- reading the body ---- */

/* An optional integer field in [lo, hi]; false (and 400) when present but wrong. */
static bool opt_int(const cJSON *o, const char *key, int lo, int hi, int *val, WebReply *out) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!v || cJSON_IsNull(v))
        return true;
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) ||
        v->valuedouble != floor(v->valuedouble) || v->valuedouble < lo || v->valuedouble > hi) {
        char msg[160];
        snprintf(msg, sizeof msg, "\"%s\" must be a whole number from %d to %d", key, lo, hi);
        web_reply_error(out, 400, msg);
        return false;
    }
    *val = (int)v->valuedouble;
    return true;
}

/* An optional string field of at most max characters. */
static bool opt_str(const cJSON *o, const char *key, size_t max, const char **val, WebReply *out) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!v || cJSON_IsNull(v))
        return true;
    if (!cJSON_IsString(v) || strlen(v->valuestring) > max) {
        char msg[160];
        snprintf(msg, sizeof msg, "\"%s\" must be a string of at most %zu characters", key, max);
        web_reply_error(out, 400, msg);
        return false;
    }
    *val = v->valuestring;
    return true;
}

/* "players": ["human"|"engine", "human"|"engine"] */
static bool opt_players(const cJSON *o, WebOptions *opt, WebReply *out) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "players");
    if (!v || cJSON_IsNull(v))
        return true;
    bool ok = cJSON_IsArray(v) && cJSON_GetArraySize(v) == 2;
    for (int s = 0; ok && s < 2; s++) {
        const cJSON *p = cJSON_GetArrayItem(v, s);
        ok = cJSON_IsString(p) &&
             (!strcmp(p->valuestring, "human") || !strcmp(p->valuestring, "engine"));
        if (ok)
            opt->player[s] = !strcmp(p->valuestring, "engine") ? WEB_ENGINE : WEB_HUMAN;
    }
    if (!ok)
        web_reply_error(out, 400, "\"players\" must be two of \"human\" and \"engine\"");
    return ok;
}

static bool read_options(const cJSON *b, WebOptions *opt, WebReply *out) {
    return opt_players(b, opt, out) && opt_int(b, "level", 1, 20, &opt->level, out) &&
           opt_int(b, "movetime_ms", 50, 600000, &opt->movetime_ms, out) &&
           opt_int(b, "clock_ms", 0, 10800000, &opt->clock_ms, out) &&
           opt_int(b, "inc_ms", 0, 600000, &opt->inc_ms, out);
}

/* ---- replies ---- */

static void reply_state(const Req *rq, WebReply *out, int status, WebGame *w) {
    cJSON *st = web_game_state(rq->api->games, w, &rq->who->actor);
    if (rq->api->events)
        web_events_presence(rq->api->events, st);
    web_reply_json(out, status, st);
}

static WebGame *game_or_fail(const Req *rq, WebReply *out) {
    WebError e;
    WebGame *w = web_game_get(rq->api->games, rq->id, &e);
    if (!w)
        web_reply_fail(out, &e);
    return w;
}

/* ---- handlers ---- */

/* The order of game lists: the built-in games by their `order` (those without
 * one after, by name), then the user's games the same way. */
typedef struct {
    cJSON *o;
    const char *name;
    int order;
    bool user;
} Listed;

static int listed_cmp(const void *a, const void *b) {
    const Listed *x = a, *y = b;
    if (x->user != y->user)
        return x->user - y->user;
    int ox = x->order ? x->order : INT_MAX, oy = y->order ? y->order : INT_MAX;
    if (ox != oy)
        return ox < oy ? -1 : 1;
    return strcmp(x->name, y->name);
}

static char *make_variants(void) {
    Listed list[64];
    int n = 0;
    for (const char *const *nm = engine_game_names(); *nm && n < 64; nm++) {
        char err[ENGINE_ERR_LEN], pos[1024];
        Game *g = engine_new(*nm, NULL, err, sizeof err);
        if (!g)
            continue;
        GameInfo gi;
        engine_info(g, &gi);
        engine_position_text(g, pos, sizeof pos);
        engine_free(g);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", *nm);
        cJSON_AddStringToObject(o, "title", engine_game_title(*nm));
        cJSON_AddStringToObject(o, "summary", gi.summary);
        cJSON_AddStringToObject(o, "icon", gi.icon);
        cJSON_AddBoolToObject(o, "user", gi.user);
        cJSON_AddStringToObject(o, "kind", gi.kind == KIND_MANCALA ? "mancala" : "chess");
        cJSON_AddNumberToObject(o, "files", gi.files);
        cJSON_AddNumberToObject(o, "ranks", gi.ranks);
        cJSON_AddBoolToObject(o, "rotated", gi.rotated);
        cJSON_AddBoolToObject(o, "gating", gi.gating);
        cJSON_AddNumberToObject(o, "move_rule", gi.move_rule);
        cJSON_AddStringToObject(o, "start", pos);
        cJSON *setups = cJSON_AddArrayToObject(o, "setups");
        for (const char *const *s = engine_setups(*nm); *s; s++)
            cJSON_AddItemToArray(setups, cJSON_CreateString(*s));
        cJSON *pieces = cJSON_AddArrayToObject(o, "pieces");
        for (int i = 0; i < gi.npieces && i < 31; i++) {
            cJSON *p = cJSON_CreateObject();
            char l[2] = {gi.piece[i].letter, 0};
            cJSON_AddStringToObject(p, "letter", l);
            cJSON_AddStringToObject(p, "name", gi.piece[i].name);
            cJSON_AddStringToObject(p, "betza", gi.piece[i].betza);
            cJSON_AddItemToArray(pieces, p);
        }
        cJSON_AddNumberToObject(o, "order", gi.order);
        list[n++] = (Listed){o, *nm, gi.order, gi.user};
    }
    qsort(list, (size_t)n, sizeof list[0], listed_cmp);
    cJSON *arr = cJSON_CreateArray();
    for (int i = 0; i < n; i++)
        cJSON_AddItemToArray(arr, list[i].o);
    char *text = cJSON_PrintUnformatted(arr);
    cJSON_Delete(arr);
    return text;
}

static void api_variants(const Req *rq, WebReply *out) {
    WebApi *api = rq->api;
    pthread_mutex_lock(&api->variants_lock);
    if (!api->variants_text)
        api->variants_text = make_variants();
    out->status = 200;
    out->body = strdup(api->variants_text ? api->variants_text : "[]");
    pthread_mutex_unlock(&api->variants_lock);
    if (!out->body)
        abort();
    out->len = strlen(out->body);
    out->type = "application/json";
}

/* ?player=NAME: only the games that NAME plays in. */
static void api_list(const Req *rq, WebReply *out) {
    if (!strncmp(rq->query, "player=", 7)) {
        char name[WEB_NAME_LEN];
        snprintf(name, sizeof name, "%.*s", (int)strcspn(rq->query + 7, "&"), rq->query + 7);
        web_reply_json(out, 200, web_people_games(&rq->api->people, name, 200));
        return;
    }
    web_reply_json(out, 200, web_games_list(rq->api->games));
}

static void api_stats(const Req *rq, WebReply *out) {
    web_reply_json(out, 200, web_games_stats(rq->api->games));
}

static bool known_game(const char *name) {
    for (const char *const *nm = engine_game_names(); *nm; nm++)
        if (!strcmp(*nm, name))
            return true;
    return false;
}

/* Plays a Hannibal set-up move for the side to move: "MbFh" or "random". */
static bool play_setup(Game *g, const char *text, WebReply *out) {
    MoveDesc *md = malloc(ENGINE_MAX_MOVES * sizeof *md);
    if (!md)
        abort();
    int n = engine_moves(g, md, ENGINE_MAX_MOVES), k = 0;
    for (int i = 0; i < n; i++)
        if (md[i].kind == 's')
            md[k++] = md[i];
    const char *pick = NULL;
    if (k && !strcmp(text, "random"))
        pick = md[rand() % k].text;
    for (int i = 0; i < k && !pick; i++)
        if (!strcmp(md[i].text, text))
            pick = md[i].text;
    char err[ENGINE_ERR_LEN];
    bool ok = pick && engine_play(g, pick, err, sizeof err);
    if (!ok) {
        char msg[200];
        snprintf(msg, sizeof msg, "\"%.40s\" is not a gate placement here (write it like MbFh)",
                 text);
        web_reply_error(out, 400, msg);
    }
    free(md);
    return ok;
}

/* Lists the new game g and answers with its state (201); made (may be NULL) gets
 * its id, "" when it could not be made. */
static void start(const Req *rq, Game *g, const WebOptions *opt, const WebOnline *online,
                  const char *invite, char made[WEB_ID_LEN], WebReply *out) {
    WebGames *gs = rq->api->games;
    WebError e;
    WebGame *w = web_game_add(gs, g, opt, online, &e);
    if (!w) {
        web_reply_fail(out, &e);
        return;
    }
    if (made)
        memcpy(made, w->id, WEB_ID_LEN);
    cJSON *st = web_game_state(gs, w, NULL);
    const cJSON *side = cJSON_GetObjectItem(st, "side");
    const cJSON *over = cJSON_GetObjectItem(cJSON_GetObjectItem(st, "result"), "over");
    bool engine_turn = cJSON_IsNumber(side) && (side->valueint == 0 || side->valueint == 1) &&
                       !cJSON_IsTrue(over) && opt->player[side->valueint] == WEB_ENGINE;
    cJSON_Delete(st);
    if (engine_turn)
        web_game_go(gs, w, 0, 0, NULL);
    st = web_game_state(gs, w, &rq->who->actor);
    if (invite) /* told to the creator alone, once */
        cJSON_AddStringToObject(st, "invite", invite);
    web_reply_json(out, 201, st);
    web_game_put(w);
}

/* A player's name as shown ("name", default Anonymous): password.h's rule. */
/* The player's name: a logged-in player's account name (the body's is ignored),
 * else "name" (a guest's, by the name rule; "Anonymous" when absent). */
static bool read_name(const Req *rq, char name[WEB_NAME_LEN], WebReply *out) {
    const cJSON *b = rq->body;
    const char *v = "Anonymous", *why;
    if (rq->who->actor.account) {
        snprintf(name, WEB_NAME_LEN, "%s", rq->who->actor.name);
        return true;
    }
    if (!opt_str(b, "name", WEB_NAME_LEN - 1, &v, out))
        return false;
    if ((why = web_password_name_rule(v))) {
        char msg[200];
        snprintf(msg, sizeof msg, "\"name\": %s", why);
        web_reply_error(out, 400, msg);
        return false;
    }
    snprintf(name, WEB_NAME_LEN, "%s", v);
    return true;
}

/* "rated": true: only a logged-in player may offer a rated game (403). */
static bool read_rated(const Req *rq, bool *rated, WebReply *out) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(rq->body, "rated");
    *rated = cJSON_IsTrue(v);
    if (v && !cJSON_IsNull(v) && !cJSON_IsBool(v)) {
        web_reply_error(out, 400, "\"rated\" must be true or false");
        return false;
    }
    if (*rated && !rq->who->actor.account) {
        web_reply_error(out, 403, "log in to play a rated game");
        return false;
    }
    return true;
}

/* "online": true: a game between people over the network. The creator takes a
 * seat ("side": "white", "black" or "random", the default) under "name"; with
 * "invite" (the default) the other seat is for whoever opens the join link, whose
 * token the reply holds; without, anyone may take it. */
static bool read_online(const Req *rq, WebOptions *opt, WebOnline *on,
                        char invite[WEB_SECRET_HEX_LEN + 1], WebReply *out) {
    const char *side = "random";
    const cJSON *inv = cJSON_GetObjectItemCaseSensitive(rq->body, "invite");
    char name[WEB_NAME_LEN];
    if (!opt_str(rq->body, "side", 10, &side, out) || !read_name(rq, name, out))
        return false;
    if (inv && !cJSON_IsBool(inv)) {
        web_reply_error(out, 400, "\"invite\" must be true or false");
        return false;
    }
    bool rated;
    if (!read_rated(rq, &rated, out))
        return false;
    int s = !strcmp(side, "white") ? 0 : !strcmp(side, "black") ? 1 : -1;
    if (s < 0 && strcmp(side, "random")) {
        web_reply_error(out, 400, "\"side\" must be \"white\", \"black\" or \"random\"");
        return false;
    }
    if (s < 0)
        s = (int)randombytes_uniform(2);
    if (!rq->who->actor.known) {
        web_reply_error(out, 403, "no session came with the request (are cookies allowed?)");
        return false;
    }
    if (rq->who->limited &&
        !web_limit_take(rq->api->seek_limit, rq->who->addr, web_now_ms(), NULL)) {
        web_reply_error(out, 429, "too many games offered from your address: wait a minute");
        return false;
    }
    opt->player[0] = opt->player[1] = WEB_HUMAN;
    memset(on, 0, sizeof *on);
    on->seat[s].held = true;
    memcpy(on->seat[s].holder, rq->who->actor.holder, WEB_HASH_LEN);
    on->seat[s].account = rq->who->actor.account;
    snprintf(on->seat[s].name, sizeof on->seat[s].name, "%s", name);
    on->rated = rated;
    invite[0] = 0;
    if ((!inv || cJSON_IsTrue(inv)) &&
        !(web_secret_new(invite) && web_secret_hash(invite, on->invite))) {
        web_reply_error(out, 500, "no random numbers for an invitation");
        return false;
    }
    return true;
}

/* The game a new-game request asks for (variant, setup, fen, gates), or NULL with the
 * error in out. */
static Game *make_game(const cJSON *b, WebReply *out) {
    const char *variant = NULL, *setup = NULL, *fen = NULL;
    if (!opt_str(b, "variant", 40, &variant, out) || !opt_str(b, "setup", 40, &setup, out) ||
        !opt_str(b, "fen", 500, &fen, out))
        return NULL;
    if (!variant) {
        web_reply_error(out, 400, "\"variant\" is missing (see GET /api/variants)");
        return NULL;
    }
    if (!known_game(variant)) {
        web_reply_error(out, 404, "no such game (see GET /api/variants)");
        return NULL;
    }
    char err[ENGINE_ERR_LEN], start_fen[1024];
    if (setup && !fen && strcmp(setup, "random")) {
        if (engine_start_fen(variant, setup, start_fen, sizeof start_fen, err, sizeof err) != 0) {
            web_reply_error(out, 400, err);
            return NULL;
        }
        fen = start_fen;
    } else if (!fen && engine_setups(variant)[0]) {
        if (engine_start_fen(variant, NULL, start_fen, sizeof start_fen, err, sizeof err) == 0)
            fen = start_fen;
    }
    Game *g = engine_new(variant, fen, err, sizeof err);
    if (!g) {
        web_reply_error(out, 400, err);
        return NULL;
    }
    const cJSON *gates = cJSON_GetObjectItemCaseSensitive(b, "gates");
    if (gates && !cJSON_IsNull(gates)) {
        bool shape = cJSON_IsArray(gates) && cJSON_GetArraySize(gates) == 2;
        for (int s = 0; shape && s < 2; s++) {
            const cJSON *x = cJSON_GetArrayItem(gates, s);
            shape = cJSON_IsNull(x) || (cJSON_IsString(x) && strlen(x->valuestring) < 16);
        }
        if (!shape) {
            engine_free(g);
            web_reply_error(out, 400, "\"gates\" must be two of null, \"random\" or like \"MbFh\"");
            return NULL;
        }
        for (int s = 0; s < 2; s++) {
            const cJSON *x = cJSON_GetArrayItem(gates, s);
            if (cJSON_IsNull(x))
                continue;
            if (engine_side_to_move(g) != (Side)s) {
                engine_free(g);
                web_reply_error(out, 400, "Black's gates can only be placed after White's");
                return NULL;
            }
            if (!play_setup(g, x->valuestring, out)) {
                engine_free(g);
                return NULL;
            }
        }
    }
    return g;
}

static void api_new(const Req *rq, WebReply *out) {
    WebOptions opt = {{WEB_HUMAN, WEB_ENGINE}, WEB_LEVEL, WEB_MOVETIME, 0, 0};
    if (!read_options(rq->body, &opt, out))
        return;
    const cJSON *online = cJSON_GetObjectItemCaseSensitive(rq->body, "online");
    WebOnline on;
    char invite[WEB_SECRET_HEX_LEN + 1] = "";
    if (online && !cJSON_IsBool(online)) {
        web_reply_error(out, 400, "\"online\" must be true or false");
        return;
    }
    if (cJSON_IsTrue(online) && !read_online(rq, &opt, &on, invite, out))
        return;
    Game *g = make_game(rq->body, out);
    if (g)
        start(rq, g, &opt, cJSON_IsTrue(online) ? &on : NULL, invite[0] ? invite : NULL, NULL, out);
}

/* ---- the lobby ---- */

cJSON *web_api_lobby(WebApi *api, const WebActor *viewer) {
    cJSON *o = cJSON_CreateObject();
    unsigned version;
    cJSON_AddItemToObject(o, "seeks", web_lobby_json(api->lobby, viewer, &version));
    cJSON_AddNumberToObject(o, "version", version);
    cJSON *live = cJSON_AddArrayToObject(o, "games");
    int n;
    WebGame **list = web_games_online(api->games, &n);
    for (int i = 0; i < n; i++) {
        WebGame *w = list[i];
        pthread_mutex_lock(&w->lock);
        if (!w->removed && web_seats_full(w) && !web_is_over(w))
            cJSON_AddItemToArray(live, web_view_entry(w));
        pthread_mutex_unlock(&w->lock);
        web_game_put(w);
    }
    free(list);
    return o;
}

static void api_lobby(const Req *rq, WebReply *out) {
    web_reply_json(out, 200, web_api_lobby(rq->api, &rq->who->actor));
}

/* A seek: the new-game request of an online game ({variant, setup?, gates?, side?,
 * clock_ms?, inc_ms?, name?}), checked by making the game once. */
static void api_seek(const Req *rq, WebReply *out) {
    WebOptions opt = {{WEB_HUMAN, WEB_HUMAN}, WEB_LEVEL, WEB_MOVETIME, 0, 0};
    const char *side = "random";
    char name[WEB_NAME_LEN];
    bool rated;
    if (!read_options(rq->body, &opt, out) || !read_name(rq, name, out) ||
        !opt_str(rq->body, "side", 10, &side, out) || !read_rated(rq, &rated, out))
        return;
    if (strcmp(side, "white") && strcmp(side, "black") && strcmp(side, "random")) {
        web_reply_error(out, 400, "\"side\" must be \"white\", \"black\" or \"random\"");
        return;
    }
    if (cJSON_GetObjectItemCaseSensitive(rq->body, "fen")) {
        web_reply_error(out, 400, "a seek starts from the game's own set-up: no \"fen\"");
        return;
    }
    Game *g = make_game(rq->body, out);
    if (!g)
        return;
    engine_free(g);
    if (rq->who->limited &&
        !web_limit_take(rq->api->seek_limit, rq->who->addr, web_now_ms(), NULL)) {
        web_reply_error(out, 429, "too many seeks from your address: wait a minute");
        return;
    }
    cJSON *keep = cJSON_CreateObject();
    static const char *const keys[] = {"variant",  "setup",  "gates", "side",
                                       "clock_ms", "inc_ms", "rated"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(rq->body, keys[i]);
        if (v)
            cJSON_AddItemToObject(keep, keys[i], cJSON_Duplicate(v, true));
    }
    char id[WEB_ID_LEN];
    WebError e;
    bool ok = web_lobby_add(rq->api->lobby, &rq->who->actor, name, keep, id, &e);
    cJSON_Delete(keep);
    if (!ok) {
        web_reply_fail(out, &e);
        return;
    }
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "id", id);
    web_reply_json(out, 201, o);
}

static void api_seek_cancel(const Req *rq, WebReply *out) {
    WebError e;
    if (!web_lobby_cancel(rq->api->lobby, rq->id, &rq->who->actor, &e)) {
        web_reply_fail(out, &e);
        return;
    }
    cJSON *o = cJSON_CreateObject();
    cJSON_AddBoolToObject(o, "cancelled", true);
    web_reply_json(out, 200, o);
}

/* {name?}: the seek becomes an online game between its maker and the taker. */
static void api_seek_accept(const Req *rq, WebReply *out) {
    char name[WEB_NAME_LEN], *text = NULL;
    WebSeat owner;
    WebError e;
    if (!read_name(rq, name, out))
        return;
    if (!web_lobby_take(rq->api->lobby, rq->id, &rq->who->actor, &text, &owner, &e)) {
        web_reply_fail(out, &e);
        return;
    }
    cJSON *opts = cJSON_Parse(text);
    free(text);
    bool rated = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(opts, "rated"));
    WebOptions opt = {{WEB_HUMAN, WEB_HUMAN}, WEB_LEVEL, WEB_MOVETIME, 0, 0};
    Game *g = NULL;
    if (rated && !rq->who->actor.account)
        web_reply_error(out, 403, "log in to play a rated game");
    else if (opts && read_options(opts, &opt, out))
        g = make_game(opts, out);
    char made[WEB_ID_LEN] = "";
    if (g) {
        const cJSON *side = cJSON_GetObjectItemCaseSensitive(opts, "side");
        const char *sv = cJSON_IsString(side) ? side->valuestring : "random";
        int s = !strcmp(sv, "white") ? 0 : !strcmp(sv, "black") ? 1 : (int)randombytes_uniform(2);
        WebOnline on;
        memset(&on, 0, sizeof on);
        on.seat[s] = owner;
        on.seat[s].held = on.seat[1 - s].held = true;
        memcpy(on.seat[1 - s].holder, rq->who->actor.holder, WEB_HASH_LEN);
        on.seat[1 - s].account = rq->who->actor.account;
        snprintf(on.seat[1 - s].name, WEB_NAME_LEN, "%s", name);
        on.rated = rated && owner.account && rq->who->actor.account;
        start(rq, g, &opt, &on, NULL, made, out);
    } else if (!opts && !rated) {
        web_reply_error(out, 500, "the seek's options could not be read");
    }
    cJSON_Delete(opts);
    web_lobby_matched(rq->api->lobby, rq->id, made[0] ? made : NULL);
}

static void api_import(const Req *rq, WebReply *out) {
    const char *pgn = NULL;
    WebOptions opt = {{WEB_HUMAN, WEB_HUMAN}, WEB_LEVEL, WEB_MOVETIME, 0, 0};
    if (!opt_str(rq->body, "pgn", WEB_MAX_BODY, &pgn, out) || !read_options(rq->body, &opt, out))
        return;
    if (!pgn) {
        web_reply_error(out, 400, "\"pgn\" is missing");
        return;
    }
    char err[ENGINE_ERR_LEN];
    Game *g = engine_import(pgn, err, sizeof err);
    if (!g) {
        web_reply_error(out, 400, err);
        return;
    }
    start(rq, g, &opt, NULL, NULL, NULL, out);
}

static void api_state(const Req *rq, WebReply *out) {
    WebGame *w = game_or_fail(rq, out);
    if (!w)
        return;
    reply_state(rq, out, 200, w);
    web_game_put(w);
}

static void api_delete(const Req *rq, WebReply *out) {
    WebError e;
    WebGame *w = game_or_fail(rq, out);
    if (!w)
        return;
    bool online = w->online; /* set when made, never changed */
    web_game_put(w);
    if (online) {
        web_reply_error(out, 403, "a game between people stays on the site: it cannot be deleted");
        return;
    }
    if (!web_game_delete(rq->api->games, rq->id, &e)) {
        web_reply_fail(out, &e);
        return;
    }
    cJSON *o = cJSON_CreateObject();
    cJSON_AddBoolToObject(o, "deleted", true);
    cJSON_AddStringToObject(o, "id", rq->id);
    web_reply_json(out, 200, o);
}

static void api_moves(const Req *rq, WebReply *out) {
    WebGame *w = game_or_fail(rq, out);
    if (!w)
        return;
    web_reply_json(out, 200, web_game_moves(w));
    web_game_put(w);
}

/* {move, lag_ms?}: lag_ms, the page's measure of its network delay (clock.h) */
static void api_move(const Req *rq, WebReply *out) {
    const char *move = NULL;
    int lag = 0;
    if (!opt_str(rq->body, "move", ENGINE_MOVE_TEXT - 1, &move, out) ||
        !opt_int(rq->body, "lag_ms", 0, 10000, &lag, out))
        return;
    if (!move || !move[0]) {
        web_reply_error(out, 400, "\"move\" is missing (e.g. {\"move\": \"e2e4\"})");
        return;
    }
    WebGame *w = game_or_fail(rq, out);
    if (!w)
        return;
    WebError e;
    if (web_game_move(rq->api->games, w, &rq->who->actor, move, lag, &e))
        reply_state(rq, out, 200, w);
    else
        web_reply_fail(out, &e);
    web_game_put(w);
}

static void api_go(const Req *rq, WebReply *out) {
    int level = 0, movetime = 0;
    if (!opt_int(rq->body, "level", 1, 20, &level, out) ||
        !opt_int(rq->body, "movetime_ms", 50, 600000, &movetime, out))
        return;
    WebGame *w = game_or_fail(rq, out);
    if (!w)
        return;
    WebError e;
    if (web_game_go(rq->api->games, w, level, movetime, &e))
        reply_state(rq, out, 202, w);
    else
        web_reply_fail(out, &e);
    web_game_put(w);
}

static void api_stop(const Req *rq, WebReply *out) {
    WebGame *w = game_or_fail(rq, out);
    if (!w)
        return;
    WebError e;
    if (web_game_stop(w, &e))
        reply_state(rq, out, 200, w);
    else
        web_reply_fail(out, &e);
    web_game_put(w);
}

static void api_undo(const Req *rq, WebReply *out) {
    int count = 1;
    if (!opt_int(rq->body, "count", 1, 100000, &count, out))
        return;
    WebGame *w = game_or_fail(rq, out);
    if (!w)
        return;
    WebError e;
    if (web_game_undo(rq->api->games, w, &rq->who->actor, count, &e))
        reply_state(rq, out, 200, w);
    else
        web_reply_fail(out, &e);
    web_game_put(w);
}

/* "side": 0/1, "first"/"second", "white"/"black" or "a"/"b"; absent: the person's. */
static void api_resign(const Req *rq, WebReply *out) {
    int side = -1;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(rq->body, "side");
    if (cJSON_IsNumber(v) && (v->valuedouble == 0 || v->valuedouble == 1)) {
        side = (int)v->valuedouble;
    } else if (cJSON_IsString(v)) {
        static const char *const names[][2] = {{"first", "second"}, {"white", "black"}, {"a", "b"}};
        for (int i = 0; i < 3; i++)
            for (int s = 0; s < 2; s++)
                if (!strcmp(v->valuestring, names[i][s]))
                    side = s;
    }
    if (v && !cJSON_IsNull(v) && side < 0) {
        web_reply_error(out, 400, "\"side\" must be 0, 1, \"white\", \"black\", \"a\" or \"b\"");
        return;
    }
    WebGame *w = game_or_fail(rq, out);
    if (!w)
        return;
    WebError e;
    if (web_game_resign(rq->api->games, w, &rq->who->actor, side, &e))
        reply_state(rq, out, 200, w);
    else
        web_reply_fail(out, &e);
    web_game_put(w);
}

static void api_draw(const Req *rq, WebReply *out) {
    WebGame *w = game_or_fail(rq, out);
    if (!w)
        return;
    WebError e;
    bool accepted;
    if (web_game_draw(rq->api->games, w, &rq->who->actor, &accepted, &e)) {
        cJSON *st = web_game_state(rq->api->games, w, &rq->who->actor);
        cJSON_AddBoolToObject(st, "draw_accepted", accepted);
        web_reply_json(out, 200, st);
    } else {
        web_reply_fail(out, &e);
    }
    web_game_put(w);
}

static void api_options(const Req *rq, WebReply *out) {
    WebOptions opt = {{WEB_HUMAN, WEB_HUMAN}, 0, 0, 0, 0};
    if (!read_options(rq->body, &opt, out))
        return;
    WebGame *w = game_or_fail(rq, out);
    if (!w)
        return;
    WebError e;
    if (web_game_options(rq->api->games, w, cJSON_GetObjectItemCaseSensitive(rq->body, "players"),
                         opt.level, opt.movetime_ms, &e))
        reply_state(rq, out, 200, w);
    else
        web_reply_fail(out, &e);
    web_game_put(w);
}

static void api_export(const Req *rq, WebReply *out) {
    WebGame *w = game_or_fail(rq, out);
    if (!w)
        return;
    char *text = web_game_export(w, out->filename, sizeof out->filename);
    web_game_put(w);
    if (!text) {
        out->filename[0] = 0;
        web_reply_error(out, 500, "the game is too long to export");
        return;
    }
    out->status = 200;
    out->body = text;
    out->len = strlen(text);
    out->type = "text/plain; charset=utf-8";
}

static void api_abort(const Req *rq, WebReply *out) {
    WebGame *w = game_or_fail(rq, out);
    if (!w)
        return;
    WebError e;
    if (web_game_abort(rq->api->games, w, &rq->who->actor, &e))
        reply_state(rq, out, 200, w);
    else
        web_reply_fail(out, &e);
    web_game_put(w);
}

/* A seat's player is away: no stream of theirs open now or within WEB_GONE_S. */
static bool seat_gone(void *ctx, const char *id, int side) {
    WebEvents *ev = ctx;
    return !ev || !web_events_present(ev, id, side, WEB_GONE_S);
}

/* {"result": "win" (the default) or "draw"}: against an opponent who left. */
static void api_claim(const Req *rq, WebReply *out) {
    const char *result = "win";
    if (!opt_str(rq->body, "result", 8, &result, out))
        return;
    if (strcmp(result, "win") && strcmp(result, "draw")) {
        web_reply_error(out, 400, "\"result\" must be \"win\" or \"draw\"");
        return;
    }
    WebGame *w = game_or_fail(rq, out);
    if (!w)
        return;
    WebError e;
    if (web_game_claim(rq->api->games, w, &rq->who->actor, !strcmp(result, "win"), seat_gone,
                       rq->api->events, &e))
        reply_state(rq, out, 200, w);
    else
        web_reply_fail(out, &e);
    web_game_put(w);
}

/* {name?, token?}: the free seat of an online game. */
static void api_join(const Req *rq, WebReply *out) {
    const char *token = NULL;
    char name[WEB_NAME_LEN];
    unsigned char hash[WEB_HASH_LEN];
    if (!read_name(rq, name, out) || !opt_str(rq->body, "token", 80, &token, out))
        return;
    if (token && !web_secret_hash(token, hash)) {
        web_reply_error(out, 403, "that is not an invitation token of this site");
        return;
    }
    WebGame *w = game_or_fail(rq, out);
    if (!w)
        return;
    WebError e;
    if (web_game_join(rq->api->games, w, &rq->who->actor, token ? hash : NULL, name, &e))
        reply_state(rq, out, 200, w);
    else
        web_reply_fail(out, &e);
    web_game_put(w);
}

/* Routes served by study.c. */
static void api_positions(const Req *rq, WebReply *out) {
    web_study_positions(rq->api->games, rq->id, out);
}
static void api_diagram(const Req *rq, WebReply *out) {
    web_study_diagram(rq->body, out);
}
static void api_check(const Req *rq, WebReply *out) {
    web_study_check(rq->body, out);
}
static void api_levels(const Req *rq, WebReply *out) {
    (void)rq;
    web_study_levels(out);
}
/* Routes served by analysis.c. */
static void api_analyse(const Req *rq, WebReply *out) {
    web_analysis_start(rq->api->analysis, rq->id, rq->body, out);
}
static void api_analysis(const Req *rq, WebReply *out) {
    web_analysis_get(rq->api->analysis, rq->id, out);
}

/* Routes served by people.c. */
static WebPerson person(const Req *rq) {
    return (WebPerson){&rq->who->actor, rq->who->addr, rq->who->limited};
}
static void api_register(const Req *rq, WebReply *out) {
    WebPerson p = person(rq);
    web_people_register(&rq->api->people, &p, (cJSON *)rq->body, out); /* ours: wiped there */
}
static void api_login(const Req *rq, WebReply *out) {
    WebPerson p = person(rq);
    web_people_login(&rq->api->people, &p, (cJSON *)rq->body, out);
}
static void api_logout(const Req *rq, WebReply *out) {
    WebPerson p = person(rq);
    web_people_logout(&rq->api->people, &p, out);
}
static void api_me(const Req *rq, WebReply *out) {
    WebPerson p = person(rq);
    web_people_me(&rq->api->people, &p, out);
}
static void api_player(const Req *rq, WebReply *out) {
    web_people_player(&rq->api->people, rq->name, out);
}

/* ---- the route table ---- */

typedef struct {
    const char *method;
    const char *path; /* segments; ":id" (a game id) and ":name" match any one segment */
    Handler run;
} Route;

static const Route routes[] = {
    {"GET", "/api/variants", api_variants},
    {"GET", "/api/levels", api_levels},
    {"GET", "/api/games", api_list},
    {"GET", "/api/stats", api_stats},
    {"POST", "/api/games", api_new},
    {"POST", "/api/import", api_import},
    {"GET", "/api/games/:id", api_state},
    {"DELETE", "/api/games/:id", api_delete},
    {"GET", "/api/games/:id/moves", api_moves},
    {"POST", "/api/games/:id/move", api_move},
    {"POST", "/api/games/:id/go", api_go},
    {"POST", "/api/games/:id/stop", api_stop},
    {"POST", "/api/games/:id/undo", api_undo},
    {"POST", "/api/games/:id/resign", api_resign},
    {"POST", "/api/games/:id/draw", api_draw},
    {"POST", "/api/games/:id/options", api_options},
    {"POST", "/api/games/:id/join", api_join},
    {"GET", "/api/lobby", api_lobby},
    {"POST", "/api/seeks", api_seek},
    {"DELETE", "/api/seeks/:id", api_seek_cancel},
    {"POST", "/api/seeks/:id/accept", api_seek_accept},
    {"POST", "/api/games/:id/abort", api_abort},
    {"POST", "/api/games/:id/claim", api_claim},
    {"GET", "/api/games/:id/export", api_export},
    {"GET", "/api/games/:id/positions", api_positions},
    {"POST", "/api/diagram", api_diagram},
    {"POST", "/api/position", api_check},
    {"POST", "/api/games/:id/analysis", api_analyse},
    {"GET", "/api/games/:id/analysis", api_analysis},
    {"POST", "/api/register", api_register},
    {"POST", "/api/login", api_login},
    {"POST", "/api/logout", api_logout},
    {"GET", "/api/me", api_me},
    {"GET", "/api/players/:name", api_player},
};

/* Splits "/a/b/c" into at most MAX_SEGS segments of copy; -1 when too many or empty. */
static int split(char *copy, char **seg) {
    int n = 0;
    char *save = NULL;
    for (char *t = strtok_r(copy, "/", &save); t; t = strtok_r(NULL, "/", &save)) {
        if (n == MAX_SEGS)
            return -1;
        seg[n++] = t;
    }
    return n;
}

/* Whether the route's path matches the segments; *id gets the :id segment, *name
 * the :name one. */
static bool path_matches(const char *pattern, char **seg, int n, const char **id,
                         const char **name) {
    char pat[64], *ps[MAX_SEGS];
    snprintf(pat, sizeof pat, "%s", pattern);
    int m = split(pat, ps);
    if (m != n)
        return false;
    const char *found = NULL, *named = NULL;
    for (int i = 0; i < n; i++) {
        if (!strcmp(ps[i], ":id"))
            found = seg[i];
        else if (!strcmp(ps[i], ":name"))
            named = seg[i];
        else if (strcmp(ps[i], seg[i]) != 0)
            return false;
    }
    *id = found;
    *name = named;
    return true;
}

void web_api_init(WebApi *api, WebGames *games, WebAnalysis *analysis, WebEvents *events,
                  WebLobby *lobby) {
    api->games = games;
    api->analysis = analysis;
    api->events = events;
    api->lobby = lobby;
    /* seeks and online games: 10 at once, then one every 6 s, per address */
    api->seek_limit = web_limit_new(4096, WEB_LIMIT_SEEK_BURST, WEB_LIMIT_SEEK_REFILL_MS);
    pthread_mutex_init(&api->variants_lock, NULL);
    api->variants_text = NULL;
    web_people_init(&api->people, games);
}

void web_api_identify(WebApi *api, WebActor *a) {
    web_people_identify(&api->people, a);
}

void web_api_free(WebApi *api) {
    pthread_mutex_destroy(&api->variants_lock);
    web_limit_free(api->seek_limit);
    api->seek_limit = NULL;
    web_people_free(&api->people);
    free(api->variants_text);
    api->variants_text = NULL;
}

void web_api_handle(WebApi *api, const WebClient *who, const char *method, const char *url,
                    const char *body, size_t len, WebReply *out) {
    char copy[512], *seg[MAX_SEGS];
    if (strlen(url) >= sizeof copy) {
        web_reply_error(out, 414, "the address is too long");
        return;
    }
    // Step 1. The path (and the query after '?', if any) and its route.
    snprintf(copy, sizeof copy, "%s", url);
    char *query = strchr(copy, '?');
    if (query)
        *query++ = 0;
    int n = split(copy, seg);
    const Route *route = NULL;
    bool path_known = false;
    const char *id = NULL, *name = NULL;
    for (size_t i = 0; n > 0 && i < sizeof routes / sizeof routes[0]; i++) {
        const char *rid, *rname;
        if (!path_matches(routes[i].path, seg, n, &rid, &rname))
            continue;
        path_known = true;
        if (!strcmp(routes[i].method, method)) {
            route = &routes[i];
            id = rid;
            name = rname;
        }
    }
    if (!route) {
        web_reply_error(out, path_known ? 405 : 404,
                        path_known ? "method not allowed here" : "no such API route");
        return;
    }
    if (id && !web_id_valid(id, strlen(id))) {
        web_reply_error(out, 400, "a game id is 12 digits 0-9 and a-f");
        return;
    }
    // Step 2. The body, and who asks: the session's account, read from its row.
    cJSON *json = NULL;
    if (len > 0) {
        json = cJSON_ParseWithLength(body, len);
        if (!json || !cJSON_IsObject(json)) {
            cJSON_Delete(json);
            web_reply_error(out, 400, "the body must be a JSON object");
            return;
        }
    } else {
        json = cJSON_CreateObject();
    }
    WebClient me = *who;
    web_people_identify(&api->people, &me.actor);
    Req rq = {api, &me, id, name, query ? query : "", json};
    route->run(&rq, out);
    cJSON_Delete(json);
}
