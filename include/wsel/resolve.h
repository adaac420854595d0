/* wsel: resolution -- which addresses or which CNAME to answer with (doc/weighted.md §5).
 *
 * Random-word contract (identical for every engine; changing it is an API change)
 * ===============================================================================
 * Summary; the full text, with exactness and the default generator, is doc/random-words.md.
 * A query on a resource consumes exactly wsel_resource_words(res) words from the
 * source, whatever the outcome: the words of its first set, then those of its second
 * (addrs_v4 before addrs_v6). Per set, in config order:
 *
 *   mode                 words    use
 *   cname, ungr.-single  1        w[0]: CHOOSE one item among all items
 *   ungrouped-multi      n        w[i]: INCLUDE item i (i = 0..n-1)
 *   grouped-single       1 + A    w[0]: CHOOSE one group; w[1+j]: INCLUDE address j of
 *                                  the chosen group (A = largest group size of the set;
 *                                  words past the chosen group's size are unused)
 *   grouped-multi        2G       w[g]: INCLUDE group g; w[G+g]: CHOOSE one address of
 *                                  group g (unused when group g is not included)
 *
 * Dynamic weight d = configured weight if the item is UP, else 0. If the sum of a set's
 * dynamic weights is below set->threshold (= ceil((double)T * up_thresh)), every d is
 * reset to its configured weight and the set's `failed` flag is raised.
 *
 *   CHOOSE among weights d_0..d_{k-1} with D = sum(d) > 0:
 *       u = floor(word * D / 2^64)              (128-bit product, high half)
 *       pick the smallest i with u < d_0 + ... + d_i
 *   INCLUDE an item of weight d in a layer whose largest weight is M > 0:
 *       include iff floor(word * M / 2^64) < d  (i.e. word * M < d * 2^64)
 *
 * Group weights are the sums of their addresses' dynamic weights. Both maps are exact
 * up to at most one word value per outcome: each odds figure is off by less than 2^-64.
 * An item with d = 0 is never picked, an item with d = M is always included
 * (doc/random-words.md §4). */
#ifndef WSEL_RESOLVE_H
#define WSEL_RESOLVE_H

#include "rng.h"
#include "state.h"

#ifdef __cplusplus
extern "C" {
#endif

#define WSEL_ANSWER_MAX 64u       /* most items one set can answer */
#define WSEL_WORDS_MAX  256u      /* most words one query can consume (2 sets x 128) */

/* The answer for one set. items[] holds flat item indices (wsel_set.items) in config order. */
typedef struct wsel_set_answer {
    uint32_t ttl;                 /* smallest combined TTL over every item of the set */
    bool failed;                  /* up_thresh reset happened */
    uint8_t count;                /* 1 .. 64 */
    uint16_t items[WSEL_ANSWER_MAX];
} wsel_set_answer;

/* A query's answer: one entry per set of the resource (v4 before v6). */
typedef struct wsel_answer {
    uint32_t n_sets;
    uint32_t ttl;                 /* smallest over the sets */
    bool failed;                  /* any set failed */
    wsel_set_answer set[2];
} wsel_answer;

/* Words one query on `res` consumes (the contract above). */
WSEL_API size_t wsel_set_words(const wsel_set *set);
WSEL_API size_t wsel_resource_words(const wsel_resource *res);

/* True when both answers are equal in every field that has meaning (count, items,
 * failed, ttl per set; n_sets; overall ttl and failed). */
WSEL_API bool wsel_answer_equal(const wsel_answer *a, const wsel_answer *b);

/* The reference engine: the executable specification. Reads `st` directly (NULL means
 * every item UP with WSEL_MAX_TTL); not for concurrent use with a writer. */
WSEL_API int wsel_ref_resolve(const wsel_resource *res, const wsel_state *st,
                              wsel_rng *rng, wsel_answer *ans);

/* Engines: the reference (the executable specification) and the fast engine. */
typedef enum wsel_engine_id {
    WSEL_ENGINE_REF = 0,
    WSEL_ENGINE_FAST
} wsel_engine_id;

/* "ref" or "fast" ("unknown" for any other value). */
WSEL_API const char *wsel_engine_name(wsel_engine_id id);

/* Variants: the concrete code paths of the engines, named "ref", "fast-scalar",
 * "fast-sse2", "fast-avx2" (more may come; loop with wsel_variant_count()). Every name
 * is listed whether or not this build and CPU can run it. The name "fast" stands for the
 * variant the fast engine resolves to (wsel_fast_selected()); it is not in the list.
 * A variant name chooses the kernel and the default generator's bulk fill together. */
WSEL_API size_t wsel_variant_count(void);
/* Name of variant i (0 .. wsel_variant_count()-1); NULL past the end. */
WSEL_API const char *wsel_variant_name(size_t i);
/* Whether this build and CPU can run the named variant ("fast": always). False for an
 * unknown name or NULL. */
WSEL_API bool wsel_variant_available(const char *name);
/* WSEL_OK when `name` ("fast" or a variant name) is one this build and CPU run;
 * WSEL_E_ARG for an unknown name or NULL, WSEL_E_UNSUPPORTED for a variant this CPU or
 * build cannot run: the answer wsel_resolver_new_variant() gives for the name. */
WSEL_API int wsel_variant_check(const char *name);
/* The fast variant "fast" resolves to: the widest available, unless overridden by
 * wsel_fast_force() or the environment variable WSEL_FAST_KERNEL=scalar|sse2|avx2
 * (read once, at the first call). The same choice decides whether the default
 * generator's wsel_prng_fill() uses SIMD. */
WSEL_API const char *wsel_fast_selected(void);
/* Forces the fast variant ("fast-scalar", ...) for resolvers created afterwards and for
 * the default generator's fill from now on; NULL or "fast" restores the automatic
 * choice. WSEL_E_ARG for an unknown name or "ref", WSEL_E_UNSUPPORTED if the variant
 * cannot run here. */
WSEL_API int wsel_fast_force(const char *name);

/* A resolver: an engine bound to a config and a state. Many threads may call
 * wsel_resolve() at once while one thread changes the wsel_state and then calls
 * wsel_resolver_sync() to publish the change; readers never see a half-applied change.
 * That holds for the fast engine, which resolve from immutable snapshots; a REF
 * resolver reads the live wsel_state and must not run while a writer changes it.
 * Each sync that changes a set retires its old snapshot (about 2.5 KiB); a long-running
 * writer should call wsel_resolver_reclaim() at its own quiet points (see below).
 * The config and state must outlive the resolver. */
typedef struct wsel_resolver wsel_resolver;

WSEL_API int wsel_resolver_new(const wsel_config *cfg, const wsel_state *st,
                               wsel_engine_id engine, wsel_resolver **out, wsel_error *err);
/* The same with the engine named: "ref", "fast", or a variant name ("fast-avx2" uses
 * that variant whatever wsel_fast_selected() says). WSEL_E_ARG for an unknown name,
 * WSEL_E_UNSUPPORTED when the variant cannot run here. */
WSEL_API int wsel_resolver_new_variant(const wsel_config *cfg, const wsel_state *st,
                                       const char *variant, wsel_resolver **out,
                                       wsel_error *err);
/* A resolver for one resource `res` of cfg only: the fast engine prepares that
 * resource's sets and no other (a config of a million resources costs one resource's
 * snapshot, not a million), and a sync looks at it alone. wsel_resolve() with any other
 * resource returns WSEL_E_ARG, whatever the engine. `variant` as for
 * wsel_resolver_new_variant(); WSEL_E_ARG also when res is not one of cfg's. */
WSEL_API int wsel_resolver_new_for(const wsel_config *cfg, const wsel_state *st,
                                   const char *variant, const wsel_resource *res,
                                   wsel_resolver **out, wsel_error *err);
/* Writer side: pick up state changes (recomputes only sets whose version changed). */
WSEL_API int wsel_resolver_sync(wsel_resolver *r);
/* Query path: allocates nothing and takes no lock (FAST variants). */
WSEL_API int wsel_resolve(const wsel_resolver *r, const wsel_resource *res,
                          wsel_rng *rng, wsel_answer *ans);
WSEL_API wsel_engine_id wsel_resolver_engine(const wsel_resolver *r); /* REF or FAST */
/* Name of the variant in use ("ref", "fast-avx2", ...); never "fast". NULL for a NULL
 * resolver (wsel_resolver_engine() then says REF, the enum's 0). */
WSEL_API const char *wsel_resolver_variant(const wsel_resolver *r);
WSEL_API void wsel_resolver_free(wsel_resolver *r);
/* Writer side: frees the snapshots that syncs have replaced. Readers never announce
 * themselves, so replaced snapshots are otherwise kept until wsel_resolver_free(); call
 * this only at a point where no thread is inside wsel_resolve() on r. Returns the
 * number of snapshots freed. */
WSEL_API size_t wsel_resolver_reclaim(wsel_resolver *r);

#ifdef __cplusplus
}
#endif
#endif
