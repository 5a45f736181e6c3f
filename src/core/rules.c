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
    if (!v->insufficient[0])
        return true;
    char have[64];
    int n = 0, colors = 0;
    bool all_bound = true;
    for (int i = 0; i < pos->pcount[c]; i++) {
        int sq = pos->plist[c][i];
        int t = piece_type(pos->board[sq]);
        if (t == v->royal)
            continue;
        if (v->type[t].promotes)
            return true;
        if (n < 63)
            have[n++] = v->type[t].letter;
        all_bound &= v->type[t].colorbound;
        colors |= 1 << ((sq_file(v, sq) + sq_rank(v, sq)) & 1);
    }
    have[n] = 0;
    char list[128];
    snprintf(list, sizeof list, "%s", v->insufficient);
    for (char *e = strtok(list, ","); e; e = strtok(NULL, ",")) {
        if (!strcmp(e, "-") && n == 0)
            return false;
        if (!strcmp(e, "*") && n == 1)
            return false;
        if (!strcmp(e, "bound") && n > 0 && all_bound && colors != 3)
            return false;
        if ((int)strlen(e) == n && strcmp(e, "bound") != 0) {
            /* same multiset of letters */
            char a[64], b[64];
            strcpy(a, e);
            strcpy(b, have);
            int used[64] = {0}, ok = 1;
            for (int i = 0; i < n && ok; i++) {
                ok = 0;
                for (int j = 0; j < n; j++)
                    if (!used[j] && b[j] == a[i]) {
                        used[j] = 1;
                        ok = 1;
                        break;
                    }
            }
            if (ok)
                return false;
        }
    }
    return true;
}

RulesResult rules_result(Position *pos) {
    const Variant *v = pos->v;
    RulesResult r = {RULES_ONGOING, ""};
    int us = pos->stm;
    RulesOutcome they_win = us == WHITE ? RULES_BLACK_WINS : RULES_WHITE_WINS;
    if (v->nwin[0] && pos_game_won(pos)) {
        r.outcome = they_win;
        snprintf(r.reason, sizeof r.reason, "reached the enemy corner");
        return r;
    }
    MoveList l;
    movegen_legal(pos, &l);
    if (l.n == 0) {
        if (movegen_in_check(pos)) {
            r.outcome = they_win;
            snprintf(r.reason, sizeof r.reason, "checkmate");
        } else {
            r.outcome = RULES_DRAW;
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
