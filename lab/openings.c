/* openings.c - `menagerie openings`: makes the opening set of a chess game
 * for the match tool. Each candidate is a random set-up (where the game has
 * several) and a few plies that neither end the game nor leave a win in
 * one: random ones, or with a spread, each drawn from the moves a MultiPV
 * search scores within that spread of the best (plausible openings, as
 * players would choose them); a fixed-nodes search then scores the line,
 * and only balanced ones (the score within a margin of equality) are kept,
 * without repeats. Lines go to stdout in the match tool's form:
 * "[setup=NAME] move move ...". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/proto/proto_io.h"
#include "engine/engine.h"
#include "lab/lab.h"

typedef struct {
    const char *variant;
    long count, plies, nodes, margin;
    long spread; /* -1: random plies; else centipawns below the best move */
    unsigned long seed;
} OpeningArgs;

static int usage(void) {
    fprintf(stderr, "usage: menagerie openings VARIANT [options] > FILE\n"
                    "  --count N    openings to make (default 200)\n"
                    "  --plies N    plies from the start, random ones unless --spread\n"
                    "               (default 6)\n"
                    "  --nodes N    nodes of the search that scores each (default 20000)\n"
                    "  --margin CP  largest |score| kept, centipawns (default 60)\n"
                    "  --spread CP  each ply one of the best moves (MultiPV search of\n"
                    "               --nodes) within CP of the best, not a random one\n"
                    "  --seed N     random seed (default 1)\n");
    return 2;
}

static unsigned next_rand(unsigned long *s) {
    *s = (*s * 6364136223846793005ull + 1442695040888963407ull) & 0xffffffffffffffffull;
    return (unsigned)(*s >> 33);
}

/* A reported score in centipawns, mates as +-30000. */
static int info_score(const SearchInfo *in) {
    return in->mate ? (in->mate > 0 ? 30000 : -30000) : in->score;
}

static void last_score(const SearchInfo *in, void *ud) {
    *(int *)ud = info_score(in);
}

/* The best lines of one MultiPV search: first move and score of each. */
typedef struct {
    int n, score[SEARCH_MAX_PV];
    char move[SEARCH_MAX_PV][ENGINE_MOVE_TEXT];
} Lines;

static void line_info(const SearchInfo *in, void *ud) {
    Lines *l = ud;
    int k = in->multipv - 1;
    if (k < 0 || k >= SEARCH_MAX_PV || !in->pv[0])
        return;
    l->score[k] = info_score(in);
    size_t len = strcspn(in->pv, " ");
    if (len >= ENGINE_MOVE_TEXT)
        return;
    memcpy(l->move[k], in->pv, len);
    l->move[k][len] = 0;
    if (k >= l->n)
        l->n = k + 1;
}

/* A plausible move into mv: one of the best lines, drawn uniformly from
 * those scored within spread of the first; false when the search fails. */
static bool plausible_move(Game *g, const OpeningArgs *a, unsigned long *seed, char *mv,
                           size_t len) {
    SearchLimits lim;
    memset(&lim, 0, sizeof lim);
    lim.nodes = (uint64_t)a->nodes;
    lim.hash_mb = 8;
    lim.multipv = SEARCH_MAX_PV;
    Lines l = {0};
    SearchCallbacks cb = {line_info, &l};
    char best[ENGINE_MOVE_TEXT];
    if (!engine_go(g, &lim, &cb, best, sizeof best) || !l.n)
        return false;
    int near = 1;
    while (near < l.n && l.move[near][0] && l.score[near] >= l.score[0] - a->spread)
        near++;
    snprintf(mv, len, "%s", l.move[next_rand(seed) % (unsigned)near]);
    return true;
}

/* One candidate line into LINE; false when it ran into the game's end. */
static bool candidate(const OpeningArgs *a, unsigned long *seed, char *line, size_t len) {
    const char *const *setups = engine_setups(a->variant);
    int nset = 0;
    while (setups[nset])
        nset++;
    char err[ENGINE_ERR_LEN], fen[512];
    size_t o = 0;
    line[0] = 0;
    Game *g;
    if (nset) {
        const char *name = setups[next_rand(seed) % (unsigned)nset];
        if (engine_start_fen(a->variant, name, fen, sizeof fen, err, sizeof err))
            return false;
        g = engine_new(a->variant, fen, err, sizeof err);
        o += (size_t)snprintf(line, len, "setup=%s", name);
    } else
        g = proto_new_game(a->variant, NULL, err, sizeof err);
    if (!g)
        return false;
    MoveDesc *m = malloc(ENGINE_MAX_MOVES * sizeof *m);
    if (!m)
        abort();
    bool ok = true;
    for (int p = 0; p < a->plies && ok; p++) {
        int n = engine_moves(g, m, ENGINE_MAX_MOVES);
        if (n <= 0) {
            ok = false;
            break;
        }
        char mv[ENGINE_MOVE_TEXT];
        if (a->spread < 0)
            snprintf(mv, sizeof mv, "%s", m[next_rand(seed) % (unsigned)n].text);
        else if (!plausible_move(g, a, seed, mv, sizeof mv)) {
            ok = false;
            break;
        }
        ok = engine_play(g, mv, err, sizeof err) && engine_result(g).kind == RESULT_NONE &&
             !engine_ends_in_one(g) && o + strlen(mv) + 2 < len;
        if (ok)
            o += (size_t)snprintf(line + o, len - o, "%s%s", o ? " " : "", mv);
    }
    if (ok) {
        SearchLimits lim;
        memset(&lim, 0, sizeof lim);
        lim.nodes = (uint64_t)a->nodes;
        lim.hash_mb = 8;
        int score = 0;
        SearchCallbacks cb = {last_score, &score};
        char best[ENGINE_MOVE_TEXT];
        ok =
            engine_go(g, &lim, &cb, best, sizeof best) && score <= a->margin && score >= -a->margin;
    }
    free(m);
    engine_free(g);
    return ok;
}

int openings_main(int argc, char **argv) {
    OpeningArgs a = {NULL, 200, 6, 20000, 60, -1, 1};
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        long n;
        if (o[0] != '-' && !a.variant)
            a.variant = o;
        else if (!v || !proto_parse_long(v, 0, 100000000, &n))
            return usage();
        else if (!strcmp(o, "--count") && n > 0)
            a.count = n, i++;
        else if (!strcmp(o, "--plies"))
            a.plies = n, i++;
        else if (!strcmp(o, "--nodes") && n > 0)
            a.nodes = n, i++;
        else if (!strcmp(o, "--margin"))
            a.margin = n, i++;
        else if (!strcmp(o, "--spread"))
            a.spread = n, i++;
        else if (!strcmp(o, "--seed"))
            a.seed = (unsigned long)n, i++;
        else
            return usage();
    }
    if (!a.variant)
        return usage();
    char err[ENGINE_ERR_LEN];
    Game *probe = engine_new(a.variant, NULL, err, sizeof err);
    if (!probe) {
        fprintf(stderr, "menagerie openings: %s\n", err);
        return 2;
    }
    GameInfo info;
    engine_info(probe, &info);
    engine_free(probe);
    if (info.kind != KIND_CHESS) {
        fprintf(stderr, "menagerie openings: %s is not a chess game\n", a.variant);
        return 2;
    }
    char spread[48] = "";
    if (a.spread >= 0)
        snprintf(spread, sizeof spread, " --spread %ld", a.spread);
    printf("# %s: %ld openings, %ld %s plies, |score| <= %ld cp after %ld nodes, seed %lu\n",
           a.variant, a.count, a.plies, a.spread < 0 ? "random" : "plausible", a.margin, a.nodes,
           a.seed);
    printf("# made by: menagerie openings %s --count %ld --plies %ld --nodes %ld --margin %ld%s "
           "--seed %lu\n",
           a.variant, a.count, a.plies, a.nodes, a.margin, spread, a.seed);
    char(*kept)[1024] = malloc((size_t)a.count * sizeof *kept);
    if (!kept)
        abort();
    long n = 0, tried = 0;
    unsigned long seed = a.seed;
    while (n < a.count && tried < a.count * 200) {
        char line[1024];
        tried++;
        if (!candidate(&a, &seed, line, sizeof line))
            continue;
        bool dup = false;
        for (long k = 0; k < n && !dup; k++)
            dup = !strcmp(kept[k], line);
        if (dup)
            continue;
        snprintf(kept[n++], sizeof kept[0], "%s", line);
        printf("%s\n", line);
        fflush(stdout);
        fprintf(stderr, "\ropenings: %ld/%ld kept of %ld tried", n, a.count, tried);
    }
    fprintf(stderr, "\n");
    free(kept);
    return n == a.count ? 0 : 1;
}
