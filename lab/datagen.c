/* datagen.c - `menagerie datagen`: training positions for a chess game's
 * network from fast self-play (docs/nnue.md).
 *
 * Each game starts from the variant's start (a random set-up where it has
 * several) and a few random plies, then both sides search a fixed number of
 * nodes a move. A position is kept with the search's score when it is quiet:
 * the side to move is not in check, the best move neither captures nor
 * promotes, the score is no mate. When the game ends (by its rules, by a
 * score beyond ADJUDICATE for both sides over 4 plies, or drawn after
 * MAX_PLIES) its positions get its result and are appended to the file
 * (lab/samples.h), one game at a time. A file that exists is checked (same
 * variant and features), cut after its last whole record and added to, so a
 * stopped run goes on where it was. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine/engine.h"
#include "lab/lab.h"
#include "lab/samples.h"

#define ADJUDICATE 2500
#define MAX_PLIES 400
#define MAX_LEGAL 2048

typedef struct {
    const char *variant;
    char features[64];
    long long want; /* positions in the file when done */
    int nodes, random_plies, hash_mb;
    struct NnueNet *net; /* --eval-file: the searches' network, NULL the variant's own */
    unsigned long long seed;
    FILE *out;
    pthread_mutex_t lock; /* out, positions, games */
    long long positions, games, start_positions;
    atomic_llong next_game;
    bool failed;
} Gen;

static volatile sig_atomic_t interrupted;

static void on_signal(int sig) {
    (void)sig;
    interrupted = 1;
}

static uint64_t next_rand(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

typedef struct {
    int score, mate;
} Last;

static void on_info(const SearchInfo *info, void *ud) {
    Last *l = ud;
    if (info->multipv <= 1) {
        l->score = info->score;
        l->mate = info->mate;
    }
}

static bool done(Gen *g) {
    pthread_mutex_lock(&g->lock);
    bool d = g->positions >= g->want || g->failed;
    pthread_mutex_unlock(&g->lock);
    return d || interrupted;
}

/* A new game with its random plies; NULL when it ended in them (try again). */
static Game *opening(Gen *gen, uint64_t *rng, char (*moves)[ENGINE_MOVE_TEXT]) {
    char fen[512], err[ENGINE_ERR_LEN];
    Game *g = engine_start_fen(gen->variant, NULL, fen, sizeof fen, err, sizeof err) == 0
                  ? engine_new(gen->variant, fen, err, sizeof err)
                  : engine_new(gen->variant, NULL, err, sizeof err);
    if (!g)
        return NULL;
    int plies = gen->random_plies + (int)(next_rand(rng) % 2); /* either side to move */
    for (int i = 0; i < plies; i++) {
        int n = engine_legal_moves(g, moves, MAX_LEGAL, false);
        if (n <= 0 || engine_result(g).kind != RESULT_NONE)
            break;
        engine_play(g, moves[next_rand(rng) % (uint64_t)n], err, sizeof err);
    }
    if (engine_result(g).kind != RESULT_NONE) {
        engine_free(g);
        return NULL;
    }
    return g;
}

/* One game: its quiet positions in recs (grown), their count; the result for White. */
static int play_game(Gen *gen, Game *g, Sample **recs, int *cap, int *result) {
    SearchLimits lim;
    memset(&lim, 0, sizeof lim);
    lim.nodes = (uint64_t)gen->nodes;
    lim.threads = 1;
    lim.hash_mb = gen->hash_mb;
    lim.net = gen->net;
    int n = 0, streak[2] = {0, 0};
    *result = 1;
    for (int ply = 0;; ply++) {
        GameResult r = engine_result(g);
        if (r.kind != RESULT_NONE) {
            *result = r.kind == RESULT_FIRST_WINS ? 2 : r.kind == RESULT_SECOND_WINS ? 0 : 1;
            break;
        }
        if (ply >= MAX_PLIES || interrupted)
            break;
        Last last = {0, 0};
        SearchCallbacks cb = {on_info, &last};
        char best[ENGINE_MOVE_TEXT], err[ENGINE_ERR_LEN];
        if (!engine_go(g, &lim, &cb, best, sizeof best))
            break;
        bool black = engine_side_to_move(g) == SIDE_SECOND;
        // Step 1. Adjudication: both sides agree one is far ahead.
        int white = black ? -last.score : last.score;
        bool far = last.mate || abs(last.score) >= ADJUDICATE;
        streak[0] = far && white > 0 ? streak[0] + 1 : 0;
        streak[1] = far && white < 0 ? streak[1] + 1 : 0;
        if (streak[0] >= 4 || streak[1] >= 4) {
            *result = streak[0] >= 4 ? 2 : 0;
            break;
        }
        // Step 2. A quiet position is kept.
        MoveDesc d, prev;
        bool checked = engine_last_move(g, &prev) && strpbrk(prev.san, "+#");
        bool noisy = !engine_describe(g, best, &d, err, sizeof err) || strpbrk(d.san, "x=") ||
                     d.promo || d.kind == 'e';
        if (!checked && !noisy && !last.mate) {
            if (n == *cap) {
                *cap = *cap ? 2 * *cap : 256;
                *recs = realloc(*recs, (size_t)*cap * sizeof **recs);
                if (!*recs)
                    abort();
            }
            Sample *s = &(*recs)[n];
            char features[64];
            s->n = engine_net_sample(g, s->item, features, sizeof features);
            if (s->n >= 0 && s->n <= SAMPLES_MAX_ITEMS) {
                s->black = black;
                s->first = n == 0;
                s->score = last.score < -32000 ? -32000 : last.score > 32000 ? 32000 : last.score;
                n++;
            }
        }
        if (!engine_play(g, best, err, sizeof err))
            break;
    }
    return n;
}

static void *worker(void *arg) {
    Gen *gen = arg;
    Sample *recs = NULL;
    int cap = 0;
    char(*moves)[ENGINE_MOVE_TEXT] = malloc(MAX_LEGAL * sizeof *moves);
    unsigned char *buf = malloc(6 + 2 * SAMPLES_MAX_ITEMS);
    if (!moves || !buf)
        abort();
    while (!done(gen)) {
        uint64_t rng =
            gen->seed ^ (uint64_t)atomic_fetch_add(&gen->next_game, 1) * 0xD1342543DE82EF95ull;
        Game *g = opening(gen, &rng, moves);
        if (!g)
            continue;
        int result, n = play_game(gen, g, &recs, &cap, &result);
        engine_free(g);
        if (interrupted || !n)
            continue; /* a game cut short has no result */
        pthread_mutex_lock(&gen->lock);
        for (int i = 0; i < n && !gen->failed; i++) {
            recs[i].result = result;
            size_t len = samples_encode(&recs[i], buf);
            gen->failed = fwrite(buf, 1, len, gen->out) != len;
        }
        gen->failed = gen->failed || fflush(gen->out) != 0;
        gen->positions += n;
        gen->games++;
        pthread_mutex_unlock(&gen->lock);
    }
    free(recs);
    free(moves);
    free(buf);
    return NULL;
}

/* Opens the file to add to: made with its header, or checked and cut after its
 * last whole record, counting what it holds. */
static FILE *open_out(Gen *gen, const char *path) {
    FILE *f = fopen(path, "r+b");
    if (!f && errno == ENOENT) {
        f = fopen(path, "w+b");
        if (f && !samples_write_header(f, gen->variant, gen->features)) {
            fclose(f);
            f = NULL;
        }
        if (!f)
            fprintf(stderr, "menagerie datagen: cannot write %s\n", path);
        return f;
    }
    if (!f) {
        fprintf(stderr, "menagerie datagen: cannot open %s: %s\n", path, strerror(errno));
        return NULL;
    }
    char variant[32], features[64];
    if (!samples_read_header(f, variant, features) || strcmp(variant, gen->variant) ||
        strcmp(features, gen->features)) {
        fprintf(stderr,
                "menagerie datagen: %s is not training data of %s with features \"%s\" (a "
                "new file needs a new name)\n",
                path, gen->variant, gen->features);
        fclose(f);
        return NULL;
    }
    Sample *s = malloc(sizeof *s);
    if (!s)
        abort();
    long good = ftell(f);
    int r;
    while ((r = samples_read(f, s)) == 1) {
        gen->positions++;
        gen->games += s->first;
        good = ftell(f);
    }
    free(s);
    if (r < 0)
        fprintf(stderr,
                "menagerie datagen: %s is damaged after %lld positions; adding from there\n", path,
                gen->positions);
    if (fflush(f) || ftruncate(fileno(f), good) || fseek(f, good, SEEK_SET)) {
        fprintf(stderr, "menagerie datagen: cannot write %s\n", path);
        fclose(f);
        return NULL;
    }
    return f;
}

static void usage(FILE *out) {
    fprintf(out, "usage: menagerie datagen VARIANT --out FILE [options]\n"
                 "  --positions N     positions the file holds when done (default 1000000)\n"
                 "  --nodes N         nodes searched a move (default 5000)\n"
                 "  --random-plies N  random plies before the search plays (default 8, or 9)\n"
                 "  --threads N       games played at once (default 1)\n"
                 "  --hash MB         each game's hash table (default 8)\n"
                 "  --seed N          the random plies' seed (default: the time)\n"
                 "  --eval-file NET   the searches' network (default: the variant's own)\n"
                 "An existing FILE is added to: a stopped run goes on where it was.\n");
}

static bool number(const char *s, long long lo, long long hi, long long *out) {
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

int datagen_main(int argc, char **argv) {
    Gen gen;
    memset(&gen, 0, sizeof gen);
    gen.want = 1000000;
    gen.nodes = 5000;
    gen.random_plies = 8;
    gen.hash_mb = 8;
    gen.seed = (unsigned long long)time(NULL) * 0x9E3779B97F4A7C15ull;
    long long threads = 1;
    const char *path = NULL;
    // Step 1. The arguments.
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        long long x;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (a[0] != '-' && !gen.variant) {
            gen.variant = a;
            continue;
        } else if (!v) {
            fprintf(stderr, "menagerie datagen: %s wants a value\n", a);
            return 2;
        } else if (!strcmp(a, "--out")) {
            path = v;
        } else if (!strcmp(a, "--eval-file") && !gen.net) {
            char err[ENGINE_ERR_LEN];
            if (!(gen.net = engine_net_load(v, err, sizeof err))) {
                fprintf(stderr, "menagerie datagen: %s\n", err);
                return 2;
            }
        } else if (!strcmp(a, "--positions") && number(v, 1, 1LL << 40, &x)) {
            gen.want = x;
        } else if (!strcmp(a, "--nodes") && number(v, 1, 100000000, &x)) {
            gen.nodes = (int)x;
        } else if (!strcmp(a, "--random-plies") && number(v, 0, 100, &x)) {
            gen.random_plies = (int)x;
        } else if (!strcmp(a, "--threads") && number(v, 1, 256, &x)) {
            threads = x;
        } else if (!strcmp(a, "--hash") && number(v, 1, 4096, &x)) {
            gen.hash_mb = (int)x;
        } else if (!strcmp(a, "--seed") && number(v, 0, INT64_MAX, &x)) {
            gen.seed = (unsigned long long)x * 0x9E3779B97F4A7C15ull + 1;
        } else {
            fprintf(stderr, "menagerie datagen: bad option %s %s\n", a, v);
            return 2;
        }
        i++;
    }
    if (!gen.variant || !path) {
        usage(stderr);
        return 2;
    }
    char err[ENGINE_ERR_LEN];
    Game *probe = engine_new(gen.variant, NULL, err, sizeof err);
    if (!probe) {
        fprintf(stderr, "menagerie datagen: %s\n", err);
        return 2;
    }
    uint16_t items[ENGINE_NET_ITEMS];
    int ok = engine_net_sample(probe, items, gen.features, sizeof gen.features);
    char what[200];
    bool fits = engine_net_describe(probe, gen.net, false, what, sizeof what);
    engine_free(probe);
    if (ok < 0 || !fits) {
        fprintf(stderr, "menagerie datagen: %s\n",
                ok < 0 ? "this game has no network evaluation" : what);
        engine_net_free(gen.net);
        return 2;
    }
    // Step 2. The file, and where it stands.
    if (!(gen.out = open_out(&gen, path)))
        return 1;
    gen.start_positions = gen.positions;
    atomic_init(&gen.next_game, gen.games);
    pthread_mutex_init(&gen.lock, NULL);
    fprintf(stderr,
            "datagen %s: %lld positions in %s, %lld wanted, %d nodes a move, %lld threads, %s\n",
            gen.variant, gen.positions, path, gen.want, gen.nodes, threads, what);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    // Step 3. The games, with a progress line every 10 seconds.
    pthread_t th[256];
    int started = 0;
    for (; started < threads; started++)
        if (pthread_create(&th[started], NULL, worker, &gen))
            break;
    struct timespec t0, now;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    double last_report = 0;
    while (!done(&gen)) {
        nanosleep(&(struct timespec){0, 200000000}, NULL);
        clock_gettime(CLOCK_MONOTONIC, &now);
        double el = (double)(now.tv_sec - t0.tv_sec) + (now.tv_nsec - t0.tv_nsec) / 1e9;
        if (el - last_report < 10)
            continue;
        last_report = el;
        pthread_mutex_lock(&gen.lock);
        long long have = gen.positions, games = gen.games, made = have - gen.start_positions;
        pthread_mutex_unlock(&gen.lock);
        double rate = made / el;
        double left = rate > 0 ? (gen.want - have) / rate : 0;
        fprintf(stderr,
                "datagen %s: %lld/%lld positions (%.1f%%), %lld games, %.0f positions/s, "
                "about %d:%02d:%02d left\n",
                gen.variant, have, gen.want, 100.0 * have / gen.want, games, rate,
                (int)(left / 3600), (int)(left / 60) % 60, (int)left % 60);
    }
    for (int i = 0; i < started; i++)
        pthread_join(th[i], NULL);
    bool failed = gen.failed || fclose(gen.out) != 0;
    clock_gettime(CLOCK_MONOTONIC, &now);
    double el = (double)(now.tv_sec - t0.tv_sec) + (now.tv_nsec - t0.tv_nsec) / 1e9;
    fprintf(stderr,
            "datagen %s: %lld positions in %s (%lld games), %lld new in %.0f s (%.0f/s)%s\n",
            gen.variant, gen.positions, path, gen.games, gen.positions - gen.start_positions, el,
            el > 0 ? (gen.positions - gen.start_positions) / el : 0.0,
            failed        ? ": WRITE FAILED"
            : interrupted ? ": stopped, run again to go on"
                          : "");
    pthread_mutex_destroy(&gen.lock);
    engine_net_free(gen.net);
    return failed ? 1 : interrupted ? 130 : 0;
}
