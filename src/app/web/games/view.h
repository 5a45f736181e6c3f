/* view.h - JSON views of a web game: its state (everything the page draws), its legal
 * moves and its entry in the list of games. Each is called with the game's lock held
 * and only reads the game; below it are only the game object and its clock. */
#ifndef WEB_VIEW_H
#define WEB_VIEW_H

#include "app/web/games/game.h"

cJSON *web_view_state(WebGame *w);
void web_view_moves(WebGame *w, cJSON *arr);
cJSON *web_view_entry(WebGame *w);
/* Adds "board" (squares, gates, hands, check) for a chess-like game. */
void web_view_board(cJSON *o, const Game *g);

#endif
