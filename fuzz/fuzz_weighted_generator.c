/* fuzz_weighted_generator: the engines' own paths into the default generator.
 *
 * Property: the fast variants take a wsel_prng's words by paths of their own
 * (fast/README.md), which replayed words never reach. For each query of weighted.h's
 * producer, with one default generator shared by the queries (so its buffer position
 * moves), the engine variant the input picks (its last byte modulo the number of
 * variants, weighted.h's one_variant: each variant is fuzzed on its share of the inputs,
 * and an input builds one resolver instead of one per variant) answering
 * from a copy of it gives the answer wsel_ref_resolve gives from another copy, and
 * leaves the generator as ref leaves it: the same state and the same words still
 * buffered. */
#include "weighted.h"

static void query(wfz *w, const wfz_query *qu)
{
    wsel_answer want, got;
    wsel_prng pr = w->direct;
    wsel_rng rr = wsel_prng_rng(&pr);
    int rc = wsel_ref_resolve(qu->res, w->st, &rr, &want);
    FUZZ_ASSERT_MSG(rc == WSEL_OK, "wsel_ref_resolve (generator): %d", rc);
    for (size_t e = 0; e < w->nrv; e++) {
        const char *name = w->rv_name[e];
        wsel_prng pe = w->direct;
        wsel_rng re = wsel_prng_rng(&pe);
        memset(&got, 0xa5, sizeof got);
        rc = wsel_resolve(w->rv[e], qu->res, &re, &got);
        FUZZ_ASSERT_MSG(rc == WSEL_OK, "%s: wsel_resolve (generator) %d", name, rc);
        FUZZ_ASSERT_MSG(wsel_answer_equal(&want, &got),
                        "%s: query %u from the default generator differs from ref", name, qu->q);
        /* the same state, and the same words still buffered (past pos: dead) */
        FUZZ_ASSERT_MSG(pe.pos == pr.pos && memcmp(pe.s, pr.s, sizeof pe.s) == 0 &&
                            (pr.pos >= 4 || memcmp(pe.buf + pr.pos, pr.buf + pr.pos,
                                                   (4 - pr.pos) * sizeof pe.buf[0]) == 0),
                        "%s: query %u left the default generator elsewhere than ref", name, qu->q);
    }
    w->direct = pr;
}

static const wfz_target target = { .query = query, .resolvers = true, .one_variant = true };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return wfz_run(data, size, &target);
}
