/* GSLB engine: the static member-level methods (doc/gslb.md §2), the engine's method
 * table, and what every method shares: round robin, smooth weighted round robin
 * rankings. */
#include <stdlib.h>
#include <string.h>

#include "gslb_engine.h"

#define NMAX WSEL__GSLB_NMAX

/* ---- round robin and smooth weighted round robin (A-32) ---- */

/* A successful pick records the state's epoch: while it is current, E and the weights
 * (functions of config and inputs) are the same and wsel__gslb_wrr_repeat may be used
 * instead. */
long wsel__gslb_wrr_pick(wsel__gslb_wrr *st, const uint64_t *w, size_t n, uint64_t epoch)
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

/* ---- rankings ---- */

/* Value descending, ties by list index. */
static int cmp_scored(const void *a, const void *b)
{
    const wsel__gslb_scored *x = a, *y = b;
    if (x->v != y->v)
        return x->v > y->v ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

long wsel__gslb_best_pick(long *cursor, wsel__gslb_scored *sc, size_t n_sc, size_t n,
                          long *rank, size_t *n_rank, bool *tie)
{
    if (!n_sc)
        return -1;
    if (n_sc > 16) {
        qsort(sc, n_sc, sizeof *sc, cmp_scored);
    } else { /* a few: insertion sort (the order is total, so any sort gives the same) */
        for (size_t k = 1; k < n_sc; k++)
            for (size_t m = k; m > 0 && cmp_scored(&sc[m], &sc[m - 1]) < 0; m--) {
                wsel__gslb_scored t = sc[m];
                sc[m] = sc[m - 1];
                sc[m - 1] = t;
            }
    }
    size_t n_tied = 1;
    while (n_tied < n_sc && sc[n_tied].v == sc[0].v)
        n_tied++;
    long pick = sc[0].i;
    if (n_tied > 1) { /* the best value tied: round robin among those */
        bool tied[NMAX];
        memset(tied, 0, n);
        for (size_t k = 0; k < n_tied; k++)
            tied[sc[k].i] = true;
        pick = wsel__gslb_rr_pick(cursor, tied, n);
    }
    if (tie)
        *tie = n_tied > 1;
    *n_rank = 0;
    rank[(*n_rank)++] = pick;
    for (size_t k = 0; k < n_sc; k++)
        if (sc[k].i != pick)
            rank[(*n_rank)++] = sc[k].i;
    return pick;
}

long wsel__gslb_pick_weighted(wsel__gslb_query *q, wsel__gslb_pick *pk, const uint64_t *w,
                              const bool *in_set, wsel__gslb_why *why, wsel_gslb_reason fail)
{
    size_t n = q->cfg->pools[pk->pool].n_members;
    long pick = wsel__gslb_wrr_pick(&wsel__gslb_pick_state(q, pk)->wrr, w, n, q->st->epoch);
    if (pick < 0) {
        if (why)
            why->reason = fail;
        return -1;
    }
    wsel__gslb_rank_cyclic(pick, in_set, n, pk->rank, &pk->n_rank);
    return pick;
}

long wsel__gslb_pick_repeat(wsel__gslb_query *q, wsel__gslb_pick *pk)
{
    wsel__gslb_wrr *wrr = &wsel__gslb_pick_state(q, pk)->wrr;
    size_t n = q->cfg->pools[pk->pool].n_members;
    long pick = wsel__gslb_wrr_repeat(wrr, n);
    for (size_t k = 0, i = (size_t)pick; k < n; k++, i = i + 1 == n ? 0 : i + 1)
        if (wrr->w[i])
            pk->rank[pk->n_rank++] = (long)i;
    return pick;
}

/* ---- round robin, ratio, global availability ---- */

static long pick_rr(wsel__gslb_query *q, wsel__gslb_pick *pk, wsel__gslb_why *why)
{
    size_t n = q->cfg->pools[pk->pool].n_members;
    long pick = wsel__gslb_rr_pick(&wsel__gslb_pick_state(q, pk)->rr, pk->elig, n);
    if (pick >= 0) {
        wsel__gslb_rank_cyclic(pick, pk->elig, n, pk->rank, &pk->n_rank);
        if (why)
            why->reason = WSEL_GSLB_WHY_RR_NEXT;
    }
    return pick;
}

static long pick_ratio(wsel__gslb_query *q, wsel__gslb_pick *pk, wsel__gslb_why *why)
{
    const wsel_gslb_pool *pl = &q->cfg->pools[pk->pool];
    wsel__gslb_stepst *st = wsel__gslb_pick_state(q, pk);
    size_t n = pl->n_members;
    if (!n) /* (never: a pool without members has no step to run) */
        return -1;
    if (!why && wsel__gslb_wrr_current(&st->wrr, q->st->epoch)) /* no ratio-0 lines to log */
        return wsel__gslb_pick_repeat(q, pk);
    uint64_t w[NMAX];
    bool in_set[NMAX];
    for (size_t i = 0; i < n; i++) {
        w[i] = pk->elig[i] ? pl->members[i].ratio : 0; /* ratio 0 never chosen */
        in_set[i] = w[i] > 0; /* ratio 0: logged with the candidates (gslb_chain.c) */
    }
    long pick = wsel__gslb_pick_weighted(q, pk, w, in_set, why,
                                         WSEL_GSLB_WHY_NO_ELIGIBLE_WITH_RATIO);
    if (pick >= 0 && why) {
        why->reason = WSEL_GSLB_WHY_RATIO;
        why->number = pl->members[pick].ratio;
        why->cur = st->wrr.cur[pick];
    }
    return pick;
}

static long pick_ga(wsel__gslb_query *q, wsel__gslb_pick *pk, wsel__gslb_why *why)
{
    size_t n = q->cfg->pools[pk->pool].n_members;
    long pick = -1;
    for (size_t i = 0; i < n && pick < 0; i++)
        if (pk->elig[i])
            pick = (long)i;
    if (pick < 0)
        return -1;
    for (size_t i = (size_t)pick; i < n; i++)
        if (pk->elig[i])
            pk->rank[pk->n_rank++] = (long)i;
    if (why)
        why->reason = WSEL_GSLB_WHY_FIRST_AVAILABLE;
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

typedef struct hashed {
    uint64_t h;
    long i;
} hashed;

static int cmp_hash(const void *a, const void *b)
{
    const hashed *x = a, *y = b;
    if (x->h != y->h)
        return x->h > y->h ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

/* Pool p's rendezvous order for the masked LDNS `key` into sp->order: FNV-1a over
 * [family][key][0][SERVER-PATH:VS-NAME], highest first, ties by list index. */
static void persist_order(const wsel__gslb_query *q, size_t p, const wsel_gslb_addr *key,
                          wsel__gslb_spcache *sp)
{
    const wsel_gslb_pool *pl = &q->cfg->pools[p];
    hashed hs[NMAX];
    uint8_t fam = key->family, zero = 0;
    uint64_t base = fnv1a(0xcbf29ce484222325ull, &fam, 1);
    base = fnv1a(base, key->bytes, fam == 4 ? 4 : 16);
    base = fnv1a(base, &zero, 1);
    for (size_t i = 0; i < pl->n_members; i++) {
        /* the member key with full paths: SERVER-PATH ":" VS-NAME (as the server declares
         * it); an unresolved member (never eligible) hashes as written */
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
    qsort(hs, pl->n_members, sizeof hs[0], cmp_hash);
    for (size_t k = 0; k < pl->n_members; k++)
        sp->order[k] = hs[k].i;
    sp->key = *key;
    sp->valid = true;
}

static long pick_static_persist(wsel__gslb_query *q, wsel__gslb_pick *pk, wsel__gslb_why *why)
{
    const wsel_gslb_addr *ldns = &q->in->ldns;
    if (!ldns->family) {
        if (why)
            why->reason = WSEL_GSLB_WHY_NO_LDNS;
        return -1;
    }
    wsel__gslb_spcache *sp = &q->st->sp[pk->pool];
    wsel_gslb_addr key = sp->key;
    if (!sp->valid || !wsel__gslb_addr_eq(&sp->ldns, ldns)) {
        unsigned prefix = ldns->family == 4 ? q->cfg->sp_cidr4 : q->cfg->sp_cidr6;
        key = wsel__gslb_mask(ldns, prefix);
        sp->ldns = *ldns;
    }
    if (!sp->valid || !wsel__gslb_addr_eq(&sp->key, &key))
        persist_order(q, pk->pool, &key, sp);
    long pick = -1;
    for (size_t k = 0; k < q->cfg->pools[pk->pool].n_members; k++)
        if (pk->elig[sp->order[k]]) {
            if (pick < 0) {
                pick = sp->order[k];
                if (why) {
                    why->reason = WSEL_GSLB_WHY_HASH_RANK;
                    why->number = k;
                }
            }
            pk->rank[pk->n_rank++] = sp->order[k];
        }
    return pick;
}

/* ---- the table ---- */

#define METRIC_FNS {wsel__gslb_pick_metric, NULL}

const wsel__gslb_pick_fns wsel__gslb_pick_table[WSEL_GSLB_METHOD_COUNT_] = {
    [WSEL_GSLB_ROUND_ROBIN] = {pick_rr, wsel__gslb_wideip_rr},
    [WSEL_GSLB_RATIO] = {pick_ratio, wsel__gslb_wideip_ratio},
    [WSEL_GSLB_GLOBAL_AVAILABILITY] = {pick_ga, wsel__gslb_wideip_ga},
    [WSEL_GSLB_TOPOLOGY] = {wsel__gslb_pick_topology, wsel__gslb_wideip_topology},
    [WSEL_GSLB_STATIC_PERSISTENCE] = {pick_static_persist, NULL},
    [WSEL_GSLB_RANDOM] = {NULL, wsel__gslb_wideip_random},
    [WSEL_GSLB_DROP_PACKET] = {NULL, NULL},
    [WSEL_GSLB_RETURN_TO_DNS] = {NULL, NULL},
    [WSEL_GSLB_FALLBACK_IP] = {NULL, NULL},
    [WSEL_GSLB_NONE] = {NULL, NULL},
    [WSEL_GSLB_PACKET_RATE] = METRIC_FNS,
    [WSEL_GSLB_VS_CAPACITY] = METRIC_FNS,
    [WSEL_GSLB_VS_SCORE] = METRIC_FNS,
    [WSEL_GSLB_CPU] = METRIC_FNS,
    [WSEL_GSLB_KBPS] = METRIC_FNS,
    [WSEL_GSLB_LEAST_CONNECTIONS] = METRIC_FNS,
    [WSEL_GSLB_RTT] = METRIC_FNS,
    [WSEL_GSLB_COMPLETION_RATE] = METRIC_FNS,
    [WSEL_GSLB_HOPS] = METRIC_FNS,
    [WSEL_GSLB_QOS] = {wsel__gslb_pick_qos, NULL},
};
