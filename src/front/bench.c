/* bench.c - `menagerie bench [DEPTH]`: a fixed-depth search of fixed
 * positions from every chess variant through the engine API, one thread and
 * a fixed table, so the total node count is a signature of the searcher.
 * Self-play tools live here too: `bench engine` answers a tiny line protocol
 * (position/go/bestmove) and `bench match` referees games between two
 * builds, or against an XBoard engine (see match_usage()). */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "engine/engine.h"
#include "front/frontends.h"

typedef struct {
    const char *variant, *fen; /* fen NULL: the start position */
} BenchPos;

/* Each game's start and two middlegames (from the engine's self-play). */
static const BenchPos bench_positions[] = {
    {"chess", NULL},
    {"chess", "r3kb1r/pppnnppp/2bp4/3P4/8/2N5/PPP2PPP/R1B1KBNR w KQkq - 1 9"},
    {"chess", "r2k3r/ppp1bp1p/2np2p1/1N6/5B2/1B6/PPP2PPP/R3K2R w KQ - 6 16"},
    {"snake-vs-mongoose", NULL},
    {"snake-vs-mongoose", "r1b1qkgbnr/1sg3s1sn/ppn1pp1p1p/1npp4p1/6p2P/s5P3/1N1P3QN1/"
                          "1PP1PP1PP1/1M1M2M1M1/RNBG1KGBNR w KQkq - 1 9"},
    {"snake-vs-mongoose", "r3qkgbnr/1sg5s1/ppn1b2p1p/1n1pp3n1/2p1s1p3/s1P1PpP3/1N1P1Q2N1/"
                          "RP3P1PP1/1M1M1M2M1/1NBG1KGBNR w Kkq - 0 16"},
    {"team-mate", NULL},
    {"team-mate", "1u1akm1c/p1p1ppp1/1p2en1p/3pN3/1f1P4/2UFEP2/PPP1P1PP/3AKM1C w Kk - 2 9"},
    {"team-mate", "1u2k2c/p1p1ppp1/1p1m1n1p/a2pN3/2eP4/P1U1EP1M/2PCP1PP/3A2K1 w k - 0 16"},
    {"diamondback", NULL},
    {"diamondback", "3pr2k/3npqbb/3pp1p1/PNP1pnp1/R1PP2p1/1PPN1P2/BB1P4/KQ5r w - - 0 9"},
    {"diamondback", "3pr2k/3npqbb/3pp3/PNP1p2p/RNPP4/1P1PP3/1B3pn1/KB2Q3 w - - 2 16"},
    {"hannibal", NULL},
    {"hannibal", "rneb1kbe1r/pp4pppp/3p3n2/2p1ppq3/10/4PP1P1B/3F2QN2/PPPP2P1PP/RNEB1K1E1R"
                 "[Mdmdfh] w KQkq - 0 9"},
    {"hannibal", "rnem1r1ek1/pp4pppp/b2p3n2/2p2p4/5R1b2/4P2P1B/E2F2MN2/PPPP2P1PP/RN5EK1[fh] w - "
                 "- 0 16"},
};

#define DEFAULT_DEPTH 8

typedef struct {
    SearchInfo last;
    int n;
} BenchInfo;

static void on_info(const SearchInfo *si, void *ud) {
    BenchInfo *bi = ud;
    bi->last = *si;
    bi->n++;
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int bench_signature(int argc, char **argv) {
    int depth = DEFAULT_DEPTH;
    if (argc > 1) {
        char *end;
        long d = strtol(argv[1], &end, 10);
        if (*end || d < 1 || d > 64) {
            fprintf(stderr, "usage: menagerie bench [DEPTH]\n");
            return 2;
        }
        depth = (int)d;
    }
    uint64_t total = 0;
    double t0 = now_s();
    size_t npos = sizeof bench_positions / sizeof bench_positions[0];
    for (size_t i = 0; i < npos; i++) {
        const BenchPos *bp = &bench_positions[i];
        char err[ENGINE_ERR_LEN];
        Game *g = engine_new(bp->variant, bp->fen, err, sizeof err);
        if (!g) {
            fprintf(stderr, "menagerie bench: %s: %s\n", bp->variant, err);
            return 1;
        }
        SearchLimits lim;
        memset(&lim, 0, sizeof lim);
        lim.depth = depth;
        lim.threads = 1;
        lim.hash_mb = 16;
        BenchInfo bi;
        memset(&bi, 0, sizeof bi);
        SearchCallbacks cb = {on_info, &bi};
        char best[ENGINE_MOVE_TEXT];
        double p0 = now_s();
        engine_go(g, &lim, &cb, best, sizeof best);
        double dt = now_s() - p0;
        total += bi.last.nodes;
        printf("%2zu %-18s depth %2d score %6d nodes %10llu %6.0f knps  best %s\n", i + 1,
               bp->variant, bi.last.depth, bi.last.score, (unsigned long long)bi.last.nodes,
               dt > 0 ? bi.last.nodes / dt / 1000 : 0.0, best);
        fflush(stdout);
        engine_free(g);
    }
    double dt = now_s() - t0;
    printf("\nNodes searched: %llu\n", (unsigned long long)total);
    printf("Nodes/second: %.0f\n", dt > 0 ? total / dt : 0.0);
    printf("Bench: %llu\n", (unsigned long long)total);
    return 0;
}

/* ---- `bench engine`: the line protocol a match talks to ------------------
 *
 *   position VARIANT startpos|fen FEN [moves M1 M2 ...]
 *   go [wtime MS] [btime MS] [winc MS] [binc MS] [movestogo N] [movetime MS]
 *      [depth N] [nodes N] [level N] [threads N] [hash MB]
 *   -> info depth D ... pv ... (after each iteration), then
 *      bestmove MOVE           (one per go; "(none)" when the game is over)
 *   newgame | quit
 * The game (and so the searcher's table) is kept while positions extend it. */

#define MAX_LINE 65536
#define MAX_GAME_MOVES 2048

typedef struct {
    Game *g;
    char variant[64], fen[512];
    int nmoves;
    char (*moves)[ENGINE_MOVE_TEXT];
} EngineState;

static bool engine_position(EngineState *es, char *args) {
    char *save = NULL;
    char *variant = strtok_r(args, " \t", &save);
    char *kind = strtok_r(NULL, " \t", &save);
    if (!variant || !kind)
        return false;
    char fen[512] = "";
    char *tok = strtok_r(NULL, " \t", &save);
    if (!strcmp(kind, "fen")) {
        while (tok && strcmp(tok, "moves")) {
            if (fen[0])
                strncat(fen, " ", sizeof fen - strlen(fen) - 1);
            strncat(fen, tok, sizeof fen - strlen(fen) - 1);
            tok = strtok_r(NULL, " \t", &save);
        }
    }
    char *list[MAX_GAME_MOVES];
    int n = 0;
    if (tok && !strcmp(tok, "moves"))
        while ((tok = strtok_r(NULL, " \t", &save)) && n < MAX_GAME_MOVES)
            list[n++] = tok;
    bool same = es->g && !strcmp(es->variant, variant) && !strcmp(es->fen, fen) &&
                n >= es->nmoves;
    for (int i = 0; same && i < es->nmoves; i++)
        same = !strcmp(es->moves[i], list[i]);
    char err[ENGINE_ERR_LEN];
    if (!same) {
        engine_free(es->g);
        es->g = engine_new(variant, fen[0] ? fen : NULL, err, sizeof err);
        es->nmoves = 0;
        snprintf(es->variant, sizeof es->variant, "%s", variant);
        snprintf(es->fen, sizeof es->fen, "%s", fen);
        if (!es->g) {
            printf("error %s\n", err);
            return false;
        }
    }
    for (int i = es->nmoves; i < n; i++) {
        if (!engine_play(es->g, list[i], err, sizeof err)) {
            printf("error move %s: %s\n", list[i], err);
            engine_free(es->g);
            es->g = NULL;
            return false;
        }
        snprintf(es->moves[es->nmoves++], ENGINE_MOVE_TEXT, "%s", list[i]);
    }
    return true;
}

static void print_info(const SearchInfo *si, void *ud) {
    (void)ud;
    if (si->mate)
        printf("info depth %d seldepth %d mate %d nodes %llu nps %llu time %d pv %s\n", si->depth,
               si->seldepth, si->mate, (unsigned long long)si->nodes,
               (unsigned long long)si->nps, si->time_ms, si->pv);
    else
        printf("info depth %d seldepth %d score %d nodes %llu nps %llu time %d pv %s\n", si->depth,
               si->seldepth, si->score, (unsigned long long)si->nodes,
               (unsigned long long)si->nps, si->time_ms, si->pv);
}

static void engine_do_go(EngineState *es, char *args) {
    SearchLimits lim;
    memset(&lim, 0, sizeof lim);
    char *save = NULL;
    for (char *k = strtok_r(args, " \t", &save); k; k = strtok_r(NULL, " \t", &save)) {
        char *val = strtok_r(NULL, " \t", &save);
        long long x = val ? atoll(val) : 0;
        if (!strcmp(k, "wtime"))
            lim.time_ms[0] = (int)x;
        else if (!strcmp(k, "btime"))
            lim.time_ms[1] = (int)x;
        else if (!strcmp(k, "winc"))
            lim.inc_ms[0] = (int)x;
        else if (!strcmp(k, "binc"))
            lim.inc_ms[1] = (int)x;
        else if (!strcmp(k, "movestogo"))
            lim.movestogo = (int)x;
        else if (!strcmp(k, "movetime"))
            lim.movetime_ms = (int)x;
        else if (!strcmp(k, "depth"))
            lim.depth = (int)x;
        else if (!strcmp(k, "nodes"))
            lim.nodes = (uint64_t)x;
        else if (!strcmp(k, "level"))
            lim.level = (int)x;
        else if (!strcmp(k, "threads"))
            lim.threads = (int)x;
        else if (!strcmp(k, "hash"))
            lim.hash_mb = (int)x;
    }
    char best[ENGINE_MOVE_TEXT] = "(none)";
    SearchCallbacks cb = {print_info, NULL};
    if (!es->g || !engine_go(es->g, &lim, &cb, best, sizeof best))
        snprintf(best, sizeof best, "(none)");
    printf("bestmove %s\n", best);
}

static int bench_engine(void) {
    EngineState es;
    memset(&es, 0, sizeof es);
    es.moves = calloc(MAX_GAME_MOVES, sizeof *es.moves);
    char *line = malloc(MAX_LINE);
    if (!es.moves || !line)
        return 1;
    setvbuf(stdout, NULL, _IOLBF, 0);
    while (fgets(line, MAX_LINE, stdin)) {
        line[strcspn(line, "\r\n")] = 0;
        if (!strncmp(line, "position ", 9)) {
            if (!engine_position(&es, line + 9))
                printf("error bad position\n");
        } else if (!strncmp(line, "go", 2) && (line[2] == 0 || line[2] == ' ')) {
            engine_do_go(&es, line + 2);
        } else if (!strcmp(line, "newgame")) {
            engine_free(es.g);
            es.g = NULL;
        } else if (!strcmp(line, "quit")) {
            break;
        } else if (!strcmp(line, "isready")) {
            printf("readyok\n");
        }
        fflush(stdout);
    }
    engine_free(es.g);
    free(es.moves);
    free(line);
    return 0;
}

/* ---- `bench match`: a referee over the engine API ------------------------ */

typedef struct {
    const char *spec; /* a menagerie binary, or xboard:PATH */
    bool xboard, usermove;
    pid_t pid;
    int in, out; /* we write to in, read from out */
    char buf[MAX_LINE];
    size_t len;
    char name[64];
} Player;

static int64_t ms_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static bool player_start(Player *p) {
    int to[2], from[2];
    if (pipe(to) || pipe(from))
        return false;
    p->xboard = !strncmp(p->spec, "xboard:", 7);
    const char *path = p->xboard ? p->spec + 7 : p->spec;
    p->pid = fork();
    if (p->pid < 0)
        return false;
    if (p->pid == 0) {
        dup2(to[0], 0);
        dup2(from[1], 1);
        close(to[0]), close(to[1]), close(from[0]), close(from[1]);
        if (p->xboard)
            execlp(path, path, (char *)NULL);
        else
            execlp(path, path, "bench", "engine", (char *)NULL);
        _exit(127);
    }
    close(to[0]);
    close(from[1]);
    p->in = to[1];
    p->out = from[0];
    p->len = 0;
    return true;
}

static void player_send(Player *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void player_send(Player *p, const char *fmt, ...) {
    char line[MAX_LINE];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if (n > (int)sizeof line - 2)
        n = (int)sizeof line - 2;
    line[n++] = '\n';
    ssize_t off = 0;
    while (off < n) {
        ssize_t w = write(p->in, line + off, (size_t)(n - off));
        if (w <= 0)
            return;
        off += w;
    }
}

/* Next line from the player within deadline (ms clock); NULL on timeout/EOF. */
static char *player_line(Player *p, int64_t deadline, char *out, size_t outlen) {
    for (;;) {
        char *nl = memchr(p->buf, '\n', p->len);
        if (nl) {
            size_t l = (size_t)(nl - p->buf);
            size_t c = l < outlen - 1 ? l : outlen - 1;
            memcpy(out, p->buf, c);
            out[c] = 0;
            if (c && out[c - 1] == '\r')
                out[c - 1] = 0;
            memmove(p->buf, nl + 1, p->len - l - 1);
            p->len -= l + 1;
            return out;
        }
        int64_t left = deadline - ms_now();
        if (left <= 0)
            return NULL;
        struct pollfd pf = {p->out, POLLIN, 0};
        int r = poll(&pf, 1, (int)(left > 1000000 ? 1000000 : left));
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return NULL;
        if (p->len >= sizeof p->buf - 1)
            p->len = 0;
        ssize_t n = read(p->out, p->buf + p->len, sizeof p->buf - 1 - p->len);
        if (n <= 0)
            return NULL;
        p->len += (size_t)n;
    }
}

static void player_stop(Player *p) {
    if (p->pid <= 0)
        return;
    player_send(p, "quit");
    close(p->in);
    int64_t end = ms_now() + 2000;
    int status;
    while (waitpid(p->pid, &status, WNOHANG) == 0) {
        if (ms_now() > end) {
            kill(p->pid, SIGKILL);
            waitpid(p->pid, &status, 0);
            break;
        }
        struct timespec ts = {0, 10000000};
        nanosleep(&ts, NULL);
    }
    close(p->out);
    p->pid = 0;
}

static bool xboard_init(Player *p) {
    player_send(p, "xboard");
    player_send(p, "protover 2");
    char line[MAX_LINE];
    int64_t end = ms_now() + 3000;
    while (player_line(p, end, line, sizeof line)) {
        if (strstr(line, "usermove=1"))
            p->usermove = true;
        if (strstr(line, "done=1"))
            break;
    }
    return true;
}

typedef struct {
    const char *variant;
    int games, plies;
    int base_ms, inc_ms, movetime_ms;
    uint64_t nodes;
    int depth, level_a, level_b, hash_mb;
    uint64_t seed;
    bool verbose;
} MatchOpts;

static uint64_t rng_next(uint64_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* One game; returns +1 white wins, 0 draw, -1 black wins. */
static int play_game(Player *white, Player *black, const MatchOpts *o, const char *start_fen,
                     char (*opening)[ENGINE_MOVE_TEXT], int nopen, char *why, size_t whylen,
                     int *plies_out) {
    char err[ENGINE_ERR_LEN];
    Game *g = engine_new(o->variant, start_fen, err, sizeof err);
    if (!g) {
        snprintf(why, whylen, "%s", err);
        return 0;
    }
    char (*moves)[ENGINE_MOVE_TEXT] = calloc(MAX_GAME_MOVES, sizeof *moves);
    char *cmd = malloc(MAX_LINE);
    int n = 0, outcome = 0;
    for (int i = 0; i < nopen; i++) {
        engine_play(g, opening[i], err, sizeof err);
        snprintf(moves[n++], ENGINE_MOVE_TEXT, "%s", opening[i]);
    }
    int64_t clock[2] = {o->base_ms, o->base_ms};
    Player *pl[2] = {white, black};
    for (int c = 0; c < 2; c++) {
        if (pl[c]->xboard) {
            player_send(pl[c], "new");
            if (strcmp(o->variant, "chess"))
                player_send(pl[c], "variant %s", o->variant);
            player_send(pl[c], "easy");
            player_send(pl[c], "force");
            if (o->base_ms)
                player_send(pl[c], "level 0 %d:%02d %g", o->base_ms / 60000,
                            o->base_ms / 1000 % 60, o->inc_ms / 1000.0);
            else if (o->movetime_ms)
                player_send(pl[c], "st %d", (o->movetime_ms + 999) / 1000);
            for (int i = 0; i < n; i++)
                player_send(pl[c], "%s%s", pl[c]->usermove ? "usermove " : "", moves[i]);
        } else {
            /* answers still under way from the last game (a loss on time)
             * are drained here, or they would answer this game's requests */
            player_send(pl[c], "newgame");
            player_send(pl[c], "isready");
            char line[256];
            int64_t end = ms_now() + 60000;
            while (player_line(pl[c], end, line, sizeof line) && strcmp(line, "readyok"))
                ;
        }
    }
    for (;;) {
        GameResult r = engine_result(g);
        if (r.kind != RESULT_NONE) {
            outcome = r.kind == RESULT_FIRST_WINS ? 1 : r.kind == RESULT_SECOND_WINS ? -1 : 0;
            snprintf(why, whylen, "%s", r.reason);
            break;
        }
        if (n >= 600) {
            snprintf(why, whylen, "adjudicated: too long");
            break;
        }
        int side = engine_side_to_move(g) == SIDE_FIRST ? 0 : 1;
        Player *p = pl[side];
        int64_t t0 = ms_now();
        char line[MAX_LINE], best[ENGINE_MOVE_TEXT] = "";
        int64_t limit = o->base_ms ? clock[side] + 1000 : 3600000;
        if (p->xboard) {
            if (n > nopen && n > 0)
                player_send(p, "%s%s", p->usermove ? "usermove " : "", moves[n - 1]);
            if (o->base_ms) {
                player_send(p, "time %lld", (long long)(clock[side] > 10 ? clock[side] / 10 : 1));
                player_send(p, "otim %lld", (long long)(clock[!side] > 10 ? clock[!side] / 10 : 1));
            }
            player_send(p, "go");
            while (player_line(p, t0 + limit, line, sizeof line)) {
                if (!strncmp(line, "move ", 5)) {
                    snprintf(best, sizeof best, "%s", line + 5);
                    break;
                }
                if (strstr(line, "resign")) {
                    snprintf(best, sizeof best, "resign");
                    break;
                }
            }
            player_send(p, "force");
        } else {
            size_t off = (size_t)snprintf(cmd, MAX_LINE, "position %s %s%s%s", o->variant,
                                          start_fen ? "fen " : "startpos",
                                          start_fen ? start_fen : "", n ? " moves" : "");
            for (int i = 0; i < n && off < MAX_LINE - 40; i++)
                off += (size_t)snprintf(cmd + off, MAX_LINE - off, " %s", moves[i]);
            player_send(p, "%s", cmd);
            int lv = p->name[0] == 'A' ? o->level_a : o->level_b;
            if (o->base_ms) /* an overdrawn clock (within the grace) reads as 1 ms */
                player_send(p, "go wtime %lld btime %lld winc %d binc %d level %d hash %d",
                            (long long)(clock[0] > 0 ? clock[0] : 1),
                            (long long)(clock[1] > 0 ? clock[1] : 1), o->inc_ms, o->inc_ms, lv,
                            o->hash_mb);
            else if (o->movetime_ms)
                player_send(p, "go movetime %d level %d hash %d", o->movetime_ms, lv, o->hash_mb);
            else
                player_send(p, "go nodes %llu depth %d level %d hash %d",
                            (unsigned long long)o->nodes, o->depth, lv, o->hash_mb);
            while (player_line(p, t0 + limit, line, sizeof line))
                if (!strncmp(line, "bestmove ", 9)) {
                    snprintf(best, sizeof best, "%s", line + 9);
                    break;
                }
        }
        int64_t used = ms_now() - t0;
        if (o->base_ms) {
            clock[side] -= used;
            if (clock[side] < -200 || !best[0]) {
                outcome = side ? 1 : -1;
                snprintf(why, whylen, "%s loses on time: %lld ms used, %lld left before",
                         side ? "black" : "white", (long long)used,
                         (long long)(clock[side] + used));
                break;
            }
            clock[side] += o->inc_ms;
        }
        if (!strcmp(best, "resign")) {
            outcome = side ? 1 : -1;
            snprintf(why, whylen, "%s resigns", side ? "black" : "white");
            break;
        }
        if (!best[0] || !engine_play(g, best, err, sizeof err)) {
            outcome = side ? 1 : -1;
            snprintf(why, whylen, "%s: illegal move \"%s\"", side ? "black" : "white", best);
            break;
        }
        snprintf(moves[n++], ENGINE_MOVE_TEXT, "%s", best);
        if (o->verbose)
            fprintf(stderr, "%s ", best);
    }
    if (o->verbose)
        fprintf(stderr, "\n");
    *plies_out = n;
    free(cmd);
    free(moves);
    engine_free(g);
    return outcome;
}

static int match_usage(void) {
    fprintf(stderr,
            "usage: menagerie bench match A B [options]\n"
            "  A, B: a menagerie binary (spoken to as `BIN bench engine`) or xboard:PATH\n"
            "  --variant V     game (default chess)\n"
            "  --games N       games, in pairs with colours swapped (default 20)\n"
            "  --tc S+I        seconds per game plus increment (default 10+0.1)\n"
            "  --movetime MS | --nodes N | --depth N   instead of a clock\n"
            "  --plies K       random opening plies (default 4; set-up moves extra)\n"
            "  --level-a L --level-b L   playing levels (menagerie players)\n"
            "  --hash MB       table size (default 16)\n"
            "  --seed S        opening seed (default 1)\n");
    return 2;
}

static int bench_match(int argc, char **argv) {
    MatchOpts o = {.variant = "chess", .games = 20, .plies = 4, .base_ms = 10000,
                   .inc_ms = 100, .hash_mb = 16, .seed = 1};
    const char *spec[2] = {NULL, NULL};
    int nspec = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--variant") && val)
            o.variant = argv[++i];
        else if (!strcmp(a, "--games") && val)
            o.games = atoi(argv[++i]);
        else if (!strcmp(a, "--plies") && val)
            o.plies = atoi(argv[++i]);
        else if (!strcmp(a, "--tc") && val) {
            double b = 0, inc = 0;
            if (sscanf(argv[++i], "%lf+%lf", &b, &inc) < 1)
                return match_usage();
            o.base_ms = (int)(b * 1000);
            o.inc_ms = (int)(inc * 1000);
        } else if (!strcmp(a, "--movetime") && val) {
            o.movetime_ms = atoi(argv[++i]);
            o.base_ms = o.inc_ms = 0;
        } else if (!strcmp(a, "--nodes") && val) {
            o.nodes = strtoull(argv[++i], NULL, 10);
            o.base_ms = o.inc_ms = 0;
        } else if (!strcmp(a, "--depth") && val) {
            o.depth = atoi(argv[++i]);
            o.base_ms = o.inc_ms = 0;
        } else if (!strcmp(a, "--level-a") && val)
            o.level_a = atoi(argv[++i]);
        else if (!strcmp(a, "--level-b") && val)
            o.level_b = atoi(argv[++i]);
        else if (!strcmp(a, "--hash") && val)
            o.hash_mb = atoi(argv[++i]);
        else if (!strcmp(a, "--seed") && val)
            o.seed = strtoull(argv[++i], NULL, 10) | 1;
        else if (!strcmp(a, "-v"))
            o.verbose = true;
        else if (a[0] != '-' && nspec < 2)
            spec[nspec++] = a;
        else
            return match_usage();
    }
    if (nspec != 2 || o.games < 1)
        return match_usage();
    signal(SIGPIPE, SIG_IGN);
    Player *p[2];
    for (int i = 0; i < 2; i++) {
        p[i] = calloc(1, sizeof *p[i]);
        p[i]->spec = spec[i];
        snprintf(p[i]->name, sizeof p[i]->name, "%c", 'A' + i);
        if (!p[i] || !player_start(p[i])) {
            fprintf(stderr, "menagerie match: cannot start %s\n", spec[i]);
            return 1;
        }
        if (p[i]->xboard)
            xboard_init(p[i]);
    }
    int win = 0, loss = 0, draw = 0;
    uint64_t rng = o.seed * 0x9E3779B97F4A7C15ull | 1;
    char(*opening)[ENGINE_MOVE_TEXT] = calloc(64, sizeof *opening);
    char(*legal)[ENGINE_MOVE_TEXT] = calloc(ENGINE_MAX_MOVES, sizeof *legal);
    char fen[512];
    int nopen = 0;
    const char *start = NULL;
    for (int gi = 0; gi < o.games; gi++) {
        if (gi % 2 == 0) {
            /* a new opening: a random set-up, then random plies */
            char err[ENGINE_ERR_LEN];
            const char *const *setups = engine_setups(o.variant);
            int ns = 0;
            while (setups[ns])
                ns++;
            start = NULL;
            if (ns && !engine_start_fen(o.variant, setups[rng_next(&rng) % (uint64_t)ns], fen,
                                        sizeof fen, err, sizeof err))
                start = fen;
            Game *g = engine_new(o.variant, start, err, sizeof err);
            if (!g)
                return 1;
            GameInfo info;
            engine_info(g, &info);
            int want = o.plies + (info.gating ? 2 : 0);
            nopen = 0;
            for (int k = 0; k < want && nopen < 64; k++) {
                int nl = engine_legal_moves(g, legal, ENGINE_MAX_MOVES, false);
                if (nl <= 0 || engine_result(g).kind != RESULT_NONE)
                    break;
                int pick = (int)(rng_next(&rng) % (uint64_t)(nl < ENGINE_MAX_MOVES ? nl : ENGINE_MAX_MOVES));
                engine_play(g, legal[pick], err, sizeof err);
                snprintf(opening[nopen++], ENGINE_MOVE_TEXT, "%s", legal[pick]);
            }
            engine_free(g);
        }
        bool a_white = gi % 2 == 0;
        char why[128] = "";
        int plies = 0;
        int res = play_game(a_white ? p[0] : p[1], a_white ? p[1] : p[0], &o, start, opening,
                            nopen, why, sizeof why, &plies);
        int for_a = a_white ? res : -res;
        win += for_a > 0;
        loss += for_a < 0;
        draw += for_a == 0;
        printf("game %3d: A %s  %s  (%s, %d plies)   A %d-%d-%d\n", gi + 1,
               a_white ? "white" : "black", res > 0 ? "1-0" : res < 0 ? "0-1" : "1/2", why, plies,
               win, loss, draw);
        fflush(stdout);
    }
    int games = win + loss + draw;
    double score = (win + 0.5 * draw) / games;
    double elo = score <= 0 ? -999 : score >= 1 ? 999 : -400 * log10(1 / score - 1);
    /* standard error of the score, then of the Elo difference */
    double var = (win * pow(1 - score, 2) + loss * pow(score, 2) + draw * pow(0.5 - score, 2)) / games;
    double se = sqrt(var / games);
    double lo = score - 1.96 * se, hi = score + 1.96 * se;
    double elo_err = (lo > 0 && hi < 1) ? (-400 * log10(1 / hi - 1) + 400 * log10(1 / lo - 1)) / 2 : 0;
    printf("Score of %s vs %s (%s): %d-%d-%d  %.1f%%  Elo %+.0f +/- %.0f\n", spec[0], spec[1],
           o.variant, win, loss, draw, 100 * score, elo, elo_err);
    for (int i = 0; i < 2; i++) {
        player_stop(p[i]);
        free(p[i]);
    }
    free(opening);
    free(legal);
    return 0;
}

int bench_main(int argc, char **argv) {
    if (argc > 1 && !strcmp(argv[1], "engine"))
        return bench_engine();
    if (argc > 1 && !strcmp(argv[1], "match"))
        return bench_match(argc - 1, argv + 1);
    return bench_signature(argc, argv);
}
