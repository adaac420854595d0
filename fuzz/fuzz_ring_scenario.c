/* fuzz_ring_scenario: the ring's scenario-file reader (cli/ring/ring_scenario.c, the JSON
 * format of man/wsel.1 RING SCENARIO).
 *
 * Property: on any bytes the reader returns 0 (accepted) or 1 (rejected, one message)
 * and never crashes, hangs or leaks; loading the same bytes twice gives the same
 * outcome and the same scenario. An accepted scenario is within the documented ranges
 * (wheel size, order length, rrStart, threshold, ports, weights, key ranges, op kinds),
 * and the library takes it: wsel_ring_new either builds the ring or refuses with a
 * status code and a message; a built ring then runs the scenario's operations (each
 * succeeding or refusing with a message; picks bounded) and keeps its invariants
 * (wsel_ring_check) after every one.
 *
 * Input: the scenario text. The reader takes a path, so the bytes go to an unlinked
 * temporary file read back through /dev/fd. */
#include <fcntl.h>
#include <math.h>
#include <unistd.h>

#include "fuzz.h"
#include "wsel.h"
#include "../cli/ring/ring_scenario.h"

#define MAX_RUN_SLOTS 4096u /* larger wheels are only read, not run */
#define MAX_PICKS 64u        /* picks per op */

static int tmp_fd = -1;
static char tmp_path[64];

static const char *input_path(const uint8_t *data, size_t size)
{
    if (tmp_fd < 0) {
        char tmpl[] = "/tmp/fuzz_ring_scenario.XXXXXX";
        tmp_fd = mkstemp(tmpl);
        FUZZ_ASSERT_MSG(tmp_fd >= 0, "mkstemp failed");
        unlink(tmpl);
        snprintf(tmp_path, sizeof tmp_path, "/dev/fd/%d", tmp_fd);
    }
    FUZZ_ASSERT(ftruncate(tmp_fd, 0) == 0);
    size_t done = 0;
    while (done < size) {
        ssize_t w = pwrite(tmp_fd, data + done, size - done, (off_t)done);
        FUZZ_ASSERT_MSG(w > 0, "cannot write the input");
        done += (size_t)w;
    }
    return tmp_path;
}

static void check_entries(const wsel_ring_entry *e, size_t n, bool srv)
{
    for (size_t i = 0; i < n; i++) {
        FUZZ_ASSERT(e[i].address && e[i].address[0]);
        if (srv)
            FUZZ_ASSERT(e[i].port <= 65535 && e[i].weight <= 65535 && e[i].priority <= 65535);
    }
}

static void check_name(const rs_name *d)
{
    FUZZ_ASSERT(d->name);
    if (d->fail) {
        FUZZ_ASSERT_MSG(!strcmp(d->fail, "nxdomain") || !strcmp(d->fail, "servfail") ||
                            !strcmp(d->fail, "timeout"), "fail kind '%s'", d->fail);
        FUZZ_ASSERT(!d->na && !d->naaaa && !d->nsrv);
    }
    check_entries(d->a, d->na, false);
    check_entries(d->aaaa, d->naaaa, false);
    check_entries(d->srv, d->nsrv, true);
}

/* Everything the reader promises about an accepted scenario. */
static void check_scenario(const rs_scenario *sc)
{
    const wsel_ring_opts *o = &sc->opts;
    FUZZ_ASSERT_MSG(o->wheel_size < 0 || (o->wheel_size >= 1 && o->wheel_size <= WSEL_RING_MAX_SLOTS),
                    "wheelSize %lld", (long long)o->wheel_size);
    if (o->order) {
        FUZZ_ASSERT(o->order_len >= 1 && o->order_len <= WSEL_RING_MAX_SLOTS);
        FUZZ_ASSERT(o->wheel_size < 0 || (size_t)o->wheel_size == o->order_len);
    }
    uint64_t n = o->wheel_size >= 0 ? (uint64_t)o->wheel_size
                 : o->order          ? o->order_len
                                     : WSEL_RING_DEFAULT_SIZE;
    FUZZ_ASSERT_MSG(o->rr_start >= 1 && (uint64_t)o->rr_start <= n, "rrStart %lld of %llu",
                    (long long)o->rr_start, (unsigned long long)n);
    FUZZ_ASSERT(o->health_threshold >= 0 && o->health_threshold <= 100);
    for (size_t i = 0; i < o->n_hosts; i++) {
        const wsel_ring_host_spec *h = &o->hosts[i];
        FUZZ_ASSERT(h->name && h->name[0]);
        FUZZ_ASSERT(h->port == -1 || (h->port >= 1 && h->port <= 65535));
        FUZZ_ASSERT(h->weight == -1 || (h->weight >= 1 && h->weight <= WSEL_RING_MAX_WEIGHT));
    }
    for (size_t i = 0; i < sc->n_names; i++)
        check_name(&sc->names[i]);
    for (size_t i = 0; i < sc->n_ops; i++) {
        const rs_op *op = &sc->ops[i];
        FUZZ_ASSERT_MSG(op->kind <= RS_RETRY, "op %zu kind %d", i, (int)op->kind);
        FUZZ_ASSERT(!strncmp(op->path, "$.ops[", 6));
        switch (op->kind) {
        case RS_ADD:
            FUZZ_ASSERT(op->weight >= 1 && op->weight <= WSEL_RING_MAX_WEIGHT);
            /* fall through */
        case RS_REMOVE:
        case RS_HOSTSTATUS:
            FUZZ_ASSERT(op->name && op->name[0] && op->port >= 1 && op->port <= 65535);
            break;
        case RS_STATUS:
            FUZZ_ASSERT(op->ip && op->ip[0] && op->port >= 1 && op->port <= 65535);
            break;
        case RS_DNS:
            FUZZ_ASSERT(op->name);
            check_name(&op->dns);
            break;
        case RS_ADVANCE:
            FUZZ_ASSERT(op->seconds >= 0 && op->seconds <= 1e9);
            break;
        case RS_PEERS:
            FUZZ_ASSERT(!op->hashes != !op->floats || op->n_keys == 0);
            for (size_t k = 0; k < op->n_keys; k++) {
                if (op->hashes)
                    FUZZ_ASSERT(op->hashes[k] <= 9007199254740992ull);
                else
                    FUZZ_ASSERT(op->floats[k] >= 0 && op->floats[k] < 1);
            }
            break;
        case RS_RR:
        case RS_RETRY:
            FUZZ_ASSERT(op->count <= 10000000 && op->hash <= 9007199254740992ull);
            break;
        default:
            break;
        }
    }
}

static void same_scenario(const rs_scenario *a, const rs_scenario *b)
{
    FUZZ_ASSERT(a->n_ops == b->n_ops && a->n_names == b->n_names);
    FUZZ_ASSERT(a->opts.wheel_size == b->opts.wheel_size && a->opts.n_hosts == b->opts.n_hosts);
    FUZZ_ASSERT(a->opts.order_len == b->opts.order_len && a->opts.rr_start == b->opts.rr_start);
    for (size_t i = 0; i < a->n_ops; i++) {
        FUZZ_ASSERT(a->ops[i].kind == b->ops[i].kind && a->ops[i].port == b->ops[i].port);
        FUZZ_ASSERT(a->ops[i].weight == b->ops[i].weight && a->ops[i].n_keys == b->ops[i].n_keys);
    }
}

static void refused(int rc, const wsel_error *err, const char *what)
{
    FUZZ_ASSERT_MSG(rc > 0 && rc < 64, "%s: status %d", what, rc);
    FUZZ_ASSERT_MSG(err->message[0], "%s: status %d without a message", what, rc);
}

static void ring_ok(const wsel_ring *r, const char *what)
{
    wsel_error err;
    FUZZ_ASSERT_MSG(wsel_ring_check(r, &err) == WSEL_OK, "after %s: %s", what, err.message);
}

static void pick(wsel_ring *r, wsel_ring_handle *h, bool retry)
{
    wsel_ring_peer p;
    wsel_error err;
    wsel_error_clear(&err);
    int rc = retry ? wsel_ring_retry(r, h, false, &p, &err) : wsel_ring_pick(r, h, false, &p, &err);
    if (rc != WSEL_OK) {
        refused(rc, &err, "pick");
        return;
    }
    if (p.outcome == WSEL_RING_PEER)
        FUZZ_ASSERT(p.slot >= 1 && p.slot <= wsel_ring_size(r) && p.ip[0]);
    else
        FUZZ_ASSERT_MSG(p.message[0], "outcome %s without a message",
                        wsel_ring_outcome_name(p.outcome));
}

/* Runs the ops as `wsel ring run` would, picks bounded. */
static void run_ops(rs_scenario *sc, wsel_ring *r)
{
    double now = 0;
    for (size_t i = 0; i < sc->n_ops; i++) {
        rs_op *op = &sc->ops[i];
        wsel_error err;
        wsel_error_clear(&err);
        int rc = WSEL_OK;
        switch (op->kind) {
        case RS_ADD:
            rc = wsel_ring_add_host(r, op->name, op->port, op->weight, &err);
            break;
        case RS_REMOVE:
            rc = wsel_ring_remove_host(r, op->name, op->port, NULL, &err);
            break;
        case RS_STATUS:
            rc = wsel_ring_set_address_status(r, op->ip, op->port, op->hostname, op->available,
                                              &err);
            break;
        case RS_HOSTSTATUS:
            rc = wsel_ring_set_host_status(r, op->name, op->port, op->available, &err);
            break;
        case RS_DNS:
            FUZZ_ASSERT(rs_set_name(sc, &op->dns) == 0);
            rc = wsel_ring_refresh(r, op->name, &err);
            break;
        case RS_ADVANCE:
            now += op->seconds;
            rc = wsel_ring_tick(r, now, &err);
            break;
        case RS_PEERS:
            for (size_t k = 0; k < op->n_keys && k < MAX_PICKS; k++) {
                wsel_ring_handle h = {op->hashes ? WSEL_RING_HASH : WSEL_RING_FLOAT,
                                      op->hashes ? op->hashes[k] : 0,
                                      op->floats ? op->floats[k] : 0, 0};
                pick(r, &h, false);
            }
            break;
        case RS_RR:
            for (uint64_t k = 0; k < op->count && k < MAX_PICKS; k++) {
                wsel_ring_handle h = {WSEL_RING_RR, 0, 0, 0};
                pick(r, &h, false);
            }
            break;
        case RS_RETRY: {
            wsel_ring_handle h = {WSEL_RING_HASH, op->hash, 0, 0};
            pick(r, &h, false);
            for (uint64_t k = 0; k < op->count && k < MAX_PICKS; k++)
                pick(r, &h, true);
            break;
        }
        default:
            break;
        }
        if (rc != WSEL_OK)
            refused(rc, &err, op->path);
        ring_ok(r, op->path);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 65536)
        return 0; /* the reader is linear; longer inputs only slow the search */
    const char *path = input_path(data, size);
    rs_scenario sc, again;
    int rc = rs_load("fuzz", path, &sc);
    int rc2 = rs_load("fuzz", path, &again);
    FUZZ_ASSERT_MSG(rc == 0 || rc == 1, "rs_load returned %d", rc);
    FUZZ_ASSERT_MSG(rc == rc2, "two loads of the same bytes: %d then %d", rc, rc2);
    if (rc == 0) {
        check_scenario(&sc);
        same_scenario(&sc, &again);
        uint64_t n = sc.opts.wheel_size >= 0 ? (uint64_t)sc.opts.wheel_size
                     : sc.opts.order          ? sc.opts.order_len
                                              : WSEL_RING_DEFAULT_SIZE;
        if (n <= MAX_RUN_SLOTS) {
            sc.opts.dns.resolve = rs_resolve;
            sc.opts.dns.toip = rs_toip;
            sc.opts.dns.ctx = &sc;
            wsel_ring *r = NULL;
            wsel_error err;
            wsel_error_clear(&err);
            int nr = wsel_ring_new(&sc.opts, &r, &err);
            if (nr == WSEL_OK) {
                ring_ok(r, "wsel_ring_new");
                run_ops(&sc, r);
            } else {
                refused(nr, &err, "wsel_ring_new");
                FUZZ_ASSERT(r == NULL);
            }
            wsel_ring_free(r);
        }
    }
    rs_free(&sc);
    rs_free(&again);
    return 0;
}
