/* fuzz_variant.c - variant definition files (the loader, the XBetza and
 * variant compilers). Input: the file's text. Properties: an accepted file
 * gives a start position whose moves all play and undo exactly, and every
 * position after one move prints a FEN that reads back the same. */
#include "core/movegen.h"
#include "core/perft.h"
#include "core/rules.h"
#include "fuzz.h"
#include "variants/loader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static Position pos, back;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > 8192)
        return 0;
    char *text = fuzz_text(data, size), err[200];
    Variant *v = variant_load_text(text, "fuzz", err, sizeof err);
    free(text);
    if (!v)
        return 0;
    if (pos_from_fen(&pos, v, NULL, err, sizeof err))
        fuzz_fail("the loader's start position is refused: %s", err);
    char start[1024], fen[1024], again[1024];
    pos_to_fen(&pos, start, sizeof start);
    MoveList l;
    movegen_legal(&pos, &l);
    if (l.n > pos_move_bound(&pos, pos.stm))
        fuzz_fail("%s: %d moves, above the bound %d", start, l.n, pos_move_bound(&pos, pos.stm));
    for (int i = 0; i < l.n && i < 64; i++) {
        pos_make_move(&pos, l.m[i]);
        pos_to_fen(&pos, fen, sizeof fen);
        if (pos_from_fen(&back, v, fen, err, sizeof err))
            fuzz_fail("FEN after a move refused: %s: %s", fen, err);
        pos_to_fen(&back, again, sizeof again);
        if (strcmp(fen, again))
            fuzz_fail("FEN %s reads back as %s", fen, again);
        rules_result(&pos);
        pos_unmake_move(&pos);
        pos_to_fen(&pos, fen, sizeof fen);
        if (strcmp(fen, start))
            fuzz_fail("unmake gives %s, not %s", fen, start);
    }
    if (l.n <= 40)
        perft(&pos, 2, NULL);
    variant_free(v);
    return 0;
}
