/* The library side of the seam between selection systems (core/systems.def,
 * doc/architecture.md). Not installed.
 *
 * Each system defines `const wsel__system wsel__system_ID` in its own files (weighted:
 * core/weighted/weighted_system.c); the library reaches a system's model, reference engine, odds
 * and fast engine through it. Adding a system is one line in core/systems.def and its
 * own files. */
#ifndef WSEL_CORE_SYSTEM_H
#define WSEL_CORE_SYSTEM_H

#include "weighted/weighted_tree.h"
#include "variant.h"

struct wsel__snap;

typedef struct wsel__system {
    const char *name;              /* the id of core/systems.def: "weighted" */
    const char *doc;               /* its semantics, in the repo: "doc/weighted.md" */

    /* The operations below belong to the random-word family (doc/random-words.md):
     * a system whose engines are keyed otherwise (the ring by hashes, the GSLB chain by
     * config, inputs and carried state) leaves them NULL and offers its engines through
     * its own public header (include/wsel/<id>.h). */

    /* Its variants, in wsel__variant_at() order: "ref" first, then the fast ones from
     * narrowest to widest; names are shared by every system. */
    const wsel__variant *variants;
    size_t n_variants;

    /* Model: builds the model of a parse tree into cfg; the one validator of a
     * hand-made set (NULL when valid, else the reason). */
    int (*model_build)(wsel_config *cfg, const wsel__node *root, wsel_input input,
                       wsel_error *err);
    const char *(*set_problem)(const wsel_set *set);

    /* The random-word contract: words one query on a set consumes. */
    size_t (*set_words)(const wsel_set *set);

    /* The reference engine and the exact odds, written independently of each other. */
    int (*ref_resolve)(const wsel_resource *res, const wsel_state *st, wsel_rng *rng,
                       wsel_answer *ans);
    int (*odds)(const wsel_resource *res, const wsel_state *st, wsel_odds **out,
                wsel_error *err);

    /* Fast engine: a set's snapshot from the state (false: out of memory), and its
     * release; the kernels are the variants' query paths. */
    bool (*fast_prepare)(struct wsel__snap *s, const wsel_set *set, const wsel_state *st);
    void (*fast_release)(struct wsel__snap *s);
} wsel__system;

#define WSEL_SYSTEM(id) extern const wsel__system wsel__system_##id;
#include "systems.def"
#undef WSEL_SYSTEM

#endif
