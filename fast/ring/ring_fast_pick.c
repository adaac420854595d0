/* The ring's fast engine, reader side (include/wsel/ring.h): picks from a published
 * view (fast/ring/ring_view.h). A pick loads the view once (acquire), computes its start
 * slot, and takes the first available slot at or after it from the availability bitmap,
 * one 64-slot word at a time, so unavailable addresses cost no loop per slot. Nothing is allocated
 * and nothing shared is written except the round-robin pointer, advanced by one
 * compare-and-swap to just past the slot taken (where the reference, taking one pointer
 * value per skipped slot, leaves it too), or, when no slot is available, one past where
 * it was (N + 1 values taken, as 5.2.3's loop takes them). */
#include <string.h>

#include "ring_view.h"

#define NONE UINT32_MAX
#define HOT static inline __attribute__((always_inline))

/* d in [0, n) such that slot p + d (cyclic in 1..n) is the first available slot from p
 * on, or NONE. Bits above n and bit 0 are never set. (No bound here: of its inlined
 * copies only the writer's continued walk has a skip budget below n, and applies it.) */
HOT uint32_t next_avail(const wsel__fview *v, uint32_t p)
{
    const uint64_t *b = v->avail;
    const uint32_t n = v->n;
    size_t w = p >> 6, last = n >> 6;
    uint64_t x = b[w] >> (p & 63);
    if (x)
        return (uint32_t)__builtin_ctzll(x);
    for (size_t k = w + 1; k <= last; k++)
        if (b[k])
            return (uint32_t)(k * 64 + (size_t)__builtin_ctzll(b[k])) - p;
    /* wrapped: word w holds no set bit at or above p here (x was 0), so it needs no mask */
    for (size_t k = 0; k <= w; k++)
        if (b[k])
            return n - p + (uint32_t)(k * 64 + (size_t)__builtin_ctzll(b[k]));
    return NONE;
}

/* Slot p moved on by k <= n, cyclic in 1..n. */
HOT uint32_t step(uint32_t p, uint64_t k, uint32_t n)
{
    uint64_t q = p + k;
    return (uint32_t)(q > n ? q - n : q);
}

static __attribute__((cold, noinline)) int outcome(wsel_ring_peer *peer, wsel_ring_outcome o, const char *msg)
{
    peer->outcome = o;
    peer->ip[0] = '\0';
    peer->port = 0;
    peer->hostname = NULL;
    peer->slot = 0;
    size_t len = strlen(msg);
    memcpy(peer->message, msg, len + 1);
    return WSEL_OK;
}

HOT void answer(const wsel_ring_fast *f, const wsel__frec *rec, uint32_t slot,
                          bool cache_only, wsel_ring_peer *peer)
{
    peer->slot = slot;
    peer->hostname = rec->hostname;
    if (rec->iptype == WSEL_RING_NAME) {
        wsel__ring_peer_fill(&f->dns, rec->ip, rec->iptype, rec->port, cache_only, peer);
        return;
    }
    memcpy(peer->ip, rec->ip64, sizeof rec->ip64); /* an IP's text is < 46 bytes */
    peer->port = rec->port;
    peer->message[0] = '\0';
    peer->outcome = WSEL_RING_PEER;
}

/* The end of a walk: the first available slot at distance d from slot w->slot (NONE:
 * none), and the answer there, or EXPIRED for the writer to re-query. */
HOT int land(const wsel_ring_fast *f, const wsel__fview *v, wsel__fwalk *w, uint32_t d,
             bool cache_only, wsel_ring_peer *peer)
{
    if (d == NONE)
        return outcome(peer, WSEL_RING_NO_PEERS, "No peers are available");
    uint32_t p = step(w->slot, d, v->n);
    w->slot = p;
    w->skipped += d;
    const wsel__frec *rec = v->owner[p];
    if (!cache_only && atomic_load_explicit(&rec->expire, memory_order_relaxed) < v->now) {
        outcome(peer, WSEL_RING_EXPIRED,
                "the picked address's DNS answer expired: the writer must re-query it");
        peer->slot = p;
        return WSEL_OK;
    }
    answer(f, rec, p, cache_only, peer);
    return WSEL_OK;
}

/* A pick's walk from its start slot w->slot; round-robin starts at a pointer value taken
 * here and moves the pointer just past the slot it lands on. */
HOT int walk(wsel_ring_fast *f, const wsel__fview *v, wsel_ring_mode mode, wsel__fwalk *w,
             bool cache_only, wsel_ring_peer *peer)
{
    const uint32_t n = v->n;
    uint32_t d;
    if (mode == WSEL_RING_RR) {
        uint32_t P = atomic_load_explicit(&f->rr, memory_order_relaxed), np;
        do {
            d = next_avail(v, P);
            np = d == NONE ? step(P, 1, n) : step(P, (uint64_t)d + 1, n); /* none: N + 1 */
        } while (!atomic_compare_exchange_weak_explicit(&f->rr, &P, np, memory_order_relaxed,
                                                        memory_order_relaxed));
        w->slot = P;
    } else {
        d = next_avail(v, w->slot);
    }
    return land(f, v, w, d, cache_only, peer);
}

/* The writer's walk going on at slot w->slot after w->skipped skips (after a re-query),
 * within the N skips in all; round-robin moves the pointer one value per slot looked
 * at, as the reference does (one more when there is no peer). */
static int walk_on(wsel_ring_fast *f, const wsel__fview *v, wsel_ring_mode mode,
                   wsel__fwalk *w, bool cache_only, wsel_ring_peer *peer)
{
    const uint32_t n = v->n, lim = n - w->skipped;
    uint32_t d = next_avail(v, w->slot);
    if (d >= lim) /* beyond the skips left (NONE too) */
        d = NONE;
    if (mode == WSEL_RING_RR) {
        uint64_t adv = d == NONE ? lim : d;
        uint32_t P = atomic_load_explicit(&f->rr, memory_order_relaxed);
        while (!atomic_compare_exchange_weak_explicit(&f->rr, &P, step(P, adv, n),
                                                      memory_order_relaxed, memory_order_relaxed))
            ;
    }
    return land(f, v, w, d, cache_only, peer);
}

/* A hashed pick's start slot: 1 + ((hash mod N + retries mod N) mod N). */
HOT uint32_t hash_slot(const wsel__fview *v, const wsel_ring_handle *h)
{
    uint64_t k = wsel__fview_mod(v, h->hash);
    if (h->retries) {
        k += wsel__fview_mod(v, h->retries);
        k = k >= v->n ? k - v->n : k;
    }
    return 1 + (uint32_t)k;
}

/* A float pick's start slot (u in [0,1)): 1 + ((floor(u N) + retries) mod N), where
 * floor(u N) rounding up to N counts as N - 1. */
HOT uint32_t float_slot(const wsel__fview *v, const wsel_ring_handle *h)
{
    const uint32_t n = v->n;
    double x = h->u * (double)n;
    /* x >= 0: truncation is the floor. x >= n is not reached with IEEE doubles rounding
     * to nearest (u <= 1 - 2^-53 keeps u N below n by more than half a unit there); kept
     * for other float evaluation */
    uint64_t k = x >= (double)n ? n - 1 : (uint64_t)x;
    if (h->retries)
        k = (k + h->retries % n) % n;
    return 1 + (uint32_t)k;
}

/* Checks the call and sets the start slot; w->slot == 0 for round-robin. */
HOT int begin(const wsel_ring_fast *f, const wsel_ring_handle *h,
                        const wsel_ring_peer *peer, const wsel__fview *v, wsel__fwalk *w,
                        wsel_error *err)
{
    if (!f || !h || !peer)
        return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, NULL, NULL, NULL,
                          "ring: pick needs a fast engine, a handle and a peer record");
    w->skipped = 0;
    switch (h->mode) {
    case WSEL_RING_HASH:
        w->slot = hash_slot(v, h);
        return WSEL_OK;
    case WSEL_RING_FLOAT:
        if (!(h->u >= 0 && h->u < 1))
            return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, NULL, NULL, NULL,
                              "ring: a float key must be in [0,1), got %g", h->u);
        w->slot = float_slot(v, h);
        return WSEL_OK;
    case WSEL_RING_RR:
        w->slot = 0;
        return WSEL_OK;
    }
    return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, NULL, NULL, NULL,
                      "ring: unknown pick mode %d", (int)h->mode);
}

HOT int pick(wsel_ring_fast *f, wsel_ring_handle *h, bool cache_only, wsel_ring_peer *peer,
             wsel__fwalk *w, wsel_error *err)
{
    const wsel__fview *v = f ? atomic_load_explicit(&f->cur, memory_order_acquire) : NULL;
    int rc = begin(f, h, peer, v, w, err);
    if (rc != WSEL_OK)
        return rc;
    if (!v->healthy)
        return outcome(peer, WSEL_RING_UNHEALTHY, "Balancer is unhealthy");
    return walk(f, v, h->mode, w, cache_only, peer);
}

static __attribute__((noinline)) int pick_general(wsel_ring_fast *f, wsel_ring_handle *h,
                                                  bool cache_only, wsel_ring_peer *peer,
                                                  wsel_error *err)
{
    wsel__fwalk w = {0, 0};
    return pick(f, h, cache_only, peer, &w, err);
}

/* Whether the address of slot s of v (available) is an IP whose answer may be given as
 * it stands: then a pick there is answer() and nothing else. */
HOT bool plain_at(const wsel__fview *v, uint32_t s, bool cache_only)
{
    const wsel__frec *rec = v->owner[s];
    return rec->iptype != WSEL_RING_NAME &&
           (cache_only || atomic_load_explicit(&rec->expire, memory_order_relaxed) >= v->now);
}

/* (Inlined here, answer() never meets a name: plain_at() let only IPs through; and a
 * failed compare-and-swap needs another reader moving the pointer meanwhile, as
 * tests/test_ring_fast_threads.c has them.)
 *
 * The common picks, with no call: a hashed or float pick that finds an available IP
 * address needing no refresh, or a round-robin pointer landing on one. Returns false, having
 * changed nothing, for anything else (and a round-robin pointer another reader moved
 * meanwhile): the general way (pick) then gives the same answer on the same view. */
HOT bool quick(wsel_ring_fast *f, const wsel_ring_handle *h, bool cache_only,
               wsel_ring_peer *peer)
{
    if (f && h && peer) {
        const wsel__fview *v = atomic_load_explicit(&f->cur, memory_order_acquire);
        bool keyed = h->mode == WSEL_RING_HASH ||
                     (h->mode == WSEL_RING_FLOAT && h->u >= 0 && h->u < 1);
        if (v->healthy && keyed) {
            uint32_t s = h->mode == WSEL_RING_HASH ? hash_slot(v, h) : float_slot(v, h);
            uint32_t d = next_avail(v, s);
            s = step(s, d, v->n);
            if (d != NONE && plain_at(v, s, cache_only)) {
                answer(f, v->owner[s], s, cache_only, peer);
                return true;
            }
        } else if (v->healthy && h->mode == WSEL_RING_RR) {
            uint32_t P = atomic_load_explicit(&f->rr, memory_order_relaxed);
            if (((v->avail[P >> 6] >> (P & 63)) & 1) && plain_at(v, P, cache_only) &&
                atomic_compare_exchange_strong_explicit(&f->rr, &P, step(P, 1, v->n),
                                                        memory_order_relaxed,
                                                        memory_order_relaxed)) {
                answer(f, v->owner[P], P, cache_only, peer);
                return true;
            }
        }
    }
    return false;
}

int wsel_ring_fast_pick(wsel_ring_fast *f, wsel_ring_handle *h, bool cache_only,
                        wsel_ring_peer *peer, wsel_error *err)
{
    if (quick(f, h, cache_only, peer))
        return WSEL_OK;
    return pick_general(f, h, cache_only, peer, err);
}

int wsel_ring_fast_retry(wsel_ring_fast *f, wsel_ring_handle *h, bool cache_only,
                         wsel_ring_peer *peer, wsel_error *err)
{
    if (f && h && peer) /* else the pick refuses the call, h untouched */
        h->retries++;
    return wsel_ring_fast_pick(f, h, cache_only, peer, err);
}

int wsel_ring_fast_pick_refresh(wsel_ring_fast *f, wsel_ring_handle *h, bool cache_only,
                                wsel_ring_peer *peer, wsel_error *err)
{
    if (quick(f, h, cache_only, peer))
        return WSEL_OK;
    wsel__fwalk w = {0, 0};
    int rc = pick(f, h, cache_only, peer, &w, err);
    while (rc == WSEL_OK && peer->outcome == WSEL_RING_EXPIRED) {
        /* as wsel_ring_pick: re-query the host; the same address still there is the
         * answer, even if it no longer owns the slot; else the same slot is tried again
         * with the skips counted so far */
        wsel_ring *r = f->r;
        const wsel__raddr *a = r->wheel[w.slot];
        wsel__rhost *host = a->host;
        uint64_t serial = a->serial;
        if ((rc = wsel__ring_query(r, host, err)) != WSEL_OK ||
            (rc = wsel_ring_fast_sync(f, err)) != WSEL_OK)
            return rc;
        const wsel__fview *v = atomic_load_explicit(&f->cur, memory_order_relaxed);
        const wsel__raddr *still = wsel__ring_find_serial(host, serial);
        if (still) {
            answer(f, still->fast, w.slot, cache_only, peer);
            return WSEL_OK;
        }
        if (!v->healthy)
            return outcome(peer, WSEL_RING_UNHEALTHY, "Balancer is unhealthy");
        rc = walk_on(f, v, h->mode, &w, cache_only, peer);
    }
    return rc;
}
