/* app.h - the program `menagerie COMMAND ...`: an exact table of commands,
 * each {name, entry point, help}, dispatched by main.c.
 *
 * The app knows only its own commands (the front ends of app/, app/proto/,
 * app/tty/ and the web app). A layer above it that is linked into the same
 * binary - the lab (lab/commands.c: match, openings) - hands over a table of
 * its own with app_add_commands before main runs, from a constructor in its
 * own file, so the app never names the lab: a binary without the lab simply
 * has fewer commands. Added commands follow the app's own, in `help` and when a
 * name is looked up; help and version come last. */
#ifndef APP_H
#define APP_H

#include <stddef.h>

typedef struct {
    const char *name;
    int (*run)(int argc, char **argv); /* argv[0] is the command's name */
    const char *help;                  /* one line for `help`, NULL = not listed */
} AppCommand;

/* Adds the N commands of TABLE (kept, not copied). Call before main runs,
 * at most APP_MAX_TABLES times. */
#define APP_MAX_TABLES 4
void app_add_commands(const AppCommand *table, size_t n);

#endif
