/* eval.c - static evaluation (see eval.h). */
#include "search/eval.h"

#include "core/rules.h"

#include <ctype.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FAR 255 /* distance: unreachable */

/* The tunable weights besides the per-piece ones: names (as in `eval=`
 * lines of a definition file) and defaults. */
enum {
    W_TEMPO,
    W_PAIR_MG,
    W_PAIR_EG,
    W_MOB_MG,
    W_MOB_EG,
    W_PSQ_MOB,
    W_KING_HOME,
    W_KING_MOB_MG,
    W_KING_MOB_EG,
    W_KING_CENTRE,
    W_PAWN_ADV_MG,
    W_PAWN_CENTRE,
    W_PAWN_ADV_EG,
    W_PAWN_ADV_EG1,
    W_DANGER,
    W_DANGER_MAX,
    W_SHELTER_PAWN,
    W_SHELTER_PIECE,
    W_ISO_MG,
    W_ISO_EG,
    W_DBL_MG,
    W_DBL_EG,
    W_PASSED_MG,
    W_PASSED_EG,
    W_PASSED_BASE_MG,
    W_PASSED_BASE_EG,
    W_PASSED_KING,
    W_RACE_KING,
    W_RACE_PAWN,
    W_GATE_MG,
    W_GATE_EG,
    W_GATE_MINOR,
    W_GATE_MAJOR,
    W_GATE_KING,
    W_HAND,
    W_THREAT_PAWN_MG,
    W_THREAT_PAWN_EG,
    W_THREAT_PIECE_MG,
    W_THREAT_PIECE_EG,
    W_HANGING_MG,
    W_HANGING_EG,
    W_SAFE_CHECK,
    W_OPEN_MG,
    W_OPEN_EG,
    W_SEMI_MG,
    W_SEMI_EG,
    W_FREE_MG,
    W_FREE_EG,
    W_CONN_MG,
    W_CONN_EG,
    W_SCALE_BASE,
    W_SCALE_PAWN,
    W_SCALE_OCB,
    W_SCALE_OCB_PAWN,
    W_BOUND_PAWN_MG,
    W_BOUND_PAWN_EG,
    W_INITIATIVE,
    NW
};
static const struct {
    const char *name;
    int def;
} wdef[NW] = {
    {"tempo", 12},
    {"pair.mg", 25},
    {"pair.eg", 45},
    {"mob.mg", 22},
    {"mob.eg", 26},
    {"psq.mob", 60},
    {"king.home", 14},
    {"king.mob.mg", 4},
    {"king.mob.eg", 6},
    {"king.centre", 20},
    {"pawn.adv.mg", 20},
    {"pawn.centre", 12},
    {"pawn.adv.eg", 40},
    {"pawn.adv.eg1", 10},
    {"danger", 10},
    {"danger.max", 700},
    {"shelter.pawn", 14},
    {"shelter.piece", 5},
    {"iso.mg", 8},
    {"iso.eg", 12},
    {"dbl.mg", 6},
    {"dbl.eg", 14},
    {"passed.mg", 70},
    {"passed.eg", 170},
    {"passed.base.mg", 5},
    {"passed.base.eg", 12},
    {"passed.king", 8},
    {"race.king", 100},
    {"race.pawn", 100},
    {"gate.mg", 15},
    {"gate.eg", 14},
    {"gate.minor", 12},
    {"gate.major", -8},
    {"gate.king", -20},
    {"hand", 16},
    {"threat.pawn.mg", 80},
    {"threat.pawn.eg", 50},
    {"threat.piece.mg", 40},
    {"threat.piece.eg", 40},
    {"hanging.mg", 35},
    {"hanging.eg", 20},
    {"check.safe", 3},
    {"file.open.mg", 40},
    {"file.open.eg", 20},
    {"file.semi.mg", 20},
    {"file.semi.eg", 8},
    {"passed.free.mg", 40},
    {"passed.free.eg", 120},
    {"pawn.conn.mg", 0},
    {"pawn.conn.eg", 0},
    {"scale.base", 64},
    {"scale.pawn", 0},
    {"scale.ocb", 64},
    {"scale.ocb.pawn", 0},
    {"bound.pawn.mg", 0},
    {"bound.pawn.eg", 0},
    {"initiative", 0},
};
/* Per piece type (not the royal one): "L.mg", "L.eg" values and "L.mob",
 * its mobility weight in percent. */
enum { TW_MG, TW_EG, TW_MOB, NTW };
static const char *const twname[NTW] = {"mg", "eg", "mob"};
/* Mobility weights per number of moves ("L.mob3.mg"), the last for that
 * many or more. */
#define MOB_COUNTS 32

struct Eval {
    const Variant *v;
    int w[NW];
    int tw[MAX_TYPES][NTW];
    double mexp[2][MAX_TYPES][MAX_SQ]; /* expected mobility (king: empty board) */
    double mavg[MAX_TYPES];            /* its average over the board */
    double mpiece[MAX_TYPES];          /* average mobility, board one third full */
    Position *start;
    int value[MAX_TYPES], value_eg[MAX_TYPES];
    uint32_t pawns;       /* bit t: type t promotes */
    uint32_t pieces;      /* bit t: neither royal nor promoting */
    uint32_t mirrored;    /* bit t: attacks b from a as the other colour would a from b */
    uint32_t file_riders; /* bit t: a piece that rides along files */
    int16_t psq_mg[64][MAX_SQ], psq_eg[64][MAX_SQ]; /* material included */
    int16_t sqw[MAX_TYPES][2][MAX_SQ];              /* square weights, White's view: [t][eg][sq] */
    int16_t mobw[MAX_TYPES][2][MOB_COUNTS];         /* per number of moves: [t][eg][moves] */
    uint32_t mob_tables;                            /* bit t: type t has such weights set */
    int mob_avg16[MAX_TYPES];                       /* expected mobility x16 */
    int mob_mg[MAX_TYPES], mob_eg[MAX_TYPES];       /* per move, x16 */
    int katk[MAX_TYPES];                            /* king-attack weight */
    int npm_start;                                  /* both sides' piece material at start */
    uint8_t nnbr[MAX_SQ], nbr[MAX_SQ][8];           /* king-step neighbours */
    uint8_t nshelter[2][MAX_SQ], shelter[2][MAX_SQ][12];
    uint8_t promo_dist[2][MAX_TYPES][MAX_SQ]; /* moves to the promotion zone */
    uint8_t promo_span[2][MAX_TYPES];         /* that distance from the start */
    uint8_t race_dist[2][MAX_TYPES][MAX_SQ];  /* moves to a win square */
    bool orthodox_pawns;                      /* pawns move along files */
    SquareSet *reach; /* [(c * MAX_TYPES + t) * nsq + sq]: one move away, empty board */
    uint8_t file[MAX_SQ], rank[MAX_SQ];
};

/* ---- estimating from the move trees ------------------------------------ */

/* Expected destinations of type t on sq when each other square is occupied
 * with probability p (captures and plain moves count half each). */
static double expected_mobility(const Variant *v, int c, int t, int sq, double p) {
    Span sp = v->tree[(c * MAX_TYPES + t) * v->nsq + sq];
    const Node *nd = v->nodes + sp.start;
    double best[MAX_SQ], weight[MAX_SQ];
    memset(best, 0, sizeof best);
    /* explicit stack of (end, probability) for the DFS */
    uint32_t end[64];
    double prob[64];
    int top = 0;
    end[0] = sp.len;
    prob[0] = 1.0;
    for (uint32_t i = 0; i < sp.len;) {
        while (top > 0 && i >= end[top])
            top--;
        double pr = prob[top];
        const Node *n = &nd[i];
        if (n->flags & (NF_MOVE | NF_CAPT)) { /* reached by any of its paths */
            best[n->sq] = 1 - (1 - best[n->sq]) * (1 - pr);
            weight[n->sq] = 0;
            if (n->flags & NF_MOVE)
                weight[n->sq] += 0.5 * (1 - p);
            if (n->flags & NF_CAPT)
                weight[n->sq] += 0.5 * (p > 0 ? 1.0 : 0.5);
        }
        double pass = 0;
        if (n->flags & NF_PASS_EMPTY)
            pass += 1 - p;
        if (n->flags & NF_PASS_OCC)
            pass += p;
        if (n->skip > i + 1 && pass > 0 && top < 63) {
            top++;
            end[top] = n->skip;
            prob[top] = pr * pass;
            i++;
        } else {
            i = n->skip > i + 1 ? n->skip : i + 1;
        }
    }
    double m = 0;
    for (int s = 0; s < v->nsq; s++)
        if (best[s] > 0)
            m += best[s] * weight[s];
    return m;
}

static double average_mobility(const Variant *v, int t, double p) {
    double sum = 0;
    int n = 0;
    for (int s = 0; s < v->nsq; s++) {
        if (v->is_hole[s])
            continue;
        sum += expected_mobility(v, WHITE, t, s, p);
        n++;
    }
    return n ? sum / n : 0;
}

/* Forward bias: share of the piece's moves that go toward the enemy. A
 * piece that cannot retreat is worth less than its move count says. */
static double backward_share(const Variant *v, int t) {
    int fwd = 0, back = 0;
    for (int s = 0; s < v->nsq; s++) {
        Span sp = v->tree[(WHITE * MAX_TYPES + t) * v->nsq + s];
        for (uint32_t i = 0; i < sp.len; i++) {
            const Node *n = &v->nodes[sp.start + i];
            if (!(n->flags & (NF_MOVE | NF_CAPT)))
                continue;
            int dy = sq_rank(v, n->sq) - sq_rank(v, s);
            fwd += dy > 0;
            back += dy < 0;
        }
    }
    return fwd + back ? (double)back / (fwd + back) : 0.5;
}

int eval_estimate_value(const Variant *v, int t) {
    if (t == v->royal)
        return 0;
    if (v->promoting >> t & 1)
        return 100;
    /* Calibrated on orthodox chess (N 327, B 325, R 513, Q 951), moves
     * counted on a board one third full: about 92 cp a move. */
    double m = average_mobility(v, t, 1.0 / 3);
    double val = 92.0 * m - 75.0;
    double share = backward_share(v, t);
    if (share < 0.25)
        val *= 0.65 + 1.4 * share; /* mostly forward pieces */
    if (v->type[t].colorbound)
        val *= 0.90;
    if (val < 60)
        val = 60;
    return (int)(val + 0.5);
}

/* Breadth-first distances (moves on an empty board) from every square to
 * the nearest target square, for type t of colour c; FAR if none. Squares
 * in stop (promotion zone) end a path: the piece is no longer itself. */
static void distances(const Variant *v, int c, int t, const SquareSet *target,
                      const SquareSet *stop, uint8_t *out) {
    for (int s = 0; s < v->nsq; s++) {
        uint8_t dist[MAX_SQ], queue[MAX_SQ];
        memset(dist, FAR, sizeof dist);
        int head = 0, tail = 0;
        out[s] = FAR;
        if (v->is_hole[s])
            continue;
        if (sqset_has(target, s)) {
            out[s] = 0;
            continue;
        }
        dist[s] = 0;
        queue[tail++] = (uint8_t)s;
        while (head < tail && out[s] == FAR) {
            int from = queue[head++];
            if (from != s && stop && sqset_has(stop, from))
                continue;
            Span sp = v->tree[(c * MAX_TYPES + t) * v->nsq + from];
            for (uint32_t i = 0; i < sp.len; i++) {
                const Node *n = &v->nodes[sp.start + i];
                if (!(n->flags & (NF_MOVE | NF_CAPT)) || dist[n->sq] != FAR)
                    continue;
                dist[n->sq] = (uint8_t)(dist[from] + 1);
                if (sqset_has(target, n->sq)) {
                    out[s] = dist[n->sq];
                    break;
                }
                queue[tail++] = n->sq;
            }
        }
    }
}

static int chebyshev(const Variant *v, int a, int b) {
    int dx = abs(sq_file(v, a) - sq_file(v, b)), dy = abs(sq_rank(v, a) - sq_rank(v, b));
    return dx > dy ? dx : dy;
}

int eval_piece_value(const Eval *e, int t) {
    return e->value[t];
}

/* Values, mobility weights and square tables from the weights (again after
 * a weight changes). */
static void build_tables(Eval *e) {
    const Variant *v = e->v;
    const Position *start = e->start;
    const int *w = e->w;

    // Step 1. Piece values and mobility figures.
    e->mob_tables = 0;
    for (int t = 1; t <= v->ntypes; t++) {
        if (t == v->royal)
            continue;
        int val = e->tw[t][TW_MG];
        e->value[t] = val;
        e->value_eg[t] = e->tw[t][TW_EG];
        double m = e->mpiece[t];
        double wt = m > 1 ? 1.0 / sqrt(m) : 1.0;
        e->mob_mg[t] = (int)(16 * w[W_MOB_MG] * wt);
        e->mob_eg[t] = (int)(16 * w[W_MOB_EG] * wt);
        if (e->tw[t][TW_MOB] != 100) {
            e->mob_mg[t] = e->mob_mg[t] * e->tw[t][TW_MOB] / 100;
            e->mob_eg[t] = e->mob_eg[t] * e->tw[t][TW_MOB] / 100;
        }
        e->katk[t] = val < 250 ? 1 : val < 450 ? 2 : val < 700 ? 3 : 5;
        for (int k = 0; k < MOB_COUNTS; k++)
            if (e->mobw[t][0][k] || e->mobw[t][1][k])
                e->mob_tables |= 1u << t;
    }
    e->npm_start = 0;
    for (int c = 0; c < 2; c++)
        for (int i = 0; i < start->pcount[c]; i++) {
            int t = piece_type(start->board[start->plist[c][i]]);
            if (e->pieces >> t & 1)
                e->npm_start += e->value[t];
        }
    for (int c = 0; c < 2; c++) {
        for (int f = 0; f < v->files; f++)
            if (start->gate[c][f])
                e->npm_start += e->value[piece_type(start->gate[c][f])];
        for (int t = 1; t <= v->ntypes; t++)
            e->npm_start += start->hand[c][t] * e->value[t];
    }
    if (e->npm_start < 1)
        e->npm_start = 1;

    // Step 2. Square tables, material included.
    for (int c = 0; c < 2; c++)
        for (int t = 1; t <= v->ntypes; t++) {
            Piece p = make_piece(c, t);
            double avg = e->mavg[t];
            for (int s = 0; s < v->nsq; s++) {
                if (v->is_hole[s])
                    continue;
                double mg = e->value[t], eg = e->value_eg[t];
                double m = e->mexp[c][t][s];
                if (t == v->royal) {
                    int home;
                    if (v->rotate_black)
                        home = chebyshev(v, s, start->king[c]);
                    else
                        home = abs(sq_rank(v, s) - v->back_rank[c]);
                    mg -= w[W_KING_HOME] * home + w[W_KING_MOB_MG] * (m - avg);
                    eg += w[W_KING_MOB_EG] * (m - avg);
                    /* the middle files are no place for a king */
                    if (!v->rotate_black) {
                        double fx = sq_file(v, s) - (v->files - 1) / 2.0;
                        mg -= w[W_KING_CENTRE] * (v->files / 2.0 - fabs(fx)) / (v->files / 2.0);
                    }
                } else if (e->pawns >> t & 1) {
                    int d = e->promo_dist[c][t][s];
                    int span = e->promo_span[c][t] ? e->promo_span[c][t] : 1;
                    double prog = d == FAR ? 0 : 1.0 - (double)d / span;
                    if (prog < 0)
                        prog = 0;
                    double fx = fabs(sq_file(v, s) - (v->files - 1) / 2.0) / (v->files / 2.0);
                    if (v->rotate_black)
                        fx = 0;
                    mg += w[W_PAWN_ADV_MG] * prog +
                          w[W_PAWN_CENTRE] * (1 - fx) * (prog > 0.05 && prog < 0.7 ? 1 : 0.3);
                    eg += w[W_PAWN_ADV_EG] * prog * prog + w[W_PAWN_ADV_EG1] * prog;
                } else {
                    double wm = e->mob_mg[t] / 16.0 * (w[W_PSQ_MOB] / 100.0);
                    mg += wm * (m - avg);
                    eg += wm * 0.8 * (m - avg);
                }
                int ws = variant_view_square(v, c, s);
                e->psq_mg[p][s] = (int16_t)lrint(mg + e->sqw[t][0][ws]);
                e->psq_eg[p][s] = (int16_t)lrint(eg + e->sqw[t][1][ws]);
            }
        }
}

/* Files, ranks, king-step neighbours and the pawn shelter squares. */
static void init_geometry(Eval *e) {
    const Variant *v = e->v;
    int nsq = v->nsq;
    for (int s = 0; s < nsq; s++) {
        e->file[s] = (uint8_t)sq_file(v, s);
        e->rank[s] = (uint8_t)sq_rank(v, s);
    }
    for (int s = 0; s < nsq; s++) {
        if (v->is_hole[s])
            continue;
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                int x = sq_file(v, s) + dx, y = sq_rank(v, s) + dy;
                if ((!dx && !dy) || x < 0 || y < 0 || x >= v->files || y >= v->ranks)
                    continue;
                int n = y * v->files + x;
                if (!v->is_hole[n])
                    e->nbr[s][e->nnbr[s]++] = (uint8_t)n;
            }
    }
    int pawn_type = 0;
    for (int t = 1; t <= v->ntypes; t++)
        if (e->pawns >> t & 1) {
            pawn_type = t;
            break;
        }
    for (int c = 0; c < 2 && pawn_type; c++)
        for (int s = 0; s < nsq; s++) {
            /* squares a pawn on the king's square would move to, and beyond */
            Span sp = v->tree[(c * MAX_TYPES + pawn_type) * nsq + s];
            for (uint32_t i = 0; i < sp.len && e->nshelter[c][s] < 12; i++) {
                const Node *n = &v->nodes[sp.start + i];
                if (!(n->flags & NF_MOVE) || chebyshev(v, s, n->sq) != 1)
                    continue;
                e->shelter[c][s][e->nshelter[c][s]++] = n->sq;
            }
            for (int dx = -1; dx <= 1 && !v->rotate_black; dx++) {
                int x = sq_file(v, s) + dx, y = sq_rank(v, s) + (c == WHITE ? 1 : -1);
                if (x < 0 || y < 0 || x >= v->files || y >= v->ranks)
                    continue;
                int n = y * v->files + x;
                bool dup = false;
                for (int k = 0; k < e->nshelter[c][s]; k++)
                    dup |= e->shelter[c][s][k] == n;
                if (!dup && e->nshelter[c][s] < 12)
                    e->shelter[c][s][e->nshelter[c][s]++] = (uint8_t)n;
            }
        }
    e->orthodox_pawns = !v->rotate_black;
    /* riders along files (in games whose pawns move along files): from a
     * first-rank square, half the file or more in one move on an empty
     * board */
    for (int t = 1; t <= v->ntypes && e->orthodox_pawns; t++) {
        int s = v->files / 2, n = 0;
        if (!(e->pieces >> t & 1) || v->is_hole[s])
            continue;
        Span sp = v->tree[(WHITE * MAX_TYPES + t) * nsq + s];
        for (uint32_t i = 0; i < sp.len; i++) {
            const Node *nd = &v->nodes[sp.start + i];
            n += (nd->flags & NF_MOVE) && sq_file(v, nd->sq) == v->files / 2;
        }
        if (2 * n >= v->ranks)
            e->file_riders |= 1u << t;
    }
}

/* Distances: promotion for pawns, win squares for racers. */
static void init_distances(Eval *e) {
    const Variant *v = e->v;
    const Position *start = e->start;
    for (int c = 0; c < 2; c++)
        for (int t = 1; t <= v->ntypes; t++) {
            memset(e->promo_dist[c][t], FAR, sizeof e->promo_dist[c][t]);
            memset(e->race_dist[c][t], FAR, sizeof e->race_dist[c][t]);
            if (e->pawns >> t & 1)
                distances(v, c, t, &v->promo_zone[c], NULL, e->promo_dist[c][t]);
            if ((v->win_types >> t & 1) && v->nwin[c])
                distances(v, c, t, &v->win_sq[c], (e->pawns >> t & 1) ? &v->promo_zone[c] : NULL,
                          e->race_dist[c][t]);
        }
    for (int t = 1; t <= v->ntypes; t++) {
        if (!(e->pawns >> t & 1))
            continue;
        for (int c = 0; c < 2; c++) {
            int span = 1;
            for (int i = 0; i < start->pcount[c]; i++) {
                int s = start->plist[c][i];
                if (piece_type(start->board[s]) == t && e->promo_dist[c][t][s] != FAR &&
                    e->promo_dist[c][t][s] > span)
                    span = e->promo_dist[c][t][s];
            }
            e->promo_span[c][t] = (uint8_t)span;
        }
    }
}

/* The weights: defaults and estimates, then the variant's `eval=` lines. */
static void init_weights(Eval *e) {
    const Variant *v = e->v;
    for (int i = 0; i < NW; i++)
        e->w[i] = wdef[i].def;
    for (int t = 1; t <= v->ntypes; t++) {
        if (t == v->royal)
            continue;
        int val = v->type[t].value ? v->type[t].value : eval_estimate_value(v, t);
        e->tw[t][TW_MG] = val;
        e->tw[t][TW_EG] = (v->promoting >> t & 1) ? val * 13 / 10 : val + val / 16;
        e->tw[t][TW_MOB] = 100;
    }
    char buf[sizeof v->eval], *save = NULL;
    snprintf(buf, sizeof buf, "%s", v->eval);
    for (char *item = strtok_r(buf, " ", &save); item; item = strtok_r(NULL, " ", &save)) {
        char *colon = strchr(item, ':');
        if (!colon)
            continue;
        *colon = 0;
        int i = eval_weight_index(e, item);
        if (i >= 0)
            eval_weight_set(e, i, atoi(colon + 1));
    }
}

Eval *eval_new(const Variant *v) {
    Eval *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->v = v;
    int nsq = v->nsq;
    char err[160];
    e->start = malloc(sizeof *e->start);
    e->reach = calloc((size_t)2 * MAX_TYPES * nsq, sizeof *e->reach);
    if (!e->start || !e->reach || pos_from_fen(e->start, v, NULL, err, sizeof err)) {
        eval_free(e);
        return NULL;
    }

    // Step 1. Kinds of pieces and what the move trees say of them.
    for (int t = 1; t <= v->ntypes; t++) {
        if (t == v->royal)
            continue;
        if (v->promoting >> t & 1)
            e->pawns |= 1u << t;
        else
            e->pieces |= 1u << t;
        e->mpiece[t] = average_mobility(v, t, 1.0 / 3);
        e->mob_avg16[t] = (int)(e->mpiece[t] * 16);
    }
    for (int t = 1; t <= v->ntypes; t++) {
        double p = t == v->royal ? 0 : 1.0 / 3;
        e->mavg[t] = average_mobility(v, t, p);
        for (int c = 0; c < 2; c++)
            for (int s = 0; s < nsq; s++)
                if (!v->is_hole[s] && !(e->pawns >> t & 1))
                    e->mexp[c][t][s] = expected_mobility(v, c, t, s, p);
    }

    // Step 2. Geometry and distances.
    init_geometry(e);
    init_distances(e);

    // Step 3. Weights and the tables made from them.
    init_weights(e);
    build_tables(e);

    // Step 4. Where each piece could go in one move (a quick filter).
    for (int c = 0; c < 2; c++)
        for (int t = 1; t <= v->ntypes; t++)
            for (int s = 0; s < nsq; s++) {
                Span sp = v->tree[(c * MAX_TYPES + t) * nsq + s];
                SquareSet *r = &e->reach[(c * MAX_TYPES + t) * nsq + s];
                for (uint32_t i = 0; i < sp.len; i++)
                    if (v->nodes[sp.start + i].flags & NF_CAPT)
                        sqset_add(r, v->nodes[sp.start + i].sq);
            }

    // Step 5. Pieces whose checking squares a walk from the king finds.
    for (int t = 1; t <= v->ntypes; t++) {
        bool mirrored = e->pieces >> t & 1;
        for (int a = 0; a < nsq && mirrored; a++)
            for (int b = 0; b < nsq && mirrored; b++)
                mirrored = sqset_has(&e->reach[(WHITE * MAX_TYPES + t) * nsq + a], b) ==
                           sqset_has(&e->reach[(BLACK * MAX_TYPES + t) * nsq + b], a);
        if (mirrored)
            e->mirrored |= 1u << t;
    }
    return e;
}

/* ---- weights by name (tuning) ---------------------------------------------- */

/* The weights in index order: the global ones, NTW per piece type, the
 * square weights, 2 x nsq per type (the middle game's, the endgame's),
 * then the mobility weights, 2 x MOB_COUNTS per type. */
static int piece_weights_end(const Eval *e) {
    return NW + NTW * e->v->ntypes;
}

static int square_weights_end(const Eval *e) {
    return piece_weights_end(e) + 2 * e->v->ntypes * e->v->nsq;
}

int eval_weight_count(const Eval *e) {
    return square_weights_end(e) + 2 * e->v->ntypes * MOB_COUNTS;
}

bool eval_weight_square(const Eval *e, int i, int *t, int *sq, int *eg) {
    int j = i - piece_weights_end(e), nsq = e->v->nsq;
    if (j < 0 || i >= square_weights_end(e))
        return false;
    *t = j / (2 * nsq) + 1;
    *eg = j / nsq % 2;
    *sq = j % nsq;
    return !e->v->is_hole[*sq];
}

int eval_square_weight(const Eval *e, int c, int t, int sq, int eg) {
    const Variant *v = e->v;
    if (t < 1 || t > v->ntypes || sq < 0 || sq >= v->nsq || v->is_hole[sq])
        return -1;
    return piece_weights_end(e) + ((t - 1) * 2 + (eg != 0)) * v->nsq +
           variant_view_square(v, c, sq);
}

/* Is weight i a mobility weight of a piece that has them? Then its type,
 * number of moves and phase. */
static bool mobility_weight(const Eval *e, int i, int *t, int *moves, int *eg) {
    int j = i - square_weights_end(e);
    if (j < 0 || i >= eval_weight_count(e))
        return false;
    *t = j / (2 * MOB_COUNTS) + 1;
    *eg = j / MOB_COUNTS % 2;
    *moves = j % MOB_COUNTS;
    return e->pieces >> *t & 1;
}

static int mobility_weight_index(const Eval *e, int t, int moves, int eg) {
    return square_weights_end(e) + ((t - 1) * 2 + (eg != 0)) * MOB_COUNTS + moves;
}

bool eval_weight_table(const Eval *e, int i, int *mg, int *eg) {
    int t, x, ph;
    if (eval_weight_square(e, i, &t, &x, &ph)) {
        *mg = eval_square_weight(e, WHITE, t, x, 0);
        *eg = eval_square_weight(e, WHITE, t, x, 1);
        return true;
    }
    if (mobility_weight(e, i, &t, &x, &ph)) {
        *mg = mobility_weight_index(e, t, x, 0);
        *eg = mobility_weight_index(e, t, x, 1);
        return true;
    }
    return false;
}

/* Weight i below piece_weights_end: its type (0 for a global one) and its
 * slot. */
static int weight_slot(int i, int *t) {
    if (i < NW) {
        *t = 0;
        return i;
    }
    *t = (i - NW) / NTW + 1;
    return (i - NW) % NTW;
}

bool eval_weight_name(const Eval *e, int i, char *buf, size_t len) {
    const Variant *v = e->v;
    int t, sq, eg;
    if (i < 0 || i >= eval_weight_count(e))
        return false;
    if (eval_weight_square(e, i, &t, &sq, &eg)) {
        char sqname[16];
        variant_square_name(v, sq, sqname);
        snprintf(buf, len, "%c.%s.%s", v->type[t].letter, sqname, eg ? "eg" : "mg");
        return true;
    }
    int moves;
    if (mobility_weight(e, i, &t, &moves, &eg)) {
        snprintf(buf, len, "%c.mob%d.%s", v->type[t].letter, moves, eg ? "eg" : "mg");
        return true;
    }
    if (i >= piece_weights_end(e))
        return false;
    int k = weight_slot(i, &t);
    if (t && t == v->royal)
        return false;
    if (t)
        snprintf(buf, len, "%c.%s", v->type[t].letter, twname[k]);
    else
        snprintf(buf, len, "%s", wdef[k].name);
    return true;
}

/* A square weight's name, "L.SQ.mg" or "L.SQ.eg": its index, else -1. */
static int square_weight_index(const Eval *e, const char *name) {
    const Variant *v = e->v;
    int used = 0;
    if (!name[0] || name[1] != '.' || !name[2] || name[3] == '0')
        return -1;
    int sq = variant_parse_square(v, name + 2, &used);
    const char *p = name + 2 + used;
    if (sq < 0 || (strcmp(p, ".mg") && strcmp(p, ".eg")))
        return -1;
    for (int t = 1; t <= v->ntypes; t++)
        if (v->type[t].letter == name[0])
            return eval_square_weight(e, WHITE, t, sq, p[1] == 'e');
    return -1;
}

/* A mobility weight's name, "L.mobN.mg" or "L.mobN.eg": its index, else -1. */
static int mobility_weight_name_index(const Eval *e, const char *name) {
    const Variant *v = e->v;
    if (!name[0] || strncmp(name + 1, ".mob", 4) || !isdigit((unsigned char)name[5]) ||
        (name[5] == '0' && isdigit((unsigned char)name[6])))
        return -1;
    char *end;
    long moves = strtol(name + 5, &end, 10);
    if (moves >= MOB_COUNTS || (strcmp(end, ".mg") && strcmp(end, ".eg")))
        return -1;
    for (int t = 1; t <= v->ntypes; t++)
        if (v->type[t].letter == name[0] && (e->pieces >> t & 1))
            return mobility_weight_index(e, t, (int)moves, end[1] == 'e');
    return -1;
}

int eval_weight_index(const Eval *e, const char *name) {
    int i = square_weight_index(e, name);
    if (i < 0)
        i = mobility_weight_name_index(e, name);
    if (i >= 0)
        return i;
    char buf[32];
    for (i = 0; i < piece_weights_end(e); i++)
        if (eval_weight_name(e, i, buf, sizeof buf) && !strcmp(buf, name))
            return i;
    return -1;
}

int eval_weight_get(const Eval *e, int i) {
    int t, x, eg; /* x: the square, or the number of moves */
    if (eval_weight_square(e, i, &t, &x, &eg))
        return e->sqw[t][eg][x];
    if (mobility_weight(e, i, &t, &x, &eg))
        return e->mobw[t][eg][x];
    if (i < 0 || i >= piece_weights_end(e)) /* a hole's square, a king's moves */
        return 0;
    int k = weight_slot(i, &t);
    return t ? e->tw[t][k] : e->w[k];
}

void eval_weight_set(Eval *e, int i, int value) {
    int t, x, eg; /* x: the square, or the number of moves */
    int16_t clamped = (int16_t)(value < -2000 ? -2000 : value > 2000 ? 2000 : value);
    if (eval_weight_square(e, i, &t, &x, &eg)) {
        e->sqw[t][eg][x] = clamped;
        return;
    }
    if (mobility_weight(e, i, &t, &x, &eg)) {
        e->mobw[t][eg][x] = clamped;
        return;
    }
    if (i < 0 || i >= piece_weights_end(e))
        return;
    int k = weight_slot(i, &t);
    if (t)
        e->tw[t][k] = value < 1 && k != TW_MOB ? 1 : value;
    else
        e->w[k] = value;
}

void eval_weights_apply(Eval *e) {
    build_tables(e);
}

void eval_free(Eval *e) {
    if (e) {
        free(e->reach);
        free(e->start);
    }
    free(e);
}

bool eval_may_capture(const Eval *e, int c, int t, int from, int to) {
    return sqset_has(&e->reach[(c * MAX_TYPES + t) * e->v->nsq + from], to);
}

/* ---- material draws ------------------------------------------------------ */

bool eval_dead_draw(const Eval *e, const Position *pos) {
    if (!e->v->ninsuf || pos->nhand[0] || pos->nhand[1])
        return false;
    if (pos->pcount[0] + pos->pcount[1] > 8)
        return false;
    return rules_dead_material(pos);
}

bool eval_has_pieces(const Eval *e, const Position *pos, int c) {
    for (int i = 0; i < pos->pcount[c]; i++)
        if (e->pieces >> piece_type(pos->board[pos->plist[c][i]]) & 1)
            return true;
    return false;
}

/* ---- the evaluation ------------------------------------------------------ */

static inline int king_dist(const Eval *e, int a, int b) {
    int dx = abs(e->file[a] - e->file[b]), dy = abs(e->rank[a] - e->rank[b]);
    return dx > dy ? dx : dy;
}

#define LAZY_MARGIN 450
static const int race_king[8] = {0, 420, 220, 120, 60, 30, 14, 6};
static const int race_pawn[8] = {0, 260, 120, 60, 30, 14, 6, 2};

/* What one evaluation gathers as it goes, per colour. */
typedef struct {
    int mg[2], eg[2];
    int npm[2], npawns[2];
    int npieces[2], nbound[2], bound_sq[2]; /* pieces; colour-bound ones, the square of one */
    int npassed;                            /* passed pawns of both sides */
    uint8_t patt[MAX_SQ];                   /* bit c: attacked by a pawn of colour c */
    uint8_t zone[MAX_SQ];                   /* bit c: next to colour c's king */
    uint8_t att[MAX_SQ];                    /* bit c: attacked or guarded by a piece of colour c */
    uint8_t lesser[MAX_SQ];                 /* bit c: attacked by a piece of colour c worth less */
    uint32_t go[2][MAX_SQ];     /* bit t: a piece of type t of colour c may move there */
    uint8_t pawn_sq[2][MAX_SQ]; /* the squares of colour c's npawns[c] pawns */
    uint8_t moves[MAX_SQ];      /* a piece's moves counted by the mobility (capped) */
    uint8_t pawnfile[2][MAX_FILES];
    int8_t pawn_lo[2][MAX_FILES], pawn_hi[2][MAX_FILES]; /* lowest, highest pawn rank per file */
    int katt_n[2], katt_w[2];                            /* attackers of colour c's king zone */
} EvalState;

/* Material and squares; pawn files and attacks; king zones; pairs of
 * colour-bound pieces covering both colours (the bishop pair). */
static void eval_material(const Eval *e, const Position *pos, EvalState *st) {
    const Variant *v = e->v;
    uint8_t shades[2][MAX_TYPES];    /* colour-bound pieces: square colours */
    int on_shade[2][2][2] = {{{0}}}; /* [c][pawn][shade]: colour c's colour-bound pieces, pawns */
    memset(shades, 0, sizeof shades);
    for (int c = 0; c < 2; c++) {
        for (int i = 0; i < pos->pcount[c]; i++) {
            int s = pos->plist[c][i];
            Piece p = pos->board[s];
            int t = piece_type(p);
            st->mg[c] += e->psq_mg[p][s];
            st->eg[c] += e->psq_eg[p][s];
            if (e->pieces >> t & 1) {
                st->npm[c] += e->value[t];
                st->npieces[c]++;
                if (v->type[t].colorbound) {
                    int shade = (e->file[s] + e->rank[s]) & 1;
                    shades[c][t] |= (uint8_t)(1 << shade);
                    on_shade[c][0][shade]++;
                    st->nbound[c]++;
                    st->bound_sq[c] = s;
                }
            } else if (e->pawns >> t & 1) {
                st->pawn_sq[c][st->npawns[c]++] = (uint8_t)s;
                int x = e->file[s], y = e->rank[s];
                on_shade[c][1][(x + y) & 1]++;
                st->pawnfile[c][x]++;
                if (y < st->pawn_lo[c][x])
                    st->pawn_lo[c][x] = (int8_t)y;
                if (y > st->pawn_hi[c][x])
                    st->pawn_hi[c][x] = (int8_t)y;
                Span sp = v->tree[(c * MAX_TYPES + t) * v->nsq + s];
                const Node *nd = v->nodes + sp.start;
                for (uint32_t j = 0; j < sp.len; j++)
                    if (nd[j].flags & NF_CAPT)
                        st->patt[nd[j].sq] |= (uint8_t)(1 << c);
            }
        }
        Square k = pos->king[c];
        if (k != SQ_NONE)
            for (int j = 0; j < e->nnbr[k]; j++)
                st->zone[e->nbr[k][j]] |= (uint8_t)(1 << c);
    }
    for (int c = 0; c < 2; c++) {
        for (int t = 1; t <= v->ntypes; t++)
            if (shades[c][t] == 3) {
                st->mg[c] += e->w[W_PAIR_MG];
                st->eg[c] += e->w[W_PAIR_EG];
            }
        /* own pawns on the colour-bound pieces' squares shut them in */
        int n = on_shade[c][0][0] * on_shade[c][1][0] + on_shade[c][0][1] * on_shade[c][1][1];
        st->mg[c] -= n * e->w[W_BOUND_PAWN_MG];
        st->eg[c] -= n * e->w[W_BOUND_PAWN_EG];
    }
}

/* Pieces waiting at gates or in hand are material too. */
static void eval_gates(const Eval *e, const Position *pos, EvalState *st) {
    const Variant *v = e->v;
    for (int c = 0; c < 2; c++) {
        for (int f = 0; f < v->files; f++) {
            Piece g = pos->gate[c][f];
            if (!g)
                continue;
            int t = piece_type(g), val = e->value[t];
            int front = pos->board[v->back_rank[c] * v->files + f];
            int bonus = 0;
            /* a gate behind a minor piece opens early; behind a rook late */
            if (front && piece_color((Piece)front) == c) {
                int ft = piece_type((Piece)front);
                bonus = ft == v->royal       ? e->w[W_GATE_KING]
                        : e->value[ft] < 400 ? e->w[W_GATE_MINOR]
                                             : e->w[W_GATE_MAJOR];
            }
            st->mg[c] += val * e->w[W_GATE_MG] / 16 + bonus;
            st->eg[c] += e->value_eg[t] * e->w[W_GATE_EG] / 16;
            st->npm[c] += val;
        }
        for (int t = 1; t <= v->ntypes; t++) {
            st->mg[c] += pos->hand[c][t] * e->value[t] * e->w[W_HAND] / 16;
            st->eg[c] += pos->hand[c][t] * e->value_eg[t] * e->w[W_HAND] / 16;
            st->npm[c] += pos->hand[c][t] * e->value[t];
        }
    }
}

/* Game phase, 256 with all pieces on the board, 0 with none. */
static int eval_phase(const Eval *e, const EvalState *st) {
    int phase = (st->npm[0] + st->npm[1]) * 256 / e->npm_start;
    return phase > 256 ? 256 : phase;
}

/* A rider along files of colour c on file x: on a file without pawns of
 * its own side, open (no pawns at all) or half-open. */
static void eval_file(const Eval *e, EvalState *st, int c, int x) {
    if (st->pawnfile[c][x])
        return;
    bool open = !st->pawnfile[!c][x];
    st->mg[c] += e->w[open ? W_OPEN_MG : W_SEMI_MG];
    st->eg[c] += e->w[open ? W_OPEN_EG : W_SEMI_EG];
}

/* Mobility, attacks on the enemy king's zone, what each side attacks or
 * guards (for the threats) and where its pieces may go (for the safe
 * checks). */
static void eval_mobility(const Eval *e, const Position *pos, EvalState *st) {
    const Variant *v = e->v;
    for (int c = 0; c < 2; c++) {
        int them = !c;
        for (int i = 0; i < pos->pcount[c]; i++) {
            int s = pos->plist[c][i];
            int t = piece_type(pos->board[s]);
            if (!(e->pieces >> t & 1))
                continue;
            Span sp = v->tree[(c * MAX_TYPES + t) * v->nsq + s];
            const Node *nd = v->nodes + sp.start;
            int mob = 0, hits = 0;
            for (uint32_t j = 0; j < sp.len;) {
                int to = nd[j].sq;
                Piece q = pos->board[to];
                uint8_t f = nd[j].flags;
                if (st->zone[to] >> them & 1 && (f & NF_CAPT))
                    hits++;
                if (q == EMPTY) {
                    if (f & NF_CAPT)
                        st->att[to] |= (uint8_t)(1 << c);
                    if (f & NF_MOVE)
                        st->go[c][to] |= 1u << t;
                    if ((f & NF_MOVE) && !(st->patt[to] >> them & 1))
                        mob++;
                    j = variant_next(f, nd[j].skip, j, true);
                } else {
                    if (f & NF_CAPT) { /* move trees never reach a hole */
                        st->att[to] |= (uint8_t)(1 << c);
                        if (piece_color(q) != c) {
                            mob++;
                            st->go[c][to] |= 1u << t;
                            int tq = piece_type(q);
                            if (tq != v->royal && e->value[tq] > e->value[t])
                                st->lesser[to] |= (uint8_t)(1 << c);
                        }
                    }
                    j = variant_next(f, nd[j].skip, j, false);
                }
            }
            int d = mob * 16 - e->mob_avg16[t], k = mob < MOB_COUNTS ? mob : MOB_COUNTS - 1;
            st->mg[c] += d * e->mob_mg[t] / 256;
            st->eg[c] += d * e->mob_eg[t] / 256;
            st->moves[s] = (uint8_t)k;
            if (e->mob_tables >> t & 1) {
                st->mg[c] += e->mobw[t][0][k];
                st->eg[c] += e->mobw[t][1][k];
            }
            if (e->file_riders >> t & 1)
                eval_file(e, st, c, e->file[s]);
            if (hits) {
                st->katt_n[them]++;
                st->katt_w[them] += e->katk[t] * (hits > 3 ? 3 : hits) + e->katk[t];
            }
        }
    }
}

/* Threats: enemy pieces attacked by a pawn or by a piece worth less, and
 * enemy pieces attacked but not guarded (hanging). Needs the attacks the
 * mobility walk gathered. */
static void eval_threats(const Eval *e, const Position *pos, EvalState *st) {
    const int *w = e->w;
    for (int c = 0; c < 2; c++) {
        int them = !c;
        for (int i = 0; i < pos->pcount[them]; i++) {
            int s = pos->plist[them][i];
            int t = piece_type(pos->board[s]);
            if (t == e->v->royal)
                continue;
            bool pawn = e->pawns >> t & 1;
            if (!pawn && (st->patt[s] >> c & 1)) {
                st->mg[c] += w[W_THREAT_PAWN_MG];
                st->eg[c] += w[W_THREAT_PAWN_EG];
            } else if (st->lesser[s] >> c & 1) {
                st->mg[c] += w[W_THREAT_PIECE_MG];
                st->eg[c] += w[W_THREAT_PIECE_EG];
            } else if (!pawn && ((st->att[s] | st->zone[s]) >> c & 1) &&
                       !((st->att[s] | st->zone[s] | st->patt[s]) >> them & 1)) {
                st->mg[c] += w[W_HANGING_MG];
                st->eg[c] += w[W_HANGING_EG];
            }
        }
    }
}

/* Does a piece of type t of colour them have a safe check on colour c's
 * king on k: a move to a square, not guarded by c, from which it attacks
 * k? Walks t's moves from k as colour c's (see Eval.mirrored). */
static bool safe_check(const Eval *e, const Position *pos, const EvalState *st, int c, int t,
                       int k) {
    const Variant *v = e->v;
    Span sp = v->tree[(c * MAX_TYPES + t) * v->nsq + k];
    const Node *nd = v->nodes + sp.start;
    for (uint32_t j = 0; j < sp.len;) {
        int sq = nd[j].sq;
        uint8_t f = nd[j].flags;
        if ((f & NF_CAPT) && (st->go[!c][sq] >> t & 1) &&
            !((st->att[sq] | st->patt[sq] | st->zone[sq]) >> c & 1))
            return true;
        j = variant_next(f, nd[j].skip, j, pos->board[sq] == EMPTY);
    }
    return false;
}

/* King safety: attackers near the king, safe checks, and the shelter. */
static void eval_king(const Eval *e, const Position *pos, EvalState *st) {
    for (int c = 0; c < 2; c++) {
        Square k = pos->king[c];
        if (k == SQ_NONE)
            continue;
        int them = !c;
        for (int t = 1; t <= e->v->ntypes; t++)
            if ((e->mirrored >> t & 1) && pos->count[make_piece(them, t)] &&
                safe_check(e, pos, st, c, t, k)) {
                st->katt_n[c]++;
                st->katt_w[c] += e->w[W_SAFE_CHECK];
            }
        int phase_them = st->npm[them] * 256 / e->npm_start;
        if (phase_them > 256)
            phase_them = 256;
        if (st->katt_n[c] >= 2) {
            int danger = st->katt_w[c] * st->katt_w[c] * e->w[W_DANGER] / 4;
            if (danger > e->w[W_DANGER_MAX])
                danger = e->w[W_DANGER_MAX];
            st->mg[c] -= danger * phase_them / 256;
        }
        int shelter = 0;
        for (int j = 0; j < e->nshelter[c][k]; j++) {
            int s = e->shelter[c][k][j];
            Piece p = pos->board[s];
            if (p && p != HOLE && piece_color(p) == c)
                shelter +=
                    (e->pawns >> piece_type(p) & 1) ? e->w[W_SHELTER_PAWN] : e->w[W_SHELTER_PIECE];
        }
        st->mg[c] += shelter * phase_them / 256;
    }
}

/* Is the pawn of colour c and type t on s passed? */
static bool is_passed(const Eval *e, const Position *pos, const EvalState *st, int c, int t,
                      int s) {
    int them = !c, x = e->file[s], y = e->rank[s];
    bool passed = true;
    if (e->orthodox_pawns) {
        /* no enemy pawn ahead on this file or the next ones */
        for (int ox = x > 0 ? x - 1 : 0; ox <= x + 1 && ox < e->v->files && passed; ox++)
            passed = c == WHITE ? st->pawn_hi[them][ox] <= y : st->pawn_lo[them][ox] >= y;
    } else {
        /* any enemy pawn that could stand in the way */
        int d = e->promo_dist[c][t][s];
        for (int j = 0; j < pos->pcount[them] && passed; j++) {
            int o = pos->plist[them][j];
            if ((e->pawns >> piece_type(pos->board[o]) & 1) && king_dist(e, o, s) <= d + 1 &&
                e->promo_dist[c][t][o] < d)
                passed = false;
        }
    }
    return passed;
}

/* How free the way of colour c's passed pawn on s is, d steps along its
 * file from promotion: 2 when no square of it is taken by anything but
 * colour c's pieces nor attacked by the other side, 1 when only the next
 * square is, 0 else. */
static int passed_path(const Eval *e, const Position *pos, const EvalState *st, int c, int s,
                       int d) {
    int them = !c, step = e->v->forward[c];
    for (int k = 1; k <= d; k++) {
        int sq = s + k * step;
        Piece q = pos->board[sq];
        bool own = q != EMPTY && q != HOLE && piece_color(q) == c;
        if ((k == 1 && q != EMPTY) || (q != EMPTY && !own) ||
            ((st->att[sq] | st->patt[sq] | st->zone[sq]) >> them & 1))
            return k == 1 ? 0 : 1;
    }
    return 2;
}

/* Connected pawns (Stockfish's shape): colour c's pawn on s guarded by a
 * pawn or beside one, its rank value (from p2, its progress squared) times
 * two, one more beside a pawn, one less with an enemy pawn ahead on its
 * file, and more when guarded. */
static void eval_connected(const Eval *e, const Position *pos, EvalState *st, int c, int s,
                           int p2) {
    int x = e->file[s], y = e->rank[s], them = !c;
    bool phalanx = false;
    for (int dx = -1; dx <= 1; dx += 2) {
        Piece q = x + dx >= 0 && x + dx < e->v->files ? pos->board[s + dx] : EMPTY;
        phalanx |=
            q != EMPTY && q != HOLE && piece_color(q) == c && (e->pawns >> piece_type(q) & 1);
    }
    bool guarded = st->patt[s] >> c & 1;
    if (!phalanx && !guarded)
        return;
    bool opposed = c == WHITE ? st->pawn_hi[them][x] > y : st->pawn_lo[them][x] < y;
    int u = (6 + p2 / 2) * (2 + phalanx - opposed) + 21 * guarded;
    st->mg[c] += u * e->w[W_CONN_MG] / 100;
    st->eg[c] += u * e->w[W_CONN_EG] / 100;
}

/* Pawn structure: passed, doubled, isolated and connected pawns. */
static void eval_pawns(const Eval *e, const Position *pos, EvalState *st) {
    const int *w = e->w;
    const Variant *v = e->v;
    for (int c = 0; c < 2; c++) {
        int them = !c;
        for (int i = 0; i < st->npawns[c]; i++) {
            int s = st->pawn_sq[c][i];
            int t = piece_type(pos->board[s]);
            int x = e->file[s];
            int d = e->promo_dist[c][t][s];
            int span = e->promo_span[c][t] ? e->promo_span[c][t] : 1;
            int prog = d == FAR ? 0 : 256 - d * 256 / span; /* 0..256 */
            if (prog < 0)
                prog = 0;
            int p2 = prog * prog / 256;
            if (e->orthodox_pawns) {
                bool iso = (x == 0 || !st->pawnfile[c][x - 1]) &&
                           (x == v->files - 1 || !st->pawnfile[c][x + 1]);
                if (iso) {
                    st->mg[c] -= w[W_ISO_MG];
                    st->eg[c] -= w[W_ISO_EG];
                }
                if (st->pawnfile[c][x] > 1) {
                    st->mg[c] -= w[W_DBL_MG];
                    st->eg[c] -= w[W_DBL_EG];
                }
                if (w[W_CONN_MG] || w[W_CONN_EG])
                    eval_connected(e, pos, st, c, s, p2);
            }
            if (!is_passed(e, pos, st, c, t, s) || d == FAR)
                continue;
            st->npassed++;
            st->mg[c] += w[W_PASSED_BASE_MG] + p2 * w[W_PASSED_MG] / 256;
            st->eg[c] += w[W_PASSED_BASE_EG] + p2 * w[W_PASSED_EG] / 256;
            if (e->orthodox_pawns && d > 0) {
                int free = passed_path(e, pos, st, c, s, d);
                st->mg[c] += free * p2 * w[W_FREE_MG] / 512;
                st->eg[c] += free * p2 * w[W_FREE_EG] / 512;
            }
            /* the kings' distances to the pawn matter in the ending */
            if (pos->king[c] != SQ_NONE && pos->king[them] != SQ_NONE)
                st->eg[c] +=
                    (king_dist(e, pos->king[them], s) * 2 - king_dist(e, pos->king[c], s)) * p2 *
                    w[W_PASSED_KING] / 256;
            /* unstoppable: no enemy pieces and the king too far */
            if (!st->npm[them] && pos->king[them] != SQ_NONE &&
                king_dist(e, pos->king[them], s) - (pos->stm == them) > d + 1)
                st->eg[c] += e->value[piece_type(pos->board[s])] * 4;
        }
    }
}

/* Races to win squares (Diamondback corners). */
static void eval_race(const Eval *e, const Position *pos, EvalState *st) {
    const Variant *v = e->v;
    for (int c = 0; c < 2; c++) {
        int them = !c;
        int best_k = FAR, best_p = FAR;
        for (int i = 0; i < pos->pcount[c]; i++) {
            int s = pos->plist[c][i];
            int t = piece_type(pos->board[s]);
            int d = e->race_dist[c][t][s];
            if (d == FAR)
                continue;
            if (t == v->royal) {
                if (d < best_k)
                    best_k = d;
            } else if (d < best_p)
                best_p = d;
        }
        /* a king still on the corner shuts it */
        bool shut = false;
        for (int i = 0; i < v->nwin[c]; i++) {
            Piece q = pos->board[v->win_list[c][i]];
            if (q && piece_color(q) == them && piece_type(q) == v->royal)
                shut = true;
        }
        int div = shut ? 6 : 1;
        if (best_k < 8)
            st->eg[c] += race_king[best_k] * e->w[W_RACE_KING] / 100 / div;
        if (best_p < 8) {
            int r = race_pawn[best_p] * e->w[W_RACE_PAWN] / 100;
            st->mg[c] += r / 2 / div;
            st->eg[c] += r / div;
        }
    }
}

/* Step 1 of the evaluation: a clean state, then material and squares,
 * pawn attacks, gates and hands. */
static void eval_start(const Eval *e, const Position *pos, EvalState *st) {
    const Variant *v = e->v;
    memset(st, 0, offsetof(EvalState, patt));
    memset(st->patt, 0, (size_t)v->nsq);
    memset(st->zone, 0, (size_t)v->nsq);
    memset(st->att, 0, (size_t)v->nsq);
    memset(st->lesser, 0, (size_t)v->nsq);
    memset(st->go[0], 0, (size_t)v->nsq * sizeof st->go[0][0]);
    memset(st->go[1], 0, (size_t)v->nsq * sizeof st->go[1][0]);
    memset(st->pawnfile, 0, sizeof st->pawnfile);
    memset(st->pawn_lo, 127, sizeof st->pawn_lo);
    memset(st->pawn_hi, -1, sizeof st->pawn_hi);
    memset(st->katt_n, 0, sizeof st->katt_n);
    memset(st->katt_w, 0, sizeof st->katt_w);

    eval_material(e, pos, st);
    if (v->gating)
        eval_gates(e, pos, st);
}

int eval_game_phase(const Eval *e, const Position *pos) {
    EvalState st;
    eval_start(e, pos, &st);
    return eval_phase(e, &st);
}

int eval_table_terms(const Eval *e, const Position *pos, int *terms, int max) {
    EvalState st;
    eval_start(e, pos, &st);
    eval_mobility(e, pos, &st);
    int n = 0;
    for (int c = 0; c < 2; c++)
        for (int i = 0; i < pos->pcount[c]; i++) {
            int sq = pos->plist[c][i], t = piece_type(pos->board[sq]);
            int w = eval_square_weight(e, c, t, sq, 0);
            if (w >= 0 && n < max)
                terms[n++] = w << 1 | c;
            if ((e->pieces >> t & 1) && n < max)
                terms[n++] = mobility_weight_index(e, t, st.moves[sq], 0) << 1 | c;
        }
    return n;
}

const char *const eval_term_names[EVAL_TERMS] = {"material", "mobility", "threats",   "king",
                                                 "pawns",    "races",    "initiative"};

/* Term i of out (when not NULL): what st gained since the last term. */
static void note_term(const EvalState *st, EvalTerms *out, int i) {
    if (!out)
        return;
    int mg = st->mg[WHITE] - st->mg[BLACK], eg = st->eg[WHITE] - st->eg[BLACK];
    for (int k = 0; k < i; k++) {
        mg -= out->mg[k];
        eg -= out->eg[k];
    }
    out->mg[i] = mg;
    out->eg[i] = eg;
}

/* Stockfish's initiative: how winnable the position is, from the pawns,
 * passed pawns and kings (one file or rank is one step), moves the score
 * towards or away from a draw without changing its sign (the middle game
 * only away from one). In Stockfish's units (a pawn 213 in the endgame),
 * scaled by the weight in percent. */
static void eval_initiative(const Eval *e, const Position *pos, EvalState *st) {
    const Variant *v = e->v;
    int kw = pos->king[WHITE], kb = pos->king[BLACK];
    if (!e->w[W_INITIATIVE] || kw == SQ_NONE || kb == SQ_NONE || !e->orthodox_pawns)
        return;
    int outflank = abs(e->file[kw] - e->file[kb]) - abs(e->rank[kw] - e->rank[kb]);
    bool low = false, high = false;
    for (int x = 0; x < v->files; x++)
        if (st->pawnfile[WHITE][x] || st->pawnfile[BLACK][x])
            *(x < v->files / 2 ? &low : &high) = true;
    bool infiltration = e->rank[kw] >= v->ranks / 2 + 1 || e->rank[kb] < v->ranks / 2 - 1;
    int c = 9 * st->npassed + 11 * (st->npawns[WHITE] + st->npawns[BLACK]) + 9 * outflank +
            12 * infiltration + 21 * (low && high) + 51 * !(st->npm[WHITE] + st->npm[BLACK]) -
            43 * (!st->npassed && outflank < 0 && !(low && high)) - 100;
    int eg = c * e->w[W_INITIATIVE] / 100, mg = (c + 50) * e->w[W_INITIATIVE] / 100;
    mg = mg < 0 ? mg : 0;
    int mgs = st->mg[WHITE] - st->mg[BLACK], egs = st->eg[WHITE] - st->eg[BLACK];
    st->mg[WHITE] += ((mgs > 0) - (mgs < 0)) * (mg > -abs(mgs) ? mg : -abs(mgs));
    st->eg[WHITE] += ((egs > 0) - (egs < 0)) * (eg > -abs(egs) ? eg : -abs(egs));
}

/* How much of the endgame score, out of 64, colour strong keeps: less
 * with few pawns, less still with one colour-bound piece each of the same
 * kind on squares of different colours (opposite bishops), least with
 * nothing else. */
static int eval_scale(const Eval *e, const Position *pos, const EvalState *st, int strong) {
    const int *w = e->w;
    int a = st->bound_sq[WHITE], b = st->bound_sq[BLACK];
    bool opposite = st->nbound[WHITE] == 1 && st->nbound[BLACK] == 1 &&
                    piece_type(pos->board[a]) == piece_type(pos->board[b]) &&
                    ((e->file[a] + e->rank[a] + e->file[b] + e->rank[b]) & 1);
    if (opposite && st->npieces[WHITE] == 1 && st->npieces[BLACK] == 1)
        return w[W_SCALE_OCB];
    int sf = w[W_SCALE_BASE] + st->npawns[strong] * w[opposite ? W_SCALE_OCB_PAWN : W_SCALE_PAWN];
    return sf < 64 ? sf : 64;
}

/* The full evaluation; with lazy set, returns early (material and squares
 * only, *lazy = true) when that is beyond alpha or beta by a wide margin;
 * with out set (and lazy not), notes the terms there. */
static int evaluate(const Eval *e, const Position *pos, int alpha, int beta, bool *lazy,
                    EvalTerms *out) {
    const Variant *v = e->v;
    EvalState st;

    // Step 1. Material and squares; pawn attacks; gates and hands.
    eval_start(e, pos, &st);
    note_term(&st, out, EVAL_MATERIAL);
    if (lazy && !v->nwin[0]) { /* corner races swing too much for a rough answer */
        int phase = eval_phase(e, &st);
        int s = ((st.mg[WHITE] - st.mg[BLACK]) * phase +
                 (st.eg[WHITE] - st.eg[BLACK]) * (256 - phase)) /
                256;
        if (pos->stm == BLACK)
            s = -s;
        if (s - LAZY_MARGIN >= beta || s + LAZY_MARGIN <= alpha) {
            *lazy = true;
            return s;
        }
    }

    // Step 2. Mobility, threats, king safety, pawns, races.
    eval_mobility(e, pos, &st);
    note_term(&st, out, EVAL_MOBILITY);
    eval_threats(e, pos, &st);
    note_term(&st, out, EVAL_THREATS);
    eval_king(e, pos, &st);
    note_term(&st, out, EVAL_KING);
    eval_pawns(e, pos, &st);
    note_term(&st, out, EVAL_PAWNS);
    if (v->nwin[0])
        eval_race(e, pos, &st);
    note_term(&st, out, EVAL_RACES);
    eval_initiative(e, pos, &st);
    note_term(&st, out, EVAL_INITIATIVE);

    // Step 3. Blend by phase; scale the endgame down (few pawns, opposite
    // bishops) and for mating potential; tempo.
    int phase = eval_phase(e, &st);
    int mgs = st.mg[WHITE] - st.mg[BLACK], egs = st.eg[WHITE] - st.eg[BLACK];
    int score = (mgs * phase + egs * (256 - phase)) / 256;
    if (out) {
        out->phase = phase;
        out->blended = score;
    }
    int sf = eval_scale(e, pos, &st, egs > 0 ? WHITE : BLACK);
    if (sf < 64)
        score = (mgs * phase + egs * sf / 64 * (256 - phase)) / 256;
    int strong = score > 0 ? WHITE : BLACK;
    if (!st.npawns[strong] && pos->pcount[strong] <= 4 && !pos->nhand[strong]) {
        if (!rules_mating_potential(pos, strong))
            score /= 16;
        else if (st.npm[strong] - st.npm[!strong] < 400 && !v->nwin[0])
            score /= 3;
    }
    int tempo = pos->stm == WHITE ? e->w[W_TEMPO] : -e->w[W_TEMPO];
    if (out) {
        out->scaled = score;
        out->tempo = tempo;
    }
    score += tempo;
    return pos->stm == WHITE ? score : -score;
}

int eval_evaluate(const Eval *e, const Position *pos) {
    return evaluate(e, pos, 0, 0, NULL, NULL);
}

int eval_evaluate_lazy(const Eval *e, const Position *pos, int alpha, int beta, bool *lazy) {
    *lazy = false;
    return evaluate(e, pos, alpha, beta, lazy, NULL);
}

int eval_terms(const Eval *e, const Position *pos, EvalTerms *out) {
    memset(out, 0, sizeof *out);
    out->score = evaluate(e, pos, 0, 0, NULL, out);
    return out->score;
}
