/* The weighted system (gdnsd's weighted plugin, doc/weighted.md): its engine variants
 * and its entry in the library's table of systems (core/system.h). The engines
 * themselves are in ref/weighted/ and fast/weighted/; the variant API of
 * include/wsel/resolve.h is answered here. */
#include <stddef.h>
#include <string.h>

#include "weighted_variant.h"
#include "../../fast/weighted/weighted_fast.h"

#if defined(WSEL__HAVE_SSE2)
#define QUERY_SSE2 wsel__query_sse2
#else
#define QUERY_SSE2 NULL
#endif
#if defined(WSEL__HAVE_AVX2)
#define QUERY_AVX2 wsel__query_avx2
#else
#define QUERY_AVX2 NULL
#endif

/* From narrowest to widest: the automatic choice is the widest that runs (core/isa.h). */
static const wsel__variant variants[] = {
    { {"ref", -1}, WSEL_ENGINE_REF, NULL, wsel__ref_query },
    { {"fast-scalar", WSEL__ISA_SCALAR}, WSEL_ENGINE_FAST, &wsel__fast_ops, wsel__query_scalar },
    { {"fast-sse2", WSEL__ISA_SSE2}, WSEL_ENGINE_FAST, &wsel__fast_ops, QUERY_SSE2 },
    { {"fast-avx2", WSEL__ISA_AVX2}, WSEL_ENGINE_FAST, &wsel__fast_ops, QUERY_AVX2 },
};
#define N_VARIANTS (sizeof variants / sizeof variants[0])

const wsel__variant *wsel__variant_at(size_t i)
{
    return i < N_VARIANTS ? &variants[i] : NULL;
}

/* Each record begins with its wsel__variant_info (weighted_variant.h). */
_Static_assert(offsetof(wsel__variant, info) == 0, "the table of systems reads info first");
const wsel__system wsel__system_weighted = WSEL__SYSTEM("weighted", "doc/weighted.md", variants);

const wsel__variant *wsel__variant_find(const char *name)
{
    for (size_t i = 0; name && i < N_VARIANTS; i++)
        if (strcmp(name, variants[i].info.name) == 0)
            return &variants[i];
    return NULL;
}

bool wsel__variant_runs(const wsel__variant *v)
{
    return v && v->query && wsel__variant_info_runs(&v->info);
}

const wsel__variant *wsel__variant_fast(void)
{
    wsel__isa isa = wsel__isa_selected();
    for (size_t i = 0; i < N_VARIANTS; i++)
        if (variants[i].engine == WSEL_ENGINE_FAST && variants[i].info.isa == (int)isa)
            return &variants[i];
    return &variants[1];
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
    return N_VARIANTS;
}

const char *wsel_variant_name(size_t i)
{
    return i < N_VARIANTS ? variants[i].info.name : NULL;
}

bool wsel_variant_available(const char *name)
{
    if (name && strcmp(name, "fast") == 0)
        return true;
    return wsel__variant_runs(wsel__variant_find(name));
}

const char *wsel_fast_selected(void)
{
    return wsel__variant_fast()->info.name;
}

int wsel_fast_force(const char *name)
{
    if (!name || strcmp(name, "fast") == 0) {
        wsel__isa_force(-1);
        return WSEL_OK;
    }
    const wsel__variant *v = wsel__variant_find(name);
    if (!v || v->engine != WSEL_ENGINE_FAST)
        return WSEL_E_ARG;
    if (!wsel__variant_runs(v) || !wsel__isa_force(v->info.isa))
        return WSEL_E_UNSUPPORTED;
    return WSEL_OK;
}
