/* frontends.h - the entry point of each front end of the app, dispatched by
 * main.c. Every front end is a thin adapter over engine/engine.h; none calls
 * another. Each returns a process exit code. */
#ifndef FRONTENDS_H
#define FRONTENDS_H

int play_main(int argc, char **argv);    /* app/tty/play.c: terminal game */
int web_main(int argc, char **argv);     /* `serve`, the web app */
int xboard_main(int argc, char **argv);  /* app/proto/xboard.c: CECP v2 */
int uci_main(int argc, char **argv);     /* app/proto/uci.c */
int bench_main(int argc, char **argv);   /* app/bench.c: search signature */
int analyse_main(int argc, char **argv); /* app/analyse.c: one position, for scripts */
int egdb_main(int argc, char **argv);    /* app/egdb_cmd.c: endgame databases */

#endif
