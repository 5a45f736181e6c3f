/* wdl.c - the win/draw/loss model of UCI_ShowWDL: from a search score s
 * (centipawns, side to move's view) and the number n of pieces on the board
 * (kings and pawns included, both sides), as Stockfish's win rate model:
 *     win  = 1 / (1 + exp((a - s) / b)),  loss = 1 / (1 + exp((a + s) / b)),
 *     draw = 1 - win - loss,   a = A0 + A1 n,  b = B0 + B1 n.
 * a is the score at which a win is as likely as not, b how fast the chances
 * turn with the score. The four numbers are fitted by maximum likelihood to
 * the results of the engine's own games (docs/uci.md, "Win/draw/loss", has
 * the fit and the command: lab/tune/wdl_fit.sh); n is kept within the range the
 * games had. */
#include <math.h>

#include "engine/engine.h"

#define WDL_A0 190.82
#define WDL_A1 -3.86
#define WDL_B0 36.29
#define WDL_B1 4.56
#define WDL_MIN_PIECES 3 /* the fit's range of n */
#define WDL_MAX_PIECES 32

void engine_wdl_model(const Game *g, EngineWdl *out) {
    BoardView b;
    int n = WDL_MAX_PIECES;
    if (g && engine_board(g, &b)) {
        n = 0;
        for (int i = 0; i < b.files * b.ranks; i++)
            n += b.sq[i] != '.' && b.sq[i] != '*';
    }
    n = n < WDL_MIN_PIECES ? WDL_MIN_PIECES : n > WDL_MAX_PIECES ? WDL_MAX_PIECES : n;
    out->a = WDL_A0 + WDL_A1 * n;
    out->b = WDL_B0 + WDL_B1 * n;
}

void engine_wdl(const EngineWdl *m, int score, int mate, int out[3]) {
    if (mate) {
        out[0] = mate > 0 ? 1000 : 0;
        out[1] = 0;
        out[2] = mate > 0 ? 0 : 1000;
        return;
    }
    double b = m->b > 1 ? m->b : 1;
    out[0] = (int)lround(1000 / (1 + exp((m->a - score) / b)));
    out[2] = (int)lround(1000 / (1 + exp((m->a + score) / b)));
    out[1] = 1000 - out[0] - out[2];
}
