/* The kit's statistics module (kit_stat.h): the tests only the tools run. The goodness
 * of fit, binomial sums and Sidak's combination are the library's (odds/stat.c). */
#include "kit_stat.h"

#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>

#include "wsel.h"

wsel_kit_stat wsel_kit_binom(uint64_t k, uint64_t n, double p)
{
    wsel_kit_stat r = { 0.0, 1, 1.0, 0, false };
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

wsel_kit_stat wsel_kit_indep2x2(double n11, double n10, double n01, double n00)
{
    wsel_kit_stat r = { 0.0, 0, 1.0, 0, false };
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

wsel_kit_stat wsel_kit_ztest(double z)
{
    wsel_kit_stat r = { z, 1, 2 * gsl_cdf_ugaussian_Q(fabs(z)), 0, false };
    return r;
}

static int dbl_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Q_KS(t) = 2 sum_{j>=1} (-1)^(j-1) exp(-2 j^2 t^2), the Kolmogorov limit law's upper
 * tail; for small t the series converges slowly and Q is 1 to double precision. */
static double kolmogorov_q(double t)
{
    if (t < 0.2)
        return 1.0;
    double sum = 0.0, sign = 1.0;
    for (int j = 1; j <= 100; j++) {
        double term = exp(-2.0 * j * j * t * t);
        sum += sign * term;
        if (term < 1e-17 * sum)
            break;
        sign = -sign;
    }
    double q = 2.0 * sum;
    return q < 0 ? 0 : q > 1 ? 1 : q;
}

wsel_kit_stat wsel_kit_ks_uniform(double *u, size_t n)
{
    wsel_kit_stat r = { 0.0, 0, 1.0, 0, false };
    if (n == 0)
        return r;
    qsort(u, n, sizeof *u, dbl_cmp);
    double d = 0.0;
    for (size_t i = 0; i < n; i++) {
        double x = u[i] < 0 ? 0 : u[i] > 1 ? 1 : u[i];
        double hi = (double)(i + 1) / (double)n - x, lo = x - (double)i / (double)n;
        if (hi > d)
            d = hi;
        if (lo > d)
            d = lo;
    }
    double sn = sqrt((double)n);
    r.stat = d;
    r.df = 1;
    r.p = kolmogorov_q((sn + 0.12 + 0.11 / sn) * d);
    return r;
}

double wsel_kit_bonferroni(double alpha, size_t m)
{
    return m ? alpha / (double)m : alpha;
}

size_t wsel_kit_holm(const double *p, size_t m, double alpha, bool *reject)
{
    size_t *idx = malloc((m ? m : 1) * sizeof *idx);
    for (size_t i = 0; i < m; i++)
        reject[i] = false;
    if (!idx) {
        /* cannot sort: fall back to Bonferroni, which Holm never rejects less than */
        size_t k = 0;
        for (size_t i = 0; i < m; i++)
            k += reject[i] = !(p[i] >= alpha / (double)m);
        return k;
    }
    for (size_t i = 0; i < m; i++)
        idx[i] = i;
    /* insertion sort by p, NaN first (a NaN p-value is a failure, never a pass) */
    for (size_t i = 1; i < m; i++) {
        size_t v = idx[i], j = i;
        while (j > 0 && (isnan(p[v]) ? !isnan(p[idx[j - 1]]) : p[idx[j - 1]] > p[v])) {
            idx[j] = idx[j - 1];
            j--;
        }
        idx[j] = v;
    }
    size_t k = 0;
    for (; k < m; k++) {
        double pv = p[idx[k]];
        if (pv >= alpha / (double)(m - k))
            break;
        reject[idx[k]] = true;
    }
    free(idx);
    return k;
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

double wsel_kit_lambda_needed(unsigned df, double alpha, double power)
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

double wsel_kit_detect_gof(double p, double n, unsigned df, double alpha, double power)
{
    if (df == 0 || p <= 0 || p >= 1 || n <= 0)
        return INFINITY;
    /* Scaling p by (1+e) and the rest by a common factor gives lambda = n e^2 p / (1 - p). */
    return sqrt(wsel_kit_lambda_needed(df, alpha, power) * (1 - p) / (n * p));
}

double wsel_kit_detect_binom(double p, double n, double alpha, double power)
{
    if (p <= 0 || p >= 1 || n <= 0)
        return INFINITY;
    double z = gsl_cdf_ugaussian_Qinv(alpha / 2) + gsl_cdf_ugaussian_Pinv(power);
    return z * sqrt((1 - p) / (n * p));
}

double wsel_kit_detect_indep(double n, double alpha, double power)
{
    if (n <= 0)
        return INFINITY;
    /* For a 2x2 table the Pearson statistic is n * phi^2, so lambda = n phi^2. */
    return sqrt(wsel_kit_lambda_needed(1, alpha, power) / n);
}
