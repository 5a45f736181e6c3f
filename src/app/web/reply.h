/* reply.h - one HTTP reply of the web app and the JSON answers every route gives
 * (errors: {"error": "...", "status": N}). The bottom of the server's side: it knows
 * the games' WebError, nothing else. server.c sends what the layers above fill in. */
#ifndef WEB_REPLY_H
#define WEB_REPLY_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "app/web/games/game.h"

/* One reply: status, body (malloc'd, freed by server.c) and its type. */
typedef struct {
    int status;
    char *body;
    size_t len;
    const char *type;
    char filename[64]; /* non-empty: sent as an attachment of this name */
    char session[72];  /* non-empty: a new session secret, sent as the session cookie */
} WebReply;

void web_reply_error(WebReply *out, int status, const char *msg);
void web_reply_fail(WebReply *out, const WebError *e);       /* the error reply of e */
void web_reply_json(WebReply *out, int status, cJSON *json); /* takes json */

#endif
