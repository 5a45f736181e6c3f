/* people.h - the API routes of the site's people: registering, logging in and out
 * (a browser session bound to an account in the sessions table), who a request's
 * session is, the player page (ratings per game, their history, recent games), and
 * the rating of a rated game's end (the store's hook, inside the commit that ends
 * the game). A WebPeople owns the login rate limits; api.c makes one, routes to
 * these and calls web_people_identify at the start of every request. Below it are
 * the games (for their store's database and list entries), the account tables,
 * the password and rating modules and the replies. */
#ifndef WEB_PEOPLE_H
#define WEB_PEOPLE_H

#include "app/web/games/registry.h"
#include "app/web/online/limits.h"
#include "app/web/reply.h"

typedef struct {
    WebGames *games;
    WebLimit *login_addr, *login_name; /* login attempts per client address, per name */
} WebPeople;

/* Who asks, as these routes need it. */
typedef struct {
    const WebActor *actor;
    const char *addr;
    bool limited; /* the address counts against the limits */
} WebPerson;

/* Makes the limits and sets the store's rating hook (games' store open). */
void web_people_init(WebPeople *p, WebGames *games);
void web_people_free(WebPeople *p);
/* Fills a->account and a->name from the session's row (a guest: 0, ""). The row is
 * read every time, so a login or logout in another server process counts at once. */
void web_people_identify(WebPeople *p, WebActor *a);

/* POST /api/register {name, password}, POST /api/login {name, password}: the
 * password field of body is wiped after use. */
void web_people_register(WebPeople *p, const WebPerson *who, cJSON *body, WebReply *out);
void web_people_login(WebPeople *p, const WebPerson *who, cJSON *body, WebReply *out);
void web_people_logout(WebPeople *p, const WebPerson *who, WebReply *out);
void web_people_me(WebPeople *p, const WebPerson *who, WebReply *out); /* GET /api/me */
/* GET /api/players/NAME */
void web_people_player(WebPeople *p, const char *name, WebReply *out);
/* The list entries of the games with a seat of NAME's account (or, for a name
 * with no account, a guest seat of that name), newest first, at most max. */
cJSON *web_people_games(WebPeople *p, const char *name, int max);

/* The Glicko-2 update of a rated game's end, inside the store's transaction (the
 * store's rated_end hook; ctx unused). */
bool web_people_rate(void *ctx, WebDb *db, const WebRatedEnd *end, WebDbErr *e);

#endif
