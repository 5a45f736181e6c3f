/* engine.c - the engine API: finds the kind that plays a game and
 * forwards to its GameOps (see engine.h, game.h). */
#include "engine/engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/game.h"

struct Game {
    const GameOps *ops;
    void *st;
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

static Game *wrap(const GameOps *ops, void *st) {
    if (!st)
        return NULL;
    Game *g = malloc(sizeof *g);
    if (!g)
        abort();
    g->ops = ops;
    g->st = st;
    return g;
}

Game *engine_new(const char *variant, const char *fen, char *err, size_t errlen) {
    const GameOps *ops = find_kind(variant, NULL);
    if (!ops) {
        snprintf(err, errlen, "unknown game \"%s\" (see `menagerie variants`)", variant);
        return NULL;
    }
    return wrap(ops, ops->create(variant, fen, err, errlen));
}

Game *engine_new_from_file(const char *path, const char *fen, char *err, size_t errlen) {
    /* A definition file is a chess-like variant; the kind takes "file:PATH". */
    char spec[4200];
    snprintf(spec, sizeof spec, "file:%s", path);
    return wrap(&game_chess_ops, game_chess_ops.create(spec, fen, err, errlen));
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
    free(g);
}

uint64_t engine_perft(Game *g, int depth) { return g->ops->perft(g->st, depth); }

uint64_t engine_divide(Game *g, int depth, DivideCallback cb, void *ud) {
    return g->ops->divide(g->st, depth, cb, ud);
}

int engine_legal_moves(Game *g, char (*out)[ENGINE_MOVE_TEXT], int max, bool san) {
    return g->ops->legal_moves(g->st, out, max, san);
}

bool engine_play(Game *g, const char *move, char *err, size_t errlen) {
    return g->ops->play(g->st, move, err, errlen);
}

bool engine_undo(Game *g) { return g->ops->undo(g->st); }

void engine_position_text(const Game *g, char *buf, size_t len) {
    g->ops->position_text(g->st, buf, len);
}

Side engine_side_to_move(const Game *g) { return g->ops->side_to_move(g->st); }

GameResult engine_result(Game *g) { return g->ops->result(g->st); }

bool engine_go(Game *g, const SearchLimits *lim, const SearchCallbacks *cb, char *best,
               size_t len) {
    return g->ops->go(g->st, lim, cb, best, len);
}

void engine_stop(Game *g) { g->ops->stop(g->st); }
