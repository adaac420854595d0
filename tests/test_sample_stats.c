/* The goodness of fit `wsel sample` runs (the kit's wsel_kit_weighted_set_fit and
 * wsel_kit_subtests_combine, kit_stat.h) is calibrated: under a correct engine its
 * combined p-value is uniform, for every mode and size, and a planted fault is found.
 *
 * Per case (one resource of generated weights), SEEDS runs of N draws with the fast
 * engine, each counted the way `wsel sample` counts (items, groups drawn, answers of
 * an enumerable set) and fitted against the exact-odds calculator. The SEEDS combined
 * p-values go through the kit's Kolmogorov-Smirnov test against the uniform law. For
 * contrast, the test `wsel sample` ran before (per-item binomial terms summed over the
 * whole set as if independent) is fitted to the same counts: it is not uniform on
 * grouped sets, and the KS test says so.
 *
 * Detection: a fault is planted in the counts of one address (its odds, conditional on
 * its group where it has one, moved by the relative amount e the kit's power formula
 * says the sub-test finds with power 0.9 at this N and level -- the formula of
 * stats/README.md), and the combined p must fall below 0.001 in most runs.
 *
 * `make check` runs the quick form; `make stats` runs it with --large. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "kit/kit_stat.h"
#include "support/support.h"

#define ALPHA 0.001        /* the level a combined p is called a finding at */
#define KS_LEVEL 0.001     /* a case's p-values are called non-uniform below this */
#define DETECT_RUNS 20
#define DETECT_MIN 14      /* of 20 at power 0.9: fewer has odds 0.0024 */

typedef struct scase {
    const char *name;
    unsigned groups, items; /* groups == 0: ungrouped with `items` items */
    bool multi, cname;
    bool expect_subtests;   /* the set is too large to enumerate */
} scase;

/* --large (`make stats`): 400 runs of 200000 draws (the N), power at 262144
 * draws (the quick stats suite's N). */
static bool large;

static unsigned seeds_n(void)
{
    return large ? 400 : wsel_kit_under_valgrind() ? 16 : 100;
}

static double draws_n(void)
{
    return large ? 200000 : wsel_kit_under_valgrind() ? 2000 : 20000;
}

/* A stanza-only config holding resource "r" of the case's shape, weights uniform in
 * 1 .. 1048575 from splitmix64 (seeded by the case). */
static char *case_text(const scase *c, uint64_t seed)
{
    size_t cap = 64 + (size_t)(c->groups ? c->groups : 1) * c->items * 64 + 64 * 64;
    char *t = malloc(cap);
    assert_non_null(t);
    size_t n = (size_t)snprintf(t, cap, "r => { multi => %s\n", c->multi ? "true" : "false");
    uint64_t s = seed;
    unsigned ng = c->groups ? c->groups : 1;
    for (unsigned g = 0; g < ng; g++) {
        if (c->groups)
            n += (size_t)snprintf(t + n, cap - n, " g%u => {\n", g);
        for (unsigned i = 0; i < c->items; i++) {
            unsigned w = (unsigned)(wsel_kit_mix(&s) % 1048575u) + 1;
            if (c->cname)
                n += (size_t)snprintf(t + n, cap - n, "  a%u => [ t%u.example.net., %u ]\n", i,
                                      i, w);
            else
                n += (size_t)snprintf(t + n, cap - n, "  a%u => [ 10.%u.%u.%u, %u ]\n", i, g,
                                      i / 250, i % 250 + 1, w);
        }
        if (c->groups)
            n += (size_t)snprintf(t + n, cap - n, " }\n");
    }
    n += (size_t)snprintf(t + n, cap - n, "}\n");
    assert_true(n < cap);
    return t;
}

/* The planted fault: one address's odds (given its group's draw) times 1 + e. */
typedef struct fault {
    bool on;
    uint32_t item, group; /* group: UINT32_MAX when ungrouped */
    double p, e;          /* the address's (conditional) odds, and the relative change */
    uint64_t rng;
} fault;

static double unit(uint64_t *s)
{
    return (double)(wsel_kit_mix(s) >> 11) * 0x1p-53;
}

typedef struct counts {
    double items[WSEL_MAX_ITEMS * WSEL_MAX_ITEMS];
    double groups[WSEL_MAX_ITEMS];
    double *answers; /* enumerable sets */
} counts;

/* One answer into the counts (ig: each item's group), with the fault applied. */
static void count_answer(const wsel_set *set, const wsel_set_odds *so, const uint8_t *ig,
                         const wsel_set_answer *a, counts *k, fault *f)
{
    if (k->answers) {
        long x = wsel_kit_find_answer(so, a->items, a->count);
        assert_true(x >= 0); /* a correct engine gives only listed answers */
        k->answers[x]++;
    }
    bool drawn = f->group == UINT32_MAX, in = false;
    uint32_t other = 0;
    int last = -1;
    for (uint32_t i = 0; i < a->count; i++) {
        uint32_t it = a->items[i];
        k->items[it]++;
        in |= it == f->item;
        if (!set->grouped)
            continue;
        if (ig[it] != last)
            k->groups[ig[it]]++;
        last = ig[it];
        if (ig[it] == f->group) {
            drawn = true;
            other = it;
        }
    }
    /* odds p -> p (1 + e): an absent address joins with odds p e / (1 - p); in a
     * grouped-multi group it replaces the one address chosen */
    if (f->on && drawn && !in && unit(&f->rng) < f->p * f->e / (1 - f->p)) {
        k->items[f->item]++;
        if (set->multi && set->grouped)
            k->items[other]--;
    }
}

typedef struct prepared {
    wsel_config *cfg;
    wsel_state *st;
    wsel_resolver *r;
    wsel_odds *o;
    const wsel_resource *res;
    uint8_t ig[WSEL_MAX_ITEMS * WSEL_MAX_ITEMS]; /* each item's group */
} prepared;

static void prepare(const scase *c, uint64_t seed, prepared *p)
{
    char *text = case_text(c, seed);
    p->cfg = wsel_test_load(text);
    free(text);
    wsel_error err;
    assert_int_equal(wsel_state_new(p->cfg, &p->st, &err), WSEL_OK);
    p->res = wsel_config_find(p->cfg, "r");
    assert_non_null(p->res);
    assert_int_equal(wsel_odds_compute(p->res, p->st, &p->o, &err), WSEL_OK);
    assert_int_equal(wsel_kit_resolver_new(p->cfg, p->st, "fast", &p->r, &err), WSEL_OK);
    assert_int_equal(p->o->sets[0].enumerable, !c->expect_subtests);
    const wsel_set *set = &p->res->sets[0];
    for (uint32_t g = 0; g < set->n_groups; g++)
        for (uint32_t j = 0; j < set->groups[g].count; j++)
            p->ig[set->groups[g].first + j] = (uint8_t)g;
}

static void unprepare(prepared *p)
{
    wsel_resolver_free(p->r);
    wsel_odds_free(p->o);
    wsel_state_free(p->st);
    wsel_config_free(p->cfg);
}

/* One run of N draws: the combined p `wsel sample` reports, and (*old) the p of the
 * former whole-set per-item test. */
static double run_once(const prepared *p, uint64_t seed, double N, fault *f, double *old,
                       size_t *m)
{
    const wsel_set *set = &p->res->sets[0];
    const wsel_set_odds *so = &p->o->sets[0];
    counts *k = calloc(1, sizeof *k);
    assert_non_null(k);
    if (so->enumerable) {
        k->answers = calloc(so->n_answers ? so->n_answers : 1, sizeof *k->answers);
        assert_non_null(k->answers);
    }
    wsel_prng prng;
    wsel_prng_seed(&prng, seed);
    wsel_rng rng = wsel_prng_rng(&prng);
    wsel_answer ans;
    for (double d = 0; d < N; d++) {
        assert_int_equal(wsel_resolve(p->r, p->res, &rng, &ans), WSEL_OK);
        count_answer(set, so, p->ig, &ans.set[0], k, f);
    }
    wsel_kit_set_counts c = { k->answers, k->items, set->grouped ? k->groups : NULL };
    wsel_kit_subtest t[WSEL_KIT_MAX_SUBTESTS];
    size_t n = wsel_kit_weighted_set_fit(so, 0, N, &c, t);
    wsel_kit_stat r = wsel_kit_subtests_combine(t, n);
    *m = 0;
    for (size_t i = 0; i < n; i++)
        *m += t[i].r.df > 0;
    if (old) {
        double ip[WSEL_MAX_ITEMS * WSEL_MAX_ITEMS];
        for (uint32_t i = 0; i < set->n_items; i++)
            ip[i] = (double)so->item_p[i].p;
        *old = wsel_kit_chisq_binoms(k->items, ip, set->n_items, N).p;
    }
    free(k->answers);
    free(k);
    return r.p;
}

static const scase cases[] = {
    { "ungrouped-single 64", 0, 64, false, false, false },
    { "cname 16", 0, 16, false, true, false },
    { "ungrouped-multi 8", 0, 8, true, false, false },
    { "ungrouped-multi 64", 0, 64, true, false, true },
    { "grouped-single 8x8", 8, 8, false, false, false },
    { "grouped-single 8x32", 8, 32, false, false, true },
    { "grouped-single 64x64", 64, 64, false, false, true },
    { "grouped-multi 4x4", 4, 4, true, false, false },
    { "grouped-multi 8x8", 8, 8, true, false, true },
    { "grouped-multi 64x64", 64, 64, true, false, true },
};
#define N_CASES (sizeof cases / sizeof cases[0])

/* Under a correct engine the combined p is uniform (KS over SEEDS runs). */
static void test_uniform(void **state)
{
    (void)state;
    unsigned seeds = seeds_n();
    double N = draws_n();
    double *pv = malloc(seeds * sizeof *pv), *ov = malloc(seeds * sizeof *ov);
    assert_non_null(pv);
    assert_non_null(ov);
    int bad = 0;
    for (size_t ci = 0; ci < N_CASES; ci++) {
        const scase *c = &cases[ci];
        prepared p;
        prepare(c, 0x5a3b1e00u + ci, &p);
        fault none = { .group = UINT32_MAX };
        size_t m = 0;
        for (unsigned s = 0; s < seeds; s++)
            pv[s] = run_once(&p, 1000 + s, N, &none, &ov[s], &m);
        wsel_kit_stat ks = wsel_kit_ks_uniform(pv, seeds);
        wsel_kit_stat ko = wsel_kit_ks_uniform(ov, seeds);
        printf("# %-22s %u runs of %.0f draws, %zu sub-tests: KS D %.4f p %.4g "
               "(former per-item test: D %.4f p %.3g)\n",
               c->name, seeds, N, m, ks.stat, ks.p, ko.stat, ko.p);
        if (!(ks.p >= KS_LEVEL)) {
            printf("# %s: the combined p-values are not uniform\n", c->name);
            bad = 1;
        }
        /* The KS test sees the fault this replaced: the former test on 64x64 groups. */
        if (!wsel_kit_under_valgrind() && c->groups == 64 && !c->multi && !(ko.p < KS_LEVEL)) {
            printf("# %s: the KS test no longer tells the former test's p-values apart\n",
                   c->name);
            bad = 1;
        }
        unprepare(&p);
    }
    free(pv);
    free(ov);
    assert_false(bad);
}

/* The address whose (conditional) odds are nearest 1/2 among those a sub-test tests. */
static void pick_fault(const prepared *p, fault *f, double N)
{
    const wsel_set *set = &p->res->sets[0];
    const wsel_set_odds *so = &p->o->sets[0];
    double best = 2;
    for (uint32_t g = 0; g < (set->grouped ? set->n_groups : 1); g++) {
        uint32_t first = set->grouped ? set->groups[g].first : 0;
        uint32_t count = set->grouped ? set->groups[g].count : set->n_items;
        double gp = set->grouped ? (double)so->group_p[g].p : 1.0;
        for (uint32_t j = first; j < first + count; j++) {
            double q = (double)so->item_p[j].p / gp;
            if (q >= 1 - 1e-9 || N * gp * q < 50)
                continue;
            if (fabs(q - 0.5) < best) {
                best = fabs(q - 0.5);
                f->item = j;
                f->group = set->grouped ? g : UINT32_MAX;
                f->p = q;
            }
        }
    }
    assert_true(best < 2);
}

static void test_detects(void **state)
{
    (void)state;
    double N = large ? 262144 : wsel_kit_under_valgrind() ? 16384 : 65536;
    unsigned runs = wsel_kit_under_valgrind() ? 2 : DETECT_RUNS;
    const size_t which[] = { 3, 6, 9 }; /* ungrouped-multi 64, grouped-single/-multi 64x64 */
    int bad = 0;
    for (size_t w = 0; w < sizeof which / sizeof which[0]; w++) {
        const scase *c = &cases[which[w]];
        prepared p;
        prepare(c, 0x5a3b1e00u + which[w], &p);
        fault f = { .group = UINT32_MAX };
        pick_fault(&p, &f, N);
        const wsel_set *set = &p.res->sets[0];
        const wsel_set_odds *so = &p.o->sets[0];
        double Nt = N; /* draws the address's sub-test sees, and its df */
        unsigned df = set->n_items - 1, m = 1;
        if (set->grouped) {
            Nt = N * (double)so->group_p[f.group].p;
            df = set->groups[f.group].count - 1;
            m = 1 + set->n_groups;
        }
        /* the level each of m sub-tests gets under Sidak's combination at ALPHA */
        double a1 = -expm1(log1p(-ALPHA) / m);
        f.e = wsel_kit_detect_gof(f.p, Nt, df, a1, 0.9);
        f.on = true;
        f.rng = 77;
        unsigned hits = 0;
        size_t mm;
        for (unsigned r = 0; r < runs; r++)
            hits += run_once(&p, 5000 + r, N, &f, NULL, &mm) < ALPHA;
        printf("# %-22s odds %.4f (given its group) x (1 + %.4f), %.0f draws (%.0f of its "
               "group), level %.3g per sub-test: found in %u of %u runs\n",
               c->name, f.p, f.e, N, Nt, a1, hits, runs);
        if (!wsel_kit_under_valgrind() && hits < DETECT_MIN)
            bad = 1;
        unprepare(&p);
    }
    assert_false(bad);
}

/* The combination itself, against values worked by hand. */
static void test_sidak(void **state)
{
    (void)state;
    double p1[] = { 0.5, 0.2, 0.9 };
    assert_true(fabs(wsel_kit_sidak(p1, 3) - (1 - 0.8 * 0.8 * 0.8)) < 1e-15);
    double p2[] = { 0.01 };
    assert_true(fabs(wsel_kit_sidak(p2, 1) - 0.01) < 1e-17);
    double p3[] = { 0.3, NAN };
    assert_true(wsel_kit_sidak(p3, 2) == 0.0);
    assert_true(wsel_kit_sidak(p3, 0) == 1.0);
    double p4[] = { 1e-12, 0.5 };
    assert_true(fabs(wsel_kit_sidak(p4, 2) / 2e-12 - 1) < 1e-9);
    wsel_kit_subtest t[3] = {
        { "groups", 0, -1, 100, { 3.0, 2, 0.2, 0, false } },
        { "group-items", 0, 0, 40, { 0.0, 0, 1.0, 0, false } },
        { "group-items", 0, 1, 60, { 5.0, 4, 0.5, 0, false } },
    };
    wsel_kit_stat r = wsel_kit_subtests_combine(t, 3);
    assert_true(r.df == 6 && r.stat == 8.0);
    assert_true(fabs(r.p - (1 - 0.8 * 0.8)) < 1e-15);
    t[1].r.impossible = 3;
    r = wsel_kit_subtests_combine(t, 3);
    assert_true(r.p == 0.0 && r.impossible == 3);
}

/* wsel__chisq_one_of (odds/stat.h): an impossible count makes the statistic infinite, p 0
 * and df at least 1, never "nothing to test", also when a single outcome is possible (one
 * bin: df 0 before that rule) and when the bins give df 1 themselves. */
static void test_one_of_impossible(void **state)
{
    (void)state;
    double obs[] = { 5, 1 }, p[] = { 1.0, 0.0 };
    wsel__stat r = wsel__chisq_one_of(obs, p, 2, 6);
    assert_true(r.impossible == 1 && r.df == 1 && r.p == 0.0 && isinf(r.stat));
    double obs2[] = { 30, 30, 2 }, p2[] = { 0.5, 0.5, 0.0 };
    r = wsel__chisq_one_of(obs2, p2, 3, 62);
    assert_true(r.impossible == 2 && r.df == 1 && r.p == 0.0 && isinf(r.stat));
    double obs3[] = { 31, 31 };
    r = wsel__chisq_one_of(obs3, p2, 2, 62); /* nothing impossible drawn: an ordinary fit */
    assert_true(r.impossible == 0 && r.df == 1 && r.p == 1.0 && r.stat == 0.0);
}

/* wsel_resolver_new_for(): the one resource answers as with a resolver of the whole
 * config, word for word; any other resource is refused by every engine. */
static void test_resolver_for(void **state)
{
    (void)state;
    wsel_config *cfg = wsel_test_load("a => { x => [ 192.0.2.1, 1 ] y => [ 192.0.2.2, 3 ] }\n"
                                      "b => { multi => true x => [ 192.0.2.3, 1 ] "
                                      "y => [ 192.0.2.4, 3 ] z => [ 192.0.2.5, 2 ] }\n"
                                      "c => { x => [ 192.0.2.6, 1 ] }\n");
    wsel_config *other = wsel_test_load("b => { x => [ 192.0.2.3, 1 ] }\n");
    wsel_state *st;
    wsel_error err;
    assert_int_equal(wsel_state_new(cfg, &st, &err), WSEL_OK);
    const wsel_resource *a = wsel_config_find(cfg, "a"), *b = wsel_config_find(cfg, "b");
    const char *engines[] = { "ref", "fast", "fast-scalar" };
    for (size_t e = 0; e < 3; e++) {
        wsel_resolver *all, *one;
        assert_int_equal(wsel_resolver_new_variant(cfg, st, engines[e], &all, &err), WSEL_OK);
        assert_int_equal(wsel_resolver_new_for(cfg, st, engines[e], b, &one, &err), WSEL_OK);
        wsel_prng p1, p2;
        wsel_prng_seed(&p1, 9);
        wsel_prng_seed(&p2, 9);
        wsel_rng r1 = wsel_prng_rng(&p1), r2 = wsel_prng_rng(&p2);
        wsel_answer x, y;
        for (int q = 0; q < 200; q++) {
            assert_int_equal(wsel_resolve(all, b, &r1, &x), WSEL_OK);
            assert_int_equal(wsel_resolve(one, b, &r2, &y), WSEL_OK);
            assert_int_equal(x.set[0].count, y.set[0].count);
            assert_memory_equal(x.set[0].items, y.set[0].items,
                                x.set[0].count * sizeof x.set[0].items[0]);
        }
        assert_int_equal(wsel_resolve(one, a, &r2, &y), WSEL_E_ARG);
        assert_int_equal(wsel_resolve(one, wsel_config_find(cfg, "c"), &r2, &y), WSEL_E_ARG);
        assert_int_equal(wsel_resolve(one, wsel_config_find(other, "b"), &r2, &y), WSEL_E_ARG);
        assert_int_equal(wsel_resolver_sync(one), WSEL_OK);
        wsel_resolver_free(one);
        wsel_resolver_free(all);
        wsel_resolver *bad = (wsel_resolver *)&err;
        assert_int_equal(wsel_resolver_new_for(cfg, st, engines[e], wsel_config_find(other, "b"),
                                               &bad, &err), WSEL_E_ARG);
        assert_null(bad);
        assert_int_equal(wsel_resolver_new_for(cfg, st, engines[e], NULL, &bad, &err),
                         WSEL_E_ARG);
    }
    wsel_state_free(st);
    wsel_config_free(other);
    wsel_config_free(cfg);
}

int main(int argc, char **argv)
{
    large = argc > 1 && strcmp(argv[1], "--large") == 0;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sidak),
        cmocka_unit_test(test_one_of_impossible),
        cmocka_unit_test(test_resolver_for),
        cmocka_unit_test(test_uniform),
        cmocka_unit_test(test_detects),
    };
    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests_name("sample_stats", tests, NULL, NULL);
}
