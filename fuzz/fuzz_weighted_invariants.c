/* fuzz_weighted_invariants: every answer obeys the invariants of doc/weighted.md §5.7.
 *
 * Property: the oracle's answer to each query of weighted.h's producer, and every
 * engine variant's answer from the default generator, passes the kit's invariant check
 * (wsel_kit_weighted_check: >= 1 item, config order, no DOWN item unless the set
 * failed, every max-weight item of a multi layer present, grouped-single within one
 * group, grouped-multi at most one address per group and every max-weight group there,
 * failed iff the dynamic sum is below ceil((double)T * up_thresh), TTL the minimum
 * over the set's items). The check is written apart from the oracle: a wrong oracle
 * and a wrong engine must agree to slip through. What the state makes of each set
 * (wsel_kit_weighted_truth_of) is worked out once per phase and serves every check of
 * it (bounded work, fuzz/README.md). */
#include "weighted.h"
#include "kit/kit_weighted.h"

/* What the state makes of each set, worked out once per phase (the state does not change
 * within one) by the kit's own code, and shared by the phase's checks. */
static wsel_kit_weighted_truth truth[MAX_SETS];

static void phase_begin(wfz *w)
{
    for (uint32_t s = 0; s < w->c.n_sets; s++)
        wsel_kit_weighted_truth_of(wsel_config_set(w->cfg, s), w->st, &truth[s]);
}

static const char *check(const wfz_query *qu, const wsel_answer *a, char *why, size_t len)
{
    const wsel_kit_weighted_truth *t[2] = { &truth[qu->res->sets[0].id], NULL };
    if (qu->res->n_sets > 1)
        t[1] = &truth[qu->res->sets[1].id];
    return wsel_kit_weighted_check_truths(qu->res, t, a, why, len);
}

static void query(wfz *w, const wfz_query *qu)
{
    char why[512];
    const char *bad = check(qu, &qu->want, why, sizeof why);
    FUZZ_ASSERT_MSG(!bad, "oracle, query %u: %s", qu->q, bad);
    for (size_t e = 0; e < w->nrv; e++) {
        wsel_prng p = w->direct;
        wsel_rng rng = wsel_prng_rng(&p);
        wsel_answer got;
        memset(&got, 0xa5, sizeof got);
        int rc = wsel_resolve(w->rv[e], qu->res, &rng, &got);
        FUZZ_ASSERT_MSG(rc == WSEL_OK, "%s: wsel_resolve %d", w->rv_name[e], rc);
        bad = check(qu, &got, why, sizeof why);
        FUZZ_ASSERT_MSG(!bad, "%s, query %u: %s", w->rv_name[e], qu->q, bad);
        if (e + 1 == w->nrv)
            w->direct = p;
    }
}

static const wfz_target target = { .phase_begin = phase_begin, .query = query, .resolvers = true };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return wfz_run(data, size, &target);
}
