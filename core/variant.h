/* CPU features and the variants of the code that uses them: one detection (core/cpu.c),
 * one table (the system's, core/weighted/weighted_system.c), one override (core/dispatch.c).
 * Not installed.
 *
 * A variant is one concrete code path an engine runs: "ref", or a fast kernel together
 * with the generator's bulk fill it pairs with ("fast-scalar", "fast-sse2",
 * "fast-avx2"). The fast engine's automatic choice is the last available fast variant of
 * the table (the widest), unless WSEL_FAST_KERNEL (read once) or wsel_fast_force()
 * names another; that one choice also decides how the default generator fills words, so
 * forcing "fast-scalar" leaves no SIMD code running. */
#ifndef WSEL_CORE_VARIANT_H
#define WSEL_CORE_VARIANT_H

#include "wsel.h"

/* Instruction sets this build compiles code for (x86-64 unless -DWSEL_NO_SSE2 /
 * -DWSEL_NO_AVX2); the files built with -msse2 / -mavx2 compile to nothing without. */
#if defined(__x86_64__) && !defined(WSEL_NO_SSE2)
#define WSEL__HAVE_SSE2 1
#endif
#if defined(__x86_64__) && !defined(WSEL_NO_AVX2)
#define WSEL__HAVE_AVX2 1
#endif

/* CPU feature bits. */
#define WSEL__CPU_SSE2 1u
#define WSEL__CPU_AVX2 2u

/* The features of this CPU that this build has code for; detected once, cached. */
unsigned wsel__cpu_features(void);

/* The default generator's bulk step: `blocks` steps of its four lanes, 4 * blocks words. */
typedef void (*wsel__blocks_fn)(uint64_t s[4][4], uint64_t *out, size_t blocks);

/* A variant's whole query path: arguments are non-NULL. */
typedef int (*wsel__query_fn)(const wsel_resolver *r, const wsel_resource *res,
                              wsel_rng *rng, wsel_answer *ans);

/* What an engine does beside queries, for the resolver (core/weighted/weighted_resolver.c). Every op may
 * be NULL: the engine keeps nothing of its own (the reference engine). */
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
    const char *name;            /* "ref", "fast-scalar", ... (wsel_variant_name) */
    wsel_engine_id engine;       /* the engine it belongs to */
    const wsel__engine_ops *ops; /* that engine's resolver ops (NULL: none) */
    unsigned cpu;                /* WSEL__CPU_* bits it needs */
    wsel__query_fn query;        /* NULL: not compiled into this build */
    wsel__blocks_fn prng_blocks; /* the generator's bulk fill that goes with it */
    void (*prng_take)(wsel_prng *p, uint64_t *w, size_t n); /* and its take */
} wsel__variant;

/* The iterator: variant i in table order (ref first, then fast variants from narrowest
 * to widest), NULL past the end. */
const wsel__variant *wsel__variant_at(size_t i);
/* The variant called `name`, NULL if none is. */
const wsel__variant *wsel__variant_find(const char *name);
/* Compiled in and the CPU has what it needs. */
bool wsel__variant_runs(const wsel__variant *v);
/* The fast variant in use now: forced, else automatic (widest, or WSEL_FAST_KERNEL). */
const wsel__variant *wsel__variant_fast(void);

#endif
