/* The ring balancer's model, shared by both engines: construction, changes, DNS,
 * apportionment in both modes, totals and health (doc/ring.md sections 2, 4-8, 10).
 * Every change plans first (all allocation and validation), then applies without
 * failing, so an error changes nothing. */
#include <math.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../internal.h"
#include "../addr.h"
#include "ring_model.h"

static int nomem(wsel_error *err)
{
    return wsel__fail(err, WSEL_E_NOMEM, NULL, 0, 0, NULL, NULL, NULL, "ring: out of memory");
}

/* ---- records: a record and its text in one block, spares reused ------------------------ */

/* The room for text that a block of a `head`-byte record has when made for `len` bytes
 * of text (the NUL included): len rounded up so that the block is a multiple of 16
 * bytes, which the allocator hands out anyway. A block taken again for a shorter text
 * keeps its room, which is then at least what this gives for the shorter length. */
static size_t room_of(size_t head, size_t len)
{
    return (head + len + 15) / 16 * 16 - head;
}

/* A block for a `head`-byte record and `len` bytes of text: a spare whose room fits,
 * else a new one, zeroed; NULL when out of memory. A spare comes as its last life left
 * it: the caller sets every field of the record (host_new, addr_new). */
static void *block_take(wsel__ring_spares *s, size_t head, size_t len)
{
    for (unsigned i = s->n; i-- > 0;)
        if (s->room[i] >= len) {
            void *b = s->rec[i];
            s->n--;
            s->rec[i] = s->rec[s->n];
            s->room[i] = s->room[s->n];
            return b;
        }
    return calloc(1, head + room_of(head, len));
}

/* Block b, a `head`-byte record whose text is `len` bytes long, is done with: kept as a
 * spare, or, when enough are kept, false (the caller frees it). */
static bool block_give(wsel__ring_spares *s, void *b, size_t head, size_t len)
{
    if (s->n == WSEL__RING_SPARES)
        return false;
    s->rec[s->n] = b;
    s->room[s->n++] = room_of(head, len);
    return true;
}

/* Frees spare host and address records until nh and na are left: at the end of a ring,
 * and when a change fails (a failed change gives back every block it took, so trimming
 * the spares to their count before it leaves as many blocks allocated as before). */
static void spares_trim(wsel_ring *r, unsigned nh, unsigned na)
{
    while (r->spare_h.n > nh) {
        wsel__rhost *h = r->spare_h.rec[--r->spare_h.n];
        free(h->a);
        free(h);
    }
    while (r->spare_a.n > na)
        free(r->spare_a.rec[--r->spare_a.n]);
}

/* IP literal -> canonical text (IPv6 without brackets; "[...]" accepted). */
wsel_ring_iptype wsel__ring_parse_ip(const char *s, char *out, size_t len)
{
    uint8_t bin[16];
    int fam = wsel__addr_parse(s, strlen(s), true, bin);
    if (!fam)
        return WSEL_RING_NAME;
    wsel__addr_format(fam, bin, out, len);
    return fam == 4 ? WSEL_RING_IPV4 : WSEL_RING_IPV6;
}

/* ---- section 5: apportionment --------------------------------------------------- */

int wsel__ring_journal_start(wsel_ring *r, wsel_error *err)
{
    if (r->jmark)
        return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, NULL, NULL, NULL,
                          "ring: a fast engine is already attached to this ring");
    r->journal = malloc((size_t)r->n * sizeof *r->journal);
    r->jmark = calloc((size_t)r->n + 1, 1);
    if (!r->journal || !r->jmark) {
        wsel__ring_journal_stop(r);
        return nomem(err);
    }
    r->njournal = 0;
    return WSEL_OK;
}

void wsel__ring_journal_stop(wsel_ring *r)
{
    free(r->journal);
    free(r->jmark);
    r->journal = NULL;
    r->jmark = NULL;
    r->njournal = 0;
}

/* Address a drops its most recent slots onto the free stack, whose top is `top` (one
 * past its last entry), until it holds c (< its count); returns the new top. The moves
 * of a redistribution, so written with the list ends, counts and arrays in locals, and
 * the stack's top in the caller's (it stores r->nfree once, after its drops): stores
 * through the uint32_t arrays could otherwise alias a->count and r->nfree and force a
 * reload per slot. A dropped slot's owner and journal entry are left to the end of the
 * redistribution (settle_free): pass 2 hands most of them out again, and every drop
 * comes before every fill. An address that drops every slot (one being removed) is
 * walked from both ends at once, the tail back and the head forward, each end filling its
 * half of the stack's new part: two chains of loads, each half as long. */
WSEL__RING_MOVE uint32_t *drop_to(wsel_ring *r, wsel__raddr *a, uint32_t c, uint32_t *top)
{
    const uint32_t *const prev = r->prev;
    if (c == 0) {
        const uint32_t *const next = r->next;
        uint32_t n = a->count, back = a->tail, fwd = a->head;
        for (uint32_t j = 0; j < n / 2; j++) {
            top[j] = back;          /* the most recent first */
            top[n - 1 - j] = fwd;   /* the first acquired last */
            back = prev[back];
            fwd = next[fwd];
        }
        if (n % 2) /* the middle slot, where the two walks meet */
            top[n / 2] = back;
        a->head = a->tail = a->count = 0;
        return top + n;
    }
    uint32_t *const end = top + (a->count - c);
    uint32_t s = a->tail;
    while (top != end) {
        *top++ = s;
        s = prev[s];
    }
    a->tail = s;
    if (s)
        r->next[s] = 0;
    else
        a->head = 0;
    a->count = c;
    return top;
}

/* Address a takes slots from the top of the free stack until it holds c (> its count) or
 * the stack is empty; the same locals as drop_to. With `noted` (a fast engine listens),
 * each slot taken is noted in the journal (a slot changes owner at most once a
 * redistribution, but a sync may come after several: the marks keep it once). Inlined
 * with `noted` constant (fill_to), so a ring without an engine tests nothing per slot. */
WSEL__RING_MOVE void fill_slots(wsel_ring *r, wsel__raddr *a, uint32_t c, bool noted)
{
    uint32_t *const prev = r->prev, *const next = r->next, *const fr = r->free;
    uint32_t *const journal = r->journal;
    wsel__raddr **const wheel = r->wheel;
    uint8_t *const jmark = r->jmark;
    uint32_t need = c - a->count, nf = r->nfree, nj = r->njournal;
    uint32_t k = need < nf ? need : nf, t = a->tail;
    const uint32_t *top = fr + nf, *const end = top - k;
    a->count += k;
    r->nfree = nf - k;
    if (!t) /* the first slot heads the list: next[] is then linked from it on */
        a->head = top[-1]; /* (k > 0: the caller saw count < c and a free slot) */
    while (top != end) {
        uint32_t s = *--top;
        wheel[s] = a;
        prev[s] = t;
        next[t] = s; /* next[0]: a slot no list reads */
        if (noted && !jmark[s]) {
            jmark[s] = 1;
            journal[nj++] = s;
        }
        t = s;
    }
    next[t] = 0;
    a->tail = t;
    r->njournal = nj;
}

WSEL__RING_MOVE void fill_to(wsel_ring *r, wsel__raddr *a, uint32_t c)
{
    if (r->jmark)
        fill_slots(r, a, c, true);
    else
        fill_slots(r, a, c, false);
}

/* The end of a redistribution whose free stack held `before` slots before its drops:
 * the slots dropped and not handed out again (free[before..nfree), when any) lose their
 * owner and are noted in the journal. */
static void settle_free(wsel_ring *r, uint32_t before)
{
    for (uint32_t i = before; i < r->nfree; i++) {
        uint32_t s = r->free[i];
        r->wheel[s] = NULL;
        wsel__ring_journal_note(r, s);
    }
}

#define FOR_EACH_ADDR WSEL__RING_FOR_EACH_ADDR

/* The address array and positions in iteration order from host `from` on, whose first
 * address goes to position `pos` (the hosts before it are as they were), after
 * addresses came or went (capacity reserved when the change was planned). */
static void renumber(wsel_ring *r, size_t from, size_t pos)
{
    if (pos < r->held)
        r->held = pos; /* an address holding slots may now sit at pos */
    for (size_t i = from; i < r->nh; i++) {
        r->h[i]->idx = i;
        r->h[i]->first = pos;
        for (size_t k = 0; k < r->h[i]->n; k++) {
            wsel__raddr *a = r->h[i]->a[k];
            a->pos = pos;
            r->addr[pos++] = a;
        }
    }
    r->naddr = pos;
}


/* The first address a redistribution in 5.2.3's mode must count (section 5, "Skipping
 * what gets nothing"): every address before it gets 0 slots, since its weight is below
 * 0.999 N / W' of the weight W' from it on. Found walking back from the last address
 * while that weight stays small; *rest gets the weight from the returned one on. When
 * the total weight is small (the walk would reach the first address), no walk. */
static size_t first_counted(const wsel_ring *r, double *rest)
{
    if (wsel__ring_uncounted(r->wsum, r->wmax, r->n)) {
        *rest = (double)r->wsum;
        return 0;
    }
    uint64_t S = 0;
    size_t i = r->naddr;
    while (i > 0 && wsel__ring_uncounted(S + r->addr[i - 1]->weight, r->wmax, r->n))
        S += r->addr[--i]->weight;
    *rest = (double)S;
    return i;
}

/* 5.2.3's counts: each address gets the floor of its share of what is left. Returns the
 * first address counted; those before it get 0 (first_counted). Pass 1 of section 5 runs
 * in the same walk: an address drops its surplus as soon as its count is known (the
 * counts do not read the free stack, so the drops are the same, in the same order).
 * *deficit gets the first address below its target (naddr: none), where pass 2 starts. */
static size_t sequential_targets(wsel_ring *r, size_t *deficit)
{
    double W;
    size_t from = first_counted(r, &W);
    uint32_t *top = r->free + r->nfree;
    for (size_t i = r->held < from ? r->held : from; i < from; i++) {
        wsel__raddr *a = r->addr[i];
        a->target = 0;
        if (a->count > 0)
            top = drop_to(r, a, 0, top);
    }
    uint32_t L = r->n;
    size_t first = r->naddr;
    for (size_t i = from; i < r->naddr; i++) {
        wsel__raddr *a = r->addr[i];
        uint32_t c = wsel__ring_share(L, a->weight, W);
        a->target = c;
        L -= c;
        W -= a->weight;
        if (a->count > c)
            top = drop_to(r, a, c, top);
        else if (a->count < c && first == r->naddr)
            first = i;
    }
    *deficit = first;
    r->nfree = (uint32_t)(top - r->free);
    wsel__ring_cost_add(WSEL__RING_COUNTED, r->naddr - from);
    return from;
}

/* +1 to the target of the `need` addresses with grp set and the largest remainders
 * (ties: iteration order), found by bisection over the remainders (< bound). Returns
 * how many it raised. */
static uint64_t raise_top(wsel_ring *r, uint64_t need, uint64_t bound)
{
    wsel__raddr *a;
    uint64_t cand = 0, lo = 0, hi = bound ? bound : 1, done = 0;
    FOR_EACH_ADDR(r, a)
        cand += a->grp;
    if (need > cand)
        need = cand;
    if (!need)
        return 0;
    while (hi - lo > 1) { /* lo: at least `need` remainders >= lo; hi: fewer */
        uint64_t mid = lo + (hi - lo) / 2, cnt = 0;
        FOR_EACH_ADDR(r, a)
            cnt += a->grp && a->rem >= mid;
        if (cnt >= need)
            lo = mid;
        else
            hi = mid;
    }
    FOR_EACH_ADDR(r, a)
        if (a->grp && a->rem > lo && done < need) {
            a->target++;
            done++;
        }
    FOR_EACH_ADDR(r, a)
        if (a->grp && a->rem == lo && done < need) {
            a->target++;
            done++;
        }
    return done;
}

/* Largest remainders: `total` slots over the addresses with grp set, by weight, added
 * to their targets. */
static void largest_remainders(wsel_ring *r, uint64_t total)
{
    wsel__raddr *a;
    uint64_t Wg = 0, given = 0;
    FOR_EACH_ADDR(r, a)
        if (a->grp)
            Wg += a->weight;
    if (!Wg)
        return;
    FOR_EACH_ADDR(r, a)
        if (a->grp) {
            uint64_t num = total * a->weight;
            a->target += (uint32_t)(num / Wg);
            a->rem = num % Wg;
            given += num / Wg;
        }
    raise_top(r, total - given, Wg);
}

static void group(wsel_ring *r, bool untouched, bool touched_weighted)
{
    wsel__raddr *a;
    FOR_EACH_ADDR(r, a)
        a->grp = a->touched ? touched_weighted && a->weight > 0 : untouched;
}

/* Strict counts (doc/ring.md section 8). An address is touched when it is new, being
 * removed or re-weighted since the last redistribution; when the touched addresses gain
 * weight in sum, an untouched address may only lose slots, when they lose weight it may
 * only gain, when the sum stays it keeps its count. Within those bounds every count is
 * kept within one slot of its exact quota N w / W where the bounds allow: each address
 * starts at the lower end of [floor, ceil] of its quota clipped to its bound, and the
 * slots still unassigned go one each to the largest remainders among those below the
 * upper end (the largest-remainder method when nothing is clipped). What the bounds
 * leave over goes to the touched addresses by largest remainders (or, when nothing
 * touched keeps weight, to the untouched as gains). Slots thus only move from or to
 * touched addresses, and the free stack that pass 2 hands out holds only slots that
 * touched addresses dropped. */
static void strict_targets(wsel_ring *r)
{
    wsel__raddr *a;
    uint64_t W = 0, S = 0, N = r->n;
    int64_t dW = 0;
    bool all_free = r->nfree == r->n; /* nothing owned: no promise at stake */
    FOR_EACH_ADDR(r, a) {
        W += a->weight;
        a->target = 0;
        a->touched = all_free || !a->settled || a->weight != a->prev_weight;
        if (a->touched)
            dW += (int64_t)a->weight - (a->settled ? (int64_t)a->prev_weight : 0);
    }
    if (W == 0)
        return;
    FOR_EACH_ADDR(r, a) {
        uint64_t num = N * a->weight, f = num / W, c = a->count;
        uint64_t hi = f + (num % W != 0), lo = f;
        a->rem = num % W;
        if (!a->touched) {
            if (dW > 0) {
                lo = lo < c ? lo : c;
                hi = hi < c ? hi : c;
            } else if (dW < 0) {
                lo = lo > c ? lo : c;
                hi = hi > c ? hi : c;
            } else {
                lo = hi = c;
            }
        }
        a->target = (uint32_t)lo;
        a->grp = hi > lo;
        S += lo;
    }
    if (S < N)
        S += raise_top(r, N - S, W);
    if (S < N) {
        bool any = false;
        FOR_EACH_ADDR(r, a)
            any = any || (a->touched && a->weight > 0);
        group(r, !any, any);
        largest_remainders(r, N - S);
        return;
    }
    /* too many (possible only while the untouched may gain): the touched give way
     * first, then the untouched's gains, in iteration order */
    uint64_t excess = S - N;
    FOR_EACH_ADDR(r, a)
        if (a->touched && excess) {
            uint32_t cut = a->target < excess ? a->target : (uint32_t)excess;
            a->target -= cut;
            excess -= cut;
        }
    FOR_EACH_ADDR(r, a)
        if (!a->touched && excess && a->target > a->count) {
            uint32_t cut = a->target - a->count;
            cut = cut < excess ? cut : (uint32_t)excess;
            a->target -= cut;
            excess -= cut;
        }
}

static void redistribute(wsel_ring *r)
{
    uint32_t before = r->nfree;
    /* 5.2.3's mode counts (and drops, pass 1) from `from` on: the addresses before it get
     * no slot; strict mode counts every address */
    size_t from = 0, deficit = 0;
    if (r->strict) {
        wsel__raddr *a;
        strict_targets(r);
        /* pass 1: surplus slots go back on the free stack, most recently acquired first */
        uint32_t *top = r->free + r->nfree;
        FOR_EACH_ADDR(r, a)
            if (a->count > a->target)
                top = drop_to(r, a, a->target, top);
        r->nfree = (uint32_t)(top - r->free);
    } else {
        from = sequential_targets(r, &deficit);
    }
    /* pass 2: deficits in iteration order, from the top of the free stack (until it is
     * empty) */
    for (size_t i = deficit; i < r->naddr && r->nfree > 0; i++) {
        wsel__raddr *a = r->addr[i];
        if (a->count < a->target)
            fill_to(r, a, a->target);
    }
    settle_free(r, before);
    r->held = from;
    /* what strict mode's next redistribution compares with (section 8) */
    if (r->strict) {
        wsel__raddr *a;
        FOR_EACH_ADDR(r, a) {
            a->settled = true;
            a->prev_weight = a->weight;
        }
    }
}

/* ---- section 10: totals and health ------------------------------------------------ */

/* Total weight, and the part of it unavailable, in one pass. */
static uint64_t weights(const wsel_ring *r, uint64_t *unavailable)
{
    uint64_t w = 0, u = 0;
    wsel__raddr *a;
    FOR_EACH_ADDR(r, a) {
        w += a->weight;
        u += a->available ? 0 : a->weight;
    }
    *unavailable = u;
    return w;
}

uint64_t wsel_ring_weight(const wsel_ring *r)
{
    uint64_t u;
    return r ? weights(r, &u) : 0;
}

uint64_t wsel_ring_unavailable_weight(const wsel_ring *r)
{
    uint64_t u = 0;
    if (r)
        weights(r, &u);
    return u;
}

bool wsel__ring_healthy_of(const wsel_ring *r, uint64_t w, uint64_t u)
{
    return w > 0 && (double)(w - u) / (double)w * 100.0 > r->threshold;
}

bool wsel__ring_healthy(const wsel_ring *r)
{
    uint64_t u, w = weights(r, &u);
    return wsel__ring_healthy_of(r, w, u);
}

bool wsel_ring_healthy(const wsel_ring *r)
{
    return r && wsel__ring_healthy(r);
}

/* ---- section 7: DNS answers into addresses ---------------------------------------- */

typedef struct pentry {
    char ip[256];
    wsel_ring_iptype iptype;
    uint16_t port;
    uint32_t weight;
    char key[300];
    size_t ord;
    wsel__raddr *match;  /* the kept address (same-type update), or NULL */
    wsel__raddr *fresh;  /* the new address otherwise */
} pentry;

typedef struct plan {
    int kind;
    bool real_srv, ttl0, prev_flag;
    double expire;
    pentry *e;
    size_t n;
    pentry one;          /* e, when the answer has one entry: nothing to allocate */
} plan;

/* An address record of ring r is done with (it and its text are one block: addr_new). */
static void addr_free(wsel_ring *r, wsel__raddr *a)
{
    if (!block_give(&r->spare_a, a, sizeof *a, strlen(a->ip) + 1))
        free(a);
}

/* A plan with nothing in it (every field before `one`). */
static void plan_init(plan *p)
{
    memset(p, 0, offsetof(plan, one));
}

/* Room for n entries in p->e (n >= 1), each with no match and no fresh address yet
 * (their fillers set the rest); false when out of memory. */
static bool plan_room(plan *p, size_t n)
{
    if (n > 1)
        return (p->e = calloc(n, sizeof *p->e)) != NULL;
    p->e = &p->one;
    p->one.match = p->one.fresh = NULL;
    p->one.ord = 0;
    p->one.key[0] = '\0';
    return true;
}

static void plan_free(wsel_ring *r, plan *p)
{
    if (p->e)
        for (size_t i = 0; i < p->n; i++)
            if (p->e[i].fresh)
                addr_free(r, p->e[i].fresh);
    if (p->e != &p->one)
        free(p->e);
    p->e = NULL;
}

/* By key bytes, ties in input order (a stable sort out of qsort). */
static int cmp_pentry(const void *pa, const void *pb)
{
    const pentry *a = pa, *b = pb;
    int c = strcmp(a->key, b->key);
    return c ? c : (a->ord > b->ord) - (a->ord < b->ord);
}

static int bad_answer(wsel_error *err, const wsel__rhost *h, const char *fmt, const char *what)
{
    return wsel__fail(err, WSEL_E_ADDR, NULL, 0, 0, h->name, NULL, NULL,
                      "ring: DNS answer for host '%s': %s%s", h->name, fmt, what);
}

/* Section 7.2: one unresolved entry standing for the host (a ttl=0 answer after another
 * ttl=0 or empty one), resolved per pick. */
static int plan_ttl0(const wsel_ring *r, const wsel__rhost *h, plan *p, wsel_error *err)
{
    p->kind = WSEL_RING_SRV;
    p->ttl0 = true;
    p->prev_flag = true;
    p->expire = r->now + r->ttl0;
    if (!plan_room(p, 1))
        return nomem(err);
    p->n = 1;
    snprintf(p->e[0].ip, sizeof p->e[0].ip, "%s", h->name);
    p->e[0].iptype = WSEL_RING_NAME;
    p->e[0].port = h->port;
    p->e[0].weight = h->node_weight;
    return WSEL_OK;
}

/* Checks every entry of the record; its smallest TTL, and its lowest SRV priority. */
static int check_entries(const wsel__rhost *h, const wsel_ring_record *rec, bool srv,
                         uint32_t *minttl, uint32_t *minprio, wsel_error *err)
{
    *minttl = *minprio = UINT32_MAX;
    for (size_t i = 0; i < rec->n_entries; i++) {
        const wsel_ring_entry *en = &rec->entries[i];
        if (!en->address || !en->address[0])
            return bad_answer(err, h, "an entry without an address or target", "");
        if (strlen(en->address) > 253)
            return bad_answer(err, h, "name too long: ", en->address);
        if (en->ttl < *minttl)
            *minttl = en->ttl;
        if (srv) {
            if (en->port > 65535 || en->weight > WSEL_RING_MAX_WEIGHT || en->priority > 65535)
                return bad_answer(err, h, "SRV port, weight or priority above 65535 for ",
                                  en->address);
            if (en->priority < *minprio)
                *minprio = en->priority;
        }
    }
    return WSEL_OK;
}

/* An AAAA entry's sort key (section 4): the text 5.2.3's DNS client hands over, all
 * eight groups in lowercase hex without leading zeros and never compressed, in
 * brackets ("[0:0:0:0:0:0:0:1]"). ip is a valid IPv6 literal. */
static void aaaa_key(const char *ip, char *key, size_t len)
{
    uint8_t b[16];
    wsel__addr_parse(ip, strlen(ip), true, b);
    snprintf(key, len, "[%x:%x:%x:%x:%x:%x:%x:%x]", b[0] << 8 | b[1], b[2] << 8 | b[3],
             b[4] << 8 | b[5], b[6] << 8 | b[7], b[8] << 8 | b[9], b[10] << 8 | b[11],
             b[12] << 8 | b[13], b[14] << 8 | b[15]);
}

/* Entry en of an A or AAAA record (type) as pe: the host's port and weight. */
static int plan_ip_entry(const wsel__rhost *h, wsel_ring_rrtype type, const wsel_ring_entry *en,
                         pentry *pe, wsel_error *err)
{
    wsel_ring_iptype want = type == WSEL_RING_A ? WSEL_RING_IPV4 : WSEL_RING_IPV6;
    pe->iptype = wsel__ring_parse_ip(en->address, pe->ip, sizeof pe->ip);
    if (pe->iptype != want)
        return bad_answer(err, h,
                          want == WSEL_RING_IPV4 ? "A entry is not an IPv4 address: "
                                                 : "AAAA entry is not an IPv6 address: ",
                          en->address);
    pe->port = h->port;
    pe->weight = h->node_weight;
    if (want == WSEL_RING_IPV6)
        aaaa_key(pe->ip, pe->key, sizeof pe->key);
    else /* an IPv4 address's text is its key (at most 15 bytes) */
        memcpy(pe->key, pe->ip, strlen(pe->ip) + 1);
    return WSEL_OK;
}

/* Entry en of an SRV record as pe: its target (an IP or a name), port 0 -> the host's,
 * weight 0 -> 1. */
static void plan_srv_entry(const wsel__rhost *h, const wsel_ring_entry *en, pentry *pe)
{
    pe->iptype = wsel__ring_parse_ip(en->address, pe->ip, sizeof pe->ip);
    if (pe->iptype == WSEL_RING_NAME)
        snprintf(pe->ip, sizeof pe->ip, "%s", en->address);
    pe->port = en->port ? (uint16_t)en->port : h->port;
    pe->weight = en->weight ? en->weight : 1;
    /* 5.2.3's client brackets an IPv6 target before the key is built ('[' sorts after
     * digits); the target's text is kept as the record gives it */
    bool wrap = pe->iptype == WSEL_RING_IPV6 && en->address[0] != '[';
    snprintf(pe->key, sizeof pe->key, wrap ? "%06u:[%s]:%u" : "%06u:%s:%u", en->priority,
             en->address, en->port);
}

/* Reads a record into p->e (sorted, lowest SRV priority only), or the ttl=0 stand-in. */
static int plan_entries(wsel_ring *r, const wsel__rhost *h, const wsel_ring_record *rec,
                        plan *p, wsel_error *err)
{
    plan_init(p);
    if (rec->failed || rec->n_entries == 0) {
        /* a failure is an empty A record; the host keeps its place (section 7.4) */
        p->kind = WSEL_RING_A;
        p->prev_flag = true;
        p->expire = r->now + r->requery;
        return WSEL_OK;
    }
    if (rec->type != WSEL_RING_A && rec->type != WSEL_RING_AAAA && rec->type != WSEL_RING_SRV)
        return wsel__fail(err, WSEL_E_ADDR, NULL, 0, 0, h->name, NULL, NULL,
                          "ring: DNS answer for host '%s': unknown/unsupported record type %d",
                          h->name, (int)rec->type);
    if (!rec->entries)
        return bad_answer(err, h, "entries missing", "");
    if (rec->entries[0].ttl == 0 && h->prev_ttl0_or_empty)
        return plan_ttl0(r, h, p, err);
    p->kind = (int)rec->type;
    p->real_srv = rec->type == WSEL_RING_SRV;
    p->prev_flag = rec->entries[0].ttl == 0;
    uint32_t minttl, minprio;
    int rc = check_entries(h, rec, p->real_srv, &minttl, &minprio, err);
    if (rc)
        return rc;
    p->expire = r->now + (double)minttl;
    if (!plan_room(p, rec->n_entries))
        return nomem(err);
    for (size_t i = 0; i < rec->n_entries; i++) {
        const wsel_ring_entry *en = &rec->entries[i];
        pentry *pe = &p->e[p->n];
        if (p->real_srv && en->priority != minprio)
            continue; /* [T]: only the lowest priority, always (section 7.2) */
        if (p->real_srv) {
            plan_srv_entry(h, en, pe);
        } else if ((rc = plan_ip_entry(h, rec->type, en, pe, err))) {
            plan_free(r, p);
            return rc;
        }
        pe->ord = i;
        p->n++;
    }
    if (p->n > 1)
        qsort(p->e, p->n, sizeof *p->e, cmp_pentry);
    return WSEL_OK;
}

/* An address and its text are one block (addr_free), a spare one if there is one: every
 * field is set here, none kept from a spare's earlier life. */
static wsel__raddr *addr_new(wsel_ring *r, wsel__rhost *h, const pentry *pe)
{
    size_t len = strlen(pe->ip) + 1;
    wsel__raddr *a = block_take(&r->spare_a, sizeof *a, len);
    if (!a)
        return NULL;
    *a = (wsel__raddr){.ip = (char *)(a + 1), .iptype = pe->iptype, .port = pe->port,
                       .weight = pe->weight, .available = true, .host = h,
                       .serial = ++r->serial};
    memcpy(a->ip, pe->ip, len);
    r->wmax = a->weight > r->wmax ? a->weight : r->wmax;
    return a;
}

/* Section 7.3: which old addresses the new entries keep, and the new addresses needed. */
static int plan_addresses(wsel_ring *r, wsel__rhost *h, plan *p, wsel_error *err)
{
    bool same = p->kind == h->rtype;
    bool *used = NULL;
    if (same && h->n) {
        used = calloc(h->n, sizeof *used);
        if (!used)
            return nomem(err);
    }
    size_t fresh = 0;
    for (size_t i = 0; i < p->n; i++) {
        pentry *pe = &p->e[i];
        if (same)
            for (size_t k = 0; k < h->n; k++) {
                wsel__raddr *a = h->a[k];
                if (!used[k] && !a->disabled && a->port == pe->port && strcmp(a->ip, pe->ip) == 0) {
                    used[k] = true;
                    pe->match = a;
                    break;
                }
            }
        if (!pe->match) {
            pe->fresh = addr_new(r, h, pe);
            if (!pe->fresh) {
                free(used);
                return nomem(err);
            }
            fresh++;
        }
    }
    free(used);
    if (!wsel__grow(&r->addr, &r->capaddr, r->naddr + fresh, sizeof *r->addr) ||
        !wsel__grow(&h->a, &h->cap, h->n + fresh, sizeof *h->a))
        return nomem(err);
    return WSEL_OK;
}


/* Applies a plan: disable what goes, append what comes, redistribute once (unless
 * `settle` is false: a batch build, whose new hosts have nothing to disable, replays the
 * redistributions later), delete the disabled addresses (section 7.3). Cannot fail. */
static void apply_plan(wsel_ring *r, wsel__rhost *h, plan *p, bool settle)
{
    for (size_t k = 0; k < h->n; k++) {
        wsel__raddr *a = h->a[k];
        bool kept = false;
        for (size_t i = 0; i < p->n && !kept; i++)
            kept = p->e[i].match == a;
        if (!kept) {
            a->disabled = true;
            wsel__ring_set_weight(r, a, 0);
        }
    }
    for (size_t i = 0; i < p->n; i++) {
        pentry *pe = &p->e[i];
        if (pe->match) {
            /* SRV weight changes in place; A/AAAA: unchanged */
            wsel__ring_set_weight(r, pe->match, pe->weight);
            r->wmax = pe->weight > r->wmax ? pe->weight : r->wmax;
        } else {
            h->a[h->n++] = pe->fresh;
            r->wsum += pe->fresh->weight; /* (it enters the address array below) */
            pe->fresh = NULL;
        }
    }
    h->rtype = p->kind;
    h->real_srv = p->real_srv;
    h->ttl0 = p->ttl0;
    h->prev_ttl0_or_empty = p->prev_flag;
    h->expire = p->expire;
    renumber(r, h->idx, h->first);
    if (settle)
        redistribute(r);
    size_t w = 0;
    for (size_t k = 0; k < h->n; k++) {
        if (h->a[k]->disabled)
            addr_free(r, h->a[k]);
        else
            h->a[w++] = h->a[k];
    }
    if (w != h->n) { /* (else the numbers above stand) */
        h->n = w;
        renumber(r, h->idx, h->first);
    }
}

/* Section 7: an IP-literal host answers itself, as an A or AAAA record of one entry
 * that never expires: its own canonical text `self` (an IPv6 address's holds a colon),
 * its port and weight. */
static void plan_self(const wsel__rhost *h, const char *self, plan *p)
{
    plan_init(p);
    plan_room(p, 1);
    p->n = 1;
    p->e->iptype = strchr(self, ':') ? WSEL_RING_IPV6 : WSEL_RING_IPV4;
    p->kind = p->e->iptype == WSEL_RING_IPV4 ? WSEL_RING_A : WSEL_RING_AAAA;
    p->expire = INFINITY;
    memcpy(p->e->ip, self, strlen(self) + 1); /* (at most 46 bytes) */
    p->e->port = h->port;
    p->e->weight = h->node_weight;
}

/* Asks the resolver about h (an IP literal answers itself: plan_self, with its
 * canonical text `self`, or NULL to work it out here) and plans the update. */
static int resolve_plan(wsel_ring *r, wsel__rhost *h, const char *self, plan *p,
                        wsel_error *err)
{
    int rc = WSEL_OK;
    unsigned na = r->spare_a.n;
    if (h->literal) {
        char own[64];
        if (!self) {
            wsel__ring_parse_ip(h->name, own, sizeof own);
            self = own;
        }
        plan_self(h, self, p);
    } else {
        wsel_ring_record rec;
        memset(&rec, 0, sizeof rec);
        if (r->dns.resolve(r->dns.ctx, h->name, &rec) != 0) {
            memset(&rec, 0, sizeof rec);
            rec.failed = true;
        }
        rc = plan_entries(r, h, &rec, p, err);
    }
    if (rc == WSEL_OK)
        rc = plan_addresses(r, h, p, err);
    if (rc != WSEL_OK) {
        plan_free(r, p);
        spares_trim(r, r->spare_h.n, na);
    }
    return rc;
}

int wsel__ring_query(wsel_ring *r, wsel__rhost *h, wsel_error *err)
{
    plan p;
    int rc = resolve_plan(r, h, NULL, &p, err);
    if (rc != WSEL_OK)
        return rc;
    apply_plan(r, h, &p, true);
    plan_free(r, &p);
    return WSEL_OK;
}

const wsel__raddr *wsel__ring_find_serial(const wsel__rhost *h, uint64_t serial)
{
    for (size_t k = 0; k < h->n; k++)
        if (h->a[k]->serial == serial)
            return h->a[k];
    return NULL;
}

/* ---- the host index ---------------------------------------------------------------- */

static _Atomic uint64_t costs[WSEL__RING_COSTS];

uint64_t wsel__ring_cost(wsel__ring_cost_kind kind)
{
    return atomic_load_explicit(&costs[kind], memory_order_relaxed);
}

void wsel__ring_cost_add(wsel__ring_cost_kind kind, uint64_t n)
{
    atomic_fetch_add_explicit(&costs[kind], n, memory_order_relaxed);
}

/* wsel__ring_find_host, with key = wsel__ring_name_key(name) known. */
static wsel__rhost *find_keyed(const wsel_ring *r, const char *name, uint32_t key,
                               uint32_t port)
{
    uint64_t k = 0;
    wsel__rhost *h = r->nbucket ? r->bucket[key & (r->nbucket - 1)] : NULL;
    for (; h && ++k; h = h->hnext)
        if (h->nkey == key && h->port == port && strcmp(h->name, name) == 0)
            break;
    wsel__ring_cost_add(WSEL__RING_EXAMINED, k);
    return h;
}

wsel__rhost *wsel__ring_find_host(const wsel_ring *r, const char *name, uint32_t port)
{
    return find_keyed(r, name, wsel__ring_name_key(name), port);
}

wsel__rhost *wsel__ring_next_named(const wsel_ring *r, const char *name, size_t after)
{
    uint32_t key = wsel__ring_name_key(name);
    uint64_t k = 0;
    wsel__rhost *best = NULL;
    for (wsel__rhost *h = r->nbucket ? r->bucket[key & (r->nbucket - 1)] : NULL; h;
         h = h->hnext, k++)
        if (h->nkey == key && (after == SIZE_MAX || h->idx > after) &&
            (!best || h->idx < best->idx) && strcmp(h->name, name) == 0)
            best = h;
    wsel__ring_cost_add(WSEL__RING_EXAMINED, k);
    return best;
}

/* Room in the index for one more host (nbucket >= nh + 1); false when out of memory,
 * the index unchanged. */
static bool index_room(wsel_ring *r)
{
    if (r->nh + 1 <= r->nbucket)
        return true;
    size_t nb = r->nbucket ? r->nbucket * 2 : 16;
    wsel__rhost **b = calloc(nb, sizeof *b);
    if (!b)
        return false;
    for (size_t i = 0; i < r->nh; i++) {
        wsel__rhost *h = r->h[i];
        h->hnext = b[h->nkey & (nb - 1)];
        b[h->nkey & (nb - 1)] = h;
    }
    free(r->bucket);
    r->bucket = b;
    r->nbucket = nb;
    return true;
}

/* Host h, whose nkey is set, into the index. */
static void index_add(wsel_ring *r, wsel__rhost *h)
{
    h->hnext = r->bucket[h->nkey & (r->nbucket - 1)];
    r->bucket[h->nkey & (r->nbucket - 1)] = h;
}

static void index_remove(wsel_ring *r, wsel__rhost *h)
{
    wsel__rhost **p = &r->bucket[h->nkey & (r->nbucket - 1)];
    while (*p != h)
        p = &(*p)->hnext;
    *p = h->hnext;
}

/* ---- section 6: changes ---------------------------------------------------------------- */

static int check_host_args(const char *name, int64_t port, int64_t weight, wsel_error *err)
{
    if (!name || !name[0] || strlen(name) > 253)
        return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, NULL, NULL, name,
                          "ring: expected a hostname (non-empty string of at most 253 bytes)");
    if (port < 1 || port > 65535)
        return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, name, NULL, name,
                          "ring: host '%s': port must be between 1 and 65535, got %lld", name,
                          (long long)port);
    if (weight < 1 || weight > WSEL_RING_MAX_WEIGHT)
        return wsel__fail(err, WSEL_E_WEIGHT, NULL, 0, 0, name, NULL, name,
                          "ring: host '%s': weight must be an integer in 1..%u, got %lld", name,
                          WSEL_RING_MAX_WEIGHT, (long long)weight);
    return WSEL_OK;
}

static void set_host_weight(wsel_ring *r, wsel__rhost *h, uint32_t weight)
{
    if (weight == h->node_weight)
        return;
    h->node_weight = weight;
    if (h->real_srv || h->n == 0)
        return; /* SRV weights win; a failed host uses it when it resolves */
    for (size_t k = 0; k < h->n; k++)
        wsel__ring_set_weight(r, h->a[k], weight);
    r->wmax = weight > r->wmax ? weight : r->wmax;
    redistribute(r);
}

/* A host and its name are one block (host_free), a spare one if there is one: every
 * field is set here, none kept from a spare's earlier life but its address array
 * (empty; NULL in a new block). */
static wsel__rhost *host_new(wsel_ring *r, const char *name, uint32_t key, uint32_t port,
                             uint32_t weight)
{
    size_t len = strlen(name) + 1;
    wsel__rhost *h = block_take(&r->spare_h, sizeof *h, len);
    if (!h)
        return NULL;
    wsel__raddr **a = h->a;
    size_t cap = h->cap;
    *h = (wsel__rhost){.name = (char *)(h + 1), .port = (uint16_t)port, .node_weight = weight,
                       .prev_ttl0_or_empty = true, .a = a, .cap = cap, .nkey = key};
    memcpy(h->name, name, len);
    return h;
}

static void host_free(wsel_ring *r, wsel__rhost *h)
{
    for (size_t k = 0; k < h->n; k++)
        addr_free(r, h->a[k]);
    h->n = 0;
    if (!block_give(&r->spare_h, h, sizeof *h, strlen(h->name) + 1)) {
        free(h->a);
        free(h);
    }
}

/* Appends new host (name, port), key its wsel__ring_name_key, resolved; settle: and
 * redistributes (else a batch build replays the redistributions later,
 * wsel__ring_replay). */
static int host_append(wsel_ring *r, const char *name, uint32_t key, uint32_t port,
                       uint32_t weight, bool settle, wsel_error *err)
{
    if (!wsel__grow(&r->h, &r->caph, r->nh + 1, sizeof *r->h) || !index_room(r))
        return nomem(err);
    unsigned nh = r->spare_h.n;
    wsel__rhost *h = host_new(r, name, key, port, weight);
    if (!h)
        return nomem(err);
    char self[64]; /* an IP literal's canonical text */
    h->literal = wsel__ring_parse_ip(name, self, sizeof self) != WSEL_RING_NAME;
    plan p;
    int rc = resolve_plan(r, h, self, &p, err);
    if (rc) {
        host_free(r, h);
        spares_trim(r, nh, r->spare_a.n);
        return rc;
    }
    h->idx = r->nh;
    h->first = r->naddr;
    r->h[r->nh++] = h;
    index_add(r, h);
    apply_plan(r, h, &p, settle);
    plan_free(r, &p);
    return WSEL_OK;
}

int wsel_ring_add_host(wsel_ring *r, const char *name, uint32_t port, uint32_t weight,
                       wsel_error *err)
{
    if (!r)
        return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, NULL, NULL, NULL, "ring: no ring");
    int rc = check_host_args(name, port, weight, err);
    if (rc)
        return rc;
    uint32_t key = wsel__ring_name_key(name);
    wsel__rhost *h = find_keyed(r, name, key, port);
    if (h) {
        set_host_weight(r, h, weight);
        return WSEL_OK;
    }
    return host_append(r, name, key, port, weight, true, err);
}

int wsel_ring_remove_host(wsel_ring *r, const char *name, uint32_t port, bool *found,
                          wsel_error *err)
{
    if (found)
        *found = false;
    if (!r || !name)
        return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, NULL, NULL, NULL,
                          "ring: expected a hostname (string)");
    wsel__rhost *h = wsel__ring_find_host(r, name, port);
    if (!h)
        return WSEL_OK;
    size_t i = h->idx;
    for (size_t k = 0; k < h->n; k++) {
        h->a[k]->disabled = true;
        wsel__ring_set_weight(r, h->a[k], 0);
    }
    redistribute(r);
    memmove(&r->h[i], &r->h[i + 1], (r->nh - i - 1) * sizeof *r->h);
    r->nh--;
    index_remove(r, h);
    renumber(r, i, h->first);
    host_free(r, h);
    if (found)
        *found = true;
    return WSEL_OK;
}

int wsel_ring_refresh(wsel_ring *r, const char *name, wsel_error *err)
{
    if (!r || !name)
        return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, NULL, NULL, NULL,
                          "ring: expected a hostname (string)");
    /* every host of that name (any port), in list order */
    for (wsel__rhost *h = wsel__ring_next_named(r, name, SIZE_MAX); h;
         h = wsel__ring_next_named(r, name, h->idx))
        if (!h->literal) {
            int rc = wsel__ring_query(r, h, err);
            if (rc)
                return rc;
        }
    return WSEL_OK;
}

int wsel_ring_tick(wsel_ring *r, double now, wsel_error *err)
{
    if (!r || !(now >= r->now) || !isfinite(now))
        return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, NULL, NULL, NULL,
                          "ring: the clock cannot go backwards or be non-finite");
    r->now = now;
    for (size_t i = 0; i < r->nh; i++)
        if (r->h[i]->expire + 0.5 <= now) { /* [R]'s timer: at expire + 0.5 s */
            int rc = wsel__ring_query(r, r->h[i], err);
            if (rc)
                return rc;
        }
    return WSEL_OK;
}

/* ---- section 10: availability ------------------------------------------------------- */

int wsel_ring_set_address_status(wsel_ring *r, const char *ip, uint32_t port,
                                 const char *hostname, bool available, wsel_error *err)
{
    if (!r || !ip)
        return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, NULL, NULL, NULL, "ring: no address");
    char canon[256];
    wsel_ring_iptype t = wsel__ring_parse_ip(ip, canon, sizeof canon);
    if (t == WSEL_RING_NAME)
        snprintf(canon, sizeof canon, "%s", ip);
    const char *hn = hostname ? hostname : ip;
    size_t hits = 0;
    /* 5.2.3 stores an IPv6 address in brackets and compares the text: an unbracketed
     * IPv6 address matches nothing (section 10) */
    bool bare6 = t == WSEL_RING_IPV6 && ip[0] != '[';
    for (wsel__rhost *h = bare6 ? NULL : wsel__ring_next_named(r, hn, SIZE_MAX); h;
         h = wsel__ring_next_named(r, hn, h->idx)) {
        for (size_t k = 0; k < h->n; k++)
            if (h->a[k]->port == port && strcmp(h->a[k]->ip, canon) == 0) {
                h->a[k]->available = available;
                hits++;
            }
    }
    if (!hits)
        return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, hn, NULL, ip,
                          "ring: no peer found by name '%s' and address %s:%u", hn, ip, port);
    return WSEL_OK;
}

int wsel_ring_set_host_status(wsel_ring *r, const char *name, uint32_t port, bool available,
                              wsel_error *err)
{
    wsel__rhost *h = r && name ? wsel__ring_find_host(r, name, port) : NULL;
    if (!h)
        return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, name, NULL, NULL,
                          "ring: no host '%s' with port %u", name ? name : "(null)", port);
    for (size_t k = 0; k < h->n; k++)
        h->a[k]->available = available;
    return WSEL_OK;
}

/* ---- section 2: construction ------------------------------------------------------------ */

void wsel_ring_opts_init(wsel_ring_opts *o)
{
    if (!o)
        return;
    memset(o, 0, sizeof *o);
    o->wheel_size = -1;
    o->requery = 1;
    o->ttl0 = 60;
    o->rr_start = 1;
}

/* A host given at construction, sorted by the bytes of name followed by `suffix`. */
typedef struct hs {
    const wsel_ring_host_spec *s;
    size_t len;                 /* strlen(s->name) */
    char suffix[8];             /* ":" and the port as given, or ":" alone */
    size_t ord;
} hs;

static unsigned char hs_byte(const hs *h, size_t i)
{
    return (unsigned char)(i < h->len ? h->s->name[i] : h->suffix[i - h->len]);
}

static int cmp_hs(const void *pa, const void *pb)
{
    const hs *a = pa, *b = pb;
    for (size_t i = 0;; i++) {
        unsigned char ca = hs_byte(a, i), cb = hs_byte(b, i);
        if (ca != cb)
            return ca < cb ? -1 : 1;
        if (!ca)
            return (a->ord > b->ord) - (a->ord < b->ord);
    }
}

static int opt_fail(wsel_error *err, const char *opt, const char *fmt, double v)
{
    return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, NULL, opt, NULL, fmt, v);
}

static int check_opts(const wsel_ring_opts *o, uint32_t *n_out, wsel_error *err)
{
    if (!o->dns.resolve)
        return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, NULL, "dns", NULL,
                          "ring: expected option 'dns' to be a configured resolver");
    if (!(o->requery > 0) || !isfinite(o->requery))
        return opt_fail(err, "requery", "ring: expected 'requery' to be > 0, got %g", o->requery);
    if (!(o->ttl0 > 0) || !isfinite(o->ttl0))
        return opt_fail(err, "ttl0", "ring: expected 'ttl0' to be > 0, got %g", o->ttl0);
    if (!(o->health_threshold >= 0 && o->health_threshold <= 100))
        return opt_fail(err, "healthThreshold",
                        "ring: expected 'healthThreshold' to be in the range 0-100, got %g",
                        o->health_threshold);
    if (!isfinite(o->now))
        return opt_fail(err, "now", "ring: the clock must be finite, got %g", o->now);
    int64_t n = o->wheel_size;
    if (n < 0)
        n = o->order ? (int64_t)o->order_len : WSEL_RING_DEFAULT_SIZE;
    if (n < 1 || n > WSEL_RING_MAX_SLOTS)
        return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, NULL, "wheelSize", NULL,
                          "ring: 'wheelSize' must be an integer in 1..%u, got %lld",
                          WSEL_RING_MAX_SLOTS, (long long)n);
    if (o->order && o->order_len != (size_t)n)
        return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, NULL, "order", NULL,
                          "ring: mismatch between size of 'order' (%zu) and 'wheelSize' (%lld)",
                          o->order_len, (long long)n);
    if (o->rr_start < 1 || o->rr_start > n)
        return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, NULL, "rrStart", NULL,
                          "ring: 'rrStart' must be a slot in 1..%lld, got %lld", (long long)n,
                          (long long)o->rr_start);
    if (o->n_hosts && !o->hosts)
        return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, NULL, "hosts", NULL, "ring: hosts missing");
    for (size_t i = 0; i < o->n_hosts; i++) {
        const wsel_ring_host_spec *s = &o->hosts[i];
        int rc = check_host_args(s->name, s->port < 0 ? 80 : s->port,
                                 s->weight < 0 ? 10 : s->weight, err);
        if (rc)
            return rc;
    }
    *n_out = (uint32_t)n;
    return WSEL_OK;
}

/* The hosts given at construction, sorted (section 2). 5.2.3 adds them one by one, each
 * with a redistribution; in its mode, with `batch`, wsel appends them and replays those
 * redistributions at the end (wsel__ring_replay: the same wheel). A host given twice
 * (the second changes its weight) ends the batch there: the hosts so far are replayed,
 * the rest added one by one. */
static int add_hosts(wsel_ring *r, const hs *v, size_t n, bool batch, wsel_error *err)
{
    batch = batch && !r->strict && n > 1;
    size_t *ends = batch ? malloc(n * sizeof *ends) : NULL, nsteps = 0;
    if (batch && !ends)
        return nomem(err);
    int rc = WSEL_OK;
    for (size_t i = 0; i < n && rc == WSEL_OK; i++) {
        const wsel_ring_host_spec *s = v[i].s;
        uint32_t port = s->port < 0 ? 80u : (uint32_t)s->port;
        uint32_t weight = s->weight < 0 ? 10u : (uint32_t)s->weight;
        uint32_t key = wsel__ring_name_key(s->name);
        if (batch && find_keyed(r, s->name, key, port)) {
            batch = false;
            rc = wsel__ring_replay(r, ends, nsteps, err);
        }
        if (rc == WSEL_OK && batch) {
            rc = host_append(r, s->name, key, port, weight, false, err);
            ends[nsteps++] = r->naddr;
        } else if (rc == WSEL_OK) {
            rc = wsel_ring_add_host(r, s->name, port, weight, err);
        }
    }
    if (rc == WSEL_OK && batch)
        rc = wsel__ring_replay(r, ends, nsteps, err);
    free(ends);
    return rc;
}

int wsel_ring_new(const wsel_ring_opts *o, wsel_ring **out, wsel_error *err)
{
    return wsel__ring_new(o, true, out, err);
}

int wsel__ring_new(const wsel_ring_opts *o, bool batch, wsel_ring **out, wsel_error *err)
{
    if (!o || !out)
        return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, NULL, NULL, NULL,
                          "ring: expected an options record");
    *out = NULL;
    uint32_t n = 0;
    int rc = check_opts(o, &n, err);
    if (rc)
        return rc;
    wsel_ring *r = calloc(1, sizeof *r);
    if (!r)
        return nomem(err);
    r->n = n;
    /* the per-slot arrays in one block: wheel[0..n], next[0..n], prev[0..n], free[0..n) */
    size_t m = (size_t)n + 1;
    r->wheel = calloc(1, m * sizeof *r->wheel + (3 * m - 1) * sizeof *r->next);
    if (!r->wheel) {
        free(r);
        return nomem(err);
    }
    r->next = (uint32_t *)(r->wheel + m);
    r->prev = r->next + m;
    r->free = r->prev + m;
    rc = o->order ? wsel__ring_ranks(o->order, n, r->free, err)
                  : wsel_ring_default_order(n, r->free, err);
    if (rc) {
        wsel_ring_free(r);
        return rc;
    }
    r->nfree = n; /* the top is the last entry: order[N] goes out first */
    r->threshold = o->health_threshold;
    r->requery = o->requery;
    r->ttl0 = o->ttl0;
    r->now = o->now;
    r->pointer = (uint32_t)o->rr_start;
    r->use_srv_name = o->use_srv_name;
    r->strict = o->strict;
    r->dns = o->dns;

    /* hosts sorted by the bytes of "name:port" (port as given, or empty) */
    hs *v = calloc(o->n_hosts ? o->n_hosts : 1, sizeof *v);
    if (!v) {
        wsel_ring_free(r);
        return nomem(err);
    }
    for (size_t i = 0; i < o->n_hosts; i++) {
        const wsel_ring_host_spec *s = &o->hosts[i];
        v[i].s = s;
        v[i].len = strlen(s->name);
        v[i].ord = i;
        if (s->port < 0)
            snprintf(v[i].suffix, sizeof v[i].suffix, ":");
        else /* 1..65535 (check_opts) */
            snprintf(v[i].suffix, sizeof v[i].suffix, ":%u", (unsigned)s->port);
    }
    qsort(v, o->n_hosts, sizeof *v, cmp_hs);
    rc = add_hosts(r, v, o->n_hosts, batch, err);
    free(v);
    if (rc) {
        wsel_ring_free(r);
        return rc;
    }
    *out = r;
    return WSEL_OK;
}

void wsel_ring_free(wsel_ring *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->nh; i++)
        host_free(r, r->h[i]);
    spares_trim(r, 0, 0);
    free(r->h);
    free(r->bucket);
    free(r->wheel); /* and next, prev, free */
    free(r->addr);
    wsel__ring_journal_stop(r);
    free(r);
}
