/* service.c - the engine service: one search thread per EngineSearch over a
 * private copy of the game (see engine.h).
 *
 * The copy is brought to the caller's game with engine_assign, so the
 * searcher's tables survive from one move to the next. The stop flag is
 * cleared before the thread exists and only set afterwards, so a stop can
 * never be lost. A timer thread stops the search at its deadline (the hard
 * stop of a clocked search, the budget after a ponder hit). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine/engine.h"
#include "engine/game.h"
#include "search/nnue.h"
#include "search/params.h"

struct EngineSearch {
    pthread_mutex_t lock; /* guards what the threads share below */
    pthread_cond_t wake;  /* the timer's: a new deadline or quit */
    pthread_t thread, timer;
    bool running; /* a search thread exists and is not joined (owner only) */
    bool quit;
    atomic_bool stop, done;
    int pipe[2];           /* one byte when a search ends, read when it is collected */
    Game *game;            /* the private copy, kept between searches */
    SearchLimits lim, run; /* as the caller asked (the ponder hit's budget); as searched */
    SearchParams params;   /* the caller's, else the option's (lim.params points here) */
    SearchParams option;   /* option SearchParams (engine_search_set_option) */
    NnueNet *net;          /* option EvalFile: a network file, NULL none */
    bool hand_eval;        /* option EvalFile <hand> */
    bool ponder;
    Side us; /* to move in the searched position */
    EngineCallbacks cb;
    int64_t started, deadline; /* monotonic ms; deadline 0 = none */
    int nlines;
    SearchInfo line[SEARCH_MAX_PV];
    EngineResult result;
};

static int64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void *timer_main(void *arg) {
    EngineSearch *s = arg;
    pthread_mutex_lock(&s->lock);
    while (!s->quit) {
        if (s->deadline && now_ms() >= s->deadline) {
            atomic_store(&s->stop, true);
            s->deadline = 0;
        }
        if (!s->deadline) {
            pthread_cond_wait(&s->wake, &s->lock);
            continue;
        }
        struct timespec ts = {(time_t)(s->deadline / 1000), (long)(s->deadline % 1000) * 1000000};
        pthread_cond_timedwait(&s->wake, &s->lock, &ts);
    }
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

EngineSearch *engine_search_new(void) {
    EngineSearch *s = calloc(1, sizeof *s);
    if (!s || pipe(s->pipe))
        abort();
    fcntl(s->pipe[0], F_SETFD, FD_CLOEXEC);
    fcntl(s->pipe[1], F_SETFD, FD_CLOEXEC);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&s->wake, &ca);
    pthread_condattr_destroy(&ca);
    pthread_mutex_init(&s->lock, NULL);
    atomic_init(&s->stop, false);
    atomic_init(&s->done, false);
    search_params_default(&s->option);
    if (pthread_create(&s->timer, NULL, timer_main, s))
        abort();
    return s;
}

void engine_search_free(EngineSearch *s) {
    if (!s)
        return;
    engine_search_abort(s);
    pthread_mutex_lock(&s->lock);
    s->quit = true;
    pthread_cond_signal(&s->wake);
    pthread_mutex_unlock(&s->lock);
    pthread_join(s->timer, NULL);
    engine_free(s->game);
    nnue_free(s->net);
    close(s->pipe[0]);
    close(s->pipe[1]);
    pthread_cond_destroy(&s->wake);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

static void set_deadline(EngineSearch *s, int64_t when) {
    pthread_mutex_lock(&s->lock);
    s->deadline = when;
    pthread_cond_signal(&s->wake);
    pthread_mutex_unlock(&s->lock);
}

/* Keeps the latest report of each line; the mancala gives no SAN of its
 * own, its move texts are the same in both forms. */
static void relay(const SearchInfo *info, void *ud) {
    EngineSearch *s = ud;
    SearchInfo in = *info;
    if (in.multipv < 1)
        in.multipv = 1;
    if (!in.pv_san[0])
        memcpy(in.pv_san, in.pv, sizeof in.pv_san);
    if (in.multipv <= SEARCH_MAX_PV) {
        pthread_mutex_lock(&s->lock);
        s->line[in.multipv - 1] = in;
        if (s->nlines < in.multipv)
            s->nlines = in.multipv;
        pthread_mutex_unlock(&s->lock);
    }
    if (s->cb.info)
        s->cb.info(&in, s->cb.ud);
}

/* The reply the best line expects after BEST, when it is legal. */
static void ponder_move(EngineSearch *s, const char *best) {
    EngineResult *r = &s->result;
    if (!r->nlines)
        return;
    char pv[sizeof r->line[0].pv];
    memcpy(pv, r->line[0].pv, sizeof pv);
    char *save = NULL, *first = strtok_r(pv, " ", &save), *second = strtok_r(NULL, " ", &save);
    char err[ENGINE_ERR_LEN];
    MoveDesc d;
    if (!first || !second || strcmp(first, best) || !engine_play(s->game, best, err, sizeof err))
        return;
    if (engine_describe(s->game, second, &d, err, sizeof err))
        snprintf(r->ponder, sizeof r->ponder, "%s", d.text);
    engine_undo(s->game);
}

static bool first_move(Game *g, MoveDesc *out) {
    MoveDesc *m = malloc(ENGINE_MAX_MOVES * sizeof *m);
    if (!m)
        abort();
    int n = engine_moves(g, m, ENGINE_MAX_MOVES);
    if (n > 0)
        *out = m[0];
    free(m);
    return n > 0;
}

static void *search_main(void *arg) {
    EngineSearch *s = arg;
    SearchCallbacks cb = {relay, s};
    // Step 1. Search, then check the move: never pass on an illegal one.
    char best[ENGINE_MOVE_TEXT] = "", err[ENGINE_ERR_LEN];
    bool ok = engine_search_in(s->game, &s->run, &cb, &s->stop, best, sizeof best);
    EngineResult *r = &s->result;
    MoveDesc d;
    ok = ok && best[0] && engine_describe(s->game, best, &d, err, sizeof err);
    if (!ok)
        r->fallback = first_move(s->game, &d);
    // Step 2. The result: the move, the lines, the expected reply.
    pthread_mutex_lock(&s->lock);
    r->nlines = s->nlines;
    memcpy(r->line, s->line, sizeof r->line);
    r->elapsed_ms = now_ms() - s->started;
    s->deadline = 0;
    pthread_mutex_unlock(&s->lock);
    if (ok || r->fallback) {
        snprintf(r->best, sizeof r->best, "%s", d.text);
        snprintf(r->best_san, sizeof r->best_san, "%s", d.san);
    }
    if (ok)
        ponder_move(s, r->best);
    // Step 3. Tell the owner.
    atomic_store(&s->done, true);
    ssize_t k;
    do
        k = write(s->pipe[1], "x", 1);
    while (k < 0 && errno == EINTR);
    if (s->cb.done)
        s->cb.done(s->cb.ud);
    return NULL;
}

/* The private copy at G's position (then EXTRA): assigned when it plays the
 * same game, else a fresh copy. */
static bool sync_copy(EngineSearch *s, const Game *g, const char *extra, char *err, size_t errlen) {
    if (!s->game || !engine_assign(s->game, g)) {
        engine_free(s->game);
        s->game = engine_copy(g);
        if (!s->game) {
            snprintf(err, errlen, "out of memory");
            return false;
        }
    }
    return !extra || engine_play(s->game, extra, err, errlen);
}

bool engine_search_start(EngineSearch *s, const Game *g, const char *extra, const SearchLimits *lim,
                         bool ponder, const EngineCallbacks *cb, char *err, size_t errlen) {
    if (s->running) {
        snprintf(err, errlen, "a search is running");
        return false;
    }
    if (!sync_copy(s, g, extra, err, errlen))
        return false;
    memset(&s->lim, 0, sizeof s->lim);
    if (lim)
        s->lim = *lim;
    /* the caller may change its own copy, or the option, meanwhile */
    s->params = s->lim.params ? *s->lim.params : s->option;
    s->lim.params = &s->params;
    if (!s->lim.net && !s->lim.hand_eval) {
        s->lim.net = s->net;
        s->lim.hand_eval = s->hand_eval;
    }
    s->ponder = ponder;
    s->run = s->lim;
    if (ponder) { /* no limits until the ponder hit */
        memset(&s->run, 0, sizeof s->run);
        s->run.infinite = true;
        s->run.level = s->lim.level;
        s->run.threads = s->lim.threads;
        s->run.hash_mb = s->lim.hash_mb;
        s->run.multipv = s->lim.multipv;
        s->run.params = s->lim.params;
        s->run.net = s->lim.net;
        s->run.hand_eval = s->lim.hand_eval;
    }
    s->us = engine_side_to_move(s->game);
    memset(&s->cb, 0, sizeof s->cb);
    if (cb)
        s->cb = *cb;
    memset(&s->result, 0, sizeof s->result);
    s->nlines = 0;
    atomic_store(&s->stop, false);
    atomic_store(&s->done, false);
    s->started = now_ms();
    /* a hard stop well before the flag falls, whatever the searcher does */
    int64_t deadline = 0;
    int64_t t = s->lim.time_ms[s->us]; /* any int: the products below fit */
    if (!ponder && t > 0 && !s->lim.infinite && !s->lim.nodes) {
        int64_t hard = s->lim.movestogo == 1 ? t * 8 / 10 - 30 : t / 2;
        if (hard < limits_floor_think_ms(&s->lim)) /* charged anyway */
            hard = limits_floor_think_ms(&s->lim);
        deadline = s->started + (hard < 10 ? 10 : hard);
    }
    set_deadline(s, deadline);
    if (pthread_create(&s->thread, NULL, search_main, s)) {
        snprintf(err, errlen, "cannot start a search thread");
        return false;
    }
    s->running = true;
    return true;
}

void engine_search_stop(EngineSearch *s) {
    atomic_store(&s->stop, true);
}

void engine_search_ponderhit(EngineSearch *s, const SearchLimits *lim) {
    if (!s->running || !s->ponder)
        return;
    s->ponder = false;
    if (!lim)
        lim = &s->lim;
    int budget = lim->movetime_ms
                     ? lim->movetime_ms
                     : engine_budget_ms(lim->time_ms[s->us], lim->inc_ms[s->us], lim->movestogo);
    set_deadline(s, now_ms() + budget);
}

bool engine_search_running(const EngineSearch *s) {
    return s->running;
}

bool engine_search_done(const EngineSearch *s) {
    return s->running && atomic_load(&s->done);
}

int engine_search_lines(EngineSearch *s, SearchInfo *out, int max) {
    pthread_mutex_lock(&s->lock);
    int n = s->running ? (s->nlines < max ? s->nlines : max) : 0;
    memcpy(out, s->line, (size_t)(n > 0 ? n : 0) * sizeof *out);
    pthread_mutex_unlock(&s->lock);
    return n;
}

bool engine_search_collect(EngineSearch *s, EngineResult *out) {
    if (!engine_search_done(s))
        return false;
    pthread_join(s->thread, NULL);
    char c;
    ssize_t k;
    do
        k = read(s->pipe[0], &c, 1);
    while (k < 0 && errno == EINTR);
    s->running = false;
    set_deadline(s, 0);
    if (out)
        *out = s->result;
    return true;
}

bool engine_search_wait(EngineSearch *s, EngineResult *out) {
    if (!s->running)
        return false;
    while (!atomic_load(&s->done)) {
        struct pollfd fd = {s->pipe[0], POLLIN, 0};
        poll(&fd, 1, 50);
    }
    return engine_search_collect(s, out);
}

void engine_search_clear(EngineSearch *s) {
    engine_search_abort(s);
    if (s->game)
        engine_clear(s->game);
}

void engine_search_abort(EngineSearch *s) {
    engine_search_stop(s);
    engine_search_wait(s, NULL);
}

int engine_search_fd(const EngineSearch *s) {
    return s->pipe[0];
}

int64_t engine_search_elapsed(const EngineSearch *s) {
    return s->running ? now_ms() - s->started : 0;
}

static bool set_search_params(EngineSearch *s, const char *value, char *err, size_t errlen) {
    SearchParams p;
    search_params_default(&p);
    if (!search_params_parse(&p, value, err, errlen))
        return false;
    s->option = p;
    return true;
}

static bool set_eval_file(EngineSearch *s, const char *value, char *err, size_t errlen) {
    NnueNet *net = NULL;
    bool hand = !strcmp(value, "<hand>");
    if (!hand && *value && strcmp(value, "<default>") &&
        !(net = nnue_load_file(value, err, errlen)))
        return false;
    if (s->running) { /* the running search reads the old one */
        nnue_free(net);
        snprintf(err, errlen, "a search is running");
        return false;
    }
    nnue_free(s->net);
    s->net = net;
    s->hand_eval = hand;
    return true;
}

bool engine_search_set_option(EngineSearch *s, const char *name, const char *value, char *err,
                              size_t errlen) {
    static const struct {
        const char *name;
        bool (*set)(EngineSearch *s, const char *value, char *err, size_t errlen);
    } options[] = {{"SearchParams", set_search_params}, {"EvalFile", set_eval_file}};
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++)
        if (!strcmp(name, options[i].name))
            return options[i].set(s, value, err, errlen);
    snprintf(err, errlen, "no option %s", name);
    return false;
}

bool engine_search_describe_eval(const EngineSearch *s, const Game *g, char *what, size_t len) {
    return engine_net_describe(g, s->net, s->hand_eval, what, len);
}

_Static_assert(SP_COUNT <= ENGINE_MAX_PARAMS, "engine.h: ENGINE_MAX_PARAMS too small");

int engine_param_count(void) {
    return SP_COUNT;
}

EngineParam engine_param(int i) {
    const SearchParamInfo *in = search_param_info(i);
    return (EngineParam){in->name, in->def, in->min, in->max, in->step};
}

int engine_param_index(const char *name) {
    return search_param_index(name);
}

bool engine_params_parse(int *values, const char *text, char *err, size_t errlen) {
    SearchParams p;
    memcpy(p.v, values, sizeof p.v);
    if (!search_params_parse(&p, text, err, errlen))
        return false;
    memcpy(values, p.v, sizeof p.v);
    return true;
}

bool engine_params_format(const int *values, char *buf, size_t len) {
    SearchParams p;
    memcpy(p.v, values, sizeof p.v);
    return search_params_format(&p, buf, len);
}

int engine_budget_ms(int time_ms, int inc_ms, int movestogo) {
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
