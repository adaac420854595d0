/* Case construction: the synopsis, the page's worked examples, threshold patterns
 * built from doc/weighted.md §5.2's formula, and a fixed-seed family of generated configs. The
 * configs are written as text and loaded through the public loader, so the suite
 * exercises the same path as users. */
#include "weighted_cases.h"
#include "kit/kit.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef wsel_kit_sbuf sbuf;
#define sb_printf wsel_kit_sb_printf

/* The text of a finished buffer; the suite cannot run without its cases. */
static char *sb_take(sbuf *b)
{
    if (b->oom || !b->s)
        abort();
    return b->s;
}

typedef struct case_list {
    stat_case *v;
    size_t n, cap;
} case_list;

static stat_case *add_case(case_list *l, const char *name)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 64;
        l->v = realloc(l->v, l->cap * sizeof *l->v);
        if (!l->v)
            abort();
    }
    stat_case *c = &l->v[l->n++];
    memset(c, 0, sizeof *c);
    snprintf(c->name, sizeof c->name, "%s", name);
    c->expect_failed = -1;
    c->draws = 1.0;
    return c;
}

static void mark(stat_case *c, const char *service, const char *key, bool up, uint32_t ttl)
{
    if (c->n_marks % 64 == 0) {
        c->marks = realloc(c->marks, (c->n_marks + 64) * sizeof *c->marks);
        if (!c->marks)
            abort();
    }
    case_mark *m = &c->marks[c->n_marks++];
    snprintf(m->service, sizeof m->service, "%s", service ? service : "");
    snprintf(m->key, sizeof m->key, "%s", key);
    m->up = up;
    m->ttl = ttl;
}

#define sm_next wsel_kit_mix

static uint32_t sm_below(uint64_t *x, uint32_t n)
{
    return (uint32_t)(sm_next(x) % n); /* bias ~n/2^64: irrelevant for picking cases */
}

enum gmode { G_CNAME, G_SINGLE, G_MULTI, G_GSINGLE, G_GMULTI, G_COUNT };
static const char *const gmode_name[G_COUNT] = { "cname", "single", "multi", "gsingle", "gmulti" };

/* Text of item k's value: distinct per k so DOWN marks hit exactly one item. */
static void item_value(char *out, size_t len, enum gmode m, bool v6, unsigned k)
{
    if (m == G_CNAME)
        snprintf(out, len, "h%u.example.net.", k);
    else if (v6)
        snprintf(out, len, "2001:db8::%x", k + 1);
    else
        snprintf(out, len, "10.%u.%u.%u", (k >> 16) & 255, (k >> 8) & 255, (k & 255) + 1);
}

/* A one-resource stanza "r". groups == 0: ungrouped with sizes[0] items; else
 * `groups` groups of sizes[g] items. Weights are taken in flat order. */
static char *make_text(enum gmode m, bool v6, double up_thresh, unsigned groups,
                       const unsigned *sizes, const uint32_t *w)
{
    sbuf b = { 0 };
    char val[64];
    sb_printf(&b, "r => {\n  service_types => mon\n  up_thresh => %.17g\n", up_thresh);
    if (m != G_CNAME)
        sb_printf(&b, "  multi => %s\n", (m == G_MULTI || m == G_GMULTI) ? "true" : "false");
    unsigned k = 0;
    if (groups == 0) {
        for (unsigned i = 0; i < sizes[0]; i++, k++) {
            item_value(val, sizeof val, m, v6, k);
            sb_printf(&b, "  i%u => [ %s, %u ]\n", k, val, (unsigned)w[k]);
        }
    } else {
        for (unsigned g = 0; g < groups; g++) {
            sb_printf(&b, "  g%u => {\n", g);
            for (unsigned i = 0; i < sizes[g]; i++, k++) {
                item_value(val, sizeof val, m, v6, k);
                sb_printf(&b, "    i%u => [ %s, %u ]\n", k, val, (unsigned)w[k]);
            }
            sb_printf(&b, "  }\n");
        }
    }
    sb_printf(&b, "}\n");
    return sb_take(&b);
}

static void mark_item(stat_case *c, enum gmode m, bool v6, unsigned k, bool up, uint32_t ttl)
{
    char val[64];
    item_value(val, sizeof val, m, v6, k);
    mark(c, NULL, val, up, ttl);
}

/* Threshold patterns. With weights a, 1, rest (T*u not an integer, thr = ceil(T*u),
 * a = thr - 1): leaving only `a` UP gives a dynamic sum thr - 1 (reset: "trigger");
 * leaving `a` and 1 UP gives thr (no reset: "miss", equality never fails over).
 * The grouped versions put a, 1 and the rest (split in two) in three groups. */
static void threshold_cases(case_list *l)
{
    static const struct { uint32_t T; double u; } par[] = { { 100, 0.07 }, { 181, 0.5 } };
    for (size_t pi = 0; pi < sizeof par / sizeof par[0]; pi++) {
        uint32_t T = par[pi].T;
        double u = par[pi].u;
        uint32_t thr = (uint32_t)ceil((double)T * u);
        uint32_t rest = T - thr;
        uint32_t w[4] = { thr - 1, 1, rest / 2, rest - rest / 2 };
        for (int m = 0; m < G_COUNT; m++) {
            bool grouped = m == G_GSINGLE || m == G_GMULTI;
            unsigned sizes_g[3] = { 1, 1, 2 }, sizes_u[1] = { 3 };
            uint32_t wu[3] = { thr - 1, 1, rest };
            for (int trig = 0; trig < 2; trig++) {
                char name[96];
                snprintf(name, sizeof name, "thresh-T%u-u%g-%s-%s", (unsigned)T, u,
                         gmode_name[m], trig ? "trigger" : "miss");
                stat_case *c = add_case(l, name);
                c->text = grouped ? make_text((enum gmode)m, false, u, 3, sizes_g, w)
                                  : make_text((enum gmode)m, false, u, 0, sizes_u, wu);
                unsigned n = grouped ? 4 : 3;
                /* item 0 stays UP; item 1 UP only in the miss pattern */
                mark_item(c, (enum gmode)m, false, 0, true, 300);
                mark_item(c, (enum gmode)m, false, 1, !trig, 120);
                for (unsigned k = 2; k < n; k++)
                    mark_item(c, (enum gmode)m, false, k, false, 60 + k);
                c->expect_failed = trig;
            }
        }
    }
    /* T * u an integer and the UP sum exactly at it: no reset. */
    for (int m = 0; m < G_COUNT; m++) {
        if (m == G_GSINGLE || m == G_GMULTI)
            continue;
        unsigned sizes[1] = { 3 };
        uint32_t w[3] = { 90, 1, 89 }; /* T = 180, u = 0.5: threshold 90 */
        char name[96];
        snprintf(name, sizeof name, "thresh-T180-u0.5-%s-equal", gmode_name[m]);
        stat_case *c = add_case(l, name);
        c->text = make_text((enum gmode)m, false, 0.5, 0, sizes, w);
        mark_item(c, (enum gmode)m, false, 1, false, 10);
        mark_item(c, (enum gmode)m, false, 2, false, 10);
        c->expect_failed = 0;
    }
    /* Everything DOWN: always a reset, whatever up_thresh. */
    {
        unsigned sizes[1] = { 4 };
        uint32_t w[4] = { 5, 1, 1, 3 };
        stat_case *c = add_case(l, "thresh-alldown-multi");
        c->text = make_text(G_MULTI, true, 1.0, 0, sizes, w);
        for (unsigned k = 0; k < 4; k++)
            mark_item(c, G_MULTI, true, k, false, 1000 + k);
        c->expect_failed = 1;
    }
}

static void page_cases(case_list *l)
{
    static const char single[] =
        "X => {\n multi => false\n lb01 => [ 192.0.2.1, 45 ]\n lb02 => [ 192.0.2.1, 60 ]\n"
        " lb03 => [ 192.0.2.1, 75 ]\n}\n";
    static const char multi[] =
        "X => {\n multi => true\n lb01 => [ 192.0.2.1, 45 ]\n lb02 => [ 192.0.2.1, 60 ]\n"
        " lb03 => [ 192.0.2.1, 60 ]\n}\n";
    static const char grouped[] =
        "X => {\n multi => %s\n group1 => {\n  lb01 => [ 192.0.2.1, 10 ]\n"
        "  lb02 => [ 192.0.2.1, 20 ]\n  lb03 => [ 192.0.2.1, 30 ]\n }\n"
        " group2 => {\n  lb01 => [ 192.0.2.7, 10 ]\n  lb02 => [ 192.0.2.8, 20 ]\n"
        "  lb03 => [ 192.0.2.9, 30 ]\n }\n}\n";
    static const char notes[] =
        "X => {\n multi => true\n a => [ 192.0.2.1, 30 ]\n b => [ 192.0.2.2, 30 ]\n"
        " c => [ 192.0.2.3, 30 ]\n d => [ 192.0.2.4, 20 ]\n e => [ 192.0.2.5, 20 ]\n}\n";
    /* hand_p: the page's own figures (25% / 33% / 42%; 75% / 100% / 100%), and for the
     * grouped example two groups of 60: single picks each with 1/2, then 10/30, 20/30,
     * 30/30 inside; multi includes both, then 10/60, 20/60, 30/60. */
    static const double h_single[] = { 45.0 / 180, 60.0 / 180, 75.0 / 180 };
    static const double h_multi[] = { 45.0 / 60, 1, 1 };
    static const double h_gsingle[] = { 1.0 / 6, 1.0 / 3, 0.5, 1.0 / 6, 1.0 / 3, 0.5 };
    static const double h_gmulti[] = { 1.0 / 6, 1.0 / 3, 0.5, 1.0 / 6, 1.0 / 3, 0.5 };
    static const double h_notes[] = { 1, 1, 1, 2.0 / 3, 2.0 / 3 };
    stat_case *c = add_case(l, "page-single-45-60-75");
    c->text = strdup(single);
    c->expect_failed = 0;
    c->n_hand = 3;
    memcpy(c->hand_p, h_single, sizeof h_single);
    c = add_case(l, "page-multi-45-60-60");
    c->text = strdup(multi);
    c->expect_failed = 0;
    c->n_hand = 3;
    memcpy(c->hand_p, h_multi, sizeof h_multi);
    for (int mu = 0; mu < 2; mu++) {
        sbuf b = { 0 };
        sb_printf(&b, grouped, mu ? "true" : "false");
        c = add_case(l, mu ? "page-grouped-multi" : "page-grouped-single");
        c->text = sb_take(&b);
        c->expect_failed = 0;
        c->n_hand = 6;
        memcpy(c->hand_p, mu ? h_gmulti : h_gsingle, sizeof h_gsingle);
    }
    c = add_case(l, "page-notes-30-30-30-20-20");
    c->text = strdup(notes);
    c->expect_failed = 0;
    c->n_hand = 5;
    memcpy(c->hand_p, h_notes, sizeof h_notes);
}

static void synopsis_cases(case_list *l, const char *file)
{
    stat_case *c = add_case(l, "synopsis");
    c->file = file;
    c->expect_failed = 0;
    /* DOWN patterns on the synopsis' monitored resources:
     * pubwww: T = 77, up_thresh 0.01 -> threshold 1: losing pubhost01 (44) leaves 33, no reset;
     * cdnwww: d1-lb1 DOWN changes datacenter1's group weight to 2 (of 7);
     * cn: T = 114, threshold 57; foo (99) DOWN leaves 15 < 57: reset. */
    static const struct {
        const char *name, *resource, *service, *key;
        uint32_t ttl;
        int expect_failed;
    } downs[] = {
        { "synopsis-pubwww-down", "pubwww", "web_check", "192.0.2.1", 30, 0 },
        { "synopsis-cdnwww-down", "cdnwww", "web_check", "127.0.0.1", 45, 0 },
        { "synopsis-cn-down", "cn", "my_cn_check", "lb01.example.org.", 20, 1 },
    };
    for (size_t i = 0; i < sizeof downs / sizeof downs[0]; i++) {
        c = add_case(l, downs[i].name);
        c->file = file;
        c->resource = downs[i].resource;
        mark(c, downs[i].service, downs[i].key, false, downs[i].ttl);
        c->expect_failed = downs[i].expect_failed;
    }
}

static uint32_t gen_weight(uint64_t *x, int kind, unsigned k, unsigned special)
{
    switch (kind) {
    case 0:
        return 1 + sm_below(x, 1048575);
    case 1:
        return 1 + sm_below(x, 10);
    case 2: /* one heavy item among light ones */
        return k == special ? 1048575u : 1u;
    case 3: /* one light item among heavy ones */
        return k == special ? 1u : 1048575u;
    default: {
        uint32_t v = (uint32_t)((1u << sm_below(x, 21)) - 1);
        return v ? v : 1;
    }
    }
}

/* One generated config: given mode, shape and weight kind; DOWN odds q. */
static void gen_case(case_list *l, uint64_t *x, const char *name, enum gmode m, unsigned groups,
                     unsigned max_size, int kind, double q, double u, bool fixed_sizes)
{
    unsigned sizes[64];
    unsigned n = 0;
    unsigned ng = groups ? groups : 1;
    for (unsigned g = 0; g < ng; g++) {
        sizes[g] = fixed_sizes ? max_size : 1 + sm_below(x, max_size);
        n += sizes[g];
    }
    uint32_t *w = calloc(n ? n : 1, sizeof *w);
    if (!w)
        abort();
    unsigned special = sm_below(x, n);
    for (unsigned k = 0; k < n; k++)
        w[k] = gen_weight(x, kind, k, special);
    bool v6 = m != G_CNAME && (sm_next(x) & 1);
    stat_case *c = add_case(l, name);
    c->text = make_text(m, v6, u, groups, sizes, w);
    for (unsigned k = 0; k < n; k++) {
        bool down = q > 0 && (double)(sm_next(x) >> 11) * 0x1p-53 < q;
        uint32_t ttl = 1 + sm_below(x, 86400);
        mark_item(c, m, v6, k, !down, ttl);
    }
    if (n > 64)
        c->draws = 0.25;
    free(w);
}

size_t cases_build(stat_case **out, uint64_t seed, unsigned gen_count)
{
    case_list l = { 0 };
    synopsis_cases(&l, "examples/synopsis.conf");
    page_cases(&l);
    threshold_cases(&l);

    uint64_t x = seed;
    char name[96];
    /* Shapes at the limits (doc/weighted.md §3.6): extreme ratios, full width, 64x64 groups. */
    gen_case(&l, &x, "gen-single-64-heavy1", G_SINGLE, 0, 64, 2, 0.0, 0.5, true);
    gen_case(&l, &x, "gen-single-64-light1", G_SINGLE, 0, 64, 3, 0.0, 0.5, true);
    gen_case(&l, &x, "gen-multi-2-1vs1048575", G_MULTI, 0, 2, 3, 0.0, 0.5, true);
    gen_case(&l, &x, "gen-multi-64-light1", G_MULTI, 0, 64, 3, 0.0, 0.5, true);
    gen_case(&l, &x, "gen-multi-64-small", G_MULTI, 0, 64, 1, 0.1, 0.5, true);
    gen_case(&l, &x, "gen-cname-64-uniform", G_CNAME, 0, 64, 0, 0.2, 0.5, true);
    gen_case(&l, &x, "gen-gsingle-64x64", G_GSINGLE, 64, 64, 1, 0.05, 0.5, true);
    gen_case(&l, &x, "gen-gmulti-64x64", G_GMULTI, 64, 64, 1, 0.05, 0.5, true);
    gen_case(&l, &x, "gen-gmulti-64x1-light1", G_GMULTI, 64, 1, 3, 0.0, 0.5, true);
    static const double qs[] = { 0.0, 0.2, 0.5, 0.9 };
    static const double us[] = { 0.5, 0.01, 1.0, 0.07, 0.3 };
    for (unsigned i = 0; i < gen_count; i++) {
        enum gmode m = (enum gmode)(i % G_COUNT);
        int kind = (int)sm_below(&x, 5);
        unsigned groups = 0, max_size = 1 + sm_below(&x, 64);
        if (m == G_GSINGLE || m == G_GMULTI) {
            groups = 1 + sm_below(&x, 12);
            max_size = 1 + sm_below(&x, 12);
        }
        double q = qs[sm_below(&x, 4)], u = us[sm_below(&x, 5)];
        snprintf(name, sizeof name, "gen%02u-%s-k%d", i, gmode_name[m], kind);
        gen_case(&l, &x, name, m, groups, max_size, kind, q, u, false);
    }
    /* The shared test generator's configs: several resources each, explicit
     * addrs_v4/addrs_v6 pairs, inherited parameters, duplicate addresses. */
    static const double pd[] = { 0.0, 0.3, 0.6, 0.95 };
    for (unsigned i = 0; i < (gen_count + 3) / 4; i++) {
        snprintf(name, sizeof name, "support-gen%02u", i);
        stat_case *c = add_case(&l, name);
        c->support_gen = true;
        c->gen_seed = sm_next(&x);
        c->p_down = pd[i % 4];
        c->draws = 0.25;
    }
    *out = l.v;
    return l.n;
}

void cases_free(stat_case *cases, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(cases[i].text);
        free(cases[i].marks);
    }
    free(cases);
}
