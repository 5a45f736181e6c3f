/* play.c - the requests on one web game (play.h). A change is made under the game's
 * lock and saved by web_store_commit, which drops the lock while the row is written;
 * a change whose row could not be written is rolled back and answered with a 5xx
 * error (see game.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/web/games/play.h"
#include "app/web/games/view.h"

bool web_game_against_engine(WebGame *w) {
    pthread_mutex_lock(&w->lock);
    bool live = web_against_engine(w);
    pthread_mutex_unlock(&w->lock);
    return live;
}

/* Waits for the engine (cancelling its move when asked) and any write; false with
 * 404 when the game was deleted meanwhile. */
static bool ready(WebGames *gs, WebGame *w, bool stop_engine, WebError *e) {
    web_worker_wait_idle(&gs->workers, w, stop_engine);
    if (w->removed)
        web_set_err(e, 404, "no game with that id");
    return !w->removed;
}

/* What a change may have to put back when its row cannot be written. */
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

/* Saves the change, or puts the game back as it was (row and memory agree). */
static bool commit_or_restore(WebGames *gs, WebGame *w, Saved *s, WebError *e) {
    bool ok = web_store_commit(&gs->store, w, e);
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

/* The side to move's time is up, the game not over. */
static bool clock_fallen(WebGame *w) {
    return w->clock.base_ms && !web_is_over(w) &&
           web_clock_left(&w->clock, engine_side_to_move(w->g), true) <= 0;
}

/* Ends the game on that flag (the caller saves). */
static void clock_flag(WebGames *gs, WebGame *w) {
    Side side = engine_side_to_move(w->g);
    w->clock.left[side] = 0;
    w->clock.since = web_now_ms();
    bool mancala = w->info.kind == KIND_MANCALA;
    const char *who = mancala ? (side ? "B" : "A") : (side ? "Black" : "White");
    const char *other = mancala ? (side ? "A" : "B") : (side ? "White" : "Black");
    if (engine_can_mate(w->g, 1 - side)) { /* it loses, unless the other side cannot mate */
        w->forced = side == SIDE_FIRST ? RESULT_SECOND_WINS : RESULT_FIRST_WINS;
        snprintf(w->forced_reason, sizeof w->forced_reason, "%s's time ran out", who);
    } else {
        w->forced = RESULT_DRAW;
        snprintf(w->forced_reason, sizeof w->forced_reason, "%s's time ran out; %s cannot mate",
                 who, other);
    }
    if (w->thinking) { /* its move would come too late */
        w->cancel = true;
        engine_search_stop(w->search);
        web_worker_wake(&gs->workers);
    }
    w->version++;
}

/* Clock: a fallen flag ends the game, saved like any change (lock held). */
static void flag_fall(WebGames *gs, WebGame *w) {
    while (w->busy)
        pthread_cond_wait(&w->idle, &w->lock);
    if (w->removed || !clock_fallen(w))
        return;
    Saved s;
    keep(w, &s, false);
    clock_flag(gs, w);
    WebError e;
    commit_or_restore(gs, w, &s, &e);
}

/* ---- requests ---- */

cJSON *web_game_state(WebGames *gs, WebGame *w) {
    pthread_mutex_lock(&w->lock);
    flag_fall(gs, w);
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

bool web_game_move(WebGames *gs, WebGame *w, const char *move, WebError *e) {
    bool ok = false;
    char err[ENGINE_ERR_LEN];
    pthread_mutex_lock(&w->lock);
    flag_fall(gs, w);
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
        ok = commit_or_restore(gs, w, &s, e);
        if (!ok)
            w->clock = clock; /* Clock: as the row has it */
        Side side = engine_side_to_move(w->g);
        if (ok && w->opt.player[side] == WEB_ENGINE && !web_is_over(w) && !w->thinking)
            web_worker_start(&gs->workers, w, w->opt.level, w->opt.movetime_ms, NULL);
    }
    pthread_mutex_unlock(&w->lock);
    return ok;
}

bool web_game_go(WebGames *gs, WebGame *w, int level, int movetime_ms, WebError *e) {
    pthread_mutex_lock(&w->lock);
    flag_fall(gs, w);
    bool ok = web_worker_start(&gs->workers, w, level > 0 ? level : w->opt.level,
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

bool web_game_undo(WebGames *gs, WebGame *w, int count, WebError *e) {
    pthread_mutex_lock(&w->lock);
    bool ok = ready(gs, w, true, e);
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
        ok = commit_or_restore(gs, w, &s, e);
    }
    pthread_mutex_unlock(&w->lock);
    return ok;
}

bool web_game_resign(WebGames *gs, WebGame *w, int side, WebError *e) {
    pthread_mutex_lock(&w->lock);
    bool ok = ready(gs, w, true, e);
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
        ok = commit_or_restore(gs, w, &s, e);
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

bool web_game_draw(WebGames *gs, WebGame *w, bool *accepted, WebError *e) {
    pthread_mutex_lock(&w->lock);
    *accepted = false;
    bool ok = ready(gs, w, draw_agreed(w), e);
    if (ok && web_is_over(w)) {
        web_set_err(e, 409, "the game is over");
        ok = false;
    } else if (ok && draw_agreed(w)) {
        Saved s;
        keep(w, &s, false);
        w->forced = RESULT_DRAW;
        snprintf(w->forced_reason, sizeof w->forced_reason, "draw agreed");
        w->version++;
        ok = *accepted = commit_or_restore(gs, w, &s, e);
    }
    pthread_mutex_unlock(&w->lock);
    return ok;
}

bool web_game_options(WebGames *gs, WebGame *w, const cJSON *players, int level, int movetime_ms,
                      WebError *e) {
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
        ok = commit_or_restore(gs, w, &s, e);
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
