/* commands.c - hands the lab's commands (lab.h) to the app's command table
 * (app/app.h) when the program starts, before main runs. */
#include "app/app.h"
#include "lab/lab.h"

static const AppCommand lab_commands[] = {
    {"match", match_main, "play engine matches, with SPRT (docs/development.md)"},
    {"openings", openings_main, "VARIANT [options]: make an opening set for match"},
    {"datagen", datagen_main, "VARIANT --out FILE [options]: self-play positions for a network"},
};

__attribute__((constructor)) static void lab_register(void) {
    app_add_commands(lab_commands, sizeof lab_commands / sizeof lab_commands[0]);
}
