/* Internal interface of the fast engine: the per-set snapshot that kernels read, and
 * the kernel variants. Not installed.
 *
 * A snapshot is immutable once published. Everything a query needs is precomputed by
 * the writer (fast/weighted/weighted_prepare.c) so a kernel does one multiply per CHOOSE and one compare
 * per INCLUDE, and never looks at the config or the state. */
#ifndef WSEL_FAST_H
#define WSEL_FAST_H

#include <stdalign.h>
#include <stdatomic.h>
#include <stddef.h>

#include "../../core/weighted/weighted_resolver.h"

/* Comparisons are done on biased values (x ^ sign bit) so that the signed compares
 * SSE2/AVX2 offer order them as unsigned numbers; the scalar kernel uses the same
 * representation so every variant reads one layout. */
#define WSEL__BIAS32 0x80000000u
#define WSEL__BIAS64 0x8000000000000000u

/* Padding past the last used slot of each array, so kernels may load whole vectors. */
#define WSEL__PAD32 8u
#define WSEL__PAD64 8u

typedef struct wsel__snap {
    const wsel_set *set;        /* what the snapshot was built for (checked per query) */
    uint32_t mode;              /* wsel_mode */
    uint32_t ttl;               /* smallest combined TTL over the set */
    bool failed;                /* up_thresh reset happened */
    uint32_t words;             /* words a query on this set consumes */
    uint32_t n;                 /* top-layer width: items (ungrouped) or groups */
    uint32_t total;             /* D of the top CHOOSE (cname/ungrouped-single/grouped-single) */
    uint64_t nz;                /* top INCLUDE layer: members whose weight is not 0 */
    uint64_t version;           /* wsel_state_set_version() it was built from */
    uint32_t gmax;              /* grouped sets: largest group's size */
    uint32_t gstep;             /* grouped sets: largest power of two <= gmax - 1 (0 when
                                   gmax is 1): a CHOOSE within any group is a binary search
                                   of steps gstep, gstep / 2, .. 1 */

    /* Top layer (<= 64 members: items of ungrouped sets, groups of grouped sets). */
    alignas(32) uint32_t pre[WSEL_MAX_ITEMS + WSEL__PAD32]; /* CHOOSE: biased prefix sums,
                                                                padded to the end: never <= u */
    alignas(32) uint32_t pre8[8];   /* pre[8k + 7]: which block of 8 holds the CHOOSE index */
    alignas(32) uint64_t thr[WSEL_MAX_ITEMS + WSEL__PAD64]; /* INCLUDE: biased thresholds
                                                                t = ceil(d*2^64/M) - 1 */
    /* Grouped sets: group g holds items gfirst[g] .. gfirst[g]+gcount[g]-1. */
    uint32_t gfirst[WSEL_MAX_ITEMS];
    uint32_t gcount[WSEL_MAX_ITEMS];
    uint32_t gsum[WSEL_MAX_ITEMS];   /* G_g: dynamic sum of group g */
    uint64_t gnz[WSEL_MAX_ITEMS];    /* grouped-single: bit j = item gfirst[g]+j has d > 0 */
    /* Grouped-multi sets of 3..8 groups of <= 8 addresses (`small`): tpre[j][g] is the
     * biased prefix sum of address j of group g (padding where j >= its size), so one
     * vector compare per address position serves all groups at once. */
    bool small;
    alignas(32) uint32_t tpre[8][8];
    /* Grouped sets, per flat item (n_items + padding): */
    uint32_t *ipre;             /* grouped-multi: biased prefix sums within the item's group */
    uint64_t *ithr;             /* grouped-single: biased thresholds vs. the group's max */
    uint32_t *gpre8;            /* grouped-multi with a group > 8: per group, 8 entries
                                   ipre[first + 8k + 7] (padded): names the block of 8 */
    /* Grouped-multi: one row of 2^gshift entries per group (gshift = number of halvings
     * of the in-group binary search: 0 when gmax is 1, else log2(gstep) + 1, so the row
     * holds the largest group), rows for a whole number of blocks of 8 groups: the
     * group's biased prefix sums, then padding never <= u. A search probes its own row
     * only (no clamp to the group's end); the scalar pick and AVX2's 8-group searches. */
    uint32_t gshift;
    uint32_t *spre;
} wsel__snap;

/* Fills *s for `set` from `st` (s is overwritten); false when out of memory. */
bool wsel__snap_fill(wsel__snap *s, const wsel_set *set, const wsel_state *st);
/* Frees what wsel__snap_fill allocated (not s itself). */
void wsel__snap_fini(wsel__snap *s);

/* What one query reads: the snapshots of all sets of one resource, published together
 * so that a query never mixes two syncs. */
struct wsel__rsnap {
    const wsel_resource *res;
    uint32_t n_sets;
    uint32_t words;             /* wsel_resource_words(res) */
    bool choose1;               /* one set, one word, one CHOOSE (cname, ungrouped-single):
                                   the short query path of weighted_query.h */
    /* The answer's head as a query writes it: n_sets, overall TTL and failed flag, the
     * first set's TTL and failed flag, and count 1 (the one CHOOSE's; other kernels
     * overwrite it). Copied whole, so a query fills these fields with two stores. */
    alignas(16) unsigned char head[offsetof(wsel_answer, set[0].items)];
    wsel__snap set[];           /* n_sets entries */
};


/* The variants' query paths (core/weighted/weighted_variant.h); the SIMD ones exist only where
 * WSEL__HAVE_SSE2 / WSEL__HAVE_AVX2 say so. */
int wsel__query_scalar(const wsel_resolver *r, const wsel_resource *res, wsel_rng *rng,
                       wsel_answer *ans);
int wsel__query_sse2(const wsel_resolver *r, const wsel_resource *res, wsel_rng *rng,
                     wsel_answer *ans);
int wsel__query_avx2(const wsel_resolver *r, const wsel_resource *res, wsel_rng *rng,
                     wsel_answer *ans);

/* The fast engine's resolver ops (fast/weighted/weighted_snapshots.c). */
extern const wsel__engine_ops wsel__fast_ops;

/* Bit-index expansion: entry b lists the positions of the set bits of byte b, in order.
 * Shared by the SIMD kernels to turn a 64-bit include mask into item indices. */
extern const uint8_t wsel__bit_pos[256][8];

/* floor(w * m / 2^64) from four 32 x 32-bit products, for compilers without a 128-bit
 * integer (defined everywhere, so that tests hold it against the 128-bit product). */
static inline uint64_t wsel__mulhi_portable(uint64_t w, uint64_t m)
{
    uint64_t wl = w & 0xffffffffu, wh = w >> 32, ml = m & 0xffffffffu, mh = m >> 32;
    uint64_t ll = wl * ml, lh = wl * mh, hl = wh * ml, hh = wh * mh;
    uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
    return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}

/* floor(w * m / 2^64): the CHOOSE map of the random-word contract. */
static inline uint64_t wsel__mulhi(uint64_t w, uint64_t m)
{
#if defined(__SIZEOF_INT128__)
    __extension__ typedef unsigned __int128 u128;
    return (uint64_t)(((u128)w * m) >> 64);
#else
    return wsel__mulhi_portable(w, m);
#endif
}

/* Mask of the low n bits, n in 0..64. */
static inline uint64_t wsel__low_bits(uint32_t n)
{
    return n >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << n) - 1);
}

#endif
