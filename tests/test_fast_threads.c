/* Readers resolve through one fast resolver while a writer flips the monitoring state
 * and syncs. Run it under ThreadSanitizer too (`make tsan`).
 *
 * The writer cycles through K fixed state patterns; pattern k gives every monitored key
 * the TTL 1000 + k, so each answer names the pattern it was computed from. A reader
 * checks every answer against the reference engine run on a frozen copy of that pattern
 * with the same words: equal in every field means the answer came from one published
 * state, applied whole -- never a half-applied change, never a mix of two syncs. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <pthread.h>

#include <cmocka.h>

#include "support/support.h"

#define K 4
#define READERS 3
#define MIN_QUERIES 2000  /* per reader */
#define SYNCS 300
#define TTL_BASE 1000u

static const char *const config_text = WSEL_TEST_ALL_SET_KINDS;

typedef struct shared {
    const wsel_config *cfg;
    wsel_state *frozen[K];
    wsel_resolver *r;
    atomic_bool stop;           /* writer done */
} shared;

typedef struct reader {
    shared *sh;
    uint64_t seed;
    unsigned long queries, mismatches, bad_ttl, errors;
    unsigned long seen[K];
} reader;

/* Is the key's item DOWN in pattern k? A fixed, irregular function of k and the key's
 * position, with pattern 0 all UP and pattern 3 mostly DOWN (failed sets). */
static bool down_in(int k, size_t pos)
{
    switch (k) {
    case 0: return false;
    case 1: return pos % 3 == 0;
    case 2: return pos % 2 == 1;
    default: return pos % 5 != 4;
    }
}

static void apply_pattern(wsel_state *st, const wsel_config *cfg, int k)
{
    size_t pos = 0;
    for (size_t s = 0; s < wsel_config_set_count(cfg); s++) {
        const wsel_set *set = wsel_config_set(cfg, s);
        for (uint32_t i = 0; i < set->n_items; i++, pos++)
            wsel_state_set(st, "mon", set->items[i].key, !down_in(k, pos), TTL_BASE + (unsigned)k,
                           NULL, NULL);
    }
}

static void *reader_main(void *arg)
{
    reader *rd = arg;
    const wsel_config *cfg = rd->sh->cfg;
    size_t n_res = wsel_config_resource_count(cfg);
    uint64_t rs = rd->seed;
    uint64_t w[WSEL_WORDS_MAX];
    for (unsigned long q = 0; q < MIN_QUERIES || !atomic_load(&rd->sh->stop); q++) {
        const wsel_resource *res = wsel_config_resource(cfg, (size_t)wsel_kit_range(&rs, 0, n_res - 1));
        size_t n = wsel_resource_words(res);
        for (size_t i = 0; i < n; i++)
            w[i] = wsel_kit_mix(&rs);
        wsel_kit_replay rp;
        wsel_rng rng = wsel_kit_replay_rng(&rp, w, n);
        wsel_answer got, want;
        if (wsel_resolve(rd->sh->r, res, &rng, &got) != WSEL_OK || rp.pos != n) {
            rd->errors++;
            continue;
        }
        rd->queries++;
        if (got.ttl < TTL_BASE || got.ttl >= TTL_BASE + K) {
            rd->bad_ttl++;
            continue;
        }
        int k = (int)(got.ttl - TTL_BASE);
        rd->seen[k]++;
        rng = wsel_kit_replay_rng(&rp, w, n);
        if (wsel_ref_resolve(res, rd->sh->frozen[k], &rng, &want) != WSEL_OK ||
            !wsel_answer_equal(&want, &got))
            rd->mismatches++;
    }
    return NULL;
}

static void test_readers_and_writer(void **unused)
{
    (void)unused;
    shared sh;
    memset(&sh, 0, sizeof sh);
    wsel_config *cfg = wsel_test_load(config_text);
    sh.cfg = cfg;
    for (int k = 0; k < K; k++) {
        assert_int_equal(wsel_state_new(cfg, &sh.frozen[k], NULL), WSEL_OK);
        apply_pattern(sh.frozen[k], cfg, k);
    }
    wsel_state *live;
    assert_int_equal(wsel_state_new(cfg, &live, NULL), WSEL_OK);
    apply_pattern(live, cfg, 0);
    assert_int_equal(wsel_kit_resolver_new(cfg, live, "fast", &sh.r, NULL), WSEL_OK);

    /* pattern 3 must make some set fail over, or the failed flag goes untested */
    bool some_failed = false;
    for (size_t i = 0; i < wsel_config_resource_count(cfg); i++) {
        wsel_prng p;
        wsel_prng_seed(&p, i);
        wsel_rng rng = wsel_prng_rng(&p);
        wsel_answer a;
        assert_int_equal(wsel_ref_resolve(wsel_config_resource(cfg, i), sh.frozen[3], &rng, &a),
                         WSEL_OK);
        some_failed |= a.failed;
    }
    assert_true(some_failed);

    atomic_init(&sh.stop, false);
    reader rd[READERS];
    pthread_t th[READERS];
    for (int i = 0; i < READERS; i++) {
        memset(&rd[i], 0, sizeof rd[i]);
        rd[i].sh = &sh;
        rd[i].seed = 0x1234u + (uint64_t)i * 7777u;
        assert_int_equal(pthread_create(&th[i], NULL, reader_main, &rd[i]), 0);
    }

    /* The writer: change the live state item by item (readers must not see the steps),
     * then publish. */
    unsigned long syncs = 0;
    /* valgrind runs one thread at a time, so spinning readers starve the writer: a few
     * rounds of the K patterns are enough there. */
    unsigned long target = wsel_kit_under_valgrind() ? 3 * K : SYNCS;
    int k = 0;
    while (syncs < target) {
        k = (k + 1) % K;
        apply_pattern(live, cfg, k);
        assert_int_equal(wsel_resolver_sync(sh.r), WSEL_OK);
        syncs++;
        /* Replaced snapshots live until the resolver is freed (fast/resolver.c), so
         * pace the writer like a monitor would rather than spin. */
        nanosleep(&(struct timespec){ 0, 200000 }, NULL);
    }
    atomic_store(&sh.stop, true);
    for (int i = 0; i < READERS; i++)
        assert_int_equal(pthread_join(th[i], NULL), 0);

    unsigned long patterns_seen = 0, queries = 0;
    for (int p = 0; p < K; p++) {
        unsigned long seen = 0;
        for (int i = 0; i < READERS; i++)
            seen += rd[i].seen[p];
        patterns_seen += seen > 0;
    }
    for (int i = 0; i < READERS; i++) {
        assert_int_equal(rd[i].errors, 0);
        assert_int_equal(rd[i].bad_ttl, 0);
        assert_int_equal(rd[i].mismatches, 0);
        queries += rd[i].queries;
    }
    printf("# %lu queries checked, %lu syncs, %lu of %d patterns seen\n", queries, syncs,
           patterns_seen, K);
    assert_true(queries >= (unsigned long)READERS * MIN_QUERIES);
    assert_true(patterns_seen >= 2);

    /* readers are gone: a quiescent point; every sync replaced at least one snapshot */
    assert_true(wsel_resolver_reclaim(sh.r) >= syncs);
    wsel_resolver_free(sh.r);
    wsel_state_free(live);
    for (int i = 0; i < K; i++)
        wsel_state_free(sh.frozen[i]);
    wsel_config_free(cfg);
}

/* Every variant, not only the dispatched one, behaves under a concurrent writer. */
static void test_each_variant(void **unused)
{
    (void)unused;
    const char *names[WSEL_KIT_MAX_VARIANTS];
    size_t nv = wsel_kit_variants(names, WSEL_KIT_MAX_VARIANTS, false);
    for (size_t v = 0; v < nv; v++) {
        if (strcmp(names[v], "ref") == 0)
            continue; /* the reference reads live state: not for concurrent writers */
        assert_int_equal(wsel_kit_force_variant(names[v]), WSEL_OK);
        test_readers_and_writer(NULL);
    }
    assert_int_equal(wsel_kit_force_variant(NULL), WSEL_OK);
}

WSEL_TEST_MAIN("fast_threads", cmocka_unit_test(test_readers_and_writer),
               cmocka_unit_test(test_each_variant))
