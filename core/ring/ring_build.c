/* The ring's batch build (doc/ring.md section 2, "The batch build"): the redistributions
 * 5.2.3 makes while it adds the hosts given at construction one by one, replayed on
 * arrays. The hosts are appended without redistributing; then, for each add in turn, the
 * counts of section 5 are taken over the addresses present at that add (skipping those
 * that get no slot, as ring_model.c's redistribution does), surplus slots dropped in
 * iteration order onto the free stack and deficits filled from its top -- exactly the
 * moves of the one-by-one build, but each address's slots are a plain array, so a move is
 * two array accesses instead of a walk through the wheel's linked lists. The wheel and
 * the lists are written once, at the end. */
#include <stdlib.h>

#include "../internal.h"
#include "ring_model.h"

/* An address's slots in the order it acquired them. */
typedef struct slots {
    uint32_t *s;
    uint32_t n, cap;
} slots;

typedef struct replay {
    wsel_ring *r;
    uint32_t *w, *target;       /* per address: weight, count of the add being replayed */
    uint64_t *wsum;             /* [i]: the weight of the addresses before i */
    size_t *short_;             /* the addresses below their count, in order, */
    size_t nshort;              /* ... and how many */
    slots *st;
    uint32_t nfree;             /* the free stack (r->free) holds this many */
    size_t held;                /* no address before it holds a slot */
    uint32_t wmax;              /* the largest weight of the addresses present */
} replay;

/* Address a's slots above `keep` onto the free stack fr (of *nf), most recent first. */
static inline void drop(slots *a, uint32_t keep, uint32_t *fr, uint32_t *nf)
{
    uint32_t n = a->n, f = *nf;
    const uint32_t *s = a->s;
    while (n > keep)
        fr[f++] = s[--n];
    a->n = n;
    *nf = f;
}

/* Section 5's pass 1 and counts for the addresses [0, end): returns the first counted. */
static size_t count_and_drop(replay *p, size_t end)
{
    wsel_ring *r = p->r;
    uint32_t *fr = r->free, nf = p->nfree;
    /* ring_model.c's first_counted: the first address whose weight from it on (up to
     * end), times 999, is at most T -- by bisection over the prefix sums */
    uint64_t *ws = p->wsum;
    size_t lo = 0, from = end;
    while (lo < from) {
        size_t mid = lo + (from - lo) / 2;
        if (wsel__ring_uncounted(ws[end] - ws[mid], p->wmax, r->n))
            from = mid;
        else
            lo = mid + 1;
    }
    uint64_t S = ws[end] - ws[from];
    for (size_t i = p->held < from ? p->held : from; i < from; i++)
        drop(&p->st[i], 0, fr, &nf);
    double W = (double)S;
    uint32_t L = r->n;
    for (size_t i = from; i < end; i++) {
        uint32_t c = wsel__ring_share(L, p->w[i], W);
        p->target[i] = c;
        L -= c;
        W -= p->w[i];
        if (p->st[i].n > c)
            drop(&p->st[i], c, fr, &nf);
        else if (p->st[i].n < c)
            p->short_[p->nshort++] = i;
    }
    p->nfree = nf;
    wsel__ring_cost_add(WSEL__RING_COUNTED, end - from);
    return from;
}

/* Pass 2: the addresses below their count, in order; false when out of memory. */
static bool fill(replay *p)
{
    const uint32_t *fr = p->r->free;
    uint32_t nf = p->nfree;
    for (size_t k = 0; k < p->nshort && nf > 0; k++) {
        slots *a = &p->st[p->short_[k]];
        uint32_t want = p->target[p->short_[k]];
        if (want > a->cap) {
            uint32_t cap = a->cap * 2 > want ? a->cap * 2 : want;
            uint32_t *s = realloc(a->s, (size_t)cap * sizeof *s);
            if (!s) {
                p->nfree = nf;
                return false;
            }
            a->s = s;
            a->cap = cap;
        }
        uint32_t n = a->n;
        uint32_t *s = a->s;
        while (n < want && nf > 0)
            s[n++] = fr[--nf];
        a->n = n;
    }
    p->nfree = nf;
    p->nshort = 0;
    return true;
}

/* Writes the replayed slot lists into the wheel (every slot was free before). */
static void materialize(replay *p)
{
    wsel_ring *r = p->r;
    for (size_t i = 0; i < r->naddr; i++) {
        wsel__raddr *a = r->addr[i];
        const slots *st = &p->st[i];
        for (uint32_t k = 0; k < st->n; k++)
            wsel__ring_slot_push(r, a, st->s[k]);
        a->target = st->n;
        a->settled = true;
        a->prev_weight = a->weight;
    }
    r->held = p->held;
    r->nfree = p->nfree;
}

int wsel__ring_replay(wsel_ring *r, const size_t *ends, size_t nsteps, wsel_error *err)
{
    size_t na = r->naddr ? r->naddr : 1;
    replay p = {.r = r, .nfree = r->nfree};
    p.w = malloc(na * sizeof *p.w);
    p.target = malloc(na * sizeof *p.target);
    p.wsum = malloc((na + 1) * sizeof *p.wsum);
    p.short_ = malloc(na * sizeof *p.short_);
    p.st = calloc(na, sizeof *p.st);
    bool ok = p.w && p.target && p.wsum && p.short_ && p.st;
    if (ok)
        p.wsum[0] = 0;
    for (size_t i = 0; ok && i < r->naddr; i++) {
        p.w[i] = r->addr[i]->weight;
        p.wsum[i + 1] = p.wsum[i] + p.w[i];
    }
    for (size_t j = 0, done = 0; ok && j < nsteps; j++) {
        size_t end = ends[j];
        if (end == done)
            continue; /* an add that brought no address changes no count */
        for (; done < end; done++)
            p.wmax = p.w[done] > p.wmax ? p.w[done] : p.wmax;
        p.held = count_and_drop(&p, end);
        ok = fill(&p);
    }
    if (ok)
        materialize(&p);
    for (size_t i = 0; p.st && i < r->naddr; i++)
        free(p.st[i].s);
    free(p.st);
    free(p.short_);
    free(p.wsum);
    free(p.target);
    free(p.w);
    return ok ? WSEL_OK
              : wsel__fail(err, WSEL_E_NOMEM, NULL, 0, 0, NULL, NULL, NULL, "ring: out of memory");
}
