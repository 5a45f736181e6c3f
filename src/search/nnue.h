/* nnue.h - a learned evaluation: an efficiently updatable neural network
 * (NNUE) for any chess-like variant.
 *
 * Features. A position is a list of items, each a piece on a slot: the board's
 * squares (0 .. files*ranks-1), then one slot per file for the gate behind it,
 * then MAX_HAND slots for the first, second, ... piece of a type in hand. The
 * network sees the items twice, from each side's view: a feature is (the
 * piece's colour, mine or the other's; its type; the slot, Black's turned as
 * the variant turns Black's board). So the inputs are 2 x ntypes x slots of
 * the variant, for any board up to 16x16, gates and hands: feature set
 * NNUE_FEATURES, named in each net with the board and the piece letters.
 *
 * Network. inputs -> hidden (int16 weights, QA) per view, the side to move's
 * view first, clipped ReLU [0, 1], then one output (int16 weights, scale QB,
 * which each file names): the score is NNUE_SCALE x the output, centipawns
 * from the side to move's view.
 *
 * Accumulator. Each search thread keeps the hidden layer's sums for the last
 * position it evaluated, with that position's items. The next evaluation
 * adds and subtracts the weight rows of the items that changed since (a move
 * and its reply: a few rows) and starts from the biases again only when more
 * changed than the position holds. Integer arithmetic throughout: the AVX2,
 * SSE2 and portable code give the same scores, so `Bench:` stays the same.
 *
 * Net files (little-endian): magic "MNGNNUE1", the variant's name (32 bytes),
 * the feature set (64 bytes, nnue_feature_set), inputs, hidden, QA, QB and
 * NNUE_SCALE (u32 each), a BLAKE2b-128 checksum of the payload, then the
 * payload: input weights [inputs][hidden], input biases [hidden], output
 * weights [2][hidden] (int16), output bias (int32). Built-in nets are the
 * embedded files nets/VARIANT.nnue of src/variants/. */
#ifndef SEARCH_NNUE_H
#define SEARCH_NNUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/position.h"

#define NNUE_FEATURES "psq-gates-hand-1"
#define NNUE_QA 255
#define NNUE_QB 1024     /* the output weights' scale of new nets (64 in the first ones) */
#define NNUE_QB_MAX 8192 /* the largest a file may name */
#define NNUE_SCALE 400
#define NNUE_MAX_HIDDEN 1024 /* a multiple of 16 */
#define NNUE_MAX_SCORE 10000 /* scores are clamped to this, well below mates */
#define NNUE_HEADER 140
#define NNUE_MAX_ITEMS (MAX_SQ + 2 * MAX_FILES + 2 * MAX_TYPES * MAX_HAND)

typedef struct NnueNet {
    char variant[32];
    char features[64];
    int inputs, hidden;
    int16_t *ft_w;  /* [inputs][hidden] */
    int16_t *ft_b;  /* [hidden] */
    int16_t *out_w; /* [2][hidden]: the side to move's view, then the other's */
    int32_t out_b;
    int qb; /* the output weights' scale (NNUE_QB for a new net) */
} NnueNet;

/* The feature set of variant v as a net names it, "psq-gates-hand-1 8x8
 * PNBRQK" (truncated to len); returns the number of inputs. */
int nnue_feature_set(const Variant *v, char *buf, size_t len);
/* The slots of variant v: squares, gates, hand places. */
int nnue_slots(const Variant *v);
/* The items of pos (slot << 6 | piece, slots from White's view); returns
 * how many (at most NNUE_MAX_ITEMS). */
int nnue_items(const Position *pos, uint16_t *items);
/* The input of an item seen from colour view. */
int nnue_feature(const Variant *v, int view, uint16_t item);

/* A net from a file's bytes; NULL with the reason in err when the bytes are
 * no net of this format or damaged (checksum). */
NnueNet *nnue_load(const void *data, size_t len, char *err, size_t errlen);
NnueNet *nnue_load_file(const char *path, char *err, size_t errlen);
/* A net made for inputs and hidden, all weights 0 (trainers); NULL when the
 * sizes are out of range. */
NnueNet *nnue_new(const char *variant, const char *features, int inputs, int hidden);
void nnue_free(NnueNet *n);
/* Writes n to f; false on a write error. */
bool nnue_write(const NnueNet *n, FILE *f);
/* Is n made for variant v (its name and feature set)? Else false and why. */
bool nnue_fits(const NnueNet *n, const Variant *v, char *err, size_t errlen);
/* The built-in net of variant v (loaded once, kept for the process), NULL when
 * it has none or it does not fit. */
const NnueNet *nnue_builtin(const Variant *v);

typedef struct {
    int16_t sum[2][NNUE_MAX_HIDDEN]; /* per view: White's, Black's */
    const NnueNet *net;              /* whose sums these are, NULL none */
    int nitems;
    uint16_t items[NNUE_MAX_ITEMS]; /* the position they are of, sorted */
} NnueAccumulator;

/* Forgets the position held (a new search, another net). */
void nnue_reset(NnueAccumulator *a);
/* The score of pos by net n, centipawns from the side to move's view; a
 * holds the sums of the last position it scored and is brought up to date. */
int nnue_evaluate(const NnueNet *n, NnueAccumulator *a, const Position *pos);

/* The vector code: NNUE_SIMD_BEST (what this machine has), or a lower one, to
 * compare them (tests); returns the level in use. */
enum { NNUE_SIMD_PORTABLE, NNUE_SIMD_SSE2, NNUE_SIMD_AVX2, NNUE_SIMD_BEST };
int nnue_simd(int level);
const char *nnue_simd_name(void);

#endif
