/* movepick.c - move ordering (see movepick.h). */
#include "search/movepick.h"

#include <string.h>

#include "core/movegen.h"

bool movepick_wins(const Position *pos, Move m) {
    const Variant *v = pos->v;
    int us = pos->stm;
    if (!v->nwin[us] || move_kind(m) == MK_SETUP || move_kind(m) == MK_CASTLE)
        return false;
    int t = move_promo(m) ? move_promo(m) : piece_type(pos->board[move_from(m)]);
    return (v->win_types >> t & 1) && sqset_has(&v->win_sq[us], move_to(m));
}

bool movepick_is_noisy(const Position *pos, Move m) {
    return move_promo(m) || movegen_is_capture(pos, m) || movepick_wins(pos, m);
}

int movepick_gain(const Position *pos, const Eval *e, Move m) {
    int g = 0;
    if (move_kind(m) == MK_EP)
        g = eval_piece_value(e, piece_type(pos->board[pos->ep_victim]));
    else if (move_kind(m) == MK_NORMAL || move_kind(m) == MK_DOUBLE) {
        Piece cap = pos->board[move_to(m)];
        if (cap)
            g = eval_piece_value(e, piece_type(cap));
    }
    if (move_promo(m))
        g += eval_piece_value(e, move_promo(m)) -
             eval_piece_value(e, piece_type(pos->board[move_from(m)]));
    return g;
}

/* The least valuable piece of colour by attacking sq on board (a walk of
 * the variant's attack trie); -1 when none. */
static int least_attacker(const Variant *v, const Eval *e, const Piece *board, int sq, int by,
                          int *value) {
    Span sp = v->atk[by][sq];
    const AttackNode *a = v->anodes + sp.start;
    int best = -1, bestv = 1 << 30;
    for (uint32_t i = 0; i < sp.len;) {
        Piece p = board[a[i].sq];
        if (p == EMPTY) {
            i = variant_next(a[i].flags, a[i].skip, i, true);
            continue;
        }
        if (p != HOLE && piece_color(p) == by && (a[i].srcmask >> piece_type(p) & 1)) {
            int t = piece_type(p);
            int val = t == v->royal ? 100000 : eval_piece_value(e, t);
            if (val < bestv) {
                bestv = val;
                best = a[i].sq;
            }
        }
        i = variant_next(a[i].flags, a[i].skip, i, false);
    }
    *value = bestv;
    return best;
}

/* The exchange on square to after a first capture that left on_square
 * (its value) there and gained gain0, side to capture next: the first
 * capturer's net gain when each side may stop capturing. */
static int exchange(const Variant *v, const Eval *e, Piece *board, int to, int side, int on_square,
                    int gain0) {
    int gain[64], d = 0;
    gain[0] = gain0;
    while (d < 62) {
        int val, sq = least_attacker(v, e, board, to, side, &val);
        if (sq < 0)
            break;
        if (val >= 100000) {
            /* a king may only take when nothing takes it back */
            int v2;
            Piece keep = board[sq];
            board[sq] = EMPTY;
            bool guarded = least_attacker(v, e, board, to, !side, &v2) >= 0;
            board[sq] = keep;
            if (guarded)
                break;
        }
        d++;
        gain[d] = on_square - gain[d - 1];
        if ((-gain[d - 1] > gain[d] ? -gain[d - 1] : gain[d]) < 0)
            break;
        board[to] = board[sq];
        board[sq] = EMPTY;
        on_square = val;
        side = !side;
    }
    while (d > 0) {
        gain[d - 1] = -(-gain[d - 1] > gain[d] ? -gain[d - 1] : gain[d]);
        d--;
    }
    return gain[0];
}

int movepick_see(const Position *pos, const Eval *e, Move m) {
    const Variant *v = pos->v;
    int kind = move_kind(m);
    if (kind == MK_CASTLE || kind == MK_SETUP)
        return 0;
    int from = move_from(m), to = move_to(m);
    Piece board[MAX_SQ];
    memcpy(board, pos->board, (size_t)v->nsq);
    if (kind == MK_EP)
        board[pos->ep_victim] = EMPTY;
    int t = move_promo(m) ? move_promo(m) : piece_type(board[from]);
    int on_square = t == v->royal ? 100000 : eval_piece_value(e, t);
    board[to] = move_promo(m) ? make_piece(pos->stm, move_promo(m)) : board[from];
    board[from] = EMPTY;
    return exchange(v, e, board, to, !pos->stm, on_square, movepick_gain(pos, e, m));
}

bool movepick_threatened(const Position *pos, const Eval *e, int sq) {
    const Variant *v = pos->v;
    Piece p = pos->board[sq];
    if (p == EMPTY || p == HOLE || piece_color(p) != pos->stm || piece_type(p) == v->royal)
        return false;
    /* as if the piece had just come to sq, gaining nothing: the enemy
     * takes first, and wins what the side to move then loses */
    Piece board[MAX_SQ];
    memcpy(board, pos->board, (size_t)v->nsq);
    return exchange(v, e, board, sq, !pos->stm, eval_piece_value(e, piece_type(p)), 0) < 0;
}

bool movepick_see_ge(const Position *pos, const Eval *e, Move m, int threshold) {
    int kind = move_kind(m);
    if (kind == MK_CASTLE || kind == MK_SETUP)
        return 0 >= threshold;
    int gain = movepick_gain(pos, e, m);
    if (gain < threshold)
        return false;
    int t = move_promo(m) ? move_promo(m) : piece_type(pos->board[move_from(m)]);
    if (t != pos->v->royal && gain - eval_piece_value(e, t) >= threshold)
        return true;
    return movepick_see(pos, e, m) >= threshold;
}

bool movepick_bad_capture(const Position *pos, const Eval *e, Move m) {
    int kind = move_kind(m);
    if ((kind != MK_NORMAL && kind != MK_EP) || move_promo(m))
        return false;
    Piece att = pos->board[move_from(m)];
    if (piece_type(att) == pos->v->royal)
        return false; /* legal king captures win what they take */
    Piece cap = kind == MK_EP ? pos->board[pos->ep_victim] : pos->board[move_to(m)];
    if (!cap)
        return false;
    if (eval_piece_value(e, piece_type(att)) <= eval_piece_value(e, piece_type(cap)))
        return false;
    return movepick_see(pos, e, m) < 0;
}

bool movepick_gives_check(const Position *pos, const Eval *e, Move m) {
    const Variant *v = pos->v;
    int them = !pos->stm;
    Square k = pos->king[them];
    if (k == SQ_NONE)
        return false;
    if ((move_kind(m) != MK_NORMAL && move_kind(m) != MK_DOUBLE) || v->has_hoppers)
        return true; /* rare: let the search look */
    int from = move_from(m), to = move_to(m);
    int t = move_promo(m) ? move_promo(m) : piece_type(pos->board[from]);
    if (!eval_may_capture(e, pos->stm, t, to, k))
        return false;
    Span sp = v->tree[(pos->stm * MAX_TYPES + t) * v->nsq + to];
    const Node *nd = v->nodes + sp.start;
    for (uint32_t j = 0; j < sp.len;) {
        int sq = nd[j].sq;
        uint8_t f = nd[j].flags;
        if (sq == k && (f & NF_CAPT))
            return true;
        j = variant_next(f, nd[j].skip, j, sq == from || pos->board[sq] == EMPTY);
    }
    /* discovered checks are not seen */
    return false;
}

/* MVV-LVA with promotions: the gain first, the cheaper attacker next. */
static int noisy_score(const Position *pos, const Eval *e, Move m) {
    int att = eval_piece_value(e, piece_type(pos->board[move_from(m)]));
    return movepick_gain(pos, e, m) * 16 - att / 8;
}

void movepick_init(MovePicker *mp, const Position *pos, const Eval *e, Move tt_move,
                   const History *h, int16_t *const cont[HISTORY_CONT_PLIES], const Move killer[2],
                   Move counter) {
    MoveList l;
    movegen_pseudo(pos, &l);
    for (int i = 0; i < l.n; i++) {
        Move m = l.m[i];
        int s;
        if (m == tt_move)
            s = 1 << 29;
        else if (movepick_wins(pos, m))
            s = (1 << 29) - 1;
        else if (movepick_is_noisy(pos, m)) {
            if (move_promo(m) && !movegen_is_capture(pos, m) &&
                eval_piece_value(e, move_promo(m)) < 300)
                s = -PICK_GOOD + noisy_score(pos, e, m); /* minor promotions last */
            else if (movepick_bad_capture(pos, e, m))
                s = -PICK_GOOD + noisy_score(pos, e, m);
            else
                s = 2 * PICK_GOOD + noisy_score(pos, e, m);
        } else if (m == killer[0])
            s = PICK_GOOD + 3;
        else if (m == killer[1])
            s = PICK_GOOD + 2;
        else if (m == counter)
            s = PICK_GOOD + 1;
        else
            s = history_quiet(h, cont, pos, m);
        mp->m[i] = m;
        mp->score[i] = s;
    }
    mp->n = l.n;
    mp->next = 0;
}

void movepick_init_noisy(MovePicker *mp, const Position *pos, const Eval *e, Move tt_move) {
    MoveList l;
    movegen_pseudo(pos, &l);
    int n = 0;
    for (int i = 0; i < l.n; i++) {
        Move m = l.m[i];
        if (!movepick_is_noisy(pos, m))
            continue;
        if (move_promo(m)) {
            /* only the most valuable promotion is worth a look here */
            int best = 0;
            for (int k = 0; k < pos->v->npromo; k++)
                if (eval_piece_value(e, pos->v->promo_types[k]) > eval_piece_value(e, best))
                    best = pos->v->promo_types[k];
            if (move_promo(m) != best)
                continue;
        }
        mp->m[n] = m;
        mp->score[n] = m == tt_move            ? 1 << 29
                       : movepick_wins(pos, m) ? (1 << 29) - 1
                                               : noisy_score(pos, e, m);
        n++;
    }
    mp->n = n;
    mp->next = 0;
}

Move movepick_next(MovePicker *mp, int *score) {
    if (mp->next >= mp->n)
        return MOVE_NONE;
    int best = mp->next;
    for (int i = mp->next + 1; i < mp->n; i++)
        if (mp->score[i] > mp->score[best])
            best = i;
    Move m = mp->m[best];
    int s = mp->score[best];
    mp->m[best] = mp->m[mp->next];
    mp->score[best] = mp->score[mp->next];
    mp->m[mp->next] = m;
    mp->score[mp->next] = s;
    mp->next++;
    if (score)
        *score = s;
    return m;
}
