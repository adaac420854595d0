/* Portable kernel: the layout of fast.h with plain 64-bit integer code. Also the
 * fallback every other variant must agree with bit for bit. */
#include "weighted_query.h"

/* Number of biased prefix sums <= u among pre[0..n-1] (non-decreasing): the index the
 * CHOOSE rule picks. A branch-free count: a binary search's branches are coin flips. */
static uint32_t count_le(const uint32_t *pre, uint32_t n, uint64_t u)
{
    int32_t ub = (int32_t)((uint32_t)u ^ WSEL__BIAS32);
    uint32_t c = 0;
    for (uint32_t i = 0; i < n; i++)
        c += (int32_t)pre[i] <= ub;
    return c;
}

/* The top layer: pre8 first names the block of 8 holding the index. */
static uint32_t choose_top(const wsel__snap *s, uint64_t u)
{
    uint32_t b = s->n > 8 ? 8 * count_le(s->pre8, 8, u) : 0;
    return b + count_le(s->pre + b, 8, u);
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

/* Grouped-multi's second layer: prefix sums within group g, 8 at a time. */
static uint32_t choose_in_group(const wsel__snap *s, uint32_t g, uint64_t u)
{
    uint32_t count = s->gcount[g], b = 0;
    if (count > 8)
        b = 8 * count_le(s->gpre8 + 8 * g, 8, u);
    count -= b;
    return b + count_le(s->ipre + s->gfirst[g] + b, count < 8 ? count : 8, u);
}

WSEL__GROUPWISE_VARIANT(wsel__query_scalar, choose_top, wsel__include_words, emit,
                        choose_in_group, wsel__prng_take_portable)
