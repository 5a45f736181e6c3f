/* analysis.c - analysis on demand: the engine's best lines for any position
 * of a saved game (the live one, one under review, a finished game), searched on
 * a private copy in a thread of its own, so no game's own engine or state is
 * touched. A multi-PV search of the position takes the first half of the time;
 * when the game's searcher gives fewer lines than asked (the mancala's), the
 * others come from a shorter search of the position after each other move.
 * One analysis per game (the newest request wins), a few games at a time. None
 * while a person plays the engine and the game is not over: that would be help.
 * The slots and their locks are the WebAnalysis's (analysis.h). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "app/web/analysis.h"
#include "app/web/games/play.h"
#include "app/web/study.h"

#define SLOTS 8
#define LINES 3

typedef struct {
    char move[ENGINE_MOVE_TEXT], san[ENGINE_MOVE_TEXT];
    int from, to;
    int score, mate, depth; /* first player's view */
    bool exact;
    char pv_san[400];
} Line;

typedef struct {
    WebAnalysis *an; /* the table it is in */
    bool used, running, joinable;
    char id[WEB_ID_LEN];
    int ply;
    char position[WEB_POS_LEN];
    Game *g; /* the thread's copy; only the thread plays on it */
    pthread_t thread;
    int movetime_ms;
    Side side;
    int nlines;
    Line line[LINES];
    char error[160];
} Slot;

struct WebAnalysis {
    WebGames *games;
    Slot slots[SLOTS];
    pthread_mutex_t lock;       /* the slots' fields and closing */
    pthread_mutex_t start_lock; /* one start at a time */
    bool closing;
};

/* ---- the search ---- */

/* SAN of a space-separated PV, played on g and taken back. */
static void pv_to_san(Game *g, const char *pv, char *out, size_t len) {
    MoveDesc *md = malloc(ENGINE_MAX_MOVES * sizeof *md);
    if (!md)
        abort();
    char buf[512], err[ENGINE_ERR_LEN], *save = NULL;
    snprintf(buf, sizeof buf, "%s", pv);
    size_t at = 0;
    int played = 0;
    out[0] = 0;
    for (char *t = strtok_r(buf, " ", &save); t && played < 12; t = strtok_r(NULL, " ", &save)) {
        int n = engine_moves(g, md, ENGINE_MAX_MOVES), i = 0;
        while (i < n && strcmp(md[i].text, t))
            i++;
        if (i == n || !engine_play(g, t, err, sizeof err))
            break;
        played++;
        at += (size_t)snprintf(out + at, at < len ? len - at : 0, "%s%s", at ? " " : "", md[i].san);
        if (at >= len)
            break;
    }
    while (played-- > 0)
        engine_undo(g);
    free(md);
}

typedef struct {
    SearchInfo last[LINES]; /* the latest report of each line */
    bool has[LINES];
} Info;

static void on_info(const SearchInfo *si, void *ud) {
    Info *in = ud;
    int k = si->multipv > 1 ? si->multipv - 1 : 0;
    if (k < LINES) {
        in->last[k] = *si;
        in->has[k] = true;
    }
}

/* Publishes a line (lock taken here), sorted by score for the side to move. */
static void publish(Slot *s, const Line *l) {
    pthread_mutex_lock(&s->an->lock);
    int sign = s->side == SIDE_FIRST ? 1 : -1;
    int n = s->nlines < LINES ? s->nlines : LINES - 1;
    int k = n;
    /* a mate score ranks by its distance; otherwise by centipawns */
    long long key =
        l->mate ? (l->mate * sign > 0 ? 1000000 - l->mate * sign : -1000000 - l->mate * sign)
                : (long long)l->score * sign;
    while (k > 0) {
        const Line *p = &s->line[k - 1];
        long long pk =
            p->mate ? (p->mate * sign > 0 ? 1000000 - p->mate * sign : -1000000 - p->mate * sign)
                    : (long long)p->score * sign;
        if (pk >= key)
            break;
        if (k < LINES)
            s->line[k] = *p;
        k--;
    }
    if (k < LINES) {
        s->line[k] = *l;
        if (s->nlines < LINES)
            s->nlines++;
    }
    pthread_mutex_unlock(&s->an->lock);
}

static void make_line(Slot *s, Game *g, const MoveDesc *first, const SearchInfo *in,
                      bool after_move, Line *l) {
    memset(l, 0, sizeof *l);
    snprintf(l->move, sizeof l->move, "%s", first->text);
    snprintf(l->san, sizeof l->san, "%s", first->san);
    l->from = first->from;
    l->to = first->to;
    /* the searched side: the side to move, or its opponent after the first move */
    Side searched = after_move ? (Side)(1 - s->side) : s->side;
    int sign = searched == SIDE_FIRST ? 1 : -1;
    l->score = sign * in->score;
    l->mate = sign * in->mate;
    l->depth = in->depth + (after_move ? 1 : 0);
    l->exact = in->exact;
    char pv[600];
    if (after_move)
        snprintf(pv, sizeof pv, "%s %s", first->text, in->pv);
    else
        snprintf(pv, sizeof pv, "%s", in->pv);
    pv_to_san(g, pv, l->pv_san, sizeof l->pv_san);
    if (!l->pv_san[0])
        snprintf(l->pv_san, sizeof l->pv_san, "%s", first->san);
}

static void *analyse(void *arg) {
    Slot *s = arg;
    WebAnalysis *an = s->an;
    Game *g = s->g;
    MoveDesc *md = malloc(ENGINE_MAX_MOVES * sizeof *md);
    if (!md)
        abort();
    int n = engine_moves(g, md, ENGINE_MAX_MOVES);
    // Step 1. The best lines: a multi-PV search, half the time.
    SearchLimits lim = {0};
    lim.movetime_ms = n > 1 ? s->movetime_ms / 2 : s->movetime_ms;
    lim.hash_mb = 16;
    lim.multipv = LINES;
    lim.nodes = an->games->workers.node_cap;
    Info *in = calloc(1, sizeof *in);
    if (!in)
        abort();
    SearchCallbacks cb = {on_info, in};
    char best[64] = "";
    bool ok = n > 0 && engine_go(g, &lim, &cb, best, sizeof best) && in->has[0];
    bool *shown = calloc((size_t)(n > 0 ? n : 1), sizeof *shown);
    if (!shown)
        abort();
    int got = 0;
    /* the lines of the last full iteration, each under its own first move:
     * the move played may come from a later, unfinished one */
    for (int k = 0; ok && k < LINES && in->has[k]; k++) {
        char first[ENGINE_MOVE_TEXT] = "";
        sscanf(in->last[k].pv, "%31s", first);
        for (int i = 0; i < n; i++)
            if (!shown[i] && !strcmp(md[i].text, first[0] ? first : best)) {
                Line l;
                make_line(s, g, &md[i], &in->last[k], false, &l);
                publish(s, &l);
                shown[i] = true;
                got++;
                break;
            }
    }
    ok = ok && got > 0;
    if (!ok) {
        pthread_mutex_lock(&an->lock);
        snprintf(s->error, sizeof s->error, "%s",
                 n ? "the engine found no move" : "no legal moves");
        pthread_mutex_unlock(&an->lock);
    }
    // Step 2. Fewer lines than asked: a shorter search after each other move.
    int rest = n - got > 0 ? n - got : 1, depth = in->last[0].depth > 2 ? in->last[0].depth - 2 : 1;
    free(in);
    for (int i = 0; ok && got < LINES && got < n && i < n; i++) {
        pthread_mutex_lock(&an->lock);
        bool stop = an->closing || !s->running;
        pthread_mutex_unlock(&an->lock);
        if (stop)
            break;
        if (shown[i] || md[i].kind == 's') /* Hannibal set-ups: too many alike */
            continue;
        char err[ENGINE_ERR_LEN];
        if (!engine_play(g, md[i].text, err, sizeof err))
            continue;
        SearchLimits l2 = {0};
        l2.depth = depth;
        l2.movetime_ms = s->movetime_ms / 2 / rest > 20 ? s->movetime_ms / 2 / rest : 20;
        l2.hash_mb = 16;
        l2.nodes = an->games->workers.node_cap;
        Info in2;
        memset(&in2, 0, sizeof in2);
        SearchCallbacks cb2 = {on_info, &in2};
        char b2[64];
        GameResult r = engine_result(g);
        if (r.kind != RESULT_NONE) {
            /* the move ends the game: score it as the rules do */
            in2.has[0] = true;
            in2.last[0].mate = r.kind == RESULT_DRAW ? 0 : -1;
            in2.last[0].score = r.kind == RESULT_DRAW ? 0 : -30000;
        } else if (!engine_go(g, &l2, &cb2, b2, sizeof b2)) {
            in2.has[0] = false;
        }
        engine_undo(g);
        if (in2.has[0]) {
            Line l;
            make_line(s, g, &md[i], &in2.last[0], true, &l);
            publish(s, &l);
        }
    }
    free(shown);
    free(md);
    pthread_mutex_lock(&an->lock);
    s->running = false;
    pthread_mutex_unlock(&an->lock);
    return NULL;
}

/* ---- requests ---- */

/* (lock held) */
static Slot *find(WebAnalysis *an, const char *id) {
    for (int i = 0; i < SLOTS; i++)
        if (an->slots[i].used && !strcmp(an->slots[i].id, id))
            return &an->slots[i];
    return NULL;
}

/* Stops and joins a slot's thread and frees its copy (lock not held). */
static void drop(Slot *s) {
    pthread_mutex_lock(&s->an->lock);
    bool join = s->joinable;
    s->running = false;
    Game *g = s->g;
    if (g && join)
        engine_stop(g);
    s->joinable = false;
    pthread_mutex_unlock(&s->an->lock);
    if (join)
        pthread_join(s->thread, NULL);
    engine_free(g);
    pthread_mutex_lock(&s->an->lock);
    s->g = NULL;
    s->used = false;
    pthread_mutex_unlock(&s->an->lock);
}

static cJSON *slot_json(const Slot *s) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "ply", s->ply);
    cJSON_AddStringToObject(o, "position", s->position);
    cJSON_AddBoolToObject(o, "running", s->running);
    cJSON_AddNumberToObject(o, "movetime_ms", s->movetime_ms);
    if (s->error[0])
        cJSON_AddStringToObject(o, "error", s->error);
    cJSON *lines = cJSON_AddArrayToObject(o, "lines");
    for (int i = 0; i < s->nlines; i++) {
        const Line *l = &s->line[i];
        cJSON *x = cJSON_CreateObject();
        cJSON_AddStringToObject(x, "move", l->move);
        cJSON_AddStringToObject(x, "san", l->san);
        cJSON_AddNumberToObject(x, "from", l->from);
        cJSON_AddNumberToObject(x, "to", l->to);
        cJSON_AddNumberToObject(x, "score", l->score);
        cJSON_AddNumberToObject(x, "mate", l->mate);
        cJSON_AddNumberToObject(x, "depth", l->depth);
        cJSON_AddBoolToObject(x, "exact", l->exact);
        cJSON_AddStringToObject(x, "pv_san", l->pv_san);
        cJSON_AddItemToArray(lines, x);
    }
    return o;
}

/* True, with the error reply written, when game ID has no analysis now: it does not
 * exist, or a person plays the engine in it (then analysis waits for the result). */
static bool refused(WebAnalysis *an, const char *id, WebReply *out) {
    WebError e;
    WebGame *w = web_game_get(an->games, id, &e);
    if (!w) {
        web_reply_error(out, e.status, e.msg);
        return true;
    }
    bool live = web_game_against_engine(w);
    web_game_put(w);
    if (live)
        web_reply_error(out, 409,
                        "no analysis during a game against the engine: it opens when the "
                        "game is over");
    return live;
}

void web_analysis_start(WebAnalysis *an, const char *id, const cJSON *body, WebReply *out) {
    // Step 1. The request: which position, how long.
    const cJSON *jp = cJSON_GetObjectItemCaseSensitive(body, "ply");
    const cJSON *jt = cJSON_GetObjectItemCaseSensitive(body, "movetime_ms");
    if ((jp && !cJSON_IsNull(jp) &&
         (!cJSON_IsNumber(jp) || !(jp->valuedouble >= 0 && jp->valuedouble <= 100000) ||
          jp->valuedouble != (int)jp->valuedouble)) ||
        (jt && !cJSON_IsNull(jt) &&
         (!cJSON_IsNumber(jt) || !(jt->valuedouble >= 100 && jt->valuedouble <= 60000)))) {
        web_reply_error(out, 400,
                        "\"ply\" must be a whole number of moves from the start and "
                        "\"movetime_ms\" from 100 to 60000");
        return;
    }
    // Step 2. The game as saved, taken back to that ply.
    if (refused(an, id, out))
        return;
    Game *g = web_study_saved(an->games, id, out);
    if (!g)
        return;
    int n = engine_ply_count(g);
    int ply = cJSON_IsNumber(jp) ? jp->valueint : n;
    if (ply > n) {
        engine_free(g);
        web_reply_error(out, 400, "the game has not come that far");
        return;
    }
    for (int i = ply; i < n; i++)
        engine_undo(g);
    // Step 3. The slot: this game's, else a free one, else a finished one.
    pthread_mutex_lock(&an->start_lock);
    pthread_mutex_lock(&an->lock);
    Slot *s = find(an, id);
    pthread_mutex_unlock(&an->lock);
    if (!s) {
        pthread_mutex_lock(&an->lock);
        for (int i = 0; i < SLOTS && !s; i++)
            if (!an->slots[i].used)
                s = &an->slots[i];
        for (int i = 0; i < SLOTS && !s; i++)
            if (!an->slots[i].running)
                s = &an->slots[i];
        pthread_mutex_unlock(&an->lock);
        if (!s) {
            pthread_mutex_unlock(&an->start_lock);
            engine_free(g);
            web_reply_error(out, 503, "too many analyses at once: try again in a moment");
            return;
        }
    }
    drop(s);
    pthread_mutex_lock(&an->lock);
    if (an->closing) {
        pthread_mutex_unlock(&an->lock);
        pthread_mutex_unlock(&an->start_lock);
        engine_free(g);
        web_reply_error(out, 503, "the server is stopping");
        return;
    }
    memset(s->line, 0, sizeof s->line);
    s->used = true;
    s->running = true;
    snprintf(s->id, sizeof s->id, "%s", id);
    s->ply = ply;
    engine_position_text(g, s->position, sizeof s->position);
    s->g = g;
    s->side = engine_side_to_move(g);
    s->movetime_ms = cJSON_IsNumber(jt) ? (int)jt->valuedouble : 2000;
    s->nlines = 0;
    s->error[0] = 0;
    s->joinable = pthread_create(&s->thread, NULL, analyse, s) == 0;
    if (!s->joinable) {
        s->running = false;
        snprintf(s->error, sizeof s->error, "cannot start the engine thread");
    }
    cJSON *o = slot_json(s);
    pthread_mutex_unlock(&an->lock);
    pthread_mutex_unlock(&an->start_lock);
    web_reply_json(out, 202, o);
}

void web_analysis_get(WebAnalysis *an, const char *id, WebReply *out) {
    if (refused(an, id, out))
        return;
    pthread_mutex_lock(&an->lock);
    Slot *s = find(an, id);
    cJSON *o = s ? slot_json(s) : NULL;
    pthread_mutex_unlock(&an->lock);
    if (!o)
        web_reply_error(out, 404, "no analysis of this game: POST to start one");
    else
        web_reply_json(out, 200, o);
}

WebAnalysis *web_analysis_new(WebGames *games) {
    WebAnalysis *an = calloc(1, sizeof *an);
    if (!an)
        abort();
    an->games = games;
    for (int i = 0; i < SLOTS; i++)
        an->slots[i].an = an;
    pthread_mutex_init(&an->lock, NULL);
    pthread_mutex_init(&an->start_lock, NULL);
    return an;
}

void web_analysis_close(WebAnalysis *an) {
    pthread_mutex_lock(&an->start_lock);
    pthread_mutex_lock(&an->lock);
    an->closing = true;
    pthread_mutex_unlock(&an->lock);
    for (int i = 0; i < SLOTS; i++)
        drop(&an->slots[i]);
    pthread_mutex_unlock(&an->start_lock);
    pthread_mutex_destroy(&an->lock);
    pthread_mutex_destroy(&an->start_lock);
    free(an);
}
