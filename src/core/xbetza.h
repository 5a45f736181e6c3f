/* xbetza.h - parses XBetza piece notation into board-independent move paths.
 *
 * Each XbMove is one first-leg direction with its later legs given as
 * rotations (in 45-degree steps) of the previous leg's direction; the
 * variant compiler (variant.c) lays these paths out on a real board.
 * Castling (the O atom) is returned as a distance per side, not as a path:
 * `O3` both ways, `rO4` toward the h-side only, `lO3` toward the a-side. */
#ifndef XBETZA_H
#define XBETZA_H

#include <stddef.h>
#include <stdint.h>

#define XB_MAX_LEGS 4
#define XB_MAX_MOVES 160

enum {
    XM_MOVE = 1, /* may end on / pass an empty square */
    XM_CAPT = 2, /* may end capturing an enemy piece */
    XM_HOP = 4,  /* non-final leg: may pass an occupied square */
    XM_EP = 8,   /* may capture en passant */
};

enum {
    XF_INITIAL = 1, /* i: only from the piece's start squares */
    XF_LAME = 2,    /* n: the squares a leap passes must be empty */
};

typedef struct {
    uint8_t rot;   /* legs > 0: bit k = may turn k*45 degrees to the left */
    uint8_t len;   /* legs > 0: step length in king steps */
    uint8_t mode;  /* XM_* */
    uint8_t rider; /* slides instead of leaping once */
    uint8_t range; /* rider: most steps, 0 = unlimited */
} XbLeg;

typedef struct {
    int8_t dx, dy; /* first leg, White's view: +dy is forward, +dx to the right */
    uint8_t flags; /* XF_* */
    uint8_t nlegs;
    XbLeg leg[XB_MAX_LEGS];
} XbMove;

typedef struct {
    XbMove move[XB_MAX_MOVES];
    int n;
    int castle_dist[2]; /* O atom: king steps castling toward the h-side [0] and the
                           a-side [1] (White's view); 0 = cannot castle that way */
} XbPiece;

/* Compiles text into out. Returns 0, or -1 with a message in err. */
int xbetza_compile(const char *text, XbPiece *out, char *err, size_t errlen);

#endif
