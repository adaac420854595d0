/* GSLB system: the config reader, the inputs reader and the decision engine against
 * doc/gslb.md (§1-§4, §9). Every expected answer is worked out by hand from
 * those rules (sequences written out in the comments) or computed here by small
 * independent code (the FNV-1a rendezvous order, the smooth WRR counts). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "wsel.h"
#include "kit/kit.h"
#include "support/support.h"
#include "kit/kit_gslb.h"

#include <jansson.h>
#include "../core/gslb/gslb_internal.h"
#include "../ref/gslb/gslb_engine.h"

/* ---- helpers ------------------------------------------------------------------- */

static wsel_gslb_config *load(const char *text)
{
    return wsel_test_gslb_load(text);
}

static int load_err(const char *text, wsel_error *err)
{
    return wsel_test_gslb_load_err(text, err);
}

static wsel_gslb_inputs *inputs(const wsel_gslb_config *c, const char *json)
{
    wsel_gslb_inputs *in = NULL;
    wsel_error err;
    int rc = wsel_gslb_inputs_load_buffer(c, "in.json", json, strlen(json), &in, &err);
    if (rc) {
        char buf[2048];
        print_error("inputs: %s\n", wsel_error_format(&err, buf, sizeof buf));
    }
    assert_int_equal(rc, 0);
    return in;
}

typedef struct run {
    wsel_gslb_config *cfg;
    wsel_gslb_inputs *in;
    wsel_gslb_state *st;
    wsel_gslb_outcome o;
} run;

static void run_init(run *r, const char *conf, const char *json)
{
    r->cfg = load(conf);
    r->in = inputs(r->cfg, json);
    assert_int_equal(wsel_gslb_state_new(r->cfg, r->in, &r->st, NULL), 0);
}

static void run_free(run *r)
{
    wsel_gslb_state_free(r->st);
    wsel_gslb_inputs_free(r->in);
    wsel_gslb_config_free(r->cfg);
}

static const wsel_gslb_outcome *q(run *r, const char *wideip)
{
    long w = wsel_gslb_find_wideip(r->cfg, wideip);
    assert_true(w >= 0);
    wsel_error err;
    int rc = wsel_gslb_resolve(r->cfg, w, r->in, r->st, NULL, &r->o, &err);
    if (rc)
        print_error("resolve: %s\n", err.message);
    assert_int_equal(rc, 0);
    return &r->o;
}

/* The answer's first address as text ("" when none). */
static const char *first(const wsel_gslb_outcome *o)
{
    static char buf[64];
    buf[0] = '\0';
    if (o->n_addrs)
        wsel_gslb_addr_str(&o->addrs[0], buf, sizeof buf);
    return buf;
}

/* A fresh run of conf and json, then one query of wide IP "w": its first address ("" when
 * none); the outcome stays in r->o until run_free. */
static const char *run1(run *r, const char *conf, const char *json)
{
    run_init(r, conf, json);
    return first(q(r, "w"));
}

/* n queries; the last octet of each first address appended to seq ("1 3 2 ..."). */
static void seq(run *r, const char *wideip, int n, char *out, size_t len)
{
    out[0] = '\0';
    for (int i = 0; i < n; i++) {
        const wsel_gslb_outcome *o = q(r, wideip);
        const char *a = first(o);
        const char *dot = strrchr(a, '.');
        size_t l = strlen(out);
        snprintf(out + l, len - l, "%s%s", i ? " " : "", dot ? dot + 1 : "-");
    }
}

/* Three servers' worth of virtual servers 10.0.0.1 .. 10.0.0.6 on one BIG-IP. */
#define SERVERS                                                                          \
    "gtm server /Common/s1 { datacenter /Common/DC1 product bigip virtual-servers {\n"   \
    "  v1 { destination 10.0.0.1:80 } v2 { destination 10.0.0.2:80 }\n"                  \
    "  v3 { destination 10.0.0.3:80 } v4 { destination 10.0.0.4:80 }\n"                  \
    "  v5 { destination 10.0.0.5:80 } v6 { destination 10.0.0.6:80 } } }\n"

#define UP(n) "\"s1:v" #n "\": {\"up\": true}"
#define DOWN(n) "\"s1:v" #n "\": {\"up\": false}"

static const char *const example =
    "#TMSH-VERSION: 15.1.0\n"
    "gtm server /Common/bigip-dc1 {\n"
    "    datacenter /Common/DC1\n"
    "    product bigip\n"
    "    virtual-servers {\n"
    "        /Common/vs_web { destination 192.0.2.100:443 }\n"
    "        /Common/vs_db { destination 192.0.2.110:5432 }\n"
    "    }\n"
    "}\n"
    "gtm server /Common/host-dc2 {\n"
    "    datacenter /Common/DC2\n"
    "    product generic-host\n"
    "    virtual-servers {\n"
    "        web2 { destination 198.51.100.100:443 depends-on { /Common/bigip-dc1:/Common/vs_db } }\n"
    "        web3 { destination 198.51.100.101:443 }\n"
    "    }\n"
    "}\n"
    "gtm pool a /Common/p_dc1 {\n"
    "    load-balancing-mode topology\n"
    "    alternate-mode none\n"
    "    fallback-mode none\n"
    "    members { /Common/bigip-dc1:/Common/vs_web { member-order 0 } }\n"
    "}\n"
    "gtm pool a /Common/p_dc2 {\n"
    "    load-balancing-mode lowest-round-trip-time\n"
    "    dynamic-ratio enabled\n"
    "    fallback-mode fallback-ip\n"
    "    max-answers-returned 2\n"
    "    members {\n"
    "        /Common/host-dc2:web2 { member-order 0 ratio 3 }\n"
    "        /Common/host-dc2:web3 { member-order 1 }\n"
    "    }\n"
    "}\n"
    "gtm wideip a /Common/www.example.com {\n"
    "    pool-lb-mode topology\n"
    "    persistence enabled\n"
    "    persist-cidr-ipv4 24\n"
    "    last-resort-pool a /Common/p_dc2\n"
    "    load-balancing-decision-log-verbosity { pool-selection pool-member-selection }\n"
    "    pools { /Common/p_dc1 { order 0 } /Common/p_dc2 { order 1 ratio 2 } }\n"
    "}\n"
    "gtm region /Common/r_eu { region-members { continent EU { } not country RU { } } }\n"
    "gtm topology ldns: region /Common/r_eu server: pool /Common/p_dc1 { order 1 score 100 }\n"
    "gtm topology ldns: subnet 0.0.0.0/0 server: pool /Common/p_dc2 { order 2 score 10 }\n";

/* ---- config reader ------------------------------------------------------------------ */

static void parse_example_defaults(void **s)
{
    (void)s;
    wsel_gslb_config *c = load(example);
    assert_string_equal(c->version, "15.1.0");
    assert_int_equal(c->n_servers, 2);
    assert_int_equal(c->n_vs, 4);
    assert_int_equal(c->n_pools, 2);
    assert_int_equal(c->n_wideips, 1);
    assert_int_equal(c->n_topo, 2);
    const wsel_gslb_pool *p1 = &c->pools[0], *p2 = &c->pools[1];
    assert_string_equal(p1->name, "/Common/p_dc1");
    /* doc/gslb.md §1 defaults */
    assert_int_equal(p1->ttl, 30);
    assert_true(p1->verify);
    assert_false(p1->dynamic_ratio);
    assert_int_equal(p1->max_answers, 1);
    assert_int_equal(p1->mode[0], WSEL_GSLB_TOPOLOGY);
    assert_int_equal(p1->mode[1], WSEL_GSLB_NONE);
    assert_int_equal(p1->mode[2], WSEL_GSLB_NONE);
    unsigned qos[] = {50, 30, 5, 3, 1, 0, 0, 0, 0};
    for (int i = 0; i < 9; i++)
        assert_int_equal(p1->qos[i], qos[i]);
    assert_int_equal(p2->mode[1], WSEL_GSLB_ROUND_ROBIN); /* alternate default */
    assert_int_equal(p2->mode[2], WSEL_GSLB_FALLBACK_IP);
    assert_int_equal(p2->fallback_ip.family, 0);          /* :: default = unset */
    assert_int_equal(p2->max_answers, 2);
    assert_true(p2->dynamic_ratio);
    assert_int_equal(p2->members[0].ratio, 3);
    assert_int_equal(p2->members[1].ratio, 1);            /* member ratio default 1 */
    assert_true(p2->members[0].vs >= 0 && p2->members[1].vs >= 0);
    const wsel_gslb_wideip *w = &c->wideips[0];
    assert_int_equal(w->lb_mode, WSEL_GSLB_TOPOLOGY);
    assert_true(w->persistence);
    assert_int_equal(w->ttl_persistence, 3600);
    assert_int_equal(w->cidr4, 24);
    assert_int_equal(w->cidr6, 128);
    assert_int_equal(w->lrp, 1);
    assert_false(w->rcode_response);
    assert_int_equal(w->rcode, 0);
    assert_int_equal(w->log_flags, WSEL_GSLB_LOG_POOL_SELECTION | WSEL_GSLB_LOG_MEMBER_SELECTION);
    assert_int_equal(w->pools[1].ratio, 2);
    assert_int_equal(w->pools[0].ratio, 1);
    /* web2 depends on vs_db */
    long web2 = p2->members[0].vs;
    assert_int_equal(c->vs[web2].n_depends, 1);
    assert_string_equal(c->vs[c->vs[web2].depends[0]].name, "/Common/vs_db");
    /* global defaults (A-13) */
    assert_true(c->longest_match);
    assert_int_equal(c->sp_cidr4, 32);
    assert_int_equal(c->sp_cidr6, 128);
    wsel_gslb_config_free(c);
}

static void parse_order_and_names(void **s)
{
    (void)s;
    wsel_gslb_config *c = load(
        SERVERS
        "gtm pool a p { members { s1:v1 { member-order 2 } s1:v2 { order 1 } s1:v3 { member-order 1 } } }\n"
        "gtm wideip a w.example { pools { p { order 5 } } }\n");
    /* member-order, then text order (A-7: v11 "order" accepted) */
    assert_string_equal(c->pools[0].members[0].key, "s1:v2");
    assert_string_equal(c->pools[0].members[1].key, "s1:v3");
    assert_string_equal(c->pools[0].members[2].key, "s1:v1");
    assert_string_equal(c->pools[0].name, "/Common/p"); /* A-2 */
    assert_int_equal(wsel_gslb_find_wideip(c, "W.Example."), 0);
    assert_int_equal(wsel_gslb_find_wideip(c, "/Common/w.example"), 0);
    assert_int_equal(wsel_gslb_find_wideip(c, "x.example"), -1);
    wsel_gslb_config_free(c);
}

static void parse_unknown_kept(void **s)
{
    (void)s;
    wsel_gslb_config *c = load(
        "ltm virtual /Common/x { destination 1.2.3.4:80 profiles { a { } } }\n"
        "ltm virtual /Common/y { }\n"
        "gtm datacenter /Common/DC1 { }\n"
        "gtm wideip cname /Common/v6.example { pools { p6 } }\n"
        SERVERS
        "gtm pool a p {\n  frobnicate 7 { nested }\n  members { s1:v1 { wibble { x } } } }\n");
    assert_int_equal(c->skipped_statements, 3);
    /* ltm virtual x2 (one entry), gtm datacenter, wideip cname, frobnicate, wibble */
    assert_int_equal(c->n_unknown, 5);
    assert_string_equal(c->unknown[0].object, "ltm virtual");
    assert_string_equal(c->unknown[0].what, "statements skipped: 2");
    assert_string_equal(c->unknown[3].what, "frobnicate");
    assert_int_equal(c->unknown[3].pos.line, 10);
    assert_string_equal(c->unknown[4].what, "wibble");
    assert_int_equal(c->pools[0].n_members, 1);
    wsel_gslb_config_free(c);
    /* an attribute of the global settings the reader does not know is kept too (G030),
     * where it stands; the known one next to it is still read */
    c = load("gtm global-settings load-balancing {\n  topology-longest-match no\n  frobnicate\n}\n");
    assert_int_equal(c->n_unknown, 1);
    assert_string_equal(c->unknown[0].what, "frobnicate");
    assert_int_equal(c->unknown[0].pos.line, 3);
    assert_int_equal(c->unknown[0].pos.col, 3);
    assert_false(c->longest_match);
    wsel_gslb_config_free(c);
}

/* AAAA (doc/gslb.md §1, A-43..A-46), values worked out by hand: one name space per type,
 * a topology pool side naming both types' pools, the query type of the inputs, an AAAA
 * query answering IPv6 members only, an A query finding no wide IP on an AAAA-only name. */
static void aaaa_types(void **s)
{
    (void)s;
    run r;
    run_init(&r,
             "gtm server s { virtual-servers { v4 { destination 192.0.2.1:80 }\n"
             "  v6 { destination 2001:db8::1.80 } v6b { destination [2001:db8::2]:80 } } }\n"
             "gtm pool a p { members { s:v4 } }\n"
             "gtm pool aaaa p { members { s:v4 s:v6 s:v6b } }\n"
             "gtm wideip a w { pools { p } }\n"
             "gtm wideip aaaa w { pools { p } }\n"
             "gtm wideip aaaa only6 { pools { p } }\n"
             "gtm topology ldns: subnet 2001:db8::/32 server: pool p { }\n",
             "{\"query\": {\"type\": \"aaaa\"}, \"members\": {\"s:v4\": {\"up\": true},"
             " \"s:v6\": {\"up\": true}, \"s:v6b\": {\"up\": true}}}");
    const wsel_gslb_config *c = r.cfg;
    assert_int_equal(c->n_pools, 2);
    assert_int_equal(c->pools[1].type, WSEL_GSLB_TYPE_AAAA);
    assert_string_equal(c->pools[1].key, "aaaa /Common/p");
    assert_null(c->pools[0].key);
    assert_true(c->pools[1].members[0].wrong_family && !c->pools[1].members[1].wrong_family);
    assert_int_equal(wsel_gslb_find_wideip_type(c, "w", WSEL_GSLB_TYPE_A), 0);
    assert_int_equal(wsel_gslb_find_wideip_type(c, "w", WSEL_GSLB_TYPE_AAAA), 1);
    assert_int_equal(c->wideips[1].pools[0].pool, 1); /* its type's pool */
    assert_int_equal(wsel_gslb_find_wideip_type(c, "only6", WSEL_GSLB_TYPE_A), -1);
    assert_int_equal(wsel_gslb_find_wideip(c, "only6"), -1);
    assert_int_equal(wsel_gslb_find_wideip_type(c, "only6", WSEL_GSLB_TYPE_AAAA), 2);
    assert_int_equal(c->topo[0].server.ref, 0);
    assert_int_equal(c->topo[0].server.ref_aaaa, 1);
    /* a side that names no pool refers to none of either type (include/wsel/gslb.h) */
    assert_int_equal(c->topo[0].ldns.ref, -1);
    assert_int_equal(c->topo[0].ldns.ref_aaaa, -1);
    assert_int_equal(wsel_gslb_inputs_qtype(r.in), WSEL_GSLB_TYPE_AAAA);
    assert_string_equal(wsel_gslb_type_name(WSEL_GSLB_TYPE_AAAA), "AAAA");
    assert_int_equal(wsel_gslb_type_find("Aaaa"), WSEL_GSLB_TYPE_AAAA);
    assert_int_equal(wsel_gslb_type_find("MX"), -1);
    const char *want[] = {"2001:db8::1", "2001:db8::2", "2001:db8::1"}; /* RR, v4 left out */
    for (int i = 0; i < 3; i++) {
        wsel_error err;
        assert_int_equal(wsel_gslb_resolve(c, 1, r.in, r.st, NULL, &r.o, &err), 0);
        assert_int_equal(r.o.kind, WSEL_GSLB_O_ANSWER);
        assert_string_equal(first(&r.o), want[i]);
    }
    assert_string_equal(first(q(&r, "w")), "192.0.2.1"); /* the A wide IP */
    run_free(&r);
}

static void parse_strings_comments(void **s)
{
    (void)s;
    wsel_gslb_config *c = load(
        "# a comment { with braces }\n" SERVERS
        "gtm pool a \"p\" { description \"multi\nline \\\" } {\" members { s1:v1 } }\n");
    assert_int_equal(c->n_pools, 1);
    assert_int_equal(c->pools[0].n_members, 1);
    wsel_gslb_config_free(c);
}

/* ---- config errors: golden cases (line, column, status, token) by hand ---- */

static void parse_errors(void **s)
{
    (void)s;
    static const struct {
        const char *text;
        unsigned line, col;
        int code;
        const char *item;
    } cases[] = {
        {"gtm pool a p {\n  load-balancing-mode fastest\n}\n", 2, 23, WSEL_E_PARAM, "fastest"},
        {"gtm pool a p { load-balancing-mode random }\n", 1, 36, WSEL_E_PARAM, "random"},
        {"gtm wideip a w { pool-lb-mode lowest-round-trip-time }\n", 1, 31, WSEL_E_PARAM,
         "lowest-round-trip-time"},
        {"gtm pool a p { max-answers-returned 501 }\n", 1, 37, WSEL_E_PARAM, "501"},
        {"gtm pool a p { max-answers-returned 0 }\n", 1, 37, WSEL_E_PARAM, "0"},
        {"gtm pool a p { ttl 4294967296 }\n", 1, 20, WSEL_E_PARAM, "4294967296"},
        {"gtm pool a p { ttl -1 }\n", 1, 20, WSEL_E_PARAM, "-1"},
        {"gtm pool a p { ttl 5 ttl 6 }\n", 1, 22, WSEL_E_DUPKEY, "ttl"},
        {"gtm pool a p { }\ngtm pool a /Common/p { }\n", 2, 12, WSEL_E_DUPKEY, "/Common/p"},
        {"gtm pool a p { verify-member-availability yes }\n", 1, 43, WSEL_E_PARAM, "yes"},
        {"gtm pool a p { fallback-ip 300.1.1.1 }\n", 1, 28, WSEL_E_ADDR, "300.1.1.1"},
        {"gtm server s { virtual-servers { v { destination 10.0.0.1 } } }\n", 1, 50, WSEL_E_ADDR,
         "10.0.0.1"},
        {"gtm server s { virtual-servers { v { } } }\n", 1, 34, WSEL_E_PARAM, "v"},
        {"gtm pool a p {\n  members { s1:v1 {\n", 3, 1, WSEL_E_SYNTAX, "end of file"},
        {"gtm pool a p { members { nocolon } }\n", 1, 26, WSEL_E_PARAM, "nocolon"},
        {"gtm wideip a w { failure-rcode badrcode }\n", 1, 32, WSEL_E_PARAM, "badrcode"},
        {"gtm wideip a w { persist-cidr-ipv4 33 }\n", 1, 36, WSEL_E_PARAM, "33"},
        {"gtm wideip a w { load-balancing-decision-log-verbosity { everything } }\n", 1, 58,
         WSEL_E_PARAM, "everything"},
        {"gtm pool a p { \"unterminated }\n", 1, 16, WSEL_E_SYNTAX, NULL},
        {"}\n", 1, 1, WSEL_E_SYNTAX, "}"},
        {"{ }\n", 1, 1, WSEL_E_SYNTAX, "{"}, /* a block without a head (found by fuzzing) */
        {"gtm topology ldns: planet Mars server: pool p { }\n", 1, 20, WSEL_E_PARAM, "planet"},
        {"gtm topology ldns: subnet 10.0.0.0/33 server: pool p { }\n", 1, 27, WSEL_E_ADDR,
         "10.0.0.0/33"},
        {"gtm topology ldns: region /Common/nowhere server: pool p { }\n", 1, 1, WSEL_E_PARAM,
         "/Common/nowhere"},
        {"gtm region a { region-members { region b { } } }\ngtm region b { region-members { region a { } } }\n",
         1, 1, WSEL_E_PARAM, NULL},
        {"gtm global-settings load-balancing { topology-longest-match maybe }\n", 1, 61, WSEL_E_PARAM,
         "maybe"},
        {"gtm pool a p { members { s1:v1 { ratio 65536 } } }\n", 1, 40, WSEL_E_PARAM, "65536"},
        {"gtm pool a p { min-members-up-mode most }\n", 1, 36, WSEL_E_PARAM, "most"},
        {"gtm pool a p { members { s1:v1 s1:v1 } }\n", 1, 32, WSEL_E_DUPKEY, "s1:v1"},
        {"gtm pool a p { x\0y }\n", 1, 17, WSEL_E_SYNTAX, NULL},
        /* monitor rules (doc/gslb.md §1, A-38): `min N of {`, `require N from M {`,
         * `A and B`; the error stands at the token that breaks the shape */
        {"gtm pool a p { monitor min 1 to { } }\n", 1, 30, WSEL_E_SYNTAX, "to"},
        {"gtm pool a p { monitor require 1 frm 2 { } }\n", 1, 34, WSEL_E_SYNTAX, "frm"},
        {"gtm pool a p { monitor min 1 of x }\n", 1, 33, WSEL_E_SYNTAX, "x"},
        {"gtm pool a p { monitor http and }\n", 1, 33, WSEL_E_SYNTAX, "}"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        wsel_error err;
        const char *t = cases[i].text;
        size_t len = strlen(t);
        if (strstr(t, "{ x")) /* the NUL case: length up to the end of the literal */
            len = 21;
        wsel_gslb_config *c = NULL;
        int rc = wsel_gslb_config_load_buffer("t.conf", t, len, &c, &err);
        assert_null(c);
        if (rc != cases[i].code || err.line != cases[i].line || err.col != cases[i].col ||
            (cases[i].item && strcmp(err.key, cases[i].item))) {
            char buf[2048];
            print_error("case %zu: got code %d %s (item '%s'); expected %d at %u:%u '%s'\n", i, rc,
                        wsel_error_format(&err, buf, sizeof buf), err.key, cases[i].code,
                        cases[i].line, cases[i].col, cases[i].item ? cases[i].item : "");
            fail();
        }
        assert_string_equal(err.file, "t.conf");
        assert_true(strlen(err.message) > 0);
    }
}

static void parse_limits(void **s)
{
    (void)s;
    /* 17 nested braces inside an unknown attribute */
    char buf[512] = "gtm pool a p { x ";
    for (int i = 0; i < 18; i++)
        strcat(buf, "{ ");
    for (int i = 0; i < 18; i++)
        strcat(buf, "} ");
    strcat(buf, "}\n");
    wsel_error err;
    assert_int_equal(load_err(buf, &err), WSEL_E_LIMIT);
    /* 257 members */
    size_t cap = 1 << 18;
    char *big = malloc(cap);
    assert_non_null(big);
    strcpy(big, "gtm pool a p { members { ");
    for (int i = 0; i < 257; i++)
        sprintf(big + strlen(big), "s:v%d ", i);
    strcat(big, "} }\n");
    assert_int_equal(load_err(big, &err), WSEL_E_LIMIT);
    /* 4096 virtual servers in all are read; the 4097th is refused where it is named */
    for (int n = 4096; n <= 4097; n++) {
        size_t at = 0;
        at += (size_t)sprintf(big + at, "gtm server /Common/s { datacenter /Common/d virtual-servers {");
        size_t last = 0;
        for (int i = 0; i < n; i++) {
            last = at + 1;
            at += (size_t)sprintf(big + at, " v%d { destination 192.0.2.1:%d }", i, i % 65535 + 1);
        }
        strcpy(big + at, " } }\n");
        wsel_gslb_config *c = NULL;
        int rc = wsel_gslb_config_load_buffer("vs.conf", big, strlen(big), &c, &err);
        if (n == 4096) {
            assert_int_equal(rc, WSEL_OK);
            wsel_gslb_config_free(c);
            continue;
        }
        assert_int_equal(rc, WSEL_E_LIMIT);
        assert_null(c);
        assert_int_equal(err.line, 1);
        assert_int_equal(err.col, last + 1);
        assert_string_equal(err.message, "gtm server /Common/s: more than 4096 virtual servers in all");
    }
    free(big);
    /* 2^21 + 1 tokens: a limit, not 50 MB of token records */
    size_t nt = (1u << 21) + 1;
    char *many = malloc(nt * 2 + 1);
    assert_non_null(many);
    for (size_t i = 0; i < nt; i++) {
        many[2 * i] = 'x';
        many[2 * i + 1] = ' ';
    }
    many[nt * 2] = '\0';
    assert_int_equal(load_err(many, &err), WSEL_E_LIMIT);
    free(many);
    assert_int_equal(wsel_gslb_config_load_file("/nonexistent/x.conf", &(wsel_gslb_config *){NULL}, &err),
                     WSEL_E_IO);
}

/* Address text lengths: the longest address forms are accepted, with a route domain
 * too; text of 63, 64 and 65 characters (no address is that long) is refused, and read
 * without writing past the reader's buffer. The 64 case kills
 * core/gslb/gslb_model.c@d384b39e74:ror:>=:>:1 under SAN=1 only (a one-byte stack write; the
 * answer is "refused" either way). */
static void addr_lengths(void **s)
{
    (void)s;
    wsel_gslb_addr a;
    assert_true(wsel_gslb_addr_parse("ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255", &a));
    assert_int_equal(a.family, 6);
    assert_true(wsel_gslb_addr_parse("ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255%65535", &a));
    assert_true(wsel_gslb_addr_parse("255.255.255.255%1", &a));
    assert_int_equal(a.family, 4);
    for (size_t n = 62; n <= 66; n++) {
        char t[80];
        memset(t, '1', n);
        t[n] = '\0';
        assert_false(wsel_gslb_addr_parse(t, &a));
        t[n] = '%';
        t[n + 1] = '1';
        t[n + 2] = '\0';
        assert_false(wsel_gslb_addr_parse(t, &a));
    }
}

/* ---- inputs reader ------------------------------------------------------------------ */

static void inputs_errors(void **s)
{
    (void)s;
    wsel_gslb_config *c = load(SERVERS "gtm pool a p { members { s1:v1 } }\ngtm wideip a w { pools { p } }\n");
    /* the error's kind (include/wsel/gslb.h), the line of the offending value (for a name
     * that names nothing, of the name itself) and its key */
    static const struct {
        const char *json;
        unsigned line;
        const char *item;
        int code;
    } cases[] = {
        {"{\"members\": {\"s1:v9\": {\"up\": true}}}", 1, "s1:v9", WSEL_E_REFERENCE},
        {"{\"members\": {\"s1:v1\": {\"up\": 1}}}", 1, "up", WSEL_E_TYPE},
        {"{\"members\": {\"s1:v1\": {\"rtt\": 5}}}", 1, "rtt", WSEL_E_SYNTAX},
        {"{\n\"pools\": {\"nope\": {}}}", 2, "nope", WSEL_E_REFERENCE},
        {"{\"query\": {\"type\": \"MX\"}}", 1, "type", WSEL_E_RANGE},
        {"{\"query\": {\"ldns\": \"1.2.3\"}}", 1, "ldns", WSEL_E_RANGE},
        {"{\"bogus\": 1}", 1, "bogus", WSEL_E_SYNTAX},
        {"{\n\n  \"now\": -5}", 3, "now", WSEL_E_RANGE},
        {"{\"state\": {\"pool\": {\"p\": {\"preferred\": {\"rr\": 7}}}}}", 1, "rr", WSEL_E_RANGE},
        {"{\"persistence\": [{\"wideip\": \"w\", \"key\": \"1.2.3.0/24\", \"pool\": \"p\", \"member\": \"s1:v2\", \"expires\": 5}]}",
         1, "member", WSEL_E_REFERENCE},
        {"{\"now\": 1,}", 1, NULL, WSEL_E_SYNTAX},
        {"{\"now\": 1, \"now\": 2}", 1, NULL, WSEL_E_DUPKEY},
        /* issue 24: one object named two ways is an error, not last-wins */
        {"{\"members\": {\"s1:v1\": {\"up\": true},\n \"/Common/s1:v1\": {\"up\": false}}}", 2, "/Common/s1:v1",
         WSEL_E_DUPKEY},
        {"{\"pools\": {\"/Common/p\": {}, \"p\": {\"held_down\": true}}}", 1, "p", WSEL_E_DUPKEY},
        {"{\"state\": {\"wideip\": {\"w\": {}, \"/Common/w\": {\"rr\": 0}}}}", 1, "/Common/w", WSEL_E_DUPKEY},
        {"{\"state\": {\"pool\": {\"p\": {},\n\"/Common/p\": {}}}}", 2, "/Common/p", WSEL_E_DUPKEY},
        /* a persistence key needs its length; one record per (wide IP, key), keys compared
         * as networks (1.2.3.9/24 is 1.2.3.0/24); an LDNS is an address, not a subnet */
        {"{\"persistence\": [{\"wideip\": \"w\", \"key\": \"1.2.3.4\", \"pool\": \"p\", \"member\": \"s1:v1\", \"expires\": 5}]}",
         1, "key", WSEL_E_RANGE},
        {"{\"persistence\": [{\"wideip\": \"w\", \"key\": \"1.2.3.0/24\", \"pool\": \"p\", \"member\": \"s1:v1\", \"expires\": 5},\n"
         " {\"wideip\": \"/Common/w\", \"key\": \"1.2.3.9/24\", \"pool\": \"p\", \"member\": \"s1:v1\", \"expires\": 9}]}",
         2, "key", WSEL_E_DUPKEY},
        {"{\"query\": {\"ldns\": \"1.2.3.4/24\"}}", 1, "ldns", WSEL_E_RANGE},
        {"{\"_needs\": [1]}", 1, "_needs", WSEL_E_TYPE}, /* the template's note: an object */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        wsel_gslb_inputs *in = NULL;
        wsel_error err;
        int rc = wsel_gslb_inputs_load_buffer(c, "in.json", cases[i].json, strlen(cases[i].json), &in, &err);
        assert_null(in);
        if (rc != cases[i].code || err.code != rc || err.line != cases[i].line ||
            (cases[i].item && strcmp(err.key, cases[i].item))) {
            print_error("case %zu: rc %d line %u item '%s': %s\n", i, rc, err.line, err.key, err.message);
            fail();
        }
    }
    /* the duplicate record's message names the first; the alias's names the other key;
     * two keys of one length and network in two wide IPs are two records */
    {
        static const char dup[] = "{\"persistence\": [{\"wideip\": \"w\", \"key\": \"1.2.3.0/24\", \"pool\": \"p\", "
                                  "\"member\": \"s1:v1\", \"expires\": 5}, {\"wideip\": \"w\", \"key\": \"1.2.3.0/25\", "
                                  "\"pool\": \"p\", \"member\": \"s1:v1\", \"expires\": 5}, {\"wideip\": \"w\", \"key\": "
                                  "\"1.2.3.1/24\", \"pool\": \"p\", \"member\": \"s1:v1\", \"expires\": 5}]}";
        wsel_gslb_inputs *in = NULL;
        wsel_error err;
        assert_int_equal(wsel_gslb_inputs_load_buffer(c, "in.json", dup, strlen(dup), &in, &err), WSEL_E_DUPKEY);
        assert_string_equal(err.message, "$.persistence[2].key: a second record for wide IP /Common/w and this "
                                         "key (the first: $.persistence[0])");
        static const char alias[] = "{\"members\": {\"/Common/s1:v1\": {}, \"s1:v1\": {}}}";
        assert_int_equal(wsel_gslb_inputs_load_buffer(c, "in.json", alias, strlen(alias), &in, &err), WSEL_E_DUPKEY);
        assert_string_equal(err.message, "$.members[\"s1:v1\"]: names the same virtual server as "
                                         "\"/Common/s1:v1\" (one entry each)");
        assert_null(in);
    }
    /* a persistence record's member may be spelled with the server's full path: it names
     * the pool member written "s1:v1" (the config's first virtual server, index 0) */
    {
        static const char full[] = "{\"persistence\": [{\"wideip\": \"w\", \"key\": \"1.2.3.0/24\", "
                                   "\"pool\": \"p\", \"member\": \"/Common/s1:v1\", \"expires\": 5}]}";
        wsel_gslb_inputs *in = NULL;
        wsel_error err;
        assert_int_equal(wsel_gslb_inputs_load_buffer(c, "in.json", full, strlen(full), &in, &err), WSEL_OK);
        wsel_gslb_inputs_free(in);
    }
    /* An error at a key spelled more than once in the text is placed at the offending
     * spelling, not at the first one: in json2 the first "up" (line 1) is fine, the value
     * of the second is not (line 2: 13 blanks, "s1:v2" at column 14, its "up" at 24 and
     * the value 1 at 30); the error names its JSON path. The first case: a name that
     * names nothing is placed at its own spelling (column 14 of line 2). */
    {
        static const char json[] = "{\"members\": {\"s1:v1\": {\"up\": true},\n"
                                   "             \"s1:v1x\": {}, \"s1:v2\": {\"up\": 1}}}";
        wsel_gslb_config *c2 = load(SERVERS "gtm pool a p { members { s1:v1 s1:v2 } }\ngtm wideip a w { pools { p } }\n");
        wsel_gslb_inputs *in = NULL;
        wsel_error err;
        assert_int_equal(wsel_gslb_inputs_load_buffer(c2, "in.json", json, strlen(json), &in, &err),
                         WSEL_E_REFERENCE);
        assert_int_equal(err.line, 2);
        assert_int_equal(err.col, 14);
        assert_string_equal(err.message, "$.members[\"s1:v1x\"]: names no configured virtual server (SERVER:VS)");
        static const char json2[] = "{\"members\": {\"s1:v1\": {\"up\": true},\n"
                                    "             \"s1:v2\": {\"up\": 1}}}";
        assert_int_equal(wsel_gslb_inputs_load_buffer(c2, "in.json", json2, strlen(json2), &in, &err),
                         WSEL_E_TYPE);
        assert_null(in);
        assert_int_equal(err.line, 2);
        assert_int_equal(err.col, 30);
        assert_string_equal(err.key, "up");
        assert_string_equal(err.path, "$.members[\"s1:v2\"].up");
        assert_string_equal(err.message, "$.members[\"s1:v2\"].up: expected true or false, got 1");
        wsel_gslb_config_free(c2);
    }
    /* The size limit (16 MiB, include/wsel/gslb.h) at its boundary: one byte over is
     * WSEL_E_LIMIT with no position (line and col 0: "0 when no position applies",
     * include/wsel/common.h), for inputs and config buffers alike; at the limit, "{}"
     * padded with blanks loads. Kills core/gslb/gslb_inputs.c@a1e564a460:const:0:1:1. */
    size_t max = WSEL_GSLB_MAX_FILE;
    char *big = malloc(max + 1);
    assert_non_null(big);
    memset(big, ' ', max + 1);
    big[0] = '{';
    big[max - 1] = '}';
    wsel_gslb_inputs *in = NULL;
    wsel_error err;
    assert_int_equal(wsel_gslb_inputs_load_buffer(c, "big.json", big, max + 1, &in, &err), WSEL_E_LIMIT);
    assert_null(in);
    assert_int_equal(err.line, 0);
    assert_int_equal(err.col, 0);
    assert_string_equal(err.file, "big.json");
    assert_non_null(strstr(err.message, "inputs larger than 16777216 bytes"));
    assert_int_equal(wsel_gslb_inputs_load_buffer(c, "big.json", big, max, &in, &err), 0);
    wsel_gslb_inputs_free(in);
    wsel_gslb_config *c2 = NULL;
    assert_int_equal(wsel_gslb_config_load_buffer("big.conf", big, max + 1, &c2, &err), WSEL_E_LIMIT);
    assert_null(c2);
    assert_int_equal(err.line, 0);
    assert_int_equal(err.col, 0);
    assert_non_null(strstr(err.message, "config larger than 16777216 bytes"));
    /* a config of exactly the limit (blanks only: no object) loads */
    memset(big, ' ', max);
    assert_int_equal(wsel_gslb_config_load_buffer("big.conf", big, max, &c2, &err), WSEL_OK);
    assert_non_null(c2);
    wsel_gslb_config_free(c2);
    free(big);
    wsel_gslb_config_free(c);
}

/* ---- methods ----------------------------------------------------------------------- */

#define POOL1(modes, members) "gtm pool a p { " modes " members { " members " } }\n"
#define WIDE1 "gtm wideip a w { pools { p } }\n"

static void method_round_robin(void **s)
{
    (void)s;
    run r;
    char out[256];
    /* v1 v2 v3 up: 1 2 3 1 2 3 (cursor from -1, doc/gslb.md §2) */
    run_init(&r, SERVERS POOL1("", "s1:v1 s1:v2 s1:v3") WIDE1,
             "{\"members\": {" UP(1) "," UP(2) "," UP(3) "}}");
    seq(&r, "w", 6, out, sizeof out);
    assert_string_equal(out, "1 2 3 1 2 3");
    assert_int_equal(r.o.kind, WSEL_GSLB_O_ANSWER);
    assert_int_equal(r.o.step, WSEL_GSLB_STEP_PREFERRED);
    assert_int_equal(r.o.method, WSEL_GSLB_ROUND_ROBIN);
    assert_int_equal(r.o.ttl, 30);
    run_free(&r);
    /* v2 down (no input entry = down, A-37): 1 3 1 3; skipped members not charged */
    run_init(&r, SERVERS POOL1("", "s1:v1 s1:v2 s1:v3") WIDE1, "{\"members\": {" UP(1) "," UP(3) "}}");
    seq(&r, "w", 4, out, sizeof out);
    assert_string_equal(out, "1 3 1 3");
    run_free(&r);
    /* state carried in: preferred rr = 1 => next is index 2 (v3) */
    run_init(&r, SERVERS POOL1("", "s1:v1 s1:v2 s1:v3") WIDE1,
             "{\"members\": {" UP(1) "," UP(2) "," UP(3) "}, \"state\": {\"pool\": {\"p\": {\"preferred\": {\"rr\": 1}}}}}");
    seq(&r, "w", 2, out, sizeof out);
    assert_string_equal(out, "3 1");
    run_free(&r);
}

static void method_ratio(void **s)
{
    (void)s;
    run r;
    char out[256];
    /* ratios 3 1 2; smooth WRR by hand (W = 6):
     * cur (3,1,2)->a (-3,1,2); (0,2,4)->c (0,2,-2); (3,3,0)->a (tie, lowest) (-3,3,0);
     * (0,4,2)->b (0,-2,2); (3,-1,4)->c (3,-1,-2); (6,0,0)->a (0,0,0) */
    run_init(&r, SERVERS POOL1("load-balancing-mode ratio",
                               "s1:v1 { ratio 3 } s1:v2 { ratio 1 } s1:v3 { ratio 2 }") WIDE1,
             "{\"members\": {" UP(1) "," UP(2) "," UP(3) "}}");
    seq(&r, "w", 12, out, sizeof out);
    assert_string_equal(out, "1 3 1 2 3 1 1 3 1 2 3 1");
    run_free(&r);
    /* ratio 0 never chosen (A-8): v2 ratio 0 => 1 3 1 3 ... with 1:1 */
    run_init(&r, SERVERS POOL1("load-balancing-mode ratio",
                               "s1:v1 s1:v2 { ratio 0 } s1:v3") WIDE1,
             "{\"members\": {" UP(1) "," UP(2) "," UP(3) "}}");
    seq(&r, "w", 4, out, sizeof out);
    assert_string_equal(out, "1 3 1 3");
    run_free(&r);
    /* a change of E resets counters: after 1 pick (a), v1 goes down: E = {b, c} (1, 2),
     * from zero: (0,1,2)->c (0,1,-1); (0,2,1)->b (0,-1,1); (0,0,3)->c */
    assert_string_equal(run1(&r, SERVERS POOL1("load-balancing-mode ratio",
                               "s1:v1 { ratio 3 } s1:v2 { ratio 1 } s1:v3 { ratio 2 }") WIDE1,
             "{\"members\": {" UP(1) "," UP(2) "," UP(3) "}}"), "10.0.0.1");
    wsel_gslb_inputs_set_up(r.in, 0, false, false);
    seq(&r, "w", 3, out, sizeof out);
    assert_string_equal(out, "3 2 3");
    run_free(&r);
}

static void method_global_availability(void **s)
{
    (void)s;
    run r;
    char out[64];
    run_init(&r, SERVERS POOL1("load-balancing-mode global-availability", "s1:v1 s1:v2 s1:v3") WIDE1,
             "{\"members\": {" DOWN(1) "," UP(2) "," UP(3) "}}");
    seq(&r, "w", 3, out, sizeof out);
    assert_string_equal(out, "2 2 2");
    wsel_gslb_inputs_set_up(r.in, 0, true, false);
    seq(&r, "w", 2, out, sizeof out);
    assert_string_equal(out, "1 1");
    run_free(&r);
}

/* Independent FNV-1a 64 of the rendezvous key (A-33). */
static uint64_t fnv(const uint8_t *d, size_t n, uint64_t h)
{
    for (size_t i = 0; i < n; i++) {
        h ^= d[i];
        h *= 1099511628211ull;
    }
    return h;
}

static int expected_persist_member(const uint8_t ip[4], unsigned prefix, const char *const *keys,
                                   const int *up, int n)
{
    uint8_t buf[64];
    uint32_t a = (uint32_t)ip[0] << 24 | (uint32_t)ip[1] << 16 | (uint32_t)ip[2] << 8 | ip[3];
    uint32_t mask = prefix ? 0xffffffffu << (32 - prefix) : 0;
    a &= mask;
    int best = -1;
    uint64_t besth = 0;
    for (int m = 0; m < n; m++) {
        size_t k = 0;
        buf[k++] = 4;
        buf[k++] = (uint8_t)(a >> 24);
        buf[k++] = (uint8_t)(a >> 16);
        buf[k++] = (uint8_t)(a >> 8);
        buf[k++] = (uint8_t)a;
        buf[k++] = 0;
        memcpy(buf + k, keys[m], strlen(keys[m]));
        k += strlen(keys[m]);
        uint64_t h = fnv(buf, k, 14695981039346656037ull);
        if (up[m] && (best < 0 || h > besth)) {
            best = m;
            besth = h;
        }
    }
    return best;
}

static void method_static_persist(void **s)
{
    (void)s;
    static const char *const keys[] = {"/Common/s1:v1", "/Common/s1:v2", "/Common/s1:v3", "/Common/s1:v4"};
    const char *conf = SERVERS
        "gtm global-settings load-balancing { static-persist-cidr-ipv4 24 }\n" POOL1(
            "load-balancing-mode static-persistence", "s1:v1 s1:v2 s1:v3 s1:v4") WIDE1;
    uint8_t ips[][4] = {{203, 0, 113, 7}, {198, 51, 100, 1}, {192, 0, 2, 55}, {10, 9, 8, 7}};
    for (size_t t = 0; t < 4; t++) {
        char json[512];
        snprintf(json, sizeof json,
                 "{\"query\": {\"ldns\": \"%u.%u.%u.%u\"}, \"members\": {" UP(1) "," UP(2) "," UP(3) "," UP(4) "}}",
                 ips[t][0], ips[t][1], ips[t][2], ips[t][3]);
        run r;
        run_init(&r, conf, json);
        int up[4] = {1, 1, 1, 1};
        int e = expected_persist_member(ips[t], 24, keys, up, 4);
        char want[32];
        snprintf(want, sizeof want, "10.0.0.%d", e + 1);
        for (int k = 0; k < 3; k++) /* stable */
            assert_string_equal(first(q(&r, "w")), want);
        /* same /24, other host: same member (property 5) */
        wsel_gslb_addr other;
        char o[32];
        snprintf(o, sizeof o, "%u.%u.%u.200", ips[t][0], ips[t][1], ips[t][2]);
        assert_true(wsel_gslb_addr_parse(o, &other));
        wsel_gslb_inputs_set_ldns(r.in, &other, NULL);
        assert_string_equal(first(q(&r, "w")), want);
        /* its member down: the next in the hash order; back up: returns */
        wsel_gslb_inputs_set_up(r.in, (size_t)e, false, false);
        up[e] = 0;
        int e2 = expected_persist_member(ips[t], 24, keys, up, 4);
        char want2[32];
        snprintf(want2, sizeof want2, "10.0.0.%d", e2 + 1);
        assert_string_equal(first(q(&r, "w")), want2);
        wsel_gslb_inputs_set_up(r.in, (size_t)e, true, false);
        assert_string_equal(first(q(&r, "w")), want);
        /* every other LDNS in the same run: its own order (nothing cached across keys) */
        for (size_t t2 = 0; t2 < 4; t2++) {
            char l2[32], w2[32];
            snprintf(l2, sizeof l2, "%u.%u.%u.%u", ips[t2][0], ips[t2][1], ips[t2][2], ips[t2][3]);
            assert_true(wsel_gslb_addr_parse(l2, &other));
            wsel_gslb_inputs_set_ldns(r.in, &other, NULL);
            int up4[4] = {1, 1, 1, 1};
            snprintf(w2, sizeof w2, "10.0.0.%d", expected_persist_member(ips[t2], 24, keys, up4, 4) + 1);
            assert_string_equal(first(q(&r, "w")), w2);
        }
        run_free(&r);
    }
}

/* Pool p of conf weighs v1 (RTT 100) against v2 (RTT 50) by dynamic ratio, 1:2: the
 * smooth WRR sequence over (5e5, 1e6) is 2 1 2 2 1 2; v1's RTT then set to 50 makes the
 * weights equal and the counters start again: 1 2 1 2. */
static void dynamic_ratio_change(const char *conf)
{
    run r;
    char out[64];
    run_init(&r, conf, "{\"members\": {\"s1:v1\": {\"up\": true, \"rtt_us\": 100}, "
                       "\"s1:v2\": {\"up\": true, \"rtt_us\": 50}}}");
    seq(&r, "w", 6, out, sizeof out);
    assert_string_equal(out, "2 1 2 2 1 2");
    long v1 = wsel__gslb_find_vs(r.cfg, "s1:v1");
    assert_true(v1 >= 0);
    wsel_gslb_inputs_set_metric(r.in, (size_t)v1, WSEL_GSLB_M_RTT, 50);
    seq(&r, "w", 4, out, sizeof out);
    assert_string_equal(out, "1 2 1 2");
    run_free(&r);
}

static void method_dynamic(void **s)
{
    (void)s;
    run r;
    char out[256];
    /* winner-take-all: RTT 50 vs 100 -> always the 50 member (seed example) */
    const char *two = SERVERS POOL1("load-balancing-mode lowest-round-trip-time", "s1:v1 s1:v2") WIDE1;
    run_init(&r, two, "{\"members\": {\"s1:v1\": {\"up\": true, \"rtt_us\": 100}, \"s1:v2\": {\"up\": true, \"rtt_us\": 50}}}");
    seq(&r, "w", 4, out, sizeof out);
    assert_string_equal(out, "2 2 2 2");
    assert_int_equal(r.o.method, WSEL_GSLB_RTT);
    run_free(&r);
    /* dynamic-ratio: weights 1e6 (50) and 5e5 (100): 2:1 over each 3 picks (property 13)
     * smooth WRR with w = (5e5, 1e6): v2, v1, v2, v2, v1, v2, ... */
    run_init(&r, SERVERS POOL1("load-balancing-mode lowest-round-trip-time dynamic-ratio enabled",
                               "s1:v1 s1:v2") WIDE1,
             "{\"members\": {\"s1:v1\": {\"up\": true, \"rtt_us\": 100}, \"s1:v2\": {\"up\": true, \"rtt_us\": 50}}}");
    int c1 = 0, c2 = 0;
    for (int i = 0; i < 300; i++) {
        const char *a = first(q(&r, "w"));
        c1 += !strcmp(a, "10.0.0.1");
        c2 += !strcmp(a, "10.0.0.2");
    }
    assert_int_equal(c1, 100);
    assert_int_equal(c2, 200);
    run_free(&r);
    /* the same, then v1's RTT set to 50 (new inputs generation): weights 1e6 and 1e6, the
     * counters start again: v1 (the first of a tie), v2, v1, v2. A pick repeated from the
     * old weights would go on 2:1. */
    dynamic_ratio_change(SERVERS POOL1("load-balancing-mode lowest-round-trip-time dynamic-ratio enabled",
                                       "s1:v1 s1:v2") WIDE1);
    /* missing metric for every candidate: preferred fails, alternate (RR) decides (property 8) */
    run1(&r, two, "{\"members\": {" UP(1) "," UP(2) "}}");
    assert_int_equal(r.o.kind, WSEL_GSLB_O_ANSWER);
    assert_int_equal(r.o.pool_step, WSEL_GSLB_STEP_ALTERNATE);
    assert_int_equal(r.o.method, WSEL_GSLB_ROUND_ROBIN);
    run_free(&r);
    /* one has the metric: only it is a candidate; vs-capacity is higher-is-better */
    run_init(&r, SERVERS POOL1("load-balancing-mode virtual-server-capacity", "s1:v1 s1:v2 s1:v3") WIDE1,
             "{\"members\": {\"s1:v1\": {\"up\": true, \"vs_capacity\": 2}, \"s1:v2\": {\"up\": true},"
             " \"s1:v3\": {\"up\": true, \"vs_capacity\": 7}}}");
    seq(&r, "w", 2, out, sizeof out);
    assert_string_equal(out, "3 3");
    run_free(&r);
    /* ties go round robin (A-20): cpu 10, 10, 20 -> 1 2 1 2 */
    run_init(&r, SERVERS POOL1("load-balancing-mode cpu", "s1:v1 s1:v2 s1:v3") WIDE1,
             "{\"members\": {\"s1:v1\": {\"up\": true, \"cpu_pct\": 10}, \"s1:v2\": {\"up\": true, \"cpu_pct\": 10},"
             " \"s1:v3\": {\"up\": true, \"cpu_pct\": 20}}}");
    seq(&r, "w", 4, out, sizeof out);
    assert_string_equal(out, "1 2 1 2");
    run_free(&r);
}

static void method_qos(void **s)
{
    (void)s;
    run r;
    /* coefficients: rtt 1, lcs 1, the rest 0.
     * v1: rtt 100, link 100 ; v2: rtt 50, link 20.
     * rtt norm (lower): v1 10*50/100 = 5, v2 10; link norm (higher): v1 10, v2 10*20/100 = 2
     * score v1 = 15, v2 = 12 => v1. */
    const char *conf = SERVERS POOL1("load-balancing-mode quality-of-service qos-rtt 1 qos-lcs 1 "
                                     "qos-hit-ratio 0 qos-kilobytes-second 0 qos-packet-rate 0",
                                     "s1:v1 s1:v2") WIDE1;
    assert_string_equal(run1(&r, conf,
             "{\"members\": {\"s1:v1\": {\"up\": true, \"rtt_us\": 100, \"link_capacity\": 100},"
             " \"s1:v2\": {\"up\": true, \"rtt_us\": 50, \"link_capacity\": 20}}}"), "10.0.0.1");
    assert_int_equal(r.o.method, WSEL_GSLB_QOS);
    run_free(&r);
    /* v2 link 60: v2 = 10 + 6 = 16 > 15 => v2 */
    assert_string_equal(run1(&r, conf,
             "{\"members\": {\"s1:v1\": {\"up\": true, \"rtt_us\": 100, \"link_capacity\": 100},"
             " \"s1:v2\": {\"up\": true, \"rtt_us\": 50, \"link_capacity\": 60}}}"), "10.0.0.2");
    run_free(&r);
    /* all coefficients 0: every score 0, round robin (doc/gslb.md §2) */
    run_init(&r, SERVERS POOL1("load-balancing-mode quality-of-service qos-rtt 0 qos-lcs 0 "
                               "qos-hit-ratio 0 qos-kbps 0 qos-packet-rate 0",
                               "s1:v1 s1:v2") WIDE1,
             "{\"members\": {" UP(1) "," UP(2) "}}");
    char out[64];
    seq(&r, "w", 4, out, sizeof out);
    assert_string_equal(out, "1 2 1 2");
    run_free(&r);
    /* dynamic ratio over the QoS scores, qos-rtt 1 alone: v1 10 * 50 / 100 = 5, v2 10:
     * weights 5e5 and 1e6, then equal when v1's RTT is 50 */
    dynamic_ratio_change(SERVERS POOL1("load-balancing-mode quality-of-service dynamic-ratio enabled "
                                       "qos-rtt 1 qos-lcs 0 qos-hit-ratio 0 qos-kilobytes-second 0 "
                                       "qos-packet-rate 0", "s1:v1 s1:v2") WIDE1);
}

static void method_topology_members(void **s)
{
    (void)s;
    run r;
    /* LDNS in 203.0.113.0/24 prefers DC2's members (score 50) over DC1 (score 5) */
    run_init(&r,
             "gtm server a { datacenter DC1 product bigip virtual-servers { v { destination 10.0.0.1:80 } } }\n"
             "gtm server b { datacenter DC2 product bigip virtual-servers { v { destination 10.0.0.2:80 } } }\n"
             "gtm pool a p { load-balancing-mode topology alternate-mode none fallback-mode none members { a:v b:v } }\n"
             "gtm wideip a w { pools { p } }\n"
             "gtm topology ldns: subnet 203.0.113.0/24 server: datacenter DC2 { score 50 }\n"
             "gtm topology ldns: subnet 0.0.0.0/0 server: datacenter DC1 { score 5 }\n",
             "{\"query\": {\"ldns\": \"203.0.113.9\"}, \"members\": {\"a:v\": {\"up\": true}, \"b:v\": {\"up\": true}}}");
    assert_string_equal(first(q(&r, "w")), "10.0.0.2");
    /* another LDNS: only the /0 record scores (DC1) */
    wsel_gslb_addr l;
    assert_true(wsel_gslb_addr_parse("192.0.2.1", &l));
    wsel_gslb_inputs_set_ldns(r.in, &l, NULL);
    assert_string_equal(first(q(&r, "w")), "10.0.0.1");
    /* DC1 down: nothing scores > 0 => FAIL (A-14); alternate and fallback none =>
     * next pool; none left, not all unavailable => return-to-dns */
    wsel_gslb_inputs_set_up(r.in, 0, false, false);
    q(&r, "w");
    assert_int_equal(r.o.kind, WSEL_GSLB_O_RETURN_TO_DNS);
    assert_string_equal(r.o.reason, "no-more-pools");
    run_free(&r);
    /* no topology record at all: every candidate scores 0 (A-14), at either level. The
     * wide IP's topology finds no pool => return-to-dns; the pool's preferred topology
     * fails => its alternate (round-robin, the default) answers with the first member */
    run_init(&r,
             "gtm server a { datacenter DC1 product bigip virtual-servers { v { destination 10.0.0.1:80 } } }\n"
             "gtm server b { datacenter DC2 product bigip virtual-servers { v { destination 10.0.0.2:80 } } }\n"
             "gtm pool a p1 { members { a:v } }\n"
             "gtm pool a p2 { members { b:v } }\n"
             "gtm wideip a w { pool-lb-mode topology pools { p1 p2 } }\n"
             "gtm pool a pt { load-balancing-mode topology members { a:v b:v } }\n"
             "gtm wideip a w2 { pools { pt } }\n",
             "{\"query\": {\"ldns\": \"203.0.113.9\"}, \"members\": {\"a:v\": {\"up\": true}, \"b:v\": {\"up\": true}}}");
    q(&r, "w");
    assert_int_equal(r.o.kind, WSEL_GSLB_O_RETURN_TO_DNS);
    assert_string_equal(r.o.reason, "no-more-pools");
    assert_string_equal(first(q(&r, "w2")), "10.0.0.1");
    assert_int_equal(r.o.step, WSEL_GSLB_STEP_ALTERNATE);
    /* only the alternate's pointer moved: the output state still holds the pool */
    char *js = wsel_gslb_state_json(r.st);
    assert_non_null(js);
    assert_string_equal(js, "{\"persistence\":[],\"pool\":{\"/Common/pt\":{\"alternate\":{\"ratio\":{},"
                            "\"rr\":0}}},\"wideip\":{}}");
    free(js);
    run_free(&r);
}

static void availability_inputs(void **s)
{
    (void)s;
    run r;
    char out[64];
    /* limit_exceeded, VS disabled, server disabled all make members unavailable (3.1) */
    run_init(&r,
             "gtm server a { virtual-servers { x { destination 10.0.0.1:80 } y { disabled destination 10.0.0.2:80 } } }\n"
             "gtm server b { disabled virtual-servers { z { destination 10.0.0.3:80 } } }\n"
             "gtm server c { virtual-servers { w { destination 10.0.0.4:80 } } }\n"
             "gtm pool a p { members { a:x a:y b:z c:w } }\n" WIDE1,
             "{\"members\": {\"a:x\": {\"up\": true, \"limit_exceeded\": true}, \"a:y\": {\"up\": true},"
             " \"b:z\": {\"up\": true}, \"c:w\": {\"up\": true}}}");
    seq(&r, "w", 3, out, sizeof out);
    assert_string_equal(out, "4 4 4");
    run_free(&r);
    /* pool limit_exceeded: unavailable, the next pool answers */
    assert_string_equal(run1(&r, SERVERS "gtm pool a p1 { members { s1:v1 } }\ngtm pool a p2 { members { s1:v2 } }\n"
                 "gtm wideip a w { pool-lb-mode global-availability pools { p1 p2 } }\n",
             "{\"members\": {" UP(1) "," UP(2) "}, \"pools\": {\"p1\": {\"limit_exceeded\": true}}}"), "10.0.0.2");
    run_free(&r);
    /* ECS: with topology-prefer-edns0-client-subnet the ECS address decides, else the LDNS */
    const char *topo =
        "gtm server a { datacenter DC1 virtual-servers { v { destination 10.0.0.1:80 } } }\n"
        "gtm server b { datacenter DC2 virtual-servers { v { destination 10.0.0.2:80 } } }\n"
        "gtm pool a p { load-balancing-mode topology members { a:v b:v } }\n"
        "gtm wideip a w { %s pools { p } }\n"
        "gtm topology ldns: subnet 203.0.113.0/24 server: datacenter DC2 { score 50 }\n"
        "gtm topology ldns: subnet 192.0.2.0/24 server: datacenter DC1 { score 50 }\n";
    const char *in = "{\"query\": {\"ldns\": \"192.0.2.1\", \"ecs\": \"203.0.113.0/24\"},"
                     " \"members\": {\"a:v\": {\"up\": true}, \"b:v\": {\"up\": true}}}";
    char conf[2048];
    snprintf(conf, sizeof conf, topo, "topology-prefer-edns0-client-subnet enabled");
    assert_string_equal(run1(&r, conf, in), "10.0.0.2");
    run_free(&r);
    snprintf(conf, sizeof conf, topo, "");
    assert_string_equal(run1(&r, conf, in), "10.0.0.1");
    run_free(&r);
    /* written out as disabled: as the default, the LDNS decides */
    snprintf(conf, sizeof conf, topo, "topology-prefer-edns0-client-subnet disabled");
    assert_string_equal(run1(&r, conf, in), "10.0.0.1");
    run_free(&r);
}

/* ---- the chain ---------------------------------------------------------------------- */

static void chain_steps(void **s)
{
    (void)s;
    run r;
    /* The pool must be available (else step 3 skips it): v1 up, and a preferred that
     * fails anyway: topology without records (A-14). */
#define FAILPREF "load-balancing-mode topology "
    /* alternate drop-packet => DROP at alternate */
    run1(&r, SERVERS POOL1(FAILPREF "alternate-mode drop-packet", "s1:v1") WIDE1,
             "{\"members\": {" UP(1) "}}");
    assert_int_equal(r.o.kind, WSEL_GSLB_O_DROP);
    assert_int_equal(r.o.step, WSEL_GSLB_STEP_ALTERNATE);
    run_free(&r);
    /* alternate none => fallback (default return-to-dns) */
    run1(&r, SERVERS POOL1(FAILPREF "alternate-mode none", "s1:v1") WIDE1, "{\"members\": {" UP(1) "}}");
    assert_int_equal(r.o.kind, WSEL_GSLB_O_RETURN_TO_DNS);
    assert_string_equal(r.o.reason, "return-to-dns");
    assert_int_equal(r.o.step, WSEL_GSLB_STEP_FALLBACK);
    run_free(&r);
    /* fallback-ip set => FALLBACK_IP with the pool ttl */
    run1(&r, SERVERS POOL1(FAILPREF "alternate-mode none fallback-mode fallback-ip fallback-ip 192.0.2.9 ttl 77", "s1:v1") WIDE1,
             "{\"members\": {" UP(1) "}}");
    assert_int_equal(r.o.kind, WSEL_GSLB_O_FALLBACK_IP);
    assert_string_equal(first(&r.o), "192.0.2.9");
    assert_int_equal(r.o.ttl, 77);
    run_free(&r);
    /* fallback-ip unset (any) => EMPTY (A-28) */
    run1(&r, SERVERS POOL1(FAILPREF "alternate-mode none fallback-mode fallback-ip fallback-ip any", "s1:v1") WIDE1,
             "{\"members\": {" UP(1) "}}");
    assert_int_equal(r.o.kind, WSEL_GSLB_O_EMPTY);
    assert_int_equal(r.o.n_addrs, 0);
    run_free(&r);
    /* verify disabled: the fallback answers with a down member (seed): v1 admin-disabled
     * is still excluded, v2 is down but configured, v3 up keeps the pool available */
    run1(&r, SERVERS POOL1(FAILPREF "alternate-mode none fallback-mode global-availability verify-member-availability disabled",
                               "s1:v1 { disabled } s1:v2 s1:v3") WIDE1, "{\"members\": {" UP(3) "}}");
    assert_int_equal(r.o.kind, WSEL_GSLB_O_ANSWER);
    assert_int_equal(r.o.step, WSEL_GSLB_STEP_FALLBACK);
    assert_string_equal(first(&r.o), "10.0.0.2");
    run_free(&r);
    /* verify enabled: the same pool's fallback takes v3, the first available */
    assert_string_equal(run1(&r, SERVERS POOL1(FAILPREF "alternate-mode none fallback-mode global-availability",
                               "s1:v1 { disabled } s1:v2 s1:v3") WIDE1, "{\"members\": {" UP(3) "}}"), "10.0.0.3");
    run_free(&r);
    /* p1 is available but its chain fails: topology (no records) -> none -> RTT fallback
     * without metrics fails => next pool (A-27) => p2 answers */
    run1(&r, SERVERS
             "gtm pool a p1 { load-balancing-mode topology alternate-mode none\n"
             "  fallback-mode lowest-round-trip-time members { s1:v1 } }\n"
             "gtm pool a p2 { members { s1:v2 } }\n"
             "gtm wideip a w { pool-lb-mode global-availability pools { p1 p2 } }\n",
             "{\"members\": {" UP(1) "," UP(2) "}}");
    assert_int_equal(r.o.kind, WSEL_GSLB_O_ANSWER);
    assert_string_equal(first(&r.o), "10.0.0.2");
    run_free(&r);
}

static void chain_none_cascade(void **s)
{
    (void)s;
    run r;
    /* all-None failover: p1 (GA; v1 down, v2 up but disabled at member level) ...
     * p1 preferred round-robin fails (v1 down) -> alternate none -> fallback none -> p2 */
    const char *conf = SERVERS
        "gtm pool a p1 { alternate-mode none fallback-mode none members { s1:v1 s1:v2 } }\n"
        "gtm pool a p2 { alternate-mode none fallback-mode none members { s1:v3 } }\n"
        "gtm wideip a w { pool-lb-mode global-availability pools { p1 { order 0 } p2 { order 1 } } }\n";
    assert_string_equal(run1(&r, conf, "{\"members\": {" UP(1) "," UP(3) "}}"), "10.0.0.1"); /* GA: p1 while available */
    wsel_gslb_inputs_set_up(r.in, 0, false, false);      /* p1 unavailable */
    assert_string_equal(first(q(&r, "w")), "10.0.0.3");
    assert_string_equal(r.cfg->pools[r.o.pool].name, "/Common/p2");
    /* all down: every pool unavailable => BIND aggregate of all member addresses
     * (list order, deduplicated) */
    wsel_gslb_inputs_set_up(r.in, 2, false, false);
    q(&r, "w");
    assert_int_equal(r.o.kind, WSEL_GSLB_O_BIND_AGGREGATE);
    assert_int_equal(r.o.n_addrs, 3);
    char a[64];
    assert_string_equal(wsel_gslb_addr_str(&r.o.addrs[0], a, sizeof a), "10.0.0.1");
    assert_string_equal(wsel_gslb_addr_str(&r.o.addrs[1], a, sizeof a), "10.0.0.2");
    assert_string_equal(wsel_gslb_addr_str(&r.o.addrs[2], a, sizeof a), "10.0.0.3");
    run_free(&r);
}

static void chain_wideip_terminal(void **s)
{
    (void)s;
    run r;
    /* disabled wide IP (A-11) */
    run1(&r, SERVERS POOL1("", "s1:v1") "gtm wideip a w { disabled pools { p } }\n", "{\"members\": {" UP(1) "}}");
    assert_int_equal(r.o.kind, WSEL_GSLB_O_RETURN_TO_DNS);
    assert_string_equal(r.o.reason, "wideip-disabled");
    run_free(&r);
    /* failure rcode replaces the fall-through (seed; A-25) */
    run1(&r, SERVERS POOL1("", "s1:v1")
             "gtm wideip a w { failure-rcode-response enabled failure-rcode nxdomain failure-rcode-ttl 60 pools { p } }\n",
             "{}");
    assert_int_equal(r.o.kind, WSEL_GSLB_O_RCODE);
    assert_int_equal(r.o.rcode, 3);
    assert_int_equal(r.o.soa_ttl, 60);
    run_free(&r);
    /* ...but not an explicit pool return-to-dns (A-25) */
    run1(&r, SERVERS POOL1("load-balancing-mode return-to-dns", "s1:v1")
             "gtm wideip a w { failure-rcode-response enabled pools { p } }\n",
             "{\"members\": {" UP(1) "}}");
    assert_int_equal(r.o.kind, WSEL_GSLB_O_RETURN_TO_DNS);
    run_free(&r);
    /* last-resort pool runs even though unavailable, and its fallback answers (A-24) */
    run1(&r, SERVERS
             "gtm pool a p { members { s1:v1 } }\n"
             "gtm pool a lr { alternate-mode none fallback-mode global-availability verify-member-availability disabled members { s1:v5 } }\n"
             "gtm wideip a w { persistence enabled last-resort-pool a lr pools { p } }\n",
             "{\"query\": {\"ldns\": \"192.0.2.1\"}}");
    assert_int_equal(r.o.kind, WSEL_GSLB_O_ANSWER);
    assert_int_equal(r.o.step, WSEL_GSLB_STEP_LAST_RESORT);
    assert_int_equal(r.o.pool_step, WSEL_GSLB_STEP_FALLBACK);
    assert_string_equal(first(&r.o), "10.0.0.5");
    char *js = wsel_gslb_state_json(r.st); /* last-resort answers are not recorded (A-22) */
    assert_non_null(strstr(js, "\"persistence\":[]"));
    free(js);
    run_free(&r);
    /* ...and also when it is attached but was not tried: unavailable at position 0 while
     * the pool after it ran and was not terminal (A-24 "never twice" counts the pools
     * that ran, not their neighbours) */
    run1(&r, SERVERS
             "gtm pool a lr { alternate-mode none fallback-mode global-availability verify-member-availability disabled members { s1:v5 } }\n"
             "gtm pool a p2 { load-balancing-mode topology alternate-mode none fallback-mode none members { s1:v1 } }\n"
             "gtm wideip a w { last-resort-pool a lr pools { lr p2 } }\n",
             "{\"members\": {" UP(1) "," DOWN(5) "}, \"query\": {\"ldns\": \"192.0.2.1\"}}");
    assert_int_equal(r.o.kind, WSEL_GSLB_O_ANSWER);
    assert_int_equal(r.o.step, WSEL_GSLB_STEP_LAST_RESORT);
    assert_string_equal(first(&r.o), "10.0.0.5");
    run_free(&r);
    /* min-members-up at-least 2 with 1 up: pool unavailable => aggregate */
    run1(&r, SERVERS POOL1("min-members-up-mode at-least min-members-up-value 2", "s1:v1 s1:v2") WIDE1,
             "{\"members\": {" UP(1) "}}");
    assert_int_equal(r.o.kind, WSEL_GSLB_O_BIND_AGGREGATE);
    run_free(&r);
    /* held down (manual resume) */
    run1(&r, SERVERS POOL1("manual-resume enabled", "s1:v1") WIDE1,
             "{\"members\": {" UP(1) "}, \"pools\": {\"p\": {\"held_down\": true}}}");
    assert_int_equal(r.o.kind, WSEL_GSLB_O_BIND_AGGREGATE);
    run_free(&r);
}

static void chain_dependency(void **s)
{
    (void)s;
    run r;
    /* web2 depends on vs_db: vs_db down => web2 unavailable */
    const char *conf = SERVERS
        "gtm server t { virtual-servers { d { destination 10.1.0.1:80 } w { destination 10.1.0.2:80 depends-on { t:d } } } }\n"
        "gtm pool a p { members { t:w s1:v1 } }\n" WIDE1;
    run_init(&r, conf, "{\"members\": {\"t:w\": {\"up\": true}, \"t:d\": {\"up\": false}, " UP(1) "}}");
    char out[64];
    seq(&r, "w", 3, out, sizeof out);
    assert_string_equal(out, "1 1 1");
    wsel_gslb_inputs_set_up(r.in, 6, true, false); /* t:d is vs index 6 */
    seq(&r, "w", 2, out, sizeof out);
    assert_string_equal(out, "2 1"); /* cursor was on s1:v1 (index 1): next is t:w */
    run_free(&r);
    /* a depends-on cycle makes both unavailable */
    run1(&r, "gtm server t { virtual-servers { a { destination 10.1.0.1:80 depends-on { t:b } } "
                 "b { destination 10.1.0.2:80 depends-on { t:a } } } }\n"
                 "gtm pool a p { members { t:a t:b } }\n" WIDE1,
             "{\"members\": {\"t:a\": {\"up\": true}, \"t:b\": {\"up\": true}}}");
    assert_int_equal(r.o.kind, WSEL_GSLB_O_BIND_AGGREGATE);
    run_free(&r);
}

static void chain_max_answers(void **s)
{
    (void)s;
    run r;
    /* RR with max 2: pick, then the next eligible cyclically (A-36), v2 down */
    run_init(&r, SERVERS POOL1("max-answers-returned 2", "s1:v1 s1:v2 s1:v3 s1:v4") WIDE1,
             "{\"members\": {" UP(1) "," UP(3) "," UP(4) "}}");
    const char *want[][2] = {{"10.0.0.1", "10.0.0.3"}, {"10.0.0.3", "10.0.0.4"}, {"10.0.0.4", "10.0.0.1"}};
    for (int i = 0; i < 3; i++) {
        q(&r, "w");
        assert_int_equal(r.o.n_addrs, 2);
        char a[64];
        assert_string_equal(wsel_gslb_addr_str(&r.o.addrs[0], a, sizeof a), want[i][0]);
        assert_string_equal(wsel_gslb_addr_str(&r.o.addrs[1], a, sizeof a), want[i][1]);
    }
    run_free(&r);
    /* duplicate addresses collapse */
    run1(&r, "gtm server a { virtual-servers { x { destination 10.0.0.1:80 } y { destination 10.0.0.1:443 } } }\n"
                 POOL1("max-answers-returned 3", "a:x a:y") WIDE1,
             "{\"members\": {\"a:x\": {\"up\": true}, \"a:y\": {\"up\": true}}}");
    assert_int_equal(r.o.n_addrs, 1);
    run_free(&r);
}

static void chain_persistence(void **s)
{
    (void)s;
    run r;
    const char *conf = SERVERS
        "gtm pool a p1 { members { s1:v1 s1:v2 } }\n"
        "gtm pool a p2 { members { s1:v3 } }\n"
        "gtm wideip a w { persistence enabled ttl-persistence 100 persist-cidr-ipv4 24 pools { p1 p2 } }\n";
    run_init(&r, conf,
             "{\"now\": 1000, \"query\": {\"ldns\": \"192.0.2.7\"}, \"members\": {" UP(1) "," UP(2) "," UP(3) "}}");
    /* first: wide-IP RR picks p1, member RR picks v1; then persistence pins v1 */
    char out[64];
    seq(&r, "w", 3, out, sizeof out);
    assert_string_equal(out, "1 1 1");
    assert_int_equal(r.o.step, WSEL_GSLB_STEP_PERSIST);
    char *js = wsel_gslb_state_json(r.st);
    assert_non_null(strstr(js, "\"key\":\"192.0.2.0/24\""));
    assert_non_null(strstr(js, "\"expires\":1100"));
    free(js);
    /* the recorded member goes down: normal decision (wide RR moves on to p2) and the
     * record is overwritten */
    wsel_gslb_inputs_set_up(r.in, 0, false, false);
    assert_string_equal(first(q(&r, "w")), "10.0.0.3");
    assert_int_equal(r.o.step, WSEL_GSLB_STEP_PREFERRED);
    wsel_gslb_inputs_set_up(r.in, 0, true, false);
    assert_string_equal(first(q(&r, "w")), "10.0.0.3"); /* persisted to p2/v3 now */
    assert_int_equal(r.o.step, WSEL_GSLB_STEP_PERSIST);
    /* A-22: a hit refreshes the record (idle-based): hit at 1060 => expires 1160, so
     * 1120 still hits (and refreshes to 1220); 1280 is expired => normal decision */
    wsel_gslb_inputs_set_now(r.in, 1060);
    assert_int_equal(q(&r, "w")->step, WSEL_GSLB_STEP_PERSIST);
    wsel_gslb_inputs_set_now(r.in, 1120);
    assert_int_equal(q(&r, "w")->step, WSEL_GSLB_STEP_PERSIST);
    wsel_gslb_inputs_set_now(r.in, 1280);
    q(&r, "w");
    assert_int_equal(r.o.step, WSEL_GSLB_STEP_PREFERRED);
    run_free(&r);
}

static void wideip_methods(void **s)
{
    (void)s;
    run r;
    char out[64];
    const char *pools = SERVERS
        "gtm pool a p1 { members { s1:v1 } }\ngtm pool a p2 { members { s1:v2 } }\n"
        "gtm pool a p3 { members { s1:v3 } }\n";
    const char *all = "{\"members\": {" UP(1) "," UP(2) "," UP(3) "}, \"random\": [5, 0, 4]}";
    char conf[2048];
    snprintf(conf, sizeof conf, "%sgtm wideip a w { pool-lb-mode ratio pools { p1 { ratio 2 } p2 { ratio 1 } p3 { ratio 0 } } }\n", pools);
    /* ratio 2:1 (p3 ratio 0): (2,1)->p1 (-1,1); (1,2)->p2 (1,-1); (3,0)->p1 (0,0) */
    run_init(&r, conf, all);
    seq(&r, "w", 6, out, sizeof out);
    assert_string_equal(out, "1 2 1 1 2 1");
    run_free(&r);
    snprintf(conf, sizeof conf, "%sgtm wideip a w { pools { p1 p2 p3 } }\n", pools);
    run_init(&r, conf, all);
    seq(&r, "w", 4, out, sizeof out);
    assert_string_equal(out, "1 2 3 1");
    run_free(&r);
    /* random: word % available count: 5%3=2 -> p3, 0 -> p1, 4%3=1 -> p2, then exhausted */
    snprintf(conf, sizeof conf, "%sgtm wideip a w { pool-lb-mode random pools { p1 p2 p3 } }\n", pools);
    run_init(&r, conf, all);
    seq(&r, "w", 3, out, sizeof out);
    assert_string_equal(out, "3 1 2");
    wsel_error err;
    assert_int_equal(wsel_gslb_resolve(r.cfg, 0, r.in, r.st, NULL, &r.o, &err), WSEL_E_ARG);
    run_free(&r);
    /* topology at wide-IP level on the example: EU LDNS -> p_dc1 (score 100) */
    run_init(&r, example,
             "{\"query\": {\"ldns\": \"203.0.113.7\"}, \"members\": {\"/Common/bigip-dc1:/Common/vs_web\": {\"up\": true},"
             " \"/Common/bigip-dc1:/Common/vs_db\": {\"up\": true}, \"/Common/host-dc2:web2\": {\"up\": true, \"rtt_us\": 50},"
             " \"/Common/host-dc2:web3\": {\"up\": true, \"rtt_us\": 100}},"
             " \"geo\": {\"203.0.113.7\": {\"continent\": \"EU\", \"country\": \"DE\"}}}");
    assert_string_equal(first(q(&r, "www.example.com")), "192.0.2.100");
    assert_int_equal(r.o.method, WSEL_GSLB_TOPOLOGY);
    /* vs_web down: p_dc1 unavailable; p_dc2 (score 10) wins; its RTT preferred with
     * dynamic-ratio on: weights 1e6 (web2, 50) and 5e5 (web3, 100): web2 first;
     * max-answers 2 fills web3 */
    wsel_gslb_inputs_set_up(r.in, 0, false, false);
    wsel_gslb_addr l;
    assert_true(wsel_gslb_addr_parse("198.18.0.1", &l)); /* new LDNS: no persistence record */
    wsel_gslb_inputs_set_ldns(r.in, &l, NULL);
    q(&r, "www.example.com");
    assert_int_equal(r.o.kind, WSEL_GSLB_O_ANSWER);
    assert_int_equal(r.o.n_addrs, 2);
    assert_string_equal(first(&r.o), "198.51.100.100");
    assert_int_equal(r.o.method, WSEL_GSLB_RTT);
    /* a non-EU LDNS without geo: r_eu does not match (continent unknown), p_dc1 scores 0 */
    run_free(&r);
}

/* ---- property 14: the rendered chain reads back the same (doc/gslb.md §9) --- */

static void round_trip_generated(void **s)
{
    (void)s;
    unsigned accepted = 0;
    for (uint64_t seed = 1; seed <= 400; seed++) {
        wsel_kit_sbuf gen = {0}, r1 = {0}, r2 = {0};
        wsel_kit_gslb_gen_config(seed, &gen);
        assert_false(gen.oom);
        wsel_gslb_config *a = NULL, *b = NULL, *c = NULL;
        if (wsel_gslb_config_load_buffer("gen.conf", gen.s, gen.len, &a, NULL)) {
            free(gen.s);
            continue; /* a repeated member, say: the reader's refusals are tested elsewhere */
        }
        accepted++;
        assert_true(wsel_kit_gslb_render(a, &r1));
        wsel_error err;
        if (wsel_gslb_config_load_buffer("rendered.conf", r1.s, r1.len, &b, &err)) {
            char eb[1024];
            print_error("seed %llu: %s\n--- generated\n%s--- rendered\n%s",
                        (unsigned long long)seed, wsel_error_format(&err, eb, sizeof eb), gen.s, r1.s);
            fail();
        }
        char why[300];
        const char *d = wsel_kit_gslb_diff(a, b, why, sizeof why);
        if (d) {
            print_error("seed %llu: %s\n--- generated\n%s--- rendered\n%s", (unsigned long long)seed,
                        d, gen.s, r1.s);
            fail();
        }
        /* rendering is a fixpoint: the re-read model renders to the same text */
        assert_true(wsel_kit_gslb_render(b, &r2));
        assert_string_equal(r1.s, r2.s);
        /* and the diff can fail: a changed ratio is seen */
        if (b->n_pools && b->pools[0].n_members) {
            assert_int_equal(wsel_gslb_config_load_buffer("again.conf", r1.s, r1.len, &c, NULL), 0);
            c->pools[0].members[0].ratio++;
            assert_non_null(wsel_kit_gslb_diff(a, c, why, sizeof why));
            wsel_gslb_config_free(c);
        }
        wsel_gslb_config_free(a);
        wsel_gslb_config_free(b);
        free(gen.s);
        free(r1.s);
        free(r2.s);
    }
    assert_true(accepted >= 200); /* the generator mostly writes valid configs */
}

/* ---- properties over generated configs (doc/gslb.md §9) ---------------------------------------- */

static void properties_generated(void **s)
{
    (void)s;
    uint64_t seed = 12345;
    static const char *const modes[] = {"round-robin", "ratio", "global-availability"};
    for (int round = 0; round < 150; round++) {
        int n = 1 + (int)(wsel_kit_mix(&seed) % 6);
        int mode = (int)(wsel_kit_mix(&seed) % 3);
        int w[6], up[6];
        char conf[4096], mem[1024] = "", json[1024] = "{\"members\": {";
        for (int i = 0; i < n; i++) {
            w[i] = (int)(wsel_kit_mix(&seed) % 4);
            up[i] = (int)(wsel_kit_mix(&seed) % 3) != 0;
            size_t l = strlen(mem);
            snprintf(mem + l, sizeof mem - l, "s1:v%d { ratio %d } ", i + 1, w[i]);
            l = strlen(json);
            snprintf(json + l, sizeof json - l, "%s\"s1:v%d\": {\"up\": %s}", i ? ", " : "", i + 1,
                     up[i] ? "true" : "false");
        }
        strcat(json, "}}");
        snprintf(conf, sizeof conf,
                 SERVERS "gtm pool a p { load-balancing-mode %s alternate-mode drop-packet members { %s } }\n" WIDE1,
                 modes[mode], mem);
        run r, r2;
        run_init(&r, conf, json);
        run_init(&r2, conf, json);
        int W = 0, k = 0, firstup = -1;
        for (int i = 0; i < n; i++) {
            k += up[i];
            if (up[i] && w[i] > 0)
                W += w[i];
            if (up[i] && firstup < 0)
                firstup = i;
        }
        int cycle = mode == 1 ? W : k;
        int reps = 3;
        int counts[6] = {0};
        for (int t = 0; t < reps * (cycle ? cycle : 1); t++) {
            const wsel_gslb_outcome *o = q(&r, "w");
            const wsel_gslb_outcome *o2 = q(&r2, "w");
            /* determinism (property 1) */
            assert_int_equal(o->kind, o2->kind);
            char a1[64];
            snprintf(a1, sizeof a1, "%s", first(o));
            assert_string_equal(a1, first(o2));
            if (o->kind != WSEL_GSLB_O_ANSWER) {
                /* no member up: the pool is unavailable => BIND aggregate; members up but
                 * none eligible for ratio: preferred failed, alternate drop-packet */
                assert_int_equal(o->kind, k == 0 ? WSEL_GSLB_O_BIND_AGGREGATE : WSEL_GSLB_O_DROP);
                assert_true(cycle == 0);
                continue;
            }
            int m = atoi(strrchr(first(o), '.') + 1) - 1;
            assert_true(up[m]); /* property 7 */
            assert_int_equal(o->step, WSEL_GSLB_STEP_PREFERRED);
            counts[m]++;
            if (mode == 2)
                assert_int_equal(m, firstup); /* property 4 */
        }
        if (cycle)
            for (int i = 0; i < n; i++) {
                int want = !up[i] ? 0 : mode == 0 ? reps : mode == 1 ? reps * w[i] : (i == firstup ? reps * k : 0);
                if (counts[i] != want) {
                    print_error("round %d mode %s member %d: %d picks, expected %d\n", round, modes[mode], i,
                                counts[i], want);
                    fail();
                }
            }
        char *a = wsel_gslb_state_json(r.st), *b = wsel_gslb_state_json(r2.st);
        assert_string_equal(a, b);
        free(a);
        free(b);
        run_free(&r);
        run_free(&r2);
    }
}

/* ---- the state fed back (issue 24): what resolve writes is the next run's inputs ---- */

/* Inputs for generated config c: every virtual server up (four in five), each metric
 * present or null at random, an LDNS of four, `now` from a list that reaches 2^63-1, 64
 * random words. The text goes to b (jansson object, the caller frees). */
static json_t *gen_inputs(const wsel_gslb_config *c, uint64_t *seed)
{
    static const uint64_t nows[] = {0, 1700000000, (uint64_t)INT64_MAX - 5, (uint64_t)INT64_MAX};
    static const char *const ldns[] = {"192.0.2.1", "192.0.2.200", "198.51.100.7", "2001:db8::1"};
    json_t *in = json_object(), *members = json_object(), *rnd = json_array(), *q = json_object();
    for (size_t v = 0; v < c->n_vs; v++) {
        char key[600];
        snprintf(key, sizeof key, "%s:%s", c->servers[c->vs[v].server].name, c->vs[v].name);
        json_t *m = json_object();
        json_object_set_new(m, "up", json_boolean(wsel_kit_mix(seed) % 5 != 0));
        for (int k = 0; k < WSEL_GSLB_METRIC_COUNT_; k++)
            json_object_set_new(m, wsel_gslb_metric_key((wsel_gslb_metric)k),
                                wsel_kit_mix(seed) % 4 ? json_integer((json_int_t)(wsel_kit_mix(seed) % 1000))
                                                       : json_null());
        json_object_set_new(members, key, m);
    }
    for (int k = 0; k < 64; k++)
        json_array_append_new(rnd, json_integer((json_int_t)(wsel_kit_mix(seed) >> 2)));
    json_object_set_new(q, "ldns", json_string(ldns[wsel_kit_mix(seed) % 4]));
    json_object_set_new(in, "now", json_integer((json_int_t)nows[wsel_kit_mix(seed) % 4]));
    json_object_set_new(in, "query", q);
    json_object_set_new(in, "members", members);
    json_object_set_new(in, "random", rnd);
    return in;
}

/* inputs with the state written by a run in place of its state, persistence and random
 * words (those not used yet). */
static wsel_gslb_inputs *fed_back(const wsel_gslb_config *c, json_t *in, const char *state)
{
    json_error_t je;
    json_t *st = json_loads(state, 0, &je), *next = json_deep_copy(in);
    assert_non_null(st);
    json_t *rnd = json_object_get(next, "random"), *left = json_array();
    size_t used = (size_t)json_integer_value(json_object_get(st, "random_used"));
    for (size_t k = used; k < json_array_size(rnd); k++)
        json_array_append(left, json_array_get(rnd, k));
    json_object_set_new(next, "random", left);
    json_object_set(next, "persistence", json_object_get(st, "persistence"));
    json_t *mst = json_object();
    json_object_set(mst, "wideip", json_object_get(st, "wideip"));
    json_object_set(mst, "pool", json_object_get(st, "pool"));
    json_object_set_new(next, "state", mst);
    char *text = json_dumps(next, JSON_COMPACT);
    wsel_gslb_inputs *out = NULL;
    wsel_error err;
    if (wsel_gslb_inputs_load_buffer(c, "fed.json", text, strlen(text), &out, &err)) {
        print_error("the state written is refused as inputs: %s\n%s\n", err.message, text);
        fail();
    }
    free(text);
    json_decref(next);
    json_decref(st);
    return out;
}

/* One answer as text: outcome kind, pool, step and addresses. */
static void answer_text(const wsel_gslb_outcome *o, char *buf, size_t len)
{
    int n = snprintf(buf, len, "%d %ld %d", (int)o->kind, o->pool, (int)o->step);
    for (size_t k = 0; k < o->n_addrs && n > 0 && (size_t)n < len; k++) {
        char a[64];
        n += snprintf(buf + n, len - (size_t)n, " %s", wsel_gslb_addr_str(&o->addrs[k], a, sizeof a));
    }
}

/* Over generated configs and inputs, every wide IP: -n a+b gives the answers and the
 * state of -n a, then -n b on inputs carrying the state written after a (round-robin
 * cursors, ratio counters, persistence, random words), and that state is always read
 * back (an `expires` near 2^63 included). */
static void state_fed_back_generated(void **s)
{
    (void)s;
    uint64_t seed = 2024;
    unsigned runs = 0;
    for (uint64_t cs = 1; cs <= 120; cs++) {
        wsel_kit_sbuf gen = {0};
        wsel_kit_gslb_gen_config(cs, &gen);
        wsel_gslb_config *c = NULL;
        if (wsel_gslb_config_load_buffer("gen.conf", gen.s, gen.len, &c, NULL)) {
            free(gen.s);
            continue;
        }
        free(gen.s);
        json_t *in = gen_inputs(c, &seed);
        char *text = json_dumps(in, JSON_COMPACT);
        wsel_gslb_inputs *i0 = NULL;
        assert_int_equal(wsel_gslb_inputs_load_buffer(c, "gen.json", text, strlen(text), &i0, NULL), 0);
        free(text);
        for (size_t w = 0; w < c->n_wideips; w++) {
            size_t a = 1 + wsel_kit_mix(&seed) % 7, b = 1 + wsel_kit_mix(&seed) % 7;
            wsel_gslb_state *whole, *first;
            assert_int_equal(wsel_gslb_state_new(c, i0, &whole, NULL), 0);
            assert_int_equal(wsel_gslb_state_new(c, i0, &first, NULL), 0);
            char want[16][1024], got[1024];
            wsel_gslb_outcome o;
            bool ok = true;
            for (size_t k = 0; k < a + b && ok; k++) {
                ok = wsel_gslb_resolve(c, (long)w, i0, whole, NULL, &o, NULL) == 0;
                answer_text(&o, want[k], sizeof want[k]);
            }
            for (size_t k = 0; k < a && ok; k++)
                assert_int_equal(wsel_gslb_resolve(c, (long)w, i0, first, NULL, &o, NULL), 0);
            if (ok) { /* (a run out of random words is refused alike: not this property) */
                char *mid = wsel_gslb_state_json(first);
                wsel_gslb_inputs *i1 = fed_back(c, in, mid);
                wsel_gslb_state *second;
                assert_int_equal(wsel_gslb_state_new(c, i1, &second, NULL), 0);
                for (size_t k = a; k < a + b; k++) {
                    assert_int_equal(wsel_gslb_resolve(c, (long)w, i1, second, NULL, &o, NULL), 0);
                    answer_text(&o, got, sizeof got);
                    if (strcmp(got, want[k])) {
                        print_error("config %llu wide IP %zu: query %zu of %zu+%zu: '%s', fed back '%s'\n",
                                    (unsigned long long)cs, w, k + 1, a, b, want[k], got);
                        fail();
                    }
                }
                char *end = wsel_gslb_state_json(second), *whole_end = wsel_gslb_state_json(whole);
                wsel_gslb_inputs_free(fed_back(c, in, end)); /* read back once more */
                json_t *x = json_loads(end, 0, NULL), *y = json_loads(whole_end, 0, NULL);
                json_object_del(x, "random_used"); /* counted from each run's own inputs */
                json_object_del(y, "random_used");
                assert_true(json_equal(x, y));
                json_decref(x);
                json_decref(y);
                wsel_free(end);
                wsel_free(whole_end);
                wsel_free(mid);
                wsel_gslb_state_free(second);
                wsel_gslb_inputs_free(i1);
                runs++;
            }
            wsel_gslb_state_free(whole);
            wsel_gslb_state_free(first);
        }
        wsel_gslb_inputs_free(i0);
        json_decref(in);
        wsel_gslb_config_free(c);
    }
    assert_true(runs >= 50);
}

/* ---- decision log ------------------------------------------------------------------- */

typedef struct lines {
    char text[4096];
    unsigned flags;
    const wsel_gslb_config *cfg; /* the events' config, for the text lines */
} lines;

/* Each event as its text line (wsel_gslb_event_format), one per line. */
static void collect(void *ctx, const wsel_gslb_event *ev)
{
    lines *l = ctx;
    char line[1024];
    l->flags |= 1u << ev->kind;
    wsel_gslb_event_format(l->cfg, ev, line, sizeof line);
    strncat(l->text, line, sizeof l->text - strlen(l->text) - 2);
    strcat(l->text, "\n");
}

/* Each member-traversal event's member index, reason and depends, as "i:reason:depends ". */
static void collect_depends(void *ctx, const wsel_gslb_event *ev)
{
    char *out = ctx;
    if (ev->kind == WSEL_GSLB_EV_MEMBER_TRAVERSAL)
        sprintf(out + strlen(out), "%ld:%d:%ld ", ev->member, (int)ev->reason, ev->depends);
}

/* A member unavailable through depends-on names the failed entry, written as in the
 * config (include/wsel/gslb.h: "dependency:SERVER:VS"), and "dependency:cycle" only for
 * the entry that closes a cycle; the same on a later query, when the availability of the
 * inputs is already known (it was decided for the pool before any member was logged, and
 * is kept per inputs generation). t:a depends on t:b (up) and t:c (down): entry 1, t:c;
 * t:x and t:y depend on each other: deciding t:x decides t:y first, whose entry back to
 * t:x closes the cycle. A member down for another reason has depends -1. */
static void decision_log_dependency(void **s)
{
    (void)s;
    run r;
    run_init(&r, SERVERS
             "gtm server t { virtual-servers { a { destination 10.1.0.1:80 depends-on { t:b t:c } }"
             " b { destination 10.1.0.2:80 } c { destination 10.1.0.3:80 }"
             " x { destination 10.1.0.4:80 depends-on { t:y } } y { destination 10.1.0.5:80 depends-on { t:x } } } }\n"
             POOL1("", "t:a t:x t:y s1:v2 s1:v1") WIDE1,
             "{\"members\": {\"t:a\": {\"up\": true}, \"t:b\": {\"up\": true}, \"t:c\": {\"up\": false},"
             " \"t:x\": {\"up\": true}, \"t:y\": {\"up\": true}, " UP(1) "}}");
    const char *want =
        "pool-member-traversal pool=/Common/p step=preferred method=round-robin member=t:a result=skipped reason=dependency:t:c\n"
        "pool-member-traversal pool=/Common/p step=preferred method=round-robin member=t:x result=skipped reason=dependency:t:y\n"
        "pool-member-traversal pool=/Common/p step=preferred method=round-robin member=t:y result=skipped reason=dependency:cycle\n"
        "pool-member-traversal pool=/Common/p step=preferred method=round-robin member=s1:v2 result=skipped reason=down\n";
    for (int k = 0; k < 2; k++) {
        lines l = {"", 0, r.cfg};
        wsel_gslb_log log = {WSEL_GSLB_LOG_ALL, collect, &l};
        assert_int_equal(wsel_gslb_resolve(r.cfg, 0, r.in, r.st, &log, &r.o, NULL), 0);
        if (!strstr(l.text, want))
            fail_msg("query %d's log:\n%s", k + 1, l.text);
    }
    char ev[256] = "";
    wsel_gslb_log raw = {WSEL_GSLB_LOG_ALL, collect_depends, ev};
    assert_int_equal(wsel_gslb_resolve(r.cfg, 0, r.in, r.st, &raw, &r.o, NULL), 0);
    char exp[256];
    snprintf(exp, sizeof exp, "0:%d:1 1:%d:0 2:%d:-1 3:%d:-1 ", (int)WSEL_GSLB_WHY_DEPENDENCY,
             (int)WSEL_GSLB_WHY_DEPENDENCY, (int)WSEL_GSLB_WHY_DEPENDENCY, (int)WSEL_GSLB_WHY_DOWN);
    if (strncmp(ev, exp, strlen(exp)) != 0)
        fail_msg("events %s, expected %s...", ev, exp);
    run_free(&r);
}

static void decision_log(void **s)
{
    (void)s;
    run r;
    run_init(&r, SERVERS POOL1("", "s1:v1 s1:v2") WIDE1, "{\"query\": {\"ldns\": \"192.0.2.1\"}, \"members\": {" UP(2) "}}");
    lines l = {"", 0, r.cfg};
    wsel_gslb_log log = {WSEL_GSLB_LOG_ALL, collect, &l};
    assert_int_equal(wsel_gslb_resolve(r.cfg, 0, r.in, r.st, &log, &r.o, NULL), 0);
    assert_string_equal(l.text,
        "pool-selection wideip=/Common/w ldns=192.0.2.1 method=round-robin pool=/Common/p reason=single-pool\n"
        "pool-traversal wideip=/Common/w pool=/Common/p pos=0 result=selected reason=available(1/2 up)\n"
        "pool-member-traversal pool=/Common/p step=preferred method=round-robin member=s1:v1 result=skipped reason=down\n"
        "pool-member-traversal pool=/Common/p step=preferred method=round-robin member=s1:v2 result=eligible reason=available\n"
        "pool-member-selection pool=/Common/p step=preferred method=round-robin member=s1:v2 addr=10.0.0.2 n_answers=1 reason=rr-next\n"
        "pool-traversal wideip=/Common/w pool=/Common/p pos=0 result=terminal reason=answer\n"
        "result outcome=answer wideip=/Common/w pool=/Common/p step=preferred detail=10.0.0.2\n");
    /* only the result line without flags */
    lines l2 = {"", 0, r.cfg};
    wsel_gslb_log none = {0, collect, &l2};
    assert_int_equal(wsel_gslb_resolve(r.cfg, 0, r.in, r.st, &none, &r.o, NULL), 0);
    assert_string_equal(l2.text, "result outcome=answer wideip=/Common/w pool=/Common/p step=preferred detail=10.0.0.2\n");
    assert_int_equal(l2.flags, WSEL_GSLB_LOG_RESULT);
    run_free(&r);
    /* dynamic reasons name the metric; ties say they went round robin; ratio-0 is logged */
    run_init(&r, SERVERS POOL1("load-balancing-mode cpu alternate-mode ratio", "s1:v1 s1:v2 { ratio 0 } s1:v3") WIDE1,
             "{\"members\": {\"s1:v1\": {\"up\": true, \"cpu_pct\": 10}, \"s1:v2\": {\"up\": true, \"cpu_pct\": 10},"
             " \"s1:v3\": {\"up\": true}}}");
    lines l3 = {"", 0, r.cfg};
    wsel_gslb_log all = {WSEL_GSLB_LOG_ALL, collect, &l3};
    assert_int_equal(wsel_gslb_resolve(r.cfg, 0, r.in, r.st, &all, &r.o, NULL), 0);
    assert_non_null(strstr(l3.text, "member=s1:v3 result=skipped reason=no-metric:cpu_pct\n"));
    assert_null(strstr(l3.text, "member=s1:v3 result=eligible")); /* skipped once, not eligible first */
    assert_non_null(strstr(l3.text, "member=s1:v1 addr=10.0.0.1 n_answers=1 reason=best cpu_pct=10 tie->rr\n"));
    run_free(&r);
    run_init(&r, SERVERS POOL1("load-balancing-mode ratio", "s1:v1 s1:v2 { ratio 0 }") WIDE1,
             "{\"members\": {" UP(1) "," UP(2) "}}");
    lines l4 = {"", 0, r.cfg};
    wsel_gslb_log all4 = {WSEL_GSLB_LOG_ALL, collect, &l4};
    assert_int_equal(wsel_gslb_resolve(r.cfg, 0, r.in, r.st, &all4, &r.o, NULL), 0);
    assert_non_null(strstr(l4.text, "method=ratio member=s1:v2 result=skipped reason=ratio-0\n"));
    assert_null(strstr(l4.text, "member=s1:v2 result=eligible"));
    assert_non_null(strstr(l4.text, "reason=ratio w=1 cur=0\n"));
    run_free(&r);
    /* static persist: the logged pick is the answer's first address (§9 property 11), also
     * when the top of the hash order is the first member (list index 0). The LDNS is found
     * with the independent computation (expected_persist_member), over 10.0.K.1. Kills
     * ref/gslb/gslb_select.c@7372ee1a5b+2:ror:<:<=:1 (the log named the next in the order). */
    static const char *const pkeys[] = {"/Common/s1:v1", "/Common/s1:v2", "/Common/s1:v3", "/Common/s1:v4"};
    int found = 0;
    for (unsigned k = 0; k < 256 && !found; k++) {
        uint8_t ip[4] = {10, 0, (uint8_t)k, 1};
        int up[4] = {1, 1, 1, 1};
        if (expected_persist_member(ip, 24, pkeys, up, 4) != 0)
            continue;
        found = 1;
        char json[512];
        snprintf(json, sizeof json,
                 "{\"query\": {\"ldns\": \"10.0.%u.1\"}, \"members\": {" UP(1) "," UP(2) "," UP(3) "," UP(4) "}}", k);
        run_init(&r, SERVERS "gtm global-settings load-balancing { static-persist-cidr-ipv4 24 }\n"
                 POOL1("load-balancing-mode static-persistence", "s1:v1 s1:v2 s1:v3 s1:v4") WIDE1, json);
        lines l5 = {"", 0, r.cfg};
        wsel_gslb_log sel = {WSEL_GSLB_LOG_MEMBER_SELECTION, collect, &l5};
        assert_int_equal(wsel_gslb_resolve(r.cfg, 0, r.in, r.st, &sel, &r.o, NULL), 0);
        assert_string_equal(first(&r.o), "10.0.0.1");
        assert_non_null(strstr(l5.text, "member=s1:v1 addr=10.0.0.1 n_answers=1 reason=hash-rank=0\n"));
        run_free(&r);
    }
    assert_true(found);
}

/* wsel__gslb_in_subnet (the topology scorer's test, written without a masked copy) says
 * what masking says: a masked to the prefix equals the network, all 16 bytes; over
 * random addresses near random networks of both families, every prefix length, and bytes
 * beyond an IPv4 address's four set or not. */
static void subnet_match_is_mask(void **s)
{
    (void)s;
    uint64_t x = 0x9e3779b97f4a7c15ull;
    for (int k = 0; k < 20000; k++) {
        wsel_gslb_addr a, net;
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        uint8_t fam = (x >> 60) & 1 ? 6 : 4;
        unsigned prefix = (unsigned)(x >> 32) % (fam == 4 ? 34 : 130);
        for (int i = 0; i < 16; i++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            a.bytes[i] = (uint8_t)(x >> 56);
            net.bytes[i] = (x >> 40) & 3 ? a.bytes[i] : (uint8_t)(x >> 48); /* mostly alike */
        }
        a.family = net.family = fam;
        if ((x >> 20) & 1)
            net = wsel__gslb_mask(&net, prefix);
        if ((x >> 21) & 1) /* the unused bytes of an IPv4 address, as the parser leaves them */
            for (int i = 4; i < 16 && fam == 4; i++)
                a.bytes[i] = net.bytes[i] = 0;
        wsel_gslb_addr m = wsel__gslb_mask(&a, prefix);
        bool want = memcmp(m.bytes, net.bytes, 16) == 0;
        if (wsel__gslb_in_subnet(&a, &net, prefix) != want) {
            print_error("case %d: family %u prefix %u: want %d\n", k, fam, prefix, want);
            fail();
        }
    }
}

/* ---- nested regions (A-39) ------------------------------------------------------ */

/* Appends to a growing buffer (asserts on overflow). */
#define REGION_HEAD                                                                                \
    "gtm server a { datacenter DC1 product bigip virtual-servers { v { destination 10.0.0.1:80 } } }\n" \
    "gtm server b { datacenter DC2 product bigip virtual-servers { v { destination 10.0.0.2:80 } } }\n" \
    "gtm pool a p { load-balancing-mode topology alternate-mode none fallback-mode none members { a:v b:v } }\n" \
    "gtm wideip a w { pools { p } }\n"
#define REGION_IN "{\"query\": {\"ldns\": \"%s\"}, \"members\": {\"a:v\": {\"up\": true}, \"b:v\": {\"up\": true}}}"

static void set_ldns(run *r, const char *text)
{
    wsel_gslb_addr l;
    assert_true(wsel_gslb_addr_parse(text, &l));
    wsel_gslb_inputs_set_ldns(r->in, &l, NULL);
}

/* Regions A_i and B_i each holding A_{i+1} and B_{i+1} (depth 30, 2^31 paths): a region's
 * membership is worked out once per subject, so one query looks at each region entry at
 * most once for the source and once per candidate (here 120 entries, 2 candidates), and
 * the answer is the one A-40 gives. Before A-39 the walk followed every path
 * (2^31 entry visits, seconds per query). */
static void topology_regions_nested_exponential(void **s)
{
    (void)s;
    enum { DEPTH = 30 };
    wsel_kit_sbuf conf = {0};
    wsel_kit_sb_printf(&conf, "%s", REGION_HEAD);
    for (int i = 0; i < DEPTH; i++)
        for (int ab = 0; ab < 2; ab++) {
            if (i + 1 < DEPTH)
                wsel_kit_sb_printf(&conf,
                    "gtm region %c%d { region-members { region %c%d { } region %c%d { } } }\n",
                    "AB"[ab], i, 'A', i + 1, 'B', i + 1);
            else
                wsel_kit_sb_printf(&conf,
                    "gtm region %c%d { region-members { subnet 198.51.100.0/24 { } } }\n", "AB"[ab], i);
        }
    wsel_kit_sb_printf(&conf, "gtm topology ldns: region A0 server: datacenter DC1 { order 1 score 10 }\n"
                                 "gtm topology ldns: subnet 0.0.0.0/0 server: datacenter DC2 { order 2 score 5 }\n");
    char json[256];
    snprintf(json, sizeof json, REGION_IN, "203.0.113.9");
    run r;
    assert_false(conf.oom);
    run_init(&r, conf.s, json);
    const uint64_t entries = 2 * DEPTH * 2 - 2; /* 2 entries per region, 1 at the bottom */
    uint64_t before = wsel__gslb_region_evals(r.st);
    assert_string_equal(first(q(&r, "w")), "10.0.0.2"); /* not in A0: only DC2 scores */
    uint64_t used = wsel__gslb_region_evals(r.st) - before;
    if (used > entries) { /* the source's regions once; no region on the server side */
        print_error("one query evaluated %llu region entries (at most %llu)\n",
                    (unsigned long long)used, (unsigned long long)entries);
        fail();
    }
    set_ldns(&r, "198.51.100.7");
    before = wsel__gslb_region_evals(r.st);
    assert_string_equal(first(q(&r, "w")), "10.0.0.1"); /* in A0 through every level */
    assert_true(wsel__gslb_region_evals(r.st) - before <= entries);
    run_free(&r);
    free(conf.s);
}

/* A chain R0 > R1 > ... > R(n-1) deeper than the old limit of 32: it matches at any depth
 * on the LDNS side (the engine) and on the server side (lint G018 "can never score" is not
 * reported, the member scores). */
static void topology_regions_deep_chain(void **s)
{
    (void)s;
    static const int depths[] = {33, 40, 1000};
    wsel_kit_sbuf conf = {0};
    for (size_t d = 0; d < sizeof depths / sizeof depths[0]; d++) {
        int n = depths[d];
        conf.len = 0;
        wsel_kit_sb_printf(&conf, "%s", REGION_HEAD);
        for (int i = 0; i < n; i++) {
            if (i + 1 < n) {
                wsel_kit_sb_printf(&conf, "gtm region R%d { region-members { region R%d { } } }\n", i, i + 1);
                wsel_kit_sb_printf(&conf, "gtm region S%d { region-members { region S%d { } } }\n", i, i + 1);
            } else {
                wsel_kit_sb_printf(&conf,
                    "gtm region R%d { region-members { subnet 198.51.100.0/24 { } } }\n", i);
                wsel_kit_sb_printf(&conf, "gtm region S%d { region-members { datacenter DC1 { } } }\n", i);
            }
        }
        wsel_kit_sb_printf(&conf,
            "gtm topology ldns: region R0 server: datacenter DC1 { order 1 score 10 }\n"
            "gtm topology ldns: subnet 203.0.113.0/24 server: region S0 { order 2 score 20 }\n"
            "gtm topology ldns: subnet 0.0.0.0/0 server: datacenter DC2 { order 3 score 5 }\n");
        char json[256];
        snprintf(json, sizeof json, REGION_IN, "198.51.100.7");
        run r;
        assert_false(conf.oom);
        run_init(&r, conf.s, json);
        assert_string_equal(first(q(&r, "w")), "10.0.0.1"); /* LDNS in R0 at depth n */
        set_ldns(&r, "203.0.113.9");
        assert_string_equal(first(q(&r, "w")), "10.0.0.1"); /* member a in S0 at depth n */
        set_ldns(&r, "192.0.2.1");
        assert_string_equal(first(q(&r, "w")), "10.0.0.2"); /* neither: DC2 by the /0 */
        wsel_gslb_finding *f = NULL;
        size_t nf = 0;
        assert_int_equal(wsel_gslb_lint(r.cfg, &f, &nf, NULL), 0);
        for (size_t i = 0; i < nf; i++)
            if (f[i].code == 18) {
                print_error("depth %d: G018 at %s: %s\n", n, f[i].object, f[i].message);
                fail();
            }
        free(f);
        run_free(&r);
    }
    free(conf.s);
}

/* A-40 (supersedes A-12): a region's `not` entries exclude. R = 198.51.100.0/24 without
 * its upper half; N = everything but 203.0.113.0/24. Expected by the rule: an LDNS in R's
 * lower half scores member a (DC1, 10); in its upper half it is excluded from R and only
 * N holds it (b, DC2, 5); 203.0.113.9 is in neither (nothing scores: return to DNS);
 * 192.0.2.1 is not in R (no positive entry matches) but is in N. Under A-12 the union
 * put the upper half, 203.0.113.9 and 192.0.2.1 all in R (answer a). At wide-IP level a
 * region { pool p1, pool p2, not pool p1 } holds p2 only, and a region whose only entry
 * is a country holds no pool (A-34). */
static void topology_regions_not(void **s)
{
    (void)s;
    static const char conf[] =
        REGION_HEAD
        "gtm region R { region-members { subnet 198.51.100.0/24 { } not subnet 198.51.100.128/25 { } } }\n"
        "gtm region N { region-members { not subnet 203.0.113.0/24 { } } }\n"
        "gtm topology ldns: region R server: datacenter DC1 { order 1 score 10 }\n"
        "gtm topology ldns: region N server: datacenter DC2 { order 2 score 5 }\n";
    static const struct { const char *ldns, *want; } cases[] = {
        {"198.51.100.7", "10.0.0.1"}, {"198.51.100.200", "10.0.0.2"},
        {"203.0.113.9", ""}, {"192.0.2.1", "10.0.0.2"},
    };
    char json[256];
    snprintf(json, sizeof json, REGION_IN, "198.51.100.7");
    run r;
    run_init(&r, conf, json);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        set_ldns(&r, cases[i].ldns);
        const wsel_gslb_outcome *o = q(&r, "w");
        if (strcmp(first(o), cases[i].want))
            print_error("LDNS %s: answer '%s', expected '%s'\n", cases[i].ldns, first(o), cases[i].want);
        assert_string_equal(first(o), cases[i].want);
        assert_int_equal(o->kind, *cases[i].want ? WSEL_GSLB_O_ANSWER : WSEL_GSLB_O_RETURN_TO_DNS);
    }
    run_free(&r);
    static const char wconf[] =
        "gtm server a { datacenter DC1 product bigip virtual-servers { v { destination 10.0.0.1:80 } } }\n"
        "gtm server b { datacenter DC2 product bigip virtual-servers { v { destination 10.0.0.2:80 } } }\n"
        "gtm pool a p1 { members { a:v } }\ngtm pool a p2 { members { b:v } }\n"
        "gtm wideip a w { pool-lb-mode topology pools { p1 p2 } }\n"
        "gtm region X { region-members { pool p1 { } pool p2 { } not pool p1 { } } }\n"
        "gtm region C { region-members { country DE { } } }\n"
        "gtm topology ldns: subnet 0.0.0.0/0 server: region C { order 1 score 50 }\n"
        "gtm topology ldns: subnet 0.0.0.0/0 server: region X { order 2 score 10 }\n";
    run_init(&r, wconf, json);
    for (int k = 0; k < 3; k++) /* p2 every time: p1 scores nothing, no tie to rotate */
        assert_string_equal(first(q(&r, "w")), "10.0.0.2");
    run_free(&r);
}

/* ---- prepared topology (doc/gslb.md §10) ----------------------------------------- */

/* The first RECORD event of the log's walk over every record (wsel__gslb_topo_log, the
 * engine's plain evaluation, which the prepared lists do not touch): the score. */
typedef struct first_record {
    bool seen;
    unsigned score;
} first_record;

static void first_record_fn(void *ctx, const wsel_gslb_event *ev)
{
    first_record *f = ctx;
    if (!f->seen) {
        f->seen = true;
        f->score = (unsigned)ev->number;
    }
}

static unsigned walk_score(wsel__gslb_query *qq, size_t p, long member)
{
    first_record f = {false, 0};
    wsel_gslb_log log = {WSEL_GSLB_LOG_ALL, first_record_fn, &f};
    const wsel_gslb_log *was = qq->log;
    qq->log = &log;
    wsel_gslb_event ev = wsel__gslb_event(qq, member < 0 ? WSEL_GSLB_EV_POOL_SELECTION
                                                         : WSEL_GSLB_EV_MEMBER_TRAVERSAL);
    ev.pool = (long)p;
    ev.member = member;
    wsel__gslb_topo_log(qq, &ev);
    qq->log = was;
    return f.seen ? f.score : 0;
}

/* A generated condition: [not] TYPE VALUE, the types a side allows. */
static void gen_cond(wsel_kit_sbuf *b, uint64_t *seed, bool server, size_t region_from)
{
    static const char *const ldns_side[] = {"subnet 198.51.100.0/24", "subnet 203.0.113.0/24",
                                            "subnet 0.0.0.0/0", "country DE", "continent EU"};
    static const char *const server_side[] = {"subnet 10.1.0.0/16", "subnet 10.0.0.0/8",
                                              "datacenter DC0", "datacenter DC2", "pool p1",
                                              "pool p3", "country FR", "country DE"};
    if (!wsel_kit_range(seed, 0, 3))
        wsel_kit_sb_printf(b, "not ");
    if (region_from < 4 && !wsel_kit_range(seed, 0, 2)) {
        wsel_kit_sb_printf(b, "region R%u", (unsigned)wsel_kit_range(seed, region_from, 3));
        return;
    }
    if (server)
        wsel_kit_sb_printf(b, "%s", server_side[wsel_kit_range(seed, 0, 7)]);
    else
        wsel_kit_sb_printf(b, "%s", ldns_side[wsel_kit_range(seed, 0, 4)]);
}

/* A config of 4 servers (datacenters DC0-DC2), 4 topology pools, a topology wide IP w0 and
 * the same preferring ECS (w1), regions R0-R3 (R_i names only R_j, j > i) and topology
 * records of every kind, sides negated at random. */
static void gen_topology_config(wsel_kit_sbuf *b, uint64_t *seed)
{
    b->len = 0;
    for (int sv = 0; sv < 4; sv++)
        wsel_kit_sb_printf(b, "gtm server s%d { datacenter DC%d product bigip virtual-servers { "
                              "v0 { destination 10.%d.0.1:80 } v1 { destination 10.%d.0.2:80 } "
                              "v2 { destination 192.0.2.%d:80 } } }\n", sv, sv % 3, sv, sv, sv + 1);
    for (int p = 0; p < 4; p++) {
        wsel_kit_sb_printf(b, "gtm pool a p%d { load-balancing-mode topology alternate-mode none "
                              "fallback-mode none members {", p);
        unsigned pick = (unsigned)wsel_kit_range(seed, 1, 4095); /* which of the 12 VSs */
        for (unsigned k = 0; k < 12; k++)
            if (pick >> k & 1)
                wsel_kit_sb_printf(b, " s%u:v%u { }", k / 3, k % 3);
        wsel_kit_sb_printf(b, " } }\n");
    }
    wsel_kit_sb_printf(b, "gtm wideip a w0 { pool-lb-mode topology pools { p0 p1 p2 p3 } }\n"
                          "gtm wideip a w1 { pool-lb-mode topology "
                          "topology-prefer-edns0-client-subnet enabled pools { p0 p1 p2 p3 } }\n");
    for (size_t r = 0; r < 4; r++) {
        wsel_kit_sb_printf(b, "gtm region R%zu { region-members {", r);
        int n = (int)wsel_kit_range(seed, 1, 3);
        for (int k = 0; k < n; k++) {
            wsel_kit_sb_printf(b, " ");
            gen_cond(b, seed, true, r + 1);
            wsel_kit_sb_printf(b, " { }");
        }
        wsel_kit_sb_printf(b, " } }\n");
    }
    int n = (int)wsel_kit_range(seed, 1, 10);
    for (int t = 0; t < n; t++) {
        wsel_kit_sb_printf(b, "gtm topology ldns: ");
        gen_cond(b, seed, false, 0);
        wsel_kit_sb_printf(b, " server: ");
        gen_cond(b, seed, true, 0);
        wsel_kit_sb_printf(b, " { order %u score %u }\n", (unsigned)wsel_kit_range(seed, 1, 5),
                           (unsigned)wsel_kit_range(seed, 0, 3) * 10);
    }
}

/* Scores from the prepared lists (and kept per inputs generation and source) equal the
 * log's walk over every record and the unprepared path, for every pool and member, over
 * generated configs (regions, negations, geo on both sides, ECS); and the answers of a
 * state with prepared lists equal those of one without, query after query. */
static void topology_prepared_equals_walk(void **s)
{
    (void)s;
    static const char *const sources[] = {"198.51.100.7", "203.0.113.9", "192.0.2.1", "10.1.0.5"};
    uint64_t seed = 24;
    wsel_kit_sbuf conf = {0};
    size_t compared = 0, nonzero = 0;
    for (int c = 0; c < 300; c++) {
        gen_topology_config(&conf, &seed);
        assert_false(conf.oom);
        char json[1024];
        snprintf(json, sizeof json,
                 "{\"query\": {\"ldns\": \"198.51.100.7\", \"ecs\": \"203.0.113.9\"}, \"members\": {"
                 "\"s0:v0\": {\"up\": true}, \"s0:v1\": {\"up\": true}, \"s1:v0\": {\"up\": true}, "
                 "\"s1:v2\": {\"up\": true}, \"s2:v0\": {\"up\": true}, \"s2:v1\": {\"up\": true}, "
                 "\"s3:v0\": {\"up\": true}, \"s3:v2\": {\"up\": true}}, \"geo\": {"
                 "\"198.51.100.7\": {\"continent\": \"EU\", \"country\": \"DE\"}, "
                 "\"10.1.0.1\": {\"country\": \"FR\"}, \"10.2.0.2\": {\"country\": \"DE\"}, "
                 "\"192.0.2.4\": {\"country\": \"FR\"}}}");
        run a, b;
        run_init(&a, conf.s, json);
        run_init(&b, conf.s, json);
        assert_true(a.st->topo.on);
        b.st->topo.on = false; /* every record's server side tested at query time */
        for (size_t k = 0; k < 8; k++) {
            const char *l = sources[wsel_kit_range(&seed, 0, 3)];
            const char *e = sources[wsel_kit_range(&seed, 0, 3)];
            wsel_gslb_addr la, ea;
            assert_true(wsel_gslb_addr_parse(l, &la) && wsel_gslb_addr_parse(e, &ea));
            wsel_gslb_inputs_set_ldns(a.in, &la, &ea);
            wsel_gslb_inputs_set_ldns(b.in, &la, &ea);
            const char *w = k & 1 ? "w1" : "w0";
            char ans_a[64], ans_b[64];
            const wsel_gslb_outcome *oa = q(&a, w);
            snprintf(ans_a, sizeof ans_a, "%d %s", oa->kind, first(oa));
            const wsel_gslb_outcome *ob = q(&b, w);
            snprintf(ans_b, sizeof ans_b, "%d %s", ob->kind, first(ob));
            if (strcmp(ans_a, ans_b))
                print_error("config %d query %zu (%s, ldns %s, ecs %s): prepared '%s', not '%s'\n%s",
                            c, k, w, l, e, ans_a, ans_b, conf.s);
            assert_string_equal(ans_a, ans_b);
            /* every candidate's score right after the query (its epoch and number), for
             * the wide IP queried and then the other one (the other source, same epoch) */
            for (int other = 0; other < 2; other++) {
            if (other) { /* as a new query would: the per-query memos start again */
                w = k & 1 ? "w0" : "w1";
                for (run *x = &a; x; x = x == &a ? &b : NULL) {
                    x->st->topo.query++;
                    x->st->region_src_ok = false;
                }
            }
            wsel__gslb_query qa = {.cfg = a.cfg, .in = a.in, .st = a.st, .out = &a.o,
                                   .wideip = (size_t)wsel_gslb_find_wideip(a.cfg, w)};
            wsel__gslb_query qb = {.cfg = b.cfg, .in = b.in, .st = b.st, .out = &b.o,
                                   .wideip = qa.wideip};
            for (size_t p = 0; p < a.cfg->n_pools; p++) {
                for (long i = -1; i < (long)a.cfg->pools[p].n_members; i++) {
                    if (i >= 0 && a.cfg->pools[p].members[i].vs < 0)
                        continue;
                    unsigned want = walk_score(&qa, p, i);
                    for (int again = 0; again < 2; again++) { /* worked out, then kept */
                        unsigned got = i < 0 ? wsel__gslb_topo_pool(&qa, p)
                                             : wsel__gslb_topo_member(&qa, p, (size_t)i);
                        unsigned plain = i < 0 ? wsel__gslb_topo_pool(&qb, p)
                                               : wsel__gslb_topo_member(&qb, p, (size_t)i);
                        if (got != want || plain != want)
                            print_error("config %d (%s, ldns %s, ecs %s) pool p%zu member %ld: "
                                        "prepared %u, unprepared %u, walk %u\n%s",
                                        c, w, l, e, p, i, got, plain, want, conf.s);
                        assert_int_equal(got, want);
                        assert_int_equal(plain, want);
                    }
                    compared++;
                    nonzero += want > 0;
                }
            }
            }
        }
        run_free(&a);
        run_free(&b);
    }
    free(conf.s);
    assert_true(nonzero > compared / 10); /* the generator reaches scoring records */
}

/* A region holding itself through others is a parse error at the region the walk started
 * from (file order), not a hang, also at the end of a long chain; lint on an A_i/B_i
 * graph ending in nothing the server side can match finishes and reports G018. */
static void topology_regions_cycle(void **s)
{
    (void)s;
    wsel_error err;
    assert_int_equal(load_err("gtm region A { region-members { region B { } } }\n"
                              "gtm region B { region-members { region C { } } }\n"
                              "gtm region C { region-members { region A { } } }\n",
                              &err),
                     WSEL_E_PARAM);
    assert_int_equal(err.line, 1);
    assert_string_equal(err.object, "/Common/A");
    assert_non_null(strstr(err.message, "cycle"));
    wsel_kit_sbuf conf = {0};
    for (int i = 0; i < 2000; i++)
        wsel_kit_sb_printf(&conf, "gtm region R%d { region-members { region R%d { } } }\n", i,
            i + 1 < 2000 ? i + 1 : 1000);
    assert_false(conf.oom);
    assert_int_equal(load_err(conf.s, &err), WSEL_E_PARAM);
    assert_string_equal(err.object, "/Common/R0");
    /* lint over the exponential graph on the server side: every candidate, linear */
    conf.len = 0;
    wsel_kit_sb_printf(&conf, "%s", REGION_HEAD);
    for (int i = 0; i < 30; i++)
        for (int ab = 0; ab < 2; ab++)
            if (i + 1 < 30)
                wsel_kit_sb_printf(&conf,
                    "gtm region %c%d { region-members { region A%d { } region B%d { } } }\n", "AB"[ab], i,
                    i + 1, i + 1);
            else
                wsel_kit_sb_printf(&conf, "gtm region %c%d { region-members { datacenter DC9 { } } }\n",
                    "AB"[ab], i);
    wsel_kit_sb_printf(&conf,
        "gtm topology ldns: subnet 0.0.0.0/0 server: region A0 { score 10 }\n");
    assert_false(conf.oom);
    wsel_gslb_config *c = load(conf.s);
    wsel_gslb_finding *f = NULL;
    size_t nf = 0, g18 = 0;
    assert_int_equal(wsel_gslb_lint(c, &f, &nf, NULL), 0);
    for (size_t i = 0; i < nf; i++)
        g18 += f[i].code == 18;
    assert_int_equal(g18, 1); /* pool p: topology can never score */
    free(f);
    wsel_gslb_config_free(c);
    free(conf.s);
}

/* ---- API conventions (include/wsel/common.h) ----------------------------------------- */

/* Every call given NULL for an object or a required out pointer: WSEL_E_ARG (out set to
 * NULL), or NULL / -1 / "" / nothing done where the call returns no status. */
static void api_null_handles(void **s)
{
    (void)s;
    wsel_error err;
    wsel_gslb_addr a;
    char buf[64];
    assert_int_equal(wsel_gslb_method_find(NULL), -1);
    assert_null(wsel_gslb_method_get(WSEL_GSLB_METHOD_COUNT_));
    assert_string_equal(wsel_gslb_metric_key(WSEL_GSLB_METRIC_COUNT_), "?");
    assert_string_equal(wsel_gslb_metric_key(WSEL_GSLB_M_CPU), "cpu_pct");
    assert_false(wsel_gslb_addr_parse(NULL, &a));
    assert_false(wsel_gslb_addr_parse("192.0.2.1", NULL));
    assert_string_equal(wsel_gslb_addr_str(NULL, buf, sizeof buf), "");
    wsel_gslb_config *c = (wsel_gslb_config *)&err; /* set to NULL on failure */
    assert_int_equal(wsel_gslb_config_load_file(NULL, &c, &err), WSEL_E_ARG);
    assert_null(c);
    assert_int_equal(wsel_gslb_config_load_file("x.conf", NULL, &err), WSEL_E_ARG);
    assert_int_equal(wsel_gslb_config_load_buffer("x", "", 0, NULL, &err), WSEL_E_ARG);
    assert_int_equal(wsel_gslb_config_load_buffer("x", NULL, 3, &c, &err), WSEL_E_ARG);
    wsel_gslb_config_free(NULL);
    c = load(SERVERS "gtm pool a p { members { s1:v1 } }\ngtm wideip a w { pools { p } }\n");
    assert_int_equal(wsel_gslb_find_wideip(NULL, "w"), -1);
    assert_int_equal(wsel_gslb_find_wideip(c, NULL), -1);
    /* lint */
    wsel_gslb_finding *f = (wsel_gslb_finding *)&err;
    size_t n = 7;
    assert_int_equal(wsel_gslb_lint(NULL, &f, &n, &err), WSEL_E_ARG);
    assert_null(f);
    assert_int_equal(n, 0);
    assert_int_equal(wsel_gslb_lint(c, NULL, &n, &err), WSEL_E_ARG);
    assert_int_equal(wsel_gslb_lint(c, &f, NULL, &err), WSEL_E_ARG);
    assert_int_equal(wsel_gslb_lint(c, &f, &n, &err), 0);
    wsel_free(f);
    /* inputs */
    wsel_gslb_inputs *in = (wsel_gslb_inputs *)&err;
    assert_int_equal(wsel_gslb_inputs_load_file(NULL, "in.json", &in, &err), WSEL_E_ARG);
    assert_null(in);
    assert_int_equal(wsel_gslb_inputs_load_file(c, NULL, &in, &err), WSEL_E_ARG);
    assert_int_equal(wsel_gslb_inputs_load_file(c, "in.json", NULL, &err), WSEL_E_ARG);
    assert_int_equal(wsel_gslb_inputs_load_buffer(NULL, "i", "{}", 2, &in, &err), WSEL_E_ARG);
    assert_int_equal(wsel_gslb_inputs_load_buffer(c, "i", NULL, 2, &in, &err), WSEL_E_ARG);
    assert_int_equal(wsel_gslb_inputs_load_buffer(c, "i", "{}", 2, NULL, &err), WSEL_E_ARG);
    assert_int_equal(wsel_gslb_inputs_new(NULL, &in, &err), WSEL_E_ARG);
    assert_int_equal(wsel_gslb_inputs_new(c, NULL, &err), WSEL_E_ARG);
    wsel_gslb_inputs_free(NULL);
    wsel_gslb_inputs_set_up(NULL, 0, true, false);
    wsel_gslb_inputs_set_metric(NULL, 0, WSEL_GSLB_M_RTT, 1);
    wsel_gslb_inputs_set_pool(NULL, 0, true, false);
    wsel_gslb_inputs_set_ldns(NULL, &a, NULL);
    wsel_gslb_inputs_set_now(NULL, 1);
    assert_null(wsel_gslb_inputs_qname(NULL));
    in = inputs(c, "{\"members\": {" UP(1) "}}");
    wsel_gslb_inputs_set_up(in, 99, false, false); /* out of range: nothing */
    wsel_gslb_inputs_set_pool(in, 99, true, false);
    wsel_gslb_inputs_set_metric(in, 0, WSEL_GSLB_METRIC_COUNT_, 1);
    assert_string_equal(wsel_gslb_inputs_qname(in), "");
    /* state, resolve */
    wsel_gslb_state *st = (wsel_gslb_state *)&err;
    assert_int_equal(wsel_gslb_state_new(NULL, in, &st, &err), WSEL_E_ARG);
    assert_null(st);
    assert_int_equal(wsel_gslb_state_new(c, in, NULL, &err), WSEL_E_ARG);
    wsel_gslb_state_free(NULL);
    assert_null(wsel_gslb_state_json(NULL));
    assert_int_equal(wsel_gslb_state_new(c, in, &st, &err), 0);
    wsel_gslb_outcome o;
    assert_int_equal(wsel_gslb_resolve(NULL, 0, in, st, NULL, &o, &err), WSEL_E_ARG);
    assert_int_equal(wsel_gslb_resolve(c, 0, NULL, st, NULL, &o, &err), WSEL_E_ARG);
    assert_int_equal(wsel_gslb_resolve(c, 0, in, NULL, NULL, &o, &err), WSEL_E_ARG);
    assert_int_equal(wsel_gslb_resolve(c, 0, in, st, NULL, NULL, &err), WSEL_E_ARG);
    assert_int_equal(wsel_gslb_resolve(c, 1, in, st, NULL, &o, &err), WSEL_E_ARG);
    assert_int_equal(wsel_gslb_resolve(c, 0, in, st, NULL, &o, &err), 0);
    assert_string_equal(first(&o), "10.0.0.1");
    char *js = wsel_gslb_state_json(st);
    assert_non_null(js);
    wsel_free(js);
    /* events */
    wsel_gslb_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = WSEL_GSLB_EV_RESULT;
    strcpy(buf, "x");
    assert_int_equal(wsel_gslb_event_format(NULL, &ev, buf, sizeof buf), 0);
    assert_string_equal(buf, "");
    assert_int_equal(wsel_gslb_event_format(c, NULL, buf, sizeof buf), 0);
    assert_int_equal(wsel_gslb_event_reason(NULL, &ev, buf, sizeof buf), 0);
    assert_int_equal(wsel_gslb_event_reason(c, NULL, NULL, 0), 0);
    assert_string_equal(wsel_gslb_event_pool(NULL, &ev), "?");
    assert_string_equal(wsel_gslb_event_pool(c, NULL), "?");
    assert_string_equal(wsel_gslb_event_method(NULL), "?");
    assert_int_equal(wsel_gslb_event_record_line(NULL, &ev), 0);
    assert_string_equal(wsel_gslb_event_name((wsel_gslb_event_kind)99), "?");
    /* the edges of the kinds (include/wsel/gslb.h): RESULT is the last one, named "result";
     * the value right after it is unknown ("?"; kills ref/gslb/gslb_log.c@5dbfa6ee5f:ror:<:<=:1,
     * which read one name past the table) */
    assert_string_equal(wsel_gslb_event_name(WSEL_GSLB_EV_POOL_SELECTION), "pool-selection");
    assert_string_equal(wsel_gslb_event_name(WSEL_GSLB_EV_RESULT), "result");
    assert_string_equal(wsel_gslb_event_name((wsel_gslb_event_kind)(WSEL_GSLB_EV_RESULT + 1)), "?");
    assert_string_equal(wsel_gslb_result_name((wsel_gslb_result)99), "?");
    /* and of the results: MATCHED is the last one (kills ref/gslb/gslb_log.c@8cb3d8fc45:ror:<:<=:1) */
    assert_string_equal(wsel_gslb_result_name(WSEL_GSLB_R_SKIPPED), "skipped");
    assert_string_equal(wsel_gslb_result_name(WSEL_GSLB_R_MATCHED), "matched");
    assert_string_equal(wsel_gslb_result_name((wsel_gslb_result)(WSEL_GSLB_R_MATCHED + 1)), "?");
    /* the step, outcome and rcode names: first, last, the value after the last and one far
     * past it are "?" (kills core/gslb/gslb_model.c@92c29294c8:aor:/:*:1, whose bound of
     * 48 entries read past the six step names) */
    assert_string_equal(wsel_gslb_step_name(WSEL_GSLB_STEP_PREFERRED), "preferred");
    assert_string_equal(wsel_gslb_step_name(WSEL_GSLB_STEP_NONE), "none");
    assert_string_equal(wsel_gslb_step_name((wsel_gslb_step)(WSEL_GSLB_STEP_NONE + 1)), "?");
    assert_string_equal(wsel_gslb_step_name((wsel_gslb_step)40), "?");
    assert_string_equal(wsel_gslb_outcome_name(WSEL_GSLB_O_ANSWER), "answer");
    assert_string_equal(wsel_gslb_outcome_name(WSEL_GSLB_O_RCODE), "rcode");
    assert_string_equal(wsel_gslb_outcome_name((wsel_gslb_outcome_kind)(WSEL_GSLB_O_RCODE + 1)), "?");
    assert_string_equal(wsel_gslb_outcome_name((wsel_gslb_outcome_kind)40), "?");
    assert_string_equal(wsel_gslb_rcode_name(0), "noerror");
    assert_string_equal(wsel_gslb_rcode_name(10), "notzone");
    assert_string_equal(wsel_gslb_rcode_name(11), "?");
    assert_string_equal(wsel_gslb_rcode_name(80), "?");
    wsel_gslb_state_free(st);
    wsel_gslb_inputs_free(in);
    wsel_gslb_config_free(c);
}

/* wsel_gslb_event_format writes like snprintf: the whole length returned, the line cut
 * to fit and NUL-terminated, nothing written with len 0; indexes the config does not have
 * render as "?" (a hand-made event), never read out of bounds. */
static void event_format_bounds(void **s)
{
    (void)s;
    run r;
    run_init(&r, SERVERS POOL1("", "s1:v1") WIDE1, "{\"members\": {" UP(1) "}}");
    lines l = {"", 0, r.cfg};
    wsel_gslb_log log = {0, collect, &l};
    assert_int_equal(wsel_gslb_resolve(r.cfg, 0, r.in, r.st, &log, &r.o, NULL), 0);
    static const char want[] = "result outcome=answer wideip=/Common/w pool=/Common/p step=preferred detail=10.0.0.1";
    assert_string_equal(l.text, "result outcome=answer wideip=/Common/w pool=/Common/p step=preferred detail=10.0.0.1\n");
    wsel_gslb_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = WSEL_GSLB_EV_RESULT;
    ev.wideip = 0;
    ev.pool = 0;
    ev.step = WSEL_GSLB_STEP_PREFERRED;
    ev.answer = &r.o;
    char small[11];
    assert_int_equal(wsel_gslb_event_format(r.cfg, &ev, small, sizeof small), strlen(want));
    assert_string_equal(small, "result out");
    assert_int_equal(wsel_gslb_event_format(r.cfg, &ev, NULL, 0), strlen(want));
    char reason[32];
    assert_int_equal(wsel_gslb_event_reason(r.cfg, &ev, reason, sizeof reason), 8);
    assert_string_equal(reason, "10.0.0.1");
    ev.kind = WSEL_GSLB_EV_MEMBER_TRAVERSAL;
    ev.pool = 5;
    ev.member = 9;
    ev.method = 77;
    ev.result = WSEL_GSLB_R_SKIPPED;
    ev.reason = WSEL_GSLB_WHY_DEPENDENCY;
    ev.depends = 3;
    char line[256];
    wsel_gslb_event_format(r.cfg, &ev, line, sizeof line);
    assert_string_equal(line, "pool-member-traversal pool=? step=preferred method=- member=- result=skipped reason=dependency:?");
    run_free(&r);
}

WSEL_TEST_MAIN("gslb",
               cmocka_unit_test(parse_example_defaults),
               cmocka_unit_test(parse_order_and_names),
               cmocka_unit_test(parse_unknown_kept), cmocka_unit_test(aaaa_types),
               cmocka_unit_test(parse_strings_comments),
               cmocka_unit_test(parse_errors),
               cmocka_unit_test(parse_limits),
               cmocka_unit_test(addr_lengths),
               cmocka_unit_test(inputs_errors),
               cmocka_unit_test(method_round_robin),
               cmocka_unit_test(method_ratio),
               cmocka_unit_test(method_global_availability),
               cmocka_unit_test(method_static_persist),
               cmocka_unit_test(method_dynamic),
               cmocka_unit_test(method_qos),
               cmocka_unit_test(method_topology_members),
               cmocka_unit_test(availability_inputs),
               cmocka_unit_test(chain_steps),
               cmocka_unit_test(chain_none_cascade),
               cmocka_unit_test(chain_wideip_terminal),
               cmocka_unit_test(chain_dependency),
               cmocka_unit_test(chain_max_answers),
               cmocka_unit_test(chain_persistence),
               cmocka_unit_test(wideip_methods),
               cmocka_unit_test(properties_generated),
               cmocka_unit_test(round_trip_generated),
               cmocka_unit_test(decision_log),
               cmocka_unit_test(decision_log_dependency),
               cmocka_unit_test(subnet_match_is_mask),
               cmocka_unit_test(topology_regions_nested_exponential),
               cmocka_unit_test(topology_regions_deep_chain),
               cmocka_unit_test(topology_regions_cycle),
               cmocka_unit_test(topology_regions_not),
               cmocka_unit_test(topology_prepared_equals_walk),
               cmocka_unit_test(state_fed_back_generated),
               cmocka_unit_test(api_null_handles),
               cmocka_unit_test(event_format_bounds))
