/* web_game.c - the requests on one web game (move, engine, undo, resign, draw,
 * options, export) and the helpers the other web_*.c modules share. Every change
 * is saved before it is answered: web_commit writes the file with the game's lock
 * dropped, and a change whose file could not be written is rolled back and answered
 * with a 5xx error (see web_game.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/web/games/game.h"

void web_set_err(WebError *e, int status, const char *msg) {
    if (!e)
        return;
    e->status = status;
    snprintf(e->msg, sizeof e->msg, "%s", msg);
}

const char *web_player_name(WebPlayer p) {
    return p == WEB_ENGINE ? "engine" : "human";
}

const char *web_result_token(ResultKind k) {
    static const char *const t[] = {"*", "1-0", "0-1", "1/2-1/2"};
    return t[k];
}

/* ---- helpers (game lock held) ---- */

char (*web_history(Game *g, bool san, int *n))[ENGINE_MOVE_TEXT] {
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

GameResult web_result_of(WebGame *w) {
    GameResult r = engine_result(w->g);
    if (r.kind == RESULT_NONE && w->forced != RESULT_NONE) {
        r.kind = w->forced;
        snprintf(r.reason, sizeof r.reason, "%s", w->forced_reason);
    }
    return r;
}

bool web_is_over(WebGame *w) {
    return web_result_of(w).kind != RESULT_NONE;
}

bool web_against_engine(WebGame *w) {
    return w->opt.player[0] != w->opt.player[1] && !web_is_over(w);
}

bool web_game_against_engine(WebGame *w) {
    pthread_mutex_lock(&w->lock);
    bool live = web_against_engine(w);
    pthread_mutex_unlock(&w->lock);
    return live;
}

/* The mancala position before the last move, for marking what the move changed. */
void web_refresh_before(WebGame *w) {
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

void web_wait_idle(WebGame *w, bool stop_engine) {
    if (w->thinking && stop_engine) {
        w->cancel = true;
        engine_search_stop(w->search);
        web_worker_wake();
    }
    while (w->thinking || w->busy)
        pthread_cond_wait(&w->idle, &w->lock);
}

bool web_commit(WebGame *w, WebError *e) {
    char err[ENGINE_ERR_LEN];
    char *text = web_store_text(w);
    if (!text) {
        web_set_err(e, 500, "the game is too long to save");
        return false;
    }
    w->busy = true;
    pthread_mutex_unlock(&w->lock);
    bool ok = web_store_write(w->id, w->info.kind, text, err, sizeof err);
    int code = errno;
    free(text);
    pthread_mutex_lock(&w->lock);
    w->busy = false;
    pthread_cond_broadcast(&w->idle);
    if (ok)
        w->updated = time(NULL);
    else
        web_set_err(e, web_store_status(code), err);
    return ok;
}

/* Waits for the engine (cancelling its move when asked) and any write; false with
 * 404 when the game was deleted meanwhile. */
static bool ready(WebGame *w, bool stop_engine, WebError *e) {
    web_wait_idle(w, stop_engine);
    if (w->removed)
        web_set_err(e, 404, "no game with that id");
    return !w->removed;
}

/* What a change may have to put back when its file cannot be written. */
typedef struct {
    int plies;
    char (*moves)[ENGINE_MOVE_TEXT]; /* the moves before, when the change removes some */
    ResultKind forced;
    char forced_reason[64];
    WebOptions opt;
} Saved;

static void keep(WebGame *w, Saved *s, bool moves) {
    int n;
    s->plies = w->plies;
    s->moves = moves ? web_history(w->g, false, &n) : NULL;
    s->forced = w->forced;
    snprintf(s->forced_reason, sizeof s->forced_reason, "%s", w->forced_reason);
    s->opt = w->opt;
}

/* Saves the change, or puts the game back as it was (file and memory agree). */
static bool commit_or_restore(WebGame *w, Saved *s, WebError *e) {
    bool ok = web_commit(w, e);
    if (!ok) {
        char err[ENGINE_ERR_LEN];
        while (w->plies > s->plies && engine_undo(w->g))
            w->plies--;
        for (; s->moves && w->plies < s->plies; w->plies++)
            if (!engine_play(w->g, s->moves[w->plies], err, sizeof err))
                break; /* cannot happen: these moves were played before */
        w->forced = s->forced;
        snprintf(w->forced_reason, sizeof w->forced_reason, "%s", s->forced_reason);
        w->opt = s->opt;
        w->version++;
        web_refresh_before(w);
    }
    free(s->moves);
    return ok;
}

/* Clock: a fallen flag ends the game, saved like any change (lock held). */
static void flag_fall(WebGame *w) {
    while (w->busy)
        pthread_cond_wait(&w->idle, &w->lock);
    if (w->removed || !web_clock_fallen(w))
        return;
    Saved s;
    keep(w, &s, false);
    web_clock_flag(w);
    WebError e;
    commit_or_restore(w, &s, &e);
}

/* ---- requests ---- */

cJSON *web_game_state(WebGame *w) {
    pthread_mutex_lock(&w->lock);
    flag_fall(w);
    w->seen = time(NULL);
    cJSON *o = web_view_state(w);
    pthread_mutex_unlock(&w->lock);
    return o;
}

cJSON *web_game_moves(WebGame *w) {
    cJSON *arr = cJSON_CreateArray();
    pthread_mutex_lock(&w->lock);
    web_view_moves(w, arr);
    pthread_mutex_unlock(&w->lock);
    return arr;
}

bool web_game_move(WebGame *w, const char *move, WebError *e) {
    bool ok = false;
    char err[ENGINE_ERR_LEN];
    pthread_mutex_lock(&w->lock);
    flag_fall(w);
    Saved s;
    WebClock clock = w->clock;
    if (w->removed) {
        web_set_err(e, 404, "no game with that id");
    } else if (w->thinking) {
        web_set_err(e, 409, "the engine is thinking: wait, or stop it first");
    } else if (web_is_over(w)) {
        web_set_err(e, 409, "the game is over");
    } else if (keep(w, &s, false), !engine_play(w->g, move, err, sizeof err)) {
        web_set_err(e, 400, err);
    } else {
        web_clock_moved(&w->clock, 1 - engine_side_to_move(w->g));
        w->version++;
        w->plies++;
        w->engine_error[0] = 0;
        web_refresh_before(w);
        ok = commit_or_restore(w, &s, e);
        if (!ok)
            w->clock = clock; /* Clock: as the file has it */
        Side side = engine_side_to_move(w->g);
        if (ok && w->opt.player[side] == WEB_ENGINE && !web_is_over(w) && !w->thinking)
            web_worker_start(w, w->opt.level, w->opt.movetime_ms, NULL);
    }
    pthread_mutex_unlock(&w->lock);
    return ok;
}

bool web_game_go(WebGame *w, int level, int movetime_ms, WebError *e) {
    pthread_mutex_lock(&w->lock);
    flag_fall(w);
    bool ok = web_worker_start(w, level > 0 ? level : w->opt.level,
                               movetime_ms > 0 ? movetime_ms : w->opt.movetime_ms, e);
    pthread_mutex_unlock(&w->lock);
    return ok;
}

bool web_game_stop(WebGame *w, WebError *e) {
    pthread_mutex_lock(&w->lock);
    bool ok = w->thinking;
    if (ok)
        engine_search_stop(w->search); /* it plays the best move found so far */
    else
        web_set_err(e, 409, "the engine is not thinking");
    pthread_mutex_unlock(&w->lock);
    return ok;
}

bool web_game_undo(WebGame *w, int count, WebError *e) {
    pthread_mutex_lock(&w->lock);
    bool ok = ready(w, true, e);
    Saved s;
    if (ok)
        keep(w, &s, true);
    if (count < 1)
        count = 1;
    if (!ok) {
        /* deleted meanwhile */
    } else if (w->forced != RESULT_NONE) {
        /* taking back a resignation or an agreed draw counts as one step */
        w->forced = RESULT_NONE;
        w->forced_reason[0] = 0;
        count--;
    } else if (w->plies == 0) {
        web_set_err(e, 409, "there is no move to take back");
        free(s.moves);
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
        web_refresh_before(w);
        ok = commit_or_restore(w, &s, e);
    }
    pthread_mutex_unlock(&w->lock);
    return ok;
}

bool web_game_resign(WebGame *w, int side, WebError *e) {
    pthread_mutex_lock(&w->lock);
    bool ok = ready(w, true, e);
    if (ok && web_is_over(w)) {
        web_set_err(e, 409, "the game is over");
        ok = false;
    } else if (ok) {
        if (side < 0) {
            Side stm = engine_side_to_move(w->g);
            side = stm;
            if (w->opt.player[0] != w->opt.player[1])
                side = w->opt.player[0] == WEB_HUMAN ? 0 : 1;
        }
        Saved s;
        keep(w, &s, false);
        bool mancala = w->info.kind == KIND_MANCALA;
        w->forced = side == 0 ? RESULT_SECOND_WINS : RESULT_FIRST_WINS;
        snprintf(w->forced_reason, sizeof w->forced_reason, "%s resigns",
                 mancala ? (side == 0 ? "A" : "B") : (side == 0 ? "White" : "Black"));
        w->version++;
        ok = commit_or_restore(w, &s, e);
    }
    pthread_mutex_unlock(&w->lock);
    return ok;
}

/* People at one screen agree by asking; the engine agrees when it judges its own
 * side no better than level. */
static bool draw_agreed(WebGame *w) {
    bool agree = true;
    for (int s = 0; s < 2; s++)
        if (w->opt.player[s] == WEB_ENGINE && w->opt.player[1 - s] == WEB_HUMAN) {
            int own = s == 0 ? w->eval_score : -w->eval_score;
            int mate = s == 0 ? w->eval_mate : -w->eval_mate;
            agree = agree && w->has_eval && mate <= 0 && own <= 0;
        }
    return agree;
}

bool web_game_draw(WebGame *w, bool *accepted, WebError *e) {
    pthread_mutex_lock(&w->lock);
    *accepted = false;
    bool ok = ready(w, draw_agreed(w), e);
    if (ok && web_is_over(w)) {
        web_set_err(e, 409, "the game is over");
        ok = false;
    } else if (ok && draw_agreed(w)) {
        Saved s;
        keep(w, &s, false);
        w->forced = RESULT_DRAW;
        snprintf(w->forced_reason, sizeof w->forced_reason, "draw agreed");
        w->version++;
        ok = *accepted = commit_or_restore(w, &s, e);
    }
    pthread_mutex_unlock(&w->lock);
    return ok;
}

bool web_game_options(WebGame *w, const cJSON *players, int level, int movetime_ms, WebError *e) {
    pthread_mutex_lock(&w->lock);
    while (w->busy)
        pthread_cond_wait(&w->idle, &w->lock);
    bool ok = !w->removed;
    if (!ok) {
        web_set_err(e, 404, "no game with that id");
    } else {
        Saved s;
        keep(w, &s, false);
        for (int i = 0; i < 2 && players; i++) {
            const cJSON *p = cJSON_GetArrayItem(players, i);
            if (cJSON_IsString(p))
                w->opt.player[i] = !strcmp(p->valuestring, "engine") ? WEB_ENGINE : WEB_HUMAN;
        }
        if (level > 0)
            w->opt.level = level;
        if (movetime_ms > 0)
            w->opt.movetime_ms = movetime_ms;
        w->version++;
        ok = commit_or_restore(w, &s, e);
    }
    pthread_mutex_unlock(&w->lock);
    return ok;
}

char *web_game_export(WebGame *w, char *name, size_t namelen) {
    pthread_mutex_lock(&w->lock);
    char *text = web_store_text(w);
    snprintf(name, namelen, "%s-%s.%s", w->info.name, w->id,
             w->info.kind == KIND_MANCALA ? "sgn" : "pgn");
    pthread_mutex_unlock(&w->lock);
    return text;
}
