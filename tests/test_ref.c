/* The reference engine against the page's rules and the random-word contract (resolve.h).
 * Expected answers are worked out by hand from the contract's formulas: the word at which
 * a CHOOSE moves from item i to i+1 is the smallest w with w * D >= c * 2^64, i.e.
 * ceil(c * 2^64 / D), computed by the kit's wsel_kit_edge_sat() by division rather than
 * by the engine's multiplication. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "support/support.h"

typedef struct fixture {
    wsel_config *cfg;
    wsel_state *st;
} fixture;

static fixture setup_text(const char *text)
{
    fixture f = { wsel_test_load(text), NULL };
    assert_int_equal(wsel_state_new(f.cfg, &f.st, NULL), WSEL_OK);
    return f;
}

static void teardown_fx(fixture *f)
{
    wsel_state_free(f->st);
    wsel_config_free(f->cfg);
}

/* Resolves `res` with exactly the given words; fails if it consumes a different number. */
static wsel_answer run(const fixture *f, const char *name, const uint64_t *w, size_t n)
{
    const wsel_resource *res = wsel_config_find(f->cfg, name);
    assert_non_null(res);
    assert_int_equal(wsel_resource_words(res), n);
    wsel_kit_replay rp;
    wsel_rng rng = wsel_kit_replay_rng(&rp, w, n);
    wsel_answer ans;
    assert_int_equal(wsel_ref_resolve(res, f->st, &rng, &ans), WSEL_OK);
    assert_int_equal(rp.pos, n);
    assert_int_equal(rp.overrun, 0);
    return ans;
}

static void expect_items(const wsel_set_answer *a, unsigned n, ...)
{
    va_list ap;
    va_start(ap, n);
    assert_int_equal(a->count, n);
    for (unsigned i = 0; i < n; i++)
        assert_int_equal(a->items[i], va_arg(ap, unsigned));
    va_end(ap);
}

static void set_down(fixture *f, const char *svc, const char *key, uint32_t ttl)
{
    assert_int_equal(wsel_state_set(f->st, svc, key, false, ttl, NULL, NULL), WSEL_OK);
}

/* One query: resource, its words, and the expected answer of its first set (failed and
 * TTL of the whole answer; -1 leaves them unasserted). */
typedef struct word_case {
    const char *res;
    size_t n;
    uint64_t w[5];
    int failed;
    unsigned count;
    unsigned items[4];
    int64_t ttl;
} word_case;

static void check_words(const fixture *f, const word_case *c, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        wsel_answer a = run(f, c[i].res, c[i].w, c[i].n);
        bool same = a.set[0].count == c[i].count;
        for (unsigned k = 0; same && k < c[i].count; k++)
            same = a.set[0].items[k] == c[i].items[k];
        if (c[i].failed >= 0)
            same = same && a.failed == (c[i].failed == 1) &&
                   (a.n_sets > 1 || a.set[0].failed == a.failed);
        if (c[i].ttl >= 0)
            same = same && a.ttl == (uint64_t)c[i].ttl;
        if (!same)
            fail_msg("case %zu (%s, first word %#llx): %u items, first %u, failed %d, ttl %u",
                     i, c[i].res, (unsigned long long)c[i].w[0], a.set[0].count,
                     a.set[0].count ? a.set[0].items[0] : 0u, a.failed, a.ttl);
    }
}

/* ---- single: the page's 45/60/75 example ---- */
static void test_single_boundaries(void **unused)
{
    (void)unused;
    fixture f = setup_text("X => {\n lb01 => [ 192.0.2.1, 45 ]\n lb02 => [ 192.0.2.1, 60 ]\n"
                           " lb03 => [ 192.0.2.1, 75 ]\n}\n");
    /* buckets: [0,45) -> lb01, [45,105) -> lb02, [105,180) -> lb03 */
    uint64_t b1 = wsel_kit_edge_sat(45, 180), b2 = wsel_kit_edge_sat(105, 180);
    assert_true(b1 == (uint64_t)1 << 62); /* 45/180 = 1/4 exactly */
    struct { uint64_t w; unsigned item; } cases[] = {
        { 0, 0 }, { b1 - 1, 0 }, { b1, 1 }, { b2 - 1, 1 }, { b2, 2 }, { UINT64_MAX, 2 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        wsel_answer a = run(&f, "X", &cases[i].w, 1);
        assert_int_equal(a.n_sets, 1);
        expect_items(&a.set[0], 1, cases[i].item);
        assert_false(a.failed);
        assert_int_equal(a.ttl, WSEL_MAX_TTL);
    }
    teardown_fx(&f);
}

/* ---- ungrouped multi: the page's 45/60/60 example ---- */
static void test_multi_boundaries(void **unused)
{
    (void)unused;
    fixture f = setup_text("X => {\n multi => true\n lb01 => [ 192.0.2.1, 45 ]\n"
                           " lb02 => [ 192.0.2.1, 60 ]\n lb03 => [ 192.0.2.1, 60 ]\n}\n");
    uint64_t b = wsel_kit_edge_sat(45, 60), top = UINT64_MAX; /* 3/4 of 2^64 */
    assert_true(b == (uint64_t)3 << 62);
    const word_case cases[] = {
        { "X", 3, { b - 1, top, top }, 0, 3, { 0, 1, 2 }, WSEL_MAX_TTL },
        { "X", 3, { b, top, top }, 0, 2, { 1, 2 }, WSEL_MAX_TTL },
        /* the words of lb02/lb03 are drawn but cannot exclude a maximum-weight item */
        { "X", 3, { 0, 0, 0 }, 0, 3, { 0, 1, 2 }, WSEL_MAX_TTL },
    };
    check_words(&f, cases, sizeof cases / sizeof cases[0]);
    teardown_fx(&f);
}

/* ---- up_thresh: strict less-than, and gdnsd's double rounding ---- */
static void test_threshold(void **unused)
{
    (void)unused;
    /* T = 14, up_thresh 0.5: threshold 7 */
    fixture f = setup_text("service_types = svc_a\n"
                           "eq => { a => [ 10.0.0.1, 7 ]\n b => [ 10.0.0.2, 7 ] }\n"
                           "lt => { a => [ 10.0.1.1, 6 ]\n b => [ 10.0.1.2, 8 ] }\n"
                           "t7 => { up_thresh => 0.07\n a => [ 10.0.2.1, 7 ]\n b => [ 10.0.2.2, 93 ] }\n"
                           "t8 => { up_thresh => 0.07\n a => [ 10.0.3.1, 8 ]\n b => [ 10.0.3.2, 92 ] }\n");
    set_down(&f, "svc_a", "10.0.0.2", 60);
    set_down(&f, "svc_a", "10.0.1.2", 60);
    set_down(&f, "svc_a", "10.0.2.2", 60);
    set_down(&f, "svc_a", "10.0.3.2", 60);
    uint64_t top = UINT64_MAX, e = wsel_kit_edge_sat(6, 14);
    const word_case cases[] = {
        /* dynamic sum 7 == threshold 7: no reset, DOWN b never chosen */
        { "eq", 1, { top }, 0, 1, { 0 }, 60 },
        /* dynamic sum 6 < 7: reset; the top word now lands on b (weights 6, 8) */
        { "lt", 1, { top }, 1, 1, { 1 }, -1 },
        { "lt", 1, { e - 1 }, 1, 1, { 0 }, -1 },
        { "lt", 1, { e }, 1, 1, { 1 }, -1 },
        /* T = 100, up_thresh 0.07: 100 * 0.07 is 7.000000000000001 in double, threshold 8 */
        { "t7", 1, { top }, 1, 1, { 1 }, -1 },
        /* an UP weight of 8 meets it */
        { "t8", 1, { top }, 0, 1, { 0 }, -1 },
    };
    assert_int_equal(wsel_config_find(f.cfg, "t7")->sets[0].threshold, 8);
    check_words(&f, cases, sizeof cases / sizeof cases[0]);
    teardown_fx(&f);
}

/* ---- TTL: smallest over every item (chosen or not), over all services ---- */
static void test_ttl(void **unused)
{
    (void)unused;
    fixture f = setup_text("R => { service_types => [ svc_a, svc_b ]\n"
                           " a => [ 10.0.0.1, 10 ]\n b => [ 10.0.0.2, 1 ]\n c => [ 10.0.0.3, 1 ] }\n");
    uint64_t w0 = 0;
    wsel_answer a = run(&f, "R", &w0, 1);
    assert_int_equal(a.ttl, WSEL_MAX_TTL);
    /* c is UP with a short TTL in svc_b: the answer (a) is capped by it */
    assert_int_equal(wsel_state_set(f.st, "svc_b", "10.0.0.3", true, 30, NULL, NULL), 0);
    assert_int_equal(wsel_state_set(f.st, "svc_a", "10.0.0.2", true, 40, NULL, NULL), 0);
    a = run(&f, "R", &w0, 1);
    expect_items(&a.set[0], 1, 0);
    assert_int_equal(a.set[0].ttl, 30);
    assert_int_equal(a.ttl, 30);
    /* DOWN in one service only makes b DOWN: with weights 10,0,1 (sum 11 >= 6) the
     * word just past a's bucket goes to c, not b */
    set_down(&f, "svc_a", "10.0.0.2", 100);
    uint64_t w = wsel_kit_edge_sat(10, 11);
    a = run(&f, "R", &w, 1);
    expect_items(&a.set[0], 1, 2);
    assert_false(a.failed);
    assert_int_equal(a.ttl, 30);
    w--;
    a = run(&f, "R", &w, 1);
    expect_items(&a.set[0], 1, 0);
    teardown_fx(&f);
}

/* ---- grouped single: the synopsis' cdnwww layout ---- */
static void test_grouped_single(void **unused)
{
    (void)unused;
    fixture f = setup_text("cdn => {\n service_types = svc_a\n"
                           " dc1 => { l1 = [ 127.0.0.1, 2 ]\n l2 = [ 127.0.0.2, 2 ] }\n"
                           " dc2 => { l1 = [ 127.0.0.3, 2 ]\n l2 = [ 127.0.0.4, 2 ]\n"
                           "          l3 = [ 127.0.0.5, 1 ] }\n}\n");
    /* words: 1 + A = 1 + 3; groups 4 and 5 of D = 9; l3 (weight 1, group max 2) is
     * included below the word 2^63. w[3] is unused when dc1 (two addresses) is chosen. */
    uint64_t g = wsel_kit_edge_sat(4, 9), h = wsel_kit_edge_sat(1, 2), top = UINT64_MAX;
    const word_case all_up[] = {
        { "cdn", 4, { g - 1, top, top, 0 }, 0, 2, { 0, 1 }, WSEL_MAX_TTL },
        { "cdn", 4, { g, top, top, h - 1 }, 0, 3, { 2, 3, 4 }, -1 },
        { "cdn", 4, { g, top, top, h }, 0, 2, { 2, 3 }, -1 },
    };
    check_words(&f, all_up, sizeof all_up / sizeof all_up[0]);
    /* one address of dc2 DOWN: dc2 weighs 3, its max is still 2 (sum 7 >= ceil(4.5)) */
    set_down(&f, "svc_a", "127.0.0.4", 5);
    uint64_t g2 = wsel_kit_edge_sat(4, 7);
    const word_case one_down[] = {
        { "cdn", 4, { g2 }, 0, 2, { 2, 4 }, 5 },
        { "cdn", 4, { g2 - 1 }, 0, 2, { 0, 1 }, 5 },
    };
    check_words(&f, one_down, sizeof one_down / sizeof one_down[0]);
    teardown_fx(&f);
}

/* ---- grouped multi, and a resource with both families (word order v4 then v6) ---- */
static void test_grouped_multi(void **unused)
{
    (void)unused;
    fixture f = setup_text("gm => {\n multi = true\n service_types = svc_a\n"
                           " g0 => { a = [ 10.0.0.1, 3 ]\n b = [ 10.0.0.2, 1 ] }\n"
                           " g1 => { c = [ 10.0.0.3, 2 ] }\n}\n"
                           "mixed => {\n addrs_v4 => { lb1 = [ 127.0.0.3, 2 ]\n lb2 = [ 127.0.0.4, 2 ] }\n"
                           " addrs_v6 => { multi => true\n"
                           "  s1 = { lb01 => [ 2001:db8::123, 4 ]\n lb02 => [ 2001:db8::456, 1 ] }\n"
                           "  s2 = { lb01 => [ 2001:db8::789, 4 ]\n lb02 => [ 2001:db8::ABC, 1 ] }\n }\n}\n");
    /* gm: G = (4, 2), M = 4. w[0] include g0 (always), w[1] include g1 iff w < 2^63,
     * w[2] choose in g0 (a iff w < wsel_kit_edge_sat(3,4)), w[3] choose in g1 */
    uint64_t g1 = wsel_kit_edge_sat(2, 4), a3 = wsel_kit_edge_sat(3, 4), top = UINT64_MAX;
    const word_case all_up[] = {
        { "gm", 4, { top, g1 - 1, a3 - 1, top }, 0, 2, { 0, 2 }, -1 },
        { "gm", 4, { top, g1, a3, top }, 0, 1, { 1 }, -1 },
    };
    check_words(&f, all_up, sizeof all_up / sizeof all_up[0]);
    /* a DOWN: G = (1, 2), M = 2 (sum 3 >= ceil(3)); g0 now included iff w[0] < 2^63,
     * and g0's only choice is b */
    set_down(&f, "svc_a", "10.0.0.1", 9);
    uint64_t h = wsel_kit_edge_sat(1, 2);
    const word_case a_down[] = {
        { "gm", 4, { h - 1, top, 0, 0 }, 0, 2, { 1, 2 }, 9 },
        { "gm", 4, { h, top, 0, 0 }, 0, 1, { 2 }, 9 },
    };
    check_words(&f, a_down, sizeof a_down / sizeof a_down[0]);

    /* mixed: 1 word for addrs_v4 (single), then 2G = 4 for addrs_v6 */
    uint64_t m[5] = { wsel_kit_edge_sat(2, 4), UINT64_MAX, UINT64_MAX, wsel_kit_edge_sat(4, 5) - 1, wsel_kit_edge_sat(4, 5) };
    wsel_answer a = run(&f, "mixed", m, 5);
    assert_int_equal(a.n_sets, 2);
    expect_items(&a.set[0], 1, 1);
    expect_items(&a.set[1], 2, 0, 3); /* s1/lb01 and s2/lb02 */
    teardown_fx(&f);
}

/* ---- CNAMEs: one word, CHOOSE ---- */
static void test_cname(void **unused)
{
    (void)unused;
    fixture f = setup_text("corp => {\n multi = true\n lb01 = [ lb01.example.org., 99 ]\n"
                           " lb02 = [ lb02.example.org., 15 ]\n lb03 = [ lb03.example.org., 1 ]\n}\n");
    uint64_t e = wsel_kit_edge_sat(114, 115);
    const word_case cases[] = {
        { "corp", 1, { e }, 0, 1, { 2 }, WSEL_MAX_TTL },
        { "corp", 1, { e - 1 }, 0, 1, { 1 }, WSEL_MAX_TTL },
    };
    check_words(&f, cases, sizeof cases / sizeof cases[0]);
    teardown_fx(&f);
}

/* ---- invariants over generated configs and states ---- */
static void check_invariants(const wsel_resource *res, const wsel_state *st,
                             const wsel_answer *a)
{
    assert_int_equal(a->n_sets, res->n_sets);
    uint32_t ttl_all = WSEL_MAX_TTL;
    bool failed_any = false;
    for (uint32_t s = 0; s < res->n_sets; s++) {
        const wsel_set *set = &res->sets[s];
        const wsel_set_answer *sa = &a->set[s];
        uint64_t T = 0, sum = 0;
        uint32_t ttl = WSEL_MAX_TTL;
        bool up[64 * 64];
        for (uint32_t i = 0; i < set->n_items; i++) {
            wsel_mstate ms = wsel_state_item(st, set, &set->items[i]);
            up[i] = ms.up;
            T += set->items[i].weight;
            sum += ms.up ? set->items[i].weight : 0;
            if (ms.ttl < ttl)
                ttl = ms.ttl;
        }
        uint64_t thr = (uint64_t)ceil((double)T * set->up_thresh);
        bool failed = sum < thr;
        assert_int_equal(sa->failed, failed);
        assert_int_equal(sa->ttl, ttl);
        assert_true(sa->count >= 1);
        uint32_t d[64 * 64];
        for (uint32_t i = 0; i < set->n_items; i++)
            d[i] = (up[i] || failed) ? set->items[i].weight : 0;
        bool in[64 * 64] = { false };
        for (unsigned k = 0; k < sa->count; k++) {
            assert_true(sa->items[k] < set->n_items);
            if (k)
                assert_true(sa->items[k] > sa->items[k - 1]);
            in[sa->items[k]] = true;
            assert_true(d[sa->items[k]] > 0); /* never a DOWN item unless reset */
        }
        switch (set->mode) {
        case WSEL_MODE_CNAME:
        case WSEL_MODE_UNGROUPED_SINGLE:
            assert_int_equal(sa->count, 1);
            break;
        case WSEL_MODE_UNGROUPED_MULTI: {
            uint32_t m = 0;
            for (uint32_t i = 0; i < set->n_items; i++)
                m = d[i] > m ? d[i] : m;
            for (uint32_t i = 0; i < set->n_items; i++)
                if (d[i] == m)
                    assert_true(in[i]);
            break;
        }
        case WSEL_MODE_GROUPED_SINGLE: {
            uint16_t g = set->items[sa->items[0]].group;
            const wsel_group *grp = &set->groups[g];
            uint32_t m = 0;
            for (uint32_t j = 0; j < grp->count; j++)
                m = d[grp->first + j] > m ? d[grp->first + j] : m;
            for (uint32_t j = 0; j < grp->count; j++)
                if (d[grp->first + j] == m)
                    assert_true(in[grp->first + j]);
            for (unsigned k = 0; k < sa->count; k++)
                assert_int_equal(set->items[sa->items[k]].group, g);
            break;
        }
        case WSEL_MODE_GROUPED_MULTI: {
            uint64_t gw[64] = { 0 }, m = 0;
            unsigned per[64] = { 0 };
            for (uint32_t i = 0; i < set->n_items; i++)
                gw[set->items[i].group] += d[i];
            for (uint32_t g = 0; g < set->n_groups; g++)
                m = gw[g] > m ? gw[g] : m;
            for (unsigned k = 0; k < sa->count; k++)
                per[set->items[sa->items[k]].group]++;
            for (uint32_t g = 0; g < set->n_groups; g++) {
                assert_true(per[g] <= 1);
                if (gw[g] == m)
                    assert_int_equal(per[g], 1);
            }
            break;
        }
        }
        if (sa->ttl < ttl_all)
            ttl_all = sa->ttl;
        failed_any |= sa->failed;
    }
    assert_int_equal(a->ttl, ttl_all);
    assert_int_equal(a->failed, failed_any);
}

static void test_invariants_generated(void **unused)
{
    (void)unused;
    unsigned configs = getenv("WSEL_TEST_QUICK") || wsel_kit_under_valgrind() ? 30 : 200;
    for (unsigned seed = 1; seed <= configs; seed++) {
        char *text = wsel_kit_weighted_gen_config(seed, NULL);
        assert_non_null(text);
        wsel_config *cfg = wsel_test_load(text);
        wsel_state *st = NULL;
        assert_int_equal(wsel_state_new(cfg, &st, NULL), WSEL_OK);
        uint64_t rs = seed;
        for (unsigned pattern = 0; pattern < 4; pattern++) {
            double p_down = pattern == 0 ? 0.0 : pattern == 3 ? 0.95 : 0.3 * pattern;
            wsel_test_random_state(st, cfg, seed * 7 + pattern, p_down, pattern & 1);
            wsel_prng prng;
            wsel_prng_seed(&prng, wsel_kit_mix(&rs));
            wsel_kit_counter cnt;
            wsel_rng rng = wsel_kit_counting_rng(&cnt, wsel_prng_rng(&prng));
            for (size_t r = 0; r < wsel_config_resource_count(cfg); r++) {
                const wsel_resource *res = wsel_config_resource(cfg, r);
                for (unsigned q = 0; q < 50; q++) {
                    uint64_t before = cnt.words;
                    wsel_answer a;
                    assert_int_equal(wsel_ref_resolve(res, st, &rng, &a), WSEL_OK);
                    size_t expect = 0;
                    for (uint32_t s = 0; s < res->n_sets; s++) {
                        const wsel_set *set = &res->sets[s];
                        switch (set->mode) {
                        case WSEL_MODE_CNAME:
                        case WSEL_MODE_UNGROUPED_SINGLE: expect += 1; break;
                        case WSEL_MODE_UNGROUPED_MULTI: expect += set->n_items; break;
                        case WSEL_MODE_GROUPED_SINGLE: {
                            uint32_t A = 0;
                            for (uint32_t g = 0; g < set->n_groups; g++)
                                A = set->groups[g].count > A ? set->groups[g].count : A;
                            expect += 1 + A;
                            break;
                        }
                        case WSEL_MODE_GROUPED_MULTI: expect += 2 * set->n_groups; break;
                        }
                    }
                    assert_int_equal(cnt.words - before, expect);
                    assert_int_equal(wsel_resource_words(res), expect);
                    check_invariants(res, st, &a);
                }
            }
        }
        wsel_state_free(st);
        wsel_config_free(cfg);
        free(text);
    }
}

/* A forced-all-DOWN state (built-in `down`) always resets and answers as if all UP. */
static void test_builtin_down(void **unused)
{
    (void)unused;
    fixture f = setup_text("D => { service_types = down\n multi = true\n"
                           " a = [ 10.0.0.1, 1 ]\n b = [ 10.0.0.2, 2 ] }\n");
    uint64_t w[2] = { wsel_kit_edge_sat(1, 2) - 1, UINT64_MAX };
    wsel_answer a = run(&f, "D", w, 2);
    assert_true(a.failed);
    expect_items(&a.set[0], 2, 0, 1);
    teardown_fx(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_single_boundaries),
        cmocka_unit_test(test_multi_boundaries),
        cmocka_unit_test(test_threshold),
        cmocka_unit_test(test_ttl),
        cmocka_unit_test(test_grouped_single),
        cmocka_unit_test(test_grouped_multi),
        cmocka_unit_test(test_cname),
        cmocka_unit_test(test_builtin_down),
        cmocka_unit_test(test_invariants_generated),
    };
    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests_name("ref", tests, NULL, NULL);
}
