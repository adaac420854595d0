/* GSLB engine: availability of members and pools (doc/gslb.md §4.1) and each pool's
 * eligible members (§4.4). A function of config and inputs only: worked out once per
 * inputs generation and kept in the state. */
#include <string.h>

#include "gslb_engine.h"

bool wsel__gslb_vs_ok(wsel__gslb_query *q, size_t v, long *why_dep)
{
    uint8_t *mark = q->st->vs_mark;
    if (mark[v] >= 2) { /* decided earlier, maybe by a query without a log */
        if (why_dep)
            *why_dep = q->st->vs_dep[v];
        return mark[v] == 2;
    }
    mark[v] = 1;
    const wsel_gslb_vs *vs = &q->cfg->vs[v];
    bool ok = q->cfg->servers[vs->server].enabled && vs->enabled && q->in->vs[v].up &&
              !q->in->vs[v].limit;
    int8_t dep = -1;
    for (size_t d = 0; ok && d < vs->n_depends; d++) {
        long t = vs->depends[d];
        if (t >= 0 && mark[t] == 1) { /* a VS still being decided: a cycle (lint G021) */
            ok = false;
        } else if (t < 0 || !wsel__gslb_vs_ok(q, (size_t)t, NULL)) {
            ok = false;
            dep = (int8_t)d; /* at most WSEL_GSLB_MAX_DEPENDS (64) entries */
        }
    }
    q->st->vs_dep[v] = dep;
    mark[v] = ok ? 2 : 3;
    if (why_dep)
        *why_dep = dep;
    return ok;
}

wsel_gslb_reason wsel__gslb_member_why(wsel__gslb_query *q, const wsel_gslb_member *m,
                                       long *dep)
{
    *dep = -1;
    if (m->vs < 0)
        return WSEL_GSLB_WHY_UNRESOLVED;
    if (m->wrong_family)
        return WSEL_GSLB_WHY_WRONG_FAMILY;
    if (!wsel__gslb_member_configured(q, m))
        return WSEL_GSLB_WHY_DISABLED;
    const wsel__gslb_vsin *vi = &q->in->vs[m->vs];
    if (!vi->up)
        return WSEL_GSLB_WHY_DOWN;
    if (vi->limit)
        return WSEL_GSLB_WHY_LIMIT;
    if (!wsel__gslb_vs_ok(q, (size_t)m->vs, dep))
        return WSEL_GSLB_WHY_DEPENDENCY;
    return WSEL_GSLB_WHY_AVAILABLE;
}

/* The reason pool p (with `up` of its members available) is not available, or
 * WSEL_GSLB_WHY_AVAILABLE. */
static wsel_gslb_reason pool_verdict(const wsel__gslb_query *q, size_t p, size_t up)
{
    const wsel_gslb_pool *pl = &q->cfg->pools[p];
    if (!pl->enabled)
        return WSEL_GSLB_WHY_DISABLED;
    if (q->in->pool_held[p])
        return WSEL_GSLB_WHY_HELD_DOWN;
    if (q->in->pool_limit[p])
        return WSEL_GSLB_WHY_LIMIT;
    if (up == 0)
        return WSEL_GSLB_WHY_UNAVAILABLE;
    if ((pl->min_up_mode == WSEL_GSLB_MINUP_AT_LEAST && up < pl->min_up_value) ||
        (pl->min_up_mode == WSEL_GSLB_MINUP_PERCENT &&
         100ull * up < (unsigned long long)pl->min_up_value * pl->n_members))
        return WSEL_GSLB_WHY_MIN_MEMBERS;
    return WSEL_GSLB_WHY_AVAILABLE;
}

bool wsel__gslb_pool_available(wsel__gslb_query *q, size_t p, wsel_gslb_event *ev)
{
    uint8_t *pm = &q->st->pool_mark[p];
    if (!ev && *pm)
        return *pm == 2;
    const wsel_gslb_pool *pl = &q->cfg->pools[p];
    /* the full count only when it matters: min-members-up, or the log's reason */
    bool count_all = ev || pl->min_up_mode != WSEL_GSLB_MINUP_OFF;
    size_t up = 0;
    for (size_t m = 0; m < pl->n_members && (count_all || !up); m++)
        up += wsel__gslb_member_available(q, &pl->members[m]);
    wsel_gslb_reason verdict = pool_verdict(q, p, up);
    if (ev) {
        ev->reason = verdict;
        ev->up = up;
        ev->of = pl->n_members;
    }
    *pm = verdict == WSEL_GSLB_WHY_AVAILABLE ? 2 : 3;
    return *pm == 2;
}
