/* fuzz_ring_scenario: the ring's scenario reader and runner (core/ring/ring_scenario.c,
 * core/ring/ring_scenario_run.c; include/wsel/ring.h; the JSON format of man/wsel.1
 * RING SCENARIO).
 *
 * Property: on any bytes wsel_ring_scenario_load_buffer accepts the scenario or refuses
 * it with a code of the kinds a bad text can have (syntax, type, range, limit,
 * duplicate) and a message, and never crashes, hangs or leaks; loading the same bytes
 * twice gives the same outcome and the same scenario. An accepted scenario is within
 * the documented ranges (wheel size, order length, rrStart, threshold, ports, weights,
 * key ranges, op kinds, DNS answers). wsel_ring_scenario_run then either runs it to the
 * end or stops at a refusal located in the scenario (a code and a "$..." message); its
 * steps come in the documented order (BUILT; per op BEGIN, PICK..., END; DONE), the
 * ring keeps its invariants (wsel_ring_check) at every step but a pick's, every pick
 * is a peer or an outcome with a message, and the fast engine's run reports the same
 * picks, op results and refusal as the reference's.
 *
 * Picks are bounded (MAX_PICKS per op: the target trims the ops' counts through the
 * library's internal header) and wheels above MAX_RUN_SLOTS are only read. */
#include <math.h>

#include "fuzz.h"
#include "wsel.h"
#include "../core/ring/ring_scenario.h"

#define MAX_RUN_SLOTS 4096u /* larger wheels are only read, not run */
#define MAX_PICKS 64u       /* picks per op */
#define MAX_LOG 65536u      /* results kept per run for the engines' comparison */

static void check_entries(const wsel_ring_entry *e, size_t n, bool srv)
{
    for (size_t i = 0; i < n; i++) {
        FUZZ_ASSERT(e[i].address && e[i].address[0] && strlen(e[i].address) <= 253);
        if (srv)
            FUZZ_ASSERT(e[i].port <= 65535 && e[i].weight <= 65535 && e[i].priority <= 65535);
    }
}

static void check_answer(const wsel__ring_answer *d)
{
    FUZZ_ASSERT(d->name && d->name[0]);
    if (d->fail) {
        FUZZ_ASSERT_MSG(!strcmp(d->fail, "nxdomain") || !strcmp(d->fail, "servfail") ||
                            !strcmp(d->fail, "timeout"), "fail kind '%s'", d->fail);
        FUZZ_ASSERT(!d->na && !d->naaaa && !d->nsrv);
    }
    check_entries(d->a, d->na, false);
    check_entries(d->aaaa, d->naaaa, false);
    check_entries(d->srv, d->nsrv, true);
}

static uint64_t wheel_size(const wsel_ring_opts *o)
{
    return o->wheel_size >= 0 ? (uint64_t)o->wheel_size
           : o->order          ? o->order_len
                               : WSEL_RING_DEFAULT_SIZE;
}

static void check_opts(const wsel_ring_opts *o)
{
    FUZZ_ASSERT_MSG(o->wheel_size < 0 || (o->wheel_size >= 1 && o->wheel_size <= WSEL_RING_MAX_SLOTS),
                    "wheelSize %lld", (long long)o->wheel_size);
    if (o->order) {
        FUZZ_ASSERT(o->order_len >= 1 && o->order_len <= WSEL_RING_MAX_SLOTS);
        FUZZ_ASSERT(o->wheel_size < 0 || (size_t)o->wheel_size == o->order_len);
    }
    FUZZ_ASSERT_MSG(o->rr_start >= 1 && (uint64_t)o->rr_start <= wheel_size(o),
                    "rrStart %lld of %llu", (long long)o->rr_start,
                    (unsigned long long)wheel_size(o));
    FUZZ_ASSERT(o->health_threshold >= 0 && o->health_threshold <= 100);
    FUZZ_ASSERT(o->requery > 0 && o->ttl0 > 0 && !o->dns.resolve);
    for (size_t i = 0; i < o->n_hosts; i++) {
        const wsel_ring_host_spec *h = &o->hosts[i];
        FUZZ_ASSERT(h->name && h->name[0]);
        FUZZ_ASSERT(h->port == -1 || (h->port >= 1 && h->port <= 65535));
        FUZZ_ASSERT(h->weight == -1 || (h->weight >= 1 && h->weight <= WSEL_RING_MAX_WEIGHT));
    }
}

static void check_op(const wsel__ring_scenario_op *sop, size_t i)
{
    const wsel_ring_op *op = &sop->pub;
    char path[32];
    snprintf(path, sizeof path, "$.ops[%zu]", i);
    FUZZ_ASSERT_MSG(op->kind <= WSEL_RING_OP_RETRY, "op %zu kind %d", i, (int)op->kind);
    FUZZ_ASSERT(strcmp(op->path, path) == 0);
    FUZZ_ASSERT(strcmp(wsel_ring_op_kind_name(op->kind), "unknown") != 0);
    switch (op->kind) {
    case WSEL_RING_OP_ADD:
        FUZZ_ASSERT(op->weight >= 1 && op->weight <= WSEL_RING_MAX_WEIGHT);
        /* fall through */
    case WSEL_RING_OP_REMOVE:
    case WSEL_RING_OP_HOSTSTATUS:
        FUZZ_ASSERT(op->name && op->name[0] && op->port >= 1 && op->port <= 65535);
        break;
    case WSEL_RING_OP_STATUS:
        FUZZ_ASSERT(op->ip && op->ip[0] && op->port >= 1 && op->port <= 65535);
        break;
    case WSEL_RING_OP_DNS:
        FUZZ_ASSERT(op->name && strcmp(op->name, sop->answer.name) == 0);
        check_answer(&sop->answer);
        break;
    case WSEL_RING_OP_ADVANCE:
        FUZZ_ASSERT(op->seconds >= 0 && op->seconds <= 1e9);
        break;
    case WSEL_RING_OP_PEERS:
        FUZZ_ASSERT(!op->hashes != !op->floats);
        for (size_t k = 0; k < op->n_keys; k++)
            FUZZ_ASSERT(op->hashes ? op->hashes[k] <= 9007199254740992ull
                                   : op->floats[k] >= 0 && op->floats[k] < 1);
        break;
    case WSEL_RING_OP_RR:
    case WSEL_RING_OP_RETRY:
        FUZZ_ASSERT(op->count <= 10000000 && op->hash <= 9007199254740992ull);
        break;
    case WSEL_RING_OP_SNAPSHOT:
        break;
    }
}

/* Everything the reader promises about an accepted scenario. */
static void check_scenario(const wsel_ring_scenario *sc)
{
    check_opts(wsel_ring_scenario_opts(sc));
    for (size_t i = 0; i < sc->n_names; i++)
        check_answer(&sc->names[i]);
    FUZZ_ASSERT(wsel_ring_scenario_op_count(sc) == sc->n_ops);
    FUZZ_ASSERT(wsel_ring_scenario_op(sc, sc->n_ops) == NULL);
    for (size_t i = 0; i < sc->n_ops; i++) {
        FUZZ_ASSERT(wsel_ring_scenario_op(sc, i) == &sc->ops[i].pub);
        check_op(&sc->ops[i], i);
    }
}

static void same_scenario(const wsel_ring_scenario *a, const wsel_ring_scenario *b)
{
    FUZZ_ASSERT(a->n_ops == b->n_ops && a->n_names == b->n_names);
    FUZZ_ASSERT(a->opts.wheel_size == b->opts.wheel_size && a->opts.n_hosts == b->opts.n_hosts);
    FUZZ_ASSERT(a->opts.order_len == b->opts.order_len && a->opts.rr_start == b->opts.rr_start);
    for (size_t i = 0; i < a->n_ops; i++) {
        const wsel_ring_op *x = &a->ops[i].pub, *y = &b->ops[i].pub;
        FUZZ_ASSERT(x->kind == y->kind && x->port == y->port && x->weight == y->weight);
        FUZZ_ASSERT(x->n_keys == y->n_keys && x->count == y->count && x->hash == y->hash);
    }
}

/* A refusal: a code of a kind bad input can have, and a message. */
static void refused(int rc, const wsel_error *err, const char *what)
{
    wsel_error_kind k = wsel_error_kind_of(rc);
    FUZZ_ASSERT_MSG(k == WSEL_ERROR_SYNTAX || k == WSEL_ERROR_TYPE || k == WSEL_ERROR_RANGE ||
                        k == WSEL_ERROR_LIMIT || k == WSEL_ERROR_DUPLICATE ||
                        k == WSEL_ERROR_REFERENCE,
                    "%s: status %d (%s)", what, rc, wsel_strerror(rc));
    FUZZ_ASSERT_MSG(err->message[0], "%s: status %d without a message", what, rc);
}

/* ---- running ---------------------------------------------------------------------------- */

/* What one run reported, for the comparison of the engines. */
typedef struct run_log {
    wsel_ring_step_kind last;
    bool stopped;               /* an op was refused: no step may follow its END */
    bool miss;                  /* the last END was a status op naming no address */
    size_t op;                  /* the op being applied */
    uint64_t picks;             /* of that op so far */
    struct {
        int outcome, status;
        uint32_t slot;
        uint16_t port;
        char ip[64];
    } item[MAX_LOG];
    size_t n;
} run_log;

static void log_item(run_log *lg, int outcome, int status, const wsel_ring_peer *p)
{
    if (lg->n == MAX_LOG)
        return;
    memset(&lg->item[lg->n], 0, sizeof lg->item[lg->n]);
    lg->item[lg->n].outcome = outcome;
    lg->item[lg->n].status = status;
    if (p) {
        lg->item[lg->n].slot = p->slot;
        lg->item[lg->n].port = p->port;
        snprintf(lg->item[lg->n].ip, sizeof lg->item[lg->n].ip, "%s", p->ip);
    }
    lg->n++;
}

static void ring_ok(const wsel_ring *r, const char *what)
{
    wsel_error err;
    FUZZ_ASSERT_MSG(wsel_ring_check(r, &err) == WSEL_OK, "at %s: %s", what, err.message);
}

static void check_pick(const wsel_ring_step *st)
{
    const wsel_ring_peer *p = st->peer;
    FUZZ_ASSERT(st->handle && p && st->op);
    if (p->outcome == WSEL_RING_PEER)
        FUZZ_ASSERT(p->slot >= 1 && p->slot <= wsel_ring_size(st->ring) && p->ip[0]);
    else
        FUZZ_ASSERT_MSG(p->message[0], "outcome %s without a message",
                        wsel_ring_outcome_name(p->outcome));
}

/* The steps' order: BUILT; per op BEGIN, PICK..., END; DONE. */
static void check_order(run_log *lg, const wsel_ring_step *st)
{
    switch (st->kind) {
    case WSEL_RING_STEP_BUILT:
        FUZZ_ASSERT(lg->last == (wsel_ring_step_kind)-1 && !st->op);
        break;
    case WSEL_RING_STEP_BEGIN:
        FUZZ_ASSERT(lg->last == WSEL_RING_STEP_BUILT || lg->last == WSEL_RING_STEP_END);
        FUZZ_ASSERT_MSG(!lg->stopped, "a step after a refused op");
        lg->miss = false;
        FUZZ_ASSERT(st->op && (lg->last == WSEL_RING_STEP_BUILT ? st->index == 0
                                                                : st->index == lg->op + 1));
        lg->op = st->index;
        lg->picks = 0;
        break;
    case WSEL_RING_STEP_PICK:
        FUZZ_ASSERT(lg->last == WSEL_RING_STEP_BEGIN || lg->last == WSEL_RING_STEP_PICK);
        FUZZ_ASSERT(st->index == lg->op && st->pick == lg->picks++);
        break;
    case WSEL_RING_STEP_END:
        FUZZ_ASSERT(lg->last == WSEL_RING_STEP_BEGIN || lg->last == WSEL_RING_STEP_PICK);
        FUZZ_ASSERT(st->index == lg->op && (st->status == WSEL_OK) == (st->error == NULL));
        /* a status op naming no address is an error result and the run goes on (5.2.3);
         * any other refusal stops the run */
        lg->miss = st->status != WSEL_OK && st->op->kind == WSEL_RING_OP_STATUS;
        FUZZ_ASSERT(!lg->miss || st->status == WSEL_E_ARG);
        lg->stopped = st->status != WSEL_OK && !lg->miss;
        break;
    case WSEL_RING_STEP_DONE:
        FUZZ_ASSERT(lg->last == WSEL_RING_STEP_BUILT || lg->last == WSEL_RING_STEP_END);
        FUZZ_ASSERT_MSG(!lg->stopped, "a step after a refused op");
        lg->miss = false;
        break;
    }
    lg->last = st->kind;
}

static int on_step(void *ctx, const wsel_ring_step *st)
{
    run_log *lg = ctx;
    check_order(lg, st);
    FUZZ_ASSERT(st->ring && isfinite(st->now));
    if (st->kind == WSEL_RING_STEP_PICK) {
        check_pick(st);
        log_item(lg, st->peer->outcome, 0, st->peer);
        return 0;
    }
    if (st->kind == WSEL_RING_STEP_END && st->status != WSEL_OK)
        FUZZ_ASSERT(st->error->message[0]);
    if (st->kind == WSEL_RING_STEP_END)
        log_item(lg, -1, st->status, NULL);
    ring_ok(st->ring, st->op ? st->op->path : "the ring as built");
    return 0;
}

/* One run; the run's status. */
static int run(const wsel_ring_scenario *sc, wsel_ring_engine engine, run_log *lg)
{
    wsel_ring_run_opts ro = {engine, WSEL_RING_APPORTION_SCENARIO};
    wsel_error err;
    wsel_error_clear(&err);
    memset(lg, 0, sizeof *lg);
    lg->last = (wsel_ring_step_kind)-1;
    int rc = wsel_ring_scenario_run(sc, &ro, on_step, lg, &err);
    if (rc != WSEL_OK) {
        FUZZ_ASSERT_MSG(!lg->miss, "the run stopped at a status op naming no address");
        refused(rc, &err, "run");
        FUZZ_ASSERT_MSG(err.message[0] == '$' && err.file[0], "run: '%s'", err.message);
    } else {
        FUZZ_ASSERT(lg->last == WSEL_RING_STEP_DONE);
    }
    return rc;
}

static void run_both(wsel_ring_scenario *sc)
{
    for (size_t i = 0; i < sc->n_ops; i++) {
        wsel_ring_op *op = &sc->ops[i].pub;
        if (op->n_keys > MAX_PICKS)
            op->n_keys = MAX_PICKS;
        if (op->count > MAX_PICKS)
            op->count = MAX_PICKS;
    }
    static run_log ref, fast;
    int rr = run(sc, WSEL_RING_ENGINE_REF, &ref);
    int rf = run(sc, WSEL_RING_ENGINE_FAST, &fast);
    FUZZ_ASSERT_MSG(rr == rf, "ref run %d, fast run %d", rr, rf);
    FUZZ_ASSERT(ref.n == fast.n);
    for (size_t i = 0; i < ref.n; i++)
        FUZZ_ASSERT_MSG(memcmp(&ref.item[i], &fast.item[i], sizeof ref.item[i]) == 0,
                        "result %zu differs between the engines", i);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 65536)
        return 0; /* the reader is linear; longer inputs only slow the search */
    wsel_ring_scenario *sc = NULL, *again = NULL;
    wsel_error err, err2;
    int rc = wsel_ring_scenario_load_buffer("fuzz.json", (const char *)data, size, &sc, &err);
    int rc2 = wsel_ring_scenario_load_buffer("fuzz.json", (const char *)data, size, &again, &err2);
    FUZZ_ASSERT_MSG(rc == rc2, "two loads of the same bytes: %d then %d", rc, rc2);
    if (rc != WSEL_OK) {
        refused(rc, &err, "load");
        FUZZ_ASSERT(!sc && strcmp(err.message, err2.message) == 0);
        FUZZ_ASSERT(strcmp(err.file, "fuzz.json") == 0);
        return 0;
    }
    check_scenario(sc);
    same_scenario(sc, again);
    if (wheel_size(&sc->opts) <= MAX_RUN_SLOTS)
        run_both(sc);
    wsel_ring_scenario_free(sc);
    wsel_ring_scenario_free(again);
    return 0;
}
