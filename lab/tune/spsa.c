/* spsa.c - tuning the search's numbers (engine.h: engine_param) by SPSA
 * from self-play.
 *
 * Usage: spsa [--variant V] [--nodes N] [--games G] [--batch P]
 *             [--concurrency C] [--seed S] [--params NAME,...] [--start TEXT]
 *             [--r-end R] [--bin PATH] [--out FILE]
 * (`make spsa`; docs/development.md, "Tuning the search"). Simultaneous perturbation
 * stochastic approximation as fishtest runs it: each batch perturbs every
 * tuned number at once by +/- c_k (the sign drawn at random, c_k shrinking
 * from a little above the parameter's step to the step itself), plays P game
 * pairs of the one side against the other (`menagerie match` at N nodes a
 * move from the variant's openings, each side an xboard engine told its
 * numbers by the option SearchParams), and moves each number by
 * R_k c_k (wins - losses) in the direction of the side that won, R_k = a_k /
 * c_k^2 with a_k = a / (A + k)^0.602, A a tenth of the pairs, a set so that
 * a_k / c_k^2 ends at R (--r-end, default 0.01) and c_k = c / k^0.101.
 * The numbers not named in --params (default: all) stay at their defaults or
 * at --start. Each batch prints one line of progress to stderr and, with
 * --out, writes the numbers reached to FILE; the end prints them on stdout as
 * the text `option SearchParams=` takes. Check the result with an SPRT
 * (`menagerie match --sprt`) against the defaults before keeping it. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"

typedef struct {
    const char *variant, *bin, *out, *names, *start;
    long nodes, games, batch, concurrency, seed;
    double r_end;
} Args;

static int usage(void) {
    fprintf(stderr, "usage: spsa [--variant V] [--nodes N] [--games G] [--batch P] "
                    "[--concurrency C] [--seed S] [--params NAME,...] [--start TEXT] "
                    "[--r-end R] [--bin PATH] [--out FILE]\n");
    return 2;
}

static bool parse_long(const char *s, long lo, long hi, long *out) {
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

static bool parse_args(int argc, char **argv, Args *a) {
    const struct {
        const char *name;
        const char **text;
    } texts[] = {{"--variant", &a->variant},
                 {"--bin", &a->bin},
                 {"--out", &a->out},
                 {"--params", &a->names},
                 {"--start", &a->start}};
    const struct {
        const char *name;
        long *value, lo, hi;
    } numbers[] = {{"--nodes", &a->nodes, 1, 100000000},
                   {"--games", &a->games, 2, 10000000},
                   {"--batch", &a->batch, 1, 1000},
                   {"--concurrency", &a->concurrency, 1, 256},
                   {"--seed", &a->seed, 0, 1000000000}};
    for (int i = 1; i < argc; i += 2) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        bool known = false;
        if (!v)
            return false;
        for (size_t k = 0; k < sizeof texts / sizeof *texts; k++)
            if (!strcmp(o, texts[k].name))
                *texts[k].text = v, known = true;
        for (size_t k = 0; k < sizeof numbers / sizeof *numbers; k++)
            if (!strcmp(o, numbers[k].name)) {
                if (!parse_long(v, numbers[k].lo, numbers[k].hi, numbers[k].value))
                    return false;
                known = true;
            }
        if (!strcmp(o, "--r-end")) {
            char *end;
            a->r_end = strtod(v, &end);
            if (end == v || *end || !(a->r_end > 0 && a->r_end < 1))
                return false;
            known = true;
        }
        if (!known)
            return false;
    }
    return true;
}

/* Marks in tuned[] the parameters names lists ("a,b,..."; NULL = all). */
static bool pick_params(const char *names, bool tuned[ENGINE_MAX_PARAMS]) {
    for (int i = 0; i < engine_param_count(); i++)
        tuned[i] = !names;
    while (names && *names) {
        size_t len = strcspn(names, ",");
        char name[64];
        if (!len || len >= sizeof name)
            return false;
        memcpy(name, names, len);
        name[len] = '\0';
        int i = engine_param_index(name);
        if (i < 0) {
            fprintf(stderr, "spsa: no search parameter '%s'\n", name);
            return false;
        }
        tuned[i] = true;
        names += len + (names[len] == ',');
    }
    return true;
}

static uint64_t next_rand(uint64_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* theta rounded and kept within each parameter's bounds. */
static void to_params(const double theta[ENGINE_MAX_PARAMS], int p[ENGINE_MAX_PARAMS]) {
    for (int i = 0; i < engine_param_count(); i++) {
        EngineParam in = engine_param(i);
        long v = lround(theta[i]);
        p[i] = (int)(v < in.min ? in.min : v > in.max ? in.max : v);
    }
}

/* Plays a batch, 2 x --batch games of plus against minus: plus's wins,
 * losses and draws; false when the match fails. */
static bool play_batch(const Args *a, const int *plus, const int *minus, long seed, int *w, int *l,
                       int *d) {
    char tp[1024], tm[1024], cmd[4096];
    if (!engine_params_format(plus, tp, sizeof tp) || !engine_params_format(minus, tm, sizeof tm))
        return false;
    int n = snprintf(cmd, sizeof cmd,
                     "'%s' match --variant '%s' --nodes %ld --games %ld --concurrency %ld "
                     "--seed %ld --opt1 SearchParams=%s --opt2 SearchParams=%s "
                     "xboard:\"'%s' xboard\" xboard:\"'%s' xboard\" 2>&1",
                     a->bin, a->variant, a->nodes, 2 * a->batch, a->concurrency, seed, tp, tm,
                     a->bin, a->bin);
    if (n < 0 || (size_t)n >= sizeof cmd)
        return false;
    FILE *f = popen(cmd, "r");
    if (!f)
        return false;
    char line[1024];
    bool got = false;
    while (fgets(line, sizeof line, f)) {
        const char *s = strstr(line, "Score of ");
        const char *colon = s ? strchr(s, ':') : NULL;
        if (colon && sscanf(colon, ": %d - %d - %d", w, l, d) == 3)
            got = true;
    }
    int rc = pclose(f);
    return got && rc == 0 && *w + *l + *d == 2 * a->batch;
}

int main(int argc, char **argv) {
    // Step 1. Arguments and the numbers to start from.
    Args a = {.variant = "chess",
              .bin = "./menagerie",
              .nodes = 10000,
              .games = 2000,
              .batch = 4,
              .concurrency = 2,
              .seed = 1,
              .r_end = 0.01};
    bool tuned[ENGINE_MAX_PARAMS];
    if (!parse_args(argc, argv, &a) || !pick_params(a.names, tuned))
        return usage();
    if (strchr(a.bin, '\'') || strchr(a.variant, '\'')) {
        fprintf(stderr, "spsa: no quote in --bin or --variant, please\n");
        return 2;
    }
    const int n = engine_param_count();
    int p[ENGINE_MAX_PARAMS];
    char err[ENGINE_ERR_LEN];
    for (int i = 0; i < n; i++)
        p[i] = engine_param(i).def;
    if (a.start && !engine_params_parse(p, a.start, err, sizeof err)) {
        fprintf(stderr, "spsa: %s\n", err);
        return 2;
    }
    int start[ENGINE_MAX_PARAMS];
    memcpy(start, p, sizeof start);
    double theta[ENGINE_MAX_PARAMS], c[ENGINE_MAX_PARAMS], an[ENGINE_MAX_PARAMS];
    long pairs = a.games / 2, batches = (pairs + a.batch - 1) / a.batch;
    double big_a = 0.1 * (double)pairs, alpha = 0.602, gamma = 0.101;
    for (int i = 0; i < n; i++) {
        EngineParam in = engine_param(i);
        theta[i] = p[i];
        /* c_k ends at the step; a_k / c_k^2 ends at r_end */
        c[i] = in.step * pow((double)pairs, gamma);
        an[i] = a.r_end * in.step * in.step * pow(big_a + (double)pairs, alpha);
    }
    uint64_t rng = 0x9E3779B97F4A7C15ull ^ (uint64_t)a.seed * 0xD1B54A32D192ED03ull;
    if (!rng)
        rng = 1;

    // Step 2. Batches: perturb, play, step.
    long done = 0;
    int tw = 0, tl = 0, td = 0;
    for (long b = 0; b < batches; b++) {
        double k = (double)done + 0.5 * (double)a.batch + 1;
        double delta[ENGINE_MAX_PARAMS], ck[ENGINE_MAX_PARAMS], plus[ENGINE_MAX_PARAMS],
            minus[ENGINE_MAX_PARAMS];
        for (int i = 0; i < n; i++) {
            delta[i] = tuned[i] ? (next_rand(&rng) >> 63 ? 1.0 : -1.0) : 0.0;
            ck[i] = c[i] / pow(k, gamma);
            plus[i] = theta[i] + ck[i] * delta[i];
            minus[i] = theta[i] - ck[i] * delta[i];
        }
        int pp[ENGINE_MAX_PARAMS], pm[ENGINE_MAX_PARAMS];
        to_params(plus, pp);
        to_params(minus, pm);
        int w = 0, l = 0, d = 0;
        if (!play_batch(&a, pp, pm, (a.seed * 100003 + b) % 4000000000L, &w, &l, &d)) {
            fprintf(stderr, "spsa: batch %ld: the match failed (see `%s match`)\n", b + 1, a.bin);
            return 1;
        }
        tw += w, tl += l, td += d;
        for (int i = 0; i < n; i++) {
            if (!tuned[i])
                continue;
            EngineParam in = engine_param(i);
            double ak = an[i] / pow(big_a + k, alpha);
            theta[i] += ak / ck[i] * (w - l) * delta[i];
            if (theta[i] < in.min)
                theta[i] = in.min;
            if (theta[i] > in.max)
                theta[i] = in.max;
        }
        done += a.batch;

        // Step 3. Progress, and the numbers reached so far.
        to_params(theta, p);
        char text[1024];
        engine_params_format(p, text, sizeof text);
        fprintf(stderr, "batch %ld/%ld, %ld games: +%d -%d =%d (all: +%d -%d =%d) %s\n", b + 1,
                batches, 2 * done, w, l, d, tw, tl, td, text);
        FILE *f = a.out ? fopen(a.out, "w") : NULL;
        bool wrote = f && fprintf(f, "%s\n", text) >= 0;
        if (f && fclose(f))
            wrote = false;
        if (a.out && !wrote) {
            fprintf(stderr, "spsa: cannot write %s\n", a.out);
            return 1;
        }
    }

    // Step 4. The result, every tuned number from where it started.
    for (int i = 0; i < n; i++)
        if (tuned[i])
            fprintf(stderr, "%-14s %6d -> %6.1f\n", engine_param(i).name, start[i], theta[i]);
    char text[1024];
    engine_params_format(p, text, sizeof text);
    printf("%s\n", text);
    return 0;
}
