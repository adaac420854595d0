/* Running a ring scenario (include/wsel/ring.h, doc/ring.md section 11): the scenario's
 * in-memory resolver, and the runner that builds the ring on it, applies the ops and
 * reports every step to the caller. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../addr.h"
#include "ring_model.h"
#include "ring_scenario.h"

/* The resolver's table of one run: the scenario's answers by name, as its dns ops
 * replace them (the scenario itself is never changed), in an open-addressing table
 * keyed by the name's digest (cap a power of two, at most half full). */
typedef struct answer_table {
    const wsel__ring_answer **answer;
    size_t n, cap;
} answer_table;

/* One run: the scenario, the ring and engine it drives, the caller, the step reported. */
typedef struct scenario_run {
    const wsel_ring_scenario *sc;
    answer_table answers;
    wsel_ring *ring;
    wsel_ring_fast *fast;       /* WSEL_RING_ENGINE_FAST, else NULL */
    double now;
    wsel_ring_step_fn fn;
    void *ctx;
    wsel_ring_step step;        /* what the next report says */
    wsel_error why;             /* the ring's error for the op being applied */
} scenario_run;

/* ---- the resolver ---------------------------------------------------------------------- */

/* The table entry for name: its answer, or an empty entry where it goes. */
static const wsel__ring_answer **entry(const answer_table *t, const char *name)
{
    size_t m = t->cap - 1, i = wsel__ring_name_key(name) & m;
    uint64_t k = 0;
    while (t->answer[i] && ++k && strcmp(t->answer[i]->name, name) != 0)
        i = (i + 1) & m;
    wsel__ring_cost_add(WSEL__RING_EXAMINED, k);
    return &t->answer[i];
}

static const wsel__ring_answer *lookup(const answer_table *t, const char *name)
{
    return *entry(t, name);
}

/* Room for `need` names; false when out of memory (the table unchanged). */
static bool answer_room(answer_table *t, size_t need)
{
    if (t->cap && need <= t->cap / 2)
        return true;
    size_t cap = 16;
    while (cap / 2 < need)
        cap *= 2;
    answer_table b = {calloc(cap, sizeof *b.answer), t->n, cap};
    if (!b.answer)
        return false;
    for (size_t i = 0; i < t->cap; i++)
        if (t->answer[i])
            *entry(&b, t->answer[i]->name) = t->answer[i];
    free(t->answer);
    *t = b;
    return true;
}

/* Replaces what ans->name answers, or adds it. False when out of memory. */
static bool answer_set(answer_table *t, const wsel__ring_answer *ans)
{
    if (!answer_room(t, t->n + 1))
        return false;
    const wsel__ring_answer **e = entry(t, ans->name);
    t->n += !*e;
    *e = ans;
    return true;
}

/* A name answers SRV if it has SRV entries, else A, else AAAA; a name not in the table
 * fails as NXDOMAIN (doc/ring.md, decision 11). */
static int scenario_resolve(void *ctx, const char *name, wsel_ring_record *out)
{
    const wsel__ring_answer *d = lookup(ctx, name);
    memset(out, 0, sizeof *out);
    if (!d || d->fail) {
        out->failed = true;
        out->message = d ? d->fail : "nxdomain";
    } else if (d->nsrv) {
        out->type = WSEL_RING_SRV;
        out->entries = d->srv;
        out->n_entries = d->nsrv;
    } else if (d->na) {
        out->type = WSEL_RING_A;
        out->entries = d->a;
        out->n_entries = d->na;
    } else {
        out->type = WSEL_RING_AAAA;
        out->entries = d->aaaa;
        out->n_entries = d->naaaa;
    }
    return 0;
}

/* An IP literal is itself; a name gives its first A (else AAAA) entry, the port
 * unchanged. */
static int scenario_toip(void *ctx, const char *name, uint16_t port, bool cache_only, char *ip,
                         size_t iplen, uint16_t *port_out, char *msg, size_t msglen)
{
    (void)cache_only;
    uint8_t bin[16];
    if (wsel__addr_parse(name, strlen(name), false, bin)) {
        snprintf(ip, iplen, "%s", name);
        *port_out = port;
        return 0;
    }
    const wsel__ring_answer *d = lookup(ctx, name);
    const wsel_ring_entry *e = d && !d->fail ? (d->na ? d->a : d->naaaa ? d->aaaa : NULL) : NULL;
    if (!e) {
        snprintf(msg, msglen, "%s: %s", name, d && d->fail ? d->fail : "nxdomain");
        return 1;
    }
    snprintf(ip, iplen, "%s", e[0].address);
    *port_out = port;
    return 0;
}

/* ---- faults of the scenario ---------------------------------------------------------------- */

/* The ring refused to be built: the fault is the option it names ($.order, ...), or the
 * host it names ($.hosts[i]). */
static int build_refused(const scenario_run *run, const wsel_error *why, wsel_error *err)
{
    const wsel_ring_opts *o = &run->sc->opts;
    const char *host = why->key[0] ? why->key : why->object;
    wsel__jpath hosts = wsel__jkey(NULL, "hosts"), at = hosts;
    const wsel__jpath *where = NULL;
    if (host[0]) {
        where = &hosts;
        for (size_t i = 0; i < o->n_hosts; i++)
            if (strcmp(o->hosts[i].name, host) == 0) {
                at = wsel__jidx(&hosts, i);
                where = &at;
                break;
            }
    } else if (why->path[0]) {
        at = wsel__jkey(NULL, why->path);
        where = &at;
    }
    int code = why->code == WSEL_E_ARG ? WSEL_E_RANGE : why->code;
    return wsel__ring_scenario_fail(run->sc, where, code, why->message, err);
}

/* The ring refused op i: the fault is the op. */
static int op_refused(const scenario_run *run, size_t i, const wsel_error *why, wsel_error *err)
{
    wsel__jpath ops = wsel__jkey(NULL, "ops"), at = wsel__jidx(&ops, i);
    int code = why->code == WSEL_E_ARG ? WSEL_E_REFERENCE : why->code;
    return wsel__ring_scenario_fail(run->sc, &at, code, why->message, err);
}

static int nomem(wsel_error *why)
{
    return wsel__fail(why, WSEL_E_NOMEM, NULL, 0, 0, NULL, NULL, NULL, "ring: out of memory");
}

/* ---- steps ------------------------------------------------------------------------------------ */

/* Tells the caller: its answer (0: go on). */
static int report(scenario_run *run, wsel_ring_step_kind kind)
{
    run->step.kind = kind;
    run->step.ring = run->ring;
    run->step.now = run->now;
    return run->fn ? run->fn(run->ctx, &run->step) : 0;
}

static int pick_once(scenario_run *run, wsel_ring_handle *h, bool retry, wsel_ring_peer *peer)
{
    if (!run->fast)
        return (retry ? wsel_ring_retry : wsel_ring_pick)(run->ring, h, false, peer, &run->why);
    if (retry)
        h->retries++;
    return wsel_ring_fast_pick_refresh(run->fast, h, false, peer, &run->why);
}

/* The handle of pick k of a peers, rr or retry op, before any retry. */
static wsel_ring_handle first_handle(const wsel_ring_op *op, uint64_t k)
{
    wsel_ring_handle h = {WSEL_RING_RR, 0, 0, 0};
    if (op->kind == WSEL_RING_OP_RETRY) {
        h.mode = WSEL_RING_HASH;
        h.hash = op->hash;
    } else if (op->kind == WSEL_RING_OP_PEERS && op->hashes) {
        h.mode = WSEL_RING_HASH;
        h.hash = op->hashes[k];
    } else if (op->kind == WSEL_RING_OP_PEERS) {
        h.mode = WSEL_RING_FLOAT;
        h.u = op->floats[k];
    }
    return h;
}

/* The picks of a peers, rr or retry op, each reported as it is made. Returns the ring's
 * status; *stop gets the caller's answer when it stops the run. */
static int picks(scenario_run *run, const wsel_ring_op *op, int *stop)
{
    uint64_t n = op->kind == WSEL_RING_OP_PEERS ? op->n_keys
                 : op->kind == WSEL_RING_OP_RR  ? op->count
                                                 : op->count + 1;
    wsel_ring_handle h;
    wsel_ring_peer peer;
    int rc = WSEL_OK;
    for (uint64_t k = 0; k < n && rc == WSEL_OK && !*stop; k++) {
        bool retry = op->kind == WSEL_RING_OP_RETRY && k > 0;
        if (!retry)
            h = first_handle(op, k);
        if ((rc = pick_once(run, &h, retry, &peer)) != WSEL_OK)
            break;
        run->step.pick = k;
        run->step.handle = &h;
        run->step.peer = &peer;
        *stop = report(run, WSEL_RING_STEP_PICK);
    }
    run->step.handle = NULL;
    run->step.peer = NULL;
    return rc;
}

/* Applies op to the ring (picks: reported one by one); the ring's status. */
static int apply(scenario_run *run, const wsel__ring_scenario_op *sop, int *stop)
{
    const wsel_ring_op *op = &sop->pub;
    wsel_ring *r = run->ring;
    wsel_error *why = &run->why;
    switch (op->kind) {
    case WSEL_RING_OP_ADD:
        return wsel_ring_add_host(r, op->name, op->port, op->weight, why);
    case WSEL_RING_OP_REMOVE:
        return wsel_ring_remove_host(r, op->name, op->port, &run->step.found, why);
    case WSEL_RING_OP_STATUS:
        return wsel_ring_set_address_status(r, op->ip, op->port, op->hostname, op->available,
                                            why);
    case WSEL_RING_OP_HOSTSTATUS:
        return wsel_ring_set_host_status(r, op->name, op->port, op->available, why);
    case WSEL_RING_OP_DNS:
        if (!answer_set(&run->answers, &sop->answer))
            return nomem(why);
        return wsel_ring_refresh(r, op->name, why);
    case WSEL_RING_OP_ADVANCE:
        run->now += op->seconds;
        return wsel_ring_tick(r, run->now, why);
    case WSEL_RING_OP_PEERS:
    case WSEL_RING_OP_RR:
    case WSEL_RING_OP_RETRY:
        return picks(run, op, stop);
    case WSEL_RING_OP_SNAPSHOT:
        break;
    }
    return WSEL_OK;
}

/* Op i: BEGIN, the op (its picks), the fast engine's sync, END. */
static int run_op(scenario_run *run, size_t i, wsel_error *err)
{
    const wsel__ring_scenario_op *sop = &run->sc->ops[i];
    wsel_error_clear(&run->why);
    run->step.index = i;
    run->step.op = &sop->pub;
    run->step.status = WSEL_OK;
    run->step.error = NULL;
    run->step.found = false;
    int stop = report(run, WSEL_RING_STEP_BEGIN);
    if (stop)
        return stop;
    int rc = apply(run, sop, &stop);
    if (stop)
        return stop;
    if (rc == WSEL_OK && run->fast) {
        rc = wsel_ring_fast_sync(run->fast, &run->why);
        wsel_ring_fast_reclaim(run->fast); /* no reader but us: views come back at once */
    }
    run->step.status = rc;
    run->step.error = rc ? &run->why : NULL;
    if ((stop = report(run, WSEL_RING_STEP_END)))
        return stop;
    /* a status op naming no address is an error result, and the run goes on (5.2.3's
     * setAddressStatus returns nil and an error; section 11) */
    if (rc == WSEL_E_ARG && sop->pub.kind == WSEL_RING_OP_STATUS)
        return WSEL_OK;
    return rc ? op_refused(run, i, &run->why, err) : WSEL_OK;
}

/* Builds the ring (and its fast engine) on the run's resolver. */
static int build(scenario_run *run, const wsel_ring_run_opts *ro, wsel_error *err)
{
    const wsel_ring_scenario *sc = run->sc;
    if (ro->engine != WSEL_RING_ENGINE_REF && ro->engine != WSEL_RING_ENGINE_FAST)
        return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, NULL, NULL, NULL,
                          "ring: unknown engine %d", (int)ro->engine);
    if ((unsigned)ro->apportion > (unsigned)WSEL_RING_APPORTION_STRICT)
        return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, NULL, NULL, NULL,
                          "ring: unknown apportionment %d", (int)ro->apportion);
    if (!answer_room(&run->answers, sc->n_names))
        return nomem(err);
    for (size_t i = 0; i < sc->n_names; i++)
        answer_set(&run->answers, &sc->names[i]); /* room made above: cannot fail */
    wsel_ring_opts o = sc->opts;
    o.dns = (wsel_ring_dns){scenario_resolve, scenario_toip, &run->answers};
    if (ro->apportion != WSEL_RING_APPORTION_SCENARIO)
        o.strict = ro->apportion == WSEL_RING_APPORTION_STRICT;
    run->now = o.now;
    int rc = wsel_ring_new(&o, &run->ring, &run->why);
    if (rc != WSEL_OK)
        return build_refused(run, &run->why, err);
    if (ro->engine == WSEL_RING_ENGINE_FAST)
        rc = wsel_ring_fast_new(run->ring, &run->fast, err);
    return rc;
}

int wsel_ring_scenario_run(const wsel_ring_scenario *sc, const wsel_ring_run_opts *opts,
                           wsel_ring_step_fn fn, void *ctx, wsel_error *err)
{
    if (!sc)
        return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, NULL, NULL, NULL,
                          "ring: no scenario to run");
    static const wsel_ring_run_opts defaults = {WSEL_RING_ENGINE_REF, WSEL_RING_APPORTION_SCENARIO};
    scenario_run run = {.sc = sc, .fn = fn, .ctx = ctx};
    int rc = build(&run, opts ? opts : &defaults, err);
    if (rc == WSEL_OK)
        rc = report(&run, WSEL_RING_STEP_BUILT);
    for (size_t i = 0; i < sc->n_ops && rc == WSEL_OK; i++)
        rc = run_op(&run, i, err);
    if (rc == WSEL_OK) {
        run.step = (wsel_ring_step){0};
        rc = report(&run, WSEL_RING_STEP_DONE);
    }
    wsel_ring_fast_free(run.fast);
    wsel_ring_free(run.ring);
    free(run.answers.answer);
    return rc;
}
