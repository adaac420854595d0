/* wsel: the selection systems this library covers, and their engine variants.
 *
 *   system     what it is                                          doc
 *   weighted   gdnsd's weighted plugin (config.h ... odds.h)       doc/weighted.md
 *   ring       lua-resty-dns-client's ring balancer (ring.h)      doc/ring.md
 *   gslb       BIG-IP DNS wide IP -> pool -> member (gslb.h)       doc/gslb.md
 *
 * Each system has a reference engine, "ref" (the executable specification), and may
 * have faster ones that give the same answers for the same inputs: the weighted plugin
 * one fast engine per instruction set ("fast-scalar", "fast-sse2", "fast-avx2"), the
 * ring one lock-free fast engine ("fast"). Indexes are stable for a build: systems in
 * the order above, variants "ref" first. */
#ifndef WSEL_SYSTEMS_H
#define WSEL_SYSTEMS_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

WSEL_API size_t wsel_system_count(void);
/* The system's id ("weighted") and its semantics page; NULL past the end. */
WSEL_API const char *wsel_system_name(size_t i);
WSEL_API const char *wsel_system_doc(size_t i);
/* Index of the system called `name`; -1 if none (NULL included). */
WSEL_API long wsel_system_find(const char *name);
/* Its engine variants: how many, their names (NULL past the end), and whether this
 * build and CPU can run each (false past the end). */
WSEL_API size_t wsel_system_variant_count(size_t i);
WSEL_API const char *wsel_system_variant_name(size_t i, size_t v);
WSEL_API bool wsel_system_variant_available(size_t i, size_t v);

#ifdef __cplusplus
}
#endif
#endif
