/* perft.h - counts the leaves of the legal-move tree (the rules' proof).
 * The last ply is counted from the legal move list without playing it. */
#ifndef PERFT_H
#define PERFT_H

#include "core/position.h"

uint64_t perft(Position *pos, int depth);

#endif
