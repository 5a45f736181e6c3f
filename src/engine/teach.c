/* teach.c - what the engine tells a learner: the rules text of each game
 * (www/rules/NAME.txt, compiled in, so the page and the terminal show the
 * same words) and where a piece can go from a square of an empty board, read
 * straight from the variant's compiled move trees, so a variant file of the
 * user's own gets its diagrams too. */
#include <stdio.h>
#include <string.h>

#include "core/embedded.h"
#include "core/variant.h"
#include "engine/engine.h"
#include "variants/loader.h"

const char *engine_rules_text(const char *game) {
    char file[64];
    /* the Slangenspel variants share one text */
    snprintf(file, sizeof file, "%s.txt", strncmp(game, "slangenspel", 11) ? game : "slangenspel");
    for (const EmbeddedFile *f = builtin_rules; f->name; f++)
        if (!strcmp(f->name, file))
            return f->data;
    return NULL;
}

/* Adds (or merges into) the destination sq; the first path found is kept. */
static int add_reach(PieceReach *out, int n, int max, int sq, uint8_t flags, bool hop,
                     const int *path, int npath) {
    int i = 0;
    while (i < n && out[i].sq != sq)
        i++;
    if (i == n) {
        if (n == max)
            return n;
        memset(&out[i], 0, sizeof out[i]);
        out[i].sq = sq;
        out[i].hop = hop;
        out[i].npath = npath < ENGINE_REACH_PATH ? npath : ENGINE_REACH_PATH;
        memcpy(out[i].path, path, (size_t)out[i].npath * sizeof *path);
        n++;
    } else if (out[i].hop && !hop) {
        out[i].hop = false;
    }
    out[i].move |= (flags & NF_MOVE) != 0;
    out[i].capture |= (flags & NF_CAPT) != 0;
    return n;
}

int engine_piece_reach(const char *variant, char letter, Side side, int sq, PieceReach *out,
                       int max, char *err, size_t errlen) {
    // Step 1. The variant: a built-in name, or a definition file's path.
    bool file = strchr(variant, '/') || strstr(variant, ".var");
    Variant *v =
        file ? variant_load_file(variant, err, errlen) : variant_load_builtin(variant, err, errlen);
    if (!v)
        return -1;
    int type = variant_type_by_letter(v, letter);
    int n = -1;
    if (!type)
        snprintf(err, errlen, "%s has no piece '%c'", v->name, letter);
    else if (sq < 0 || sq >= v->nsq || v->is_hole[sq])
        snprintf(err, errlen, "square %d is not on the %dx%d board", sq, v->files, v->ranks);
    else
        n = 0;
    // Step 2. Walk the move tree: on an empty board every square a path passes is
    // empty; a node that needs an occupied square (a hopper's screen) marks the
    // destinations behind it as hops.
    if (n == 0) {
        Span sp = v->tree[((int)side * MAX_TYPES + type) * v->nsq + sq];
        const Node *nd = v->nodes + sp.start;
        int path[64], end[64], hops[64], depth = 0;
        for (uint32_t j = 0; j < sp.len; j++) {
            while (depth > 0 && (uint32_t)end[depth - 1] <= j)
                depth--;
            bool hop = depth > 0 && hops[depth - 1];
            if (nd[j].flags & (NF_MOVE | NF_CAPT))
                n = add_reach(out, n, max, nd[j].sq, nd[j].flags, hop, path, depth);
            if ((nd[j].flags & (NF_PASS_EMPTY | NF_PASS_OCC)) && depth < 64) {
                path[depth] = nd[j].sq;
                end[depth] = nd[j].skip;
                hops[depth] = hop || !(nd[j].flags & NF_PASS_EMPTY);
                depth++;
            } else if (!(nd[j].flags & (NF_PASS_EMPTY | NF_PASS_OCC))) {
                j = (uint32_t)nd[j].skip - 1;
            }
        }
    }
    variant_free(v);
    return n;
}
