/* schema.h - the web app's tables, as one ordered list of migration steps
 * (web_db_migrate applies each once): the games and their seats (games/store.c),
 * accounts, sessions and ratings (db/accounts.c). A change to the schema is a new
 * step at the end, never an edit of an old one. */
#ifndef WEB_SCHEMA_H
#define WEB_SCHEMA_H

#include "app/web/db/db.h"

extern const WebDbStep web_schema[];
extern const int web_schema_steps;

#endif
