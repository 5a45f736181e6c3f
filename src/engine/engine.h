/* engine.h - the one API every front end uses, over every game Menagerie plays.
 *
 * A Game is an opaque handle that owns a position, its move history and its
 * rule set. Each kind of game (chess-like, mancala) implements the GameOps
 * table of game.h in a file of its own; this layer only dispatches by name.
 * Moves cross this API as text (coordinate or SAN), so front ends never see
 * a kind's internal move encoding. */
#ifndef ENGINE_H
#define ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ENGINE_MOVE_TEXT 32 /* room for any move token, NUL included */
#define ENGINE_ERR_LEN 160

typedef struct Game Game;

typedef enum { SIDE_FIRST = 0, SIDE_SECOND = 1 } Side; /* White/A, Black/B */

typedef enum {
    RESULT_NONE = 0,   /* game goes on */
    RESULT_FIRST_WINS, /* White or player A */
    RESULT_SECOND_WINS,
    RESULT_DRAW,
} ResultKind;

typedef struct {
    ResultKind kind;
    char reason[64]; /* "checkmate", "stalemate", "50-move rule", ... */
} GameResult;

typedef struct {
    int depth;        /* 0 = no limit */
    uint64_t nodes;   /* 0 = no limit */
    int movetime_ms;  /* fixed time for this move, 0 = none */
    int time_ms[2];   /* clock of each side, 0 = no clock */
    int inc_ms[2];
    int movestogo;
    bool infinite;
    int level;        /* 1..20 playing level, 0 = full strength */
    int threads;
} SearchLimits;

typedef struct {
    int depth, seldepth;
    int score;        /* side to move's view: centipawns, or eggs for mancala */
    int mate;         /* moves to mate, signed; 0 = not a mate score */
    bool exact;       /* mancala: proven value */
    uint64_t nodes, nps;
    int time_ms;
    char pv[512];     /* space-separated move texts */
} SearchInfo;

typedef struct {
    void (*info)(const SearchInfo *info, void *ud); /* may be NULL */
    void *ud;
} SearchCallbacks;

/* Names of all games, NULL-terminated. */
const char *const *engine_game_names(void);
/* A short human-readable title of a game, NULL when unknown. */
const char *engine_game_title(const char *name);

/* New game of VARIANT (a built-in name) from FEN (NULL = start position).
 * On failure returns NULL and writes a reason to err. */
Game *engine_new(const char *variant, const char *fen, char *err, size_t errlen);
/* Same for a user's variant definition file. */
Game *engine_new_from_file(const char *path, const char *fen, char *err, size_t errlen);
void engine_free(Game *g);
/* Start FEN of VARIANT for a named set-up (Diamondback: where the Queens
 * stand, e.g. "b1g8"); setup NULL picks one at random. Returns 0 or -1. */
int engine_start_fen(const char *variant, const char *setup, char *fen, size_t len, char *err,
                     size_t errlen);
/* Names of a variant's set-ups, NULL-terminated (empty when it has none). */
const char *const *engine_setups(const char *variant);

uint64_t engine_perft(Game *g, int depth);
typedef void (*DivideCallback)(const char *move, uint64_t count, void *ud);
uint64_t engine_divide(Game *g, int depth, DivideCallback cb, void *ud);

/* Legal moves as text (coordinate form, or SAN when san is true).
 * Returns the count, writes at most max entries. */
int engine_legal_moves(Game *g, char (*out)[ENGINE_MOVE_TEXT], int max, bool san);
/* Play a move given as coordinate text or SAN. On failure the game is
 * unchanged and err says why. */
bool engine_play(Game *g, const char *move, char *err, size_t errlen);
bool engine_undo(Game *g); /* false when there is nothing to undo */
void engine_position_text(const Game *g, char *buf, size_t len); /* FEN */
Side engine_side_to_move(const Game *g);
GameResult engine_result(Game *g);
/* Think and return the chosen move as coordinate text in best. */
bool engine_go(Game *g, const SearchLimits *lim, const SearchCallbacks *cb, char *best,
               size_t len);
void engine_stop(Game *g); /* ask a running engine_go to finish soon (thread-safe) */

#endif
