/* eval.h - static evaluation for any chess-like variant, derived once from the
 * move trees (piece values from expected mobility, square tables from mobility
 * and distances), then plain loops over the piece lists at each call. */
#ifndef SEARCH_EVAL_H
#define SEARCH_EVAL_H

#include <stdbool.h>
#include <stddef.h>
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
/* Tunable weights by index, 0 .. eval_weight_count() - 1 (tuning tools):
 * global ones ("tempo", "mob.mg", ...), per piece type ("N.mg", "N.eg",
 * "N.mob") and per type and square ("N.e4.mg", "N.e4.eg": centipawns added
 * to the square tables, 0 unless set; squares from White's view, Black's
 * mirrored). A definition file sets them with `eval=NAME:VALUE,...`;
 * unknown names there are ignored. eval_weight_set takes effect at
 * eval_weights_apply. */
int eval_weight_count(const Eval *e);
/* Is weight i a square weight? Then its type, square (White's view) and
 * phase (eg: 0 middle game, 1 endgame). */
bool eval_weight_square(const Eval *e, int i, int *t, int *sq, int *eg);
/* The square weight that a piece of colour c and type t on sq (the board's
 * own square) is scored by, in phase eg; -1 if none. */
int eval_square_weight(const Eval *e, int c, int t, int sq, int eg);
/* Table weights: the square weights and the mobility weights per number of
 * moves ("N.mob3.mg", "N.mob3.eg": centipawns for a piece, neither royal
 * nor promoting, with that many moves, the last, 31, for that many or
 * more; 0 unless set). The score is linear in them. Is weight i one? Then
 * the middle-game weight and the endgame one it pairs with. */
bool eval_weight_table(const Eval *e, int i, int *mg, int *eg);
/* The middle-game table weights position pos's score adds, as w << 1 | c
 * (c: the colour of the piece; Black's count against White), at most max
 * of them; returns how many. Each adds its endgame pair too, blended by
 * the game phase. */
int eval_table_terms(const Eval *e, const Position *pos, int *terms, int max);
/* Game phase: 256 with all the start's pieces (besides kings and pawns),
 * 0 with none; the evaluation blends middle game and endgame by it. */
int eval_game_phase(const Eval *e, const Position *pos);
bool eval_weight_name(const Eval *e, int i, char *buf, size_t len); /* false: no such weight */
int eval_weight_index(const Eval *e, const char *name);             /* -1 when unknown */
int eval_weight_get(const Eval *e, int i);
void eval_weight_set(Eval *e, int i, int value);
void eval_weights_apply(Eval *e);
/* Material value (centipawns) of piece type t, as estimated or overridden. */
int eval_piece_value(const Eval *e, int t);
/* Estimated value of type t from its moves alone (ignores PieceType.value). */
int eval_estimate_value(const Variant *v, int t);
/* The evaluation term by term, for a developer's eye (the `eval` command):
 * each term is White's middle-game and endgame share less Black's, in
 * centipawns; eval_terms returns eval_evaluate's score. */
enum {
    EVAL_MATERIAL,
    EVAL_MOBILITY,
    EVAL_THREATS,
    EVAL_KING,
    EVAL_PAWNS,
    EVAL_RACES,
    EVAL_INITIATIVE,
    EVAL_TERMS
};
extern const char *const eval_term_names[EVAL_TERMS];
typedef struct {
    int mg[EVAL_TERMS], eg[EVAL_TERMS];
    int phase;   /* 256 with all the start's pieces, 0 with none */
    int blended; /* the terms blended by the phase, White's view */
    int scaled;  /* that scaled down: endgame (few pawns, opposite bishops), mating potential */
    int tempo;   /* for the side to move, White's view */
    int score;   /* scaled + tempo from the side to move's view */
} EvalTerms;
int eval_terms(const Eval *e, const Position *pos, EvalTerms *out);
/* Both sides lack mating potential: a dead draw by the rules. */
bool eval_dead_draw(const Eval *e, const Position *pos);
/* Could a piece of colour c and type t on from capture on to, were the
 * board empty? */
bool eval_may_capture(const Eval *e, int c, int t, int from, int to);
/* Does colour c have pieces besides its royal and promoting ones (null-move
 * safety)? */
bool eval_has_pieces(const Eval *e, const Position *pos, int c);

#endif
