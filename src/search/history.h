/* history.h - what one search thread learns about quiet moves as it goes, for
 * the move ordering (movepick.h) to use and the search to update, in the
 * manner of Stockfish's history.h: the butterfly table (side, from, to), the
 * counter move (the reply that refuted a piece's move to a square) and the
 * continuation history, a row of (piece, to) entries for each (piece, to) of a
 * move some plies back. Scores move towards a bonus with gravity, so that they
 * stay within +-16000. The tables know nothing of the search's stack: a node
 * hands in the continuation rows of the moves before it. */
#ifndef SEARCH_HISTORY_H
#define SEARCH_HISTORY_H

#include <stdint.h>

#include "core/position.h"

typedef struct {
    const Variant *v;
    int16_t butterfly[2][MAX_SQ][MAX_SQ]; /* [side][from][to] */
    Move counter[64][MAX_SQ];             /* reply to [piece][to] */
    /* continuation history: [(piece, to) some plies back][(piece, to)],
     * cont_n slots a side (history_cont_slot); NULL when too large */
    int16_t *cont;
    int cont_n;
} History;

/* How many plies back the continuation histories look: the moves one, two
 * and four plies before (the opponent's last, our last, our one before). */
enum { HISTORY_CONT_PLIES = 3 };
static const int history_cont_back[HISTORY_CONT_PLIES] = {1, 2, 4};

/* Empty tables for variant v; no continuation history when its table would
 * be too large (or cannot be had). */
void history_init(History *h, const Variant *v);
void history_free(History *h);
/* Forget everything (a new game). */
void history_clear(History *h);
/* Halve the butterfly table (a new search: older history still orders, but less). */
void history_age(History *h);
/* The continuation row of piece p's move to square to (NULL without a table). */
int16_t *history_cont_row(const History *h, Piece p, int to);

/* Slot of (piece, to) in a continuation history row. */
static inline int history_cont_slot(const Variant *v, Piece p, int to) {
    return ((piece_color(p) * (v->ntypes + 1) + piece_type(p)) * v->nsq) + to;
}

/* The ordering score of quiet move m in pos: its butterfly entry and its
 * entries in cont, the rows of the moves history_cont_back plies before
 * (NULL where there is none). */
static inline int history_quiet(const History *h, int16_t *const cont[HISTORY_CONT_PLIES],
                                const Position *pos, Move m) {
    int s = h->butterfly[pos->stm][move_from(m)][move_to(m)];
    int slot = history_cont_slot(pos->v, pos->board[move_from(m)], move_to(m));
    for (int k = 0; k < HISTORY_CONT_PLIES; k++)
        if (cont[k])
            s += cont[k][slot];
    return s;
}

/* Moves the entries of quiet move m in pos (as for history_quiet) by bonus
 * (negative for a move that failed). */
void history_update_quiet(History *h, int16_t *const cont[HISTORY_CONT_PLIES], const Position *pos,
                          Move m, int bonus);

/* The counter move to piece's move to square to; MOVE_NONE when none. */
static inline Move history_counter(const History *h, Piece piece, int to) {
    return h->counter[piece][to];
}
static inline void history_set_counter(History *h, Piece piece, int to, Move reply) {
    h->counter[piece][to] = reply;
}

#endif
