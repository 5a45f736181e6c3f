/* egdb.h - endgame database for Slangenspel: the exact future store gain of every
 * board with few eggs, built layer by layer (egg count) by retrograde bound iteration.
 * B-to-move boards are mirrored, so only A-to-move boards are kept.
 * Two tables exist: the base rules (the board is the whole state once no store move can
 * come, so variant A uses it then) and variant B (the board plus, for each hole holding
 * one egg, whether its sowing started in the hole before it, after it, or elsewhere: all
 * that rule B(1) can ever see; A+B uses it once no store move can come).
 * A table is built in memory (on demand by the search, or by `menagerie egdb build`),
 * saved to a file with a version header and checksums, and memory-mapped when used. */
#ifndef MANCALA_EGDB_H
#define MANCALA_EGDB_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mancala/board.h"

#define MANCALA_DB_MAX_EGGS 24    /* largest layer any table may hold */
#define MANCALA_DB_DEMAND_EGGS 12 /* largest layer the search builds on demand */

typedef struct MancalaDb MancalaDb;

/* An empty table for RULES (MANCALA_VAR_B selects the variant B table; MANCALA_VAR_A
 * is ignored). */
MancalaDb *mancala_db_new(int rules);
void mancala_db_free(MancalaDb *db);

/* Largest egg count whose layer (and all smaller ones) is complete; -1 before any. */
int mancala_db_eggs(const MancalaDb *db);
/* Positions in the layers 0..EGGS of a table (one byte each in a file). */
uint64_t mancala_db_positions(int rules, int eggs);

/* Called during a build: layer, pass and the share of the whole build done (0..1). */
typedef void (*MancalaDbProgress)(int layer, int pass, double done, void *ud);

typedef struct {
    double deadline_ms;      /* mancala_clock_ms() reading, 0 = none */
    const atomic_bool *stop; /* may be NULL */
    int threads;             /* 0 or 1 = one */
    MancalaDbProgress progress;
    void *ud;
    int goal; /* egg count the progress is measured against, 0 = this build's */
} MancalaDbBuild;

/* Builds layers up to EGGS (at most MANCALA_DB_MAX_EGGS). Stops early, keeping only
 * finished layers, when the deadline passes or the next layer would not finish by
 * then, or when *stop is set. OPT may be NULL. Returns the largest complete layer
 * (-1 when out of memory before any). */
int mancala_db_build(MancalaDb *db, int eggs, const MancalaDbBuild *opt);

/* True when the table answers for P: its rule set matches, no store move can come to
 * either player and the board's eggs are within a complete layer. Writes the exact
 * store gain still to come for the side to move (their final store difference minus
 * the present one). */
bool mancala_db_probe(const MancalaDb *db, const MancalaPos *p, int *gain);

/* Copies the complete layers of FROM (same rule set) into the empty in-memory table
 * DB, so a build can go on from a file; false when out of memory or mismatched. */
bool mancala_db_copy(MancalaDb *db, const MancalaDb *from);
/* Writes the complete layers to PATH (through a temporary file and a rename). */
bool mancala_db_save(const MancalaDb *db, const char *path, char *err, size_t errlen);
/* Maps the table at PATH for RULES after checking its header and checksums; a damaged,
 * foreign or mismatched file is refused with the reason in ERR. */
MancalaDb *mancala_db_open(const char *path, int rules, char *err, size_t errlen);
/* File name of a rule set's table inside the database folder. */
const char *mancala_db_file_name(int rules);

/* The tables the searches of this process use: opened once, on first use, from the
 * folder set here (default "data/egdb"); a refused file is reported once on stderr.
 * Setting the folder closes the tables: do it while no search runs. */
void mancala_db_set_dir(const char *dir);
const char *mancala_db_dir(void);
const MancalaDb *mancala_db_shared(int rules);

/* Milliseconds on a monotonic clock (shared by the search). */
double mancala_clock_ms(void);

#endif
