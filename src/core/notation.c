/* notation.c - move text both ways (see notation.h). */
#include "core/notation.h"

#include <ctype.h>
#include <stdio.h>
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
        bool want_file = (pawn && cap) || (amb && (!same_file || same_rank));
        bool want_rank = amb && same_file;
        if (want_file)
            *b++ = sq[0];
        if (want_rank) {
            strcpy(b, sq + 1);
            b += strlen(b);
        }
        if (cap)
            *b++ = 'x';
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

/* Why a text naming two squares is not a legal move. */
static void explain(Position *pos, const char *text, const MoveList *legal, char *err,
                    size_t errlen) {
    const Variant *v = pos->v;
    int n1, n2;
    const char *t = text;
    if (isupper((unsigned char)*t) && variant_type_by_letter(v, *t))
        t++;
    int from = variant_parse_square(v, t, &n1);
    if (from < 0) {
        snprintf(err, errlen, "cannot read \"%s\" as a move (try coordinates like e2e4, or SAN)",
                 text);
        return;
    }
    const char *t2 = t + n1;
    if (*t2 == '-' || *t2 == 'x')
        t2++;
    int to = variant_parse_square(v, t2, &n2);
    char fs[8];
    variant_square_name(v, from, fs);
    if (to < 0) {
        snprintf(err, errlen, "cannot read \"%s\" as a move (try coordinates like e2e4, or SAN)",
                 text);
        return;
    }
    Piece p = pos->board[from];
    if (pos->nhand[pos->stm]) {
        snprintf(err, errlen, "illegal move %s: first place the pieces in hand (e.g. %s)", text,
                 "MbFh");
        return;
    }
    if (!p || p == HOLE) {
        snprintf(err, errlen, "illegal move %s: no piece on %s", text, fs);
        return;
    }
    if (piece_color(p) != pos->stm) {
        snprintf(err, errlen, "illegal move %s: the piece on %s is not yours", text, fs);
        return;
    }
    for (int i = 0; i < legal->n; i++)
        if (move_from(legal->m[i]) == from && move_to(legal->m[i]) == to && move_promo(legal->m[i])) {
            snprintf(err, errlen, "illegal move %s: say what to promote to (e.g. %sq)", text, text);
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
    char ts[8];
    variant_square_name(v, to, ts);
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
    /* Step 1. Coordinates, exact; long algebraic with a piece letter too. */
    for (int pass = 0; pass < 2; pass++) {
        Move found = MOVE_NONE;
        int hits = 0;
        for (int i = 0; i < l.n; i++) {
            notation_coord(pos, l.m[i], buf);
            normalize(buf, cmp, true);
            const char *w = wantl;
            if (pass == 1) {
                if (!isupper((unsigned char)w[0]) || move_kind(l.m[i]) == MK_SETUP ||
                    pos->v->type[piece_type(pos->board[move_from(l.m[i])])].letter != w[0])
                    continue;
                w++;
            }
            char lw[MOVE_TEXT_LEN];
            size_t k;
            for (k = 0; w[k]; k++)
                lw[k] = (char)(k >= 2 && isupper((unsigned char)w[k]) &&
                                       move_kind(l.m[i]) != MK_SETUP
                                   ? tolower((unsigned char)w[k])
                                   : w[k]);
            lw[k] = 0;
            if (!strcmp(cmp, lw)) {
                found = l.m[i];
                hits++;
            }
        }
        if (hits == 1) {
            *out = found;
            return 0;
        }
    }
    /* Step 2. SAN: exact first, then without x, = and -. */
    for (int loose = 0; loose < 2; loose++) {
        Move found = MOVE_NONE;
        int hits = 0;
        char first[MOVE_TEXT_LEN] = "", second[MOVE_TEXT_LEN] = "";
        for (int i = 0; i < l.n; i++) {
            notation_san(pos, l.m[i], buf);
            normalize(buf, cmp, loose);
            if (!strcmp(cmp, loose ? wantl : want)) {
                if (hits == 0)
                    strcpy(first, buf);
                else if (hits == 1)
                    strcpy(second, buf);
                found = l.m[i];
                hits++;
            }
        }
        if (hits == 1) {
            *out = found;
            return 0;
        }
        if (hits > 1) {
            snprintf(err, errlen, "ambiguous move %s: %s or %s", text, first, second);
            return -1;
        }
    }
    explain(pos, text, &l, err, errlen);
    if (!strncmp(err, "cannot read", 11) && (isupper((unsigned char)*text) || *text == 'O'))
        snprintf(err, errlen, "illegal move %s: no legal move has that text", text);
    return -1;
}
