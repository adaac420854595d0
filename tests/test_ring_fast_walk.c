/* The fast engine's walk over its availability bitmap, slot by slot, judged by the rules
 * of doc/ring.md sections 9 and 10 written out here (no engine's pick is the judge).
 *
 * Each wheel of N slots carries N + 1 IP-literal hosts of weight 1, so every address
 * owns at most one slot and exactly one owns none: which slots are available is then
 * chosen slot by slot, and with only the slotless host up the ring is healthy with no
 * peer (NO_PEERS). Wheel sizes sit around the bitmap's 64-slot words; the available sets
 * are all, none, one slot (at the ends of words), one word's run, and random ones.
 * Every entry point (wsel_ring_fast_pick, _retry, _pick_refresh) and every pick kind is
 * checked from every start slot (a sample of them on the largest wheel):
 *
 *   hashed and float: the first available slot at or after the start, cyclic;
 *                     NO_PEERS when there is none; UNHEALTHY when W - U = 0;
 *   round-robin:      the same from the pointer P; the pointer then stands one past the
 *                     slot taken, or at P + 1 when none was (N + 1 values taken);
 *                     an unhealthy ring leaves it where it was.
 *
 * The writer's pick (wsel_ring_fast_pick_refresh) landing on an expired host, section 7:
 * the host is re-queried; if its address went, the same slot is tried again with the
 * skips counted so far (N in all), and the round-robin pointer goes on taking one value
 * per slot looked at. Each case is derived by hand below.
 *
 * wsel_ring_fast_check finds each way a published view or record can disagree with its
 * ring (the view altered in place, then restored). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "kit/kit.h"
#include "ring_mock.h"
#include "../fast/ring/ring_view.h"

static uint64_t rnd = 0x243f6a8885a308d3u;

typedef struct wheel {
    wsel_ring *r;
    wsel_ring_fast *f;
    uint32_t n;
    bool *up;      /* [1..n]: slot s is to be available */
    uint32_t ptr;  /* the round-robin pointer as section 9 moves it */
} wheel;

static void host_name(char *buf, size_t len, uint32_t i)
{
    snprintf(buf, len, "10.%u.%u.%u", i / 65536, i / 256 % 256, i % 256);
}

static void wheel_new(wheel *w, uint32_t n)
{
    memset(w, 0, sizeof *w);
    w->n = n;
    wsel_ring_opts o;
    wsel_ring_opts_init(&o);
    o.dns.resolve = wsel_kit_ring_literals_only;
    o.wheel_size = n;
    o.health_threshold = 0;
    wsel_error err;
    assert_int_equal(wsel_ring_new(&o, &w->r, &err), WSEL_OK);
    char name[32];
    for (uint32_t i = 0; i <= n; i++) {
        host_name(name, sizeof name, i);
        assert_int_equal(wsel_ring_add_host(w->r, name, 80, 1, &err), WSEL_OK);
    }
    /* the layout the test relies on: N + 1 addresses, N of them one slot each */
    assert_int_equal(wsel_ring_address_count(w->r), n + 1);
    size_t empty = 0;
    for (size_t a = 0; a <= n; a++) {
        wsel_ring_address ad;
        wsel_ring_address_get(w->r, a, &ad);
        assert_true(ad.n_slots <= 1);
        empty += ad.n_slots == 0;
    }
    assert_int_equal(empty, 1);
    assert_int_equal(wsel_ring_fast_new(w->r, &w->f, &err), WSEL_OK);
    w->up = calloc((size_t)n + 1, sizeof *w->up);
    assert_non_null(w->up);
    w->ptr = 1; /* rr_start's default */
}

static void wheel_free(wheel *w)
{
    wsel_ring_fast_free(w->f);
    wsel_ring_free(w->r);
    free(w->up);
}

/* Makes the addresses' availability that of w->up (the slotless address: avail_spare),
 * then syncs the engine and reclaims. */
static void wheel_apply(wheel *w, bool avail_spare)
{
    wsel_error err;
    for (size_t a = 0; a <= w->n; a++) {
        wsel_ring_address ad;
        wsel_ring_address_get(w->r, a, &ad);
        bool want = avail_spare;
        if (ad.n_slots) {
            uint32_t s;
            wsel_ring_address_slots(w->r, a, &s);
            want = w->up[s];
        }
        if (ad.available != want)
            assert_int_equal(wsel_ring_set_host_status(w->r, ad.host, ad.host_port, want, &err),
                             WSEL_OK);
    }
    assert_int_equal(wsel_ring_fast_sync(w->f, &err), WSEL_OK);
    wsel_ring_fast_reclaim(w->f);
    assert_int_equal(wsel_ring_fast_check(w->f, &err), WSEL_OK);
}

/* Section 10: healthy when W > 0 and (W - U) / W * 100 > 0, from the addresses' own
 * weights and flags. */
static bool healthy(const wheel *w)
{
    uint64_t W = 0, U = 0;
    for (size_t a = 0; a < wsel_ring_address_count(w->r); a++) {
        wsel_ring_address ad;
        wsel_ring_address_get(w->r, a, &ad);
        W += ad.weight;
        U += ad.available ? 0 : ad.weight;
    }
    return W > 0 && W > U;
}

/* Section 9, step 3: the first available slot from `start` on, cyclic; 0 for none. */
static uint32_t first_up(const wheel *w, uint32_t start)
{
    for (uint32_t d = 0; d < w->n; d++) {
        uint32_t s = 1 + (start - 1 + d) % w->n;
        if (w->up[s])
            return s;
    }
    return 0;
}

/* The peer a pick should give: slot `want` (0: NO_PEERS), or UNHEALTHY. */
static void expect(const wheel *w, const wsel_ring_peer *p, bool ok_health, uint32_t want,
                   const char *what, uint32_t start)
{
    wsel_ring_outcome o = !ok_health ? WSEL_RING_UNHEALTHY
                          : want     ? WSEL_RING_PEER
                                     : WSEL_RING_NO_PEERS;
    if (p->outcome != o)
        fail_msg("N %u, %s from slot %u: outcome %s, expected %s", w->n, what, start,
                 wsel_ring_outcome_name(p->outcome), wsel_ring_outcome_name(o));
    if (o != WSEL_RING_PEER)
        return;
    wsel_ring_address ad;
    wsel_ring_address_get(w->r, (size_t)wsel_ring_owner(w->r, want), &ad);
    if (p->slot != want || strcmp(p->ip, ad.ip) != 0 || p->port != 80 || p->hostname)
        fail_msg("N %u, %s from slot %u: %s:%u slot %u, expected %s:80 slot %u", w->n, what,
                 start, p->ip, p->port, p->slot, ad.ip, want);
}

typedef int pick_fn(wsel_ring_fast *, wsel_ring_handle *, bool, wsel_ring_peer *, wsel_error *);

static const struct entry {
    pick_fn *fn;
    const char *name;
    uint32_t retries; /* what the call adds to the handle's count */
} entries[] = {
    {wsel_ring_fast_pick, "pick", 0},
    {wsel_ring_fast_retry, "retry", 1},
    {wsel_ring_fast_pick_refresh, "pick_refresh", 0},
};

/* Hashed and float picks whose start slot is `start`, through every entry point, with
 * and without cache_only (IP literals never expire: the same answer). */
static void keyed_from(wheel *w, uint32_t start, bool ok_health)
{
    const uint32_t n = w->n;
    for (size_t e = 0; e < sizeof entries / sizeof *entries; e++) {
        for (int mode = 0; mode < 2; mode++) {
            /* handle's own key k0 and retries r0 chosen so that start - 1 is
             * (k0 + r0 + the call's retry) mod N */
            uint32_t r0 = (uint32_t)wsel_kit_range(&rnd, 0, 3 * (uint64_t)n);
            uint64_t k0 = (2 * (uint64_t)n + start - 1 - (r0 + entries[e].retries) % n) % n;
            wsel_ring_handle h = {.retries = r0};
            if (mode == 0) {
                h.mode = WSEL_RING_HASH;
                h.hash = k0 + (uint64_t)n * wsel_kit_range(&rnd, 0, UINT64_MAX / n - 1);
            } else {
                h.mode = WSEL_RING_FLOAT;
                h.u = ((double)k0 + 0.5) / n; /* floor(u N) = k0 */
            }
            wsel_ring_peer p;
            wsel_error err;
            bool cache_only = wsel_kit_range(&rnd, 0, 1);
            assert_int_equal(entries[e].fn(w->f, &h, cache_only, &p, &err), WSEL_OK);
            assert_int_equal(h.retries, r0 + entries[e].retries);
            char what[64];
            snprintf(what, sizeof what, "%s %s", mode ? "float" : "hash", entries[e].name);
            expect(w, &p, ok_health, first_up(w, start), what, start);
        }
    }
}

/* count round-robin picks, each through an entry point in turn */
static void round_robin(wheel *w, uint32_t count, bool ok_health)
{
    for (uint32_t i = 0; i < count; i++) {
        const struct entry *e = &entries[(i + w->ptr) % 3];
        wsel_ring_handle h = {.mode = WSEL_RING_RR};
        wsel_ring_peer p;
        wsel_error err;
        assert_int_equal(e->fn(w->f, &h, i % 2, &p, &err), WSEL_OK);
        uint32_t start = w->ptr, got = first_up(w, start);
        char what[64];
        snprintf(what, sizeof what, "round-robin %s", e->name);
        expect(w, &p, ok_health, got, what, start);
        if (ok_health)
            w->ptr = got ? (got == w->n ? 1 : got + 1) : (start == w->n ? 1 : start + 1);
    }
}

static void check_all(wheel *w)
{
    bool ok = healthy(w);
    const uint32_t n = w->n;
    if (n <= 200) {
        for (uint32_t s = 1; s <= n; s++)
            keyed_from(w, s, ok);
    } else {
        static const uint32_t edge[] = {1, 2, 63, 64, 65, 127, 128, 129, 191, 192, 193};
        for (size_t i = 0; i < sizeof edge / sizeof *edge; i++)
            keyed_from(w, edge[i], ok);
        keyed_from(w, n, ok);
        keyed_from(w, n - 1, ok);
        for (int i = 0; i < 40; i++)
            keyed_from(w, (uint32_t)wsel_kit_range(&rnd, 1, n), ok);
    }
    round_robin(w, (n < 150 ? 2 * n : 300) + 3, ok);
}

static void set_up(wheel *w, bool v)
{
    for (uint32_t s = 1; s <= w->n; s++)
        w->up[s] = v;
}

static void test_walk(void **u)
{
    (void)u;
    static const uint32_t sizes[] = {1, 2, 3, 63, 64, 65, 127, 128, 129, 200, 1000};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        const uint32_t n = sizes[i];
        wheel w;
        wheel_new(&w, n);
        /* every slot up */
        set_up(&w, true);
        wheel_apply(&w, true);
        check_all(&w);
        /* one slot up: at either end of the wheel and of its words */
        const uint32_t one[] = {1, 2, 63, 64, 65, 127, 128, 129, n, n - 1};
        for (size_t k = 0; k < sizeof one / sizeof *one; k++) {
            uint32_t q = one[k];
            if (q < 1 || q > n)
                continue;
            set_up(&w, false);
            w.up[q] = true;
            wheel_apply(&w, k % 2 == 0);
            check_all(&w);
        }
        /* one word's slots up (the second word, else the first) */
        set_up(&w, false);
        for (uint32_t s = n >= 128 ? 64 : 1; s <= n && s < (n >= 128 ? 128 : 64); s++)
            w.up[s] = true;
        wheel_apply(&w, false);
        check_all(&w);
        /* random sets, dense and sparse */
        for (int k = 0; k < 2; k++) {
            for (uint32_t s = 1; s <= n; s++)
                w.up[s] = wsel_kit_range(&rnd, 0, k ? 15 : 1) == 0;
            wheel_apply(&w, true);
            check_all(&w);
        }
        /* no slot up, the slotless host up: healthy, no peer */
        set_up(&w, false);
        wheel_apply(&w, true);
        assert_true(healthy(&w));
        check_all(&w);
        /* nothing up: unhealthy */
        wheel_apply(&w, false);
        assert_false(healthy(&w));
        check_all(&w);
        /* back up: the pointer goes on from where the unhealthy picks left it */
        set_up(&w, true);
        wheel_apply(&w, true);
        check_all(&w);
        wheel_free(&w);
    }
}

/* ---- the writer's pick over an expired host --------------------------------------- */

#define RN 66 /* slots: two bitmap words */
#define RA (RN + 1) /* IP hosts; a.test is address RA */

enum requery { SAME, REPLACED, FAILED_ONE_UP, FAILED_NONE_UP, FAILED_UNHEALTHY, MALFORMED };

typedef struct rcase {
    mock m;
    wsel_ring *r;
    wsel_ring_fast *f;
    uint32_t p;      /* a.test's slot */
    uint32_t ptr;    /* the round-robin pointer by section 9 */
} rcase;

static uint32_t cyc(int64_t s)
{
    return (uint32_t)(((s - 1) % RN + RN) % RN + 1);
}

static void rc_sync(rcase *c)
{
    wsel_error err;
    assert_int_equal(wsel_ring_fast_sync(c->f, &err), WSEL_OK);
    wsel_ring_fast_reclaim(c->f);
    assert_int_equal(wsel_ring_fast_check(c->f, &err), WSEL_OK);
}

/* The owner of slot s is available (per the ring's address list). */
static bool slot_up(const wsel_ring *r, uint32_t s)
{
    long a = wsel_ring_owner(r, s);
    wsel_ring_address ad;
    if (a < 0)
        return false;
    wsel_ring_address_get(r, (size_t)a, &ad);
    return ad.available;
}

static void slot_status(rcase *c, uint32_t s, bool up)
{
    wsel_ring_address ad;
    wsel_ring_address_get(c->r, (size_t)wsel_ring_owner(c->r, s), &ad);
    wsel_error err;
    assert_int_equal(wsel_ring_set_address_status(c->r, ad.ip, ad.port, ad.host, up, &err),
                     WSEL_OK);
}

/* RA = RN + 1 IP hosts, then a.test (A records `ips`, TTL 10), all weight 1, each of
 * a.test's addresses owning one slot (the layout the cases rely on); c->p is the first
 * one's. */
static void rc_build(rcase *c, const char *const *ips)
{
    memset(c, 0, sizeof *c);
    mock_addr(&c->m, "a.test", WSEL_RING_A, 10, ips);
    wsel_ring_opts o = mock_opts(&c->m, RN);
    wsel_error err;
    assert_int_equal(wsel_ring_new(&o, &c->r, &err), WSEL_OK);
    char name[32];
    for (uint32_t i = 0; i < RA; i++) {
        snprintf(name, sizeof name, "10.0.1.%u", i + 1);
        assert_int_equal(wsel_ring_add_host(c->r, name, 80, 1, &err), WSEL_OK);
    }
    assert_int_equal(wsel_ring_add_host(c->r, "a.test", 80, 1, &err), WSEL_OK);
    for (size_t i = 0; ips[i]; i++) {
        wsel_ring_address ad;
        wsel_ring_address_get(c->r, RA + i, &ad);
        assert_string_equal(ad.ip, ips[i]);
        assert_int_equal(ad.n_slots, 1);
    }
    wsel_ring_address_slots(c->r, RA, &c->p);
    c->ptr = 1;
}

/* a.test with 192.0.2.1 alone: RN + 2 addresses on RN slots, each owning at most one,
 * two owning none. The five slots before a.test's are down. */
static void rc_new(rcase *c)
{
    rc_build(c, (const char *const[]){"192.0.2.1", NULL});
    for (int k = 1; k <= 5; k++)
        slot_status(c, cyc((int64_t)c->p - k), false);
    wsel_error err;
    assert_int_equal(wsel_ring_fast_new(c->r, &c->f, &err), WSEL_OK);
}

static void rc_free(rcase *c)
{
    wsel_ring_fast_free(c->f);
    wsel_ring_free(c->r);
}

/* Cache-only round-robin picks (no re-query) until the pointer stands at `to`; each
 * leaves it one past the slot it took (every slot outside the down run is up). */
static void rc_pointer_to(rcase *c, uint32_t to)
{
    for (int i = 0; c->ptr != to; i++) {
        assert_true(i < 2 * RN);
        wsel_ring_handle h = {.mode = WSEL_RING_RR};
        wsel_ring_peer pe;
        assert_int_equal(wsel_ring_fast_pick(c->f, &h, true, &pe, NULL), WSEL_OK);
        assert_int_equal(pe.outcome, WSEL_RING_PEER);
        uint32_t s = c->ptr;
        while (!slot_up(c->r, s))
            s = cyc((int64_t)s + 1);
        assert_int_equal(pe.slot, s);
        c->ptr = cyc((int64_t)s + 1);
    }
}

/* Every slot up: a cache-only round-robin pick shows where the pointer stands, `ptr`. */
static void rc_pointer_is(rcase *c, uint32_t ptr)
{
    for (uint32_t s = 1; s <= RN; s++)
        slot_status(c, s, true);
    rc_sync(c);
    wsel_ring_handle h = {.mode = WSEL_RING_RR};
    wsel_ring_peer pe;
    assert_int_equal(wsel_ring_fast_pick(c->f, &h, true, &pe, NULL), WSEL_OK);
    assert_int_equal(pe.outcome, WSEL_RING_PEER);
    assert_int_equal(pe.slot, ptr);
}

static void refresh_case(wsel_ring_mode mode, enum requery what)
{
    rcase c;
    rc_new(&c);
    const uint32_t p = c.p, start = cyc((int64_t)p - 5);
    wsel_error err;
    if (mode == WSEL_RING_RR)
        rc_pointer_to(&c, start);
    /* the availability of the case: FAILED_ONE_UP, only slot p + 3 up beside a.test;
     * FAILED_NONE_UP, no slot up beside a.test, one slotless IP host up (one that keeps no
     * slot after the re-query); FAILED_UNHEALTHY, only a.test up */
    for (uint32_t s = 1; s <= RN; s++) {
        bool in_run = cyc((int64_t)p - s) <= 5 && s != p;
        if (s == p || in_run)
            continue;
        if (what == FAILED_ONE_UP || what == FAILED_NONE_UP || what == FAILED_UNHEALTHY)
            slot_status(&c, s, what == FAILED_ONE_UP && s == cyc((int64_t)p + 3));
    }
    long heir = -1; /* FAILED_NONE_UP: the slotless host that takes slot p, kept down */
    if (what == FAILED_NONE_UP) {
        /* a twin ring (same ops, same layout) shows which one that is */
        rcase t;
        rc_new(&t);
        mock_fail(&t.m, "a.test");
        assert_int_equal(wsel_ring_refresh(t.r, "a.test", &err), WSEL_OK);
        heir = wsel_ring_owner(t.r, p);
        rc_free(&t);
    }
    if (what != SAME && what != REPLACED && what != MALFORMED) {
        for (size_t a = 0; a < RA; a++) {
            wsel_ring_address ad;
            wsel_ring_address_get(c.r, a, &ad);
            if (!ad.n_slots && (what != FAILED_NONE_UP || (long)a == heir))
                assert_int_equal(wsel_ring_set_host_status(c.r, ad.host, 80, false, &err),
                                 WSEL_OK);
        }
    }
    /* a.test expired at 10; the renewal timer is not due before 10.5 */
    assert_int_equal(wsel_ring_tick(c.r, 10.25, &err), WSEL_OK);
    rc_sync(&c);
    wsel_ring_handle h = {.mode = mode, .hash = start - 1 + 7 * (uint64_t)RN,
                          .u = (start - 0.5) / RN};
    wsel_ring_peer pe;
    if (mode != WSEL_RING_RR) {
        /* a reader may not re-query: EXPIRED at a.test's slot, or the cached answer */
        assert_int_equal(wsel_ring_fast_pick(c.f, &h, false, &pe, &err), WSEL_OK);
        assert_int_equal(pe.outcome, WSEL_RING_EXPIRED);
        assert_int_equal(pe.slot, p);
        assert_int_equal(wsel_ring_fast_pick(c.f, &h, true, &pe, &err), WSEL_OK);
        assert_int_equal(pe.outcome, WSEL_RING_PEER);
        assert_string_equal(pe.ip, "192.0.2.1");
        assert_int_equal(pe.slot, p);
    }
    switch (what) {
    case SAME:
        break; /* the same answer again */
    case REPLACED:
        mock_addr(&c.m, "a.test", WSEL_RING_A, 10, (const char *const[]){"192.0.2.2", NULL});
        break;
    case MALFORMED:
        mock_addr(&c.m, "a.test", WSEL_RING_A, 10, (const char *const[]){"a.test.", NULL});
        break;
    default:
        mock_fail(&c.m, "a.test");
    }
    int rc = wsel_ring_fast_pick_refresh(c.f, &h, false, &pe, &err);
    if (what == MALFORMED) {
        /* WSEL_E_ADDR, and the ring keeps a.test's old address (section 7) */
        assert_int_equal(rc, WSEL_E_ADDR);
        wsel_ring_address ad;
        wsel_ring_address_get(c.r, RA, &ad);
        assert_string_equal(ad.ip, "192.0.2.1");
        assert_int_equal(wsel_ring_owner(c.r, p), RA);
        rc_free(&c);
        return;
    }
    assert_int_equal(rc, WSEL_OK);
    assert_int_equal(wsel_ring_fast_check(c.f, &err), WSEL_OK);
    uint32_t want = 0; /* the slot answered, 0: none */
    switch (what) {
    case SAME:
        /* the address is still there: it is the answer, at its slot */
        assert_int_equal(pe.outcome, WSEL_RING_PEER);
        assert_string_equal(pe.ip, "192.0.2.1");
        want = p;
        break;
    case REPLACED:
        /* one-for-one: 192.0.2.2 takes a.test's slot, which is tried again */
        assert_int_equal(pe.outcome, WSEL_RING_PEER);
        assert_string_equal(pe.ip, "192.0.2.2");
        assert_non_null(pe.hostname);
        assert_string_equal(pe.hostname, "a.test");
        want = p;
        break;
    case FAILED_ONE_UP:
    case FAILED_NONE_UP:
        /* a.test's slot went to another address: from that slot on, the first
         * available slot within the N - 5 skips left, read off the ring as the
         * re-query left it (p + 3, or none) */
        for (uint32_t d = 0; d < RN - 5 && !want; d++)
            if (slot_up(c.r, cyc((int64_t)p + d)))
                want = cyc((int64_t)p + d);
        /* as the case was set up: the slot's new owner is down */
        assert_int_equal(want, what == FAILED_ONE_UP ? cyc((int64_t)p + 3) : 0);
        assert_int_equal(pe.outcome, want ? WSEL_RING_PEER : WSEL_RING_NO_PEERS);
        break;
    default:
        assert_int_equal(pe.outcome, WSEL_RING_UNHEALTHY);
        break;
    }
    if (want) {
        assert_int_equal(pe.slot, want);
        wsel_ring_address ad;
        wsel_ring_address_get(c.r, (size_t)wsel_ring_owner(c.r, want), &ad);
        assert_string_equal(pe.ip, ad.ip);
    }
    if (mode == WSEL_RING_RR) {
        /* the pointer took one value per slot looked at: one past the slot answered;
         * after no peer, N + 1 values from the start; when the ring turned unhealthy at
         * a.test's slot, one past that slot */
        uint32_t ptr = want                      ? cyc((int64_t)want + 1)
                       : what == FAILED_NONE_UP ? cyc((int64_t)start + 1)
                                                : cyc((int64_t)p + 1);
        if (what != FAILED_UNHEALTHY)
            rc_pointer_is(&c, ptr);
    }
    rc_free(&c);
}

static void test_refresh_walk(void **u)
{
    (void)u;
    const wsel_ring_mode modes[] = {WSEL_RING_HASH, WSEL_RING_FLOAT, WSEL_RING_RR};
    for (size_t m = 0; m < 3; m++)
        for (int what = SAME; what <= MALFORMED; what++)
            refresh_case(modes[m], (enum requery)what);
}

/* ---- the writer's skip budget across a re-query ----------------------------------- */

/* a.test with two addresses, 192.0.2.1 and 192.0.2.9: RN + 3 addresses on RN slots.
 * p: 192.0.2.1's slot, q: 192.0.2.9's. */
static void rb_new(rcase *c, uint32_t *q)
{
    rc_build(c, (const char *const[]){"192.0.2.1", "192.0.2.9", NULL});
    wsel_ring_address_slots(c->r, RA + 1, q);
    wsel_error err;
    assert_int_equal(wsel_ring_fast_new(c->r, &c->f, &err), WSEL_OK);
}

/* The writer's pick starts at q (down), skips the k slots from q up to p (all down),
 * lands on p (192.0.2.1, up) whose host's answer expired, and re-queries a.test, which
 * now fails: both its addresses go, their slots to slotless IP hosts. Set up so that the
 * heir of q is up and every other address down, the slots from p on are all down and
 * only q, the first slot skipped, is up. Section 9: the walk goes on at p with the k
 * skips counted, N in all: it looks at the N - k slots p .. q - 1 and stops there, NO_PEERS,
 * never coming back to q. (A walk given N skips afresh would answer q.) Round-robin took
 * N + 1 pointer values from q. */
static void budget_case(wsel_ring_mode mode)
{
    rcase c;
    uint32_t q;
    rb_new(&c, &q);
    const uint32_t p = c.p, k = cyc((int64_t)p - q + 1) - 1; /* skips before p */
    assert_true(k >= 1 && k < RN);
    if (mode == WSEL_RING_RR)
        rc_pointer_to(&c, q);
    /* which IP host takes slot q when a.test fails: a twin ring (same ops, same layout;
     * availability moves no slot) shows it */
    rcase t;
    uint32_t tq;
    rb_new(&t, &tq);
    mock_fail(&t.m, "a.test");
    wsel_error err;
    assert_int_equal(wsel_ring_refresh(t.r, "a.test", &err), WSEL_OK);
    long heir = wsel_ring_owner(t.r, q);
    assert_true(heir >= 0 && heir < RA);
    wsel_ring_address ad;
    wsel_ring_address_get(t.r, (size_t)heir, &ad);
    assert_int_equal(ad.n_slots, 1); /* it owns q alone */
    rc_free(&t);
    for (size_t a = 0; a < RA; a++) {
        wsel_ring_address_get(c.r, a, &ad);
        if ((long)a != heir)
            assert_int_equal(wsel_ring_set_host_status(c.r, ad.host, 80, false, &err), WSEL_OK);
    }
    assert_int_equal(wsel_ring_set_address_status(c.r, "192.0.2.9", 80, "a.test", false, &err),
                     WSEL_OK);
    for (uint32_t d = 0; d <= k; d++) /* q .. p - 1 down, p up */
        assert_int_equal(slot_up(c.r, cyc((int64_t)q + d)), d == k);
    assert_int_equal(wsel_ring_tick(c.r, 10.25, &err), WSEL_OK); /* expired, not renewed */
    rc_sync(&c);
    mock_fail(&c.m, "a.test");
    wsel_ring_handle h = {.mode = mode, .hash = q - 1 + 3 * (uint64_t)RN, .u = (q - 0.5) / RN};
    wsel_ring_peer pe;
    assert_int_equal(wsel_ring_fast_pick_refresh(c.f, &h, false, &pe, &err), WSEL_OK);
    assert_int_equal(wsel_ring_fast_check(c.f, &err), WSEL_OK);
    /* the case as set up: q came back up, nothing from p to q - 1 is */
    assert_true(slot_up(c.r, q));
    for (uint32_t d = 0; d < RN - k; d++)
        assert_false(slot_up(c.r, cyc((int64_t)p + d)));
    if (pe.outcome != WSEL_RING_NO_PEERS)
        fail_msg("mode %d: %s at slot %u after %u skips and a re-query, not NO_PEERS",
                 (int)mode, wsel_ring_outcome_name(pe.outcome), pe.slot, k);
    if (mode == WSEL_RING_RR)
        rc_pointer_is(&c, cyc((int64_t)q + 1));
    rc_free(&c);
}

static void test_refresh_budget(void **u)
{
    (void)u;
    budget_case(WSEL_RING_HASH);
    budget_case(WSEL_RING_FLOAT);
    budget_case(WSEL_RING_RR);
}

/* ---- the view's check ------------------------------------------------------------- */

static void expect_bad(wsel_ring_fast *f, const char *what)
{
    wsel_error err;
    wsel_error_clear(&err);
    assert_int_equal(wsel_ring_fast_check(f, &err), WSEL_E_STATE);
    if (!strstr(err.message, what))
        fail_msg("check: '%s', expected '%s'", err.message, what);
    assert_int_equal(wsel_ring_fast_check(f, NULL), WSEL_E_STATE);
}

static void test_check_catches(void **u)
{
    (void)u;
    mock m = {0};
    mock_addr(&m, "a.test", WSEL_RING_A, 30, (const char *const[]){"192.0.2.1", NULL});
    wsel_ring_opts o = mock_opts(&m, 70);
    wsel_ring *r;
    wsel_ring_fast *f;
    wsel_error err;
    assert_int_equal(wsel_ring_new(&o, &r, &err), WSEL_OK);
    assert_int_equal(wsel_ring_add_host(r, "10.0.2.1", 80, 2, &err), WSEL_OK);
    assert_int_equal(wsel_ring_add_host(r, "a.test", 80, 1, &err), WSEL_OK);
    assert_int_equal(wsel_ring_fast_new(r, &f, &err), WSEL_OK);
    assert_int_equal(wsel_ring_fast_check(f, &err), WSEL_OK);
    wsel__fview *v = atomic_load(&f->cur);
    /* the slots of the two addresses: s1 the IP host's, s2 a.test's */
    uint32_t s1 = 0, s2 = 0;
    for (uint32_t s = 1; s <= 70; s++)
        *(wsel_ring_owner(r, s) == 0 ? &s1 : &s2) = s;
    assert_true(s1 && s2);

    v->n++;
    expect_bad(f, "view of 71 slots");
    v->n--;
    const wsel__frec *own = v->owner[s1];
    v->owner[s1] = v->owner[s2];
    expect_bad(f, "wrong owner");
    v->owner[s1] = own;
    v->avail[s1 >> 6] ^= UINT64_C(1) << (s1 & 63);
    expect_bad(f, "availability bit 0");
    v->avail[s1 >> 6] ^= UINT64_C(1) << (s1 & 63);
    v->avail[1] |= UINT64_C(1) << 7; /* slot 71: beyond the wheel */
    expect_bad(f, "slot 71: availability bit 1");
    v->avail[1] &= ~(UINT64_C(1) << 7);
    v->avail[1] |= UINT64_C(1) << 63; /* slot 127: the last bit of the last word */
    expect_bad(f, "slot 127: availability bit 1");
    v->avail[1] &= ~(UINT64_C(1) << 63);

    wsel__frec *rec = (wsel__frec *)v->owner[s2]; /* a.test's 192.0.2.1 */
    rec->pub.port++;
    expect_bad(f, "no record or a wrong one for address 192.0.2.1");
    rec->pub.port--;
    rec->pub.iptype = WSEL_RING_IPV6;
    expect_bad(f, "no record or a wrong one");
    rec->pub.iptype = WSEL_RING_IPV4;
    rec->ip[0] = '8';
    expect_bad(f, "no record or a wrong one");
    rec->ip[0] = '1';
    const char *hn = rec->pub.hostname;
    rec->pub.hostname = NULL;
    expect_bad(f, "reports the wrong host name");
    rec->pub.hostname = "b.test";
    expect_bad(f, "reports the wrong host name");
    rec->pub.hostname = hn;
    double e = atomic_load(&rec->expire);
    atomic_store(&rec->expire, e + 1);
    expect_bad(f, "stale expiry");
    atomic_store(&rec->expire, e);
    v->healthy = !v->healthy;
    expect_bad(f, "health or clock");
    v->healthy = !v->healthy;
    v->now += 1;
    expect_bad(f, "health or clock");
    v->now -= 1;
    assert_int_equal(wsel_ring_fast_check(f, &err), WSEL_OK);
    wsel_ring_fast_free(f);
    wsel_ring_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_walk),
        cmocka_unit_test(test_refresh_walk),
        cmocka_unit_test(test_refresh_budget),
        cmocka_unit_test(test_check_catches),
    };
    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests_name("ring fast walk", tests, NULL, NULL);
}
