/* test_movegen.c - checks by every piece kind, pins by bent riders,
 * castling, gating and corner wins in small positions whose move counts
 * were derived by hand (derivations beside each), the reflections variants
 * declare, and the game-end rules. */
#include <stdio.h>
#include <string.h>

#include "core/movegen.h"
#include "core/notation.h"
#include "core/perft.h"
#include "core/rules.h"
#include "test.h"
#include "variants/loader.h"

#define NVARS 16
static Variant *vars[NVARS];
static const char *var_names[NVARS];

static const Variant *var(const char *name) {
    for (int i = 0; i < NVARS; i++) {
        if (var_names[i] && !strcmp(var_names[i], name))
            return vars[i];
        if (!var_names[i]) {
            char err[200];
            vars[i] = variant_load_builtin(name, err, sizeof err);
            var_names[i] = name;
            if (!vars[i])
                test_fail(__FILE__, __LINE__, "%s: %s", name, err);
            return vars[i];
        }
    }
    return NULL;
}

static Position pos;

static bool load(const char *variant, const char *fen, int line) {
    char err[200];
    const Variant *v = var(variant);
    if (!v || pos_from_fen(&pos, v, fen, err, sizeof err)) {
        test_fail(__FILE__, line, "%s %s: %s", variant, fen ? fen : "start",
                  v ? err : "no variant");
        return false;
    }
    return true;
}

static void check_in_check(const char *variant, const char *fen, bool want, int line) {
    if (load(variant, fen, line) && movegen_in_check(&pos) != want)
        test_fail(__FILE__, line, "%s %s: in check = %d, want %d", variant, fen, !want, want);
}

/* Plays the 8 moves of SEQ (coordinates) from FEN: the game is drawn by
 * threefold repetition after the last one and not before. */
static void check_threefold(const char *variant, const char *fen, const char *const seq[8],
                            int line) {
    if (!load(variant, fen, line))
        return;
    for (int i = 0; i < 8; i++) {
        MoveList l;
        movegen_legal(&pos, &l);
        int j = 0;
        for (char b[16]; j < l.n; j++) {
            variant_square_name(pos.v, move_from(l.m[j]), b);
            variant_square_name(pos.v, move_to(l.m[j]), b + strlen(b));
            if (!strcmp(b, seq[i]))
                break;
        }
        if (j == l.n) {
            test_fail(__FILE__, line, "%s: %s is not legal", variant, seq[i]);
            return;
        }
        pos_make_move(&pos, l.m[j]);
        RulesResult r = rules_result(&pos);
        if ((r.outcome == RULES_DRAW) != (i == 7))
            test_fail(__FILE__, line, "%s after %s (move %d): drawn = %d", variant, seq[i], i + 1,
                      r.outcome == RULES_DRAW);
    }
}

static void check_perft(const char *variant, const char *fen, int depth, uint64_t want, int line) {
    if (!load(variant, fen, line))
        return;
    uint64_t got = perft(&pos, depth, NULL);
    if (got != want)
        test_fail(__FILE__, line, "%s %s: perft %d = %llu, want %llu", variant, fen, depth,
                  (unsigned long long)got, (unsigned long long)want);
}

static void check_result(const char *variant, const char *fen, RulesOutcome want,
                         const char *reason, int line) {
    if (!load(variant, fen, line))
        return;
    RulesResult r = rules_result(&pos);
    if (r.outcome != want || (reason && strcmp(r.reason, reason) != 0))
        test_fail(__FILE__, line, "%s %s: result %d \"%s\", want %d \"%s\"", variant, fen,
                  r.outcome, r.reason, want, reason ? reason : "");
}

/* The FEN after playing the legal move whose coordinates are `move`. */
static void check_after(const char *variant, const char *fen, const char *move, const char *want,
                        int line) {
    if (!load(variant, fen, line))
        return;
    MoveList l;
    movegen_legal(&pos, &l);
    for (int i = 0; i < l.n; i++) {
        char b[MOVE_TEXT_LEN];
        notation_coord(&pos, l.m[i], b);
        if (strcmp(b, move) != 0)
            continue;
        char got[256];
        pos_make_move(&pos, l.m[i]);
        pos_to_fen(&pos, got, sizeof got);
        if (strcmp(got, want) != 0)
            test_fail(__FILE__, line, "%s after %s: %s, want %s", fen, move, got, want);
        pos_unmake_move(&pos);
        pos_to_fen(&pos, got, sizeof got);
        if (strcmp(got, fen) != 0)
            test_fail(__FILE__, line, "unmake %s: %s", move, got);
        return;
    }
    test_fail(__FILE__, line, "%s: no legal move %s", fen, move);
}

/* The FEN of p's board and side to move, reflected as its variant says or
 * not, without castling or en passant rights (a reflection may not keep
 * them); gates and hands as they are. */
static void plain_fen(const Position *p, bool reflect, char *out, size_t len) {
    static Position shown;
    shown = *p;
    shown.castling = 0;
    shown.ep = SQ_NONE;
    shown.halfmove = 0;
    shown.fullmove = 1;
    if (reflect)
        for (int sq = 0; sq < p->v->files * p->v->ranks; sq++)
            shown.board[variant_reflect_square(p->v, sq)] = p->board[sq];
    if (reflect && p->v->gating) /* gates stand behind the first rank's files */
        for (int c = 0; c < 2; c++)
            for (int f = 0; f < p->v->files; f++)
                shown.gate[c][variant_reflect_square(p->v, f)] = p->gate[c][f];
    pos_to_fen(&shown, out, len);
}

/* A variant's reflect= says the truth: along random games, every position
 * (castling and en passant rights taken away) and its reflection have the
 * same number of moves two plies deep. */
static void check_reflections(void) {
    uint64_t rng = 77;
    const char *const *names = variant_builtin_names();
    int checked = 0;
    for (int i = 0; names[i]; i++) {
        const Variant *v = var(names[i]);
        if (!v || v->reflect == REFLECT_NONE)
            continue;
        for (int game = 0; game < 4; game++) {
            if (!load(names[i], NULL, __LINE__))
                return;
            for (int ply = 0; ply < 60; ply++) {
                MoveList ml;
                movegen_legal(&pos, &ml);
                if (!ml.n)
                    break;
                rng = rng * 6364136223846793005ull + 1442695040888963407ull;
                pos_make_move(&pos, ml.m[(rng >> 33) % (uint64_t)ml.n]);
                if (ply % 3)
                    continue;
                char plain[400], mirrored[400];
                plain_fen(&pos, false, plain, sizeof plain);
                plain_fen(&pos, true, mirrored, sizeof mirrored);
                static Position a, b;
                char err[200];
                if (pos_from_fen(&a, v, plain, err, sizeof err) ||
                    pos_from_fen(&b, v, mirrored, err, sizeof err)) {
                    test_fail(__FILE__, __LINE__, "%s: %s / %s: %s", names[i], plain, mirrored,
                              err);
                    return;
                }
                uint64_t na = perft(&a, 2, NULL), nb = perft(&b, 2, NULL);
                if (na != nb) {
                    test_fail(__FILE__, __LINE__,
                              "%s: %s has %llu moves at depth 2, reflected %s %llu", names[i],
                              plain, (unsigned long long)na, mirrored, (unsigned long long)nb);
                    return;
                }
                checked++;
            }
        }
    }
    CHECK(checked > 300);
}

void test_movegen(void) {
    /* Step 1. Every piece kind gives check (White king on e1 or f1). */
    static const struct {
        const char *variant, *fen;
        bool check;
    } checks[] = {
        /* Acromantula b5: step b4, slide c3-d2-e1 */
        {"team-mate", "4k3/8/8/1a6/8/8/8/4K3 w - - 0 1", true},
        /* Cobra f4: (1,3) through e3 (any) and e2 (must be empty) */
        {"team-mate", "4k3/8/8/8/5c2/8/8/4K3 w - - 0 1", true},
        {"team-mate", "4k3/8/8/8/5c2/8/4N3/4K3 w - - 0 1", false},
        {"team-mate", "4k3/8/8/8/5c2/4N3/8/4K3 w - - 0 1", true}, /* (1,1) never blocks */
        {"team-mate", "4k3/8/8/8/8/3c4/8/4K3 w - - 0 1", true},   /* Cobra's Knight leap */
        {"team-mate", "4k3/8/8/8/8/8/4u3/4K3 w - - 0 1", true},   /* Unicorn W */
        {"team-mate", "4k3/8/8/8/8/3u4/8/4K3 w - - 0 1", true},   /* Unicorn N */
        {"team-mate", "4k3/8/8/8/8/8/4f3/4K3 w - - 0 1", true},   /* Phoenix W */
        {"team-mate", "4k3/8/8/8/8/2f5/3P4/4K3 w - - 0 1", true}, /* Phoenix A jumps */
        {"team-mate", "4k3/8/8/8/8/5n2/8/4K3 w - - 0 1", true},
        {"team-mate", "4k3/8/8/8/8/8/3e4/4K3 w - - 0 1", true},    /* Elephant F */
        {"team-mate", "4k3/8/8/8/8/2e5/3P4/4K3 w - - 0 1", true},  /* Elephant A jumps */
        {"team-mate", "4k3/8/8/8/8/2m5/8/4K3 w - - 0 1", true},    /* Mortar A */
        {"team-mate", "4k3/8/8/8/1m6/8/8/4K3 w - - 0 1", true},    /* Mortar G */
        {"team-mate", "4k3/8/8/8/8/8/3m4/4K3 w - - 0 1", false},   /* no F step */
        {"team-mate", "4k3/8/8/j7/8/8/8/4K3 w - - 0 1", true},     /* Adjutant B */
        {"team-mate", "4k3/8/8/4j3/8/8/4P3/4K3 w - - 0 1", true},  /* D rider over e2 */
        {"team-mate", "4k3/8/8/4j3/8/4P3/8/4K3 w - - 0 1", false}, /* e3 blocks */
        /* Snake vs. Mongoose, White king f1 */
        {"snake-vs-mongoose", "k9/10/10/10/10/10/10/2m7/10/5K4 w - - 0 1", true}, /* c3-d3, e2-f1 */
        {"snake-vs-mongoose", "k9/10/10/10/10/10/7s2/10/10/5K4 w - - 0 1", true}, /* h4-h3, g2-f1 */
        {"snake-vs-mongoose", "k9/10/10/10/10/10/7s2/7P2/10/5K4 w - - 0 1", false},
        {"snake-vs-mongoose", "k9/10/10/10/10/10/10/10/5g4/5K4 w - - 0 1", true}, /* Guard */
        /* Hannibal, White king f1 */
        {"hannibal", "k9/10/10/10/10/3m6/10/10/5K4[] w - - 0 1", true},    /* d4-d3, e2-f1 */
        {"hannibal", "k9/10/10/10/10/4f5/10/10/5K4[] w - - 0 1", true},    /* Falcon (1,3) */
        {"hannibal", "k9/10/10/10/10/4f5/4P5/10/5K4[] w - - 0 1", true},   /* path f3-f2 open */
        {"hannibal", "k9/10/10/10/10/4f5/4PP4/10/5K4[] w - - 0 1", false}, /* all 3 paths shut */
        {"hannibal", "k9/10/10/10/10/10/3e6/10/5K4[] w - - 0 1", true},    /* Elephant A */
    };
    for (size_t i = 0; i < sizeof checks / sizeof checks[0]; i++)
        check_in_check(checks[i].variant, checks[i].fen, checks[i].check, __LINE__);

    /* Step 2. Hand-counted positions. */
    /* Acromantula b5 pins the Knight d2 (b4-c3-d2-e1): no Knight moves;
     * King: d1, e2, f1 (f2 is hit via c5-d4-e3-f2). 3. */
    check_perft("team-mate", "4k3/8/8/1a6/8/8/3N4/4K3 w - - 0 1", 1, 3, __LINE__);
    /* Snake h5 pins the Knight f2 (h4, g3-f2-e1): King d1 d2 e2 f1. 4. */
    check_perft("snake-vs-mongoose", "k9/10/10/10/10/7s2/10/10/5N4/4K5 w - - 0 1", 1, 4, __LINE__);
    /* Fast castling: Ra1 12, Rj1 11, King steps 5, castling to b1-e1 (4)
     * and g1-i1 (3), each a move of its own. 35. */
    check_perft("hannibal", "4k5/10/10/10/10/10/10/10/R4K3R[] w KQ - 0 1", 1, 35, __LINE__);
    /* Fast castling needs an unattacked destination: the rook e9 covers
     * e1, so 3 castlings to the a side remain (and the King cannot step to
     * e1 or e2). Ra1 12, Rj1 11, King f2 g2 g1 = 3, castling b1 c1 d1, g1 h1
     * i1 = 6. 32. */
    check_perft("hannibal", "4r3k1/10/10/10/10/10/10/10/R4K3R[] w KQ - 0 1", 1, 32, __LINE__);
    /* No castling out of check: the rook f9 checks along the f-file and no
     * rook can block it, so only the King moves: e1 e2 g1 g2. 4. */
    check_perft("hannibal", "5r2k1/10/10/10/10/10/10/10/R4K3R[] w KQ - 0 1", 1, 4, __LINE__);
    /* Diamondback castling with both Rooks: King a2 b1 b2, short and long
     * with d1 and with a4 (4), Rd1 13, Ra4 13. 33. */
    check_perft("diamondback", "7k/8/8/8/R7/8/8/K2R4 w - - 0 1", 1, 33, __LINE__);
    /* ...also out of check: the bishop g7 checks along g7-a1. King a2 and
     * b1 (b2 is on the diagonal); all four castlings (c1, d1, a3, a4 are
     * safe); the Rooks can only block on d4 (Rd1-d4, Ra4-d4). 2 + 4 + 2 = 8. */
    check_perft("diamondback", "7k/6b1/8/8/R7/8/8/K2R4 w - - 0 1", 1, 8, __LINE__);
    /* Pawn g7: g8 and h7 promote (4 each), g7-h8 wins; King a2 b1 b2. 12. */
    check_perft("diamondback", "8/6P1/8/8/3k4/8/8/K7 w - - 0 1", 1, 12, __LINE__);
    check_perft("diamondback", "7P/8/8/8/3k4/8/8/K7 b - - 0 1", 1, 0, __LINE__);
    /* A stop set (by another thread) ends a count early, short; the position
     * is as it was. */
    if (load("chess", NULL, __LINE__)) {
        atomic_bool stop;
        atomic_init(&stop, true);
        uint64_t key = pos.key;
        CHECK(perft(&pos, 12, &stop) == 0 && pos.key == key && pos.hply == 0);
        atomic_store(&stop, false);
        CHECK_EQ_U64(perft(&pos, 3, &stop), 8902);
    }
    /* Gating: the Knight's three moves each bring the Manticore to b1. */
    check_perft("hannibal", "4k5/10/10/10/10/10/10/10/1N2K5[Mb] w - - 0 1", 1, 8, __LINE__);

    /* Snake vs. Mongoose en passant: pawn b3 (its start rank) may step to
     * b4 or b5; King a2 b1 b2: 5. Black answers each: King 3 + c5-c4, and
     * c5xb4 after either pawn move (en passant after b3-b5): 5 + 5 + 3 * 4
     * = 22. */
    check_perft("snake-vs-mongoose", "k9/10/10/10/10/2p7/10/1P8/10/K9 w - - 0 1", 1, 5, __LINE__);
    check_perft("snake-vs-mongoose", "k9/10/10/10/10/2p7/10/1P8/10/K9 w - - 0 1", 2, 22, __LINE__);
    /* Hannibal en passant from rank 2: e2-e3, e2-e4, King d1 d2 f1 f2 (6);
     * Black: King 3 + d4-d3, and dxe3 after either pawn move: 26. */
    check_perft("hannibal", "k9/10/10/10/10/3p6/10/4P5/4K5[] w - - 0 1", 1, 6, __LINE__);
    check_perft("hannibal", "k9/10/10/10/10/3p6/10/4P5/4K5[] w - - 0 1", 2, 26, __LINE__);
    /* Hannibal promotion on rank 9 to N B R Q M E F (7) + King 5 = 12. */
    check_perft("hannibal", "k9/4P5/10/10/10/10/10/10/4K5[] w - - 0 1", 1, 12, __LINE__);
    /* A lost gate: Rb9 b8..b1 (8, the last a capture), a9, c9, d9; King
     * d9 d8 e8 f8 f9: 16. */
    check_perft("hannibal", "1r2k5/10/10/10/10/10/10/10/1N2K5[Mb] b - - 0 1", 1, 16, __LINE__);

    /* Gating: in with the front piece's first move, lost with its capture,
     * and in behind a castling Rook. */
    check_after("hannibal", "4k5/10/10/10/10/10/10/10/1N2K5[Mb] w - - 0 1", "b1c3",
                "4k5/10/10/10/10/10/2N7/10/1M2K5[] b - - 1 1", __LINE__);
    check_after("hannibal", "1r2k5/10/10/10/10/10/10/10/1N2K5[Mb] b - - 0 1", "b9b1",
                "4k5/10/10/10/10/10/10/10/1r2K5[] w - - 0 2", __LINE__);
    check_after("hannibal", "4k5/10/10/10/10/10/10/10/R4K4[Ma] w Q - 0 1", "f1c1",
                "4k5/10/10/10/10/10/10/10/M1K2R4[] b - - 1 1", __LINE__);
    check_after("hannibal", "4k5/10/10/10/10/10/10/10/R4K4[Ma] w Q - 0 1", "f1a1",
                "4k5/10/10/10/10/10/10/10/M3KR4[] b - - 1 1", __LINE__);
    /* Diamondback long castling swaps King and Rook. */
    check_after("diamondback", "7k/8/8/8/R7/8/8/K2R4 w - - 0 1", "a1d1",
                "7k/8/8/8/R7/8/8/R2K4 b - - 1 1", __LINE__);
    check_after("diamondback", "7k/8/8/8/R7/8/8/K2R4 w - - 0 1", "a1a3",
                "7k/8/8/8/8/K7/R7/3R4 b - - 1 1", __LINE__);

    /* Step 2b. A move list never drops a move. 48 Queens on 16x16 (no royal
     * piece) fill ranks 1, 8 and 16; horizontal and backward moves are
     * blocked. With l = file index (0-15) and r = 15 - l, a queen on rank 1
     * has 6 + min(l,6) + min(r,6) moves, on rank 8 13 + min(l,7) + min(r,7)
     * + min(l,6) + min(r,6), on rank 16 7 + min(l,7) + min(r,7). Since the
     * sum of min(l,6) over the files is 75 and of min(l,7) 84: 246 + 526 +
     * 280 = 1052 (the old fixed list of 768 gave 768). */
    {
        const char *q48 = "files=16 ranks=16 royal=- queen:Q:Q\n"
                          "startFen=QQQQQQQQQQQQQQQQ/16/16/16/16/16/16/16/QQQQQQQQQQQQQQQQ/16/16/"
                          "16/16/16/16/QQQQQQQQQQQQQQQQ w - - 0 1\n";
        char err[200];
        Variant *v = variant_load_text(q48, "queens48", err, sizeof err);
        if (!v) {
            test_fail(__FILE__, __LINE__, "queens48: %s", err);
        } else {
            CHECK(pos_from_fen(&pos, v, NULL, err, sizeof err) == 0);
            CHECK_EQ_U64(perft(&pos, 1, NULL), 1052);
            CHECK(pos_move_bound(&pos, WHITE) <= MAX_MOVES);
            /* five full ranks (80 Queens) could have more moves than a list holds */
            CHECK(
                pos_from_fen(&pos, v,
                             "QQQQQQQQQQQQQQQQ/QQQQQQQQQQQQQQQQ/QQQQQQQQQQQQQQQQ/QQQQQQQQQQQQQQQQ/"
                             "QQQQQQQQQQQQQQQQ/16/16/16/16/16/16/16/16/16/16/16 w - - 0 1",
                             err, sizeof err) == -1 &&
                strstr(err, "too many pieces"));
            variant_free(v);
        }
    }

    /* Step 2c. Each reflect= leaves the moves as they are. */
    check_reflections();

    /* Step 3. Game end. */
    check_result("diamondback", "7P/8/8/8/3k4/8/8/K7 b - - 0 1", RULES_WHITE_WINS,
                 "reached the enemy corner", __LINE__);
    check_result("diamondback", "7K/8/8/8/3k4/8/8/8 b - - 0 1", RULES_WHITE_WINS,
                 "reached the enemy corner", __LINE__);
    check_result("chess", "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
                 RULES_BLACK_WINS, "checkmate", __LINE__);
    check_result("chess", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", RULES_DRAW, "stalemate", __LINE__);
    check_result("chess", "7k/8/6K1/8/8/8/8/R7 b - - 100 80", RULES_DRAW, "50-move rule", __LINE__);
    check_result("chess", "7k/8/6K1/8/8/8/8/R7 b - - 99 80", RULES_ONGOING, NULL, __LINE__);
    check_result("team-mate", "7k/8/6K1/8/8/8/8/UN6 b - - 127 80", RULES_ONGOING, NULL, __LINE__);
    check_result("team-mate", "7k/8/6K1/8/8/8/8/U7 b - - 0 80", RULES_DRAW,
                 "insufficient mating material", __LINE__);
    check_result("team-mate", "7k/8/6K1/8/8/8/8/UN6 b - - 128 80", RULES_DRAW, "64-move rule",
                 __LINE__);
    check_result("hannibal", "9k/10/10/10/10/10/10/10/R4K4[] w - - 150 90", RULES_DRAW,
                 "75-move rule", __LINE__);
    /* Team-Mate mating potential: one piece, N+M, N+N, M+M, colour-bound
     * pieces on one colour lack it; both sides must lack it. */
    check_result("team-mate", "k7/8/8/8/8/8/8/K5N1 w - - 0 1", RULES_DRAW, NULL, __LINE__);
    check_result("team-mate", "k7/8/8/8/8/8/8/KNM5 w - - 0 1", RULES_DRAW, NULL, __LINE__);
    check_result("team-mate", "k7/8/8/8/8/8/8/KNU5 w - - 0 1", RULES_ONGOING, NULL, __LINE__);
    check_result("team-mate", "k7/8/8/8/8/8/8/K1E1M3 w - - 0 1", RULES_DRAW, NULL, __LINE__);
    check_result("team-mate", "k7/8/8/8/8/8/8/K1EM4 w - - 0 1", RULES_ONGOING, NULL, __LINE__);
    check_result("team-mate", "k6a/8/8/8/8/8/8/K6A w - - 0 1", RULES_DRAW, NULL, __LINE__);
    check_result("team-mate", "k5aa/8/8/8/8/8/8/K6A w - - 0 1", RULES_ONGOING, NULL, __LINE__);
    check_result("team-mate", "k7/8/8/8/8/8/P7/K6A w - - 0 1", RULES_ONGOING, NULL, __LINE__);
    check_result("chess", "k7/8/8/8/8/8/8/K5N1 w - - 0 1", RULES_DRAW, NULL, __LINE__);
    check_result("chess", "k7/8/8/8/8/8/8/K5R1 w - - 0 1", RULES_ONGOING, NULL, __LINE__);
    check_result("snake-vs-mongoose", "k9/10/10/10/10/10/10/10/10/K5G3 w - - 0 1", RULES_ONGOING,
                 NULL, __LINE__);
    check_result("diamondback", "7k/8/8/8/8/8/8/K7 w - - 0 1", RULES_ONGOING, NULL, __LINE__);
    /* Chess, Snake vs. Mongoose, Hannibal: FIDE's dead position (rules.md,
     * "Insufficient material"). Drawn: bare kings, a lone knight or bishops
     * on one colour against a bare king, bishops of both sides on one colour. */
    static const struct {
        const char *variant, *fen;
        RulesOutcome want;
    } dead[] = {
        {"chess", "k7/8/8/8/8/8/8/K7 w - - 0 1", RULES_DRAW},
        {"chess", "k7/8/8/8/8/8/8/K1B1B3 w - - 0 1", RULES_DRAW},    /* c1, e1: one colour */
        {"chess", "k7/8/8/8/8/8/8/K1B2b2 w - - 0 1", RULES_ONGOING}, /* c1 v f1: two colours */
        {"chess", "k7/8/8/8/8/8/3b4/K1B5 w - - 0 1", RULES_DRAW},    /* c1 v d2: one colour */
        {"chess", "k7/8/8/8/8/8/8/K1B1B1b1 w - - 0 1", RULES_DRAW},
        {"chess", "k7/8/8/8/8/8/8/K1B2n2 w - - 0 1", RULES_ONGOING}, /* K+B v K+N */
        {"chess", "k7/8/8/8/8/8/8/K1N2n2 w - - 0 1", RULES_ONGOING}, /* K+N v K+N */
        {"chess", "k7/8/8/8/8/8/8/K1N1N3 w - - 0 1", RULES_ONGOING}, /* K+N+N v K */
        {"chess", "k7/8/8/8/8/8/8/K1B1b3 w - - 0 1", RULES_DRAW},
        {"snake-vs-mongoose", "8k1/10/10/10/5n4/10/3N6/10/10/K9 w - - 0 60", RULES_ONGOING},
        {"snake-vs-mongoose", "8k1/10/10/10/10/10/3N6/10/10/K9 w - - 0 60", RULES_DRAW},
        /* Hannibal: pieces at a gate or in hand count (they can come in) */
        {"hannibal", "8k1/10/10/10/10/10/10/K9/1N8[Mb] w - - 0 60", RULES_ONGOING},
        {"hannibal", "8k1/10/10/10/10/10/10/K9/2B7[Fc] w - - 0 60", RULES_ONGOING},
        {"hannibal", "1n6k1/10/10/10/10/10/10/K9/1N8[Mb] w - - 0 60", RULES_ONGOING},
        {"hannibal", "1n6k1/10/10/10/10/10/10/K9/1N8[mb] w - - 0 60", RULES_ONGOING},
        {"hannibal", "8k1/10/10/10/10/10/10/K9/1N8[] w - - 0 60", RULES_DRAW},
        {"hannibal", "8k1/10/10/10/10/10/10/K9/1N8[M] w - - 0 60", RULES_ONGOING},
        {"hannibal", "8k1/10/10/10/10/10/10/K9/2E7[] w - - 0 60", RULES_DRAW},
    };
    for (size_t i = 0; i < sizeof dead / sizeof dead[0]; i++)
        check_result(dead[i].variant, dead[i].fen, dead[i].want,
                     dead[i].want == RULES_DRAW ? "insufficient mating material" : NULL, __LINE__);
    /* stalemate=loss and bareKing=loss (Shatranj, Courier), as Fairy-Stockfish
     * plays them: the stalemated side loses; a bare King loses (no moves in
     * perft) unless it may bare the other King in reply; two bare Kings draw. */
    check_result("shatranj", "k7/2Q5/1K6/8/8/8/8/8 b - - 0 1", RULES_WHITE_WINS, "stalemate",
                 __LINE__);
    check_result("courier", "k11/2F9/1K10/12/12/12/12/12 b - - 0 1", RULES_WHITE_WINS, "stalemate",
                 __LINE__);
    check_result("shatranj", "4k3/8/8/8/8/8/r7/7K b - - 0 1", RULES_BLACK_WINS, "bare king",
                 __LINE__);
    check_result("shatranj", "4k3/8/8/8/8/8/r7/7K w - - 0 1", RULES_ONGOING, NULL, __LINE__);
    check_result("shatranj", "4k3/8/8/8/8/8/8/7K b - - 0 1", RULES_DRAW,
                 "insufficient mating material", __LINE__);
    check_result("shatranj", "4k3/8/8/8/8/8/8/RR5K b - - 0 1", RULES_WHITE_WINS, "bare king",
                 __LINE__);
    check_perft("shatranj", "4k3/8/8/8/8/8/8/RR5K b - - 0 1", 1, 0, __LINE__);
    check_perft("shatranj", "4k3/8/8/8/8/8/8/R6K b - - 0 1", 1, 5, __LINE__);
    check_result("shatranj", "4k3/8/8/8/8/8/8/Q6K b - - 0 1", RULES_ONGOING, NULL, __LINE__);
    check_perft("shatranj", "4k3/8/8/8/8/8/r7/7K b - - 0 1", 1, 0, __LINE__);
    check_perft("shatranj", "4k3/8/8/8/8/8/r7/7K w - - 0 1", 1, 1, __LINE__);
    check_perft("shatranj", "4k3/8/8/8/8/8/r7/7K w - - 0 1", 2, 0, __LINE__);
    check_result("courier", "5k6/12/12/12/12/12/r11/11K b - - 0 1", RULES_BLACK_WINS, "bare king",
                 __LINE__);
    check_result("chess", "4k3/8/8/8/8/8/r7/7K b - - 0 1", RULES_ONGOING, NULL, __LINE__);
    /* Janus castles four squares to the h-side, three to the a-side. */
    check_after("janus", "r3k4r/10/10/10/10/10/10/R3K4R w KQkq - 0 1", "e1i1",
                "r3k4r/10/10/10/10/10/10/R6RK1 b kq - 1 1", __LINE__);
    check_after("janus", "r3k4r/10/10/10/10/10/10/R3K4R w KQkq - 0 1", "e1b1",
                "r3k4r/10/10/10/10/10/10/1KR6R b kq - 1 1", __LINE__);

    /* Threefold repetition: knights out and back twice. */
    const char *knights[] = {"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"};
    check_threefold("chess", NULL, knights, __LINE__);
    /* A Diamondback guard pawn steps along its diagonal and back: each step
     * starts the 50-move count again, yet the positions before it recur. */
    const char *guard[] = {"c2d1", "h8h7", "d1c2", "h7h8", "c2d1", "h8h7", "d1c2", "h7h8"};
    check_threefold("diamondback", "7k/8/8/8/8/8/2P5/K7 w - - 0 1", guard, __LINE__);
    if (load("diamondback", NULL, __LINE__)) {
        const Variant *v = pos.v;
        int p = variant_type_by_letter(v, 'P'), c2 = 1 * v->files + 2, d1 = 3, b1 = 1;
        CHECK(v->loop[WHITE][p][c2] && v->loop[WHITE][p][c2] == v->loop[WHITE][p][d1]);
        CHECK(!v->loop[WHITE][p][b1]);
    }
    if (load("chess", NULL, __LINE__))
        CHECK(!pos.v->looping[WHITE] && !pos.v->looping[BLACK]);
    for (int i = 0; i < NVARS; i++) {
        variant_free(vars[i]);
        vars[i] = NULL;
        var_names[i] = NULL;
    }
}
