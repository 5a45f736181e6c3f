/* uci.c - UCI over the engine API.
 *
 * The game is chosen with the UCI_Variant option (chess, snake-vs-mongoose,
 * team-mate, diamondback, hannibal); "position startpos" is its rules'
 * start (Diamondback: the first set-up, Queens on b1 and g8). Moves are
 * our coordinate text as is: ranks from 1 on every board (a9a10q), castling
 * as the king's move, Hannibal set-up moves as "MbFh". As in xboard.c the
 * input thread owns all state and the engine service searches a copy of the
 * game. After "go infinite" or "go ponder" the bestmove waits for "stop" or
 * "ponderhit"; a ponder hit turns the search into a timed one with the
 * budget the clocks of that "go" allow. Beyond the protocol, as in
 * Stockfish: UCI_LimitStrength/UCI_Elo (the calibrated level nearest the
 * Elo), UCI_ShowWDL, hashfull, and the commands d, eval and go perft
 * (docs/uci.md). */
#include <ctype.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "app/frontends.h"
#include "app/proto/proto_io.h"
#include "app/proto/proto_search.h"
#include "engine/engine.h"

typedef struct {
    Game *g;
    char variant[40];
    ProtoSearch *search;
    int hash_mb, threads, level, multipv;
    bool ponder_opt;
    bool limit_strength; /* UCI_LimitStrength: play at the level of UCI_Elo */
    int elo;             /* UCI_Elo */
    bool show_wdl;       /* UCI_ShowWDL: wdl W D L in info lines */
    bool wdl_on;         /* UCI_ShowWDL as the running search began */
    EngineWdl wdl;       /* the model of the position searched */
    bool hold;           /* infinite or ponder: bestmove waits for stop/ponderhit */
    bool pondering;      /* "go ponder" running, no ponderhit yet */
    bool have_held;
    ProtoResult held;
    ProtoLines *in; /* standard input, once its lines are read (NULL before) */
    bool quit;
} Uci;

__attribute__((format(printf, 1, 2))) static void info_string(const char *fmt, ...) {
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    proto_out("info string %s", msg);
}

static void uci_info(const SearchInfo *in, int tag, void *ud) {
    (void)tag;
    const Uci *u = ud;
    char score[32], wdl[40] = "";
    if (in->mate)
        snprintf(score, sizeof score, "mate %d", in->mate);
    else
        snprintf(score, sizeof score, "cp %d", in->score);
    if (u->wdl_on) {
        int w[3];
        engine_wdl(&u->wdl, in->score, in->mate, w);
        snprintf(wdl, sizeof wdl, " wdl %d %d %d", w[0], w[1], w[2]);
    }
    proto_out("info depth %d seldepth %d multipv %d score %s%s nodes %llu nps %llu hashfull %d "
              "time %d%s%s",
              in->depth, in->seldepth, in->multipv, score, wdl, (unsigned long long)in->nodes,
              (unsigned long long)in->nps, in->hashfull, in->time_ms, in->pv[0] ? " pv " : "",
              in->pv);
}

static void print_best(const EngineResult *r) {
    if (r->fallback)
        proto_out("info string no move from the searcher: the first legal move stands in");
    if (!r->best[0])
        proto_out("bestmove (none)");
    else if (r->ponder[0])
        proto_out("bestmove %s ponder %s", r->best, r->ponder);
    else
        proto_out("bestmove %s", r->best);
}

static void on_done(Uci *u) {
    ProtoResult r;
    if (!proto_search_finish(u->search, &r))
        return;
    if (u->hold) { /* not before stop or ponderhit */
        u->held = r;
        u->have_held = true;
        return;
    }
    print_best(&r.r);
}

/* Ends a search and prints its move (stop). */
static void finish_now(Uci *u) {
    u->hold = false;
    u->pondering = false;
    if (u->have_held) {
        u->have_held = false;
        print_best(&u->held.r);
        return;
    }
    if (proto_search_running(u->search)) {
        engine_search_stop(proto_search_engine(u->search));
        proto_search_wait_done(u->search);
        on_done(u);
    }
}

/* Drops a search without a bestmove (new game, position while searching
 * is a GUI error, but must not leave a thread behind). */
static void drop_search(Uci *u) {
    if (proto_search_running(u->search) || u->have_held)
        finish_now(u); /* UCI wants one bestmove per go */
}

static bool new_game(Uci *u, const char *variant, const char *fen, char *err, size_t errlen) {
    char name[sizeof u->variant];
    snprintf(name, sizeof name, "%s", variant); /* may be u->variant itself */
    Game *g = proto_new_game(name, fen, err, errlen);
    if (!g)
        return false;
    engine_free(u->g);
    u->g = g;
    memcpy(u->variant, name, sizeof name);
    return true;
}

/* --- commands ---------------------------------------------------------- */

typedef struct {
    char **tok; /* as many as the line has words */
    int n;
    const char *line;
} Args;

/* Joins words [from, to) of a with single blanks into buf (len bytes);
 * false when they do not fit. */
static bool join_words(const Args *a, int from, int to, char *buf, size_t len) {
    size_t used = 0;
    buf[0] = '\0';
    for (int i = from; i < to; i++) {
        int n = snprintf(buf + used, len - used, "%s%s", used ? " " : "", a->tok[i]);
        if (n < 0 || (size_t)n >= len - used)
            return false;
        used += (size_t)n;
    }
    return true;
}

static void cmd_uci(Uci *u, Args *a) {
    (void)a;
    char combo[512] = "";
    const char *const *games = proto_chess_games();
    for (int i = 0; games[i]; i++) {
        strcat(combo, " var ");
        strcat(combo, games[i]);
    }
    proto_out("id name Menagerie");
    proto_out("id author the Menagerie authors");
    proto_out("option name Hash type spin default %d min 1 max %d", u->hash_mb ? u->hash_mb : 16,
              proto_hash_cap_mb());
    proto_out("option name Threads type spin default 1 min 1 max 256");
    proto_out("option name Ponder type check default false");
    proto_out("option name Level type spin default 0 min 0 max 20");
    int lo, hi;
    engine_elo_range(&lo, &hi);
    proto_out("option name UCI_LimitStrength type check default false");
    proto_out("option name UCI_Elo type spin default %d min %d max %d", u->elo, lo, hi);
    proto_out("option name UCI_ShowWDL type check default false");
    proto_out("option name MultiPV type spin default 1 min 1 max %d", SEARCH_MAX_PV);
    proto_out("option name SearchParams type string default <empty>");
    proto_out("option name EvalFile type string default <default>");
    proto_out("option name UCI_Variant type combo default chess%s", combo);
    proto_out("uciok");
}

static void cmd_isready(Uci *u, Args *a) {
    (void)u, (void)a;
    proto_out("readyok");
}

/* A check option's value: true or false. */
static bool check_value(const char *value, bool *out) {
    if (strcmp(value, "true") && strcmp(value, "false"))
        return false;
    *out = !strcmp(value, "true");
    return true;
}

static bool elo_value(const char *value, long *out) {
    int lo, hi;
    engine_elo_range(&lo, &hi);
    return proto_parse_long(value, lo, hi, out);
}

static void cmd_setoption(Uci *u, Args *a) {
    /* setoption name NAME [value VALUE]; NAME may hold blanks */
    if (a->n < 3 || strcmp(a->tok[1], "name")) {
        info_string("bad setoption: %s", a->line);
        return;
    }
    char name[128], value[1024] = "";
    int i = 2;
    while (i < a->n && strcmp(a->tok[i], "value"))
        i++;
    bool has_value = i < a->n;
    if (!join_words(a, 2, i, name, sizeof name) ||
        (has_value && !join_words(a, i + 1, a->n, value, sizeof value))) {
        info_string("option name or value too long (at most %zu and %zu characters); nothing "
                    "set",
                    sizeof name - 1, sizeof value - 1);
        return;
    }
    long v;
    bool b;
    if (!strcasecmp(name, "Hash") && has_value && proto_parse_long(value, 1, LONG_MAX, &v)) {
        int cap = proto_hash_cap_mb();
        u->hash_mb = v > cap ? cap : (int)v;
        if (v > cap)
            proto_out("info string Hash capped to %d MB, what this machine can give (half its "
                      "memory)",
                      cap);
    } else if (!strcasecmp(name, "Threads") && has_value && proto_parse_long(value, 1, 256, &v))
        u->threads = (int)v;
    else if (!strcasecmp(name, "Level") && has_value && proto_parse_long(value, 0, 20, &v))
        u->level = (int)v;
    else if (!strcasecmp(name, "UCI_Elo") && has_value && elo_value(value, &v))
        u->elo = (int)v;
    else if (!strcasecmp(name, "UCI_LimitStrength") && has_value && check_value(value, &b))
        u->limit_strength = b;
    else if (!strcasecmp(name, "UCI_ShowWDL") && has_value && check_value(value, &b))
        u->show_wdl = b;
    else if (!strcasecmp(name, "MultiPV") && has_value &&
             proto_parse_long(value, 1, SEARCH_MAX_PV, &v))
        u->multipv = (int)v;
    else if (!strcasecmp(name, "SearchParams")) {
        /* the whole set: the defaults but for the numbers given */
        char err[ENGINE_ERR_LEN];
        if (!engine_search_set_option(proto_search_engine(u->search), "SearchParams",
                                      strcmp(value, "<empty>") ? value : "", err, sizeof err))
            info_string("%s", err);
    } else if (!strcasecmp(name, "EvalFile")) {
        /* a network file; <default>: the variant's own, <hand>: the hand-made evaluation */
        char err[ENGINE_ERR_LEN], what[200];
        EngineSearch *es = proto_search_engine(u->search);
        if (!engine_search_set_option(es, "EvalFile", value, err, sizeof err)) {
            info_string("EvalFile not changed: %s", err);
        } else {
            engine_search_describe_eval(es, u->g, what, sizeof what);
            info_string("EvalFile %s: %s", value, what);
        }
    } else if (!strcasecmp(name, "Ponder") && has_value && check_value(value, &b))
        u->ponder_opt = b;
    else if (!strcasecmp(name, "UCI_Variant") && has_value) {
        const char *const *games = proto_chess_games();
        int k = 0;
        while (games[k] && strcmp(games[k], value))
            k++;
        char err[ENGINE_ERR_LEN];
        if (!games[k]) {
            info_string("unknown variant %s", value);
            return;
        }
        drop_search(u);
        if (!new_game(u, games[k], NULL, err, sizeof err))
            info_string("%s", err);
    } else
        info_string("unknown option or bad value: %s", a->line);
}

static void cmd_ucinewgame(Uci *u, Args *a) {
    char err[ENGINE_ERR_LEN];
    drop_search(u);
    engine_search_clear(proto_search_engine(u->search));
    if (!new_game(u, u->variant, NULL, err, sizeof err))
        info_string("%s (%s)", err, a->line);
}

static void cmd_position(Uci *u, Args *a) {
    char err[ENGINE_ERR_LEN], fen[1024] = "";
    int i = 1;
    if (a->n >= 2 && !strcmp(a->tok[1], "startpos")) {
        i = 2;
    } else if (a->n >= 3 && !strcmp(a->tok[1], "fen")) {
        i = 2;
        while (i < a->n && strcmp(a->tok[i], "moves"))
            i++;
        if (!join_words(a, 2, i, fen, sizeof fen)) {
            info_string("bad position command: a FEN of more than %zu characters; position "
                        "unchanged",
                        sizeof fen - 1);
            return;
        }
    } else {
        info_string("bad position command: %s", a->line);
        return;
    }
    if (i < a->n && strcmp(a->tok[i], "moves")) {
        info_string("bad position command: %s", a->line);
        return;
    }
    Game *g = proto_new_game(u->variant, fen[0] ? fen : NULL, err, sizeof err);
    if (!g) {
        info_string("bad position (%s): %s", err, a->line);
        return;
    }
    for (i++; i < a->n; i++)
        if (!engine_play(g, a->tok[i], err, sizeof err)) {
            info_string("illegal move %s (%s); position unchanged", a->tok[i], err);
            engine_free(g);
            return;
        }
    drop_search(u);
    engine_free(u->g);
    u->g = g;
}

static void print_divide(const char *move, uint64_t count, void *ud) {
    (void)ud;
    proto_out("%s: %llu", move, (unsigned long long)count);
}

/* A count of go perft on its own thread, over a copy of the game. */
typedef struct {
    Game *g;
    int depth;
    atomic_bool stop, done;
    uint64_t nodes;
} PerftJob;

static void *perft_main(void *arg) {
    PerftJob *j = arg;
    j->nodes = engine_divide(j->g, j->depth, print_divide, NULL, &j->stop);
    atomic_store(&j->done, true);
    return NULL;
}

/* Waits for the count, reading standard input meanwhile: a "stop" next
 * (taken) or a "quit" anywhere (left for the loop, after the commands
 * before it) ends the count; the other commands wait for it, as in
 * Stockfish. True when it was stopped. */
static bool wait_perft(Uci *u, PerftJob *j) {
    while (u->in && !atomic_load(&j->done)) {
        if (proto_lines_next_is(u->in, "stop") || proto_lines_holds(u->in, "quit")) {
            if (proto_lines_next_is(u->in, "stop"))
                proto_lines_take(u->in);
            atomic_store(&j->stop, true);
            return true;
        }
        if (u->in->eof)
            break; /* nothing more can come: it counts on */
        struct pollfd fd = {u->in->fd, POLLIN, 0};
        if (poll(&fd, 1, 50) > 0)
            proto_lines_fill(u->in);
    }
    return false;
}

/* go perft N: the leaves below each root move, then the sum, in
 * Stockfish's form (perft tools that compare engines read it). */
static void go_perft(Uci *u, Args *a) {
    long depth;
    if (a->n != 3 || !proto_parse_long(a->tok[2], 1, 20, &depth)) {
        info_string("bad go perft command (go perft N, N from 1 to 20): %s", a->line);
        return;
    }
    drop_search(u);
    PerftJob j = {.g = engine_copy(u->g), .depth = (int)depth};
    atomic_init(&j.stop, false);
    atomic_init(&j.done, false);
    pthread_t t;
    if (!j.g || pthread_create(&t, NULL, perft_main, &j)) {
        info_string("go perft: cannot start the count");
        engine_free(j.g);
        return;
    }
    bool stopped = wait_perft(u, &j);
    pthread_join(t, NULL);
    engine_free(j.g);
    if (stopped) {
        info_string("go perft stopped: the counts above are short");
        return;
    }
    proto_out("%s", "");
    proto_out("Nodes searched: %llu", (unsigned long long)j.nodes);
    proto_out("%s", "");
}

static void cmd_go(Uci *u, Args *a) {
    if (a->n >= 2 && !strcmp(a->tok[1], "perft")) {
        go_perft(u, a);
        return;
    }
    SearchLimits lim;
    memset(&lim, 0, sizeof lim);
    bool ponder = false;
    static const char *const keys[] = {"wtime", "btime", "winc", "binc",    "movestogo",
                                       "depth", "nodes", "mate", "movetime"};
    for (int i = 1; i < a->n; i++) {
        if (!strcmp(a->tok[i], "infinite")) {
            lim.infinite = true;
            continue;
        }
        if (!strcmp(a->tok[i], "ponder")) {
            ponder = true;
            continue;
        }
        if (!strcmp(a->tok[i], "searchmoves")) {
            info_string("searchmoves is not supported: searching all moves");
            while (i + 1 < a->n && (isdigit((unsigned char)a->tok[i + 1][1]) ||
                                    isupper((unsigned char)a->tok[i + 1][0])))
                i++;
            continue;
        }
        size_t k = 0;
        while (k < sizeof keys / sizeof keys[0] && strcmp(keys[k], a->tok[i]))
            k++;
        long v;
        if (k == sizeof keys / sizeof keys[0] || i + 1 >= a->n ||
            !proto_parse_long(a->tok[i + 1], k == 6 ? 0 : -2147483647, 2147483647, &v)) {
            info_string("bad go command: %s", a->line);
            return;
        }
        i++;
        int iv = (int)(v < -2147483647 ? -2147483647 : v);
        switch (k) {
        case 0: lim.time_ms[0] = iv > 0 ? iv : 1; break;
        case 1: lim.time_ms[1] = iv > 0 ? iv : 1; break;
        case 2: lim.inc_ms[0] = iv > 0 ? iv : 0; break;
        case 3: lim.inc_ms[1] = iv > 0 ? iv : 0; break;
        case 4: lim.movestogo = iv > 0 ? iv : 0; break;
        case 5: lim.depth = iv > 0 ? iv : 1; break;
        case 6: lim.nodes = (uint64_t)v; break;
        case 7: lim.depth = iv <= 0 ? 1 : iv < 1000 ? 2 * iv - 1 : 1999; break; /* plies */
        default: lim.movetime_ms = iv > 0 ? iv : 1; break;
        }
    }
    drop_search(u);
    lim.hash_mb = u->hash_mb;
    lim.threads = u->threads;
    /* UCI_LimitStrength plays the calibrated level nearest UCI_Elo */
    lim.level = u->limit_strength ? engine_level_for_elo(u->elo) : u->level;
    u->wdl_on = u->show_wdl; /* the search thread reads these two */
    engine_wdl_model(u->g, &u->wdl);
    lim.multipv = u->multipv;
    char what[200];
    if (!engine_search_describe_eval(proto_search_engine(u->search), u->g, what, sizeof what))
        info_string("EvalFile: %s", what);
    u->hold = ponder || lim.infinite;
    u->pondering = ponder;
    u->have_held = false;
    if (!proto_search_start(u->search, u->g, NULL, &lim, ponder, uci_info, u, 0)) {
        u->hold = u->pondering = false;
        proto_out("bestmove (none)");
    }
}

static void cmd_stop(Uci *u, Args *a) {
    (void)a;
    if (proto_search_running(u->search) || u->have_held)
        finish_now(u);
}

static void cmd_ponderhit(Uci *u, Args *a) {
    if (!u->pondering) {
        info_string("ponderhit without go ponder: %s", a->line);
        return;
    }
    u->pondering = false;
    u->hold = false;
    if (u->have_held) {
        u->have_held = false;
        print_best(&u->held.r);
        return;
    }
    engine_search_ponderhit(proto_search_engine(u->search), NULL);
}

static void cmd_quit(Uci *u, Args *a) {
    (void)a;
    proto_search_abort(u->search);
    u->quit = true;
}

static void cmd_debug(Uci *u, Args *a) {
    (void)u;
    if (a->n != 2 || (strcmp(a->tok[1], "on") && strcmp(a->tok[1], "off")))
        info_string("bad debug command: %s", a->line);
}

static void cmd_register(Uci *u, Args *a) {
    (void)u, (void)a;
}

/* eval: the static evaluation of the position term by term (as
 * Stockfish's), plain text for a developer. */
static void cmd_eval(Uci *u, Args *a) {
    EngineEval ev;
    if (a->n != 1) {
        info_string("bad eval command: %s", a->line);
        return;
    }
    if (!engine_eval(u->g, &ev)) {
        info_string("this game has no evaluation to show");
        return;
    }
    proto_out("      term |     mg     eg   (centipawns, White's view)");
    for (int i = 0; i < ev.nterms; i++)
        proto_out("%10s | %6d %6d", ev.term[i].name, ev.term[i].mg, ev.term[i].eg);
    proto_out("     phase | %d of 256 middle game", ev.phase);
    proto_out("   blended | %d, scaled (few pawns, opposite bishops, mating potential) %d,"
              " tempo %d",
              ev.blended, ev.scaled, ev.tempo);
    bool white = engine_side_to_move(u->g) == SIDE_FIRST;
    proto_out("Total evaluation: %d (side to move), %d (White)", ev.score,
              white ? ev.score : -ev.score);
}

/* d: the board, its FEN and hash key, as Stockfish's. */
static void cmd_d(Uci *u, Args *a) {
    if (a->n != 1) {
        info_string("bad d command: %s", a->line);
        return;
    }
    BoardView b;
    char fen[1024], line[4 * 32 + 8], rule[4 * 32 + 8];
    if (engine_board(u->g, &b) && b.files <= 32) {
        int o = snprintf(rule, sizeof rule, " +");
        for (int f = 0; f < b.files; f++)
            o += snprintf(rule + o, sizeof rule - (size_t)o, "---+");
        proto_out("%s", "");
        proto_out("%s", rule);
        for (int r = b.ranks - 1; r >= 0; r--) {
            o = snprintf(line, sizeof line, " |");
            for (int f = 0; f < b.files; f++) {
                char c = b.sq[r * b.files + f];
                o += snprintf(line + o, sizeof line - (size_t)o, " %c |", c == '.' ? ' ' : c);
            }
            proto_out("%s %d", line, r + 1);
            proto_out("%s", rule);
        }
        o = snprintf(line, sizeof line, " ");
        for (int f = 0; f < b.files; f++)
            o += snprintf(line + o, sizeof line - (size_t)o, "  %c ", 'a' + f);
        proto_out("%s", line);
    }
    engine_position_text(u->g, fen, sizeof fen);
    proto_out("%s", "");
    proto_out("Fen: %s", fen);
    proto_out("Key: %016llX", (unsigned long long)engine_key(u->g));
}

typedef struct {
    const char *name;
    void (*run)(Uci *u, Args *a);
} UciCommand;

static const UciCommand commands[] = {
    {"uci", cmd_uci},
    {"isready", cmd_isready},
    {"setoption", cmd_setoption},
    {"ucinewgame", cmd_ucinewgame},
    {"position", cmd_position},
    {"go", cmd_go},
    {"stop", cmd_stop},
    {"ponderhit", cmd_ponderhit},
    {"quit", cmd_quit},
    {"debug", cmd_debug},
    {"register", cmd_register},
    {"eval", cmd_eval},
    {"d", cmd_d},
};

static void dispatch(Uci *u, char *line) {
    Args a;
    size_t len = strlen(line), words = 1;
    for (size_t i = 0; i < len; i++)
        words += line[i] == ' ' || line[i] == '\t';
    char *copy = malloc(len + 1);
    a.tok = malloc(words * sizeof *a.tok);
    if (!copy || !a.tok)
        abort();
    memcpy(copy, line, len + 1);
    a.line = line;
    a.n = proto_split(copy, a.tok, (int)words);
    size_t i = 0;
    while (a.n > 0 && i < sizeof commands / sizeof commands[0] &&
           strcmp(a.tok[0], commands[i].name))
        i++;
    if (a.n > 0 && i < sizeof commands / sizeof commands[0])
        commands[i].run(u, &a);
    else if (a.n > 0)
        info_string("unknown command: %s", line);
    free(a.tok);
    free(copy);
}

int uci_main(int argc, char **argv) {
    Uci u;
    memset(&u, 0, sizeof u);
    int elo_hi;
    engine_elo_range(&u.elo, &elo_hi); /* UCI_Elo starts at its least, as Stockfish's */
    u.search = proto_search_new();
    char err[ENGINE_ERR_LEN];
    if (!new_game(&u, "chess", NULL, err, sizeof err)) {
        fprintf(stderr, "menagerie uci: %s\n", err);
        proto_search_free(u.search);
        return 1;
    }
    ProtoLines in;
    proto_lines_init(&in, STDIN_FILENO);
    /* arguments are command lines to run before stdin's */
    for (int i = 1; i < argc && !u.quit; i++) {
        char line[4096];
        snprintf(line, sizeof line, "%s", argv[i]);
        dispatch(&u, line);
    }
    u.in = &in;
    while (!u.quit) {
        ProtoEvent ev = proto_search_wait(u.search, &in);
        if (ev == PROTO_EV_DONE)
            on_done(&u);
        else if (ev == PROTO_EV_LINE) {
            char *line = proto_lines_take(&in);
            if (line)
                dispatch(&u, line);
        } else {
            /* end of input: a timed search still answers; an endless one ends */
            if (proto_search_running(u.search) && !u.hold) {
                proto_search_wait_done(u.search);
                on_done(&u);
            }
            break;
        }
    }
    proto_search_free(u.search);
    proto_lines_free(&in);
    engine_free(u.g);
    return 0;
}
