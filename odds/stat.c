/* Statistics for holding observed answers against exact odds (odds/stat.h). */
#include "stat.h"

#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>

typedef struct bin {
    double obs, exp;
    size_t i; /* its place in the input: ties keep the input order */
} bin;

/* A total order (expected count, then input place), so that the pool takes the same bins
 * whatever sort qsort does: glibc merges (stable) when it can allocate a scratch buffer
 * and falls back to an unstable quicksort when it cannot. */
static int bin_cmp(const void *a, const void *b)
{
    const bin *x = a, *y = b;
    if (x->exp != y->exp)
        return x->exp < y->exp ? -1 : 1;
    return (x->i > y->i) - (x->i < y->i);
}

wsel__stat wsel__chisq_gof(const double *obs, const double *exp, size_t n)
{
    wsel__stat r = { 0.0, 0, 1.0, 0, false };
    bin *b = malloc((n ? n : 1) * sizeof *b);
    if (!b) {
        r.p = 0.0; /* a test that cannot run must not pass silently */
        r.nomem = true;
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
        b[m].i = i;
        m++;
    }
    qsort(b, m, sizeof *b, bin_cmp);
    size_t first = 0;
    bin pool = { 0.0, 0.0, 0 };
    while (first < m && (b[first].exp < WSEL__MIN_EXPECTED ||
                         (first > 0 && pool.exp < WSEL__MIN_EXPECTED))) {
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

wsel__stat wsel__chisq_one_of(const double *obs, const double *p, size_t n, double N)
{
    double *exp = malloc((n ? n : 1) * sizeof *exp);
    if (!exp) {
        wsel__stat r = { 0.0, 0, 0.0, 0, false };
        r.df = 1; /* cannot run: fail rather than pass (see wsel__chisq_gof) */
        r.nomem = true;
        return r;
    }
    for (size_t i = 0; i < n; i++)
        exp[i] = N * p[i];
    wsel__stat r = wsel__chisq_gof(obs, exp, n);
    free(exp);
    if (r.impossible) {
        r.stat = INFINITY;
        r.p = 0.0;
        if (!r.df)
            r.df = 1;
    }
    return r;
}

wsel__stat wsel__chisq_binoms(const double *obs, const double *p, size_t n, double N)
{
    wsel__stat r = { 0.0, 0, 1.0, 0, false };
    for (size_t i = 0; i < n; i++) {
        double e = N * p[i];
        if (p[i] <= 0) {
            r.impossible += obs[i] > 0 ? (size_t)obs[i] : 0;
        } else if (p[i] >= 1) {
            r.impossible += obs[i] < N ? (size_t)(N - obs[i]) : 0;
        } else if (e >= WSEL__MIN_EXPECTED && N - e >= WSEL__MIN_EXPECTED) {
            double d = obs[i] - e;
            r.stat += d * d / (e * (1 - p[i]));
            r.df++;
        }
    }
    if (r.impossible) {
        r.stat = INFINITY;
        r.p = 0.0;
    } else if (r.df > 0) {
        r.p = gsl_cdf_chisq_Q(r.stat, r.df);
    }
    return r;
}

double wsel__sidak(const double *p, size_t m)
{
    if (m == 0)
        return 1.0;
    double lo = 1.0;
    for (size_t i = 0; i < m; i++)
        if (!(p[i] >= lo)) /* NaN lands here */
            lo = isnan(p[i]) ? 0.0 : p[i];
    if (lo <= 0.0)
        return 0.0;
    if (lo >= 1.0)
        return 1.0;
    return -expm1((double)m * log1p(-lo)); /* 1 - (1 - lo)^m without cancellation */
}
