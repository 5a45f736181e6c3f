/* frontends.h - the entry point of each front end, dispatched by main.c.
 * Every front end is a thin adapter over engine/engine.h; none calls
 * another. Each returns a process exit code. */
#ifndef FRONTENDS_H
#define FRONTENDS_H

int play_main(int argc, char **argv);   /* front/play.c: terminal game */
int web_main(int argc, char **argv);    /* front/web.c: `serve`, the web app */
int xboard_main(int argc, char **argv); /* front/xboard.c: CECP v2 */
int uci_main(int argc, char **argv);    /* front/uci.c */
int match_main(int argc, char **argv);  /* front/match.c: engine matches */
int bench_main(int argc, char **argv);  /* front/bench.c: search signature */
int openings_main(int argc, char **argv); /* front/openings.c: opening sets for match */
int analyse_main(int argc, char **argv);  /* front/analyse.c: one position, for scripts */
int egdb_main(int argc, char **argv);     /* front/analyse.c: endgame databases */

#endif
