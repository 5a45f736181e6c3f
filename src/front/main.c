/* main.c - `menagerie COMMAND ...`: an exact table of commands, each a
 * thin front end over the engine API. The version comes from the build
 * (MENAGERIE_VERSION, taken from debian/changelog by the Makefile). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "engine/engine.h"
#include "front/cli.h"
#include "front/datadir.h"
#include "front/frontends.h"

typedef struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *help;
} Command;

#ifndef MENAGERIE_VERSION
#define MENAGERIE_VERSION "unknown"
#endif

static int cmd_help(int argc, char **argv);

static int cmd_version(int argc, char **argv) {
    (void)argc, (void)argv;
    printf("menagerie %s\n", MENAGERIE_VERSION);
    return 0;
}

static const Command commands[] = {
    {"serve", web_main, "[--port N] [--host ADDR]: the web app (default 127.0.0.1:8080)"},
    {"play", play_main, "GAME [options]: play in the terminal"},
    {"xboard", xboard_main, "speak XBoard/CECP v2 on stdin/stdout"},
    {"uci", uci_main, "speak UCI on stdin/stdout"},
    {"match", match_main, "play engine matches (see README)"},
    {"openings", openings_main, "VARIANT [options]: make an opening set for match"},
    {"bench", bench_main, "search a fixed set of positions; prints the node signature"},
    {"analyse", analyse_main,
     "GAME [--fen POS] [--movetime MS | --depth N] [--json]: search one position"},
    {"egdb", egdb_main, "build|check [--eggs N] [--rules R]: Slangenspel endgame databases"},
    {"variants", cli_variants, "list the games and their set-ups"},
    {"perft", cli_perft, "VARIANT DEPTH [--fen FEN]: count leaf nodes"},
    {"divide", cli_divide, "VARIANT DEPTH [--fen FEN]: leaf nodes per root move"},
    {"help", cmd_help, "this text (also --help, -h)"},
    {"--help", cmd_help, NULL},
    {"-h", cmd_help, NULL},
    {"--version", cmd_version, "print the version"},
};

static int cmd_help(int argc, char **argv) {
    (void)argc, (void)argv;
    printf("Menagerie plays Snake vs. Mongoose, Team-Mate Chess, Diamondback Chess,\n"
           "Hannibal Chess and the snake mancala Slangenspel.\n\nusage: menagerie COMMAND ...\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (commands[i].help)
            printf("  %-10s %s\n", commands[i].name, commands[i].help);
    printf("\nA user's variant file replaces VARIANT with --variant-file PATH.\n");
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        /* A GUI that starts us without arguments says "xboard", "protover N"
         * or "uci" first: read that line unbuffered and hand it on. */
        char line[256];
        size_t n = 0;
        char c;
        if (isatty(STDIN_FILENO))
            return cmd_help(argc, argv);
        while (n + 1 < sizeof line && read(STDIN_FILENO, &c, 1) == 1 && c != '\n')
            if (c != '\r')
                line[n++] = c;
        line[n] = 0;
        char *args[] = {argv[0], line, NULL};
        if (!strcmp(line, "xboard") || !strncmp(line, "protover ", 9))
            return xboard_main(2, (args[0] = "xboard", args));
        if (!strcmp(line, "uci"))
            return uci_main(2, (args[0] = "uci", args));
        return cmd_help(argc, argv);
    }
    /* the endgame tables' folder, unless a command's --data says */
    engine_set_data_dir(datadir_default());
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name))
            return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "menagerie: unknown command \"%s\" (try `menagerie help`)\n", argv[1]);
    return 2;
}
