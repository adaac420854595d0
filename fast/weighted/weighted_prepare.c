/* Writer side of the fast engine: turns a set and the current monitoring state into an
 * immutable snapshot (dynamic weights after the up_thresh reset, prefix sums for CHOOSE,
 * 64-bit thresholds for INCLUDE). Runs at resolver creation and in wsel_resolver_sync. */
#include <stdlib.h>
#include <string.h>

#include "weighted_fast.h"

/* t = ceil(d * 2^64 / m) - 1 = floor((d * 2^64 - 1) / m) for 0 < d <= m < 2^32, so that
 * "word <= t" is exactly the contract's "word * m < d * 2^64". Long division in 32-bit
 * digits keeps it exact without a 128-bit type; the quotient fits 64 bits since d <= m. */
static uint64_t include_threshold(uint64_t d, uint64_t m)
{
    if (d == 0)
        return 0;
    uint64_t rem = d - 1; /* top digit (d-1) < m: its quotient digit is 0 */
    uint64_t cur = (rem << 32) | 0xffffffffu;
    uint64_t q1 = cur / m;
    rem = cur % m;
    cur = (rem << 32) | 0xffffffffu;
    uint64_t q0 = cur / m;
    return (q1 << 32) | q0;
}

static void fill_prefix(uint32_t *pre, const uint64_t *d, uint32_t n, uint32_t pad)
{
    uint64_t sum = 0;
    for (uint32_t i = 0; i < n; i++) {
        sum += d[i];
        pre[i] = (uint32_t)sum ^ WSEL__BIAS32;
    }
    for (uint32_t i = 0; i < pad; i++)
        pre[n + i] = UINT32_MAX ^ WSEL__BIAS32;
}

static void fill_top_prefix(wsel__snap *s, const uint64_t *d)
{
    fill_prefix(s->pre, d, s->n, WSEL_MAX_ITEMS + WSEL__PAD32 - s->n);
    for (uint32_t k = 0; k < 8; k++)
        s->pre8[k] = s->pre[8 * k + 7];
}

static uint64_t fill_thresholds(uint64_t *thr, const uint64_t *d, uint32_t n)
{
    uint64_t m = 0, nz = 0;
    for (uint32_t i = 0; i < n; i++)
        if (d[i] > m)
            m = d[i];
    for (uint32_t i = 0; i < n; i++) {
        thr[i] = include_threshold(d[i], m) ^ WSEL__BIAS64;
        if (d[i])
            nz |= (uint64_t)1 << i;
    }
    return nz;
}

void wsel__snap_fini(wsel__snap *s)
{
    free(s->ipre);
    free(s->ithr);
    free(s->gpre8);
    free(s->spre);
    s->ipre = NULL;
    s->ithr = NULL;
    s->gpre8 = NULL;
    s->spre = NULL;
}

/* The dynamic weights d[] of the set's items under st, after any up_thresh reset, and
 * the snapshot's TTL and failed flag. */
static void dyn_weights(wsel__snap *s, const wsel_set *set, const wsel_state *st, uint64_t *d)
{
    uint32_t ttl = WSEL_MAX_TTL;
    uint64_t sum = 0;
    for (uint32_t i = 0; i < set->n_items; i++) {
        wsel_mstate ms = wsel_state_item(st, set, &set->items[i]);
        d[i] = ms.up ? set->items[i].weight : 0;
        sum += d[i];
        if (ms.ttl < ttl)
            ttl = ms.ttl;
    }
    s->ttl = ttl;
    if (sum < set->threshold) {
        s->failed = true;
        for (uint32_t i = 0; i < set->n_items; i++)
            d[i] = set->items[i].weight;
    }
}

/* Ungrouped sets: one layer of items, INCLUDE thresholds (multi) or CHOOSE prefix
 * sums. */
static void fill_ungrouped(wsel__snap *s, const wsel_set *set, const uint64_t *d)
{
    s->n = set->n_items;
    if (set->mode == WSEL_MODE_UNGROUPED_MULTI) {
        s->words = set->n_items;
        s->nz = fill_thresholds(s->thr, d, s->n);
        return;
    }
    s->words = 1;
    fill_top_prefix(s, d);
    for (uint32_t i = 0; i < s->n; i++)
        s->total += (uint32_t)d[i];
}

/* Grouped sets: each group's place, size and dynamic sum (gd[g]); the largest size. */
static void fill_groups(wsel__snap *s, const wsel_set *set, const uint64_t *d, uint64_t *gd)
{
    uint32_t max_count = 0;
    s->n = set->n_groups;
    for (uint32_t g = 0; g < s->n; g++) {
        const wsel_group *grp = &set->groups[g];
        s->gfirst[g] = grp->first;
        s->gcount[g] = grp->count;
        if (grp->count > max_count)
            max_count = grp->count;
        uint64_t gs = 0;
        for (uint32_t j = 0; j < grp->count; j++)
            gs += d[grp->first + j];
        s->gsum[g] = (uint32_t)gs;
        gd[g] = gs;
    }
    s->gmax = max_count;
    s->gstep = max_count > 1 ? 1u << (31 - __builtin_clz(max_count - 1)) : 0;
    s->gshift = s->gstep ? (uint32_t)__builtin_ctz(s->gstep) + 1 : 0;
}

/* Grouped-single: CHOOSE a group, then INCLUDE each of its addresses against the
 * group's largest weight. False when out of memory. */
static bool fill_grouped_single(wsel__snap *s, uint32_t n_items, const uint64_t *d,
                                const uint64_t *gd)
{
    s->words = 1 + s->gmax;
    fill_top_prefix(s, gd);
    for (uint32_t g = 0; g < s->n; g++)
        s->total += s->gsum[g];
    s->ithr = malloc((n_items + WSEL__PAD64) * sizeof *s->ithr);
    if (!s->ithr)
        return false;
    memset(s->ithr + n_items, 0, WSEL__PAD64 * sizeof *s->ithr);
    for (uint32_t g = 0; g < s->n; g++)
        s->gnz[g] = fill_thresholds(s->ithr + s->gfirst[g], d + s->gfirst[g], s->gcount[g]);
    return true;
}

/* Grouped-multi: INCLUDE each group, then CHOOSE one address within it (prefix sums per
 * group, with the block and small-set tables the kernels use). False when out of
 * memory. */
static bool fill_grouped_multi(wsel__snap *s, uint32_t n_items, const uint64_t *d,
                               const uint64_t *gd)
{
    s->words = 2 * s->n;
    s->nz = fill_thresholds(s->thr, gd, s->n);
    s->ipre = malloc((n_items + WSEL__PAD32) * sizeof *s->ipre);
    if (!s->ipre)
        return false;
    for (uint32_t g = 0; g < s->n; g++)
        fill_prefix(s->ipre + s->gfirst[g], d + s->gfirst[g], s->gcount[g], 0);
    for (uint32_t i = 0; i < WSEL__PAD32; i++)
        s->ipre[n_items + i] = UINT32_MAX ^ WSEL__BIAS32;
    /* the search rows: 2^gshift entries per group, groups rounded up to a block of 8 */
    const size_t row = (size_t)1 << s->gshift, rows = (s->n + 7u) & ~7u;
    s->spre = malloc(rows * row * sizeof *s->spre);
    if (!s->spre)
        return false;
    for (size_t g = 0; g < rows; g++)
        for (size_t j = 0; j < row; j++)
            s->spre[g * row + j] = g < s->n && j < s->gcount[g]
                                       ? s->ipre[s->gfirst[g] + j] : UINT32_MAX ^ WSEL__BIAS32;
    /* the one-pass pick pays from 3 groups on; 1 or 2 are picked group by group */
    s->small = s->n >= 3 && s->n <= 8 && s->gmax <= 8;
    if (s->gmax > 8) {
        s->gpre8 = malloc((size_t)s->n * 8 * sizeof *s->gpre8);
        if (!s->gpre8)
            return false;
        for (uint32_t g = 0; g < s->n; g++)
            for (uint32_t k = 0; k < 8; k++)
                s->gpre8[8 * g + k] = 8 * k + 7 < s->gcount[g]
                                          ? s->ipre[s->gfirst[g] + 8 * k + 7]
                                          : UINT32_MAX ^ WSEL__BIAS32;
    }
    for (uint32_t j = 0; j < 8; j++)
        for (uint32_t g = 0; g < 8; g++)
            s->tpre[j][g] = s->small && g < s->n && j < s->gcount[g]
                                ? s->ipre[s->gfirst[g] + j] : UINT32_MAX ^ WSEL__BIAS32;
    return true;
}

bool wsel__snap_fill(wsel__snap *s, const wsel_set *set, const wsel_state *st)
{
    uint64_t *d = malloc((set->n_items ? set->n_items : 1) * sizeof *d);
    memset(s, 0, sizeof *s);
    if (!d)
        return false;
    s->set = set;
    s->mode = (uint32_t)set->mode;
    s->version = wsel_state_set_version(st, set);
    dyn_weights(s, set, st, d);
    bool ok = true;
    if (!set->grouped) {
        fill_ungrouped(s, set, d);
    } else {
        uint64_t gd[WSEL_MAX_ITEMS] = {0};
        fill_groups(s, set, d, gd);
        ok = set->mode == WSEL_MODE_GROUPED_SINGLE ? fill_grouped_single(s, set->n_items, d, gd)
                                                   : fill_grouped_multi(s, set->n_items, d, gd);
    }
    free(d);
    if (!ok)
        wsel__snap_fini(s);
    return ok;
}
