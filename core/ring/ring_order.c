/* The ring's order lists (doc/ring.md section 3): the default list from MT19937 and the
 * ranks of a given list. MT19937 is GSL's gsl_rng_mt19937, whose seeding is the
 * reference init_genrand; it is driven through its type's functions so that no GSL
 * error handler (which aborts by default) can run inside the library. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "../internal.h"
#include "ring_model.h"

#define RING_MT_SEED 158841259ul

/* genrand_res53: two 32-bit outputs a, b -> (a>>5 * 2^26 + b>>6) / 2^53, in [0,1). */
static double res53(const gsl_rng_type *t, void *state)
{
    double a = (double)(t->get(state) >> 5);
    double b = (double)(t->get(state) >> 6);
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

/* The free slots as bits (slot s is bit s-1 of the words in `bits`), with a summary bit
 * per word that still has a free slot: the next free slot at or after s, cyclically, is
 * found 64 slots per step within a word and 64 words per step across them (the same slot
 * as 5.2.3's step-by-step probe, which walks forward over taken slots, wrapping N -> 1). */
typedef struct freebits {
    uint64_t *bits, *sum;
    uint32_t nw, nsum; /* words of each */
} freebits;

/* The first nonzero word of w[from..n), or n when none. */
static uint32_t next_word(const uint64_t *w, uint32_t from, uint32_t n)
{
    for (uint32_t i = from; i < n; i++)
        if (w[i])
            return i;
    return n;
}

/* The first word at or after word k (cyclically) that still has a free slot. */
static uint32_t free_word(const freebits *f, uint32_t k)
{
    uint32_t j = k >> 6;
    uint64_t m = f->sum[j] & (~UINT64_C(0) << (k & 63));
    if (!m) {
        j = next_word(f->sum, j + 1, f->nsum);
        if (j == f->nsum)
            j = next_word(f->sum, 0, f->nsum); /* wraps; never empty while a slot is free */
        m = f->sum[j];
    }
    return (j << 6) + (uint32_t)__builtin_ctzll(m);
}

/* Takes the first free slot at or after slot s (1-based) and returns it. */
static uint32_t take_free(freebits *f, uint32_t s)
{
    uint32_t b = s - 1, k = b >> 6;
    uint64_t m = f->bits[k] & (~UINT64_C(0) << (b & 63));
    if (!m) {
        k = free_word(f, k + 1 == f->nw ? 0 : k + 1);
        m = f->bits[k];
    }
    b = (k << 6) + (uint32_t)__builtin_ctzll(m);
    f->bits[k] &= ~(UINT64_C(1) << (b & 63));
    if (!f->bits[k])
        f->sum[k >> 6] &= ~(UINT64_C(1) << (k & 63));
    return b + 1;
}

int wsel_ring_default_order(uint32_t n, uint32_t *out, wsel_error *err)
{
    if (n < 1 || n > WSEL_RING_MAX_SLOTS || !out)
        return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, NULL, NULL, NULL,
                          "ring: wheel size %u outside 1..%u", n, WSEL_RING_MAX_SLOTS);
    const gsl_rng_type *t = gsl_rng_mt19937;
    freebits f = {.nw = (n + 63) / 64};
    f.nsum = (f.nw + 63) / 64;
    void *state = malloc(t->size);
    f.bits = malloc(((size_t)f.nw + f.nsum) * sizeof *f.bits);
    if (!state || !f.bits) {
        free(state);
        free(f.bits);
        return wsel__fail(err, WSEL_E_NOMEM, NULL, 0, 0, NULL, NULL, NULL,
                          "ring: out of memory for the order list");
    }
    f.sum = f.bits + f.nw;
    for (uint32_t k = 0; k < f.nw; k++) /* every slot free, no bit past slot n */
        f.bits[k] = k + 1 < f.nw || n % 64 == 0 ? ~UINT64_C(0) : (UINT64_C(1) << (n % 64)) - 1;
    for (uint32_t j = 0; j < f.nsum; j++)
        f.sum[j] = j + 1 < f.nsum || f.nw % 64 == 0 ? ~UINT64_C(0)
                                                     : (UINT64_C(1) << (f.nw % 64)) - 1;
    t->set(state, RING_MT_SEED);
    for (uint32_t i = 0; i < n; i++) /* r * n >= 0, so truncating is the floor */
        out[i] = take_free(&f, (uint32_t)(res53(t, state) * (double)n) + 1);
    free(f.bits);
    free(state);
    return WSEL_OK;
}

typedef struct vi {
    double v;
    uint32_t i;
} vi;

static int cmp_vi(const void *pa, const void *pb)
{
    const vi *a = pa, *b = pb;
    if (a->v != b->v)
        return a->v < b->v ? -1 : 1;
    return a->i < b->i ? -1 : a->i > b->i;
}

int wsel__ring_ranks(const double *v, uint32_t n, uint32_t *out, wsel_error *err)
{
    vi *s = malloc((size_t)n * sizeof *s);
    if (!s)
        return wsel__fail(err, WSEL_E_NOMEM, NULL, 0, 0, NULL, NULL, NULL,
                          "ring: out of memory for the order list");
    for (uint32_t i = 0; i < n; i++) {
        if (!isfinite(v[i])) {
            free(s);
            return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, NULL, "order", NULL,
                              "ring: 'order' entry %u is not a finite number", i + 1);
        }
        s[i].v = v[i];
        s[i].i = i;
    }
    qsort(s, n, sizeof *s, cmp_vi);
    for (uint32_t k = 0; k < n; k++) {
        if (k > 0 && s[k].v == s[k - 1].v) {
            uint32_t a = s[k - 1].i + 1, b = s[k].i + 1;
            free(s);
            return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, NULL, "order", NULL,
                              "ring: the 'order' list contains duplicates (entries %u and %u)",
                              a, b);
        }
        out[s[k].i] = k + 1;
    }
    free(s);
    return WSEL_OK;
}
