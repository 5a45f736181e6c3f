/* view.c - JSON views of a web game: its state (everything the page draws), its
 * legal moves and its entry in the list of games. Each is called with the game's
 * lock held and only reads the game. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/web/games/view.h"

void web_view_moves(WebGame *w, cJSON *arr) {
    if (web_is_over(w))
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

void web_view_board(cJSON *o, const Game *g) {
    BoardView b;
    if (!engine_board(g, &b))
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
        char row[17];
        int nf = b.files < 16 ? b.files : 16;
        for (int f = 0; f < nf; f++)
            row[f] = b.gate[s][f] ? b.gate[s][f] : '.';
        row[nf] = 0;
        cJSON_AddItemToArray(gates, cJSON_CreateString(row));
        char h[9];
        snprintf(h, sizeof h, "%.8s", b.hand[s]);
        cJSON_AddItemToArray(hands, cJSON_CreateString(h));
    }
    cJSON_AddBoolToObject(bd, "check", b.check);
}

/* The search; its line (pv, pv_san) is "" while hidden. */
static cJSON *search_json(const SearchInfo *si, const char *pv_san, bool hide_line, int side,
                          int ply) {
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
    cJSON_AddStringToObject(s, "pv", hide_line ? "" : si->pv);
    cJSON_AddStringToObject(s, "pv_san", hide_line ? "" : pv_san);
    return s;
}

/* Online: the seats (names only), the offers, rated. */
static void view_online(cJSON *o, const WebGame *w) {
    cJSON_AddBoolToObject(o, "online", w->online);
    if (!w->online)
        return;
    cJSON_AddBoolToObject(o, "rated", w->rated);
    cJSON_AddBoolToObject(o, "started", web_started(w));
    cJSON *seats = cJSON_AddArrayToObject(o, "seats");
    for (int s = 0; s < 2; s++) {
        cJSON *p = cJSON_CreateObject();
        cJSON_AddBoolToObject(p, "held", w->seat[s].held);
        if (w->seat[s].held)
            cJSON_AddStringToObject(p, "name", w->seat[s].name);
        else
            cJSON_AddNullToObject(p, "name");
        cJSON_AddItemToArray(seats, p);
    }
    static const unsigned char open_to_all[WEB_HASH_LEN];
    cJSON_AddBoolToObject(o, "invitation", memcmp(w->invite, open_to_all, WEB_HASH_LEN) != 0);
    const int offers[2] = {w->draw_offer, w->takeback_offer};
    const char *names[2] = {"draw_offer", "takeback_offer"};
    for (int i = 0; i < 2; i++)
        if (offers[i] >= 0)
            cJSON_AddNumberToObject(o, names[i], offers[i]);
        else
            cJSON_AddNullToObject(o, names[i]);
}

cJSON *web_view_state(WebGame *w) {
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
    char pos[WEB_POS_LEN];
    engine_position_text(w->g, pos, sizeof pos);
    cJSON_AddStringToObject(o, "position", pos);
    char initial[WEB_POS_LEN];
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
        web_view_board(o, w->g);
    }
    cJSON_AddItemToObject(o, "moves", cJSON_CreateArray());
    web_view_moves(w, cJSON_GetObjectItem(o, "moves"));
    int n;
    char(*text)[ENGINE_MOVE_TEXT] = web_history(w->g, false, &n);
    char(*san)[ENGINE_MOVE_TEXT] = web_history(w->g, true, &n);
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
    GameResult r = web_result_of(w);
    cJSON *res = cJSON_AddObjectToObject(o, "result");
    cJSON_AddBoolToObject(res, "over", web_is_over(w));
    cJSON_AddBoolToObject(res, "aborted", w->aborted);
    if (w->aborted)
        snprintf(r.reason, sizeof r.reason, "%s", w->forced_reason);
    cJSON_AddStringToObject(res, "score", web_result_token(r.kind));
    if (r.kind == RESULT_FIRST_WINS || r.kind == RESULT_SECOND_WINS)
        cJSON_AddNumberToObject(res, "winner", r.kind == RESULT_FIRST_WINS ? 0 : 1);
    else
        cJSON_AddNullToObject(res, "winner");
    cJSON_AddStringToObject(res, "reason", r.reason);
    cJSON *pl = cJSON_AddArrayToObject(o, "players");
    for (int s = 0; s < 2; s++)
        cJSON_AddItemToArray(pl, cJSON_CreateString(web_player_name(w->opt.player[s])));
    cJSON_AddNumberToObject(o, "level", w->opt.level);
    cJSON_AddNumberToObject(o, "movetime_ms", w->opt.movetime_ms);
    cJSON_AddBoolToObject(o, "thinking", w->thinking);
    cJSON_AddBoolToObject(o, "queued", w->queued);
    cJSON_AddItemToObject(o, "clock",
                          web_clock_json(&w->clock, engine_side_to_move(w->g), web_clock_runs(w)));
    view_online(o, w);
    if (w->has_info)
        cJSON_AddItemToObject(
            o, "search",
            search_json(&w->si, w->pv_san, web_against_engine(w), w->info_side, w->info_ply));
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

cJSON *web_view_entry(WebGame *w) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "id", w->id);
    cJSON_AddStringToObject(o, "variant", w->info.name);
    cJSON_AddStringToObject(o, "title", w->info.title);
    cJSON_AddStringToObject(o, "kind", w->info.kind == KIND_MANCALA ? "mancala" : "chess");
    cJSON *pl = cJSON_AddArrayToObject(o, "players");
    for (int s = 0; s < 2; s++)
        cJSON_AddItemToArray(pl, cJSON_CreateString(web_player_name(w->opt.player[s])));
    cJSON_AddNumberToObject(o, "plies", w->plies);
    cJSON_AddNumberToObject(o, "side", engine_side_to_move(w->g));
    GameResult r = web_result_of(w);
    cJSON_AddStringToObject(o, "result", web_result_token(r.kind));
    cJSON_AddStringToObject(o, "reason", r.reason);
    cJSON_AddBoolToObject(o, "thinking", w->thinking);
    cJSON_AddBoolToObject(o, "online", w->online);
    if (w->online) {
        cJSON *names = cJSON_AddArrayToObject(o, "names");
        for (int s = 0; s < 2; s++)
            cJSON_AddItemToArray(names, w->seat[s].held ? cJSON_CreateString(w->seat[s].name)
                                                        : cJSON_CreateNull());
    }
    cJSON_AddNumberToObject(o, "created", (double)w->created);
    cJSON_AddNumberToObject(o, "updated", (double)w->updated);
    return o;
}
