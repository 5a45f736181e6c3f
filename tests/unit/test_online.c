/* test_online.c - the online site's own modules: Glicko-2 (the paper's worked
 * example, symmetric games, bounds, bad input), passwords and names (hash, verify,
 * rehash, the rules), secrets (form, uniqueness, a known BLAKE2b hash, compare) and
 * the rate limiter on a fake clock (burst, refill, keys, a full table, threads). */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "app/web/online/glicko.h"
#include "app/web/online/limits.h"
#include "app/web/online/password.h"
#include "app/web/online/secret.h"
#include "test.h"

static bool near(double got, double want, double tol) {
    return fabs(got - want) <= tol;
}

static bool same(const WebGlicko *a, const WebGlicko *b) {
    return a->rating == b->rating && a->rd == b->rd && a->vol == b->vol;
}

/* Glickman's example: 1500/200/0.06 against 1400/30, 1550/100 and 1700/300, won,
 * lost, lost, tau 0.5, over one period. */
static void glicko_paper(void) {
    WebGlicko p = {1500, 200, 0.06}, out;
    WebGlicko opp[3] = {{1400, 30, 0.06}, {1550, 100, 0.06}, {1700, 300, 0.06}};
    double score[3] = {1, 0, 0};
    CHECK(web_glicko_period(&p, 3, opp, score, 1, 0.5, &out));
    CHECK(near(out.rating, 1464.06, 0.02)); /* 1464.0507: the paper rounds mu first */
    CHECK(near(out.rd, 151.52, 0.01));
    CHECK(near(out.vol, 0.05999, 0.00001)); /* the paper cuts 0.059996 */
    /* the same without the paper's rounding of the steps between */
    CHECK(near(out.rating, 1464.0507, 0.001) && near(out.rd, 151.5165, 0.001));
    CHECK(near(out.vol, 0.0599960, 0.0000005));
}

static void glicko_games(void) {
    WebGlicko d = web_glicko_default(), a, b;
    CHECK(d.rating == 1500 && d.rd == 350 && d.vol == 0.06);
    CHECK(web_glicko_provisional(&d));
    // A draw between equals leaves both ratings, and both come out the same.
    WebGlicko x = {1720, 80, 0.06};
    CHECK(web_glicko_game(&x, 3600, &x, 3600, 0.5, WEB_GLICKO_TAU, &a, &b));
    CHECK(a.rating == 1720 && b.rating == 1720);
    CHECK(same(&a, &b));
    CHECK(a.rd < 80 && a.rd >= WEB_GLICKO_RD_MIN);
    // A win raises the winner and lowers the loser by as much (equal RDs).
    CHECK(web_glicko_game(&d, 0, &d, 0, 1, WEB_GLICKO_TAU, &a, &b));
    CHECK(a.rating > 1500 && b.rating < 1500);
    CHECK(near(a.rating - 1500, 1500 - b.rating, 1e-9));
    CHECK(a.rd < 350 && b.rd < 350 && a.rd == b.rd);
    // The loser's turn: symmetric.
    WebGlicko a2, b2;
    CHECK(web_glicko_game(&d, 0, &d, 0, 0, WEB_GLICKO_TAU, &b2, &a2));
    CHECK(same(&a, &a2) && same(&b, &b2));
    // Beating a stronger player gains more than beating a weaker one.
    WebGlicko me = {1500, 60, 0.06}, strong = {1800, 60, 0.06}, weak = {1200, 60, 0.06};
    WebGlicko up, down, o;
    CHECK(web_glicko_game(&me, 0, &strong, 0, 1, WEB_GLICKO_TAU, &up, &o));
    CHECK(web_glicko_game(&me, 0, &weak, 0, 1, WEB_GLICKO_TAU, &down, &o));
    CHECK(up.rating - 1500 > down.rating - 1500 && down.rating > 1500);
    // Both from the values before the game: the outputs may be the inputs.
    WebGlicko p = {1600, 120, 0.06}, q = {1450, 200, 0.06}, pe, qe;
    CHECK(web_glicko_game(&p, 86400, &q, 0, 1, WEB_GLICKO_TAU, &pe, &qe));
    CHECK(web_glicko_game(&p, 86400, &q, 0, 1, WEB_GLICKO_TAU, &p, &q));
    CHECK(same(&p, &pe) && same(&q, &qe));
    // Many games in a row settle the RD at its floor, never under it.
    WebGlicko s = d, t = d;
    for (int i = 0; i < 500; i++)
        CHECK(web_glicko_game(&s, 60, &t, 60, i % 3 == 0 ? 1 : 0.5, WEB_GLICKO_TAU, &s, &t));
    CHECK(s.rd >= WEB_GLICKO_RD_MIN && s.rd < 60 && t.rd >= WEB_GLICKO_RD_MIN);
    CHECK(!web_glicko_provisional(&s));
    CHECK(web_glicko_valid(&s) && web_glicko_valid(&t) && s.rating > t.rating);
}

static void glicko_age_bounds(void) {
    WebGlicko p = {1800, 50, 0.06}, out;
    CHECK(web_glicko_age(&p, 0, &out) && same(&p, &out));
    // One period adds sigma^2 on the Glicko-2 scale.
    CHECK(web_glicko_age(&p, WEB_GLICKO_PERIOD_S, &out));
    double want = sqrt(50.0 * 50 + (0.06 * 173.7178) * (0.06 * 173.7178));
    CHECK(near(out.rd, want, 1e-6) && out.rating == 1800 && out.vol == 0.06);
    // Long absences: capped at 350, and provisional again.
    CHECK(web_glicko_age(&p, 1e12, &out) && out.rd == WEB_GLICKO_RD_MAX);
    CHECK(web_glicko_age(&p, 1e308, &out) && out.rd == WEB_GLICKO_RD_MAX);
    CHECK(web_glicko_provisional(&out));
    WebGlicko edge = {1500, 110, 0.06}, above = {1500, 110.01, 0.06};
    CHECK(!web_glicko_provisional(&edge) && web_glicko_provisional(&above));
    // Ratings stay within 400..4000 at the extremes, for any tau in range.
    WebGlicko top = {4000, 45, 0.1}, low = {400, 45, 0.1}, a, b;
    double taus[] = {WEB_GLICKO_TAU_MIN, WEB_GLICKO_TAU, WEB_GLICKO_TAU_MAX};
    for (int i = 0; i < 3; i++) {
        for (double sc = 0; sc <= 1; sc += 0.5) {
            CHECK(web_glicko_game(&top, 0, &low, 1e9, sc, taus[i], &a, &b));
            CHECK(web_glicko_valid(&a) && web_glicko_valid(&b));
            CHECK(a.rd >= WEB_GLICKO_RD_MIN && b.rd >= WEB_GLICKO_RD_MIN);
        }
    }
    CHECK(web_glicko_game(&top, 0, &top, 0, 1, WEB_GLICKO_TAU, &a, &b) && a.rating == 4000);
    CHECK(web_glicko_game(&low, 0, &low, 0, 0, WEB_GLICKO_TAU, &a, &b) && a.rating == 400);
    // Random valid input always gives valid output.
    srand(7);
    for (int i = 0; i < 3000; i++) {
        WebGlicko u = {400 + 3600.0 * rand() / RAND_MAX, 1 + 349.0 * rand() / RAND_MAX,
                       0.001 + 0.099 * rand() / RAND_MAX};
        WebGlicko v = {400 + 3600.0 * rand() / RAND_MAX, 1 + 349.0 * rand() / RAND_MAX,
                       0.001 + 0.099 * rand() / RAND_MAX};
        double tau = 0.3 + 0.9 * rand() / RAND_MAX, idle = 1e8 * rand() / RAND_MAX;
        bool ok = web_glicko_game(&u, idle, &v, 0, (rand() % 3) / 2.0, tau, &a, &b);
        CHECK(ok && web_glicko_valid(&a) && web_glicko_valid(&b));
        if (!ok)
            break;
    }
}

static void glicko_bad_input(void) {
    WebGlicko d = web_glicko_default(), keep = {1234, 56, 0.07}, out = keep, b = keep;
    WebGlicko bad[] = {{NAN, 100, 0.06},       {INFINITY, 100, 0.06}, {1500, NAN, 0.06},
                       {1500, INFINITY, 0.06}, {1500, 100, NAN},      {1500, 0, 0.06},
                       {1500, 351, 0.06},      {1500, -5, 0.06},      {1500, 100, 0},
                       {1500, 100, 0.11},      {399, 100, 0.06},      {4001, 100, 0.06},
                       {1500, 100, -0.06}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK(!web_glicko_valid(&bad[i]));
        CHECK(!web_glicko_provisional(&bad[i]));
        CHECK(!web_glicko_age(&bad[i], 0, &out));
        CHECK(!web_glicko_game(&bad[i], 0, &d, 0, 1, WEB_GLICKO_TAU, &out, &b));
        CHECK(!web_glicko_game(&d, 0, &bad[i], 0, 1, WEB_GLICKO_TAU, &out, &b));
        double s = 1;
        CHECK(!web_glicko_period(&d, 1, &bad[i], &s, 1, 0.5, &out));
    }
    CHECK(!web_glicko_valid(NULL));
    double bad_num[] = {NAN, INFINITY, -INFINITY, -1, 1.5};
    for (size_t i = 0; i < sizeof bad_num / sizeof bad_num[0]; i++) {
        double x = bad_num[i];
        CHECK(!web_glicko_game(&d, 0, &d, 0, x, WEB_GLICKO_TAU, &out, &b));
        CHECK(!web_glicko_period(&d, 1, &d, &x, 1, 0.5, &out));
        if (x < 1) {
            CHECK(!web_glicko_game(&d, x, &d, 0, 1, WEB_GLICKO_TAU, &out, &b));
            CHECK(!web_glicko_game(&d, 0, &d, x, 1, WEB_GLICKO_TAU, &out, &b));
            CHECK(!web_glicko_age(&d, x, &out));
            double s = 1;
            CHECK(!web_glicko_period(&d, 1, &d, &s, x, 0.5, &out));
        }
    }
    CHECK(!web_glicko_age(&d, INFINITY, &out));
    CHECK(!web_glicko_game(&d, NAN, &d, 0, 1, WEB_GLICKO_TAU, &out, &b));
    double bad_tau[] = {NAN, INFINITY, 0, 0.29, 1.21, -0.75};
    for (size_t i = 0; i < sizeof bad_tau / sizeof bad_tau[0]; i++)
        CHECK(!web_glicko_game(&d, 0, &d, 0, 1, bad_tau[i], &out, &b));
    double s = 1;
    CHECK(!web_glicko_period(&d, 0, &d, &s, 1, 0.5, &out));
    CHECK(!web_glicko_period(&d, 1, NULL, &s, 1, 0.5, &out));
    CHECK(!web_glicko_period(&d, 1, &d, NULL, 1, 0.5, &out));
    CHECK(!web_glicko_period(&d, 1, &d, &s, 1, 0.5, NULL));
    CHECK(!web_glicko_game(&d, 0, &d, 0, 1, WEB_GLICKO_TAU, NULL, &b));
    CHECK(!web_glicko_game(NULL, 0, &d, 0, 1, WEB_GLICKO_TAU, &out, &b));
    CHECK(same(&out, &keep) && same(&b, &keep)); /* untouched by every refusal */
}

static void password_hashes(void) {
    CHECK(web_secret_init());
    const char *pw = "correct horse battery";
    char h[WEB_PASSWORD_HASH_LEN], h2[WEB_PASSWORD_HASH_LEN];
    CHECK(web_password_hash(pw, strlen(pw), h));
    CHECK(strncmp(h, "$argon2id$", 10) == 0);
    CHECK(web_password_verify(h, pw, strlen(pw)));
    CHECK(!web_password_verify(h, "correct horse battery!", strlen(pw) + 1));
    CHECK(!web_password_verify(h, pw, strlen(pw) - 1));
    CHECK(!web_password_verify(h, "Correct horse battery", strlen(pw)));
    CHECK(!web_password_needs_rehash(h));
    // A fresh salt each time.
    CHECK(web_password_hash(pw, strlen(pw), h2) && strcmp(h, h2) != 0);
    // Hashes made with other limits ask to be made again; damaged ones fail.
    char old[crypto_pwhash_STRBYTES];
    CHECK(crypto_pwhash_str(old, pw, strlen(pw), crypto_pwhash_OPSLIMIT_MIN,
                            crypto_pwhash_MEMLIMIT_MIN) == 0);
    CHECK(web_password_verify(old, pw, strlen(pw)));
    CHECK(web_password_needs_rehash(old));
    char damaged[WEB_PASSWORD_HASH_LEN];
    memcpy(damaged, h, sizeof damaged);
    damaged[strlen(damaged) - 3] ^= 1;
    CHECK(!web_password_verify(damaged, pw, strlen(pw)));
    CHECK(!web_password_verify("", pw, strlen(pw)));
    CHECK(!web_password_verify("$argon2id$garbage", pw, strlen(pw)));
    CHECK(!web_password_verify(NULL, pw, strlen(pw)));
    CHECK(web_password_needs_rehash("nonsense") && web_password_needs_rehash(NULL));
    char unterminated[WEB_PASSWORD_HASH_LEN];
    memset(unterminated, 'a', sizeof unterminated);
    CHECK(!web_password_verify(unterminated, pw, strlen(pw)));
    CHECK(web_password_needs_rehash(unterminated));
    // Lengths outside 1..256 are refused without hashing.
    char big[300];
    memset(big, 'x', sizeof big);
    CHECK(!web_password_hash(big, 257, h2) && h2[0] == '\0');
    CHECK(!web_password_hash(pw, 0, h2));
    CHECK(!web_password_verify(h, big, 257));
    CHECK(web_password_hash(big, 256, h2) && web_password_verify(h2, big, 256));
    // The stand-in for unknown names: valid, and no password of ours.
    const char *dummy = web_password_dummy();
    CHECK(dummy && dummy == web_password_dummy() && !web_password_verify(dummy, pw, strlen(pw)));
    // Wiping a copy.
    char copy[32];
    snprintf(copy, sizeof copy, "%s", pw);
    web_password_wipe(copy, sizeof copy);
    for (size_t i = 0; i < sizeof copy; i++)
        CHECK(copy[i] == 0);
    web_password_wipe(NULL, 4);
}

/* Several threads hash at once (more than the gate lets through). */
static void *verify_thread(void *arg) {
    const char *h = arg;
    return (void *)(intptr_t)web_password_verify(h, "parallel pass", 13);
}

static void password_threads(void) {
    char h[WEB_PASSWORD_HASH_LEN];
    CHECK(web_password_hash("parallel pass", 13, h));
    pthread_t t[WEB_PASSWORD_PARALLEL + 2];
    for (int i = 0; i < WEB_PASSWORD_PARALLEL + 2; i++)
        CHECK(pthread_create(&t[i], NULL, verify_thread, h) == 0);
    for (int i = 0; i < WEB_PASSWORD_PARALLEL + 2; i++) {
        void *r;
        pthread_join(t[i], &r);
        CHECK(r == (void *)1);
    }
}

static void password_rules(void) {
    CHECK(web_password_rule("12345678", 8, NULL) == NULL);
    CHECK(web_password_rule("1234567", 7, NULL) != NULL);
    CHECK(web_password_rule(NULL, 8, NULL) != NULL);
    char big[300];
    memset(big, 'y', sizeof big);
    CHECK(web_password_rule(big, 256, NULL) == NULL);
    CHECK(web_password_rule(big, 257, NULL) != NULL);
    const char *utf8 = "p\xc3\xa4sswo\xcc\x88rd \xe2\x82\xac \xf0\x9f\x90\x8d"; /* ä, o + ̈, €, 🐍 */
    CHECK(web_password_rule(utf8, strlen(utf8), NULL) == NULL);
    const char *bad[] = {
        "abcdefg\xff",             /* not UTF-8 */
        "abcdefg\xc0\x80",         /* overlong NUL */
        "abcdefg\xe0\x80\xaf",     /* overlong '/' */
        "abcdefg\xed\xa0\x80",     /* a surrogate */
        "abcdefg\xf4\x90\x80\x80", /* past U+10FFFF */
        "abcdefgh\xe2\x82",        /* cut short */
        "abcdefgh\x80",            /* a lone continuation byte */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK(web_password_rule(bad[i], strlen(bad[i]), NULL) != NULL);
    CHECK(web_password_rule("abcd\0efgh", 9, NULL) != NULL);
    CHECK(web_password_rule("Magnus_1990", 11, "magnus_1990") != NULL);
    CHECK(web_password_rule("Magnus_1990", 11, "magnus_1991") == NULL);
    CHECK(web_password_rule("Magnus_1990x", 12, "magnus_1990") == NULL);
    // Names.
    const char *good[] = {"abc", "A_b-9", "_under", "x-y", "01234567890123456789", "DrNykterstein"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
        CHECK(web_password_name_rule(good[i]) == NULL);
    const char *bad_names[] = {"",          "ab",    "-abc",        "a b",
                               "tab\tname", "na.me", "n\xc3\xa4me", "0123456789012345678901",
                               "abc!",      "a/b"};
    for (size_t i = 0; i < sizeof bad_names / sizeof bad_names[0]; i++)
        CHECK(web_password_name_rule(bad_names[i]) != NULL);
    CHECK(web_password_name_rule(NULL) != NULL);
    CHECK_STR(web_password_name_rule("ab"), "the name is too short: at least 3 characters");
    CHECK_STR(web_password_name_rule("-ab"), "a name may not start with '-'");
    char fold[WEB_PASSWORD_NAME_MAX + 1];
    CHECK(web_password_name_fold("DrNykter-Stein_9", fold));
    CHECK_STR(fold, "drnykter-stein_9");
    CHECK(!web_password_name_fold("-no", fold) && fold[0] == '\0');
}

static int cmp_secret(const void *a, const void *b) {
    return memcmp(a, b, WEB_SECRET_HEX_LEN);
}

static void secrets(void) {
    enum { N = 2000 };
    char(*s)[WEB_SECRET_HEX_LEN + 1] = malloc(N * sizeof *s);
    CHECK(s != NULL);
    if (!s)
        return;
    for (int i = 0; i < N; i++) {
        CHECK(web_secret_new(s[i]));
        CHECK(strlen(s[i]) == WEB_SECRET_HEX_LEN);
        CHECK(strspn(s[i], "0123456789abcdef") == WEB_SECRET_HEX_LEN);
        CHECK(web_secret_valid(s[i]));
    }
    // No two alike, and every digit shows up in every place now and then.
    qsort(s, N, sizeof *s, cmp_secret);
    for (int i = 1; i < N; i++)
        CHECK(memcmp(s[i - 1], s[i], WEB_SECRET_HEX_LEN) != 0);
    int seen[16] = {0};
    for (int i = 0; i < N; i++)
        for (int k = 0; k < WEB_SECRET_HEX_LEN; k++)
            seen[s[i][k] <= '9' ? s[i][k] - '0' : s[i][k] - 'a' + 10]++;
    for (int d = 0; d < 16; d++)
        CHECK(seen[d] > N * WEB_SECRET_HEX_LEN / 16 * 9 / 10);
    // The hash: deterministic, BLAKE2b-256 of the text, different for different secrets.
    unsigned char h1[WEB_SECRET_HASH_LEN], h2[WEB_SECRET_HASH_LEN];
    CHECK(web_secret_hash(s[0], h1) && web_secret_hash(s[0], h2));
    CHECK(web_secret_equal(h1, h2) && memcmp(h1, h2, sizeof h1) == 0);
    CHECK(web_secret_hash(s[1], h2) && !web_secret_equal(h1, h2));
    const char *known = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
    char hex[2 * WEB_SECRET_HASH_LEN + 1];
    CHECK(web_secret_hash(known, h1));
    sodium_bin2hex(hex, sizeof hex, h1, sizeof h1);
    CHECK_STR(hex, "3083e1ce982abd7f59235aa1ea3c97046562c75205d4dab8affd2f3600d79958");
    // Differing in the last byte only.
    memcpy(h2, h1, sizeof h1);
    h2[WEB_SECRET_HASH_LEN - 1] ^= 0x80;
    CHECK(!web_secret_equal(h1, h2));
    // Not a secret's form: refused, the hash zeroed.
    char upper[WEB_SECRET_HEX_LEN + 1], longer[WEB_SECRET_HEX_LEN + 2];
    snprintf(upper, sizeof upper, "%s", known);
    upper[5] = 'A';
    snprintf(longer, sizeof longer, "%s0", known);
    const char *bad[] = {upper, longer,
                         "",    "0123456789abcdef",
                         NULL,  "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcde"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        memset(h1, 0xaa, sizeof h1);
        CHECK(!web_secret_valid(bad[i]));
        CHECK(!web_secret_hash(bad[i], h1));
        for (int k = 0; k < WEB_SECRET_HASH_LEN; k++)
            CHECK(h1[k] == 0);
    }
    free(s);
}

static void limits_clock(void) {
    CHECK(web_limit_new(0, 5, 1000) == NULL);
    CHECK(web_limit_new(10, 0, 1000) == NULL);
    CHECK(web_limit_new(10, 5, 0) == NULL);
    CHECK(web_limit_new(WEB_LIMIT_SLOTS_MAX + 1, 5, 1000) == NULL);
    WebLimit *l = web_limit_new(16, WEB_LIMIT_LOGIN_BURST, WEB_LIMIT_LOGIN_REFILL_MS);
    CHECK(l != NULL);
    if (!l)
        return;
    int64_t wait = -1;
    // A burst of 5, then one every 12 s.
    for (int i = 0; i < 5; i++)
        CHECK(web_limit_take(l, "198.51.100.7", 1000, &wait) && wait == 0);
    CHECK(!web_limit_take(l, "198.51.100.7", 1000, &wait) && wait == 12000);
    CHECK(!web_limit_take(l, "198.51.100.7", 12999, &wait) && wait == 1);
    CHECK(web_limit_take(l, "198.51.100.7", 13000, &wait));
    CHECK(!web_limit_take(l, "198.51.100.7", 13000, &wait) && wait == 12000);
    // Other keys have their own buckets.
    CHECK(web_limit_take(l, "198.51.100.8", 13000, NULL));
    CHECK(web_limit_take(l, "name:magnus", 13000, NULL));
    // A long rest fills the bucket, no fuller than the burst.
    for (int i = 0; i < 5; i++)
        CHECK(web_limit_take(l, "198.51.100.7", 10000000, NULL));
    CHECK(!web_limit_take(l, "198.51.100.7", 10000000, NULL));
    // A clock that runs back stands still.
    CHECK(!web_limit_take(l, "198.51.100.7", 5, &wait) && wait == 12000);
    CHECK(web_limit_count(l) == 3);
    // A caller's mistakes.
    char big[WEB_LIMIT_KEY_MAX + 2];
    memset(big, 'k', sizeof big);
    big[WEB_LIMIT_KEY_MAX + 1] = '\0';
    CHECK(!web_limit_take(l, big, 20000000, &wait) && wait == 0);
    big[WEB_LIMIT_KEY_MAX] = '\0';
    CHECK(web_limit_take(l, big, 20000000, &wait));
    CHECK(!web_limit_take(l, "", 20000000, &wait) && wait == 0);
    CHECK(!web_limit_take(l, NULL, 20000000, &wait));
    CHECK(!web_limit_take(l, "x", -1, &wait));
    CHECK(!web_limit_take(l, "x", WEB_LIMIT_TIME_MAX + 1, &wait));
    CHECK(web_limit_take(l, "x", WEB_LIMIT_TIME_MAX, &wait));
    CHECK(!web_limit_take(NULL, "x", 0, &wait));
    web_limit_free(l);
    web_limit_free(NULL);
}

static void limits_full(void) {
    WebLimit *l = web_limit_new(3, 1, 60000);
    CHECK(l != NULL);
    if (!l)
        return;
    CHECK(web_limit_take(l, "a", 0, NULL) && web_limit_take(l, "b", 0, NULL) &&
          web_limit_take(l, "c", 0, NULL));
    CHECK(!web_limit_take(l, "a", 1, NULL)); /* a is the newest now, b the stalest */
    CHECK(web_limit_count(l) == 3);
    CHECK(web_limit_take(l, "d", 2, NULL)); /* takes b's slot */
    CHECK(web_limit_count(l) == 3);
    CHECK(!web_limit_take(l, "a", 3, NULL) && !web_limit_take(l, "d", 3, NULL));
    CHECK(web_limit_take(l, "b", 4, NULL)); /* b starts again, in c's slot */
    CHECK(!web_limit_take(l, "a", 5, NULL) && !web_limit_take(l, "b", 5, NULL));
    CHECK(web_limit_take(l, "c", 6, NULL)); /* c starts again, in d's slot */
    web_limit_free(l);
    // A flood of keys through a small table keeps it whole and small.
    l = web_limit_new(64, 2, 1000);
    CHECK(l != NULL);
    if (!l)
        return;
    char key[32];
    for (int i = 0; i < 20000; i++) {
        snprintf(key, sizeof key, "203.0.113.%d", i % 700);
        web_limit_take(l, key, i, NULL);
        CHECK(web_limit_count(l) <= 64);
    }
    CHECK(web_limit_count(l) == 64);
    /* the last 64 keys are held (336..399): 399 came back fresh at i = 19999 */
    CHECK(web_limit_take(l, "203.0.113.399", 19999, NULL));
    CHECK(!web_limit_take(l, "203.0.113.399", 19999, NULL));
    web_limit_free(l);
}

/* Threads on one table: exactly the burst goes through on a stopped clock. */
typedef struct {
    WebLimit *l;
    int ok;
} LimitArg;

static void *limit_thread(void *arg) {
    LimitArg *a = arg;
    char key[32];
    for (int i = 0; i < 2000; i++) {
        snprintf(key, sizeof key, "k%d", i % 50);
        web_limit_take(a->l, key, i, NULL);
        a->ok += web_limit_take(a->l, "shared", 0, NULL);
    }
    return NULL;
}

static void limits_threads(void) {
    WebLimit *l = web_limit_new(32, 100, 86400000);
    CHECK(l != NULL);
    if (!l)
        return;
    pthread_t t[4];
    LimitArg arg[4];
    for (int i = 0; i < 4; i++) {
        arg[i] = (LimitArg){l, 0};
        CHECK(pthread_create(&t[i], NULL, limit_thread, &arg[i]) == 0);
    }
    int ok = 0;
    for (int i = 0; i < 4; i++) {
        pthread_join(t[i], NULL);
        ok += arg[i].ok;
    }
    CHECK(ok == 100);
    CHECK(web_limit_count(l) == 32);
    web_limit_free(l);
}

void test_online(void) {
    glicko_paper();
    glicko_games();
    glicko_age_bounds();
    glicko_bad_input();
    password_rules();
    password_hashes();
    password_threads();
    secrets();
    limits_clock();
    limits_full();
    limits_threads();
}
