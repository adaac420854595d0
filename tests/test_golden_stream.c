/* Committed golden answer stream (tests/data/golden/stream.txt).
 *
 * For every resource of examples/synopsis.conf under three monitoring patterns, 200
 * queries drawn from one fixed-seed default generator per (pattern, resource), each line
 * giving the answer and the running count of words consumed. The file was written by the
 * reference engine (`test_golden_stream --regen`); any change in an engine's answers or
 * in its word consumption (which shifts every later answer) fails here. Every available
 * engine is held to the same file.
 *
 *   build-ref/tests/test_golden_stream           compare (TAP)
 *   build-ref/tests/test_golden_stream --regen   rewrite the file from the ref engine */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "support/support.h"

#define GOLDEN "tests/data/golden/stream.txt"
#define QUERIES 200

typedef struct down {
    const char *svc, *key;
    bool up;
    uint32_t ttl;
} down;

static const struct {
    const char *name;
    down d[8];
} patterns[] = {
    { "all-up", { { NULL, NULL, false, 0 } } },
    { "some-down",
      { { "web_check", "192.0.2.1", false, 30 },
        { "web_check", "127.0.0.3", false, 40 },
        { "my_cn_check", "lb01.example.org.", false, 50 },
        { "foo", "192.0.2.2", true, 20 },
        { NULL, NULL, false, 0 } } },
    { "all-down",
      { { NULL, "192.0.2.1", false, 11 }, { NULL, "192.0.2.2", false, 12 },
        { NULL, "192.0.2.3", false, 13 }, { NULL, "192.0.2.4", false, 14 },
        { NULL, "127.0.0.1", false, 15 }, { NULL, "127.0.0.2", false, 16 },
        { NULL, "127.0.0.3", false, 17 }, { NULL, "lb01.example.org.", false, 18 } } },
};
#define N_PATTERNS (sizeof patterns / sizeof patterns[0])

typedef struct text {
    char *s;
    size_t len, cap;
} text;

static void put(text *t, const char *line)
{
    size_t n = strlen(line);
    if (t->len + n + 2 > t->cap) {
        t->cap = (t->cap + n + 2) * 2;
        t->s = realloc(t->s, t->cap);
        if (!t->s)
            abort();
    }
    memcpy(t->s + t->len, line, n);
    t->len += n;
    t->s[t->len++] = '\n';
    t->s[t->len] = '\0';
}

/* The stream as produced by the engine variant `engine` (a wsel_kit_variants name), or
 * by wsel_ref_resolve itself when NULL; returns false if it cannot run here. */
static bool generate(const char *engine, text *out)
{
    wsel_config *cfg = wsel_test_load_synopsis();
    put(out, "# wsel golden answer stream: examples/synopsis.conf, written by the ref engine");
    put(out, "# PATTERN RESOURCE QUERY WORDS-SO-FAR ANSWER(labels per set '|'-separated) FAILED TTL");
    bool ok = true;
    for (size_t p = 0; p < N_PATTERNS && ok; p++) {
        wsel_state *st = NULL;
        assert_int_equal(wsel_state_new(cfg, &st, NULL), WSEL_OK);
        if (p == 2) {
            /* everything the config monitors DOWN (the "all-down" list's keys only
             * carry distinct TTLs; the rest goes DOWN with the maximum) */
            wsel_test_random_state(st, cfg, 1, 2.0, false);
        }
        for (size_t i = 0; i < 8 && patterns[p].d[i].key; i++) {
            const down *d = &patterns[p].d[i];
            assert_int_equal(wsel_state_set(st, d->svc, d->key, d->up, d->ttl, NULL, NULL), 0);
        }
        wsel_resolver *rv = NULL;
        if (engine) {
            wsel_error err;
            if (wsel_kit_resolver_new(cfg, st, engine, &rv, &err) != WSEL_OK) {
                wsel_state_free(st);
                ok = false;
                break;
            }
            assert_int_equal(wsel_resolver_sync(rv), WSEL_OK);
        }
        for (size_t r = 0; r < wsel_config_resource_count(cfg); r++) {
            const wsel_resource *res = wsel_config_resource(cfg, r);
            wsel_prng prng;
            wsel_prng_seed(&prng, 0x601d0000u + 100 * p + r);
            wsel_kit_counter cnt;
            wsel_rng rng = wsel_kit_counting_rng(&cnt, wsel_prng_rng(&prng));
            for (unsigned q = 0; q < QUERIES; q++) {
                wsel_answer a;
                if (rv)
                    assert_int_equal(wsel_resolve(rv, res, &rng, &a), WSEL_OK);
                else
                    assert_int_equal(wsel_ref_resolve(res, st, &rng, &a), WSEL_OK);
                char ans[2048], line[2300];
                wsel_kit_format_answer(res, &a, ans, sizeof ans);
                snprintf(line, sizeof line, "%s %s %u %llu %s", patterns[p].name, res->name, q,
                         (unsigned long long)cnt.words, ans);
                put(out, line);
            }
        }
        wsel_resolver_free(rv);
        wsel_state_free(st);
    }
    wsel_config_free(cfg);
    return ok;
}

static char *read_golden(void)
{
    FILE *f = fopen(wsel_kit_srcpath(GOLDEN), "rb");
    if (!f)
        return NULL;
    text t = { 0 };
    char buf[4096];
    size_t n;
    t.cap = 1 << 16;
    t.s = malloc(t.cap);
    if (!t.s)
        abort();
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
        if (t.len + n + 1 > t.cap) {
            t.cap = (t.cap + n) * 2;
            t.s = realloc(t.s, t.cap);
            if (!t.s)
                abort();
        }
        memcpy(t.s + t.len, buf, n);
        t.len += n;
    }
    fclose(f);
    t.s[t.len] = '\0';
    return t.s;
}

static void compare_engine(const char *engine)
{
    char *golden = read_golden();
    if (!golden)
        fail_msg("cannot read %s (run from the source root or set WSEL_SRCDIR)", GOLDEN);
    text t = { 0 };
    if (!generate(engine, &t)) {
        free(golden);
        skip();
    }
    /* report the first differing line */
    const char *a = golden, *b = t.s;
    unsigned line = 1;
    while (*a && *a == *b) {
        if (*a == '\n')
            line++;
        a++;
        b++;
    }
    bool same = *a == *b;
    if (!same) {
        const char *ea = strchr(a, '\n'), *eb = strchr(b, '\n');
        while (a > golden && a[-1] != '\n')
            a--, b--;
        print_error("%s differs from %s at line %u:\n  golden: %.*s\n  got:    %.*s\n",
                    engine ? engine : "wsel_ref_resolve", GOLDEN, line,
                    (int)(ea ? ea - a : (long)strlen(a)), a,
                    (int)(eb ? eb - b : (long)strlen(b)), b);
    }
    free(golden);
    free(t.s);
    assert_true(same);
}

static void test_ref(void **u) { (void)u; compare_engine(NULL); }

/* Every engine variant this build and CPU run (the kit's list: ref, fast and each fast
 * variant). */
static void test_variants(void **u)
{
    (void)u;
    const char *names[WSEL_KIT_MAX_VARIANTS];
    size_t nv = wsel_kit_variants(names, WSEL_KIT_MAX_VARIANTS, true);
    assert_true(nv >= 3);
    for (size_t v = 0; v < nv; v++)
        compare_engine(names[v]);
}

static void regen_test(void **u)
{
    (void)u;
    text t = { 0 };
    assert_true(generate(NULL, &t));
    const char *path = wsel_kit_srcpath(GOLDEN);
    FILE *f = fopen(path, "wb");
    if (!f)
        fail_msg("cannot write %s", path);
    assert_int_equal(fwrite(t.s, 1, t.len, f), t.len);
    assert_int_equal(fclose(f), 0);
    free(t.s);
}

int main(int argc, char **argv)
{
    cmocka_set_message_output(CM_OUTPUT_TAP);
    if (argc > 1 && strcmp(argv[1], "--regen") == 0) {
        const struct CMUnitTest regen[] = { cmocka_unit_test(regen_test) };
        return cmocka_run_group_tests_name("golden-regen", regen, NULL, NULL);
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ref),
        cmocka_unit_test(test_variants),
    };
    return cmocka_run_group_tests_name("golden-stream", tests, NULL, NULL);
}
