/* bench.c - `menagerie bench [DEPTH]`: a fixed-depth search of fixed
 * positions through the engine API, one thread and a fixed table, so the
 * total node count is a signature of the searcher. The positions come from
 * the definition files: every chess variant with benchFen lines gives its
 * start and those; `bench DEPTH GAME` searches one game's (its start alone
 * when it has none). --eval-file FILE scores its variant's positions by that
 * network, --hand-eval every position by the hand-made evaluation.
 * Self-play between builds uses `menagerie match` (lab/strength/selfplay.sh). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app/frontends.h"
#include "engine/engine.h"

#define DEFAULT_DEPTH 8

typedef struct {
    SearchInfo last;
    int n;
} BenchInfo;

static void on_info(const SearchInfo *si, void *ud) {
    BenchInfo *bi = ud;
    bi->last = *si;
    bi->n++;
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The evaluation asked for: --eval-file FILE (a network, for its variant's
 * positions) or --hand-eval. */
typedef struct {
    struct NnueNet *net;
    bool hand;
} BenchEval;

/* One fixed-depth search; returns its nodes, -1 when the game cannot be made. */
static int64_t bench_one(int index, const char *variant, const char *fen, int depth,
                         const BenchEval *be) {
    char err[ENGINE_ERR_LEN];
    Game *g = engine_new(variant, fen, err, sizeof err);
    if (!g) {
        fprintf(stderr, "menagerie bench: %s: %s\n", variant, err);
        return -1;
    }
    SearchLimits lim;
    memset(&lim, 0, sizeof lim);
    lim.depth = depth;
    lim.threads = 1;
    lim.hash_mb = 16;
    lim.net = be->net;
    lim.hand_eval = be->hand;
    BenchInfo bi;
    memset(&bi, 0, sizeof bi);
    SearchCallbacks cb = {on_info, &bi};
    char best[ENGINE_MOVE_TEXT];
    double p0 = now_s();
    engine_go(g, &lim, &cb, best, sizeof best);
    double dt = now_s() - p0;
    printf("%2d %-18s depth %2d score %6d nodes %10llu %6.0f knps  best %s\n", index, variant,
           bi.last.depth, bi.last.score, (unsigned long long)bi.last.nodes,
           dt > 0 ? bi.last.nodes / dt / 1000 : 0.0, best);
    fflush(stdout);
    engine_free(g);
    return (int64_t)bi.last.nodes;
}

/* The positions of one game: its start, then its benchFen lines. */
static int bench_game(const GameInfo *gi, int depth, int *index, uint64_t *total,
                      const BenchEval *be) {
    for (int i = -1; i < gi->nbench; i++) {
        int64_t n = bench_one(++*index, gi->name, i < 0 ? NULL : gi->bench_fen[i], depth, be);
        if (n < 0)
            return 1;
        *total += (uint64_t)n;
    }
    return 0;
}

static int bench_signature(int argc, char **argv, const BenchEval *be) {
    int depth = DEFAULT_DEPTH;
    if (argc > 1) {
        char *end;
        long d = strtol(argv[1], &end, 10);
        if (*end || d < 1 || d > 64) {
            fprintf(stderr, "usage: menagerie bench [DEPTH [GAME]] | menagerie bench GAME\n");
            return 2;
        }
        depth = (int)d;
    }
    const char *only = argc > 2 ? argv[2] : NULL;
    GameInfo *gi = malloc(sizeof *gi);
    if (!gi)
        abort();
    if (only && (!engine_game_info(only, gi) || gi->kind != KIND_CHESS)) {
        fprintf(stderr, "menagerie bench: %s is not a chess variant (see `menagerie variants`)\n",
                only);
        free(gi);
        return 2;
    }
    uint64_t total = 0;
    int index = 0, rc = 0;
    double t0 = now_s();
    if (only)
        rc = bench_game(gi, depth, &index, &total, be);
    for (const char *const *nm = engine_game_names(); !only && !rc && *nm; nm++)
        if (engine_game_info(*nm, gi) && gi->kind == KIND_CHESS && gi->nbench && !gi->user)
            rc = bench_game(gi, depth, &index, &total, be);
    free(gi);
    if (rc)
        return rc;
    double dt = now_s() - t0;
    printf("\nNodes searched: %llu\n", (unsigned long long)total);
    printf("Nodes/second: %.0f\n", dt > 0 ? total / dt : 0.0);
    printf("Bench: %llu\n", (unsigned long long)total);
    return 0;
}

static int bench_run(int argc, char **argv, const BenchEval *be) {
    /* `bench GAME [--data DIR] [--positions FILE]`: a game kind's own
     * benchmark (Slangenspel), else the game's positions at the default depth */
    if (argc > 1 && engine_game_title(argv[1])) {
        const char *positions = NULL;
        for (int i = 2; i < argc; i++) {
            if (!strcmp(argv[i], "--data") && i + 1 < argc) {
                engine_set_data_dir(argv[++i]);
            } else if (!strcmp(argv[i], "--positions") && i + 1 < argc) {
                positions = argv[++i];
            } else {
                fprintf(stderr, "usage: menagerie bench %s [--data DIR] [--positions FILE]\n",
                        argv[1]);
                return 2;
            }
        }
        if (engine_kind_bench(argv[1], positions, stdout) == 0)
            return 0;
        char depth[16];
        snprintf(depth, sizeof depth, "%d", DEFAULT_DEPTH);
        char *args[] = {argv[0], depth, argv[1], NULL};
        return bench_signature(3, args, be);
    }
    return bench_signature(argc, argv, be);
}

int bench_main(int argc, char **argv) {
    // Step 1. The evaluation's options, wherever they stand; the rest as it is.
    BenchEval be = {NULL, false};
    char **rest = calloc((size_t)argc + 1, sizeof *rest);
    if (!rest)
        abort();
    int n = 0;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--hand-eval")) {
            be.hand = true;
        } else if (!strcmp(argv[i], "--eval-file") && i + 1 < argc && !be.net) {
            char err[ENGINE_ERR_LEN];
            if (!(be.net = engine_net_load(argv[++i], err, sizeof err))) {
                fprintf(stderr, "menagerie bench: %s\n", err);
                free(rest);
                return 2;
            }
        } else {
            rest[n++] = argv[i];
        }
    }
    int rc = bench_run(n, rest, &be);
    engine_net_free(be.net);
    free(rest);
    return rc;
}
