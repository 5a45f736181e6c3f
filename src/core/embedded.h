/* embedded.h - files compiled into the binary by tools/embed.c.
 * Each table ends with a {NULL, NULL, 0} entry. */
#ifndef EMBEDDED_H
#define EMBEDDED_H

#include <stddef.h>

typedef struct {
    const char *name;
    const char *data;
    size_t len;
} EmbeddedFile;

extern const EmbeddedFile
    builtin_variants[]; /* src/variants/: NAME.var, NAME.base, weights/NAME.eval, nets/NAME.nnue */
extern const EmbeddedFile builtin_rules[]; /* www/rules/: NAME.txt, the rules texts */

#endif
