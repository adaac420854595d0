/* Which fast kernel runs: CPU features are detected once and cached in an atomic; the
 * environment (WSEL_FAST_KERNEL=scalar|sse2|avx2, read once) or wsel_fast_force() can
 * override the choice. Built with baseline flags, so no SIMD code leaks in here. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "fast.h"

static const char *const engine_names[WSEL_ENGINE_COUNT_] = {
    [WSEL_ENGINE_REF] = "ref",
    [WSEL_ENGINE_FAST] = "fast",
    [WSEL_ENGINE_FAST_SCALAR] = "fast-scalar",
    [WSEL_ENGINE_FAST_SSE2] = "fast-sse2",
    [WSEL_ENGINE_FAST_AVX2] = "fast-avx2",
};

const char *wsel_engine_name(wsel_engine_id id)
{
    if ((unsigned)id >= WSEL_ENGINE_COUNT_)
        return "unknown";
    return engine_names[id];
}

int wsel_engine_parse(const char *name, wsel_engine_id *out)
{
    if (!name || !out)
        return WSEL_E_ARG;
    for (int i = 0; i < WSEL_ENGINE_COUNT_; i++) {
        if (strcmp(name, engine_names[i]) == 0) {
            *out = (wsel_engine_id)i;
            return WSEL_OK;
        }
    }
    return WSEL_E_ARG;
}

/* Bit i set: engine i runs here. Computed once; 0 means not yet. */
static _Atomic unsigned cpu_engines;

static unsigned detect(void)
{
    unsigned e = atomic_load_explicit(&cpu_engines, memory_order_acquire);
    if (e)
        return e;
    e = 1u << WSEL_ENGINE_REF | 1u << WSEL_ENGINE_FAST | 1u << WSEL_ENGINE_FAST_SCALAR;
#if defined(WSEL__HAVE_SSE2) || defined(WSEL__HAVE_AVX2)
    __builtin_cpu_init();
#endif
#if defined(WSEL__HAVE_SSE2)
    if (__builtin_cpu_supports("sse2"))
        e |= 1u << WSEL_ENGINE_FAST_SSE2;
#endif
#if defined(WSEL__HAVE_AVX2)
    if (__builtin_cpu_supports("avx2"))
        e |= 1u << WSEL_ENGINE_FAST_AVX2;
#endif
    /* Racing first callers compute the same value; storing it twice is harmless. */
    atomic_store_explicit(&cpu_engines, e, memory_order_release);
    return e;
}

bool wsel_engine_available(wsel_engine_id id)
{
    if ((unsigned)id >= WSEL_ENGINE_COUNT_)
        return false;
    return (detect() >> id) & 1u;
}

static wsel_engine_id widest(void)
{
    unsigned e = detect();
    if (e & 1u << WSEL_ENGINE_FAST_AVX2)
        return WSEL_ENGINE_FAST_AVX2;
    if (e & 1u << WSEL_ENGINE_FAST_SSE2)
        return WSEL_ENGINE_FAST_SSE2;
    return WSEL_ENGINE_FAST_SCALAR;
}

/* 0 = not decided yet; otherwise the concrete variant + 1. */
static _Atomic int auto_choice;
/* WSEL_ENGINE_FAST = no override; otherwise the forced variant. */
static _Atomic int forced = WSEL_ENGINE_FAST;

static wsel_engine_id automatic(void)
{
    int c = atomic_load_explicit(&auto_choice, memory_order_acquire);
    if (c)
        return (wsel_engine_id)(c - 1);
    wsel_engine_id id = widest();
    const char *env = getenv("WSEL_FAST_KERNEL");
    if (env) {
        wsel_engine_id want = id;
        if (strcmp(env, "scalar") == 0)
            want = WSEL_ENGINE_FAST_SCALAR;
        else if (strcmp(env, "sse2") == 0)
            want = WSEL_ENGINE_FAST_SSE2;
        else if (strcmp(env, "avx2") == 0)
            want = WSEL_ENGINE_FAST_AVX2;
        /* An unavailable request keeps the automatic choice rather than failing
         * resolver creation far from where the variable was set. */
        if (wsel_engine_available(want))
            id = want;
    }
    int expected = 0;
    if (!atomic_compare_exchange_strong(&auto_choice, &expected, (int)id + 1))
        id = (wsel_engine_id)(expected - 1);
    return id;
}

wsel_engine_id wsel_fast_selected(void)
{
    int f = atomic_load_explicit(&forced, memory_order_acquire);
    if (f != WSEL_ENGINE_FAST)
        return (wsel_engine_id)f;
    return automatic();
}

int wsel_fast_force(wsel_engine_id id)
{
    switch (id) {
    case WSEL_ENGINE_FAST:
        atomic_store_explicit(&forced, WSEL_ENGINE_FAST, memory_order_release);
        return WSEL_OK;
    case WSEL_ENGINE_FAST_SCALAR:
    case WSEL_ENGINE_FAST_SSE2:
    case WSEL_ENGINE_FAST_AVX2:
        if (!wsel_engine_available(id))
            return WSEL_E_UNSUPPORTED;
        atomic_store_explicit(&forced, (int)id, memory_order_release);
        return WSEL_OK;
    default:
        return WSEL_E_ARG;
    }
}

wsel_engine_id wsel__fast_resolve_id(wsel_engine_id id)
{
    return id == WSEL_ENGINE_FAST ? wsel_fast_selected() : id;
}

wsel__query_fn wsel__fast_query(wsel_engine_id id)
{
    switch (id) {
    case WSEL_ENGINE_FAST_SCALAR:
        return wsel__query_scalar;
#if defined(WSEL__HAVE_SSE2)
    case WSEL_ENGINE_FAST_SSE2:
        return wsel__query_sse2;
#endif
#if defined(WSEL__HAVE_AVX2)
    case WSEL_ENGINE_FAST_AVX2:
        return wsel__query_avx2;
#endif
    default:
        return NULL;
    }
}
