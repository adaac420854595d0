/* An independent model of strict-mode slot counts (doc/ring.md section 8, "Strict
 * mode"), written from the document, never from core/ring/ring_model.c: the tests require the
 * engine's count of every address after every redistribution to equal this one's.
 *
 * The text, step by step (integers only: q = N w / W is kept as its floor N w div W
 * and its remainder N w mod W):
 *   touched: new, being removed (weight 0 here) or weight changed since the last
 *   redistribution; dW: the touched addresses' change of weight in sum (a new address
 *   changes by its weight, a removed one by minus its previous weight);
 *   ranges: touched [floor q, ceil q]; untouched by the sign of dW;
 *   every address starts at the bottom of its range; unassigned slots go one each to
 *   the largest remainders (ties: iteration order) among those below their top;
 *   what the ranges cannot absorb is split by weight among the touched addresses that
 *   keep weight (the untouched when there is none), by the largest-remainder method;
 *   when the bottoms hold more than N, the touched give way, then the untouched give
 *   back what they were raised above their count, each in iteration order.
 * The last two rules were made precise in the document (decision 17) when this model
 * first met the engine: its first reading cut an excess by smallest remainders and
 * handed a leftover round by the first stage's remainders, where the text had said only
 * "the touched give way first" and "by largest remainders"; the model now follows the
 * document's exact wording. */
#include <stdlib.h>

#include "kit.h"

typedef struct sm_rank {
    size_t i;
    uint64_t rem;
} sm_rank;

/* largest remainder first, ties in iteration order */
static int sm_by_rem(const void *x, const void *y)
{
    const sm_rank *a = x, *b = y;
    if (a->rem != b->rem)
        return a->rem > b->rem ? -1 : 1;
    return a->i < b->i ? -1 : a->i > b->i;
}

static bool sm_touched(const wsel_kit_strict_addr *a)
{
    return a->fresh || a->weight == 0 || a->weight != a->prev_weight;
}

/* Fills rank[] with the addresses `pick` accepts, in largest-remainder order. */
static size_t sm_rank_of(const wsel_kit_strict_addr *a, size_t na, uint64_t N, uint64_t W,
                         int pick, const uint32_t *lo, const uint32_t *hi, sm_rank *rank)
{
    size_t k = 0;
    for (size_t i = 0; i < na; i++) {
        bool t = sm_touched(&a[i]), in;
        switch (pick) {
        case 0: in = lo[i] < hi[i]; break;               /* below the top of its range */
        case 1: in = t && a[i].weight > 0; break;        /* touched, keeps weight */
        default: in = !t && a[i].weight > 0; break;      /* 2: untouched */
        }
        if (in)
            rank[k++] = (sm_rank){i, N * a[i].weight % W};
    }
    qsort(rank, k, sizeof *rank, sm_by_rem);
    return k;
}

const char *wsel_kit_ring_strict_counts(uint32_t n, const wsel_kit_strict_addr *a, size_t na,
                                        uint32_t *out, unsigned *path)
{
    uint64_t N = n, W = 0;
    int64_t dW = 0;
    *path = 0;
    for (size_t i = 0; i < na; i++) {
        W += a[i].weight;
        if (sm_touched(&a[i]))
            dW += (int64_t)a[i].weight - (a[i].fresh ? 0 : (int64_t)a[i].prev_weight);
    }
    for (size_t i = 0; i < na; i++)
        out[i] = 0;
    if (W == 0 || na == 0)
        return NULL;
    uint32_t *lo = calloc(na, sizeof *lo), *hi = calloc(na, sizeof *hi);
    sm_rank *rank = calloc(na, sizeof *rank);
    if (!lo || !hi || !rank) {
        free(lo);
        free(hi);
        free(rank);
        return "out of memory";
    }
    uint64_t sum = 0;
    for (size_t i = 0; i < na; i++) {
        uint32_t f = (uint32_t)(N * a[i].weight / W);
        uint32_t ce = f + (N * a[i].weight % W != 0), c = a[i].count;
        if (sm_touched(&a[i])) {
            lo[i] = f;
            hi[i] = ce;
        } else if (dW > 0) {
            lo[i] = c < f ? c : f;
            hi[i] = c < ce ? c : ce;
        } else if (dW < 0) {
            lo[i] = c > f ? c : f;
            hi[i] = c > ce ? c : ce;
        } else {
            lo[i] = hi[i] = c;
        }
        out[i] = lo[i];
        sum += lo[i];
    }
    if (sum <= N) {
        uint64_t rest = N - sum;
        size_t k = sm_rank_of(a, na, N, W, 0, lo, hi, rank);
        for (size_t j = 0; j < k && rest; j++, rest--)
            out[rank[j].i]++;
        if (rest) {
            *path |= WSEL_KIT_STRICT_LEFTOVER;
            int pick = 1;
            k = sm_rank_of(a, na, N, W, pick, lo, hi, rank);
            if (!k) {
                *path |= WSEL_KIT_STRICT_TO_UNTOUCHED;
                k = sm_rank_of(a, na, N, W, pick = 2, lo, hi, rank);
            }
            /* the rest split by weight among them, by the largest-remainder method */
            uint64_t Wg = 0, given = 0;
            for (size_t j = 0; j < k; j++)
                Wg += a[rank[j].i].weight;
            for (size_t j = 0; j < k; j++) {
                out[rank[j].i] += (uint32_t)(rest * a[rank[j].i].weight / Wg);
                given += rest * a[rank[j].i].weight / Wg;
            }
            k = sm_rank_of(a, na, rest, Wg, pick, lo, hi, rank); /* remainders rest w mod Wg */
            for (size_t j = 0; given < rest; j++, given++)
                out[rank[j].i]++;
        }
    } else {
        /* the touched give way in iteration order, each down to 0 if need be, then the
         * untouched give back what they were raised above their count, in iteration
         * order (any further and a slot would go to another untouched address) */
        uint64_t excess = sum - N;
        *path |= WSEL_KIT_STRICT_EXCESS;
        for (int pass = 0; pass < 2; pass++)
            for (size_t i = 0; i < na && excess; i++) {
                if (sm_touched(&a[i]) != (pass == 0))
                    continue;
                uint32_t keep = pass == 0 ? 0 : a[i].count;
                while (out[i] > keep && excess) {
                    out[i]--;
                    excess--;
                }
            }
    }
    free(lo);
    free(hi);
    free(rank);
    return NULL;
}
