/* The ring's invariants (doc/ring.md sections 1, 8 and 12) after every operation of
 * generated scenarios: seeded, deterministic operation sequences (hosts by IP and by name,
 * weight changes, removals, DNS answers of every kind including failures and ttl=0,
 * availability flips, clock moves, picks) run on two rings side by side.
 *
 * After each operation: the library's own structural check; both rings identical slot for
 * slot (determinism); every count equal to the apportionment formula computed here with
 * exact integer arithmetic; count >= floor(N w / W); equal weights -> counts within 1; while
 * total weight stays > 0, owner changes == sum of max(0, new - old) and every address whose
 * count did not grow keeps a prefix of its slot list; status changes and picks move no slot.
 * Picks: round-robin over N calls and hashes over N consecutive integers give each address
 * exactly its slot count when all are available; h and h + N agree.
 *
 * 5.2.3's exactness (doc/ring.md sections 4, 9, 10; not in strict runs, whose draws stay
 * those doc/ring.md section 8's figures were measured on): AAAA answers drawn from
 * spellings whose uncompressed and compressed orders differ, SRV targets that are IPv6
 * literals beside IPv4 ones on both sides of '[', and the address order of every host
 * newly added checked against the sort keys computed here from 5.2.3's rule; round-robin
 * walks over wheels whose every slot owner was marked down (status with bracketed IPv6,
 * the bare spelling refused), after which the next pick must start N + 1 pointer steps
 * from the walk's start. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include <cmocka.h>

#include "ring_mock.h"
#include "support/support.h"

#define NAMES 4

#ifndef RING_GEN_STRICT
#define RING_GEN_EXACT 1
#endif
#include "../core/ring/ring_model.h" /* wsel__ring_new: the one-by-one build; host lists */

typedef struct view {
    size_t na;
    char (*key)[160];
    uint32_t *weight;
    bool *available;
    uint32_t **slots;
    size_t *count;
    long *owner;
    uint32_t n;
} view;

static void view_free(view *v)
{
    for (size_t i = 0; i < v->na; i++)
        free(v->slots[i]);
    free(v->key);
    free(v->weight);
    free(v->available);
    free(v->slots);
    free(v->count);
    free(v->owner);
    memset(v, 0, sizeof *v);
}

static void view_take(const wsel_ring *r, view *v)
{
    v->n = wsel_ring_size(r);
    v->na = wsel_ring_address_count(r);
    size_t m = v->na + 1;
    v->key = calloc(m, sizeof *v->key);
    v->weight = calloc(m, sizeof *v->weight);
    v->available = calloc(m, sizeof *v->available);
    v->slots = calloc(m, sizeof *v->slots);
    v->count = calloc(m, sizeof *v->count);
    v->owner = calloc(v->n + 1, sizeof *v->owner);
    assert_true(v->key && v->weight && v->available && v->slots && v->count && v->owner);
    for (size_t i = 0; i < v->na; i++) {
        wsel_ring_address a;
        wsel_ring_address_get(r, i, &a);
        unsigned occ = 0;
        snprintf(v->key[i], sizeof v->key[i], "%s:%u|%s:%u", a.host, a.host_port, a.ip, a.port);
        for (size_t k = 0; k < i; k++)
            occ += strncmp(v->key[k], v->key[i], strlen(v->key[i])) == 0;
        size_t len = strlen(v->key[i]);
        snprintf(v->key[i] + len, sizeof v->key[i] - len, "#%u", occ);
        v->weight[i] = a.weight;
        v->available[i] = a.available;
        v->count[i] = a.n_slots;
        v->slots[i] = malloc((a.n_slots + 1) * sizeof *v->slots[i]);
        assert_non_null(v->slots[i]);
        wsel_ring_address_slots(r, i, v->slots[i]);
    }
    for (uint32_t s = 1; s <= v->n; s++)
        v->owner[s] = wsel_ring_owner(r, s);
}

static long find(const view *v, const char *key)
{
    for (size_t i = 0; i < v->na; i++)
        if (strcmp(v->key[i], key) == 0)
            return (long)i;
    return -1;
}

static uint64_t total_weight(const view *v)
{
    uint64_t w = 0;
    for (size_t i = 0; i < v->na; i++)
        w += v->weight[i];
    return w;
}

#ifndef RING_GEN_STRICT
/* Section 5 with exact integers: floor(L w / W + 1/10000) = floor((10000 L w + W) / (10000 W)). */
static void check_counts(const view *v, uint64_t seed, size_t step)
{
    uint64_t W = total_weight(v), L = v->n, W0 = W;
    bool equal = true;
    for (size_t i = 0; i < v->na; i++) {
        uint64_t c = W == 0 ? 0 : (10000 * L * v->weight[i] + W) / (10000 * W);
        if (v->count[i] != c)
            fail_msg("seed %llu step %zu: %s has %zu slots, the formula says %llu",
                     (unsigned long long)seed, step, v->key[i], v->count[i], (unsigned long long)c);
        if (W0 && v->count[i] < (uint64_t)v->n * v->weight[i] / W0)
            fail_msg("seed %llu step %zu: %s below floor(N w / W)", (unsigned long long)seed, step,
                     v->key[i]);
        L -= c;
        W -= v->weight[i];
        equal = equal && v->weight[i] == v->weight[0];
    }
    if (equal && v->na > 1 && W0) {
        size_t lo = v->count[0], hi = v->count[0];
        for (size_t i = 1; i < v->na; i++) {
            lo = v->count[i] < lo ? v->count[i] : lo;
            hi = v->count[i] > hi ? v->count[i] : hi;
        }
        if (hi - lo > 1)
            fail_msg("seed %llu step %zu: equal weights, counts %zu..%zu", (unsigned long long)seed,
                     step, lo, hi);
    }
}

#endif

/* How many hosts an op that touched `host` may have re-queried, each re-query a
 * redistribution of its own: "name:" (a DNS update) every host of that name, "*" (a
 * clock move, picks) every host with a name; else at most one. */
static size_t requeried(const wsel_ring *r, const char *host)
{
    size_t len = strlen(host), n = 0;
    bool all = strcmp(host, "*") == 0;
    if (!all && (len == 0 || host[len - 1] != ':'))
        return 1;
    for (size_t i = 0; i < r->nh; i++)
        n += !r->h[i]->literal && (all || (strncmp(r->h[i]->name, host, len - 1) == 0 &&
                                           r->h[i]->name[len - 1] == '\0'));
    return n;
}

/* One redistribution's movement (section 8): an address that did not grow keeps a
 * prefix of its slot list, and the slots that changed owner are the gains. An op that
 * re-queried several hosts made several redistributions, each with its own drops and
 * gains, so it is not checked. */
static void check_movement(const view *b, const view *a, uint64_t seed, size_t step)
{
    if (total_weight(b) == 0 || total_weight(a) == 0)
        return;
    uint64_t gains = 0, changed = 0;
    for (size_t i = 0; i < a->na; i++) {
        long k = find(b, a->key[i]);
        size_t old = k < 0 ? 0 : b->count[k];
        if (a->count[i] > old)
            gains += a->count[i] - old;
        else if (k >= 0) /* did not grow: keeps a prefix of its list */
            for (size_t s = 0; s < a->count[i]; s++)
                if (a->slots[i][s] != b->slots[k][s])
                    fail_msg("seed %llu step %zu: %s lost slot %u from its prefix",
                             (unsigned long long)seed, step, a->key[i], b->slots[k][s]);
    }
    for (uint32_t s = 1; s <= a->n; s++) {
        const char *x = b->owner[s] < 0 ? "" : b->key[b->owner[s]];
        const char *y = a->owner[s] < 0 ? "" : a->key[a->owner[s]];
        changed += strcmp(x, y) != 0;
    }
    if (changed != gains)
        fail_msg("seed %llu step %zu: %llu slots changed owner, gains add up to %llu",
                 (unsigned long long)seed, step, (unsigned long long)changed,
                 (unsigned long long)gains);
}

#ifdef RING_GEN_STRICT
/* Strict mode (RING_GEN_STRICT): no slot moves between two addresses the op did not
 * touch. `host` names what the op touched: "name:port" (add, remove), "name:" (a DNS
 * update of every host of that name), "*" (every host with a name: clock moves and
 * picks may re-query any of them), or "" (nothing). Also the largest distance of a
 * count from its exact quota N w / W, over every address and step. */
static double strict_max_dev;
static unsigned long strict_states, strict_off_quota;

static bool op_touches(const char *host, const char *key)
{
    if (!host[0])
        return false;
    if (strcmp(host, "*") == 0)
        return !(key[0] >= '0' && key[0] <= '9'); /* IP-literal hosts never re-query */
    return strncmp(key, host, strlen(host)) == 0 &&
           (host[strlen(host) - 1] == ':' || key[strlen(host)] == '|');
}

static void check_strict(const view *b, const view *a, const char *host, uint64_t seed,
                         size_t step)
{
    for (uint32_t s = 1; s <= a->n; s++) {
        if (b->owner[s] < 0 || a->owner[s] < 0)
            continue;
        const char *x = b->key[b->owner[s]], *y = a->key[a->owner[s]];
        if (strcmp(x, y) != 0 && find(a, x) >= 0 && find(b, y) >= 0 && !op_touches(host, x) &&
            !op_touches(host, y))
            fail_msg("seed %llu step %zu: strict mode moved slot %u between untouched %s and %s",
                     (unsigned long long)seed, step, s, x, y);
    }
    uint64_t W = total_weight(a);
    if (!W)
        return;
    bool off = false;
    for (size_t i = 0; i < a->na; i++) {
        double d = (double)a->count[i] - (double)a->n * a->weight[i] / (double)W;
        d = d < 0 ? -d : d;
        strict_max_dev = d > strict_max_dev ? d : strict_max_dev;
        off = off || d >= 1;
    }
    strict_states++;
    strict_off_quota += off;
}
#endif

static void same_wheel(const view *a, const view *b, uint64_t seed, size_t step)
{
    assert_int_equal(a->na, b->na);
    for (uint32_t s = 1; s <= a->n; s++) {
        const char *x = a->owner[s] < 0 ? "" : a->key[a->owner[s]];
        const char *y = b->owner[s] < 0 ? "" : b->key[b->owner[s]];
        if (strcmp(x, y) != 0)
            fail_msg("seed %llu step %zu: twins differ at slot %u", (unsigned long long)seed,
                     step, s);
    }
}

static void check_picks(wsel_ring *r, const view *v)
{
    if (!wsel_ring_healthy(r) || wsel_ring_unavailable_weight(r) != 0 || v->n > 2000)
        return;
    size_t *rr = calloc(v->na + 1, sizeof *rr), *hs = calloc(v->na + 1, sizeof *hs);
    assert_true(rr && hs);
    for (uint32_t i = 0; i < v->n; i++) {
        wsel_ring_handle h = {.mode = WSEL_RING_RR};
        wsel_ring_peer p;
        assert_int_equal(wsel_ring_pick(r, &h, true, &p, NULL), WSEL_OK);
        rr[wsel_ring_owner(r, p.slot)]++;
        h.mode = WSEL_RING_HASH;
        h.hash = 12345 + i;
        assert_int_equal(wsel_ring_pick(r, &h, true, &p, NULL), WSEL_OK);
        hs[wsel_ring_owner(r, p.slot)]++;
        uint32_t s1 = p.slot;
        h.hash += v->n;
        assert_int_equal(wsel_ring_pick(r, &h, true, &p, NULL), WSEL_OK);
        assert_int_equal(p.slot, s1);
    }
    for (size_t i = 0; i < v->na; i++) {
        assert_int_equal(rr[i], v->count[i]);
        assert_int_equal(hs[i], v->count[i]);
    }
    free(rr);
    free(hs);
}

/* ---- the generator ------------------------------------------------------------------------- */

#ifdef RING_GEN_EXACT
/* AAAA spellings whose order differs between the uncompressed key 5.2.3 sorts by and the
 * compressed form ("::" < "1::" only uncompressed) or zero-padded groups ("10::" < "a::"
 * only unpadded), with an IPv4-embedded one and upper case. */
static const char *const v6pool[] = {
    "::", "1::", "::1", "A::", "10::", "2001:db8::", "2001:db8::1", "2001:db8:0:1::",
    "2001:db8::1:0:0", "fe80::1", "::ffff:10.0.0.1", "1:2:3:4:5:6:7:8", "0:0:1::", "::1:0:0:0"};

/* ---- 5.2.3's sort keys, from its rule (doc/ring.md section 4) ---------------------------- */

typedef struct want_entry {
    char key[320];
    char ip[80];        /* the address or target as answered (brackets stripped) */
    uint32_t port;      /* 0: the host's */
} want_entry;

/* The key of entry e of answer t: A as answered; AAAA all eight groups in lower-case hex
 * without leading zeros, in brackets; SRV "%06d:target:port" with an IPv6 target in
 * brackets, the raw port. */
static void want_key(const mock_name *t, const wsel_ring_entry *e, want_entry *w)
{
    const char *a = e->address;
    size_t len = strlen(a);
    if (a[0] == '[' && len > 2)
        snprintf(w->ip, sizeof w->ip, "%.*s", (int)(len - 2), a + 1);
    else
        snprintf(w->ip, sizeof w->ip, "%s", a);
    w->port = t->type == WSEL_RING_SRV ? e->port : 0;
    if (t->type == WSEL_RING_A) {
        snprintf(w->key, sizeof w->key, "%s", a);
    } else if (t->type == WSEL_RING_AAAA) {
        unsigned char b[16];
        assert_int_equal(inet_pton(AF_INET6, a, b), 1);
        size_t n = 0;
        for (int g = 0; g < 8; g++)
            n += (size_t)snprintf(w->key + n, sizeof w->key - n, "%s%x", g ? ":" : "[",
                                  (unsigned)(b[2 * g] << 8 | b[2 * g + 1]));
        snprintf(w->key + n, sizeof w->key - n, "]");
    } else {
        bool v6 = strchr(a, ':') && a[0] != '[';
        snprintf(w->key, sizeof w->key, v6 ? "%06u:[%s]:%u" : "%06u:%s:%u", e->priority, a,
                 e->port);
    }
}

/* Whether address text x (canonical) is the same address as y (as answered). */
static bool same_addr(const char *x, const char *y)
{
    unsigned char bx[16], by[16];
    if (inet_pton(AF_INET6, x, bx) == 1 && inet_pton(AF_INET6, y, by) == 1)
        return memcmp(bx, by, 16) == 0;
    return strcmp(x, y) == 0;
}

/* A host (name, port) just added, whose addresses are the ring's from index first on:
 * they must be its answer's entries (lowest SRV priority) in 5.2.3's key order, ties in
 * answer order. Skipped for a ttl=0 stand-in. */
static unsigned long exact_orders;

static void check_fresh_order(const wsel_ring *r, const mock *m, const char *name,
                              uint32_t port, size_t first)
{
    const mock_name *t = NULL;
    for (size_t i = 0; i < m->n; i++)
        if (strcmp(m->t[i].name, name) == 0)
            t = &m->t[i];
    size_t na = wsel_ring_address_count(r);
    if (!t || t->fail || t->n == 0) {
        assert_int_equal(na, first);
        return;
    }
    if (t->e[0].ttl == 0)
        return;
    uint32_t lowest = UINT32_MAX;
    for (size_t i = 0; i < t->n; i++)
        if (t->type == WSEL_RING_SRV && t->e[i].priority < lowest)
            lowest = t->e[i].priority;
    want_entry w[MOCK_ENTRIES];
    size_t n = 0;
    for (size_t i = 0; i < t->n; i++) {
        if (t->type == WSEL_RING_SRV && t->e[i].priority != lowest)
            continue;
        want_entry x;
        want_key(t, &t->e[i], &x);
        size_t k = n++;
        for (; k > 0 && strcmp(w[k - 1].key, x.key) > 0; k--) /* stable insertion */
            w[k] = w[k - 1];
        w[k] = x;
    }
    assert_int_equal(na - first, n);
    for (size_t i = 0; i < n; i++) {
        wsel_ring_address ad;
        wsel_ring_address_get(r, first + i, &ad);
        if (!same_addr(ad.ip, w[i].ip) || ad.port != (w[i].port ? w[i].port : port))
            fail_msg("%s:%u: address %zu is %s:%u, 5.2.3's order (key %s) has %s", name, port,
                     i, ad.ip, ad.port, w[i].key, w[i].ip);
    }
    exact_orders++;
}
#endif

static void gen_answer(mock *m, const char *name, uint64_t *st)
{
    uint64_t kind = wsel_kit_range(st, 0, 9);
    uint32_t ttl = wsel_kit_range(st, 0, 4) == 0 ? 0 : (uint32_t)wsel_kit_range(st, 1, 20);
    if (kind == 0) {
        mock_fail(m, name);
        return;
    }
    if (kind <= 5 || kind == 9) {
        char addrs[6][64];
        const char *list[7];
        size_t n = wsel_kit_range(st, kind == 9 ? 0 : 1, 5);
        uint64_t base = wsel_kit_range(st, 0, 3);
        for (size_t i = 0; i < n; i++) {
#ifdef RING_GEN_EXACT
            if (kind == 5) {
                snprintf(addrs[i], sizeof addrs[i], "%s",
                         v6pool[wsel_kit_range(st, 0, sizeof v6pool / sizeof v6pool[0] - 1)]);
                list[i] = addrs[i];
                continue;
            }
#endif
            if (kind == 5)
                snprintf(addrs[i], sizeof addrs[i], "2001:db8::%llx",
                         (unsigned long long)(base * 8 + i));
            else
                snprintf(addrs[i], sizeof addrs[i], "10.9.%llu.%zu", (unsigned long long)base, i + 1);
            list[i] = addrs[i];
        }
        list[n] = NULL;
        mock_addr(m, name, kind == 5 ? WSEL_RING_AAAA : WSEL_RING_A, ttl, list);
        return;
    }
    mock_srv_clear(m, name);
    size_t n = wsel_kit_range(st, 1, 5);
    for (size_t i = 0; i < n; i++) {
        char t[64];
        if (wsel_kit_range(st, 0, 2) == 0)
            snprintf(t, sizeof t, "n%llu.test", (unsigned long long)wsel_kit_range(st, 0, NAMES - 1));
#ifdef RING_GEN_EXACT
        else if (wsel_kit_range(st, 0, 1))
            /* IPv6 targets ('[' after the digits once bracketed) and IPv4 ones below and
             * above '2' */
            snprintf(t, sizeof t, wsel_kit_range(st, 0, 3) ? "2001:db8::8:%zu" : "[::8:%zu]",
                     i + 1);
        else if (wsel_kit_range(st, 0, 1))
            snprintf(t, sizeof t, "30.8.0.%zu", i + 1);
#endif
        else
            snprintf(t, sizeof t, "10.8.0.%zu", i + 1);
        mock_srv(m, name, t, (uint32_t)(i == 0 ? 0 : 8000 + i),
                 (uint32_t)wsel_kit_range(st, 0, 30), (uint32_t)wsel_kit_range(st, 1, 2),
                 i == 0 ? ttl : 30);
    }
}

static const uint32_t sizes[] = {1, 2, 3, 7, 10, 19, 60, 100, 257, 1000};

/* Two rings fed the same operations, each on its own copy of the resolver's data. */
typedef struct twins {
    mock m1, m2;
    wsel_ring *a, *b;
    double *order;      /* the rings' order list, or NULL */
    uint32_t n;
    bool equal;         /* every host of weight 10 */
    double now;
} twins;

#ifdef RING_GEN_EXACT
static unsigned long batch_builds, batch_hosts;

/* Hosts given at construction: up to max of the names the ops use (IP literals and the
 * resolver's names), the port given or not, the weight given or not; some twice. */
static size_t gen_hosts(const twins *t, uint64_t *st, wsel_ring_host_spec *spec,
                        char (*names)[32], size_t max)
{
    size_t n = wsel_kit_range(st, 0, 3) == 0 ? 0 : wsel_kit_range(st, 1, max);
    for (size_t i = 0; i < n; i++) {
        if (wsel_kit_range(st, 0, 1))
            snprintf(names[i], 32, "10.0.0.%llu", (unsigned long long)wsel_kit_range(st, 1, 12));
        else
            snprintf(names[i], 32, "n%llu.test", (unsigned long long)wsel_kit_range(st, 0, NAMES - 1));
        spec[i].name = names[i];
        /* names on port 80 only (given or not: both sort apart): a dns op on a name
         * held on two ports redistributes twice, which the movement check does not
         * allow for; IP literals on either port */
        bool ip = names[i][0] == '1';
        spec[i].port = wsel_kit_range(st, 0, 2) == 0 ? -1 : ip ? (int64_t)wsel_kit_range(st, 80, 81) : 80;
        spec[i].weight = wsel_kit_range(st, 0, 2) == 0 ? -1
                         : t->equal                    ? 10
                                                       : (int64_t)wsel_kit_range(st, 1, 100);
    }
    return n;
}

/* The batch build (wsel_ring_new, ring a) against 5.2.3's one host at a time
 * (wsel__ring_new with batch false) on the same resolver data: the same state. */
static void batch_is_one_by_one(twins *t, const wsel_ring_opts *o)
{
    static mock m3;
    m3 = t->m1;
    for (size_t i = 0; i < m3.n; i++)
        for (size_t k = 0; k < m3.t[i].n; k++)
            m3.t[i].e[k].address = m3.t[i].addr[k];
    wsel_ring_opts o3 = *o;
    o3.dns.ctx = &m3;
    wsel_ring *one = NULL;
    char why[256];
    assert_int_equal(wsel__ring_new(&o3, false, &one, NULL), WSEL_OK);
    const char *d = wsel_kit_ring_same_state(t->a, one, why, sizeof why);
    if (d)
        fail_msg("batch build of %zu hosts on %u slots differs from one by one: %s",
                 o->n_hosts, t->n, d);
    batch_builds++;
    batch_hosts += o->n_hosts;
    wsel_ring_free(one);
}
#endif

static void twins_new(twins *t, uint64_t *st)
{
    memset(t, 0, sizeof *t);
    for (int i = 0; i < NAMES; i++) {
        char name[16];
        snprintf(name, sizeof name, "n%d.test", i);
        gen_answer(&t->m1, name, st);
    }
    uint32_t n = t->n = sizes[wsel_kit_range(st, 0, sizeof sizes / sizeof sizes[0] - 1)];
    wsel_ring_opts o = mock_opts(&t->m1, n);
#ifdef RING_GEN_STRICT
    o.strict = true;
#endif
    if (wsel_kit_range(st, 0, 3) == 0) {
        t->order = malloc(n * sizeof *t->order);
        assert_non_null(t->order);
        for (uint32_t i = 0; i < n; i++)
            t->order[i] = (double)wsel_kit_mix(st) / 1e6 + i * 1e-3; /* distinct */
        o.order = t->order;
        o.order_len = n;
    }
    o.health_threshold = (double)wsel_kit_range(st, 0, 2) * 25;
    t->equal = wsel_kit_range(st, 0, 2) == 0;
#ifdef RING_GEN_EXACT
    wsel_ring_host_spec spec[16];
    char names[16][32];
    o.n_hosts = gen_hosts(t, st, spec, names, 16);
    o.hosts = spec;
#endif
    assert_int_equal(wsel_ring_new(&o, &t->a, NULL), WSEL_OK);
#ifdef RING_GEN_EXACT
    batch_is_one_by_one(t, &o);
#endif
    t->m2 = t->m1;
    for (size_t i = 0; i < t->m2.n; i++) /* the copy's entries point into its own storage */
        for (size_t k = 0; k < t->m2.t[i].n; k++)
            t->m2.t[i].e[k].address = t->m2.t[i].addr[k];
    o.dns.ctx = &t->m2;
    assert_int_equal(wsel_ring_new(&o, &t->b, NULL), WSEL_OK);
}

static void twins_free(twins *t)
{
    wsel_ring_free(t->a);
    wsel_ring_free(t->b);
    free(t->order);
}

/* Picks, with retries: identical outcomes on the twins. Returns whether the picks may
 * have moved nothing (cache_only: no re-query). */
static bool twins_pick(twins *t, uint64_t *st, char *host, size_t len)
{
    wsel_ring_handle ha = {.mode = (wsel_ring_mode)wsel_kit_range(st, 0, 2),
                           .hash = wsel_kit_mix(st) >> 11,
                           .u = (double)(wsel_kit_mix(st) >> 11) / 9007199254740992.0};
    wsel_ring_handle hb = ha;
    bool cache_only = wsel_kit_range(st, 0, 3) == 0;
    snprintf(host, len, "%s", cache_only ? "" : "*");
    for (int k = 0; k < 3; k++) {
        wsel_ring_peer pa, pb;
        assert_int_equal((k ? wsel_ring_retry : wsel_ring_pick)(t->a, &ha, cache_only, &pa, NULL), WSEL_OK);
        assert_int_equal((k ? wsel_ring_retry : wsel_ring_pick)(t->b, &hb, cache_only, &pb, NULL), WSEL_OK);
        assert_int_equal(pa.outcome, pb.outcome);
        assert_string_equal(pa.ip, pb.ip);
        assert_int_equal(pa.slot, pb.slot);
        assert_int_equal(pa.port, pb.port);
        assert_string_equal(pa.message, pb.message);
        assert_string_equal(pa.hostname ? pa.hostname : "-", pb.hostname ? pb.hostname : "-");
    }
    return cache_only;
}

#ifdef RING_GEN_EXACT
static unsigned long exact_no_peers, exact_pointer_checks;

/* One cache-only round-robin pick on both twins, the same outcome. */
static wsel_ring_peer twins_rr(twins *t)
{
    wsel_ring_handle ha = {.mode = WSEL_RING_RR}, hb = ha;
    wsel_ring_peer pa, pb;
    assert_int_equal(wsel_ring_pick(t->a, &ha, true, &pa, NULL), WSEL_OK);
    assert_int_equal(wsel_ring_pick(t->b, &hb, true, &pb, NULL), WSEL_OK);
    assert_int_equal(pa.outcome, pb.outcome);
    assert_int_equal(pa.slot, pb.slot);
    assert_string_equal(pa.ip, pb.ip);
    return pa;
}

/* Status of address ad on both twins, by the text 5.2.3 stores: an IPv6 address in
 * brackets (its bare spelling must find nothing), else the IP or the name. */
static void twins_status(twins *t, const wsel_ring_address *ad, const char *host, bool up)
{
    char ip[300];
    if (ad->iptype == WSEL_RING_IPV6) {
        assert_int_equal(wsel_ring_set_address_status(t->a, ad->ip, ad->port, host, up, NULL),
                         WSEL_E_ARG);
        snprintf(ip, sizeof ip, "[%s]", ad->ip);
    } else {
        snprintf(ip, sizeof ip, "%s", ad->ip);
    }
    assert_int_equal(wsel_ring_set_address_status(t->a, ip, ad->port, host, up, NULL), WSEL_OK);
    assert_int_equal(wsel_ring_set_address_status(t->b, ip, ad->port, host, up, NULL), WSEL_OK);
}

/* Round-robin over a wheel whose every slot owner is down (doc/ring.md section 9): a pick
 * leaves the pointer just past its slot s; with every owner marked down the next pick
 * walks the whole wheel, NO_PEERS (or UNHEALTHY, which takes no pointer value), and 5.2.3's
 * loop has then advanced the pointer N + 1 times; with the owners back up, the next pick
 * is the first available slot from s + 2 (s + 1 after UNHEALTHY). Moves no slot. */
static void twins_rr_dark(twins *t, const view *before)
{
    uint32_t n = t->n;
    wsel_ring_peer p = twins_rr(t);
    bool known = p.outcome == WSEL_RING_PEER;
    uint32_t ptr = known ? p.slot % n + 1 : 0;
    bool *down = calloc(before->na + 1, sizeof *down);
    char (*host)[256] = calloc(before->na + 1, sizeof *host);
    assert_true(down && host);
    for (size_t i = 0; i < before->na; i++) {
        wsel_ring_address ad;
        wsel_ring_address_get(t->a, i, &ad);
        if (ad.n_slots && ad.available) {
            snprintf(host[i], sizeof host[i], "%s", ad.host);
            twins_status(t, &ad, host[i], false);
            down[i] = true;
        }
    }
    for (uint32_t s = 1; s <= n; s++) { /* every owner is down now */
        long o = wsel_ring_owner(t->a, s);
        wsel_ring_address ad;
        wsel_ring_address_get(t->a, (size_t)o, &ad);
        assert_false(ad.available);
    }
    p = twins_rr(t);
    assert_true(p.outcome == WSEL_RING_NO_PEERS || p.outcome == WSEL_RING_UNHEALTHY);
    if (p.outcome == WSEL_RING_NO_PEERS) {
        exact_no_peers++;
        ptr = ptr % n + 1;
    }
    for (size_t i = 0; i < before->na; i++)
        if (down[i]) {
            wsel_ring_address ad;
            wsel_ring_address_get(t->a, i, &ad);
            twins_status(t, &ad, host[i], true);
        }
    free(down);
    free(host);
    p = twins_rr(t);
    if (!known || p.outcome != WSEL_RING_PEER)
        return;
    uint32_t want = ptr;
    for (uint32_t k = 0; k < n; k++, want = want % n + 1) {
        wsel_ring_address ad;
        wsel_ring_address_get(t->a, (size_t)wsel_ring_owner(t->a, want), &ad);
        if (ad.available)
            break;
    }
    assert_int_equal(p.slot, want);
    exact_pointer_checks++;
}
#endif

/* One generated operation on both twins (`before`: the ring before it). host gets what it
 * touched: "name:port" (add, remove), "name:" (a DNS change), "*" (anything: the clock,
 * a pick that may re-query), "" (nothing). Returns whether it moves no slot. */
static bool twins_op(twins *t, uint64_t *st, const view *before, char *host, size_t len)
{
    wsel_ring *a = t->a, *b = t->b;
#ifdef RING_GEN_EXACT
    uint64_t op = wsel_kit_range(st, 0, 13);
    if (op == 13) {
        if (before->na && wsel_ring_weight(a) > 0)
            twins_rr_dark(t, before);
        return true;
    }
#else
    uint64_t op = wsel_kit_range(st, 0, 12);
#endif
    char name[32];
    uint32_t port = (uint32_t)wsel_kit_range(st, 80, 81);
    uint32_t w = t->equal ? 10
                 : wsel_kit_range(st, 0, 5) == 0 ? (uint32_t)wsel_kit_range(st, 1, 65535)
                                                  : (uint32_t)wsel_kit_range(st, 1, 100);
    if (wsel_kit_range(st, 0, 1))
        snprintf(name, sizeof name, "10.0.0.%llu", (unsigned long long)wsel_kit_range(st, 1, 12));
    else
        snprintf(name, sizeof name, "n%llu.test", (unsigned long long)wsel_kit_range(st, 0, NAMES - 1));
    if (op <= 6)
        snprintf(host, len, "%s:%u", name, port);
    if (op <= 4) {
#ifdef RING_GEN_EXACT
        size_t hosts = wsel_ring_host_count(a), first = wsel_ring_address_count(a);
#endif
        assert_int_equal(wsel_ring_add_host(a, name, port, w, NULL), WSEL_OK);
        assert_int_equal(wsel_ring_add_host(b, name, port, w, NULL), WSEL_OK);
#ifdef RING_GEN_EXACT
        if (wsel_ring_host_count(a) > hosts && name[0] == 'n')
            check_fresh_order(a, &t->m1, name, port, first);
#endif
    } else if (op <= 6) {
        assert_int_equal(wsel_ring_remove_host(a, name, port, NULL, NULL), WSEL_OK);
        assert_int_equal(wsel_ring_remove_host(b, name, port, NULL, NULL), WSEL_OK);
    } else if (op == 7) {
        snprintf(name, sizeof name, "n%llu.test", (unsigned long long)wsel_kit_range(st, 0, NAMES - 1));
        uint64_t s2 = *st;
        snprintf(host, len, "%s:", name);
        gen_answer(&t->m1, name, st);
        gen_answer(&t->m2, name, &s2);
        assert_int_equal(wsel_ring_refresh(a, name, NULL), WSEL_OK);
        assert_int_equal(wsel_ring_refresh(b, name, NULL), WSEL_OK);
    } else if (op == 8 && before->na) {
        size_t i = wsel_kit_range(st, 0, before->na - 1);
        wsel_ring_address ad;
        wsel_ring_address_get(a, i, &ad);
        bool up = wsel_kit_range(st, 0, 1);
        assert_int_equal(wsel_ring_set_host_status(a, ad.host, ad.host_port, up, NULL), WSEL_OK);
        assert_int_equal(wsel_ring_set_host_status(b, ad.host, ad.host_port, up, NULL), WSEL_OK);
        return true;
    } else if (op == 9) {
        t->now += (double)wsel_kit_range(st, 0, 40) / 4;
        snprintf(host, len, "*");
        assert_int_equal(wsel_ring_tick(a, t->now, NULL), WSEL_OK);
        assert_int_equal(wsel_ring_tick(b, t->now, NULL), WSEL_OK);
    } else {
        return twins_pick(t, st, host, len);
    }
    return false;
}

static void run_seed(uint64_t seed, size_t steps)
{
    uint64_t st = seed;
    twins t;
    twins_new(&t, &st);
    view before, after, twin;
    view_take(t.a, &before);
    for (size_t step = 0; step < steps; step++) {
        char host[48] = "";
        bool moves_nothing = twins_op(&t, &st, &before, host, sizeof host);
        wsel_error err;
        if (wsel_ring_check(t.a, &err) != WSEL_OK)
            fail_msg("seed %llu step %zu: %s", (unsigned long long)seed, step, err.message);
        view_take(t.a, &after);
        view_take(t.b, &twin);
        same_wheel(&after, &twin, seed, step);
#ifdef RING_GEN_STRICT
        check_strict(&before, &after, host, seed, step);
#else
        check_counts(&after, seed, step);
#endif
        if (requeried(t.a, host) <= 1)
            check_movement(&before, &after, seed, step);
        if (moves_nothing)
            for (uint32_t s = 1; s <= t.n; s++)
                assert_int_equal(after.owner[s], before.owner[s]);
        if (step % 8 == 0)
            check_picks(t.a, &after);
        view_free(&before);
        view_free(&twin);
        before = after;
    }
    view_free(&before);
    twins_free(&t);
}

static void test_generated(void **u)
{
    (void)u;
    unsigned seeds = wsel_kit_under_valgrind() ? 20 : 300;
    for (uint64_t seed = 1; seed <= seeds; seed++)
        run_seed(seed * 0x9E3779B97F4A7C15ull, 60);
#ifdef RING_GEN_STRICT
    printf("# strict: over %lu states, an address %s 1 slot or more off its exact quota in %lu; "
           "largest distance %.3f slots\n", strict_states, "was", strict_off_quota, strict_max_dev);
#else
    printf("# exactness: %lu new hosts' address order checked against 5.2.3's keys; %lu "
           "round-robin walks over a dark wheel ended NO_PEERS; %lu next picks checked\n",
           exact_orders, exact_no_peers, exact_pointer_checks);
    printf("# batch builds: %lu, of %lu hosts, each the same state as one by one\n",
           batch_builds, batch_hosts);
    assert_true(batch_builds == seeds);
    assert_true(exact_orders >= seeds && exact_no_peers >= seeds / 20 &&
                exact_pointer_checks >= seeds / 4); /* the draws reach each case */
#endif
}

/* Equal weights never move a slot between untouched addresses (doc/ring.md section 8, item 3): hosts
 * added at the end, inserted by name order at construction, removed anywhere. */
static void test_equal_weights_promise(void **u)
{
    (void)u;
    uint64_t st = 77;
    for (int trial = 0; trial < 200; trial++) {
        mock m = {0};
        uint32_t n = (uint32_t)wsel_kit_range(&st, 1, 1200);
        size_t k = wsel_kit_range(&st, 1, 24);
        wsel_ring_opts o = mock_opts(&m, n);
        wsel_ring *r = NULL;
        assert_int_equal(wsel_ring_new(&o, &r, NULL), WSEL_OK);
        for (size_t j = 0; j < k; j++) {
            char name[32];
            snprintf(name, sizeof name, "10.1.%zu.%zu", j / 200, j % 200 + 1);
            view b, a;
            view_take(r, &b);
            assert_int_equal(wsel_ring_add_host(r, name, 80, 7, NULL), WSEL_OK);
            view_take(r, &a);
            for (uint32_t s = 1; s <= n && b.na; s++)
                if (b.owner[s] >= 0 && a.owner[s] >= 0 &&
                    strcmp(b.key[b.owner[s]], a.key[a.owner[s]]) != 0)
                    assert_string_equal(a.key[a.owner[s]], a.key[a.na - 1]); /* only to the new one */
            view_free(&b);
            view_free(&a);
        }
        /* remove one anywhere: its slots go elsewhere, nothing else moves */
        size_t victim = wsel_kit_range(&st, 0, k - 1);
        char name[32];
        snprintf(name, sizeof name, "10.1.%zu.%zu", victim / 200, victim % 200 + 1);
        char prefix[48];
        snprintf(prefix, sizeof prefix, "%s:80|", name);
        view b, a;
        view_take(r, &b);
        assert_int_equal(wsel_ring_remove_host(r, name, 80, NULL, NULL), WSEL_OK);
        view_take(r, &a);
        for (uint32_t s = 1; s <= n; s++)
            if (a.owner[s] >= 0 && strcmp(b.key[b.owner[s]], a.key[a.owner[s]]) != 0)
                assert_true(strncmp(b.key[b.owner[s]], prefix, strlen(prefix)) == 0);
        view_free(&b);
        view_free(&a);
        wsel_ring_free(r);
    }
}

WSEL_TEST_MAIN("ring_gen", cmocka_unit_test(test_generated),
               cmocka_unit_test(test_equal_weights_promise))
