/* The benchmark matrix. Every case builds its config as stanza TEXT and loads it with
 * wsel_config_load_buffer(), so the figures include nothing the loader would not see
 * from a real file.
 *
 *   select/<engine>/<case>/<size>/<state>   one query per iteration
 *   state/fast/<case>/<size>                one wsel_state_set + wsel_resolver_sync
 *                                           (+ wsel_resolver_reclaim)
 *   load/mixed/<N>[/+resolver]              load (and bind) a config of N resources
 *   mt/fast/<case>/<size>/<flip>            queries from 1 or 2 threads while a third
 *                                           thread changes monitoring state
 *   threads/<engine>/<case>/<size>/up       queries from 1 or 2 threads, no writer
 *   gen/<system>/<engine>                   one query per iteration over the targets of
 *                                           a generated case of every system in the kit's
 *                                           table (tests/kit/kit_system.h), every variant
 *
 * Fixtures are built on first use, so registering the whole matrix costs nothing and a
 * --benchmark_filter run builds only what it runs. */
#include "cases.h"
#include "shim.h"
#include "kit/kit.h"
#include "kit/kit_system.h"

#include <wsel.h>

#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* K_DUAL_MULTI: addrs_v4 and addrs_v6 stanzas, both ungrouped multi, `per` items each.
 * K_EMPTY: a query with no set to answer -- the resource of a one-item config with its
 * sets taken away (n_sets 0), which every engine refuses (WSEL_E_ARG) after the part of
 * the fixed cost every query pays: the call, the argument checks, the variant's entry
 * and (fast) the snapshot lookup. Its floor draws no word. */
enum { K_UNG_SINGLE, K_UNG_MULTI, K_GRP_SINGLE, K_GRP_MULTI, K_CNAME, K_DUAL_MULTI, K_EMPTY,
       K_COUNT };
static const char *const kind_names[K_COUNT] = {
    "ungrouped-single", "ungrouped-multi", "grouped-single", "grouped-multi", "cname",
    "dual-multi", "empty"};

enum { S_UP, S_DOWN25, S_RESET, S_COUNT };
static const char *const state_names[S_COUNT] = {"up", "down25", "reset"};

/* Engine slots of the select matrix: an index into the variant names the kit lists
 * (wsel_kit_variants: ref, fast and each fast variant this CPU runs), or FLOOR, which
 * draws the words and does nothing else. */
#define ENGINE_FLOOR (-1)
static const char *variants[WSEL_KIT_MAX_VARIANTS];
static size_t n_variants;

/* The slot of variant `name` ("fast": the library's own choice). */
static int variant_slot(const char *name)
{
    if (!n_variants)
        n_variants = wsel_kit_variants(variants, WSEL_KIT_MAX_VARIANTS, true);
    for (size_t i = 0; i < n_variants; i++)
        if (strcmp(variants[i], name) == 0)
            return (int)i;
    return ENGINE_FLOOR;
}
#define ENGINE_FAST variant_slot("fast")

/* Items per ungrouped set; groups x addresses for grouped sets. */
static const unsigned flat_sizes[] = {1, 4, 16, 64};
static const unsigned grid_sizes[] = {2, 8, 64};

/* Queries per call into the shim: amortises the C++ loop bookkeeping. */
#define BATCH 64
#define SEED 0x5eed0fbe4c4b1e55ull
#define SERVICE "bench"

/* ---- config text ------------------------------------------------------------------ */

typedef wsel_kit_sbuf sbuf;
#define sb_printf wsel_kit_sb_printf

/* Varied weights (1..1000), so single layers are not uniform and multi layers really
 * draw: only the heaviest items of a layer are included for sure. */
static unsigned weight_of(unsigned salt, unsigned i)
{
    uint32_t h = (i + 1u) * 2654435761u ^ (salt * 40503u);
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    return 1u + h % 1000u;
}

/* One address per flat index; unique within a set of up to 64 x 64. */
static void addr_of(unsigned f, char *out, size_t len)
{
    snprintf(out, len, "10.%u.%u.%u", (f >> 8) & 255u, f & 255u, 1u + ((f >> 16) & 127u));
}

/* The body of one resource (without its name). `salt` varies the weights. */
static void emit_resource_body(sbuf *b, int kind, unsigned groups, unsigned per, unsigned salt)
{
    char addr[32];
    if (kind == K_GRP_SINGLE || kind == K_GRP_MULTI) {
        sb_printf(b, "  multi = %s\n", kind == K_GRP_MULTI ? "true" : "false");
        for (unsigned g = 0; g < groups; g++) {
            sb_printf(b, "  g%u => {\n", g);
            for (unsigned a = 0; a < per; a++) {
                addr_of(g * per + a, addr, sizeof addr);
                sb_printf(b, "    a%u = [ %s, %u ]\n", a, addr, weight_of(salt, g * per + a));
            }
            sb_printf(b, "  }\n");
        }
        return;
    }
    if (kind == K_DUAL_MULTI) {
        sb_printf(b, "  addrs_v4 => {\n");
        emit_resource_body(b, K_UNG_MULTI, 0, per, salt);
        sb_printf(b, "  }\n  addrs_v6 => {\n    multi = true\n");
        for (unsigned i = 0; i < per; i++)
            sb_printf(b, "    j%u = [ 2001:db8::%x, %u ]\n", i, i + 1, weight_of(salt + 1, i));
        sb_printf(b, "  }\n");
        return;
    }
    if (kind == K_UNG_MULTI)
        sb_printf(b, "  multi = true\n");
    for (unsigned i = 0; i < per; i++) {
        if (kind == K_CNAME) {
            sb_printf(b, "  c%u = [ host%u.example.net., %u ]\n", i, i, weight_of(salt, i));
        } else {
            addr_of(i, addr, sizeof addr);
            sb_printf(b, "  i%u = [ %s, %u ]\n", i, addr, weight_of(salt, i));
        }
    }
}

/* ---- fixtures: config + state + resolvers for one (case, size, state) ---------------- */

typedef struct fixture {
    int kind, state;
    unsigned groups, per;          /* groups = 0 for ungrouped sets and CNAMEs */
    pthread_mutex_t lock;          /* several benchmark threads may ask for it at once */
    bool tried, ok;
    char why[1200];
    wsel_config *cfg;
    wsel_state *st;
    const wsel_resource *res;
    wsel_resource none;            /* K_EMPTY: res without its sets, what it queries */
    size_t words;
    wsel_resolver *rv[WSEL_KIT_MAX_VARIANTS];
    bool rv_tried[WSEL_KIT_MAX_VARIANTS];
    struct fixture *next;
} fixture;

static fixture *all_fixtures;

static fixture *fixture_new(int kind, unsigned groups, unsigned per, int state)
{
    fixture *fx = calloc(1, sizeof *fx);
    if (!fx)
        return NULL;
    fx->kind = kind;
    fx->groups = groups;
    fx->per = per;
    fx->state = state;
    pthread_mutex_init(&fx->lock, NULL);
    fx->next = all_fixtures;
    all_fixtures = fx;
    return fx;
}

static bool fixture_fail(fixture *fx, const char *what, const wsel_error *err)
{
    char msg[1100] = "";
    if (err)
        wsel_error_format(err, msg, sizeof msg);
    snprintf(fx->why, sizeof fx->why, "%s: %s", what, msg);
    return false;
}

/* Which addresses go DOWN: every fourth (25%); at least one in the reset state, so a
 * one-item set still falls below its threshold. */
static bool is_down(const fixture *fx, unsigned f, unsigned n)
{
    if (fx->state == S_UP)
        return false;
    if (n < 4)
        return fx->state == S_RESET && f == 0;
    return f % 4u == 3u;
}

static bool fixture_build(fixture *fx)
{
    sbuf b = {0};
    wsel_error err;
    /* down25 stays far above a 1% threshold; reset puts any DOWN weight below 100%. */
    const char *thresh = fx->state == S_DOWN25 ? "0.01" : fx->state == S_RESET ? "1.0" : "0.5";
    sb_printf(&b, "service_types = %s\nup_thresh = %s\nr => {\n", SERVICE, thresh);
    emit_resource_body(&b, fx->kind == K_EMPTY ? K_UNG_SINGLE : fx->kind, fx->groups,
                       fx->kind == K_EMPTY ? 1 : fx->per, 7);
    sb_printf(&b, "}\n");
    if (b.oom) {
        free(b.s);
        return fixture_fail(fx, "out of memory writing the config", NULL);
    }
    wsel_load_opts opts = {.input = WSEL_INPUT_STANZA, .flags = WSEL_LOAD_NO_INCLUDE};
    int rc = wsel_config_load_buffer("bench.conf", b.s, b.len, &opts, &fx->cfg, &err);
    free(b.s);
    if (rc != WSEL_OK)
        return fixture_fail(fx, "config load", &err);
    if (wsel_state_new(fx->cfg, &fx->st, &err) != WSEL_OK)
        return fixture_fail(fx, "state", &err);
    fx->res = wsel_config_find(fx->cfg, "r");
    if (!fx->res || fx->res->n_sets != (fx->kind == K_DUAL_MULTI ? 2u : 1u))
        return fixture_fail(fx, "resource r missing or with the wrong number of sets", NULL);
    for (uint32_t k = 0; k < fx->res->n_sets; k++) {
        const wsel_set *set = &fx->res->sets[k];
        for (uint32_t i = 0; i < set->n_items; i++) {
            if (!is_down(fx, i, set->n_items))
                continue;
            if (wsel_state_set(fx->st, SERVICE, set->items[i].key, false, 300, NULL, &err) !=
                WSEL_OK)
                return fixture_fail(fx, "state set", &err);
        }
    }
    fx->words = wsel_resource_words(fx->res);
    if (fx->words == 0 || fx->words > WSEL_WORDS_MAX)
        return fixture_fail(fx, "word count out of range", NULL);
    if (fx->kind == K_EMPTY) {
        fx->none = *fx->res;
        fx->none.n_sets = 0;
        fx->words = 0;
    }
    return true;
}

static bool fixture_ensure(fixture *fx)
{
    pthread_mutex_lock(&fx->lock);
    if (!fx->tried) {
        fx->tried = true;
        fx->ok = fixture_build(fx);
    }
    bool ok = fx->ok;
    pthread_mutex_unlock(&fx->lock);
    return ok;
}

static wsel_resolver *fixture_resolver(fixture *fx, int engine)
{
    pthread_mutex_lock(&fx->lock);
    if (!fx->rv_tried[engine]) {
        wsel_error err;
        fx->rv_tried[engine] = true;
        if (wsel_kit_resolver_new(fx->cfg, fx->st, variants[engine], &fx->rv[engine], &err) !=
            WSEL_OK) {
            fx->rv[engine] = NULL;
            fixture_fail(fx, "resolver", &err);
        }
    }
    wsel_resolver *r = fx->rv[engine];
    pthread_mutex_unlock(&fx->lock);
    return r;
}

static void fixture_free(fixture *fx)
{
    for (int e = 0; e < WSEL_KIT_MAX_VARIANTS; e++)
        wsel_resolver_free(fx->rv[e]);
    wsel_state_free(fx->st);
    wsel_config_free(fx->cfg);
    pthread_mutex_destroy(&fx->lock);
    free(fx);
}

static void size_name(const fixture *fx, char *out, size_t len)
{
    if (fx->groups)
        snprintf(out, len, "%ux%u", fx->groups, fx->per);
    else
        snprintf(out, len, "%u", fx->per);
}

/* ---- select/... ------------------------------------------------------------------- */

typedef struct sel_case {
    fixture *fx;
    int engine;
    char name[128];
    struct sel_case *next;
} sel_case;

static sel_case *all_sel;

static int run_queries(const sel_case *c, wsel_resolver *rv, wsel_prng *p, size_t n)
{
    const fixture *fx = c->fx;
    if (c->engine == ENGINE_FLOOR) {
        uint64_t w[WSEL_WORDS_MAX];
        for (size_t i = 0; i < n; i++) {
            wsel_prng_fill(p, w, fx->words);
            wsel_bench_do_not_optimize(w);
        }
        return 0;
    }
    wsel_rng rng = wsel_prng_rng(p);
    wsel_answer ans;
    int rc = 0;
    if (fx->kind == K_EMPTY) {
        for (size_t i = 0; i < n; i++) {
            rc |= wsel_resolve(rv, &fx->none, &rng, &ans) != WSEL_E_ARG;
            wsel_bench_do_not_optimize(&ans);
        }
        return rc;
    }
    for (size_t i = 0; i < n; i++) {
        rc |= wsel_resolve(rv, fx->res, &rng, &ans);
        wsel_bench_do_not_optimize(&ans);
    }
    return rc;
}

/* Builds what case c needs; on failure returns false with the reason in *why. */
static bool sel_prepare(sel_case *c, wsel_resolver **rv, const char **why)
{
    *rv = NULL;
    if (!fixture_ensure(c->fx)) {
        *why = c->fx->why;
        return false;
    }
    if (c->engine == ENGINE_FLOOR)
        return true;
    *rv = fixture_resolver(c->fx, c->engine);
    if (!*rv) {
        *why = c->fx->why;
        return false;
    }
    /* A benchmark of a query that fails, or of a state other than the one named, would
     * measure the wrong thing: check one answer first. */
    wsel_prng p;
    wsel_prng_seed(&p, SEED);
    wsel_rng rng = wsel_prng_rng(&p);
    wsel_answer ans;
    if (c->fx->kind == K_EMPTY) {
        if (wsel_resolve(*rv, &c->fx->none, &rng, &ans) != WSEL_E_ARG) {
            *why = "a query with no set was not refused";
            return false;
        }
        return true;
    }
    if (wsel_resolve(*rv, c->fx->res, &rng, &ans) != WSEL_OK) {
        *why = "wsel_resolve failed";
        return false;
    }
    if (ans.failed != (c->fx->state == S_RESET)) {
        *why = "answer's failed flag does not match the case's state";
        return false;
    }
    return true;
}

static void bm_select(wsel_bench_state *st, void *arg)
{
    sel_case *c = arg;
    wsel_resolver *rv;
    const char *why = NULL;
    if (!sel_prepare(c, &rv, &why)) {
        wsel_bench_skip(st, why);
        return;
    }
    wsel_prng p;
    wsel_prng_seed(&p, SEED);
    int rc = 0;
    while (wsel_bench_keep_running_batch(st, BATCH))
        rc |= run_queries(c, rv, &p, BATCH);
    if (rc) {
        wsel_bench_skip(st, "wsel_resolve failed during the run");
        return;
    }
    wsel_bench_items(st, wsel_bench_iterations(st));
    wsel_bench_counter(st, "words", (double)c->fx->words, 0);
    wsel_bench_label(st, c->engine == ENGINE_FLOOR
                             ? "floor"
                             : wsel_kit_resolver_variant(rv));
}

static const char *engine_label(int engine)
{
    return engine == ENGINE_FLOOR ? "floor" : variants[engine];
}

static size_t register_select(fixture *fx)
{
    size_t n = 0;
    char sz[32];
    size_name(fx, sz, sizeof sz);
    variant_slot("fast");
    for (size_t e = 0; e <= n_variants; e++) {
        int eng = e < n_variants ? (int)e : ENGINE_FLOOR;
        sel_case *c = calloc(1, sizeof *c);
        if (!c)
            return n;
        c->fx = fx;
        c->engine = eng;
        snprintf(c->name, sizeof c->name, "select/%s/%s/%s/%s", engine_label(eng),
                 kind_names[fx->kind], sz, state_names[fx->state]);
        c->next = all_sel;
        all_sel = c;
        if (wsel_bench_register(c->name, bm_select, c))
            n++;
    }
    return n;
}

/* ---- state/... -------------------------------------------------------------------- */

/* Flips one address DOWN, then UP again on the next iteration, walking over the set:
 * at most one address is DOWN at a time, so every change is a real change and the set's
 * threshold is never crossed by more than one item. */
static int flip_one(fixture *fx, wsel_resolver *rv, uint64_t i)
{
    const wsel_set *set = &fx->res->sets[0];
    const wsel_item *it = &set->items[(i / 2) % set->n_items];
    int rc = wsel_state_set(fx->st, SERVICE, it->key, (i & 1) != 0, 300, NULL, NULL);
    return rc | wsel_resolver_sync(rv);
}

static void bm_state(wsel_bench_state *st, void *arg)
{
    fixture *fx = arg;
    if (!fixture_ensure(fx)) {
        wsel_bench_skip(st, fx->why);
        return;
    }
    wsel_resolver *rv = fixture_resolver(fx, ENGINE_FAST);
    if (!rv) {
        wsel_bench_skip(st, fx->why);
        return;
    }
    uint64_t i = 0;
    int rc = 0;
    /* With no reader, the replaced snapshot can go at once: freeing it is part of what
     * a change costs a single-threaded server. */
    while (wsel_bench_keep_running_batch(st, 2)) {
        for (int k = 0; k < 2; k++) {
            rc |= flip_one(fx, rv, i++);
            wsel_resolver_reclaim(rv);
        }
    }
    if (rc) {
        wsel_bench_skip(st, "state set or sync failed");
        return;
    }
    wsel_bench_items(st, wsel_bench_iterations(st));
}

/* ---- load/... --------------------------------------------------------------------- */

typedef struct load_case {
    unsigned n;
    bool bind;                     /* also create a state and a fast resolver */
    char *text;
    size_t len;
    bool tried;
    char name[64];
    struct load_case *next;
} load_case;

static load_case *all_load;

/* A config of n resources cycling through every mode, small to medium sizes, plus
 * dual-family resources with addrs_v4 / addrs_v6 stanzas and per-resource parameters. */
static char *mixed_config(unsigned n, size_t *len)
{
    static const unsigned flat[] = {1, 4, 16, 3, 8};
    static const unsigned grid[] = {2, 4, 8};
    sbuf b = {0};
    sb_printf(&b, "service_types = %s\nup_thresh = 0.3\n", SERVICE);
    for (unsigned r = 0; r < n; r++) {
        /* the five single-family kinds, then (slot K_DUAL_MULTI) a dual-family
         * resource of its own shape: v4 single, v6 grouped multi */
        int kind = (int)(r % (K_DUAL_MULTI + 1));
        sb_printf(&b, "res%u => {\n", r);
        if (kind == K_DUAL_MULTI) {
            sb_printf(&b, "  up_thresh = 0.75\n  addrs_v4 => {\n");
            emit_resource_body(&b, K_UNG_SINGLE, 0, 4, r);
            sb_printf(&b, "  }\n  addrs_v6 => {\n    multi = true\n");
            for (unsigned g = 0; g < 2; g++) {
                sb_printf(&b, "    g%u => {\n", g);
                for (unsigned a = 0; a < 2; a++)
                    sb_printf(&b, "      a%u = [ 2001:db8::%x:%x, %u ]\n", a, r & 0xffffu, g * 2 + a,
                              weight_of(r, g * 2 + a));
                sb_printf(&b, "    }\n");
            }
            sb_printf(&b, "  }\n");
        } else if (kind == K_GRP_SINGLE || kind == K_GRP_MULTI) {
            unsigned s = grid[(r / (K_DUAL_MULTI + 1)) % 3];
            emit_resource_body(&b, kind, s, s, r);
        } else {
            emit_resource_body(&b, kind, 0, flat[(r / (K_DUAL_MULTI + 1)) % 5], r);
        }
        sb_printf(&b, "}\n");
    }
    if (b.oom) {
        free(b.s);
        return NULL;
    }
    *len = b.len;
    return b.s;
}

static void bm_load(wsel_bench_state *st, void *arg)
{
    load_case *c = arg;
    if (!c->tried) {
        c->tried = true;
        c->text = mixed_config(c->n, &c->len);
    }
    if (!c->text) {
        wsel_bench_skip(st, "out of memory writing the config");
        return;
    }
    wsel_load_opts opts = {.input = WSEL_INPUT_STANZA, .flags = WSEL_LOAD_NO_INCLUDE};
    wsel_error err;
    int rc = 0;
    size_t sets = 0;
    char msg[1100] = "";
    while (wsel_bench_keep_running(st)) {
        wsel_config *cfg = NULL;
        wsel_state *s = NULL;
        wsel_resolver *rv = NULL;
        rc = wsel_config_load_buffer("mixed.conf", c->text, c->len, &opts, &cfg, &err);
        if (rc == WSEL_OK && c->bind) {
            rc = wsel_state_new(cfg, &s, &err);
            if (rc == WSEL_OK)
                rc = wsel_kit_resolver_new(cfg, s, "fast", &rv, &err);
        }
        if (cfg)
            sets = wsel_config_set_count(cfg);
        wsel_resolver_free(rv);
        wsel_state_free(s);
        wsel_config_free(cfg);
        if (rc != WSEL_OK) {
            /* The next keep_running call ends the loop. */
            wsel_bench_skip(st, wsel_error_format(&err, msg, sizeof msg));
        }
    }
    if (rc != WSEL_OK)
        return;
    wsel_bench_bytes(st, (uint64_t)c->len * wsel_bench_iterations(st));
    wsel_bench_counter(st, "resources", c->n, 0);
    wsel_bench_counter(st, "sets", (double)sets, 0);
}

/* ---- mt/... ----------------------------------------------------------------------- */

#define MT_MAX_THREADS 8

/* Each reader announces, after every batch, that it holds no snapshot (quiescent state
 * based reclamation): once every online reader has done so after a sync, the snapshots
 * replaced up to that sync can be freed while the readers go on. Without this a busy
 * flipper retires hundreds of megabytes per second, all kept until the resolver is
 * freed. Padded so readers do not share cache lines. */
typedef struct mt_reader {
    _Alignas(64) atomic_uint_fast64_t quiescent;
    atomic_bool online;
} mt_reader;

typedef struct mt_case {
    fixture *fx;
    bool busy;                     /* flip back to back, else about every 100 us */
    atomic_bool stop;
    atomic_uint_fast64_t flips;
    atomic_int failed;
    pthread_t flipper;
    bool flipper_on;
    mt_reader readers[MT_MAX_THREADS];
    char name[128];
    struct mt_case *next;
} mt_case;

static mt_case *all_mt;

/* Waits until every online reader passed a quiescent point; false if told to stop. */
static bool wait_grace(mt_case *m)
{
    uint64_t seen[MT_MAX_THREADS];
    for (int t = 0; t < MT_MAX_THREADS; t++)
        seen[t] = atomic_load(&m->readers[t].quiescent);
    for (int t = 0; t < MT_MAX_THREADS; t++) {
        /* Spin: a reader's batch takes microseconds, and sched_yield() on a loaded
         * machine gives the core away for a whole time slice. */
        for (unsigned spins = 1; atomic_load(&m->readers[t].online) &&
                                 atomic_load(&m->readers[t].quiescent) == seen[t];
             spins++) {
            if (atomic_load_explicit(&m->stop, memory_order_relaxed))
                return false;
            if (spins % 4096u == 0)
                sched_yield();
        }
    }
    return true;
}

static void *flipper_main(void *arg)
{
    mt_case *m = arg;
    wsel_resolver *rv = m->fx->rv[ENGINE_FAST];
    uint64_t i = 0;
    while (!atomic_load_explicit(&m->stop, memory_order_relaxed)) {
        if (flip_one(m->fx, rv, i++) != WSEL_OK)
            atomic_store(&m->failed, 1);
        /* Waiting for a grace period after every flip would tie the flip rate to the
         * readers' scheduling; every 256 flips bounds the retired memory instead. */
        if (i % 256u == 0) {
            if (!wait_grace(m))
                break;
            wsel_resolver_reclaim(rv);
        }
        if (!m->busy) {
            struct timespec ts = {0, 100000};
            nanosleep(&ts, NULL);
        }
    }
    /* Leave the fixture all UP for the next repetition (readers are done by now). */
    if (i & 1)
        flip_one(m->fx, rv, i);
    atomic_store(&m->flips, i);
    return NULL;
}

static void bm_mt(wsel_bench_state *st, void *arg)
{
    mt_case *m = arg;
    int t = wsel_bench_thread_index(st);
    /* Every thread takes the same path, so all of them skip or none does. */
    wsel_resolver *rv = fixture_ensure(m->fx) ? fixture_resolver(m->fx, ENGINE_FAST) : NULL;
    if (!rv) {
        wsel_bench_skip(st, m->fx->why);
        return;
    }
    if (t >= MT_MAX_THREADS) {
        wsel_bench_skip(st, "too many threads");
        return;
    }
    mt_reader *me = &m->readers[t];
    atomic_store(&me->online, true);
    if (t == 0) {
        atomic_store(&m->stop, false);
        atomic_store(&m->failed, 0);
        m->flipper_on = pthread_create(&m->flipper, NULL, flipper_main, m) == 0;
    }
    wsel_prng p;
    wsel_prng_seed(&p, SEED + (uint64_t)t);
    wsel_rng rng = wsel_prng_rng(&p);
    wsel_answer ans;
    int rc = 0;
    while (wsel_bench_keep_running_batch(st, BATCH)) {
        for (int i = 0; i < BATCH; i++) {
            rc |= wsel_resolve(rv, m->fx->res, &rng, &ans);
            wsel_bench_do_not_optimize(&ans);
        }
        atomic_fetch_add_explicit(&me->quiescent, 1, memory_order_release);
    }
    atomic_store(&me->online, false);
    if (t == 0) {
        /* The loop's end is a barrier: no reader is inside wsel_resolve any more. */
        atomic_store(&m->stop, true);
        if (m->flipper_on)
            pthread_join(m->flipper, NULL);
        wsel_resolver_reclaim(rv);
        wsel_bench_counter(st, "flips", (double)atomic_load(&m->flips), WSEL_BENCH_RATE);
    }
    if (rc || (t == 0 && (!m->flipper_on || atomic_load(&m->failed)))) {
        wsel_bench_skip(st, "resolve, state change or flipper thread failed");
        return;
    }
    wsel_bench_items(st, wsel_bench_iterations(st));
}

/* ---- threads/... : the same resolver queried from 1 and 2 threads, no writer ------------ */

/* threads/<engine>/<case>/<size>/up/threads:N: N threads, each with its own generator
 * (seeded SEED + thread index) and its own answer, query one shared resolver (floor: draw
 * the words only). Google Benchmark's CPU time of such a case is the threads' CPU time
 * summed over all their queries, so per query it is the mean per-thread cost; set beside
 * threads:1 it shows what a second reader costs the first. The query path writes nothing
 * the threads share (tests/test_fast_noshare.c checks it); floor, which shares nothing at
 * all, is the control for what the machine itself does to two busy threads. Each thread
 * also reports its own wall ns per query (thread_wall_ns, averaged over threads). */
static sel_case *all_thr;

static double mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void bm_threads(wsel_bench_state *st, void *arg)
{
    sel_case *c = arg;
    wsel_resolver *rv;
    const char *why = NULL;
    /* Every thread takes the same path, so all of them skip or none does. */
    if (!sel_prepare(c, &rv, &why)) {
        wsel_bench_skip(st, why);
        return;
    }
    wsel_prng p;
    wsel_prng_seed(&p, SEED + (uint64_t)wsel_bench_thread_index(st));
    int rc = 0;
    uint64_t n = 0;
    double t0 = 0;
    while (wsel_bench_keep_running_batch(st, BATCH)) {
        if (n == 0)
            t0 = mono_ns(); /* after the start barrier */
        rc |= run_queries(c, rv, &p, BATCH);
        n += BATCH;
    }
    double wall = mono_ns() - t0;
    if (rc) {
        wsel_bench_skip(st, "wsel_resolve failed during the run");
        return;
    }
    wsel_bench_items(st, wsel_bench_iterations(st));
    wsel_bench_counter(st, "thread_wall_ns", n ? wall / (double)n : 0, WSEL_BENCH_THREAD_AVG);
    wsel_bench_counter(st, "words", (double)c->fx->words, WSEL_BENCH_THREAD_AVG);
    wsel_bench_label(st, c->engine == ENGINE_FLOOR ? "floor" : wsel_kit_resolver_variant(rv));
}

/* The cases of issue 26's table, state up; engines fast (dispatched) and floor. */
static size_t register_threads(void)
{
    static const struct { int kind; unsigned groups, per; } cs[] = {
        {K_UNG_SINGLE, 0, 4}, {K_UNG_SINGLE, 0, 64}, {K_UNG_MULTI, 0, 4},
        {K_UNG_MULTI, 0, 64}, {K_GRP_SINGLE, 8, 8}, {K_GRP_SINGLE, 64, 64},
        {K_GRP_MULTI, 8, 8}, {K_GRP_MULTI, 64, 64}, {K_CNAME, 0, 64}};
    size_t n = 0;
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
        fixture *fx = fixture_new(cs[i].kind, cs[i].groups, cs[i].per, S_UP);
        if (!fx)
            return n;
        char sz[32];
        size_name(fx, sz, sizeof sz);
        for (int e = 0; e < 2; e++) {
            sel_case *c = calloc(1, sizeof *c);
            if (!c)
                return n;
            c->fx = fx;
            c->engine = e == 0 ? ENGINE_FLOOR : ENGINE_FAST;
            snprintf(c->name, sizeof c->name, "threads/%s/%s/%s/up", engine_label(c->engine),
                     kind_names[fx->kind], sz);
            c->next = all_thr;
            all_thr = c;
            wsel_bench_def *d = wsel_bench_register(c->name, bm_threads, c);
            if (!d)
                continue;
            wsel_bench_threads_add(d, 1);
            wsel_bench_threads_add(d, 2);
            n++;
        }
    }
    return n;
}

/* ---- gen/... : every system of the kit's table, every variant ------------------------ */

#define GEN_SEED 1

typedef struct gen_case {
    const wsel_kit_system *sys;
    const char *variant;
    void *c;                 /* the system's generated case, built on first use */
    char name[128];
    struct gen_case *next;
} gen_case;

static gen_case *all_gen;

static void bm_gen(wsel_bench_state *st, void *arg)
{
    gen_case *g = arg;
    char why[512];
    if (!g->c && !(g->c = g->sys->case_new(GEN_SEED, why, sizeof why))) {
        wsel_bench_skip(st, why);
        return;
    }
    size_t nq = g->sys->queries(g->c), q = 0;
    wsel_prng p;
    wsel_prng_seed(&p, SEED);
    wsel_rng rng = wsel_prng_rng(&p);
    int rc = 0;
    while (wsel_bench_keep_running_batch(st, BATCH)) {
        for (size_t i = 0; i < BATCH; i++, q = q + 1 < nq ? q + 1 : 0)
            rc |= g->sys->query(g->c, g->variant, q, &rng);
    }
    if (rc) {
        wsel_bench_skip(st, "query failed during the run");
        return;
    }
    wsel_bench_items(st, wsel_bench_iterations(st));
    wsel_bench_label(st, g->variant ? g->variant : "reference");
}

static size_t register_systems(void)
{
    size_t n = 0, nsys;
    const wsel_kit_system *const *sys = wsel_kit_systems(&nsys);
    for (size_t si = 0; si < nsys; si++) {
        const char *names[WSEL_KIT_MAX_VARIANTS];
        size_t nv = wsel_kit_system_variants(sys[si], names, WSEL_KIT_MAX_VARIANTS);
        /* slot nv: the system's reference function itself */
        for (size_t v = 0; v <= nv; v++) {
            gen_case *g = calloc(1, sizeof *g);
            if (!g)
                return n;
            g->sys = sys[si];
            g->variant = v < nv ? names[v] : NULL;
            snprintf(g->name, sizeof g->name, "gen/%s/%s", sys[si]->name,
                     g->variant ? g->variant : "reference");
            g->next = all_gen;
            all_gen = g;
            n += wsel_bench_register(g->name, bm_gen, g) != NULL;
        }
    }
    return n;
}

/* ---- registration ----------------------------------------------------------------- */

static size_t register_fixture_set(int kind, unsigned groups, unsigned per)
{
    size_t n = 0;
    for (int s = 0; s < S_COUNT; s++) {
        /* 25% of one address is no address: the case would repeat `up`. */
        if (s == S_DOWN25 && (groups ? groups * per : per) < 4)
            continue;
        fixture *fx = fixture_new(kind, groups, per, s);
        if (fx)
            n += register_select(fx);
    }
    fixture *fx = fixture_new(kind, groups, per, S_UP);
    if (fx) {
        char sz[32], name[128];
        size_name(fx, sz, sizeof sz);
        snprintf(name, sizeof name, "state/fast/%s/%s", kind_names[kind], sz);
        n += wsel_bench_register(name, bm_state, fx) != NULL;
    }
    return n;
}

static size_t register_mt(int kind, unsigned groups, unsigned per)
{
    size_t n = 0;
    for (int busy = 0; busy < 2; busy++) {
        /* Over-aligned (the padded reader slots): calloc does not promise 64 bytes. */
        mt_case *m = aligned_alloc(_Alignof(mt_case), sizeof *m);
        if (!m)
            return n;
        memset(m, 0, sizeof *m);
        m->fx = fixture_new(kind, groups, per, S_UP);
        m->busy = busy;
        if (!m->fx) {
            free(m);
            return n;
        }
        m->next = all_mt;
        all_mt = m;
        char sz[32];
        size_name(m->fx, sz, sizeof sz);
        snprintf(m->name, sizeof m->name, "mt/fast/%s/%s/%s", kind_names[kind], sz,
                 busy ? "flip-busy" : "flip-paced");
        wsel_bench_def *d = wsel_bench_register(m->name, bm_mt, m);
        if (!d)
            continue;
        wsel_bench_threads_add(d, 1);
        wsel_bench_threads_add(d, 2);
        wsel_bench_real_time(d);
        n++;
    }
    return n;
}

size_t wsel_bench_cases_register(void)
{
    size_t n = 0;
    for (int k = 0; k < K_COUNT; k++) {
        bool grouped = k == K_GRP_SINGLE || k == K_GRP_MULTI;
        if (k == K_EMPTY) {
            fixture *fx = fixture_new(k, 0, 0, S_UP);
            n += fx ? register_select(fx) : 0;
        } else if (grouped) {
            for (size_t i = 0; i < sizeof grid_sizes / sizeof grid_sizes[0]; i++)
                n += register_fixture_set(k, grid_sizes[i], grid_sizes[i]);
        } else {
            for (size_t i = 0; i < sizeof flat_sizes / sizeof flat_sizes[0]; i++)
                n += register_fixture_set(k, 0, flat_sizes[i]);
        }
    }
    for (int bind = 0; bind < 2; bind++) {
        load_case *c = calloc(1, sizeof *c);
        if (!c)
            break;
        c->n = 5000;
        c->bind = bind;
        snprintf(c->name, sizeof c->name, "load/mixed/%u%s", c->n, bind ? "/+resolver" : "");
        c->next = all_load;
        all_load = c;
        n += wsel_bench_unit_set(wsel_bench_register(c->name, bm_load, c), WSEL_BENCH_MS) != NULL;
    }
    n += register_mt(K_UNG_SINGLE, 0, 16);
    n += register_mt(K_UNG_MULTI, 0, 64);
    n += register_mt(K_GRP_MULTI, 8, 8);
    n += register_threads();
    n += register_systems();
    n += wsel_bench_ring_register();
    return n;
}

int wsel_bench_cases_run_plain(const char *name, size_t n, FILE *errs)
{
    for (sel_case *c = all_sel; c; c = c->next) {
        if (strcmp(c->name, name) != 0)
            continue;
        wsel_resolver *rv;
        const char *why = NULL;
        if (!sel_prepare(c, &rv, &why)) {
            fprintf(errs, "%s: %s\n", name, why);
            return -1;
        }
        wsel_prng p;
        wsel_prng_seed(&p, SEED);
        if (run_queries(c, rv, &p, n) != 0) {
            fprintf(errs, "%s: wsel_resolve failed\n", name);
            return -1;
        }
        return 0;
    }
    fprintf(errs, "%s: no such select case (see --list)\n", name);
    return -1;
}

void wsel_bench_cases_list(FILE *out)
{
    for (sel_case *c = all_sel; c; c = c->next)
        fprintf(out, "%s\n", c->name);
}

void wsel_bench_cases_free(void)
{
    while (all_sel) {
        sel_case *c = all_sel->next;
        free(all_sel);
        all_sel = c;
    }
    while (all_load) {
        load_case *c = all_load->next;
        free(all_load->text);
        free(all_load);
        all_load = c;
    }
    while (all_thr) {
        sel_case *c = all_thr->next;
        free(all_thr);
        all_thr = c;
    }
    while (all_mt) {
        mt_case *m = all_mt->next;
        free(all_mt);
        all_mt = m;
    }
    while (all_gen) {
        gen_case *g = all_gen->next;
        if (all_gen->c)
            all_gen->sys->case_free(all_gen->c);
        free(all_gen);
        all_gen = g;
    }
    while (all_fixtures) {
        fixture *f = all_fixtures->next;
        fixture_free(all_fixtures);
        all_fixtures = f;
    }
}
