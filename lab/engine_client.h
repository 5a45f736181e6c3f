/* engine_client.h - an engine in a child process, driven over CECP (XBoard)
 * or UCI, for the match tool.
 *
 * The caller (match.c) is the referee: it keeps the real game and asks an
 * engine for a move with client_think, which tells the engine what it
 * has not seen yet (the opponent's move, the clocks) and waits for its
 * answer until a deadline. Moves cross this interface in our coordinate
 * text; the CECP side translates XBoard's rank numbering (from 0 on boards
 * with ten ranks) and drops a seirawan-style gating suffix. */
#ifndef ENGINE_CLIENT_H
#define ENGINE_CLIENT_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/engine.h"

typedef struct EngineClient EngineClient;

typedef struct {
    int base_ms, inc_ms; /* clock per game; 0 = none */
    int movetime_ms;     /* fixed time per move; 0 = none */
    int depth;           /* 0 = none */
    long nodes;          /* fixed nodes per move (CECP: st 1 and nps N); 0 = none */
} ClientTimeControl;

typedef enum {
    CLIENT_MOVE,   /* a move (in out) */
    CLIENT_RESIGN, /* the engine resigned */
    CLIENT_CLAIM,  /* the engine claimed a result instead of moving (text in out) */
    CLIENT_TIMEOUT,
    CLIENT_DIED, /* the process ended or broke the protocol */
} ClientEvent;

/* SPEC: "self" (this program in CECP mode), "self-uci", "xboard:COMMAND"
 * or "uci:COMMAND" (COMMAND run by /bin/sh; its stderr is ours). SELF is the path of this
 * program. OPTIONS: "NAME=VALUE" strings sent as engine options, may be
 * NULL. TRACE: protocol traffic to stderr. */
EngineClient *client_start(const char *spec, const char *self, const char *const *options,
                           bool trace, char *err, size_t errlen);
void client_free(EngineClient *e); /* asks it to quit, then ends it */
const char *client_name(const EngineClient *e);
bool client_alive(const EngineClient *e);
/* Can it play VARIANT (one of ours)? */
bool client_supports(const EngineClient *e, const char *variant);

/* Starts a game of VARIANT from REF's start position with the moves REF
 * has already (an opening). False when the engine does not answer. */
bool client_new_game(EngineClient *e, Game *ref, const ClientTimeControl *tc, char *err,
                     size_t errlen);
/* Asks for a move in REF's position; CLOCK_MS is each side's time left.
 * Waits until DEADLINE (proto_now_ms time). */
ClientEvent client_think(EngineClient *e, Game *ref, const int clock_ms[2], int64_t deadline,
                         char *out, size_t len);
/* Tells the engine how the game ended (CECP "result"). */
void client_game_over(EngineClient *e, const char *result, const char *reason);

#endif
