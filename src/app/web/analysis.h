/* analysis.h - the engine's best lines for any position of a saved game, on demand,
 * each in a thread of its own on a private copy (analysis.c tells how). A WebAnalysis
 * is the table of those searches with its locks; the server makes one beside its
 * games and hands it to the routes. Below it are the study routes (a game as saved),
 * the games and the replies; api.c routes to it. */
#ifndef WEB_ANALYSIS_H
#define WEB_ANALYSIS_H

#include "app/web/games/registry.h"
#include "app/web/reply.h"

typedef struct WebAnalysis WebAnalysis;

WebAnalysis *web_analysis_new(WebGames *games);
void web_analysis_start(WebAnalysis *an, const char *id, const cJSON *body,
                        WebReply *out); /* {ply?, movetime_ms?} */
void web_analysis_get(WebAnalysis *an, const char *id, WebReply *out);
void web_analysis_close(WebAnalysis *an); /* stops and waits for every analysis, frees */

#endif
