/* analyse.c - `menagerie analyse` (one search of one position, for scripts;
 * --json for one JSON object instead of text lines) and
 * `menagerie egdb` (build and check the Slangenspel endgame databases), both thin
 * front ends over the engine API. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "engine/engine.h"
#include "front/frontends.h"

/* A whole decimal number from MIN to MAX, or -1. */
static long number(const char *s, long min, long max) {
    char *end;
    long v = strtol(s, &end, 10);
    return *s && !*end && v >= min && v <= max ? v : -1;
}

/* ---- analyse ---- */

static void print_info(const SearchInfo *si, void *ud) {
    const int *multipv = ud;
    char line[32] = "";
    if (*multipv > 1)
        snprintf(line, sizeof line, " multipv %d", si->multipv);
    printf("info%s depth %d seldepth %d score %d%s nodes %llu time %d pv %s\n", line, si->depth,
           si->seldepth, si->score, si->exact ? " exact" : "", (unsigned long long)si->nodes,
           si->time_ms, si->pv);
    fflush(stdout);
}

/* A line's moves as a JSON array of strings. */
static cJSON *move_array(const char *pv) {
    cJSON *a = cJSON_CreateArray();
    char buf[sizeof((SearchInfo *)0)->pv];
    snprintf(buf, sizeof buf, "%s", pv);
    char *save = NULL;
    for (char *m = strtok_r(buf, " ", &save); m; m = strtok_r(NULL, " ", &save))
        cJSON_AddItemToArray(a, cJSON_CreateString(m));
    return a;
}

/* --json: the position, the best move and every best line, as one object on
 * one line. */
static void print_json(const char *game, const char *fen, const EngineResult *r) {
    cJSON *o = cJSON_CreateObject(), *lines = cJSON_CreateArray();
    cJSON_AddStringToObject(o, "game", game);
    cJSON_AddStringToObject(o, "fen", fen);
    cJSON_AddStringToObject(o, "bestmove", r->best);
    cJSON_AddStringToObject(o, "bestmove_san", r->best_san);
    if (r->ponder[0])
        cJSON_AddStringToObject(o, "ponder", r->ponder);
    else
        cJSON_AddNullToObject(o, "ponder");
    for (int i = 0; i < r->nlines; i++) {
        const SearchInfo *si = &r->line[i];
        cJSON *l = cJSON_CreateObject();
        cJSON_AddNumberToObject(l, "multipv", si->multipv);
        cJSON_AddNumberToObject(l, "depth", si->depth);
        cJSON_AddNumberToObject(l, "seldepth", si->seldepth);
        cJSON_AddNumberToObject(l, "score", si->score);
        if (si->mate)
            cJSON_AddNumberToObject(l, "mate", si->mate);
        else
            cJSON_AddNullToObject(l, "mate");
        cJSON_AddBoolToObject(l, "exact", si->exact || si->mate != 0);
        cJSON_AddNumberToObject(l, "nodes", (double)si->nodes);
        cJSON_AddNumberToObject(l, "nps", (double)si->nps);
        cJSON_AddNumberToObject(l, "time_ms", si->time_ms);
        cJSON_AddItemToObject(l, "pv", move_array(si->pv));
        cJSON_AddItemToObject(l, "pv_san", move_array(si->pv_san));
        cJSON_AddItemToArray(lines, l);
    }
    cJSON_AddItemToObject(o, "lines", lines);
    char *text = cJSON_PrintUnformatted(o);
    printf("%s\n", text);
    cJSON_free(text);
    cJSON_Delete(o);
}

/* The usage on OUT; 0 for --help (stdout), else 2. */
static int usage_analyse(FILE *out) {
    fprintf(out, "usage: menagerie analyse GAME [--fen POS] [--movetime MS | --depth N] "
                 "[--multipv N] [--json] [--data DIR]\n"
                 "       menagerie analyse --variant-file PATH [options]\n");
    return out == stdout ? 0 : 2;
}

int analyse_main(int argc, char **argv) {
    const char *game = NULL, *fen = NULL, *file = NULL;
    long movetime = 0, depth = 0, multipv = 1;
    bool json = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool has = i + 1 < argc;
        if (!strcmp(a, "--help") || !strcmp(a, "-h"))
            return usage_analyse(stdout);
        if (!strcmp(a, "--fen") && has) {
            fen = argv[++i];
        } else if (!strcmp(a, "--movetime") && has) {
            if ((movetime = number(argv[++i], 1, 86400000)) < 0) {
                fprintf(stderr, "menagerie analyse: bad --movetime \"%s\"\n", argv[i]);
                return 2;
            }
        } else if (!strcmp(a, "--depth") && has) {
            if ((depth = number(argv[++i], 1, 127)) < 0) {
                fprintf(stderr, "menagerie analyse: bad --depth \"%s\"\n", argv[i]);
                return 2;
            }
        } else if (!strcmp(a, "--multipv") && has) {
            if ((multipv = number(argv[++i], 1, SEARCH_MAX_PV)) < 0) {
                fprintf(stderr, "menagerie analyse: bad --multipv \"%s\" (1 to %d)\n", argv[i],
                        SEARCH_MAX_PV);
                return 2;
            }
        } else if (!strcmp(a, "--json")) {
            json = true;
        } else if (!strcmp(a, "--variant-file") && has && !game) {
            game = file = argv[++i];
        } else if (!strcmp(a, "--data") && has) {
            engine_set_data_dir(argv[++i]);
        } else if (a[0] == '-' || game) {
            fprintf(stderr, "menagerie analyse: unexpected argument \"%s\"\n", a);
            return usage_analyse(stderr);
        } else {
            game = a;
        }
    }
    if (!game)
        return usage_analyse(stderr);
    if (movetime && depth) {
        fprintf(stderr, "menagerie analyse: give --movetime or --depth, not both\n");
        return 2;
    }
    char err[ENGINE_ERR_LEN];
    Game *g = file ? engine_new_from_file(file, fen, err, sizeof err)
                   : engine_new(game, fen, err, sizeof err);
    if (!g) {
        fprintf(stderr, "menagerie analyse: %s\n", err);
        return 1;
    }
    GameResult r = engine_result(g);
    if (r.kind != RESULT_NONE) {
        fprintf(stderr, "menagerie analyse: the game is over (%s)\n", r.reason);
        engine_free(g);
        return 1;
    }
    SearchLimits lim;
    memset(&lim, 0, sizeof lim);
    lim.depth = (int)depth;
    lim.movetime_ms = (int)movetime;
    lim.multipv = (int)multipv;
    if (!depth && !movetime)
        lim.movetime_ms = 1000;
    int mpv = (int)multipv;
    EngineCallbacks cb = {json ? NULL : print_info, NULL, &mpv};
    EngineSearch *s = engine_search_new();
    EngineResult res;
    bool ok = engine_search_start(s, g, NULL, &lim, false, &cb, err, sizeof err) &&
              engine_search_wait(s, &res) && res.best[0] && res.nlines > 0;
    engine_search_free(s);
    char pos[512];
    engine_position_text(g, pos, sizeof pos);
    engine_free(g);
    if (!ok) {
        fprintf(stderr, "menagerie analyse: no move found\n");
        return 1;
    }
    if (json) {
        print_json(game, pos, &res);
        return 0;
    }
    /* chess games: a mate found is a proven result too */
    const SearchInfo *best = &res.line[0];
    bool exact = best->exact || best->mate != 0;
    printf("bestmove %s score %d %s\n", res.best, best->score, exact ? "exact" : "estimate");
    return 0;
}

/* ---- egdb ---- */

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
    fprintf(stderr, "\r[%s] %5.1f%%  layer %2d pass %2d  %4.0f s elapsed", bar, done * 100,
            layer, pass, el);
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
            if ((eggs = number(argv[++i], 0, 24)) < 0) {
                fprintf(stderr, "menagerie egdb: bad --eggs \"%s\" (0 to 24)\n", argv[i]);
                return 2;
            }
        } else if (build && !strcmp(argv[i], "--threads") && has) {
            if ((threads = number(argv[++i], 1, 16)) < 0) {
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
