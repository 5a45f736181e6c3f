/* variant.h - a chess variant compiled from its definition into move tables.
 *
 * For every colour, piece type and square the variant holds a move tree:
 * the squares a piece may pass or stop on, flattened in depth-first order
 * with a skip index past each subtree, so move generation is one loop with
 * no parsing. For attack tests the same paths are reversed and merged, per
 * colour and target square, into one trie whose leaves name the piece types
 * that attack from there. Only rules no data can express are code. */
#ifndef VARIANT_H
#define VARIANT_H

#include <stddef.h>
#include <stdint.h>

#include "core/types.h"

/* Move-tree node flags. */
enum {
    NF_MOVE = 1,       /* may stop here on an empty square */
    NF_CAPT = 2,       /* may stop here capturing an enemy piece */
    NF_PASS_EMPTY = 4, /* continue past if empty */
    NF_PASS_OCC = 8,   /* continue past if occupied (jump or hop) */
    NF_EP = 16,        /* may capture en passant here */
    NF_DOUBLE = 32,    /* stopping here sets the en-passant square */
};

typedef struct {
    uint8_t sq;
    uint8_t flags;
    uint16_t skip; /* index past this node's subtree, relative to the tree start */
} Node;

/* The next node of a walk of a move tree or attack trie at node j (flags,
 * skip), by whether its square is empty: into the subtree if the piece may
 * pass there, else past it. */
static inline uint32_t variant_next(uint8_t flags, uint16_t skip, uint32_t j, bool empty) {
    return (flags & (empty ? NF_PASS_EMPTY : NF_PASS_OCC)) ? j + 1 : skip;
}

typedef struct {
    uint8_t sq;
    uint8_t flags; /* NF_PASS_* */
    uint16_t skip;
    uint32_t srcmask; /* bit t: a piece of type t here attacks the root */
} AttackNode;

typedef struct {
    uint32_t start;
    uint32_t len;
} Span;

typedef struct {
    uint64_t w[MAX_SQ / 64];
} SquareSet;

static inline bool sqset_has(const SquareSet *s, int sq) {
    return (s->w[sq >> 6] >> (sq & 63)) & 1;
}
static inline void sqset_add(SquareSet *s, int sq) {
    s->w[sq >> 6] |= 1ull << (sq & 63);
}

typedef enum { CASTLE_NONE, CASTLE_ORTHODOX, CASTLE_FAST, CASTLE_FREE } CastleStyle;

/* The reflection of the board that leaves the game's rules as they are
 * (`reflect=`): a learned evaluation's trainer adds each position reflected. */
typedef enum { REFLECT_NONE, REFLECT_FILES, REFLECT_DIAGONAL } Reflect;

typedef struct {
    uint8_t color;
    uint8_t kfrom, kto, rfrom, rto;
    uint8_t right;    /* castling-right bit needed, 0 = none */
    uint8_t in_check; /* may castle out of check */
    uint8_t nempty, nsafe;
    uint8_t empty[MAX_FILES + MAX_RANKS]; /* must be empty (king and rook squares aside) */
    uint8_t safe[MAX_FILES + MAX_RANKS];  /* must not be attacked before the move */
    uint8_t partner;                      /* the rook's type */
    uint8_t one_step;                     /* the king's move equals a plain king step: own token */
    char san[16];
} CastleRule;

#define MAX_CASTLES 40

/* One entry of a variant's list of material without mating potential. */
typedef struct {
    enum { INSUF_NONE, INSUF_ANY_ONE, INSUF_BOUND, INSUF_SET } kind;
    int n;                    /* INSUF_SET: number of pieces */
    uint8_t count[MAX_TYPES]; /* INSUF_SET: pieces per type */
} MaterialRule;

typedef struct {
    char name[24];
    char letter; /* upper case; FEN uses lower case for Black */
    char betza[192];
    int value; /* centipawns; 0 = estimated from the move set */
    uint8_t royal, promotes, colorbound, ep_capable;
    int line; /* the definition file's line of the piece, 0 = none */
} PieceType;

/* What the loader reads from a definition file; variant_compile checks it. */
typedef struct {
    char letter;
    char squares[160];
    char betza[96];
    int line;
} ZoneMoves;

/* How front ends present a variant; the rules never read it. The loader
 * reads it and derives what a file leaves out (variants/loader.c). */
typedef struct {
    char summary[96];       /* one line for game lists */
    char icon[24];          /* image name of the game's emblem piece */
    int order;              /* place in game lists, lower first; 0 = after those with one */
    char xboard[32];        /* XBoard's name of the variant */
    char xboard_parent[24]; /* "setup" parent; "-" = XBoard knows the game */
    char xboard_known[32];  /* letters whose moves the parent knows */
    char xboard_start[320]; /* the start XBoard keeps for its own game (with
                               legality testing it ignores ours), "" = ours */
    char piece_to_char[96]; /* XBoard's pieceToCharTable */
    char xboard_betza[MAX_TYPES][128]; /* per type: XBoard's piece line, "" = known */
    /* Free castlings (Diamondback), which XBoard 4.9 does not know: one
     * token per castling, "OURS=LEGS" where XBoard draws it when sent in two
     * legs (king onto the rook, then on to its square: "a1c1=a1d1,d1c1"),
     * "OURS" alone where it has no form; "" = none. */
    char xboard_castles[MAX_CASTLES * 24];
    int nbench; /* benchFen positions for `menagerie bench` */
    char bench_fen[4][320];
} VariantShow;

typedef struct {
    char name[32], title[80];
    int files, ranks;
    int ntypes;
    PieceType type[MAX_TYPES]; /* 1..ntypes */
    char start_fen[320];
    int start_fen_line; /* the file's line of startFen (else the first setup), 0 = none */
    char holes[160];
    char royal;
    char promo_choice[32], promoting[16];
    int promo_zone;          /* ranks at the far end, 0 = use promo_squares */
    char promo_squares[160]; /* White's view */
    int move_rule;           /* N-move rule; 0 = none */
    int stalemate_loss;      /* a stalemated side loses (else draws) */
    int bare_king_loss;      /* a side left with its royal piece alone loses (pos_game_end) */
    int rotate;              /* Black's moves and squares are White's turned 180 degrees */
    Reflect reflect;
    CastleStyle castling;
    char castles[160];   /* CASTLE_FREE: "a1-c1:d1-b1,..." (White's view) */
    char castle_partner; /* CASTLE_FREE: the rook's letter */
    int castle_in_check;
    char win_types[16], win_squares[64];
    int gating;
    char gate_exclude[17];
    char insufficient[128];
    int material_dead; /* materialDraw=dead: FIDE's dead position (rules_dead_material) */
    int nzones;
    ZoneMoves zone[16];
    int nsetups; /* named start positions; startFen is the first */
    char setup_name[8][16];
    char setup_fen[8][320];
    VariantShow show;
    char eval[32768]; /* `eval=` weights, "NAME:VALUE ..." (read by the evaluation) */
} VariantSpec;

typedef struct Variant {
    char name[32], title[80];
    int files, ranks, nsq;
    int rotate_black; /* Black's moves are White's turned 180 degrees, not mirrored */
    Reflect reflect;  /* files: left to right; diagonal: across a1 to the far corner */
    uint8_t is_hole[MAX_SQ];
    int ntypes;
    PieceType type[MAX_TYPES];
    int royal; /* royal type, 0 = none */

    Span *tree; /* [(color * MAX_TYPES + type) * nsq + sq] */
    Node *nodes;
    Span atk[2][MAX_SQ]; /* attacks on a square by pieces of a colour */
    AttackNode *anodes;
    uint32_t multipath[2]; /* bit t: some destination has several paths */
    /* Most moves one piece of type t can have anywhere, as either colour,
     * a promoting type's promotions counted (and what it may become). */
    int move_weight[MAX_TYPES];
    uint32_t types_with_initial[2];
    int has_hoppers;

    int forward[2]; /* square delta of one step forward, per colour */
    int back_rank[2];
    SquareSet promo_zone[2];
    uint32_t promoting; /* bit t: type t promotes */
    /* Steps of a promoting type that it can step back (Diamondback's guard
     * pawns): loop[c][t][sq] numbers the squares from which colour c's
     * piece of type t can come back by its non-capturing moves, the same
     * number for squares it can go between; 0 elsewhere. Such a step resets
     * the N-move count but not the scan for repetitions (pos_repetitions). */
    uint8_t loop[2][MAX_TYPES][MAX_SQ];
    uint32_t looping[2]; /* bit t: some square of type t has a loop number */
    uint32_t ep_capable; /* bit t: type t captures en passant */
    uint8_t promo_types[MAX_TYPES];
    int npromo;
    SquareSet win_sq[2];
    uint8_t win_list[2][MAX_SQ];
    int nwin[2];
    uint32_t win_types;
    int move_rule;
    int stalemate_loss, bare_king_loss;
    int sudden_end; /* win squares or bare kings: pos_game_end can end a game */

    CastleStyle castling;
    int ncastles;
    CastleRule castle[MAX_CASTLES];
    uint8_t castle_mask[MAX_SQ]; /* rights kept when a move touches the square */

    int gating;
    uint16_t gate_files;    /* files a gate may stand behind */
    uint32_t hand_types[2]; /* bit t: type t is in a start position's hand (or at its gates) */

    int ninsuf;        /* the `insufficient` list, parsed */
    int material_dead; /* the list is judged against a bare king (rules_dead_material) */
    MaterialRule insuf[16];
    char start_fen[320];
    int nsetups;
    char setup_name[8][16];
    char setup_fen[8][320];
    const char *setup_names[9]; /* NULL-terminated view of setup_name */
    VariantShow show;           /* the loader's, for front ends */
    char eval[32768];           /* tuned evaluation weights, "NAME:VALUE ..." */

    /* Zobrist keys. */
    uint64_t z_piece[64][MAX_SQ];
    uint64_t z_gate[64][MAX_FILES];
    uint64_t z_hand[64][8];
    uint64_t z_castle[16];
    uint64_t z_ep[MAX_SQ];
    uint64_t z_side;
} Variant;

/* Compiles spec into a new Variant. Returns NULL with a message in err. */
Variant *variant_compile(const VariantSpec *spec, char *err, size_t errlen);
void variant_free(Variant *v);

/* Helpers shared by the rules core. */
int variant_type_by_letter(const Variant *v, char letter); /* 0 when unknown */
int variant_parse_square(const Variant *v, const char *s, int *consumed);
void variant_square_name(const Variant *v, int sq, char *buf);
/* The square colour c sees where White sees sq (and back): Black's board
 * mirrored top to bottom, or turned 180 degrees with rotate_black. */
int variant_view_square(const Variant *v, int color, int sq);
/* sq reflected the way v->reflect says (itself for REFLECT_NONE). */
int variant_reflect_square(const Variant *v, int sq);
/* Reads the board part of a FEN; *consumed = characters read. */
int variant_parse_board(const Variant *v, const char *fen, Piece *board, int *consumed, char *err,
                        size_t errlen);
static inline int sq_file(const Variant *v, int sq) {
    return sq % v->files;
}
static inline int sq_rank(const Variant *v, int sq) {
    return sq / v->files;
}

#endif
