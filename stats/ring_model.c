/* An independent model of the ring's wheel (doc/ring.md sections 3 and 5), written from
 * the document alone: the default order list, the free stack, the sequential floor
 * counts and the two passes. The statistics compare the engine with it slot for slot. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "families.h"
#include "ring.h"

static void *grow(void *p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return p;
    size_t c = *cap ? *cap : 4;
    while (c < need)
        c *= 2;
    void *q = realloc(p, c * size);
    if (!q) {
        fprintf(stderr, "wsel-stats: out of memory\n");
        exit(2);
    }
    *cap = c;
    return q;
}

void rm_init(ring_model *m, uint32_t n)
{
    memset(m, 0, sizeof *m);
    m->N = n;
    m->free = stats_xcalloc(n, sizeof *m->free);
    bool *taken = stats_xcalloc((size_t)n + 1, sizeof *taken);
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    if (!g) {
        fprintf(stderr, "wsel-stats: out of memory\n");
        exit(2);
    }
    gsl_rng_set(g, 158841259);
    for (uint32_t i = 0; i < n; i++) {
        double a = (double)(gsl_rng_get(g) >> 5), b = (double)(gsl_rng_get(g) >> 6);
        double u = (a * 67108864.0 + b) / 9007199254740992.0;
        uint32_t s = (uint32_t)(u * n) + 1;
        while (taken[s])
            s = s == n ? 1 : s + 1;
        taken[s] = true;
        m->free[i] = s; /* order[N] is the top: handed out first */
    }
    m->nfree = n;
    gsl_rng_free(g);
    free(taken);
}

void rm_free(ring_model *m)
{
    for (size_t i = 0; i < m->nh; i++) {
        for (size_t k = 0; k < m->h[i].n; k++)
            free(m->h[i].a[k].slots);
        free(m->h[i].a);
    }
    free(m->h);
    free(m->free);
    memset(m, 0, sizeof *m);
}

rm_host *rm_host_add(ring_model *m, const char *name, uint16_t port)
{
    m->h = grow(m->h, &m->caph, m->nh + 1, sizeof *m->h);
    rm_host *h = &m->h[m->nh++];
    memset(h, 0, sizeof *h);
    snprintf(h->name, sizeof h->name, "%s", name);
    h->port = port;
    return h;
}

rm_addr *rm_addr_add(rm_host *h, const char *key, uint32_t weight)
{
    h->a = grow(h->a, &h->cap, h->n + 1, sizeof *h->a);
    rm_addr *a = &h->a[h->n++];
    memset(a, 0, sizeof *a);
    snprintf(a->key, sizeof a->key, "%s", key);
    a->weight = weight;
    return a;
}

size_t rm_count(const ring_model *m)
{
    size_t n = 0;
    for (size_t i = 0; i < m->nh; i++)
        n += m->h[i].n;
    return n;
}

rm_addr *rm_at(const ring_model *m, size_t i)
{
    for (size_t h = 0; h < m->nh; h++) {
        if (i < m->h[h].n)
            return &m->h[h].a[i];
        i -= m->h[h].n;
    }
    return NULL;
}

#define FOR_ADDR(m, a)                                                                 \
    for (size_t h_ = 0; h_ < (m)->nh; h_++)                                            \
        for (size_t k_ = 0; k_ < (m)->h[h_].n && ((a) = &(m)->h[h_].a[k_], 1); k_++)

void rm_redistribute(ring_model *m)
{
    rm_addr *a;
    size_t na = rm_count(m), i;
    uint32_t *target = stats_xcalloc(na, sizeof *target);
    double W = 0;
    FOR_ADDR(m, a)
        if (!a->gone)
            W += a->weight;
    double L = m->N;
    i = 0;
    FOR_ADDR(m, a) {
        double w = a->gone ? 0 : a->weight;
        double c = W == 0 ? 0 : (double)(long long)(L * (w / W) + 0.0001);
        target[i++] = (uint32_t)c;
        L -= c;
        W -= w;
    }
    i = 0;
    FOR_ADDR(m, a) {
        while (a->n > target[i])
            m->free[m->nfree++] = a->slots[--a->n];
        i++;
    }
    i = 0;
    FOR_ADDR(m, a) {
        while (a->n < target[i] && m->nfree > 0) {
            size_t cap = a->cap;
            a->slots = grow(a->slots, &cap, (size_t)a->n + 1, sizeof *a->slots);
            a->cap = (uint32_t)cap;
            a->slots[a->n++] = m->free[--m->nfree];
        }
        i++;
    }
    free(target);
    size_t out = 0;
    for (size_t h = 0; h < m->nh; h++) {
        rm_host *hp = &m->h[h];
        size_t k2 = 0;
        for (size_t k = 0; k < hp->n; k++) {
            if (hp->a[k].gone)
                free(hp->a[k].slots);
            else
                hp->a[k2++] = hp->a[k];
        }
        hp->n = k2;
        if (hp->n == 0 && hp->name[0] == '\0') {
            free(hp->a);
            continue; /* a removed host */
        }
        m->h[out++] = *hp;
    }
    m->nh = out;
}

const char *rm_compare(const ring_model *m, const wsel_ring *r, char *buf, size_t len)
{
    size_t na = wsel_ring_address_count(r), nm = rm_count(m);
    if (wsel_ring_size(r) != m->N) {
        snprintf(buf, len, "wheel of %u slots, model %u", wsel_ring_size(r), m->N);
        return buf;
    }
    if (na != nm) {
        snprintf(buf, len, "%zu addresses, model %zu", na, nm);
        return buf;
    }
    uint32_t *s = stats_xcalloc(m->N, sizeof *s);
    const char *bad = NULL;
    size_t owned = 0;
    size_t i = 0;
    const rm_addr *a;
    FOR_ADDR(m, a) {
        if (bad)
            break;
        wsel_ring_address ad;
        wsel_ring_address_get(r, i, &ad);
        char key[RM_KEY + 16];
        snprintf(key, sizeof key, "%s:%u", ad.ip, (unsigned)ad.port);
        if (strcmp(key, a->key) != 0) {
            snprintf(buf, len, "address %zu is %s, model %s", i, key, a->key);
            bad = buf;
        } else if (ad.n_slots != a->n) {
            snprintf(buf, len, "%s owns %zu slots, model %u", key, ad.n_slots, a->n);
            bad = buf;
        } else {
            wsel_ring_address_slots(r, i, s);
            for (uint32_t k = 0; k < a->n && !bad; k++)
                if (s[k] != a->slots[k]) {
                    snprintf(buf, len, "%s: slot %u acquired %u-th, model %u", key, s[k], k + 1,
                             a->slots[k]);
                    bad = buf;
                }
            owned += a->n;
        }
        i++;
    }
    if (!bad && owned + m->nfree != m->N) {
        snprintf(buf, len, "model: %zu owned + %u free != %u", owned, m->nfree, m->N);
        bad = buf;
    }
    free(s);
    return bad;
}

void rm_ip_name(size_t i, char *buf, size_t len)
{
    snprintf(buf, len, "10.%u.%u.%u", (unsigned)(i / 62500 % 250),
             (unsigned)(i / 250 % 250), (unsigned)(1 + i % 250));
}

/* ---- generated configurations ---- */

const char *const ring_weight_kind[RW_KINDS] = {
    "uniform 1..100", "uniform 1..65535", "all equal", "one 65535 among 1s", "powers of two",
    "ties 1..3",
};

void ring_cfg_gen(ring_cfg *c, int kind, uint64_t *rs, bool large)
{
    static const uint32_t sizes[] = {1, 2, 3, 7, 10, 19, 60, 100, 1000, 1000, 5000, 10000, 65536};
    memset(c, 0, sizeof *c);
    c->kind = kind;
    c->N = wsel_kit_range(rs, 0, 3) ? sizes[wsel_kit_range(rs, 0, sizeof sizes / sizeof sizes[0] - 1)]
                                     : (uint32_t)wsel_kit_range(rs, 1, 70000);
    size_t hi = large && c->N >= 10000 && wsel_kit_range(rs, 0, 3) == 0 ? 1000 : 64;
    c->na = (size_t)wsel_kit_range(rs, 1, hi);
    c->w = stats_xcalloc(c->na, sizeof *c->w);
    uint32_t eq = (uint32_t)wsel_kit_range(rs, 1, 1000);
    size_t heavy = (size_t)wsel_kit_range(rs, 0, c->na - 1);
    for (size_t i = 0; i < c->na; i++) {
        switch (kind) {
        case RW_UNIFORM: c->w[i] = (uint32_t)wsel_kit_range(rs, 1, 100); break;
        case RW_WIDE: c->w[i] = (uint32_t)wsel_kit_range(rs, 1, WSEL_RING_MAX_WEIGHT); break;
        case RW_EQUAL: c->w[i] = eq; break;
        case RW_HEAVY: c->w[i] = i == heavy ? WSEL_RING_MAX_WEIGHT : 1; break;
        case RW_POW2: c->w[i] = 1u << wsel_kit_range(rs, 0, 15); break;
        default: c->w[i] = (uint32_t)wsel_kit_range(rs, 1, 3); break;
        }
    }
}

void ring_cfg_free(ring_cfg *c)
{
    free(c->w);
    c->w = NULL;
}

static int fail_resolve(void *ctx, const char *name, wsel_ring_record *out)
{
    (void)ctx;
    (void)name;
    out->failed = true;
    out->message = "no DNS in these cases";
    return 0;
}

wsel_ring_dns ring_no_dns(void)
{
    wsel_ring_dns d = {fail_resolve, NULL, NULL};
    return d;
}

int ring_build(const ring_cfg *c, bool strict, wsel_ring **r, ring_model *m, test *t)
{
    wsel_ring_opts o;
    wsel_ring_opts_init(&o);
    o.dns = ring_no_dns();
    o.wheel_size = c->N;
    o.strict = strict;
    wsel_error err;
    wsel_error_clear(&err);
    *r = NULL;
    memset(m, 0, sizeof *m);
    if (wsel_ring_new(&o, r, &err) != WSEL_OK) {
        test_violation(t, "wsel_ring_new (N=%u): %s", c->N, err.message);
        return -1;
    }
    rm_init(m, c->N);
    for (size_t i = 0; i < c->na; i++) {
        char name[32], key[48];
        rm_ip_name(i, name, sizeof name);
        if (wsel_ring_add_host(*r, name, 80, c->w[i], &err) != WSEL_OK) {
            test_violation(t, "addHost %s weight %u: %s", name, c->w[i], err.message);
            return -1;
        }
        snprintf(key, sizeof key, "%s:80", name);
        rm_addr_add(rm_host_add(m, name, 80), key, c->w[i]);
        rm_redistribute(m);
    }
    return 0;
}
