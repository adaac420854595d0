/* The ring's fast engine, writer side (include/wsel/ring.h, fast/ring/ring_view.h):
 * records, views, sync, reclaim.
 *
 * The ring notes every slot whose owner changes in its journal (core/ring/ring_model.c). A sync moves
 * those slots, and the slots of every address whose availability flipped, to the
 * engine's slot log, then builds the next view: a reclaimed view replays the log from
 * the position it reflects (each logged slot is rewritten from the ring as it is now, so
 * a slot logged twice costs twice and nothing more), else a new view copies the current
 * one and replays this sync's part. Either way the cost is the slots that moved plus one
 * pass over the addresses (records, availability, expiry, health). The published view is
 * swapped with one release store; the replaced one waits on the retired list until
 * wsel_ring_fast_reclaim(), as the weighted fast engine's snapshots do
 * (fast/weighted/weighted_snapshots.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ring_view.h"

#define FOR_EACH_ADDR WSEL__RING_FOR_EACH_ADDR

static int nomem(wsel_error *err)
{
    return wsel__fail(err, WSEL_E_NOMEM, NULL, 0, 0, NULL, NULL, NULL,
                      "ring fast engine: out of memory");
}

static wsel__frec *rec_new(const wsel_ring *r, const wsel__raddr *a)
{
    const char *hn = wsel__ring_pick_hostname(r, a);
    size_t li = strlen(a->ip) + 1, lh = hn ? strlen(hn) + 1 : 0;
    wsel__frec *rec = malloc(sizeof *rec + li + lh);
    if (!rec)
        return NULL;
    memcpy(rec->ip, a->ip, li);
    memset(rec->ip64, 0, sizeof rec->ip64);
    if (a->iptype != WSEL_RING_NAME && li <= sizeof rec->ip64) /* an IP's text: always fits */
        memcpy(rec->ip64, a->ip, li);
    rec->pub.ip = rec->ip;
    rec->pub.hostname = NULL;
    if (hn) {
        memcpy(rec->ip + li, hn, lh);
        rec->pub.hostname = rec->ip + li;
    }
    atomic_init(&rec->expire, a->host->expire);
    rec->pub.port = a->port;
    rec->pub.iptype = a->iptype;
    rec->seen = 0;
    rec->avail_pub = a->available;
    return rec;
}

/* Views allocated and not yet freed, over every engine in the process (for the tests:
 * wsel__ring_fast_views_live). */
static _Atomic size_t views_live;

size_t wsel__ring_fast_views_live(void)
{
    return atomic_load_explicit(&views_live, memory_order_relaxed);
}

static void view_free(wsel__fview *v)
{
    if (!v)
        return;
    atomic_fetch_sub_explicit(&views_live, 1, memory_order_relaxed);
    free(v->owner);
    free(v->avail);
    free(v);
}

static wsel__fview *view_new(uint32_t n)
{
    /* on a 64-byte boundary: what a pick reads is in one cache line (ring_view.h) */
    wsel__fview *v = aligned_alloc(64, (sizeof *v + 63) / 64 * 64);
    if (!v)
        return NULL;
    memset(v, 0, sizeof *v);
    atomic_fetch_add_explicit(&views_live, 1, memory_order_relaxed);
    v->n = n;
    wsel__u128 m = ~(wsel__u128)0 / n + 1;
    v->mod_lo = (uint64_t)m;
    v->mod_hi = (uint64_t)(m >> 64);
    v->log_pos = UINT64_MAX; /* nothing in it yet: the first update copies */
    v->owner = calloc((size_t)n + 1, sizeof *v->owner);
    v->avail = calloc((size_t)(n >> 6) + 1, sizeof *v->avail);
    if (!v->owner || !v->avail) {
        view_free(v);
        return NULL;
    }
    return v;
}

/* Slot s of v from the ring as it is now. */
static void view_set(wsel__fview *v, const wsel_ring *r, uint32_t s)
{
    const wsel__raddr *a = r->wheel[s];
    uint64_t bit = UINT64_C(1) << (s & 63);
    v->owner[s] = a ? a->fast : NULL;
    if (a && a->available)
        v->avail[s >> 6] |= bit;
    else
        v->avail[s >> 6] &= ~bit;
}

/* view_set for the slots log[from..to), the arrays in locals (a store through owner or
 * avail could alias the ring's). older: the part of the log before this sync's, whose
 * slots marked in the ring's journal (jmark) are skipped, as this sync's part rewrites
 * them; else this sync's part, whose marks are cleared once the slot is written.
 * Inlined with `older` constant, so each loop has only its own test. */
static inline __attribute__((always_inline)) void replay(wsel__fview *v, wsel_ring *r,
                                                         const uint32_t *log, size_t from,
                                                         size_t to, bool older)
{
    wsel__raddr *const *const wheel = r->wheel;
    const wsel__frec **const owner = v->owner;
    uint64_t *const avail = v->avail;
    uint8_t *const jmark = r->jmark;
    for (size_t i = from; i < to; i++) {
        uint32_t s = log[i];
        if (older && jmark[s])
            continue;
        const wsel__raddr *a = wheel[s];
        uint64_t bit = UINT64_C(1) << (s & 63), w = avail[s >> 6] & ~bit;
        const wsel__frec *rec = NULL;
        if (a) {
            rec = a->fast;
            w |= a->available ? bit : 0;
        }
        owner[s] = rec;
        avail[s >> 6] = w;
        if (!older)
            jmark[s] = 0;
    }
}

/* Brings v (unpublished) to the ring's state: by replaying the log from its position if
 * the log still reaches back that far, else from a copy of the current view. The log
 * from position `base` on is this sync's (the journal's slots, then the flipped ones); a
 * slot of the older part that the journal also holds is written once, by the newer
 * part. Clears the journal's marks. */
static void view_update(wsel_ring_fast *f, wsel__fview *v, uint64_t base)
{
    wsel_ring *r = f->r;
    const wsel__fview *cur = atomic_load_explicit(&f->cur, memory_order_relaxed);
    uint64_t from = v->log_pos;
    size_t b = (size_t)(base - f->log_off);
    if (!cur) {
        for (uint32_t s = 1; s <= r->n; s++)
            view_set(v, r, s);
    } else {
        if (from < f->log_off || from > cur->log_pos) {
            memcpy(v->owner, cur->owner, ((size_t)r->n + 1) * sizeof *v->owner);
            memcpy(v->avail, cur->avail, ((size_t)(r->n >> 6) + 1) * sizeof *v->avail);
            from = cur->log_pos;
        }
        replay(v, r, f->log, (size_t)(from - f->log_off), b, true);
    }
    replay(v, r, f->log, b, f->nlog, false);
    v->log_pos = f->log_off + f->nlog;
}

/* What a sync found in the ring (step 1). */
typedef struct sync_scan {
    uint64_t gen;               /* this sync */
    size_t flips;               /* slots of the addresses whose availability flipped */
    size_t fresh, gone;         /* records made for new addresses, records of gone ones */
    size_t stale;               /* records whose expiry is not their host's */
    double min_expire;
    bool healthy;
} sync_scan;

/* 1. one walk over the addresses: a record for each (a failure here leaves spare records,
 * no harm), what flipped or expires differently, the smallest expiry, the weights that
 * decide health. The records of removed addresses are counted, not looked for: every
 * address has one record, so the live list holds nrecs - naddr others. */
static int scan_addresses(wsel_ring_fast *f, sync_scan *sc, wsel_error *err)
{
    wsel_ring *r = f->r;
    wsel__raddr *a;
    uint64_t w = 0, u = 0;
    sc->min_expire = INFINITY;
    FOR_EACH_ADDR(r, a) {
        wsel__frec *rec = a->fast;
        double e = a->host->expire;
        if (!rec) {
            if (!(rec = rec_new(r, a)))
                return nomem(err);
            rec->next = f->recs;
            f->recs = rec;
            f->nrecs++;
            a->fast = rec;
            sc->fresh++;
        }
        rec->seen = sc->gen;
        if (rec->avail_pub != a->available)
            sc->flips += a->count;
        if (atomic_load_explicit(&rec->expire, memory_order_relaxed) != e)
            sc->stale++;
        if (e < sc->min_expire)
            sc->min_expire = e;
        w += a->weight;
        u += a->available ? 0 : a->weight;
    }
    sc->gone = f->nrecs - r->naddr;
    sc->healthy = wsel__ring_healthy_of(r, w, u);
    return WSEL_OK;
}

/* The records' expiries brought up to date, in place (only when one differs). */
static void store_expiries(wsel_ring_fast *f, const sync_scan *sc)
{
    const wsel__raddr *a;
    if (sc->stale)
        FOR_EACH_ADDR(f->r, a)
            atomic_store_explicit(&((wsel__frec *)a->fast)->expire, a->host->expire,
                                  memory_order_relaxed);
}

/* Nothing a reader could see changed since the view cur: only expiries are brought up
 * to date, in place. */
static bool unchanged(wsel_ring_fast *f, const wsel__fview *cur, const sync_scan *sc)
{
    const wsel_ring *r = f->r;
    if (!cur || sc->fresh || sc->gone || sc->flips || r->njournal || cur->healthy != sc->healthy ||
        cur->now != r->now || cur->min_expire != sc->min_expire)
        return false;
    store_expiries(f, sc);
    return true;
}

/* 2. everything that can fail, before anything is committed: room in the log and the
 * dead list, a place on the retired list, and the view to build (the spare closest to
 * now replays least). NULL when out of memory. */
static wsel__fview *reserve(wsel_ring_fast *f, const sync_scan *sc)
{
    const wsel_ring *r = f->r;
    if (!wsel__grow(&f->log, &f->caplog, f->nlog + r->njournal + sc->flips, sizeof *f->log) ||
        !wsel__grow(&f->dead, &f->capdead, f->ndead + sc->gone, sizeof *f->dead) ||
        !wsel__retire_reserve(&f->retired, 1))
        return NULL;
    if (!f->nspare)
        return view_new(r->n);
    size_t best = 0;
    for (size_t i = 1; i < f->nspare; i++)
        if (f->spare[i]->log_pos > f->spare[best]->log_pos)
            best = i;
    wsel__fview *v = f->spare[best];
    f->spare[best] = f->spare[--f->nspare];
    return v;
}

/* 3. commit: log the moved and flipped slots, retire gone records, build v, publish it.
 * The journal's marks stay set until v is built (view_update skips those slots in the
 * older part of the log). */
static void commit(wsel_ring_fast *f, wsel__fview *v, const sync_scan *sc)
{
    wsel_ring *r = f->r;
    uint64_t base = f->log_off + f->nlog;
    if (r->njournal) /* (no log yet: f->log may be NULL) */
        memcpy(f->log + f->nlog, r->journal, (size_t)r->njournal * sizeof *f->log);
    f->nlog += r->njournal;
    store_expiries(f, sc);
    wsel__raddr *a;
    if (sc->flips)
        FOR_EACH_ADDR(r, a) {
            wsel__frec *rec = a->fast;
            if (rec->avail_pub != a->available) {
                rec->avail_pub = a->available;
                for (uint32_t s = a->head; s; s = r->next[s])
                    f->log[f->nlog++] = s;
            }
        }
    for (wsel__frec **pp = &f->recs; sc->gone && *pp;) {
        wsel__frec *rec = *pp;
        if (rec->seen != sc->gen) {
            *pp = rec->next;
            f->dead[f->ndead++] = rec;
            f->nrecs--;
        } else {
            pp = &rec->next;
        }
    }
    wsel__fview *cur = atomic_load_explicit(&f->cur, memory_order_relaxed);
    view_update(f, v, base);
    r->njournal = 0;
    v->healthy = sc->healthy;
    v->now = r->now;
    v->min_expire = sc->min_expire;
    atomic_store_explicit(&f->cur, v, memory_order_release);
    wsel__retire(&f->retired, cur);
}

int wsel_ring_fast_sync(wsel_ring_fast *f, wsel_error *err)
{
    if (!f)
        return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, NULL, NULL, NULL,
                          "ring: no fast engine");
    const wsel_ring *r = f->r;
    wsel__fview *cur = atomic_load_explicit(&f->cur, memory_order_relaxed);
    if (f->nlog > 4 * ((size_t)r->n + 1)) { /* older views copy instead of replaying */
        f->log_off += f->nlog;
        f->nlog = 0;
    }
    sync_scan sc = {.gen = ++f->gen};
    int rc = scan_addresses(f, &sc, err);
    if (rc != WSEL_OK || unchanged(f, cur, &sc))
        return rc;
    wsel__fview *v = reserve(f, &sc);
    if (!v)
        return nomem(err);
    commit(f, v, &sc);
    return WSEL_OK;
}

/* A reclaimed view: kept as a spare for the next sync when it is one of the
 * WSEL__FAST_SPARES closest to now (it replays least), else freed. */
static void keep_spare(void *ctx, void *p)
{
    wsel_ring_fast *f = ctx;
    wsel__fview *v = p;
    if (f->nspare < WSEL__FAST_SPARES) {
        f->spare[f->nspare++] = v;
        return;
    }
    size_t worst = 0;
    for (size_t k = 1; k < f->nspare; k++)
        if (f->spare[k]->log_pos < f->spare[worst]->log_pos)
            worst = k;
    if (f->spare[worst]->log_pos < v->log_pos) {
        view_free(f->spare[worst]);
        f->spare[worst] = v;
    } else {
        view_free(v);
    }
}

static void take_free(void *ctx, void *p)
{
    (void)ctx;
    view_free(p);
}

size_t wsel_ring_fast_reclaim(wsel_ring_fast *f)
{
    if (!f)
        return 0;
    for (size_t i = 0; i < f->ndead; i++)
        free(f->dead[i]);
    f->ndead = 0;
    size_t n = wsel__reclaim(&f->retired, keep_spare, f);
    /* the log is needed from the oldest spare that can still replay, no further back */
    const wsel__fview *cur = atomic_load_explicit(&f->cur, memory_order_relaxed);
    uint64_t keep = cur->log_pos;
    for (size_t k = 0; k < f->nspare; k++)
        if (f->spare[k]->log_pos >= f->log_off && f->spare[k]->log_pos < keep)
            keep = f->spare[k]->log_pos;
    size_t drop = (size_t)(keep - f->log_off);
    if (drop) /* (no log at all: f->log is NULL) */
        memmove(f->log, f->log + drop, (f->nlog - drop) * sizeof *f->log);
    f->nlog -= drop;
    f->log_off = keep;
    return n;
}

int wsel_ring_fast_new(wsel_ring *r, wsel_ring_fast **out, wsel_error *err)
{
    if (out)
        *out = NULL;
    if (!r || !out)
        return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, NULL, NULL, NULL,
                          "ring: wsel_ring_fast_new needs a ring and an output pointer");
    wsel_ring_fast *f = calloc(1, sizeof *f);
    int rc = f ? wsel__ring_journal_start(r, err) : nomem(err);
    if (rc != WSEL_OK) {
        free(f);
        return rc;
    }
    f->r = r;
    f->dns = r->dns;
    atomic_init(&f->cur, NULL);
    atomic_init(&f->rr, r->pointer);
    if ((rc = wsel_ring_fast_sync(f, err)) != WSEL_OK) {
        wsel_ring_fast_free(f);
        return rc;
    }
    *out = f;
    return WSEL_OK;
}

void wsel_ring_fast_free(wsel_ring_fast *f)
{
    if (!f)
        return;
    wsel__raddr *a;
    FOR_EACH_ADDR(f->r, a)
        a->fast = NULL;
    wsel__ring_journal_stop(f->r);
    view_free(atomic_load_explicit(&f->cur, memory_order_relaxed));
    wsel__retired_free(&f->retired, take_free, NULL);
    for (size_t i = 0; i < f->nspare; i++)
        view_free(f->spare[i]);
    for (size_t i = 0; i < f->ndead; i++)
        free(f->dead[i]);
    for (wsel__frec *rec = f->recs, *next; rec; rec = next) {
        next = rec->next;
        free(rec);
    }
    free(f->dead);
    free(f->log);
    free(f);
}

int wsel_ring_fast_check(const wsel_ring_fast *f, wsel_error *err)
{
#define BAD(...) wsel__fail(err, WSEL_E_STATE, NULL, 0, 0, NULL, NULL, NULL, __VA_ARGS__)
    if (!f)
        return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, NULL, NULL, NULL,
                          "ring: no fast engine to check");
    const wsel_ring *r = f->r;
    const wsel__fview *v = atomic_load_explicit(&f->cur, memory_order_relaxed);
    if (v->n != r->n)
        return BAD("ring fast: view of %u slots, ring of %u", v->n, r->n);
    for (uint32_t s = 0; s <= ((r->n >> 6) << 6) + 63; s++) {
        bool bit = (v->avail[s >> 6] >> (s & 63)) & 1;
        const wsel__raddr *a = s >= 1 && s <= r->n ? r->wheel[s] : NULL;
        if (s >= 1 && s <= r->n && v->owner[s] != (a ? a->fast : NULL))
            return BAD("ring fast: slot %u has the wrong owner", s);
        if (bit != (a && a->available))
            return BAD("ring fast: slot %u: availability bit %d", s, (int)bit);
    }
    const wsel__raddr *a;
    FOR_EACH_ADDR(r, a) {
        const wsel__frec *rec = a->fast;
        if (!rec || strcmp(rec->ip, a->ip) != 0 || rec->pub.port != a->port ||
            rec->pub.iptype != a->iptype || rec->pub.ip != rec->ip)
            return BAD("ring fast: no record or a wrong one for address %s", a->ip);
        const char *hn = wsel__ring_pick_hostname(r, a);
        if ((hn == NULL) != (rec->pub.hostname == NULL) ||
            (hn && strcmp(hn, rec->pub.hostname) != 0))
            return BAD("ring fast: address %s reports the wrong host name", a->ip);
        if (atomic_load_explicit(&rec->expire, memory_order_relaxed) != a->host->expire)
            return BAD("ring fast: address %s has a stale expiry", a->ip);
    }
    if (v->healthy != wsel__ring_healthy(r) || v->now != r->now)
        return BAD("ring fast: health or clock differ");
    return WSEL_OK;
#undef BAD
}
