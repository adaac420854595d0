/* GSLB engine (doc/gslb.md §4): what its files share. The state and its caches, one
 * query's context, the methods' pick functions (reached through the internal method
 * table wsel__gslb_pick_table), the ranking helpers and the decision log's events.
 *
 *   gslb_avail.c     §4.1 availability and each pool's eligible members
 *   gslb_decide.c    §4.2 the wide-IP level (steps 1-6), persistence, wsel_gslb_resolve
 *   gslb_chain.c     §4.3-4.5 a pool's chain: steps, candidates, answer
 *   gslb_select.c    §2 the static methods, the method table, round robin and ratio
 *   gslb_dynamic.c   §2 the dynamic methods (metrics, QoS, dynamic ratio)
 *   gslb_topology.c  §2 topology scoring at both levels
 *   gslb_wideip.c    §4.2 step 3: the wide IP's pool order
 *   gslb_log.c       §7 events: building, emitting, the text line
 *   gslb_state.c     the state: new, free, JSON
 * Not installed. */
#ifndef WSEL_REF_GSLB_ENGINE_H
#define WSEL_REF_GSLB_ENGINE_H

#include "../../core/gslb/gslb_internal.h"

#define WSEL__GSLB_NMAX WSEL_GSLB_MAX_MEMBERS

/* ---- the state: method state, persistence table and the caches ---- */

/* Static persist: a pool's rendezvous order for the last masked LDNS. It depends
 * on the config and the key only, so a repeated key skips the hashing. */
typedef struct wsel__gslb_spcache {
    bool valid;
    wsel_gslb_addr ldns;                  /* the unmasked LDNS key was worked out from */
    wsel_gslb_addr key;
    long *order;                          /* n_members entries */
} wsel__gslb_spcache;

/* Topology prepared once per config (doc/gslb.md §10): each candidate's score is the
 * first record, in evaluation order, whose LDNS side matches the query's source and whose
 * server side matches the candidate. The server side reads the config alone unless
 * it names a geo attribute (of the VS address, from the inputs) or a region holding one:
 * so each candidate gets the list of records whose server side matches it or must be
 * tested at query time ("live"), and a query tests only those. The LDNS side is the same
 * for every candidate of a query: each record's is worked out at most once per query. */
typedef struct wsel__gslb_topo_prep {
    bool on;               /* lists made (off: no records, or over WSEL__GSLB_TOPO_PREP_MAX) */
    size_t *pool_first;    /* n_pools + 1: pool p at the wide-IP level reads
                            * list[pool_first[p] .. pool_first[p + 1]) */
    size_t *member_first;  /* (members, numbered as elig_off) + 1: the same per member */
    uint32_t *list;        /* record index << 1 | 1 when its server side is live */
    uint8_t *region_live;  /* per region: its match on a VS reads the inputs (geo) */
    uint64_t query;        /* the query's number (bumped by each resolve) */
    uint64_t *ldns_query;  /* per record: the query ldns_ok[] was worked out for */
    bool *ldns_ok;         /* per record: its LDNS side matches that query's source */
    /* each candidate's score, a function of config and inputs (the LDNS, ECS and geo are
     * inputs) and of which source the wide IP scores: kept while the key (state epoch << 1
     * | ECS used) is the same, like the availability caches */
    uint64_t *pool_key, *member_key;
    unsigned *pool_score, *member_score;
} wsel__gslb_topo_prep;

/* At most this many list entries (4 bytes each) are prepared; a larger product of
 * candidates and matching records tests every record's server side at query time. */
#define WSEL__GSLB_TOPO_PREP_MAX (1u << 22)

struct wsel_gslb_state {
    const wsel_gslb_config *cfg;
    wsel__gslb_stepst *wideip_st;
    wsel__gslb_stepst *pool_st;           /* cfg->n_pools * 3: per (pool, step), A-30 */
    size_t n_prec, cap_prec;
    wsel__gslb_prec *prec;
    size_t n_random, random_pos;
    uint64_t *random;
    /* availability, a function of config and inputs only: kept while the same inputs
     * (same generation) are resolved again (sized once: a resolve allocates nothing) */
    const wsel_gslb_inputs *mark_in;
    uint64_t mark_gen;
    uint64_t epoch;                       /* bumped with each new (mark_in, mark_gen) */
    uint8_t *vs_mark;                     /* availability DFS: 0 new, 1 visiting, 2 ok, 3 down */
    int8_t *vs_dep;                       /* a VS marked 3 through its depends-on: the failed
                                             entry's index, -1 when it closed a cycle */
    uint8_t *pool_mark;                   /* 0 unknown, 2 available, 3 not */
    /* each pool's member eligibility: elig[elig_off[p] * 2 + i] available,
     * [... + n + i] configured (a fallback with verify off); elig_mark[p] bit 1, bit 2 */
    bool *elig;
    size_t *elig_off;
    uint8_t *elig_mark;
    /* each wide IP's available pools (doc/gslb.md §4.2 step 3): w_avail[w * MAX_POOLS ...] list
     * positions in order, w_ok[w * MAX_POOLS + i] by position; w_mark[w] 1 = known */
    uint8_t *w_avail, *w_n_avail, *w_mark;
    bool *w_ok;
    wsel__gslb_spcache *sp;               /* per pool */
    /* region membership (A-39): region_order lists the regions inner first (made once for
     * the config); region_in[0..n) holds each region's match for the query's source,
     * worked out once per query (region_src_ok), region_in[n..2n) for one candidate,
     * once per topology score. region_evals counts region entries evaluated (tests). */
    size_t *region_order;
    uint8_t *region_in;
    bool region_src_ok;
    bool region_cand_ok;                  /* region_in[n..2n) made for the candidate scored */
    uint64_t region_evals;
    wsel__gslb_topo_prep topo;
};

/* Makes st->topo for cfg (st's region_order and elig_off made already); false when out of
 * memory. Frees it. */
bool wsel__gslb_topo_prepare(wsel_gslb_state *st, const wsel_gslb_config *cfg);
void wsel__gslb_topo_prep_free(wsel__gslb_topo_prep *tp);

/* Region entries evaluated so far by resolves with st (A-39; for tests). */
uint64_t wsel__gslb_region_evals(const wsel_gslb_state *st);

/* ---- one query ---- */

/* What one wsel_gslb_resolve reads (config, inputs), changes (state, outcome) and where
 * it reports (log sink, error record). */
typedef struct wsel__gslb_query {
    const wsel_gslb_config *cfg;
    const wsel_gslb_inputs *in;
    wsel_gslb_state *st;
    const wsel_gslb_log *log;
    wsel_gslb_outcome *out;
    size_t wideip;
    wsel_error *err;
} wsel__gslb_query;

/* ---- the decision log (gslb_log.c) ---- */

/* True when the sink wants events of `flag` (WSEL_GSLB_LOG_*). The result event goes to
 * any sink. */
static inline bool wsel__gslb_logging(const wsel__gslb_query *q, unsigned flag)
{
    return q->log && q->log->fn && ((q->log->flags & flag) || flag == WSEL_GSLB_LOG_RESULT);
}

/* A blank event of `kind` about the query's wide IP (every other index -1, the rest 0). */
wsel_gslb_event wsel__gslb_event(const wsel__gslb_query *q, wsel_gslb_event_kind kind);
/* Hands ev to the sink when it wants its kind. */
void wsel__gslb_emit(const wsel__gslb_query *q, const wsel_gslb_event *ev);

/* Why a method picked what it did, or failed: the reason and its numbers, copied into
 * the member-selection or pool-selection event. A method fills it only when given one
 * (a sink wants the reason); NULL keeps the fast path. */
typedef struct wsel__gslb_why {
    wsel_gslb_reason reason;
    unsigned long long number;
    long long cur;
    double value;
    int metric;
    bool tie;
} wsel__gslb_why;

/* ---- availability (gslb_avail.c, doc/gslb.md §4.1) ---- */

/* Virtual server v available (its server, itself, up, no limit, every depends-on target;
 * a cycle makes every VS on it unavailable), worked out once per inputs generation into
 * the state's vs_mark. *why_dep (may be NULL): for a VS unavailable through its depends-on,
 * the failed entry (the first whose target is unresolved or unavailable), or -1 when the
 * entry names a VS still being decided: the entry that closes a cycle. Kept in vs_dep, so
 * a later look-up (a member's log line after the pool's availability) gets the same. */
bool wsel__gslb_vs_ok(wsel__gslb_query *q, size_t v, long *why_dep);

/* Configured: server, VS and member enabled; what a fallback with verify off honours. */
static inline bool wsel__gslb_member_configured(const wsel__gslb_query *q,
                                                const wsel_gslb_member *m)
{
    if (m->vs < 0 || m->wrong_family) /* not of its pool's type, never a candidate */
        return false;
    const wsel_gslb_vs *vs = &q->cfg->vs[m->vs];
    return m->enabled && vs->enabled && q->cfg->servers[vs->server].enabled;
}

static inline bool wsel__gslb_member_available(wsel__gslb_query *q, const wsel_gslb_member *m)
{
    if (m->vs < 0 || !m->enabled || m->wrong_family) /* */
        return false;
    uint8_t mk = q->st->vs_mark[m->vs];
    if (mk >= 2) /* this query already decided its VS */
        return mk == 2;
    return wsel__gslb_vs_ok(q, (size_t)m->vs, NULL);
}
/* Why member m is not available (WSEL_GSLB_WHY_AVAILABLE when it is); *dep gets the
 * index of the failed depends-on entry (-1: a cycle) for WSEL_GSLB_WHY_DEPENDENCY. */
wsel_gslb_reason wsel__gslb_member_why(wsel__gslb_query *q, const wsel_gslb_member *m,
                                       long *dep);
/* Pool p's availability; with ev (a sink wants the reason) its reason and counts. */
bool wsel__gslb_pool_available(wsel__gslb_query *q, size_t p, wsel_gslb_event *ev);
/* Pool p's eligible members without reasons (kept per inputs generation): available, or
 * only configured (`unverified`: a fallback with verify off, A-29/A-21). */
static inline const bool *wsel__gslb_member_elig(wsel__gslb_query *q, size_t p, bool unverified)
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

/* ---- the member-level methods (gslb_select.c, gslb_dynamic.c, gslb_topology.c) ---- */

/* One member pick: pool p's step s with method m over the eligible members elig[]; the
 * method writes its own order of the eligible members into rank[] (the pick first,
 * A-36) for filling max-answers-returned. */
typedef struct wsel__gslb_pick {
    size_t pool;
    int step;
    wsel_gslb_method method;
    const bool *elig;
    long rank[WSEL__GSLB_NMAX];
    size_t n_rank;
} wsel__gslb_pick;

/* The method state of the pick's (pool, step). */
static inline wsel__gslb_stepst *wsel__gslb_pick_state(const wsel__gslb_query *q,
                                                      const wsel__gslb_pick *pk)
{
    return &q->st->pool_st[pk->pool * 3 + (size_t)pk->step];
}


/* A member-selecting method: the picked member index, or -1 (the step fails). */
typedef long (*wsel__gslb_member_fn)(wsel__gslb_query *q, wsel__gslb_pick *pk,
                                     wsel__gslb_why *why);

/* The wide IP's available pools (doc/gslb.md §4.2 step 3) and the order they run in:
 * queue[] = the first pick, then the rest (indexes into the wide IP's pools); `more`
 * when the queue holds the first pick only and wsel__gslb_wideip_rest appends the rest. */
typedef struct wsel__gslb_pool_queue {
    const uint8_t *avail;   /* list positions of the available pools, in order */
    const bool *ok;         /* ok[i]: the pool at list position i is available */
    size_t n_avail;
    size_t queue[WSEL_GSLB_MAX_POOLS];
    size_t n_queue;
    bool more;
} wsel__gslb_pool_queue;

/* A wide-IP method: the list position of the first pool, or -1 (the method fails;
 * topology fills the whole queue itself). Nonzero return value only for an error of the
 * call (q->err filled): pool-lb-mode random with no random word left. */
typedef int (*wsel__gslb_wideip_fn)(wsel__gslb_query *q, wsel__gslb_pool_queue *pq,
                                    long *first, wsel__gslb_why *why);

/* The engine's side of the method table (doc/gslb.md §2), indexed by wsel_gslb_method
 * like wsel__gslb_methods: how each method picks a member at a pool step, and a pool at
 * the wide-IP level; NULL where it does not pick (terminal and routing methods; methods
 * not allowed at that level). */
typedef struct wsel__gslb_pick_fns {
    wsel__gslb_member_fn member;
    wsel__gslb_wideip_fn wideip;
} wsel__gslb_pick_fns;

extern const wsel__gslb_pick_fns wsel__gslb_pick_table[WSEL_GSLB_METHOD_COUNT_];

long wsel__gslb_pick_metric(wsel__gslb_query *q, wsel__gslb_pick *pk, wsel__gslb_why *why);
long wsel__gslb_pick_qos(wsel__gslb_query *q, wsel__gslb_pick *pk, wsel__gslb_why *why);
long wsel__gslb_pick_topology(wsel__gslb_query *q, wsel__gslb_pick *pk, wsel__gslb_why *why);
int wsel__gslb_wideip_rr(wsel__gslb_query *q, wsel__gslb_pool_queue *pq, long *first,
                         wsel__gslb_why *why);
int wsel__gslb_wideip_ratio(wsel__gslb_query *q, wsel__gslb_pool_queue *pq, long *first,
                            wsel__gslb_why *why);
int wsel__gslb_wideip_ga(wsel__gslb_query *q, wsel__gslb_pool_queue *pq, long *first,
                         wsel__gslb_why *why);
int wsel__gslb_wideip_random(wsel__gslb_query *q, wsel__gslb_pool_queue *pq, long *first,
                             wsel__gslb_why *why);
int wsel__gslb_wideip_topology(wsel__gslb_query *q, wsel__gslb_pool_queue *pq, long *first,
                               wsel__gslb_why *why);

/* Wide-IP pool order (gslb_wideip.c, A-23): fills pq->queue with the first pool (every
 * pool for topology); n_queue 0 when the method fails. Nonzero only for an error of the
 * call (q->err filled). */
int wsel__gslb_wideip_order(wsel__gslb_query *q, wsel__gslb_pool_queue *pq,
                            wsel__gslb_why *why);
void wsel__gslb_wideip_rest(wsel__gslb_query *q, wsel__gslb_pool_queue *pq);

/* ---- shared by the methods (gslb_select.c) ---- */

/* Scans cursor+1 ... modulo n; the first index with ok[] wins and becomes the cursor. */
static inline long wsel__gslb_rr_pick(long *cursor, const bool *ok, size_t n)
{
    size_t i = *cursor >= 0 && (size_t)*cursor < n ? (size_t)*cursor : n - 1;
    for (size_t k = 0; k < n; k++) {
        i = i + 1 == n ? 0 : i + 1;
        if (ok[i]) {
            *cursor = (long)i;
            return (long)i;
        }
    }
    return -1;
}
/* Smooth weighted round robin over w[0..n) (0 = not in E; A-32), counters reset when E
 * or a weight changed; records the state's epoch. -1 when every weight is 0. */
long wsel__gslb_wrr_pick(wsel__gslb_wrr *st, const uint64_t *w, size_t n, uint64_t epoch);
/* True when wsel__gslb_wrr_repeat may stand for wsel__gslb_wrr_pick: a pick happened
 * under this epoch, so E and the weights are those of that pick. */
static inline bool wsel__gslb_wrr_current(const wsel__gslb_wrr *st, uint64_t epoch)
{
    return st->used && st->epoch == epoch;
}

/* wsel__gslb_wrr_pick with the weights of the previous pick (wsel__gslb_wrr_current). */
static inline long wsel__gslb_wrr_repeat(wsel__gslb_wrr *st, size_t n)
{
    uint64_t total = 0;
    long best = -1;
    for (size_t i = 0; i < n; i++) {
        if (!st->w[i])
            continue;
        total += st->w[i];
        st->cur[i] += st->w[i];
        if (best < 0 || st->cur[i] > st->cur[best])
            best = (long)i;
    }
    st->cur[best] -= (int64_t)total;
    return best;
}
/* rank[] = the ok[] indexes in cyclic list order from `pick`. */
static inline void wsel__gslb_rank_cyclic(long pick, const bool *ok, size_t n, long *rank,
                                          size_t *n_rank)
{
    *n_rank = 0;
    for (size_t k = 0, i = (size_t)pick; k < n; k++, i = i + 1 == n ? 0 : i + 1)
        if (ok[i])
            rank[(*n_rank)++] = (long)i;
}

/* Smooth WRR over the pool's members at the pick's (pool, step) with weights w[] (0: not
 * in the set): the pick, rank[] = in_set[] cyclic from it; -1 (why->reason = fail) when
 * every weight is 0. */
long wsel__gslb_pick_weighted(wsel__gslb_query *q, wsel__gslb_pick *pk, const uint64_t *w,
                              const bool *in_set, wsel__gslb_why *why, wsel_gslb_reason fail);

/* wsel__gslb_pick_weighted again with the weights of the (pool, step)'s previous pick,
 * which must be current (wsel__gslb_wrr_current): the same pick and rank[], without the
 * weights being worked out again. Only without a sink (it gives no reason). */
long wsel__gslb_pick_repeat(wsel__gslb_query *q, wsel__gslb_pick *pk);

/* A candidate and its value, oriented so that larger is better. */
typedef struct wsel__gslb_scored {
    double v;
    long i;
} wsel__gslb_scored;

/* The best of sc[0..n_sc) (sorted in place), ties to the round-robin cursor over n;
 * rank[] = the pick, then the rest by value. *tie (may be NULL) says whether it was one.
 * -1 when n_sc is 0. */
long wsel__gslb_best_pick(long *cursor, wsel__gslb_scored *sc, size_t n_sc, size_t n,
                          long *rank, size_t *n_rank, bool *tie);

/* ---- topology (gslb_topology.c) ---- */

/* The score of pool p at the wide-IP level, of member m of pool p at the member level:
 * the first record (evaluation order, A-35) matching the LDNS (or ECS) and the candidate;
 * 0 when none does. */
unsigned wsel__gslb_topo_pool(const wsel__gslb_query *q, size_t p);
unsigned wsel__gslb_topo_member(const wsel__gslb_query *q, size_t p, size_t i);
/* The log (doc/gslb.md §7): every record matching the candidate, in evaluation order, as
 * RECORD events; `ev` is the candidate's event (kind, pool, step, member...) to fill. */
void wsel__gslb_topo_log(const wsel__gslb_query *q, wsel_gslb_event *ev);

/* ---- the log's candidates (doc/gslb.md §7) ---- */

/* The first metric the QoS step of pool p needs that member i lacks, or -1. */
int wsel__gslb_qos_missing(const wsel__gslb_query *q, size_t p, size_t i);

/* ---- a pool's chain (gslb_chain.c, doc/gslb.md §4.3) ---- */

enum { WSEL__GSLB_POOL_TERMINAL, WSEL__GSLB_POOL_NEXT };

/* Runs pool p's chain preferred -> alternate -> fallback: POOL_TERMINAL when a step ended
 * the decision (the outcome filled), POOL_NEXT when the query passes to the next pool.
 * chain_step LAST_RESORT marks the last-resort pool's outcome. */
int wsel__gslb_run_pool(wsel__gslb_query *q, size_t p, wsel_gslb_step chain_step);

/* The outcome reset to "nothing decided" for the query's wide IP. */
static inline void wsel__gslb_out_reset(wsel__gslb_query *q)
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

/* An address appended unless it is there already or the outcome is full (false then). */
static inline bool wsel__gslb_add_addr(wsel_gslb_outcome *o, const wsel_gslb_addr *a,
                                       long member)
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

#endif
