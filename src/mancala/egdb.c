/* egdb.c - the endgame database.
 *
 * Layer n holds, for every way of spreading n eggs over the 16 holes with A to move,
 * the exact store gain A can still make against best play. A capture leaves the layer
 * (its value comes from a smaller, finished layer); other moves stay inside it and may
 * cycle. Play that never captures again ends (by repetition or the 100-ply rule) with
 * no further gain, so the value is the only fixpoint reached from the bounds [-n, n]:
 *   lo(p) = max over moves of (exit value, -hi(child))
 *   hi(p) = max over moves of (exit value, -lo(child))
 * iterated until nothing changes. For t >= 1, lo(p) >= t is then exactly "A can force a
 * gain of t or more" (an attractor, so cycles never count as a gain), hi(p) <= -t the
 * same for the opponent, and any other position is worth 0.
 * A board with B to move is mirrored (hole i <-> hole 17-i swaps rings, head and tail). */
#include "mancala/egdb.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct MancalaDb {
    int built;                              /* largest complete layer, -1 none */
    double last_ms;                         /* time the last layer took to build */
    int8_t *layer[MANCALA_DB_MAX_EGGS + 1]; /* values with A to move, by rank */
    /* ways[i][k]: boards with k eggs in holes i..15 */
    uint64_t ways[MANCALA_HOLES + 1][MANCALA_DB_MAX_EGGS + 1];
};

double mancala_clock_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

MancalaDb *mancala_db_new(void) {
    MancalaDb *db = calloc(1, sizeof *db);
    if (!db)
        return NULL;
    db->built = -1;
    db->ways[MANCALA_HOLES][0] = 1;
    for (int i = MANCALA_HOLES - 1; i >= 0; i--)
        for (int k = 0; k <= MANCALA_DB_MAX_EGGS; k++) {
            uint64_t s = 0;
            for (int j = 0; j <= k; j++)
                s += db->ways[i + 1][k - j];
            db->ways[i][k] = s;
        }
    return db;
}

void mancala_db_free(MancalaDb *db) {
    if (!db)
        return;
    for (int n = 0; n <= MANCALA_DB_MAX_EGGS; n++)
        free(db->layer[n]);
    free(db);
}

int mancala_db_eggs(const MancalaDb *db) { return db ? db->built : -1; }

/* Rank of a board of n eggs among all such boards in lexicographic order. */
static uint32_t rank_board(const MancalaDb *db, const uint8_t *b, int n) {
    uint64_t r = 0;
    int k = n;
    for (int i = 0; i < MANCALA_HOLES - 1 && k > 0; i++) {
        int h = b[i];
        r += db->ways[i][k] - db->ways[i][k - h];
        k -= h;
    }
    return (uint32_t)r;
}

/* Next board of the same egg count in lexicographic order. */
static void next_board(uint8_t *b) {
    int t = MANCALA_HOLES - 1;
    while (t > 0 && b[t] == 0)
        t--;
    if (t == 0)
        return; /* last board */
    int s = b[t];
    b[t] = 0;
    b[t - 1]++;
    b[MANCALA_HOLES - 1] = (uint8_t)(s - 1);
}

static void mirror(const uint8_t *in, uint8_t *out) {
    for (int i = 0; i < MANCALA_HOLES; i++)
        out[i] = in[MANCALA_HOLES - 1 - i];
}

/* Rank of the mirror image of board C (n eggs): the board as B sees it. */
static inline uint32_t rank_mirrored(const MancalaDb *db, const uint8_t *c, int n) {
    uint64_t r = 0;
    int k = n;
    for (int i = 0; k > 0 && i < MANCALA_HOLES - 1; i++) {
        int h = c[MANCALA_HOLES - 1 - i];
        r += db->ways[i][k] - db->ways[i][k - h];
        k -= h;
    }
    return (uint32_t)r;
}

/* One update of board B (A to move, not over) of layer n: new bounds from the
 * children's. On the first pass (FIRST) the best capture exit is computed and
 * returned through *exit_out; later passes take it as EXIT_BEST. Sowings of fewer
 * than 16 eggs never lap, which the database's layers guarantee. */
static void update(const MancalaDb *db, const uint8_t *b, int n, const int8_t (*bd)[2],
                   int8_t exit_best, bool first, int8_t *exit_out, int8_t *nlo, int8_t *nhi) {
    int best_lo = exit_best, best_hi = exit_best;
    int ex = -128;
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
            uint32_t r = rank_mirrored(db, c, n);
            if (-bd[r][1] > best_lo)
                best_lo = -bd[r][1];
            if (-bd[r][0] > best_hi)
                best_hi = -bd[r][0];
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
            int v = g - db->layer[n - g][rank_mirrored(db, c, n - g)];
            if (v > ex)
                ex = v;
        }
    }
    if (first) {
        *exit_out = (int8_t)ex;
        if (ex > best_lo)
            best_lo = ex;
        if (ex > best_hi)
            best_hi = ex;
    }
    *nlo = (int8_t)best_lo;
    *nhi = (int8_t)best_hi;
}

static bool out_of_time(double deadline_ms, const atomic_bool *stop) {
    return (stop && atomic_load(stop)) || (deadline_ms > 0 && mancala_clock_ms() > deadline_ms);
}

static bool build_layer(MancalaDb *db, int n, double deadline_ms, const atomic_bool *stop) {
    uint64_t size = db->ways[0][n];
    int8_t(*bd)[2] = malloc(size * sizeof *bd); /* lower and upper bound side by side */
    int8_t *ex = malloc(size);
    if (!bd || !ex) {
        free(bd), free(ex);
        return false;
    }
    for (uint64_t r = 0; r < size; r++) {
        bd[r][0] = (int8_t)-n;
        bd[r][1] = (int8_t)n;
    }
    uint8_t b[MANCALA_HOLES];
    bool ok = true, changed = true;
    for (int pass = 0; ok && changed; pass++) {
        changed = false;
        memset(b, 0, sizeof b);
        b[MANCALA_HOLES - 1] = (uint8_t)n;
        for (uint64_t r = 0; r < size; r++, next_board(b)) {
            if ((r & 0xffff) == 0xffff && out_of_time(deadline_ms, stop)) {
                ok = false;
                break;
            }
            if (pass > 0 && bd[r][0] == bd[r][1])
                continue; /* decided */
            if (pass == 0) {
                int ring_a = 0;
                for (int i = 0; i < 8; i++)
                    ring_a += b[i];
                if (ring_a == 0 || ring_a == n) {
                    bd[r][0] = bd[r][1] = 0; /* an empty ring: the game is over */
                    continue;
                }
            }
            int8_t nl, nh;
            update(db, b, n, (const int8_t(*)[2])bd, pass ? ex[r] : -128, pass == 0, &ex[r],
                   &nl, &nh);
            if (nl > bd[r][0]) {
                bd[r][0] = nl;
                changed = true;
            }
            if (nh < bd[r][1]) {
                bd[r][1] = nh;
                changed = true;
            }
        }
    }
    if (ok) {
        /* the values replace the exits, which are no longer needed */
        for (uint64_t r = 0; r < size; r++)
            ex[r] = bd[r][0] >= 1 ? bd[r][0] : bd[r][1] <= -1 ? bd[r][1] : 0;
        db->layer[n] = ex;
        db->built = n;
    } else {
        free(ex);
    }
    free(bd);
    return ok;
}

int mancala_db_build(MancalaDb *db, int eggs, double deadline_ms, const atomic_bool *stop) {
    if (!db)
        return -1;
    if (eggs > MANCALA_DB_MAX_EGGS)
        eggs = MANCALA_DB_MAX_EGGS;
    while (db->built < eggs) {
        int n = db->built + 1;
        double t0 = mancala_clock_ms();
        if (deadline_ms > 0 && n >= 6) {
            /* do not start a layer that would not finish: time grows a bit faster
             * than the layer's size */
            double ratio = (double)db->ways[0][n] / (double)db->ways[0][n - 1];
            if (t0 + db->last_ms * ratio * 1.5 > deadline_ms)
                break;
        }
        if (!build_layer(db, n, deadline_ms, stop))
            break;
        db->last_ms = mancala_clock_ms() - t0;
    }
    return db->built;
}

bool mancala_db_probe(const MancalaDb *db, const MancalaPos *p, int *gain) {
    if (!db || db->built < 0 || (p->rules & MANCALA_VAR_B))
        return false;
    int n = mancala_board_eggs(p);
    if (n > db->built)
        return false;
    if (p->rules & MANCALA_VAR_A)
        for (int s = 0; s < 2; s++)
            if (p->used[s] < MANCALA_MAX_STORE_MOVES && p->store[s] + n >= 5)
                return false;
    uint8_t b[MANCALA_HOLES];
    if (p->side)
        mirror(p->hole, b);
    else
        memcpy(b, p->hole, sizeof b);
    *gain = db->layer[n][rank_board(db, b, n)];
    return true;
}
