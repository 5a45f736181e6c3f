/* menagerie.c - libmenagerie (see menagerie.h): each call is a thin
 * adapter over the engine API; searches run on an engine service
 * (EngineSearch) made at a game's first search and kept with the game. */
#include "lib/menagerie.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"

#ifndef MENAGERIE_VERSION
#define MENAGERIE_VERSION "unknown"
#endif

/* The API's sizes hold what the engine writes. */
_Static_assert(MENAGERIE_MOVE_LEN >= ENGINE_MOVE_TEXT, "move text");
_Static_assert(MENAGERIE_MAX_LINES <= SEARCH_MAX_PV, "best lines");
_Static_assert(MENAGERIE_PV_LEN >= sizeof((SearchInfo *)0)->pv, "pv");
_Static_assert(MENAGERIE_PV_LEN >= sizeof((SearchInfo *)0)->pv_san, "pv_san");

struct MenagerieGame {
    Game *game;
    char *variant;
    _Atomic(EngineSearch *) search; /* NULL until the first search */
};

const char *menagerie_version(void) {
    return MENAGERIE_VERSION;
}

int menagerie_api_version(void) {
    return MENAGERIE_API_VERSION;
}

const char *const *menagerie_variants(void) {
    return engine_game_names();
}

/* A path to a definition file rather than a game's name. */
static bool is_file(const char *variant) {
    size_t n = strlen(variant);
    return strchr(variant, '/') || (n > 4 && !strcmp(variant + n - 4, ".var"));
}

static Game *new_game(const char *variant, const char *fen, char *err, size_t errlen) {
    if (!variant) {
        snprintf(err, errlen, "no variant given");
        return NULL;
    }
    if (fen && !fen[0])
        fen = NULL;
    return is_file(variant) ? engine_new_from_file(variant, fen, err, errlen)
                            : engine_new(variant, fen, err, errlen);
}

static MenagerieGame *wrap(Game *game, const char *variant) {
    MenagerieGame *g = game ? calloc(1, sizeof *g) : NULL;
    if (g && !(g->variant = strdup(variant))) {
        free(g);
        g = NULL;
    }
    if (!g) {
        engine_free(game);
        return NULL;
    }
    g->game = game;
    atomic_init(&g->search, NULL);
    return g;
}

MenagerieGame *menagerie_open(const char *variant, const char *fen, char *err, size_t errlen) {
    Game *game = new_game(variant, fen, err, errlen);
    MenagerieGame *g = game ? wrap(game, variant) : NULL;
    if (game && !g)
        snprintf(err, errlen, "out of memory");
    return g;
}

MenagerieGame *menagerie_copy(const MenagerieGame *g) {
    Game *game = engine_copy(g->game);
    return game ? wrap(game, g->variant) : NULL;
}

void menagerie_close(MenagerieGame *g) {
    if (!g)
        return;
    EngineSearch *s = atomic_load(&g->search);
    if (s)
        engine_search_free(s);
    engine_free(g->game);
    free(g->variant);
    free(g);
}

const char *menagerie_game_variant(const MenagerieGame *g) {
    return g->variant;
}

bool menagerie_validate_fen(const char *variant, const char *fen, char *err, size_t errlen) {
    if (!fen || !fen[0]) {
        snprintf(err, errlen, "empty position text");
        return false;
    }
    Game *game = new_game(variant, fen, err, errlen);
    engine_free(game);
    return game != NULL;
}

void menagerie_fen(const MenagerieGame *g, char *buf, size_t len) {
    engine_position_text(g->game, buf, len);
}

int menagerie_side_to_move(const MenagerieGame *g) {
    return engine_side_to_move(g->game) == SIDE_FIRST ? 0 : 1;
}

bool menagerie_in_check(const MenagerieGame *g) {
    BoardView b;
    return engine_board(g->game, &b) && b.check;
}

int menagerie_legal_moves(MenagerieGame *g, MenagerieMove *out, int max) {
    MoveDesc *m = malloc(ENGINE_MAX_MOVES * sizeof *m);
    if (!m)
        return 0;
    int n = engine_moves(g->game, m, ENGINE_MAX_MOVES);
    for (int i = 0; i < n && i < max; i++) {
        snprintf(out[i].text, sizeof out[i].text, "%s", m[i].text);
        snprintf(out[i].san, sizeof out[i].san, "%s", m[i].san);
    }
    free(m);
    return n;
}

bool menagerie_san(MenagerieGame *g, const char *move, char *san, size_t len, char *err,
                   size_t errlen) {
    MoveDesc d;
    if (!engine_describe(g->game, move, &d, err, errlen))
        return false;
    snprintf(san, len, "%s", d.san);
    return true;
}

bool menagerie_play(MenagerieGame *g, const char *move, char *err, size_t errlen) {
    return engine_play(g->game, move, err, errlen);
}

bool menagerie_undo(MenagerieGame *g) {
    return engine_undo(g->game);
}

int menagerie_ply_count(const MenagerieGame *g) {
    return engine_ply_count(g->game);
}

MenagerieResult menagerie_result(MenagerieGame *g, char *reason, size_t len) {
    GameResult r = engine_result(g->game);
    snprintf(reason, len, "%s", r.kind == RESULT_NONE ? "" : r.reason);
    switch (r.kind) {
    case RESULT_FIRST_WINS: return MENAGERIE_FIRST_WINS;
    case RESULT_SECOND_WINS: return MENAGERIE_SECOND_WINS;
    case RESULT_DRAW: return MENAGERIE_DRAW;
    case RESULT_NONE: break;
    }
    return MENAGERIE_ONGOING;
}

uint64_t menagerie_perft(MenagerieGame *g, int depth) {
    return depth < 0 || depth > 30 ? 0 : engine_perft(g->game, depth);
}

/* LIM as the engine's limits; false with a reason when one is out of range. */
static bool engine_limits(const MenagerieLimits *lim, SearchLimits *out, char *err, size_t errlen) {
    memset(out, 0, sizeof *out);
    if (!lim) {
        out->movetime_ms = 1000;
        return true;
    }
    if (lim->depth < 0 || lim->depth > 127 || lim->movetime_ms < 0 || lim->multipv < 0 ||
        lim->multipv > MENAGERIE_MAX_LINES || lim->threads < 0 || lim->threads > 256 ||
        lim->hash_mb < 0 || lim->hash_mb > 65536) {
        snprintf(err, errlen,
                 "limits out of range (depth 0..127, movetime >= 0, multipv 0..%d, "
                 "threads 0..256, hash 0..65536 MB)",
                 MENAGERIE_MAX_LINES);
        return false;
    }
    out->depth = lim->depth;
    out->movetime_ms = lim->movetime_ms;
    out->nodes = lim->nodes;
    out->multipv = lim->multipv;
    out->threads = lim->threads;
    out->hash_mb = lim->hash_mb;
    if (!out->depth && !out->movetime_ms && !out->nodes)
        out->movetime_ms = 1000;
    return true;
}

static void copy_line(const SearchInfo *in, MenagerieLine *out) {
    out->multipv = in->multipv;
    out->depth = in->depth;
    out->seldepth = in->seldepth;
    out->score = in->score;
    out->mate = in->mate;
    out->exact = in->exact || in->mate != 0;
    out->nodes = in->nodes;
    out->time_ms = in->time_ms;
    snprintf(out->pv, sizeof out->pv, "%s", in->pv);
    snprintf(out->pv_san, sizeof out->pv_san, "%s", in->pv_san);
}

bool menagerie_search(MenagerieGame *g, const MenagerieLimits *lim, MenagerieSearch *out, char *err,
                      size_t errlen) {
    memset(out, 0, sizeof *out);
    SearchLimits sl;
    if (!engine_limits(lim, &sl, err, errlen))
        return false;
    GameResult r = engine_result(g->game);
    if (r.kind != RESULT_NONE) {
        snprintf(err, errlen, "the game is over (%s)", r.reason);
        return false;
    }
    EngineSearch *s = atomic_load(&g->search);
    if (!s) {
        s = engine_search_new();
        atomic_store(&g->search, s);
    }
    EngineResult res;
    if (!engine_search_start(s, g->game, NULL, &sl, false, NULL, err, errlen))
        return false;
    if (!engine_search_wait(s, &res) || !res.best[0]) {
        snprintf(err, errlen, "the search found no move");
        return false;
    }
    snprintf(out->best, sizeof out->best, "%s", res.best);
    snprintf(out->best_san, sizeof out->best_san, "%s", res.best_san);
    snprintf(out->ponder, sizeof out->ponder, "%s", res.ponder);
    for (int i = 0; i < res.nlines && i < MENAGERIE_MAX_LINES; i++)
        copy_line(&res.line[i], &out->line[out->nlines++]);
    return true;
}

void menagerie_stop(MenagerieGame *g) {
    EngineSearch *s = atomic_load(&g->search);
    if (s)
        engine_search_stop(s);
}

void menagerie_new_game(MenagerieGame *g) {
    EngineSearch *s = atomic_load(&g->search);
    if (s)
        engine_search_clear(s);
    engine_clear(g->game);
}
