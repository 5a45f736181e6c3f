/* api.h - the JSON API under /api/: an exact route table, each route a handler that
 * reads its JSON body and calls the games, the study routes or the analysis. A WebApi
 * is what the handlers reach: the games, the analysis table and the list of variants
 * (made on first use). The server makes one and calls web_api_handle for every
 * request under /api/; nothing below calls it. */
#ifndef WEB_API_H
#define WEB_API_H

#include "app/web/analysis.h"
#include "app/web/events.h"
#include "app/web/games/registry.h"
#include "app/web/online/limits.h"
#include "app/web/online/lobby.h"
#include "app/web/people.h"
#include "app/web/reply.h"

typedef struct {
    WebGames *games;
    WebAnalysis *analysis;
    WebEvents *events;    /* who is connected, for claims (NULL: nobody is) */
    WebLobby *lobby;      /* the open seeks */
    WebLimit *seek_limit; /* seeks and online games made, per client address */
    WebPeople people;     /* accounts: the login limits */
    pthread_mutex_t variants_lock;
    char *variants_text; /* GET /api/variants, made once under variants_lock */
} WebApi;

/* Who asks: the browser's session as the games see it (from its cookie; server.c
 * makes one when none came) and the client's address. */
typedef struct {
    WebActor actor;
    char addr[64];
    bool limited; /* its address counts against the limits (not this machine's own) */
} WebClient;

void web_api_init(WebApi *api, WebGames *games, WebAnalysis *analysis, WebEvents *events,
                  WebLobby *lobby);
/* The lobby as viewer sees it: {version, seeks, games (the online games being played)}. */
cJSON *web_api_lobby(WebApi *api, const WebActor *viewer);
void web_api_free(WebApi *api);
/* Fills a's account and name from its session's row (the event streams' actors). */
void web_api_identify(WebApi *api, WebActor *a);
/* Answers one request from who: method (HEAD as GET), the address, the body. */
void web_api_handle(WebApi *api, const WebClient *who, const char *method, const char *url,
                    const char *body, size_t len, WebReply *out);

#endif
