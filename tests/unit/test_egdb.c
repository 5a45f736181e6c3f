/* test_egdb.c - the Slangenspel endgame database against an independent solver.
 *
 * The solver here shares nothing with the database but the rules module (checked by
 * perft): it builds the explicit graph of every position reachable from all boards of
 * a few eggs (variant B with real origins, 1-16, not the database's classes), then
 * solves it by attractors: for t = 1, 2, ... the positions whose mover can force a gain
 * of t (a capture worth t, or a quiet move to a position whose mover cannot avoid
 * giving t) and those whose mover cannot avoid giving t. Play that never captures
 * again gains nothing. Both tables must agree on every position, files must come out
 * the same when built twice, and damaged, foreign or truncated files must be refused. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mancala/board.h"
#include "mancala/egdb.h"
#include "test.h"

typedef struct {
    MancalaPos p;
    int eggs, nkids, first, value; /* moves: edges first .. first + nkids - 1 */
    bool win, lose;                /* for the threshold being solved */
} Node;

typedef struct {
    int kid, gain;
} Edge;

typedef struct {
    Node *node;
    Edge *edge;
    int n, cap, nedges, edge_cap;
    int *slot; /* open addressing: node index + 1, 0 empty */
    size_t mask;
} Graph;

static int find_or_add(Graph *g, const MancalaPos *p, bool *added) {
    size_t h = (size_t)mancala_hash(p) & g->mask;
    while (g->slot[h]) {
        if (mancala_same(&g->node[g->slot[h] - 1].p, p)) {
            *added = false;
            return g->slot[h] - 1;
        }
        h = (h + 1) & g->mask;
    }
    if (g->n == g->cap)
        return -1;
    g->node[g->n].p = *p;
    g->slot[h] = ++g->n;
    *added = true;
    return g->n - 1;
}

/* Adds P and everything reachable from it (stores kept at zero: values are gains). */
static bool explore(Graph *g, const MancalaPos *root) {
    bool added;
    int stack_base = g->n;
    if (find_or_add(g, root, &added) < 0)
        return false;
    if (!added)
        return true;
    for (int i = stack_base; i < g->n; i++) {
        Node *nd = &g->node[i];
        nd->eggs = mancala_board_eggs(&nd->p);
        MancalaMove mv[MANCALA_MAX_MOVES];
        int nm = mancala_moves(&nd->p, mv);
        nd->nkids = nm;
        nd->first = g->nedges;
        if (g->nedges + nm > g->edge_cap)
            return false;
        for (int k = 0; k < nm; k++) {
            MancalaPos c;
            int gain = mancala_play(&g->node[i].p, mv[k], &c);
            c.store[0] = c.store[1] = 0;
            int idx = find_or_add(g, &c, &added);
            if (idx < 0)
                return false;
            g->edge[g->nedges++] = (Edge){idx, gain};
        }
    }
    return true;
}

/* Values of all nodes, layer by layer (eggs ascending), by attractors. */
static void solve(Graph *g, int max_eggs) {
    for (int e = 0; e <= max_eggs; e++) {
        for (int i = 0; i < g->n; i++)
            if (g->node[i].eggs == e)
                g->node[i].value = 0;
        for (int t = 1; t <= e; t++) {
            for (int i = 0; i < g->n; i++)
                g->node[i].win = g->node[i].lose = false;
            bool changed = true;
            while (changed) {
                changed = false;
                for (int i = 0; i < g->n; i++) {
                    Node *nd = &g->node[i];
                    if (nd->eggs != e || nd->nkids == 0)
                        continue;
                    bool win = false, lose = true;
                    for (int k = 0; k < nd->nkids; k++) {
                        const Edge *ed = &g->edge[nd->first + k];
                        const Node *c = &g->node[ed->kid];
                        if (ed->gain > 0) {
                            int v = ed->gain - c->value;
                            win |= v >= t;
                            lose &= v <= -t;
                        } else {
                            win |= c->lose;
                            lose &= c->win;
                        }
                    }
                    if (win != nd->win || lose != nd->lose) {
                        nd->win = win;
                        nd->lose = lose;
                        changed = true;
                    }
                }
            }
            for (int i = 0; i < g->n; i++) {
                Node *nd = &g->node[i];
                if (nd->eggs != e)
                    continue;
                if (nd->win)
                    nd->value = t;
                else if (nd->lose && nd->value <= 0)
                    nd->value = -t;
            }
        }
    }
}

/* Every board of EGGS eggs (both sides to move) as a root; with variant B, single eggs
 * get origins from a fixed sequence covering all 17 values. */
static bool explore_all(Graph *g, int rules, int eggs, uint64_t *seed) {
    uint8_t b[MANCALA_HOLES] = {0};
    b[MANCALA_HOLES - 1] = (uint8_t)eggs;
    for (;;) {
        for (int side = 0; side < 2; side++) {
            MancalaPos p;
            memset(&p, 0, sizeof p);
            p.rules = (uint8_t)rules;
            p.side = (uint8_t)side;
            memcpy(p.hole, b, sizeof b);
            if (rules & MANCALA_VAR_B)
                for (int i = 0; i < MANCALA_HOLES; i++)
                    if (b[i] == 1) {
                        *seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
                        p.origin[i] = (uint8_t)((*seed >> 33) % 17);
                    }
            if (!explore(g, &p))
                return false;
        }
        /* next board in lexicographic order */
        int t = MANCALA_HOLES - 1;
        while (t > 0 && b[t] == 0)
            t--;
        if (t == 0)
            return true;
        int s = b[t];
        b[t] = 0;
        b[t - 1]++;
        b[MANCALA_HOLES - 1] = (uint8_t)(s - 1);
    }
}

static void compare(int rules, int eggs) {
    Graph g;
    memset(&g, 0, sizeof g);
    g.cap = 1 << 21;
    g.edge_cap = 1 << 24;
    g.mask = (1u << 23) - 1;
    g.node = malloc((size_t)g.cap * sizeof *g.node);
    g.edge = malloc((size_t)g.edge_cap * sizeof *g.edge);
    g.slot = calloc(g.mask + 1, sizeof *g.slot);
    MancalaDb *db = mancala_db_new(rules);
    CHECK(g.node && g.edge && g.slot && db);
    if (g.node && g.edge && g.slot && db) {
        uint64_t seed = 7;
        bool ok = true;
        for (int e = 0; e <= eggs && ok; e++)
            ok = explore_all(&g, rules, e, &seed);
        CHECK(ok);
        solve(&g, eggs);
        CHECK(mancala_db_build(db, eggs, NULL) == eggs);
        int bad = 0, nonzero = 0;
        for (int i = 0; i < g.n; i++) {
            int gain = 99;
            if (!mancala_db_probe(db, &g.node[i].p, &gain) || gain != g.node[i].value) {
                if (bad++ < 3) {
                    char t[MANCALA_POS_TEXT];
                    mancala_print(&g.node[i].p, t, sizeof t);
                    test_fail(__FILE__, __LINE__, "rules %d: %s: table %d, solver %d", rules, t,
                              gain, g.node[i].value);
                }
            }
            nonzero += g.node[i].value != 0;
        }
        /* the comparison means something: many positions, many of them won or lost */
        CHECK(g.n > 10000);
        CHECK(nonzero > g.n / 10);
    }
    mancala_db_free(db);
    free(g.node);
    free(g.edge);
    free(g.slot);
}

static bool read_file(const char *path, char **buf, long *len) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    fseek(f, 0, SEEK_END);
    *len = ftell(f);
    fseek(f, 0, SEEK_SET);
    *buf = malloc((size_t)*len + 1);
    bool ok = *buf && fread(*buf, 1, (size_t)*len, f) == (size_t)*len;
    fclose(f);
    return ok;
}

static void write_file(const char *path, const char *buf, long len) {
    FILE *f = fopen(path, "wb");
    if (f) {
        fwrite(buf, 1, (size_t)len, f);
        fclose(f);
    }
}

/* True when opening PATH for RULES fails with a reason containing WORD. */
static bool refused(const char *path, int rules, const char *word) {
    char err[600] = "";
    MancalaDb *db = mancala_db_open(path, rules, err, sizeof err);
    mancala_db_free(db);
    return !db && strstr(err, word);
}

static void files(int rules, int eggs) {
    char dir[] = "/tmp/menagerie-egdb-XXXXXX";
    if (!mkdtemp(dir)) {
        CHECK(!"mkdtemp");
        return;
    }
    char p1[64], p2[64], p3[64];
    snprintf(p1, sizeof p1, "%s/one", dir);
    snprintf(p2, sizeof p2, "%s/two", dir);
    snprintf(p3, sizeof p3, "%s/bad", dir);
    char err[600] = "";
    /* built twice, once with two threads: the same bytes */
    MancalaDb *a = mancala_db_new(rules), *b = mancala_db_new(rules);
    MancalaDbBuild two = {.threads = 2};
    CHECK(mancala_db_build(a, eggs, NULL) == eggs && mancala_db_build(b, eggs, &two) == eggs);
    CHECK(mancala_db_save(a, p1, err, sizeof err) && mancala_db_save(b, p2, err, sizeof err));
    char *x = NULL, *y = NULL;
    long lx = 0, ly = 0;
    CHECK(read_file(p1, &x, &lx) && read_file(p2, &y, &ly));
    CHECK(x && y && lx == ly && lx == 48 + (long)mancala_db_positions(rules, eggs) &&
          memcmp(x, y, (size_t)lx) == 0);
    /* the mapped file answers like the table it came from */
    MancalaDb *m = mancala_db_open(p1, rules, err, sizeof err);
    CHECK(m && mancala_db_eggs(m) == eggs);
    if (m) {
        uint64_t seed = 99;
        for (int k = 0; k < 2000; k++) {
            MancalaPos p;
            memset(&p, 0, sizeof p);
            p.rules = (uint8_t)rules;
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            int n = (int)((seed >> 33) % (uint64_t)(eggs + 1));
            for (int e = 0; e < n; e++) {
                seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
                p.hole[(seed >> 33) % 16]++;
            }
            p.side = (uint8_t)(k & 1);
            int g1 = 99, g2 = 98;
            CHECK(mancala_db_probe(a, &p, &g1) && mancala_db_probe(m, &p, &g2) && g1 == g2);
        }
    }
    mancala_db_free(m);
    /* damaged, foreign, truncated, wrong rule set, missing */
    if (x && lx > 60) {
        x[lx - 3] ^= 1;
        write_file(p3, x, lx);
        CHECK(refused(p3, rules, "damaged data"));
        x[lx - 3] ^= 1;
        x[13] ^= 1;
        write_file(p3, x, lx);
        CHECK(refused(p3, rules, "damaged header"));
        x[13] ^= 1;
        write_file(p3, x, lx - 1);
        CHECK(refused(p3, rules, "truncated"));
        write_file(p3, "not a database at all, just some text to be refused", 52);
        CHECK(refused(p3, rules, "not a Slangenspel endgame database"));
        CHECK(refused(p1, rules ^ MANCALA_VAR_B, "table, not the"));
    }
    CHECK(refused("/nonexistent/egdb", rules, "cannot open"));
    free(x);
    free(y);
    mancala_db_free(a);
    mancala_db_free(b);
    remove(p1);
    remove(p2);
    remove(p3);
    remove(dir);
}

void test_egdb(void) {
    compare(MANCALA_BASE, 5);
    compare(MANCALA_VAR_B, 3);
    files(MANCALA_BASE, 6);
    files(MANCALA_VAR_B, 3);
}
