/* One add + remove pair (doc/ring.md section 13), for callgrind and for a same-run timing:
 * the bench's change fixture (bench/ring_cases.c: a 10 000-slot wheel of 50 IP-literal
 * hosts 10.0.x.y of weights 1..100 drawn from seed 17, given at construction), then PAIRS
 * times: add host 10.250.0.1:80 weight 30, remove it; with engine `fast` each change is
 * followed by a sync and a reclaim, as in the bench.
 *
 * Engine `floor` is what any exact implementation of 5.2.3's redistribution must do for
 * the same pair, with nothing around it: from the same wheel (copied from the ring), each
 * change one pass of counts over the 51 addresses (section 5's floating-point chain) and
 * the same slot moves, each address's slots a plain array used as a stack, the wheel an
 * array of owner numbers; no host, no resolving, no journal, no view to publish.
 *
 *   ring-change-perf ref|fast|floor PAIRS          (run under callgrind twice with two
 *                                                    pair counts; make ring-change-perf)
 *   ring-change-perf ref|fast|floor PAIRS REPS     prints the least thread CPU time per
 *                                                    pair over REPS runs of PAIRS pairs
 * Not part of the library. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "wsel.h"
#include "kit/kit.h"

enum { HOSTS = 50, SLOTS = 10000, EXTRA_WEIGHT = 30 };

/* The floor's state: address i's slots st[i][0..n[i]) in acquisition order. */
typedef struct floor_ring {
    uint32_t w[HOSTS + 1], n[HOSTS + 1], naddr;
    uint32_t *st[HOSTS + 1];
    uint32_t fr[SLOTS], nf;
    uint8_t wheel[SLOTS + 1];   /* owner number + 1, 0: free */
} floor_ring;

/* 5.2.3's redistribution over the first naddr addresses (doc/ring.md section 5), the
 * stacks' ends in locals. */
static void floor_redistribute(floor_ring *g)
{
    uint32_t c[HOSTS + 1], L = SLOTS, nf = g->nf, before = nf, *fr = g->fr;
    uint8_t *wheel = g->wheel;
    double W = 0;
    for (uint32_t i = 0; i < g->naddr; i++)
        W += g->w[i];
    for (uint32_t i = 0; i < g->naddr; i++) {
        c[i] = W == 0 ? 0 : (uint32_t)((double)L * ((double)g->w[i] / W) + 0.0001);
        L -= c[i];
        W -= g->w[i];
        uint32_t n = g->n[i], want = c[i], *sl = g->st[i];
        while (n > want)
            fr[nf++] = sl[--n];
        g->n[i] = n;
    }
    for (uint32_t i = 0; i < g->naddr; i++) {
        uint32_t n = g->n[i], *sl = g->st[i];
        uint32_t k = c[i] > n ? c[i] - n : 0;
        uint8_t own = (uint8_t)(i + 1);
        k = k < nf ? k : nf;
        for (; k > 0; k--) {
            uint32_t s = fr[--nf];
            sl[n++] = s;
            wheel[s] = own;
        }
        g->n[i] = n;
    }
    for (uint32_t k = before; k < nf; k++)
        wheel[fr[k]] = 0;
    g->nf = nf;
}

/* The floor's copy of ring r: its addresses in iteration order, their slots in the order
 * they took them (its free stack is empty: every slot is owned while there is weight). */
static floor_ring *floor_new(const wsel_ring *r)
{
    floor_ring *g = calloc(1, sizeof *g);
    if (!g || wsel_ring_address_count(r) != HOSTS)
        return NULL;
    for (uint32_t i = 0; i <= HOSTS; i++)
        if (!(g->st[i] = malloc(SLOTS * sizeof *g->st[i])))
            return NULL; /* (the driver exits) */
    for (uint32_t i = 0; i < HOSTS; i++) {
        wsel_ring_address a;
        wsel_ring_address_get(r, i, &a);
        g->w[i] = a.weight;
        g->n[i] = (uint32_t)a.n_slots;
        wsel_ring_address_slots(r, i, g->st[i]);
        for (uint32_t k = 0; k < g->n[i]; k++)
            g->wheel[g->st[i][k]] = (uint8_t)(i + 1);
    }
    g->w[HOSTS] = EXTRA_WEIGHT;
    g->naddr = HOSTS;
    return g;
}

static void floor_pair(floor_ring *g)
{
    g->naddr = HOSTS + 1; /* add */
    floor_redistribute(g);
    g->w[HOSTS] = 0;      /* remove: weight 0, one redistribution, then gone */
    floor_redistribute(g);
    g->naddr = HOSTS;
    g->w[HOSTS] = EXTRA_WEIGHT;
}

static double thread_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
    if (argc < 3 || argc > 4 ||
        (strcmp(argv[1], "ref") != 0 && strcmp(argv[1], "fast") != 0 &&
         strcmp(argv[1], "floor") != 0)) {
        fprintf(stderr, "usage: %s ref|fast|floor PAIRS [REPS]\n", argv[0]);
        return 2;
    }
    bool fast = strcmp(argv[1], "fast") == 0, flo = strcmp(argv[1], "floor") == 0;
    long pairs = atol(argv[2]), reps = argc == 4 ? atol(argv[3]) : 1;
    wsel_ring *r = wsel_kit_ring_bench(SLOTS, HOSTS);
    wsel_ring_fast *f = NULL;
    floor_ring *g = NULL;
    if (!r || (flo && !(g = floor_new(r))) || (fast && wsel_ring_fast_new(r, &f, NULL))) {
        fprintf(stderr, "ring-change-perf: could not build the ring\n");
        return 1;
    }
    int rc = 0;
    double best = 0;
    for (long k = 0; k < reps; k++) {
        double t0 = thread_ns();
        for (long i = 0; i < pairs; i++) {
            if (flo) {
                floor_pair(g);
                continue;
            }
            for (int add = 1; add >= 0; add--) {
                rc |= add ? wsel_ring_add_host(r, "10.250.0.1", 80, EXTRA_WEIGHT, NULL)
                          : wsel_ring_remove_host(r, "10.250.0.1", 80, NULL, NULL);
                if (fast) {
                    rc |= wsel_ring_fast_sync(f, NULL);
                    wsel_ring_fast_reclaim(f);
                }
            }
        }
        double t = (thread_ns() - t0) / (double)pairs;
        best = k == 0 || t < best ? t : best;
    }
    if (argc == 4)
        printf("%s: %.0f ns per add + remove pair (least of %ld runs of %ld)\n", argv[1], best,
               reps, pairs);
    wsel_ring_fast_free(f);
    wsel_ring_free(r);
    if (g)
        for (uint32_t i = 0; i <= HOSTS; i++)
            free(g->st[i]);
    free(g);
    if (rc)
        fprintf(stderr, "ring-change-perf: a change failed\n");
    return rc != 0;
}
