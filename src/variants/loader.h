/* loader.h - reads variant definition files into compiled variants.
 *
 * The format follows the Interactive Diagram's parameters: `key=value`
 * settings and `name:L:XBetza:image:squares` piece lines, separated by
 * white space or new lines, with keys of our own for the rules the diagram
 * leaves to code. Built-in files are compiled into the binary. */
#ifndef LOADER_H
#define LOADER_H

#include <stddef.h>

#include "core/variant.h"

/* Names of the built-in variants, NULL-terminated. */
const char *const *variant_builtin_names(void);
/* Returns NULL with a message in err when unknown or broken. The message
 * names the line at fault where there is one: "line N: ..." for a text,
 * "PATH:N: ..." for a file (as compilers name a line). */
Variant *variant_load_builtin(const char *name, char *err, size_t errlen);
Variant *variant_load_file(const char *path, char *err, size_t errlen);
Variant *variant_load_text(const char *text, const char *fallback_name, char *err, size_t errlen);

#endif
