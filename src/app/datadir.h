/* datadir.h - where games and endgame tables are kept when no --data DIR
 * says: ./data for a binary run from its source tree (`make run`, the
 * tests), else the user's data folder, as an installed game keeps it
 * ($XDG_DATA_HOME/menagerie, else ~/.local/share/menagerie). A binary is in
 * its source tree when its own folder, or the one two above it
 * (build/CFG/menagerie), holds the Makefile and src/engine/engine.h. */
#ifndef DATADIR_H
#define DATADIR_H

/* The default data folder (made on first use by whoever writes there). */
const char *datadir_default(void);

#endif
