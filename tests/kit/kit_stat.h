/* The kit's statistics module: goodness of fit with one pooling rule, binomial and 2x2
 * independence tests, Kolmogorov-Smirnov, multiple-test corrections and power figures.
 * Every distribution function comes from GSL; nothing here re-derives a CDF except the
 * Kolmogorov distribution, which GSL lacks (see wsel_kit_ks_uniform). Used by stats/,
 * fuzz/, bench/ and tests/.
 *
 * What `wsel sample` needs as well -- the chi-squared goodness of fit with the pooling
 * rule, summed binomial terms, Sidak's combination and the weighted sets' sub-tests --
 * lives in the library (odds/stat.h, odds/weighted/weighted_fit.h), one copy for both:
 * the wsel_kit_ names below for those are the library's functions under the kit's
 * names (inline forwarders), so tests and tools keep one vocabulary. */
#ifndef WSEL_KIT_STAT_H
#define WSEL_KIT_STAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../odds/stat.h"
#include "../../odds/weighted/weighted_fit.h"

/* Bins whose expected count is below this are pooled (the usual chi-squared rule). */
#define WSEL_KIT_MIN_EXPECTED WSEL__MIN_EXPECTED

/* stat, df, p, impossible (odds/stat.h). */
typedef wsel__stat wsel_kit_stat;

/* Pearson goodness of fit with the pooling rule (wsel__chisq_gof, odds/stat.h). */
static inline wsel_kit_stat wsel_kit_chisq_gof(const double *obs, const double *exp, size_t n)
{
    return wsel__chisq_gof(obs, exp, n);
}

/* Summed binomial terms, one df each (wsel__chisq_binoms, odds/stat.h). */
static inline wsel_kit_stat wsel_kit_chisq_binoms(const double *obs, const double *p, size_t n,
                                                  double N)
{
    return wsel__chisq_binoms(obs, p, n, N);
}

/* Two-sided exact binomial test of k successes in n trials with success odds p
 * (0 < p < 1): twice the smaller tail, capped at 1. */
wsel_kit_stat wsel_kit_binom(uint64_t k, uint64_t n, double p);

/* Pearson chi-squared test of independence on a 2x2 table (df 1). */
wsel_kit_stat wsel_kit_indep2x2(double n11, double n10, double n01, double n00);

/* Two-sided z test: p = 2 Q(|z|). */
wsel_kit_stat wsel_kit_ztest(double z);

/* One-sample Kolmogorov-Smirnov test of u[0..n-1] (sorted in place) against the
 * uniform law on [0, 1). stat = D_n; p from the Kolmogorov limit law evaluated at
 * (sqrt(n) + 0.12 + 0.11 / sqrt(n)) D_n (Stephens' small-sample correction). */
wsel_kit_stat wsel_kit_ks_uniform(double *u, size_t n);

/* Level each of m tests gets so the family-wise false-alarm rate stays at most alpha
 * whatever their dependence (Bonferroni). */
double wsel_kit_bonferroni(double alpha, size_t m);
/* Holm's step-down correction: reject[i] set for the p-values p[0..m-1] rejected at
 * family-wise level alpha. Returns how many were rejected. */
size_t wsel_kit_holm(const double *p, size_t m, double alpha, bool *reject);

/* Noncentrality a chi-squared test with `df` degrees of freedom at level `alpha` needs
 * for power `power` (Patnaik's two-moment approximation of the noncentral chi-squared;
 * solved by bisection). */
double wsel_kit_lambda_needed(unsigned df, double alpha, double power);

/* Smallest relative change e of one outcome's odds p (others rescaled in proportion)
 * that a chi-squared test with `df` over n draws detects with the given power. */
double wsel_kit_detect_gof(double p, double n, unsigned df, double alpha, double power);

/* Same for a two-sided binomial test of an inclusion with odds p over n draws (normal
 * approximation). */
double wsel_kit_detect_binom(double p, double n, double alpha, double power);

/* Smallest phi coefficient (correlation of two inclusions) the 2x2 test detects. */
double wsel_kit_detect_indep(double n, double alpha, double power);

/* Sidak's combination of m independent tests (wsel__sidak, odds/stat.h). */
static inline double wsel_kit_sidak(const double *p, size_t m)
{
    return wsel__sidak(p, m);
}

/* ---- weighted sets: the goodness of fit `wsel sample` and the tests run ----
 * Sub-tests valid for each mode and their combination: odds/weighted/weighted_fit.h. */

typedef wsel__set_counts wsel_kit_set_counts;
typedef wsel__subtest wsel_kit_subtest;

#define WSEL_KIT_MAX_SUBTESTS WSEL__MAX_SUBTESTS

static inline size_t wsel_kit_weighted_set_fit(const wsel_set_odds *so, uint32_t set, double N,
                                               const wsel_kit_set_counts *c,
                                               wsel_kit_subtest *out)
{
    return wsel__weighted_set_fit(so, set, N, c, out);
}

static inline wsel_kit_stat wsel_kit_subtests_combine(const wsel_kit_subtest *t, size_t n)
{
    return wsel__subtests_combine(t, n);
}

#endif
