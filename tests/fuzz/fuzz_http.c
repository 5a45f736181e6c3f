/* fuzz_http.c - the JSON API's request handling (web_api_handle, below the
 * HTTP layer), on a data folder of its own (removed at exit). Input: up to 8 lines, each
 * "METHOD PATH [BODY]"; '@' in PATH stands for the id of the game the last
 * request made; the lines come from two clients in turn (two sessions: one
 * makes an online game, the other may join or try to act in it). Every game is
 * deleted after each input; every engine search
 * (a move, an analysis) stops at 2,000 nodes, so that the inputs test the
 * requests rather than the search. Property: every reply is a status 200-599
 * with a body, JSON where it says so. */
#include <stdbool.h>
#include <unistd.h>

#include "app/web/api.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *data_dir;
static WebGames games;
static WebAnalysis *analysis;
static WebApi api;
static WebLobby lobby;

static void remove_dir(void) {
    web_api_free(&api);
    web_lobby_free(&lobby);
    web_analysis_close(analysis);
    web_games_close(&games);
    if (data_dir)
        rmdir(data_dir);
}

static void delete_all(void) {
    cJSON *list = web_games_list(&games);
    const cJSON *g;
    cJSON_ArrayForEach(g, list) {
        const cJSON *id = cJSON_GetObjectItemCaseSensitive(g, "id");
        WebError e;
        if (cJSON_IsString(id))
            web_game_delete(&games, id->valuestring, &e);
    }
    cJSON_Delete(list);
    web_lobby_free(&lobby); /* and every seek */
    web_lobby_init(&lobby);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static bool open;
    if (!open) {
        /* in memory where there is /dev/shm: saves are synced to disk */
        static char dir[] = "/dev/shm/menagerie-fuzz-XXXXXX", tmp[] = "/tmp/menagerie-fuzz-XXXXXX";
        char err[200], *d = mkdtemp(dir) ? dir : mkdtemp(tmp);
        if (!d || !web_games_open(&games, d, err, sizeof err))
            fuzz_fail("cannot open a data folder: %s", d ? err : "mkdtemp failed");
        games.workers.node_cap = 2000;
        analysis = web_analysis_new(&games);
        web_lobby_init(&lobby);
        web_api_init(&api, &games, analysis, NULL, &lobby);
        atexit(remove_dir);
        data_dir = d;
        open = true;
    }
    if (size > 16384)
        return 0;
    char *text = fuzz_text(data, size), *line[8];
    int n = fuzz_lines(text, line, 8);
    char id[WEB_ID_LEN] = "000000000000";
    WebClient who[2];
    memset(who, 0, sizeof who);
    for (int c = 0; c < 2; c++) {
        who[c].actor.known = true;
        memset(who[c].actor.holder, 'a' + c, sizeof who[c].actor.holder);
        snprintf(who[c].addr, sizeof who[c].addr, "127.0.0.%d", c + 1);
    }
    for (int i = 0; i < n; i++) {
        char method[16] = "", path[600] = "";
        size_t m = strcspn(line[i], " ");
        if (m == 0 || m >= sizeof method)
            continue;
        memcpy(method, line[i], m);
        const char *p = line[i] + m + (line[i][m] == ' ');
        size_t k = 0;
        for (; *p && *p != ' ' && k + WEB_ID_LEN < sizeof path; p++) {
            if (*p == '@') {
                memcpy(path + k, id, WEB_ID_LEN - 1);
                k += WEB_ID_LEN - 1;
            } else {
                path[k++] = *p;
            }
        }
        path[k] = 0;
        const char *body = *p == ' ' ? p + 1 : p;
        WebReply out;
        memset(&out, 0, sizeof out);
        web_api_handle(&api, &who[i % 2], method, path, body, strlen(body), &out);
        if (out.status < 200 || out.status > 599 || (!out.body && out.len))
            fuzz_fail("%s %s: status %d", method, path, out.status);
        if (out.type && strstr(out.type, "json")) {
            cJSON *j = cJSON_ParseWithLength(out.body, out.len);
            if (!j)
                fuzz_fail("%s %s: status %d, body not JSON: %.*s", method, path, out.status,
                          (int)out.len, out.body);
            const cJSON *jid = cJSON_GetObjectItemCaseSensitive(j, "id");
            if (out.status == 201 && cJSON_IsString(jid) &&
                strlen(jid->valuestring) == WEB_ID_LEN - 1)
                memcpy(id, jid->valuestring, WEB_ID_LEN);
            cJSON_Delete(j);
        }
        free(out.body);
    }
    delete_all();
    free(text);
    return 0;
}
