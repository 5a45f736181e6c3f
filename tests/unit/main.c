/* main.c - runs the unit tests named on the command line, or all of them. */
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "test.h"

static int failures;
static const char *current;

void test_fail(const char *file, int line, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    if (failures++ < 20) {
        printf("  %s:%d: ", file, line);
        vprintf(fmt, ap);
        printf("\n");
    }
    va_end(ap);
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw) {
    (void)st, (void)type, (void)ftw;
    return remove(path);
}

void test_remove_folder(const char *dir) {
    if (nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS) != 0)
        test_fail(__FILE__, __LINE__, "cannot remove %s", dir);
}

static const struct {
    const char *name;
    void (*fn)(void);
} tests[] = {
    {"xbetza", test_xbetza},
    {"position", test_position},
    {"movegen", test_movegen},
    {"notation", test_notation},
    {"variant_file", test_variant_file},
    {"mancala", test_mancala},
    {"egdb", test_egdb},
    {"search", test_search},
    {"record", test_record},
    {"service", test_service},
    {"legality", test_legality},
    {"web", test_web},
    {"online", test_online},
    {"db", test_db},
    {"events", test_events},
    {"nnue", test_nnue},
};

int main(int argc, char **argv) {
    int bad = 0;
    for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++) {
        bool wanted = argc < 2;
        for (int a = 1; a < argc; a++)
            wanted |= strcmp(argv[a], tests[i].name) == 0;
        if (!wanted)
            continue;
        current = tests[i].name;
        failures = 0;
        tests[i].fn();
        printf("%s %s\n", failures ? "FAIL" : "ok", current);
        fflush(stdout);
        bad += failures != 0;
    }
    return bad != 0;
}
