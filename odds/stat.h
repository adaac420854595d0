/* Statistics for holding observed answers against exact odds: Pearson's chi-squared
 * goodness of fit with wsel's one pooling rule, summed binomial terms, and Sidak's
 * combination of independent tests. Every distribution function comes from GSL. Used
 * by `wsel sample` (through odds/weighted/weighted_fit.h) and, through the verification
 * kit (tests/kit/kit_stat.h), by the tests, the conformance suite, fuzz and bench. Not
 * installed. */
#ifndef WSEL_ODDS_STAT_H
#define WSEL_ODDS_STAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bins whose expected count is below this are pooled (the usual chi-squared rule). */
#define WSEL__MIN_EXPECTED 5.0

/* A test's outcome. */
typedef struct wsel__stat {
    double stat;        /* chi-squared statistic, z for binomial tests, D for KS */
    unsigned df;        /* degrees of freedom after pooling (0: nothing to test) */
    double p;           /* p-value; 1 when df == 0 */
    size_t impossible;  /* observations in bins whose expected count is exactly 0 */
    bool nomem;         /* the test could not allocate its bins: not run (p 0, see below);
                         * a caller that reports results must treat it as out of memory */
} wsel__stat;

/* Pearson goodness of fit of counts obs[] against expected counts exp[] (same total).
 * The pooling rule, the only one in wsel: bins are sorted by expected count (equal ones
 * in input order, so the result does not depend on the sort qsort does); every bin
 * expecting fewer than WSEL__MIN_EXPECTED joins one pool, smallest first, and while
 * that pool still expects fewer it takes in the next smallest bin too. The pool then
 * counts as one bin. Bins with exp == 0 are not tested but any count in them is
 * reported in `impossible`. p is 0 and nomem set when the bins cannot be allocated. */
wsel__stat wsel__chisq_gof(const double *obs, const double *exp, size_t n);

/* Chi-squared over outcomes exactly one of which each of N draws takes: counts obs[]
 * against N * p[] (a multinomial, the pooling rule above). An impossible count makes
 * the statistic infinite, p 0 and df at least 1 (a finding, never "nothing to test");
 * so does a failed allocation, which also sets nomem. */
wsel__stat wsel__chisq_one_of(const double *obs, const double *p, size_t n, double N);

/* Sum over outcomes i with 0 < p[i] < 1 of (obs - N p)^2 / (N p (1 - p)), one degree of
 * freedom each, for outcomes expecting at least WSEL__MIN_EXPECTED hits and misses:
 * a chi-squared test of several binomial counts taken as independent. Counts where
 * p[i] is 0 but obs > 0, or p[i] is 1 but obs < N, go to `impossible` (and p = 0). */
wsel__stat wsel__chisq_binoms(const double *obs, const double *p, size_t n, double N);

/* Sidak's combination of m independent tests: the p-value of "the smallest of the m
 * p-values is this small", 1 - (1 - min p)^m. Uniform on [0, 1] when the m tests are
 * independent with uniform p-values; never above Bonferroni's m * min p. NaN counts as
 * 0 (a failure, never a pass); m == 0 gives 1. */
double wsel__sidak(const double *p, size_t m);

#endif
