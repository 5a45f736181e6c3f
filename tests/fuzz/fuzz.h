/* fuzz.h - shared helpers of the libFuzzer harnesses in tests/fuzz/.
 *
 * Each harness is one fuzz_NAME.c defining LLVMFuzzerTestOneInput; the
 * input is turned into text (a NUL-terminated copy) or into lines. A
 * property that fails calls fuzz_fail, which aborts with a message so
 * libFuzzer keeps the input as a crash. Program output (the protocol
 * front ends print to stdout) goes to /dev/null. */
#ifndef FUZZ_H
#define FUZZ_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define FUZZ_MAX_LINES 16
#define FUZZ_MAX_LINE 1024

/* A NUL-terminated copy of the input (malloc'd; NULs inside end it early). */
static inline char *fuzz_text(const uint8_t *data, size_t size) {
    char *t = malloc(size + 1);
    if (!t)
        abort();
    memcpy(t, data, size);
    t[size] = 0;
    return t;
}

/* Splits text in place at new lines; returns the count (at most max). */
static inline int fuzz_lines(char *text, char **line, int max) {
    int n = 0;
    for (char *p = text; *p && n < max;) {
        size_t len = strcspn(p, "\r\n");
        line[n++] = p;
        if (!p[len])
            break;
        p[len] = 0;
        p += len + 1;
    }
    return n;
}

static inline void fuzz_quiet(void) {
    if (!freopen("/dev/null", "w", stdout))
        abort();
}

__attribute__((format(printf, 1, 2), noreturn)) static inline void fuzz_fail(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "fuzz property failed: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    abort();
}

/* Whether LINE names WORD (any case). */
static inline bool fuzz_names(const char *line, const char *word) {
    for (const char *p = line; *p; p++)
        if (!strncasecmp(p, word, strlen(word)))
            return true;
    return false;
}

/* Writes every number in LINE that is over MAX as MAX, in place. */
static inline void fuzz_clamp_numbers(char *line, unsigned long max) {
    char cap[24];
    int caplen = snprintf(cap, sizeof cap, "%lu", max);
    for (char *p = line; *p;) {
        size_t n = strspn(p, "0123456789");
        if (!n) {
            p++;
            continue;
        }
        if (n > (size_t)caplen || (n == (size_t)caplen && strncmp(p, cap, n) > 0)) {
            memcpy(p, cap, (size_t)caplen);
            memmove(p + caplen, p + n, strlen(p + n) + 1);
            n = (size_t)caplen;
        }
        p += n;
    }
}

/* What a protocol harness does with the lines naming WORD (any case): with
 * max 0 it drops them, else every number in them is at most MAX. So the
 * parser is tested, not the machine: its cores, its memory (a table's size
 * is parsed and changed between searches without filling it), or the
 * hours of a deep perft. */
typedef struct {
    const char *word;
    unsigned long max;
} FuzzRule;

/* Runs a protocol front end's main (uci_main, xboard_main) on the input's
 * lines as its arguments, after `first` and before "quit" (which ends any
 * search), under the rules (NULL word last). */
static inline void fuzz_protocol(const uint8_t *data, size_t size, int (*run)(int, char **),
                                 char *name, char *first, const FuzzRule *rules) {
    static bool quiet;
    if (!quiet) {
        fuzz_quiet();
        quiet = true;
    }
    char *text = fuzz_text(data, size), *line[FUZZ_MAX_LINES];
    int n = fuzz_lines(text, line, FUZZ_MAX_LINES);
    char *argv[FUZZ_MAX_LINES + 3], quit[] = "quit";
    int argc = 0;
    argv[argc++] = name;
    argv[argc++] = first;
    for (int i = 0; i < n; i++) {
        bool keep = true;
        for (const FuzzRule *r = rules; r->word && keep; r++)
            if (fuzz_names(line[i], r->word)) {
                keep = r->max > 0;
                if (keep)
                    fuzz_clamp_numbers(line[i], r->max);
            }
        if (keep)
            argv[argc++] = line[i];
    }
    argv[argc++] = quit;
    run(argc, argv);
    free(text);
}

/* The game a harness plays, picked by one input byte. */
static const char *const fuzz_games[] = {"chess",         "snake-vs-mongoose", "team-mate",
                                         "diamondback",   "hannibal",          "slangenspel",
                                         "slangenspel-a", "slangenspel-b",     "slangenspel-ab"};
#define FUZZ_NGAMES (sizeof fuzz_games / sizeof fuzz_games[0])

#endif
