/* GSLB engine: the wide IP's pool order (doc/gslb.md §4.2 step 3; A-23): the first pool
 * by pool-lb-mode among the available ones, then, only when that pool passes the query
 * on, the rest (global availability: list order; round robin, ratio, random: cyclic
 * after the first; topology: by score, all at once). */
#include "gslb_engine.h"

int wsel__gslb_wideip_ga(wsel__gslb_query *q, wsel__gslb_pool_queue *pq, long *first,
                         wsel__gslb_why *why)
{
    (void)q;
    *first = (long)pq->avail[0];
    if (why)
        why->reason = WSEL_GSLB_WHY_FIRST_AVAILABLE;
    return 0;
}

int wsel__gslb_wideip_rr(wsel__gslb_query *q, wsel__gslb_pool_queue *pq, long *first,
                         wsel__gslb_why *why)
{
    *first = wsel__gslb_rr_pick(&q->st->wideip_st[q->wideip].rr, pq->ok,
                                q->cfg->wideips[q->wideip].n_pools);
    if (why)
        why->reason = WSEL_GSLB_WHY_RR_NEXT;
    return 0;
}

int wsel__gslb_wideip_ratio(wsel__gslb_query *q, wsel__gslb_pool_queue *pq, long *first,
                            wsel__gslb_why *why)
{
    const wsel_gslb_wideip *w = &q->cfg->wideips[q->wideip];
    wsel__gslb_stepst *st = &q->st->wideip_st[q->wideip];
    if (wsel__gslb_wrr_current(&st->wrr, q->st->epoch)) {
        *first = wsel__gslb_wrr_repeat(&st->wrr, w->n_pools);
    } else {
        uint64_t wt[WSEL_GSLB_MAX_POOLS];
        for (size_t i = 0; i < w->n_pools; i++)
            wt[i] = pq->ok[i] ? w->pools[i].ratio : 0;
        *first = wsel__gslb_wrr_pick(&st->wrr, wt, w->n_pools, q->st->epoch);
    }
    if (why && *first < 0) {
        why->reason = WSEL_GSLB_WHY_NO_POOL_WITH_RATIO;
    } else if (why) {
        why->reason = WSEL_GSLB_WHY_RATIO;
        why->cur = st->wrr.cur[*first];
    }
    return 0;
}

/* one injected random word per decision; none left is an error of the call. */
int wsel__gslb_wideip_random(wsel__gslb_query *q, wsel__gslb_pool_queue *pq, long *first,
                             wsel__gslb_why *why)
{
    wsel_gslb_state *s = q->st;
    const char *name = q->cfg->wideips[q->wideip].name;
    if (s->random_pos >= s->n_random) {
        wsel__fail(q->err, WSEL_E_ARG, NULL, 0, 0, name, NULL, "random",
                   "gtm wideip a %s: pool-lb-mode random needs a random input word and none is left (A-15)",
                   name);
        return 1;
    }
    uint64_t r = s->random[s->random_pos++];
    *first = (long)pq->avail[r % pq->n_avail];
    if (why) {
        why->reason = WSEL_GSLB_WHY_RANDOM;
        why->number = r;
    }
    return 0;
}

int wsel__gslb_wideip_order(wsel__gslb_query *q, wsel__gslb_pool_queue *pq,
                            wsel__gslb_why *why)
{
    const wsel_gslb_wideip *w = &q->cfg->wideips[q->wideip];
    pq->n_queue = 0;
    pq->more = false;
    if (w->n_pools == 1) { /* pool-lb-mode is never consulted with one pool (seed; G007) */
        pq->queue[pq->n_queue++] = pq->avail[0];
        if (why)
            why->reason = WSEL_GSLB_WHY_SINGLE_POOL;
        return 0;
    }
    long first = (long)pq->avail[0];
    wsel__gslb_wideip_fn pick = wsel__gslb_pick_table[w->lb_mode].wideip;
    if (pick && pick(q, pq, &first, why))
        return 1;
    if (first < 0 || pq->n_queue) /* failed, or the whole queue is there (topology) */
        return 0;
    pq->queue[pq->n_queue++] = (size_t)first;
    pq->more = true; /* most queries stop at the first pool: the rest when it is needed */
    return 0;
}

void wsel__gslb_wideip_rest(wsel__gslb_query *q, wsel__gslb_pool_queue *pq)
{
    const wsel_gslb_wideip *w = &q->cfg->wideips[q->wideip];
    size_t n = w->n_pools, first = pq->queue[0];
    if (w->lb_mode == WSEL_GSLB_GLOBAL_AVAILABILITY) {
        for (size_t k = 1; k < pq->n_avail; k++)
            pq->queue[pq->n_queue++] = pq->avail[k];
    } else {
        for (size_t k = 1, i = first; k < n; k++) {
            i = i + 1 == n ? 0 : i + 1;
            if (pq->ok[i])
                pq->queue[pq->n_queue++] = i;
        }
    }
    pq->more = false;
}
