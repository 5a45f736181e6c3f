/* test.h - the unit-test harness: each test is a void function listed in
 * tests/unit/main.c; CHECK records a failure with its place and goes on.
 * The binary prints "ok NAME" or "FAIL NAME: ..." per test for tests/run.sh. */
#ifndef TEST_H
#define TEST_H

#include <stdbool.h>
#include <stdint.h>

void test_fail(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Removes a test's temporary folder and everything in it. */
void test_remove_folder(const char *dir);

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond))                                                                               \
            test_fail(__FILE__, __LINE__, "%s", #cond);                                            \
    } while (0)

#define CHECK_EQ_U64(got, want)                                                                    \
    do {                                                                                           \
        uint64_t got_ = (got), want_ = (want);                                                     \
        if (got_ != want_)                                                                         \
            test_fail(__FILE__, __LINE__, "%s = %llu, want %llu", #got, (unsigned long long)got_,  \
                      (unsigned long long)want_);                                                  \
    } while (0)

#define CHECK_STR(got, want)                                                                       \
    do {                                                                                           \
        const char *got_ = (got), *want_ = (want);                                                 \
        if (strcmp(got_, want_) != 0)                                                              \
            test_fail(__FILE__, __LINE__, "%s = \"%s\", want \"%s\"", #got, got_, want_);          \
    } while (0)

/* The tests, one per module area. */
void test_xbetza(void);
void test_position(void);
void test_movegen(void);
void test_notation(void);
void test_variant_file(void);
void test_mancala(void);
void test_egdb(void);
void test_search(void);
void test_service(void);
void test_legality(void);
void test_record(void);
void test_web(void);
void test_online(void);
void test_db(void);
void test_events(void);
void test_nnue(void);

#endif
