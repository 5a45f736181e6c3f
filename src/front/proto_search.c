/* proto_search.c - engine_go on a thread (see proto_search.h). */
#include "front/proto_search.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct ProtoSearch {
    pthread_t thread;
    bool running; /* a thread exists and is not joined */
    atomic_bool done;
    int pipe[2]; /* the thread writes one byte when it ends */
    Game *game;  /* private copy being searched: the mirror, kept between
                    searches so the searcher keeps its tables */
    SearchLimits lim;
    ProtoInfoFn info;
    void *ud;
    int tag;
    int64_t started, deadline;
    bool halted;          /* a stop was asked: repeat it until the thread ends, as a
                             stop that comes before engine_go has started is lost */
    pthread_mutex_t lock; /* guards result.last while the thread runs */
    ProtoResult result;
};

ProtoSearch *proto_search_new(void) {
    ProtoSearch *s = calloc(1, sizeof *s);
    if (!s || pipe(s->pipe))
        abort();
    fcntl(s->pipe[0], F_SETFD, FD_CLOEXEC);
    fcntl(s->pipe[1], F_SETFD, FD_CLOEXEC);
    pthread_mutex_init(&s->lock, NULL);
    s->tag = -1;
    return s;
}

void proto_search_free(ProtoSearch *s) {
    if (!s)
        return;
    proto_search_abort(s);
    engine_free(s->game);
    close(s->pipe[0]);
    close(s->pipe[1]);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

static void relay(const SearchInfo *info, void *ud) {
    ProtoSearch *s = ud;
    pthread_mutex_lock(&s->lock);
    s->result.last = *info;
    s->result.have_info = true;
    pthread_mutex_unlock(&s->lock);
    if (s->info)
        s->info(info, s->tag, s->ud);
}

/* The second move of the PV when its first is BEST and it is legal. */
static void ponder_move(ProtoSearch *s, const char *best) {
    char pv[sizeof s->result.last.pv];
    pthread_mutex_lock(&s->lock);
    snprintf(pv, sizeof pv, "%s", s->result.have_info ? s->result.last.pv : "");
    pthread_mutex_unlock(&s->lock);
    char *save = NULL, *first = strtok_r(pv, " ", &save), *second = strtok_r(NULL, " ", &save);
    char err[ENGINE_ERR_LEN];
    if (!first || !second || strcmp(first, best) || !engine_play(s->game, best, err, sizeof err))
        return;
    Game *probe = proto_clone(s->game);
    if (probe && engine_play(probe, second, err, sizeof err))
        snprintf(s->result.ponder, sizeof s->result.ponder, "%s", second);
    engine_free(probe);
    engine_undo(s->game);
}

static void *run(void *arg) {
    ProtoSearch *s = arg;
    SearchCallbacks cb = {relay, s};
    char best[ENGINE_MOVE_TEXT] = "";
    bool ok = engine_go(s->game, &s->lim, &cb, best, sizeof best);
    if (ok && best[0]) {
        char err[ENGINE_ERR_LEN];
        Game *probe = proto_clone(s->game); /* never pass on an illegal move */
        ok = probe && engine_play(probe, best, err, sizeof err);
        engine_free(probe);
    }
    if (!ok || !best[0]) {
        best[0] = 0;
        s->result.fallback = proto_first_move(s->game, best, sizeof best);
    } else
        ponder_move(s, best);
    snprintf(s->result.best, sizeof s->result.best, "%s", best);
    atomic_store(&s->done, true);
    ssize_t k;
    do
        k = write(s->pipe[1], "x", 1);
    while (k < 0 && errno == EINTR);
    return NULL;
}

/* Brings the mirror to G's position (plus EXTRA) by taking back and
 * playing moves; a new copy when the game or its start differ. */
static Game *sync_mirror(ProtoSearch *s, Game *g, const char *extra) {
    char err[ENGINE_ERR_LEN];
    if (s->game) {
        GameInfo a, b;
        char fa[512], fb[512];
        engine_info(s->game, &a);
        engine_info(g, &b);
        engine_initial_text(s->game, fa, sizeof fa);
        engine_initial_text(g, fb, sizeof fb);
        if (strcmp(a.name, b.name) || strcmp(fa, fb)) {
            engine_free(s->game);
            s->game = NULL;
        }
    }
    if (!s->game) {
        s->game = proto_clone(g);
        if (!s->game)
            return NULL;
    } else {
        char(*hg)[ENGINE_MOVE_TEXT] = malloc(PROTO_MAX_PLIES * sizeof *hg);
        char(*hm)[ENGINE_MOVE_TEXT] = malloc(PROTO_MAX_PLIES * sizeof *hm);
        if (!hg || !hm)
            abort();
        int ng = engine_history(g, hg, PROTO_MAX_PLIES, false);
        int nm = engine_history(s->game, hm, PROTO_MAX_PLIES, false);
        int k = 0;
        while (k < ng && k < nm && !strcmp(hg[k], hm[k]))
            k++;
        bool ok = true;
        for (int i = nm; i > k && ok; i--)
            ok = engine_undo(s->game);
        for (int i = k; i < ng && ok; i++)
            ok = engine_play(s->game, hg[i], err, sizeof err);
        free(hg);
        free(hm);
        if (!ok) {
            engine_free(s->game);
            s->game = proto_clone(g);
            if (!s->game)
                return NULL;
        }
    }
    if (extra && !engine_play(s->game, extra, err, sizeof err))
        return NULL;
    return s->game;
}

bool proto_search_start(ProtoSearch *s, Game *g, const char *extra, const SearchLimits *lim,
                        ProtoInfoFn info, void *ud, int tag) {
    if (s->running)
        return false;
    if (!sync_mirror(s, g, extra))
        return false;
    s->lim = *lim;
    s->info = info;
    s->ud = ud;
    s->tag = tag;
    s->started = proto_now_ms();
    s->deadline = 0;
    s->halted = false;
    memset(&s->result, 0, sizeof s->result);
    s->result.tag = tag;
    atomic_store(&s->done, false);
    if (pthread_create(&s->thread, NULL, run, s))
        return false;
    s->running = true;
    return true;
}

bool proto_search_running(const ProtoSearch *s) {
    return s->running;
}
int proto_search_tag(const ProtoSearch *s) {
    return s->running ? s->tag : -1;
}
int64_t proto_search_started(const ProtoSearch *s) {
    return s->started;
}

bool proto_search_last(ProtoSearch *s, SearchInfo *out) {
    if (!s->running)
        return false;
    pthread_mutex_lock(&s->lock);
    bool have = s->result.have_info;
    if (have)
        *out = s->result.last;
    pthread_mutex_unlock(&s->lock);
    return have;
}

void proto_search_halt(ProtoSearch *s) {
    if (s->running) {
        s->halted = true;
        engine_stop(s->game);
    }
}

/* Waits up to MS for the thread to finish; false when it has not. */
static bool wait_pipe(ProtoSearch *s, int ms) {
    struct pollfd fd = {s->pipe[0], POLLIN, 0};
    return poll(&fd, 1, ms) > 0 || atomic_load(&s->done);
}

static void drain(ProtoSearch *s) {
    char c;
    ssize_t k;
    do
        k = read(s->pipe[0], &c, 1);
    while (k < 0 && errno == EINTR);
}

static void join(ProtoSearch *s) {
    while (s->halted && !atomic_load(&s->done) && !wait_pipe(s, 20))
        engine_stop(s->game);
    pthread_join(s->thread, NULL);
    drain(s);
    s->running = false;
    s->halted = false;
    s->deadline = 0;
}

void proto_search_abort(ProtoSearch *s) {
    if (!s->running)
        return;
    proto_search_halt(s);
    join(s);
    s->tag = -1;
}

void proto_search_set_deadline(ProtoSearch *s, int64_t when) {
    s->deadline = when;
}

bool proto_search_finish(ProtoSearch *s, ProtoResult *out) {
    if (!s->running || !atomic_load(&s->done))
        return false;
    join(s);
    *out = s->result;
    out->elapsed_ms = proto_now_ms() - s->started;
    s->tag = -1;
    return true;
}

#define DEADLINE_PASSED (-2)

/* How long a running search's owner may sleep in poll(): a halted search
 * gets its stop repeated every 20 ms (a stop sent before the search began
 * is lost), and one past its deadline is halted now (DEADLINE_PASSED). */
static int poll_timeout(ProtoSearch *s) {
    int timeout = -1;
    if (s->halted) {
        engine_stop(s->game);
        timeout = 20;
    }
    if (s->deadline) {
        int64_t left = s->deadline - proto_now_ms();
        if (left <= 0) {
            proto_search_halt(s);
            s->deadline = 0;
            return DEADLINE_PASSED;
        }
        if (timeout < 0 || left < timeout)
            timeout = left > 1000000 ? 1000000 : (int)left;
    }
    return timeout;
}

ProtoEvent proto_search_wait(ProtoSearch *s, ProtoLines *in) {
    for (;;) {
        if (s->running && atomic_load(&s->done))
            return PROTO_EV_DONE;
        if (proto_lines_ready(in))
            return PROTO_EV_LINE;
        if (in->eof)
            return PROTO_EV_EOF;
        struct pollfd fds[2] = {{in->fd, POLLIN, 0}, {s->pipe[0], POLLIN, 0}};
        int timeout = s->running ? poll_timeout(s) : -1;
        if (timeout == DEADLINE_PASSED)
            continue;
        int k = poll(fds, s->running ? 2 : 1, timeout);
        if (k < 0 && errno != EINTR)
            return PROTO_EV_EOF;
        if (k > 0 && (fds[0].revents & (POLLIN | POLLHUP | POLLERR)))
            proto_lines_fill(in);
    }
}

void proto_search_wait_done(ProtoSearch *s) {
    while (s->running && !atomic_load(&s->done)) {
        struct pollfd fd = {s->pipe[0], POLLIN, 0};
        int timeout = poll_timeout(s);
        if (timeout == DEADLINE_PASSED)
            continue;
        poll(&fd, 1, timeout);
    }
}

int proto_budget_ms(int time_ms, int inc_ms, int movestogo) {
    if (time_ms <= 0)
        return inc_ms > 0 ? inc_ms / 2 : 1000;
    int moves = movestogo > 0 ? (movestogo < 40 ? movestogo : 40) : 30;
    int64_t b = (int64_t)time_ms / (moves + (movestogo == 1 ? 0 : 2)) + (int64_t)inc_ms * 3 / 4;
    int64_t cap = movestogo == 1 ? (int64_t)time_ms * 7 / 10 : (int64_t)time_ms / 4;
    if (b > cap)
        b = cap;
    if (b > time_ms - 50)
        b = time_ms - 50;
    return b < 5 ? 5 : (int)b;
}
