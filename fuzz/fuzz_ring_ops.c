/* fuzz_ring_ops: the ring's fast engine against its reference over operation sequences.
 *
 * Property: two rings built alike and fed the same operations -- adds and weight
 * changes, removals, DNS answers of every kind (failure, A, AAAA, SRV with names, zero
 * weights and ports, priorities, ttl=0) followed by a refresh, host and address status
 * flips, clock moves, hashed / float / round-robin picks with retries, cache_only or
 * not -- one picked through the reference (wsel_ring_pick) and one through a fast engine
 * (wsel_ring_fast_pick_refresh, synced after every change, reclaimed now and then; each
 * keyed pick also made first as a view pick, wsel_ring_fast_pick_view and its inline
 * form, each round-robin pick as a pick with a cursor, wsel_ring_fast_pick_rr and its
 * inline form),
 * agree after every operation: same outcome, address, port, slot, host name and message
 * for every pick, the same owner for every slot, the fast engine's view equal to its
 * ring (wsel_ring_fast_check), and the ring's invariants hold (wsel_ring_check).
 *
 * Hosts given at construction (when the setup byte asks for them): the reference ring
 * gets them in a batch (wsel_ring_new), the other one by one as 5.2.3 adds them
 * (wsel__ring_new, batch false), and the two must start in the same state: the same
 * addresses holding the same slots in the same acquisition order, the same free stack
 * (wsel_kit_ring_same_state; doc/ring.md section 2, "The batch build").
 *
 * Input: 1 byte of setup (wheel size, strict mode, threshold, hosts at construction),
 * then, with hosts, up to 3 DNS answers and up to 12 hosts; then operations of one kind
 * byte and their arguments, until the input ends or MAX_OPS (32) ran (bounded work,
 * fuzz/README.md; longer sequences run whole in fuzz_ring_scenario). */
#include "fuzz.h"
#include "ring_mock.h"
#include "../core/ring/ring_model.h"

#define NAMES 4
#define MAX_OPS 32

static const uint32_t sizes[] = {1, 2, 3, 7, 10, 19, 64, 65, 100, 257};

static void name_of(fuzz_producer *fp, char *buf, size_t len)
{
    unsigned k = (unsigned)fuzz_range(fp, 0, 11);
    if (k < 8)
        snprintf(buf, len, "10.0.0.%u", k + 1);
    else
        snprintf(buf, len, "n%u.test", k - 8);
}

static void answer(mock *m, fuzz_producer *fp)
{
    char name[16];
    snprintf(name, sizeof name, "n%u.test", (unsigned)fuzz_range(fp, 0, NAMES - 1));
    unsigned kind = (unsigned)fuzz_range(fp, 0, 3);
    uint32_t ttl = fuzz_bool(fp) ? 0 : (uint32_t)fuzz_range(fp, 1, 20);
    if (kind == 0) {
        mock_fail(m, name);
        return;
    }
    size_t n = (size_t)fuzz_range(fp, kind == 3 ? 1 : 0, 5);
    if (kind < 3) {
        char addrs[6][64];
        const char *list[7];
        for (size_t i = 0; i < n; i++) {
            unsigned x = (unsigned)fuzz_range(fp, 1, 8);
            if (kind == 2)
                snprintf(addrs[i], sizeof addrs[i], "2001:db8::%x", x);
            else
                snprintf(addrs[i], sizeof addrs[i], "10.9.0.%u", x);
            list[i] = addrs[i];
        }
        list[n] = NULL;
        mock_addr(m, name, kind == 2 ? WSEL_RING_AAAA : WSEL_RING_A, ttl, list);
        return;
    }
    mock_srv_clear(m, name);
    for (size_t i = 0; i < n; i++) {
        char t[32];
        if (fuzz_bool(fp))
            snprintf(t, sizeof t, "n%u.test", (unsigned)fuzz_range(fp, 0, NAMES - 1));
        else
            snprintf(t, sizeof t, "10.8.0.%u", (unsigned)fuzz_range(fp, 1, 6));
        mock_srv(m, name, t, (uint32_t)fuzz_range(fp, 0, 2) * 8000,
                 (uint32_t)fuzz_range(fp, 0, 30), (uint32_t)fuzz_range(fp, 1, 2),
                 i == 0 ? ttl : 30);
    }
}

/* Hosts given at construction, from the input: up to 12, with the answers of up to 3
 * names first. Returns how many. */
static size_t construction_hosts(fuzz_producer *fp, mock *m, wsel_ring_host_spec *spec,
                                 char (*names)[32])
{
    for (unsigned k = (unsigned)fuzz_range(fp, 0, 3); k > 0; k--)
        answer(m, fp);
    size_t n = (size_t)fuzz_range(fp, 1, 12);
    for (size_t i = 0; i < n; i++) {
        name_of(fp, names[i], 32);
        spec[i].name = names[i];
        spec[i].port = fuzz_bool(fp) ? -1 : 80 + (int64_t)fuzz_range(fp, 0, 1);
        spec[i].weight = fuzz_bool(fp) ? -1 : (int64_t)fuzz_range(fp, 1, 100);
    }
    return n;
}

static void same_pick(const wsel_ring_peer *a, const wsel_ring_peer *b, int rca, int rcb,
                      size_t op)
{
    FUZZ_ASSERT_MSG(rca == rcb, "op %zu: pick status ref %d, fast %d", op, rca, rcb);
    if (rca != WSEL_OK)
        return;
    FUZZ_ASSERT_MSG(a->outcome == b->outcome && strcmp(a->ip, b->ip) == 0 &&
                        a->port == b->port && a->slot == b->slot &&
                        strcmp(a->message, b->message) == 0 &&
                        strcmp(a->hostname ? a->hostname : "-", b->hostname ? b->hostname : "-") == 0,
                    "op %zu: ref %s %s:%u slot %u (%s), fast %s %s:%u slot %u (%s)", op,
                    wsel_ring_outcome_name(a->outcome), a->ip, a->port, a->slot, a->message,
                    wsel_ring_outcome_name(b->outcome), b->ip, b->port, b->slot, b->message);
}

static void same_state(wsel_ring *a, wsel_ring *b, wsel_ring_fast *f, size_t op)
{
    wsel_error err;
    FUZZ_ASSERT_MSG(wsel_ring_check(a, &err) == WSEL_OK, "op %zu: ref ring: %s", op, err.message);
    FUZZ_ASSERT_MSG(wsel_ring_check(b, &err) == WSEL_OK, "op %zu: fast ring: %s", op, err.message);
    FUZZ_ASSERT_MSG(wsel_ring_fast_check(f, &err) == WSEL_OK, "op %zu: %s", op, err.message);
    FUZZ_ASSERT(wsel_ring_address_count(a) == wsel_ring_address_count(b));
    for (uint32_t s = 1; s <= wsel_ring_size(a); s++)
        FUZZ_ASSERT_MSG(wsel_ring_owner(a, s) == wsel_ring_owner(b, s), "op %zu: slot %u", op, s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_producer fp = fuzz_producer_make(data, size);
    static mock m;
    memset(&m, 0, sizeof m);
    uint64_t setup = fuzz_bits(&fp, 1);
    wsel_ring_opts o = mock_opts(&m, sizes[setup % 10]);
    o.strict = (setup / 10) % 2;
    o.health_threshold = (double)((setup / 20) % 3) * 25;
    wsel_ring_host_spec spec[12];
    char names[12][32], why[256];
    if ((setup / 60) % 2) {
        o.hosts = spec;
        o.n_hosts = construction_hosts(&fp, &m, spec, names);
    }
    wsel_ring *a = NULL, *b = NULL;
    wsel_ring_fast *f = NULL;
    FUZZ_ASSERT(wsel_ring_new(&o, &a, NULL) == WSEL_OK);
    FUZZ_ASSERT(wsel__ring_new(&o, false, &b, NULL) == WSEL_OK);
    const char *d = wsel_kit_ring_same_state(a, b, why, sizeof why);
    FUZZ_ASSERT_MSG(!d, "%zu hosts on %u slots: the batch build differs from one by one: %s",
                    o.n_hosts, wsel_ring_size(a), d);
    FUZZ_ASSERT(wsel_ring_fast_new(b, &f, NULL) == WSEL_OK);
    double now = 0;
    for (size_t op = 0; op < MAX_OPS && fp.left; op++) {
        unsigned kind = (unsigned)fuzz_range(&fp, 0, 7);
        char name[32];
        int rca = WSEL_OK, rcb = WSEL_OK;
        bool change = true;
        if (kind <= 1) {
            name_of(&fp, name, sizeof name);
            uint32_t port = 80 + (uint32_t)fuzz_range(&fp, 0, 1);
            uint32_t w = fuzz_bool(&fp) ? (uint32_t)fuzz_range(&fp, 1, 100)
                                        : (uint32_t)fuzz_range(&fp, 1, WSEL_RING_MAX_WEIGHT);
            rca = wsel_ring_add_host(a, name, port, w, NULL);
            rcb = wsel_ring_add_host(b, name, port, w, NULL);
        } else if (kind == 2) {
            name_of(&fp, name, sizeof name);
            uint32_t port = 80 + (uint32_t)fuzz_range(&fp, 0, 1);
            rca = wsel_ring_remove_host(a, name, port, NULL, NULL);
            rcb = wsel_ring_remove_host(b, name, port, NULL, NULL);
        } else if (kind == 3) {
            answer(&m, &fp);
            snprintf(name, sizeof name, "n%u.test", (unsigned)fuzz_range(&fp, 0, NAMES - 1));
            rca = wsel_ring_refresh(a, name, NULL);
            rcb = wsel_ring_refresh(b, name, NULL);
        } else if (kind == 4 && wsel_ring_address_count(a)) {
            wsel_ring_address ad;
            wsel_ring_address_get(a, (size_t)fuzz_range(&fp, 0, wsel_ring_address_count(a) - 1), &ad);
            bool up = fuzz_bool(&fp);
            char ip[256], host[256];
            /* an IPv6 address by the bracketed text 5.2.3 stores (bare, it matches
             * nothing: doc/ring.md section 10), now and then bare all the same */
            snprintf(ip, sizeof ip, ad.iptype == WSEL_RING_IPV6 && fuzz_bool(&fp) ? "[%s]" : "%s",
                     ad.ip);
            snprintf(host, sizeof host, "%s", ad.host);
            if (fuzz_bool(&fp)) {
                rca = wsel_ring_set_host_status(a, host, ad.host_port, up, NULL);
                rcb = wsel_ring_set_host_status(b, host, ad.host_port, up, NULL);
            } else {
                rca = wsel_ring_set_address_status(a, ip, ad.port, host, up, NULL);
                rcb = wsel_ring_set_address_status(b, ip, ad.port, host, up, NULL);
            }
        } else if (kind == 5) {
            now += (double)fuzz_range(&fp, 0, 80) / 4;
            rca = wsel_ring_tick(a, now, NULL);
            rcb = wsel_ring_tick(b, now, NULL);
        } else if (kind >= 6) {
            change = false;
            wsel_ring_handle ha = {.mode = (wsel_ring_mode)fuzz_range(&fp, 0, 2)};
            ha.hash = fuzz_bits(&fp, 8);
            ha.u = (double)(ha.hash >> 11) / 9007199254740992.0;
            wsel_ring_handle hb = ha;
            bool cache_only = fuzz_bool(&fp);
            unsigned picks = 1 + (unsigned)fuzz_range(&fp, 0, 3);
            for (unsigned k = 0; k < picks; k++) {
                wsel_ring_peer pa, pb;
                if (k) {
                    ha.retries++;
                    hb.retries++;
                }
                /* a keyed pick also as a view pick first, by the library and inline
                 * (neither changes anything); a round-robin one as a pick with a cursor
                 * standing where the reference's pointer does, alternately inline (it
                 * moves only the cursor): unless it must leave a re-query to the writer,
                 * it says what the others say, and the cursor ends where the
                 * reference's pointer does */
                wsel_ring_handle hv = hb, hi = hb;
                wsel_ring_view_pick vp = {0}, vi = {0};
                bool keyed = hv.mode != WSEL_RING_RR;
                uint32_t cursor = a->pointer;
                int rcv = keyed ? wsel_ring_fast_pick_view(f, &hv, cache_only, &vp, NULL)
                          : k % 2 ? wsel_ring_fast_pick_rr_inline(f, &cursor, cache_only, &vp, NULL)
                                  : wsel_ring_fast_pick_rr(f, &cursor, cache_only, &vp, NULL);
                int rci = keyed ? wsel_ring_fast_pick_view_inline(f, &hi, cache_only, &vi, NULL)
                                : rcv;
                FUZZ_ASSERT_MSG(!keyed || (rci == rcv && (rcv != WSEL_OK ||
                                                          (vi.outcome == vp.outcome &&
                                                           vi.slot == vp.slot &&
                                                           vi.target == vp.target))),
                                "op %zu: inline view pick %d/%u against %d/%u", op,
                                (int)vi.outcome, vi.slot, (int)vp.outcome, vp.slot);
                rca = wsel_ring_pick(a, &ha, cache_only, &pa, NULL);
                rcb = wsel_ring_fast_pick_refresh(f, &hb, cache_only, &pb, NULL);
                same_pick(&pa, &pb, rca, rcb, op);
                char why[256];
                bool judged = !(rcv == WSEL_OK && vp.outcome == WSEL_RING_EXPIRED);
                const char *d = judged ? wsel_kit_ring_view_agrees(rcv, &vp, rca, &pa, b, why,
                                                                   sizeof why)
                                       : NULL;
                FUZZ_ASSERT_MSG(!d, "op %zu: %s pick: %s", op, keyed ? "view" : "cursor", d);
                FUZZ_ASSERT_MSG(keyed || !judged || cursor == a->pointer,
                                "op %zu: cursor at %u, the reference's pointer at %u", op,
                                cursor, a->pointer);
            }
        }
        FUZZ_ASSERT_MSG(rca == rcb, "op %zu (kind %u): ref %d, fast ring %d", op, kind, rca, rcb);
        if (change)
            FUZZ_ASSERT(wsel_ring_fast_sync(f, NULL) == WSEL_OK);
        if (op % 3 == 0)
            wsel_ring_fast_reclaim(f);
        same_state(a, b, f, op);
    }
    wsel_ring_fast_free(f);
    wsel_ring_free(a);
    wsel_ring_free(b);
    return 0;
}
