/* The kit's one view of the library's engine list (kit.h): the library's table of named
 * variants (wsel_variant_count / wsel_variant_name, include/wsel/resolve.h). When that
 * API changes, this file is the place to adapt. */
#include <string.h>

#include "kit.h"

size_t wsel_kit_variants(const char **names, size_t max, bool with_auto)
{
    size_t n = 0;
    for (size_t i = 0; i < wsel_variant_count() && n < max; i++) {
        const char *name = wsel_variant_name(i);
        if (!wsel_variant_available(name))
            continue;
        names[n++] = name;
        /* "fast" (the library's own choice) right after the reference */
        if (with_auto && strcmp(name, "ref") == 0 && n < max)
            names[n++] = "fast";
    }
    return n;
}

int wsel_kit_variant_check(const char *name)
{
    return wsel_variant_check(name);
}

int wsel_kit_resolver_new(const wsel_config *cfg, const wsel_state *st, const char *name,
                          wsel_resolver **out, wsel_error *err)
{
    *out = NULL;
    int rc = wsel_kit_variant_check(name);
    if (rc != WSEL_OK)
        return rc;
    return wsel_resolver_new_variant(cfg, st, name, out, err);
}

const char *wsel_kit_resolver_variant(const wsel_resolver *r)
{
    return wsel_resolver_variant(r);
}

const char *wsel_kit_auto_variant(void)
{
    return wsel_fast_selected();
}

int wsel_kit_force_variant(const char *name)
{
    return wsel_fast_force(name);
}
