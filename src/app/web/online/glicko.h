/* glicko.h - Glicko-2 ratings (Glickman, "Example of the Glicko-2 system", 2013),
 * updated one game at a time as lichess.org does. A rating is (r, RD, sigma); a new
 * player has 1500/350/0.06. A player's RD grows with the time since the player's last
 * rated game, counted in rating periods of WEB_GLICKO_PERIOD_S seconds (lichess's
 * 0.21436 periods a day) and capped at 350. Pure arithmetic on values: it owns no
 * state and no lock; the code that ends a rated game reads both players' ratings
 * (and when each last played), calls web_glicko_game and stores the two results.
 * Every function checks its input (finite, in range) and returns false, leaving its
 * output untouched, on anything else. */
#ifndef WEB_GLICKO_H
#define WEB_GLICKO_H

#include <stdbool.h>
#include <stddef.h>

#define WEB_GLICKO_RATING 1500.0 /* a new player's rating, RD and volatility */
#define WEB_GLICKO_RD 350.0
#define WEB_GLICKO_VOL 0.06
#define WEB_GLICKO_TAU 0.75 /* lichess's system constant (the paper's example: 0.5) */

#define WEB_GLICKO_PERIODS_PER_DAY 0.21436                         /* lichess's */
#define WEB_GLICKO_PERIOD_S (86400.0 / WEB_GLICKO_PERIODS_PER_DAY) /* 4.67 days */
#define WEB_GLICKO_PROVISIONAL_RD 110.0 /* above it the rating is shown with a '?' */

/* The bounds: input outside them is refused; results are kept inside them (rating
 * 400..4000, RD 45..350 and volatility 0.001..0.1: lichess's bounds, and a floor
 * for the volatility, whose logarithm step 5 takes). An input RD may be
 * below 45 (down to 1), as the paper's 1400/30 opponent. */
#define WEB_GLICKO_RATING_MIN 400.0
#define WEB_GLICKO_RATING_MAX 4000.0
#define WEB_GLICKO_RD_MIN 45.0
#define WEB_GLICKO_RD_INPUT_MIN 1.0
#define WEB_GLICKO_RD_MAX 350.0
#define WEB_GLICKO_VOL_MIN 0.001
#define WEB_GLICKO_VOL_MAX 0.1
#define WEB_GLICKO_TAU_MIN 0.3 /* the paper's "reasonable choices" */
#define WEB_GLICKO_TAU_MAX 1.2

typedef struct {
    double rating; /* r */
    double rd;     /* rating deviation */
    double vol;    /* volatility sigma */
} WebGlicko;

WebGlicko web_glicko_default(void); /* 1500/350/0.06 */
/* Finite, rating in [400, 4000], RD in [1, 350], volatility in [0.001, 0.1]. */
bool web_glicko_valid(const WebGlicko *p);
/* RD above WEB_GLICKO_PROVISIONAL_RD (false for an invalid rating). Give it the
 * aged rating (web_glicko_age) to show a player's rating now. */
bool web_glicko_provisional(const WebGlicko *p);

/* p as it stands IDLE_S seconds (>= 0) after its last rated game: the RD grown by
 * the paper's step 6 over IDLE_S / WEB_GLICKO_PERIOD_S periods (fractions count),
 * RD' = sqrt(RD^2 + periods * sigma^2) on the Glicko-2 scale, capped at 350. */
bool web_glicko_age(const WebGlicko *p, double idle_s, WebGlicko *out);

/* The paper's steps 1-8 for one player over one rating period of N >= 1 games
 * against OPP[i] with SCORE[i] (each in [0, 1]: 1 win, 0.5 draw, 0 loss), TAU in
 * [0.3, 1.2]. The RD grows by PERIODS (>= 0; the paper: 1) periods of the new
 * volatility before the games count (step 6). The opponents' values are used as
 * given. */
bool web_glicko_period(const WebGlicko *p, size_t n, const WebGlicko opp[], const double score[],
                       double periods, double tau, WebGlicko *out);

/* One rated game between A and B, both updated at once from their values before the
 * game. A_IDLE_S and B_IDLE_S (>= 0) are the seconds since each one's last rated
 * game: each player's RD grows by that time (step 6 with the new volatility), and
 * each is rated against the other's aged value. SCORE_A is A's result (1, 0.5, 0;
 * B gets 1 - SCORE_A). The outputs may be the inputs. */
bool web_glicko_game(const WebGlicko *a, double a_idle_s, const WebGlicko *b, double b_idle_s,
                     double score_a, double tau, WebGlicko *a_out, WebGlicko *b_out);

#endif
