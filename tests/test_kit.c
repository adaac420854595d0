/* The verification kit itself (tests/kit/): its statistics against values worked out
 * apart from it (closed forms; the Kolmogorov-Smirnov figure from a separate Python
 * evaluation of the series), its random sources and boundary words against their
 * definitions, and the generic loop over systems x engine variants: for every system of
 * core/systems.def, generated cases whose every query target, fed uniform and boundary
 * words, gives the reference's answer in every variant, consumes the contract's word
 * count and passes the system's invariants. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "support/support.h"
#include "kit/kit_stat.h"
#include "kit/kit_system.h"

#define NEAR(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

/* ---- statistics ---- */

static void test_chisq_gof(void **unused)
{
    (void)unused;
    /* (10-20)^2/20 + 0 + (30-20)^2/20 = 10 with df 2, whose upper tail is exp(-10/2) */
    const double o1[3] = { 10, 20, 30 }, e1[3] = { 20, 20, 20 };
    wsel_kit_stat r = wsel_kit_chisq_gof(o1, e1, 3);
    NEAR(r.stat, 10.0, 1e-12);
    assert_int_equal(r.df, 2);
    NEAR(r.p, exp(-5.0), 1e-12);
    assert_int_equal(r.impossible, 0);

    /* pooling: expectations 2 and 4 form one pool (6); 47 and 47 stay: 3 bins, df 2 */
    const double o2[4] = { 3, 1, 50, 46 }, e2[4] = { 2, 4, 47, 47 };
    r = wsel_kit_chisq_gof(o2, e2, 4);
    assert_int_equal(r.df, 2);
    NEAR(r.stat, 4.0 / 6 + 9.0 / 47 + 1.0 / 47, 1e-12);
    NEAR(r.p, exp(-r.stat / 2), 1e-12);

    /* a pool still under 5 (1 + 1) takes in the next smallest bin (9): 2 bins, df 1 */
    const double o3[4] = { 1, 1, 10, 8 }, e3[4] = { 1, 1, 9, 9 };
    r = wsel_kit_chisq_gof(o3, e3, 4);
    assert_int_equal(r.df, 1);
    NEAR(r.stat, 1.0 / 11 + 1.0 / 9, 1e-12);

    /* expected 0 is not a bin; counts there are impossible */
    const double o4[3] = { 2, 50, 48 }, e4[3] = { 0, 50, 50 };
    r = wsel_kit_chisq_gof(o4, e4, 3);
    assert_int_equal(r.impossible, 2);
    assert_int_equal(r.df, 1);

    /* one bin: nothing to test */
    const double o5[1] = { 7 }, e5[1] = { 7 };
    r = wsel_kit_chisq_gof(o5, e5, 1);
    assert_int_equal(r.df, 0);
    NEAR(r.p, 1.0, 0);
}

static void test_chisq_binoms(void **unused)
{
    (void)unused;
    /* N 100, p 1/4 and 3/4, counts 30 and 70: 25/18.75 + 25/18.75 = 8/3, df 2 */
    const double obs[4] = { 30, 70, 100, 0 }, p[4] = { 0.25, 0.75, 1.0, 0.0 };
    wsel_kit_stat r = wsel_kit_chisq_binoms(obs, p, 4, 100);
    assert_int_equal(r.df, 2);
    NEAR(r.stat, 8.0 / 3, 1e-12);
    NEAR(r.p, exp(-4.0 / 3), 1e-12);
    assert_int_equal(r.impossible, 0);
    /* an item of odds 0 drawn, or of odds 1 missed: p 0 */
    const double o2[2] = { 1, 99 }, p2[2] = { 0.0, 1.0 };
    r = wsel_kit_chisq_binoms(o2, p2, 2, 100);
    assert_int_equal(r.impossible, 2);
    NEAR(r.p, 0.0, 0);
    /* items expecting fewer than 5 hits or misses are skipped */
    const double o3[2] = { 2, 97 }, p3[2] = { 0.02, 0.98 };
    r = wsel_kit_chisq_binoms(o3, p3, 2, 100);
    assert_int_equal(r.df, 0);
}

static void test_binom_indep_z(void **unused)
{
    (void)unused;
    /* 0 of 3 at 1/2: lower tail 1/8, doubled */
    wsel_kit_stat r = wsel_kit_binom(0, 3, 0.5);
    NEAR(r.p, 0.25, 1e-12);
    /* 2 of 4 at 1/2: both tails 11/16, capped at 1 */
    r = wsel_kit_binom(2, 4, 0.5);
    NEAR(r.p, 1.0, 0);
    /* margins 30/70 x 40/60 of 100: expected 12 18 28 42, each off by 2 */
    r = wsel_kit_indep2x2(10, 20, 30, 40);
    assert_int_equal(r.df, 1);
    NEAR(r.stat, 4.0 / 12 + 4.0 / 18 + 4.0 / 28 + 4.0 / 42, 1e-12);
    r = wsel_kit_indep2x2(0, 0, 5, 5);
    NEAR(r.p, 1.0, 0);
    /* z = 0: p 1; |z| = 1.959963984540054: p 0.05 */
    NEAR(wsel_kit_ztest(0).p, 1.0, 1e-15);
    NEAR(wsel_kit_ztest(-1.959963984540054).p, 0.05, 1e-12);
}

static void test_ks(void **unused)
{
    (void)unused;
    /* u_i = 0.6 (i + 1/2) / 20: D = 1 - 0.6 * 19.5 / 20 = 0.415; the Kolmogorov series
     * at (sqrt(20) + 0.12 + 0.11 / sqrt(20)) D gives 0.0012959176936780835 */
    double u[20];
    for (int i = 0; i < 20; i++)
        u[19 - i] = (i + 0.5) / 20 * 0.6; /* given unsorted */
    wsel_kit_stat r = wsel_kit_ks_uniform(u, 20);
    NEAR(r.stat, 0.415, 1e-12);
    NEAR(r.p, 0.0012959176936780835, 1e-12);
    /* 0.1 0.4 0.6 0.95: D 0.2, p 0.9915060976597706 */
    double v[4] = { 0.6, 0.1, 0.95, 0.4 };
    r = wsel_kit_ks_uniform(v, 4);
    NEAR(r.stat, 0.2, 1e-12);
    NEAR(r.p, 0.9915060976597706, 1e-12);
}

static void test_corrections(void **unused)
{
    (void)unused;
    NEAR(wsel_kit_bonferroni(0.05, 4), 0.0125, 1e-15);
    NEAR(wsel_kit_bonferroni(0.05, 0), 0.05, 0);
    /* Holm at 0.05: 0.005 < 0.05/4, 0.01 < 0.05/3, then 0.03 >= 0.05/2 stops */
    const double p[4] = { 0.01, 0.04, 0.03, 0.005 };
    bool rej[4];
    assert_int_equal(wsel_kit_holm(p, 4, 0.05, rej), 2);
    assert_true(rej[0] && !rej[1] && !rej[2] && rej[3]);
    /* a NaN p-value is rejected first, never passed */
    const double q[2] = { NAN, 0.9 };
    assert_int_equal(wsel_kit_holm(q, 2, 0.05, rej), 1);
    assert_true(rej[0] && !rej[1]);
}

/* ---- random sources and boundary words ---- */

static void test_sources(void **unused)
{
    (void)unused;
    /* splitmix64 from state 0: its published first outputs */
    uint64_t s = 0;
    assert_true(wsel_kit_mix(&s) == 0xe220a8397b1dcdafull);
    assert_true(wsel_kit_mix(&s) == 0x6e789e6aa1b965f4ull);
    assert_true(wsel_kit_mix64(0) == 0xe220a8397b1dcdafull);
    for (int i = 0; i < 1000; i++) {
        uint64_t v = wsel_kit_range(&s, 5, 9);
        assert_true(v >= 5 && v <= 9);
    }
    NEAR(wsel_kit_unit(UINT64_MAX), 1.0 - 0x1p-53, 0);

    const uint64_t w[3] = { 7, 8, 9 };
    uint64_t out[5];
    wsel_kit_replay rp;
    wsel_rng rng = wsel_kit_replay_rng(&rp, w, 3);
    rng.fill(rng.ctx, out, 5);
    assert_true(out[0] == 7 && out[2] == 9 && out[3] == 0 && out[4] == 0);
    assert_int_equal(rp.pos, 3);
    assert_int_equal(rp.overrun, 2);

    wsel_kit_fixed f = { { 1, 2 }, 2, 0 };
    rng = wsel_kit_fixed_rng(&f);
    rng.fill(rng.ctx, out, 3);
    assert_true(out[0] == 1 && out[1] == 2 && out[2] == 0);
    assert_int_equal(f.used, 3);

    wsel_kit_counter c;
    rng = wsel_kit_counting_rng(&c, wsel_kit_replay_rng(&rp, w, 3));
    rng.fill(rng.ctx, out, 2);
    rng.fill(rng.ctx, out, 1);
    assert_int_equal(c.words, 3);
    assert_int_equal(c.calls, 2);
    assert_true(out[0] == 9);

    /* a planted word appears where it was put, in every buffer position */
    for (unsigned k = 0; k < 4; k++) {
        for (size_t i = 0; i < 40; i += 3) {
            wsel_prng p;
            uint64_t st = 42 + i;
            wsel_kit_prng_plant(&p, &st, k, i, 0x0123456789abcdefull);
            uint64_t got[40];
            wsel_prng_fill(&p, got, 40);
            assert_true(got[i] == 0x0123456789abcdefull);
        }
    }
}

static void test_edges(void **unused)
{
    (void)unused;
    uint64_t e;
    assert_true(wsel_kit_edge(1, 2, &e) && e == 0x8000000000000000ull);
    assert_true(wsel_kit_edge(1, 3, &e) && e == 0x5555555555555556ull);
    assert_true(wsel_kit_edge(2, 3, &e) && e == 0xaaaaaaaaaaaaaaabull);
    assert_true(wsel_kit_edge(0, 5, &e) && e == 0);
    assert_false(wsel_kit_edge(3, 3, &e));
    assert_true(wsel_kit_edge_sat(3, 3) == UINT64_MAX);
    assert_true(wsel_kit_edge_sat(1, 4) == 0x4000000000000000ull);
}

/* ---- every system, every variant ---- */

static void test_systems_identity(void **unused)
{
    (void)unused;
    size_t nsys;
    const wsel_kit_system *const *sys = wsel_kit_systems(&nsys);
    assert_true(nsys >= 1);
    assert_ptr_equal(wsel_kit_system_find(sys[0]->name), sys[0]);
    assert_null(wsel_kit_system_find("no-such-system"));
    const char *names[WSEL_KIT_MAX_VARIANTS];
    size_t nv = wsel_kit_variants(names, WSEL_KIT_MAX_VARIANTS, true);
    assert_true(nv >= 3); /* ref, fast and the portable fast variant at least */
    unsigned seeds = wsel_kit_under_valgrind() ? 4 : 40;
    static uint64_t pool[16384];
    uint64_t w[WSEL_WORDS_MAX];
    uint64_t rs = 0x6b17;
    for (size_t si = 0; si < nsys; si++) {
        unsigned targets = 0;
        for (uint64_t seed = 1; seed <= seeds; seed++) {
            char why[1024];
            void *c = sys[si]->case_new(seed, why, sizeof why);
            if (!c)
                fail_msg("%s: case %llu: %s", sys[si]->name, (unsigned long long)seed, why);
            for (size_t q = 0; q < sys[si]->queries(c); q++, targets++) {
                size_t n = sys[si]->words(c, q);
                assert_true(n <= WSEL_WORDS_MAX);
                size_t np = sys[si]->boundary(c, q, pool, sizeof pool / sizeof pool[0]);
                assert_true(n == 0 || np >= 2); /* a target that draws no words has no word edges */
                for (unsigned k = 0; k < 6; k++) {
                    for (size_t i = 0; i < n; i++)
                        w[i] = (k % 3 == 0 || (k % 3 == 1 && (wsel_kit_mix(&rs) & 1)))
                                   ? wsel_kit_mix(&rs)
                                   : pool[wsel_kit_range(&rs, 0, np - 1)];
                    const char *bad = wsel_kit_identity(sys[si], c, q, w, n, why, sizeof why);
                    if (bad)
                        fail_msg("case %llu: %s\n--- config:\n%.3000s", (unsigned long long)seed,
                                 bad, sys[si]->case_text(c));
                }
            }
            sys[si]->case_free(c);
        }
        assert_true(targets >= seeds);
    }
}

/* A case's queries, in a fixed order, through the reference and every variant: their
 * answer texts appended to out (len bytes). */
static void run_sequence(const wsel_kit_system *sys, void *c, char *out, size_t len)
{
    const char *names[WSEL_KIT_MAX_VARIANTS + 1] = { NULL };
    size_t nv = 1 + wsel_kit_system_variants(sys, names + 1, WSEL_KIT_MAX_VARIANTS);
    uint64_t rs = 0x2e5e7, w[WSEL_WORDS_MAX];
    size_t pos = 0;
    out[0] = '\0';
    for (unsigned k = 0; k < 4; k++)
        for (size_t q = 0; q < sys->queries(c); q++)
            for (size_t v = 0; v < nv; v++) {
                size_t n = sys->words(c, q);
                for (size_t i = 0; i < n; i++)
                    w[i] = wsel_kit_mix(&rs);
                wsel_kit_replay rp;
                wsel_rng rng = wsel_kit_replay_rng(&rp, w, n);
                char ans[4096];
                assert_int_equal(sys->run(c, names[v], q, &rng, ans, sizeof ans), WSEL_OK);
                int m = snprintf(out + pos, len - pos, "%s\n", ans);
                assert_true(m > 0 && (size_t)m < len - pos);
                pos += (size_t)m;
            }
}

/* kit_system.h's case_reset: after queries (which may move state: the GSLB chain's
 * round-robin pointers), a reset case answers the same sequence as a new one. */
static void test_case_reset(void **unused)
{
    (void)unused;
    size_t nsys;
    const wsel_kit_system *const *sys = wsel_kit_systems(&nsys);
    unsigned with_reset = 0;
    static char fresh[1 << 16], again[1 << 16];
    for (size_t si = 0; si < nsys; si++) {
        if (!sys[si]->case_reset)
            continue;
        with_reset++;
        for (uint64_t seed = 1; seed <= 12; seed++) {
            char why[1024];
            void *c = sys[si]->case_new(seed, why, sizeof why);
            if (!c)
                fail_msg("%s: case %llu: %s", sys[si]->name, (unsigned long long)seed, why);
            run_sequence(sys[si], c, fresh, sizeof fresh);
            for (int r = 0; r < 2; r++) {
                assert_int_equal(sys[si]->case_reset(c), WSEL_OK);
                run_sequence(sys[si], c, again, sizeof again);
                if (strcmp(fresh, again) != 0)
                    fail_msg("%s: case %llu answers differently after a reset:\n%s---\n%s",
                             sys[si]->name, (unsigned long long)seed, fresh, again);
            }
            sys[si]->case_free(c);
        }
    }
    assert_true(with_reset >= 2); /* weighted and gslb */
}

/* The weighted invariants catch what they claim to: answers broken one way each. */
static void test_weighted_check(void **unused)
{
    (void)unused;
    wsel_config *cfg = wsel_test_load(
        "m => { multi => true\n a => [ 192.0.2.1, 4 ]\n b => [ 192.0.2.2, 2 ]\n"
        " c => [ 192.0.2.3, 4 ] }\n"
        "g => { multi => false\n g0 => { x => [ 192.0.2.4, 1 ]\n y => [ 192.0.2.5, 1 ] }\n"
        " g1 => { z => [ 192.0.2.6, 1 ] } }\n");
    wsel_state *st;
    assert_int_equal(wsel_state_new(cfg, &st, NULL), WSEL_OK);
    const wsel_resource *m = wsel_config_find(cfg, "m"), *g = wsel_config_find(cfg, "g");
    char why[256];
    wsel_answer a = { 0 };
    a.n_sets = 1;
    a.ttl = a.set[0].ttl = WSEL_MAX_TTL;
    a.set[0].count = 2;
    a.set[0].items[0] = 0;
    a.set[0].items[1] = 2;
    assert_null(wsel_kit_weighted_check(m, st, &a, why, sizeof why));
    a.set[0].count = 1; /* max-weight c missing */
    assert_non_null(wsel_kit_weighted_check(m, st, &a, why, sizeof why));
    a.set[0].count = 2;
    a.set[0].items[0] = 2; /* out of order */
    a.set[0].items[1] = 0;
    assert_non_null(wsel_kit_weighted_check(m, st, &a, why, sizeof why));
    a.set[0].items[0] = 0;
    a.set[0].items[1] = 2;
    a.set[0].ttl = 5; /* not the state's TTL */
    assert_non_null(wsel_kit_weighted_check(m, st, &a, why, sizeof why));
    a.set[0].ttl = WSEL_MAX_TTL;
    a.set[0].failed = true; /* not failed over */
    a.failed = true;
    assert_non_null(wsel_kit_weighted_check(m, st, &a, why, sizeof why));
    a.set[0].failed = a.failed = false;
    a.set[0].items[1] = 3; /* no such item */
    assert_non_null(wsel_kit_weighted_check(m, st, &a, why, sizeof why));
    /* grouped single: x and y of g0 is fine, x and z mixes groups */
    a.set[0].items[0] = 0;
    a.set[0].items[1] = 1;
    assert_null(wsel_kit_weighted_check(g, st, &a, why, sizeof why));
    a.set[0].items[1] = 2;
    assert_non_null(wsel_kit_weighted_check(g, st, &a, why, sizeof why));
    /* a DOWN item answered without failover */
    assert_int_equal(wsel_state_set(st, NULL, "192.0.2.2", false, 10, NULL, NULL), WSEL_OK);
    a.set[0].count = 3;
    a.set[0].items[0] = 0;
    a.set[0].items[1] = 1;
    a.set[0].items[2] = 2;
    a.ttl = a.set[0].ttl = 10;
    assert_non_null(wsel_kit_weighted_check(m, st, &a, why, sizeof why));
    wsel_state_free(st);
    wsel_config_free(cfg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chisq_gof),
        cmocka_unit_test(test_chisq_binoms),
        cmocka_unit_test(test_binom_indep_z),
        cmocka_unit_test(test_ks),
        cmocka_unit_test(test_corrections),
        cmocka_unit_test(test_sources),
        cmocka_unit_test(test_edges),
        cmocka_unit_test(test_systems_identity),
        cmocka_unit_test(test_case_reset),
        cmocka_unit_test(test_weighted_check),
    };
    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests_name("kit", tests, NULL, NULL);
}
