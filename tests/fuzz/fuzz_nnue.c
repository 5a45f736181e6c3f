/* fuzz_nnue.c - network files (nnue_load, search/nnue.h). Input: a control
 * byte, then a file's header and bytes. With bit 1 of the control byte the
 * bytes are the file as it is; else they are a pattern that fills the payload
 * to the size the header names (at most 1 MiB), so that a short input makes a
 * whole network. With bit 0 the harness writes the payload's right checksum
 * into the header first, so that the checks behind it are reached too.
 * Properties: a file is refused with a reason or loaded; a loaded net that
 * fits its variant (chess or Hannibal, by the header) scores the start and the
 * positions after its moves within the clamp, and the same with the
 * accumulator kept as built afresh. */
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
    const uint8_t *in = data + 1;
    size_t len = size - 1;
    if (!(data[0] & 2) && len > NNUE_HEADER) {
        uint64_t inputs =
            in[104] | in[105] << 8 | (uint64_t)in[106] << 16 | (uint64_t)in[107] << 24;
        uint64_t hidden =
            in[108] | in[109] << 8 | (uint64_t)in[110] << 16 | (uint64_t)in[111] << 24;
        uint64_t want = NNUE_HEADER + 2 * (inputs * hidden + 3 * hidden) + 4;
        if (inputs < (1 << 20) && hidden < (1 << 20) && want <= (1 << 20))
            len = (size_t)want;
    }
    uint8_t *file = malloc(len + 1);
    if (!file)
        abort();
    if (len == size - 1) {
        memcpy(file, in, len);
    } else { /* the header, then the pattern over and over */
        memcpy(file, in, NNUE_HEADER);
        size_t plen = size - 1 - NNUE_HEADER;
        for (size_t i = NNUE_HEADER; i < len; i++)
            file[i] = in[NNUE_HEADER + (i - NNUE_HEADER) % plen];
    }
    if ((data[0] & 1) && len >= NNUE_HEADER)
        crypto_generichash(file + 124, 16, file + NNUE_HEADER, len - NNUE_HEADER, NULL, 0);
    NnueNet *n = nnue_load(file, len, err, sizeof err);
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
