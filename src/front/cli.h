/* cli.h - command-line tools over the engine API: variants, perft, divide.
 * Each returns a process exit code; main.c dispatches to them by name. */
#ifndef CLI_H
#define CLI_H

int cli_variants(int argc, char **argv);
int cli_perft(int argc, char **argv);
int cli_divide(int argc, char **argv);

#endif
