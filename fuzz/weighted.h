/* The weighted fuzz targets' shared data producer.
 *
 * Every fuzz_weighted_*.c target reads its input the same way (so one corpus serves
 * them all, and corpus/differential, the corpus of the target they were split from,
 * seeded theirs): the input is decoded (fuzz.h's producer) into a structured case:
 * 1..3 resources, each automatic (v4, v6 or CNAME) or explicit (addrs_v4 and/or
 * addrs_v6); per set grouped or not, multi or not, 1..64 items or groups of 1..64
 * addresses, weights (edge values likely), up_thresh, service_types set at top /
 * resource / stanza level, duplicated addresses, non-canonical spellings; then a
 * monitoring state over three service types, a seed and up to MAX_QUERIES queries, then
 * a state change and up to MAX_QUERIES more queries.
 *
 * Each input's work is bounded (fuzz/README.md, "Bounded work"): the sets of a case hold
 * at most MAX_CASE_ITEMS items in all (once that budget is spent each further set or
 * group gets one), however few bytes ask for them (a group size is one byte); 64 groups
 * of 64, 4096 items, are the statistical suite's generated cases (stats/README.md). A
 * phase runs at most MAX_QUERIES queries.
 *
 * The case is written as a whole gdnsd config in memory and loaded (a valid generated
 * config must load); the state is applied through the public state API. For every
 * query an oracle written here from the contract text of resolve.h gives the expected
 * answer from words it draws itself: from the default PRNG, or placed exactly on (or
 * one below) the boundary of the decision they feed, where off-by-one errors live. The
 * producer asserts only its own preconditions (the combined state of each item is what
 * the case set; the oracle used the contract's word count); each target checks one
 * property on what it produces. */
#ifndef WSEL_FUZZ_WEIGHTED_H
#define WSEL_FUZZ_WEIGHTED_H

#include <stdbool.h>

#include "fuzz.h"
#include "wsel.h"
#include "kit/kit.h"

#define MAX_SETS 6
#define MAX_CASE_ITEMS 64          /* items of all sets together (+1 per set past it) */
#define MAX_SET_ITEMS MAX_CASE_ITEMS
#define MAX_QUERIES 8              /* queries per phase */
#define MAX_KEYS (MAX_CASE_ITEMS + MAX_SETS)
#define NSVC 3
#define MAX_RESOLVERS WSEL_KIT_MAX_VARIANTS

extern const char *const svc_names[NSVC];

typedef struct svc_list {
    const char *text;
    int n;
    const char *names[2];
} svc_list;

extern const svc_list svc_lists[];
extern const size_t n_svc_lists;

typedef struct exp_item {
    uint32_t weight;
    uint32_t key;          /* index into the key table */
    uint16_t group;
} exp_item;

typedef struct exp_set {
    wsel_kind kind;
    bool grouped, multi;
    double ut;
    int svc;               /* index into svc_lists */
    uint32_t n_items, n_groups;
    uint32_t gsize[64];
    exp_item *items;
} exp_set;

typedef struct key_ent {
    char canon[64];
    wsel_kind kind;
    /* The state this case set, per custom service type. */
    bool set[NSVC];
    bool up[NSVC];
    uint32_t ttl[NSVC];
} key_ent;

typedef struct fcase {
    uint32_t n_res;
    uint32_t res_sets[3];
    uint32_t n_sets;
    exp_set sets[MAX_SETS];
    uint32_t n_keys;
    key_ent *keys;
    uint32_t items_left;   /* of MAX_CASE_ITEMS */
} fcase;

typedef struct set_truth {
    uint64_t dyn[MAX_SET_ITEMS];
    bool up[MAX_SET_ITEMS];
    uint64_t dyn_sum;
    bool failed;
    uint32_t ttl;
} set_truth;

/* One run over one input. */
typedef struct wfz {
    fcase c;
    sbuf text;
    wsel_config *cfg;
    wsel_state *st;
    size_t nrv;
    wsel_resolver *rv[MAX_RESOLVERS];   /* every variant wsel_kit_variants lists, "fast" too */
    const char *rv_name[MAX_RESOLVERS];
    set_truth truth[MAX_SETS];          /* per set, under the current state */
    wsel_prng direct;                   /* the default generator the queries share */
    void *user;                         /* the target's own state */
} wfz;

/* One query of a phase: target resource r, the oracle's answer and the words it drew. */
typedef struct wfz_query {
    uint32_t q, r;
    const wsel_resource *res;
    wsel_answer want;
    const uint64_t *words;
    size_t nwords;
} wfz_query;

/* What a target checks. Any hook may be NULL; without `query` the phases' parameters
 * are still read from the input (so later parts decode the same) but no query runs.
 * The resolvers are built only for a target that asks for them (`resolvers`). */
typedef struct wfz_target {
    void (*loaded)(wfz *w);                     /* config loaded, nothing set yet */
    void (*state_set)(wfz *w);                  /* after each state change */
    void (*phase_begin)(wfz *w);                /* truth[] known, before the queries */
    void (*query)(wfz *w, const wfz_query *q);
    void (*phase_end)(wfz *w);
    bool resolvers;     /* build w->rv (a resolver per engine variant): the query hook uses them */
    bool one_variant;   /* with resolvers: only the variant the input's last byte picks
                           (modulo their number; the decoding reads from the front, so
                           the case is the same whichever variant runs it) */
    bool keep_config;   /* keep the loaded config for the next input, which uses it when
                           it generates the same config text (the config is a function of
                           those bytes, and nothing writes to it: every API that reads it
                           takes it const); for a target that does not check the load */
} wfz_target;

/* Decodes data, loads, applies the first state, runs a query phase, applies the second
 * state (published to the resolvers with wsel_resolver_sync) and runs another phase. */
int wfz_run(const uint8_t *data, size_t size, const wfz_target *t);

/* The contract's word count of a set, from the case (not from the library). */
size_t wfz_contract_words(const exp_set *es);

#endif
