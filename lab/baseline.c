/* baseline.c - an earlier match's games, read back for pair-by-pair
 * comparison (see baseline.h). */
#include "lab/baseline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/proto/proto_io.h"

/* Where the game after the one at p begins: the next tag line after moves. */
static char *next_game(char *p) {
    bool moves = false;
    while (*p) {
        char *line = p;
        p += strcspn(p, "\n");
        if (*p)
            p++;
        while (*line == ' ' || *line == '\t' || *line == '\r')
            line++;
        if (*line == '[' && moves)
            return line;
        if (*line != '[' && *line != '\n' && *line != '\0')
            moves = true;
    }
    return p;
}

/* Game k of the file, text, into b. */
static bool load_game(Baseline *b, char *text, int k, const char *variant, char *err,
                      size_t errlen) {
    char round[16], result[16], white[140], black[140];
    long r;
    if (!engine_pgn_tag(text, "Round", round, sizeof round) ||
        !proto_parse_long(round, 1, 1000000, &r)) {
        snprintf(err, errlen, "game %d: no Round tag (a whole number from 1)", k);
        return false;
    }
    if (r > b->n)
        return true; /* beyond this match's games */
    if (!engine_pgn_tag(text, "White", white, sizeof white) ||
        !engine_pgn_tag(text, "Black", black, sizeof black)) {
        snprintf(err, errlen, "game %d: no White or Black tag", k);
        return false;
    }
    int i = (int)r - 1;
    bool e1_white = i % 2 == 0;
    BaselineGame *bg = &b->games[i];
    if (bg->present) {
        snprintf(err, errlen, "game %d: round %d comes twice", k, i + 1);
        return false;
    }
    if (!engine_pgn_tag(text, "Result", result, sizeof result))
        result[0] = '\0';
    if (!strcmp(result, "1/2-1/2"))
        bg->points = 0.5;
    else if (!strcmp(result, "1-0") || !strcmp(result, "0-1"))
        bg->points = (result[0] == '1') == e1_white ? 1 : 0;
    else {
        snprintf(err, errlen, "game %d: no result (1-0, 0-1 or 1/2-1/2)", k);
        return false;
    }
    char why[ENGINE_ERR_LEN];
    Game *g = engine_import(text, why, sizeof why);
    if (!g) {
        snprintf(err, errlen, "game %d: %s", k, why);
        return false;
    }
    GameInfo info;
    engine_info(g, &info);
    bool ok = !strcmp(info.name, variant);
    if (!ok)
        snprintf(err, errlen, "game %d is %s, not %s", k, info.name, variant);
    char(*h)[ENGINE_MOVE_TEXT] = malloc(BASELINE_PLIES * sizeof *h);
    char start[512];
    engine_initial_text(g, start, sizeof start);
    int n = h ? engine_history(g, h, BASELINE_PLIES, false) : 0;
    bg->line = malloc((size_t)n * ENGINE_MOVE_TEXT + 1);
    bg->start = strdup(start);
    bg->engine2 = strdup(e1_white ? black : white);
    if (!h || !bg->line || !bg->start || !bg->engine2)
        abort();
    size_t at = 0;
    for (int j = 0; j < n; j++)
        at += (size_t)sprintf(bg->line + at, "%s ", h[j]);
    bg->line[at] = '\0';
    bg->present = true;
    free(h);
    engine_free(g);
    return ok;
}

bool baseline_load(Baseline *b, const char *path, size_t max_bytes, const char *variant,
                   int max_games, char *err, size_t errlen) {
    memset(b, 0, sizeof *b);
    char why[ENGINE_ERR_LEN + 64];
    char *buf = proto_read_file(path, max_bytes, NULL, why, sizeof why);
    if (!buf) {
        snprintf(err, errlen, "baseline: %s", why);
        return false;
    }
    b->n = max_games;
    b->games = calloc((size_t)max_games, sizeof *b->games);
    if (!b->games)
        abort();
    bool ok = true;
    int k = 0;
    for (char *p = buf; ok && *p;) {
        char *end = next_game(p);
        char keep = *end;
        *end = '\0';
        bool blank = p[strspn(p, " \t\r\n")] == '\0';
        if (!blank) {
            k++;
            ok = load_game(b, p, k, variant, why, sizeof why);
        }
        *end = keep;
        p = end;
    }
    free(buf);
    if (ok && !k)
        snprintf(why, sizeof why, "no games");
    if (!ok || !k) {
        snprintf(err, errlen, "baseline %s: %s", path, why);
        baseline_free(b);
        return false;
    }
    return true;
}

void baseline_free(Baseline *b) {
    for (int i = 0; b->games && i < b->n; i++) {
        free(b->games[i].engine2);
        free(b->games[i].start);
        free(b->games[i].line);
    }
    free(b->games);
    b->games = NULL;
    b->n = 0;
}

const BaselineGame *baseline_game(const Baseline *b, int i) {
    return i >= 0 && i < b->n && b->games[i].present ? &b->games[i] : NULL;
}

bool baseline_same_opening(const BaselineGame *bg, Game *opening) {
    char start[512];
    engine_initial_text(opening, start, sizeof start);
    if (strcmp(start, bg->start))
        return false;
    char(*h)[ENGINE_MOVE_TEXT] = malloc(PROTO_MAX_PLIES * sizeof *h);
    if (!h)
        abort();
    int n = engine_history(opening, h, PROTO_MAX_PLIES, false);
    bool same = n <= BASELINE_PLIES;
    const char *p = bg->line;
    for (int j = 0; j < n && same; j++) {
        size_t l = strlen(h[j]);
        same = !strncmp(p, h[j], l) && p[l] == ' ';
        if (same)
            p += l + 1;
    }
    free(h);
    return same;
}
