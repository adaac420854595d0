/* Strict-mode counts, exactly (doc/ring.md section 8): the reference engine (with a
 * fast engine attached and checked slot by slot after every change,
 * tests/ring_fast_wrap.h) must give every address, after every operation, the count
 * the kit's independent model computes (tests/kit/ring_strict.c, written from the
 * document). tests/test_ring_strict.c checks strict mode's properties; this file its
 * numbers, including the rules the properties never reach: slots the ranges cannot
 * absorb ("the rest goes to the touched addresses by largest remainders") and bottoms
 * that hold more than N ("the touched give way first").
 *
 * Each operation here makes exactly one redistribution (hosts added, re-weighted or
 * removed; one host per name refreshed; the clock never moves), so the model's input is
 * the view before it: an address's previous weight and count are the ones it had
 * then, an address that was not there is new, one that is gone was being removed. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define FW_FAST(k) ((void)(k), 1)
#include "ring_fast_wrap.h"
#include "ring_mock.h"
#include "support/support.h"

#define SV_MAX 64

typedef struct sview {
    size_t na;
    char key[SV_MAX][96];
    uint32_t w[SV_MAX], c[SV_MAX];
} sview;

static void sv_take(const wsel_ring *r, sview *v)
{
    v->na = wsel_ring_address_count(r);
    assert_true(v->na <= SV_MAX);
    for (size_t i = 0; i < v->na; i++) {
        wsel_ring_address a;
        wsel_ring_address_get(r, i, &a);
        snprintf(v->key[i], sizeof v->key[i], "%s:%u|%s:%u", a.host, a.host_port, a.ip, a.port);
        for (size_t k = 0; k < i; k++)
            if (strcmp(v->key[k], v->key[i]) == 0)
                fail_msg("two addresses %s", v->key[i]);
        v->w[i] = a.weight;
        v->c[i] = (uint32_t)a.n_slots;
    }
}

static long sv_find(const sview *v, const char *key)
{
    for (size_t i = 0; i < v->na; i++)
        if (strcmp(v->key[i], key) == 0)
            return (long)i;
    return -1;
}

/* The model's counts for the redistribution that led from b to a, compared with a's;
 * returns the model's path bits. */
static unsigned expect_model(const sview *b, const sview *a, uint32_t n, const char *what)
{
    wsel_kit_strict_addr in[2 * SV_MAX];
    uint32_t out[2 * SV_MAX];
    size_t m = 0;
    for (size_t i = 0; i < a->na; i++) {
        long k = sv_find(b, a->key[i]);
        in[m++] = (wsel_kit_strict_addr){a->w[i], k < 0 ? 0 : b->w[k], k < 0,
                                         k < 0 ? 0 : b->c[k]};
    }
    for (size_t i = 0; i < b->na; i++) /* being removed: weight 0; no slot can come to them */
        if (sv_find(a, b->key[i]) < 0)
            in[m++] = (wsel_kit_strict_addr){0, b->w[i], false, b->c[i]};
    unsigned path;
    const char *why = wsel_kit_ring_strict_counts(n, in, m, out, &path);
    if (why)
        fail_msg("%s: model: %s", what, why);
    for (size_t i = 0; i < a->na; i++)
        if (a->c[i] != out[i]) {
            char buf[2048];
            size_t len = 0;
            for (size_t k = 0; k < m && len < sizeof buf - 200; k++)
                len += (size_t)snprintf(buf + len, sizeof buf - len,
                                        "\n#   %s w %u prev %u%s had %u -> engine %u, model %u",
                                        k < a->na ? a->key[k] : "(removed)", in[k].weight,
                                        in[k].prev_weight, in[k].fresh ? " new" : "", in[k].count,
                                        k < a->na ? a->c[k] : 0, out[k]);
            fail_msg("%s (N = %u, path %u): %s has %u slots, the model says %u%s", what, n, path,
                     a->key[i], a->c[i], out[i], buf);
        }
    return path;
}

/* ---- hand-built cases ------------------------------------------------------------ */

/* Adds hosts 10.0.0.1.. of weights w[0..k-1] one by one to a strict ring of n slots,
 * then, when ns > 0, host s.test whose SRV record has targets 10.8.0.1.. of weights
 * srv[0..ns-1]. Every step's counts must be the model's, the counts before the last add
 * `before` and after it `after` (worked out by hand); returns the last step's path. */
static unsigned hand_adds(uint32_t n, const uint32_t *w, size_t k, const uint32_t *srv,
                          size_t ns, const uint32_t *before, const uint32_t *after)
{
    mock m = {0};
    wsel_ring_opts o = mock_opts(&m, n);
    o.strict = true;
    wsel_ring *r = NULL;
    assert_int_equal(wsel_ring_new(&o, &r, NULL), WSEL_OK);
    mock_srv_clear(&m, "s.test");
    for (size_t i = 0; i < ns; i++) {
        char t[32];
        snprintf(t, sizeof t, "10.8.0.%zu", i + 1);
        mock_srv(&m, "s.test", t, (uint32_t)(8001 + i), srv[i], 1, 3600);
    }
    sview b, a;
    unsigned path = 0;
    size_t steps = k + (ns > 0);
    sv_take(r, &b);
    for (size_t i = 0; i < steps; i++) {
        char name[32];
        if (i < k)
            snprintf(name, sizeof name, "10.0.0.%zu", i + 1);
        else
            snprintf(name, sizeof name, "s.test");
        assert_int_equal(wsel_ring_add_host(r, name, 80, i < k ? w[i] : 1, NULL), WSEL_OK);
        sv_take(r, &a);
        path = expect_model(&b, &a, n, name);
        const uint32_t *want = i + 2 == steps ? before : i + 1 == steps ? after : NULL;
        for (size_t j = 0; want && j < a.na; j++)
            if (a.c[j] != want[j])
                fail_msg("hand-built, after adding %s: %s has %u slots, by hand %u", name,
                         a.key[j], a.c[j], want[j]);
        b = a;
    }
    wsel_error err;
    if (wsel_ring_check(r, &err) != WSEL_OK)
        fail_msg("%s", err.message);
    wsel_ring_free(r);
    return path;
}

/* The leftover rule by hand (section 8).
 * 70 slots, five hosts of weight 3 then five of weight 1: W = 20, quotas 10.5 and 3.5,
 * all remainders equal, so the ceilings go to the first five: 5 x 11 + 5 x 3 = 70.
 * Adding a host of weight 1 (W = 21; dW = 1 > 0: the untouched may only lose): weight
 * 3 -> quota 10, range [10, 10]; weight 1 -> quota 3.33, range [min(3, 3), min(3, 4)] =
 * [3, 3]; the new host 3.33, range [3, 4]. The ranges hold at most 50 + 15 + 4 = 69:
 * the slot left over goes to the touched host of weight 1, which ends with 5, more than
 * one slot above its quota.
 * 100 slots, eight hosts of weight 3, four of weight 1 (quotas 10.71 and 3.57: 8 x 11 +
 * 4 x 3) and a new host of weight 2 (W = 30: ranges [10, 10], [3, 3] and [6, 7] for
 * quota 6.67; at most 99): the new host ends with 8.
 * 40 slots, seven hosts of weight 3 and five of weight 1 (W = 26, quotas 4.62 and 1.54,
 * remainders 16 and 14 of 26: 7 x 5 + 5 x 1), then an SRV host with targets of weight 1
 * and 3 (W = 30): weight 3 -> quota 4, range [4, 4]; weight 1 -> 1.33, [1, 1]; the new
 * targets 1.33, [1, 2] (remainder 10) and 4, [4, 4]. Bottoms 28 + 5 + 1 + 4 = 38, the
 * weight-1 target rises to 2, and the one slot left over is split by weight 1 : 3
 * between the two targets: remainders 1 and 3 of 4, so the weight-3 target gets it: 5. */
static void test_hand_leftover(void **u)
{
    (void)u;
    static const uint32_t w1[] = {3, 3, 3, 3, 3, 1, 1, 1, 1, 1, 1};
    static const uint32_t b1[] = {11, 11, 11, 11, 11, 3, 3, 3, 3, 3};
    static const uint32_t a1[] = {10, 10, 10, 10, 10, 3, 3, 3, 3, 3, 5};
    assert_int_equal(hand_adds(70, w1, 11, NULL, 0, b1, a1), WSEL_KIT_STRICT_LEFTOVER);
    static const uint32_t w2[] = {3, 3, 3, 3, 3, 3, 3, 3, 1, 1, 1, 1, 2};
    static const uint32_t b2[] = {11, 11, 11, 11, 11, 11, 11, 11, 3, 3, 3, 3};
    static const uint32_t a2[] = {10, 10, 10, 10, 10, 10, 10, 10, 3, 3, 3, 3, 8};
    assert_int_equal(hand_adds(100, w2, 13, NULL, 0, b2, a2), WSEL_KIT_STRICT_LEFTOVER);
    static const uint32_t w3[] = {3, 3, 3, 3, 3, 3, 3, 1, 1, 1, 1, 1}, s3[] = {1, 3};
    static const uint32_t b3[] = {5, 5, 5, 5, 5, 5, 5, 1, 1, 1, 1, 1};
    static const uint32_t a3[] = {4, 4, 4, 4, 4, 4, 4, 1, 1, 1, 1, 1, 2, 5};
    assert_int_equal(hand_adds(40, w3, 12, s3, 2, b3, a3), WSEL_KIT_STRICT_LEFTOVER);
}

/* ---- generated scenarios ----------------------------------------------------------- */

static const uint32_t sizes[] = {1, 2, 3, 5, 7, 10, 13, 19, 31, 60, 100, 257};
static const char *const names[] = {"n0.test", "n1.test", "n2.test", "n3.test"};

static void gen_answer(mock *m, size_t name, uint64_t *st)
{
    if (wsel_kit_range(st, 0, 9) == 0) {
        mock_fail(m, names[name]);
        return;
    }
    bool srv = name != 2; /* one type per name: an address never changes type */
    char addrs[6][32];
    const char *list[7];
    size_t k = 0;
    if (srv)
        mock_srv_clear(m, names[name]);
    for (size_t i = 1; i <= 5; i++) {
        if (wsel_kit_range(st, 0, 1) == 0)
            continue;
        if (srv) {
            snprintf(addrs[k], sizeof addrs[k], "10.8.0.%zu", i);
            uint32_t w = wsel_kit_range(st, 0, 7) == 0 ? (uint32_t)wsel_kit_range(st, 4, 60)
                                                       : (uint32_t)wsel_kit_range(st, 0, 3);
            mock_srv(m, names[name], addrs[k], (uint32_t)(8000 + i), w, 1, 3600);
        } else {
            snprintf(addrs[k], sizeof addrs[k], "10.9.0.%zu", i);
            list[k] = addrs[k];
        }
        k++;
    }
    if (!srv) {
        list[k] = NULL;
        mock_addr(m, names[name], WSEL_RING_A, 3600, list);
    }
}

static unsigned long paths[8], redistributions;

static void run_seed(uint64_t seed, size_t steps)
{
    uint64_t st = seed;
    mock m = {0};
    for (size_t i = 0; i < 4; i++)
        gen_answer(&m, i, &st);
    uint32_t n = sizes[wsel_kit_range(&st, 0, sizeof sizes / sizeof sizes[0] - 1)];
    wsel_ring_opts o = mock_opts(&m, n);
    o.strict = true;
    wsel_ring *r = NULL;
    assert_int_equal(wsel_ring_new(&o, &r, NULL), WSEL_OK);
    bool wide = wsel_kit_range(&st, 0, 3) == 0;
    sview b, a;
    sv_take(r, &b);
    for (size_t step = 0; step < steps; step++) {
        uint64_t op = wsel_kit_range(&st, 0, 9);
        uint32_t w = wide ? (uint32_t)wsel_kit_range(&st, 1, 100) : (uint32_t)wsel_kit_range(&st, 1, 4);
        size_t nm = wsel_kit_range(&st, 0, 3);
        char ip[32], what[96];
        snprintf(ip, sizeof ip, "10.0.0.%llu", (unsigned long long)wsel_kit_range(&st, 1, 6));
        if (op <= 2) {
            snprintf(what, sizeof what, "add %s weight %u", ip, w);
            assert_int_equal(wsel_ring_add_host(r, ip, 80, w, NULL), WSEL_OK);
        } else if (op == 3) {
            snprintf(what, sizeof what, "remove %s", ip);
            assert_int_equal(wsel_ring_remove_host(r, ip, 80, NULL, NULL), WSEL_OK);
        } else if (op <= 5) {
            snprintf(what, sizeof what, "add %s weight %u", names[nm], w);
            assert_int_equal(wsel_ring_add_host(r, names[nm], 80, w, NULL), WSEL_OK);
        } else if (op == 6) {
            snprintf(what, sizeof what, "remove %s", names[nm]);
            assert_int_equal(wsel_ring_remove_host(r, names[nm], 80, NULL, NULL), WSEL_OK);
        } else {
            snprintf(what, sizeof what, "refresh %s", names[nm]);
            gen_answer(&m, nm, &st);
            assert_int_equal(wsel_ring_refresh(r, names[nm], NULL), WSEL_OK);
        }
        wsel_error err;
        if (wsel_ring_check(r, &err) != WSEL_OK)
            fail_msg("seed %llu step %zu: %s", (unsigned long long)seed, step, err.message);
        sv_take(r, &a);
        char label[160];
        snprintf(label, sizeof label, "seed %llu step %zu, %s", (unsigned long long)seed, step,
                 what);
        unsigned pth = expect_model(&b, &a, n, label);
        paths[pth]++;
        unsigned path = expect_model(&b, &a, n, label);
        paths[path]++;
        redistributions++;
        b = a;
    }
    wsel_ring_free(r);
}

/* Seeds whose scenarios reach the rarer rules, found by a run of 30 000 seeds
 * (WSEL_STRICT_SEEDS=30000): a leftover with dW = 0 (a DNS answer adds an address of
 * weight 1, re-weights one 1 -> 2 and drops others; step 59), a leftover to a new
 * address of weight 2 (step 29), the touched giving way in iteration order (step 55),
 * a leftover with dW = 0 (step 10) and an untouched address giving back its raise
 * (step 57). */
static const uint64_t pinned[] = {340073091064405491ull, 12863923506484211403ull,
                                  6870970938548771667ull, 6508549766421047592ull};

static void test_generated(void **u)
{
    (void)u;
    unsigned seeds = wsel_kit_under_valgrind() ? 40 : 600;
    const char *env = getenv("WSEL_STRICT_SEEDS"); /* a longer search, by hand */
    if (env && atoi(env) > 0)
        seeds = (unsigned)atoi(env);
    for (uint64_t seed = 1; seed <= seeds; seed++)
        run_seed(seed * 0x9E3779B97F4A7C15ull, 60);
    for (size_t i = 0; i < sizeof pinned / sizeof pinned[0]; i++)
        run_seed(pinned[i], 60);
    unsigned long left = 0, excess = 0, to_untouched = 0;
    for (unsigned i = 0; i < 8; i++) {
        left += i & WSEL_KIT_STRICT_LEFTOVER ? paths[i] : 0;
        to_untouched += i & WSEL_KIT_STRICT_TO_UNTOUCHED ? paths[i] : 0;
        excess += i & WSEL_KIT_STRICT_EXCESS ? paths[i] : 0;
    }
    printf("# strict model: %lu operations; leftover to touched %lu, to untouched %lu; "
           "excess %lu\n", redistributions, left - to_untouched, to_untouched, excess);
    assert_true(left >= 2 && excess >= 2); /* the pinned seeds reach them */
}

WSEL_TEST_MAIN("ring_strict_model", cmocka_unit_test(test_hand_leftover),
               cmocka_unit_test(test_generated))
