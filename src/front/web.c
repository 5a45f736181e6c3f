/* web.c - placeholder until this front end lands. */
#include <stdio.h>

#include "front/frontends.h"

int web_main(int argc, char **argv) {
    (void)argc, (void)argv;
    fprintf(stderr, "menagerie: web is not available yet\n");
    return 2;
}
