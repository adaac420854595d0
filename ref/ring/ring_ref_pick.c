/* The ring balancer's reference engine: picks (doc/ring.md section 9), reading the state
 * and the invariant check (section 1). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../core/internal.h"
#include "../../core/ring/ring_model.h"

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
            if (++skipped >= n)
                return outcome(peer, WSEL_RING_NO_PEERS, "No peers are available");
            p = h->mode == WSEL_RING_RR ? rr_next(r) : (p == n ? 1 : p + 1);
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
        if (host->literal)
            peer->hostname = NULL;
        else if (r->use_srv_name && host->real_srv && a->iptype == WSEL_RING_NAME)
            peer->hostname = a->ip;
        else
            peer->hostname = host->name;
        wsel__ring_peer_fill(&r->dns, a->ip, a->iptype, a->port, cache_only, peer);
        return WSEL_OK;
    }
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
        outcome(peer, WSEL_RING_DNS, "no toip resolver");
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

int wsel_ring_retry(wsel_ring *r, wsel_ring_handle *h, bool cache_only, wsel_ring_peer *peer,
                    wsel_error *err)
{
    if (h)
        h->retries++;
    return wsel_ring_pick(r, h, cache_only, peer, err);
}

/* ---- reading ------------------------------------------------------------------------------ */

uint32_t wsel_ring_size(const wsel_ring *r)
{
    return r->n;
}

size_t wsel_ring_address_count(const wsel_ring *r)
{
    return r->naddr;
}

size_t wsel_ring_host_count(const wsel_ring *r)
{
    return r->nh;
}

static const wsel__raddr *nth(const wsel_ring *r, size_t i)
{
    return i < r->naddr ? r->addr[i] : NULL;
}

void wsel_ring_address_get(const wsel_ring *r, size_t i, wsel_ring_address *out)
{
    const wsel__raddr *a = nth(r, i);
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
    const wsel__raddr *a = nth(r, i);
    size_t k = 0;
    for (uint32_t s = a ? a->head : 0; s; s = r->next[s])
        out[k++] = s;
}

long wsel_ring_owner(const wsel_ring *r, uint32_t slot)
{
    if (slot < 1 || slot > r->n || !r->wheel[slot])
        return -1;
    return (long)r->wheel[slot]->pos;
}

int wsel_ring_check(const wsel_ring *r, wsel_error *err)
{
#define BAD(...) wsel__fail(err, WSEL_E_STATE, NULL, 0, 0, NULL, NULL, NULL, __VA_ARGS__)
    uint64_t owned = 0, w = 0;
    size_t pos = 0;
    for (size_t k = 0; k < r->nh; k++) {
        if (r->hkey[k] != ((uint64_t)r->h[k]->port << 32 | wsel__ring_name_key(r->h[k]->name)))
            return BAD("ring: host %s has the wrong key", r->h[k]->name);
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
