/* The resolver every engine shares (resolve.h): a variant bound to a config and a
 * state. Engine-specific data lives behind the variant's engine ops; the fast engine's
 * snapshot table is kept in the struct itself because its kernels read it inline on
 * every query. Not installed. */
#ifndef WSEL_CORE_RESOLVER_H
#define WSEL_CORE_RESOLVER_H

#include <stdatomic.h>

#include "weighted_internal.h"
#include "../retire.h"
#include "weighted_variant.h"

typedef struct wsel__rsnap wsel__rsnap;

struct wsel_resolver {
    wsel__query_fn query;           /* variant->query, or the one-resource check before it */
    size_t n_res;
    _Atomic(wsel__rsnap *) *snaps;  /* fast engine: published snapshots by resource index */
    const wsel_config *cfg;
    const wsel_state *st;
    const wsel__variant *variant;   /* concrete: ref or a fast variant */
    const wsel_resource *only;      /* wsel_resolver_new_for(): the one resource; else NULL */
    wsel__retired retired;          /* fast engine: replaced snapshots (core/retire.h) */
};

/* The reference engine's query path (ref/weighted/weighted_ref.c): reads r->st directly. */
int wsel__ref_query(const wsel_resolver *r, const wsel_resource *res, wsel_rng *rng,
                    wsel_answer *ans);

#endif
