/* The kit's one view of the library's engine list (kit.h). When the library's variant
 * API changes, this file is the place to adapt. */
#include <string.h>

#include "kit.h"

static const wsel_engine_id all[] = { WSEL_ENGINE_REF, WSEL_ENGINE_FAST,
                                      WSEL_ENGINE_FAST_SCALAR, WSEL_ENGINE_FAST_SSE2,
                                      WSEL_ENGINE_FAST_AVX2 };

size_t wsel_kit_variants(const char **names, size_t max, bool with_auto)
{
    size_t n = 0;
    for (size_t i = 0; i < sizeof all / sizeof all[0] && n < max; i++) {
        if (all[i] == WSEL_ENGINE_FAST && !with_auto)
            continue;
        if (wsel_engine_available(all[i]))
            names[n++] = wsel_engine_name(all[i]);
    }
    return n;
}

int wsel_kit_resolver_new(const wsel_config *cfg, const wsel_state *st, const char *name,
                          wsel_resolver **out, wsel_error *err)
{
    wsel_engine_id id;
    *out = NULL;
    if (wsel_engine_parse(name, &id) != WSEL_OK)
        return WSEL_E_ARG;
    if (!wsel_engine_available(id))
        return WSEL_E_UNSUPPORTED;
    return wsel_resolver_new(cfg, st, id, out, err);
}

const char *wsel_kit_resolver_variant(const wsel_resolver *r)
{
    return wsel_engine_name(wsel_resolver_engine(r));
}

const char *wsel_kit_auto_variant(void)
{
    return wsel_engine_name(wsel_fast_selected());
}

int wsel_kit_variant_check(const char *name)
{
    wsel_engine_id id;
    if (wsel_engine_parse(name, &id) != WSEL_OK)
        return WSEL_E_ARG;
    return wsel_engine_available(id) ? WSEL_OK : WSEL_E_UNSUPPORTED;
}

int wsel_kit_force_variant(const char *name)
{
    wsel_engine_id id = WSEL_ENGINE_FAST;
    if (name && wsel_engine_parse(name, &id) != WSEL_OK)
        return WSEL_E_ARG;
    return wsel_fast_force(id);
}
