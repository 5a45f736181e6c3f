/* lab.h - the lab's commands of the menagerie binary: the match tool and
 * the maker of its opening sets. The lab sits above the product: it uses
 * the engine API (engine/engine.h) and the app's protocol line io
 * (app/proto/proto_io.h), and hands its commands to the app's table
 * (lab/commands.c, app/app.h); nothing under src/ names the lab. The
 * tuners (lab/tune/) are programs of their own. Each returns a process
 * exit code. */
#ifndef LAB_H
#define LAB_H

int match_main(int argc, char **argv);    /* lab/match.c: engine matches */
int openings_main(int argc, char **argv); /* lab/openings.c: opening sets for match */
int datagen_main(int argc, char **argv);  /* lab/datagen.c: training data for the networks */

#endif
