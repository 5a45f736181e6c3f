/* history.c - the history tables of move ordering (see history.h). */
#include "search/history.h"

#include <stdlib.h>
#include <string.h>

#define CONT_MAX_BYTES (48u << 20) /* per thread */

void history_init(History *h, const Variant *v) {
    memset(h, 0, sizeof *h);
    h->v = v;
    size_t n = (size_t)2 * (v->ntypes + 1) * v->nsq;
    if (n * n * sizeof(int16_t) <= CONT_MAX_BYTES && (h->cont = calloc(n * n, sizeof(int16_t))))
        h->cont_n = (int)n;
}

void history_free(History *h) {
    free(h->cont);
    h->cont = NULL;
    h->cont_n = 0;
}

void history_clear(History *h) {
    memset(h->butterfly, 0, sizeof h->butterfly);
    memset(h->counter, 0, sizeof h->counter);
    if (h->cont)
        memset(h->cont, 0, (size_t)h->cont_n * h->cont_n * sizeof(int16_t));
}

void history_age(History *h) {
    for (int c = 0; c < 2; c++)
        for (int a = 0; a < h->v->nsq; a++)
            for (int b = 0; b < h->v->nsq; b++)
                h->butterfly[c][a][b] /= 2;
}

int16_t *history_cont_row(const History *h, Piece p, int to) {
    if (!h->cont)
        return NULL;
    size_t slot = (size_t)history_cont_slot(h->v, p, to);
    return h->cont + slot * (size_t)h->cont_n;
}

/* Moves one entry towards bonus, the more slowly the nearer it is to the
 * bound in that direction (gravity). */
static void add(int16_t *e, int bonus) {
    int v = *e + bonus - *e * (bonus < 0 ? -bonus : bonus) / 16384;
    *e = (int16_t)(v > 16000 ? 16000 : v < -16000 ? -16000 : v);
}

void history_update_quiet(History *h, int16_t *const cont[HISTORY_CONT_PLIES], const Position *pos,
                          Move m, int bonus) {
    add(&h->butterfly[pos->stm][move_from(m)][move_to(m)], bonus);
    int slot = history_cont_slot(pos->v, pos->board[move_from(m)], move_to(m));
    for (int k = 0; k < HISTORY_CONT_PLIES; k++)
        if (cont[k])
            add(&cont[k][slot], bonus);
}
