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

/* The first free slot at or after s, cyclically: next[] links each taken slot towards
 * the following one, and the path is compressed on the way back, so probing a long run
 * of taken slots costs about one step instead of the run's length (same slot as 5.2.3's
 * one-by-one probe). */
static uint32_t first_free(uint32_t *next, uint32_t s)
{
    uint32_t root = s;
    while (next[root] != root)
        root = next[root];
    while (next[s] != root) {
        uint32_t up = next[s];
        next[s] = root;
        s = up;
    }
    return root;
}

int wsel_ring_default_order(uint32_t n, uint32_t *out, wsel_error *err)
{
    if (n < 1 || n > WSEL_RING_MAX_SLOTS || !out)
        return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, NULL, NULL, NULL,
                          "ring: wheel size %u outside 1..%u", n, WSEL_RING_MAX_SLOTS);
    const gsl_rng_type *t = gsl_rng_mt19937;
    void *state = malloc(t->size);
    uint32_t *next = malloc(((size_t)n + 1) * sizeof *next);
    if (!state || !next) {
        free(state);
        free(next);
        return wsel__fail(err, WSEL_E_NOMEM, NULL, 0, 0, NULL, NULL, NULL,
                          "ring: out of memory for the order list");
    }
    for (uint32_t s = 1; s <= n; s++)
        next[s] = s; /* free */
    t->set(state, RING_MT_SEED);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t s = first_free(next, (uint32_t)floor(res53(t, state) * (double)n) + 1);
        next[s] = s == n ? 1 : s + 1; /* taken: probing goes on forward, wrapping */
        out[i] = s;
    }
    free(next);
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
