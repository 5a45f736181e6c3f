/* datadir.c - the default data folder (see datadir.h). */
#include "app/datadir.h"

#include <pwd.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Is DIR a source tree of Menagerie? */
static bool source_tree(const char *dir) {
    char a[4200], b[4200];
    snprintf(a, sizeof a, "%s/Makefile", dir);
    snprintf(b, sizeof b, "%s/src/engine/engine.h", dir);
    return access(a, R_OK) == 0 && access(b, R_OK) == 0;
}

/* Does the running binary lie in a source tree (its folder or two above)? */
static bool run_from_source_tree(void) {
    char dir[4096];
    ssize_t n = readlink("/proc/self/exe", dir, sizeof dir - 1);
    if (n <= 0)
        return false;
    dir[n] = 0;
    for (int up = 0; up <= 2; up++) {
        char *slash = strrchr(dir, '/');
        if (!slash || slash == dir)
            return false;
        *slash = 0;
        if (source_tree(dir))
            return true;
    }
    return false;
}

const char *datadir_default(void) {
    static char dir[4096];
    if (dir[0])
        return dir;
    const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
    if (!home || !*home) {
        const struct passwd *pw = getpwuid(getuid());
        home = pw ? pw->pw_dir : NULL;
    }
    if (run_from_source_tree())
        snprintf(dir, sizeof dir, "data");
    else if (xdg && xdg[0] == '/') /* the XDG spec ignores a relative path */
        snprintf(dir, sizeof dir, "%s/menagerie", xdg);
    else if (home && *home)
        snprintf(dir, sizeof dir, "%s/.local/share/menagerie", home);
    else
        snprintf(dir, sizeof dir, "data");
    return dir;
}
