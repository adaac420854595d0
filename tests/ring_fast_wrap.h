/* Runs a ring test file through the fast engine (tests/test_ring_fast*.c): included
 * before the test file, it renames the ring calls that file makes so that the rings it
 * builds (those FW_FAST(k) picks, k counting rings from 0) get a fast engine. After
 * every change the engine syncs and its published view is checked against the ring, slot
 * by slot (wsel_ring_fast_check); every second sync is followed by a reclaim, so views
 * are both built fresh and brought up to date by replay. Picks on such a ring go through
 * the fast engine's writer pick, so the test file's expected values -- the known answers
 * of doc/ring.md section 12, or the reference twin's answers -- judge the fast engine. */
#ifndef WSEL_TEST_RING_FAST_WRAP_H
#define WSEL_TEST_RING_FAST_WRAP_H

#include "wsel.h"
#include "kit/kit.h"

#define FW_MAX 16

static struct fw_pair {
    wsel_ring *r;
    wsel_ring_fast *f;
    unsigned syncs;
} fw_t[FW_MAX];
static unsigned fw_made;

static inline struct fw_pair *fw_find(const wsel_ring *r)
{
    for (size_t i = 0; i < FW_MAX; i++)
        if (r && fw_t[i].r == r)
            return &fw_t[i];
    return NULL;
}

static inline int fw_new(const wsel_ring_opts *o, wsel_ring **out, wsel_error *err)
{
    int rc = wsel_ring_new(o, out, err);
    if (rc != WSEL_OK || !FW_FAST(fw_made++))
        return rc;
    struct fw_pair *p = fw_find(NULL);
    for (size_t i = 0; !p && i < FW_MAX; i++)
        if (!fw_t[i].r)
            p = &fw_t[i];
    assert_non_null(p);
    wsel_error e;
    if (wsel_ring_fast_new(*out, &p->f, &e) != WSEL_OK)
        fail_msg("wsel_ring_fast_new: %s", e.message);
    p->r = *out;
    p->syncs = 0;
    return rc;
}

static inline void fw_free(wsel_ring *r)
{
    struct fw_pair *p = fw_find(r);
    if (p) {
        wsel_ring_fast_free(p->f);
        memset(p, 0, sizeof *p);
    }
    wsel_ring_free(r);
}

static inline void fw_synced(struct fw_pair *p)
{
    wsel_error e;
    if (wsel_ring_fast_check(p->f, &e) != WSEL_OK)
        fail_msg("fast view after sync %u: %s", p->syncs, e.message);
}

static inline int fw_after(wsel_ring *r, int rc)
{
    struct fw_pair *p = fw_find(r);
    if (!p)
        return rc;
    wsel_error e;
    if (wsel_ring_fast_sync(p->f, &e) != WSEL_OK)
        fail_msg("wsel_ring_fast_sync: %s", e.message);
    fw_synced(p);
    if (++p->syncs % 2 == 0)
        wsel_ring_fast_reclaim(p->f);
    return rc;
}

static inline int fw_add_host(wsel_ring *r, const char *name, uint32_t port, uint32_t weight,
                       wsel_error *err)
{
    return fw_after(r, wsel_ring_add_host(r, name, port, weight, err));
}

static inline int fw_remove_host(wsel_ring *r, const char *name, uint32_t port, bool *found,
                          wsel_error *err)
{
    return fw_after(r, wsel_ring_remove_host(r, name, port, found, err));
}

static inline int fw_refresh(wsel_ring *r, const char *name, wsel_error *err)
{
    return fw_after(r, wsel_ring_refresh(r, name, err));
}

static inline int fw_tick(wsel_ring *r, double now, wsel_error *err)
{
    return fw_after(r, wsel_ring_tick(r, now, err));
}

static inline int fw_set_address_status(wsel_ring *r, const char *ip, uint32_t port,
                                 const char *hostname, bool available, wsel_error *err)
{
    return fw_after(r, wsel_ring_set_address_status(r, ip, port, hostname, available, err));
}

static inline int fw_set_host_status(wsel_ring *r, const char *name, uint32_t port, bool available,
                              wsel_error *err)
{
    return fw_after(r, wsel_ring_set_host_status(r, name, port, available, err));
}

static inline int fw_pick(wsel_ring *r, wsel_ring_handle *h, bool cache_only, wsel_ring_peer *peer,
                   wsel_error *err)
{
    struct fw_pair *p = fw_find(r);
    if (!p)
        return wsel_ring_pick(r, h, cache_only, peer, err);
    /* a keyed pick is made first as a view pick (which changes nothing), by the library
     * and inline; a round-robin one first as a pick with a cursor standing where the
     * shared pointer does, inline (which moves only the cursor): unless it must leave a
     * re-query to the writer, it must say what the writer's pick says, and the cursor
     * must end where the writer's pick leaves the shared pointer */
    wsel_ring_handle hv = h ? *h : (wsel_ring_handle){0}, hi = hv;
    wsel_ring_view_pick vp = {0}, vi = {0};
    bool keyed = h && h->mode != WSEL_RING_RR;
    uint32_t cursor = wsel_ring_fast_rr_pointer(p->f);
    int rcv = keyed ? wsel_ring_fast_pick_view(p->f, &hv, cache_only, &vp, NULL)
                    : wsel_ring_fast_pick_rr_inline(p->f, &cursor, cache_only, &vp, NULL);
    int rci = keyed ? wsel_ring_fast_pick_view_inline(p->f, &hi, cache_only, &vi, NULL) : rcv;
    if (keyed && (rci != rcv || (rcv == WSEL_OK && (vi.outcome != vp.outcome ||
                                                    vi.slot != vp.slot ||
                                                    vi.target != vp.target))))
        fail_msg("inline view pick: %d %s at slot %u; library: %d %s at slot %u", rci,
                 wsel_ring_outcome_name(vi.outcome), vi.slot, rcv,
                 wsel_ring_outcome_name(vp.outcome), vp.slot);
    int rc = wsel_ring_fast_pick_refresh(p->f, h, cache_only, peer, err);
    fw_synced(p); /* a refresh inside the pick syncs */
    char why[256];
    bool judged = h && !(rcv == WSEL_OK && vp.outcome == WSEL_RING_EXPIRED);
    const char *d = judged ? wsel_kit_ring_view_agrees(rcv, &vp, rc, peer, r, why, sizeof why)
                           : NULL;
    if (d)
        fail_msg("%s against the writer's pick: %s", keyed ? "view pick" : "cursor pick", d);
    if (judged && !keyed && cursor != wsel_ring_fast_rr_pointer(p->f))
        fail_msg("cursor at %u after the pick, the shared pointer at %u", cursor,
                 wsel_ring_fast_rr_pointer(p->f));
    return rc;
}

static inline int fw_retry(wsel_ring *r, wsel_ring_handle *h, bool cache_only, wsel_ring_peer *peer,
                    wsel_error *err)
{
    if (h)
        h->retries++;
    return fw_pick(r, h, cache_only, peer, err);
}

#define wsel_ring_new fw_new
#define wsel_ring_free fw_free
#define wsel_ring_add_host fw_add_host
#define wsel_ring_remove_host fw_remove_host
#define wsel_ring_refresh fw_refresh
#define wsel_ring_tick fw_tick
#define wsel_ring_set_address_status fw_set_address_status
#define wsel_ring_set_host_status fw_set_host_status
#define wsel_ring_pick fw_pick
#define wsel_ring_retry fw_retry

#endif
