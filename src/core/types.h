/* types.h - squares, pieces and moves shared by the whole rules core.
 *
 * A square is y * files + x on a board of up to 16x16, so it fits a byte;
 * SQ_NONE (-1) needs the wider Square type. A piece is its type (1..31) with
 * the colour in bit 5; 0 is an empty square. A move packs from, to,
 * promotion type, kind and a small payload into 32 bits. */
#ifndef TYPES_H
#define TYPES_H

#include <stdbool.h>
#include <stdint.h>

#define MAX_FILES 16
#define MAX_RANKS 16
#define MAX_SQ (MAX_FILES * MAX_RANKS)
#define MAX_TYPES 32   /* piece types are 1..31 */
#define MAX_MOVES 4096 /* pos_from_fen refuses positions that could have more */
#define MAX_GAME_PLY 4096

typedef int16_t Square;
#define SQ_NONE ((Square)-1)

typedef uint8_t Piece;
enum { WHITE = 0, BLACK = 1 };
#define EMPTY ((Piece)0)
#define HOLE ((Piece)0xFF)

static inline Piece make_piece(int color, int type) {
    return (Piece)(type | (color << 5));
}
static inline int piece_type(Piece p) {
    return p & 31;
}
static inline int piece_color(Piece p) {
    return p >> 5;
}

typedef uint32_t Move;
#define MOVE_NONE ((Move)0)

enum MoveKind {
    MK_NORMAL = 0,
    MK_DOUBLE = 1, /* pawn double step: sets the en-passant square */
    MK_EP = 2,     /* en-passant capture */
    MK_CASTLE = 3, /* payload: castling table index */
    MK_SETUP = 4,  /* from/to hold the gate files of the pieces in hand */
};

static inline Move move_make(int from, int to, int promo, int kind, int payload) {
    return (Move)from | (Move)to << 8 | (Move)promo << 16 | (Move)kind << 21 | (Move)payload << 24;
}
static inline int move_from(Move m) {
    return m & 0xFF;
}
static inline int move_to(Move m) {
    return (m >> 8) & 0xFF;
}
static inline int move_promo(Move m) {
    return (m >> 16) & 31;
}
static inline int move_kind(Move m) {
    return (m >> 21) & 7;
}
static inline int move_payload(Move m) {
    return m >> 24;
}

typedef struct {
    Move m[MAX_MOVES];
    int n;
} MoveList;

#endif
