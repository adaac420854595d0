/* The kit's statistics module (kit_stat.h). */
#include "kit_stat.h"

#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>

#include "wsel.h"

typedef struct bin {
    double obs, exp;
} bin;

static int bin_cmp(const void *a, const void *b)
{
    double x = ((const bin *)a)->exp, y = ((const bin *)b)->exp;
    return (x > y) - (x < y);
}

wsel_kit_stat wsel_kit_chisq_gof(const double *obs, const double *exp, size_t n)
{
    wsel_kit_stat r = { 0.0, 0, 1.0, 0 };
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
    size_t first = 0;
    bin pool = { 0.0, 0.0 };
    while (first < m && (b[first].exp < WSEL_KIT_MIN_EXPECTED ||
                         (first > 0 && pool.exp < WSEL_KIT_MIN_EXPECTED))) {
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

wsel_kit_stat wsel_kit_chisq_binoms(const double *obs, const double *p, size_t n, double N)
{
    wsel_kit_stat r = { 0.0, 0, 1.0, 0 };
    for (size_t i = 0; i < n; i++) {
        double e = N * p[i];
        if (p[i] <= 0) {
            r.impossible += obs[i] > 0 ? (size_t)obs[i] : 0;
        } else if (p[i] >= 1) {
            r.impossible += obs[i] < N ? (size_t)(N - obs[i]) : 0;
        } else if (e >= WSEL_KIT_MIN_EXPECTED && N - e >= WSEL_KIT_MIN_EXPECTED) {
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

wsel_kit_stat wsel_kit_binom(uint64_t k, uint64_t n, double p)
{
    wsel_kit_stat r = { 0.0, 1, 1.0, 0 };
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
    wsel_kit_stat r = { 0.0, 0, 1.0, 0 };
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
    wsel_kit_stat r = { z, 1, 2 * gsl_cdf_ugaussian_Q(fabs(z)), 0 };
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
    wsel_kit_stat r = { 0.0, 0, 1.0, 0 };
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

double wsel_kit_sidak(const double *p, size_t m)
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

/* Chi-squared over outcomes exactly one of which each of N draws takes: counts obs[]
 * against N * p[] (a multinomial, the kit's pooling rule). */
static wsel_kit_stat one_of(const double *obs, const double *p, size_t n, double N)
{
    double *exp = malloc((n ? n : 1) * sizeof *exp);
    if (!exp) {
        wsel_kit_stat r = { 0.0, 0, 0.0, 0 };
        r.df = 1; /* cannot run: fail rather than pass (see wsel_kit_chisq_gof) */
        return r;
    }
    for (size_t i = 0; i < n; i++)
        exp[i] = N * p[i];
    wsel_kit_stat r = wsel_kit_chisq_gof(obs, exp, n);
    free(exp);
    if (r.impossible) {
        r.stat = INFINITY;
        r.p = 0.0;
        if (!r.df)
            r.df = 1;
    }
    return r;
}

static wsel_kit_subtest subtest(const char *kind, uint32_t set, int32_t group, double draws,
                                wsel_kit_stat r)
{
    wsel_kit_subtest t = { kind, set, group, draws, r };
    if (r.impossible && !t.r.df)
        t.r.df = 1; /* an impossible count is a finding, never "nothing to test" */
    return t;
}

/* One group's addresses among the N_g draws that drew the group: under grouped-single
 * each is included independently with d_j / M_g (binomial terms), under grouped-multi
 * exactly one is chosen with d_j / G_g (chi-squared). */
static wsel_kit_stat group_items(const wsel_set_odds *so, const wsel_group *g,
                                 const double *obs, double Ng)
{
    uint64_t max = 0, sum = 0;
    for (uint32_t j = 0; j < g->count; j++) {
        uint64_t d = so->dyn_weight[g->first + j];
        sum += d;
        if (d > max)
            max = d;
    }
    wsel_kit_stat r = { INFINITY, 1, 0.0, (size_t)Ng };
    if (sum == 0)
        return r; /* the group cannot be drawn, yet it was */
    double p[64];
    for (uint32_t j = 0; j < g->count && j < 64; j++)
        p[j] = (double)so->dyn_weight[g->first + j] / (double)(so->set->multi ? sum : max);
    if (so->set->multi)
        return one_of(obs, p, g->count, Ng);
    return wsel_kit_chisq_binoms(obs, p, g->count, Ng);
}

size_t wsel_kit_weighted_set_fit(const wsel_set_odds *so, uint32_t set, double N,
                                 const wsel_kit_set_counts *c, wsel_kit_subtest *out)
{
    const wsel_set *s = so->set;
    size_t n = 0;
    double p[WSEL_MAX_ITEMS * WSEL_MAX_ITEMS];
    if (c->answers) {
        double *q = malloc((so->n_answers ? so->n_answers : 1) * sizeof *q);
        wsel_kit_stat r = { 0.0, 1, 0.0, 0 };
        if (q) {
            for (uint32_t k = 0; k < so->n_answers; k++)
                q[k] = (double)so->answers[k].p.p;
            r = one_of(c->answers, q, so->n_answers, N);
            free(q);
        }
        out[n++] = subtest("answer-sets", set, -1, N, r);
        return n;
    }
    if (!s->grouped) {
        for (uint32_t i = 0; i < s->n_items; i++)
            p[i] = (double)so->item_p[i].p;
        wsel_kit_stat r = s->multi ? wsel_kit_chisq_binoms(c->items, p, s->n_items, N)
                                   : one_of(c->items, p, s->n_items, N);
        out[n++] = subtest("items", set, -1, N, r);
        return n;
    }
    for (uint32_t g = 0; g < s->n_groups; g++)
        p[g] = (double)so->group_p[g].p;
    wsel_kit_stat r = s->multi ? wsel_kit_chisq_binoms(c->groups, p, s->n_groups, N)
                               : one_of(c->groups, p, s->n_groups, N);
    out[n++] = subtest("groups", set, -1, N, r);
    for (uint32_t g = 0; g < s->n_groups; g++) {
        const wsel_group *gr = &s->groups[g];
        if (c->groups[g] <= 0)
            continue;
        out[n++] = subtest("group-items", set, (int32_t)g, c->groups[g],
                           group_items(so, gr, c->items + gr->first, c->groups[g]));
    }
    return n;
}

wsel_kit_stat wsel_kit_subtests_combine(const wsel_kit_subtest *t, size_t n)
{
    wsel_kit_stat r = { 0.0, 0, 1.0, 0 };
    double *p = malloc((n ? n : 1) * sizeof *p);
    if (!p) {
        r.p = 0.0;
        return r;
    }
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        r.impossible += t[i].r.impossible;
        if (t[i].r.df == 0)
            continue;
        r.stat += t[i].r.stat;
        r.df += t[i].r.df;
        p[m++] = t[i].r.p;
    }
    r.p = r.impossible ? 0.0 : wsel_kit_sidak(p, m);
    if (r.impossible)
        r.stat = INFINITY;
    free(p);
    return r;
}
