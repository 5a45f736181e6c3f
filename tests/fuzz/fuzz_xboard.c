/* fuzz_xboard.c - the XBoard (CECP) front end's line handler. Input: up to 16 lines,
 * run as xboard_main runs its arguments, then quit (which ends any search).
 * Lines with memory or cores are dropped (the machine's memory, not the
 * parser, would be tested); the session starts with a 1 MB table. */
#include <strings.h>

#include "front/frontends.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool mentions(const char *line, const char *word) {
    for (const char *p = line; *p; p++)
        if (!strncasecmp(p, word, strlen(word)))
            return true;
    return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static bool quiet;
    if (!quiet) {
        fuzz_quiet();
        quiet = true;
    }
    if (size > 8192)
        return 0;
    char *text = fuzz_text(data, size), *line[FUZZ_MAX_LINES];
    int n = fuzz_lines(text, line, FUZZ_MAX_LINES);
    char *argv[FUZZ_MAX_LINES + 3];
    int argc = 0;
    argv[argc++] = "xboard";
    argv[argc++] = "memory 1";
    for (int i = 0; i < n; i++)
        if (!mentions(line[i], "memory") && !mentions(line[i], "cores"))
            argv[argc++] = line[i];
    argv[argc++] = "quit";
    xboard_main(argc, argv);
    free(text);
    return 0;
}
