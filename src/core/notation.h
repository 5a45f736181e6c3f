/* notation.h - move text: coordinates (e2e4, a9a10q) and SAN, both ways.
 *
 * Special moves get one token each: a set-up move is the pieces with their
 * gate files (MbFh); castling is the king's move (f1h1), except a castling
 * whose king move equals a plain king step, written king-to-rook (f1a1).
 * Parsing generates the legal moves and matches their texts, so every
 * printed text parses back to the same move. */
#ifndef NOTATION_H
#define NOTATION_H

#include <stddef.h>

#include "core/position.h"

#define MOVE_TEXT_LEN 32

void notation_coord(const Position *pos, Move m, char *buf);
/* SAN with check (+) and mate (#) marks; pos is restored. */
void notation_san(Position *pos, Move m, char *buf);
/* Coordinates or SAN. Returns 0, or -1 with the reason in err. */
int notation_parse(Position *pos, const char *text, Move *out, char *err, size_t errlen);

#endif
