/* GSLB lint: every check G001-G036 (doc/gslb.md §8.2) with a config that triggers it and one that
 * does not, its severity from the lint table (man wsel), and the expected lint of doc/gslb.md §8.2. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "support/support.h"

#define S1 "gtm server /Common/s1 { datacenter /Common/DC1 product bigip virtual-servers {\n" \
           "  v1 { destination 10.0.0.1:80 } v2 { destination 10.0.0.2:80 } } }\n"
#define S6 "gtm server /Common/s6 { virtual-servers { v6 { destination 2001:db8::6.80 } } }\n"
#define G1 "gtm server /Common/g1 { datacenter /Common/DC2 product generic-host virtual-servers {\n" \
           "  v1 { destination 10.0.1.1:80 } } }\n"
#define W(p) "gtm wideip a w { pools { " p " } }\n"
#define P(attrs) "gtm pool a p { " attrs " members { s1:v1 s1:v2 } }\n"
#define P2 "gtm pool a p2 { members { s1:v2 } }\n"

typedef struct lcase {
    unsigned code;
    char sev; /* E W I */
    const char *trigger, *clean;
} lcase;

static const lcase cases[] = {
    {1, 'E', S1 P("fallback-mode fallback-ip") W("p"),
     S1 P("fallback-mode fallback-ip fallback-ip 192.0.2.1") W("p")},
    {2, 'W', S1 P("dynamic-ratio enabled") W("p"),
     S1 P("load-balancing-mode lowest-round-trip-time dynamic-ratio enabled") W("p")},
    {3, 'W', S1 P("load-balancing-mode global-availability") W("p"),
     S1 P("load-balancing-mode global-availability fallback-mode none") W("p")},
    {4, 'W', S1 P("load-balancing-mode topology") "gtm wideip a w { pool-lb-mode topology pools { p } }\n"
                 "gtm topology ldns: subnet 0.0.0.0/0 server: pool p { }\n",
     S1 P("load-balancing-mode topology fallback-mode none") "gtm wideip a w { pool-lb-mode topology pools { p } }\n"
        "gtm topology ldns: subnet 0.0.0.0/0 server: pool p { }\n"},
    {5, 'E', S1 P("alternate-mode lowest-round-trip-time") W("p"), S1 P("alternate-mode packet-rate") W("p")},
    {6, 'W', S1 G1 "gtm pool a p { load-balancing-mode least-connections members { g1:v1 } }\n" W("p"),
     S1 G1 "gtm pool a p { load-balancing-mode least-connections members { s1:v1 } }\n" W("p")},
    {6, 'W', S1 G1 "gtm pool a p { load-balancing-mode fewest-hops members { g1:v1 } }\n" W("p"),
     S1 G1 "gtm server /Common/b2 { datacenter /Common/DC2 product bigip }\n"
           "gtm pool a p { load-balancing-mode fewest-hops members { g1:v1 } }\n" W("p")},
    {7, 'I', S1 P("") "gtm wideip a w { pool-lb-mode ratio pools { p } }\n", S1 P("") W("p")},
    {8, 'W', S1 P("verify-member-availability disabled fallback-mode round-robin") W("p"),
     S1 P("verify-member-availability disabled") W("p")},
    {9, 'I', S1 P("load-balancing-mode fallback-ip fallback-ip 192.0.2.1") W("p"),
     S1 P("fallback-mode fallback-ip fallback-ip 192.0.2.1") W("p")},
    {10, 'E', S1 P("load-balancing-mode none") W("p"), S1 P("load-balancing-mode round-robin") W("p")},
    {11, 'I', S1 P("load-balancing-mode return-to-dns") W("p"), S1 P("alternate-mode return-to-dns") W("p")},
    {12, 'I', S1 P("load-balancing-mode ratio alternate-mode ratio") W("p"), S1 P("") W("p")},
    /* the alternate written: a repeat the operator chose; the preferred written with the
     * default alternate (round robin after round robin): the default pair, no finding */
    {12, 'I', S1 P("alternate-mode round-robin") W("p"), S1 P("load-balancing-mode round-robin") W("p")},
    {12, 'I', S1 P("load-balancing-mode round-robin alternate-mode round-robin") W("p"),
     S1 P("load-balancing-mode global-availability") W("p")},
    {13, 'E', S1 "gtm pool a p { members { s1:v9 } }\n" W("p"), S1 "gtm pool a p { members { s1:v1 } }\n" W("p")},
    {13, 'E', S1 P("") W("p nope"), S1 P("") W("p")},
    {14, 'E', S1 "gtm pool a p { }\n" W("p"), S1 P("") W("p")},
    {14, 'E', S1 P("") "gtm wideip a w { }\n", S1 P("") W("p")},
    {15, 'E', S1 P("") "gtm wideip a w { last-resort-pool a nope pools { p } }\n",
     S1 P("") "gtm pool a p2 { members { s1:v1 } }\ngtm wideip a w { last-resort-pool a p2 pools { p } }\n"},
    {15, 'E', S1 P("") "gtm wideip a w { last-resort-pool aaaa p pools { p } }\n",
     S1 P("") "gtm wideip a w { last-resort-pool none pools { p } }\n"},
    {16, 'I', S1 P("") "gtm wideip a w { last-resort-pool a p pools { p } }\n",
     S1 P("") "gtm pool a p2 { members { s1:v1 } }\ngtm wideip a w { last-resort-pool a p2 pools { p } }\n"},
    {17, 'I', S1 P("load-balancing-mode ratio") W("p"),
     S1 "gtm pool a p { load-balancing-mode ratio members { s1:v1 s1:v2 { ratio 2 } } }\n" W("p")},
    {17, 'I', S1 "gtm pool a p { load-balancing-mode ratio members { s1:v1 { ratio 0 } s1:v2 { ratio 2 } } }\n" W("p"),
     S1 "gtm pool a p { members { s1:v1 { ratio 0 } s1:v2 { ratio 2 } } }\n" W("p")},
    {18, 'W', S1 P("load-balancing-mode topology fallback-mode none") W("p"),
     S1 P("load-balancing-mode topology fallback-mode none") W("p")
        "gtm topology ldns: subnet 10.0.0.0/8 server: pool /Common/p { }\n"},
    {18, 'W', S1 P("load-balancing-mode topology fallback-mode none") W("p")
                  "gtm topology ldns: subnet 10.0.0.0/8 server: datacenter /Common/DC9 { }\n",
     S1 P("load-balancing-mode topology fallback-mode none") W("p")
        "gtm topology ldns: subnet 10.0.0.0/8 server: datacenter /Common/DC1 { }\n"},
    {19, 'W', S1 P("load-balancing-mode quality-of-service qos-rtt 0 qos-lcs 0 qos-hit-ratio 0 qos-kbps 0 qos-packet-rate 0") W("p"),
     S1 P("load-balancing-mode quality-of-service") W("p")},
    {20, 'E', S1 P("fallback-mode fallback-ip fallback-ip 2001:db8::1") W("p"),
     S1 P("fallback-mode fallback-ip fallback-ip 192.0.2.1") W("p")},
    {21, 'E', "gtm server t { virtual-servers { a { destination 10.1.0.1:80 depends-on { t:b } }\n"
              "  b { destination 10.1.0.2:80 depends-on { t:a } } } }\n"
              "gtm pool a p { members { t:a t:b } }\n" W("p"),
     "gtm server t { virtual-servers { a { destination 10.1.0.1:80 depends-on { t:b } }\n"
     "  b { destination 10.1.0.2:80 } } }\n"
     "gtm pool a p { members { t:a t:b } }\n" W("p")},
    {22, 'I', S1 P("") "gtm wideip a w { failure-rcode nxdomain pools { p } }\n",
     S1 P("") "gtm wideip a w { failure-rcode-response enabled failure-rcode nxdomain pools { p } }\n"},
    {23, 'I', S1 P("max-answers-returned 3") W("p"), S1 P("max-answers-returned 2") W("p")},
    {24, 'I', S1 P("") "gtm wideip a w { persistence enabled ttl-persistence 0 pools { p } }\n",
     S1 P("") "gtm wideip a w { persistence enabled ttl-persistence 10 pools { p } }\n"},
    {25, 'I', S1 P("manual-resume enabled") W("p"), S1 P("manual-resume disabled") W("p")},
    {26, 'W', S1 P("") "gtm pool a p2 { members { s1:v1 } }\ngtm wideip a w { pool-lb-mode random pools { p p2 } }\n",
     S1 P("") "gtm pool a p2 { members { s1:v1 } }\ngtm wideip a w { pool-lb-mode round-robin pools { p p2 } }\n"},
    {27, 'I', S1 P("") "gtm wideip a w { rules { /Common/my_rule } pools { p } }\n", S1 P("") W("p")},
    {28, 'W', S1 P("load-balancing-mode static-persistence")
                  "gtm global-settings load-balancing { static-persist-cidr-ipv4 0 }\n" W("p"),
     S1 P("load-balancing-mode static-persistence")
        "gtm global-settings load-balancing { static-persist-cidr-ipv4 24 }\n" W("p")},
    {29, 'I', S1 P("") "gtm pool a p2 { members { s1:v2 } }\n"
                  "gtm wideip a w { pool-lb-mode topology pools { p p2 } }\n"
                  "gtm topology ldns: subnet 0.0.0.0/0 server: datacenter /Common/DC1 { }\n"
                  "gtm topology ldns: subnet 0.0.0.0/0 server: pool p { }\n",
     S1 P("load-balancing-mode topology fallback-mode none") "gtm pool a p2 { members { s1:v2 } }\n"
        "gtm wideip a w { pool-lb-mode topology pools { p p2 } }\n"
        "gtm topology ldns: subnet 0.0.0.0/0 server: datacenter /Common/DC1 { }\n"
        "gtm topology ldns: subnet 0.0.0.0/0 server: pool p { }\n"},
    {30, 'I', S1 P("frobnicate yes") W("p"), S1 P("") W("p")},
    {30, 'I', S1 P("") W("p") "gtm datacenter /Common/DC1 { }\n", S1 P("") W("p")},
    /* G031 (doc/gslb.md §8.2): a reachable terminal fallback in a pool before the last */
    {31, 'W', S1 P("load-balancing-mode topology alternate-mode none") P2 W("p p2"), /* default fallback */
     S1 P("load-balancing-mode topology alternate-mode none") P2 W("p2 p")},         /* p is the last */
    {31, 'W', S1 P("load-balancing-mode topology alternate-mode none") P2 W("p { order 0 } p2 { order 1 }"),
     S1 P("load-balancing-mode topology alternate-mode none") P2 W("p { order 1 } p2 { order 0 }")},
    {31, 'W', S1 P("load-balancing-mode lowest-round-trip-time alternate-mode none fallback-mode drop-packet") P2 W("p p2"),
     S1 P("load-balancing-mode lowest-round-trip-time alternate-mode none fallback-mode none") P2 W("p p2")},
    {31, 'W', S1 P("load-balancing-mode ratio alternate-mode topology fallback-mode fallback-ip fallback-ip 192.0.2.1")
                  P2 W("p p2"),
     /* the default alternate round robin always answers from an available pool */
     S1 P("load-balancing-mode ratio fallback-mode return-to-dns") P2 W("p p2")},
    {31, 'W', S1 P("load-balancing-mode topology alternate-mode none fallback-mode return-to-dns") P2 W("p p2"),
     /* topology at both levels: G004 says it */
     S1 P("load-balancing-mode topology alternate-mode none fallback-mode return-to-dns") P2
        "gtm wideip a w { pool-lb-mode topology pools { p p2 } }\n"},
    {31, 'W', S1 P("load-balancing-mode static-persistence alternate-mode none") P2 W("p p2"),
     /* preferred global availability (G003's case) answers whenever the pool is available */
     S1 P("load-balancing-mode global-availability alternate-mode none") P2 W("p p2")},
    {31, 'W', S1 P("load-balancing-mode static-persistence alternate-mode none") P2 W("p p2"),
     S1 P("load-balancing-mode static-persistence alternate-mode none") W("p")},  /* one pool */
    /* G032: a region mixing is and is not; only is, only is not: no finding */
    {32, 'I', S1 P("") W("p") "gtm region r { region-members { continent EU { } not country RU { } } }\n",
     S1 P("") W("p") "gtm region r { region-members { not country RU { } not country BY { } } }\n"},
    {32, 'I', S1 P("") W("p") "gtm region r { region-members { not subnet 10.0.0.0/8 { } region q { } } }\n"
                              "gtm region q { region-members { country DE { } } }\n",
     S1 P("") W("p") "gtm region r { region-members { subnet 10.0.0.0/8 { } region q { } } }\n"
                     "gtm region q { region-members { country DE { } } }\n"},
    /* G033: a query name claimed by two wide IPs -- an alias, or a name in two
     * partitions; aliases differing from every other claim are clean */
    {33, 'E', S1 P("") "gtm wideip a a.example { aliases { b.example } pools { p } }\n"
                  "gtm wideip a c.example { aliases { B.Example } pools { p } }\n",
     S1 P("") "gtm wideip a a.example { aliases { b.example } pools { p } }\n"
        "gtm wideip a c.example { aliases { d.example } pools { p } }\n"},
    {33, 'E', S1 P("") "gtm wideip a a.example { pools { p } }\n"
                  "gtm wideip a c.example { aliases { a.example } pools { p } }\n",
     S1 P("") "gtm wideip a a.example { aliases { a.example } pools { p } }\n"},
    {33, 'E', S1 P("") "gtm wideip a /Common/a.example { pools { p } }\n"
                  "gtm wideip a /P/a.example { pools { p } }\n",
     S1 P("") "gtm wideip a /Common/a.example { pools { p } }\n"
        "gtm wideip a /P/b.example { pools { p } }\n"},
    /* G034: wildcards of two wide IPs matching a common name; disjoint ones are clean */
    {34, 'W', S1 P("") "gtm wideip a *.example { pools { p } }\n"
                  "gtm wideip a a.b { aliases { w?.example } pools { p } }\n",
     S1 P("") "gtm wideip a *.example { pools { p } }\n"
        "gtm wideip a a.b { aliases { w?.example.net } pools { p } }\n"},
    {34, 'W', S1 P("") "gtm wideip a x*.example { pools { p } }\n"
                  "gtm wideip a *y.example { pools { p } }\n",
     /* overlapping wildcards of one wide IP, and one no name of the other can match */
     S1 P("") "gtm wideip a x*.example { aliases { *y.example } pools { p } }\n"
        "gtm wideip a *.example.net { pools { p } }\n"},
    /* G033/G034 per type: an A and an AAAA wide IP of one name are no claim twice */
    {33, 'E', S1 S6 P("") "gtm wideip a w.example { pools { p } }\ngtm wideip a /P/w.example { pools { p } }\n",
     S1 S6 P("") "gtm pool aaaa p { members { s6:v6 } }\n"
        "gtm wideip a w.example { pools { p } }\ngtm wideip aaaa w.example { pools { p } }\n"},
    /* G035, G036: an AAAA wide IP whose pool holds IPv4 members only; an A pool of
     * IPv6 members only; near misses: every member of the pool's type, a member of the
     * other family beside one of its type (G036, not G035) */
    {35, 'E', S1 S6 "gtm pool aaaa p { members { s1:v1 s1:v2 } }\ngtm wideip aaaa w { pools { p } }\n",
     S1 S6 "gtm pool aaaa p { members { s6:v6 } }\ngtm wideip aaaa w { pools { p } }\n"},
    {35, 'E', S1 S6 "gtm pool a p { members { s6:v6 } }\n" W("p"),
     S1 S6 "gtm pool a p { members { s6:v6 s1:v1 } }\n" W("p")},
    {36, 'W', S1 S6 "gtm pool aaaa p { members { s6:v6 s1:v1 } }\ngtm wideip aaaa w { pools { p } }\n",
     S1 S6 "gtm pool aaaa p { members { s6:v6 } }\ngtm wideip aaaa w { pools { p } }\n"},
    /* G020 in an AAAA pool: an IPv4 fallback-ip; an IPv6 one is clean */
    {20, 'E', S1 S6 "gtm pool aaaa p { fallback-mode fallback-ip fallback-ip 192.0.2.1 members { s6:v6 } }\n"
                 "gtm wideip aaaa w { pools { p } }\n",
     S1 S6 "gtm pool aaaa p { fallback-mode fallback-ip fallback-ip 2001:db8::9 members { s6:v6 } }\n"
        "gtm wideip aaaa w { pools { p } }\n"},
};

static int lint_has(const char *text, unsigned code, char *sev, unsigned *line)
{
    wsel_gslb_config *c = NULL;
    wsel_error err;
    int rc = wsel_gslb_config_load_buffer("l.conf", text, strlen(text), &c, &err);
    if (rc) {
        char buf[2048];
        print_error("config does not load: %s\n%s", wsel_error_format(&err, buf, sizeof buf), text);
        fail();
    }
    wsel_gslb_finding *f;
    size_t n;
    assert_int_equal(wsel_gslb_lint(c, &f, &n, NULL), 0);
    int hit = 0;
    for (size_t i = 0; i < n; i++)
        if (f[i].code == code) {
            hit = 1;
            *sev = "IWE"[f[i].severity];
            *line = f[i].pos.line;
            assert_true(strlen(f[i].message) > 0 && strlen(f[i].object) > 0);
        }
    wsel_free(f);
    wsel_gslb_config_free(c);
    return hit;
}

static void each_check(void **s)
{
    (void)s;
    enum { LAST_CODE = 36 }; /* G036: the last code (include/wsel/gslb.h, man/wsel.1) */
    unsigned seen[LAST_CODE + 1] = {0};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char sev = '?';
        unsigned line = 0;
        if (!lint_has(cases[i].trigger, cases[i].code, &sev, &line)) {
            print_error("G%03u: trigger config did not fire\n%s", cases[i].code, cases[i].trigger);
            fail();
        }
        assert_int_equal(sev, cases[i].sev);
        assert_true(line > 0);
        if (lint_has(cases[i].clean, cases[i].code, &sev, &line)) {
            print_error("G%03u: clean config fired\n%s", cases[i].code, cases[i].clean);
            fail();
        }
        assert_in_range(cases[i].code, 1, LAST_CODE); /* a new code: raise LAST_CODE */
        seen[cases[i].code] = 1;
    }
    for (unsigned c = 1; c <= LAST_CODE; c++)
        if (!seen[c]) {
            print_error("G%03u has no case\n", c);
            fail();
        }
}

/* G005 and G010 stand where the step's attribute is written (its key's line and column),
 * not at the pool's head (doc/gslb.md §8.2). */
static void step_positions(void **s)
{
    (void)s;
    static const struct {
        unsigned code;
        const char *text;
        unsigned line, col;
    } pos[] = {
        {5, S1 "gtm pool a p {\n  members { s1:v1 }\n    alternate-mode lowest-round-trip-time\n}\n" W("p"), 5, 5},
        {10, S1 "gtm pool a p {\n  load-balancing-mode none\n  members { s1:v1 }\n}\n" W("p"), 4, 3},
        /* on the pool's own line: the column tells the attribute from the head */
        {5, S1 "gtm pool a p { members { s1:v1 } alternate-mode cpu }\n" W("p"), 3, 34},
        {10, S1 "gtm pool a p { load-balancing-mode none members { s1:v1 } }\n" W("p"), 3, 16},
    };
    for (size_t i = 0; i < sizeof pos / sizeof pos[0]; i++) {
        wsel_gslb_config *c = NULL;
        assert_int_equal(wsel_gslb_config_load_buffer("l.conf", pos[i].text, strlen(pos[i].text), &c, NULL), 0);
        wsel_gslb_finding *f;
        size_t n, hits = 0;
        assert_int_equal(wsel_gslb_lint(c, &f, &n, NULL), 0);
        for (size_t k = 0; k < n; k++)
            if (f[k].code == pos[i].code) {
                hits++;
                if (f[k].pos.line != pos[i].line || f[k].pos.col != pos[i].col)
                    print_error("G%03u at %u:%u, expected %u:%u\n%s", pos[i].code, f[k].pos.line,
                                f[k].pos.col, pos[i].line, pos[i].col, pos[i].text);
                assert_int_equal(f[k].pos.line, pos[i].line);
                assert_int_equal(f[k].pos.col, pos[i].col);
            }
        assert_int_equal(hits, 1);
        wsel_free(f);
        wsel_gslb_config_free(c);
    }
}

/* doc/gslb.md §8.2: the example's lint is exactly G001, G006, G016, G032 (no G004) */
static void example_lint(void **s)
{
    (void)s;
    wsel_gslb_config *c = NULL;
    assert_int_equal(wsel_gslb_config_load_file(wsel_kit_srcpath("examples/gslb/bigip_gtm.conf"), &c, NULL), 0);
    wsel_gslb_finding *f;
    size_t n;
    assert_int_equal(wsel_gslb_lint(c, &f, &n, NULL), 0);
    assert_int_equal(n, 4);
    assert_int_equal(f[0].code, 1);
    assert_string_equal(f[0].object, "gtm pool a /Common/p_dc2");
    assert_int_equal(f[1].code, 6);
    assert_string_equal(f[1].object, "gtm pool a /Common/p_dc2");
    assert_int_equal(f[2].code, 16);
    assert_string_equal(f[2].object, "gtm wideip a /Common/www.example.com");
    assert_int_equal(f[3].code, 32);
    assert_string_equal(f[3].object, "gtm region /Common/r_eu");
    free(f); /* wsel_free() is the documented release; free() works too (include/wsel/gslb.h) */
    wsel_gslb_config_free(c);
}

WSEL_TEST_MAIN("gslb_lint", cmocka_unit_test(each_check), cmocka_unit_test(step_positions),
               cmocka_unit_test(example_lint))
