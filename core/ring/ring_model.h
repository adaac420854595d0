/* The ring balancer's model (doc/ring.md section 1): the ring, its hosts and addresses,
 * and what both engines read of it -- the reference pick (ref/ring/ring_ref_pick.c) and
 * the fast engine (fast/ring/, which also reads the slot journal). The model and its
 * changes are core/ring/ring_model.c's, reading it core/ring/ring_state.c's. Not
 * installed. */
#ifndef WSEL_CORE_RING_MODEL_H
#define WSEL_CORE_RING_MODEL_H

#include "wsel/ring.h"

/* An address's slots are a stack kept as a doubly linked list through the ring's
 * next/prev arrays (indexed by slot), so redistribution never allocates. */
typedef struct wsel__raddr {
    char *ip;                   /* canonical IP text, or a name */
    wsel_ring_iptype iptype;
    uint16_t port;
    uint32_t weight;            /* 0 once disabled */
    bool available, disabled;
    uint32_t head, tail, count; /* first / last acquired slot (0 = none) */
    uint32_t target;            /* the count the current redistribution gives it */
    uint32_t prev_weight;       /* its weight at the last redistribution (strict mode) */
    bool settled;               /* it took part in a redistribution already */
    bool touched;               /* strict mode, scratch: new, removed or re-weighted */
    bool grp;                   /* scratch: in the group being apportioned */
    uint64_t rem;               /* scratch: remainder of its quota's numerator */
    uint32_t keep;              /* scratch: a count kept while the rest is shared */
    struct wsel__rhost *host;
    uint64_t serial;            /* unique per ring, never reused */
    size_t pos;                 /* index in iteration order */
    void *fast;                 /* the fast engine's record of it, opaque here
                                   (fast/ring/ring_view.h), or NULL */
} wsel__raddr;

typedef struct wsel__rhost {
    char *name;
    size_t idx, first;          /* its index in the host list, its first address's position */
    uint16_t port;
    uint32_t node_weight;
    bool literal;               /* name is an IP literal: resolves to itself, never expires */
    int rtype;                  /* 0 before the first answer, else wsel_ring_rrtype */
    bool real_srv;              /* current record is a real SRV record (SRV weights win) */
    bool ttl0;                  /* the host stands as one unresolved entry (ttl=0 record) */
    bool prev_ttl0_or_empty;    /* last answer had ttl 0 or no entries (or none yet) */
    double expire;
    wsel__raddr **a;
    size_t n, cap;
    uint32_t nkey;              /* wsel__ring_name_key(name): its bucket in the host index */
    struct wsel__rhost *hnext;  /* the next host in its bucket */
} wsel__rhost;

/* Records of removed hosts and addresses kept for the next ones, so that a change
 * allocates nothing in the common case: a record and its text are one block, whose room
 * for text is wsel__ring_room of the text's length; a spare is taken when its room fits
 * the new text, and reset in full (ring_model.c). At most WSEL__RING_SPARES of each kind
 * are kept; the rest are freed. */
#define WSEL__RING_SPARES 8
typedef struct wsel__ring_spares {
    void *rec[WSEL__RING_SPARES];
    size_t room[WSEL__RING_SPARES];
    unsigned n;
} wsel__ring_spares;

struct wsel_ring {
    uint32_t n;                 /* wheel size N */
    wsel__raddr **wheel;        /* [1..N] owner or NULL; one allocation with next, prev, free */
    uint32_t *next, *prev;      /* [1..N] slot lists of the owners */
    uint32_t *free;             /* the free stack; top = free[nfree - 1] */
    uint32_t nfree;
    wsel__rhost **h;
    size_t nh, caph;
    /* The host index: hosts chained by the digest of their name, so finding a host (by
     * name and port, or every port of a name) compares the names of one bucket only;
     * nbucket is a power of two, at least nh */
    wsel__rhost **bucket;
    size_t nbucket;
    double threshold, requery, ttl0, now;
    uint32_t pointer;           /* next round-robin slot */
    bool use_srv_name;
    bool strict;                /* apportionment that keeps the seed's promise (section 8) */
    wsel_ring_dns dns;
    uint64_t serial;
    /* Every address in iteration order (hosts in order, then each host's addresses),
     * rebuilt whenever addresses come or go, so a redistribution walks one array;
     * capacity is reserved when a change plans its new addresses. */
    wsel__raddr **addr;
    size_t naddr, capaddr;
    size_t held;                /* no address before addr[held] holds a slot */
    uint32_t wmax;              /* no address ever weighed more (section 5, skipping) */
    uint64_t wsum;              /* the weight of every address in addr[] (each change of a
                                   weight goes through wsel__ring_set_weight) */
    /* The slot journal a fast engine reads (fast/ring/ring_fast.c): every slot whose owner
     * changed since it was last emptied, once each; jmark == NULL while no engine listens. */
    uint32_t *journal;
    uint8_t *jmark;
    uint32_t njournal;
    wsel__ring_spares spare_h, spare_a; /* spare host and address records */
};

/* Address a (in the address array) weighs w from now on: its weight and the ring's total. */
static inline void wsel__ring_set_weight(wsel_ring *r, wsel__raddr *a, uint32_t w)
{
    r->wsum = r->wsum - a->weight + w;
    a->weight = w;
}

/* Each address of ring r in iteration order, into `a` (a wsel__raddr *). */
#define WSEL__RING_FOR_EACH_ADDR(r, a)                                                    \
    for (size_t i_ = 0; i_ < (r)->naddr && ((a) = (r)->addr[i_], 1); i_++)

/* doc/ring.md section 5's arithmetic, shared by the one-by-one redistribution
 * (ring_model.c) and the batch build (ring_build.c), which must give the same wheel.
 * Uncounted: the weight from an address on (`suffix`) is small enough, suffix * 999 <=
 * wmax * N * 1000, that it and every address before it get no slot. Share: a counted
 * address gets the floor of its part of the `left` slots, `rest` being the weight from
 * it on (positive, so truncation is the floor; no libm call). */
static inline bool wsel__ring_uncounted(uint64_t suffix, uint32_t wmax, uint32_t n)
{
    return suffix * 999 <= (uint64_t)wmax * n * 1000;
}

static inline uint32_t wsel__ring_share(uint32_t left, uint32_t weight, double rest)
{
    return rest == 0 ? 0 : (uint32_t)((double)left * ((double)weight / rest) + 0.0001);
}

/* A cheap digest of a host name (FNV-1a), so finding a host compares few names. */
static inline uint32_t wsel__ring_name_key(const char *name)
{
    uint32_t h = 2166136261u;
    for (const unsigned char *c = (const unsigned char *)name; *c; c++)
        h = (h ^ *c) * 16777619u;
    return h;
}

/* Slot moves, inlined into the redistribution's loops (a move is a few stores). */
#define WSEL__RING_MOVE static inline __attribute__((always_inline))

/* Notes slot s in the journal a fast engine reads, once. */
WSEL__RING_MOVE void wsel__ring_journal_note(wsel_ring *r, uint32_t s)
{
    if (r->jmark && !r->jmark[s]) {
        r->jmark[s] = 1;
        r->journal[r->njournal++] = s;
    }
}

/* Address a acquires slot s (owned by no one): the last of its list. */
WSEL__RING_MOVE void wsel__ring_slot_push(wsel_ring *r, wsel__raddr *a, uint32_t s)
{
    wsel__ring_journal_note(r, s);
    r->wheel[s] = a;
    r->prev[s] = a->tail;
    r->next[s] = 0;
    if (a->tail)
        r->next[a->tail] = s;
    else
        a->head = s;
    a->tail = s;
    a->count++;
}

/* What a pick of address a reports as its host name (doc/ring.md section 9): NULL for an
 * IP-literal host, a named SRV target's name with use_srv_name, else the host's name. */
static inline const char *wsel__ring_pick_hostname(const wsel_ring *r, const wsel__raddr *a)
{
    const wsel__rhost *h = a->host;
    if (h->literal)
        return NULL;
    if (r->use_srv_name && h->real_srv && a->iptype == WSEL_RING_NAME)
        return a->ip;
    return h->name;
}

/* ring_order.c: ranks of n distinct finite numbers (1-based) into out; WSEL_E_ARG on
 * duplicates or non-finite values, WSEL_E_NOMEM. */
int wsel__ring_ranks(const double *v, uint32_t n, uint32_t *out, wsel_error *err);

/* ring_model.c */
/* An IP literal's canonical text (IPv6 without brackets; "[...]" accepted), or
 * WSEL_RING_NAME when s is no IP literal (out then unspecified). */
wsel_ring_iptype wsel__ring_parse_ip(const char *s, char *out, size_t len);
/* Re-queries host h now (its answer replaces its addresses; slots are redistributed). */
int wsel__ring_query(wsel_ring *r, wsel__rhost *h, wsel_error *err);
/* W > 0 and (W - U) / W * 100 > threshold (section 10). */
bool wsel__ring_healthy(const wsel_ring *r);
/* The same test for a total weight w of which u is unavailable (a caller that summed
 * them in its own walk over the addresses: the fast engine's sync). */
bool wsel__ring_healthy_of(const wsel_ring *r, uint64_t w, uint64_t u);
/* Host (name, port), or NULL; through the host index. */
wsel__rhost *wsel__ring_find_host(const wsel_ring *r, const char *name, uint32_t port);
/* The first host named `name` (any port) after host list position `after` (SIZE_MAX:
 * from the start) in list order, or NULL; through the host index. */
wsel__rhost *wsel__ring_next_named(const wsel_ring *r, const char *name, size_t after);
/* Work counted over the process (relaxed atomics), for the tests: a lookup must examine
 * a bounded number of entries, and a redistribution count a bounded number of addresses,
 * however many hosts there are (issue 25, "Memory and cost"). */
typedef enum wsel__ring_cost_kind {
    WSEL__RING_EXAMINED = 0,    /* hosts or scenario answers a lookup by name examined */
    WSEL__RING_COUNTED,         /* addresses a redistribution counted (section 5) */
    WSEL__RING_COSTS
} wsel__ring_cost_kind;
uint64_t wsel__ring_cost(wsel__ring_cost_kind kind);
void wsel__ring_cost_add(wsel__ring_cost_kind kind, uint64_t n);
/* The address of host h numbered `serial`, if it still has it. */
const wsel__raddr *wsel__ring_find_serial(const wsel__rhost *h, uint64_t serial);
/* Starts the slot journal a fast engine reads (WSEL_E_NOMEM; WSEL_E_ARG when already
 * started) and stops it. */
int wsel__ring_journal_start(wsel_ring *r, wsel_error *err);
void wsel__ring_journal_stop(wsel_ring *r);

/* ring_build.c: the batch build. Every slot is free, the addresses in iteration order
 * have never been redistributed, and after 5.2.3's k-th add there were ends[k] of them
 * (non-decreasing, the last is naddr): sets the wheel to what those adds, each with its
 * redistribution in 5.2.3's mode, give. WSEL_E_NOMEM (the ring is then only fit to be
 * freed). */
int wsel__ring_replay(wsel_ring *r, const size_t *ends, size_t nsteps, wsel_error *err);
/* ring_model.c: wsel_ring_new, with the hosts given at construction added in a batch
 * (replayed, above) or, batch false, one by one as 5.2.3 adds them (the tests compare). */
int wsel__ring_new(const wsel_ring_opts *o, bool batch, wsel_ring **out, wsel_error *err);

/* ring_state.c: the end of a pick at an address with text ip (an IP, or a name that goes
 * through dns->toip) and port: fills peer's outcome, ip, port and message. */
void wsel__ring_peer_fill(const wsel_ring_dns *dns, const char *ip, wsel_ring_iptype iptype,
                          uint16_t port, bool cache_only, wsel_ring_peer *peer);

#endif
