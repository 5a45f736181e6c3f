/* game_mancala.c - Slangenspel behind the engine's GameOps table.
 *
 * The state is the game record: every position since creation, with the plies since
 * the last capture, so undo, the repetition rule and the 100-ply rule need nothing
 * else. The search context (table and endgame database) is made on first use. */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/game.h"
#include "mancala/board.h"
#include "mancala/egdb.h"
#include "mancala/search.h"

typedef struct {
    MancalaPos *pos; /* pos[0..n-1], the last is the current position */
    int *since;      /* plies without a capture, per position */
    int n, cap;
    MSearch *search;
} MancalaGame;

static const char *const mancala_names[] = {"slangenspel", "slangenspel-a", "slangenspel-b",
                                            "slangenspel-ab", NULL};
static const char *const mancala_titles[] = {
    "Slangenspel (snake mancala)",
    "Slangenspel, variant A (store moves)",
    "Slangenspel, variant B (endgame rules)",
    "Slangenspel, variants A and B",
    NULL,
};

static const MancalaPos *cur(const MancalaGame *g) {
    return &g->pos[g->n - 1];
}

static void *mg_create(const char *variant, const char *fen, char *err, size_t errlen) {
    int rules = mancala_rules_by_name(variant);
    if (rules < 0) {
        mancala_set_err(err, errlen, "unknown Slangenspel rule set '%s'",
                        variant ? variant : "(null)");
        return NULL;
    }
    MancalaPos p;
    if (fen) {
        if (!mancala_parse(&p, rules, fen, err, errlen))
            return NULL;
    } else {
        mancala_start(&p, rules);
    }
    MancalaGame *g = calloc(1, sizeof *g);
    if (g) {
        g->cap = 64;
        g->pos = malloc((size_t)g->cap * sizeof *g->pos);
        g->since = malloc((size_t)g->cap * sizeof *g->since);
    }
    if (!g || !g->pos || !g->since) {
        if (g) {
            free(g->pos);
            free(g->since);
            free(g);
        }
        mancala_set_err(err, errlen, "out of memory");
        return NULL;
    }
    g->pos[0] = p;
    g->since[0] = 0;
    g->n = 1;
    return g;
}

/* Room for CAP positions in the record. */
static bool mg_reserve(MancalaGame *g, int cap) {
    if (cap <= g->cap)
        return true;
    MancalaPos *np = realloc(g->pos, (size_t)cap * sizeof *np);
    if (np)
        g->pos = np;
    int *ns = np ? realloc(g->since, (size_t)cap * sizeof *ns) : NULL;
    if (ns)
        g->since = ns;
    if (!np || !ns)
        return false;
    g->cap = cap;
    return true;
}

/* D takes S's record (positions and capture counts), keeping its search. */
static bool mg_take(MancalaGame *d, const MancalaGame *s) {
    if (!mg_reserve(d, s->n))
        return false;
    memcpy(d->pos, s->pos, (size_t)s->n * sizeof *s->pos);
    memcpy(d->since, s->since, (size_t)s->n * sizeof *s->since);
    d->n = s->n;
    return true;
}

static bool mg_assign(void *dst, const void *src) {
    const MancalaGame *d = dst, *s = src;
    return d->pos[0].rules == s->pos[0].rules && mg_take(dst, s);
}

static void mg_destroy(void *st) {
    MancalaGame *g = st;
    if (!g)
        return;
    msearch_free(g->search);
    free(g->pos);
    free(g->since);
    free(g);
}

static void *mg_copy(const void *st) {
    MancalaGame *g = calloc(1, sizeof *g);
    if (g && mg_take(g, st))
        return g;
    mg_destroy(g);
    return NULL;
}

/* Index of the first position that can still recur: after the last capture or store move. */
static int repeat_floor(const MancalaGame *g) {
    const MancalaPos *c = cur(g);
    int k = g->n - 1;
    while (k > 0 && g->pos[k - 1].store[0] == c->store[0] &&
           g->pos[k - 1].store[1] == c->store[1] && g->pos[k - 1].used[0] == c->used[0] &&
           g->pos[k - 1].used[1] == c->used[1])
        k--;
    return k;
}

static GameResult mg_result(void *st) {
    MancalaGame *g = st;
    GameResult r;
    memset(&r, 0, sizeof r);
    const MancalaPos *p = cur(g);
    const char *cause = NULL;
    if (mancala_over(p)) {
        if (p->rules & MANCALA_VAR_B)
            cause = "board empty";
        else
            cause = mancala_ring_eggs(p, 0) == 0 ? "ring of A empty" : "ring of B empty";
    } else {
        int seen = 0;
        for (int k = repeat_floor(g); k < g->n; k++)
            seen += mancala_same(&g->pos[k], p);
        if (seen >= 3)
            cause = "threefold repetition";
        else if (g->since[g->n - 1] >= 100)
            cause = "100 plies without capture";
    }
    if (!cause)
        return r;
    int a = p->store[0], b = p->store[1];
    int hi = a > b ? a : b, lo = a > b ? b : a;
    const char *how = a == b ? "equal stores" : "higher store";
    r.kind = a == b ? RESULT_DRAW : a > b ? RESULT_FIRST_WINS : RESULT_SECOND_WINS;
    if (mancala_over(p))
        snprintf(r.reason, sizeof r.reason, "%s %d-%d, %s", how, hi, lo, cause);
    else
        snprintf(r.reason, sizeof r.reason, "%s, %s %d-%d", cause, how, hi, lo);
    return r;
}

static uint64_t mg_perft(void *st, int depth, const atomic_bool *stop) {
    MancalaGame *g = st;
    return mancala_perft(cur(g), depth, stop);
}

static uint64_t mg_divide(void *st, int depth, DivideCallback cb, void *ud,
                          const atomic_bool *stop) {
    MancalaGame *g = st;
    if (depth <= 0)
        return 1;
    MancalaMove mv[MANCALA_MAX_MOVES];
    int n = mancala_moves(cur(g), mv);
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        MancalaPos c;
        mancala_play(cur(g), mv[i], &c);
        uint64_t cnt = mancala_perft(&c, depth - 1, stop);
        total += cnt;
        if (cb) {
            char t[MANCALA_MOVE_TEXT];
            mancala_move_text(mv[i], t, sizeof t);
            cb(t, cnt, ud);
        }
    }
    return total;
}

static int mg_legal_moves(void *st, char (*out)[ENGINE_MOVE_TEXT], int max, bool san) {
    (void)san; /* one text per move */
    MancalaGame *g = st;
    if (mg_result(g).kind != RESULT_NONE)
        return 0;
    MancalaMove mv[MANCALA_MAX_MOVES];
    int n = mancala_moves(cur(g), mv);
    for (int i = 0; i < n && i < max && out; i++)
        mancala_move_text(mv[i], out[i], ENGINE_MOVE_TEXT);
    return n;
}

/* Reads MOVE as a legal move of the current position (the game record's
 * rules too: repetition, the 100-ply rule); false + reason otherwise. */
static bool legal_move(MancalaGame *g, const char *move, MancalaMove *m, char *err, size_t errlen) {
    GameResult r = mg_result(g);
    if (r.kind != RESULT_NONE) {
        mancala_set_err(err, errlen, "the game is over (%s)", r.reason);
        return false;
    }
    return mancala_parse_move(cur(g), move, m, err, errlen);
}

/* One move for drawing and input: its text is its SAN; from is the
 * sown hole (none for a pass). */
static void describe_move(MancalaMove m, MoveDesc *d) {
    memset(d, 0, sizeof *d);
    mancala_move_text(m, d->text, sizeof d->text);
    snprintf(d->san, sizeof d->san, "%s", d->text);
    d->from = m & MANCALA_M_PASS ? -1 : m & 15;
    d->to = -1;
    d->kind = 'm';
}

static bool mg_describe(void *st, const char *move, MoveDesc *out, char *err, size_t errlen) {
    MancalaMove m;
    if (!legal_move(st, move, &m, err, errlen))
        return false;
    describe_move(m, out);
    return true;
}

static int mg_moves(void *st, MoveDesc *out, int max) {
    MancalaGame *g = st;
    if (mg_result(g).kind != RESULT_NONE)
        return 0;
    MancalaMove mv[MANCALA_MAX_MOVES];
    int n = mancala_moves(cur(g), mv);
    for (int i = 0; i < n && i < max; i++)
        describe_move(mv[i], &out[i]);
    return n;
}

static bool mg_play(void *st, const char *move, char *err, size_t errlen) {
    MancalaGame *g = st;
    MancalaMove m;
    if (!legal_move(g, move, &m, err, errlen))
        return false;
    if (g->n == g->cap && !mg_reserve(g, g->cap * 2)) {
        mancala_set_err(err, errlen, "out of memory");
        return false;
    }
    int captured = mancala_play(&g->pos[g->n - 1], m, &g->pos[g->n]);
    g->since[g->n] = captured ? 0 : g->since[g->n - 1] + 1;
    g->n++;
    return true;
}

static bool mg_undo(void *st) {
    MancalaGame *g = st;
    if (g->n <= 1)
        return false;
    g->n--;
    return true;
}

static void mg_position_text(const void *st, char *buf, size_t len) {
    mancala_print(cur(st), buf, len);
}

static Side mg_side_to_move(const void *st) {
    return cur(st)->side ? SIDE_SECOND : SIDE_FIRST;
}

typedef struct {
    const SearchCallbacks *cb;
} InfoRelay;

static void relay_info(const MSearchInfo *mi, void *ud) {
    const InfoRelay *rel = ud;
    if (!rel->cb || !rel->cb->info)
        return;
    SearchInfo si;
    memset(&si, 0, sizeof si);
    si.multipv = mi->multipv;
    si.depth = mi->depth;
    si.seldepth = mi->seldepth;
    si.score = mi->score;
    si.exact = mi->exact;
    si.nodes = mi->nodes;
    si.time_ms = (int)mi->ms;
    si.nps = mi->ms > 0 ? (uint64_t)((double)mi->nodes * 1000.0 / mi->ms) : 0;
    size_t o = 0;
    for (int i = 0; i < mi->pvlen; i++) {
        char t[MANCALA_MOVE_TEXT];
        mancala_move_text(mi->pv[i], t, sizeof t);
        size_t tl = strlen(t);
        if (o + tl + 2 > sizeof si.pv)
            break;
        if (o)
            si.pv[o++] = ' ';
        memcpy(si.pv + o, t, tl + 1);
        o += tl;
    }
    rel->cb->info(&si, rel->cb->ud);
}

static bool mg_go(void *st, const SearchLimits *lim, const SearchCallbacks *cb, atomic_bool *stop,
                  char *best, size_t len) {
    MancalaGame *g = st;
    if (best && len)
        best[0] = 0;
    if (mg_result(g).kind != RESULT_NONE)
        return false;
    if (!g->search) {
        g->search = msearch_new(32);
        if (!g->search)
            return false;
    }
    const MancalaPos *p = cur(g);
    MSearchLimits ml;
    memset(&ml, 0, sizeof ml);
    SearchLimits none;
    if (!lim) {
        memset(&none, 0, sizeof none);
        lim = &none;
    }
    ml.depth = lim->depth > 0 ? lim->depth : 0;
    ml.nodes = lim->nodes;
    ml.level = lim->level;
    ml.multipv = lim->multipv;
    int side = p->side;
    if (!lim->infinite) {
        if (lim->movetime_ms > 0) {
            ml.time_ms = lim->movetime_ms;
            ml.fixed_time = true;
        } else if (lim->time_ms[side] > 0) {
            double left = lim->time_ms[side], inc = lim->inc_ms[side] > 0 ? lim->inc_ms[side] : 0;
            int togo = lim->movestogo > 0 ? lim->movestogo : 30;
            double t = left / togo + inc * 0.8;
            if (t > left * 0.4)
                t = left * 0.4;
            ml.time_ms = t < 5 ? 5 : t;
        } else if (ml.depth == 0 && ml.nodes == 0) {
            ml.time_ms = 1000; /* no limit given: think one second */
        }
    }
    ml.seed = (uint64_t)(mancala_clock_ms() * 1000.0) | 1;
    ml.stop = stop;
    InfoRelay rel = {cb};
    ml.info = relay_info;
    ml.ud = &rel;
    /* positions since the last capture or store move, for the repetition rule */
    int floor = repeat_floor(g), nh = g->n - 1 - floor;
    uint64_t *hist = nh > 0 ? malloc((size_t)nh * sizeof *hist) : NULL;
    if (nh > 0 && !hist)
        nh = 0;
    for (int i = 0; i < nh; i++)
        hist[i] = mancala_hash(&g->pos[floor + i]);
    MancalaMove m = msearch_go(g->search, p, hist, nh, g->since[g->n - 1], &ml, NULL);
    free(hist);
    if (m == MANCALA_MOVE_NONE)
        return false;
    if (best && len) {
        char t[MANCALA_MOVE_TEXT];
        mancala_move_text(m, t, sizeof t);
        snprintf(best, len, "%s", t);
    }
    return true;
}

static void mancala_clear(void *st) {
    MancalaGame *g = st;
    if (g->search)
        msearch_clear(g->search);
}

const GameOps game_mancala_ops = {
    .names = mancala_names,
    .titles = mancala_titles,
    .create = mg_create,
    .destroy = mg_destroy,
    .copy = mg_copy,
    .assign = mg_assign,
    .clear = mancala_clear,
    .perft = mg_perft,
    .divide = mg_divide,
    .legal_moves = mg_legal_moves,
    .play = mg_play,
    .undo = mg_undo,
    .position_text = mg_position_text,
    .side_to_move = mg_side_to_move,
    .result = mg_result,
    .go = mg_go,
    .describe = mg_describe,
    .moves = mg_moves,
    .bench = mancala_bench,
};

/* ---- endgame databases ---- */

void engine_set_data_dir(const char *dir) {
    char path[4096];
    snprintf(path, sizeof path, "%s/egdb", dir && *dir ? dir : "data");
    mancala_db_set_dir(path);
}

/* The table a rule set's name uses: variant A plays on the base table, A+B on B's. */
static int egdb_rules(const char *name, char *err, size_t errlen) {
    if (name && (!strcmp(name, "base") || !strcmp(name, "a")))
        return MANCALA_BASE;
    if (name && (!strcmp(name, "b") || !strcmp(name, "ab")))
        return MANCALA_VAR_B;
    mancala_set_err(err, errlen, "unknown rule set '%s' (base, a, b or ab)",
                    name ? name : "(null)");
    return -1;
}

static void egdb_path(int rules, char *path, size_t len) {
    snprintf(path, len, "%s/%s", mancala_db_dir(), mancala_db_file_name(rules));
}

int engine_egdb_check(const char *rules, char *path, size_t pathlen, char *err, size_t errlen) {
    int r = egdb_rules(rules, err, errlen);
    if (r < 0)
        return -1;
    egdb_path(r, path, pathlen);
    MancalaDb *db = mancala_db_open(path, r, err, errlen);
    int eggs = mancala_db_eggs(db);
    mancala_db_free(db);
    return db ? eggs : -1;
}

/* Makes DIR and its parents. */
static bool make_dirs(const char *dir, char *err, size_t errlen) {
    char p[4096];
    snprintf(p, sizeof p, "%s", dir);
    for (char *c = p + 1;; c++) {
        if (*c == '/' || !*c) {
            char keep = *c;
            *c = 0;
            if (mkdir(p, 0777) != 0 && errno != EEXIST) {
                mancala_set_err(err, errlen, "cannot make folder %s: %s", p, strerror(errno));
                return false;
            }
            if (!keep)
                return true;
            *c = keep;
        }
    }
}

typedef struct {
    const EgdbCallbacks *cb;
} EgdbRelay;

static void relay_progress(int layer, int pass, double done, void *ud) {
    const EgdbRelay *rel = ud;
    if (rel->cb && rel->cb->progress)
        rel->cb->progress(layer, pass, done, rel->cb->ud);
}

/* Layers up to this many eggs (base rules, variant B) are built first, to time the
 * machine for the estimate. */
#define EGDB_CALIBRATE 9
#define EGDB_CALIBRATE_B 5

int engine_egdb_build(const char *rules, int eggs, int threads, const EgdbCallbacks *cb, char *err,
                      size_t errlen) {
    int r = egdb_rules(rules, err, errlen);
    if (r < 0)
        return -1;
    if (eggs < 0 || eggs > MANCALA_DB_MAX_EGGS) {
        mancala_set_err(err, errlen, "egg count %d out of range (0 to %d)", eggs,
                        MANCALA_DB_MAX_EGGS);
        return -1;
    }
    char path[4200];
    egdb_path(r, path, sizeof path);
    if (!make_dirs(mancala_db_dir(), err, errlen))
        return -1;
    MancalaDb *db = mancala_db_new(r);
    if (!db) {
        mancala_set_err(err, errlen, "out of memory");
        return -1;
    }
    /* a valid file of fewer eggs is a start */
    MancalaDb *old = access(path, F_OK) == 0 ? mancala_db_open(path, r, NULL, 0) : NULL;
    if (old && mancala_db_eggs(old) < eggs && !mancala_db_copy(db, old)) {
        mancala_db_free(old);
        mancala_db_free(db);
        mancala_set_err(err, errlen, "out of memory");
        return -1;
    }
    mancala_db_free(old);
    EgdbRelay rel = {cb};
    MancalaDbBuild opt = {.threads = threads, .progress = relay_progress, .ud = &rel, .goal = eggs};
    /* Step 1. Time one small layer alone, in the table when it still lacks that layer,
     * else (a build that goes on from a file) in a scratch table: scaled by the layers'
     * sizes (and a little more per egg, as the passes grow), it estimates the rest. */
    int have = mancala_db_eggs(db);
    int cal = r ? EGDB_CALIBRATE_B : EGDB_CALIBRATE;
    if (cal > eggs)
        cal = eggs;
    bool scratch = cal <= have;
    MancalaDb *timed = scratch ? mancala_db_new(r) : db;
    MancalaDbBuild quiet = opt;
    if (scratch)
        quiet.progress = NULL;
    bool ok = timed && mancala_db_build(timed, cal - 1, &quiet) == cal - 1;
    double t0 = mancala_clock_ms();
    ok = ok && mancala_db_build(timed, cal, &quiet) == cal;
    double cal_ms = mancala_clock_ms() - t0, est = scratch ? 0 : cal_ms;
    if (scratch)
        mancala_db_free(timed);
    uint64_t cal_size = mancala_db_positions(r, cal) - mancala_db_positions(r, cal - 1);
    for (int n = (scratch ? have : cal) + 1; n <= eggs; n++) {
        uint64_t size = mancala_db_positions(r, n) - mancala_db_positions(r, n - 1);
        double grow = 1.0;
        for (int k = cal; k < n; k++)
            grow *= 1.12;
        est += cal_ms * (double)size / (double)cal_size * grow;
    }
    /* Step 2. Say what comes, then build the rest and write the file. */
    if (cb && cb->estimate)
        cb->estimate(path, mancala_db_positions(r, eggs) + 48, est / 1000.0, cb->ud);
    int built = ok ? mancala_db_build(db, eggs, &opt) : mancala_db_eggs(db);
    int rc = 0;
    if (built < eggs) {
        mancala_set_err(err, errlen, "out of memory at layer %d", built + 1);
        rc = -1;
    } else if (!mancala_db_save(db, path, err, errlen)) {
        rc = -1;
    }
    mancala_db_free(db);
    /* the searches of this process see the new file */
    mancala_db_set_dir(mancala_db_dir());
    return rc;
}
