/* The ring balancer's benchmark matrix (doc/ring.md; issue 17's targets):
 *
 *   ring/<engine>/<operation>/<size>/<state>
 *
 * engine: ref (wsel_ring_pick on the ring), fast (wsel_ring_fast_pick on its published
 * view), floor (a plain slot -> address table lookup with the same key reduction: the
 * cost no engine can beat). operation: hash, float, rr, retry (one pick with one retry
 * counted) per iteration, in ns, each also as <op>-view for the fast engine's pick
 * without a copy (wsel_ring_fast_pick_view) and, keyed, as <op>-inline for the same
 * pick made inline in the loop (wsel_ring_fast_pick_view_inline, include/wsel/
 * ring_inline.h); rr-cursor: round-robin with the thread's own cursor
 * (wsel_ring_fast_pick_rr_inline). With /threads:2: two threads pick at once, each
 * with its own cursor (rr-cursor) or both moving the shared pointer (rr-view), beside
 * the floor's two threads (hash); the figure is the CPU time per pick of each thread.
 * add and remove (one host on a 10 000-slot wheel of 50
 * hosts; fast: the ring change plus the sync that publishes it, and a reclaim), in us;
 * pair (that add and that remove in one iteration, with no pause of the timer between);
 * build (a 65 536-slot wheel of 1000 hosts given at construction; fast: plus attaching
 * the engine), in ms.
 * size: wheel slots / hosts. state: up (every address available) or down25 (a quarter
 * of the hosts unavailable).
 *
 * Keys come from a fixed table of 4096 words drawn from the kit's splitmix, the same
 * for every engine. Fixtures are built on first use. */
#include "cases.h"
#include "shim.h"
#include "kit/kit.h"

#include <wsel.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RING_KEYS 4096u
#define RING_BATCH 64u

enum { RE_REF, RE_FAST, RE_FLOOR, RE_COUNT };
static const char *const re_names[RE_COUNT] = {"ref", "fast", "floor"};
/* The -view operations are the fast engine's picks without a copy
 * (wsel_ring_fast_pick_view: the address handed back as a pointer to the published
 * record); the others copy it into a wsel_ring_peer. */
/* The -inline operations make the view pick in the loop itself
 * (wsel_ring_fast_pick_view_inline and its retry, include/wsel/ring_inline.h); rr-cursor
 * is round-robin with the thread's own cursor (wsel_ring_fast_pick_rr_inline). */
enum {
    RO_HASH, RO_FLOAT, RO_RR, RO_RETRY,
    RO_HASH_VIEW, RO_FLOAT_VIEW, RO_RR_VIEW, RO_RETRY_VIEW,
    RO_HASH_INLINE, RO_FLOAT_INLINE, RO_RETRY_INLINE, RO_RR_CURSOR,
    RO_ADD, RO_REMOVE, RO_BUILD, RO_PAIR, RO_COUNT
};
static const char *const ro_names[RO_COUNT] = {
    "hash", "float", "rr", "retry",
    "hash-view", "float-view", "rr-view", "retry-view",
    "hash-inline", "float-inline", "retry-inline", "rr-cursor",
    "add", "remove", "build", "pair"};
/* The pick operations' plain form (their mode and retries) */
static const int ro_base[RO_ADD] = {
    RO_HASH, RO_FLOAT, RO_RR, RO_RETRY,
    RO_HASH, RO_FLOAT, RO_RR, RO_RETRY,
    RO_HASH, RO_FLOAT, RO_RETRY, RO_RR};

typedef struct ring_fx {
    uint32_t slots, hosts;
    bool down25;
    bool built, failed;
    wsel_ring *r;
    wsel_ring_fast *f;
    uint32_t *table;            /* floor: slot -> address index (0..hosts-1), [1..slots] */
    uint64_t keys[RING_KEYS];
    double ukeys[RING_KEYS];
} ring_fx;

typedef struct ring_case {
    char name[96];
    int engine, op;
    ring_fx *fx;
} ring_case;

/* A ring of `hosts` IP-literal hosts of weights 1..100, given at construction (5.2.3
 * adds them one by one, sorted; wsel replays those adds in a batch: doc/ring.md
 * section 2, "The batch build"): the kit's, shared with fast/ring/perf/. */
static wsel_ring *ring_make(uint32_t slots, uint32_t hosts)
{
    return wsel_kit_ring_bench(slots, hosts);
}

static bool fx_build(ring_fx *fx)
{
    if (fx->built)
        return !fx->failed;
    fx->built = true;
    fx->failed = true;
    if (!(fx->r = ring_make(fx->slots, fx->hosts)))
        return false;
    for (uint32_t i = 0; fx->down25 && i < fx->hosts; i += 4) {
        char name[32];
        wsel_kit_ring_bench_name(i, name, sizeof name);
        if (wsel_ring_set_host_status(fx->r, name, 80, false, NULL))
            return false;
    }
    if (wsel_ring_fast_new(fx->r, &fx->f, NULL))
        return false;
    fx->table = calloc((size_t)fx->slots + 1, sizeof *fx->table);
    if (!fx->table)
        return false;
    for (uint32_t s = 1; s <= fx->slots; s++) {
        long o = wsel_ring_owner(fx->r, s);
        fx->table[s] = o < 0 ? 0 : (uint32_t)o;
    }
    uint64_t st = 99;
    for (uint32_t i = 0; i < RING_KEYS; i++) {
        fx->keys[i] = wsel_kit_mix(&st);
        fx->ukeys[i] = wsel_kit_unit(fx->keys[i]);
    }
    fx->failed = false;
    return true;
}

/* The fixture built, once, whichever of a case's threads comes first. */
static bool fx_ensure(ring_fx *fx)
{
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&lock);
    bool ok = fx_build(fx);
    pthread_mutex_unlock(&lock);
    return ok;
}

/* The handle of a pick of operation op (or its view form) with key k. */
static inline __attribute__((always_inline)) wsel_ring_handle pick_handle(const ring_fx *fx, int op, uint32_t k)
{
    op = ro_base[op];
    return (wsel_ring_handle){.mode = op == RO_RR      ? WSEL_RING_RR
                                      : op == RO_FLOAT ? WSEL_RING_FLOAT
                                                       : WSEL_RING_HASH,
                              .hash = fx->keys[k],
                              .u = fx->ukeys[k],
                              .retries = op == RO_RETRY};
}

/* One pick of operation op with key k: 0 or an error. */
static int pick_one(const ring_case *c, uint32_t k, wsel_ring_peer *p)
{
    ring_fx *fx = c->fx;
    wsel_ring_handle h = pick_handle(fx, c->op, k);
    if (c->engine == RE_FAST)
        return wsel_ring_fast_pick(fx->f, &h, true, p, NULL);
    return wsel_ring_pick(fx->r, &h, true, p, NULL);
}

/* One view pick (fast engine) of operation op with key k: 0 or an error. */
static int view_one(const ring_case *c, uint32_t k, wsel_ring_view_pick *vp)
{
    wsel_ring_handle h = pick_handle(c->fx, c->op, k);
    return wsel_ring_fast_pick_view(c->fx->f, &h, true, vp, NULL);
}

/* The inline view picks of mode `mode` (a constant at each call, as in a caller's own
 * code), one retry counted by the inline retry when `retry`, in the floor's loop: each
 * pick's target summed into *acc (no memory clobber per pick, as the floor has none).
 * Returns the picks' statuses or'ed, or -1 when the first pick gives no peer. */
static inline __attribute__((always_inline)) int inline_loop(wsel_bench_state *st,
                                                             const ring_fx *fx,
                                                             wsel_ring_mode mode, bool retry,
                                                             uintptr_t *acc)
{
    wsel_ring_fast *f = fx->f;
    wsel_ring_view_pick vp;
    wsel_ring_handle h0 = {.mode = mode, .hash = fx->keys[0], .u = fx->ukeys[0]};
    int rc = wsel_ring_fast_pick_view_inline(f, &h0, true, &vp, NULL);
    if (rc || vp.outcome != WSEL_RING_PEER)
        return -1;
    uint32_t k = 0;
    while (wsel_bench_keep_running_batch(st, RING_BATCH))
        for (unsigned i = 0; i < RING_BATCH; i++, k = (k + 1) & (RING_KEYS - 1)) {
            wsel_ring_handle h = {.mode = mode, .hash = fx->keys[k], .u = fx->ukeys[k]};
            rc |= retry ? wsel_ring_fast_retry_view_inline(f, &h, true, &vp, NULL)
                        : wsel_ring_fast_pick_view_inline(f, &h, true, &vp, NULL);
            *acc += (uintptr_t)vp.target;
        }
    return rc;
}

/* The same for round-robin with this thread's own cursor. */
static int cursor_loop(wsel_bench_state *st, const ring_fx *fx, uintptr_t *acc)
{
    wsel_ring_fast *f = fx->f;
    uint32_t cursor = wsel_ring_fast_rr_pointer(f);
    wsel_ring_view_pick vp;
    int rc = wsel_ring_fast_pick_rr_inline(f, &cursor, true, &vp, NULL);
    if (rc || vp.outcome != WSEL_RING_PEER)
        return -1;
    while (wsel_bench_keep_running_batch(st, RING_BATCH))
        for (unsigned i = 0; i < RING_BATCH; i++) {
            rc |= wsel_ring_fast_pick_rr_inline(f, &cursor, true, &vp, NULL);
            *acc += (uintptr_t)vp.target;
        }
    return rc;
}

/* The case's fixture, built; NULL (the case skipped) when it cannot be. */
static ring_fx *fx_ready(wsel_bench_state *st, const ring_case *c)
{
    if (fx_ensure(c->fx))
        return c->fx;
    wsel_bench_skip(st, "could not build the ring");
    return NULL;
}

static void bm_pick(wsel_bench_state *st, void *arg)
{
    ring_case *c = arg;
    ring_fx *fx = fx_ready(st, c);
    if (!fx)
        return;
    uint32_t k = 0, n = fx->slots;
    int rc = 0;
    if (c->engine == RE_FLOOR) {
        uint64_t acc = 0;
        while (wsel_bench_keep_running_batch(st, RING_BATCH))
            for (unsigned i = 0; i < RING_BATCH; i++, k = (k + 1) & (RING_KEYS - 1))
                acc += fx->table[1 + fx->keys[k] % n];
        wsel_bench_do_not_optimize(&acc);
    } else {
/* The timed loop of picks by the call CALL (of key k) into the record *REC: the same
 * code for every form, written once. */
#define RING_PICK_LOOP(CALL, REC)                                                          \
    do {                                                                                   \
        if ((CALL) || (REC)->outcome != WSEL_RING_PEER) {                                  \
            wsel_bench_skip(st, "the case does not pick a peer");                         \
            return;                                                                        \
        }                                                                                  \
        while (wsel_bench_keep_running_batch(st, RING_BATCH))                              \
            for (unsigned i = 0; i < RING_BATCH; i++, k = (k + 1) & (RING_KEYS - 1)) {    \
                rc |= (CALL);                                                              \
                wsel_bench_do_not_optimize(REC);                                           \
            }                                                                              \
    } while (0)
        wsel_ring_view_pick vp;
        wsel_ring_peer p;
        if (c->op >= RO_HASH_INLINE) {
            uintptr_t acc = 0;
            rc = c->op == RO_RR_CURSOR      ? cursor_loop(st, fx, &acc)
                 : c->op == RO_FLOAT_INLINE ? inline_loop(st, fx, WSEL_RING_FLOAT, false, &acc)
                 : c->op == RO_RETRY_INLINE ? inline_loop(st, fx, WSEL_RING_HASH, true, &acc)
                                            : inline_loop(st, fx, WSEL_RING_HASH, false, &acc);
            wsel_bench_do_not_optimize(&acc);
            if (rc == -1) {
                wsel_bench_skip(st, "the case does not pick a peer");
                return;
            }
        } else if (c->op >= RO_HASH_VIEW)
            RING_PICK_LOOP(view_one(c, k, &vp), &vp);
        else
            RING_PICK_LOOP(pick_one(c, k, &p), &p);
#undef RING_PICK_LOOP
    }
    if (rc)
        wsel_bench_skip(st, "a pick failed during the run");
    else
        wsel_bench_items(st, wsel_bench_iterations(st));
}

/* Adds (add) or removes the extra host; the fast engine syncs and reclaims. */
static int toggle(const ring_case *c, bool add)
{
    ring_fx *fx = c->fx;
    const char *extra = "10.250.0.1";
    int rc = add ? wsel_ring_add_host(fx->r, extra, 80, 30, NULL)
                 : wsel_ring_remove_host(fx->r, extra, 80, NULL, NULL);
    if (c->engine == RE_FAST) {
        rc |= wsel_ring_fast_sync(fx->f, NULL);
        wsel_ring_fast_reclaim(fx->f);
    }
    return rc;
}

/* add: each iteration adds the extra host (removing it again untimed); remove: the
 * reverse. fast: each change is synced and reclaimed. */
static void bm_change(wsel_bench_state *st, void *arg)
{
    ring_case *c = arg;
    if (!fx_ready(st, c))
        return;
    int rc = 0;
    while (c->op == RO_PAIR && wsel_bench_keep_running(st)) {
        rc |= toggle(c, true);
        rc |= toggle(c, false);
    }
    while (c->op != RO_PAIR && wsel_bench_keep_running(st)) {
        wsel_bench_pause(st);
        rc |= toggle(c, c->op == RO_REMOVE); /* set up the opposite, untimed */
        wsel_bench_resume(st);
        rc |= toggle(c, c->op == RO_ADD);
    }
    if (rc)
        wsel_bench_skip(st, "a change failed during the run");
}

static void bm_build(wsel_bench_state *st, void *arg)
{
    ring_case *c = arg;
    int rc = 0;
    while (wsel_bench_keep_running(st)) {
        wsel_ring *r = ring_make(c->fx->slots, c->fx->hosts);
        wsel_ring_fast *f = NULL;
        rc |= !r || (c->engine == RE_FAST && wsel_ring_fast_new(r, &f, NULL));
        wsel_bench_pause(st);
        wsel_ring_fast_free(f);
        wsel_ring_free(r);
        wsel_bench_resume(st);
    }
    if (rc)
        wsel_bench_skip(st, "building failed during the run");
}

static ring_fx *fx_new(uint32_t slots, uint32_t hosts, bool down25)
{
    ring_fx *fx = calloc(1, sizeof *fx);
    if (fx) {
        fx->slots = slots;
        fx->hosts = hosts;
        fx->down25 = down25;
    }
    return fx;
}

/* threads: 0, the case as it is; else the case with that many threads
 * (/threads:N). */
static size_t reg_threads(int engine, int op, ring_fx *fx, wsel_bench_fn fn,
                          wsel_bench_unit unit, int threads)
{
    ring_case *c = calloc(1, sizeof *c);
    if (!c || !fx) {
        free(c);
        return 0;
    }
    c->engine = engine;
    c->op = op;
    c->fx = fx;
    snprintf(c->name, sizeof c->name, "ring/%s/%s/%u/%s", re_names[engine], ro_names[op],
             fx->slots, fx->down25 ? "down25" : "up");
    wsel_bench_def *d = wsel_bench_register(c->name, fn, c);
    if (d && threads)
        wsel_bench_threads_add(d, threads);
    return d && wsel_bench_unit_set(d, unit);
}

static size_t reg(int engine, int op, ring_fx *fx, wsel_bench_fn fn, wsel_bench_unit unit)
{
    return reg_threads(engine, op, fx, fn, unit, 0);
}

/* The cases and fixtures live as long as the process. */
size_t wsel_bench_ring_register(void)
{
    static const uint32_t sizes[] = {1000, 10000, 65536};
    size_t n = 0;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (int down = 0; down < 2; down++) {
            ring_fx *fx = fx_new(sizes[s], 50, down);
            for (int e = 0; e < RE_COUNT; e++)
                for (int op = RO_HASH; op < RO_ADD; op++)
                    if (op >= RO_HASH_VIEW ? e == RE_FAST : e != RE_FLOOR || op == RO_HASH)
                        n += reg(e, op, fx, bm_pick, WSEL_BENCH_NS);
            n += reg_threads(RE_FLOOR, RO_HASH, fx, bm_pick, WSEL_BENCH_NS, 2);
            n += reg_threads(RE_FAST, RO_RR_VIEW, fx, bm_pick, WSEL_BENCH_NS, 2);
            n += reg_threads(RE_FAST, RO_RR_CURSOR, fx, bm_pick, WSEL_BENCH_NS, 2);
        }
    ring_fx *fx = fx_new(10000, 50, false);
    for (int e = RE_REF; e <= RE_FAST; e++) {
        n += reg(e, RO_ADD, fx, bm_change, WSEL_BENCH_US);
        n += reg(e, RO_REMOVE, fx, bm_change, WSEL_BENCH_US);
        n += reg(e, RO_PAIR, fx, bm_change, WSEL_BENCH_US);
    }
    ring_fx *big = fx_new(65536, 1000, false);
    for (int e = RE_REF; e <= RE_FAST; e++)
        n += reg(e, RO_BUILD, big, bm_build, WSEL_BENCH_MS);
    return n;
}
