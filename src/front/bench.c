/* bench.c - placeholder until this front end lands. */
#include <stdio.h>

#include "front/frontends.h"

int bench_main(int argc, char **argv) {
    (void)argc, (void)argv;
    fprintf(stderr, "menagerie: bench is not available yet\n");
    return 2;
}
