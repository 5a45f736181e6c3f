/* perft.h - counts the leaves of the legal-move tree (the rules' proof).
 * The last ply is counted from the legal move list without playing it.
 * STOP (NULL: none) may be set by another thread: the count then ends
 * early, short. */
#ifndef PERFT_H
#define PERFT_H

#include <stdatomic.h>

#include "core/position.h"

uint64_t perft(Position *pos, int depth, const atomic_bool *stop);

#endif
