/* movegen.c - tree walks for moves, trie walks for attacks (see movegen.h). */
#include "core/movegen.h"

#include <string.h>

bool movegen_attacked(const Position *pos, int sq, int by) {
    return movegen_attacked_by(pos, sq, by, ~0u);
}

bool movegen_attacked_by(const Position *pos, int sq, int by, uint32_t typemask) {
    const Variant *v = pos->v;
    Span sp = v->atk[by][sq];
    const AttackNode *a = v->anodes + sp.start;
    for (uint32_t i = 0; i < sp.len;) {
        Piece p = pos->board[a[i].sq];
        if (p == EMPTY) {
            i = variant_next(a[i].flags, a[i].skip, i, true);
        } else {
            if (piece_color(p) == by && (a[i].srcmask & typemask) >> piece_type(p) & 1)
                return true;
            i = variant_next(a[i].flags, a[i].skip, i, false);
        }
    }
    return false;
}

bool movegen_in_check(const Position *pos) {
    Square k = pos->king[pos->stm];
    return k != SQ_NONE && movegen_attacked(pos, k, !pos->stm);
}

static inline void add(MoveList *l, Move m) {
    if (l->n < MAX_MOVES)
        l->m[l->n++] = m;
}

static void add_moves(const Position *pos, MoveList *l, int from, int to, int kind, bool promo) {
    const Variant *v = pos->v;
    if (promo && sqset_has(&v->promo_zone[pos->stm], to)) {
        for (int i = 0; i < v->npromo; i++)
            add(l, move_make(from, to, v->promo_types[i], kind, 0));
    } else {
        add(l, move_make(from, to, 0, kind, 0));
    }
}

/* Set-up move: every way to put the pieces in hand behind distinct free
 * gate files; identical pieces take files in ascending order. */
static void gen_setup(const Position *pos, MoveList *l) {
    const Variant *v = pos->v;
    int us = pos->stm;
    uint8_t types[MAX_HAND];
    int n = pos_hand_order(pos, us, types);
    int files[MAX_HAND];
    int free_files = v->gate_files;
    for (int f = 0; f < v->files; f++)
        if (pos->gate[us][f])
            free_files &= ~(1 << f);
    int depth = 0;
    files[0] = -1;
    while (depth >= 0) {
        int f = files[depth] + 1;
        if (depth > 0 && types[depth] == types[depth - 1] && f <= files[depth - 1])
            f = files[depth - 1] + 1;
        for (; f < v->files; f++) {
            bool used = false;
            for (int k = 0; k < depth; k++)
                used |= files[k] == f;
            if ((free_files >> f & 1) && !used)
                break;
        }
        if (f >= v->files) {
            depth--;
            continue;
        }
        files[depth] = f;
        if (depth == n - 1) {
            int packed = 0;
            for (int k = 0; k < n; k++)
                packed |= files[k] << (4 * k);
            add(l, move_make(packed & 0xFF, packed >> 8, 0, MK_SETUP, n));
        } else {
            files[++depth] = -1;
        }
    }
}

static void gen_castling(const Position *pos, MoveList *l) {
    const Variant *v = pos->v;
    int us = pos->stm;
    int check = -1;
    for (int i = 0; i < v->ncastles; i++) {
        const CastleRule *cr = &v->castle[i];
        if (cr->color != us || (cr->right && !(pos->castling & cr->right)))
            continue;
        if (pos->board[cr->kfrom] != make_piece(us, v->royal) ||
            pos->board[cr->rfrom] != make_piece(us, cr->partner))
            continue;
        bool ok = true;
        for (int k = 0; k < cr->nempty && ok; k++)
            ok = pos->board[cr->empty[k]] == EMPTY;
        if (!ok)
            continue;
        if (!cr->in_check) {
            if (check < 0)
                check = movegen_in_check(pos);
            if (check)
                continue;
        }
        for (int k = 0; k < cr->nsafe && ok; k++)
            ok = !movegen_attacked(pos, cr->safe[k], !us);
        if (ok)
            add(l, move_make(cr->kfrom, cr->kto, 0, MK_CASTLE, i));
    }
}

void movegen_pseudo(const Position *pos, MoveList *l) {
    const Variant *v = pos->v;
    int us = pos->stm;
    l->n = 0;
    if (pos->nhand[us]) {
        gen_setup(pos, l);
        return;
    }
    uint8_t seen[MAX_SQ];
    for (int i = 0; i < pos->pcount[us]; i++) {
        int from = pos->plist[us][i];
        int t = piece_type(pos->board[from]);
        Span sp = v->tree[(us * MAX_TYPES + t) * v->nsq + from];
        const Node *nd = v->nodes + sp.start;
        bool promo = v->promoting >> t & 1;
        bool multi = v->multipath[us] >> t & 1;
        if (multi)
            memset(seen, 0, sizeof seen);
        for (uint32_t j = 0; j < sp.len;) {
            int to = nd[j].sq;
            Piece p = pos->board[to];
            uint8_t f = nd[j].flags;
            if (p == EMPTY) {
                if ((f & NF_MOVE) && !(multi && seen[to]++))
                    add_moves(pos, l, from, to, f & NF_DOUBLE ? MK_DOUBLE : MK_NORMAL, promo);
                else if ((f & NF_EP) && to == pos->ep)
                    add_moves(pos, l, from, to, MK_EP, promo);
                j = variant_next(f, nd[j].skip, j, true);
            } else {
                if ((f & NF_CAPT) && piece_color(p) != us && !(multi && seen[to]++))
                    add_moves(pos, l, from, to, MK_NORMAL, promo);
                j = variant_next(f, nd[j].skip, j, false);
            }
        }
    }
    if (v->ncastles)
        gen_castling(pos, l);
}

bool movegen_is_capture(const Position *pos, Move m) {
    int k = move_kind(m);
    if (k == MK_EP)
        return true;
    if (k == MK_CASTLE || k == MK_SETUP)
        return false;
    return pos->board[move_to(m)] != EMPTY;
}

bool movegen_legal_after(Position *pos, Move m) {
    int us = pos->stm;
    if (pos->king[us] == SQ_NONE && !pos->v->royal)
        return true;
    pos_make_move(pos, m);
    bool ok = !movegen_attacked(pos, pos->king[us], !us);
    pos_unmake_move(pos);
    return ok;
}

/* Marks own pieces that alone stand between the king and an enemy attacker
 * on some path: moving them may expose the king. */
static void find_pinned(const Position *pos, const AttackNode *a, uint32_t i, uint32_t end,
                        int blocker, uint8_t *pinned) {
    int us = pos->stm;
    while (i < end) {
        Piece p = pos->board[a[i].sq];
        uint8_t f = a[i].flags;
        if (p == EMPTY) {
            i = variant_next(f, a[i].skip, i, true);
            continue;
        }
        if (piece_color(p) != us) {
            if (blocker >= 0 && (a[i].srcmask >> piece_type(p) & 1))
                pinned[blocker] = 1;
            i = variant_next(f, a[i].skip, i, false);
            continue;
        }
        if (f & NF_PASS_OCC) {
            i++;
            continue;
        }
        if (blocker < 0 && (f & NF_PASS_EMPTY))
            find_pinned(pos, a, i + 1, a[i].skip, a[i].sq, pinned);
        i = a[i].skip;
    }
}

void movegen_pinned(const Position *pos, uint8_t *pinned) {
    const Variant *v = pos->v;
    Square k = pos->king[pos->stm];
    memset(pinned, 0, MAX_SQ);
    if (k == SQ_NONE)
        return;
    Span sp = v->atk[!pos->stm][k];
    find_pinned(pos, v->anodes + sp.start, 0, sp.len, -1, pinned);
}

bool movegen_surely_legal(const Position *pos, Move m, bool in_check, const uint8_t *pinned) {
    int kind = move_kind(m);
    if (kind == MK_SETUP)
        return !in_check;
    if (pos->king[pos->stm] == SQ_NONE)
        return true;
    return !in_check && !pos->v->has_hoppers && move_from(m) != pos->king[pos->stm] &&
           !pinned[move_from(m)] && (kind == MK_NORMAL || kind == MK_DOUBLE);
}

void movegen_legal(Position *pos, MoveList *l) {
    const Variant *v = pos->v;
    if (v->sudden_end && pos_game_end(pos)) {
        l->n = 0;
        return;
    }
    movegen_pseudo(pos, l);
    int us = pos->stm;
    Square k = pos->king[us];
    if (k == SQ_NONE)
        return;
    bool check = movegen_attacked(pos, k, !us);
    uint8_t pinned[MAX_SQ];
    if (!check)
        movegen_pinned(pos, pinned);
    int n = 0;
    for (int i = 0; i < l->n; i++) {
        Move m = l->m[i];
        if (movegen_surely_legal(pos, m, check, check ? NULL : pinned) ||
            movegen_legal_after(pos, m))
            l->m[n++] = m;
    }
    l->n = n;
}
