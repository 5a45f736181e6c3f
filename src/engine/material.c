/* material.c - whether a side could still mate, by the game's own table of
 * material without mating potential (core/rules.c). A clock uses it: a flag
 * fall is a draw when the other side could not have won. */
#include <stdlib.h>
#include <string.h>

#include "core/position.h"
#include "core/rules.h"
#include "engine/engine.h"
#include "variants/loader.h"

bool engine_can_mate(const Game *g, Side side) {
    GameInfo gi;
    engine_info(g, &gi);
    if (gi.kind != KIND_CHESS)
        return true; /* the mancala: whoever has more eggs stored wins */
    char err[ENGINE_ERR_LEN], fen[1024];
    Variant *v = variant_load_builtin(gi.name, err, sizeof err);
    Position *pos = malloc(sizeof *pos);
    if (!pos)
        abort();
    engine_position_text(g, fen, sizeof fen);
    bool can = true; /* when in doubt, the flag loses */
    if (v && pos_from_fen(pos, v, fen, err, sizeof err) == 0) {
        can = rules_mating_potential(pos, (int)side) || pos->nhand[side] > 0;
        for (int f = 0; f < v->files && !can; f++)
            can = pos->gate[side][f] != EMPTY; /* a waiting piece can still come in */
    }
    free(pos);
    variant_free(v);
    return can;
}
