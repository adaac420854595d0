/* The API's edges, as the headers describe them: bad arguments (WSEL_E_ARG), names of
 * every enum value and of values out of range (never NULL), wsel_error_format on short
 * buffers, wsel_answer_equal field by field, extfile and state errors, and the choice
 * of fast variant (wsel_fast_force, and WSEL_FAST_KERNEL read once per process, tried
 * in child processes). Expectations come from the public headers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "wsel.h"

static const char whole_text[] =
    "service_types => { web => { plugin => extfile, file => web } }\n"
    "plugins => { weighted => {\n"
    "  service_types => web\n"
    "  a => { x => [ 192.0.2.1, 1 ], y => [ 192.0.2.2, 2 ] }\n"
    "  c => { x => [ one.example.com., 1 ] }\n"
    "} }\n";

static wsel_config *load_whole(void)
{
    wsel_config *cfg = NULL;
    wsel_error err;
    assert_int_equal(wsel_config_load_buffer("api.conf", whole_text, sizeof whole_text - 1, NULL,
                                             &cfg, &err), WSEL_OK);
    return cfg;
}

/* The whole config in *cfg, and a fresh state over it. */
static wsel_state *whole_state(wsel_config **cfg)
{
    *cfg = load_whole();
    wsel_state *st = NULL;
    assert_int_equal(wsel_state_new(*cfg, &st, NULL), WSEL_OK);
    return st;
}

static void test_names(void **state)
{
    (void)state;
    for (int c = 0; c <= WSEL_STATUS_COUNT_ + 1; c++) {
        assert_non_null(wsel_strerror(c));
        assert_true(wsel_strerror(c)[0] != '\0');
    }
    assert_non_null(wsel_strerror(-1));
    /* Every real code has its own text. */
    for (int c = 0; c < WSEL_STATUS_COUNT_; c++)
        for (int d = c + 1; d < WSEL_STATUS_COUNT_; d++)
            assert_string_not_equal(wsel_strerror(c), wsel_strerror(d));

    assert_string_equal(wsel_mode_name(WSEL_MODE_UNGROUPED_SINGLE), "ungrouped-single");
    assert_string_equal(wsel_mode_name(WSEL_MODE_CNAME), "cname");
    assert_non_null(wsel_mode_name((wsel_mode)99));
    assert_string_equal(wsel_level_name(WSEL_LEVEL_STANZA), "stanza");
    assert_non_null(wsel_level_name((wsel_level)99));

    assert_string_equal(wsel_engine_name(WSEL_ENGINE_REF), "ref");
    assert_string_equal(wsel_engine_name(WSEL_ENGINE_FAST), "fast");
    assert_string_equal(wsel_engine_name((wsel_engine_id)99), "unknown");
    static const char *const variants[] = { "ref", "fast-scalar", "fast-sse2", "fast-avx2" };
    assert_int_equal(wsel_variant_count(), 4);
    for (size_t e = 0; e < 4; e++)
        assert_string_equal(wsel_variant_name(e), variants[e]);
    assert_null(wsel_variant_name(4));
    assert_false(wsel_variant_available("fast-avx512"));
    assert_false(wsel_variant_available(""));
    assert_true(wsel_variant_available("ref"));
    assert_true(wsel_variant_available("fast"));
    assert_true(wsel_variant_available("fast-scalar"));
}

static void test_error_format(void **state)
{
    (void)state;
    wsel_error err;
    wsel_error_clear(&err);
    assert_int_equal(err.code, 0);
    assert_int_equal(err.line, 0);
    strcpy(err.file, "f.conf");
    err.line = 3;
    err.col = 7;
    strcpy(err.message, "expected something");
    char buf[128];
    assert_ptr_equal(wsel_error_format(&err, buf, sizeof buf), buf);
    assert_string_equal(buf, "f.conf:3:7: expected something");
    /* Parts that are empty or 0 are left out. */
    err.col = 0;
    wsel_error_format(&err, buf, sizeof buf);
    assert_string_equal(buf, "f.conf:3: expected something");
    err.line = 0;
    err.col = 0;
    wsel_error_format(&err, buf, sizeof buf);
    assert_string_equal(buf, "f.conf: expected something");
    err.file[0] = '\0';
    wsel_error_format(&err, buf, sizeof buf);
    assert_string_equal(buf, "expected something");
    /* A short buffer gets a terminated prefix. */
    char small[5];
    memset(small, 'x', sizeof small);
    wsel_error_format(&err, small, sizeof small);
    assert_int_equal(strlen(small), 4);
    assert_memory_equal(small, "expe", 4);
}

static void test_bad_args(void **state)
{
    (void)state;
    wsel_error err;
    wsel_config *cfg = NULL;
    assert_int_equal(wsel_config_load_buffer("x", "a => { x => [ 192.0.2.1, 1 ] }", 30, NULL,
                                             NULL, &err), WSEL_E_ARG);
    assert_int_equal(wsel_config_load_file(NULL, NULL, &cfg, &err), WSEL_E_ARG);
    assert_null(cfg);
    assert_int_equal(wsel_config_load_file("/nonexistent/wsel.conf", NULL, &cfg, &err), WSEL_E_IO);
    assert_null(cfg);
    assert_true(err.message[0] != '\0');

    cfg = load_whole();
    wsel_state *st = NULL;
    assert_int_equal(wsel_state_new(NULL, &st, &err), WSEL_E_ARG);
    assert_int_equal(wsel_state_new(cfg, NULL, &err), WSEL_E_ARG);
    assert_int_equal(wsel_state_new(cfg, &st, &err), WSEL_OK);
    assert_int_equal(wsel_state_set(NULL, "web", "192.0.2.1", false, 1, NULL, &err), WSEL_E_ARG);
    assert_int_equal(wsel_state_set(st, "web", NULL, false, 1, NULL, &err), WSEL_E_ARG);
    assert_int_equal(wsel_state_load_extfile_buffer(NULL, "web", "x", "", 0, &err), WSEL_E_ARG);
    assert_int_equal(wsel_state_load_extfile(st, "web", NULL, &err), WSEL_E_ARG);
    assert_int_equal(wsel_state_load_extfile(st, "web", "/nonexistent/state", &err), WSEL_E_IO);

    const wsel_resource *a = wsel_config_find(cfg, "a");
    assert_non_null(a);
    assert_null(wsel_config_find(cfg, "nope"));
    wsel_prng g;
    wsel_prng_seed(&g, 1);
    wsel_rng rng = wsel_prng_rng(&g);
    wsel_answer ans;
    assert_int_equal(wsel_ref_resolve(NULL, st, &rng, &ans), WSEL_E_ARG);
    assert_int_equal(wsel_ref_resolve(a, st, NULL, &ans), WSEL_E_ARG);
    assert_int_equal(wsel_ref_resolve(a, st, &rng, NULL), WSEL_E_ARG);
    wsel_resolver *rv = NULL;
    assert_int_equal(wsel_resolver_new(NULL, st, WSEL_ENGINE_FAST, &rv, &err), WSEL_E_ARG);
    assert_int_equal(wsel_resolver_new(cfg, NULL, WSEL_ENGINE_FAST, &rv, &err), WSEL_E_ARG);
    assert_int_equal(wsel_resolver_new(cfg, st, WSEL_ENGINE_FAST, NULL, &err), WSEL_E_ARG);
    wsel_odds *o = NULL;
    assert_int_equal(wsel_odds_compute(NULL, st, &o, &err), WSEL_E_ARG);
    assert_int_equal(wsel_odds_compute(a, st, NULL, &err), WSEL_E_ARG);
    bool dep = false;
    assert_int_equal(wsel_config_check_record(cfg, "nope", WSEL_RR_DYNA, "example.com.", &dep, &err),
                     WSEL_E_NORESOURCE);
    assert_int_equal(wsel_config_check_record(cfg, "a", WSEL_RR_DYNC, "example.com.", &dep, &err),
                     WSEL_OK);
    assert_true(dep);
    /* CNAME one.example.com. points into the zone holding the DYNC. */
    assert_int_equal(wsel_config_check_record(cfg, "c", WSEL_RR_DYNC, "example.com", &dep, &err),
                     WSEL_E_RECORD);
    assert_int_equal(wsel_config_check_record(cfg, "c", WSEL_RR_DYNC, "example.net.", &dep, &err),
                     WSEL_OK);
    assert_int_equal(wsel_config_check_record(cfg, "c", WSEL_RR_DYNA, "example.net.", &dep, &err),
                     WSEL_E_RECORD);
    wsel_state_free(st);
    wsel_config_free(cfg);
    /* Freeing nothing is harmless. */
    wsel_config_free(NULL);
    wsel_state_free(NULL);
    wsel_resolver_free(NULL);
    wsel_odds_free(NULL);
}

/* A fixture of whole_state(): the config and its fresh state. */
typedef struct whole_fixture {
    wsel_config *cfg;
    wsel_state *st;
} whole_fixture;

static int setup_whole(void **state)
{
    static whole_fixture f;
    f.st = whole_state(&f.cfg);
    *state = &f;
    return 0;
}

static int teardown_whole(void **state)
{
    whole_fixture *f = *state;
    wsel_state_free(f->st);
    wsel_config_free(f->cfg);
    return 0;
}

/* Every weighted call given a NULL handle (or a NULL required pointer) answers as
 * include/wsel/common.h says -- WSEL_E_ARG, 0, NULL, false, or nothing -- and never
 * crashes. */
static void test_null_handles(void **state)
{
    const whole_fixture *f = *state;
    wsel_config *cfg = f->cfg;
    wsel_state *st = f->st;
    wsel_error err;
    const wsel_resource *a = wsel_config_find(cfg, "a");
    const wsel_set *set = &a->sets[0];
    size_t matched = 7;
    /* config */
    assert_int_equal(wsel_config_load_file("api.conf", NULL, NULL, &err), WSEL_E_ARG);
    assert_int_equal(wsel_config_load_buffer("x", NULL, 0, NULL, NULL, NULL), WSEL_E_ARG);
    assert_int_equal(wsel_config_resource_count(NULL), 0);
    assert_null(wsel_config_resource(NULL, 0));
    assert_null(wsel_config_find(NULL, "a"));
    assert_null(wsel_config_find(cfg, NULL));
    assert_int_equal(wsel_config_set_count(NULL), 0);
    assert_null(wsel_config_set(NULL, 0));
    assert_false(wsel_config_is_whole(NULL));
    assert_false(wsel_config_top_multi(NULL));
    assert_true(wsel_config_top_up_thresh(NULL) == 0.0);
    assert_int_equal(wsel_config_warning_count(NULL), 0);
    assert_null(wsel_config_warning(NULL, 0));
    assert_null(wsel_config_key_hint(NULL));
    assert_int_equal(wsel_config_check_record(NULL, "a", WSEL_RR_DYNA, "example.com.", NULL,
                                              &err), WSEL_E_ARG);
    assert_int_equal(wsel_config_check_record(cfg, NULL, WSEL_RR_DYNA, "example.com.", NULL,
                                              &err), WSEL_E_ARG);
    /* state */
    assert_int_equal(wsel_state_set(NULL, NULL, "192.0.2.1", true, 1, &matched, &err),
                     WSEL_E_ARG);
    assert_int_equal(wsel_state_load_extfile(NULL, "web", "api.state", &err), WSEL_E_ARG);
    assert_int_equal(wsel_state_load_extfile(st, "web", NULL, &err), WSEL_E_ARG);
    assert_int_equal(wsel_state_load_extfile_buffer(NULL, "web", "x", "", 0, &err), WSEL_E_ARG);
    assert_int_equal(wsel_state_load_extfile_buffer(st, "web", "x", NULL, 3, &err), WSEL_E_ARG);
    wsel_mstate m = wsel_state_get(NULL, "web", "192.0.2.1");
    assert_true(m.up && m.ttl == WSEL_MAX_TTL);
    m = wsel_state_get(st, "web", NULL);
    assert_true(m.up && m.ttl == WSEL_MAX_TTL);
    m = wsel_state_item(st, NULL, &set->items[0]);
    assert_true(m.up && m.ttl == WSEL_MAX_TTL);
    m = wsel_state_item(st, set, NULL);
    assert_true(m.up && m.ttl == WSEL_MAX_TTL);
    assert_int_equal(wsel_state_set_version(NULL, set), 0);
    assert_int_equal(wsel_state_set_version(st, NULL), 0);
    assert_null(wsel_state_config(NULL));
    wsel_state_set_warn(NULL, NULL, NULL);
    assert_int_equal(wsel_state_force(NULL, "*/web", false, false, 0, &matched, &err),
                     WSEL_E_ARG);
    assert_int_equal(wsel_state_force(st, NULL, false, false, 0, &matched, &err), WSEL_E_ARG);
    assert_int_equal(wsel_state_unforce(NULL, "*/web", &matched, &err), WSEL_E_ARG);
    assert_int_equal(wsel_state_unforce(st, NULL, &matched, &err), WSEL_E_ARG);
    wsel_state_clear_forced(NULL);
    assert_int_equal(wsel_state_load_admin(NULL, "admin", &err), WSEL_E_ARG);
    assert_int_equal(wsel_state_load_admin(st, NULL, &err), WSEL_E_ARG);
    assert_int_equal(wsel_state_load_admin_buffer(NULL, "x", "", 0, &err), WSEL_E_ARG);
    assert_int_equal(wsel_state_load_admin_buffer(st, "x", NULL, 3, &err), WSEL_E_ARG);
    assert_int_equal(wsel_state_pair_count(NULL), 0);
    wsel_pair_info pi;
    assert_false(wsel_state_pair(NULL, 0, &pi));
    assert_false(wsel_state_pair(st, 0, NULL));
    /* words, answers, engines */
    assert_int_equal(wsel_set_words(NULL), 0);
    assert_int_equal(wsel_resource_words(NULL), 0);
    wsel_answer ans;
    memset(&ans, 0, sizeof ans);
    assert_false(wsel_answer_equal(NULL, &ans));
    assert_false(wsel_answer_equal(&ans, NULL));
    assert_int_equal(wsel_variant_check(NULL), WSEL_E_ARG);
    assert_false(wsel_variant_available(NULL));
    assert_int_equal(wsel_resolver_new_variant(cfg, st, NULL, NULL, &err), WSEL_E_ARG);
    assert_int_equal(wsel_resolver_new_for(cfg, st, "ref", NULL, NULL, &err), WSEL_E_ARG);
    wsel_resolver *rv = NULL;
    assert_int_equal(wsel_resolver_new_for(cfg, st, "ref", NULL, &rv, &err), WSEL_E_ARG);
    assert_null(rv);
    assert_int_equal(wsel_resolver_sync(NULL), WSEL_E_ARG);
    assert_int_equal(wsel_resolver_reclaim(NULL), 0);
    assert_int_equal(wsel_resolver_engine(NULL), WSEL_ENGINE_REF);
    assert_null(wsel_resolver_variant(NULL));
    /* the default generator */
    wsel_prng_seed(NULL, 1);
    assert_int_equal(wsel_prng_next(NULL), 0);
    uint64_t w[4] = { 1, 2, 3, 4 };
    wsel_prng_fill(NULL, w, 4);
    assert_int_equal(w[0], 1);
    wsel_prng g;
    wsel_prng_seed(&g, 1);
    wsel_prng_fill(&g, NULL, 0);
    wsel_rng none = wsel_prng_rng(NULL);
    assert_null(none.fill);
    assert_int_equal(wsel_resolve(NULL, a, &none, &ans), WSEL_E_ARG);
    assert_int_equal(wsel_ref_resolve(a, st, &none, &ans), WSEL_E_ARG);
    wsel_odds *o = NULL;
    assert_int_equal(wsel_odds_compute(NULL, NULL, &o, NULL), WSEL_E_ARG);
    assert_null(o);
}

/* wsel_variant_check: the answer wsel_resolver_new_variant gives for a name. */
static void test_variant_check(void **state)
{
    const whole_fixture *f = *state;
    const char *names[] = { "fast", "bogus", "fast-", "", NULL };
    for (size_t i = 0; i < wsel_variant_count() + 5; i++) {
        const char *v = i < wsel_variant_count() ? wsel_variant_name(i)
                                                 : names[i - wsel_variant_count()];
        int want = i < wsel_variant_count() ? (wsel_variant_available(v) ? WSEL_OK
                                                                          : WSEL_E_UNSUPPORTED)
                   : v && strcmp(v, "fast") == 0 ? WSEL_OK : WSEL_E_ARG;
        assert_int_equal(wsel_variant_check(v), want);
        wsel_resolver *rv = NULL;
        assert_int_equal(wsel_resolver_new_variant(f->cfg, f->st, v, &rv, NULL), want);
        wsel_resolver_free(rv);
    }
}

static void test_state_errors(void **state)
{
    (void)state;
    wsel_config *cfg;
    wsel_state *st = whole_state(&cfg);
    wsel_error err;
    assert_int_equal(wsel_state_set(st, "web", "192.0.2.1", false, WSEL_MAX_TTL + 1, NULL, &err),
                     WSEL_E_STATE);
    assert_int_equal(wsel_state_set(st, "up", "192.0.2.1", false, 1, NULL, &err), WSEL_E_STATE);
    assert_int_equal(wsel_state_set(st, "down", "192.0.2.1", true, 1, NULL, &err), WSEL_E_STATE);
    assert_int_equal(wsel_state_set(st, "undefined_type", "192.0.2.1", true, 1, NULL, &err),
                     WSEL_E_STATE);
    size_t matched = 99;
    assert_int_equal(wsel_state_set(st, NULL, "192.0.2.2", false, 4, &matched, &err), WSEL_OK);
    assert_int_equal(matched, 1);
    wsel_mstate ms = wsel_state_get(st, "web", "192.0.2.2");
    assert_false(ms.up);
    assert_int_equal(ms.ttl, 4);
    ms = wsel_state_get(st, "down", "192.0.2.2");
    assert_false(ms.up);
    ms = wsel_state_get(st, "up", "192.0.2.2");
    assert_true(ms.up);

    /* Extfile errors carry the line; nothing is applied. */
    char longkey[400];
    memset(longkey, 'a', sizeof longkey);
    longkey[sizeof longkey - 1] = '\0';
    char text[1024];
    static const char *const fmts[] = { "%s => UP\n", "\"%s\" => UP\n" };
    for (size_t f = 0; f < 2; f++) {
        snprintf(text, sizeof text, fmts[f], longkey);
        char full[1100];
        snprintf(full, sizeof full, "192.0.2.1 => DOWN\n%s", text);
        assert_int_equal(wsel_state_load_extfile_buffer(st, "web", "long", full, strlen(full),
                                                        &err), WSEL_E_STATE);
        assert_int_equal(err.line, 2);
        assert_true(wsel_state_get(st, "web", "192.0.2.1").up);
    }
    static const char *const bad[] = {
        "\"192.0.2.1 => UP\n",        /* unterminated quote */
        " => UP\n",                    /* no key */
        "192.0.2.1 UP\n",              /* no => */
        "192.0.2.1 => SIDEWAYS\n",     /* no state */
        "192.0.2.1 => UP/\n",          /* no TTL digits */
        "192.0.2.1 => UP/268435456\n", /* TTL past the limit */
        "192.0.2.1 => UP trailing\n",  /* text after the state */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char full[128];
        snprintf(full, sizeof full, "# header\n%s", bad[i]);
        err.line = 0;
        assert_int_equal(wsel_state_load_extfile_buffer(st, "web", NULL, full, strlen(full), &err),
                         WSEL_E_STATE);
        assert_int_equal(err.line, 2);
        assert_true(err.message[0] != '\0');
    }
    /* A file that is read from disk, and one too big to be a state file is not
     * tested here (64 MiB). */
    char path[] = "/tmp/wsel-api-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    const char good[] = "192.0.2.1 => DOWN/7\n";
    assert_int_equal(write(fd, good, sizeof good - 1), (ssize_t)(sizeof good - 1));
    close(fd);
    assert_int_equal(wsel_state_load_extfile(st, "web", path, &err), WSEL_OK);
    unlink(path);
    ms = wsel_state_get(st, "web", "192.0.2.1");
    assert_false(ms.up);
    assert_int_equal(ms.ttl, 7);
    wsel_state_free(st);
    wsel_config_free(cfg);
}

static void test_answer_equal(void **state)
{
    (void)state;
    wsel_answer a, b;
    memset(&a, 0, sizeof a);
    a.n_sets = 2;
    a.ttl = 30;
    a.failed = true;
    a.set[0].ttl = 30;
    a.set[0].count = 2;
    a.set[0].items[0] = 1;
    a.set[0].items[1] = 3;
    a.set[1].ttl = 40;
    a.set[1].failed = true;
    a.set[1].count = 1;
    a.set[1].items[0] = 0;
    b = a;
    assert_true(wsel_answer_equal(&a, &b));
    /* Items past count have no meaning. */
    b.set[0].items[5] = 9;
    assert_true(wsel_answer_equal(&a, &b));

#define DIFFERS(field, value)           \
    do {                                \
        b = a;                          \
        b.field = value;                \
        assert_false(wsel_answer_equal(&a, &b)); \
        assert_false(wsel_answer_equal(&b, &a)); \
    } while (0)
    DIFFERS(n_sets, 1);
    DIFFERS(ttl, 31);
    DIFFERS(failed, false);
    DIFFERS(set[0].ttl, 29);
    DIFFERS(set[0].failed, true);
    DIFFERS(set[0].count, 1);
    DIFFERS(set[0].items[1], 2);
    DIFFERS(set[1].ttl, 0);
    DIFFERS(set[1].failed, false);
    DIFFERS(set[1].items[0], 1);
#undef DIFFERS
    /* With one set, the second has no meaning. */
    a.n_sets = 1;
    b = a;
    b.set[1].count = 7;
    assert_true(wsel_answer_equal(&a, &b));
}

static void test_fast_force(void **state)
{
    (void)state;
    wsel_config *cfg;
    wsel_state *st = whole_state(&cfg);
    wsel_error err;
    const char *auto_id = wsel_fast_selected();
    assert_true(wsel_variant_available(auto_id));
    assert_true(strncmp(auto_id, "fast-", 5) == 0);
    for (size_t i = 0; i < wsel_variant_count(); i++) {
        const char *e = wsel_variant_name(i);
        if (strcmp(e, "ref") == 0)
            continue;
        if (!wsel_variant_available(e)) {
            assert_int_equal(wsel_fast_force(e), WSEL_E_UNSUPPORTED);
            continue;
        }
        assert_int_equal(wsel_fast_force(e), WSEL_OK);
        assert_string_equal(wsel_fast_selected(), e);
        wsel_resolver *rv = NULL;
        assert_int_equal(wsel_resolver_new(cfg, st, WSEL_ENGINE_FAST, &rv, &err), WSEL_OK);
        assert_string_equal(wsel_resolver_variant(rv), e);
        wsel_resolver_free(rv);
    }
    assert_int_equal(wsel_fast_force("fast"), WSEL_OK);
    assert_string_equal(wsel_fast_selected(), auto_id);
    assert_int_not_equal(wsel_fast_force("ref"), WSEL_OK);
    assert_int_not_equal(wsel_fast_force("fast-avx512"), WSEL_OK);
    assert_string_equal(wsel_fast_selected(), auto_id);
    wsel_state_free(st);
    wsel_config_free(cfg);
}

static const char *self_path;

/* In a fresh process (the variable is read once), WSEL_FAST_KERNEL picks the variant
 * when available; anything else leaves the automatic choice. */
static int selected_in_child(const char *value)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        if (value)
            setenv("WSEL_FAST_KERNEL", value, 1);
        else
            unsetenv("WSEL_FAST_KERNEL");
        execl(self_path, self_path, "--print-selected", (char *)NULL);
        _exit(127);
    }
    int status;
    assert_true(waitpid(pid, &status, 0) == pid);
    assert_true(WIFEXITED(status));
    return WEXITSTATUS(status);
}

/* Index of a variant name in wsel_variant_name() order, -1 if none. */
static int variant_index(const char *name)
{
    for (size_t i = 0; i < wsel_variant_count(); i++)
        if (strcmp(wsel_variant_name(i), name) == 0)
            return (int)i;
    return -1;
}

static void test_fast_env(void **state)
{
    (void)state;
    int auto_id = selected_in_child(NULL);
    assert_true(auto_id >= 1 && (size_t)auto_id < wsel_variant_count());
    static const char *const names[] = { "scalar", "sse2", "avx2" };
    for (int i = 0; i < 3; i++) {
        int got = selected_in_child(names[i]);
        char v[32];
        snprintf(v, sizeof v, "fast-%s", names[i]);
        assert_int_equal(got, wsel_variant_available(v) ? variant_index(v) : auto_id);
    }
    assert_int_equal(selected_in_child("avx512"), auto_id);
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--print-selected") == 0)
        return variant_index(wsel_fast_selected());
    self_path = argv[0];
    cmocka_set_message_output(CM_OUTPUT_TAP);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_error_format),
        cmocka_unit_test(test_bad_args),
        cmocka_unit_test_setup_teardown(test_null_handles, setup_whole, teardown_whole),
        cmocka_unit_test_setup_teardown(test_variant_check, setup_whole, teardown_whole),
        cmocka_unit_test(test_state_errors),
        cmocka_unit_test(test_answer_equal),
        cmocka_unit_test(test_fast_force),
        cmocka_unit_test(test_fast_env),
    };
    return cmocka_run_group_tests_name("coverage_api", tests, NULL, NULL);
}
