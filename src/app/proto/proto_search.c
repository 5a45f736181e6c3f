/* proto_search.c - a tagged EngineSearch and the input wait (see
 * proto_search.h). */
#include "app/proto/proto_search.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>

struct ProtoSearch {
    EngineSearch *es;
    ProtoInfoFn info;
    void *ud;
    int tag;
};

ProtoSearch *proto_search_new(void) {
    ProtoSearch *s = calloc(1, sizeof *s);
    if (!s)
        abort();
    s->es = engine_search_new();
    s->tag = -1;
    return s;
}

void proto_search_free(ProtoSearch *s) {
    if (!s)
        return;
    engine_search_free(s->es);
    free(s);
}

static void relay(const SearchInfo *info, void *ud) {
    ProtoSearch *s = ud;
    if (s->info)
        s->info(info, s->tag, s->ud);
}

bool proto_search_start(ProtoSearch *s, Game *g, const char *extra, const SearchLimits *lim,
                        bool ponder, ProtoInfoFn info, void *ud, int tag) {
    char err[ENGINE_ERR_LEN];
    s->info = info;
    s->ud = ud;
    s->tag = tag; /* before the thread: its first report carries it */
    EngineCallbacks cb = {relay, NULL, s};
    if (!engine_search_start(s->es, g, extra, lim, ponder, &cb, err, sizeof err)) {
        s->tag = -1;
        return false;
    }
    return true;
}

bool proto_search_running(const ProtoSearch *s) {
    return engine_search_running(s->es);
}

int proto_search_tag(const ProtoSearch *s) {
    return proto_search_running(s) ? s->tag : -1;
}

EngineSearch *proto_search_engine(ProtoSearch *s) {
    return s->es;
}

void proto_search_abort(ProtoSearch *s) {
    engine_search_abort(s->es);
    s->tag = -1;
}

bool proto_search_finish(ProtoSearch *s, ProtoResult *out) {
    if (!engine_search_collect(s->es, &out->r))
        return false;
    out->tag = s->tag;
    s->tag = -1;
    return true;
}

ProtoEvent proto_search_wait(ProtoSearch *s, ProtoLines *in) {
    for (;;) {
        if (engine_search_done(s->es))
            return PROTO_EV_DONE;
        if (proto_lines_ready(in))
            return PROTO_EV_LINE;
        if (in->eof)
            return PROTO_EV_EOF;
        bool running = engine_search_running(s->es);
        struct pollfd fds[2] = {{in->fd, POLLIN, 0}, {engine_search_fd(s->es), POLLIN, 0}};
        int k = poll(fds, running ? 2 : 1, -1);
        if (k < 0 && errno != EINTR)
            return PROTO_EV_EOF;
        if (k > 0 && (fds[0].revents & (POLLIN | POLLHUP | POLLERR)))
            proto_lines_fill(in);
    }
}

void proto_search_wait_done(ProtoSearch *s) {
    while (engine_search_running(s->es) && !engine_search_done(s->es)) {
        struct pollfd fd = {engine_search_fd(s->es), POLLIN, 0};
        poll(&fd, 1, -1);
    }
}
