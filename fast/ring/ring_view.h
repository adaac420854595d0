/* The ring balancer's fast engine (include/wsel/ring.h, doc/ring.md section 13): the
 * view readers pick from and the writer's bookkeeping. Not installed.
 *
 * A view is one published state of the wheel: owner[s] is the record of the address
 * owning slot s (NULL: free) and bit s of `avail` is set when that address is available,
 * so a pick is one table load when its slot is available and one bitmap scan when not.
 * Views are immutable once published; the writer brings an unpublished (reclaimed) view
 * up to date by replaying the slots logged since that view was current. */
#ifndef WSEL_FAST_RING_VIEW_H
#define WSEL_FAST_RING_VIEW_H

#include <stdatomic.h>

#include "../../core/internal.h"
#include "../../core/retire.h"
#include "../../core/ring/ring_model.h"

/* One address as readers see it. Immutable once published except `expire`, which the
 * writer updates in place (a reader only compares it with its view's clock). `pub` comes
 * first: a view pick hands out its address (include/wsel/ring.h, wsel_ring_target), which
 * is the record's. */
typedef struct wsel__frec {
    wsel_ring_target pub;       /* ip (-> ip[] below), hostname (NULL for an IP-literal
                                   host), port, iptype */
    _Atomic double expire;      /* the host's answer expires (INFINITY: never) */
    char ip64[64];              /* an IP's text, zero-padded: copied whole into a peer */
    /* writer only */
    uint64_t seen;              /* the sync that last found its address */
    bool avail_pub;             /* availability in the newest view */
    struct wsel__frec *next;    /* all live records */
    char ip[];                  /* the address text, then the host name */
} wsel__frec;

__extension__ typedef unsigned __int128 wsel__u128;

/* What a common pick reads comes first (n .. min_expire), within the view's first 64
 * bytes: the view is allocated on a 64-byte boundary (ring_fast.c). Those fields are the
 * public wsel_ring_fast_view (include/wsel/ring_inline.h), which the inline picks read:
 * `pub` names them together, the unnamed struct one by one. */
typedef struct wsel__fview {
    union {
        wsel_ring_fast_view pub;
        struct {
            uint32_t n;
            bool healthy;
            uint64_t mod_lo, mod_hi;    /* M = floor((2^128 - 1) / n) + 1 in two halves,
                                           for wsel__fview_mod */
            uint64_t *avail;            /* bit s: slot s's owner is available; n / 64 + 1
                                           words */
            const wsel__frec **owner;   /* [1..n] */
            double now;                 /* the ring's clock */
            double min_expire;          /* smallest expire of any record: nothing expired
                                           below it */
        };
    };
    uint64_t log_pos;           /* the writer's slot log position this view reflects */
} wsel__fview;

/* x mod v->n without a division (the public wsel_ring_fast_view_mod). */
static inline uint64_t wsel__fview_mod(const wsel__fview *v, uint64_t x)
{
    return wsel_ring_fast_view_mod(&v->pub, x);
}

#define WSEL__FAST_SPARES 2     /* views kept for reuse after a reclaim */

struct wsel_ring_fast {
    wsel_ring *r;
    _Atomic(wsel__fview *) cur;
    _Atomic uint32_t rr;        /* next round-robin slot */
    wsel_ring_dns dns;
    /* writer only */
    uint64_t gen;
    wsel__frec *recs;           /* live records */
    size_t nrecs;               /* how many: one per address, plus those of addresses
                                   removed since the last sync */
    wsel__frec **dead;          /* records of removed addresses, freed by reclaim */
    size_t ndead, capdead;
    wsel__retired retired;      /* replaced views (core/retire.h) */
    wsel__fview *spare[WSEL__FAST_SPARES];
    size_t nspare;
    uint32_t *log;              /* slots changed, in sync order; log[0] is position log_off */
    size_t nlog, caplog;
    uint64_t log_off;
};


/* How many views are allocated and not yet freed, over every fast engine in the process:
 * the published ones, the retired ones waiting for a reclaim and the spares. With a
 * reclaim after every sync an engine holds at most 1 + WSEL__FAST_SPARES (doc/ring.md
 * section 16). For the tests; not exported. */
size_t wsel__ring_fast_views_live(void);

/* Where a pick's walk is: at slot `slot` after `skipped` unavailable ones. */
typedef struct wsel__fwalk {
    uint32_t slot, skipped;
} wsel__fwalk;

#endif
