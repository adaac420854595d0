/* The ring balancer's reference engine: picks on the ring itself (doc/ring.md section
 * 9), re-querying an expired host on the way. The model it picks from and its changes
 * are core/ring/ring_model.c's; reading the state, core/ring/ring_state.c's. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../core/internal.h"
#include "../../core/ring/ring_model.h"

static uint32_t rr_next(wsel_ring *r)
{
    uint32_t p = r->pointer;
    r->pointer = p == r->n ? 1 : p + 1;
    return p;
}

static int outcome(wsel_ring_peer *peer, wsel_ring_outcome o, const char *msg)
{
    peer->outcome = o;
    snprintf(peer->message, sizeof peer->message, "%s", msg);
    return WSEL_OK;
}

int wsel_ring_pick(wsel_ring *r, wsel_ring_handle *h, bool cache_only, wsel_ring_peer *peer,
                   wsel_error *err)
{
    if (!r || !h || !peer)
        return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, NULL, NULL, NULL,
                          "ring: pick needs a ring, a handle and a peer record");
    if (h->mode == WSEL_RING_FLOAT && !(h->u >= 0 && h->u < 1))
        return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, NULL, NULL, NULL,
                          "ring: a float key must be in [0,1), got %g", h->u);
    if (h->mode != WSEL_RING_RR && h->mode != WSEL_RING_HASH && h->mode != WSEL_RING_FLOAT)
        return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, NULL, NULL, NULL,
                          "ring: unknown pick mode %d", (int)h->mode);
    memset(peer, 0, sizeof *peer);
    if (!wsel__ring_healthy(r))
        return outcome(peer, WSEL_RING_UNHEALTHY, "Balancer is unhealthy");
    const uint32_t n = r->n;
    uint32_t p;
    if (h->mode == WSEL_RING_HASH) {
        p = 1 + (uint32_t)((h->hash % n + h->retries % n) % n);
    } else if (h->mode == WSEL_RING_FLOAT) {
        double f = floor(h->u * (double)n);
        /* f >= n is not reached with IEEE doubles (include/wsel/ring_inline.h, wsel_ring_fast_view_start) */
        uint32_t k = f >= (double)n ? n - 1 : (uint32_t)f;
        p = 1 + (uint32_t)(((uint64_t)k + h->retries % n) % n);
    } else {
        p = rr_next(r);
    }
    uint32_t skipped = 0;
    for (;;) {
        wsel__raddr *a = r->wheel[p];
        if (!a)
            return outcome(peer, WSEL_RING_NO_PEERS, "No peers are available");
        if (!a->available) {
            /* round-robin takes the next pointer value before it sees the full circle,
             * so a walk that finds no peer has advanced the pointer N + 1 times, as
             * 5.2.3's loop does (section 9) */
            p = h->mode == WSEL_RING_RR ? rr_next(r) : (p == n ? 1 : p + 1);
            if (++skipped >= n)
                return outcome(peer, WSEL_RING_NO_PEERS, "No peers are available");
            continue;
        }
        wsel__rhost *host = a->host;
        if (!cache_only && host->expire < r->now) {
            uint64_t serial = a->serial;
            int rc = wsel__ring_query(r, host, err);
            if (rc)
                return rc;
            if (!wsel__ring_find_serial(host, serial)) {
                if (!wsel__ring_healthy(r))
                    return outcome(peer, WSEL_RING_UNHEALTHY, "Balancer is unhealthy");
                continue; /* the same slot, now owned by someone else */
            }
        }
        peer->slot = p;
        peer->hostname = wsel__ring_pick_hostname(r, a);
        wsel__ring_peer_fill(&r->dns, a->ip, a->iptype, a->port, cache_only, peer);
        return WSEL_OK;
    }
}

int wsel_ring_retry(wsel_ring *r, wsel_ring_handle *h, bool cache_only, wsel_ring_peer *peer,
                    wsel_error *err)
{
    if (r && h && peer) /* else the pick refuses the call, h untouched */
        h->retries++;
    return wsel_ring_pick(r, h, cache_only, peer, err);
}
