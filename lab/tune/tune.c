/* tune.c - Texel tuning of the evaluation's weights from self-play games.
 *
 * Usage: tune GAME [GAMES.pgn...] [--games N] [--nodes N] [--seed N]
 *             [--passes N] [--skip PLIES] [--band PCT] [--limit N] [--no-edge]
 *             [--tables STEPS] [--table-band CP] [--table-l2 X] [--square-mirror]
 *             [--only squares|mobility] [--weights NAME,...] [--save FILE]
 *             [--dump FILE [--every]] [--positions FILE] [--lambda L]
 * (lab/tune/tune.sh runs this). The games are played here (--games N
 * self-play games at --nodes a move, from random set-ups and 8 random
 * plies, through the engine API in this one process; --save appends them
 * to a PGN file, which later fits may read instead of playing them again)
 * or read from PGN files (after the first --skip plies). Every position
 * that is quiet - not in check, no capture or promotion that wins material
 * by static exchange, no win square in reach - is kept with the game's
 * result. The weights (eval.h: global ones and per piece type) are then
 * fitted by Texel's method: the mean squared error between the result and
 * a logistic function of the static evaluation, 1 / (1 + 10^(-K (s + E) /
 * 400)), is lowered by coordinate descent (each weight up or down by a
 * step while that helps, steps halving when a pass finds nothing), each
 * weight kept within --band percent (default 30, at least 8) of where it
 * started. K and E, White's edge in the results whatever the position
 * (refitted after every pass), are fitted first; E is no weight of the
 * evaluation but keeps a side's better results from being put down to
 * pieces only that side owns (--no-edge leaves it at 0). --weights
 * fits the named weights only and leaves the others as they are.
 * --dump writes the quiet positions as lines "FEN;RESULT" (White's score)
 * and stops (with --every all positions, for studies of the games rather
 * than fits); lab/tune/label.sh adds ";SCORE", a stronger engine's score of
 * each (White's view, centipawns), and --positions reads such lines back.
 * A scored position's target is then lambda x the engine's expectation
 * (its score through the logistic curve, scaled to fit the results best)
 * plus (1 - lambda) x the game's result (--lambda, default 1): the engine's
 * judgement of a position says far more than one game's result does.
 * With --tables STEPS the table weights (eval.h: per piece type and square,
 * per piece type and number of moves; --only one of them) are fitted after
 * the passes by gradient steps (fit_tables).
 * Progress goes to stderr; the weights that differ from the built-in
 * estimates go to stdout as `eval=` lines for the game's weights file
 * (src/variants/weights/GAME.eval, which lab/tune/tune.sh writes). */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/movegen.h"
#include "core/position.h"
#include "core/variant.h"
#include "engine/engine.h"
#include "search/eval.h"
#include "search/movepick.h"
#include "variants/loader.h"

#define MAX_GAMES 100000
#define MAX_INPUTS 64 /* PGN files, and --positions files; more are refused */

typedef struct {
    Position *pos; /* the head of a Position (no history) */
    float *result; /* White's score: 1, 0.5, 0; a scored position's target */
    float *score;  /* a stronger engine's score (White's view, cp); NAN: none */
    int n, cap;
    uint64_t seen[MAX_GAMES]; /* hashes of the games read */
    int nseen;
} Data;

#define POS_HEAD offsetof(Position, hist)
#define GAME_PLIES 4096

/* calloc and realloc that end the tuner when memory runs out. */
static void *alloc_or_die(size_t n) {
    void *p = calloc(n ? n : 1, 1);
    if (!p) {
        fprintf(stderr, "tune: out of memory\n");
        exit(1);
    }
    return p;
}

static void *grow_or_die(void *p, size_t n) {
    p = realloc(p, n ? n : 1);
    if (!p) {
        fprintf(stderr, "tune: out of memory\n");
        exit(1);
    }
    return p;
}

static void data_add(Data *d, const Position *p, float r, float score) {
    if (d->n == d->cap) {
        d->cap = d->cap ? 2 * d->cap : 4096;
        d->pos = grow_or_die(d->pos, (size_t)d->cap * POS_HEAD);
        d->result = grow_or_die(d->result, (size_t)d->cap * sizeof *d->result);
        d->score = grow_or_die(d->score, (size_t)d->cap * sizeof *d->score);
    }
    memcpy((char *)d->pos + (size_t)d->n * POS_HEAD, p, POS_HEAD);
    d->score[d->n] = score;
    d->result[d->n++] = r;
}

static const Position *data_pos(const Data *d, int i) {
    return (const Position *)(const void *)((const char *)d->pos + (size_t)i * POS_HEAD);
}

/* Quiet: not in check, no winning capture or promotion, no win in one
 * (by e's values). Every position is kept when e is NULL (--every). */
static bool quiet(Position *pos, const Eval *e) {
    if (!e)
        return true;
    if (movegen_in_check(pos))
        return false;
    MoveList ml;
    movegen_legal(pos, &ml);
    if (!ml.n)
        return false;
    for (int i = 0; i < ml.n; i++) {
        Move m = ml.m[i];
        if (move_promo(m) || movepick_wins(pos, m))
            return false;
        if (movepick_is_noisy(pos, m) && movepick_see(pos, e, m) > 0)
            return false;
    }
    return true;
}

/* The quiet positions of one PGN game (every one when e is NULL); false
 * when it cannot be read. */
static bool read_game(const char *text, const Variant *v, const Eval *e, int skip, Data *d,
                      Position *pos) {
    char err[ENGINE_ERR_LEN];
    const char *res = strstr(text, "[Result \"");
    if (!res)
        return false;
    res += 9;
    float r = !strncmp(res, "1-0", 3)   ? 1.0f
              : !strncmp(res, "0-1", 3) ? 0.0f
              : !strncmp(res, "1/2", 3) ? 0.5f
                                        : -1;
    if (r < 0)
        return false;
    Game *g = engine_import(text, err, sizeof err);
    if (!g)
        return false;
    static char moves[GAME_PLIES][ENGINE_MOVE_TEXT];
    int n = engine_history(g, moves, GAME_PLIES, false);
    /* a game seen before (deterministic engines replay a pair's game with
     * colours swapped) adds nothing */
    uint64_t h = 1469598103934665603ull;
    for (int i = 0; i < n; i++)
        for (const char *c = moves[i]; *c; c++)
            h = (h ^ (unsigned char)*c) * 1099511628211ull ^ (uint64_t)i;
    for (int i = 0; i < d->nseen; i++)
        if (d->seen[i] == h) {
            engine_free(g);
            return false;
        }
    if (d->nseen < MAX_GAMES)
        d->seen[d->nseen++] = h;
    char fen[1024];
    engine_initial_text(g, fen, sizeof fen);
    Game *replay = engine_new(v->name, fen, err, sizeof err);
    engine_free(g);
    if (!replay)
        return false;
    for (int i = 0; i < n; i++) {
        if (!engine_play(replay, moves[i], err, sizeof err))
            break;
        if (i + 1 < skip)
            continue;
        engine_position_text(replay, fen, sizeof fen);
        if (pos_from_fen(pos, v, fen, err, sizeof err) || !quiet(pos, e))
            continue;
        data_add(d, pos, r, NAN);
    }
    engine_free(replay);
    return true;
}

static unsigned rnd(uint64_t *s) {
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (unsigned)(*s >> 33);
}

/* Appends game g, numbered round, to save as PGN: a game cut off at 300
 * plies (cut: the rules left it open) as a draw. */
static void save_game(FILE *save, Game *g, int round, bool cut) {
    static char buf[1 << 17];
    char num[16];
    snprintf(num, sizeof num, "%d", round);
    const char *tags[] = {"Event",
                          "Menagerie self-play",
                          "Round",
                          num,
                          "White",
                          "Menagerie",
                          "Black",
                          "Menagerie",
                          "Result",
                          "1/2-1/2",
                          cut ? "Termination" : NULL,
                          "adjudicated: 300 plies",
                          NULL};
    if (engine_export(g, tags, buf, sizeof buf) < 0 || fprintf(save, "%s\n", buf) < 0) {
        fprintf(stderr, "tune: cannot save game %d\n", round);
        exit(1);
    }
}

/* Self-play in this process: GAMES games at NODES nodes a move, each from
 * a random set-up and 8 random plies, to 300 plies at most (then a draw).
 * Every position after the openings with its game's result goes to d (the
 * quiet ones, or all when e is NULL); each game to save (may be NULL). */
static void self_play(const Variant *v, const Eval *e, int games, long nodes, uint64_t seed,
                      FILE *save, Data *d) {
    char err[ENGINE_ERR_LEN], fen[1024], best[ENGINE_MOVE_TEXT];
    MoveDesc *m = malloc(ENGINE_MAX_MOVES * sizeof *m);
    Position *pos = malloc(sizeof *pos);
    char(*fens)[256] = malloc(300 * sizeof *fens);
    if (!m || !pos || !fens)
        exit(1);
    const char *const *setups = engine_setups(v->name);
    int nset = 0;
    while (setups[nset])
        nset++;
    SearchLimits lim;
    memset(&lim, 0, sizeof lim);
    lim.nodes = (uint64_t)nodes;
    lim.hash_mb = 16;
    int wins = 0, losses = 0, draws = 0;
    for (int gi = 0; gi < games; gi++) {
        Game *g;
        if (nset && !engine_start_fen(v->name, setups[rnd(&seed) % (unsigned)nset], fen, sizeof fen,
                                      err, sizeof err))
            g = engine_new(v->name, fen, err, sizeof err);
        else
            g = engine_new(v->name, NULL, err, sizeof err);
        if (!g)
            exit(1);
        for (int p = 0; p < 8; p++) {
            int n = engine_moves(g, m, ENGINE_MAX_MOVES);
            if (n <= 0 || !engine_play(g, m[rnd(&seed) % (unsigned)n].text, err, sizeof err) ||
                engine_result(g).kind != RESULT_NONE)
                break;
        }
        int nf = 0;
        GameResult r = engine_result(g);
        while (r.kind == RESULT_NONE && nf < 300) {
            engine_position_text(g, fens[nf], sizeof fens[nf]);
            nf++;
            if (!engine_go(g, &lim, NULL, best, sizeof best) ||
                !engine_play(g, best, err, sizeof err))
                break;
            r = engine_result(g);
        }
        float res = r.kind == RESULT_FIRST_WINS ? 1.0f : r.kind == RESULT_SECOND_WINS ? 0.0f : 0.5f;
        wins += res == 1.0f, losses += res == 0.0f, draws += res == 0.5f;
        if (save)
            save_game(save, g, gi + 1, r.kind == RESULT_NONE);
        for (int i = 0; i < nf; i++)
            if (!pos_from_fen(pos, v, fens[i], err, sizeof err) && quiet(pos, e))
                data_add(d, pos, res, NAN);
        engine_free(g);
        fprintf(stderr, "\rself-play: game %d/%d (+%d -%d =%d for White), %d %spositions", gi + 1,
                games, wins, losses, draws, d->n, e ? "quiet " : "");
    }
    fprintf(stderr, "\n");
    free(m);
    free(pos);
    free(fens);
}

static void read_pgn(const char *path, const Variant *v, const Eval *e, int skip, Data *d) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "tune: cannot read %s\n", path);
        exit(2);
    }
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)len + 1);
    Position *pos = malloc(sizeof *pos);
    if (!text || !pos || fread(text, 1, (size_t)len, f) != (size_t)len) {
        fprintf(stderr, "tune: cannot read %s\n", path);
        exit(2);
    }
    text[len] = 0;
    fclose(f);
    int games = 0, bad = 0; /* bad: unreadable or repeated */
    for (char *p = strstr(text, "[Event "); p;) {
        char *next = strstr(p + 1, "\n[Event ");
        if (next)
            *next = 0;
        if (read_game(p, v, e, skip, d, pos))
            games++;
        else
            bad++;
        p = next ? next + 1 : NULL;
        fprintf(stderr, "\r%s: %d games, %d positions", path, games, d->n);
    }
    fprintf(stderr, ", %d games unreadable or repeated\n", bad);
    free(text);
    free(pos);
}

/* One line "FEN;RESULT[;SCORE]" into pos, *r and *score (NAN when none);
 * false when it is not one. */
static bool parse_position(char *line, const Variant *v, Position *pos, float *r, float *score) {
    char err[ENGINE_ERR_LEN], *end;
    line[strcspn(line, "\r\n")] = 0;
    char *semi = strchr(line, ';');
    if (!semi)
        return false;
    *semi = 0;
    double res = strtod(semi + 1, &end);
    if (end == semi + 1 || (res != 0 && res != 0.5 && res != 1))
        return false;
    double sc = NAN;
    if (*end == ';') {
        char *at = end + 1;
        sc = strtod(at, &end);
        if (end == at || !isfinite(sc))
            return false;
    }
    if (*end || pos_from_fen(pos, v, line, err, sizeof err))
        return false;
    *r = (float)res;
    *score = (float)sc;
    return true;
}

/* The positions of a file of such lines (--dump, lab/tune/label.sh). */
static void read_positions(const char *path, const Variant *v, Data *d) {
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "tune: cannot read %s\n", path);
        exit(2);
    }
    Position *pos = alloc_or_die(sizeof *pos);
    char line[2048];
    float r, score;
    int before = d->n;
    for (int n = 1; fgets(line, sizeof line, f); n++) {
        if (!parse_position(line, v, pos, &r, &score)) {
            fprintf(stderr, "tune: %s:%d: not a line FEN;RESULT[;SCORE]\n", path, n);
            exit(2);
        }
        data_add(d, pos, r, score);
    }
    fclose(f);
    free(pos);
    fprintf(stderr, "%s: %d positions\n", path, d->n - before);
}

/* --dump: every position as a line "FEN;RESULT"; false when it cannot be written. */
static bool dump_positions(const char *path, const Data *d) {
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    char fen[1024];
    for (int i = 0; i < d->n; i++) {
        pos_to_fen(data_pos(d, i), fen, sizeof fen);
        fprintf(f, "%s;%g\n", fen, d->result[i]);
    }
    bool ok = !ferror(f);
    return !fclose(f) && ok;
}

static double logistic(double k, double s) {
    return 1.0 / (1.0 + pow(10.0, -k * s / 400.0));
}

/* The squared error of the scores' expectations at scale k against the results. */
static double score_error(const Data *d, double k) {
    double sum = 0;
    for (int i = 0; i < d->n; i++)
        if (!isnan(d->score[i])) {
            double y = d->result[i] - logistic(k, d->score[i]);
            sum += y * y;
        }
    return sum;
}

/* The scored positions' targets: lambda x the score's expectation, on the
 * logistic curve whose scale predicts the results best, plus (1 - lambda)
 * x the result. */
static void blend_scores(Data *d, double lambda) {
    double k = 1.0, best = score_error(d, k);
    for (double step = 0.5; step >= 0.001; step /= 2)
        for (int dir = -1; dir <= 1; dir += 2)
            for (double x = k + dir * step, y; x > 0.01 && (y = score_error(d, x)) < best;
                 x += dir * step)
                best = y, k = x;
    int n = 0;
    for (int i = 0; i < d->n; i++)
        if (!isnan(d->score[i])) {
            d->result[i] = (float)(lambda * logistic(k, d->score[i]) + (1 - lambda) * d->result[i]);
            n++;
        }
    if (n)
        fprintf(stderr, "%d positions scored, their scale K %.3f, error of the scores %.6f\n", n, k,
                best / n);
}

/* White's view of the static evaluation. */
static double white_eval(const Eval *e, const Position *p) {
    int s = eval_evaluate(e, p);
    return p->stm == WHITE ? s : -s;
}

/* The logistic model's two numbers besides the weights: its scale K, and
 * White's edge - what the results give White in every position, whatever
 * the material. Without the edge, a game whose two sides own different
 * pieces (Mongooses against Snakes) would explain a side's better results
 * by that side's pieces alone and drift their values apart. */
typedef struct {
    double k, edge;
} Fit;

static double error_of(const Eval *e, const Data *d, Fit f) {
    double sum = 0;
    for (int i = 0; i < d->n; i++) {
        double s = white_eval(e, data_pos(d, i)) + f.edge;
        double x = d->result[i] - logistic(f.k, s);
        sum += x * x;
    }
    return sum / (d->n ? d->n : 1);
}

/* Lowers the error err by moving *x (K or the edge, inside f) up or down by
 * step while that helps, then by half the step, down to least; K stays
 * above 0.05 and the edge within 1000. Returns the new error. */
static double fit_one(const Eval *e, const Data *d, Fit *f, double *x, double step, double least,
                      double err) {
    for (; step >= least; step /= 2)
        for (int dir = -1; dir <= 1; dir += 2)
            for (;;) {
                double old = *x;
                *x += dir * step;
                double y = f->k > 0.05 && fabs(f->edge) <= 1000 ? error_of(e, d, *f) : err;
                if (y >= err) {
                    *x = old;
                    break;
                }
                err = y;
            }
    return err;
}

/* Table weights (eval.h: square weights, mobility weights per number of
 * moves) by gradient descent (Adam) on the same error plus l2 times the
 * squared distance of each weight from where it started (so a weight that
 * few positions use stays near it). The score is linear in them: each
 * piece moves it by its square's and its number of moves' weights, blended
 * by the game phase, so one pass over the positions gives every weight's
 * gradient. With mirror, a square and its twin (reflect) share their
 * weights. Weights used in fewer than MIN_SEEN positions stay
 * where they are; the others stay within band of where they started, and
 * together they leave the start position's score as it was. Every eighth
 * block of HOLD_BLOCK positions (about ten games) is held out: its error,
 * printed beside the others', shows whether the fit learns the games or
 * their noise. The scaling of bare endings is left out of the gradient,
 * not out of the error that is returned. */
#define MIN_SEEN 200
#define HOLD_BLOCK 1024
#define MAX_TERMS (2 * MAX_SQ)
/* Whether name is one of the comma-separated names of list (NULL: all). */
static bool listed(const char *list, const char *name) {
    for (const char *p = list; p;) {
        size_t len = strcspn(p, ",");
        if (len == strlen(name) && !strncmp(p, name, len))
            return true;
        p = p[len] ? p + len + 1 : NULL;
    }
    return !list;
}

static bool held_out(int i) {
    return i / HOLD_BLOCK % 8 == 7;
}

typedef struct {
    int steps, band;
    double l2;
    bool mirror;         /* squares twinned by reflect */
    bool squares, moves; /* which tables */
} TableFit;

/* The image of square sq (rank * files + file) under the board's reflection
 * across its middle file, or across its a1 diagonal (files == ranks). */
static int reflect(const Variant *v, bool diagonal, int sq) {
    int f = sq_file(v, sq), r = sq_rank(v, sq);
    return diagonal ? f * v->files + r : r * v->files + v->files - 1 - f;
}

/* Does the start position look more alike across the a1 diagonal than
 * across the middle file? Counts White's pieces whose image holds a White
 * piece of the same type (chess: the middle file; Diamondback, set up along
 * the diagonal: the diagonal). */
static bool diagonal_twins(const Variant *v, const Position *start) {
    if (v->files != v->ranks)
        return false;
    int alike[2] = {0, 0};
    for (int k = 0; k < 2; k++)
        for (int sq = 0; sq < v->files * v->ranks; sq++) {
            Piece p = start->board[sq];
            alike[k] +=
                p != EMPTY && piece_color(p) == WHITE && start->board[reflect(v, k, sq)] == p;
        }
    return alike[1] > alike[0];
}

/* The table weights position p uses that are fitted (those with an
 * endgame pair in eg_of), as mg index << 1 | colour. */
static int fitted_terms(const Eval *e, const int *eg_of, const Position *p, int *terms) {
    int n = eval_table_terms(e, p, terms, MAX_TERMS), k = 0;
    for (int j = 0; j < n; j++)
        if (eg_of[terms[j] >> 1] >= 0)
            terms[k++] = terms[j];
    return k;
}

static double fit_tables(const Variant *v, Eval *e, const Data *d, Fit f, const TableFit *tf,
                         double err) {
    int nw = eval_weight_count(e);
    double *x = alloc_or_die((size_t)nw * sizeof *x), *x0 = alloc_or_die((size_t)nw * sizeof *x0);
    double *g = alloc_or_die((size_t)nw * sizeof *g), *m1 = alloc_or_die((size_t)nw * sizeof *m1);
    double *m2 = alloc_or_die((size_t)nw * sizeof *m2);
    int *eg_of = alloc_or_die((size_t)nw * sizeof *eg_of),
        *lead = alloc_or_die((size_t)nw * sizeof *lead);
    int *seen = alloc_or_die((size_t)nw * sizeof *seen);
    int terms[MAX_TERMS];

    // Step 1. The table weights fitted: each middle-game one with its
    // endgame pair, and the one that leads it (itself, or with mirror the
    // lower of it and its twin).
    Position *start = alloc_or_die(sizeof *start);
    char why[ENGINE_ERR_LEN];
    bool has_start = !pos_from_fen(start, v, v->start_fen, why, sizeof why);
    bool diagonal = has_start && diagonal_twins(v, start);
    if (tf->mirror)
        fprintf(stderr, "tables: squares twinned across the %s\n",
                diagonal ? "a1 diagonal" : "middle file");
    for (int w = 0; w < nw; w++) {
        int t, sq, ph, mg, eg;
        x[w] = x0[w] = eval_weight_get(e, w);
        eg_of[w] = -1;
        lead[w] = w;
        if (!eval_weight_table(e, w, &mg, &eg) || mg != w)
            continue;
        bool square = eval_weight_square(e, w, &t, &sq, &ph);
        if (square ? !tf->squares : !tf->moves)
            continue;
        eg_of[w] = eg;
        int m = square && tf->mirror ? eval_square_weight(e, WHITE, t, reflect(v, diagonal, sq), 0)
                                     : -1;
        if (m >= 0 && m < w)
            lead[w] = m;
    }

    // Step 2. Each position's score, phase and terms.
    float *base = alloc_or_die((size_t)d->n * sizeof *base);
    float *phase = alloc_or_die((size_t)d->n * sizeof *phase);
    int *first = alloc_or_die(((size_t)d->n + 1) * sizeof *first);
    int *feat = NULL, nfeat = 0, cap = 0;
    for (int i = 0; i < d->n; i++) {
        const Position *p = data_pos(d, i);
        base[i] = (float)(white_eval(e, p) + f.edge);
        phase[i] = (float)eval_game_phase(e, p) / 256.0f;
        first[i] = nfeat;
        int n = fitted_terms(e, eg_of, p, terms);
        if (nfeat + n > cap) {
            cap = cap ? 2 * cap : 1 << 20;
            feat = grow_or_die(feat, (size_t)cap * sizeof *feat);
        }
        for (int j = 0; j < n; j++) {
            feat[nfeat++] = terms[j];
            seen[lead[terms[j] >> 1]]++;
        }
    }
    first[d->n] = nfeat;

    // Step 3. What each weight that moves adds to the start position's
    // score (a twin's share counted on its lead), so that the steps can
    // leave that score as it was: it is the balance of the game, which the
    // piece values and White's edge carry, not the tables.
    double *a = alloc_or_die((size_t)nw * sizeof *a), aa = 0;
    if (has_start) {
        double ph = eval_game_phase(e, start) / 256.0;
        int n = fitted_terms(e, eg_of, start, terms);
        for (int j = 0; j < n; j++) {
            int w = lead[terms[j] >> 1], sign = terms[j] & 1 ? -1 : 1;
            if (seen[w] < MIN_SEEN)
                continue;
            a[w] += sign * ph;
            a[eg_of[w]] += sign * (1 - ph);
        }
    }
    for (int w = 0; w < nw; w++)
        aa += a[w] * a[w];
    double start0 = has_start ? white_eval(e, start) : 0;

    // Step 4. Adam steps, the step size falling to nothing, each followed
    // by the nearest move that leaves the start position's score as it was
    // (with sides alike, as in chess, every move does; the move may take a
    // weight a little past its band).
    const double b1 = 0.9, b2 = 0.999, lr0 = 2.0;
    double ln10k = log(10.0) * f.k / 400.0, held0 = 0;
    for (int it = 1; it <= tf->steps; it++) {
        memset(g, 0, (size_t)nw * sizeof *g);
        double sum[2] = {0, 0};
        int cnt[2] = {0, 0};
        for (int i = 0; i < d->n; i++) {
            double s = base[i], ph = phase[i];
            for (int j = first[i]; j < first[i + 1]; j++) {
                int w = feat[j] >> 1, eg = eg_of[w], sign = feat[j] & 1 ? -1 : 1;
                s += sign * ((x[w] - x0[w]) * ph + (x[eg] - x0[eg]) * (1 - ph));
            }
            double pr = logistic(f.k, s), r = d->result[i];
            int h = held_out(i);
            sum[h] += (r - pr) * (r - pr);
            cnt[h]++;
            if (h)
                continue;
            double gi = -2 * (r - pr) * pr * (1 - pr) * ln10k / d->n;
            for (int j = first[i]; j < first[i + 1]; j++) {
                int w = lead[feat[j] >> 1], sign = feat[j] & 1 ? -1 : 1;
                g[w] += sign * gi * ph;
                g[eg_of[w]] += sign * gi * (1 - ph);
            }
        }
        double lr = lr0 * (1.0 - (double)(it - 1) / tf->steps);
        for (int w = 0; w < nw; w++) {
            if (eg_of[w] < 0 || seen[lead[w]] < MIN_SEEN)
                continue;
            for (int k = 0; k < 2; k++) {
                int i = k ? eg_of[w] : w, li = k ? eg_of[lead[w]] : lead[w];
                if (li != i) { /* a twin: the lead moved first */
                    x[i] = x[li];
                    continue;
                }
                double gr = g[i] + 2 * tf->l2 * (x[i] - x0[i]);
                m1[i] = b1 * m1[i] + (1 - b1) * gr;
                m2[i] = b2 * m2[i] + (1 - b2) * gr * gr;
                double mh = m1[i] / (1 - pow(b1, it)), vh = m2[i] / (1 - pow(b2, it));
                x[i] -= lr * mh / (sqrt(vh) + 1e-12);
                x[i] = x[i] < x0[i] - tf->band   ? x0[i] - tf->band
                       : x[i] > x0[i] + tf->band ? x0[i] + tf->band
                                                 : x[i];
            }
        }
        if (aa > 1e-9) {
            double moved = 0;
            for (int w = 0; w < nw; w++)
                moved += a[w] * (x[w] - x0[w]);
            for (int w = 0; w < nw; w++)
                x[w] -= a[w] * moved / aa;
            for (int w = 0; w < nw; w++)
                if (eg_of[w] >= 0 && lead[w] != w) {
                    x[w] = x[lead[w]];
                    x[eg_of[w]] = x[eg_of[lead[w]]];
                }
        }
        double held = sum[1] / (cnt[1] ? cnt[1] : 1);
        if (it == 1)
            held0 = held;
        if (it % 10 && it != tf->steps)
            continue;
        fprintf(stderr, "\rtables: step %d/%d, error %.6f", it, tf->steps,
                sum[0] / (cnt[0] ? cnt[0] : 1));
        if (cnt[1])
            fprintf(stderr, ", held out %.6f (start %.6f)", held, held0);
        fprintf(stderr, "  ");
    }

    // Step 5. The rounded weights, and the error the evaluation now gives.
    for (int w = 0; w < nw; w++)
        if (eg_of[w] >= 0 && seen[lead[w]] >= MIN_SEEN) {
            eval_weight_set(e, w, (int)lrint(x[w]));
            eval_weight_set(e, eg_of[w], (int)lrint(x[eg_of[w]]));
        }
    eval_weights_apply(e);
    double now = error_of(e, d, f);
    fprintf(stderr, "\ntables: error %.6f -> %.6f", err, now);
    if (has_start)
        fprintf(stderr, ", start position %+.0f -> %+.0f", start0, white_eval(e, start));
    fprintf(stderr, "\n");
    free(a);
    free(start);
    free(x);
    free(x0);
    free(g);
    free(m1);
    free(m2);
    free(eg_of);
    free(lead);
    free(seen);
    free(base);
    free(phase);
    free(first);
    free(feat);
    return now;
}

/* Adds path to list (n paths, at most MAX_INPUTS); false when it is full. */
static bool keep_input(const char **list, int *n, const char *path) {
    if (*n == MAX_INPUTS)
        return false;
    list[(*n)++] = path;
    return true;
}

int main(int argc, char **argv) {
    const char *game = NULL, *files[MAX_INPUTS];
    int nfiles = 0, passes = 8, skip = 8, band_pct = 30, games = 0;
    TableFit tf = {.steps = 0, .band = 60, .l2 = 1e-8, .squares = true, .moves = true};
    long limit = 0, nodes = 1000;
    uint64_t seed = 1;
    bool edge = true, every = false;
    const char *save_path = NULL, *only_weights = NULL, *dump_path = NULL, *lists[MAX_INPUTS];
    int nlists = 0;
    double lambda = 1.0;
    bool bad = false; /* an option's value refused */
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--games") && i + 1 < argc)
            games = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--nodes") && i + 1 < argc)
            nodes = atol(argv[++i]);
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--passes") && i + 1 < argc)
            passes = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--skip") && i + 1 < argc)
            skip = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--band") && i + 1 < argc)
            band_pct = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--limit") && i + 1 < argc)
            limit = atol(argv[++i]);
        else if (!strcmp(argv[i], "--tables") && i + 1 < argc)
            tf.steps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--table-band") && i + 1 < argc)
            tf.band = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--table-l2") && i + 1 < argc)
            tf.l2 = atof(argv[++i]);
        else if (!strcmp(argv[i], "--square-mirror"))
            tf.mirror = true;
        else if (!strcmp(argv[i], "--only") && i + 1 < argc) {
            const char *kind = argv[++i];
            tf.squares = !strcmp(kind, "squares");
            tf.moves = !strcmp(kind, "mobility");
        } else if (!strcmp(argv[i], "--no-edge"))
            edge = false;
        else if (!strcmp(argv[i], "--save") && i + 1 < argc)
            save_path = argv[++i];
        else if (!strcmp(argv[i], "--weights") && i + 1 < argc)
            only_weights = argv[++i];
        else if (!strcmp(argv[i], "--dump") && i + 1 < argc)
            dump_path = argv[++i];
        else if (!strcmp(argv[i], "--every"))
            every = true;
        else if (!strcmp(argv[i], "--positions") && i + 1 < argc) {
            bad |= !keep_input(lists, &nlists, argv[++i]);
        } else if (!strcmp(argv[i], "--lambda") && i + 1 < argc) {
            char *end;
            lambda = strtod(argv[++i], &end);
            bad |= *end || end == argv[i] || !(lambda >= 0 && lambda <= 1);
        } else if (!game) {
            game = argv[i];
        } else {
            bad |= !keep_input(files, &nfiles, argv[i]);
        }
    }
    if (bad || !game || (!nfiles && !nlists && games <= 0) || passes < 0 || nodes < 1 ||
        tf.steps < 0 || tf.band < 1 || !(tf.l2 >= 0) || !(tf.squares || tf.moves) ||
        (every && !dump_path)) {
        fprintf(stderr,
                "usage: tune GAME [GAMES.pgn...] [--games N] [--nodes N] [--seed N]\n"
                "            [--passes N] [--skip PLIES] [--band PCT] [--limit N] [--no-edge]\n"
                "            [--tables STEPS] [--table-band CP] [--table-l2 X] [--square-mirror]\n"
                "            [--only squares|mobility] [--weights NAME,...] [--save FILE]\n"
                "            [--dump FILE [--every]] [--positions FILE] [--lambda L]\n");
        return 2;
    }
    FILE *save = NULL;
    if (save_path && !(save = fopen(save_path, "a"))) {
        fprintf(stderr, "tune: cannot write %s\n", save_path);
        return 2;
    }
    char err[ENGINE_ERR_LEN];
    Variant *v = variant_load_builtin(game, err, sizeof err);
    if (!v) {
        fprintf(stderr, "tune: %s\n", err);
        return 2;
    }
    /* the built-in estimates: the same variant without its weights */
    Variant *plain = malloc(sizeof *plain);
    if (!plain)
        return 1;
    memcpy(plain, v, sizeof *plain);
    plain->eval[0] = 0;
    Eval *e = eval_new(v), *e0 = eval_new(plain);
    if (!e || !e0)
        return 1;

    // Step 1. The positions.
    static Data d;
    int rc = 0, *step = NULL, *lo = NULL, *hi = NULL;
    for (const char *p = only_weights; p;) { /* each name --weights gives is one of the game's */
        size_t len = strcspn(p, ",");
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)len, p);
        if (eval_weight_index(e, name) < 0) {
            fprintf(stderr, "tune: --weights: %s has no weight \"%s\"\n", game, name);
            rc = 2;
            goto done;
        }
        p = p[len] ? p + len + 1 : NULL;
    }
    const Eval *filter = every ? NULL : e; /* which positions are kept */
    if (games > 0)
        self_play(v, filter, games, nodes, seed, save, &d);
    if (save && fclose(save)) {
        fprintf(stderr, "tune: cannot write %s\n", save_path);
        return 1;
    }
    for (int i = 0; i < nfiles; i++)
        read_pgn(files[i], v, filter, skip, &d);
    for (int i = 0; i < nlists; i++)
        read_positions(lists[i], v, &d);
    if (limit > 0 && d.n > limit)
        d.n = (int)limit;
    if (dump_path) {
        if (!dump_positions(dump_path, &d)) {
            fprintf(stderr, "tune: cannot write %s\n", dump_path);
            rc = 1;
        } else
            fprintf(stderr, "%d positions written to %s\n", d.n, dump_path);
        goto done;
    }
    blend_scores(&d, lambda);
    if (d.n < 100) {
        fprintf(stderr, "tune: only %d quiet positions; play more games\n", d.n);
        rc = 1;
        goto done;
    }

    // Step 2. K, then coordinate descent over the weights.
    Fit f = {1.0, 0.0};
    double err0 = error_of(e, &d, f);
    err0 = fit_one(e, &d, &f, &f.k, 0.5, 0.005, err0);
    if (edge) {
        err0 = fit_one(e, &d, &f, &f.edge, 64, 0.5, err0);
        err0 = fit_one(e, &d, &f, &f.k, 0.05, 0.005, err0);
    }
    double cur = err0;
    fprintf(stderr, "%d positions, K %.3f, White's edge %+.1f, error %.6f\n", d.n, f.k, f.edge,
            err0);
    int nw = eval_weight_count(e);
    step = alloc_or_die((size_t)nw * sizeof *step);
    lo = alloc_or_die((size_t)nw * sizeof *lo);
    hi = alloc_or_die((size_t)nw * sizeof *hi);
    for (int i = 0; i < nw; i++) {
        /* each weight stays within a band around where it started */
        int w = eval_weight_get(e, i), a = abs(w);
        step[i] = a >= 200 ? 10 : a >= 40 ? 4 : a >= 10 ? 2 : 1;
        int band = a * band_pct / 100 > 8 ? a * band_pct / 100 : 8;
        lo[i] = w - band;
        hi[i] = w + band;
    }
    for (int pass = 1; pass <= passes; pass++) {
        int changed = 0;
        for (int i = 0; i < nw; i++) {
            char name[32];
            int mg, eg;
            if (!eval_weight_name(e, i, name, sizeof name) || eval_weight_table(e, i, &mg, &eg) ||
                !listed(only_weights, name))
                continue;
            int w0 = eval_weight_get(e, i);
            bool better = false;
            for (int dir = -1; dir <= 1 && !better; dir += 2)
                for (int w = w0 + dir * step[i]; w >= lo[i] && w <= hi[i]; w += dir * step[i]) {
                    eval_weight_set(e, i, w);
                    eval_weights_apply(e);
                    double x = error_of(e, &d, f);
                    if (x >= cur)
                        break;
                    cur = x, better = true, w0 = w;
                }
            eval_weight_set(e, i, w0);
            eval_weights_apply(e);
            changed += better;
            fprintf(stderr, "\rpass %d/%d: weight %d/%d, error %.6f (start %.6f), %d changed  ",
                    pass, passes, i + 1, nw, cur, err0, changed);
        }
        if (edge)
            cur = fit_one(e, &d, &f, &f.edge, 8, 0.5, cur);
        fprintf(stderr, ", White's edge %+.1f\n", f.edge);
        if (!changed) {
            bool any = false;
            for (int i = 0; i < nw; i++)
                if (step[i] > 1)
                    step[i] /= 2, any = true;
            if (!any)
                break;
        }
    }

    if (tf.steps > 0)
        cur = fit_tables(v, e, &d, f, &tf, cur);

    // Step 3. The weights that differ from the estimates, as eval= lines.
    int col = 0;
    for (int i = 0; i < nw; i++) {
        char name[32];
        if (!eval_weight_name(e, i, name, sizeof name) ||
            eval_weight_get(e, i) == eval_weight_get(e0, i))
            continue;
        printf("%s%s:%d", col ? "," : "eval=", name, eval_weight_get(e, i));
        if (++col == 8) {
            printf("\n");
            col = 0;
        }
    }
    if (col)
        printf("\n");
    fprintf(stderr, "error %.6f -> %.6f over %d positions; White's edge %+.1f (not a weight)\n",
            err0, cur, d.n, f.edge);
done:
    eval_free(e);
    eval_free(e0);
    free(plain);
    variant_free(v);
    free(step);
    free(lo);
    free(hi);
    free(d.pos);
    free(d.result);
    free(d.score);
    return rc;
}
