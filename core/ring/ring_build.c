/* The ring's batch build (doc/ring.md section 2, "The batch build"): the redistributions
 * 5.2.3 makes while it adds the hosts given at construction one by one, replayed on
 * arrays. The hosts are appended without redistributing; then, for each add in turn, the
 * counts of section 5 are taken over the addresses present at that add (skipping those
 * that get no slot, as ring_model.c's redistribution does), surplus slots dropped in
 * iteration order onto the free stack and deficits filled from its top -- exactly the
 * moves of the one-by-one build, but each address's slots are a plain array, so a move is
 * two array accesses instead of a walk through the wheel's linked lists. The wheel and
 * the lists are written once, at the end.
 *
 * The counts of one add do not depend on any other add's (only the moves are ordered),
 * so the counts of LANES consecutive adds (8) are taken together, their serial
 * floating-point chains side by side in vector lanes (each lane does exactly the scalar
 * operations, IEEE double, in the same order), then each add's moves are made in turn. */
#include <stdlib.h>

#include "../internal.h"
#include "ring_model.h"

/* An address's slots in the order it acquired them (how many: replay.have). */
typedef struct slots {
    uint32_t *s;
    uint32_t cap;
} slots;

typedef struct replay {
    wsel_ring *r;
    uint32_t *w, *have;         /* per address: weight, slots held */
    uint32_t *cnt;              /* LANES rows of naddr: the counts of a group of adds */
    uint64_t *wsum;             /* [i]: the weight of the addresses before i */
    size_t *short_;             /* the addresses below their count, in order, */
    uint32_t *want;             /* ... their counts */
    size_t nshort;              /* ... and how many */
    slots *st;
    uint32_t nfree;             /* the free stack (r->free) holds this many */
    bool lanes;                 /* every weight is at least 1: count_lanes may run */
    size_t held;                /* no address before it holds a slot */
} replay;

/* Address i's slots above `keep` onto the free stack fr (of *nf), most recent first. */
static inline void drop(replay *p, size_t i, uint32_t keep, uint32_t *fr, uint32_t *nf)
{
    uint32_t n = p->have[i], f = *nf, k = n - keep;
    const uint32_t *s = p->st[i].s + keep;
    for (uint32_t j = 0; j < k; j++)
        fr[f + j] = s[k - 1 - j];
    p->have[i] = keep;
    *nf = f + k;
}

/* The adds replayed together, in vectors of two doubles (the GNU vector extension of gcc
 * and clang; SSE2 registers on x86-64), each operation exact as its scalar form. */
#define LANES 8
typedef double v2d __attribute__((vector_size(16)));
typedef int32_t v2i __attribute__((vector_size(8)));

/* One add of a group: its addresses [from, end) are counted, its counts go to row. */
typedef struct step {
    size_t from, end;
    uint32_t *row;  /* row[i - from]: the count of address i */
    double L, W;    /* the chain: slots and weight left */
} step;

/* ring_model.c's first_counted for the add that leaves `end` addresses with largest
 * weight wmax: the first address whose weight from it on (up to end), times 999, is at
 * most T -- by bisection over the prefix sums. */
static size_t first_counted(const replay *p, size_t end, uint32_t wmax)
{
    const uint64_t *ws = p->wsum;
    size_t lo = 0, from = end;
    while (lo < from) {
        size_t mid = lo + (from - lo) / 2;
        if (wsel__ring_uncounted(ws[end] - ws[mid], wmax, p->r->n))
            from = mid;
        else
            lo = mid + 1;
    }
    return from;
}

/* Section 5's counts of step t for addresses [a, b), one by one. */
static void count_one(const replay *p, step *t, size_t a, size_t b)
{
    double W = t->W;
    uint32_t L = (uint32_t)t->L;
    for (size_t i = a; i < b; i++) {
        uint32_t c = wsel__ring_share(L, p->w[i], W);
        t->row[i - t->from] = c;
        L -= c;
        W -= p->w[i];
    }
    t->W = W;
    t->L = L;
}

/* The counts of LANES steps for addresses [a, b), which each of them counts: lane k
 * makes count_one's operations for step k, two lanes to a vector. Every weight is at
 * least 1 here, so the weight left is never 0 (wsel__ring_share's special case). */
static void count_lanes(const replay *p, step *t, size_t a, size_t b)
{
    enum { V = LANES / 2 };
    v2d L[V], W[V];
    const v2d eps = {0.0001, 0.0001};
    uint32_t *row[LANES];
    size_t f[LANES];
    for (int k = 0; k < V; k++) {
        L[k] = (v2d){t[2 * k].L, t[2 * k + 1].L};
        W[k] = (v2d){t[2 * k].W, t[2 * k + 1].W};
    }
    for (int k = 0; k < LANES; k++) {
        row[k] = t[k].row;
        f[k] = t[k].from;
    }
    for (size_t i = a; i < b; i++) {
        double wi = (double)p->w[i];
        v2d w = {wi, wi};
#pragma GCC unroll 4
        for (int k = 0; k < V; k++) {
            v2d x = L[k] * (w / W[k]); /* separate statements: never fused */
            x = x + eps;
            v2i c = __builtin_convertvector(x, v2i); /* below 2^25: as the uint32_t cast */
            row[2 * k][i - f[2 * k]] = (uint32_t)c[0];
            row[2 * k + 1][i - f[2 * k + 1]] = (uint32_t)c[1];
            L[k] = L[k] - __builtin_convertvector(c, v2d);
            W[k] = W[k] - w;
        }
    }
    for (int k = 0; k < V; k++) {
        t[2 * k].L = L[k][0];
        t[2 * k + 1].L = L[k][1];
        t[2 * k].W = W[k][0];
        t[2 * k + 1].W = W[k][1];
    }
}

/* The counts of n (1..LANES) steps with non-decreasing ends: each starts its chain at
 * its first counted address; where all of them count, in lanes. */
static void count_steps(const replay *p, step *t, int n)
{
    size_t F = 0, E = t[0].end;
    for (int k = 0; k < n; k++) {
        t[k].L = p->r->n;
        t[k].W = (double)(p->wsum[t[k].end] - p->wsum[t[k].from]);
        F = t[k].from > F ? t[k].from : F;
    }
    if (n < LANES || F >= E || !p->lanes) {
        for (int k = 0; k < n; k++)
            count_one(p, &t[k], t[k].from, t[k].end);
        return;
    }
    for (int k = 0; k < n; k++)
        count_one(p, &t[k], t[k].from, F);
    count_lanes(p, t, F, E);
    for (int k = 0; k < n; k++)
        count_one(p, &t[k], E, t[k].end);
}

/* Section 5's pass 1 for step t, whose counts are known: the addresses from `held` up to
 * its first counted drop everything, the counted ones their surplus, in order; those
 * left short are noted for pass 2. Runs of addresses whose count is what they hold are
 * passed over four at a time. */
static void drop_step(replay *p, const step *t)
{
    uint32_t *fr = p->r->free, nf = p->nfree;
    for (size_t i = p->held < t->from ? p->held : t->from; i < t->from; i++)
        if (p->have[i])
            drop(p, i, 0, fr, &nf);
    const uint32_t *row = t->row, *hv = p->have + t->from;
    size_t m = t->end - t->from;
    for (size_t j = 0; j < m;) {
        if (j + 4 <= m && !((row[j] ^ hv[j]) | (row[j + 1] ^ hv[j + 1]) |
                            (row[j + 2] ^ hv[j + 2]) | (row[j + 3] ^ hv[j + 3]))) {
            j += 4;
            continue;
        }
        uint32_t c = row[j];
        if (hv[j] > c) {
            drop(p, t->from + j, c, fr, &nf);
        } else if (hv[j] < c) {
            p->short_[p->nshort] = t->from + j;
            p->want[p->nshort++] = c;
        }
        j++;
    }
    p->nfree = nf;
    p->held = t->from;
    wsel__ring_cost_add(WSEL__RING_COUNTED, m);
}

/* Pass 2: the addresses below their count, in order, from the top of the free stack;
 * false when out of memory. */
static bool fill(replay *p)
{
    const uint32_t *fr = p->r->free;
    uint32_t nf = p->nfree;
    for (size_t k = 0; k < p->nshort && nf > 0; k++) {
        size_t i = p->short_[k];
        slots *a = &p->st[i];
        uint32_t want = p->want[k], n = p->have[i];
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
        uint32_t take = want - n < nf ? want - n : nf;
        uint32_t *s = a->s + n;
        const uint32_t *top = fr + nf - take;
        for (uint32_t j = 0; j < take; j++)
            s[j] = top[take - 1 - j];
        p->have[i] = n + take;
        nf -= take;
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
        const uint32_t *s = p->st[i].s;
        for (uint32_t k = 0; k < p->have[i]; k++)
            wsel__ring_slot_push(r, a, s[k]);
        a->target = p->have[i];
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
    p.have = calloc(na, sizeof *p.have);
    p.want = malloc(na * sizeof *p.want);
    p.cnt = malloc(na * LANES * sizeof *p.cnt);
    p.wsum = malloc((na + 1) * sizeof *p.wsum);
    p.short_ = malloc(na * sizeof *p.short_);
    p.st = calloc(na, sizeof *p.st);
    bool ok = p.w && p.have && p.want && p.cnt && p.wsum && p.short_ && p.st;
    if (ok)
        p.wsum[0] = 0;
    p.lanes = true;
    for (size_t i = 0; ok && i < r->naddr; i++) {
        p.w[i] = r->addr[i]->weight;
        p.wsum[i + 1] = p.wsum[i] + p.w[i];
        p.lanes = p.lanes && p.w[i] > 0;
    }
    step t[LANES];
    size_t done = 0;
    uint32_t wmax = 0;
    for (size_t j = 0; ok && j < nsteps;) {
        int n = 0;
        for (; n < LANES && j < nsteps; j++) {
            size_t end = ends[j];
            if (end == done)
                continue; /* an add that brought no address changes no count */
            for (; done < end; done++)
                wmax = p.w[done] > wmax ? p.w[done] : wmax;
            t[n].end = end;
            t[n].from = first_counted(&p, end, wmax);
            t[n].row = p.cnt + (size_t)n * na;
            n++;
        }
        count_steps(&p, t, n);
        for (int k = 0; ok && k < n; k++) {
            drop_step(&p, &t[k]);
            ok = fill(&p);
        }
    }
    if (ok)
        materialize(&p);
    for (size_t i = 0; p.st && i < r->naddr; i++)
        free(p.st[i].s);
    free(p.st);
    free(p.short_);
    free(p.wsum);
    free(p.cnt);
    free(p.want);
    free(p.have);
    free(p.w);
    return ok ? WSEL_OK
              : wsel__fail(err, WSEL_E_NOMEM, NULL, 0, 0, NULL, NULL, NULL, "ring: out of memory");
}
