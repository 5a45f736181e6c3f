/* analyse.c - `menagerie analyse`: one search of one position, for scripts
 * (--json for one JSON object instead of text lines), a thin front end over
 * the engine API. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "app/cli.h"
#include "app/frontends.h"
#include "engine/engine.h"

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
            if ((movetime = cli_number(argv[++i], 1, 86400000)) < 0) {
                fprintf(stderr, "menagerie analyse: bad --movetime \"%s\"\n", argv[i]);
                return 2;
            }
        } else if (!strcmp(a, "--depth") && has) {
            if ((depth = cli_number(argv[++i], 1, 127)) < 0) {
                fprintf(stderr, "menagerie analyse: bad --depth \"%s\"\n", argv[i]);
                return 2;
            }
        } else if (!strcmp(a, "--multipv") && has) {
            if ((multipv = cli_number(argv[++i], 1, SEARCH_MAX_PV)) < 0) {
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
