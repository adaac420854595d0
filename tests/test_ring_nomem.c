/* The ring under allocation failure: every allocation of a call is made to fail in turn;
 * the call must return WSEL_E_NOMEM, leave no block allocated and leave the ring exactly
 * as it was (same wheel, same addresses, invariants intact), until it completes.
 * Same wrapper technique as tests/test_coverage_nomem.c (glibc's __libc_* entry points);
 * skipped under sanitizers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ring_mock.h"
#include "../core/ring/ring_model.h"

#include "support/nomem.h"

#ifndef NOMEM_SKIP
/* The blocks ring r keeps for its next hosts and addresses (wsel__ring_spares): a
 * record each, and a spare host's address array. */
static long spare_blocks(const wsel_ring *r)
{
    long n = (long)r->spare_a.n;
    for (unsigned i = 0; i < r->spare_h.n; i++)
        n += 1 + (((const wsel__rhost *)r->spare_h.rec[i])->a != NULL);
    return n;
}

/* "owner of each slot | address count" */
static char *picture(const wsel_ring *r)
{
    static char buf[65536];
    size_t len = (size_t)snprintf(buf, sizeof buf, "%zu|", wsel_ring_address_count(r));
    for (uint32_t s = 1; s <= wsel_ring_size(r) && len < sizeof buf - 16; s++)
        len += (size_t)snprintf(buf + len, sizeof buf - len, "%ld,", wsel_ring_owner(r, s));
    return buf;
}

typedef int (*op_fn)(wsel_ring *r, mock *m);

static void sweep(const char *what, wsel_ring *r, mock *m, op_fn op)
{
    char before[65536];
    snprintf(before, sizeof before, "%s", picture(r));
    long base = live;
    for (long k = 0;; k++) {
        hit = 0;
        countdown = k;
        int rc = op(r, m);
        countdown = -1;
        if (!hit) {
            assert_int_equal(rc, WSEL_OK);
            return;
        }
        if (rc == WSEL_OK)
            continue; /* it managed without that block */
        if (rc != WSEL_E_NOMEM)
            fail_msg("%s: allocation %ld failed, status %d", what, k, rc);
        if (live != base)
            fail_msg("%s: allocation %ld failed and %ld blocks stayed", what, k, live - base);
        if (strcmp(before, picture(r)) != 0)
            fail_msg("%s: allocation %ld failed and the ring changed", what, k);
        assert_int_equal(wsel_ring_check(r, NULL), WSEL_OK);
    }
}

static int op_add_named(wsel_ring *r, mock *m)
{
    (void)m;
    return wsel_ring_add_host(r, "app.test", 80, 10, NULL);
}

static int op_refresh(wsel_ring *r, mock *m)
{
    (void)m;
    return wsel_ring_refresh(r, "app.test", NULL);
}

static int op_add_ip(wsel_ring *r, mock *m)
{
    (void)m;
    return wsel_ring_add_host(r, "10.0.0.9", 80, 5, NULL);
}

static int op_pick_expired(wsel_ring *r, mock *m)
{
    (void)m;
    wsel_ring_handle h = {.mode = WSEL_RING_RR};
    wsel_ring_peer p;
    int rc = WSEL_OK;
    for (int i = 0; i < 40 && rc == WSEL_OK; i++)
        rc = wsel_ring_pick(r, &h, false, &p, NULL);
    return rc;
}

/* Something built and freed again: make builds from ctx into *out (out of memory ->
 * WSEL_E_NOMEM, *out NULL and nothing left allocated), drop frees what it built. */
typedef struct maker {
    int (*make)(void *ctx, void **out);
    void (*drop)(void *obj);
} maker;

static int new_ring(void *ctx, void **out)
{
    wsel_ring *r = NULL;
    int rc = wsel_ring_new(ctx, &r, NULL);
    *out = r;
    return rc;
}

static int new_fast(void *ctx, void **out)
{
    wsel_ring_fast *f = NULL;
    int rc = wsel_ring_fast_new(ctx, &f, NULL);
    *out = f;
    return rc;
}

static void drop_ring(void *obj) { wsel_ring_free(obj); }
static void drop_fast(void *obj) { wsel_ring_fast_free(obj); }

static const maker make_ring = {new_ring, drop_ring}, make_fast = {new_fast, drop_fast};

/* Every allocation of the maker fails in turn: out of memory and nothing left behind. */
static void sweep_new(const maker *mk, void *ctx)
{
    long base = live;
    for (long k = 0;; k++) {
        hit = 0;
        countdown = k;
        void *obj = NULL;
        int rc = mk->make(ctx, &obj);
        if (rc != WSEL_OK)
            assert_null(obj);
        mk->drop(obj);
        countdown = -1;
        assert_int_equal(live, base);
        if (rc == WSEL_OK && !hit)
            return;
        if (rc != WSEL_OK)
            assert_int_equal(rc, WSEL_E_NOMEM);
    }
}

static void test_nomem(void **u)
{
    (void)u;
    static mock m;
    memset(&m, 0, sizeof m);
    static const char *const a1[] = {"10.1.0.1", "10.1.0.2", "10.1.0.3", NULL};
    static const char *const a2[] = {"10.1.0.3", "10.1.0.4", NULL};
    mock_addr(&m, "app.test", WSEL_RING_A, 5, a1);
    mock_addr(&m, "other.test", WSEL_RING_AAAA, 300, (const char *const[]){"::5", NULL});
    wsel_ring_opts o = mock_opts(&m, 40);
    wsel_ring_host_spec hs[] = {{"other.test", 8080, 3}, {"10.0.0.1", -1, 7}};
    o.hosts = hs;
    o.n_hosts = 2;

    /* construction */
    sweep_new(&make_ring, &o);
    wsel_ring *r = NULL;
    assert_int_equal(wsel_ring_new(&o, &r, NULL), WSEL_OK);
    sweep("add a named host", r, &m, op_add_named);
    mock_addr(&m, "app.test", WSEL_RING_A, 5, a2);
    sweep("refresh", r, &m, op_refresh);
    sweep("add an IP host", r, &m, op_add_ip);
    mock_addr(&m, "app.test", WSEL_RING_A, 5, a1);
    assert_int_equal(wsel_ring_tick(r, 5.2, NULL), WSEL_OK); /* expired, not yet renewed */
    sweep("pick refreshing an expired host", r, &m, op_pick_expired);
    assert_int_equal(wsel_ring_check(r, NULL), WSEL_OK);

    /* the fast engine: attaching, and syncing a change, with each allocation failing in
     * turn; a failed sync keeps the old view, and the next one publishes everything */
    long base = live - spare_blocks(r);
    sweep_new(&make_fast, r);
    wsel_ring_fast *f = NULL;
    assert_int_equal(wsel_ring_fast_new(r, &f, NULL), WSEL_OK);
    for (long k = 0;; k++) {
        if (k % 2)
            assert_int_equal(wsel_ring_add_host(r, "10.0.0.77", 80, 1 + (uint32_t)k, NULL), WSEL_OK);
        else
            assert_int_equal(wsel_ring_remove_host(r, "10.0.0.77", 80, NULL, NULL), WSEL_OK);
        if (k % 3 == 0)
            wsel_ring_fast_reclaim(f);
        hit = 0;
        countdown = k / 2;
        int rc = wsel_ring_fast_sync(f, NULL);
        countdown = -1;
        if (!hit && k > 16) {
            assert_int_equal(rc, WSEL_OK);
            break;
        }
        if (rc != WSEL_OK) {
            assert_int_equal(rc, WSEL_E_NOMEM);
            assert_int_equal(wsel_ring_fast_sync(f, NULL), WSEL_OK);
        }
        wsel_error e;
        if (wsel_ring_fast_check(f, &e) != WSEL_OK)
            fail_msg("fast engine after a failed sync (allocation %ld): %s", k / 2, e.message);
    }
    wsel_ring_fast_free(f);
    assert_int_equal(wsel_ring_remove_host(r, "10.0.0.77", 80, NULL, NULL), WSEL_OK);
    assert_int_equal(live - spare_blocks(r), base);
    wsel_ring_free(r);

    /* reading a scenario: its parser (yajl, which does not check its allocations: the
     * reader's allocator leaves the parse instead), the value table, the strings (one
     * with escapes: yajl's decoding buffer), the records and ops */
    static const char text[] =
        "{\"wheelSize\": 8, \"hosts\": [\"a.test\", {\"name\": \"h\\u00e9.test\", \"port\": 81}],"
        " \"dns\": {\"a.test\": {\"A\": [{\"address\": \"10.0.0.1\"}]},"
        " \"h\\u00e9.test\": {\"fail\": \"timeout\"}},"
        " \"ops\": [{\"op\": \"peers\", \"hashes\": [1, 2, 3]}, {\"op\": \"rr\", \"count\": 2}]}";
    base = live;
    for (long k = 0;; k++) {
        wsel_ring_scenario *sc = NULL;
        wsel_error e;
        hit = 0;
        countdown = k;
        int rc = wsel_ring_scenario_load_buffer("s.json", text, sizeof text - 1, &sc, &e);
        countdown = -1;
        if (!hit) {
            if (rc != WSEL_OK)
                fail_msg("scenario: %s", e.message);
            wsel_ring_scenario_free(sc);
            break;
        }
        if (rc != WSEL_E_NOMEM)
            fail_msg("scenario: allocation %ld failed, status %d (%s)", k, rc, e.message);
        assert_null(sc);
        if (live != base)
            fail_msg("scenario: allocation %ld failed and %ld blocks stayed", k, live - base);
    }
    assert_int_equal(live, base);
}

/* Allocations one scenario read makes (none is made to fail). */
static long allocations(const char *text, size_t len)
{
    wsel_ring_scenario *sc = NULL;
    wsel_error e;
    count_begin();
    int rc = wsel_ring_scenario_load_buffer("s.json", text, len, &sc, &e);
    long made = count_end();
    if (rc != WSEL_OK)
        fail_msg("scenario: %s", e.message);
    wsel_ring_scenario_free(sc);
    return made;
}

/* Valid multi-byte UTF-8 is read by the table reader itself (doc/ring.md §17): jansson's
 * tree is built only for texts the reader refuses. A text whose names hold 2-, 3- and
 * 4-byte characters (among them the first of each length, and those on either side of
 * the surrogates) makes exactly the allocations of the same text with as many ASCII
 * bytes in their place; read through jansson's tree, it would make many more. The same
 * holds for \u escapes against other escapes of the same length. */
static void test_utf8_read_directly(void **u)
{
    (void)u;
    static const char utf8[] =
        "{\"wheelSize\": 8, \"hosts\": [\"h\xc3\xa9.test\", \"\xe2\x82\xac.test\","
        " \"\xf0\x9f\x98\x80.test\", \"\xf4\x8f\xbf\xbf.test\","
        " \"\xc2\x80\xe0\xa0\x80\xed\x9f\xbf\xee\x80\x80\xf0\x90\x80\x80.test\"],"
        " \"dns\": {\"h\xc3\xa9.test\": {\"fail\": \"timeout\"}}}";
    static const char ascii[] =
        "{\"wheelSize\": 8, \"hosts\": [\"hxx.test\", \"xxx.test\","
        " \"xxxx.test\", \"yyyy.test\","
        " \"zzzzzzzzzzzzzzz.test\"],"
        " \"dns\": {\"hxx.test\": {\"fail\": \"timeout\"}}}";
    assert_int_equal(sizeof utf8, sizeof ascii);
    long a = allocations(ascii, sizeof ascii - 1), b = allocations(utf8, sizeof utf8 - 1);
    if (a != b)
        fail_msg("%ld allocations for the UTF-8 names, %ld for the ASCII ones", b, a);
    /* the same for \u escapes (checked by the reader: \u0000 and lone surrogates are
     * refused), surrogate pairs among them (the first and the last), against escapes of
     * the same length that are not \u (yajl decodes both kinds through one buffer) */
    static const char u_esc[] =
        "{\"hosts\": [\"h\\u00e9.test\", \"\\uD83D\\uDE00.test\", \"\\u20ac\\u00E8.test\","
        " \"\\uD800\\uDC00\\uDBFF\\uDFFF.test\"]}";
    static const char other_esc[] =
        "{\"hosts\": [\"h\\/\\/\\/.test\", \"\\/\\/\\/\\/\\/\\/.test\", \"\\t\\t\\t\\t\\t\\t.test\","
        " \"\\n\\n\\n\\n\\n\\n\\n\\n\\n\\n\\n\\n.test\"]}";
    assert_int_equal(sizeof u_esc, sizeof other_esc);
    a = allocations(other_esc, sizeof other_esc - 1);
    b = allocations(u_esc, sizeof u_esc - 1);
    if (a != b)
        fail_msg("%ld allocations for the \\u escapes, %ld for the others", b, a);
}

/* {"dns": {...}} with n hosts failing. */
static size_t dns_object(char *t, int n)
{
    size_t len = (size_t)sprintf(t, "{\"dns\": {");
    for (int i = 0; i < n; i++)
        len += (size_t)sprintf(t + len, "%s\"n%03d.test\": {\"fail\": \"timeout\"}", i ? ", " : "", i);
    len += (size_t)sprintf(t + len, "}}");
    return len;
}

/* Objects past 16 members are checked for repeated names through a hash (doc/ring.md
 * §17), by the table reader itself, whose allocations grow with the text's size by
 * doubling: 80 members make at most a few more than 40 (its tables double once or
 * twice). Read through the jansson fallback, each member would add allocations of its
 * own (40 more at least). */
static void test_large_object_read_directly(void **u)
{
    (void)u;
    static char a[4096], b[8192];
    size_t la = dns_object(a, 40), lb = dns_object(b, 80);
    long na = allocations(a, la), nb = allocations(b, lb);
    if (nb > na + 4)
        fail_msg("%ld allocations for 80 members, %ld for 40", nb, na);
}

#endif

NOMEM_MAIN("ring_nomem", cmocka_unit_test(test_nomem), cmocka_unit_test(test_utf8_read_directly),
           cmocka_unit_test(test_large_object_read_directly))
