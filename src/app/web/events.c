/* events.c - Server-Sent Events of the games' changes (events.h).
 *
 * A stream is a libmicrohttpd response read through read_stream. It sends the
 * game's state whenever the version it last sent is behind the one it was told
 * of, a ping when it has been quiet for PING_SECONDS, and otherwise suspends its
 * connection; a change (web_events_changed, the store's hook, the game's lock
 * held) marks the game's streams and resumes them. Locks: a game's lock may be
 * held while taking the table's, never the other way round, so a stream builds
 * its text with the table unlocked. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "app/web/events.h"
#include "app/web/games/play.h"

#define PING_SECONDS 5
#define MAX_STREAMS 20000
#define STREAMS_PER_CLIENT 32 /* from one address (not this machine's: WebClient.limited) */
#define DEPARTED 512          /* players' streams that closed, remembered for web_events_present */

typedef struct Stream {
    struct Stream *prev, *next;
    WebEvents *ev;
    struct MHD_Connection *conn;
    char id[WEB_ID_LEN];
    int side;              /* the seat its viewer holds, -1 */
    unsigned sent, wanted; /* versions: last sent, last told of */
    bool first, suspended; /* first: nothing sent yet */
    bool gone;             /* the game was deleted: the stream ends after this event */
    unsigned pokes, seen;  /* pokes counted (the lobby's: send it again; a game's: a player
                            * came or went) and the count the last event answered */
    bool lobby;            /* the lobby's stream, not a game's */
    char client[64];       /* the address it counts against, "" none */
    WebActor viewer;
    char *buf; /* the event being sent, from off */
    size_t len, off;
    time_t quiet_since;
} Stream;

struct WebEvents {
    WebGames *games;
    pthread_mutex_t lock; /* the streams, departed, stopping */
    Stream *streams;
    int count;
    struct {
        char id[WEB_ID_LEN];
        int side;
        time_t at;
    } departed[DEPARTED];
    int next_departed;
    bool stopping;
    cJSON *(*lobby_view)(void *ctx, const WebActor *viewer);
    void *lobby_ctx;
    pthread_cond_t stop;
    pthread_t ticker;
};

/* ---- telling the streams ---- */

static void resume(Stream *s) {
    if (s->suspended) {
        s->suspended = false;
        MHD_resume_connection(s->conn);
    }
}

/* A player's stream of game id opened or closed: the others send the state again,
 * whose "present" changed (table locked). */
static void poke(WebEvents *ev, const Stream *except) {
    for (Stream *s = ev->streams; s; s = s->next)
        if (s != except && !strcmp(s->id, except->id)) {
            s->pokes++;
            resume(s);
        }
}

/* The lobby's streams send it anew (table locked). */
static void poke_lobby(WebEvents *ev) {
    for (Stream *s = ev->streams; s; s = s->next)
        if (s->lobby) {
            s->pokes++;
            resume(s);
        }
}

static void changed(void *ctx, WebGame *w) {
    WebEvents *ev = ctx;
    /* an online game that starts or ends enters or leaves the lobby's list */
    bool lobby = w->online && (!web_started(w) || web_is_over(w));
    pthread_mutex_lock(&ev->lock);
    for (Stream *s = ev->streams; s; s = s->next)
        if (!s->lobby && !strcmp(s->id, w->id)) {
            s->wanted = w->version;
            resume(s);
        }
    if (lobby)
        poke_lobby(ev);
    pthread_mutex_unlock(&ev->lock);
}

void web_events_lobby_changed(void *ctx) {
    WebEvents *ev = ctx;
    pthread_mutex_lock(&ev->lock);
    poke_lobby(ev);
    pthread_mutex_unlock(&ev->lock);
}

void web_events_lobby(WebEvents *ev, cJSON *(*view)(void *ctx, const WebActor *viewer), void *ctx) {
    pthread_mutex_lock(&ev->lock);
    ev->lobby_view = view;
    ev->lobby_ctx = ctx;
    pthread_mutex_unlock(&ev->lock);
}

/* The lobby's event for viewer (malloc'd). The table is not locked. */
static char *lobby_event(WebEvents *ev, const WebActor *viewer, size_t *len) {
    pthread_mutex_lock(&ev->lock);
    cJSON *(*view)(void *, const WebActor *) = ev->lobby_view;
    void *ctx = ev->lobby_ctx;
    pthread_mutex_unlock(&ev->lock);
    cJSON *o = view ? view(ctx, viewer) : cJSON_CreateObject();
    char *json = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    size_t n = strlen(json) + 32;
    char *text = malloc(n);
    if (!text)
        abort();
    *len = (size_t)snprintf(text, n, "event: lobby\ndata: %s\n\n", json);
    free(json);
    return text;
}

/* ---- a stream ---- */

/* The event that brings s up to date (malloc'd; *version gets its id), or a
 * "gone" event when the game was deleted (*gone set). The table is not locked. */
static char *state_event(WebEvents *ev, const char *id, unsigned *version, bool *gone,
                         size_t *len) {
    WebError e;
    WebGame *w = web_game_get(ev->games, id, &e);
    char *text = NULL;
    if (w) {
        cJSON *st = web_game_state(ev->games, w, NULL);
        cJSON_DeleteItemFromObject(st, "you"); /* the same for every viewer */
        web_events_presence(ev, st);
        const cJSON *v = cJSON_GetObjectItem(st, "version");
        *version = cJSON_IsNumber(v) ? (unsigned)v->valuedouble : 0;
        char *json = cJSON_PrintUnformatted(st);
        cJSON_Delete(st);
        web_game_put(w);
        size_t n = strlen(json) + 64;
        text = malloc(n);
        if (!text)
            abort();
        *len = (size_t)snprintf(text, n, "id: %u\nevent: state\ndata: %s\n\n", *version, json);
        free(json);
    } else {
        text = strdup("event: gone\ndata: {\"error\": \"no game with that id\"}\n\n");
        if (!text)
            abort();
        *len = strlen(text);
        *version = 0;
    }
    *gone = !w;
    return text;
}

/* "event: presence": whose players have the game's stream open, as the state's
 * "present" says, without a new state (its version has not moved). */
static char *presence_event(WebEvents *ev, const char *id, size_t *len) {
    char *text = malloc(80);
    if (!text)
        abort();
    *len = (size_t)snprintf(text, 80, "event: presence\ndata: {\"present\": [%s, %s]}\n\n",
                            web_events_present(ev, id, 0, 0) ? "true" : "false",
                            web_events_present(ev, id, 1, 0) ? "true" : "false");
    return text;
}

static ssize_t read_stream(void *cls, uint64_t pos, char *out, size_t max) {
    (void)pos;
    Stream *s = cls;
    WebEvents *ev = s->ev;
    pthread_mutex_lock(&ev->lock);
    // Step 1. What is left of the event being sent.
    if (s->off < s->len) {
        size_t n = s->len - s->off < max ? s->len - s->off : max;
        memcpy(out, s->buf + s->off, n);
        s->off += n;
        pthread_mutex_unlock(&ev->lock);
        return (ssize_t)n;
    }
    if (ev->stopping || s->gone) {
        pthread_mutex_unlock(&ev->lock);
        return MHD_CONTENT_READER_END_OF_STREAM;
    }
    free(s->buf);
    s->buf = NULL;
    s->len = s->off = 0;
    // Step 2. A new state, who is here, a ping, or nothing: then wait, suspended.
    unsigned pokes = s->pokes; /* a poke while the text is built is answered next time */
    bool behind = s->first || (s->lobby && pokes != s->seen) || s->wanted != s->sent;
    bool presence = !s->lobby && pokes != s->seen;
    time_t now = time(NULL);
    if (!behind && !presence && now - s->quiet_since < PING_SECONDS) {
        s->suspended = true;
        MHD_suspend_connection(s->conn);
        pthread_mutex_unlock(&ev->lock);
        return 0;
    }
    pthread_mutex_unlock(&ev->lock);
    char id[WEB_ID_LEN];
    memcpy(id, s->id, sizeof id);
    unsigned version = 0;
    size_t len = 0;
    bool gone = false;
    char *text;
    if (behind && s->lobby) {
        text = lobby_event(ev, &s->viewer, &len);
    } else if (behind) {
        text = state_event(ev, id, &version, &gone, &len);
    } else if (presence) {
        text = presence_event(ev, id, &len);
    } else {
        text = strdup(": ping\n\n");
        if (!text)
            abort();
        len = strlen(text);
    }
    pthread_mutex_lock(&ev->lock);
    if (behind || presence)
        s->seen = pokes; /* a state says who is here too */
    if (behind) {
        s->first = false;
        s->gone = gone;
        if (!s->lobby) {
            s->sent = version;
            if (s->wanted < version)
                s->wanted = version;
        }
    }
    s->buf = text;
    s->len = len;
    s->quiet_since = now;
    size_t n = len < max ? len : max;
    memcpy(out, text, n);
    s->off = n;
    pthread_mutex_unlock(&ev->lock);
    return (ssize_t)n;
}

static void close_stream(void *cls) {
    Stream *s = cls;
    WebEvents *ev = s->ev;
    pthread_mutex_lock(&ev->lock);
    if (s->prev)
        s->prev->next = s->next;
    else
        ev->streams = s->next;
    if (s->next)
        s->next->prev = s->prev;
    ev->count--;
    if (s->side >= 0) {
        poke(ev, s);
        int i = ev->next_departed;
        ev->next_departed = (i + 1) % DEPARTED;
        memcpy(ev->departed[i].id, s->id, WEB_ID_LEN);
        ev->departed[i].side = s->side;
        ev->departed[i].at = time(NULL);
    }
    pthread_mutex_unlock(&ev->lock);
    free(s->buf);
    free(s);
}

/* A stream's response, s listed (NULL with *status, *msg: no room). */
static struct MHD_Response *open_stream(WebEvents *ev, Stream *s, int *status, const char **msg);

struct MHD_Response *web_events_open(WebEvents *ev, struct MHD_Connection *c, const char *id,
                                     const WebActor *a, const char *client, long long last,
                                     int *status, const char **msg) {
    WebError e;
    WebGame *w = web_game_get(ev->games, id, &e);
    if (!w) {
        *status = e.status;
        *msg = "no game with that id";
        return NULL;
    }
    pthread_mutex_lock(&w->lock);
    int side = web_seat_of(w, a);
    unsigned version = w->version;
    pthread_mutex_unlock(&w->lock);
    web_game_put(w);
    Stream *s = calloc(1, sizeof *s);
    if (!s)
        abort();
    s->conn = c;
    memcpy(s->id, id, WEB_ID_LEN);
    s->side = side;
    s->first = last != (long long)version; /* a viewer up to date waits for the next change */
    s->sent = s->wanted = version;
    snprintf(s->client, sizeof s->client, "%s", client ? client : "");
    return open_stream(ev, s, status, msg);
}

struct MHD_Response *web_events_open_lobby(WebEvents *ev, struct MHD_Connection *c,
                                           const WebActor *a, const char *client, int *status,
                                           const char **msg) {
    Stream *s = calloc(1, sizeof *s);
    if (!s)
        abort();
    snprintf(s->client, sizeof s->client, "%s", client ? client : "");
    s->conn = c;
    snprintf(s->id, sizeof s->id, "lobby");
    s->lobby = s->first = true;
    s->side = -1;
    if (a)
        s->viewer = *a;
    return open_stream(ev, s, status, msg);
}

static struct MHD_Response *open_stream(WebEvents *ev, Stream *s, int *status, const char **msg) {
    int side = s->side;
    s->ev = ev;
    s->quiet_since = time(NULL);
    pthread_mutex_lock(&ev->lock);
    int theirs = 0;
    for (Stream *o = ev->streams; s->client[0] && o; o = o->next)
        theirs += !strcmp(o->client, s->client);
    bool room = ev->count < MAX_STREAMS && !ev->stopping && theirs < STREAMS_PER_CLIENT;
    if (room) {
        s->next = ev->streams;
        if (ev->streams)
            ev->streams->prev = s;
        ev->streams = s;
        ev->count++;
        if (side >= 0)
            poke(ev, s);
    }
    pthread_mutex_unlock(&ev->lock);
    if (!room) {
        free(s);
        *status = theirs >= STREAMS_PER_CLIENT ? 429 : 503;
        *msg = theirs >= STREAMS_PER_CLIENT ? "too many live pages open from your address"
                                            : "too many streams open: try again later";
        return NULL;
    }
    struct MHD_Response *r =
        MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 16384, read_stream, s, close_stream);
    if (!r) {
        close_stream(s);
        *status = 500;
        *msg = "could not open the stream";
    }
    return r;
}

/* ---- the ticker ---- */

/* Once a second: the pings of quiet streams (whose connections wait suspended),
 * then the online games' flags and aborts (web_games_tick). */
static void *tick(void *arg) {
    WebEvents *ev = arg;
    pthread_mutex_lock(&ev->lock);
    while (!ev->stopping) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += 1;
        pthread_cond_timedwait(&ev->stop, &ev->lock, &until);
        if (ev->stopping)
            break;
        time_t now = time(NULL);
        for (Stream *s = ev->streams; s; s = s->next)
            if (now - s->quiet_since >= PING_SECONDS)
                resume(s);
        pthread_mutex_unlock(&ev->lock);
        web_games_tick(ev->games);
        pthread_mutex_lock(&ev->lock);
    }
    pthread_mutex_unlock(&ev->lock);
    return NULL;
}

/* ---- the table ---- */

WebEvents *web_events_new(WebGames *gs) {
    WebEvents *ev = calloc(1, sizeof *ev);
    if (!ev)
        abort();
    ev->games = gs;
    pthread_mutex_init(&ev->lock, NULL);
    pthread_cond_init(&ev->stop, NULL);
    gs->store.changed_ctx = ev;
    gs->store.changed = changed;
    if (pthread_create(&ev->ticker, NULL, tick, ev) != 0)
        abort();
    return ev;
}

void web_events_stop(WebEvents *ev) {
    pthread_mutex_lock(&ev->lock);
    ev->stopping = true;
    pthread_cond_broadcast(&ev->stop);
    for (Stream *s = ev->streams; s; s = s->next)
        resume(s);
    pthread_mutex_unlock(&ev->lock);
}

void web_events_free(WebEvents *ev) {
    if (!ev)
        return;
    web_events_stop(ev);
    pthread_join(ev->ticker, NULL);
    ev->games->store.changed = NULL;
    pthread_mutex_destroy(&ev->lock);
    pthread_cond_destroy(&ev->stop);
    free(ev);
}

bool web_events_present(WebEvents *ev, const char *id, int side, int grace) {
    time_t now = time(NULL);
    bool present = false;
    pthread_mutex_lock(&ev->lock);
    for (Stream *s = ev->streams; s && !present; s = s->next)
        present = s->side == side && !strcmp(s->id, id);
    for (int i = 0; i < DEPARTED && !present; i++)
        present = ev->departed[i].side == side && !strcmp(ev->departed[i].id, id) &&
                  now - ev->departed[i].at <= grace;
    pthread_mutex_unlock(&ev->lock);
    return present;
}

void web_events_presence(WebEvents *ev, cJSON *state) {
    const cJSON *id = cJSON_GetObjectItem(state, "id");
    if (!cJSON_IsTrue(cJSON_GetObjectItem(state, "online")) || !cJSON_IsString(id))
        return;
    cJSON *p = cJSON_AddArrayToObject(state, "present");
    for (int s = 0; s < 2; s++)
        cJSON_AddItemToArray(p, cJSON_CreateBool(web_events_present(ev, id->valuestring, s, 0)));
}
