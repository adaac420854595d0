/* Checks the power formulas of stat.c by simulation: draw counts from odds that deviate
 * by exactly the computed detectable amount, run the same test, and count how often it
 * rejects. With the formulas right, that share is close to the requested power. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "kit/kit_stat.h"

int power_check(double level, unsigned draws, unsigned reps);

/* One outcome of `p` (index k) scaled by (1 + e), the others by a common factor. */
static double sim_gof(gsl_rng *r, const double *p, size_t n, size_t k, unsigned N, double level,
                      double power, unsigned reps, double *e_out)
{
    unsigned df = (unsigned)n - 1;
    double e = wsel_kit_detect_gof(p[k], N, df, level, power);
    double q[64], exp[64], obs[64];
    unsigned cnt[64];
    for (size_t i = 0; i < n; i++) {
        q[i] = i == k ? p[k] * (1 + e) : p[i] * (1 - p[k] * e / (1 - p[k]));
        exp[i] = N * p[i];
    }
    unsigned rej = 0;
    for (unsigned t = 0; t < reps; t++) {
        gsl_ran_multinomial(r, n, N, q, cnt);
        for (size_t i = 0; i < n; i++)
            obs[i] = cnt[i];
        if (wsel_kit_chisq_gof(obs, exp, n).p < level)
            rej++;
    }
    *e_out = e;
    return (double)rej / reps;
}

static double sim_binom(gsl_rng *r, double p, unsigned N, double level, double power,
                        unsigned reps, double *e_out)
{
    double e = wsel_kit_detect_binom(p, N, level, power);
    unsigned rej = 0;
    for (unsigned t = 0; t < reps; t++) {
        unsigned k = gsl_ran_binomial(r, p * (1 + e), N);
        if (wsel_kit_binom(k, N, p).p < level)
            rej++;
    }
    *e_out = e;
    return (double)rej / reps;
}

int power_check(double level, unsigned draws, unsigned reps)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    if (!r)
        return 2;
    gsl_rng_set(r, 20261129);
    double e;
    printf("simulated power of tests sized for power 0.90 at level %.3g, %u draws, %u repetitions\n",
           level, draws, reps);
    printf("%-44s %10s %10s\n", "test", "deviation", "power");
    static const double page[3] = { 45.0 / 180, 60.0 / 180, 75.0 / 180 };
    for (size_t k = 0; k < 3; k++) {
        double pw = sim_gof(r, page, 3, k, draws, level, 0.9, reps, &e);
        printf("chi-squared 45/60/75, item %zu (p=%.3f)          %9.3f%% %10.3f\n", k, page[k], 100 * e, pw);
    }
    double u64[64];
    for (size_t i = 0; i < 64; i++)
        u64[i] = 1.0 / 64;
    double pw = sim_gof(r, u64, 64, 0, draws, level, 0.9, reps, &e);
    printf("chi-squared 64 equal items, one item           %9.3f%% %10.3f\n", 100 * e, pw);
    static const double bp[] = { 0.75, 0.5, 0.1, 0.01 };
    for (size_t i = 0; i < 4; i++) {
        pw = sim_binom(r, bp[i], draws, level, 0.9, reps, &e);
        printf("binomial inclusion p=%-5g                     %9.3f%% %10.3f\n", bp[i], 100 * e, pw);
    }
    gsl_rng_free(r);
    return 0;
}
