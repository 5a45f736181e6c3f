/* proto_engine.h - an engine in a child process, driven over CECP (XBoard)
 * or UCI, for the match tool.
 *
 * The caller (match.c) is the referee: it keeps the real game and asks an
 * engine for a move with proto_engine_think, which tells the engine what it
 * has not seen yet (the opponent's move, the clocks) and waits for its
 * answer until a deadline. Moves cross this interface in our coordinate
 * text; the CECP side translates XBoard's rank numbering (from 0 on boards
 * with ten ranks) and drops a seirawan-style gating suffix. */
#ifndef PROTO_ENGINE_H
#define PROTO_ENGINE_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/engine.h"

typedef struct ProtoEngine ProtoEngine;

typedef struct {
    int base_ms, inc_ms; /* clock per game; 0 = none */
    int movetime_ms;     /* fixed time per move; 0 = none */
    int depth;           /* 0 = none */
    long nodes;          /* fixed nodes per move (CECP: st 1 and nps N); 0 = none */
} ProtoTimeControl;

typedef enum {
    PE_MOVE,   /* a move (in out) */
    PE_RESIGN, /* the engine resigned */
    PE_CLAIM,  /* the engine claimed a result instead of moving (text in out) */
    PE_TIMEOUT,
    PE_DIED, /* the process ended or broke the protocol */
} ProtoEngineEvent;

/* SPEC: "self" (this program in CECP mode), "self-uci", "xboard:COMMAND"
 * or "uci:COMMAND" (COMMAND run by /bin/sh; its stderr is ours). SELF is the path of this
 * program. OPTIONS: "NAME=VALUE" strings sent as engine options, may be
 * NULL. TRACE: protocol traffic to stderr. */
ProtoEngine *proto_engine_start(const char *spec, const char *self, const char *const *options,
                                bool trace, char *err, size_t errlen);
void proto_engine_free(ProtoEngine *e); /* asks it to quit, then ends it */
const char *proto_engine_name(const ProtoEngine *e);
bool proto_engine_alive(const ProtoEngine *e);
/* Can it play VARIANT (one of ours)? */
bool proto_engine_supports(const ProtoEngine *e, const char *variant);

/* Starts a game of VARIANT from REF's start position with the moves REF
 * has already (an opening). False when the engine does not answer. */
bool proto_engine_new_game(ProtoEngine *e, Game *ref, const ProtoTimeControl *tc, char *err,
                           size_t errlen);
/* Asks for a move in REF's position; CLOCK_MS is each side's time left.
 * Waits until DEADLINE (proto_now_ms time). */
ProtoEngineEvent proto_engine_think(ProtoEngine *e, Game *ref, const int clock_ms[2],
                                    int64_t deadline, char *out, size_t len);
/* Tells the engine how the game ended (CECP "result"). */
void proto_engine_game_over(ProtoEngine *e, const char *result, const char *reason);

#endif
