/* The instruction-set choice (core/isa.h). Built with baseline flags, so no SIMD code
 * leaks in. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "isa.h"

static const struct {
    const char *name;
    unsigned cpu;
    bool compiled;
} levels[WSEL__ISA_COUNT_] = {
    [WSEL__ISA_SCALAR] = {"scalar", 0, true},
#if defined(WSEL__HAVE_SSE2)
    [WSEL__ISA_SSE2] = {"sse2", WSEL__CPU_SSE2, true},
#else
    [WSEL__ISA_SSE2] = {"sse2", WSEL__CPU_SSE2, false},
#endif
#if defined(WSEL__HAVE_AVX2)
    [WSEL__ISA_AVX2] = {"avx2", WSEL__CPU_AVX2, true},
#else
    [WSEL__ISA_AVX2] = {"avx2", WSEL__CPU_AVX2, false},
#endif
};

const char *wsel__isa_name(int isa)
{
    return isa >= 0 && isa < WSEL__ISA_COUNT_ ? levels[isa].name : NULL;
}

bool wsel__isa_runs(int isa)
{
    return isa >= 0 && isa < WSEL__ISA_COUNT_ && levels[isa].compiled &&
           (levels[isa].cpu & ~wsel__cpu_features()) == 0;
}

/* -1 = automatic. */
static _Atomic int forced = -1;
/* The automatic choice, once decided (-1 = not yet). */
static _Atomic int automatic = -1;

static int decide(void)
{
    int best = WSEL__ISA_SCALAR;
    for (int i = 0; i < WSEL__ISA_COUNT_; i++)
        if (wsel__isa_runs(i))
            best = i;
    const char *env = getenv("WSEL_FAST_KERNEL");
    /* An unavailable request keeps the automatic choice rather than failing far from
     * where the variable was set (bin/wsel warns about it). */
    for (int i = 0; env && i < WSEL__ISA_COUNT_; i++)
        if (strcmp(env, levels[i].name) == 0 && wsel__isa_runs(i))
            best = i;
    int expected = -1;
    if (!atomic_compare_exchange_strong(&automatic, &expected, best))
        best = expected;
    return best;
}

wsel__isa wsel__isa_selected(void)
{
    int v = atomic_load_explicit(&forced, memory_order_acquire);
    if (v >= 0)
        return (wsel__isa)v;
    v = atomic_load_explicit(&automatic, memory_order_acquire);
    return (wsel__isa)(v >= 0 ? v : decide());
}

bool wsel__isa_force(int isa)
{
    if (isa < 0) {
        atomic_store_explicit(&forced, -1, memory_order_release);
        return true;
    }
    if (!wsel__isa_runs(isa))
        return false;
    atomic_store_explicit(&forced, isa, memory_order_release);
    return true;
}
