/* proto_search.h - engine_go on a thread of its own, for the protocol
 * front ends.
 *
 * A search works on a private copy of the game, so the input thread keeps
 * the real game and may read it while the search runs. The input thread is
 * the only one that changes front-end state: it waits on stdin and on the
 * search at once (proto_search_wait), and collects a finished search with
 * proto_search_finish. Info lines go to a callback on the search thread. */
#ifndef PROTO_SEARCH_H
#define PROTO_SEARCH_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/engine.h"
#include "front/proto_io.h"

typedef struct ProtoSearch ProtoSearch;

typedef struct {
    char best[ENGINE_MOVE_TEXT];   /* "" when the position has no move */
    char ponder[ENGINE_MOVE_TEXT]; /* the expected reply, "" when none */
    bool fallback;                 /* the searcher gave no move: first legal move */
    bool have_info;
    SearchInfo last; /* the last info of the search */
    int tag;         /* what proto_search_start was given */
    int64_t elapsed_ms;
} ProtoResult;

typedef void (*ProtoInfoFn)(const SearchInfo *info, int tag, void *ud);

ProtoSearch *proto_search_new(void);
void proto_search_free(ProtoSearch *s); /* aborts a running search */

/* Searches a copy of G, with EXTRA (a move text, may be NULL) played on it
 * first (pondering). TAG is the caller's label of the search. False when
 * the copy cannot be made (EXTRA illegal) or a search is running. */
bool proto_search_start(ProtoSearch *s, Game *g, const char *extra, const SearchLimits *lim,
                        ProtoInfoFn info, void *ud, int tag);
bool proto_search_running(const ProtoSearch *s);
int proto_search_tag(const ProtoSearch *s);         /* -1 when idle */
int64_t proto_search_started(const ProtoSearch *s); /* proto_now_ms() at start */
/* The latest info of the running search; false when none came yet. */
bool proto_search_last(ProtoSearch *s, SearchInfo *out);
/* Asks the running search to end soon; its result is delivered as usual. */
void proto_search_halt(ProtoSearch *s);
/* Ends the running search and drops its result. */
void proto_search_abort(ProtoSearch *s);
/* Halts the search when proto_now_ms() reaches WHEN (0 = never). */
void proto_search_set_deadline(ProtoSearch *s, int64_t when);
/* Collects a finished search: true and OUT filled when one has finished
 * (false when none has yet, or none runs). */
bool proto_search_finish(ProtoSearch *s, ProtoResult *out);

typedef enum { PROTO_EV_LINE, PROTO_EV_DONE, PROTO_EV_EOF } ProtoEvent;
/* Waits for an input line (PROTO_EV_LINE: take it with proto_lines_take),
 * a finished search (PROTO_EV_DONE: collect with proto_search_finish) or
 * the end of input, halting the search at its deadline meanwhile. */
ProtoEvent proto_search_wait(ProtoSearch *s, ProtoLines *in);

/* Blocks until the running search has finished (at end of input). */
void proto_search_wait_done(ProtoSearch *s);

/* A time budget in ms for a move from clock TIME_MS with increment INC_MS
 * and MOVESTOGO (0 = sudden death): what the front end itself spends when
 * it must decide (pondering hits, nps mode). */
int proto_budget_ms(int time_ms, int inc_ms, int movestogo);

#endif
