/* Tests written for generated mutants of the weighted code (scripts/mutgen.py, `make
 * mutants-sample`; README, *Mutation testing*) that survived the other tests. Each case
 * names the mutant id it kills; expectations come from doc/weighted.md and the public
 * headers, not from a run.
 *
 * The allocation-failure cases use tests/support/nomem.h (malloc replaced for this whole
 * program); they skip themselves under a sanitizer or valgrind. glob() is wrapped so that
 * its own allocations never fail (glibc 2.36's glob double-frees when one does), which
 * lets a load with a $include{} glob be swept. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <glob.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "support/support.h"
#include "support/nomem.h"

#ifndef NOMEM_SKIP
typedef int (*glob_fn)(const char *, int, int (*)(const char *, int), glob_t *);

int glob(const char *pattern, int flags, int (*errfunc)(const char *, int), glob_t *pglob)
{
    static glob_fn real;
    if (!real) {
        void *f = dlsym(RTLD_NEXT, "glob");
        memcpy(&real, &f, sizeof real);
    }
    long save = countdown;
    countdown = -1;
    int rc = real(pattern, flags, errfunc, pglob);
    countdown = save;
    return rc;
}

#endif

static const char *const cfg_text = "R => { service_types => svc\n"
                                    "  a = [ 10.0.0.1, 1 ]\n  b = [ 10.0.0.2, 1 ] }\n";

typedef struct warns {
    unsigned n, line[4];
} warns;

static void count_warn(void *ctx, const wsel_error *w)
{
    warns *ws = ctx;
    if (ws->n < 4)
        ws->line[ws->n] = w->line;
    ws->n++;
}

/* A key of `n` bytes: a name of `n` letters (upper case, so canonicalisation changes it)
 * with a dot every 60 bytes. */
static void long_key(char *out, size_t n)
{
    for (size_t i = 0; i < n; i++)
        out[i] = (char)(i % 61 == 60 ? '.' : 'A' + (int)(i % 26));
    out[n] = '\0';
}

/* core/weighted/weighted_state.c@45aecf49c3:const:1:2:1 -- doc/weighted.md §6.4: an extfile key is at most
 * 319 bytes. The longest key is accepted (it names nothing here: a warning for its line)
 * and the lines after it apply; one byte more is an error at the key. The mutant copies
 * strlen + 2 bytes of the 320-byte canonical-key buffer, one past its end for a 319-byte
 * key: a stack over-read that only ASan reports (CI runs this program under ASan). */
static void test_extfile_longest_key(void **state)
{
    (void)state;
    wsel_config *cfg = wsel_test_load(cfg_text);
    wsel_state *st;
    assert_int_equal(wsel_state_new(cfg, &st, NULL), WSEL_OK);
    warns ws = {0};
    wsel_state_set_warn(st, count_warn, &ws);

    char key[330], text[800];
    wsel_error err;
    for (int quoted = 0; quoted <= 1; quoted++) {
        long_key(key, 319);
        snprintf(text, sizeof text, "%s%s%s => UP\n10.0.0.%d => DOWN/30\n",
                 quoted ? "\"" : "", key, quoted ? "\"" : "", quoted + 1);
        ws.n = 0;
        wsel_error_clear(&err);
        assert_int_equal(wsel_state_load_extfile_buffer(st, "svc", "ext.state", text,
                                                        strlen(text), &err), WSEL_OK);
        assert_int_equal(ws.n, 1);
        assert_int_equal(ws.line[0], 1);
        WSEL_ASSERT_MS(wsel_test_item_state(st, cfg, "R", (unsigned)quoted), false, 30);

        long_key(key, 320);
        snprintf(text, sizeof text, "%s%s%s => UP\n", quoted ? "\"" : "", key,
                 quoted ? "\"" : "");
        wsel_error_clear(&err);
        assert_int_equal(wsel_state_load_extfile_buffer(st, "svc", "ext.state", text,
                                                        strlen(text), &err), WSEL_E_STATE);
        assert_int_equal(err.line, 1);
        assert_int_equal(err.col, 1);
        assert_non_null(strstr(err.message, "too long"));
    }
    wsel_state_free(st);
    wsel_config_free(cfg);
}

/* core/weighted/weighted_state.c@a0afc6d405+3:const:0:1:1 -- wsel.h: an error's line and col are "0 when no
 * position applies"; a missing state or pattern is an argument error with no position. */
static void test_force_argument_errors(void **state)
{
    (void)state;
    wsel_config *cfg = wsel_test_load(cfg_text);
    wsel_state *st;
    assert_int_equal(wsel_state_new(cfg, &st, NULL), WSEL_OK);
    wsel_error err;
    size_t matched = 7;
    for (int k = 0; k < 4; k++) {
        wsel_state *s = k % 2 ? st : NULL;
        const char *pat = k % 2 ? NULL : "*/*";
        wsel_error_clear(&err);
        err.line = err.col = 9;
        int rc = k < 2 ? wsel_state_force(s, pat, false, true, 5, &matched, &err)
                       : wsel_state_unforce(s, pat, &matched, &err);
        assert_int_equal(rc, WSEL_E_ARG);
        assert_int_equal(err.code, WSEL_E_ARG);
        assert_int_equal(err.line, 0);
        assert_int_equal(err.col, 0);
        assert_string_equal(err.file, "");
        assert_int_equal(matched, 0);
    }
    wsel_state_free(st);
    wsel_config_free(cfg);
}

/* core/weighted/weighted_state.c@bda4248860:const:0:1:1 -- the built-in service types up and down cannot be
 * set (doc/weighted.md §6); the error is about the service type, not a place in the
 * input: no line or column (an extfile load names its file). */
static void test_builtin_service_errors(void **state)
{
    (void)state;
    wsel_config *cfg = wsel_test_load(cfg_text);
    wsel_state *st;
    assert_int_equal(wsel_state_new(cfg, &st, NULL), WSEL_OK);
    static const char *const svc[] = { "up", "down" };
    wsel_error err;
    for (int k = 0; k < 2; k++) {
        wsel_error_clear(&err);
        err.line = err.col = 9;
        assert_int_equal(wsel_state_set(st, svc[k], "10.0.0.1", false, 5, NULL, &err),
                         WSEL_E_STATE);
        assert_int_equal(err.line, 0);
        assert_int_equal(err.col, 0);
        assert_string_equal(err.key, svc[k]);
        wsel_error_clear(&err);
        err.line = err.col = 9;
        assert_int_equal(wsel_state_load_extfile_buffer(st, svc[k], "ext.state",
                                                        "10.0.0.1 => DOWN\n", 17, &err),
                         WSEL_E_STATE);
        assert_string_equal(err.file, "ext.state");
        assert_int_equal(err.line, 0);
        assert_int_equal(err.col, 0);
        assert_non_null(strstr(err.message, "built in"));
    }
    WSEL_ASSERT_MS(wsel_test_item_state(st, cfg, "R", 0), true, WSEL_MAX_TTL);
    wsel_state_free(st);
    wsel_config_free(cfg);
}

/* core/weighted/weighted_model_check.c@3a51157544:guard:if (grp->count < 1 || grp->count > WSEL_:;:1
 * -- the model structs are public, and a hand-built set that breaks the model's rules
 * is refused (include/wsel/resolve.h, tests/test_coverage_model.c): a group holds 1..64
 * addresses. An empty group appended
 * after the last one keeps every other rule (it starts where the items end, covers
 * nothing, totals 0), so only the group-size rule refuses it. */
static void test_empty_trailing_group(void **state)
{
    (void)state;
    wsel_config *cfg = wsel_test_load("G => { multi => true, g1 => { a => [ 10.0.0.1, 1 ], "
                                      "b => [ 10.0.0.2, 2 ] }, g2 => { c => [ 10.0.0.3, 4 ] } }\n");
    wsel_state *st;
    assert_int_equal(wsel_state_new(cfg, &st, NULL), WSEL_OK);
    const wsel_resource *g = wsel_config_find(cfg, "G");
    assert_non_null(g);
    assert_int_equal(g->n_sets, 1);
    assert_int_equal(g->sets[0].n_groups, 2);
    wsel_resource res = *g;
    wsel_set set = g->sets[0];
    wsel_group groups[3];
    memcpy(groups, set.groups, 2 * sizeof *groups);
    groups[2] = groups[1];
    groups[2].first = set.n_items;
    groups[2].count = 0;
    groups[2].total = 0;
    set.groups = groups;
    res.sets = &set;
    wsel_prng prng;
    wsel_prng_seed(&prng, 3);
    wsel_rng rng = wsel_prng_rng(&prng);
    wsel_answer ans;
    /* the copy as loaded resolves: the refusal below is the empty group's */
    assert_int_equal(wsel_ref_resolve(&res, st, &rng, &ans), WSEL_OK);
    set.n_groups = 3;
    assert_int_equal(wsel_ref_resolve(&res, st, &rng, &ans), WSEL_E_ARG);
    wsel_odds *o = NULL;
    wsel_error err;
    assert_int_equal(wsel_odds_compute(&res, st, &o, &err), WSEL_E_ARG);
    assert_null(o);
    wsel_state_free(st);
    wsel_config_free(cfg);
}

#ifndef NOMEM_SKIP
static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    assert_int_equal(fputs(text, f) >= 0, 1);
    assert_int_equal(fclose(f), 0);
}
#endif

/* core/weighted/weighted_include.c@8a0dd0fea5+3:stmt:rc = fail_at(err, WSEL_E_NOMEM, at, NULL:;:1 --
 * doc/weighted.md §2.9: running out of memory is WSEL_E_NOMEM, never a different config.
 * Every allocation of a load whose $include{} is a glob fails in turn: the load fails
 * with WSEL_E_NOMEM (or WSEL_E_IO where fopen fails for want of memory), or it succeeds
 * with both resources, the included one too; nothing stays allocated either way. */
static void test_include_glob_nomem(void **state)
{
    (void)state;
#ifndef NOMEM_SKIP
    char dir[] = "/tmp/wsel_test_incXXXXXX";
    assert_non_null(mkdtemp(dir));
    char top[64], sub[64], inc[80];
    snprintf(top, sizeof top, "%s/top.conf", dir);
    snprintf(sub, sizeof sub, "%s/inc", dir);
    snprintf(inc, sizeof inc, "%s/inc/m_a.inc", dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    write_file(top, "r => { a => [ 192.0.2.1, 1 ] }\n$include{inc/m_*.inc}\n");
    write_file(inc, "s => { b => [ 192.0.2.2, 1 ] }\n");

    unsigned failures = 0;
    for (long k = 0; k < 100000; k++) {
        long base = live;
        wsel_config *cfg = NULL;
        wsel_error err;
        arm(k);
        int rc = wsel_config_load_file(top, NULL, &cfg, &err);
        int failed = disarm();
        if (rc == WSEL_OK) {
            if (!wsel_config_find(cfg, "r") || !wsel_config_find(cfg, "s"))
                fail_msg("allocation %ld failed, status OK, but the config has %zu "
                         "resource(s), expected r and s", k, wsel_config_resource_count(cfg));
            wsel_config_free(cfg);
        } else if (!failed) {
            fail_msg("status %d without an allocation failure: %s", rc, err.message);
        } else if (rc != WSEL_E_NOMEM && rc != WSEL_E_IO) {
            fail_msg("allocation %ld failed, status %d (%s), expected WSEL_E_NOMEM", k, rc,
                     err.message);
        } else {
            assert_null(cfg);
        }
        if (live != base)
            fail_msg("allocation %ld failed, status %d; %ld blocks leaked", k, rc,
                     live - base);
        if (!failed)
            break;
        failures++;
    }
    assert_true(failures > 10);
    unlink(inc);
    rmdir(sub);
    unlink(top);
    rmdir(dir);
#endif
}

/* core/weighted/weighted_admin_state.c@9e8ad01058:stmt:free(lines);:;:1 -- loading an admin_state file
 * allocates nothing that outlives the state and config: the blocks live before are live
 * after both are freed (tests/support/nomem.h counts them). */
static void test_admin_state_no_leak(void **state)
{
    (void)state;
#ifndef NOMEM_SKIP
    static const char admin[] = "\"10.0.0.1/svc\" => DOWN/20\n\"10.0.0.2/*\" => UP\n"
                                "\"192.0.2.99/svc\" => DOWN\n";
    long base = live;
    wsel_config *cfg = wsel_test_load(cfg_text);
    wsel_state *st;
    assert_int_equal(wsel_state_new(cfg, &st, NULL), WSEL_OK);
    wsel_error err;
    assert_int_equal(wsel_state_load_admin_buffer(st, "admin", admin, sizeof admin - 1, &err),
                     WSEL_OK);
    WSEL_ASSERT_MS(wsel_test_item_state(st, cfg, "R", 0), false, 20);
    wsel_state_free(st);
    wsel_config_free(cfg);
    assert_int_equal(live - base, 0);
#endif
}

/* Under a sanitizer or valgrind the allocation-failure cases are left out (with a TAP
 * comment): tests/run-tests.sh counts cmocka's "not ok # SKIP" lines as failures. */
int main(void)
{
    const struct CMUnitTest all[] = {
        cmocka_unit_test(test_extfile_longest_key),
        cmocka_unit_test(test_force_argument_errors),
        cmocka_unit_test(test_builtin_service_errors),
        cmocka_unit_test(test_empty_trailing_group),
        cmocka_unit_test(test_include_glob_nomem),
        cmocka_unit_test(test_admin_state_no_leak),
    };
    const struct CMUnitTest plain[] = {
        cmocka_unit_test(test_extfile_longest_key),
        cmocka_unit_test(test_force_argument_errors),
        cmocka_unit_test(test_builtin_service_errors),
        cmocka_unit_test(test_empty_trailing_group),
    };
    cmocka_set_message_output(CM_OUTPUT_TAP);
#ifndef NOMEM_SKIP
    if (nomem_injection_works())
        return cmocka_run_group_tests_name("weighted_mutants", all, NULL, NULL);
#else
    (void)all;
#endif
    printf("# allocation-failure cases left out: malloc is owned by a sanitizer or valgrind\n");
    return cmocka_run_group_tests_name("weighted_mutants", plain, NULL, NULL);
}
