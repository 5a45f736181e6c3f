/* capi_test.c - libmenagerie's C API used directly, as a C program of its
 * own would (only menagerie.h, linked with -lmenagerie): run by
 * tests/scripts/python.sh. Prints one "ok capi: ..." or "FAIL capi: ..."
 * line per check. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "menagerie.h"

static int failures;

__attribute__((format(printf, 2, 3))) static void check(bool ok, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    printf("%s capi: ", ok ? "ok" : "FAIL");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    failures += !ok;
}

int main(void) {
    char err[MENAGERIE_ERR_LEN], fen[MENAGERIE_FEN_LEN], san[MENAGERIE_MOVE_LEN];
    check(menagerie_api_version() == MENAGERIE_API_VERSION, "API version %d",
          menagerie_api_version());
    MenagerieGame *g = menagerie_open("chess", NULL, err, sizeof err);
    check(g != NULL, "open chess");
    if (!g)
        return 1;
    MenagerieMove moves[256];
    int n = menagerie_legal_moves(g, moves, 256);
    check(n == 20 && menagerie_perft(g, 1) == 20, "20 legal moves (%d)", n);
    check(menagerie_san(g, "g1f3", san, sizeof san, err, sizeof err) && !strcmp(san, "Nf3"),
          "SAN of g1f3: %s", san);
    check(!menagerie_play(g, "e2e5", err, sizeof err) && strstr(err, "illegal"),
          "an illegal move is refused: %s", err);
    check(menagerie_play(g, "e4", err, sizeof err) && menagerie_side_to_move(g) == 1 &&
              menagerie_ply_count(g) == 1,
          "play e4");
    menagerie_fen(g, fen, sizeof fen);
    check(!strcmp(fen, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"), "FEN %s",
          fen);
    MenagerieLimits lim = {.depth = 4, .multipv = 2};
    MenagerieSearch s;
    bool ok = menagerie_search(g, &lim, &s, err, sizeof err);
    check(ok && s.nlines == 2 && s.line[0].depth == 4 && !strncmp(s.line[0].pv, s.best,
                                                                  strlen(s.best)),
          "search depth 4, two lines: %s (%s)", s.best, ok ? s.line[0].pv_san : err);
    lim.multipv = MENAGERIE_MAX_LINES + 1;
    check(!menagerie_search(g, &lim, &s, err, sizeof err) && strstr(err, "out of range"),
          "multipv out of range: %s", err);
    check(menagerie_undo(g) && !menagerie_undo(g), "undo");
    menagerie_close(g);

    check(!menagerie_validate_fen("chess", "8/8/8 w - - 0 1", err, sizeof err) &&
              strstr(err, "ranks"),
          "validation: %s", err);
    check(!menagerie_open("nosuch", NULL, err, sizeof err) && strstr(err, "unknown game"),
          "unknown game: %s", err);
    g = menagerie_open("chess", "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
                       err, sizeof err);
    char why[64];
    check(g && menagerie_result(g, why, sizeof why) == MENAGERIE_SECOND_WINS &&
              !strcmp(why, "checkmate") && menagerie_in_check(g),
          "fool's mate: %s", g ? why : err);
    check(g && !menagerie_search(g, NULL, &s, err, sizeof err) && strstr(err, "over"),
          "no search in a mated position: %s", err);
    menagerie_close(g);
    return failures != 0;
}
