/* levels.c - what a playing level means, for people choosing one: the caps
 * come from the searchers themselves (search_level, mancala_level_*), the
 * strength from the measured table below, the one place of those figures
 * (docs/strength.md, "Levels", has the matches behind them). Mancala levels
 * are not measured. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "mancala/search.h"
#include "search/search.h"

typedef struct {
    int level;
    int elo_full, elo_fairymax; /* ENGINE_ELO_NONE: not measured */
} Measured;

/* Chess-like games; one row a level, ended by level 0. The figures are the
 * line fitted to the matches of docs/strength.md, "Levels" (chess, 2 s a
 * move): about 95 Elo a level, level 20 about 420 Elo above level 19. */
static const Measured measured[] = {
    {1, -2120, -1140},
    {2, -2030, -1050},
    {3, -1930, -950},
    {4, -1840, -860},
    {5, -1740, -760},
    {6, -1650, -670},
    {7, -1550, -570},
    {8, -1460, -480},
    {9, -1360, -380},
    {10, -1270, -290},
    {11, -1180, -200},
    {12, -1080, -100},
    {13, -990, -10},
    {14, -890, 90},
    {15, -800, 180},
    {16, -700, 280},
    {17, -610, 370},
    {18, -510, 470},
    {19, -420, 560},
    {20, ENGINE_ELO_NONE, 980}, /* full strength itself */
    {0, ENGINE_ELO_NONE, ENGINE_ELO_NONE},
};

/* How the figures above were measured, one sentence ("" while there are none). */
static const char source[] =
    "Chess at 2 s a move: a line fitted to 210 games of levels 1-18 against Fairy-Max 5.0b "
    "and 16 of levels 16 and 19 against level 20; each figure is good to 100-200 Elo.";

const char *engine_level_source(void) {
    return source;
}

/* UCI_Elo's scale: the Elo against Fairy-Max above, plus this. The measured
 * figures fix the differences only; where the scale starts is a convention
 * (Fairy-Max 5.0b at 2 s a move counts as 2000). */
#define UCI_ELO_FAIRYMAX 2000

void engine_elo_range(int *lo, int *hi) {
    *lo = *hi = UCI_ELO_FAIRYMAX;
    bool first = true;
    for (const Measured *m = measured; m->level; m++) {
        if (m->elo_fairymax == ENGINE_ELO_NONE)
            continue;
        int e = UCI_ELO_FAIRYMAX + m->elo_fairymax;
        if (first || e < *lo)
            *lo = e;
        if (first || e > *hi)
            *hi = e;
        first = false;
    }
}

int engine_level_for_elo(int elo) {
    int best = 20, gap = -1;
    for (const Measured *m = measured; m->level; m++) {
        if (m->elo_fairymax == ENGINE_ELO_NONE)
            continue;
        int d = abs(UCI_ELO_FAIRYMAX + m->elo_fairymax - elo);
        if (gap < 0 || d < gap || (d == gap && m->level < best))
            best = m->level, gap = d;
    }
    return best;
}

/* Whom a level plays like, by its Elo against Fairy-Max (itself near 2000 on the
 * engine rating lists): a rough guide in a player's words, strongest last. */
static const struct {
    int below; /* Elo against Fairy-Max under this */
    const char *like;
} likeness[] = {
    {-900, "beginner"}, {-500, "casual player"},
    {0, "club player"}, {400, "strong club player"},
    {700, "master"},    {ENGINE_ELO_NONE, "grandmaster and beyond"}, /* the rest */
};

static const char *like_of(int elo_fairymax) {
    if (elo_fairymax == ENGINE_ELO_NONE)
        return "";
    size_t n = sizeof likeness / sizeof likeness[0];
    for (size_t i = 0; i + 1 < n; i++)
        if (elo_fairymax < likeness[i].below)
            return likeness[i].like;
    return likeness[n - 1].like;
}

static int elo_of(const Measured *m, bool fairymax) {
    return fairymax ? m->elo_fairymax : m->elo_full;
}

static void put_elo(char *buf, size_t len, int elo) {
    if (elo == ENGINE_ELO_LOST_ALL)
        snprintf(buf, len, "lost every game");
    else if (!elo)
        snprintf(buf, len, "even");
    else
        snprintf(buf, len, "about %+d Elo", elo); /* matches of a few dozen games */
}

/* The strength against one opponent in words: measured at this level, or the
 * nearest measured levels around it; "" when none is measured. */
static void strength(char *buf, size_t len, int level, bool fairymax, const char *opp) {
    const Measured *lo = NULL, *hi = NULL;
    buf[0] = 0;
    for (const Measured *m = measured; m->level; m++) {
        if (elo_of(m, fairymax) == ENGINE_ELO_NONE)
            continue;
        if (m->level <= level && (!lo || m->level > lo->level))
            lo = m;
        if (m->level >= level && (!hi || m->level < hi->level))
            hi = m;
    }
    char a[32], b[32];
    if (lo && lo->level == level) {
        put_elo(a, sizeof a, elo_of(lo, fairymax));
        snprintf(buf, len, " Against %s: %s.", opp, a);
    } else if (lo && hi) {
        put_elo(a, sizeof a, elo_of(lo, fairymax));
        put_elo(b, sizeof b, elo_of(hi, fairymax));
        snprintf(buf, len, " Against %s: between level %d (%s) and level %d (%s).", opp, lo->level,
                 a, hi->level, b);
    } else if (lo || hi) {
        const Measured *m = lo ? lo : hi;
        put_elo(a, sizeof a, elo_of(m, fairymax));
        snprintf(buf, len, " Against %s: not measured; level %d: %s.", opp, m->level, a);
    }
}

static void put_count(char *buf, size_t len, uint64_t n) {
    char digits[24];
    int nd = snprintf(digits, sizeof digits, "%llu", (unsigned long long)n);
    size_t o = 0;
    for (int i = 0; i < nd && o + 2 < len; i++) {
        if (i && (nd - i) % 3 == 0)
            buf[o++] = ',';
        buf[o++] = digits[i];
    }
    buf[o] = 0;
}

bool engine_level(GameKind kind, int level, EngineLevel *out) {
    if (level < 1 || level > 20)
        return false;
    memset(out, 0, sizeof *out);
    out->level = level;
    out->elo_full = out->elo_fairymax = ENGINE_ELO_NONE;
    out->like = "";
    bool mancala = kind == KIND_MANCALA;
    // Step 1. The caps, from the searcher of the game's kind.
    SearchLevel sl;
    if (mancala) {
        out->depth = mancala_level_depth(level);
        out->noise = mancala_level_blur(level) * 50; /* half eggs */
    } else if (search_level(level, &sl)) {
        out->depth = sl.depth;
        out->nodes = sl.nodes;
        out->noise = sl.noise;
    }
    // Step 2. The measured strength (chess-like games only so far).
    char full[160] = "", fm[160] = "";
    if (!mancala) {
        for (const Measured *m = measured; m->level; m++)
            if (m->level == level) {
                out->elo_full = m->elo_full;
                out->elo_fairymax = m->elo_fairymax;
            }
        out->like = like_of(out->elo_fairymax);
        if (level < 20)
            strength(full, sizeof full, level, false, "full strength");
        strength(fm, sizeof fm, level, true, "Fairy-Max");
    }
    // Step 3. In words.
    if (level == 20) {
        snprintf(out->text, sizeof out->text, "Level 20 is full strength: no caps; %s%s",
                 mancala ? "the engine thinks within its time per move and stops once it has "
                           "proven the result."
                         : "the engine thinks for its whole time per move, or as its clock "
                           "allows.",
                 fm);
        return true;
    }
    char nodes[32] = "", unit[16];
    if (out->nodes) {
        char n[24];
        put_count(n, sizeof n, out->nodes);
        snprintf(nodes, sizeof nodes, " and %s positions", n);
    }
    snprintf(unit, sizeof unit, "%s%s", mancala ? "egg" : "pawn", out->noise == 100 ? "" : "s");
    snprintf(
        out->text, sizeof out->text,
        "Level %d searches at most %d half-move%s deep%s, its judgement blurred by up to %g %s; it "
        "moves as soon as that is done, within the time per move.%s%s%s",
        level, out->depth, out->depth == 1 ? "" : "s", nodes, out->noise / 100.0, unit, full, fm,
        full[0] || fm[0] ? "" : " Its strength is not yet measured.");
    return true;
}
