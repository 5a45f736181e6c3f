/* glicko.c - the Glicko-2 update, step by step as in Glickman's paper: values are
 * moved to the Glicko-2 scale (mu, phi), the new volatility found by the Illinois
 * algorithm (a regula falsi that halves the stale end's value), and the results
 * moved back and kept in lichess's bounds. Every loop has a fixed bound, and every
 * result is checked to be finite, so no input hangs or yields a NaN. */
#include <math.h>

#include "app/web/online/glicko.h"

#define SCALE 173.7178   /* the paper's step 2: rating points per Glicko-2 unit */
#define EPSILON 0.000001 /* the paper's convergence tolerance for the volatility */
#define MAX_ITER 200     /* Illinois steps; it converges in well under 20 */
#define MAX_BRACKET 1000 /* steps looking for the lower end of the bracket */
#define MAX_GAMES 100000 /* games in one call to web_glicko_period */
#define PI 3.14159265358979323846

WebGlicko web_glicko_default(void) {
    return (WebGlicko){WEB_GLICKO_RATING, WEB_GLICKO_RD, WEB_GLICKO_VOL};
}

bool web_glicko_valid(const WebGlicko *p) {
    return p && isfinite(p->rating) && isfinite(p->rd) && isfinite(p->vol) &&
           p->rating >= WEB_GLICKO_RATING_MIN && p->rating <= WEB_GLICKO_RATING_MAX &&
           p->rd >= WEB_GLICKO_RD_INPUT_MIN && p->rd <= WEB_GLICKO_RD_MAX &&
           p->vol >= WEB_GLICKO_VOL_MIN && p->vol <= WEB_GLICKO_VOL_MAX;
}

bool web_glicko_provisional(const WebGlicko *p) {
    return web_glicko_valid(p) && p->rd > WEB_GLICKO_PROVISIONAL_RD;
}

static bool tau_valid(double tau) {
    return isfinite(tau) && tau >= WEB_GLICKO_TAU_MIN && tau <= WEB_GLICKO_TAU_MAX;
}

static bool periods_valid(double t) {
    return isfinite(t) && t >= 0;
}

static double clamp(double x, double lo, double hi) {
    return x < lo ? lo : x > hi ? hi : x;
}

/* The paper's step 6 on the Glicko-2 scale: phi grown by T periods of SIGMA, capped
 * at the new player's deviation (also for huge T, whose sum overflows to inf). */
static double grow(double phi, double sigma, double t) {
    double cap = WEB_GLICKO_RD_MAX / SCALE, sum = phi * phi + t * sigma * sigma;
    return isfinite(sum) && sum < cap * cap ? sqrt(sum) : cap;
}

bool web_glicko_age(const WebGlicko *p, double idle_s, WebGlicko *out) {
    if (!web_glicko_valid(p) || !isfinite(idle_s) || idle_s < 0 || !out)
        return false;
    double phi = grow(p->rd / SCALE, p->vol, idle_s / WEB_GLICKO_PERIOD_S);
    *out = (WebGlicko){p->rating, fmax(p->rd, phi * SCALE), p->vol};
    return true;
}

static double g_of(double phi) {
    return 1 / sqrt(1 + 3 * phi * phi / (PI * PI));
}

static double e_of(double mu, double mu_j, double g_j) {
    return 1 / (1 + exp(-g_j * (mu - mu_j)));
}

/* The function of the paper's step 5 whose zero is ln(sigma'^2). */
typedef struct {
    double delta2, phi2, v, a, tau2;
} VolProblem;

static double vol_f(const VolProblem *q, double x) {
    double ex = exp(x), d = q->phi2 + q->v + ex;
    return ex * (q->delta2 - q->phi2 - q->v - ex) / (2 * d * d) - (x - q->a) / q->tau2;
}

/* The paper's step 5: the new volatility, or a negative value when the search did
 * not settle within its bounds. */
static double new_volatility(double sigma, double phi, double v, double delta, double tau) {
    VolProblem q = {delta * delta, phi * phi, v, log(sigma * sigma), tau * tau};
    // Step 1. Bracket the zero: A = a and B above or below it.
    double A = q.a, B;
    if (q.delta2 > q.phi2 + q.v) {
        B = log(q.delta2 - q.phi2 - q.v);
    } else {
        int k = 1;
        while (k <= MAX_BRACKET && vol_f(&q, q.a - k * tau) < 0)
            k++;
        if (k > MAX_BRACKET)
            return -1;
        B = q.a - k * tau;
    }
    // Step 2. Narrow it by the Illinois algorithm.
    double fA = vol_f(&q, A), fB = vol_f(&q, B);
    for (int i = 0; fabs(B - A) > EPSILON; i++) {
        if (i == MAX_ITER || !isfinite(fA) || !isfinite(fB) || fB == fA)
            return -1;
        double C = A + (A - B) * fA / (fB - fA), fC = vol_f(&q, C);
        if (fC * fB <= 0) {
            A = B;
            fA = fB;
        } else {
            fA /= 2;
        }
        B = C;
        fB = fC;
    }
    double s = exp(A / 2);
    return isfinite(s) && s > 0 ? s : -1;
}

bool web_glicko_period(const WebGlicko *p, size_t n, const WebGlicko opp[], const double score[],
                       double periods, double tau, WebGlicko *out) {
    // Step 1. Check everything.
    if (!web_glicko_valid(p) || n == 0 || n > MAX_GAMES || !opp || !score ||
        !periods_valid(periods) || !tau_valid(tau) || !out)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!web_glicko_valid(&opp[i]) || !isfinite(score[i]) || score[i] < 0 || score[i] > 1)
            return false;
    // Step 2. To the Glicko-2 scale.
    double mu = (p->rating - WEB_GLICKO_RATING) / SCALE, phi = p->rd / SCALE;
    // Step 3 and 4. The estimated variance v and the improvement delta.
    double inv_v = 0, sum = 0;
    for (size_t i = 0; i < n; i++) {
        double mu_j = (opp[i].rating - WEB_GLICKO_RATING) / SCALE;
        double g = g_of(opp[i].rd / SCALE), e = e_of(mu, mu_j, g);
        inv_v += g * g * e * (1 - e);
        sum += g * (score[i] - e);
    }
    if (!(inv_v > 0) || !isfinite(inv_v) || !isfinite(sum))
        return false;
    double v = 1 / inv_v, delta = v * sum;
    // Step 5. The new volatility.
    double sigma = new_volatility(p->vol, phi, v, delta, tau);
    if (sigma < 0)
        return false;
    // Step 6 and 7. The deviation grown over the periods, then the new values.
    double phi_star = grow(phi, sigma, periods);
    double phi_new = 1 / sqrt(1 / (phi_star * phi_star) + 1 / v);
    double mu_new = mu + phi_new * phi_new * sum;
    // Step 8. Back to the Glicko scale, within the bounds.
    WebGlicko r = {SCALE * mu_new + WEB_GLICKO_RATING, SCALE * phi_new, sigma};
    if (!isfinite(r.rating) || !isfinite(r.rd))
        return false;
    r.rating = clamp(r.rating, WEB_GLICKO_RATING_MIN, WEB_GLICKO_RATING_MAX);
    r.rd = clamp(r.rd, WEB_GLICKO_RD_MIN, WEB_GLICKO_RD_MAX);
    r.vol = clamp(r.vol, WEB_GLICKO_VOL_MIN, WEB_GLICKO_VOL_MAX);
    *out = r;
    return true;
}

bool web_glicko_game(const WebGlicko *a, double a_idle_s, const WebGlicko *b, double b_idle_s,
                     double score_a, double tau, WebGlicko *a_out, WebGlicko *b_out) {
    if (!a_out || !b_out || !isfinite(score_a) || score_a < 0 || score_a > 1)
        return false;
    // Step 1. Each player as the other sees it now: aged by its own idle time.
    WebGlicko a_now, b_now;
    if (!web_glicko_age(a, a_idle_s, &a_now) || !web_glicko_age(b, b_idle_s, &b_now))
        return false;
    // Step 2. Both from the values before the game; the deviation grows by the idle
    // periods of the new volatility (step 6 of the paper).
    WebGlicko a_new, b_new;
    double score_b = 1 - score_a;
    if (!web_glicko_period(a, 1, &b_now, &score_a, a_idle_s / WEB_GLICKO_PERIOD_S, tau, &a_new) ||
        !web_glicko_period(b, 1, &a_now, &score_b, b_idle_s / WEB_GLICKO_PERIOD_S, tau, &b_new))
        return false;
    *a_out = a_new;
    *b_out = b_new;
    return true;
}
