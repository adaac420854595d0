/* The loader against hostile input (issue 14): bounded memory (item 9), bounded stack
 * (item 10) and messages that say what happened (item 12).
 *
 * Expected counts and positions are worked out by hand from each test's own input; the
 * stack budget is the one doc/weighted.md §2.9 documents. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "../core/weighted/weighted_tree.h"
#include "support/support.h"

/* doc/weighted.md §2.9: a load at the caps fits in 256 KiB of stack in an optimised
 * build. Unoptimised and sanitizer builds use bigger frames; they get more room. */
#define STACK_BUDGET ((size_t)256 << 10)
#if defined(__SANITIZE_ADDRESS__) || !defined(__OPTIMIZE__)
#define STACK_SCALE 16
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define STACK_SCALE 16
#endif
#endif
#ifndef STACK_SCALE
#define STACK_SCALE 1
#endif

static const wsel_input STANZA = WSEL_INPUT_STANZA;

/* Loads `text` (named "t") with the options o; *cfg is NULL unless it loads. */
static int load_text(const char *text, wsel_load_opts o, wsel_config **cfg, wsel_error *err)
{
    *cfg = NULL;
    return wsel_config_load_buffer("t", text, strlen(text), &o, cfg, err);
}

/* ---- a scratch directory ---------------------------------------------------------- */

static char root[64];

static void scratch_init(void)
{
    snprintf(root, sizeof root, "/tmp/wsel-hard-XXXXXX");
    assert_non_null(mkdtemp(root));
}

static void scratch_done(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    assert_int_equal(system(cmd), 0);
}

static void put_file(const char *rel, const char *text)
{
    char p[256];
    snprintf(p, sizeof p, "%s/%s", root, rel);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

static const char *path_of(const char *rel)
{
    static char p[256];
    snprintf(p, sizeof p, "%s/%s", root, rel);
    return p;
}

/* ---- item 9: the whole load is bounded ---------------------------------------------- */

static void t_node_is_small(void **state)
{
    (void)state;
    /* Position (16 bytes), one pointer, a 32-bit length and the type. */
    assert_true(sizeof(wsel__node) <= 32);
}

static void t_node_limit(void **state)
{
    (void)state;
    /* Values: the top-level hash, r's hash, a's array and its two strings: 5. */
    static const char text[] = "r => { a => [ 192.0.2.1, 1 ] }\n";
    wsel_load_opts o = { .input = STANZA, .max_nodes = 5 };
    wsel_config *cfg;
    wsel_error err;
    assert_int_equal(load_text(text, o, &cfg, &err), WSEL_OK);
    wsel_config_free(cfg);
    o.max_nodes = 4;
    assert_int_equal(load_text(text, o, &cfg, &err), WSEL_E_LIMIT);
    assert_null(cfg);
    /* The fifth value is the string "1" at column 26. */
    assert_int_equal(err.line, 1);
    assert_int_equal(err.col, 26);
    assert_non_null(strstr(err.message, "limit of 4 values"));
}

/* The default limit is 8 Mi (8388608) values (include/wsel/config.h, doc/weighted.md
 * section 2.9, the man page's LIMITS). One array of 8388606 strings makes 8388609 values
 * with the top hash, r's hash and the array: the last string is one too many. The text is
 * 16 MiB and a bit, so the file-size limit is raised; the node limit keeps its default. */
static void t_node_limit_default(void **state)
{
    (void)state;
    static const char head[] = "r => { a => [", tail[] = "1 ] }\n";
    const size_t strings = 8388606, hl = sizeof head - 1, tl = sizeof tail - 1;
    size_t len = hl + 2 * (strings - 1) + tl;
    char *text = malloc(len + 1);
    assert_non_null(text);
    memcpy(text, head, hl);
    for (size_t i = 0; i < strings - 1; i++)
        memcpy(text + hl + 2 * i, "1,", 2);
    memcpy(text + len - tl, tail, tl + 1);
    wsel_load_opts o = { .input = STANZA, .max_file_size = (size_t)32 << 20 };
    wsel_config *cfg = NULL;
    wsel_error err;
    int rc = wsel_config_load_buffer("big", text, len, &o, &cfg, &err);
    free(text);
    assert_int_equal(rc, WSEL_E_LIMIT);
    assert_null(cfg);
    assert_non_null(strstr(err.message, "limit of 8388608 values"));
    /* string j (from 1) starts at column hl + 1 + 2 (j - 1) */
    assert_int_equal(err.line, 1);
    assert_int_equal(err.col, hl + 1 + 2 * (strings - 1));
}

static void t_node_limit_counts_includes(void **state)
{
    (void)state;
    scratch_init();
    /* main: top hash, r's hash (2); inc.conf, merged into r: a's array and 2 strings (3);
     * b.conf as a value: its own hash, b's array and 2 strings (4). 9 in all. */
    put_file("main.conf", "r => { $include{inc.conf} }\ns => { c => $include{b.conf} }\n");
    put_file("inc.conf", "a => [ 192.0.2.1, 1 ]\n");
    put_file("b.conf", "b => [ 192.0.2.2, 1 ]\n");
    wsel_load_opts o = { .input = STANZA, .max_nodes = 10 };
    wsel_config *cfg = NULL;
    wsel_error err;
    int rc = wsel_config_load_file(path_of("main.conf"), &o, &cfg, &err);
    /* 10 values (s's hash too) pass the parse; the model refuses c's shape later. */
    assert_int_not_equal(rc, WSEL_E_LIMIT);
    wsel_config_free(cfg);
    o.max_nodes = 9;
    rc = wsel_config_load_file(path_of("main.conf"), &o, &cfg, &err);
    assert_int_equal(rc, WSEL_E_LIMIT);
    /* The tenth value is b.conf's last string. */
    assert_non_null(strstr(err.file, "b.conf"));
    assert_int_equal(err.line, 1);
    assert_int_equal(err.col, 19);
    scratch_done();
}

static void t_total_size_limit(void **state)
{
    (void)state;
    scratch_init();
    static const char main_text[] = "r => {\n $include{a.inc}\n $include{b.inc}\n}\n";
    static const char a_text[] = "a => [ 192.0.2.1, 1 ]\n";
    static const char b_text[] = "b => [ 192.0.2.2, 1 ]\n";
    put_file("main.conf", main_text);
    put_file("a.inc", a_text);
    put_file("b.inc", b_text);
    size_t total = strlen(main_text) + strlen(a_text) + strlen(b_text);
    wsel_load_opts o = { .input = STANZA, .max_total_size = total };
    wsel_config *cfg = NULL;
    wsel_error err;
    assert_int_equal(wsel_config_load_file(path_of("main.conf"), &o, &cfg, &err), WSEL_OK);
    wsel_config_free(cfg);
    o.max_total_size = total - 1;
    int rc = wsel_config_load_file(path_of("main.conf"), &o, &cfg, &err);
    assert_int_equal(rc, WSEL_E_LIMIT);
    /* Reported at the include that crosses the limit: the second one. */
    assert_int_equal(err.line, 3);
    assert_int_equal(err.col, 2);
    assert_non_null(strstr(err.message, "in total"));
    /* Every file is within the per-file limit; only the sum is over. */
    o.max_file_size = strlen(main_text);
    o.max_total_size = 0;
    assert_int_equal(wsel_config_load_file(path_of("main.conf"), &o, &cfg, &err), WSEL_OK);
    wsel_config_free(cfg);
    scratch_done();
}

/* ---- item 10: the stack ------------------------------------------------------------- */

typedef struct job {
    const char *path;       /* load this file, or */
    const char *text;       /* this buffer */
    int rc;
    wsel_error err;
} job;

static void *load_job(void *arg)
{
    job *j = arg;
    /* A huge max_depth: the loader's own cap decides. */
    wsel_load_opts o = { .input = STANZA, .max_depth = 1000000000u };
    wsel_config *cfg = NULL;
    j->rc = j->path ? wsel_config_load_file(j->path, &o, &cfg, &j->err)
                    : wsel_config_load_buffer("t", j->text, strlen(j->text), &o, &cfg,
                                              &j->err);
    wsel_config_free(cfg);
    return NULL;
}

/* Runs the load on a thread whose whole stack is the budget. */
static void run_small_stack(job *j)
{
    pthread_attr_t at;
    pthread_t t;
    assert_int_equal(pthread_attr_init(&at), 0);
    assert_int_equal(pthread_attr_setstacksize(&at, STACK_BUDGET * STACK_SCALE), 0);
    assert_int_equal(pthread_create(&t, &at, load_job, j), 0);
    assert_int_equal(pthread_join(t, NULL), 0);
    pthread_attr_destroy(&at);
}

/* `levels` nested hashes or arrays under key r: the top-level hash is depth 1. */
static char *nested(unsigned levels, bool arrays)
{
    char *s = malloc(8 + 6 * (size_t)levels);
    assert_non_null(s);
    size_t n = (size_t)sprintf(s, "r => ");
    for (unsigned i = 0; i < levels; i++)
        n += (size_t)sprintf(s + n, arrays ? "[" : "{ a=>");
    if (!arrays)
        n += (size_t)sprintf(s + n, "1");
    for (unsigned i = 0; i < levels; i++)
        s[n++] = arrays ? ']' : '}';
    s[n] = '\0';
    return s;
}

static void t_stack_nesting(void **state)
{
    (void)state;
    for (int arrays = 0; arrays < 2; arrays++) {
        /* depth 1 (top) + 255 levels = 256, the cap: parsed (the model then refuses). */
        char *text = nested(255, arrays);
        job j = { .text = text };
        run_small_stack(&j);
        assert_int_not_equal(j.rc, WSEL_E_LIMIT);
        free(text);
        /* Deeper than the cap, however deep: refused at the cap, on the small stack. */
        unsigned over[] = { 5000, 1100, 256 };
        for (size_t k = 0; k < sizeof over / sizeof over[0]; k++) {
            text = nested(over[k], arrays);
            j = (job){ .text = text };
            run_small_stack(&j);
            assert_int_equal(j.rc, WSEL_E_LIMIT);
            assert_non_null(strstr(j.err.message, "limit of 256"));
            free(text);
        }
    }
}

static void t_stack_include_chain(void **state)
{
    (void)state;
    scratch_init();
    /* The deepest chain accepted (the top file + 127 includes), each in value position so
     * every file also adds a level of nesting, and the last file nested to the cap. */
    char name[32], body[64];
    for (int i = 0; i < 127; i++) {
        snprintf(name, sizeof name, "n%03d.conf", i);
        snprintf(body, sizeof body, "k => $include{n%03d.conf}\n", i + 1);
        put_file(name, body);
    }
    /* n127.conf's own hash is depth 128; r's value adds 128 levels: 256. */
    char *deep = nested(128, false);
    put_file("n127.conf", deep);
    free(deep);
    char top[256];
    snprintf(top, sizeof top, "%s", path_of("n000.conf"));
    job j = { .path = top };
    run_small_stack(&j);
    /* Parsed to the end: only the model's verdict remains (not a limit). */
    assert_int_not_equal(j.rc, WSEL_E_LIMIT);
    assert_int_not_equal(j.rc, WSEL_E_SYNTAX);
    /* One more level in the last file crosses the depth cap, cleanly. */
    deep = nested(129, false);
    put_file("n127.conf", deep);
    free(deep);
    j = (job){ .path = top };
    run_small_stack(&j);
    assert_int_equal(j.rc, WSEL_E_LIMIT);
    scratch_done();
}

/* ---- item 12: messages ------------------------------------------------------------- */

static void t_double_assign_message(void **state)
{
    (void)state;
    wsel_config *cfg;
    wsel_error err;
    assert_int_equal(load_text("r == { a => [ 192.0.2.1, 1 ] }\n",
                               (wsel_load_opts){ .input = STANZA }, &cfg, &err),
                     WSEL_E_SYNTAX);
    assert_int_equal(err.col, 4);
    assert_non_null(strstr(err.message, "unexpected '='"));
    assert_null(strstr(err.message, "=>"));
}

static void t_bom_skipped(void **state)
{
    (void)state;
    wsel_config *cfg;
    wsel_error err;
    assert_int_equal(load_text("\xEF\xBB\xBFr => { a => [ 192.0.2.1, 1 ] }\n",
                               (wsel_load_opts){ .input = STANZA }, &cfg, &err),
                     WSEL_OK);
    assert_non_null(wsel_config_find(cfg, "r"));
    wsel_config_free(cfg);
}

static void t_same_file_twice(void **state)
{
    (void)state;
    scratch_init();
    put_file("main.conf", "r => {\n  $include{inc.conf}\n  $include{inc.conf}\n}\n");
    put_file("inc.conf", "a => [ 192.0.2.1, 1 ]\n");
    wsel_load_opts o = { .input = STANZA };
    wsel_config *cfg = NULL;
    wsel_error err;
    int rc = wsel_config_load_file(path_of("main.conf"), &o, &cfg, &err);
    assert_int_equal(rc, WSEL_E_DUPKEY);
    /* Reported at the second include, naming the file. */
    assert_non_null(strstr(err.file, "main.conf"));
    assert_int_equal(err.line, 3);
    assert_int_equal(err.col, 3);
    assert_non_null(strstr(err.message, "inc.conf' is included a second time"));
    scratch_done();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_node_is_small),
        cmocka_unit_test(t_node_limit),
        cmocka_unit_test(t_node_limit_default),
        cmocka_unit_test(t_node_limit_counts_includes),
        cmocka_unit_test(t_total_size_limit),
        cmocka_unit_test(t_stack_nesting),
        cmocka_unit_test(t_stack_include_chain),
        cmocka_unit_test(t_double_assign_message),
        cmocka_unit_test(t_bom_skipped),
        cmocka_unit_test(t_same_file_twice),
    };
    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests_name("hardening", tests, NULL, NULL);
}
