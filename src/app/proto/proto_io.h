/* proto_io.h - what the protocol front ends (xboard, uci, match) share:
 * thread-safe line output, an input line reader that can wait on stdin and
 * on a searcher at once, strict number parsing, the list of chess games, and
 * move-text helpers. Everything goes through engine.h; nothing here knows
 * rules. */
#ifndef PROTO_IO_H
#define PROTO_IO_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/engine.h"

/* More plies than any game can hold (the rules core stops earlier). */
#define PROTO_MAX_PLIES 8192

/* Prints one line (a newline is added) to stdout and flushes; safe to call
 * from the search thread and the input thread at once. */
void proto_out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Milliseconds of a monotonic clock. */
int64_t proto_now_ms(void);

/* Line reader over a file descriptor. proto_lines_next returns the next
 * complete line (without the newline, NUL-terminated, valid until the next
 * call) or NULL at end of input. */
typedef struct {
    int fd;
    char *buf;
    size_t len, cap, start;
    bool eof;
} ProtoLines;
void proto_lines_init(ProtoLines *r, int fd);
void proto_lines_free(ProtoLines *r);
/* A line is already buffered (no need to wait for the descriptor). */
bool proto_lines_ready(const ProtoLines *r);
/* Reads what the descriptor has (one read call); false at end of input. */
bool proto_lines_fill(ProtoLines *r);
/* The next complete line, or NULL when none is buffered (at end of input a
 * last unterminated line is returned too). */
char *proto_lines_take(ProtoLines *r);
/* Whether the next buffered line's first word is WORD; whether any
 * buffered line's is (nothing taken). */
bool proto_lines_next_is(const ProtoLines *r, const char *word);
bool proto_lines_holds(const ProtoLines *r, const char *word);

/* Splits LINE in place at blanks; returns the count (at most max). */
int proto_split(char *line, char **tok, int max);
/* Strict decimal integer in [min, max]. */
bool proto_parse_long(const char *s, long min, long max, long *out);
/* The whole of the file path (a pipe too), NUL-terminated, its length in
 * *len (len may be NULL); NULL with the reason in err when it cannot be read or holds more
 * than max bytes. The caller frees it. */
char *proto_read_file(const char *path, size_t max, size_t *len, char *err, size_t errlen);
/* The largest hash table the machine can give, in MB: half its physical
 * memory, at most PROTO_HASH_MAX_MB (the UCI Hash option's and XBoard's
 * memory command's ceiling). */
#define PROTO_HASH_MAX_MB 65536
int proto_hash_cap_mb(void);
/* Strict decimal number (digits, optional fraction) >= 0. */
bool proto_parse_double(const char *s, double *out);

/* Names of the chess-like games (engine_game_names less the mancala),
 * NULL-terminated. */
const char *const *proto_chess_games(void);
/* A new game of VARIANT at its protocol start position: the rules' start,
 * and for a game with set-ups (Diamondback) the first set-up. */
Game *proto_new_game(const char *variant, const char *fen, char *err, size_t errlen);

/* Adds DELTA to every rank number in a move text (digits after a file
 * letter): XBoard counts ranks from 0 on boards with ten ranks. Returns
 * false when a rank would fall outside 1..99. */
bool proto_shift_ranks(const char *in, int delta, char *out, size_t len);

/* Hannibal gating as XBoard's seirawan style writes it: the letter (lower
 * case) of the piece MOVE (legal, ours) gates in, 0 when none. */
char proto_gated_piece(Game *g, const char *move);
/* Plays MOVE, also when it carries a gating suffix naming the piece the
 * move gates in anyway ("b1c3m"). False + reason when illegal. */
bool proto_play_gated(Game *g, const char *move, char *err, size_t errlen);

/* Castlings XBoard 4.9 does not know (GameInfo.xboard_castles: "OURS=LEGS"
 * tokens, "OURS" alone where it has no form).
 * proto_castle_to_xboard: OURS as XBoard is sent it (its two legs, king onto
 * the rook, then on to its square); false when OURS is no such castling.
 * proto_castle_from_xboard: a two-leg text, ours ("a1d1,d1c1") or XBoard's
 * echo of it (king move, rook move: "a1c1,d1b1"), as our move text; false
 * when IN is neither.
 * proto_castles_unseen: the castlings XBoard has no form for,
 * space-separated (for SearchLimits.avoid). */
bool proto_castle_to_xboard(const char *castles, const char *ours, char *out, size_t len);
bool proto_castle_from_xboard(const char *castles, const char *in, char *out, size_t len);
void proto_castles_unseen(const char *castles, char *out, size_t len);
/* OURS is one of those castlings (either kind). */
bool proto_castle_listed(const char *castles, const char *ours);

#endif
