/* The ring's fast engine, reader side (include/wsel/ring.h): picks from a published
 * view (fast/ring/ring_view.h). Every pick is made as a view pick (wsel_ring_view_pick:
 * the outcome, the slot and the address's record, nothing copied); wsel_ring_fast_pick
 * then copies the record into the caller's peer (view_peer). A pick loads the view once
 * (acquire), computes its start slot, and takes the first available slot at or after it
 * from the availability bitmap, one 64-slot word at a time, so unavailable addresses
 * cost no loop per slot. Nothing is allocated and nothing shared is written except the
 * round-robin pointer, advanced by one compare-and-swap to just past the slot taken
 * (where the reference, taking one pointer value per skipped slot, leaves it too), or,
 * when no slot is available, one past where it was (N + 1 values taken, as 5.2.3's loop
 * takes them). The common keyed pick is the public header's (include/wsel/ring_inline.h,
 * which callers inline too); wsel_ring_fast_pick_rr walks the same way from the caller's
 * cursor and writes only that. */
#include <stddef.h>
#include <string.h>

#include "ring_view.h"

/* The layout include/wsel/ring_inline.h gives callers: the engine's published view
 * pointer where wsel_ring_fast_head has it, and the view's first fields where
 * wsel_ring_fast_view has them. */
_Static_assert(offsetof(struct wsel_ring_fast, cur) == offsetof(wsel_ring_fast_head, view) &&
                   sizeof(((struct wsel_ring_fast *)0)->cur) == sizeof(void *),
               "wsel_ring_fast_head");
_Static_assert(offsetof(wsel__fview, n) == offsetof(wsel_ring_fast_view, n) &&
                   offsetof(wsel__fview, healthy) == offsetof(wsel_ring_fast_view, healthy) &&
                   offsetof(wsel__fview, mod_lo) == offsetof(wsel_ring_fast_view, mod_lo) &&
                   offsetof(wsel__fview, mod_hi) == offsetof(wsel_ring_fast_view, mod_hi) &&
                   offsetof(wsel__fview, avail) == offsetof(wsel_ring_fast_view, avail) &&
                   offsetof(wsel__fview, owner) == offsetof(wsel_ring_fast_view, owner) &&
                   offsetof(wsel__fview, now) == offsetof(wsel_ring_fast_view, now) &&
                   offsetof(wsel__fview, min_expire) ==
                       offsetof(wsel_ring_fast_view, min_expire) &&
                   offsetof(wsel__fview, log_pos) >= sizeof(wsel_ring_fast_view) &&
                   offsetof(wsel__frec, pub) == 0,
               "wsel_ring_fast_view");

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

/* The message wsel_ring_fast_pick gives with an outcome that is no peer. */
static const char *outcome_message(wsel_ring_outcome o)
{
    switch (o) {
    case WSEL_RING_UNHEALTHY:
        return "Balancer is unhealthy";
    case WSEL_RING_NO_PEERS:
        return "No peers are available";
    case WSEL_RING_EXPIRED:
        return "the picked address's DNS answer expired: the writer must re-query it";
    default:
        return "";
    }
}

static __attribute__((cold, noinline)) int outcome(wsel_ring_view_pick *out,
                                                   wsel_ring_outcome o, uint32_t slot)
{
    out->outcome = o;
    out->slot = slot;
    out->target = NULL;
    return WSEL_OK;
}

/* The pick's answer: the address of record rec at slot s. */
HOT void chose(wsel_ring_view_pick *out, const wsel__frec *rec, uint32_t slot)
{
    out->outcome = WSEL_RING_PEER;
    out->slot = slot;
    out->target = &rec->pub;
}

/* wsel_ring_fast_view_peer for arguments known to be there. */
HOT void view_peer(const wsel_ring_fast *f, const wsel_ring_view_pick *vp, bool cache_only,
                   wsel_ring_peer *peer)
{
    if (vp->outcome != WSEL_RING_PEER || !vp->target) {
        const char *msg = outcome_message(vp->outcome);
        peer->outcome = vp->outcome;
        peer->ip[0] = '\0';
        peer->port = 0;
        peer->hostname = NULL;
        peer->slot = vp->outcome == WSEL_RING_EXPIRED ? vp->slot : 0;
        memcpy(peer->message, msg, strlen(msg) + 1);
        return;
    }
    const wsel__frec *rec = (const wsel__frec *)vp->target; /* pub is its first member */
    peer->slot = vp->slot;
    peer->hostname = rec->pub.hostname;
    if (rec->pub.iptype == WSEL_RING_NAME) {
        wsel__ring_peer_fill(&f->dns, rec->ip, rec->pub.iptype, rec->pub.port, cache_only,
                             peer);
        return;
    }
    memcpy(peer->ip, rec->ip64, sizeof rec->ip64); /* an IP's text is < 46 bytes */
    peer->port = rec->pub.port;
    peer->message[0] = '\0';
    peer->outcome = WSEL_RING_PEER;
}

void wsel_ring_fast_view_peer(const wsel_ring_fast *f, const wsel_ring_view_pick *vp,
                              bool cache_only, wsel_ring_peer *peer)
{
    if (f && vp && peer)
        view_peer(f, vp, cache_only, peer);
}

/* The end of a walk: the first available slot at distance d from slot w->slot (NONE:
 * none), and the answer there, or EXPIRED for the writer to re-query. */
HOT int land(const wsel__fview *v, wsel__fwalk *w, uint32_t d, bool cache_only,
             wsel_ring_view_pick *out)
{
    if (d == NONE)
        return outcome(out, WSEL_RING_NO_PEERS, 0);
    uint32_t p = step(w->slot, d, v->n);
    w->slot = p;
    w->skipped += d;
    const wsel__frec *rec = v->owner[p];
    if (!cache_only && atomic_load_explicit(&rec->expire, memory_order_relaxed) < v->now)
        return outcome(out, WSEL_RING_EXPIRED, p);
    chose(out, rec, p);
    return WSEL_OK;
}

/* A pick's walk from its start slot w->slot; round-robin starts at a pointer value taken
 * here and moves the pointer just past the slot it lands on. */
HOT int walk(wsel_ring_fast *f, const wsel__fview *v, wsel_ring_mode mode, wsel__fwalk *w,
             bool cache_only, wsel_ring_view_pick *out)
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
    return land(v, w, d, cache_only, out);
}

/* The writer's walk going on at slot w->slot after w->skipped skips (after a re-query),
 * within the N skips in all; round-robin moves the pointer one value per slot looked
 * at, as the reference does (one more when there is no peer). */
static int walk_on(wsel_ring_fast *f, const wsel__fview *v, wsel_ring_mode mode,
                   wsel__fwalk *w, bool cache_only, wsel_ring_view_pick *out)
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
    return land(v, w, d, cache_only, out);
}

/* A keyed pick's start slot (doc/ring.md section 9), for any retries: the public
 * wsel_ring_fast_view_start, with retries of N or more taken mod N first (the same
 * remainder). The mode is HASH or FLOAT, a float key in [0,1). */
HOT uint32_t key_slot(const wsel__fview *v, const wsel_ring_handle *h)
{
    if (__builtin_expect(h->retries < v->n, 1))
        return wsel_ring_fast_view_start(&v->pub, h);
    wsel_ring_handle r = *h;
    r.retries %= v->n;
    return wsel_ring_fast_view_start(&v->pub, &r);
}

static __attribute__((cold, noinline)) int refuse(wsel_error *err)
{
    return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, NULL, NULL, NULL,
                      "ring: pick needs a fast engine, a handle and a record for its result");
}

/* Checks the call and sets the start slot; w->slot == 0 for round-robin. */
HOT int begin(const wsel_ring_fast *f, const wsel_ring_handle *h,
              const wsel_ring_view_pick *out, const wsel__fview *v, wsel__fwalk *w,
              wsel_error *err)
{
    if (!f || !h || !out)
        return refuse(err);
    w->skipped = 0;
    switch (h->mode) {
    case WSEL_RING_HASH:
        w->slot = key_slot(v, h);
        return WSEL_OK;
    case WSEL_RING_FLOAT:
        if (!(h->u >= 0 && h->u < 1))
            return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, NULL, NULL, NULL,
                              "ring: a float key must be in [0,1), got %g", h->u);
        w->slot = key_slot(v, h);
        return WSEL_OK;
    case WSEL_RING_RR:
        w->slot = 0;
        return WSEL_OK;
    }
    return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, NULL, NULL, NULL,
                      "ring: unknown pick mode %d", (int)h->mode);
}

HOT int pick(wsel_ring_fast *f, wsel_ring_handle *h, bool cache_only,
             wsel_ring_view_pick *out, wsel__fwalk *w, wsel_error *err)
{
    const wsel__fview *v = f ? atomic_load_explicit(&f->cur, memory_order_acquire) : NULL;
    int rc = begin(f, h, out, v, w, err);
    if (rc != WSEL_OK)
        return rc;
    if (!v->healthy)
        return outcome(out, WSEL_RING_UNHEALTHY, 0);
    return walk(f, v, h->mode, w, cache_only, out);
}

/* Whether the address of slot s of v (available) may be given as it stands: no refresh
 * due (a view pick hands a name back unresolved, so a name is no exception). */
HOT bool fresh_at(const wsel__fview *v, uint32_t s, bool cache_only)
{
    return cache_only ||
           atomic_load_explicit(&v->owner[s]->expire, memory_order_relaxed) >= v->now;
}

/* The common keyed pick, with no call: a hashed or float pick whose start slot, or a
 * slot after it in the same 64-slot bitmap word, holds an available address, no refresh
 * being due -- the public inline picks' own test (include/wsel/ring_inline.h), written
 * once there. Returns false, having changed nothing, for anything else: the general way
 * (pick) then gives the same answer on the same view. It reads the view's header, one
 * bitmap word and one owner entry, and not the record. */
HOT bool quick_keyed(wsel_ring_fast *f, const wsel_ring_handle *h, bool cache_only,
                     wsel_ring_view_pick *out)
{
    if (__builtin_expect(!f || !h || !out, 0))
        return false;
    const wsel__fview *v = atomic_load_explicit(&f->cur, memory_order_acquire);
    uint32_t s = wsel_ring_fast_view_start(&v->pub, h);
    return s && wsel_ring_fast_view_quick(&v->pub, s, cache_only, out);
}

/* The common round-robin pick: the pointer's slot holds an available address needing no
 * refresh and no other reader moved the pointer meanwhile (else false, nothing changed).
 * (A failed compare-and-swap here needs another reader moving the pointer meanwhile, as
 * tests/test_ring_fast_threads.c has them; no single-threaded input reaches it.) */
HOT bool quick_rr(wsel_ring_fast *f, const wsel_ring_handle *h, bool cache_only,
                  wsel_ring_view_pick *out)
{
    if (!f || !h || !out || h->mode != WSEL_RING_RR)
        return false;
    const wsel__fview *v = atomic_load_explicit(&f->cur, memory_order_acquire);
    uint32_t P = atomic_load_explicit(&f->rr, memory_order_relaxed);
    if (v->healthy && ((v->avail[P >> 6] >> (P & 63)) & 1) && fresh_at(v, P, cache_only) &&
        atomic_compare_exchange_strong_explicit(&f->rr, &P, step(P, 1, v->n),
                                                memory_order_relaxed, memory_order_relaxed)) {
        chose(out, v->owner[P], P);
        return true;
    }
    return false;
}

HOT bool quick(wsel_ring_fast *f, const wsel_ring_handle *h, bool cache_only,
               wsel_ring_view_pick *out)
{
    return quick_keyed(f, h, cache_only, out) || quick_rr(f, h, cache_only, out);
}

/* Every pick but the common keyed one: round-robin's quick way, else the general one. */
static __attribute__((noinline)) int pick_other(wsel_ring_fast *f, wsel_ring_handle *h,
                                                bool cache_only, wsel_ring_view_pick *out,
                                                wsel_error *err)
{
    if (quick_rr(f, h, cache_only, out))
        return WSEL_OK;
    wsel__fwalk w = {0, 0};
    return pick(f, h, cache_only, out, &w, err);
}

HOT int view_pick(wsel_ring_fast *f, wsel_ring_handle *h, bool cache_only,
                  wsel_ring_view_pick *out, wsel_error *err)
{
    if (quick_keyed(f, h, cache_only, out))
        return WSEL_OK;
    return pick_other(f, h, cache_only, out, err);
}

int wsel_ring_fast_pick_view(wsel_ring_fast *f, wsel_ring_handle *h, bool cache_only,
                             wsel_ring_view_pick *out, wsel_error *err)
{
    return view_pick(f, h, cache_only, out, err);
}

int wsel_ring_fast_retry_view(wsel_ring_fast *f, wsel_ring_handle *h, bool cache_only,
                              wsel_ring_view_pick *out, wsel_error *err)
{
    if (f && h && out) /* else the pick refuses the call, h untouched */
        h->retries++;
    return wsel_ring_fast_pick_view(f, h, cache_only, out, err);
}

/* The round-robin pick with the caller's cursor (include/wsel/ring.h): the walk of the
 * shared pointer's pick, from the cursor, and the cursor moved where the reference leaves
 * its pointer (one past the slot taken; one past the start when none was). */
int wsel_ring_fast_pick_rr(wsel_ring_fast *f, uint32_t *cursor, bool cache_only,
                           wsel_ring_view_pick *out, wsel_error *err)
{
    if (!f || !cursor || !out)
        return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, NULL, NULL, NULL,
                          "ring: a cursor pick needs a fast engine, a cursor and a record "
                          "for its result");
    const wsel__fview *v = atomic_load_explicit(&f->cur, memory_order_acquire);
    const uint32_t n = v->n, c = *cursor;
    if (c < 1 || c > n)
        return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, NULL, NULL, NULL,
                          "ring: a round-robin cursor must be a slot 1..%u, got %u", n, c);
    if (!v->healthy)
        return outcome(out, WSEL_RING_UNHEALTHY, 0);
    uint32_t d = next_avail(v, c);
    *cursor = d == NONE ? step(c, 1, n) : step(c, (uint64_t)d + 1, n); /* none: N + 1 */
    wsel__fwalk w = {c, 0};
    return land(v, &w, d, cache_only, out);
}

uint32_t wsel_ring_fast_rr_pointer(const wsel_ring_fast *f)
{
    return f ? atomic_load_explicit(&f->rr, memory_order_relaxed) : 0;
}

int wsel_ring_fast_pick(wsel_ring_fast *f, wsel_ring_handle *h, bool cache_only,
                        wsel_ring_peer *peer, wsel_error *err)
{
    if (!peer)
        return refuse(err);
    wsel_ring_view_pick vp;
    int rc = view_pick(f, h, cache_only, &vp, err);
    if (rc == WSEL_OK)
        view_peer(f, &vp, cache_only, peer); /* (f is there: the pick refuses a NULL f) */
    return rc;
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
    if (!peer)
        return refuse(err);
    wsel_ring_view_pick vp;
    if (quick(f, h, cache_only, &vp)) {
        view_peer(f, &vp, cache_only, peer);
        return WSEL_OK;
    }
    wsel__fwalk w = {0, 0};
    int rc = pick(f, h, cache_only, &vp, &w, err);
    while (rc == WSEL_OK && vp.outcome == WSEL_RING_EXPIRED) {
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
            chose(&vp, still->fast, w.slot);
            break;
        }
        if (!v->healthy) {
            outcome(&vp, WSEL_RING_UNHEALTHY, 0);
            break;
        }
        rc = walk_on(f, v, h->mode, &w, cache_only, &vp);
    }
    if (rc == WSEL_OK)
        view_peer(f, &vp, cache_only, peer);
    return rc;
}
