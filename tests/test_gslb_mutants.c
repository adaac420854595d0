/* The GSLB calls under allocation failure, written for generated mutants of the GSLB code
 * that no other test could reach (scripts/mutgen.py; README, *Mutation testing*): every
 * allocation a call makes is made to fail in turn (config load, lint, inputs load, state,
 * a resolve that stores a persistence record, the state as JSON). The call must then
 * fail with WSEL_E_NOMEM and an error record that says "out of memory" without a
 * position (line and col 0: "0 when no position applies", include/wsel/common.h), and
 * leave no block allocated; or manage without the block. Kills
 * core/gslb/gslb_parse.c@5ad939b312:const:0:1:2 (the config's own allocation failing gave
 * column 1) and core/gslb/gslb_parse.c@73c573788f+2:stmt:free(mark);:;:1 (a config with a
 * region leaked the cycle check's marks).
 *
 * Same allocator wrappers as tests/test_ring_nomem.c (tests/support/nomem.h); skipped
 * under sanitizers and under valgrind. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "wsel.h"

#include "support/nomem.h"

#ifndef NOMEM_SKIP
/* A config touching each part of the reader: servers with depends-on, pools with every
 * step, a wide IP with persistence and a last-resort pool, a region, topology records,
 * global settings, and unknown attributes and statements (kept for lint). */
static const char conf[] =
    "#TMSH-VERSION: 15.1.0\n"
    "ltm pool /Common/other { members { a:80 } }\n"
    "gtm server /Common/s1 { datacenter /Common/DC1 product bigip virtual-servers {\n"
    "  v1 { destination 10.0.0.1:80 } v2 { destination 10.0.0.2:80 depends-on { /Common/s1:v1 } }\n"
    "  v3 { destination 10.0.0.3:80 } } frobnicate 1 }\n"
    "gtm pool a /Common/p1 { load-balancing-mode topology alternate-mode ratio fallback-mode none\n"
    "  members { s1:v1 { member-order 0 } s1:v2 { ratio 2 } } }\n"
    "gtm pool a /Common/p2 { load-balancing-mode static-persistence fallback-mode fallback-ip\n"
    "  fallback-ip 192.0.2.9 max-answers-returned 2 members { s1:v2 s1:v3 } }\n"
    "gtm wideip a /Common/w.example.com { pool-lb-mode ratio persistence enabled persist-cidr-ipv4 24\n"
    "  last-resort-pool a /Common/p2 load-balancing-decision-log-verbosity { pool-selection }\n"
    "  pools { /Common/p1 { order 0 ratio 2 } /Common/p2 { order 1 } } }\n"
    "gtm wideip a /Common/*.example.com { pools { /Common/p1 } }\n"
    "gtm wideip a /Common/w?.example.com { pools { /Common/p1 } }\n"
    "gtm region /Common/r { region-members { continent EU { } not country RU { } } }\n"
    "gtm topology ldns: region /Common/r server: pool /Common/p1 { order 1 score 100 }\n"
    "gtm topology ldns: subnet 198.51.100.0/24 server: subnet 10.0.0.0/30 { score 10 }\n"
    "gtm global-settings load-balancing { static-persist-cidr-ipv4 24 }\n";

static const char inputs_json[] =
    "{\"now\": 1000, \"query\": {\"name\": \"w.example.com\", \"type\": \"A\", \"ldns\": \"198.51.100.7\"},\n"
    " \"members\": {\"s1:v1\": {\"up\": true, \"rtt_us\": 50}, \"s1:v2\": {\"up\": true}, \"s1:v3\": {\"up\": true}},\n"
    " \"pools\": {\"/Common/p2\": {\"held_down\": false}},\n"
    " \"geo\": {\"198.51.100.7\": {\"continent\": \"EU\", \"country\": \"DE\", \"state\": null, \"isp\": null}},\n"
    " \"persistence\": [{\"wideip\": \"w.example.com\", \"key\": \"203.0.113.0/24\", \"pool\": \"p2\",\n"
    "                   \"member\": \"s1:v3\", \"expires\": 5000}],\n"
    " \"state\": {\"wideip\": {\"w.example.com\": {\"rr\": 0}},\n"
    "           \"pool\": {\"p1\": {\"alternate\": {\"rr\": -1, \"ratio\": {\"s1:v1\": {\"w\": 1, \"cur\": 0}}}}}},\n"
    " \"random\": [1, 2]}\n";

typedef struct ctx {
    wsel_gslb_config *cfg;
    wsel_gslb_inputs *in;
    wsel_gslb_state *st;
    wsel_gslb_finding *findings;
    size_t n_findings;
    char *json;
    wsel_error err;
} ctx;

typedef int (*op_fn)(ctx *c);
typedef void (*undo_fn)(ctx *c);

/* The first `jansson_allocs` allocations of the inputs load are jansson's parse: the
 * inputs sweep starts after them (see gslb_nomem). 0 for the other calls. */
static long jansson_allocs;

/* Runs op with allocation k failing, k = 0, 1, ... until op completes without meeting
 * the failure; returns how many allocations op made. */
static long sweep(const char *what, ctx *c, op_fn op, undo_fn undo)
{
    long base = live;
    for (long k = jansson_allocs; k < 100000; k++) {
        memset(&c->err, 0, sizeof c->err);
        arm(k);
        int rc = op(c);
        int failed = disarm();
        if (!failed) {
            if (rc != WSEL_OK)
                fail_msg("%s: status %d without an allocation failure", what, rc);
            /* what a success built, undone, leaves nothing behind; then built again */
            undo(c);
            if (live != base)
                fail_msg("%s: %ld blocks leaked by a successful call", what, live - base);
            if (op(c) != WSEL_OK)
                fail_msg("%s: fails on a second run", what);
            return k;
        }
        if (rc == WSEL_OK) { /* managed without that block */
            undo(c);
            continue;
        }
        if (live != base)
            fail_msg("%s: allocation %ld failed and %ld blocks stayed allocated", what, k, live - base);
        if (rc != WSEL_E_NOMEM)
            fail_msg("%s: allocation %ld failed, status %d: %u:%u %s", what, k, rc, c->err.line,
                     c->err.col, c->err.message);
        if (c->err.code != WSEL_E_NOMEM || c->err.line != 0 || c->err.col != 0 ||
            strcmp(c->err.message, "out of memory") != 0)
            fail_msg("%s: allocation %ld failed: error code %d at %u:%u '%s', expected "
                     "out of memory without a position", what, k, c->err.code, c->err.line,
                     c->err.col, c->err.message);
    }
    fail_msg("%s: does not complete", what);
    return -1;
}

/* A load that succeeds holds every unknown attribute whole: an allocation that failed
 * under one may not leave half an entry behind a success (-1: the sweep then fails). */
static int op_config(ctx *c)
{
    int rc = wsel_gslb_config_load_buffer("t.conf", conf, sizeof conf - 1, &c->cfg, &c->err);
    for (size_t i = 0; rc == WSEL_OK && i < c->cfg->n_unknown; i++)
        if (!c->cfg->unknown[i].object || !c->cfg->unknown[i].what)
            rc = -1;
    return rc;
}
static void undo_config(ctx *c)
{
    wsel_gslb_config_free(c->cfg);
    c->cfg = NULL;
}

/* The findings of the lint run without failures: a run that succeeds under a failed
 * allocation must find as many (a check that gave up for want of memory must fail the
 * run, not drop its finding: the wildcards' G034 needs an allocation). */
static size_t lint_want;

static int op_lint(ctx *c)
{
    int rc = wsel_gslb_lint(c->cfg, &c->findings, &c->n_findings, &c->err);
    if (rc == WSEL_OK && lint_want && c->n_findings != lint_want) {
        free(c->findings);
        c->findings = NULL;
        return -1;
    }
    return rc;
}
static void undo_lint(ctx *c)
{
    free(c->findings);
    c->findings = NULL;
}

static int op_inputs(ctx *c)
{
    return wsel_gslb_inputs_load_buffer(c->cfg, "in.json", inputs_json, sizeof inputs_json - 1,
                                        &c->in, &c->err);
}
static void undo_inputs(ctx *c)
{
    wsel_gslb_inputs_free(c->in);
    c->in = NULL;
}

static int op_state(ctx *c)
{
    return wsel_gslb_state_new(c->cfg, c->in, &c->st, &c->err);
}
static void undo_state(ctx *c)
{
    wsel_gslb_state_free(c->st);
    c->st = NULL;
}

/* A resolve for an LDNS without a persistence record: it stores one (the only
 * allocation a resolve makes). A fresh state each time, made outside the sweep. */
static int op_resolve(ctx *c)
{
    wsel_gslb_outcome o;
    return wsel_gslb_resolve(c->cfg, 0, c->in, c->st, NULL, &o, &c->err);
}
static void undo_resolve(ctx *c)
{
    (void)c;
}

static int op_json(ctx *c)
{
    c->json = wsel_gslb_state_json(c->st);
    if (!c->json) { /* no error record: NULL says it all */
        c->err.code = WSEL_E_NOMEM;
        snprintf(c->err.message, sizeof c->err.message, "out of memory");
        return WSEL_E_NOMEM;
    }
    return WSEL_OK;
}
static void undo_json(ctx *c)
{
    free(c->json);
    c->json = NULL;
}

static void gslb_nomem(void **s)
{
    (void)s;
    ctx c = {0};
    /* the first allocation of the config load is the config itself */
    arm(0);
    assert_int_equal(op_config(&c), WSEL_E_NOMEM);
    assert_true(disarm());
    assert_null(c.cfg);
    assert_int_equal(c.err.line, 0);
    assert_int_equal(c.err.col, 0);
    assert_string_equal(c.err.file, "t.conf");

    assert_true(sweep("config load", &c, op_config, undo_config) > 0);
    assert_int_equal(op_lint(&c), WSEL_OK);
    lint_want = c.n_findings;
    size_t g034 = 0;
    for (size_t i = 0; i < c.n_findings; i++)
        g034 += c.findings[i].code == 34;
    assert_int_equal(g034, 1); /* *.example.com is shadowed by w?.example.com (A-41) */
    undo_lint(&c);
    assert_true(sweep("lint", &c, op_lint, undo_lint) > 0);
    undo_lint(&c);
    /* How many allocations jansson's parse of the inputs makes: counted, not failed
     * (jansson 2.14's lexer does not survive every allocation failure, doc/gslb.md §3).
     * Its first one failing (the lexer cannot start) is out of memory all the same. */
    count_begin();
    json_t *j = json_loadb(inputs_json, sizeof inputs_json - 1, JSON_REJECT_DUPLICATES, NULL);
    jansson_allocs = count_end();
    assert_non_null(j);
    json_decref(j);
    assert_true(jansson_allocs > 0);
    memset(&c.err, 0, sizeof c.err);
    arm(0);
    assert_int_equal(op_inputs(&c), WSEL_E_NOMEM);
    assert_true(disarm());
    assert_null(c.in);
    assert_string_equal(c.err.message, "out of memory");
    assert_true(sweep("inputs load", &c, op_inputs, undo_inputs) > jansson_allocs);
    jansson_allocs = 0;
    assert_true(sweep("state", &c, op_state, undo_state) > 0);
    /* resolve: the state is made afresh for each allocation tried, so each try starts
     * without the record and has to store it */
    for (long k = 0;; k++) {
        undo_state(&c);
        assert_int_equal(op_state(&c), WSEL_OK);
        long base = live;
        memset(&c.err, 0, sizeof c.err);
        arm(k);
        int rc = op_resolve(&c);
        int failed = disarm();
        if (!failed) {
            assert_int_equal(rc, WSEL_OK);
            assert_true(k > 0); /* a record was stored */
            break;
        }
        assert_int_equal(rc, WSEL_E_NOMEM);
        assert_int_equal(live, base);
        assert_int_equal(c.err.line, 0);
        assert_int_equal(c.err.col, 0);
        assert_string_equal(c.err.message, "out of memory");
        assert_true(k < 1000);
    }
    assert_true(sweep("state json", &c, op_json, undo_json) > 0);
    undo_json(&c);
    undo_resolve(&c);
    undo_state(&c);
    undo_inputs(&c);
    undo_config(&c);
}

#endif

NOMEM_MAIN("gslb_mutants", cmocka_unit_test(gslb_nomem))
