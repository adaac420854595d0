#include "stat.h"

#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>

typedef struct bin {
    double obs, exp;
} bin;

static int bin_cmp(const void *a, const void *b)
{
    double x = ((const bin *)a)->exp, y = ((const bin *)b)->exp;
    return (x > y) - (x < y);
}

stat_result stat_chisq_gof(const double *obs, const double *exp, size_t n)
{
    stat_result r = { 0.0, 0, 1.0, 0 };
    bin *b = malloc((n ? n : 1) * sizeof *b);
    if (!b) {
        r.p = 0.0; /* a test that cannot run must not pass silently */
        return r;
    }
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (exp[i] <= 0.0) {
            r.impossible += (size_t)obs[i];
            continue;
        }
        b[m].obs = obs[i];
        b[m].exp = exp[i];
        m++;
    }
    qsort(b, m, sizeof *b, bin_cmp);
    /* Pool from the smallest expectation upwards until the pool reaches the limit;
     * the pool then counts as one bin. */
    size_t first = 0;
    bin pool = { 0.0, 0.0 };
    while (first < m && (b[first].exp < STAT_MIN_EXPECTED || (first > 0 && pool.exp < STAT_MIN_EXPECTED))) {
        pool.obs += b[first].obs;
        pool.exp += b[first].exp;
        first++;
    }
    size_t bins = m - first + (first > 0);
    if (bins < 2) {
        free(b);
        return r;
    }
    double chi = 0.0;
    if (first > 0) {
        double d = pool.obs - pool.exp;
        chi += d * d / pool.exp;
    }
    for (size_t i = first; i < m; i++) {
        double d = b[i].obs - b[i].exp;
        chi += d * d / b[i].exp;
    }
    free(b);
    r.stat = chi;
    r.df = (unsigned)(bins - 1);
    r.p = gsl_cdf_chisq_Q(chi, r.df);
    return r;
}

stat_result stat_binom(uint64_t k, uint64_t n, double p)
{
    stat_result r = { 0.0, 1, 1.0, 0 };
    double sd = sqrt((double)n * p * (1.0 - p));
    r.stat = sd > 0 ? ((double)k - (double)n * p) / sd : 0.0;
    double lo = gsl_cdf_binomial_P((unsigned)k, p, (unsigned)n);
    double hi = k == 0 ? 1.0 : gsl_cdf_binomial_Q((unsigned)(k - 1), p, (unsigned)n);
    if (isnan(lo) || isnan(hi)) {
        /* GSL's incomplete beta does not converge for some k near the mean once n is in
         * the millions; there n p (1-p) is large and the normal law with continuity
         * correction is accurate far beyond the levels used here. */
        double c = 0.5 / (sd > 0 ? sd : 1.0);
        lo = gsl_cdf_ugaussian_P(r.stat + c);
        hi = gsl_cdf_ugaussian_Q(r.stat - c);
    }
    double t = 2.0 * (lo < hi ? lo : hi);
    r.p = t > 1.0 ? 1.0 : t;
    return r;
}

stat_result stat_indep2x2(double n11, double n10, double n01, double n00)
{
    stat_result r = { 0.0, 0, 1.0, 0 };
    double n = n11 + n10 + n01 + n00;
    double r1 = n11 + n10, r0 = n01 + n00, c1 = n11 + n01, c0 = n10 + n00;
    if (n <= 0 || r1 <= 0 || r0 <= 0 || c1 <= 0 || c0 <= 0)
        return r; /* a margin is empty: independence holds trivially */
    double o[4] = { n11, n10, n01, n00 };
    double e[4] = { r1 * c1 / n, r1 * c0 / n, r0 * c1 / n, r0 * c0 / n };
    double chi = 0.0;
    for (int i = 0; i < 4; i++) {
        double d = o[i] - e[i];
        chi += d * d / e[i];
    }
    r.stat = chi;
    r.df = 1;
    r.p = gsl_cdf_chisq_Q(chi, 1.0);
    return r;
}

/* Power of a level-alpha chi-squared test against noncentrality lambda, with the
 * noncentral law approximated by c * chi2(nu) matching its first two moments. */
static double chisq_power(unsigned df, double alpha, double lambda)
{
    double crit = gsl_cdf_chisq_Qinv(alpha, df);
    double k = df;
    double c = (k + 2 * lambda) / (k + lambda);
    double nu = (k + lambda) * (k + lambda) / (k + 2 * lambda);
    return gsl_cdf_chisq_Q(crit / c, nu);
}

double stat_lambda_needed(unsigned df, double alpha, double power)
{
    if (df == 0)
        return INFINITY;
    double lo = 0.0, hi = 1.0;
    while (chisq_power(df, alpha, hi) < power)
        hi *= 2;
    for (int i = 0; i < 100; i++) {
        double mid = 0.5 * (lo + hi);
        if (chisq_power(df, alpha, mid) < power)
            lo = mid;
        else
            hi = mid;
    }
    return hi;
}

double stat_detect_gof(double p, double n, unsigned df, double alpha, double power)
{
    if (df == 0 || p <= 0 || p >= 1 || n <= 0)
        return INFINITY;
    /* Scaling p by (1+e) and the rest by a common factor gives
     * lambda = n e^2 p / (1 - p). */
    return sqrt(stat_lambda_needed(df, alpha, power) * (1 - p) / (n * p));
}

double stat_detect_binom(double p, double n, double alpha, double power)
{
    if (p <= 0 || p >= 1 || n <= 0)
        return INFINITY;
    double z = gsl_cdf_ugaussian_Qinv(alpha / 2) + gsl_cdf_ugaussian_Pinv(power);
    return z * sqrt((1 - p) / (n * p));
}

double stat_detect_indep(double n, double alpha, double power)
{
    if (n <= 0)
        return INFINITY;
    /* For a 2x2 table the Pearson statistic is n * phi^2, so lambda = n phi^2. */
    return sqrt(stat_lambda_needed(1, alpha, power) / n);
}
