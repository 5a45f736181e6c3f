/* engine.h - the one API every front end uses, over every game Menagerie plays.
 *
 * A Game is an opaque handle that owns a position, its move history and its
 * rule set. Each kind of game (chess-like, mancala) implements the GameOps
 * table of game.h in a file of its own; this layer only dispatches by name.
 * Moves cross this API as text (coordinate or SAN), so front ends never see
 * a kind's internal move encoding. An EngineSearch is the engine object of
 * the Stockfish model: it owns a search thread and a private copy of the
 * game with the searcher's tables, and front ends only start, stop and
 * collect (start/stop/ponderhit, info callbacks, several best lines). */
#ifndef ENGINE_H
#define ENGINE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "search/limits.h"

#define ENGINE_MOVE_TEXT 32 /* room for any move token, NUL included */
#define ENGINE_ERR_LEN 160
#define ENGINE_MAX_MOVES 4096 /* room for any position's legal moves */

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

typedef enum { KIND_CHESS = 0, KIND_MANCALA = 1 } GameKind;

typedef struct {
    char letter; /* upper case; Black's pieces are lower case in FEN */
    char name[24];
    char betza[192];
    char xboard[128]; /* XBetza for XBoard's "piece" line; "" = the parent knows it */
} PieceInfo;

typedef struct {
    GameKind kind;
    char name[40], title[80];
    int files, ranks; /* mancala: 16 holes on one rank */
    bool rotated;     /* Black's pieces are White's turned 180 degrees (Diamondback) */
    bool gating;      /* pieces wait behind the back rank (Hannibal) */
    int move_rule;    /* N-move rule, 0 = none */
    int npieces;
    PieceInfo piece[31];
    char summary[96];       /* one line for a game list */
    char icon[24];          /* image name of the game's emblem piece */
    int order;              /* place in game lists, lower first; 0 = after those with one */
    char xboard_name[32];   /* name in XBoard's "variants" feature ("normal" for chess) */
    char xboard_parent[24]; /* parent variant of XBoard's "setup"; "" = XBoard knows the game */
    char xboard_start[320]; /* the start XBoard keeps for xboard_name, "" = ours */
    char piece_to_char[96]; /* XBoard's pieceToCharTable for "setup" */
    int holdings;           /* XBoard's holdings size for "setup" */
    /* castlings XBoard 4.9 does not know (Diamondback's): "OURS=LEGS" for
     * one XBoard draws from two legs ("a1c1=a1d1,d1c1"), "OURS" alone for
     * one it has no form for; space-separated, "" = none */
    char xboard_castles[960];
    bool user;  /* from the variants directory ($MENAGERIE_VARIANTS) */
    int nbench; /* positions `menagerie bench` searches besides the start */
    char bench_fen[4][320];
} GameInfo;

/* A legal move, described for drawing and input. Squares are
 * rank * files + file (a1 = 0); -1 where a move has none. */
typedef struct {
    char text[ENGINE_MOVE_TEXT]; /* coordinate form, what engine_play takes */
    char san[ENGINE_MOVE_TEXT];
    int from, to; /* castling: the king's squares; mancala: from = hole - 1 */
    char promo;   /* promotion piece letter, 0 = none */
    char kind;    /* 'n' normal, 'c' castling, 'e' en passant, 's' set-up, 'm' mancala */
} MoveDesc;

/* What stands where, for drawing a chess-like board. */
typedef struct {
    int files, ranks;
    char sq[256];     /* a1 = 0, rank * files + file: piece letter (Black lower
                         case), '.' empty, '*' hole */
    char gate[2][16]; /* letter of the piece waiting behind each file, 0 = none */
    char hand[2][8];  /* letters of pieces in hand, NUL-terminated */
    Side side;        /* to move */
    bool check;       /* the side to move is in check */
} BoardView;

/* Names of all games, NULL-terminated: the built-in ones, then every
 * *.var file of the directory in $MENAGERIE_VARIANTS (read at first use). */
const char *const *engine_game_names(void);
/* A short human-readable title of a game, NULL when unknown. */
const char *engine_game_title(const char *name);
/* A game's description without making a game; false when unknown. */
bool engine_game_info(const char *name, GameInfo *out);

/* New game of VARIANT (a built-in name) from FEN (NULL = start position).
 * On failure returns NULL and writes a reason to err. */
Game *engine_new(const char *variant, const char *fen, char *err, size_t errlen);
/* Same for a user's variant definition file. */
Game *engine_new_from_file(const char *path, const char *fen, char *err, size_t errlen);
void engine_free(Game *g);
/* An independent copy of g: same position, history and start, made without
 * replaying moves; the searcher's tables are not copied. NULL only when
 * memory runs out. */
Game *engine_copy(const Game *g);
/* DST takes SRC's position, history and start, keeping its own searcher's
 * tables; false (DST unchanged) when they play different games. */
bool engine_assign(Game *dst, const Game *src);
/* Forget what earlier searches of g learnt (hash table, histories): a new game. */
void engine_clear(Game *g);
/* Start FEN of VARIANT for a named set-up (Diamondback: where the Queens
 * stand, e.g. "b1g8"); setup NULL picks one at random. Returns 0 or -1. */
int engine_start_fen(const char *variant, const char *setup, char *fen, size_t len, char *err,
                     size_t errlen);
/* Names of a variant's set-ups, NULL-terminated (empty when it has none). */
const char *const *engine_setups(const char *variant);

void engine_info(const Game *g, GameInfo *out);
uint64_t engine_perft(Game *g, int depth);
typedef void (*DivideCallback)(const char *move, uint64_t count, void *ud);
/* The count below each root move (CB), and their sum. STOP (NULL: none) may
 * be set by another thread: the counts then end early, short. */
uint64_t engine_divide(Game *g, int depth, DivideCallback cb, void *ud, const atomic_bool *stop);

/* Legal moves as text (coordinate form, or SAN when san is true).
 * Returns the count, writes at most max entries. */
int engine_legal_moves(Game *g, char (*out)[ENGINE_MOVE_TEXT], int max, bool san);
/* Play a move given as coordinate text or SAN. On failure the game is
 * unchanged and err says why. */
bool engine_play(Game *g, const char *move, char *err, size_t errlen);
/* Describes a move (coordinate text or SAN) in the current position without
 * playing it: squares, SAN and kind. False with a reason when illegal. */
bool engine_describe(Game *g, const char *move, MoveDesc *out, char *err, size_t errlen);
bool engine_undo(Game *g); /* false when there is nothing to undo */
/* All legal moves with squares, SAN and kind. Returns the count. */
int engine_moves(Game *g, MoveDesc *out, int max);
/* The moves played so far (coordinate form or SAN), and the position the
 * game started from. */
int engine_history(Game *g, char (*out)[ENGINE_MOVE_TEXT], int max, bool san);
bool engine_last_move(const Game *g, MoveDesc *out); /* false before any move */
int engine_ply_count(const Game *g);                 /* moves played so far */
/* Chess-like games only (false for the mancala, whose position text is
 * simple enough to read: see docs/playing.md). */
bool engine_board(const Game *g, BoardView *out);
void engine_initial_text(const Game *g, char *buf, size_t len);
/* The game as PGN (the mancala uses the same form; see docs/web.md). tags holds
 * name/value pairs ("White", "Ann", ...), NULL-terminated; may be NULL. A
 * "Result" tag (1-0, 0-1, 1/2-1/2) counts only for a game the rules have
 * not ended: an adjudication, a resignation, a flag fall.
 * Returns the length written, or -1 if buf is too small. */
int engine_export(Game *g, const char *const *tags, char *buf, size_t len);
/* A game from PGN text (its Variant and FEN tags and moves). */
Game *engine_import(const char *text, char *err, size_t errlen);
/* The value of tag name among the tags that open PGN text (one game), or
 * false when it has none; a value longer than len - 1 is cut. */
bool engine_pgn_tag(const char *text, const char *name, char *val, size_t len);
void engine_position_text(const Game *g, char *buf, size_t len); /* FEN */
/* The position's hash key (Zobrist: the same position, the same key), as
 * UCI's `d` shows it; 0 for a game without one (Slangenspel). */
uint64_t engine_key(const Game *g);
Side engine_side_to_move(const Game *g);
GameResult engine_result(Game *g);
/* Can the side to move end the game with its next move (a mate in one, a
 * corner reached)? Opening makers avoid such lines. */
bool engine_ends_in_one(Game *g);
/* A static evaluation term by term, for a developer's eye (UCI `eval`):
 * centipawns from the first player's (White's) view, each term as its
 * middle-game and endgame share. */
#define ENGINE_EVAL_TERMS 8
typedef struct {
    int nterms;
    struct {
        const char *name;
        int mg, eg;
    } term[ENGINE_EVAL_TERMS];
    int phase;   /* 256: the middle game's weights count in full, 0: the endgame's */
    int blended; /* the terms blended by the phase */
    int scaled;  /* that scaled down: endgame (few pawns, opposite bishops), mating potential */
    int tempo;   /* for the side to move */
    int score;   /* scaled + tempo from the side to move's view: the search's static eval */
} EngineEval;
/* False (out unset) when the game has no such evaluation (Slangenspel). */
bool engine_eval(Game *g, EngineEval *out);

/* Networks (docs/nnue.md): a chess game is scored by its variant's built-in
 * network where it has one, else by the hand-made evaluation; a search's
 * limits may name another network (SearchLimits.net, from a file) or ask for
 * the hand-made evaluation (hand_eval). A network file is read whole and
 * checked (format, sizes, checksum); NULL with the reason in err when it
 * cannot be read or is damaged. */
struct NnueNet *engine_net_load(const char *path, char *err, size_t errlen);
void engine_net_free(struct NnueNet *net);
/* The evaluation a search of G with NET (may be NULL) or HAND uses, in words
 * ("network for chess, 912 x 256 (built in)"); false when NET is not made for
 * G's game, whose own evaluation then plays. */
bool engine_net_describe(const Game *g, const struct NnueNet *net, bool hand, char *what,
                         size_t len);
/* The position of G as a network's training sample: its items (nnue.h; at
 * most ENGINE_NET_ITEMS) and the feature set's name (into features); -1 when
 * the game has no network evaluation. */
#define ENGINE_NET_ITEMS 1024
int engine_net_sample(const Game *g, uint16_t *items, char *features, size_t len);
/* Think in the calling thread and return the chosen move as coordinate
 * text in best (bench, tests, tools). To search in the background, with
 * stop and ponder, use an EngineSearch below. */
bool engine_go(Game *g, const SearchLimits *lim, const SearchCallbacks *cb, char *best, size_t len);
/* Asks a running engine_go to finish soon (thread-safe). A stop that comes
 * before engine_go has begun is lost: an EngineSearch has no such gap. */
void engine_stop(Game *g);

/* ---- the engine service: one search thread and its game copy ---------- */

typedef struct EngineSearch EngineSearch;

typedef struct {
    char best[ENGINE_MOVE_TEXT]; /* coordinate text, "" when there is no legal move */
    char best_san[ENGINE_MOVE_TEXT];
    char ponder[ENGINE_MOVE_TEXT];  /* the expected reply (legal), "" when none */
    bool fallback;                  /* the searcher gave no legal move: the first
                                       legal move stands in */
    int nlines;                     /* lines in line[] (0 when no info came) */
    SearchInfo line[SEARCH_MAX_PV]; /* the last report of each best line, best first */
    int64_t elapsed_ms;
} EngineResult;

typedef struct {
    /* After each iteration, once per best line, on the search thread. */
    void (*info)(const SearchInfo *info, void *ud);
    /* When the search has ended, on the search thread (the result can then
     * be collected); may be NULL: poll engine_search_fd or wait instead. */
    void (*done)(void *ud);
    void *ud;
} EngineCallbacks;

EngineSearch *engine_search_new(void);
void engine_search_free(EngineSearch *s); /* aborts a running search */
/* Starts a search of a copy of G, with EXTRA (a move text, may be NULL)
 * played on it first. PONDER: think without limits until
 * engine_search_ponderhit (then LIM's time applies) or a stop. A clocked
 * search also gets a hard stop well before the flag falls. cb may be NULL.
 * False (and err) when a search is running, EXTRA is illegal or the game
 * is over for the searcher. Search tables are kept from one search to the
 * next while the game's variant stays the same. */
bool engine_search_start(EngineSearch *s, const Game *g, const char *extra, const SearchLimits *lim,
                         bool ponder, const EngineCallbacks *cb, char *err, size_t errlen);
/* Asks the search to end soon; its result is delivered as usual. Safe at
 * any time, from any thread, also at once after start. */
void engine_search_stop(EngineSearch *s);
/* The ponder search becomes a timed one: the budget that LIM's clock (NULL:
 * the limits it was started with) allows from now. */
void engine_search_ponderhit(EngineSearch *s, const SearchLimits *lim);
/* True from start until the result is collected (or the search aborted). */
bool engine_search_running(const EngineSearch *s);
/* True when the search has ended and its result waits to be collected. */
bool engine_search_done(const EngineSearch *s);
/* The latest reports of the running search (best line first); returns how
 * many lines were written (0 when none came yet). Thread-safe. */
int engine_search_lines(EngineSearch *s, SearchInfo *out, int max);
/* Collects an ended search without blocking: false when none has ended. */
bool engine_search_collect(EngineSearch *s, EngineResult *out);
/* Blocks until the running search ends, then collects it (false when no
 * search runs). */
bool engine_search_wait(EngineSearch *s, EngineResult *out);
/* Stops and joins the running search and drops its result. */
void engine_search_abort(EngineSearch *s);
/* A new game: ends a running search and forgets what searches learnt
 * (hash table, histories). */
void engine_search_clear(EngineSearch *s);
/* A descriptor that becomes readable when a search ends (for poll()); it
 * stays readable until the result is collected. */
int engine_search_fd(const EngineSearch *s);
/* Milliseconds since the running search started (0 when none runs). */
int64_t engine_search_elapsed(const EngineSearch *s);
/* Sets option NAME of the searches S starts from now on to the text VALUE.
 * "SearchParams": the search's tunable numbers as "name:value,..." (see
 * below), the defaults but for the numbers given ("" = all defaults); a
 * search whose limits name no numbers of their own runs with these.
 * "EvalFile": a network file to evaluate with (engine_net_load), "" or
 * "<default>" the variant's own, "<hand>" the hand-made evaluation; a search
 * whose limits name no network of their own uses it. False (the option
 * unchanged) with the reason in err when NAME is no option or VALUE is bad. */
bool engine_search_set_option(EngineSearch *s, const char *name, const char *value, char *err,
                              size_t errlen);
/* engine_net_describe for G with option EvalFile of S. */
bool engine_search_describe_eval(const EngineSearch *s, const Game *g, char *what, size_t len);

/* The search's tunable numbers (the margins, reductions and counts of its
 * pruning), for tuners: number i (0 <= i < engine_param_count()) with its
 * default, bounds and the step a tuning run tries either side. A set of
 * them is an array of engine_param_count() values in that order, read from
 * and written as the text of the option SearchParams. */
#define ENGINE_MAX_PARAMS 32 /* engine_param_count() is at most this */
typedef struct {
    const char *name;
    int def, min, max, step;
} EngineParam;
int engine_param_count(void);
EngineParam engine_param(int i);
int engine_param_index(const char *name); /* -1 when no number is called name */
/* Sets the VALUES that TEXT names ("name:value,..."); false (VALUES
 * unchanged) with the reason in err when a name is unknown or a value not
 * a whole number within its bounds. */
bool engine_params_parse(int *values, const char *text, char *err, size_t errlen);
/* Writes every one of VALUES as that text; false when len is too small. */
bool engine_params_format(const int *values, char *buf, size_t len);

/* A time budget in ms for one move from a clock of TIME_MS with increment
 * INC_MS and MOVESTOGO moves to the control (0 = sudden death). */
int engine_budget_ms(int time_ms, int inc_ms, int movestogo);
/* A game kind's own benchmark (the mancala: search speed and the largest
 * egg count solved within a second, over the positions in the file POSITIONS,
 * NULL = the default test data), printed to out. -1 when it has none. */
int engine_kind_bench(const char *game, const char *positions, FILE *out);

/* Win, draw and loss chances of a search score (engine/wdl.c, UCI_ShowWDL):
 * a model made for one position (its material) by engine_wdl_model, then
 * read for each score (side to move's view; mate: moves to mate, signed, 0
 * for none) into permille win, draw, loss, summing to 1000. */
typedef struct {
    double a, b; /* the score of an even chance to win, and the curve's width */
} EngineWdl;
void engine_wdl_model(const Game *g, EngineWdl *out);
void engine_wdl(const EngineWdl *m, int score, int mate, int out[3]);

/* Endgame databases (Slangenspel). Tables live in DIR/egdb under the data
 * folder (default "data", the web app's); set it before the first search. */
void engine_set_data_dir(const char *dir);
typedef struct {
    /* once, before the long part: file, its size and the expected time */
    void (*estimate)(const char *path, uint64_t bytes, double seconds, void *ud);
    void (*progress)(int layer, int pass, double done, void *ud); /* done: 0..1 */
    void *ud;
} EgdbCallbacks;
/* Builds the table of RULES ("base" or "b"; "a" and "ab" use those two) up
 * to EGGS eggs with THREADS threads and writes it. 0, or -1 and a reason. */
int engine_egdb_build(const char *rules, int eggs, int threads, const EgdbCallbacks *cb, char *err,
                      size_t errlen);
/* Checks the table of RULES: its egg count and path, or -1 and a reason
 * (missing, damaged, foreign). */
int engine_egdb_check(const char *rules, char *path, size_t pathlen, char *err, size_t errlen);

/* Rules and piece diagrams, for teaching (engine/teach.c). */
/* The rules of a game in plain text (the same words the web page shows),
 * NULL when there is none. */
const char *engine_rules_text(const char *game);
#define ENGINE_REACH_PATH 8
/* Where a piece can go from a square of an otherwise empty board. */
typedef struct {
    int sq;
    bool move, capture; /* may stop there on an empty square / capturing */
    bool hop;           /* only over an occupied square (a hopper's screen) */
    int npath;          /* squares passed on the way, in order */
    int path[ENGINE_REACH_PATH];
} PieceReach;
/* For VARIANT (a built-in name or a definition file's path), the piece LETTER
 * of SIDE on square SQ (rank * files + file). Returns the number of
 * destinations written (at most max), or -1 with a reason in err. */
int engine_piece_reach(const char *variant, char letter, Side side, int sq, PieceReach *out,
                       int max, char *err, size_t errlen);
/* Whether SIDE still has mating material by the game's rules (engine/material.c):
 * a flag fall is a draw when the other side has none. Always true for the mancala. */
bool engine_can_mate(const Game *g, Side side);

/* Playing levels (engine/levels.c): what each level takes away and how
 * strong it measured, for people choosing one. The defaults are those of
 * every front end that plays people (the terminal game, the web app). */
#define ENGINE_DEFAULT_LEVEL 20 /* full strength */
#define ENGINE_DEFAULT_MOVETIME_MS 2000
/* The web page's level for a newcomer's first game: one a new player can beat. */
#define ENGINE_FIRST_LEVEL 3
#define ENGINE_ELO_NONE (-100000)    /* not measured */
#define ENGINE_ELO_LOST_ALL (-99999) /* lost every game: below what the match measures */
typedef struct {
    int level;        /* 1..20, 20 = full strength */
    int depth;        /* depth cap in plies, 0 = none */
    uint64_t nodes;   /* node cap, 0 = none */
    int noise;        /* most added to a score: hundredths of a pawn (mancala: of an egg) */
    int elo_full;     /* measured Elo against full strength, or ENGINE_ELO_* */
    int elo_fairymax; /* measured Elo against Fairy-Max, or ENGINE_ELO_* */
    char text[480];   /* all of this in words */
    const char *like; /* whom it plays like ("beginner", "club player", ...), from the
                       * measured strength; "" when not measured */
} EngineLevel;
/* Level LEVEL (1..20) in games of KIND; false for another level. */
bool engine_level(GameKind kind, int level, EngineLevel *out);
/* How the strength figures were measured (one sentence, "" while there are
 * none), for a footnote. */
const char *engine_level_source(void);
/* UCI_Elo (chess-like games): the levels' Elo against Fairy-Max 5.0b, plus
 * 2000 by convention. The range the levels span, and the level nearest an
 * Elo of that scale (the lower one on a tie; the ends beyond it). */
void engine_elo_range(int *lo, int *hi);
int engine_level_for_elo(int elo);

#endif
