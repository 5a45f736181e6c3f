/* store.c - the web app's data folder: one file per game, DIR/ID.pgn for chess
 * games and DIR/ID.sgn for the mancala, written whole after every change.
 *
 * Both are engine_export text: PGN tag pairs and numbered moves; the mancala's FEN
 * tag holds its position text and its moves are Slangenspel move texts (3+, 12-x,
 * S5+, pass). Tags named Web... keep who plays which side and how the engine plays;
 * a Result tag that the rules do not give (resignation, agreed draw) is kept with
 * its Termination tag.
 *
 * A write goes to ID.pgn.tmp, is flushed to the disk, renamed over ID.pgn, and the
 * folder is flushed too, so a stop at any moment leaves the old or the new file.
 * At start the folder must be writable; *.tmp files left by a stop are removed; a
 * file that cannot be read, or does not end in a game termination marker (cut
 * short), is left alone and listed with its reason (web_store_skipped). The folder's
 * name and those files are the WebStore's. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/web/games/store.h"

int web_store_status(int err) {
    return err == ENOSPC || err == EDQUOT ? 507 : 500;
}

static const char *ext_of(GameKind kind) {
    return kind == KIND_MANCALA ? "sgn" : "pgn";
}

/* ---- writing ---- */

char *web_store_text(WebGame *w) {
    char date[32], created[32], level[16], movetime[16], players[32], white[48], black[48];
    struct tm tm;
    localtime_r(&w->created, &tm);
    strftime(date, sizeof date, "%Y.%m.%d", &tm);
    snprintf(created, sizeof created, "%lld", (long long)w->created);
    snprintf(level, sizeof level, "%d", w->opt.level);
    snprintf(movetime, sizeof movetime, "%d", w->opt.movetime_ms);
    snprintf(players, sizeof players, "%s %s", web_player_name(w->opt.player[0]),
             web_player_name(w->opt.player[1]));
    for (int s = 0; s < 2; s++)
        snprintf(s ? black : white, sizeof white, "%s",
                 w->online                        ? (w->seat[s].held ? w->seat[s].name : "?")
                 : w->opt.player[s] == WEB_ENGINE ? "Menagerie"
                                                  : "Human");
    const char *tags[40] = {"Event",       "Menagerie web game",
                            "Site",        "Menagerie",
                            "Date",        date,
                            "White",       white,
                            "Black",       black,
                            "WebId",       w->id,
                            "WebPlayers",  players,
                            "WebLevel",    level,
                            "WebMoveTime", movetime,
                            "WebCreated",  created};
    int nt = 20;
    char clock[48], left[48];
    if (w->clock.base_ms) { /* Clock: base and increment, and the time left at this turn */
        snprintf(clock, sizeof clock, "%d+%d", w->clock.base_ms, w->clock.inc_ms);
        snprintf(left, sizeof left, "%lld %lld", (long long)w->clock.left[0],
                 (long long)w->clock.left[1]);
        tags[nt++] = "WebClock", tags[nt++] = clock;
        tags[nt++] = "WebClockLeft", tags[nt++] = left;
    }
    bool forced = engine_result(w->g).kind == RESULT_NONE && w->forced != RESULT_NONE;
    if (forced) { /* the rules see no result: the forced one */
        tags[nt++] = "Termination";
        tags[nt++] = w->forced_reason;
        tags[nt++] = "Result";
        tags[nt++] = web_result_token(w->forced);
    }
    if (w->aborted) { /* ended before it began: no result */
        tags[nt++] = "Termination";
        tags[nt++] = "abandoned";
        tags[nt++] = "WebAborted";
        tags[nt++] = w->forced_reason;
    }
    tags[nt] = NULL;
    for (size_t len = 16384; len <= (64u << 20); len *= 2) {
        char *buf = malloc(len);
        if (!buf)
            abort();
        if (engine_export(w->g, tags, buf, len) >= 0)
            return buf;
        free(buf);
    }
    return NULL;
}

static bool sync_dir(const WebStore *st) {
    int fd = open(st->dir, O_RDONLY | O_DIRECTORY);
    if (fd < 0)
        return false;
    bool ok = fsync(fd) == 0;
    int code = errno;
    close(fd);
    errno = code;
    return ok;
}

static bool fail_with(char *err, size_t errlen, const char *what, int code) {
    snprintf(err, errlen, "%s: %s", what, strerror(code));
    errno = code;
    return false;
}

bool web_store_write(const WebStore *st, const char *id, GameKind kind, const char *text, char *err,
                     size_t errlen) {
    char path[2200], tmp[2300];
    snprintf(path, sizeof path, "%s/%s.%s", st->dir, id, ext_of(kind));
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    // Step 1. The whole text into the temporary file, flushed to the disk.
    FILE *f = fopen(tmp, "w");
    if (!f)
        return fail_with(err, errlen, "could not save the game", errno);
    size_t len = strlen(text);
    bool ok = fwrite(text, 1, len, f) == len && fflush(f) == 0 && fsync(fileno(f)) == 0;
    int code = errno;
    if (fclose(f) != 0 && ok)
        ok = false, code = errno;
    // Step 2. Over the old file, then the folder's entry flushed too.
    if (ok && rename(tmp, path) != 0)
        ok = false, code = errno;
    if (!ok) {
        unlink(tmp);
        return fail_with(err, errlen, "could not save the game", code);
    }
    if (!sync_dir(st))
        return fail_with(err, errlen, "could not flush the data folder", errno);
    return true;
}

bool web_store_remove(const WebStore *st, const char *id, GameKind kind, char *err, size_t errlen) {
    char path[2200];
    snprintf(path, sizeof path, "%s/%s.%s", st->dir, id, ext_of(kind));
    if (unlink(path) != 0 && errno != ENOENT)
        return fail_with(err, errlen, "could not delete the saved game", errno);
    if (!sync_dir(st))
        return fail_with(err, errlen, "could not flush the data folder", errno);
    return true;
}

bool web_store_commit(const WebStore *st, WebGame *w, WebError *e) {
    char err[ENGINE_ERR_LEN];
    char *text = web_store_text(w);
    if (!text) {
        web_set_err(e, 500, "the game is too long to save");
        return false;
    }
    w->busy = true;
    pthread_mutex_unlock(&w->lock);
    bool ok = web_store_write(st, w->id, w->info.kind, text, err, sizeof err);
    int code = errno;
    free(text);
    pthread_mutex_lock(&w->lock);
    w->busy = false;
    pthread_cond_broadcast(&w->idle);
    if (ok) {
        w->updated = time(NULL);
        web_store_changed(st, w);
    } else {
        web_set_err(e, web_store_status(code), err);
    }
    return ok;
}

void web_store_changed(const WebStore *st, WebGame *w) {
    if (st->changed)
        st->changed(st->changed_ctx, w);
}

/* ---- the folder ---- */

/* mkdir -p */
static bool make_dirs(const char *dir) {
    char p[2048];
    snprintf(p, sizeof p, "%s", dir);
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = 0;
            if (mkdir(p, 0777) != 0 && errno != EEXIST)
                return false;
            *s = '/';
        }
    return mkdir(p, 0777) == 0 || errno == EEXIST;
}

/* ID.pgn, ID.sgn; with tmp, ID.pgn.tmp and ID.sgn.tmp */
static bool game_file(const char *n, bool tmp) {
    size_t want = tmp ? 20 : 16;
    return strlen(n) == want && web_id_valid(n, WEB_ID_LEN - 1) &&
           (!strncmp(n + 12, ".pgn", 4) || !strncmp(n + 12, ".sgn", 4)) &&
           (!tmp || !strcmp(n + 16, ".tmp"));
}

bool web_store_open(WebStore *st, const char *dir, char *err, size_t errlen) {
    char *datadir = st->dir;
    st->nskipped = 0;
    if (strlen(dir) >= sizeof st->dir - 40) {
        snprintf(err, errlen, "data folder name too long");
        return false;
    }
    snprintf(datadir, sizeof st->dir, "%s", dir);
    size_t l = strlen(datadir);
    while (l > 1 && datadir[l - 1] == '/')
        datadir[--l] = 0;
    if (!make_dirs(datadir)) {
        snprintf(err, errlen, "cannot make the data folder %s: %s", datadir, strerror(errno));
        return false;
    }
    // Step 1. The folder must take a file: write, flush and remove one.
    char probe[2200];
    snprintf(probe, sizeof probe, "%s/.write-test-%ld", datadir, (long)getpid());
    FILE *f = fopen(probe, "w");
    bool ok = f && fputs("menagerie\n", f) >= 0 && fflush(f) == 0 && fsync(fileno(f)) == 0;
    int code = errno;
    if (f && fclose(f) != 0 && ok)
        ok = false, code = errno;
    if (f)
        unlink(probe);
    if (!ok) {
        snprintf(err, errlen, "cannot write in the data folder %s: %s", datadir, strerror(code));
        return false;
    }
    // Step 2. Temporary files of writes that a stop cut short.
    DIR *d = opendir(datadir);
    if (!d) {
        snprintf(err, errlen, "cannot read the data folder %s: %s", datadir, strerror(errno));
        return false;
    }
    struct dirent *de;
    while ((de = readdir(d)))
        if (game_file(de->d_name, true)) {
            char path[2400];
            snprintf(path, sizeof path, "%s/%s", datadir, de->d_name);
            if (unlink(path) == 0)
                fprintf(stderr, "menagerie serve: removed %s (a save cut short)\n", path);
        }
    closedir(d);
    return true;
}

/* ---- reading ---- */

static void skip(WebStore *st, const char *name, const char *why) {
    fprintf(stderr, "menagerie serve: not loading %s/%s: %s\n", st->dir, name, why);
    if (st->nskipped == WEB_STORE_SKIPPED)
        return;
    int n = st->nskipped++;
    snprintf(st->skipped[n].file, sizeof st->skipped[n].file, "%s", name);
    snprintf(st->skipped[n].error, sizeof st->skipped[n].error, "%s", why);
}

cJSON *web_store_skipped(const WebStore *st) {
    cJSON *arr = cJSON_CreateArray();
    for (int i = 0; i < st->nskipped; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "file", st->skipped[i].file);
        cJSON_AddStringToObject(o, "error", st->skipped[i].error);
        cJSON_AddItemToArray(arr, o);
    }
    return arr;
}

/* The value of tag NAME in PGN text, "" when absent. */
static void tag_of(const char *text, const char *name, char *out, size_t len) {
    char key[64];
    snprintf(key, sizeof key, "[%s \"", name);
    out[0] = 0;
    const char *p = strstr(text, key);
    if (!p)
        return;
    p += strlen(key);
    size_t n = 0;
    while (*p && *p != '"' && *p != '\n' && n + 1 < len) {
        if (*p == '\\' && p[1])
            p++;
        out[n++] = *p++;
    }
    out[n] = 0;
}

/* Whether the text ends in the termination marker its Result tag names: a file
 * cut short ends anywhere else. */
static bool complete(const char *text) {
    char result[16];
    tag_of(text, "Result", result, sizeof result);
    size_t n = strlen(text), rl = strlen(result);
    while (n > 0 && (text[n - 1] == '\n' || text[n - 1] == '\r' || text[n - 1] == ' '))
        n--;
    return rl > 0 && n > rl && !strncmp(text + n - rl, result, rl) &&
           strchr(" \n)}", text[n - rl - 1]);
}

static void read_options(const char *text, WebOptions *opt) {
    char v[128];
    tag_of(text, "WebPlayers", v, sizeof v);
    if (v[0]) {
        char a[16] = "", b[16] = "";
        sscanf(v, "%15s %15s", a, b);
        opt->player[0] = !strcmp(a, "engine") ? WEB_ENGINE : WEB_HUMAN;
        opt->player[1] = !strcmp(b, "engine") ? WEB_ENGINE : WEB_HUMAN;
    }
    tag_of(text, "WebLevel", v, sizeof v);
    if (atoi(v) >= 1 && atoi(v) <= 20)
        opt->level = atoi(v);
    tag_of(text, "WebMoveTime", v, sizeof v);
    if (atoi(v) >= 50 && atoi(v) <= 600000)
        opt->movetime_ms = atoi(v);
    int base = 0, inc = 0;
    tag_of(text, "WebClock", v, sizeof v);
    if (sscanf(v, "%d+%d", &base, &inc) == 2 && base > 0 && base <= 10800000 && inc >= 0 &&
        inc <= 600000)
        opt->clock_ms = base, opt->inc_ms = inc; /* Clock */
}

static void load_file(WebStore *store, const char *name, bool (*add)(void *ctx, WebGame *w),
                      void *ctx) {
    // Step 1. The whole file, if it is of a sane size and complete.
    char path[2400];
    snprintf(path, sizeof path, "%s/%s", store->dir, name);
    FILE *f = fopen(path, "rb");
    struct stat st;
    if (!f || fstat(fileno(f), &st) != 0 || st.st_size > 8 * WEB_MAX_BODY) {
        skip(store, name, f ? "too large" : strerror(errno));
        if (f)
            fclose(f);
        return;
    }
    char *text = malloc((size_t)st.st_size + 1);
    if (!text)
        abort();
    size_t n = fread(text, 1, (size_t)st.st_size, f);
    text[n] = 0;
    bool read_ok = !ferror(f) && n == (size_t)st.st_size;
    fclose(f);
    if (!read_ok || strlen(text) != n || !complete(text)) {
        skip(store, name,
             !read_ok ? "could not read it whole"
                      : "cut short or damaged: no result marker at the end");
        free(text);
        return;
    }
    // Step 2. The game, then the web app's tags.
    char err[ENGINE_ERR_LEN], v[128];
    Game *g = engine_import(text, err, sizeof err);
    if (!g) {
        skip(store, name, err);
        free(text);
        return;
    }
    WebOptions opt = {{WEB_HUMAN, WEB_ENGINE}, 8, 1000, 0, 0};
    read_options(text, &opt);
    WebGame *w = web_game_new(g, &opt);
    long long left0 = 0, left1 = 0;
    tag_of(text, "WebClockLeft", v, sizeof v);
    if (opt.clock_ms && sscanf(v, "%lld %lld", &left0, &left1) == 2) /* Clock: where it stood */
        web_clock_init(&w->clock, opt.clock_ms, opt.inc_ms, left0 > 0 ? left0 : 1,
                       left1 > 0 ? left1 : 1);
    snprintf(w->id, sizeof w->id, "%.12s", name);
    tag_of(text, "WebCreated", v, sizeof v);
    w->created = atoll(v) > 0 ? (time_t)atoll(v) : st.st_mtime;
    w->updated = st.st_mtime;
    tag_of(text, "WebAborted", v, sizeof v);
    if (v[0]) {
        w->aborted = true;
        snprintf(w->forced_reason, sizeof w->forced_reason, "%s", v);
    } else if (engine_result(g).kind == RESULT_NONE) {
        tag_of(text, "Result", v, sizeof v);
        ResultKind k = !strcmp(v, "1-0")       ? RESULT_FIRST_WINS
                       : !strcmp(v, "0-1")     ? RESULT_SECOND_WINS
                       : !strcmp(v, "1/2-1/2") ? RESULT_DRAW
                                               : RESULT_NONE;
        if (k != RESULT_NONE) {
            w->forced = k;
            tag_of(text, "Termination", w->forced_reason, sizeof w->forced_reason);
            if (!w->forced_reason[0])
                snprintf(w->forced_reason, sizeof w->forced_reason, "game ended");
        }
    }
    free(text);
    // Step 3. Listed, unless the registry is full or has it already.
    if (!add(ctx, w)) {
        skip(store, name, "too many games, or a second file for the same id");
        web_game_free(w);
    }
}

void web_store_load(WebStore *st, bool (*add)(void *ctx, WebGame *w), void *ctx) {
    st->nskipped = 0;
    DIR *d = opendir(st->dir);
    if (!d)
        return;
    struct dirent *de;
    while ((de = readdir(d)))
        if (game_file(de->d_name, false))
            load_file(st, de->d_name, add, ctx);
    closedir(d);
}
