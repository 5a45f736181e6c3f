/* opening_sets.h - the match tool's built-in opening sets, one a game
 * (lab/openings/GAME.txt, made by `menagerie openings`), compiled into the
 * binary by tools/embed.c. The table ends with a {NULL, NULL, 0} entry. */
#ifndef OPENING_SETS_H
#define OPENING_SETS_H

#include <stddef.h>

typedef struct {
    const char *name; /* GAME.txt */
    const char *data;
    size_t len;
} LabOpeningSet;

extern const LabOpeningSet lab_opening_sets[];

#endif
