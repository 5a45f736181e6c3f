/* movepick.h - move ordering: all pseudo-legal moves are generated and scored
 * (hash move, winning captures by SEE/MVV-LVA, killers and counter move, quiet
 * moves by history, losing captures last) and handed out best first. What a
 * node has learnt (killers, counter move, histories) comes in from the search;
 * the tables are history.h's. */
#ifndef SEARCH_MOVEPICK_H
#define SEARCH_MOVEPICK_H

#include <stdbool.h>

#include "search/eval.h"
#include "search/history.h"

typedef struct {
    Move m[MAX_MOVES];
    int score[MAX_MOVES];
    int n, next;
} MovePicker;

/* Scores at or above this are captures, promotions or the hash move. */
#define PICK_GOOD 1000000

/* Every move of pos (in check, or a full-width node): the quiet ones after the
 * node's killers and counter move, by h with cont, the continuation rows of
 * the moves before the node (history_quiet). */
void movepick_init(MovePicker *mp, const Position *pos, const Eval *e, Move tt_move,
                   const History *h, int16_t *const cont[HISTORY_CONT_PLIES], const Move killer[2],
                   Move counter);
/* Captures, promotions (to the best type) and winning moves: quiescence. */
void movepick_init_noisy(MovePicker *mp, const Position *pos, const Eval *e, Move tt_move);
/* Next move, MOVE_NONE when none is left; *score gets its ordering score. */
Move movepick_next(MovePicker *mp, int *score);
/* Does m reach a win square (a Diamondback corner) and so win at once? */
bool movepick_wins(const Position *pos, Move m);
/* Is m a capture, a promotion or a winning move? */
bool movepick_is_noisy(const Position *pos, Move m);
/* Victim value of a noisy move (promotion gain included). */
int movepick_gain(const Position *pos, const Eval *e, Move m);
/* Does m check the enemy king directly (discovered checks aside)? */
bool movepick_gives_check(const Position *pos, const Eval *e, Move m);
/* Static exchange on the move's square: what the mover wins (centipawns)
 * when both sides capture there with their least valuable pieces. */
int movepick_see(const Position *pos, const Eval *e, Move m);
/* movepick_see(pos, e, m) >= threshold, answered without the exchange where
 * its bounds decide: it is at most what m takes, and at least that less the
 * mover (lost to the first recapture). */
bool movepick_see_ge(const Position *pos, const Eval *e, Move m, int threshold);
/* Would the side not to move win material by exchange, capturing the piece
 * of the side to move on sq? */
bool movepick_threatened(const Position *pos, const Eval *e, int sq);
/* A capture by a more valuable piece that loses material (SEE < 0). */
bool movepick_bad_capture(const Position *pos, const Eval *e, Move m);

#endif
