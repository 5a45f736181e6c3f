/* rules.c - game end for chess-like variants (see rules.h). */
#include "core/rules.h"

#include <stdio.h>
#include <string.h>

#include "core/movegen.h"

/* A side's material other than its royal piece: on the board, at gates and
 * in hand (those may still come in: a gate's piece on its file's back-rank
 * square, a piece in hand on a square of either colour). */
typedef struct {
    uint8_t count[MAX_TYPES];
    int n;
    int colors; /* bit 0/1: a colour-bound piece stands on that square colour */
    bool all_bound, promoter;
} Material;

static void add_piece(const Variant *v, Material *m, int t, int colors) {
    if (t == v->royal)
        return;
    m->promoter |= v->type[t].promotes;
    m->count[t]++;
    m->n++;
    m->all_bound &= v->type[t].colorbound;
    m->colors |= colors;
}

static void material(const Position *pos, int c, Material *m) {
    const Variant *v = pos->v;
    memset(m, 0, sizeof *m);
    m->all_bound = true;
    for (int i = 0; i < pos->pcount[c]; i++) {
        int sq = pos->plist[c][i];
        add_piece(v, m, piece_type(pos->board[sq]), 1 << ((sq_file(v, sq) + sq_rank(v, sq)) & 1));
    }
    for (int f = 0; f < v->files; f++)
        if (pos->gate[c][f]) /* it comes in on its file's back-rank square */
            add_piece(v, m, piece_type(pos->gate[c][f]), 1 << ((f + v->back_rank[c]) & 1));
    for (int t = 1; t <= v->ntypes; t++)
        for (int k = 0; k < pos->hand[c][t]; k++)
            add_piece(v, m, t, 3);
}

/* The variant's `insufficient` list names what a side may have and still
 * lack mating potential: "-" nothing, "*" any one piece, letters such as
 * "NM" exactly those pieces, "bound" only colour-bound pieces all on one
 * square colour. A side with a promoting piece (a pawn) never lacks it. */
static bool potential(const Variant *v, const Material *m) {
    if (!v->ninsuf || m->promoter)
        return true;
    for (int i = 0; i < v->ninsuf; i++) {
        const MaterialRule *in = &v->insuf[i];
        switch (in->kind) {
        case INSUF_NONE:
            if (m->n == 0)
                return false;
            break;
        case INSUF_ANY_ONE:
            if (m->n == 1)
                return false;
            break;
        case INSUF_BOUND:
            if (m->n > 0 && m->all_bound && m->colors != 3)
                return false;
            break;
        case INSUF_SET:
            if (m->n == in->n && !memcmp(m->count, in->count, sizeof m->count))
                return false;
            break;
        }
    }
    return true;
}

bool rules_mating_potential(const Position *pos, int c) {
    Material m;
    material(pos, c, &m);
    return potential(pos->v, &m);
}

bool rules_dead_material(const Position *pos) {
    const Variant *v = pos->v;
    if (!v->ninsuf)
        return false;
    Material m[2];
    material(pos, WHITE, &m[WHITE]);
    material(pos, BLACK, &m[BLACK]);
    if (!v->material_dead)
        return !potential(v, &m[WHITE]) && !potential(v, &m[BLACK]);
    /* FIDE's dead position: a bare king against what cannot mate it, or
     * only colour-bound pieces on both sides, all on one square colour. */
    for (int c = 0; c < 2; c++)
        if (m[!c].n == 0 && !potential(v, &m[c]))
            return true;
    return m[WHITE].all_bound && m[BLACK].all_bound && !m[WHITE].promoter && !m[BLACK].promoter &&
           (m[WHITE].colors | m[BLACK].colors) != 3;
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
    if (rules_dead_material(pos)) {
        r.outcome = RULES_DRAW;
        snprintf(r.reason, sizeof r.reason, "insufficient mating material");
    }
    return r;
}
