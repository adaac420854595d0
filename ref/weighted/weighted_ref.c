/* The reference engine: doc/weighted.md §5 and the word contract of doc/random-words.md, written
 * to be read side by side with them. Speed is not a goal here; the fast engines are
 * judged against this file. */
#include <string.h>

#include "../../core/weighted/weighted_resolver.h"

__extension__ typedef unsigned __int128 u128;

/* CHOOSE: u = floor(word * D / 2^64); the smallest i with u < d_0 + ... + d_i.
 * Requires D = sum(d) > 0. */
static uint32_t choose(uint64_t word, const uint32_t *d, uint32_t k)
{
    uint64_t total = 0;
    for (uint32_t i = 0; i < k; i++)
        total += d[i];
    uint64_t u = (uint64_t)(((u128)word * total) >> 64);
    uint64_t running = 0;
    for (uint32_t i = 0; i < k; i++) {
        running += d[i];
        if (u < running)
            return i;
    }
    return k - 1; /* unreachable: u < total */
}

/* INCLUDE: include iff floor(word * M / 2^64) < d, i.e. word * M < d * 2^64. */
static bool include(uint64_t word, uint64_t d, uint64_t max)
{
    return (u128)word * max < (u128)d << 64;
}

static uint32_t max_of(const uint32_t *d, uint32_t k)
{
    uint32_t m = 0;
    for (uint32_t i = 0; i < k; i++)
        if (d[i] > m)
            m = d[i];
    return m;
}

static int resolve_set(const wsel_set *set, const wsel_state *st, wsel_rng *rng,
                       wsel_set_answer *out)
{
    uint32_t d[WSEL_MAX_ITEMS * WSEL_MAX_ITEMS];
    uint64_t w[2 * WSEL_MAX_ITEMS + 1];
    uint32_t n = set->n_items;
    size_t nw = wsel_set_words(set);
    if (wsel__set_problem(set) || nw > sizeof w / sizeof w[0])
        return WSEL_E_ARG;

    /* Dynamic weights, and the TTL over every item, chosen or not. */
    uint64_t dyn_sum = 0;
    uint32_t ttl = WSEL_MAX_TTL;
    for (uint32_t i = 0; i < n; i++) {
        wsel_mstate ms = wsel_state_item(st, set, &set->items[i]);
        d[i] = ms.up ? set->items[i].weight : 0;
        dyn_sum += d[i];
        if (ms.ttl < ttl)
            ttl = ms.ttl;
    }

    /* Below the threshold (strictly): answer as if all were UP, and say so. */
    bool failed = dyn_sum < set->threshold;
    if (failed)
        for (uint32_t i = 0; i < n; i++)
            d[i] = set->items[i].weight;

    rng->fill(rng->ctx, w, nw);

    out->ttl = ttl;
    out->failed = failed;
    out->count = 0;

    switch (set->mode) {
    case WSEL_MODE_CNAME:
    case WSEL_MODE_UNGROUPED_SINGLE:
        out->items[out->count++] = (uint16_t)choose(w[0], d, n);
        break;

    case WSEL_MODE_UNGROUPED_MULTI: {
        uint32_t m = max_of(d, n);
        for (uint32_t i = 0; i < n; i++)
            if (include(w[i], d[i], m))
                out->items[out->count++] = (uint16_t)i;
        break;
    }

    case WSEL_MODE_GROUPED_SINGLE: {
        uint32_t gw[WSEL_MAX_ITEMS];
        for (uint32_t g = 0; g < set->n_groups; g++) {
            const wsel_group *grp = &set->groups[g];
            gw[g] = 0;
            for (uint32_t j = 0; j < grp->count; j++)
                gw[g] += d[grp->first + j];
        }
        const wsel_group *grp = &set->groups[choose(w[0], gw, set->n_groups)];
        const uint32_t *gd = &d[grp->first];
        uint32_t m = max_of(gd, grp->count);
        for (uint32_t j = 0; j < grp->count; j++)
            if (include(w[1 + j], gd[j], m))
                out->items[out->count++] = (uint16_t)(grp->first + j);
        break;
    }

    case WSEL_MODE_GROUPED_MULTI: {
        uint32_t gw[WSEL_MAX_ITEMS];
        uint32_t G = set->n_groups;
        for (uint32_t g = 0; g < G; g++) {
            const wsel_group *grp = &set->groups[g];
            gw[g] = 0;
            for (uint32_t j = 0; j < grp->count; j++)
                gw[g] += d[grp->first + j];
        }
        uint32_t m = max_of(gw, G);
        for (uint32_t g = 0; g < G; g++) {
            if (!include(w[g], gw[g], m))
                continue;
            const wsel_group *grp = &set->groups[g];
            uint32_t j = choose(w[G + g], &d[grp->first], grp->count);
            out->items[out->count++] = (uint16_t)(grp->first + j);
        }
        break;
    }
    }
    return WSEL_OK;
}

int wsel_ref_resolve(const wsel_resource *res, const wsel_state *st, wsel_rng *rng,
                     wsel_answer *ans)
{
    if (!res || !rng || !rng->fill || !ans || res->n_sets < 1 || res->n_sets > 2)
        return WSEL_E_ARG;
    memset(ans, 0, sizeof *ans);
    ans->n_sets = res->n_sets;
    ans->ttl = WSEL_MAX_TTL;
    for (uint32_t s = 0; s < res->n_sets; s++) {
        int rc = resolve_set(&res->sets[s], st, rng, &ans->set[s]);
        if (rc)
            return rc;
        if (ans->set[s].ttl < ans->ttl)
            ans->ttl = ans->set[s].ttl;
        ans->failed = ans->failed || ans->set[s].failed;
    }
    return WSEL_OK;
}

int wsel__ref_query(const wsel_resolver *r, const wsel_resource *res, wsel_rng *rng,
                    wsel_answer *ans)
{
    return wsel_ref_resolve(res, r->st, rng, ans);
}
