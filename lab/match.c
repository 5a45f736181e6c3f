/* match.c - `menagerie match`: games between two engines, our engine the
 * referee.
 *
 * Each engine runs as a child process (engine_client.c): this program itself
 * over CECP ("self") or UCI ("self-uci"), or any CECP/UCI engine given as a
 * command. Games come in pairs from one opening, the engines swapping
 * colours: by default the game's built-in opening set (balanced positions a
 * few moves deep, made by `menagerie openings`), else a file of such lines
 * or random plies; a set played through comes again with random plies after
 * each line, so that deterministic engines (fixed nodes or depth) replay no
 * game. --concurrency N runs N pairs at once, each with its own
 * two engine processes. The referee checks every move and ends the game by
 * the rules (engine_result), on time (with a margin), on an illegal move, a
 * resignation, a false claim, a dead engine, or at --maxplies as a draw.
 *
 * Scores: wins, losses and draws with an Elo estimate, and the pentanomial
 * count of game pairs (0, 1/2, 1, 3/2 or 2 points for engine 1), from which
 * the Elo error and the SPRT are computed: the generalised SPRT of
 * Fishtest/cutechess in its normal approximation, LLR = n (s1 - s0)
 * (2 m - s0 - s1) / (2 v) over n pairs with mean pair score m and variance v
 * (scores per game, logistic Elo bounds s = 1 / (1 + 10^(-elo/400))),
 * stopping at log(beta / (1 - alpha)) (H0) or log((1 - beta) / alpha) (H1);
 * mean and variance include a prior of one pair (0.1, 0.2, 0.4, 0.2, 0.1 over
 * the five classes), so that a few like pairs do not decide.
 *
 * --baseline FILE compares engine 1 with the engine 1 of an earlier match
 * (its PGN; baseline.h) that played the same pairs against the same engine
 * 2: engines held to fixed nodes or depth play such a match the same way
 * each time, so each pair's points less the baseline's are the evidence, and
 * the pairs both play alike add nothing but their weight. The SPRT then
 * reads the mean and variance of those differences (a prior pair of
 * differences 0.1, 0.2, 0.4, 0.2, 0.1 over -1/2 .. 1/2 a game), its bounds
 * the scores elo0 and elo1 above the baseline's score would give. */
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "app/proto/proto_io.h"
#include "engine/engine.h"
#include "lab/baseline.h"
#include "lab/engine_client.h"
#include "lab/lab.h"
#include "lab/opening_sets.h"

#define MAX_CONCURRENCY 64
#define REUSE_PLIES 2 /* random plies after a reused opening line: a move each */
/* The most an opening or baseline file may hold. */
#define MATCH_MAX_FILE ((size_t)1 << 30)

typedef struct {
    const char *spec[2];
    const char *opts[2][16];
    int nopts[2];
    const char *variant, *pgn, *openings, *baseline;
    int games, plies, margin_ms, maxplies, concurrency;
    int gui_delay_ms;     /* the least a move is charged (--gui-delay) */
    bool random_openings; /* --plies given: random plies, no opening set */
    unsigned seed;
    ClientTimeControl tc;
    ClientTimeControl tc2; /* engine 2's clock (--tc2), else tc */
    bool trace, quiet;
    bool sprt;
    double elo0, elo1, alpha, beta;
} MatchArgs;

/* How a game ended: the result, the PGN standard's Termination value
 * ("normal", "time forfeit", "adjudication", "rules infraction",
 * "abandoned", ...) and the specific reason, which the PGN keeps in a
 * comment after the moves. */
typedef struct {
    ResultKind kind;
    const char *termination;
    char reason[128];
} Outcome;

/* The usage on OUT; 0 for --help (stdout), else 2. */
static int usage(FILE *out) {
    fprintf(out, "usage: menagerie match [options] ENGINE1 ENGINE2\n"
                 "  ENGINE: self (Menagerie over CECP), self-uci, xboard:COMMAND, uci:COMMAND\n"
                 "  --variant NAME     game (default chess; see `menagerie variants`)\n"
                 "  --games N          number of games, played in pairs (default 2; with --sprt\n"
                 "                     the most it may play, default 20000)\n"
                 "  --tc BASE[+INC]    seconds per game and increment (default 10+0.1)\n"
                 "  --tc2 BASE[+INC]   engine 2's clock when it differs (time odds)\n"
                 "  --st SECONDS       fixed time per move instead of a clock\n"
                 "  --nodes N          fixed nodes per move instead of a clock\n"
                 "  --depth N          fixed depth (with no clock: depth only)\n"
                 "  --openings FILE    opening lines (default: the game's built-in set)\n"
                 "  --plies N          random opening plies instead of an opening set\n"
                 "  --seed N           random seed of the openings (default: time)\n"
                 "  --concurrency N    game pairs played at once (default 1)\n"
                 "  --sprt ELO0,ELO1   stop when the SPRT decides (Elo bounds, logistic)\n"
                 "  --alpha A --beta B SPRT error rates (default 0.05 each)\n"
                 "  --margin MS        time a move may overrun the clock (default 150)\n"
                 "  --gui-delay MS     charge each move at least MS, as a GUI busy drawing\n"
                 "                     the last move does (default 0)\n"
                 "  --maxplies N       adjudicate a draw after N plies (default: never)\n"
                 "  --pgn FILE         append the games as PGN\n"
                 "  --baseline FILE    compare engine 1 pair by pair with engine 1 of an\n"
                 "                     earlier match (its --pgn) of the same pairs\n"
                 "  --opt1/--opt2 NAME=VALUE   engine option (repeatable)\n"
                 "  --trace            protocol traffic to stderr\n"
                 "  --quiet            no per-game lines\n"
                 "  --help             this text\n");
    return out == stdout ? 0 : 2;
}

static bool parse_tc(const char *s, ClientTimeControl *tc) {
    char buf[64], *plus;
    double base, inc = 0;
    snprintf(buf, sizeof buf, "%s", s);
    plus = strchr(buf, '+');
    if (plus)
        *plus = 0;
    if (!proto_parse_double(buf, &base) || (plus && !proto_parse_double(plus + 1, &inc)) ||
        base <= 0)
        return false;
    tc->base_ms = (int)(base * 1000);
    tc->inc_ms = (int)(inc * 1000);
    return true;
}

/* "ELO0,ELO1" (signed numbers, ELO0 < ELO1). */
static bool parse_sprt(const char *s, double *e0, double *e1) {
    char *end;
    *e0 = strtod(s, &end);
    if (end == s || *end != ',')
        return false;
    const char *b = end + 1;
    *e1 = strtod(b, &end);
    return end != b && !*end && isfinite(*e0) && isfinite(*e1) && *e0 < *e1 && fabs(*e0) < 1000 &&
           fabs(*e1) < 1000;
}

static bool parse_rate(const char *s, double *out) {
    return proto_parse_double(s, out) && *out > 0 && *out < 0.5;
}

static bool given(int argc, char **argv, const char *opt) {
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], opt))
            return true;
    return false;
}

/* 0 when the arguments make a match, 1 for --help, -1 when they are bad. */
static int parse_args(int argc, char **argv, MatchArgs *a) {
    memset(a, 0, sizeof *a);
    a->variant = "chess";
    a->games = 2;
    a->plies = 4;
    a->margin_ms = 150;
    a->concurrency = 1;
    a->alpha = a->beta = 0.05;
    a->seed = (unsigned)time(NULL) ^ (unsigned)getpid();
    a->tc.base_ms = 10000;
    a->tc.inc_ms = 100;
    int npos = 0;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        long n;
        double d;
        if (!strcmp(o, "--help") || !strcmp(o, "-h"))
            return 1;
        if (!strcmp(o, "--trace"))
            a->trace = true;
        else if (!strcmp(o, "--quiet"))
            a->quiet = true;
        else if (o[0] == '-' && o[1] == '-' && !v) {
            fprintf(stderr, "menagerie match: %s needs a value\n", o);
            return -1;
        } else if (!strcmp(o, "--variant"))
            a->variant = argv[++i];
        else if (!strcmp(o, "--pgn"))
            a->pgn = argv[++i];
        else if (!strcmp(o, "--openings"))
            a->openings = argv[++i];
        else if (!strcmp(o, "--baseline"))
            a->baseline = argv[++i];
        else if (!strcmp(o, "--games") && proto_parse_long(v, 1, 1000000, &n))
            a->games = (int)n, i++;
        else if (!strcmp(o, "--plies") && proto_parse_long(v, 0, 200, &n))
            a->plies = (int)n, a->random_openings = true, i++;
        else if (!strcmp(o, "--seed") && proto_parse_long(v, 0, 4294967295L, &n))
            a->seed = (unsigned)n, i++;
        else if (!strcmp(o, "--maxplies") && proto_parse_long(v, 1, 100000, &n))
            a->maxplies = (int)n, i++;
        else if (!strcmp(o, "--margin") && proto_parse_long(v, 0, 600000, &n))
            a->margin_ms = (int)n, i++;
        else if (!strcmp(o, "--gui-delay") && proto_parse_long(v, 0, 60000, &n))
            a->gui_delay_ms = (int)n, i++;
        else if (!strcmp(o, "--concurrency") && proto_parse_long(v, 1, MAX_CONCURRENCY, &n))
            a->concurrency = (int)n, i++;
        else if (!strcmp(o, "--depth") && proto_parse_long(v, 1, 200, &n))
            a->tc.depth = (int)n, i++;
        else if (!strcmp(o, "--nodes") && proto_parse_long(v, 1, 2000000000L, &n)) {
            a->tc.nodes = n;
            a->tc.base_ms = a->tc.inc_ms = a->tc.movetime_ms = 0;
            i++;
        } else if (!strcmp(o, "--tc") && parse_tc(v, &a->tc))
            i++;
        else if (!strcmp(o, "--tc2") && parse_tc(v, &a->tc2))
            i++;
        else if (!strcmp(o, "--st") && proto_parse_double(v, &d) && d > 0) {
            a->tc.movetime_ms = (int)(d * 1000);
            a->tc.base_ms = a->tc.inc_ms = 0;
            i++;
        } else if (!strcmp(o, "--sprt") && parse_sprt(v, &a->elo0, &a->elo1))
            a->sprt = true, i++;
        else if (!strcmp(o, "--alpha") && parse_rate(v, &a->alpha))
            i++;
        else if (!strcmp(o, "--beta") && parse_rate(v, &a->beta))
            i++;
        else if ((!strcmp(o, "--opt1") || !strcmp(o, "--opt2")) && strchr(v, '=')) {
            int k = o[5] - '1';
            if (a->nopts[k] < 15)
                a->opts[k][a->nopts[k]++] = v;
            i++;
        } else if (o[0] == '-' && o[1] == '-') {
            fprintf(stderr, "menagerie match: bad option %s %s\n", o, v ? v : "");
            return -1;
        } else if (npos < 2)
            a->spec[npos++] = o;
        else {
            fprintf(stderr, "menagerie match: too many engines\n");
            return -1;
        }
    }
    if (npos != 2)
        return -1;
    int modes =
        given(argc, argv, "--tc") + given(argc, argv, "--st") + given(argc, argv, "--nodes");
    if (modes > 1) {
        fprintf(stderr, "menagerie match: --tc, --st and --nodes exclude each other\n");
        return -1;
    }
    if (given(argc, argv, "--tc2") && (given(argc, argv, "--st") || given(argc, argv, "--nodes"))) {
        fprintf(stderr, "menagerie match: --tc2 needs a clock (--tc), not --st or --nodes\n");
        return -1;
    }
    if (a->openings && a->random_openings) {
        fprintf(stderr, "menagerie match: --openings and --plies exclude each other\n");
        return -1;
    }
    /* --depth alone means no clock */
    if (given(argc, argv, "--depth") && !modes)
        a->tc.base_ms = a->tc.inc_ms = 0;
    if (a->sprt && !given(argc, argv, "--games"))
        a->games = 20000;
    if (!given(argc, argv, "--tc2"))
        a->tc2 = a->tc;
    else
        a->tc2.depth = a->tc.depth;
    return 0;
}

/* --- openings --------------------------------------------------------------- */

static unsigned next_rand(unsigned *s) {
    *s = *s * 1103515245u + 12345u;
    return (*s >> 8) & 0xffffff;
}

/* The seed well mixed (SplitMix64's finaliser), so that nearby seeds start
 * the pairs at unrelated lines of the opening set. */
static uint64_t mix_seed(unsigned seed) {
    uint64_t x = seed + 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* Plays PLIES random moves on G that neither end the game nor let the side
 * to move end it at once. */
static void random_plies(Game *g, int plies, unsigned *seed) {
    MoveDesc *m = malloc(ENGINE_MAX_MOVES * sizeof *m);
    if (!m)
        abort();
    for (int p = 0; p < plies; p++) {
        int n = engine_moves(g, m, ENGINE_MAX_MOVES);
        if (n <= 0)
            break;
        for (int tries = 0; tries < 32; tries++) {
            char e2[ENGINE_ERR_LEN];
            if (!engine_play(g, m[next_rand(seed) % (unsigned)n].text, e2, sizeof e2))
                continue;
            if (engine_result(g).kind == RESULT_NONE && !engine_ends_in_one(g))
                break;
            engine_undo(g);
        }
    }
    free(m);
}

/* A start FEN and opening moves: random set-up, then PLIES random moves. */
static Game *make_opening(const char *variant, int plies, unsigned *seed, char *err,
                          size_t errlen) {
    const char *const *setups = engine_setups(variant);
    int nset = 0;
    while (setups[nset])
        nset++;
    char fen[512];
    Game *g;
    if (nset) {
        if (engine_start_fen(variant, setups[next_rand(seed) % (unsigned)nset], fen, sizeof fen,
                             err, errlen))
            return NULL;
        g = engine_new(variant, fen, err, errlen);
    } else
        g = proto_new_game(variant, NULL, err, errlen);
    if (!g)
        return NULL;
    random_plies(g, plies, seed);
    return g;
}

/* An opening set: lines of moves from the start position, the first token
 * optionally "setup=NAME" (a named start position); '#' starts a comment. */
typedef struct {
    char **line;
    int n;
} OpeningSet;

static void openings_free(OpeningSet *s) {
    for (int i = 0; i < s->n; i++)
        free(s->line[i]);
    free(s->line);
    s->line = NULL;
    s->n = 0;
}

/* The game of one opening line; NULL with a message when it is bad. */
static Game *opening_game(const char *variant, const char *line, char *err, size_t errlen) {
    char buf[2048], *tok[256], fen[512];
    snprintf(buf, sizeof buf, "%s", line);
    int n = proto_split(buf, tok, 256), i = 0;
    Game *g;
    if (n > 0 && !strncmp(tok[0], "setup=", 6)) {
        if (engine_start_fen(variant, tok[0] + 6, fen, sizeof fen, err, errlen))
            return NULL;
        g = engine_new(variant, fen, err, errlen);
        i = 1;
    } else
        g = proto_new_game(variant, NULL, err, errlen);
    for (; g && i < n; i++)
        if (!engine_play(g, tok[i], err, errlen)) {
            engine_free(g);
            return NULL;
        }
    if (g && engine_result(g).kind != RESULT_NONE) {
        snprintf(err, errlen, "the game is over");
        engine_free(g);
        return NULL;
    }
    return g;
}

/* Reads TEXT into S, checking each line on VARIANT; -1 with a message. */
static int openings_parse(OpeningSet *s, const char *variant, const char *text, size_t len,
                          const char *where, char *err, size_t errlen) {
    memset(s, 0, sizeof *s);
    int lineno = 0;
    for (size_t p = 0; p < len;) {
        size_t e = p;
        while (e < len && text[e] != '\n')
            e++;
        lineno++;
        char *l = malloc(e - p + 1);
        if (!l)
            abort();
        memcpy(l, text + p, e - p);
        l[e - p] = 0;
        p = e + 1;
        l[strcspn(l, "#\r")] = 0;
        if (!l[strspn(l, " \t")]) {
            free(l);
            continue;
        }
        char why[ENGINE_ERR_LEN];
        Game *g = opening_game(variant, l, why, sizeof why);
        if (!g) {
            snprintf(err, errlen, "%s line %d: %s", where, lineno, why);
            free(l);
            openings_free(s);
            return -1;
        }
        engine_free(g);
        char **grown = realloc(s->line, (size_t)(s->n + 1) * sizeof *grown);
        if (!grown)
            abort();
        s->line = grown;
        s->line[s->n++] = l;
    }
    if (!s->n) {
        snprintf(err, errlen, "%s has no openings", where);
        return -1;
    }
    return 0;
}

/* The opening set of A: a file, the built-in set of the game, or none
 * (random plies). -1 with a message when a file is unreadable or bad. */
static int openings_load(OpeningSet *s, const MatchArgs *a, char *err, size_t errlen) {
    memset(s, 0, sizeof *s);
    if (a->random_openings)
        return 0;
    if (a->openings) {
        size_t len;
        char *buf = proto_read_file(a->openings, MATCH_MAX_FILE, &len, err, errlen);
        if (!buf)
            return -1;
        int rc = openings_parse(s, a->variant, buf, len, a->openings, err, errlen);
        free(buf);
        return rc;
    }
    char want[64];
    snprintf(want, sizeof want, "%s.txt", a->variant);
    for (const LabOpeningSet *f = lab_opening_sets; f->name; f++)
        if (!strcmp(f->name, want))
            return openings_parse(s, a->variant, f->data, f->len, want, err, errlen);
    return 0;
}

/* --- one game ------------------------------------------------------------------ */

static const char *const result_codes[] = {"*", "1-0", "0-1", "1/2-1/2"};

__attribute__((format(printf, 3, 4))) static Outcome lose(int side, const char *termination,
                                                          const char *fmt, ...) {
    Outcome o;
    o.kind = side == SIDE_FIRST ? RESULT_SECOND_WINS : RESULT_FIRST_WINS;
    o.termination = termination;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(o.reason, sizeof o.reason, fmt, ap);
    va_end(ap);
    return o;
}

static int ply_count(Game *g) {
    char(*h)[ENGINE_MOVE_TEXT] = malloc(PROTO_MAX_PLIES * sizeof *h);
    if (!h)
        abort();
    int n = engine_history(g, h, PROTO_MAX_PLIES, false);
    free(h);
    return n;
}

/* Plays one game; E[side] plays that side on the clock TC[side]. */
static Outcome play_game(EngineClient *e[2], const ClientTimeControl *tc[2], Game *g,
                         const MatchArgs *a) {
    char err[ENGINE_ERR_LEN];
    const char *colour[2] = {"White", "Black"};
    for (int s = 0; s < 2; s++)
        if (!client_new_game(e[s], g, tc[s], err, sizeof err))
            return lose(s, "abandoned", "%s: %s", colour[s], err);
    int clock[2] = {tc[0]->base_ms, tc[1]->base_ms};
    for (;;) {
        GameResult r = engine_result(g);
        if (r.kind != RESULT_NONE) {
            Outcome o;
            o.kind = r.kind;
            o.termination = "normal";
            snprintf(o.reason, sizeof o.reason, "%s", r.reason);
            return o;
        }
        if (a->maxplies && ply_count(g) >= a->maxplies) {
            Outcome o = {RESULT_DRAW, "adjudication", "adjudicated: ply limit"};
            return o;
        }
        int s = engine_side_to_move(g);
        const ClientTimeControl *t = tc[s];
        int allow = t->movetime_ms ? t->movetime_ms : t->base_ms ? clock[s] : 600000;
        int64_t t0 = proto_now_ms();
        char move[ENGINE_MOVE_TEXT * 2];
        ClientEvent ev =
            client_think(e[s], g, clock, t0 + allow + a->margin_ms + 1000, move, sizeof move);
        int used = (int)(proto_now_ms() - t0);
        if (used < a->gui_delay_ms) /* the GUI reads the move only now */
            used = a->gui_delay_ms;
        switch (ev) {
        case CLIENT_RESIGN: return lose(s, "normal", "%s resigns", colour[s]);
        case CLIENT_TIMEOUT: return lose(s, "time forfeit", "%s loses on time", colour[s]);
        case CLIENT_DIED:
            return lose(s, "abandoned", "%s: engine failure %s", colour[s],
                        move[0] ? move : "(ended)");
        case CLIENT_CLAIM:
            return lose(s, "rules infraction", "%s makes a false claim: %s", colour[s], move);
        case CLIENT_MOVE: break;
        }
        if (used > allow + a->margin_ms && (t->base_ms || t->movetime_ms))
            return lose(s, "time forfeit", "%s loses on time", colour[s]);
        if (t->base_ms)
            clock[s] += t->inc_ms - used;
        if (!proto_play_gated(g, move, err, sizeof err)) {
            char what[ENGINE_MOVE_TEXT * 2 + 8];
            snprintf(what, sizeof what, "%s", move);
            return lose(s, "rules infraction", "%s plays an illegal move %s", colour[s], what);
        }
    }
}

/* --- score, Elo and the SPRT ------------------------------------------------- */

typedef struct {
    int w, l, d;  /* games, from engine 1's side */
    int ptnml[5]; /* pairs by engine 1's points: 0, 1/2, 1, 3/2, 2 */
} Tally;

static double elo_of(double p) {
    if (p <= 0)
        return -INFINITY;
    if (p >= 1)
        return INFINITY;
    return -400.0 * log10(1.0 / p - 1.0);
}

static double score_of(double elo) {
    return 1.0 / (1.0 + pow(10.0, -elo / 400.0));
}

/* Mean and variance of the score per game, from the pairs when there are
 * any (pairs are what is independent), else from the games. */
static int score_stats(const Tally *t, double *mean, double *var) {
    int pairs = 0;
    double sum = 0, sq = 0, total = 0;
    /* a prior of one pair spread around a draw keeps the variance of a few
     * like pairs from reading as certainty */
    static const double prior[5] = {0.1, 0.2, 0.4, 0.2, 0.1};
    for (int k = 0; k < 5; k++) {
        double c = t->ptnml[k] + prior[k];
        pairs += t->ptnml[k];
        total += c;
        sum += c * (k / 4.0);
        sq += c * (k / 4.0) * (k / 4.0);
    }
    if (pairs >= 1) {
        *mean = sum / total;
        *var = sq / total - *mean * *mean;
        return pairs;
    }
    int n = t->w + t->l + t->d;
    if (!n)
        return 0;
    double p = (t->w + 0.5 * t->d) / n;
    *mean = p;
    *var = (t->w * (1 - p) * (1 - p) + t->l * p * p + t->d * (0.5 - p) * (0.5 - p)) / n;
    return n;
}

/* The GSPRT's log-likelihood ratio of n samples of mean m and variance v
 * between expected means s0 and s1. */
static double gsprt_llr(int n, double m, double v, double s0, double s1) {
    return n < 1 || v <= 0 ? 0 : n * (s1 - s0) * (2 * m - s0 - s1) / (2 * v);
}

static double sprt_llr(const Tally *t, double elo0, double elo1) {
    double m, v;
    int n = score_stats(t, &m, &v);
    return gsprt_llr(n, m, v, score_of(elo0), score_of(elo1));
}

/* Pairs compared with the baseline's: engine 1's points per game less the
 * baseline's, and the baseline's points per game. */
typedef struct {
    int n, better, worse;
    double sum, sq, base;
} PairDiff;

/* Mean and variance of the difference per game, with the prior pair; the
 * baseline's score per game (kept off 0 and 1). */
static int diff_stats(const PairDiff *d, double *mean, double *var, double *base) {
    double total = d->n + 1.0;
    *mean = d->sum / total;
    *var = (d->sq + 0.075) / total - *mean * *mean;
    double b = d->n ? d->base / d->n : 0.5;
    *base = b < 0.001 ? 0.001 : b > 0.999 ? 0.999 : b;
    return d->n;
}

static double diff_llr(const PairDiff *d, double elo0, double elo1) {
    double m, v, b;
    int n = diff_stats(d, &m, &v, &b);
    double e = elo_of(b);
    return gsprt_llr(n, m, v, score_of(e + elo0) - b, score_of(e + elo1) - b);
}

static void print_diff(const char *n2, const PairDiff *d) {
    double m, v, b;
    int n = diff_stats(d, &m, &v, &b);
    if (!n)
        return;
    double se = sqrt(v / n), e = elo_of(b), s = b + d->sum / n;
    double lo = s - 1.96 * se, hi = s + 1.96 * se;
    printf("Against the baseline: %d pairs, better in %d, worse in %d; score against %s %.1f%% "
           "(baseline %.1f%%)\n",
           n, d->better, d->worse, n2, 100 * s, 100 * b);
    printf("Elo difference to the baseline: %+.1f (95%%: %+.1f, %+.1f)\n", elo_of(s) - e,
           (lo > 0 ? elo_of(lo) : -INFINITY) - e, (hi < 1 ? elo_of(hi) : INFINITY) - e);
    fflush(stdout);
}

static void print_score(const char *n1, const char *n2, const Tally *t) {
    int n = t->w + t->l + t->d;
    if (!n)
        return;
    double p = (t->w + 0.5 * t->d) / n, m, var;
    int k = score_stats(t, &m, &var);
    double se = sqrt(var / k);
    printf("Score of %s vs %s: %d - %d - %d  [%.3f] %d\n", n1, n2, t->w, t->l, t->d, p, n);
    double lo = elo_of(m - 1.96 * se), hi = elo_of(m + 1.96 * se), e = elo_of(p);
    if (isinf(e))
        printf("Elo difference: %sinf (score %s)\n", e > 0 ? "+" : "-", e > 0 ? "100%" : "0%");
    else if (isinf(lo) || isinf(hi)) {
        char l1[32], h1[32];
        snprintf(l1, sizeof l1, isinf(lo) ? "-inf" : "%+.1f", lo);
        snprintf(h1, sizeof h1, isinf(hi) ? "+inf" : "%+.1f", hi);
        printf("Elo difference: %+.1f, 95%% interval [%s, %s]\n", e, l1, h1);
    } else
        printf("Elo difference: %+.1f +/- %.1f (95%%)\n", e, (hi - lo) / 2);
    printf("Ptnml(0-2): %d, %d, %d, %d, %d\n", t->ptnml[0], t->ptnml[1], t->ptnml[2], t->ptnml[3],
           t->ptnml[4]);
    fflush(stdout);
}

/* -1: H0 accepted, 1: H1 accepted, 0: go on. */
static int sprt_verdict(const MatchArgs *a, double llr) {
    double lo = log(a->beta / (1 - a->alpha)), hi = log((1 - a->beta) / a->alpha);
    return llr >= hi ? 1 : llr <= lo ? -1 : 0;
}

/* The SPRT line for LLR; after_games: the games when it crossed a bound,
 * if fewer than were played (the pairs still in flight then are scored but
 * decide nothing), else 0. */
static void print_sprt(const MatchArgs *a, double llr, int after_games) {
    double lo = log(a->beta / (1 - a->alpha)), hi = log((1 - a->beta) / a->alpha);
    int v = sprt_verdict(a, llr);
    printf("SPRT: llr %.2f (%.2f, %.2f) [%g, %g]: %s", llr, lo, hi, a->elo0, a->elo1,
           v > 0   ? "H1 accepted"
           : v < 0 ? "H0 accepted"
                   : "no verdict");
    if (after_games)
        printf(" after %d games", after_games);
    printf("%s\n", a->baseline ? " (against the baseline)" : "");
    fflush(stdout);
}

/* Does engine 2 play on a clock of its own (--tc2 differing from --tc)? */
static bool time_odds(const MatchArgs *a) {
    return a->tc.base_ms && (a->tc2.base_ms != a->tc.base_ms || a->tc2.inc_ms != a->tc.inc_ms);
}

static void write_pgn(const MatchArgs *a, Game *g, const char *white, const char *black, int round,
                      const Outcome *o) {
    if (!a->pgn)
        return;
    char rnd[16], tc[32];
    snprintf(rnd, sizeof rnd, "%d", round);
    if (a->tc.movetime_ms)
        snprintf(tc, sizeof tc, "%g/move", a->tc.movetime_ms / 1000.0);
    else if (time_odds(a))
        snprintf(tc, sizeof tc, "?"); /* no one control */
    else if (a->tc.base_ms)
        snprintf(tc, sizeof tc, "%g+%g", a->tc.base_ms / 1000.0, a->tc.inc_ms / 1000.0);
    else
        snprintf(tc, sizeof tc, "-");
    const char *tags[] = {"Event",
                          "Menagerie match",
                          "Round",
                          rnd,
                          "White",
                          white,
                          "Black",
                          black,
                          "TimeControl",
                          tc,
                          "Result", /* counts for adjudicated games (time, resignation, ...) */
                          result_codes[o->kind],
                          "Termination", /* the standard's word; the reason in a comment */
                          o->termination,
                          NULL};
    size_t cap = 1 << 20;
    char *buf = malloc(cap);
    if (!buf)
        abort();
    int n = engine_export(g, tags, buf, cap);
    /* the comment before the result token that ends the moves */
    size_t rl = strlen(result_codes[o->kind]) + 1;
    if (n < 0 || (size_t)n < rl || (size_t)n + strlen(o->reason) + 8 > cap) {
        free(buf);
        return;
    }
    char *res = buf + n - rl; /* "RESULT\n" */
    char *line = res > buf && res[-1] == ' ' ? res - 1 : res;
    char why[sizeof o->reason];
    snprintf(why, sizeof why, "%s", o->reason);
    for (char *c = why; *c; c++)
        if (*c == '}') /* an engine's text would end the comment */
            *c = ')';
    snprintf(line, cap - (size_t)(line - buf), "%s{%s} %s\n",
             line > buf && line[-1] == '\n' ? "" : "\n", why, result_codes[o->kind]);
    FILE *f = fopen(a->pgn, "a");
    if (!f) {
        fprintf(stderr, "menagerie match: cannot write %s\n", a->pgn);
        free(buf);
        return;
    }
    fputs(buf, f);
    fputs("\n", f);
    fclose(f);
    free(buf);
}

/* --- the match: workers playing pairs ---------------------------------------- */

typedef struct {
    const MatchArgs *a;
    const OpeningSet *book;
    const char *self;
    char name[2][140];
    pthread_mutex_t lock; /* everything below, stdout and the PGN file */
    int next_pair, done_games;
    unsigned book_start;  /* the set's line of pair 0; pair p takes the p-th after it */
    Tally tally, decided; /* decided: the tally when the SPRT crossed a bound */
    Baseline base;        /* with --baseline */
    PairDiff diff, diff_decided;
    bool stop, failed, decided_set;
} Match;

/* The SPRT's LLR of the match so far, or when it crossed a bound. */
static double match_llr(const Match *m, bool decided) {
    const MatchArgs *a = m->a;
    return a->baseline ? diff_llr(decided ? &m->diff_decided : &m->diff, a->elo0, a->elo1)
                       : sprt_llr(decided ? &m->decided : &m->tally, a->elo0, a->elo1);
}

/* With --baseline: may pair P be played and compared? Stops the match when
 * the baseline has no such pair (it ends there) or began it otherwise (an
 * error: not the same pairs). */
static bool baseline_pair_ok(Match *m, int p, Game *opening) {
    if (!m->a->baseline || 2 * p + 1 >= m->a->games)
        return true;
    const char *why = NULL;
    bool absent = false;
    int round = 0; /* of the game that does not do */
    for (int i = 2 * p; i <= 2 * p + 1 && !why && !absent; i++) {
        const BaselineGame *bg = baseline_game(&m->base, i);
        round = i + 1;
        if (!bg)
            absent = true;
        else if (strcmp(bg->engine2, m->name[1]))
            why = "against another engine 2";
        else if (!baseline_same_opening(bg, opening))
            why = "from another opening";
    }
    if (!why && !absent)
        return true;
    pthread_mutex_lock(&m->lock);
    if (absent)
        printf("The baseline has no game %d: the match ends with it.\n", round);
    else {
        fprintf(stderr,
                "menagerie match: baseline game %d was played %s (the same --seed, "
                "--openings and engine 2?)\n",
                round, why);
        m->failed = true;
    }
    m->stop = true;
    pthread_mutex_unlock(&m->lock);
    return false;
}

/* The opening of pair P: a line of the set, or random plies. Once every
 * line has had its pair, a line comes again with REUSE_PLIES random plies
 * after it: engines limited by nodes or depth would replay the same games,
 * and a replayed game is no new evidence. */
static Game *pair_opening(Match *m, int p, char *err, size_t errlen) {
    const MatchArgs *a = m->a;
    unsigned seed = a->seed + (unsigned)p * 2654435761u;
    if (!m->book->n)
        return make_opening(a->variant, a->plies, &seed, err, errlen);
    unsigned n = (unsigned)m->book->n;
    Game *g =
        opening_game(a->variant, m->book->line[(m->book_start + (unsigned)p) % n], err, errlen);
    if (g && (unsigned)p >= n)
        random_plies(g, REUSE_PLIES, &seed);
    return g;
}

/* Plays game I (of pair I / 2) with engines E; adds it to the tally.
 * Returns engine 1's points, or -1 when an engine cannot be started. */
static double play_one(Match *m, EngineClient *eng[2], Game *opening, int i) {
    const MatchArgs *a = m->a;
    char err[ENGINE_ERR_LEN];
    for (int s = 0; s < 2; s++) /* a dead engine is started again */
        if (!eng[s] || !client_alive(eng[s])) {
            client_free(eng[s]);
            eng[s] = client_start(a->spec[s], m->self, a->opts[s], a->trace, err, sizeof err);
            if (!eng[s]) {
                pthread_mutex_lock(&m->lock);
                fprintf(stderr, "menagerie match: %s\n", err);
                m->failed = m->stop = true;
                pthread_mutex_unlock(&m->lock);
                return -1;
            }
        }
    int white = i % 2; /* engine index playing White */
    EngineClient *side[2] = {eng[white], eng[!white]};
    const ClientTimeControl *tc[2] = {white ? &a->tc2 : &a->tc, white ? &a->tc : &a->tc2};
    Game *g = engine_copy(opening);
    if (!g)
        abort();
    Outcome o = play_game(side, tc, g, a);
    for (int s = 0; s < 2; s++)
        client_game_over(side[s], result_codes[o.kind], o.reason);
    int e1 = white == 0 ? SIDE_FIRST : SIDE_SECOND; /* engine 1's colour */
    double pts = o.kind == RESULT_DRAW                                 ? 0.5
                 : (o.kind == RESULT_FIRST_WINS) == (e1 == SIDE_FIRST) ? 1
                                                                       : 0;
    int plies = ply_count(g);
    pthread_mutex_lock(&m->lock);
    Tally *t = &m->tally;
    if (pts == 1)
        t->w++;
    else if (pts == 0)
        t->l++;
    else
        t->d++;
    m->done_games++;
    if (!a->quiet) {
        printf("game %d/%d: %s - %s %s {%s} %d plies; score %s %.1f - %.1f %s\n", i + 1, a->games,
               m->name[white], m->name[!white], result_codes[o.kind], o.reason, plies, m->name[0],
               t->w + 0.5 * t->d, t->l + 0.5 * t->d, m->name[1]);
        fflush(stdout);
    }
    write_pgn(a, g, m->name[white], m->name[!white], i + 1, &o);
    pthread_mutex_unlock(&m->lock);
    engine_free(g);
    return pts;
}

static void *worker(void *arg) {
    Match *m = arg;
    const MatchArgs *a = m->a;
    EngineClient *eng[2] = {NULL, NULL};
    for (;;) {
        pthread_mutex_lock(&m->lock);
        int p = m->stop || 2 * m->next_pair >= a->games ? -1 : m->next_pair++;
        pthread_mutex_unlock(&m->lock);
        if (p < 0)
            break;
        char err[ENGINE_ERR_LEN];
        Game *opening = pair_opening(m, p, err, sizeof err);
        if (!opening) {
            pthread_mutex_lock(&m->lock);
            fprintf(stderr, "menagerie match: opening: %s\n", err);
            m->failed = m->stop = true;
            pthread_mutex_unlock(&m->lock);
            break;
        }
        if (!baseline_pair_ok(m, p, opening)) {
            engine_free(opening);
            break;
        }
        double pts = 0;
        int played = 0;
        for (int i = 2 * p; i < 2 * p + 2 && i < a->games; i++) {
            double r = play_one(m, eng, opening, i);
            if (r < 0)
                break;
            pts += r;
            played++;
        }
        engine_free(opening);
        if (played < 2)
            continue;
        pthread_mutex_lock(&m->lock);
        m->tally.ptnml[(int)(pts * 2 + 0.5)]++;
        if (a->baseline) {
            double base =
                baseline_game(&m->base, 2 * p)->points + baseline_game(&m->base, 2 * p + 1)->points;
            double x = (pts - base) / 2;
            m->diff.n++;
            m->diff.better += x > 0;
            m->diff.worse += x < 0;
            m->diff.sum += x;
            m->diff.sq += x * x;
            m->diff.base += base / 2;
        }
        if (a->sprt) {
            double llr = match_llr(m, false);
            int v = sprt_verdict(a, llr);
            if (!a->quiet && !m->decided_set)
                print_sprt(a, llr, 0);
            if (v && !m->decided_set) {
                m->decided = m->tally;
                m->diff_decided = m->diff;
                m->decided_set = m->stop = true;
            }
        }
        pthread_mutex_unlock(&m->lock);
    }
    client_free(eng[0]);
    client_free(eng[1]);
    return NULL;
}

int match_main(int argc, char **argv) {
    MatchArgs a;
    int bad = parse_args(argc, argv, &a);
    if (bad)
        return usage(bad > 0 ? stdout : stderr);
    signal(SIGPIPE, SIG_IGN);
    char err[ENGINE_ERR_LEN];
    Game *probe = engine_new(a.variant, NULL, err, sizeof err);
    if (!probe) {
        fprintf(stderr, "menagerie match: %s\n", err);
        return 2;
    }
    GameInfo info;
    engine_info(probe, &info);
    engine_free(probe);
    if (info.kind != KIND_CHESS) {
        fprintf(stderr, "menagerie match: %s is not a chess game\n", a.variant);
        return 2;
    }
    OpeningSet book;
    if (openings_load(&book, &a, err, sizeof err)) {
        fprintf(stderr, "menagerie match: %s\n", err);
        return 2;
    }
    char self[4096];
    ssize_t k = readlink("/proc/self/exe", self, sizeof self - 1);
    if (k <= 0) {
        fprintf(stderr, "menagerie match: cannot find this program's path\n");
        openings_free(&book);
        return 1;
    }
    self[k] = 0;
    Match m;
    memset(&m, 0, sizeof m);
    m.a = &a;
    m.book = &book;
    m.self = self;
    pthread_mutex_init(&m.lock, NULL);
    /* the first engine pair: names, and whether they play the game */
    EngineClient *eng[2] = {NULL, NULL};
    for (int i = 0; i < 2; i++) {
        a.opts[i][a.nopts[i]] = NULL;
        eng[i] = client_start(a.spec[i], self, a.opts[i], a.trace, err, sizeof err);
        if (!eng[i] || !client_supports(eng[i], a.variant)) {
            if (eng[i])
                fprintf(stderr, "menagerie match: %s does not play %s\n", client_name(eng[i]),
                        a.variant);
            else
                fprintf(stderr, "menagerie match: %s\n", err);
            client_free(eng[0]);
            client_free(eng[1]);
            openings_free(&book);
            return 1;
        }
    }
    for (int i = 0; i < 2; i++)
        snprintf(m.name[i], sizeof m.name[i], "%s", client_name(eng[i]));
    client_free(eng[0]);
    client_free(eng[1]);
    if (!strcmp(m.name[0], m.name[1])) {
        strcat(m.name[0], " 1");
        strcat(m.name[1], " 2");
    }
    char berr[ENGINE_ERR_LEN + 4096];
    if (a.baseline && !baseline_load(&m.base, a.baseline, MATCH_MAX_FILE, info.name, a.games, berr,
                                     sizeof berr)) {
        fprintf(stderr, "menagerie match: %s\n", berr);
        pthread_mutex_destroy(&m.lock);
        openings_free(&book);
        return 2;
    }
    m.book_start = book.n ? (unsigned)(mix_seed(a.seed) % (unsigned)book.n) : 0;
    printf("match: %s vs %s, %s, %d games, ", m.name[0], m.name[1], a.variant, a.games);
    if (a.tc.nodes)
        printf("%ld nodes per move", a.tc.nodes);
    else if (a.tc.movetime_ms)
        printf("%g s per move", a.tc.movetime_ms / 1000.0);
    else if (a.tc.base_ms) {
        printf("%g+%g s", a.tc.base_ms / 1000.0, a.tc.inc_ms / 1000.0);
        if (time_odds(&a))
            printf(" against %g+%g s", a.tc2.base_ms / 1000.0, a.tc2.inc_ms / 1000.0);
    } else
        printf("depth %d", a.tc.depth);
    printf(", seed %u", a.seed);
    if (book.n)
        printf(", %d openings from line %u", book.n, m.book_start + 1);
    if (book.n && a.games > 2 * book.n)
        printf(" (then again with %d random plies)", REUSE_PLIES);
    if (a.concurrency > 1)
        printf(", concurrency %d", a.concurrency);
    if (a.sprt)
        printf(", SPRT [%g, %g] alpha %g beta %g", a.elo0, a.elo1, a.alpha, a.beta);
    if (a.baseline)
        printf(", baseline %s", a.baseline);
    printf("\n");
    fflush(stdout);
    // Step 1. The workers, each with its own two engines, take pairs in turn.
    int nw = a.concurrency < (a.games + 1) / 2 ? a.concurrency : (a.games + 1) / 2;
    pthread_t tid[MAX_CONCURRENCY];
    bool started[MAX_CONCURRENCY] = {false};
    for (int i = 1; i < nw; i++)
        started[i] = !pthread_create(&tid[i], NULL, worker, &m);
    worker(&m);
    for (int i = 1; i < nw; i++)
        if (started[i])
            pthread_join(tid[i], NULL);
    // Step 2. The score.
    print_score(m.name[0], m.name[1], &m.tally);
    if (a.baseline)
        print_diff(m.name[1], &m.diff);
    if (a.sprt) {
        int total = m.tally.w + m.tally.l + m.tally.d;
        int at = m.decided.w + m.decided.l + m.decided.d;
        print_sprt(&a, match_llr(&m, m.decided_set), m.decided_set && at != total ? at : 0);
    }
    pthread_mutex_destroy(&m.lock);
    baseline_free(&m.base);
    openings_free(&book);
    return m.failed && !m.done_games ? 1 : 0;
}
