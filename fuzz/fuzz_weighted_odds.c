/* fuzz_weighted_odds: the exact-odds calculator agrees with the answers.
 *
 * Property: for every resource of weighted.h's producer, under each state,
 * wsel_odds_compute() -- written apart from both engines -- reports the failed flag,
 * TTL, UP flags and dynamic weights the case's state gives, probabilities in [0, 1];
 * and every oracle answer has probability above 0 for each item it holds, holds every
 * item the calculator calls certain, and is among the answers it lists when it
 * enumerates them (found by binary search: the list must be in the order odds.h
 * documents).
 *
 * The config loaded for the last input is used again when the next input generates
 * the same config text (wfz_target.keep_config): the load is what fuzz_config and
 * fuzz_weighted_model check, the odds of a config are checked here. */
#include "weighted.h"

typedef struct odds_run {
    wsel_odds *odds[3];
} odds_run;

static void check_odds_state(const wsel_odds *o, const exp_set *es, const set_truth *t,
                             uint32_t k)
{
    const wsel_set_odds *so = &o->sets[k];
    FUZZ_ASSERT_MSG(so->failed == t->failed && so->ttl == t->ttl,
                    "odds: failed %d ttl %u, expected %d %u", so->failed, so->ttl, t->failed, t->ttl);
    for (uint32_t i = 0; i < es->n_items; i++) {
        FUZZ_ASSERT_MSG(so->dyn_weight[i] == t->dyn[i] && so->up[i] == t->up[i],
                        "odds: item %u dyn %u up %d, expected %llu %d", i, so->dyn_weight[i],
                        so->up[i], (unsigned long long)t->dyn[i], t->up[i]);
        FUZZ_ASSERT(so->item_p[i].p >= 0 && so->item_p[i].p <= 1.0L);
    }
}

/* wsel_set_odds.answers' order: by items, lexicographically (a prefix first). */
static int cmp_answer(const void *key, const void *elem)
{
    const wsel_set_answer *a = key;
    const wsel_odds_answer *b = elem;
    uint32_t n = a->count < b->count ? a->count : b->count;
    for (uint32_t i = 0; i < n; i++)
        if (a->items[i] != b->items[i])
            return a->items[i] < b->items[i] ? -1 : 1;
    return a->count < b->count ? -1 : a->count > b->count;
}

static void check_odds_answer(const wsel_odds *o, const wsel_set_answer *a, uint32_t k,
                              uint32_t n_items)
{
    const wsel_set_odds *so = &o->sets[k];
    bool in[MAX_SET_ITEMS] = { false };
    for (uint32_t j = 0; j < a->count; j++) {
        FUZZ_ASSERT(a->items[j] < n_items);
        in[a->items[j]] = true;
    }
    for (uint32_t i = 0; i < n_items; i++) {
        const wsel_prob *p = &so->item_p[i];
        if (in[i])
            FUZZ_ASSERT_MSG(p->p > 0, "answer holds item %u, odds give it probability 0", i);
        else if (p->exact)
            FUZZ_ASSERT_MSG(p->num != p->den, "answer lacks item %u, odds say it is certain", i);
    }
    if (!so->enumerable)
        return;
    /* The list is sorted (odds.h): a binary search finds the answer if it is there. */
    const wsel_odds_answer *oa = bsearch(a, so->answers, so->n_answers, sizeof *so->answers,
                                         cmp_answer);
    FUZZ_ASSERT_MSG(oa != NULL, "answer of %u items is not among the %u answers the odds list",
                    a->count, so->n_answers);
    FUZZ_ASSERT(oa->p.p > 0);
}

static void phase_begin(wfz *w)
{
    odds_run *o = w->user;
    for (uint32_t r = 0; r < w->c.n_res; r++) {
        const wsel_resource *res = wsel_config_resource(w->cfg, r);
        wsel_error err;
        int rc = wsel_odds_compute(res, w->st, &o->odds[r], &err);
        FUZZ_ASSERT_MSG(rc == WSEL_OK, "odds_compute(%s): %d %s", res->name, rc, err.message);
        FUZZ_ASSERT(o->odds[r]->resource == res && o->odds[r]->n_sets == res->n_sets);
        for (uint32_t k = 0; k < res->n_sets; k++)
            check_odds_state(o->odds[r], &w->c.sets[res->sets[k].id],
                             &w->truth[res->sets[k].id], k);
    }
}

static void query(wfz *w, const wfz_query *qu)
{
    odds_run *o = w->user;
    uint32_t s0 = qu->res->sets[0].id;
    for (uint32_t k = 0; k < qu->res->n_sets; k++)
        check_odds_answer(o->odds[qu->r], &qu->want.set[k], k, w->c.sets[s0 + k].n_items);
}

static void phase_end(wfz *w)
{
    odds_run *o = w->user;
    for (uint32_t r = 0; r < 3; r++) {
        wsel_odds_free(o->odds[r]);
        o->odds[r] = NULL;
    }
}

static void loaded(wfz *w)
{
    static odds_run o;
    memset(&o, 0, sizeof o);
    w->user = &o;
}

static const wfz_target target = {
    .loaded = loaded, .phase_begin = phase_begin, .query = query, .phase_end = phase_end,
    .keep_config = true
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return wfz_run(data, size, &target);
}
