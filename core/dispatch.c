/* The choice of the fast variant (core/variant.h) and the public names of engines and
 * variants. Built with baseline flags, so no SIMD code leaks in. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "system.h"

/* The variants are the first system's (core/systems.def: weighted); every system
 * names the same ones. */
const wsel__variant *wsel__variant_at(size_t i)
{
    const wsel__system *sys = &wsel__system_weighted;
    return i < sys->n_variants ? &sys->variants[i] : NULL;
}

const wsel__variant *wsel__variant_find(const char *name)
{
    const wsel__variant *v;
    for (size_t i = 0; name && (v = wsel__variant_at(i)); i++)
        if (strcmp(name, v->name) == 0)
            return v;
    return NULL;
}

bool wsel__variant_runs(const wsel__variant *v)
{
    return v && v->query && (v->cpu & ~wsel__cpu_features()) == 0;
}

/* NULL = automatic. */
static _Atomic(const wsel__variant *) forced;
/* The automatic choice, once decided (NULL = not yet). */
static _Atomic(const wsel__variant *) automatic;

static const wsel__variant *decide(void)
{
    const wsel__variant *v, *best = NULL;
    for (size_t i = 0; (v = wsel__variant_at(i)); i++)
        if (v->engine == WSEL_ENGINE_FAST && wsel__variant_runs(v))
            best = v;
    const char *env = getenv("WSEL_FAST_KERNEL");
    if (env) {
        char name[32];
        const wsel__variant *want = NULL;
        if (strlen(env) < sizeof name - 5) {
            memcpy(name, "fast-", 5);
            strcpy(name + 5, env);
            want = wsel__variant_find(name);
        }
        /* An unavailable request keeps the automatic choice rather than failing
         * resolver creation far from where the variable was set. */
        if (want && want->engine == WSEL_ENGINE_FAST && wsel__variant_runs(want))
            best = want;
    }
    const wsel__variant *expected = NULL;
    if (!atomic_compare_exchange_strong(&automatic, &expected, best))
        best = expected;
    return best;
}

const wsel__variant *wsel__variant_fast(void)
{
    const wsel__variant *v = atomic_load_explicit(&forced, memory_order_acquire);
    if (v)
        return v;
    v = atomic_load_explicit(&automatic, memory_order_acquire);
    return v ? v : decide();
}

const char *wsel_engine_name(wsel_engine_id id)
{
    switch (id) {
    case WSEL_ENGINE_REF:
        return "ref";
    case WSEL_ENGINE_FAST:
        return "fast";
    default:
        return "unknown";
    }
}

size_t wsel_variant_count(void)
{
    return wsel__system_weighted.n_variants;
}

const char *wsel_variant_name(size_t i)
{
    const wsel__variant *v = wsel__variant_at(i);
    return v ? v->name : NULL;
}

bool wsel_variant_available(const char *name)
{
    if (name && strcmp(name, "fast") == 0)
        return true;
    return wsel__variant_runs(wsel__variant_find(name));
}

const char *wsel_fast_selected(void)
{
    return wsel__variant_fast()->name;
}

int wsel_fast_force(const char *name)
{
    if (!name || strcmp(name, "fast") == 0) {
        atomic_store_explicit(&forced, NULL, memory_order_release);
        return WSEL_OK;
    }
    const wsel__variant *v = wsel__variant_find(name);
    if (!v || v->engine != WSEL_ENGINE_FAST)
        return WSEL_E_ARG;
    if (!wsel__variant_runs(v))
        return WSEL_E_UNSUPPORTED;
    atomic_store_explicit(&forced, v, memory_order_release);
    return WSEL_OK;
}
