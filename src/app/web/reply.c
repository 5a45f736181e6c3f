/* reply.c - the web app's JSON replies (reply.h). */
#include <stdlib.h>
#include <string.h>

#include "app/web/reply.h"

void web_reply_error(WebReply *out, int status, const char *msg) {
    /* messages may quote what the client sent: keep them printable ASCII */
    char clean[256];
    size_t n = 0;
    for (; msg[n] && n + 1 < sizeof clean; n++)
        clean[n] = msg[n] >= 0x20 && msg[n] < 0x7f ? msg[n] : '?';
    clean[n] = 0;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "error", clean);
    cJSON_AddNumberToObject(o, "status", status);
    web_reply_json(out, status, o);
}

void web_reply_json(WebReply *out, int status, cJSON *json) {
    free(out->body);
    out->status = status;
    out->body = json ? cJSON_PrintUnformatted(json) : NULL;
    if (!out->body)
        out->body = strdup("{\"error\":\"out of memory\",\"status\":500}");
    if (!out->body)
        abort();
    out->len = strlen(out->body);
    out->type = "application/json";
    cJSON_Delete(json);
}

void web_reply_fail(WebReply *out, const WebError *e) {
    web_reply_error(out, e->status, e->msg);
}
