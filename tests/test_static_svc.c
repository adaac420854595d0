/* Service types of gdnsd's `static` monitoring plugin (doc/weighted.md §6.1, issue 28
 * item 2): their state and TTL come from the config, defaults UP and 2^28 - 1, the
 * values checked as gdnsd 3.8.1 checks them; monitors cannot feed them; admin overrides
 * sit on top (D21: without /TTL the forced TTL is 2^28 - 1). Expected states, odds and
 * TTLs are worked out by hand from gdnsd's rules, not read from the code. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "support/support.h"

#define WHOLE(svc, stanza)                                                               \
    "service_types => {\n" svc "}\n"                                                     \
    "plugins => { static => { }, weighted => {\n" stanza "} }\n"

static const char *const cfg_text = WHOLE(
    "  s0 => { plugin => static }\n"                                   /* line 2 */
    "  sd => { plugin => static, state => DOWN, ttl => 120 }\n"
    "  su => { plugin => static, state => Up, ttl => 0x10 }\n"
    "  sp => { plugin => static, ttl => \" 5\" }\n"
    "  mon => { plugin => extfile, file => mon_state }\n",
    "  r => { service_types = sd, a = [ 192.0.2.1, 1 ], b = [ 192.0.2.2, 3 ] }\n"
    "  z => { service_types = s0, a = [ 192.0.2.9, 1 ] }\n"
    "  u => { service_types = [ su, sp ], a = [ 192.0.2.7, 1 ] }\n"
    "  m => { service_types = [ mon, sd ], a = [ 192.0.2.1, 1 ], b = [ 192.0.2.5, 1 ] }\n"
    "  n => { service_types = mon, a = [ 192.0.2.1, 1 ] }\n");

static wsel_config *load_whole(const char *text)
{
    return wsel_test_load_as(text, WSEL_INPUT_WHOLE);
}

static void test_states_from_config(void **state)
{
    (void)state;
    wsel_config *cfg = load_whole(cfg_text);
    wsel_state *st;
    wsel_error err;
    assert_int_equal(wsel_state_new(cfg, &st, &err), WSEL_OK);
    /* sd: DOWN/120 for every address it watches */
    WSEL_ASSERT_MS(wsel_state_get(st, "sd", "192.0.2.1"), false, 120);
    WSEL_ASSERT_MS(wsel_test_item_state(st, cfg, "r", 0), false, 120);
    WSEL_ASSERT_MS(wsel_test_item_state(st, cfg, "r", 1), false, 120);
    /* s0: neither given, so gdnsd's defaults UP and 2^28 - 1 */
    WSEL_ASSERT_MS(wsel_test_item_state(st, cfg, "z", 0), true, WSEL_MAX_TTL);
    /* su: state in any letter case, ttl read by strtoul base 0 (0x10 = 16); sp: strtoul
     * skips leading blanks (" 5" = 5); combined: UP, min(16, 5) */
    WSEL_ASSERT_MS(wsel_state_get(st, "su", "192.0.2.7"), true, 16);
    WSEL_ASSERT_MS(wsel_state_get(st, "sp", "192.0.2.7"), true, 5);
    WSEL_ASSERT_MS(wsel_test_item_state(st, cfg, "u", 0), true, 5);
    /* m: [mon, sd]: sd says DOWN/120 whatever mon says */
    WSEL_ASSERT_MS(wsel_test_item_state(st, cfg, "m", 0), false, 120);
    /* the pair list shows the static state as what the monitor says */
    bool seen = false;
    for (size_t i = 0; i < wsel_state_pair_count(st); i++) {
        wsel_pair_info p;
        assert_true(wsel_state_pair(st, i, &p));
        if (strcmp(p.thing, "192.0.2.2") == 0 && strcmp(p.service, "sd") == 0) {
            WSEL_ASSERT_MS(p.monitored, false, 120);
            WSEL_ASSERT_MS(p.effective, false, 120);
            assert_false(p.forced);
            seen = true;
        }
    }
    assert_true(seen);
    wsel_state_free(st);
    wsel_config_free(cfg);
}

/* The case: a = [192.0.2.1, 1], b = [192.0.2.2, 3] under sd (DOWN/120) and
 * "192.0.2.2/sd" => UP: a DOWN (d 0), b UP (d 3); 3 >= ceil(4 * 0.5) = 2, no failover,
 * so b always. TTL min(120 (a), 2^28 - 1 (b forced without TTL)) = 120. Without the
 * override both are DOWN: 0 < 2, failover, a 1/4, b 3/4, TTL 120. */
static void test_odds_and_answers(void **state)
{
    (void)state;
    wsel_config *cfg = load_whole(cfg_text);
    wsel_state *st;
    wsel_error err;
    assert_int_equal(wsel_state_new(cfg, &st, &err), WSEL_OK);
    const wsel_resource *r = wsel_config_find(cfg, "r");
    wsel_odds *o;
    assert_int_equal(wsel_odds_compute(r, st, &o, &err), WSEL_OK);
    assert_true(o->sets[0].failed);
    assert_int_equal(o->sets[0].ttl, 120);
    assert_true(o->sets[0].item_p[0].exact && o->sets[0].item_p[1].exact);
    assert_int_equal(o->sets[0].item_p[0].num * 4, o->sets[0].item_p[0].den);
    assert_int_equal(o->sets[0].item_p[1].num * 4, o->sets[0].item_p[1].den * 3);
    wsel_odds_free(o);

    const char *adm = "\"192.0.2.2/sd\" => UP\n";
    assert_int_equal(wsel_state_load_admin_buffer(st, "admin_state", adm, strlen(adm), &err),
                     WSEL_OK);
    assert_int_equal(wsel_odds_compute(r, st, &o, &err), WSEL_OK);
    assert_false(o->sets[0].failed);
    assert_int_equal(o->sets[0].ttl, 120);
    assert_int_equal(o->sets[0].item_p[0].num, 0);
    assert_int_equal(o->sets[0].item_p[1].num, o->sets[0].item_p[1].den);
    wsel_odds_free(o);

    /* both engines answer b every time, with TTL 120 */
    static const char *const engines[] = { "ref", "fast" };
    for (size_t e = 0; e < 2; e++) {
        wsel_resolver *rv;
        assert_int_equal(wsel_resolver_new_variant(cfg, st, engines[e], &rv, &err), WSEL_OK);
        wsel_prng p;
        wsel_prng_seed(&p, 28);
        wsel_rng rng = wsel_prng_rng(&p);
        for (int q = 0; q < 200; q++) {
            wsel_answer a;
            assert_int_equal(wsel_resolve(rv, r, &rng, &a), WSEL_OK);
            assert_int_equal(a.set[0].count, 1);
            assert_int_equal(a.set[0].items[0], 1);
            assert_false(a.failed);
            assert_int_equal(a.ttl, 120);
        }
        wsel_resolver_free(rv);
    }
    /* forced UP with /TTL on both: TTL min(30, 60) = 30, odds back to 1/4, 3/4 */
    const char *adm2 = "\"192.0.2.1/sd\" => UP/30\n\"192.0.2.2/sd\" => UP/60\n";
    assert_int_equal(wsel_state_load_admin_buffer(st, "admin_state", adm2, strlen(adm2), &err),
                     WSEL_OK);
    assert_int_equal(wsel_odds_compute(r, st, &o, &err), WSEL_OK);
    assert_false(o->sets[0].failed);
    assert_int_equal(o->sets[0].ttl, 30);
    assert_int_equal(o->sets[0].item_p[0].num * 4, o->sets[0].item_p[0].den);
    wsel_odds_free(o);
    wsel_state_free(st);
    wsel_config_free(cfg);
}

/* Monitors cannot feed a static type: wsel_state_set and extfile naming one are errors
 * (the CLI's --state too); "every service type" (NULL) means the non-static ones. */
static void test_monitor_input_refused(void **state)
{
    (void)state;
    wsel_config *cfg = load_whole(cfg_text);
    wsel_state *st;
    wsel_error err;
    assert_int_equal(wsel_state_new(cfg, &st, &err), WSEL_OK);
    size_t matched = 9;
    assert_int_equal(wsel_state_set(st, "sd", "192.0.2.1", true, 7, &matched, &err),
                     WSEL_E_STATE);
    assert_non_null(strstr(err.message, "'sd'"));
    assert_non_null(strstr(err.message, "static"));
    const char *ext = "192.0.2.1 => UP/7\n";
    assert_int_equal(wsel_state_load_extfile_buffer(st, "sd", "f", ext, strlen(ext), &err),
                     WSEL_E_STATE);
    WSEL_ASSERT_MS(wsel_state_get(st, "sd", "192.0.2.1"), false, 120);
    /* NULL: every non-built-in, non-static type: mon. 192.0.2.1 is watched by mon in m
     * and n (2 items); r watches it by sd only, so r is not counted */
    assert_int_equal(wsel_state_set(st, NULL, "192.0.2.1", true, 7, &matched, &err),
                     WSEL_OK);
    assert_int_equal(matched, 2);
    WSEL_ASSERT_MS(wsel_state_get(st, "mon", "192.0.2.1"), true, 7);
    WSEL_ASSERT_MS(wsel_state_get(st, "sd", "192.0.2.1"), false, 120);
    WSEL_ASSERT_MS(wsel_test_item_state(st, cfg, "n", 0), true, 7);
    WSEL_ASSERT_MS(wsel_test_item_state(st, cfg, "m", 0), false, 7);
    wsel_state_free(st);
    wsel_config_free(cfg);
}

/* Bad values: an error at the value's file, line and column naming the service type,
 * even for a type no set uses (gdnsd checks every definition). */
static void test_bad_values(void **state)
{
    (void)state;
    static const struct {
        const char *def;
        int code;
        unsigned col;
        const char *needle;
    } bad[] = {
        { "  sd => { plugin => static, state => SIDEWAYS }\n", WSEL_E_SVCTYPE, 38, "SIDEWAYS" },
        { "  sd => { plugin => static, state => [ UP ] }\n", WSEL_E_SVCTYPE, 38, "an array" },
        { "  sd => { plugin => static, state => \"UP \" }\n", WSEL_E_SVCTYPE, 38, "UP or DOWN" },
        { "  sd => { plugin => static, ttl => -1 }\n", WSEL_E_SVCTYPE, 36, "out of range" },
        { "  sd => { plugin => static, ttl => 268435456 }\n", WSEL_E_SVCTYPE, 36, "out of range" },
        { "  sd => { plugin => static, ttl => 99999999999999999999 }\n", WSEL_E_SVCTYPE, 36,
          "not an integer" },
        { "  sd => { plugin => static, ttl => 1.5 }\n", WSEL_E_SVCTYPE, 36, "not an integer" },
        { "  sd => { plugin => static, ttl => \"\" }\n", WSEL_E_SVCTYPE, 36, "not an integer" },
        { "  sd => { plugin => static, ttl => \"5 \" }\n", WSEL_E_SVCTYPE, 36, "not an integer" },
        { "  sd => { plugin => static, ttl => [ 1 ] }\n", WSEL_E_SVCTYPE, 36, "not an integer" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        for (int used = 0; used < 2; used++) {
            char text[1024];
            snprintf(text, sizeof text,
                     "service_types => {\n%s}\nplugins => { static => { }, weighted => {\n"
                     "  r => { service_types = %s, a = [ 192.0.2.1, 1 ] }\n} }\n",
                     bad[i].def, used ? "sd" : "up");
            wsel_config *cfg;
            wsel_error err;
            assert_int_equal(wsel_test_try_load(text, WSEL_INPUT_WHOLE, &cfg, &err),
                             bad[i].code);
            assert_null(cfg);
            assert_int_equal(err.line, 2);
            if (err.col != bad[i].col)
                fail_msg("case %zu: column %u, expected %u", i, err.col, bad[i].col);
            assert_non_null(err.file);
            if (!strstr(err.message, "service type 'sd'") || !strstr(err.message, bad[i].needle))
                fail_msg("case %zu: message '%s' lacks the type or '%s'", i, err.message,
                         bad[i].needle);
        }
    }
    /* gdnsd loads the static plugin only with its own stanza, a hash */
    wsel_config *cfg;
    wsel_error err;
    assert_int_equal(wsel_test_try_load("service_types => { sd => { plugin => static } }\n"
                                        "plugins => { weighted => { r => { a = [ 192.0.2.1, 1 ] } } }\n",
                                        WSEL_INPUT_WHOLE, &cfg, &err), WSEL_E_SVCTYPE);
    assert_int_equal(err.line, 1);
    assert_non_null(strstr(err.message, "plugins => { static"));
    assert_int_equal(wsel_test_try_load("service_types => { sd => { plugin => static } }\n"
                                        "plugins => { static => [ ], weighted => { r => { a = [ 192.0.2.1, 1 ] } } }\n",
                                        WSEL_INPUT_WHOLE, &cfg, &err), WSEL_E_TYPE);
    assert_int_equal(err.line, 2);
    /* ttl => -0 is 0 for strtoul, so accepted */
    cfg = load_whole(WHOLE("  sd => { plugin => static, ttl => -0 }\n",
                           "  r => { service_types = sd, a = [ 192.0.2.1, 1 ] }\n"));
    wsel_state *st;
    assert_int_equal(wsel_state_new(cfg, &st, &err), WSEL_OK);
    WSEL_ASSERT_MS(wsel_test_item_state(st, cfg, "r", 0), true, 0);
    wsel_state_free(st);
    wsel_config_free(cfg);
}

WSEL_TEST_MAIN("static_svc",
               cmocka_unit_test(test_states_from_config),
               cmocka_unit_test(test_odds_and_answers),
               cmocka_unit_test(test_monitor_input_refused),
               cmocka_unit_test(test_bad_values))
