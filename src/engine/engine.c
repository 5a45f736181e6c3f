/* engine.c - the engine API: finds the kind that plays a game and
 * forwards to its GameOps (see engine.h, game.h). */
#include "engine/engine.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/game.h"
#include "search/nnue.h"

/* The engine keeps each game's record (start position and moves played) so
 * history, export and import work alike for every kind. */
struct Game {
    const GameOps *ops;
    void *st;
    char *spec; /* what ops->create takes: a variant name or "file:PATH" */
    char initial[512];
    MoveDesc *moves; /* as they were played, SAN from before each move */
    int nmoves, cap;
    atomic_bool stop; /* engine_stop's flag for engine_go */
};

static const GameOps *const kinds[] = {&game_chess_ops, &game_mancala_ops};
#define NKINDS (sizeof kinds / sizeof kinds[0])

static const GameOps *find_kind(const char *name, int *index) {
    game_chess_init();
    for (size_t k = 0; k < NKINDS; k++)
        for (int i = 0; kinds[k]->names[i]; i++)
            if (!strcmp(kinds[k]->names[i], name)) {
                if (index)
                    *index = i;
                return kinds[k];
            }
    return NULL;
}

const char *const *engine_game_names(void) {
    static const char *names[64];
    game_chess_init();
    if (!names[0]) {
        int n = 0;
        for (size_t k = 0; k < NKINDS; k++)
            for (int i = 0; kinds[k]->names[i] && n < 63; i++)
                names[n++] = kinds[k]->names[i];
        names[n] = NULL;
    }
    return names;
}

const char *engine_game_title(const char *name) {
    int i;
    const GameOps *ops = find_kind(name, &i);
    return ops ? ops->titles[i] : NULL;
}

bool engine_game_info(const char *name, GameInfo *out) {
    char err[ENGINE_ERR_LEN];
    Game *g = find_kind(name, NULL) ? engine_new(name, NULL, err, sizeof err) : NULL;
    if (g)
        engine_info(g, out);
    engine_free(g);
    return g != NULL;
}

static Game *wrap(const GameOps *ops, void *st, const char *spec) {
    if (!st)
        return NULL;
    Game *g = calloc(1, sizeof *g);
    if (!g || !(g->spec = strdup(spec)))
        abort();
    g->ops = ops;
    g->st = st;
    atomic_init(&g->stop, false);
    ops->position_text(st, g->initial, sizeof g->initial);
    return g;
}

Game *engine_copy(const Game *g) {
    void *st = g->ops->copy(g->st);
    Game *c = st ? wrap(g->ops, st, g->spec) : NULL;
    if (!c)
        return NULL;
    memcpy(c->initial, g->initial, sizeof c->initial);
    if (g->nmoves) {
        c->moves = malloc((size_t)g->nmoves * sizeof *c->moves);
        if (!c->moves) {
            engine_free(c);
            return NULL;
        }
        memcpy(c->moves, g->moves, (size_t)g->nmoves * sizeof *c->moves);
        c->nmoves = c->cap = g->nmoves;
    }
    return c;
}

void engine_clear(Game *g) {
    if (g->ops->clear)
        g->ops->clear(g->st);
}

bool engine_assign(Game *dst, const Game *src) {
    if (dst->ops != src->ops || strcmp(dst->spec, src->spec) || !dst->ops->assign(dst->st, src->st))
        return false;
    if (dst->cap < src->nmoves) {
        MoveDesc *m = realloc(dst->moves, (size_t)src->nmoves * sizeof *m);
        if (!m)
            abort();
        dst->moves = m;
        dst->cap = src->nmoves;
    }
    if (src->nmoves)
        memcpy(dst->moves, src->moves, (size_t)src->nmoves * sizeof *dst->moves);
    dst->nmoves = src->nmoves;
    memcpy(dst->initial, src->initial, sizeof dst->initial);
    return true;
}

Game *engine_new(const char *variant, const char *fen, char *err, size_t errlen) {
    const GameOps *ops = find_kind(variant, NULL);
    if (!ops) {
        snprintf(err, errlen, "unknown game \"%s\" (see `menagerie variants`)", variant);
        return NULL;
    }
    return wrap(ops, ops->create(variant, fen, err, errlen), variant);
}

Game *engine_new_from_file(const char *path, const char *fen, char *err, size_t errlen) {
    /* A definition file is a chess-like variant; the kind takes "file:PATH". */
    char spec[4200];
    snprintf(spec, sizeof spec, "file:%s", path);
    return wrap(&game_chess_ops, game_chess_ops.create(spec, fen, err, errlen), spec);
}

int engine_start_fen(const char *variant, const char *setup, char *fen, size_t len, char *err,
                     size_t errlen) {
    const GameOps *ops = find_kind(variant, NULL);
    if (!ops) {
        snprintf(err, errlen, "unknown game \"%s\"", variant);
        return -1;
    }
    if (!ops->start_fen) {
        if (setup) {
            snprintf(err, errlen, "%s has no set-up choices", variant);
            return -1;
        }
        fen[0] = 0;
        void *st = ops->create(variant, NULL, err, errlen);
        if (!st)
            return -1;
        ops->position_text(st, fen, len);
        ops->destroy(st);
        return 0;
    }
    return ops->start_fen(variant, setup, fen, len, err, errlen);
}

const char *const *engine_setups(const char *variant) {
    static const char *const none[] = {NULL};
    const GameOps *ops = find_kind(variant, NULL);
    return ops && ops->setups ? ops->setups(variant) : none;
}

void engine_free(Game *g) {
    if (!g)
        return;
    g->ops->destroy(g->st);
    free(g->spec);
    free(g->moves);
    free(g);
}

uint64_t engine_perft(Game *g, int depth) {
    return g->ops->perft(g->st, depth, NULL);
}

uint64_t engine_divide(Game *g, int depth, DivideCallback cb, void *ud, const atomic_bool *stop) {
    return g->ops->divide(g->st, depth, cb, ud, stop);
}

int engine_legal_moves(Game *g, char (*out)[ENGINE_MOVE_TEXT], int max, bool san) {
    return g->ops->legal_moves(g->st, out, max, san);
}

bool engine_describe(Game *g, const char *move, MoveDesc *out, char *err, size_t errlen) {
    return g->ops->describe(g->st, move, out, err, errlen);
}

bool engine_play(Game *g, const char *move, char *err, size_t errlen) {
    MoveDesc d;
    if (!engine_describe(g, move, &d, err, errlen))
        return false;
    if (!g->ops->play(g->st, d.text, err, errlen))
        return false;
    if (g->nmoves == g->cap) {
        g->cap = g->cap ? 2 * g->cap : 64;
        g->moves = realloc(g->moves, (size_t)g->cap * sizeof *g->moves);
        if (!g->moves)
            abort();
    }
    g->moves[g->nmoves++] = d;
    return true;
}

bool engine_last_move(const Game *g, MoveDesc *out) {
    if (!g->nmoves)
        return false;
    *out = g->moves[g->nmoves - 1];
    return true;
}

int engine_ply_count(const Game *g) {
    return g->nmoves;
}

bool engine_undo(Game *g) {
    if (!g->nmoves || !g->ops->undo(g->st))
        return false;
    g->nmoves--;
    return true;
}

void engine_info(const Game *g, GameInfo *out) {
    memset(out, 0, sizeof *out);
    if (g->ops->info) {
        g->ops->info(g->st, out);
        return;
    }
    out->kind = KIND_MANCALA;
    snprintf(out->name, sizeof out->name, "%s", g->spec);
    snprintf(out->title, sizeof out->title, "%s", engine_game_title(g->spec));
    out->files = 16;
    out->ranks = 1;
    snprintf(out->summary, sizeof out->summary,
             "16 holes in a coiled snake \u00b7 sowing and captures");
    snprintf(out->icon, sizeof out->icon, "snake");
    out->order = 5; /* after the four own chess games (their files' order=) */
}

int engine_moves(Game *g, MoveDesc *out, int max) {
    return g->ops->moves(g->st, out, max);
}

void engine_initial_text(const Game *g, char *buf, size_t len) {
    snprintf(buf, len, "%s", g->initial);
}

int engine_history(Game *g, char (*out)[ENGINE_MOVE_TEXT], int max, bool san) {
    int n = g->nmoves < max ? g->nmoves : max;
    for (int i = 0; i < n; i++)
        strcpy(out[i], san ? g->moves[i].san : g->moves[i].text);
    return n;
}

bool engine_board(const Game *g, BoardView *out) {
    memset(out, 0, sizeof *out);
    return g->ops->board && g->ops->board(g->st, out);
}

uint64_t engine_key(const Game *g) {
    return g->ops->key ? g->ops->key(g->st) : 0;
}

void engine_position_text(const Game *g, char *buf, size_t len) {
    g->ops->position_text(g->st, buf, len);
}

Side engine_side_to_move(const Game *g) {
    return g->ops->side_to_move(g->st);
}

GameResult engine_result(Game *g) {
    return g->ops->result(g->st);
}

bool engine_ends_in_one(Game *g) {
    MoveDesc *m = malloc(ENGINE_MAX_MOVES * sizeof *m);
    if (!m)
        abort();
    int n = engine_moves(g, m, ENGINE_MAX_MOVES);
    bool ends = false;
    char err[ENGINE_ERR_LEN];
    for (int i = 0; i < n && !ends; i++)
        if (engine_play(g, m[i].text, err, sizeof err)) {
            ends = engine_result(g).kind != RESULT_NONE;
            engine_undo(g);
        }
    free(m);
    return ends;
}

bool engine_eval(Game *g, EngineEval *out) {
    return g->ops->eval && g->ops->eval(g->st, out);
}

bool engine_go(Game *g, const SearchLimits *lim, const SearchCallbacks *cb, char *best,
               size_t len) {
    atomic_store(&g->stop, false);
    bool ok = engine_search_in(g, lim, cb, &g->stop, best, len);
    atomic_store(&g->stop, false); /* a late stop must not cut the next search */
    return ok;
}

bool engine_search_in(Game *g, const SearchLimits *lim, const SearchCallbacks *cb,
                      atomic_bool *stop, char *best, size_t len) {
    return g->ops->go(g->st, lim, cb, stop, best, len);
}

struct NnueNet *engine_net_load(const char *path, char *err, size_t errlen) {
    return nnue_load_file(path, err, errlen);
}

void engine_net_free(struct NnueNet *net) {
    nnue_free(net);
}

bool engine_net_describe(const Game *g, const struct NnueNet *net, bool hand, char *what,
                         size_t len) {
    if (g->ops->net)
        return g->ops->net(g->st, net, hand, what, len);
    snprintf(what, len, "its own search");
    return !net;
}

int engine_net_sample(const Game *g, uint16_t *items, char *features, size_t len) {
    _Static_assert(ENGINE_NET_ITEMS >= NNUE_MAX_ITEMS, "engine.h: ENGINE_NET_ITEMS too small");
    return g->ops->sample ? g->ops->sample(g->st, items, ENGINE_NET_ITEMS, features, len) : -1;
}

void engine_stop(Game *g) {
    atomic_store(&g->stop, true);
}

int engine_kind_bench(const char *game, const char *positions, FILE *out) {
    const GameOps *ops = find_kind(game, NULL);
    if (!ops || !ops->bench)
        return -1;
    ops->bench(out, positions);
    return 0;
}
