/* The kit's system table (kit_system.h) and its generic loops. */
#include <stdio.h>
#include <string.h>

#include "kit_system.h"

static const wsel_kit_system *const systems[] = {
#define WSEL_SYSTEM(id) &wsel_kit_system_##id,
#include "../../core/systems.def"
#undef WSEL_SYSTEM
};

static bool small_cases;

void wsel_kit_cases_small(bool on)
{
    small_cases = on;
}

bool wsel_kit_cases_are_small(void)
{
    return small_cases;
}

const wsel_kit_system *const *wsel_kit_systems(size_t *n)
{
    *n = sizeof systems / sizeof systems[0];
    return systems;
}

void *wsel_kit_case_failed(uint64_t seed, const wsel_error *err, char *why, size_t len)
{
    char ebuf[1024];
    snprintf(why, len, "seed %llu: %s", (unsigned long long)seed,
             wsel_error_format(err, ebuf, sizeof ebuf));
    return NULL;
}

void *wsel_kit_case_done(void *c, int rc, void (*case_free)(void *), uint64_t seed,
                         const wsel_error *err, char *why, size_t len)
{
    if (rc == WSEL_OK)
        return c;
    case_free(c);
    return wsel_kit_case_failed(seed, err, why, len);
}

const wsel_kit_system *wsel_kit_system_find(const char *name)
{
    for (size_t i = 0; i < sizeof systems / sizeof systems[0]; i++)
        if (strcmp(systems[i]->name, name) == 0)
            return systems[i];
    return NULL;
}

const char *wsel_kit_identity(const wsel_kit_system *sys, void *c, size_t q,
                              const uint64_t *w, size_t n, char *buf, size_t len)
{
    const char *names[WSEL_KIT_MAX_VARIANTS];
    size_t nv = wsel_kit_system_variants(sys, names, WSEL_KIT_MAX_VARIANTS);
    return wsel_kit_identity_of(sys, c, q, w, n, names, nv, buf, len);
}

const char *wsel_kit_identity_of(const wsel_kit_system *sys, void *c, size_t q,
                                 const uint64_t *w, size_t n, const char *const *names,
                                 size_t nv, char *buf, size_t len)
{
    char want[4096], got[4096], why[512];
    wsel_kit_replay rp;
    wsel_rng rng = wsel_kit_replay_rng(&rp, w, n);
    if (sys->run(c, NULL, q, &rng, want, sizeof want) != WSEL_OK) {
        snprintf(buf, len, "%s: reference failed on target %zu: %s", sys->name, q, want);
        return buf;
    }
    if (rp.pos != n || rp.overrun) {
        snprintf(buf, len, "%s: reference consumed %zu words, contract says %zu", sys->name,
                 rp.pos + rp.overrun, n);
        return buf;
    }
    if (sys->check(c, why, sizeof why)) {
        snprintf(buf, len, "%s: reference answer %s breaks an invariant: %s", sys->name, want,
                 why);
        return buf;
    }
    for (size_t v = 0; v < nv; v++) {
        rng = wsel_kit_replay_rng(&rp, w, n);
        if (sys->run(c, names[v], q, &rng, got, sizeof got) != WSEL_OK) {
            snprintf(buf, len, "%s/%s: query failed on target %zu: %s", sys->name, names[v], q,
                     got);
            return buf;
        }
        if (rp.pos != n || rp.overrun) {
            snprintf(buf, len, "%s/%s: consumed %zu words, contract says %zu", sys->name,
                     names[v], rp.pos + rp.overrun, n);
            return buf;
        }
        if (strcmp(want, got) != 0) {
            snprintf(buf, len, "%s/%s differs from the reference on target %zu: want %s, got %s",
                     sys->name, names[v], q, want, got);
            return buf;
        }
    }
    return NULL;
}

size_t wsel_kit_system_variants(const wsel_kit_system *sys, const char **names, size_t max)
{
    long s = wsel_system_find(sys->name);
    size_t n = 0;
    /* variant 0 is "ref", the reference engine: the judge itself */
    for (size_t v = 1; s >= 0 && v < wsel_system_variant_count((size_t)s) && n < max; v++)
        if (wsel_system_variant_available((size_t)s, v))
            names[n++] = wsel_system_variant_name((size_t)s, v);
    return n;
}
