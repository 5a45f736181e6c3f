/* verify.c - the invariants of a position, checked from scratch (see
 * position.h): what make/unmake keep incrementally must equal what the
 * board says. The debug build (make CFG=debug) checks after every change. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/position.h"

__attribute__((format(printf, 3, 4))) static bool broken(char *why, size_t len, const char *fmt,
                                                          ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, len, fmt, ap);
    va_end(ap);
    return false;
}

static bool pieces_ok(const Position *pos, char *why, size_t len) {
    const Variant *v = pos->v;
    int on_board[2] = {0, 0}, count[64] = {0};
    for (int sq = 0; sq < v->nsq; sq++) {
        Piece p = pos->board[sq];
        if ((p == HOLE) != (v->is_hole[sq] != 0))
            return broken(why, len, "square %d: hole mismatch", sq);
        if (!p || p == HOLE)
            continue;
        int c = piece_color(p), t = piece_type(p);
        if (c > 1 || t < 1 || t > v->ntypes)
            return broken(why, len, "square %d: bad piece code %d", sq, p);
        on_board[c]++;
        count[p]++;
        if (pos->pidx[sq] >= pos->pcount[c] || pos->plist[c][pos->pidx[sq]] != sq)
            return broken(why, len, "square %d: not in the piece list", sq);
        if (t == v->royal && pos->king[c] != sq)
            return broken(why, len, "king of colour %d on %d, recorded on %d", c, sq, pos->king[c]);
    }
    for (int c = 0; c < 2; c++)
        if (v->royal && count[make_piece(c, v->royal)] != 1)
            return broken(why, len, "colour %d has %d royal pieces", c,
                          count[make_piece(c, v->royal)]);
    for (int c = 0; c < 2; c++)
        if (on_board[c] != pos->pcount[c])
            return broken(why, len, "colour %d: %d pieces, list has %d", c, on_board[c],
                          pos->pcount[c]);
    for (int p = 0; p < 64; p++)
        if (count[p] != pos->count[p])
            return broken(why, len, "piece code %d: %d on the board, count says %d", p, count[p],
                          pos->count[p]);
    return true;
}

static bool hands_and_gates_ok(const Position *pos, char *why, size_t len) {
    const Variant *v = pos->v;
    for (int c = 0; c < 2; c++) {
        int n = 0;
        for (int t = 0; t < MAX_TYPES; t++)
            n += pos->hand[c][t];
        if (n != pos->nhand[c] || n > MAX_HAND || (n && !v->gating))
            return broken(why, len, "colour %d: %d pieces in hand, nhand %d", c, n, pos->nhand[c]);
        for (int f = 0; f < MAX_FILES; f++) {
            Piece g = pos->gate[c][f];
            if (!g)
                continue;
            if (!v->gating || f >= v->files || !(v->gate_files >> f & 1) ||
                piece_color(g) != c || piece_type(g) < 1 || piece_type(g) > v->ntypes)
                return broken(why, len, "colour %d: bad gate on file %d", c, f);
        }
    }
    return true;
}

/* A right needs its King and partner on their squares for one castling. */
static bool castling_ok(const Position *pos, char *why, size_t len) {
    const Variant *v = pos->v;
    if (pos->castling & ~0xF)
        return broken(why, len, "castling bits %#x", pos->castling);
    for (int bit = 0; bit < 4; bit++) {
        if (!(pos->castling >> bit & 1))
            continue;
        bool found = false;
        for (int i = 0; i < v->ncastles && !found; i++) {
            const CastleRule *cr = &v->castle[i];
            found = (cr->right >> bit & 1) &&
                    pos->board[cr->kfrom] == make_piece(cr->color, v->royal) &&
                    pos->board[cr->rfrom] == make_piece(cr->color, cr->partner);
        }
        if (!found)
            return broken(why, len, "castling right %d without its King and partner", bit);
    }
    return true;
}

bool pos_verify(const Position *pos, char *why, size_t len) {
    if (pos->stm != WHITE && pos->stm != BLACK)
        return broken(why, len, "side to move %d", pos->stm);
    if (pos->hply < 0 || pos->hply >= MAX_GAME_PLY)
        return broken(why, len, "history length %d", pos->hply);
    if (!pieces_ok(pos, why, len) || !hands_and_gates_ok(pos, why, len) ||
        !castling_ok(pos, why, len))
        return false;
    if (pos->ep != SQ_NONE &&
        (pos->ep_victim == SQ_NONE || pos->board[pos->ep] != EMPTY ||
         !pos->board[pos->ep_victim] || piece_color(pos->board[pos->ep_victim]) == pos->stm))
        return broken(why, len, "en passant square %d without its victim", pos->ep);
    uint64_t key = pos_compute_key(pos);
    if (key != pos->key)
        return broken(why, len, "key %016llx, computed %016llx", (unsigned long long)pos->key,
                      (unsigned long long)key);
    return true;
}

#ifdef MENAGERIE_DEBUG
void pos_debug_check(const Position *pos, const char *where) {
    char why[160];
    if (pos_verify(pos, why, sizeof why))
        return;
    char fen[512];
    pos_to_fen(pos, fen, sizeof fen);
    fprintf(stderr, "menagerie: broken position after %s: %s\n  %s\n", where, why, fen);
    if (pos->hply > 0) {
        Move m = pos->hist[pos->hply - 1].move;
        fprintf(stderr, "  last move: from %d to %d kind %d promo %d payload %d\n", move_from(m),
                move_to(m), move_kind(m), move_promo(m), move_payload(m));
    }
    abort();
}
#endif
