/* Readers pick from one ring fast engine while a writer changes the ring and syncs. Run
 * it under ThreadSanitizer too (`make tsan`).
 *
 * Before each sync the writer records, for every start slot, what the reference pick
 * (cache_only, so it changes nothing) answers on the ring it is about to publish: the
 * slot landed on and the address's last octet, or the outcome. A reader's hashed or
 * float pick must equal the record of one published state -- a whole change, never half
 * of one. Round-robin picks run beside them and must name one of the hosts. The test
 * runs in rounds: readers start, the writer syncs, readers stop, and the writer reclaims
 * (its quiescent point), so later rounds reuse reclaimed views by replaying the log.
 * Of every three picks one copies, one is a view pick (wsel_ring_fast_pick_view) and one
 * an inline one (wsel_ring_fast_pick_view_inline; for round-robin, the reader's own
 * cursor, wsel_ring_fast_pick_rr_inline), whose targets the reader reads while the writer
 * goes on. A cursor pick from slot c answers what a hashed pick starting at c answers (the
 * first available slot from c on), so it is held to the same records, and the cursor
 * must stand one past the slot taken. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>

#include <cmocka.h>

#include "ring_mock.h"
#include "support/support.h"

#define N 1000u          /* slots: not a multiple of 64 */
#define HOSTS 9
#define READERS 3
#define ROUNDS 6
#define SYNCS 40         /* per round */
#define MIN_PICKS 1500   /* per reader and round */

typedef struct shared {
    wsel_ring_fast *f;
    uint32_t (*table)[N + 1];   /* table[t][start slot]: the answer coded by code() */
    atomic_uint published;      /* tables 0 .. published - 1 may be in use */
    atomic_bool stop;
} shared;

typedef struct reader {
    shared *sh;
    uint64_t seed;
    unsigned long picks, bad;
} reader;

/* slot * 16 + last octet of a peer (hosts are 10.0.0.1 .. 10.0.0.9), else the outcome. */
static uint32_t code(const wsel_ring_peer *p)
{
    if (p->outcome != WSEL_RING_PEER)
        return (uint32_t)p->outcome;
    const char *dot = strrchr(p->ip, '.');
    return p->slot * 16 + (uint32_t)atoi(dot ? dot + 1 : "0");
}

/* code() of a view pick. */
static uint32_t view_code(const wsel_ring_view_pick *vp)
{
    if (vp->outcome != WSEL_RING_PEER)
        return (uint32_t)vp->outcome;
    const char *dot = strrchr(vp->target->ip, '.');
    return vp->slot * 16 + (uint32_t)atoi(dot ? dot + 1 : "0");
}

static void *reader_main(void *arg)
{
    reader *rd = arg;
    shared *sh = rd->sh;
    uint64_t st = rd->seed;
    uint32_t cursor = 1 + (uint32_t)(rd->seed % N); /* this reader's own */
    for (unsigned long q = 0; q < MIN_PICKS || !atomic_load(&sh->stop); q++) {
        wsel_ring_handle h = {.mode = (wsel_ring_mode)wsel_kit_range(&st, 0, 2)};
        uint32_t start = (uint32_t)wsel_kit_range(&st, 1, N);
        h.hash = start - 1 + N * wsel_kit_range(&st, 0, 1000);
        h.u = ((double)start - 1 + 0.5) / N;
        /* view and inline picks' targets read here, beside the writer (valid until the
         * writer's reclaim after this round) */
        wsel_ring_peer p;
        wsel_ring_view_pick vp;
        const unsigned kind = (unsigned)(q % 3); /* copy, view, inline */
        const bool own = kind == 2 && h.mode == WSEL_RING_RR;
        const uint32_t from = cursor;
        int rc = kind == 0 ? wsel_ring_fast_pick(sh->f, &h, true, &p, NULL)
                 : kind == 1 ? wsel_ring_fast_pick_view(sh->f, &h, true, &vp, NULL)
                 : own       ? wsel_ring_fast_pick_rr_inline(sh->f, &cursor, true, &vp, NULL)
                             : wsel_ring_fast_pick_view_inline(sh->f, &h, true, &vp, NULL);
        if (rc != WSEL_OK) {
            rd->bad++;
            continue;
        }
        rd->picks++;
        uint32_t c = kind ? view_code(&vp) : code(&p);
        if (h.mode == WSEL_RING_RR && !own) {
            if (c >= 16 && (c % 16 < 1 || c % 16 > HOSTS))
                rd->bad++;
            continue;
        }
        if (own) {
            start = from;
            rd->bad += cursor != (vp.outcome == WSEL_RING_PEER       ? vp.slot % N + 1
                                  : vp.outcome == WSEL_RING_NO_PEERS ? from % N + 1
                                                                     : from);
        }
        unsigned pub = atomic_load(&sh->published);
        bool seen = false;
        for (unsigned t = 0; t < pub && !seen; t++)
            seen = sh->table[t][start] == c;
        rd->bad += !seen;
    }
    return NULL;
}

static void record(wsel_ring *r, uint32_t *row)
{
    for (uint32_t s = 1; s <= N; s++) {
        wsel_ring_handle h = {.mode = WSEL_RING_HASH, .hash = s - 1};
        wsel_ring_peer p;
        assert_int_equal(wsel_ring_pick(r, &h, true, &p, NULL), WSEL_OK);
        row[s] = code(&p);
    }
}

static void test_readers_beside_writer(void **u)
{
    (void)u;
    mock m = {0};
    wsel_ring_opts o = mock_opts(&m, N);
    wsel_ring *r = NULL;
    assert_int_equal(wsel_ring_new(&o, &r, NULL), WSEL_OK);
    shared sh;
    unsigned rounds = wsel_kit_under_valgrind() ? 2 : ROUNDS;
    sh.table = calloc((size_t)rounds * SYNCS + 1, sizeof *sh.table);
    assert_non_null(sh.table);
    assert_int_equal(wsel_ring_fast_new(r, &sh.f, NULL), WSEL_OK);
    record(r, sh.table[0]);
    atomic_init(&sh.published, 1);
    uint64_t st = 99;
    unsigned long picks = 0;
    for (unsigned round = 0; round < rounds; round++) {
        atomic_init(&sh.stop, false);
        reader rd[READERS];
        pthread_t th[READERS];
        for (int i = 0; i < READERS; i++) {
            rd[i] = (reader){&sh, 1000 * round + (uint64_t)i + 1, 0, 0};
            assert_int_equal(pthread_create(&th[i], NULL, reader_main, &rd[i]), 0);
        }
        for (unsigned k = 0; k < SYNCS; k++) {
            /* a change: add or re-weight, remove, or flip a host's availability */
            char name[32];
            unsigned j = (unsigned)wsel_kit_range(&st, 1, HOSTS);
            snprintf(name, sizeof name, "10.0.0.%u", j);
            uint64_t op = wsel_kit_range(&st, 0, 5);
            if (op <= 2)
                assert_int_equal(wsel_ring_add_host(r, name, 80,
                                                    (uint32_t)wsel_kit_range(&st, 1, 100), NULL),
                                 WSEL_OK);
            else if (op == 3)
                assert_int_equal(wsel_ring_remove_host(r, name, 80, NULL, NULL), WSEL_OK);
            else
                wsel_ring_set_host_status(r, name, 80, op == 5, NULL); /* unknown host: no-op */
            unsigned t = atomic_load(&sh.published);
            record(r, sh.table[t]);
            atomic_store(&sh.published, t + 1); /* before the view it describes */
            assert_int_equal(wsel_ring_fast_sync(sh.f, NULL), WSEL_OK);
        }
        atomic_store(&sh.stop, true);
        for (int i = 0; i < READERS; i++) {
            assert_int_equal(pthread_join(th[i], NULL), 0);
            if (rd[i].bad)
                fail_msg("round %u reader %d: %lu of %lu picks match no published state",
                         round, i, rd[i].bad, rd[i].picks);
            picks += rd[i].picks;
        }
        wsel_ring_fast_reclaim(sh.f); /* no reader inside a pick now */
        wsel_error err;
        if (wsel_ring_fast_check(sh.f, &err) != WSEL_OK)
            fail_msg("%s", err.message);
    }
    printf("# %lu picks beside %u syncs\n", picks, rounds * SYNCS);
    wsel_ring_fast_free(sh.f);
    wsel_ring_free(r);
    free(sh.table);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_readers_beside_writer),
    };
    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests_name("ring_fast_threads", tests, NULL, NULL);
}
