/* test_mancala.c - Slangenspel: text, rules, variants, game end, perft, solved values.
 * Every expected number here comes from the rules worked out by hand (the reasoning is
 * in the comments) or from tests/perft/slangenspel.epd, never from the program. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "engine/game.h"
#include "mancala/board.h"
#include "mancala/egdb.h"
#include "mancala/search.h"
#include "test.h"

static atomic_bool go_stop; /* the flag searches poll */

enum { BASE = MANCALA_BASE, VA = MANCALA_VAR_A, VB = MANCALA_VAR_B, VAB = VA | VB };

static MancalaPos pos_of(int rules, const char *text) {
    MancalaPos p;
    char err[160] = "";
    bool ok = mancala_parse(&p, rules, text, err, sizeof err);
    if (!ok) {
        test_fail(__FILE__, __LINE__, "parse \"%s\": %s", text, err);
        mancala_start(&p, rules);
    }
    return p;
}

static void text_of(const MancalaPos *p, char *buf, size_t len) {
    mancala_print(p, buf, len);
}

/* All legal moves as one space-separated string. */
static void moves_of(const MancalaPos *p, char *buf, size_t len) {
    MancalaMove mv[MANCALA_MAX_MOVES];
    int n = mancala_moves(p, mv);
    size_t o = 0;
    buf[0] = 0;
    for (int i = 0; i < n; i++) {
        char t[MANCALA_MOVE_TEXT];
        mancala_move_text(mv[i], t, sizeof t);
        o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? " " : "", t);
        if (o >= len)
            break;
    }
}

/* Plays MOVE (text) on position BEFORE and returns the position text after it. */
static void after(int rules, const char *before, const char *move, char *buf, size_t len) {
    MancalaPos p = pos_of(rules, before);
    MancalaMove m;
    char err[160] = "";
    if (!mancala_parse_move(&p, move, &m, err, sizeof err)) {
        test_fail(__FILE__, __LINE__, "move %s in \"%s\": %s", move, before, err);
        snprintf(buf, len, "(illegal)");
        return;
    }
    mancala_play(&p, m, &p);
    text_of(&p, buf, len);
}

/* True when parsing TEXT fails with a reason that contains WORD. */
static bool bad_position(int rules, const char *text, const char *word) {
    MancalaPos p;
    char err[160] = "";
    if (mancala_parse(&p, rules, text, err, sizeof err))
        return false;
    return err[0] && strstr(err, word) != NULL;
}

static bool bad_move(int rules, const char *pos, const char *move, const char *word) {
    MancalaPos p = pos_of(rules, pos);
    MancalaMove m;
    char err[160] = "";
    if (mancala_parse_move(&p, move, &m, err, sizeof err))
        return false;
    return err[0] && strstr(err, word) != NULL;
}

static void test_text(void) {
    static const struct {
        int rules;
        const char *text;
    } good[] = {
        {BASE, "5/5/5/5/5/5/5/5/5/5/5/5/5/5/5/5 0 0 a"},
        {VA, "5/5/5/5/5/5/5/5/5/5/5/5/5/5/5/5 15 15 a 0 0"},
        {VB, "5/5/5/5/5/5/5/5/5/5/5/5/5/5/5/5 0 0 a 0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0"},
        {VAB, "5/5/5/5/5/5/5/5/5/5/5/5/5/5/5/5 15 15 a 0 0 0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0"},
        {BASE, "1/1/0/3/1/1/1/22/0/4/24/0/0/0/3/14 5 0 b"},
        {VA, "6/1/13/0/20/0/11/1/6/8/0/2/5/7/11/1 3 15 b 3 2"},
        {VB, "1/0/0/5/0/1/4/22/2/1/21/0/0/3/3/15 1 1 b 2/0/0/0/0/5/0/0/0/6/0/0/0/0/0/0"},
        {VAB, "5/0/0/1/4/8/12/6/5/0/5/5/2/0/2/19 34 2 b 3 3 0/0/0/3/0/0/0/0/0/0/0/0/0/0/0/0"},
    };
    char buf[MANCALA_POS_TEXT];
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        MancalaPos p = pos_of(good[i].rules, good[i].text);
        text_of(&p, buf, sizeof buf);
        CHECK_STR(buf, good[i].text);
    }
    /* the start positions */
    const char *const starts[4] = {good[0].text, good[1].text, good[2].text, good[3].text};
    for (int r = 0; r < 4; r++) {
        MancalaPos p;
        mancala_start(&p, r);
        text_of(&p, buf, sizeof buf);
        CHECK_STR(buf, starts[r]);
    }
    /* missing variant fields read as 0; extra blanks are fine */
    MancalaPos p = pos_of(VAB, "  5/5/5/5/5/5/5/5/5/5/5/5/5/5/5/5   15 15 b ");
    text_of(&p, buf, sizeof buf);
    CHECK_STR(buf, "5/5/5/5/5/5/5/5/5/5/5/5/5/5/5/5 15 15 b 0 0 0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0");
    p = pos_of(VA, "5/5/5/5/5/5/5/5/5/5/5/5/5/5/5/5 15 15 a 2");
    CHECK(p.used[0] == 2 && p.used[1] == 0);
    /* names of the rule sets */
    CHECK(mancala_rules_by_name("slangenspel") == BASE);
    CHECK(mancala_rules_by_name("slangenspel-a") == VA);
    CHECK(mancala_rules_by_name("slangenspel-b") == VB);
    CHECK(mancala_rules_by_name("slangenspel-ab") == VAB);
    CHECK(mancala_rules_by_name("slangenspel-c") == -1);
    CHECK(mancala_rules_by_name(NULL) == -1);

    /* bad texts, each with a reason */
    CHECK(bad_position(BASE, "", "16 hole counts"));
    CHECK(bad_position(BASE, "5/5/5 0 0 a", "16 numbers"));
    CHECK(bad_position(BASE, "5/5/5/5/5/5/5/5/5/5/5/5/5/5/5/5/5 0 0 a", "found more"));
    CHECK(bad_position(BASE, "5/5/5/5/5/5/5/5/5/5/5/5/5/5/5/-5 0 0 a", "value 16"));
    CHECK(bad_position(BASE, "5/5/5/5/5/5/5/x/5/5/5/5/5/5/5/5 0 0 a", "value 8"));
    CHECK(bad_position(BASE, "5/5/5/5/5/5/5/5/5/5/5/5/5/5/5/5 0 0", "side to move"));
    CHECK(bad_position(BASE, "5/5/5/5/5/5/5/5/5/5/5/5/5/5/5/5 0 0 c", "'a' or 'b'"));
    CHECK(bad_position(BASE, "5/5/5/5/5/5/5/5/5/5/5/5/5/5/5/5 0 0 A", "'a' or 'b'"));
    CHECK(bad_position(BASE, "5/5/5/5/5/5/5/5/5/5/5/5/5/5/5/5 x 0 a", "A's store"));
    CHECK(bad_position(BASE, "5/5/5/5/5/5/5/5/5/5/5/5/5/5/5/5 0 -1 a", "B's store"));
    CHECK(bad_position(BASE, "5/5/5/5/5/5/5/5/5/5/5/5/5/5/5/5 0 99999 a", "B's store"));
    CHECK(bad_position(BASE, "5/5/5/5/5/5/5/5/5/5/5/5/5/5/5/5 0 0 a 0 0", "unexpected"));
    CHECK(bad_position(BASE, "5/5/5/5/5/5/5/5/5/5/5/5/5/5/5/5 0 0 a 1 2 3 4 5 6 7 8 9",
                       "unexpected field '1'"));
    CHECK(bad_position(VAB, "5/5/5/5/5/5/5/5/5/5/5/5/5/5/5/5 0 0 a 1 2 0/0", "origins"));
    CHECK(bad_position(VAB,
                       "5/5/5/5/5/5/5/5/5/5/5/5/5/5/5/5 0 0 a 1 2 "
                       "0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0 7 8 9",
                       "unexpected field '7'"));
    CHECK(bad_position(BASE, "99/99/99/0/0/0/0/0/0/0/0/0/0/0/0/0 0 0 a", "too many eggs"));
    CHECK(
        bad_position(BASE, "999999999999999999999/5/5/5/5/5/5/5/5/5/5/5/5/5/5/5 0 0 a", "value 1"));
    CHECK(bad_position(VA, "5/5/5/5/5/5/5/5/5/5/5/5/5/5/5/5 15 15 a 4 0", "used by A"));
    CHECK(bad_position(VA, "5/5/5/5/5/5/5/5/5/5/5/5/5/5/5/5 15 15 a 0 x", "used by B"));
    CHECK(bad_position(VA, "5/5/5/5/5/5/5/5/5/5/5/5/5/5/5/5 15 15 a 0 0 1", "unexpected"));
    CHECK(bad_position(VB, "1/5/5/5/5/5/5/5/5/5/5/5/5/5/5/5 0 0 a 0/3/0/0/0/0/0/0/0/0/0/0/0/0/0/0",
                       "hole 2 holds 5"));
    CHECK(bad_position(VB, "1/5/5/5/5/5/5/5/5/5/5/5/5/5/5/5 0 0 a 17/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0",
                       "origins"));
    CHECK(bad_position(VB, "1/5/5/5/5/5/5/5/5/5/5/5/5/5/5/5 0 0 a 0/0/0", "origins"));
    CHECK(bad_position(VAB,
                       "5/5/5/5/5/5/5/5/5/5/5/5/5/5/5/5 15 15 a 0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0",
                       "store moves"));
    char err[160] = "";
    CHECK(!mancala_parse(&p, BASE, NULL, err, sizeof err) && err[0]);
}

static void test_move_text(void) {
    const char *start = "5/5/5/5/5/5/5/5/5/5/5/5/5/5/5/5 0 0 a";
    /* the 18 moves of the start: 16 sowings, and the two whose last egg reaches an end:
     * 5- ends in hole 16 (5,4,3,2,1 -> 4,3,2,1,16) and 6- in hole 1 */
    char buf[512];
    MancalaPos p = pos_of(BASE, start);
    moves_of(&p, buf, sizeof buf);
    CHECK_STR(buf, "1+ 1- 2+ 2- 3+ 3- 4+ 4- 5+ 5- 5-x 6+ 6- 6-x 7+ 7- 8+ 8-");
    /* the text of every legal move reads back as the same move */
    MancalaMove mv[MANCALA_MAX_MOVES], back;
    int n = mancala_moves(&p, mv);
    for (int i = 0; i < n; i++) {
        char t[MANCALA_MOVE_TEXT], err[160];
        mancala_move_text(mv[i], t, sizeof t);
        CHECK(mancala_parse_move(&p, t, &back, err, sizeof err) && back == mv[i]);
    }
    CHECK(bad_move(BASE, start, "", "bad move text"));
    CHECK(bad_move(BASE, start, "3", "bad move text"));
    CHECK(bad_move(BASE, start, "+", "bad move text"));
    CHECK(bad_move(BASE, start, "3*", "bad move text"));
    CHECK(bad_move(BASE, start, "3+y", "bad move text"));
    CHECK(bad_move(BASE, start, "3+xx", "bad move text"));
    CHECK(bad_move(BASE, start, "0+", "bad move text"));
    CHECK(bad_move(BASE, start, "17+", "bad move text"));
    CHECK(bad_move(BASE, start, "123456789012345678901234567890+", "bad move text"));
    CHECK(bad_move(BASE, start, "9+", "not in A's ring"));
    CHECK(bad_move(BASE, start, "3+x", "lands in hole 8"));
    CHECK(bad_move(BASE, start, "S3+", "variant A"));
    CHECK(bad_move(BASE, start, "pass", "variant B"));
    CHECK(bad_move(BASE, "5/0/5/5/5/5/5/5/5/5/5/5/5/5/5/5 0 0 a", "2+", "hole 2 is empty"));
    CHECK(bad_move(BASE, "5/5/5/5/5/5/5/5/5/5/5/5/5/5/5/5 0 0 b", "3+", "not in B's ring"));
    CHECK(bad_move(BASE, "0/0/0/0/0/0/0/0/5/5/5/5/5/5/5/5 0 0 a", "1+", "over"));
    CHECK(bad_move(VB, start, "pass", "only without a legal move"));
    CHECK(bad_move(VA, "5/5/5/5/5/5/5/5/5/5/5/5/5/5/5/5 15 15 a 0 0", "S3+", "empty hole"));
    CHECK(bad_move(VA, "0/5/5/5/5/5/5/5/5/5/5/5/5/5/5/5 15 15 a 3 0", "S1+", "all 3"));
    CHECK(bad_move(VA, "0/5/5/5/5/5/5/5/5/5/5/5/5/5/5/5 4 15 a 0 0", "S1+", "holds 4"));
    CHECK(bad_move(VA, "0/5/5/5/5/5/5/5/5/5/5/5/5/5/5/5 15 15 a 0 0", "S1+x", "lands in hole 6"));
    MancalaMove m;
    CHECK(!mancala_parse_move(&p, NULL, &m, buf, sizeof buf) && buf[0]);
    /* surrounding blanks and a capital X are accepted */
    CHECK(mancala_parse_move(&p, " 5-X ", &m, buf, sizeof buf));
    mancala_move_text(m, buf, sizeof buf);
    CHECK_STR(buf, "5-x");
}

static void test_sowing(void) {
    char buf[MANCALA_POS_TEXT];
    /* 20 eggs from hole 3: every hole gets one (a full lap of 16, the start hole too),
     * then the next four holes get one more: 4,5,6,7 going up, 2,1,16,15 going down. */
    const char *lap = "0/0/20/0/0/0/0/0/1/0/0/0/0/0/0/0 0 0 a";
    after(BASE, lap, "3+", buf, sizeof buf);
    CHECK_STR(buf, "1/1/1/2/2/2/2/1/2/1/1/1/1/1/1/1 0 0 b");
    after(BASE, lap, "3-", buf, sizeof buf);
    CHECK_STR(buf, "2/2/1/1/1/1/1/1/2/1/1/1/1/1/2/2 0 0 b");
    MancalaPos p = pos_of(BASE, lap);
    moves_of(&p, buf, sizeof buf); /* ends in holes 7 and 15: no capture */
    CHECK_STR(buf, "3+ 3-");
    /* B sows too, both ways: 3 eggs from hole 15 up: 16, 1, 2; down: 14, 13, 12 */
    after(BASE, "1/0/0/0/0/0/0/0/0/0/0/0/0/0/3/0 0 0 b", "15+", buf, sizeof buf);
    CHECK_STR(buf, "2/1/0/0/0/0/0/0/0/0/0/0/0/0/0/1 0 0 a");
    after(BASE, "1/0/0/0/0/0/0/0/0/0/0/0/0/0/3/0 0 0 b", "15-", buf, sizeof buf);
    CHECK_STR(buf, "1/0/0/0/0/0/0/0/0/0/0/1/1/1/0/0 0 0 a");
}

static void test_captures(void) {
    char buf[MANCALA_POS_TEXT];
    const char *start = "5/5/5/5/5/5/5/5/5/5/5/5/5/5/5/5 0 0 a";
    /* 5-x: eggs to 4,3,2,1,16; the last goes onto the head with the four dropped in
     * the outer ring: 5 eggs to A, holes 1-4 back to 5, hole 16 back to 5 */
    after(BASE, start, "5-x", buf, sizeof buf);
    CHECK_STR(buf, "5/5/5/5/0/5/5/5/5/5/5/5/5/5/5/5 5 0 b");
    after(BASE, start, "5-", buf, sizeof buf);
    CHECK_STR(buf, "6/6/6/6/0/5/5/5/5/5/5/5/5/5/5/6 0 0 b");
    /* 6-x: eggs to 5,4,3,2,1; onto the tail go the last egg and the eggs dropped in the
     * inner ring (none): 1 egg */
    after(BASE, start, "6-x", buf, sizeof buf);
    CHECK_STR(buf, "5/6/6/6/6/0/5/5/5/5/5/5/5/5/5/5 1 0 b");
    /* 16 eggs from hole 1 lap once and end in hole 1: the tail takes the last egg and the
     * 8 dropped in the inner ring (9 eggs); 1+ and 1- give the same position yet are
     * different moves, each with and without the capture */
    const char *full = "16/0/0/0/0/0/0/0/1/0/0/0/0/0/0/0 0 0 a";
    MancalaPos p = pos_of(BASE, full);
    moves_of(&p, buf, sizeof buf);
    CHECK_STR(buf, "1+ 1+x 1- 1-x");
    CHECK_EQ_U64(mancala_perft(&p, 1, NULL), 4);
    after(BASE, full, "1+x", buf, sizeof buf);
    CHECK_STR(buf, "0/1/1/1/1/1/1/1/1/0/0/0/0/0/0/0 9 0 b");
    after(BASE, full, "1-x", buf, sizeof buf);
    CHECK_STR(buf, "0/1/1/1/1/1/1/1/1/0/0/0/0/0/0/0 9 0 b");
    after(BASE, full, "1-", buf, sizeof buf);
    CHECK_STR(buf, "1/1/1/1/1/1/1/1/2/1/1/1/1/1/1/1 0 0 b");
    /* head with drops in the outer ring: 2 eggs from hole 2 down go to 1 and 16;
     * the head takes the last egg and the one in hole 1 */
    after(BASE, "0/2/0/0/0/0/0/0/0/0/0/0/0/0/0/1 0 0 a", "2-x", buf, sizeof buf);
    CHECK_STR(buf, "0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/1 2 0 b");
    /* B captures at the tail: 2 eggs from 15 up go to 16 and 1; the tail takes the
     * last egg and the one dropped in hole 16 (inner ring) */
    after(BASE, "1/0/0/0/0/0/0/0/0/0/0/0/0/0/2/0 3 4 b", "15+x", buf, sizeof buf);
    CHECK_STR(buf, "1/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0 3 6 a");
    /* a long sowing over both rings ending at the head: 12 eggs from 4 up reach
     * 5..16; the head takes the last egg and the 4 dropped in holes 5-8 */
    after(BASE, "0/0/0/12/0/0/0/0/0/0/0/0/0/0/0/1 0 0 a", "4+x", buf, sizeof buf);
    CHECK_STR(buf, "0/0/0/0/0/0/0/0/1/1/1/1/1/1/1/1 5 0 b");
}

static void test_variant_a(void) {
    char buf[512];
    /* a store move sows 5 store eggs from an empty hole of the mover's ring */
    const char *s1 = "0/5/5/5/5/5/5/5/5/5/5/5/5/5/5/5 15 15 a 0 0";
    after(VA, s1, "S1+", buf, sizeof buf);
    CHECK_STR(buf, "0/6/6/6/6/6/5/5/5/5/5/5/5/5/5/5 10 15 b 1 0");
    after(VA, s1, "S1-", buf, sizeof buf);
    CHECK_STR(buf, "0/5/5/5/5/5/5/5/5/5/5/6/6/6/6/6 10 15 b 1 0");
    MancalaPos p = pos_of(VA, s1);
    /* the normal moves of holes 2-8, then the store moves from hole 1: hole h going
     * down ends in h-5: 5- in hole 16 and 6- in hole 1 capture as in the start */
    moves_of(&p, buf, sizeof buf);
    CHECK_STR(buf, "2+ 2- 3+ 3- 4+ 4- 5+ 5- 5-x 6+ 6- 6-x 7+ 7- 8+ 8- S1+ S1-");
    /* the same position without store moves left, or with too small a store */
    p = pos_of(VA, "0/5/5/5/5/5/5/5/5/5/5/5/5/5/5/5 15 15 a 3 0");
    CHECK_EQ_U64(mancala_perft(&p, 1, NULL), 16);
    p = pos_of(VA, "0/5/5/5/5/5/5/5/5/5/5/5/5/5/5/5 4 15 a 0 0");
    CHECK_EQ_U64(mancala_perft(&p, 1, NULL), 16);
    /* in the base game there are no store moves */
    p = pos_of(BASE, "0/5/5/5/5/5/5/5/5/5/5/5/5/5/5/5 15 15 a");
    CHECK_EQ_U64(mancala_perft(&p, 1, NULL), 16);
    /* a store move can capture: 5 eggs from empty hole 6 down reach 5,4,3,2,1 */
    after(VA, "5/5/5/5/5/0/5/5/5/5/5/5/5/5/5/5 15 15 a 1 0", "S6-x", buf, sizeof buf);
    CHECK_STR(buf, "5/6/6/6/6/0/5/5/5/5/5/5/5/5/5/5 11 15 b 2 0");
    /* B's store move from empty hole 12 up reaches 13..16 and 1 */
    after(VA, "5/5/5/5/5/5/5/5/5/5/5/0/5/5/5/5 15 20 b 0 2", "S12+", buf, sizeof buf);
    CHECK_STR(buf, "6/5/5/5/5/5/5/5/5/5/5/0/6/6/6/6 15 15 a 0 3");
}

static void test_variant_b(void) {
    char buf[512];
    MancalaPos p;
    /* (2) a single egg may not join a single egg: 3+ (into 4) and 4- (into 3) are out */
    p = pos_of(VB, "0/0/1/1/0/0/0/0/0/0/0/0/0/0/0/0 0 0 a");
    CHECK(!mancala_over(&p)); /* B's ring is empty, but with variant B the game goes on */
    moves_of(&p, buf, sizeof buf);
    CHECK_STR(buf, "3- 4+");
    CHECK(bad_move(VB, "0/0/1/1/0/0/0/0/0/0/0/0/0/0/0/0 0 0 a", "3+", "holds one egg"));
    /* ... except into hole 1 or 16: 1+ (into 2) is out, 2- into 1 and 1- into 16 are in */
    p = pos_of(VB, "1/1/0/0/0/0/0/0/0/0/0/0/0/0/0/0 0 0 a");
    moves_of(&p, buf, sizeof buf);
    CHECK_STR(buf, "1- 1-x 2+ 2- 2-x");
    /* base rules for the same board: game over (B's ring empty) */
    p = pos_of(BASE, "1/1/0/0/0/0/0/0/0/0/0/0/0/0/0/0 0 0 a");
    CHECK(mancala_over(&p));
    CHECK_EQ_U64(mancala_perft(&p, 1, NULL), 0);
    /* (1) with only single eggs, the egg in hole 3 (sown from hole 4) may not go back */
    const char *back = "0/0/1/0/0/0/0/0/0/0/1/0/0/0/0/0 0 0 a 0/0/4/0/0/0/0/0/0/0/0/0/0/0/0/0";
    p = pos_of(VB, back);
    moves_of(&p, buf, sizeof buf);
    CHECK_STR(buf, "3-");
    CHECK(bad_move(VB, back, "3+", "may not go back"));
    /* ... but it may while some hole holds two eggs */
    p = pos_of(VB, "0/0/1/0/0/0/0/0/0/0/2/0/0/0/0/0 0 0 a 0/0/4/0/0/0/0/0/0/0/0/0/0/0/0/0");
    moves_of(&p, buf, sizeof buf);
    CHECK_STR(buf, "3+ 3-");
    /* ... and an unknown origin (0) forbids nothing */
    p = pos_of(VB, "0/0/1/0/0/0/0/0/0/0/1/0/0/0/0/0 0 0 a");
    moves_of(&p, buf, sizeof buf);
    CHECK_STR(buf, "3+ 3-");
    /* (3) a player with no move passes: A has no eggs */
    const char *nothing = "0/0/0/0/0/0/0/0/0/0/1/0/0/0/0/0 0 0 a";
    p = pos_of(VB, nothing);
    moves_of(&p, buf, sizeof buf);
    CHECK_STR(buf, "pass");
    after(VB, nothing, "pass", buf, sizeof buf);
    CHECK_STR(buf, "0/0/0/0/0/0/0/0/0/0/1/0/0/0/0/0 0 0 b 0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0");
    /* three single eggs in a row: only the outer two may move, away from the middle */
    p = pos_of(VB, "0/0/1/1/1/0/0/0/0/0/0/0/0/0/0/0 0 0 a");
    moves_of(&p, buf, sizeof buf);
    CHECK_STR(buf, "3- 5+");
    p = pos_of(VB, "0/0/0/1/0/0/0/0/0/0/0/0/0/0/0/0 0 0 b");
    moves_of(&p, buf, sizeof buf);
    CHECK_STR(buf, "pass");
    /* ... or with only blocked eggs: A's egg in 8 may not join the single egg in 9 (2)
     * nor go back to 7, where its sowing started (1) */
    p = pos_of(VB, "0/0/0/0/0/0/0/1/1/0/0/0/0/0/0/0 0 0 a 0/0/0/0/0/0/0/7/0/0/0/0/0/0/0/0");
    moves_of(&p, buf, sizeof buf);
    CHECK_STR(buf, "pass");
    /* with variant A too, a store move is a move: no pass */
    p = pos_of(VAB, "0/0/0/0/0/0/0/0/0/0/1/0/0/0/0/0 5 0 a 0 0");
    moves_of(&p, buf, sizeof buf);
    CHECK_STR(buf, "S1+ S1- S2+ S2- S3+ S3- S4+ S4- S5+ S5- S5-x S6+ S6- S6-x S7+ S7- S8+ S8-");
    /* (4) the game ends when the board is empty */
    p = pos_of(VB, "0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0 3 2 a");
    CHECK(mancala_over(&p));
    CHECK_EQ_U64(mancala_perft(&p, 1, NULL), 0);
    /* origins: the eggs a sowing leaves alone in a hole come from its start hole */
    after(VB, "0/0/2/0/0/0/0/0/0/0/1/0/0/0/0/0 0 0 a", "3+", buf, sizeof buf);
    CHECK_STR(buf, "0/0/0/1/1/0/0/0/0/0/1/0/0/0/0/0 0 0 b 0/0/0/3/3/0/0/0/0/0/0/0/0/0/0/0");
    /* a capture takes only this sowing's eggs: hole 10 keeps its older egg (from 9) */
    const char *cap = "0/0/0/0/0/0/10/0/0/1/0/0/0/0/0/0 0 0 a 0/0/0/0/0/0/0/0/0/9/0/0/0/0/0/0";
    after(VB, cap, "7+x", buf, sizeof buf);
    CHECK_STR(buf, "0/0/0/0/0/0/0/1/0/1/0/0/0/0/0/0 9 0 b 0/0/0/0/0/0/0/7/0/9/0/0/0/0/0/0");
    after(VB, cap, "7+", buf, sizeof buf);
    CHECK_STR(buf, "1/0/0/0/0/0/0/1/1/2/1/1/1/1/1/1 0 0 b 7/0/0/0/0/0/0/7/7/0/7/7/7/7/7/7");
    /* a store move's eggs come from the empty hole it starts at */
    after(VAB, "5/5/5/5/5/0/5/5/5/5/5/5/5/5/5/5 15 15 a 0 0", "S6+", buf, sizeof buf);
    CHECK_STR(buf, "5/5/5/5/5/0/6/6/6/6/6/5/5/5/5/5 10 15 b 1 0 "
                   "0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0");
}

/* ---- the game record: end rules and results, through the GameOps table ---- */

static void *new_game(const char *variant, const char *fen) {
    char err[ENGINE_ERR_LEN] = "";
    void *g = game_mancala_ops.create(variant, fen, err, sizeof err);
    if (!g)
        test_fail(__FILE__, __LINE__, "create %s \"%s\": %s", variant, fen ? fen : "", err);
    return g;
}

static bool play_all(void *g, const char *const *moves, int n) {
    char err[ENGINE_ERR_LEN];
    for (int i = 0; i < n; i++)
        if (!game_mancala_ops.play(g, moves[i], err, sizeof err)) {
            test_fail(__FILE__, __LINE__, "play %s: %s", moves[i], err);
            return false;
        }
    return true;
}

static void test_game_end(void) {
    const GameOps *ops = &game_mancala_ops;
    char err[ENGINE_ERR_LEN] = "";
    char buf[MANCALA_POS_TEXT];
    CHECK(ops->create("slangenspel-x", NULL, err, sizeof err) == NULL && strstr(err, "unknown"));
    CHECK(ops->create("slangenspel", "5/5/5 0 0 a", err, sizeof err) == NULL && err[0]);
    CHECK_STR(ops->names[0], "slangenspel");
    CHECK_STR(ops->names[3], "slangenspel-ab");
    CHECK(ops->names[4] == NULL && ops->titles[4] == NULL);

    void *g = new_game("slangenspel-a", NULL);
    if (!g)
        return;
    ops->position_text(g, buf, sizeof buf);
    CHECK_STR(buf, "5/5/5/5/5/5/5/5/5/5/5/5/5/5/5/5 15 15 a 0 0");
    CHECK(ops->side_to_move(g) == SIDE_FIRST);
    char list[80][ENGINE_MOVE_TEXT];
    CHECK(ops->legal_moves(g, list, 80, false) == 18);
    CHECK_STR(list[9], "5-");
    CHECK_STR(list[10], "5-x");
    CHECK(!ops->play(g, "9+", err, sizeof err) && strstr(err, "ring"));
    ops->position_text(g, buf, sizeof buf);
    CHECK_STR(buf, "5/5/5/5/5/5/5/5/5/5/5/5/5/5/5/5 15 15 a 0 0"); /* unchanged */
    CHECK(ops->play(g, "5-x", err, sizeof err));
    CHECK(ops->side_to_move(g) == SIDE_SECOND);
    CHECK(ops->result(g).kind == RESULT_NONE);
    CHECK(ops->undo(g));
    CHECK(!ops->undo(g));
    ops->position_text(g, buf, sizeof buf);
    CHECK_STR(buf, "5/5/5/5/5/5/5/5/5/5/5/5/5/5/5/5 15 15 a 0 0");
    ops->destroy(g);

    /* an empty ring ends the game: 1-x takes A's last egg onto the head (1 egg),
     * then A's ring is empty; A wins 1-0 */
    g = new_game("slangenspel", "1/0/0/0/0/0/0/0/0/0/0/0/0/0/0/1 0 0 a");
    if (!g)
        return;
    CHECK(ops->play(g, "1-x", err, sizeof err));
    GameResult r = ops->result(g);
    CHECK(r.kind == RESULT_FIRST_WINS);
    CHECK(strstr(r.reason, "higher store 1-0") != NULL);
    CHECK(ops->legal_moves(g, list, 80, false) == 0);
    CHECK(!ops->play(g, "1+", err, sizeof err) && strstr(err, "over"));
    CHECK(ops->undo(g));
    /* 1- leaves both eggs in hole 16: A's ring is empty, 0-0 is a draw */
    CHECK(ops->play(g, "1-", err, sizeof err));
    r = ops->result(g);
    CHECK(r.kind == RESULT_DRAW && strstr(r.reason, "equal stores 0-0"));
    ops->destroy(g);
    /* B wins on stores */
    g = new_game("slangenspel", "0/0/0/0/0/0/0/0/5/5/5/5/5/5/5/5 3 7 a");
    if (g) {
        r = ops->result(g);
        CHECK(r.kind == RESULT_SECOND_WINS && strstr(r.reason, "higher store 7-3"));
        ops->destroy(g);
    }
    /* variant B: the empty board ends it; a player without eggs just passes */
    g = new_game("slangenspel-b", "0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/1 4 3 a");
    if (g) {
        CHECK(ops->result(g).kind == RESULT_NONE);
        CHECK(ops->legal_moves(g, list, 80, false) == 1);
        CHECK_STR(list[0], "pass");
        CHECK(ops->play(g, "pass", err, sizeof err));
        /* B's egg in 16 goes up to hole 1 and onto the tail: 4-4, board empty */
        CHECK(ops->play(g, "16+x", err, sizeof err));
        r = ops->result(g);
        CHECK(r.kind == RESULT_DRAW && strstr(r.reason, "board empty"));
        ops->destroy(g);
    }

    /* threefold repetition: A's egg goes 3 -> 4 -> 3 and B's 12 -> 13 -> 12; the start
     * position recurs after 4 and after 8 plies, the third time it ends the game */
    g = new_game("slangenspel", "0/0/1/0/0/0/0/0/0/0/0/1/0/0/0/0 2 2 a");
    if (!g)
        return;
    static const char *const cycle[] = {"3+", "12+", "4-", "13-", "3+", "12+", "4-"};
    play_all(g, cycle, 7);
    CHECK(ops->result(g).kind == RESULT_NONE);
    CHECK(ops->play(g, "13-", err, sizeof err));
    r = ops->result(g);
    CHECK(r.kind == RESULT_DRAW && strstr(r.reason, "threefold repetition"));
    CHECK(!ops->play(g, "3+", err, sizeof err) && strstr(err, "repetition"));
    CHECK(ops->legal_moves(g, list, 80, false) == 0);
    char best[ENGINE_MOVE_TEXT];
    CHECK(!ops->go(g, NULL, NULL, &go_stop, best, sizeof best));
    CHECK(ops->undo(g));
    CHECK(ops->result(g).kind == RESULT_NONE);
    ops->destroy(g);

    /* 100 plies without a capture: play, from the start, the sowing that captures
     * nothing, makes a position not seen before and keeps the smaller ring fullest */
    g = new_game("slangenspel", NULL);
    if (!g)
        return;
    static char seen[128][MANCALA_POS_TEXT];
    int nseen = 0;
    ops->position_text(g, seen[nseen++], MANCALA_POS_TEXT);
    bool stuck = false;
    for (int ply = 0; ply < 100 && !stuck; ply++) {
        CHECK(ops->result(g).kind == RESULT_NONE);
        int n = ops->legal_moves(g, list, 80, false), pick = -1, pick_v = -1;
        for (int i = 0; i < n; i++) {
            if (strchr(list[i], 'x'))
                continue;
            CHECK(ops->play(g, list[i], err, sizeof err));
            ops->position_text(g, buf, sizeof buf);
            ops->undo(g);
            bool fresh = true;
            for (int k = 0; k < nseen; k++)
                fresh &= strcmp(seen[k], buf) != 0;
            MancalaPos q = pos_of(BASE, buf);
            int ra = mancala_ring_eggs(&q, 0), rb = mancala_ring_eggs(&q, 1);
            int v = ra < rb ? ra : rb;
            if (fresh && v > pick_v) {
                pick = i;
                pick_v = v;
            }
        }
        stuck = pick < 0;
        if (!stuck) {
            CHECK(ops->play(g, list[pick], err, sizeof err));
            ops->position_text(g, seen[nseen++], MANCALA_POS_TEXT);
        }
    }
    CHECK(!stuck);
    r = ops->result(g);
    CHECK(r.kind != RESULT_NONE && strstr(r.reason, "100 plies without capture"));
    ops->destroy(g);
}

/* ---- perft ---- */

static const struct {
    int rules;
    const char *fen;
    uint64_t count[6]; /* depth 1..5, 0 = not given */
} epd[] = {
    /* tests/perft/slangenspel.epd */
    {BASE, "5/5/5/5/5/5/5/5/5/5/5/5/5/5/5/5 0 0 a", {18, 325, 5225, 84951, 1318527}},
    {VA, "5/5/5/5/5/5/5/5/5/5/5/5/5/5/5/5 15 15 a 0 0", {18, 325, 5835, 105117, 1880595}},
    {VB, "5/5/5/5/5/5/5/5/5/5/5/5/5/5/5/5 0 0 a", {18, 325, 5225, 84942, 1313102}},
    {VAB, "5/5/5/5/5/5/5/5/5/5/5/5/5/5/5/5 15 15 a 0 0", {18, 325, 5835, 105108, 1874874}},
    {BASE, "1/1/0/3/1/1/1/22/0/4/24/0/0/0/3/14 5 0 b", {8, 146, 2070, 35603}},
    {BASE, "3/1/0/5/5/11/3/0/8/5/2/0/0/9/4/3 16 5 b", {14, 218, 3014, 44348}},
    {VA, "6/1/13/0/20/0/11/1/6/8/0/2/5/7/11/1 3 15 b 3 2", {18, 290, 5264, 82676}},
    {VA, "7/2/0/4/13/0/0/5/2/1/4/4/2/6/20/0 18 22 b 3 3", {15, 193, 3160, 42351}},
    {VB,
     "1/0/0/5/0/1/4/22/2/1/21/0/0/3/3/15 1 1 b 2/0/0/0/0/5/0/0/0/6/0/0/0/0/0/0",
     {15, 194, 2832, 43535}},
    {VB,
     "3/1/8/5/2/0/0/0/3/3/6/3/10/10/1/0 13 12 a 0/6/0/0/0/0/0/0/0/0/0/0/0/0/6/0",
     {11, 184, 1979, 30806}},
    {VAB,
     "5/0/0/1/4/8/12/6/5/0/5/5/2/0/2/19 34 2 b 3 3 0/0/0/3/0/0/0/0/0/0/0/0/0/0/0/0",
     {15, 209, 3254, 49270}},
    {VAB,
     "0/3/15/13/5/5/3/6/1/5/2/1/12/3/6/5 18 7 b 3 3 0/0/0/0/0/0/0/0/9/0/0/9/0/0/0/0",
     {18, 315, 5177, 84555}},
};

static uint64_t divide_sum;
static int divide_moves;
static void on_divide(const char *move, uint64_t count, void *ud) {
    (void)move;
    (void)ud;
    divide_sum += count;
    divide_moves++;
}

static void test_perft(void) {
    for (size_t i = 0; i < sizeof epd / sizeof epd[0]; i++) {
        MancalaPos p = pos_of(epd[i].rules, epd[i].fen);
        for (int d = 1; d <= 5 && epd[i].count[d - 1]; d++)
            CHECK_EQ_U64(mancala_perft(&p, d, NULL), epd[i].count[d - 1]);
    }
    /* through the GameOps table, and divide adds up */
    static const char *const names[4] = {"slangenspel", "slangenspel-a", "slangenspel-b",
                                         "slangenspel-ab"};
    for (int r = 0; r < 4; r++) {
        void *g = new_game(names[r], NULL);
        if (!g)
            continue;
        CHECK_EQ_U64(game_mancala_ops.perft(g, 4, NULL), epd[r].count[3]);
        divide_sum = 0;
        divide_moves = 0;
        CHECK_EQ_U64(game_mancala_ops.divide(g, 3, on_divide, NULL, NULL), epd[r].count[2]);
        CHECK_EQ_U64(divide_sum, epd[r].count[2]);
        CHECK(divide_moves == 18);
        game_mancala_ops.destroy(g);
    }
}

/* ---- solved positions ---- */

typedef struct {
    int rules;
    const char *fen;
    int value;        /* final store difference, side to move's view */
    const char *best; /* the only move reaching it, or NULL */
} Solved;

/* Values worked out by hand.
 *
 * (1) 1/0/../0/1 0 0 a: A's egg in hole 1, B's in hole 16. A: 1-x puts the egg in 16 and
 *     onto the head (no outer drops): A 1, A's ring empty, over: +1. 1- leaves two eggs
 *     in 16, A's ring empty: 0. 1+ (to hole 2) lets B play 16+x (its egg to hole 1, onto
 *     the tail): B 1 and B's ring empty: -1 or worse. So +1, only by 1-x.
 * (2) the same with stores 3 4: the best move is the same, 4-4: 0.
 * (3) 0/../1(hole 8)/1(hole 9)/../0 a: 8+ puts A's egg into 9, A's ring is empty: 0.
 *     8- keeps the egg, but then B's 9- puts B's egg into 8, B's ring is empty: 0.
 *     Nobody can gain: 0.
 * (4) 1/0/../2(hole 15)/0 0 0 b: B's 15+ sows 16, 1; 15+x puts the last egg onto the
 *     tail with the egg dropped in 16 (inner ring): B 2, B's ring empty: +2. 15+ leaves
 *     A with two eggs in 1, and A's 1- (to 16, 15) empties A's ring: 0 at best for B.
 *     15- (to 14, 13) lets A's 1-x take its egg onto the head: -1 at best for B. So +2.
 * (5) 0/0/0/0/0/0/0/3/0/0/0/0/0/0/0/1 0 0 a: A's 8+ sows 9, 10, 11 (B's ring): A's
 *     ring is empty, 0. 8- sows 7, 6, 5 and lets B's 16+x (its egg to hole 1 and onto
 *     the tail, no inner drops) take 1 and empty B's ring: -1 or worse for A. So 0, only
 *     by 8+ (neither sowing ends in hole 1 or 16).
 * (6) 0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0 5 2 b: the game is over: 2 - 5 = -3 for B.
 */
static const Solved solved[] = {
    {BASE, "1/0/0/0/0/0/0/0/0/0/0/0/0/0/0/1 0 0 a", 1, "1-x"},
    {BASE, "1/0/0/0/0/0/0/0/0/0/0/0/0/0/0/1 3 4 a", 0, "1-x"},
    {BASE, "0/0/0/0/0/0/0/1/1/0/0/0/0/0/0/0 0 0 a", 0, NULL},
    {BASE, "1/0/0/0/0/0/0/0/0/0/0/0/0/0/2/0 0 0 b", 2, "15+x"},
    {BASE, "0/0/0/0/0/0/0/3/0/0/0/0/0/0/0/1 0 0 a", 0, "8+"},
    {BASE, "0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0 5 2 b", -3, NULL},
    /* variant A with no store move left plays like the base game: (1) again */
    {VA, "1/0/0/0/0/0/0/0/0/0/0/0/0/0/0/1 0 0 a 3 3", 1, "1-x"},
};

static MSearchInfo lines_seen[MSEARCH_MAX_LINES];
static void on_line(const MSearchInfo *mi, void *ud) {
    (void)ud;
    if (mi->multipv >= 1 && mi->multipv <= MSEARCH_MAX_LINES)
        lines_seen[mi->multipv - 1] = *mi;
}

/* Searches P from a fresh context for at most TIME_MS (a proof ends it sooner), with or
 * without the database; the lines go to lines_seen. False when out of memory. */
static bool solve(const MancalaPos *p, bool use_db, double time_ms, MancalaMove *m,
                  MSearchInfo *info) {
    MSearch *s = msearch_new(4);
    CHECK(s != NULL);
    if (!s)
        return false;
    MSearchLimits lim;
    memset(&lim, 0, sizeof lim);
    lim.time_ms = time_ms;
    lim.no_db = !use_db;
    lim.info = on_line;
    memset(lines_seen, 0, sizeof lines_seen);
    *m = msearch_go(s, p, NULL, 0, 0, &lim, info);
    msearch_free(s);
    return true;
}

static void test_solved(void) {
    for (size_t i = 0; i < sizeof solved / sizeof solved[0]; i++) {
        MancalaPos p = pos_of(solved[i].rules, solved[i].fen);
        for (int use_db = 0; use_db < 2; use_db++) {
            MancalaMove m;
            MSearchInfo info;
            if (!solve(&p, use_db, 5000, &m, &info))
                return;
            /* the reported line starts with the move played, also when several are
             * optimal and the choice among them comes after the search (3) */
            CHECK(m == MANCALA_MOVE_NONE ||
                  (lines_seen[0].pvlen >= 1 && lines_seen[0].pv[0] == m && info.pv[0] == m));
            if (!info.exact || info.score != solved[i].value)
                test_fail(__FILE__, __LINE__, "solve \"%s\" (db %d): %d%s, want %d", solved[i].fen,
                          use_db, info.score, info.exact ? "" : " (not exact)", solved[i].value);
            if (solved[i].best) {
                char t[MANCALA_MOVE_TEXT];
                mancala_move_text(m, t, sizeof t);
                CHECK_STR(t, solved[i].best);
            }
        }
    }
    /* the database alone: the store gain still to come (stores do not matter) */
    MancalaDb *db = mancala_db_new(BASE);
    CHECK(db != NULL);
    if (!db)
        return;
    CHECK(mancala_db_build(db, 4, NULL) == 4);
    CHECK(mancala_db_eggs(db) == 4);
    int gain = 99;
    MancalaPos p = pos_of(BASE, "1/0/0/0/0/0/0/0/0/0/0/0/0/0/0/1 3 4 a");
    CHECK(mancala_db_probe(db, &p, &gain) && gain == 1);
    p = pos_of(BASE, "1/0/0/0/0/0/0/0/0/0/0/0/0/0/2/0 0 0 b");
    CHECK(mancala_db_probe(db, &p, &gain) && gain == 2);
    p = pos_of(BASE, "0/0/0/0/0/0/0/3/0/0/0/0/0/0/0/1 9 9 a");
    CHECK(mancala_db_probe(db, &p, &gain) && gain == 0);
    /* not for more eggs than built, nor variant B, nor with store moves to come */
    p = pos_of(BASE, "5/0/0/0/0/0/0/0/0/0/0/0/0/0/0/1 0 0 a");
    CHECK(!mancala_db_probe(db, &p, &gain));
    p = pos_of(VB, "1/0/0/0/0/0/0/0/0/0/0/0/0/0/0/1 0 0 a");
    CHECK(!mancala_db_probe(db, &p, &gain));
    p = pos_of(VA, "1/0/0/0/0/0/0/0/0/0/0/0/0/0/0/1 5 0 a 2 3");
    CHECK(!mancala_db_probe(db, &p, &gain));
    mancala_db_free(db);
}

/* ---- proofs of the search against the table ---- */

/* Searches P without the database for four best lines; every line called exact must
 * have the value the table DB gives its first move. Returns the exact lines. */
static int check_lines(const MancalaDb *db, const MancalaPos *p) {
    MSearch *s = msearch_new(4);
    CHECK(s != NULL);
    if (!s)
        return 0;
    MSearchLimits lim;
    memset(&lim, 0, sizeof lim);
    lim.time_ms = 300;
    lim.no_db = true;
    lim.multipv = 4;
    lim.info = on_line;
    memset(lines_seen, 0, sizeof lines_seen);
    MancalaMove mv[MANCALA_MAX_MOVES];
    int n = mancala_moves(p, mv), exact = 0;
    msearch_go(s, p, NULL, 0, 0, &lim, NULL);
    for (int l = 0; l < 4 && l < n; l++) {
        const MSearchInfo *li = &lines_seen[l];
        if (!li->exact || li->pvlen < 1)
            continue;
        MancalaPos c;
        mancala_play(p, li->pv[0], &c);
        int gain = 0, diff = c.store[c.side] - c.store[c.side ^ 1];
        bool known = mancala_over(&c) || mancala_db_probe(db, &c, &gain);
        CHECK(known);
        if (known && li->score != -(diff + gain)) {
            char t[MANCALA_POS_TEXT], m[MANCALA_MOVE_TEXT];
            mancala_print(p, t, sizeof t);
            mancala_move_text(li->pv[0], m, sizeof m);
            test_fail(__FILE__, __LINE__, "\"%s\" line %d %s: search %d, table %d", t, l + 1, m,
                      li->score, -(diff + gain));
        }
        exact++;
    }
    msearch_free(s);
    return exact;
}

/* Boards of up to 8 eggs against the table: two where B can go back to the root after
 * A's fourth best move (scoring that repetition as the end once proved 0 for it, the
 * table says 1), two whose value the search proves only through repetitions (before,
 * it searched them to its deepest iteration without a proof), then random ones, many
 * with quiet moves that cycle. */
static void test_proofs(void) {
    MancalaDb *db = mancala_db_new(BASE);
    CHECK(db != NULL);
    if (!db || mancala_db_build(db, 8, NULL) != 8) {
        mancala_db_free(db);
        return;
    }
    MancalaPos p = pos_of(BASE, "1/0/0/0/0/0/0/1/0/0/0/0/1/0/0/0 0 0 a");
    check_lines(db, &p);
    p = pos_of(BASE, "0/1/0/0/0/0/0/0/0/0/0/1/1/0/0/0 0 0 a");
    check_lines(db, &p);
    static const Solved cycles[] = {{BASE, "0/0/0/2/0/1/0/0/0/0/1/0/0/0/0/0 0 0 a", 1, NULL},
                                    {BASE, "0/0/1/0/1/0/0/0/1/1/0/0/0/1/0/0 0 0 a", 1, NULL}};
    for (int k = 0; k < 2; k++) {
        p = pos_of(BASE, cycles[k].fen);
        MancalaMove m;
        MSearchInfo info;
        if (!solve(&p, false, 20000, &m, &info))
            break;
        if (!info.exact || info.score != cycles[k].value)
            test_fail(__FILE__, __LINE__, "solve \"%s\": %d%s, want %d", cycles[k].fen, info.score,
                      info.exact ? "" : " (not exact)", cycles[k].value);
        int gain = 0;
        CHECK(mancala_db_probe(db, &p, &gain) && gain == cycles[k].value);
    }
    uint64_t seed = 0x5eed1234abcdULL;
    int exact_lines = 0;
    for (int k = 0; k < 80; k++) {
        do {
            memset(&p, 0, sizeof p);
            for (int e = 3 + k % 6; e > 0; e--) {
                seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
                p.hole[(seed >> 33) % 16]++;
            }
            p.side = (uint8_t)(k & 1);
        } while (mancala_over(&p));
        exact_lines += check_lines(db, &p);
    }
    CHECK(exact_lines >= 40);
    mancala_db_free(db);
}

/* ---- the engine through GameOps: go, levels, stop from another thread ---- */

static int info_calls;
static bool info_exact;
static int info_score;
static void on_info(const SearchInfo *si, void *ud) {
    (void)ud;
    info_calls++;
    info_exact = si->exact;
    info_score = si->score;
}

typedef struct {
    void *g;
    bool ok;
    char best[ENGINE_MOVE_TEXT];
} GoJob;

static void *go_thread(void *arg) {
    GoJob *job = arg;
    SearchLimits lim;
    memset(&lim, 0, sizeof lim);
    lim.infinite = true;
    job->ok = game_mancala_ops.go(job->g, &lim, NULL, &go_stop, job->best, sizeof job->best);
    return NULL;
}

static bool is_legal(void *g, const char *move) {
    char list[80][ENGINE_MOVE_TEXT];
    int n = game_mancala_ops.legal_moves(g, list, 80, false);
    for (int i = 0; i < n; i++)
        if (strcmp(list[i], move) == 0)
            return true;
    return false;
}

static void test_go(void) {
    const GameOps *ops = &game_mancala_ops;
    void *g = new_game("slangenspel", "1/0/0/0/0/0/0/0/0/0/0/0/0/0/2/0 0 0 b");
    if (!g)
        return;
    SearchLimits lim;
    memset(&lim, 0, sizeof lim);
    lim.movetime_ms = 3000;
    SearchCallbacks cb = {on_info, NULL};
    char best[ENGINE_MOVE_TEXT];
    info_calls = 0;
    CHECK(ops->go(g, &lim, &cb, &go_stop, best, sizeof best));
    CHECK_STR(best, "15+x");
    CHECK(info_calls > 0 && info_exact && info_score == 2);
    ops->destroy(g);

    g = new_game("slangenspel-ab", NULL);
    if (!g)
        return;
    memset(&lim, 0, sizeof lim);
    lim.depth = 4;
    CHECK(ops->go(g, &lim, NULL, &go_stop, best, sizeof best) && is_legal(g, best));
    lim.depth = 0;
    lim.nodes = 20000;
    CHECK(ops->go(g, &lim, NULL, &go_stop, best, sizeof best) && is_legal(g, best));
    memset(&lim, 0, sizeof lim);
    lim.level = 1;
    lim.movetime_ms = 200;
    CHECK(ops->go(g, &lim, NULL, &go_stop, best, sizeof best) && is_legal(g, best));
    memset(&lim, 0, sizeof lim);
    lim.time_ms[0] = lim.time_ms[1] = 3000;
    lim.inc_ms[0] = lim.inc_ms[1] = 10;
    CHECK(ops->go(g, &lim, NULL, &go_stop, best, sizeof best) && is_legal(g, best));

    /* the stop flag ends an infinite search running in another thread */
    GoJob job = {g, false, ""};
    pthread_t th;
    if (pthread_create(&th, NULL, go_thread, &job) == 0) {
        struct timespec ts = {0, 150 * 1000 * 1000};
        nanosleep(&ts, NULL);
        atomic_store(&go_stop, true);
        pthread_join(th, NULL);
        CHECK(job.ok && is_legal(g, job.best));
    }
    ops->destroy(g);
}

void test_mancala(void) {
    test_text();
    test_move_text();
    test_sowing();
    test_captures();
    test_variant_a();
    test_variant_b();
    test_game_end();
    test_perft();
    test_solved();
    test_proofs();
    test_go();
}
