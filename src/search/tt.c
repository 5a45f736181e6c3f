/* tt.c - the shared transposition table (see tt.h). */
#define _DEFAULT_SOURCE /* madvise */
#include "search/tt.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* The key word keeps the full key's upper 40 bits beside depth, bound and
 * generation; the data word holds move, score and static eval. */
static inline uint64_t pack_meta(uint64_t key, int depth, int bound, uint8_t gen) {
    return (key & ~0xFFFFFFull) | (uint64_t)(uint8_t)(depth + 2) << 16 | (uint64_t)bound << 8 | gen;
}

/* The table is an anonymous mapping of its own: the system hands it out
 * zeroed and lazily, so that making or clearing even a table of many
 * gigabytes takes no time before a search starts (a memset of 8 GB kept
 * an XBoard session busy for tens of seconds, past its "quit"); a page
 * costs only when a search first touches it. On 2 MiB pages where the
 * system has them, so that a probe's address translation rarely misses
 * (7.6% of a profile went to the prefetch). */
enum { TT_ALIGN = 2u << 20, TT_DROP_BYTES = 64u << 20 };

int tt_init(TT *tt, size_t mb) {
    if (mb < 1)
        mb = 1;
    size_t bytes = 1;
    while (bytes * 2 <= mb * 1024 * 1024)
        bytes *= 2;
    size_t align = bytes >= TT_ALIGN ? TT_ALIGN : 1, span = bytes + align - 1;
    char *base = mmap(NULL, span, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (base == MAP_FAILED)
        return -1;
    /* keep the aligned part only (bytes is a multiple of the page size) */
    char *b = (char *)(((uintptr_t)base + align - 1) & ~(uintptr_t)(align - 1));
    if (b > base)
        munmap(base, (size_t)(b - base));
    if (b + bytes < base + span)
        munmap(b + bytes, (size_t)(base + span - (b + bytes)));
#ifdef MADV_HUGEPAGE
    if (align > 1)
        madvise(b, bytes, MADV_HUGEPAGE); /* a hint: failure is harmless */
#endif
    tt->b = (TTBucket *)b;
    tt->bytes = bytes;
    tt->mask = bytes / sizeof(TTBucket) - 1;
    tt->mb = mb;
    tt->gen = 0;
    return 0;
}

void tt_free(TT *tt) {
    if (tt->b)
        munmap(tt->b, tt->bytes);
    tt->b = NULL;
}

void tt_clear(TT *tt) {
    /* a large table drops its pages, which come back zeroed (a private
     * anonymous mapping); a small one keeps them, as bench clears its
     * table for each position */
#ifdef __linux__
    if (tt->bytes < TT_DROP_BYTES || madvise(tt->b, tt->bytes, MADV_DONTNEED))
#endif
        memset(tt->b, 0, tt->bytes);
    tt->gen = 0;
}

void tt_new_search(TT *tt) {
    tt->gen = (uint8_t)(tt->gen + 1);
}

static inline TTBucket *bucket(const TT *tt, uint64_t key) {
    return &tt->b[key & tt->mask];
}

void tt_prefetch(const TT *tt, uint64_t key) {
    __builtin_prefetch(bucket(tt, key));
}

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
