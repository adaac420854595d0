/* The fast engine's memory does not grow with the number of changes (issue 25, "Memory
 * and cost"; doc/ring.md section 16): every sync retires the view it replaces, and a
 * reclaim at a quiescent point takes the retired views back, keeping at most
 * WSEL__FAST_SPARES of them for reuse. The count of views alive comes from the engine
 * itself (wsel__ring_fast_views_live), so the tests judge what is kept, not the process's
 * memory, and a leak shows after a few ops on a small wheel. */
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
#include "ring_mock.h"
#include "../fast/ring/ring_view.h"

#define SLOTS 65536
#define NOPS 60
/* the published view and the spares; the retired list is empty after a reclaim */
#define BOUND (1 + WSEL__FAST_SPARES)

/* A scenario of NOPS change ops on a SLOTS-slot wheel: IP hosts added and removed, an
 * address's status flipped, the clock moved; each one publishes a new view. */
static char *change_scenario(void)
{
    size_t cap = 64 * NOPS + 512, n = 0;
    char *s = malloc(cap);
    assert_non_null(s);
    n += (size_t)snprintf(s + n, cap - n,
                          "{\"wheelSize\": %d,\n \"hosts\": [{\"name\": \"10.0.0.1\", \"weight\": 10},"
                          " {\"name\": \"10.0.0.2\", \"weight\": 10}],\n \"ops\": [",
                          SLOTS);
    for (int i = 0; i < NOPS; i++) {
        const char *sep = i ? ",\n" : "";
        switch (i % 4) {
        case 0:
            n += (size_t)snprintf(s + n, cap - n,
                                  "%s{\"op\": \"add\", \"name\": \"10.1.0.%d\", \"weight\": 5}",
                                  sep, i / 4 + 1);
            break;
        case 1:
            n += (size_t)snprintf(s + n, cap - n,
                                  "%s{\"op\": \"status\", \"ip\": \"10.0.0.1\", \"port\": 80,"
                                  " \"available\": %s}",
                                  sep, i % 8 == 1 ? "false" : "true");
            break;
        case 2:
            n += (size_t)snprintf(s + n, cap - n, "%s{\"op\": \"advance\", \"seconds\": 1}", sep);
            break;
        default:
            n += (size_t)snprintf(s + n, cap - n,
                                  "%s{\"op\": \"remove\", \"name\": \"10.1.0.%d\"}", sep, i / 4 + 1);
            break;
        }
        assert_true(n < cap);
    }
    n += (size_t)snprintf(s + n, cap - n, "]}\n");
    assert_true(n < cap);
    return s;
}

typedef struct watch {
    size_t base;        /* views alive before the run */
    size_t most;        /* the most alive at the end of an op, over base */
    size_t ends;        /* END steps seen */
    size_t over_at;     /* the first op that ended above BOUND (+1; 0: none) */
} watch;

static int on_step(void *ctx, const wsel_ring_step *step)
{
    watch *w = ctx;
    if (step->kind != WSEL_RING_STEP_END)
        return 0;
    assert_int_equal(step->status, WSEL_OK);
    size_t live = wsel__ring_fast_views_live() - w->base;
    if (live > w->most)
        w->most = live;
    if (live > BOUND && !w->over_at)
        w->over_at = step->index + 1;
    w->ends++;
    return 0;
}

/* The scenario runner's fast engine (wsel ring run --engine fast) keeps at most BOUND
 * views whatever the number of ops, and frees them all at the end. */
static void test_runner_bounded(void **u)
{
    (void)u;
    char *text = change_scenario();
    wsel_error err;
    wsel_ring_scenario *sc = NULL;
    assert_int_equal(wsel_ring_scenario_load_buffer("changes", text, strlen(text), &sc, &err),
                     WSEL_OK);
    watch w = {.base = wsel__ring_fast_views_live()};
    wsel_ring_run_opts ro = {WSEL_RING_ENGINE_FAST, WSEL_RING_APPORTION_SCENARIO};
    assert_int_equal(wsel_ring_scenario_run(sc, &ro, on_step, &w, &err), WSEL_OK);
    assert_int_equal(w.ends, NOPS);
    if (w.over_at)
        fail_msg("views alive after op %zu: over %d (most %zu after %d ops)", w.over_at - 1,
                 BOUND, w.most, NOPS);
    assert_true(w.most >= 1);
    assert_int_equal(wsel__ring_fast_views_live(), w.base);
    wsel_ring_scenario_free(sc);
    free(text);
}


/* The library call on its own: without a reclaim every publishing sync keeps one more
 * view (the lifetime rule: a retired view may be in a reader's hands until the caller's
 * quiescent point); one reclaim brings them back to BOUND, and syncing with a reclaim
 * after each stays there. */
static void test_sync_reclaim(void **u)
{
    (void)u;
    wsel_error err;
    wsel_ring_opts o;
    wsel_ring_opts_init(&o);
    o.dns.resolve = wsel_kit_ring_literals_only; /* IP literals only */
    o.wheel_size = SLOTS;
    wsel_ring *r = NULL;
    wsel_ring_fast *f = NULL;
    assert_int_equal(wsel_ring_new(&o, &r, &err), WSEL_OK);
    assert_int_equal(wsel_ring_add_host(r, "10.0.0.1", 80, 10, &err), WSEL_OK);
    assert_int_equal(wsel_ring_add_host(r, "10.0.0.2", 80, 10, &err), WSEL_OK);
    size_t base = wsel__ring_fast_views_live();
    assert_int_equal(wsel_ring_fast_new(r, &f, &err), WSEL_OK);
    assert_int_equal(wsel__ring_fast_views_live() - base, 1);
    for (int i = 0; i < 10; i++) {
        assert_int_equal(wsel_ring_set_address_status(r, "10.0.0.1", 80, NULL, i % 2, &err),
                         WSEL_OK);
        assert_int_equal(wsel_ring_fast_sync(f, &err), WSEL_OK);
    }
    assert_int_equal(wsel__ring_fast_views_live() - base, 11);
    assert_int_equal(wsel_ring_fast_reclaim(f), 10);
    assert_true(wsel__ring_fast_views_live() - base <= BOUND);
    for (int i = 0; i < NOPS; i++) {
        assert_int_equal(wsel_ring_set_address_status(r, "10.0.0.2", 80, NULL, i % 2, &err),
                         WSEL_OK);
        assert_int_equal(wsel_ring_fast_sync(f, &err), WSEL_OK);
        assert_int_equal(wsel_ring_fast_reclaim(f), 1);
        assert_true(wsel__ring_fast_views_live() - base <= BOUND);
    }
    wsel_ring_fast_free(f);
    assert_int_equal(wsel__ring_fast_views_live(), base);
    wsel_ring_free(r);
}

/* The records in the engine's live list, checked against its own count. */
static size_t records_live(const wsel_ring_fast *f)
{
    size_t n = 0;
    for (const wsel__frec *rec = f->recs; rec; rec = rec->next)
        n++;
    assert_int_equal(n, f->nrecs);
    return n;
}

/* Records of removed addresses leave the live list at the next sync and are freed by the
 * reclaim after it: a sync finds them by counting (a record per address, so nrecs -
 * naddr are gone), so a count that missed a removal would keep them for the engine's
 * life. Hosts come and go, some with several changes between two syncs, some synced
 * with nothing removed; after every sync the live list holds one record per address. */
static void test_records_bounded(void **u)
{
    (void)u;
    wsel_error err;
    wsel_ring_opts o;
    wsel_ring_opts_init(&o);
    o.dns.resolve = wsel_kit_ring_literals_only;
    o.wheel_size = 1000;
    wsel_ring *r = NULL;
    wsel_ring_fast *f = NULL;
    assert_int_equal(wsel_ring_new(&o, &r, &err), WSEL_OK);
    assert_int_equal(wsel_ring_add_host(r, "10.0.0.1", 80, 10, &err), WSEL_OK);
    assert_int_equal(wsel_ring_fast_new(r, &f, &err), WSEL_OK);
    assert_int_equal(records_live(f), 1);
    for (int i = 0; i < 40; i++) {
        char a[32], b[32];
        snprintf(a, sizeof a, "10.2.0.%d", i + 1);
        snprintf(b, sizeof b, "10.2.1.%d", i + 1);
        assert_int_equal(wsel_ring_add_host(r, a, 80, 5, &err), WSEL_OK);
        if (i % 3 == 0) { /* two changes in one sync: one record made, one gone */
            assert_int_equal(wsel_ring_fast_sync(f, &err), WSEL_OK);
            assert_int_equal(wsel_ring_add_host(r, b, 80, 7, &err), WSEL_OK);
        }
        bool found = false;
        assert_int_equal(wsel_ring_remove_host(r, a, 80, &found, &err), WSEL_OK);
        assert_true(found);
        assert_int_equal(wsel_ring_fast_sync(f, &err), WSEL_OK);
        assert_int_equal(records_live(f), wsel_ring_address_count(r));
        wsel_ring_fast_reclaim(f);
        assert_int_equal(f->ndead, 0);
        assert_int_equal(wsel_ring_fast_check(f, &err), WSEL_OK);
    }
    assert_int_equal(records_live(f), 1 + 14); /* 10.0.0.1 and the 10.2.1.x kept */
    wsel_ring_fast_free(f);
    wsel_ring_free(r);
}

/* The address of ring r whose text is ip (it must have one). */
static wsel_ring_address address_of(const wsel_ring *r, const char *ip)
{
    wsel_ring_address a;
    for (size_t i = 0; i < wsel_ring_address_count(r); i++) {
        wsel_ring_address_get(r, i, &a);
        if (strcmp(a.ip, ip) == 0)
            return a;
    }
    fail_msg("no address %s", ip);
    return a;
}

/* The ring keeps the records of removed hosts and addresses and reuses them for the next
 * ones (core/ring/ring_model.h, wsel__ring_spares): a reused record must carry nothing
 * from its earlier life. The first life here leaves every kind of trace: an SRV host
 * (SRV record, real weights, a last answer with a TTL), its addresses marked down, known
 * to a fast engine, then disabled by the removal. The second life is a host whose first
 * answer has TTL 0, so a fresh host stands as one unresolved entry (doc/ring.md section
 * 7.2), up, at the host's weight, with a record of its own in the engine: what the same
 * add gives on a ring that never had the first host. */
static void test_spare_records_reset(void **u)
{
    (void)u;
    wsel_error err;
    mock m = {0};
    mock_srv_clear(&m, "old.test");
    mock_srv(&m, "old.test", "10.9.0.1", 81, 7, 1, 300);
    mock_srv(&m, "old.test", "10.9.0.2", 82, 9, 1, 300);
    static const char *const fresh[] = {"10.8.0.1", NULL};
    mock_addr(&m, "new.test", WSEL_RING_A, 0, fresh);
    wsel_ring_opts o = mock_opts(&m, 100);
    wsel_ring *r = NULL, *clean = NULL;
    wsel_ring_fast *f = NULL;
    assert_int_equal(wsel_ring_new(&o, &r, &err), WSEL_OK);
    assert_int_equal(wsel_ring_new(&o, &clean, &err), WSEL_OK);
    assert_int_equal(wsel_ring_add_host(r, "10.0.0.1", 80, 10, &err), WSEL_OK);
    assert_int_equal(wsel_ring_add_host(clean, "10.0.0.1", 80, 10, &err), WSEL_OK);
    assert_int_equal(wsel_ring_fast_new(r, &f, &err), WSEL_OK);
    assert_int_equal(wsel_ring_add_host(r, "old.test", 80, 10, &err), WSEL_OK);
    assert_int_equal(wsel_ring_address_count(r), 3);
    assert_int_equal(wsel_ring_set_host_status(r, "old.test", 80, false, &err), WSEL_OK);
    assert_int_equal(wsel_ring_fast_sync(f, &err), WSEL_OK);
    bool found = false;
    assert_int_equal(wsel_ring_remove_host(r, "old.test", 80, &found, &err), WSEL_OK);
    assert_true(found);
    assert_int_equal(wsel_ring_fast_sync(f, &err), WSEL_OK);
    wsel_ring_fast_reclaim(f);
    assert_int_equal(r->spare_h.n, 1);
    assert_int_equal(r->spare_a.n, 2);

    assert_int_equal(wsel_ring_add_host(r, "new.test", 80, 12, &err), WSEL_OK);
    assert_int_equal(wsel_ring_add_host(clean, "new.test", 80, 12, &err), WSEL_OK);
    assert_int_equal(r->spare_h.n, 0); /* the second life is in reused records */
    assert_int_equal(r->spare_a.n, 1);
    assert_int_equal(wsel_ring_check(r, &err), WSEL_OK);
    assert_int_equal(wsel_ring_address_count(r), 2);
    wsel_ring_address a = address_of(r, "new.test"), b = address_of(clean, "new.test");
    assert_int_equal(a.iptype, WSEL_RING_NAME);
    assert_int_equal(a.iptype, b.iptype);
    assert_int_equal(a.port, 80);
    assert_int_equal(a.weight, 12);
    assert_true(a.available);
    assert_int_equal(a.n_slots, b.n_slots);
    assert_string_equal(a.host, "new.test");
    assert_int_equal(a.host_port, 80);
    assert_int_equal(wsel_ring_fast_sync(f, &err), WSEL_OK);
    assert_int_equal(records_live(f), 2);
    assert_int_equal(wsel_ring_fast_check(f, &err), WSEL_OK);
    /* the engine's pick at a slot of the new host answers with the new host's entry */
    wsel_ring_handle hh = {.mode = WSEL_RING_HASH};
    for (hh.hash = 0; hh.hash < 100; hh.hash++) {
        wsel_ring_view_pick vp;
        assert_int_equal(wsel_ring_fast_pick_view(f, &hh, true, &vp, &err), WSEL_OK);
        assert_int_equal(vp.outcome, WSEL_RING_PEER);
        assert_true(strcmp(vp.target->ip, "new.test") == 0 ||
                    strcmp(vp.target->ip, "10.0.0.1") == 0);
    }

    /* a host added and removed again and again lives in the same records */
    for (int i = 0; i < 20; i++) {
        assert_int_equal(wsel_ring_add_host(r, "10.7.0.1", 80, 30, &err), WSEL_OK);
        a = address_of(r, "10.7.0.1");
        assert_true(a.available && a.weight == 30 && a.iptype == WSEL_RING_IPV4);
        assert_int_equal(wsel_ring_set_address_status(r, "10.7.0.1", 80, NULL, false, &err),
                         WSEL_OK);
        assert_int_equal(wsel_ring_remove_host(r, "10.7.0.1", 80, NULL, &err), WSEL_OK);
        assert_int_equal(r->spare_h.n, 1);
        assert_int_equal(r->spare_a.n, 1);
    }
    /* and many removed at once leave at most WSEL__RING_SPARES of each kind */
    for (int i = 0; i < 3 * WSEL__RING_SPARES; i++) {
        char name[32];
        snprintf(name, sizeof name, "10.6.0.%d", i + 1);
        assert_int_equal(wsel_ring_add_host(r, name, 80, 5, &err), WSEL_OK);
    }
    for (int i = 0; i < 3 * WSEL__RING_SPARES; i++) {
        char name[32];
        snprintf(name, sizeof name, "10.6.0.%d", i + 1);
        assert_int_equal(wsel_ring_remove_host(r, name, 80, NULL, &err), WSEL_OK);
    }
    assert_int_equal(r->spare_h.n, WSEL__RING_SPARES);
    assert_int_equal(r->spare_a.n, WSEL__RING_SPARES);
    assert_int_equal(wsel_ring_check(r, &err), WSEL_OK);
    wsel_ring_fast_free(f);
    wsel_ring_free(r);
    wsel_ring_free(clean);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_runner_bounded),
        cmocka_unit_test(test_sync_reclaim),
        cmocka_unit_test(test_records_bounded),
        cmocka_unit_test(test_spare_records_reset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
