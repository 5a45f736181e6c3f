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
bool movegen_in_check(const Position *pos);
void movegen_pseudo(const Position *pos, MoveList *list);
/* Legal moves; none once the game is won on a win square. */
void movegen_legal(Position *pos, MoveList *list);
/* Is a move (from movegen_pseudo) legal? */
bool movegen_legal_after(Position *pos, Move m);
bool movegen_is_capture(const Position *pos, Move m);

#endif
