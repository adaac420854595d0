/* GSLB engine: one pool's chain (doc/gslb.md §4.3): preferred -> alternate -> fallback,
 * each step's candidates (§4.4) and the answer (§4.5). */
#include <string.h>

#include "gslb_engine.h"

/* A member event of pool p's step s by method m. */
static wsel_gslb_event member_event(const wsel__gslb_query *q, wsel_gslb_event_kind kind,
                                    size_t p, int s, wsel_gslb_method m)
{
    wsel_gslb_event ev = wsel__gslb_event(q, kind);
    ev.pool = (long)p;
    ev.step = (wsel_gslb_step)s;
    ev.method = (int)m;
    return ev;
}

/* A pool-member-selection event without a pick: `none`, a terminal method, or the
 * failed fallback. */
static void emit_step(const wsel__gslb_query *q, size_t p, int s, wsel_gslb_method m,
                      wsel_gslb_reason reason)
{
    if (!wsel__gslb_logging(q, WSEL_GSLB_LOG_MEMBER_SELECTION))
        return;
    wsel_gslb_event ev = member_event(q, WSEL_GSLB_EV_MEMBER_SELECTION, p, s, m);
    ev.reason = reason;
    wsel__gslb_emit(q, &ev);
}

/* The outcome of pool p at step s of method m, before its kind and addresses. */
static void out_pool(wsel__gslb_query *q, size_t p, int s, wsel_gslb_method m,
                     wsel_gslb_step chain_step)
{
    wsel_gslb_outcome *o = q->out;
    wsel__gslb_out_reset(q);
    o->pool = (long)p;
    o->step = chain_step == WSEL_GSLB_STEP_LAST_RESORT ? chain_step : (wsel_gslb_step)s;
    o->pool_step = (wsel_gslb_step)s;
    o->method = (int)m;
}

/* drop-packet, return-to-dns, fallback-ip: the decision ends here (A-28: an unset
 * fallback-ip is an empty answer). */
static void terminal_step(wsel__gslb_query *q, size_t p, int s, wsel_gslb_method m,
                          wsel_gslb_step chain_step)
{
    const wsel_gslb_pool *pl = &q->cfg->pools[p];
    wsel_gslb_outcome *o = q->out;
    out_pool(q, p, s, m, chain_step);
    if (m == WSEL_GSLB_DROP_PACKET) {
        o->kind = WSEL_GSLB_O_DROP;
    } else if (m == WSEL_GSLB_RETURN_TO_DNS) {
        o->kind = WSEL_GSLB_O_RETURN_TO_DNS;
        o->reason = "return-to-dns";
    } else if (pl->fallback_ip.family != (pl->type == WSEL_GSLB_TYPE_AAAA ? 6 : 4)) {
        o->kind = WSEL_GSLB_O_EMPTY; /* unset, or of the other family (A-43, G020) */
    } else {
        o->kind = WSEL_GSLB_O_FALLBACK_IP;
        o->ttl = pl->ttl;
        wsel__gslb_add_addr(o, &pl->fallback_ip, -1);
    }
    emit_step(q, p, s, m, WSEL_GSLB_WHY_TERMINAL);
}

/* Why the step's method leaves out member i, a candidate of the step: its ratio is 0
 * (ratio, A-8), it lacks a metric the method reads (*metric), its topology score is 0
 * WSEL_GSLB_WHY_NONE when the method weighs it. For the log only: the method
 * itself leaves the member out the same way. */
static wsel_gslb_reason method_skip(const wsel__gslb_query *q, size_t p, size_t i,
                                    wsel_gslb_method m, int *metric)
{
    const wsel_gslb_member *mb = &q->cfg->pools[p].members[i];
    const wsel_gslb_method_info *mi = &wsel__gslb_methods[m];
    *metric = -1;
    if (m == WSEL_GSLB_RATIO)
        return mb->ratio ? WSEL_GSLB_WHY_NONE : WSEL_GSLB_WHY_RATIO_0;
    if (m == WSEL_GSLB_TOPOLOGY)
        return wsel__gslb_topo_member(q, p, i) ? WSEL_GSLB_WHY_NONE : WSEL_GSLB_WHY_SCORE_0;
    if (m == WSEL_GSLB_QOS)
        *metric = wsel__gslb_qos_missing(q, p, i);
    else if (mi->metric >= 0 && !(q->in->vs[mb->vs].have & (1u << mi->metric)))
        *metric = mi->metric;
    return *metric >= 0 ? WSEL_GSLB_WHY_NO_METRIC : WSEL_GSLB_WHY_NONE;
}

/* The step's candidates (doc/gslb.md §4.4; A-29) worked out member by member with each
 * one's reason for the member-traversal log, into elig[]: a candidate the method leaves
 * out is logged skipped with the method's reason (never "eligible" first); a topology
 * candidate's matching records follow its line. */
static void traverse_candidates(wsel__gslb_query *q, size_t p, int s, wsel_gslb_method m,
                                bool unverified, bool *elig)
{
    const wsel_gslb_pool *pl = &q->cfg->pools[p];
    for (size_t i = 0; i < pl->n_members; i++) {
        const wsel_gslb_member *mb = &pl->members[i];
        wsel_gslb_event ev = member_event(q, WSEL_GSLB_EV_MEMBER_TRAVERSAL, p, s, m);
        ev.member = (long)i;
        ev.reason = wsel__gslb_member_why(q, mb, &ev.depends);
        if (unverified && wsel__gslb_member_configured(q, mb)) /* available or not */
            ev.reason = WSEL_GSLB_WHY_FALLBACK_UNVERIFIED;
        elig[i] = ev.reason == WSEL_GSLB_WHY_AVAILABLE ||
                  ev.reason == WSEL_GSLB_WHY_FALLBACK_UNVERIFIED;
        ev.result = elig[i] ? WSEL_GSLB_R_ELIGIBLE : WSEL_GSLB_R_SKIPPED;
        wsel_gslb_reason skip = elig[i] ? method_skip(q, p, i, m, &ev.metric) : WSEL_GSLB_WHY_NONE;
        if (skip != WSEL_GSLB_WHY_NONE) {
            ev.result = WSEL_GSLB_R_SKIPPED;
            ev.reason = skip;
        }
        wsel__gslb_emit(q, &ev);
        if (elig[i] && m == WSEL_GSLB_TOPOLOGY && skip == WSEL_GSLB_WHY_NONE)
            wsel__gslb_topo_log(q, &ev);
    }
}

/* The picked member first, then the next distinct eligible members in the method's own
 * order up to max-answers-returned (doc/gslb.md §4.5; A-36). */
static void answer(wsel__gslb_query *q, const wsel__gslb_pick *pk, long pick,
                   const wsel__gslb_why *why, bool unverified, wsel_gslb_step chain_step)
{
    const wsel_gslb_pool *pl = &q->cfg->pools[pk->pool];
    wsel_gslb_outcome *o = q->out;
    out_pool(q, pk->pool, pk->step, pk->method, chain_step);
    o->kind = WSEL_GSLB_O_ANSWER;
    o->ttl = pl->ttl;
    for (size_t i = 0; i < pk->n_rank && o->n_addrs < pl->max_answers; i++)
        wsel__gslb_add_addr(o, &q->cfg->vs[pl->members[pk->rank[i]].vs].addr, pk->rank[i]);
    if (!why || !wsel__gslb_logging(q, WSEL_GSLB_LOG_MEMBER_SELECTION))
        return;
    wsel_gslb_event ev = member_event(q, WSEL_GSLB_EV_MEMBER_SELECTION, pk->pool, pk->step,
                                      pk->method);
    ev.member = pick;
    ev.addr = o->addrs[0];
    ev.n_answers = o->n_addrs;
    ev.reason = why->reason;
    ev.number = why->number;
    ev.cur = why->cur;
    ev.value = why->value;
    ev.metric = why->metric;
    ev.tie = why->tie;
    ev.unverified = unverified;
    wsel__gslb_emit(q, &ev);
}

/* A member-selecting step: true when it answered. */
static bool select_step(wsel__gslb_query *q, size_t p, int s, wsel_gslb_step chain_step)
{
    const wsel_gslb_pool *pl = &q->cfg->pools[p];
    wsel__gslb_pick pk; /* not zeroed as a whole: rank[] is written before it is read */
    pk.pool = p;
    pk.step = s;
    pk.method = pl->mode[s];
    pk.n_rank = 0;
    bool unverified = s == WSEL_GSLB_STEP_FALLBACK && !pl->verify;
    bool elig[WSEL__GSLB_NMAX];
    if (wsel__gslb_logging(q, WSEL_GSLB_LOG_MEMBER_TRAVERSAL)) {
        traverse_candidates(q, p, s, pk.method, unverified, elig);
        pk.elig = elig;
    } else {
        pk.elig = wsel__gslb_member_elig(q, p, unverified);
    }
    wsel__gslb_why why_buf = {.reason = WSEL_GSLB_WHY_NO_ELIGIBLE_MEMBER, .metric = -1};
    wsel__gslb_why *why =
        wsel__gslb_logging(q, WSEL_GSLB_LOG_MEMBER_SELECTION | WSEL_GSLB_LOG_MEMBER_TRAVERSAL)
            ? &why_buf
            : NULL;
    wsel__gslb_member_fn pick_fn = wsel__gslb_pick_table[pk.method].member;
    long pick = pl->n_members && pick_fn ? pick_fn(q, &pk, why) : -1;
    if (pick >= 0) {
        answer(q, &pk, pick, why, unverified, chain_step);
        return true;
    }
    if (wsel__gslb_logging(q, WSEL_GSLB_LOG_MEMBER_TRAVERSAL)) {
        wsel_gslb_event ev = member_event(q, WSEL_GSLB_EV_MEMBER_TRAVERSAL, p, s, pk.method);
        ev.result = WSEL_GSLB_R_FAILED_STEP;
        ev.reason = why_buf.reason;
        ev.metric = why_buf.metric;
        wsel__gslb_emit(q, &ev);
    }
    return false;
}

int wsel__gslb_run_pool(wsel__gslb_query *q, size_t p, wsel_gslb_step chain_step)
{
    const wsel_gslb_pool *pl = &q->cfg->pools[p];
    for (int s = 0; s < 3; s++) {
        wsel_gslb_method m = pl->mode[s];
        if (m == WSEL_GSLB_NONE) {
            if (s == WSEL_GSLB_STEP_ALTERNATE) {
                emit_step(q, p, s, m, WSEL_GSLB_WHY_SKIP_TO_FALLBACK);
                continue;
            }
            emit_step(q, p, s, m, WSEL_GSLB_WHY_NEXT_POOL);
            return WSEL__GSLB_POOL_NEXT;
        }
        if (wsel__gslb_methods[m].kind == WSEL_GSLB_KIND_TERMINAL) {
            terminal_step(q, p, s, m, chain_step);
            return WSEL__GSLB_POOL_TERMINAL;
        }
        if (select_step(q, p, s, chain_step))
            return WSEL__GSLB_POOL_TERMINAL;
    }
    emit_step(q, p, WSEL_GSLB_STEP_FALLBACK, pl->mode[2], WSEL_GSLB_WHY_FALLBACK_FAILED);
    return WSEL__GSLB_POOL_NEXT; /* */
}
