/* Monitoring state (doc/weighted.md §6): combination rules, service-type checks,
 * canonical keys, per-set versions, and the extfile reader. */
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

static const char *const two_svc =
    "R => { service_types => [ svc_a, svc_b ]\n"
    "  a = [ 10.0.0.1, 1 ]\n  b = [ 10.0.0.2, 1 ] }\n"
    "S => { service_types = svc_a\n  x = [ 10.0.0.1, 1 ]\n  y = [ 10.0.0.9, 1 ] }\n"
    "N => { service_types = []\n  a = [ 10.0.0.1, 1 ] }\n"
    "U => { service_types = [ up, svc_b ]\n  a = [ 10.0.0.1, 1 ] }\n"
    "D => { service_types = down\n  a = [ 10.0.0.1, 1 ] }\n"
    "V6 => { service_types = svc_a\n  a = [ 2001:DB8::ABC, 1 ]\n  b = [ 2001:db8::1:0:0:1, 1 ] }\n"
    "C => { service_types = svc_b\n  c = [ Foo.Example.NET., 1 ] }\n";

/* The fixture of most tests: two_svc loaded and a state for it, all UP. */
typedef struct fixture { /* cfg, st first: wsel_test_teardown frees them */
    wsel_config *cfg;
    wsel_state *st;
} fixture;

static int setup_two_svc(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    *state = f;
    return f ? wsel_test_open(two_svc, &f->cfg, &f->st) : -1;
}

static const wsel_set *set_of(const wsel_config *cfg, const char *name)
{
    const wsel_resource *r = wsel_config_find(cfg, name);
    assert_non_null(r);
    return &r->sets[0];
}


static void test_defaults_and_combination(void **state)
{
    const fixture *f = *state;
    wsel_config *cfg = f->cfg;
    wsel_state *st = f->st;
    assert_ptr_equal(wsel_state_config(st), cfg);

    WSEL_ASSERT_MS(wsel_test_item_state(st, cfg, "R", 0), true, WSEL_MAX_TTL);
    WSEL_ASSERT_MS(wsel_test_item_state(st, cfg, "D", 0), false, WSEL_MAX_TTL);
    WSEL_ASSERT_MS(wsel_state_get(st, "svc_a", "10.0.0.1"), true, WSEL_MAX_TTL);
    WSEL_ASSERT_MS(wsel_state_get(st, "down", "10.0.0.1"), false, WSEL_MAX_TTL);
    WSEL_ASSERT_MS(wsel_state_get(st, "up", "10.0.0.1"), true, WSEL_MAX_TTL);

    size_t matched = 99;
    /* 10.0.0.1 is in R (svc_a, svc_b), S (svc_a), N (none), U (up, svc_b), D (down) */
    assert_int_equal(wsel_state_set(st, "svc_a", "10.0.0.1", false, 100, &matched, NULL), 0);
    assert_int_equal(matched, 2);
    WSEL_ASSERT_MS(wsel_test_item_state(st, cfg, "R", 0), false, 100);
    WSEL_ASSERT_MS(wsel_test_item_state(st, cfg, "S", 0), false, 100);
    WSEL_ASSERT_MS(wsel_test_item_state(st, cfg, "N", 0), true, WSEL_MAX_TTL);
    WSEL_ASSERT_MS(wsel_test_item_state(st, cfg, "U", 0), true, WSEL_MAX_TTL);
    WSEL_ASSERT_MS(wsel_test_item_state(st, cfg, "R", 1), true, WSEL_MAX_TTL);

    /* DOWN if any is DOWN; TTL is the smallest */
    assert_int_equal(wsel_state_set(st, "svc_b", "10.0.0.1", true, 50, &matched, NULL), 0);
    assert_int_equal(matched, 2); /* R and U */
    WSEL_ASSERT_MS(wsel_test_item_state(st, cfg, "R", 0), false, 50);
    WSEL_ASSERT_MS(wsel_test_item_state(st, cfg, "U", 0), true, 50);
    assert_int_equal(wsel_state_set(st, "svc_a", "10.0.0.1", true, 200, NULL, NULL), 0);
    WSEL_ASSERT_MS(wsel_test_item_state(st, cfg, "R", 0), true, 50);
    WSEL_ASSERT_MS(wsel_test_item_state(st, cfg, "S", 0), true, 200);
    WSEL_ASSERT_MS(wsel_state_get(st, "svc_a", "10.0.0.1"), true, 200);
    WSEL_ASSERT_MS(wsel_state_get(st, "svc_b", "10.0.0.1"), true, 50);

    /* service NULL: every non-built-in service the config uses (svc_a, svc_b) */
    assert_int_equal(wsel_state_set(st, NULL, "10.0.0.1", false, 7, &matched, NULL), 0);
    assert_int_equal(matched, 3); /* R, S, U */
    WSEL_ASSERT_MS(wsel_test_item_state(st, cfg, "R", 0), false, 7);
    WSEL_ASSERT_MS(wsel_test_item_state(st, cfg, "U", 0), false, 7);
    WSEL_ASSERT_MS(wsel_test_item_state(st, cfg, "N", 0), true, WSEL_MAX_TTL);
    WSEL_ASSERT_MS(wsel_test_item_state(st, cfg, "D", 0), false, WSEL_MAX_TTL);

    /* TTL limits */
    assert_int_equal(wsel_state_set(st, "svc_a", "10.0.0.9", true, WSEL_MAX_TTL, NULL, NULL), 0);
    assert_int_equal(wsel_state_set(st, "svc_a", "10.0.0.9", true, 0, NULL, NULL), 0);
    WSEL_ASSERT_MS(wsel_test_item_state(st, cfg, "S", 1), true, 0);
    wsel_error err;
    assert_int_equal(wsel_state_set(st, "svc_a", "10.0.0.9", false, WSEL_MAX_TTL + 1, NULL,
                                    &err), WSEL_E_STATE);
    assert_int_equal(err.code, WSEL_E_STATE);
    assert_non_null(strstr(err.message, "268435455"));
    WSEL_ASSERT_MS(wsel_test_item_state(st, cfg, "S", 1), true, 0); /* unchanged */

}

static void test_service_checks(void **state)
{
    const fixture *f = *state;
    wsel_config *cfg = f->cfg;
    wsel_state *st = f->st;
    wsel_error err;
    assert_int_equal(wsel_state_set(st, "up", "10.0.0.1", false, 1, NULL, &err), WSEL_E_STATE);
    assert_non_null(strstr(err.message, "built in"));
    assert_int_equal(wsel_state_set(st, "down", "10.0.0.1", true, 1, NULL, &err), WSEL_E_STATE);
    /* stanza-only configs carry no list of defined service types: any other name is kept */
    size_t matched = 5;
    assert_int_equal(wsel_state_set(st, "other", "10.0.0.1", false, 1, &matched, NULL), 0);
    assert_int_equal(matched, 0);
    WSEL_ASSERT_MS(wsel_state_get(st, "other", "10.0.0.1"), false, 1);
    WSEL_ASSERT_MS(wsel_test_item_state(st, cfg, "R", 0), true, WSEL_MAX_TTL);

    /* whole configs: only service types the weighted resources use */
    cfg = wsel_test_load_synopsis();
    assert_true(wsel_config_is_whole(cfg));
    assert_int_equal(wsel_state_new(cfg, &st, NULL), WSEL_OK);
    assert_int_equal(wsel_state_set(st, "nope", "192.0.2.1", false, 1, NULL, &err),
                     WSEL_E_STATE);
    assert_non_null(strstr(err.message, "nope"));
    assert_int_equal(wsel_state_set(st, "web_check", "192.0.2.1", false, 1, &matched, &err), 0);
    assert_int_equal(matched, 1);
    /* 127.0.0.3 is in cdnwww (web_check) and mixed/addrs_v4 (up) */
    assert_int_equal(wsel_state_set(st, NULL, "127.0.0.3", false, 1, &matched, &err), 0);
    assert_int_equal(matched, 1);
    const wsel_resource *mixed = wsel_config_find(cfg, "mixed");
    WSEL_ASSERT_MS(wsel_state_item(st, &mixed->sets[0], &mixed->sets[0].items[0]), true,
              WSEL_MAX_TTL);
    wsel_state_free(st);
    wsel_config_free(cfg);
}

static void test_canonical_keys(void **state)
{
    const fixture *f = *state;
    wsel_config *cfg = f->cfg;
    wsel_state *st = f->st;
    size_t matched = 0;
    assert_int_equal(wsel_state_set(st, "svc_a", "2001:db8:0:0::abc", false, 3, &matched,
                                    NULL), 0);
    assert_int_equal(matched, 1);
    WSEL_ASSERT_MS(wsel_test_item_state(st, cfg, "V6", 0), false, 3);
    WSEL_ASSERT_MS(wsel_state_get(st, "svc_a", "2001:DB8::ABC"), false, 3);
    /* 2001:db8::1:0:0:1 and 2001:db8:0:0:1::1 are one address */
    assert_int_equal(wsel_state_set(st, "svc_a", "2001:0db8:0000:0000:0001:0000:0000:0001",
                                    false, 4, &matched, NULL), 0);
    assert_int_equal(matched, 1);
    WSEL_ASSERT_MS(wsel_test_item_state(st, cfg, "V6", 1), false, 4);
    /* CNAME targets are matched case-insensitively */
    assert_int_equal(wsel_state_set(st, "svc_b", "FOO.example.net.", false, 9, &matched,
                                    NULL), 0);
    assert_int_equal(matched, 1);
    WSEL_ASSERT_MS(wsel_test_item_state(st, cfg, "C", 0), false, 9);
}

static void test_versions(void **state)
{
    const fixture *f = *state;
    wsel_config *cfg = f->cfg;
    wsel_state *st = f->st;
    const char *names[] = { "R", "S", "N", "U", "D", "V6", "C" };
    enum { NS = 7 };
    uint64_t v0[NS], v1[NS];
    for (int i = 0; i < NS; i++)
        v0[i] = wsel_state_set_version(st, set_of(cfg, names[i]));

    /* svc_b on 10.0.0.1 affects R and U only */
    assert_int_equal(wsel_state_set(st, "svc_b", "10.0.0.1", false, 1, NULL, NULL), 0);
    for (int i = 0; i < NS; i++) {
        v1[i] = wsel_state_set_version(st, set_of(cfg, names[i]));
        bool affected = strcmp(names[i], "R") == 0 || strcmp(names[i], "U") == 0;
        if (affected)
            assert_true(v1[i] != v0[i]);
        else
            assert_true(v1[i] == v0[i]);
    }
    /* a key no item has changes nothing */
    assert_int_equal(wsel_state_set(st, "svc_a", "10.9.9.9", false, 1, NULL, NULL), 0);
    for (int i = 0; i < NS; i++)
        assert_true(wsel_state_set_version(st, set_of(cfg, names[i])) == v1[i]);
    /* svc_a on 10.0.0.9: S only */
    assert_int_equal(wsel_state_set(st, "svc_a", "10.0.0.9", false, 1, NULL, NULL), 0);
    for (int i = 0; i < NS; i++) {
        uint64_t v = wsel_state_set_version(st, set_of(cfg, names[i]));
        if (strcmp(names[i], "S") == 0)
            assert_true(v != v1[i]);
        else
            assert_true(v == v1[i]);
    }
}

static int load_ext(wsel_state *st, const char *svc, const char *text, wsel_error *err)
{
    return wsel_state_load_extfile_buffer(st, svc, "ext.state", text, strlen(text), err);
}

static void test_extfile(void **state)
{
    const fixture *f = *state;
    wsel_config *cfg = f->cfg;
    wsel_state *st = f->st;
    wsel_error err;
    const char *good = "# monitor output\n"
                       "\n"
                       "10.0.0.1 => DOWN/30\n"
                       "  10.0.0.2=>up   ; trailing comment\n"
                       "2001:db8:0::abc => Down\n"
                       "\"10.0.0.9\" => UP/0\n";
    assert_int_equal(load_ext(st, "svc_a", good, &err), WSEL_OK);
    WSEL_ASSERT_MS(wsel_test_item_state(st, cfg, "R", 0), false, 30);
    WSEL_ASSERT_MS(wsel_test_item_state(st, cfg, "R", 1), true, WSEL_MAX_TTL);
    WSEL_ASSERT_MS(wsel_test_item_state(st, cfg, "V6", 0), false, WSEL_MAX_TTL);
    WSEL_ASSERT_MS(wsel_test_item_state(st, cfg, "S", 1), true, 0);

    /* col: 1-based column of the offending text (0: whole line) */
    struct { const char *text; unsigned line, col; const char *needle; } bad[] = {
        { "10.0.0.1 => UP\n10.0.0.2 => MAYBE\n", 2, 13, "UP or DOWN" },
        { "10.0.0.1 => ON\n", 1, 13, "UP or DOWN" },    /* two letters, not UP */
        { "10.0.0.1 => UPPER\n", 1, 13, "UP or DOWN" }, /* begins with UP */
        { "10.0.0.1 => DOWNS\n", 1, 13, "UP or DOWN" },
        { "\n\n10.0.0.1 => UP/abc\n", 3, 16, "TTL" },
        { "10.0.0.1 => DOWN/268435456\n", 1, 18, "268435455" },
        { "10.0.0.1 => DOWN/268435455\n  10.0.0.2 UP\n", 2, 12, "=>" },
        { "10.0.0.1 => UP\n# x\n10.0.0.1 => DOWN\n", 3, 0, "line 1" },
        { "10.0.0.1 => UP extra\n", 1, 16, "unexpected" },
        { "=> UP\n", 1, 1, "address or name" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        wsel_error_clear(&err);
        assert_int_equal(load_ext(st, "svc_b", bad[i].text, &err), WSEL_E_STATE);
        assert_int_equal(err.code, WSEL_E_STATE);
        assert_int_equal(err.line, bad[i].line);
        assert_int_equal(err.col, bad[i].col);
        assert_string_equal(err.file, "ext.state");
        if (!strstr(err.message, bad[i].needle))
            fail_msg("case %zu: message '%s' lacks '%s'", i, err.message, bad[i].needle);
    }
    /* atomic: the valid first lines above were not applied for svc_b */
    WSEL_ASSERT_MS(wsel_state_get(st, "svc_b", "10.0.0.1"), true, WSEL_MAX_TTL);
    WSEL_ASSERT_MS(wsel_state_get(st, "svc_b", "10.0.0.2"), true, WSEL_MAX_TTL);
    /* built-ins cannot be loaded */
    assert_int_equal(load_ext(st, "up", good, &err), WSEL_E_STATE);

    /* from a file; a missing file is an I/O error */
    char path[] = "/tmp/wsel_test_extXXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    const char *txt = "10.0.0.2 => DOWN/12\n";
    assert_int_equal(write(fd, txt, strlen(txt)), (ssize_t)strlen(txt));
    close(fd);
    assert_int_equal(wsel_state_load_extfile(st, "svc_b", path, &err), WSEL_OK);
    WSEL_ASSERT_MS(wsel_test_item_state(st, cfg, "R", 1), false, 12);
    unlink(path);
    assert_int_equal(wsel_state_load_extfile(st, "svc_b", path, &err), WSEL_E_IO);
    assert_string_equal(err.file, path);

}

/* Files without an entry (empty, blank lines, comments only) load and change nothing:
 * the reader's lists stay empty (run under ASan+UBSan by check-unit SAN=1). */
static void test_extfile_without_entries(void **state)
{
    const fixture *f = *state;
    wsel_state *st = f->st;
    wsel_error err;
    assert_int_equal(load_ext(st, "svc_a", "10.0.0.1 => DOWN/30\n", &err), WSEL_OK);
    uint64_t v = wsel_state_set_version(st, set_of(f->cfg, "R"));
    static const char *const empty[] = { "", "\n\n", "# only a comment", "; x\n  \n# y\n" };
    for (size_t i = 0; i < sizeof empty / sizeof empty[0]; i++) {
        assert_int_equal(load_ext(st, "svc_a", empty[i], &err), WSEL_OK);
        assert_int_equal(wsel_state_load_extfile_buffer(st, "svc_a", "e", NULL, 0, &err),
                         WSEL_OK);
    }
    WSEL_ASSERT_MS(wsel_state_get(st, "svc_a", "10.0.0.1"), false, 30);
    assert_int_equal(wsel_state_set_version(st, set_of(f->cfg, "R")), v);
}

/* A temporary file of `size` bytes: one comment line (a valid, empty state file). */
static void make_comment_file(char *path, size_t size)
{
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "wb");
    assert_non_null(f);
    fputc('#', f);
    for (size_t i = 2; i < size; i++)
        fputc('x', f);
    fputc('\n', f);
    assert_int_equal(fclose(f), 0);
}

/* Issue 14 items 4 and 11: a state file must be a regular file (a FIFO is refused, not
 * waited on), every I/O error names the file and the reason, and the 64 MiB limit
 * accepts exactly 64 MiB. */
static void test_extfile_files(void **state)
{
    wsel_state *st = ((const fixture *)*state)->st;
    wsel_error err;

    char dir[] = "/tmp/wsel_test_stdirXXXXXX";
    assert_non_null(mkdtemp(dir));
    char fifo[sizeof dir + 8];
    snprintf(fifo, sizeof fifo, "%s/fifo", dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    alarm(10); /* a FIFO that is waited on fails the test instead of hanging it */
    assert_int_equal(wsel_state_load_extfile(st, "svc_a", fifo, &err), WSEL_E_IO);
    alarm(0);
    assert_string_equal(err.file, fifo);
    assert_non_null(strstr(err.message, "FIFO"));
    unlink(fifo);

    assert_int_equal(wsel_state_load_extfile(st, "svc_a", dir, &err), WSEL_E_IO);
    assert_string_equal(err.file, dir);
    assert_non_null(strstr(err.message, "is a directory"));
    rmdir(dir);

    char none[] = "/tmp/wsel_test_none_XXXXXX";
    make_comment_file(none, 2);
    unlink(none);
    assert_int_equal(wsel_state_load_extfile(st, "svc_a", none, &err), WSEL_E_IO);
    assert_non_null(strstr(err.message, none));
    assert_non_null(strstr(err.message, "No such file or directory"));

    char big[] = "/tmp/wsel_test_bigXXXXXX";
    make_comment_file(big, (size_t)64 << 20);
    assert_int_equal(wsel_state_load_extfile(st, "svc_a", big, &err), WSEL_OK);
    unlink(big);
    char over[] = "/tmp/wsel_test_overXXXXXX";
    make_comment_file(over, ((size_t)64 << 20) + 1);
    assert_int_equal(wsel_state_load_extfile(st, "svc_a", over, &err), WSEL_E_LIMIT);
    assert_non_null(strstr(err.message, "67108864"));
    unlink(over);

}

/* Issue 14 item 12: freeing the state after its config reads no freed memory (checked
 * under ASan: make BUILD=build-san CC=clang SAN=1 check-unit). */
static void test_free_after_config(void **unused)
{
    (void)unused;
    wsel_config *cfg = wsel_test_load(two_svc);
    wsel_state *st = NULL;
    assert_int_equal(wsel_state_new(cfg, &st, NULL), WSEL_OK);
    wsel_config_free(cfg);
    wsel_state_free(st);
}

/* A test run on the two_svc fixture. */
#define WITH_TWO_SVC(t) cmocka_unit_test_setup_teardown(t, setup_two_svc, wsel_test_teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        WITH_TWO_SVC(test_defaults_and_combination),
        WITH_TWO_SVC(test_service_checks),
        WITH_TWO_SVC(test_canonical_keys),
        WITH_TWO_SVC(test_versions),
        WITH_TWO_SVC(test_extfile),
        WITH_TWO_SVC(test_extfile_without_entries),
        WITH_TWO_SVC(test_extfile_files),
        cmocka_unit_test(test_free_after_config),
    };
    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests_name("state", tests, NULL, NULL);
}
