/* The config loader (doc/weighted.md §2 and §3): the synopsis model, syntax corners,
 * includes, limits, one test per rejection rule, and zone record checks.
 *
 * Expected models are written by hand from the manual page; expected error positions
 * are either counted by hand or found by plain text search for the offending token in
 * the test's own input (pos_of), never taken from the loader's output. */
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
#include "../core/weighted/weighted_arena.h"

/* ---- helpers ------------------------------------------------------------------------ */

static int load_as(const char *text, wsel_input input, unsigned flags, wsel_config **cfg,
                   wsel_error *err)
{
    wsel_load_opts o = { .input = input, .flags = flags };
    return wsel_config_load_buffer("t.conf", text, strlen(text), &o, cfg, err);
}

static wsel_config *must_load(const char *text, wsel_input input)
{
    wsel_config *cfg = NULL;
    wsel_error err;
    int rc = load_as(text, input, WSEL_LOAD_NO_INCLUDE, &cfg, &err);
    if (rc != WSEL_OK) {
        char buf[1600];
        print_error("unexpected error: %s\n", wsel_error_format(&err, buf, sizeof buf));
    }
    assert_int_equal(rc, WSEL_OK);
    assert_non_null(cfg);
    return cfg;
}

/* 1-based line and column of the n-th (1-based) occurrence of needle in text. */
static void pos_of(const char *text, const char *needle, int nth, unsigned *line,
                   unsigned *col)
{
    const char *p = text;
    for (int i = 0; i < nth; i++) {
        p = strstr(i ? p + 1 : p, needle);
        assert_non_null(p);
    }
    *line = 1;
    *col = 1;
    for (const char *q = text; q < p; q++) {
        if (*q == '\n') {
            (*line)++;
            *col = 1;
        } else {
            (*col)++;
        }
    }
}

static void check_error(const wsel_error *err, int rc, int code, unsigned line, unsigned col,
                        const char *const *subs)
{
    if (rc != code || err->line != line || err->col != col) {
        char buf[1600];
        print_error("got %d at %u:%u, want %d at %u:%u: %s\n", rc, err->line, err->col,
                    code, line, col, wsel_error_format(err, buf, sizeof buf));
    }
    assert_int_equal(rc, code);
    assert_int_equal(err->code, code);
    assert_int_equal(err->line, line);
    assert_int_equal(err->col, col);
    for (size_t i = 0; subs && subs[i]; i++) {
        if (!strstr(err->message, subs[i]))
            print_error("message '%s' lacks '%s'\n", err->message, subs[i]);
        assert_non_null(strstr(err->message, subs[i]));
    }
}

/* Loads text (includes disabled) and expects `code` at the nth occurrence of `at`. */
static void expect_err_at(const char *text, wsel_input input, int code, const char *at,
                          int nth, const char *const *subs, wsel_error *out)
{
    wsel_config *cfg = (wsel_config *)1;
    wsel_error err;
    unsigned line, col;
    pos_of(text, at, nth, &line, &col);
    int rc = load_as(text, input, WSEL_LOAD_NO_INCLUDE, &cfg, &err);
    assert_null(cfg);
    check_error(&err, rc, code, line, col, subs);
    assert_string_equal(err.file, "t.conf");
    if (out)
        *out = err;
}

/* Loads text (includes disabled) and expects `code` at line:col. */
static void expect_err_pos(const char *text, wsel_input input, int code, unsigned line,
                           unsigned col, const char *const *subs)
{
    wsel_config *cfg = (wsel_config *)1;
    wsel_error err;
    int rc = load_as(text, input, WSEL_LOAD_NO_INCLUDE, &cfg, &err);
    assert_null(cfg);
    check_error(&err, rc, code, line, col, subs);
}

#define SUBS(...) ((const char *const[]){ __VA_ARGS__, NULL })
#define STANZA WSEL_INPUT_STANZA
#define WHOLE WSEL_INPUT_WHOLE

/* ---- temporary files ---------------------------------------------------------------- */

#define TMPDIR_MAX 48

typedef struct tmpdir {
    char root[64];
    char paths[TMPDIR_MAX][256];
    bool is_dir[TMPDIR_MAX];
    int n;
} tmpdir;

static void tmp_init(tmpdir *t)
{
    memset(t, 0, sizeof *t);
    snprintf(t->root, sizeof t->root, "/tmp/wsel-config-XXXXXX");
    assert_non_null(mkdtemp(t->root));
}

static const char *tmp_path(tmpdir *t, const char *rel, char *buf, size_t len)
{
    char tmp[256];
    snprintf(tmp, sizeof tmp, "%s/%s", t->root, rel);
    snprintf(buf, len, "%s", tmp);
    return buf;
}

static void tmp_dir(tmpdir *t, const char *rel)
{
    assert_true(t->n < TMPDIR_MAX);
    tmp_path(t, rel, t->paths[t->n], sizeof t->paths[0]);
    assert_int_equal(mkdir(t->paths[t->n], 0700), 0);
    t->is_dir[t->n++] = true;
}

static void tmp_file(tmpdir *t, const char *rel, const char *text)
{
    assert_true(t->n < TMPDIR_MAX);
    tmp_path(t, rel, t->paths[t->n], sizeof t->paths[0]);
    FILE *f = fopen(t->paths[t->n], "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    t->is_dir[t->n++] = false;
}

static void tmp_done(tmpdir *t)
{
    for (int i = t->n - 1; i >= 0; i--)
        assert_int_equal(t->is_dir[i] ? rmdir(t->paths[i]) : unlink(t->paths[i]), 0);
    assert_int_equal(rmdir(t->root), 0);
}

static int load_path(tmpdir *t, const char *rel, unsigned flags, wsel_config **cfg,
                     wsel_error *err)
{
    char p[256];
    wsel_load_opts o = { .input = STANZA, .flags = flags };
    return wsel_config_load_file(tmp_path(t, rel, p, sizeof p), &o, cfg, err);
}

/* ---- the synopsis --------------------------------------------------------------------- */

static void check_items(const wsel_set *s, const char *const *labels, const char *const *values,
                        const uint32_t *weights, uint32_t n)
{
    assert_int_equal(s->n_items, n);
    for (uint32_t i = 0; i < n; i++) {
        assert_string_equal(s->items[i].label, labels[i]);
        assert_string_equal(s->items[i].value, values[i]);
        assert_int_equal(s->items[i].weight, weights[i]);
        assert_int_equal(s->items[i].index, i);
    }
}

static void check_services(const wsel_set *s, wsel_level from, const char *const *names,
                           uint32_t n)
{
    assert_int_equal(s->services_from, from);
    assert_int_equal(s->n_services, n);
    for (uint32_t i = 0; i < n; i++)
        assert_string_equal(s->services[i], names[i]);
}

static void synopsis_corpwww(const wsel_config *cfg)
{
    /* corpwww: three CNAMEs 99/15/1, top-level parameters. */
    const wsel_resource *r = wsel_config_find(cfg, "corpwww");
    assert_true(r->is_cname);
    assert_false(r->explicit_families);
    assert_int_equal(r->n_sets, 1);
    const wsel_set *s = &r->sets[0];
    assert_int_equal(s->kind, WSEL_KIND_CNAME);
    assert_int_equal(s->mode, WSEL_MODE_CNAME);
    assert_false(s->multi);
    assert_null(s->stanza);
    check_items(s, SUBS("lb01", "lb02", "lb03"),
                SUBS("lb01.example.org.", "lb02.example.org.", "lb03.example.org."),
                (const uint32_t[]){ 99, 15, 1 }, 3);
    assert_int_equal(s->total, 115);
    assert_int_equal(s->threshold, 58); /* ceil(57.5) */
    check_services(s, WSEL_LEVEL_TOP, SUBS("up"), 1);
    assert_string_equal(s->items[0].key, "lb01.example.org.");
}

static void synopsis_frontwww6(const wsel_config *cfg)
{
    /* frontwww6: IPv6 ungrouped-multi, multi from the resource. */
    const wsel_resource *r = wsel_config_find(cfg, "frontwww6");
    const wsel_set *s = &r->sets[0];
    assert_false(r->is_cname);
    assert_int_equal(s->kind, WSEL_KIND_V6);
    assert_int_equal(s->mode, WSEL_MODE_UNGROUPED_MULTI);
    assert_true(s->multi);
    assert_int_equal(s->multi_from, WSEL_LEVEL_RESOURCE);
    assert_int_equal(s->up_thresh_from, WSEL_LEVEL_TOP);
    check_items(s, SUBS("wwwhost01", "wwwhost02", "wwwhost03"),
                SUBS("2001:db8::123", "2001:db8::456", "2001:db8::789"),
                (const uint32_t[]){ 4, 1, 2 }, 3);
    check_services(s, WSEL_LEVEL_RESOURCE, SUBS("up"), 1);
    assert_int_equal(s->items[1].addr[0], 0x20);
    assert_int_equal(s->items[1].addr[1], 0x01);
    assert_int_equal(s->items[1].addr[14], 0x04);
    assert_int_equal(s->items[1].addr[15], 0x56);
}

static void synopsis_pubwww(const wsel_config *cfg)
{
    /* pubwww: IPv4 ungrouped-single, multi=false inherited from the top. */
    const wsel_resource *r = wsel_config_find(cfg, "pubwww");
    const wsel_set *s = &r->sets[0];
    assert_int_equal(s->kind, WSEL_KIND_V4);
    assert_int_equal(s->mode, WSEL_MODE_UNGROUPED_SINGLE);
    assert_false(s->multi);
    assert_int_equal(s->multi_from, WSEL_LEVEL_TOP);
    assert_true(s->up_thresh == 0.01);
    assert_int_equal(s->up_thresh_from, WSEL_LEVEL_RESOURCE);
    check_services(s, WSEL_LEVEL_RESOURCE, SUBS("web_check", "foo"), 2);
    check_items(s, SUBS("pubhost01", "pubhost02", "pubhost03", "pubhost04"),
                SUBS("192.0.2.1", "192.0.2.2", "192.0.2.3", "192.0.2.4"),
                (const uint32_t[]){ 44, 11, 11, 11 }, 4);
    assert_int_equal(s->total, 77);
    assert_int_equal(s->threshold, 1); /* ceil(0.77) */
    assert_memory_equal(s->items[3].addr, ((const uint8_t[]){ 192, 0, 2, 4 }), 4);
    assert_int_equal(s->n_groups, 0);
    assert_int_equal(s->max_group, 0);
}

static void synopsis_cdnwww(const wsel_config *cfg)
{
    /* cdnwww: IPv4 grouped-single, groups of 2+2 and 2+2+1. */
    const wsel_resource *r = wsel_config_find(cfg, "cdnwww");
    const wsel_set *s = &r->sets[0];
    assert_int_equal(s->kind, WSEL_KIND_V4);
    assert_int_equal(s->mode, WSEL_MODE_GROUPED_SINGLE);
    assert_true(s->grouped);
    check_services(s, WSEL_LEVEL_RESOURCE, SUBS("web_check"), 1);
    assert_int_equal(s->n_groups, 2);
    assert_string_equal(s->groups[0].label, "datacenter1");
    assert_int_equal(s->groups[0].first, 0);
    assert_int_equal(s->groups[0].count, 2);
    assert_int_equal(s->groups[0].total, 4);
    assert_string_equal(s->groups[1].label, "datacenter2");
    assert_int_equal(s->groups[1].first, 2);
    assert_int_equal(s->groups[1].count, 3);
    assert_int_equal(s->groups[1].total, 5);
    assert_int_equal(s->max_group, 3);
    check_items(s, SUBS("d1-lb1", "d1-lb2", "d2-lb1", "d2-lb2", "d2-lb3"),
                SUBS("127.0.0.1", "127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"),
                (const uint32_t[]){ 2, 2, 2, 2, 1 }, 5);
    for (uint32_t i = 0; i < 5; i++)
        assert_int_equal(s->items[i].group, i < 2 ? 0 : 1);
    assert_int_equal(s->total, 9);
    assert_int_equal(s->threshold, 5);
}

static void synopsis_mixed(const wsel_config *cfg)
{
    /* mixed: explicit; v4 ungrouped-single (multi from the resource), v6 grouped-multi
     * (multi from the stanza). */
    const wsel_resource *r = wsel_config_find(cfg, "mixed");
    assert_true(r->explicit_families);
    assert_int_equal(r->n_sets, 2);
    const wsel_set *s = &r->sets[0];
    assert_int_equal(s->kind, WSEL_KIND_V4);
    assert_string_equal(s->stanza, "addrs_v4");
    assert_int_equal(s->mode, WSEL_MODE_UNGROUPED_SINGLE);
    assert_int_equal(s->multi_from, WSEL_LEVEL_RESOURCE);
    check_items(s, SUBS("lb1", "lb2"), SUBS("127.0.0.3", "127.0.0.4"),
                (const uint32_t[]){ 2, 2 }, 2);
    s = &r->sets[1];
    assert_int_equal(s->kind, WSEL_KIND_V6);
    assert_string_equal(s->stanza, "addrs_v6");
    assert_int_equal(s->mode, WSEL_MODE_GROUPED_MULTI);
    assert_true(s->multi);
    assert_int_equal(s->multi_from, WSEL_LEVEL_STANZA);
    assert_int_equal(s->n_groups, 2);
    assert_string_equal(s->groups[0].label, "www6set1");
    assert_string_equal(s->groups[1].label, "www6set2");
    check_items(s, SUBS("lb01", "lb02", "lb01", "lb02"),
                SUBS("2001:db8::123", "2001:db8::456", "2001:db8::789", "2001:db8::ABC"),
                (const uint32_t[]){ 4, 1, 4, 1 }, 4);
    assert_string_equal(s->items[3].key, "2001:db8::abc");
    assert_int_equal(s->total, 10);
}

static void synopsis_cn(const wsel_config *cfg)
{
    /* cn: CNAMEs monitored by my_cn_check. */
    const wsel_resource *r = wsel_config_find(cfg, "cn");
    const wsel_set *s = &r->sets[0];
    assert_true(r->is_cname);
    check_services(s, WSEL_LEVEL_RESOURCE, SUBS("my_cn_check"), 1);
    check_items(s, SUBS("foo", "bar"), SUBS("lb01.example.org.", "lb02.example.org."),
                (const uint32_t[]){ 99, 15 }, 2);
}

static void synopsis_ids_and_locations(const wsel_config *cfg)
{
    /* Set ids run 0..6 in resource order, v4 before v6. */
    for (size_t id = 0; id < 7; id++)
        assert_int_equal(wsel_config_set(cfg, id)->id, id);
    assert_ptr_equal(wsel_config_set(cfg, 4), &wsel_config_find(cfg, "mixed")->sets[0]);
    assert_ptr_equal(wsel_config_set(cfg, 5), &wsel_config_find(cfg, "mixed")->sets[1]);
    assert_ptr_equal(wsel_config_set(cfg, 6)->resource, wsel_config_find(cfg, "cn"));
    assert_null(wsel_config_set(cfg, 7));

    /* Locations: pubhost01's key is on line 34, column 7 of the example. */
    const wsel_item *it = &wsel_config_find(cfg, "pubwww")->sets[0].items[0];
    assert_non_null(strstr(it->loc.file, "synopsis.conf"));
    assert_int_equal(it->loc.line, 34);
    assert_int_equal(it->loc.col, 7);
}

static void t_synopsis(void **state)
{
    (void)state;
    wsel_config *cfg = wsel_test_load_synopsis();
    assert_true(wsel_config_is_whole(cfg));
    assert_int_equal(wsel_config_resource_count(cfg), 6);
    assert_int_equal(wsel_config_set_count(cfg), 7);
    assert_false(wsel_config_top_multi(cfg));
    assert_true(wsel_config_top_up_thresh(cfg) == 0.5);
    static const char *const names[] = { "corpwww", "frontwww6", "pubwww", "cdnwww",
                                         "mixed", "cn" };
    for (size_t i = 0; i < 6; i++) {
        const wsel_resource *r = wsel_config_resource(cfg, i);
        assert_string_equal(r->name, names[i]);
        assert_int_equal(r->index, i);
        assert_ptr_equal(wsel_config_find(cfg, names[i]), r);
    }
    assert_null(wsel_config_resource(cfg, 6));
    assert_null(wsel_config_find(cfg, "nosuch"));

    synopsis_corpwww(cfg);
    synopsis_frontwww6(cfg);
    synopsis_pubwww(cfg);
    synopsis_cdnwww(cfg);
    synopsis_mixed(cfg);
    synopsis_cn(cfg);
    synopsis_ids_and_locations(cfg);
    wsel_config_free(cfg);
}

static void t_synopsis_auto_and_stanza(void **state)
{
    (void)state;
    wsel_config *cfg = NULL;
    wsel_error err;
    wsel_load_opts o = { .input = WSEL_INPUT_AUTO };
    assert_int_equal(wsel_config_load_file(wsel_kit_srcpath("examples/synopsis.conf"), &o,
                                           &cfg, &err), WSEL_OK);
    assert_true(wsel_config_is_whole(cfg));
    wsel_config_free(cfg);
    /* As a stanza, the whole config's top-level keys are parameters and resources: the
     * top-level service_types hash is then a bad parameter value (line 8, column 18). */
    o.input = STANZA;
    int rc = wsel_config_load_file(wsel_kit_srcpath("examples/synopsis.conf"), &o, &cfg,
                                   &err);
    check_error(&err, rc, WSEL_E_PARAM, 8, 18, SUBS("service_types"));
    assert_null(cfg);
    assert_string_equal(err.key, "service_types");
}

/* Two models are equal apart from locations (and the whole-config flag). */
static void assert_same_model(const wsel_config *a, const wsel_config *b)
{
    assert_int_equal(wsel_config_resource_count(a), wsel_config_resource_count(b));
    assert_int_equal(wsel_config_set_count(a), wsel_config_set_count(b));
    for (size_t id = 0; id < wsel_config_set_count(a); id++) {
        const wsel_set *x = wsel_config_set(a, id), *y = wsel_config_set(b, id);
        assert_string_equal(x->resource->name, y->resource->name);
        assert_int_equal(x->kind, y->kind);
        assert_int_equal(x->mode, y->mode);
        assert_int_equal(x->multi_from, y->multi_from);
        assert_int_equal(x->up_thresh_from, y->up_thresh_from);
        assert_int_equal(x->services_from, y->services_from);
        assert_true(x->up_thresh == y->up_thresh);
        assert_int_equal(x->total, y->total);
        assert_int_equal(x->threshold, y->threshold);
        assert_int_equal(x->n_services, y->n_services);
        for (uint32_t i = 0; i < x->n_services; i++)
            assert_string_equal(x->services[i], y->services[i]);
        assert_int_equal(x->n_groups, y->n_groups);
        assert_int_equal(x->n_items, y->n_items);
        for (uint32_t i = 0; i < x->n_items; i++) {
            assert_string_equal(x->items[i].label, y->items[i].label);
            assert_string_equal(x->items[i].key, y->items[i].key);
            assert_int_equal(x->items[i].weight, y->items[i].weight);
            assert_int_equal(x->items[i].group, y->items[i].group);
        }
    }
}

static void t_synopsis_stanza_form(void **state)
{
    (void)state;
    wsel_config *whole = wsel_test_load_synopsis();
    wsel_config *cfg = NULL;
    wsel_error err;
    assert_int_equal(wsel_config_load_file(wsel_kit_srcpath("examples/synopsis_stanza.conf"),
                                           NULL, &cfg, &err), WSEL_OK);
    assert_false(wsel_config_is_whole(cfg));
    assert_same_model(whole, cfg);
    wsel_config_free(cfg);
    /* Forced to whole, the stanza file has no plugins key. */
    wsel_load_opts o = { .input = WHOLE };
    int rc = wsel_config_load_file(wsel_kit_srcpath("examples/synopsis_stanza.conf"), &o,
                                   &cfg, &err);
    check_error(&err, rc, WSEL_E_NOSTANZA, 0, 0, SUBS("plugins"));
    wsel_config_free(whole);
}

/* ---- parameters and arithmetic ---------------------------------------------------------- */

static void t_threshold_007(void **state)
{
    (void)state;
    /* T = 100, up_thresh 0.07: 100 * 0.07 is 7.000000000000001 in doubles, so 8. */
    wsel_config *cfg = must_load("up_thresh = 0.07\n"
                                 "r => { a => [ 192.0.2.1, 93 ], b => [ 192.0.2.2, 7 ] }\n",
                                 STANZA);
    const wsel_set *s = wsel_config_set(cfg, 0);
    assert_int_equal(s->total, 100);
    assert_int_equal(s->threshold, 8);
    assert_int_equal(s->up_thresh_from, WSEL_LEVEL_TOP);
    wsel_config_free(cfg);
    /* up_thresh 1 needs everything; 0.5 of an odd total rounds up. */
    cfg = must_load("r => { up_thresh = 1, a => [ 192.0.2.1, 3 ], b => [ 192.0.2.2, 4 ] }\n"
                    "s => { a => [ 192.0.2.1, 3 ], b => [ 192.0.2.2, 4 ] }\n", STANZA);
    assert_int_equal(wsel_config_set(cfg, 0)->threshold, 7);
    assert_int_equal(wsel_config_set(cfg, 1)->threshold, 4);
    wsel_config_free(cfg);
}

static void t_defaults_and_levels(void **state)
{
    (void)state;
    wsel_config *cfg = must_load("r => { a => [ 192.0.2.1, 1 ] }\n"
                                 "x => { up_thresh = 0.25\n"
                                 "       addrs_v6 => { service_types = [], "
                                 "a => [ ::1, 1 ] }\n"
                                 "       addrs_v4 => { multi = TRUE, a => [ 10.0.0.1, 1 ] } }\n",
                                 STANZA);
    assert_false(wsel_config_is_whole(cfg));
    const wsel_set *s = wsel_config_set(cfg, 0);
    assert_false(s->multi);
    assert_int_equal(s->multi_from, WSEL_LEVEL_DEFAULT);
    assert_true(s->up_thresh == 0.5);
    assert_int_equal(s->up_thresh_from, WSEL_LEVEL_DEFAULT);
    check_services(s, WSEL_LEVEL_DEFAULT, SUBS("up"), 1);
    /* v4 comes first although addrs_v6 is written first. */
    const wsel_resource *x = wsel_config_find(cfg, "x");
    assert_int_equal(x->sets[0].kind, WSEL_KIND_V4);
    assert_int_equal(x->sets[0].id, 1);
    assert_true(x->sets[0].multi);
    assert_int_equal(x->sets[0].mode, WSEL_MODE_UNGROUPED_MULTI);
    assert_int_equal(x->sets[0].multi_from, WSEL_LEVEL_STANZA);
    assert_true(x->sets[0].up_thresh == 0.25);
    assert_int_equal(x->sets[0].up_thresh_from, WSEL_LEVEL_RESOURCE);
    assert_int_equal(x->sets[1].kind, WSEL_KIND_V6);
    assert_int_equal(x->sets[1].id, 2);
    assert_int_equal(x->sets[1].n_services, 0);
    assert_int_equal(x->sets[1].services_from, WSEL_LEVEL_STANZA);
    assert_string_equal(x->sets[1].items[0].key, "::1");
    wsel_config_free(cfg);
}

static void t_multi_ignored_for_cnames(void **state)
{
    (void)state;
    wsel_config *cfg = must_load("multi = true\n"
                                 "c => { multi = true, a => [ A.Example., 5 ] }\n", STANZA);
    const wsel_set *s = wsel_config_set(cfg, 0);
    assert_int_equal(s->mode, WSEL_MODE_CNAME);
    assert_false(s->multi);
    assert_string_equal(s->items[0].key, "a.example.");
    /* the value is what gdnsd answers: the name in lower case (doc/weighted.md §3.5) */
    assert_string_equal(s->items[0].value, "a.example.");
    assert_true(wsel_config_top_multi(cfg));
    wsel_config_free(cfg);
}

static void t_weight_forms(void **state)
{
    (void)state;
    /* strtol base 0: hex and octal forms, and the extremes. */
    wsel_config *cfg = must_load("r => { a => [ 192.0.2.1, 0x10 ], b => [ 192.0.2.2, 010 ]"
                                 " c => [ 192.0.2.3, 1048575 ], d => [ 192.0.2.1, 1 ] }\n",
                                 STANZA);
    const wsel_set *s = wsel_config_set(cfg, 0);
    assert_int_equal(s->items[0].weight, 16);
    assert_int_equal(s->items[1].weight, 8);
    assert_int_equal(s->items[2].weight, 1048575);
    assert_int_equal(s->items[3].weight, 1);
    assert_string_equal(s->items[3].value, s->items[0].value); /* duplicates are legal */
    assert_int_equal(s->total, 16 + 8 + 1048575 + 1);
    wsel_config_free(cfg);
}

static void t_max_sizes(void **state)
{
    (void)state;
    /* 64 items, and 64 groups of 64 addresses, are accepted. */
    char *text = malloc(300000);
    assert_non_null(text);
    size_t n = (size_t)sprintf(text, "r => {\n");
    for (int i = 0; i < 64; i++)
        n += (size_t)sprintf(text + n, " i%d => [ 10.0.0.%d, 1048575 ]\n", i, i);
    n += (size_t)sprintf(text + n, "}\ng => {\n");
    for (int g = 0; g < 64; g++) {
        n += (size_t)sprintf(text + n, " g%d => {", g);
        for (int i = 0; i < 64; i++)
            n += (size_t)sprintf(text + n, " a%d => [ 10.%d.0.%d, 1048575 ]", i, g, i);
        n += (size_t)sprintf(text + n, " }\n");
    }
    sprintf(text + n, "}\n");
    wsel_config *cfg = must_load(text, STANZA);
    free(text);
    assert_int_equal(wsel_config_set(cfg, 0)->n_items, 64);
    const wsel_set *s = wsel_config_set(cfg, 1);
    assert_int_equal(s->n_groups, 64);
    assert_int_equal(s->n_items, 64 * 64);
    assert_int_equal(s->max_group, 64);
    assert_int_equal(s->total, 64ull * 64 * 1048575);
    assert_int_equal(s->items[64 * 64 - 1].index, 64 * 64 - 1);
    assert_int_equal(s->items[64 * 64 - 1].group, 63);
    assert_int_equal(s->groups[63].first, 63 * 64);
    wsel_config_free(cfg);
}

/* ---- syntax --------------------------------------------------------------------------- */

static void t_syntax_separators_and_comments(void **state)
{
    (void)state;
    wsel_config *cfg = must_load("# hash comment\n"
                                 "; semicolon comment\n"
                                 "r = {   # after a brace\n"
                                 "  a => [ 192.0.2.1 2 ] ; no comma inside\n"
                                 "  b = [ 192.0.2.2, 3, ], # trailing commas\n"
                                 "  c=>[192.0.2.3,4]\n"
                                 "  d\t=\t[\t192.0.2.4\t5\t]\n"
                                 "},\n"
                                 "s => { x => [ ::2, 1 ], }\n",
                                 STANZA);
    const wsel_set *s = wsel_config_set(cfg, 0);
    check_items(s, SUBS("a", "b", "c", "d"),
                SUBS("192.0.2.1", "192.0.2.2", "192.0.2.3", "192.0.2.4"),
                (const uint32_t[]){ 2, 3, 4, 5 }, 4);
    assert_int_equal(s->items[1].loc.line, 5);
    assert_int_equal(s->items[1].loc.col, 3);
    assert_int_equal(wsel_config_set(cfg, 1)->kind, WSEL_KIND_V6);
    wsel_config_free(cfg);
}

static void t_syntax_quotes_and_escapes(void **state)
{
    (void)state;
    /* Quoted keys with escapes, \DDD bytes, a quoted string spanning lines, and escapes
     * inside unquoted strings. */
    wsel_config *cfg = must_load("\"my res\" => {\n"
                                 "  \"k\\\"q\" => [ \"192.0.2.1\", \"1\\048\" ]\n"
                                 "  k\\ sp => [ 192.0.2.\\050, 2 ]\n"
                                 "  \"multi\nline\" => [ \\049\\050\\055.0.0.1, 3 ]\n"
                                 "}\n"
                                 "\"\\x\\{\" => { a => [ x\\.y., 1 ] }\n",
                                 STANZA);
    const wsel_resource *r = wsel_config_resource(cfg, 0);
    assert_string_equal(r->name, "my res");
    const wsel_set *s = &r->sets[0];
    check_items(s, SUBS("k\"q", "k sp", "multi\nline"),
                SUBS("192.0.2.1", "192.0.2.2", "127.0.0.1"),
                (const uint32_t[]){ 10, 2, 3 }, 3);
    assert_int_equal(s->items[2].loc.line, 4);
    /* \x is x and \{ is {; in a CNAME, gdnsd reads \. in the raw text as a dot inside
     * one label (zone-file rules, doc/weighted.md §3.5): one label "x.y", shown escaped. */
    r = wsel_config_resource(cfg, 1);
    assert_string_equal(r->name, "x{");
    assert_string_equal(r->sets[0].items[0].value, "x\\.y.");
    assert_string_equal(r->sets[0].items[0].key, "x.y.");
    wsel_config_free(cfg);
}

static void t_syntax_backslash_newline(void **state)
{
    (void)state;
    wsel_config *cfg = must_load("r => { \"a\\\nb\" => [ 192.0.2.1, 1 ] }\n"
                                 "s => { c => [ 192.0.2.2, 2 ] }\n", STANZA);
    assert_string_equal(wsel_config_set(cfg, 0)->items[0].label, "a\nb");
    assert_int_equal(wsel_config_set(cfg, 1)->loc.line, 3);
    wsel_config_free(cfg);
}

static void t_syntax_errors(void **state)
{
    (void)state;
    expect_err_at("r => {\n  a => [ 1\\256, 1 ]\n}\n", STANZA, WSEL_E_ESCAPE, "\\256", 1,
                  SUBS("000-199"), NULL);
    expect_err_at("r => { a => [ x\\200y., 1 ] }\n", STANZA, WSEL_E_ESCAPE, "\\200", 1,
                  SUBS("000-199", "gdnsd"), NULL);
    expect_err_at("r => { a => [ 1\\12x, 1 ] }\n", STANZA, WSEL_E_ESCAPE, "\\12x", 1,
                  SUBS("three decimal digits"), NULL);
    expect_err_at("r => { a => [ 1\\1", STANZA, WSEL_E_ESCAPE, "\\1", 1,
                  SUBS("three decimal digits"), NULL);
    expect_err_at("r => { a => \"x\\", STANZA, WSEL_E_ESCAPE, "\\", 1, SUBS("end of file"),
                  NULL);
    expect_err_at("r => { a => \"unterminated\n}\n", STANZA, WSEL_E_SYNTAX, "\"", 1,
                  SUBS("unterminated"), NULL);
    expect_err_at("r => { a => $x }\n", STANZA, WSEL_E_SYNTAX, "$x", 1, SUBS("'$'"), NULL);
    /* End of file is reported where it is: after the last newline. */
    expect_err_pos("r => { a => [ 192.0.2.1, 1 ]\n", STANZA, WSEL_E_SYNTAX, 2, 1,
                   SUBS("end of file", "'}'"));
    expect_err_at("r => { a [ 192.0.2.1, 1 ] }\n", STANZA, WSEL_E_SYNTAX, "[", 1,
                  SUBS("'=>'"), NULL);
    expect_err_at("r => { a => [ 192.0.2.1,, 1 ] }\n", STANZA, WSEL_E_SYNTAX, ", 1", 1,
                  SUBS("expected a value"), NULL);
    expect_err_pos("r => { a => [ 192.0.2.1, 1 ] }\n}\n", STANZA, WSEL_E_SYNTAX, 2, 1,
                   SUBS("'}'", "a key or end of file"));
    expect_err_pos("r => { a => [ 1 ] ", STANZA, WSEL_E_SYNTAX, 1, 19, SUBS("'}'"));
    expect_err_pos("r => {\n a => [ 1 \n\n", STANZA, WSEL_E_SYNTAX, 4, 1,
                   SUBS("']'", "opened at 2:7"));
    expect_err_at("=> x\n", STANZA, WSEL_E_SYNTAX, "=>", 1, SUBS("a key"), NULL);
    /* Raw NUL bytes are not text. */
    wsel_config *cfg;
    wsel_error err;
    int rc = wsel_config_load_buffer("t.conf", "a\0b", 3, NULL, &cfg, &err);
    check_error(&err, rc, WSEL_E_SYNTAX, 1, 2, SUBS("NUL"));
}

static void t_duplicate_keys(void **state)
{
    (void)state;
    wsel_error err;
    expect_err_at("r => {\n  a => [ 192.0.2.1, 1 ]\n  a => [ 192.0.2.2, 1 ]\n}\n", STANZA,
                  WSEL_E_DUPKEY, "a =>", 2,
                  SUBS("duplicate key 'a' in the hash of 'r'", "t.conf:2:3"), &err);
    assert_string_equal(err.key, "a");
    /* Keys compare after unescaping. */
    expect_err_at("r => { x => 1 }\n\"r\" => { }\n", STANZA, WSEL_E_DUPKEY, "\"r\"", 1,
                  SUBS("'r'"), NULL);
    expect_err_at("a = 1\nb = { c = 1, d = { } }\na\\065 = 2\n\\097 = 3\n", STANZA,
                  WSEL_E_DUPKEY, "\\097", 1, SUBS("'a'"), NULL);
    /* The same key in different hashes is fine. */
    wsel_config *cfg = must_load("r => { a => [ 192.0.2.1, 1 ] }\n"
                                 "s => { a => [ 192.0.2.1, 1 ] }\n", STANZA);
    wsel_config_free(cfg);
}

static void t_nul_in_names(void **state)
{
    (void)state;
    expect_err_at("r => { a\\000b => [ 192.0.2.1, 1 ] }\n", STANZA, WSEL_E_ITEM, "a\\000", 1,
                  SUBS("NUL"), NULL);
    expect_err_at("r => { g\\000 => { a => [ 192.0.2.1, 1 ] } }\n", STANZA, WSEL_E_ITEM, "g",
                  1, SUBS("NUL"), NULL);
    expect_err_at("r\\000 => { a => [ 192.0.2.1, 1 ] }\n", STANZA, WSEL_E_TYPE, "r", 1,
                  SUBS("NUL"), NULL);
    /* as a CNAME, \000 is a byte of the last label: the name is not fully qualified */
    expect_err_at("r => { a => [ 192.0.2.1\\000, 1 ] }\n", STANZA, WSEL_E_CNAME, "192", 1,
                  SUBS("fully qualified"), NULL);
    expect_err_at("r => { a => [ 192.0.2.1, 1\\000 ] }\n", STANZA, WSEL_E_WEIGHT, "1\\000",
                  1, SUBS("not an integer"), NULL);
    expect_err_at("multi = true\\000\nr => { a => [ 192.0.2.1, 1 ] }\n", STANZA, WSEL_E_PARAM,
                  "true", 1, SUBS("boolean"), NULL);
}

static void t_top_level_array(void **state)
{
    (void)state;
    expect_err_at("[ a, b ]\n", STANZA, WSEL_E_TYPE, "[", 1, SUBS("expected a hash"), NULL);
    expect_err_at("[ a, b ]\n", WSEL_INPUT_AUTO, WSEL_E_TYPE, "[", 1, SUBS("expected a hash"),
                  NULL);
    expect_err_at("  [ a, b ]\n", WHOLE, WSEL_E_NOSTANZA, "[", 1, SUBS("plugins"), NULL);
    expect_err_at("[ a ] b\n", STANZA, WSEL_E_SYNTAX, "b", 1, SUBS("end of file"), NULL);
}

static void t_empty_inputs(void **state)
{
    (void)state;
    wsel_config *cfg = must_load("", STANZA);
    assert_int_equal(wsel_config_resource_count(cfg), 0);
    assert_int_equal(wsel_config_set_count(cfg), 0);
    assert_null(wsel_config_set(cfg, 0));
    wsel_config_free(cfg);
    cfg = must_load("# only a comment\nmulti = true\n", STANZA);
    assert_int_equal(wsel_config_resource_count(cfg), 0);
    assert_true(wsel_config_top_multi(cfg));
    wsel_config_free(cfg);
    cfg = must_load("plugins => { weighted => { } }\n", WHOLE);
    assert_int_equal(wsel_config_resource_count(cfg), 0);
    assert_true(wsel_config_is_whole(cfg));
    wsel_config_free(cfg);
}

/* ---- whole configs --------------------------------------------------------------------- */

static void t_whole_config(void **state)
{
    (void)state;
    static const char text[] =
        "options => { listen => [ 127.0.0.1, ::1 ], other = { deep = [ [ ], { } ] } }\n"
        "service_types => { mon => { plugin => http_status } }\n"
        "plugins => { geoip => { x => y }, weighted => {\n"
        "  r => { service_types => [ mon, up, down ], a => [ 192.0.2.1, 1 ] }\n"
        "} }\n";
    wsel_config *cfg = must_load(text, WSEL_INPUT_AUTO);
    assert_true(wsel_config_is_whole(cfg));
    check_services(wsel_config_set(cfg, 0), WSEL_LEVEL_RESOURCE, SUBS("mon", "up", "down"), 3);
    wsel_config_free(cfg);

    expect_err_pos("options => { }\n", WHOLE, WSEL_E_NOSTANZA, 0, 0, SUBS("plugins"));
    expect_err_at("plugins => { geoip => { } }\n", WHOLE, WSEL_E_NOSTANZA, "plugins", 1,
                  SUBS("weighted"), NULL);
    expect_err_at("plugins => { weighted => [ ] }\n", WHOLE, WSEL_E_TYPE, "[", 1,
                  SUBS("expected a hash"), NULL);
    expect_err_at("plugins => x\n", WHOLE, WSEL_E_TYPE, "x", 1, SUBS("expected a hash"), NULL);
    expect_err_at("service_types => [ a ]\nplugins => { weighted => { } }\n", WHOLE,
                  WSEL_E_TYPE, "[", 1, SUBS("service_types", "expected a hash"), NULL);
    /* A stanza-mode config accepts any service type name. */
    cfg = must_load("r => { service_types => anything, a => [ 192.0.2.1, 1 ] }\n", STANZA);
    check_services(wsel_config_set(cfg, 0), WSEL_LEVEL_RESOURCE, SUBS("anything"), 1);
    wsel_config_free(cfg);
}

static void t_err_svctype(void **state)
{
    (void)state;
    wsel_error err;
    static const char text[] =
        "service_types => { mon => { plugin => extfile, file => m } }\n"
        "plugins => { weighted => {\n"
        "  r => { service_types => [ mon, nomon ], a => [ 192.0.2.1, 1 ] }\n"
        "} }\n";
    expect_err_at(text, WSEL_INPUT_AUTO, WSEL_E_SVCTYPE, "nomon", 1,
                  SUBS("resource 'r'", "'nomon'", "expected up, down"), &err);
    assert_string_equal(err.object, "r");
    expect_err_at("plugins => { weighted => { service_types = web_check\n"
                  "  r => { a => [ 192.0.2.1, 1 ] } } }\n", WHOLE,
                  WSEL_E_SVCTYPE, "web_check", 1, SUBS("resource 'r'", "'web_check'"),
                  NULL);
}

/* ---- the verdict gdnsd 3.8.1 gives (issue 13; doc/weighted.md §8) ------------------- */

static void expect_warning(const wsel_config *cfg, size_t n, const char *needle)
{
    assert_int_equal(wsel_config_warning_count(cfg), n);
    for (size_t i = 0; i < n; i++) {
        const wsel_error *w = wsel_config_warning(cfg, i);
        assert_non_null(w);
        assert_int_equal(w->code, WSEL_OK);
        if (!strstr(w->message, needle))
            fail_msg("warning %zu '%s' lacks '%s'", i, w->message, needle);
    }
    assert_null(wsel_config_warning(cfg, n));
}

static void t_gdnsd_verdicts(void **state)
{
    (void)state;
    /* refused by gdnsd, so by wsel: a final comment without a newline ... */
    expect_err_at("r => { a => [ 192.0.2.1, 1 ] }\n# end", STANZA, WSEL_E_SYNTAX, "# end", 1,
                  SUBS("comment", "newline"), NULL);
    expect_err_at("r => { a => [ 192.0.2.1, 1 ] } ; end", STANZA, WSEL_E_SYNTAX, "; end", 1,
                  SUBS("comment"), NULL);
    wsel_config *cfg = must_load("r => { a => [ 192.0.2.1, 1 ] }\n# end\n", STANZA);
    wsel_config_free(cfg);
    /* ... a subnormal up_thresh (strtod range error) ... */
    expect_err_at("r => { up_thresh = 4.9e-324, a => [ 192.0.2.1, 1 ] }\n", STANZA,
                  WSEL_E_PARAM, "4.9e-324", 1, SUBS("range error"), NULL);
    expect_err_at("r => { up_thresh = 2e-308, a => [ 192.0.2.1, 1 ] }\n", STANZA,
                  WSEL_E_PARAM, "2e-308", 1, SUBS("range error"), NULL);
    cfg = must_load("r => { up_thresh = 2.3e-308, a => [ 192.0.2.1, 1 ] }\n", STANZA);
    assert_int_equal(wsel_config_set(cfg, 0)->threshold, 1); /* the smallest normal */
    wsel_config_free(cfg);
    /* ... and a CNAME set watched by tcp_connect or http_status */
    static const char cn_tcp[] =
        "service_types => { t => { plugin => tcp_connect, port => 80 }\n"
        "                   x => { plugin => extfile, file => f } }\n"
        "plugins => { weighted => {\n"
        "  ok => { service_types = [ x, up ], a => [ a.example., 1 ] }\n"
        "  addr => { service_types = t, a => [ 192.0.2.1, 1 ] }\n"
        "  r => { service_types = [ x, t ], a => [ a.example., 1 ] }\n"
        "} }\n";
    expect_err_at(cn_tcp, WHOLE, WSEL_E_SVCTYPE, "[ x, t", 1,
                  SUBS("resource 'r'", "'t'", "tcp_connect", "cannot monitor CNAMEs"), NULL);
    static const char cn_http[] =
        "service_types => { h => { plugin => http_status } }\n"
        "plugins => { weighted => { service_types = h\n"
        "  r => { a => [ a.example., 1 ] }\n"
        "} }\n";
    expect_err_at(cn_http, WHOLE, WSEL_E_SVCTYPE, "h\n", 1, SUBS("http_status"), NULL);

    /* ... a top-level key other than options, service_types and plugins, a service type
     * definition without a plugin, and an escape above \\199 */
    expect_err_at("opts => { }\nplugins => { weighted => { r => { a => [ 192.0.2.1, 1 ] } } }\n",
                  WHOLE, WSEL_E_SYNTAX, "opts", 1, SUBS("top-level key 'opts'"), NULL);
    expect_err_at("service_types => { w => { port => 80 } }\n"
                  "plugins => { weighted => { r => { a => [ 192.0.2.1, 1 ] } } }\n",
                  WHOLE, WSEL_E_SVCTYPE, "w =>", 1, SUBS("'w'", "plugin"), NULL);
    expect_err_at("service_types => { w => x }\nplugins => { weighted => { } }\n",
                  WHOLE, WSEL_E_SVCTYPE, "w =>", 1, SUBS("hash"), NULL);
    expect_err_at("service_types => { up => { plugin => extfile } }\nplugins => { weighted => { } }\n",
                  WHOLE, WSEL_E_SVCTYPE, "up =>", 1, SUBS("built in"), NULL);
    expect_err_at("r => { \"a\\250\" => [ 192.0.2.1, 1 ] }\n", STANZA, WSEL_E_ESCAPE, "\\250", 1,
                  SUBS("000-199"), NULL);
    cfg = must_load("r => { \"a\\199\" => [ 192.0.2.1, 1 ] }\n", STANZA);
    assert_string_equal(wsel_config_set(cfg, 0)->items[0].label, "a\307");
    wsel_config_free(cfg);

    /* accepted by gdnsd, so by wsel, with a warning: inet_aton spellings ... */
    cfg = must_load("r => { a => [ 127.1, 1 ], b => [ 3221225985, 1 ], c => [ 0x7f.0.0.1, 1 ]"
                    ", d => [ 0300.0.2.1, 1 ], e => [ 192.000.2.1, 1 ] }\n", STANZA);
    const wsel_set *set = wsel_config_set(cfg, 0);
    static const char *const want[] = { "127.0.0.1", "192.0.2.1", "127.0.0.1", "192.0.2.1",
                                        "192.0.2.1" };
    for (unsigned i = 0; i < 5; i++) {
        assert_string_equal(set->items[i].value, want[i]);
        assert_string_equal(set->items[i].key, want[i]);
    }
    assert_int_equal(set->kind, WSEL_KIND_V4);
    expect_warning(cfg, 5, "is read as");
    assert_non_null(strstr(wsel_config_warning(cfg, 0)->message, "'127.1' is read as 127.0.0.1"));
    wsel_config_free(cfg);
    /* ... parameters no set reads ... */
    cfg = must_load("up_thresh = 7\nmulti = maybe\nservice_types = [ [ ] ]\n"
                    "r => { up_thresh = 0.5, multi = true, service_types = up\n"
                    "       a => [ 192.0.2.1, 1 ] }\n", STANZA);
    expect_warning(cfg, 3, "never read");
    assert_int_equal(wsel_config_warning(cfg, 0)->line, 1);
    assert_int_equal(wsel_config_warning(cfg, 1)->line, 2);
    assert_true(wsel_config_top_up_thresh(cfg) == 0.5); /* the default: 7 is not valid */
    wsel_config_free(cfg);
    cfg = must_load("r => { up_thresh = 7, addrs_v4 => { up_thresh = 0.25, a => [ 192.0.2.1, 1 ]"
                    " } }\n", STANZA);
    expect_warning(cfg, 1, "never read");
    assert_true(wsel_config_set(cfg, 0)->up_thresh == 0.25);
    wsel_config_free(cfg);
    /* ... and multi in a CNAME resource, which gdnsd ignores */
    cfg = must_load("multi = maybe\nr => { a => [ a.example., 1 ] }\n", STANZA);
    expect_warning(cfg, 1, "holds CNAMEs");
    wsel_config_free(cfg);
    cfg = must_load("r => { multi = [ x ], a => [ a.example., 1 ] }\n", STANZA);
    expect_warning(cfg, 1, "never read");
    assert_int_equal(wsel_config_set(cfg, 0)->multi_from, WSEL_LEVEL_RESOURCE);
    wsel_config_free(cfg);
    /* where the value is read, it is an error, at its own position */
    expect_err_at("multi = maybe\nr => { a => [ a.example., 1 ] }\ns => { a => [ 192.0.2.1, 1 ] }\n",
                  STANZA, WSEL_E_PARAM, "maybe", 1, SUBS("resource 's'", "true or false"), NULL);
    /* no warnings for a clean config */
    cfg = must_load("up_thresh = 0.7\nr => { up_thresh = 0.5, a => [ 192.0.2.1, 1 ] }\n", STANZA);
    expect_warning(cfg, 0, "");
    wsel_config_free(cfg);
}

/* ---- one test per rejection rule ----------------------------------------------------- */

static void t_err_resource_type(void **state)
{
    (void)state;
    wsel_error err;
    expect_err_at("r => [ 192.0.2.1, 1 ]\n", STANZA, WSEL_E_TYPE, "[", 1,
                  SUBS("resource 'r'", "expected a hash"), &err);
    assert_string_equal(err.object, "r");
    expect_err_at("r => { addrs_v4 => [ 192.0.2.1, 1 ] }\n", STANZA, WSEL_E_TYPE, "[", 1,
                  SUBS("resource 'r'", "stanza 'addrs_v4'", "expected a hash"), &err);
    assert_string_equal(err.path, "addrs_v4");
}

static void t_err_params(void **state)
{
    (void)state;
    wsel_error err;
    expect_err_at("multi = maybe\nr => { a => [ 192.0.2.1, 1 ] }\n", STANZA, WSEL_E_PARAM, "maybe", 1,
                  SUBS("multi", "expected true or false"), NULL);
    expect_err_at("r => { multi = [ true ], a => [ 192.0.2.1, 1 ] }\n", STANZA, WSEL_E_PARAM,
                  "[ true", 1, SUBS("resource 'r'", "item 'multi'", "true or false"), &err);
    assert_string_equal(err.key, "multi");
    expect_err_at("r => { up_thresh = 0, a => [ 192.0.2.1, 1 ] }\n", STANZA, WSEL_E_PARAM,
                  "0,", 1, SUBS("resource 'r'", "up_thresh", "(0.0, 1.0]"), NULL);
    expect_err_at("r => { up_thresh = 1.0001, a => [ 192.0.2.1, 1 ] }\n", STANZA,
                  WSEL_E_PARAM, "1.0001", 1, SUBS("out of range"), NULL);
    expect_err_at("r => { addrs_v4 => { up_thresh = 0.5x, a => [ 192.0.2.1, 1 ] } }\n",
                  STANZA, WSEL_E_PARAM, "0.5x", 1,
                  SUBS("resource 'r'", "stanza 'addrs_v4'", "not a number"), NULL);
    expect_err_at("up_thresh = nan\nr => { a => [ 192.0.2.1, 1 ] }\n", STANZA, WSEL_E_PARAM, "nan", 1, SUBS("up_thresh"),
                  NULL);
    expect_err_at("up_thresh = -0.5\nr => { a => [ 192.0.2.1, 1 ] }\n", STANZA, WSEL_E_PARAM, "-0.5", 1, SUBS("up_thresh"),
                  NULL);
    expect_err_at("service_types = { a = b }\nr => { a => [ 192.0.2.1, 1 ] }\n", STANZA, WSEL_E_PARAM, "{", 1,
                  SUBS("service_types"), NULL);
    expect_err_at("service_types = [ a, [ b ] ]\nr => { a => [ 192.0.2.1, 1 ] }\n", STANZA, WSEL_E_PARAM, "[ b", 1,
                  SUBS("element 2"), NULL);
    expect_err_at("service_types = [ a, \"\" ]\nr => { a => [ 192.0.2.1, 1 ] }\n", STANZA, WSEL_E_PARAM, "\"\"", 1,
                  SUBS("element 2"), NULL);
}

static void t_err_weight(void **state)
{
    (void)state;
    wsel_error err;
    expect_err_at("pubwww => {\n  pubhost01 = [ 192.0.2.1, 0 ]\n}\n", STANZA, WSEL_E_WEIGHT,
                  "0 ]", 1,
                  SUBS("resource 'pubwww', item 'pubhost01': weight '0' out of range; "
                       "expected an integer 1..1048575"),
                  &err);
    assert_string_equal(err.object, "pubwww");
    assert_string_equal(err.key, "pubhost01");
    assert_int_equal(err.line, 2);
    assert_int_equal(err.col, 28);
    expect_err_at("r => { a => [ 192.0.2.1, 1048576 ] }\n", STANZA, WSEL_E_WEIGHT, "1048576",
                  1, SUBS("out of range"), NULL);
    expect_err_at("r => { a => [ 192.0.2.1, -1 ] }\n", STANZA, WSEL_E_WEIGHT, "-1", 1,
                  SUBS("out of range"), NULL);
    expect_err_at("r => { a => [ 192.0.2.1, 99999999999999999999999 ] }\n", STANZA,
                  WSEL_E_WEIGHT, "999", 1, SUBS("out of range"), NULL);
    expect_err_at("r => { a => [ 192.0.2.1, 5x ] }\n", STANZA, WSEL_E_WEIGHT, "5x", 1,
                  SUBS("not an integer"), NULL);
    expect_err_at("r => { a => [ 192.0.2.1, \"\" ] }\n", STANZA, WSEL_E_WEIGHT, "\"\"", 1,
                  SUBS("not an integer"), NULL);
    expect_err_at("r => { a => [ 192.0.2.1, 1.5 ] }\n", STANZA, WSEL_E_WEIGHT, "1.5", 1,
                  SUBS("not an integer"), NULL);
    expect_err_at("r => { g => { a => [ 192.0.2.1, 0 ] } }\n", STANZA, WSEL_E_WEIGHT, "0 ]", 1,
                  SUBS("resource 'r'", "group 'g'", "item 'a'"), &err);
    assert_string_equal(err.path, "g");
    expect_err_at("r => { c => [ x.example., 0 ] }\n", STANZA, WSEL_E_WEIGHT, "0 ]", 1,
                  SUBS("resource 'r'", "item 'c'"), NULL);
}

static void t_err_count(void **state)
{
    (void)state;
    wsel_error err;
    expect_err_at("r => { multi = true }\n", STANZA, WSEL_E_COUNT, "{", 1,
                  SUBS("resource 'r'", "no items", "expected 1..64"), NULL);
    expect_err_at("r => { addrs_v6 => { } }\n", STANZA, WSEL_E_COUNT, "{ }", 1,
                  SUBS("resource 'r'", "stanza 'addrs_v6'", "expected 1..64"), NULL);
    expect_err_at("r => { g => { } }\n", STANZA, WSEL_E_COUNT, "{ }", 1,
                  SUBS("resource 'r'", "item 'g'", "no addresses"), NULL);
    char text[8000];
    size_t n = (size_t)sprintf(text, "r => {\n");
    for (int i = 0; i < 65; i++)
        n += (size_t)sprintf(text + n, " i%d => [ 10.0.0.%d, 1 ]\n", i, i);
    sprintf(text + n, "}\n");
    expect_err_at(text, STANZA, WSEL_E_COUNT, "i64", 1,
                  SUBS("resource 'r'", "item 'i64'", "more than 64"), &err);
    assert_int_equal(err.line, 66);
    assert_int_equal(err.col, 2);
    n = (size_t)sprintf(text, "r => { addrs_v4 => { g => {\n");
    for (int i = 0; i < 65; i++)
        n += (size_t)sprintf(text + n, " a%d => [ 10.0.0.%d, 1 ]\n", i, i);
    sprintf(text + n, "} } }\n");
    expect_err_at(text, STANZA, WSEL_E_COUNT, "a64", 1,
                  SUBS("resource 'r'", "stanza 'addrs_v4'", "item 'g'", "more than 64"), NULL);
}

static void t_err_addr(void **state)
{
    (void)state;
    wsel_error err;
    expect_err_at("r => { addrs_v4 => { a => [ 192.0.2.1, 1 ], b => [ ::1, 1 ] } }\n", STANZA,
                  WSEL_E_ADDR, "::1", 1,
                  SUBS("resource 'r'", "stanza 'addrs_v4'", "item 'b'", "IPv4"), &err);
    assert_string_equal(err.path, "addrs_v4");
    assert_string_equal(err.key, "b");
    expect_err_at("r => { addrs_v6 => { a => [ 192.0.2.1, 1 ] } }\n", STANZA, WSEL_E_ADDR,
                  "192", 1, SUBS("stanza 'addrs_v6'", "item 'a'", "IPv6"), NULL);
    expect_err_at("r => { addrs_v4 => { a => [ www.example., 1 ] } }\n", STANZA, WSEL_E_ADDR,
                  "www", 1, SUBS("item 'a'", "IPv4"), NULL);
    expect_err_at("r => { addrs_v4 => { a => [ 192.0.2.256, 1 ] } }\n", STANZA, WSEL_E_ADDR,
                  "192", 1, SUBS("item 'a'"), NULL);
    expect_err_at("r => { addrs_v6 => { g => { a => [ ::1, 1 ], b => [ 10.0.0.1, 1 ] } } }\n",
                  STANZA, WSEL_E_ADDR, "10.0", 1,
                  SUBS("stanza 'addrs_v6'", "group 'g'", "item 'b'"), &err);
    assert_string_equal(err.path, "addrs_v6/g");
    expect_err_at("r => { g => { a => [ foo.example., 1 ] } }\n", STANZA, WSEL_E_ADDR, "foo",
                  1, SUBS("group 'g'", "item 'a'", "not an IP address"), NULL);
    expect_err_at("r => { g => { a => [ ::1, 1 ], b => [ foo.example., 1 ] } }\n", STANZA,
                  WSEL_E_ADDR, "foo", 1, SUBS("group 'g'", "item 'b'", "IPv6"), NULL);
}

static void t_err_cname(void **state)
{
    (void)state;
    wsel_error err;
    expect_err_at("r => { a => [ www.example.com, 1 ] }\n", STANZA, WSEL_E_CNAME, "www", 1,
                  SUBS("resource 'r'", "item 'a'", "fully qualified"), &err);
    assert_string_equal(err.key, "a");
    expect_err_at("r => { a => [ www..example., 1 ] }\n", STANZA, WSEL_E_CNAME, "www", 1,
                  SUBS("empty label"), NULL);
    expect_err_at("r => { a => [ .example., 1 ] }\n", STANZA, WSEL_E_CNAME, ".ex", 1,
                  SUBS("empty label"), NULL);
    char text[1200];
    char label[70];
    memset(label, 'x', 64);
    label[64] = '\0';
    snprintf(text, sizeof text, "r => { a => [ ok.example., 1 ], b => [ %s.example., 1 ] }\n",
             label);
    expect_err_at(text, STANZA, WSEL_E_CNAME, "xxx", 1, SUBS("item 'b'", "63"), NULL);
    /* 63-octet labels are fine; four of them make 4 * 64 + 1 = 257 > 255 octets. */
    label[63] = '\0';
    snprintf(text, sizeof text, "r => { a => [ %s.%s.%s.x., 1 ] }\n", label, label, label);
    wsel_config *cfg = must_load(text, STANZA); /* 3 * 64 + 2 + 1 = 195 octets */
    wsel_config_free(cfg);
    snprintf(text, sizeof text, "r => { a => [ %s.%s.%s.%s., 1 ] }\n", label, label, label,
             label);
    expect_err_at(text, STANZA, WSEL_E_CNAME, "xxx", 1, SUBS("255"), NULL);
    /* 3 * 64 + 62 + 1 + 1 = 256 > 255; with 61 it is exactly 255. */
    char l62[63];
    memset(l62, 'y', 62);
    l62[62] = '\0';
    snprintf(text, sizeof text, "r => { a => [ %s.%s.%s.%s., 1 ] }\n", label, label, label,
             l62);
    expect_err_at(text, STANZA, WSEL_E_CNAME, "xxx", 1, SUBS("255"), NULL);
    l62[61] = '\0';
    snprintf(text, sizeof text, "r => { a => [ %s.%s.%s.%s., 1 ] }\n", label, label, label,
             l62);
    cfg = must_load(text, STANZA);
    wsel_config_free(cfg);
    /* a space (or control byte) in a label is legal DNS and gdnsd takes it: a warning */
    cfg = must_load("r => { a => [ \"a b.\", 1 ] }\n", STANZA);
    assert_string_equal(wsel_config_set(cfg, 0)->items[0].value, "a\\032b.");
    assert_int_equal(wsel_config_warning_count(cfg), 1);
    assert_non_null(strstr(wsel_config_warning(cfg, 0)->message, "\\032"));
    wsel_config_free(cfg);
    expect_err_at("r => { a => [ \"\", 1 ] }\n", STANZA, WSEL_E_CNAME, "\"\"", 1,
                  SUBS("item 'a'", "is empty"), NULL);
    /* \000 is a NUL byte inside the label, which gdnsd 3.8.1 takes (measured) */
    cfg = must_load("r => { a => [ x\\000y., 1 ] }\n", STANZA);
    assert_string_equal(wsel_config_set(cfg, 0)->items[0].value, "x\\000y.");
    assert_int_equal(wsel_config_warning_count(cfg), 1);
    wsel_config_free(cfg);
    /* The root is a legal, fully qualified name. */
    cfg = must_load("r => { a => [ ., 1 ] }\n", STANZA);
    assert_string_equal(wsel_config_set(cfg, 0)->items[0].value, ".");
    wsel_config_free(cfg);
}

/* A CNAME read from its raw text with zone-file rules, as gdnsd 3.8.1 reads it
 * (doc/weighted.md §3.5): `\.` is a dot inside a label, `\DDD` one byte, `\X` is X, an
 * unescaped dot ends a label; the value is the name gdnsd answers (lower case,
 * presentation form); the state key is the config string with its escapes decoded,
 * which is what gdnsd's monitoring names the item by. Expected values derived by hand. */
static void t_cname_zone_rules(void **state)
{
    (void)state;
    static const struct { const char *text, *value, *key; } ok[] = {
        { "\"foo\\.bar.example.net.\"", "foo\\.bar.example.net.", "foo.bar.example.net." },
        { "foo\\046bar.example.", "foo\\.bar.example.", "foo.bar.example." },
        { "\"a\\\\.b.\"", "a\\\\.b.", "a\\.b." }, /* raw a\\.b. : label "a\" */
        { "A\\066c.Example.NET.", "abc.example.net.", "abc.example.net." },
        { "\"x\\y.\"", "xy.", "xy." }, /* \y is y */
        { "\"a\\\"b.\"", "a\\\"b.", "a\"b." },  /* raw a\"b. : label a"b, shown a\"b */
        { "\"a\\000b.example.\"", "a\\000b.example.", "a" },  /* gdnsd's key stops at NUL */
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        char text[200];
        snprintf(text, sizeof text, "r => { a => [ %s, 1 ] }\n", ok[i].text);
        wsel_config *cfg = must_load(text, STANZA);
        const wsel_item *it = &wsel_config_set(cfg, 0)->items[0];
        assert_string_equal(it->value, ok[i].value);
        assert_string_equal(it->key, ok[i].key);
        wsel_config_free(cfg);
    }
    /* an escaped final dot is inside the last label: not fully qualified */
    expect_err_at("r => { a => [ \"foo.example\\.\", 1 ] }\n", STANZA, WSEL_E_CNAME, "\"foo",
                  1, SUBS("fully qualified"), NULL);
    /* label length counts bytes: 63 escaped dots make one legal label, 64 do not */
    char text[600], lab[64 * 2 + 1];
    for (int i = 0; i < 64; i++)
        memcpy(lab + 2 * i, "\\.", 2);
    lab[126] = '\0';
    snprintf(text, sizeof text, "r => { a => [ \"%s.x.\", 1 ] }\n", lab);
    wsel_config *cfg = must_load(text, STANZA);
    wsel_config_free(cfg);
    lab[126] = '\\';
    lab[128] = '\0';
    snprintf(text, sizeof text, "r => { a => [ \"%s.x.\", 1 ] }\n", lab);
    expect_err_at(text, STANZA, WSEL_E_CNAME, "\"\\.", 1, SUBS("63"), NULL);
    /* a raw NUL byte inside the quotes is refused (D13), \000 is not */
    static const char rawnul[] = "r => { a => [ \"x\0y.\", 1 ] }\n";
    wsel_error err;
    wsel_load_opts o = { .input = STANZA, .flags = WSEL_LOAD_NO_INCLUDE };
    assert_int_not_equal(wsel_config_load_buffer("t.conf", rawnul, sizeof rawnul - 1, &o,
                                                 &cfg, &err), WSEL_OK);
    assert_int_equal(err.code, WSEL_E_CNAME);
    assert_non_null(strstr(err.message, "raw NUL"));
}

/* IPv6 text with a scope id, which gdnsd's numeric getaddrinfo takes (D1): the answer
 * is the address without it; the state key is getnameinfo's text, as gdnsdctl shows it. */
static void t_ipv6_scope(void **state)
{
    (void)state;
    wsel_config *cfg = must_load("r => { a => [ \"fe80::1%lo\", 1 ], b => [ \"2001:db8::1%7\", 2 ] }\n",
                                 STANZA);
    const wsel_set *s = wsel_config_set(cfg, 0);
    assert_int_equal(s->kind, WSEL_KIND_V6);
    assert_string_equal(s->items[0].value, "fe80::1");
    assert_string_equal(s->items[0].key, "fe80::1%lo");
    assert_string_equal(s->items[1].value, "2001:db8::1");
    assert_string_equal(s->items[1].key, "2001:db8::1%7");
    assert_int_equal(s->items[0].addr[0], 0xfe);
    assert_int_equal(s->items[0].addr[15], 1);
    assert_int_equal(wsel_config_warning_count(cfg), 2);
    assert_non_null(strstr(wsel_config_warning(cfg, 0)->message, "scope id"));
    wsel_config_free(cfg);
    /* an interface name only for a link-local address, and only one this host has */
    expect_err_at("r => { addrs_v6 => { a => [ \"2001:db8::1%lo\", 1 ] } }\n", STANZA,
                  WSEL_E_ADDR, "\"2001", 1, SUBS("item 'a'"), NULL);
    expect_err_at("r => { addrs_v6 => { a => [ \"fe80::1%no-such-if9\", 1 ] } }\n", STANZA,
                  WSEL_E_ADDR, "\"fe80", 1, SUBS("item 'a'"), NULL);
    expect_err_at("r => { addrs_v6 => { a => [ \"fe80::1%\", 1 ] } }\n", STANZA,
                  WSEL_E_ADDR, "\"fe80", 1, SUBS("item 'a'"), NULL);
}

/* DYNC targets compared with the zone label by label: an escaped dot does not end a
 * label, so it can move a target out of the zone (gdnsd 3.8.1 accepts both, measured). */
static void t_dync_escaped_dot(void **state)
{
    (void)state;
    wsel_config *cfg = must_load("in => { a => [ FOO.Example.COM., 1 ] }\n"
                                 "out1 => { a => [ \"foo.example\\.com.\", 1 ] }\n"
                                 "out2 => { a => [ \"foo\\.example.com.\", 1 ] }\n"
                                 "apex => { a => [ \"example.com.\", 1 ] }\n"
                                 "other => { a => [ \"xexample.com.\", 1 ] }\n", STANZA);
    wsel_error err;
    bool dep;
    assert_int_equal(wsel_config_check_record(cfg, "in", WSEL_RR_DYNC, "example.com", &dep,
                                              &err), WSEL_E_RECORD);
    assert_int_equal(wsel_config_check_record(cfg, "apex", WSEL_RR_DYNC, "example.com.", &dep,
                                              &err), WSEL_E_RECORD);
    assert_int_equal(wsel_config_check_record(cfg, "out1", WSEL_RR_DYNC, "example.com", &dep,
                                              &err), WSEL_OK);
    /* the error of the call before is gone (include/wsel/config.h) */
    assert_int_equal(err.code, WSEL_OK);
    assert_string_equal(err.message, "");
    assert_int_equal(wsel_config_check_record(cfg, "out2", WSEL_RR_DYNC, "example.com.", &dep,
                                              &err), WSEL_OK);
    assert_int_equal(wsel_config_check_record(cfg, "other", WSEL_RR_DYNC, "example.com.", &dep,
                                              &err), WSEL_OK);
    /* and the zone's own name may hold an escaped dot */
    assert_int_equal(wsel_config_check_record(cfg, "out1", WSEL_RR_DYNC, "example\\.com.", &dep,
                                              &err), WSEL_E_RECORD);
    assert_int_equal(wsel_config_check_record(cfg, "in", WSEL_RR_DYNC, ".", &dep, &err),
                     WSEL_E_RECORD);
    /* the empty origin is the root too; an origin no zone can have (a 64-octet label, a
     * name longer than 255 octets) holds nothing; no origin: nothing to compare */
    assert_int_equal(wsel_config_check_record(cfg, "in", WSEL_RR_DYNC, "", &dep, &err),
                     WSEL_E_RECORD);
    char label64[80], huge[400];
    memset(label64, 'a', 64);
    strcpy(label64 + 64, ".com");
    assert_int_equal(wsel_config_check_record(cfg, "in", WSEL_RR_DYNC, label64, &dep, &err),
                     WSEL_OK);
    memset(huge, 'b', sizeof huge - 1);
    huge[sizeof huge - 1] = '\0';
    assert_int_equal(wsel_config_check_record(cfg, "in", WSEL_RR_DYNC, huge, &dep, &err),
                     WSEL_OK);
    assert_int_equal(wsel_config_check_record(cfg, "in", WSEL_RR_DYNC, NULL, &dep, &err),
                     WSEL_OK);
    wsel_config_free(cfg);
    /* deprecated may be NULL: an address resource by DYNA (fine) and by DYNC (accepted,
     * deprecated, gdnsd 3.8); a record type other than DYNA/DYNC is a bad argument */
    cfg = must_load("ad => { a => [ 192.0.2.1, 1 ] }\n", STANZA);
    assert_int_equal(wsel_config_check_record(cfg, "ad", WSEL_RR_DYNA, "example.com", NULL, &err),
                     WSEL_OK);
    assert_int_equal(wsel_config_check_record(cfg, "ad", WSEL_RR_DYNC, "example.com", NULL, &err),
                     WSEL_OK);
    dep = false;
    assert_int_equal(wsel_config_check_record(cfg, "ad", WSEL_RR_DYNC, "example.com", &dep, &err),
                     WSEL_OK);
    assert_true(dep);
    assert_int_equal(wsel_config_check_record(cfg, "ad", (wsel_rrtype)99, "example.com", &dep,
                                              &err), WSEL_E_ARG);
    assert_int_equal(wsel_config_check_record(NULL, "ad", WSEL_RR_DYNA, NULL, NULL, &err), WSEL_E_ARG);
    assert_int_equal(wsel_config_check_record(cfg, NULL, WSEL_RR_DYNA, NULL, NULL, &err), WSEL_E_ARG);
    wsel_config_free(cfg);
}

static void t_err_mixed(void **state)
{
    (void)state;
    wsel_error err;
    expect_err_at("r => { a => [ 192.0.2.1, 1 ], b => [ ::1, 1 ] }\n", STANZA, WSEL_E_MIXED,
                  "::1", 1, SUBS("resource 'r'", "item 'b'", "item 'a'", "addrs_v4"), &err);
    assert_string_equal(err.key, "b");
    expect_err_at("r => { a => [ 192.0.2.1, 1 ], b => [ x.example., 1 ] }\n", STANZA,
                  WSEL_E_MIXED, "x.ex", 1, SUBS("resource 'r'", "item 'b'"), NULL);
    expect_err_at("r => { a => [ x.example., 1 ], b => [ 192.0.2.1, 1 ] }\n", STANZA,
                  WSEL_E_MIXED, "192", 1, SUBS("item 'b'", "CNAMEs"), NULL);
    expect_err_at("r => { a => [ 192.0.2.1, 1 ], g => { b => [ 192.0.2.2, 1 ] } }\n", STANZA,
                  WSEL_E_MIXED, "{ b", 1, SUBS("item 'g'", "group"), NULL);
    expect_err_at("r => { g => { b => [ 192.0.2.2, 1 ] }, a => [ 192.0.2.1, 1 ] }\n", STANZA,
                  WSEL_E_MIXED, "[ 192.0.2.1", 1, SUBS("item 'a'", "groups"), NULL);
    expect_err_at("r => { g => { b => [ ::2, 1 ] }, h => { c => [ 192.0.2.1, 1 ] } }\n",
                  STANZA, WSEL_E_MIXED, "192", 1, SUBS("group 'h'", "item 'c'"), NULL);
    /* Mixed direct item config beside addrs_v*. */
    expect_err_at("r => {\n  addrs_v4 => { a => [ 192.0.2.1, 1 ] }\n"
                  "  b => [ 192.0.2.2, 1 ]\n}\n", STANZA, WSEL_E_MIXED, "b =>", 1,
                  SUBS("resource 'r'", "item 'b'", "mixed direct item"), &err);
    assert_int_equal(err.line, 3);
    assert_int_equal(err.col, 3);
}

static void t_err_legacy(void **state)
{
    (void)state;
    wsel_error err;
    expect_err_at("r => { cnames => { a => [ x.example., 1 ] } }\n", STANZA, WSEL_E_LEGACY,
                  "cnames", 1, SUBS("resource 'r'", "cnames"), &err);
    assert_string_equal(err.object, "r");
    expect_err_at("r => { addrs_v4 => { a => [ 192.0.2.1, 1 ] }\n cnames => { } }\n", STANZA,
                  WSEL_E_LEGACY, "cnames", 1, SUBS("resource 'r'"), NULL);
}

static void t_err_item(void **state)
{
    (void)state;
    wsel_error err;
    expect_err_at("r => { a => [ 192.0.2.1, 1, 2 ] }\n", STANZA, WSEL_E_ITEM, "[", 1,
                  SUBS("resource 'r'", "item 'a'", "3 elements", "exactly 2"), &err);
    assert_string_equal(err.key, "a");
    expect_err_at("r => { a => [ 192.0.2.1 ] }\n", STANZA, WSEL_E_ITEM, "[", 1,
                  SUBS("1 element", "exactly 2"), NULL);
    expect_err_at("r => { a => [ ] }\n", STANZA, WSEL_E_ITEM, "[", 1, SUBS("0 elements"), NULL);
    expect_err_at("r => { a => 192.0.2.1 }\n", STANZA, WSEL_E_ITEM, "192", 1,
                  SUBS("item 'a'", "exactly 2"), NULL);
    expect_err_at("r => { a => [ 192.0.2.1, 1 ], b => 7 }\n", STANZA, WSEL_E_ITEM, "7", 1,
                  SUBS("item 'b'"), NULL);
    expect_err_at("r => { a => [ [ 192.0.2.1 ], 1 ] }\n", STANZA, WSEL_E_ITEM, "[ 192", 1,
                  SUBS("element 1 is an array"), NULL);
    expect_err_at("r => { a => [ 192.0.2.1, { } ] }\n", STANZA, WSEL_E_ITEM, "{", 2,
                  SUBS("element 2 is a hash"), NULL);
    expect_err_at("r => { g => { a => { b => [ ::1, 1 ] } } }\n", STANZA, WSEL_E_ITEM, "{ b",
                  1, SUBS("group 'g'", "item 'a'", "value is a hash"), NULL);
}

static void t_err_hints(void **state)
{
    (void)state;
    expect_err_at("r => { up_tresh = 0.5, a => [ 192.0.2.1, 1 ] }\n", STANZA, WSEL_E_ITEM,
                  "0.5", 1, SUBS("item 'up_tresh'", "did you mean 'up_thresh'?"), NULL);
    expect_err_at("r => { a => [ 192.0.2.1, 1 ], servce_types = [ web, foo ] }\n", STANZA,
                  WSEL_E_MIXED, "web", 1, SUBS("did you mean 'service_types'?"), NULL);
    expect_err_at("r => { servce_types = [ web, foo ] }\n", STANZA, WSEL_E_CNAME, "web", 1,
                  SUBS("did you mean 'service_types'?"), NULL);
    expect_err_at("r => { a => [ 192.0.2.1, 1 ], mutli = true }\n", STANZA, WSEL_E_ITEM,
                  "true", 1, SUBS("did you mean 'multi'?"), NULL);
    expect_err_at("r => { addrs_v4 => { a => [ 192.0.2.1, 1 ] }, mutli = true }\n", STANZA,
                  WSEL_E_MIXED, "mutli", 1, SUBS("did you mean 'multi'?"), NULL);
    expect_err_at("r => { addrs_v4 => { mult = true, a => [ 192.0.2.1, 1 ] } }\n", STANZA,
                  WSEL_E_ITEM, "true", 1, SUBS("stanza 'addrs_v4'", "did you mean 'multi'?"),
                  NULL);
    expect_err_at("up_tresh = 0.5\n", STANZA, WSEL_E_TYPE, "0.5", 1,
                  SUBS("resource 'up_tresh'", "did you mean 'up_thresh'?"), NULL);
    /* The page's own misspelling, services_types, is one edit away. */
    expect_err_at("r => { services_types = up, a => [ 192.0.2.1, 1 ] }\n", STANZA,
                  WSEL_E_ITEM, "up,", 1, SUBS("did you mean 'service_types'?"), NULL);
    /* Two edits away still hints; three do not. */
    expect_err_at("r => { a => [ 192.0.2.1, 1 ], up_thre = 0.5 }\n", STANZA, WSEL_E_ITEM,
                  "0.5", 1, SUBS("did you mean 'up_thresh'?"), NULL);
    wsel_error far;
    expect_err_at("r => { a => [ 192.0.2.1, 1 ], up_thr = 0.5 }\n", STANZA, WSEL_E_ITEM,
                  "0.5", 1, SUBS("item 'up_thr'"), &far);
    assert_null(strstr(far.message, "did you mean"));
    /* No hint for a label far from every parameter. */
    wsel_error err;
    expect_err_at("r => { a => [ 192.0.2.1, 1 ], lb02 = true }\n", STANZA, WSEL_E_ITEM, "true",
                  1, SUBS("item 'lb02'"), &err);
    assert_null(strstr(err.message, "did you mean"));
}

/* ---- includes -------------------------------------------------------------------------- */

/* One tree for the include tests: a folder (text NULL) before what it holds. */
static const struct {
    const char *path, *text;
} include_tree[] = {
    /* nested includes, relative to the including file */
    { "sub", NULL },
    { "sub/deeper", NULL },
    { "main.conf", "multi = true\n$include{sub/one.conf}\nr => $include{ \"sub/val.conf\" }\n" },
    { "sub/one.conf", "a => { x => [ 192.0.2.1, 1 ] }\n$include{deeper/two.conf}\n" },
    { "sub/deeper/two.conf", "b => { y => [ ::1, 2 ] }, $include{three.conf}\n" },
    { "sub/deeper/three.conf", "c => { z => [ z.example., 3 ] }\n" },
    { "sub/val.conf", "up_thresh = 0.75, w => [ 10.0.0.1, 4 ]\n" },
    /* directories and globs */
    { "d", NULL },
    { "d/20-b.conf", "b => { x => [ 192.0.2.2, 1 ] }\n" },
    { "d/10-a.conf", "a => { x => [ 192.0.2.1, 1 ] }\n" },
    { "d/30-c.inc", "c => { x => [ 192.0.2.3, 1 ] }\n" },
    { "d/.hidden", "this is not even valid [\n" },
    { "empty", NULL },
    { "dir.conf", "$include{d}\n$include{empty}\n" },
    { "glob.conf", "$include{d/*.conf}\n" },
    { "many.conf", "r => $include{d/*.conf}\n" },
    { "one.conf", "r => { $include{d/1*.conf} }\n" },
    { "none.conf", "\n  $include{d/*.nothing}\n" },
    { "emptyval.conf", "r => $include{empty}\n" },
    /* merging */
    { "dup.conf", "a => { x => [ 192.0.2.1, 1 ] }\n$include{part.conf}\n" },
    { "part.conf", "b => { x => [ 192.0.2.1, 1 ] }\n\n a => { }\n" },
    { "arr.conf", "$include{list.conf}\n" },
    { "list.conf", "[ 1, 2 ]\n" },
    { "arrval.conf", "r => { a => $include{list.conf} }\n" },
    { "bad.conf", "r => { a => $include{broken.conf} }\n" },
    { "broken.conf", "\n\nx => [ 1, 2\n" },
    /* cycles */
    { "a.conf", "x => { y => [ 192.0.2.1, 1 ] }\n$include{b.conf}\n" },
    { "b.conf", "\n$include{c.conf}\n" },
    { "c.conf", "\n\n   $include{a.conf}\n" },
    { "self.conf", "r => $include{self.conf}\n" },
    { "twice.conf", "r => $include{v.conf}\ns => $include{v.conf}\n" },
    { "v.conf", "a => [ 192.0.2.1, 1 ]\n" },
};

static void make_include_tree(tmpdir *t)
{
    tmp_init(t);
    for (size_t i = 0; i < sizeof include_tree / sizeof include_tree[0]; i++) {
        if (include_tree[i].text)
            tmp_file(t, include_tree[i].path, include_tree[i].text);
        else
            tmp_dir(t, include_tree[i].path);
    }
}

static void t_include_nested(void **state)
{
    (void)state;
    tmpdir t;
    make_include_tree(&t);
    wsel_config *cfg = NULL;
    wsel_error err;
    int rc = load_path(&t, "main.conf", 0, &cfg, &err);
    if (rc)
        print_error("%s\n", err.message);
    assert_int_equal(rc, WSEL_OK);
    assert_int_equal(wsel_config_resource_count(cfg), 4);
    static const char *const names[] = { "a", "b", "c", "r" };
    for (size_t i = 0; i < 4; i++)
        assert_string_equal(wsel_config_resource(cfg, i)->name, names[i]);
    const wsel_set *c = wsel_config_find(cfg, "c")->sets;
    assert_non_null(strstr(c->items[0].loc.file, "sub/deeper/three.conf"));
    assert_int_equal(c->items[0].loc.line, 1);
    assert_int_equal(c->items[0].loc.col, 8);
    const wsel_set *r = wsel_config_find(cfg, "r")->sets;
    assert_true(r->up_thresh == 0.75);
    assert_int_equal(r->threshold, 3);
    assert_true(r->multi);
    assert_non_null(strstr(r->items[0].loc.file, "sub/val.conf"));
    wsel_config_free(cfg);
    tmp_done(&t);
}

static void t_include_dir_and_glob(void **state)
{
    (void)state;
    tmpdir t;
    make_include_tree(&t);
    wsel_config *cfg = NULL;
    wsel_error err;
    /* A directory: every file, sorted as glob * sorts (dot files excluded). */
    assert_int_equal(load_path(&t, "dir.conf", 0, &cfg, &err), WSEL_OK);
    assert_int_equal(wsel_config_resource_count(cfg), 3);
    assert_string_equal(wsel_config_resource(cfg, 0)->name, "a");
    assert_string_equal(wsel_config_resource(cfg, 1)->name, "b");
    assert_string_equal(wsel_config_resource(cfg, 2)->name, "c");
    wsel_config_free(cfg);
    /* A glob pattern in hash-merge position merges each match in order. */
    assert_int_equal(load_path(&t, "glob.conf", 0, &cfg, &err), WSEL_OK);
    assert_int_equal(wsel_config_resource_count(cfg), 2);
    assert_string_equal(wsel_config_resource(cfg, 1)->name, "b");
    wsel_config_free(cfg);
    /* A single match merged into r's hash makes r one group 'a'. */
    assert_int_equal(load_path(&t, "one.conf", 0, &cfg, &err), WSEL_OK);
    const wsel_set *s = wsel_config_set(cfg, 0);
    assert_int_equal(s->mode, WSEL_MODE_GROUPED_SINGLE);
    assert_int_equal(s->n_groups, 1);
    assert_string_equal(s->groups[0].label, "a");
    assert_non_null(strstr(s->groups[0].loc.file, "10-a.conf"));
    wsel_config_free(cfg);
    /* An array file as a value is that array: here a 2-element item, [ 1, 2 ], whose
     * "1" gdnsd's getaddrinfo reads as 0.0.0.1 (a warning, D1). */
    assert_int_equal(load_path(&t, "arrval.conf", 0, &cfg, &err), WSEL_OK);
    assert_string_equal(wsel_config_set(cfg, 0)->items[0].value, "0.0.0.1");
    assert_int_equal(wsel_config_warning_count(cfg), 1);
    assert_non_null(strstr(wsel_config_warning(cfg, 0)->file, "list.conf"));
    wsel_config_free(cfg);
    /* The same file included twice side by side is not a cycle. */
    assert_int_equal(load_path(&t, "twice.conf", 0, &cfg, &err), WSEL_OK);
    assert_int_equal(wsel_config_resource_count(cfg), 2);
    wsel_config_free(cfg);
    tmp_done(&t);
}

/* Every include error of the tree: code, position, the file it is in (by suffix; NULL:
 * the top file) and what the message says. */
static void t_include_errors(void **state)
{
    (void)state;
    static const struct {
        const char *top;
        unsigned flags;
        int code;
        unsigned line, col;
        const char *in;
        const char *subs[4];
    } cases[] = {
        /* in value position several matches, or none in an empty folder, are errors */
        { "many.conf", 0, WSEL_E_INCLUDE, 1, 6, NULL, { "2 files", "exactly one" } },
        { "emptyval.conf", 0, WSEL_E_INCLUDE, 1, 6, NULL, { "exactly one" } },
        { "none.conf", 0, WSEL_E_INCLUDE, 2, 3, NULL, { "no file matches" } },
        /* duplicates across a merge: at the second key, in the included file */
        { "dup.conf", 0, WSEL_E_DUPKEY, 3, 2, "part.conf",
          { "'a' in the top-level hash", "dup.conf:1:1" } },
        { "arr.conf", 0, WSEL_E_TYPE, 1, 1, "list.conf", { "array" } },
        /* syntax errors inside an included file name that file and position */
        { "bad.conf", 0, WSEL_E_SYNTAX, 4, 1, "broken.conf", { "']'" } },
        { "a.conf", 0, WSEL_E_INCLUDE_CYCLE, 3, 4, "c.conf",
          { "a.conf -> ", "b.conf -> ", "c.conf -> " } },
        { "self.conf", 0, WSEL_E_INCLUDE_CYCLE, 1, 6, NULL, { "self.conf -> " } },
        /* with includes disabled, the first $include is rejected where it stands */
        { "main.conf", WSEL_LOAD_NO_INCLUDE, WSEL_E_INCLUDE, 2, 1, NULL, { "disabled" } },
    };
    tmpdir t;
    make_include_tree(&t);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        wsel_config *cfg = (wsel_config *)1;
        wsel_error err;
        print_message("# %s\n", cases[i].top);
        int rc = load_path(&t, cases[i].top, cases[i].flags, &cfg, &err);
        check_error(&err, rc, cases[i].code, cases[i].line, cases[i].col, cases[i].subs);
        assert_null(cfg);
        const char *in = cases[i].in ? cases[i].in : cases[i].top;
        size_t fl = strlen(err.file), il = strlen(in);
        assert_true(fl > il && strcmp(err.file + fl - il, in) == 0 && err.file[fl - il - 1] == '/');
    }
    tmp_done(&t);
}

static void t_include_from_buffer(void **state)
{
    (void)state;
    tmpdir t;
    tmp_init(&t);
    tmp_file(&t, "inc.conf", "a => [ 192.0.2.9, 9 ]\n");
    char name[300];
    tmp_path(&t, "virtual.conf", name, sizeof name); /* need not exist */
    static const char text[] = "r => { $include{inc.conf} }\n";
    wsel_config *cfg = NULL;
    wsel_error err;
    wsel_load_opts o = { .input = STANZA };
    assert_int_equal(wsel_config_load_buffer(name, text, strlen(text), &o, &cfg, &err),
                     WSEL_OK);
    assert_int_equal(wsel_config_set(cfg, 0)->items[0].weight, 9);
    wsel_config_free(cfg);
    o.max_includes = 1;
    static const char two[] = "r => { $include{inc.conf} }\ns => { $include{inc.conf} }\n";
    int rc = wsel_config_load_buffer(name, two, strlen(two), &o, &cfg, &err);
    check_error(&err, rc, WSEL_E_LIMIT, 2, 8, SUBS("limit of 1"));
    tmp_done(&t);
}

/* A chain of files each including the next: `len` files, the last holding a resource. */
static int load_chain(const char *root, int len, wsel_error *err)
{
    char p[300];
    for (int i = 0; i < len; i++) {
        snprintf(p, sizeof p, "%s/n%03d.conf", root, i);
        FILE *f = fopen(p, "w");
        assert_non_null(f);
        if (i + 1 < len)
            fprintf(f, "$include{n%03d.conf}\n", i + 1);
        else
            fprintf(f, "r => { a => [ 192.0.2.1, 1 ] }\n");
        fclose(f);
    }
    snprintf(p, sizeof p, "%s/n000.conf", root);
    wsel_config *cfg = NULL;
    wsel_load_opts o = { .input = STANZA };
    int rc = wsel_config_load_file(p, &o, &cfg, err);
    wsel_config_free(cfg);
    for (int i = 0; i < len; i++) {
        snprintf(p, sizeof p, "%s/n%03d.conf", root, i);
        assert_int_equal(unlink(p), 0);
    }
    return rc;
}

static void t_include_nesting_limit(void **state)
{
    (void)state;
    tmpdir t;
    tmp_init(&t);
    wsel_error err;
    /* The top file plus 127 nested includes is the deepest chain accepted. */
    assert_int_equal(load_chain(t.root, 128, &err), WSEL_OK);
    int rc = load_chain(t.root, 129, &err);
    check_error(&err, rc, WSEL_E_LIMIT, 1, 1, SUBS("nested deeper than the limit of 128"));
    assert_non_null(strstr(err.file, "n127.conf"));
    tmp_done(&t);
}

static void t_include_syntax_and_paths(void **state)
{
    (void)state;
    tmpdir t;
    tmp_init(&t);
    char abs[300], text[700];
    tmp_file(&t, "abs.inc", "a => [ 192.0.2.7, 7 ]\n");
    tmp_path(&t, "abs.inc", abs, sizeof abs);
    /* An absolute path does not depend on the including file's directory. */
    snprintf(text, sizeof text, "r => { $include{ \"%s\" } }\n", abs);
    wsel_config *cfg = NULL;
    wsel_error err;
    wsel_load_opts o = { .input = STANZA };
    assert_int_equal(wsel_config_load_buffer("elsewhere/x.conf", text, strlen(text), &o, &cfg,
                                             &err), WSEL_OK);
    assert_int_equal(wsel_config_set(cfg, 0)->items[0].weight, 7);
    wsel_config_free(cfg);
    static const struct {
        const char *text;
        int code;
        unsigned line, col;
        const char *sub;
    } bad[] = {
        { "r => $include x\n", WSEL_E_SYNTAX, 1, 15, "'{' after $include" },
        { "r => $include{ }\n", WSEL_E_SYNTAX, 1, 16, "a path" },
        { "r => $include{ a b }\n", WSEL_E_SYNTAX, 1, 18, "'}' closing" },
        { "r => $include{ \"\" }\n", WSEL_E_INCLUDE, 1, 6, "empty $include{} path" },
        { "r => $include{ a\\000b }\n", WSEL_E_INCLUDE, 1, 16, "NUL" },
        { "$include{ \"no such file\" }\n", WSEL_E_INCLUDE, 1, 1, "no file matches" },
        { "$includes{x}\n", WSEL_E_SYNTAX, 1, 1, "'$'" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int rc = wsel_config_load_buffer("t.conf", bad[i].text, strlen(bad[i].text), &o, &cfg,
                                         &err);
        check_error(&err, rc, bad[i].code, bad[i].line, bad[i].col, SUBS(bad[i].sub));
        assert_null(cfg);
    }
    tmp_done(&t);
}

static void t_big_file(void **state)
{
    (void)state;
    /* Files larger than any read buffer, and the size limit at its exact boundary. */
    tmpdir t;
    tmp_init(&t);
    size_t cap = 200000, n = 0;
    char *text = malloc(cap);
    assert_non_null(text);
    n += (size_t)sprintf(text + n, "r => {\n");
    for (int i = 0; i < 64; i++) {
        n += (size_t)sprintf(text + n, "  i%d => [ 10.0.0.%d, %d ] # ", i, i, i + 1);
        memset(text + n, 'c', 2000);
        n += 2000;
        text[n++] = '\n';
    }
    n += (size_t)sprintf(text + n, "}\n");
    tmp_file(&t, "big.conf", text);
    char p[300];
    tmp_path(&t, "big.conf", p, sizeof p);
    wsel_config *cfg = NULL;
    wsel_error err;
    wsel_load_opts o = { .input = STANZA, .max_file_size = n };
    assert_int_equal(wsel_config_load_file(p, &o, &cfg, &err), WSEL_OK);
    const wsel_set *s = wsel_config_set(cfg, 0);
    assert_int_equal(s->n_items, 64);
    assert_int_equal(s->total, 64 * 65 / 2);
    assert_int_equal(s->items[63].loc.line, 65);
    wsel_config_free(cfg);
    o.max_file_size = n - 1;
    assert_int_equal(wsel_config_load_file(p, &o, &cfg, &err), WSEL_E_LIMIT);
    assert_null(cfg);
    assert_int_equal(wsel_config_load_buffer("t.conf", text, n, &o, &cfg, &err), WSEL_E_LIMIT);
    o.max_file_size = n;
    assert_int_equal(wsel_config_load_buffer("t.conf", text, n, &o, &cfg, &err), WSEL_OK);
    wsel_config_free(cfg);
    free(text);
    tmp_done(&t);
}

/* ---- limits --------------------------------------------------------------------------- */

static void t_limits(void **state)
{
    (void)state;
    wsel_config *cfg = NULL;
    wsel_error err;
    /* Nesting: the top-level hash is depth 1; r's hash 2; the array 3. */
    wsel_load_opts o = { .input = STANZA, .max_depth = 3 };
    static const char ok[] = "r => { a => [ 192.0.2.1, 1 ] }\n";
    assert_int_equal(wsel_config_load_buffer("t.conf", ok, strlen(ok), &o, &cfg, &err),
                     WSEL_OK);
    wsel_config_free(cfg);
    o.max_depth = 2;
    int rc = wsel_config_load_buffer("t.conf", ok, strlen(ok), &o, &cfg, &err);
    check_error(&err, rc, WSEL_E_LIMIT, 1, 13, SUBS("limit of 2"));
    o.max_depth = 1;
    static const char flat[] = "multi = true\nr => { }\n";
    rc = wsel_config_load_buffer("t.conf", flat, strlen(flat), &o, &cfg, &err);
    check_error(&err, rc, WSEL_E_LIMIT, 2, 6, SUBS("limit of 1"));
    /* A file included as a value is one level deeper than where it stands. */
    {
        tmpdir t;
        tmp_init(&t);
        tmp_file(&t, "v.inc", "a => [ 192.0.2.1, 1 ]\n");
        tmp_file(&t, "m.conf", "r => $include{v.inc}\n");
        char p[300];
        o.max_depth = 2;
        rc = wsel_config_load_file(tmp_path(&t, "m.conf", p, sizeof p), &o, &cfg, &err);
        check_error(&err, rc, WSEL_E_LIMIT, 1, 6, SUBS("limit of 2"));
        assert_non_null(strstr(err.file, "v.inc"));
        o.max_depth = 3;
        rc = wsel_config_load_file(tmp_path(&t, "m.conf", p, sizeof p), &o, &cfg, &err);
        assert_int_equal(rc, WSEL_OK);
        wsel_config_free(cfg);
        tmp_done(&t);
    }
    /* The default depth limit (64) stops a deep bracket bomb without crashing. */
    size_t n = 100000;
    char *deep = malloc(n + 16);
    assert_non_null(deep);
    memcpy(deep, "x => ", 5);
    memset(deep + 5, '[', n);
    deep[n + 5] = '\0';
    rc = wsel_config_load_buffer("t.conf", deep, strlen(deep), NULL, &cfg, &err);
    check_error(&err, rc, WSEL_E_LIMIT, 1, 5 + 64, SUBS("limit of 64"));
    /* A huge max_depth is capped, so the parser's recursion stays bounded. */
    o.max_depth = 1000000000u;
    rc = wsel_config_load_buffer("t.conf", deep, strlen(deep), &o, &cfg, &err);
    assert_int_equal(rc, WSEL_E_LIMIT);
    free(deep);
    /* Strings. */
    o = (wsel_load_opts){ .input = STANZA, .max_string = 8 };
    static const char str[] = "abcdefgh = 1\n \"abcdefghi\" = 2\n";
    rc = wsel_config_load_buffer("t.conf", str, strlen(str), &o, &cfg, &err);
    check_error(&err, rc, WSEL_E_LIMIT, 2, 2, SUBS("limit of 8"));
    char *huge = malloc(70000 + 8);
    assert_non_null(huge);
    memset(huge, 'a', 70000);
    memcpy(huge + 70000, " = 1\n", 6);
    rc = wsel_config_load_buffer("t.conf", huge, strlen(huge), NULL, &cfg, &err);
    check_error(&err, rc, WSEL_E_LIMIT, 1, 1, SUBS("65536"));
    free(huge);
    /* File size. */
    o = (wsel_load_opts){ .input = STANZA, .max_file_size = 10 };
    rc = wsel_config_load_buffer("t.conf", ok, strlen(ok), &o, &cfg, &err);
    assert_int_equal(rc, WSEL_E_LIMIT);
    assert_non_null(strstr(err.message, "limit of 10 bytes"));
    tmpdir t;
    tmp_init(&t);
    tmp_file(&t, "big.conf", ok);
    tmp_file(&t, "main.conf", "\n $include{big.conf}\n");
    char p[300];
    rc = wsel_config_load_file(tmp_path(&t, "big.conf", p, sizeof p), &o, &cfg, &err);
    assert_int_equal(rc, WSEL_E_LIMIT);
    o.max_file_size = 30;
    rc = wsel_config_load_file(tmp_path(&t, "main.conf", p, sizeof p), &o, &cfg, &err);
    check_error(&err, rc, WSEL_E_LIMIT, 2, 2, SUBS("big.conf", "limit of 30 bytes"));
    tmp_done(&t);
}

static void t_api_errors(void **state)
{
    (void)state;
    wsel_config *cfg = (wsel_config *)1;
    wsel_error err;
    assert_int_equal(wsel_config_load_buffer("x", "", 0, NULL, NULL, &err), WSEL_E_ARG);
    assert_int_equal(wsel_config_load_buffer("x", NULL, 3, NULL, &cfg, &err), WSEL_E_ARG);
    assert_null(cfg);
    assert_int_equal(wsel_config_load_file(NULL, NULL, &cfg, &err), WSEL_E_ARG);
    wsel_load_opts o = { .input = (wsel_input)7 };
    assert_int_equal(wsel_config_load_buffer("x", "", 0, &o, &cfg, &err), WSEL_E_ARG);
    int rc = wsel_config_load_file("/nonexistent/wsel.conf", NULL, &cfg, &err);
    assert_int_equal(rc, WSEL_E_IO);
    assert_non_null(strstr(err.message, "/nonexistent/wsel.conf"));
    /* A NULL err is allowed everywhere. */
    assert_int_equal(wsel_config_load_buffer(NULL, "r => 1", 6, NULL, &cfg, NULL), WSEL_E_TYPE);
    assert_null(cfg);
    wsel_config_free(NULL);
    assert_int_equal(wsel_config_resource_count(NULL), 0);
    assert_null(wsel_config_find(NULL, "x"));
}

/* ---- zone records ------------------------------------------------------------------------ */

static void t_check_record(void **state)
{
    (void)state;
    wsel_config *cfg = wsel_test_load_synopsis();
    wsel_error err;
    bool dep = true;
    /* Address resources: DYNA fine, DYNC accepted but deprecated. */
    assert_int_equal(wsel_config_check_record(cfg, "pubwww", WSEL_RR_DYNA, "example.com.", &dep,
                                              &err), WSEL_OK);
    assert_false(dep);
    assert_int_equal(wsel_config_check_record(cfg, "mixed", WSEL_RR_DYNC, "example.com.", &dep,
                                              &err), WSEL_OK);
    assert_true(dep);
    /* CNAME resources: DYNA is an error. */
    int rc = wsel_config_check_record(cfg, "corpwww", WSEL_RR_DYNA, "example.com.", &dep, &err);
    assert_int_equal(rc, WSEL_E_RECORD);
    assert_false(dep);
    assert_string_equal(err.object, "corpwww");
    assert_non_null(strstr(err.message, "DYNA"));
    /* DYNC whose targets (lb0N.example.org.) lie outside the zone: fine. */
    assert_int_equal(wsel_config_check_record(cfg, "corpwww", WSEL_RR_DYNC, "example.com.",
                                              &dep, &err), WSEL_OK);
    assert_false(dep);
    assert_int_equal(wsel_config_check_record(cfg, "corpwww", WSEL_RR_DYNC, "ample.org",
                                              NULL, &err), WSEL_OK);
    assert_int_equal(wsel_config_check_record(cfg, "cn", WSEL_RR_DYNC,
                                              "lb03.example.org.", NULL, &err), WSEL_OK);
    /* ... inside it (any case, trailing dot optional, the zone itself too): an error. */
    static const char *const zones[] = { "example.org.", "EXAMPLE.org", "org", ".",
                                         "lb02.example.org" };
    for (size_t i = 0; i < 5; i++) {
        rc = wsel_config_check_record(cfg, "corpwww", WSEL_RR_DYNC, zones[i], NULL, &err);
        assert_int_equal(rc, WSEL_E_RECORD);
        assert_non_null(strstr(err.message, "lb0"));
    }
    /* Unknown resources. */
    rc = wsel_config_check_record(cfg, "nosuch", WSEL_RR_DYNA, "example.com.", &dep, &err);
    assert_int_equal(rc, WSEL_E_NORESOURCE);
    assert_non_null(strstr(err.message, "nosuch"));
    wsel_config_free(cfg);
}

static void t_key_hint(void **state)
{
    (void)state;
    assert_string_equal(wsel_config_key_hint("up_tresh"), "up_thresh");
    assert_string_equal(wsel_config_key_hint("mutli"), "multi");
    assert_string_equal(wsel_config_key_hint("MULTI"), "multi");
    assert_string_equal(wsel_config_key_hint("servce_types"), "service_types");
    assert_string_equal(wsel_config_key_hint("addrs_v5"), "addrs_v4");
    assert_null(wsel_config_key_hint("multi"));
    assert_null(wsel_config_key_hint("up_thresh"));
    assert_null(wsel_config_key_hint("pubwww"));
    assert_null(wsel_config_key_hint("lb01"));
    assert_null(wsel_config_key_hint(""));
    assert_null(wsel_config_key_hint(NULL));
}

static void t_error_strings(void **state)
{
    (void)state;
    for (int c = 0; c < WSEL_STATUS_COUNT_; c++)
        assert_string_not_equal(wsel_strerror(c), "unknown error");
    assert_string_equal(wsel_strerror(-1), "unknown error");
    wsel_error err;
    char buf[2000];
    expect_err_at("r => { a => [ 192.0.2.1, 0 ] }\n", STANZA, WSEL_E_WEIGHT, "0 ]", 1, NULL,
                  &err);
    wsel_error_format(&err, buf, sizeof buf);
    assert_true(strncmp(buf, "t.conf:1:26: resource 'r', item 'a': weight '0'", 47) == 0);
}

/* The bump allocator behind parse trees (core/weighted/weighted_arena.h): every block of
 * zeroed memory it hands out stays its own, whatever the mix of sizes (small ones packed,
 * a block growing to the next, a big request getting a block of its own behind the
 * current one), at the alignment asked; impossible sizes are NULL, never a short block.
 * The checks are on contents, so an overlap or a lost block shows; ASan and valgrind
 * (CI) see any write past a block and any block not freed. */
static void t_arena(void **state)
{
    (void)state;
    wsel__arena a = {0};
    enum { N = 600 };
    unsigned char *p[N];
    size_t len[N];
    for (size_t i = 0; i < N; i++) {
        /* sizes 0..96, now and then a big one (a quarter of a block and more) */
        len[i] = i % 50 == 49 ? 20000 + i : (i * 37) % 97;
        size_t align = (size_t)1 << (i % 5);
        p[i] = i % 3 ? wsel__arena_alloc_aligned(&a, len[i], align) : wsel__arena_alloc(&a, len[i]);
        assert_non_null(p[i]);
        assert_int_equal((uintptr_t)p[i] % (i % 3 ? align : _Alignof(max_align_t)), 0);
        for (size_t k = 0; k < len[i]; k++)
            assert_int_equal(p[i][k], 0);
        memset(p[i], (int)(i % 251) + 1, len[i]);
    }
    for (size_t i = 0; i < N; i++)
        for (size_t k = 0; k < len[i]; k++)
            if (p[i][k] != (unsigned char)(i % 251 + 1))
                fail_msg("allocation %zu byte %zu overwritten", i, k);
    for (size_t i = 1; i < N; i++) /* a size-0 request is a byte of its own */
        if (len[i] == 0 && len[i - 1] == 0)
            assert_ptr_not_equal(p[i], p[i - 1]);
    assert_null(wsel__arena_alloc(&a, SIZE_MAX));
    assert_null(wsel__arena_array(&a, SIZE_MAX / 2, 4));
    int *arr = wsel__arena_array(&a, 10, sizeof *arr);
    assert_non_null(arr);
    assert_null(wsel__arena_strndup(&a, "x", SIZE_MAX));
    char *s = wsel__arena_strndup(&a, "abcdef", 3);
    assert_string_equal(s, "abc");
    assert_string_equal(wsel__arena_strndup(&a, "", 0), "");
    assert_string_equal(wsel__arena_strdup(&a, "weighted"), "weighted");

    /* growable lists: resized outside the arena (cap says what they hold), then adopted
     * (a small one copied, the caller keeping its buffer; a large one kept as a block of
     * its own, the caller's pointer cleared), contents kept either way */
    assert_null(wsel__arena_vec_resize(NULL, SIZE_MAX));
    for (size_t bytes = 16; bytes <= 65536; bytes *= 64) {
        unsigned char *v = wsel__arena_vec_resize(NULL, 8);
        assert_non_null(v);
        assert_int_equal(wsel__arena_vec_cap(v), 8);
        v = wsel__arena_vec_resize(v, bytes);
        assert_non_null(v);
        assert_int_equal(wsel__arena_vec_cap(v), bytes);
        for (size_t k = 0; k < bytes; k++)
            v[k] = (unsigned char)(k * 7);
        void *mine = v;
        unsigned char *kept = wsel__arena_vec_adopt(&a, &mine, bytes);
        assert_non_null(kept);
        for (size_t k = 0; k < bytes; k++)
            if (kept[k] != (unsigned char)(k * 7))
                fail_msg("adopted list of %zu bytes: byte %zu changed", bytes, k);
        if (bytes < 4096) {
            assert_ptr_equal(mine, v); /* copied: still the caller's */
            assert_ptr_not_equal(kept, v);
            wsel__arena_vec_free(mine);
        } else {
            assert_null(mine); /* the arena's now */
        }
    }
    wsel__arena_free(&a);
    assert_null(a.head);
    /* a large list adopted by an empty arena is its first block */
    unsigned char *v = wsel__arena_vec_resize(NULL, 65536);
    assert_non_null(v);
    v[65535] = 9;
    void *mine = v;
    unsigned char *kept = wsel__arena_vec_adopt(&a, &mine, 65536);
    assert_non_null(kept);
    assert_null(mine);
    assert_int_equal(kept[65535], 9);
    assert_non_null(a.head);
    wsel__arena_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_synopsis),
        cmocka_unit_test(t_arena),
        cmocka_unit_test(t_synopsis_auto_and_stanza),
        cmocka_unit_test(t_synopsis_stanza_form),
        cmocka_unit_test(t_threshold_007),
        cmocka_unit_test(t_defaults_and_levels),
        cmocka_unit_test(t_multi_ignored_for_cnames),
        cmocka_unit_test(t_weight_forms),
        cmocka_unit_test(t_max_sizes),
        cmocka_unit_test(t_syntax_separators_and_comments),
        cmocka_unit_test(t_syntax_quotes_and_escapes),
        cmocka_unit_test(t_syntax_backslash_newline),
        cmocka_unit_test(t_syntax_errors),
        cmocka_unit_test(t_duplicate_keys),
        cmocka_unit_test(t_nul_in_names),
        cmocka_unit_test(t_top_level_array),
        cmocka_unit_test(t_empty_inputs),
        cmocka_unit_test(t_whole_config),
        cmocka_unit_test(t_err_svctype),
        cmocka_unit_test(t_err_resource_type),
        cmocka_unit_test(t_err_params),
        cmocka_unit_test(t_gdnsd_verdicts),
        cmocka_unit_test(t_err_weight),
        cmocka_unit_test(t_err_count),
        cmocka_unit_test(t_err_addr),
        cmocka_unit_test(t_err_cname),
        cmocka_unit_test(t_cname_zone_rules),
        cmocka_unit_test(t_ipv6_scope),
        cmocka_unit_test(t_dync_escaped_dot),
        cmocka_unit_test(t_err_mixed),
        cmocka_unit_test(t_err_legacy),
        cmocka_unit_test(t_err_item),
        cmocka_unit_test(t_err_hints),
        cmocka_unit_test(t_include_nested),
        cmocka_unit_test(t_include_dir_and_glob),
        cmocka_unit_test(t_include_errors),
        cmocka_unit_test(t_include_from_buffer),
        cmocka_unit_test(t_include_nesting_limit),
        cmocka_unit_test(t_include_syntax_and_paths),
        cmocka_unit_test(t_big_file),
        cmocka_unit_test(t_limits),
        cmocka_unit_test(t_api_errors),
        cmocka_unit_test(t_check_record),
        cmocka_unit_test(t_error_strings),
        cmocka_unit_test(t_key_hint),
    };
    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests_name("config", tests, NULL, NULL);
}
