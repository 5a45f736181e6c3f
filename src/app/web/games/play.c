/* play.c - the requests on one web game (play.h). A change is made under the game's
 * lock and saved by web_store_commit, which drops the lock while the row is written;
 * a change whose row could not be written is rolled back and answered with a 5xx
 * error (see game.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/web/games/play.h"
#include "app/web/games/view.h"
#include "app/web/online/secret.h"

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

/* Online, on a database shared by several server processes: the game as the last
 * process to change it left it (lock held; online games have no engine). */
static void up_to_date(WebGames *gs, WebGame *w) {
    while (w->busy)
        pthread_cond_wait(&w->idle, &w->lock);
    if (w->online && !w->removed)
        web_store_refresh(&gs->store, w);
}

/* Online: the side the actor acts for (-1 with *e filled: a spectator, or a game
 * still waiting for its second player). Local games: -2, anybody acts. */
static int acting_side(const WebGame *w, const WebActor *a, WebError *e) {
    if (!w->online)
        return -2;
    int side = web_seat_of(w, a);
    if (side < 0)
        web_set_err(e, 403, "you are watching this game: only its players can act in it");
    else if (!web_seats_full(w))
        web_set_err(e, 409, "the game waits for its second player");
    return side < 0 || !web_seats_full(w) ? -1 : side;
}

/* Online games have no engine to start, stop or set. */
static bool local_only(const WebGame *w, WebError *e) {
    if (w->online)
        web_set_err(e, 403, "a game between people has no engine to drive");
    return !w->online;
}

/* What a change may have to put back when its row cannot be written. */
typedef struct {
    int plies;
    char (*moves)[ENGINE_MOVE_TEXT]; /* the moves before, when the change removes some */
    ResultKind forced;
    char forced_reason[64];
    WebOptions opt;
    int draw_offer, takeback_offer;
} Saved;

static void keep(WebGame *w, Saved *s, bool moves) {
    int n;
    s->plies = w->plies;
    s->moves = moves ? web_history(w->g, false, &n) : NULL;
    s->forced = w->forced;
    snprintf(s->forced_reason, sizeof s->forced_reason, "%s", w->forced_reason);
    s->opt = w->opt;
    s->draw_offer = w->draw_offer;
    s->takeback_offer = w->takeback_offer;
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
        w->draw_offer = s->draw_offer;
        w->takeback_offer = s->takeback_offer;
        w->version++;
        web_refresh_before(w);
    }
    free(s->moves);
    return ok;
}

/* The side to move's time is up, the game not over. */
static bool clock_fallen(WebGame *w) {
    return web_clock_runs(w) && web_clock_left(&w->clock, engine_side_to_move(w->g), true) <= 0;
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

cJSON *web_game_state(WebGames *gs, WebGame *w, const WebActor *a) {
    pthread_mutex_lock(&w->lock);
    flag_fall(gs, w);
    w->seen = time(NULL);
    cJSON *o = web_view_state(w);
    int you = web_seat_of(w, a);
    if (you >= 0)
        cJSON_AddNumberToObject(o, "you", you);
    else
        cJSON_AddNullToObject(o, "you");
    pthread_mutex_unlock(&w->lock);
    return o;
}

/* Ends an online game without a result (lock held, not busy); false with *e when it
 * could not be saved. */
static bool abort_game(WebGames *gs, WebGame *w, const char *why, WebError *e) {
    Saved s;
    keep(w, &s, false);
    w->aborted = true;
    snprintf(w->forced_reason, sizeof w->forced_reason, "%s", why);
    w->draw_offer = w->takeback_offer = -1;
    w->version++;
    bool ok = commit_or_restore(gs, w, &s, e);
    if (!ok)
        w->aborted = false;
    return ok;
}

void web_game_tick(WebGames *gs, WebGame *w) {
    pthread_mutex_lock(&w->lock);
    flag_fall(gs, w);
    while (w->busy)
        pthread_cond_wait(&w->idle, &w->lock);
    time_t idle = time(NULL) - w->updated;
    WebError e;
    if (w->online && !w->removed && !web_is_over(w)) {
        if (!web_seats_full(w) && idle > WEB_INVITE_DAYS * 86400)
            abort_game(gs, w, "game aborted: nobody took the invitation", &e);
        else if (web_seats_full(w) && !web_started(w) && idle > WEB_FIRST_MOVE_S)
            abort_game(gs, w, "game aborted: the first moves were not made in time", &e);
    }
    pthread_mutex_unlock(&w->lock);
}

void web_games_tick(WebGames *gs) {
    int n;
    WebGame **list = web_games_online(gs, &n);
    for (int i = 0; i < n; i++) {
        web_game_tick(gs, list[i]);
        web_game_put(list[i]);
    }
    free(list);
}

bool web_game_abort(WebGames *gs, WebGame *w, const WebActor *a, WebError *e) {
    pthread_mutex_lock(&w->lock);
    up_to_date(gs, w);
    while (w->busy)
        pthread_cond_wait(&w->idle, &w->lock);
    int side = w->online ? web_seat_of(w, a) : -1;
    bool ok = false;
    if (w->removed)
        web_set_err(e, 404, "no game with that id");
    else if (!w->online)
        web_set_err(e, 409, "only a game between people online can be aborted");
    else if (side < 0)
        web_set_err(e, 403, "you are watching this game: only its players can act in it");
    else if (web_is_over(w))
        web_set_err(e, 409, "the game is over");
    else if (web_started(w))
        web_set_err(e, 409, "both sides have moved: resign, or offer a draw");
    else
        ok = abort_game(gs, w, side ? "game aborted by Black" : "game aborted by White", e);
    pthread_mutex_unlock(&w->lock);
    return ok;
}

bool web_game_claim(WebGames *gs, WebGame *w, const WebActor *a, bool win,
                    bool (*gone)(void *ctx, const char *id, int side), void *ctx, WebError *e) {
    pthread_mutex_lock(&w->lock);
    up_to_date(gs, w);
    flag_fall(gs, w);
    while (w->busy)
        pthread_cond_wait(&w->idle, &w->lock);
    int side = w->removed ? -2 : acting_side(w, a, e);
    bool ok = false;
    if (w->removed) {
        web_set_err(e, 404, "no game with that id");
    } else if (side == -1 || side == -2) {
        if (side == -2)
            web_set_err(e, 409, "only a game between people online can be claimed");
    } else if (web_is_over(w)) {
        web_set_err(e, 409, "the game is over");
    } else if ((int)engine_side_to_move(w->g) == side) {
        web_set_err(e, 409, "it is your move: your opponent is waiting for you");
    } else if (time(NULL) - w->updated < WEB_GONE_S || !gone(ctx, w->id, 1 - side)) {
        web_set_err(e, 409, "your opponent is still here (or left less than 30 seconds ago)");
    } else {
        Saved s;
        keep(w, &s, false);
        bool mancala = w->info.kind == KIND_MANCALA;
        const char *who = mancala ? (side ? "A" : "B") : (side ? "White" : "Black");
        w->forced = !win ? RESULT_DRAW : side == 0 ? RESULT_FIRST_WINS : RESULT_SECOND_WINS;
        snprintf(w->forced_reason, sizeof w->forced_reason, "%s left the game", who);
        w->draw_offer = w->takeback_offer = -1;
        w->version++;
        ok = commit_or_restore(gs, w, &s, e);
    }
    pthread_mutex_unlock(&w->lock);
    return ok;
}

cJSON *web_game_moves(WebGame *w) {
    cJSON *arr = cJSON_CreateArray();
    pthread_mutex_lock(&w->lock);
    web_view_moves(w, arr);
    pthread_mutex_unlock(&w->lock);
    return arr;
}

bool web_game_move(WebGames *gs, WebGame *w, const WebActor *a, const char *move, int lag_ms,
                   WebError *e) {
    bool ok = false;
    char err[ENGINE_ERR_LEN];
    pthread_mutex_lock(&w->lock);
    up_to_date(gs, w);
    flag_fall(gs, w);
    Saved s;
    WebClock clock = w->clock;
    int side = w->removed ? -2 : acting_side(w, a, e);
    bool runs = web_clock_runs(w);
    if (w->removed) {
        web_set_err(e, 404, "no game with that id");
    } else if (side == -1) {
        /* *e says why */
    } else if (side >= 0 && side != (int)engine_side_to_move(w->g)) {
        web_set_err(e, 403, "it is your opponent's move");
    } else if (w->thinking) {
        web_set_err(e, 409, "the engine is thinking: wait, or stop it first");
    } else if (web_is_over(w)) {
        web_set_err(e, 409, "the game is over");
    } else if (keep(w, &s, false), !engine_play(w->g, move, err, sizeof err)) {
        web_set_err(e, 400, err);
    } else {
        int mover = 1 - engine_side_to_move(w->g);
        if (runs)
            web_clock_moved(&w->clock, mover, lag_ms);
        else
            web_clock_restart(&w->clock); /* online: the clocks start after both first moves */
        if (w->draw_offer != mover)
            w->draw_offer = -1; /* a move declines the other side's offer */
        w->takeback_offer = -1;
        w->version++;
        w->plies++;
        w->engine_error[0] = 0;
        web_refresh_before(w);
        ok = commit_or_restore(gs, w, &s, e);
        if (!ok)
            w->clock = clock; /* Clock: as the row has it */
        Side stm = engine_side_to_move(w->g);
        if (ok && w->opt.player[stm] == WEB_ENGINE && !web_is_over(w) && !w->thinking)
            web_worker_start(&gs->workers, w, w->opt.level, w->opt.movetime_ms, NULL);
    }
    pthread_mutex_unlock(&w->lock);
    return ok;
}

bool web_game_go(WebGames *gs, WebGame *w, int level, int movetime_ms, WebError *e) {
    pthread_mutex_lock(&w->lock);
    flag_fall(gs, w);
    bool ok =
        local_only(w, e) && web_worker_start(&gs->workers, w, level > 0 ? level : w->opt.level,
                                             movetime_ms > 0 ? movetime_ms : w->opt.movetime_ms, e);
    pthread_mutex_unlock(&w->lock);
    return ok;
}

bool web_game_stop(WebGame *w, WebError *e) {
    pthread_mutex_lock(&w->lock);
    bool ok = local_only(w, e) && w->thinking;
    if (ok)
        engine_search_stop(w->search); /* it plays the best move found so far */
    else if (!w->online)
        web_set_err(e, 409, "the engine is not thinking");
    pthread_mutex_unlock(&w->lock);
    return ok;
}

/* Online, a take-back is asked for and granted: the first request from a seat
 * offers it (answered at once, the game unchanged but for the offer), the
 * other seat's request grants it, and the asker's last move goes back (two
 * plies when the asker is to move). *count gets the plies; false: nothing more
 * to do (done, or *e filled). */
static bool takeback_agreed(WebGames *gs, WebGame *w, int side, int *count, bool *ok, WebError *e) {
    if (web_is_over(w)) {
        web_set_err(e, 409, "the game is over");
    } else if (w->takeback_offer == 1 - side) {
        int asker = w->takeback_offer;
        *count = (int)engine_side_to_move(w->g) == asker ? 2 : 1;
        if (*count > w->plies)
            *count = w->plies;
        return true;
    } else if (w->plies == 0 || (w->plies == 1 && side == 1)) {
        web_set_err(e, 409, "there is no move of yours to take back");
    } else { /* saved, so that every server process shows it */
        Saved s;
        keep(w, &s, false);
        w->takeback_offer = side;
        w->version++;
        *ok = commit_or_restore(gs, w, &s, e);
        return false;
    }
    *ok = false;
    return false;
}

bool web_game_undo(WebGames *gs, WebGame *w, const WebActor *a, int count, WebError *e) {
    pthread_mutex_lock(&w->lock);
    up_to_date(gs, w);
    bool ok = ready(gs, w, true, e);
    int side = ok ? acting_side(w, a, e) : -2;
    if (side == -1 || (side >= 0 && !takeback_agreed(gs, w, side, &count, &ok, e))) {
        pthread_mutex_unlock(&w->lock);
        return ok && side >= 0;
    }
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
        w->takeback_offer = w->draw_offer = -1;
        w->version++;
        w->engine_error[0] = 0;
        web_refresh_before(w);
        ok = commit_or_restore(gs, w, &s, e);
    }
    pthread_mutex_unlock(&w->lock);
    return ok;
}

bool web_game_resign(WebGames *gs, WebGame *w, const WebActor *a, int side, WebError *e) {
    pthread_mutex_lock(&w->lock);
    up_to_date(gs, w);
    bool ok = ready(gs, w, true, e);
    int seat = ok ? acting_side(w, a, e) : -2;
    if (seat == -1) {
        ok = false;
    } else if (seat >= 0 && side >= 0 && side != seat) {
        web_set_err(e, 403, "you can resign only for your own side");
        ok = false;
    } else if (seat >= 0) {
        side = seat;
    }
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

bool web_game_draw(WebGames *gs, WebGame *w, const WebActor *a, bool *accepted, WebError *e) {
    pthread_mutex_lock(&w->lock);
    up_to_date(gs, w);
    *accepted = false;
    int side = acting_side(w, a, e);
    bool ok = side != -1 && ready(gs, w, side < 0 && draw_agreed(w), e);
    bool agreed = side >= 0 ? w->draw_offer == 1 - side : draw_agreed(w);
    if (ok && web_is_over(w)) {
        web_set_err(e, 409, "the game is over");
        ok = false;
    } else if (ok && side >= 0 && !agreed) { /* online: an offer, until the other side moves */
        Saved s;
        keep(w, &s, false);
        w->draw_offer = side;
        w->version++;
        ok = commit_or_restore(gs, w, &s, e);
    } else if (ok && agreed) {
        Saved s;
        keep(w, &s, false);
        w->forced = RESULT_DRAW;
        snprintf(w->forced_reason, sizeof w->forced_reason, "draw agreed");
        w->draw_offer = -1;
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
    } else if (!(ok = local_only(w, e))) {
        /* *e says why */
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

bool web_game_join(WebGames *gs, WebGame *w, const WebActor *a, const unsigned char *token_hash,
                   const char *name, WebError *e) {
    static const unsigned char open_to_all[WEB_HASH_LEN];
    pthread_mutex_lock(&w->lock);
    up_to_date(gs, w);
    while (w->busy)
        pthread_cond_wait(&w->idle, &w->lock);
    int seat = !w->seat[0].held ? 0 : !w->seat[1].held ? 1 : -1;
    bool ok = false;
    if (w->removed) {
        web_set_err(e, 404, "no game with that id");
    } else if (!w->online) {
        web_set_err(e, 409, "this game is not played online: there is no seat to take");
    } else if (!a || !a->known) {
        web_set_err(e, 403, "no session came with the request (are cookies allowed?)");
    } else if (web_seat_of(w, a) >= 0) {
        web_set_err(e, 409, "you already play in this game");
    } else if (seat < 0) {
        web_set_err(e, 409, "both seats of this game are taken: you can watch it");
    } else if (web_is_over(w)) {
        web_set_err(e, 409, "the game is over");
    } else if (w->rated && !a->account) {
        web_set_err(e, 403, "log in to play a rated game");
    } else if (memcmp(w->invite, open_to_all, WEB_HASH_LEN) != 0 &&
               (!token_hash || !web_secret_equal(token_hash, w->invite))) {
        web_set_err(e, 403, "this game is by invitation: open the link you were sent");
    } else {
        Saved s;
        keep(w, &s, false);
        WebSeat before = w->seat[seat];
        w->seat[seat].held = true;
        memcpy(w->seat[seat].holder, a->holder, WEB_HASH_LEN);
        w->seat[seat].account = a->account; /* a player logged in plays under the account's name */
        snprintf(w->seat[seat].name, sizeof w->seat[seat].name, "%s", a->account ? a->name : name);
        web_clock_restart(&w->clock);
        w->version++;
        ok = commit_or_restore(gs, w, &s, e);
        if (!ok)
            w->seat[seat] = before;
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
