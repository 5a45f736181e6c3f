/* main.c - `menagerie COMMAND ...`: the app's table of commands, each a
 * thin front end over the engine API, and those added from above (app.h).
 * The version comes from the build (MENAGERIE_VERSION, taken from
 * debian/changelog by the Makefile). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/app.h"
#include "app/cli.h"
#include "app/datadir.h"
#include "app/frontends.h"
#include "engine/engine.h"

#ifndef MENAGERIE_VERSION
#define MENAGERIE_VERSION "unknown"
#endif

static int cmd_help(int argc, char **argv);

static int cmd_version(int argc, char **argv) {
    (void)argc, (void)argv;
    printf("menagerie %s\n", MENAGERIE_VERSION);
    return 0;
}

static const AppCommand commands[] = {
    {"serve", web_main, "[--port N] [--host ADDR]: the web app (default 127.0.0.1:8080)"},
    {"play", play_main, "GAME [options]: play in the terminal"},
    {"xboard", xboard_main, "speak XBoard/CECP v2 on stdin/stdout"},
    {"uci", uci_main, "speak UCI on stdin/stdout"},
    {"bench", bench_main, "search a fixed set of positions; prints the node signature"},
    {"analyse", analyse_main,
     "GAME [--fen POS] [--movetime MS | --depth N] [--json]: search one position"},
    {"egdb", egdb_main, "build|check [--eggs N] [--rules R]: Slangenspel endgame databases"},
    {"variants", cli_variants, "list the games and their set-ups"},
    {"perft", cli_perft, "VARIANT DEPTH [--fen FEN]: count leaf nodes"},
    {"divide", cli_divide, "VARIANT DEPTH [--fen FEN]: leaf nodes per root move"},
};

static const AppCommand about[] = {
    {"help", cmd_help, "this text (also --help, -h)"},
    {"--help", cmd_help, NULL},
    {"-h", cmd_help, NULL},
    {"--version", cmd_version, "print the version"},
};

/* The app's own commands, those added (app_add_commands), then help and
 * version. */
static struct {
    const AppCommand *cmd;
    size_t n;
} tables[2 + APP_MAX_TABLES] = {{commands, sizeof commands / sizeof commands[0]},
                                {about, sizeof about / sizeof about[0]}};
static size_t ntables = 2;

void app_add_commands(const AppCommand *table, size_t n) {
    if (ntables == sizeof tables / sizeof tables[0]) {
        fprintf(stderr, "menagerie: more than %d command tables\n", APP_MAX_TABLES);
        abort();
    }
    tables[ntables] = tables[ntables - 1]; /* help and version stay last */
    tables[ntables - 1].cmd = table;
    tables[ntables - 1].n = n;
    ntables++;
}

static const AppCommand *find_command(const char *name) {
    for (size_t t = 0; t < ntables; t++)
        for (size_t i = 0; i < tables[t].n; i++)
            if (!strcmp(name, tables[t].cmd[i].name))
                return &tables[t].cmd[i];
    return NULL;
}

static int cmd_help(int argc, char **argv) {
    (void)argc, (void)argv;
    printf("Menagerie plays Snake vs. Mongoose, Team-Mate Chess, Diamondback Chess,\n"
           "Hannibal Chess and the snake mancala Slangenspel.\n\nusage: menagerie COMMAND ...\n");
    for (size_t t = 0; t < ntables; t++)
        for (size_t i = 0; i < tables[t].n; i++)
            if (tables[t].cmd[i].help)
                printf("  %-10s %s\n", tables[t].cmd[i].name, tables[t].cmd[i].help);
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
    const AppCommand *c = find_command(argv[1]);
    if (c)
        return c->run(argc - 1, argv + 1);
    fprintf(stderr, "menagerie: unknown command \"%s\" (try `menagerie help`)\n", argv[1]);
    return 2;
}
