/* study.h - API routes for looking at games rather than playing them: every position
 * of a game (the review), piece diagrams, the board editor's check of a position, and
 * what each engine level means. Below it are the replies and the games (for a game's
 * saved text); api.c routes to these, analysis.c reads saved games through them. */
#ifndef WEB_STUDY_H
#define WEB_STUDY_H

#include "app/web/games/registry.h"
#include "app/web/reply.h"

/* The game ID as saved, read back into a Game of its own; NULL with the error
 * reply written. */
Game *web_study_saved(WebGames *gs, const char *id, WebReply *out);
void web_study_positions(WebGames *gs, const char *id, WebReply *out);
void web_study_diagram(const cJSON *body, WebReply *out);
void web_study_check(const cJSON *body, WebReply *out);
void web_study_levels(WebReply *out); /* GET /api/levels */

#endif
