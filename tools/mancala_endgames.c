/* mancala_endgames.c - writes the Slangenspel benchmark positions
 * (tests/data/slangenspel-endgames.txt): positions from games of random moves from
 * the start (base rules, fixed seed), 50 distinct ones for each egg count on the board
 * from 2 to 30, at most one per game and count. Build and run from the top folder:
 *   cc -std=c11 -O2 -Isrc -o mancala_endgames tools/mancala_endgames.c src/mancala/board.c
 *   ./mancala_endgames > tests/data/slangenspel-endgames.txt */
#include <stdio.h>
#include <string.h>

#include "mancala/board.h"

#define MIN_EGGS 2
#define MAX_EGGS 30
#define PER_COUNT 50

static MancalaPos found[MAX_EGGS + 1][PER_COUNT];
static int nfound[MAX_EGGS + 1];

static uint64_t next_rand(uint64_t *x) {
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

static int missing(void) {
    int m = 0;
    for (int e = MIN_EGGS; e <= MAX_EGGS; e++)
        m += PER_COUNT - nfound[e];
    return m;
}

int main(void) {
    uint64_t seed = 0x5eed5eed12345ULL;
    for (long game = 0; game < 10000000 && missing() > 0; game++) {
        MancalaPos p;
        mancala_start(&p, MANCALA_BASE);
        bool taken[MAX_EGGS + 1] = {false};
        for (int ply = 0; ply < 400; ply++) {
            MancalaMove mv[MANCALA_MAX_MOVES];
            int n = mancala_moves(&p, mv);
            if (n == 0)
                break;
            int e = mancala_board_eggs(&p);
            if (e >= MIN_EGGS && e <= MAX_EGGS && !taken[e] && nfound[e] < PER_COUNT) {
                bool dup = false;
                for (int k = 0; k < nfound[e] && !dup; k++)
                    dup = mancala_same(&found[e][k], &p);
                if (!dup) {
                    found[e][nfound[e]++] = p;
                    taken[e] = true;
                }
            }
            mancala_play(&p, mv[next_rand(&seed) % (uint64_t)n], &p);
        }
    }
    printf("# Slangenspel benchmark positions (base rules): %d per egg count from %d to %d,\n"
           "# from games of random moves; written by tools/mancala_endgames.c.\n",
           PER_COUNT, MIN_EGGS, MAX_EGGS);
    for (int e = MIN_EGGS; e <= MAX_EGGS; e++)
        for (int k = 0; k < nfound[e]; k++) {
            char t[MANCALA_POS_TEXT];
            mancala_print(&found[e][k], t, sizeof t);
            printf("%s\n", t);
        }
    return missing() > 0;
}
