/* Portable kernel: the layout of fast.h with plain 64-bit integer code. Also the
 * fallback every other variant must agree with bit for bit. */
#include "weighted_query.h"

/* One halving of a branch-free binary search over non-decreasing biased prefix sums:
 * k (the sums known <= u) advances by step when the step's last sum is <= u too. */
static inline uint32_t halve(const uint32_t *pre, uint32_t k, uint32_t step, int32_t ub)
{
    uint32_t t = k + step;
    return (int32_t)pre[t - 1] <= ub ? t : k;
}

/* The top layer: up to 64 prefix sums, padded to 72 with sums never <= u, so the search
 * (6 halvings, 3 when n <= 8) needs no bound: one compare per halving instead of one per
 * prefix sum. */
static WSEL__ALWAYS_INLINE uint32_t choose_top(const wsel__snap *s, uint64_t u)
{
    int32_t ub = (int32_t)((uint32_t)u ^ WSEL__BIAS32);
    uint32_t k = 0;
    if (s->n > 8) {
        k = halve(s->pre, k, 32, ub);
        k = halve(s->pre, k, 16, ub);
        k = halve(s->pre, k, 8, ub);
    }
    k = halve(s->pre, k, 4, ub);
    k = halve(s->pre, k, 2, ub);
    return halve(s->pre, k, 1, ub);
}

static uint32_t emit(uint16_t *items, uint64_t mask, uint32_t base)
{
    uint32_t count = 0;
    while (mask) {
        items[count++] = (uint16_t)(base + (uint32_t)__builtin_ctzll(mask));
        mask &= mask - 1;
    }
    return count;
}

/* Grouped-multi's second layer: a binary search over group g's prefix sums (steps gstep
 * .. 1, which cover the largest group); a probe past the group's last sum, which exceeds
 * u, is clamped to it, so the search never reads the next group's sums. */
static uint32_t choose_in_group(const wsel__snap *s, uint32_t g, uint64_t u)
{
    int32_t ub = (int32_t)((uint32_t)u ^ WSEL__BIAS32);
    const uint32_t *pre = s->ipre + s->gfirst[g];
    uint32_t last = s->gcount[g] - 1, k = 0;
    for (uint32_t step = s->gstep; step; step >>= 1) {
        uint32_t j = k + step - 1;
        k = (int32_t)pre[j < last ? j : last] <= ub ? k + step : k;
    }
    return k;
}

WSEL__GROUPWISE_VARIANT(wsel__query_scalar, choose_top, wsel__include_words, emit,
                        choose_in_group, wsel__prng_take_portable, wsel__prng_refill_portable)
