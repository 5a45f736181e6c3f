/* lobby.c - the open seeks (lobby.h). One lock over a fixed table: a seek is a few
 * hundred bytes, and the table's size bounds what a flood of seeks can take. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/web/online/lobby.h"
#include "app/web/online/secret.h"

void web_lobby_init(WebLobby *l) {
    memset(l, 0, sizeof *l);
    pthread_mutex_init(&l->lock, NULL);
}

void web_lobby_free(WebLobby *l) {
    for (int i = 0; i < WEB_LOBBY_SEEKS; i++)
        free(l->seek[i].options);
    pthread_mutex_destroy(&l->lock);
}

static void drop(WebSeek *s) {
    free(s->options);
    memset(s, 0, sizeof *s);
}

static WebSeek *find(WebLobby *l, const char *id) {
    for (int i = 0; i < WEB_LOBBY_SEEKS; i++)
        if (l->seek[i].used && !strcmp(l->seek[i].id, id))
            return &l->seek[i];
    return NULL;
}

/* Ends the seeks past their time (locked); true when one went. */
static bool expire(WebLobby *l, time_t now) {
    bool gone = false;
    for (int i = 0; i < WEB_LOBBY_SEEKS; i++) {
        WebSeek *s = &l->seek[i];
        if (s->used && !s->taking &&
            ((s->game[0] && now - s->matched > WEB_LOBBY_MATCHED_S) ||
             (!s->game[0] && now - s->created > WEB_LOBBY_IDLE_S))) {
            drop(s);
            gone = true;
        }
    }
    return gone;
}

static void tell(WebLobby *l) {
    if (l->changed)
        l->changed(l->changed_ctx);
}

bool web_lobby_add(WebLobby *l, const WebActor *owner, const char *name, const cJSON *options,
                   char id[WEB_ID_LEN], WebError *e) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(options, "variant");
    const cJSON *side = cJSON_GetObjectItemCaseSensitive(options, "side");
    const cJSON *clock = cJSON_GetObjectItemCaseSensitive(options, "clock_ms");
    const cJSON *inc = cJSON_GetObjectItemCaseSensitive(options, "inc_ms");
    if (!owner || !owner->known || !cJSON_IsString(v)) {
        web_set_err(e, 400, "a seek needs a session and a variant");
        return false;
    }
    char *text = cJSON_PrintUnformatted(options);
    if (!text)
        abort();
    pthread_mutex_lock(&l->lock);
    time_t now = time(NULL);
    expire(l, now);
    int mine = 0, slot = -1;
    for (int i = 0; i < WEB_LOBBY_SEEKS; i++) {
        const WebSeek *s = &l->seek[i];
        if (s->used && !s->game[0] && web_secret_equal(s->owner, owner->holder))
            mine++;
        if (!s->used && slot < 0)
            slot = i;
    }
    bool ok = false;
    if (mine >= WEB_LOBBY_PER_PLAYER) {
        web_set_err(e, 429, "you have three seeks open already: cancel one first");
    } else if (slot < 0) {
        web_set_err(e, 503, "the lobby is full: try again later");
    } else {
        WebSeek *s = &l->seek[slot];
        s->used = true;
        web_id_make(s->id);
        memcpy(s->owner, owner->holder, WEB_HASH_LEN);
        s->account = owner->account;
        s->rated = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(options, "rated"));
        snprintf(s->name, sizeof s->name, "%s", name);
        s->options = text;
        text = NULL;
        snprintf(s->variant, sizeof s->variant, "%s", v->valuestring);
        snprintf(s->side, sizeof s->side, "%s",
                 cJSON_IsString(side) ? side->valuestring : "random");
        s->clock_ms = cJSON_IsNumber(clock) ? clock->valueint : 0;
        s->inc_ms = cJSON_IsNumber(inc) ? inc->valueint : 0;
        s->created = now;
        memcpy(id, s->id, WEB_ID_LEN);
        l->version++;
        ok = true;
    }
    pthread_mutex_unlock(&l->lock);
    free(text);
    if (ok)
        tell(l);
    return ok;
}

bool web_lobby_take(WebLobby *l, const char *id, const WebActor *taker, char **options,
                    WebSeat *owner, WebError *e) {
    pthread_mutex_lock(&l->lock);
    WebSeek *s = find(l, id);
    bool ok = false;
    if (!s || s->game[0] || s->taking)
        web_set_err(e, 404, "that seek is gone: someone took it, or its player cancelled it");
    else if (!taker || !taker->known || web_secret_equal(s->owner, taker->holder) ||
             (taker->account && taker->account == s->account))
        web_set_err(e, 409, "that is your own seek");
    else {
        s->taking = true;
        *options = strdup(s->options);
        if (!*options)
            abort();
        memset(owner, 0, sizeof *owner);
        owner->held = true;
        memcpy(owner->holder, s->owner, WEB_HASH_LEN);
        owner->account = s->account;
        memcpy(owner->name, s->name, WEB_NAME_LEN);
        ok = true;
    }
    pthread_mutex_unlock(&l->lock);
    return ok;
}

void web_lobby_matched(WebLobby *l, const char *id, const char *game) {
    pthread_mutex_lock(&l->lock);
    WebSeek *s = find(l, id);
    if (s) {
        s->taking = false;
        if (game) {
            snprintf(s->game, sizeof s->game, "%s", game);
            s->matched = time(NULL);
        }
        l->version++;
    }
    pthread_mutex_unlock(&l->lock);
    tell(l);
}

bool web_lobby_cancel(WebLobby *l, const char *id, const WebActor *owner, WebError *e) {
    pthread_mutex_lock(&l->lock);
    WebSeek *s = find(l, id);
    bool ok = false;
    if (!s || s->taking)
        web_set_err(e, 404, "no such seek (taken, or gone)");
    else if (!owner || !owner->known || !web_secret_equal(s->owner, owner->holder))
        web_set_err(e, 403, "only its player can cancel a seek");
    else {
        drop(s);
        l->version++;
        ok = true;
    }
    pthread_mutex_unlock(&l->lock);
    if (ok)
        tell(l);
    return ok;
}

cJSON *web_lobby_json(WebLobby *l, const WebActor *viewer, unsigned *version) {
    cJSON *arr = cJSON_CreateArray();
    pthread_mutex_lock(&l->lock);
    time_t now = time(NULL);
    if (expire(l, now))
        l->version++;
    const WebSeek *order[WEB_LOBBY_SEEKS];
    int n = 0;
    for (int i = 0; i < WEB_LOBBY_SEEKS; i++)
        if (l->seek[i].used)
            order[n++] = &l->seek[i];
    for (int i = 1; i < n; i++) /* newest first (a few hundred at most) */
        for (int j = i; j > 0 && order[j]->created > order[j - 1]->created; j--) {
            const WebSeek *t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    for (int i = 0; i < n; i++) {
        const WebSeek *s = order[i];
        bool mine = viewer && viewer->known && web_secret_equal(s->owner, viewer->holder);
        if ((s->game[0] || s->taking) && !mine)
            continue; /* taken: only its maker still sees it, to follow it */
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "id", s->id);
        cJSON_AddStringToObject(o, "name", s->name);
        cJSON_AddStringToObject(o, "variant", s->variant);
        cJSON_AddStringToObject(o, "side", s->side);
        cJSON_AddNumberToObject(o, "clock_ms", s->clock_ms);
        cJSON_AddNumberToObject(o, "inc_ms", s->inc_ms);
        cJSON_AddNumberToObject(o, "created", (double)s->created);
        cJSON_AddBoolToObject(o, "mine", mine);
        cJSON_AddBoolToObject(o, "rated", s->rated);
        if (s->game[0])
            cJSON_AddStringToObject(o, "game", s->game);
        cJSON_AddItemToArray(arr, o);
    }
    *version = l->version;
    pthread_mutex_unlock(&l->lock);
    return arr;
}
