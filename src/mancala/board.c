/* board.c - Slangenspel rules: sowing both ways, head and tail captures, the
 * variant A store moves and the variant B restrictions, text in and out, perft. */
#include "mancala/board.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void mancala_set_err(char *err, size_t errlen, const char *fmt, ...) {
    if (!err || errlen == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

int mancala_rules_by_name(const char *name) {
    if (!name)
        return -1;
    if (strcmp(name, "slangenspel") == 0)
        return MANCALA_BASE;
    if (strcmp(name, "slangenspel-a") == 0)
        return MANCALA_VAR_A;
    if (strcmp(name, "slangenspel-b") == 0)
        return MANCALA_VAR_B;
    if (strcmp(name, "slangenspel-ab") == 0)
        return MANCALA_VAR_A | MANCALA_VAR_B;
    return -1;
}

void mancala_start(MancalaPos *p, int rules) {
    memset(p, 0, sizeof *p);
    memset(p->hole, 5, sizeof p->hole);
    p->rules = (uint8_t)(rules & (MANCALA_VAR_A | MANCALA_VAR_B));
    if (rules & MANCALA_VAR_A)
        p->store[0] = p->store[1] = 15;
}

int mancala_board_eggs(const MancalaPos *p) {
    int n = 0;
    for (int i = 0; i < MANCALA_HOLES; i++)
        n += p->hole[i];
    return n;
}

int mancala_ring_eggs(const MancalaPos *p, int player) {
    int n = 0;
    for (int i = player * 8; i < player * 8 + 8; i++)
        n += p->hole[i];
    return n;
}

bool mancala_over(const MancalaPos *p) {
    if (p->rules & MANCALA_VAR_B)
        return mancala_board_eggs(p) == 0;
    return mancala_ring_eggs(p, 0) == 0 || mancala_ring_eggs(p, 1) == 0;
}

/* ---- move generation and making ---- */

/* Hole index where a sowing of n eggs from index i ends. */
static inline int landing(int i, int n, bool down) {
    return down ? (i + 256 - n) & 15 : (i + n) & 15;
}

static inline int add_sowing(MancalaMove *out, int k, int i, bool down, int land, unsigned flags) {
    MancalaMove m = (MancalaMove)(i | (down ? MANCALA_M_DOWN : 0) | flags);
    out[k++] = m;
    if (land == 0 || land == 15)
        out[k++] = (MancalaMove)(m | MANCALA_M_CAPTURE);
    return k;
}

int mancala_moves(const MancalaPos *p, MancalaMove *out) {
    if (mancala_over(p))
        return 0;
    int s = p->side, lo = s * 8, k = 0;
    bool var_b = (p->rules & MANCALA_VAR_B) != 0;
    bool all_single = false;
    if (var_b) {
        all_single = true;
        for (int i = 0; i < MANCALA_HOLES; i++)
            all_single &= p->hole[i] <= 1;
    }
    for (int i = lo; i < lo + 8; i++) {
        int n = p->hole[i];
        if (n == 0)
            continue;
        for (int d = 0; d < 2; d++) {
            int land = landing(i, n, d);
            if (var_b && n == 1) {
                /* (2) a single egg never joins a single egg, except in hole 1 or 16 */
                if (p->hole[land] == 1 && land != 0 && land != 15)
                    continue;
                /* (1) with only single eggs left, none goes back where it came from */
                if (all_single && p->origin[i] == land + 1)
                    continue;
            }
            k = add_sowing(out, k, i, d, land, 0);
        }
    }
    if ((p->rules & MANCALA_VAR_A) && p->used[s] < MANCALA_MAX_STORE_MOVES && p->store[s] >= 5) {
        for (int i = lo; i < lo + 8; i++) {
            if (p->hole[i] != 0)
                continue;
            for (int d = 0; d < 2; d++)
                k = add_sowing(out, k, i, d, landing(i, 5, d), MANCALA_M_STORE);
        }
    }
    if (k == 0 && var_b)
        out[k++] = MANCALA_M_PASS;
    return k;
}

int mancala_play(const MancalaPos *p, MancalaMove m, MancalaPos *out) {
    if (out != p)
        *out = *p;
    int s = out->side;
    out->side = (uint8_t)(s ^ 1);
    if (m & MANCALA_M_PASS)
        return 0;
    int i = m & 15, n;
    int step = (m & MANCALA_M_DOWN) ? 15 : 1; /* +15 is -1 modulo 16 */
    if (m & MANCALA_M_STORE) {
        n = 5;
        out->store[s] = (int16_t)(out->store[s] - 5);
        out->used[s]++;
    } else {
        n = out->hole[i];
        out->hole[i] = 0;
    }
    int q = n >> 4, r = n & 15;
    if (q)
        for (int j = 0; j < MANCALA_HOLES; j++)
            out->hole[j] = (uint8_t)(out->hole[j] + q);
    int j = i;
    for (int k = 0; k < r; k++) {
        j = (j + step) & 15;
        out->hole[j]++;
    }
    int land = j, captured = 0;
    /* ring whose drops a capture takes: inner (8-15) at the tail, outer at the head */
    int cap_lo = land == 0 ? 8 : 0;
    if (m & MANCALA_M_CAPTURE) {
        out->hole[land]--;
        captured = 1 + 8 * q;
        for (int h = cap_lo; h < cap_lo + 8; h++)
            out->hole[h] = (uint8_t)(out->hole[h] - q);
        j = i;
        for (int k = 0; k < r; k++) {
            j = (j + step) & 15;
            if ((j & 8) == (cap_lo & 8)) {
                out->hole[j]--;
                captured++;
            }
        }
        out->store[s] = (int16_t)(out->store[s] + captured);
    }
    if (out->rules & MANCALA_VAR_B) {
        /* eggs of this sowing that stay on the board, per hole */
        uint8_t rem[MANCALA_HOLES];
        memset(rem, q, sizeof rem);
        j = i;
        for (int k = 0; k < r; k++) {
            j = (j + step) & 15;
            rem[j]++;
        }
        if (m & MANCALA_M_CAPTURE) {
            rem[land]--;
            for (int h = cap_lo; h < cap_lo + 8; h++)
                rem[h] = 0;
        }
        for (int h = 0; h < MANCALA_HOLES; h++) {
            if (out->hole[h] != 1)
                out->origin[h] = 0;
            else if (rem[h])
                out->origin[h] = (uint8_t)(i + 1);
            /* else: the egg is an older one and keeps its origin */
        }
    }
    return captured;
}

uint64_t mancala_perft(const MancalaPos *p, int depth, const atomic_bool *stop) {
    if (depth <= 0)
        return 1;
    if (depth >= 3 && stop && atomic_load_explicit(stop, memory_order_relaxed))
        return 0;
    MancalaMove mv[MANCALA_MAX_MOVES];
    int n = mancala_moves(p, mv);
    if (depth == 1)
        return (uint64_t)n;
    uint64_t total = 0;
    for (int k = 0; k < n; k++) {
        MancalaPos c;
        mancala_play(p, mv[k], &c);
        total += mancala_perft(&c, depth - 1, stop);
    }
    return total;
}

bool mancala_same(const MancalaPos *a, const MancalaPos *b) {
    return memcmp(a->hole, b->hole, sizeof a->hole) == 0 &&
           memcmp(a->origin, b->origin, sizeof a->origin) == 0 && a->store[0] == b->store[0] &&
           a->store[1] == b->store[1] && a->side == b->side && a->used[0] == b->used[0] &&
           a->used[1] == b->used[1] && a->rules == b->rules;
}

static inline uint64_t mix64(uint64_t x) {
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

uint64_t mancala_hash(const MancalaPos *p) {
    uint64_t w[2];
    memcpy(w, p->hole, sizeof w);
    uint64_t h = mix64(w[0] ^ 0x9e3779b97f4a7c15ULL);
    h = mix64(h ^ w[1]);
    uint64_t extra = (uint64_t)(uint16_t)p->store[0] | (uint64_t)(uint16_t)p->store[1] << 16 |
                     (uint64_t)p->side << 32 | (uint64_t)p->used[0] << 36 |
                     (uint64_t)p->used[1] << 40 | (uint64_t)p->rules << 44;
    h = mix64(h ^ extra);
    if (p->rules & MANCALA_VAR_B) {
        memcpy(w, p->origin, sizeof w);
        h = mix64(h ^ w[0]);
        h = mix64(h ^ w[1]);
    }
    return h;
}

/* ---- position text ---- */

/* Reads an unsigned decimal number of at most MAX at *s; advances *s. */
static bool read_num(const char **s, int max, int *out) {
    const char *c = *s;
    if (*c < '0' || *c > '9')
        return false;
    long v = 0;
    while (*c >= '0' && *c <= '9') {
        v = v * 10 + (*c - '0');
        if (v > max)
            return false;
        c++;
    }
    *out = (int)v;
    *s = c;
    return true;
}

/* Splits TEXT into whitespace-separated tokens (copied into BUF); fills at most MAXTOK
 * and returns MAXTOK + 1 when there are more, -1 when TEXT does not fit. */
static int tokenize(const char *text, char *buf, size_t buflen, char **tok, int maxtok) {
    size_t len = strlen(text);
    if (len >= buflen)
        return -1;
    memcpy(buf, text, len + 1);
    int n = 0;
    char *c = buf;
    for (;;) {
        while (*c == ' ' || *c == '\t' || *c == '\n' || *c == '\r')
            c++;
        if (!*c)
            break;
        if (n == maxtok)
            return maxtok + 1;
        tok[n++] = c;
        while (*c && *c != ' ' && *c != '\t' && *c != '\n' && *c != '\r')
            c++;
        if (*c)
            *c++ = 0;
    }
    return n;
}

/* Parses "n1/n2/.../n16" with each value at most MAX. */
static bool parse_sixteen(const char *tok, int max, int *v, const char *what, char *err,
                          size_t errlen) {
    const char *c = tok;
    for (int i = 0; i < MANCALA_HOLES; i++) {
        if (i > 0) {
            if (*c != '/') {
                mancala_set_err(err, errlen, "%s: expected 16 numbers separated by '/', got %d",
                                what, i);
                return false;
            }
            c++;
        }
        if (!read_num(&c, max, &v[i])) {
            mancala_set_err(err, errlen, "%s: value %d is not a number from 0 to %d", what, i + 1,
                            max);
            return false;
        }
    }
    if (*c) {
        mancala_set_err(err, errlen, "%s: expected 16 numbers separated by '/', found more", what);
        return false;
    }
    return true;
}

static bool parse_field(const char *tok, int max, int *out, const char *what, char *err,
                        size_t errlen) {
    const char *c = tok;
    if (!read_num(&c, max, out) || *c) {
        mancala_set_err(err, errlen, "%s '%s' is not a number from 0 to %d", what, tok, max);
        return false;
    }
    return true;
}

bool mancala_parse(MancalaPos *p, int rules, const char *text, char *err, size_t errlen) {
    if (!text) {
        mancala_set_err(err, errlen, "no position text");
        return false;
    }
    rules &= MANCALA_VAR_A | MANCALA_VAR_B;
    char buf[512];
    char *tok[8]; /* a rule set has at most 7 fields; the 8th shows what is too much */
    int nt = tokenize(text, buf, sizeof buf, tok, 8);
    if (nt < 0) {
        mancala_set_err(err, errlen, "position text too long");
        return false;
    }
    int want_max = 4 + ((rules & MANCALA_VAR_A) ? 2 : 0) + ((rules & MANCALA_VAR_B) ? 1 : 0);
    if (nt < 4) {
        mancala_set_err(err, errlen,
                        "position text needs 16 hole counts, two stores and the side to move "
                        "(e.g. 5/5/5/5/5/5/5/5/5/5/5/5/5/5/5/5 0 0 a)");
        return false;
    }
    if (nt > want_max) {
        mancala_set_err(err, errlen,
                        "unexpected field '%s' after the position text of this rule set",
                        tok[want_max]);
        return false;
    }
    MancalaPos q;
    memset(&q, 0, sizeof q);
    q.rules = (uint8_t)rules;
    int v[MANCALA_HOLES];
    if (!parse_sixteen(tok[0], MANCALA_MAX_BOARD, v, "holes", err, errlen))
        return false;
    int total = 0;
    for (int i = 0; i < MANCALA_HOLES; i++) {
        q.hole[i] = (uint8_t)v[i];
        total += v[i];
    }
    if (total > MANCALA_MAX_BOARD) {
        mancala_set_err(err, errlen, "too many eggs on the board (%d, at most %d)", total,
                        MANCALA_MAX_BOARD);
        return false;
    }
    int sa, sb;
    if (!parse_field(tok[1], MANCALA_MAX_STORE, &sa, "A's store", err, errlen) ||
        !parse_field(tok[2], MANCALA_MAX_STORE, &sb, "B's store", err, errlen))
        return false;
    q.store[0] = (int16_t)sa;
    q.store[1] = (int16_t)sb;
    if (strcmp(tok[3], "a") == 0)
        q.side = 0;
    else if (strcmp(tok[3], "b") == 0)
        q.side = 1;
    else {
        mancala_set_err(err, errlen, "side to move '%s' must be 'a' or 'b'", tok[3]);
        return false;
    }
    int t = 4;
    if (rules & MANCALA_VAR_A) {
        for (int s = 0; s < 2; s++) {
            int u = 0;
            if (t < nt) {
                if (tok[t][0] == '\0' || strchr(tok[t], '/')) {
                    mancala_set_err(err, errlen, "expected the store moves %s has used, got '%s'",
                                    s ? "B" : "A", tok[t]);
                    return false;
                }
                if (!parse_field(tok[t], MANCALA_MAX_STORE_MOVES, &u,
                                 s ? "store moves used by B" : "store moves used by A", err,
                                 errlen))
                    return false;
                t++;
            }
            q.used[s] = (uint8_t)u;
        }
    }
    if (rules & MANCALA_VAR_B) {
        if (t < nt) {
            if (!parse_sixteen(tok[t], MANCALA_HOLES, v, "origins", err, errlen))
                return false;
            for (int i = 0; i < MANCALA_HOLES; i++) {
                if (v[i] != 0 && q.hole[i] != 1) {
                    mancala_set_err(err, errlen,
                                    "origins: hole %d holds %d eggs; an origin is given only for a "
                                    "hole holding exactly one egg",
                                    i + 1, q.hole[i]);
                    return false;
                }
                q.origin[i] = (uint8_t)v[i];
            }
            t++;
        }
    }
    if (t < nt) {
        mancala_set_err(err, errlen, "unexpected field '%s' after the position text", tok[t]);
        return false;
    }
    *p = q;
    return true;
}

void mancala_print(const MancalaPos *p, char *buf, size_t len) {
    char tmp[MANCALA_POS_TEXT];
    size_t o = 0;
    for (int i = 0; i < MANCALA_HOLES; i++)
        o += (size_t)snprintf(tmp + o, sizeof tmp - o, i ? "/%d" : "%d", p->hole[i]);
    o += (size_t)snprintf(tmp + o, sizeof tmp - o, " %d %d %c", p->store[0], p->store[1],
                          p->side ? 'b' : 'a');
    if (p->rules & MANCALA_VAR_A)
        o += (size_t)snprintf(tmp + o, sizeof tmp - o, " %d %d", p->used[0], p->used[1]);
    if (p->rules & MANCALA_VAR_B)
        for (int i = 0; i < MANCALA_HOLES; i++)
            o += (size_t)snprintf(tmp + o, sizeof tmp - o, i ? "/%d" : " %d", p->origin[i]);
    if (len)
        snprintf(buf, len, "%s", tmp);
}

/* ---- move text ---- */

void mancala_move_text(MancalaMove m, char *buf, size_t len) {
    if (!len)
        return;
    if (m == MANCALA_MOVE_NONE)
        snprintf(buf, len, "none");
    else if (m & MANCALA_M_PASS)
        snprintf(buf, len, "pass");
    else
        snprintf(buf, len, "%s%d%c%s", (m & MANCALA_M_STORE) ? "S" : "", (m & 15) + 1,
                 (m & MANCALA_M_DOWN) ? '-' : '+', (m & MANCALA_M_CAPTURE) ? "x" : "");
}

bool mancala_parse_move(const MancalaPos *p, const char *text, MancalaMove *m, char *err,
                        size_t errlen) {
    if (!text) {
        mancala_set_err(err, errlen, "no move text");
        return false;
    }
    while (*text == ' ' || *text == '\t')
        text++;
    size_t len = strlen(text);
    while (len && (text[len - 1] == ' ' || text[len - 1] == '\t' || text[len - 1] == '\n' ||
                   text[len - 1] == '\r'))
        len--;
    char t[16];
    if (len == 0 || len >= sizeof t) {
        mancala_set_err(err, errlen, "bad move text '%.*s': expected e.g. 3+, 12-x, S5+ or pass",
                        len ? (int)(len > 20 ? 20 : len) : 0, text);
        return false;
    }
    memcpy(t, text, len);
    t[len] = 0;
    if (mancala_over(p)) {
        mancala_set_err(err, errlen, "the game is over");
        return false;
    }
    MancalaMove mv[MANCALA_MAX_MOVES];
    int nm = mancala_moves(p, mv);
    const char *who = p->side ? "B" : "A";
    if (strcmp(t, "pass") == 0) {
        if (!(p->rules & MANCALA_VAR_B)) {
            mancala_set_err(err, errlen, "passing is a variant B rule");
            return false;
        }
        if (nm != 1 || mv[0] != MANCALA_M_PASS) {
            mancala_set_err(err, errlen, "%s may pass only without a legal move", who);
            return false;
        }
        *m = MANCALA_M_PASS;
        return true;
    }
    const char *c = t;
    bool store = false;
    if (*c == 'S' || *c == 's') {
        store = true;
        c++;
    }
    int hole;
    if (!read_num(&c, 99, &hole) || hole < 1 || hole > 16 || (*c != '+' && *c != '-') ||
        (c[1] != 0 && !((c[1] == 'x' || c[1] == 'X') && c[2] == 0))) {
        mancala_set_err(err, errlen,
                        "bad move text '%s': expected hole 1-16, + or -, optional x "
                        "(e.g. 3+, 12-x, S5+, pass)",
                        t);
        return false;
    }
    bool down = *c == '-', capture = c[1] != 0;
    int i = hole - 1, s = p->side;
    if ((i >> 3) != s) {
        mancala_set_err(err, errlen, "hole %d is not in %s's ring (holes %s)", hole, who,
                        s ? "9-16" : "1-8");
        return false;
    }
    int n;
    if (store) {
        if (!(p->rules & MANCALA_VAR_A)) {
            mancala_set_err(err, errlen, "store moves are a variant A rule");
            return false;
        }
        if (p->used[s] >= MANCALA_MAX_STORE_MOVES) {
            mancala_set_err(err, errlen, "%s has used all %d store moves", who,
                            MANCALA_MAX_STORE_MOVES);
            return false;
        }
        if (p->store[s] < 5) {
            mancala_set_err(err, errlen, "%s's store holds %d eggs; a store move sows 5", who,
                            p->store[s]);
            return false;
        }
        if (p->hole[i] != 0) {
            mancala_set_err(err, errlen, "a store move starts from an empty hole; hole %d holds %d",
                            hole, p->hole[i]);
            return false;
        }
        n = 5;
    } else {
        n = p->hole[i];
        if (n == 0) {
            mancala_set_err(err, errlen, "hole %d is empty", hole);
            return false;
        }
    }
    int land = landing(i, n, down);
    if (capture && land != 0 && land != 15) {
        mancala_set_err(err, errlen,
                        "the last egg lands in hole %d, not in hole 1 or 16: no capture", land + 1);
        return false;
    }
    MancalaMove want =
        (MancalaMove)(i | (down ? MANCALA_M_DOWN : 0) | (capture ? MANCALA_M_CAPTURE : 0) |
                      (store ? MANCALA_M_STORE : 0));
    for (int k = 0; k < nm; k++)
        if (mv[k] == want) {
            *m = want;
            return true;
        }
    if ((p->rules & MANCALA_VAR_B) && n == 1 && p->hole[land] == 1)
        mancala_set_err(err, errlen,
                        "variant B: a single egg may not be sown into hole %d, which holds one egg",
                        land + 1);
    else if ((p->rules & MANCALA_VAR_B) && n == 1)
        mancala_set_err(
            err, errlen,
            "variant B: with only single eggs left, the egg in hole %d may not go back to "
            "hole %d where its sowing started",
            hole, land + 1);
    else
        mancala_set_err(err, errlen, "illegal move '%s'", t);
    return false;
}
