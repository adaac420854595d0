/* The table of systems (core/system.h) and the public questions about it
 * (include/wsel/systems.h). */
#include <string.h>

#include "wsel.h"
#include "system.h"

static const wsel__system *const systems[] = {
#define WSEL_SYSTEM(id) &wsel__system_##id,
#include "systems.def"
#undef WSEL_SYSTEM
};
#define N_SYSTEMS (sizeof systems / sizeof systems[0])

bool wsel__variant_info_runs(const wsel__variant_info *v)
{
    return v && (v->isa < 0 || wsel__isa_runs(v->isa));
}

static const wsel__variant_info *variant(size_t sys, size_t i)
{
    if (sys >= N_SYSTEMS || i >= systems[sys]->n_variants)
        return NULL;
    return (const void *)((const char *)systems[sys]->variants + i * systems[sys]->stride);
}

size_t wsel_system_count(void)
{
    return N_SYSTEMS;
}

const char *wsel_system_name(size_t i)
{
    return i < N_SYSTEMS ? systems[i]->name : NULL;
}

const char *wsel_system_doc(size_t i)
{
    return i < N_SYSTEMS ? systems[i]->doc : NULL;
}

long wsel_system_find(const char *name)
{
    for (size_t i = 0; name && i < N_SYSTEMS; i++)
        if (strcmp(systems[i]->name, name) == 0)
            return (long)i;
    return -1;
}

size_t wsel_system_variant_count(size_t i)
{
    return i < N_SYSTEMS ? systems[i]->n_variants : 0;
}

const char *wsel_system_variant_name(size_t i, size_t v)
{
    const wsel__variant_info *vi = variant(i, v);
    return vi ? vi->name : NULL;
}

bool wsel_system_variant_available(size_t i, size_t v)
{
    return wsel__variant_info_runs(variant(i, v));
}
