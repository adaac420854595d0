/* The kit's per-system table: what the generic loops of tests/, stats/, fuzz/ and
 * bench/ need to know about a selection system, one entry per line of
 * core/systems.def. A loop over wsel_kit_systems() x wsel_kit_system_variants() never names a
 * mode: the mode-specific code is in the system's own kit file (weighted.c).
 *
 * A case is opaque to the loops: a generated config with its monitoring state, the
 * resolvers bound to it so far (one per variant name, made on first use) and the last
 * answer, which `check` judges. */
#ifndef WSEL_KIT_SYSTEM_H
#define WSEL_KIT_SYSTEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kit.h"

typedef struct wsel_kit_system {
    const char *name;
    /* A valid generated case, deterministic in `seed`; NULL with `why` filled when it
     * cannot be built (a generator or loader bug: the caller fails). */
    void *(*case_new)(uint64_t seed, char *why, size_t len);
    void (*case_free)(void *c);
    /* Optional (NULL: not offered): returns c to what case_new built from its seed,
     * dropping everything queries made or changed since (resolvers, carried state,
     * the last answer) and keeping only what no query writes (the loaded config, its
     * generated state, the text). WSEL_OK, or an error (then c is to be freed). A
     * caller that builds one case per input may keep the case of the last seed and
     * reset it when the next input has the same seed (fuzz/fuzz_systems_identity.c):
     * the run stays a function of the input alone. */
    int (*case_reset)(void *c);
    /* The case's config text (for reports and reproducers). */
    const char *(*case_text)(const void *c);
    /* Query targets of the case (resources), and the words one query of target q
     * consumes under the random-word contract. */
    size_t (*queries)(const void *c);
    size_t (*words)(const void *c, size_t q);
    /* One query of target q drawing from rng: variant NULL runs the reference function
     * (the judge), else the named engine variant (one of the library's names for the
     * system, wsel_kit_system_variants). The answer, in
     * the system's canonical text, goes to out. Returns WSEL_OK, or an error with `out`
     * holding the reason. */
    int (*run)(void *c, const char *variant, size_t q, wsel_rng *rng, char *out, size_t len);
    /* The same query without the text (for benchmarks): the answer is kept for check. */
    int (*query)(void *c, const char *variant, size_t q, wsel_rng *rng);
    /* The system's answer invariants on the last answer run gave: NULL when they hold,
     * else the reason (written to buf). */
    const char *(*check)(const void *c, char *buf, size_t len);
    /* Words at the edges of target q's decisions under the case's state (each edge and
     * its neighbours), for the exact test families: at most max, returns the count. */
    size_t (*boundary)(const void *c, size_t q, uint64_t *out, size_t max);
} wsel_kit_system;

#define WSEL_SYSTEM(id) extern const wsel_kit_system wsel_kit_system_##id;
#include "../../core/systems.def"
#undef WSEL_SYSTEM

/* For case_new implementations: writes "seed S: <err>" to why and returns NULL. */
void *wsel_kit_case_failed(uint64_t seed, const wsel_error *err, char *why, size_t len);
/* For case_new implementations, at the end: the case c when rc is WSEL_OK; otherwise
 * frees it with case_free and returns wsel_kit_case_failed's NULL. */
void *wsel_kit_case_done(void *c, int rc, void (*case_free)(void *), uint64_t seed,
                         const wsel_error *err, char *why, size_t len);

/* Small cases, for callers that build one case per input (fuzz/fuzz_systems_identity.c):
 * from then on the weighted system's generator writes 1..3 resources and caps its sets
 * at 8 items (or 8 groups) and its groups at 8 addresses (the other systems' cases are
 * small already). Off by default: the
 * full-size shapes (64 groups of 64) stay with the loops of stats/ and tests/. One
 * setting for the process. */
void wsel_kit_cases_small(bool on);
bool wsel_kit_cases_are_small(void);

/* Every system, in core/systems.def order; *n gets the count. */
const wsel_kit_system *const *wsel_kit_systems(size_t *n);
/* The system named `name`, or NULL. */
const wsel_kit_system *wsel_kit_system_find(const char *name);

/* The engine variants of a system besides its reference, from the library's table of
 * systems (include/wsel/systems.h), that this build and CPU run: names[0..n), n returned.
 * The one source of which system has which engines. */
size_t wsel_kit_system_variants(const wsel_kit_system *sys, const char **names, size_t max);

/* The generic identity check: target q of case c, words w[0..n-1] replayed into the
 * judge and into every variant wsel_kit_system_variants lists; each must consume
 * exactly n words and give the judge's answer, which must pass the system's
 * invariants. NULL when all hold, else the reason (in buf). */
const char *wsel_kit_identity(const wsel_kit_system *sys, void *c, size_t q,
                              const uint64_t *w, size_t n, char *buf, size_t len);
/* The same check against the variants names[0..nv) only (a subset of
 * wsel_kit_system_variants' list: fuzz/fuzz_systems_identity.c checks one per input). */
const char *wsel_kit_identity_of(const wsel_kit_system *sys, void *c, size_t q,
                                 const uint64_t *w, size_t n, const char *const *names,
                                 size_t nv, char *buf, size_t len);

#endif
