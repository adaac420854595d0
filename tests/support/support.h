/* cmocka glue for wsel's tests (linked into every tests/test_*.c program): the kit's
 * helpers (tests/kit/, no test framework) wrapped so that an error fails the current
 * cmocka test.
 *
 *   loaders         config text -> wsel_config (and wsel_gslb_config), failing the
 *                   current test on error
 *   random state    the kit's weighted random state, failing the current test on error
 *
 * Everything else tests share -- random sources, boundary words, generators, answer
 * text, statistics -- is the kit's (kit/kit.h, kit/kit_weighted.h, kit/kit_stat.h).
 * support/nomem.h: the allocation-failure injector of the out-of-memory tests. */
#ifndef WSEL_TEST_SUPPORT_H
#define WSEL_TEST_SUPPORT_H

#include <stdio.h>

#include "wsel.h"
#include "kit/kit.h"
#include "kit/kit_weighted.h"

/* Every kind of set in one stanza (single, multi, grouped single and multi, both families,
 * CNAMEs) for the tests that query one shared resolver from several threads
 * (test_fast_threads, test_fast_noshare). */
#define WSEL_TEST_ALL_SET_KINDS \
    "service_types => [ mon ]\n" \
    "single => { a => [ 10.0.0.1, 10 ], b => [ 10.0.0.2, 20 ], c => [ 10.0.0.3, 30 ]," \
    "            d => [ 10.0.0.4, 40 ], e => [ 10.0.0.5, 1048575 ] }\n" \
    "umulti => { multi => true, a => [ 10.0.1.1, 5 ], b => [ 10.0.1.2, 5 ], c => [ 10.0.1.3, 7 ]," \
    "           d => [ 10.0.1.4, 1 ], e => [ 10.0.1.5, 9 ], f => [ 10.0.1.6, 9 ] }\n" \
    "gsingle => { g1 => { a => [ 10.0.2.1, 3 ], b => [ 10.0.2.2, 4 ] }," \
    "             g2 => { a => [ 10.0.2.3, 5 ], b => [ 10.0.2.4, 5 ], c => [ 10.0.2.5, 1 ] } }\n" \
    "gmulti => { multi => true, g1 => { a => [ 10.0.3.1, 3 ], b => [ 10.0.3.2, 4 ] }," \
    "            g2 => { a => [ 10.0.3.3, 5 ] }, g3 => { a => [ 10.0.3.4, 2 ], b => [ 10.0.3.5, 2 ] } }\n" \
    "both => { up_thresh => 0.7," \
    "          addrs_v4 => { a => [ 10.0.4.1, 1 ], b => [ 10.0.4.2, 2 ], c => [ 10.0.4.3, 3 ] }," \
    "          addrs_v6 => { multi => true, a => [ 2001:db8::1, 1 ], b => [ 2001:db8::2, 2 ] } }\n" \
    "cn => { x => [ x.example.net., 3 ], y => [ y.example.net., 1 ], z => [ z.example.net., 6 ] }\n"

/* Loads `text` as a stanza-only config (the contents of plugins => { weighted => {...} })
 * with $include{} disabled. On failure the current cmocka test fails with the formatted
 * error (so it never returns NULL inside a test). Free with wsel_config_free(). */
wsel_config *wsel_test_load(const char *text);
/* Same, with an explicit input kind (WSEL_INPUT_WHOLE / _STANZA / _AUTO). */
wsel_config *wsel_test_load_as(const char *text, wsel_input input);
/* Non-asserting: returns the status; *out is NULL on failure, err filled. */
int wsel_test_try_load(const char *text, wsel_input input, wsel_config **out,
                       wsel_error *err);
/* A stanza-only config and a fresh monitoring state on it, for cmocka setups: 0, or -1
 * (a setup failure) with nothing left to free; wsel_test_close frees both (NULL-safe). */
int wsel_test_open(const char *text, wsel_config **cfg, wsel_state **st);
void wsel_test_close(wsel_config *cfg, wsel_state *st);
/* The cmocka teardown of a calloc'd fixture whose first members are `wsel_config *cfg;
 * wsel_state *st;` in that order: frees both, then the fixture (NULL-safe). */
int wsel_test_teardown(void **state);
/* examples/synopsis.conf, the page's synopsis as a whole config (wsel_kit_srcpath). */
wsel_config *wsel_test_load_synopsis(void);

/* ---- GSLB configs (named "t.conf") ---- */

/* Loads bigip_gtm.conf text; on failure the current test fails with the error. */
wsel_gslb_config *wsel_test_gslb_load(const char *text);
/* Loads text that must not load: returns the status, err filled (fails the current test
 * when a config comes back). */
int wsel_test_gslb_load_err(const char *text, wsel_error *err);

/* wsel_kit_weighted_random_state(); fails the current test on error. */
void wsel_test_random_state(wsel_state *st, const wsel_config *cfg, uint64_t seed,
                            double p_down, bool random_ttl);

/* ---- monitoring state ------------------------------------------------------------- */

/* The combined state of item i of the first set of resource `name` (fails the current
 * test when there is no such item). */
wsel_mstate wsel_test_item_state(const wsel_state *st, const wsel_config *cfg,
                                 const char *name, unsigned i);
/* Asserts a state: UP-ness and TTL. */
#define WSEL_ASSERT_MS(ms, u, t)                                                       \
    do {                                                                               \
        wsel_mstate m_ = (ms);                                                         \
        assert_int_equal(m_.up, (u));                                                  \
        assert_int_equal(m_.ttl, (t));                                                 \
    } while (0)

/* The main() of a test program: the cmocka group `name` of the given
 * cmocka_unit_test(...) entries, with TAP output. */
#define WSEL_TEST_MAIN(name, ...)                                                        \
    int main(void)                                                                       \
    {                                                                                    \
        const struct CMUnitTest tests_[] = {__VA_ARGS__};                                \
        cmocka_set_message_output(CM_OUTPUT_TAP);                                        \
        return cmocka_run_group_tests_name(name, tests_, NULL, NULL);                    \
    }

#endif
