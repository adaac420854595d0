/* cmocka glue for the tests; see support.h. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "support.h"

/* ---- loading ---------------------------------------------------------------------- */

int wsel_test_try_load(const char *text, wsel_input input, wsel_config **out,
                       wsel_error *err)
{
    wsel_load_opts opts = { 0 };
    opts.input = input;
    opts.flags = WSEL_LOAD_NO_INCLUDE;
    return wsel_config_load_buffer("test.conf", text, strlen(text), &opts, out, err);
}

/* Fails the current test unless a load succeeded. */
static wsel_config *loaded(int rc, wsel_config *cfg, const wsel_error *err, const char *what,
                           const char *text)
{
    if (rc != WSEL_OK || !cfg) {
        char buf[2048];
        print_error("%s failed to load: %s\n%s%.2000s%s", what,
                    wsel_error_format(err, buf, sizeof buf), text ? "--- text:\n" : "",
                    text ? text : "", text ? "\n" : "");
        fail();
    }
    return cfg;
}

wsel_config *wsel_test_load_as(const char *text, wsel_input input)
{
    wsel_config *cfg = NULL;
    wsel_error err;
    wsel_error_clear(&err);
    int rc = wsel_test_try_load(text, input, &cfg, &err);
    return loaded(rc, cfg, &err, "config text", text);
}

wsel_config *wsel_test_load(const char *text)
{
    return wsel_test_load_as(text, WSEL_INPUT_STANZA);
}

wsel_gslb_config *wsel_test_gslb_load(const char *text)
{
    wsel_gslb_config *c = NULL;
    wsel_error err;
    int rc = wsel_gslb_config_load_buffer("t.conf", text, strlen(text), &c, &err);
    if (rc) {
        char buf[2048];
        print_error("config: %s\n", wsel_error_format(&err, buf, sizeof buf));
    }
    assert_int_equal(rc, 0);
    return c;
}

int wsel_test_gslb_load_err(const char *text, wsel_error *err)
{
    wsel_gslb_config *c = NULL;
    int rc = wsel_gslb_config_load_buffer("t.conf", text, strlen(text), &c, err);
    assert_null(c);
    return rc;
}

int wsel_test_open(const char *text, wsel_config **cfg, wsel_state **st)
{
    *st = NULL;
    if (wsel_test_try_load(text, WSEL_INPUT_STANZA, cfg, NULL) != WSEL_OK)
        return -1;
    if (wsel_state_new(*cfg, st, NULL) != WSEL_OK) {
        wsel_config_free(*cfg);
        *cfg = NULL;
        return -1;
    }
    return 0;
}

void wsel_test_close(wsel_config *cfg, wsel_state *st)
{
    wsel_state_free(st);
    wsel_config_free(cfg);
}

int wsel_test_teardown(void **state)
{
    struct cfg_state {
        wsel_config *cfg;
        wsel_state *st;
    } *f = *state;
    if (f)
        wsel_test_close(f->cfg, f->st);
    free(f);
    return 0;
}

wsel_config *wsel_test_load_synopsis(void)
{
    const char *path = wsel_kit_srcpath("examples/synopsis.conf");
    wsel_config *cfg = NULL;
    wsel_error err;
    wsel_error_clear(&err);
    int rc = wsel_config_load_file(path, NULL, &cfg, &err);
    return loaded(rc, cfg, &err, path, NULL);
}

/* ---- random state ------------------------------------------------------------------ */

void wsel_test_random_state(wsel_state *st, const wsel_config *cfg, uint64_t seed,
                            double p_down, bool random_ttl)
{
    wsel_error err;
    wsel_error_clear(&err);
    if (wsel_kit_weighted_random_state(st, cfg, seed, p_down, random_ttl, &err) != WSEL_OK) {
        char buf[2048];
        print_error("wsel_state_set failed: %s\n", wsel_error_format(&err, buf, sizeof buf));
        fail();
    }
}

wsel_mstate wsel_test_item_state(const wsel_state *st, const wsel_config *cfg,
                                 const char *name, unsigned i)
{
    const wsel_resource *r = wsel_config_find(cfg, name);
    assert_non_null(r);
    const wsel_set *s = &r->sets[0];
    assert_true(i < s->n_items);
    return wsel_state_item(st, s, &s->items[i]);
}
