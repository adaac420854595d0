/* The ring balancer's reference engine against the known answers doc/ring.md section 12
 * lists: order lists, layouts K1-K6, counterexamples C1-C4 (section 8), exact counts,
 * validation, health, retries, DNS updates. Every expected value below is a written
 * known answer, not the engine's output. */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <gsl/gsl_rng.h>

#include "ring_mock.h"
#include "../core/ring/ring_model.h"

/* ---- helpers ------------------------------------------------------------------------ */

static void ok_check(const wsel_ring *r)
{
    wsel_error err;
    if (wsel_ring_check(r, &err) != WSEL_OK)
        fail_msg("invariant: %s", err.message);
}

static wsel_ring *mk(const wsel_ring_opts *o)
{
    wsel_ring *r = NULL;
    wsel_error err;
    if (wsel_ring_new(o, &r, &err) != WSEL_OK)
        fail_msg("wsel_ring_new: %s", err.message);
    ok_check(r);
    return r;
}

static void add(wsel_ring *r, const char *name, uint32_t port, uint32_t weight)
{
    wsel_error err;
    if (wsel_ring_add_host(r, name, port, weight, &err) != WSEL_OK)
        fail_msg("add %s: %s", name, err.message);
    ok_check(r);
}

static void rm(wsel_ring *r, const char *name, uint32_t port)
{
    wsel_error err;
    bool found;
    if (wsel_ring_remove_host(r, name, port, &found, &err) != WSEL_OK || !found)
        fail_msg("remove %s failed", name);
    ok_check(r);
}

static long find_addr(const wsel_ring *r, const char *ip, uint32_t port)
{
    for (size_t i = 0; i < wsel_ring_address_count(r); i++) {
        wsel_ring_address a;
        wsel_ring_address_get(r, i, &a);
        if (strcmp(a.ip, ip) == 0 && (port == 0 || a.port == port))
            return (long)i;
    }
    return -1;
}

/* "1,10,5,9,8": the slots of address ip (any port when port is 0), acquisition order. */
static const char *slots_of(const wsel_ring *r, const char *ip, uint32_t port)
{
    static char buf[8192];
    long i = find_addr(r, ip, port);
    buf[0] = '\0';
    if (i < 0)
        return "(none)";
    wsel_ring_address a;
    wsel_ring_address_get(r, (size_t)i, &a);
    uint32_t *s = malloc((a.n_slots + 1) * sizeof *s);
    assert_non_null(s);
    wsel_ring_address_slots(r, (size_t)i, s);
    size_t len = 0;
    for (size_t k = 0; k < a.n_slots && len < sizeof buf - 16; k++)
        len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%u", k ? "," : "", s[k]);
    free(s);
    return buf;
}

static size_t count_of(const wsel_ring *r, const char *ip, uint32_t port)
{
    long i = find_addr(r, ip, port);
    if (i < 0)
        return 0;
    wsel_ring_address a;
    wsel_ring_address_get(r, (size_t)i, &a);
    return a.n_slots;
}

/* owner ip of each slot */
static const char *owner_ip(const wsel_ring *r, uint32_t s)
{
    long i = wsel_ring_owner(r, s);
    if (i < 0)
        return "-";
    wsel_ring_address a;
    wsel_ring_address_get(r, (size_t)i, &a);
    return a.ip;
}

static wsel_ring_peer pick_hash(wsel_ring *r, uint64_t hash)
{
    wsel_ring_handle h = {.mode = WSEL_RING_HASH, .hash = hash};
    wsel_ring_peer p;
    assert_int_equal(wsel_ring_pick(r, &h, false, &p, NULL), WSEL_OK);
    return p;
}

static wsel_ring_peer pick_rr(wsel_ring *r)
{
    wsel_ring_handle h = {.mode = WSEL_RING_RR};
    wsel_ring_peer p;
    assert_int_equal(wsel_ring_pick(r, &h, false, &p, NULL), WSEL_OK);
    return p;
}

static const char *const mashape2[] = {"1.2.3.4", "1.2.3.5", NULL};
static const char *const v6one[] = {"::1", NULL};

/* ---- section 3: order lists ------------------------------------------------------------ */

static void check_order(uint32_t n, const uint32_t *want, size_t nwant, const uint32_t *tail,
                        size_t ntail)
{
    uint32_t *o = malloc(n * sizeof *o);
    assert_non_null(o);
    assert_int_equal(wsel_ring_default_order(n, o, NULL), WSEL_OK);
    for (size_t i = 0; i < nwant; i++)
        assert_int_equal(o[i], want[i]);
    for (size_t i = 0; i < ntail; i++)
        assert_int_equal(o[n - ntail + i], tail[i]);
    free(o);
}

static void test_order_lists(void **u)
{
    (void)u;
    static const uint32_t n3[] = {1, 2, 3};
    static const uint32_t n10[] = {2, 4, 7, 6, 3, 8, 9, 5, 10, 1};
    static const uint32_t n15[] = {2, 6, 11, 8, 4, 12, 9, 5, 15, 13, 10, 14, 1, 3, 7};
    static const uint32_t n19[] = {3, 8, 14, 10, 5, 13, 11, 6, 19, 17, 12, 18, 15, 4, 7, 16, 9, 1, 2};
    static const uint32_t n1000[] = {120, 374, 698, 504, 258, 684, 552, 312, 986, 857,
                                     542, 912, 776, 200, 177, 500, 467, 189, 411, 570};
    static const uint32_t n1000t[] = {294, 295, 298, 299, 307};
    check_order(3, n3, 3, NULL, 0);
    check_order(10, n10, 10, NULL, 0);
    check_order(15, n15, 15, NULL, 0);
    check_order(19, n19, 19, NULL, 0);
    check_order(1000, n1000, 20, n1000t, 5);
    /* a permutation for every size */
    for (uint32_t n = 1; n <= 300; n += 7) {
        uint32_t *o = malloc(n * sizeof *o);
        char *seen = calloc(n + 1, 1);
        assert_int_equal(wsel_ring_default_order(n, o, NULL), WSEL_OK);
        for (uint32_t i = 0; i < n; i++) {
            assert_true(o[i] >= 1 && o[i] <= n && !seen[o[i]]);
            seen[o[i]] = 1;
        }
        free(o);
        free(seen);
    }
    wsel_error err;
    uint32_t one;
    assert_int_equal(wsel_ring_default_order(0, &one, &err), WSEL_E_ARG);
}

/* Section 3's list drawn the plain way: GSL's MT19937 through gsl_rng_get, res53, and
 * 5.2.3's probe one slot at a time. */
static void naive_order(uint32_t n, uint32_t *out)
{
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    char *taken = calloc(n + 1, 1);
    assert_true(g && taken);
    gsl_rng_set(g, 158841259ul);
    for (uint32_t i = 0; i < n; i++) {
        double a = (double)(gsl_rng_get(g) >> 5), b = (double)(gsl_rng_get(g) >> 6);
        uint32_t s = (uint32_t)floor((a * 67108864.0 + b) / 9007199254740992.0 * n) + 1;
        while (taken[s])
            s = s == n ? 1 : s + 1;
        taken[s] = 1;
        out[i] = s;
    }
    free(taken);
    gsl_rng_free(g);
}

/* The library's list against the plain one on sizes around the 64-slot words and the
 * 4096-slot stretch one summary word covers, where probing wraps within a word, across
 * words and across summary words. */
static void test_order_probe(void **u)
{
    (void)u;
    static const uint32_t sizes[] = {1, 2, 63, 64, 65, 127, 128, 129, 1000, 4095, 4096, 4097,
                                     4159, 4160, 4161, 8193, 20000};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        uint32_t n = sizes[k];
        uint32_t *o = malloc(n * sizeof *o), *want = malloc(n * sizeof *want);
        assert_true(o && want);
        naive_order(n, want);
        assert_int_equal(wsel_ring_default_order(n, o, NULL), WSEL_OK);
        for (uint32_t i = 0; i < n; i++)
            if (o[i] != want[i])
                fail_msg("n=%u: entry %u is %u, want %u", n, i + 1, o[i], want[i]);
        free(o);
        free(want);
    }
}

/* A given order: the ranks of distinct numbers; a permutation gives the same wheel as the
 * default list it equals. */
static void test_given_order(void **u)
{
    (void)u;
    mock m = {0};
    static const double perm10[] = {2, 4, 7, 6, 3, 8, 9, 5, 10, 1};
    static const double scaled[] = {0.2, 0.4, 0.7, 0.6, 0.3, 0.8, 0.9, 0.5, 1.0, 0.1};
    wsel_ring_opts o = mock_opts(&m, -1);
    wsel_ring_host_spec hs[] = {{"10.0.0.1", -1, 3}, {"10.0.0.2", -1, 7}};
    o.hosts = hs;
    o.n_hosts = 2;
    wsel_ring *def = mk((o.wheel_size = 10, &o));
    o.wheel_size = -1;
    o.order = perm10;
    o.order_len = 10;
    wsel_ring *a = mk(&o);
    o.order = scaled;
    wsel_ring *b = mk(&o);
    assert_int_equal(wsel_ring_size(a), 10);
    for (uint32_t s = 1; s <= 10; s++) {
        assert_string_equal(owner_ip(a, s), owner_ip(def, s));
        assert_string_equal(owner_ip(b, s), owner_ip(def, s));
    }
    wsel_ring_free(def);
    wsel_ring_free(a);
    wsel_ring_free(b);
}

/* Construction sorts the hosts by "name:port" and keeps the input order of equal keys:
 * a host given twice ends with the weight given last (section 2). */
static void test_equal_keys_keep_order(void **u)
{
    (void)u;
    mock m = {0};
    wsel_ring_opts o = mock_opts(&m, 10);
    wsel_ring_host_spec hs[] = {{"10.0.0.2", 80, 5}, {"10.0.0.1", 80, 1}, {"10.0.0.1", 80, 5}};
    o.hosts = hs;
    o.n_hosts = 3;
    wsel_ring *r = mk(&o);
    assert_int_equal(wsel_ring_host_count(r), 2);
    assert_int_equal(count_of(r, "10.0.0.1", 80), 5);
    assert_int_equal(count_of(r, "10.0.0.2", 80), 5);
    wsel_ring_free(r);
    hs[1].weight = 5;
    hs[2].weight = 1;
    r = mk(&o);
    assert_int_equal(count_of(r, "10.0.0.1", 80), 1);
    wsel_ring_free(r);
}

/* ---- section 5: layouts K1-K6 ----------------------------------------------------------- */

static void test_k1(void **u)
{
    (void)u;
    mock m = {0};
    mock_addr(&m, "mashape.com", WSEL_RING_A, 300, mashape2);
    wsel_ring_opts o = mock_opts(&m, 10);
    wsel_ring *r = mk(&o);
    add(r, "mashape.com", 80, 10);
    assert_string_equal(slots_of(r, "1.2.3.4", 80), "1,10,5,9,8");
    assert_string_equal(slots_of(r, "1.2.3.5", 80), "3,6,7,4,2");
    wsel_ring_free(r);
}

static void test_k2(void **u)
{
    (void)u;
    mock m = {0};
    mock_addr(&m, "mashape.com", WSEL_RING_A, 300, mashape2);
    mock_addr(&m, "getkong.org", WSEL_RING_AAAA, 300, v6one);
    wsel_ring_opts o = mock_opts(&m, 10);
    wsel_ring *r = mk(&o);
    add(r, "mashape.com", 80, 5);
    add(r, "getkong.org", 8080, 10);
    assert_string_equal(slots_of(r, "1.2.3.4", 80), "1,10");
    assert_string_equal(slots_of(r, "1.2.3.5", 80), "3,6");
    assert_string_equal(slots_of(r, "::1", 8080), "7,4,2,5,9,8");
    rm(r, "getkong.org", 8080);
    assert_string_equal(slots_of(r, "1.2.3.4", 80), "1,10,7,4,2");
    assert_string_equal(slots_of(r, "1.2.3.5", 80), "3,6,5,9,8");
    wsel_ring_free(r);
}

/* 5.2.3 sorts AAAA entries by the text its DNS client hands over: all eight groups, lower
 * case hex without leading zeros, in brackets (doc/ring.md section 4). "::" is
 * "[0:0:0:0:0:0:0:0]" and sorts before "[1:0:0:0:0:0:0:0]" (their compressed forms
 * "[::]" and "[1::]" sort the other way); "10::" is "[10:0:...]" and sorts before
 * "[a:0:...]" (zero-padded groups, "0010" and "000a", would sort the other way). Two
 * equal weights on 10 slots: the first in order takes the first five slots off the free
 * stack, 1,10,5,9,8 (K1). */
static void test_aaaa_sort_full_form(void **u)
{
    (void)u;
    mock m = {0};
    static const char *const zero_one[] = {"1::", "::", NULL};
    static const char *const a_ten[] = {"A::", "10::", NULL};
    mock_addr(&m, "v6.test", WSEL_RING_AAAA, 300, zero_one);
    mock_addr(&m, "w6.test", WSEL_RING_AAAA, 300, a_ten);
    wsel_ring_opts o = mock_opts(&m, 10);
    wsel_ring *r = mk(&o);
    add(r, "v6.test", 80, 10);
    assert_string_equal(slots_of(r, "::", 80), "1,10,5,9,8");
    assert_string_equal(slots_of(r, "1::", 80), "3,6,7,4,2");
    wsel_ring_free(r);
    r = mk(&o);
    add(r, "w6.test", 80, 10);
    assert_string_equal(slots_of(r, "10::", 80), "1,10,5,9,8");
    assert_string_equal(slots_of(r, "a::", 80), "3,6,7,4,2");
    wsel_ring_free(r);
    /* every group is read from its own two bytes: the seventh of "1::a00:0" is "a00" and of
     * "1::900:0" is "900", so "[1:0:0:0:0:0:900:0]" comes first although listed second */
    static const char *const g7[] = {"1::a00:0", "1::900:0", NULL};
    mock_addr(&m, "x6.test", WSEL_RING_AAAA, 300, g7);
    r = mk(&o);
    add(r, "x6.test", 80, 10);
    assert_string_equal(slots_of(r, "1::900:0", 80), "1,10,5,9,8");
    assert_string_equal(slots_of(r, "1::a00:0", 80), "3,6,7,4,2");
    wsel_ring_free(r);
    /* the same for each of the eight groups: every other group 1 ("0:1" in bytes), group g
     * a00 against 900 ("a00" after "900"), the a00 address listed first */
    for (int g = 0; g < 8; g++) {
        char a[8][4], hi[40], lo[40], host[16];
        for (int k = 0; k < 8; k++)
            snprintf(a[k], sizeof a[k], "%s", k == g ? "a00" : "1");
        snprintf(hi, sizeof hi, "%s:%s:%s:%s:%s:%s:%s:%s", a[0], a[1], a[2], a[3], a[4], a[5],
                 a[6], a[7]);
        snprintf(a[g], sizeof a[g], "900");
        snprintf(lo, sizeof lo, "%s:%s:%s:%s:%s:%s:%s:%s", a[0], a[1], a[2], a[3], a[4], a[5],
                 a[6], a[7]);
        const char *const pair[] = {hi, lo, NULL};
        snprintf(host, sizeof host, "g%d.test", g);
        mock_addr(&m, host, WSEL_RING_AAAA, 300, pair);
        r = mk(&o);
        add(r, host, 80, 10);
        if (strcmp(slots_of(r, lo, 80), "1,10,5,9,8") != 0)
            fail_msg("group %d: %s has slots %s, expected the first five", g, lo, slots_of(r, lo, 80));
        wsel_ring_free(r);
    }
}

/* 5.2.3's client brackets an IPv6 SRV target before the balancer builds its key
 * "%06d:target:port": "000001:[2001:db8::1]:80" sorts after "000001:3.0.0.1:80" ('[' after
 * digits). Equal weights on 10 slots: 3.0.0.1 first, 1,10,5,9,8. */
static void test_srv_ipv6_target_sort(void **u)
{
    (void)u;
    mock m = {0};
    mock_srv_clear(&m, "srv.test");
    mock_srv(&m, "srv.test", "2001:db8::1", 80, 10, 1, 300);
    mock_srv(&m, "srv.test", "3.0.0.1", 80, 10, 1, 300);
    wsel_ring_opts o = mock_opts(&m, 10);
    wsel_ring *r = mk(&o);
    add(r, "srv.test", 80, 10);
    assert_string_equal(slots_of(r, "3.0.0.1", 80), "1,10,5,9,8");
    assert_string_equal(slots_of(r, "2001:db8::1", 80), "3,6,7,4,2");
    wsel_ring_free(r);
}

static void test_k3(void **u)
{
    (void)u;
    mock m = {0};
    static const char *const ten[] = {"1.2.3.1", "1.2.3.2", "1.2.3.3", "1.2.3.4", "1.2.3.5",
                                      "1.2.3.6", "1.2.3.7", "1.2.3.8", "1.2.3.9", "1.2.3.10",
                                      NULL};
    mock_addr(&m, "mashape.com", WSEL_RING_A, 300, ten);
    wsel_ring_opts o = mock_opts(&m, 19);
    wsel_ring *r = mk(&o);
    add(r, "mashape.com", 80, 10);
    assert_string_equal(slots_of(r, "1.2.3.1", 80), "2");
    assert_string_equal(slots_of(r, "1.2.3.10", 80), "1,9");
    assert_string_equal(slots_of(r, "1.2.3.2", 80), "16,7");
    assert_string_equal(slots_of(r, "1.2.3.3", 80), "4,15");
    assert_string_equal(slots_of(r, "1.2.3.4", 80), "18,12");
    assert_string_equal(slots_of(r, "1.2.3.5", 80), "17,19");
    assert_string_equal(slots_of(r, "1.2.3.6", 80), "6,11");
    assert_string_equal(slots_of(r, "1.2.3.7", 80), "13,5");
    assert_string_equal(slots_of(r, "1.2.3.8", 80), "10,14");
    assert_string_equal(slots_of(r, "1.2.3.9", 80), "8,3");
    wsel_ring_free(r);
}

static wsel_ring *k4(mock *m)
{
    static const char *const a1[] = {"1.2.3.4", NULL}, *const a2[] = {"5.6.7.8", NULL};
    mock_addr(m, "mashape.com", WSEL_RING_A, 300, a1);
    mock_addr(m, "getkong.org", WSEL_RING_A, 300, a2);
    wsel_ring_opts o = mock_opts(m, 15);
    static const wsel_ring_host_spec hs[] = {{"mashape.com", 123, 100}, {"getkong.org", 321, 50}};
    o.hosts = hs;
    o.n_hosts = 2;
    return mk(&o);
}

static void test_k4(void **u)
{
    (void)u;
    mock m = {0};
    wsel_ring *r = k4(&m);
    assert_string_equal(slots_of(r, "5.6.7.8", 321), "7,3,1,14,10");
    assert_string_equal(slots_of(r, "1.2.3.4", 123), "13,15,5,9,12,4,8,11,6,2");
    const char *owners = "GMGMMMGMMGMMMGM";
    for (uint32_t s = 1; s <= 15; s++)
        assert_string_equal(owner_ip(r, s), owners[s - 1] == 'G' ? "5.6.7.8" : "1.2.3.4");
    /* getkong sorts first: it is address 0 */
    wsel_ring_address a;
    wsel_ring_address_get(r, 0, &a);
    assert_string_equal(a.host, "getkong.org");
    wsel_ring_free(r);
}

static void test_k5(void **u)
{
    (void)u;
    mock m = {0};
    mock_addr(&m, "mashape.com", WSEL_RING_A, 300, mashape2);
    mock_addr(&m, "getkong.org", WSEL_RING_AAAA, 300, v6one);
    wsel_ring_opts o = mock_opts(&m, 2000);
    wsel_ring *r = mk(&o);
    add(r, "mashape.com", 80, 5);
    add(r, "getkong.org", 80, 10);
    assert_int_equal(count_of(r, "1.2.3.4", 80), 500);
    assert_int_equal(count_of(r, "1.2.3.5", 80), 500);
    assert_int_equal(count_of(r, "::1", 80), 1000);
    wsel_ring_free(r);

    o.wheel_size = 60;
    r = mk(&o);
    add(r, "mashape.com", 80, 10);
    add(r, "getkong.org", 80, 10);
    assert_int_equal(count_of(r, "1.2.3.4", 80), 20);
    assert_int_equal(count_of(r, "1.2.3.5", 80), 20);
    assert_int_equal(count_of(r, "::1", 80), 20);
    char before[61][64];
    for (uint32_t s = 1; s <= 60; s++)
        snprintf(before[s], sizeof before[s], "%s", owner_ip(r, s));
    add(r, "mashape.com", 80, 25);
    assert_int_equal(count_of(r, "1.2.3.4", 80), 25);
    assert_int_equal(count_of(r, "1.2.3.5", 80), 25);
    assert_int_equal(count_of(r, "::1", 80), 10);
    int moved = 0;
    for (uint32_t s = 1; s <= 60; s++)
        if (strcmp(before[s], owner_ip(r, s)) != 0) {
            moved++;
            assert_string_equal(before[s], "::1");
        }
    assert_int_equal(moved, 10);
    wsel_ring_free(r);
}

/* K6: DNS replacements of section 7.3 move only the replaced addresses' slots. */
static void snap(const wsel_ring *r, char (*own)[64], uint32_t n)
{
    for (uint32_t s = 1; s <= n; s++)
        snprintf(own[s], 64, "%s", owner_ip(r, s));
}

static wsel_ring *k6(mock *m, wsel_ring_rrtype t, const char *const *first)
{
    static const char *const g[] = {"9.9.9.9", NULL};
    mock_addr(m, "mashape.com", t, 300, first);
    mock_addr(m, "getkong.org", WSEL_RING_A, 300, g);
    wsel_ring_opts o = mock_opts(m, 100);
    wsel_ring *r = mk(&o);
    add(r, "mashape.com", 80, 5);
    add(r, "getkong.org", 123, 10);
    return r;
}

static void refresh(wsel_ring *r, const char *name)
{
    wsel_error err;
    if (wsel_ring_refresh(r, name, &err) != WSEL_OK)
        fail_msg("refresh: %s", err.message);
    ok_check(r);
}

/* mashape.com answers `first` (type t0), then `then` (type t1): slots of from[i] must
 * now belong to to[i] (layout K6's replacements, doc/ring.md section 12), every other slot stays. */
static void k6_update(wsel_ring_rrtype t0, const char *const *first, wsel_ring_rrtype t1,
                      const char *const *then, const char *const *from, const char *const *to)
{
    static char b[101][64];
    static mock m;
    memset(&m, 0, sizeof m);
    wsel_ring *r = k6(&m, t0, first);
    snap(r, b, 100);
    mock_addr(&m, "mashape.com", t1, 300, then);
    refresh(r, "mashape.com");
    for (uint32_t s = 1; s <= 100; s++) {
        const char *want = b[s];
        for (size_t i = 0; from[i]; i++)
            if (strcmp(b[s], from[i]) == 0)
                want = to[i];
        assert_string_equal(owner_ip(r, s), want);
    }
    wsel_ring_free(r);
}

static void test_k6(void **u)
{
    (void)u;
    static const char *const n56[] = {"1.2.3.5", "1.2.3.6", NULL};
    static const char *const n67[] = {"1.2.3.6", "1.2.3.7", NULL};
    static const char *const v6[] = {"::1", "::2", NULL};
    static const char *const none[] = {NULL};
    /* identical answer: nothing moves */
    k6_update(WSEL_RING_A, mashape2, WSEL_RING_A, mashape2, none, none);
    k6_update(WSEL_RING_A, mashape2, WSEL_RING_A, n56, (const char *const[]){"1.2.3.4", NULL},
              (const char *const[]){"1.2.3.6", NULL});
    k6_update(WSEL_RING_A, mashape2, WSEL_RING_A, n67,
              (const char *const[]){"1.2.3.5", "1.2.3.4", NULL},
              (const char *const[]){"1.2.3.6", "1.2.3.7", NULL});
    k6_update(WSEL_RING_AAAA, v6, WSEL_RING_A, mashape2,
              (const char *const[]){"::2", "::1", NULL},
              (const char *const[]){"1.2.3.4", "1.2.3.5", NULL});
}

/* ---- section 8: counterexamples C1-C4 ---------------------------------------------------- */

static wsel_ring *ip_ring(mock *m, uint32_t n, const uint32_t *w, size_t k)
{
    wsel_ring_opts o = mock_opts(m, n);
    wsel_ring *r = mk(&o);
    for (size_t j = 0; j < k; j++) {
        char name[32];
        snprintf(name, sizeof name, "10.0.0.%zu", j + 1);
        add(r, name, 80, w[j]);
    }
    return r;
}

static void test_c1(void **u)
{
    (void)u;
    mock m = {0};
    static const uint32_t w[] = {3, 5, 1};
    wsel_ring *r = ip_ring(&m, 3, w, 3);
    assert_string_equal(owner_ip(r, 1), "10.0.0.3");
    assert_string_equal(owner_ip(r, 2), "10.0.0.2");
    assert_string_equal(owner_ip(r, 3), "10.0.0.1");
    add(r, "10.0.0.9", 80, 1);
    assert_string_equal(owner_ip(r, 1), "10.0.0.2");
    assert_string_equal(owner_ip(r, 2), "10.0.0.2");
    assert_string_equal(owner_ip(r, 3), "10.0.0.9");
    assert_int_equal(count_of(r, "10.0.0.1", 80), 0);
    assert_int_equal(count_of(r, "10.0.0.2", 80), 2);
    assert_int_equal(count_of(r, "10.0.0.3", 80), 0);
    wsel_ring_free(r);
}

/* Slots whose owner changed between two snapshots, as "slot:old>new" joined by spaces. */
static const char *moves(const wsel_ring *r, char (*b)[64], uint32_t n)
{
    static char buf[4096];
    size_t len = 0;
    buf[0] = '\0';
    for (uint32_t s = 1; s <= n; s++)
        if (strcmp(b[s], owner_ip(r, s)) != 0)
            len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%u:%s>%s", len ? " " : "", s,
                                    b[s], owner_ip(r, s));
    return buf;
}

static void test_c2_c3(void **u)
{
    (void)u;
    static char b[1001][64];
    mock m = {0};
    static const uint32_t w2[] = {56, 63, 30, 42};
    wsel_ring *r = ip_ring(&m, 100, w2, 4);
    snap(r, b, 100);
    assert_int_equal(count_of(r, "10.0.0.3", 80), 15);
    add(r, "10.0.0.5", 80, 3);
    assert_string_equal(b[75], "10.0.0.4");
    assert_string_equal(owner_ip(r, 75), "10.0.0.3");
    assert_string_equal(owner_ip(r, 29), "10.0.0.5");
    assert_string_equal(owner_ip(r, 31), "10.0.0.5");
    assert_int_equal(count_of(r, "10.0.0.5", 80), 2);
    int changed = 0;
    for (uint32_t s = 1; s <= 100; s++)
        changed += strcmp(b[s], owner_ip(r, s)) != 0;
    assert_int_equal(changed, 3);
    assert_int_equal(count_of(r, "10.0.0.3", 80), 16);
    wsel_ring_free(r);

    static const uint32_t w3[] = {62, 60, 64, 20, 89, 44};
    static const size_t c_before[] = {182, 177, 189, 59, 262, 131};
    static const size_t c_after[] = {182, 176, 188, 58, 263, 130, 3};
    r = ip_ring(&m, 1000, w3, 6);
    for (size_t j = 0; j < 6; j++) {
        char ip[32];
        snprintf(ip, sizeof ip, "10.0.0.%zu", j + 1);
        assert_int_equal(count_of(r, ip, 80), c_before[j]);
    }
    snap(r, b, 1000);
    add(r, "10.0.0.7", 80, 1);
    for (size_t j = 0; j < 7; j++) {
        char ip[32];
        snprintf(ip, sizeof ip, "10.0.0.%zu", j + 1);
        assert_int_equal(count_of(r, ip, 80), c_after[j]);
    }
    assert_string_equal(owner_ip(r, 596), "10.0.0.5");
    assert_string_equal(b[596], "10.0.0.6");
    assert_string_equal(owner_ip(r, 365), "10.0.0.7");
    assert_string_equal(owner_ip(r, 405), "10.0.0.7");
    assert_string_equal(owner_ip(r, 554), "10.0.0.7");
    /* exactly one slot between untouched addresses */
    int untouched = 0;
    for (uint32_t s = 1; s <= 1000; s++)
        if (strcmp(b[s], owner_ip(r, s)) != 0 && strcmp(owner_ip(r, s), "10.0.0.7") != 0)
            untouched++;
    assert_int_equal(untouched, 1);
    wsel_ring_free(r);
}

static void test_c4(void **u)
{
    (void)u;
    static char b[101][64];
    mock m = {0};
    static const uint32_t w[] = {97, 67, 1, 28};
    wsel_ring *r = ip_ring(&m, 100, w, 4);
    assert_int_equal(count_of(r, "10.0.0.1", 80), 50);
    assert_int_equal(count_of(r, "10.0.0.2", 80), 34);
    assert_int_equal(count_of(r, "10.0.0.3", 80), 0);
    assert_int_equal(count_of(r, "10.0.0.4", 80), 16);
    snap(r, b, 100);
    rm(r, "10.0.0.3", 80);
    assert_string_equal(moves(r, b, 100), "65:10.0.0.4>10.0.0.2");
    assert_int_equal(count_of(r, "10.0.0.2", 80), 35);
    assert_int_equal(count_of(r, "10.0.0.4", 80), 15);
    wsel_ring_free(r);
}

/* Section 5's examples: a surplus above the quota, and weight > 0 with no slot. */
static void test_apportion_examples(void **u)
{
    (void)u;
    mock m = {0};
    static const uint32_t w[] = {92, 97, 73, 30, 69, 31, 2, 16, 25, 2, 93};
    wsel_ring *r = ip_ring(&m, 1000, w, 11);
    assert_int_equal(count_of(r, "10.0.0.11", 80), 180);
    wsel_ring_free(r);
    /* 22 * (15 / 22) is 14.999999999999998 in doubles: the + 0.0001 makes it 15 */
    static const uint32_t w15[] = {15, 7};
    r = ip_ring(&m, 22, w15, 2);
    assert_int_equal(count_of(r, "10.0.0.1", 80), 15);
    assert_int_equal(count_of(r, "10.0.0.2", 80), 7);
    wsel_ring_free(r);
    static const uint32_t w2[] = {1, 65535};
    r = ip_ring(&m, 100, w2, 2);
    assert_int_equal(count_of(r, "10.0.0.1", 80), 0);
    assert_int_equal(count_of(r, "10.0.0.2", 80), 100);
    wsel_ring_free(r);
}

/* ---- section 9.5 and 13.7/13.8: exact counts ------------------------------------------ */

static void test_distribution(void **u)
{
    (void)u;
    mock m = {0};
    wsel_ring *r = k4(&m);
    int m4 = 0, g8 = 0;
    for (int i = 0; i < 30; i++) {
        wsel_ring_peer p = pick_rr(r);
        assert_int_equal(p.outcome, WSEL_RING_PEER);
        m4 += strcmp(p.ip, "1.2.3.4") == 0;
        g8 += strcmp(p.ip, "5.6.7.8") == 0;
    }
    assert_int_equal(m4, 20);
    assert_int_equal(g8, 10);
    m4 = g8 = 0;
    for (uint64_t h = 1; h <= 15; h++) {
        wsel_ring_peer p = pick_hash(r, h);
        m4 += strcmp(p.ip, "1.2.3.4") == 0;
        g8 += strcmp(p.ip, "5.6.7.8") == 0;
        /* h and h + N agree; slot h + 1 (wrapping) */
        wsel_ring_peer q = pick_hash(r, h + 15 * 1000003);
        assert_string_equal(p.ip, q.ip);
        assert_int_equal(p.slot, h % 15 + 1);
    }
    assert_int_equal(m4, 10);
    assert_int_equal(g8, 5);
    /* a host added by name reports it; the pick gives the port */
    wsel_ring_peer p = pick_hash(r, 0);
    assert_int_equal(p.slot, 1);
    assert_string_equal(p.ip, "5.6.7.8");
    assert_int_equal(p.port, 321);
    assert_string_equal(p.hostname, "getkong.org");
    /* float keys: slot 1 + floor(u N) */
    wsel_ring_handle h = {.mode = WSEL_RING_FLOAT, .u = 0.0};
    assert_int_equal(wsel_ring_pick(r, &h, false, &p, NULL), WSEL_OK);
    assert_int_equal(p.slot, 1);
    h.u = 14.0 / 15.0 + 1e-9;
    assert_int_equal(wsel_ring_pick(r, &h, false, &p, NULL), WSEL_OK);
    assert_int_equal(p.slot, 15);
    h.u = 1.0;
    assert_int_equal(wsel_ring_pick(r, &h, false, &p, NULL), WSEL_E_ARG);
    wsel_ring_free(r);

    /* hash 0 with retries 0..9 over 10 one-slot addresses: 10 distinct peers */
    static const uint32_t ones[] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    r = ip_ring(&m, 10, ones, 10);
    wsel_ring_handle hh = {.mode = WSEL_RING_HASH, .hash = 0};
    char seen[11] = {0};
    for (int i = 0; i < 10; i++) {
        if (i == 0)
            assert_int_equal(wsel_ring_pick(r, &hh, false, &p, NULL), WSEL_OK);
        else
            assert_int_equal(wsel_ring_retry(r, &hh, false, &p, NULL), WSEL_OK);
        assert_int_equal(p.slot, i + 1); /* retries step through consecutive slots */
        assert_null(p.hostname);         /* IP-literal hosts have no host name */
        int last = atoi(strrchr(p.ip, '.') + 1);
        assert_false(seen[last]);
        seen[last] = 1;
    }
    wsel_ring_free(r);
}

/* How many of n slots change owner when equal-weight IP hosts 10.0.0.(k+1) ..
 * 10.0.0.(k+extra) join a ring of k of them, one by one. */
static int moved_by_adds(uint32_t n, size_t k, size_t extra)
{
    static mock m;
    static char b[5001][64];
    static const uint32_t eq[] = {1, 1, 1, 1, 1, 1, 1, 1};
    memset(&m, 0, sizeof m);
    wsel_ring *r = ip_ring(&m, n, eq, k);
    snap(r, b, n);
    for (size_t j = k + 1; j <= k + extra; j++) {
        char name[32];
        snprintf(name, sizeof name, "10.0.0.%zu", j);
        add(r, name, 80, 1);
    }
    int moved = 0;
    for (uint32_t s = 1; s <= n; s++)
        moved += strcmp(b[s], owner_ip(r, s)) != 0;
    wsel_ring_free(r);
    return moved;
}

static void test_movement_figures(void **u)
{
    (void)u;
    /* 5 -> 6 equal hosts at N=5000: 834 slots (16.68%) */
    assert_int_equal(moved_by_adds(5000, 5, 1), 834);
    /* 6 -> 8: exactly 25%, 5 -> 8: 37.5% of the keys (1000-slot wheel) */
    assert_int_equal(moved_by_adds(1000, 6, 2), 250);
    assert_int_equal(moved_by_adds(1000, 5, 3), 375);
}

/* the exact counts of doc/ring.md section 12 beyond K1-K5: a ttl=0 host 50/50 -> addHost(..., 150) -> 75/25 (N=100) */
static void spec_counts_ttl0(void)
{
    mock m = {0};
    static const char *const c[] = {"5.5.5.5", NULL};
    mock_addr(&m, "ttl0.test", WSEL_RING_A, 0, c);
    wsel_ring_opts o = mock_opts(&m, 100);
    wsel_ring *r = mk(&o);
    add(r, "ttl0.test", 80, 50);
    add(r, "10.0.0.1", 80, 50);
    assert_int_equal(count_of(r, "ttl0.test", 80), 50);
    assert_int_equal(count_of(r, "10.0.0.1", 80), 50);
    add(r, "ttl0.test", 80, 150);
    assert_int_equal(count_of(r, "ttl0.test", 80), 75);
    assert_int_equal(count_of(r, "10.0.0.1", 80), 25);
    /* its picks resolve the name each time */
    unsigned before = m.toips;
    wsel_ring_peer p;
    for (uint32_t s = 0; s < 100; s++) {
        p = pick_hash(r, s);
        if (strcmp(p.ip, "5.5.5.5") == 0) {
            assert_string_equal(p.hostname, "ttl0.test");
            break;
        }
    }
    assert_string_equal(p.ip, "5.5.5.5");
    assert_int_equal(m.toips, before + 1);
    wsel_ring_free(r);
}

/* failed host 30/30 -> 0/60 -> re-resolved with weight 20: 40/20 (N=60) */
static void spec_counts_failed(void)
{
    mock m = {0};
    static const char *const f[] = {"7.7.7.7", NULL};
    mock_addr(&m, "flaky.test", WSEL_RING_A, 300, f);
    wsel_ring_opts o = mock_opts(&m, 60);
    wsel_ring *r = mk(&o);
    add(r, "flaky.test", 80, 10);
    add(r, "10.0.0.1", 80, 10);
    assert_int_equal(count_of(r, "7.7.7.7", 80), 30);
    mock_fail(&m, "flaky.test");
    refresh(r, "flaky.test");
    assert_int_equal(count_of(r, "7.7.7.7", 80), 0);
    assert_int_equal(count_of(r, "10.0.0.1", 80), 60);
    add(r, "flaky.test", 80, 20);
    assert_int_equal(count_of(r, "10.0.0.1", 80), 60);
    mock_addr(&m, "flaky.test", WSEL_RING_A, 300, f);
    /* requery after `requery` seconds (1 s by default) */
    assert_int_equal(wsel_ring_tick(r, 0.5, NULL), WSEL_OK);
    assert_int_equal(count_of(r, "7.7.7.7", 80), 0);
    assert_int_equal(wsel_ring_tick(r, 1.5, NULL), WSEL_OK);
    ok_check(r);
    assert_int_equal(count_of(r, "7.7.7.7", 80), 40);
    assert_int_equal(count_of(r, "10.0.0.1", 80), 20);
    assert_int_equal(wsel_ring_tick(r, 1.0, NULL), WSEL_E_ARG); /* clock never goes back */
    wsel_ring_free(r);
}

/* SRV 40/40/20/20 unchanged by a host weight change (N=120) */
static void spec_counts_srv(void)
{
    mock m = {0};
    mock_srv_clear(&m, "srv.test");
    mock_srv(&m, "srv.test", "1.1.1.1", 81, 20, 1, 300);
    mock_srv(&m, "srv.test", "2.2.2.2", 82, 20, 1, 300);
    mock_srv(&m, "srv.test", "3.3.3.3", 83, 10, 1, 300);
    mock_srv(&m, "srv.test", "4.4.4.4", 84, 10, 1, 300);
    mock_srv(&m, "srv.test", "6.6.6.6", 86, 10, 2, 300); /* higher priority value: unused */
    wsel_ring_opts o = mock_opts(&m, 120);
    wsel_ring *r = mk(&o);
    add(r, "srv.test", 80, 10);
    assert_int_equal(wsel_ring_address_count(r), 4);
    assert_int_equal(count_of(r, "1.1.1.1", 81), 40);
    assert_int_equal(count_of(r, "2.2.2.2", 82), 40);
    assert_int_equal(count_of(r, "3.3.3.3", 83), 20);
    assert_int_equal(count_of(r, "4.4.4.4", 84), 20);
    add(r, "srv.test", 80, 99);
    assert_int_equal(count_of(r, "1.1.1.1", 81), 40);
    assert_int_equal(count_of(r, "4.4.4.4", 84), 20);
    /* an SRV weight change applies in place */
    mock_srv_clear(&m, "srv.test");
    mock_srv(&m, "srv.test", "1.1.1.1", 81, 10, 1, 300);
    mock_srv(&m, "srv.test", "2.2.2.2", 82, 20, 1, 300);
    mock_srv(&m, "srv.test", "3.3.3.3", 83, 10, 1, 300);
    mock_srv(&m, "srv.test", "4.4.4.4", 84, 20, 1, 300);
    refresh(r, "srv.test");
    assert_int_equal(count_of(r, "1.1.1.1", 81), 20);
    assert_int_equal(count_of(r, "4.4.4.4", 84), 40);
    wsel_ring_free(r);
}

/* two 0-weight SRV entries -> peer 1.2.3.6 with port 8001 or 8002 */
static void spec_counts_zero_srv(void)
{
    mock m = {0};
    mock_srv_clear(&m, "zero.test");
    mock_srv(&m, "zero.test", "1.2.3.6", 8001, 0, 5, 300);
    mock_srv(&m, "zero.test", "1.2.3.6", 8002, 0, 5, 300);
    wsel_ring_opts o = mock_opts(&m, 10);
    wsel_ring *r = mk(&o);
    add(r, "zero.test", 80, 10);
    for (uint64_t hsh = 0; hsh < 10; hsh++) {
        wsel_ring_peer p = pick_hash(r, hsh);
        assert_string_equal(p.ip, "1.2.3.6");
        assert_true(p.port == 8001 || p.port == 8002);
    }
    assert_int_equal(count_of(r, "1.2.3.6", 8001), 5);
    wsel_ring_free(r);
}

static void test_spec_counts(void **u)
{
    (void)u;
    spec_counts_ttl0();
    spec_counts_failed();
    spec_counts_srv();
    spec_counts_zero_srv();
}

/* ---- validation -------------------------------------------------------------------------- */

static void test_validation(void **u)
{
    (void)u;
    mock m = {0};
    wsel_error err;
    wsel_ring *r = NULL;
    wsel_ring_opts o = mock_opts(&m, 0);
    assert_int_equal(wsel_ring_new(&o, &r, &err), WSEL_E_ARG); /* wheel size 0 */
    assert_null(r);
    assert_non_null(strstr(err.message, "wheelSize"));
    o.wheel_size = WSEL_RING_MAX_SLOTS + 1ll;
    assert_int_equal(wsel_ring_new(&o, &r, &err), WSEL_E_ARG);
    static const double dup[] = {1, 2, 2};
    static const double nan3[] = {1, NAN, 2};
    o = mock_opts(&m, 3);
    o.order = dup;
    o.order_len = 3;
    assert_int_equal(wsel_ring_new(&o, &r, &err), WSEL_E_ARG);
    assert_non_null(strstr(err.message, "duplicates"));
    o.order = nan3;
    assert_int_equal(wsel_ring_new(&o, &r, &err), WSEL_E_ARG);
    o.order = dup;
    o.order_len = 2; /* wrong length */
    assert_int_equal(wsel_ring_new(&o, &r, &err), WSEL_E_ARG);
    assert_non_null(strstr(err.message, "mismatch"));
    o = mock_opts(&m, 10);
    o.dns.resolve = NULL;
    assert_int_equal(wsel_ring_new(&o, &r, &err), WSEL_E_ARG);
    o = mock_opts(&m, 10);
    o.health_threshold = 100.5;
    assert_int_equal(wsel_ring_new(&o, &r, &err), WSEL_E_ARG);
    /* an option is no place in a file: line and column 0, the option named as the key */
    assert_string_equal(err.message, "ring: expected 'healthThreshold' to be in the range 0-100, got 100.5");
    assert_int_equal(err.line, 0);
    assert_int_equal(err.col, 0);
    assert_string_equal(err.path, "healthThreshold");
    o.health_threshold = -1;
    assert_int_equal(wsel_ring_new(&o, &r, &err), WSEL_E_ARG);
    o = mock_opts(&m, 10);
    o.requery = 0;
    assert_int_equal(wsel_ring_new(&o, &r, &err), WSEL_E_ARG);
    assert_string_equal(err.message, "ring: expected 'requery' to be > 0, got 0");
    assert_int_equal(err.line, 0);
    o = mock_opts(&m, 10);
    o.ttl0 = -1;
    assert_int_equal(wsel_ring_new(&o, &r, &err), WSEL_E_ARG);
    assert_string_equal(err.message, "ring: expected 'ttl0' to be > 0, got -1");
    o = mock_opts(&m, 10);
    o.now = INFINITY;
    assert_int_equal(wsel_ring_new(&o, &r, &err), WSEL_E_ARG);
    assert_string_equal(err.message, "ring: the clock must be finite, got inf");
    assert_string_equal(err.path, "now");
    o = mock_opts(&m, 10);
    o.rr_start = 11;
    assert_int_equal(wsel_ring_new(&o, &r, &err), WSEL_E_ARG);
    wsel_ring_host_spec bad[] = {{"10.0.0.1", 80, 10}, {"10.0.0.2", 80, 0}};
    o = mock_opts(&m, 10);
    o.hosts = bad;
    o.n_hosts = 2;
    assert_int_equal(wsel_ring_new(&o, &r, &err), WSEL_E_WEIGHT);
    assert_null(r);

    /* addHost: weight 0, > 65535, port 0, 65536, no name; nothing changes */
    o = mock_opts(&m, 10);
    r = mk(&o);
    add(r, "10.0.0.1", 80, 10);
    char b[11][64];
    snap(r, b, 10);
    assert_int_equal(wsel_ring_add_host(r, "10.0.0.2", 80, 0, &err), WSEL_E_WEIGHT);
    assert_int_equal(wsel_ring_add_host(r, "10.0.0.2", 80, 65536, &err), WSEL_E_WEIGHT);
    assert_int_equal(wsel_ring_add_host(r, "10.0.0.1", 80, 0, &err), WSEL_E_WEIGHT);
    assert_int_equal(wsel_ring_add_host(r, "10.0.0.2", 0, 10, &err), WSEL_E_ARG);
    assert_int_equal(wsel_ring_add_host(r, "10.0.0.2", 65536, 10, &err), WSEL_E_ARG);
    assert_int_equal(wsel_ring_add_host(r, "", 80, 10, &err), WSEL_E_ARG);
    assert_int_equal(wsel_ring_add_host(r, NULL, 80, 10, &err), WSEL_E_ARG);
    /* a malformed resolver answer: an A entry that is no IPv4 address */
    static const char *const junk[] = {"1.2.3.4", "not-an-ip", NULL};
    mock_addr(&m, "junk.test", WSEL_RING_A, 300, junk);
    assert_int_equal(wsel_ring_add_host(r, "junk.test", 80, 10, &err), WSEL_E_ADDR);
    assert_non_null(strstr(err.message, "not-an-ip"));
    assert_int_equal(wsel_ring_host_count(r), 1);
    ok_check(r);
    for (uint32_t s = 1; s <= 10; s++)
        assert_string_equal(owner_ip(r, s), b[s]);
    /* removing an unknown host is a no-op */
    bool found = true;
    assert_int_equal(wsel_ring_remove_host(r, "10.0.0.9", 80, &found, &err), WSEL_OK);
    assert_false(found);
    /* status of an unknown address */
    assert_int_equal(wsel_ring_set_address_status(r, "10.0.0.9", 80, NULL, false, &err), WSEL_E_ARG);
    assert_non_null(strstr(err.message, "no peer found"));
    assert_int_equal(wsel_ring_set_host_status(r, "10.0.0.9", 80, false, &err), WSEL_E_ARG);
    wsel_ring_free(r);
}

/* ---- section 10: health and availability --------------------------------------------- */

static void test_health(void **u)
{
    (void)u;
    mock m = {0};
    wsel_ring_opts o = mock_opts(&m, 30);
    o.health_threshold = 50;
    wsel_ring *r = mk(&o);
    wsel_ring_peer p = pick_rr(r);
    assert_int_equal(p.outcome, WSEL_RING_UNHEALTHY); /* empty */
    add(r, "10.0.0.1", 80, 100);
    add(r, "10.0.0.2", 80, 100);
    add(r, "10.0.0.3", 80, 100);
    assert_true(wsel_ring_healthy(r));
    assert_int_equal(wsel_ring_set_address_status(r, "10.0.0.1", 80, NULL, false, NULL), WSEL_OK);
    assert_true(wsel_ring_healthy(r)); /* 2 of 3 up: 66.7 > 50 */
    assert_int_equal(wsel_ring_unavailable_weight(r), 100);
    /* unavailable addresses keep their slots and get no traffic */
    assert_int_equal(count_of(r, "10.0.0.1", 80), 10);
    for (uint64_t hsh = 0; hsh < 30; hsh++) {
        p = pick_hash(r, hsh);
        assert_int_equal(p.outcome, WSEL_RING_PEER);
        assert_string_not_equal(p.ip, "10.0.0.1");
        /* it falls through to the next slot's owner */
        uint32_t s = (uint32_t)hsh + 1;
        while (strcmp(owner_ip(r, s), "10.0.0.1") == 0)
            s = s % 30 + 1;
        assert_int_equal(p.slot, s);
    }
    for (int i = 0; i < 30; i++)
        assert_string_not_equal(pick_rr(r).ip, "10.0.0.1");
    assert_int_equal(wsel_ring_set_host_status(r, "10.0.0.2", 80, false, NULL), WSEL_OK);
    assert_false(wsel_ring_healthy(r)); /* 1 of 3: 33.3 is not > 50 */
    p = pick_hash(r, 3);
    assert_int_equal(p.outcome, WSEL_RING_UNHEALTHY);
    assert_string_equal(wsel_ring_outcome_name(p.outcome), "UNHEALTHY");
    wsel_ring_free(r);

    /* boundary: exactly the threshold is not enough (strict >) */
    o.health_threshold = 50;
    r = mk(&o);
    add(r, "10.0.0.1", 80, 10);
    add(r, "10.0.0.2", 80, 10);
    wsel_ring_set_address_status(r, "10.0.0.1", 80, "10.0.0.1", false, NULL);
    assert_false(wsel_ring_healthy(r));
    wsel_ring_free(r);
    o.health_threshold = 49.999;
    r = mk(&o);
    add(r, "10.0.0.1", 80, 10);
    add(r, "10.0.0.2", 80, 10);
    wsel_ring_set_address_status(r, "10.0.0.1", 80, NULL, false, NULL);
    assert_true(wsel_ring_healthy(r));
    wsel_ring_free(r);

    /* threshold 0: all down but one address with weight and 0 slots -> NO_PEERS */
    o.health_threshold = 0;
    o.wheel_size = 100;
    r = mk(&o);
    add(r, "10.0.0.1", 80, 1);
    add(r, "10.0.0.2", 80, 65535);
    assert_int_equal(count_of(r, "10.0.0.1", 80), 0);
    wsel_ring_set_address_status(r, "10.0.0.2", 80, NULL, false, NULL);
    assert_true(wsel_ring_healthy(r));
    assert_int_equal(pick_hash(r, 7).outcome, WSEL_RING_NO_PEERS);
    assert_int_equal(pick_rr(r).outcome, WSEL_RING_NO_PEERS);
    wsel_ring_set_address_status(r, "10.0.0.2", 80, NULL, true, NULL);
    assert_int_equal(pick_hash(r, 7).outcome, WSEL_RING_PEER);
    wsel_ring_free(r);
}

/* 5.2.3's setAddressStatus compares the address text, which for IPv6 is bracketed: "::1"
 * finds nothing and is an error (doc/ring.md section 10, decision 7); "[::1]" finds the
 * address. */
/* The end of a pick at a named address (section 9, step 3: "a named address goes
 * through toip; failure is WSEL_RING_DNS with the resolver's message"): toip's IP, in
 * canonical form, with toip's port; a failure with no message still names the address
 * tried; an answer that is no IP is a DNS failure naming it; no toip at all fails every
 * such pick. cache_only reaches toip as given. */
static int toip_mode;
static bool toip_cache_only;

static int toip_scripted(void *ctx, const char *name, uint16_t port, bool cache_only, char *ip,
                         size_t iplen, uint16_t *port_out, char *msg, size_t msglen)
{
    (void)ctx;
    (void)msglen;
    assert_string_equal(name, "backend.test");
    assert_int_equal(port, 8080);
    toip_cache_only = cache_only;
    switch (toip_mode) {
    case 0:
        msg[0] = '\0';
        return 1;
    case 1:
        snprintf(ip, iplen, "not-an-ip");
        return 0;
    default:
        snprintf(ip, iplen, "2001:DB8:0::7");
        *port_out = 9000;
        return 0;
    }
}

static void test_toip_answers(void **u)
{
    (void)u;
    mock m = {0};
    mock_srv_clear(&m, "app.test");
    mock_srv(&m, "app.test", "backend.test", 8080, 1, 1, 300);
    for (int no_toip = 0; no_toip < 2; no_toip++) {
        wsel_ring_opts o = mock_opts(&m, 5);
        o.dns.toip = no_toip ? NULL : toip_scripted;
        wsel_ring *r = mk(&o);
        add(r, "app.test", 80, 1);
        for (int mode = 0; mode < 3; mode++) {
            toip_mode = mode;
            wsel_ring_handle h = {.mode = WSEL_RING_HASH, .hash = (uint64_t)mode};
            wsel_ring_peer p;
            bool cache_only = mode == 1;
            assert_int_equal(wsel_ring_pick(r, &h, cache_only, &p, NULL), WSEL_OK);
            assert_int_equal(p.slot, mode + 1); /* the one address owns every slot */
            if (no_toip) {
                assert_int_equal(p.outcome, WSEL_RING_DNS);
                assert_string_equal(p.message, "no toip resolver");
                continue;
            }
            assert_int_equal(toip_cache_only, cache_only);
            if (mode == 2) {
                assert_int_equal(p.outcome, WSEL_RING_PEER);
                assert_string_equal(p.ip, "2001:db8::7");
                assert_int_equal(p.port, 9000);
                continue;
            }
            assert_int_equal(p.outcome, WSEL_RING_DNS);
            assert_string_equal(p.ip, "");
            if (mode == 1) {
                assert_non_null(strstr(p.message, "'not-an-ip'"));
                continue;
            }
            /* something said before the address tried, even with no message from toip */
            const char *tried = strstr(p.message, ". Tried: backend.test:8080");
            assert_non_null(tried);
            assert_true(tried > p.message);
        }
        wsel_ring_free(r);
    }
}

/* Arguments the calls refuse beyond test_validation's (section 6: bad input is an error
 * and changes nothing): infinite requery, ttl0 and clock, rrStart 0, a host count with no
 * hosts, a clock that is NaN or infinite, NULL names and addresses, a name of 254 bytes
 * (253 is the most); a literal host's refresh asks no resolver; a tick whose re-query
 * gets a malformed answer fails with it and keeps the host's addresses. */
static void test_argument_edges(void **u)
{
    (void)u;
    mock m = {0};
    wsel_error err;
    wsel_ring *r = NULL;
    wsel_ring_opts o = mock_opts(&m, 10);
    o.requery = INFINITY;
    assert_int_equal(wsel_ring_new(&o, &r, &err), WSEL_E_ARG);
    assert_non_null(strstr(err.message, "requery"));
    o = mock_opts(&m, 10);
    o.ttl0 = INFINITY;
    assert_int_equal(wsel_ring_new(&o, &r, &err), WSEL_E_ARG);
    assert_non_null(strstr(err.message, "ttl0"));
    o = mock_opts(&m, 10);
    o.now = INFINITY;
    assert_int_equal(wsel_ring_new(&o, &r, &err), WSEL_E_ARG);
    assert_non_null(strstr(err.message, "clock"));
    o = mock_opts(&m, 10);
    o.rr_start = 0;
    assert_int_equal(wsel_ring_new(&o, &r, &err), WSEL_E_ARG);
    assert_non_null(strstr(err.message, "rrStart"));
    o = mock_opts(&m, 10);
    o.n_hosts = 2;
    assert_int_equal(wsel_ring_new(&o, &r, &err), WSEL_E_ARG);
    assert_non_null(strstr(err.message, "hosts"));
    assert_null(r);

    static const char *const one[] = {"10.3.0.1", NULL};
    mock_addr(&m, "svc.test", WSEL_RING_A, 10, one);
    o = mock_opts(&m, 10);
    r = mk(&o);
    add(r, "svc.test", 80, 5);
    add(r, "10.3.0.9", 80, 5);
    char name[256];
    memset(name, 'a', 254);
    name[254] = '\0';
    assert_int_equal(wsel_ring_add_host(r, name, 80, 1, &err), WSEL_E_ARG);
    name[253] = '\0'; /* 253 bytes: accepted, a name the resolver does not know */
    add(r, name, 80, 1);
    assert_int_equal(wsel_ring_host_count(r), 3);
    assert_int_equal(wsel_ring_remove_host(r, NULL, 80, NULL, &err), WSEL_E_ARG);
    assert_int_equal(wsel_ring_refresh(r, NULL, &err), WSEL_E_ARG);
    assert_int_equal(wsel_ring_set_address_status(r, NULL, 80, NULL, false, &err), WSEL_E_ARG);
    assert_int_equal(wsel_ring_set_host_status(r, NULL, 80, false, &err), WSEL_E_ARG);
    assert_non_null(strstr(err.message, "(null)"));
    assert_int_equal(wsel_ring_tick(r, NAN, &err), WSEL_E_ARG);
    assert_int_equal(wsel_ring_tick(r, INFINITY, &err), WSEL_E_ARG);
    unsigned before = m.resolves;
    assert_int_equal(wsel_ring_refresh(r, "10.3.0.9", &err), WSEL_OK);
    assert_int_equal(m.resolves, before);
    static const char *const junk[] = {"10.3.0.1", "not-an-ip", NULL};
    mock_addr(&m, "svc.test", WSEL_RING_A, 10, junk);
    assert_int_equal(wsel_ring_tick(r, 11, &err), WSEL_E_ADDR); /* due at 10 + 0.5 */
    assert_non_null(strstr(err.message, "not-an-ip"));
    assert_true(find_addr(r, "10.3.0.1", 80) >= 0);
    ok_check(r);
    wsel_ring_free(r);
}

static void test_status_ipv6_brackets(void **u)
{
    (void)u;
    mock m = {0};
    mock_addr(&m, "getkong.org", WSEL_RING_AAAA, 300, v6one);
    wsel_ring_opts o = mock_opts(&m, 10);
    wsel_ring *r = mk(&o);
    add(r, "getkong.org", 8080, 10);
    wsel_error err;
    assert_int_equal(wsel_ring_set_address_status(r, "::1", 8080, "getkong.org", false, &err),
                     WSEL_E_ARG);
    assert_string_equal(err.message,
                        "ring: no peer found by name 'getkong.org' and address ::1:8080");
    assert_int_equal(wsel_ring_unavailable_weight(r), 0);
    assert_int_equal(
        wsel_ring_set_address_status(r, "[::1]", 8080, "getkong.org", false, NULL), WSEL_OK);
    assert_int_equal(wsel_ring_unavailable_weight(r), 10);
    wsel_ring_free(r);
}

/* the "unhealthy node skipped" count (doc/ring.md sections 9 and 12): 15 round-robin calls on N=20
 * with 1.2.3.4 down give 5 x 1.2.3.5 and 10 x 9.9.9.9 (weights 10, 10, 20: 5/5/10 slots) */
static void test_rr_skips_unavailable(void **u)
{
    (void)u;
    mock m = {0};
    mock_addr(&m, "mashape.com", WSEL_RING_A, 300, mashape2);
    wsel_ring_opts o = mock_opts(&m, 20);
    wsel_ring *r = mk(&o);
    add(r, "mashape.com", 80, 10);
    add(r, "9.9.9.9", 80, 20);
    assert_int_equal(wsel_ring_set_address_status(r, "1.2.3.4", 80, "mashape.com", false, NULL),
                     WSEL_OK);
    int five = 0, nines = 0;
    for (int i = 0; i < 15; i++) {
        wsel_ring_peer p = pick_rr(r);
        five += strcmp(p.ip, "1.2.3.5") == 0;
        nines += strcmp(p.ip, "9.9.9.9") == 0;
    }
    assert_int_equal(five, 5);
    assert_int_equal(nines, 10);
    wsel_ring_free(r);
}

/* round-robin starts at slot 1 unless set */
static void test_rr_start(void **u)
{
    (void)u;
    mock m = {0};
    wsel_ring *r = k4(&m);
    assert_int_equal(pick_rr(r).slot, 1);
    assert_int_equal(pick_rr(r).slot, 2);
    wsel_ring_free(r);
    wsel_ring_opts o = mock_opts(&m, 15);
    o.rr_start = 15;
    r = mk(&o);
    add(r, "10.0.0.1", 80, 1);
    assert_int_equal(pick_rr(r).slot, 15);
    assert_int_equal(pick_rr(r).slot, 1);
    wsel_ring_free(r);
}

/* 5.2.3's round-robin loop takes the next pointer value before it sees that it is back
 * at the start, so a walk that finds no peer leaves the pointer N + 1 steps on (doc/ring.md
 * section 9). N = 3, weights 1, 1, 1, 1 in order: counts 0, 1, 1, 1 (section 5), so with
 * the last three down the ring is healthy (weight 4, unavailable 3) and no slot is up.
 * From pointer 3: take 3 (pointer 1), skip: take 1 (pointer 2), skip: take 2 (pointer 3),
 * skip: take 3 (pointer 1), back at the start: NO_PEERS with the pointer at 1. */
static void test_rr_no_peers_pointer(void **u)
{
    (void)u;
    mock m = {0};
    wsel_ring_opts o = mock_opts(&m, 3);
    o.rr_start = 3;
    wsel_ring *r = mk(&o);
    static const char *const ips[] = {"10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4"};
    for (size_t i = 0; i < 4; i++)
        add(r, ips[i], 80, 1);
    assert_int_equal(count_of(r, "10.0.0.1", 80), 0);
    for (size_t i = 1; i < 4; i++)
        assert_int_equal(wsel_ring_set_address_status(r, ips[i], 80, NULL, false, NULL),
                         WSEL_OK);
    assert_true(wsel_ring_healthy(r));
    assert_int_equal(pick_rr(r).outcome, WSEL_RING_NO_PEERS);
    for (size_t i = 1; i < 4; i++)
        assert_int_equal(wsel_ring_set_address_status(r, ips[i], 80, NULL, true, NULL),
                         WSEL_OK);
    assert_int_equal(pick_rr(r).slot, 1);
    assert_int_equal(pick_rr(r).slot, 2);
    assert_int_equal(pick_rr(r).slot, 3);
    wsel_ring_free(r);
}

/* ---- section 7: DNS -------------------------------------------------------------------- */

static void test_dns_kinds(void **u)
{
    (void)u;
    mock m = {0};
    wsel_ring_opts o = mock_opts(&m, 40);
    wsel_ring *r = mk(&o);
    /* unknown name: NXDOMAIN, the host stays with no addresses */
    add(r, "nowhere.test", 80, 10);
    assert_int_equal(wsel_ring_host_count(r), 1);
    assert_int_equal(wsel_ring_address_count(r), 0);
    assert_int_equal(pick_rr(r).outcome, WSEL_RING_UNHEALTHY);
    /* same-type update keeps existing addresses first, new ones appended in sorted order */
    static const char *const a1[] = {"10.1.0.9", "10.1.0.1", NULL};
    static const char *const a2[] = {"10.1.0.3", "10.1.0.9", "10.1.0.2", NULL};
    mock_addr(&m, "app.test", WSEL_RING_A, 300, a1);
    add(r, "app.test", 80, 10);
    wsel_ring_address a;
    wsel_ring_address_get(r, 0, &a);
    assert_string_equal(a.ip, "10.1.0.1");
    uint32_t kept = (uint32_t)count_of(r, "10.1.0.9", 80);
    assert_int_equal(kept, 20);
    mock_addr(&m, "app.test", WSEL_RING_A, 300, a2);
    refresh(r, "app.test");
    assert_int_equal(wsel_ring_address_count(r), 3);
    wsel_ring_address_get(r, 0, &a);
    assert_string_equal(a.ip, "10.1.0.9");
    wsel_ring_address_get(r, 1, &a);
    assert_string_equal(a.ip, "10.1.0.2");
    wsel_ring_address_get(r, 2, &a);
    assert_string_equal(a.ip, "10.1.0.3");
    /* availability survives a refresh that keeps the address */
    wsel_ring_set_address_status(r, "10.1.0.9", 80, "app.test", false, NULL);
    refresh(r, "app.test");
    wsel_ring_address_get(r, 0, &a);
    assert_false(a.available);
    /* type change A -> AAAA: everything replaced; IPv6 canonical */
    static const char *const v6[] = {"2001:DB8:0:0::1", NULL};
    mock_addr(&m, "app.test", WSEL_RING_AAAA, 300, v6);
    refresh(r, "app.test");
    assert_int_equal(wsel_ring_address_count(r), 1);
    wsel_ring_address_get(r, 0, &a);
    assert_string_equal(a.ip, "2001:db8::1");
    assert_int_equal(a.iptype, WSEL_RING_IPV6);
    assert_true(a.available);
    /* SRV with a named target and port 0 -> the host's port; picks call toip */
    mock_srv_clear(&m, "app.test");
    mock_srv(&m, "app.test", "backend.test", 0, 5, 1, 300);
    static const char *const be[] = {"10.9.9.9", NULL};
    mock_addr(&m, "backend.test", WSEL_RING_A, 300, be);
    refresh(r, "app.test");
    wsel_ring_address_get(r, 0, &a);
    assert_string_equal(a.ip, "backend.test");
    assert_int_equal(a.port, 80);
    wsel_ring_peer p = pick_rr(r);
    assert_int_equal(p.outcome, WSEL_RING_PEER);
    assert_string_equal(p.ip, "10.9.9.9");
    assert_string_equal(p.hostname, "app.test");
    mock_fail(&m, "backend.test");
    p = pick_rr(r);
    assert_int_equal(p.outcome, WSEL_RING_DNS);
    assert_non_null(strstr(p.message, "backend.test"));
    /* failure: slots return, the host keeps its place */
    mock_fail(&m, "app.test");
    refresh(r, "app.test");
    assert_int_equal(wsel_ring_address_count(r), 0);
    assert_int_equal(wsel_ring_host_count(r), 2);
    wsel_ring_free(r);
}

/* ttl=0: the switch needs a previous ttl 0 (or empty) answer; a stray ttl 0 is a normal
 * record; expired ttl0 entries are re-queried on pick (unless cache_only) */
static void test_ttl0(void **u)
{
    (void)u;
    mock m = {0};
    static const char *const a[] = {"10.2.0.1", "10.2.0.2", NULL};
    mock_addr(&m, "t.test", WSEL_RING_A, 300, a);
    wsel_ring_opts o = mock_opts(&m, 20);
    wsel_ring *r = mk(&o);
    add(r, "t.test", 80, 10);
    assert_int_equal(wsel_ring_address_count(r), 2);
    mock_addr(&m, "t.test", WSEL_RING_A, 0, a);
    refresh(r, "t.test"); /* stray ttl 0: used as a normal record */
    assert_int_equal(wsel_ring_address_count(r), 2);
    refresh(r, "t.test"); /* second ttl 0 in a row: one unresolved entry */
    assert_int_equal(wsel_ring_address_count(r), 1);
    wsel_ring_address ad;
    wsel_ring_address_get(r, 0, &ad);
    assert_string_equal(ad.ip, "t.test");
    assert_int_equal(ad.iptype, WSEL_RING_NAME);
    assert_int_equal(ad.n_slots, 20);
    /* after ttl0 (60 s) a pick re-queries; cache_only does not */
    unsigned q = m.resolves;
    assert_int_equal(wsel_ring_tick(r, 30, NULL), WSEL_OK);
    assert_int_equal(m.resolves, q);
    assert_int_equal(wsel_ring_tick(r, 60.2, NULL), WSEL_OK); /* expired, timer not yet due */
    assert_int_equal(m.resolves, q);
    mock_addr(&m, "t.test", WSEL_RING_A, 300, a);
    wsel_ring_handle h = {.mode = WSEL_RING_HASH, .hash = 4};
    wsel_ring_peer p;
    assert_int_equal(wsel_ring_pick(r, &h, true, &p, NULL), WSEL_OK);
    assert_int_equal(m.resolves, q);
    assert_string_equal(p.ip, "10.2.0.1"); /* the stale entry, resolved by toip */
    assert_int_equal(wsel_ring_pick(r, &h, false, &p, NULL), WSEL_OK);
    assert_int_equal(m.resolves, q + 1);
    ok_check(r);
    assert_int_equal(wsel_ring_address_count(r), 2); /* a normal record again */
    wsel_ring_free(r);

    /* the timer re-queries 0.5 s after expiry */
    memset(&m, 0, sizeof m);
    static const char *const b1[] = {"10.3.0.1", NULL}, *const b2[] = {"10.3.0.2", NULL};
    mock_addr(&m, "e.test", WSEL_RING_A, 5, b1);
    o = mock_opts(&m, 10);
    r = mk(&o);
    add(r, "e.test", 80, 10);
    mock_addr(&m, "e.test", WSEL_RING_A, 5, b2);
    q = m.resolves;
    assert_int_equal(wsel_ring_tick(r, 5.4, NULL), WSEL_OK);
    assert_int_equal(m.resolves, q);
    assert_int_equal(wsel_ring_tick(r, 5.5, NULL), WSEL_OK);
    assert_int_equal(m.resolves, q + 1);
    assert_string_equal(pick_hash(r, 0).ip, "10.3.0.2");
    wsel_ring_free(r);
}

/* pick on an expired record re-queries, and a removed address's slot is picked again */
static void test_refresh_on_pick(void **u)
{
    (void)u;
    mock m = {0};
    static const char *const b1[] = {"10.3.0.1", NULL}, *const b2[] = {"10.3.0.2", NULL};
    mock_addr(&m, "e.test", WSEL_RING_A, 5, b1);
    wsel_ring_opts o = mock_opts(&m, 10);
    wsel_ring *r = mk(&o);
    add(r, "e.test", 80, 10);
    add(r, "10.0.0.1", 80, 10);
    uint32_t s = 1;
    while (strcmp(owner_ip(r, s), "10.3.0.1") != 0)
        s++;
    mock_addr(&m, "e.test", WSEL_RING_A, 5, b2);
    assert_int_equal(wsel_ring_tick(r, 5.2, NULL), WSEL_OK); /* expired, not yet renewed */
    assert_int_equal(count_of(r, "10.3.0.1", 80), 5);
    /* the pick lands on the expired host, re-queries it, and picks the same slot again */
    wsel_ring_peer p = pick_hash(r, s - 1);
    ok_check(r);
    assert_int_equal(p.outcome, WSEL_RING_PEER);
    assert_int_equal(p.slot, s);
    assert_string_equal(p.ip, "10.3.0.2");
    assert_int_equal(count_of(r, "10.3.0.1", 80), 0);
    assert_int_equal(count_of(r, "10.3.0.2", 80), 5);
    wsel_ring_free(r);
}

/* SRV details: use_srv_name, status of a named target, duplicate entries stay separate */
static void test_srv_details(void **u)
{
    (void)u;
    mock m = {0};
    mock_srv_clear(&m, "svc.test");
    mock_srv(&m, "svc.test", "b.test", 9000, 10, 1, 300);
    mock_srv(&m, "svc.test", "b.test", 9000, 10, 1, 300); /* the same entry twice */
    static const char *const b[] = {"10.4.0.1", NULL};
    mock_addr(&m, "b.test", WSEL_RING_A, 300, b);
    wsel_ring_opts o = mock_opts(&m, 10);
    o.use_srv_name = true;
    wsel_ring *r = mk(&o);
    add(r, "svc.test", 80, 10);
    assert_int_equal(wsel_ring_address_count(r), 2);
    assert_int_equal(count_of(r, "b.test", 9000), 5);
    wsel_ring_peer p = pick_hash(r, 0);
    assert_string_equal(p.ip, "10.4.0.1");
    assert_int_equal(p.port, 9000);
    assert_string_equal(p.hostname, "b.test"); /* the target, with use_srv_name */
    /* status by target name and the host's name: both duplicates */
    assert_int_equal(wsel_ring_set_address_status(r, "b.test", 9000, "svc.test", false, NULL), WSEL_OK);
    assert_false(wsel_ring_healthy(r));
    assert_int_equal(wsel_ring_unavailable_weight(r), 20);
    /* the same answer again keeps both (and their state) */
    refresh(r, "svc.test");
    assert_int_equal(wsel_ring_address_count(r), 2);
    assert_int_equal(wsel_ring_unavailable_weight(r), 20);
    /* one of the two leaves: the one kept is the first */
    mock_srv_clear(&m, "svc.test");
    mock_srv(&m, "svc.test", "b.test", 9000, 10, 1, 300);
    char before[11][64];
    snap(r, before, 10);
    uint32_t first[10];
    wsel_ring_address_slots(r, 0, first);
    refresh(r, "svc.test");
    assert_int_equal(wsel_ring_address_count(r), 1);
    uint32_t now[10];
    wsel_ring_address_slots(r, 0, now);
    assert_memory_equal(now, first, 5 * sizeof *now);
    wsel_ring_free(r);
}

/* An SRV entry with port 0 (doc/ring.md section 15, item 1): 5.2.3 gives it the host's
 * port but looks it up by the raw port 0, so it never finds it again -- a weight change
 * crashes (`change` on nil) and a removal from DNS leaves it in place. wsel matches on
 * the port as stored (decision 4). Worked by hand on 10 slots (K1's free stack
 * 1,10,5,9,8,3,6,7,4,2): keys "000001:10.5.0.1:0" < "000001:10.5.0.2:8002"; weights
 * 10/10 give 1,10,5,9,8 | 3,6,7,4,2; 10.5.0.1 to weight 30 (in place): 7 and 3, so
 * 10.5.0.2 drops 2 then 4 and 10.5.0.1 pops 4, 2; 10.5.0.1 leaves DNS: its slots are
 * pushed most recent first (2,4,8,9,5,10,1) and 10.5.0.2 pops 1,10,5,9,8,4,2. */
static void test_srv_port0_departure(void **u)
{
    (void)u;
    mock m = {0};
    mock_srv_clear(&m, "srv.test");
    mock_srv(&m, "srv.test", "10.5.0.2", 8002, 10, 1, 300);
    mock_srv(&m, "srv.test", "10.5.0.1", 0, 10, 1, 300);
    wsel_ring_opts o = mock_opts(&m, 10);
    wsel_ring *r = mk(&o);
    add(r, "srv.test", 80, 10);
    assert_string_equal(slots_of(r, "10.5.0.1", 80), "1,10,5,9,8");
    assert_string_equal(slots_of(r, "10.5.0.2", 8002), "3,6,7,4,2");
    mock_srv_clear(&m, "srv.test");
    mock_srv(&m, "srv.test", "10.5.0.2", 8002, 10, 1, 300);
    mock_srv(&m, "srv.test", "10.5.0.1", 0, 30, 1, 300);
    refresh(r, "srv.test");
    assert_int_equal(wsel_ring_address_count(r), 2);
    assert_string_equal(slots_of(r, "10.5.0.1", 80), "1,10,5,9,8,4,2");
    assert_string_equal(slots_of(r, "10.5.0.2", 8002), "3,6,7");
    mock_srv_clear(&m, "srv.test");
    mock_srv(&m, "srv.test", "10.5.0.2", 8002, 10, 1, 300);
    refresh(r, "srv.test");
    assert_int_equal(wsel_ring_address_count(r), 1);
    assert_string_equal(slots_of(r, "10.5.0.2", 8002), "3,6,7,1,10,5,9,8,4,2");
    wsel_ring_free(r);
}

/* float keys with retries step like hashes */
static void test_float_retry(void **u)
{
    (void)u;
    mock m = {0};
    static const uint32_t ones[] = {1, 1, 1, 1, 1};
    wsel_ring *r = ip_ring(&m, 5, ones, 5);
    wsel_ring_handle h = {.mode = WSEL_RING_FLOAT, .u = 0.9};
    wsel_ring_peer p;
    assert_int_equal(wsel_ring_pick(r, &h, false, &p, NULL), WSEL_OK);
    assert_int_equal(p.slot, 5);
    assert_int_equal(wsel_ring_retry(r, &h, false, &p, NULL), WSEL_OK);
    assert_int_equal(p.slot, 1);
    assert_int_equal(h.retries, 1);
    h.mode = (wsel_ring_mode)7;
    assert_int_equal(wsel_ring_pick(r, &h, false, &p, NULL), WSEL_E_ARG);
    wsel_ring_free(r);
}

/* malformed resolver answers are refused and change nothing */
static int resolve_refuses(void *ctx, const char *name, wsel_ring_record *out)
{
    (void)ctx;
    (void)name;
    (void)out;
    return 1;
}

static void test_bad_answers(void **u)
{
    (void)u;
    mock m = {0};
    wsel_error err;
    wsel_ring_opts o = mock_opts(&m, 10);
    wsel_ring *r = mk(&o);
    add(r, "[::1]", 80, 10); /* a bracketed IPv6 literal host resolves to itself */
    assert_string_equal(slots_of(r, "::1", 80), "1,10,5,9,8,3,6,7,4,2");
    mock_name *t = mock_slot(&m, "x.test");
    t->type = (wsel_ring_rrtype)99;
    t->n = 1;
    snprintf(t->addr[0], sizeof t->addr[0], "10.0.0.1");
    t->e[0] = (wsel_ring_entry){t->addr[0], 300, 0, 0, 0};
    assert_int_equal(wsel_ring_add_host(r, "x.test", 80, 10, &err), WSEL_E_ADDR);
    assert_non_null(strstr(err.message, "unsupported record type"));
    t->type = WSEL_RING_SRV;
    t->e[0].weight = 65536;
    assert_int_equal(wsel_ring_add_host(r, "x.test", 80, 10, &err), WSEL_E_ADDR);
    t->e[0].weight = 1;
    t->e[0].address = "";
    assert_int_equal(wsel_ring_add_host(r, "x.test", 80, 10, &err), WSEL_E_ADDR);
    t->type = WSEL_RING_AAAA;
    t->e[0].address = t->addr[0]; /* an IPv4 address in an AAAA record */
    assert_int_equal(wsel_ring_add_host(r, "x.test", 80, 10, &err), WSEL_E_ADDR);
    assert_int_equal(wsel_ring_host_count(r), 1);
    assert_string_equal(slots_of(r, "::1", 80), "1,10,5,9,8,3,6,7,4,2");
    ok_check(r);
    wsel_ring_free(r);
    /* a resolver that refuses to answer counts as a failure */
    o.dns.resolve = resolve_refuses;
    r = mk(&o);
    add(r, "y.test", 80, 10);
    assert_int_equal(wsel_ring_host_count(r), 1);
    assert_int_equal(wsel_ring_address_count(r), 0);
    wsel_ring_free(r);
}

/* the invariant check can fail: corrupt the structure in each way it looks for */
static void test_check_catches(void **u)
{
    (void)u;
    mock m = {0};
    static const uint32_t w[] = {3, 5};
    wsel_ring *r = ip_ring(&m, 10, w, 2);
    wsel_error err;
    wsel__raddr *a = r->h[0]->a[0], *b = r->h[1]->a[0];
    uint32_t s = a->head;
    r->wheel[s] = b; /* owned by a in its list, by b on the wheel */
    assert_int_equal(wsel_ring_check(r, &err), WSEL_E_STATE);
    r->wheel[s] = a;
    a->count++;
    assert_int_equal(wsel_ring_check(r, &err), WSEL_E_STATE);
    a->count--;
    a->pos = 7;
    assert_int_equal(wsel_ring_check(r, &err), WSEL_E_STATE);
    assert_string_equal(err.message, "ring: address 10.0.0.1 numbered 7, expected 0");
    a->pos = 0;
    a->disabled = true;
    assert_int_equal(wsel_ring_check(r, &err), WSEL_E_STATE);
    assert_string_equal(err.message, "ring: disabled address 10.0.0.1 left behind");
    a->disabled = false;
    a->host = r->h[1]; /* an address whose host pointer names another host */
    assert_int_equal(wsel_ring_check(r, &err), WSEL_E_STATE);
    assert_string_equal(err.message, "ring: address 10.0.0.1 points at the wrong host");
    a->host = r->h[0];
    r->nfree = 1; /* a slot both free and owned */
    r->free[0] = s;
    assert_int_equal(wsel_ring_check(r, &err), WSEL_E_STATE);
    r->nfree = 0;
    uint32_t tail = b->tail; /* a slot owned by nobody and not free */
    slots_of(r, "10.0.0.2", 80);
    b->tail = r->prev[tail];
    r->next[b->tail] = 0;
    b->count--;
    r->wheel[tail] = NULL;
    assert_int_equal(wsel_ring_check(r, &err), WSEL_E_STATE);
    r->wheel[tail] = b;
    r->next[b->tail] = tail;
    b->tail = tail;
    b->count++;
    assert_int_equal(wsel_ring_check(r, &err), WSEL_OK);
    wsel_ring_free(r);
}

/* determinism: host order in `hosts` and answer order do not matter */
static void test_determinism(void **u)
{
    (void)u;
    mock m = {0};
    static const char *const x[] = {"10.5.0.3", "10.5.0.1", "10.5.0.2", NULL};
    static const char *const y[] = {"10.5.0.2", "10.5.0.3", "10.5.0.1", NULL};
    mock_addr(&m, "x.test", WSEL_RING_A, 300, x);
    mock m2 = {0};
    mock_addr(&m2, "x.test", WSEL_RING_A, 300, y);
    wsel_ring_host_spec h1[] = {{"x.test", 80, 7}, {"10.0.0.1", -1, 3}, {"10.0.0.1", 81, 9}};
    wsel_ring_host_spec h2[] = {{"10.0.0.1", 81, 9}, {"x.test", 80, 7}, {"10.0.0.1", -1, 3}};
    wsel_ring_opts o1 = mock_opts(&m, 97), o2 = mock_opts(&m2, 97);
    o1.hosts = h1;
    o1.n_hosts = 3;
    o2.hosts = h2;
    o2.n_hosts = 3;
    wsel_ring *a = mk(&o1), *b = mk(&o2);
    for (uint32_t s = 1; s <= 97; s++) {
        assert_int_equal(wsel_ring_owner(a, s), wsel_ring_owner(b, s));
        assert_string_equal(owner_ip(a, s), owner_ip(b, s));
    }
    /* "10.0.0.1:" (no port given) sorts before "10.0.0.1:81" */
    wsel_ring_address ad;
    wsel_ring_address_get(a, 0, &ad);
    assert_int_equal(ad.host_port, 80);
    wsel_ring_free(a);
    wsel_ring_free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_order_lists),
        cmocka_unit_test(test_order_probe),
        cmocka_unit_test(test_given_order),
        cmocka_unit_test(test_equal_keys_keep_order),
        cmocka_unit_test(test_k1),
        cmocka_unit_test(test_k2),
        cmocka_unit_test(test_aaaa_sort_full_form),
        cmocka_unit_test(test_srv_ipv6_target_sort),
        cmocka_unit_test(test_k3),
        cmocka_unit_test(test_k4),
        cmocka_unit_test(test_k5),
        cmocka_unit_test(test_k6),
        cmocka_unit_test(test_c1),
        cmocka_unit_test(test_c2_c3),
        cmocka_unit_test(test_c4),
        cmocka_unit_test(test_apportion_examples),
        cmocka_unit_test(test_distribution),
        cmocka_unit_test(test_movement_figures),
        cmocka_unit_test(test_spec_counts),
        cmocka_unit_test(test_validation),
        cmocka_unit_test(test_health),
        cmocka_unit_test(test_rr_start),
        cmocka_unit_test(test_rr_skips_unavailable),
        cmocka_unit_test(test_rr_no_peers_pointer),
        cmocka_unit_test(test_dns_kinds),
        cmocka_unit_test(test_ttl0),
        cmocka_unit_test(test_refresh_on_pick),
        cmocka_unit_test(test_determinism),
        cmocka_unit_test(test_status_ipv6_brackets),
        cmocka_unit_test(test_toip_answers),
        cmocka_unit_test(test_argument_edges),
#ifdef RING_EXTRA_TESTS
        RING_EXTRA_TESTS
#endif
        cmocka_unit_test(test_srv_details),
        cmocka_unit_test(test_srv_port0_departure),
        cmocka_unit_test(test_float_retry),
        cmocka_unit_test(test_bad_answers),
        cmocka_unit_test(test_check_catches),
    };
    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests_name("ring", tests, NULL, NULL);
}
