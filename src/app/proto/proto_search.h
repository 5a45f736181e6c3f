/* proto_search.h - the protocol front ends' view of an EngineSearch: a tag
 * saying what the search is for (think, ponder, analyse), and one wait for
 * an input line or the end of the search.
 *
 * The engine service (engine.h) owns the search thread, the game copy, the
 * stop, the ponder hit and the deadlines. The input thread is the only one
 * that changes front-end state: it waits on stdin and on the search at once
 * (proto_search_wait) and collects a finished search with
 * proto_search_finish. Info lines go to a callback on the search thread. */
#ifndef PROTO_SEARCH_H
#define PROTO_SEARCH_H

#include <stdbool.h>
#include <stdint.h>

#include "app/proto/proto_io.h"
#include "engine/engine.h"

typedef struct ProtoSearch ProtoSearch;

typedef struct {
    EngineResult r;
    int tag; /* what proto_search_start was given */
} ProtoResult;

typedef void (*ProtoInfoFn)(const SearchInfo *info, int tag, void *ud);

ProtoSearch *proto_search_new(void);
void proto_search_free(ProtoSearch *s); /* aborts a running search */

/* engine_search_start with a tag, and INFO called with it. False when the
 * search cannot start (EXTRA illegal, a search running). */
bool proto_search_start(ProtoSearch *s, Game *g, const char *extra, const SearchLimits *lim,
                        bool ponder, ProtoInfoFn info, void *ud, int tag);
bool proto_search_running(const ProtoSearch *s);
int proto_search_tag(const ProtoSearch *s); /* -1 when idle */
/* The engine service under it: stop, ponder hit, lines, elapsed time. */
EngineSearch *proto_search_engine(ProtoSearch *s);
/* Ends the running search and drops its result. */
void proto_search_abort(ProtoSearch *s);
/* Collects a finished search: true and OUT filled when one has finished
 * (false when none has yet, or none runs). */
bool proto_search_finish(ProtoSearch *s, ProtoResult *out);

typedef enum { PROTO_EV_LINE, PROTO_EV_DONE, PROTO_EV_EOF } ProtoEvent;
/* Waits for an input line (PROTO_EV_LINE: take it with proto_lines_take),
 * a finished search (PROTO_EV_DONE: collect with proto_search_finish) or
 * the end of input. */
ProtoEvent proto_search_wait(ProtoSearch *s, ProtoLines *in);

/* Blocks until the running search has finished (at end of input). */
void proto_search_wait_done(ProtoSearch *s);

#endif
