/* fuzz_nnue.c - network files (nnue_load, search/nnue.h). Input: a file's
 * bytes after one control byte; when that byte is odd the harness first
 * writes the payload's right checksum into the header, so that the checks
 * behind the checksum are reached too. Properties: a file is refused with a
 * reason or loaded; a loaded net that fits its variant (chess or Hannibal, by
 * the header) scores the start and the positions after its moves within the
 * clamp, and the same with the accumulator kept as built afresh. */
#include <sodium.h>

#include "core/movegen.h"
#include "fuzz.h"
#include "search/nnue.h"
#include "variants/loader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static Variant *chess, *hannibal;
static Position pos;
static NnueAccumulator kept, fresh;

static void score_games(const NnueNet *n, const Variant *v) {
    char err[200];
    if (pos_from_fen(&pos, v, NULL, err, sizeof err))
        fuzz_fail("start refused: %s", err);
    nnue_reset(&kept);
    for (int ply = 0; ply < 12; ply++) {
        int s = nnue_evaluate(n, &kept, &pos);
        nnue_reset(&fresh);
        if (s != nnue_evaluate(n, &fresh, &pos) || s < -NNUE_MAX_SCORE || s > NNUE_MAX_SCORE)
            fuzz_fail("score %d kept, %d afresh", s, nnue_evaluate(n, &fresh, &pos));
        MoveList l;
        movegen_legal(&pos, &l);
        if (!l.n)
            break;
        pos_make_move(&pos, l.m[(unsigned)s % (unsigned)l.n]);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1 || size > (1 << 20))
        return 0;
    char err[200];
    if (!chess) {
        chess = variant_load_builtin("chess", err, sizeof err);
        hannibal = variant_load_builtin("hannibal", err, sizeof err);
        if (!chess || !hannibal)
            fuzz_fail("built-in variants: %s", err);
    }
    uint8_t *file = malloc(size - 1 + 1);
    if (!file)
        abort();
    memcpy(file, data + 1, size - 1);
    if ((data[0] & 1) && size - 1 >= NNUE_HEADER)
        crypto_generichash(file + 124, 16, file + NNUE_HEADER, size - 1 - NNUE_HEADER, NULL, 0);
    NnueNet *n = nnue_load(file, size - 1, err, sizeof err);
    free(file);
    if (!n) {
        if (!*err)
            fuzz_fail("refused without a reason");
        return 0;
    }
    if (nnue_fits(n, chess, err, sizeof err))
        score_games(n, chess);
    else if (nnue_fits(n, hannibal, err, sizeof err))
        score_games(n, hannibal);
    nnue_free(n);
    return 0;
}
