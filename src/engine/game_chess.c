/* game_chess.c - the chess-like games behind the engine API.
 *
 * Built-in variants are compiled once and shared (read-only) by every game;
 * a variant from a user's file belongs to its game. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/movegen.h"
#include "core/notation.h"
#include "core/perft.h"
#include "core/rules.h"
#include "engine/game.h"
#include "search/nnue.h"
#include "search/search.h"
#include "variants/loader.h"

#define MAX_NAMED 64
_Static_assert(ENGINE_MAX_MOVES >= MAX_MOVES, "the engine API must hold every legal move");

/* The built-in variants, then those of the variants directory; each is
 * compiled once, at first use of the list, and shared read-only. */
static const char *names[MAX_NAMED + 1];
static const char *titles[MAX_NAMED + 1];
static const Variant *named[MAX_NAMED];
static bool from_dir[MAX_NAMED];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static int name_index(const char *name) {
    for (int i = 0; names[i]; i++)
        if (!strcmp(names[i], name))
            return i;
    return -1;
}

/* Adds v under its name; false (v freed) when the name is taken. */
static bool add_named(int *n, Variant *v, bool user) {
    if (*n == MAX_NAMED || name_index(v->name) >= 0) {
        variant_free(v);
        return false;
    }
    named[*n] = v;
    from_dir[*n] = user;
    names[*n] = v->name;
    titles[*n] = v->title[0] ? v->title : v->name;
    (*n)++;
    names[*n] = titles[*n] = NULL;
    return true;
}

static int by_name(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every *.var file of DIR, in name order; a broken or clashing file is
 * skipped with a message on stderr. */
static void load_dir(int *n, const char *dir) {
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "menagerie: variants directory %s: %s\n", dir, strerror(errno));
        return;
    }
    char *files[MAX_NAMED];
    int nf = 0;
    struct dirent *e;
    while ((e = readdir(d)) && nf < MAX_NAMED) {
        size_t len = strlen(e->d_name);
        if (len > 4 && !strcmp(e->d_name + len - 4, ".var") && e->d_name[0] != '.' &&
            !(files[nf++] = strdup(e->d_name)))
            abort();
    }
    closedir(d);
    qsort(files, (size_t)nf, sizeof files[0], by_name);
    for (int i = 0; i < nf; i++) {
        char path[4096], err[ENGINE_ERR_LEN];
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        Variant *v = variant_load_file(path, err, sizeof err);
        if (!v)
            fprintf(stderr, "menagerie: skipping %s\n", err);
        else if (!add_named(n, v, true))
            fprintf(stderr, "menagerie: skipping %s: the name is taken\n", path);
        free(files[i]);
    }
}

static void init_names(void) {
    const char *const *b = variant_builtin_names();
    int n = 0;
    for (int i = 0; b[i]; i++) {
        char err[ENGINE_ERR_LEN];
        Variant *v = variant_load_builtin(b[i], err, sizeof err);
        if (!v)
            fprintf(stderr, "menagerie: %s\n", err);
        else
            add_named(&n, v, false);
    }
    const char *dir = getenv("MENAGERIE_VARIANTS");
    if (dir && dir[0])
        load_dir(&n, dir);
    srand((unsigned)time(NULL) ^ (unsigned)getpid());
}

void game_chess_init(void) {
    pthread_once(&once, init_names);
}

static const Variant *builtin(const char *name, char *err, size_t errlen) {
    game_chess_init();
    int i = name_index(name);
    if (i >= 0)
        return named[i];
    snprintf(err, errlen, "unknown variant \"%s\"", name);
    return NULL;
}

/* A user's variant, shared by a game and its copies. */
typedef struct {
    Variant *v;
    atomic_int refs;
} OwnedVariant;

typedef struct {
    const Variant *v;
    OwnedVariant *owned;   /* NULL for a built-in variant */
    SearchContext *search; /* made by the first chess_go */
    Position pos;
} ChessGame;

static void release(OwnedVariant *o) {
    if (o && atomic_fetch_sub(&o->refs, 1) == 1) {
        variant_free(o->v);
        free(o);
    }
}

/* The position with its history (the part of hist in use). */
static void copy_pos(Position *dst, const Position *src) {
    memcpy(dst, src, offsetof(Position, hist) + (size_t)src->hply * sizeof(Undo));
}

static void *chess_create(const char *variant, const char *fen, char *err, size_t errlen) {
    OwnedVariant *owned = NULL;
    const Variant *v;
    if (!strncmp(variant, "file:", 5)) {
        Variant *fv = variant_load_file(variant + 5, err, errlen);
        if (fv && !(owned = malloc(sizeof *owned)))
            abort();
        if (fv) {
            owned->v = fv;
            atomic_init(&owned->refs, 1);
        }
        v = fv;
    } else
        v = builtin(variant, err, errlen);
    if (!v)
        return NULL;
    ChessGame *g = malloc(sizeof *g);
    if (!g)
        abort();
    g->v = v;
    g->owned = owned;
    g->search = NULL;
    if (pos_from_fen(&g->pos, v, fen, err, errlen)) {
        release(owned);
        free(g);
        return NULL;
    }
    return g;
}

static void chess_destroy(void *st) {
    ChessGame *g = st;
    search_free(g->search);
    release(g->owned);
    free(g);
}

static void chess_clear(void *st) {
    ChessGame *g = st;
    if (g->search)
        search_clear(g->search);
}

static void *chess_copy(const void *st) {
    const ChessGame *src = st;
    ChessGame *g = malloc(sizeof *g);
    if (!g)
        return NULL;
    g->v = src->v;
    g->owned = src->owned;
    if (g->owned)
        atomic_fetch_add(&g->owned->refs, 1);
    g->search = NULL;
    copy_pos(&g->pos, &src->pos);
    return g;
}

static bool chess_assign(void *dst, const void *src) {
    ChessGame *d = dst;
    const ChessGame *s = src;
    if (d->v != s->v)
        return false;
    copy_pos(&d->pos, &s->pos);
    return true;
}

static uint64_t chess_perft(void *st, int depth, const atomic_bool *stop) {
    return perft(&((ChessGame *)st)->pos, depth, stop);
}

static uint64_t chess_divide(void *st, int depth, DivideCallback cb, void *ud,
                             const atomic_bool *stop) {
    Position *pos = &((ChessGame *)st)->pos;
    MoveList l;
    movegen_legal(pos, &l);
    uint64_t total = 0;
    for (int i = 0; i < l.n; i++) {
        char text[MOVE_TEXT_LEN];
        notation_coord(pos, l.m[i], text);
        pos_make_move(pos, l.m[i]);
        uint64_t n = depth > 1 ? perft(pos, depth - 1, stop) : 1;
        pos_unmake_move(pos);
        total += n;
        cb(text, n, ud);
    }
    return total;
}

static int chess_legal_moves(void *st, char (*out)[ENGINE_MOVE_TEXT], int max, bool san) {
    Position *pos = &((ChessGame *)st)->pos;
    MoveList l;
    movegen_legal(pos, &l);
    for (int i = 0; i < l.n && i < max; i++) {
        if (san)
            notation_san(pos, l.m[i], out[i]);
        else
            notation_coord(pos, l.m[i], out[i]);
    }
    return l.n;
}

/* The undo stack keeps room for a search below the game's last move. */
static bool too_long(const Position *pos, char *err, size_t errlen) {
    if (pos->hply < MAX_GAME_PLY - 512)
        return false;
    snprintf(err, errlen, "the game is too long to go on (%d plies)", pos->hply);
    return true;
}

static bool chess_play(void *st, const char *text, char *err, size_t errlen) {
    Position *pos = &((ChessGame *)st)->pos;
    Move m;
    if (too_long(pos, err, errlen) || notation_parse(pos, text, &m, err, errlen))
        return false;
    pos_make_move(pos, m);
    return true;
}

static bool chess_undo(void *st) {
    Position *pos = &((ChessGame *)st)->pos;
    if (pos->hply == 0)
        return false;
    pos_unmake_move(pos);
    return true;
}

static void chess_position_text(const void *st, char *buf, size_t len) {
    pos_to_fen(&((const ChessGame *)st)->pos, buf, len);
}

static Side chess_side_to_move(const void *st) {
    return ((const ChessGame *)st)->pos.stm == WHITE ? SIDE_FIRST : SIDE_SECOND;
}

/* The rules' result; a game that has grown too long to take another move
 * (legal under the N-move rule, though no real game comes near) is
 * adjudicated a draw, so that no front end waits for a move that cannot
 * come. */
static GameResult chess_result(void *st) {
    Position *pos = &((ChessGame *)st)->pos;
    RulesResult r = rules_result(pos);
    GameResult g;
    static const ResultKind kind[] = {RESULT_NONE, RESULT_FIRST_WINS, RESULT_SECOND_WINS,
                                      RESULT_DRAW};
    g.kind = kind[r.outcome];
    snprintf(g.reason, sizeof g.reason, "%s", r.reason);
    if (g.kind == RESULT_NONE && too_long(pos, g.reason, sizeof g.reason))
        g.kind = RESULT_DRAW;
    return g;
}

static bool chess_go(void *st, const SearchLimits *lim, const SearchCallbacks *cb,
                     atomic_bool *stop, char *best, size_t len) {
    ChessGame *g = st;
    if (!g->search)
        g->search = search_new(g->v);
    Move m = g->search ? search_go(g->search, &g->pos, lim, cb, stop) : MOVE_NONE;
    if (m == MOVE_NONE) {
        if (best && len)
            snprintf(best, len, "(none)");
        return false;
    }
    char text[MOVE_TEXT_LEN];
    notation_coord(&g->pos, m, text);
    if (best && len)
        snprintf(best, len, "%s", text);
    return true;
}

static int chess_start_fen(const char *variant, const char *setup, char *fen, size_t len, char *err,
                           size_t errlen) {
    const Variant *v = builtin(variant, err, errlen);
    if (!v)
        return -1;
    if (!v->nsetups) {
        if (setup) {
            snprintf(err, errlen, "%s has no set-up choices", variant);
            return -1;
        }
        snprintf(fen, len, "%s", v->start_fen);
        return 0;
    }
    if (!setup) {
        snprintf(fen, len, "%s", v->setup_fen[rand() % v->nsetups]);
        return 0;
    }
    for (int i = 0; i < v->nsetups; i++)
        if (!strcmp(v->setup_name[i], setup)) {
            snprintf(fen, len, "%s", v->setup_fen[i]);
            return 0;
        }
    char list[200] = "";
    for (int i = 0; i < v->nsetups; i++) {
        strcat(list, i ? ", " : "");
        strcat(list, v->setup_name[i]);
    }
    snprintf(err, errlen, "unknown set-up \"%s\" for %s (choose %s)", setup, variant, list);
    return -1;
}

static const char *const *chess_setups(const char *variant) {
    char err[160];
    const Variant *v = builtin(variant, err, sizeof err);
    static const char *const none[] = {NULL};
    return v ? v->setup_names : none;
}

static void chess_info(const void *st, GameInfo *out) {
    const Variant *v = ((const ChessGame *)st)->v;
    memset(out, 0, sizeof *out);
    out->kind = KIND_CHESS;
    snprintf(out->name, sizeof out->name, "%s", v->name);
    snprintf(out->title, sizeof out->title, "%s", v->title);
    out->files = v->files;
    out->ranks = v->ranks;
    out->rotated = v->rotate_black;
    out->gating = v->gating;
    out->move_rule = v->move_rule;
    out->npieces = v->ntypes;
    const VariantShow *sh = &v->show;
    for (int t = 1; t <= v->ntypes; t++) {
        PieceInfo *pi = &out->piece[t - 1];
        pi->letter = v->type[t].letter;
        snprintf(pi->name, sizeof pi->name, "%s", v->type[t].name);
        snprintf(pi->betza, sizeof pi->betza, "%s", v->type[t].betza);
        snprintf(pi->xboard, sizeof pi->xboard, "%s", sh->xboard_betza[t]);
    }
    snprintf(out->summary, sizeof out->summary, "%s", sh->summary);
    snprintf(out->icon, sizeof out->icon, "%s", sh->icon);
    out->order = sh->order;
    snprintf(out->xboard_name, sizeof out->xboard_name, "%s", sh->xboard);
    if (strcmp(sh->xboard_parent, "-"))
        snprintf(out->xboard_parent, sizeof out->xboard_parent, "%s", sh->xboard_parent);
    snprintf(out->piece_to_char, sizeof out->piece_to_char, "%s", sh->piece_to_char);
    snprintf(out->xboard_castles, sizeof out->xboard_castles, "%s", sh->xboard_castles);
    snprintf(out->xboard_start, sizeof out->xboard_start, "%s", sh->xboard_start);
    /* gating: every piece but the King has a place in XBoard's holdings */
    out->holdings = v->gating ? v->ntypes - (v->royal != 0) : 0;
    for (int i = 0; names[i]; i++)
        out->user |= named[i] == v && from_dir[i];
    out->nbench = sh->nbench;
    memcpy(out->bench_fen, sh->bench_fen, sizeof out->bench_fen);
}

static void describe_move(Position *pos, Move m, MoveDesc *d) {
    const Variant *v = pos->v;
    memset(d, 0, sizeof *d);
    notation_coord(pos, m, d->text);
    notation_san(pos, m, d->san);
    d->from = move_from(m);
    d->to = move_to(m);
    d->promo = move_promo(m) ? v->type[move_promo(m)].letter : 0;
    switch (move_kind(m)) {
    case MK_CASTLE: d->kind = 'c'; break;
    case MK_EP: d->kind = 'e'; break;
    case MK_SETUP:
        d->kind = 's';
        d->from = d->to = -1;
        break;
    default: d->kind = 'n';
    }
}

static bool chess_describe(void *st, const char *text, MoveDesc *out, char *err, size_t errlen) {
    Position *pos = &((ChessGame *)st)->pos;
    Move m;
    if (too_long(pos, err, errlen) || notation_parse(pos, text, &m, err, errlen))
        return false;
    describe_move(pos, m, out);
    return true;
}

static int chess_moves(void *st, MoveDesc *out, int max) {
    Position *pos = &((ChessGame *)st)->pos;
    MoveList l;
    movegen_legal(pos, &l);
    for (int i = 0; i < l.n && i < max; i++)
        describe_move(pos, l.m[i], &out[i]);
    return l.n;
}

static bool chess_board(const void *st, BoardView *out) {
    const Position *pos = &((const ChessGame *)st)->pos;
    const Variant *v = pos->v;
    out->files = v->files;
    out->ranks = v->ranks;
    for (int s = 0; s < v->nsq; s++) {
        Piece p = pos->board[s];
        char L = p == HOLE ? '*' : p ? v->type[piece_type(p)].letter : '.';
        out->sq[s] =
            p && p != HOLE && piece_color(p) == BLACK ? (char)tolower((unsigned char)L) : L;
    }
    for (int c = 0; c < 2; c++) {
        for (int f = 0; f < v->files; f++) {
            Piece g = pos->gate[c][f];
            out->gate[c][f] = g ? (c ? (char)tolower((unsigned char)v->type[piece_type(g)].letter)
                                     : v->type[piece_type(g)].letter)
                                : 0;
        }
        uint8_t types[MAX_HAND];
        int n = pos_hand_order(pos, c, types);
        for (int i = 0; i < n; i++)
            out->hand[c][i] = c ? (char)tolower((unsigned char)v->type[types[i]].letter)
                                : v->type[types[i]].letter;
    }
    out->side = pos->stm == WHITE ? SIDE_FIRST : SIDE_SECOND;
    out->check = movegen_in_check(pos);
    return true;
}

static bool chess_eval(void *st, EngineEval *out) {
    ChessGame *g = st;
    if (!g->search)
        g->search = search_new(g->v);
    if (!g->search)
        return false;
    EvalTerms t;
    memset(out, 0, sizeof *out);
    out->score = search_static_eval(g->search, &g->pos, &t);
    _Static_assert(EVAL_TERMS <= ENGINE_EVAL_TERMS, "EngineEval holds every term");
    out->nterms = EVAL_TERMS;
    for (int i = 0; i < EVAL_TERMS; i++) {
        out->term[i].name = eval_term_names[i];
        out->term[i].mg = t.mg[i];
        out->term[i].eg = t.eg[i];
    }
    out->phase = t.phase;
    out->blended = t.blended;
    out->scaled = t.scaled;
    out->tempo = t.tempo;
    return true;
}

static uint64_t chess_key(const void *st) {
    return ((const ChessGame *)st)->pos.key;
}

static bool chess_net(const void *st, const NnueNet *net, bool hand, char *what, size_t len) {
    const ChessGame *g = st;
    char why[200] = "";
    bool fits = !net || nnue_fits(net, g->v, why, sizeof why);
    const NnueNet *own = nnue_builtin(g->v);
    const NnueNet *use = hand ? NULL : net && fits ? net : own;
    if (use)
        snprintf(what, len, "%s%snetwork for %s, %d x %d%s", fits ? "" : why, fits ? "" : ": ",
                 use->variant, use->inputs, use->hidden, use == own ? " (built in)" : "");
    else
        snprintf(what, len, "%s%shand-made evaluation%s", fits ? "" : why, fits ? "" : ": ",
                 hand || own ? "" : " (no network for this game)");
    return fits;
}

static int chess_sample(const void *st, uint16_t *items, int max, char *features, size_t len) {
    const ChessGame *g = st;
    nnue_feature_set(g->v, features, len);
    if (max < NNUE_MAX_ITEMS)
        return -1;
    return nnue_items(&g->pos, items);
}

const GameOps game_chess_ops = {
    .names = names,
    .titles = titles,
    .create = chess_create,
    .destroy = chess_destroy,
    .copy = chess_copy,
    .assign = chess_assign,
    .clear = chess_clear,
    .perft = chess_perft,
    .divide = chess_divide,
    .legal_moves = chess_legal_moves,
    .play = chess_play,
    .undo = chess_undo,
    .position_text = chess_position_text,
    .side_to_move = chess_side_to_move,
    .result = chess_result,
    .go = chess_go,
    .start_fen = chess_start_fen,
    .setups = chess_setups,
    .info = chess_info,
    .describe = chess_describe,
    .moves = chess_moves,
    .board = chess_board,
    .eval = chess_eval,
    .key = chess_key,
    .net = chess_net,
    .sample = chess_sample,
};
