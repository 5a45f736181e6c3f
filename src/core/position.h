/* position.h - a position of a chess-like game and its history.
 *
 * The board is a byte per square with piece lists beside it; gates (pieces
 * waiting behind the back rank) and hands (pieces still to be placed) make
 * gating variants plain data. make/unmake keep an undo record per ply in the
 * position itself, which also serves repetition detection. */
#ifndef POSITION_H
#define POSITION_H

#include <stdbool.h>
#include <stddef.h>

#include "core/types.h"
#include "core/variant.h"

/* FEN move counters go up to this: a game can never count past INT_MAX. */
#define POS_MAX_COUNTER 1000000
#define MAX_HAND 4 /* pieces a side may hold before its set-up move */

typedef struct {
    uint64_t key;
    Move move;
    Piece moved, captured;
    Piece gate_from, gate_to; /* gates emptied by this move (entered, lost) */
    uint8_t castling;
    Square ep, ep_victim;
    int halfmove;
} Undo;

typedef struct Position {
    const Variant *v;
    Piece board[MAX_SQ];
    uint8_t plist[2][MAX_SQ];
    uint8_t pidx[MAX_SQ];
    int pcount[2];
    uint8_t count[64]; /* pieces on the board per piece code */
    Square king[2];
    int stm;
    uint8_t castling; /* bit 2c: colour c's h-side right, bit 2c+1: a-side */
    Square ep, ep_victim;
    int halfmove, fullmove;
    Piece gate[2][MAX_FILES]; /* waiting piece behind file f */
    uint8_t hand[2][MAX_TYPES];
    int nhand[2];
    uint64_t key;
    int hply; /* entries in hist */
    Undo hist[MAX_GAME_PLY];
} Position;

/* Sets up pos from fen (NULL = the variant's start position). On failure
 * pos is unchanged and err says why; a position whose move bound exceeds
 * MAX_MOVES is refused, so a move list never drops a move. */
int pos_from_fen(Position *pos, const Variant *v, const char *fen, char *err, size_t errlen);
/* An upper bound on the moves colour c can have in this position or any
 * position a game reaches from it: pieces never multiply, so the sum of
 * their move weights (pieces in hand and at gates too) plus castlings, or
 * the number of set-up moves, holds for the rest of the game. */
int pos_move_bound(const Position *pos, int c);
void pos_to_fen(const Position *pos, char *buf, size_t len);

void pos_make_move(Position *pos, Move m);
void pos_unmake_move(Position *pos);
void pos_make_null(Position *pos);
void pos_unmake_null(Position *pos);

/* Plies back to the last move that cannot be undone: the N-move count,
 * stretched past steps that a promoting piece can step back (Diamondback's
 * guard pawns: the count starts again, the positions before may recur). */
int pos_reversible_plies(const Position *pos);
/* Earlier occurrences of this position (same side to move) since the last
 * irreversible move. */
int pos_repetitions(const Position *pos);
/* Has the last move ended the game by a rule of the variant (v->sudden_end)?
 * +1: the side to move has won, -1: it has lost, 0: neither. Win squares
 * (Diamondback's corners): the side that moved onto one has won. Bare kings
 * (bareKing=loss): a side with only its royal piece left loses, unless it
 * may bare the other side in reply: the side that just moved is bare and
 * the side to move is not, or the side to move is bare and the other side
 * has two or more pieces besides its royal one. */
int pos_game_end(const Position *pos);
uint64_t pos_compute_key(const Position *pos);
/* The invariants: the key, the piece lists and counts, the kings, the hands
 * and gates, the castling rights, en passant. False with the first broken
 * one in why (core/verify.c). */
bool pos_verify(const Position *pos, char *why, size_t len);
/* The debug build (make CFG=debug) checks after every change and aborts
 * with a message; other builds do nothing. */
#ifdef MENAGERIE_DEBUG
void pos_debug_check(const Position *pos, const char *where);
#else
static inline void pos_debug_check(const Position *pos, const char *where) {
    (void)pos, (void)where;
}
#endif
/* Pieces still in hand for colour c, in placement order (types). */
int pos_hand_order(const Position *pos, int c, uint8_t *types);

#endif
