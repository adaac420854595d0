/* The library side of the seam between selection systems (core/systems.def,
 * doc/architecture.md). Not installed.
 *
 * Each system defines `const wsel__system wsel__system_ID` in its own folder
 * (core/ID/ID_system.c); core/system.c builds the table from core/systems.def and
 * answers the public questions about it (include/wsel/systems.h: which systems, where
 * their semantics are written, which engine variants each has and which run here).
 * Every field is read through that table; nothing else is in it. A system's model,
 * engines and readers keep their own public header (include/wsel/<id>.h): their calls
 * differ too much to share a signature, and the verification kit's table
 * (tests/kit/kit_system.h) is where the systems meet for testing. */
#ifndef WSEL_CORE_SYSTEM_H
#define WSEL_CORE_SYSTEM_H

#include <stddef.h>

#include "isa.h"

/* One engine variant as the table lists it. */
typedef struct wsel__variant_info {
    const char *name;  /* "ref" (the reference engine, always first), "fast", "fast-avx2" */
    int isa;           /* the instruction-set level it needs (core/isa.h), -1 none */
} wsel__variant_info;

typedef struct wsel__system {
    const char *name;     /* the id of core/systems.def: "weighted" */
    const char *doc;      /* its semantics, in the repo: "doc/weighted.md" */
    size_t n_variants;
    /* Its variants: n_variants records of `stride` bytes, each beginning with its
     * wsel__variant_info (a system may keep more in them: weighted's query paths). */
    const void *variants;
    size_t stride;
} wsel__system;

/* A system's entry from its array of variant records. */
#define WSEL__SYSTEM(name, doc, variants)                                                \
    {(name), (doc), sizeof(variants) / sizeof((variants)[0]), (variants), sizeof((variants)[0])}

#define WSEL_SYSTEM(id) extern const wsel__system wsel__system_##id;
#include "systems.def"
#undef WSEL_SYSTEM

/* Compiled into this build and runnable on this CPU. */
bool wsel__variant_info_runs(const wsel__variant_info *v);

#endif
