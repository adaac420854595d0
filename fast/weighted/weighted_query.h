/* The query path shared by every fast variant, written once and instantiated in each
 * kernel file with that file's kernel so the compiler inlines it (the kernel files are
 * built with different instruction-set flags, so this cannot be one shared function). */
#ifndef WSEL_FAST_WEIGHTED_QUERY_H
#define WSEL_FAST_WEIGHTED_QUERY_H

#include <string.h>

#include "weighted_fast.h"
#include "../../core/prng_internal.h"

#if defined(__GNUC__)
#define WSEL__ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define WSEL__ALWAYS_INLINE inline
#endif

/* A variant's take from the default generator (core/prng_internal.h,
 * core/prng_avx2.h): the same words and generator state as wsel_prng_fill(), padded. */
typedef void (*wsel__prng_take_fn)(wsel_prng *p, uint64_t *w, size_t n);

/* The query's words: the default generator's inline take when rng is that generator
 * (no call through a pointer), else the source's own take or fill. */
static WSEL__ALWAYS_INLINE void wsel__draw(wsel_rng *rng, uint64_t *w, size_t n,
                                           wsel__prng_take_fn take)
{
    wsel_prng *p = wsel__prng_of(rng);
    if (p)
        take(p, w, n);
    else
        wsel__rng_take(rng, w, n);
}

/* INCLUDE word by word: the scalar kernel's, and the SIMD kernels' for sets of fewer
 * than 4 words, which are mostly copied from the generator's buffer one store per word:
 * a vector load of them cannot be forwarded from those stores and waits for them.
 * Word i is above its threshold when w[i] > (thr[i] ^ bias) as unsigned numbers; those
 * bits are gathered from the last word down, four words per step, by shifts of fixed
 * width (no shift by a variable count, no loop test per word). */
static inline unsigned wsel__above(const uint64_t *thr, const uint64_t *w, uint32_t i)
{
    return (thr[i] ^ WSEL__BIAS64) < w[i];
}

static inline uint64_t wsel__include_words(const uint64_t *thr, const uint64_t *w, uint32_t n)
{
    uint64_t gt = 0;
    uint32_t i = n;
    for (; i % 4; i--)
        gt = gt << 1 | wsel__above(thr, w, i - 1);
    for (; i; i -= 4)
        gt = gt << 4 | wsel__above(thr, w, i - 1) << 3 | wsel__above(thr, w, i - 2) << 2 |
             wsel__above(thr, w, i - 3) << 1 | wsel__above(thr, w, i - 4);
    return ~gt & wsel__low_bits(n);
}

/* A variant's primitives. CHOOSE: the index whose biased prefix sum first exceeds u.
 * INCLUDE: the mask of words at or below their thresholds (n <= 64). emit: the indices of
 * the set bits of mask, plus base, in ascending order; returns how many. pick: for each
 * group in gm, CHOOSE one address with that group's word (w[g]); returns how many. */
typedef uint32_t (*wsel__choose_fn)(const wsel__snap *s, uint64_t u);
typedef uint64_t (*wsel__include_fn)(const uint64_t *thr, const uint64_t *w, uint32_t n);
typedef uint32_t (*wsel__emit_fn)(uint16_t *items, uint64_t mask, uint32_t base);
typedef uint32_t (*wsel__pick_fn)(const wsel__snap *s, const uint64_t *w, uint64_t gm,
                                  uint16_t *items);

/* A variant's CHOOSE within group g of a grouped-multi set: the index, counted from the
 * group's first address, whose biased prefix sum first exceeds u. */
typedef uint32_t (*wsel__in_group_fn)(const wsel__snap *s, uint32_t g, uint64_t u);

/* A SIMD variant's compare of 8 biased prefix sums p[0..7] with ub (u with the bias of
 * fast.h): bit i set when p[i] > ub. */
typedef unsigned (*wsel__gt8_fn)(const uint32_t *p, int32_t ub);

static inline int32_t wsel__bias_u(uint64_t u)
{
    return (int32_t)((uint32_t)u ^ WSEL__BIAS32);
}

/* CHOOSE in the top layer (<= 64 members) by 8-wide compares: pre8 names the block of 8
 * first, then one compare inside it -- two compares whatever the width. */
static WSEL__ALWAYS_INLINE uint32_t wsel__choose_top8(const wsel__snap *s, uint64_t u,
                                                      wsel__gt8_fn gt8)
{
    int32_t ub = wsel__bias_u(u);
    uint32_t b = s->n > 8 ? 8 * (uint32_t)__builtin_ctz(gt8(s->pre8, ub)) : 0;
    return b + (uint32_t)__builtin_ctz(gt8(s->pre + b, ub));
}

/* CHOOSE within group g by 8-wide compares, via the group's block summary when it has
 * more than 8 addresses. Lanes past the group's end (the next group's sums) come after
 * its last sum, which exceeds u. */
static WSEL__ALWAYS_INLINE uint32_t wsel__choose_in_group8(const wsel__snap *s, uint32_t g,
                                                           uint64_t u, wsel__gt8_fn gt8)
{
    int32_t ub = wsel__bias_u(u);
    uint32_t b = 0;
    if (s->gcount[g] > 8)
        b = 8 * (uint32_t)__builtin_ctz(gt8(s->gpre8 + 8 * g, ub));
    return b + (uint32_t)__builtin_ctz(gt8(s->ipre + s->gfirst[g] + b, ub));
}

/* pick, one group at a time: each group in gm, in order, CHOOSEs with its own word w[g]
 * scaled to the group's weight. Always inlined with a constant in_group. */
static WSEL__ALWAYS_INLINE uint32_t wsel__pick_each(const wsel__snap *s, const uint64_t *w,
                                                    uint64_t gm, uint16_t *items,
                                                    wsel__in_group_fn in_group)
{
    uint32_t c = 0;
    while (gm) {
        uint32_t g = (uint32_t)__builtin_ctzll(gm);
        gm &= gm - 1;
        items[c++] = (uint16_t)(s->gfirst[g] + in_group(s, g, wsel__mulhi(w[g], s->gsum[g])));
    }
    return c;
}

/* One halving of a branch-free binary search over non-decreasing biased prefix sums:
 * k (the sums known <= ub) advances by step when the step's last sum is <= ub too. The
 * step is added under a mask, not chosen by `?:`, which compilers may turn into a
 * branch: on random words that branch is mispredicted half the time. */
static WSEL__ALWAYS_INLINE uint32_t wsel__halve(const uint32_t *pre, uint32_t k, uint32_t step,
                                                int32_t ub)
{
    return k + (step & (0u - (uint32_t)((int32_t)pre[k + step - 1] <= ub)));
}

/* pick, one group at a time, by a binary search of h halvings (h == s->gshift, a
 * constant once inlined) in the group's row of spre: no bound to check, the row's
 * padding is never <= u. */
static WSEL__ALWAYS_INLINE uint32_t wsel__pick_rows_h(const wsel__snap *s, const uint64_t *w,
                                                      uint64_t gm, uint16_t *items, unsigned h)
{
    uint32_t c = 0;
    while (gm) {
        uint32_t g = (uint32_t)__builtin_ctzll(gm);
        gm &= gm - 1;
        const uint32_t *row = s->spre + ((size_t)g << h);
        int32_t ub = wsel__bias_u(wsel__mulhi(w[g], s->gsum[g]));
        uint32_t k = 0;
        switch (h) {
        case 6: k = wsel__halve(row, k, 32, ub); /* fall through */
        case 5: k = wsel__halve(row, k, 16, ub); /* fall through */
        case 4: k = wsel__halve(row, k, 8, ub); /* fall through */
        case 3: k = wsel__halve(row, k, 4, ub); /* fall through */
        case 2: k = wsel__halve(row, k, 2, ub); /* fall through */
        case 1: k = wsel__halve(row, k, 1, ub); /* fall through */
        default: break;
        }
        items[c++] = (uint16_t)(s->gfirst[g] + k);
    }
    return c;
}

/* pick by row search, the halvings' count taken out of the loop over groups. */
static WSEL__ALWAYS_INLINE uint32_t wsel__pick_rows(const wsel__snap *s, const uint64_t *w,
                                                    uint64_t gm, uint16_t *items)
{
    switch (s->gshift) {
    case 0: return wsel__pick_rows_h(s, w, gm, items, 0);
    case 1: return wsel__pick_rows_h(s, w, gm, items, 1);
    case 2: return wsel__pick_rows_h(s, w, gm, items, 2);
    case 3: return wsel__pick_rows_h(s, w, gm, items, 3);
    case 4: return wsel__pick_rows_h(s, w, gm, items, 4);
    case 5: return wsel__pick_rows_h(s, w, gm, items, 5);
    default: return wsel__pick_rows_h(s, w, gm, items, 6);
    }
}

/* One set's decisions, in the contract's word order, written once for every variant.
 * Always inlined with constant primitives, so each variant compiles to straight code. */
static WSEL__ALWAYS_INLINE void wsel__kernel_with(const wsel__snap *s, const uint64_t *w,
                                                  wsel_set_answer *out,
                                                  wsel__choose_fn choose_top,
                                                  wsel__include_fn include_mask,
                                                  wsel__emit_fn emit, wsel__pick_fn pick)
{
    switch (s->mode) {
    case WSEL_MODE_CNAME:
    case WSEL_MODE_UNGROUPED_SINGLE:
        out->items[0] = (uint16_t)choose_top(s, wsel__mulhi(w[0], s->total));
        out->count = 1;
        return;
    case WSEL_MODE_UNGROUPED_MULTI:
        out->count = (uint8_t)emit(out->items, include_mask(s->thr, w, s->n) & s->nz, 0);
        return;
    case WSEL_MODE_GROUPED_SINGLE: {
        uint32_t g = choose_top(s, wsel__mulhi(w[0], s->total));
        uint32_t first = s->gfirst[g];
        uint64_t m = include_mask(s->ithr + first, w + 1, s->gcount[g]) & s->gnz[g];
        out->count = (uint8_t)emit(out->items, m, first);
        return;
    }
    case WSEL_MODE_GROUPED_MULTI:
        out->count = (uint8_t)pick(s, w + s->n, include_mask(s->thr, w, s->n) & s->nz,
                                   out->items);
        return;
    default:
        out->count = 0;
        return;
    }
}

typedef void (*wsel__set_kernel)(const wsel__snap *s, const uint64_t *w,
                                 wsel_set_answer *out);

/* The published snapshot of `res`, or NULL when res is not one of the resolver's
 * resources (another config's, or a copied struct: refused, not misread). */
static WSEL__ALWAYS_INLINE const wsel__rsnap *wsel__rsnap_of(const wsel_resolver *r,
                                                             const wsel_resource *res)
{
    if (res->index >= r->n_res)
        return NULL;
    const wsel__rsnap *rs = atomic_load_explicit(&r->snaps[res->index], memory_order_acquire);
    return rs->res == res ? rs : NULL;
}

/* The answer's per-set and overall TTL and failed flag, straight from the snapshots
 * (precomputed at sync time): the head rs holds ready, plus the second set's own; what
 * is left to a query is each set's items. */
static WSEL__ALWAYS_INLINE void wsel__answer_head(const wsel__rsnap *rs, wsel_answer *ans)
{
    memcpy(ans, rs->head, sizeof rs->head);
    if (rs->n_sets == 2) {
        ans->set[1].ttl = rs->set[1].ttl;
        ans->set[1].failed = rs->set[1].failed;
    }
}

/* Every query but the short path's: the words into an array, then each set's kernel. */
static WSEL__ALWAYS_INLINE int wsel__answer_with(const wsel__rsnap *rs, wsel_rng *rng,
                                                 wsel_answer *ans,
                                                 wsel__set_kernel kern,
                                                 wsel__prng_take_fn take)
{
    const wsel__snap *s0 = &rs->set[0];
    uint64_t w[WSEL_WORDS_MAX + WSEL_RNG_SLACK];
    wsel__draw(rng, w, rs->words, take);
    wsel__answer_head(rs, ans);
    kern(s0, w, &ans->set[0]);
    if (rs->n_sets == 2)
        kern(&rs->set[1], w + s0->words, &ans->set[1]);
    return WSEL_OK;
}

/* A variant's refill of the default generator's empty buffer (one block of four words,
 * pos 0), and its query path past the short one. */
typedef void (*wsel__prng_refill_fn)(wsel_prng *p);
typedef int (*wsel__answer_fn)(const wsel__rsnap *rs, wsel_rng *rng, wsel_answer *ans);

/* The short path's answer: the next word of the generator's buffer (pos < 4), the head
 * copied, one CHOOSE. */
static WSEL__ALWAYS_INLINE int wsel__answer_choose1(const wsel__rsnap *rs, wsel_prng *p,
                                                    wsel_answer *ans,
                                                    wsel__choose_fn choose_top)
{
    uint64_t w = p->buf[p->pos++];
    const wsel__snap *s = &rs->set[0];
    memcpy(ans, rs->head, sizeof rs->head);
    ans->set[0].items[0] = (uint16_t)choose_top(s, wsel__mulhi(w, s->total));
    return WSEL_OK;
}

/* The short path when the buffer is empty (one query in four): refill, then answer.
 * A variant whose refill is a call keeps this out of line, so that the other three
 * queries, which call nothing, pay no frame (saved registers) for it. */
typedef int (*wsel__refilled_fn)(const wsel__rsnap *rs, wsel_prng *p, wsel_answer *ans);

/* A variant's entry point. The commonest query, one CHOOSE with one word of the default
 * generator (single and CNAME sets: rs->choose1), is answered here with no word array and
 * no stack frame: the word straight from the generator's buffer, the head copied, one
 * CHOOSE. Everything else goes to `rest`, which the variant keeps out of line so that
 * its frame (the word array, saved registers) is not paid by the short path; an empty
 * buffer goes to `refilled` when the variant gives one, else is refilled here. */
static WSEL__ALWAYS_INLINE int wsel__query_with(const wsel_resolver *r,
                                                const wsel_resource *res, wsel_rng *rng,
                                                wsel_answer *ans, wsel__choose_fn choose_top,
                                                wsel__prng_refill_fn refill,
                                                wsel__refilled_fn refilled,
                                                wsel__answer_fn rest)
{
    const wsel__rsnap *rs = wsel__rsnap_of(r, res);
    if (!rs)
        return WSEL_E_ARG;
    wsel_prng *p;
    if (rs->choose1 && (p = wsel__prng_of(rng)) != NULL) {
        if (p->pos >= 4) {
            if (refilled)
                return refilled(rs, p, ans);
            refill(p);
        }
        return wsel__answer_choose1(rs, p, ans, choose_top);
    }
    return rest(rs, rng, ans);
}

#if defined(__GNUC__)
#define WSEL__NOINLINE __attribute__((noinline))
#else
#define WSEL__NOINLINE
#endif

/* The entry point of a variant with no path of its own past the short one: defines
 * `int query(r, res, rng, ans)` answering with the primitives given (see
 * wsel__kernel_with), the generator's take and refill. C has no
 * templates, and each kernel file must instantiate the query path with its own
 * instruction-set flags: this is that instantiation, written once. */
#define WSEL__GROUPWISE_VARIANT(query, choose_top, include_mask, emit, pick, take, refill)   \
    static WSEL__ALWAYS_INLINE void query##_kernel(const wsel__snap *s, const uint64_t *w,   \
                                                   wsel_set_answer *out)                     \
    {                                                                                        \
        wsel__kernel_with(s, w, out, choose_top, include_mask, emit, pick);                  \
    }                                                                                        \
    static WSEL__NOINLINE int query##_rest(const wsel__rsnap *rs, wsel_rng *rng,             \
                                           wsel_answer *ans)                                 \
    {                                                                                        \
        return wsel__answer_with(rs, rng, ans, query##_kernel, take);                        \
    }                                                                                        \
    static WSEL__NOINLINE int query##_refilled(const wsel__rsnap *rs, wsel_prng *p,          \
                                               wsel_answer *ans)                             \
    {                                                                                        \
        refill(p);                                                                           \
        return wsel__answer_choose1(rs, p, ans, choose_top);                                 \
    }                                                                                        \
    int query(const wsel_resolver *r, const wsel_resource *res, wsel_rng *rng,               \
              wsel_answer *ans)                                                              \
    {                                                                                        \
        return wsel__query_with(r, res, rng, ans, choose_top, refill, query##_refilled,      \
                                query##_rest);                                               \
    }

#endif
