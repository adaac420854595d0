/* The kit's statistics module: goodness of fit with one pooling rule, binomial and 2x2
 * independence tests, Kolmogorov-Smirnov, multiple-test corrections and power figures.
 * Every distribution function comes from GSL; nothing here re-derives a CDF except the
 * Kolmogorov distribution, which GSL lacks (see wsel_kit_ks_uniform). Used by stats/,
 * fuzz/, bench/, tests/ and `wsel sample`. */
#ifndef WSEL_KIT_STAT_H
#define WSEL_KIT_STAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bins whose expected count is below this are pooled (the usual chi-squared rule). */
#define WSEL_KIT_MIN_EXPECTED 5.0

typedef struct wsel_kit_stat {
    double stat;        /* chi-squared statistic, z for binomial tests, D for KS */
    unsigned df;        /* degrees of freedom after pooling (0: nothing to test) */
    double p;           /* p-value; 1 when df == 0 */
    size_t impossible;  /* observations in bins whose expected count is exactly 0 */
} wsel_kit_stat;

/* Pearson goodness of fit of counts obs[] against expected counts exp[] (same total).
 * The pooling rule, the only one in wsel: bins are sorted by expected count; every bin
 * expecting fewer than WSEL_KIT_MIN_EXPECTED joins one pool, smallest first, and while
 * that pool still expects fewer it takes in the next smallest bin too. The pool then
 * counts as one bin. Bins with exp == 0 are not tested but any count in them is
 * reported in `impossible`. p is 0 when the bins cannot be allocated. */
wsel_kit_stat wsel_kit_chisq_gof(const double *obs, const double *exp, size_t n);

/* Sum over outcomes i with 0 < p[i] < 1 of (obs - N p)^2 / (N p (1 - p)), one degree of
 * freedom each, for outcomes expecting at least WSEL_KIT_MIN_EXPECTED hits and misses:
 * a chi-squared test of several binomial counts taken as independent. Counts where
 * p[i] is 0 but obs > 0, or p[i] is 1 but obs < N, go to `impossible` (and p = 0). */
wsel_kit_stat wsel_kit_chisq_binoms(const double *obs, const double *p, size_t n, double N);

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

/* Sidak's combination of m independent tests: the p-value of "the smallest of the m
 * p-values is this small", 1 - (1 - min p)^m. Uniform on [0, 1] when the m tests are
 * independent with uniform p-values; never above Bonferroni's m * min p. NaN counts as
 * 0 (a failure, never a pass); m == 0 gives 1. */
double wsel_kit_sidak(const double *p, size_t m);

/* ---- weighted sets: the goodness of fit `wsel sample` and the tests run ----
 * A weighted set's answer is not a list of independent items: in grouped sets the
 * addresses of one group come and go together. So a set that is not tested over its
 * enumerated answers is tested by sub-tests that are each valid for its mode
 * (doc/weighted.md §5.3-§5.6) and independent of one another:
 *   ungrouped single, CNAME  "items"        chi-squared over the one chosen item
 *   ungrouped multi          "items"        binomial terms summed: inclusions are
 *                                           independent (§5.4), one df per item
 *   grouped single           "groups"       chi-squared over the one chosen group
 *                            "group-items"  per group drawn: its addresses' inclusions
 *                                           among the draws that chose it, against
 *                                           d_j / M_g (§5.5), binomial terms summed
 *   grouped multi            "groups"       binomial terms summed over group inclusions
 *                            "group-items"  per group drawn: the one address chosen
 *                                           among the draws that took it, against
 *                                           d_j / G_g (§5.6), chi-squared
 * Conditional on the groups drawn, the address draws of different groups and draws are
 * independent, so the sub-tests are independent and wsel_kit_sidak() combines them. */

struct wsel_set_odds;

typedef struct wsel_kit_set_counts {
    const double *answers; /* per so->answers[] (enumerable sets), or NULL: sub-tests */
    const double *items;   /* per item of the set: draws that answered it */
    const double *groups;  /* grouped sets, per group: draws answering any address of it */
} wsel_kit_set_counts;

typedef struct wsel_kit_subtest {
    const char *kind;      /* "answer-sets", "items", "groups", "group-items" */
    uint32_t set;          /* the set's index in its resource */
    int32_t group;         /* "group-items": the group's index, else -1 */
    double draws;          /* draws tested: N, or those that drew the group */
    wsel_kit_stat r;       /* df 0: nothing to test (not counted by the combination) */
} wsel_kit_subtest;

/* Most sub-tests one set gives: "groups" and one "group-items" per group. */
#define WSEL_KIT_MAX_SUBTESTS (1 + 64)

/* The sub-tests of set `set` of a resource (odds so, N draws, counts c): one
 * "answer-sets" test when c->answers is given, else the mode's sub-tests above.
 * Writes them to out[] (room for WSEL_KIT_MAX_SUBTESTS) and returns how many. A
 * test's p is 0 when a count falls where the odds say 0 or misses where they say 1. */
size_t wsel_kit_weighted_set_fit(const struct wsel_set_odds *so, uint32_t set, double N,
                                 const wsel_kit_set_counts *c, wsel_kit_subtest *out);

/* The combination of sub-tests t[0..n-1]: stat and df the sums over those with df > 0
 * (shown for information), p = wsel_kit_sidak() over their p-values, impossible the sum
 * of theirs (p 0 then). */
wsel_kit_stat wsel_kit_subtests_combine(const wsel_kit_subtest *t, size_t n);

#endif
