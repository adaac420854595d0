/* wsel: the ring balancer (doc/ring.md) -- the consistent-hashing wheel of
 * lua-resty-dns-client's resty.dns.balancer (seed 003), bit-exact with release 5.2.3's
 * apportionment, default order list and hashing formula.
 *
 * A wsel_ring is a wheel of N slots shared by the addresses of its hosts. Hosts are
 * (name, port) pairs with a weight; each host resolves, through the caller's resolver
 * (wsel_ring_dns: the library does no network I/O), to addresses. Changes redistribute
 * the slots (doc/ring.md section 5); picks map a hash, a float or a round-robin pointer
 * to a slot and walk forward past unavailable addresses.
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
    bool strict;                /* strict apportionment (doc/ring.md section 8): no slot ever
                                   moves between two addresses a change did not touch; not
                                   5.2.3's counts. Default false: bit-exact with 5.2.3 */
    double now;                 /* the clock at construction, seconds (default 0) */
    const wsel_ring_host_spec *hosts;
    size_t n_hosts;
} wsel_ring_opts;

/* Fills the defaults above (dns left empty). */
WSEL_API void wsel_ring_opts_init(wsel_ring_opts *opts);

/* Builds a ring: validates every option and host first (WSEL_E_ARG, WSEL_E_WEIGHT; the
 * message names the option or the host), then adds the hosts sorted by "name:port"
 * (doc/ring.md section 2; in 5.2.3's mode in a batch that gives the wheel the adds one
 * by one give). WSEL_E_ADDR when a resolver answer is malformed. */
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
 * port, address text `ip` (an IPv4 address in any textual form, an IPv6 address in
 * brackets as 5.2.3 stores it -- "[::1]", any spelling inside -- or an SRV target name)
 * and address port `port`. WSEL_E_ARG when none matches (an unbracketed IPv6 address
 * matches nothing, as in 5.2.3). Slots never move. */
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
    WSEL_RING_DNS,          /* the picked address is a name and toip failed */
    WSEL_RING_EXPIRED       /* fast engine, reader pick without cache_only: the picked
                               address's host answer expired and a reader may not re-query
                               it (see wsel_ring_fast_pick) */
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

/* ---- the fast engine (doc/ring.md section 13) ------------------------------------------
 *
 * A wsel_ring_fast publishes a read-only view of a ring -- slot -> address table and a
 * bitmap of the slots whose address is available -- that any number of reader threads
 * pick from without a lock, without allocating and without writing anything shared but
 * the round-robin pointer (one atomic). The ring itself stays the writer's: one thread
 * changes it with the wsel_ring_* calls above and then calls wsel_ring_fast_sync(),
 * which publishes the changes in time proportional to the slots that moved plus the
 * number of addresses. Every pick gives the result the reference pick (wsel_ring_pick)
 * would give on the ring as of the last sync.
 *
 * Replaced views and the records of removed addresses are kept until
 * wsel_ring_fast_reclaim(), which the caller runs when no reader is inside a pick (its
 * own quiescent point); a reclaimed view is reused by the next sync, which then costs
 * only the slots that moved since. Lifetime rule (doc/ring.md section 16): a view a sync
 * replaces may be in the hands of any pick that started before that sync published, so
 * it may be freed once all those picks have returned, and the library frees it only in
 * wsel_ring_fast_reclaim(). Until then every publishing sync keeps one more view
 * (8 (N + 1) bytes and a bitmap); a writer that reclaims after each sync holds at most
 * three. The ring must outlive its fast engine, and a ring has at most one. */
typedef struct wsel_ring_fast wsel_ring_fast;

/* Attaches a fast engine to r and publishes r's current state. The engine's round-robin
 * pointer starts where r's is. WSEL_E_NOMEM; WSEL_E_ARG when r already has one. */
WSEL_API int wsel_ring_fast_new(wsel_ring *r, wsel_ring_fast **out, wsel_error *err);
/* Detaches and frees everything it holds (no reader may be inside a pick). */
WSEL_API void wsel_ring_fast_free(wsel_ring_fast *f);
/* Writer: publishes the ring's changes since the last sync. WSEL_E_NOMEM leaves the last
 * view published and loses nothing: the next sync publishes everything. */
WSEL_API int wsel_ring_fast_sync(wsel_ring_fast *f, wsel_error *err);
/* Writer, at a point where no pick that started before the last sync is still running
 * (with no reader threads: at once after the sync): frees the records of removed
 * addresses and every replaced view, keeping two for reuse. Returns how many views it
 * took back. Without it, memory grows by one view per publishing sync. */
WSEL_API size_t wsel_ring_fast_reclaim(wsel_ring_fast *f);

/* Reader (any thread): a pick as wsel_ring_pick makes it, except that it never changes
 * the ring: when the picked address's host answer has expired and cache_only is false,
 * the outcome is WSEL_RING_EXPIRED (peer->slot says where) instead of a re-query; pick
 * again with cache_only, or let the writer refresh (wsel_ring_tick,
 * wsel_ring_fast_pick_refresh). peer->hostname stays valid until a reclaim after the
 * address is gone. toip is called from the reader's thread. It is wsel_ring_fast_pick_view
 * (below, which copies nothing) followed by wsel_ring_fast_view_peer. */
WSEL_API int wsel_ring_fast_pick(wsel_ring_fast *f, wsel_ring_handle *h, bool cache_only,
                                 wsel_ring_peer *peer, wsel_error *err);
/* Reader: counts one retry in h, then picks (as wsel_ring_retry). */
WSEL_API int wsel_ring_fast_retry(wsel_ring_fast *f, wsel_ring_handle *h, bool cache_only,
                                  wsel_ring_peer *peer, wsel_error *err);
/* ---- picks without a copy: a read-only view of the published address ----------------
 *
 * wsel_ring_fast_pick copies the address (up to 64 bytes of text) and its fields into the
 * caller's wsel_ring_peer. wsel_ring_fast_pick_view makes the same pick and hands back a
 * pointer to the engine's own record of the address instead, so that a pick costs about a
 * table lookup (doc/ring.md section 13). wsel/ring_inline.h (included at the end of this
 * header) makes the common case of it in the caller's code, with no call:
 * wsel_ring_fast_pick_view_inline, wsel_ring_fast_retry_view_inline. */

/* An address as the fast engine publishes it. Read-only: nothing in it changes while it
 * is valid. */
typedef struct wsel_ring_target {
    const char *ip;             /* IPv4 dotted, IPv6 canonical without brackets (as in
                                   wsel_ring_peer.ip); iptype WSEL_RING_NAME: the name (an
                                   SRV target, a ttl=0 host) that toip must turn into an IP */
    const char *hostname;       /* as wsel_ring_peer.hostname: NULL for an IP-literal host */
    uint16_t port;
    wsel_ring_iptype iptype;
} wsel_ring_target;

/* A pick's result as a view. */
typedef struct wsel_ring_view_pick {
    wsel_ring_outcome outcome;  /* never WSEL_RING_DNS: a view pick calls no resolver */
    uint32_t slot;              /* WSEL_RING_PEER, WSEL_RING_EXPIRED: the slot; else 0 */
    const wsel_ring_target *target; /* WSEL_RING_PEER: the address; else NULL */
} wsel_ring_view_pick;

/* Reader (any thread): the pick wsel_ring_fast_pick makes, with the address handed back as
 * out->target instead of copied. A named address (target->iptype WSEL_RING_NAME) is
 * handed back as it is, unresolved: the caller resolves target->ip with its own toip, or
 * calls wsel_ring_fast_view_peer, which does what wsel_ring_fast_pick does with it.
 *
 * Lifetime rule (doc/ring.md section 16): out->target belongs to the view the pick read,
 * and stays valid and unchanged until that view is freed: by the first
 * wsel_ring_fast_reclaim() after a sync (or wsel_ring_fast_pick_refresh) that published
 * a newer view -- the rule a caller already keeps for the views (a reclaim only at a
 * point where no pick that started before the last sync still runs) extended to the time
 * it holds the target. Holding it past such a reclaim is a use after free, even when the
 * address is still in the ring. Never write through it. Errors as wsel_ring_fast_pick. */
WSEL_API int wsel_ring_fast_pick_view(wsel_ring_fast *f, wsel_ring_handle *h, bool cache_only,
                                      wsel_ring_view_pick *out, wsel_error *err);
/* Reader: counts one retry in h, then picks as wsel_ring_fast_pick_view. */
WSEL_API int wsel_ring_fast_retry_view(wsel_ring_fast *f, wsel_ring_handle *h, bool cache_only,
                                       wsel_ring_view_pick *out, wsel_error *err);
/* Reader: the wsel_ring_peer wsel_ring_fast_pick would have given for the view pick vp
 * (made by f with the same cache_only): the address copied, a named address turned into
 * an IP by f's resolver (WSEL_RING_DNS when that fails), the message of an outcome that
 * is no peer. wsel_ring_fast_pick is wsel_ring_fast_pick_view and this. vp->target must
 * still be valid (above). */
WSEL_API void wsel_ring_fast_view_peer(const wsel_ring_fast *f, const wsel_ring_view_pick *vp,
                                       bool cache_only, wsel_ring_peer *peer);

/* ---- round-robin with the caller's cursor ---------------------------------------------
 *
 * The shared round-robin pointer above is one atomic that every reader moves with a
 * locked compare-and-swap. 5.2.3's pointer belongs to one balancer in one nginx worker
 * process and is never shared; a reader that wants that can keep its own pointer, a
 * cursor: a slot number 1..N, read and written with plain loads and stores by its owner
 * alone (doc/ring.md section 13, "Round-robin with a cursor").
 *
 * One cursor's picks are the reference's round-robin picks (wsel_ring_pick in mode
 * WSEL_RING_RR) on a ring whose pointer stood where the cursor stands, made on the
 * published views: the slot taken, and the cursor left where the reference leaves its
 * pointer -- one past the slot taken, one past the start after a walk that finds no
 * peer (N + 1 values taken, section 9), untouched when the ring is unhealthy, one past
 * the slot of an EXPIRED outcome. Readers with separate cursors do not see each other:
 * each has its own sequence, and two of them may take the same slot at once. The shared
 * pointer is neither read nor moved. A cursor is a slot number and the wheel's size
 * never changes, so it stays valid across every view of its engine; a view that changed
 * under it only changes which slots are available from it on. Start one at the ring's
 * rr_start (wsel_ring_opts), or where the shared pointer stands
 * (wsel_ring_fast_rr_pointer). */

/* Reader: one round-robin pick from *cursor, which it moves on as above; the result as
 * wsel_ring_fast_pick_view gives it (outcome, slot, target with its lifetime).
 * WSEL_E_ARG (cursor untouched) for a NULL argument or a cursor outside 1..N.
 * wsel_ring_fast_pick_rr_inline (wsel/ring_inline.h) is the same without a call in the
 * common case. */
WSEL_API int wsel_ring_fast_pick_rr(wsel_ring_fast *f, uint32_t *cursor, bool cache_only,
                                    wsel_ring_view_pick *out, wsel_error *err);
/* Where the shared round-robin pointer stands now (1..N): on a new engine, the ring's
 * pointer, rr_start if the ring made no round-robin pick. 0 for a NULL f. */
WSEL_API uint32_t wsel_ring_fast_rr_pointer(const wsel_ring_fast *f);

/* Writer: as wsel_ring_fast_pick, and where that would say WSEL_RING_EXPIRED it
 * re-queries the host, syncs, and goes on exactly as wsel_ring_pick does, so that it
 * never returns WSEL_RING_EXPIRED. */
WSEL_API int wsel_ring_fast_pick_refresh(wsel_ring_fast *f, wsel_ring_handle *h,
                                         bool cache_only, wsel_ring_peer *peer,
                                         wsel_error *err);
/* Checks that the published view is the ring's state (every slot's owner and
 * availability, each address's text and port, health); WSEL_E_STATE with the first
 * difference. Writer thread, for tests. */
WSEL_API int wsel_ring_fast_check(const wsel_ring_fast *f, wsel_error *err);

/* ---- scenarios (doc/ring.md section 11; man/wsel.1, RING SCENARIO) --------------------
 *
 * A scenario is a JSON file that describes a ring (its options and hosts), the answers
 * of an in-memory DNS resolver, and a list of ops (host changes, DNS answers,
 * availability, the clock, snapshots and picks). The library reads it and runs it; the
 * caller sees each step of the run through a callback. `wsel ring run|show|diff` are such
 * callers. */
typedef struct wsel_ring_scenario wsel_ring_scenario;

#define WSEL_RING_SCENARIO_MAX_SIZE 268435456u /* 256 MiB: the largest scenario text */

typedef enum wsel_ring_op_kind {
    WSEL_RING_OP_ADD = 0,       /* add a host, or change an existing host's weight */
    WSEL_RING_OP_REMOVE,        /* remove a host (absent: nothing, found = false) */
    WSEL_RING_OP_STATUS,        /* availability of one address */
    WSEL_RING_OP_HOSTSTATUS,    /* availability of every address of a host */
    WSEL_RING_OP_DNS,           /* a name's new answer, and its hosts re-queried */
    WSEL_RING_OP_ADVANCE,       /* the clock moves on */
    WSEL_RING_OP_SNAPSHOT,      /* nothing changes: the caller reads the ring */
    WSEL_RING_OP_PEERS,         /* one pick per hash or float key */
    WSEL_RING_OP_RR,            /* round-robin picks */
    WSEL_RING_OP_RETRY          /* a hashed pick, then retries of it */
} wsel_ring_op_kind;

/* "add", "remove", "status", "hoststatus", "dns", "advance", "snapshot", "peers", "rr",
 * "retry"; "unknown" for anything else. */
WSEL_API const char *wsel_ring_op_kind_name(wsel_ring_op_kind kind);

/* One op as read. Fields that do not apply to its kind are 0 / NULL. Pointers stay valid
 * as long as the scenario. */
typedef struct wsel_ring_op {
    wsel_ring_op_kind kind;
    const char *path;           /* its JSON path: "$.ops[3]" */
    const char *name;           /* add, remove, hoststatus: the host; dns: the name */
    const char *ip;             /* status: the address (an IP in any form, or a name) */
    const char *hostname;       /* status: the host it belongs to (NULL: the host `ip`) */
    uint32_t port;              /* add, remove, status, hoststatus (default 80) */
    uint32_t weight;            /* add (default 10) */
    bool available;             /* status, hoststatus */
    double seconds;             /* advance: 0..1e9 */
    const uint64_t *hashes;     /* peers by hash: n_keys hashes 0..2^53, else NULL */
    const double *floats;       /* peers by float: n_keys keys in [0,1), else NULL */
    size_t n_keys;
    uint64_t hash;              /* retry: 0..2^53 */
    uint64_t count;             /* rr: the picks; retry: the retries after the first pick */
} wsel_ring_op;

/* Reads a scenario from a file (a regular file of at most WSEL_RING_SCENARIO_MAX_SIZE
 * bytes) or from memory, and checks every value against its documented range; the ring
 * itself is built only when it runs. Errors carry the file (or `name`) and, for the
 * text, LINE:COL of the value at fault, with its JSON path at the start of the message
 * ("$.ops[3].weight: expected an integer in 1..65535, got 0"): WSEL_E_SYNTAX (JSON text,
 * unknown key), WSEL_E_DUPKEY, WSEL_E_TYPE, WSEL_E_RANGE, WSEL_E_LIMIT; WSEL_E_IO for a
 * file that cannot be read (with the system's reason); WSEL_E_NOMEM; WSEL_E_ARG for a
 * NULL path or out, or NULL data with len > 0. */
WSEL_API int wsel_ring_scenario_load_file(const char *path, wsel_ring_scenario **out,
                                          wsel_error *err);
WSEL_API int wsel_ring_scenario_load_buffer(const char *name, const char *data, size_t len,
                                            wsel_ring_scenario **out, wsel_error *err);
WSEL_API void wsel_ring_scenario_free(wsel_ring_scenario *sc);

/* The ring options the scenario gives (dns empty: a run supplies the scenario's
 * resolver), its ops, and op i (NULL past the end). */
WSEL_API const wsel_ring_opts *wsel_ring_scenario_opts(const wsel_ring_scenario *sc);
WSEL_API size_t wsel_ring_scenario_op_count(const wsel_ring_scenario *sc);
WSEL_API const wsel_ring_op *wsel_ring_scenario_op(const wsel_ring_scenario *sc, size_t i);

/* How a run builds its ring and picks. Zeroed (or a NULL pointer): the reference engine
 * and the apportionment the scenario's "strict" key asks for. */
typedef enum wsel_ring_engine {
    WSEL_RING_ENGINE_REF = 0,   /* picks by wsel_ring_pick */
    WSEL_RING_ENGINE_FAST       /* a fast engine attached, synced after every op; picks by
                                   wsel_ring_fast_pick_refresh (the same results) */
} wsel_ring_engine;

typedef enum wsel_ring_apportion {
    WSEL_RING_APPORTION_SCENARIO = 0, /* as the scenario's "strict" key says */
    WSEL_RING_APPORTION_5_2_3,        /* 5.2.3's, whatever the scenario says */
    WSEL_RING_APPORTION_STRICT        /* strict mode, whatever the scenario says */
} wsel_ring_apportion;

typedef struct wsel_ring_run_opts {
    wsel_ring_engine engine;
    wsel_ring_apportion apportion;
} wsel_ring_run_opts;

/* What a run reports, in this order: BUILT once; per op BEGIN, one PICK per pick (peers,
 * rr, retry), END; DONE once, after the last op. */
typedef enum wsel_ring_step_kind {
    WSEL_RING_STEP_BUILT = 0,   /* the ring as the options and hosts built it */
    WSEL_RING_STEP_BEGIN,       /* op `index` is about to be applied (the ring before it) */
    WSEL_RING_STEP_PICK,        /* one pick of op `index` */
    WSEL_RING_STEP_END,         /* op `index` applied, or refused (status) */
    WSEL_RING_STEP_DONE         /* every op applied (the ring after all of them) */
} wsel_ring_step_kind;

/* One step of a run. Everything it points to is valid during the callback only. */
typedef struct wsel_ring_step {
    wsel_ring_step_kind kind;
    const wsel_ring *ring;          /* the ring as it is now: read it with the calls above */
    size_t index;                   /* BEGIN, PICK, END: the op's index */
    const wsel_ring_op *op;         /* BEGIN, PICK, END: the op; else NULL */
    double now;                     /* the run's clock in seconds (advance moves it) */
    /* PICK (handle and peer are NULL in every other step) */
    uint64_t pick;                  /* its number in the op, from 0 (retry: 0 is the first
                                       pick, k the k-th retry) */
    const wsel_ring_handle *handle; /* the handle picked with (mode, key, retries) */
    const wsel_ring_peer *peer;     /* the pick's result (an outcome that is no peer, such
                                       as WSEL_RING_UNHEALTHY, is a result, not an error) */
    /* END */
    int status;                     /* WSEL_OK, or the ring's refusal of the op (a status
                                       op naming no address: WSEL_E_ARG, the run goes on) ... */
    const wsel_error *error;        /* ... in the ring's words (status != WSEL_OK) */
    bool found;                     /* remove: the host was there */
} wsel_ring_step;

/* The caller's view of a run: 0 goes on; any other value stops the run at once, and
 * wsel_ring_scenario_run returns that value (pass a wsel_status: WSEL_E_NOMEM when the
 * caller ran out of memory, WSEL_E_IO when its output failed) with err untouched. */
typedef int (*wsel_ring_step_fn)(void *ctx, const wsel_ring_step *step);

/* Builds the scenario's ring on its resolver and applies its ops in order, calling
 * fn(ctx, step) at every step (fn may be NULL). The scenario is not changed (its DNS
 * ops change the run's copy of the resolver's table), so it can run again, or in several
 * threads at once. Returns WSEL_OK when every op was applied. A status op that names no
 * address is an error result, as 5.2.3's setAddressStatus returns one: its END step
 * carries WSEL_E_ARG and the ring's message, and the run goes on. Any other refusal by
 * the ring stops the run (after the END step that reports it) and is reported as a fault
 * of the scenario, at the JSON path of what caused it ($.ops[3]; $.order, $.hosts[2]
 * when building): WSEL_E_ARG becomes WSEL_E_REFERENCE for an op (the only other ops a
 * valid scenario holds that the ring refuses name a host it does not have) and
 * WSEL_E_RANGE for the options (a value the ring does not take, such as a repeated
 * 'order' number); other codes stay (WSEL_E_NOMEM, WSEL_E_ADDR, ...). WSEL_E_ARG for a
 * NULL scenario. */
WSEL_API int wsel_ring_scenario_run(const wsel_ring_scenario *sc, const wsel_ring_run_opts *opts,
                                    wsel_ring_step_fn fn, void *ctx, wsel_error *err);

#ifdef __cplusplus
}
#endif

#include "ring_inline.h" /* the inline picks: the view's layout, picks without a call */
#endif
