/* The BIG-IP DNS GSLB chain (doc/gslb.md): its entry in the library's table of systems
 * (core/system.h). Its one engine is the reference (ref/gslb/), include/wsel/gslb.h. */
#include "../system.h"

static const wsel__variant_info variants[] = { {"ref", -1} };

static const wsel__variant_info *variant(size_t i)
{
    return &variants[i];
}

const wsel__system wsel__system_gslb = {
    .name = "gslb",
    .doc = "doc/gslb.md",
    .n_variants = sizeof variants / sizeof variants[0],
    .variant = variant,
};
