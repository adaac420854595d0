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
    double best = 0, minv = INFINITY;
    for (size_t k = 0; k < n_sc; k++) {
        double v = higher ? sc[k].v : -sc[k].v;
        if (higher)
            best = fmax(best, v);
        else
            minv = fmin(minv, v == 0 ? 1 : v);
    }
    for (size_t k = 0; k < n_sc; k++) {
        double v = higher ? sc[k].v : -sc[k].v, x;
        if (higher)
            x = (v == 0 || best == 0) ? 0 : fmax(1, floor(1e6 * v / best));
        else
            x = fmax(1, floor(1e6 * minv / (v == 0 ? 1 : v)));
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

/* Member i's value of every factor with a coefficient > 0 into val[]; the first metric
 * it lacks, or -1. */
static int qos_values(const wsel__gslb_query *q, size_t p, size_t i, double *val)
{
    const wsel_gslb_pool *pl = &q->cfg->pools[p];
    const wsel__gslb_vsin *vi = &q->in->vs[pl->members[i].vs];
    for (int f = 0; f < WSEL_GSLB_QOS_COUNT_; f++) {
        int metric = wsel__gslb_qos_metric[f];
        if (!pl->qos[f])
            continue;
        if (metric < 0)
            val[f] = wsel__gslb_topo_member(q, p, &pl->members[i]);
        else if (vi->have & (1u << metric))
            val[f] = vi->metric[metric];
        else
            return metric;
    }
    return -1;
}

int wsel__gslb_qos_missing(const wsel__gslb_query *q, size_t p, size_t i)
{
    double val[WSEL_GSLB_QOS_COUNT_];
    return qos_values(q, p, i, val);
}

/* the sum over the factors of coefficient x normalised value (10 * v / max higher
 * better, 10 * min / v lower better), over the candidates having every factor. */
long wsel__gslb_pick_qos(wsel__gslb_query *q, wsel__gslb_pick *pk, wsel__gslb_why *why)
{
    const wsel_gslb_pool *pl = &q->cfg->pools[pk->pool];
    double val[NMAX][WSEL_GSLB_QOS_COUNT_];
    long idx[NMAX];
    size_t k = 0;
    for (size_t i = 0; i < pl->n_members; i++) {
        if (!pk->elig[i])
            continue;
        if (qos_values(q, pk->pool, i, val[k]) < 0) /* else logged with the candidates */
            idx[k++] = (long)i;
    }
    double lo[WSEL_GSLB_QOS_COUNT_], hi[WSEL_GSLB_QOS_COUNT_];
    for (int f = 0; f < WSEL_GSLB_QOS_COUNT_; f++) {
        lo[f] = INFINITY;
        hi[f] = 0;
        for (size_t j = 0; j < k; j++)
            if (pl->qos[f]) {
                lo[f] = fmin(lo[f], val[j][f]);
                hi[f] = fmax(hi[f], val[j][f]);
            }
    }
    wsel__gslb_scored sc[NMAX];
    for (size_t j = 0; j < k; j++) {
        double score = 0;
        for (int f = 0; f < WSEL_GSLB_QOS_COUNT_; f++) {
            if (!pl->qos[f])
                continue;
            double v = val[j][f], norm;
            if (qos_higher[f])
                norm = hi[f] > 0 ? 10.0 * v / hi[f] : 0;
            else
                norm = v == 0 ? 10.0 : 10.0 * lo[f] / v;
            score += (double)pl->qos[f] * norm;
        }
        sc[j] = (wsel__gslb_scored){score, idx[j]};
    }
    return dynamic_pick(q, pk, sc, k, why);
}
