/* eval.h - static evaluation for any chess-like variant, derived once from the
 * move trees (piece values from expected mobility, square tables from mobility
 * and distances), then plain loops over the piece lists at each call. */
#ifndef SEARCH_EVAL_H
#define SEARCH_EVAL_H

#include <stdbool.h>
#include <stdint.h>

#include "core/position.h"

typedef struct Eval Eval;

/* Tables for variant v (which must outlive them); NULL when out of memory. */
Eval *eval_new(const Variant *v);
void eval_free(Eval *e);
/* Centipawn score from the side to move's view. */
int eval_evaluate(const Eval *e, const Position *pos);
/* The same, but material and squares alone when they are far outside
 * (alpha, beta); then *lazy is set (such a score is not worth keeping). */
int eval_evaluate_lazy(const Eval *e, const Position *pos, int alpha, int beta, bool *lazy);
/* Material value (centipawns) of piece type t, as estimated or overridden. */
int eval_piece_value(const Eval *e, int t);
/* Estimated value of type t from its moves alone (ignores PieceType.value). */
int eval_estimate_value(const Variant *v, int t);
/* Both sides lack mating potential: a dead draw by the rules. */
bool eval_dead_draw(const Eval *e, const Position *pos);
/* Could a piece of colour c and type t on from capture on to, were the
 * board empty? */
bool eval_may_capture(const Eval *e, int c, int t, int from, int to);
/* Does colour c have pieces besides its royal and promoting ones (null-move
 * safety)? */
bool eval_has_pieces(const Eval *e, const Position *pos, int c);

#endif
