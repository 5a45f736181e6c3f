/* menagerie.h - libmenagerie, the engine as a shared library for other
 * programs (the Python module is built on it; docs/python.md shows both).
 *
 * A small, stable C API over engine/engine.h: a MenagerieGame is one game of
 * any variant Menagerie plays (a built-in name, a name from the folder in
 * $MENAGERIE_VARIANTS, or a variant definition file's path) with its
 * position and move history. Moves go in and out as text, in Menagerie's
 * coordinate form (what `menagerie uci` speaks) or SAN. Every call that can
 * fail returns false (or NULL, or -1), writes a reason into err and leaves
 * the game as it was. All types here are plain data owned by the caller;
 * nothing of the engine's own headers shows through. One game must not be
 * used by two threads at once; different games may. The library exports
 * only the menagerie_ names. */
#ifndef MENAGERIE_H
#define MENAGERIE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MENAGERIE_API_VERSION 1 /* raised when a call or a struct changes */
#define MENAGERIE_MOVE_LEN 32   /* room for any move text, NUL included */
#define MENAGERIE_ERR_LEN 160   /* room for any error text */
#define MENAGERIE_FEN_LEN 512   /* room for any position text */
#define MENAGERIE_PV_LEN 512    /* room for a line's moves, space-separated */
#define MENAGERIE_MAX_LINES 8   /* most best lines one search reports */

typedef struct MenagerieGame MenagerieGame;

typedef struct {
    char text[MENAGERIE_MOVE_LEN]; /* coordinate form: e2e4, e7e8q, h1S2 (gating), 3+ */
    char san[MENAGERIE_MOVE_LEN];  /* e4, e8=Q+, O-O; the mancala's moves are the same */
} MenagerieMove;

typedef enum {
    MENAGERIE_ONGOING = 0,
    MENAGERIE_FIRST_WINS,  /* White, or Slangenspel's player A: "1-0" */
    MENAGERIE_SECOND_WINS, /* Black, or player B: "0-1" */
    MENAGERIE_DRAW,        /* "1/2-1/2" */
} MenagerieResult;

typedef struct {
    int depth;       /* plies, 0 = no limit */
    int movetime_ms; /* 0 = none; with neither limit the search takes one second */
    uint64_t nodes;  /* 0 = no limit */
    int multipv;     /* best lines wanted, 1..MENAGERIE_MAX_LINES (0 = 1) */
    int threads;     /* 0 = 1 */
    int hash_mb;     /* transposition table, 0 = the default */
} MenagerieLimits;

typedef struct {
    int multipv; /* 1 = the best line */
    int depth, seldepth;
    int score;  /* side to move's view: centipawns, or eggs in Slangenspel */
    int mate;   /* moves to mate, + for the side to move, - against; 0 = none */
    bool exact; /* a proven value (a mate, a solved Slangenspel position) */
    uint64_t nodes;
    int time_ms;
    char pv[MENAGERIE_PV_LEN];     /* coordinate form */
    char pv_san[MENAGERIE_PV_LEN]; /* SAN */
} MenagerieLine;

typedef struct {
    char best[MENAGERIE_MOVE_LEN]; /* coordinate form */
    char best_san[MENAGERIE_MOVE_LEN];
    char ponder[MENAGERIE_MOVE_LEN]; /* the expected reply, "" when none */
    int nlines;                      /* lines in line[], best first */
    MenagerieLine line[MENAGERIE_MAX_LINES];
} MenagerieSearch;

/* The library's version ("1.2.0", that of the menagerie package) and the
 * API version it implements (MENAGERIE_API_VERSION of its build). */
const char *menagerie_version(void);
int menagerie_api_version(void);

/* The names of the games, NULL-terminated: the built-in ones, then those
 * of the *.var files in $MENAGERIE_VARIANTS (read at the first call). */
const char *const *menagerie_variants(void);

/* A new game of VARIANT from FEN (NULL or "" = the start position; a game
 * with set-ups, Diamondback, starts from its standard one). VARIANT is a
 * game's name, or a variant file's path (a name with a '/' or ending in
 * ".var"). NULL with the reason in err when either is wrong. */
MenagerieGame *menagerie_open(const char *variant, const char *fen, char *err, size_t errlen);
/* An independent copy with the same position and history; NULL only when
 * memory runs out. */
MenagerieGame *menagerie_copy(const MenagerieGame *g);
void menagerie_close(MenagerieGame *g); /* NULL is fine */

/* The game's variant as given to menagerie_open. */
const char *menagerie_game_variant(const MenagerieGame *g);
/* Whether FEN is a valid position of VARIANT; false with the reason. */
bool menagerie_validate_fen(const char *variant, const char *fen, char *err, size_t errlen);

/* The current position as FEN (Slangenspel: its own position text). */
void menagerie_fen(const MenagerieGame *g, char *buf, size_t len);
/* 0 when White (player A) is to move, 1 for Black (player B). */
int menagerie_side_to_move(const MenagerieGame *g);
/* Whether the side to move is in check (always false for Slangenspel). */
bool menagerie_in_check(const MenagerieGame *g);

/* The legal moves: returns their number, writes at most max of them. */
int menagerie_legal_moves(MenagerieGame *g, MenagerieMove *out, int max);
/* The SAN of MOVE (coordinate text or SAN) in the current position. */
bool menagerie_san(MenagerieGame *g, const char *move, char *san, size_t len, char *err,
                   size_t errlen);
/* Plays MOVE (coordinate text or SAN). */
bool menagerie_play(MenagerieGame *g, const char *move, char *err, size_t errlen);
/* Takes the last move back; false when none was played. */
bool menagerie_undo(MenagerieGame *g);
int menagerie_ply_count(const MenagerieGame *g); /* moves played since the start */

/* Whether the game has ended by its rules, and why ("checkmate",
 * "stalemate", "50-move rule", "threefold repetition", ...; "" while it
 * goes on) into reason. */
MenagerieResult menagerie_result(MenagerieGame *g, char *reason, size_t len);

/* The leaf nodes of the legal-move tree DEPTH plies deep (0..30; 0 for
 * another depth). */
uint64_t menagerie_perft(MenagerieGame *g, int depth);

/* Searches the current position within LIM (NULL = one second) and waits
 * for the result. The search tables are kept from one call to the next, as
 * in a game; menagerie_new_game forgets them. False when the game is over
 * or a limit is out of range. */
bool menagerie_search(MenagerieGame *g, const MenagerieLimits *lim, MenagerieSearch *out, char *err,
                      size_t errlen);
/* Asks a running menagerie_search of g to finish now (its best so far);
 * the one call that may come from another thread. */
void menagerie_stop(MenagerieGame *g);
/* Forgets what earlier searches of g learnt, as before a new game. */
void menagerie_new_game(MenagerieGame *g);

#ifdef __cplusplus
}
#endif

#endif
