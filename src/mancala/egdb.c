/* egdb.c - the endgame database.
 *
 * Layer n holds, for every A-to-move state with n eggs on the board, the exact store
 * gain A can still make against best play. A capture leaves the layer (its value comes
 * from a smaller, finished layer); other moves stay inside it and may cycle. Play that
 * never captures again ends (by repetition or the 100-ply rule) with no further gain,
 * so the value is the only fixpoint reached from the bounds [-n, n]:
 *   lo(p) = max over moves of (exit value, -hi(child))
 *   hi(p) = max over moves of (exit value, -lo(child))
 * iterated until nothing changes. For t >= 1, lo(p) >= t is then exactly "A can force a
 * gain of t or more" (an attractor, so cycles never count as a gain), hi(p) <= -t the
 * same for the opponent, and any other position is worth 0. The iteration is monotone,
 * so its limit does not depend on the order of the updates: threads may share a pass
 * and the file is the same every time.
 * A board with B to move is mirrored (hole i <-> hole 17-i swaps rings, head and tail).
 *
 * States are ranked in lexicographic order of their holes, each hole a symbol: its egg
 * count, and in the variant B table for a single egg also its origin class (0 = neither
 * neighbour, 1 = the hole before it, 2 = the hole after it). */
#define _DEFAULT_SOURCE /* madvise(MADV_HUGEPAGE) */
#include "mancala/egdb.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define DB_MAGIC "MNGREGDB"
#define DB_VERSION 1u
#define DB_HEADER 48
#define DB_MAX_THREADS 16

struct MancalaDb {
    int var_b;                              /* 1: the variant B table */
    int built;                              /* largest complete layer, -1 none */
    double last_ms;                         /* time the last layer took to build */
    int8_t *layer[MANCALA_DB_MAX_EGGS + 1]; /* values with A to move, by rank */
    void *map;                              /* the mapped file, or NULL: layers malloc'd */
    size_t map_len;
    /* ways[i][k]: states with k eggs in holes i..15; below[i][k][h]: states with k eggs
     * in holes i..15 that rank before the first with h eggs in hole i */
    uint64_t ways[MANCALA_HOLES + 1][MANCALA_DB_MAX_EGGS + 1];
    uint64_t below[MANCALA_HOLES][MANCALA_DB_MAX_EGGS + 1][MANCALA_DB_MAX_EGGS + 2];
};

double mancala_clock_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

/* Symbols of a hole holding c eggs. */
static inline int mult(int var_b, int c) {
    return var_b && c == 1 ? 3 : 1;
}

static void init_tables(MancalaDb *db) {
    memset(db->ways, 0, sizeof db->ways);
    db->ways[MANCALA_HOLES][0] = 1;
    for (int i = MANCALA_HOLES - 1; i >= 0; i--)
        for (int k = 0; k <= MANCALA_DB_MAX_EGGS; k++) {
            uint64_t s = 0;
            for (int c = 0; c <= k; c++) {
                db->below[i][k][c] = s;
                s += (uint64_t)mult(db->var_b, c) * db->ways[i + 1][k - c];
            }
            db->below[i][k][k + 1] = s;
            db->ways[i][k] = s;
        }
}

MancalaDb *mancala_db_new(int rules) {
    MancalaDb *db = calloc(1, sizeof *db);
    if (!db)
        return NULL;
    db->var_b = (rules & MANCALA_VAR_B) != 0;
    db->built = -1;
    init_tables(db);
    return db;
}

void mancala_db_free(MancalaDb *db) {
    if (!db)
        return;
    if (db->map)
        munmap(db->map, db->map_len);
    else
        for (int n = 0; n <= MANCALA_DB_MAX_EGGS; n++)
            free(db->layer[n]);
    free(db);
}

int mancala_db_eggs(const MancalaDb *db) {
    return db ? db->built : -1;
}

uint64_t mancala_db_positions(int rules, int eggs) {
    MancalaDb *db = mancala_db_new(rules);
    uint64_t total = 0;
    if (db)
        for (int n = 0; n <= eggs && n <= MANCALA_DB_MAX_EGGS; n++)
            total += db->ways[0][n];
    free(db);
    return total;
}

/* ---- ranking ---- */

/* Origin class of the single egg in hole I (see the top of the file). */
static inline uint8_t origin_class(const MancalaPos *p, int i) {
    if (p->hole[i] != 1 || !p->origin[i])
        return 0;
    int o = p->origin[i] - 1;
    return o == ((i + 15) & 15) ? 1 : o == ((i + 1) & 15) ? 2 : 0;
}

/* Rank of a state (holes B, classes CL, may be NULL for none) of n eggs. MIRROR reads
 * it as the other player sees it: hole i as hole 15 - i, classes 1 and 2 swapped. */
static inline uint64_t rank_state(const MancalaDb *db, const uint8_t *b, const uint8_t *cl, int n,
                                  bool mirror) {
    uint64_t r = 0;
    int k = n;
    for (int i = 0; k > 0 && i < MANCALA_HOLES; i++) {
        int j = mirror ? MANCALA_HOLES - 1 - i : i;
        int h = b[j];
        r += db->below[i][k][h];
        if (h == 1 && cl && cl[j]) {
            int c = mirror ? 3 - cl[j] : cl[j];
            r += (uint64_t)c * db->ways[i + 1][k - 1];
        }
        k -= h;
    }
    return r;
}

/* The state of rank R among those of n eggs. */
static void unrank_state(const MancalaDb *db, uint64_t r, int n, uint8_t *b, uint8_t *cl) {
    int k = n;
    for (int i = 0; i < MANCALA_HOLES; i++) {
        int h = 0;
        while (h < k && db->below[i][k][h + 1] <= r)
            h++;
        r -= db->below[i][k][h];
        b[i] = (uint8_t)h;
        cl[i] = 0;
        if (h == 1 && db->var_b) {
            uint64_t w = db->ways[i + 1][k - 1];
            cl[i] = (uint8_t)(r / w);
            r %= w;
        }
        k -= h;
    }
}

/* ---- building ---- */

/* A state's bounds in one word (lo in the low byte, hi in the high one): a child's
 * two bounds cost one cache miss. */
typedef _Atomic(uint16_t) Bounds;

static inline uint16_t pack(int lo, int hi) {
    return (uint16_t)((uint8_t)(int8_t)lo | (uint16_t)(uint8_t)(int8_t)hi << 8);
}
static inline int lo_of(uint16_t v) {
    return (int8_t)(uint8_t)(v & 0xff);
}
static inline int hi_of(uint16_t v) {
    return (int8_t)(uint8_t)(v >> 8);
}

static inline uint16_t get_bounds(Bounds *bd, uint64_t r) {
    return atomic_load_explicit(&bd[r], memory_order_relaxed);
}

typedef struct {
    MancalaDb *db;
    int n, pass, index;
    Bounds *bd; /* bounds, shared by the threads of a pass */
    int8_t *ex; /* best capture exit per state, from the first pass */
    uint64_t from, to;
    const MancalaDbBuild *opt;
    double done0, share; /* progress: before this pass, and this pass's share */
    bool changed, aborted;
} PassWork;

static bool out_of_time(const MancalaDbBuild *opt) {
    return (opt->stop && atomic_load(opt->stop)) ||
           (opt->deadline_ms > 0 && mancala_clock_ms() > opt->deadline_ms);
}

/* The end of a state's update: on the first pass the best capture EXIT is kept in *EX
 * and joins the children's bounds. */
static inline void finish_bounds(bool first, int exit, int best_lo, int best_hi, int8_t *ex,
                                 int *nlo, int *nhi) {
    if (first) {
        *ex = (int8_t)exit;
        if (exit > best_lo)
            best_lo = exit;
        if (exit > best_hi)
            best_hi = exit;
    }
    *nlo = best_lo;
    *nhi = best_hi;
}

/* A base-rules state (A to move, not over) whose children are being fetched: the
 * children's ranks in the layer and, on the first pass, the captures' ranks in the
 * smaller layers and their gains. */
typedef struct {
    uint64_t r;
    int lo, hi; /* the state's bounds */
    int nkid, ncap;
    uint64_t kid[16], cap[16];
    int cap_g[16];
} Pending;

/* Step 1 of a base-rules state's update: its children's ranks, their memory asked
 * for. States are prepared a few at a time, so the fetches overlap. */
static void prepare_base(const PassWork *w, const uint8_t *b, Pending *pd) {
    const MancalaDb *db = w->db;
    int n = w->n;
    bool first = w->pass == 0;
    /* A child's mirrored rank is a sum of one term per hole t (it reads hole t as hole
     * 15 - t): below[15 - t][eggs in holes 0..t][eggs in hole t]. A sowing that does
     * not wrap round changes only the terms from its start to its end, so the terms of
     * this board and their running sums give the rest. */
    uint64_t sum[MANCALA_HOLES + 1]; /* sum[t]: the terms of holes before t */
    int eggs[MANCALA_HOLES + 1];     /* eggs[t]: eggs in holes before t */
    sum[0] = 0;
    eggs[0] = 0;
    for (int t = 0; t < MANCALA_HOLES; t++) {
        eggs[t + 1] = eggs[t] + b[t];
        sum[t + 1] = sum[t] + db->below[MANCALA_HOLES - 1 - t][eggs[t + 1]][b[t]];
    }
    int nkid = 0, ncap = 0;
    for (int i = 0; i < 8; i++) {
        int e = b[i];
        if (!e)
            continue;
        for (int step = 1; step <= 15; step += 14) { /* +1 up, +15 = -1 down */
            uint8_t c[MANCALA_HOLES];
            memcpy(c, b, sizeof c);
            c[i] = 0;
            int j = i;
            for (int k = 0; k < e; k++) {
                j = (j + step) & 15;
                c[j]++;
            }
            int from = step == 1 ? i : i - e, to = step == 1 ? i + e : i;
            uint64_t r;
            if (from < 0 || to >= MANCALA_HOLES) {
                r = rank_state(db, c, NULL, n, true);
            } else {
                r = sum[from] + (sum[MANCALA_HOLES] - sum[to + 1]);
                for (int t = from, k = eggs[from]; t <= to; t++) {
                    k += c[t];
                    r += db->below[MANCALA_HOLES - 1 - t][k][c[t]];
                }
            }
            __builtin_prefetch(&w->bd[r]);
            pd->kid[nkid++] = r;
            if (!first || (j != 0 && j != 15))
                continue;
            /* the capture: the last egg and this sowing's eggs in the other ring */
            int g = 1, cap_lo = j == 0 ? 8 : 0;
            c[j]--;
            int h = i;
            for (int k = 0; k < e; k++) {
                h = (h + step) & 15;
                if (h >= cap_lo && h < cap_lo + 8) {
                    c[h]--;
                    g++;
                }
            }
            uint64_t cr = rank_state(db, c, NULL, n - g, true);
            __builtin_prefetch(&db->layer[n - g][cr]);
            pd->cap[ncap] = cr;
            pd->cap_g[ncap++] = g;
        }
    }
    pd->nkid = nkid;
    pd->ncap = ncap;
}

/* Step 2: the state's new bounds from its children's (and on the first pass its best
 * capture exit, kept in *EX; later passes read it). */
static void finish_base(const PassWork *w, const Pending *pd, int8_t *ex, int *nlo, int *nhi) {
    const MancalaDb *db = w->db;
    bool first = w->pass == 0;
    int best_lo = first ? -128 : *ex, best_hi = best_lo, exit = -128;
    for (int k = 0; k < pd->ncap; k++) {
        int g = pd->cap_g[k], v = g - db->layer[w->n - g][pd->cap[k]];
        if (v > exit)
            exit = v;
    }
    for (int k = 0; k < pd->nkid; k++) {
        uint16_t cb = get_bounds(w->bd, pd->kid[k]);
        int clo = lo_of(cb), chi = hi_of(cb);
        if (-chi > best_lo)
            best_lo = -chi;
        if (-clo > best_hi)
            best_hi = -clo;
    }
    finish_bounds(first, exit, best_lo, best_hi, ex, nlo, nhi);
}

/* The same for a variant B state, through the rules module (passes included). */
static void update_b(const PassWork *w, const uint8_t *b, const uint8_t *cl, int8_t *ex, int *nlo,
                     int *nhi) {
    const MancalaDb *db = w->db;
    int n = w->n;
    bool first = w->pass == 0;
    MancalaPos p;
    memset(&p, 0, sizeof p);
    p.rules = MANCALA_VAR_B;
    memcpy(p.hole, b, sizeof p.hole);
    for (int i = 0; i < MANCALA_HOLES; i++)
        if (b[i] == 1 && cl[i])
            p.origin[i] = (uint8_t)((cl[i] == 1 ? (i + 15) & 15 : (i + 1) & 15) + 1);
    MancalaMove mv[MANCALA_MAX_MOVES];
    int nm = mancala_moves(&p, mv);
    int best_lo = first ? -128 : *ex, best_hi = best_lo, exit = -128;
    for (int k = 0; k < nm; k++) {
        MancalaPos c;
        int g = mancala_play(&p, mv[k], &c);
        uint8_t ccl[MANCALA_HOLES];
        for (int i = 0; i < MANCALA_HOLES; i++)
            ccl[i] = origin_class(&c, i);
        if (g == 0) {
            uint16_t cb = get_bounds(w->bd, rank_state(db, c.hole, ccl, n, true));
            int clo = lo_of(cb), chi = hi_of(cb);
            if (-chi > best_lo)
                best_lo = -chi;
            if (-clo > best_hi)
                best_hi = -clo;
        } else if (first) {
            int v = g - db->layer[n - g][rank_state(db, c.hole, ccl, n - g, true)];
            if (v > exit)
                exit = v;
        }
    }
    finish_bounds(first, exit, best_lo, best_hi, ex, nlo, nhi);
}

/* Stores the new bounds NL, NH of state R (bounds LO, HI) where they are tighter. */
static void store_bounds(PassWork *w, uint64_t r, int lo, int hi, int nl, int nh) {
    if (nl > lo || nh < hi) {
        atomic_store_explicit(&w->bd[r], pack(nl > lo ? nl : lo, nh < hi ? nh : hi),
                              memory_order_relaxed);
        w->changed = true;
    }
}

#define BATCH 8 /* base-rules states whose children are fetched together */

static void finish_batch(PassWork *w, const Pending *batch, int nb) {
    for (int k = 0; k < nb; k++) {
        int nl, nh;
        finish_base(w, &batch[k], &w->ex[batch[k].r], &nl, &nh);
        store_bounds(w, batch[k].r, batch[k].lo, batch[k].hi, nl, nh);
    }
}

static void *pass_worker(void *arg) {
    PassWork *w = arg;
    const MancalaDbBuild *opt = w->opt;
    uint8_t b[MANCALA_HOLES], cl[MANCALA_HOLES];
    Pending batch[BATCH];
    int nb = 0;
    for (uint64_t r = w->from; r < w->to; r++) {
        if (((r - w->from) & 0xffff) == 0xffff) {
            if (out_of_time(opt)) {
                w->aborted = true;
                break;
            }
            if (w->index == 0 && opt->progress)
                opt->progress(w->n, w->pass,
                              w->done0 +
                                  w->share * (double)(r - w->from) / (double)(w->to - w->from),
                              opt->ud);
        }
        uint16_t own = get_bounds(w->bd, r);
        int lo = lo_of(own), hi = hi_of(own);
        if (w->pass > 0 && lo == hi)
            continue; /* decided */
        unrank_state(w->db, r, w->n, b, cl);
        if (w->pass == 0) {
            int ring_a = 0;
            for (int i = 0; i < 8; i++)
                ring_a += b[i];
            if (w->db->var_b ? w->n == 0 : ring_a == 0 || ring_a == w->n) {
                /* the game is over: nothing more to gain */
                atomic_store_explicit(&w->bd[r], pack(0, 0), memory_order_relaxed);
                w->changed = true;
                continue;
            }
        }
        if (w->db->var_b) {
            int nl, nh;
            update_b(w, b, cl, &w->ex[r], &nl, &nh);
            store_bounds(w, r, lo, hi, nl, nh);
            continue;
        }
        batch[nb] = (Pending){.r = r, .lo = lo, .hi = hi};
        prepare_base(w, b, &batch[nb]);
        if (++nb == BATCH) {
            finish_batch(w, batch, nb);
            nb = 0;
        }
    }
    finish_batch(w, batch, nb);
    return NULL;
}

/* Share of the whole build that layers below n make, and layer n itself. */
static void layer_share(const MancalaDb *db, int n, int eggs, double *before, double *share) {
    double total = 0, pre = 0;
    for (int k = 0; k <= eggs; k++) {
        total += (double)db->ways[0][k];
        if (k < n)
            pre += (double)db->ways[0][k];
    }
    *before = pre / total;
    *share = (double)db->ways[0][n] / total;
}

/* Memory for a layer's arrays (free() releases it), in huge pages where the system
 * offers them: the children of a state are spread over the whole layer. */
static void *alloc_big(size_t bytes) {
    const size_t huge = (size_t)2 << 20;
    if (bytes < huge)
        return malloc(bytes);
    void *p = aligned_alloc(huge, (bytes + huge - 1) / huge * huge);
#ifdef MADV_HUGEPAGE
    if (p)
        madvise(p, bytes, MADV_HUGEPAGE);
#endif
    return p;
}

static bool build_layer(MancalaDb *db, int n, int eggs, const MancalaDbBuild *opt) {
    uint64_t size = db->ways[0][n];
    Bounds *bd = alloc_big(size * sizeof *bd);
    int8_t *ex = alloc_big(size);
    if (!bd || !ex) {
        free(bd), free(ex);
        return false;
    }
    for (uint64_t r = 0; r < size; r++)
        atomic_init(&bd[r], pack(-n, n));
    int nt = opt->threads > 1 ? opt->threads : 1;
    if (nt > DB_MAX_THREADS)
        nt = DB_MAX_THREADS;
    if ((uint64_t)nt > size)
        nt = 1;
    double before, share;
    layer_share(db, n, eggs, &before, &share);
    bool ok = true, changed = true;
    for (int pass = 0; ok && changed; pass++) {
        PassWork w[DB_MAX_THREADS];
        pthread_t tid[DB_MAX_THREADS];
        /* the first pass does most of the work; later ones share the rest */
        double done0 = pass == 0 ? before : before + share * (1.0 - 0.4 / pass);
        double pshare = share * (pass == 0 ? 0.6 : 0.4 / pass - 0.4 / (pass + 1));
        for (int t = 0; t < nt; t++) {
            w[t] = (PassWork){.db = db,
                              .n = n,
                              .pass = pass,
                              .index = t,
                              .bd = bd,
                              .ex = ex,
                              .from = size * (uint64_t)t / (uint64_t)nt,
                              .to = size * (uint64_t)(t + 1) / (uint64_t)nt,
                              .opt = opt,
                              .done0 = done0,
                              .share = pshare};
        }
        int started = 1;
        for (int t = 1; t < nt; t++, started++)
            if (pthread_create(&tid[t], NULL, pass_worker, &w[t]) != 0)
                break;
        for (int t = started; t < nt; t++) /* no thread: the caller does its part */
            pass_worker(&w[t]);
        pass_worker(&w[0]);
        for (int t = 1; t < started; t++)
            pthread_join(tid[t], NULL);
        changed = false;
        for (int t = 0; t < nt; t++) {
            changed |= w[t].changed;
            ok &= !w[t].aborted;
        }
    }
    if (ok) {
        /* the values replace the exits, which are no longer needed */
        for (uint64_t r = 0; r < size; r++) {
            uint16_t v = get_bounds(bd, r);
            int l = lo_of(v), h = hi_of(v);
            ex[r] = (int8_t)(l >= 1 ? l : h <= -1 ? h : 0);
        }
        db->layer[n] = ex;
        db->built = n;
    } else {
        free(ex);
    }
    free(bd);
    return ok;
}

int mancala_db_build(MancalaDb *db, int eggs, const MancalaDbBuild *opt) {
    MancalaDbBuild none;
    if (!opt) {
        memset(&none, 0, sizeof none);
        opt = &none;
    }
    if (!db || db->map)
        return db ? db->built : -1;
    if (eggs > MANCALA_DB_MAX_EGGS)
        eggs = MANCALA_DB_MAX_EGGS;
    while (db->built < eggs) {
        int n = db->built + 1;
        double t0 = mancala_clock_ms();
        if (opt->deadline_ms > 0 && n >= 6) {
            /* do not start a layer that would not finish: time grows a bit faster
             * than the layer's size */
            double ratio = (double)db->ways[0][n] / (double)db->ways[0][n - 1];
            if (t0 + db->last_ms * ratio * 1.5 > opt->deadline_ms)
                break;
        }
        if (!build_layer(db, n, opt->goal > eggs ? opt->goal : eggs, opt))
            break;
        db->last_ms = mancala_clock_ms() - t0;
    }
    return db->built;
}

bool mancala_db_probe(const MancalaDb *db, const MancalaPos *p, int *gain) {
    if (!db || db->built < 0 || db->var_b != ((p->rules & MANCALA_VAR_B) != 0))
        return false;
    int n = mancala_board_eggs(p);
    if (n > db->built)
        return false;
    if (p->rules & MANCALA_VAR_A)
        for (int s = 0; s < 2; s++)
            if (p->used[s] < MANCALA_MAX_STORE_MOVES && p->store[s] + n >= 5)
                return false;
    uint8_t cl[MANCALA_HOLES];
    for (int i = 0; i < MANCALA_HOLES; i++)
        cl[i] = db->var_b ? origin_class(p, i) : 0;
    *gain = db->layer[n][rank_state(db, p->hole, cl, n, p->side != 0)];
    return true;
}

bool mancala_db_copy(MancalaDb *db, const MancalaDb *from) {
    if (!db || !from || db->map || db->built >= 0 || db->var_b != from->var_b)
        return false;
    for (int n = 0; n <= from->built; n++) {
        if (!(db->layer[n] = alloc_big(db->ways[0][n])))
            return false;
        memcpy(db->layer[n], from->layer[n], db->ways[0][n]);
        db->built = n;
    }
    return true;
}

/* ---- files ---- */

/* Header (little-endian): magic, version, rule set (0 base, 2 variant B), eggs, zero,
 * payload bytes, payload checksum, checksum of the 40 bytes before it; then the layers
 * 0..eggs in order, one signed byte per state. */

static uint64_t checksum(const uint8_t *d, size_t len) {
    uint64_t h = 0x6a09e667f3bcc908ULL ^ len;
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t w;
        memcpy(&w, d + i, 8);
        h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
        h ^= h >> 29;
    }
    for (; i < len; i++) {
        h = (h ^ d[i]) * 0x100000001b3ULL;
        h ^= h >> 29;
    }
    return h;
}

static void put_le(uint8_t *d, uint64_t v, int bytes) {
    for (int i = 0; i < bytes; i++)
        d[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_le(const uint8_t *d, int bytes) {
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++)
        v |= (uint64_t)d[i] << (8 * i);
    return v;
}

const char *mancala_db_file_name(int rules) {
    return (rules & MANCALA_VAR_B) ? "slangenspel-b.egdb" : "slangenspel.egdb";
}

bool mancala_db_save(const MancalaDb *db, const char *path, char *err, size_t errlen) {
    if (!db || db->built < 0) {
        mancala_set_err(err, errlen, "nothing built to save");
        return false;
    }
    uint64_t payload = 0;
    for (int n = 0; n <= db->built; n++)
        payload += db->ways[0][n];
    /* the checksum runs over the layers as one stream */
    uint8_t *all = malloc(payload);
    if (!all) {
        mancala_set_err(err, errlen, "out of memory");
        return false;
    }
    uint64_t o = 0;
    for (int n = 0; n <= db->built; n++) {
        memcpy(all + o, db->layer[n], db->ways[0][n]);
        o += db->ways[0][n];
    }
    uint8_t h[DB_HEADER];
    memset(h, 0, sizeof h);
    memcpy(h, DB_MAGIC, 8);
    put_le(h + 8, DB_VERSION, 4);
    put_le(h + 12, db->var_b ? MANCALA_VAR_B : MANCALA_BASE, 4);
    put_le(h + 16, (uint64_t)db->built, 4);
    put_le(h + 24, payload, 8);
    put_le(h + 32, checksum(all, payload), 8);
    put_le(h + 40, checksum(h, 40), 8);
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "wb");
    bool ok = f && fwrite(h, 1, sizeof h, f) == sizeof h && fwrite(all, 1, payload, f) == payload;
    if (f && fclose(f) != 0)
        ok = false;
    free(all);
    if (!ok || rename(tmp, path) != 0) {
        mancala_set_err(err, errlen, "cannot write %s: %s", path, strerror(errno));
        remove(tmp);
        return false;
    }
    return true;
}

MancalaDb *mancala_db_open(const char *path, int rules, char *err, size_t errlen) {
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        mancala_set_err(err, errlen, "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || st.st_size < DB_HEADER) {
        close(fd);
        mancala_set_err(err, errlen, "%s is not a Slangenspel endgame database (too short)", path);
        return NULL;
    }
    size_t len = (size_t)st.st_size;
    void *map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (map == MAP_FAILED) {
        mancala_set_err(err, errlen, "cannot map %s: %s", path, strerror(errno));
        return NULL;
    }
    const uint8_t *d = map;
    MancalaDb *db = NULL;
    uint64_t eggs = get_le(d + 16, 4), payload = get_le(d + 24, 8);
    int want = rules & MANCALA_VAR_B;
    if (memcmp(d, DB_MAGIC, 8) != 0) {
        mancala_set_err(err, errlen, "%s is not a Slangenspel endgame database", path);
    } else if (checksum(d, 40) != get_le(d + 40, 8)) {
        mancala_set_err(err, errlen, "%s: damaged header (checksum mismatch)", path);
    } else if (get_le(d + 8, 4) != DB_VERSION) {
        mancala_set_err(err, errlen,
                        "%s has format version %u, this program reads version %u: "
                        "build it again with menagerie egdb build",
                        path, (unsigned)get_le(d + 8, 4), DB_VERSION);
    } else if (get_le(d + 12, 4) != (uint64_t)want) {
        mancala_set_err(err, errlen, "%s holds the %s table, not the %s one", path,
                        get_le(d + 12, 4) == MANCALA_VAR_B ? "variant B" : "base rules",
                        want ? "variant B" : "base rules");
    } else if (eggs > MANCALA_DB_MAX_EGGS || payload != mancala_db_positions(rules, (int)eggs) ||
               len != DB_HEADER + payload) {
        mancala_set_err(err, errlen, "%s: size does not match its header (truncated or damaged)",
                        path);
    } else if (checksum(d + DB_HEADER, payload) != get_le(d + 32, 8)) {
        mancala_set_err(err, errlen, "%s: damaged data (checksum mismatch)", path);
    } else if (!(db = mancala_db_new(rules))) {
        mancala_set_err(err, errlen, "out of memory");
    }
    if (!db) {
        munmap(map, len);
        return NULL;
    }
    db->map = map;
    db->map_len = len;
    uint64_t o = DB_HEADER;
    for (int n = 0; n <= (int)eggs; n++) {
        db->layer[n] = (int8_t *)(d + o);
        o += db->ways[0][n];
    }
    db->built = (int)eggs;
    return db;
}

/* ---- the process's tables ---- */

static pthread_mutex_t shared_lock = PTHREAD_MUTEX_INITIALIZER;
static char shared_dir[4096] = "data/egdb";
static MancalaDb *shared_db[2];
static bool shared_tried[2];

void mancala_db_set_dir(const char *dir) {
    char copy[sizeof shared_dir];
    snprintf(copy, sizeof copy, "%s", dir ? dir : "data/egdb");
    pthread_mutex_lock(&shared_lock);
    memcpy(shared_dir, copy, sizeof copy);
    for (int i = 0; i < 2; i++) {
        mancala_db_free(shared_db[i]);
        shared_db[i] = NULL;
        shared_tried[i] = false;
    }
    pthread_mutex_unlock(&shared_lock);
}

const char *mancala_db_dir(void) {
    return shared_dir;
}

const MancalaDb *mancala_db_shared(int rules) {
    int i = (rules & MANCALA_VAR_B) ? 1 : 0;
    pthread_mutex_lock(&shared_lock);
    if (!shared_tried[i]) {
        shared_tried[i] = true;
        char path[4200], err[4400];
        snprintf(path, sizeof path, "%s/%s", shared_dir, mancala_db_file_name(rules));
        if (access(path, F_OK) == 0) {
            shared_db[i] = mancala_db_open(path, rules, err, sizeof err);
            if (!shared_db[i])
                fprintf(stderr, "menagerie: endgame database refused: %s\n", err);
        }
    }
    const MancalaDb *db = shared_db[i];
    pthread_mutex_unlock(&shared_lock);
    return db;
}
