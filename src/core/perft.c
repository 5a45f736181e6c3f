/* perft.c - leaf counting (see perft.h). */
#include "core/perft.h"

#include "core/movegen.h"

uint64_t perft(Position *pos, int depth, const atomic_bool *stop) {
    MoveList l;
    if (depth <= 0)
        return 1;
    if (depth >= 3 && stop && atomic_load_explicit(stop, memory_order_relaxed))
        return 0;
    movegen_legal(pos, &l);
    if (depth == 1)
        return (uint64_t)l.n;
    uint64_t n = 0;
    for (int i = 0; i < l.n; i++) {
        pos_make_move(pos, l.m[i]);
        n += perft(pos, depth - 1, stop);
        pos_unmake_move(pos);
    }
    return n;
}
