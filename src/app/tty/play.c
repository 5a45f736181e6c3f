/* play.c - `menagerie play GAME [options]`: a game in the terminal. The loop
 * lets the engine move for its sides and reads a human's line from stdin: a
 * command from an exact table, or else a move for engine_play. */
#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "app/frontends.h"
#include "app/tty/play_draw.h"
#include "engine/engine.h"

#define PLAY_MAX_FILE (4 << 20) /* largest game file `load` reads */

typedef struct {
    Game *g;
    char variant[64]; /* built-in game name; "" with a variant file */
    const char *file; /* the user's variant file, NULL for a built-in game */
    char start[512];  /* fixed start position; "" = the game's own (Diamondback: random) */
    bool engine[2];   /* which sides the engine plays */
    int level;        /* 1..20, 20 = full strength */
    int movetime_ms;  /* engine time per move */
    int threads;
    int max_plies; /* engine-vs-engine cap */
    PlayStyle style;
    bool echo;            /* stdin is not a terminal: echo each line read */
    bool live;            /* stdout is a terminal: thinking overwrites one line */
    bool dirty;           /* the board changed since it was drawn */
    bool announced;       /* the result has been printed */
    int auto_plies;       /* plies played engine vs engine since the game began */
    EngineSearch *search; /* made by the first search, kept for its tables */
} Session;

enum { GO_ON = 0, QUIT = 1 };

/* ---- small helpers ---------------------------------------------------- */

static void trim(char *s) {
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = 0;
    size_t k = 0;
    while (isspace((unsigned char)s[k]))
        k++;
    memmove(s, s + k, n - k + 1);
}

/* Prints HEAD and then the words, wrapped at 78 columns. */
static void print_wrapped(const char *head, char (*words)[ENGINE_MOVE_TEXT], int n) {
    size_t col = strlen(head);
    fputs(head, stdout);
    for (int i = 0; i < n; i++) {
        size_t w = strlen(words[i]);
        if (col + 1 + w > 78) {
            fputs("\n   ", stdout);
            col = 3;
        }
        printf(" %s", words[i]);
        col += 1 + w;
    }
    putchar('\n');
}

static const char *player_name(const Session *s, int side) {
    return s->engine[side] ? "engine" : "human";
}

/* ---- the game --------------------------------------------------------- */

static Game *make_game(const Session *s, char *err, size_t errlen) {
    const char *fen = s->start[0] ? s->start : NULL;
    char random_fen[512];
    if (!fen && !s->file && engine_setups(s->variant)[0] &&
        engine_start_fen(s->variant, NULL, random_fen, sizeof random_fen, err, errlen) == 0)
        fen = random_fen;
    return s->file ? engine_new_from_file(s->file, fen, err, errlen)
                   : engine_new(s->variant, fen, err, errlen);
}

/* The set-up the game started from, when its game names set-ups. */
static void print_setup(const Session *s) {
    if (s->file)
        return;
    char initial[512], fen[512], err[ENGINE_ERR_LEN], all[256] = "";
    const char *found = NULL;
    engine_initial_text(s->g, initial, sizeof initial);
    for (const char *const *n = engine_setups(s->variant); *n; n++) {
        size_t k = strlen(all);
        snprintf(all + k, sizeof all - k, "%s%s", k ? ", " : "", *n);
        if (!engine_start_fen(s->variant, *n, fen, sizeof fen, err, sizeof err) &&
            !strcmp(fen, initial))
            found = *n;
    }
    if (found)
        printf("Set-up %s (of %s; --setup NAME chooses).\n", found, all);
}

static void replace_game(Session *s, Game *g) {
    engine_free(s->g);
    s->g = g;
    s->dirty = true;
    s->announced = false;
    s->auto_plies = 0;
}

static void draw(Session *s) {
    putchar('\n');
    play_draw_board(stdout, s->g, &s->style);
    s->dirty = false;
}

static void announce(Session *s, const GameResult *r) {
    static const char *const score[] = {"*", "1-0", "0-1", "1/2-1/2"};
    if (r->kind == RESULT_DRAW)
        printf("Game over: %s, draw (%s).\n", score[r->kind], r->reason);
    else
        printf("Game over: %s, %s wins (%s).\n", score[r->kind],
               play_draw_side_name(s->g, r->kind == RESULT_FIRST_WINS ? SIDE_FIRST : SIDE_SECOND),
               r->reason);
}

/* "White plays 1. e4 (e2e4)" after the move was played. */
static void print_played(Session *s, Side side, bool by_engine) {
    MoveDesc last;
    if (!engine_last_move(s->g, &last))
        return;
    char label[24];
    play_draw_ply_label(s->g, play_draw_plies(s->g) - 1, label, sizeof label);
    printf("%s%s plays %s %s", play_draw_side_name(s->g, side), by_engine ? " (engine)" : "", label,
           last.san);
    if (strcmp(last.san, last.text))
        printf(" (%s)", last.text);
    putchar('\n');
}

/* ---- the engine ------------------------------------------------------- */

typedef struct {
    bool live; /* overwrite one line */
    bool mancala;
    int cols, shown;
} Think;

static EngineSearch *volatile thinking; /* for SIGINT: stop the search */

static void on_sigint(int sig) {
    (void)sig;
    EngineSearch *es = thinking;
    if (es)
        engine_search_stop(es);
}

static void format_score(const SearchInfo *si, bool mancala, char *buf, size_t len) {
    if (mancala)
        snprintf(buf, len, "%+d eggs%s", si->score, si->exact ? " (proven)" : "");
    else if (si->mate > 0)
        snprintf(buf, len, "mate in %d", si->mate);
    else if (si->mate < 0)
        snprintf(buf, len, "mated in %d", -si->mate);
    else
        snprintf(buf, len, "%+.2f", si->score / 100.0);
}

/* On the search thread; the input thread waits meanwhile. */
static void on_info(const SearchInfo *si, void *ud) {
    Think *t = ud;
    char score[48], line[800];
    format_score(si, t->mancala, score, sizeof score);
    snprintf(line, sizeof line, "  depth %d  score %s  nodes %llu  time %.2fs  pv %s", si->depth,
             score, (unsigned long long)si->nodes, si->time_ms / 1000.0, si->pv_san);
    if (t->live) {
        int room = t->cols - 1 > 20 ? t->cols - 1 : 20;
        printf("\r\033[K%.*s", room, line);
    } else {
        printf("%s\n", line);
    }
    t->shown++;
    fflush(stdout);
}

static int terminal_columns(void) {
    struct winsize ws;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
        return ws.ws_col;
    const char *c = getenv("COLUMNS");
    return c && atoi(c) > 0 ? atoi(c) : 80;
}

/* Searches the current position; false when the engine gives no move. */
static bool think(Session *s, EngineResult *r) {
    GameInfo info;
    engine_info(s->g, &info);
    Think t;
    memset(&t, 0, sizeof t);
    t.live = s->live;
    t.mancala = info.kind == KIND_MANCALA;
    t.cols = t.live ? terminal_columns() : 0;
    SearchLimits lim;
    memset(&lim, 0, sizeof lim);
    lim.movetime_ms = s->movetime_ms;
    lim.level = s->level >= 20 ? 0 : s->level;
    lim.threads = s->threads;
    EngineCallbacks cb = {on_info, NULL, &t};
    if (!s->search)
        s->search = engine_search_new();

    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    thinking = s->search;
    sigaction(SIGINT, &sa, &old);
    fflush(stdout);
    char err[ENGINE_ERR_LEN];
    bool ok = engine_search_start(s->search, s->g, NULL, &lim, false, &cb, err, sizeof err) &&
              engine_search_wait(s->search, r);
    sigaction(SIGINT, &old, NULL);
    thinking = NULL;

    if (t.live && t.shown)
        putchar('\n');
    return ok && r->best[0];
}

static void print_limits(const Session *s) {
    printf("level %d/20, %g s a move", s->level, s->movetime_ms / 1000.0);
}

/* The engine plays a move for the side to move. false: it had none to give. */
static bool engine_turn(Session *s, bool auto_play) {
    Side side = engine_side_to_move(s->g);
    const char *name = play_draw_side_name(s->g, side);
    printf("%s (engine) thinks: ", name);
    print_limits(s);
    printf("...\n");
    EngineResult r;
    char err[ENGINE_ERR_LEN];
    if (!think(s, &r)) {
        printf("engine unavailable: no move for %s.\n", name);
        return false;
    }
    if (!engine_play(s->g, r.best, err, sizeof err)) {
        printf("engine unavailable: it chose %s, which is not playable (%s).\n", r.best, err);
        return false;
    }
    print_played(s, side, true);
    s->dirty = true;
    if (auto_play)
        s->auto_plies++;
    return true;
}

/* ---- commands --------------------------------------------------------- */

typedef enum { ARG_NONE, ARG_OPTIONAL, ARG_REQUIRED } ArgUse;

typedef struct {
    const char *name;
    ArgUse arg;
    const char *args, *help;
    int (*run)(Session *s, const char *arg);
} PlayCommand;

static int cmd_help(Session *s, const char *arg);

static int cmd_moves(Session *s, const char *arg) {
    (void)arg;
    GameResult r = engine_result(s->g);
    if (r.kind != RESULT_NONE) {
        printf("no legal moves: the game is over (%s).\n", r.reason);
        return GO_ON;
    }
    MoveDesc *all = malloc(ENGINE_MAX_MOVES * sizeof *all);
    char(*words)[ENGINE_MOVE_TEXT] = malloc(ENGINE_MAX_MOVES * sizeof *words);
    if (!all || !words)
        abort();
    int n = engine_moves(s->g, all, ENGINE_MAX_MOVES);
    if (n > ENGINE_MAX_MOVES)
        n = ENGINE_MAX_MOVES;
    for (int i = 0; i < n; i++)
        snprintf(words[i], sizeof words[i], "%s", all[i].san);
    char head[64];
    snprintf(head, sizeof head, "%d legal move%s:", n, n == 1 ? "" : "s");
    print_wrapped(head, words, n);
    free(all);
    free(words);
    return GO_ON;
}

static int cmd_undo(Session *s, const char *arg) {
    (void)arg;
    int n = play_draw_plies(s->g);
    /* Take back one ply, or two when that leaves the engine to move. */
    Side side = engine_side_to_move(s->g);
    int k = s->engine[1 - side] ? 2 : 1;
    if (n < k) {
        printf("nothing to undo.\n");
        return GO_ON;
    }
    int done = 0;
    while (done < k && engine_undo(s->g))
        done++;
    printf("took back %d pl%s.\n", done, done == 1 ? "y" : "ies");
    s->dirty = true;
    s->announced = false;
    return GO_ON;
}

static int cmd_hint(Session *s, const char *arg) {
    (void)arg;
    GameResult r = engine_result(s->g);
    if (r.kind != RESULT_NONE) {
        printf("no hint: the game is over (%s).\n", r.reason);
        return GO_ON;
    }
    printf("thinking for a hint: ");
    print_limits(s);
    printf("...\n");
    EngineResult hint;
    if (!think(s, &hint)) {
        printf("hint: engine unavailable for this game.\n");
        return GO_ON;
    }
    if (strcmp(hint.best_san, hint.best))
        printf("hint: %s (%s)\n", hint.best_san, hint.best);
    else
        printf("hint: %s\n", hint.best_san);
    return GO_ON;
}

static int cmd_new(Session *s, const char *arg) {
    (void)arg;
    char err[ENGINE_ERR_LEN];
    Game *g = make_game(s, err, sizeof err);
    if (!g) {
        printf("cannot start a new game: %s\n", err);
        return GO_ON;
    }
    replace_game(s, g);
    printf("new game.\n");
    print_setup(s);
    return GO_ON;
}

static void print_rules_line(const char *line, size_t n);

/* The level, then what it means in this game (the engine's words, as the web page's). */
static int cmd_level(Session *s, const char *arg) {
    if (!*arg) {
        printf("level %d (1..20, 20 = full strength)\n", s->level);
    } else {
        char *end;
        long v = strtol(arg, &end, 10);
        if (*end || v < 1 || v > 20) {
            printf("level must be a number from 1 to 20, not \"%s\".\n", arg);
            return GO_ON;
        }
        s->level = (int)v;
        printf("level %d%s\n", s->level, s->level == 20 ? " (full strength)" : "");
    }
    GameInfo info;
    engine_info(s->g, &info);
    EngineLevel lv;
    if (engine_level(info.kind, s->level, &lv)) {
        print_rules_line(lv.text, strlen(lv.text));
        const char *src = engine_level_source();
        if (info.kind != KIND_MANCALA && s->level < 20 && *src)
            print_rules_line(src, strlen(src));
    }
    return GO_ON;
}

static int parse_seconds(const char *text) {
    char *end;
    double v = strtod(text, &end);
    if (end == text || *end || !(v >= 0.001 && v <= 86400))
        return -1;
    return (int)(v * 1000 + 0.5);
}

static int cmd_time(Session *s, const char *arg) {
    if (*arg) {
        int ms = parse_seconds(arg);
        if (ms < 1) {
            printf("time must be seconds per move, from 0.001 to 86400, not \"%s\".\n", arg);
            return GO_ON;
        }
        s->movetime_ms = ms;
    }
    printf("engine time: %g s a move\n", s->movetime_ms / 1000.0);
    return GO_ON;
}

static int cmd_flip(Session *s, const char *arg) {
    (void)arg;
    s->style.flip = !s->style.flip;
    draw(s);
    return GO_ON;
}

static int cmd_diamond(Session *s, const char *arg) {
    (void)arg;
    GameInfo info;
    engine_info(s->g, &info);
    if (!info.rotated || info.files != info.ranks) {
        printf("%s is not played diagonally; `diamond` is for Diamondback.\n", info.title);
        return GO_ON;
    }
    s->style.diamond = !s->style.diamond;
    draw(s);
    return GO_ON;
}

static int cmd_board(Session *s, const char *arg) {
    (void)arg;
    draw(s);
    return GO_ON;
}

static int cmd_position(Session *s, const char *arg) {
    (void)arg;
    char text[512];
    engine_position_text(s->g, text, sizeof text);
    printf("%s\n", text);
    return GO_ON;
}

static int cmd_history(Session *s, const char *arg) {
    (void)arg;
    int n = play_draw_plies(s->g);
    char(*h)[ENGINE_MOVE_TEXT] = malloc((size_t)(n + 1) * sizeof *h);
    char(*words)[ENGINE_MOVE_TEXT] = malloc((size_t)(2 * n + 1) * sizeof *words);
    if (!h || !words)
        abort();
    n = engine_history(s->g, h, n, true);
    int w = 0;
    for (int i = 0; i < n; i++) {
        char label[24];
        play_draw_ply_label(s->g, i, label, sizeof label);
        if (i == 0 || strchr(label, '.')[1] != '.')
            snprintf(words[w++], sizeof words[0], "%s", label);
        snprintf(words[w++], sizeof words[0], "%s", h[i]);
    }
    print_wrapped(n ? "moves:" : "moves: none yet", words, w);
    free(h);
    free(words);
    return GO_ON;
}

static int cmd_go(Session *s, const char *arg) {
    (void)arg;
    GameResult r = engine_result(s->g);
    if (r.kind != RESULT_NONE) {
        printf("the game is over (%s).\n", r.reason);
        return GO_ON;
    }
    engine_turn(s, false);
    return GO_ON;
}

static int cmd_engine(Session *s, const char *arg) {
    static const struct {
        const char *name;
        bool white, black;
    } choice[] = {{"white", true, false}, {"black", false, true}, {"a", true, false},
                  {"b", false, true},     {"both", true, true},   {"none", false, false}};
    for (size_t i = 0; i < sizeof choice / sizeof choice[0]; i++)
        if (!strcmp(arg, choice[i].name)) {
            s->engine[0] = choice[i].white;
            s->engine[1] = choice[i].black;
            s->auto_plies = 0;
            printf("%s: %s, %s: %s\n", play_draw_side_name(s->g, SIDE_FIRST), player_name(s, 0),
                   play_draw_side_name(s->g, SIDE_SECOND), player_name(s, 1));
            return GO_ON;
        }
    printf("engine takes white, black, both or none (a, b for Slangenspel), not \"%s\".\n", arg);
    return GO_ON;
}

static int cmd_save(Session *s, const char *arg) {
    char white[48], black[48];
    snprintf(white, sizeof white, "%s", s->engine[0] ? "Menagerie" : "Human");
    snprintf(black, sizeof black, "%s", s->engine[1] ? "Menagerie" : "Human");
    const char *tags[] = {"White", white, "Black", black, NULL};
    char *buf = NULL;
    int n = -1;
    for (size_t cap = 1 << 16; n < 0 && cap <= (size_t)PLAY_MAX_FILE; cap *= 2) {
        free(buf);
        buf = malloc(cap);
        if (!buf)
            abort();
        n = engine_export(s->g, tags, buf, cap);
    }
    if (n < 0) {
        printf("cannot save: the game is too long to write.\n");
        free(buf);
        return GO_ON;
    }
    FILE *f = fopen(arg, "w");
    bool ok = f && fwrite(buf, 1, (size_t)n, f) == (size_t)n;
    int e = errno;
    if (f && fclose(f) != 0) {
        ok = false;
        e = errno;
    }
    free(buf);
    if (!ok)
        printf("cannot save to %s: %s\n", arg, strerror(e));
    else
        printf("saved the game to %s (PGN).\n", arg);
    return GO_ON;
}

static int cmd_load(Session *s, const char *arg) {
    FILE *f = fopen(arg, "r");
    if (!f) {
        printf("cannot load %s: %s\n", arg, strerror(errno));
        return GO_ON;
    }
    char *text = malloc(PLAY_MAX_FILE + 1);
    if (!text)
        abort();
    size_t n = fread(text, 1, PLAY_MAX_FILE + 1, f);
    fclose(f);
    if (n > PLAY_MAX_FILE) {
        printf("cannot load %s: larger than %d bytes.\n", arg, PLAY_MAX_FILE);
        free(text);
        return GO_ON;
    }
    text[n] = 0;
    char err[ENGINE_ERR_LEN];
    Game *g = engine_import(text, err, sizeof err);
    free(text);
    if (!g) {
        printf("cannot load %s: %s\n", arg, err);
        return GO_ON;
    }
    GameInfo info;
    engine_info(g, &info);
    replace_game(s, g);
    snprintf(s->variant, sizeof s->variant, "%s", info.name);
    s->file = NULL;
    engine_initial_text(g, s->start, sizeof s->start);
    int plies = play_draw_plies(g);
    printf("loaded %s: %s, %d pl%s.\n", arg, info.title, plies, plies == 1 ? "y" : "ies");
    return GO_ON;
}

static int cmd_quit(Session *s, const char *arg) {
    (void)s, (void)arg;
    return QUIT;
}

/* Prints one line of text wrapped at 78 columns; bullets ("- ") keep their indent. */
static void print_rules_line(const char *line, size_t n) {
    int indent = n > 2 && line[0] == '-' && line[1] == ' ' ? 2 : 0, col = 0;
    for (size_t i = 0; i < n;) {
        size_t w = 0;
        while (i + w < n && line[i + w] != ' ')
            w++;
        if (col > indent && col + 1 + (int)w > 78) {
            printf("\n%*s", indent, "");
            col = indent;
        } else if (col > 0) {
            putchar(' ');
            col++;
        }
        printf("%.*s", (int)w, line + i);
        col += (int)w;
        i += w;
        while (i < n && line[i] == ' ')
            i++;
    }
    putchar('\n');
}

/* The game's rules, the same text the web page shows; headings lose their '#'. */
static int cmd_rules(Session *s, const char *arg) {
    (void)arg;
    GameInfo info;
    engine_info(s->g, &info);
    const char *text = s->file ? NULL : engine_rules_text(info.name);
    if (!text) {
        printf("no rules text for %s; `moves` lists what is legal here.\n", info.title);
        return GO_ON;
    }
    for (const char *line = text; *line;) {
        size_t n = strcspn(line, "\n");
        size_t skip = strspn(line, "#");
        skip += skip && line[skip] == ' ';
        print_rules_line(line + skip, n - skip);
        line += n + (line[n] == '\n');
    }
    return GO_ON;
}

static const PlayCommand commands[] = {
    {"help", ARG_NONE, "", "this text", cmd_help},
    {"moves", ARG_NONE, "", "list the legal moves", cmd_moves},
    {"undo", ARG_NONE, "", "take back your last move (and the engine's reply)", cmd_undo},
    {"hint", ARG_NONE, "", "ask the engine for a move", cmd_hint},
    {"go", ARG_NONE, "", "let the engine play this one move", cmd_go},
    {"new", ARG_NONE, "", "start again (Diamondback: a random set-up unless one was fixed)",
     cmd_new},
    {"level", ARG_OPTIONAL, " [N]", "engine level 1..20 (20 = full strength) and what it means",
     cmd_level},
    {"time", ARG_OPTIONAL, " [S]", "engine time per move in seconds", cmd_time},
    {"engine", ARG_REQUIRED, " SIDE", "who the engine plays: white, black, both or none",
     cmd_engine},
    {"flip", ARG_NONE, "", "turn the board round", cmd_flip},
    {"diamond", ARG_NONE, "", "Diamondback: draw the board as a diamond, or back", cmd_diamond},
    {"board", ARG_NONE, "", "draw the board again", cmd_board},
    {"history", ARG_NONE, "", "the moves played so far", cmd_history},
    {"rules", ARG_NONE, "", "the rules of this game", cmd_rules},
    {"fen", ARG_NONE, "", "the position as FEN (Slangenspel: its position text)", cmd_position},
    {"save", ARG_REQUIRED, " FILE", "write the game as PGN", cmd_save},
    {"load", ARG_REQUIRED, " FILE", "read a game saved as PGN", cmd_load},
    {"quit", ARG_NONE, "", "leave (so does end of input)", cmd_quit},
    {"exit", ARG_NONE, "", "the same as quit", cmd_quit},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void print_move_help(const Session *s) {
    GameInfo info;
    engine_info(s->g, &info);
    if (info.kind == KIND_MANCALA) {
        const char *rules = strchr(info.name, '-'); /* "-a", "-b", "-ab" or none */
        printf("Moves: a hole of your ring and a direction: 3+ sows toward higher holes\n"
               "(8 goes on to 9, 16 to 1), 3- toward lower. Add x when the last egg lands in\n"
               "hole 1 or 16 to put it on the tail or head and capture: 5-x.\n");
        if (rules && strchr(rules, 'a'))
            printf("Store move (three a game): S5+ sows five eggs from your store, starting\n"
                   "from empty hole 5.\n");
        if (rules && strchr(rules, 'b'))
            printf("With no legal move, play pass.\n");
    } else {
        printf("Moves: SAN (Nf3, exd5, O-O, e8=Q) or coordinates (g1f3, e7e8q).\n");
        if (info.gating)
            printf("Set-up move (each side's first): the pieces in hand with the files they\n"
                   "wait behind, e.g. MbFh; they enter when the piece in front first moves.\n");
    }
}

static int cmd_help(Session *s, const char *arg) {
    (void)arg;
    print_move_help(s);
    printf("Commands:\n");
    for (size_t i = 0; i < NCOMMANDS; i++) {
        char left[32];
        snprintf(left, sizeof left, "%s%s", commands[i].name, commands[i].args);
        printf("  %-12s %s\n", left, commands[i].help);
    }
    printf("Ctrl-C while the engine thinks makes it move at once.\n");
    return GO_ON;
}

/* ---- input ------------------------------------------------------------ */

static bool all_lower(const char *w) {
    if (strlen(w) < 3)
        return false;
    for (; *w; w++)
        if (!islower((unsigned char)*w))
            return false;
    return true;
}

static int handle_line(Session *s, char *line) {
    trim(line);
    if (!*line)
        return GO_ON;
    size_t k = strcspn(line, " \t");
    char word[32];
    snprintf(word, sizeof word, "%.*s", (int)(k < sizeof word ? k : sizeof word - 1), line);
    const char *arg = line + k;
    while (isspace((unsigned char)*arg))
        arg++;
    for (size_t i = 0; i < NCOMMANDS; i++) {
        if (strcmp(word, commands[i].name))
            continue;
        if (commands[i].arg == ARG_NONE && *arg) {
            printf("%s takes no argument.\n", commands[i].name);
            return GO_ON;
        }
        if (commands[i].arg == ARG_REQUIRED && !*arg) {
            printf("usage: %s%s\n", commands[i].name, commands[i].args);
            return GO_ON;
        }
        return commands[i].run(s, arg);
    }
    GameResult r = engine_result(s->g);
    if (r.kind != RESULT_NONE) {
        printf("the game is over (%s): try undo, new, load or quit.\n", r.reason);
        return GO_ON;
    }
    Side side = engine_side_to_move(s->g);
    char err[ENGINE_ERR_LEN];
    if (!engine_play(s->g, line, err, sizeof err)) {
        if (all_lower(line))
            printf("unknown command \"%s\" (type help for the list).\n", line);
        else
            printf("%s\n", err);
        return GO_ON;
    }
    print_played(s, side, false);
    s->dirty = true;
    return GO_ON;
}

static int run(Session *s) {
    char *line = NULL;
    size_t cap = 0;
    for (;;) {
        GameResult r = engine_result(s->g);
        bool auto_play = s->engine[0] && s->engine[1];
        if (r.kind != RESULT_NONE) {
            if (s->dirty)
                draw(s);
            if (!s->announced)
                announce(s, &r);
            s->announced = true;
            if (auto_play)
                break;
        } else if (s->engine[engine_side_to_move(s->g)]) {
            if (auto_play && s->auto_plies >= s->max_plies) {
                printf("Move cap reached: %d plies engine vs engine without a result; the game "
                       "stops here (--max-plies N).\n",
                       s->auto_plies);
                break;
            }
            Side side = engine_side_to_move(s->g);
            if (engine_turn(s, auto_play)) {
                if (auto_play)
                    draw(s);
            } else {
                s->engine[side] = false;
                printf("%s is now played by a human.\n", play_draw_side_name(s->g, side));
            }
            continue;
        }
        if (s->dirty)
            draw(s);
        printf("%s> ", r.kind != RESULT_NONE
                           ? "game over"
                           : play_draw_side_name(s->g, engine_side_to_move(s->g)));
        fflush(stdout);
        if (getline(&line, &cap, stdin) < 0) {
            putchar('\n');
            break;
        }
        if (s->echo) {
            fputs(line, stdout);
            if (!*line || line[strlen(line) - 1] != '\n')
                putchar('\n');
        }
        if (handle_line(s, line) == QUIT)
            break;
    }
    free(line);
    fflush(stdout);
    return 0;
}

/* ---- options ---------------------------------------------------------- */

static int usage(FILE *to) {
    fprintf(to,
            "usage: menagerie play GAME [options]\n"
            "       menagerie play --variant-file PATH [options]\n"
            "GAME: one of `menagerie variants`. Options:\n"
            "  --white human|engine   who plays White (Slangenspel: player A); default human\n"
            "  --black human|engine   who plays Black (player B); default engine\n"
            "  --engine white|black|both|none   the same in one (a, b for Slangenspel)\n"
            "  --level N              engine level 1..20, 20 = full strength (default)\n"
            "  --time S               engine time per move in seconds (default 2)\n"
            "  --threads N            engine threads (default 1)\n"
            "  --max-plies N          engine vs engine stops after N plies (default 400)\n"
            "  --fen FEN              start position (Slangenspel: its position text)\n"
            "  --setup NAME           Diamondback set-up: b1g8, a2g8, b1h7, a2h7 (default random)\n"
            "  --variant-file PATH    play a variant defined in a file\n"
            "  --ascii                plain ASCII (also when output is not a terminal)\n"
            "  --unicode              Unicode pieces and colours even when not a terminal\n"
            "  --flip                 draw the board from Black's side\n"
            "  --diamond              Diamondback: draw the board as a diamond\n"
            "The board shows your side at the bottom when you play Black alone; --flip turns it.\n"
            "Type `help` in the game for its commands.\n");
    return 2;
}

static int side_option(const char *v, bool *engine) {
    if (!strcmp(v, "human"))
        *engine = false;
    else if (!strcmp(v, "engine"))
        *engine = true;
    else
        return -1;
    return 0;
}

static int bad_value(const char *v, const char *opt) {
    fprintf(stderr, "menagerie play: bad value \"%s\" for %s\n", v, opt);
    return 2;
}

static bool utf8_locale(void) {
    const char *vars[] = {"LC_ALL", "LC_CTYPE", "LANG"};
    for (int i = 0; i < 3; i++) {
        const char *v = getenv(vars[i]);
        if (v && *v)
            return strstr(v, "UTF-8") || strstr(v, "utf-8") || strstr(v, "UTF8") ||
                   strstr(v, "utf8");
    }
    return false;
}

/* What the command line asks besides the session's own settings. */
typedef struct {
    const char *game, *fen, *setup;
    bool ascii, unicode, flip;
} PlayArgs;

/* Reads the options into s and o: -1 to go on, else the exit code. */
static int parse_args(Session *s, PlayArgs *o, int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        bool takes = !strcmp(a, "--white") || !strcmp(a, "--black") || !strcmp(a, "--engine") ||
                     !strcmp(a, "--level") || !strcmp(a, "--time") || !strcmp(a, "--threads") ||
                     !strcmp(a, "--max-plies") || !strcmp(a, "--fen") || !strcmp(a, "--setup") ||
                     !strcmp(a, "--variant-file");
        if (takes && !v) {
            fprintf(stderr, "menagerie play: %s needs a value\n", a);
            return 2;
        }
        if (takes)
            i++;
        char *end;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--white") || !strcmp(a, "--black")) {
            if (side_option(v, &s->engine[a[2] == 'b']))
                return bad_value(v, a);
        } else if (!strcmp(a, "--engine")) {
            bool w = !strcmp(v, "white") || !strcmp(v, "a") || !strcmp(v, "both");
            bool b = !strcmp(v, "black") || !strcmp(v, "b") || !strcmp(v, "both");
            if (!w && !b && strcmp(v, "none"))
                return bad_value(v, a);
            s->engine[0] = w;
            s->engine[1] = b;
        } else if (!strcmp(a, "--level")) {
            long n = strtol(v, &end, 10);
            if (*end || n < 1 || n > 20)
                return bad_value(v, a);
            s->level = (int)n;
        } else if (!strcmp(a, "--time")) {
            if ((s->movetime_ms = parse_seconds(v)) < 1)
                return bad_value(v, a);
        } else if (!strcmp(a, "--threads")) {
            long n = strtol(v, &end, 10);
            if (*end || n < 1 || n > 256)
                return bad_value(v, a);
            s->threads = (int)n;
        } else if (!strcmp(a, "--max-plies")) {
            long n = strtol(v, &end, 10);
            if (*end || n < 1 || n > 100000)
                return bad_value(v, a);
            s->max_plies = (int)n;
        } else if (!strcmp(a, "--fen")) {
            o->fen = v;
        } else if (!strcmp(a, "--setup")) {
            o->setup = v;
        } else if (!strcmp(a, "--variant-file")) {
            s->file = v;
        } else if (!strcmp(a, "--ascii")) {
            o->ascii = true;
        } else if (!strcmp(a, "--unicode")) {
            o->unicode = true;
        } else if (!strcmp(a, "--flip")) {
            o->flip = true;
        } else if (!strcmp(a, "--diamond")) {
            s->style.diamond = true;
        } else if (a[0] == '-' && a[1] == '-') {
            fprintf(stderr, "menagerie play: unknown option %s\n", a);
            return usage(stderr);
        } else if (!o->game) {
            o->game = a;
        } else {
            fprintf(stderr, "menagerie play: one game at a time (\"%s\" and \"%s\")\n", o->game, a);
            return 2;
        }
    }
    if (!o->game == !s->file) {
        if (o->game)
            fprintf(stderr, "menagerie play: give GAME or --variant-file, not both\n");
        return usage(stderr);
    }
    if (o->fen && o->setup) {
        fprintf(stderr, "menagerie play: --fen and --setup both fix the start; give one\n");
        return 2;
    }
    if (o->ascii && o->unicode) {
        fprintf(stderr, "menagerie play: --ascii and --unicode contradict each other\n");
        return 2;
    }
    return -1;
}

/* The game the options ask for: -1 to go on, else the exit code. */
static int start_game(Session *s, const PlayArgs *o) {
    char err[ENGINE_ERR_LEN];
    if (o->game)
        snprintf(s->variant, sizeof s->variant, "%s", o->game);
    if (o->setup) {
        if (s->file) {
            fprintf(stderr, "menagerie play: --setup is for built-in games\n");
            return 2;
        }
        if (engine_start_fen(o->game, o->setup, s->start, sizeof s->start, err, sizeof err)) {
            fprintf(stderr, "menagerie play: %s\n", err);
            return 2;
        }
    } else if (o->fen) {
        snprintf(s->start, sizeof s->start, "%s", o->fen);
    }
    s->g = make_game(s, err, sizeof err);
    if (!s->g) {
        fprintf(stderr, "menagerie play: %s\n", err);
        return 1;
    }
    return -1;
}

/* Unicode and colour on a terminal unless told otherwise. */
static void set_style(Session *s, const PlayArgs *o) {
    bool out_tty = isatty(STDOUT_FILENO);
    bool fancy = o->unicode || (out_tty && !o->ascii);
    s->style.unicode = fancy && (o->unicode || utf8_locale());
    s->style.colour =
        fancy &&
        (o->unicode || (!getenv("NO_COLOR") && getenv("TERM") && strcmp(getenv("TERM"), "dumb")));
    s->style.flip = o->flip != (!s->engine[1] && s->engine[0]);
    s->echo = !isatty(STDIN_FILENO);
    s->live = out_tty;
    s->dirty = true;
}

static void greet(Session *s) {
    GameInfo info;
    engine_info(s->g, &info);
    printf("Menagerie: %s. %s: %s, %s: %s", info.title, play_draw_side_name(s->g, SIDE_FIRST),
           player_name(s, 0), play_draw_side_name(s->g, SIDE_SECOND), player_name(s, 1));
    if (s->engine[0] || s->engine[1]) {
        printf(" (");
        print_limits(s);
        printf(")");
    }
    printf(".\n");
    print_setup(s);
    if (info.kind == KIND_CHESS) {
        char legend[1200];
        play_draw_legend(s->g, legend, sizeof legend);
        printf("Pieces: %s.\n", legend);
    }
    print_move_help(s);
    printf("Type help for the commands.\n");
}

int play_main(int argc, char **argv) {
    Session s;
    memset(&s, 0, sizeof s);
    s.engine[1] = true;
    s.level = ENGINE_DEFAULT_LEVEL;
    s.movetime_ms = ENGINE_DEFAULT_MOVETIME_MS;
    s.threads = 1;
    s.max_plies = 400;
    PlayArgs o = {0};
    // Step 1. The options, the game, the style.
    int rc = parse_args(&s, &o, argc, argv);
    if (rc < 0)
        rc = start_game(&s, &o);
    if (rc >= 0)
        return rc;
    set_style(&s, &o);
    // Step 2. Play until the end of input or quit.
    greet(&s);
    rc = run(&s);
    engine_search_free(s.search);
    engine_free(s.g);
    return rc;
}
