/* The weighted system's goodness of fit (odds/weighted/weighted_fit.h). */
#include "weighted_fit.h"

#include <math.h>
#include <stdlib.h>

static wsel__subtest subtest(const char *kind, uint32_t set, int32_t group, double draws,
                             wsel__stat r)
{
    wsel__subtest t = { kind, set, group, draws, r };
    if (r.impossible && !t.r.df)
        t.r.df = 1; /* an impossible count is a finding, never "nothing to test" */
    return t;
}

/* One group's addresses among the N_g draws that drew the group: under grouped-single
 * each is included independently with d_j / M_g (binomial terms), under grouped-multi
 * exactly one is chosen with d_j / G_g (chi-squared). */
static wsel__stat group_items(const wsel_set_odds *so, const wsel_group *g,
                              const double *obs, double Ng)
{
    uint64_t max = 0, sum = 0;
    for (uint32_t j = 0; j < g->count; j++) {
        uint64_t d = so->dyn_weight[g->first + j];
        sum += d;
        if (d > max)
            max = d;
    }
    wsel__stat r = { INFINITY, 1, 0.0, (size_t)Ng, false };
    if (sum == 0)
        return r; /* the group cannot be drawn, yet it was */
    double p[64];
    for (uint32_t j = 0; j < g->count && j < 64; j++)
        p[j] = (double)so->dyn_weight[g->first + j] / (double)(so->set->multi ? sum : max);
    if (so->set->multi)
        return wsel__chisq_one_of(obs, p, g->count, Ng);
    return wsel__chisq_binoms(obs, p, g->count, Ng);
}

/* The one test over a set's enumerated answers. */
static wsel__subtest answer_sets(const wsel_set_odds *so, uint32_t set, double N,
                                 const double *answers)
{
    double *q = malloc((so->n_answers ? so->n_answers : 1) * sizeof *q);
    wsel__stat r = { 0.0, 1, 0.0, 0, false };
    if (q) {
        for (uint32_t k = 0; k < so->n_answers; k++)
            q[k] = (double)so->answers[k].p.p;
        r = wsel__chisq_one_of(answers, q, so->n_answers, N);
        free(q);
    }
    return subtest("answer-sets", set, -1, N, r);
}

size_t wsel__weighted_set_fit(const wsel_set_odds *so, uint32_t set, double N,
                              const wsel__set_counts *c, wsel__subtest *out)
{
    const wsel_set *s = so->set;
    size_t n = 0;
    double p[WSEL_MAX_ITEMS * WSEL_MAX_ITEMS];
    if (c->answers) {
        out[n++] = answer_sets(so, set, N, c->answers);
        return n;
    }
    if (!s->grouped) {
        for (uint32_t i = 0; i < s->n_items; i++)
            p[i] = (double)so->item_p[i].p;
        wsel__stat r = s->multi ? wsel__chisq_binoms(c->items, p, s->n_items, N)
                                : wsel__chisq_one_of(c->items, p, s->n_items, N);
        out[n++] = subtest("items", set, -1, N, r);
        return n;
    }
    for (uint32_t g = 0; g < s->n_groups; g++)
        p[g] = (double)so->group_p[g].p;
    wsel__stat r = s->multi ? wsel__chisq_binoms(c->groups, p, s->n_groups, N)
                            : wsel__chisq_one_of(c->groups, p, s->n_groups, N);
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

wsel__stat wsel__subtests_combine(const wsel__subtest *t, size_t n)
{
    wsel__stat r = { 0.0, 0, 1.0, 0, false };
    double *p = malloc((n ? n : 1) * sizeof *p);
    if (!p) {
        r.p = 0.0;
        r.nomem = true;
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
    r.p = r.impossible ? 0.0 : wsel__sidak(p, m);
    if (r.impossible)
        r.stat = INFINITY;
    free(p);
    return r;
}

int wsel__odds_items_cmp(const uint16_t *a, uint32_t na, const uint16_t *b, uint32_t nb)
{
    for (uint32_t i = 0; i < na && i < nb; i++)
        if (a[i] != b[i])
            return (int)a[i] - (int)b[i];
    return (na > nb) - (na < nb);
}

long wsel__odds_find_answer(const wsel_set_odds *so, const uint16_t *items, uint32_t count)
{
    size_t lo = 0, hi = so->n_answers;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = wsel__odds_items_cmp(so->answers[mid].items, so->answers[mid].count, items,
                                     count);
        if (c == 0)
            return (long)mid;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}
