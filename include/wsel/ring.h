/* wsel: the ring balancer (doc/ring.md) -- the consistent-hashing wheel of
 * lua-resty-dns-client's resty.dns.balancer (seed 003), bit-exact with release 5.2.3's
 * apportionment, default order list and hashing formula.
 *
 * A wsel_ring is a wheel of N slots shared by the addresses of its hosts. Hosts are
 * (name, port) pairs with a weight; each host resolves, through the caller's resolver
 * (wsel_ring_dns: the library does no I/O), to addresses. Changes redistribute the slots
 * (doc/ring.md section 5); picks map a hash, a float or a round-robin pointer to a slot
 * and walk forward past unavailable addresses.
 *
 * A wsel_ring is plain data and not thread-safe: one thread uses it at a time. */
#ifndef WSEL_RING_H
#define WSEL_RING_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define WSEL_RING_MAX_SLOTS  16777216u /* 2^24: the largest wheel */
#define WSEL_RING_MAX_WEIGHT 65535u    /* host and SRV weights: sums stay exact in a double */
#define WSEL_RING_DEFAULT_SIZE 1000u

typedef struct wsel_ring wsel_ring;

/* ---- DNS: what the caller's resolver hands in ------------------------------------ */

typedef enum wsel_ring_rrtype {
    WSEL_RING_A = 1,
    WSEL_RING_AAAA,
    WSEL_RING_SRV
} wsel_ring_rrtype;

/* One record entry. A/AAAA use `address` and `ttl`; SRV uses `address` (the target: a
 * name or an IP literal), `port`, `weight`, `priority` and `ttl`. */
typedef struct wsel_ring_entry {
    const char *address;
    uint32_t ttl;
    uint32_t port;        /* SRV: 0..65535; 0 means the host's port */
    uint32_t weight;      /* SRV: 0..65535; 0 counts as 1 */
    uint32_t priority;    /* SRV: only the lowest value present is used */
} wsel_ring_entry;

/* A resolver's answer. `failed` set: the query failed (NXDOMAIN, SERVFAIL, timeout...),
 * `message` says why; the host then keeps its place with no addresses. Otherwise `type`
 * and the entries (valid until the callback is called again; the ring copies them). */
typedef struct wsel_ring_record {
    bool failed;
    const char *message;
    wsel_ring_rrtype type;
    const wsel_ring_entry *entries;
    size_t n_entries;
} wsel_ring_record;

/* The caller's resolver. resolve() answers a host name (following CNAMEs itself, never
 * SRV targets); it returns 0, or nonzero for an answer it cannot give (treated as a
 * failure). toip() turns a name (a named SRV target, or a ttl=0 host) into an IP
 * literal written to ip[0..iplen) and a port; nonzero with msg filled on failure.
 * cache_only asks the resolver not to query the network. toip may be NULL (every such
 * pick then fails with WSEL_RING_DNS). An IP-literal host name never reaches resolve():
 * it resolves to itself. */
typedef struct wsel_ring_dns {
    int (*resolve)(void *ctx, const char *name, wsel_ring_record *out);
    int (*toip)(void *ctx, const char *name, uint16_t port, bool cache_only, char *ip,
                size_t iplen, uint16_t *port_out, char *msg, size_t msglen);
    void *ctx;
} wsel_ring_dns;

/* ---- construction ------------------------------------------------------------------ */

/* A host given at construction: port and weight < 0 mean "not given" (80 and 10; a
 * missing port also sorts before any given one, doc/ring.md section 2). */
typedef struct wsel_ring_host_spec {
    const char *name;
    int64_t port;
    int64_t weight;
} wsel_ring_host_spec;

typedef struct wsel_ring_opts {
    wsel_ring_dns dns;          /* resolve is required */
    int64_t wheel_size;         /* < 0: the length of `order`, else 1000; else 1..WSEL_RING_MAX_SLOTS */
    const double *order;        /* NULL: the default MT19937 list; else wheel_size distinct finite numbers */
    size_t order_len;
    double health_threshold;    /* 0..100 (percent of weight that must be available, strictly more) */
    double requery;             /* seconds between re-queries of a failed host, > 0 (default 1) */
    double ttl0;                /* seconds a ttl=0 host's unresolved entry lives, > 0 (default 60) */
    int64_t rr_start;           /* first round-robin slot, 1..N (default 1) */
    bool use_srv_name;          /* picks of a named SRV target report the target as host name */
    double now;                 /* the clock at construction, seconds (default 0) */
    const wsel_ring_host_spec *hosts;
    size_t n_hosts;
} wsel_ring_opts;

/* Fills the defaults above (dns left empty). */
WSEL_API void wsel_ring_opts_init(wsel_ring_opts *opts);

/* Builds a ring: validates every option and host first (WSEL_E_ARG, WSEL_E_WEIGHT; the
 * message names the option or the host), then adds the hosts sorted by "name:port"
 * (doc/ring.md section 2). WSEL_E_ADDR when a resolver answer is malformed. */
WSEL_API int wsel_ring_new(const wsel_ring_opts *opts, wsel_ring **out, wsel_error *err);
WSEL_API void wsel_ring_free(wsel_ring *r);

/* The default order list for a wheel of n slots (doc/ring.md section 3): out[0..n) gets a
 * permutation of 1..n. WSEL_E_ARG for n outside 1..WSEL_RING_MAX_SLOTS, WSEL_E_NOMEM. */
WSEL_API int wsel_ring_default_order(uint32_t n, uint32_t *out, wsel_error *err);

/* ---- changes (each validates first and changes nothing on error; refresh and tick
 * update host by host, each host all or nothing, and stop at the first error) ---------- */

/* Adds host (name, port) with a weight, resolving it; on an existing host, changes its
 * weight. port 1..65535, weight 1..WSEL_RING_MAX_WEIGHT, name non-empty. */
WSEL_API int wsel_ring_add_host(wsel_ring *r, const char *name, uint32_t port, uint32_t weight,
                                wsel_error *err);
/* Removes host (name, port); unknown hosts are a no-op (*found = false if non-NULL). */
WSEL_API int wsel_ring_remove_host(wsel_ring *r, const char *name, uint32_t port, bool *found,
                                   wsel_error *err);
/* Re-queries every host named `name` now (after the caller's DNS data changed). */
WSEL_API int wsel_ring_refresh(wsel_ring *r, const char *name, wsel_error *err);
/* Moves the clock to `now` (never backwards) and re-queries every host whose record
 * expired at least 0.5 s before (5.2.3's renewal timer): failed hosts `requery` seconds
 * after the failure, ttl=0 hosts after `ttl0`, others after their record's smallest TTL.
 * In between, a pick that lands on an expired host re-queries it first. */
WSEL_API int wsel_ring_tick(wsel_ring *r, double now, wsel_error *err);

/* Availability of one address: the host named `hostname` (or `ip` when NULL) on any
 * port, address text `ip` (an IP in any textual form, or an SRV target name) and address
 * port `port`. WSEL_E_ARG when none matches. Slots never move. */
WSEL_API int wsel_ring_set_address_status(wsel_ring *r, const char *ip, uint32_t port,
                                          const char *hostname, bool available,
                                          wsel_error *err);
/* Availability of every address of host (name, port); WSEL_E_ARG for an unknown host. */
WSEL_API int wsel_ring_set_host_status(wsel_ring *r, const char *name, uint32_t port,
                                       bool available, wsel_error *err);

/* ---- picks ---------------------------------------------------------------------------- */

typedef enum wsel_ring_mode {
    WSEL_RING_RR = 0,   /* round-robin */
    WSEL_RING_HASH,     /* slot 1 + ((hash + retries) mod N) */
    WSEL_RING_FLOAT     /* slot 1 + ((floor(u * N) + retries) mod N), u in [0,1) */
} wsel_ring_mode;

/* One request's picks: set mode and hash or u, retries = 0, then wsel_ring_pick; each
 * wsel_ring_retry counts a retry and picks again. */
typedef struct wsel_ring_handle {
    wsel_ring_mode mode;
    uint64_t hash;
    double u;
    uint32_t retries;
} wsel_ring_handle;

typedef enum wsel_ring_outcome {
    WSEL_RING_PEER = 0,     /* a peer was picked */
    WSEL_RING_UNHEALTHY,    /* not enough available weight (or none at all) */
    WSEL_RING_NO_PEERS,     /* every slot's address is unavailable */
    WSEL_RING_DNS           /* the picked address is a name and toip failed */
} wsel_ring_outcome;

typedef struct wsel_ring_peer {
    wsel_ring_outcome outcome;
    char ip[64];            /* IPv4 dotted, IPv6 canonical without brackets */
    uint16_t port;
    const char *hostname;   /* NULL for a host added as an IP literal; valid until the next change */
    uint32_t slot;          /* the slot whose address was returned */
    char message[256];      /* outcome != WSEL_RING_PEER: why */
} wsel_ring_peer;

/* Picks a peer. Returns WSEL_OK with peer->outcome set, or WSEL_E_ARG (bad handle: mode,
 * u outside [0,1)), WSEL_E_NOMEM, WSEL_E_ADDR (malformed resolver answer on a refresh). */
WSEL_API int wsel_ring_pick(wsel_ring *r, wsel_ring_handle *h, bool cache_only,
                            wsel_ring_peer *peer, wsel_error *err);
WSEL_API int wsel_ring_retry(wsel_ring *r, wsel_ring_handle *h, bool cache_only,
                             wsel_ring_peer *peer, wsel_error *err);
WSEL_API const char *wsel_ring_outcome_name(wsel_ring_outcome o); /* "UNHEALTHY", ... */

/* ---- reading the state ---------------------------------------------------------------- */

typedef enum wsel_ring_iptype { WSEL_RING_IPV4 = 4, WSEL_RING_IPV6 = 6, WSEL_RING_NAME = 0 } wsel_ring_iptype;

/* One address, in iteration order (hosts in order, then each host's addresses). Pointers
 * stay valid until the next change. */
typedef struct wsel_ring_address {
    const char *ip;             /* canonical IP text, or a name */
    wsel_ring_iptype iptype;
    uint16_t port;
    uint32_t weight;
    bool available;
    const char *host;           /* the host's name */
    uint16_t host_port;
    size_t n_slots;             /* slots owned (wsel_ring_address_slots lists them) */
} wsel_ring_address;

WSEL_API uint32_t wsel_ring_size(const wsel_ring *r);
WSEL_API size_t wsel_ring_address_count(const wsel_ring *r);
WSEL_API void wsel_ring_address_get(const wsel_ring *r, size_t i, wsel_ring_address *out);
/* Writes address i's n_slots slots, in the order it acquired them, to out. */
WSEL_API void wsel_ring_address_slots(const wsel_ring *r, size_t i, uint32_t *out);
/* The index (as above) of the address owning slot 1..N, or -1 for a free slot. */
WSEL_API long wsel_ring_owner(const wsel_ring *r, uint32_t slot);
WSEL_API uint64_t wsel_ring_weight(const wsel_ring *r);
WSEL_API uint64_t wsel_ring_unavailable_weight(const wsel_ring *r);
WSEL_API bool wsel_ring_healthy(const wsel_ring *r);
WSEL_API size_t wsel_ring_host_count(const wsel_ring *r);
/* Checks the invariants of doc/ring.md section 1 (slot ownership both ways, conservation,
 * free stack empty iff weight > 0, totals); WSEL_E_STATE with the first violation. */
WSEL_API int wsel_ring_check(const wsel_ring *r, wsel_error *err);

#ifdef __cplusplus
}
#endif
#endif
