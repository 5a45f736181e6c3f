/* test_events.c - the live streams lose no change: a change that lands while a
 * stream is building its event (here, from inside the lobby's view) is sent in an
 * event of its own right after, not dropped until the next change. A real
 * libmicrohttpd daemon serves the lobby's stream to a socket read here. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "app/web/events.h"
#include "test.h"

static WebEvents *events;
static atomic_int views;

/* The lobby as the stream sees it: {"n": how many views were made}. The first view
 * is interrupted by a change, as a seek taken while the lobby's text is built. */
static cJSON *lobby_view(void *ctx, const WebActor *viewer) {
    (void)ctx;
    (void)viewer;
    int n = atomic_fetch_add(&views, 1) + 1;
    if (n == 1)
        web_events_lobby_changed(events);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "n", n);
    return o;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
                                  const char *method, const char *version, const char *data,
                                  size_t *size, void **state) {
    (void)cls, (void)url, (void)method, (void)version, (void)data, (void)size, (void)state;
    WebActor nobody = {0};
    int status;
    const char *msg;
    struct MHD_Response *r = web_events_open_lobby(events, c, &nobody, NULL, &status, &msg);
    if (!r)
        return MHD_NO;
    enum MHD_Result ret = MHD_queue_response(c, MHD_HTTP_OK, r);
    MHD_destroy_response(r);
    return ret;
}

/* Reads from fd until want appears or `seconds` pass; whether it did. */
static bool read_until(int fd, const char *want, int seconds, char *buf, size_t size) {
    size_t len = 0;
    buf[0] = '\0';
    time_t end = time(NULL) + seconds;
    while (!strstr(buf, want) && time(NULL) < end && len + 1 < size) {
        struct pollfd p = {fd, POLLIN, 0};
        if (poll(&p, 1, 200) <= 0)
            continue;
        ssize_t n = read(fd, buf + len, size - 1 - len);
        if (n <= 0)
            break;
        len += (size_t)n;
        buf[len] = '\0';
    }
    return strstr(buf, want) != NULL;
}

void test_events(void) {
    char dir[] = "/tmp/menagerie-test-events-XXXXXX", err[300];
    CHECK(mkdtemp(dir) != NULL);
    WebGames *gs = calloc(1, sizeof *gs);
    CHECK(gs && web_games_open(gs, dir, err, sizeof err));
    events = web_events_new(gs);
    web_events_lobby(events, lobby_view, NULL);
    struct MHD_Daemon *d =
        MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_ALLOW_SUSPEND_RESUME, 0, NULL, NULL,
                         on_request, NULL, MHD_OPTION_END);
    CHECK(d != NULL);
    const union MHD_DaemonInfo *info = d ? MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT) : NULL;
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons(info ? info->port : 0)};
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    CHECK(info && connect(fd, (struct sockaddr *)&to, sizeof to) == 0);
    const char *get = "GET /api/lobby/events HTTP/1.1\r\nHost: localhost\r\n\r\n";
    CHECK(write(fd, get, strlen(get)) == (ssize_t)strlen(get));
    char buf[4096];
    /* the change made during the first view: a second lobby event, well before a ping */
    CHECK(read_until(fd, "{\"n\":2}", 3, buf, sizeof buf));
    CHECK(strstr(buf, "event: lobby\ndata: {\"n\":1}") != NULL);
    close(fd);
    web_events_stop(events);
    if (d)
        MHD_stop_daemon(d);
    web_events_free(events);
    web_games_close(gs);
    free(gs);
    test_remove_folder(dir);
}
