/* The fast engine's side of a resolver (its engine ops, core/weighted/weighted_variant.h).
 *
 * Per resource, one immutable snapshot of all its sets behind an atomic pointer. The
 * writer (wsel_resolver_sync) rebuilds the snapshot of every resource one of whose sets
 * changed state version, and publishes it with a release store; readers take it with one
 * acquire load, so a query sees one sync's view of the whole resource (both families),
 * never a mix. Readers take no lock, allocate nothing and write nothing shared.
 *
 * Reclamation: a replaced snapshot is kept on a retired list until wsel_resolver_free().
 * Readers announce nothing, so the writer can never prove that no reader still holds an
 * old pointer; any scheme that could (reader counters, epochs) would add shared writes
 * to every query. State changes are rare (doc/weighted.md §7), a snapshot is 2.5 KiB a set, and the
 * list grows only when a resource's state actually changed, so memory is bounded by the
 * number of changes between quiet points: wsel_resolver_reclaim() frees them when the
 * caller knows no query is running (a server's own quiescent point). */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "weighted_fast.h"

static void rsnap_free(wsel__rsnap *rs)
{
    if (!rs)
        return;
    for (uint32_t i = 0; i < rs->n_sets; i++)
        wsel__snap_fini(&rs->set[i]);
    free(rs);
}

/* The answer head every query on rs copies (weighted_fast.h), and whether the short
 * path answers it. */
static void head_fill(wsel__rsnap *rs)
{
    wsel_answer a;
    memset(&a, 0, sizeof a);
    a.n_sets = rs->n_sets;
    a.ttl = a.set[0].ttl = rs->set[0].ttl;
    a.failed = a.set[0].failed = rs->set[0].failed;
    a.set[0].count = 1;
    if (rs->n_sets == 2) {
        if (rs->set[1].ttl < a.ttl)
            a.ttl = rs->set[1].ttl;
        a.failed |= rs->set[1].failed;
    }
    memcpy(rs->head, &a, sizeof rs->head);
    uint32_t mode = rs->set[0].mode;
    rs->choose1 = rs->n_sets == 1 &&
                  (mode == WSEL_MODE_CNAME || mode == WSEL_MODE_UNGROUPED_SINGLE);
}

static wsel__rsnap *rsnap_build(const wsel_resource *res, const wsel_state *st)
{
    if (res->n_sets < 1 || res->n_sets > 2)
        return NULL;
    size_t size = sizeof(wsel__rsnap) + res->n_sets * sizeof(wsel__snap);
    wsel__rsnap *rs = aligned_alloc(64, (size + 63) / 64 * 64);
    if (!rs)
        return NULL;
    rs->res = res;
    rs->n_sets = 0;
    rs->words = 0;
    for (uint32_t i = 0; i < res->n_sets; i++) {
        if (!wsel__snap_fill(&rs->set[i], &res->sets[i], st)) {
            rsnap_free(rs);
            return NULL;
        }
        rs->n_sets++;
        rs->words += rs->set[i].words;
    }
    head_fill(rs);
    return rs;
}

static void take_free(void *ctx, void *rs)
{
    (void)ctx;
    rsnap_free(rs);
}

/* The loader guarantees the model's rules; a hand-made model is checked (by the one
 * validator, wsel__set_problem) rather than allowed to overrun the snapshot's tables. */
static int check(const wsel_config *cfg, wsel_error *err)
{
    for (size_t i = 0; i < wsel_config_resource_count(cfg); i++) {
        const wsel_resource *res = wsel_config_resource(cfg, i);
        if (!res || res->index != i || res->n_sets < 1 || res->n_sets > 2)
            return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, res ? res->name : NULL, NULL,
                              NULL, "resource must have 1 or 2 sets");
        for (uint32_t k = 0; k < res->n_sets; k++) {
            const char *why = wsel__set_problem(&res->sets[k]);
            if (why)
                return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, res->name,
                                  res->sets[k].stanza, NULL, "invalid set: %s", why);
        }
    }
    return WSEL_OK;
}

/* A resolver for one resource (wsel_resolver_new_for) holds slots up to its index and
 * a snapshot in its slot only; the others stay NULL, which queries refuse. */
static int attach(wsel_resolver *r)
{
    r->n_res = r->only ? (size_t)r->only->index + 1 : wsel_config_resource_count(r->cfg);
    r->snaps = calloc(r->n_res ? r->n_res : 1, sizeof *r->snaps);
    if (!r->snaps)
        return WSEL_E_NOMEM;
    for (size_t i = r->only ? r->only->index : 0; i < r->n_res; i++) {
        wsel__rsnap *rs = rsnap_build(wsel_config_resource(r->cfg, i), r->st);
        if (!rs) {
            r->n_res = i; /* detach frees the ones built */
            return WSEL_E_NOMEM;
        }
        atomic_init(&r->snaps[i], rs);
    }
    return WSEL_OK;
}

static void detach(wsel_resolver *r)
{
    if (r->snaps)
        for (size_t i = 0; i < r->n_res; i++)
            rsnap_free(atomic_load_explicit(&r->snaps[i], memory_order_relaxed));
    wsel__retired_free(&r->retired, take_free, NULL);
    free(r->snaps);
}

static int sync(wsel_resolver *r)
{
    int rc = WSEL_OK;
    for (size_t i = 0; i < r->n_res; i++) {
        /* Only this thread stores these pointers, so a relaxed load sees its own. */
        wsel__rsnap *old = atomic_load_explicit(&r->snaps[i], memory_order_relaxed);
        if (!old)
            continue; /* not this resolver's resource (wsel_resolver_new_for) */
        bool changed = false;
        for (uint32_t k = 0; k < old->n_sets; k++)
            if (old->set[k].version != wsel_state_set_version(r->st, old->set[k].set))
                changed = true;
        if (!changed)
            continue;
        wsel__rsnap *rs = rsnap_build(old->res, r->st);
        /* Out of memory keeps the old, still consistent snapshot; its stale version
         * makes the next sync try again. */
        if (!rs || !wsel__retire_reserve(&r->retired, 1)) {
            rsnap_free(rs);
            rc = WSEL_E_NOMEM;
            continue;
        }
        atomic_store_explicit(&r->snaps[i], rs, memory_order_release);
        wsel__retire(&r->retired, old);
    }
    return rc;
}

static size_t reclaim(wsel_resolver *r)
{
    return wsel__reclaim(&r->retired, take_free, NULL);
}

const wsel__engine_ops wsel__fast_ops = { check, attach, sync, reclaim, detach };
