/* GSLB decision engine (doc/gslb.md §4): wide IP -> pool -> member.
 * Pure function of (config, inputs, state): the same three give the same outcome, log
 * and next state. No allocation except when a new persistence record is stored. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/gslb/gslb_internal.h"
#include "gslb_select.h"

#define NMAX WSEL_GSLB_MAX_MEMBERS

/* ---- decision log ---- */

void wsel__gslb_emit(Q *q, unsigned flag, const char *fmt, ...)
{
    if (!q->log || !q->log->fn || !((q->log->flags | WSEL_GSLB_LOG_RESULT) & flag))
        return;
    if (flag != WSEL_GSLB_LOG_RESULT && !(q->log->flags & flag))
        return;
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    q->log->fn(q->log->ctx, flag, line);
}


/* ---- availability (doc/gslb.md §4.1) ---- */

static bool vs_ok(Q *q, size_t v, long *why_dep)
{
    uint8_t *mark = q->st->vs_mark;
    if (mark[v] == 2)
        return true;
    if (mark[v] == 3 || mark[v] == 1) /* 1: a depends-on cycle (lint G021) */
        return false;
    mark[v] = 1;
    const wsel_gslb_vs *vs = &q->cfg->vs[v];
    bool ok = q->cfg->servers[vs->server].enabled && vs->enabled && q->in->vs[v].up &&
              !q->in->vs[v].limit;
    for (size_t d = 0; ok && d < vs->n_depends; d++) {
        long t = vs->depends[d];
        if (t < 0 || !vs_ok(q, (size_t)t, NULL)) {
            ok = false;
            if (why_dep)
                *why_dep = (long)d;
        }
    }
    mark[v] = ok ? 2 : 3;
    return ok;
}

/* Configured: server, VS and member enabled; what a fallback with verify off honours. */
bool wsel__gslb_member_configured(const Q *q, const wsel_gslb_member *m)
{
    if (m->vs < 0)
        return false;
    const wsel_gslb_vs *vs = &q->cfg->vs[m->vs];
    return m->enabled && vs->enabled && q->cfg->servers[vs->server].enabled;
}

/* Why member m is unavailable, or NULL when it is available. */
const char *wsel__gslb_member_why(Q *q, const wsel_gslb_member *m, char *buf, size_t len)
{
    if (m->vs < 0)
        return "unresolved";
    if (!wsel__gslb_member_configured(q, m))
        return "disabled";
    const wsel__gslb_vsin *vi = &q->in->vs[m->vs];
    if (!vi->up)
        return "down";
    if (vi->limit)
        return "limit";
    long dep = -1;
    if (!vs_ok(q, (size_t)m->vs, &dep)) {
        const wsel_gslb_vs *vs = &q->cfg->vs[m->vs];
        snprintf(buf, len, "dependency:%s", dep >= 0 ? vs->depends_text[dep] : "cycle");
        return buf;
    }
    return NULL;
}

bool wsel__gslb_member_available(Q *q, const wsel_gslb_member *m)
{
    if (m->vs < 0 || !m->enabled)
        return false;
    uint8_t mk = q->st->vs_mark[m->vs];
    if (mk >= 2) /* this query already decided its VS */
        return mk == 2;
    return vs_ok(q, (size_t)m->vs, NULL); /* server and VS enabled, up, no limit, depends-on */
}

/* Pool availability (doc/gslb.md §4.1). `why` (may be NULL: no formatting on the fast path)
 * receives the reason for the log. */
static bool pool_available(Q *q, size_t p, char *why, size_t len)
{
    uint8_t *pm = &q->st->pool_mark[p];
    if (!why && *pm)
        return *pm == 2;
    const wsel_gslb_pool *pl = &q->cfg->pools[p];
    /* the full count only when it matters: min-members-up, or the log's reason */
    bool count_all = why || pl->min_up_mode != WSEL_GSLB_MINUP_OFF;
    size_t up = 0;
    for (size_t m = 0; m < pl->n_members && (count_all || !up); m++)
        up += wsel__gslb_member_available(q, &pl->members[m]);
    const char *bad = NULL;
    if (!pl->enabled)
        bad = "disabled";
    else if (q->in->pool_held[p])
        bad = "held-down";
    else if (q->in->pool_limit[p])
        bad = "limit";
    else if (up == 0)
        bad = "unavailable";
    else if ((pl->min_up_mode == WSEL_GSLB_MINUP_AT_LEAST && up < pl->min_up_value) ||
             (pl->min_up_mode == WSEL_GSLB_MINUP_PERCENT &&
              100ull * up < (unsigned long long)pl->min_up_value * pl->n_members))
        bad = "min-members";
    if (why) {
        if (!bad || !strcmp(bad, "unavailable") || !strcmp(bad, "min-members"))
            snprintf(why, len, "%s(%zu/%zu up)", bad ? bad : "available", up, pl->n_members);
        else
            snprintf(why, len, "%s", bad);
    }
    *pm = bad ? 3 : 2;
    return bad == NULL;
}

/* Pool p's member eligibility without reasons (the fast path): available, or only
 * configured (`unverified`: a fallback with verify off, A-21). A function of config and
 * inputs, so it is worked out once per inputs generation and kept in the state. */
static const bool *member_elig(Q *q, size_t p, bool unverified)
{
    const wsel_gslb_pool *pl = &q->cfg->pools[p];
    wsel_gslb_state *st = q->st;
    bool *e = st->elig + st->elig_off[p] * 2 + (unverified ? pl->n_members : 0);
    uint8_t bit = unverified ? 2 : 1;
    if (!(st->elig_mark[p] & bit)) {
        for (size_t i = 0; i < pl->n_members; i++)
            e[i] = unverified ? wsel__gslb_member_configured(q, &pl->members[i])
                              : wsel__gslb_member_available(q, &pl->members[i]);
        st->elig_mark[p] |= bit;
    }
    return e;
}

/* ---- outcome helpers ---- */

static void out_reset(Q *q)
{
    wsel_gslb_outcome *o = q->out;
    o->wideip = (long)q->wideip;
    o->pool = -1;
    o->step = WSEL_GSLB_STEP_NONE;
    o->pool_step = WSEL_GSLB_STEP_NONE;
    o->method = -1;
    o->ttl = 0;
    o->rcode = 0;
    o->soa_ttl = 0;
    o->reason = NULL;
    o->n_addrs = 0;
}

static bool add_addr(wsel_gslb_outcome *o, const wsel_gslb_addr *a, long member)
{
    for (size_t i = 0; i < o->n_addrs; i++)
        if (wsel__gslb_addr_eq(&o->addrs[i], a))
            return false;
    if (o->n_addrs >= WSEL_GSLB_MAX_ADDRS)
        return false;
    o->members[o->n_addrs] = member;
    o->addrs[o->n_addrs++] = *a;
    return true;
}

static const char *ldns_str(const Q *q, char *buf, size_t len)
{
    if (!q->in->ldns.family)
        return "-";
    return wsel_gslb_addr_str(&q->in->ldns, buf, len);
}

/* ---- one pool's chain (doc/gslb.md §4.3) ---- */

enum { POOL_TERMINAL, POOL_NEXT };

static int run_pool(Q *q, size_t p, wsel_gslb_step chain_step)
{
    const wsel_gslb_pool *pl = &q->cfg->pools[p];
    for (int s = 0; s < 3; s++) {
        wsel_gslb_method m = pl->mode[s];
        const char *mt = wsel__gslb_methods[m].token;
        const char *sn = wsel_gslb_step_name((wsel_gslb_step)s);
        wsel_gslb_outcome *o = q->out;
        if (m == WSEL_GSLB_NONE) {
            if (s == WSEL_GSLB_STEP_ALTERNATE) {
                EMIT(q, WSEL_GSLB_LOG_MEMBER_SELECTION,
                                "pool-member-selection pool=%s step=%s method=none reason=skip-to-fallback",
                                pl->name, sn);
                continue;
            }
            EMIT(q, WSEL_GSLB_LOG_MEMBER_SELECTION,
                            "pool-member-selection pool=%s step=%s method=none reason=next-pool",
                            pl->name, sn);
            return POOL_NEXT;
        }
        if (m == WSEL_GSLB_DROP_PACKET || m == WSEL_GSLB_RETURN_TO_DNS || m == WSEL_GSLB_FALLBACK_IP) {
            out_reset(q);
            o->pool = (long)p;
            o->step = chain_step == WSEL_GSLB_STEP_LAST_RESORT ? chain_step : (wsel_gslb_step)s;
            o->pool_step = (wsel_gslb_step)s;
            o->method = (int)m;
            if (m == WSEL_GSLB_DROP_PACKET)
                o->kind = WSEL_GSLB_O_DROP;
            else if (m == WSEL_GSLB_RETURN_TO_DNS) {
                o->kind = WSEL_GSLB_O_RETURN_TO_DNS;
                o->reason = "return-to-dns";
            } else if (pl->fallback_ip.family == 0) {
                o->kind = WSEL_GSLB_O_EMPTY; /* NOERROR, no records */
            } else {
                o->kind = WSEL_GSLB_O_FALLBACK_IP;
                o->ttl = pl->ttl;
                add_addr(o, &pl->fallback_ip, -1);
            }
            EMIT(q, WSEL_GSLB_LOG_MEMBER_SELECTION,
                            "pool-member-selection pool=%s step=%s method=%s reason=terminal", pl->name,
                            sn, mt);
            return POOL_TERMINAL;
        }
        /* candidates (doc/gslb.md §4.4; A-29) */
        bool unverified = s == WSEL_GSLB_STEP_FALLBACK && !pl->verify;
        bool trav = wsel__gslb_logging(q, WSEL_GSLB_LOG_MEMBER_TRAVERSAL);
        bool ebuf[NMAX];
        const bool *elig = trav ? ebuf : member_elig(q, p, unverified);
        for (size_t i = 0; i < pl->n_members && trav; i++) {
            const wsel_gslb_member *mb = &pl->members[i];
            char buf[300];
            const char *why = wsel__gslb_member_why(q, mb, buf, sizeof buf);
            if (unverified && why && wsel__gslb_member_configured(q, mb))
                why = NULL;
            ebuf[i] = why == NULL;
            EMIT(q, WSEL_GSLB_LOG_MEMBER_TRAVERSAL,
                            "pool-member-traversal pool=%s step=%s method=%s member=%s result=%s reason=%s",
                            pl->name, sn, mt, mb->key, why ? "skipped" : "eligible",
                            why ? why : (unverified ? "fallback-unverified" : "available"));
        }
        long rank[NMAX];
        size_t n_rank = 0;
        char reason[200];
        reason[0] = '\0';
        bool why = wsel__gslb_logging(q, WSEL_GSLB_LOG_MEMBER_SELECTION | WSEL_GSLB_LOG_MEMBER_TRAVERSAL);
        long pick = wsel__gslb_select(q, p, s, m, elig, rank, &n_rank, why ? reason : NULL, sizeof reason);
        if (pick < 0) {
            EMIT(q, WSEL_GSLB_LOG_MEMBER_TRAVERSAL,
                            "pool-member-traversal pool=%s step=%s method=%s member=- result=failed-step reason=%s",
                            pl->name, sn, mt, reason);
            continue;
        }
        /* answer assembly (doc/gslb.md §4.5; A-36) */
        out_reset(q);
        o->kind = WSEL_GSLB_O_ANSWER;
        o->pool = (long)p;
        o->step = chain_step == WSEL_GSLB_STEP_LAST_RESORT ? chain_step : (wsel_gslb_step)s;
        o->pool_step = (wsel_gslb_step)s;
        o->method = (int)m;
        o->ttl = pl->ttl;
        for (size_t i = 0; i < n_rank && o->n_addrs < pl->max_answers; i++)
            add_addr(o, &q->cfg->vs[pl->members[rank[i]].vs].addr, rank[i]);
        if (wsel__gslb_logging(q, WSEL_GSLB_LOG_MEMBER_SELECTION)) {
            char a[64];
            wsel_gslb_addr_str(&o->addrs[0], a, sizeof a);
            EMIT(q, WSEL_GSLB_LOG_MEMBER_SELECTION,
                            "pool-member-selection pool=%s step=%s method=%s member=%s addr=%s n_answers=%zu reason=%s%s",
                            pl->name, sn, mt, pl->members[pick].key, a, o->n_addrs, reason,
                            unverified ? " fallback-unverified" : "");
        }
        return POOL_TERMINAL;
    }
    EMIT(q, WSEL_GSLB_LOG_MEMBER_SELECTION,
                    "pool-member-selection pool=%s step=fallback method=%s reason=fallback-failed-next-pool",
                    pl->name, wsel__gslb_methods[pl->mode[2]].token);
    return POOL_NEXT; /* */
}

/* ---- persistence (doc/gslb.md §4.2 step 2; A-22) ---- */

static long prec_find(Q *q, const wsel_gslb_addr *net, unsigned prefix)
{
    for (size_t i = 0; i < q->st->n_prec; i++) {
        const wsel__gslb_prec *r = &q->st->prec[i];
        if (r->wideip == q->wideip && r->prefix == prefix && wsel__gslb_addr_eq(&r->net, net))
            return (long)i;
    }
    return -1;
}

static int prec_store(Q *q, const wsel_gslb_addr *net, unsigned prefix)
{
    const wsel_gslb_wideip *w = &q->cfg->wideips[q->wideip];
    long i = prec_find(q, net, prefix);
    wsel_gslb_state *st = q->st;
    if (i < 0) {
        if (!wsel__grow(&st->prec, &st->cap_prec, st->n_prec + 1, sizeof *st->prec))
            return WSEL_E_NOMEM;
        i = (long)st->n_prec++;
    }
    wsel__gslb_prec *r = &st->prec[i];
    r->wideip = q->wideip;
    r->net = *net;
    r->prefix = prefix;
    r->pool = (size_t)q->out->pool;
    r->member = (size_t)q->out->members[0];
    r->expires = q->in->now + w->ttl_persistence;
    return 0;
}

static bool attached(const wsel_gslb_wideip *w, size_t p)
{
    for (size_t i = 0; i < w->n_pools; i++)
        if (w->pools[i].pool == (long)p)
            return true;
    return false;
}

static void result_line(Q *q)
{
    if (!q->log || !q->log->fn)
        return;
    const wsel_gslb_outcome *o = q->out;
    char detail[600] = "";
    size_t used = 0;
    for (size_t i = 0; i < o->n_addrs && used < sizeof detail - 64; i++) {
        char a[64];
        wsel_gslb_addr_str(&o->addrs[i], a, sizeof a);
        used += (size_t)snprintf(detail + used, sizeof detail - used, "%s%s", i ? "," : "", a);
    }
    if (o->kind == WSEL_GSLB_O_RCODE)
        snprintf(detail, sizeof detail, "%s soa_ttl=%u", wsel_gslb_rcode_name(o->rcode), o->soa_ttl);
    else if (o->kind == WSEL_GSLB_O_RETURN_TO_DNS)
        snprintf(detail, sizeof detail, "%s", o->reason ? o->reason : "-");
    else if (!o->n_addrs)
        snprintf(detail, sizeof detail, "-");
    const char *wn = q->cfg->wideips[q->wideip].name;
    if (o->pool >= 0)
        EMIT(q, WSEL_GSLB_LOG_RESULT, "result outcome=%s wideip=%s pool=%s step=%s detail=%s",
                        wsel_gslb_outcome_name(o->kind), wn, q->cfg->pools[o->pool].name,
                        wsel_gslb_step_name(o->step), detail);
    else
        EMIT(q, WSEL_GSLB_LOG_RESULT, "result outcome=%s wideip=%s detail=%s",
                        wsel_gslb_outcome_name(o->kind), wn, detail);
}

/* ---- the wide-IP level (doc/gslb.md §4.2) ---- */

/* A wide IP's pool entry by its resolved full name (as written when unresolved). */
#define WPNAME(i) (w->pools[i].pool >= 0 ? cfg->pools[w->pools[i].pool].name : w->pools[i].name)

static int decide(Q *q)
{
    const wsel_gslb_config *cfg = q->cfg;
    const wsel_gslb_wideip *w = &cfg->wideips[q->wideip];
    wsel_gslb_outcome *o = q->out;
    char lbuf[64] = "-";
    const char *ldns = lbuf;
    if (wsel__gslb_logging(q, WSEL_GSLB_LOG_POOL_SELECTION)) /* inet_ntop only for the log */
        ldns = ldns_str(q, lbuf, sizeof lbuf);
    out_reset(q);

    /* 1: A-11 */
    if (!w->enabled) {
        o->kind = WSEL_GSLB_O_RETURN_TO_DNS;
        o->reason = "wideip-disabled";
        return 0;
    }
    /* 2: persistence (seed) */
    wsel_gslb_addr pnet = {0};
    unsigned pprefix = 0;
    bool persist = w->persistence && q->in->ldns.family;
    if (persist) {
        pprefix = q->in->ldns.family == 4 ? w->cidr4 : w->cidr6;
        pnet = wsel__gslb_mask(&q->in->ldns, pprefix);
        long ri = prec_find(q, &pnet, pprefix);
        if (ri >= 0) {
            wsel__gslb_prec *r = &q->st->prec[ri];
            const wsel_gslb_pool *pl = &cfg->pools[r->pool];
            if (q->in->now < r->expires && attached(w, r->pool) &&
                pool_available(q, r->pool, NULL, 0) && r->member < pl->n_members &&
                wsel__gslb_member_available(q, &pl->members[r->member])) {
                r->expires = q->in->now + w->ttl_persistence; /* idle-based */
                o->kind = WSEL_GSLB_O_ANSWER;
                o->pool = (long)r->pool;
                o->step = WSEL_GSLB_STEP_PERSIST;
                o->method = -1;
                o->ttl = pl->ttl;
                /* fill: the recorded member, then list order after it */
                for (size_t k = 0; k < pl->n_members && o->n_addrs < pl->max_answers; k++) {
                    size_t mi = (r->member + k) % pl->n_members;
                    if (wsel__gslb_member_available(q, &pl->members[mi]))
                        add_addr(o, &cfg->vs[pl->members[mi].vs].addr, (long)mi);
                }
                if (wsel__gslb_logging(q, WSEL_GSLB_LOG_POOL_SELECTION)) {
                    char nb[64];
                    wsel_gslb_addr_str(&pnet, nb, sizeof nb);
                    EMIT(q, WSEL_GSLB_LOG_POOL_SELECTION,
                                    "pool-selection wideip=%s ldns=%s method=persistence pool=%s reason=persist key=%s/%u",
                                    w->name, ldns, pl->name, nb, pprefix);
                }
                return 0;
            }
        }
    }
    /* 3: available pools in list order (kept per inputs generation; worked out again
     * when the log wants each pool's reason) */
    bool trav = wsel__gslb_logging(q, WSEL_GSLB_LOG_POOL_TRAVERSAL);
    uint8_t *avail = q->st->w_avail + q->wideip * WSEL_GSLB_MAX_POOLS;
    bool *ok = q->st->w_ok + q->wideip * WSEL_GSLB_MAX_POOLS;
    if (trav || !q->st->w_mark[q->wideip]) {
        size_t n = 0;
        for (size_t i = 0; i < w->n_pools; i++) {
            char why[80];
            if (trav)
                snprintf(why, sizeof why, "unresolved");
            ok[i] = w->pools[i].pool >= 0 &&
                    pool_available(q, (size_t)w->pools[i].pool, trav ? why : NULL, sizeof why);
            if (ok[i])
                avail[n++] = (uint8_t)i;
            else
                EMIT(q, WSEL_GSLB_LOG_POOL_TRAVERSAL,
                     "pool-traversal wideip=%s pool=%s pos=%zu result=skipped reason=%s", w->name,
                     WPNAME(i), i, why);
        }
        q->st->w_n_avail[q->wideip] = (uint8_t)n;
        q->st->w_mark[q->wideip] = 1;
    }
    size_t n_avail = q->st->w_n_avail[q->wideip];
    uint64_t tried = 0; /* bit i: the pool at list position i ran (MAX_POOLS is 64) */
    bool all_unavailable = n_avail == 0;
    size_t queue[WSEL_GSLB_MAX_POOLS], n_queue = 0;
    bool more = false;
    if (!all_unavailable) {
        char reason[120];
        reason[0] = '\0';
        bool why = wsel__gslb_logging(q, WSEL_GSLB_LOG_POOL_SELECTION);
        if (wsel__gslb_wideip_order(q, avail, ok, n_avail, queue, &n_queue, &more, why ? reason : NULL, sizeof reason))
            return WSEL_E_ARG; /* random input exhausted: err already filled */
        if (n_queue)
            EMIT(q, WSEL_GSLB_LOG_POOL_SELECTION,
                            "pool-selection wideip=%s ldns=%s method=%s pool=%s reason=%s", w->name,
                            ldns, wsel__gslb_methods[w->lb_mode].token, WPNAME(queue[0]), reason);
        else
            EMIT(q, WSEL_GSLB_LOG_POOL_SELECTION,
                            "pool-selection wideip=%s ldns=%s method=%s pool=- reason=%s", w->name, ldns,
                            wsel__gslb_methods[w->lb_mode].token, reason);
    }
    /* 4 */
    for (size_t k = 0; k < n_queue; k++) {
        size_t wi = queue[k];
        size_t p = (size_t)w->pools[wi].pool;
        tried |= 1ull << wi;
        if (wsel__gslb_logging(q, WSEL_GSLB_LOG_POOL_TRAVERSAL)) {
            char why[80];
            pool_available(q, p, why, sizeof why);
            EMIT(q, WSEL_GSLB_LOG_POOL_TRAVERSAL,
                 "pool-traversal wideip=%s pool=%s pos=%zu result=selected reason=%s", w->name,
                 WPNAME(wi), wi, why);
        }
        int r = run_pool(q, p, WSEL_GSLB_STEP_NONE);
        EMIT(q, WSEL_GSLB_LOG_POOL_TRAVERSAL,
                        "pool-traversal wideip=%s pool=%s pos=%zu result=%s reason=%s", w->name,
                        WPNAME(wi), wi, r == POOL_TERMINAL ? "terminal" : "next-pool",
                        r == POOL_TERMINAL ? wsel_gslb_outcome_name(o->kind) : "none-cascade");
        if (r == POOL_TERMINAL) {
            if (o->kind == WSEL_GSLB_O_ANSWER && persist && prec_store(q, &pnet, pprefix))
                return WSEL_E_NOMEM;
            return 0;
        }
        if (more) {
            wsel__gslb_wideip_rest(q, avail, ok, n_avail, queue, &n_queue);
            more = false;
        }
    }
    /* 5: last-resort pool */
    if (w->lrp >= 0) {
        bool ran = false;
        for (size_t i = 0; i < w->n_pools; i++)
            if ((tried >> i & 1) && w->pools[i].pool == w->lrp)
                ran = true;
        if (ran)
            EMIT(q, WSEL_GSLB_LOG_POOL_TRAVERSAL,
                            "pool-traversal wideip=%s pool=%s pos=last-resort result=skipped reason=already-tried",
                            w->name, cfg->pools[w->lrp].name);
        else {
            EMIT(q, WSEL_GSLB_LOG_POOL_SELECTION,
                            "pool-selection wideip=%s ldns=%s method=last-resort pool=%s reason=last-resort",
                            w->name, ldns, cfg->pools[w->lrp].name);
            int r = run_pool(q, (size_t)w->lrp, WSEL_GSLB_STEP_LAST_RESORT);
            EMIT(q, WSEL_GSLB_LOG_POOL_TRAVERSAL,
                            "pool-traversal wideip=%s pool=%s pos=last-resort result=%s reason=%s",
                            w->name, cfg->pools[w->lrp].name,
                            r == POOL_TERMINAL ? "terminal" : "next-pool",
                            r == POOL_TERMINAL ? wsel_gslb_outcome_name(o->kind) : "none-cascade");
            if (r == POOL_TERMINAL) /* not recorded for persistence: only step 4 records
                                     * (a record must name an attached pool to hit) */
                return 0;
        }
    }
    /* 6: terminal fall-through */
    out_reset(q);
    if (w->rcode_response) {
        o->kind = WSEL_GSLB_O_RCODE;
        o->rcode = w->rcode;
        o->soa_ttl = w->rcode_ttl;
    } else if (all_unavailable) {
        o->kind = WSEL_GSLB_O_BIND_AGGREGATE;
        for (size_t i = 0; i < w->n_pools; i++) {
            if (w->pools[i].pool < 0)
                continue;
            const wsel_gslb_pool *pl = &cfg->pools[w->pools[i].pool];
            for (size_t m = 0; m < pl->n_members; m++)
                if (pl->members[m].vs >= 0)
                    add_addr(o, &cfg->vs[pl->members[m].vs].addr, -1);
        }
    } else {
        o->kind = WSEL_GSLB_O_RETURN_TO_DNS;
        o->reason = "no-more-pools";
    }
    return 0;
}

int wsel_gslb_resolve(const wsel_gslb_config *cfg, long wideip, const wsel_gslb_inputs *in,
                      wsel_gslb_state *st, const wsel_gslb_log *log, wsel_gslb_outcome *out,
                      wsel_error *err)
{
    if (!cfg || !in || !st || !out || in->cfg != cfg || st->cfg != cfg || wideip < 0 ||
        (size_t)wideip >= cfg->n_wideips)
        return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, NULL, NULL, NULL,
                          "resolve: config, inputs, state and wide IP must belong together");
    Q q = {.cfg = cfg, .in = in, .st = st, .log = log, .out = out, .wideip = (size_t)wideip,
           .err = err};
    if (st->mark_in != in || st->mark_gen != in->gen) {
        memset(st->vs_mark, 0, cfg->n_vs ? cfg->n_vs : 1);
        memset(st->pool_mark, 0, cfg->n_pools ? cfg->n_pools : 1);
        memset(st->elig_mark, 0, cfg->n_pools ? cfg->n_pools : 1);
        memset(st->w_mark, 0, cfg->n_wideips);
        st->epoch++;
        st->mark_in = in;
        st->mark_gen = in->gen;
    }
    int rc = decide(&q);
    if (rc) {
        if (rc == WSEL_E_NOMEM)
            wsel__fail(err, rc, NULL, 0, 0, NULL, NULL, NULL, "out of memory");
        return rc;
    }
    if (log && log->fn)
        result_line(&q);
    return 0;
}

/* ---- state ---- */

int wsel_gslb_state_new(const wsel_gslb_config *cfg, const wsel_gslb_inputs *in,
                        wsel_gslb_state **out, wsel_error *err)
{
    if (out)
        *out = NULL;
    if (!cfg || !out || (in && in->cfg != cfg))
        return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, NULL, NULL, NULL, "state: bad arguments");
    wsel_gslb_state *st = calloc(1, sizeof *st);
    if (!st)
        return wsel__fail(err, WSEL_E_NOMEM, NULL, 0, 0, NULL, NULL, NULL, "out of memory");
    st->cfg = cfg;
    st->vs_mark = calloc(cfg->n_vs ? cfg->n_vs : 1, 1);
    st->pool_mark = calloc(cfg->n_pools ? cfg->n_pools : 1, 1);
    st->sp = calloc(cfg->n_pools ? cfg->n_pools : 1, sizeof *st->sp);
    size_t np = cfg->n_pools ? cfg->n_pools : 1, nw = cfg->n_wideips ? cfg->n_wideips : 1;
    size_t n_members = 0;
    st->elig_off = calloc(np, sizeof *st->elig_off);
    for (size_t p = 0; st->elig_off && p < cfg->n_pools; p++) {
        st->elig_off[p] = n_members;
        n_members += cfg->pools[p].n_members;
    }
    st->elig = calloc(n_members ? 2 * n_members : 1, sizeof *st->elig);
    st->elig_mark = calloc(np, 1);
    st->w_avail = calloc(nw, WSEL_GSLB_MAX_POOLS);
    st->w_ok = calloc(nw * WSEL_GSLB_MAX_POOLS, sizeof *st->w_ok);
    st->w_n_avail = calloc(nw, 1);
    st->w_mark = calloc(nw, 1);
    for (size_t p = 0; st->sp && p < cfg->n_pools; p++)
        if (!(st->sp[p].order = calloc(cfg->pools[p].n_members ? cfg->pools[p].n_members : 1,
                                       sizeof *st->sp[p].order))) {
            wsel_gslb_state_free(st);
            return wsel__fail(err, WSEL_E_NOMEM, NULL, 0, 0, NULL, NULL, NULL, "out of memory");
        }
    int bad = !st->vs_mark || !st->pool_mark || !st->sp || !st->elig_off || !st->elig ||
              !st->elig_mark || !st->w_avail || !st->w_ok || !st->w_n_avail || !st->w_mark ||
              wsel__gslb_stepst_alloc(cfg, &st->wideip_st, &st->pool_st);
    if (!bad && in) {
        wsel__gslb_stepst_copy(cfg, st->wideip_st, st->pool_st, in->wideip_st, in->pool_st);
        if (in->n_prec) {
            st->prec = malloc(in->n_prec * sizeof *st->prec);
            bad = !st->prec;
            if (!bad) {
                memcpy(st->prec, in->prec, in->n_prec * sizeof *st->prec);
                st->n_prec = st->cap_prec = in->n_prec;
            }
        }
        if (!bad && in->n_random) {
            st->random = malloc(in->n_random * sizeof *st->random);
            bad = !st->random;
            if (!bad) {
                memcpy(st->random, in->random, in->n_random * sizeof *st->random);
                st->n_random = in->n_random;
            }
        }
    }
    if (bad) {
        wsel_gslb_state_free(st);
        return wsel__fail(err, WSEL_E_NOMEM, NULL, 0, 0, NULL, NULL, NULL, "out of memory");
    }
    *out = st;
    return 0;
}

void wsel_gslb_state_free(wsel_gslb_state *st)
{
    if (!st)
        return;
    if (st->wideip_st || st->pool_st)
        wsel__gslb_stepst_free(st->cfg, st->wideip_st, st->pool_st);
    free(st->prec);
    free(st->random);
    free(st->vs_mark);
    free(st->pool_mark);
    free(st->elig);
    free(st->elig_off);
    free(st->elig_mark);
    free(st->w_avail);
    free(st->w_ok);
    free(st->w_n_avail);
    free(st->w_mark);
    if (st->sp)
        for (size_t p = 0; p < st->cfg->n_pools; p++)
            free(st->sp[p].order);
    free(st->sp);
    free(st);
}
