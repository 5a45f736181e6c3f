/* baseline.h - the games of an earlier match, read back from its PGN so that
 * `menagerie match --baseline FILE` can compare a new engine 1 with the old
 * one pair by pair, over the same openings and against the same engine 2.
 *
 * Game i of a match (Round i + 1) has engine 1 as White when i is even; its
 * points for engine 1 follow from the Result tag. Each game keeps the
 * position and the first BASELINE_PLIES moves it began with, so that the
 * match can check that a pair of the new run starts from the opening the
 * baseline's pair did (the same --seed and --openings). Everything goes
 * through engine.h. */
#ifndef BASELINE_H
#define BASELINE_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/engine.h"

#define BASELINE_PLIES 64

typedef struct {
    bool present;
    double points; /* engine 1's: 0, 0.5 or 1 */
    char *engine2; /* its name */
    char *start;   /* the position it began from (FEN) */
    char *line;    /* its first BASELINE_PLIES moves, coordinate form, each followed by a space */
} BaselineGame;

typedef struct {
    int n; /* games[0 .. n-1], by round - 1; absent rounds have !present */
    BaselineGame *games;
} Baseline;

/* Reads the PGN file path (at most max_bytes) of variant's games, those of
 * rounds 1 to max_games; false with the reason in err (the file unreadable or
 * too large, a game with no round or result, a round twice, a game of another
 * variant or one the rules reject). */
bool baseline_load(Baseline *b, const char *path, size_t max_bytes, const char *variant,
                   int max_games, char *err, size_t errlen);
void baseline_free(Baseline *b);

/* Game i (0-based), or NULL when the baseline lacks it. */
const BaselineGame *baseline_game(const Baseline *b, int i);

/* Did baseline game bg begin from the opening's position with its moves
 * (at most BASELINE_PLIES of them)? */
bool baseline_same_opening(const BaselineGame *bg, Game *opening);

#endif
