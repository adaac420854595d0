/* The weighted system's part of the kit (gdnsd's weighted plugin): its case generator,
 * random monitoring state, answer invariants and boundary words. Mode-specific test
 * code lives here; the kit's system table reaches it through wsel_kit_system_weighted. */
#ifndef WSEL_KIT_WEIGHTED_H
#define WSEL_KIT_WEIGHTED_H

#include "kit.h"

/* Service type names the generator may use (besides the built-in "up"); NULL-ended.
 * Stanza-only configs accept any names, so no top-level service_types hash is needed. */
extern const char *const wsel_kit_weighted_services[];

typedef struct wsel_kit_weighted_opts {
    unsigned resources;     /* resources per config; 0 = random 1..6 */
    unsigned max_items;     /* items per set cap, 1..64; 0 = 64 */
    unsigned max_group;     /* addresses per group cap, 1..64; 0 = 64 */
    int mode;               /* force a wsel_mode for every set; -1 = any (default if opts NULL) */
    bool no_services;       /* only the built-in `up` (never DOWN) */
    bool no_explicit;       /* no addrs_v4/addrs_v6 resources */
    bool max_shape;         /* every set at the caps: max_items items, or max_items
                               groups of max_group addresses (64 x 64 by default) */
} wsel_kit_weighted_opts;

/* A valid stanza-only config text, deterministic in `seed`. Covers CNAMEs and the four
 * address modes, both families, explicit addrs_v4/addrs_v6 with per-stanza parameters,
 * inherited parameters, 1..64 items and 1..64 addresses per group (biased small, with
 * the extremes), weights 1..1048575 (often 1 or 1048575), up_thresh values from 0.001
 * to 1 including 0.07 and 1, duplicate addresses and upper-case IPv6 text.
 * Returns malloc'ed text (free()), or NULL when out of memory. */
char *wsel_kit_weighted_gen_config(uint64_t seed, const wsel_kit_weighted_opts *opts);

/* For every item key of cfg and every non-built-in service of its set: DOWN with
 * probability p_down, else UP; TTL random in 0..WSEL_MAX_TTL (or WSEL_MAX_TTL when
 * random_ttl is false). Deterministic in seed. Returns WSEL_OK or the first error. */
int wsel_kit_weighted_random_state(wsel_state *st, const wsel_config *cfg, uint64_t seed,
                                   double p_down, bool random_ttl, wsel_error *err);

/* The dynamic weights of `set` under `st`, worked out from the public state API and
 * the page's rules (an item counts its weight when UP; below ceil(T * up_thresh) the
 * set fails over and every item counts): d[i], up[i], *ttl the minimum TTL. Returns
 * whether the set failed over. d and up hold set->n_items entries. */
bool wsel_kit_weighted_dyn(const wsel_set *set, const wsel_state *st, uint64_t *d, bool *up,
                           uint32_t *ttl);

/* What the state makes of a set, worked out once for checking many answers. */
typedef struct wsel_kit_weighted_truth {
    uint64_t d[WSEL_MAX_ITEMS * WSEL_MAX_ITEMS];     /* dynamic weights */
    bool up[WSEL_MAX_ITEMS * WSEL_MAX_ITEMS];
    bool must[WSEL_MAX_ITEMS * WSEL_MAX_ITEMS];      /* max weight of its layer */
    bool gmust[WSEL_MAX_ITEMS];                      /* grouped: a max-weight group */
    uint32_t ttl;
    bool failed;
} wsel_kit_weighted_truth;

void wsel_kit_weighted_truth_of(const wsel_set *set, const wsel_state *st,
                                wsel_kit_weighted_truth *t);
/* wsel_kit_weighted_check_set() against a truth worked out before. */
const char *wsel_kit_weighted_check_truth(const wsel_set *set, const wsel_kit_weighted_truth *t,
                                          const wsel_set_answer *a, char *buf, size_t len);

/* The answer invariants of a set (doc/weighted.md §5.7): 1..n items in config
 * order, no DOWN item unless the set failed over, every max-weight item of a multi
 * layer present, grouped-single within one group, grouped-multi at most one address
 * per group and every max-weight group present, failed and TTL as the state gives.
 * NULL when they hold, else the reason (in buf). */
const char *wsel_kit_weighted_check_set(const wsel_set *set, const wsel_state *st,
                                        const wsel_set_answer *a, char *buf, size_t len);
/* The same over every set of res, and the answer's overall failed flag and TTL. */
const char *wsel_kit_weighted_check(const wsel_resource *res, const wsel_state *st,
                                    const wsel_answer *a, char *buf, size_t len);
/* wsel_kit_weighted_check() against truths worked out before: t[s] for set s of res
 * (many answers under one state pay for the state's lookups once). */
const char *wsel_kit_weighted_check_truths(const wsel_resource *res,
                                           const wsel_kit_weighted_truth *const *t,
                                           const wsel_answer *a, char *buf, size_t len);

/* Edge words of every layer of `set` under `st` (CHOOSE prefix edges and INCLUDE edges,
 * for items over the whole set, within each group, and for groups), each with its two
 * neighbours, plus 0 and UINT64_MAX. Appends to out[*n..max-1]. */
void wsel_kit_weighted_edges(const wsel_set *set, const wsel_state *st, uint64_t *out,
                             size_t *n, size_t max);

/* The weighted canonical answer text: per set "items F|- ttl" (items as in
 * wsel_kit_format_answer), sets joined by " | ", then " = " and the overall flag and TTL. */
void wsel_kit_weighted_canon(const wsel_resource *res, const wsel_answer *ans, char *buf,
                             size_t len);

#endif
