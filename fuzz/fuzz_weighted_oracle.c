/* fuzz_weighted_oracle: every engine gives the answer the random-word contract defines.
 *
 * Property: for each query of weighted.h's producer, the oracle's words replayed into
 * wsel_ref_resolve and into a resolver of every engine variant (wsel_kit_variants:
 * ref, fast and each fast variant this CPU runs) give the oracle's answer -- equal
 * field by field and by wsel_answer_equal -- and consume exactly the contract's word
 * count, which wsel_set_words/wsel_resource_words also report; before and after a state
 * change published with wsel_resolver_sync(). */
#include "weighted.h"

static void compare(const char *engine, const wsel_answer *want, const wsel_answer *got,
                    const wsel_kit_replay *src, size_t nwords, uint32_t q)
{
    FUZZ_ASSERT_MSG(!src->overrun && src->pos == nwords,
                    "%s: query %u consumed %zu%s words, contract says %zu", engine, q, src->pos,
                    src->overrun ? "+" : "", nwords);
    FUZZ_ASSERT_MSG(want->n_sets == got->n_sets, "%s: n_sets %u vs %u", engine, got->n_sets,
                    want->n_sets);
    for (uint32_t s = 0; s < want->n_sets; s++) {
        const wsel_set_answer *a = &want->set[s], *b = &got->set[s];
        FUZZ_ASSERT_MSG(a->failed == b->failed, "%s: query %u set %u failed %d, oracle %d",
                        engine, q, s, b->failed, a->failed);
        FUZZ_ASSERT_MSG(a->ttl == b->ttl, "%s: query %u set %u ttl %u, oracle %u", engine, q, s,
                        b->ttl, a->ttl);
        FUZZ_ASSERT_MSG(a->count == b->count, "%s: query %u set %u: %u items, oracle %u", engine,
                        q, s, b->count, a->count);
        for (uint32_t k = 0; k < a->count; k++)
            FUZZ_ASSERT_MSG(a->items[k] == b->items[k],
                            "%s: query %u set %u item %u: %u, oracle %u", engine, q, s, k,
                            b->items[k], a->items[k]);
    }
    FUZZ_ASSERT_MSG(want->ttl == got->ttl && want->failed == got->failed,
                    "%s: overall ttl/failed %u/%d, oracle %u/%d", engine, got->ttl, got->failed,
                    want->ttl, want->failed);
    FUZZ_ASSERT_MSG(wsel_answer_equal(want, got) && wsel_answer_equal(got, want),
                    "%s: wsel_answer_equal disagrees with a field-by-field match", engine);
}

static void query(wfz *w, const wfz_query *qu)
{
    const wsel_resource *res = qu->res;
    uint32_t s0 = res->sets[0].id;
    for (uint32_t k = 0; k < res->n_sets; k++)
        FUZZ_ASSERT(wsel_set_words(&res->sets[k]) == wfz_contract_words(&w->c.sets[s0 + k]));
    FUZZ_ASSERT(wsel_resource_words(res) == qu->nwords);

    wsel_kit_replay src;
    wsel_rng rng = wsel_kit_replay_rng(&src, qu->words, qu->nwords);
    wsel_answer got;
    memset(&got, 0xa5, sizeof got);
    int rc = wsel_ref_resolve(res, w->st, &rng, &got);
    FUZZ_ASSERT_MSG(rc == WSEL_OK, "wsel_ref_resolve: %d", rc);
    compare("wsel_ref_resolve", &qu->want, &got, &src, qu->nwords, qu->q);

    for (size_t e = 0; e < w->nrv; e++) {
        rng = wsel_kit_replay_rng(&src, qu->words, qu->nwords);
        memset(&got, 0xa5, sizeof got);
        rc = wsel_resolve(w->rv[e], res, &rng, &got);
        FUZZ_ASSERT_MSG(rc == WSEL_OK, "%s: wsel_resolve %d", w->rv_name[e], rc);
        compare(w->rv_name[e], &qu->want, &got, &src, qu->nwords, qu->q);
    }
}

static const wfz_target target = { .query = query, .resolvers = true };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return wfz_run(data, size, &target);
}
