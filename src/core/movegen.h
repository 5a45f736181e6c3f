/* movegen.h - move generation and attack detection for any compiled variant.
 *
 * Pseudo-legal moves come from walking the piece's move tree; attacks from
 * walking the target square's merged attack trie once. Legality: a move is
 * played and the king tested only when it could matter (in check, king or
 * special moves, pieces on a line to the king found by one trie walk). */
#ifndef MOVEGEN_H
#define MOVEGEN_H

#include "core/position.h"

/* Is sq attacked by a piece of colour by? */
bool movegen_attacked(const Position *pos, int sq, int by);
/* The same, counting only the piece types in typemask (bit t = type t). */
bool movegen_attacked_by(const Position *pos, int sq, int by, uint32_t typemask);
bool movegen_in_check(const Position *pos);
void movegen_pseudo(const Position *pos, MoveList *list);
/* Legal moves; none once the game is won on a win square. */
void movegen_legal(Position *pos, MoveList *list);
/* Is a move (from movegen_pseudo) legal? Plays it and tests the king. */
bool movegen_legal_after(Position *pos, Move m);
/* Own pieces that alone shield the king from an enemy attacker along some
 * path: moving one may expose the king. Sets pinned[sq] = 1 for each; the
 * array has MAX_SQ entries. */
void movegen_pinned(const Position *pos, uint8_t *pinned);
/* True when a pseudo-legal move needs no test: not in check, not a king or
 * special move, not a pinned piece (pinned from movegen_pinned; may be NULL
 * when in_check). Otherwise use movegen_legal_after. */
bool movegen_surely_legal(const Position *pos, Move m, bool in_check, const uint8_t *pinned);
bool movegen_is_capture(const Position *pos, Move m);

#endif
