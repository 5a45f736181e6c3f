/* tt.c - the shared transposition table (see tt.h). */
#define _DEFAULT_SOURCE /* madvise */
#include "search/tt.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* The key word keeps the full key's upper 40 bits beside depth, bound and
 * generation; the data word holds move, score and static eval. */
static inline uint64_t pack_meta(uint64_t key, int depth, int bound, uint8_t gen) {
    return (key & ~0xFFFFFFull) | (uint64_t)(uint8_t)(depth + 2) << 16 | (uint64_t)bound << 8 |
           gen;
}

int tt_init(TT *tt, size_t mb) {
    if (mb < 1)
        mb = 1;
    size_t bytes = 1;
    while (bytes * 2 <= mb * 1024 * 1024)
        bytes *= 2;
    size_t n = bytes / sizeof(TTBucket);
    /* on 2 MiB pages where the system has them, so that a probe's address
     * translation rarely misses (7.6% of a profile went to the prefetch) */
    size_t align = bytes >= (2u << 20) ? (2u << 20) : 64;
    TTBucket *b = NULL;
    if (posix_memalign((void **)&b, align, n * sizeof *b))
        return -1;
#ifdef MADV_HUGEPAGE
    if (align > 64)
        madvise(b, n * sizeof *b, MADV_HUGEPAGE); /* a hint: failure is harmless */
#endif
    tt->b = b;
    tt->mask = n - 1;
    tt->mb = mb;
    tt->gen = 0;
    tt_clear(tt);
    return 0;
}

void tt_free(TT *tt) {
    free(tt->b);
    tt->b = NULL;
}

void tt_clear(TT *tt) {
    memset(tt->b, 0, (tt->mask + 1) * sizeof *tt->b);
    tt->gen = 0;
}

void tt_new_search(TT *tt) { tt->gen = (uint8_t)(tt->gen + 1); }

static inline TTBucket *bucket(const TT *tt, uint64_t key) { return &tt->b[key & tt->mask]; }

void tt_prefetch(const TT *tt, uint64_t key) { __builtin_prefetch(bucket(tt, key)); }

int tt_hashfull(const TT *tt) {
    if (!tt->b)
        return 0;
    uint64_t n = tt->mask + 1 < 250 ? tt->mask + 1 : 250; /* 4 entries a bucket */
    int used = 0;
    for (uint64_t i = 0; i < n; i++)
        for (int j = 0; j < 4; j++) {
            const TTEntry *e = &tt->b[i].e[j];
            uint64_t data = atomic_load_explicit(&e->data, memory_order_relaxed);
            uint64_t meta = atomic_load_explicit(&e->check, memory_order_relaxed) ^ data;
            used += (meta >> 16 & 0xFF) && (uint8_t)meta == tt->gen;
        }
    return (int)(used * 1000 / (4 * n));
}

bool tt_probe(const TT *tt, uint64_t key, TTHit *hit) {
    TTBucket *b = bucket(tt, key);
    for (int i = 0; i < 4; i++) {
        uint64_t data = atomic_load_explicit(&b->e[i].data, memory_order_relaxed);
        uint64_t meta = atomic_load_explicit(&b->e[i].check, memory_order_relaxed) ^ data;
        if ((meta ^ key) & ~0xFFFFFFull || !(meta >> 16 & 0xFF))
            continue;
        hit->move = (Move)(data & 0xFFFFFFFF);
        hit->score = (int16_t)(data >> 32);
        hit->eval = (int16_t)(data >> 48);
        hit->depth = (int)(meta >> 16 & 0xFF) - 2;
        hit->bound = (int)(meta >> 8 & 3);
        return true;
    }
    return false;
}

void tt_store(TT *tt, uint64_t key, Move m, int score, int eval, int depth, int bound) {
    TTBucket *b = bucket(tt, key);
    TTEntry *slot = NULL;
    int worst = 1 << 30;
    uint64_t old_data = 0;
    for (int i = 0; i < 4; i++) {
        uint64_t data = atomic_load_explicit(&b->e[i].data, memory_order_relaxed);
        uint64_t meta = atomic_load_explicit(&b->e[i].check, memory_order_relaxed) ^ data;
        int d = (int)(meta >> 16 & 0xFF) - 2;
        if (!((meta ^ key) & ~0xFFFFFFull) && d >= -1 && (meta >> 16 & 0xFF)) {
            slot = &b->e[i];
            old_data = data;
            /* keep a deeper exact-ish entry of the same position */
            if (bound != BOUND_EXACT && depth < d - 3 && (uint8_t)meta == tt->gen)
                return;
            break;
        }
        int age = (uint8_t)(tt->gen - (uint8_t)meta);
        int v = (meta >> 16 & 0xFF) ? d - 8 * age : -1000;
        if (v < worst) {
            worst = v;
            slot = &b->e[i];
        }
    }
    if (!m && old_data)
        m = (Move)(old_data & 0xFFFFFFFF);
    if (depth < -1)
        depth = -1;
    if (depth > 250)
        depth = 250;
    uint64_t data = (uint64_t)m | (uint64_t)(uint16_t)(int16_t)score << 32 |
                    (uint64_t)(uint16_t)(int16_t)eval << 48;
    uint64_t meta = pack_meta(key, depth, bound, tt->gen);
    atomic_store_explicit(&slot->check, meta ^ data, memory_order_relaxed);
    atomic_store_explicit(&slot->data, data, memory_order_relaxed);
}
