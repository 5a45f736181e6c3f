/* fuzz_fen.c - position text (FEN, the mancala's form) for every game.
 * Input: one byte picking the game, then the text. Properties: a text that
 * is accepted prints a text that is accepted again and prints the same;
 * the first legal moves' coordinate and SAN forms play to the same
 * position, and undo restores it. */
#include "engine/engine.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void same_moves(Game *g, const char *variant) {
    MoveDesc *md = malloc(ENGINE_MAX_MOVES * sizeof *md);
    if (!md)
        abort();
    char start[1024], a[1024], b[1024], err[ENGINE_ERR_LEN];
    engine_position_text(g, start, sizeof start);
    int n = engine_moves(g, md, ENGINE_MAX_MOVES);
    if (n > ENGINE_MAX_MOVES)
        fuzz_fail("%s %s: %d moves, more than %d", variant, start, n, ENGINE_MAX_MOVES);
    for (int i = 0; i < n && i < 6; i++) {
        if (!engine_play(g, md[i].text, err, sizeof err))
            fuzz_fail("%s %s: listed move %s refused: %s", variant, start, md[i].text, err);
        engine_position_text(g, a, sizeof a);
        engine_undo(g);
        if (!engine_play(g, md[i].san, err, sizeof err))
            fuzz_fail("%s %s: listed SAN %s refused: %s", variant, start, md[i].san, err);
        engine_position_text(g, b, sizeof b);
        engine_undo(g);
        if (strcmp(a, b))
            fuzz_fail("%s %s: %s gives %s, %s gives %s", variant, start, md[i].text, a, md[i].san,
                      b);
    }
    engine_position_text(g, a, sizeof a);
    if (strcmp(a, start))
        fuzz_fail("%s: undo does not restore %s (%s)", variant, start, a);
    free(md);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1 || size > 4096)
        return 0;
    const char *variant = fuzz_games[data[0] % FUZZ_NGAMES];
    char *text = fuzz_text(data + 1, size - 1);
    char err[ENGINE_ERR_LEN], t1[1024], t2[1024];
    Game *g = engine_new(variant, text, err, sizeof err);
    free(text);
    if (!g)
        return 0;
    engine_position_text(g, t1, sizeof t1);
    Game *h = engine_new(variant, t1, err, sizeof err);
    if (!h)
        fuzz_fail("%s: printed text \"%s\" refused: %s", variant, t1, err);
    engine_position_text(h, t2, sizeof t2);
    if (strcmp(t1, t2))
        fuzz_fail("%s: \"%s\" reads back as \"%s\"", variant, t1, t2);
    engine_perft(g, 1);
    engine_result(g);
    same_moves(g, variant);
    engine_free(h);
    engine_free(g);
    return 0;
}
