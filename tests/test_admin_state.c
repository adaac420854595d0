/* Admin overrides (gdnsd(8) ADMIN STATE FILE; doc/weighted.md §6.5): built-in service
 * types, globs, file order, forced and monitored TTLs, warnings, atomic loads, the pair
 * list, and the warnings of extfile lines that change nothing (issue 14 item 7).
 * Expected states are worked out by hand from §6.5, not read from the code. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "support/support.h"

static const char *const cfg_text =
    "D => { a = [ 10.0.0.1, 1 ]\n  b = [ 10.0.0.2, 1 ] }\n"           /* default: up */
    "R => { service_types => [ svc_a, svc_b ]\n"
    "  a = [ 10.0.0.1, 1 ]\n  b = [ 10.0.0.2, 1 ] }\n"
    "C => { service_types = svc_b\n  c = [ Foo.Example.NET., 1 ] }\n"
    "X => { service_types = down\n  a = [ 10.0.0.3, 1 ] }\n";

typedef struct warnings {
    unsigned n;
    unsigned line[8];
    char msg[8][1024];
} warnings;

static void collect(void *ctx, const wsel_error *w)
{
    warnings *ws = ctx;
    if (ws->n < 8) {
        ws->line[ws->n] = w->line;
        snprintf(ws->msg[ws->n], sizeof ws->msg[0], "%s", w->message);
    }
    ws->n++;
}

static int load(wsel_state *st, const char *text, wsel_error *err)
{
    return wsel_state_load_admin_buffer(st, "admin_state", text, strlen(text), err);
}

/* Each test gets the config, a fresh state and its warnings. */
typedef struct fixture { /* cfg, st first: wsel_test_teardown frees them */
    wsel_config *cfg;
    wsel_state *st;
    warnings ws;
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    if (!f || wsel_test_open(cfg_text, &f->cfg, &f->st)) {
        free(f);
        return -1;
    }
    wsel_state_set_warn(f->st, collect, &f->ws);
    *state = f;
    return 0;
}

#define FIXTURE                                                                        \
    fixture *f = *state;                                                               \
    wsel_config *cfg = f->cfg;                                                         \
    wsel_state *st = f->st;                                                            \
    warnings *ws = &f->ws;                                                             \
    wsel_error err;                                                                    \
    (void)cfg;                                                                         \
    (void)ws;                                                                          \
    (void)err

static void test_builtin_types(void **state)
{
    FIXTURE;
    /* the issue's example: an address only the built-in `up` type watches */
    assert_int_equal(load(st, "\"10.0.0.1/up\" => DOWN\n", &err), WSEL_OK);
    WSEL_ASSERT_MS(wsel_test_item_state(st, cfg, "D", 0), false, WSEL_MAX_TTL);
    WSEL_ASSERT_MS(wsel_test_item_state(st, cfg, "D", 1), true, WSEL_MAX_TTL);
    /* R's 10.0.0.1 is watched by svc_a/svc_b, not `up`: untouched */
    WSEL_ASSERT_MS(wsel_test_item_state(st, cfg, "R", 0), true, WSEL_MAX_TTL);
    /* the built-in `down` type forced UP brings an item back */
    WSEL_ASSERT_MS(wsel_test_item_state(st, cfg, "X", 0), false, WSEL_MAX_TTL);
    assert_int_equal(load(st, "10.0.0.3/down => UP/40\n", &err), WSEL_OK);
    WSEL_ASSERT_MS(wsel_test_item_state(st, cfg, "X", 0), true, 40);
    assert_int_equal(ws->n, 0);
}

static void test_globs_and_order(void **state)
{
    FIXTURE;
    /* a glob, then an exception: the exception wins for its pair only */
    assert_int_equal(load(st,
                          "\"10.0.0.*/*\" => DOWN/30\n"
                          "\"10.0.0.2/svc_a\" => UP\n", &err), WSEL_OK);
    WSEL_ASSERT_MS(wsel_state_get(st, "svc_a", "10.0.0.2"), true, WSEL_MAX_TTL);
    WSEL_ASSERT_MS(wsel_state_get(st, "svc_b", "10.0.0.2"), false, 30);
    WSEL_ASSERT_MS(wsel_test_item_state(st, cfg, "R", 1), false, 30);       /* svc_b still DOWN */
    WSEL_ASSERT_MS(wsel_test_item_state(st, cfg, "D", 0), false, 30);       /* the glob hit `up` too */
    /* the other order: the later glob overrides the exception */
    wsel_state_clear_forced(st);
    WSEL_ASSERT_MS(wsel_test_item_state(st, cfg, "D", 0), true, WSEL_MAX_TTL);
    assert_int_equal(load(st,
                          "\"10.0.0.2/svc_a\" => UP\n"
                          "\"10.0.0.*/*\" => DOWN/30\n", &err), WSEL_OK);
    WSEL_ASSERT_MS(wsel_state_get(st, "svc_a", "10.0.0.2"), false, 30);
    /* a service glob; CNAMEs match case-insensitively */
    wsel_state_clear_forced(st);
    assert_int_equal(load(st, "\"FOO.example.net./svc_*\" = down\n", &err), WSEL_OK);
    WSEL_ASSERT_MS(wsel_test_item_state(st, cfg, "C", 0), false, WSEL_MAX_TTL);
    assert_int_equal(ws->n, 0);
}

static void test_ttls(void **state)
{
    FIXTURE;
    assert_int_equal(wsel_state_set(st, "svc_a", "10.0.0.1", false, 12, NULL, &err), WSEL_OK);
    WSEL_ASSERT_MS(wsel_test_item_state(st, cfg, "R", 0), false, 12);
    /* forced state without TTL: gdnsd 3.8.1 forces the maximum TTL (logs "forced to
     * UP/MAX"), so the monitored 12 no longer counts (doc/weighted.md §6.5, D21) */
    size_t m = 0;
    assert_int_equal(wsel_state_force(st, "10.0.0.1/svc_a", true, false, 0, &m, &err),
                     WSEL_OK);
    assert_int_equal(m, 1);
    WSEL_ASSERT_MS(wsel_state_get(st, "svc_a", "10.0.0.1"), true, WSEL_MAX_TTL);
    WSEL_ASSERT_MS(wsel_test_item_state(st, cfg, "R", 0), true, WSEL_MAX_TTL);
    wsel_pair_info p;
    assert_true(wsel_state_pair(st, 0, &p)); /* 10.0.0.1/svc_a */
    assert_true(p.forced && p.forced_up && !p.forced_ttl);
    assert_int_equal(p.ttl_forced, WSEL_MAX_TTL);
    WSEL_ASSERT_MS(p.monitored, false, 12);
    WSEL_ASSERT_MS(p.effective, true, WSEL_MAX_TTL);
    /* the DOWN twin: forced DOWN over a monitored UP/12 is DOWN with the maximum TTL */
    assert_int_equal(wsel_state_set(st, "svc_a", "10.0.0.1", true, 12, NULL, &err), WSEL_OK);
    assert_int_equal(wsel_state_force(st, "10.0.0.1/svc_a", false, false, 0, &m, &err),
                     WSEL_OK);
    WSEL_ASSERT_MS(wsel_state_get(st, "svc_a", "10.0.0.1"), false, WSEL_MAX_TTL);
    /* a forced TTL replaces it */
    assert_int_equal(wsel_state_force(st, "10.0.0.1/svc_a", true, true, 5, &m, &err), WSEL_OK);
    WSEL_ASSERT_MS(wsel_test_item_state(st, cfg, "R", 0), true, 5);
    /* the monitor no longer changes the TTL under a force without TTL ... */
    assert_int_equal(wsel_state_force(st, "10.0.0.1/svc_a", true, false, 0, &m, &err),
                     WSEL_OK);
    assert_int_equal(wsel_state_set(st, "svc_a", "10.0.0.1", false, 7, NULL, &err), WSEL_OK);
    WSEL_ASSERT_MS(wsel_test_item_state(st, cfg, "R", 0), true, WSEL_MAX_TTL);
    /* ... and unforcing gives the monitor back its verdict and TTL */
    assert_int_equal(wsel_state_unforce(st, "10.0.0.1/*", &m, &err), WSEL_OK);
    assert_int_equal(m, 3); /* svc_a, svc_b (R) and up (D) */
    WSEL_ASSERT_MS(wsel_test_item_state(st, cfg, "R", 0), false, 7);
    /* the admin_state file: a value without /TTL is the same as /268435455 */
    assert_int_equal(load(st, "\"10.0.0.1/svc_a\" => DOWN\n", &err), WSEL_OK);
    WSEL_ASSERT_MS(wsel_state_get(st, "svc_a", "10.0.0.1"), false, WSEL_MAX_TTL);
    assert_int_equal(wsel_state_set(st, "svc_a", "10.0.0.1", true, 3, NULL, &err), WSEL_OK);
    WSEL_ASSERT_MS(wsel_state_get(st, "svc_a", "10.0.0.1"), false, WSEL_MAX_TTL);
    /* forced TTL out of range */
    assert_int_equal(wsel_state_force(st, "10.0.0.1/svc_a", true, true, WSEL_MAX_TTL + 1, &m,
                                      &err), WSEL_E_STATE);
}

static void test_versions_and_pairs(void **state)
{
    FIXTURE;
    const wsel_set *d = &wsel_config_find(cfg, "D")->sets[0];
    const wsel_set *r = &wsel_config_find(cfg, "R")->sets[0];
    uint64_t vd = wsel_state_set_version(st, d), vr = wsel_state_set_version(st, r);
    assert_int_equal(wsel_state_force(st, "10.0.0.1/up", false, false, 0, NULL, NULL), WSEL_OK);
    assert_true(wsel_state_set_version(st, d) != vd);
    assert_true(wsel_state_set_version(st, r) == vr);
    vd = wsel_state_set_version(st, d);
    wsel_state_clear_forced(st);
    assert_true(wsel_state_set_version(st, d) != vd);

    /* D: 2 items x up; R: 2 x 2; C: 1 x 1; X: 1 x 1 => 8 pairs, sorted by thing */
    assert_int_equal(wsel_state_pair_count(st), 8);
    static const char *const want[8][2] = {
        { "10.0.0.1", "svc_a" }, { "10.0.0.1", "svc_b" }, { "10.0.0.1", "up" },
        { "10.0.0.2", "svc_a" }, { "10.0.0.2", "svc_b" }, { "10.0.0.2", "up" },
        { "10.0.0.3", "down" }, { "foo.example.net.", "svc_b" },
    };
    for (size_t i = 0; i < 8; i++) {
        wsel_pair_info p;
        assert_true(wsel_state_pair(st, i, &p));
        assert_string_equal(p.thing, want[i][0]);
        assert_string_equal(p.service, want[i][1]);
        assert_false(p.forced);
    }
    wsel_pair_info p;
    assert_false(wsel_state_pair(st, 8, &p));
    assert_int_equal(wsel_state_force(st, "10.0.0.3/down", true, true, 9, NULL, NULL), WSEL_OK);
    assert_true(wsel_state_pair(st, 6, &p));
    assert_true(p.forced && p.forced_up && p.forced_ttl);
    assert_int_equal(p.ttl_forced, 9);
    WSEL_ASSERT_MS(p.monitored, false, WSEL_MAX_TTL);
    WSEL_ASSERT_MS(p.effective, true, 9);
}

static void test_errors_atomic_and_warnings(void **state)
{
    FIXTURE;
    static const struct {
        const char *text;
        int code;
        unsigned line;
        const char *needle;
    } bad[] = {
        { "\"10.0.0.1/up\" => DOWN\n10.0.0.2 => DOWN\n", WSEL_E_STATE, 2, "THING/SERVICE_TYPE" },
        { "\"10.0.0.1/up\" => DOWN\n\"10.0.0.2/up\" => MAYBE\n", WSEL_E_STATE, 2, "UP or DOWN" },
        { "\"10.0.0.1/up\" => DOWN/268435456\n", WSEL_E_STATE, 1, "out of range" },
        { "\"10.0.0.1/up\" => DOWN/\n", WSEL_E_STATE, 1, "bad TTL" },
        { "\"10.0.0.1/up\" => DOWN/3x\n", WSEL_E_STATE, 1, "bad TTL" },
        { "\"10.0.0.1/up\" => [ DOWN ]\n", WSEL_E_STATE, 1, "an array" },
        { "\"/up\" => DOWN\n", WSEL_E_STATE, 1, "THING/SERVICE_TYPE" },
        { "\"10.0.0.1/\" => DOWN\n", WSEL_E_STATE, 1, "THING/SERVICE_TYPE" },
        { "$include{x}\n", WSEL_E_INCLUDE, 1, "" },
        { "\"10.0.0.1/up\" => DOWN\n\"10.0.0.1/up\" => UP\n", WSEL_E_DUPKEY, 2, "" },
        { "[ a ]\n", WSEL_E_STATE, 1, "expected" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        wsel_error_clear(&err);
        assert_int_equal(load(st, bad[i].text, &err), bad[i].code);
        if (bad[i].code == WSEL_E_STATE || bad[i].code == WSEL_E_DUPKEY)
            assert_int_equal(err.line, bad[i].line);
        assert_string_equal(err.file, "admin_state");
        if (!strstr(err.message, bad[i].needle))
            fail_msg("case %zu: message '%s' lacks '%s'", i, err.message, bad[i].needle);
        /* nothing applied: the valid first line of a bad file left no trace */
        WSEL_ASSERT_MS(wsel_test_item_state(st, cfg, "D", 0), true, WSEL_MAX_TTL);
    }
    assert_int_equal(ws->n, 0);

    /* a line that matches nothing is a warning naming its line; the rest applies */
    assert_int_equal(load(st, "\"10.0.0.1/up\" => DOWN\n\"10.9.9.9/*\" => DOWN\n"
                              "\"10.0.0.1/nosuch\" => DOWN\n", &err), WSEL_OK);
    assert_int_equal(ws->n, 2);
    assert_int_equal(ws->line[0], 2);
    assert_int_equal(ws->line[1], 3);
    assert_non_null(strstr(ws->msg[0], "matches no"));
    WSEL_ASSERT_MS(wsel_test_item_state(st, cfg, "D", 0), false, WSEL_MAX_TTL);

    /* from a file; a missing file is an I/O error */
    char path[] = "/tmp/wsel_test_adminXXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    const char *txt = "# drain\n\"10.0.0.2/*\" => DOWN/60\n";
    assert_int_equal(write(fd, txt, strlen(txt)), (ssize_t)strlen(txt));
    close(fd);
    assert_int_equal(wsel_state_load_admin(st, path, &err), WSEL_OK);
    WSEL_ASSERT_MS(wsel_test_item_state(st, cfg, "R", 1), false, 60);
    unlink(path);
    assert_int_equal(wsel_state_load_admin(st, path, &err), WSEL_E_IO);
}

/* Issue 14 item 7: extfile lines that change nothing are reported, each with its line. */
static void test_extfile_warnings(void **state)
{
    FIXTURE;
    const char *text = "10.0.0.1 => DOWN\n"
                       "192.0.2.77 => DOWN\n"
                       "192.0.2.999 => DOWN\n"
                       "foo.example.net => DOWN\n"
                       "10.0.0.3 => DOWN\n";
    assert_int_equal(wsel_state_load_extfile_buffer(st, "svc_b", "ext", text, strlen(text),
                                                    &err), WSEL_OK);
    /* line 5: 10.0.0.3 exists, but svc_b does not watch it */
    assert_int_equal(ws->n, 4);
    assert_int_equal(ws->line[0], 2);
    assert_int_equal(ws->line[1], 3);
    assert_non_null(strstr(ws->msg[1], "not a valid IPv4 address"));
    assert_int_equal(ws->line[2], 4);
    assert_non_null(strstr(ws->msg[2], "final dot"));
    assert_int_equal(ws->line[3], 5);
    WSEL_ASSERT_MS(wsel_test_item_state(st, cfg, "R", 0), false, WSEL_MAX_TTL);

    /* a byte-order mark is refused, not read as part of the first key */
    const char *bom = "\xEF\xBB\xBF" "10.0.0.2 => DOWN\n";
    assert_int_equal(wsel_state_load_extfile_buffer(st, "svc_b", "ext", bom, strlen(bom), &err),
                     WSEL_E_STATE);
    assert_int_equal(err.line, 1);
    assert_non_null(strstr(err.message, "byte-order mark"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_builtin_types, setup, wsel_test_teardown),
        cmocka_unit_test_setup_teardown(test_globs_and_order, setup, wsel_test_teardown),
        cmocka_unit_test_setup_teardown(test_ttls, setup, wsel_test_teardown),
        cmocka_unit_test_setup_teardown(test_versions_and_pairs, setup, wsel_test_teardown),
        cmocka_unit_test_setup_teardown(test_errors_atomic_and_warnings, setup, wsel_test_teardown),
        cmocka_unit_test_setup_teardown(test_extfile_warnings, setup, wsel_test_teardown),
    };
    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests_name("admin_state", tests, NULL, NULL);
}
