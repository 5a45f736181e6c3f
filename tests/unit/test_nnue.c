/* test_nnue.c - the learned evaluation's machinery with random weights: along
 * random games (moves and take-backs, gates and hands, mirrored and rotated
 * boards) the accumulator kept from position to position gives exactly the
 * score of one built afresh, and the portable, SSE2 and AVX2 code agree; a net
 * survives writing and reading, its output scale (QB) with it; damaged, cut,
 * foreign and other-scaled files are refused. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/movegen.h"
#include "search/nnue.h"
#include "test.h"
#include "variants/loader.h"

static uint64_t rng = 12345;

static uint64_t next(void) {
    uint64_t z = (rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    return z ^ (z >> 27);
}

static NnueNet *random_net(const Variant *v, int hidden) {
    char fs[64];
    int inputs = nnue_feature_set(v, fs, sizeof fs);
    NnueNet *n = nnue_new(v->name, fs, inputs, hidden);
    for (size_t i = 0; i < (size_t)inputs * hidden; i++)
        n->ft_w[i] = (int16_t)((int)(next() % 161) - 80);
    for (int i = 0; i < hidden; i++)
        n->ft_b[i] = (int16_t)(next() % 200);
    for (int i = 0; i < 2 * hidden; i++)
        n->out_w[i] = (int16_t)((int)(next() % 129) - 64);
    n->out_b = 1234;
    return n;
}

static int fresh(const NnueNet *n, const Position *pos, int level) {
    static NnueAccumulator a;
    int was = nnue_simd(level);
    nnue_reset(&a);
    int s = nnue_evaluate(n, &a, pos);
    nnue_simd(was);
    return s;
}

static void random_games(const char *name) {
    char err[300];
    Variant *v = variant_load_builtin(name, err, sizeof err);
    CHECK(v != NULL);
    if (!v)
        return;
    NnueNet *n = random_net(v, 64);
    static Position pos;
    static NnueAccumulator kept;
    nnue_reset(&kept);
    int best = nnue_simd(NNUE_SIMD_BEST), bad = 0, checked = 0;
    for (int game = 0; game < 6; game++) {
        CHECK(pos_from_fen(&pos, v, NULL, err, sizeof err) == 0);
        for (int ply = 0; ply < 80; ply++) {
            MoveList ml;
            movegen_legal(&pos, &ml);
            if (!ml.n)
                break;
            pos_make_move(&pos, ml.m[next() % (uint64_t)ml.n]);
            if (next() % 4 == 0 && pos.hply > 1) /* a take-back now and then, as a search does */
                pos_unmake_move(&pos);
            int s = nnue_evaluate(n, &kept, &pos);
            for (int l = NNUE_SIMD_PORTABLE; l <= best; l++)
                bad += fresh(n, &pos, l) != s;
            checked++;
        }
    }
    if (bad)
        test_fail(__FILE__, __LINE__, "%s: %d of %d scores differ", name, bad, checked);
    CHECK(checked > 100);
    nnue_free(n);
    variant_free(v);
}

static void files(void) {
    char err[300];
    Variant *v = variant_load_builtin("chess", err, sizeof err);
    Variant *other = variant_load_builtin("team-mate", err, sizeof err);
    NnueNet *n = random_net(v, 32);
    char *buf;
    size_t len;
    FILE *f = open_memstream(&buf, &len);
    CHECK(nnue_write(n, f));
    fclose(f);
    NnueNet *back = nnue_load(buf, len, err, sizeof err);
    CHECK(back != NULL);
    if (back) {
        CHECK(back->hidden == 32 && back->out_b == 1234);
        CHECK(!memcmp(back->ft_w, n->ft_w, (size_t)n->inputs * n->hidden * sizeof *n->ft_w));
        CHECK(!memcmp(back->out_w, n->out_w, 2 * (size_t)n->hidden * sizeof *n->out_w));
        CHECK(nnue_fits(back, v, err, sizeof err));
        CHECK(!nnue_fits(back, other, err, sizeof err) && strstr(err, "for chess, not team-mate"));
    }
    /* QB, the output weights' scale, is the file's: the first nets' 64 loads */
    CHECK(back && back->qb == NNUE_QB);
    memcpy(buf + 116, "\x40\0\0\0", 4);
    nnue_free(back);
    back = nnue_load(buf, len, err, sizeof err);
    CHECK(back && back->qb == 64);
    memcpy(buf + 116, "\0\0\0\0", 4);
    CHECK(!nnue_load(buf, len, err, sizeof err) && strstr(err, "other quantization"));
    memcpy(buf + 116, "\x01\x20\0\0", 4); /* 8193 */
    CHECK(!nnue_load(buf, len, err, sizeof err) && strstr(err, "other quantization"));
    memcpy(buf + 116, "\0\x04\0\0", 4); /* 1024 again */
    nnue_free(back);
    buf[NNUE_HEADER + 100] ^= 1;
    CHECK(!nnue_load(buf, len, err, sizeof err) && strstr(err, "checksum"));
    buf[NNUE_HEADER + 100] ^= 1;
    CHECK(!nnue_load(buf, len - 2, err, sizeof err) && strstr(err, "bytes"));
    CHECK(!nnue_load(buf, 20, err, sizeof err) && strstr(err, "not a Menagerie network"));
    buf[0] = 'X';
    CHECK(!nnue_load(buf, len, err, sizeof err) && strstr(err, "not a Menagerie network"));
    free(buf);
    nnue_free(n);
    variant_free(v);
    variant_free(other);
}

/* The score is the same for output weights twice as large at twice the scale. */
static void output_scale(void) {
    char err[300];
    Variant *v = variant_load_builtin("chess", err, sizeof err);
    NnueNet *n = random_net(v, 32), *twice = random_net(v, 32);
    memcpy(twice->ft_w, n->ft_w, (size_t)n->inputs * n->hidden * sizeof *n->ft_w);
    memcpy(twice->ft_b, n->ft_b, (size_t)n->hidden * sizeof *n->ft_b);
    for (int i = 0; i < 2 * n->hidden; i++)
        twice->out_w[i] = (int16_t)(2 * n->out_w[i]);
    n->qb = 64, twice->qb = 128, twice->out_b = 2 * n->out_b;
    static Position pos;
    CHECK(pos_from_fen(&pos, v, NULL, err, sizeof err) == 0);
    int same = 0;
    for (int ply = 0; ply < 40; ply++) {
        MoveList ml;
        movegen_legal(&pos, &ml);
        if (!ml.n)
            break;
        pos_make_move(&pos, ml.m[next() % (uint64_t)ml.n]);
        same += fresh(n, &pos, NNUE_SIMD_PORTABLE) == fresh(twice, &pos, NNUE_SIMD_PORTABLE);
    }
    CHECK(same == pos.hply && same > 10);
    nnue_free(n);
    nnue_free(twice);
    variant_free(v);
}

void test_nnue(void) {
    const char *games[] = {"chess",     "hannibal",          "diamondback",
                           "team-mate", "snake-vs-mongoose", "capablanca"};
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++)
        random_games(games[i]);
    files();
    output_scale();
}
