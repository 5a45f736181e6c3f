/* files.h - the web page (www/), compiled into the binary by tools/embed.c
 * so that `menagerie serve` runs standalone; the server answers a path
 * with the file of that name. The table ends with a {NULL, NULL, 0} entry. */
#ifndef WEB_FILES_H
#define WEB_FILES_H

#include <stddef.h>

typedef struct {
    const char *name; /* its path under www/ */
    const char *data;
    size_t len;
} WebFile;

extern const WebFile web_files[];

#endif
