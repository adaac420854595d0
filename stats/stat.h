/* Statistical helpers of the conformance suite: goodness of fit with bin merging,
 * binomial and 2x2 independence tests, and power calculations. Every distribution
 * function comes from GSL; nothing here re-derives a CDF. */
#ifndef WSEL_STATS_STAT_H
#define WSEL_STATS_STAT_H

#include <stddef.h>
#include <stdint.h>

/* Bins whose expected count is below this are pooled (the usual chi-squared rule). */
#define STAT_MIN_EXPECTED 5.0

typedef struct stat_result {
    double stat;        /* chi-squared statistic, or z for binomial tests */
    unsigned df;        /* degrees of freedom after merging (0: nothing to test) */
    double p;           /* p-value; 1 when df == 0 */
    size_t impossible;  /* observations in bins whose expected count is exactly 0 */
} stat_result;

/* Pearson goodness of fit of counts obs[] against expected counts exp[] (same total).
 * Bins with exp < STAT_MIN_EXPECTED are pooled; a pool still under the limit is merged
 * with the smallest remaining bin. Bins with exp == 0 are not tested but any count in
 * them is reported in `impossible`. */
stat_result stat_chisq_gof(const double *obs, const double *exp, size_t n);

/* Two-sided exact binomial test of k successes in n trials with success odds p
 * (0 < p < 1): twice the smaller tail, capped at 1. */
stat_result stat_binom(uint64_t k, uint64_t n, double p);

/* Pearson chi-squared test of independence on a 2x2 table (df 1). */
stat_result stat_indep2x2(double n11, double n10, double n01, double n00);

/* Noncentrality a chi-squared test with `df` degrees of freedom at level `alpha`
 * needs for power `power` (Patnaik's two-moment approximation of the noncentral
 * chi-squared; solved by bisection). */
double stat_lambda_needed(unsigned df, double alpha, double power);

/* Smallest relative change e of one outcome's odds p (others rescaled in proportion)
 * that a chi-squared test with `df` over n draws detects with the given power. */
double stat_detect_gof(double p, double n, unsigned df, double alpha, double power);

/* Same for a two-sided binomial test of an inclusion with odds p over n draws
 * (normal approximation). */
double stat_detect_binom(double p, double n, double alpha, double power);

/* Smallest phi coefficient (correlation of two inclusions) the 2x2 test detects. */
double stat_detect_indep(double n, double alpha, double power);

#endif
