/* GSLB engine: topology (doc/gslb.md §2, a minimal scorer; ):
 * the first record in evaluation order whose LDNS side matches the query's source and
 * whose server side matches the candidate gives its score. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gslb_engine.h"

#define NMAX WSEL__GSLB_NMAX

/* The geo entry of address a in the inputs; NULL when none (or no inputs: the config
 * alone, wsel__gslb_topo_prepare, where a geo match is left to query time). */
static const wsel__gslb_geo *geo_of(const wsel__gslb_query *q, const wsel_gslb_addr *a)
{
    if (!q->in)
        return NULL;
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

/* The log's walk over every record (doc/gslb.md §7): each record matching the candidate,
 * in evaluation order, emitted as a RECORD event in `ev`, the later ones shadowed. */
static void topo_log_records(const wsel__gslb_query *q, const topo_subject *cand,
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
        ev->record = (long)t;
        ev->number = r->score;
        wsel__gslb_emit(q, ev);
        ev->shadowed = true;
    }
}

/* Record t's LDNS side against the query's source, worked out once per query: the first
 * time here, then read back (ldns_side). */
static bool ldns_side_eval(const wsel__gslb_query *q, size_t t)
{
    wsel__gslb_topo_prep *tp = &q->st->topo;
    topo_subject src = {.addr = topo_source(q), .pool = -1, .rin = q->st->region_in,
                        .rin_ok = &q->st->region_src_ok};
    tp->ldns_ok[t] = cond_match(q, &q->cfg->topo[t].ldns, &src);
    tp->ldns_query[t] = tp->query;
    return tp->ldns_ok[t];
}

static inline bool ldns_side(const wsel__gslb_query *q, size_t t)
{
    const wsel__gslb_topo_prep *tp = &q->st->topo;
    return tp->ldns_query[t] == tp->query ? tp->ldns_ok[t] : ldns_side_eval(q, t);
}

/* The candidates: pool p at the wide-IP level (member -1), member i of pool p. */
static topo_subject pool_subject(long pool)
{
    return (topo_subject){.addr = NULL, .pool = pool, .datacenter = NULL, .pool_level = true};
}

static topo_subject member_subject(const wsel_gslb_config *cfg, size_t p, size_t i)
{
    const wsel_gslb_vs *vs = &cfg->vs[cfg->pools[p].members[i].vs];
    return (topo_subject){.addr = &vs->addr, .pool = (long)p,
                          .datacenter = cfg->servers[vs->server].datacenter, .pool_level = false};
}

static topo_subject cand_subject(const wsel_gslb_config *cfg, size_t p, long member)
{
    return member < 0 ? pool_subject((long)p) : member_subject(cfg, p, (size_t)member);
}

/* Record t's server side against the candidate, tested now: its regions are worked out
 * into the second half of region_in, once per candidate (region_cand_ok, cleared by
 * topo_first for each new candidate). */
static bool server_live(const wsel__gslb_query *q, size_t p, long member, size_t t)
{
    topo_subject sv = cand_subject(q->cfg, p, member);
    sv.rin = q->st->region_in + q->cfg->n_regions;
    sv.rin_ok = &q->st->region_cand_ok;
    return cond_applies(&q->cfg->topo[t].server, &sv) &&
           cond_match(q, &q->cfg->topo[t].server, &sv);
}

/* The candidate's score: the first record (evaluation order, A-35) whose LDNS side matches
 * the query's source and whose server side matches the candidate; 0 when none does. It
 * reads the candidate's prepared list[0..n) (wsel__gslb_topo_prepare), or with list NULL
 * every record, its server side tested here. */
static unsigned topo_first(const wsel__gslb_query *q, size_t p, long member,
                           const uint32_t *list, size_t n)
{
    q->st->region_cand_ok = false;
    if (list) { /* prepared: most entries need the LDNS side alone */
        for (size_t k = 0; k < n; k++) {
            size_t t = list[k] >> 1;
            if (ldns_side(q, t) && (!(list[k] & 1) || server_live(q, p, member, t)))
                return q->cfg->topo[t].score;
        }
        return 0;
    }
    for (size_t t = 0; t < q->cfg->n_topo; t++)
        if (ldns_side(q, t) && server_live(q, p, member, t))
            return q->cfg->topo[t].score;
    return 0;
}

/* The key a kept score was worked out under: the inputs generation (the state's epoch)
 * and which source the query's wide IP scores (its ECS or the LDNS, topo_source). */
static uint64_t score_key(const wsel__gslb_query *q)
{
    return q->st->epoch << 1 | (topo_source(q) == &q->in->ecs);
}

/* A candidate's prepared records. When no candidate has any, the list was never
 * allocated: an empty one stands for it (NULL would mean "not prepared" to topo_first,
 * and NULL + 0 is no pointer C allows; found by fuzz_gslb_engine under UBSan). */
static const uint32_t *prep_at(const wsel__gslb_topo_prep *tp, size_t first)
{
    static const uint32_t none[1];
    return tp->list ? tp->list + first : none;
}

unsigned wsel__gslb_topo_pool(const wsel__gslb_query *q, size_t p)
{
    wsel__gslb_topo_prep *tp = &q->st->topo;
    if (!tp->on)
        return topo_first(q, p, -1, NULL, 0);
    uint64_t key = score_key(q);
    if (tp->pool_key[p] != key) {
        tp->pool_score[p] = topo_first(q, p, -1, prep_at(tp, tp->pool_first[p]),
                                       tp->pool_first[p + 1] - tp->pool_first[p]);
        tp->pool_key[p] = key;
    }
    return tp->pool_score[p];
}

unsigned wsel__gslb_topo_member(const wsel__gslb_query *q, size_t p, size_t i)
{
    wsel__gslb_topo_prep *tp = &q->st->topo;
    if (!tp->on)
        return topo_first(q, p, (long)i, NULL, 0);
    size_t c = q->st->elig_off[p] + i;
    uint64_t key = score_key(q);
    if (tp->member_key[c] != key) {
        tp->member_score[c] = topo_first(q, p, (long)i, prep_at(tp, tp->member_first[c]),
                                         tp->member_first[c + 1] - tp->member_first[c]);
        tp->member_key[c] = key;
    }
    return tp->member_score[c];
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
    topo_log_records(q, &sj, ev);
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
        unsigned score = wsel__gslb_topo_member(q, pk->pool, i);
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
        why->number = wsel__gslb_topo_member(q, pk->pool, (size_t)pick);
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
        unsigned score = wsel__gslb_topo_pool(q, (size_t)w->pools[pq->avail[k]].pool);
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

/* ---- preparing (once per config) ---- */

static bool geo_type(wsel_gslb_topo_type t)
{
    return t == WSEL_GSLB_T_CONTINENT || t == WSEL_GSLB_T_COUNTRY || t == WSEL_GSLB_T_STATE ||
           t == WSEL_GSLB_T_ISP || t == WSEL_GSLB_T_GEOIP_ISP;
}

/* A member-level server condition that reads the inputs: a geo attribute, or a region
 * whose match does (tp->region_live; at the wide-IP level only pools and regions of pools
 * count, so no condition there is live). */
static bool cond_live(const wsel__gslb_topo_prep *tp, const wsel_gslb_config *cfg,
                      const wsel_gslb_cond *c)
{
    if (geo_type(c->type))
        return true;
    return c->type == WSEL_GSLB_T_REGION && c->ref >= 0 && (size_t)c->ref < cfg->n_regions &&
           tp->region_live[c->ref];
}

/* Appends candidate sj's records to tp->list: those whose server side matches it by the
 * config alone, and the live ones (tested at query time). */
static bool prepare_candidate(const wsel__gslb_query *q, wsel__gslb_topo_prep *tp,
                              topo_subject sj, size_t *n, size_t *cap)
{
    bool server_ok = false;
    sj.rin = q->st->region_in + q->cfg->n_regions;
    sj.rin_ok = &server_ok;
    for (size_t t = 0; t < q->cfg->n_topo; t++) {
        const wsel_gslb_cond *c = &q->cfg->topo[t].server;
        if (!cond_applies(c, &sj))
            continue;
        bool live = !sj.pool_level && cond_live(tp, q->cfg, c);
        if (!live && !cond_match(q, c, &sj))
            continue;
        if (*n >= WSEL__GSLB_TOPO_PREP_MAX) {
            tp->on = false; /* too many: every record tested at query time */
            return true;
        }
        if (!wsel__grow(&tp->list, cap, *n + 1, sizeof *tp->list))
            return false;
        tp->list[(*n)++] = (uint32_t)(t << 1 | live);
    }
    return true;
}

bool wsel__gslb_topo_prepare(wsel_gslb_state *st, const wsel_gslb_config *cfg)
{
    wsel__gslb_topo_prep *tp = &st->topo;
    size_t n_members = 0;
    for (size_t p = 0; p < cfg->n_pools; p++)
        n_members += cfg->pools[p].n_members;
    tp->ldns_query = calloc(cfg->n_topo ? cfg->n_topo : 1, sizeof *tp->ldns_query);
    tp->ldns_ok = calloc(cfg->n_topo ? cfg->n_topo : 1, sizeof *tp->ldns_ok);
    if (!tp->ldns_query || !tp->ldns_ok)
        return false;
    if (!cfg->n_topo || cfg->n_topo > WSEL__GSLB_TOPO_PREP_MAX)
        return true; /* tp->on false */
    tp->region_live = calloc(cfg->n_regions ? cfg->n_regions : 1, 1);
    tp->pool_first = calloc(cfg->n_pools + 1, sizeof *tp->pool_first);
    tp->member_first = calloc(n_members + 1, sizeof *tp->member_first);
    tp->pool_key = calloc(cfg->n_pools ? cfg->n_pools : 1, sizeof *tp->pool_key);
    tp->pool_score = calloc(cfg->n_pools ? cfg->n_pools : 1, sizeof *tp->pool_score);
    tp->member_key = calloc(n_members ? n_members : 1, sizeof *tp->member_key);
    tp->member_score = calloc(n_members ? n_members : 1, sizeof *tp->member_score);
    if (!tp->region_live || !tp->pool_first || !tp->member_first || !tp->pool_key ||
        !tp->pool_score || !tp->member_key || !tp->member_score)
        return false;
    /* inner regions first, so a region entry reads its region's verdict */
    for (size_t k = 0; k < cfg->n_regions; k++) {
        size_t r = st->region_order[k];
        const wsel_gslb_region *rg = &cfg->regions[r];
        for (size_t e = 0; e < rg->n_entries; e++)
            if (cond_live(tp, cfg, &rg->entries[e]))
                tp->region_live[r] = 1;
    }
    /* the config alone: no inputs (geo_of finds nothing; live conditions are kept, not
     * decided); the region entries evaluated here are not a resolve's */
    wsel__gslb_query q = {.cfg = cfg, .in = NULL, .st = st};
    uint64_t evals = st->region_evals;
    size_t n = 0, cap = 0;
    tp->on = true;
    for (size_t p = 0; tp->on && p < cfg->n_pools; p++) {
        tp->pool_first[p] = n;
        if (!prepare_candidate(&q, tp, pool_subject((long)p), &n, &cap))
            return false;
        tp->pool_first[p + 1] = n;
    }
    size_t c = 0;
    for (size_t p = 0; tp->on && p < cfg->n_pools; p++)
        for (size_t i = 0; tp->on && i < cfg->pools[p].n_members; i++, c++) {
            const wsel_gslb_member *m = &cfg->pools[p].members[i];
            tp->member_first[c] = n;
            if (m->vs >= 0) { /* an unresolved member is never a candidate */
                if (!prepare_candidate(&q, tp, member_subject(cfg, p, i), &n, &cap))
                    return false;
            }
            tp->member_first[c + 1] = n;
        }
    if (!tp->on) { /* over the bound: the lists are not used */
        free(tp->list);
        tp->list = NULL;
    }
    st->region_evals = evals;
    return true;
}

void wsel__gslb_topo_prep_free(wsel__gslb_topo_prep *tp)
{
    free(tp->pool_first);
    free(tp->member_first);
    free(tp->list);
    free(tp->region_live);
    free(tp->ldns_query);
    free(tp->ldns_ok);
    free(tp->pool_key);
    free(tp->pool_score);
    free(tp->member_key);
    free(tp->member_score);
}
