/* web_game.c - the web app's games: a registry of WebGame, each with its own mutex,
 * its engine worker thread and its file in the data folder.
 *
 * Locks: the registry lock may be held while taking a game's lock, never the other
 * way round. A game's reference count is atomic; the registry holds one reference
 * while the game is listed, each request and each worker thread one more.
 *
 * The engine never thinks on the game itself: a worker searches a copy (start
 * position and moves replayed) while requests keep reading the game, and plays its
 * move on the game unless the move was cancelled (undo, resignation, deletion). A few
 * games keep their copy between moves, so the engine keeps its tables; the others
 * make a new copy for each move, which bounds the memory the tables take.
 *
 * Files: DIR/ID.pgn for chess games, DIR/ID.sgn for the mancala, written whole
 * (temporary file and rename) after every change. Both are engine_export text:
 * PGN tag pairs and numbered moves; the mancala's FEN tag holds its position text
 * and its moves are Slangenspel move texts (3+, 12-x, S5+, pass). Tags named Web...
 * keep who plays which side and how the engine plays; a Result tag that the rules
 * do not give (resignation, agreed draw) is kept with its Termination tag. */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "front/web.h"

#define POS_LEN 1024

struct WebGame {
    pthread_mutex_t lock;
    pthread_cond_t idle; /* broadcast when a worker finishes */
    atomic_int refs;
    bool removed;
    char id[WEB_ID_LEN];
    Game *g;
    GameInfo info;
    WebOptions opt;
    time_t created, updated;
    time_t seen;      /* last time a page asked for the state */
    unsigned version; /* changes with every move, undo and result */
    int plies;
    /* a result the rules do not give: resignation or agreed draw */
    ResultKind forced;
    char forced_reason[64];
    char before[POS_LEN]; /* position before the last move ("" at the start) */
    /* the engine */
    bool thinking, cancel;
    Game *think; /* the engine's copy of the game: the worker's while thinking */
    int think_side, think_ply;
    bool has_info;
    SearchInfo si;
    char pv_san[600];
    int info_side, info_ply;
    bool has_eval;
    int eval_score, eval_mate, eval_depth; /* first player's view */
    bool eval_exact;
    char engine_error[200];
    WebClock clock; /* web_clock.c; base 0 = no clock */
};

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static WebGame *games[WEB_MAX_GAMES];
static int ngames;
static char datadir[2048] = "data";
static atomic_bool closing;
static atomic_int kept_copies; /* engine copies kept between moves */
#define KEEP_COPIES 6
#define ENGINE_HASH_MB 16
static pthread_mutex_t work_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t work_done = PTHREAD_COND_INITIALIZER;
static int workers;

static void set_err(WebError *e, int status, const char *msg) {
    if (!e)
        return;
    e->status = status;
    snprintf(e->msg, sizeof e->msg, "%s", msg);
}

static const char *player_name(WebPlayer p) {
    return p == WEB_ENGINE ? "engine" : "human";
}

/* ---- game helpers (game lock held) ---- */

/* The moves played, as coordinate text or SAN; *n gets the count. */
static char (*history_of(Game *g, bool san, int *n))[ENGINE_MOVE_TEXT] {
    for (int cap = 256;; cap *= 2) {
        char(*buf)[ENGINE_MOVE_TEXT] = malloc((size_t)cap * sizeof *buf);
        if (!buf)
            abort();
        int k = engine_history(g, buf, cap, san);
        if (k < cap || cap >= (1 << 17)) {
            *n = k;
            return buf;
        }
        free(buf);
    }
}

/* A copy of g: same start and moves, so the repetition rules see the same past. */
static Game *clone_game(Game *g, const GameInfo *info) {
    char initial[POS_LEN], err[ENGINE_ERR_LEN];
    engine_initial_text(g, initial, sizeof initial);
    Game *c = engine_new(info->name, initial, err, sizeof err);
    if (!c)
        return NULL;
    int n;
    char(*h)[ENGINE_MOVE_TEXT] = history_of(g, false, &n);
    for (int i = 0; i < n; i++)
        if (!engine_play(c, h[i], err, sizeof err)) {
            engine_free(c);
            c = NULL;
            break;
        }
    free(h);
    return c;
}

static void save(WebGame *w);

/* Clock: the side to move's flag has fallen; it loses, or draws when the other
 * side could not mate (game lock held). */
static void clock_flag(WebGame *w) {
    Side side = engine_side_to_move(w->g);
    if (!w->clock.base_ms || web_clock_left(&w->clock, side, true) > 0)
        return;
    w->clock.left[side] = 0;
    bool mancala = w->info.kind == KIND_MANCALA;
    const char *who = mancala ? (side ? "B" : "A") : (side ? "Black" : "White");
    const char *other = mancala ? (side ? "A" : "B") : (side ? "White" : "Black");
    if (engine_can_mate(w->g, 1 - side)) {
        w->forced = side == SIDE_FIRST ? RESULT_SECOND_WINS : RESULT_FIRST_WINS;
        snprintf(w->forced_reason, sizeof w->forced_reason, "%s's time ran out", who);
    } else {
        w->forced = RESULT_DRAW;
        snprintf(w->forced_reason, sizeof w->forced_reason,
                 "%s's time ran out; %s cannot mate", who, other);
    }
    if (w->thinking) { /* its move comes too late */
        w->cancel = true;
        engine_stop(w->think);
    }
    w->version++;
    save(w);
}

static GameResult result_of(WebGame *w) {
    if (w->forced == RESULT_NONE && engine_result(w->g).kind == RESULT_NONE)
        clock_flag(w);
    GameResult r = engine_result(w->g);
    if (r.kind == RESULT_NONE && w->forced != RESULT_NONE) {
        r.kind = w->forced;
        snprintf(r.reason, sizeof r.reason, "%s", w->forced_reason);
    }
    return r;
}

static bool is_over(WebGame *w) {
    return result_of(w).kind != RESULT_NONE;
}

/* The mancala position before the last move, for marking what the move changed. */
static void refresh_before(WebGame *w) {
    MoveDesc last;
    w->before[0] = 0;
    if (w->info.kind != KIND_MANCALA || !engine_last_move(w->g, &last))
        return;
    char err[ENGINE_ERR_LEN];
    if (engine_undo(w->g)) {
        engine_position_text(w->g, w->before, sizeof w->before);
        if (!engine_play(w->g, last.text, err, sizeof err)) {
            /* cannot happen: the move was legal a moment ago */
            fprintf(stderr, "menagerie serve: could not replay %s: %s\n", last.text, err);
            w->before[0] = 0;
        }
    }
}

/* ---- saving ---- */

static const char *result_token(ResultKind k) {
    static const char *const t[] = {"*", "1-0", "0-1", "1/2-1/2"};
    return t[k];
}

static char *export_text(WebGame *w) {
    char date[32], created[32], level[16], movetime[16], players[32], white[48], black[48];
    struct tm tm;
    localtime_r(&w->created, &tm);
    strftime(date, sizeof date, "%Y.%m.%d", &tm);
    snprintf(created, sizeof created, "%lld", (long long)w->created);
    snprintf(level, sizeof level, "%d", w->opt.level);
    snprintf(movetime, sizeof movetime, "%d", w->opt.movetime_ms);
    snprintf(players, sizeof players, "%s %s", player_name(w->opt.player[0]),
             player_name(w->opt.player[1]));
    for (int s = 0; s < 2; s++)
        snprintf(s ? black : white, sizeof white, "%s",
                 w->opt.player[s] == WEB_ENGINE ? "Menagerie" : "Human");
    const char *tags[32] = {"Event",       "Menagerie web game",
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
    if (forced) {
        tags[nt++] = "Termination";
        tags[nt++] = w->forced_reason;
    }
    tags[nt] = NULL;
    for (size_t len = 16384; len <= (64u << 20); len *= 2) {
        char *buf = malloc(len);
        if (!buf)
            abort();
        int n = engine_export(w->g, tags, buf, len);
        if (n >= 0) {
            if (forced) {
                /* the rules see no result: put the forced one in the Result tag and
                 * in place of the closing "*" */
                char *tag = strstr(buf, "[Result \"*\"]");
                char *end = strrchr(buf, '*');
                const char *tok = result_token(w->forced);
                size_t tl = strlen(tok);
                if (tag && end && end > tag && (size_t)n + 2 * tl < len) {
                    memmove(end + tl, end + 1, strlen(end + 1) + 1);
                    memcpy(end, tok, tl);
                    char *star = tag + 9;
                    memmove(star + tl, star + 1, strlen(star + 1) + 1);
                    memcpy(star, tok, tl);
                }
            }
            return buf;
        }
        free(buf);
    }
    return NULL;
}

static void file_path(const WebGame *w, char *path, size_t len) {
    snprintf(path, len, "%s/%s.%s", datadir, w->id, w->info.kind == KIND_MANCALA ? "sgn" : "pgn");
}

/* Writes the game whole: a temporary file, then rename, so a stop at any moment
 * leaves the old or the new file. */
static void save(WebGame *w) {
    if (w->removed)
        return;
    w->updated = time(NULL);
    char *text = export_text(w);
    if (!text) {
        fprintf(stderr, "menagerie serve: game %s is too long to save\n", w->id);
        return;
    }
    char path[2200], tmp[2300];
    file_path(w, path, sizeof path);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    bool ok = f && fputs(text, f) >= 0;
    if (f)
        ok = (fflush(f) == 0) & ok, ok = (fsync(fileno(f)) == 0) & ok, ok = (fclose(f) == 0) & ok;
    if (!ok || rename(tmp, path) != 0) {
        fprintf(stderr, "menagerie serve: cannot save %s: %s\n", path, strerror(errno));
        unlink(tmp);
    }
    free(text);
}

/* ---- the registry ---- */

static void game_free(WebGame *w) {
    if (w->think)
        atomic_fetch_sub(&kept_copies, 1);
    engine_free(w->think);
    engine_free(w->g);
    pthread_mutex_destroy(&w->lock);
    pthread_cond_destroy(&w->idle);
    free(w);
}

void web_game_put(WebGame *w) {
    if (w && atomic_fetch_sub(&w->refs, 1) == 1)
        game_free(w);
}

static WebGame *find_locked(const char *id) {
    for (int i = 0; i < ngames; i++)
        if (!strcmp(games[i]->id, id))
            return games[i];
    return NULL;
}

WebGame *web_game_get(const char *id, WebError *e) {
    pthread_mutex_lock(&reg_lock);
    WebGame *w = find_locked(id);
    if (w)
        atomic_fetch_add(&w->refs, 1);
    pthread_mutex_unlock(&reg_lock);
    if (!w)
        set_err(e, 404, "no game with that id");
    return w;
}

static void new_id(char *id) {
    static const char hex[] = "0123456789abcdef";
    unsigned char b[6];
    FILE *f = fopen("/dev/urandom", "rb");
    size_t got = f ? fread(b, 1, sizeof b, f) : 0;
    if (f)
        fclose(f);
    for (size_t i = got; i < sizeof b; i++)
        b[i] = (unsigned char)(rand() ^ (int)time(NULL));
    for (int i = 0; i < 6; i++) {
        id[2 * i] = hex[b[i] >> 4];
        id[2 * i + 1] = hex[b[i] & 15];
    }
    id[12] = 0;
}

static WebGame *game_new(Game *g, const WebOptions *opt) {
    WebGame *w = calloc(1, sizeof *w);
    if (!w)
        abort();
    pthread_mutex_init(&w->lock, NULL);
    pthread_cond_init(&w->idle, NULL);
    atomic_init(&w->refs, 1); /* the registry's */
    w->g = g;
    engine_info(g, &w->info);
    w->opt = *opt;
    web_clock_init(&w->clock, opt->clock_ms, opt->inc_ms, 0, 0);
    w->created = w->updated = time(NULL);
    int n;
    free(history_of(g, false, &n));
    w->plies = n;
    refresh_before(w);
    return w;
}

/* Lists w; false when the registry is full. */
static bool enlist(WebGame *w) {
    pthread_mutex_lock(&reg_lock);
    bool ok = ngames < WEB_MAX_GAMES;
    if (ok) {
        do
            new_id(w->id);
        while (w->id[0] == 0 || find_locked(w->id));
        games[ngames++] = w;
    }
    pthread_mutex_unlock(&reg_lock);
    return ok;
}

WebGame *web_game_add(Game *game, const WebOptions *opt, WebError *e) {
    WebGame *w = game_new(game, opt);
    if (!enlist(w)) {
        set_err(e, 503, "too many games: delete some first");
        game_free(w);
        return NULL;
    }
    pthread_mutex_lock(&w->lock);
    save(w);
    pthread_mutex_unlock(&w->lock);
    atomic_fetch_add(&w->refs, 1);
    return w;
}

/* Waits for the worker to end (game lock held); cancel drops its move. */
static void wait_engine(WebGame *w, bool cancel) {
    if (w->thinking && cancel) {
        w->cancel = true;
        engine_stop(w->think);
    }
    while (w->thinking)
        pthread_cond_wait(&w->idle, &w->lock);
}

bool web_game_delete(const char *id, WebError *e) {
    pthread_mutex_lock(&reg_lock);
    WebGame *w = find_locked(id);
    if (w) {
        for (int i = 0; i < ngames; i++)
            if (games[i] == w) {
                games[i] = games[--ngames];
                break;
            }
    }
    pthread_mutex_unlock(&reg_lock);
    if (!w) {
        set_err(e, 404, "no game with that id");
        return false;
    }
    pthread_mutex_lock(&w->lock);
    wait_engine(w, true);
    char path[2200];
    file_path(w, path, sizeof path);
    if (unlink(path) != 0 && errno != ENOENT)
        fprintf(stderr, "menagerie serve: cannot remove %s: %s\n", path, strerror(errno));
    w->removed = true;
    pthread_mutex_unlock(&w->lock);
    web_game_put(w);
    return true;
}

/* ---- the engine worker ---- */

typedef struct {
    WebGame *w;
    Game *pv; /* a second copy, for writing the principal variation in SAN */
    MoveDesc *md;
    SearchLimits lim;
} Worker;

static void pv_to_san(Worker *k, const char *pv, char *out, size_t len) {
    char tok[ENGINE_MOVE_TEXT], err[ENGINE_ERR_LEN];
    size_t o = 0;
    int played = 0;
    out[0] = 0;
    while (*pv) {
        while (*pv == ' ')
            pv++;
        size_t n = strcspn(pv, " ");
        if (!n)
            break;
        snprintf(tok, sizeof tok, "%.*s", (int)(n < sizeof tok ? n : sizeof tok - 1), pv);
        pv += n;
        int nm = engine_moves(k->pv, k->md, ENGINE_MAX_MOVES);
        const char *san = NULL;
        for (int i = 0; i < nm && i < ENGINE_MAX_MOVES; i++)
            if (!strcmp(k->md[i].text, tok))
                san = k->md[i].san;
        if (!san || strlen(san) + o + 2 > len)
            break;
        o += (size_t)snprintf(out + o, len - o, "%s%s", o ? " " : "", san);
        if (!engine_play(k->pv, tok, err, sizeof err))
            break;
        played++;
    }
    while (played-- > 0)
        engine_undo(k->pv);
}

static void on_info(const SearchInfo *si, void *ud) {
    Worker *k = ud;
    char san[600];
    pv_to_san(k, si->pv, san, sizeof san);
    pthread_mutex_lock(&k->w->lock);
    k->w->si = *si;
    snprintf(k->w->pv_san, sizeof k->w->pv_san, "%s", san);
    k->w->has_info = true;
    k->w->info_side = k->w->think_side;
    k->w->info_ply = k->w->think_ply;
    pthread_mutex_unlock(&k->w->lock);
}

static bool start_engine(WebGame *w, int level, int movetime_ms, WebError *e);

static void *worker_main(void *arg) {
    Worker *k = arg;
    WebGame *w = k->w;
    char best[64] = "";
    SearchCallbacks cb = {on_info, k};
    bool ok = engine_go(w->think, &k->lim, &cb, best, sizeof best);

    pthread_mutex_lock(&w->lock);
    char err[ENGINE_ERR_LEN];
    if (w->cancel || w->removed) {
        /* dropped: the game changed or is going away */
    } else if (w->clock.base_ms && web_clock_left(&w->clock, w->think_side, true) <= 0) {
        clock_flag(w); /* Clock: the move came after the flag fell */
    } else if (!ok || !best[0] || !strcmp(best, "(none)")) {
        snprintf(w->engine_error, sizeof w->engine_error,
                 "the engine found no move: %s has no searcher yet, or the game is over",
                 w->info.title);
    } else if (!engine_play(w->g, best, err, sizeof err)) {
        snprintf(w->engine_error, sizeof w->engine_error, "the engine's move %s: %s", best, err);
    } else {
        web_clock_moved(&w->clock, w->think_side);
        w->version++;
        w->plies++;
        if (w->has_info && w->info_ply == w->think_ply) {
            int sign = w->think_side == SIDE_FIRST ? 1 : -1;
            w->has_eval = true;
            w->eval_score = sign * w->si.score;
            w->eval_mate = sign * w->si.mate;
            w->eval_depth = w->si.depth;
            w->eval_exact = w->si.exact;
        }
        refresh_before(w);
        save(w);
    }
    w->thinking = false;
    Game *drop = NULL;
    if (atomic_load(&kept_copies) > KEEP_COPIES || w->removed) {
        drop = w->think; /* too many kept: this game makes a new copy next time */
        w->think = NULL;
        atomic_fetch_sub(&kept_copies, 1);
    }
    pthread_cond_broadcast(&w->idle);
    /* engine against engine: the next move follows while someone watches (the
     * page polls); otherwise the page asks again when it opens the game */
    Side side = engine_side_to_move(w->g);
    if (!w->cancel && !w->removed && ok && !w->engine_error[0] &&
        w->opt.player[side] == WEB_ENGINE && !is_over(w) && time(NULL) - w->seen <= 20)
        start_engine(w, w->opt.level, w->opt.movetime_ms, NULL);
    pthread_mutex_unlock(&w->lock);

    engine_free(drop);
    engine_free(k->pv);
    free(k->md);
    free(k);
    web_game_put(w);
    pthread_mutex_lock(&work_lock);
    workers--;
    pthread_cond_broadcast(&work_done);
    pthread_mutex_unlock(&work_lock);
    return NULL;
}

/* Brings the engine's copy level with the game: back to the start, then the
 * game's moves again (its tables survive). A new copy when it has none. */
static bool sync_copy(WebGame *w) {
    if (w->think) {
        char a[POS_LEN], b[POS_LEN], err[ENGINE_ERR_LEN];
        while (engine_undo(w->think))
            ;
        engine_initial_text(w->think, a, sizeof a);
        engine_initial_text(w->g, b, sizeof b);
        bool same = !strcmp(a, b);
        int n;
        char(*h)[ENGINE_MOVE_TEXT] = history_of(w->g, false, &n);
        for (int i = 0; same && i < n; i++)
            same = engine_play(w->think, h[i], err, sizeof err);
        free(h);
        if (same)
            return true;
        engine_free(w->think);
        w->think = NULL;
        atomic_fetch_sub(&kept_copies, 1);
    }
    w->think = clone_game(w->g, &w->info);
    if (w->think)
        atomic_fetch_add(&kept_copies, 1);
    return w->think != NULL;
}

/* Starts a worker on the side to move (game lock held). */
static bool start_engine(WebGame *w, int level, int movetime_ms, WebError *e) {
    if (atomic_load(&closing)) {
        set_err(e, 503, "the server is stopping");
        return false;
    }
    if (w->thinking) {
        set_err(e, 409, "the engine is already thinking");
        return false;
    }
    if (is_over(w)) {
        set_err(e, 409, "the game is over");
        return false;
    }
    Worker *k = calloc(1, sizeof *k);
    if (!k)
        abort();
    k->w = w;
    k->md = malloc(ENGINE_MAX_MOVES * sizeof *k->md);
    if (!k->md)
        abort();
    k->pv = clone_game(w->g, &w->info);
    if (!k->pv || !sync_copy(w)) {
        engine_free(k->pv);
        free(k->md);
        free(k);
        set_err(e, 500, "could not copy the game for the engine");
        return false;
    }
    k->lim.level = level;
    k->lim.movetime_ms = movetime_ms;
    if (w->clock.base_ms) { /* Clock: the engine plays on its own clock */
        Side stm = engine_side_to_move(w->g);
        int64_t left = web_clock_left(&w->clock, stm, true);
        k->lim.movetime_ms = 0;
        k->lim.time_ms[stm] = left > 1 ? (int)left : 1;
        k->lim.inc_ms[stm] = w->clock.inc_ms;
    }
    k->lim.hash_mb = ENGINE_HASH_MB;
    w->thinking = true;
    w->cancel = false;
    w->think_side = engine_side_to_move(w->g);
    w->think_ply = w->plies;
    w->has_info = false;
    w->engine_error[0] = 0;
    atomic_fetch_add(&w->refs, 1);
    pthread_mutex_lock(&work_lock);
    workers++;
    pthread_mutex_unlock(&work_lock);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_t t;
    int rc = pthread_create(&t, &attr, worker_main, k);
    pthread_attr_destroy(&attr);
    if (rc != 0) {
        w->thinking = false;
        engine_free(k->pv);
        free(k->md);
        free(k);
        atomic_fetch_sub(&w->refs, 1);
        pthread_mutex_lock(&work_lock);
        workers--;
        pthread_mutex_unlock(&work_lock);
        set_err(e, 503, "cannot start the engine thread");
        return false;
    }
    return true;
}

/* ---- requests ---- */

static void moves_json(WebGame *w, cJSON *arr) {
    if (is_over(w))
        return;
    MoveDesc *md = malloc(ENGINE_MAX_MOVES * sizeof *md);
    if (!md)
        abort();
    int n = engine_moves(w->g, md, ENGINE_MAX_MOVES);
    for (int i = 0; i < n && i < ENGINE_MAX_MOVES; i++) {
        cJSON *m = cJSON_CreateObject();
        char promo[2] = {md[i].promo, 0}, kind[2] = {md[i].kind, 0};
        cJSON_AddStringToObject(m, "text", md[i].text);
        cJSON_AddStringToObject(m, "san", md[i].san);
        cJSON_AddNumberToObject(m, "from", md[i].from);
        cJSON_AddNumberToObject(m, "to", md[i].to);
        if (promo[0])
            cJSON_AddStringToObject(m, "promo", promo);
        cJSON_AddStringToObject(m, "kind", kind);
        cJSON_AddItemToArray(arr, m);
    }
    free(md);
}

/* The mancala position text read into numbers: "h1/../h16 A B side [usedA usedB] ...". */
static cJSON *mancala_json(const char *text, bool variant_a) {
    cJSON *o = cJSON_CreateObject();
    cJSON *holes = cJSON_AddArrayToObject(o, "holes");
    const char *p = text;
    for (int i = 0; i < 16; i++) {
        char *end;
        long v = strtol(p, &end, 10);
        cJSON_AddItemToArray(holes, cJSON_CreateNumber(end == p ? 0 : (double)v));
        p = *end == '/' ? end + 1 : end;
    }
    long a = 0, b = 0, ua = 0, ub = 0;
    char side = 'a';
    int got = sscanf(p, " %ld %ld %c %ld %ld", &a, &b, &side, &ua, &ub);
    cJSON *stores = cJSON_AddArrayToObject(o, "stores");
    cJSON_AddItemToArray(stores, cJSON_CreateNumber((double)a));
    cJSON_AddItemToArray(stores, cJSON_CreateNumber((double)b));
    cJSON_AddNumberToObject(o, "side", side == 'b');
    if (variant_a) {
        cJSON *used = cJSON_AddArrayToObject(o, "used");
        cJSON_AddItemToArray(used, cJSON_CreateNumber(got >= 4 ? (double)ua : 0));
        cJSON_AddItemToArray(used, cJSON_CreateNumber(got >= 5 ? (double)ub : 0));
    }
    return o;
}

static void board_json(WebGame *w, cJSON *o) {
    BoardView b;
    if (!engine_board(w->g, &b))
        return;
    cJSON *bd = cJSON_AddObjectToObject(o, "board");
    int nsq = b.files * b.ranks;
    char sq[257];
    if (nsq > 256)
        nsq = 256;
    memcpy(sq, b.sq, (size_t)nsq);
    sq[nsq] = 0;
    cJSON_AddStringToObject(bd, "squares", sq);
    cJSON *gates = cJSON_AddArrayToObject(bd, "gates");
    cJSON *hands = cJSON_AddArrayToObject(bd, "hands");
    for (int s = 0; s < 2; s++) {
        char g[17];
        int nf = b.files < 16 ? b.files : 16;
        for (int f = 0; f < nf; f++)
            g[f] = b.gate[s][f] ? b.gate[s][f] : '.';
        g[nf] = 0;
        cJSON_AddItemToArray(gates, cJSON_CreateString(g));
        char h[9];
        snprintf(h, sizeof h, "%.8s", b.hand[s]);
        cJSON_AddItemToArray(hands, cJSON_CreateString(h));
    }
    cJSON_AddBoolToObject(bd, "check", b.check);
}

static cJSON *search_json(const SearchInfo *si, const char *pv_san, int side, int ply) {
    cJSON *s = cJSON_CreateObject();
    cJSON_AddNumberToObject(s, "side", side);
    cJSON_AddNumberToObject(s, "ply", ply);
    cJSON_AddNumberToObject(s, "depth", si->depth);
    cJSON_AddNumberToObject(s, "seldepth", si->seldepth);
    cJSON_AddNumberToObject(s, "score", si->score);
    cJSON_AddNumberToObject(s, "mate", si->mate);
    cJSON_AddBoolToObject(s, "exact", si->exact);
    cJSON_AddNumberToObject(s, "nodes", (double)si->nodes);
    cJSON_AddNumberToObject(s, "nps", (double)si->nps);
    cJSON_AddNumberToObject(s, "time_ms", si->time_ms);
    cJSON_AddStringToObject(s, "pv", si->pv);
    cJSON_AddStringToObject(s, "pv_san", pv_san);
    return s;
}

static cJSON *state_locked(WebGame *w) {
    (void)is_over(w); /* Clock: a fallen flag ends the game before the version is read */
    cJSON *o = cJSON_CreateObject();
    GameInfo *gi = &w->info;
    cJSON_AddStringToObject(o, "id", w->id);
    cJSON_AddStringToObject(o, "variant", gi->name);
    cJSON_AddStringToObject(o, "title", gi->title);
    cJSON_AddStringToObject(o, "kind", gi->kind == KIND_MANCALA ? "mancala" : "chess");
    cJSON_AddNumberToObject(o, "files", gi->files);
    cJSON_AddNumberToObject(o, "ranks", gi->ranks);
    cJSON_AddBoolToObject(o, "rotated", gi->rotated);
    cJSON_AddBoolToObject(o, "gating", gi->gating);
    cJSON *pieces = cJSON_AddArrayToObject(o, "pieces");
    for (int i = 0; i < gi->npieces && i < 31; i++) {
        cJSON *p = cJSON_CreateObject();
        char l[2] = {gi->piece[i].letter, 0};
        cJSON_AddStringToObject(p, "letter", l);
        cJSON_AddStringToObject(p, "name", gi->piece[i].name);
        cJSON_AddItemToArray(pieces, p);
    }
    cJSON_AddNumberToObject(o, "version", w->version);
    cJSON_AddNumberToObject(o, "created", (double)w->created);
    cJSON_AddNumberToObject(o, "updated", (double)w->updated);
    char pos[POS_LEN];
    engine_position_text(w->g, pos, sizeof pos);
    cJSON_AddStringToObject(o, "position", pos);
    char initial[POS_LEN];
    engine_initial_text(w->g, initial, sizeof initial);
    cJSON_AddStringToObject(o, "initial", initial);
    cJSON_AddNumberToObject(o, "side", engine_side_to_move(w->g));
    if (gi->kind == KIND_MANCALA) {
        bool va = strstr(gi->name, "-a") != NULL;
        cJSON *m = mancala_json(pos, va);
        if (w->before[0])
            cJSON_AddItemToObject(m, "before", mancala_json(w->before, va));
        cJSON_AddItemToObject(o, "mancala", m);
    } else {
        board_json(w, o);
    }
    cJSON_AddItemToObject(o, "moves", cJSON_CreateArray());
    moves_json(w, cJSON_GetObjectItem(o, "moves"));
    int n;
    char(*text)[ENGINE_MOVE_TEXT] = history_of(w->g, false, &n);
    char(*san)[ENGINE_MOVE_TEXT] = history_of(w->g, true, &n);
    cJSON *hist = cJSON_AddArrayToObject(o, "history");
    for (int i = 0; i < n; i++) {
        cJSON *h = cJSON_CreateObject();
        cJSON_AddStringToObject(h, "text", text[i]);
        cJSON_AddStringToObject(h, "san", san[i]);
        cJSON_AddItemToArray(hist, h);
    }
    free(text);
    free(san);
    MoveDesc last;
    if (engine_last_move(w->g, &last)) {
        cJSON *l = cJSON_AddObjectToObject(o, "last");
        char kind[2] = {last.kind, 0};
        cJSON_AddStringToObject(l, "text", last.text);
        cJSON_AddStringToObject(l, "san", last.san);
        cJSON_AddNumberToObject(l, "from", last.from);
        cJSON_AddNumberToObject(l, "to", last.to);
        cJSON_AddStringToObject(l, "kind", kind);
    } else {
        cJSON_AddNullToObject(o, "last");
    }
    GameResult r = result_of(w);
    cJSON *res = cJSON_AddObjectToObject(o, "result");
    cJSON_AddBoolToObject(res, "over", r.kind != RESULT_NONE);
    cJSON_AddStringToObject(res, "score", result_token(r.kind));
    if (r.kind == RESULT_FIRST_WINS || r.kind == RESULT_SECOND_WINS)
        cJSON_AddNumberToObject(res, "winner", r.kind == RESULT_FIRST_WINS ? 0 : 1);
    else
        cJSON_AddNullToObject(res, "winner");
    cJSON_AddStringToObject(res, "reason", r.reason);
    cJSON *pl = cJSON_AddArrayToObject(o, "players");
    for (int s = 0; s < 2; s++)
        cJSON_AddItemToArray(pl, cJSON_CreateString(player_name(w->opt.player[s])));
    cJSON_AddNumberToObject(o, "level", w->opt.level);
    cJSON_AddNumberToObject(o, "movetime_ms", w->opt.movetime_ms);
    cJSON_AddBoolToObject(o, "thinking", w->thinking);
    cJSON_AddItemToObject(o, "clock", web_clock_json(&w->clock, engine_side_to_move(w->g),
                                                     r.kind == RESULT_NONE));
    if (w->has_info)
        cJSON_AddItemToObject(o, "search",
                              search_json(&w->si, w->pv_san, w->info_side, w->info_ply));
    else
        cJSON_AddNullToObject(o, "search");
    if (w->has_eval) {
        cJSON *ev = cJSON_AddObjectToObject(o, "eval");
        cJSON_AddNumberToObject(ev, "score", w->eval_score);
        cJSON_AddNumberToObject(ev, "mate", w->eval_mate);
        cJSON_AddNumberToObject(ev, "depth", w->eval_depth);
        cJSON_AddBoolToObject(ev, "exact", w->eval_exact);
    } else {
        cJSON_AddNullToObject(o, "eval");
    }
    if (w->engine_error[0])
        cJSON_AddStringToObject(o, "engine_error", w->engine_error);
    else
        cJSON_AddNullToObject(o, "engine_error");
    return o;
}

cJSON *web_game_state(WebGame *w) {
    pthread_mutex_lock(&w->lock);
    w->seen = time(NULL);
    cJSON *o = state_locked(w);
    pthread_mutex_unlock(&w->lock);
    return o;
}

cJSON *web_game_moves(WebGame *w) {
    cJSON *arr = cJSON_CreateArray();
    pthread_mutex_lock(&w->lock);
    moves_json(w, arr);
    pthread_mutex_unlock(&w->lock);
    return arr;
}

bool web_game_move(WebGame *w, const char *move, WebError *e) {
    bool ok = false;
    char err[ENGINE_ERR_LEN];
    pthread_mutex_lock(&w->lock);
    if (w->thinking) {
        set_err(e, 409, "the engine is thinking: wait, or stop it first");
    } else if (is_over(w)) {
        set_err(e, 409, "the game is over");
    } else if (!engine_play(w->g, move, err, sizeof err)) {
        set_err(e, 400, err);
    } else {
        ok = true;
        web_clock_moved(&w->clock, 1 - engine_side_to_move(w->g));
        w->version++;
        w->plies++;
        w->engine_error[0] = 0;
        refresh_before(w);
        save(w);
        Side side = engine_side_to_move(w->g);
        if (w->opt.player[side] == WEB_ENGINE && !is_over(w))
            start_engine(w, w->opt.level, w->opt.movetime_ms, NULL);
    }
    pthread_mutex_unlock(&w->lock);
    return ok;
}

bool web_game_go(WebGame *w, int level, int movetime_ms, WebError *e) {
    pthread_mutex_lock(&w->lock);
    bool ok = start_engine(w, level > 0 ? level : w->opt.level,
                           movetime_ms > 0 ? movetime_ms : w->opt.movetime_ms, e);
    pthread_mutex_unlock(&w->lock);
    return ok;
}

bool web_game_stop(WebGame *w, WebError *e) {
    pthread_mutex_lock(&w->lock);
    bool ok = w->thinking;
    if (ok)
        engine_stop(w->think); /* it plays the best move found so far */
    else
        set_err(e, 409, "the engine is not thinking");
    pthread_mutex_unlock(&w->lock);
    return ok;
}

bool web_game_undo(WebGame *w, int count, WebError *e) {
    bool ok = true;
    pthread_mutex_lock(&w->lock);
    wait_engine(w, true);
    if (count < 1)
        count = 1;
    if (w->forced != RESULT_NONE) {
        /* taking back a resignation or an agreed draw counts as one step */
        w->forced = RESULT_NONE;
        w->forced_reason[0] = 0;
        count--;
    } else if (w->plies == 0) {
        set_err(e, 409, "there is no move to take back");
        ok = false;
    }
    for (int i = 0; ok && i < count && w->plies > 0; i++) {
        if (!engine_undo(w->g))
            break;
        w->plies--;
    }
    if (ok) {
        web_clock_restart(&w->clock);
        w->version++;
        w->engine_error[0] = 0;
        refresh_before(w);
        save(w);
    }
    pthread_mutex_unlock(&w->lock);
    return ok;
}

bool web_game_resign(WebGame *w, int side, WebError *e) {
    pthread_mutex_lock(&w->lock);
    wait_engine(w, true);
    bool ok = !is_over(w);
    if (!ok) {
        set_err(e, 409, "the game is over");
    } else {
        if (side < 0) {
            Side stm = engine_side_to_move(w->g);
            side = stm;
            if (w->opt.player[0] != w->opt.player[1])
                side = w->opt.player[0] == WEB_HUMAN ? 0 : 1;
        }
        bool mancala = w->info.kind == KIND_MANCALA;
        w->forced = side == 0 ? RESULT_SECOND_WINS : RESULT_FIRST_WINS;
        snprintf(w->forced_reason, sizeof w->forced_reason, "%s resigns",
                 mancala ? (side == 0 ? "A" : "B") : (side == 0 ? "White" : "Black"));
        w->version++;
        save(w);
    }
    pthread_mutex_unlock(&w->lock);
    return ok;
}

bool web_game_draw(WebGame *w, bool *accepted, WebError *e) {
    pthread_mutex_lock(&w->lock);
    bool ok = !is_over(w);
    *accepted = false;
    if (!ok) {
        set_err(e, 409, "the game is over");
    } else {
        /* people at one screen agree by asking; the engine agrees when it judges
         * its own side no better than level */
        bool agree = true;
        for (int s = 0; s < 2; s++)
            if (w->opt.player[s] == WEB_ENGINE && w->opt.player[1 - s] == WEB_HUMAN) {
                int own = s == 0 ? w->eval_score : -w->eval_score;
                int mate = s == 0 ? w->eval_mate : -w->eval_mate;
                agree = agree && w->has_eval && mate <= 0 && own <= 0;
            }
        if (agree) {
            wait_engine(w, true);
            w->forced = RESULT_DRAW;
            snprintf(w->forced_reason, sizeof w->forced_reason, "draw agreed");
            w->version++;
            save(w);
        }
        *accepted = agree;
    }
    pthread_mutex_unlock(&w->lock);
    return ok;
}

bool web_game_options(WebGame *w, const cJSON *players, int level, int movetime_ms, WebError *e) {
    (void)e;
    pthread_mutex_lock(&w->lock);
    for (int s = 0; s < 2 && players; s++) {
        const cJSON *p = cJSON_GetArrayItem(players, s);
        if (cJSON_IsString(p))
            w->opt.player[s] = !strcmp(p->valuestring, "engine") ? WEB_ENGINE : WEB_HUMAN;
    }
    if (level > 0)
        w->opt.level = level;
    if (movetime_ms > 0)
        w->opt.movetime_ms = movetime_ms;
    w->version++;
    save(w);
    pthread_mutex_unlock(&w->lock);
    return true;
}

char *web_game_export(WebGame *w, char *name, size_t namelen) {
    pthread_mutex_lock(&w->lock);
    char *text = export_text(w);
    snprintf(name, namelen, "%s-%s.%s", w->info.name, w->id,
             w->info.kind == KIND_MANCALA ? "sgn" : "pgn");
    pthread_mutex_unlock(&w->lock);
    return text;
}

cJSON *web_games_list(void) {
    cJSON *arr = cJSON_CreateArray();
    pthread_mutex_lock(&reg_lock);
    for (int i = 0; i < ngames; i++) {
        WebGame *w = games[i];
        pthread_mutex_lock(&w->lock);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "id", w->id);
        cJSON_AddStringToObject(o, "variant", w->info.name);
        cJSON_AddStringToObject(o, "title", w->info.title);
        cJSON_AddStringToObject(o, "kind", w->info.kind == KIND_MANCALA ? "mancala" : "chess");
        cJSON *pl = cJSON_AddArrayToObject(o, "players");
        for (int s = 0; s < 2; s++)
            cJSON_AddItemToArray(pl, cJSON_CreateString(player_name(w->opt.player[s])));
        cJSON_AddNumberToObject(o, "plies", w->plies);
        cJSON_AddNumberToObject(o, "side", engine_side_to_move(w->g));
        GameResult r = result_of(w);
        cJSON_AddStringToObject(o, "result", result_token(r.kind));
        cJSON_AddStringToObject(o, "reason", r.reason);
        cJSON_AddBoolToObject(o, "thinking", w->thinking);
        cJSON_AddNumberToObject(o, "created", (double)w->created);
        cJSON_AddNumberToObject(o, "updated", (double)w->updated);
        pthread_mutex_unlock(&w->lock);
        cJSON_AddItemToArray(arr, o);
    }
    pthread_mutex_unlock(&reg_lock);
    return arr;
}

/* ---- loading ---- */

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

static bool valid_id(const char *s) {
    for (int i = 0; i < 12; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
            return false;
    return true;
}

static void load_file(const char *name) {
    char path[2400];
    snprintf(path, sizeof path, "%s/%s", datadir, name);
    FILE *f = fopen(path, "rb");
    if (!f)
        return;
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || st.st_size > 8 * WEB_MAX_BODY) {
        fprintf(stderr, "menagerie serve: skipping %s: unreadable or too large\n", path);
        fclose(f);
        return;
    }
    time_t mtime = st.st_mtime;
    char *text = malloc((size_t)st.st_size + 1);
    if (!text)
        abort();
    size_t n = fread(text, 1, (size_t)st.st_size, f);
    text[n] = 0;
    fclose(f);
    char err[ENGINE_ERR_LEN], v[128];
    Game *g = engine_import(text, err, sizeof err);
    if (!g) {
        fprintf(stderr, "menagerie serve: skipping %s: %s\n", path, err);
        free(text);
        return;
    }
    WebOptions opt = {{WEB_HUMAN, WEB_ENGINE}, 8, 1000, 0, 0};
    tag_of(text, "WebPlayers", v, sizeof v);
    if (v[0]) {
        char a[16] = "", b[16] = "";
        sscanf(v, "%15s %15s", a, b);
        opt.player[0] = !strcmp(a, "engine") ? WEB_ENGINE : WEB_HUMAN;
        opt.player[1] = !strcmp(b, "engine") ? WEB_ENGINE : WEB_HUMAN;
    }
    tag_of(text, "WebLevel", v, sizeof v);
    if (atoi(v) >= 1 && atoi(v) <= 20)
        opt.level = atoi(v);
    tag_of(text, "WebMoveTime", v, sizeof v);
    if (atoi(v) >= 50 && atoi(v) <= 600000)
        opt.movetime_ms = atoi(v);
    tag_of(text, "WebClock", v, sizeof v);
    int base = 0, inc = 0;
    long long left0 = 0, left1 = 0;
    if (sscanf(v, "%d+%d", &base, &inc) == 2 && base > 0 && base <= 10800000 && inc >= 0 &&
        inc <= 600000) { /* Clock: resumes where it stood */
        opt.clock_ms = base, opt.inc_ms = inc;
        tag_of(text, "WebClockLeft", v, sizeof v);
        if (sscanf(v, "%lld %lld", &left0, &left1) != 2)
            left0 = left1 = 0;
    }
    WebGame *w = game_new(g, &opt);
    if (base > 0)
        web_clock_init(&w->clock, base, inc, left0 > 0 ? left0 : 1, left1 > 0 ? left1 : 1);
    snprintf(w->id, sizeof w->id, "%.12s", name);
    tag_of(text, "WebCreated", v, sizeof v);
    w->created = atoll(v) > 0 ? (time_t)atoll(v) : mtime;
    w->updated = mtime;
    if (engine_result(g).kind == RESULT_NONE) {
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
    pthread_mutex_lock(&reg_lock);
    bool ok = ngames < WEB_MAX_GAMES && !find_locked(w->id);
    if (ok)
        games[ngames++] = w;
    pthread_mutex_unlock(&reg_lock);
    if (!ok) {
        fprintf(stderr, "menagerie serve: not loading %s (too many games or a duplicate)\n", path);
        game_free(w);
    }
}

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

bool web_games_open(const char *dir, char *err, size_t errlen) {
    if (strlen(dir) >= sizeof datadir - 40) {
        snprintf(err, errlen, "data folder name too long");
        return false;
    }
    snprintf(datadir, sizeof datadir, "%s", dir);
    size_t l = strlen(datadir);
    while (l > 1 && datadir[l - 1] == '/')
        datadir[--l] = 0;
    if (!make_dirs(datadir)) {
        snprintf(err, errlen, "cannot make the data folder %s: %s", datadir, strerror(errno));
        return false;
    }
    DIR *d = opendir(datadir);
    if (!d) {
        snprintf(err, errlen, "cannot read the data folder %s: %s", datadir, strerror(errno));
        return false;
    }
    struct dirent *de;
    while ((de = readdir(d))) {
        const char *n = de->d_name;
        if (strlen(n) == 16 && valid_id(n) && (!strcmp(n + 12, ".pgn") || !strcmp(n + 12, ".sgn")))
            load_file(n);
    }
    closedir(d);
    return true;
}

void web_games_close(void) {
    atomic_store(&closing, true);
    pthread_mutex_lock(&reg_lock);
    for (int i = 0; i < ngames; i++) {
        pthread_mutex_lock(&games[i]->lock);
        wait_engine(games[i], true);
        pthread_mutex_unlock(&games[i]->lock);
    }
    pthread_mutex_unlock(&reg_lock);
    pthread_mutex_lock(&work_lock);
    while (workers > 0)
        pthread_cond_wait(&work_done, &work_lock);
    pthread_mutex_unlock(&work_lock);
    pthread_mutex_lock(&reg_lock);
    for (int i = 0; i < ngames; i++)
        web_game_put(games[i]);
    ngames = 0;
    pthread_mutex_unlock(&reg_lock);
}
