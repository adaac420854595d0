/* The fast engine's reader calls (wsel_ring_fast_pick, wsel_ring_fast_retry, and their
 * view forms wsel_ring_fast_pick_view, wsel_ring_fast_retry_view: the quick path and the
 * general one) against the reference's (wsel_ring_pick, wsel_ring_retry)
 * on twin rings: the same hosts, weights and availability, one ring picked by the
 * reference, the other through a fast engine. Wheel sizes around the availability
 * bitmap's 64-slot words (1, 63, 64, 65, 128, 129, 1000), availability from all up
 * through every slot owner down to unhealthy, every pick mode, retries, both values of
 * cache_only, and the calls the pick refuses. The reference is the judge: its rules are
 * doc/ring.md sections 9 and 10, written independently of the bitmap walk. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "kit/kit.h"
#include "ring_mock.h"

typedef struct twins {
    mock m;
    wsel_ring *ref, *fr;
    wsel_ring_fast *f;
    uint32_t n;
} twins;

static uint64_t rnd_state = 0x9e3779b97f4a7c15u;


/* k hosts 10.0.0.1.. with weights w; host i down when down[i]; health threshold thr. */
static void twins_new(twins *t, uint32_t n, unsigned k, const uint32_t *w, const bool *down,
                      double thr)
{
    memset(t, 0, sizeof *t);
    t->n = n;
    wsel_ring_opts o = mock_opts(&t->m, n);
    o.health_threshold = thr;
    wsel_error err;
    assert_int_equal(wsel_ring_new(&o, &t->ref, &err), WSEL_OK);
    assert_int_equal(wsel_ring_new(&o, &t->fr, &err), WSEL_OK);
    for (unsigned i = 0; i < k; i++) {
        char name[32];
        snprintf(name, sizeof name, "10.0.%u.%u", i / 200, 1 + i % 200);
        assert_int_equal(wsel_ring_add_host(t->ref, name, 80, w[i], &err), WSEL_OK);
        assert_int_equal(wsel_ring_add_host(t->fr, name, 80, w[i], &err), WSEL_OK);
        if (down[i]) {
            assert_int_equal(wsel_ring_set_host_status(t->ref, name, 80, false, &err), WSEL_OK);
            assert_int_equal(wsel_ring_set_host_status(t->fr, name, 80, false, &err), WSEL_OK);
        }
    }
    assert_int_equal(wsel_ring_fast_new(t->fr, &t->f, &err), WSEL_OK);
}

static void twins_free(twins *t)
{
    wsel_ring_fast_free(t->f);
    wsel_ring_free(t->ref);
    wsel_ring_free(t->fr);
}

static void same_peer(const wsel_ring_peer *a, const wsel_ring_peer *b, const char *what,
                      uint32_t n)
{
    if (a->outcome != b->outcome)
        fail_msg("N %u, %s: outcome %d (fast) vs %d (reference)", n, what, (int)b->outcome,
                 (int)a->outcome);
    if (a->outcome != WSEL_RING_PEER)
        return;
    if (strcmp(a->ip, b->ip) != 0 || a->port != b->port || a->slot != b->slot)
        fail_msg("N %u, %s: %s:%u slot %u (fast) vs %s:%u slot %u (reference)", n, what, b->ip,
                 b->port, b->slot, a->ip, a->port, a->slot);
}

/* The view pick vp (status rcv) against the reference's pick pr. */
static void same_view(const twins *t, const wsel_ring_peer *pr, int rcv,
                      const wsel_ring_view_pick *vp, const char *what)
{
    char why[256];
    const char *d = wsel_kit_ring_view_agrees(rcv, vp, WSEL_OK, pr, t->fr, why, sizeof why);
    if (d)
        fail_msg("N %u, %s, view pick: %s", t->n, what, d);
}

/* One pick and two retries on each side from the same handle, the fast engine's as
 * copying picks, as view picks and as inline view picks (include/wsel/ring_inline.h). */
static void compare_keyed(twins *t, wsel_ring_handle h, bool cache_only, const char *what)
{
    wsel_ring_handle hr = h, hf = h, hv = h, hi = h;
    wsel_ring_peer pr, pf;
    wsel_ring_view_pick vp;
    wsel_error er, ef;
    assert_int_equal(wsel_ring_pick(t->ref, &hr, cache_only, &pr, &er), WSEL_OK);
    assert_int_equal(wsel_ring_fast_pick(t->f, &hf, cache_only, &pf, &ef), WSEL_OK);
    same_peer(&pr, &pf, what, t->n);
    same_view(t, &pr, wsel_ring_fast_pick_view(t->f, &hv, cache_only, &vp, &ef), &vp, what);
    same_view(t, &pr, wsel_ring_fast_pick_view_inline(t->f, &hi, cache_only, &vp, &ef), &vp,
              what);
    for (int k = 0; k < 2; k++) {
        assert_int_equal(wsel_ring_retry(t->ref, &hr, cache_only, &pr, &er), WSEL_OK);
        assert_int_equal(wsel_ring_fast_retry(t->f, &hf, cache_only, &pf, &ef), WSEL_OK);
        assert_int_equal(hf.retries, hr.retries);
        same_peer(&pr, &pf, what, t->n);
        same_view(t, &pr, wsel_ring_fast_retry_view(t->f, &hv, cache_only, &vp, &ef), &vp, what);
        assert_int_equal(hv.retries, hr.retries);
        same_view(t, &pr, wsel_ring_fast_retry_view_inline(t->f, &hi, cache_only, &vp, &ef),
                  &vp, what);
        assert_int_equal(hi.retries, hr.retries);
    }
}

/* Round-robin with a cursor (wsel_ring_fast_pick_rr and its inline form, in turn)
 * against the reference's round-robin: the cursor starts where the reference's pointer
 * stands (the shared one, in step with it) and must give the reference's sequence; the
 * shared pointer does not move. */
static void compare_cursor(twins *t, bool cache_only)
{
    uint32_t cursor = wsel_ring_fast_rr_pointer(t->f), shared = cursor;
    wsel_ring_handle hr = {.mode = WSEL_RING_RR};
    wsel_ring_peer pr;
    wsel_ring_view_pick vp;
    for (uint32_t i = 0; i < 2 * t->n + 3 && i < 400; i++) {
        assert_int_equal(wsel_ring_pick(t->ref, &hr, cache_only, &pr, NULL), WSEL_OK);
        uint32_t c = cursor;
        int rc = i % 2 ? wsel_ring_fast_pick_rr_inline(t->f, &cursor, cache_only, &vp, NULL)
                       : wsel_ring_fast_pick_rr(t->f, &cursor, cache_only, &vp, NULL);
        same_view(t, &pr, rc, &vp, i % 2 ? "cursor, inline" : "cursor");
        /* section 9: one past the slot taken; after no peer N + 1 values from c, so one
         * past c; unhealthy, where it was */
        uint32_t want = pr.outcome == WSEL_RING_PEER       ? pr.slot % t->n + 1
                        : pr.outcome == WSEL_RING_NO_PEERS ? c % t->n + 1
                                                           : c;
        if (cursor != want)
            fail_msg("N %u: cursor %u after a %s pick from %u, not %u", t->n, cursor,
                     wsel_ring_outcome_name(pr.outcome), c, want);
    }
    assert_int_equal(wsel_ring_fast_rr_pointer(t->f), shared);
}

static void compare_all(twins *t, bool cache_only)
{
    for (int i = 0; i < 40; i++) {
        wsel_ring_handle h = {.mode = WSEL_RING_HASH, .hash = i < 8 ? (uint64_t)i : wsel_kit_mix(&rnd_state)};
        compare_keyed(t, h, cache_only, "hash");
        h.mode = WSEL_RING_FLOAT;
        h.u = i == 0 ? 0.0 : wsel_kit_unit(wsel_kit_mix(&rnd_state));
        compare_keyed(t, h, cache_only, "float");
    }
    /* round-robin: every third pick of the fast engine a view pick (one shared pointer) */
    wsel_ring_handle hr = {.mode = WSEL_RING_RR}, hf = hr;
    wsel_ring_peer pr, pf;
    wsel_ring_view_pick vp;
    for (uint32_t i = 0; i < 2 * t->n + 3 && i < 400; i++) {
        bool view = i % 3 == 1;
        assert_int_equal(wsel_ring_pick(t->ref, &hr, cache_only, &pr, NULL), WSEL_OK);
        if (view) {
            same_view(t, &pr, wsel_ring_fast_pick_view(t->f, &hf, cache_only, &vp, NULL), &vp,
                      "round-robin");
        } else {
            assert_int_equal(wsel_ring_fast_pick(t->f, &hf, cache_only, &pf, NULL), WSEL_OK);
            same_peer(&pr, &pf, "round-robin", t->n);
        }
        if (i % 5 == 4) {
            assert_int_equal(wsel_ring_retry(t->ref, &hr, cache_only, &pr, NULL), WSEL_OK);
            if (view) {
                same_view(t, &pr, wsel_ring_fast_retry_view(t->f, &hf, cache_only, &vp, NULL),
                          &vp, "round-robin retry");
            } else {
                assert_int_equal(wsel_ring_fast_retry(t->f, &hf, cache_only, &pf, NULL), WSEL_OK);
                same_peer(&pr, &pf, "round-robin retry", t->n);
            }
        }
    }
    compare_cursor(t, cache_only);
}

/* Availability patterns: all up, every second host down, all but the last down, and
 * every host down (unhealthy at threshold 0: no available weight). */
static void test_reader_matches_reference(void **u)
{
    (void)u;
    static const uint32_t sizes[] = {1, 2, 63, 64, 65, 128, 129, 1000};
    uint32_t w[12];
    bool down[12];
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        for (int pattern = 0; pattern < 4; pattern++) {
            unsigned k = (unsigned)wsel_kit_range(&rnd_state, 1, 12);
            for (unsigned i = 0; i < k; i++) {
                w[i] = (uint32_t)wsel_kit_range(&rnd_state, 1, 50);
                down[i] = pattern == 3 || (pattern == 1 && i % 2 == 1) ||
                          (pattern == 2 && i + 1 < k);
            }
            twins t;
            twins_new(&t, sizes[s], k, w, down, 0);
            compare_all(&t, pattern % 2 == 0);
            twins_free(&t);
        }
    }
}

/* A healthy ring whose every slot owner is down (the one host up owns no slot: 5.2.3's
 * apportionment gives a weight-1 host none of 2 slots beside two weight-100 hosts):
 * NO_PEERS on both sides, the round-robin pointer moving as the reference's. */
static void test_reader_no_peers(void **u)
{
    (void)u;
    const uint32_t w[3] = {100, 100, 1};
    bool down[3] = {false, false, false};
    twins t;
    twins_new(&t, 2, 3, w, down, 0);
    wsel_error err;
    char name[64];
    for (uint32_t s = 1; s <= 2; s++) {
        wsel_ring_handle h = {.mode = WSEL_RING_HASH, .hash = s - 1};
        wsel_ring_peer p;
        assert_int_equal(wsel_ring_pick(t.ref, &h, true, &p, &err), WSEL_OK);
        snprintf(name, sizeof name, "%s", p.ip);
        assert_int_equal(wsel_ring_set_host_status(t.ref, name, 80, false, &err), WSEL_OK);
        assert_int_equal(wsel_ring_set_host_status(t.fr, name, 80, false, &err), WSEL_OK);
    }
    assert_int_equal(wsel_ring_fast_sync(t.f, &err), WSEL_OK);
    wsel_ring_handle h = {.mode = WSEL_RING_HASH, .hash = 7};
    wsel_ring_peer p;
    assert_int_equal(wsel_ring_fast_pick(t.f, &h, true, &p, &err), WSEL_OK);
    assert_int_equal(p.outcome, WSEL_RING_NO_PEERS);
    compare_all(&t, true);
    compare_all(&t, false);
    twins_free(&t);
}

/* The pick with handle h refused as WSEL_E_ARG with `msg` in its message, by the copying
 * pick, the view pick and the inline view pick. */
static void refused(twins *t, wsel_ring_handle *h, const char *msg)
{
    wsel_ring_peer p;
    wsel_ring_view_pick vp;
    wsel_error err;
    wsel_error_clear(&err);
    assert_int_equal(wsel_ring_fast_pick(t->f, h, true, &p, &err), WSEL_E_ARG);
    assert_non_null(strstr(err.message, msg));
    wsel_error_clear(&err);
    assert_int_equal(wsel_ring_fast_pick_view(t->f, h, true, &vp, &err), WSEL_E_ARG);
    assert_non_null(strstr(err.message, msg));
    wsel_error_clear(&err);
    assert_int_equal(wsel_ring_fast_pick_view_inline(t->f, h, true, &vp, &err), WSEL_E_ARG);
    assert_non_null(strstr(err.message, msg));
}

/* Calls the reader refuses, as the reference does: a float key outside [0,1) (NaN too)
 * and an unknown mode are WSEL_E_ARG naming the fault; the handle's retries count a
 * retry either way, as wsel_ring_retry counts it. */
static void test_reader_refuses(void **u)
{
    (void)u;
    const uint32_t w[2] = {1, 2};
    const bool down[2] = {false, false};
    twins t;
    twins_new(&t, 10, 2, w, down, 0);
    const double bad[] = {-0.5, 1.0, 2.0, 0.0 / 0.0};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        wsel_ring_handle h = {.mode = WSEL_RING_FLOAT, .u = bad[i]};
        refused(&t, &h, "float key must be in [0,1)");
        wsel_ring_peer p;
        wsel_ring_view_pick vp;
        assert_int_equal(wsel_ring_fast_retry(t.f, &h, false, &p, NULL), WSEL_E_ARG);
        assert_int_equal(h.retries, 1);
        assert_int_equal(wsel_ring_fast_retry_view(t.f, &h, false, &vp, NULL), WSEL_E_ARG);
        assert_int_equal(h.retries, 2);
    }
    wsel_ring_handle h = {.mode = (wsel_ring_mode)42};
    refused(&t, &h, "unknown pick mode 42");
    twins_free(&t);
}

/* A cursor starts at rr_start: the shared pointer of a new engine on a new ring stands
 * there, and a cursor taken from it gives the sequence of a reference ring with the same
 * rr_start. Cursors outside 1..N and missing arguments are refused, the cursor
 * untouched. */
static void test_reader_cursor_start(void **u)
{
    (void)u;
    mock m;
    memset(&m, 0, sizeof m);
    wsel_ring_opts o = mock_opts(&m, 70);
    o.rr_start = 66;
    wsel_ring *ref, *fr;
    wsel_ring_fast *f;
    wsel_error err;
    assert_int_equal(wsel_ring_new(&o, &ref, &err), WSEL_OK);
    assert_int_equal(wsel_ring_new(&o, &fr, &err), WSEL_OK);
    for (unsigned i = 0; i < 5; i++) {
        char name[32];
        snprintf(name, sizeof name, "10.0.0.%u", i + 1);
        assert_int_equal(wsel_ring_add_host(ref, name, 80, 1 + i, &err), WSEL_OK);
        assert_int_equal(wsel_ring_add_host(fr, name, 80, 1 + i, &err), WSEL_OK);
    }
    assert_int_equal(wsel_ring_fast_new(fr, &f, &err), WSEL_OK);
    uint32_t cursor = wsel_ring_fast_rr_pointer(f);
    assert_int_equal(cursor, 66);
    twins t = {.ref = ref, .fr = fr, .f = f, .n = 70};
    compare_cursor(&t, true);
    wsel_ring_view_pick vp;
    const uint32_t bad[] = {0, 71, UINT32_MAX};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        cursor = bad[i];
        wsel_error_clear(&err);
        assert_int_equal(wsel_ring_fast_pick_rr(f, &cursor, true, &vp, &err), WSEL_E_ARG);
        assert_non_null(strstr(err.message, "cursor must be a slot 1..70"));
        assert_int_equal(wsel_ring_fast_pick_rr_inline(f, &cursor, true, &vp, NULL), WSEL_E_ARG);
        assert_int_equal(cursor, bad[i]);
    }
    cursor = 1;
    assert_int_equal(wsel_ring_fast_pick_rr(NULL, &cursor, true, &vp, NULL), WSEL_E_ARG);
    assert_int_equal(wsel_ring_fast_pick_rr_inline(f, NULL, true, &vp, NULL), WSEL_E_ARG);
    assert_int_equal(wsel_ring_fast_pick_rr_inline(f, &cursor, true, NULL, NULL), WSEL_E_ARG);
    assert_int_equal(cursor, 1);
    assert_int_equal(wsel_ring_fast_rr_pointer(NULL), 0);
    wsel_ring_fast_free(f);
    wsel_ring_free(ref);
    wsel_ring_free(fr);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reader_matches_reference),
        cmocka_unit_test(test_reader_no_peers),
        cmocka_unit_test(test_reader_refuses),
        cmocka_unit_test(test_reader_cursor_start),
    };
    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests_name("ring fast reader", tests, NULL, NULL);
}
