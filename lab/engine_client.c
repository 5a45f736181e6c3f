/* engine_client.c - a child-process engine over CECP or UCI (see
 * engine_client.h). */
#include "lab/engine_client.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "app/proto/proto_io.h"

struct EngineClient {
    pid_t pid;
    int to, from;
    ProtoLines in;
    bool uci, trace, dead;
    char name[128];
    char variants[2048]; /* CECP variants feature / UCI_Variant choices */
    bool all_variants;   /* CECP engine gave no variants feature */
    bool has_uci_variant;
    bool usermove, setboard, ping; /* CECP features */
    int ping_n;
    bool started; /* CECP: has had its "go" this game */
    int known;    /* CECP: plies of the game it has been told */
    int shift;    /* ours = XBoard's rank + shift */
    ClientTimeControl tc;
    char start[512];    /* start position of the game */
    bool default_start; /* the variant's usual start */
    char variant[48];
};

static void say(EngineClient *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(EngineClient *e, const char *fmt, ...) {
    if (e->dead)
        return;
    char buf[16384];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf - 1, fmt, ap);
    va_end(ap);
    if (n < 0 || n >= (int)sizeof buf - 1)
        n = (int)sizeof buf - 2;
    if (e->trace)
        fprintf(stderr, "%s < %s\n", e->name, buf);
    buf[n++] = '\n';
    for (int off = 0; off < n;) {
        ssize_t k = write(e->to, buf + off, (size_t)(n - off));
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            e->dead = true;
            return;
        }
        off += (int)k;
    }
}

/* The next line from the engine, NULL at DEADLINE or when it has ended. */
static char *hear(EngineClient *e, int64_t deadline) {
    for (;;) {
        if (proto_lines_ready(&e->in)) {
            char *l = proto_lines_take(&e->in);
            if (e->trace && l)
                fprintf(stderr, "%s > %s\n", e->name, l);
            return l;
        }
        if (e->in.eof) {
            e->dead = true;
            return NULL;
        }
        int64_t left = deadline - proto_now_ms();
        if (left <= 0)
            return NULL;
        struct pollfd fd = {e->from, POLLIN, 0};
        int k = poll(&fd, 1, left > 1000000 ? 1000000 : (int)left);
        if (k < 0 && errno != EINTR) {
            e->dead = true;
            return NULL;
        }
        if (k > 0)
            proto_lines_fill(&e->in);
    }
}

static bool starts(const char *s, const char *word) {
    size_t n = strlen(word);
    return !strncmp(s, word, n) && (s[n] == 0 || s[n] == ' ' || s[n] == '\t');
}

static const char *xb_name(const char *variant) {
    return strcmp(variant, "chess") ? variant : "normal";
}

/* --- CECP ------------------------------------------------------------------ */

/* Reads the features of one "feature" line; answers each. */
static void cecp_features(EngineClient *e, const char *line, bool *done, bool *wait_more) {
    const char *p = line + 7;
    while (*p) {
        while (*p == ' ')
            p++;
        const char *eq = strchr(p, '=');
        if (!eq)
            break;
        char name[64], value[2048];
        snprintf(name, sizeof name, "%.*s", (int)(eq - p < 63 ? eq - p : 63), p);
        p = eq + 1;
        size_t n = 0;
        if (*p == '"') {
            for (p++; *p && *p != '"'; p++)
                if (n + 1 < sizeof value)
                    value[n++] = *p;
            if (*p)
                p++;
        } else
            for (; *p && *p != ' '; p++)
                if (n + 1 < sizeof value)
                    value[n++] = *p;
        value[n] = 0;
        bool on = !strcmp(value, "1");
        if (!strcmp(name, "done")) {
            *done = on;
            *wait_more = !on;
            continue;
        }
        if (!strcmp(name, "san") && on) {
            say(e, "rejected san");
            continue;
        }
        if (!strcmp(name, "myname"))
            snprintf(e->name, sizeof e->name, "%s", value);
        else if (!strcmp(name, "variants")) {
            snprintf(e->variants, sizeof e->variants, ",%s,", value);
            e->all_variants = false;
        } else if (!strcmp(name, "usermove"))
            e->usermove = on;
        else if (!strcmp(name, "setboard"))
            e->setboard = on;
        else if (!strcmp(name, "ping"))
            e->ping = on;
        say(e, "accepted %s", name);
    }
}

static bool cecp_init(EngineClient *e, char *err, size_t errlen) {
    say(e, "xboard");
    say(e, "protover 2");
    bool done = false, wait_more = false;
    int64_t t0 = proto_now_ms();
    while (!done) {
        /* the spec's 2 s for an engine that never says done=1, and more on a loaded
         * machine (Fairy-Max took longer beside a full test run) */
        int64_t deadline = t0 + (wait_more ? 60000 : 5000);
        char *l = hear(e, deadline);
        if (!l) {
            if (e->dead) {
                snprintf(err, errlen, "%s ended while starting", e->name);
                return false;
            }
            break; /* protocol 1 engine, or no done=1: go on */
        }
        if (starts(l, "feature"))
            cecp_features(e, l, &done, &wait_more);
    }
    return true;
}

/* Waits until the engine has read all sent so far: a ping's pong, or
 * without ping what it says in 300 ms. False when it does not answer. The
 * first "Error ..." line it says meanwhile goes to error (NULL: dropped). */
static bool cecp_sync(EngineClient *e, int wait_ms, char *error, size_t errlen) {
    char want[32] = "";
    if (e->ping) {
        int n = ++e->ping_n;
        say(e, "ping %d", n);
        snprintf(want, sizeof want, "pong %d", n);
    }
    int64_t deadline = proto_now_ms() + (e->ping ? wait_ms : 300);
    for (char *l; (l = hear(e, deadline));) {
        if (error && !error[0] && !strncmp(l, "Error", 5))
            snprintf(error, errlen, "%s", l);
        if (want[0] && !strcmp(l, want))
            return true;
    }
    return !e->dead && !want[0];
}

/* Our move text as XBoard writes it (ranks shifted). */
static void cecp_move(EngineClient *e, const char *ours, char *out, size_t len) {
    if (!proto_shift_ranks(ours, -e->shift, out, len))
        snprintf(out, len, "%s", ours);
}

static void cecp_tell_moves(EngineClient *e, Game *ref) {
    char(*h)[ENGINE_MOVE_TEXT] = malloc(PROTO_MAX_PLIES * sizeof *h);
    if (!h)
        abort();
    int n = engine_history(ref, h, PROTO_MAX_PLIES, false);
    for (int i = e->known; i < n; i++) {
        char text[ENGINE_MOVE_TEXT + 8];
        cecp_move(e, h[i], text, sizeof text);
        if (e->usermove)
            say(e, "usermove %s", text);
        else
            say(e, "%s", text);
    }
    e->known = n;
    free(h);
}

static bool cecp_new_game(EngineClient *e, Game *ref, char *err, size_t errlen) {
    say(e, "new");
    if (strcmp(e->variant, "chess"))
        say(e, "variant %s", xb_name(e->variant));
    say(e, "easy");
    if (e->tc.nodes) {
        say(e, "st 1");
        say(e, "nps %ld", e->tc.nodes);
    } else if (e->tc.movetime_ms)
        say(e, "st %g", e->tc.movetime_ms / 1000.0);
    else if (e->tc.base_ms) {
        int s = e->tc.base_ms / 1000;
        say(e, "level 0 %d:%02d %g", s / 60, s % 60, e->tc.inc_ms / 1000.0);
    }
    if (e->tc.depth)
        say(e, "sd %d", e->tc.depth);
    say(e, "force");
    if (!e->default_start) {
        if (!e->setboard) {
            snprintf(err, errlen, "%s cannot be given a start position (no setboard)", e->name);
            return false;
        }
        /* the en-passant field names a square in XBoard's ranks */
        char fen[600], copy[512], *f[8];
        snprintf(copy, sizeof copy, "%s", e->start);
        int nf = proto_split(copy, f, 8);
        fen[0] = 0;
        for (int i = 0; i < nf; i++) {
            char field[128];
            if (i != 3 || !proto_shift_ranks(f[i], -e->shift, field, sizeof field))
                snprintf(field, sizeof field, "%s", f[i]);
            snprintf(fen + strlen(fen), sizeof fen - strlen(fen), "%s%s", i ? " " : "", field);
        }
        say(e, "setboard %s", fen);
    }
    e->known = 0;
    e->started = false;
    cecp_tell_moves(e, ref);
    if (!cecp_sync(e, 20000, NULL, 0)) {
        snprintf(err, errlen, "%s does not answer", e->name);
        return false;
    }
    return true;
}

static ClientEvent cecp_think(EngineClient *e, Game *ref, const int clock_ms[2], int64_t deadline,
                              char *out, size_t len) {
    int us = engine_side_to_move(ref);
    if (e->tc.base_ms) {
        say(e, "time %d", clock_ms[us] / 10);
        say(e, "otim %d", clock_ms[!us] / 10);
    }
    cecp_tell_moves(e, ref);
    if (!e->started) {
        say(e, "go");
        e->started = true;
    }
    for (char *l; (l = hear(e, deadline));) {
        if (starts(l, "move")) {
            char *m = l + 4;
            m += strspn(m, " \t");
            m[strcspn(m, " \t")] = 0;
            if (!proto_shift_ranks(m, e->shift, out, len))
                snprintf(out, len, "%s", m);
            if (strchr(out, ',')) { /* a castling XBoard 4.9 draws from two legs */
                GameInfo gi;
                char ours[ENGINE_MOVE_TEXT];
                engine_info(ref, &gi);
                if (proto_castle_from_xboard(gi.xboard_castles, out, ours, sizeof ours))
                    snprintf(out, len, "%s", ours);
            }
            e->known++; /* its own move */
            return CLIENT_MOVE;
        }
        if (starts(l, "resign"))
            return CLIENT_RESIGN;
        if (starts(l, "1-0") || starts(l, "0-1") || starts(l, "1/2-1/2")) {
            snprintf(out, len, "%s", l);
            return strstr(l, "resign") ? CLIENT_RESIGN : CLIENT_CLAIM;
        }
        if (!strncmp(l, "Illegal move", 12)) {
            snprintf(out, len, "rejected a legal move: %s", l);
            return CLIENT_DIED;
        }
    }
    return e->dead ? CLIENT_DIED : CLIENT_TIMEOUT;
}

/* --- UCI ------------------------------------------------------------------- */

static bool uci_init(EngineClient *e, char *err, size_t errlen) {
    say(e, "uci");
    int64_t deadline = proto_now_ms() + 10000;
    for (char *l; (l = hear(e, deadline));) {
        if (!strcmp(l, "uciok"))
            return true;
        if (starts(l, "id") && !strncmp(l + 3, "name ", 5))
            snprintf(e->name, sizeof e->name, "%s", l + 8);
        if (starts(l, "option") && strstr(l, "name UCI_Variant ")) {
            e->has_uci_variant = true;
            size_t n = 0;
            e->variants[n++] = ',';
            for (const char *v = strstr(l, " var "); v; v = strstr(v + 1, " var ")) {
                const char *w = v + 5;
                size_t k = strcspn(w, " ");
                if (n + k + 2 < sizeof e->variants) {
                    memcpy(e->variants + n, w, k);
                    n += k;
                    e->variants[n++] = ',';
                }
            }
            e->variants[n] = 0;
        }
    }
    snprintf(err, errlen, "%s did not finish the UCI handshake", e->name);
    return false;
}

static bool uci_ready(EngineClient *e, int wait_ms) {
    say(e, "isready");
    int64_t deadline = proto_now_ms() + wait_ms;
    for (char *l; (l = hear(e, deadline));)
        if (!strcmp(l, "readyok"))
            return true;
    return false;
}

static bool uci_new_game(EngineClient *e, char *err, size_t errlen) {
    if (e->has_uci_variant)
        say(e, "setoption name UCI_Variant value %s", e->variant);
    say(e, "ucinewgame");
    if (!uci_ready(e, 20000)) {
        snprintf(err, errlen, "%s does not answer", e->name);
        return false;
    }
    return true;
}

static ClientEvent uci_think(EngineClient *e, Game *ref, const int clock_ms[2], int64_t deadline,
                             char *out, size_t len) {
    char(*h)[ENGINE_MOVE_TEXT] = malloc(PROTO_MAX_PLIES * sizeof *h);
    char *cmd = malloc(PROTO_MAX_PLIES * 12 + 1024);
    if (!h || !cmd)
        abort();
    int n = engine_history(ref, h, PROTO_MAX_PLIES, false);
    size_t k = e->default_start ? (size_t)sprintf(cmd, "position startpos")
                                : (size_t)sprintf(cmd, "position fen %s", e->start);
    for (int i = 0; i < n; i++)
        k += (size_t)sprintf(cmd + k, "%s%s", i ? " " : " moves ", h[i]);
    say(e, "%s", cmd);
    free(cmd);
    free(h);
    if (e->tc.nodes)
        say(e, "go nodes %ld", e->tc.nodes);
    else if (e->tc.movetime_ms)
        say(e, "go movetime %d", e->tc.movetime_ms);
    else if (e->tc.base_ms)
        say(e, "go wtime %d btime %d winc %d binc %d", clock_ms[0] > 0 ? clock_ms[0] : 1,
            clock_ms[1] > 0 ? clock_ms[1] : 1, e->tc.inc_ms, e->tc.inc_ms);
    else
        say(e, "go depth %d", e->tc.depth ? e->tc.depth : 1);
    for (char *l; (l = hear(e, deadline));) {
        if (starts(l, "bestmove")) {
            char *m = l + 8;
            m += strspn(m, " \t");
            m[strcspn(m, " \t")] = 0;
            if (!strcmp(m, "(none)") || !strcmp(m, "0000") || !*m)
                return CLIENT_RESIGN;
            snprintf(out, len, "%s", m);
            return CLIENT_MOVE;
        }
    }
    if (!e->dead) { /* make it stop, so the next game starts clean */
        say(e, "stop");
        int64_t until = proto_now_ms() + 1000;
        for (char *l; (l = hear(e, until));)
            if (starts(l, "bestmove"))
                break;
    }
    return e->dead ? CLIENT_DIED : CLIENT_TIMEOUT;
}

/* --- common ------------------------------------------------------------------ */

EngineClient *client_start(const char *spec, const char *self, const char *const *options,
                           bool trace, char *err, size_t errlen) {
    const char *cmd = NULL, *mode = NULL;
    bool uci;
    if (!strcmp(spec, "self") || !strcmp(spec, "self-uci")) {
        uci = !strcmp(spec, "self-uci");
        mode = uci ? "uci" : "xboard";
    } else if (!strncmp(spec, "xboard:", 7) && spec[7]) {
        uci = false;
        cmd = spec + 7;
    } else if (!strncmp(spec, "uci:", 4) && spec[4]) {
        uci = true;
        cmd = spec + 4;
    } else {
        snprintf(err, errlen, "bad engine \"%s\" (self, self-uci, xboard:COMMAND or uci:COMMAND)",
                 spec);
        return NULL;
    }
    int to[2], from[2];
    if (pipe(to))
        abort();
    if (pipe(from))
        abort();
    pid_t pid = fork();
    if (pid < 0)
        abort();
    if (pid == 0) {
        dup2(to[0], 0);
        dup2(from[1], 1); /* stderr stays ours: an engine's complaints show */
        for (int fd = 3; fd < 256; fd++)
            close(fd);
        if (cmd) {
            char *line = malloc(strlen(cmd) + 8);
            if (line) {
                sprintf(line, "exec %s", cmd);
                execl("/bin/sh", "sh", "-c", line, (char *)NULL);
            }
        } else
            execl(self, "menagerie", mode, (char *)NULL);
        _exit(127);
    }
    close(to[0]);
    close(from[1]);
    fcntl(to[1], F_SETFD, FD_CLOEXEC);
    fcntl(from[0], F_SETFD, FD_CLOEXEC);
    EngineClient *e = calloc(1, sizeof *e);
    if (!e)
        abort();
    e->pid = pid;
    e->to = to[1];
    e->from = from[0];
    e->uci = uci;
    e->trace = trace;
    e->all_variants = true;
    proto_lines_init(&e->in, e->from);
    if (cmd) {
        const char *base = cmd + strcspn(cmd, " ");
        const char *slash = cmd;
        for (const char *p = cmd; p < base; p++)
            if (*p == '/')
                slash = p + 1;
        snprintf(e->name, sizeof e->name, "%.*s", (int)(base - slash), slash);
    } else
        snprintf(e->name, sizeof e->name, "Menagerie");
    if (!(uci ? uci_init(e, err, errlen) : cecp_init(e, err, errlen))) {
        client_free(e);
        return NULL;
    }
    int nopts = 0;
    for (int i = 0; options && options[i]; i++) {
        const char *eq = strchr(options[i], '=');
        if (!eq)
            continue;
        nopts++;
        if (uci)
            say(e, "setoption name %.*s value %s", (int)(eq - options[i]), options[i], eq + 1);
        else
            say(e, "option %s", options[i]);
    }
    /* UCI has no answer to a refused option; CECP says "Error" */
    char refused[256] = "";
    if (nopts && !uci && (!cecp_sync(e, 10000, refused, sizeof refused) || refused[0])) {
        if (refused[0])
            snprintf(err, errlen, "%s refused an option: %s", e->name, refused);
        else
            snprintf(err, errlen, "%s does not answer after its options", e->name);
        client_free(e);
        return NULL;
    }
    return e;
}

void client_free(EngineClient *e) {
    if (!e)
        return;
    say(e, "quit");
    close(e->to);
    int status;
    int64_t until = proto_now_ms() + 1000;
    pid_t r;
    while ((r = waitpid(e->pid, &status, WNOHANG)) == 0 && proto_now_ms() < until) {
        struct timespec ts = {0, 10 * 1000000};
        nanosleep(&ts, NULL);
    }
    if (r == 0) {
        kill(e->pid, SIGKILL);
        waitpid(e->pid, &status, 0);
    }
    close(e->from);
    proto_lines_free(&e->in);
    free(e);
}

const char *client_name(const EngineClient *e) {
    return e->name;
}
bool client_alive(const EngineClient *e) {
    return !e->dead;
}

bool client_supports(const EngineClient *e, const char *variant) {
    char want[64];
    if (e->uci) {
        if (!strcmp(variant, "chess") && !e->has_uci_variant)
            return true;
        snprintf(want, sizeof want, ",%s,", variant);
        return e->has_uci_variant && strstr(e->variants, want);
    }
    if (e->all_variants)
        return true;
    snprintf(want, sizeof want, ",%s,", xb_name(variant));
    return strstr(e->variants, want) != NULL;
}

bool client_new_game(EngineClient *e, Game *ref, const ClientTimeControl *tc, char *err,
                     size_t errlen) {
    if (e->dead) {
        snprintf(err, errlen, "%s has ended", e->name);
        return false;
    }
    GameInfo info;
    engine_info(ref, &info);
    snprintf(e->variant, sizeof e->variant, "%s", info.name);
    e->shift = info.ranks == 10 ? 1 : 0;
    e->tc = *tc;
    engine_initial_text(ref, e->start, sizeof e->start);
    char usual[512] = "", err2[ENGINE_ERR_LEN];
    /* an XBoard engine starts XBoard's own game from XBoard's start (Courier) */
    const char *xb_start = !e->uci && info.xboard_start[0] ? info.xboard_start : NULL;
    Game *fresh = proto_new_game(info.name, xb_start, err2, sizeof err2);
    if (fresh) {
        engine_position_text(fresh, usual, sizeof usual);
        engine_free(fresh);
    }
    e->default_start = !strcmp(usual, e->start);
    return e->uci ? uci_new_game(e, err, errlen) : cecp_new_game(e, ref, err, errlen);
}

ClientEvent client_think(EngineClient *e, Game *ref, const int clock_ms[2], int64_t deadline,
                         char *out, size_t len) {
    out[0] = 0;
    if (e->dead)
        return CLIENT_DIED;
    return e->uci ? uci_think(e, ref, clock_ms, deadline, out, len)
                  : cecp_think(e, ref, clock_ms, deadline, out, len);
}

void client_game_over(EngineClient *e, const char *result, const char *reason) {
    if (!e->uci)
        say(e, "result %s {%s}", result, reason);
}
