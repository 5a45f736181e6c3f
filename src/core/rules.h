/* rules.h - when a game of a chess-like variant is over, and why.
 *
 * One function answers for every front end: wins on a win square or by
 * baring the enemy King, mate, stalemate (a draw or, by the variant, a
 * loss), the N-move rule, threefold repetition and the variant's
 * mating-potential table, in that order of precedence. */
#ifndef RULES_H
#define RULES_H

#include "core/position.h"

typedef enum { RULES_ONGOING, RULES_WHITE_WINS, RULES_BLACK_WINS, RULES_DRAW } RulesOutcome;

typedef struct {
    RulesOutcome outcome;
    char reason[64];
} RulesResult;

RulesResult rules_result(Position *pos);
/* Can colour c still force mate, as far as the variant's table tells?
 * Pieces in hand and at gates count: they may still come in. */
bool rules_mating_potential(const Position *pos, int c);
/* Is the game drawn for want of mating material? With materialDraw=both
 * (Team-Mate) when neither side has mating potential; with
 * materialDraw=dead (chess, Snake vs. Mongoose, Hannibal) only when no
 * sequence of moves can mate: a bare king against a side without
 * potential, or colour-bound pieces alone, all on one square colour. */
bool rules_dead_material(const Position *pos);

#endif
