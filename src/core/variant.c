/* variant.c - compiles a VariantSpec into move trees and attack tries.
 *
 * Step 1 checks the board and the pieces, step 2 reads the start position,
 * step 3 lays every XBetza path out on every square (forward trees, and the
 * reversed paths into per-target attack tries), step 4 derives promotion,
 * wins, castling and gating, step 5 weighs each piece type's moves (which
 * bounds the move list), step 6 draws the Zobrist keys. */
#include "core/variant.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xbetza.h"

/* ---- tries under construction ------------------------------------------ */

typedef struct {
    uint8_t sq, flags;
    uint32_t src;
    int first, next; /* first child, next sibling; -1 = none */
} TNode;

typedef struct {
    TNode *n;
    int cnt, cap;
} Trie;

static int trie_new_node(Trie *t, int parent, uint8_t sq, uint8_t flags) {
    if (t->cnt == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 16;
        t->n = realloc(t->n, (size_t)t->cap * sizeof *t->n);
        if (!t->n)
            abort();
    }
    int i = t->cnt++;
    t->n[i] = (TNode){sq, flags, 0, -1, -1};
    if (parent >= 0) {
        /* append as last child so generation order follows definition order */
        int *link = &t->n[parent].first;
        while (*link >= 0)
            link = &t->n[*link].next;
        *link = i;
    }
    return i;
}

static void trie_reset(Trie *t) {
    t->cnt = 0;
    trie_new_node(t, -1, 0, 0); /* root */
}

#define PASS_MASK (NF_PASS_EMPTY | NF_PASS_OCC)

/* Child of cur for a path element: a leaf merges into any node on its
 * square; a passing element into one that passes alike or is a bare leaf. */
static int trie_child(Trie *t, int cur, uint8_t sq, uint8_t pass, bool leaf) {
    for (int c = t->n[cur].first; c >= 0; c = t->n[c].next) {
        TNode *x = &t->n[c];
        if (x->sq != sq)
            continue;
        if (leaf || (x->flags & PASS_MASK) == pass) {
            return c;
        }
        if ((x->flags & PASS_MASK) == 0 && x->first < 0) {
            x->flags |= pass;
            return c;
        }
    }
    return trie_new_node(t, cur, sq, leaf ? 0 : pass);
}

typedef struct {
    uint8_t sq, flags;
} PEl;

/* Depth-first layout with skip indices. Returns the index past the last. */
static int trie_flatten_fwd(const Trie *t, int node, Node *out, int at) {
    for (int c = t->n[node].first; c >= 0; c = t->n[c].next) {
        int me = at++;
        out[me].sq = t->n[c].sq;
        out[me].flags = t->n[c].flags;
        at = trie_flatten_fwd(t, c, out, at);
        out[me].skip = (uint16_t)at;
    }
    return at;
}

static int trie_flatten_atk(const Trie *t, int node, AttackNode *out, int at) {
    for (int c = t->n[node].first; c >= 0; c = t->n[c].next) {
        int me = at++;
        out[me].sq = t->n[c].sq;
        out[me].flags = t->n[c].flags & PASS_MASK;
        out[me].srcmask = t->n[c].src;
        at = trie_flatten_atk(t, c, out, at);
        out[me].skip = (uint16_t)at;
    }
    return at;
}

/* ---- squares and symmetry ---------------------------------------------- */

int variant_parse_square(const Variant *v, const char *s, int *consumed) {
    if (s[0] < 'a' || s[0] >= 'a' + v->files || !isdigit((unsigned char)s[1]))
        return -1;
    int x = s[0] - 'a', i = 1, r = 0;
    while (isdigit((unsigned char)s[i]) && i < 3)
        r = r * 10 + (s[i++] - '0');
    if (r < 1 || r > v->ranks)
        return -1;
    if (consumed)
        *consumed = i;
    return (r - 1) * v->files + x;
}

void variant_square_name(const Variant *v, int sq, char *buf) {
    sprintf(buf, "%c%d", 'a' + sq % v->files, sq / v->files + 1);
}

int variant_view_square(const Variant *v, int color, int sq) {
    if (color == WHITE)
        return sq;
    int x = sq % v->files, y = sq / v->files;
    y = v->ranks - 1 - y;
    if (v->rotate_black)
        x = v->files - 1 - x;
    return y * v->files + x;
}

int variant_reflect_square(const Variant *v, int sq) {
    int x = sq % v->files, y = sq / v->files;
    switch (v->reflect) {
    case REFLECT_FILES: return y * v->files + v->files - 1 - x;
    case REFLECT_DIAGONAL: return x * v->files + y;
    case REFLECT_NONE: break;
    }
    return sq;
}

/* "a1-a8,b1,c3-d4": single squares and rectangles, White's view. */
static int parse_square_set(const Variant *v, const char *text, SquareSet *out, char *err,
                            size_t errlen) {
    memset(out, 0, sizeof *out);
    const char *p = text;
    while (*p) {
        int n1, n2 = 0;
        int a = variant_parse_square(v, p, &n1), b;
        if (a < 0)
            goto bad;
        p += n1;
        b = a;
        if (*p == '-') {
            b = variant_parse_square(v, p + 1, &n2);
            if (b < 0)
                goto bad;
            p += 1 + n2;
        }
        int x0 = a % v->files, y0 = a / v->files, x1 = b % v->files, y1 = b / v->files;
        if (x0 > x1) {
            int t = x0;
            x0 = x1;
            x1 = t;
        }
        if (y0 > y1) {
            int t = y0;
            y0 = y1;
            y1 = t;
        }
        for (int y = y0; y <= y1; y++)
            for (int x = x0; x <= x1; x++)
                sqset_add(out, y * v->files + x);
        if (*p == ',')
            p++;
        else if (*p)
            goto bad;
    }
    return 0;
bad:
    snprintf(err, errlen, "bad square list \"%s\" (at \"%s\")", text, p);
    return -1;
}

int variant_type_by_letter(const Variant *v, char letter) {
    letter = (char)toupper((unsigned char)letter);
    for (int t = 1; t <= v->ntypes; t++)
        if (v->type[t].letter == letter)
            return t;
    return 0;
}

int variant_parse_board(const Variant *v, const char *fen, Piece *board, int *consumed, char *err,
                        size_t errlen) {
    const char *p = fen;
    memset(board, 0, MAX_SQ);
    for (int y = v->ranks - 1; y >= 0; y--) {
        int x = 0;
        while (*p && *p != '/' && *p != ' ' && *p != '[') {
            if (isdigit((unsigned char)*p)) {
                int n = 0;
                while (isdigit((unsigned char)*p) && n <= v->files)
                    n = n * 10 + (*p++ - '0');
                if (n < 1 || x + n > v->files || isdigit((unsigned char)*p)) {
                    snprintf(err, errlen, "rank %d is too long", y + 1);
                    return -1;
                }
                x += n;
                continue;
            }
            if (x >= v->files) {
                snprintf(err, errlen, "rank %d is too long", y + 1);
                return -1;
            }
            int sq = y * v->files + x;
            if (*p == '*') {
                if (!v->is_hole[sq]) {
                    snprintf(err, errlen, "'*' on a square that is not a hole");
                    return -1;
                }
                board[sq] = HOLE;
            } else {
                int t = variant_type_by_letter(v, *p);
                if (!t || !isalpha((unsigned char)*p)) {
                    snprintf(err, errlen, "unknown piece '%c'", *p);
                    return -1;
                }
                if (v->is_hole[sq]) {
                    snprintf(err, errlen, "a piece on a hole");
                    return -1;
                }
                board[sq] = make_piece(islower((unsigned char)*p) ? BLACK : WHITE, t);
            }
            x++;
            p++;
        }
        if (x != v->files) {
            snprintf(err, errlen, "rank %d has %d squares, not %d", y + 1, x, v->files);
            return -1;
        }
        for (int i = 0; i < v->files; i++)
            if (v->is_hole[y * v->files + i] && board[y * v->files + i] != HOLE)
                board[y * v->files + i] = HOLE;
        if (y > 0) {
            if (*p != '/') {
                snprintf(err, errlen, "%d ranks, want %d", v->ranks - y, v->ranks);
                return -1;
            }
            p++;
        }
    }
    if (*p == '/') {
        snprintf(err, errlen, "more than %d ranks", v->ranks);
        return -1;
    }
    *consumed = (int)(p - fen);
    return 0;
}

/* ---- laying paths out on the board ------------------------------------- */

static const int dir8[8][2] = {{1, 0},  {1, 1},   {0, 1},  {-1, 1},
                               {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};

static int dir_index(int ux, int uy) {
    for (int i = 0; i < 8; i++)
        if (dir8[i][0] == ux && dir8[i][1] == uy)
            return i;
    return -1;
}

static int sgn(int a) {
    return (a > 0) - (a < 0);
}

typedef struct {
    Variant *v;
    int color, type, src;
    bool ep_capable;
    Trie fwd;
    Trie *rev; /* [nsq]: attack tries of this colour */
} Build;

static bool on_board(const Variant *v, int x, int y) {
    return x >= 0 && y >= 0 && x < v->files && y < v->ranks && !v->is_hole[y * v->files + x];
}

static void add_path(Build *b, const PEl *path, int n) {
    int cur = 0;
    for (int j = 0; j < n; j++) {
        bool leaf = j == n - 1;
        cur = trie_child(&b->fwd, cur, path[j].sq, (uint8_t)(path[j].flags & PASS_MASK), leaf);
        if (leaf)
            b->fwd.n[cur].flags |= path[j].flags;
    }
    if (!(path[n - 1].flags & NF_CAPT))
        return;
    Trie *r = &b->rev[path[n - 1].sq];
    cur = 0;
    for (int j = n - 2; j >= 0; j--)
        cur = trie_child(r, cur, path[j].sq, (uint8_t)(path[j].flags & PASS_MASK), false);
    cur = trie_child(r, cur, (uint8_t)b->src, 0, true);
    r->n[cur].src |= 1u << b->type;
}

#define MAX_PATH 64

static void expand(Build *b, const XbMove *m, int leg, int x, int y, int ux, int uy, PEl *path,
                   int n) {
    const Variant *v = b->v;
    if (leg >= XB_MAX_LEGS || leg >= m->nlegs)
        return;
    const XbLeg *lg = &m->leg[leg];
    bool last = leg == m->nlegs - 1;
    int vec[8][2], nv = 0;
    if (leg == 0) {
        vec[0][0] = b->color == BLACK && v->rotate_black ? -m->dx : m->dx;
        vec[0][1] = b->color == BLACK ? -m->dy : m->dy;
        nv = 1;
    } else {
        int d = dir_index(ux, uy);
        for (int r = 0; r < 8; r++) {
            if (!(lg->rot >> r & 1))
                continue;
            int rr = b->color == BLACK && !v->rotate_black ? (8 - r) & 7 : r;
            vec[nv][0] = dir8[(d + rr) & 7][0] * lg->len;
            vec[nv][1] = dir8[(d + rr) & 7][1] * lg->len;
            nv++;
        }
    }
    for (int i = 0; i < nv; i++) {
        int sx = vec[i][0], sy = vec[i][1];
        int len = n, cx = x, cy = y;
        int steps = lg->rider ? (lg->range ? lg->range : MAX_FILES + MAX_RANKS) : 1;
        for (int s = 1; s <= steps && len < MAX_PATH - 8; s++) {
            if (leg == 0 && (m->flags & XF_LAME)) {
                int L = abs(sx) > abs(sy) ? abs(sx) : abs(sy);
                bool ok = true;
                if (sx == 0 || sy == 0 || abs(sx) == abs(sy)) {
                    for (int k = 1; k < L && ok; k++) {
                        int ix = cx + sgn(sx) * k, iy = cy + sgn(sy) * k;
                        ok = on_board(v, ix, iy);
                        if (ok)
                            path[len++] = (PEl){(uint8_t)(iy * v->files + ix), NF_PASS_EMPTY};
                    }
                } else { /* oblique: first an orthogonal step along the longer axis */
                    int ix = cx + (abs(sx) > abs(sy) ? sgn(sx) : 0);
                    int iy = cy + (abs(sy) > abs(sx) ? sgn(sy) : 0);
                    ok = on_board(v, ix, iy);
                    if (ok)
                        path[len++] = (PEl){(uint8_t)(iy * v->files + ix), NF_PASS_EMPTY};
                }
                if (!ok)
                    break;
            }
            cx += sx;
            cy += sy;
            if (!on_board(v, cx, cy))
                break;
            uint8_t sq = (uint8_t)(cy * v->files + cx);
            if (last) {
                uint8_t f = 0;
                if (lg->mode & XM_MOVE)
                    f |= NF_MOVE;
                if (lg->mode & XM_CAPT)
                    f |= NF_CAPT;
                if (lg->mode & XM_EP)
                    f |= NF_EP;
                if ((m->flags & XF_LAME) && b->ep_capable && lg->mode == XM_MOVE && len > 0)
                    f |= NF_DOUBLE;
                path[len] = (PEl){sq, f};
                add_path(b, path, len + 1);
            } else {
                uint8_t pass = (uint8_t)((lg->mode & XM_MOVE ? NF_PASS_EMPTY : 0) |
                                         (lg->mode & XM_HOP ? NF_PASS_OCC : 0));
                path[len] = (PEl){sq, pass};
                expand(b, m, leg + 1, cx, cy, sgn(sx), sgn(sy), path, len + 1);
            }
            path[len++] = (PEl){sq, NF_PASS_EMPTY}; /* sliding on needs it empty */
        }
    }
}

static bool xb_has_ep(const XbPiece *xp) {
    for (int i = 0; i < xp->n; i++)
        if (xp->move[i].leg[xp->move[i].nlegs - 1].mode & XM_EP)
            return true;
    return false;
}

static void add_piece_moves(Build *b, const XbPiece *xp, bool initial_ok) {
    const Variant *v = b->v;
    PEl path[MAX_PATH];
    for (int i = 0; i < xp->n; i++) {
        const XbMove *m = &xp->move[i];
        if ((m->flags & XF_INITIAL) && !initial_ok)
            continue;
        if (m->nlegs > 1 && dir_index(sgn(m->dx), sgn(m->dy)) < 0)
            continue;
        expand(b, m, 0, b->src % v->files, b->src / v->files, 0, 0, path, 0);
    }
}

static uint64_t splitmix(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* ---- the compiler -------------------------------------------------------- */

static int find_royal_square(const Variant *v, const Piece *board, int color) {
    int found = -1;
    for (int s = 0; s < v->nsq; s++)
        if (v->royal && board[s] == make_piece(color, v->royal)) {
            if (found >= 0)
                return -2;
            found = s;
        }
    return found;
}

/* The squares strictly between a and b, which must share a rank, a file or
 * a diagonal; false when they do not. */
static bool castle_add_between(CastleRule *cr, const Variant *v, int a, int b) {
    int ax = a % v->files, ay = a / v->files, bx = b % v->files, by = b / v->files;
    if (ax != bx && ay != by && abs(bx - ax) != abs(by - ay))
        return false;
    int dx = sgn(bx - ax), dy = sgn(by - ay);
    for (int x = ax + dx, y = ay + dy; x != bx || y != by; x += dx, y += dy)
        cr->empty[cr->nempty++] = (uint8_t)(y * v->files + x);
    return true;
}

static void castle_add_empty(CastleRule *cr, int sq) {
    if (sq == cr->kfrom || sq == cr->rfrom)
        return;
    for (int i = 0; i < cr->nempty; i++)
        if (cr->empty[i] == sq)
            return;
    cr->empty[cr->nempty++] = (uint8_t)sq;
}

static int build_castling(Variant *v, const VariantSpec *sp, const XbPiece *xp, const Piece *start,
                          char *err, size_t errlen) {
    char name[8];
    if (sp->castling == CASTLE_FREE) {
        v->castling = CASTLE_FREE;
        int partner = variant_type_by_letter(v, sp->castle_partner);
        if (!partner) {
            snprintf(err, errlen, "castling partner '%c' is not a piece",
                     sp->castle_partner ? sp->castle_partner : '?');
            goto fail;
        }
        for (int c = 0; c < 2; c++) {
            const char *p = sp->castles;
            while (*p) {
                const char *entry = p;
                int sq[4], n;
                for (int k = 0; k < 4; k++) {
                    sq[k] = variant_parse_square(v, p, &n);
                    if (sq[k] < 0 || (k < 3 && p[n] != "-:-"[k])) {
                        snprintf(err, errlen,
                                 "bad castling entry at \"%.40s\" (want KFROM-KTO:RFROM-RTO)", p);
                        goto fail;
                    }
                    p += n + (k < 3);
                }
                if (*p == ',')
                    p++;
                if (v->ncastles == MAX_CASTLES) {
                    snprintf(err, errlen, "too many castling moves");
                    goto fail;
                }
                CastleRule *cr = &v->castle[v->ncastles++];
                memset(cr, 0, sizeof *cr);
                cr->color = (uint8_t)c;
                cr->kfrom = (uint8_t)variant_view_square(v, c, sq[0]);
                cr->kto = (uint8_t)variant_view_square(v, c, sq[1]);
                cr->rfrom = (uint8_t)variant_view_square(v, c, sq[2]);
                cr->rto = (uint8_t)variant_view_square(v, c, sq[3]);
                cr->partner = (uint8_t)partner;
                cr->in_check = (uint8_t)sp->castle_in_check;
                if (!castle_add_between(cr, v, cr->kfrom, cr->rfrom)) {
                    snprintf(err, errlen,
                             "castling entry \"%.*s\": king and rook are not on one line",
                             (int)strcspn(entry, ","), entry);
                    goto fail;
                }
                castle_add_empty(cr, cr->kto);
                castle_add_empty(cr, cr->rto);
                variant_square_name(v, cr->kto, name);
                snprintf(cr->san, sizeof cr->san, "O-%s", name);
            }
        }
        return 0;
    }
    if (!v->royal)
        return 0;
    CastleStyle style = sp->castling;
    if (style == CASTLE_NONE && (xp[v->royal].castle_dist[0] || xp[v->royal].castle_dist[1]))
        style = CASTLE_ORTHODOX;
    if (style == CASTLE_NONE)
        return 0;
    v->castling = style;
    for (int c = 0; c < 2; c++) {
        int k = find_royal_square(v, start, c);
        if (k < 0)
            continue;
        int ky = k / v->files, kx = k % v->files;
        for (int side = 0; side < 2; side++) { /* 0: toward the h side (K), 1: a side (Q) */
            int rx = side == 0 ? v->files - 1 : 0;
            int r = ky * v->files + rx;
            if (start[r] == EMPTY || piece_color(start[r]) != c || r == k)
                continue;
            int dir = side == 0 ? 1 : -1;
            uint8_t right = (uint8_t)(1u << (c * 2 + side));
            if (style == CASTLE_ORTHODOX && !xp[v->royal].castle_dist[side])
                continue;
            int first = style == CASTLE_FAST ? 1 : xp[v->royal].castle_dist[side];
            int last = style == CASTLE_FAST ? abs(rx - kx) - 1 : first;
            for (int d = first; d <= last; d++) {
                int tx = kx + dir * d;
                if (tx < 0 || tx >= v->files || (style == CASTLE_ORTHODOX && abs(rx - kx) <= d))
                    continue;
                if (v->ncastles == MAX_CASTLES) {
                    snprintf(err, errlen, "too many castling moves");
                    goto fail;
                }
                CastleRule *cr = &v->castle[v->ncastles++];
                memset(cr, 0, sizeof *cr);
                cr->color = (uint8_t)c;
                cr->kfrom = (uint8_t)k;
                cr->kto = (uint8_t)(ky * v->files + tx);
                cr->rfrom = (uint8_t)r;
                cr->rto = (uint8_t)(style == CASTLE_FAST ? k : cr->kto - dir);
                cr->right = right;
                cr->partner = (uint8_t)piece_type(start[r]);
                cr->one_step = d == 1;
                cr->safe[cr->nsafe++] = (uint8_t)k;
                if (style == CASTLE_FAST) {
                    castle_add_empty(cr, cr->kto);
                    cr->safe[cr->nsafe++] = cr->kto;
                    variant_square_name(v, cr->kto, name);
                    snprintf(cr->san, sizeof cr->san, "O-%s", name);
                } else {
                    castle_add_between(cr, v, k, r);
                    castle_add_empty(cr, cr->kto);
                    castle_add_empty(cr, cr->rto);
                    for (int s = 1; s <= d; s++)
                        cr->safe[cr->nsafe++] = (uint8_t)(k + dir * s);
                    snprintf(cr->san, sizeof cr->san, "%s", side == 0 ? "O-O" : "O-O-O");
                }
            }
            v->castle_mask[k] &= (uint8_t) ~(3u << (c * 2));
            v->castle_mask[r] &= (uint8_t)~right;
        }
    }
    return 0;
fail:
    return -1;
}

/* What the steps of variant_compile share; each step writes a reason into
 * err and returns -1 when the definition is wrong. */
typedef struct {
    const VariantSpec *sp;
    Variant *v;
    XbPiece *xp, *zxp;  /* compiled XBetza of each piece, each zone line */
    SquareSet zset[16]; /* the squares of each zone line */
    Trie *rev, fwd;
    Piece start[MAX_SQ];
    char msg[200];
    char *err;
    size_t errlen;
} Compile;

__attribute__((format(printf, 2, 3))) static int compile_fail(Compile *cc, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cc->err, cc->errlen, fmt, ap);
    va_end(ap);
    return -1;
}

/* "line N: " for a definition file's line N, "" for 0 (no file line known). */
static const char *at_line(int line, char *buf, size_t len) {
    if (line > 0)
        snprintf(buf, len, "line %d: ", line);
    else
        buf[0] = 0;
    return buf;
}

/* A KEY's squares as White sees them, and the same squares seen from Black's
 * side (mirrored, or turned for symmetry=rotate), added to out[WHITE] and
 * out[BLACK]. */
static int both_sides(Compile *cc, const char *key, const char *text, SquareSet out[2]) {
    Variant *v = cc->v;
    SquareSet set;
    if (parse_square_set(v, text, &set, cc->msg, sizeof cc->msg))
        return compile_fail(cc, "%s: %s", key, cc->msg);
    for (int s = 0; s < v->nsq; s++)
        if (sqset_has(&set, s)) {
            sqset_add(&out[WHITE], s);
            sqset_add(&out[BLACK], variant_view_square(v, BLACK, s));
        }
    return 0;
}

/* Step 1: the board and the pieces (their XBetza and zone moves compiled). */
static int compile_pieces(Compile *cc) {
    Variant *v = cc->v;
    const VariantSpec *sp = cc->sp;
    XbPiece *xp = cc->xp;
    XbPiece *zxp = cc->zxp;
    SquareSet *zset = cc->zset;
    snprintf(v->name, sizeof v->name, "%s", sp->name);
    snprintf(v->title, sizeof v->title, "%s", sp->title[0] ? sp->title : sp->name);
    if (sp->files < 2 || sp->files > MAX_FILES || sp->ranks < 2 || sp->ranks > MAX_RANKS)
        return compile_fail(cc, "board %dx%d: files and ranks must be 2 to 16", sp->files,
                            sp->ranks);
    v->files = sp->files;
    v->ranks = sp->ranks;
    v->nsq = v->files * v->ranks;
    v->rotate_black = sp->rotate;
    v->reflect = sp->reflect;
    if (v->reflect == REFLECT_DIAGONAL && (v->files != v->ranks || sp->gating))
        return compile_fail(cc, "reflect=diagonal: wants a square board without gates");
    if (sp->holes[0]) {
        SquareSet hs;
        if (parse_square_set(v, sp->holes, &hs, cc->msg, sizeof cc->msg))
            return compile_fail(cc, "holes: %s", cc->msg);
        for (int s = 0; s < v->nsq; s++)
            v->is_hole[s] = sqset_has(&hs, s);
    }
    for (int s = 0; s < v->nsq; s++)
        if (v->is_hole[s] != v->is_hole[variant_reflect_square(v, s)])
            return compile_fail(cc, "reflect=: the holes are not the same reflected");
    if (sp->ntypes < 1 || sp->ntypes >= MAX_TYPES)
        return compile_fail(cc, "a variant needs 1 to %d piece types", MAX_TYPES - 1);
    v->ntypes = sp->ntypes;
    for (int t = 1; t <= v->ntypes; t++) {
        v->type[t] = sp->type[t];
        char L = v->type[t].letter;
        char at[24];
        at_line(v->type[t].line, at, sizeof at);
        if (!isupper((unsigned char)L))
            return compile_fail(cc, "%spiece %s: letter must be A-Z", at, v->type[t].name);
        for (int u = 1; u < t; u++)
            if (v->type[u].letter == L)
                return compile_fail(cc, "%spieces %s and %s share the letter %c", at,
                                    v->type[u].name, v->type[t].name, L);
        if (xbetza_compile(v->type[t].betza, &xp[t], cc->msg, sizeof cc->msg))
            return compile_fail(cc, "%spiece %s: %s", at, v->type[t].name, cc->msg);
        v->type[t].ep_capable = xb_has_ep(&xp[t]);
        if (v->type[t].ep_capable)
            v->ep_capable |= 1u << t;
    }
    if (sp->royal && sp->royal != '-') {
        v->royal = variant_type_by_letter(v, sp->royal);
        if (!v->royal)
            return compile_fail(cc, "royal piece '%c' is not defined", sp->royal);
    } else if (!sp->royal) {
        v->royal = variant_type_by_letter(v, 'K');
    }
    if (v->royal)
        v->type[v->royal].royal = 1;
    if (sp->nzones > 16)
        return compile_fail(cc, "too many zone moves");
    for (int z = 0; z < sp->nzones; z++) {
        const ZoneMoves *zm = &sp->zone[z];
        if (!variant_type_by_letter(v, zm->letter))
            return compile_fail(cc, "line %d: zone moves for unknown piece '%c'", zm->line,
                                zm->letter);
        if (parse_square_set(v, zm->squares, &zset[z], cc->msg, sizeof cc->msg))
            return compile_fail(cc, "line %d: %s", zm->line, cc->msg);
        if (xbetza_compile(zm->betza, &zxp[z], cc->msg, sizeof cc->msg))
            return compile_fail(cc, "line %d: %s", zm->line, cc->msg);
    }
    return 0;
}

/* Step 2: the start position (initial moves start from it). */
static int compile_start(Compile *cc) {
    Variant *v = cc->v;
    const VariantSpec *sp = cc->sp;
    Piece *start = cc->start;
    int used;
    memcpy(v->eval, sp->eval, sizeof v->eval);
    v->nsetups = sp->nsetups;
    for (int i = 0; i < sp->nsetups; i++) {
        strcpy(v->setup_name[i], sp->setup_name[i]);
        strcpy(v->setup_fen[i], sp->setup_fen[i]);
        v->setup_names[i] = v->setup_name[i];
    }
    const char *start_fen = sp->start_fen[0] ? sp->start_fen : sp->nsetups ? sp->setup_fen[0] : "";
    if (!start_fen[0])
        return compile_fail(cc, "no start position (startFen)");
    char at[24];
    if (variant_parse_board(v, start_fen, start, &used, cc->msg, sizeof cc->msg))
        return compile_fail(cc, "%sstartFen: %s", at_line(sp->start_fen_line, at, sizeof at),
                            cc->msg);
    snprintf(v->start_fen, sizeof v->start_fen, "%s", start_fen);
    return 0;
}

/* Step 3: move trees and attack tries; colour-bound pieces. */
static int compile_trees(Compile *cc) {
    Variant *v = cc->v;
    const VariantSpec *sp = cc->sp;
    const XbPiece *xp = cc->xp;
    const XbPiece *zxp = cc->zxp;
    SquareSet *zset = cc->zset;
    Trie *rev = cc->rev;
    Piece *start = cc->start;
    size_t cap = 1 << 14, nused = 0, acap = 1 << 14, aused = 0;
    v->nodes = malloc(cap * sizeof *v->nodes);
    v->anodes = malloc(acap * sizeof *v->anodes);
    v->tree = calloc((size_t)2 * MAX_TYPES * v->nsq, sizeof *v->tree);
    uint16_t stamp[MAX_SQ];
    for (int c = 0; c < 2; c++) {
        for (int s = 0; s < v->nsq; s++)
            trie_reset(&rev[s]);
        for (int t = 1; t <= v->ntypes; t++) {
            Build b = {v, c, t, 0, v->type[t].ep_capable, cc->fwd, rev};
            for (int s = 0; s < v->nsq; s++) {
                if (v->is_hole[s])
                    continue;
                trie_reset(&b.fwd);
                b.src = s;
                bool init = start[s] == make_piece(c, t);
                add_piece_moves(&b, &xp[t], init);
                for (int z = 0; z < sp->nzones; z++)
                    if (variant_type_by_letter(v, sp->zone[z].letter) == t &&
                        sqset_has(&zset[z], variant_view_square(v, c, s)))
                        add_piece_moves(&b, &zxp[z], init);
                size_t cnt = (size_t)b.fwd.cnt - 1;
                if (cnt > 65000)
                    return compile_fail(cc, "piece %s has too many paths", v->type[t].name);
                while (nused + cnt > cap)
                    v->nodes = realloc(v->nodes, (cap *= 2) * sizeof *v->nodes);
                trie_flatten_fwd(&b.fwd, 0, v->nodes + nused, 0);
                v->tree[(c * MAX_TYPES + t) * v->nsq + s] = (Span){(uint32_t)nused, (uint32_t)cnt};
                memset(stamp, 0, sizeof stamp);
                for (size_t i = 0; i < cnt; i++) {
                    const Node *nd = &v->nodes[nused + i];
                    if (nd->flags & (NF_MOVE | NF_CAPT | NF_EP)) {
                        if (stamp[nd->sq]++)
                            v->multipath[c] |= 1u << t;
                    }
                    if ((nd->flags & PASS_MASK) == NF_PASS_OCC)
                        v->has_hoppers = 1;
                }
                nused += cnt;
            }
            cc->fwd = b.fwd;
        }
        for (int s = 0; s < v->nsq; s++) {
            size_t cnt = (size_t)rev[s].cnt - 1;
            while (aused + cnt > acap)
                v->anodes = realloc(v->anodes, (acap *= 2) * sizeof *v->anodes);
            trie_flatten_atk(&rev[s], 0, v->anodes + aused, 0);
            v->atk[c][s] = (Span){(uint32_t)aused, (uint32_t)cnt};
            aused += cnt;
        }
    }
    for (int t = 1; t <= v->ntypes; t++) { /* colour-bound: never changes square colour */
        bool bound = true, any = false;
        for (int s = 0; s < v->nsq; s++) {
            Span sp2 = v->tree[(WHITE * MAX_TYPES + t) * v->nsq + s];
            for (uint32_t i = 0; i < sp2.len; i++) {
                const Node *nd = &v->nodes[sp2.start + i];
                if (!(nd->flags & (NF_MOVE | NF_CAPT)))
                    continue;
                any = true;
                int a = s % v->files + s / v->files, b2 = nd->sq % v->files + nd->sq / v->files;
                bound &= (a - b2) % 2 == 0;
            }
        }
        v->type[t].colorbound = any && bound;
    }
    return 0;
}

/* Step 4a: promotion and win squares. */
static int compile_goals(Compile *cc) {
    Variant *v = cc->v;
    const VariantSpec *sp = cc->sp;
    v->forward[WHITE] = v->files;
    v->forward[BLACK] = -v->files;
    v->back_rank[WHITE] = 0;
    v->back_rank[BLACK] = v->ranks - 1;
    const char *promoting = sp->promoting[0] ? sp->promoting : "P";
    for (const char *p = promoting; *p; p++) {
        int t = variant_type_by_letter(v, *p);
        if (t)
            v->promoting |= 1u << t;
        else if (sp->promoting[0])
            return compile_fail(cc, "promoting piece '%c' is not defined", *p);
    }
    for (const char *p = sp->promo_choice; *p; p++) {
        int t = variant_type_by_letter(v, *p);
        if (!t)
            return compile_fail(cc, "promotion choice '%c' is not a piece", *p);
        v->promo_types[v->npromo++] = (uint8_t)t;
    }
    if (v->promoting && !v->npromo)
        return compile_fail(cc, "pieces promote but promoChoice is empty");
    for (int t = 1; t <= v->ntypes; t++)
        v->type[t].promotes = (v->promoting >> t) & 1;
    if (sp->promo_squares[0]) {
        if (both_sides(cc, "promoSquares", sp->promo_squares, v->promo_zone))
            return -1;
    } else {
        int zone = sp->promo_zone > 0 ? sp->promo_zone : 1;
        for (int s = 0; s < v->nsq; s++) {
            if (s / v->files >= v->ranks - zone)
                sqset_add(&v->promo_zone[WHITE], s);
            if (s / v->files < zone)
                sqset_add(&v->promo_zone[BLACK], s);
        }
    }
    if (sp->win_squares[0]) {
        if (both_sides(cc, "winSquares", sp->win_squares, v->win_sq))
            return -1;
        for (int c = WHITE; c <= BLACK; c++)
            for (int s = 0; s < v->nsq; s++)
                if (sqset_has(&v->win_sq[c], s))
                    v->win_list[c][v->nwin[c]++] = (uint8_t)s;
        for (const char *p = sp->win_types; *p; p++) {
            int t = variant_type_by_letter(v, *p);
            if (!t)
                return compile_fail(cc, "winning piece '%c' is not defined", *p);
            v->win_types |= 1u << t;
        }
    }
    return 0;
}

/* Step 4b: the N-move rule, castling, gating, material draws. */
static int compile_draw_rules(Compile *cc) {
    Variant *v = cc->v;
    const VariantSpec *sp = cc->sp;
    const XbPiece *xp = cc->xp;
    Piece *start = cc->start;
    v->move_rule = sp->move_rule;
    v->stalemate_loss = sp->stalemate_loss;
    v->bare_king_loss = sp->bare_king_loss;
    v->sudden_end = v->nwin[WHITE] || v->bare_king_loss;
    memset(v->castle_mask, 0xFF, sizeof v->castle_mask);
    if (build_castling(v, sp, xp, start, cc->msg, sizeof cc->msg))
        return compile_fail(cc, "castling: %s", cc->msg);
    v->gating = sp->gating;
    v->material_dead = sp->material_dead;
    for (int f = 0; f < v->files; f++)
        if (!strchr(sp->gate_exclude, 'a' + f))
            v->gate_files |= (uint16_t)(1u << f);
    /* Pieces in hand or at gates are those of the start positions' brackets;
     * a Black one must not share its letter with a gate file ("[Mb]" reads
     * as a Manticore behind b). */
    for (int i = -1; i < sp->nsetups; i++) {
        const char *b = strchr(i < 0 ? v->start_fen : sp->setup_fen[i], '[');
        for (const char *q = b ? b + 1 : ""; *q && *q != ']' && *q != ' '; q++) {
            int t = variant_type_by_letter(v, *q);
            if (!t || !isalpha((unsigned char)*q))
                continue; /* the FEN check names it */
            int c = islower((unsigned char)*q) ? BLACK : WHITE;
            v->hand_types[c] |= 1u << t;
            if (c == BLACK && *q < 'a' + v->files && (v->gate_files >> (*q - 'a') & 1))
                return compile_fail(cc, "piece in hand '%c' has the letter of a gate file", *q);
            if (q[1] >= 'a' && q[1] < 'a' + v->files && (v->gate_files >> (q[1] - 'a') & 1))
                q++; /* its gate file */
        }
    }
    for (const char *p = sp->insufficient; *p;) {
        size_t len = strcspn(p, ",");
        if (v->ninsuf == 16)
            return compile_fail(cc, "insufficient: more than 16 entries");
        MaterialRule *in = &v->insuf[v->ninsuf];
        if (len == 1 && *p == '-')
            in->kind = INSUF_NONE;
        else if (len == 1 && *p == '*')
            in->kind = INSUF_ANY_ONE;
        else if (len == 5 && !strncmp(p, "bound", 5))
            in->kind = INSUF_BOUND;
        else {
            in->kind = INSUF_SET;
            for (size_t i = 0; i < len; i++) {
                int t = variant_type_by_letter(v, p[i]);
                if (!t)
                    return compile_fail(cc, "insufficient: '%c' is not a piece", p[i]);
                in->count[t]++;
                in->n++;
            }
        }
        v->ninsuf += len > 0;
        p += len + (p[len] == ',');
    }
    return 0;
}

/* Step 4c: for each promoting type, the squares its non-capturing moves
 * can leave and come back to, numbered by the group of squares they can go
 * between (see Variant.loop). */
static void compile_loops(Variant *v) {
    SquareSet reach[MAX_SQ]; /* squares reachable from a square */
    for (int c = 0; c < 2; c++)
        for (int t = 1; t <= v->ntypes; t++) {
            if (!v->type[t].promotes)
                continue;
            for (int s = 0; s < v->nsq; s++) {
                memset(&reach[s], 0, sizeof reach[s]);
                Span sp = v->tree[(c * MAX_TYPES + t) * v->nsq + s];
                for (uint32_t i = 0; i < sp.len; i++)
                    if (v->nodes[sp.start + i].flags & NF_MOVE)
                        sqset_add(&reach[s], v->nodes[sp.start + i].sq);
            }
            /* the transitive closure: s reaches all that its targets reach */
            for (int k = 0; k < v->nsq; k++)
                for (int s = 0; s < v->nsq; s++)
                    if (sqset_has(&reach[s], k))
                        for (int w = 0; w < (int)(sizeof reach[s].w / sizeof reach[s].w[0]); w++)
                            reach[s].w[w] |= reach[k].w[w];
            int groups = 0;
            for (int s = 0; s < v->nsq; s++) {
                if (!sqset_has(&reach[s], s) || v->loop[c][t][s])
                    continue;
                groups++;
                for (int o = s; o < v->nsq; o++)
                    if (sqset_has(&reach[s], o) && sqset_has(&reach[o], s))
                        v->loop[c][t][o] = (uint8_t)groups;
                v->looping[c] |= 1u << t;
            }
        }
}

/* Step 5: what bounds a position's move count (pos_move_bound). */
static void compile_weights(Variant *v) {
    for (int t = 1; t <= v->ntypes; t++)
        for (int c = 0; c < 2; c++)
            for (int s = 0; s < v->nsq; s++) {
                Span span = v->tree[(c * MAX_TYPES + t) * v->nsq + s];
                int n = 0;
                for (uint32_t i = 0; i < span.len; i++)
                    n += (v->nodes[span.start + i].flags & (NF_MOVE | NF_CAPT | NF_EP)) != 0;
                if (v->type[t].promotes)
                    n *= v->npromo;
                if (n > v->move_weight[t])
                    v->move_weight[t] = n;
            }
    for (int t = 1; t <= v->ntypes; t++)
        for (int i = 0; v->type[t].promotes && i < v->npromo; i++)
            if (v->move_weight[v->promo_types[i]] > v->move_weight[t])
                v->move_weight[t] = v->move_weight[v->promo_types[i]];
}

/* Step 6: Zobrist keys (fixed seed: keys are the same in every run). */
static void compile_keys(Variant *v) {
    uint64_t seed = 0x4D656E6167657269ull;
    for (int p = 0; p < 64; p++) {
        for (int s = 0; s < MAX_SQ; s++)
            v->z_piece[p][s] = splitmix(&seed);
        for (int f = 0; f < MAX_FILES; f++)
            v->z_gate[p][f] = splitmix(&seed);
        for (int n = 0; n < 8; n++)
            v->z_hand[p][n] = splitmix(&seed);
    }
    for (int i = 0; i < 16; i++)
        v->z_castle[i] = splitmix(&seed);
    for (int s = 0; s < MAX_SQ; s++)
        v->z_ep[s] = splitmix(&seed);
    v->z_side = splitmix(&seed);
}

Variant *variant_compile(const VariantSpec *sp, char *err, size_t errlen) {
    Compile *cc = calloc(1, sizeof *cc);
    if (!cc)
        abort();
    cc->sp = sp;
    cc->err = err;
    cc->errlen = errlen;
    cc->v = calloc(1, sizeof *cc->v);
    cc->xp = calloc(MAX_TYPES, sizeof *cc->xp);
    cc->zxp = calloc(16, sizeof *cc->zxp);
    cc->rev = calloc(MAX_SQ, sizeof *cc->rev);
    if (!cc->v || !cc->xp || !cc->zxp || !cc->rev)
        abort();
    Variant *v = cc->v;
    if (compile_pieces(cc) || compile_start(cc) || compile_trees(cc) || compile_goals(cc) ||
        compile_draw_rules(cc)) {
        variant_free(v);
        v = NULL;
    } else {
        compile_loops(v);
        compile_weights(v);
        compile_keys(v);
    }
    for (int s = 0; s < MAX_SQ; s++)
        free(cc->rev[s].n);
    free(cc->rev);
    free(cc->fwd.n);
    free(cc->xp);
    free(cc->zxp);
    free(cc);
    return v;
}

void variant_free(Variant *v) {
    if (!v)
        return;
    free(v->tree);
    free(v->nodes);
    free(v->anodes);
    free(v);
}
