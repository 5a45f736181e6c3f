/* params.c - the search's tunable numbers (see params.h). */
#include "search/params.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const SearchParamInfo params[SP_COUNT] = {
    [SP_LMR_BASE] = {"lmr.base", 125, 0, 300, 15},
    [SP_LMR_DIV] = {"lmr.div", 175, 100, 400, 15},
    [SP_LMR_HIST] = {"lmr.hist", 6000, 1000, 30000, 800},
    [SP_LMR_CUT] = {"lmr.cut", 1, 0, 3, 1},
    [SP_RFP_MARGIN] = {"rfp.margin", 80, 30, 200, 8},
    [SP_RAZOR_MARGIN] = {"razor.margin", 250, 50, 600, 25},
    [SP_NMP_DIV] = {"nmp.div", 200, 50, 600, 20},
    [SP_NMP_BASE] = {"nmp.base", 326, 100, 600, 25},
    [SP_NMP_DEPTH] = {"nmp.depth", 27, 0, 60, 3},
    [SP_LMP_BASE] = {"lmp.base", 3, 0, 12, 1},
    [SP_FUT_BASE] = {"fut.base", 100, 0, 400, 15},
    [SP_FUT_MUL] = {"fut.mul", 80, 20, 250, 8},
    [SP_HIST_PRUNE] = {"hist.prune", 1500, 200, 8000, 200},
    [SP_SEE_QUIET] = {"see.quiet", 60, 10, 200, 8},
    [SP_SEE_NOISY] = {"see.noisy", 20, 2, 80, 3},
    [SP_NOISY_FUT] = {"noisy.fut", 150, 30, 400, 15},
    [SP_QS_DELTA] = {"qs.delta", 200, 0, 600, 20},
    [SP_ASP_DELTA] = {"asp.delta", 18, 5, 60, 3},
    [SP_SE_DEPTH] = {"se.depth", 8, 4, 14, 1},
    [SP_SE_MARGIN] = {"se.margin", 200, 50, 600, 25},
};

const SearchParamInfo *search_param_info(int i) {
    return i >= 0 && i < SP_COUNT ? &params[i] : NULL;
}

int search_param_index(const char *name) {
    for (int i = 0; i < SP_COUNT; i++)
        if (!strcmp(params[i].name, name))
            return i;
    return -1;
}

void search_params_default(SearchParams *p) {
    for (int i = 0; i < SP_COUNT; i++)
        p->v[i] = params[i].def;
}

bool search_params_parse(SearchParams *p, const char *text, char *err, size_t errlen) {
    SearchParams q = *p;
    const char *s = text;
    while (*s) {
        /* Step 1. One "name:value" item up to the next comma. */
        size_t len = strcspn(s, ",");
        char item[64];
        if (len == 0 || len >= sizeof item) {
            snprintf(err, errlen, "bad search parameter list '%s'", text);
            return false;
        }
        memcpy(item, s, len);
        item[len] = '\0';
        s += len;
        if (*s == ',' && !*++s) {
            snprintf(err, errlen, "bad search parameter list '%s'", text);
            return false;
        }
        char *colon = strchr(item, ':');
        if (!colon) {
            snprintf(err, errlen, "search parameter '%s' has no ':value'", item);
            return false;
        }
        *colon = '\0';
        // Step 2. A known name, a whole number within its bounds.
        int i = search_param_index(item);
        if (i < 0) {
            snprintf(err, errlen, "no search parameter '%s'", item);
            return false;
        }
        char *end;
        errno = 0;
        long v = strtol(colon + 1, &end, 10);
        if (end == colon + 1 || *end || errno || v < params[i].min || v > params[i].max) {
            snprintf(err, errlen, "search parameter %s must be a whole number %d..%d, not '%s'",
                     item, params[i].min, params[i].max, colon + 1);
            return false;
        }
        q.v[i] = (int)v;
    }
    *p = q;
    return true;
}

bool search_params_format(const SearchParams *p, char *buf, size_t len) {
    size_t at = 0;
    if (len)
        buf[0] = '\0';
    for (int i = 0; i < SP_COUNT; i++) {
        int n = snprintf(buf + at, len - at, "%s%s:%d", i ? "," : "", params[i].name, p->v[i]);
        if (n < 0 || (size_t)n >= len - at)
            return false;
        at += (size_t)n;
    }
    return true;
}
