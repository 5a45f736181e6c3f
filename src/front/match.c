/* match.c - `menagerie match`: games between two engines, our engine the
 * referee.
 *
 * Each engine runs as a child process (proto_engine.c): this program itself
 * over CECP ("self") or UCI ("self-uci"), or any CECP/UCI engine given as a
 * command. Games come in pairs from one opening (the start position, a
 * random set-up where the game has them, then --plies random moves), the
 * engines swapping colours. The referee checks every move and ends the
 * game by the rules (engine_result), on time (with a margin), on an illegal
 * move, a resignation, a false claim, a dead engine, or at --maxplies as a
 * draw. It prints a line per game and the score with an Elo estimate (95%
 * interval from the per-game score variance) at the end, and appends PGN
 * (adjudicated games get their result and a Termination tag). */
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine/engine.h"
#include "front/frontends.h"
#include "front/proto_engine.h"
#include "front/proto_io.h"

typedef struct {
    const char *spec[2];
    const char *opts[2][16];
    int nopts[2];
    const char *variant, *pgn;
    int games, plies, margin_ms, maxplies;
    unsigned seed;
    ProtoTimeControl tc;
    bool trace, quiet;
} MatchArgs;

typedef struct {
    ResultKind kind;
    char reason[128];
} Outcome;

static int usage(void) {
    fprintf(stderr, "usage: menagerie match [options] ENGINE1 ENGINE2\n"
                    "  ENGINE: self (Menagerie over CECP), self-uci, xboard:COMMAND, uci:COMMAND\n"
                    "  --variant NAME     game (default chess; see `menagerie variants`)\n"
                    "  --games N          number of games, played in pairs (default 2)\n"
                    "  --tc BASE[+INC]    seconds per game and increment (default 10+0.1)\n"
                    "  --st SECONDS       fixed time per move instead of a clock\n"
                    "  --depth N          fixed depth (with no clock: depth only)\n"
                    "  --plies N          random opening plies (default 4)\n"
                    "  --seed N           random seed of the openings (default: time)\n"
                    "  --margin MS        time a move may overrun the clock (default 150)\n"
                    "  --maxplies N       adjudicate a draw after N plies (default: never)\n"
                    "  --pgn FILE         append the games as PGN\n"
                    "  --opt1/--opt2 NAME=VALUE   engine option (repeatable)\n"
                    "  --trace            protocol traffic to stderr\n"
                    "  --quiet            no per-game lines\n");
    return 2;
}

static bool parse_tc(const char *s, ProtoTimeControl *tc) {
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

static int parse_args(int argc, char **argv, MatchArgs *a) {
    memset(a, 0, sizeof *a);
    a->variant = "chess";
    a->games = 2;
    a->plies = 4;
    a->margin_ms = 150;
    a->seed = (unsigned)time(NULL) ^ (unsigned)getpid();
    a->tc.base_ms = 10000;
    a->tc.inc_ms = 100;
    int npos = 0;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        long n;
        double d;
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
        else if (!strcmp(o, "--games") && proto_parse_long(v, 1, 1000000, &n))
            a->games = (int)n, i++;
        else if (!strcmp(o, "--plies") && proto_parse_long(v, 0, 200, &n))
            a->plies = (int)n, i++;
        else if (!strcmp(o, "--seed") && proto_parse_long(v, 0, 4294967295L, &n))
            a->seed = (unsigned)n, i++;
        else if (!strcmp(o, "--maxplies") && proto_parse_long(v, 1, 100000, &n))
            a->maxplies = (int)n, i++;
        else if (!strcmp(o, "--margin") && proto_parse_long(v, 0, 600000, &n))
            a->margin_ms = (int)n, i++;
        else if (!strcmp(o, "--depth") && proto_parse_long(v, 1, 200, &n))
            a->tc.depth = (int)n, i++;
        else if (!strcmp(o, "--tc") && parse_tc(v, &a->tc))
            i++;
        else if (!strcmp(o, "--st") && proto_parse_double(v, &d) && d > 0) {
            a->tc.movetime_ms = (int)(d * 1000);
            a->tc.base_ms = a->tc.inc_ms = 0;
            i++;
        } else if ((!strcmp(o, "--opt1") || !strcmp(o, "--opt2")) && strchr(v, '=')) {
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
    /* --depth alone means no clock */
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--depth")) {
            bool clock = false;
            for (int k = 1; k < argc; k++)
                clock |= !strcmp(argv[k], "--tc") || !strcmp(argv[k], "--st");
            if (!clock)
                a->tc.base_ms = a->tc.inc_ms = 0;
        }
    return 0;
}

/* --- openings --------------------------------------------------------------- */

static unsigned next_rand(unsigned *s) {
    *s = *s * 1103515245u + 12345u;
    return (*s >> 8) & 0xffffff;
}

/* Can the side to move end the game at once (a mate in one, a corner
 * win)? Such an opening decides nothing about the engines. */
static bool ends_in_one(Game *g) {
    MoveDesc *m = malloc(ENGINE_MAX_MOVES * sizeof *m);
    if (!m)
        abort();
    int n = engine_moves(g, m, ENGINE_MAX_MOVES);
    bool ends = false;
    char err[ENGINE_ERR_LEN];
    for (int i = 0; i < n && !ends; i++)
        if (engine_play(g, m[i].text, err, sizeof err)) {
            ends = engine_result(g).kind != RESULT_NONE;
            engine_undo(g);
        }
    free(m);
    return ends;
}

/* A start FEN and opening moves: random set-up, then PLIES random moves
 * that neither end the game nor let the side to move end it at once. */
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
            if (engine_result(g).kind == RESULT_NONE && !ends_in_one(g))
                break;
            engine_undo(g);
        }
    }
    free(m);
    return g;
}

/* --- one game ------------------------------------------------------------------ */

static const char *const result_codes[] = {"*", "1-0", "0-1", "1/2-1/2"};

__attribute__((format(printf, 2, 3))) static Outcome lose(int side, const char *fmt, ...) {
    Outcome o;
    o.kind = side == SIDE_FIRST ? RESULT_SECOND_WINS : RESULT_FIRST_WINS;
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

/* Plays one game; E[side] plays that side. */
static Outcome play_game(ProtoEngine *e[2], Game *g, const MatchArgs *a) {
    char err[ENGINE_ERR_LEN];
    const char *colour[2] = {"White", "Black"};
    for (int s = 0; s < 2; s++)
        if (!proto_engine_new_game(e[s], g, &a->tc, err, sizeof err))
            return lose(s, "%s: %s", colour[s], err);
    int clock[2] = {a->tc.base_ms, a->tc.base_ms};
    for (;;) {
        GameResult r = engine_result(g);
        if (r.kind != RESULT_NONE) {
            Outcome o;
            o.kind = r.kind;
            snprintf(o.reason, sizeof o.reason, "%s", r.reason);
            return o;
        }
        if (a->maxplies && ply_count(g) >= a->maxplies) {
            Outcome o = {RESULT_DRAW, "adjudicated: ply limit"};
            return o;
        }
        int s = engine_side_to_move(g);
        int allow = a->tc.movetime_ms ? a->tc.movetime_ms : a->tc.base_ms ? clock[s] : 600000;
        int64_t t0 = proto_now_ms();
        char move[ENGINE_MOVE_TEXT * 2];
        ProtoEngineEvent ev =
            proto_engine_think(e[s], g, clock, t0 + allow + a->margin_ms + 1000, move, sizeof move);
        int used = (int)(proto_now_ms() - t0);
        switch (ev) {
        case PE_RESIGN: return lose(s, "%s resigns", colour[s]);
        case PE_TIMEOUT: return lose(s, "%s loses on time", colour[s]);
        case PE_DIED:
            return lose(s, "%s: engine failure %s", colour[s], move[0] ? move : "(ended)");
        case PE_CLAIM: return lose(s, "%s makes a false claim: %s", colour[s], move);
        case PE_MOVE: break;
        }
        if (used > allow + a->margin_ms && (a->tc.base_ms || a->tc.movetime_ms))
            return lose(s, "%s loses on time", colour[s]);
        if (a->tc.base_ms)
            clock[s] += a->tc.inc_ms - used;
        if (!proto_play_gated(g, move, err, sizeof err)) {
            char what[ENGINE_MOVE_TEXT * 2 + 8];
            snprintf(what, sizeof what, "%s", move);
            return lose(s, "%s plays an illegal move %s", colour[s], what);
        }
    }
}

/* --- score and Elo -------------------------------------------------------------- */

static double elo_of(double p) {
    if (p <= 0)
        return -INFINITY;
    if (p >= 1)
        return INFINITY;
    return -400.0 * log10(1.0 / p - 1.0);
}

static void print_score(const char *n1, const char *n2, int w, int l, int d) {
    int n = w + l + d;
    if (!n)
        return;
    double p = (w + 0.5 * d) / n;
    double var = (w * (1 - p) * (1 - p) + l * p * p + d * (0.5 - p) * (0.5 - p)) / n;
    double se = sqrt(var / n);
    printf("Score of %s vs %s: %d - %d - %d  [%.3f] %d\n", n1, n2, w, l, d, p, n);
    double lo = elo_of(p - 1.96 * se), hi = elo_of(p + 1.96 * se), e = elo_of(p);
    if (isinf(e))
        printf("Elo difference: %sinf (score %s)\n", e > 0 ? "+" : "-", e > 0 ? "100%" : "0%");
    else if (isinf(lo) || isinf(hi)) {
        char l1[32], h1[32];
        snprintf(l1, sizeof l1, isinf(lo) ? "-inf" : "%+.1f", lo);
        snprintf(h1, sizeof h1, isinf(hi) ? "+inf" : "%+.1f", hi);
        printf("Elo difference: %+.1f, 95%% interval [%s, %s]\n", e, l1, h1);
    } else
        printf("Elo difference: %+.1f +/- %.1f (95%%)\n", e, (hi - lo) / 2);
    fflush(stdout);
}

static void write_pgn(const MatchArgs *a, Game *g, const char *white, const char *black, int round,
                      const Outcome *o) {
    if (!a->pgn)
        return;
    char rnd[16], tc[32];
    snprintf(rnd, sizeof rnd, "%d", round);
    if (a->tc.movetime_ms)
        snprintf(tc, sizeof tc, "%g/move", a->tc.movetime_ms / 1000.0);
    else if (a->tc.base_ms)
        snprintf(tc, sizeof tc, "%g+%g", a->tc.base_ms / 1000.0, a->tc.inc_ms / 1000.0);
    else
        snprintf(tc, sizeof tc, "-");
    bool by_rules = engine_result(g).kind != RESULT_NONE;
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
                          by_rules ? NULL : "Termination",
                          o->reason,
                          NULL};
    size_t cap = 1 << 20;
    char *buf = malloc(cap);
    if (!buf)
        abort();
    int n = engine_export(g, tags, buf, cap);
    if (n < 0) {
        free(buf);
        return;
    }
    /* engine_export writes the result the rules give; adjudicated games
     * (time, resignation, illegal move) get theirs here */
    const char *code = result_codes[o->kind];
    FILE *f = fopen(a->pgn, "a");
    if (!f) {
        fprintf(stderr, "menagerie match: cannot write %s\n", a->pgn);
        free(buf);
        return;
    }
    if (!by_rules) {
        char *tag = strstr(buf, "[Result \"*\"]");
        size_t len = strlen(buf);
        if (tag) {
            fwrite(buf, 1, (size_t)(tag - buf), f);
            fprintf(f, "[Result \"%s\"]", code);
            char *rest = tag + strlen("[Result \"*\"]");
            len = strlen(rest);
            if (len >= 2 && !strcmp(rest + len - 2, "*\n"))
                fprintf(f, "%.*s%s\n", (int)(len - 2), rest, code);
            else
                fputs(rest, f);
        } else
            fputs(buf, f);
    } else
        fputs(buf, f);
    fputs("\n", f);
    fclose(f);
    free(buf);
}

int match_main(int argc, char **argv) {
    MatchArgs a;
    if (parse_args(argc, argv, &a))
        return usage();
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
    char self[4096];
    ssize_t k = readlink("/proc/self/exe", self, sizeof self - 1);
    if (k <= 0) {
        fprintf(stderr, "menagerie match: cannot find this program's path\n");
        return 1;
    }
    self[k] = 0;
    ProtoEngine *eng[2] = {NULL, NULL};
    for (int i = 0; i < 2; i++) {
        a.opts[i][a.nopts[i]] = NULL;
        eng[i] = proto_engine_start(a.spec[i], self, a.opts[i], a.trace, err, sizeof err);
        if (!eng[i] || !proto_engine_supports(eng[i], a.variant)) {
            if (eng[i])
                fprintf(stderr, "menagerie match: %s does not play %s\n", proto_engine_name(eng[i]),
                        a.variant);
            else
                fprintf(stderr, "menagerie match: %s\n", err);
            proto_engine_free(eng[0]);
            proto_engine_free(eng[1]);
            return 1;
        }
    }
    char name[2][140];
    for (int i = 0; i < 2; i++)
        snprintf(name[i], sizeof name[i], "%s", proto_engine_name(eng[i]));
    if (!strcmp(name[0], name[1])) {
        strcat(name[0], " 1");
        strcat(name[1], " 2");
    }
    printf("match: %s vs %s, %s, %d games, ", name[0], name[1], a.variant, a.games);
    if (a.tc.movetime_ms)
        printf("%g s per move", a.tc.movetime_ms / 1000.0);
    else if (a.tc.base_ms)
        printf("%g+%g s", a.tc.base_ms / 1000.0, a.tc.inc_ms / 1000.0);
    else
        printf("depth %d", a.tc.depth);
    printf(", seed %u\n", a.seed);
    fflush(stdout);
    int w = 0, l = 0, d = 0; /* from engine 1's side */
    unsigned seed = a.seed;
    Game *opening = NULL;
    for (int i = 0; i < a.games; i++) {
        if (i % 2 == 0) {
            engine_free(opening);
            opening = make_opening(a.variant, a.plies, &seed, err, sizeof err);
            if (!opening) {
                fprintf(stderr, "menagerie match: %s\n", err);
                break;
            }
        }
        int white = i % 2;          /* engine index playing White */
        for (int s = 0; s < 2; s++) /* a dead engine is started again */
            if (!proto_engine_alive(eng[s])) {
                proto_engine_free(eng[s]);
                eng[s] = proto_engine_start(a.spec[s], self, a.opts[s], a.trace, err, sizeof err);
                if (!eng[s]) {
                    fprintf(stderr, "menagerie match: %s\n", err);
                    goto out;
                }
            }
        ProtoEngine *side[2] = {eng[white], eng[!white]};
        Game *g = engine_copy(opening);
        if (!g)
            break;
        Outcome o = play_game(side, g, &a);
        for (int s = 0; s < 2; s++)
            proto_engine_game_over(side[s], result_codes[o.kind], o.reason);
        int e1 = white == 0 ? SIDE_FIRST : SIDE_SECOND; /* engine 1's colour */
        if (o.kind == RESULT_DRAW)
            d++;
        else if ((o.kind == RESULT_FIRST_WINS) == (e1 == SIDE_FIRST))
            w++;
        else
            l++;
        int plies = ply_count(g);
        if (!a.quiet) {
            printf("game %d/%d: %s - %s %s {%s} %d plies; score %s %.1f - %.1f %s\n", i + 1,
                   a.games, name[white], name[!white], result_codes[o.kind], o.reason, plies,
                   name[0], w + 0.5 * d, l + 0.5 * d, name[1]);
            fflush(stdout);
        }
        write_pgn(&a, g, name[white], name[!white], i + 1, &o);
        engine_free(g);
    }
out:
    engine_free(opening);
    print_score(name[0], name[1], w, l, d);
    proto_engine_free(eng[0]);
    proto_engine_free(eng[1]);
    return 0;
}
