/* cli.h - command-line tools over the engine API: variants, perft, divide.
 * Each returns a process exit code; main.c dispatches to them by name.
 * cli_number reads the numbers of the other commands' options. */
#ifndef CLI_H
#define CLI_H

int cli_variants(int argc, char **argv);
int cli_perft(int argc, char **argv);
int cli_divide(int argc, char **argv);

/* A whole decimal number from MIN to MAX, or -1. */
long cli_number(const char *s, long min, long max);

#endif
