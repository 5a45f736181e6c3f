/* nnue.c - the learned evaluation (see nnue.h). */
#include "search/nnue.h"

#include <pthread.h>
#include <sodium.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/embedded.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define NNUE_X86 1
#endif

static const char MAGIC[8] = {'M', 'N', 'G', 'N', 'N', 'U', 'E', '1'};

/* ---- features ---------------------------------------------------------- */

int nnue_slots(const Variant *v) {
    return v->files * v->ranks + v->files + MAX_HAND;
}

int nnue_feature_set(const Variant *v, char *buf, size_t len) {
    char letters[MAX_TYPES + 1];
    for (int t = 1; t <= v->ntypes; t++)
        letters[t - 1] = v->type[t].letter;
    letters[v->ntypes] = '\0';
    snprintf(buf, len, "%s %dx%d %s", NNUE_FEATURES, v->files, v->ranks, letters);
    return 2 * v->ntypes * nnue_slots(v);
}

int nnue_items(const Position *pos, uint16_t *items) {
    const Variant *v = pos->v;
    int nsq = v->files * v->ranks, n = 0;
    for (int s = 0; s < nsq; s++)
        if (pos->board[s] != EMPTY && pos->board[s] != HOLE)
            items[n++] = (uint16_t)(s << 6 | pos->board[s]);
    /* a gate slot holds one piece, either side's (a file's gates are its two ends) */
    for (int f = 0; f < v->files; f++)
        for (int c = 0; c < 2; c++)
            if (pos->gate[c][f])
                items[n++] = (uint16_t)((nsq + f) << 6 | pos->gate[c][f]);
    for (int k = 0; k < MAX_HAND; k++)
        for (int c = 0; c < 2; c++)
            for (int t = 1; t <= v->ntypes; t++)
                if (pos->hand[c][t] > k)
                    items[n++] = (uint16_t)((nsq + v->files + k) << 6 | make_piece(c, t));
    return n;
}

/* The slot as colour view sees it: Black's board turned as the variant turns
 * it (mirrored, or rotated), gates by file likewise, hand places as they are. */
static int view_slot(const Variant *v, int view, int slot) {
    int nsq = v->nsq;
    if (view == WHITE || slot >= nsq + v->files)
        return slot;
    if (slot >= nsq)
        return v->rotate_black ? nsq + v->files - 1 - (slot - nsq) : slot;
    return variant_view_square(v, view, slot);
}

int nnue_feature(const Variant *v, int view, uint16_t item) {
    Piece p = (Piece)(item & 63);
    int own = piece_color(p) == view ? 0 : 1;
    return ((own * v->ntypes + piece_type(p) - 1) * nnue_slots(v)) + view_slot(v, view, item >> 6);
}

/* ---- vector code ----------------------------------------------------------
 * Three versions of the two loops, the same integers out of each. */

typedef struct {
    void (*add)(int16_t *acc, const int16_t *row, int n);
    void (*sub)(int16_t *acc, const int16_t *row, int n);
    int32_t (*dot)(const int16_t *acc, const int16_t *w, int n); /* sum clamp(acc, 0, QA) * w */
    const char *name;
} Kernels;

static void add_portable(int16_t *acc, const int16_t *row, int n) {
    for (int i = 0; i < n; i++)
        acc[i] = (int16_t)(acc[i] + row[i]);
}

static void sub_portable(int16_t *acc, const int16_t *row, int n) {
    for (int i = 0; i < n; i++)
        acc[i] = (int16_t)(acc[i] - row[i]);
}

static int32_t dot_portable(const int16_t *acc, const int16_t *w, int n) {
    int32_t s = 0;
    for (int i = 0; i < n; i++) {
        int x = acc[i] < 0 ? 0 : acc[i] > NNUE_QA ? NNUE_QA : acc[i];
        s += x * w[i];
    }
    return s;
}

#ifdef NNUE_X86
__attribute__((target("sse2"))) static void add_sse2(int16_t *acc, const int16_t *row, int n) {
    for (int i = 0; i < n; i += 8) {
        __m128i a = _mm_loadu_si128((const __m128i *)(acc + i));
        _mm_storeu_si128((__m128i *)(acc + i),
                         _mm_add_epi16(a, _mm_loadu_si128((const __m128i *)(row + i))));
    }
}

__attribute__((target("sse2"))) static void sub_sse2(int16_t *acc, const int16_t *row, int n) {
    for (int i = 0; i < n; i += 8) {
        __m128i a = _mm_loadu_si128((const __m128i *)(acc + i));
        _mm_storeu_si128((__m128i *)(acc + i),
                         _mm_sub_epi16(a, _mm_loadu_si128((const __m128i *)(row + i))));
    }
}

__attribute__((target("sse2"))) static int32_t dot_sse2(const int16_t *acc, const int16_t *w,
                                                        int n) {
    __m128i zero = _mm_setzero_si128(), qa = _mm_set1_epi16(NNUE_QA), s = _mm_setzero_si128();
    for (int i = 0; i < n; i += 8) {
        __m128i x = _mm_loadu_si128((const __m128i *)(acc + i));
        x = _mm_min_epi16(_mm_max_epi16(x, zero), qa);
        s = _mm_add_epi32(s, _mm_madd_epi16(x, _mm_loadu_si128((const __m128i *)(w + i))));
    }
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4E));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xB1));
    return _mm_cvtsi128_si32(s);
}

__attribute__((target("avx2"))) static void add_avx2(int16_t *acc, const int16_t *row, int n) {
    for (int i = 0; i < n; i += 16) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(acc + i));
        __m256i r = _mm256_loadu_si256((const __m256i *)(row + i));
        _mm256_storeu_si256((__m256i *)(acc + i), _mm256_add_epi16(a, r));
    }
}

__attribute__((target("avx2"))) static void sub_avx2(int16_t *acc, const int16_t *row, int n) {
    for (int i = 0; i < n; i += 16) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(acc + i));
        __m256i r = _mm256_loadu_si256((const __m256i *)(row + i));
        _mm256_storeu_si256((__m256i *)(acc + i), _mm256_sub_epi16(a, r));
    }
}

__attribute__((target("avx2"))) static int32_t dot_avx2(const int16_t *acc, const int16_t *w,
                                                        int n) {
    __m256i zero = _mm256_setzero_si256(), qa = _mm256_set1_epi16(NNUE_QA);
    __m256i s = _mm256_setzero_si256();
    for (int i = 0; i < n; i += 16) {
        __m256i x = _mm256_loadu_si256((const __m256i *)(acc + i));
        x = _mm256_min_epi16(_mm256_max_epi16(x, zero), qa);
        s = _mm256_add_epi32(s, _mm256_madd_epi16(x, _mm256_loadu_si256((const __m256i *)(w + i))));
    }
    __m128i h = _mm_add_epi32(_mm256_castsi256_si128(s), _mm256_extracti128_si256(s, 1));
    h = _mm_add_epi32(h, _mm_shuffle_epi32(h, 0x4E));
    h = _mm_add_epi32(h, _mm_shuffle_epi32(h, 0xB1));
    return _mm_cvtsi128_si32(h);
}
#endif

static const Kernels kernels[] = {
    {add_portable, sub_portable, dot_portable, "portable"},
#ifdef NNUE_X86
    {add_sse2, sub_sse2, dot_sse2, "sse2"},
    {add_avx2, sub_avx2, dot_avx2, "avx2"},
#endif
};

static atomic_int level = -1; /* the kernels in use, -1 until the first call */

static int best_level(void) {
#ifdef NNUE_X86
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2"))
        return NNUE_SIMD_AVX2;
    if (__builtin_cpu_supports("sse2"))
        return NNUE_SIMD_SSE2;
#endif
    return NNUE_SIMD_PORTABLE;
}

int nnue_simd(int want) {
    int best = best_level(), l = want < best ? want : best;
    atomic_store(&level, l);
    return l;
}

static const Kernels *kern(void) {
    int l = atomic_load_explicit(&level, memory_order_relaxed);
    if (l < 0) {
        l = best_level();
        atomic_store(&level, l);
    }
    return &kernels[l];
}

const char *nnue_simd_name(void) {
    return kern()->name;
}

/* ---- net files --------------------------------------------------------- */

static size_t payload_size(int inputs, int hidden) {
    return 2 * ((size_t)inputs * hidden + 3 * (size_t)hidden) + 4;
}

static uint32_t get32(const unsigned char *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put32(unsigned char *p, uint32_t x) {
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(x >> 8 * i);
}

NnueNet *nnue_new(const char *variant, const char *features, int inputs, int hidden) {
    if (inputs < 1 || inputs > 2 * MAX_TYPES * (MAX_SQ + MAX_FILES + MAX_HAND) || hidden < 16 ||
        hidden > NNUE_MAX_HIDDEN || hidden % 16)
        return NULL;
    NnueNet *n = calloc(1, sizeof *n);
    if (!n)
        abort();
    snprintf(n->variant, sizeof n->variant, "%s", variant);
    snprintf(n->features, sizeof n->features, "%s", features);
    n->inputs = inputs;
    n->hidden = hidden;
    n->qb = NNUE_QB;
    n->ft_w = calloc((size_t)inputs * hidden, sizeof *n->ft_w);
    n->ft_b = calloc((size_t)hidden, sizeof *n->ft_b);
    n->out_w = calloc(2 * (size_t)hidden, sizeof *n->out_w);
    if (!n->ft_w || !n->ft_b || !n->out_w)
        abort();
    return n;
}

void nnue_free(NnueNet *n) {
    if (!n)
        return;
    free(n->ft_w);
    free(n->ft_b);
    free(n->out_w);
    free(n);
}

static void get16s(int16_t *out, const unsigned char *p, size_t count) {
    for (size_t i = 0; i < count; i++)
        out[i] = (int16_t)(uint16_t)(p[2 * i] | p[2 * i + 1] << 8);
}

static bool text_field(char *out, size_t size, const unsigned char *p) {
    if (!memchr(p, '\0', size))
        return false;
    memcpy(out, p, size);
    return true;
}

NnueNet *nnue_load(const void *data, size_t len, char *err, size_t errlen) {
    const unsigned char *p = data;
    if (len < NNUE_HEADER || memcmp(p, MAGIC, sizeof MAGIC)) {
        snprintf(err, errlen, "not a Menagerie network file (no %.8s header)", MAGIC);
        return NULL;
    }
    char variant[32], features[64];
    if (!text_field(variant, sizeof variant, p + 8) ||
        !text_field(features, sizeof features, p + 40)) {
        snprintf(err, errlen, "damaged network file: its variant or feature set is no text");
        return NULL;
    }
    uint32_t inputs = get32(p + 104), hidden = get32(p + 108);
    uint32_t qb = get32(p + 116);
    if (get32(p + 112) != NNUE_QA || qb < 1 || qb > NNUE_QB_MAX || get32(p + 120) != NNUE_SCALE) {
        snprintf(err, errlen, "network file with other quantization (QA %u, QB %u, scale %u)",
                 get32(p + 112), get32(p + 116), get32(p + 120));
        return NULL;
    }
    NnueNet *n = inputs <= INT32_MAX && hidden <= NNUE_MAX_HIDDEN
                     ? nnue_new(variant, features, (int)inputs, (int)hidden)
                     : NULL;
    if (!n) {
        snprintf(err, errlen, "network file with sizes out of range (%u inputs, %u hidden)", inputs,
                 hidden);
        return NULL;
    }
    size_t size = payload_size(n->inputs, n->hidden);
    if (len - NNUE_HEADER != size) {
        snprintf(err, errlen, "network file of %zu bytes, %zu expected for %d x %d", len,
                 size + NNUE_HEADER, n->inputs, n->hidden);
        nnue_free(n);
        return NULL;
    }
    const unsigned char *q = p + NNUE_HEADER;
    unsigned char sum[16];
    crypto_generichash(sum, sizeof sum, q, size, NULL, 0);
    if (sodium_memcmp(sum, p + 124, sizeof sum)) {
        snprintf(err, errlen, "damaged network file (checksum does not match)");
        nnue_free(n);
        return NULL;
    }
    size_t w = (size_t)n->inputs * n->hidden, h = (size_t)n->hidden;
    n->qb = (int)qb;
    get16s(n->ft_w, q, w);
    get16s(n->ft_b, q + 2 * w, h);
    get16s(n->out_w, q + 2 * (w + h), 2 * h);
    n->out_b = (int32_t)get32(q + 2 * (w + 3 * h));
    /* the output's sum must fit 32 bits whatever the sums (no overflow) */
    int64_t most = n->out_b < 0 ? -(int64_t)n->out_b : n->out_b;
    for (size_t i = 0; i < 2 * h; i++)
        most += (int64_t)NNUE_QA * abs(n->out_w[i]);
    if (most > INT32_MAX) {
        snprintf(err, errlen, "network file with output weights out of range");
        nnue_free(n);
        return NULL;
    }
    return n;
}

NnueNet *nnue_load_file(const char *path, char *err, size_t errlen) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot open %s", path);
        return NULL;
    }
    size_t cap = 1 << 20, len = 0;
    unsigned char *buf = malloc(cap);
    size_t max = NNUE_HEADER + payload_size(2 * MAX_TYPES * 300, NNUE_MAX_HIDDEN);
    for (size_t got; buf && (got = fread(buf + len, 1, cap - len, f)) > 0;) {
        len += got;
        if (len == cap && cap < max) {
            cap *= 2;
            buf = realloc(buf, cap);
        } else if (len == cap) {
            break;
        }
    }
    if (!buf)
        abort();
    bool bad = ferror(f) || (len == cap && fgetc(f) != EOF);
    fclose(f);
    NnueNet *n = NULL;
    if (bad)
        snprintf(err, errlen, "cannot read %s (or it is far too large for a network)", path);
    else if (!(n = nnue_load(buf, len, err, errlen))) {
        char why[200];
        snprintf(why, sizeof why, "%s", err);
        snprintf(err, errlen, "%s: %s", path, why);
    }
    free(buf);
    return n;
}

static void put16s(unsigned char *out, const int16_t *v, size_t count) {
    for (size_t i = 0; i < count; i++) {
        out[2 * i] = (unsigned char)((uint16_t)v[i] & 0xFF);
        out[2 * i + 1] = (unsigned char)((uint16_t)v[i] >> 8);
    }
}

bool nnue_write(const NnueNet *n, FILE *f) {
    size_t size = payload_size(n->inputs, n->hidden);
    size_t w = (size_t)n->inputs * n->hidden, h = (size_t)n->hidden;
    unsigned char *buf = calloc(1, NNUE_HEADER + size);
    if (!buf)
        abort();
    memcpy(buf, MAGIC, sizeof MAGIC);
    memcpy(buf + 8, n->variant, strnlen(n->variant, 31));
    memcpy(buf + 40, n->features, strnlen(n->features, 63));
    put32(buf + 104, (uint32_t)n->inputs);
    put32(buf + 108, (uint32_t)n->hidden);
    put32(buf + 112, NNUE_QA);
    put32(buf + 116, (uint32_t)n->qb);
    put32(buf + 120, NNUE_SCALE);
    unsigned char *q = buf + NNUE_HEADER;
    put16s(q, n->ft_w, w);
    put16s(q + 2 * w, n->ft_b, h);
    put16s(q + 2 * (w + h), n->out_w, 2 * h);
    put32(q + 2 * (w + 3 * h), (uint32_t)n->out_b);
    crypto_generichash(buf + 124, 16, q, size, NULL, 0);
    bool ok = fwrite(buf, 1, NNUE_HEADER + size, f) == NNUE_HEADER + size;
    free(buf);
    return ok;
}

bool nnue_fits(const NnueNet *n, const Variant *v, char *err, size_t errlen) {
    char fs[64];
    int inputs = nnue_feature_set(v, fs, sizeof fs);
    if (strcmp(n->variant, v->name)) {
        snprintf(err, errlen, "the network is for %s, not %s", n->variant, v->name);
        return false;
    }
    if (strcmp(n->features, fs) || n->inputs != inputs) {
        snprintf(err, errlen, "the network's features (%s, %d inputs) are not %s's (%s, %d)",
                 n->features, n->inputs, v->name, fs, inputs);
        return false;
    }
    return true;
}

/* The built-in nets loaded so far, kept for the process. */
static pthread_mutex_t builtin_lock = PTHREAD_MUTEX_INITIALIZER;
static struct Builtin {
    struct Builtin *next;
    char name[32];
    NnueNet *net; /* NULL: none, or it does not fit */
} * builtins;

const NnueNet *nnue_builtin(const Variant *v) {
    pthread_mutex_lock(&builtin_lock);
    struct Builtin *b = builtins;
    while (b && strcmp(b->name, v->name))
        b = b->next;
    if (!b) {
        b = calloc(1, sizeof *b);
        if (!b)
            abort();
        snprintf(b->name, sizeof b->name, "%s", v->name);
        char file[64], err[200];
        snprintf(file, sizeof file, "nets/%s.nnue", v->name);
        for (const EmbeddedFile *f = builtin_variants; f->name; f++)
            if (!strcmp(f->name, file))
                b->net = nnue_load(f->data, f->len, err, sizeof err);
        if (b->net && !nnue_fits(b->net, v, err, sizeof err)) {
            nnue_free(b->net);
            b->net = NULL;
        }
        b->next = builtins;
        builtins = b;
    }
    pthread_mutex_unlock(&builtin_lock);
    return b->net;
}

/* ---- evaluation -------------------------------------------------------- */

void nnue_reset(NnueAccumulator *a) {
    a->net = NULL;
    a->nitems = 0;
}

static void refresh(const NnueNet *n, NnueAccumulator *a, const Variant *v, const uint16_t *items,
                    int count) {
    const Kernels *k = kern();
    for (int view = 0; view < 2; view++) {
        memcpy(a->sum[view], n->ft_b, (size_t)n->hidden * sizeof *n->ft_b);
        for (int i = 0; i < count; i++)
            k->add(a->sum[view], n->ft_w + (size_t)nnue_feature(v, view, items[i]) * n->hidden,
                   n->hidden);
    }
}

int nnue_evaluate(const NnueNet *n, NnueAccumulator *a, const Position *pos) {
    const Variant *v = pos->v;
    const Kernels *k = kern();
    uint16_t items[NNUE_MAX_ITEMS];
    int count = nnue_items(pos, items);
    // Step 1. What changed since the last position scored: the two sorted
    // lists merged; from the biases again when that is more than the position.
    uint16_t gone[NNUE_MAX_ITEMS], came[NNUE_MAX_ITEMS];
    int ngone = 0, ncame = 0;
    if (a->net == n) {
        int i = 0, j = 0;
        while ((i < a->nitems || j < count) && ngone + ncame <= count) {
            if (j == count || (i < a->nitems && a->items[i] < items[j]))
                gone[ngone++] = a->items[i++];
            else if (i == a->nitems || items[j] < a->items[i])
                came[ncame++] = items[j++];
            else
                i++, j++;
        }
    }
    // Step 2. The sums brought up to date.
    if (a->net != n || ngone + ncame > count) {
        refresh(n, a, v, items, count);
    } else {
        for (int view = 0; view < 2; view++) {
            for (int i = 0; i < ngone; i++)
                k->sub(a->sum[view], n->ft_w + (size_t)nnue_feature(v, view, gone[i]) * n->hidden,
                       n->hidden);
            for (int i = 0; i < ncame; i++)
                k->add(a->sum[view], n->ft_w + (size_t)nnue_feature(v, view, came[i]) * n->hidden,
                       n->hidden);
        }
    }
    a->net = n;
    a->nitems = count;
    memcpy(a->items, items, (size_t)count * sizeof *items);
    // Step 3. The output from the side to move's view.
    int us = pos->stm;
    int64_t out = (int64_t)k->dot(a->sum[us], n->out_w, n->hidden) +
                  k->dot(a->sum[!us], n->out_w + n->hidden, n->hidden) + n->out_b;
    int64_t cp = out * NNUE_SCALE / (NNUE_QA * n->qb);
    return (int)(cp < -NNUE_MAX_SCORE  ? -NNUE_MAX_SCORE
                 : cp > NNUE_MAX_SCORE ? NNUE_MAX_SCORE
                                       : cp);
}
