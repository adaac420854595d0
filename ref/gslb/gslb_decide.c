/* GSLB decision engine (doc/gslb.md §4): the wide-IP level, step by step (§4.2), then
 * each pool's chain (gslb_chain.c). Pure function of (config, inputs, state): the same
 * three give the same outcome, log and next state. No allocation except when a new
 * persistence record is stored. */
#include <string.h>

#include "gslb_engine.h"

/* The wide-IP level of one decision: what the steps of §4.2 hand each other. */
typedef struct wide_decision {
    const wsel_gslb_wideip *w;
    bool persist;                 /* step 2 applies: persistence on, an LDNS */
    wsel_gslb_addr pnet;          /* the persistence key: the masked LDNS */
    unsigned pprefix;
    wsel__gslb_pool_queue pq;     /* step 3: available pools, their order */
    uint64_t tried;               /* bit i: the pool at list position i ran (MAX_POOLS is 64) */
} wide_decision;

/* now + ttl, at most 2^63-1: the largest integer the inputs can hold, so that the state
 * written is always read back (doc/gslb.md §3); a record at that bound never expires
 * before `now` reaches it. */
static uint64_t expiry(uint64_t now, unsigned ttl)
{
    return now >= (uint64_t)INT64_MAX - ttl ? (uint64_t)INT64_MAX : now + ttl;
}

/* ---- the log's pool events ---- */

static void emit_pool_selection(const wsel__gslb_query *q, int method, long pool,
                                const wsel__gslb_why *why)
{
    if (!wsel__gslb_logging(q, WSEL_GSLB_LOG_POOL_SELECTION))
        return;
    wsel_gslb_event ev = wsel__gslb_event(q, WSEL_GSLB_EV_POOL_SELECTION);
    ev.ldns = q->in->ldns;
    ev.method = method;
    ev.pool = pool;
    ev.reason = why->reason;
    ev.number = why->number;
    ev.cur = why->cur;
    ev.value = why->value;
    wsel__gslb_emit(q, &ev);
}

/* A pool-traversal event of the pool at list position pos (-1: the last-resort pool). */
static wsel_gslb_event traversal(const wsel__gslb_query *q, long pos, wsel_gslb_result result)
{
    const wsel_gslb_wideip *w = &q->cfg->wideips[q->wideip];
    wsel_gslb_event ev = wsel__gslb_event(q, WSEL_GSLB_EV_POOL_TRAVERSAL);
    ev.pos = pos;
    ev.pool = pos >= 0 ? w->pools[pos].pool : w->lrp;
    ev.result = result;
    return ev;
}

/* The end of a pool's turn: terminal (the outcome) or passed on (none-cascade). */
static void emit_pool_done(const wsel__gslb_query *q, long pos, int r)
{
    if (!wsel__gslb_logging(q, WSEL_GSLB_LOG_POOL_TRAVERSAL))
        return;
    bool terminal = r == WSEL__GSLB_POOL_TERMINAL;
    wsel_gslb_event ev =
        traversal(q, pos, terminal ? WSEL_GSLB_R_TERMINAL : WSEL_GSLB_R_NEXT_POOL);
    ev.reason = terminal ? WSEL_GSLB_WHY_OUTCOME : WSEL_GSLB_WHY_NONE_CASCADE;
    ev.outcome = q->out->kind;
    wsel__gslb_emit(q, &ev);
}

/* ---- step 2: persistence (A-22) ---- */

static long prec_find(const wsel__gslb_query *q, const wsel_gslb_addr *net, unsigned prefix)
{
    for (size_t i = 0; i < q->st->n_prec; i++) {
        const wsel__gslb_prec *r = &q->st->prec[i];
        if (r->wideip == q->wideip && r->prefix == prefix && wsel__gslb_addr_eq(&r->net, net))
            return (long)i;
    }
    return -1;
}

/* Records the answer of step 4 under the decision's key (a new record or the old one). */
static int prec_store(wsel__gslb_query *q, const wide_decision *d)
{
    long i = prec_find(q, &d->pnet, d->pprefix);
    wsel_gslb_state *st = q->st;
    if (i < 0) {
        if (!wsel__grow(&st->prec, &st->cap_prec, st->n_prec + 1, sizeof *st->prec))
            return WSEL_E_NOMEM;
        i = (long)st->n_prec++;
    }
    wsel__gslb_prec *r = &st->prec[i];
    r->wideip = q->wideip;
    r->net = d->pnet;
    r->prefix = d->pprefix;
    r->pool = (size_t)q->out->pool;
    r->member = (size_t)q->out->members[0];
    r->expires = expiry(q->in->now, d->w->ttl_persistence);
    return 0;
}

static bool attached(const wsel_gslb_wideip *w, size_t p)
{
    for (size_t i = 0; i < w->n_pools; i++)
        if (w->pools[i].pool == (long)p)
            return true;
    return false;
}

/* A record for the LDNS's block that is unexpired, names an attached available pool and
 * an available member answers (step persist), refreshed (idle-based, Q-3). */
static bool step_persist(wsel__gslb_query *q, wide_decision *d)
{
    d->persist = d->w->persistence && q->in->ldns.family;
    if (!d->persist)
        return false;
    d->pprefix = q->in->ldns.family == 4 ? d->w->cidr4 : d->w->cidr6;
    d->pnet = wsel__gslb_mask(&q->in->ldns, d->pprefix);
    long ri = prec_find(q, &d->pnet, d->pprefix);
    if (ri < 0)
        return false;
    wsel__gslb_prec *r = &q->st->prec[ri];
    const wsel_gslb_pool *pl = &q->cfg->pools[r->pool];
    if (q->in->now >= r->expires || !attached(d->w, r->pool) ||
        !wsel__gslb_pool_available(q, r->pool, NULL) || r->member >= pl->n_members ||
        !wsel__gslb_member_available(q, &pl->members[r->member]))
        return false;
    r->expires = expiry(q->in->now, d->w->ttl_persistence); /* idle-based */
    wsel_gslb_outcome *o = q->out;
    o->kind = WSEL_GSLB_O_ANSWER;
    o->pool = (long)r->pool;
    o->step = WSEL_GSLB_STEP_PERSIST;
    o->method = -1;
    o->ttl = pl->ttl;
    /* fill: the recorded member, then list order after it */
    for (size_t k = 0; k < pl->n_members && o->n_addrs < pl->max_answers; k++) {
        size_t mi = (r->member + k) % pl->n_members;
        if (wsel__gslb_member_available(q, &pl->members[mi]))
            wsel__gslb_add_addr(o, &q->cfg->vs[pl->members[mi].vs].addr, (long)mi);
    }
    if (wsel__gslb_logging(q, WSEL_GSLB_LOG_POOL_SELECTION)) {
        wsel_gslb_event ev = wsel__gslb_event(q, WSEL_GSLB_EV_POOL_SELECTION);
        ev.ldns = q->in->ldns;
        ev.pool = (long)r->pool;
        ev.reason = WSEL_GSLB_WHY_PERSIST;
        ev.key = d->pnet;
        ev.prefix = d->pprefix;
        wsel__gslb_emit(q, &ev);
    }
    return true;
}

/* ---- step 3: the available pools in list order, and their order ---- */

/* Works out which of the wide IP's pools are available (kept per inputs generation;
 * again, with each pool's reason, when the log wants pool traversal). */
static void available_pools(wsel__gslb_query *q, wide_decision *d)
{
    const wsel_gslb_wideip *w = d->w;
    wsel_gslb_state *st = q->st;
    uint8_t *avail = st->w_avail + q->wideip * WSEL_GSLB_MAX_POOLS;
    bool *ok = st->w_ok + q->wideip * WSEL_GSLB_MAX_POOLS;
    bool trav = wsel__gslb_logging(q, WSEL_GSLB_LOG_POOL_TRAVERSAL);
    if (trav || !st->w_mark[q->wideip]) {
        size_t n = 0;
        for (size_t i = 0; i < w->n_pools; i++) {
            if (!trav) { /* no event built for a log that does not want it */
                ok[i] = w->pools[i].pool >= 0 &&
                        wsel__gslb_pool_available(q, (size_t)w->pools[i].pool, NULL);
            } else {
                wsel_gslb_event ev = traversal(q, (long)i, WSEL_GSLB_R_SKIPPED);
                ev.reason = WSEL_GSLB_WHY_UNRESOLVED;
                ok[i] = w->pools[i].pool >= 0 &&
                        wsel__gslb_pool_available(q, (size_t)w->pools[i].pool, &ev);
                if (!ok[i])
                    wsel__gslb_emit(q, &ev);
            }
            if (ok[i])
                avail[n++] = (uint8_t)i;
        }
        st->w_n_avail[q->wideip] = (uint8_t)n;
        st->w_mark[q->wideip] = 1;
    }
    d->pq.avail = avail;
    d->pq.ok = ok;
    d->pq.n_avail = st->w_n_avail[q->wideip];
}

/* The first pool by pool-lb-mode (and the rest's order), logged. Nonzero only for an
 * error of the call (random input exhausted, q->err filled). */
static int order_pools(wsel__gslb_query *q, wide_decision *d)
{
    wsel__gslb_why why = {.reason = WSEL_GSLB_WHY_NONE, .metric = -1};
    bool logging = wsel__gslb_logging(q, WSEL_GSLB_LOG_POOL_SELECTION);
    if (wsel__gslb_wideip_order(q, &d->pq, logging ? &why : NULL))
        return 1;
    long pool = d->pq.n_queue ? d->w->pools[d->pq.queue[0]].pool : -1;
    emit_pool_selection(q, (int)d->w->lb_mode, pool, &why);
    return 0;
}

/* ---- step 4: each pool's chain until one is terminal ---- */

static int traverse(wsel__gslb_query *q, wide_decision *d, bool *done)
{
    for (size_t k = 0; k < d->pq.n_queue; k++) {
        size_t wi = d->pq.queue[k];
        size_t p = (size_t)d->w->pools[wi].pool;
        d->tried |= 1ull << wi;
        if (wsel__gslb_logging(q, WSEL_GSLB_LOG_POOL_TRAVERSAL)) {
            wsel_gslb_event ev = traversal(q, (long)wi, WSEL_GSLB_R_SELECTED);
            wsel__gslb_pool_available(q, p, &ev);
            wsel__gslb_emit(q, &ev);
        }
        int r = wsel__gslb_run_pool(q, p, WSEL_GSLB_STEP_NONE);
        emit_pool_done(q, (long)wi, r);
        if (r == WSEL__GSLB_POOL_TERMINAL) {
            *done = true;
            if (q->out->kind == WSEL_GSLB_O_ANSWER && d->persist && prec_store(q, d))
                return WSEL_E_NOMEM;
            return 0;
        }
        if (d->pq.more)
            wsel__gslb_wideip_rest(q, &d->pq);
    }
    return 0;
}

/* ---- step 5: the last-resort pool, never twice ---- */

static bool last_resort(wsel__gslb_query *q, wide_decision *d)
{
    const wsel_gslb_wideip *w = d->w;
    bool ran = false;
    for (size_t i = 0; i < w->n_pools; i++)
        if ((d->tried >> i & 1) && w->pools[i].pool == w->lrp)
            ran = true;
    if (ran) {
        if (wsel__gslb_logging(q, WSEL_GSLB_LOG_POOL_TRAVERSAL)) {
            wsel_gslb_event ev = traversal(q, -1, WSEL_GSLB_R_SKIPPED);
            ev.reason = WSEL_GSLB_WHY_ALREADY_TRIED;
            wsel__gslb_emit(q, &ev);
        }
        return false;
    }
    wsel__gslb_why why = {.reason = WSEL_GSLB_WHY_LAST_RESORT, .metric = -1};
    emit_pool_selection(q, -1, w->lrp, &why);
    int r = wsel__gslb_run_pool(q, (size_t)w->lrp, WSEL_GSLB_STEP_LAST_RESORT);
    emit_pool_done(q, -1, r);
    /* not recorded for persistence: only step 4 records (a record must name an attached
     * pool to hit) */
    return r == WSEL__GSLB_POOL_TERMINAL;
}

/* ---- step 6: the terminal fall-through (A-25, A-26) ---- */

static void fall_through(wsel__gslb_query *q, const wide_decision *d)
{
    const wsel_gslb_wideip *w = d->w;
    wsel_gslb_outcome *o = q->out;
    wsel__gslb_out_reset(q);
    if (w->rcode_response) {
        o->kind = WSEL_GSLB_O_RCODE;
        o->rcode = w->rcode;
        o->soa_ttl = w->rcode_ttl;
    } else if (d->pq.n_avail == 0) {
        o->kind = WSEL_GSLB_O_BIND_AGGREGATE;
        for (size_t i = 0; i < w->n_pools; i++) {
            if (w->pools[i].pool < 0)
                continue;
            const wsel_gslb_pool *pl = &q->cfg->pools[w->pools[i].pool];
            for (size_t m = 0; m < pl->n_members; m++)
                if (pl->members[m].vs >= 0 && !pl->members[m].wrong_family) /* */
                    wsel__gslb_add_addr(o, &q->cfg->vs[pl->members[m].vs].addr, -1);
        }
    } else {
        o->kind = WSEL_GSLB_O_RETURN_TO_DNS;
        o->reason = "no-more-pools";
    }
}

/* ---- the decision ---- */

static int decide(wsel__gslb_query *q)
{
    wide_decision d; /* not zeroed as a whole: the queue is written before it is read */
    d.w = &q->cfg->wideips[q->wideip];
    d.persist = false;
    d.tried = 0;
    d.pq.n_avail = d.pq.n_queue = 0;
    d.pq.more = false;
    wsel__gslb_out_reset(q);
    if (!d.w->enabled) { /* 1: A-11 */
        q->out->kind = WSEL_GSLB_O_RETURN_TO_DNS;
        q->out->reason = "wideip-disabled";
        return 0;
    }
    if (step_persist(q, &d)) /* 2 */
        return 0;
    available_pools(q, &d); /* 3 */
    if (d.pq.n_avail && order_pools(q, &d))
        return WSEL_E_ARG; /* random input exhausted: err already filled */
    bool done = false;
    int rc = traverse(q, &d, &done); /* 4 */
    if (rc || done)
        return rc;
    if (d.w->lrp >= 0 && last_resort(q, &d)) /* 5 */
        return 0;
    fall_through(q, &d); /* 6 */
    return 0;
}

/* The availability caches belong to one (inputs, generation): a new one clears them. */
static void cache_check(const wsel_gslb_config *cfg, const wsel_gslb_inputs *in,
                        wsel_gslb_state *st)
{
    if (st->mark_in == in && st->mark_gen == in->gen)
        return;
    memset(st->vs_mark, 0, cfg->n_vs ? cfg->n_vs : 1);
    memset(st->pool_mark, 0, cfg->n_pools ? cfg->n_pools : 1);
    memset(st->elig_mark, 0, cfg->n_pools ? cfg->n_pools : 1);
    memset(st->w_mark, 0, cfg->n_wideips);
    st->epoch++;
    st->mark_in = in;
    st->mark_gen = in->gen;
}

int wsel_gslb_resolve(const wsel_gslb_config *cfg, long wideip, const wsel_gslb_inputs *in,
                      wsel_gslb_state *st, const wsel_gslb_log *log, wsel_gslb_outcome *out,
                      wsel_error *err)
{
    if (!cfg || !in || !st || !out || in->cfg != cfg || st->cfg != cfg || wideip < 0 ||
        (size_t)wideip >= cfg->n_wideips)
        return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, NULL, NULL, NULL,
                          "resolve: config, inputs, state and wide IP must belong together");
    wsel__gslb_query q = {.cfg = cfg, .in = in, .st = st, .log = log, .out = out,
                          .wideip = (size_t)wideip, .err = err};
    cache_check(cfg, in, st);
    st->region_src_ok = false; /* the source's regions, once per query */
    st->topo.query++;          /* and each topology record's LDNS side */
    int rc = decide(&q);
    if (rc) {
        if (rc == WSEL_E_NOMEM)
            wsel__fail(err, rc, NULL, 0, 0, NULL, NULL, NULL, "out of memory");
        return rc;
    }
    if (wsel__gslb_logging(&q, WSEL_GSLB_LOG_RESULT)) {
        wsel_gslb_event ev = wsel__gslb_event(&q, WSEL_GSLB_EV_RESULT);
        ev.pool = out->pool;
        ev.step = out->step;
        ev.outcome = out->kind;
        ev.answer = out;
        wsel__gslb_emit(&q, &ev);
    }
    return 0;
}
