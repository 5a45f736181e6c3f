/* train.c - the trainer of a chess game's network (docs/nnue.md).
 *
 * Usage: train VARIANT DATA... --out NET [--hidden N] [--epochs N] [--lr X]
 *              [--batch N] [--lambda L] [--val PCT] [--threads N]
 *              [--state FILE] [--seed N] [--variant-file FILE] [--mirror]
 *              [--export]
 *
 * Reads the positions of `menagerie datagen` (lab/samples.h), puts a share of
 * the games aside for validation (--val, default 5 percent: every 20th game,
 * the first of them too), and
 * fits the network of nnue.h in floating point: the loss is the squared error
 * between sigmoid(score / 400) of the network and the target lambda x
 * sigmoid(search score / 400) + (1 - lambda) x the game's result, both for
 * the side to move; Adam, mini-batches spread over --threads. After each
 * epoch it prints the training and validation loss (the curve) and the
 * validation loss of the quantized network, keeps its state in --state
 * (weights, Adam's moments, the epoch; a stopped run given the same --state
 * goes on after its last whole epoch) and writes the quantized network of
 * the best validation loss so far to --out. The learning rate falls by 0.3
 * at 60 and 85 percent of the epochs. --mirror adds every position reflected
 * the way the variant's `reflect=` says: left to right (squares and gates by
 * file) or across the diagonal, the reflection that leaves its rules as they
 * are (chess: castling rights are no input); a variant with `reflect=none`
 * gets none. --export writes the network of
 * --state's weights (after its last epoch) and trains nothing: a net made
 * before a change of quantization, quantized anew. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/position.h"
#include "lab/samples.h"
#include "search/nnue.h"
#include "variants/loader.h"

typedef struct {
    uint32_t off;  /* first item in the item pool */
    uint16_t n;    /* items */
    uint8_t black; /* to move */
    float target_score, result;
} Pos;

typedef struct {
    const Variant *v;
    int inputs, hidden;
    float *w1, *b1, *w2, b2;      /* weights */
    float *m[4], *s[4], mb2, sb2; /* Adam's moments: w1, b1, w2 and b2 */
    Pos *pos;
    size_t npos;
    uint16_t *items;
    size_t nitems;
    uint32_t *train, *val;
    size_t ntrain, nval;
    double lambda;
} Model;

typedef struct {
    Model *m;
    const uint32_t *idx;
    size_t n;
    bool grads;                /* the gradients too, not the loss alone */
    float *g1, *gb1, *g2, gb2; /* gradients */
    double loss;
} Job;

static float sigmoidf_(float x) {
    return 1.0f / (1.0f + expf(-x));
}

/* The side to move's and the other's sums of position p, clipped. */
static float forward(const Model *m, const Pos *p, float *a, float *h) {
    int H = m->hidden;
    int us = p->black ? BLACK : WHITE;
    float out = m->b2;
    for (int side = 0; side < 2; side++) {
        int view = side ? !us : us;
        float *acc = a + side * H;
        memcpy(acc, m->b1, (size_t)H * sizeof *acc);
        for (int i = 0; i < p->n; i++) {
            const float *row = m->w1 + (size_t)nnue_feature(m->v, view, m->items[p->off + i]) * H;
            for (int j = 0; j < H; j++)
                acc[j] += row[j];
        }
        const float *w = m->w2 + side * H;
        for (int j = 0; j < H; j++) {
            float x = acc[j] < 0 ? 0 : acc[j] > 1 ? 1 : acc[j];
            h[side * H + j] = x;
            out += x * w[j];
        }
    }
    return out;
}

static void *run_job(void *arg) {
    Job *jb = arg;
    const Model *m = jb->m;
    int H = m->hidden;
    float *a = malloc(4 * (size_t)H * sizeof *a), *h = a + 2 * H;
    if (!a)
        abort();
    jb->loss = 0;
    for (size_t k = 0; k < jb->n; k++) {
        const Pos *p = &m->pos[jb->idx[k]];
        float out = forward(m, p, a, h);
        float q = sigmoidf_(out); /* score / 400 = out: NNUE_SCALE is 400 */
        float t = (float)(m->lambda * p->target_score + (1 - m->lambda) * p->result);
        jb->loss += (double)(q - t) * (q - t);
        if (!jb->grads)
            continue;
        float g = 2 * (q - t) * q * (1 - q);
        jb->gb2 += g;
        int us = p->black ? BLACK : WHITE;
        for (int side = 0; side < 2; side++) {
            int view = side ? !us : us;
            float *gw2 = jb->g2 + side * H;
            const float *w = m->w2 + side * H;
            float *da = a + side * H; /* reused: the gradient of the sums */
            for (int j = 0; j < H; j++) {
                gw2[j] += g * h[side * H + j];
                da[j] = da[j] > 0 && da[j] < 1 ? g * w[j] : 0;
                jb->gb1[j] += da[j];
            }
            for (int i = 0; i < p->n; i++) {
                float *row = jb->g1 + (size_t)nnue_feature(m->v, view, m->items[p->off + i]) * H;
                for (int j = 0; j < H; j++)
                    row[j] += da[j];
            }
        }
    }
    free(a);
    return NULL;
}

/* Mean loss over idx[0..n), spread over threads; with jobs' gradients when
 * grads (summed into jobs[0]). */
static double run(Model *m, const uint32_t *idx, size_t n, Job *jobs, int threads, bool grads) {
    pthread_t th[64];
    size_t per = (n + (size_t)threads - 1) / (size_t)threads;
    int used = 0;
    for (int t = 0; t < threads; t++) {
        size_t from = (size_t)t * per;
        if (from >= n)
            break;
        Job *jb = &jobs[t];
        jb->m = m;
        jb->idx = idx + from;
        jb->n = n - from < per ? n - from : per;
        if (grads) {
            memset(jb->g1, 0, (size_t)m->inputs * m->hidden * sizeof *jb->g1);
            memset(jb->gb1, 0, (size_t)m->hidden * sizeof *jb->gb1);
            memset(jb->g2, 0, 2 * (size_t)m->hidden * sizeof *jb->g2);
            jb->gb2 = 0;
        }
        jb->grads = grads;
        if (pthread_create(&th[used], NULL, run_job, jb))
            abort();
        used++;
    }
    double loss = 0;
    for (int t = 0; t < used; t++) {
        pthread_join(th[t], NULL);
        loss += jobs[t].loss;
    }
    if (grads)
        for (int t = 1; t < used; t++) {
            for (size_t i = 0; i < (size_t)m->inputs * m->hidden; i++)
                jobs[0].g1[i] += jobs[t].g1[i];
            for (int i = 0; i < m->hidden; i++)
                jobs[0].gb1[i] += jobs[t].gb1[i];
            for (int i = 0; i < 2 * m->hidden; i++)
                jobs[0].g2[i] += jobs[t].g2[i];
            jobs[0].gb2 += jobs[t].gb2;
        }
    return n ? loss / (double)n : 0;
}

static void adam(float *w, float *mo, float *sq, const float *g, size_t n, float scale, float lr,
                 float step, float clip) {
    const float b1 = 0.9f, b2 = 0.999f;
    float c1 = 1 - powf(b1, step), c2 = 1 - powf(b2, step);
    for (size_t i = 0; i < n; i++) {
        float gi = g[i] * scale;
        mo[i] = b1 * mo[i] + (1 - b1) * gi;
        sq[i] = b2 * sq[i] + (1 - b2) * gi * gi;
        w[i] -= lr * (mo[i] / c1) / (sqrtf(sq[i] / c2) + 1e-8f);
        w[i] = w[i] < -clip ? -clip : w[i] > clip ? clip : w[i];
    }
}

static uint64_t mix(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* ---- data -------------------------------------------------------------- */

/* The item reflected the way the variant's reflect= says: squares, and gates by
 * file (only REFLECT_FILES has gates); hand places as they are. */
static uint16_t mirror_item(const Variant *v, uint16_t item) {
    int slot = item >> 6, nsq = v->nsq;
    if (slot < nsq)
        slot = variant_reflect_square(v, slot);
    else if (slot < nsq + v->files)
        slot = nsq + v->files - 1 - (slot - nsq);
    return (uint16_t)(slot << 6 | (item & 63));
}

/* Adds one position (reflected with flip) to the training or validation set. */
static void add_pos(Model *m, const Sample *s, bool flip, bool in_val, size_t *cap_pos,
                    size_t *cap_items) {
    if (m->npos == *cap_pos) {
        *cap_pos = *cap_pos ? 2 * *cap_pos : 1 << 16;
        m->pos = realloc(m->pos, *cap_pos * sizeof *m->pos);
        m->train = realloc(m->train, *cap_pos * sizeof *m->train);
        m->val = realloc(m->val, *cap_pos * sizeof *m->val);
    }
    while (m->nitems + (size_t)s->n > *cap_items) {
        *cap_items = *cap_items ? 2 * *cap_items : 1 << 20;
        m->items = realloc(m->items, *cap_items * sizeof *m->items);
    }
    if (!m->pos || !m->train || !m->val || !m->items)
        abort();
    Pos *p = &m->pos[m->npos];
    p->off = (uint32_t)m->nitems;
    p->n = (uint16_t)s->n;
    p->black = s->black;
    p->target_score = 1.0f / (1.0f + expf(-(float)s->score / NNUE_SCALE));
    float white = (float)s->result / 2;
    p->result = s->black ? 1 - white : white;
    for (int i = 0; i < s->n; i++)
        m->items[m->nitems + (size_t)i] = flip ? mirror_item(m->v, s->item[i]) : s->item[i];
    m->nitems += (size_t)s->n;
    if (in_val)
        m->val[m->nval++] = (uint32_t)m->npos;
    else
        m->train[m->ntrain++] = (uint32_t)m->npos;
    m->npos++;
}

static bool read_data(Model *m, const char *path, const char *variant, const char *features,
                      double val_share, bool mirror) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "train: cannot open %s\n", path);
        return false;
    }
    char v[32], fs[64];
    if (!samples_read_header(f, v, fs) || strcmp(v, variant) || strcmp(fs, features)) {
        fprintf(stderr, "train: %s is not training data of %s with features \"%s\"\n", path,
                variant, features);
        fclose(f);
        return false;
    }
    static size_t cap_pos, cap_items;
    static uint64_t game; /* every k-th game, the first among them, is for validation */
    uint64_t k = val_share > 0 ? (uint64_t)(100 / val_share + 0.5) : 0;
    Sample *s = malloc(sizeof *s);
    if (!s)
        abort();
    int r;
    bool in_val = false;
    while ((r = samples_read(f, s)) == 1) {
        if (s->first)
            in_val = k && game++ % k == 0;
        bool bad = false;
        for (int i = 0; i < s->n; i++) {
            int slot = s->item[i] >> 6, piece = s->item[i] & 63;
            bad |= slot >= nnue_slots(m->v) || piece_type((Piece)piece) < 1 ||
                   piece_type((Piece)piece) > m->v->ntypes;
        }
        if (bad) {
            fprintf(stderr, "train: %s: an item outside the board or the pieces; stopped there\n",
                    path);
            break;
        }
        add_pos(m, s, false, in_val, &cap_pos, &cap_items);
        if (mirror && m->v->reflect != REFLECT_NONE)
            add_pos(m, s, true, in_val, &cap_pos, &cap_items);
    }
    if (r < 0)
        fprintf(stderr, "train: %s is damaged after %zu positions; the rest is left out\n", path,
                m->npos);
    free(s);
    fclose(f);
    return true;
}

/* ---- state and export ---------------------------------------------------- */

static size_t counts(const Model *m, size_t *n) {
    n[0] = (size_t)m->inputs * m->hidden;
    n[1] = (size_t)m->hidden;
    n[2] = 2 * (size_t)m->hidden;
    return 3;
}

static bool save_state(const Model *m, const char *path, int epoch, double best) {
    char tmp[1100];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "wb");
    if (!f)
        return false;
    size_t n[3];
    counts(m, n);
    float *w[3] = {m->w1, m->b1, m->w2};
    int head[3] = {m->inputs, m->hidden, epoch};
    bool ok = fwrite("MNGTRAIN", 1, 8, f) == 8 && fwrite(head, sizeof head, 1, f) == 1 &&
              fwrite(&best, sizeof best, 1, f) == 1;
    for (int i = 0; i < 3 && ok; i++)
        ok = fwrite(w[i], sizeof(float), n[i], f) == n[i] &&
             fwrite(m->m[i], sizeof(float), n[i], f) == n[i] &&
             fwrite(m->s[i], sizeof(float), n[i], f) == n[i];
    float tail[3] = {m->b2, m->mb2, m->sb2};
    ok = ok && fwrite(tail, sizeof tail, 1, f) == 1;
    ok = fclose(f) == 0 && ok;
    return ok && rename(tmp, path) == 0;
}

/* The epochs done (0: no state there), -1 when the state is of another net. */
static int load_state(Model *m, const char *path, double *best) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    char magic[8];
    int head[3];
    size_t n[3];
    counts(m, n);
    float *w[3] = {m->w1, m->b1, m->w2};
    bool ok = fread(magic, 1, 8, f) == 8 && !memcmp(magic, "MNGTRAIN", 8) &&
              fread(head, sizeof head, 1, f) == 1 && head[0] == m->inputs && head[1] == m->hidden &&
              fread(best, sizeof *best, 1, f) == 1;
    for (int i = 0; i < 3 && ok; i++)
        ok = fread(w[i], sizeof(float), n[i], f) == n[i] &&
             fread(m->m[i], sizeof(float), n[i], f) == n[i] &&
             fread(m->s[i], sizeof(float), n[i], f) == n[i];
    float tail[3];
    ok = ok && fread(tail, sizeof tail, 1, f) == 1;
    fclose(f);
    if (!ok)
        return -1;
    m->b2 = tail[0], m->mb2 = tail[1], m->sb2 = tail[2];
    return head[2];
}

static int16_t q16(float x, float scale) {
    float v = roundf(x * scale);
    return (int16_t)(v < -32767 ? -32767 : v > 32767 ? 32767 : v);
}

/* The network as exported: every weight rounded to its integer grid (the
 * feature transformer at QA, the output layer at the net's qb). The export
 * and the quantized loss both read it, so they cannot round differently. */
static NnueNet *quantize(const Model *m, const char *features) {
    NnueNet *n = nnue_new(m->v->name, features, m->inputs, m->hidden);
    for (size_t i = 0; i < (size_t)m->inputs * m->hidden; i++)
        n->ft_w[i] = q16(m->w1[i], NNUE_QA);
    for (int i = 0; i < m->hidden; i++)
        n->ft_b[i] = q16(m->b1[i], NNUE_QA);
    for (int i = 0; i < 2 * m->hidden; i++)
        n->out_w[i] = q16(m->w2[i], (float)n->qb);
    n->out_b = (int32_t)lroundf(m->b2 * NNUE_QA * n->qb);
    return n;
}

static bool export_net(const Model *m, const char *features, const char *path) {
    NnueNet *n = quantize(m, features);
    char tmp[1100];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "wb");
    bool ok = f && nnue_write(n, f);
    ok = f && fclose(f) == 0 && ok && rename(tmp, path) == 0;
    nnue_free(n);
    return ok;
}

/* The validation loss of the network as exported (its gap to the float loss
 * is what quantization costs). */
static double quantized_loss(Model *m, const char *features, Job *jobs, int threads,
                             const size_t *n) {
    NnueNet *net = quantize(m, features);
    float *kept[3] = {m->w1, m->b1, m->w2}, *q[3], kept_b2 = m->b2;
    const int16_t *grid[3] = {net->ft_w, net->ft_b, net->out_w};
    const float scale[3] = {NNUE_QA, NNUE_QA, (float)net->qb};
    for (int i = 0; i < 3; i++) {
        q[i] = malloc(n[i] * sizeof *q[i]);
        if (!q[i])
            abort();
        for (size_t j = 0; j < n[i]; j++)
            q[i][j] = grid[i][j] / scale[i];
    }
    m->w1 = q[0], m->b1 = q[1], m->w2 = q[2];
    m->b2 = (float)net->out_b / (NNUE_QA * (float)net->qb);
    nnue_free(net);
    double loss = run(m, m->val, m->nval, jobs, threads, false);
    m->w1 = kept[0], m->b1 = kept[1], m->w2 = kept[2], m->b2 = kept_b2;
    for (int i = 0; i < 3; i++)
        free(q[i]);
    return loss;
}

/* ---- main ---------------------------------------------------------------- */

static void model_free(Model *m, Job *jobs, int njobs) {
    free(m->w1);
    free(m->b1);
    free(m->w2);
    for (int i = 0; i < 3; i++) {
        free(m->m[i]);
        free(m->s[i]);
    }
    free(m->pos);
    free(m->items);
    free(m->train);
    free(m->val);
    for (int t = 0; t < njobs; t++) {
        free(jobs[t].g1);
        free(jobs[t].gb1);
        free(jobs[t].g2);
    }
    variant_free((Variant *)m->v);
}

static bool arg_num(const char *s, double lo, double hi, double *out) {
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end || !(v >= lo && v <= hi))
        return false;
    *out = v;
    return true;
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void usage(FILE *f) {
    fprintf(f, "usage: train VARIANT DATA... --out NET [--hidden N] [--epochs N] [--lr X] "
               "[--batch N] [--lambda L] [--val PCT] [--threads N] [--state FILE] "
               "[--seed N] [--variant-file FILE] [--mirror] [--export]\n"
               "(docs/nnue.md)\n");
}

int main(int argc, char **argv) {
    const char *variant = NULL, *out = NULL, *state = NULL, *vfile = NULL, *data[64];
    int ndata = 0;
    bool mirror = false, export_only = false;
    double hidden = 128, epochs = 16, lr = 0.001, batch = 16384, lambda = 1, val = 5, threads = 1,
           seed = 1;
    // Step 1. The arguments.
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : "";
        bool ok = true;
        if (a[0] != '-') {
            if (!variant)
                variant = a;
            else if (ndata < 64)
                data[ndata++] = a;
            continue;
        }
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        }
        if (!strcmp(a, "--mirror")) {
            mirror = true;
            continue;
        }
        if (!strcmp(a, "--export")) {
            export_only = true;
            continue;
        }
        if (!strcmp(a, "--out"))
            out = v;
        else if (!strcmp(a, "--state"))
            state = v;
        else if (!strcmp(a, "--variant-file"))
            vfile = v;
        else if (!strcmp(a, "--hidden"))
            ok = arg_num(v, 16, NNUE_MAX_HIDDEN, &hidden) && (int)hidden % 16 == 0;
        else if (!strcmp(a, "--epochs"))
            ok = arg_num(v, 1, 10000, &epochs);
        else if (!strcmp(a, "--lr"))
            ok = arg_num(v, 1e-6, 1, &lr);
        else if (!strcmp(a, "--batch"))
            ok = arg_num(v, 1, 1 << 24, &batch);
        else if (!strcmp(a, "--lambda"))
            ok = arg_num(v, 0, 1, &lambda);
        else if (!strcmp(a, "--val"))
            ok = arg_num(v, 0, 50, &val);
        else if (!strcmp(a, "--threads"))
            ok = arg_num(v, 1, 64, &threads);
        else if (!strcmp(a, "--seed"))
            ok = arg_num(v, 0, 1e15, &seed);
        else
            ok = false;
        if (!ok) {
            fprintf(stderr, "train: bad option %s %s\n", a, v);
            return 2;
        }
        i++;
    }
    if (!variant || !ndata || !out || (export_only && !state)) {
        usage(stderr);
        return 2;
    }
    char err[300];
    Variant *v = vfile ? variant_load_file(vfile, err, sizeof err)
                       : variant_load_builtin(variant, err, sizeof err);
    if (!v) {
        fprintf(stderr, "train: %s\n", err);
        return 2;
    }
    Model m;
    memset(&m, 0, sizeof m);
    m.v = v;
    m.hidden = (int)hidden;
    m.lambda = lambda;
    char features[64];
    m.inputs = nnue_feature_set(v, features, sizeof features);
    // Step 2. The data, with the validation games put aside.
    for (int i = 0; i < ndata; i++)
        if (!read_data(&m, data[i], v->name, features, val, mirror)) {
            model_free(&m, NULL, 0);
            return 1;
        }
    if (m.ntrain == 0) {
        fprintf(stderr, "train: no training positions\n");
        model_free(&m, NULL, 0);
        return 1;
    }
    static const char *const reflected[] = {"none (the variant has reflect=none)", "left to right",
                                            "across the diagonal"};
    fprintf(stderr,
            "train %s: %zu positions for training, %zu for validation; %d x %d, %d threads; "
            "reflected: %s\n",
            v->name, m.ntrain, m.nval, m.inputs, m.hidden, (int)threads,
            mirror ? reflected[v->reflect] : "not asked (no --mirror)");
    // Step 3. The weights: random, or the state of a run that stopped.
    size_t n[3];
    counts(&m, n);
    m.w1 = malloc(n[0] * sizeof(float));
    m.b1 = calloc(n[1], sizeof(float));
    m.w2 = malloc(n[2] * sizeof(float));
    for (int i = 0; i < 3; i++) {
        m.m[i] = calloc(n[i], sizeof(float));
        m.s[i] = calloc(n[i], sizeof(float));
    }
    uint64_t rng = (uint64_t)seed * 7919 + 1;
    for (size_t i = 0; i < n[0]; i++)
        m.w1[i] = ((float)(mix(&rng) % 20001) / 10000.0f - 1.0f) * 0.1f;
    for (size_t i = 0; i < n[2]; i++)
        m.w2[i] = ((float)(mix(&rng) % 20001) / 10000.0f - 1.0f) / sqrtf((float)m.hidden);
    double best = INFINITY;
    int first = 0;
    if (state) {
        first = load_state(&m, state, &best);
        if (first < 0) {
            fprintf(stderr, "train: %s is the state of another network (or damaged)\n", state);
            model_free(&m, NULL, 0);
            return 1;
        }
        if (first && !export_only)
            fprintf(stderr, "train: going on after epoch %d (best validation loss %.6f)\n", first,
                    best);
    }
    Job jobs[64];
    memset(jobs, 0, sizeof jobs);
    for (int t = 0; t < (int)threads; t++) {
        jobs[t].g1 = malloc(n[0] * sizeof(float));
        jobs[t].gb1 = malloc(n[1] * sizeof(float));
        jobs[t].g2 = malloc(n[2] * sizeof(float));
        if (!jobs[t].g1 || !jobs[t].gb1 || !jobs[t].g2)
            abort();
    }
    // Step 4. --export: the state's network as it is, quantized as new nets are.
    if (export_only) {
        bool ok = first > 0 && export_net(&m, features, out);
        if (!ok)
            fprintf(stderr, "train: %s\n",
                    first > 0 ? "cannot write the network" : "--export: the state has no epoch");
        else if (m.nval)
            fprintf(stderr,
                    "train: %s after epoch %d in %s: validation loss %.6f, quantized %.6f\n", state,
                    first, out, run(&m, m.val, m.nval, jobs, (int)threads, false),
                    quantized_loss(&m, features, jobs, (int)threads, n));
        model_free(&m, jobs, (int)threads);
        return ok ? 0 : 1;
    }
    // Step 5. The epochs: shuffled batches, then both losses and the state.
    size_t bsize = (size_t)batch;
    float step = 0;
    for (int e = 0; e < first; e++)
        step += (float)((m.ntrain + bsize - 1) / bsize);
    fprintf(stderr, "epoch  train-loss  val-loss    quantized   seconds\n");
    for (int e = first; e < (int)epochs; e++) {
        double t0 = now_s();
        float rate = (float)lr * (e >= 0.85 * epochs ? 0.09f : e >= 0.6 * epochs ? 0.3f : 1.0f);
        uint64_t sh = (uint64_t)seed * 31 + (uint64_t)e;
        for (size_t i = m.ntrain - 1; i > 0; i--) {
            size_t j = (size_t)(mix(&sh) % (i + 1));
            uint32_t t = m.train[i];
            m.train[i] = m.train[j];
            m.train[j] = t;
        }
        double train_loss = 0;
        for (size_t b = 0; b < m.ntrain; b += bsize) {
            size_t len = m.ntrain - b < bsize ? m.ntrain - b : bsize;
            train_loss += run(&m, m.train + b, len, jobs, (int)threads, true) * (double)len;
            step += 1;
            float scale = 1.0f / (float)len;
            adam(m.w1, m.m[0], m.s[0], jobs[0].g1, n[0], scale, rate, step, 1.98f);
            adam(m.b1, m.m[1], m.s[1], jobs[0].gb1, n[1], scale, rate, step, 1.98f);
            adam(m.w2, m.m[2], m.s[2], jobs[0].g2, n[2], scale, rate, step, 3.9f);
            float g = jobs[0].gb2;
            adam(&m.b2, &m.mb2, &m.sb2, &g, 1, scale, rate, step, 100);
        }
        train_loss /= (double)m.ntrain;
        double val_loss = m.nval ? run(&m, m.val, m.nval, jobs, (int)threads, false) : train_loss;
        double q_loss = m.nval ? quantized_loss(&m, features, jobs, (int)threads, n) : val_loss;
        bool better = val_loss < best;
        if (better) {
            best = val_loss;
            if (!export_net(&m, features, out)) {
                fprintf(stderr, "train: cannot write %s\n", out);
                model_free(&m, jobs, (int)threads);
                return 1;
            }
        }
        if (state && !save_state(&m, state, e + 1, best)) {
            fprintf(stderr, "train: cannot write %s\n", state);
            model_free(&m, jobs, (int)threads);
            return 1;
        }
        printf("%5d  %.6f    %.6f    %.6f    %.1f%s\n", e + 1, train_loss, val_loss, q_loss,
               now_s() - t0, better ? "  (written)" : "");
        fflush(stdout);
    }
    fprintf(stderr, "train: best validation loss %.6f, network in %s\n", best, out);
    model_free(&m, jobs, (int)threads);
    return 0;
}
