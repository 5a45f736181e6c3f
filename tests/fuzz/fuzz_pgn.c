/* fuzz_pgn.c - PGN import (engine_import), as the web app's import, saved
 * games and `play`'s load use it. Property: an imported game exports to a
 * PGN that imports to the same position and exports the same text. */
#include "engine/engine.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > 65536)
        return 0;
    char *text = fuzz_text(data, size), err[ENGINE_ERR_LEN];
    Game *g = engine_import(text, err, sizeof err);
    free(text);
    if (!g)
        return 0;
    size_t cap = 1 << 20;
    char *a = malloc(cap), *b = malloc(cap), pa[1024], pb[1024];
    if (!a || !b)
        abort();
    if (engine_export(g, NULL, a, cap) < 0)
        fuzz_fail("export failed");
    Game *h = engine_import(a, err, sizeof err);
    if (!h)
        fuzz_fail("exported PGN refused: %s\n%s", err, a);
    engine_position_text(g, pa, sizeof pa);
    engine_position_text(h, pb, sizeof pb);
    if (strcmp(pa, pb))
        fuzz_fail("re-import gives %s, not %s", pb, pa);
    if (engine_export(h, NULL, b, cap) < 0 || strcmp(a, b))
        fuzz_fail("export differs after re-import:\n%s\n---\n%s", a, b);
    engine_free(h);
    engine_free(g);
    free(a);
    free(b);
    return 0;
}
