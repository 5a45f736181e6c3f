/* proto_io.c - shared helpers of the protocol front ends (see proto_io.h). */
#include "app/proto/proto_io.h"

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

void proto_out(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    pthread_mutex_lock(&out_lock);
    vfprintf(stdout, fmt, ap);
    fputc('\n', stdout);
    fflush(stdout);
    pthread_mutex_unlock(&out_lock);
    va_end(ap);
}

int64_t proto_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void proto_lines_init(ProtoLines *r, int fd) {
    memset(r, 0, sizeof *r);
    r->fd = fd;
    r->cap = 4096;
    r->buf = malloc(r->cap);
    if (!r->buf)
        abort();
}

void proto_lines_free(ProtoLines *r) {
    free(r->buf);
    r->buf = NULL;
}

bool proto_lines_ready(const ProtoLines *r) {
    return memchr(r->buf + r->start, '\n', r->len - r->start) != NULL ||
           (r->eof && r->len > r->start);
}

bool proto_lines_fill(ProtoLines *r) {
    if (r->eof)
        return false;
    if (r->start > 0) { /* drop consumed text */
        memmove(r->buf, r->buf + r->start, r->len - r->start);
        r->len -= r->start;
        r->start = 0;
    }
    if (r->cap - r->len < 1024) {
        if (r->cap >= (1u << 24)) { /* a 16 MB line: drop it */
            r->len = 0;
        } else {
            r->cap *= 2;
            r->buf = realloc(r->buf, r->cap);
            if (!r->buf)
                abort();
        }
    }
    ssize_t k;
    do
        k = read(r->fd, r->buf + r->len, r->cap - r->len - 1);
    while (k < 0 && errno == EINTR);
    if (k <= 0) {
        r->eof = true;
        return false;
    }
    r->len += (size_t)k;
    return true;
}

char *proto_lines_take(ProtoLines *r) {
    char *s = r->buf + r->start;
    char *nl = memchr(s, '\n', r->len - r->start);
    if (!nl) {
        if (!r->eof || r->len == r->start)
            return NULL;
        r->buf[r->len] = 0; /* room kept by fill */
        r->start = r->len;
        return s;
    }
    *nl = 0;
    if (nl > s && nl[-1] == '\r')
        nl[-1] = 0;
    r->start = (size_t)(nl - r->buf) + 1;
    return s;
}

/* Whether the line from S to END (no newline) begins with the word WORD. */
static bool line_is(const char *s, const char *end, const char *word) {
    while (s < end && (*s == ' ' || *s == '\t'))
        s++;
    size_t n = strlen(word);
    return (size_t)(end - s) >= n && !memcmp(s, word, n) &&
           (s + n == end || s[n] == ' ' || s[n] == '\t' || s[n] == '\r');
}

/* Whether a buffered line (the next only, or any) begins with WORD. */
static bool lines_find(const ProtoLines *r, const char *word, bool next_only) {
    const char *s = r->buf + r->start, *stop = r->buf + r->len;
    while (s < stop) {
        const char *nl = memchr(s, '\n', (size_t)(stop - s));
        if (!nl && !r->eof)
            return false; /* not a whole line yet */
        const char *end = nl ? nl : stop;
        if (line_is(s, end, word))
            return true;
        if (next_only || !nl)
            return false;
        s = nl + 1;
    }
    return false;
}

bool proto_lines_next_is(const ProtoLines *r, const char *word) {
    return lines_find(r, word, true);
}

bool proto_lines_holds(const ProtoLines *r, const char *word) {
    return lines_find(r, word, false);
}

int proto_split(char *line, char **tok, int max) {
    int n = 0;
    char *save = NULL;
    for (char *t = strtok_r(line, " \t\r", &save); t && n < max; t = strtok_r(NULL, " \t\r", &save))
        tok[n++] = t;
    return n;
}

char *proto_read_file(const char *path, size_t max, size_t *len, char *err, size_t errlen) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot read %s", path);
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    if (!buf)
        abort();
    for (size_t k; n <= max && (k = fread(buf + n, 1, cap - n, f)) > 0;) {
        n += k;
        if (n == cap && !(buf = realloc(buf, (cap *= 2) + 1)))
            abort();
    }
    bool bad = ferror(f) || n > max;
    fclose(f);
    if (bad) {
        if (n > max)
            snprintf(err, errlen, "%s is larger than %zu bytes", path, max);
        else
            snprintf(err, errlen, "cannot read %s", path);
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

bool proto_parse_long(const char *s, long min, long max, long *out) {
    if (!s || !*s)
        return false;
    const char *p = s;
    if (*p == '-' || *p == '+')
        p++;
    if (!*p)
        return false;
    for (const char *q = p; *q; q++)
        if (!isdigit((unsigned char)*q))
            return false;
    errno = 0;
    long v = strtol(s, NULL, 10);
    if (errno || v < min || v > max)
        return false;
    *out = v;
    return true;
}

int proto_hash_cap_mb(void) {
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page <= 0)
        return 1024; /* unknown: a size any machine we run on has */
    long long mb = (long long)pages / 2 * page >> 20;
    return mb < 1 ? 1 : mb > PROTO_HASH_MAX_MB ? PROTO_HASH_MAX_MB : (int)mb;
}

bool proto_parse_double(const char *s, double *out) {
    if (!s || !*s)
        return false;
    int dots = 0, digits = 0;
    for (const char *q = s; *q; q++) {
        if (*q == '.')
            dots++;
        else if (isdigit((unsigned char)*q))
            digits++;
        else
            return false;
    }
    if (dots > 1 || !digits)
        return false;
    *out = strtod(s, NULL);
    return *out < 1e9;
}

static const char *chess_games[64];
static pthread_once_t chess_games_once = PTHREAD_ONCE_INIT;

static void fill_chess_games(void) {
    const char *const *all = engine_game_names();
    int n = 0;
    for (int i = 0; all[i] && n < 63; i++) {
        char err[ENGINE_ERR_LEN];
        Game *g = engine_new(all[i], NULL, err, sizeof err);
        if (!g)
            continue;
        GameInfo info;
        engine_info(g, &info);
        if (info.kind == KIND_CHESS)
            chess_games[n++] = all[i];
        engine_free(g);
    }
    chess_games[n] = NULL;
}

const char *const *proto_chess_games(void) {
    pthread_once(&chess_games_once, fill_chess_games);
    return chess_games;
}

Game *proto_new_game(const char *variant, const char *fen, char *err, size_t errlen) {
    char start[512];
    if (!fen) {
        const char *const *setups = engine_setups(variant);
        if (setups[0] && !engine_start_fen(variant, setups[0], start, sizeof start, err, errlen))
            fen = start;
    }
    return engine_new(variant, fen, err, errlen);
}

bool proto_shift_ranks(const char *in, int delta, char *out, size_t len) {
    size_t n = 0;
    for (const char *p = in; *p;) {
        if (n + 4 >= len)
            return false;
        if (islower((unsigned char)*p) && isdigit((unsigned char)p[1])) {
            out[n++] = *p++;
            int r = 0;
            while (isdigit((unsigned char)*p)) {
                if (r <= 99) /* more is refused below: no overflow */
                    r = r * 10 + (*p - '0');
                p++;
            }
            r += delta;
            if (r < 0 || r > 99)
                return false;
            n += (size_t)snprintf(out + n, len - n, "%d", r);
        } else
            out[n++] = *p++;
    }
    out[n] = 0;
    return true;
}

char proto_gated_piece(Game *g, const char *move) {
    BoardView before, after;
    char err[ENGINE_ERR_LEN];
    if (!engine_board(g, &before) || !engine_play(g, move, err, sizeof err))
        return 0;
    engine_board(g, &after);
    engine_undo(g);
    int side = before.side;
    if (before.hand[side][0]) /* a set-up move gates nothing */
        return 0;
    for (int f = 0; f < before.files && f < 16; f++)
        if (before.gate[side][f] && !after.gate[side][f])
            return (char)tolower((unsigned char)before.gate[side][f]);
    return 0;
}

bool proto_play_gated(Game *g, const char *move, char *err, size_t errlen) {
    if (engine_play(g, move, err, errlen))
        return true;
    size_t n = strlen(move);
    if (n < 5 || n >= ENGINE_MOVE_TEXT || !isalpha((unsigned char)move[n - 1]) ||
        !isdigit((unsigned char)move[n - 2]))
        return false;
    char base[ENGINE_MOVE_TEXT], err2[ENGINE_ERR_LEN];
    snprintf(base, sizeof base, "%.*s", (int)(n - 1), move);
    char gate = proto_gated_piece(g, base);
    if (!gate)
        return false;
    if (gate != tolower((unsigned char)move[n - 1])) {
        snprintf(err, errlen, "%s gates in %c, not %c", base, gate, move[n - 1]);
        return false;
    }
    return engine_play(g, base, err2, sizeof err2);
}

/* The next "OURS[=LEGS]" token of CASTLES at *p into ours and legs ("" =
 * none); false at the end. */
static bool castle_token(const char **p, char ours[16], char legs[32]) {
    *p += strspn(*p, " ");
    size_t n = strcspn(*p, " ");
    if (!n)
        return false;
    size_t k = strcspn(*p, "= ");
    snprintf(ours, 16, "%.*s", (int)(k < 15 ? k : 15), *p);
    snprintf(legs, 32, "%.*s", k < n ? (int)(n - k - 1 < 31 ? n - k - 1 : 31) : 0, *p + k + 1);
    *p += n;
    return true;
}

bool proto_castle_to_xboard(const char *castles, const char *ours, char *out, size_t len) {
    char o[16], legs[32];
    for (const char *p = castles; castle_token(&p, o, legs);)
        if (legs[0] && !strcmp(o, ours)) {
            snprintf(out, len, "%s", legs);
            return true;
        }
    return false;
}

bool proto_castle_from_xboard(const char *castles, const char *in, char *out, size_t len) {
    const char *comma = strchr(in, ',');
    char o[16], legs[32];
    if (!comma)
        return false;
    for (const char *p = castles; castle_token(&p, o, legs);) {
        const char *rook = strchr(legs, ','); /* the rook's square starts the second leg */
        size_t r = rook && rook[1] ? 1 + strspn(rook + 2, "0123456789") : 0;
        bool echo = rook && (size_t)(comma - in) == strlen(o) && !strncmp(in, o, strlen(o)) &&
                    !strncmp(comma + 1, rook + 1, r);
        if (legs[0] && (!strcmp(in, legs) || echo)) {
            snprintf(out, len, "%s", o);
            return true;
        }
    }
    return false;
}

void proto_castles_unseen(const char *castles, char *out, size_t len) {
    char o[16], legs[32];
    size_t n = 0;
    out[0] = 0;
    for (const char *p = castles; castle_token(&p, o, legs) && n < len;)
        if (!legs[0])
            n += (size_t)snprintf(out + n, len - n, "%s%s", n ? " " : "", o);
}

bool proto_castle_listed(const char *castles, const char *ours) {
    char o[16], legs[32];
    for (const char *p = castles; castle_token(&p, o, legs);)
        if (!strcmp(o, ours))
            return true;
    return false;
}
