/* egdb.h - endgame database for Slangenspel: the exact future store gain of every
 * board with few eggs (base rules), built layer by layer on demand by retrograde
 * bound iteration; B-to-move boards are mirrored, so only A-to-move boards are kept. */
#ifndef MANCALA_EGDB_H
#define MANCALA_EGDB_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "mancala/board.h"

#define MANCALA_DB_MAX_EGGS 12 /* largest layer the database will ever build */

typedef struct MancalaDb MancalaDb;

MancalaDb *mancala_db_new(void);
void mancala_db_free(MancalaDb *db);

/* Largest egg count whose layer (and all smaller ones) is complete; -1 before any. */
int mancala_db_eggs(const MancalaDb *db);

/* Builds layers up to EGGS (at most MANCALA_DB_MAX_EGGS). Stops early, keeping only
 * finished layers, when deadline_ms (a mancala_clock_ms() reading, 0 = none) passes or
 * the next layer would not finish by then, or when *stop (may be NULL) is set.
 * Returns the largest complete layer. */
int mancala_db_build(MancalaDb *db, int eggs, double deadline_ms, const atomic_bool *stop);

/* True when the database answers for P: the rules leave no store move to either player
 * and the board's eggs are within a complete layer. Writes the exact store gain still to
 * come for the side to move (their final store difference minus the present one). */
bool mancala_db_probe(const MancalaDb *db, const MancalaPos *p, int *gain);

/* Milliseconds on a monotonic clock (shared by the search). */
double mancala_clock_ms(void);

#endif
