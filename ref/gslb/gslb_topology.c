/* GSLB engine: topology (doc/gslb.md §2, a minimal scorer; ):
 * the first record in evaluation order whose LDNS side matches the query's source and
 * whose server side matches the candidate gives its score. */
#include <stdint.h>
#include <string.h>

#include "gslb_engine.h"

#define NMAX WSEL__GSLB_NMAX

static const wsel__gslb_geo *geo_of(const wsel__gslb_query *q, const wsel_gslb_addr *a)
{
    for (size_t i = 0; i < q->in->n_geo; i++)
        if (wsel__gslb_addr_eq(&q->in->geo[i].addr, a))
            return &q->in->geo[i];
    return NULL;
}

/* The thing a condition is tested against. */
typedef struct topo_subject {
    const wsel_gslb_addr *addr;    /* LDNS/ECS, or the member's VS address; NULL at pool level */
    long pool;                     /* candidate pool, or the member's pool */
    const char *datacenter;        /* member's server datacenter; NULL at pool level */
    bool pool_level;
    uint8_t *rin;                  /* each region's match for this subject */
    bool *rin_ok;                  /* rin worked out */
} topo_subject;

static bool cond_applies(const wsel_gslb_cond *c, const topo_subject *sj)
{
    if (sj->pool_level) /* only pool (and regions naming pools) at wide-IP level */
        return c->type == WSEL_GSLB_T_POOL || c->type == WSEL_GSLB_T_REGION;
    return true;
}

static bool cond_raw(const wsel__gslb_query *q, const wsel_gslb_cond *c,
                     const topo_subject *sj);

/* A-40 (supersedes A-12): a region matches a subject when none of its `not` entries
 * matches and, if it has positive entries, one of them does; at wide-IP level only its
 * pool and region entries count, and a region left with none matches nothing.
 * every region's match for one subject is worked out once, inner regions first
 * (st->region_order), each entry looked at once: linear in the region graph at any depth. */
static void regions_for(const wsel__gslb_query *q, const topo_subject *sj)
{
    const wsel_gslb_config *cfg = q->cfg;
    wsel_gslb_state *st = q->st;
    *sj->rin_ok = true; /* a region entry reads rin: the regions it names come earlier */
    for (size_t k = 0; k < cfg->n_regions; k++) {
        size_t r = st->region_order[k];
        const wsel_gslb_region *rg = &cfg->regions[r];
        bool any = false, pos = false, hit = false, out = false;
        for (size_t e = 0; e < rg->n_entries && !out; e++) {
            const wsel_gslb_cond *c = &rg->entries[e];
            st->region_evals++;
            if (!cond_applies(c, sj))
                continue;
            any = true;
            if (c->negate)
                out = cond_raw(q, c, sj);
            else if (!hit)
                hit = cond_raw(q, c, sj);
            pos |= !c->negate;
        }
        sj->rin[r] = any && !out && (hit || !pos);
    }
}

static bool cond_raw(const wsel__gslb_query *q, const wsel_gslb_cond *c, const topo_subject *sj)
{
    int attr = -1;
    switch (c->type) {
    case WSEL_GSLB_T_SUBNET:
        return sj->addr && wsel__gslb_in_subnet(sj->addr, &c->net, c->prefix);
    case WSEL_GSLB_T_POOL:
        return (c->ref >= 0 && c->ref == sj->pool) ||
               (c->ref_aaaa >= 0 && c->ref_aaaa == sj->pool); /* either type's pool, A-44 */
    case WSEL_GSLB_T_DATACENTER:
        return sj->datacenter && !strcmp(sj->datacenter, c->value);
    case WSEL_GSLB_T_REGION:
        if (c->ref < 0 || (size_t)c->ref >= q->cfg->n_regions)
            return false;
        if (!*sj->rin_ok)
            regions_for(q, sj);
        return sj->rin[c->ref];
    case WSEL_GSLB_T_CONTINENT: attr = 0; break;
    case WSEL_GSLB_T_COUNTRY: attr = 1; break;
    case WSEL_GSLB_T_STATE: attr = 2; break;
    case WSEL_GSLB_T_ISP:
    case WSEL_GSLB_T_GEOIP_ISP: attr = 3; break;
    default: return false;
    }
    const wsel__gslb_geo *g;
    if (!sj->addr || !(g = geo_of(q, sj->addr)) || !g->attr[attr])
        return false;
    return !strcmp(g->attr[attr], c->value);
}

static bool cond_match(const wsel__gslb_query *q, const wsel_gslb_cond *c,
                       const topo_subject *sj)
{
    return cond_raw(q, c, sj) != c->negate;
}

/* The ECS address when the wide IP prefers it and the query has one, else the LDNS. */
static const wsel_gslb_addr *topo_source(const wsel__gslb_query *q)
{
    const wsel_gslb_wideip *w = &q->cfg->wideips[q->wideip];
    if (w->ecs && q->in->ecs.family)
        return &q->in->ecs;
    return q->in->ldns.family ? &q->in->ldns : NULL;
}

/* The candidate's score: the first record (evaluation order, A-35) whose LDNS side matches
 * the query's source and whose server side matches the candidate; 0 when none does. With
 * `ev` (the log) every matching record is emitted as a RECORD event, the later ones
 * shadowed. */
static unsigned topo_score(const wsel__gslb_query *q, const topo_subject *cand,
                           wsel_gslb_event *ev)
{
    topo_subject src = {.addr = topo_source(q), .pool = -1, .rin = q->st->region_in,
                        .rin_ok = &q->st->region_src_ok};
    bool server_ok = false;
    topo_subject sv = *cand, *server = &sv;
    sv.rin = q->st->region_in + q->cfg->n_regions;
    sv.rin_ok = &server_ok;
    for (size_t t = 0; t < q->cfg->n_topo; t++) {
        const wsel_gslb_topo *r = &q->cfg->topo[t];
        if (!cond_applies(&r->server, server))
            continue;
        if (!cond_match(q, &r->ldns, &src) || !cond_match(q, &r->server, server))
            continue;
        if (!ev)
            return r->score;
        ev->record = (long)t;
        ev->number = r->score;
        wsel__gslb_emit(q, ev);
        ev->shadowed = true;
    }
    return ev && ev->shadowed ? (unsigned)q->cfg->topo[ev->record].score : 0;
}

unsigned wsel__gslb_topo_pool(const wsel__gslb_query *q, long pool)
{
    topo_subject sj = {.addr = NULL, .pool = pool, .datacenter = NULL, .pool_level = true};
    return topo_score(q, &sj, NULL);
}

unsigned wsel__gslb_topo_member(const wsel__gslb_query *q, size_t p, const wsel_gslb_member *m)
{
    const wsel_gslb_vs *vs = &q->cfg->vs[m->vs];
    topo_subject sj = {.addr = &vs->addr, .pool = (long)p,
                       .datacenter = q->cfg->servers[vs->server].datacenter, .pool_level = false};
    return topo_score(q, &sj, NULL);
}

void wsel__gslb_topo_log(const wsel__gslb_query *q, wsel_gslb_event *ev)
{
    topo_subject sj = {.pool = ev->pool, .pool_level = ev->member < 0};
    if (!sj.pool_level) {
        const wsel_gslb_vs *vs = &q->cfg->vs[q->cfg->pools[ev->pool].members[ev->member].vs];
        sj.addr = &vs->addr;
        sj.datacenter = q->cfg->servers[vs->server].datacenter;
    }
    ev->result = WSEL_GSLB_R_MATCHED;
    ev->reason = WSEL_GSLB_WHY_RECORD;
    ev->shadowed = false;
    topo_score(q, &sj, ev);
}

/* Members: the best score > 0, ties by round robin; none > 0 fails. */
long wsel__gslb_pick_topology(wsel__gslb_query *q, wsel__gslb_pick *pk, wsel__gslb_why *why)
{
    const wsel_gslb_pool *pl = &q->cfg->pools[pk->pool];
    wsel__gslb_scored sc[NMAX];
    size_t n_sc = 0;
    for (size_t i = 0; i < pl->n_members; i++) {
        if (!pk->elig[i])
            continue;
        unsigned score = wsel__gslb_topo_member(q, pk->pool, &pl->members[i]);
        if (score > 0) /* score 0: logged with the candidates (gslb_chain.c) */
            sc[n_sc++] = (wsel__gslb_scored){(double)score, (long)i};
    }
    bool tie = false;
    long pick = wsel__gslb_best_pick(&wsel__gslb_pick_state(q, pk)->rr, sc, n_sc,
                                     pl->n_members, pk->rank, &pk->n_rank, &tie);
    if (why && pick < 0) {
        why->reason = WSEL_GSLB_WHY_NO_MEMBER_SCORES;
    } else if (why) {
        why->reason = WSEL_GSLB_WHY_SCORE;
        why->number = wsel__gslb_topo_member(q, pk->pool, &pl->members[pick]);
        why->tie = tie;
    }
    return pick;
}

/* Pools: the available pools by score > 0, best first (the whole queue, A-23); none > 0
 * fails. */
int wsel__gslb_wideip_topology(wsel__gslb_query *q, wsel__gslb_pool_queue *pq, long *first,
                               wsel__gslb_why *why)
{
    const wsel_gslb_wideip *w = &q->cfg->wideips[q->wideip];
    wsel__gslb_scored sc[WSEL_GSLB_MAX_POOLS];
    size_t n_sc = 0;
    bool logging = wsel__gslb_logging(q, WSEL_GSLB_LOG_POOL_SELECTION);
    for (size_t k = 0; k < pq->n_avail; k++) {
        if (logging) {
            wsel_gslb_event ev = wsel__gslb_event(q, WSEL_GSLB_EV_POOL_SELECTION);
            ev.ldns = q->in->ldns;
            ev.method = WSEL_GSLB_TOPOLOGY;
            ev.pool = w->pools[pq->avail[k]].pool;
            wsel__gslb_topo_log(q, &ev);
        }
        unsigned score = wsel__gslb_topo_pool(q, w->pools[pq->avail[k]].pool);
        if (score > 0)
            sc[n_sc++] = (wsel__gslb_scored){(double)score, (long)pq->avail[k]};
    }
    *first = -1;
    if (!n_sc) {
        if (why)
            why->reason = WSEL_GSLB_WHY_NO_POOL_SCORES;
        return 0;
    }
    long rank[WSEL_GSLB_MAX_POOLS];
    size_t n_rank;
    *first = wsel__gslb_best_pick(&q->st->wideip_st[q->wideip].rr, sc, n_sc, w->n_pools, rank,
                                  &n_rank, NULL);
    if (why) {
        why->reason = WSEL_GSLB_WHY_TOPOLOGY;
        why->value = sc[0].v;
    }
    for (size_t k = 0; k < n_rank; k++)
        pq->queue[pq->n_queue++] = (size_t)rank[k];
    return 0;
}

uint64_t wsel__gslb_region_evals(const wsel_gslb_state *st)
{
    return st->region_evals;
}
