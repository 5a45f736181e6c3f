/* egdb_cmd.c - `menagerie egdb`: builds and checks the Slangenspel endgame
 * databases, a thin front end over the engine API. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app/cli.h"
#include "app/frontends.h"
#include "engine/engine.h"

typedef struct {
    double t0;
    int last_pct;
} Bar;

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void on_estimate(const char *path, uint64_t bytes, double seconds, void *ud) {
    const Bar *b = ud;
    fprintf(stderr, "%s%s: %.1f MB, about %.0f s on this machine now\n",
            b->last_pct >= 0 ? "\n" : "", path, (double)bytes / 1e6, seconds);
}

static void on_progress(int layer, int pass, double done, void *ud) {
    Bar *b = ud;
    int pct = (int)(done * 1000);
    if (pct == b->last_pct)
        return;
    b->last_pct = pct;
    double el = now_s() - b->t0;
    char bar[31];
    int fill = (int)(done * 30);
    for (int i = 0; i < 30; i++)
        bar[i] = i < fill ? '#' : '.';
    bar[30] = 0;
    fprintf(stderr, "\r[%s] %5.1f%%  layer %2d pass %2d  %4.0f s elapsed", bar, done * 100, layer,
            pass, el);
    if (done > 0.02)
        fprintf(stderr, ", %4.0f s left", el / done - el);
    fflush(stderr);
}

static int usage_egdb(void) {
    fprintf(stderr, "usage: menagerie egdb build [--eggs N] [--rules base|a|b|ab|all] "
                    "[--threads N] [--data DIR]\n"
                    "       menagerie egdb check [--rules base|a|b|ab|all] [--data DIR]\n");
    return 2;
}

/* Default egg counts, chosen from measured size and time (see docs/analysis.md). */
#define EGDB_DEFAULT_BASE 16
#define EGDB_DEFAULT_B 6

int egdb_main(int argc, char **argv) {
    if (argc < 2 || (strcmp(argv[1], "build") && strcmp(argv[1], "check")))
        return usage_egdb();
    bool build = !strcmp(argv[1], "build");
    const char *rules = "all";
    long eggs = -1, threads = 2;
    for (int i = 2; i < argc; i++) {
        bool has = i + 1 < argc;
        if (!strcmp(argv[i], "--rules") && has) {
            rules = argv[++i];
        } else if (!strcmp(argv[i], "--data") && has) {
            engine_set_data_dir(argv[++i]);
        } else if (build && !strcmp(argv[i], "--eggs") && has) {
            if ((eggs = cli_number(argv[++i], 0, 24)) < 0) {
                fprintf(stderr, "menagerie egdb: bad --eggs \"%s\" (0 to 24)\n", argv[i]);
                return 2;
            }
        } else if (build && !strcmp(argv[i], "--threads") && has) {
            if ((threads = cli_number(argv[++i], 1, 16)) < 0) {
                fprintf(stderr, "menagerie egdb: bad --threads \"%s\" (1 to 16)\n", argv[i]);
                return 2;
            }
        } else {
            fprintf(stderr, "menagerie egdb: unexpected argument \"%s\"\n", argv[i]);
            return usage_egdb();
        }
    }
    static const char *const all[] = {"base", "b", NULL};
    const char *one[] = {rules, NULL};
    const char *const *list = !strcmp(rules, "all") ? all : one;
    int rc = 0;
    for (; *list; list++) {
        char err[4400], path[4200];
        bool var_b = !strcmp(*list, "b") || !strcmp(*list, "ab");
        if (!build) {
            int n = engine_egdb_check(*list, path, sizeof path, err, sizeof err);
            if (n < 0) {
                fprintf(stderr, "menagerie egdb: %s\n", err);
                rc = 1;
            } else {
                printf("%s: %s table, %d eggs, checksum good\n", path,
                       var_b ? "variant B" : "base rules", n);
            }
            continue;
        }
        int n = (int)eggs;
        if (n < 0)
            n = var_b ? EGDB_DEFAULT_B : EGDB_DEFAULT_BASE;
        Bar bar = {now_s(), -1};
        EgdbCallbacks cb = {on_estimate, on_progress, &bar};
        if (engine_egdb_build(*list, n, (int)threads, &cb, err, sizeof err) != 0) {
            fprintf(stderr, "\nmenagerie egdb: %s\n", err);
            return 1;
        }
        fprintf(stderr, "\n");
        printf("built %s rules up to %d eggs in %.1f s\n", *list, n, now_s() - bar.t0);
    }
    return rc;
}
