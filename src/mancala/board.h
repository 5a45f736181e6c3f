/* board.h - Slangenspel (snake mancala) positions, rules and notation.
 * A position is a small value type (holes, stores, side, variant fields) that is
 * copied to make a move (copy-make); moves are 16-bit codes; all text goes through here. */
#ifndef MANCALA_BOARD_H
#define MANCALA_BOARD_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MANCALA_HOLES 16
#define MANCALA_MAX_MOVES 72      /* 8 holes x 2 ways x 2, plus store moves */
#define MANCALA_MAX_BOARD 200     /* most eggs the board text may hold */
#define MANCALA_MAX_STORE 999     /* largest store the position text may hold */
#define MANCALA_MAX_STORE_MOVES 3 /* variant A: store moves per player and game */
#define MANCALA_MOVE_TEXT 8       /* "S16-x" and NUL fit */
#define MANCALA_POS_TEXT 160      /* room for any position text, NUL included */

/* Rule sets: bit flags. */
enum { MANCALA_BASE = 0, MANCALA_VAR_A = 1, MANCALA_VAR_B = 2 };

/* Move code: bits 0-3 start hole index (hole number - 1), bit 4 descending,
 * bit 5 capture (last egg onto head or tail), bit 6 store move, bit 7 pass. */
typedef uint16_t MancalaMove;
enum {
    MANCALA_M_DOWN = 1 << 4,
    MANCALA_M_CAPTURE = 1 << 5,
    MANCALA_M_STORE = 1 << 6,
    MANCALA_M_PASS = 1 << 7,
};
#define MANCALA_MOVE_NONE ((MancalaMove)0xffff)

typedef struct {
    uint8_t hole[MANCALA_HOLES];   /* eggs per hole; index 0 is hole 1 */
    uint8_t origin[MANCALA_HOLES]; /* variant B: start hole (1-16) of the sowing that
                                      brought the single egg in the hole, 0 if none */
    int16_t store[2];              /* A's and B's store */
    uint8_t side;                  /* 0 = A (outer ring, holes 1-8), 1 = B */
    uint8_t used[2];               /* variant A: store moves used */
    uint8_t rules;                 /* MANCALA_VAR_A | MANCALA_VAR_B */
} MancalaPos;

/* Writes a reason to ERR (ERRLEN bytes; nothing when ERR is NULL), printf-like: the
 * one error helper of the mancala and its engine glue. */
void mancala_set_err(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Rule set by name: "slangenspel", "slangenspel-a", "-b", "-ab"; -1 when unknown. */
int mancala_rules_by_name(const char *name);
/* Start position of a rule set. */
void mancala_start(MancalaPos *p, int rules);

/* Position text (see rules.md). Parse returns false and a reason on bad text. */
bool mancala_parse(MancalaPos *p, int rules, const char *text, char *err, size_t errlen);
void mancala_print(const MancalaPos *p, char *buf, size_t len);

/* Eggs on the board, and in one player's ring (0 = A, 1 = B). */
int mancala_board_eggs(const MancalaPos *p);
int mancala_ring_eggs(const MancalaPos *p, int player);

/* True when the rules end the game in this position itself (an empty ring, or with
 * variant B an empty board). Repetition and the 100-ply rule need a history and are
 * the game record's business. */
bool mancala_over(const MancalaPos *p);

/* Legal moves (none when over). With variant B a player without a move gets the
 * single move "pass". Returns the count. */
int mancala_moves(const MancalaPos *p, MancalaMove *out);

/* Copy-make: writes the position after M (which must be legal) to OUT and returns
 * the number of eggs the move captured. P and OUT may be the same. */
int mancala_play(const MancalaPos *p, MancalaMove m, MancalaPos *out);

/* Move text: "3+", "12-x", "S5+", "pass". */
void mancala_move_text(MancalaMove m, char *buf, size_t len);
/* Parses move text and checks it is legal in P; false with a reason otherwise. */
bool mancala_parse_move(const MancalaPos *p, const char *text, MancalaMove *m, char *err,
                        size_t errlen);

/* Leaves of the legal-move tree (game-over positions have no moves). STOP
 * (NULL: none) may be set by another thread: the count then ends early. */
uint64_t mancala_perft(const MancalaPos *p, int depth, const atomic_bool *stop);

/* Equality of everything that makes a position (for repetition), and a 64-bit hash. */
bool mancala_same(const MancalaPos *a, const MancalaPos *b);
uint64_t mancala_hash(const MancalaPos *p);

#endif
