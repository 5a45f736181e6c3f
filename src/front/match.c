/* match.c - placeholder until this front end lands. */
#include <stdio.h>

#include "front/frontends.h"

int match_main(int argc, char **argv) {
    (void)argc, (void)argv;
    fprintf(stderr, "menagerie: match is not available yet\n");
    return 2;
}
