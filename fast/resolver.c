/* Resolvers: an engine bound to a config and a state (resolve.h).
 *
 * FAST variants keep one immutable snapshot per set behind an atomic pointer. The writer
 * (wsel_resolver_sync) builds a new snapshot for every set whose state version changed
 * and publishes it with a release store; readers take it with an acquire load, so they
 * see either the old or the new snapshot, complete. Readers take no lock, allocate
 * nothing and write nothing shared.
 *
 * Reclamation: a replaced snapshot is kept on a retired list until wsel_resolver_free().
 * Readers announce nothing, so the writer can never prove that no reader still holds an
 * old pointer; any scheme that could (reader counters, epochs) would add shared writes
 * to every query. State changes are rare (spec 5), a snapshot is about 2 KiB, and the
 * list only grows on an actual change of a set's state, so the cost is bounded by the
 * number of changes over the resolver's life. A long-lived server that flaps a lot can
 * recreate its resolver at a quiet point. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "fast.h"
#include "../core/prng_internal.h"

struct wsel_resolver {
    const wsel_config *cfg;
    const wsel_state *st;
    wsel_engine_id engine;      /* concrete: REF or a FAST_* variant */
    wsel__kernel_fn kern;       /* NULL for REF */
    size_t n_sets;
    _Atomic(wsel__snap *) *snaps;
    wsel__snap **retired;
    size_t n_retired, cap_retired;
};

static int retire(wsel_resolver *r, wsel__snap *s)
{
    if (r->n_retired == r->cap_retired) {
        size_t cap = r->cap_retired ? 2 * r->cap_retired : 16;
        wsel__snap **p = realloc(r->retired, cap * sizeof *p);
        if (!p)
            return WSEL_E_NOMEM;
        r->retired = p;
        r->cap_retired = cap;
    }
    r->retired[r->n_retired++] = s;
    return WSEL_OK;
}

void wsel_resolver_free(wsel_resolver *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->n_sets; i++)
        wsel__snap_free(atomic_load_explicit(&r->snaps[i], memory_order_relaxed));
    for (size_t i = 0; i < r->n_retired; i++)
        wsel__snap_free(r->retired[i]);
    free(r->retired);
    free(r->snaps);
    free(r);
}

int wsel_resolver_new(const wsel_config *cfg, const wsel_state *st, wsel_engine_id engine,
                      wsel_resolver **out, wsel_error *err)
{
    if (out)
        *out = NULL;
    if (!cfg || !st || !out)
        return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, NULL, NULL, NULL,
                          "wsel_resolver_new: expected a config, a state and an output pointer");
    if (wsel_state_config(st) != cfg)
        return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, NULL, NULL, NULL,
                          "wsel_resolver_new: the state was created for a different config");
    if ((unsigned)engine >= WSEL_ENGINE_COUNT_)
        return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, NULL, NULL, NULL,
                          "wsel_resolver_new: unknown engine id %d", (int)engine);
    wsel_engine_id id = wsel__fast_resolve_id(engine);
    if (!wsel_engine_available(id))
        return wsel__fail(err, WSEL_E_UNSUPPORTED, NULL, 0, 0, NULL, NULL, NULL,
                          "engine %s is not available in this build or on this CPU",
                          wsel_engine_name(id));

    wsel_resolver *r = calloc(1, sizeof *r);
    if (!r)
        return wsel__fail(err, WSEL_E_NOMEM, NULL, 0, 0, NULL, NULL, NULL, "out of memory");
    r->cfg = cfg;
    r->st = st;
    r->engine = id;
    if (id != WSEL_ENGINE_REF) {
        r->kern = wsel__fast_kernel(id);
        r->n_sets = wsel_config_set_count(cfg);
        r->snaps = calloc(r->n_sets ? r->n_sets : 1, sizeof *r->snaps);
        if (!r->snaps)
            goto nomem;
        for (size_t i = 0; i < r->n_sets; i++) {
            wsel__snap *s = wsel__snap_build(wsel_config_set(cfg, i), st);
            if (!s)
                goto nomem;
            atomic_init(&r->snaps[i], s);
        }
    }
    *out = r;
    return WSEL_OK;

nomem:
    wsel_resolver_free(r);
    return wsel__fail(err, WSEL_E_NOMEM, NULL, 0, 0, NULL, NULL, NULL,
                      "out of memory while preparing the fast engine");
}

int wsel_resolver_sync(wsel_resolver *r)
{
    if (!r)
        return WSEL_E_ARG;
    int rc = WSEL_OK;
    for (size_t i = 0; i < r->n_sets; i++) {
        const wsel_set *set = wsel_config_set(r->cfg, i);
        /* Only this thread stores these pointers, so a relaxed load sees its own. */
        wsel__snap *old = atomic_load_explicit(&r->snaps[i], memory_order_relaxed);
        if (old->version == wsel_state_set_version(r->st, set))
            continue;
        wsel__snap *s = wsel__snap_build(set, r->st);
        /* Out of memory keeps the old, still consistent snapshot; its stale version
         * makes the next sync try again. */
        if (!s || retire(r, old) != WSEL_OK) {
            wsel__snap_free(s);
            rc = WSEL_E_NOMEM;
            continue;
        }
        atomic_store_explicit(&r->snaps[i], s, memory_order_release);
    }
    return rc;
}

wsel_engine_id wsel_resolver_engine(const wsel_resolver *r)
{
    return r ? r->engine : WSEL_ENGINE_REF;
}

static inline const wsel__snap *snap_of(const wsel_resolver *r, const wsel_set *set)
{
    if (set->id >= r->n_sets)
        return NULL;
    const wsel__snap *s = atomic_load_explicit(&r->snaps[set->id], memory_order_acquire);
    /* A resource of another config (or a copied set struct) is refused, not misread. */
    return s->set == set ? s : NULL;
}

static inline void answer_set(const wsel__snap *s, wsel__kernel_fn kern, const uint64_t *w,
                              wsel_set_answer *out)
{
    out->ttl = s->ttl;
    out->failed = s->failed;
    kern(s, w, out);
}

int wsel_resolve(const wsel_resolver *r, const wsel_resource *res, wsel_rng *rng,
                 wsel_answer *ans)
{
    if (!r || !res || !rng || !ans || !res->sets || res->n_sets - 1u > 1u)
        return WSEL_E_ARG;
    if (!r->kern)
        return wsel_ref_resolve(res, r->st, rng, ans);

    const wsel__snap *s0 = snap_of(r, &res->sets[0]);
    const wsel__snap *s1 = res->n_sets == 2 ? snap_of(r, &res->sets[1]) : NULL;
    if (!s0 || (res->n_sets == 2 && !s1))
        return WSEL_E_ARG;

    /* Kernels load whole vectors, up to 8 words past a set's last one: zeroed slack. */
    uint64_t w[WSEL_WORDS_MAX + WSEL__PAD64];
    size_t n = s0->words + (s1 ? s1->words : 0);
    if (wsel__rng_is_prng(rng))
        wsel_prng_fill((wsel_prng *)rng->ctx, w, n);
    else
        rng->fill(rng->ctx, w, n);
    memset(w + n, 0, WSEL__PAD64 * sizeof w[0]);

    answer_set(s0, r->kern, w, &ans->set[0]);
    ans->n_sets = 1;
    ans->ttl = s0->ttl;
    ans->failed = s0->failed;
    if (s1) {
        answer_set(s1, r->kern, w + s0->words, &ans->set[1]);
        ans->n_sets = 2;
        if (s1->ttl < ans->ttl)
            ans->ttl = s1->ttl;
        ans->failed |= s1->failed;
    }
    return WSEL_OK;
}
