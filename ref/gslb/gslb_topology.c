/* GSLB engine: topology (doc/gslb.md §2, a minimal scorer; ):
 * the first record in evaluation order whose LDNS side matches the query's source and
 * whose server side matches the candidate gives its score. */
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
} topo_subject;

static bool cond_match(const wsel__gslb_query *q, const wsel_gslb_cond *c,
                       const topo_subject *sj, unsigned depth);

static bool cond_applies(const wsel_gslb_cond *c, const topo_subject *sj)
{
    if (sj->pool_level) /* only pool (and regions naming pools) at wide-IP level */
        return c->type == WSEL_GSLB_T_POOL || c->type == WSEL_GSLB_T_REGION;
    return true;
}

/* a region matches when any of its entries does. */
static bool region_match(const wsel__gslb_query *q, long region, const topo_subject *sj,
                         unsigned depth)
{
    if (region < 0 || depth > 32)
        return false;
    const wsel_gslb_region *r = &q->cfg->regions[region];
    for (size_t e = 0; e < r->n_entries; e++)
        if (cond_applies(&r->entries[e], sj) && cond_match(q, &r->entries[e], sj, depth + 1))
            return true;
    return false;
}

static bool cond_raw(const wsel__gslb_query *q, const wsel_gslb_cond *c, const topo_subject *sj,
                     unsigned depth)
{
    int attr = -1;
    switch (c->type) {
    case WSEL_GSLB_T_SUBNET:
        return sj->addr && wsel__gslb_in_subnet(sj->addr, &c->net, c->prefix);
    case WSEL_GSLB_T_POOL:
        return c->ref >= 0 && c->ref == sj->pool;
    case WSEL_GSLB_T_DATACENTER:
        return sj->datacenter && !strcmp(sj->datacenter, c->value);
    case WSEL_GSLB_T_REGION:
        return region_match(q, c->ref, sj, depth);
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
                       const topo_subject *sj, unsigned depth)
{
    return cond_raw(q, c, sj, depth) != c->negate;
}

/* The ECS address when the wide IP prefers it and the query has one, else the LDNS. */
static const wsel_gslb_addr *topo_source(const wsel__gslb_query *q)
{
    const wsel_gslb_wideip *w = &q->cfg->wideips[q->wideip];
    if (w->ecs && q->in->ecs.family)
        return &q->in->ecs;
    return q->in->ldns.family ? &q->in->ldns : NULL;
}

static unsigned topo_score(const wsel__gslb_query *q, const topo_subject *server)
{
    topo_subject src = {.addr = topo_source(q), .pool = -1};
    for (size_t t = 0; t < q->cfg->n_topo; t++) {
        const wsel_gslb_topo *r = &q->cfg->topo[t];
        if (!cond_applies(&r->server, server))
            continue;
        if (cond_match(q, &r->ldns, &src, 0) && cond_match(q, &r->server, server, 0))
            return r->score;
    }
    return 0;
}

unsigned wsel__gslb_topo_pool(const wsel__gslb_query *q, long pool)
{
    topo_subject sj = {.addr = NULL, .pool = pool, .datacenter = NULL, .pool_level = true};
    return topo_score(q, &sj);
}

unsigned wsel__gslb_topo_member(const wsel__gslb_query *q, size_t p, const wsel_gslb_member *m)
{
    const wsel_gslb_vs *vs = &q->cfg->vs[m->vs];
    topo_subject sj = {.addr = &vs->addr, .pool = (long)p,
                       .datacenter = q->cfg->servers[vs->server].datacenter, .pool_level = false};
    return topo_score(q, &sj);
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
        if (score > 0)
            sc[n_sc++] = (wsel__gslb_scored){(double)score, (long)i};
        else
            wsel__gslb_emit_skip(q, pk, i, WSEL_GSLB_WHY_SCORE_0, -1);
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
    for (size_t k = 0; k < pq->n_avail; k++) {
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
