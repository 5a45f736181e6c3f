/* server.c - `menagerie serve`: the web app over libmicrohttpd.
 *
 * Static files (www/, compiled into the binary) are served by exact name; every
 * path under /api/ goes to api.c. The server binds to loopback unless --host
 * says otherwise, answers only to loopback Host names then (its own address,
 * 127.0.0.1, localhost, [::1]: no DNS rebinding), and takes API calls that change
 * anything only as application/json (no cross-site form posts). Any other address
 * opens every game to the network without a password: it is allowed, with a warning.
 *
 * Connections: a pool of POOL_THREADS threads, each with its own epoll set, shares
 * up to MAX_CONNECTIONS connections (the file limit is raised to fit; libmicrohttpd
 * splits the limit between the threads, so it is far above what we want to hold), with a
 * listen backlog as deep as the kernel allows; a client that stops sending is cut
 * after IDLE_SECONDS, and a slow one holds only its own connection, never a thread.
 * SIGINT/SIGTERM stop it cleanly: engines stop, games are saved.
 *
 * web_main makes the one WebServer: the listening options, the log's limiter, the
 * games (with their store and engine workers), the analysis table and the API that
 * reaches them; libmicrohttpd hands it to every request. The layers below are listed
 * in games/game.h. */
#include <arpa/inet.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>

#include <microhttpd.h>

#include "app/datadir.h"
#include "app/frontends.h"
#include "app/web/api.h"
#include "app/web/events.h"
#include "app/web/files.h"
#include "app/web/online/secret.h"

typedef struct {
    char *buf;
    size_t len, cap;
    bool too_big;
} Upload;

#define POOL_THREADS 4
#define MAX_CONNECTIONS 16384
#define IDLE_SECONDS 30
#define LISTEN_BACKLOG 4096

/* libmicrohttpd's messages, at most LOG_BURST a minute: a flood of clients that
 * hang up must not flood the log too. */
#define LOG_BURST 20

typedef struct {
    pthread_mutex_t lock;
    time_t minute;
    unsigned shown, dropped;
} LogLimit;

typedef struct {
    bool loopback_only;
    char proxy[64];         /* --proxy: the reverse proxy's address, trusted to name the client */
    char own_host[64];      /* the --host address as a Host header names it */
    atomic_uint bound_port; /* set once the socket is bound */
    LogLimit log;
    WebGames games;
    WebAnalysis *analysis;
    WebEvents *events;
    WebLobby lobby;
    WebApi api;
} WebServer;

#define SESSION_COOKIE "menagerie_session"

/* ---- static files ---- */

typedef struct {
    const char *ext, *type;
} MimeType;

static const MimeType mime_types[] = {
    {"html", "text/html; charset=utf-8"},
    {"css", "text/css; charset=utf-8"},
    {"js", "text/javascript; charset=utf-8"},
    {"svg", "image/svg+xml"},
    {"png", "image/png"},
    {"ico", "image/x-icon"},
    {"json", "application/json"},
    {"txt", "text/plain; charset=utf-8"},
};

static const char *mime_of(const char *name) {
    const char *dot = strrchr(name, '.');
    for (size_t i = 0; dot && i < sizeof mime_types / sizeof mime_types[0]; i++)
        if (!strcmp(dot + 1, mime_types[i].ext))
            return mime_types[i].type;
    return "application/octet-stream";
}

static const WebFile *static_file(const char *url) {
    const char *name = strcmp(url, "/") ? url + 1 : "index.html";
    for (const WebFile *f = web_files; f->name; f++)
        if (!strcmp(f->name, name))
            return f;
    return NULL;
}

/* ---- requests ---- */

/* With a loopback address the Host header must name loopback too. */
static bool host_allowed(WebServer *srv, struct MHD_Connection *c) {
    if (!srv->loopback_only)
        return true;
    const char *host = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Host");
    if (!host)
        return true; /* HTTP/1.0 */
    const char *const names[] = {srv->own_host, "127.0.0.1", "localhost", "[::1]"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        size_t n = strlen(names[i]);
        if (!n)
            continue;
        if (strncasecmp(host, names[i], n) != 0)
            continue;
        if (host[n] == 0)
            return true;
        if (host[n] == ':' && strtoul(host + n + 1, NULL, 10) == atomic_load(&srv->bound_port))
            return true;
    }
    return false;
}

static bool is_json(struct MHD_Connection *c) {
    const char *t = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Content-Type");
    return t && !strncasecmp(t, "application/json", 16);
}

/* The address as libmicrohttpd hands it on, decoded, unless it encodes a
 * NUL: that would cut the text short ("/api/games/ID%00" would name game
 * ID), so such an address stays as sent and route() refuses it. */
static size_t unescape(void *cls, struct MHD_Connection *c, char *uri) {
    (void)cls, (void)c;
    return strstr(uri, "%00") ? strlen(uri) : MHD_http_unescape(uri);
}

/* A change that another site's page asks for, with the browser's cookie: its
 * Origin (or Sec-Fetch-Site) names another site. Same-origin pages and clients
 * that send neither (curl, scripts) pass. */
static bool cross_site(struct MHD_Connection *c) {
    const char *origin = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Origin");
    const char *host = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Host");
    const char *site = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Sec-Fetch-Site");
    if (site && strcmp(site, "same-origin") != 0 && strcmp(site, "none") != 0)
        return true;
    if (!origin)
        return false;
    const char *rest = !strncmp(origin, "http://", 7)    ? origin + 7
                       : !strncmp(origin, "https://", 8) ? origin + 8
                                                         : NULL;
    return !rest || !host || strcasecmp(rest, host) != 0;
}

/* Whether a request came through the --proxy (so its forwarding headers hold). */
static bool from_proxy(const WebServer *srv, const char *peer) {
    return srv->proxy[0] && !strcmp(peer, srv->proxy);
}

/* Who asks: the session of the cookie, or a new one (its secret goes back in
 * out->session, to be set as the cookie), and the address the limits count: the
 * peer's, or through the --proxy the last X-Forwarded-For entry, the one it added.
 * This machine's own addresses are not limited (the local app, its tools), but
 * for the proxy's clients. */
static void client_of(const WebServer *srv, struct MHD_Connection *c, WebClient *who,
                      WebReply *out) {
    memset(who, 0, sizeof *who);
    const char *cookie = MHD_lookup_connection_value(c, MHD_COOKIE_KIND, SESSION_COOKIE);
    who->actor.known = cookie && web_secret_hash(cookie, who->actor.holder);
    if (!who->actor.known && web_secret_new(out->session))
        who->actor.known = web_secret_hash(out->session, who->actor.holder);
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    const struct sockaddr *sa = ci ? ci->client_addr : NULL;
    if (sa && sa->sa_family == AF_INET)
        inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr, who->addr,
                  sizeof who->addr);
    else if (sa && sa->sa_family == AF_INET6)
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)sa)->sin6_addr, who->addr,
                  sizeof who->addr);
    bool loopback = (sa && sa->sa_family == AF_INET &&
                     ntohl(((const struct sockaddr_in *)sa)->sin_addr.s_addr) >> 24 == 127) ||
                    (sa && sa->sa_family == AF_INET6 &&
                     IN6_IS_ADDR_LOOPBACK(&((const struct sockaddr_in6 *)sa)->sin6_addr));
    who->limited = !loopback;
    const char *xff = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "X-Forwarded-For");
    if (xff && from_proxy(srv, who->addr)) {
        const char *last = strrchr(xff, ',');
        last = last ? last + 1 : xff;
        last += strspn(last, " \t");
        char a[64];
        unsigned char buf[sizeof(struct in6_addr)];
        snprintf(a, sizeof a, "%.*s", (int)strcspn(last, " \t"), last);
        if (inet_pton(AF_INET, a, buf) == 1 || inet_pton(AF_INET6, a, buf) == 1) {
            snprintf(who->addr, sizeof who->addr, "%s", a);
            who->limited = true;
        }
    }
}

static void route(WebServer *srv, struct MHD_Connection *c, const char *url, const char *method,
                  Upload *u, WebReply *out) {
    bool api = !strcmp(url, "/api") || !strncmp(url, "/api/", 5);
    bool reads = !strcmp(method, "GET") || !strcmp(method, "HEAD");
    if (!host_allowed(srv, c)) {
        web_reply_error(out, 403, "this server answers to its own loopback address only");
    } else if (strstr(url, "%00")) {
        web_reply_error(out, 400, "the address holds an encoded NUL (%00)");
    } else if (u->too_big) {
        web_reply_error(out, 413, "the request body is too large");
    } else if (api && !reads && !is_json(c)) {
        web_reply_error(out, 415, "send the request as Content-Type: application/json");
    } else if (api && !reads && cross_site(c)) {
        web_reply_error(out, 403, "a request from another site's page is refused");
    } else if (api) {
        WebClient who;
        client_of(srv, c, &who, out);
        /* the one query argument of the API: GET /api/games?player=NAME */
        const char *player = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "player");
        char full[512];
        if (player && reads &&
            snprintf(full, sizeof full, "%s?player=%s", url, player) < (int)sizeof full)
            url = full;
        web_api_handle(&srv->api, &who, !strcmp(method, "HEAD") ? "GET" : method, url,
                       u->buf ? u->buf : "", u->len, out);
    } else if (!reads) {
        web_reply_error(out, 405, "method not allowed here");
    } else {
        const WebFile *f = static_file(url);
        if (!f) {
            web_reply_error(out, 404, "no such page");
            return;
        }
        out->status = 200;
        out->type = mime_of(f->name);
        out->body = NULL; /* served from the table itself */
        out->len = f->len;
        out->filename[0] = 0;
    }
}

static enum MHD_Result send_reply(struct MHD_Connection *c, const char *url, WebReply *r) {
    struct MHD_Response *resp;
    const WebFile *f = NULL;
    if (!r->body && r->status == 200 && (f = static_file(url)))
        resp = MHD_create_response_from_buffer(f->len, (void *)f->data, MHD_RESPMEM_PERSISTENT);
    else
        resp = MHD_create_response_from_buffer(r->len, r->body, MHD_RESPMEM_MUST_FREE);
    if (!resp) {
        free(r->body);
        return MHD_NO;
    }
    MHD_add_response_header(resp, "Content-Type", r->type ? r->type : "text/plain");
    MHD_add_response_header(resp, "Cache-Control", f ? "no-cache" : "no-store");
    MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(resp, "Referrer-Policy", "no-referrer");
    MHD_add_response_header(resp, "Content-Security-Policy",
                            "default-src 'self'; style-src 'self' 'unsafe-inline'; "
                            "img-src 'self' data:; object-src 'none'; base-uri 'none'; "
                            "frame-ancestors 'none'");
    if (r->session[0]) {
        /* HttpOnly: no script reads it; SameSite=Strict: no other site's request carries
         * it; Secure where a proxy in front says the page came over TLS */
        const char *proto = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "X-Forwarded-Proto");
        char sc[200];
        snprintf(sc, sizeof sc,
                 SESSION_COOKIE "=%s; Path=/; Max-Age=31536000; HttpOnly; SameSite=Strict%s",
                 r->session, proto && !strcmp(proto, "https") ? "; Secure" : "");
        MHD_add_response_header(resp, "Set-Cookie", sc);
    }
    if (r->filename[0]) {
        char cd[128];
        snprintf(cd, sizeof cd, "attachment; filename=\"%s\"", r->filename);
        MHD_add_response_header(resp, "Content-Disposition", cd);
    }
    enum MHD_Result ret = MHD_queue_response(c, (unsigned)r->status, resp);
    MHD_destroy_response(resp);
    return ret;
}

/* Whether url is /api/games/ID/events; id gets ID. */
static bool stream_id(const char *url, char id[WEB_ID_LEN]) {
    const char *p = "/api/games/";
    size_t n = strlen(p);
    if (strncmp(url, p, n) != 0 || strlen(url) < n + WEB_ID_LEN - 1 ||
        !web_id_valid(url + n, WEB_ID_LEN - 1) || strcmp(url + n + WEB_ID_LEN - 1, "/events") != 0)
        return false;
    memcpy(id, url + n, WEB_ID_LEN - 1);
    id[WEB_ID_LEN - 1] = 0;
    return true;
}

/* GET /api/games/ID/events: the game's events (events.h), from the version after
 * Last-Event-ID (or ?last=N); with id NULL, GET /api/lobby/events. */
static enum MHD_Result open_stream(WebServer *srv, struct MHD_Connection *c, const char *id,
                                   WebReply *r) {
    WebClient who;
    client_of(srv, c, &who, r);
    web_api_identify(&srv->api, &who.actor);
    const char *last = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Last-Event-ID");
    if (!last)
        last = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "last");
    char *end = NULL;
    long long v = last ? strtoll(last, &end, 10) : -1;
    if (last && (end == last || *end || v < 0 || v > 0xffffffffLL))
        v = -1; /* not a version of ours: send the state */
    int status = 500;
    const char *msg = "";
    struct MHD_Response *resp =
        id ? web_events_open(srv->events, c, id, &who.actor, who.limited ? who.addr : NULL, v,
                             &status, &msg)
           : web_events_open_lobby(srv->events, c, &who.actor, who.limited ? who.addr : NULL,
                                   &status, &msg);
    if (!resp) {
        web_reply_error(r, status, msg);
        return send_reply(c, "/api", r);
    }
    MHD_add_response_header(resp, "Content-Type", "text/event-stream; charset=utf-8");
    MHD_add_response_header(resp, "Cache-Control", "no-store");
    MHD_add_response_header(resp, "X-Accel-Buffering", "no"); /* nginx: pass it on at once */
    MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
    enum MHD_Result ret = MHD_queue_response(c, MHD_HTTP_OK, resp);
    MHD_destroy_response(resp);
    return ret;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
                                  const char *method, const char *version, const char *data,
                                  size_t *size, void **con_cls) {
    (void)version;
    WebServer *srv = cls;
    Upload *u = *con_cls;
    if (!u) {
        u = calloc(1, sizeof *u);
        if (!u)
            return MHD_NO;
        *con_cls = u;
        return MHD_YES;
    }
    if (*size) {
        if (!u->too_big && u->len + *size > WEB_MAX_BODY) {
            u->too_big = true;
            free(u->buf);
            u->buf = NULL;
            u->len = u->cap = 0;
        }
        if (!u->too_big) {
            if (u->len + *size + 1 > u->cap) {
                size_t cap = u->cap ? u->cap : 4096;
                while (cap < u->len + *size + 1)
                    cap *= 2;
                char *nb = realloc(u->buf, cap);
                if (!nb)
                    return MHD_NO;
                u->buf = nb;
                u->cap = cap;
            }
            memcpy(u->buf + u->len, data, *size);
            u->len += *size;
            u->buf[u->len] = 0;
        }
        *size = 0;
        return MHD_YES;
    }
    WebReply r;
    memset(&r, 0, sizeof r);
    char id[WEB_ID_LEN];
    bool lobby = !strcmp(url, "/api/lobby/events");
    if (!strcmp(method, "GET") && host_allowed(srv, c) && (lobby || stream_id(url, id)))
        return open_stream(srv, c, lobby ? NULL : id, &r);
    route(srv, c, url, method, u, &r);
    return send_reply(c, url, &r);
}

static void on_done(void *cls, struct MHD_Connection *c, void **con_cls,
                    enum MHD_RequestTerminationCode code) {
    (void)cls, (void)c, (void)code;
    Upload *u = *con_cls;
    if (u) {
        free(u->buf);
        free(u);
    }
    *con_cls = NULL;
}

/* ---- the command ---- */

__attribute__((format(printf, 2, 0))) static void log_mhd(void *cls, const char *fmt, va_list ap) {
    LogLimit *l = cls;
    char msg[512];
    vsnprintf(msg, sizeof msg, fmt, ap);
    /* a page that left while its stream was open: every closed tab says so, which is
     * no news (libmicrohttpd's words for a send to a socket the client closed) */
    if (strstr(msg, "socket is no longer available"))
        return;
    pthread_mutex_lock(&l->lock);
    time_t now = time(NULL);
    if (now - l->minute >= 60) {
        if (l->dropped)
            fprintf(stderr, "menagerie serve: %u more server messages not shown\n", l->dropped);
        l->minute = now;
        l->shown = l->dropped = 0;
    }
    if (l->shown < LOG_BURST) {
        l->shown++;
        fprintf(stderr, "menagerie serve: %s", msg);
    } else {
        l->dropped++;
    }
    pthread_mutex_unlock(&l->lock);
}

/* Room for every connection: the soft file limit up to the hard one. Returns the
 * connections that fit (some files stay for games, engines and the listen sockets). */
static unsigned connection_room(void) {
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
        return 200;
    rlim_t want = MAX_CONNECTIONS + 256;
    if (rl.rlim_cur < want) {
        rl.rlim_cur = rl.rlim_max < want ? rl.rlim_max : want;
        setrlimit(RLIMIT_NOFILE, &rl);
        getrlimit(RLIMIT_NOFILE, &rl);
    }
    if (rl.rlim_cur >= want)
        return MAX_CONNECTIONS;
    return rl.rlim_cur > 328 ? (unsigned)rl.rlim_cur - 256 : 64;
}

static int usage(void) {
    fprintf(stderr, "usage: menagerie serve [--port N] [--host ADDR] [--data DIR] [--db URL]\n"
                    "                       [--proxy ADDR]\n"
                    "  --port N    TCP port (default 8080; 0 picks a free one)\n"
                    "  --host ADDR address to listen on (default 127.0.0.1, loopback)\n"
                    "  --data DIR  where games are saved and the endgame databases are read\n"
                    "              (DIR/egdb; default ./data in the source tree, else\n"
                    "              $XDG_DATA_HOME/menagerie or ~/.local/share/menagerie)\n"
                    "  --db URL    the games' database: sqlite:PATH (default DIR/menagerie.db)\n"
                    "              or postgres://USER@HOST/DB, which several servers may share\n"
                    "  --proxy ADDR the address of a reverse proxy in front: its requests'\n"
                    "              X-Forwarded-For names the client the limits count\n");
    return 2;
}

static cJSON *lobby_view(void *ctx, const WebActor *viewer) {
    return web_api_lobby(ctx, viewer);
}

/* Listens, serves until a signal, stops (srv zeroed on entry). */
static int serve(WebServer *srv, long port, const char *host, const char *dir, const char *db);

int web_main(int argc, char **argv) {
    long port = 8080;
    const char *host = "127.0.0.1", *dir = datadir_default(), *db = NULL, *proxy = "";
    for (int i = 1; i < argc; i += 2) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        char *end;
        if (!strcmp(a, "--help") || !strcmp(a, "-h"))
            return usage(), 0;
        if (!v)
            return usage();
        if (!strcmp(a, "--port")) {
            port = strtol(v, &end, 10);
            if (*end || end == v || port < 0 || port > 65535)
                return usage();
        } else if (!strcmp(a, "--host")) {
            host = v;
        } else if (!strcmp(a, "--data")) {
            dir = v;
        } else if (!strcmp(a, "--proxy")) {
            unsigned char buf[sizeof(struct in6_addr)];
            if (inet_pton(AF_INET, v, buf) != 1 && inet_pton(AF_INET6, v, buf) != 1)
                return usage();
            proxy = v;
        } else if (!strcmp(a, "--db")) {
            db = v;
        } else {
            return usage();
        }
    }
    WebServer *srv = calloc(1, sizeof *srv);
    if (!srv)
        abort();
    pthread_mutex_init(&srv->log.lock, NULL);
    snprintf(srv->proxy, sizeof srv->proxy, "%s", proxy);
    int rc = serve(srv, port, host, dir, db);
    pthread_mutex_destroy(&srv->log.lock);
    free(srv);
    return rc;
}

static int serve(WebServer *srv, long port, const char *host, const char *dir, const char *db) {
    struct sockaddr_storage ss;
    memset(&ss, 0, sizeof ss);
    /* suspend/resume: a stream waiting for a change holds no thread (events.h) */
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG | MHD_ALLOW_SUSPEND_RESUME;
    if (MHD_is_feature_supported(MHD_FEATURE_EPOLL) == MHD_YES)
        flags |= MHD_USE_EPOLL; /* no select(): more than 1024 sockets */
    else
        flags |= MHD_USE_POLL;
    struct sockaddr_in *in4 = (struct sockaddr_in *)&ss;
    struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;
    if (!strcmp(host, "localhost"))
        host = "127.0.0.1";
    if (inet_pton(AF_INET, host, &in4->sin_addr) == 1) {
        in4->sin_family = AF_INET;
        in4->sin_port = htons((uint16_t)port);
        srv->loopback_only = (ntohl(in4->sin_addr.s_addr) >> 24) == 127;
    } else if (inet_pton(AF_INET6, host, &in6->sin6_addr) == 1) {
        in6->sin6_family = AF_INET6;
        in6->sin6_port = htons((uint16_t)port);
        flags |= MHD_USE_IPv6;
        srv->loopback_only = IN6_IS_ADDR_LOOPBACK(&in6->sin6_addr);
    } else {
        fprintf(stderr, "menagerie serve: \"%s\" is not an IPv4 or IPv6 address\n", host);
        return 2;
    }
    bool v6 = strchr(host, ':') != NULL;
    snprintf(srv->own_host, sizeof srv->own_host, "%s%s%s", v6 ? "[" : "", host, v6 ? "]" : "");
    if (!srv->loopback_only)
        fprintf(stderr,
                "menagerie serve: WARNING: listening on %s, not on loopback: anyone who can "
                "reach this address can watch every game, and play and delete the local "
                "ones (against the engine, or at one screen); games between people online "
                "are bound to their players. Use it only on a network you trust.\n",
                srv->own_host);

    /* Signals reach only the main thread's sigwait: block them before any
     * thread starts, so every thread inherits the mask. */
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
    signal(SIGPIPE, SIG_IGN);

#ifdef __GLIBC__
    /* Search tables come and go with engine copies on many threads: keep them out of
     * the per-thread heaps, where freed tables would stay, and hand them back. */
    mallopt(M_MMAP_THRESHOLD, 1 << 20);
    mallopt(M_ARENA_MAX, 4);
#endif
    (void)engine_game_names(); /* built once here, before any thread reads it */
    if (!web_secret_init()) {
        fprintf(stderr, "menagerie serve: libsodium could not start (no random numbers)\n");
        return 1;
    }
    engine_set_data_dir(dir); /* the Slangenspel endgame databases: DIR/egdb */
    char err[300];
    if (!web_games_open_db(&srv->games, dir, db, err, sizeof err)) {
        fprintf(stderr, "menagerie serve: %s\n", err);
        return 1;
    }
    srv->analysis = web_analysis_new(&srv->games);
    srv->events = web_events_new(&srv->games);
    web_lobby_init(&srv->lobby);
    web_api_init(&srv->api, &srv->games, srv->analysis, srv->events, &srv->lobby);
    srv->lobby.changed = web_events_lobby_changed;
    srv->lobby.changed_ctx = srv->events;
    web_events_lobby(srv->events, lobby_view, &srv->api);
    unsigned room = connection_room();
    struct MHD_Daemon *d = MHD_start_daemon(
        flags, (uint16_t)port, NULL, NULL, on_request, srv, MHD_OPTION_EXTERNAL_LOGGER, log_mhd,
        &srv->log, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&ss, MHD_OPTION_THREAD_POOL_SIZE,
        (unsigned)POOL_THREADS, MHD_OPTION_CONNECTION_LIMIT, room, MHD_OPTION_LISTEN_BACKLOG_SIZE,
        (unsigned)LISTEN_BACKLOG, MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)IDLE_SECONDS,
        MHD_OPTION_NOTIFY_COMPLETED, on_done, NULL, MHD_OPTION_UNESCAPE_CALLBACK, unescape, NULL,
        MHD_OPTION_END);
    if (!d) {
        fprintf(stderr, "menagerie serve: cannot listen on %s port %ld (in use?)\n", host, port);
        web_api_free(&srv->api);
        web_events_free(srv->events);
        web_lobby_free(&srv->lobby);
        web_analysis_close(srv->analysis);
        web_games_close(&srv->games);
        return 1;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
    atomic_store(&srv->bound_port, info && info->port ? info->port : (unsigned)port);
    printf("Menagerie is serving at http://%s:%u/ (games saved in %s; Ctrl-C stops)\n",
           srv->own_host, atomic_load(&srv->bound_port),
           db && db[0] ? web_db_name(srv->games.store.db) : dir);
    if (room < MAX_CONNECTIONS)
        fprintf(stderr, "menagerie serve: the file limit allows %u connections at once\n", room);
    fflush(stdout);

    int sig = 0;
    sigwait(&set, &sig);
    printf("menagerie serve: stopping (signal %d)\n", sig);
    fflush(stdout);
    web_events_stop(srv->events);
    MHD_stop_daemon(d);
    web_api_free(&srv->api);
    web_events_free(srv->events);
    web_lobby_free(&srv->lobby);
    web_analysis_close(srv->analysis);
    web_games_close(&srv->games);
    return 0;
}
