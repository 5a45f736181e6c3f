/* study.c - API routes for looking at games rather than playing them:
 * every position of a game for the review (replayed from its saved text, so
 * it needs nothing from the live game but web_game_export) and piece
 * diagrams (engine_piece_reach) and the check of a position built in the
 * board editor (engine_new's own message), and what each engine level means
 * (engine_level). api.c routes to these. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/web/games/play.h"
#include "app/web/games/view.h"
#include "app/web/study.h"

static cJSON *position_entry(Game *g) {
    cJSON *o = cJSON_CreateObject();
    char text[1024];
    engine_position_text(g, text, sizeof text);
    cJSON_AddStringToObject(o, "position", text);
    cJSON_AddNumberToObject(o, "side", engine_side_to_move(g));
    MoveDesc last;
    if (engine_last_move(g, &last)) {
        cJSON *l = cJSON_AddObjectToObject(o, "last");
        cJSON_AddStringToObject(l, "text", last.text);
        cJSON_AddNumberToObject(l, "from", last.from);
        cJSON_AddNumberToObject(l, "to", last.to);
    } else {
        cJSON_AddNullToObject(o, "last");
    }
    web_view_board(o, g);
    return o;
}

Game *web_study_saved(WebGames *gs, const char *id, WebReply *out) {
    WebError e;
    WebGame *w = web_game_get(gs, id, &e);
    if (!w) {
        web_reply_error(out, e.status, e.msg);
        return NULL;
    }
    char name[64], err[ENGINE_ERR_LEN];
    char *text = web_game_export(w, name, sizeof name);
    web_game_put(w);
    Game *g = text ? engine_import(text, err, sizeof err) : NULL;
    free(text);
    if (!g)
        web_reply_error(out, 500, "the saved game cannot be read back");
    return g;
}

void web_study_positions(WebGames *gs, const char *id, WebReply *out) {
    // Step 1. The game as saved, read back.
    Game *g = web_study_saved(gs, id, out);
    if (!g)
        return;
    // Step 2. Replay it from its start position, one entry per ply.
    GameInfo gi;
    engine_info(g, &gi);
    char start[1024];
    engine_initial_text(g, start, sizeof start);
    int n = engine_ply_count(g);
    char(*moves)[ENGINE_MOVE_TEXT] = malloc((size_t)(n ? n : 1) * sizeof *moves);
    if (!moves)
        abort();
    n = engine_history(g, moves, n, false);
    engine_free(g);
    char err[ENGINE_ERR_LEN];
    g = engine_new(gi.name, start, err, sizeof err);
    cJSON *arr = cJSON_CreateArray();
    for (int i = 0; g && i <= n; i++) {
        cJSON_AddItemToArray(arr, position_entry(g));
        if (i < n && !engine_play(g, moves[i], err, sizeof err))
            break;
    }
    free(moves);
    engine_free(g);
    web_reply_json(out, 200, arr);
}

void web_study_diagram(const cJSON *body, WebReply *out) {
    const cJSON *var = cJSON_GetObjectItemCaseSensitive(body, "variant");
    const cJSON *piece = cJSON_GetObjectItemCaseSensitive(body, "piece");
    const cJSON *side = cJSON_GetObjectItemCaseSensitive(body, "side");
    const cJSON *square = cJSON_GetObjectItemCaseSensitive(body, "square");
    bool known = false;
    for (const char *const *nm = engine_game_names(); cJSON_IsString(var) && *nm; nm++)
        known |= !strcmp(*nm, var->valuestring);
    if (!known || !cJSON_IsString(piece) || strlen(piece->valuestring) != 1 ||
        !cJSON_IsNumber(square) || !(square->valuedouble >= 0 && square->valuedouble < 256) ||
        square->valuedouble != (int)square->valuedouble ||
        (side && !cJSON_IsNull(side) && (!cJSON_IsNumber(side) || (side->valueint & ~1)))) {
        web_reply_error(out, 400,
                        "give \"variant\" (a game's name), \"piece\" (its letter), "
                        "\"square\" (rank * files + file) and \"side\" (0 or 1)");
        return;
    }
    Side s = cJSON_IsNumber(side) && side->valueint ? SIDE_SECOND : SIDE_FIRST;
    PieceReach *r = malloc(256 * sizeof *r);
    if (!r)
        abort();
    char err[ENGINE_ERR_LEN];
    int n = engine_piece_reach(var->valuestring, piece->valuestring[0], s, square->valueint, r, 256,
                               err, sizeof err);
    if (n < 0) {
        free(r);
        web_reply_error(out, 400, err);
        return;
    }
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "variant", var->valuestring);
    cJSON_AddStringToObject(o, "piece", piece->valuestring);
    cJSON_AddNumberToObject(o, "side", s);
    cJSON_AddNumberToObject(o, "square", square->valueint);
    cJSON *targets = cJSON_AddArrayToObject(o, "targets");
    for (int i = 0; i < n; i++) {
        cJSON *t = cJSON_CreateObject();
        cJSON_AddNumberToObject(t, "sq", r[i].sq);
        cJSON_AddBoolToObject(t, "move", r[i].move);
        cJSON_AddBoolToObject(t, "capture", r[i].capture);
        cJSON_AddBoolToObject(t, "hop", r[i].hop);
        cJSON *path = cJSON_AddArrayToObject(t, "path");
        for (int k = 0; k < r[i].npath; k++)
            cJSON_AddItemToArray(path, cJSON_CreateNumber(r[i].path[k]));
        cJSON_AddItemToArray(targets, t);
    }
    free(r);
    web_reply_json(out, 200, o);
}

void web_study_check(const cJSON *body, WebReply *out) {
    const cJSON *var = cJSON_GetObjectItemCaseSensitive(body, "variant");
    const cJSON *fen = cJSON_GetObjectItemCaseSensitive(body, "fen");
    bool known = false;
    for (const char *const *nm = engine_game_names(); cJSON_IsString(var) && *nm; nm++)
        known |= !strcmp(*nm, var->valuestring);
    if (!known || !cJSON_IsString(fen) || strlen(fen->valuestring) > 500) {
        web_reply_error(out, 400,
                        "give \"variant\" (a game's name) and \"fen\" (at most 500 characters)");
        return;
    }
    char err[ENGINE_ERR_LEN] = "";
    Game *g = engine_new(var->valuestring, fen->valuestring, err, sizeof err);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddBoolToObject(o, "valid", g != NULL);
    if (g) {
        char text[1024];
        engine_position_text(g, text, sizeof text);
        cJSON_AddStringToObject(o, "position", text);
        GameResult r = engine_result(g);
        cJSON_AddStringToObject(o, "over", r.kind != RESULT_NONE ? r.reason : "");
        MoveDesc *md = malloc(ENGINE_MAX_MOVES * sizeof *md);
        if (!md)
            abort();
        cJSON_AddNumberToObject(o, "moves", engine_moves(g, md, ENGINE_MAX_MOVES));
        free(md);
        engine_free(g);
    } else {
        cJSON_AddStringToObject(o, "error", err);
    }
    web_reply_json(out, 200, o);
}

/* An Elo figure: a number, or null when not measured (lost_all when every game was lost). */
static void add_elo(cJSON *o, const char *key, int elo) {
    char lost[40];
    snprintf(lost, sizeof lost, "%s_lost_all", key);
    if (elo == ENGINE_ELO_NONE || elo == ENGINE_ELO_LOST_ALL)
        cJSON_AddNullToObject(o, key);
    else
        cJSON_AddNumberToObject(o, key, elo);
    cJSON_AddBoolToObject(o, lost, elo == ENGINE_ELO_LOST_ALL);
}

void web_study_levels(WebReply *out) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "default_level", WEB_LEVEL);
    cJSON_AddNumberToObject(o, "first_level", ENGINE_FIRST_LEVEL);
    cJSON_AddNumberToObject(o, "default_movetime_ms", WEB_MOVETIME);
    cJSON_AddStringToObject(o, "source", engine_level_source());
    for (int k = 0; k < 2; k++) {
        cJSON *arr = cJSON_AddArrayToObject(o, k ? "mancala" : "chess");
        for (int n = 1; n <= 20; n++) {
            EngineLevel lv;
            if (!engine_level(k ? KIND_MANCALA : KIND_CHESS, n, &lv))
                continue;
            cJSON *l = cJSON_CreateObject();
            cJSON_AddNumberToObject(l, "level", lv.level);
            cJSON_AddNumberToObject(l, "depth", lv.depth);
            cJSON_AddNumberToObject(l, "nodes", (double)lv.nodes);
            cJSON_AddNumberToObject(l, "noise", lv.noise);
            add_elo(l, "elo_full", lv.elo_full);
            add_elo(l, "elo_fairymax", lv.elo_fairymax);
            cJSON_AddStringToObject(l, "text", lv.text);
            cJSON_AddStringToObject(l, "like", lv.like);
            cJSON_AddItemToArray(arr, l);
        }
    }
    web_reply_json(out, 200, o);
}
