/* wsel: the ring fast engine's picks without a call (doc/ring.md section 13, "Inline
 * picks"; lifetime: section 16). Included by wsel/ring.h, after what it declares; not to
 * be included on its own.
 *
 * The common view pick -- the start slot's 64-slot bitmap word holds an available slot
 * at or after it, the ring is healthy, and no refresh can be due -- needs nothing but
 * the published view. The functions below make that pick in the caller's own code,
 * reading the view through the layout given here, and call the library
 * (wsel_ring_fast_pick_view, wsel_ring_fast_pick_rr) for everything else; every answer
 * is the one the library call gives on the same view.
 *
 * The layout is part of the API (it changes only with the library's major version):
 *
 * - A wsel_ring_fast begins as wsel_ring_fast_head: a pointer of the library's, then
 *   the published view, an atomic pointer a reader loads with acquire ordering
 *   (wsel_ring_fast_published) and the writer's sync replaces with a release store.
 * - The view it points to begins as wsel_ring_fast_view. A published view never
 *   changes, and stays readable until the first wsel_ring_fast_reclaim() after a sync
 *   that published a newer one (doc/ring.md section 16): the rule for a view pick's
 *   target, which is the view's owner[slot]. Never write through either.
 *
 * gcc and clang (the atomic load is __atomic_load_n on the pointer's plain type, the
 * remainder's product an unsigned __int128). */
#ifndef WSEL_RING_INLINE_H
#define WSEL_RING_INLINE_H

#ifdef __cplusplus
extern "C" {
#endif

/* One published view of the wheel. */
typedef struct wsel_ring_fast_view {
    uint32_t n;                 /* the wheel's slots, 1..WSEL_RING_MAX_SLOTS (never
                                   changes over a ring's life) */
    bool healthy;               /* section 10's health; picks say WSEL_RING_UNHEALTHY when
                                   false */
    uint64_t mod_lo, mod_hi;    /* M = floor((2^128 - 1) / n) + 1, low and high halves:
                                   x mod n without a division (wsel_ring_fast_view_mod) */
    const uint64_t *avail;      /* bit s (word s / 64, bit s % 64): slot s's address is
                                   available; n / 64 + 1 words; bit 0 and bits above n
                                   are 0 */
    const wsel_ring_target *const *owner; /* [1..n]: the address owning slot s (NULL: a
                                   free slot, whose bit is 0) */
    double now;                 /* the ring's clock when the view was published */
    double min_expire;          /* no address's host answer expires before this: with
                                   now <= min_expire no pick of the view needs a refresh */
} wsel_ring_fast_view;

/* The beginning of a wsel_ring_fast. */
typedef struct wsel_ring_fast_head {
    void *wsel_private;
    const wsel_ring_fast_view *view; /* atomic: wsel_ring_fast_published */
} wsel_ring_fast_head;

__extension__ typedef unsigned __int128 wsel_ring_u128;

/* Inlined into the caller whatever its optimizer would choose: a call is what these
 * functions are here to save. */
#define WSEL_RING_INLINE static inline __attribute__((always_inline))

/* The view f publishes now (acquire: everything the view points to is seen as the
 * writer published it). */
WSEL_RING_INLINE const wsel_ring_fast_view *wsel_ring_fast_published(const wsel_ring_fast *f)
{
    return __atomic_load_n(&((const wsel_ring_fast_head *)(const void *)f)->view,
                           __ATOMIC_ACQUIRE);
}

/* x mod v->n without a division (Lemire, Kaser and Kurz's direct remainder: with the
 * low 128 bits of M x, the remainder is their product with n over 2^128; exact for
 * 64-bit x when n < 2^64), in 64-bit halves. */
WSEL_RING_INLINE uint64_t wsel_ring_fast_view_mod(const wsel_ring_fast_view *v, uint64_t x)
{
    uint64_t lo = v->mod_lo * x;
    uint64_t hi = (uint64_t)(((wsel_ring_u128)v->mod_lo * x) >> 64) + v->mod_hi * x;
    uint64_t carry = (uint64_t)(((wsel_ring_u128)lo * v->n) >> 64);
    return (uint64_t)(((wsel_ring_u128)hi * v->n + carry) >> 64);
}

/* The start slot of a keyed pick with retries < v->n (section 9): hash,
 * 1 + ((hash mod N + retries) mod N); float (u in [0,1)), 1 + ((floor(u N) + retries)
 * mod N), where floor(u N) rounding up to N counts as N - 1 (not reached with IEEE
 * doubles rounding to nearest; kept for other float evaluation). 0 for anything else:
 * another mode, u outside [0,1), retries >= N. */
WSEL_RING_INLINE uint32_t wsel_ring_fast_view_start(const wsel_ring_fast_view *v,
                                                 const wsel_ring_handle *h)
{
    const uint32_t n = v->n;
    uint64_t k;
    if (h->retries >= n)
        return 0;
    if (h->mode == WSEL_RING_HASH) {
        k = wsel_ring_fast_view_mod(v, h->hash);
    } else if (h->mode == WSEL_RING_FLOAT && h->u >= 0 && h->u < 1) {
        /* 0 <= x <= n <= 2^24: truncation is the floor */
        double x = h->u * (double)n;
        k = x >= (double)n ? n - 1 : (uint64_t)(int64_t)x;
    } else {
        return 0;
    }
    k += h->retries;
    return 1 + (uint32_t)(k >= n ? k - n : k);
}

/* The common pick from slot s (1..n) of v: the first available slot from s on within
 * s's bitmap word, when there is one, the view is healthy and no refresh can be due
 * (cache_only, or now <= min_expire). Fills out with it and returns its slot; 0, having
 * written nothing, otherwise. */
WSEL_RING_INLINE uint32_t wsel_ring_fast_view_quick(const wsel_ring_fast_view *v, uint32_t s,
                                                 bool cache_only, wsel_ring_view_pick *out)
{
    /* bits above n are 0: no wrap within the word */
    uint64_t x = v->avail[s >> 6] >> (s & 63);
    if (!v->healthy || x == 0 || (!cache_only && v->now > v->min_expire))
        return 0;
    s += (uint32_t)__builtin_ctzll(x);
    out->outcome = WSEL_RING_PEER;
    out->slot = s;
    out->target = v->owner[s];
    return s;
}

/* wsel_ring_fast_pick_view, with its common case made here (same answers, same errors,
 * same lifetime of out->target). */
WSEL_RING_INLINE int wsel_ring_fast_pick_view_inline(wsel_ring_fast *f, wsel_ring_handle *h,
                                                  bool cache_only, wsel_ring_view_pick *out,
                                                  wsel_error *err)
{
    if (f && h && out) {
        /* the handle read first: after the acquire load the compiler may no longer
         * assume what the caller just stored in it (its address escapes below) */
        const wsel_ring_handle k = *h;
        const wsel_ring_fast_view *v = wsel_ring_fast_published(f);
        uint32_t s = wsel_ring_fast_view_start(v, &k);
        if (__builtin_expect(s && wsel_ring_fast_view_quick(v, s, cache_only, out), 1))
            return WSEL_OK;
    }
    return wsel_ring_fast_pick_view(f, h, cache_only, out, err);
}

/* wsel_ring_fast_retry_view, inline as above. */
WSEL_RING_INLINE int wsel_ring_fast_retry_view_inline(wsel_ring_fast *f, wsel_ring_handle *h,
                                                   bool cache_only, wsel_ring_view_pick *out,
                                                   wsel_error *err)
{
    if (f && h && out) /* else the pick refuses the call, h untouched */
        h->retries++;
    return wsel_ring_fast_pick_view_inline(f, h, cache_only, out, err);
}

/* wsel_ring_fast_pick_rr (the round-robin pick with a caller's cursor), inline as
 * above. */
WSEL_RING_INLINE int wsel_ring_fast_pick_rr_inline(wsel_ring_fast *f, uint32_t *cursor,
                                                bool cache_only, wsel_ring_view_pick *out,
                                                wsel_error *err)
{
    if (f && cursor && out) {
        uint32_t c = *cursor, s; /* read first, as the handle above */
        const wsel_ring_fast_view *v = wsel_ring_fast_published(f);
        if (__builtin_expect(c - 1u < v->n &&
                                 (s = wsel_ring_fast_view_quick(v, c, cache_only, out)) != 0,
                             1)) {
            *cursor = s == v->n ? 1 : s + 1;
            return WSEL_OK;
        }
    }
    return wsel_ring_fast_pick_rr(f, cursor, cache_only, out, err);
}

#ifdef __cplusplus
}
#endif
#endif
