/* The ring's cost does not grow with the square of its hosts where 5.2.3's rules do not
 * make it (issue 25, "Memory and cost"; doc/ring.md sections 5 and 17): finding a host
 * or a scenario's DNS answer by name examines a bounded number of entries, and a
 * redistribution counts only the addresses from the first that can get a slot. The work
 * is counted by the library itself (wsel__ring_cost), so the tests judge the algorithm,
 * not the clock, and cannot be flaky. The last test holds the skipping redistribution to
 * an independent model of section 5, written here from doc/ring.md, slot for slot. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "wsel.h"
#include "kit/kit.h"
#include "../core/ring/ring_model.h"


/* ---- lookups by name ------------------------------------------------------------------ */

#define NAMES 4096
#define NOPS 1024

static size_t put(char *s, size_t cap, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    n += (size_t)vsnprintf(s + n, cap - n, fmt, ap);
    va_end(ap);
    assert_true(n < cap);
    return n;
}

/* NAMES hosts by DNS name at construction, then NOPS ops that each look a name up:
 * adds of new names, hoststatus, status, dns answers and removes. */
static char *names_scenario(void)
{
    size_t cap = 200 * (NAMES + NOPS) + 512, n = 0;
    char *s = malloc(cap);
    assert_non_null(s);
    n = put(s, cap, n, "{\"wheelSize\": 1000, \"hosts\": [");
    for (int i = 0; i < NAMES; i++)
        n = put(s, cap, n, "%s{\"name\": \"h%d.test\"}", i ? "," : "", i);
    n = put(s, cap, n, "],\n\"dns\": {");
    for (int i = 0; i < NAMES + NOPS; i++)
        n = put(s, cap, n, "%s\"h%d.test\": {\"A\": [{\"address\": \"10.%d.%d.1\"}]}",
                i ? "," : "", i, i / 250, i % 250);
    n = put(s, cap, n, "},\n\"ops\": [");
    for (int i = 0; i < NOPS; i++) {
        const char *sep = i ? ",\n" : "";
        int h = (i * 7) % NAMES;
        switch (i % 5) {
        case 0:
            n = put(s, cap, n, "%s{\"op\": \"add\", \"name\": \"h%d.test\"}", sep, NAMES + i);
            break;
        case 1:
            n = put(s, cap, n, "%s{\"op\": \"hoststatus\", \"name\": \"h%d.test\", "
                    "\"available\": false}", sep, h);
            break;
        case 2:
            n = put(s, cap, n, "%s{\"op\": \"status\", \"ip\": \"10.%d.%d.1\", \"hostname\": "
                    "\"h%d.test\", \"available\": false}", sep, h / 250, h % 250, h);
            break;
        case 3:
            n = put(s, cap, n, "%s{\"op\": \"dns\", \"name\": \"h%d.test\", "
                    "\"A\": [{\"address\": \"10.255.0.%d\"}]}", sep, h, 1 + i % 200);
            break;
        default:
            n = put(s, cap, n, "%s{\"op\": \"remove\", \"name\": \"h%d.test\"}", sep, h);
            break;
        }
    }
    put(s, cap, n, "]}\n");
    return s;
}

/* Before the host index and the hashed answer table, every lookup walked every host or
 * name: about NAMES^2 / 2 entries examined for the build alone. */
static void test_lookups_bounded(void **state)
{
    (void)state;
    char *text = names_scenario();
    wsel_error err;
    wsel_ring_scenario *sc = NULL;
    assert_int_equal(wsel_ring_scenario_load_buffer("names", text, strlen(text), &sc, &err),
                     WSEL_OK);
    uint64_t before = wsel__ring_cost(WSEL__RING_EXAMINED);
    assert_int_equal(wsel_ring_scenario_run(sc, NULL, NULL, NULL, &err), WSEL_OK);
    uint64_t examined = wsel__ring_cost(WSEL__RING_EXAMINED) - before;
    /* each host and op looks up at most 4 names (dns: the answer, the hosts twice, the
     * re-query); a lookup examines a few entries of one bucket on average */
    uint64_t lookups = 2 * (uint64_t)NAMES + 4 * (uint64_t)NOPS;
    print_message("lookups: %llu entries examined for %llu lookups\n",
                  (unsigned long long)examined, (unsigned long long)lookups);
    assert_true(examined <= 4 * lookups);
    wsel_ring_scenario_free(sc);
    free(text);
}

/* ---- addresses counted ---------------------------------------------------------------- */

#define BIG_HOSTS 8192
#define SMALL_WHEEL 100

static void literal(uint32_t i, char *buf, size_t len)
{
    snprintf(buf, len, "10.%u.%u.%u", i >> 16, (i >> 8) & 255, i & 255);
}

/* Many more addresses than slots: 5.2.3 counts every address at every add (about
 * BIG_HOSTS^2 / 2 = 33.5 M); the first ones cannot get a slot and are skipped, so an
 * add counts about the addresses that share the wheel (here some 2 N: weights 1..100). */
static void test_counted_bounded(void **state)
{
    (void)state;
    wsel_ring_opts o;
    wsel_ring_opts_init(&o);
    o.dns.resolve = wsel_kit_ring_literals_only;
    o.wheel_size = SMALL_WHEEL;
    wsel_ring *r = NULL;
    wsel_error err;
    assert_int_equal(wsel_ring_new(&o, &r, &err), WSEL_OK);
    uint64_t st = 5, before = wsel__ring_cost(WSEL__RING_COUNTED);
    for (uint32_t i = 0; i < BIG_HOSTS; i++) {
        char name[32];
        literal(i, name, sizeof name);
        uint32_t w = (uint32_t)wsel_kit_range(&st, 1, 100);
        assert_int_equal(wsel_ring_add_host(r, name, 80, w, &err), WSEL_OK);
    }
    uint64_t counted = wsel__ring_cost(WSEL__RING_COUNTED) - before;
    print_message("counted: %llu addresses over %d adds\n", (unsigned long long)counted,
                  BIG_HOSTS);
    assert_true(counted <= (uint64_t)BIG_HOSTS * 4 * SMALL_WHEEL);
    assert_int_equal(wsel_ring_check(r, &err), WSEL_OK);
    wsel_ring_free(r);
}

/* ---- the skipping redistribution is section 5's ---------------------------------------- */

/* Section 5 as doc/ring.md writes it, over every address, with a slot stack per address
 * and the free stack (order[N] on top at the start). */
typedef struct model {
    uint32_t n, nfree, *free;
    size_t na;
    uint32_t *w, *cnt, *cap, **st;
} model;

static void model_redistribute(model *m)
{
    double W = 0;
    uint32_t L = m->n, *c = calloc(m->na + 1, sizeof *c);
    assert_non_null(c);
    for (size_t i = 0; i < m->na; i++)
        W += m->w[i];
    for (size_t i = 0; i < m->na; i++) {
        c[i] = W == 0 ? 0 : (uint32_t)((double)L * ((double)m->w[i] / W) + 0.0001);
        while (m->cnt[i] > c[i])
            m->free[m->nfree++] = m->st[i][--m->cnt[i]];
        L -= c[i];
        W -= m->w[i];
    }
    for (size_t i = 0; i < m->na; i++)
        while (m->cnt[i] < c[i] && m->nfree > 0) {
            if (m->cnt[i] == m->cap[i]) {
                m->cap[i] = 2 * m->cap[i] + 4;
                m->st[i] = realloc(m->st[i], m->cap[i] * sizeof **m->st);
                assert_non_null(m->st[i]);
            }
            m->st[i][m->cnt[i]++] = m->free[--m->nfree];
        }
    free(c);
}

static void model_add(model *m, uint32_t w)
{
    m->w[m->na] = w;
    m->cnt[m->na] = m->cap[m->na] = 0;
    m->st[m->na] = NULL;
    m->na++;
    model_redistribute(m);
}

static void model_remove(model *m, size_t k)
{
    m->w[k] = 0;
    model_redistribute(m);
    free(m->st[k]);
    memmove(&m->w[k], &m->w[k + 1], (m->na - k - 1) * sizeof *m->w);
    memmove(&m->cnt[k], &m->cnt[k + 1], (m->na - k - 1) * sizeof *m->cnt);
    memmove(&m->cap[k], &m->cap[k + 1], (m->na - k - 1) * sizeof *m->cap);
    memmove(&m->st[k], &m->st[k + 1], (m->na - k - 1) * sizeof *m->st);
    m->na--;
}

static void same(const wsel_ring *r, const model *m, uint32_t *buf)
{
    assert_int_equal(wsel_ring_address_count(r), m->na);
    for (size_t i = 0; i < m->na; i++) {
        wsel_ring_address a;
        wsel_ring_address_get(r, i, &a);
        assert_int_equal(a.n_slots, m->cnt[i]);
        wsel_ring_address_slots(r, i, buf);
        assert_memory_equal(buf, m->st[i], m->cnt[i] * sizeof *buf);
    }
}

/* hosts IP literals of weights lo..hi added one by one to an n-slot wheel, then every
 * third host from the start removed, each step against the model */
static void run_model_case(uint32_t n, uint32_t hosts, uint32_t lo, uint32_t hi, uint64_t seed)
{
    model m = {.n = n, .nfree = n};
    m.free = malloc(n * sizeof *m.free);
    m.w = malloc(hosts * sizeof *m.w);
    m.cnt = malloc(hosts * sizeof *m.cnt);
    m.cap = malloc(hosts * sizeof *m.cap);
    m.st = malloc(hosts * sizeof *m.st);
    uint32_t *buf = malloc(n * sizeof *buf);
    uint8_t *gone = calloc(hosts, 1);
    assert_true(m.free && m.w && m.cnt && m.cap && m.st && buf && gone);
    wsel_error err;
    assert_int_equal(wsel_ring_default_order(n, m.free, &err), WSEL_OK);
    wsel_ring_opts o;
    wsel_ring_opts_init(&o);
    o.dns.resolve = wsel_kit_ring_literals_only;
    o.wheel_size = n;
    wsel_ring *r = NULL;
    assert_int_equal(wsel_ring_new(&o, &r, &err), WSEL_OK);
    for (uint32_t i = 0; i < hosts; i++) {
        char name[32];
        uint32_t w = (uint32_t)wsel_kit_range(&seed, lo, hi);
        literal(i, name, sizeof name);
        assert_int_equal(wsel_ring_add_host(r, name, 80, w, &err), WSEL_OK);
        model_add(&m, w);
        if (i % 97 == 0 || i + 1 == hosts)
            same(r, &m, buf);
    }
    for (uint32_t i = 0; i < hosts; i += 3) {
        char name[32];
        size_t k = 0; /* the host's position among those left */
        for (uint32_t j = 0; j < i; j++)
            k += !gone[j];
        literal(i, name, sizeof name);
        assert_int_equal(wsel_ring_remove_host(r, name, 80, NULL, &err), WSEL_OK);
        model_remove(&m, k);
        gone[i] = 1;
        if (i % 31 == 0)
            same(r, &m, buf);
    }
    same(r, &m, buf);
    assert_int_equal(wsel_ring_check(r, &err), WSEL_OK);
    wsel_ring_free(r);
    for (size_t i = 0; i < m.na; i++)
        free(m.st[i]);
    free(m.free);
    free(m.w);
    free(m.cnt);
    free(m.cap);
    free(m.st);
    free(buf);
    free(gone);
}

static void test_skip_is_section5(void **state)
{
    (void)state;
    run_model_case(64, 1500, 1, 100, 1);     /* most addresses skipped, mixed weights */
    run_model_case(7, 400, 1, 3, 2);         /* a tiny wheel, ties */
    run_model_case(1000, 1200, 10, 10, 3);   /* equal weights: the tail is about N */
    run_model_case(50, 600, 1, 65535, 4);    /* weights far apart */
    /* 9999 slots, 10001 equal weights: the address with 10000 weight from it on gets a
     * slot only through the + 0.0001 (9999 * (1 / 10000) + 0.0001 is 1.0 in doubles),
     * so skipping must keep it */
    run_model_case(9999, 10001, 1, 1, 5);
}

/* ---- the batch build's interleaved counts (doc/ring.md section 2) ----------------------- */

/* `hosts` IP literals of weights lo..hi given at construction (the one at `again`, if
 * below hosts, given a second time at the end with another weight, which ends the batch
 * there): the batch build's state is the one-by-one build's (wsel__ring_new with batch
 * false, ring_model.c's own redistribution). */
static void batch_case(uint32_t n, uint32_t hosts, uint32_t lo, uint32_t hi, uint32_t again,
                       uint64_t seed)
{
    uint32_t nspec = hosts + (again < hosts);
    wsel_ring_host_spec *spec = calloc(nspec, sizeof *spec);
    char(*names)[32] = calloc(nspec, sizeof *names);
    assert_true(spec && names);
    for (uint32_t i = 0; i < nspec; i++) {
        literal(i < hosts ? i : again, names[i], sizeof names[i]);
        spec[i] = (wsel_ring_host_spec){names[i], 80, (int64_t)wsel_kit_range(&seed, lo, hi)};
    }
    wsel_ring_opts o;
    wsel_kit_ring_literal_opts(&o, n, spec, nspec);
    wsel_ring *batch = NULL, *one = NULL;
    assert_int_equal(wsel_ring_new(&o, &batch, NULL), WSEL_OK);
    assert_int_equal(wsel__ring_new(&o, false, &one, NULL), WSEL_OK);
    char why[256];
    const char *d = wsel_kit_ring_same_state(batch, one, why, sizeof why);
    if (d)
        fail_msg("%u hosts on %u slots: batch and one by one differ: %s", hosts, n, d);
    wsel_ring_free(batch);
    wsel_ring_free(one);
    free(spec);
    free(names);
}

/* The batch build counts eight adds side by side, each from its own first counted
 * address: where many addresses get nothing those starts differ within a group, so each
 * lane runs alone up to the latest start, and alone again past the first add's end;
 * a batch of 1..7 adds left over is counted one add at a time. */
static void test_batch_lanes(void **state)
{
    (void)state;
    batch_case(8, 300, 1, 100, 300, 11);      /* starts differ in nearly every group */
    batch_case(5, 200, 1, 3, 300, 12);        /* a tiny wheel, ties */
    batch_case(1000, 257, 1, 65535, 300, 13); /* every address counted; 1 add left over */
    batch_case(64, 130, 50, 50, 300, 14);     /* equal weights */
    for (uint32_t h = 1; h <= 17; h++)        /* 0..7 adds past the last group */
        batch_case(1000, h, 1, 100, 300, 15 + h);
    batch_case(16, 41, 1, 100, 7, 30);        /* a host given twice ends the batch at 41 */
    batch_case(16, 10, 1, 100, 2, 31);        /* ... at 10: one group and 2 adds */
    batch_case(3, 150, 1, 100, 149, 32);      /* ... its first mention the last add */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lookups_bounded),
        cmocka_unit_test(test_counted_bounded),
        cmocka_unit_test(test_skip_is_section5),
        cmocka_unit_test(test_batch_lanes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
