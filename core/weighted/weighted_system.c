/* The weighted system (gdnsd's weighted plugin, doc/weighted.md): its entry in the seam
 * (core/system.h), the first line of core/systems.def. Everything below is defined in
 * weighted's own files: core/weighted_model*.c, core/weighted/weighted_contract.c, ref/weighted/weighted_ref.c,
 * odds/weighted/weighted_odds.c, fast/weighted_*.c. */
#include "weighted_model.h"
#include "../prng_internal.h"
#include "../system.h"
#include "../../fast/weighted/weighted_fast.h"

#if defined(WSEL__HAVE_SSE2)
#define QUERY_SSE2 wsel__query_sse2
#else
#define QUERY_SSE2 NULL
#endif
#if defined(WSEL__HAVE_AVX2)
#define QUERY_AVX2 wsel__query_avx2
#define BLOCKS_AVX2 wsel__prng_blocks_avx2
#define TAKE_AVX2 wsel__prng_take_avx2_fn
#else
#define QUERY_AVX2 NULL
#define BLOCKS_AVX2 wsel__prng_blocks_portable
#define TAKE_AVX2 wsel__prng_take_portable_fn
#endif
#define PORTABLE wsel__prng_blocks_portable, wsel__prng_take_portable_fn

/* Fast variants from narrowest to widest: the automatic choice is the last that runs. */
static const wsel__variant variants[] = {
    { "ref", WSEL_ENGINE_REF, NULL, 0, wsel__ref_query, PORTABLE },
    { "fast-scalar", WSEL_ENGINE_FAST, &wsel__fast_ops, 0, wsel__query_scalar, PORTABLE },
    { "fast-sse2", WSEL_ENGINE_FAST, &wsel__fast_ops, WSEL__CPU_SSE2, QUERY_SSE2, PORTABLE },
    { "fast-avx2", WSEL_ENGINE_FAST, &wsel__fast_ops, WSEL__CPU_AVX2, QUERY_AVX2, BLOCKS_AVX2,
      TAKE_AVX2 },
};

const wsel__system wsel__system_weighted = {
    .name = "weighted",
    .doc = "doc/weighted.md",
    .variants = variants,
    .n_variants = sizeof variants / sizeof variants[0],
    .model_build = wsel__model_build,
    .set_problem = wsel__set_problem,
    .set_words = wsel_set_words,
    .ref_resolve = wsel_ref_resolve,
    .odds = wsel_odds_compute,
    .fast_prepare = wsel__snap_fill,
    .fast_release = wsel__snap_fini,
};
