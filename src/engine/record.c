/* record.c - games as PGN text: engine_export and engine_import.
 *
 * Chess games are standard PGN with a Variant tag and, when the game did
 * not start from the variant's usual position, FEN and SetUp tags. The
 * mancala uses the same form: its position text in the FEN tag and its
 * move texts as the moves, numbered from player A's first move. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "engine/engine.h"

typedef struct {
    char *buf;
    size_t len, n;
    bool full;
} Out;

__attribute__((format(printf, 2, 3))) static void put(Out *o, const char *fmt, ...) {
    if (o->full)
        return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(o->buf + o->n, o->len - o->n, fmt, ap);
    va_end(ap);
    if (k < 0 || (size_t)k >= o->len - o->n)
        o->full = true;
    else
        o->n += (size_t)k;
}

static const char *tag_value(const char *const *tags, const char *name, const char *dflt) {
    for (int i = 0; tags && tags[i] && tags[i + 1]; i += 2)
        if (!strcmp(tags[i], name))
            return tags[i + 1];
    return dflt;
}

static void escape(const char *in, char *out, size_t len) {
    size_t n = 0;
    for (; *in && n + 2 < len; in++) {
        if (*in == '"' || *in == '\\')
            out[n++] = '\\';
        out[n++] = isprint((unsigned char)*in) ? *in : ' ';
    }
    out[n] = 0;
}

int engine_export(Game *g, const char *const *tags, char *buf, size_t len) {
    Out o = {buf, len, 0, false};
    GameInfo info;
    engine_info(g, &info);
    GameResult r = engine_result(g);
    static const char *const results[] = {"*", "1-0", "0-1", "1/2-1/2"};
    /* a game the rules have not ended may carry its result in tags (an
     * adjudication, a resignation, a flag fall) */
    const char *result = results[r.kind];
    for (int k = 1; r.kind == RESULT_NONE && k < 4; k++)
        if (!strcmp(tag_value(tags, "Result", "*"), results[k]))
            result = results[k];
    char date[16];
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    strftime(date, sizeof date, "%Y.%m.%d", &tm);
    const char *seven[][2] = {{"Event", "Menagerie game"},
                              {"Site", "Menagerie"},
                              {"Date", date},
                              {"Round", "-"},
                              {"White", "?"},
                              {"Black", "?"},
                              {"Result", result}};
    char esc[256];
    for (int i = 0; i < 7; i++) {
        const char *v = i == 6 ? seven[i][1] : tag_value(tags, seven[i][0], seven[i][1]);
        escape(v, esc, sizeof esc);
        put(&o, "[%s \"%s\"]\n", seven[i][0], esc);
    }
    put(&o, "[Variant \"%s\"]\n", info.name);
    char initial[512], start[512], err[ENGINE_ERR_LEN];
    engine_initial_text(g, initial, sizeof initial);
    Game *fresh = engine_new(info.name, NULL, err, sizeof err);
    start[0] = 0;
    if (fresh) {
        engine_position_text(fresh, start, sizeof start);
        engine_free(fresh);
    }
    if (strcmp(start, initial) != 0) {
        put(&o, "[SetUp \"1\"]\n");
        put(&o, "[FEN \"%s\"]\n", initial);
    }
    if (r.kind != RESULT_NONE && !tag_value(tags, "Termination", NULL))
        put(&o, "[Termination \"%s\"]\n", r.reason); /* unless the caller says */
    for (int i = 0; tags && tags[i] && tags[i + 1]; i += 2) {
        bool std = !strcmp(tags[i], "Variant") || !strcmp(tags[i], "FEN");
        for (int k = 0; k < 7; k++)
            std |= !strcmp(tags[i], seven[k][0]);
        if (!std) {
            escape(tags[i + 1], esc, sizeof esc);
            put(&o, "[%s \"%s\"]\n", tags[i], esc);
        }
    }
    put(&o, "\n");

    /* Move numbers continue from the start position's side and number. */
    int number = 1, second = 0;
    if (info.kind == KIND_CHESS) {
        char side = 'w';
        int full = 1;
        const char *sp = strchr(initial, ' ');
        if (sp)
            sscanf(sp, " %c %*s %*s %*d %d", &side, &full);
        number = full > 0 ? full : 1;
        second = side == 'b';
    } else {
        const char *sp = strchr(initial, ' ');
        char side = 'a';
        if (sp)
            sscanf(sp, " %*d %*d %c", &side);
        second = side == 'b';
    }
    int cap = engine_ply_count(g) + 1;
    char(*mv)[ENGINE_MOVE_TEXT] = malloc((size_t)cap * sizeof *mv);
    if (!mv)
        abort();
    int n = engine_history(g, mv, cap, true);
    size_t col = 0;
    for (int i = 0; i < n; i++) {
        char word[64];
        int ply = i + second;
        if (ply % 2 == 0)
            snprintf(word, sizeof word, "%d. %s", number + ply / 2, mv[i]);
        else if (i == 0)
            snprintf(word, sizeof word, "%d... %s", number, mv[i]);
        else
            snprintf(word, sizeof word, "%s", mv[i]);
        if (col && col + strlen(word) + 1 > 79) {
            put(&o, "\n");
            col = 0;
        }
        put(&o, "%s%s", col ? " " : "", word);
        col += strlen(word) + (col ? 1 : 0);
    }
    put(&o, "%s%s\n", col ? " " : "", result);
    free(mv);
    return o.full ? -1 : (int)o.n;
}

/* Reads `[Name "Value"]`; returns the character after the tag. */
static const char *read_tag(const char *p, char *name, size_t nlen, char *val, size_t vlen) {
    size_t n = 0;
    p++;
    while (isspace((unsigned char)*p))
        p++;
    while (*p && !isspace((unsigned char)*p) && *p != ']' && n + 1 < nlen)
        name[n++] = *p++;
    name[n] = 0;
    while (*p && *p != '"' && *p != ']')
        p++;
    n = 0;
    if (*p == '"') {
        p++;
        while (*p && *p != '"') {
            if (*p == '\\' && p[1])
                p++;
            if (n + 1 < vlen)
                val[n++] = *p;
            p++;
        }
    }
    val[n] = 0;
    while (*p && *p != ']' && *p != '\n')
        p++;
    return *p == ']' ? p + 1 : p;
}

bool engine_pgn_tag(const char *text, const char *name, char *val, size_t len) {
    char tag[64];
    for (const char *p = text;;) {
        while (isspace((unsigned char)*p))
            p++;
        if (*p != '[')
            return false;
        p = read_tag(p, tag, sizeof tag, val, len);
        if (!strcmp(tag, name))
            return true;
    }
}

Game *engine_import(const char *text, char *err, size_t errlen) {
    char variant[64] = "chess", fen[512] = "", name[64], val[512];
    const char *p = text;
    /* Step 1. Tags. */
    for (;;) {
        while (isspace((unsigned char)*p))
            p++;
        if (*p != '[')
            break;
        p = read_tag(p, name, sizeof name, val, sizeof val);
        if (!strcmp(name, "Variant"))
            snprintf(variant, sizeof variant, "%s", val);
        else if (!strcmp(name, "FEN"))
            snprintf(fen, sizeof fen, "%s", val);
    }
    const char *found = NULL;
    for (const char *const *nm = engine_game_names(); *nm; nm++)
        if (!strcasecmp(*nm, variant))
            found = *nm;
    if (!strcasecmp(variant, "standard") || !strcasecmp(variant, "normal"))
        found = "chess";
    if (!found) {
        snprintf(err, errlen, "unknown variant \"%s\" in the Variant tag", variant);
        return NULL;
    }
    char why[ENGINE_ERR_LEN];
    Game *g = engine_new(found, fen[0] ? fen : NULL, why, sizeof why);
    if (!g) {
        snprintf(err, errlen, "%s", why);
        return NULL;
    }
    /* Step 2. Moves: skip numbers, comments, variations, NAGs and results.
     * Every pass of the loop consumes at least one character; a stray `}`
     * or `)`, an unclosed `(` or an overlong word is an error. */
    int depth = 0, index = 0;
    const char *bad = NULL;
    while (*p && !bad) {
        if (isspace((unsigned char)*p)) {
            p++;
            continue;
        }
        if (*p == '{') {
            const char *e = strchr(p, '}');
            p = e ? e + 1 : p + strlen(p);
            continue;
        }
        if (*p == ';') {
            p += strcspn(p, "\n");
            continue;
        }
        if (*p == '(') {
            depth++;
            p++;
            continue;
        }
        if (*p == ')' || *p == '}') {
            if (*p == '}' || depth == 0) {
                bad = *p == '}' ? "a '}' without its '{'" : "a ')' without its '('";
                break;
            }
            depth--;
            p++;
            continue;
        }
        char tok[64];
        size_t n = strcspn(p, " \t\r\n\v\f{}();");
        if (n >= sizeof tok) {
            bad = "a word too long for a move";
            break;
        }
        memcpy(tok, p, n);
        tok[n] = 0;
        p += n;
        if (depth > 0 || tok[0] == '$' || !strcmp(tok, "*") || !strcmp(tok, "1-0") ||
            !strcmp(tok, "0-1") || !strcmp(tok, "1/2-1/2"))
            continue;
        char *m = tok;
        if (isdigit((unsigned char)*m) && strchr(m, '.')) {
            m = strrchr(m, '.') + 1;
            if (!*m)
                continue;
        }
        if (!engine_play(g, m, why, sizeof why)) {
            snprintf(err, errlen, "move %d (%s): %s", index + 1, m, why);
            engine_free(g);
            return NULL;
        }
        index++;
    }
    if (!bad && depth > 0)
        bad = "a '(' without its ')'";
    if (bad) {
        snprintf(err, errlen, "after move %d: %s", index, bad);
        engine_free(g);
        return NULL;
    }
    return g;
}
