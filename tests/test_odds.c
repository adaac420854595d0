/* The exact-odds calculator against the page's worked examples (figures taken from the
 * page, worked by hand), its own internal consistency, and the reference engine's
 * observed frequencies (per item and per answer, at the 5-sigma level). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <gsl/gsl_cdf.h>

#include "support/support.h"

static wsel_odds *odds_of(const wsel_config *cfg, const wsel_state *st, const char *name)
{
    const wsel_resource *r = wsel_config_find(cfg, name);
    assert_non_null(r);
    wsel_odds *o = NULL;
    wsel_error err;
    assert_int_equal(wsel_odds_compute(r, st, &o, &err), WSEL_OK);
    assert_non_null(o);
    return o;
}

__extension__ typedef unsigned __int128 u128;

static uint64_t gcd(uint64_t a, uint64_t b)
{
    return b ? gcd(b, a % b) : a;
}

/* p is exactly num/den, and stored in lowest terms */
static void expect_exact(wsel_prob p, uint64_t num, uint64_t den)
{
    assert_true(p.exact);
    assert_int_equal(gcd(p.num, p.den), 1);
    if ((u128)p.num * den != (u128)num * p.den)
        fail_msg("expected %llu/%llu, got %llu/%llu", (unsigned long long)num,
                 (unsigned long long)den, (unsigned long long)p.num,
                 (unsigned long long)p.den);
    long double want = (long double)num / (long double)den;
    assert_true(fabsl(p.p - want) < 1e-15L);
}

/* ---- the page's worked examples, one row each ------------------------------------ */

typedef struct frac {
    uint64_t num, den;
} frac;

#define KMAX 8

typedef struct kat_answer {
    frac p;
    unsigned n;
    uint16_t items[KMAX];
} kat_answer;

/* One set with everything UP: T and threshold, each item's and group's probability of
 * being in the answer, every possible answer in order, and the size distribution. */
typedef struct page_case {
    const char *name, *text, *resource; /* text NULL: the synopsis */
    unsigned set;
    uint64_t total, threshold;
    unsigned n_items, n_groups, n_answers, n_sizes;
    frac items[KMAX], groups[KMAX], sizes[KMAX];
    kat_answer answers[KMAX];
} page_case;

static const char page_single[] = "X => {\n multi => false\n lb01 => [ 192.0.2.1, 45 ]\n"
                                  " lb02 => [ 192.0.2.1, 60 ]\n lb03 => [ 192.0.2.1, 75 ]\n}\n";
static const char page_multi[] = "X => {\n multi => true\n lb01 => [ 192.0.2.1, 45 ]\n"
                                 " lb02 => [ 192.0.2.1, 60 ]\n lb03 => [ 192.0.2.1, 60 ]\n}\n";
static const char page_note[] = "Y => { multi = true\n a = [ 10.0.0.1, 30 ]\n b = [ 10.0.0.2, 30 ]\n"
                                " c = [ 10.0.0.3, 30 ]\n d = [ 10.0.0.4, 20 ]\n e = [ 10.0.0.5, 20 ] }\n";

static const page_case page_cases[] = {
    { "THE UNGROUPED SINGLE CASE: 45, 60, 75", page_single, "X", 0, 180, 90, 3, 0, 3, 2,
      { { 45, 180 }, { 60, 180 }, { 75, 180 } }, { { 0, 1 } }, { { 0, 1 }, { 1, 1 } },
      { { { 1, 4 }, 1, { 0 } }, { { 1, 3 }, 1, { 1 } }, { { 5, 12 }, 1, { 2 } } } },
    /* M = 60: lb01 in with 45/60, lb02 and lb03 always */
    { "THE UNGROUPED MULTI CASE: 45, 60, 60", page_multi, "X", 0, 165, 83, 3, 0, 2, 4,
      { { 3, 4 }, { 1, 1 }, { 1, 1 } }, { { 0, 1 } },
      { { 0, 1 }, { 0, 1 }, { 1, 4 }, { 3, 4 } },
      { { { 3, 4 }, 3, { 0, 1, 2 } }, { { 1, 4 }, 2, { 1, 2 } } } },
    /* the page's note: 30, 30, 30, 20, 20 always answers at least 3 of 5 */
    { "multi 30, 30, 30, 20, 20", page_note, "Y", 0, 130, 65, 5, 0, 4, 6,
      { { 1, 1 }, { 1, 1 }, { 1, 1 }, { 2, 3 }, { 2, 3 } }, { { 0, 1 } },
      { { 0, 1 }, { 0, 1 }, { 0, 1 }, { 1, 9 }, { 4, 9 }, { 4, 9 } },
      { { { 1, 9 }, 3, { 0, 1, 2 } }, { { 2, 9 }, 4, { 0, 1, 2, 3 } },
        { { 4, 9 }, 5, { 0, 1, 2, 3, 4 } }, { { 2, 9 }, 4, { 0, 1, 2, 4 } } } },
    /* cdnwww: dc1 = 2 + 2 = 4, dc2 = 2 + 2 + 1 = 5 */
    { "synopsis cdnwww (grouped single)", NULL, "cdnwww", 0, 9, 5, 5, 2, 3, 4,
      { { 4, 9 }, { 4, 9 }, { 5, 9 }, { 5, 9 }, { 5, 18 } }, { { 4, 9 }, { 5, 9 } },
      { { 0, 1 }, { 0, 1 }, { 13, 18 }, { 5, 18 } },
      { { { 4, 9 }, 2, { 0, 1 } }, { { 5, 18 }, 2, { 2, 3 } }, { { 5, 18 }, 3, { 2, 3, 4 } } } },
    { "synopsis mixed v4 (ungrouped single 2, 2)", NULL, "mixed", 0, 4, 2, 2, 0, 2, 2,
      { { 1, 2 }, { 1, 2 } }, { { 0, 1 } }, { { 0, 1 }, { 1, 1 } },
      { { { 1, 2 }, 1, { 0 } }, { { 1, 2 }, 1, { 1 } } } },
    /* mixed v6: grouped multi, both groups weigh 5, inside 4 and 1 */
    { "synopsis mixed v6 (grouped multi)", NULL, "mixed", 1, 10, 5, 4, 2, 4, 3,
      { { 4, 5 }, { 1, 5 }, { 4, 5 }, { 1, 5 } }, { { 1, 1 }, { 1, 1 } },
      { { 0, 1 }, { 0, 1 }, { 1, 1 } },
      { { { 16, 25 }, 2, { 0, 2 } }, { { 4, 25 }, 2, { 0, 3 } }, { { 4, 25 }, 2, { 1, 2 } },
        { { 1, 25 }, 2, { 1, 3 } } } },
};

static void check_page_case(const page_case *c)
{
    print_message("# %s\n", c->name);
    wsel_config *cfg = c->text ? wsel_test_load(c->text) : wsel_test_load_synopsis();
    wsel_odds *o = odds_of(cfg, NULL, c->resource);
    assert_true(c->set < o->n_sets);
    const wsel_set_odds *so = &o->sets[c->set];
    assert_int_equal(so->total, c->total);
    assert_int_equal(so->threshold, c->threshold);
    assert_false(so->failed);
    assert_int_equal(so->set->n_items, c->n_items);
    for (unsigned i = 0; i < c->n_items; i++)
        expect_exact(so->item_p[i], c->items[i].num, c->items[i].den);
    assert_int_equal(so->set->n_groups, c->n_groups);
    for (unsigned g = 0; g < c->n_groups; g++)
        expect_exact(so->group_p[g], c->groups[g].num, c->groups[g].den);
    assert_true(so->enumerable);
    assert_int_equal(so->n_answers, c->n_answers);
    for (unsigned k = 0; k < c->n_answers; k++) {
        const wsel_odds_answer *a = &so->answers[k];
        assert_int_equal(a->count, c->answers[k].n);
        for (unsigned i = 0; i < a->count; i++)
            assert_int_equal(a->items[i], c->answers[k].items[i]);
        expect_exact(a->p, c->answers[k].p.num, c->answers[k].p.den);
    }
    assert_int_equal(so->n_sizes, c->n_sizes);
    for (unsigned k = 0; k < c->n_sizes; k++)
        assert_true(fabsl(so->size_p[k] - (long double)c->sizes[k].num / c->sizes[k].den) <
                    1e-15L);
    wsel_odds_free(o);
    wsel_config_free(cfg);
}

static void test_page_examples(void **unused)
{
    (void)unused;
    for (size_t i = 0; i < sizeof page_cases / sizeof page_cases[0]; i++)
        check_page_case(&page_cases[i]);
}

static void test_failover(void **unused)
{
    (void)unused;
    wsel_config *cfg = wsel_test_load("t7 => { service_types = s\n up_thresh => 0.07\n"
                                      " a => [ 10.0.2.1, 7 ]\n b => [ 10.0.2.2, 93 ] }\n"
                                      "t8 => { service_types = s\n up_thresh => 0.07\n"
                                      " a => [ 10.0.3.1, 8 ]\n b => [ 10.0.3.2, 92 ] }\n");
    wsel_state *st = NULL;
    assert_int_equal(wsel_state_new(cfg, &st, NULL), WSEL_OK);
    assert_int_equal(wsel_state_set(st, "s", "10.0.2.2", false, 20, NULL, NULL), 0);
    assert_int_equal(wsel_state_set(st, "s", "10.0.3.2", false, 20, NULL, NULL), 0);
    wsel_odds *o = odds_of(cfg, st, "t7");
    const wsel_set_odds *so = &o->sets[0];
    assert_int_equal(so->threshold, 8);
    assert_int_equal(so->dyn_sum, 7);
    assert_true(so->failed);
    assert_false(so->up[1]);
    assert_int_equal(so->dyn_weight[1], 93);
    assert_int_equal(so->ttl, 20);
    expect_exact(so->item_p[0], 7, 100);
    expect_exact(so->item_p[1], 93, 100);
    wsel_odds_free(o);
    o = odds_of(cfg, st, "t8");
    so = &o->sets[0];
    assert_false(so->failed);
    assert_int_equal(so->dyn_weight[1], 0);
    expect_exact(so->item_p[0], 1, 1);
    expect_exact(so->item_p[1], 0, 1);
    assert_int_equal(so->n_answers, 1);
    wsel_odds_free(o);
    wsel_state_free(st);
    wsel_config_free(cfg);
}

/* 12 free items: 4096 answers (enumerable); 13: not. Big coprime weights overflow the
 * exact answer products but never the per-item ones. */
static void test_enumeration_limit(void **unused)
{
    (void)unused;
    char text[4096];
    size_t pos = 0;
    for (int r = 12; r <= 13; r++) {
        pos += (size_t)snprintf(text + pos, sizeof text - pos,
                                "m%d => { multi = true\n top = [ 10.0.0.1, 1048575 ]\n", r);
        for (int i = 0; i < r; i++)
            pos += (size_t)snprintf(text + pos, sizeof text - pos, " i%d = [ 10.0.0.%d, %d ]\n",
                                    i, i + 2, 1048575 - 2 * i - 1);
        pos += (size_t)snprintf(text + pos, sizeof text - pos, "}\n");
    }
    wsel_config *cfg = wsel_test_load(text);
    wsel_odds *o = odds_of(cfg, NULL, "m12");
    const wsel_set_odds *so = &o->sets[0];
    assert_true(so->enumerable);
    assert_int_equal(so->n_answers, 4096);
    long double sum = 0;
    bool any_inexact = false;
    for (uint32_t k = 0; k < so->n_answers; k++) {
        sum += so->answers[k].p.p;
        any_inexact |= !so->answers[k].p.exact;
    }
    assert_true(any_inexact); /* 1048575^12 does not fit 64 bits */
    assert_true(fabsl(sum - 1.0L) < 1e-12L);
    expect_exact(so->item_p[1], 1048574, 1048575);
    wsel_odds_free(o);
    o = odds_of(cfg, NULL, "m13");
    assert_false(o->sets[0].enumerable);
    assert_int_equal(o->sets[0].n_answers, 0);
    assert_int_equal(o->sets[0].n_sizes, 15);
    wsel_odds_free(o);
    wsel_config_free(cfg);
}

static int cmp_items(const wsel_odds_answer *a, const wsel_odds_answer *b)
{
    uint32_t n = a->count < b->count ? a->count : b->count;
    for (uint32_t i = 0; i < n; i++)
        if (a->items[i] != b->items[i])
            return a->items[i] < b->items[i] ? -1 : 1;
    return a->count < b->count ? -1 : a->count > b->count;
}

/* Internal consistency on generated configs: sizes and answers sum to 1, the size mean
 * equals the sum of item probabilities, answer marginals equal item probabilities,
 * answers strictly sorted, exact values agree with the long doubles. */
static void test_consistency_generated(void **unused)
{
    (void)unused;
    for (unsigned seed = 1; seed <= 120; seed++) {
        char *text = wsel_kit_weighted_gen_config(seed, NULL);
        wsel_config *cfg = wsel_test_load(text);
        wsel_state *st = NULL;
        assert_int_equal(wsel_state_new(cfg, &st, NULL), WSEL_OK);
        wsel_test_random_state(st, cfg, seed, (seed % 4) * 0.3, false);
        for (size_t r = 0; r < wsel_config_resource_count(cfg); r++) {
            const wsel_resource *res = wsel_config_resource(cfg, r);
            wsel_odds *o = NULL;
            assert_int_equal(wsel_odds_compute(res, st, &o, NULL), WSEL_OK);
            for (uint32_t s = 0; s < o->n_sets; s++) {
                const wsel_set_odds *so = &o->sets[s];
                long double tot = 0, mean = 0, psum = 0;
                for (uint32_t k = 0; k < so->n_sizes; k++) {
                    tot += so->size_p[k];
                    mean += k * so->size_p[k];
                }
                for (uint32_t i = 0; i < so->set->n_items; i++) {
                    psum += so->item_p[i].p;
                    if (so->item_p[i].exact)
                        assert_true(fabsl(so->item_p[i].p - (long double)so->item_p[i].num
                                                               / so->item_p[i].den) < 1e-15L);
                }
                assert_true(fabsl(tot - 1) < 1e-12L);
                assert_true(fabsl(mean - psum) < 1e-9L * (1 + psum));
                if (!so->enumerable)
                    continue;
                long double asum = 0;
                long double *marg = calloc(so->set->n_items, sizeof *marg);
                for (uint32_t k = 0; k < so->n_answers; k++) {
                    const wsel_odds_answer *a = &so->answers[k];
                    assert_true(a->p.p > 0);
                    asum += a->p.p;
                    for (uint32_t j = 0; j < a->count; j++)
                        marg[a->items[j]] += a->p.p;
                    if (k)
                        assert_true(cmp_items(&so->answers[k - 1], a) < 0);
                }
                assert_true(fabsl(asum - 1) < 1e-12L);
                for (uint32_t i = 0; i < so->set->n_items; i++)
                    assert_true(fabsl(marg[i] - so->item_p[i].p) < 1e-12L);
                free(marg);
            }
            wsel_odds_free(o);
        }
        wsel_state_free(st);
        wsel_config_free(cfg);
        free(text);
    }
}

/* ---- reference engine vs calculator on the synopsis ---- */

typedef struct pattern {
    const char *name;
    const char *svc[8], *key[8];
} pattern;

static const pattern patterns[] = {
    { "all-up", { NULL }, { NULL } },
    { "some-down",
      { "web_check", "web_check", "my_cn_check", NULL },
      { "192.0.2.1", "127.0.0.3", "lb01.example.org.", NULL } },
    { "dc1-down",
      { "foo", "foo", "foo", "web_check", "web_check", "my_cn_check", NULL },
      { "192.0.2.2", "192.0.2.3", "192.0.2.4", "127.0.0.1", "127.0.0.2", "lb02.example.org.",
        NULL } },
    { "all-down", { NULL }, { NULL } },
};

static void apply_pattern(wsel_state *st, const wsel_config *cfg, size_t p)
{
    if (p == 3) {
        wsel_test_random_state(st, cfg, 1, 2.0, false); /* p_down > 1: everything DOWN */
        return;
    }
    for (size_t i = 0; patterns[p].svc[i]; i++)
        assert_int_equal(wsel_state_set(st, patterns[p].svc[i], patterns[p].key[i], false, 60,
                                        NULL, NULL), 0);
}

static unsigned long draws(void)
{
    const char *e = getenv("WSEL_ODDS_N");
    unsigned long n = e ? strtoul(e, NULL, 10) : 0;
    return n ? n : wsel_kit_under_valgrind() ? 20000ul : 1000000ul;
}

/* Whether `hits` of `n` is consistent with probability p: exact for p = 0 or 1, otherwise
 * the binomial tail on the observed side must not be below the one-sided 5-sigma normal
 * tail (2.87e-7). The binomial tail, not the normal approximation, so that answers with
 * p near 1e-6 are judged fairly at any n. */
static bool within(unsigned long hits, unsigned long n, long double p, const char *what)
{
    long double f = (long double)hits / n;
    if (p <= 0 || p >= 1) {
        if (f != p) {
            print_error("%s: p=%Lg but frequency %Lg\n", what, p, f);
            return false;
        }
        return true;
    }
    double pd = (double)p;
    double lower = gsl_cdf_binomial_P((unsigned)hits, pd, (unsigned)n);           /* P(X <= hits) */
    double upper = hits ? gsl_cdf_binomial_Q((unsigned)hits - 1, pd, (unsigned)n) : 1.0; /* P(X >= hits) */
    double tail = lower < upper ? lower : upper;
    if (tail < 2.87e-7) {
        long double sigma = sqrtl(p * (1 - p) / n);
        print_error("%s: p=%Lg frequency %Lg (%.1Lf sigma, binomial tail %g)\n", what, p, f,
                    fabsl(f - p) / sigma, tail);
        return false;
    }
    return true;
}

static int find_answer(const wsel_set_odds *so, const wsel_set_answer *a)
{
    for (uint32_t k = 0; k < so->n_answers; k++) {
        const wsel_odds_answer *x = &so->answers[k];
        if (x->count == a->count && memcmp(x->items, a->items, a->count * sizeof *a->items) == 0)
            return (int)k;
    }
    return -1;
}

static void test_ref_agrees(void **unused)
{
    (void)unused;
    wsel_config *cfg = wsel_test_load_synopsis();
    unsigned long n = draws();
    bool ok = true;
    for (size_t p = 0; p < sizeof patterns / sizeof patterns[0]; p++) {
        wsel_state *st = NULL;
        assert_int_equal(wsel_state_new(cfg, &st, NULL), WSEL_OK);
        apply_pattern(st, cfg, p);
        for (size_t r = 0; r < wsel_config_resource_count(cfg); r++) {
            const wsel_resource *res = wsel_config_resource(cfg, r);
            wsel_odds *o = NULL;
            assert_int_equal(wsel_odds_compute(res, st, &o, NULL), WSEL_OK);
            unsigned long item_hits[2][64] = { { 0 } }, ans_hits[2][4096] = { { 0 } };
            wsel_prng prng;
            wsel_prng_seed(&prng, 1000 * p + r + 1);
            wsel_rng rng = wsel_prng_rng(&prng);
            for (unsigned long q = 0; q < n; q++) {
                wsel_answer a;
                assert_int_equal(wsel_ref_resolve(res, st, &rng, &a), WSEL_OK);
                for (uint32_t s = 0; s < a.n_sets; s++) {
                    assert_int_equal(a.set[s].failed, o->sets[s].failed);
                    assert_int_equal(a.set[s].ttl, o->sets[s].ttl);
                    for (unsigned i = 0; i < a.set[s].count; i++)
                        item_hits[s][a.set[s].items[i]]++;
                    int k = find_answer(&o->sets[s], &a.set[s]);
                    assert_true(k >= 0); /* only answers the calculator allows */
                    ans_hits[s][k]++;
                }
            }
            for (uint32_t s = 0; s < o->n_sets; s++) {
                const wsel_set_odds *so = &o->sets[s];
                char what[256];
                for (uint32_t i = 0; i < so->set->n_items; i++) {
                    snprintf(what, sizeof what, "%s %s set %u item %s", patterns[p].name,
                             res->name, (unsigned)s, so->set->items[i].label);
                    ok &= within(item_hits[s][i], n, so->item_p[i].p, what);
                }
                for (uint32_t k = 0; k < so->n_answers; k++) {
                    snprintf(what, sizeof what, "%s %s set %u answer %u", patterns[p].name,
                             res->name, (unsigned)s, (unsigned)k);
                    ok &= within(ans_hits[s][k], n, so->answers[k].p.p, what);
                }
            }
            wsel_odds_free(o);
        }
        wsel_state_free(st);
    }
    wsel_config_free(cfg);
    assert_true(ok);
}

/* The same agreement on generated configs (every mode, wide sets, random DOWN patterns),
 * with fewer draws: per-item frequencies, and per-answer ones where enumerable. */
static void test_ref_agrees_generated(void **unused)
{
    (void)unused;
    const unsigned long n = wsel_kit_under_valgrind() ? 2000 : 20000;
    bool ok = true;
    for (unsigned seed = 1; seed <= 30; seed++) {
        char *text = wsel_kit_weighted_gen_config(seed + 5000, NULL);
        wsel_config *cfg = wsel_test_load(text);
        wsel_state *st = NULL;
        assert_int_equal(wsel_state_new(cfg, &st, NULL), WSEL_OK);
        wsel_test_random_state(st, cfg, seed, (seed % 3) * 0.35, true);
        wsel_prng prng;
        wsel_prng_seed(&prng, seed);
        wsel_rng rng = wsel_prng_rng(&prng);
        for (size_t r = 0; r < wsel_config_resource_count(cfg); r++) {
            const wsel_resource *res = wsel_config_resource(cfg, r);
            wsel_odds *o = NULL;
            assert_int_equal(wsel_odds_compute(res, st, &o, NULL), WSEL_OK);
            unsigned long *hits[2], *ans[2];
            for (uint32_t s = 0; s < 2; s++) {
                hits[s] = calloc(64 * 64, sizeof **hits);
                ans[s] = calloc(WSEL_ODDS_MAX_ANSWERS, sizeof **ans);
            }
            for (unsigned long q = 0; q < n; q++) {
                wsel_answer a;
                assert_int_equal(wsel_ref_resolve(res, st, &rng, &a), WSEL_OK);
                for (uint32_t s = 0; s < a.n_sets; s++) {
                    for (unsigned i = 0; i < a.set[s].count; i++)
                        hits[s][a.set[s].items[i]]++;
                    if (o->sets[s].enumerable) {
                        int k = find_answer(&o->sets[s], &a.set[s]);
                        assert_true(k >= 0);
                        ans[s][k]++;
                    }
                }
            }
            for (uint32_t s = 0; s < o->n_sets; s++) {
                const wsel_set_odds *so = &o->sets[s];
                char what[256];
                for (uint32_t i = 0; i < so->set->n_items; i++) {
                    snprintf(what, sizeof what, "seed %u %s set %u item %u", seed, res->name,
                             (unsigned)s, (unsigned)i);
                    ok &= within(hits[s][i], n, so->item_p[i].p, what);
                }
                for (uint32_t k = 0; k < so->n_answers; k++) {
                    snprintf(what, sizeof what, "seed %u %s set %u answer %u", seed,
                             res->name, (unsigned)s, (unsigned)k);
                    ok &= within(ans[s][k], n, so->answers[k].p.p, what);
                }
            }
            for (uint32_t s = 0; s < 2; s++) {
                free(hits[s]);
                free(ans[s]);
            }
            wsel_odds_free(o);
        }
        wsel_state_free(st);
        wsel_config_free(cfg);
        free(text);
    }
    assert_true(ok);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_page_examples),
        cmocka_unit_test(test_failover),
        cmocka_unit_test(test_enumeration_limit),
        cmocka_unit_test(test_consistency_generated),
        cmocka_unit_test(test_ref_agrees),
        cmocka_unit_test(test_ref_agrees_generated),
    };
    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests_name("odds", tests, NULL, NULL);
}
