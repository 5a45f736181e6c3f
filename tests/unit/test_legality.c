/* test_legality.c - engine_describe is the legality check of every move the
 * engine passes on (the move a search returns, the ponder move, XBoard's
 * hint): over random positions of every game it must succeed exactly for
 * the legal moves, in any spelling the game reads, and agree with
 * engine_play. Candidates: every legal move by text and SAN, and texts
 * that are no move (square pairs, drops, suffixes, mutations of legal
 * texts; for the mancala every text its grammar has). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "test.h"

enum { GAMES = 1, PLIES = 40, RANDOM_TEXTS = 60 };

static uint64_t rng = 0x9E3779B97F4A7C15ull;

static unsigned next(unsigned n) {
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (unsigned)(rng % n);
}

typedef struct {
    MoveDesc *m;
    int n;
} Legal;

static bool listed(const Legal *l, const char *t) {
    for (int i = 0; i < l->n; i++)
        if (!strcmp(l->m[i].text, t) || !strcmp(l->m[i].san, t))
            return true;
    return false;
}

static bool is_text(const Legal *l, const char *t) {
    for (int i = 0; i < l->n; i++)
        if (!strcmp(l->m[i].text, t))
            return true;
    return false;
}

/* One candidate text T in G's position: describe succeeds exactly for a
 * legal move, and then names it by its listed text, which engine_play
 * plays to the same position as T; a refusal leaves the game as it was. */
static void check_text(Game *g, const Legal *l, const char *name, const char *t) {
    MoveDesc d;
    char err[ENGINE_ERR_LEN] = "", before[1024], after[1024], want[1024];
    engine_position_text(g, before, sizeof before);
    bool ok = engine_describe(g, t, &d, err, sizeof err);
    if (!ok) {
        engine_position_text(g, after, sizeof after);
        if (listed(l, t) || !err[0] || strcmp(after, before))
            test_fail(__FILE__, __LINE__, "%s %s: \"%s\" refused (%s)", name, before, t, err);
        return;
    }
    if (!is_text(l, d.text)) {
        test_fail(__FILE__, __LINE__, "%s %s: \"%s\" described as \"%s\", not a legal move", name,
                  before, t, d.text);
        return;
    }
    bool played = engine_play(g, t, err, sizeof err);
    engine_position_text(g, after, sizeof after);
    played = played && engine_undo(g) && engine_play(g, d.text, err, sizeof err);
    engine_position_text(g, want, sizeof want);
    if (!played || strcmp(after, want) || !engine_undo(g))
        test_fail(__FILE__, __LINE__, "%s %s: \"%s\" (\"%s\") not played alike", name, before, t,
                  d.text);
}

/* Texts of a chess game that may or may not be moves. */
static void chess_candidates(Game *g, const Legal *l, const char *name) {
    GameInfo info;
    engine_info(g, &info);
    static const char *const suffix[] = {"", "", "", "q", "n", "=Q", "+", "x", "m", ",a1b2"};
    char t[ENGINE_MOVE_TEXT];
    for (int k = 0; k < RANDOM_TEXTS; k++) {
        unsigned kind = next(4);
        if (kind <= 1) /* a square pair */
            snprintf(t, sizeof t, "%c%u%c%u%s", 'a' + next((unsigned)info.files),
                     1 + next((unsigned)info.ranks), 'a' + next((unsigned)info.files),
                     1 + next((unsigned)info.ranks), suffix[next(10)]);
        else if (kind == 2) /* a drop */
            snprintf(t, sizeof t, "%c@%c%u", "PNBRQKMFE"[next(9)], 'a' + next((unsigned)info.files),
                     1 + next((unsigned)info.ranks));
        else if (l->n) { /* a legal text with one character changed */
            const MoveDesc *m = &l->m[next((unsigned)l->n)];
            snprintf(t, sizeof t, "%s", next(2) ? m->text : m->san);
            t[next((unsigned)strlen(t))] = "abcdefghij0123456789+x@=QNBRKmf"[next(31)];
        } else
            snprintf(t, sizeof t, "0000");
        check_text(g, l, name, t);
    }
    static const char *const fixed[] = {"",      "0000",   "@@@@", "pass", "O-O",
                                        "O-O-O", "e2e4e5", "a0a1", "k1k2", "a11a1"};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        check_text(g, l, name, fixed[i]);
}

/* Every text of the mancala's move grammar, and some beside it. */
static void mancala_candidates(Game *g, const Legal *l, const char *name) {
    char t[ENGINE_MOVE_TEXT];
    for (int hole = 0; hole <= 17; hole++)
        for (int v = 0; v < 16; v++) {
            snprintf(t, sizeof t, "%s%d%c%s", v & 8 ? (v & 1 ? "s" : "S") : "", hole,
                     v & 4 ? '-' : '+', v & 2 ? (v & 1 ? "X" : "x") : "");
            check_text(g, l, name, t);
        }
    static const char *const fixed[] = {"",     "pass", "PASS", "3",   "+",
                                        "3+x+", "3++",  " 3+ ", "e2e4"};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        check_text(g, l, name, fixed[i]);
}

static void check_position(Game *g, const char *name, bool mancala) {
    Legal l = {malloc(ENGINE_MAX_MOVES * sizeof *l.m), 0};
    if (!l.m)
        abort();
    l.n = engine_moves(g, l.m, ENGINE_MAX_MOVES);
    for (int i = 0; i < l.n; i++) {
        check_text(g, &l, name, l.m[i].text);
        check_text(g, &l, name, l.m[i].san);
    }
    if (mancala)
        mancala_candidates(g, &l, name);
    else
        chess_candidates(g, &l, name);
    free(l.m);
}

/* The case that was found: hole 12 is not A's; describe said yes. */
static void test_found_case(void) {
    char err[ENGINE_ERR_LEN];
    Game *g = engine_new("slangenspel", "6/6/6/6/6/6/0/5/5/5/5/0/6/6/6/6 0 0 a", err, sizeof err);
    CHECK(g != NULL);
    if (!g)
        return;
    MoveDesc d;
    err[0] = 0;
    CHECK(!engine_describe(g, "12+x", &d, err, sizeof err));
    CHECK(strstr(err, "not in A's ring") != NULL);
    CHECK(engine_describe(g, "3+", &d, err, sizeof err) && !strcmp(d.text, "3+") && d.from == 2);
    engine_free(g);
}

void test_legality(void) {
    test_found_case();
    for (const char *const *v = engine_game_names(); *v; v++) {
        bool mancala = !strncmp(*v, "slangenspel", 11);
        for (int game = 0; game < GAMES; game++) {
            char err[ENGINE_ERR_LEN];
            Game *g = engine_new(*v, NULL, err, sizeof err);
            if (!g) {
                test_fail(__FILE__, __LINE__, "engine_new %s: %s", *v, err);
                break;
            }
            MoveDesc *m = malloc(ENGINE_MAX_MOVES * sizeof *m);
            if (!m)
                abort();
            for (int ply = 0; ply < PLIES; ply++) {
                check_position(g, *v, mancala);
                int n = engine_moves(g, m, ENGINE_MAX_MOVES);
                if (n <= 0 || !engine_play(g, m[next((unsigned)n)].text, err, sizeof err))
                    break;
            }
            free(m);
            engine_free(g);
        }
    }
}
