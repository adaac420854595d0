/* The weighted plugin's engine variants: "ref" and one fast engine per instruction-set
 * level (core/isa.h), each with its query path and the resolver ops of its engine
 * (core/weighted/weighted_variants.c). Not installed. */
#ifndef WSEL_CORE_WEIGHTED_VARIANT_H
#define WSEL_CORE_WEIGHTED_VARIANT_H

#include "wsel.h"
#include "../system.h"

/* A variant's whole query path: arguments are non-NULL. */
typedef int (*wsel__query_fn)(const wsel_resolver *r, const wsel_resource *res,
                              wsel_rng *rng, wsel_answer *ans);

/* What an engine does beside queries, for the resolver (weighted_resolver.c). Every op
 * may be NULL: the engine keeps nothing of its own (the reference engine). */
typedef struct wsel__engine_ops {
    /* Refuses a model the engine cannot hold (filling err), before anything is built. */
    int (*check)(const wsel_config *cfg, wsel_error *err);
    /* Builds the engine's data in r (cfg, st, variant set); WSEL_E_NOMEM on failure,
     * after which detach is called. */
    int (*attach)(wsel_resolver *r);
    int (*sync)(wsel_resolver *r);          /* wsel_resolver_sync() */
    size_t (*reclaim)(wsel_resolver *r);    /* wsel_resolver_reclaim() */
    void (*detach)(wsel_resolver *r);       /* frees what attach and sync built */
} wsel__engine_ops;

typedef struct wsel__variant {
    wsel__variant_info info;     /* name and instruction-set level: the system table's entry */
    wsel_engine_id engine;       /* the engine it belongs to */
    const wsel__engine_ops *ops; /* that engine's resolver ops (NULL: none) */
    wsel__query_fn query;        /* NULL: not compiled into this build */
} wsel__variant;

/* Variant i: "ref" first, then the fast ones from narrowest to widest; NULL past the end. */
const wsel__variant *wsel__variant_at(size_t i);
/* The variant called `name`, NULL if none is. */
const wsel__variant *wsel__variant_find(const char *name);
/* Compiled in and the CPU has what it needs. */
bool wsel__variant_runs(const wsel__variant *v);
/* The fast variant of the instruction-set level in use (wsel__isa_selected()). */
const wsel__variant *wsel__variant_fast(void);

#endif
