/* Hand-made models: the model structs are public, so a caller can pass a resource the
 * loader never built. The engines must refuse one that breaks the model's rules
 * (set and group sizes, group ranges, unknown mode, set count, a resource not of the
 * resolver's config) with WSEL_E_ARG instead of reading out of bounds. Valid copies
 * of loaded resources must still resolve, so the refusals are not blanket ones. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "wsel.h"
#include "kit/kit.h"
#include "support/support.h"

static const char text[] =
    "single => { a => [ 192.0.2.1, 1 ], b => [ 192.0.2.2, 2 ] }\n"
    "grouped => { multi => true, g1 => { a => [ 10.0.0.1, 1 ], b => [ 10.0.0.2, 2 ] }\n"
    "             g2 => { c => [ 10.0.0.3, 3 ] } }\n";

typedef struct fixture { /* cfg, st first: wsel_test_teardown frees them */
    wsel_config *cfg;
    wsel_state *st;
    wsel_prng prng;
    wsel_rng rng;
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    wsel_error err;
    if (!f || wsel_config_load_buffer("model.conf", text, sizeof text - 1, NULL, &f->cfg, &err) ||
        wsel_state_new(f->cfg, &f->st, &err))
        return -1;
    wsel_prng_seed(&f->prng, 7);
    f->rng = wsel_prng_rng(&f->prng);
    *state = f;
    return 0;
}

/* Copies of one loaded resource and its sets, to break one field at a time. */
typedef struct copy {
    wsel_resource res;
    wsel_set sets[2];
    wsel_group groups[64];
    wsel_item items[8];
} copy;

static void make_copy(copy *c, const wsel_resource *res)
{
    c->res = *res;
    memcpy(c->sets, res->sets, res->n_sets * sizeof *res->sets);
    c->res.sets = c->sets;
    if (c->sets[0].n_groups) {
        memcpy(c->groups, c->sets[0].groups, c->sets[0].n_groups * sizeof *c->groups);
        c->sets[0].groups = c->groups;
    }
    if (c->sets[0].n_items <= 8) {
        memcpy(c->items, c->sets[0].items, c->sets[0].n_items * sizeof *c->items);
        c->sets[0].items = c->items;
    }
}

static void expect_refused(fixture *f, const copy *c, const char *what)
{
    wsel_answer ans;
    int rc = wsel_ref_resolve(&c->res, f->st, &f->rng, &ans);
    if (rc != WSEL_E_ARG)
        fail_msg("%s: wsel_ref_resolve returned %d, expected WSEL_E_ARG", what, rc);
    /* the odds calculator applies the same validator */
    wsel_odds *o = NULL;
    wsel_error err;
    rc = wsel_odds_compute(&c->res, f->st, &o, &err);
    if (rc != WSEL_E_ARG)
        fail_msg("%s: wsel_odds_compute returned %d, expected WSEL_E_ARG", what, rc);
    assert_null(o);
}

/* A fresh copy of `base`, one change, and both engines must refuse it. */
#define REFUSED(base, change, what)                                                        \
    do {                                                                                   \
        make_copy(&c, base);                                                               \
        change;                                                                            \
        expect_refused(f, &c, what);                                                       \
    } while (0)

static void test_ref_refuses(void **state)
{
    fixture *f = *state;
    const wsel_resource *single = wsel_config_find(f->cfg, "single");
    const wsel_resource *grouped = wsel_config_find(f->cfg, "grouped");
    assert_non_null(single);
    assert_non_null(grouped);
    copy c;
    wsel_answer ans;

    make_copy(&c, single);
    assert_int_equal(wsel_ref_resolve(&c.res, f->st, &f->rng, &ans), WSEL_OK);
    assert_int_equal(ans.set[0].count, 1);
    c.res.n_sets = 0;
    expect_refused(f, &c, "no sets");
    c.res.n_sets = 3;
    expect_refused(f, &c, "three sets");

    REFUSED(single, c.sets[0].n_items = 0, "empty set");
    REFUSED(single, c.sets[0].items = NULL, "no items");
    REFUSED(single, c.sets[0].n_items = 65, "65 items ungrouped");
    REFUSED(single, c.sets[0].mode = (wsel_mode)99, "unknown mode");

    make_copy(&c, grouped);
    assert_int_equal(wsel_ref_resolve(&c.res, f->st, &f->rng, &ans), WSEL_OK);
    c.sets[0].groups = NULL;
    expect_refused(f, &c, "no groups");
    REFUSED(grouped, c.sets[0].n_groups = 0, "zero groups");
    REFUSED(grouped, c.sets[0].n_groups = 65, "65 groups");
    REFUSED(grouped, c.groups[1].count = 0, "empty group");
    REFUSED(grouped, c.groups[1].first = 3, "group starting past the items");
    REFUSED(grouped, c.groups[1].count = 2, "group running past the items");
    REFUSED(grouped, c.sets[0].max_group = 1, "group larger than max_group");
    REFUSED(grouped, c.sets[0].max_group = 3, "max_group larger than the largest group");
    REFUSED(grouped, c.groups[1].total = 4, "group total not the sum of its weights");

    /* weights, totals and the threshold: every engine must agree on them */
    REFUSED(single, c.items[1].weight = 0, "weight 0");
    REFUSED(single, c.items[0].weight = 1048576, "weight above 1048575");
    REFUSED(single, c.sets[0].total = 4, "total not the sum of the weights");
    REFUSED(single, c.sets[0].threshold += 1, "threshold not ceil(total * up_thresh)");
    REFUSED(single, c.sets[0].grouped = true, "grouped flag on an ungrouped mode");
    make_copy(&c, grouped);
    assert_int_equal(wsel_ref_resolve(&c.res, f->st, &f->rng, &ans), WSEL_OK);
    wsel_odds *o = NULL;
    assert_int_equal(wsel_odds_compute(&c.res, f->st, &o, NULL), WSEL_OK);
    wsel_odds_free(o);
}

static void test_resolver_refuses(void **state)
{
    fixture *f = *state;
    wsel_error err;
    const wsel_resource *single = wsel_config_find(f->cfg, "single");
    const char *names[WSEL_KIT_MAX_VARIANTS];
    size_t nv = wsel_kit_variants(names, WSEL_KIT_MAX_VARIANTS, true);
    for (size_t e = 0; e < nv; e++) {
        bool is_ref = strcmp(names[e], "ref") == 0;
        wsel_resolver *rv = NULL;
        assert_int_equal(wsel_kit_resolver_new(f->cfg, f->st, names[e], &rv, &err), WSEL_OK);
        wsel_answer ans;
        copy c;
        make_copy(&c, single);
        /* The ref engine reads the resource itself, so a faithful copy resolves; fast
         * resolvers hold tables for their config's own resources only. */
        if (is_ref)
            assert_int_equal(wsel_resolve(rv, &c.res, &f->rng, &ans), WSEL_OK);
        c.res.index = 999;
        if (!is_ref)
            assert_int_equal(wsel_resolve(rv, &c.res, &f->rng, &ans), WSEL_E_ARG);
        assert_int_equal(wsel_resolve(rv, single, &f->rng, &ans), WSEL_OK);
        assert_int_equal(wsel_resolve(rv, NULL, &f->rng, &ans), WSEL_E_ARG);
        assert_int_equal(wsel_resolve(rv, single, NULL, &ans), WSEL_E_ARG);
        assert_int_equal(wsel_resolve(rv, single, &f->rng, NULL), WSEL_E_ARG);
        assert_int_equal(wsel_resolve(NULL, single, &f->rng, &ans), WSEL_E_ARG);
        wsel_resolver_free(rv);
    }
    assert_int_not_equal(wsel_resolver_sync(NULL), WSEL_OK);
}

static void test_answer_equal_edges(void **state)
{
    (void)state;
    wsel_answer a;
    memset(&a, 0, sizeof a);
    a.n_sets = 1;
    a.set[0].count = 1;
    assert_true(wsel_answer_equal(&a, &a));
    assert_false(wsel_answer_equal(&a, NULL));
    assert_false(wsel_answer_equal(NULL, &a));
}

int main(void)
{
    cmocka_set_message_output(CM_OUTPUT_TAP);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ref_refuses),
        cmocka_unit_test(test_resolver_refuses),
        cmocka_unit_test(test_answer_equal_edges),
    };
    return cmocka_run_group_tests_name("coverage_model", tests, setup, wsel_test_teardown);
}
