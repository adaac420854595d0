/* GSLB names: the reader's name index (its cost counted, not timed), query names
 * (wide IP names, aliases, wildcards: doc/gslb.md §1 and its A-numbers) and the
 * reader's positions on bad input. Expected answers from doc/gslb.md's rules. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "wsel.h"
#include "support/support.h"
#include "../core/gslb/gslb_internal.h"

/* ---- the name index: reading N pools and N wide IPs compares O(N) names ---- */

/* N pools p0..p(N-1), N wide IPs wI.example each naming pool pI, and one server. */
static char *many_objects(size_t n)
{
    size_t cap = 200 + n * 160, len = 0;
    char *s = malloc(cap);
    assert_non_null(s);
    len += (size_t)snprintf(s + len, cap - len,
                            "gtm server /Common/s { virtual-servers { v { destination 192.0.2.1:80 } } }\n");
    for (size_t i = 0; i < n; i++)
        len += (size_t)snprintf(s + len, cap - len, "gtm pool a /Common/p%zu { members { s:v { } } }\n", i);
    for (size_t i = 0; i < n; i++)
        len += (size_t)snprintf(s + len, cap - len,
                                "gtm wideip a /Common/w%zu.example { pools { p%zu { } } }\n", i, n - 1 - i);
    assert_true(len < cap);
    return s;
}

/* The reader's lookups (each object's duplicate check and entry, each wide IP's pool
 * reference) are hashed: the names compared stay a small multiple of the objects read.
 * A linear search compares about N^2/2 names per kind (8 million here). */
static void test_names_linear(void **state)
{
    (void)state;
    const size_t n = 4096;
    char *text = many_objects(n);
    wsel_gslb_config *c = wsel_test_gslb_load(text);
    free(text);
    assert_int_equal(c->n_pools, n);
    assert_int_equal(c->n_wideips, n);
    size_t lookups = 2 * n + 2 * n + n + 2; /* checks and entries of pools and wide IPs, references, server */
    assert_true(wsel__gslb_names_compares(c) < 4 * lookups);
    for (size_t i = 0; i < n; i += 511) {
        char name[64];
        snprintf(name, sizeof name, "w%zu.example", i);
        long w = wsel_gslb_find_wideip(c, name);
        assert_int_equal(w, (long)i);
        assert_int_equal(c->wideips[w].pools[0].pool, (long)(n - 1 - i));
    }
    /* lookups after the reader count nothing: a published config is never written */
    size_t before = wsel__gslb_names_compares(c);
    assert_true(wsel_gslb_find_wideip(c, "W7.EXAMPLE.") == 7);
    assert_int_equal(wsel__gslb_names_compares(c), before);
    wsel_gslb_config_free(c);
}

/* Duplicates found through the index: pools exactly, wide IPs ignoring case (§1). */
static void test_names_duplicates(void **state)
{
    (void)state;
    wsel_error err;
    assert_int_equal(wsel_test_gslb_load_err("gtm pool a p { }\ngtm pool a /Common/p { }\n", &err), WSEL_E_DUPKEY);
    assert_int_equal(err.line, 2);
    assert_int_equal(err.col, 12);
    assert_int_equal(wsel_test_gslb_load_err("gtm wideip a w.example { }\ngtm wideip a /Common/W.Example { }\n", &err),
                     WSEL_E_DUPKEY);
    assert_int_equal(err.line, 2);
    wsel_gslb_config *c = wsel_test_gslb_load("gtm pool a p { }\ngtm pool a P { }\ngtm region r { }\ngtm server r { }\n");
    assert_int_equal(c->n_pools, 2); /* pool names are exact */
    wsel_gslb_config_free(c);
}

/* ---- bad input: where the reader's errors stand ---- */

/* A virtual server whose metadata block opens `inner` more braces: the server, its
 * virtual-servers and the VS are 3 levels, metadata the 4th, so 3 + 1 + inner in all. */
static char *nested_vs(unsigned inner)
{
    char *s = malloc(400 + inner * 8);
    assert_non_null(s);
    strcpy(s, "gtm server s {\n virtual-servers {\n  v {\n   destination 192.0.2.1:80\n   metadata {");
    for (unsigned i = 0; i < inner; i++)
        strcat(s, " x {");
    strcat(s, " y");
    for (unsigned i = 0; i <= inner; i++)
        strcat(s, " }");
    strcat(s, "\n  }\n }\n}\n");
    return s;
}

/* §1: brace nesting 16. 16 levels read; the 17th '{' is the error, at its position. */
static void test_depth_in_vs(void **state)
{
    (void)state;
    char *ok = nested_vs(12), *bad = nested_vs(13);
    wsel_gslb_config *c = wsel_test_gslb_load(ok);
    assert_int_equal(c->n_vs, 1);
    wsel_gslb_config_free(c);
    wsel_error err;
    assert_int_equal(wsel_test_gslb_load_err(bad, &err), WSEL_E_LIMIT);
    assert_int_equal(err.line, 5);
    /* "   metadata {" then " x {" 13 times: the 13th x's '{' is at 14 + 13*4 - 1 */
    assert_int_equal(err.col, 3 + 10 + 13 * 4);
    assert_string_equal(err.key, "{");
    assert_non_null(strstr(err.message, "virtual-server v"));
    free(ok);
    free(bad);
}

/* A key without its value, the next attribute on the next line: the error stands at the
 * key, not at the next line's token. */
static void test_value_on_next_line(void **state)
{
    (void)state;
    wsel_error err;
    assert_int_equal(wsel_test_gslb_load_err("gtm pool a p {\n    ttl\n    members { }\n}\n", &err), WSEL_E_SYNTAX);
    assert_int_equal(err.line, 2);
    assert_int_equal(err.col, 5);
    assert_string_equal(err.key, "ttl");
    assert_non_null(strstr(err.message, "'members' on line 3"));
    /* the value itself is still checked where it stands */
    assert_int_equal(wsel_test_gslb_load_err("gtm pool a p {\n    ttl many\n}\n", &err), WSEL_E_PARAM);
    assert_int_equal(err.line, 2);
    assert_int_equal(err.col, 9);
}

/* Line ends: LF, CR LF and a CR alone each end one line. */
static void test_cr_only_lines(void **state)
{
    (void)state;
    static const char *const texts[] = {
        "gtm pool a p {\r    verify-member-availability maybe\r}\r",
        "gtm pool a p {\r\n    verify-member-availability maybe\r\n}\r\n",
        "# comment\rgtm pool a p {\r    verify-member-availability maybe\r}\r",
    };
    for (size_t i = 0; i < 3; i++) {
        wsel_error err;
        assert_int_equal(wsel_test_gslb_load_err(texts[i], &err), WSEL_E_PARAM);
        assert_int_equal(err.line, i == 2 ? 3 : 2);
        assert_int_equal(err.col, 32);
    }
}

/* ---- query names: a wide IP's name, its aliases, wildcards (A-41) ---- */

static const char names_conf[] =
    "gtm wideip a /Common/www.example.com {\n"                         /* 0 */
    "    aliases {\n        web.example.com\n        WWW2.example.com\n    }\n}\n"
    "gtm wideip a /Common/*.example.com { }\n"                         /* 1 */
    "gtm wideip a /Common/*.eu.example.com { }\n"                      /* 2 */
    "gtm wideip a /Common/w?w.example.com { }\n"                       /* 3 */
    "gtm wideip a /P/api.example.org { aliases { *.api.example.org } }\n" /* 4 */
    "gtm wideip a /Common/*b.example.net { }\n"                        /* 5 */
    "gtm wideip a /Common/?b.example.net { }\n"                        /* 6 */
    "gtm wideip a /Common/x*.example.net { }\n"                        /* 7 */
    "gtm wideip a /Common/*x.example.net { }\n";                       /* 8 */

/* Each query and the wide IP A-41 gives it: the name, then an alias, then the pattern with
 * the most literal characters, then the fewest '*', then the first in file order. */
static void test_query_names(void **state)
{
    (void)state;
    static const struct {
        const char *q;
        long w;
    } cases[] = {
        {"www.example.com", 0},      /* its name (beats w?w and *.) */
        {"/Common/www.example.com", 0},
        {"web.example.com.", 0},     /* an alias, the trailing dot ignored */
        {"www2.EXAMPLE.com", 0},     /* aliases ignore case */
        {"x.example.com", 1},        /* *.example.com: 12 literal characters */
        {"a.b.example.com", 1},      /* '*' takes dots too */
        {"x.eu.example.com", 2},     /* 15 literal characters beat 12 */
        {"wxw.example.com", 3},      /* w?w: 14 */
        {"api.example.org", 4},      /* a name in another partition, by its last part */
        {"a.b.api.example.org", 4},  /* a wildcard alias */
        {"ab.example.net", 6},       /* ?b and *b: 13 literal each, no '*' wins */
        {"xx.example.net", 7},       /* x* and *x: alike, the first in file order */
        {"example.com", -1},         /* "*." needs the dot */
        {"x.example.org", -1},
        {"/Common/x.example.com", -1}, /* a path names a wide IP, never a pattern */
    };
    wsel_gslb_config *c = wsel_test_gslb_load(names_conf);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        long w = wsel_gslb_find_wideip(c, cases[i].q);
        if (w != cases[i].w)
            print_error("query %s: wide IP %ld, expected %ld\n", cases[i].q, w, cases[i].w);
        assert_int_equal(w, cases[i].w);
    }
    assert_int_equal(c->wideips[0].n_aliases, 2);
    assert_string_equal(c->wideips[0].aliases[1], "WWW2.example.com");
    assert_int_equal(c->wideips[0].alias_pos[1].line, 4);
    assert_int_equal(c->wideips[0].alias_pos[1].col, 9);
    wsel_gslb_config_free(c);
}

/* The matcher itself: '*' any run (none too), '?' exactly one, case ignored. */
static void test_glob(void **state)
{
    (void)state;
    assert_true(wsel__gslb_glob("*", ""));
    assert_true(wsel__gslb_glob("a*c", "ac"));
    assert_true(wsel__gslb_glob("a*c", "abbbc"));
    assert_false(wsel__gslb_glob("a*c", "abbb"));
    assert_true(wsel__gslb_glob("a?c", "aXc"));
    assert_false(wsel__gslb_glob("a?c", "ac"));
    assert_false(wsel__gslb_glob("a?c", "abbc"));
    assert_true(wsel__gslb_glob("*.*.c", "a.b.c"));
    assert_true(wsel__gslb_glob("*ab", "aab"));   /* needs the backtrack */
    assert_true(wsel__gslb_glob("W*.Ex", "www.ex"));
}

/* An alias twice in one wide IP is an error at the second; in two wide IPs, lint G033. */
static void test_alias_errors(void **state)
{
    (void)state;
    wsel_error err;
    assert_int_equal(wsel_test_gslb_load_err("gtm wideip a w {\n aliases { a.example\n  A.EXAMPLE }\n}\n", &err),
                     WSEL_E_DUPKEY);
    assert_int_equal(err.line, 3);
    assert_int_equal(err.col, 3);
    assert_string_equal(err.key, "A.EXAMPLE");
}

/* Virtual-server destinations over IPv6 (§1): tmsh's ADDRESS.PORT, and the address in
 * brackets before '.PORT' or ':PORT'; brackets hold an IPv6 address only. */
static void test_v6_destinations(void **state)
{
    (void)state;
    static const struct {
        const char *dest, *addr;
        unsigned port;
    } good[] = {
        {"2001:db8::1.80", "2001:db8::1", 80},
        {"[2001:db8::1].443", "2001:db8::1", 443},
        {"[2001:db8::a]:8080", "2001:db8::a", 8080},
        {"2001:db8::1%2.any", "2001:db8::1", 0},
        {"192.0.2.1:80", "192.0.2.1", 80},
    };
    static const char *const bad[] = {"[192.0.2.1]:80", "[2001:db8::1]80", "[2001:db8::1.80",
                                      "[2001:db8::1]:", "2001:db8::1", "2001:db8::1:80",
                                      "[2001:db8::1].99999"};
    char text[256], buf[64];
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        snprintf(text, sizeof text, "gtm server s { virtual-servers { v { destination %s } } }\n",
                 good[i].dest);
        wsel_gslb_config *c = wsel_test_gslb_load(text);
        assert_string_equal(wsel_gslb_addr_str(&c->vs[0].addr, buf, sizeof buf), good[i].addr);
        assert_int_equal(c->vs[0].port, good[i].port);
        wsel_gslb_config_free(c);
    }
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        wsel_error err;
        snprintf(text, sizeof text, "gtm server s { virtual-servers { v { destination %s } } }\n",
                 bad[i]);
        assert_int_equal(wsel_test_gslb_load_err(text, &err), WSEL_E_ADDR);
        assert_int_equal(err.line, 1);
        assert_int_equal(err.col, 50);
    }
}

/* Name spaces by type (core/gslb/gslb_internal.h, doc/gslb.md §1): an AAAA pool, wide
 * IP, last path part and alias have their own spaces; servers, regions (and a space
 * already typed) are shared, whatever the type asked for. */
static void test_name_spaces(void **u)
{
    (void)u;
    static const int untyped[] = {WSEL__GSLB_NS_SERVER, WSEL__GSLB_NS_REGION, WSEL__GSLB_NS_POOL6,
                                  WSEL__GSLB_NS_WIDEIP6, WSEL__GSLB_NS_LEAF6, WSEL__GSLB_NS_ALIAS6};
    for (size_t i = 0; i < sizeof untyped / sizeof untyped[0]; i++) {
        assert_int_equal(wsel__gslb_ns(untyped[i], WSEL_GSLB_TYPE_AAAA), untyped[i]);
        assert_int_equal(wsel__gslb_ns(untyped[i], WSEL_GSLB_TYPE_A), untyped[i]);
    }
    static const int a[] = {WSEL__GSLB_NS_POOL, WSEL__GSLB_NS_WIDEIP, WSEL__GSLB_NS_LEAF, WSEL__GSLB_NS_ALIAS},
                     aaaa[] = {WSEL__GSLB_NS_POOL6, WSEL__GSLB_NS_WIDEIP6, WSEL__GSLB_NS_LEAF6,
                               WSEL__GSLB_NS_ALIAS6};
    for (size_t i = 0; i < 4; i++) {
        assert_int_equal(wsel__gslb_ns(a[i], WSEL_GSLB_TYPE_A), a[i]);
        assert_int_equal(wsel__gslb_ns(a[i], WSEL_GSLB_TYPE_AAAA), aaaa[i]);
    }
}

/* Subnets (core/gslb/gslb_internal.h, doc/gslb.md §1): ADDRESS[/LENGTH], no length the
 * whole address; an empty address, or one of 64 bytes or more (no address is that long),
 * is refused before it is copied anywhere. */
static void test_subnet_lengths(void **u)
{
    (void)u;
    wsel_gslb_addr a;
    unsigned p = 99;
    assert_true(wsel__gslb_parse_subnet("192.0.2.200/24", &a, &p));
    assert_int_equal(p, 24);
    assert_int_equal(a.bytes[3], 0); /* the network */
    assert_true(wsel__gslb_parse_subnet("2001:db8::1", &a, &p));
    assert_int_equal(p, 128);
    assert_false(wsel__gslb_parse_subnet("", &a, &p));
    assert_false(wsel__gslb_parse_subnet("/24", &a, &p));
    static char big[4096 + 4];
    for (size_t n = 63; n <= 4096; n = n < 70 ? n + 1 : n * 2) {
        memset(big, '1', n);
        strcpy(big + n, "/8");
        assert_false(wsel__gslb_parse_subnet(big, &a, &p));
        big[n] = '\0';
        assert_false(wsel__gslb_parse_subnet(big, &a, &p));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names_linear),
        cmocka_unit_test(test_name_spaces),
        cmocka_unit_test(test_subnet_lengths),
        cmocka_unit_test(test_names_duplicates),
        cmocka_unit_test(test_query_names),
        cmocka_unit_test(test_glob),
        cmocka_unit_test(test_alias_errors),
        cmocka_unit_test(test_depth_in_vs),
        cmocka_unit_test(test_value_on_next_line),
        cmocka_unit_test(test_cr_only_lines),
        cmocka_unit_test(test_v6_destinations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
