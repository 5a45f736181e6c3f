/* play_draw.h - what `menagerie play` shows: a chess-like board (a grid, or
 * a diamond for the diagonal games) or the Slangenspel ring, in plain ASCII
 * or with Unicode pieces and ANSI colours. Reads the game, never changes it. */
#ifndef PLAY_DRAW_H
#define PLAY_DRAW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "engine/engine.h"

typedef struct {
    bool unicode; /* chess glyphs, box drawing */
    bool colour;  /* ANSI colours; the last move is a background, not brackets */
    bool flip;    /* seen from Black's (B's) side */
    bool diamond; /* a game played diagonally (GameInfo.rotated) drawn as a diamond */
} PlayStyle;

/* The board and its status lines: last move, gates and hands, side to move,
 * check, orientation note. */
void play_draw_board(FILE *out, Game *g, const PlayStyle *style);
/* "12." or "12..." for ply index PLY of the game's history (0 = first move). */
void play_draw_ply_label(const Game *g, int ply, char *buf, size_t len);
/* The number of moves played so far. */
int play_draw_plies(Game *g);
/* "White"/"Black", or "A"/"B" for the mancala. */
const char *play_draw_side_name(const Game *g, Side side);
/* The pieces of a chess-like game as "P pawn, N knight, ..." (empty for the mancala). */
void play_draw_legend(const Game *g, char *buf, size_t len);

#endif
