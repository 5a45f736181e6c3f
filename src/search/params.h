/* params.h - the search's tunable numbers: the margins, reductions and
 * counts of its pruning, each with a default, bounds and a step (how far an
 * SPSA tuning run tries it either side; lab/tune/spsa.c). A SearchParams is
 * plain data a front end may hold and hand to a search through its limits
 * (limits.h); without one a search uses the defaults. Text form:
 * "name:value,name:value" (the defaults for names not given). */
#ifndef SEARCH_PARAMS_H
#define SEARCH_PARAMS_H

#include <stdbool.h>
#include <stddef.h>

typedef enum {
    SP_LMR_BASE,     /* late-move reduction: base, in hundredths of a ply */
    SP_LMR_DIV,      /* ... and ln d ln n divided by this / 100 */
    SP_LMR_HIST,     /* a quiet move's history reduces one ply less per this much */
    SP_LMR_CUT,      /* plies more at a node expected to fail high */
    SP_RFP_MARGIN,   /* reverse futility: centipawns a ply */
    SP_RAZOR_MARGIN, /* razoring: centipawns a ply */
    SP_NMP_DIV,      /* null move: one ply more per this much eval above beta */
    SP_NMP_BASE,     /* ... its reduction: base, in hundredths of a ply */
    SP_NMP_DEPTH,    /* ... and hundredths of a ply more per ply of depth */
    SP_LMP_BASE,     /* late-move pruning after (base + d^2) / (2 - improving) quiets */
    SP_FUT_BASE,     /* futility of late quiet moves: base + mul x depth */
    SP_FUT_MUL,      /* ... mul: centipawns a ply of depth */
    SP_HIST_PRUNE,   /* quiet moves with history below -this x depth go (depth <= 3) */
    SP_SEE_QUIET,    /* quiet moves losing more than this x depth by exchange go */
    SP_SEE_NOISY,    /* captures losing more than this x depth^2 go */
    SP_NOISY_FUT,    /* losing captures that cannot reach alpha by this x depth go */
    SP_QS_DELTA,     /* quiescence: captures that cannot reach alpha by this go */
    SP_ASP_DELTA,    /* aspiration window: the first half width */
    SP_SE_DEPTH,     /* singular extension: from this depth */
    SP_SE_MARGIN,    /* ... below the hash score by this x depth / 100 */
    SP_COUNT
} SearchParamId;

typedef struct SearchParams {
    int v[SP_COUNT];
} SearchParams;

typedef struct {
    const char *name;
    int def, min, max;
    int step; /* SPSA's perturbation at the end of a run */
} SearchParamInfo;

/* The table entry of parameter i (0 <= i < SP_COUNT). */
const SearchParamInfo *search_param_info(int i);
/* Index of the parameter called name, or -1. */
int search_param_index(const char *name);
void search_params_default(SearchParams *p);
/* Sets the parameters text names ("name:value,..."); every value must be a
 * whole number within its bounds. False (p unchanged) with the reason in err
 * when any is not. */
bool search_params_parse(SearchParams *p, const char *text, char *err, size_t errlen);
/* Writes p as text, every parameter; false when len is too small. */
bool search_params_format(const SearchParams *p, char *buf, size_t len);

#endif
