/* Shared test helpers; see support.h. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "support.h"
#include "sbuf.h"

/* ---- random sources -------------------------------------------------------------- */

static void replay_fill(void *ctx, uint64_t *out, size_t n)
{
    wsel_test_replay *r = ctx;
    for (size_t i = 0; i < n; i++) {
        if (r->pos < r->n) {
            out[i] = r->words[r->pos++];
        } else {
            out[i] = 0;
            r->overrun++;
        }
    }
}

wsel_rng wsel_test_replay_rng(wsel_test_replay *r, const uint64_t *words, size_t n)
{
    r->words = words;
    r->n = n;
    r->pos = 0;
    r->overrun = 0;
    return (wsel_rng){ replay_fill, r, NULL };
}

static void counting_fill(void *ctx, uint64_t *out, size_t n)
{
    wsel_test_counter *c = ctx;
    c->words += n;
    c->calls++;
    c->inner.fill(c->inner.ctx, out, n);
}

wsel_rng wsel_test_counting_rng(wsel_test_counter *c, wsel_rng inner)
{
    c->inner = inner;
    c->words = 0;
    c->calls = 0;
    return (wsel_rng){ counting_fill, c, NULL };
}

uint64_t wsel_test_mix(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

uint64_t wsel_test_range(uint64_t *state, uint64_t lo, uint64_t hi)
{
    uint64_t span = hi - lo + 1;
    if (span == 0)
        return wsel_test_mix(state);
    return lo + wsel_test_mix(state) % span; /* bias is irrelevant for test inputs */
}

static uint64_t rotr64(uint64_t x, int k)
{
    return (x >> k) | (x << (64 - k));
}

/* One lane of the default generator stepped backwards: the inverse of the xoshiro256
 * state update of core/prng.c (s1 from s1' ^ s2' = s1 ^ (s1 << 17)). */
static void lane_unstep(uint64_t s[4][4], int l)
{
    uint64_t s3a = rotr64(s[3][l], 45);
    uint64_t y = s[1][l] ^ s[2][l];
    uint64_t s1 = y ^ (y << 17) ^ (y << 34) ^ (y << 51);
    uint64_t s0 = s[0][l] ^ s3a;
    s[2][l] = s[1][l] ^ s1 ^ s0;
    s[0][l] = s0;
    s[1][l] = s1;
    s[3][l] = s3a ^ s1;
}

/* One step's output, rotl(s0 + s3, 23) + s0, can be chosen freely through s3; the state
 * b steps earlier is found by stepping back, so word i lands in block b = (i - k) / 4. */
void wsel_test_prng_plant(wsel_prng *p, uint64_t *state, unsigned k, size_t i, uint64_t word)
{
    for (unsigned j = 0; j < 4; j++)
        p->buf[j] = wsel_test_mix(state);
    p->pos = 4 - k;
    bool in_buf = i < k;
    if (in_buf)
        p->buf[4 - k + i] = word;
    size_t b = in_buf ? 0 : (i - k) / 4, lane = in_buf ? 4 : (i - k) % 4;
    for (size_t l = 0; l < 4; l++) {
        uint64_t out = l == lane ? word : wsel_test_mix(state);
        p->s[0][l] = wsel_test_mix(state);
        p->s[1][l] = wsel_test_mix(state);
        p->s[2][l] = wsel_test_mix(state);
        p->s[3][l] = rotr64(out - p->s[0][l], 23) - p->s[0][l];
        for (size_t j = 0; j < b; j++)
            lane_unstep(p->s, (int)l);
    }
}

bool wsel_test_under_valgrind(void)
{
    const char *p = getenv("LD_PRELOAD");
    return p && strstr(p, "vgpreload") != NULL;
}

/* ---- loading ---------------------------------------------------------------------- */

int wsel_test_try_load(const char *text, wsel_input input, wsel_config **out,
                       wsel_error *err)
{
    wsel_load_opts opts = { 0 };
    opts.input = input;
    opts.flags = WSEL_LOAD_NO_INCLUDE;
    return wsel_config_load_buffer(text, strlen(text), "test.conf", &opts, out, err);
}

wsel_config *wsel_test_load_as(const char *text, wsel_input input)
{
    wsel_config *cfg = NULL;
    wsel_error err;
    wsel_error_clear(&err);
    int rc = wsel_test_try_load(text, input, &cfg, &err);
    if (rc != WSEL_OK || !cfg) {
        char buf[2048];
        print_error("config text failed to load: %s\n--- text:\n%.2000s\n",
                    wsel_error_format(&err, buf, sizeof buf), text);
        fail();
    }
    return cfg;
}

wsel_config *wsel_test_load(const char *text)
{
    return wsel_test_load_as(text, WSEL_INPUT_STANZA);
}

const char *wsel_test_srcpath(const char *rel)
{
    static char buf[4096];
    const char *root = getenv("WSEL_SRCDIR");
    if (root && *root) {
        snprintf(buf, sizeof buf, "%s/%s", root, rel);
        return buf;
    }
    snprintf(buf, sizeof buf, "%s", rel);
    if (access(buf, R_OK) == 0)
        return buf;
    snprintf(buf, sizeof buf, "../%s", rel);
    if (access(buf, R_OK) == 0)
        return buf;
    snprintf(buf, sizeof buf, "%s", rel);
    return buf;
}

wsel_config *wsel_test_load_synopsis(void)
{
    const char *path = wsel_test_srcpath("examples/synopsis.conf");
    wsel_config *cfg = NULL;
    wsel_error err;
    wsel_error_clear(&err);
    int rc = wsel_config_load_file(path, NULL, &cfg, &err);
    if (rc != WSEL_OK || !cfg) {
        char buf[2048];
        print_error("%s failed to load: %s\n", path, wsel_error_format(&err, buf, sizeof buf));
        fail();
    }
    return cfg;
}

/* ---- random config text ----------------------------------------------------------- */

const char *const wsel_test_gen_services[] = { "svc_a", "svc_b", "svc_c", NULL };

typedef wsel_test_sbuf sbuf;
#define sb_printf wsel_test_sb_printf

static bool chance(uint64_t *rs, unsigned percent)
{
    return wsel_test_range(rs, 0, 99) < percent;
}

static unsigned gen_count(uint64_t *rs, unsigned cap)
{
    unsigned n;
    uint64_t k = wsel_test_range(rs, 0, 99);
    if (k < 10)
        n = 1;
    else if (k < 18)
        n = 64;
    else if (k < 70)
        n = (unsigned)wsel_test_range(rs, 1, 8);
    else
        n = (unsigned)wsel_test_range(rs, 1, 64);
    return n > cap ? cap : n;
}

static uint32_t gen_weight(uint64_t *rs)
{
    uint64_t k = wsel_test_range(rs, 0, 99);
    if (k < 12)
        return 1;
    if (k < 24)
        return WSEL_MAX_WEIGHT;
    if (k < 60)
        return (uint32_t)wsel_test_range(rs, 1, 10);
    if (k < 75)
        return (uint32_t)wsel_test_range(rs, 1, 1000);
    return (uint32_t)wsel_test_range(rs, 1, WSEL_MAX_WEIGHT);
}

static void gen_up_thresh(sbuf *b, uint64_t *rs)
{
    static const char *const fixed[] = { "0.5", "0.07", "1", "1.0", "0.01", "0.75",
                                         "0.001", "0.999" };
    if (chance(rs, 70))
        sb_printf(b, "%s", fixed[wsel_test_range(rs, 0, 7)]);
    else
        sb_printf(b, "0.%03u", (unsigned)wsel_test_range(rs, 1, 999));
}

static void gen_services(sbuf *b, uint64_t *rs, const wsel_test_gen_opts *o)
{
    if (o->no_services) {
        sb_printf(b, "up");
        return;
    }
    uint64_t k = wsel_test_range(rs, 0, 9);
    if (k == 0) {
        sb_printf(b, "[]");
    } else if (k < 4) {
        sb_printf(b, "%s", wsel_test_gen_services[wsel_test_range(rs, 0, 2)]);
    } else if (k < 6) {
        sb_printf(b, "up");
    } else {
        sb_printf(b, "[ ");
        unsigned n = (unsigned)wsel_test_range(rs, 1, 3);
        for (unsigned i = 0; i < n; i++)
            sb_printf(b, "%s%s", i ? ", " : "",
                      chance(rs, 20) ? "up" : wsel_test_gen_services[wsel_test_range(rs, 0, 2)]);
        sb_printf(b, " ]");
    }
}

/* Optional parameters at one level (each present with some chance). */
static void gen_params(sbuf *b, uint64_t *rs, const wsel_test_gen_opts *o, int force_multi,
                       const char *indent)
{
    if (force_multi >= 0)
        sb_printf(b, "%smulti = %s\n", indent, force_multi ? "true" : "false");
    else if (chance(rs, 25))
        sb_printf(b, "%smulti => %s\n", indent, chance(rs, 50) ? "true" : "false");
    if (chance(rs, 30)) {
        sb_printf(b, "%sup_thresh => ", indent);
        gen_up_thresh(b, rs);
        sb_printf(b, "\n");
    }
    if (chance(rs, 40)) {
        sb_printf(b, "%sservice_types = ", indent);
        gen_services(b, rs, o);
        sb_printf(b, "\n");
    }
}

static void gen_addr(sbuf *b, uint64_t *rs, int family)
{
    /* a small address space so that duplicates and shared keys across sets happen */
    if (family == 4) {
        sb_printf(b, "10.%u.%u.%u", (unsigned)wsel_test_range(rs, 0, 1),
                  (unsigned)wsel_test_range(rs, 0, 3), (unsigned)wsel_test_range(rs, 1, 254));
    } else {
        unsigned v = (unsigned)wsel_test_range(rs, 1, 0x3ff);
        sb_printf(b, chance(rs, 25) ? "2001:DB8::%X" : "2001:db8::%x", v);
    }
}

static void gen_item(sbuf *b, uint64_t *rs, const char *indent, unsigned label, int family)
{
    sb_printf(b, "%si%u = [ ", indent, label);
    if (family == 0)
        sb_printf(b, "t%u.example.net.", (unsigned)wsel_test_range(rs, 0, 200));
    else
        gen_addr(b, rs, family);
    sb_printf(b, ", %u ]\n", (unsigned)gen_weight(rs));
}

/* Items of one set; mode is a wsel_mode. Multi is set by the caller via params. */
static void gen_set_items(sbuf *b, uint64_t *rs, const wsel_test_gen_opts *o, int mode,
                          int family, const char *indent)
{
    unsigned cap = o->max_items ? o->max_items : 64;
    unsigned gcap = o->max_group ? o->max_group : 64;
    bool grouped = mode == WSEL_MODE_GROUPED_SINGLE || mode == WSEL_MODE_GROUPED_MULTI;
    /* keep wide grouped sets mostly small, but let a full 64 x 64 set through now and then */
    bool huge = o->max_shape || (grouped && chance(rs, 2));
    unsigned n = huge ? cap : gen_count(rs, cap);
    if (grouped && !huge && n > 16 && gcap > 16 && chance(rs, 70))
        n = (unsigned)wsel_test_range(rs, 1, 16);
    for (unsigned i = 0; i < n; i++) {
        if (!grouped) {
            gen_item(b, rs, indent, i, family);
            continue;
        }
        sb_printf(b, "%sg%u => {\n", indent, i);
        unsigned m = huge ? gcap : gen_count(rs, gcap);
        if (!huge && n > 16 && m > 8)
            m = (unsigned)wsel_test_range(rs, 1, 8);
        char inner[64];
        snprintf(inner, sizeof inner, "%s  ", indent);
        for (unsigned j = 0; j < m; j++)
            gen_item(b, rs, inner, j, family);
        sb_printf(b, "%s}\n", indent);
    }
}

static int pick_mode(uint64_t *rs, const wsel_test_gen_opts *o, bool allow_cname)
{
    if (o->mode >= 0)
        return o->mode;
    int m = (int)wsel_test_range(rs, 0, allow_cname ? 4 : 3);
    return m;
}

char *wsel_test_gen_config(uint64_t seed, const wsel_test_gen_opts *opts)
{
    wsel_test_gen_opts o = { 0 };
    o.mode = -1;
    if (opts)
        o = *opts;
    uint64_t rs = seed ^ 0x5eed5eed5eedull;
    sbuf b = { 0 };
    b.cap = 4096;
    b.s = malloc(b.cap);
    if (!b.s)
        return NULL;
    b.s[0] = '\0';

    sb_printf(&b, "# generated by wsel_test_gen_config, seed %llu\n", (unsigned long long)seed);
    gen_params(&b, &rs, &o, -1, "");
    unsigned nres = o.resources ? o.resources : (unsigned)wsel_test_range(&rs, 1, 6);
    for (unsigned r = 0; r < nres; r++) {
        sb_printf(&b, "r%u => {\n", r);
        bool explicit_fam = !o.no_explicit && o.mode != WSEL_MODE_CNAME && chance(&rs, 25);
        if (explicit_fam) {
            gen_params(&b, &rs, &o, -1, "  ");
            int which = (int)wsel_test_range(&rs, 0, 2); /* v4, v6, both */
            for (int fam = 4; fam <= 6; fam += 2) {
                if ((fam == 4 && which == 1) || (fam == 6 && which == 0))
                    continue;
                int mode = pick_mode(&rs, &o, false);
                bool multi = mode == WSEL_MODE_UNGROUPED_MULTI || mode == WSEL_MODE_GROUPED_MULTI;
                sb_printf(&b, "  addrs_v%d => {\n", fam);
                gen_params(&b, &rs, &o, multi, "    ");
                gen_set_items(&b, &rs, &o, mode, fam, "    ");
                sb_printf(&b, "  }\n");
            }
        } else {
            int mode = pick_mode(&rs, &o, true);
            if (mode == WSEL_MODE_CNAME) {
                gen_params(&b, &rs, &o, -1, "  ");
                gen_set_items(&b, &rs, &o, mode, 0, "  ");
            } else {
                bool multi = mode == WSEL_MODE_UNGROUPED_MULTI || mode == WSEL_MODE_GROUPED_MULTI;
                gen_params(&b, &rs, &o, multi, "  ");
                gen_set_items(&b, &rs, &o, mode, chance(&rs, 50) ? 4 : 6, "  ");
            }
        }
        sb_printf(&b, "}\n");
    }
    if (b.oom) {
        free(b.s);
        return NULL;
    }
    return b.s;
}

/* ---- random state ------------------------------------------------------------------ */

void wsel_test_random_state(wsel_state *st, const wsel_config *cfg, uint64_t seed,
                            double p_down, bool random_ttl)
{
    uint64_t rs = seed ^ 0x57a7e57a7eull;
    size_t nsets = wsel_config_set_count(cfg);
    for (size_t s = 0; s < nsets; s++) {
        const wsel_set *set = wsel_config_set(cfg, s);
        for (uint32_t k = 0; k < set->n_services; k++) {
            const char *svc = set->services[k];
            if (strcmp(svc, "up") == 0 || strcmp(svc, "down") == 0)
                continue;
            for (uint32_t i = 0; i < set->n_items; i++) {
                double u = (double)(wsel_test_mix(&rs) >> 11) / 9007199254740992.0;
                uint32_t ttl = random_ttl ? (uint32_t)wsel_test_range(&rs, 0, WSEL_MAX_TTL)
                                          : WSEL_MAX_TTL;
                wsel_error err;
                int rc = wsel_state_set(st, svc, set->items[i].key, u >= p_down, ttl, NULL,
                                        &err);
                if (rc != WSEL_OK) {
                    char buf[2048];
                    print_error("wsel_state_set failed: %s\n",
                                wsel_error_format(&err, buf, sizeof buf));
                    fail();
                }
            }
        }
    }
}

void wsel_test_format_answer(const wsel_resource *res, const wsel_answer *ans, char *buf,
                             size_t len)
{
    size_t pos = 0;
    buf[0] = '\0';
#define PUT(...)                                                                        \
    do {                                                                                \
        if (pos < len) {                                                                \
            int n_ = snprintf(buf + pos, len - pos, __VA_ARGS__);                       \
            pos += n_ > 0 ? (size_t)n_ : 0;                                             \
        }                                                                               \
    } while (0)
    for (uint32_t s = 0; s < ans->n_sets && s < res->n_sets; s++) {
        const wsel_set *set = &res->sets[s];
        const wsel_set_answer *sa = &ans->set[s];
        if (s)
            PUT("|");
        for (unsigned i = 0; i < sa->count; i++) {
            const wsel_item *it = &set->items[sa->items[i]];
            if (set->n_groups)
                PUT("%s%s/%s", i ? "," : "", set->groups[it->group].label, it->label);
            else
                PUT("%s%s", i ? "," : "", it->label);
        }
    }
    PUT(" %c %u", ans->failed ? 'F' : '-', (unsigned)ans->ttl);
#undef PUT
}

wsel_mstate wsel_test_item_state(const wsel_state *st, const wsel_config *cfg,
                                 const char *name, unsigned i)
{
    const wsel_resource *r = wsel_config_find(cfg, name);
    assert_non_null(r);
    const wsel_set *s = &r->sets[0];
    assert_true(i < s->n_items);
    return wsel_state_item(st, s, &s->items[i]);
}
