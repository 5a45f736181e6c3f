/* cli.c - variants, perft and divide, and the numbers of options (see cli.h). */
#include "app/cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/engine.h"

typedef struct {
    const char *fen, *file, *variant;
    int depth;
} PerftArgs;

long cli_number(const char *s, long min, long max) {
    char *end;
    long v = strtol(s, &end, 10);
    return *s && !*end && v >= min && v <= max ? v : -1;
}

static int usage_perft(const char *cmd) {
    fprintf(stderr,
            "usage: menagerie %s VARIANT DEPTH [--fen FEN]\n"
            "       menagerie %s --variant-file PATH DEPTH [--fen FEN]\n",
            cmd, cmd);
    return 2;
}

static int parse_perft_args(int argc, char **argv, PerftArgs *a) {
    const char *pos[2];
    int npos = 0;
    memset(a, 0, sizeof *a);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--fen") && i + 1 < argc)
            a->fen = argv[++i];
        else if (!strcmp(argv[i], "--variant-file") && i + 1 < argc)
            a->file = argv[++i];
        else if (argv[i][0] == '-' && argv[i][1] == '-') {
            fprintf(stderr, "menagerie %s: unknown option %s\n", argv[0], argv[i]);
            return -1;
        } else if (npos < 2)
            pos[npos++] = argv[i];
        else {
            fprintf(stderr, "menagerie %s: too many arguments\n", argv[0]);
            return -1;
        }
    }
    int want = a->file ? 1 : 2;
    if (npos != want)
        return -1;
    a->variant = a->file ? NULL : pos[0];
    char *end;
    long d = strtol(pos[want - 1], &end, 10);
    if (*end || d < 0 || d > 30) {
        fprintf(stderr, "menagerie %s: bad depth \"%s\"\n", argv[0], pos[want - 1]);
        return -1;
    }
    a->depth = (int)d;
    return 0;
}

static Game *open_game(const PerftArgs *a) {
    char err[ENGINE_ERR_LEN];
    Game *g = a->file ? engine_new_from_file(a->file, a->fen, err, sizeof err)
                      : engine_new(a->variant, a->fen, err, sizeof err);
    if (!g)
        fprintf(stderr, "menagerie: %s\n", err);
    return g;
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int cli_perft(int argc, char **argv) {
    PerftArgs a;
    if (parse_perft_args(argc, argv, &a))
        return usage_perft("perft");
    Game *g = open_game(&a);
    if (!g)
        return 1;
    double t0 = now();
    uint64_t n = engine_perft(g, a.depth);
    double dt = now() - t0;
    fprintf(stderr, "perft %d: %llu leaves in %.3f s (%.0f leaves/s)\n", a.depth,
            (unsigned long long)n, dt, dt > 0 ? (double)n / dt : 0.0);
    printf("%llu\n", (unsigned long long)n);
    engine_free(g);
    return 0;
}

static void print_divide(const char *move, uint64_t count, void *ud) {
    (void)ud;
    printf("%s: %llu\n", move, (unsigned long long)count);
}

int cli_divide(int argc, char **argv) {
    PerftArgs a;
    if (parse_perft_args(argc, argv, &a) || a.depth < 1)
        return usage_perft("divide");
    Game *g = open_game(&a);
    if (!g)
        return 1;
    uint64_t n = engine_divide(g, a.depth, print_divide, NULL, NULL);
    printf("\nNodes searched: %llu\n", (unsigned long long)n); /* Stockfish's form */
    engine_free(g);
    return 0;
}

int cli_variants(int argc, char **argv) {
    (void)argc, (void)argv;
    for (const char *const *n = engine_game_names(); *n; n++) {
        printf("%-20s %s", *n, engine_game_title(*n));
        const char *const *s = engine_setups(*n);
        if (s[0]) {
            printf(" (set-ups:");
            for (; *s; s++)
                printf(" %s", *s);
            printf(")");
        }
        printf("\n");
    }
    return 0;
}
