/* CPU-feature detection, done once per process and cached in an atomic. Built with
 * baseline flags, so no SIMD code leaks in here. */
#include <stdatomic.h>

#include "isa.h"

/* The features found, with bit 31 set once detected (0 = not yet). */
static _Atomic unsigned detected;
/* Features hidden from every caller (wsel__cpu_hide; 0 = none). */
static _Atomic unsigned hidden;

static unsigned detect(void)
{
    unsigned f = atomic_load_explicit(&detected, memory_order_relaxed);
    if (f)
        return f & ~(1u << 31);
    f = 1u << 31;
#if defined(WSEL__HAVE_SSE2) || defined(WSEL__HAVE_AVX2)
    __builtin_cpu_init();
#endif
#if defined(WSEL__HAVE_SSE2)
    if (__builtin_cpu_supports("sse2"))
        f |= WSEL__CPU_SSE2;
#endif
#if defined(WSEL__HAVE_AVX2)
    if (__builtin_cpu_supports("avx2"))
        f |= WSEL__CPU_AVX2;
#endif
    /* Racing first callers compute the same value; storing it twice is harmless. */
    atomic_store_explicit(&detected, f, memory_order_relaxed);
    return f & ~(1u << 31);
}

unsigned wsel__cpu_features(void)
{
    return detect() & ~atomic_load_explicit(&hidden, memory_order_relaxed);
}

void wsel__cpu_hide(unsigned features)
{
    atomic_store_explicit(&hidden, features, memory_order_relaxed);
}
