/* play_draw.c - boards for `menagerie play` (see play_draw.h).
 *
 * Chess-like boards come from engine_board (any size up to 16x16, holes,
 * gates, hands); the mancala from its position text. Plain mode marks the
 * last move with (from) and [to]; colour mode with a background. */
#include "app/tty/play_draw.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define RESET "\033[0m"
#define BG_LIGHT "\033[48;5;180m"
#define BG_DARK "\033[48;5;137m"
#define BG_LIGHT_MARK "\033[48;5;186m"
#define BG_DARK_MARK "\033[48;5;143m"
#define FG_WHITE "\033[1;38;5;231m"
#define FG_BLACK "\033[38;5;16m"
#define FG_A "\033[1;32m"
#define FG_B "\033[1;34m"
#define BG_HOLE_MARK "\033[43;30m"

enum { MARK_NONE, MARK_FROM, MARK_TO };

const char *play_draw_side_name(const Game *g, Side side) {
    GameInfo info;
    engine_info(g, &info);
    if (info.kind == KIND_MANCALA)
        return side == SIDE_FIRST ? "A" : "B";
    return side == SIDE_FIRST ? "White" : "Black";
}

void play_draw_ply_label(const Game *g, int ply, char *buf, size_t len) {
    char initial[512];
    engine_initial_text(g, initial, sizeof initial);
    GameInfo info;
    engine_info(g, &info);
    int number = 1, second = 0;
    const char *sp = strchr(initial, ' ');
    char side = 0;
    if (info.kind == KIND_CHESS) {
        int full = 1;
        if (sp)
            sscanf(sp, " %c %*s %*s %*d %d", &side, &full);
        number = full > 0 ? full : 1;
        second = side == 'b';
    } else {
        if (sp)
            sscanf(sp, " %*d %*d %c", &side);
        second = side == 'b';
    }
    int p = ply + second;
    snprintf(buf, len, "%d%s", number + p / 2, p % 2 ? "..." : ".");
}

void play_draw_legend(const Game *g, char *buf, size_t len) {
    GameInfo info;
    engine_info(g, &info);
    size_t n = 0;
    buf[0] = 0;
    for (int i = 0; i < info.npieces && n < len; i++) {
        int k = snprintf(buf + n, len - n, "%s%c %s", i ? ", " : "", info.piece[i].letter,
                         info.piece[i].name);
        if (k < 0)
            break;
        n += (size_t)k;
    }
}

/* ---- pieces ---------------------------------------------------------- */

/* Index of the orthodox piece a letter stands for (by its name), -1 if none. */
static int glyph_index(const GameInfo *info, char letter) {
    static const char *const names[] = {"king", "queen", "rook", "bishop", "knight", "pawn"};
    char up = (char)toupper((unsigned char)letter);
    for (int i = 0; i < info->npieces; i++)
        if (info->piece[i].letter == up)
            for (int k = 0; k < 6; k++)
                if (!strcasecmp(info->piece[i].name, names[k]))
                    return k;
    return -1;
}

/* One character's worth of piece: a glyph or the letter. On a coloured
 * square the colour tells the sides apart, so both get the solid glyph. */
static void put_piece(FILE *out, const GameInfo *info, const PlayStyle *st, char c, bool coloured) {
    int k = st->unicode ? glyph_index(info, c) : -1;
    if (k < 0) {
        fputc(c, out);
        return;
    }
    /* U+2654.. hollow (White), U+265A.. solid; with colours both solid. */
    bool white = isupper((unsigned char)c);
    int code = 0x94 + k + (white && !coloured ? 0 : 6);
    fputc(0xE2, out);
    fputc(0x99, out);
    fputc(code, out);
}

static void put_cell(FILE *out, const GameInfo *info, const PlayStyle *st, char c, bool light,
                     int mark) {
    if (c == '*') { /* a hole: not part of the board */
        fputs("   ", out);
        return;
    }
    if (st->colour) {
        const char *bg =
            mark ? (light ? BG_LIGHT_MARK : BG_DARK_MARK) : (light ? BG_LIGHT : BG_DARK);
        fputs(bg, out);
        fputs(isupper((unsigned char)c) ? FG_WHITE : FG_BLACK, out);
        fputc(' ', out);
        if (c == '.')
            fputc(' ', out);
        else
            put_piece(out, info, st, c, true);
        fputc(' ', out);
        fputs(RESET, out);
        return;
    }
    fputc(mark == MARK_FROM ? '(' : mark == MARK_TO ? '[' : ' ', out);
    if (c == '.')
        fputs(st->unicode ? "\xC2\xB7" : ".", out);
    else
        put_piece(out, info, st, c, false);
    fputc(mark == MARK_FROM ? ')' : mark == MARK_TO ? ']' : ' ', out);
}

static void square_name(int files, int sq, char *buf, size_t len) {
    snprintf(buf, len, "%c%d", 'a' + sq % files, sq / files + 1);
}

static int mark_of(const MoveDesc *last, int sq) {
    if (!last)
        return MARK_NONE;
    if (sq == last->to)
        return MARK_TO;
    return sq == last->from ? MARK_FROM : MARK_NONE;
}

/* ---- chess-like boards ----------------------------------------------- */

static void gate_row(FILE *out, const GameInfo *info, const BoardView *bv, const PlayStyle *st,
                     int side, int lw) {
    fprintf(out, " %*s ", lw, "");
    for (int i = 0; i < bv->files; i++) {
        int f = st->flip ? bv->files - 1 - i : i;
        char c = bv->gate[side][f];
        fputc(' ', out);
        if (c)
            put_piece(out, info, st, c, false);
        else
            fputc(' ', out);
        fputc(' ', out);
    }
    fprintf(out, "   %s's gates\n", side ? "Black" : "White");
}

static void file_row(FILE *out, const BoardView *bv, const PlayStyle *st, int lw) {
    fprintf(out, " %*s ", lw, "");
    for (int i = 0; i < bv->files; i++)
        fprintf(out, " %c%s", 'a' + (st->flip ? bv->files - 1 - i : i),
                i + 1 < bv->files ? " " : "");
    fputc('\n', out);
}

static void draw_grid(FILE *out, const GameInfo *info, const BoardView *bv, const MoveDesc *last,
                      const PlayStyle *st) {
    int lw = bv->ranks >= 10 ? 2 : 1;
    file_row(out, bv, st, lw);
    if (info->gating)
        gate_row(out, info, bv, st, st->flip ? 0 : 1, lw);
    for (int j = 0; j < bv->ranks; j++) {
        int r = st->flip ? j : bv->ranks - 1 - j;
        fprintf(out, " %*d ", lw, r + 1);
        for (int i = 0; i < bv->files; i++) {
            int f = st->flip ? bv->files - 1 - i : i;
            int sq = r * bv->files + f;
            put_cell(out, info, st, bv->sq[sq], (f + r) % 2 == 1, mark_of(last, sq));
        }
        fprintf(out, " %d\n", r + 1);
    }
    if (info->gating)
        gate_row(out, info, bv, st, st->flip ? 1 : 0, lw);
    file_row(out, bv, st, lw);
}

/* The square at (vf, vr) as the viewer sees it: the board turned half
 * round when flipped. */
static int view_square(int n, const PlayStyle *st, int vf, int vr) {
    return st->flip ? (n - 1 - vr) * n + (n - 1 - vf) : vr * n + vf;
}

/* A square board turned 45 degrees: a1 at the bottom (the top when flipped),
 * each row one anti-diagonal (f + r constant) with its two end squares named.
 * Cells are three columns wide, four apart, rows shifted by two. */
static void draw_diamond(FILE *out, const GameInfo *info, const BoardView *bv, const MoveDesc *last,
                         const PlayStyle *st) {
    int n = bv->files;
    char name[16];
    for (int k = 2 * n - 2; k >= 0; k--) {
        int lo = k > n - 1 ? k - (n - 1) : 0, hi = k < n - 1 ? k : n - 1;
        square_name(n, view_square(n, st, lo, k - lo), name, sizeof name);
        fprintf(out, " %*s%3s", 2 * abs(k - (n - 1)), "", name);
        for (int vf = lo; vf <= hi; vf++) { /* left to right: vf - vr grows */
            int sq = view_square(n, st, vf, k - vf);
            fputc(' ', out);
            put_cell(out, info, st, bv->sq[sq], (sq % n + sq / n) % 2 == 1, mark_of(last, sq));
        }
        if (hi > lo) {
            square_name(n, view_square(n, st, hi, k - hi), name, sizeof name);
            fprintf(out, " %s", name);
        }
        fputc('\n', out);
    }
}

static void orientation_note(FILE *out, const BoardView *bv, const PlayStyle *st) {
    char far[16];
    square_name(bv->files, bv->files * bv->ranks - 1, far, sizeof far);
    const char *near_pos, *far_pos;
    if (st->diamond) {
        near_pos = st->flip ? "top" : "bottom";
        far_pos = st->flip ? "bottom" : "top";
    } else {
        near_pos = st->flip ? "top right" : "bottom left";
        far_pos = st->flip ? "bottom left" : "top right";
    }
    fprintf(out,
            "Played diagonally: White's King corner is a1 (%s), Black's is %s (%s);\n"
            "forward is toward the enemy corner.%s\n",
            near_pos, far, far_pos,
            st->diamond ? "" : " (`diamond` shows the board turned 45 degrees.)");
}

static void draw_chess(FILE *out, Game *g, const GameInfo *info, const PlayStyle *st) {
    BoardView bv;
    if (!engine_board(g, &bv)) {
        fprintf(out, "(no board to show)\n");
        return;
    }
    MoveDesc last;
    bool has_last = engine_last_move(g, &last);
    bool diamond = st->diamond && info->rotated && bv.files == bv.ranks;
    PlayStyle s = *st;
    s.diamond = diamond;
    if (diamond)
        draw_diamond(out, info, &bv, has_last ? &last : NULL, &s);
    else
        draw_grid(out, info, &bv, has_last ? &last : NULL, &s);
    if (info->rotated)
        orientation_note(out, &bv, &s);
    if (bv.hand[0][0] || bv.hand[1][0]) {
        fprintf(out, "In hand:");
        for (int c = 0; c < 2; c++) {
            if (!bv.hand[c][0])
                continue;
            fprintf(out, "%s %s", c && bv.hand[0][0] ? ";" : "", c ? "Black" : "White");
            for (const char *h = bv.hand[c]; *h; h++) {
                fputc(' ', out);
                put_piece(out, info, &s, *h, false);
            }
        }
        fputc('\n', out);
    }
}

/* ---- the mancala ------------------------------------------------------ */

typedef struct {
    int hole[16], store[2], used[2];
    int side; /* 0 = A */
    bool var_a;
} Ring;

static bool parse_ring(const char *text, Ring *r) {
    memset(r, 0, sizeof *r);
    const char *p = text;
    char *end;
    for (int i = 0; i < 16; i++) {
        long v = strtol(p, &end, 10);
        if (end == p || v < 0 || v > 9999)
            return false;
        r->hole[i] = (int)v;
        p = end;
        if (i < 15) {
            if (*p != '/')
                return false;
            p++;
        }
    }
    char side = 'a';
    int used = 0;
    if (sscanf(p, " %d %d %c%n", &r->store[0], &r->store[1], &side, &used) != 3)
        return false;
    r->side = side == 'b';
    /* Variant A's fields come first, two counts; variant B's are one o1/.../o16 list. */
    p += used;
    while (*p == ' ')
        p++;
    size_t tok = strcspn(p, " ");
    r->var_a = tok && !memchr(p, '/', tok) && sscanf(p, "%d %d", &r->used[0], &r->used[1]) == 2;
    return true;
}

static int digits(int v) {
    int d = 1;
    while (v >= 10) {
        v /= 10;
        d++;
    }
    return d;
}

static void ring_row(FILE *out, const Ring *r, const PlayStyle *st, const int *holes, int w,
                     int marked, bool top) {
    const char *corner_l =
        st->unicode ? (top ? "\xE2\x95\xAD" : "\xE2\x95\xB0") : (top ? "." : "'");
    const char *corner_r =
        st->unicode ? (top ? "\xE2\x95\xAE" : "\xE2\x95\xAF") : (top ? "." : "'");
    const char *dash = st->unicode ? "\xE2\x94\x80" : "-";
    fprintf(out, "%s%s%s", corner_l, dash, dash);
    for (int i = 0; i < 8; i++) {
        int h = holes[i];
        bool mark = h == marked;
        if (i)
            fputs(dash, out);
        if (st->colour) {
            fputs(mark ? BG_HOLE_MARK : h <= 8 ? FG_A : FG_B, out);
            fprintf(out, "(%*d)", w, r->hole[h - 1]);
            fputs(RESET, out);
        } else if (mark) {
            fprintf(out, "[%*d]", w, r->hole[h - 1]);
        } else {
            fprintf(out, "(%*d)", w, r->hole[h - 1]);
        }
    }
    fprintf(out, "%s%s%s", dash, dash, corner_r);
}

static void ring_numbers(FILE *out, const int *holes, int w, int indent) {
    fprintf(out, "%*s", indent + 3, "");
    for (int i = 0; i < 8; i++)
        fprintf(out, "%s %*d", i ? "  " : "", w, holes[i]);
    fputc('\n', out);
}

static void ring_side(FILE *out, const Ring *r, const PlayStyle *st, int side) {
    fprintf(out, "   %s%s%s %s  store %3d", st->colour ? (side ? FG_B : FG_A) : "",
            side ? "B" : "A", st->colour ? RESET : "",
            side ? "(inner ring, 9-16)" : "(outer ring, 1-8) ", r->store[side]);
    if (r->var_a)
        fprintf(out, "  store moves left %d", 3 - r->used[side] > 0 ? 3 - r->used[side] : 0);
    if (r->side == side)
        fprintf(out, "  <- to move");
    fputc('\n', out);
}

static void draw_mancala(FILE *out, Game *g, const PlayStyle *st) {
    char text[512];
    engine_position_text(g, text, sizeof text);
    Ring r;
    if (!parse_ring(text, &r)) {
        fprintf(out, "position: %s\n", text);
        return;
    }
    int w = 2;
    for (int i = 0; i < 16; i++)
        if (digits(r.hole[i]) > w)
            w = digits(r.hole[i]);
    MoveDesc last;
    int marked = engine_last_move(g, &last) && last.from >= 0 ? last.from + 1 : 0;
    int top[8], bottom[8];
    for (int i = 0; i < 8; i++) {
        /* unflipped: B's ring 16..9 over A's 1..8; flipped: turned half round */
        top[i] = st->flip ? 8 - i : 16 - i;
        bottom[i] = st->flip ? 9 + i : 1 + i;
    }
    int inside = 8 * (w + 2) + 11; /* cells, dashes between, two dashes and a corner each side */
    const char *bar = st->unicode ? "\xE2\x94\x82" : "|";
    int indent = st->flip ? 2 : 8;
    ring_numbers(out, top, w, indent);
    fprintf(out, "%s", st->flip ? "  " : "  head  ");
    ring_row(out, &r, st, top, w, marked, true);
    if (st->flip)
        fprintf(out, "  tail");
    ring_side(out, &r, st, st->flip ? 0 : 1);
    fprintf(out, "%*s%s%*s%s\n", indent, "", bar, inside, "", bar);
    fprintf(out, "%s", st->flip ? "  " : "  tail  ");
    ring_row(out, &r, st, bottom, w, marked, false);
    if (st->flip)
        fprintf(out, "  head");
    ring_side(out, &r, st, st->flip ? 1 : 0);
    ring_numbers(out, bottom, w, indent);
}

/* ---- both ------------------------------------------------------------- */

int play_draw_plies(Game *g) {
    for (int cap = 256;; cap *= 2) {
        char(*h)[ENGINE_MOVE_TEXT] = malloc((size_t)cap * sizeof *h);
        if (!h)
            abort();
        int n = engine_history(g, h, cap, false);
        free(h);
        if (n < cap)
            return n;
    }
}

void play_draw_board(FILE *out, Game *g, const PlayStyle *st) {
    GameInfo info;
    engine_info(g, &info);
    if (info.kind == KIND_MANCALA)
        draw_mancala(out, g, st);
    else
        draw_chess(out, g, &info, st);
    MoveDesc last;
    if (engine_last_move(g, &last)) {
        char label[24];
        int n = play_draw_plies(g);
        play_draw_ply_label(g, n - 1, label, sizeof label);
        Side mover = (Side)(1 - engine_side_to_move(g));
        fprintf(out, "Last move: %s %s", label, last.san);
        if (strcmp(last.san, last.text))
            fprintf(out, " (%s)", last.text);
        if (info.kind == KIND_MANCALA)
            fprintf(out, " by %s", play_draw_side_name(g, mover));
        if (!st->colour && (last.from >= 0 || last.to >= 0))
            fprintf(out, info.kind == KIND_MANCALA ? ", sown from [ ]" : ", from ( ) to [ ]");
        fputc('\n', out);
    }
    fprintf(out, "%s to move.\n", play_draw_side_name(g, engine_side_to_move(g)));
    BoardView bv;
    if (info.kind == KIND_CHESS && engine_board(g, &bv) && bv.check)
        fprintf(out, "%s is in check.\n", play_draw_side_name(g, bv.side));
}
