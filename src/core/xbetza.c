/* xbetza.c - XBetza text to move paths (see xbetza.h). */
#include "core/xbetza.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CLS_ORTH, CLS_DIAG, CLS_OBLIQUE };

typedef struct {
    char letter;
    int8_t a, b; /* base vector (a >= b >= 0) */
} Atom;

static const Atom atoms[] = {
    {'W', 1, 0}, {'F', 1, 1}, {'D', 2, 0}, {'N', 2, 1}, {'A', 2, 2},
    {'H', 3, 0}, {'C', 3, 1}, {'Z', 3, 2}, {'G', 3, 3},
};

static const Atom *find_atom(char c) {
    for (size_t i = 0; i < sizeof atoms / sizeof atoms[0]; i++)
        if (atoms[i].letter == c)
            return &atoms[i];
    return NULL;
}

static int atom_class(const Atom *at) {
    return at->b == 0 ? CLS_ORTH : at->a == at->b ? CLS_DIAG : CLS_OBLIQUE;
}

/* Does vector (dx,dy) belong to direction letter d (absolute, first leg)? */
static bool dir_has(char d, int dx, int dy, int cls) {
    switch (d) {
    case 'f': return dy > 0;
    case 'b': return dy < 0;
    case 'l': return dx < 0;
    case 'r': return dx > 0;
    case 'v': return cls == CLS_DIAG || abs(dy) > abs(dx);
    case 's': return cls == CLS_DIAG || abs(dx) > abs(dy);
    default: return false;
    }
}

static bool is_dir(char c) {
    return c && strchr("fblrvs", c) != NULL;
}

/* Pairs such as "fr" (diagonal and oblique atoms) or "ff", "fs" (oblique)
 * select the intersection of their letters; single letters add up. */
static bool pair_ok(char x, char y, int cls) {
    if (cls == CLS_ORTH)
        return false;
    bool xfb = x == 'f' || x == 'b', xlr = x == 'l' || x == 'r';
    bool yfb = y == 'f' || y == 'b', ylr = y == 'l' || y == 'r';
    if (cls == CLS_DIAG)
        return (xfb && ylr) || (xlr && yfb);
    if ((xfb && y == 'v') || (xlr && y == 's'))
        return false; /* "fv" is no pair; "fs" below is */
    return (xfb && (ylr || y == 's' || y == x)) || (xlr && (yfb || y == 'v' || y == x));
}

static bool pair_has(char x, char y, int dx, int dy, int cls) {
    char y2 = y;
    if (y == x) /* doubled: the narrow pair along that axis */
        y2 = (x == 'f' || x == 'b') ? 'v' : 's';
    return dir_has(x, dx, dy, cls) && dir_has(y2, dx, dy, cls);
}

/* Does the first-leg direction set in mods select (dx,dy)? */
static bool first_leg_selects(const char *mods, int dx, int dy, int cls) {
    bool any = false, hit = false;
    for (const char *p = mods; *p; p++) {
        if (!is_dir(*p))
            continue;
        any = true;
        if (is_dir(p[1]) && pair_ok(p[0], p[1], cls)) {
            hit |= pair_has(p[0], p[1], dx, dy, cls);
            p++;
        } else if (cls == CLS_ORTH && (*p == 'v' || *p == 's')) {
            hit |= *p == 'v' ? dx == 0 : dy == 0;
        } else {
            hit |= dir_has(*p, dx, dy, cls);
        }
    }
    return !any || hit;
}

/* Later legs: directions relative to the previous leg, as 45-degree left
 * turns: f 0, fl 1, l 2, bl 3, b 4, br 5, r 6, fr 7. */
static uint8_t rel_rotations(const char *mods) {
    uint8_t rot = 0;
    bool any = false;
    for (const char *p = mods; *p; p++) {
        if (!is_dir(*p))
            continue;
        any = true;
        char x = p[0], y = p[1];
        if ((x == 'f' || x == 'b') && (y == 'l' || y == 'r' || y == 's')) {
            int l = x == 'f' ? 1 : 3, r = x == 'f' ? 7 : 5;
            if (y != 'r')
                rot |= (uint8_t)(1u << l);
            if (y != 'l')
                rot |= (uint8_t)(1u << r);
            p++;
            continue;
        }
        switch (x) {
        case 'f': rot |= 1u << 0; break;
        case 'b': rot |= 1u << 4; break;
        case 'l': rot |= 1u << 2; break;
        case 'r': rot |= 1u << 6; break;
        case 's': rot |= (1u << 2) | (1u << 6); break;
        case 'v': rot |= (1u << 0) | (1u << 4); break;
        }
    }
    return any ? rot : 0x55; /* default: straight on, both sides, back */
}

typedef struct {
    char mods[XB_MAX_LEGS][24];
    int nlegs;
} LegText;

static int split_legs(const char *mods, size_t n, LegText *lt, char *err, size_t errlen) {
    memset(lt, 0, sizeof *lt);
    size_t k = 0;
    lt->nlegs = 1;
    for (size_t i = 0; i < n; i++) {
        if (mods[i] == 'a') {
            if (lt->nlegs == XB_MAX_LEGS) {
                snprintf(err, errlen, "more than %d legs", XB_MAX_LEGS);
                return -1;
            }
            lt->nlegs++;
            k = 0;
            continue;
        }
        if (k + 1 >= sizeof lt->mods[0]) {
            snprintf(err, errlen, "too many modifiers");
            return -1;
        }
        lt->mods[lt->nlegs - 1][k++] = mods[i];
    }
    return 0;
}

static int add_move(XbPiece *out, const XbMove *m, char *err, size_t errlen) {
    if (out->n == XB_MAX_MOVES) {
        snprintf(err, errlen, "too many moves (more than %d)", XB_MAX_MOVES);
        return -1;
    }
    out->move[out->n++] = *m;
    return 0;
}

/* One atom (not compound) with its modifiers, rider flag and range. */
static int compile_atom(const Atom *at, const LegText *lt, bool rider, int range, XbPiece *out,
                        char *err, size_t errlen) {
    int cls = atom_class(at);
    XbMove proto;
    memset(&proto, 0, sizeof proto);
    proto.nlegs = (uint8_t)lt->nlegs;
    bool ep = false;
    for (int k = 0; k < lt->nlegs; k++) {
        const char *md = lt->mods[k];
        for (const char *p = md; *p; p++) {
            if (is_dir(*p))
                continue;
            switch (*p) {
            case 'i': proto.flags |= XF_INITIAL; break;
            case 'n': proto.flags |= XF_LAME; break;
            case 'j': break; /* leapers jump anyway */
            case 'e': ep = true; break;
            case 'm':
            case 'c':
            case 'p':
            case 'g':
            case 'y': break;
            default: snprintf(err, errlen, "unsupported modifier '%c'", *p); return -1;
            }
        }
    }
    bool r = rider;
    for (int k = 0; k < lt->nlegs; k++) {
        const char *md = lt->mods[k];
        XbLeg *lg = &proto.leg[k];
        bool m = strchr(md, 'm') != NULL, c = strchr(md, 'c') != NULL;
        bool p = strchr(md, 'p') != NULL, g = strchr(md, 'g') != NULL;
        bool y = strchr(md, 'y') != NULL;
        bool last = k == lt->nlegs - 1;
        if (last) {
            if (p || g) {
                snprintf(err, errlen, "hopping on the final leg is not supported");
                return -1;
            }
            lg->mode = (uint8_t)((m ? XM_MOVE : 0) | (c ? XM_CAPT : 0));
            if (!m && !c)
                lg->mode = ep ? 0 : XM_MOVE | XM_CAPT;
            if (ep)
                lg->mode |= XM_EP;
        } else {
            if (c) {
                snprintf(err, errlen, "capturing on a non-final leg is not supported");
                return -1;
            }
            lg->mode = (uint8_t)((m || !(p || g) ? XM_MOVE : 0) | (p || g ? XM_HOP : 0));
        }
        lg->rider = r;
        lg->range = (uint8_t)(r ? range : 1);
        lg->len = (uint8_t)at->a;
        lg->rot = k ? rel_rotations(md) : 0;
        r = r ^ (y || g);
    }
    if (lt->nlegs > 1 && cls == CLS_OBLIQUE) {
        snprintf(err, errlen, "multi-leg moves need an orthogonal or diagonal atom");
        return -1;
    }
    /* Every vector of the atom's symmetry that the first leg selects. */
    int vec[8][2], nv = 0;
    int a = at->a, b = at->b;
    int cand[8][2] = {{a, b}, {b, a}, {-b, a}, {-a, b}, {-a, -b}, {-b, -a}, {b, -a}, {a, -b}};
    for (int i = 0; i < 8; i++) {
        bool dup = false;
        for (int j = 0; j < nv; j++)
            dup |= vec[j][0] == cand[i][0] && vec[j][1] == cand[i][1];
        if (!dup) {
            vec[nv][0] = cand[i][0];
            vec[nv][1] = cand[i][1];
            nv++;
        }
    }
    for (int i = 0; i < nv; i++) {
        if (!first_leg_selects(lt->mods[0], vec[i][0], vec[i][1], cls))
            continue;
        XbMove mv = proto;
        mv.dx = (int8_t)vec[i][0];
        mv.dy = (int8_t)vec[i][1];
        if (add_move(out, &mv, err, errlen))
            return -1;
    }
    return 0;
}

int xbetza_compile(const char *text, XbPiece *out, char *err, size_t errlen) {
    memset(out, 0, sizeof *out);
    const char *p = text;
    char msg[120];
    while (*p) {
        const char *start = p;
        while (*p && islower((unsigned char)*p))
            p++;
        if (!*p || !isupper((unsigned char)*p)) {
            if (!*p)
                snprintf(msg, sizeof msg, "modifiers without an atom at \"%s\"", start);
            else
                snprintf(msg, sizeof msg, "unexpected '%c'", *p);
            goto fail;
        }
        size_t nmods = (size_t)(p - start);
        char letter = *p++;
        bool doubled = false;
        int range = -1;
        if (*p == letter) {
            doubled = true;
            p++;
        }
        if (isdigit((unsigned char)*p)) {
            const char *digits = p;
            range = 0;
            while (isdigit((unsigned char)*p) && range <= 99)
                range = range * 10 + (*p++ - '0');
            if (range > 99 || isdigit((unsigned char)*p)) {
                snprintf(msg, sizeof msg, "range %.*s too large (at most 99)",
                         (int)strspn(digits, "0123456789"), digits);
                goto fail;
            }
        }
        LegText lt;
        if (split_legs(start, nmods, &lt, msg, sizeof msg))
            goto fail;
        if (letter == 'O') { /* l or r alone picks one side; otherwise both */
            bool l = strchr(lt.mods[0], 'l') != NULL, r = strchr(lt.mods[0], 'r') != NULL;
            for (int side = 0; side < 2; side++)
                if (l == r || (side == 0 ? r : l))
                    out->castle_dist[side] = range > 0 ? range : 2;
            continue;
        }
        const char *parts;
        bool rider = doubled || range >= 0;
        int rng = range > 0 ? range : 0;
        switch (letter) {
        case 'K': parts = "WF"; break;
        case 'Q':
            parts = "WF";
            rider = true;
            break;
        case 'R':
            parts = "W";
            rider = true;
            break;
        case 'B':
            parts = "F";
            rider = true;
            break;
        default: parts = NULL;
        }
        if (letter == 'K' && range > 0)
            rider = true;
        if (!parts && !find_atom(letter)) {
            snprintf(msg, sizeof msg, "unknown atom '%c'", letter);
            goto fail;
        }
        char one[2] = {letter, 0};
        for (const char *q = parts ? parts : one; *q; q++)
            if (compile_atom(find_atom(*q), &lt, rider, rng, out, msg, sizeof msg))
                goto fail;
    }
    if (out->n == 0 && !out->castle_dist[0] && !out->castle_dist[1]) {
        snprintf(msg, sizeof msg, "no moves");
        goto fail;
    }
    return 0;
fail:
    snprintf(err, errlen, "XBetza \"%s\": %s", text, msg);
    return -1;
}
