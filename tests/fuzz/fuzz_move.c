/* fuzz_move.c - move text (coordinates, SAN, set-up and mancala tokens).
 * Input: one byte picking the game, then one move per line, played from
 * the start. Properties: a refused move changes nothing; an accepted one
 * is undone exactly; the game's SAN record replays to the same position. */
#include "engine/engine.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1 || size > 4096)
        return 0;
    const char *variant = fuzz_games[data[0] % FUZZ_NGAMES];
    char *text = fuzz_text(data + 1, size - 1), *line[FUZZ_MAX_LINES];
    int n = fuzz_lines(text, line, FUZZ_MAX_LINES);
    char err[ENGINE_ERR_LEN], before[1024], after[1024];
    Game *g = engine_new(variant, NULL, err, sizeof err);
    if (!g)
        fuzz_fail("%s: %s", variant, err);
    for (int i = 0; i < n; i++) {
        engine_position_text(g, before, sizeof before);
        bool ok = engine_play(g, line[i], err, sizeof err);
        if (!ok) {
            engine_position_text(g, after, sizeof after);
            if (strcmp(before, after))
                fuzz_fail("%s: refused move \"%s\" changed %s to %s", variant, line[i], before,
                          after);
            continue;
        }
        if (!engine_undo(g))
            fuzz_fail("%s: cannot undo \"%s\"", variant, line[i]);
        engine_position_text(g, after, sizeof after);
        if (strcmp(before, after))
            fuzz_fail("%s: undo of \"%s\" gives %s, not %s", variant, line[i], after, before);
        if (!engine_play(g, line[i], err, sizeof err))
            fuzz_fail("%s: \"%s\" refused the second time: %s", variant, line[i], err);
    }
    int plies = engine_ply_count(g);
    char(*san)[ENGINE_MOVE_TEXT] = malloc((size_t)(plies + 1) * sizeof *san);
    if (!san)
        abort();
    int k = engine_history(g, san, plies + 1, true);
    Game *h = engine_new(variant, NULL, err, sizeof err);
    for (int i = 0; h && i < k; i++)
        if (!engine_play(h, san[i], err, sizeof err))
            fuzz_fail("%s: SAN record move %d \"%s\" refused: %s", variant, i + 1, san[i], err);
    engine_position_text(g, before, sizeof before);
    engine_position_text(h, after, sizeof after);
    if (strcmp(before, after))
        fuzz_fail("%s: SAN record replays to %s, not %s", variant, after, before);
    free(san);
    engine_free(h);
    engine_free(g);
    free(text);
    return 0;
}
