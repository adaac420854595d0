/* GSLB lint: the deterministic checks G001-G036 of doc/gslb.md §8.2 (codes and meanings: man wsel, GSLB lint codes). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gslb_internal.h"

typedef struct item {
    wsel_gslb_finding f;
    unsigned group;   /* 0 servers, 1 pools, 2 wide IPs, 3 other */
    size_t index, seq;
} item;

/* One lint run: the config and the findings so far (an allocation failure stops adding
 * and is reported at the end). */
typedef struct lint_findings {
    const wsel_gslb_config *cfg;
    wsel__gslb_can can;       /* could a topology condition match (regions) */
    item *v;
    size_t n, cap;
    int oom;
} lint_findings;

static const wsel_gslb_severity sev[37] = {
    0,
    WSEL_GSLB_ERROR,   WSEL_GSLB_WARNING, WSEL_GSLB_WARNING, WSEL_GSLB_WARNING, WSEL_GSLB_ERROR,
    WSEL_GSLB_WARNING, WSEL_GSLB_INFO,    WSEL_GSLB_WARNING, WSEL_GSLB_INFO,    WSEL_GSLB_ERROR,
    WSEL_GSLB_INFO,    WSEL_GSLB_INFO,    WSEL_GSLB_ERROR,   WSEL_GSLB_ERROR,   WSEL_GSLB_ERROR,
    WSEL_GSLB_INFO,    WSEL_GSLB_INFO,    WSEL_GSLB_WARNING, WSEL_GSLB_WARNING, WSEL_GSLB_ERROR,
    WSEL_GSLB_ERROR,   WSEL_GSLB_INFO,    WSEL_GSLB_INFO,    WSEL_GSLB_INFO,    WSEL_GSLB_INFO,
    WSEL_GSLB_WARNING, WSEL_GSLB_INFO,    WSEL_GSLB_WARNING, WSEL_GSLB_INFO,    WSEL_GSLB_INFO,
    WSEL_GSLB_WARNING, WSEL_GSLB_INFO,    WSEL_GSLB_ERROR,   WSEL_GSLB_WARNING, WSEL_GSLB_ERROR,
    WSEL_GSLB_WARNING,
};

WSEL_PRINTF(7, 8)
static void add(lint_findings *l, unsigned code, unsigned group, size_t index, const char *object,
                wsel_gslb_pos pos, const char *fmt, ...)
{
    if (l->oom)
        return;
    if (!wsel__grow(&l->v, &l->cap, l->n + 1, sizeof *l->v)) {
        l->oom = 1;
        return;
    }
    item *it = &l->v[l->n];
    memset(it, 0, sizeof *it);
    it->f.code = code;
    it->f.severity = sev[code];
    wsel__gslb_fmt(it->f.object, sizeof it->f.object, "%s", object);
    it->f.pos = pos;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(it->f.message, sizeof it->f.message, fmt, ap);
    va_end(ap);
    it->group = group;
    it->index = index;
    it->seq = l->n++;
}

/* G017 over the n ratios at `first`, `stride` bytes apart (a pool's members, or a wide
 * IP's pools; `whose` says which): all equal behaves like round robin, a 0 is never
 * chosen. n >= 1. */
static void lint_ratios(lint_findings *l, unsigned group, size_t index, const char *obj, wsel_gslb_pos at,
                        const char *whose, const unsigned *first, size_t n, size_t stride)
{
    bool zero = false, equal = true;
    for (size_t i = 0; i < n; i++) {
        unsigned r = *(const unsigned *)(const void *)((const char *)first + i * stride);
        zero |= r == 0;
        equal &= r == *first;
    }
    if (n > 1 && equal)
        add(l, 17, group, index, obj, at, "ratio behaves like round robin (all %s ratios are %u)",
            whose, *first);
    if (zero)
        add(l, 17, group, index, obj, at, "ratio-0 entry is never chosen by ratio");
}

static int cmp_item(const void *a, const void *b)
{
    const item *x = a, *y = b;
    if (x->group != y->group)
        return x->group < y->group ? -1 : 1;
    if (x->index != y->index)
        return x->index < y->index ? -1 : 1;
    if (x->f.code != y->f.code)
        return x->f.code < y->f.code ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static const char *tok(wsel_gslb_method m) { return wsel__gslb_methods[m].token; }

static bool is_bigip(const char *product)
{
    return product && (!strcmp(product, "bigip") || !strcmp(product, "redundant-bigip"));
}

static bool selects_members(wsel_gslb_method m)
{
    return m != WSEL_GSLB_NONE && m != WSEL_GSLB_DROP_PACKET && m != WSEL_GSLB_RETURN_TO_DNS &&
           m != WSEL_GSLB_FALLBACK_IP;
}

/* Where step st (0 preferred, 1 alternate, 2 fallback) is written; the pool's head when
 * it is not (the default). */
static wsel_gslb_pos step_at(const wsel_gslb_pool *p, int st)
{
    return p->mode_pos[st].line ? p->mode_pos[st] : p->pos;
}

static bool pool_uses(const wsel_gslb_pool *p, wsel_gslb_method m)
{
    return p->mode[0] == m || p->mode[1] == m || p->mode[2] == m;
}

static void regions_can(wsel__gslb_can *l, long pool, const wsel_gslb_wideip *w);

bool wsel__gslb_can_match(wsel__gslb_can *l, const wsel_gslb_cond *x, long pool,
                          const wsel_gslb_wideip *w)
{
    const wsel_gslb_config *c = l->cfg;
    if (x->negate)
        return true;
    switch (x->type) {
    case WSEL_GSLB_T_POOL: /* the pools of that name, either type */
        if (x->ref < 0 && x->ref_aaaa < 0)
            return false;
        if (w) {
            for (size_t i = 0; i < w->n_pools; i++)
                if (w->pools[i].pool >= 0 &&
                    (w->pools[i].pool == x->ref || w->pools[i].pool == x->ref_aaaa))
                    return true;
            return false;
        }
        return pool >= 0 && (x->ref == pool || x->ref_aaaa == pool);
    case WSEL_GSLB_T_REGION:
        if (x->ref < 0 || (size_t)x->ref >= c->n_regions || !l->rcan)
            return false;
        if (!l->rcan_ok)
            regions_can(l, pool, w);
        return l->rcan[x->ref];
    default:
        break;
    }
    if (w) /* nothing else applies at wide-IP level */
        return false;
    const wsel_gslb_pool *p = &c->pools[pool];
    for (size_t m = 0; m < p->n_members; m++) {
        if (p->members[m].vs < 0)
            continue;
        const wsel_gslb_vs *vs = &c->vs[p->members[m].vs];
        const char *dc = c->servers[vs->server].datacenter;
        if (x->type == WSEL_GSLB_T_DATACENTER && dc && !strcmp(dc, x->value))
            return true;
        if (x->type == WSEL_GSLB_T_SUBNET && wsel__gslb_in_subnet(&vs->addr, &x->net, x->prefix))
            return true;
        if (x->type >= WSEL_GSLB_T_CONTINENT && x->type <= WSEL_GSLB_T_GEOIP_ISP)
            return true;
    }
    return false;
}

/* Every region's "could match" for one candidate, inner regions first: each entry
 * looked at once, any nesting depth. A-40: one of its positive entries could match, or it
 * has none (that count at this level) and some `not` entry counts; a `not` entry is never
 * taken to exclude (inputs decide). */
static void regions_can(wsel__gslb_can *l, long pool, const wsel_gslb_wideip *w)
{
    const wsel_gslb_config *c = l->cfg;
    l->rcan_ok = true; /* a region entry reads rcan: the regions it names come earlier */
    for (size_t k = 0; k < c->n_regions; k++) {
        size_t r = l->rorder[k];
        bool pos = false, neg = false, can = false;
        for (size_t e = 0; e < c->regions[r].n_entries && !can; e++) {
            const wsel_gslb_cond *x = &c->regions[r].entries[e];
            bool counts = !w || x->type == WSEL_GSLB_T_POOL || x->type == WSEL_GSLB_T_REGION;
            if (x->negate)
                neg |= counts;
            else if (counts) {
                pos = true;
                can = wsel__gslb_can_match(l, x, pool, w);
            }
        }
        l->rcan[r] = can || (!pos && neg);
    }
}

int wsel__gslb_can_init(wsel__gslb_can *k, const wsel_gslb_config *cfg)
{
    *k = (wsel__gslb_can){.cfg = cfg};
    if (!cfg->n_regions)
        return 0;
    k->rorder = malloc(cfg->n_regions * sizeof *k->rorder);
    k->rcan = malloc(cfg->n_regions);
    if (!k->rorder || !k->rcan || wsel__gslb_region_order(cfg, k->rorder, NULL) < 0) {
        wsel__gslb_can_free(k);
        return -1;
    }
    return 0;
}

void wsel__gslb_can_free(wsel__gslb_can *k)
{
    free(k->rorder);
    free(k->rcan);
    k->rorder = NULL;
    k->rcan = NULL;
}

static bool topo_can_score(lint_findings *l, long pool, const wsel_gslb_wideip *w)
{
    const wsel_gslb_config *c = l->cfg;
    l->can.rcan_ok = false;
    for (size_t t = 0; t < c->n_topo; t++)
        if (wsel__gslb_can_match(&l->can, &c->topo[t].server, pool, w))
            return true;
    return false;
}

static int dfs_cycle(const wsel_gslb_config *c, size_t v, uint8_t *mark, uint8_t *oncycle,
                     size_t *stack, size_t depth)
{
    mark[v] = 1;
    stack[depth] = v;
    for (size_t d = 0; d < c->vs[v].n_depends; d++) {
        long t = c->vs[v].depends[d];
        if (t < 0)
            continue;
        if (mark[t] == 1) {
            for (size_t k = depth + 1; k-- > 0;) {
                oncycle[stack[k]] = 1;
                if (stack[k] == (size_t)t)
                    break;
            }
        } else if (mark[t] == 0)
            dfs_cycle(c, (size_t)t, mark, oncycle, stack, depth + 1);
    }
    mark[v] = 2;
    return 0;
}

static void lint_servers(lint_findings *l)
{
    const wsel_gslb_config *c = l->cfg;
    char obj[400];
    for (size_t v = 0; v < c->n_vs; v++) {
        const wsel_gslb_vs *vs = &c->vs[v];
        wsel__gslb_fmt(obj, sizeof obj, "gtm server %s virtual-server %s", c->servers[vs->server].name,
                       vs->name);
        for (size_t d = 0; d < vs->n_depends; d++)
            if (vs->depends[d] < 0)
                add(l, 13, 0, vs->server, obj, vs->pos,
                    "unresolved reference: depends-on '%s' names no configured virtual server",
                    vs->depends_text[d]);
    }
    if (!c->n_vs)
        return;
    uint8_t *mark = calloc(c->n_vs, 1), *oncycle = calloc(c->n_vs, 1);
    size_t *stack = calloc(c->n_vs + 1, sizeof *stack);
    if (!mark || !oncycle || !stack) {
        l->oom = 1;
    } else {
        for (size_t v = 0; v < c->n_vs; v++)
            if (!mark[v])
                dfs_cycle(c, v, mark, oncycle, stack, 0);
        for (size_t v = 0; v < c->n_vs; v++)
            if (oncycle[v]) {
                const wsel_gslb_vs *vs = &c->vs[v];
                wsel__gslb_fmt(obj, sizeof obj, "gtm server %s virtual-server %s",
                               c->servers[vs->server].name, vs->name);
                add(l, 21, 0, vs->server, obj, vs->pos,
                    "dependency cycle makes these members unavailable (%s is on a depends-on cycle)",
                    vs->name);
            }
    }
    free(mark);
    free(oncycle);
    free(stack);
}

/* G006: a dynamic preferred method whose members have no metrics source (server
 * statistics need a BIG-IP server, A-3; path probes a BIG-IP in the member's data
 * center). One finding per pool, naming the first such member. */
static void lint_metrics_source(lint_findings *l, size_t pi, const char *obj)
{
    const wsel_gslb_config *c = l->cfg;
    const wsel_gslb_pool *p = &c->pools[pi];
    const wsel_gslb_method_info *pm = &wsel__gslb_methods[p->mode[0]];
    if (pm->kind != WSEL_GSLB_KIND_PATH && pm->kind != WSEL_GSLB_KIND_SRV)
        return;
    size_t bad = 0;
    const char *first = NULL;
    for (size_t m = 0; m < p->n_members; m++) {
        if (p->members[m].vs < 0)
            continue;
        const wsel_gslb_server *s = &c->servers[c->vs[p->members[m].vs].server];
        bool ok;
        if (pm->kind == WSEL_GSLB_KIND_SRV)
            ok = is_bigip(s->product); /* unknown product = generic */
        else {
            ok = false;
            for (size_t k = 0; k < c->n_servers; k++)
                if (is_bigip(c->servers[k].product) && s->datacenter && c->servers[k].datacenter &&
                    !strcmp(s->datacenter, c->servers[k].datacenter))
                    ok = true;
        }
        if (!ok) {
            if (!first)
                first = p->members[m].key;
            bad++;
        }
    }
    if (bad)
        add(l, 6, 1, pi, obj, p->pos,
            "preferred %s has no metrics source for member %s%s: it will always fail, alternate %s decides",
            tok(p->mode[0]), first, bad > 1 ? " (and the other members alike)" : "", tok(p->mode[1]));
}

static void lint_family(lint_findings *l, size_t pi, const char *obj);

static void lint_pool(lint_findings *l, size_t pi)
{
    const wsel_gslb_config *c = l->cfg;
    const wsel_gslb_pool *p = &c->pools[pi];
    char obj[400];
    wsel__gslb_obj_pool(c, pi, obj, sizeof obj);
    wsel_gslb_method pre = p->mode[0], alt = p->mode[1], fb = p->mode[2];
    wsel_gslb_pos at = p->pos;
    if (pool_uses(p, WSEL_GSLB_FALLBACK_IP) && p->fallback_ip.family == 0)
        add(l, 1, 1, pi, obj, at, "fallback-ip method selected but fallback-ip is unset: this step answers empty");
    if (p->dynamic_ratio && !wsel__gslb_methods[pre].dynamic_ratio &&
        !wsel__gslb_methods[fb].dynamic_ratio)
        add(l, 2, 1, pi, obj, at, "dynamic-ratio has no documented effect with method %s", tok(pre));
    if (pre == WSEL_GSLB_GLOBAL_AVAILABILITY && fb != WSEL_GSLB_NONE)
        add(l, 3, 1, pi, obj, at,
            "GA will not move to the next pool: fallback %s intercepts member exhaustion", tok(fb));
    if (!wsel__gslb_methods[alt].at_alternate)
        add(l, 5, 1, pi, obj, step_at(p, 1),
            "alternate must be static; %s needs metrics that are missing whenever the preferred failed",
            tok(alt));
    lint_metrics_source(l, pi, obj);
    if (!p->verify && selects_members(fb))
        add(l, 8, 1, pi, obj, at,
            "fallback ignores availability: it may answer with a member that monitors mark down");
    if (pre == WSEL_GSLB_FALLBACK_IP || alt == WSEL_GSLB_FALLBACK_IP)
        add(l, 9, 1, pi, obj, at, "manual lists Fallback IP only as a fallback method");
    if (pre == WSEL_GSLB_NONE)
        add(l, 10, 1, pi, obj, step_at(p, 0), "none is not a preferred method");
    if (pre == WSEL_GSLB_RETURN_TO_DNS || pre == WSEL_GSLB_DROP_PACKET)
        add(l, 11, 1, pi, obj, at,
            "pool never answers from its members (manual: Return to DNS takes a pool out of service)");
    /* only when the operator wrote the alternate: the default alternate round-robin after
     * a written preferred round-robin is the vendor's default pair, not a choice */
    if (alt == pre && wsel__gslb_methods[pre].kind == WSEL_GSLB_KIND_STATIC &&
        (p->written & WSEL_GSLB_P_ALTERNATE))
        add(l, 12, 1, pi, obj, at, "alternate repeats the preferred and fails in the same cases");
    for (size_t m = 0; m < p->n_members; m++)
        if (p->members[m].vs < 0)
            add(l, 13, 1, pi, obj, p->members[m].pos,
                "unresolved reference: member '%s' names no configured server virtual server",
                p->members[m].key);
    if (!p->n_members)
        add(l, 14, 1, pi, obj, at, "nothing to select: always falls through (pool has no members)");
    if (pool_uses(p, WSEL_GSLB_RATIO) && p->n_members)
        lint_ratios(l, 1, pi, obj, at, "member", &p->members[0].ratio, p->n_members,
                    sizeof p->members[0]);
    if (pool_uses(p, WSEL_GSLB_TOPOLOGY) && !topo_can_score(l, (long)pi, NULL))
        add(l, 18, 1, pi, obj, at, "Topology can never score > 0 here: it always fails");
    if (pool_uses(p, WSEL_GSLB_QOS)) {
        bool any = false;
        for (int f = 0; f < WSEL_GSLB_QOS_COUNT_; f++)
            any |= p->qos[f] != 0;
        if (!any)
            add(l, 19, 1, pi, obj, at, "QoS scores are all zero: reduces to round robin");
    }
    if (p->fallback_ip.family && p->fallback_ip.family != (p->type == WSEL_GSLB_TYPE_AAAA ? 6 : 4))
        add(l, 20, 1, pi, obj, at, "fallback-ip family mismatch (IPv%u address in pool %s): "
            "it never answers (an empty answer, A-43)", p->fallback_ip.family,
            wsel__gslb_type_word(p->type));
    lint_family(l, pi, obj);
    if (p->max_answers > p->n_members && (p->written & WSEL_GSLB_P_MAXANS))
        add(l, 23, 1, pi, obj, at, "max-answers-returned %u cannot be reached (%zu members)",
            p->max_answers, p->n_members);
    if (p->manual_resume)
        add(l, 25, 1, pi, obj, at, "a failed pool stays down until an operator resumes it");
    if (pool_uses(p, WSEL_GSLB_STATIC_PERSISTENCE) && (c->sp_cidr4 == 0 || c->sp_cidr6 == 0))
        add(l, 28, 1, pi, obj, at, "every LDNS hashes alike: all traffic to one member (static-persist-cidr /%u, /%u)",
            c->sp_cidr4, c->sp_cidr6);
}

/* Can a step with method m fail, or pass on, in a pool that is available (one available
 * member at least, doc/gslb.md §4.1)? Round robin and global availability always pick
 * one there; a terminal method ends the chain itself. */
static bool can_pass_on(wsel_gslb_method m)
{
    return m != WSEL_GSLB_ROUND_ROBIN && m != WSEL_GSLB_GLOBAL_AVAILABILITY &&
           wsel__gslb_methods[m].kind != WSEL_GSLB_KIND_TERMINAL;
}

/* G031: a pool with pools after it in the wide IP's list whose fallback is terminal
 * (return-to-dns, the default; drop-packet; fallback-ip) ends the decision there when
 * its preferred and alternate fail, so the pools after it are not tried (doc/gslb.md §4.3).
 * Only where the fallback can be reached while the pool is available (an unavailable
 * pool is not traversed, §4.2: so never after a preferred global-availability, G003's
 * case), and not where G004 (topology at both levels) already says so for that pool. */
static void lint_terminal_fallback(lint_findings *l, size_t wi, const char *obj)
{
    const wsel_gslb_config *c = l->cfg;
    const wsel_gslb_wideip *w = &c->wideips[wi];
    for (size_t i = 0; i + 1 < w->n_pools; i++) {
        long pi = w->pools[i].pool;
        if (pi < 0)
            continue;
        const wsel_gslb_pool *p = &c->pools[pi];
        wsel_gslb_method fb = p->mode[2];
        if (wsel__gslb_methods[fb].kind != WSEL_GSLB_KIND_TERMINAL || !can_pass_on(p->mode[0]) ||
            !can_pass_on(p->mode[1]) ||
            (w->lb_mode == WSEL_GSLB_TOPOLOGY && p->mode[0] == WSEL_GSLB_TOPOLOGY))
            continue;
        add(l, 31, 2, wi, obj, w->pools[i].pos,
            "pool %s ends the decision with its %sfallback %s when its members fail: the pools "
            "after it are not tried (fallback-mode none passes on)",
            p->name, (p->written & WSEL_GSLB_P_FALLBACK) ? "" : "default ", tok(fb));
    }
}

/* G035, G036: members whose VS address is not of the pool's type (IPv4 in an AAAA
 * pool, IPv6 in an A pool) never answer: G035 when no resolved member is of the pool's
 * type (the pool never answers from its members), else G036 at each such member. */
static void lint_family(lint_findings *l, size_t pi, const char *obj)
{
    const wsel_gslb_pool *p = &l->cfg->pools[pi];
    size_t wrong = 0, resolved = 0, first = 0;
    for (size_t m = 0; m < p->n_members; m++) {
        if (p->members[m].vs < 0)
            continue;
        if (p->members[m].wrong_family && !wrong++)
            first = m;
        resolved++;
    }
    unsigned want = p->type == WSEL_GSLB_TYPE_AAAA ? 6 : 4, other = want == 6 ? 4 : 6;
    if (wrong && wrong == resolved)
        add(l, 35, 1, pi, obj, p->pos,
            "type mismatch: every member's virtual server is IPv%u (%s first), a pool %s "
            "answers IPv%u only: its members never answer", other, p->members[first].key,
            wsel__gslb_type_word(p->type), want);
    else
        for (size_t m = 0; wrong && m < p->n_members; m++)
            if (p->members[m].wrong_family)
                add(l, 36, 1, pi, obj, p->members[m].pos,
                    "member '%s' has an IPv%u virtual server in a pool %s: it never answers "
                    "(the pool answers IPv%u only)", p->members[m].key, other,
                    wsel__gslb_type_word(p->type), want);
}

/* G033: a query name claimed twice -- the last path part of a wide IP's name or an alias
 * that an earlier wide IP (file order) has as its name or alias. Queries for it reach
 * one wide IP only, the one wsel_gslb_find_wideip picks (names before aliases). */
static void lint_claims(lint_findings *l, size_t wi, const char *obj)
{
    const wsel_gslb_config *c = l->cfg;
    const wsel_gslb_wideip *w = &c->wideips[wi];
    for (size_t a = 0; a <= w->n_aliases; a++) {
        const char *name = a ? w->aliases[a - 1] : strrchr(w->name, '/') + 1;
        long owner = wsel__gslb_find_claim(c, name, w->type); /* each type its own names */
        if (owner >= 0 && (size_t)owner != wi)
            add(l, 33, 2, wi, obj, a ? w->alias_pos[a - 1] : w->pos,
                "%s '%s' is also claimed by gtm wideip %s %s: its queries reach that one",
                a ? "alias" : "name", name, wsel__gslb_type_word(w->type),
                c->wideips[owner].name);
    }
}

/* Do glob patterns p and q match a common name? Forward reachability over pairs of
 * positions (i in p, j in q): a star stays or ends, either side; two other symbols
 * advance together when they agree. Out of memory: false, and the lint run fails. */
static bool globs_meet(lint_findings *l, const char *p, const char *q)
{
    size_t n = strlen(p), m = strlen(q), w = m + 1;
    uint8_t *r = calloc((n + 1) * w, 1);
    if (!r) {
        l->oom = 1;
        return false;
    }
    r[0] = 1;
    for (size_t i = 0; i <= n; i++)
        for (size_t j = 0; j <= m; j++) {
            if (!r[i * w + j])
                continue;
            char a = i < n ? p[i] : 0, b = j < m ? q[j] : 0;
            if (a == '*') {
                r[(i + 1) * w + j] = 1;
                if (j < m)
                    r[i * w + j + 1] = 1;
            }
            if (b == '*') {
                r[i * w + j + 1] = 1;
                if (i < n)
                    r[(i + 1) * w + j] = 1;
            }
            if (a && b && a != '*' && b != '*' &&
                (a == '?' || b == '?' ||
                 wsel__gslb_fold((unsigned char)a) == wsel__gslb_fold((unsigned char)b)))
                r[(i + 1) * w + j + 1] = 1;
        }
    bool meet = r[n * w + m];
    free(r);
    return meet;
}

/* Can a name start with the literal prefix of p and with that of q (the characters before
 * their first wildcard), and end with both literal suffixes? A cheap test before
 * globs_meet: wildcards with different fixed domains never meet. */
static bool ends_agree(const char *p, const char *q)
{
    size_t pp = strcspn(p, "*?"), qp = strcspn(q, "*?"), n = pp < qp ? pp : qp;
    if (strncasecmp(p, q, n))
        return false;
    size_t pl = strlen(p), ql = strlen(q), ps = 0, qs = 0;
    while (ps < pl && p[pl - 1 - ps] != '*' && p[pl - 1 - ps] != '?')
        ps++;
    while (qs < ql && q[ql - 1 - qs] != '*' && q[ql - 1 - qs] != '?')
        qs++;
    n = ps < qs ? ps : qs;
    return !strncasecmp(p + pl - n, q + ql - n, n);
}

/* G034: two wildcard names or aliases of different wide IPs that match a common name: such
 * a name reaches the one first in A-41's order, the other is shadowed there. Each pair of
 * patterns once, in that order (the index's list). */
static void lint_wildcards(lint_findings *l)
{
    const wsel_gslb_config *c = l->cfg;
    char obj[400];
    const char *pat, *other;
    size_t wi, wj, n = wsel__gslb_names_pattern(c, 0, &pat, &wi);
    for (size_t i = 1; i < n; i++) {
        wsel__gslb_names_pattern(c, i, &pat, &wi);
        for (size_t j = 0; j < i; j++) {
            wsel__gslb_names_pattern(c, j, &other, &wj);
            if (wj == wi || c->wideips[wj].type != c->wideips[wi].type ||
                !strcasecmp(pat, other) || !ends_agree(pat, other) ||
                !globs_meet(l, pat, other)) /* the same pattern twice: G033 */
                continue;
            const wsel_gslb_wideip *w = &c->wideips[wi];
            wsel_gslb_pos at = w->pos;
            for (size_t a = 0; a < w->n_aliases; a++)
                if (w->aliases[a] == pat)
                    at = w->alias_pos[a];
            wsel__gslb_obj_wideip(c, wi, obj, sizeof obj);
            add(l, 34, 2, wi, obj, at,
                "wildcard '%s' is shadowed by '%s' of gtm wideip %s %s for the names both "
                "match (that one comes first in A-41's order: more literal characters, "
                "fewer '*', file order)", pat, other, wsel__gslb_type_word(w->type),
                c->wideips[wj].name);
        }
    }
}

static void lint_wideip(lint_findings *l, size_t wi)
{
    const wsel_gslb_config *c = l->cfg;
    const wsel_gslb_wideip *w = &c->wideips[wi];
    char obj[400];
    wsel__gslb_obj_wideip(c, wi, obj, sizeof obj);
    wsel_gslb_pos at = w->pos;
    if (w->lb_mode == WSEL_GSLB_TOPOLOGY) {
        for (size_t i = 0; i < w->n_pools; i++) {
            long pi = w->pools[i].pool;
            if (pi < 0)
                continue;
            const wsel_gslb_pool *p = &c->pools[pi];
            if (p->mode[0] == WSEL_GSLB_TOPOLOGY && p->mode[2] != WSEL_GSLB_NONE)
                add(l, 4, 2, wi, obj, w->pools[i].pos,
                    "Topology on both levels: set this pool's fallback to none so a non-matching pool passes to the next (%s)",
                    p->name);
        }
        if (w->n_pools && !topo_can_score(l, -1, w))
            add(l, 18, 2, wi, obj, at, "Topology can never score > 0 here: it always fails");
    }
    lint_terminal_fallback(l, wi, obj);
    if (w->n_pools == 1 && (w->written & WSEL_GSLB_W_LBMODE))
        add(l, 7, 2, wi, obj, at, "pool-lb-mode is irrelevant with a single pool");
    for (size_t i = 0; i < w->n_pools; i++)
        if (w->pools[i].pool < 0)
            add(l, 13, 2, wi, obj, w->pools[i].pos, "unresolved reference: pool '%s' names no gtm pool %s",
                w->pools[i].name, wsel__gslb_type_word(w->type));
    if (!w->n_pools)
        add(l, 14, 2, wi, obj, at, "nothing to select: always falls through (wide IP has no pools)");
    if (w->lrp_name && (strcmp(w->lrp_type, wsel__gslb_type_word(w->type)) || w->lrp < 0))
        add(l, 15, 2, wi, obj, w->lrp_pos, "last-resort pool unresolved (%s %s)", w->lrp_type, w->lrp_name);
    if (w->lrp >= 0)
        for (size_t i = 0; i < w->n_pools; i++)
            if (w->pools[i].pool == w->lrp)
                add(l, 16, 2, wi, obj, w->lrp_pos, "last-resort pool is already in the pool list (%s)",
                    c->pools[w->lrp].name);
    if (w->lb_mode == WSEL_GSLB_RATIO && w->n_pools)
        lint_ratios(l, 2, wi, obj, at, "pool", &w->pools[0].ratio, w->n_pools,
                    sizeof w->pools[0]);
    if ((w->written & WSEL_GSLB_W_RCODE) && !w->rcode_response)
        add(l, 22, 2, wi, obj, at, "failure-rcode is ignored (failure-rcode-response disabled)");
    if (w->persistence && w->ttl_persistence == 0)
        add(l, 24, 2, wi, obj, at, "persistence records expire immediately (ttl-persistence 0)");
    if (w->lb_mode == WSEL_GSLB_RANDOM)
        add(l, 26, 2, wi, obj, at, "random is version-dependent: verify on your release");
    if (w->has_rules)
        add(l, 27, 2, wi, obj, at, "iRules are not evaluated by this tool");
    lint_claims(l, wi, obj);
}

static void lint_other(lint_findings *l)
{
    const wsel_gslb_config *c = l->cfg;
    char obj[400];
    bool dc_records = false, member_topo = false, wide_topo = false;
    for (size_t t = 0; t < c->n_topo; t++) {
        const wsel_gslb_topo *r = &c->topo[t];
        wsel__gslb_fmt(obj, sizeof obj, "gtm topology (line %u)", r->pos.line);
        if (r->server.type == WSEL_GSLB_T_POOL && r->server.ref < 0 && r->server.ref_aaaa < 0)
            add(l, 13, 3, t, obj, r->pos, "unresolved reference: topology record names pool '%s'",
                r->server.value);
        dc_records |= r->server.type == WSEL_GSLB_T_DATACENTER;
    }
    for (size_t p = 0; p < c->n_pools; p++)
        member_topo |= pool_uses(&c->pools[p], WSEL_GSLB_TOPOLOGY) ||
                       (pool_uses(&c->pools[p], WSEL_GSLB_QOS) && c->pools[p].qos[WSEL_GSLB_QOS_TOPOLOGY]);
    for (size_t w = 0; w < c->n_wideips; w++)
        wide_topo |= c->wideips[w].lb_mode == WSEL_GSLB_TOPOLOGY;
    if (dc_records && wide_topo && !member_topo)
        add(l, 29, 3, 0, "gtm topology", c->n_topo ? c->topo[0].pos : (wsel_gslb_pos){0, 0},
            "datacenter destinations apply only when choosing members (topology is used only at wide-IP level)");
    for (size_t u = 0; u < c->n_unknown; u++)
        add(l, 30, 3, c->n_topo + u, c->unknown[u].object, c->unknown[u].pos,
            "ignored by this tool: %s", c->unknown[u].what);
    for (size_t r = 0; r < c->n_regions; r++) {
        const wsel_gslb_region *rg = &c->regions[r];
        size_t neg = wsel__gslb_region_mixed(rg);
        wsel__gslb_fmt(obj, sizeof obj, "gtm region %s", rg->name);
        if (neg) /* */
            add(l, 32, 3, c->n_topo + c->n_unknown + r, obj, rg->pos,
                "mixes is and is not: matches what one of its %zu is entries matches, unless "
                "one of its %zu is-not entries matches it too",
                rg->n_entries - neg, neg);
    }
}

size_t wsel__gslb_region_mixed(const wsel_gslb_region *rg)
{
    size_t neg = 0;
    for (size_t e = 0; e < rg->n_entries; e++)
        neg += rg->entries[e].negate;
    return neg < rg->n_entries ? neg : 0;
}

int wsel_gslb_lint(const wsel_gslb_config *cfg, wsel_gslb_finding **out, size_t *n,
                   wsel_error *err)
{
    if (out)
        *out = NULL;
    if (n)
        *n = 0;
    if (!cfg || !out || !n)
        return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, NULL, NULL, NULL, "lint: bad arguments");
    lint_findings l = {.cfg = cfg};
    if (wsel__gslb_can_init(&l.can, cfg) < 0)
        l.oom = true;
    lint_servers(&l);
    for (size_t p = 0; p < cfg->n_pools; p++)
        lint_pool(&l, p);
    for (size_t w = 0; w < cfg->n_wideips; w++)
        lint_wideip(&l, w);
    lint_wildcards(&l);
    lint_other(&l);
    wsel__gslb_can_free(&l.can);
    if (l.oom) {
        free(l.v);
        return wsel__fail(err, WSEL_E_NOMEM, NULL, 0, 0, NULL, NULL, NULL, "out of memory");
    }
    if (l.n)
        qsort(l.v, l.n, sizeof *l.v, cmp_item);
    wsel_gslb_finding *f = calloc(l.n ? l.n : 1, sizeof *f);
    if (!f) {
        free(l.v);
        return wsel__fail(err, WSEL_E_NOMEM, NULL, 0, 0, NULL, NULL, NULL, "out of memory");
    }
    for (size_t i = 0; i < l.n; i++)
        f[i] = l.v[i].f;
    free(l.v);
    *out = f;
    *n = l.n;
    return 0;
}
