/* The fast engine against the reference engine (the judge): every compiled-in and
 * available variant must return the answer ref returns for the same words -- same items,
 * failed flag and TTL -- and consume the same number of words. Also: the AVX2 bulk
 * generator against the scalar stream, the engines' direct default-generator paths
 * (same words, same generator state as rng->fill), known-answer vectors written by ref
 * (tests/data/kat/), the bit-position table, engine names, dispatch and API misuse.
 *
 * Words are partly uniform and partly placed on the exact edges of the contract's maps:
 * for a CHOOSE prefix c of total D and an INCLUDE weight d of layer max M, the edge is
 * ceil(c * 2^64 / D) (resp. ceil(d * 2^64 / M)), computed here by 128-bit division from
 * dynamic weights derived from the public state API, independent of fast/weighted/weighted_prepare.c. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "support/support.h"
#include "../core/prng_internal.h"
#include "../fast/weighted/weighted_fast.h"
#include "../core/weighted/weighted_variant.h"

__extension__ typedef unsigned __int128 u128;

/* ---- bit-position table --------------------------------------------------------- */

extern const uint8_t wsel__bit_pos[256][8];

static void test_bitpos_table(void **unused)
{
    (void)unused;
    for (unsigned b = 0; b < 256; b++) {
        unsigned k = 0;
        for (unsigned bit = 0; bit < 8; bit++)
            if (b & (1u << bit))
                assert_int_equal(wsel__bit_pos[b][k++], bit);
    }
}

/* The CHOOSE map floor(w * m / 2^64) without a 128-bit integer (fast/weighted/
 * weighted_fast.h) against the 128-bit product: every pair of edge values (among them
 * pairs whose middle partial sum is exactly 2^32, so that one bit less in a partial
 * product loses the carry: w = 2^32 + 1, m = 2^33 - 1), then a million pseudo-random
 * pairs (the kit's splitmix64, wsel_kit_mix). */
static void test_mulhi_portable(void **unused)
{
    (void)unused;
    __extension__ typedef unsigned __int128 u128;
    static const uint64_t edge[] = {0, 1, 2, 3, 0xffffffffu, 0x100000000u, 0x100000001u,
                                    0x1ffffffffu, 0x80000000u, 0x8000000000000000u,
                                    0xffffffff00000001u, 0xfffffffffffffffeu, 0xffffffffffffffffu};
    size_t ne = sizeof edge / sizeof edge[0];
    for (size_t i = 0; i < ne; i++)
        for (size_t j = 0; j < ne; j++)
            if (wsel__mulhi_portable(edge[i], edge[j]) != (uint64_t)(((u128)edge[i] * edge[j]) >> 64))
                fail_msg("mulhi(%#llx, %#llx)", (unsigned long long)edge[i],
                         (unsigned long long)edge[j]);
    uint64_t x = 0x243f6a8885a308d3u;
    for (int k = 0; k < 1000000; k++) {
        uint64_t w = wsel_kit_mix(&x), m = wsel_kit_mix(&x);
        if (wsel__mulhi_portable(w, m) != (uint64_t)(((u128)w * m) >> 64))
            fail_msg("mulhi(%#llx, %#llx)", (unsigned long long)w, (unsigned long long)m);
    }
}

/* ---- generator streams ------------------------------------------------------------ */

static void test_prng_fill_matches_next(void **unused)
{
    (void)unused;
    static const uint64_t seeds[] = { 0, 1, 42, 0xdeadbeefcafef00dull };
    static const unsigned offsets[] = { 0, 1, 2, 3, 5, 7, 9 };
    uint64_t got[128], want[128];
    for (size_t si = 0; si < sizeof seeds / sizeof seeds[0]; si++) {
        for (size_t oi = 0; oi < sizeof offsets / sizeof offsets[0]; oi++) {
            for (size_t len = 0; len <= 100; len++) {
                wsel_prng a, b;
                wsel_prng_seed(&a, seeds[si]);
                wsel_prng_seed(&b, seeds[si]);
                for (unsigned k = 0; k < offsets[oi]; k++)
                    assert_true(wsel_prng_next(&a) == wsel_prng_next(&b));
                wsel_prng_fill(&a, got, len);
                for (size_t i = 0; i < len; i++)
                    want[i] = wsel_prng_next(&b);
                assert_memory_equal(got, want, len * sizeof got[0]);
                /* the generators must also continue identically */
                assert_true(wsel_prng_next(&a) == wsel_prng_next(&b));
            }
        }
    }
}

/* Every instruction-set level's bulk fill of the generator against the portable one. */
static void test_prng_blocks_variants(void **unused)
{
    (void)unused;
    for (int isa = 0; isa < WSEL__ISA_COUNT_; isa++) {
        if (!wsel__isa_runs(isa)) {
            /* (cmocka's skip() reads as "not ok" to scripts/run-tests.sh) */
            printf("# %s does not run here: its fill was not compared\n", wsel__isa_name(isa));
            continue;
        }
        uint64_t a[100], b[100];
        for (uint64_t seed = 1; seed < 6; seed++) {
            for (size_t blocks = 0; blocks <= 25; blocks++) {
                wsel_prng p, q;
                wsel_prng_seed(&p, seed * 7919);
                q = p;
                wsel__prng_blocks_for((wsel__isa)isa)(p.s, a, blocks);
                wsel__prng_blocks_portable(q.s, b, blocks);
                assert_memory_equal(a, b, blocks * 4 * sizeof a[0]);
                assert_memory_equal(p.s, q.s, sizeof p.s);
            }
        }
    }
}

/* ---- engine names and dispatch ---------------------------------------------------- */

static void test_engine_api(void **unused)
{
    (void)unused;
    assert_string_equal(wsel_engine_name(WSEL_ENGINE_REF), "ref");
    assert_string_equal(wsel_engine_name(WSEL_ENGINE_FAST), "fast");
    assert_false(wsel_variant_available("fast-avx512"));
    assert_false(wsel_variant_available(NULL));
    assert_true(wsel_variant_available("ref"));
    assert_true(wsel_variant_available("fast"));
    assert_true(wsel_variant_available("fast-scalar"));
    const char *sel = wsel_fast_selected();
    /* WSEL_FAST_KERNEL (see `make fast-env`) picks the variant when it is available */
    const char *env = getenv("WSEL_FAST_KERNEL");
    if (env) {
        char name[64];
        snprintf(name, sizeof name, "fast-%s", env);
        if (wsel_variant_available(name))
            assert_string_equal(sel, name);
    }
    assert_true(strncmp(sel, "fast-", 5) == 0);
    assert_true(wsel_variant_available(sel));
    assert_int_equal(wsel_fast_force("ref"), WSEL_E_ARG);
    assert_int_equal(wsel_fast_force("fast-avx512"), WSEL_E_ARG);

    wsel_config *cfg = wsel_test_load("r => { a => [ 192.0.2.1, 1 ] }\n");
    wsel_state *st;
    assert_int_equal(wsel_state_new(cfg, &st, NULL), WSEL_OK);
    for (size_t i = 0; i < wsel_variant_count(); i++) {
        const char *v = wsel_variant_name(i);
        if (strcmp(v, "ref") == 0)
            continue;
        wsel_resolver *r = NULL;
        wsel_error err;
        if (!wsel_variant_available(v)) {
            assert_int_equal(wsel_fast_force(v), WSEL_E_UNSUPPORTED);
            assert_int_equal(wsel_resolver_new_variant(cfg, st, v, &r, &err), WSEL_E_UNSUPPORTED);
            assert_null(r);
            continue;
        }
        assert_int_equal(wsel_fast_force(v), WSEL_OK);
        assert_string_equal(wsel_fast_selected(), v);
        /* the one override reaches the generator's bulk fill too */
        assert_ptr_equal(wsel__variant_fast(), wsel__variant_find(v));
        assert_int_equal(wsel__isa_selected(), wsel__variant_find(v)->info.isa);
        if (strcmp(v, "fast-avx2") != 0)
            assert_true(wsel__prng_blocks_for(wsel__isa_selected()) == wsel__prng_blocks_portable);
        else
            assert_true(wsel__prng_blocks_for(wsel__isa_selected()) != wsel__prng_blocks_portable);
        assert_int_equal(wsel_resolver_new(cfg, st, WSEL_ENGINE_FAST, &r, &err), WSEL_OK);
        assert_string_equal(wsel_resolver_variant(r), v);
        assert_int_equal(wsel_resolver_engine(r), WSEL_ENGINE_FAST);
        wsel_resolver_free(r);
    }
    assert_int_equal(wsel_fast_force(NULL), WSEL_OK);
    assert_string_equal(wsel_fast_selected(), sel);

    /* a resource of another config is refused, not misread */
    wsel_config *other = wsel_test_load("r => { a => [ 192.0.2.1, 1 ] }\n");
    wsel_resolver *r;
    assert_int_equal(wsel_resolver_new(cfg, st, WSEL_ENGINE_FAST, &r, NULL), WSEL_OK);
    wsel_prng p;
    wsel_prng_seed(&p, 1);
    wsel_rng rng = wsel_prng_rng(&p);
    wsel_answer ans;
    assert_int_equal(wsel_resolve(r, wsel_config_find(other, "r"), &rng, &ans), WSEL_E_ARG);
    assert_int_equal(wsel_resolve(r, wsel_config_find(cfg, "r"), &rng, &ans), WSEL_OK);
    assert_int_equal(wsel_resolve(NULL, wsel_config_find(cfg, "r"), &rng, &ans), WSEL_E_ARG);
    wsel_resource copy = *wsel_config_find(cfg, "r");
    assert_int_equal(wsel_resolve(r, &copy, &rng, &ans), WSEL_E_ARG);
    copy.index = 7;
    assert_int_equal(wsel_resolve(r, &copy, &rng, &ans), WSEL_E_ARG);
    wsel_rng broken = { NULL, NULL, NULL };
    assert_int_equal(wsel_resolve(r, wsel_config_find(cfg, "r"), &broken, &ans), WSEL_E_ARG);
    wsel_resolver *r2 = r;
    assert_int_equal(wsel_resolver_new(cfg, st, (wsel_engine_id)99, &r2, NULL), WSEL_E_ARG);
    assert_null(r2);
    r2 = r;
    assert_int_equal(wsel_resolver_new_variant(cfg, st, "fast-avx512", &r2, NULL), WSEL_E_ARG);
    assert_null(r2);
    assert_int_equal(wsel_resolver_new(cfg, NULL, WSEL_ENGINE_FAST, &r2, NULL), WSEL_E_ARG);
    wsel_state *st2;
    assert_int_equal(wsel_state_new(other, &st2, NULL), WSEL_OK);
    assert_int_equal(wsel_resolver_new(cfg, st2, WSEL_ENGINE_FAST, &r2, NULL), WSEL_E_ARG);
    wsel_state_free(st2);
    wsel_resolver_free(r);
    wsel_config_free(other);
    wsel_state_free(st);
    wsel_config_free(cfg);
}

/* A CPU without SSE2 and AVX2 (core/isa.h's wsel__cpu_hide): every SIMD variant is then
 * unavailable, and asking for one by name is WSEL_E_UNSUPPORTED with no resolver made,
 * on this machine too; fast-scalar and ref still run. */
static void test_variant_cpu_without_simd(void **unused)
{
    (void)unused;
    wsel_config *cfg = wsel_test_load("r => { a => [ 192.0.2.1, 1 ] }\n");
    wsel_state *st;
    assert_int_equal(wsel_state_new(cfg, &st, NULL), WSEL_OK);
    wsel__cpu_hide(WSEL__CPU_SSE2 | WSEL__CPU_AVX2);
    static const char *const simd[] = {"fast-sse2", "fast-avx2"};
    for (size_t i = 0; i < sizeof simd / sizeof simd[0]; i++) {
        assert_false(wsel_variant_available(simd[i]));
        wsel_resolver *r = (wsel_resolver *)&r;
        wsel_error err;
        assert_int_equal(wsel_resolver_new_variant(cfg, st, simd[i], &r, &err),
                         WSEL_E_UNSUPPORTED);
        assert_null(r);
        assert_non_null(strstr(err.message, "not available in this build or on this CPU"));
    }
    static const char *const plain[] = {"ref", "fast-scalar"};
    for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++) {
        wsel_resolver *r = NULL;
        assert_int_equal(wsel_resolver_new_variant(cfg, st, plain[i], &r, NULL), WSEL_OK);
        assert_string_equal(wsel_resolver_variant(r), plain[i]);
        wsel_resolver_free(r);
    }
    wsel_state_free(st);
    wsel_config_free(cfg);
}

/* Shows the CPU's features again even when the test above failed half-way. */
static int show_cpu(void **unused)
{
    (void)unused;
    wsel__cpu_hide(0);
    return 0;
}

/* ---- identity sweep --------------------------------------------------------------- */

/* Every engine variant this build and CPU run, by the kit's list (ref, fast and each
 * fast variant); slots past the list stay unused. */
#define N_ENGINES WSEL_KIT_MAX_VARIANTS
static const char *engines[N_ENGINES];

static bool engine_slot(int e)
{
    static size_t n;
    if (!n)
        n = wsel_kit_variants(engines, N_ENGINES, true);
    return (size_t)e < n;
}

/* A source with its own take op: the fast engine must use it (not fill), read only the
 * n words it hands over (the slack holds garbage), and answer as ref does. */
typedef struct take_src {
    uint64_t w[4096];
    size_t pos;
    unsigned takes;
} take_src;

static void take_fill(void *ctx, uint64_t *out, size_t n)
{
    take_src *t = ctx;
    assert_true(t->pos + n <= 4096);
    memcpy(out, t->w + t->pos, n * sizeof *out);
    t->pos += n;
}

static void take_take(void *ctx, uint64_t *out, size_t n)
{
    take_fill(ctx, out, n);
    memset(out + n, 0xa5, WSEL_RNG_SLACK * sizeof *out);
    ((take_src *)ctx)->takes++;
}

static void test_source_take_op(void **unused)
{
    (void)unused;
    wsel_config *cfg = wsel_test_load_synopsis();
    wsel_state *st;
    assert_int_equal(wsel_state_new(cfg, &st, NULL), WSEL_OK);
    static take_src src, plain;
    wsel_prng p;
    wsel_prng_seed(&p, 99);
    wsel_prng_fill(&p, src.w, 4096);
    for (int e = 0; e < N_ENGINES; e++) {
        if (!engine_slot(e) || strcmp(engines[e], "ref") == 0)
            continue;
        wsel_resolver *r;
        assert_int_equal(wsel_kit_resolver_new(cfg, st, engines[e], &r, NULL), WSEL_OK);
        src.pos = 0;
        src.takes = 0;
        plain = src;
        wsel_rng with_take = { take_fill, &src, take_take };
        wsel_rng fill_only = { take_fill, &plain, NULL };
        for (int round = 0; round < 8; round++) {
            for (size_t i = 0; i < wsel_config_resource_count(cfg); i++) {
                const wsel_resource *res = wsel_config_resource(cfg, i);
                if (src.pos + wsel_resource_words(res) > 4096)
                    continue;
                wsel_answer a, b;
                assert_int_equal(wsel_resolve(r, res, &with_take, &a), WSEL_OK);
                assert_int_equal(wsel_ref_resolve(res, st, &fill_only, &b), WSEL_OK);
                if (!wsel_answer_equal(&a, &b))
                    fail_msg("%s: %s differs from ref with a source's take op", engines[e],
                             res->name);
            }
        }
        assert_true(src.takes > 0);
        assert_int_equal(src.pos, plain.pos);
        wsel_resolver_free(r);
    }
    wsel_state_free(st);
    wsel_config_free(cfg);
}


typedef struct pool {
    uint64_t w[8192];
    size_t n;
} pool;

/* Edge words of every layer of `set` under `st` (the kit's boundary words). */
static void edges_of(const wsel_set *set, const wsel_state *st, pool *p)
{
    wsel_kit_weighted_edges(set, st, p->w, &p->n, sizeof p->w / sizeof p->w[0]);
}

typedef struct sweep_stats {
    unsigned long queries, compared, failed_sets, multi_items;
} sweep_stats;

/* Resolves every resource of cfg `q` times with each engine and compares with ref. */
static void compare_all(const wsel_config *cfg, const wsel_state *st, uint64_t *rs,
                        unsigned q, sweep_stats *stats)
{
    wsel_resolver *r[N_ENGINES] = { 0 };
    for (int e = 0; e < N_ENGINES; e++) {
        if (!engine_slot(e))
            continue;
        wsel_error err;
        assert_int_equal(wsel_kit_resolver_new(cfg, st, engines[e], &r[e], &err), WSEL_OK);
    }
    static pool p;
    uint64_t w[WSEL_WORDS_MAX];
    for (size_t ri = 0; ri < wsel_config_resource_count(cfg); ri++) {
        const wsel_resource *res = wsel_config_resource(cfg, ri);
        size_t n = wsel_resource_words(res);
        assert_true(n <= WSEL_WORDS_MAX);
        p.n = 0;
        for (uint32_t s = 0; s < res->n_sets; s++)
            edges_of(&res->sets[s], st, &p);
        for (unsigned k = 0; k < q; k++) {
            /* query 0: all edges of one kind; others: a mix of edges and uniform words */
            unsigned style = (unsigned)wsel_kit_range(rs, 0, 3);
            for (size_t i = 0; i < n; i++) {
                if (style == 0 || (style == 1 && wsel_kit_range(rs, 0, 1)))
                    w[i] = wsel_kit_mix(rs);
                else
                    w[i] = p.w[wsel_kit_range(rs, 0, p.n - 1)];
            }
            wsel_kit_replay rp;
            wsel_rng rng = wsel_kit_replay_rng(&rp, w, n);
            wsel_answer want, got;
            assert_int_equal(wsel_ref_resolve(res, st, &rng, &want), WSEL_OK);
            stats->queries++;
            for (uint32_t s = 0; s < want.n_sets; s++) {
                stats->failed_sets += want.set[s].failed;
                stats->multi_items += want.set[s].count > 1;
            }
            for (int e = 0; e < N_ENGINES; e++) {
                if (!r[e])
                    continue;
                rng = wsel_kit_replay_rng(&rp, w, n);
                memset(&got, 0xa5, sizeof got);
                assert_int_equal(wsel_resolve(r[e], res, &rng, &got), WSEL_OK);
                assert_int_equal(rp.pos, n);
                assert_int_equal(rp.overrun, 0);
                if (!wsel_answer_equal(&want, &got)) {
                    char a[4096], b[4096];
                    wsel_kit_format_answer(res, &want, a, sizeof a);
                    wsel_kit_format_answer(res, &got, b, sizeof b);
                    fail_msg("%s differs from ref on resource %s (%s): want %s, got %s",
                             wsel_kit_resolver_variant(r[e]), res->name,
                             wsel_mode_name(res->sets[0].mode), a, b);
                }
                stats->compared++;
            }
        }
        /* the default generator, through the direct bulk path, keeps the same stream */
        for (int e = 0; e < N_ENGINES; e++) {
            if (!r[e])
                continue;
            wsel_prng pa, pb;
            wsel_prng_seed(&pa, ri * 31 + (uint64_t)e);
            pb = pa;
            wsel_rng ra = wsel_prng_rng(&pa), rb = wsel_prng_rng(&pb);
            wsel_answer want, got;
            for (int k = 0; k < 5; k++) {
                assert_int_equal(wsel_ref_resolve(res, st, &ra, &want), WSEL_OK);
                assert_int_equal(wsel_resolve(r[e], res, &rb, &got), WSEL_OK);
                assert_true(wsel_answer_equal(&want, &got));
            }
            assert_true(wsel_prng_next(&pa) == wsel_prng_next(&pb));
        }
    }
    for (int e = 0; e < N_ENGINES; e++)
        wsel_resolver_free(r[e]);
}

/* One random monitoring state: wsel_test_random_state's seed, share of DOWN items and
 * whether the TTLs are random. */
typedef struct state_round {
    uint64_t seed;
    double p_down;
    bool random_ttl;
} state_round;

/* Loads `text` (every resource's first set in mode `want_mode`, unless it is negative)
 * and, under each of the n states in turn, compares every engine with ref q times per
 * resource. */
static void compare_text(const char *text, int want_mode, const state_round *rounds, size_t n,
                         uint64_t *rs, unsigned q, sweep_stats *stats)
{
    wsel_config *cfg = wsel_test_load(text);
    for (size_t ri = 0; want_mode >= 0 && ri < wsel_config_resource_count(cfg); ri++)
        assert_int_equal(wsel_config_resource(cfg, ri)->sets[0].mode, want_mode);
    wsel_state *st;
    assert_int_equal(wsel_state_new(cfg, &st, NULL), WSEL_OK);
    for (size_t k = 0; k < n; k++) {
        wsel_test_random_state(st, cfg, rounds[k].seed, rounds[k].p_down, rounds[k].random_ttl);
        compare_all(cfg, st, rs, q, stats);
    }
    wsel_state_free(st);
    wsel_config_free(cfg);
}

static void test_identity_sweep(void **unused)
{
    (void)unused;
    static const double p_down[] = { 0.0, 0.15, 0.5, 0.9, 1.0 };
    sweep_stats stats = { 0 };
    uint64_t rs = 0x5eed;
    for (uint64_t seed = 0; seed < 160; seed++) {
        char *text = wsel_kit_weighted_gen_config(seed, NULL);
        assert_non_null(text);
        state_round rounds[sizeof p_down / sizeof p_down[0]];
        for (size_t k = 0; k < sizeof p_down / sizeof p_down[0]; k++)
            rounds[k] = (state_round){ seed * 977 + k, p_down[k], k % 2 == 1 };
        compare_text(text, -1, rounds, sizeof rounds / sizeof rounds[0], &rs, 12, &stats);
        free(text);
    }
    /* the sweep must have exercised what it claims to */
    assert_true(stats.queries > 10000);
    assert_true(stats.failed_sets > 100);
    assert_true(stats.multi_items > 1000);
    printf("# identity sweep: %lu queries, %lu engine answers compared, %lu failed sets\n",
           stats.queries, stats.compared, stats.failed_sets);
}

/* The config of test_prng_direct_paths: multi sets of every width 1..64, a one-word
 * resource, grouped sets of 1..12 groups and resources with both families. */
static wsel_config *direct_paths_config(void)
{
    static char text[1 << 17];
    size_t len = 0;
    len += (size_t)snprintf(text + len, sizeof text - len, "service_types => [ mon ]\n");
    for (int n = 1; n <= 64; n++) {
        len += (size_t)snprintf(text + len, sizeof text - len, "m%d => { multi => true\n", n);
        for (int i = 0; i < n; i++)
            len += (size_t)snprintf(text + len, sizeof text - len,
                                    " a%d => [ 10.%d.0.%d, %d ]\n", i, n, i + 1,
                                    (i * 7919 + n * 104729) % 1048575 + 1);
        len += (size_t)snprintf(text + len, sizeof text - len, "}\n");
    }
    len += (size_t)snprintf(text + len, sizeof text - len,
                            "one => { a => [ 10.99.0.1, 3 ], b => [ 10.99.0.2, 5 ] }\n");
    /* grouped sets of 1..12 groups of varied sizes (1 + A and 2G words), and resources
     * with both families (the second set's words follow the first's) */
    for (int G = 1; G <= 12; G++) {
        for (int multi = 0; multi < 2; multi++) {
            len += (size_t)snprintf(text + len, sizeof text - len, "g%c%d => { multi => %s\n",
                                    multi ? 'm' : 's', G, multi ? "true" : "false");
            for (int g = 0; g < G; g++) {
                len += (size_t)snprintf(text + len, sizeof text - len, " g%d => {", g);
                for (int a = 0; a < (g * 5 + G) % 11 + 1; a++)
                    len += (size_t)snprintf(text + len, sizeof text - len,
                                            " a%d => [ 10.%d.%d.%d, %d ]", a, 100 + G,
                                            g + 16 * multi, a + 1, (a * 31 + g * 17) % 100 + 1);
                len += (size_t)snprintf(text + len, sizeof text - len, " }\n");
            }
            len += (size_t)snprintf(text + len, sizeof text - len, "}\n");
        }
        len += (size_t)snprintf(text + len, sizeof text - len,
                                "b%d => { addrs_v4 => { a => [ 10.98.%d.1, 2 ], b => [ 10.98.%d.2, 3 ] }"
                                " addrs_v6 => { multi => true", G, G, G);
        for (int a = 0; a < G * 3; a++)
            len += (size_t)snprintf(text + len, sizeof text - len, " x%d => [ 2001:db8:%x::%x, %d ]",
                                    a, G, a + 1, a % 7 + 1);
        len += (size_t)snprintf(text + len, sizeof text - len, " } }\n");
        /* both families multi (the AVX2 fused path runs once per set) */
        len += (size_t)snprintf(text + len, sizeof text - len,
                                "dm%d => { addrs_v4 => { multi => true", G);
        for (int a = 0; a < 7 + G; a++)
            len += (size_t)snprintf(text + len, sizeof text - len, " a%d => [ 10.97.%d.%d, %d ]",
                                    a, G, a + 1, a * 13 % 9 + 1);
        len += (size_t)snprintf(text + len, sizeof text - len, " } addrs_v6 => { multi => true");
        for (int a = 0; a < 4 + 5 * G; a++)
            len += (size_t)snprintf(text + len, sizeof text - len, " x%d => [ 2001:db8:97:%x::%x, %d ]",
                                    a, G, a + 1, a % 5 + 1);
        len += (size_t)snprintf(text + len, sizeof text - len, " } }\n");
    }
    return wsel_test_load(text);
}

/* Some items DOWN in the config of direct_paths_config. */
static void direct_paths_down(wsel_state *st)
{
    for (int n = 1; n <= 64; n++) {
        char key[64];
        snprintf(key, sizeof key, "10.%d.0.1", n);
        assert_int_equal(wsel_state_set(st, "mon", key, false, 50, NULL, NULL), WSEL_OK);
    }
    /* dual multi: v6 of every third fails over (most weight DOWN, TTL 40), v4 of every
     * fourth has one address DOWN (TTL 20) */
    for (int G = 1; G <= 12; G++) {
        char key[64];
        for (int a = 0; G % 3 == 0 && a < (4 + 5 * G) * 3 / 4; a++) {
            snprintf(key, sizeof key, "2001:db8:97:%x::%x", G, a + 1);
            assert_int_equal(wsel_state_set(st, "mon", key, false, 40, NULL, NULL), WSEL_OK);
        }
        snprintf(key, sizeof key, "10.97.%d.2", G);
        if (G % 4 == 0)
            assert_int_equal(wsel_state_set(st, "mon", key, false, 20, NULL, NULL), WSEL_OK);
    }
}

/* The direct default-generator paths (buffered words, block refills, the fused
 * draw-and-compare of ungrouped-multi) must consume exactly the words rng->fill would:
 * every set width, several queries in a row so every buffer position is met, and the
 * generators compared word for word afterwards. */
static void test_prng_direct_paths(void **unused)
{
    (void)unused;
    wsel_config *cfg = direct_paths_config();
    wsel_state *st;
    assert_int_equal(wsel_state_new(cfg, &st, NULL), WSEL_OK);
    /* some items DOWN, so answers depend on the words */
    direct_paths_down(st);
    size_t n_res = wsel_config_resource_count(cfg);
    for (int e = 0; e < N_ENGINES; e++) {
        if (!engine_slot(e))
            continue;
        wsel_resolver *r;
        assert_int_equal(wsel_kit_resolver_new(cfg, st, engines[e], &r, NULL), WSEL_OK);
        for (size_t ri = 0; ri < n_res; ri++) {
            const wsel_resource *res = wsel_config_resource(cfg, ri);
            const wsel_resource *one = wsel_config_find(cfg, "one");
            wsel_prng pa, pb;
            wsel_prng_seed(&pa, 1000 + ri);
            pb = pa;
            wsel_rng ra = wsel_prng_rng(&pa), rb = wsel_prng_rng(&pb);
            for (int q = 0; q < 12; q++) {
                /* interleave a one-word query to move the buffer position around */
                const wsel_resource *x = q % 3 == 2 ? one : res;
                wsel_answer want, got;
                assert_int_equal(wsel_ref_resolve(x, st, &ra, &want), WSEL_OK);
                assert_int_equal(wsel_resolve(r, x, &rb, &got), WSEL_OK);
                if (!wsel_answer_equal(&want, &got))
                    fail_msg("%s: %s query %d differs from ref",
                             wsel_kit_resolver_variant(r), x->name, q);
                assert_int_equal(pa.pos, pb.pos);
            }
            assert_true(wsel_prng_next(&pa) == wsel_prng_next(&pb));
            assert_memory_equal(pa.s, pb.s, sizeof pa.s);
        }
        wsel_resolver_free(r);
    }
    wsel_state_free(st);
    wsel_config_free(cfg);
}

/* ---- planted generator words ------------------------------------------------------ */

typedef struct plant_tally {
    unsigned planted, included;
} plant_tally;

/* Plants each INCLUDE edge word (e - 1, e, e + 1) of set k of `res` (an ungrouped-multi
 * set whose words start at `base` in the query's stream) and compares every engine in
 * r[] with ref, and ref with the contract. */
static void plant_set_edges(const wsel_resource *res, const wsel_state *st,
                            wsel_resolver *const r[N_ENGINES], uint32_t k, size_t base,
                            uint64_t *rs, plant_tally *t)
{
    const wsel_set *set = &res->sets[k];
    uint32_t n = set->n_items;
    size_t nw = wsel_resource_words(res);
    uint64_t M = 0, up = 0, d[64];
    for (uint32_t i = 0; i < n; i++) {
        wsel_mstate ms = wsel_state_item(st, set, &set->items[i]);
        d[i] = ms.up ? set->items[i].weight : 0;
        up += d[i];
    }
    for (uint32_t i = 0; i < n; i++) {
        if (up < set->threshold) /* up_thresh failover: every item counts as UP */
            d[i] = set->items[i].weight;
        M = d[i] > M ? d[i] : M;
    }
    for (uint32_t i = 0; i < n; i++) {
        if (!d[i])
            continue;
        uint64_t e0 = wsel_kit_edge_sat(d[i], M);
        for (uint64_t w = e0 - 1; w != e0 + 2 && w != 0; w++) {
            wsel_prng p;
            wsel_kit_prng_plant(&p, rs, (unsigned)wsel_kit_range(rs, 0, 3), base + i, w);
            wsel_prng check = p;
            uint64_t words[WSEL_WORDS_MAX];
            wsel_prng_fill(&check, words, nw);
            assert_true(words[base + i] == w); /* the plant worked */
            wsel_answer want;
            wsel_prng pr = p;
            wsel_rng rng = wsel_prng_rng(&pr);
            assert_int_equal(wsel_ref_resolve(res, st, &rng, &want), WSEL_OK);
            bool in = false;
            for (unsigned j = 0; j < want.set[k].count; j++)
                in |= want.set[k].items[j] == i;
            /* the contract, independently: word * M < d * 2^64 */
            assert_int_equal(in, (u128)w * M < (u128)d[i] << 64);
            t->included += in;
            t->planted++;
            for (int e = 0; e < N_ENGINES; e++) {
                if (!r[e])
                    continue;
                wsel_prng pe = p;
                wsel_rng re = wsel_prng_rng(&pe);
                wsel_answer got;
                assert_int_equal(wsel_resolve(r[e], res, &re, &got), WSEL_OK);
                if (!wsel_answer_equal(&want, &got))
                    fail_msg("%s differs from ref on %s: set %u of %u items, word %u planted "
                             "at %s edge", wsel_kit_resolver_variant(r[e]),
                             res->name, k, n, i, in ? "an included" : "an excluded");
                assert_memory_equal(pe.s, pr.s, sizeof pe.s);
                assert_int_equal(pe.pos, pr.pos);
            }
        }
    }
}

/* Ungrouped-multi from the default generator takes the AVX2 kernel's fused
 * draw-and-compare path (one set, or both sets of a dual-family resource), which the
 * replayed words of the sweeps never reach: plant each item's INCLUDE edge words at
 * that item's place in the stream, after 0..3 buffered words. */
static void test_planted_edges(void **unused)
{
    (void)unused;
    /* v4 items, v6 items (0: single family) */
    static const unsigned shapes[][2] = { { 8, 0 }, { 9, 0 }, { 13, 0 }, { 31, 0 }, { 64, 0 },
                                          { 8, 8 }, { 13, 21 }, { 64, 64 }, { 3, 17 } };
    uint64_t rs = 0x91a7;
    plant_tally t = { 0, 0 };
    static char text[16384];
    for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
        unsigned n4 = shapes[si][0], n6 = shapes[si][1];
        size_t len = (size_t)snprintf(text, sizeof text, "service_types => [ mon ]\nr => { %s",
                                      n6 ? "addrs_v4 => { multi => true\n" : "multi => true\n");
        for (unsigned i = 0; i < n4; i++)
            len += (size_t)snprintf(text + len, sizeof text - len, " a%u => [ 10.7.0.%u, %u ]\n",
                                    i, i + 1, i == 3 ? 1048575u : (i * 7919u) % 1000u + 1u);
        if (n6) {
            len += (size_t)snprintf(text + len, sizeof text - len, "} addrs_v6 => { multi => true\n");
            for (unsigned i = 0; i < n6; i++)
                len += (size_t)snprintf(text + len, sizeof text - len,
                                        " b%u => [ 2001:db8::%x, %u ]\n", i, i + 1,
                                        (i * 104729u) % 1000u + 1u);
        }
        snprintf(text + len, sizeof text - len, n6 ? "} }\n" : "}\n");
        wsel_config *cfg = wsel_test_load(text);
        const wsel_resource *res = wsel_config_find(cfg, "r");
        assert_non_null(res);
        wsel_state *st;
        assert_int_equal(wsel_state_new(cfg, &st, NULL), WSEL_OK);
        assert_int_equal(wsel_state_set(st, "mon", "10.7.0.2", false, 30, NULL, NULL), WSEL_OK);
        wsel_resolver *r[N_ENGINES] = { 0 };
        for (int e = 0; e < N_ENGINES; e++)
            if (engine_slot(e))
                assert_int_equal(wsel_kit_resolver_new(cfg, st, engines[e], &r[e], NULL), WSEL_OK);
        size_t base = 0;
        for (uint32_t k = 0; k < res->n_sets; k++) {
            plant_set_edges(res, st, r, k, base, &rs, &t);
            base += wsel_set_words(&res->sets[k]);
        }
        for (int e = 0; e < N_ENGINES; e++)
            wsel_resolver_free(r[e]);
        wsel_state_free(st);
        wsel_config_free(cfg);
    }
    assert_true(t.planted > 700);
    assert_true(t.included > 200 && t.included < t.planted);
}

/* Forced shapes: one mode at a time, the widest sets and groups. */
static void test_identity_modes(void **unused)
{
    (void)unused;
    sweep_stats stats = { 0 };
    uint64_t rs = 0xabc;
    for (int mode = WSEL_MODE_UNGROUPED_SINGLE; mode <= WSEL_MODE_CNAME; mode++) {
        for (uint64_t seed = 0; seed < 12; seed++) {
            wsel_kit_weighted_opts o = { 0 };
            o.mode = mode;
            o.resources = 3;
            o.max_items = seed % 3 == 0 ? 64 : 0;
            o.max_group = seed % 3 == 1 ? 64 : 0;
            char *text = wsel_kit_weighted_gen_config(seed + 1000 * (uint64_t)mode, &o);
            assert_non_null(text);
            state_round round = { seed, seed % 4 * 0.25, true };
            compare_text(text, mode, &round, 1, &rs, 20, &stats);
            free(text);
        }
    }
    assert_true(stats.queries > 1000);
}

/* Grouped-multi sets of every shape the kernels special-case: 1..8 groups of 1..8
 * addresses (the AVX2 one-pass pick and the per-group picks), and groups of 9 and 64
 * (the two-level CHOOSE), every engine against ref at edge and uniform words. */
static void test_identity_group_shapes(void **unused)
{
    (void)unused;
    sweep_stats stats = { 0 };
    uint64_t rs = 0x6e0;
    static char text[1 << 16];
    for (unsigned G = 1; G <= 8; G++) {
        for (unsigned shape = 0; shape < 4; shape++) {
            size_t len = (size_t)snprintf(text, sizeof text,
                                          "service_types => [ mon ]\nr => { multi => true\n");
            for (unsigned g = 0; g < G; g++) {
                /* shape 0: all 8 wide; 1: 1 wide; 2: mixed 1..8; 3: one group of 9 or 64 */
                unsigned per = shape == 0 ? 8 : shape == 1 ? 1 : shape == 2 ? (g * 3 + G) % 8 + 1
                                                                           : g == 0 ? (G % 2 ? 64 : 9) : 2;
                len += (size_t)snprintf(text + len, sizeof text - len, " g%u => {", g);
                for (unsigned a = 0; a < per; a++)
                    len += (size_t)snprintf(text + len, sizeof text - len, " a%u => [ 10.%u.%u.%u, %u ]",
                                            a, 50 + G, g * 4 + shape, a + 1,
                                            (unsigned)wsel_kit_range(&rs, 1, 1000));
                len += (size_t)snprintf(text + len, sizeof text - len, " }\n");
            }
            snprintf(text + len, sizeof text - len, "}\n");
            state_round rounds[3];
            for (unsigned k = 0; k < 3; k++)
                rounds[k] = (state_round){ G * 100 + shape * 10 + k, k * 0.3, false };
            compare_text(text, WSEL_MODE_GROUPED_MULTI, rounds, 3, &rs, 40, &stats);
        }
    }
    /* More than 8 groups, all narrow: the 8-groups-at-a-time search with its fewest
     * steps (widest group 1: no step; 2: one; 3: two), which no shape above reaches. */
    static const unsigned many[] = { 9, 16, 33, 64 };
    for (unsigned i = 0; i < sizeof many / sizeof many[0]; i++) {
        unsigned G = many[i];
        for (unsigned widest = 1; widest <= 3; widest++) {
            size_t len = (size_t)snprintf(text, sizeof text,
                                          "service_types => [ mon ]\nr => { multi => true\n");
            for (unsigned g = 0; g < G; g++) {
                unsigned per = g % 3 == 0 ? widest : 1 + (g % widest);
                len += (size_t)snprintf(text + len, sizeof text - len, " g%u => {", g);
                for (unsigned a = 0; a < per; a++)
                    len += (size_t)snprintf(text + len, sizeof text - len,
                                            " a%u => [ 10.%u.%u.%u, %u ]", a, 60 + widest, g,
                                            a + 1, (unsigned)wsel_kit_range(&rs, 1, 1000));
                len += (size_t)snprintf(text + len, sizeof text - len, " }\n");
            }
            snprintf(text + len, sizeof text - len, "}\n");
            state_round rounds[3];
            for (unsigned k = 0; k < 3; k++)
                rounds[k] = (state_round){ 9000 + G * 10 + widest + k, k * 0.3, false };
            compare_text(text, WSEL_MODE_GROUPED_MULTI, rounds, 3, &rs, 40, &stats);
        }
    }
    assert_true(stats.multi_items > 100);
}

/* Every shape the limits allow (doc/weighted.md 3.6), reached at every count: for each
 * mode, one resource per count 1..64 (items, CNAMEs or groups), and for the grouped modes
 * group widths sampled per count: all 1, random 1..8, random 1..64, and all 64 at counts
 * around every power of two. A kernel path taken at one count too many or too few gives
 * a wrong answer at that count, whatever the paths switch at today. */
typedef struct shape_cfg {
    char *text;
    size_t len, cap;
} shape_cfg;

static void shape_add(shape_cfg *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(c->text + c->len, c->cap - c->len, fmt, ap);
    va_end(ap);
    assert_true(n >= 0 && (size_t)n < c->cap - c->len);
    c->len += (size_t)n;
}

static bool near_power_of_two(unsigned n)
{
    for (unsigned p = 1; p <= 64; p *= 2)
        if (n + 1 >= p && n <= p + 1)
            return true;
    return false;
}

static void test_identity_every_count(void **unused)
{
    (void)unused;
    enum { STYLES = 4 };
    static const char *const mode_names[] = { "us", "um", "gs", "gm", "cn" };
    sweep_stats stats = { 0 };
    uint64_t rs = 0xc0417;
    unsigned reached[5][65] = { { 0 } };
    shape_cfg c = { malloc(1 << 22), 0, 1 << 22 };
    assert_non_null(c.text);
    for (unsigned m = 0; m < 5; m++) {
        bool grouped = m == 2 || m == 3, multi = m == 1 || m == 3, cname = m == 4;
        for (unsigned style = 0; style < (grouped ? STYLES : 2u); style++) {
            c.len = 0;
            shape_add(&c, "service_types => [ mon ]\n");
            for (unsigned n = 1; n <= 64; n++) {
                if (grouped && style == 3 && !near_power_of_two(n))
                    continue;
                shape_add(&c, "%s%u_%u => { %s\n", mode_names[m], style, n,
                          multi ? "multi => true" : "");
                for (unsigned i = 0; i < n; i++) {
                    /* ungrouped style 0: weights 1..1048575; style 1: 1..3 (many ties) */
                    unsigned wmax = style == 1 && !grouped ? 3 : 1048575;
                    if (cname) {
                        shape_add(&c, " i%u => [ h%u.s%u.example.net., %u ]\n", i, i, n,
                                  (unsigned)wsel_kit_range(&rs, 1, wmax));
                    } else if (!grouped) {
                        shape_add(&c, " i%u => [ 10.%u.%u.%u, %u ]\n", i, n, style, i + 1,
                                  (unsigned)wsel_kit_range(&rs, 1, wmax));
                    } else {
                        unsigned width = style == 0   ? 1
                                         : style == 1 ? (unsigned)wsel_kit_range(&rs, 1, 8)
                                         : style == 2 ? (unsigned)wsel_kit_range(&rs, 1, 64)
                                                      : 64;
                        shape_add(&c, " g%u => {", i);
                        for (unsigned a = 0; a < width; a++)
                            shape_add(&c, " a%u => [ 10.%u.%u.%u, %u ]", a, n, i,
                                      a + 1, (unsigned)wsel_kit_range(&rs, 1, 1048575));
                        shape_add(&c, " }\n");
                    }
                }
                shape_add(&c, "}\n");
                reached[m][n]++;
            }
            static const wsel_mode want[] = {
                WSEL_MODE_UNGROUPED_SINGLE, WSEL_MODE_UNGROUPED_MULTI, WSEL_MODE_GROUPED_SINGLE,
                WSEL_MODE_GROUPED_MULTI, WSEL_MODE_CNAME,
            };
            bool wide = grouped && style >= 2;
            state_round rounds[3];
            for (unsigned k = 0; k < 3; k++)
                rounds[k] = (state_round){ m * 1000 + style * 10 + k, k * 0.3, k == 2 };
            compare_text(c.text, (int)want[m], rounds, wide ? 2 : 3, &rs, wide ? 6 : 16, &stats);
        }
    }
    free(c.text);
    for (unsigned m = 0; m < 5; m++)
        for (unsigned n = 1; n <= 64; n++)
            assert_true(reached[m][n] > 0);
    assert_true(stats.multi_items > 1000 && stats.failed_sets > 100);
    printf("# every count: %lu queries, %lu engine answers compared\n", stats.queries,
           stats.compared);
}

/* up_thresh edges: UP weight exactly at, one below and one above the threshold. The
 * failed flag is checked against that count directly, and every engine against ref. */
static void test_threshold_edges(void **unused)
{
    (void)unused;
    static const char *const thresh[] = { "0.07", "0.5", "0.33", "0.999", "1", "0.001" };
    static const char *const shapes[] = { "multi => false", "multi => true", "cname" };
    uint64_t rs = 77;
    sweep_stats stats = { 0 };
    char *text = malloc(16384);
    assert_non_null(text);
    for (size_t ti = 0; ti < sizeof thresh / sizeof thresh[0]; ti++) {
        for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
            bool cname = si == 2;
            size_t len = (size_t)snprintf(text, 16384, "service_types => [ mon ]\n"
                                          "up_thresh => %s\nr => {\n%s\n", thresh[ti],
                                          cname ? "" : shapes[si]);
            for (int i = 0; i < 64; i++) {
                if (cname)
                    len += (size_t)snprintf(text + len, 16384 - len,
                                            "  i%d => [ h%d.example.net., 1 ]\n", i, i);
                else
                    len += (size_t)snprintf(text + len, 16384 - len,
                                            "  i%d => [ 10.0.0.%d, 1 ]\n", i, i + 1);
            }
            snprintf(text + len, 16384 - len, "}\n");
            wsel_config *cfg = wsel_test_load(text);
            const wsel_resource *res = wsel_config_find(cfg, "r");
            assert_non_null(res);
            uint64_t th = res->sets[0].threshold;
            for (int delta = -1; delta <= 1; delta++) {
                int64_t up = (int64_t)th + delta;
                if (up < 0 || up > 64)
                    continue;
                wsel_state *st;
                assert_int_equal(wsel_state_new(cfg, &st, NULL), WSEL_OK);
                for (int64_t i = up; i < 64; i++) {
                    char key[64];
                    if (cname)
                        snprintf(key, sizeof key, "h%d.example.net.", (int)i);
                    else
                        snprintf(key, sizeof key, "10.0.0.%d", (int)i + 1);
                    assert_int_equal(wsel_state_set(st, "mon", key, false, 60, NULL, NULL),
                                     WSEL_OK);
                }
                wsel_resolver *r;
                assert_int_equal(wsel_resolver_new(cfg, st, WSEL_ENGINE_FAST, &r, NULL),
                                 WSEL_OK);
                wsel_prng p;
                wsel_prng_seed(&p, (uint64_t)up);
                wsel_rng rng = wsel_prng_rng(&p);
                wsel_answer a;
                assert_int_equal(wsel_resolve(r, res, &rng, &a), WSEL_OK);
                assert_int_equal(a.failed, (uint64_t)up < th);
                assert_int_equal(a.ttl, up < 64 ? 60 : WSEL_MAX_TTL);
                wsel_resolver_free(r);
                compare_all(cfg, st, &rs, 30, &stats);
                wsel_state_free(st);
            }
            wsel_config_free(cfg);
        }
    }
    free(text);
    assert_true(stats.failed_sets > 0);
}

/* Sync picks up changes: after flipping items DOWN, fast answers follow ref. */
static void test_sync_follows_state(void **unused)
{
    (void)unused;
    wsel_config *cfg = wsel_test_load("service_types => [ mon ]\n"
                                      "r => { a => [ 10.0.0.1, 5 ], b => [ 10.0.0.2, 5 ] }\n"
                                      "s => { x => [ 10.0.1.1, 1 ] }\n");
    wsel_state *st;
    assert_int_equal(wsel_state_new(cfg, &st, NULL), WSEL_OK);
    wsel_resolver *r;
    assert_int_equal(wsel_resolver_new(cfg, st, WSEL_ENGINE_FAST, &r, NULL), WSEL_OK);
    const wsel_resource *res = wsel_config_find(cfg, "r");
    wsel_prng p;
    wsel_prng_seed(&p, 3);
    wsel_rng rng = wsel_prng_rng(&p);
    wsel_answer a;
    bool seen_a = false;
    for (int i = 0; i < 64; i++) {
        assert_int_equal(wsel_resolve(r, res, &rng, &a), WSEL_OK);
        seen_a |= a.set[0].items[0] == 0;
    }
    assert_true(seen_a);
    assert_int_equal(wsel_state_set(st, "mon", "10.0.0.1", false, 30, NULL, NULL), WSEL_OK);
    /* not yet synced: the old snapshot still answers */
    assert_int_equal(wsel_resolve(r, res, &rng, &a), WSEL_OK);
    assert_int_equal(a.ttl, WSEL_MAX_TTL);
    assert_int_equal(wsel_resolver_sync(r), WSEL_OK);
    for (int i = 0; i < 64; i++) {
        assert_int_equal(wsel_resolve(r, res, &rng, &a), WSEL_OK);
        assert_int_equal(a.set[0].count, 1);
        assert_int_equal(a.set[0].items[0], 1);
        assert_int_equal(a.ttl, 30);
        assert_false(a.failed);
    }
    /* a second sync with no change keeps answering the same way, and replaces nothing */
    assert_int_equal(wsel_resolver_sync(r), WSEL_OK);
    assert_int_equal(wsel_resolve(r, res, &rng, &a), WSEL_OK);
    assert_int_equal(a.set[0].items[0], 1);
    /* only resource r changed: exactly its old snapshot was replaced */
    assert_int_equal(wsel_resolver_reclaim(r), 1);
    assert_int_equal(wsel_resolver_reclaim(r), 0);
    for (int k = 0; k < 5; k++) {
        assert_int_equal(wsel_state_set(st, "mon", "10.0.0.1", k % 2 == 0, 30, NULL, NULL),
                         WSEL_OK);
        assert_int_equal(wsel_resolver_sync(r), WSEL_OK);
    }
    assert_int_equal(wsel_resolver_reclaim(r), 5);
    /* the live snapshot survived (ASan would see a use after free otherwise): a UP */
    for (int i = 0; i < 64; i++) {
        assert_int_equal(wsel_resolve(r, res, &rng, &a), WSEL_OK);
        seen_a |= a.set[0].items[0] == 0;
    }
    assert_true(seen_a);
    wsel_resolver_free(r);
    wsel_state_free(st);
    wsel_config_free(cfg);
}

/* ---- known-answer vectors (tests/data/kat/) --------------------------------------- *
 *
 * NN.conf is a generated config (kept as text, so later changes to the generator do
 * not touch it); NN.kat holds a monitoring state and queries with their words and the
 * answer the reference engine gave:
 *     state SERVICE KEY up|down TTL
 *     q RESOURCE HEXWORD,HEXWORD,... => ITEM,ITEM F|- TTL [| ITEM,... F|- TTL]
 * Every available engine must reproduce every answer. WSEL_KAT_REGEN=1 rewrites the
 * files from the reference engine (do that only when the contract itself changes). */

#define KAT_FILES 6

static void kat_format(const wsel_answer *a, char *buf, size_t len)
{
    size_t pos = 0;
    buf[0] = '\0';
    for (uint32_t s = 0; s < a->n_sets && s < 2; s++) {
        const wsel_set_answer *sa = &a->set[s];
        for (unsigned i = 0; i < sa->count && pos < len; i++)
            pos += (size_t)snprintf(buf + pos, len - pos, "%s%u", i ? "," : "", sa->items[i]);
        if (pos < len)
            pos += (size_t)snprintf(buf + pos, len - pos, " %c %u%s", sa->failed ? 'F' : '-',
                                    (unsigned)sa->ttl, s + 1 < a->n_sets ? " | " : "");
    }
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t len = 0, cap = 0, n;
    char chunk[4096];
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (len + n + 1 > cap) {
            cap = (len + n + 1) * 2;
            char *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = nb;
        }
        memcpy(buf + len, chunk, n);
        len += n;
    }
    fclose(f);
    if (!buf)
        buf = calloc(1, 1);
    else
        buf[len] = '\0';
    return buf;
}

static void kat_regen(int idx)
{
    char path[512];
    wsel_kit_weighted_opts o = { 0 };
    o.mode = idx < 5 ? idx : -1;   /* one file per mode, then a mixed one */
    o.resources = 4;
    o.max_items = idx % 2 ? 64 : 0;
    o.max_group = idx % 2 ? 0 : 64;
    char *text = wsel_kit_weighted_gen_config(0xca7 + (uint64_t)idx, &o);
    assert_non_null(text);
    snprintf(path, sizeof path, "%s/%02d.conf", wsel_kit_srcpath("tests/data/kat"), idx);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);

    wsel_config *cfg = wsel_test_load(text);
    wsel_state *st;
    assert_int_equal(wsel_state_new(cfg, &st, NULL), WSEL_OK);
    wsel_test_random_state(st, cfg, (uint64_t)idx, idx == 3 ? 0.8 : 0.3, true);
    snprintf(path, sizeof path, "%s/%02d.kat", wsel_kit_srcpath("tests/data/kat"), idx);
    f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "# written by the reference engine (WSEL_KAT_REGEN=1 test_fast_identity)\n");
    for (size_t si = 0; si < wsel_config_set_count(cfg); si++) {
        const wsel_set *set = wsel_config_set(cfg, si);
        for (uint32_t k = 0; k < set->n_services; k++) {
            const char *svc = set->services[k];
            if (!strcmp(svc, "up") || !strcmp(svc, "down"))
                continue;
            for (uint32_t i = 0; i < set->n_items; i++) {
                wsel_mstate ms = wsel_state_get(st, svc, set->items[i].key);
                if (!ms.up || ms.ttl != WSEL_MAX_TTL)
                    fprintf(f, "state %s %s %s %u\n", svc, set->items[i].key,
                            ms.up ? "up" : "down", (unsigned)ms.ttl);
            }
        }
    }
    uint64_t rs = 0x4b41u + (uint64_t)idx;
    static pool p;
    uint64_t w[WSEL_WORDS_MAX];
    char ans_text[4096];
    for (size_t ri = 0; ri < wsel_config_resource_count(cfg); ri++) {
        const wsel_resource *res = wsel_config_resource(cfg, ri);
        size_t n = wsel_resource_words(res);
        p.n = 0;
        for (uint32_t si = 0; si < res->n_sets; si++)
            edges_of(&res->sets[si], st, &p);
        for (int q = 0; q < 25; q++) {
            for (size_t i = 0; i < n; i++)
                w[i] = q % 2 ? wsel_kit_mix(&rs) : p.w[wsel_kit_range(&rs, 0, p.n - 1)];
            wsel_kit_replay rp;
            wsel_rng rng = wsel_kit_replay_rng(&rp, w, n);
            wsel_answer a;
            assert_int_equal(wsel_ref_resolve(res, st, &rng, &a), WSEL_OK);
            kat_format(&a, ans_text, sizeof ans_text);
            fprintf(f, "q %s ", res->name);
            for (size_t i = 0; i < n; i++)
                fprintf(f, "%s%016llx", i ? "," : "", (unsigned long long)w[i]);
            fprintf(f, " => %s\n", ans_text);
        }
    }
    fclose(f);
    wsel_state_free(st);
    wsel_config_free(cfg);
    free(text);
}

static void test_known_answers(void **unused)
{
    (void)unused;
    const char *regen = getenv("WSEL_KAT_REGEN");
    unsigned long checked = 0;
    for (int idx = 0; idx < KAT_FILES; idx++) {
        if (regen && !strcmp(regen, "1"))
            kat_regen(idx);
        char path[512];
        snprintf(path, sizeof path, "%s/%02d.conf", wsel_kit_srcpath("tests/data/kat"), idx);
        char *text = slurp(path);
        if (!text)
            fail_msg("cannot read %s", path);
        snprintf(path, sizeof path, "%s/%02d.kat", wsel_kit_srcpath("tests/data/kat"), idx);
        char *kat = slurp(path);
        if (!kat)
            fail_msg("cannot read %s", path);
        wsel_config *cfg = wsel_test_load(text);
        wsel_state *st;
        assert_int_equal(wsel_state_new(cfg, &st, NULL), WSEL_OK);
        wsel_resolver *r[N_ENGINES] = { 0 };
        bool synced = false;
        unsigned line_no = 0;
        for (char *line = strtok(kat, "\n"); line; line = strtok(NULL, "\n")) {
            line_no++;
            if (line[0] == '#')
                continue;
            if (!strncmp(line, "state ", 6)) {
                char svc[128], key[512], ud[8];
                unsigned ttl;
                assert_int_equal(sscanf(line + 6, "%127s %511s %7s %u", svc, key, ud, &ttl), 4);
                assert_int_equal(wsel_state_set(st, svc, key, !strcmp(ud, "up"), ttl, NULL, NULL),
                                 WSEL_OK);
                continue;
            }
            if (!synced) {
                for (int e = 0; e < N_ENGINES; e++)
                    if (engine_slot(e))
                        assert_int_equal(wsel_kit_resolver_new(cfg, st, engines[e], &r[e], NULL),
                                         WSEL_OK);
                synced = true;
            }
            char name[256];
            int off = 0;
            if (sscanf(line, "q %255s %n", name, &off) != 1)
                fail_msg("%s:%u: bad line", path, line_no);
            const wsel_resource *res = wsel_config_find(cfg, name);
            assert_non_null(res);
            uint64_t w[WSEL_WORDS_MAX];
            size_t n = 0;
            char *pos = line + off;
            while (*pos && *pos != ' ') {
                assert_true(n < WSEL_WORDS_MAX);
                w[n++] = strtoull(pos, &pos, 16);
                if (*pos == ',')
                    pos++;
            }
            assert_int_equal(n, wsel_resource_words(res));
            const char *want = strstr(pos, "=> ");
            assert_non_null(want);
            want += 3;
            for (int e = 0; e < N_ENGINES; e++) {
                if (!r[e])
                    continue;
                wsel_kit_replay rp;
                wsel_rng rng = wsel_kit_replay_rng(&rp, w, n);
                wsel_answer a;
                char got[4096];
                assert_int_equal(wsel_resolve(r[e], res, &rng, &a), WSEL_OK);
                assert_int_equal(rp.pos, n);
                kat_format(&a, got, sizeof got);
                if (strcmp(got, want) != 0)
                    fail_msg("%s:%u: %s answered '%s', expected '%s'", path, line_no,
                             wsel_kit_resolver_variant(r[e]), got, want);
                checked++;
            }
        }
        for (int e = 0; e < N_ENGINES; e++)
            wsel_resolver_free(r[e]);
        wsel_state_free(st);
        wsel_config_free(cfg);
        free(kat);
        free(text);
    }
    assert_true(checked > 500);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bitpos_table),
        cmocka_unit_test(test_mulhi_portable),
        cmocka_unit_test(test_prng_fill_matches_next),
        cmocka_unit_test(test_prng_blocks_variants),
        cmocka_unit_test(test_engine_api),
        cmocka_unit_test_teardown(test_variant_cpu_without_simd, show_cpu),
        cmocka_unit_test(test_source_take_op),
        cmocka_unit_test(test_sync_follows_state),
        cmocka_unit_test(test_prng_direct_paths),
        cmocka_unit_test(test_threshold_edges),
        cmocka_unit_test(test_planted_edges),
        cmocka_unit_test(test_identity_group_shapes),
        cmocka_unit_test(test_identity_modes),
        cmocka_unit_test(test_identity_every_count),
        cmocka_unit_test(test_identity_sweep),
        cmocka_unit_test(test_known_answers),
    };
    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests_name("fast_identity", tests, NULL, NULL);
}
