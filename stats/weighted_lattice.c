/* The lattice family: an equidistributed word stream, under which the random-word
 * contract fixes the count of every single-word decision to within one. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "families.h"
#include "kit/kit.h"
#include "kit/kit_weighted.h"

/* ---- the equidistributed word stream ---- */

typedef struct lat_rng {
    uint64_t t, W;
    unsigned logn;
    uint64_t mult[WSEL_WORDS_MAX], off[WSEL_WORDS_MAX];
} lat_rng;

/* Query q's word j is (q * mult[j] mod 2^logn) * 2^(64-logn) + off[j]: over 2^logn
 * queries each word position takes every point of an evenly spaced grid exactly once,
 * so each single-word decision lands on its outcome within one of N * odds. */
static void lat_fill(void *ctx, uint64_t *out, size_t n)
{
    lat_rng *L = ctx;
    uint64_t mask = (1ull << L->logn) - 1;
    for (size_t i = 0; i < n; i++, L->t++) {
        uint64_t q = L->t / L->W, j = L->t % L->W;
        uint64_t k = (q * L->mult[j]) & mask;
        out[i] = (k << (64 - L->logn)) + L->off[j];
    }
}

__extension__ typedef unsigned __int128 u128;

static bool lattice_ok(uint64_t cnt, uint64_t N, const wsel_prob *p)
{
    if (p->exact && p->den) {
        /* |cnt - N num/den| < 1  <=>  |cnt*den - N*num| < den, in 128 bits */
        u128 a = (u128)cnt * p->den, b = (u128)N * p->num;
        u128 d = a > b ? a - b : b - a;
        return d < p->den;
    }
    long double e = (long double)N * p->p;
    return fabsl((long double)cnt - e) < 1.0L + 1e-6L;
}

void lattice_run(const char *prefix, const wsel_resolver *rv, const wsel_resource *res,
                        const wsel_state *st, const wsel_odds *od, unsigned logn, uint64_t seed)
{
    test *t = test_new(F_LATTICE, "%s lattice", prefix);
    lat_rng *L = stats_xcalloc(1, sizeof *L);
    L->W = wsel_resource_words(res);
    L->logn = logn;
    if (L->W == 0 || L->W > WSEL_WORDS_MAX) {
        test_violation(t, "wsel_resource_words = %llu", (unsigned long long)L->W);
        free(L);
        return;
    }
    for (uint64_t j = 0; j < L->W; j++) {
        L->mult[j] = wsel_kit_mix64(seed ^ (j * 0x632be59bd9b4e019u)) | 1;
        L->off[j] = wsel_kit_mix64(seed + j) >> logn;
    }
    wsel_rng rng = { lat_fill, L, NULL };
    uint64_t N = 1ull << logn;
    uint64_t *cnt[2];
    for (uint32_t s = 0; s < od->n_sets; s++) {
        const wsel_set *set = od->sets[s].set;
        cnt[s] = stats_xcalloc(set->n_items > set->n_groups ? set->n_items : set->n_groups, sizeof *cnt[s]);
    }
    wsel_answer ans;
    for (uint64_t q = 0; q < N; q++) {
        memset(&ans, 0, sizeof ans);
        int rc = stats_resolve(rv, res, st, &rng, &ans);
        if (rc != WSEL_OK) {
            test_violation(t, "resolve returned %d", rc);
            break;
        }
        if (L->t != (q + 1) * L->W) {
            test_violation(t, "query %llu consumed %llu words; the contract says %llu",
                           (unsigned long long)q, (unsigned long long)(L->t - q * L->W),
                           (unsigned long long)L->W);
            L->t = (q + 1) * L->W;
        }
        if (ans.n_sets != od->n_sets)
            continue;
        for (uint32_t s = 0; s < od->n_sets; s++) {
            const wsel_set *set = od->sets[s].set;
            const wsel_set_answer *sa = &ans.set[s];
            for (unsigned k = 0; k < sa->count && k < WSEL_ANSWER_MAX; k++) {
                uint32_t idx = sa->items[k];
                if (idx >= set->n_items)
                    continue;
                if (set->grouped) {
                    if (k == 0 || set->mode == WSEL_MODE_GROUPED_MULTI)
                        cnt[s][set->items[idx].group]++;
                } else {
                    cnt[s][idx]++;
                }
            }
        }
    }
    char lb[160];
    for (uint32_t s = 0; s < od->n_sets; s++) {
        const wsel_set *set = od->sets[s].set;
        const wsel_set_odds *so = &od->sets[s];
        bool groups = set->grouped;
        size_t n = groups ? set->n_groups : set->n_items;
        for (size_t i = 0; i < n; i++) {
            const wsel_prob *p = groups ? &so->group_p[i] : &so->item_p[i];
            const char *name = groups ? set->groups[i].label : stats_item_label(set, (uint32_t)i, lb, sizeof lb);
            test_row(t, "%s%s | %llu | %.3Lf", set->stanza ? set->stanza : "", name,
                     (unsigned long long)cnt[s][i], (long double)N * p->p);
            if (!lattice_ok(cnt[s][i], N, p))
                test_violation(t, "%s%s%s: %llu of %llu equidistributed queries; exact odds give %.3Lf",
                               set->stanza ? set->stanza : "", set->stanza ? ":" : "", name,
                               (unsigned long long)cnt[s][i], (unsigned long long)N,
                               (long double)N * p->p);
        }
        free(cnt[s]);
    }
    free(L);
}


