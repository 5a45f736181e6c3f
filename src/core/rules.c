/* rules.c - game end for chess-like variants (see rules.h). */
#include "core/rules.h"

#include <stdio.h>
#include <string.h>

#include "core/movegen.h"

/* The variant's `insufficient` list names what a side may have and still
 * lack mating potential: "-" nothing, "*" any one piece, letters such as
 * "NM" exactly those pieces, "bound" only colour-bound pieces all on one
 * square colour. A side with a promoting piece (a pawn) never lacks it. */
bool rules_mating_potential(const Position *pos, int c) {
    const Variant *v = pos->v;
    if (!v->ninsuf)
        return true;
    uint8_t count[MAX_TYPES] = {0};
    int n = 0, colors = 0;
    bool all_bound = true;
    for (int i = 0; i < pos->pcount[c]; i++) {
        int sq = pos->plist[c][i];
        int t = piece_type(pos->board[sq]);
        if (t == v->royal)
            continue;
        if (v->type[t].promotes)
            return true;
        count[t]++;
        n++;
        all_bound &= v->type[t].colorbound;
        colors |= 1 << ((sq_file(v, sq) + sq_rank(v, sq)) & 1);
    }
    for (int i = 0; i < v->ninsuf; i++) {
        const MaterialRule *in = &v->insuf[i];
        switch (in->kind) {
        case INSUF_NONE:
            if (n == 0)
                return false;
            break;
        case INSUF_ANY_ONE:
            if (n == 1)
                return false;
            break;
        case INSUF_BOUND:
            if (n > 0 && all_bound && colors != 3)
                return false;
            break;
        case INSUF_SET:
            if (n == in->n && !memcmp(count, in->count, sizeof count))
                return false;
            break;
        }
    }
    return true;
}

RulesResult rules_result(Position *pos) {
    const Variant *v = pos->v;
    RulesResult r = {RULES_ONGOING, ""};
    int us = pos->stm;
    RulesOutcome they_win = us == WHITE ? RULES_BLACK_WINS : RULES_WHITE_WINS;
    RulesOutcome we_win = us == WHITE ? RULES_WHITE_WINS : RULES_BLACK_WINS;
    int end = v->sudden_end ? pos_game_end(pos) : 0;
    if (end) {
        bool bare = v->bare_king_loss && (pos->pcount[WHITE] == 1 || pos->pcount[BLACK] == 1);
        r.outcome = end < 0 ? they_win : we_win;
        snprintf(r.reason, sizeof r.reason, "%s", bare ? "bare king" : "reached the enemy corner");
        return r;
    }
    MoveList l;
    movegen_legal(pos, &l);
    if (l.n == 0) {
        if (movegen_in_check(pos)) {
            r.outcome = they_win;
            snprintf(r.reason, sizeof r.reason, "checkmate");
        } else {
            r.outcome = v->stalemate_loss ? they_win : RULES_DRAW;
            snprintf(r.reason, sizeof r.reason, "stalemate");
        }
        return r;
    }
    if (v->move_rule && pos->halfmove >= 2 * v->move_rule) {
        r.outcome = RULES_DRAW;
        snprintf(r.reason, sizeof r.reason, "%d-move rule", v->move_rule);
        return r;
    }
    if (pos_repetitions(pos) >= 2) {
        r.outcome = RULES_DRAW;
        snprintf(r.reason, sizeof r.reason, "threefold repetition");
        return r;
    }
    if (!rules_mating_potential(pos, WHITE) && !rules_mating_potential(pos, BLACK)) {
        r.outcome = RULES_DRAW;
        snprintf(r.reason, sizeof r.reason, "insufficient mating material");
    }
    return r;
}
