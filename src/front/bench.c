/* bench.c - `menagerie bench [DEPTH]`: a fixed-depth search of fixed
 * positions from every chess variant through the engine API, one thread and
 * a fixed table, so the total node count is a signature of the searcher.
 * Self-play between builds uses `menagerie match` (tools/selfplay.sh). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/engine.h"
#include "front/frontends.h"

typedef struct {
    const char *variant, *fen; /* fen NULL: the start position */
} BenchPos;

/* Each game's start and two middlegames (from the engine's self-play). */
static const BenchPos bench_positions[] = {
    {"chess", NULL},
    {"chess", "r3kb1r/pppnnppp/2bp4/3P4/8/2N5/PPP2PPP/R1B1KBNR w KQkq - 1 9"},
    {"chess", "r2k3r/ppp1bp1p/2np2p1/1N6/5B2/1B6/PPP2PPP/R3K2R w KQ - 6 16"},
    {"snake-vs-mongoose", NULL},
    {"snake-vs-mongoose", "r1b1qkgbnr/1sg3s1sn/ppn1pp1p1p/1npp4p1/6p2P/s5P3/1N1P3QN1/"
                          "1PP1PP1PP1/1M1M2M1M1/RNBG1KGBNR w KQkq - 1 9"},
    {"snake-vs-mongoose", "r3qkgbnr/1sg5s1/ppn1b2p1p/1n1pp3n1/2p1s1p3/s1P1PpP3/1N1P1Q2N1/"
                          "RP3P1PP1/1M1M1M2M1/1NBG1KGBNR w Kkq - 0 16"},
    {"team-mate", NULL},
    {"team-mate", "1u1akm1c/p1p1ppp1/1p2en1p/3pN3/1f1P4/2UFEP2/PPP1P1PP/3AKM1C w Kk - 2 9"},
    {"team-mate", "1u2k2c/p1p1ppp1/1p1m1n1p/a2pN3/2eP4/P1U1EP1M/2PCP1PP/3A2K1 w k - 0 16"},
    {"diamondback", NULL},
    {"diamondback", "3pr2k/3npqbb/3pp1p1/PNP1pnp1/R1PP2p1/1PPN1P2/BB1P4/KQ5r w - - 0 9"},
    {"diamondback", "3pr2k/3npqbb/3pp3/PNP1p2p/RNPP4/1P1PP3/1B3pn1/KB2Q3 w - - 2 16"},
    {"hannibal", NULL},
    {"hannibal", "rneb1kbe1r/pp4pppp/3p3n2/2p1ppq3/10/4PP1P1B/3F2QN2/PPPP2P1PP/RNEB1K1E1R"
                 "[Mdmdfh] w KQkq - 0 9"},
    {"hannibal", "rnem1r1ek1/pp4pppp/b2p3n2/2p2p4/5R1b2/4P2P1B/E2F2MN2/PPPP2P1PP/RN5EK1[fh] w - "
                 "- 0 16"},
};

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

static int bench_signature(int argc, char **argv) {
    int depth = DEFAULT_DEPTH;
    if (argc > 1) {
        char *end;
        long d = strtol(argv[1], &end, 10);
        if (*end || d < 1 || d > 64) {
            fprintf(stderr, "usage: menagerie bench [DEPTH] | menagerie bench slangenspel\n");
            return 2;
        }
        depth = (int)d;
    }
    uint64_t total = 0;
    double t0 = now_s();
    size_t npos = sizeof bench_positions / sizeof bench_positions[0];
    for (size_t i = 0; i < npos; i++) {
        const BenchPos *bp = &bench_positions[i];
        char err[ENGINE_ERR_LEN];
        Game *g = engine_new(bp->variant, bp->fen, err, sizeof err);
        if (!g) {
            fprintf(stderr, "menagerie bench: %s: %s\n", bp->variant, err);
            return 1;
        }
        SearchLimits lim;
        memset(&lim, 0, sizeof lim);
        lim.depth = depth;
        lim.threads = 1;
        lim.hash_mb = 16;
        BenchInfo bi;
        memset(&bi, 0, sizeof bi);
        SearchCallbacks cb = {on_info, &bi};
        char best[ENGINE_MOVE_TEXT];
        double p0 = now_s();
        engine_go(g, &lim, &cb, best, sizeof best);
        double dt = now_s() - p0;
        total += bi.last.nodes;
        printf("%2zu %-18s depth %2d score %6d nodes %10llu %6.0f knps  best %s\n", i + 1,
               bp->variant, bi.last.depth, bi.last.score, (unsigned long long)bi.last.nodes,
               dt > 0 ? bi.last.nodes / dt / 1000 : 0.0, best);
        fflush(stdout);
        engine_free(g);
    }
    double dt = now_s() - t0;
    printf("\nNodes searched: %llu\n", (unsigned long long)total);
    printf("Nodes/second: %.0f\n", dt > 0 ? total / dt : 0.0);
    printf("Bench: %llu\n", (unsigned long long)total);
    return 0;
}

int bench_main(int argc, char **argv) {
    /* `bench GAME`: a game kind's own benchmark (Slangenspel) */
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
        fprintf(stderr, "menagerie bench: %s has no benchmark of its own\n", argv[1]);
        return 2;
    }
    return bench_signature(argc, argv);
}
