/* GSLB engine: the selection methods (doc/gslb.md §2) for members and for pools. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gslb_select.h"

#define NMAX WSEL_GSLB_MAX_MEMBERS

/* The log's reason text, formatted only when someone logs (reason != NULL). */
#define REASON(...)                                                                      \
    do {                                                                                 \
        if (reason)                                                                      \
            snprintf(reason, rlen, __VA_ARGS__);                                         \
    } while (0)

static const char *const metric_key[WSEL_GSLB_METRIC_COUNT_] = {
    "rtt_us", "completion_rate", "hops", "cpu_pct", "kbps", "connections", "pps",
    "vs_capacity", "vs_score", "link_capacity"};

/* ---- round robin and smooth weighted round robin (A-32) ---- */

/* Scans cursor+1 ... modulo n; the first index with ok[] wins and becomes the cursor. */
static long rr_pick(long *cursor, const bool *ok, size_t n)
{
    size_t i = *cursor >= 0 && (size_t)*cursor < n ? (size_t)*cursor : n - 1;
    for (size_t k = 0; k < n; k++) {
        i = i + 1 == n ? 0 : i + 1;
        if (ok[i]) {
            *cursor = (long)i;
            return (long)i;
        }
    }
    return -1;
}

/* w[i] = weight (0 = not in E). Resets the counters when E or a weight changed. A
 * successful pick records the state's epoch: while it is current, E and the weights
 * (functions of config and inputs) are the same and wrr_repeat may be used instead. */
static long wrr_pick(wsel__gslb_wrr *st, const uint64_t *w, size_t n, uint64_t epoch)
{
    bool same = st->used;
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++) {
        if (st->w[i] != w[i])
            same = false;
        total += w[i];
    }
    if (total == 0)
        return -1;
    if (!same) {
        for (size_t i = 0; i < n; i++) {
            st->w[i] = (uint32_t)w[i];
            st->cur[i] = 0;
        }
        st->used = true;
    }
    long best = -1;
    for (size_t i = 0; i < n; i++) {
        if (!w[i])
            continue;
        st->cur[i] += (int64_t)w[i];
        if (best < 0 || st->cur[i] > st->cur[best])
            best = (long)i;
    }
    st->cur[best] -= (int64_t)total;
    st->epoch = epoch;
    return best;
}

/* True when wrr_repeat may stand for wrr_pick: a pick happened under this epoch. */
static bool wrr_current(const wsel__gslb_wrr *st, uint64_t epoch)
{
    return st->used && st->epoch == epoch;
}

/* wrr_pick with the weights of the previous pick (wrr_current). */
static long wrr_repeat(wsel__gslb_wrr *st, size_t n)
{
    uint64_t total = 0;
    long best = -1;
    for (size_t i = 0; i < n; i++) {
        if (!st->w[i])
            continue;
        total += st->w[i];
        st->cur[i] += st->w[i];
        if (best < 0 || st->cur[i] > st->cur[best])
            best = (long)i;
    }
    st->cur[best] -= (int64_t)total;
    return best;
}

/* ---- topology (doc/gslb.md §2, minimal scorer) ---- */

static const wsel__gslb_geo *geo_of(const Q *q, const wsel_gslb_addr *a)
{
    for (size_t i = 0; i < q->in->n_geo; i++)
        if (wsel__gslb_addr_eq(&q->in->geo[i].addr, a))
            return &q->in->geo[i];
    return NULL;
}

/* The thing a condition is tested against. */
typedef struct subj {
    const wsel_gslb_addr *addr;    /* LDNS/ECS, or the member's VS address; NULL at pool level */
    long pool;                     /* candidate pool, or the member's pool */
    const char *datacenter;        /* member's server datacenter; NULL at pool level */
    bool pool_level;
} subj;

static bool cond_match(const Q *q, const wsel_gslb_cond *c, const subj *sj, unsigned depth);

static int cond_applies(const wsel_gslb_cond *c, const subj *sj)
{
    if (sj->pool_level) /* only pool (and regions naming pools) at wide-IP level */
        return c->type == WSEL_GSLB_T_POOL || c->type == WSEL_GSLB_T_REGION;
    return 1;
}

static bool cond_raw(const Q *q, const wsel_gslb_cond *c, const subj *sj, unsigned depth)
{
    const wsel__gslb_geo *g;
    int attr = -1;
    switch (c->type) {
    case WSEL_GSLB_T_SUBNET:
        return sj->addr && wsel__gslb_in_subnet(sj->addr, &c->net, c->prefix);
    case WSEL_GSLB_T_POOL:
        return c->ref >= 0 && c->ref == sj->pool;
    case WSEL_GSLB_T_DATACENTER:
        return sj->datacenter && !strcmp(sj->datacenter, c->value);
    case WSEL_GSLB_T_REGION:
        if (c->ref < 0 || depth > 32)
            return false;
        for (size_t e = 0; e < q->cfg->regions[c->ref].n_entries; e++) {
            const wsel_gslb_cond *x = &q->cfg->regions[c->ref].entries[e];
            if (cond_applies(x, sj) && cond_match(q, x, sj, depth + 1))
                return true; /* any entry */
        }
        return false;
    case WSEL_GSLB_T_CONTINENT: attr = 0; break;
    case WSEL_GSLB_T_COUNTRY: attr = 1; break;
    case WSEL_GSLB_T_STATE: attr = 2; break;
    case WSEL_GSLB_T_ISP:
    case WSEL_GSLB_T_GEOIP_ISP: attr = 3; break;
    default: return false;
    }
    if (!sj->addr || !(g = geo_of(q, sj->addr)) || !g->attr[attr])
        return false;
    return !strcmp(g->attr[attr], c->value);
}

static bool cond_match(const Q *q, const wsel_gslb_cond *c, const subj *sj, unsigned depth)
{
    return cond_raw(q, c, sj, depth) != c->negate;
}

static const wsel_gslb_addr *topo_source(const Q *q)
{
    const wsel_gslb_wideip *w = &q->cfg->wideips[q->wideip];
    if (w->ecs && q->in->ecs.family)
        return &q->in->ecs;
    return q->in->ldns.family ? &q->in->ldns : NULL;
}

/* score of the first record (evaluation order) matching source and candidate; 0 if none */
static unsigned topo_score(const Q *q, const subj *server)
{
    subj src = {.addr = topo_source(q), .pool = -1};
    for (size_t t = 0; t < q->cfg->n_topo; t++) {
        const wsel_gslb_topo *r = &q->cfg->topo[t];
        if (!cond_applies(&r->server, server))
            continue;
        if (cond_match(q, &r->ldns, &src, 0) && cond_match(q, &r->server, server, 0))
            return r->score;
    }
    return 0;
}

static unsigned member_topo(const Q *q, size_t p, const wsel_gslb_member *m)
{
    const wsel_gslb_vs *vs = &q->cfg->vs[m->vs];
    subj sj = {.addr = &vs->addr, .pool = (long)p,
               .datacenter = q->cfg->servers[vs->server].datacenter, .pool_level = false};
    return topo_score(q, &sj);
}

/* ---- ranking helpers ---- */

/* Fills rank with the eligible in cyclic list order starting at `pick`. */
static void rank_cyclic(long pick, const bool *ok, size_t n, long *rank, size_t *n_rank)
{
    *n_rank = 0;
    for (size_t k = 0, i = (size_t)pick; k < n; k++, i = i + 1 == n ? 0 : i + 1)
        if (ok[i])
            rank[(*n_rank)++] = (long)i;
}

/* Sort key for "best value" rankings: value descending (values are pre-oriented so that
 * larger is better), ties by list index. */
typedef struct scored {
    double v;
    long i;
} scored;

static int cmp_scored(const void *a, const void *b)
{
    const scored *x = a, *y = b;
    if (x->v != y->v)
        return x->v > y->v ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

/* Best value with ties to the round-robin cursor; rank = pick, then by value. */
static long best_pick(long *cursor, scored *sc, size_t n_sc, size_t n, long *rank,
                      size_t *n_rank, bool *tie)
{
    if (!n_sc)
        return -1;
    qsort(sc, n_sc, sizeof *sc, cmp_scored);
    bool tied[NMAX] = {0};
    size_t n_tied = 0;
    for (size_t k = 0; k < n_sc && sc[k].v == sc[0].v; k++) {
        tied[sc[k].i] = true;
        n_tied++;
    }
    long pick = sc[0].i;
    if (n_tied > 1)
        pick = rr_pick(cursor, tied, n);
    if (tie)
        *tie = n_tied > 1;
    *n_rank = 0;
    rank[(*n_rank)++] = pick;
    for (size_t k = 0; k < n_sc; k++)
        if (sc[k].i != pick)
            rank[(*n_rank)++] = sc[k].i;
    return pick;
}

/* ---- static persist (A-33) ---- */

static uint64_t fnv1a(uint64_t h, const void *data, size_t len)
{
    const uint8_t *d = data;
    for (size_t i = 0; i < len; i++) {
        h ^= d[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

static int cmp_hash(const void *a, const void *b)
{
    const struct {
        uint64_t h;
        long i;
    } *x = a, *y = b;
    if (x->h != y->h)
        return x->h > y->h ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

/* ---- QoS (doc/gslb.md §2; A-19) ---- */

static const struct {
    int metric; /* -1: topology score */
    bool higher;
} qos_factor[WSEL_GSLB_QOS_COUNT_] = {
    {WSEL_GSLB_M_RTT, false},        {WSEL_GSLB_M_LINK_CAPACITY, true},
    {WSEL_GSLB_M_COMPLETION, true} /* hit ratio */, {WSEL_GSLB_M_KBPS, false},
    {WSEL_GSLB_M_PPS, false},        {WSEL_GSLB_M_HOPS, false},
    {-1, true},                      {WSEL_GSLB_M_VS_CAPACITY, true},
    {WSEL_GSLB_M_VS_SCORE, true},
};

/* ---- the member-level select ---- */

long wsel__gslb_select(Q *q, size_t p, int s, wsel_gslb_method m, const bool *elig, long *rank,
                       size_t *n_rank, char *reason, size_t rlen)
{
    const wsel_gslb_pool *pl = &q->cfg->pools[p];
    wsel__gslb_stepst *st = &q->st->pool_st[p * 3 + (size_t)s]; /* state per (pool, step), A-30 */
    size_t n = pl->n_members;
    const wsel_gslb_method_info *mi = &wsel__gslb_methods[m];
    *n_rank = 0;
    long pick = -1;
    REASON("no-eligible-member");
    if (!n)
        return -1;
    switch (m) {
    case WSEL_GSLB_ROUND_ROBIN:
        pick = rr_pick(&st->rr, elig, n);
        if (pick >= 0) {
            rank_cyclic(pick, elig, n, rank, n_rank);
            REASON("rr-next");
        }
        return pick;
    case WSEL_GSLB_RATIO: {
        if (!reason && wrr_current(&st->wrr, q->st->epoch)) { /* no ratio-0 lines to log */
            pick = wrr_repeat(&st->wrr, n);
            for (size_t k = 0, i = (size_t)pick; k < n; k++, i = i + 1 == n ? 0 : i + 1)
                if (st->wrr.w[i])
                    rank[(*n_rank)++] = (long)i;
            return pick;
        }
        uint64_t w[NMAX];
        bool inE[NMAX];
        for (size_t i = 0; i < n; i++) {
            w[i] = elig[i] ? pl->members[i].ratio : 0; /* ratio 0 never chosen */
            inE[i] = w[i] > 0;
            if (elig[i] && !inE[i])
                EMIT(q, WSEL_GSLB_LOG_MEMBER_TRAVERSAL,
                     "pool-member-traversal pool=%s step=%s method=ratio member=%s result=skipped reason=ratio-0",
                     pl->name, wsel_gslb_step_name((wsel_gslb_step)s), pl->members[i].key);
        }
        pick = wrr_pick(&st->wrr, w, n, q->st->epoch);
        if (pick < 0) {
            REASON("no-eligible-member-with-ratio");
            return -1;
        }
        rank_cyclic(pick, inE, n, rank, n_rank);
        REASON("ratio w=%u cur=%lld", pl->members[pick].ratio,
                 (long long)st->wrr.cur[pick]);
        return pick;
    }
    case WSEL_GSLB_GLOBAL_AVAILABILITY:
        for (size_t i = 0; i < n; i++)
            if (elig[i]) {
                pick = (long)i;
                break;
            }
        if (pick >= 0) {
            for (size_t i = (size_t)pick; i < n; i++)
                if (elig[i])
                    rank[(*n_rank)++] = (long)i;
            REASON("first-available");
        }
        return pick;
    case WSEL_GSLB_STATIC_PERSISTENCE: {
        const wsel_gslb_addr *ldns = &q->in->ldns;
        if (!ldns->family) {
            REASON("no-ldns");
            return -1;
        }
        wsel__gslb_spcache *sp = &q->st->sp[p];
        wsel_gslb_addr key = sp->key;
        if (!sp->valid || !wsel__gslb_addr_eq(&sp->ldns, ldns)) {
            unsigned prefix = ldns->family == 4 ? q->cfg->sp_cidr4 : q->cfg->sp_cidr6;
            key = wsel__gslb_mask(ldns, prefix);
            sp->ldns = *ldns;
        }
        if (!sp->valid || !wsel__gslb_addr_eq(&sp->key, &key)) {
            struct {
                uint64_t h;
                long i;
            } hs[NMAX];
            uint64_t base = 0xcbf29ce484222325ull;
            uint8_t fam = ldns->family;
            base = fnv1a(base, &fam, 1);
            base = fnv1a(base, key.bytes, fam == 4 ? 4 : 16);
            uint8_t zero = 0;
            base = fnv1a(base, &zero, 1);
            for (size_t i = 0; i < n; i++) {
                /* the member key with full paths: SERVER-PATH ":" VS-NAME (as the server
                 * declares it); an unresolved member (never eligible) hashes as written */
                const wsel_gslb_member *mb = &pl->members[i];
                if (mb->vs < 0) {
                    hs[i].h = fnv1a(base, mb->key, strlen(mb->key));
                } else {
                    const wsel_gslb_vs *vs = &q->cfg->vs[mb->vs];
                    const char *sn = q->cfg->servers[vs->server].name;
                    uint64_t h = fnv1a(base, sn, strlen(sn));
                    h = fnv1a(h, ":", 1);
                    hs[i].h = fnv1a(h, vs->name, strlen(vs->name));
                }
                hs[i].i = (long)i;
            }
            qsort(hs, n, sizeof hs[0], cmp_hash);
            for (size_t k = 0; k < n; k++)
                sp->order[k] = hs[k].i;
            sp->key = key;
            sp->valid = true;
        }
        for (size_t k = 0; k < n; k++)
            if (elig[sp->order[k]]) {
                if (pick < 0) {
                    pick = sp->order[k];
                    REASON("hash-rank=%zu", k);
                }
                rank[(*n_rank)++] = sp->order[k];
            }
        return pick;
    }
    case WSEL_GSLB_TOPOLOGY: {
        scored sc[NMAX];
        size_t n_sc = 0;
        for (size_t i = 0; i < n; i++) {
            if (!elig[i])
                continue;
            unsigned score = member_topo(q, p, &pl->members[i]);
            if (score > 0)
                sc[n_sc++] = (scored){(double)score, (long)i};
            else
                EMIT(q, WSEL_GSLB_LOG_MEMBER_TRAVERSAL,
                                "pool-member-traversal pool=%s step=%s method=topology member=%s result=skipped reason=score-0",
                                pl->name, wsel_gslb_step_name((wsel_gslb_step)s), pl->members[i].key);
        }
        bool tie = false;
        pick = best_pick(&st->rr, sc, n_sc, n, rank, n_rank, &tie);
        if (pick < 0)
            REASON("no-member-scores-above-0"); /* */
        else
            REASON("score=%u%s", member_topo(q, p, &pl->members[pick]), tie ? " tie->rr" : "");
        return pick;
    }
    default:
        break;
    }
    /* dynamic methods: candidates lacking the metric are dropped (logged) */
    scored sc[NMAX];
    size_t n_sc = 0;
    if (m == WSEL_GSLB_QOS) {
        /* over candidates having every factor with coef > 0 */
        double val[NMAX][WSEL_GSLB_QOS_COUNT_];
        long idx[NMAX];
        size_t k = 0;
        for (size_t i = 0; i < n; i++) {
            if (!elig[i])
                continue;
            const wsel__gslb_vsin *vi = &q->in->vs[pl->members[i].vs];
            const char *missing = NULL;
            for (int f = 0; f < WSEL_GSLB_QOS_COUNT_; f++) {
                if (!pl->qos[f])
                    continue;
                if (qos_factor[f].metric < 0)
                    val[k][f] = member_topo(q, p, &pl->members[i]);
                else if (vi->have & (1u << qos_factor[f].metric))
                    val[k][f] = vi->metric[qos_factor[f].metric];
                else if (!missing)
                    missing = qos_factor[f].metric == WSEL_GSLB_M_RTT ? "rtt_us"
                              : qos_factor[f].metric == WSEL_GSLB_M_LINK_CAPACITY ? "link_capacity"
                              : qos_factor[f].metric == WSEL_GSLB_M_COMPLETION ? "completion_rate"
                              : qos_factor[f].metric == WSEL_GSLB_M_KBPS ? "kbps"
                              : qos_factor[f].metric == WSEL_GSLB_M_PPS ? "pps"
                              : qos_factor[f].metric == WSEL_GSLB_M_HOPS ? "hops"
                              : qos_factor[f].metric == WSEL_GSLB_M_VS_CAPACITY ? "vs_capacity"
                                                                               : "vs_score";
            }
            if (missing) {
                EMIT(q, WSEL_GSLB_LOG_MEMBER_TRAVERSAL,
                                "pool-member-traversal pool=%s step=%s method=%s member=%s result=skipped reason=no-metric:%s",
                                pl->name, wsel_gslb_step_name((wsel_gslb_step)s), mi->token,
                                pl->members[i].key, missing);
                continue;
            }
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
        for (size_t j = 0; j < k; j++) {
            double score = 0;
            for (int f = 0; f < WSEL_GSLB_QOS_COUNT_; f++) {
                if (!pl->qos[f])
                    continue;
                double v = val[j][f], norm;
                if (qos_factor[f].higher)
                    norm = hi[f] > 0 ? 10.0 * v / hi[f] : 0;
                else
                    norm = v == 0 ? 10.0 : 10.0 * lo[f] / v;
                score += (double)pl->qos[f] * norm;
            }
            sc[n_sc++] = (scored){score, idx[j]};
        }
    } else {
        int metric = mi->metric;
        for (size_t i = 0; i < n; i++) {
            if (!elig[i])
                continue;
            const wsel__gslb_vsin *vi = &q->in->vs[pl->members[i].vs];
            if (!(vi->have & (1u << metric))) {
                EMIT(q, WSEL_GSLB_LOG_MEMBER_TRAVERSAL,
                                "pool-member-traversal pool=%s step=%s method=%s member=%s result=skipped reason=no-metric:%s",
                                pl->name, wsel_gslb_step_name((wsel_gslb_step)s), mi->token,
                                pl->members[i].key, metric_key[metric]);
                continue;
            }
            double v = vi->metric[metric];
            sc[n_sc++] = (scored){mi->higher_better ? v : -v, (long)i};
        }
    }
    if (!n_sc) {
        REASON("no-metric"); /* seed: missing metrics => the method fails */
        return -1;
    }
    if (pl->dynamic_ratio && mi->dynamic_ratio) {
        /* metric -> weight, smooth WRR keyed (pool, step) */
        uint64_t w[NMAX] = {0};
        bool inE[NMAX] = {0};
        bool higher = m == WSEL_GSLB_QOS || mi->higher_better;
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
            inE[sc[k].i] = x > 0;
        }
        pick = wrr_pick(&st->wrr, w, n, q->st->epoch);
        if (pick < 0) {
            REASON("no-positive-weight");
            return -1;
        }
        rank_cyclic(pick, inE, n, rank, n_rank);
        REASON("dynamic-ratio w=%llu", (unsigned long long)w[pick]);
        return pick;
    }
    bool tie = false;
    pick = best_pick(&st->rr, sc, n_sc, n, rank, n_rank, &tie);
    for (size_t k = 0; k < n_sc; k++)
        if (sc[k].i == pick) {
            double v = sc[k].v;
            if (m == WSEL_GSLB_QOS)
                REASON("best qos=%.6g%s", v, tie ? " tie->rr" : "");
            else
                REASON("best %s=%.6g%s", metric_key[mi->metric], mi->higher_better ? v : -v,
                       tie ? " tie->rr" : "");
        }
    return pick;
}

/* ---- the wide-IP level (doc/gslb.md §4.2 step 3; A-23) ---- */

int wsel__gslb_wideip_order(Q *q, const uint8_t *avail, const bool *ok, size_t n_avail,
                            size_t *queue, size_t *n_queue, bool *more, char *reason, size_t rlen)
{
    const wsel_gslb_wideip *w = &q->cfg->wideips[q->wideip];
    wsel__gslb_stepst *st = &q->st->wideip_st[q->wideip];
    size_t n = w->n_pools;
    *n_queue = 0;
    *more = false;
    long first = -1;
    if (n == 1) { /* pool-lb-mode is never consulted with one pool (seed; G007) */
        queue[(*n_queue)++] = avail[0];
        REASON("single-pool");
        return 0;
    }
    switch (w->lb_mode) {
    case WSEL_GSLB_GLOBAL_AVAILABILITY:
        first = (long)avail[0];
        REASON("first-available");
        break;
    case WSEL_GSLB_ROUND_ROBIN:
        first = rr_pick(&st->rr, ok, n);
        REASON("rr-next");
        break;
    case WSEL_GSLB_RATIO: {
        if (wrr_current(&st->wrr, q->st->epoch)) {
            first = wrr_repeat(&st->wrr, n);
        } else {
            uint64_t wt[WSEL_GSLB_MAX_POOLS];
            for (size_t i = 0; i < n; i++)
                wt[i] = ok[i] ? w->pools[i].ratio : 0;
            first = wrr_pick(&st->wrr, wt, n, q->st->epoch);
        }
        if (first < 0) {
            REASON("no-pool-with-ratio");
            return 0;
        }
        REASON("ratio cur=%lld", (long long)st->wrr.cur[first]);
        break;
    }
    case WSEL_GSLB_RANDOM: {
        wsel_gslb_state *s = q->st;
        if (s->random_pos >= s->n_random) {
            wsel__fail(q->err, WSEL_E_ARG, NULL, 0, 0, w->name, NULL, "random",
                       "gtm wideip a %s: pool-lb-mode random needs a random input word and none is left (A-15)",
                       w->name);
            return 1;
        }
        uint64_t r = s->random[s->random_pos++];
        first = (long)avail[r % n_avail];
        REASON("random word=%llu", (unsigned long long)r);
        break;
    }
    case WSEL_GSLB_TOPOLOGY: {
        scored sc[WSEL_GSLB_MAX_POOLS];
        size_t n_sc = 0;
        for (size_t k = 0; k < n_avail; k++) {
            subj sj = {.addr = NULL, .pool = w->pools[avail[k]].pool, .datacenter = NULL,
                       .pool_level = true};
            unsigned score = topo_score(q, &sj);
            if (score > 0)
                sc[n_sc++] = (scored){(double)score, (long)avail[k]};
        }
        if (!n_sc) {
            REASON("no-pool-scores-above-0"); /* */
            return 0;
        }
        long rank[WSEL_GSLB_MAX_POOLS];
        size_t n_rank;
        first = best_pick(&st->rr, sc, n_sc, n, rank, &n_rank, NULL);
        REASON("topology score=%.0f", sc[0].v);
        for (size_t k = 0; k < n_rank; k++)
            queue[(*n_queue)++] = (size_t)rank[k];
        return 0;
    }
    default:
        first = (long)avail[0];
        break;
    }
    if (first < 0)
        return 0;
    queue[(*n_queue)++] = (size_t)first;
    *more = true; /* most queries stop at the first pool: the rest when it is needed */
    return 0;
}

void wsel__gslb_wideip_rest(Q *q, const uint8_t *avail, const bool *ok, size_t n_avail,
                            size_t *queue, size_t *n_queue)
{
    const wsel_gslb_wideip *w = &q->cfg->wideips[q->wideip];
    size_t n = w->n_pools, first = queue[0];
    if (w->lb_mode == WSEL_GSLB_GLOBAL_AVAILABILITY) {
        for (size_t k = 1; k < n_avail; k++)
            queue[(*n_queue)++] = avail[k];
    } else {
        for (size_t k = 1, i = first; k < n; k++) {
            i = i + 1 == n ? 0 : i + 1;
            if (ok[i])
                queue[(*n_queue)++] = i;
        }
    }
}
