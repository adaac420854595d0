/* The ring balancer's state as both engines and every caller read it (include/wsel/ring.h,
 * doc/ring.md sections 1 and 9): the reading calls, the invariant check, and the end of a
 * pick at an address, which the reference pick (ref/ring/ring_ref_pick.c) and the fast
 * engine's (fast/ring/ring_fast_pick.c) share. */
#include <stdio.h>
#include <string.h>

#include "../internal.h"
#include "ring_model.h"

const char *wsel_ring_outcome_name(wsel_ring_outcome o)
{
    switch (o) {
    case WSEL_RING_PEER: return "PEER";
    case WSEL_RING_UNHEALTHY: return "UNHEALTHY";
    case WSEL_RING_NO_PEERS: return "NO_PEERS";
    case WSEL_RING_DNS: return "DNS";
    case WSEL_RING_EXPIRED: return "EXPIRED";
    }
    return "UNKNOWN";
}


void wsel__ring_peer_fill(const wsel_ring_dns *dns, const char *ip, wsel_ring_iptype iptype,
                          uint16_t port, bool cache_only, wsel_ring_peer *peer)
{
    peer->message[0] = '\0';
    peer->ip[0] = '\0';
    peer->port = 0;
    if (iptype != WSEL_RING_NAME) {
        size_t len = strnlen(ip, sizeof peer->ip - 1);
        memcpy(peer->ip, ip, len);
        peer->ip[len] = '\0';
        peer->port = port;
        peer->outcome = WSEL_RING_PEER;
        return;
    }
    char msg[200] = "";
    uint16_t got = port;
    if (!dns->toip) {
        peer->outcome = WSEL_RING_DNS;
        snprintf(peer->message, sizeof peer->message, "no toip resolver");
        return;
    }
    if (dns->toip(dns->ctx, ip, port, cache_only, peer->ip, sizeof peer->ip, &got, msg,
                  sizeof msg) != 0) {
        peer->ip[0] = '\0';
        snprintf(peer->message, sizeof peer->message, "%s. Tried: %s:%u",
                 msg[0] ? msg : "dns error", ip, port);
        peer->outcome = WSEL_RING_DNS;
        return;
    }
    peer->ip[sizeof peer->ip - 1] = '\0';
    char canon[64];
    if (wsel__ring_parse_ip(peer->ip, canon, sizeof canon) == WSEL_RING_NAME) {
        snprintf(peer->message, sizeof peer->message,
                 "the resolver turned %s into '%.64s', not an IP address", ip, peer->ip);
        peer->ip[0] = '\0';
        peer->outcome = WSEL_RING_DNS;
        return;
    }
    memcpy(peer->ip, canon, sizeof canon);
    peer->port = got;
    peer->outcome = WSEL_RING_PEER;
}


/* ---- reading ------------------------------------------------------------------------------ */

uint32_t wsel_ring_size(const wsel_ring *r)
{
    return r ? r->n : 0;
}

size_t wsel_ring_address_count(const wsel_ring *r)
{
    return r ? r->naddr : 0;
}

size_t wsel_ring_host_count(const wsel_ring *r)
{
    return r ? r->nh : 0;
}

static const wsel__raddr *nth(const wsel_ring *r, size_t i)
{
    return r && i < r->naddr ? r->addr[i] : NULL;
}

void wsel_ring_address_get(const wsel_ring *r, size_t i, wsel_ring_address *out)
{
    const wsel__raddr *a = nth(r, i);
    if (!out)
        return;
    memset(out, 0, sizeof *out);
    if (!a)
        return;
    out->ip = a->ip;
    out->iptype = a->iptype;
    out->port = a->port;
    out->weight = a->weight;
    out->available = a->available;
    out->host = a->host->name;
    out->host_port = a->host->port;
    out->n_slots = a->count;
}

void wsel_ring_address_slots(const wsel_ring *r, size_t i, uint32_t *out)
{
    const wsel__raddr *a = out ? nth(r, i) : NULL;
    size_t k = 0;
    for (uint32_t s = a ? a->head : 0; s; s = r->next[s])
        out[k++] = s;
}

long wsel_ring_owner(const wsel_ring *r, uint32_t slot)
{
    if (!r || slot < 1 || slot > r->n || !r->wheel[slot])
        return -1;
    return (long)r->wheel[slot]->pos;
}

int wsel_ring_check(const wsel_ring *r, wsel_error *err)
{
#define BAD(...) wsel__fail(err, WSEL_E_STATE, NULL, 0, 0, NULL, NULL, NULL, __VA_ARGS__)
    if (!r)
        return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, NULL, NULL, NULL, "ring: no ring to check");
    uint64_t owned = 0, w = 0;
    size_t pos = 0;
    for (size_t k = 0; k < r->nh; k++) {
        if (wsel__ring_find_host(r, r->h[k]->name, r->h[k]->port) != r->h[k])
            return BAD("ring: host %s is not found through the host index", r->h[k]->name);
        if (r->h[k]->idx != k || r->h[k]->first != pos)
            return BAD("ring: host %s indexed %zu from %zu, expected %zu from %zu",
                       r->h[k]->name, r->h[k]->idx, r->h[k]->first, k, pos);
        for (size_t j = 0; j < r->h[k]->n; j++) {
            const wsel__raddr *a = r->h[k]->a[j];
            if (a->disabled)
                return BAD("ring: disabled address %s left behind", a->ip);
            if (pos >= r->naddr || r->addr[pos] != a)
                return BAD("ring: address %s is not entry %zu of the address array", a->ip, pos);
            if (a->pos != pos++)
                return BAD("ring: address %s numbered %zu, expected %zu", a->ip, a->pos, pos - 1);
            if (a->host != r->h[k])
                return BAD("ring: address %s points at the wrong host", a->ip);
            uint32_t c = 0, last = 0;
            for (uint32_t s = a->head; s; s = r->next[s]) {
                if (s > r->n || r->wheel[s] != a || r->prev[s] != last || ++c > r->n)
                    return BAD("ring: slot %u in the list of %s but not owned by it", s, a->ip);
                last = s;
            }
            if (c != a->count || last != a->tail)
                return BAD("ring: address %s counts %u slots, its list holds %u", a->ip,
                           a->count, c);
            owned += c;
            w += a->weight;
        }
    }
    if (pos != r->naddr)
        return BAD("ring: %zu addresses, %zu numbered", pos, r->naddr);
    if (w != r->wsum)
        return BAD("ring: the addresses weigh %llu, the ring's total says %llu",
                   (unsigned long long)w, (unsigned long long)r->wsum);
    uint64_t wheel_owned = 0;
    for (uint32_t s = 1; s <= r->n; s++)
        wheel_owned += r->wheel[s] != NULL;
    if (wheel_owned != owned)
        return BAD("ring: %llu slots owned on the wheel, %llu in address lists",
                   (unsigned long long)wheel_owned, (unsigned long long)owned);
    if (owned + r->nfree != r->n)
        return BAD("ring: %llu owned + %u free != %u slots", (unsigned long long)owned, r->nfree,
                   r->n);
    for (uint32_t i = 0; i < r->nfree; i++) {
        uint32_t s = r->free[i];
        if (s < 1 || s > r->n || r->wheel[s])
            return BAD("ring: free slot %u is owned or out of range", s);
    }
    if ((w > 0) != (r->nfree == 0))
        return BAD("ring: total weight %llu with %u free slots", (unsigned long long)w,
                   r->nfree);
    return WSEL_OK;
#undef BAD
}
