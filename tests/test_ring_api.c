/* The ring's API conventions (include/wsel/common.h) and its scenario calls
 * (include/wsel/ring.h, "scenarios"): every call given a NULL handle answers as the
 * conventions say instead of crashing; a scenario read from memory or a file runs with
 * its steps reported in order, by either engine, and as often as asked; faults are
 * reported where they are in the text. Expected picks come from layout K4 of the spec
 * (doc/ring.md section 5; tests/cli/t_ring.sh): slots 1..15 owned GMGMMMGMMGMMMGM, G =
 * getkong.org (5.6.7.8:321), M = mashape.com (1.2.3.4:123). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "wsel.h"
#include "kit/kit.h"

static const char k4[] =
    "{\"wheelSize\": 15,\n"
    " \"hosts\": [{\"name\": \"mashape.com\", \"port\": 123, \"weight\": 100},\n"
    "           {\"name\": \"getkong.org\", \"port\": 321, \"weight\": 50}],\n"
    " \"dns\": {\"mashape.com\": {\"A\": [{\"address\": \"1.2.3.4\", \"ttl\": 300}]},\n"
    "         \"getkong.org\": {\"A\": [{\"address\": \"5.6.7.8\", \"ttl\": 300}]}},\n"
    " \"ops\": [{\"op\": \"rr\", \"count\": 30},\n"
    "         {\"op\": \"hoststatus\", \"name\": \"getkong.org\", \"port\": 321, \"available\": false},\n"
    "         {\"op\": \"peers\", \"hashes\": [0, 6, 15]},\n"
    "         {\"op\": \"retry\", \"hash\": 0, \"count\": 2},\n"
    "         {\"op\": \"remove\", \"name\": \"nothere\"},\n"
    "         {\"op\": \"advance\", \"seconds\": 2.5}]}\n";

static const char owners[] = "GMGMMMGMMGMMMGM";

/* ---- NULL handles ----------------------------------------------------------------------- */

static void test_null_handles(void **u)
{
    (void)u;
    wsel_error err;
    wsel_ring_handle h = {WSEL_RING_HASH, 1, 0, 0};
    wsel_ring_peer peer;
    wsel_ring_address ad;
    uint32_t slots[4] = {7, 7, 7, 7};
    bool found = true;
    wsel_ring_opts_init(NULL);
    wsel_ring_free(NULL);
    assert_int_equal(wsel_ring_new(NULL, NULL, &err), WSEL_E_ARG);
    assert_int_equal(wsel_ring_size(NULL), 0);
    assert_int_equal(wsel_ring_address_count(NULL), 0);
    assert_int_equal(wsel_ring_host_count(NULL), 0);
    assert_int_equal(wsel_ring_weight(NULL), 0);
    assert_int_equal(wsel_ring_unavailable_weight(NULL), 0);
    assert_false(wsel_ring_healthy(NULL));
    assert_int_equal(wsel_ring_owner(NULL, 1), -1);
    memset(&ad, 0xff, sizeof ad);
    wsel_ring_address_get(NULL, 0, &ad);
    assert_null(ad.ip);
    wsel_ring_address_slots(NULL, 0, slots);
    assert_int_equal(slots[0], 7);
    assert_int_equal(wsel_ring_check(NULL, &err), WSEL_E_ARG);
    assert_int_equal(wsel_ring_add_host(NULL, "a", 80, 1, &err), WSEL_E_ARG);
    assert_int_equal(wsel_ring_remove_host(NULL, "a", 80, &found, &err), WSEL_E_ARG);
    assert_false(found);
    assert_int_equal(wsel_ring_refresh(NULL, "a", &err), WSEL_E_ARG);
    assert_int_equal(wsel_ring_tick(NULL, 1, &err), WSEL_E_ARG);
    assert_int_equal(wsel_ring_set_address_status(NULL, "1.2.3.4", 80, NULL, true, &err),
                     WSEL_E_ARG);
    assert_int_equal(wsel_ring_set_host_status(NULL, "a", 80, true, &err), WSEL_E_ARG);
    assert_int_equal(wsel_ring_pick(NULL, &h, false, &peer, &err), WSEL_E_ARG);
    assert_int_equal(wsel_ring_retry(NULL, &h, false, &peer, &err), WSEL_E_ARG);
    assert_int_equal(h.retries, 0); /* a refused retry counts nothing */
    assert_int_equal(wsel_ring_default_order(3, NULL, &err), WSEL_E_ARG);
    /* the fast engine */
    wsel_ring_fast *f = (wsel_ring_fast *)&h; /* never written: the calls refuse first */
    assert_int_equal(wsel_ring_fast_new(NULL, &f, &err), WSEL_E_ARG);
    assert_null(f);
    wsel_ring_fast_free(NULL);
    assert_int_equal(wsel_ring_fast_sync(NULL, &err), WSEL_E_ARG);
    assert_int_equal(wsel_ring_fast_reclaim(NULL), 0);
    assert_int_equal(wsel_ring_fast_check(NULL, &err), WSEL_E_ARG);
    assert_int_equal(wsel_ring_fast_pick(NULL, &h, false, &peer, &err), WSEL_E_ARG);
    assert_int_equal(wsel_ring_fast_retry(NULL, &h, false, &peer, &err), WSEL_E_ARG);
    assert_int_equal(h.retries, 0);
    assert_int_equal(wsel_ring_fast_pick_refresh(NULL, &h, false, &peer, &err), WSEL_E_ARG);
    wsel_ring_view_pick vp = {.outcome = WSEL_RING_NO_PEERS};
    assert_int_equal(wsel_ring_fast_pick_view(NULL, &h, false, &vp, &err), WSEL_E_ARG);
    assert_int_equal(wsel_ring_fast_retry_view(NULL, &h, false, &vp, &err), WSEL_E_ARG);
    assert_int_equal(h.retries, 0);
    peer.outcome = WSEL_RING_UNHEALTHY;
    wsel_ring_fast_view_peer(NULL, &vp, false, &peer); /* does nothing */
    assert_int_equal(peer.outcome, WSEL_RING_UNHEALTHY);
    /* scenarios */
    wsel_ring_scenario *sc = (wsel_ring_scenario *)&h;
    assert_int_equal(wsel_ring_scenario_load_file(NULL, &sc, &err), WSEL_E_ARG);
    assert_null(sc);
    assert_int_equal(wsel_ring_scenario_load_file("x.json", NULL, &err), WSEL_E_ARG);
    assert_int_equal(wsel_ring_scenario_load_buffer("x", NULL, 3, &sc, &err), WSEL_E_ARG);
    assert_int_equal(wsel_ring_scenario_load_buffer("x", "{}", 2, NULL, &err), WSEL_E_ARG);
    wsel_ring_scenario_free(NULL);
    assert_null(wsel_ring_scenario_opts(NULL));
    assert_int_equal(wsel_ring_scenario_op_count(NULL), 0);
    assert_null(wsel_ring_scenario_op(NULL, 0));
    assert_int_equal(wsel_ring_scenario_run(NULL, NULL, NULL, NULL, &err), WSEL_E_ARG);
    assert_string_equal(wsel_ring_op_kind_name((wsel_ring_op_kind)99), "unknown");
    assert_string_equal(wsel_ring_op_kind_name(WSEL_RING_OP_HOSTSTATUS), "hoststatus");
}

/* A real ring (and its fast engine) given a NULL handle or peer record, or a float key
 * outside [0,1), or an unknown mode: WSEL_E_ARG, a retry counting nothing. Reading calls
 * out of range: a slot outside 1..N or free (no address: weight 0) has no owner, an
 * address index past the end reads as all zero. Each outcome has its name. */
static void test_refusals_and_edges(void **u)
{
    (void)u;
    wsel_ring_opts o;
    wsel_ring_opts_init(&o);
    o.dns.resolve = wsel_kit_ring_literals_only;
    o.wheel_size = 4;
    wsel_ring *r = NULL;
    wsel_error err;
    assert_int_equal(wsel_ring_new(&o, &r, &err), WSEL_OK);
    /* no address yet: every slot free */
    for (uint32_t s = 0; s <= 5; s++)
        assert_int_equal(wsel_ring_owner(r, s), -1);
    wsel_ring_address ad;
    memset(&ad, 0xff, sizeof ad);
    wsel_ring_address_get(r, 0, &ad);
    assert_null(ad.ip);
    assert_int_equal(ad.n_slots, 0);
    wsel_ring_address_get(r, 0, NULL);
    wsel_ring_address_slots(r, 0, NULL);
    assert_int_equal(wsel_ring_add_host(r, "10.0.0.1", 80, 1, &err), WSEL_OK);
    assert_int_equal(wsel_ring_owner(r, 0), -1);
    assert_int_equal(wsel_ring_owner(r, 4), 0);
    assert_int_equal(wsel_ring_owner(r, 5), -1);
    memset(&ad, 0xff, sizeof ad);
    wsel_ring_address_get(r, 1, &ad);
    assert_null(ad.ip);
    wsel_ring_address_get(r, 0, NULL);
    wsel_ring_address_slots(r, 0, NULL); /* nowhere to write: nothing written */
    uint32_t slots[4] = {9, 9, 9, 9};
    wsel_ring_address_slots(r, 1, slots);
    assert_int_equal(slots[0], 9);

    wsel_ring_fast *f = NULL;
    assert_int_equal(wsel_ring_fast_new(r, NULL, &err), WSEL_E_ARG);
    assert_int_equal(wsel_ring_fast_new(r, &f, &err), WSEL_OK);
    wsel_ring_handle h = {.mode = WSEL_RING_HASH};
    wsel_ring_peer p;
    assert_int_equal(wsel_ring_pick(r, NULL, false, &p, &err), WSEL_E_ARG);
    assert_int_equal(wsel_ring_pick(r, &h, false, NULL, &err), WSEL_E_ARG);
    assert_int_equal(wsel_ring_retry(r, &h, false, NULL, &err), WSEL_E_ARG);
    assert_int_equal(wsel_ring_fast_pick(f, NULL, false, &p, &err), WSEL_E_ARG);
    assert_int_equal(wsel_ring_fast_pick(f, &h, false, NULL, &err), WSEL_E_ARG);
    assert_int_equal(wsel_ring_fast_retry(f, &h, false, NULL, &err), WSEL_E_ARG);
    assert_int_equal(wsel_ring_fast_pick_refresh(f, &h, false, NULL, &err), WSEL_E_ARG);
    assert_int_equal(h.retries, 0);
    const double bad[] = {-0.5, 1.0, 0.0 / 0.0};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        wsel_ring_handle hf = {.mode = WSEL_RING_FLOAT, .u = bad[i]};
        wsel_error_clear(&err);
        assert_int_equal(wsel_ring_pick(r, &hf, true, &p, &err), WSEL_E_ARG);
        assert_non_null(strstr(err.message, "float key must be in [0,1)"));
        assert_int_equal(wsel_ring_retry(r, &hf, true, &p, &err), WSEL_E_ARG);
        assert_int_equal(hf.retries, 1); /* as the fast engine's retry (test_ring_fast_reader) */
    }
    wsel_ring_handle hm = {.mode = (wsel_ring_mode)7};
    wsel_error_clear(&err);
    assert_int_equal(wsel_ring_pick(r, &hm, true, &p, &err), WSEL_E_ARG);
    assert_non_null(strstr(err.message, "unknown pick mode 7"));
    /* a good pick still works after the refusals: the one address, slot 1 */
    assert_int_equal(wsel_ring_pick(r, &h, true, &p, &err), WSEL_OK);
    assert_int_equal(p.outcome, WSEL_RING_PEER);
    assert_int_equal(p.slot, 1);
    assert_int_equal(wsel_ring_fast_pick(f, &h, true, &p, &err), WSEL_OK);
    assert_int_equal(p.slot, 1);
    wsel_ring_fast_free(f);
    wsel_ring_free(r);

    static const char *const names[] = {"PEER", "UNHEALTHY", "NO_PEERS", "DNS", "EXPIRED"};
    const wsel_ring_outcome outs[] = {WSEL_RING_PEER, WSEL_RING_UNHEALTHY, WSEL_RING_NO_PEERS,
                                      WSEL_RING_DNS, WSEL_RING_EXPIRED};
    for (size_t i = 0; i < 5; i++)
        assert_string_equal(wsel_ring_outcome_name(outs[i]), names[i]);
    assert_string_equal(wsel_ring_outcome_name((wsel_ring_outcome)42), "UNKNOWN");
}

/* ---- running ------------------------------------------------------------------------------ */

/* What a run reported. */
typedef struct seen {
    char kinds[256];            /* one letter per step: B(uilt) b(egin) p(ick) e(nd) D(one) */
    size_t n;
    char picks[64][80];         /* "ip:port" or the outcome's name */
    size_t npicks;
    bool found;                 /* the remove op's */
    double now;                 /* after the advance op */
    int stop_at;                /* answer this at step number stop_at (0: never) */
} seen;

static int on_step(void *ctx, const wsel_ring_step *st)
{
    seen *s = ctx;
    static const char letter[] = "BbpeD";
    assert_true(s->n + 1 < sizeof s->kinds);
    s->kinds[s->n++] = letter[st->kind];
    assert_non_null(st->ring);
    /* a pick's handle and result are the PICK step's alone (include/wsel/ring.h) */
    if (st->kind == WSEL_RING_STEP_PICK) {
        assert_non_null(st->handle);
        assert_non_null(st->peer);
    } else {
        assert_null(st->handle);
        assert_null(st->peer);
    }
    if (st->kind == WSEL_RING_STEP_PICK && s->npicks < 64) {
        const wsel_ring_peer *p = st->peer;
        if (p->outcome == WSEL_RING_PEER)
            snprintf(s->picks[s->npicks++], sizeof s->picks[0], "%s:%u", p->ip, p->port);
        else
            snprintf(s->picks[s->npicks++], sizeof s->picks[0], "%s",
                     wsel_ring_outcome_name(p->outcome));
    }
    if (st->kind == WSEL_RING_STEP_END && st->op->kind == WSEL_RING_OP_REMOVE)
        s->found = st->found;
    if (st->kind == WSEL_RING_STEP_END && st->op->kind == WSEL_RING_OP_ADVANCE)
        s->now = st->now;
    return s->stop_at && (int)s->n == s->stop_at ? 42 : 0;
}

static const char *peer_of(char owner)
{
    return owner == 'G' ? "5.6.7.8:321" : "1.2.3.4:123";
}

static void check_k4_run(const wsel_ring_scenario *sc, wsel_ring_engine engine)
{
    wsel_ring_run_opts ro = {engine, WSEL_RING_APPORTION_SCENARIO};
    seen s;
    memset(&s, 0, sizeof s);
    wsel_error err;
    assert_int_equal(wsel_ring_scenario_run(sc, &ro, on_step, &s, &err), WSEL_OK);
    /* built; rr: 30 picks; hoststatus; peers: 3; retry: the pick and 2 retries; remove;
     * advance; done */
    char want[256] = "Bb";
    memset(want + 2, 'p', 30);
    strcat(want, "ebebpppebpppebebeD");
    assert_string_equal(s.kinds, want);
    /* round-robin from slot 1, twice around the wheel */
    for (size_t i = 0; i < 30; i++)
        assert_string_equal(s.picks[i], peer_of(owners[i % 15]));
    /* getkong.org down: hashes 0, 6, 15 start at G's slots 1, 7, 1 and fall through to
     * the next slot (2, 8, 2), mashape.com's */
    for (size_t i = 30; i < 33; i++)
        assert_string_equal(s.picks[i], "1.2.3.4:123");
    /* retry of hash 0: slot 1 (down) -> 2; retry 1: slot 2; retry 2: slot 3 (G, down) -> 4 */
    for (size_t i = 33; i < 36; i++)
        assert_string_equal(s.picks[i], "1.2.3.4:123");
    assert_false(s.found);
    assert_true(s.now == 2.5);
}

/* A resolver that hands over one fixed record (bad_answer_cases). */
static int one_record(void *ctx, const char *name, wsel_ring_record *out)
{
    (void)name;
    *out = *(const wsel_ring_record *)ctx;
    return 0;
}

/* An 8-slot ring whose resolver hands over *rec for every name. */
static wsel_ring *one_record_ring(wsel_ring_record *rec)
{
    wsel_ring_opts o;
    wsel_ring_opts_init(&o);
    o.dns.resolve = one_record;
    o.dns.ctx = rec;
    o.wheel_size = 8;
    wsel_ring *r = NULL;
    wsel_error err;
    assert_int_equal(wsel_ring_new(&o, &r, &err), WSEL_OK);
    return r;
}

/* Answers the library cannot read (include/wsel/ring.h's wsel_ring_record): each is
 * WSEL_E_ADDR naming the host and what is wrong, and leaves the ring as it was (no host,
 * no address); a good answer after them is taken. The messages are written out here. */
static void test_bad_answers(void **u)
{
    (void)u;
    char longname[260];
    memset(longname, 'a', 254);
    longname[254] = '\0';
    static const wsel_ring_entry v4 = {"10.0.0.1", 30, 0, 0, 0}, v6 = {"2001:db8::1", 30, 0, 0, 0};
    const wsel_ring_entry noaddr = {NULL, 30, 0, 0, 0}, empty = {"", 30, 0, 0, 0},
                          toolong = {longname, 30, 0, 0, 0},
                          port = {"s.test", 30, 65536, 1, 1},
                          weight = {"s.test", 30, 80, WSEL_RING_MAX_WEIGHT + 1, 1},
                          prio = {"s.test", 30, 80, 1, 65536};
    static char want_long[320];
    snprintf(want_long, sizeof want_long, "ring: DNS answer for host 'h.test': name too long: %s",
             longname);
    const struct {
        wsel_ring_record rec;
        const char *message;
    } cases[] = {
        {{false, NULL, WSEL_RING_A, NULL, 1}, "ring: DNS answer for host 'h.test': entries missing"},
        {{false, NULL, WSEL_RING_A, &noaddr, 1},
         "ring: DNS answer for host 'h.test': an entry without an address or target"},
        {{false, NULL, WSEL_RING_SRV, &empty, 1},
         "ring: DNS answer for host 'h.test': an entry without an address or target"},
        {{false, NULL, WSEL_RING_A, &toolong, 1}, want_long},
        {{false, NULL, WSEL_RING_SRV, &port, 1},
         "ring: DNS answer for host 'h.test': SRV port, weight or priority above 65535 for s.test"},
        {{false, NULL, WSEL_RING_SRV, &weight, 1},
         "ring: DNS answer for host 'h.test': SRV port, weight or priority above 65535 for s.test"},
        {{false, NULL, WSEL_RING_SRV, &prio, 1},
         "ring: DNS answer for host 'h.test': SRV port, weight or priority above 65535 for s.test"},
        {{false, NULL, WSEL_RING_A, &v6, 1},
         "ring: DNS answer for host 'h.test': A entry is not an IPv4 address: 2001:db8::1"},
        {{false, NULL, WSEL_RING_AAAA, &v4, 1},
         "ring: DNS answer for host 'h.test': AAAA entry is not an IPv6 address: 10.0.0.1"},
        {{false, NULL, (wsel_ring_rrtype)99, &v4, 1},
         "ring: DNS answer for host 'h.test': unknown/unsupported record type 99"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        wsel_ring_record rec = cases[i].rec;
        wsel_ring *r = one_record_ring(&rec);
        wsel_error err;
        assert_int_equal(wsel_ring_add_host(r, "h.test", 80, 10, &err), WSEL_E_ADDR);
        assert_string_equal(err.message, cases[i].message);
        assert_int_equal(wsel_ring_host_count(r), 0);
        assert_int_equal(wsel_ring_address_count(r), 0);
        rec = (wsel_ring_record){false, NULL, WSEL_RING_A, &v4, 1};
        assert_int_equal(wsel_ring_add_host(r, "h.test", 80, 10, &err), WSEL_OK);
        assert_int_equal(wsel_ring_address_count(r), 1);
        wsel_ring_free(r);
    }
    /* and the largest SRV port, priority and weight are taken (65535 each, the weight
     * WSEL_RING_MAX_WEIGHT): the address has port 65535 and that weight */
    static const wsel_ring_entry top = {"10.0.0.9", 30, 65535, WSEL_RING_MAX_WEIGHT, 65535};
    wsel_ring_record rec = {false, NULL, WSEL_RING_SRV, &top, 1};
    wsel_ring *r = one_record_ring(&rec);
    wsel_error err;
    if (wsel_ring_add_host(r, "h.test", 80, 10, &err) != WSEL_OK)
        fail_msg("SRV 65535/65535/%u: %s", WSEL_RING_MAX_WEIGHT, err.message);
    assert_int_equal(wsel_ring_address_count(r), 1);
    wsel_ring_address a;
    wsel_ring_address_get(r, 0, &a);
    assert_string_equal(a.ip, "10.0.0.9");
    assert_int_equal(a.port, 65535);
    assert_int_equal(a.weight, WSEL_RING_MAX_WEIGHT);
    wsel_ring_free(r);
}

static void test_scenario_runs(void **u)
{
    (void)u;
    wsel_ring_scenario *sc = NULL;
    wsel_error err;
    assert_int_equal(wsel_ring_scenario_load_buffer("k4.json", k4, strlen(k4), &sc, &err), WSEL_OK);
    assert_int_equal(wsel_ring_scenario_op_count(sc), 6);
    const wsel_ring_op *op = wsel_ring_scenario_op(sc, 2);
    assert_int_equal(op->kind, WSEL_RING_OP_PEERS);
    assert_string_equal(op->path, "$.ops[2]");
    assert_int_equal(op->n_keys, 3);
    assert_int_equal(op->hashes[1], 6);
    assert_null(op->floats);
    assert_int_equal(wsel_ring_scenario_op(sc, 4)->port, 80); /* the default */
    assert_null(wsel_ring_scenario_op(sc, 6));
    const wsel_ring_opts *o = wsel_ring_scenario_opts(sc);
    assert_int_equal(o->wheel_size, 15);
    assert_int_equal(o->n_hosts, 2);
    assert_null(o->dns.resolve);
    check_k4_run(sc, WSEL_RING_ENGINE_REF);
    check_k4_run(sc, WSEL_RING_ENGINE_FAST);
    check_k4_run(sc, WSEL_RING_ENGINE_REF); /* the runs changed nothing */

    /* the caller stops the run: its answer comes back, err untouched */
    seen s;
    memset(&s, 0, sizeof s);
    s.stop_at = 5;
    wsel_error_clear(&err);
    assert_int_equal(wsel_ring_scenario_run(sc, NULL, on_step, &s, &err), 42);
    assert_string_equal(s.kinds, "Bbppp");
    assert_int_equal(err.code, 0);
    assert_int_equal(wsel_ring_scenario_run(sc, NULL, NULL, NULL, &err), WSEL_OK);
    wsel_ring_run_opts bad = {(wsel_ring_engine)7, WSEL_RING_APPORTION_SCENARIO};
    assert_int_equal(wsel_ring_scenario_run(sc, &bad, NULL, NULL, &err), WSEL_E_ARG);
    wsel_ring_scenario_free(sc);
}

/* A dns op changes the run's resolver, not the scenario: every run starts from $.dns. */
static int first_address(void *ctx, const wsel_ring_step *st)
{
    char *out = ctx;
    wsel_ring_address a;
    wsel_ring_address_get(st->ring, 0, &a);
    if (st->kind == WSEL_RING_STEP_BUILT || st->kind == WSEL_RING_STEP_DONE)
        strcat(out, a.ip ? a.ip : "-"), strcat(out, " ");
    return 0;
}

static void test_scenario_dns(void **u)
{
    (void)u;
    static const char text[] =
        "{\"wheelSize\": 4, \"hosts\": [\"a.test\"],"
        " \"dns\": {\"a.test\": {\"A\": [{\"address\": \"10.0.0.1\"}]}},"
        " \"ops\": [{\"op\": \"dns\", \"name\": \"a.test\", \"A\": [{\"address\": \"10.0.0.2\"}]}]}";
    wsel_ring_scenario *sc;
    wsel_error err;
    assert_int_equal(wsel_ring_scenario_load_buffer(NULL, text, strlen(text), &sc, &err), WSEL_OK);
    char seq[128] = "";
    for (int run = 0; run < 2; run++)
        assert_int_equal(wsel_ring_scenario_run(sc, NULL, first_address, seq, &err), WSEL_OK);
    assert_string_equal(seq, "10.0.0.1 10.0.0.2 10.0.0.1 10.0.0.2 ");
    wsel_ring_scenario_free(sc);
}

/* ---- faults, where they are ---------------------------------------------------------------- */

/* Loads text (must succeed when run_code != 0) or expects the load's code; then checks
 * err: code, line, col and the start of the message. */
static void fault(const char *text, int load_code, int run_code, unsigned line, unsigned col,
                  const char *msg_start)
{
    wsel_ring_scenario *sc = NULL;
    wsel_error err;
    int rc = wsel_ring_scenario_load_buffer("t.json", text, strlen(text), &sc, &err);
    assert_int_equal(rc, load_code);
    if (rc == WSEL_OK) {
        rc = wsel_ring_scenario_run(sc, NULL, NULL, NULL, &err);
        assert_int_equal(rc, run_code);
    } else {
        assert_null(sc);
    }
    if (strncmp(err.message, msg_start, strlen(msg_start)) != 0)
        fail_msg("message '%s' does not start with '%s'", err.message, msg_start);
    assert_string_equal(err.file, "t.json");
    assert_int_equal(err.line, line);
    assert_int_equal(err.col, col);
    wsel_ring_scenario_free(sc);
}

/* Loads text[0..len) and expects it refused with code and a message starting with
 * msg_start (the JSON layer's words), at line 1 of t.json. */
static void refused(const char *text, size_t len, int code, const char *msg_start)
{
    wsel_ring_scenario *sc = NULL;
    wsel_error err;
    int rc = wsel_ring_scenario_load_buffer("t.json", text, len, &sc, &err);
    if (rc != code)
        fail_msg("'%s': status %d, expected %d (%s)", text, rc, code, rc ? err.message : "");
    assert_null(sc);
    if (strncmp(err.message, msg_start, strlen(msg_start)) != 0)
        fail_msg("message '%s' does not start with '%s'", err.message, msg_start);
    assert_string_equal(err.file, "t.json");
    assert_int_equal(err.line, 1);
}

#define REFUSED(lit, code, msg) refused(lit, sizeof lit - 1, code, msg)

/* The texts yajl (the reader's parser) would take and jansson (the JSON layer every
 * other reader uses, and this one used) refuses: the reader refuses them too, with the
 * JSON layer's message (doc/ring.md section 17). jansson's rules: strict UTF-8 (RFC 3629:
 * no overlong forms, no surrogates, nothing past U+10FFFF), JSON's four white-space
 * bytes only, no \u0000 (no JSON_ALLOW_NUL), surrogate escapes only in pairs, integers
 * in long long, reals in double, values nested at most 2048 deep, no repeated key. */
static void test_scenario_strict_json(void **u)
{
    (void)u;
    REFUSED("{\"hosts\": [\"a\xc0\xaf\"]}", WSEL_E_SYNTAX, "unable to decode byte 0xc0");
    REFUSED("{\"hosts\": [\"\xed\xa0\x80\"]}", WSEL_E_SYNTAX, "unable to decode byte 0xed");
    REFUSED("{\"hosts\": [\"\xed\xbf\xbf\"]}", WSEL_E_SYNTAX, "unable to decode byte 0xed");
    REFUSED("{\"hosts\": [\"\xf4\x90\x80\x80\"]}", WSEL_E_SYNTAX, "unable to decode byte 0xf4");
    REFUSED("{\"wheelSize\":\v3}", WSEL_E_SYNTAX, "");
    REFUSED("{\"wheelSize\": 3\f}", WSEL_E_SYNTAX, "");
    REFUSED("{\"hosts\": [\"a\\u0000b\"]}", WSEL_E_SYNTAX, "\\u0000 is not allowed");
    REFUSED("{\"dns\": {\"a\\u0000\": {\"fail\": \"timeout\"}}}", WSEL_E_SYNTAX,
            "NUL byte in object key");
    REFUSED("{\"hosts\": [\"\\uDC00\"]}", WSEL_E_SYNTAX, "invalid Unicode '\\uDC00'");
    REFUSED("{\"hosts\": [\"x\\ud800\"]}", WSEL_E_SYNTAX, "invalid Unicode '\\uD800'");
    REFUSED("{\"hosts\": [\"\\uD800\\u0041\"]}", WSEL_E_SYNTAX,
            "invalid Unicode '\\uD800\\u0041'");
    REFUSED("{\"ops\": [{\"op\": \"retry\", \"hash\": 9223372036854775808, \"count\": 1}]}",
            WSEL_E_RANGE, "too big integer");
    REFUSED("{\"ops\": [{\"op\": \"advance\", \"seconds\": -9223372036854775809}]}",
            WSEL_E_RANGE, "too big negative integer");
    REFUSED("{\"requery\": 1e400}", WSEL_E_RANGE, "real number overflow");
    REFUSED("{\"requery\": 1}\"", WSEL_E_SYNTAX, "");
    REFUSED("{\"requery\": 1} {", WSEL_E_SYNTAX, "");
    /* a repeated key: in a small object, in a large one (hashed), and spelt otherwise */
    REFUSED("{\"dns\": {\"a.test\": {\"fail\": \"timeout\", \"fail\": \"timeout\"}}}",
            WSEL_E_DUPKEY, "$.dns[\"a.test\"]: duplicate key 'fail'");
    char big[2048] = "{\"dns\": {";
    for (int i = 0; i < 40; i++)
        sprintf(big + strlen(big), "\"n%d.test\": {\"fail\": \"timeout\"}, ", i == 33 ? 3 : i);
    strcpy(big + strlen(big) - 2, "}}");
    refused(big, strlen(big), WSEL_E_DUPKEY, "$.dns: duplicate key 'n3.test'");
    /* past 512 members the hash of member names grows (from 1024 slots, kept at most half
     * full) and its entries move: each of the first names entered still finds its repeat */
    static char huge[32768];
    for (int rep = 0; rep < 12; rep++) {
        int len = sprintf(huge, "{\"dns\": {");
        for (int i = 0; i < 600; i++)
            len += sprintf(huge + len, "\"n%d.test\": {\"fail\": \"timeout\"}, ", i);
        len += sprintf(huge + len, "\"n%d.test\": {\"fail\": \"timeout\"}}}", rep);
        char msg[64];
        snprintf(msg, sizeof msg, "$.dns: duplicate key 'n%d.test'", rep);
        refused(huge, (size_t)len, WSEL_E_DUPKEY, msg);
    }
    REFUSED("{\"dns\": {\"a.test\": {\"fail\": \"timeout\"}, \"\\u0061.test\": {\"fail\": \"timeout\"}}}",
            WSEL_E_DUPKEY, "$.dns: duplicate key 'a.test'");
    /* values nest 2048 deep, the root being 1: "x"'s 2047 arrays read (and "x" is
     * unknown), 2048 do not */
    static char deep[8192];
    for (int n = 2047; n <= 2048; n++) {
        int len = sprintf(deep, "{\"x\": ");
        for (int i = 0; i < n; i++)
            deep[len++] = '[';
        for (int i = 0; i < n; i++)
            deep[len++] = ']';
        deep[len++] = '}';
        if (n == 2047)
            refused(deep, (size_t)len, WSEL_E_SYNTAX, "$.x: unknown key 'x'");
        else
            refused(deep, (size_t)len, WSEL_E_LIMIT, "maximum parsing depth reached");
    }
    /* and one text jansson reads and yajl does not: a NUL byte right after a number or a
     * literal is dropped by jansson's one-byte look-ahead (its lexer ungets it and then
     * takes the NUL for the end of its buffer); anywhere else a NUL is refused */
    static const char nul[] = "{\"wheelSize\": 3\0, \"strict\": true\0}";
    wsel_ring_scenario *sn;
    wsel_error en;
    assert_int_equal(wsel_ring_scenario_load_buffer("t.json", nul, sizeof nul - 1, &sn, &en),
                     WSEL_OK);
    assert_int_equal(wsel_ring_scenario_opts(sn)->wheel_size, 3);
    assert_true(wsel_ring_scenario_opts(sn)->strict);
    wsel_ring_scenario_free(sn);
    REFUSED("{\"wheelSize\": 3 \0}", WSEL_E_SYNTAX, "");
    REFUSED("{\"wheelSize\": 3\0\0}", WSEL_E_SYNTAX, "");
    REFUSED("{\"hosts\": [\"a1\0\"]}", WSEL_E_SYNTAX, "");
    /* what both read: escapes decoded alike (U+00E9, and U+1F600 from its surrogate pair) */
    static const char ok[] = "{\"hosts\": [\"h\\u00e9.test\", \"\\ud83d\\ude00.test\", \"\\/x\"]}";
    wsel_ring_scenario *sc;
    wsel_error err;
    assert_int_equal(wsel_ring_scenario_load_buffer("t.json", ok, strlen(ok), &sc, &err), WSEL_OK);
    const wsel_ring_opts *o = wsel_ring_scenario_opts(sc);
    assert_int_equal(o->n_hosts, 3);
    assert_string_equal(o->hosts[0].name, "h\xc3\xa9.test");
    assert_string_equal(o->hosts[1].name, "\xf0\x9f\x98\x80.test");
    assert_string_equal(o->hosts[2].name, "/x");
    wsel_ring_scenario_free(sc);
}

static void test_scenario_faults(void **u)
{
    (void)u;
    /* the text */
    fault("{\"wheelSize\": 3,\n", WSEL_E_SYNTAX, 0, 2, 1, "string or '}' expected");
    fault("{\"wheelSize\": 3, \"wheelSize\": 4}", WSEL_E_DUPKEY, 0, 1, 18, "$: duplicate key");
    fault("[1]", WSEL_E_TYPE, 0, 1, 1, "$: expected an object");
    /* values: the path of the value, names that are no identifiers in brackets */
    fault("{\"wheelSize\": 3.0}", WSEL_E_TYPE, 0, 1, 15,
          "$.wheelSize: expected an integer in 1..16777216, got 3.0");
    fault("{\"dns\": {\"a.test\": {\"fail\": \"refused\"}}}", WSEL_E_RANGE, 0, 1, 29,
          "$.dns[\"a.test\"].fail: expected \"nxdomain\"");
    fault("{\"ops\": [{\"op\": \"add\", \"name\": \"x\", \"wieght\": 3}]}", WSEL_E_SYNTAX, 0, 1,
          37, "$.ops[0].wieght: unknown key 'wieght' (did you mean 'weight'?)");
    /* the bounds are the reader's, at load (the ring would refuse weight 0 only at build) */
    fault("{\"hosts\": [{\"name\": \"a.test\", \"weight\": 0}]}", WSEL_E_RANGE, 0, 1, 41,
          "$.hosts[0].weight: expected an integer in 1..");
    fault("{\"ops\": [{\"op\": \"peers\", \"floats\": [0.5, 1.0]}]}", WSEL_E_RANGE, 0, 1, 42,
          "$.ops[0].floats[1]: expected a number in [0,1)");
    /* {1 "2 requery3-9 "10 :11 ' '12 0 13; the second time a number but not > 0 */
    fault("{\"requery\": 0}", WSEL_E_RANGE, 0, 1, 13, "$.requery: expected a number of seconds > 0");
    fault("{\"ttl0\": -1.5}", WSEL_E_RANGE, 0, 1, 10, "$.ttl0: expected a number of seconds > 0");
    /* refusals by the ring, at what caused them */
    fault("{\"order\": [3, 1, 3]}", WSEL_OK, WSEL_E_RANGE, 1, 11,
          "$.order: ring: the 'order' list contains duplicates (entries 1 and 3)");
    fault("{\"ops\": [{\"op\": \"snapshot\"},\n"
          "         {\"op\": \"hoststatus\", \"name\": \"a.test\", \"available\": false}]}",
          WSEL_OK, WSEL_E_REFERENCE, 2, 10, "$.ops[1]: ring: no host 'a.test' with port 80");
}

/* What the END steps of a run said: per op its status and message. */
typedef struct ends {
    int status[8];
    char message[8][1024];
    size_t n;
    char picks[8][128];
    size_t npicks;
} ends;

static int on_end(void *ctx, const wsel_ring_step *st)
{
    ends *e = ctx;
    if (st->kind == WSEL_RING_STEP_END && e->n < 8) {
        assert_true((st->status == WSEL_OK) == (st->error == NULL));
        e->status[e->n] = st->status;
        snprintf(e->message[e->n++], sizeof e->message[0], "%s",
                 st->error ? st->error->message : "");
    }
    if (st->kind == WSEL_RING_STEP_PICK && e->npicks < 8)
        snprintf(e->picks[e->npicks++], sizeof e->picks[0], "%s:%u", st->peer->ip,
                 st->peer->port);
    return 0;
}

/* 5.2.3's setAddressStatus compares the address text, and an AAAA address is stored in
 * brackets: "::1" finds nothing; an address that is not there is an error result of that
 * op, and the run goes on (doc/ring.md section 11). Written from 5.2.3's rule: ops 0 and
 * 1 fail, op 2 marks v6.test's address down, so the round-robin picks of op 3 all land
 * on 10.0.0.1 (slots 1 and 2 of 2, either owner falls through to it). */
static void test_scenario_status_miss(void **u)
{
    (void)u;
    static const char text[] =
        "{\"wheelSize\": 2,\n"
        " \"hosts\": [{\"name\": \"v6.test\"}, {\"name\": \"10.0.0.1\"}],\n"
        " \"dns\": {\"v6.test\": {\"AAAA\": [{\"address\": \"::1\"}]}},\n"
        " \"ops\": [{\"op\": \"status\", \"ip\": \"10.0.0.7\", \"available\": false},\n"
        "         {\"op\": \"status\", \"ip\": \"::1\", \"hostname\": \"v6.test\", \"available\": false},\n"
        "         {\"op\": \"status\", \"ip\": \"[::1]\", \"hostname\": \"v6.test\", \"available\": false},\n"
        "         {\"op\": \"rr\", \"count\": 2}]}\n";
    wsel_ring_scenario *sc = NULL;
    wsel_error err;
    assert_int_equal(wsel_ring_scenario_load_buffer("t.json", text, strlen(text), &sc, &err),
                     WSEL_OK);
    for (int engine = WSEL_RING_ENGINE_REF; engine <= WSEL_RING_ENGINE_FAST; engine++) {
        wsel_ring_run_opts ro = {(wsel_ring_engine)engine, WSEL_RING_APPORTION_SCENARIO};
        ends e;
        memset(&e, 0, sizeof e);
        assert_int_equal(wsel_ring_scenario_run(sc, &ro, on_end, &e, &err), WSEL_OK);
        assert_int_equal(e.n, 4);
        assert_int_equal(e.status[0], WSEL_E_ARG);
        assert_string_equal(e.message[0],
                            "ring: no peer found by name '10.0.0.7' and address 10.0.0.7:80");
        assert_int_equal(e.status[1], WSEL_E_ARG);
        assert_string_equal(e.message[1],
                            "ring: no peer found by name 'v6.test' and address ::1:80");
        assert_int_equal(e.status[2], WSEL_OK);
        assert_int_equal(e.status[3], WSEL_OK);
        assert_int_equal(e.npicks, 2);
        assert_string_equal(e.picks[0], "10.0.0.1:80");
        assert_string_equal(e.picks[1], "10.0.0.1:80");
    }
    wsel_ring_scenario_free(sc);
}

static void test_scenario_files(void **u)
{
    (void)u;
    wsel_ring_scenario *sc = NULL;
    wsel_error err;
    assert_int_equal(wsel_ring_scenario_load_file("/proc/self/mem", &sc, &err), WSEL_E_IO);
    assert_non_null(strstr(err.message, "cannot read scenario '/proc/self/mem': "));
    assert_int_equal(wsel_ring_scenario_load_file("/", &sc, &err), WSEL_E_IO);
    assert_non_null(strstr(err.message, "is a directory"));
    assert_int_equal(wsel_ring_scenario_load_file("/nonexistent/x.json", &sc, &err), WSEL_E_IO);
    assert_non_null(strstr(err.message, "No such file or directory"));
    assert_null(sc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_null_handles),
        cmocka_unit_test(test_refusals_and_edges),
        cmocka_unit_test(test_bad_answers),
        cmocka_unit_test(test_scenario_runs),
        cmocka_unit_test(test_scenario_dns),
        cmocka_unit_test(test_scenario_faults),
        cmocka_unit_test(test_scenario_strict_json),
        cmocka_unit_test(test_scenario_status_miss),
        cmocka_unit_test(test_scenario_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
