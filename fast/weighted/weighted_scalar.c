/* Portable kernel: the layout of fast.h with plain 64-bit integer code. Also the
 * fallback every other variant must agree with bit for bit. */
#include "weighted_query.h"

/* The top layer: up to 64 prefix sums, padded to 72 with sums never <= u, so the search
 * (6 halvings, 3 when n <= 8) needs no bound: one compare per halving instead of one per
 * prefix sum. */
static WSEL__ALWAYS_INLINE uint32_t choose_top(const wsel__snap *s, uint64_t u)
{
    int32_t ub = (int32_t)((uint32_t)u ^ WSEL__BIAS32);
    uint32_t k = 0;
    if (s->n > 8) {
        k = wsel__halve(s->pre, k, 32, ub);
        k = wsel__halve(s->pre, k, 16, ub);
        k = wsel__halve(s->pre, k, 8, ub);
    }
    k = wsel__halve(s->pre, k, 4, ub);
    k = wsel__halve(s->pre, k, 2, ub);
    return wsel__halve(s->pre, k, 1, ub);
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

/* Grouped-multi's second layer: each included group's binary search in its row of
 * spre (weighted_query.h). */
static uint32_t pick(const wsel__snap *s, const uint64_t *w, uint64_t gm, uint16_t *items)
{
    return wsel__pick_rows(s, w, gm, items);
}

WSEL__GROUPWISE_VARIANT(wsel__query_scalar, choose_top, wsel__include_words, emit, pick,
                        wsel__prng_take_portable, wsel__prng_refill_portable)
