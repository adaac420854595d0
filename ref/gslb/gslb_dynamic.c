/* GSLB engine: the dynamic member-level methods (doc/gslb.md §2): the server and path
 * metrics (winner takes all, ties A-20), quality of service and
 * dynamic-ratio. A candidate lacking what its method ranks by is dropped (and
 * logged); when none is left the method fails. */
#include <math.h>
#include <string.h>

#include "gslb_engine.h"

#define NMAX WSEL__GSLB_NMAX

/* QoS factors in wsel_gslb_pool.qos order: whether higher is better (the metric each
 * reads: wsel__gslb_qos_metric, core/gslb/gslb_model.c). */
static const bool qos_higher[WSEL_GSLB_QOS_COUNT_] = {false, true, true /* hit ratio */,
                                                      false, false, false, true, true, true};

/* True when the pick's step runs dynamic ratio and already picked in this inputs
 * generation (the state's epoch): its candidates and their values, and so its weights, are
 * a function of config and inputs (metrics, and the topology score of the query's source
 * for QoS), so wsel__gslb_pick_repeat gives the pick scoring the members again would. */
static bool dynamic_ratio_repeats(const wsel__gslb_query *q, const wsel__gslb_pick *pk)
{
    return q->cfg->pools[pk->pool].dynamic_ratio && wsel__gslb_methods[pk->method].dynamic_ratio &&
           wsel__gslb_wrr_current(&wsel__gslb_pick_state(q, pk)->wrr, q->st->epoch);
}

/* fmax(1, x) without the library call: a NaN gives 1 too. */
static inline double at_least_1(double x)
{
    return x > 1 ? x : 1;
}

/* each candidate's value -> a weight, then smooth WRR keyed (pool, step). */
static long dynamic_ratio(wsel__gslb_query *q, wsel__gslb_pick *pk, const wsel__gslb_scored *sc,
                          size_t n_sc, wsel__gslb_why *why)
{
    const wsel_gslb_method_info *mi = &wsel__gslb_methods[pk->method];
    size_t n = q->cfg->pools[pk->pool].n_members;
    uint64_t w[NMAX];
    bool in_set[NMAX];
    for (size_t i = 0; i < n; i++) { /* only the pool's n members are read */
        w[i] = 0;
        in_set[i] = false;
    }
    bool higher = pk->method == WSEL_GSLB_QOS || mi->higher_better;
    /* the comparisons keep what fmax(best, v) and fmin(minv, v) kept: a NaN is passed over */
    double best = 0, minv = INFINITY;
    for (size_t k = 0; k < n_sc; k++) {
        double v = higher ? sc[k].v : -sc[k].v;
        if (higher && v > best)
            best = v;
        else if (!higher && (v == 0 ? 1 : v) < minv)
            minv = v == 0 ? 1 : v;
    }
    for (size_t k = 0; k < n_sc; k++) {
        double v = higher ? sc[k].v : -sc[k].v, x;
        if (higher)
            x = (v == 0 || best == 0) ? 0 : at_least_1(floor(1e6 * v / best));
        else
            x = at_least_1(floor(1e6 * minv / (v == 0 ? 1 : v)));
        w[sc[k].i] = (uint64_t)x;
        in_set[sc[k].i] = x > 0;
    }
    long pick = wsel__gslb_pick_weighted(q, pk, w, in_set, why, WSEL_GSLB_WHY_NO_POSITIVE_WEIGHT);
    if (pick >= 0 && why) {
        why->reason = WSEL_GSLB_WHY_DYNAMIC_RATIO;
        why->number = w[pick];
    }
    return pick;
}

/* The pick among the scored candidates: dynamic-ratio where it applies, else the best
 * value (ties by round robin). */
static long dynamic_pick(wsel__gslb_query *q, wsel__gslb_pick *pk, wsel__gslb_scored *sc,
                         size_t n_sc, wsel__gslb_why *why)
{
    const wsel_gslb_method_info *mi = &wsel__gslb_methods[pk->method];
    if (!n_sc) {
        if (why)
            why->reason = WSEL_GSLB_WHY_NO_METRIC; /* seed: missing metrics => the method fails */
        return -1;
    }
    if (q->cfg->pools[pk->pool].dynamic_ratio && mi->dynamic_ratio)
        return dynamic_ratio(q, pk, sc, n_sc, why);
    bool tie = false;
    long pick = wsel__gslb_best_pick(&wsel__gslb_pick_state(q, pk)->rr, sc, n_sc,
                                     q->cfg->pools[pk->pool].n_members, pk->rank,
                                     &pk->n_rank, &tie);
    for (size_t k = 0; why && k < n_sc; k++)
        if (sc[k].i == pick) {
            bool qos = pk->method == WSEL_GSLB_QOS;
            why->reason = WSEL_GSLB_WHY_BEST;
            why->metric = qos ? -1 : mi->metric;
            why->value = qos || mi->higher_better ? sc[k].v : -sc[k].v;
            why->tie = tie;
        }
    return pick;
}

long wsel__gslb_pick_metric(wsel__gslb_query *q, wsel__gslb_pick *pk, wsel__gslb_why *why)
{
    if (!why && dynamic_ratio_repeats(q, pk))
        return wsel__gslb_pick_repeat(q, pk);
    const wsel_gslb_pool *pl = &q->cfg->pools[pk->pool];
    const wsel_gslb_method_info *mi = &wsel__gslb_methods[pk->method];
    int metric = mi->metric;
    wsel__gslb_scored sc[NMAX];
    size_t n_sc = 0;
    for (size_t i = 0; i < pl->n_members; i++) {
        if (!pk->elig[i])
            continue;
        const wsel__gslb_vsin *vi = &q->in->vs[pl->members[i].vs];
        if (!(vi->have & (1u << metric))) /* logged with the candidates (gslb_chain.c) */
            continue;
        double v = vi->metric[metric];
        sc[n_sc++] = (wsel__gslb_scored){mi->higher_better ? v : -v, (long)i};
    }
    return dynamic_pick(q, pk, sc, n_sc, why);
}

/* A pool's QoS factors with a coefficient > 0, in wsel_gslb_pool.qos order (the order
 * the score is summed in): worked out once per pick, so that each member's values are
 * read for those factors only, not for all nine. */
typedef struct qos_plan {
    int n;
    int factor[WSEL_GSLB_QOS_COUNT_];      /* index into wsel_gslb_pool.qos */
    int metric[WSEL_GSLB_QOS_COUNT_];      /* wsel__gslb_qos_metric: -1 the topology score */
    bool higher[WSEL_GSLB_QOS_COUNT_];     /* qos_higher */
    double coef[WSEL_GSLB_QOS_COUNT_];     /* the coefficient */
} qos_plan;

static void qos_plan_make(const wsel_gslb_pool *pl, qos_plan *plan)
{
    plan->n = 0;
    for (int f = 0; f < WSEL_GSLB_QOS_COUNT_; f++)
        if (pl->qos[f]) {
            plan->factor[plan->n] = f;
            plan->metric[plan->n] = wsel__gslb_qos_metric[f];
            plan->higher[plan->n] = qos_higher[f];
            plan->coef[plan->n++] = (double)pl->qos[f];
        }
}

/* Member i's value of each planned factor into val[0..plan->n); the first metric it
 * lacks, or -1. */
static int qos_values(const wsel__gslb_query *q, size_t p, size_t i, const qos_plan *plan,
                      double *val)
{
    const wsel_gslb_pool *pl = &q->cfg->pools[p];
    const wsel__gslb_vsin *vi = &q->in->vs[pl->members[i].vs];
    for (int k = 0; k < plan->n; k++) {
        int metric = plan->metric[k];
        if (metric < 0)
            val[k] = wsel__gslb_topo_member(q, p, i);
        else if (vi->have & (1u << metric))
            val[k] = vi->metric[metric];
        else
            return metric;
    }
    return -1;
}

int wsel__gslb_qos_missing(const wsel__gslb_query *q, size_t p, size_t i)
{
    qos_plan plan;
    double val[WSEL_GSLB_QOS_COUNT_];
    qos_plan_make(&q->cfg->pools[p], &plan);
    return qos_values(q, p, i, &plan, val);
}

/* the sum over the factors of coefficient x normalised value (10 * v / max higher
 * better, 10 * min / v lower better), over the candidates having every factor. A factor
 * needs only its max (higher better) or its min (lower better); the comparisons keep
 * what fmax(max, v) and fmin(min, v) kept (a NaN value is passed over). */
long wsel__gslb_pick_qos(wsel__gslb_query *q, wsel__gslb_pick *pk, wsel__gslb_why *why)
{
    if (!why && dynamic_ratio_repeats(q, pk))
        return wsel__gslb_pick_repeat(q, pk);
    const wsel_gslb_pool *pl = &q->cfg->pools[pk->pool];
    qos_plan plan;
    qos_plan_make(pl, &plan);
    double val[NMAX][WSEL_GSLB_QOS_COUNT_];
    double bound[WSEL_GSLB_QOS_COUNT_]; /* each factor's max or min over the candidates */
    for (int f = 0; f < plan.n; f++)
        bound[f] = plan.higher[f] ? 0 : INFINITY;
    long idx[NMAX];
    size_t k = 0;
    for (size_t i = 0; i < pl->n_members; i++) {
        if (!pk->elig[i])
            continue;
        if (qos_values(q, pk->pool, i, &plan, val[k]) >= 0)
            continue; /* logged with the candidates */
        for (int f = 0; f < plan.n; f++) {
            double v = val[k][f];
            if (plan.higher[f] ? v > bound[f] : v < bound[f])
                bound[f] = v;
        }
        idx[k++] = (long)i;
    }
    wsel__gslb_scored sc[NMAX];
    for (size_t j = 0; j < k; j++) {
        double score = 0;
        for (int f = 0; f < plan.n; f++) {
            double v = val[j][f], norm;
            if (plan.higher[f])
                norm = bound[f] > 0 ? 10.0 * v / bound[f] : 0;
            else
                norm = v == 0 ? 10.0 : 10.0 * bound[f] / v;
            score += plan.coef[f] * norm;
        }
        sc[j] = (wsel__gslb_scored){score, idx[j]};
    }
    return dynamic_pick(q, pk, sc, k, why);
}
