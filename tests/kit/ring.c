/* The ring balancer's part of the kit (doc/ring.md) and its system-table entry.
 *
 * A generated case is a wheel of hosts with seeded weights: IP literals, names the
 * case's own resolver answers with AAAA lists (spellings whose 5.2.3 order differs from
 * the compressed one) or SRV records (IPv4 and IPv6 targets, port 0 among them); some
 * hosts marked unavailable, and in a quarter of the cases every slot owner (IPv6 by its
 * bracketed text, as 5.2.3 stores it), so that picks walk the whole wheel. Two query targets: a hash pick
 * and a float pick, each keyed by one random word (the hash is the word; the float is
 * its top 53 bits as a fraction). Every case has the ring's fast engine attached
 * (doc/ring.md section 13); it has no per-CPU kernels, so every "fast..." variant name
 * runs its one pick path, which the generic loops check against the reference pick. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit_system.h"
#include "../../core/ring/ring_model.h"

#define RING_MAX_HOSTS 8
#define RING_MAX_ENTRIES 4

/* One name's answer in the case's resolver. */
typedef struct rname {
    wsel_ring_rrtype type;
    char addr[RING_MAX_ENTRIES][48];
    wsel_ring_entry e[RING_MAX_ENTRIES];
    size_t n;
} rname;

typedef struct rcase {
    char text[1024];                 /* the case in words, for reports */
    char names[RING_MAX_HOSTS][32];
    rname dns[RING_MAX_HOSTS];       /* the answer of names[i] when it is no IP literal */
    wsel_ring *r;
    wsel_ring_fast *f;
    wsel_ring_handle last_h;
    wsel_ring_peer last;
    bool have_last;
} rcase;

int wsel_kit_ring_literals_only(void *ctx, const char *name, wsel_ring_record *out)
{
    (void)ctx;
    (void)name;
    out->failed = true;
    out->message = "a ring of IP literals only";
    return 0;
}

void wsel_kit_ring_literal_opts(wsel_ring_opts *o, int64_t slots, const wsel_ring_host_spec *h,
                                size_t n)
{
    wsel_ring_opts_init(o);
    o->dns.resolve = wsel_kit_ring_literals_only;
    if (slots)
        o->wheel_size = slots;
    o->hosts = h;
    o->n_hosts = n;
}

void wsel_kit_ring_bench_name(uint32_t i, char *buf, size_t len)
{
    snprintf(buf, len, "10.%u.%u.%u", i / 50000, (i / 200) % 250, 1 + i % 200);
}

wsel_ring *wsel_kit_ring_bench(uint32_t slots, uint32_t hosts)
{
    wsel_ring_host_spec *spec = calloc(hosts ? hosts : 1, sizeof *spec);
    char(*names)[32] = calloc(hosts ? hosts : 1, sizeof *names);
    wsel_ring *r = NULL;
    if (spec && names) {
        uint64_t st = 17;
        for (uint32_t i = 0; i < hosts; i++) {
            wsel_kit_ring_bench_name(i, names[i], sizeof names[i]);
            spec[i] = (wsel_ring_host_spec){names[i], 80, (int64_t)wsel_kit_range(&st, 1, 100)};
        }
        wsel_ring_opts o;
        wsel_kit_ring_literal_opts(&o, slots, spec, hosts);
        if (wsel_ring_new(&o, &r, NULL) != WSEL_OK)
            r = NULL;
    }
    free(spec);
    free(names);
    return r;
}

static const char *slots_differ(const wsel_ring *a, const wsel_ring *b, size_t i, char *buf,
                                size_t len)
{
    wsel_ring_address x, y;
    wsel_ring_address_get(a, i, &x);
    wsel_ring_address_get(b, i, &y);
    if (strcmp(x.ip, y.ip) || x.port != y.port || x.weight != y.weight ||
        x.available != y.available || strcmp(x.host, y.host) || x.host_port != y.host_port) {
        snprintf(buf, len, "address %zu: %s:%u (weight %u) against %s:%u (weight %u)", i, x.ip,
                 x.port, x.weight, y.ip, y.port, y.weight);
        return buf;
    }
    if (x.n_slots != y.n_slots) {
        snprintf(buf, len, "address %zu (%s): %zu slots against %zu", i, x.ip, x.n_slots,
                 y.n_slots);
        return buf;
    }
    uint32_t *sx = malloc((x.n_slots + 1) * sizeof *sx), *sy = malloc((x.n_slots + 1) * sizeof *sy);
    if (!sx || !sy) {
        free(sx);
        free(sy);
        snprintf(buf, len, "out of memory");
        return buf;
    }
    wsel_ring_address_slots(a, i, sx);
    wsel_ring_address_slots(b, i, sy);
    size_t k = 0;
    while (k < x.n_slots && sx[k] == sy[k])
        k++;
    if (k < x.n_slots)
        snprintf(buf, len, "address %zu (%s): its slot %zu is %u against %u", i, x.ip, k + 1,
                 sx[k], sy[k]);
    free(sx);
    free(sy);
    return k < x.n_slots ? buf : NULL;
}

static bool same_text(const char *x, const char *y)
{
    return (x == NULL) == (y == NULL) && (!x || strcmp(x, y) == 0);
}

const char *wsel_kit_ring_view_agrees(int rcv, const wsel_ring_view_pick *vp, int rcp,
                                      const wsel_ring_peer *p, const wsel_ring *r, char *buf,
                                      size_t len)
{
    if (rcv != rcp)
        return snprintf(buf, len, "status %d (view) against %d", rcv, rcp), buf;
    if (rcv != WSEL_OK)
        return NULL;
    const wsel_ring_target *t = vp->target;
    bool named = vp->outcome == WSEL_RING_PEER && t && t->iptype == WSEL_RING_NAME;
    bool same_outcome = named ? p->outcome == WSEL_RING_PEER || p->outcome == WSEL_RING_DNS
                              : vp->outcome == p->outcome;
    if (!same_outcome || vp->slot != p->slot)
        return snprintf(buf, len, "view: %s at slot %u; pick: %s at slot %u",
                        wsel_ring_outcome_name(vp->outcome), vp->slot,
                        wsel_ring_outcome_name(p->outcome), p->slot),
               buf;
    if (vp->outcome != WSEL_RING_PEER)
        return t ? (snprintf(buf, len, "view: %s with a target",
                             wsel_ring_outcome_name(vp->outcome)),
                    buf)
                 : NULL;
    if (!t || !t->ip)
        return snprintf(buf, len, "view: a peer without a target at slot %u", vp->slot), buf;
    if (!same_text(t->hostname, p->hostname) ||
        (!named && (strcmp(t->ip, p->ip) != 0 || t->port != p->port)))
        return snprintf(buf, len, "view: %s:%u (%s, host %s); pick: %s:%u (host %s)", t->ip,
                        t->port, named ? "a name" : "an IP",
                        t->hostname ? t->hostname : "-", p->ip, p->port,
                        p->hostname ? p->hostname : "-"),
               buf;
    long o = r ? wsel_ring_owner(r, vp->slot) : -1;
    if (r && o < 0)
        return snprintf(buf, len, "view: a peer at slot %u, which is free", vp->slot), buf;
    if (r) {
        wsel_ring_address x;
        wsel_ring_address_get(r, (size_t)o, &x);
        if (strcmp(x.ip, t->ip) != 0 || x.port != t->port || x.iptype != t->iptype)
            return snprintf(buf, len, "view: %s:%u (type %d) at slot %u, owned by %s:%u (type %d)",
                            t->ip, t->port, (int)t->iptype, vp->slot, x.ip, x.port,
                            (int)x.iptype),
                   buf;
    }
    return NULL;
}

const char *wsel_kit_ring_same_state(const wsel_ring *a, const wsel_ring *b, char *buf,
                                     size_t len)
{
    size_t na = wsel_ring_address_count(a);
    if (wsel_ring_size(a) != wsel_ring_size(b) || na != wsel_ring_address_count(b) ||
        wsel_ring_host_count(a) != wsel_ring_host_count(b)) {
        snprintf(buf, len, "sizes differ: %u / %zu / %zu against %u / %zu / %zu slots, addresses, hosts",
                 wsel_ring_size(a), na, wsel_ring_host_count(a), wsel_ring_size(b),
                 wsel_ring_address_count(b), wsel_ring_host_count(b));
        return buf;
    }
    for (size_t i = 0; i < na; i++)
        if (slots_differ(a, b, i, buf, len))
            return buf;
    if (a->nfree != b->nfree) {
        snprintf(buf, len, "%u free slots against %u", a->nfree, b->nfree);
        return buf;
    }
    for (uint32_t k = 0; k < a->nfree; k++)
        if (a->free[k] != b->free[k]) {
            snprintf(buf, len, "free stack entry %u: slot %u against %u", k, a->free[k],
                     b->free[k]);
            return buf;
        }
    return NULL;
}

/* The case's resolver: names "v6-I.kit" and "srv-I.kit" answer dns[I]. */
static int r_resolve(void *ctx, const char *name, wsel_ring_record *out)
{
    rcase *c = ctx;
    for (size_t i = 0; i < RING_MAX_HOSTS; i++)
        if (c->dns[i].n && strcmp(c->names[i], name) == 0) {
            out->failed = false;
            out->type = c->dns[i].type;
            out->entries = c->dns[i].e;
            out->n_entries = c->dns[i].n;
            return 0;
        }
    out->failed = true;
    out->message = "NXDOMAIN";
    return 0;
}

/* AAAA spellings whose uncompressed order (5.2.3's sort key) differs from the
 * compressed or zero-padded one. */
static const char *const v6pool[] = {"::", "1::", "::1", "A::", "10::", "2001:db8::",
                                     "2001:db8::1", "::ffff:10.0.0.1", "0:0:1::", "::1:0:0:0"};

/* Host i as a name with an AAAA (kind 0) or SRV (kind 1) answer. */
static void r_named(rcase *c, size_t i, int kind, uint64_t *rs)
{
    rname *d = &c->dns[i];
    d->type = kind == 0 ? WSEL_RING_AAAA : WSEL_RING_SRV;
    d->n = (size_t)wsel_kit_range(rs, 1, RING_MAX_ENTRIES);
    snprintf(c->names[i], sizeof c->names[i], kind == 0 ? "v6-%zu.kit" : "srv-%zu.kit", i);
    for (size_t k = 0; k < d->n; k++) {
        wsel_ring_entry *e = &d->e[k];
        memset(e, 0, sizeof *e);
        e->ttl = 300;
        if (kind == 0) {
            snprintf(d->addr[k], sizeof d->addr[k], "%s",
                     v6pool[wsel_kit_range(rs, 0, sizeof v6pool / sizeof v6pool[0] - 1)]);
        } else {
            uint64_t t = wsel_kit_range(rs, 0, 2);
            snprintf(d->addr[k], sizeof d->addr[k],
                     t == 0 ? "2001:db8:%zx::%zx" : t == 1 ? "10.1.%zu.%zu" : "30.1.%zu.%zu", i,
                     k + 1);
            e->port = wsel_kit_range(rs, 0, 3) ? (uint32_t)(8000 + k) : 0;
            e->weight = (uint32_t)wsel_kit_range(rs, 0, 20);
            e->priority = 1;
        }
        e->address = d->addr[k];
    }
}

/* Marks every address that owns a slot down: picks then walk the whole wheel. */
static int r_dark(wsel_ring *r, wsel_error *err)
{
    for (size_t i = 0; i < wsel_ring_address_count(r); i++) {
        wsel_ring_address a;
        char ip[300];
        wsel_ring_address_get(r, i, &a);
        if (!a.n_slots)
            continue;
        snprintf(ip, sizeof ip, a.iptype == WSEL_RING_IPV6 ? "[%s]" : "%s", a.ip);
        int rc = wsel_ring_set_address_status(r, ip, a.port, a.host, false, err);
        if (rc)
            return rc;
    }
    return WSEL_OK;
}

static void r_case_free(void *p)
{
    rcase *c = p;
    if (!c)
        return;
    wsel_ring_fast_free(c->f);
    wsel_ring_free(c->r);
    free(c);
}

static void *r_case_new(uint64_t seed, char *why, size_t len)
{
    rcase *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(why, len, "out of memory");
        return NULL;
    }
    uint64_t rs = seed ^ 0x21a9c0de;
    wsel_ring_opts o;
    wsel_ring_opts_init(&o);
    o.dns.resolve = r_resolve;
    o.dns.ctx = c;
    o.wheel_size = (int64_t)wsel_kit_range(&rs, 1, 300);
    wsel_ring_host_spec hosts[RING_MAX_HOSTS];
    size_t nh = (size_t)wsel_kit_range(&rs, 1, RING_MAX_HOSTS);
    size_t pos = (size_t)snprintf(c->text, sizeof c->text, "ring of %lld slots:",
                                  (long long)o.wheel_size);
    for (size_t i = 0; i < nh; i++) {
        int kind = (int)wsel_kit_range(&rs, 0, 3);
        if (kind >= 2)
            r_named(c, i, kind - 2, &rs);
        else
            snprintf(c->names[i], sizeof c->names[i], "10.0.%u.%u", (unsigned)(i / 200),
                     (unsigned)(1 + i % 200));
        hosts[i].name = c->names[i];
        hosts[i].port = (int64_t)wsel_kit_range(&rs, 1, 3) * 80;
        hosts[i].weight = wsel_kit_range(&rs, 0, 3) ? (int64_t)wsel_kit_range(&rs, 1, 100)
                                                    : (int64_t)WSEL_RING_MAX_WEIGHT;
        if (pos < sizeof c->text)
            pos += (size_t)snprintf(c->text + pos, sizeof c->text - pos, " %s:%lld/%lld",
                                    hosts[i].name, (long long)hosts[i].port,
                                    (long long)hosts[i].weight);
    }
    o.hosts = hosts;
    o.n_hosts = nh;
    o.health_threshold = (double)wsel_kit_range(&rs, 0, 2) * 25.0;
    wsel_error err;
    wsel_error_clear(&err);
    int rc = wsel_ring_new(&o, &c->r, &err);
    for (size_t i = 0; rc == WSEL_OK && i < nh; i++) {
        if (wsel_kit_range(&rs, 0, 3) == 0) {
            rc = wsel_ring_set_host_status(c->r, hosts[i].name, (uint32_t)hosts[i].port, false,
                                           &err);
            if (pos < sizeof c->text)
                pos += (size_t)snprintf(c->text + pos, sizeof c->text - pos, "; %s down",
                                        hosts[i].name);
        }
    }
    if (rc == WSEL_OK && wsel_kit_range(&rs, 0, 3) == 0) {
        rc = r_dark(c->r, &err);
        if (pos < sizeof c->text)
            pos += (size_t)snprintf(c->text + pos, sizeof c->text - pos,
                                    "; every slot owner down");
    }
    if (rc == WSEL_OK)
        rc = wsel_ring_fast_new(c->r, &c->f, &err);
    if (rc == WSEL_OK)
        return c;
    r_case_free(c);
    return wsel_kit_case_failed(seed, &err, why, len);
}

static const char *r_case_text(const void *p)
{
    return ((const rcase *)p)->text;
}

static size_t r_queries(const void *p)
{
    (void)p;
    return 2; /* a hash pick, a float pick */
}

static size_t r_words(const void *p, size_t q)
{
    (void)p;
    (void)q;
    return 1;
}

static int r_query(void *p, const char *variant, size_t q, wsel_rng *rng)
{
    rcase *c = p;
    c->have_last = false;
    bool fast = variant && strcmp(variant, "fast") == 0; /* the library's names: ref, fast */
    if (variant && !fast && strcmp(variant, "ref") != 0)
        return WSEL_E_UNSUPPORTED;
    uint64_t w;
    rng->fill(rng->ctx, &w, 1);
    memset(&c->last_h, 0, sizeof c->last_h);
    c->last_h.mode = q == 0 ? WSEL_RING_HASH : WSEL_RING_FLOAT;
    c->last_h.hash = w;
    c->last_h.u = wsel_kit_unit(w);
    wsel_error err;
    int rc = fast ? wsel_ring_fast_pick(c->f, &c->last_h, true, &c->last, &err)
                     : wsel_ring_pick(c->r, &c->last_h, true, &c->last, &err);
    c->have_last = rc == WSEL_OK;
    return rc;
}

static int r_run(void *p, const char *variant, size_t q, wsel_rng *rng, char *out, size_t len)
{
    rcase *c = p;
    int rc = r_query(c, variant, q, rng);
    if (rc != WSEL_OK) {
        snprintf(out, len, "%s", wsel_strerror(rc));
        return rc;
    }
    if (c->last.outcome == WSEL_RING_PEER)
        snprintf(out, len, "%s:%u slot %u", c->last.ip, (unsigned)c->last.port,
                 (unsigned)c->last.slot);
    else
        snprintf(out, len, "%s", wsel_ring_outcome_name(c->last.outcome));
    return WSEL_OK;
}

#define BAD(...) (snprintf(buf, len, __VA_ARGS__), buf)

/* doc/ring.md: the wheel's own invariants; a healthy ring picks, an unhealthy one says
 * so; a pick starts at the slot its key maps to and walks forward past unavailable
 * addresses only, to an available address that owns the slot it reports. */
static const char *r_check(const void *p, char *buf, size_t len)
{
    const rcase *c = p;
    if (!c->have_last)
        return BAD("no pick to check");
    wsel_error err;
    if (wsel_ring_check(c->r, &err) != WSEL_OK)
        return BAD("ring invariants: %s", err.message);
    bool healthy = wsel_ring_healthy(c->r);
    if ((c->last.outcome == WSEL_RING_UNHEALTHY) == healthy)
        return BAD("outcome %s on a %s ring", wsel_ring_outcome_name(c->last.outcome),
                   healthy ? "healthy" : "unhealthy");
    uint32_t n = wsel_ring_size(c->r);
    uint32_t start = c->last_h.mode == WSEL_RING_HASH
                         ? 1 + (uint32_t)(c->last_h.hash % n)
                         : 1 + (uint32_t)fmin(floor(c->last_h.u * n), (double)(n - 1));
    uint32_t end = c->last.outcome == WSEL_RING_PEER ? c->last.slot : 0;
    if (!healthy)
        return NULL;
    for (uint32_t k = 0, s = start; k < n; k++, s = s == n ? 1 : s + 1) {
        long o = wsel_ring_owner(c->r, s);
        wsel_ring_address a;
        if (o >= 0)
            wsel_ring_address_get(c->r, (size_t)o, &a);
        if (s == end) {
            if (o < 0 || !a.available || strcmp(a.ip, c->last.ip) != 0 || a.port != c->last.port)
                return BAD("picked slot %u is not an available %s:%u", s, c->last.ip,
                           (unsigned)c->last.port);
            return NULL;
        }
        if (o >= 0 && a.available)
            return BAD("slot %u (from %u) holds available %s:%u but the pick went on to %s",
                       s, start, a.ip, (unsigned)a.port,
                       c->last.outcome == WSEL_RING_PEER ? "another slot" : "no peer");
    }
    return c->last.outcome == WSEL_RING_NO_PEERS ? NULL
                                                 : BAD("walked the whole wheel to a peer");
}

#undef BAD

/* Keys at the edges of the slot maps: hashes around multiples of N, floats at and just
 * below each k / N. */
static size_t r_boundary(const void *p, size_t q, uint64_t *out, size_t max)
{
    const rcase *c = p;
    uint32_t n = wsel_ring_size(c->r);
    size_t m = 0;
    if (m < max)
        out[m++] = 0;
    if (m < max)
        out[m++] = UINT64_MAX;
    for (uint32_t k = 1; k <= n && m + 2 <= max; k++) {
        if (q == 0) {
            out[m++] = (uint64_t)k * n - 1;
            out[m++] = (uint64_t)k * n;
        } else {
            /* the word whose top 53 bits are the first >= k / N, and the one before */
            uint64_t top = (uint64_t)ceil((double)k / n * 0x1p53);
            out[m++] = top << 11;
            out[m++] = (top << 11) - 1;
        }
    }
    return m;
}

const wsel_kit_system wsel_kit_system_ring = {
    .name = "ring",
    .case_new = r_case_new,
    .case_free = r_case_free,
    .case_text = r_case_text,
    .queries = r_queries,
    .words = r_words,
    .run = r_run,
    .query = r_query,
    .check = r_check,
    .boundary = r_boundary,
};
