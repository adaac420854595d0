/* A table-driven resolver for the ring tests (tests/test_ring*.c): names map to a record
 * or a failure; anything else fails as NXDOMAIN. Header-only, static functions. */
#ifndef WSEL_TEST_RING_MOCK_H
#define WSEL_TEST_RING_MOCK_H

#include <stdio.h>
#include <string.h>

#include "wsel.h"

#define MOCK_NAMES 32
#define MOCK_ENTRIES 32

typedef struct mock_name {
    char name[64];
    bool fail;
    wsel_ring_rrtype type;
    char addr[MOCK_ENTRIES][64];
    wsel_ring_entry e[MOCK_ENTRIES];
    size_t n;
} mock_name;

typedef struct mock {
    mock_name t[MOCK_NAMES];
    size_t n;
    unsigned resolves, toips;
} mock;

static inline mock_name *mock_slot(mock *m, const char *name)
{
    for (size_t i = 0; i < m->n; i++)
        if (strcmp(m->t[i].name, name) == 0)
            return &m->t[i];
    if (m->n == MOCK_NAMES)
        return NULL;
    mock_name *t = &m->t[m->n++];
    memset(t, 0, sizeof *t);
    snprintf(t->name, sizeof t->name, "%s", name);
    return t;
}

/* A or AAAA record: addrs NULL-terminated. */
static inline void mock_addr(mock *m, const char *name, wsel_ring_rrtype type, uint32_t ttl,
                      const char *const *addrs)
{
    mock_name *t = mock_slot(m, name);
    t->fail = false;
    t->type = type;
    t->n = 0;
    for (; *addrs; addrs++, t->n++) {
        snprintf(t->addr[t->n], sizeof t->addr[t->n], "%s", *addrs);
        memset(&t->e[t->n], 0, sizeof t->e[t->n]);
        t->e[t->n].address = t->addr[t->n];
        t->e[t->n].ttl = ttl;
    }
}

static inline void mock_srv_clear(mock *m, const char *name)
{
    mock_name *t = mock_slot(m, name);
    t->fail = false;
    t->type = WSEL_RING_SRV;
    t->n = 0;
}

static inline void mock_srv(mock *m, const char *name, const char *target, uint32_t port,
                     uint32_t weight, uint32_t priority, uint32_t ttl)
{
    mock_name *t = mock_slot(m, name);
    size_t i = t->n++;
    snprintf(t->addr[i], sizeof t->addr[i], "%s", target);
    t->e[i] = (wsel_ring_entry){t->addr[i], ttl, port, weight, priority};
}

static inline void mock_fail(mock *m, const char *name)
{
    mock_slot(m, name)->fail = true;
}

static inline int mock_resolve(void *ctx, const char *name, wsel_ring_record *out)
{
    mock *m = ctx;
    m->resolves++;
    for (size_t i = 0; i < m->n; i++)
        if (strcmp(m->t[i].name, name) == 0 && !m->t[i].fail) {
            out->failed = false;
            out->type = m->t[i].type;
            out->entries = m->t[i].e;
            out->n_entries = m->t[i].n;
            return 0;
        }
    out->failed = true;
    out->message = "NXDOMAIN";
    return 0;
}

static inline int mock_toip(void *ctx, const char *name, uint16_t port, bool cache_only, char *ip,
                     size_t iplen, uint16_t *port_out, char *msg, size_t msglen)
{
    (void)cache_only;
    mock *m = ctx;
    m->toips++;
    for (size_t i = 0; i < m->n; i++)
        if (strcmp(m->t[i].name, name) == 0 && !m->t[i].fail && m->t[i].n > 0 &&
            m->t[i].type != WSEL_RING_SRV) {
            snprintf(ip, iplen, "%s", m->t[i].e[0].address);
            *port_out = port;
            return 0;
        }
    snprintf(msg, msglen, "dns server error: 3 name error");
    return 1;
}

static inline wsel_ring_opts mock_opts(mock *m, int64_t n)
{
    wsel_ring_opts o;
    wsel_ring_opts_init(&o);
    o.dns.resolve = mock_resolve;
    o.dns.toip = mock_toip;
    o.dns.ctx = m;
    o.wheel_size = n;
    return o;
}

#endif
