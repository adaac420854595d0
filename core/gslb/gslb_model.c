/* GSLB model: the method table (doc/gslb.md §2), names, addresses, freeing. */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <stdarg.h>

#include "gslb_internal.h"
#include "../addr.h"

void wsel__gslb_fmt(char *buf, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, len, fmt, ap);
    va_end(ap);
}

char *wsel__gslb_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

#define S WSEL_GSLB_KIND_STATIC
#define T WSEL_GSLB_KIND_TERMINAL
#define R WSEL_GSLB_KIND_ROUTING
#define V WSEL_GSLB_KIND_SRV
#define P WSEL_GSLB_KIND_PATH
/* token, name, kind, W, P, A, F, dynamic-ratio, metric, higher-better, fails */
const wsel_gslb_method_info wsel__gslb_methods[WSEL_GSLB_METHOD_COUNT_] = {
    {"round-robin", "Round Robin", S, 1, 1, 1, 1, 0, -1, 0, "no eligible candidate"},
    {"ratio", "Ratio", S, 1, 1, 1, 1, 0, -1, 0, "no eligible candidate with ratio > 0"},
    {"global-availability", "Global Availability", S, 1, 1, 1, 1, 0, -1, 0, "none eligible"},
    {"topology", "Topology", S, 1, 1, 1, 1, 0, -1, 0, "no candidate scores > 0"},
    {"static-persistence", "Static Persist", S, 0, 1, 1, 1, 0, -1, 0, "none eligible"},
    {"random", "Random", S, 1, 0, 0, 0, 0, -1, 0, "none eligible"},
    {"drop-packet", "Drop Packet", T, 0, 1, 1, 1, 0, -1, 0, "never"},
    {"return-to-dns", "Return to DNS", T, 0, 1, 1, 1, 0, -1, 0, "never"},
    {"fallback-ip", "Fallback IP", T, 0, 1, 1, 1, 0, -1, 0, "never (unset => empty answer)"},
    {"none", "None", R, 0, 0, 1, 1, 0, -1, 0, "n/a"},
    {"packet-rate", "Packet Rate", V, 0, 1, 1, 1, 0, WSEL_GSLB_M_PPS, 0, "no eligible candidate has pps"},
    {"virtual-server-capacity", "VS Capacity", V, 0, 1, 1, 1, 1, WSEL_GSLB_M_VS_CAPACITY, 1, "no vs_capacity"},
    {"virtual-server-score", "VS Score", V, 0, 1, 1, 1, 1, WSEL_GSLB_M_VS_SCORE, 1, "no vs_score"},
    {"cpu", "CPU", V, 0, 1, 0, 1, 0, WSEL_GSLB_M_CPU, 0, "no cpu_pct"}, /* lowest cpu_pct */
    {"kilobytes-per-second", "Kilobytes/Second", V, 0, 1, 0, 1, 1, WSEL_GSLB_M_KBPS, 0, "no kbps"},
    {"least-connections", "Least Connections", V, 0, 1, 0, 1, 1, WSEL_GSLB_M_CONNECTIONS, 0, "no connections"},
    {"lowest-round-trip-time", "Round Trip Time", P, 0, 1, 0, 1, 1, WSEL_GSLB_M_RTT, 0, "no rtt_us"},
    {"completion-rate", "Completion Rate", P, 0, 1, 0, 1, 1, WSEL_GSLB_M_COMPLETION, 1, "no completion_rate"},
    {"fewest-hops", "Hops", P, 0, 1, 0, 1, 1, WSEL_GSLB_M_HOPS, 0, "no hops"},
    {"quality-of-service", "QoS", P, 0, 1, 0, 1, 1, -1, 1, "no candidate has every factor with coef > 0"},
};
#undef S
#undef T
#undef R
#undef V
#undef P

const wsel_gslb_method_info *wsel_gslb_method_get(wsel_gslb_method m)
{
    if ((unsigned)m >= WSEL_GSLB_METHOD_COUNT_)
        return NULL;
    return &wsel__gslb_methods[m];
}

int wsel_gslb_method_find(const char *token)
{
    for (int i = 0; token && i < WSEL_GSLB_METHOD_COUNT_; i++)
        if (strcmp(wsel__gslb_methods[i].token, token) == 0)
            return i;
    return -1;
}

const char *wsel_gslb_metric_key(wsel_gslb_metric m)
{
    static const char *const keys[WSEL_GSLB_METRIC_COUNT_] = {
        "rtt_us", "completion_rate", "hops", "cpu_pct", "kbps", "connections", "pps",
        "vs_capacity", "vs_score", "link_capacity"};
    return (unsigned)m < WSEL_GSLB_METRIC_COUNT_ ? keys[m] : "?";
}

/* QoS factors in wsel_gslb_pool.qos order: the metric each reads (-1: the topology score;
 * doc/gslb.md §2, A-18). */
const int wsel__gslb_qos_metric[WSEL_GSLB_QOS_COUNT_] = {
    WSEL_GSLB_M_RTT, WSEL_GSLB_M_LINK_CAPACITY, WSEL_GSLB_M_COMPLETION, WSEL_GSLB_M_KBPS,
    WSEL_GSLB_M_PPS, WSEL_GSLB_M_HOPS, -1, WSEL_GSLB_M_VS_CAPACITY, WSEL_GSLB_M_VS_SCORE};

unsigned wsel_gslb_step_metrics(const wsel_gslb_pool *p, int step)
{
    if (!p || step < 0 || step > 2)
        return 0;
    wsel_gslb_method m = p->mode[step];
    if (m == WSEL_GSLB_QOS) {
        unsigned mask = 0;
        for (int f = 0; f < WSEL_GSLB_QOS_COUNT_; f++)
            if (p->qos[f] && wsel__gslb_qos_metric[f] >= 0)
                mask |= 1u << wsel__gslb_qos_metric[f];
        return mask;
    }
    const wsel_gslb_method_info *mi = wsel_gslb_method_get(m);
    return mi && mi->metric >= 0 ? 1u << mi->metric : 0;
}

bool wsel_gslb_inputs_metric(const wsel_gslb_inputs *in, size_t vs, wsel_gslb_metric m,
                             double *value)
{
    if (!in || vs >= in->cfg->n_vs || (unsigned)m >= WSEL_GSLB_METRIC_COUNT_ ||
        !(in->vs[vs].have & (1u << m)))
        return false;
    if (value)
        *value = in->vs[vs].metric[m];
    return true;
}

const char *wsel__gslb_norm(const char *name, char *buf, size_t len)
{
    if (name[0] == '/')
        wsel__gslb_fmt(buf, len, "%s", name);
    else
        wsel__gslb_fmt(buf, len, "/Common/%s", name);
    return buf;
}

/* A pool, server or region by name after /Common/ completion, hashed; -1. */
static long find_named(const wsel_gslb_config *cfg, int ns, const char *name)
{
    char a[600];
    return wsel__gslb_names_find(cfg, ns, wsel__gslb_norm(name, a, sizeof a));
}

long wsel__gslb_find_pool(const wsel_gslb_config *cfg, const char *name, wsel_gslb_type t)
{
    return find_named(cfg, wsel__gslb_ns(WSEL__GSLB_NS_POOL, t), name);
}

const char *wsel__gslb_type_word(wsel_gslb_type t)
{
    return t == WSEL_GSLB_TYPE_AAAA ? "aaaa" : "a";
}

const char *wsel_gslb_type_name(wsel_gslb_type t)
{
    return t == WSEL_GSLB_TYPE_A ? "A" : t == WSEL_GSLB_TYPE_AAAA ? "AAAA" : "?";
}

int wsel_gslb_type_find(const char *text)
{
    if (text && !strcasecmp(text, "A"))
        return WSEL_GSLB_TYPE_A;
    if (text && !strcasecmp(text, "AAAA"))
        return WSEL_GSLB_TYPE_AAAA;
    return -1;
}

/* the type a key names ("a NAME", "aaaa NAME") into *t, the name after it; a bare
 * key: *t -1. */
static const char *split_key(const char *key, int *t)
{
    *t = -1;
    const char *sp = strchr(key, ' ');
    if (sp && sp - key <= 4) {
        char word[5];
        memcpy(word, key, (size_t)(sp - key));
        word[sp - key] = '\0';
        if ((*t = wsel_gslb_type_find(word)) >= 0)
            return sp + 1;
    }
    return key;
}

/* an explicit type, else deflt, else A then AAAA. */
static long find_keyed(const wsel_gslb_config *cfg, const char *key, int deflt,
                       long (*find)(const wsel_gslb_config *, const char *, wsel_gslb_type))
{
    int t;
    const char *name = split_key(key, &t);
    if (t < 0)
        t = deflt;
    if (t >= 0)
        return find(cfg, name, (wsel_gslb_type)t);
    long i = find(cfg, name, WSEL_GSLB_TYPE_A);
    return i >= 0 ? i : find(cfg, name, WSEL_GSLB_TYPE_AAAA);
}

long wsel__gslb_find_pool_key(const wsel_gslb_config *cfg, const char *key, int deflt)
{
    return find_keyed(cfg, key, deflt, wsel__gslb_find_pool);
}

long wsel__gslb_find_wideip_key(const wsel_gslb_config *cfg, const char *key, int deflt)
{
    return find_keyed(cfg, key, deflt, wsel_gslb_find_wideip_type);
}



long wsel__gslb_find_server(const wsel_gslb_config *cfg, const char *name)
{
    return find_named(cfg, WSEL__GSLB_NS_SERVER, name);
}

long wsel__gslb_find_region(const wsel_gslb_config *cfg, const char *name)
{
    return find_named(cfg, WSEL__GSLB_NS_REGION, name);
}

int wsel__gslb_region_order(const wsel_gslb_config *cfg, size_t *order, size_t *cycle)
{
    size_t n = cfg->n_regions, n_out = 0;
    int found = 0;
    if (!n)
        return 0;
    uint8_t *mark = calloc(n, 1);             /* 0 new, 1 on the stack, 2 done */
    size_t *stack = malloc(n * sizeof *stack), *next = malloc(n * sizeof *next);
    if (!mark || !stack || !next) {
        free(mark);
        free(stack);
        free(next);
        return -1;
    }
    for (size_t root = 0; root < n; root++) {
        if (mark[root])
            continue;
        size_t depth = 0;
        stack[depth] = root;
        next[depth] = 0;
        mark[root] = 1;
        while (depth != (size_t)-1) {
            size_t r = stack[depth];
            const wsel_gslb_region *rg = &cfg->regions[r];
            if (next[depth] < rg->n_entries) {
                const wsel_gslb_cond *x = &rg->entries[next[depth]++];
                if (x->type != WSEL_GSLB_T_REGION || x->ref < 0 || (size_t)x->ref >= n)
                    continue;
                if (mark[x->ref] == 1) {
                    if (!found && cycle)
                        *cycle = root;
                    found = 1;
                } else if (!mark[x->ref]) {
                    mark[x->ref] = 1;
                    stack[++depth] = (size_t)x->ref;
                    next[depth] = 0;
                }
                continue;
            }
            mark[r] = 2;
            order[n_out++] = r;
            depth--;
        }
    }
    free(mark);
    free(stack);
    free(next);
    return found;
}

long wsel__gslb_find_vs(const wsel_gslb_config *cfg, const char *key)
{
    const char *colon = strchr(key, ':');
    if (!colon || colon == key || !colon[1])
        return -1;
    char srv[600];
    size_t n = (size_t)(colon - key);
    if (n >= sizeof srv)
        return -1;
    memcpy(srv, key, n);
    srv[n] = '\0';
    long s = wsel__gslb_find_server(cfg, srv);
    if (s < 0)
        return -1;
    const wsel_gslb_server *sv = &cfg->servers[s];
    const char *vs = colon + 1;
    for (size_t i = 0; i < sv->n_vs; i++)
        if (strcmp(cfg->vs[sv->first_vs + i].name, vs) == 0)
            return (long)(sv->first_vs + i);
    char full[600];
    if (vs[0] != '/') {
        wsel__gslb_fmt(full, sizeof full, "/Common/%s", vs);
        for (size_t i = 0; i < sv->n_vs; i++)
            if (strcmp(cfg->vs[sv->first_vs + i].name, full) == 0)
                return (long)(sv->first_vs + i);
    }
    return -1;
}

/* name into a[600] without one final dot (a DNS name written fully qualified). */
static const char *without_final_dot(const char *name, char a[600])
{
    wsel__gslb_fmt(a, 600, "%s", name);
    size_t n = strlen(a);
    if (n > 1 && a[n - 1] == '.')
        a[n - 1] = '\0';
    return a;
}

long wsel_gslb_find_wideip(const wsel_gslb_config *cfg, const char *name)
{
    return wsel_gslb_find_wideip_type(cfg, name, WSEL_GSLB_TYPE_A);
}

long wsel_gslb_find_wideip_type(const wsel_gslb_config *cfg, const char *name,
                                wsel_gslb_type type)
{
    if (!cfg || !name || (unsigned)type >= WSEL_GSLB_TYPE_COUNT_)
        return -1;
    long w = wsel__gslb_find_claim(cfg, name, type);
    if (w >= 0 || name[0] == '/')
        return w;
    char a[600];
    return wsel__gslb_names_match(cfg, without_final_dot(name, a), type); /* wildcards */
}

long wsel__gslb_find_claim(const wsel_gslb_config *cfg, const char *name, wsel_gslb_type t)
{
    char a[600], b[600];
    int ns = wsel__gslb_ns(WSEL__GSLB_NS_WIDEIP, t);
    long w = wsel__gslb_names_find(cfg, ns, wsel__gslb_norm(name, b, sizeof b));
    if (w >= 0) /* exactly as configured */
        return w;
    without_final_dot(name, a);
    if ((w = wsel__gslb_names_find(cfg, ns, wsel__gslb_norm(a, b, sizeof b))) >= 0)
        return w;
    if (a[0] == '/')
        return -1;
    /* a bare query name: a wide IP in any partition by its last path part (the first such
     * wide IP in file order), then an alias */
    if ((w = wsel__gslb_names_find(cfg, wsel__gslb_ns(WSEL__GSLB_NS_LEAF, t), a)) >= 0)
        return w;
    return wsel__gslb_names_find(cfg, wsel__gslb_ns(WSEL__GSLB_NS_ALIAS, t), a);
}

bool wsel__gslb_parse_addr(const char *s, wsel_gslb_addr *a)
{
    char buf[64];
    size_t n = strcspn(s, "%");
    if (n >= sizeof buf || n == 0)
        return false;
    if (s[n] == '%') { /* route domain: digits only */
        const char *d = s + n + 1;
        if (!*d)
            return false;
        for (; *d; d++)
            if (!isdigit((unsigned char)*d))
                return false;
    }
    memset(a, 0, sizeof *a);
    a->family = (uint8_t)wsel__addr_parse(s, n, false, a->bytes);
    return a->family != 0;
}

bool wsel__gslb_parse_subnet(const char *s, wsel_gslb_addr *net, unsigned *prefix)
{
    const char *slash = strchr(s, '/');
    char buf[64];
    size_t n = slash ? (size_t)(slash - s) : strlen(s);
    if (n == 0 || n >= sizeof buf)
        return false;
    memcpy(buf, s, n);
    buf[n] = '\0';
    if (!wsel__gslb_parse_addr(buf, net))
        return false;
    unsigned max = net->family == 4 ? 32 : 128, p = max;
    if (slash) {
        const char *d = slash + 1;
        if (!*d || strlen(d) > 3)
            return false;
        p = 0;
        for (; *d; d++) {
            if (!isdigit((unsigned char)*d))
                return false;
            p = p * 10 + (unsigned)(*d - '0');
        }
        if (p > max)
            return false;
    }
    *prefix = p;
    *net = wsel__gslb_mask(net, p);
    return true;
}

bool wsel_gslb_addr_parse(const char *text, wsel_gslb_addr *out)
{
    return text && out && wsel__gslb_parse_addr(text, out);
}

wsel_gslb_addr wsel__gslb_mask(const wsel_gslb_addr *a, unsigned prefix)
{
    wsel_gslb_addr r = *a;
    unsigned nbytes = a->family == 4 ? 4 : 16;
    for (unsigned i = 0; i < nbytes; i++) {
        unsigned bits = prefix > i * 8 ? prefix - i * 8 : 0;
        if (bits >= 8)
            continue;
        r.bytes[i] &= (uint8_t)(0xffu << (8 - bits));
    }
    return r;
}

bool wsel__gslb_addr_eq(const wsel_gslb_addr *a, const wsel_gslb_addr *b)
{
    return a->family == b->family && memcmp(a->bytes, b->bytes, 16) == 0;
}

/* a masked to `prefix` bits equals net (all 16 bytes, as wsel__gslb_mask leaves them),
 * without building the masked copy: the topology scorer's inner test. */
bool wsel__gslb_in_subnet(const wsel_gslb_addr *a, const wsel_gslb_addr *net, unsigned prefix)
{
    if (a->family != net->family || a->family == 0)
        return false;
    unsigned nbytes = a->family == 4 ? 4 : 16;
    unsigned full = prefix / 8 < nbytes ? prefix / 8 : nbytes, rem = full < nbytes ? prefix % 8 : 0;
    if (memcmp(a->bytes, net->bytes, full) != 0)
        return false;
    if (rem && (a->bytes[full] & (uint8_t)(0xffu << (8 - rem))) != net->bytes[full])
        return false;
    for (unsigned i = full + (rem != 0); i < nbytes; i++) /* masked away in a */
        if (net->bytes[i])
            return false;
    return memcmp(a->bytes + nbytes, net->bytes + nbytes, 16 - nbytes) == 0; /* untouched */
}

const char *wsel_gslb_addr_str(const wsel_gslb_addr *a, char *buf, size_t len)
{
    if (!buf || !len)
        return buf;
    buf[0] = '\0';
    if (a)
        wsel__addr_format(a->family, a->bytes, buf, len);
    return buf;
}

const char *wsel__gslb_obj_pool(const wsel_gslb_config *cfg, size_t p, char *buf, size_t len)
{
    wsel__gslb_fmt(buf, len, "gtm pool %s %s", wsel__gslb_type_word(cfg->pools[p].type),
                   cfg->pools[p].name);
    return buf;
}

const char *wsel__gslb_obj_wideip(const wsel_gslb_config *cfg, size_t w, char *buf, size_t len)
{
    wsel__gslb_fmt(buf, len, "gtm wideip %s %s", wsel__gslb_type_word(cfg->wideips[w].type),
                   cfg->wideips[w].name);
    return buf;
}

const char *wsel_gslb_outcome_name(wsel_gslb_outcome_kind k)
{
    static const char *const names[] = {"answer", "fallback-ip", "empty", "drop",
                                        "return-to-dns", "bind-aggregate", "rcode"};
    return (unsigned)k < sizeof names / sizeof names[0] ? names[k] : "?";
}

const char *wsel_gslb_step_name(wsel_gslb_step s)
{
    static const char *const names[] = {"preferred", "alternate", "fallback", "persist",
                                        "last-resort", "none"};
    return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "?";
}

const char *wsel_gslb_rcode_name(unsigned rcode)
{
    static const char *const names[] = {"noerror", "formerr", "servfail", "nxdomain", "notimpl",
                                        "refused", "yxdomain", "yxrrset", "nxrrset", "notauth",
                                        "notzone"};
    return rcode < sizeof names / sizeof names[0] ? names[rcode] : "?";
}

/* ---- method state arrays ---- */

static int wrr_alloc(wsel__gslb_wrr *w, size_t n)
{
    size_t k = n ? n : 1;
    w->w = calloc(k, sizeof *w->w);
    w->cur = calloc(k, sizeof *w->cur);
    w->used = false;
    return (w->w && w->cur) ? 0 : -1;
}

void wsel__gslb_stepst_free(const wsel_gslb_config *cfg, wsel__gslb_stepst *ws,
                            wsel__gslb_stepst *ps)
{
    if (ws)
        for (size_t i = 0; i < cfg->n_wideips; i++) {
            free(ws[i].wrr.w);
            free(ws[i].wrr.cur);
        }
    if (ps)
        for (size_t i = 0; i < cfg->n_pools * 3; i++) {
            free(ps[i].wrr.w);
            free(ps[i].wrr.cur);
        }
    free(ws);
    free(ps);
}

int wsel__gslb_stepst_alloc(const wsel_gslb_config *cfg, wsel__gslb_stepst **wo,
                            wsel__gslb_stepst **po)
{
    wsel__gslb_stepst *ws = calloc(cfg->n_wideips ? cfg->n_wideips : 1, sizeof *ws);
    wsel__gslb_stepst *ps = calloc(cfg->n_pools ? cfg->n_pools * 3 : 1, sizeof *ps);
    int bad = !ws || !ps;
    for (size_t i = 0; !bad && i < cfg->n_wideips; i++) {
        ws[i].rr = -1;
        bad = wrr_alloc(&ws[i].wrr, cfg->wideips[i].n_pools) != 0;
    }
    for (size_t i = 0; !bad && i < cfg->n_pools * 3; i++) {
        ps[i].rr = -1;
        bad = wrr_alloc(&ps[i].wrr, cfg->pools[i / 3].n_members) != 0;
    }
    if (bad) {
        wsel__gslb_stepst_free(cfg, ws, ps);
        return WSEL_E_NOMEM;
    }
    *wo = ws;
    *po = ps;
    return 0;
}

static void wrr_copy(wsel__gslb_wrr *d, const wsel__gslb_wrr *s, size_t n)
{
    memcpy(d->w, s->w, n * sizeof *d->w);
    memcpy(d->cur, s->cur, n * sizeof *d->cur);
    d->used = s->used;
}

void wsel__gslb_stepst_copy(const wsel_gslb_config *cfg, wsel__gslb_stepst *dw,
                            wsel__gslb_stepst *dp, const wsel__gslb_stepst *sw,
                            const wsel__gslb_stepst *sp)
{
    for (size_t i = 0; i < cfg->n_wideips; i++) {
        dw[i].rr = sw[i].rr;
        wrr_copy(&dw[i].wrr, &sw[i].wrr, cfg->wideips[i].n_pools);
    }
    for (size_t i = 0; i < cfg->n_pools * 3; i++) {
        dp[i].rr = sp[i].rr;
        wrr_copy(&dp[i].wrr, &sp[i].wrr, cfg->pools[i / 3].n_members);
    }
}

/* ---- freeing ---- */

static void free_cond(wsel_gslb_cond *c)
{
    free(c->value);
}

void wsel_gslb_config_free(wsel_gslb_config *cfg)
{
    if (!cfg)
        return;
    for (size_t i = 0; i < cfg->n_servers; i++) {
        free(cfg->servers[i].name);
        free(cfg->servers[i].datacenter);
        free(cfg->servers[i].product);
        free(cfg->servers[i].monitor);
    }
    for (size_t i = 0; i < cfg->n_vs; i++) {
        free(cfg->vs[i].name);
        free(cfg->vs[i].monitor);
        for (size_t d = 0; d < cfg->vs[i].n_depends; d++)
            free(cfg->vs[i].depends_text[d]);
        free(cfg->vs[i].depends_text);
        free(cfg->vs[i].depends);
    }
    for (size_t i = 0; i < cfg->n_pools; i++) {
        free(cfg->pools[i].name);
        free(cfg->pools[i].monitor);
        free(cfg->pools[i].key);
        for (size_t m = 0; m < cfg->pools[i].n_members; m++) {
            free(cfg->pools[i].members[m].key);
            free(cfg->pools[i].members[m].monitor);
        }
        free(cfg->pools[i].members);
    }
    for (size_t i = 0; i < cfg->n_wideips; i++) {
        wsel_gslb_wideip *w = &cfg->wideips[i];
        free(w->name);
        free(w->key);
        free(w->lrp_type);
        free(w->lrp_name);
        for (size_t p = 0; p < w->n_pools; p++)
            free(w->pools[p].name);
        free(w->pools);
        for (size_t a = 0; a < w->n_aliases; a++)
            free(w->aliases[a]);
        free(w->aliases);
        free(w->alias_pos);
    }
    for (size_t i = 0; i < cfg->n_regions; i++) {
        free(cfg->regions[i].name);
        for (size_t e = 0; e < cfg->regions[i].n_entries; e++)
            free_cond(&cfg->regions[i].entries[e]);
        free(cfg->regions[i].entries);
    }
    for (size_t i = 0; i < cfg->n_topo; i++) {
        free_cond(&cfg->topo[i].ldns);
        free_cond(&cfg->topo[i].server);
    }
    for (size_t i = 0; i < cfg->n_unknown; i++) {
        free(cfg->unknown[i].object);
        free(cfg->unknown[i].what);
    }
    free(cfg->servers);
    free(cfg->vs);
    free(cfg->pools);
    free(cfg->wideips);
    free(cfg->regions);
    free(cfg->topo);
    free(cfg->unknown);
    wsel__gslb_names_free(cfg);
    free(cfg->file);
    free(cfg->version);
    free(cfg);
}
