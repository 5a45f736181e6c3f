/* xboard.c - XBoard/CECP v2 over the engine API.
 *
 * One input thread owns all state; searches run in the engine service on
 * its copy of the game and hand their move back through the input loop.
 * What XBoard is told of a game (its name, the setup line, the piece
 * lines) comes from the game's definition file (GameInfo). Mappings between XBoard and our move
 * text (xb_to_ours, xb_play, xb_move_text):
 *  - ranks: XBoard counts from 0 on boards with exactly ten ranks
 *    (Snake vs. Mongoose), so its e2 is our e3; squares in moves, FEN
 *    en-passant fields, lift/put/hover, error texts and thinking output
 *    are shifted.
 *  - Hannibal: 10x9 with holdings, parent seirawan; Manticore and Falcon
 *    show in the holdings. A move that gates a waiting piece in carries it
 *    as a lower-case suffix, seirawan style ("b1c3m"); we accept it with or
 *    without. XBoard 4.9 has no form for the set-up move ("MbFh" places
 *    two pieces in hand on gate files; a drop is one piece on the board, a
 *    null move reaches the other engine as a setboard that has lost the
 *    choice), so the option "Hannibal set-up" decides: "move" (default)
 *    keeps our token for drivers that read it (our match tool), a set-up
 *    ("MbFh mcfg") or "random" starts every Hannibal game after it. XBoard
 *    then sees the pieces in hand without files; positions it sends get
 *    the option's files back (hs_fen_in, hs_fen_out).
 *  - classic variants XBoard knows (capablanca, gothic, janus, knightmate,
 *    shatranj, courier) go by its names and letters; embassy sends its
 *    start position in a setup line, with parent capablanca and its King's
 *    castling as a piece line. XBoard ignores the setup of a game it knows
 *    (legality testing on), so courier starts from XBoard's own position
 *    (GameInfo.xboard_start) and says so in its setup line.
 *  - castling is the king's move. A Hannibal one-square castling, ours
 *    king-to-rook (f1a1), is XBoard's two-leg castling: king onto the
 *    Rook, then to its square (f1a1,a1e1), which XBoard draws with the
 *    Rook on f1 when its King is told "KisO1"; XBoard answers with the
 *    legs as king move, rook move (f1e1,a1f1). XBoard puts a castling
 *    Rook beside the King's destination, so it cannot draw Hannibal's
 *    longer fast castlings (Rook to the King's start square); docs/xboard.md
 *    says so. Under a Hannibal set-up
 *    option (XBoard) our own searches see no castling rights while such a
 *    castling is legal (castle_free_copy); other drivers get our tokens.
 *  - Diamondback (docs/xboard.md) needs XBoard's -testLegality false: XBoard
 *    4.9 cannot check its rules (with the test on it even takes a pawn's
 *    sideways step for an en-passant capture) and no protocol command turns
 *    the test off. XBoard adds a promotion piece to every pawn move onto the
 *    last rank; where only the plain move is legal (a8-d8, h1-h4 stay
 *    pawns) the suffix is dropped. The pawn gets the union of its zone
 *    moves as its XBetza (the loader derives it), the real targets come
 *    from highlight. Castlings XBoard does not know (GameInfo.
 *    xboard_castles): the one it draws from two legs (a1c1 as a1d1,d1c1)
 *    is sent so and read in either order; the others are left out of our
 *    searches (SearchLimits.avoid) and none is highlighted for a person.
 * lift/put/hover answer with highlight: legal targets yellow, captures
 * red, promotions magenta (then "choice" with our pieces on put), the
 * en-passant victim green on hover. After every move the engine claims
 * the game end its rules give (corner wins, 64-/75-move rules, mating
 * potential). XBoard judges claims by its own rules unless told not to:
 * for Team-Mate, Diamondback, Hannibal, Shatranj and Courier run it with
 * -testClaims false -materialDraws false -ruleMoves 0 (docs/xboard.md). */
#include <ctype.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/frontends.h"
#include "app/proto/proto_io.h"
#include "app/proto/proto_search.h"
#include "engine/engine.h"

enum { TAG_THINK, TAG_PONDER, TAG_ANALYZE };

typedef struct {
    Game *g;
    GameInfo info; /* with how XBoard is to see the game (from its definition) */
    int shift;     /* ours = XBoard's rank + shift */
    bool force;
    int engine_side; /* SIDE_FIRST/SIDE_SECOND, -1 = neither */
    bool ponder_on, analyzing;
    atomic_bool post;
    /* time control */
    int mps, base_ms, inc_ms, st_ms, sd;
    long nps;
    int time_ms, otim_ms;
    /* the GUI's floor: the least it charges a move of ours, measured from
     * the clock told before it (think_clock), the time we took (think_ms to
     * the move) and the clock told after it */
    int64_t think_ms; /* when our clocked search began, 0 = none */
    int think_clock, spent_ms;
    bool floor_armed; /* a move of ours is out: the next "time" measures */
    int floor_ms;     /* smoothed; 0 = none seen */
    int hash_mb, threads, level;
    ProtoSearch *search;
    char ponder_move[ENGINE_MOVE_TEXT]; /* ours: the reply being pondered */
    char hint[ENGINE_MOVE_TEXT];
    bool ponder_done; /* the ponder search ended before the reply came */
    bool ponder_hit;  /* the running ponder search is now our search */
    ProtoResult ponder_result;
    int pongs[64], npongs; /* held until the move is out */
    int lift;              /* our square, -1 none */
    char hsetup[2][8];     /* Hannibal set-up tokens; "" = the set-up is a move */
    bool hrandom;          /* a random set-up for each new game */
    int score;
    bool have_score;
    bool quit;
} Xb;

static void xb_error(const char *type, const char *cmd) {
    proto_out("Error (%s): %s", type, cmd);
}

/* --- move text ---------------------------------------------------------- */

static bool xb_to_ours(const Xb *x, const char *in, char *out, size_t len) {
    return proto_shift_ranks(in, x->shift, out, len);
}

static bool xb_from_ours(const Xb *x, const char *in, char *out, size_t len) {
    return proto_shift_ranks(in, -x->shift, out, len);
}

static int xb_square(const Xb *x, const char *t);

/* Reads a square ("j1", "a10") at P into SQ; the text after it. */
static const char *read_square(const char *p, char sq[8]) {
    size_t n = 0;
    if (islower((unsigned char)*p))
        sq[n++] = *p++;
    while (isdigit((unsigned char)*p) && n < 7)
        sq[n++] = *p++;
    sq[n] = 0;
    return n >= 2 ? p : NULL;
}

/* Under a Hannibal set-up option (XBoard), a castling written king-to-rook
 * (ours "f1j1") as XBoard's two legs, king onto the Rook and on to its
 * square ("f1j1,j1g1"); false for any other move. */
static bool castle_legs(Xb *x, const char *ours, char *out, size_t len) {
    if (!x->info.gating || !x->hsetup[0][0]) /* our token for other drivers */
        return false;
    MoveDesc *m = malloc(ENGINE_MAX_MOVES * sizeof *m);
    if (!m)
        abort();
    int n = engine_moves(x->g, m, ENGINE_MAX_MOVES), to = -1;
    for (int i = 0; i < n; i++)
        if (m[i].kind == 'c' && !strcmp(m[i].text, ours))
            to = m[i].to;
    free(m);
    char from[8], rook[8];
    const char *p = read_square(ours, from);
    if (to < 0 || !p || !read_square(p, rook) || xb_square(x, rook) == to)
        return false;
    snprintf(out, len, "%s%s,%s%c%d", from, rook, rook, 'a' + to % x->info.files,
             to / x->info.files + 1);
    return true;
}

/* Hannibal: XBoard's two-leg castling, either order of the legs
 * ("f1j1,j1g1" or "f1g1,j1f1"), as ours (king-to-rook, "f1j1"); the text
 * unchanged when it is no two-leg castling. */
static void castle_from_legs(Xb *x, const char *in, char *out, size_t len) {
    char a[8], b[8], c[8], d[8], ours[ENGINE_MOVE_TEXT], shifted[ENGINE_MOVE_TEXT];
    /* a castling XBoard does not know (Diamondback), in XBoard's ranks */
    if (xb_to_ours(x, in, shifted, sizeof shifted) &&
        proto_castle_from_xboard(x->info.xboard_castles, shifted, ours, sizeof ours) &&
        xb_from_ours(x, ours, out, len))
        return;
    const char *p = x->info.gating ? read_square(in, a) : NULL;
    p = p ? read_square(p, b) : NULL;
    snprintf(out, len, "%s", in);
    if (!p || *p != ',' || !(p = read_square(p + 1, c)) || !(p = read_square(p, d)))
        return;
    snprintf(ours, sizeof ours, "%s%s", a, strcmp(c, b) ? c : b);
    MoveDesc *m = malloc(ENGINE_MAX_MOVES * sizeof *m);
    if (!m)
        abort();
    int n = engine_moves(x->g, m, ENGINE_MAX_MOVES);
    for (int i = 0; i < n; i++)
        if (m[i].kind == 'c' && !strcmp(m[i].text, ours))
            snprintf(out, len, "%s%s", ours, p); /* p: a gating suffix */
    free(m);
}

/* Our move text as XBoard reads it. */
static void xb_move_text(Xb *x, const char *ours, char *out, size_t len) {
    char shifted[ENGINE_MOVE_TEXT * 2], legs[ENGINE_MOVE_TEXT * 2];
    if (proto_castle_to_xboard(x->info.xboard_castles, ours, legs, sizeof legs))
        ours = legs; /* Diamondback: XBoard draws it from two legs */
    if (!castle_legs(x, ours, shifted, sizeof shifted) &&
        !xb_from_ours(x, ours, shifted, sizeof shifted))
        snprintf(shifted, sizeof shifted, "%s", ours);
    char gate = x->info.gating ? proto_gated_piece(x->g, ours) : 0;
    if (gate)
        snprintf(out, len, "%s%c", shifted, gate);
    else
        snprintf(out, len, "%s", shifted);
}

/* Plays XBoard's move text on the game; false + reason when illegal. */
static bool xb_play(Xb *x, const char *text, char *err, size_t errlen) {
    char ours[ENGINE_MOVE_TEXT], joined[ENGINE_MOVE_TEXT];
    if (strlen(text) >= sizeof ours - 1)
        text = "";
    castle_from_legs(x, text, joined, sizeof joined);
    if (!joined[0] || !xb_to_ours(x, joined, ours, sizeof ours)) {
        snprintf(err, errlen, "cannot read the move");
        return false;
    }
    if (x->info.gating ? proto_play_gated(x->g, ours, err, errlen)
                       : engine_play(x->g, ours, err, errlen))
        return true;
    /* XBoard adds a promotion piece to any pawn move onto the last rank;
     * Diamondback pawns there promote only near the enemy corner. Accept
     * the move without it when that is the only legal reading. */
    size_t n = strlen(ours);
    if (!x->info.rotated || n < 5 || !islower((unsigned char)ours[n - 1]) ||
        !isdigit((unsigned char)ours[n - 2]))
        return false;
    char plain[ENGINE_MOVE_TEXT], err2[ENGINE_ERR_LEN];
    snprintf(plain, sizeof plain, "%.*s", (int)(n - 1), ours);
    MoveDesc *m = malloc(ENGINE_MAX_MOVES * sizeof *m);
    if (!m)
        abort();
    int k = engine_moves(x->g, m, ENGINE_MAX_MOVES);
    bool plain_only = false;
    for (int i = 0; i < k; i++)
        if (!strcmp(m[i].text, plain))
            plain_only = !m[i].promo;
    free(m);
    return plain_only && engine_play(x->g, plain, err2, sizeof err2);
}

/* --- game state ---------------------------------------------------------- */

static void xb_claim(Xb *x) {
    GameResult r = engine_result(x->g);
    if (r.kind == RESULT_NONE)
        return;
    static const char *const codes[] = {"*", "1-0", "0-1", "1/2-1/2"};
    static const char *const who[] = {"", "White wins", "Black wins", "Draw"};
    proto_out("%s {%s: %s}", codes[r.kind], who[r.kind], r.reason);
}

static bool xb_over(Xb *x) {
    return engine_result(x->g).kind != RESULT_NONE;
}

static void stop_all(Xb *x) {
    proto_search_abort(x->search);
    x->ponder_move[0] = 0;
    x->ponder_done = false;
    x->ponder_hit = false;
}

static void flush_pongs(Xb *x) {
    for (int i = 0; i < x->npongs; i++)
        proto_out("pong %d", x->pongs[i]);
    x->npongs = 0;
}

static bool set_game(Xb *x, const char *name, const char *fen, char *err, size_t errlen) {
    Game *g = proto_new_game(name, fen, err, errlen);
    if (!g)
        return false;
    engine_free(x->g);
    x->g = g;
    engine_info(g, &x->info);
    x->shift = x->info.ranks == 10 ? 1 : 0;
    x->lift = -1;
    x->have_score = false;
    x->hint[0] = 0;
    return true;
}

/* --- searching ------------------------------------------------------------ */

static void xb_info(const SearchInfo *in, int tag, void *ud) {
    Xb *x = ud;
    if (!atomic_load(&x->post) && tag != TAG_ANALYZE)
        return;
    int score = in->score;
    if (in->mate > 0)
        score = 100000 + in->mate;
    else if (in->mate < 0)
        score = -100000 + in->mate;
    char pv[sizeof in->pv + 64];
    if (!proto_shift_ranks(in->pv, -x->shift, pv, sizeof pv))
        snprintf(pv, sizeof pv, "%s", in->pv);
    proto_out("%d %d %d %llu %d %llu\t%s", in->depth, score, in->time_ms / 10,
              (unsigned long long)in->nodes, in->seldepth, (unsigned long long)in->nps, pv);
}

static void limits(Xb *x, SearchLimits *lim, bool infinite) {
    memset(lim, 0, sizeof *lim);
    lim->depth = x->sd;
    lim->hash_mb = x->hash_mb;
    lim->threads = x->threads;
    lim->level = x->level;
    /* castlings XBoard 4.9 cannot draw (Diamondback's): never ours */
    proto_castles_unseen(x->info.xboard_castles, lim->avoid, sizeof lim->avoid);
    if (infinite) {
        lim->infinite = true;
        return;
    }
    int us = engine_side_to_move(x->g);
    if (x->st_ms) {
        lim->movetime_ms = x->st_ms;
    } else {
        lim->time_ms[us] = x->time_ms > 0 ? x->time_ms : 1;
        lim->time_ms[!us] = x->otim_ms > 0 ? x->otim_ms : 1;
        lim->inc_ms[0] = lim->inc_ms[1] = x->inc_ms;
        lim->floor_ms = x->floor_ms;
        if (x->mps > 0) {
            int plies = engine_ply_count(x->g);
            lim->movestogo = x->mps - (plies / 2) % x->mps;
        }
    }
    if (x->nps > 0) {
        int budget =
            x->st_ms ? x->st_ms : engine_budget_ms(lim->time_ms[us], x->inc_ms, lim->movestogo);
        lim->nodes = (uint64_t)budget * (uint64_t)x->nps / 1000;
        if (!lim->nodes)
            lim->nodes = 1;
        lim->movetime_ms = 0;
        memset(lim->time_ms, 0, sizeof lim->time_ms);
        memset(lim->inc_ms, 0, sizeof lim->inc_ms);
        lim->movestogo = 0;
    }
}

/* What our own moves are chosen from: under a Hannibal set-up option
 * (XBoard), when a castling over more than one square is legal for us
 * (after REPLY, the opponent's move a ponder search expects, if not
 * NULL), a copy of the game without castling rights, as XBoard 4.9 cannot
 * draw those (see the header); NULL: the game itself. */
static Game *castle_free_copy(const Xb *x, const char *reply) {
    char fen[512], board[256], side[8], castle[32], rest[128] = "", err[ENGINE_ERR_LEN];
    if (!x->info.gating || !x->hsetup[0][0])
        return NULL;
    Game *after = reply ? engine_copy(x->g) : NULL;
    if (reply && (!after || !engine_play(after, reply, err, sizeof err))) {
        engine_free(after);
        return NULL;
    }
    MoveDesc *m = malloc(ENGINE_MAX_MOVES * sizeof *m);
    if (!m)
        abort();
    int n = engine_moves(after ? after : x->g, m, ENGINE_MAX_MOVES);
    bool long_castling = false;
    for (int i = 0; i < n; i++)
        long_castling |= m[i].kind == 'c' && abs(m[i].to - m[i].from) > 1;
    free(m);
    engine_free(after);
    if (!long_castling)
        return NULL;
    engine_position_text(x->g, fen, sizeof fen);
    if (sscanf(fen, "%255s %7s %31s %127[^\n]", board, side, castle, rest) < 3 ||
        !strcmp(castle, "-"))
        return NULL;
    snprintf(fen, sizeof fen, "%s %s - %s", board, side, rest);
    return engine_new(x->info.name, fen, err, sizeof err);
}

static void start_think(Xb *x) {
    if (xb_over(x)) {
        xb_claim(x);
        return;
    }
    SearchLimits lim;
    limits(x, &lim, false);
    Game *copy = castle_free_copy(x, NULL);
    x->think_ms = lim.time_ms[engine_side_to_move(x->g)] && !x->mps ? proto_now_ms() : 0;
    x->think_clock = x->time_ms;
    x->floor_armed = false;
    proto_search_start(x->search, copy ? copy : x->g, NULL, &lim, false, xb_info, x, TAG_THINK);
    engine_free(copy);
}

static void start_analyze(Xb *x) {
    stop_all(x);
    if (!x->analyzing || xb_over(x))
        return;
    SearchLimits lim;
    limits(x, &lim, true);
    lim.depth = 0;
    lim.avoid[0] = 0; /* analysis shows every move */
    proto_search_start(x->search, x->g, NULL, &lim, false, xb_info, x, TAG_ANALYZE);
}

static void start_ponder(Xb *x, const char *reply) {
    if (!x->ponder_on || !reply[0] || xb_over(x))
        return;
    SearchLimits lim;
    limits(x, &lim, true);
    Game *copy = castle_free_copy(x, reply);
    if (proto_search_start(x->search, copy ? copy : x->g, reply, &lim, true, xb_info, x,
                           TAG_PONDER)) {
        snprintf(x->ponder_move, sizeof x->ponder_move, "%s", reply);
        x->ponder_done = false;
    }
    engine_free(copy);
}

/* Our search has chosen: play it, tell XBoard, claim a result, ponder. */
static void play_result(Xb *x, const EngineResult *r) {
    char err[ENGINE_ERR_LEN], text[ENGINE_MOVE_TEXT + 4];
    if (r->nlines) {
        const SearchInfo *last = &r->line[0];
        x->score = last->mate ? (last->mate > 0 ? 30000 : -30000) : last->score;
        x->have_score = true;
    }
    if (!r->best[0]) {
        xb_claim(x);
        flush_pongs(x);
        return;
    }
    if (r->fallback)
        proto_out("# no move from the searcher: playing the first legal move");
    xb_move_text(x, r->best, text, sizeof text);
    if (!engine_play(x->g, r->best, err, sizeof err)) {
        proto_out("# internal error: %s", err);
        flush_pongs(x);
        return;
    }
    proto_out("move %s", text);
    if (x->think_ms) {
        x->spent_ms = (int)(proto_now_ms() - x->think_ms);
        x->floor_armed = true;
        x->think_ms = 0;
    }
    xb_claim(x);
    flush_pongs(x);
    snprintf(x->hint, sizeof x->hint, "%s", r->ponder);
    start_ponder(x, r->ponder);
}

static void on_done(Xb *x) {
    ProtoResult r;
    if (!proto_search_finish(x->search, &r))
        return;
    if (r.tag == TAG_THINK)
        play_result(x, &r.r);
    else if (r.tag == TAG_PONDER && x->ponder_hit) {
        x->ponder_hit = false;
        play_result(x, &r.r);
    } else if (r.tag == TAG_PONDER) {
        x->ponder_done = true; /* kept until the reply is known */
        x->ponder_result = r;
    }
    /* an analysis that ends by itself (mate found, depth cap) just stops */
}

/* A move was made on the board; decide what to do next. */
static void after_move(Xb *x) {
    if (x->analyzing) {
        start_analyze(x);
        return;
    }
    if (xb_over(x)) {
        xb_claim(x);
        return;
    }
    if (!x->force && x->engine_side == (int)engine_side_to_move(x->g))
        start_think(x);
}

static void usermove(Xb *x, const char *text) {
    char err[ENGINE_ERR_LEN];
    bool pondering = x->ponder_move[0] != 0;
    if (proto_search_tag(x->search) == TAG_THINK) /* a move for us: drop our search */
        stop_all(x);
    if (xb_over(x)) {
        proto_out("Illegal move (the game is over): %s", text);
        return;
    }
    if (!xb_play(x, text, err, sizeof err)) { /* a ponder search goes on */
        char shown[ENGINE_ERR_LEN + 32];      /* squares in XBoard's ranks */
        if (!x->shift || !proto_shift_ranks(err, -x->shift, shown, sizeof shown))
            snprintf(shown, sizeof shown, "%s", err);
        proto_out("Illegal move (%s): %s", shown, text);
        return;
    }
    MoveDesc last;
    engine_last_move(x->g, &last);
    if (pondering && !strcmp(last.text, x->ponder_move) && !x->analyzing && !x->force &&
        x->engine_side == (int)engine_side_to_move(x->g) && !xb_over(x)) {
        x->ponder_move[0] = 0;
        if (x->ponder_done) { /* it already finished: its move stands */
            x->ponder_done = false;
            play_result(x, &x->ponder_result.r);
            return;
        }
        /* ponder hit: the search goes on as ours, within a budget */
        SearchLimits lim;
        limits(x, &lim, false);
        x->ponder_hit = true;
        engine_search_ponderhit(proto_search_engine(x->search), &lim);
        return;
    }
    if (pondering)
        stop_all(x);
    after_move(x);
}

/* --- highlight ------------------------------------------------------------ */

/* Our square index of XBoard's square text, -1 when it is none. */
static int xb_square(const Xb *x, const char *t) {
    if (!t || !islower((unsigned char)t[0]) || !isdigit((unsigned char)t[1]))
        return -1;
    long r;
    int f = t[0] - 'a';
    if (!proto_parse_long(t + 1, 0, 99, &r))
        return -1;
    r += x->shift - 1;
    if (f >= x->info.files || r < 0 || r >= x->info.ranks)
        return -1;
    return (int)r * x->info.files + f;
}

/* Sends "highlight" with COLOR[sq] (0 = unmarked) as a colour FEN. */
static void send_highlight(const Xb *x, const char *color) {
    char buf[512];
    size_t n = 0;
    for (int r = x->info.ranks - 1; r >= 0; r--) {
        int empty = 0;
        for (int f = 0; f < x->info.files; f++) {
            char c = color[r * x->info.files + f];
            if (!c) {
                empty++;
                continue;
            }
            if (empty)
                n += (size_t)snprintf(buf + n, sizeof buf - n, "%d", empty);
            empty = 0;
            buf[n++] = c;
        }
        if (empty)
            n += (size_t)snprintf(buf + n, sizeof buf - n, "%d", empty);
        if (r)
            buf[n++] = '/';
    }
    buf[n] = 0;
    proto_out("highlight %s", buf);
}

/* Marks the targets of the piece on FROM; VICTIM (-1 none) green. */
static void mark_targets(Xb *x, int from, int victim_of, char *color) {
    BoardView b;
    memset(color, 0, 256);
    if (from < 0 || !engine_board(x->g, &b))
        return;
    MoveDesc *m = malloc(ENGINE_MAX_MOVES * sizeof *m);
    if (!m)
        abort();
    int n = engine_moves(x->g, m, ENGINE_MAX_MOVES);
    for (int i = 0; i < n; i++) {
        if (m[i].from != from || m[i].to < 0 ||
            (m[i].kind == 'c' && proto_castle_listed(x->info.xboard_castles, m[i].text)))
            continue; /* XBoard draws it wrong when a person enters it (docs/xboard.md) */
        int to = m[i].to;
        if (m[i].kind == 'c') { /* written king-to-rook when one square */
            char ours[ENGINE_MOVE_TEXT];
            snprintf(ours, sizeof ours, "%s", m[i].text);
            int fl = ours[2] - 'a', rk = atoi(ours + 3) - 1;
            if (fl >= 0 && fl < b.files && rk >= 0 && rk < b.ranks)
                to = rk * b.files + fl;
        }
        char c = b.sq[to] != '.' && m[i].kind != 'c' ? 'r' : 'y';
        if (m[i].kind == 'e')
            c = 'r';
        if (m[i].promo)
            c = 'm';
        if (!color[to] || c == 'm')
            color[to] = c;
        if (victim_of == to && m[i].kind == 'e') { /* victim: behind the target */
            int dir = b.side == SIDE_FIRST ? -b.files : b.files;
            if (to + dir >= 0 && to + dir < b.files * b.ranks)
                color[to + dir] = 'g';
        }
    }
    free(m);
}

static void cmd_lift(Xb *x, const char *sq) {
    x->lift = xb_square(x, sq);
    char color[256];
    mark_targets(x, x->lift, -1, color);
    send_highlight(x, color);
}

static void cmd_hover(Xb *x, const char *sq) {
    int to = xb_square(x, sq);
    if (x->lift < 0 || to < 0)
        return;
    char color[256];
    mark_targets(x, x->lift, to, color);
    send_highlight(x, color);
}

static void cmd_put(Xb *x, const char *sq) {
    int to = xb_square(x, sq);
    int from = x->lift;
    if (from < 0 || to < 0)
        return;
    /* a promotion: offer exactly our choices, the first as default */
    MoveDesc *m = malloc(ENGINE_MAX_MOVES * sizeof *m);
    if (!m)
        abort();
    int n = engine_moves(x->g, m, ENGINE_MAX_MOVES);
    char choice[32] = "";
    size_t k = 0;
    for (int i = 0; i < n && k + 1 < sizeof choice; i++)
        if (m[i].from == from && m[i].to == to && m[i].promo &&
            !strchr(choice, toupper((unsigned char)m[i].promo)))
            choice[k++] = (char)toupper((unsigned char)m[i].promo), choice[k] = 0;
    free(m);
    if (k)
        proto_out("choice %s", choice);
}

/* --- commands -------------------------------------------------------------- */

typedef struct {
    char *tok[64];
    int n;
    const char *line; /* the whole line */
    const char *rest; /* text after the command word */
} Args;

/* --- Hannibal set-up by option ---------------------------------------------- */

static const char HSETUP_OPTION[] = "Hannibal set-up";

/* Our FEN as XBoard reads it: pieces in hand without their gate files,
 * and the gate files in the castling field (XBoard's seirawan marks the
 * back-rank pieces that may still gate that way: "KQBHkqcg"). */
static void hs_fen_out(const char *ours, char *out, size_t len) {
    char board[256], side[8], castle[32], rest[128] = "", gates[2][12] = {"", ""};
    if (sscanf(ours, "%255s %7s %31s %127[^\n]", board, side, castle, rest) < 3) {
        snprintf(out, len, "%s", ours);
        return;
    }
    char *open = strchr(board, '['), *w = open;
    for (char *p = open; p && *p; p++) {
        if (p > open && strchr("abcdeghij", *p)) { /* a file; f is Black's Falcon */
            char *g = gates[islower((unsigned char)p[-1]) ? 1 : 0];
            size_t k = strlen(g);
            if (k + 1 < sizeof gates[0]) {
                g[k] = islower((unsigned char)p[-1]) ? *p : (char)toupper((unsigned char)*p);
                g[k + 1] = 0;
            }
        } else {
            *w++ = *p;
        }
    }
    if (w)
        *w = 0;
    char upper[16] = "", lower[16] = "";
    size_t nu = 0, nl = 0;
    for (const char *c = castle; *c && *c != '-' && nu < 15 && nl < 15; c++)
        if (isupper((unsigned char)*c))
            upper[nu++] = *c, upper[nu] = 0;
        else
            lower[nl++] = *c, lower[nl] = 0;
    snprintf(castle, sizeof castle, "%s%s%s%s", upper, gates[0], lower, gates[1]);
    snprintf(out, len, "%s %s %s%s%s", board, side, castle[0] ? castle : "-", rest[0] ? " " : "",
             rest);
}

/* XBoard's FEN with pieces in hand: each gets its file from the set-up;
 * the castling field keeps only K, Q, k and q. */
static bool hs_fen_in(const Xb *x, const char *fen, char *out, size_t len) {
    char board[256], side[8], castle[32], rest[128] = "", hand[32];
    if (!x->hsetup[0][0] || sscanf(fen, "%255s %7s %31s %127[^\n]", board, side, castle, rest) < 3)
        return false;
    char *open = strchr(board, '['), *close = open ? strchr(open, ']') : NULL;
    if (!close)
        return false;
    size_t n = 0;
    for (const char *p = open + 1; p < close; p++) {
        if (!strchr("MFmf", *p))
            return false; /* files already, or not Hannibal's pieces */
        const char *at = strchr(x->hsetup[islower((unsigned char)*p) ? 1 : 0], *p);
        if (!at || n + 3 >= sizeof hand)
            return false;
        hand[n++] = *p;
        hand[n++] = at[1];
    }
    hand[n] = 0;
    *open = 0;
    char *w = castle;
    for (const char *c = castle; *c; c++)
        if (strchr("KQkq", *c))
            *w++ = *c;
    *w = 0;
    snprintf(out, len, "%s[%s] %s %s%s%s", board, hand, side, castle[0] ? castle : "-",
             rest[0] ? " " : "", rest);
    return true;
}

/* Reads the option's value into X; false + reason when it is no set-up. */
static bool hs_set(Xb *x, const char *value, char *err, size_t errlen) {
    char tok[2][8] = {"", ""};
    if (!strcmp(value, "move") || !strcmp(value, "random")) {
        memset(x->hsetup, 0, sizeof x->hsetup);
        x->hrandom = value[0] == 'r';
        if (x->hrandom)
            srand((unsigned)proto_now_ms());
        return true;
    }
    size_t n = strlen(value), w = strcspn(value, " ");
    if (n == 8 && w == 8)
        w = 4;
    if (w < 2 || w > 6 || n - w - (value[w] == ' ') > 6) {
        snprintf(err, errlen, "not a set-up: %s (move, random or e.g. MbFh mcfg)", value);
        return false;
    }
    snprintf(tok[0], sizeof tok[0], "%.*s", (int)w, value);
    snprintf(tok[1], sizeof tok[1], "%s", value + w + (value[w] == ' '));
    Game *g = proto_new_game("hannibal", NULL, err, errlen);
    bool ok = g && engine_play(g, tok[0], err, errlen) && engine_play(g, tok[1], err, errlen);
    engine_free(g);
    if (!ok)
        return false;
    memcpy(x->hsetup, tok, sizeof tok);
    x->hrandom = false;
    return true;
}

/* A new Hannibal game starts after the set-up when the option says so. */
static bool hs_start_fen(Xb *x, const char *name, char *fen, size_t len) {
    if (strcmp(name, "hannibal") || (!x->hsetup[0][0] && !x->hrandom))
        return false;
    char err[ENGINE_ERR_LEN];
    Game *g = proto_new_game(name, NULL, err, sizeof err);
    if (!g)
        return false;
    for (int side = 0; side < 2 && x->hrandom; side++) { /* every move is a set-up */
        MoveDesc *m = malloc(ENGINE_MAX_MOVES * sizeof *m);
        if (!m)
            abort();
        int k = engine_moves(g, m, ENGINE_MAX_MOVES);
        snprintf(x->hsetup[side], sizeof x->hsetup[side], "%s", k ? m[rand() % k].text : "");
        free(m);
        engine_play(g, x->hsetup[side], err, sizeof err);
    }
    bool ok = x->hrandom || (engine_play(g, x->hsetup[0], err, sizeof err) &&
                             engine_play(g, x->hsetup[1], err, sizeof err));
    if (ok)
        engine_position_text(g, fen, len);
    engine_free(g);
    return ok;
}

static void send_setup(Xb *x) {
    const GameInfo *gi = &x->info;
    if (!gi->xboard_parent[0]) /* XBoard knows the game */
        return;
    char ours[512], fen[512];
    engine_position_text(x->g, ours, sizeof ours);
    hs_fen_out(ours, fen, sizeof fen);
    proto_out("setup (%s) %dx%d+%d_%s %s", gi->piece_to_char, gi->files, gi->ranks, gi->holdings,
              gi->xboard_parent, fen);
    for (int i = 0; i < gi->npieces; i++)
        if (gi->piece[i].xboard[0])
            proto_out("piece %c& %s", gi->piece[i].letter, gi->piece[i].xboard);
}

static void cmd_protover(Xb *x, Args *a) {
    (void)x, (void)a;
    char list[1024] = "";
    const char *const *games = proto_chess_games();
    for (int i = 0; games[i]; i++) {
        GameInfo gi;
        if (engine_game_info(games[i], &gi) &&
            strlen(list) + strlen(gi.xboard_name) + 2 < sizeof list) {
            if (list[0])
                strcat(list, ",");
            strcat(list, gi.xboard_name);
        }
    }
    proto_out("feature done=0");
    proto_out("feature myname=\"Menagerie\" variants=\"%s\"", list);
    proto_out("feature setboard=1 ping=1 playother=1 usermove=1 time=1 draw=1 sigint=0 "
              "sigterm=0 reuse=1 analyze=1 colors=0 san=0 name=0 nps=1 memory=1 smp=1 "
              "highlight=1 debug=1 pause=0 ics=0 exclude=0 setscore=0");
    proto_out("feature option=\"Level -spin 0 0 20\"");
    proto_out("feature option=\"SearchParams -string \"");
    proto_out("feature option=\"EvalFile -file <default>\"");
    proto_out("feature option=\"%s -string move\"", HSETUP_OPTION);
    proto_out("feature done=1");
}

/* Our game that XBoard calls XBNAME, NULL when none. */
static const char *find_variant(const char *xbname) {
    const char *const *games = proto_chess_games();
    for (int i = 0; games[i]; i++) {
        GameInfo gi;
        if (engine_game_info(games[i], &gi) && !strcmp(gi.xboard_name, xbname))
            return games[i];
    }
    return NULL;
}

static void reset_tc(Xb *x) {
    x->sd = 0;
    x->nps = 0;
    x->floor_armed = false;
    x->think_ms = 0;
}

static void cmd_new(Xb *x, Args *a) {
    char err[ENGINE_ERR_LEN];
    stop_all(x);
    engine_search_clear(proto_search_engine(x->search));
    if (!set_game(x, find_variant("normal"), NULL, err, sizeof err)) {
        xb_error(err, a->line);
        return;
    }
    x->force = false;
    x->engine_side = SIDE_SECOND;
    reset_tc(x);
    if (x->analyzing)
        start_analyze(x);
}

static void cmd_variant(Xb *x, Args *a) {
    char err[ENGINE_ERR_LEN];
    const char *v = a->n == 2 ? find_variant(a->tok[1]) : NULL;
    if (!v) {
        xb_error(a->n == 2 ? "unsupported variant" : "wrong number of parameters", a->line);
        return;
    }
    stop_all(x);
    char fen[512];
    GameInfo gi;
    /* XBoard keeps its own start for a game it knows (Courier) */
    if (!hs_start_fen(x, v, fen, sizeof fen))
        snprintf(fen, sizeof fen, "%s",
                 engine_game_info(v, &gi) && gi.xboard_start[0] ? gi.xboard_start : "");
    if (!set_game(x, v, fen[0] ? fen : NULL, err, sizeof err)) {
        xb_error(err, a->line);
        return;
    }
    send_setup(x);
    if (x->analyzing)
        start_analyze(x);
}

static void cmd_setboard(Xb *x, Args *a) {
    char fen[512], err[ENGINE_ERR_LEN];
    if (a->n < 2 || strlen(a->rest) >= sizeof fen) {
        xb_error("bad position", a->line);
        return;
    }
    /* the en-passant field (4th) names a square in XBoard's ranks */
    char copy[512], *f[8];
    snprintf(copy, sizeof copy, "%s", a->rest);
    int nf = proto_split(copy, f, 8);
    fen[0] = 0;
    for (int i = 0; i < nf; i++) {
        char field[128];
        if (i == 3 && strcmp(f[i], "-")) {
            if (!xb_to_ours(x, f[i], field, sizeof field)) {
                xb_error("bad position", a->line);
                return;
            }
        } else
            snprintf(field, sizeof field, "%s", f[i]);
        if (i)
            strcat(fen, " ");
        strncat(fen, field, sizeof fen - strlen(fen) - 1);
    }
    char withfiles[512];
    if (x->info.gating && hs_fen_in(x, fen, withfiles, sizeof withfiles))
        snprintf(fen, sizeof fen, "%s", withfiles);
    stop_all(x);
    if (!set_game(x, x->info.name, fen, err, sizeof err)) {
        proto_out("tellusererror Illegal position: %s", err);
        xb_error("illegal position", a->line);
        return;
    }
    if (x->analyzing)
        start_analyze(x);
}

static void cmd_usermove(Xb *x, Args *a) {
    if (a->n != 2) {
        xb_error("wrong number of parameters", a->line);
        return;
    }
    usermove(x, a->tok[1]);
}

static void cmd_force(Xb *x, Args *a) {
    (void)a;
    stop_all(x);
    x->force = true;
    x->engine_side = -1;
}

static void cmd_go(Xb *x, Args *a) {
    (void)a;
    stop_all(x);
    x->force = false;
    x->engine_side = engine_side_to_move(x->g);
    start_think(x);
}

static void cmd_playother(Xb *x, Args *a) {
    (void)a;
    stop_all(x);
    x->force = false;
    x->engine_side = !engine_side_to_move(x->g);
    if (x->ponder_on && x->hint[0])
        start_ponder(x, x->hint);
}

static void take_back(Xb *x, Args *a, int plies) {
    stop_all(x);
    for (int i = 0; i < plies; i++)
        if (!engine_undo(x->g)) {
            xb_error("command not legal now", a->line);
            break;
        }
    x->hint[0] = 0;
    if (x->analyzing)
        start_analyze(x);
}

static void cmd_undo(Xb *x, Args *a) {
    take_back(x, a, 1);
}
static void cmd_remove(Xb *x, Args *a) {
    take_back(x, a, 2);
}

/* Seconds as milliseconds, at most a week's (a longer clock is as good as
 * none, and would not fit). */
static int clock_ms(double seconds) {
    double week = 7 * 24 * 3600.0;
    return (int)((seconds < week ? seconds : week) * 1000);
}

/* "level MPS BASE INC": BASE in minutes or minutes:seconds. */
static void cmd_level(Xb *x, Args *a) {
    long mps;
    double base_min = 0, base_sec = 0, inc;
    if (a->n != 4 || !proto_parse_long(a->tok[1], 0, 100000, &mps) ||
        !proto_parse_double(a->tok[3], &inc)) {
        xb_error("bad parameters", a->line);
        return;
    }
    char b[64];
    snprintf(b, sizeof b, "%s", a->tok[2]);
    char *colon = strchr(b, ':');
    if (colon)
        *colon = 0;
    if (!proto_parse_double(b, &base_min) || (colon && !proto_parse_double(colon + 1, &base_sec))) {
        xb_error("bad parameters", a->line);
        return;
    }
    x->mps = (int)mps;
    x->base_ms = clock_ms(base_min * 60 + base_sec);
    x->inc_ms = clock_ms(inc);
    x->st_ms = 0;
    x->time_ms = x->otim_ms = x->base_ms;
}

static bool one_number(Args *a, long min, long max, long *v) {
    if (a->n != 2 || !proto_parse_long(a->tok[1], min, max, v)) {
        xb_error("bad parameters", a->line);
        return false;
    }
    return true;
}

static void cmd_st(Xb *x, Args *a) {
    double s;
    if (a->n != 2 || !proto_parse_double(a->tok[1], &s) || s <= 0) {
        xb_error("bad parameters", a->line);
        return;
    }
    x->st_ms = clock_ms(s);
}

static void cmd_sd(Xb *x, Args *a) {
    long v;
    if (one_number(a, 0, 1000, &v))
        x->sd = (int)v;
}

static void cmd_nps(Xb *x, Args *a) {
    long v;
    if (one_number(a, 0, 2000000000, &v))
        x->nps = v;
}

/* What the GUI charged our last move against the time we took: when it
 * charged clearly more (it kept us waiting, drawing the move, say, while we
 * searched), that is its floor; when it charged less than the floor we
 * thought, the floor is lower. Smoothed; more than a second is a new clock,
 * not a floor. */
static void measure_floor(Xb *x) {
    x->floor_armed = false;
    int charged = x->think_clock + x->inc_ms - x->time_ms;
    if (charged < 0 || charged > 1000)
        return;
    if (charged > x->spent_ms + 15 || charged < x->floor_ms)
        x->floor_ms = x->floor_ms ? (3 * x->floor_ms + charged) / 4 : charged;
}

static void cmd_time(Xb *x, Args *a) {
    long v;
    if (one_number(a, -100000000, 100000000, &v)) {
        x->time_ms = (int)(v * 10);
        if (x->floor_armed)
            measure_floor(x);
    }
}

static void cmd_otim(Xb *x, Args *a) {
    long v;
    if (one_number(a, -100000000, 100000000, &v))
        x->otim_ms = (int)(v * 10);
}

static void cmd_ping(Xb *x, Args *a) {
    long v;
    if (!one_number(a, -2147483647, 2147483647, &v))
        return;
    if (proto_search_tag(x->search) == TAG_THINK && x->npongs < 64)
        x->pongs[x->npongs++] = (int)v; /* after our move */
    else
        proto_out("pong %ld", v);
}

static void cmd_post(Xb *x, Args *a) {
    (void)a, atomic_store(&x->post, true);
}
static void cmd_nopost(Xb *x, Args *a) {
    (void)a, atomic_store(&x->post, false);
}
static void cmd_hard(Xb *x, Args *a) {
    (void)a, x->ponder_on = true;
}

static void cmd_easy(Xb *x, Args *a) {
    (void)a;
    x->ponder_on = false;
    if (x->ponder_move[0])
        stop_all(x);
}

static void cmd_analyze(Xb *x, Args *a) {
    (void)a;
    x->analyzing = true;
    x->force = true;
    x->engine_side = -1;
    start_analyze(x);
}

static void cmd_exit(Xb *x, Args *a) {
    if (!x->analyzing) {
        xb_error("command not legal now", a->line);
        return;
    }
    x->analyzing = false;
    stop_all(x);
}

/* "." in analyze mode: stat01 TIME NODES PLY MVLEFT MVTOT MVNAME */
static void cmd_dot(Xb *x, Args *a) {
    (void)a;
    SearchInfo in;
    if (!x->analyzing || proto_search_tag(x->search) != TAG_ANALYZE)
        return;
    EngineSearch *es = proto_search_engine(x->search);
    if (!engine_search_lines(es, &in, 1))
        memset(&in, 0, sizeof in);
    int ms = (int)engine_search_elapsed(es);
    MoveDesc *m = malloc(ENGINE_MAX_MOVES * sizeof *m);
    if (!m)
        abort();
    int total = engine_moves(x->g, m, ENGINE_MAX_MOVES);
    free(m);
    char first[ENGINE_MOVE_TEXT + 8] = "";
    sscanf(in.pv, "%31s", first);
    char shown[ENGINE_MOVE_TEXT + 8];
    if (!proto_shift_ranks(first, -x->shift, shown, sizeof shown))
        snprintf(shown, sizeof shown, "%s", first);
    proto_out("stat01: %d %llu %d %d %d %s", ms / 10, (unsigned long long)in.nodes, in.depth, total,
              total, shown);
}

static void cmd_memory(Xb *x, Args *a) {
    long v;
    if (one_number(a, 1, LONG_MAX, &v)) {
        int cap = proto_hash_cap_mb();
        x->hash_mb = v > cap ? cap : (int)v;
        if (v > cap)
            proto_out("# memory capped to %d MB, what this machine can give (half its "
                      "memory)",
                      cap);
    }
}

static void cmd_cores(Xb *x, Args *a) {
    long v;
    if (one_number(a, 1, 1024, &v))
        x->threads = (int)v;
}

static void cmd_result(Xb *x, Args *a) {
    (void)a;
    stop_all(x);
    x->force = true;
    x->engine_side = -1;
}

/* Accept a draw when we stand worse, or in a long dead-level game. */
static void cmd_draw(Xb *x, Args *a) {
    (void)a;
    if (!x->have_score)
        return;
    int plies = engine_ply_count(x->g);
    if (x->score <= -150 || (plies >= 100 && x->score <= 10 && x->score >= -10))
        proto_out("offer draw");
}

static void cmd_hint(Xb *x, Args *a) {
    (void)a;
    char text[ENGINE_MOVE_TEXT + 4];
    if (!x->hint[0])
        return;
    MoveDesc d;
    char err[ENGINE_ERR_LEN];
    if (engine_describe(x->g, x->hint, &d, err, sizeof err)) {
        xb_move_text(x, d.text, text, sizeof text);
        proto_out("Hint: %s", text);
    }
}

static void cmd_bk(Xb *x, Args *a) {
    (void)x, (void)a;
    proto_out(" Menagerie has no opening book.");
    proto_out("%s", "");
}

static void cmd_move_now(Xb *x, Args *a) {
    (void)a;
    if (proto_search_tag(x->search) == TAG_THINK)
        engine_search_stop(proto_search_engine(x->search));
}

static void cmd_option(Xb *x, Args *a) {
    const char *eq = strchr(a->rest, '=');
    size_t n = eq ? (size_t)(eq - a->rest) : 0;
    long v;
    char err[ENGINE_ERR_LEN];
    if (n == 5 && !strncmp(a->rest, "Level", 5) && proto_parse_long(eq + 1, 0, 20, &v)) {
        x->level = (int)v;
    } else if (n == 12 && !strncmp(a->rest, "SearchParams", 12)) {
        /* the whole set: the defaults but for the numbers given */
        if (!engine_search_set_option(proto_search_engine(x->search), "SearchParams", eq + 1, err,
                                      sizeof err))
            proto_out("Error (%s): %s", err, a->line);
    } else if (n == 8 && !strncmp(a->rest, "EvalFile", 8)) {
        /* a network file; <default>: the variant's own, <hand>: the hand-made evaluation */
        if (!engine_search_set_option(proto_search_engine(x->search), "EvalFile", eq + 1, err,
                                      sizeof err))
            proto_out("Error (%s): %s", err, a->line);
    } else if (n == strlen(HSETUP_OPTION) && !strncmp(a->rest, HSETUP_OPTION, n)) {
        if (!hs_set(x, eq + 1, err, sizeof err))
            proto_out("Error (%s): %s", err, a->line);
    } else {
        xb_error("unknown option", a->line);
    }
}

static void cmd_lift_c(Xb *x, Args *a) {
    if (a->n != 2 || (xb_square(x, a->tok[1]) < 0 && !strchr(a->tok[1], '@'))) {
        xb_error("bad square", a->line);
        return;
    }
    cmd_lift(x, a->tok[1]);
}

static void cmd_put_c(Xb *x, Args *a) {
    if (a->n != 2 || xb_square(x, a->tok[1]) < 0) {
        xb_error("bad square", a->line);
        return;
    }
    cmd_put(x, a->tok[1]);
}

static void cmd_hover_c(Xb *x, Args *a) {
    if (a->n != 2 || xb_square(x, a->tok[1]) < 0) {
        xb_error("bad square", a->line);
        return;
    }
    cmd_hover(x, a->tok[1]);
}

static void cmd_quit(Xb *x, Args *a) {
    (void)a;
    stop_all(x);
    x->quit = true;
}

static void cmd_nothing(Xb *x, Args *a) {
    (void)x, (void)a;
}

typedef struct {
    const char *name;
    void (*run)(Xb *x, Args *a);
} XbCommand;

static const XbCommand commands[] = {
    {"xboard", cmd_nothing},
    {"protover", cmd_protover},
    {"accepted", cmd_nothing},
    {"rejected", cmd_nothing},
    {"new", cmd_new},
    {"variant", cmd_variant},
    {"setboard", cmd_setboard},
    {"usermove", cmd_usermove},
    {"force", cmd_force},
    {"go", cmd_go},
    {"playother", cmd_playother},
    {"undo", cmd_undo},
    {"remove", cmd_remove},
    {"level", cmd_level},
    {"st", cmd_st},
    {"sd", cmd_sd},
    {"nps", cmd_nps},
    {"time", cmd_time},
    {"otim", cmd_otim},
    {"ping", cmd_ping},
    {"post", cmd_post},
    {"nopost", cmd_nopost},
    {"hard", cmd_hard},
    {"easy", cmd_easy},
    {"analyze", cmd_analyze},
    {"exit", cmd_exit},
    {".", cmd_dot},
    {"memory", cmd_memory},
    {"cores", cmd_cores},
    {"result", cmd_result},
    {"draw", cmd_draw},
    {"hint", cmd_hint},
    {"bk", cmd_bk},
    {"?", cmd_move_now},
    {"option", cmd_option},
    {"lift", cmd_lift_c},
    {"put", cmd_put_c},
    {"hover", cmd_hover_c},
    {"random", cmd_nothing},
    {"computer", cmd_nothing},
    {"name", cmd_nothing},
    {"rating", cmd_nothing},
    {"ics", cmd_nothing},
    {"quit", cmd_quit},
};

/* Could TEXT be a move sent without "usermove"? */
static bool looks_like_move(const char *t) {
    if (!strcmp(t, "@@@@") || !strncmp(t, "O-O", 3))
        return true;
    for (const char *p = t; *p; p++)
        if (isdigit((unsigned char)*p))
            return isalpha((unsigned char)t[0]);
    /* a set-up token: upper-case piece, lower-case file, repeated */
    size_t n = strlen(t);
    if (n < 2 || n % 2)
        return false;
    for (size_t i = 0; i < n; i += 2)
        if (!isupper((unsigned char)t[i]) || !islower((unsigned char)t[i + 1]))
            return false;
    return true;
}

static void dispatch(Xb *x, char *line) {
    Args a;
    char copy[4096];
    snprintf(copy, sizeof copy, "%s", line);
    a.line = line;
    a.n = proto_split(copy, a.tok, 64);
    if (a.n == 0)
        return;
    const char *rest = line + strspn(line, " \t");
    rest += strcspn(rest, " \t");
    rest += strspn(rest, " \t");
    a.rest = rest;
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(a.tok[0], commands[i].name)) {
            commands[i].run(x, &a);
            return;
        }
    if (a.n == 1 && looks_like_move(a.tok[0])) {
        usermove(x, a.tok[0]);
        return;
    }
    xb_error("unknown command", line);
}

int xboard_main(int argc, char **argv) {
    Xb x;
    memset(&x, 0, sizeof x);
    atomic_init(&x.post, false);
    x.search = proto_search_new();
    x.engine_side = SIDE_SECOND;
    x.base_ms = x.time_ms = x.otim_ms = 300000; /* until told: 5 minutes */
    x.lift = -1;
    char err[ENGINE_ERR_LEN];
    if (!set_game(&x, find_variant("normal") ? find_variant("normal") : "chess", NULL, err,
                  sizeof err)) {
        fprintf(stderr, "menagerie xboard: %s\n", err);
        proto_search_free(x.search);
        return 1;
    }
    ProtoLines in;
    proto_lines_init(&in, STDIN_FILENO);
    proto_out("%s", "");
    /* arguments are command lines to run before stdin's */
    for (int i = 1; i < argc && !x.quit; i++) {
        char line[4096];
        snprintf(line, sizeof line, "%s", argv[i]);
        dispatch(&x, line);
    }
    while (!x.quit) {
        ProtoEvent ev = proto_search_wait(x.search, &in);
        if (ev == PROTO_EV_DONE) {
            on_done(&x);
        } else if (ev == PROTO_EV_LINE) {
            char *line = proto_lines_take(&in);
            if (line)
                dispatch(&x, line);
        } else { /* end of input: a move being thought about is still sent */
            if (proto_search_tag(x.search) == TAG_THINK) {
                proto_search_wait_done(x.search);
                on_done(&x);
            }
            break;
        }
    }
    proto_search_free(x.search);
    proto_lines_free(&in);
    engine_free(x.g);
    return 0;
}
