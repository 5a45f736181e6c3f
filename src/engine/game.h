/* game.h - what each kind of game implements for the engine API.
 *
 * engine.c owns the dispatch; a kind fills one GameOps table and keeps its
 * own state behind the void pointer. All text in and out is NUL-terminated;
 * every function that can fail writes a reason into err. */
#ifndef GAME_H
#define GAME_H

#include <stdatomic.h>
#include <stdio.h>

#include "engine/engine.h"

typedef struct {
    /* Names this kind answers to, NULL-terminated, and their titles. */
    const char *const *names;
    const char *const *titles;
    void *(*create)(const char *variant, const char *fen, char *err, size_t errlen);
    void (*destroy)(void *st);
    /* A copy of the state without the search tables; NULL when out of memory. */
    void *(*copy)(const void *st);
    /* DST takes SRC's position and history and keeps its own search tables;
     * false (DST unchanged) when they play different variants. */
    bool (*assign)(void *dst, const void *src);
    void (*clear)(void *st); /* forget what searches learnt (a new game); may be NULL */
    /* STOP may be set by another thread: the count ends early, short */
    uint64_t (*perft)(void *st, int depth, const atomic_bool *stop);
    uint64_t (*divide)(void *st, int depth, DivideCallback cb, void *ud, const atomic_bool *stop);
    int (*legal_moves)(void *st, char (*out)[ENGINE_MOVE_TEXT], int max, bool san);
    bool (*play)(void *st, const char *move, char *err, size_t errlen);
    bool (*undo)(void *st);
    void (*position_text)(const void *st, char *buf, size_t len);
    Side (*side_to_move)(const void *st);
    GameResult (*result)(void *st);
    /* Search; STOP is polled (another thread may set it, also before the
     * call: then it returns at once with the best move it has). */
    bool (*go)(void *st, const SearchLimits *lim, const SearchCallbacks *cb, atomic_bool *stop,
               char *best, size_t len);
    /* Optional: start FEN of a named set-up (NULL = pick one at random), and
     * the set-up names, NULL-terminated. NULL members: the kind has none. */
    int (*start_fen)(const char *variant, const char *setup, char *fen, size_t len, char *err,
                     size_t errlen);
    const char *const *(*setups)(const char *variant);
    /* One move text (coordinate or SAN) in the current position, described
     * without playing it: true exactly for the legal moves (false + reason
     * otherwise), the legality check of every move the engine passes on.
     * All legal moves so described. */
    bool (*describe)(void *st, const char *move, MoveDesc *out, char *err, size_t errlen);
    int (*moves)(void *st, MoveDesc *out, int max);
    /* Optional: describe the game. */
    void (*info)(const void *st, GameInfo *out);
    bool (*board)(const void *st, BoardView *out);
    /* Optional: the kind's own benchmark, printed to out. */
    void (*bench)(FILE *out, const char *positions);
    /* Optional: the static evaluation term by term (engine_eval). */
    bool (*eval)(void *st, EngineEval *out);
    /* Optional: the position's hash key (engine_key). */
    uint64_t (*key)(const void *st);
    /* Optional: the evaluation a search with network NET (NULL: none given)
     * or, with HAND, the hand-made one would use, in words; false when NET
     * is not made for this game (then the game's own evaluation plays). */
    bool (*net)(const void *st, const struct NnueNet *net, bool hand, char *what, size_t len);
    /* Optional: the position as a network's items (engine_net_sample). */
    int (*sample)(const void *st, uint16_t *items, int max, char *features, size_t len);
} GameOps;

/* Inside the engine layer (engine.c, for service.c): a search with the
 * caller's stop flag. */
bool engine_search_in(Game *g, const SearchLimits *lim, const SearchCallbacks *cb,
                      atomic_bool *stop, char *best, size_t len);

extern const GameOps game_chess_ops;   /* engine/game_chess.c */
void game_chess_init(void);            /* fills its names; call before use */
extern const GameOps game_mancala_ops; /* engine/game_mancala.c */

#endif
