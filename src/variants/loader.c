/* loader.c - definition text to VariantSpec to Variant (see loader.h). */
#include "variants/loader.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/embedded.h"
#include "core/position.h"

/* Interactive Diagram settings that only concern its drawing or its AI. */
static const char *const ignored_keys[] = {
    "graphicsDir", "whitePrefix", "blackPrefix", "graphicsType", "squareSize",
    "satellite",   "lightShade",  "darkShade",   "rimColor",     "coordColor",
    "holeColor",   "firstRank",   "borders",     "useMarkers",   "maxPromote",
    "autoGate",    "enableAI",    "newClick",    "image",        NULL,
};

/* How deep parent= may nest: a definition, its parent, ..., eight up. */
#define MAX_PARENTS 8

typedef struct {
    VariantSpec *sp;
    char white_sq[MAX_TYPES][200], black_sq[MAX_TYPES][200];
    int line;
    char *err;
    size_t errlen;
    const char *dir;    /* the folder of a definition file (parent= looks there first) */
    int depth;          /* 0 = the definition itself, else a parent's or a weights file */
    const char *source; /* the file being read when depth > 0 */
    const char *chain[MAX_PARENTS + 1]; /* the files read so far, to refuse a cycle */
    int inherited;     /* piece types from parents: a letter defined again replaces one */
    int settings;      /* keys and pieces read so far in this file */
    bool weights_only; /* a weights file: eval= lines alone */
} Reader;

__attribute__((format(printf, 2, 3))) static int fail(Reader *r, const char *fmt, ...) {
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (r->depth)
        snprintf(r->err, r->errlen, "%s:%d: %s", r->source, r->line, msg);
    else
        snprintf(r->err, r->errlen, "line %d: %s", r->line, msg);
    return -1;
}

static int copy_value(Reader *r, char *dst, size_t size, const char *key, const char *val) {
    if (strlen(val) >= size)
        return fail(r, "value of %s is too long", key);
    strcpy(dst, val);
    return 0;
}

static int int_value(Reader *r, const char *key, const char *val, int lo, int hi, int *out) {
    char *end;
    long n = strtol(val, &end, 10);
    if (!*val || *end || n < lo || n > hi)
        return fail(r, "%s=%s is not a number in range", key, val);
    *out = (int)n;
    return 0;
}

/* key=value; returns -1 on error. */
#define NOT_MINE 1 /* a reader's answer for a key it does not know */

/* How front ends show the variant (VariantShow). */
static int read_show_setting(Reader *r, const char *key, const char *val) {
    VariantSpec *sp = r->sp;
    if (!strcmp(key, "summary"))
        return copy_value(r, sp->show.summary, sizeof sp->show.summary, key, val);
    if (!strcmp(key, "icon"))
        return copy_value(r, sp->show.icon, sizeof sp->show.icon, key, val);
    if (!strcmp(key, "order"))
        return int_value(r, key, val, 1, 1000, &sp->show.order);
    if (!strcmp(key, "xboard"))
        return copy_value(r, sp->show.xboard, sizeof sp->show.xboard, key, val);
    if (!strcmp(key, "xboardParent"))
        return copy_value(r, sp->show.xboard_parent, sizeof sp->show.xboard_parent, key, val);
    if (!strcmp(key, "xboardStart"))
        return copy_value(r, sp->show.xboard_start, sizeof sp->show.xboard_start, key, val);
    if (!strcmp(key, "xboardKnown"))
        return copy_value(r, sp->show.xboard_known, sizeof sp->show.xboard_known, key, val);
    if (!strcmp(key, "pieceToChar"))
        return copy_value(r, sp->show.piece_to_char, sizeof sp->show.piece_to_char, key, val);
    if (!strcmp(key, "benchFen")) {
        if (sp->show.nbench == 4)
            return fail(r, "benchFen: at most 4");
        return copy_value(r, sp->show.bench_fen[sp->show.nbench++], sizeof sp->show.bench_fen[0],
                          key, val);
    }
    return NOT_MINE;
}

/* Keys that add one entry to a list: setup, value, eval, zone. */
static int read_list_setting(Reader *r, const char *key, const char *val) {
    VariantSpec *sp = r->sp;
    if (!strcmp(key, "setup")) { /* setup=NAME:FEN */
        const char *c = strchr(val, ':');
        if (!c || c == val || (size_t)(c - val) >= sizeof sp->setup_name[0] ||
            strlen(c + 1) >= sizeof sp->setup_fen[0] || sp->nsetups == 8)
            return fail(r, "setup=%s: want NAME:FEN (at most 8)", val);
        if (!sp->nsetups && !sp->start_fen[0])
            sp->start_fen_line = r->line;
        memcpy(sp->setup_name[sp->nsetups], val, (size_t)(c - val));
        sp->setup_name[sp->nsetups][c - val] = 0;
        strcpy(sp->setup_fen[sp->nsetups++], c + 1);
        return 0;
    }
    if (!strcmp(key, "value")) { /* value=Q:950 */
        int t;
        for (t = 1; t <= sp->ntypes; t++)
            if (val[0] && sp->type[t].letter == val[0] && val[1] == ':')
                break;
        if (t > sp->ntypes)
            return fail(r, "value=%s: want LETTER:centipawns of a piece defined above", val);
        return int_value(r, key, val + 2, 1, 100000, &sp->type[t].value);
    }
    if (!strcmp(key, "eval")) { /* eval=N.mg:330,N.eg:310 (tuned weights) */
        char buf[512];
        if (copy_value(r, buf, sizeof buf, key, val))
            return -1;
        char *save = NULL;
        for (char *item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
            char *colon = strchr(item, ':'), *end;
            size_t nlen = colon ? (size_t)(colon - item) : 0;
            long x = colon ? strtol(colon + 1, &end, 10) : 0;
            if (!nlen || nlen > 23 ||
                strspn(item, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._") !=
                    nlen ||
                end == colon + 1 || *end || x < -30000 || x > 30000)
                return fail(r, "eval=%s: want NAME:integer,...", val);
            size_t used = strlen(sp->eval);
            if (used + strlen(item) + 2 > sizeof sp->eval)
                return fail(r, "too many eval weights");
            snprintf(sp->eval + used, sizeof sp->eval - used, "%s%s", used ? " " : "", item);
        }
        return 0;
    }
    if (!strcmp(key, "zone")) { /* zone=P:squares:XBetza */
        if (sp->nzones == 16)
            return fail(r, "too many zone lines");
        const char *c1 = strchr(val, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        if (!c1 || !c2 || c1 != val + 1 || (size_t)(c2 - c1 - 1) >= sizeof sp->zone[0].squares ||
            strlen(c2 + 1) >= sizeof sp->zone[0].betza)
            return fail(r, "zone=%s: want LETTER:squares:XBetza", val);
        ZoneMoves *z = &sp->zone[sp->nzones++];
        z->letter = val[0];
        memcpy(z->squares, c1 + 1, (size_t)(c2 - c1 - 1));
        z->squares[c2 - c1 - 1] = 0;
        strcpy(z->betza, c2 + 1);
        z->line = r->line;
        return 0;
    }
    return NOT_MINE;
}

static int read_parent(Reader *r, const char *name);

static int read_setting(Reader *r, const char *key, const char *val) {
    VariantSpec *sp = r->sp;
    if (r->weights_only && strcmp(key, "eval"))
        return fail(r, "%s=: a weights file holds eval= lines alone", key);
    if (!strcmp(key, "parent"))
        return read_parent(r, val);
    for (int i = 0; ignored_keys[i]; i++)
        if (!strcmp(key, ignored_keys[i]))
            return 0;
    int rc = read_show_setting(r, key, val);
    if (rc == NOT_MINE)
        rc = read_list_setting(r, key, val);
    if (rc != NOT_MINE)
        return rc;
    if (!strcmp(key, "name"))
        return copy_value(r, sp->name, sizeof sp->name, key, val);
    if (!strcmp(key, "title"))
        return copy_value(r, sp->title, sizeof sp->title, key, val);
    if (!strcmp(key, "files"))
        return int_value(r, key, val, 2, 16, &sp->files);
    if (!strcmp(key, "ranks"))
        return int_value(r, key, val, 2, 16, &sp->ranks);
    if (!strcmp(key, "holes"))
        return copy_value(r, sp->holes, sizeof sp->holes, key, val);
    if (!strcmp(key, "startFen")) {
        sp->start_fen_line = r->line;
        return copy_value(r, sp->start_fen, sizeof sp->start_fen, key, val);
    }
    if (!strcmp(key, "royal")) {
        if (strlen(val) != 1)
            return fail(r, "royal=%s: want one piece letter or -", val);
        sp->royal = val[0];
        return 0;
    }
    if (!strcmp(key, "promoChoice"))
        return copy_value(r, sp->promo_choice, sizeof sp->promo_choice, key, val);
    if (!strcmp(key, "promoting"))
        return copy_value(r, sp->promoting, sizeof sp->promoting, key, val);
    if (!strcmp(key, "promoZone"))
        return int_value(r, key, val, 1, 16, &sp->promo_zone);
    if (!strcmp(key, "promoSquares"))
        return copy_value(r, sp->promo_squares, sizeof sp->promo_squares, key, val);
    if (!strcmp(key, "moveRule"))
        return int_value(r, key, val, 0, 1000, &sp->move_rule);
    if (!strcmp(key, "symmetry")) {
        if (!strcmp(val, "mirror") || !strcmp(val, "none"))
            sp->rotate = 0;
        else if (!strcmp(val, "rotate"))
            sp->rotate = 1;
        else
            return fail(r, "symmetry=%s: want mirror or rotate", val);
        return 0;
    }
    if (!strcmp(key, "reflect")) {
        static const char *const axes[] = {"none", "files", "diagonal"};
        for (int i = 0; i < 3; i++)
            if (!strcmp(val, axes[i])) {
                sp->reflect = (Reflect)i;
                return 0;
            }
        return fail(r, "reflect=%s: want none, files or diagonal", val);
    }
    if (!strcmp(key, "castling")) {
        static const char *const styles[] = {"none", "orthodox", "fast", "free"};
        for (int i = 0; i < 4; i++)
            if (!strcmp(val, styles[i])) {
                sp->castling = (CastleStyle)i;
                return 0;
            }
        return fail(r, "castling=%s: want none, orthodox, fast or free", val);
    }
    if (!strcmp(key, "castles"))
        return copy_value(r, sp->castles, sizeof sp->castles, key, val);
    if (!strcmp(key, "castlePartner")) {
        sp->castle_partner = val[0];
        return 0;
    }
    if (!strcmp(key, "castleInCheck"))
        return int_value(r, key, val, 0, 1, &sp->castle_in_check);
    if (!strcmp(key, "winSquares"))
        return copy_value(r, sp->win_squares, sizeof sp->win_squares, key, val);
    if (!strcmp(key, "winPieces"))
        return copy_value(r, sp->win_types, sizeof sp->win_types, key, val);
    if (!strcmp(key, "gating")) {
        if (strcmp(val, "setup") != 0)
            return fail(r, "gating=%s: want setup", val);
        sp->gating = 1;
        return 0;
    }
    if (!strcmp(key, "gateExclude"))
        return copy_value(r, sp->gate_exclude, sizeof sp->gate_exclude, key, val);
    if (!strcmp(key, "stalemate")) {
        if (strcmp(val, "draw") && strcmp(val, "loss"))
            return fail(r, "stalemate=%s: want draw or loss", val);
        sp->stalemate_loss = !strcmp(val, "loss");
        return 0;
    }
    if (!strcmp(key, "bareKing")) {
        if (strcmp(val, "none") && strcmp(val, "loss"))
            return fail(r, "bareKing=%s: want none or loss", val);
        sp->bare_king_loss = !strcmp(val, "loss");
        return 0;
    }
    if (!strcmp(key, "insufficient"))
        return copy_value(r, sp->insufficient, sizeof sp->insufficient, key, val);
    if (!strcmp(key, "materialDraw")) {
        if (strcmp(val, "both") != 0 && strcmp(val, "dead") != 0)
            return fail(r, "materialDraw=%s: want both or dead", val);
        sp->material_dead = !strcmp(val, "dead");
        return 0;
    }
    return fail(r, "unknown setting \"%s\"", key);
}

/* name:L:XBetza:image:white squares,,black squares */
static int read_piece(Reader *r, const char *tok) {
    VariantSpec *sp = r->sp;
    char f[5][220] = {{0}};
    int n = 0;
    const char *p = tok;
    while (n < 5) {
        const char *c = strchr(p, ':');
        size_t len = c && n < 4 ? (size_t)(c - p) : strlen(p);
        if (len >= sizeof f[0])
            return fail(r, "piece line too long: %s", tok);
        memcpy(f[n], p, len);
        f[n++][len] = 0;
        if (!c || n == 5)
            break;
        p = c + 1;
    }
    if (!strcmp(f[0], "hole")) {
        char *sq = f[4];
        char *sep = strstr(sq, ",,");
        if (sep)
            *sep = ',';
        return copy_value(r, sp->holes, sizeof sp->holes, "holes", sq);
    }
    if (r->weights_only)
        return fail(r, "a weights file holds eval= lines alone");
    /* a parent's piece defined again by letter is replaced where it stands */
    char letter = (char)toupper((unsigned char)(f[1][0] ? f[1][0] : f[0][0]));
    int t = 1;
    while (t <= r->inherited && sp->type[t].letter != letter)
        t++;
    if (t > r->inherited && sp->ntypes == MAX_TYPES - 1)
        return fail(r, "too many piece types");
    if (!f[0][0] || !f[2][0])
        return fail(r, "piece \"%s\" needs a name and an XBetza move", tok);
    if (t > r->inherited)
        t = ++sp->ntypes;
    PieceType *pt = &sp->type[t];
    memset(pt, 0, sizeof *pt);
    snprintf(pt->name, sizeof pt->name, "%s", f[0]);
    pt->line = r->line;
    pt->letter = letter;
    if (f[1][0] && f[1][1])
        return fail(r, "piece %s: the letter must be one character", f[0]);
    if (strlen(f[2]) >= sizeof pt->betza)
        return fail(r, "piece %s: XBetza too long", f[0]);
    strcpy(pt->betza, f[2]);
    char *sep = strstr(f[4], ",,");
    if (sep)
        *sep = 0;
    snprintf(r->black_sq[t], sizeof r->black_sq[0], "%s", sep ? sep + 2 : "");
    snprintf(r->white_sq[t], sizeof r->white_sq[0], "%s", f[4]);
    return 0;
}

/* With no startFen, the start position comes from the pieces' squares. */
static int fen_from_squares(Reader *r) {
    VariantSpec *sp = r->sp;
    char board[MAX_SQ];
    bool any = false;
    for (int t = 1; t <= sp->ntypes; t++)
        any |= r->white_sq[t][0] || r->black_sq[t][0];
    if (!any) {
        snprintf(r->err, r->errlen, "no start position (startFen, or squares on piece lines)");
        return -1;
    }
    memset(board, 0, sizeof board);
    for (int t = 1; t <= sp->ntypes; t++)
        for (int c = 0; c < 2; c++) {
            char list[200];
            snprintf(list, sizeof list, "%s", c ? r->black_sq[t] : r->white_sq[t]);
            for (char *s = strtok(list, ","); s; s = strtok(NULL, ",")) {
                int x = s[0] - 'a', y = 0;
                const char *d = s + 1;
                while (isdigit((unsigned char)*d) && y <= sp->ranks)
                    y = y * 10 + (*d++ - '0');
                y--;
                if (x < 0 || x >= sp->files || y < 0 || y >= sp->ranks || *d) {
                    r->line = sp->type[t].line; /* the error is the piece line's */
                    return fail(r, "piece %s: bad square \"%s\"", sp->type[t].name, s);
                }
                char L = sp->type[t].letter;
                board[y * sp->files + x] = c ? (char)tolower((unsigned char)L) : L;
            }
        }
    size_t n = 0;
    char *out = sp->start_fen;
    for (int y = sp->ranks - 1; y >= 0; y--) {
        int run = 0;
        for (int x = 0; x < sp->files; x++) {
            char ch = board[y * sp->files + x];
            if (!ch) {
                run++;
                continue;
            }
            if (run)
                n += (size_t)sprintf(out + n, "%d", run);
            run = 0;
            out[n++] = ch;
        }
        if (run)
            n += (size_t)sprintf(out + n, "%d", run);
        if (y)
            out[n++] = '/';
    }
    sprintf(out + n, " w %s - 0 1", "-");
    return 0;
}

/* XBoard's own piece order: a piece takes its letter's place when free. */
static const char xboard_order[] = "PNBRQFEACWMOHIJGDVLSUK";

/* The moves XBoard's parents know by letter (chess pieces, plain king). */
static bool parent_knows(char letter, const char *betza) {
    static const char *const known[] = {"N", "B", "R", "Q", "K"};
    for (int i = 0; i < 5; i++)
        if (letter == known[i][0] && !strcmp(betza, known[i]))
            return true;
    return false;
}

/* XBetza as XBoard 4.9 reads it: in each leg (legs split at 'a', after
 * any leading 'i') the directions first, then the modes in XBoard's order;
 * XBoard stops reading directions at the first other letter ("mfrF" is
 * mF there) and modes at the first one out of its order. */
static void xboard_modifier_order(char *betza) {
    static const char dirs[] = "fblrvsh", modes[] = "mcdetpgoynj";
    char *p = betza;
    while (*p) {
        while (*p == 'i')
            p++;
        char *leg = p;
        while (islower((unsigned char)*p) && *p != 'a')
            p++;
        size_t n = (size_t)(p - leg), k = 0;
        char sorted[128];
        if (n >= sizeof sorted)
            return;
        for (size_t i = 0; i < n; i++)
            if (strchr(dirs, leg[i]))
                sorted[k++] = leg[i];
        for (const char *m = modes; *m; m++)
            for (size_t i = 0; i < n; i++)
                if (leg[i] == *m)
                    sorted[k++] = leg[i];
        for (size_t i = 0; i < n; i++)
            if (!strchr(dirs, leg[i]) && !strchr(modes, leg[i]))
                sorted[k++] = leg[i];
        memcpy(leg, sorted, n);
        if (*p == 'a' || (*p && !islower((unsigned char)*p)))
            p++;
    }
}

/* Free castlings in XBoard's terms (VariantShow.xboard_castles): XBoard 4.9
 * draws a castling sent as two legs, king onto the rook and on to its
 * square, when the rook ends beside the king on the king's rank, on the
 * side it came from; it has no form for the others (a swap, a castling
 * along a file). Returns the files the King moves in the first that has
 * two legs, 0 = none. */
static int xboard_free_castles(const Variant *v, VariantShow *sh) {
    size_t len = 0, room = sizeof sh->xboard_castles;
    int steps = 0;
    for (int i = 0; i < v->ncastles && len < room; i++) {
        const CastleRule *cr = &v->castle[i];
        int f = v->files, kf = cr->kfrom % f, kt = cr->kto % f, rf = cr->rfrom % f;
        bool rank = cr->kfrom / f == cr->kto / f && cr->rfrom / f == cr->kto / f &&
                    cr->rto / f == cr->kto / f;
        bool legs = rank && kt != kf && cr->rto % f == kt + (rf < kf ? 1 : -1);
        char k1[8], k2[8], r1[8];
        variant_square_name(v, cr->kfrom, k1);
        variant_square_name(v, cr->kto, k2);
        variant_square_name(v, cr->rfrom, r1);
        len += (size_t)snprintf(sh->xboard_castles + len, room - len, "%s%s%s", len ? " " : "", k1,
                                k2);
        if (legs && len < room)
            len += (size_t)snprintf(sh->xboard_castles + len, room - len, "=%s%s,%s%s", k1, r1, r1,
                                    k2);
        if (legs && !steps)
            steps = abs(kt - kf);
    }
    return steps;
}

/* Fills what the file left out of v->show: XBoard's name and parent, its
 * piece-to-char table and a piece line per piece the parent does not know
 * (a piece with zone moves gets the union of all its moves; XBoard learns
 * the real ones from highlight; a King that castles fast, the one-square
 * castling; one that castles free, a castling XBoard draws from two legs). */
static void derive_show(Variant *v, const VariantSpec *sp) {
    VariantShow *sh = &v->show;
    *sh = sp->show;
    if (!sh->xboard[0])
        snprintf(sh->xboard, sizeof sh->xboard, "%s", v->name);
    if (!sh->xboard_parent[0])
        snprintf(sh->xboard_parent, sizeof sh->xboard_parent, "fairy");
    int n = (int)sizeof xboard_order - 1;
    if (!sh->piece_to_char[0]) {
        char slot[sizeof xboard_order];
        memset(slot, '.', (size_t)n);
        slot[n] = 0;
        /* the King last; first every piece on its own letter, then the rest */
        for (int pass = 0; pass < 2; pass++)
            for (int t = 1; t <= v->ntypes; t++) {
                char L = v->type[t].letter;
                const char *own = strchr(xboard_order, L);
                int k = own ? (int)(own - xboard_order) : -1;
                if (L == 'K' || memchr(slot, L, (size_t)n))
                    continue;
                if (pass == 0 && (k < 0 || slot[k] != '.' || k == n - 1))
                    continue;
                for (k = pass ? 0 : k; k < n - 1 && slot[k] != '.'; k++)
                    ;
                if (k < n - 1)
                    slot[k] = L;
            }
        if (variant_type_by_letter(v, 'K'))
            slot[n - 1] = 'K';
        for (int i = 0; i < n; i++)
            sh->piece_to_char[i] = slot[i];
        for (int i = 0; i < n; i++)
            sh->piece_to_char[n + i] = (char)tolower((unsigned char)slot[i]);
        sh->piece_to_char[2 * n] = 0;
    }
    int free_steps = v->castling == CASTLE_FREE ? xboard_free_castles(v, sh) : 0;
    for (int t = 1; t <= v->ntypes; t++) {
        const PieceType *pt = &v->type[t];
        char *out = sh->xboard_betza[t];
        size_t room = sizeof sh->xboard_betza[t];
        size_t len = (size_t)snprintf(out, room, "%s", pt->betza);
        for (int z = 0; z < sp->nzones && len < room; z++)
            if (sp->zone[z].letter == pt->letter)
                len += (size_t)snprintf(out + len, room - len, "%s", sp->zone[z].betza);
        /* fast castling: XBoard draws the one-square castling only */
        if (t == v->royal && v->castling == CASTLE_FAST && !strchr(out, 'O') && len < room)
            snprintf(out + len, room - len, "isO1");
        /* free castling: XBoard moves the rook of a two-leg castling only
         * for a piece whose line has castling ('O') */
        if (t == v->royal && free_steps && !strchr(out, 'O') && len < room)
            snprintf(out + len, room - len, "isO%d", free_steps);
        xboard_modifier_order(out);
        if (sh->xboard_known[0] ? strchr(sh->xboard_known, pt->letter) != NULL
                                : parent_knows(pt->letter, out))
            out[0] = 0;
    }
}

/* Reads one file's text into r->sp (the definition, a parent's, or weights). */
static int read_text(Reader *r, const char *text) {
    const char *p = text;
    r->line = 1;
    r->settings = 0;
    while (*p) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        char line[1024];
        if (len >= sizeof line)
            return fail(r, "line too long");
        memcpy(line, p, len);
        line[len] = 0;
        char *hash = strchr(line, '#');
        if (hash)
            *hash = 0;
        char *s = line;
        while (*s) {
            while (isspace((unsigned char)*s))
                s++;
            if (!*s)
                break;
            char *tok = s;
            char *eq = NULL;
            while (*s && !isspace((unsigned char)*s)) {
                if (*s == '=' && !eq)
                    eq = s;
                s++;
            }
            if (eq && (!strncmp(tok, "startFen=", 9) || !strncmp(tok, "title=", 6) ||
                       !strncmp(tok, "setup=", 6) || !strncmp(tok, "benchFen=", 9) ||
                       !strncmp(tok, "summary=", 8) || !strncmp(tok, "xboardStart=", 12)))
                s += strlen(s); /* these values run to the end of the line */
            char save = *s;
            *s = 0;
            int rc;
            if (eq) {
                *eq = 0;
                char *val = eq + 1;
                size_t vl = strlen(val);
                while (vl && isspace((unsigned char)val[vl - 1]))
                    val[--vl] = 0;
                rc = read_setting(r, tok, val);
            } else if (strchr(tok, ':')) {
                rc = read_piece(r, tok);
            } else {
                rc = fail(r, "\"%s\" is neither key=value nor a piece line", tok);
            }
            if (rc)
                return rc;
            r->settings++;
            *s = save;
        }
        r->line++;
        p += len + (eol ? 1 : 0);
    }
    return 0;
}

static const EmbeddedFile *embedded(const char *name) {
    for (const EmbeddedFile *f = builtin_variants; f->name; f++)
        if (!strcmp(f->name, name))
            return f;
    return NULL;
}

/* A definition file's text (at most 64 KiB, no NUL); NULL with the reason
 * in err, *missing when it cannot be opened. */
static char *file_text(const char *path, bool *missing, char *err, size_t errlen) {
    FILE *f = fopen(path, "rb");
    *missing = !f;
    if (!f) {
        snprintf(err, errlen, "cannot open %s", path);
        return NULL;
    }
    char *buf = malloc(1 << 16);
    size_t n = buf ? fread(buf, 1, (1 << 16) - 1, f) : 0;
    bool big = !feof(f);
    fclose(f);
    if (!buf)
        abort();
    buf[n] = 0;
    if (big || strlen(buf) != n) {
        free(buf);
        snprintf(err, errlen, "%s: %s", path, big ? "larger than 64 KiB" : "not a text file");
        return NULL;
    }
    return buf;
}

/* parent=NAME: the definition starts as NAME's (NAME.var or NAME.base of
 * the file's folder, else the built-in one) and what follows overrides it;
 * the parent's name and title are not inherited. What came from the parent
 * is the parent= line's for the messages of the checks after reading. */
static int read_parent(Reader *r, const char *name) {
    VariantSpec *sp = r->sp;
    if (r->settings)
        return fail(r, "parent= must come first");
    if (r->depth == MAX_PARENTS)
        return fail(r, "parent=%s: more than %d parents in a chain", name, MAX_PARENTS);
    if (!name[0] || strlen(name) > 64 || strchr(name, '/') || name[0] == '.')
        return fail(r, "parent=%s: want the name of a definition", name);
    char source[4200] = "", *own = NULL, msg[200];
    const char *text = NULL;
    static const char *const ext[] = {".var", ".base"};
    for (int i = 0; i < 2 && !text && r->dir; i++) {
        bool missing;
        snprintf(source, sizeof source, "%s/%s%s", r->dir, name, ext[i]);
        text = own = file_text(source, &missing, msg, sizeof msg);
        if (!text && !missing)
            return fail(r, "parent=%s: %s", name, msg);
    }
    for (int i = 0; i < 2 && !text; i++) {
        snprintf(source, sizeof source, "%s%s", name, ext[i]);
        const EmbeddedFile *f = embedded(source);
        text = f ? f->data : NULL;
    }
    if (!text)
        return fail(r, "parent=%s: no such definition", name);
    for (int i = 0; i <= r->depth; i++)
        if (r->chain[i] && !strcmp(r->chain[i], source)) {
            free(own);
            return fail(r, "parent=%s: a cycle (%s is its own parent)", name, source);
        }
    int line = r->line, settings = r->settings;
    const char *from = r->source;
    char keep_name[sizeof sp->name];
    memcpy(keep_name, sp->name, sizeof keep_name);
    r->chain[++r->depth] = source;
    r->source = source;
    int rc = read_text(r, text);
    r->depth--;
    r->line = line;
    r->settings = settings;
    r->source = from;
    free(own);
    if (rc)
        return rc;
    memcpy(sp->name, keep_name, sizeof keep_name);
    sp->title[0] = 0;
    for (int t = 1; t <= sp->ntypes; t++)
        sp->type[t].line = line;
    for (int z = 0; z < sp->nzones; z++)
        sp->zone[z].line = line;
    if (sp->start_fen_line)
        sp->start_fen_line = line;
    r->inherited = sp->ntypes;
    return 0;
}

/* The definition text, then (for a built-in) its weights file. self names
 * the definition's file (NULL for a text) and dir its folder (NULL: parents
 * are built-in ones). */
static Variant *load(const char *text, const char *name, const char *self, const char *dir,
                     const EmbeddedFile *weights, char *err, size_t errlen) {
    VariantSpec *sp = calloc(1, sizeof *sp);
    Reader *r = calloc(1, sizeof *r);
    Variant *v = NULL;
    if (!sp || !r)
        abort();
    r->sp = sp;
    r->err = err;
    r->errlen = errlen;
    r->dir = dir;
    r->chain[0] = self;
    sp->move_rule = 50;
    snprintf(sp->name, sizeof sp->name, "%s", name ? name : "custom");
    if (read_text(r, text))
        goto out;
    if (weights) {
        r->depth = 1;
        r->source = weights->name;
        r->weights_only = true;
        if (read_text(r, weights->data))
            goto out;
    }
    if (!sp->files || !sp->ranks) {
        snprintf(err, errlen, "files= and ranks= are required");
        goto out;
    }
    if (!sp->start_fen[0] && !sp->nsetups && fen_from_squares(r))
        goto out;
    v = variant_compile(sp, err, errlen);
    if (v)
        derive_show(v, sp);
    /* The start and bench positions must be positions a game can start from. */
    for (int i = -2; v && i < v->nsetups + v->show.nbench; i++) {
        Position *pos = malloc(sizeof *pos);
        char msg[200];
        if (!pos)
            abort();
        bool bench = i >= v->nsetups;
        const char *fen = i == -2 ? v->show.xboard_start
                          : i < 0 ? v->start_fen
                          : bench ? v->show.bench_fen[i - v->nsetups]
                                  : v->setup_fen[i];
        if ((i != -2 || fen[0]) && pos_from_fen(pos, v, fen, msg, sizeof msg)) {
            char at[24] = "";
            if (i == -1 && sp->start_fen_line)
                snprintf(at, sizeof at, "line %d: ", sp->start_fen_line);
            snprintf(err, errlen, "%s%s%s%s: %s", at,
                     i == -2 ? "xboardStart"
                     : bench ? "benchFen"
                             : "start position",
                     i < 0 || bench ? "" : " ", i < 0 || bench ? "" : v->setup_name[i], msg);
            variant_free(v);
            v = NULL;
        }
        free(pos);
    }
out:
    free(sp);
    free(r);
    return v;
}

Variant *variant_load_text(const char *text, const char *fallback_name, char *err, size_t errlen) {
    return load(text, fallback_name, NULL, NULL, NULL, err, errlen);
}

/* The games: the built-in NAME.var files (NAME.base ones are parents only,
 * weights/NAME.eval the weights of NAME). */
const char *const *variant_builtin_names(void) {
    static const char *names[64];
    if (!names[0]) {
        int n = 0;
        for (const EmbeddedFile *f = builtin_variants; f->name && n < 63; f++) {
            static char buf[64][32];
            size_t len = strlen(f->name);
            if (len < 5 || len >= sizeof buf[n] || strcmp(f->name + len - 4, ".var"))
                continue;
            snprintf(buf[n], sizeof buf[n], "%.*s", (int)len - 4, f->name);
            names[n] = buf[n];
            n++;
        }
        names[n] = NULL;
    }
    return names;
}

Variant *variant_load_builtin(const char *name, char *err, size_t errlen) {
    char file[80], weights[96];
    snprintf(file, sizeof file, "%s.var", name);
    snprintf(weights, sizeof weights, "weights/%s.eval", name);
    const EmbeddedFile *f = strlen(name) < 64 ? embedded(file) : NULL;
    if (!f) {
        snprintf(err, errlen, "unknown variant \"%s\"", name);
        return NULL;
    }
    char msg[200];
    Variant *v = load(f->data, name, f->name, NULL, embedded(weights), msg, sizeof msg);
    if (!v)
        snprintf(err, errlen, "built-in %s: %s", f->name, msg);
    return v;
}

Variant *variant_load_file(const char *path, char *err, size_t errlen) {
    bool missing;
    char *buf = file_text(path, &missing, err, errlen);
    if (!buf)
        return NULL;
    const char *base = strrchr(path, '/');
    char name[32], dir[4096], self[4200];
    snprintf(name, sizeof name, "%s", base ? base + 1 : path);
    char *dot = strrchr(name, '.');
    if (dot)
        *dot = 0;
    snprintf(dir, sizeof dir, "%.*s", base ? (int)(base - path) : 1, base ? path : ".");
    snprintf(self, sizeof self, "%s/%s", dir, base ? base + 1 : path);
    char msg[200];
    Variant *v = load(buf, name, self, dir, NULL, msg, sizeof msg);
    int line, used = 0;
    if (!v && sscanf(msg, "line %d: %n", &line, &used) == 1 && used)
        snprintf(err, errlen, "%s:%d: %s", path, line, msg + used); /* as compilers say it */
    else if (!v)
        snprintf(err, errlen, "%s: %s", path, msg);
    free(buf);
    return v;
}
