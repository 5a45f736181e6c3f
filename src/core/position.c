/* position.c - FEN, make/unmake and keys (see position.h). */
#include "core/position.h"

#include <assert.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/movegen.h"

static void put_piece(Position *pos, int sq, Piece p) {
    int c = piece_color(p);
    assert(sq >= 0 && sq < pos->v->nsq && pos->board[sq] == EMPTY && p != EMPTY);
    assert(pos->pcount[c] < MAX_SQ);
    pos->board[sq] = p;
    pos->pidx[sq] = (uint8_t)pos->pcount[c];
    pos->plist[c][pos->pcount[c]++] = (uint8_t)sq;
    pos->count[p]++;
    pos->key ^= pos->v->z_piece[p][sq];
    if (piece_type(p) == pos->v->royal)
        pos->king[c] = (Square)sq;
}

static void remove_piece(Position *pos, int sq) {
    assert(sq >= 0 && sq < pos->v->nsq && pos->board[sq] != EMPTY);
    Piece p = pos->board[sq];
    int c = piece_color(p);
    int last = pos->plist[c][--pos->pcount[c]];
    pos->plist[c][pos->pidx[sq]] = (uint8_t)last;
    pos->pidx[last] = pos->pidx[sq];
    pos->board[sq] = EMPTY;
    pos->count[p]--;
    pos->key ^= pos->v->z_piece[p][sq];
}

static void move_piece(Position *pos, int from, int to) {
    Piece p = pos->board[from];
    int c = piece_color(p);
    pos->plist[c][pos->pidx[from]] = (uint8_t)to;
    pos->pidx[to] = pos->pidx[from];
    pos->board[to] = p;
    pos->board[from] = EMPTY;
    pos->key ^= pos->v->z_piece[p][from] ^ pos->v->z_piece[p][to];
    if (piece_type(p) == pos->v->royal)
        pos->king[c] = (Square)to;
}

static void set_hand(Position *pos, int c, int t, int n) {
    assert(n >= 0 && n < 8); /* z_hand's counts */
    Piece p = make_piece(c, t);
    pos->key ^= pos->v->z_hand[p][pos->hand[c][t]] ^ pos->v->z_hand[p][n];
    pos->nhand[c] += n - pos->hand[c][t];
    pos->hand[c][t] = (uint8_t)n;
}

static void set_gate(Position *pos, int c, int file, Piece p) {
    Piece old = pos->gate[c][file];
    if (old)
        pos->key ^= pos->v->z_gate[old][file];
    if (p)
        pos->key ^= pos->v->z_gate[p][file];
    pos->gate[c][file] = p;
}

static void toggle_castling(Position *pos, uint8_t bits) {
    for (int i = 0; i < 8; i++)
        if (bits >> i & 1)
            pos->key ^= pos->v->z_castle[i];
    pos->castling ^= bits;
}

uint64_t pos_compute_key(const Position *pos) {
    const Variant *v = pos->v;
    uint64_t k = 0;
    for (int s = 0; s < v->nsq; s++)
        if (pos->board[s] && pos->board[s] != HOLE)
            k ^= v->z_piece[pos->board[s]][s];
    for (int c = 0; c < 2; c++)
        for (int f = 0; f < v->files; f++) {
            if (pos->gate[c][f])
                k ^= v->z_gate[pos->gate[c][f]][f];
        }
    for (int c = 0; c < 2; c++)
        for (int t = 1; t <= v->ntypes; t++)
            k ^= v->z_hand[make_piece(c, t)][pos->hand[c][t]];
    for (int i = 0; i < 8; i++)
        if (pos->castling >> i & 1)
            k ^= v->z_castle[i];
    if (pos->ep != SQ_NONE)
        k ^= v->z_ep[pos->ep];
    if (pos->stm == BLACK)
        k ^= v->z_side;
    return k;
}

int pos_hand_order(const Position *pos, int c, uint8_t *types) {
    int n = 0;
    for (int t = 1; t <= pos->v->ntypes; t++)
        for (int k = 0; k < pos->hand[c][t] && n < MAX_HAND; k++)
            types[n++] = (uint8_t)t;
    return n;
}

/* Bracket after the board: pieces in hand ("M") or waiting at a gate ("Mb"). */
static int parse_bracket(Position *p, const char *s, int n, char *err, size_t errlen) {
    const Variant *v = p->v;
    for (int i = 0; i < n; i++) {
        int t = variant_type_by_letter(v, s[i]);
        if (!t || !isalpha((unsigned char)s[i])) {
            snprintf(err, errlen, "unknown piece '%c' in the bracket", s[i]);
            goto fail;
        }
        int c = islower((unsigned char)s[i]) ? BLACK : WHITE;
        if (!(v->hand_types[c] >> t & 1)) {
            snprintf(err, errlen, "piece '%c' (%s) is never in hand or at a gate", s[i],
                     v->type[t].name);
            goto fail;
        }
        int file = -1;
        if (i + 1 < n && s[i + 1] >= 'a' && s[i + 1] < 'a' + v->files &&
            (v->gate_files >> (s[i + 1] - 'a') & 1)) {
            file = s[++i] - 'a';
        }
        if (file >= 0) {
            if (p->gate[c][file]) {
                snprintf(err, errlen, "two pieces waiting behind file %c", 'a' + file);
                goto fail;
            }
            p->gate[c][file] = make_piece(c, t);
        } else {
            if (p->nhand[c] >= MAX_HAND) {
                snprintf(err, errlen, "more than %d pieces in hand", MAX_HAND);
                goto fail;
            }
            p->hand[c][t]++;
            p->nhand[c]++;
        }
    }
    return 0;
fail:
    return -1;
}

int pos_move_bound(const Position *pos, int c) {
    const Variant *v = pos->v;
    int sum = 0;
    for (int i = 0; i < pos->pcount[c]; i++)
        sum += v->move_weight[piece_type(pos->board[pos->plist[c][i]])];
    for (int f = 0; f < v->files; f++)
        if (pos->gate[c][f])
            sum += v->move_weight[piece_type(pos->gate[c][f])];
    for (int t = 1; t <= v->ntypes; t++)
        sum += pos->hand[c][t] * v->move_weight[t];
    for (int i = 0; i < v->ncastles; i++)
        sum += v->castle[i].color == c;
    int setups = 1, free_files = __builtin_popcount(v->gate_files);
    for (int k = 0; k < pos->nhand[c]; k++)
        setups *= free_files - k > 0 ? free_files - k : 0;
    return pos->nhand[c] && setups > sum ? setups : sum;
}

/* A FEN move counter: digits only, lo to POS_MAX_COUNTER, else -1. */
static int read_counter(const char *text, int lo) {
    long n = 0;
    if (!*text)
        return -1;
    for (const char *c = text; *c; c++) {
        if (!isdigit((unsigned char)*c))
            return -1;
        n = n * 10 + (*c - '0');
        if (n > POS_MAX_COUNTER)
            return -1;
    }
    return n < lo ? -1 : (int)n;
}

/* Step 1 of pos_from_fen: the board, then the optional bracket (hands and
 * gates). Returns the text after them, NULL on an error. */
static const char *fen_board(Position *p, const char *fen, char *err, size_t errlen) {
    const Variant *v = p->v;
    Piece board[MAX_SQ];
    int used;
    char msg[160];
    if (variant_parse_board(v, fen, board, &used, msg, sizeof msg)) {
        snprintf(err, errlen, "bad FEN: %s", msg);
        return NULL;
    }
    const char *s = fen + used;
    if (*s == '[') {
        const char *e = strchr(s, ']');
        if (!e) {
            snprintf(err, errlen, "bad FEN: '[' without ']'");
            return NULL;
        }
        if (!v->gating && e > s + 1) {
            snprintf(err, errlen, "bad FEN: %s has no pieces in hand", v->name);
            return NULL;
        }
        if (parse_bracket(p, s + 1, (int)(e - s - 1), msg, sizeof msg)) {
            snprintf(err, errlen, "bad FEN: %s", msg);
            return NULL;
        }
        s = e + 1;
    }
    for (int sq = 0; sq < v->nsq; sq++) {
        if (board[sq] == HOLE)
            p->board[sq] = HOLE;
        else if (board[sq])
            put_piece(p, sq, board[sq]);
    }
    return s;
}

/* The castling field (not "-"): each right needs its King and partner home. */
static int fen_castling(Position *p, const char *cast, char *err, size_t errlen) {
    const Variant *v = p->v;
    for (const char *c = cast; *c; c++) {
        const char *k = strchr("KQkq", *c);
        if (!k) {
            snprintf(err, errlen, "bad FEN: castling field \"%s\"", cast);
            return -1;
        }
        uint8_t bit = (uint8_t)(1u << (k - "KQkq"));
        bool ok = false;
        for (int i = 0; i < v->ncastles; i++) {
            const CastleRule *cr = &v->castle[i];
            if (cr->right == bit && p->board[cr->kfrom] == make_piece(cr->color, v->royal) &&
                p->board[cr->rfrom] == make_piece(cr->color, cr->partner))
                ok = true;
        }
        if (!ok) {
            snprintf(err, errlen,
                     "bad FEN: castling right %c, but king or %s is not on its start square", *c,
                     v->castling == CASTLE_NONE ? "partner" : "rook");
            return -1;
        }
        p->castling |= bit;
    }
    return 0;
}

/* The en-passant field (not "-"): kept only when a capture is possible. */
static int fen_ep(Position *p, const char *eps, char *err, size_t errlen) {
    const Variant *v = p->v;
    int n, sq = variant_parse_square(v, eps, &n);
    if (sq < 0 || eps[n]) {
        snprintf(err, errlen, "bad FEN: en-passant square \"%s\"", eps);
        return -1;
    }
    int victim = sq - v->forward[p->stm];
    if (victim < 0 || victim >= v->nsq || p->board[sq] != EMPTY || !p->board[victim] ||
        p->board[victim] == HOLE || piece_color(p->board[victim]) == p->stm ||
        !v->type[piece_type(p->board[victim])].ep_capable) {
        snprintf(err, errlen, "bad FEN: no pawn to capture en passant on %s", eps);
        return -1;
    }
    /* as after a double step: kept only when a capture is possible */
    if (movegen_attacked_by(p, sq, p->stm, v->ep_capable)) {
        p->ep = (Square)sq;
        p->ep_victim = (Square)victim;
    }
    return 0;
}

/* Step 2: side to move, castling, en passant, clocks. */
static int fen_fields(Position *p, const char *s, char *err, size_t errlen) {
    char side[8] = "w", cast[32] = "-", eps[8] = "-", halftext[16] = "0", fulltext[16] = "1";
    sscanf(s, " %7s %31s %7s %15s %15s", side, cast, eps, halftext,
           fulltext); /* missing fields keep defaults */
    int half = read_counter(halftext, 0), full = read_counter(fulltext, 1);
    if (!strcmp(side, "w"))
        p->stm = WHITE;
    else if (!strcmp(side, "b"))
        p->stm = BLACK;
    else {
        snprintf(err, errlen, "bad FEN: side to move \"%s\" (want w or b)", side);
        return -1;
    }
    if (half < 0 || full < 0) {
        snprintf(err, errlen, "bad FEN: move counters \"%s %s\" (want 0 to %d and 1 to %d)",
                 halftext, fulltext, POS_MAX_COUNTER, POS_MAX_COUNTER);
        return -1;
    }
    p->halfmove = half;
    p->fullmove = full;
    if (strcmp(cast, "-") && fen_castling(p, cast, err, errlen))
        return -1;
    if (strcmp(eps, "-") && fen_ep(p, eps, err, errlen))
        return -1;
    return 0;
}

/* Step 3: what a game could never reach. */
static int fen_reachable(Position *p, char *err, size_t errlen) {
    const Variant *v = p->v;
    for (int c = 0; c < 2; c++) {
        if (v->royal && p->count[make_piece(c, v->royal)] != 1) {
            snprintf(err, errlen, "bad FEN: %s must have exactly one %s", c ? "Black" : "White",
                     v->type[v->royal].name);
            return -1;
        }
        if (p->nhand[c] && !v->gating) {
            snprintf(err, errlen, "bad FEN: pieces in hand");
            return -1;
        }
    }
    for (int sq = 0; sq < v->nsq; sq++) {
        Piece pc = p->board[sq];
        if (pc && pc != HOLE && v->type[piece_type(pc)].promotes &&
            sqset_has(&v->promo_zone[piece_color(pc)], sq)) {
            char nm[8];
            variant_square_name(v, sq, nm);
            snprintf(err, errlen, "bad FEN: an unpromoted %s on %s", v->type[piece_type(pc)].name,
                     nm);
            return -1;
        }
    }
    for (int c = 0; c < 2; c++) {
        int bound = pos_move_bound(p, c);
        if (bound > MAX_MOVES) {
            snprintf(err, errlen,
                     "bad FEN: too many pieces: %s could have up to %d moves, more than the %d "
                     "a move list holds",
                     c ? "Black" : "White", bound, MAX_MOVES);
            return -1;
        }
    }
    if (v->royal && movegen_attacked(p, p->king[!p->stm], p->stm)) {
        snprintf(err, errlen, "bad FEN: the side not to move is in check");
        return -1;
    }
    return 0;
}

int pos_from_fen(Position *pos, const Variant *v, const char *fen, char *err, size_t errlen) {
    Position *p = malloc(sizeof *p);
    if (!p)
        abort();
    memset(p, 0, offsetof(Position, hist));
    p->v = v;
    p->king[0] = p->king[1] = SQ_NONE;
    p->ep = p->ep_victim = SQ_NONE;
    if (!fen || !*fen)
        fen = v->start_fen;
    while (*fen == ' ')
        fen++;
    const char *rest = fen_board(p, fen, err, errlen);
    if (!rest || fen_fields(p, rest, err, errlen) || fen_reachable(p, err, errlen)) {
        free(p);
        return -1;
    }
    p->key = pos_compute_key(p);
    p->hply = 0;
    memcpy(pos, p, offsetof(Position, hist));
    pos->hply = 0;
    free(p);
    pos_debug_check(pos, "pos_from_fen");
    return 0;
}

void pos_to_fen(const Position *pos, char *buf, size_t len) {
    const Variant *v = pos->v;
    char out[1024];
    size_t n = 0;
    for (int y = v->ranks - 1; y >= 0; y--) {
        int run = 0;
        for (int x = 0; x < v->files; x++) {
            Piece pc = pos->board[y * v->files + x];
            if (pc == EMPTY) {
                run++;
                continue;
            }
            if (run)
                n += (size_t)sprintf(out + n, "%d", run);
            run = 0;
            if (pc == HOLE) {
                out[n++] = '*';
            } else {
                char L = v->type[piece_type(pc)].letter;
                out[n++] = piece_color(pc) == BLACK ? (char)tolower((unsigned char)L) : L;
            }
        }
        if (run)
            n += (size_t)sprintf(out + n, "%d", run);
        if (y)
            out[n++] = '/';
    }
    if (v->gating) {
        out[n++] = '[';
        for (int c = 0; c < 2; c++) {
            for (int t = 1; t <= v->ntypes; t++) {
                char L = v->type[t].letter;
                if (c)
                    L = (char)tolower((unsigned char)L);
                for (int f = 0; f < v->files; f++)
                    if (pos->gate[c][f] == make_piece(c, t)) {
                        out[n++] = L;
                        out[n++] = (char)('a' + f);
                    }
                for (int k = 0; k < pos->hand[c][t]; k++)
                    out[n++] = L;
            }
        }
        out[n++] = ']';
    }
    n += (size_t)sprintf(out + n, " %c ", pos->stm == WHITE ? 'w' : 'b');
    if (!pos->castling)
        out[n++] = '-';
    for (int i = 0; i < 4; i++)
        if (pos->castling >> i & 1)
            out[n++] = "KQkq"[i];
    out[n++] = ' ';
    if (pos->ep == SQ_NONE) {
        out[n++] = '-';
    } else {
        variant_square_name(v, pos->ep, out + n);
        n += strlen(out + n);
    }
    sprintf(out + n, " %d %d", pos->halfmove, pos->fullmove);
    snprintf(buf, len, "%s", out);
}

/* ---- make and unmake --------------------------------------------------- */

static void gate_enter(Position *pos, int sq, Piece *saved) {
    const Variant *v = pos->v;
    int c = pos->stm;
    if (sq / v->files != v->back_rank[c] || pos->board[sq] != EMPTY)
        return;
    int f = sq % v->files;
    Piece g = pos->gate[c][f];
    if (!g)
        return;
    *saved = g;
    set_gate(pos, c, f, EMPTY);
    put_piece(pos, sq, g);
}

void pos_make_move(Position *pos, Move m) {
    const Variant *v = pos->v;
    assert(m != MOVE_NONE && pos->hply < MAX_GAME_PLY);
    Undo *u = &pos->hist[pos->hply++];
    int us = pos->stm, them = !us;
    u->key = pos->key;
    u->move = m;
    u->moved = pos->board[move_from(m)];
    u->captured = EMPTY;
    u->gate_from = u->gate_to = EMPTY;
    u->castling = pos->castling;
    u->ep = pos->ep;
    u->ep_victim = pos->ep_victim;
    u->halfmove = pos->halfmove;
    if (pos->ep != SQ_NONE) {
        pos->key ^= v->z_ep[pos->ep];
        pos->ep = pos->ep_victim = SQ_NONE;
    }
    int from = move_from(m), to = move_to(m), kind = move_kind(m);
    pos->halfmove++;
    switch (kind) {
    case MK_SETUP: {
        uint8_t types[MAX_HAND];
        int n = pos_hand_order(pos, us, types);
        int files = from | to << 8;
        for (int i = 0; i < n; i++) {
            set_hand(pos, us, types[i], pos->hand[us][types[i]] - 1);
            set_gate(pos, us, files >> (4 * i) & 15, make_piece(us, types[i]));
        }
        break;
    }
    case MK_CASTLE: {
        const CastleRule *cr = &v->castle[move_payload(m)];
        Piece king = pos->board[cr->kfrom], rook = pos->board[cr->rfrom];
        remove_piece(pos, cr->kfrom);
        remove_piece(pos, cr->rfrom);
        put_piece(pos, cr->kto, king);
        put_piece(pos, cr->rto, rook);
        gate_enter(pos, cr->rfrom, &u->gate_from);
        gate_enter(pos, cr->kfrom, &u->gate_to);
        toggle_castling(pos,
                        pos->castling & ~(v->castle_mask[cr->kfrom] & v->castle_mask[cr->rfrom]));
        break;
    }
    default: {
        Piece p = pos->board[from];
        int capsq = kind == MK_EP ? u->ep_victim : to;
        Piece cap = pos->board[capsq];
        if (cap) {
            u->captured = cap;
            remove_piece(pos, capsq);
            pos->halfmove = 0;
            if (capsq / v->files == v->back_rank[them] && pos->gate[them][capsq % v->files]) {
                u->gate_to = pos->gate[them][capsq % v->files];
                set_gate(pos, them, capsq % v->files, EMPTY);
            }
        }
        move_piece(pos, from, to);
        if (move_promo(m)) {
            remove_piece(pos, to);
            put_piece(pos, to, make_piece(us, move_promo(m)));
        }
        if (v->type[piece_type(p)].promotes)
            pos->halfmove = 0;
        if (kind == MK_DOUBLE) {
            /* the square passed, kept only when a capture there is possible,
             * so equal positions have equal keys */
            int fx = from % v->files, fy = from / v->files, tx = to % v->files, ty = to / v->files;
            int dx = (tx > fx) - (tx < fx), dy = (ty > fy) - (ty < fy);
            int ep = (ty - dy) * v->files + tx - dx;
            if (movegen_attacked_by(pos, ep, them, v->ep_capable)) {
                pos->ep = (Square)ep;
                pos->ep_victim = (Square)to;
                pos->key ^= v->z_ep[pos->ep];
            }
        }
        gate_enter(pos, from, &u->gate_from);
        uint8_t keep = v->castle_mask[from] & v->castle_mask[to];
        if (pos->castling & ~keep)
            toggle_castling(pos, pos->castling & ~keep);
    }
    }
    if (us == BLACK)
        pos->fullmove++;
    pos->stm = them;
    pos->key ^= v->z_side;
    pos_debug_check(pos, "pos_make_move");
}

void pos_unmake_move(Position *pos) {
    const Variant *v = pos->v;
    assert(pos->hply > 0);
    Undo *u = &pos->hist[--pos->hply];
    Move m = u->move;
    int us = !pos->stm, them = pos->stm;
    int from = move_from(m), to = move_to(m);
    pos->stm = us;
    if (us == BLACK)
        pos->fullmove--;
    switch (move_kind(m)) {
    case MK_SETUP: {
        int files = from | to << 8;
        for (int i = 0; i < move_payload(m); i++) {
            int f = files >> (4 * i) & 15;
            Piece g = pos->gate[us][f];
            set_gate(pos, us, f, EMPTY);
            set_hand(pos, us, piece_type(g), pos->hand[us][piece_type(g)] + 1);
        }
        break;
    }
    case MK_CASTLE: {
        const CastleRule *cr = &v->castle[move_payload(m)];
        if (u->gate_from) {
            remove_piece(pos, cr->rfrom);
            set_gate(pos, us, cr->rfrom % v->files, u->gate_from);
        }
        if (u->gate_to) {
            remove_piece(pos, cr->kfrom);
            set_gate(pos, us, cr->kfrom % v->files, u->gate_to);
        }
        Piece king = pos->board[cr->kto], rook = pos->board[cr->rto];
        remove_piece(pos, cr->kto);
        remove_piece(pos, cr->rto);
        put_piece(pos, cr->kfrom, king);
        put_piece(pos, cr->rfrom, rook);
        break;
    }
    default:
        if (u->gate_from) {
            remove_piece(pos, from);
            set_gate(pos, us, from % v->files, u->gate_from);
        }
        if (move_promo(m)) {
            remove_piece(pos, to);
            put_piece(pos, to, u->moved);
        }
        move_piece(pos, to, from);
        if (u->captured) {
            int capsq = move_kind(m) == MK_EP ? u->ep_victim : to;
            put_piece(pos, capsq, u->captured);
            if (u->gate_to)
                set_gate(pos, them, capsq % v->files, u->gate_to);
        }
    }
    pos->castling = u->castling;
    pos->ep = u->ep;
    pos->ep_victim = u->ep_victim;
    pos->halfmove = u->halfmove;
    pos->key = u->key;
    pos_debug_check(pos, "pos_unmake_move");
}

void pos_make_null(Position *pos) {
    Undo *u = &pos->hist[pos->hply++];
    u->key = pos->key;
    u->move = MOVE_NONE;
    u->ep = pos->ep;
    u->ep_victim = pos->ep_victim;
    u->halfmove = pos->halfmove;
    u->castling = pos->castling;
    if (pos->ep != SQ_NONE)
        pos->key ^= pos->v->z_ep[pos->ep];
    pos->ep = pos->ep_victim = SQ_NONE;
    pos->halfmove++;
    pos->stm = !pos->stm;
    pos->key ^= pos->v->z_side;
    pos_debug_check(pos, "pos_make_null");
}

void pos_unmake_null(Position *pos) {
    Undo *u = &pos->hist[--pos->hply];
    pos->stm = !pos->stm;
    pos->ep = u->ep;
    pos->ep_victim = u->ep_victim;
    pos->halfmove = u->halfmove;
    pos->key = u->key;
}

/* Was the move of undo record u a step its piece can step back (see
 * Variant.loop)? Only such a step of a promoting piece resets the N-move
 * count and yet leaves the positions before it within reach. */
static bool step_returns(const Variant *v, const Undo *u) {
    int kind = move_kind(u->move);
    if ((kind != MK_NORMAL && kind != MK_DOUBLE) || u->captured || move_promo(u->move))
        return false; /* only now is u->moved a piece that stepped */
    int c = piece_color(u->moved), t = piece_type(u->moved);
    if (!(v->looping[c] >> t & 1))
        return false;
    int from = v->loop[c][t][move_from(u->move)];
    return from && from == v->loop[c][t][move_to(u->move)];
}

int pos_reversible_plies(const Position *pos) {
    int n = pos->halfmove;
    while ((pos->v->looping[WHITE] | pos->v->looping[BLACK]) && n < pos->hply) {
        const Undo *u = &pos->hist[pos->hply - n - 1]; /* the move that reset the count */
        if (u->move == MOVE_NONE || !step_returns(pos->v, u))
            break;
        n += 1 + u->halfmove;
    }
    return n < pos->hply ? n : pos->hply;
}

int pos_repetitions(const Position *pos) {
    int n = 0;
    int limit = pos_reversible_plies(pos);
    for (int i = 2; i <= limit; i += 2)
        if (pos->hist[pos->hply - i].key == pos->key)
            n++;
    return n;
}

int pos_game_end(const Position *pos) {
    const Variant *v = pos->v;
    int them = !pos->stm;
    for (int i = 0; i < v->nwin[them]; i++) {
        Piece p = pos->board[v->win_list[them][i]];
        if (p && piece_color(p) == them && (v->win_types >> piece_type(p) & 1))
            return -1;
    }
    if (v->bare_king_loss) { /* pieces besides the royal one; hands do not count */
        int ours = pos->pcount[pos->stm] - (pos->king[pos->stm] != SQ_NONE);
        int theirs = pos->pcount[them] - (pos->king[them] != SQ_NONE);
        if (theirs == 0 && ours >= 1)
            return 1;
        if (ours == 0 && theirs >= 2) /* too many to bare them back at once */
            return -1;
    }
    return 0;
}
