/* notation.c - move text both ways (see notation.h). */
#include "core/notation.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/movegen.h"

static void setup_text(const Position *pos, Move m, char *buf) {
    uint8_t types[MAX_HAND];
    int n = pos_hand_order(pos, pos->stm, types);
    int files = move_from(m) | move_to(m) << 8;
    for (int i = 0; i < n && i < move_payload(m); i++) {
        *buf++ = pos->v->type[types[i]].letter;
        *buf++ = (char)('a' + (files >> (4 * i) & 15));
    }
    *buf = 0;
}

void notation_coord(const Position *pos, Move m, char *buf) {
    const Variant *v = pos->v;
    if (move_kind(m) == MK_SETUP) {
        setup_text(pos, m, buf);
        return;
    }
    int from = move_from(m), to = move_to(m);
    if (move_kind(m) == MK_CASTLE) {
        const CastleRule *cr = &v->castle[move_payload(m)];
        if (cr->one_step)
            to = cr->rfrom;
    }
    variant_square_name(v, from, buf);
    variant_square_name(v, to, buf + strlen(buf));
    if (move_promo(m)) {
        size_t n = strlen(buf);
        buf[n] = (char)tolower((unsigned char)v->type[move_promo(m)].letter);
        buf[n + 1] = 0;
    }
}

void notation_san(Position *pos, Move m, char *buf) {
    const Variant *v = pos->v;
    char *b = buf;
    if (move_kind(m) == MK_SETUP) {
        setup_text(pos, m, buf);
        return;
    }
    if (move_kind(m) == MK_CASTLE) {
        strcpy(b, v->castle[move_payload(m)].san);
        b += strlen(b);
    } else {
        int from = move_from(m), to = move_to(m);
        int t = piece_type(pos->board[from]);
        bool cap = movegen_is_capture(pos, m);
        bool pawn = v->type[t].promotes;
        MoveList l;
        movegen_legal(pos, &l);
        bool amb = false, same_file = false, same_rank = false;
        for (int i = 0; i < l.n; i++) {
            Move o = l.m[i];
            int of = move_from(o);
            if (o == m || move_to(o) != to || of == from || move_kind(o) == MK_CASTLE ||
                piece_type(pos->board[of]) != t || move_promo(o) != move_promo(m))
                continue;
            amb = true;
            same_file |= sq_file(v, of) == sq_file(v, from);
            same_rank |= sq_rank(v, of) == sq_rank(v, from);
        }
        if (!pawn)
            *b++ = v->type[t].letter;
        char sq[8];
        variant_square_name(v, from, sq);
        /* pieces: file, else rank, else both; pawns always name their file
         * when capturing; a pawn step that another pawn could make too (Diamondback
         * pawns move three ways) names both squares, "c3-c4" */
        bool pawn_step = pawn && amb && !cap;
        bool want_file = pawn_step || (pawn && cap) || (amb && (!same_file || same_rank));
        bool want_rank = pawn_step || (amb && same_file);
        if (want_file)
            *b++ = sq[0];
        if (want_rank) {
            strcpy(b, sq + 1);
            b += strlen(b);
        }
        if (cap)
            *b++ = 'x';
        else if (pawn_step)
            *b++ = '-';
        variant_square_name(v, to, b);
        b += strlen(b);
        if (move_promo(m)) {
            *b++ = '=';
            *b++ = v->type[move_promo(m)].letter;
        }
    }
    pos_make_move(pos, m);
    if (movegen_in_check(pos)) {
        MoveList l;
        movegen_legal(pos, &l);
        *b++ = l.n ? '+' : '#';
    }
    pos_unmake_move(pos);
    *b = 0;
}

/* Lower-cases nothing; drops decorations that do not change the move. */
static void normalize(const char *in, char *out, bool loose) {
    size_t n = 0;
    for (; *in && n < MOVE_TEXT_LEN - 1; in++) {
        char c = *in;
        if (strchr("+#!?", c) || isspace((unsigned char)c))
            continue;
        if (loose && (c == 'x' || c == '=' || c == '-' || c == ':'))
            continue;
        bool zero_castle = c == '0' && (n == 0 || out[n - 1] == '-') && (in[1] == '-' || !in[1]);
        out[n++] = zero_castle ? 'O' : c;
    }
    out[n] = 0;
}

/* SAN read as constraints: [piece][from file][from rank][x]square[=promo].
 * Any disambiguation the text gives must hold; none is required beyond
 * what makes the move unique. Returns false when the text is not SAN. */
typedef struct {
    int type;       /* 0: a promoting piece (pawn) */
    int file, rank; /* from constraints, -1 = any */
    int to;
    int promo; /* -1: none given */
} San;

static bool san_read(const Position *pos, const char *text, San *s) {
    const Variant *v = pos->v;
    char t[MOVE_TEXT_LEN];
    normalize(text, t, false);
    size_t n = strlen(t);
    s->promo = -1;
    if (n >= 2 && isupper((unsigned char)t[n - 1])) { /* promotion: e8=Q or e8Q */
        s->promo = variant_type_by_letter(v, t[n - 1]);
        if (!s->promo)
            return false;
        n--;
        if (n && t[n - 1] == '=')
            n--;
    }
    t[n] = 0;
    /* destination: the last file letter followed by digits */
    int i = (int)n - 1;
    while (i >= 0 && isdigit((unsigned char)t[i]))
        i--;
    if (i < 0 || i == (int)n - 1)
        return false;
    int used;
    s->to = variant_parse_square(v, t + i, &used);
    if (s->to < 0 || t[i + used])
        return false;
    const char *p = t;
    s->type = 0;
    if (isupper((unsigned char)*p)) {
        s->type = variant_type_by_letter(v, *p);
        if (!s->type || v->type[s->type].promotes)
            return false;
        p++;
    }
    s->file = s->rank = -1;
    const char *end = t + i;
    if (p < end && *p >= 'a' && *p < 'a' + v->files)
        s->file = *p++ - 'a';
    if (p < end && isdigit((unsigned char)*p)) {
        int r = 0;
        while (p < end && isdigit((unsigned char)*p) && r <= MAX_RANKS)
            r = r * 10 + (*p++ - '0');
        s->rank = r - 1;
    }
    if (p < end && (*p == 'x' || *p == '-' || *p == ':'))
        p++;
    return p == end;
}

static int san_matches(Position *pos, const San *s, const MoveList *l, Move *found) {
    const Variant *v = pos->v;
    int hits = 0;
    for (int i = 0; i < l->n; i++) {
        Move m = l->m[i];
        int k = move_kind(m);
        if (k == MK_SETUP || k == MK_CASTLE || move_to(m) != s->to)
            continue;
        int from = move_from(m), t = piece_type(pos->board[from]);
        if (s->type ? t != s->type : !v->type[t].promotes)
            continue;
        if ((s->file >= 0 && sq_file(v, from) != s->file) ||
            (s->rank >= 0 && sq_rank(v, from) != s->rank))
            continue;
        if (s->promo >= 0 ? move_promo(m) != s->promo : move_promo(m) != 0)
            continue;
        if (!hits++)
            *found = m;
    }
    return hits;
}

/* Why a text is not a legal move. */
static void explain(Position *pos, const char *text, const MoveList *legal, char *err,
                    size_t errlen) {
    const Variant *v = pos->v;
    int n1, n2;
    const char *t = text;
    San s;
    if (pos->nhand[pos->stm]) {
        uint8_t types[MAX_HAND];
        int n = pos_hand_order(pos, pos->stm, types);
        char ex[16] = "";
        for (int i = 0; i < n; i++) {
            char two[3] = {v->type[types[i]].letter, (char)('a' + (i ? 7 : 1)), 0};
            strcat(ex, two);
        }
        snprintf(err, errlen, "illegal move %s: first place the pieces in hand, e.g. %s", text, ex);
        return;
    }
    if (isupper((unsigned char)*t) && variant_type_by_letter(v, *t) &&
        islower((unsigned char)t[1]) && isdigit((unsigned char)t[2]) &&
        variant_parse_square(v, t + 1, NULL) >= 0)
        t++;
    int from = variant_parse_square(v, t, &n1);
    const char *t2 = from >= 0 ? t + n1 : t;
    if (*t2 == '-' || *t2 == 'x')
        t2++;
    int to = from >= 0 ? variant_parse_square(v, t2, &n2) : -1;
    if (from < 0 || to < 0) {
        /* SAN that names no legal move: is it a move into check? */
        MoveList pl;
        Move m;
        if (san_read(pos, text, &s)) {
            movegen_pseudo(pos, &pl);
            if (san_matches(pos, &s, &pl, &m))
                snprintf(err, errlen, "illegal move %s: it would leave your %s in check", text,
                         v->royal ? v->type[v->royal].name : "king");
            else
                snprintf(err, errlen, "illegal move %s: no legal move has that text", text);
        } else {
            snprintf(err, errlen,
                     "cannot read \"%s\" as a move (try coordinates like e2e4, or SAN)", text);
        }
        return;
    }
    char fs[8], ts[8];
    variant_square_name(v, from, fs);
    variant_square_name(v, to, ts);
    const char *promo = t2 + n2;
    Piece p = pos->board[from];
    if (!p || p == HOLE) {
        snprintf(err, errlen, "illegal move %s: no piece on %s", text, fs);
        return;
    }
    if (piece_color(p) != pos->stm) {
        snprintf(err, errlen, "illegal move %s: the piece on %s is not yours", text, fs);
        return;
    }
    bool promotes = false;
    for (int i = 0; i < legal->n; i++)
        promotes |=
            move_from(legal->m[i]) == from && move_to(legal->m[i]) == to && move_promo(legal->m[i]);
    if (promotes) {
        char list[40] = "";
        for (int i = 0; i < v->npromo; i++)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%c", i ? ", " : "",
                     v->type[v->promo_types[i]].letter);
        if (*promo)
            snprintf(err, errlen, "illegal move %s: cannot promote to '%s' (choose %s)", text,
                     promo, list);
        else
            snprintf(err, errlen, "illegal move %s: say what to promote to (%s), e.g. %s%c", text,
                     list, text, tolower((unsigned char)v->type[v->promo_types[0]].letter));
        return;
    }
    MoveList pl;
    movegen_pseudo(pos, &pl);
    for (int i = 0; i < pl.n; i++)
        if (move_from(pl.m[i]) == from && move_to(pl.m[i]) == to) {
            snprintf(err, errlen, "illegal move %s: it would leave your %s in check", text,
                     v->royal ? v->type[v->royal].name : "king");
            return;
        }
    snprintf(err, errlen, "illegal move %s: the %s on %s cannot move to %s", text,
             v->type[piece_type(p)].name, fs, ts);
}

int notation_parse(Position *pos, const char *text, Move *out, char *err, size_t errlen) {
    MoveList l;
    movegen_legal(pos, &l);
    char want[MOVE_TEXT_LEN], wantl[MOVE_TEXT_LEN], buf[MOVE_TEXT_LEN], cmp[MOVE_TEXT_LEN];
    if (strlen(text) >= MOVE_TEXT_LEN - 1 || !*text) {
        snprintf(err, errlen, "cannot read \"%.40s\" as a move", text);
        return -1;
    }
    normalize(text, want, false);
    normalize(text, wantl, true);
    // Step 1. Coordinates, exactly as printed (case of a promotion letter aside).
    for (int i = 0; i < l.n; i++) {
        notation_coord(pos, l.m[i], buf);
        normalize(buf, cmp, true);
        /* a promotion letter, and a set-up token (MbFh, or mbfh as in
         * the FEN bracket), may come in either case */
        bool same = strlen(cmp) == strlen(wantl);
        for (size_t k = 0; same && cmp[k]; k++)
            same = cmp[k] == wantl[k] ||
                   ((k >= 4 || move_kind(l.m[i]) == MK_SETUP) &&
                    tolower((unsigned char)cmp[k]) == tolower((unsigned char)wantl[k]));
        if (same) {
            *out = l.m[i];
            return 0;
        }
    }
    // Step 2. Long algebraic with a piece letter (Ng1f3, Ng1-f3).
    int n1, n2;
    if (isupper((unsigned char)wantl[0]) && variant_type_by_letter(pos->v, wantl[0])) {
        int from = variant_parse_square(pos->v, wantl + 1, &n1);
        int to = from >= 0 ? variant_parse_square(pos->v, wantl + 1 + n1, &n2) : -1;
        if (to >= 0 && !wantl[1 + n1 + n2])
            for (int i = 0; i < l.n; i++)
                if (move_from(l.m[i]) == from && move_to(l.m[i]) == to && !move_promo(l.m[i]) &&
                    pos->v->type[piece_type(pos->board[from])].letter == wantl[0] &&
                    move_kind(l.m[i]) != MK_SETUP) {
                    *out = l.m[i];
                    return 0;
                }
    }
    // Step 3. Castling tokens as printed (O-O, O-O-O, O-h1).
    for (int i = 0; i < l.n; i++)
        if (move_kind(l.m[i]) == MK_CASTLE) {
            normalize(pos->v->castle[move_payload(l.m[i])].san, cmp, false);
            if (!strcmp(cmp, want)) {
                *out = l.m[i];
                return 0;
            }
        }
    // Step 4. SAN as constraints.
    San s;
    if (san_read(pos, text, &s)) {
        Move m = MOVE_NONE;
        int hits = san_matches(pos, &s, &l, &m);
        if (hits == 1) {
            *out = m;
            return 0;
        }
        if (hits > 1) {
            char a[MOVE_TEXT_LEN], b[MOVE_TEXT_LEN] = "";
            notation_san(pos, m, a);
            for (int i = 0; i < l.n; i++) {
                Move o;
                MoveList one = {.n = 1};
                one.m[0] = l.m[i];
                if (l.m[i] != m && san_matches(pos, &s, &one, &o)) {
                    notation_san(pos, l.m[i], b);
                    break;
                }
            }
            snprintf(err, errlen, "ambiguous move %s: %s or %s", text, a, b);
            return -1;
        }
    }
    explain(pos, text, &l, err, errlen);
    return -1;
}
