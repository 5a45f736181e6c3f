/* uci.c - placeholder until this front end lands. */
#include <stdio.h>

#include "front/frontends.h"

int uci_main(int argc, char **argv) {
    (void)argc, (void)argv;
    fprintf(stderr, "menagerie: uci is not available yet\n");
    return 2;
}
