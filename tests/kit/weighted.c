/* The weighted system's part of the kit (kit_weighted.h) and its system-table entry. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include "kit_weighted.h"
#include "kit_system.h"

/* ---- random config text ----------------------------------------------------------- */

const char *const wsel_kit_weighted_services[] = { "svc_a", "svc_b", "svc_c", NULL };

typedef wsel_kit_sbuf sbuf;
#define sb_printf wsel_kit_sb_printf
#define range wsel_kit_range

static bool chance(uint64_t *rs, unsigned percent)
{
    return range(rs, 0, 99) < percent;
}

static unsigned gen_count(uint64_t *rs, unsigned cap)
{
    unsigned n;
    uint64_t k = range(rs, 0, 99);
    if (k < 10)
        n = 1;
    else if (k < 18)
        n = 64;
    else if (k < 70)
        n = (unsigned)range(rs, 1, 8);
    else
        n = (unsigned)range(rs, 1, 64);
    return n > cap ? cap : n;
}

static uint32_t gen_weight(uint64_t *rs)
{
    uint64_t k = range(rs, 0, 99);
    if (k < 12)
        return 1;
    if (k < 24)
        return WSEL_MAX_WEIGHT;
    if (k < 60)
        return (uint32_t)range(rs, 1, 10);
    if (k < 75)
        return (uint32_t)range(rs, 1, 1000);
    return (uint32_t)range(rs, 1, WSEL_MAX_WEIGHT);
}

static void gen_up_thresh(sbuf *b, uint64_t *rs)
{
    static const char *const fixed[] = { "0.5", "0.07", "1", "1.0", "0.01", "0.75",
                                         "0.001", "0.999" };
    if (chance(rs, 70))
        sb_printf(b, "%s", fixed[range(rs, 0, 7)]);
    else
        sb_printf(b, "0.%03u", (unsigned)range(rs, 1, 999));
}

static void gen_services(sbuf *b, uint64_t *rs, const wsel_kit_weighted_opts *o)
{
    if (o->no_services) {
        sb_printf(b, "up");
        return;
    }
    uint64_t k = range(rs, 0, 9);
    if (k == 0) {
        sb_printf(b, "[]");
    } else if (k < 4) {
        sb_printf(b, "%s", wsel_kit_weighted_services[range(rs, 0, 2)]);
    } else if (k < 6) {
        sb_printf(b, "up");
    } else {
        sb_printf(b, "[ ");
        unsigned n = (unsigned)range(rs, 1, 3);
        for (unsigned i = 0; i < n; i++)
            sb_printf(b, "%s%s", i ? ", " : "",
                      chance(rs, 20) ? "up" : wsel_kit_weighted_services[range(rs, 0, 2)]);
        sb_printf(b, " ]");
    }
}

/* Optional parameters at one level (each present with some chance). */
static void gen_params(sbuf *b, uint64_t *rs, const wsel_kit_weighted_opts *o, int force_multi,
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
        sb_printf(b, "10.%u.%u.%u", (unsigned)range(rs, 0, 1),
                  (unsigned)range(rs, 0, 3), (unsigned)range(rs, 1, 254));
    } else {
        unsigned v = (unsigned)range(rs, 1, 0x3ff);
        sb_printf(b, chance(rs, 25) ? "2001:DB8::%X" : "2001:db8::%x", v);
    }
}

static void gen_item(sbuf *b, uint64_t *rs, const char *indent, unsigned label, int family)
{
    sb_printf(b, "%si%u = [ ", indent, label);
    if (family == 0)
        sb_printf(b, "t%u.example.net.", (unsigned)range(rs, 0, 200));
    else
        gen_addr(b, rs, family);
    sb_printf(b, ", %u ]\n", (unsigned)gen_weight(rs));
}

/* Items of one set; mode is a wsel_mode. Multi is set by the caller via params. */
static void gen_set_items(sbuf *b, uint64_t *rs, const wsel_kit_weighted_opts *o, int mode,
                          int family, const char *indent)
{
    unsigned cap = o->max_items ? o->max_items : 64;
    unsigned gcap = o->max_group ? o->max_group : 64;
    bool grouped = mode == WSEL_MODE_GROUPED_SINGLE || mode == WSEL_MODE_GROUPED_MULTI;
    /* keep wide grouped sets mostly small, but let a full 64 x 64 set through now and then */
    bool huge = o->max_shape || (grouped && chance(rs, 2));
    unsigned n = huge ? cap : gen_count(rs, cap);
    if (grouped && !huge && n > 16 && gcap > 16 && chance(rs, 70))
        n = (unsigned)range(rs, 1, 16);
    for (unsigned i = 0; i < n; i++) {
        if (!grouped) {
            gen_item(b, rs, indent, i, family);
            continue;
        }
        sb_printf(b, "%sg%u => {\n", indent, i);
        unsigned m = huge ? gcap : gen_count(rs, gcap);
        if (!huge && n > 16 && m > 8)
            m = (unsigned)range(rs, 1, 8);
        char inner[64];
        snprintf(inner, sizeof inner, "%s  ", indent);
        for (unsigned j = 0; j < m; j++)
            gen_item(b, rs, inner, j, family);
        sb_printf(b, "%s}\n", indent);
    }
}

static int pick_mode(uint64_t *rs, const wsel_kit_weighted_opts *o, bool allow_cname)
{
    if (o->mode >= 0)
        return o->mode;
    int m = (int)range(rs, 0, allow_cname ? 4 : 3);
    return m;
}

char *wsel_kit_weighted_gen_config(uint64_t seed, const wsel_kit_weighted_opts *opts)
{
    wsel_kit_weighted_opts o = { 0 };
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

    sb_printf(&b, "# generated by wsel_kit_weighted_gen_config, seed %llu\n", (unsigned long long)seed);
    gen_params(&b, &rs, &o, -1, "");
    unsigned nres = o.resources ? o.resources : (unsigned)range(&rs, 1, 6);
    for (unsigned r = 0; r < nres; r++) {
        sb_printf(&b, "r%u => {\n", r);
        bool explicit_fam = !o.no_explicit && o.mode != WSEL_MODE_CNAME && chance(&rs, 25);
        if (explicit_fam) {
            gen_params(&b, &rs, &o, -1, "  ");
            int which = (int)range(&rs, 0, 2); /* v4, v6, both */
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

int wsel_kit_weighted_random_state(wsel_state *st, const wsel_config *cfg, uint64_t seed,
                                   double p_down, bool random_ttl, wsel_error *err)
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
                double u = (double)(wsel_kit_mix(&rs) >> 11) / 9007199254740992.0;
                uint32_t ttl = random_ttl ? (uint32_t)range(&rs, 0, WSEL_MAX_TTL)
                                          : WSEL_MAX_TTL;
                int rc = wsel_state_set(st, svc, set->items[i].key, u >= p_down, ttl, NULL,
                                        err);
                if (rc != WSEL_OK)
                    return rc;
            }
        }
    }
    return WSEL_OK;
}

/* ---- what the state makes of a set ------------------------------------------------- */

bool wsel_kit_weighted_dyn(const wsel_set *set, const wsel_state *st, uint64_t *d, bool *up,
                           uint32_t *ttl)
{
    uint64_t sum = 0, total = 0;
    *ttl = WSEL_MAX_TTL;
    for (uint32_t i = 0; i < set->n_items; i++) {
        wsel_mstate ms = wsel_state_item(st, set, &set->items[i]);
        up[i] = ms.up;
        d[i] = ms.up ? set->items[i].weight : 0;
        sum += d[i];
        total += set->items[i].weight;
        if (ms.ttl < *ttl)
            *ttl = ms.ttl;
    }
    bool failed = sum < (uint64_t)ceil((double)total * set->up_thresh);
    if (failed)
        for (uint32_t i = 0; i < set->n_items; i++)
            d[i] = set->items[i].weight;
    return failed;
}

#define max_of wsel_kit_max

/* ---- answer invariants ------------------------------------------------------------- */

#define BAD(...) (snprintf(buf, len, __VA_ARGS__), buf)

void wsel_kit_weighted_truth_of(const wsel_set *set, const wsel_state *st,
                                wsel_kit_weighted_truth *t)
{
    t->failed = wsel_kit_weighted_dyn(set, st, t->d, t->up, &t->ttl);
    uint32_t n = set->n_items;
    if (!set->grouped) {
        uint64_t M = max_of(t->d, n);
        for (uint32_t i = 0; i < n; i++)
            t->must[i] = set->multi && t->d[i] == M;
        return;
    }
    uint64_t gw[WSEL_MAX_ITEMS] = { 0 };
    for (uint32_t g = 0; g < set->n_groups; g++) {
        const wsel_group *grp = &set->groups[g];
        uint64_t M = max_of(&t->d[grp->first], grp->count);
        for (uint32_t j = 0; j < grp->count; j++) {
            t->must[grp->first + j] = t->d[grp->first + j] == M;
            gw[g] += t->d[grp->first + j];
        }
    }
    uint64_t GM = max_of(gw, set->n_groups);
    for (uint32_t g = 0; g < set->n_groups; g++)
        t->gmust[g] = gw[g] == GM;
}

const char *wsel_kit_weighted_check_truth(const wsel_set *set, const wsel_kit_weighted_truth *t,
                                          const wsel_set_answer *a, char *buf, size_t len)
{
    uint32_t n = set->n_items;
    if (a->count < 1 || a->count > n || a->count > WSEL_ANSWER_MAX)
        return BAD("answer of %u items (expected 1..%u)", a->count, n);
    if (a->failed != t->failed)
        return BAD("failed flag %d, the state gives %d", a->failed, t->failed);
    if (a->ttl != t->ttl)
        return BAD("ttl %u, the state gives %u", a->ttl, t->ttl);
    for (uint32_t k = 0; k < a->count; k++) {
        uint32_t i = a->items[k];
        if (i >= n)
            return BAD("item index %u out of range (%u items)", i, n);
        if (k && i <= a->items[k - 1])
            return BAD("items not in config order (%u then %u)", a->items[k - 1], i);
        if (!t->failed && !t->up[i])
            return BAD("DOWN item %u answered without failover", i);
    }
    if (!set->grouped && !set->multi)
        return a->count == 1 ? NULL : BAD("single answer with %u items", a->count);
    if (!set->grouped) {
        for (uint32_t i = 0, k = 0; i < n; i++) {
            while (k < a->count && a->items[k] < i)
                k++;
            if (t->must[i] && (k == a->count || a->items[k] != i))
                return BAD("max-weight item %u missing from a multi answer", i);
        }
        return NULL;
    }
    if (!set->multi) {
        uint32_t g = set->items[a->items[0]].group;
        const wsel_group *grp = &set->groups[g];
        for (uint32_t k = 0; k < a->count; k++)
            if (set->items[a->items[k]].group != g)
                return BAD("grouped-single answer mixes groups %u and %u", g,
                           set->items[a->items[k]].group);
        for (uint32_t j = 0, k = 0; j < grp->count; j++) {
            while (k < a->count && a->items[k] < grp->first + j)
                k++;
            if (t->must[grp->first + j] && (k == a->count || a->items[k] != grp->first + j))
                return BAD("max-weight address %u missing from chosen group %u", j, g);
        }
        return NULL;
    }
    uint32_t per_group[WSEL_MAX_ITEMS] = { 0 };
    for (uint32_t k = 0; k < a->count; k++) {
        uint32_t g = set->items[a->items[k]].group;
        if (++per_group[g] > 1)
            return BAD("grouped-multi answer holds 2 addresses of group %u", g);
    }
    for (uint32_t g = 0; g < set->n_groups; g++)
        if (t->gmust[g] && per_group[g] != 1)
            return BAD("max-weight group %u missing", g);
    return NULL;
}

const char *wsel_kit_weighted_check_set(const wsel_set *set, const wsel_state *st,
                                        const wsel_set_answer *a, char *buf, size_t len)
{
    static wsel_kit_weighted_truth t;
    wsel_kit_weighted_truth_of(set, st, &t);
    return wsel_kit_weighted_check_truth(set, &t, a, buf, len);
}

/* The resource's check: each set against its truth (t[s], or worked out from st when t
 * is NULL), then the overall flag and TTL. */
static const char *check_resource(const wsel_resource *res, const wsel_state *st,
                                  const wsel_kit_weighted_truth *const *t,
                                  const wsel_answer *a, char *buf, size_t len)
{
    if (a->n_sets != res->n_sets)
        return BAD("answer of %u sets, resource %s has %u", a->n_sets, res->name, res->n_sets);
    bool failed = false;
    uint32_t ttl = WSEL_MAX_TTL;
    for (uint32_t s = 0; s < res->n_sets; s++) {
        char why[400];
        const char *bad = t ? wsel_kit_weighted_check_truth(&res->sets[s], t[s], &a->set[s], why,
                                                            sizeof why)
                            : wsel_kit_weighted_check_set(&res->sets[s], st, &a->set[s], why,
                                                          sizeof why);
        if (bad)
            return BAD("%s set %u: %s", res->name, s, why);
        failed = failed || a->set[s].failed;
        if (a->set[s].ttl < ttl)
            ttl = a->set[s].ttl;
    }
    if (a->failed != failed || a->ttl != ttl)
        return BAD("%s: overall failed/ttl %d/%u, the sets give %d/%u", res->name, a->failed,
                   a->ttl, failed, ttl);
    return NULL;
}

const char *wsel_kit_weighted_check(const wsel_resource *res, const wsel_state *st,
                                    const wsel_answer *a, char *buf, size_t len)
{
    return check_resource(res, st, NULL, a, buf, len);
}

const char *wsel_kit_weighted_check_truths(const wsel_resource *res,
                                           const wsel_kit_weighted_truth *const *t,
                                           const wsel_answer *a, char *buf, size_t len)
{
    return check_resource(res, NULL, t, a, buf, len);
}

#undef BAD

/* ---- boundary words ---------------------------------------------------------------- */

static void around(uint64_t e, uint64_t *out, size_t *n, size_t max)
{
    const uint64_t w[3] = { e - 1, e, e + 1 };
    for (int k = 0; k < 3 && *n < max; k++)
        out[(*n)++] = w[k];
}

void wsel_kit_weighted_edges(const wsel_set *set, const wsel_state *st, uint64_t *out,
                             size_t *n, size_t max)
{
    static uint64_t d[WSEL_MAX_ITEMS * WSEL_MAX_ITEMS];
    static bool up[WSEL_MAX_ITEMS * WSEL_MAX_ITEMS];
    uint32_t ttl;
    wsel_kit_weighted_dyn(set, st, d, up, &ttl);
    if (*n < max)
        out[(*n)++] = 0;
    if (*n < max)
        out[(*n)++] = UINT64_MAX;
    if (!set->grouped) {
        uint64_t D = 0, M = 0;
        for (uint32_t i = 0; i < set->n_items; i++) {
            D += d[i];
            M = d[i] > M ? d[i] : M;
        }
        uint64_t c = 0;
        for (uint32_t i = 0; i < set->n_items; i++) {
            c += d[i];
            around(wsel_kit_edge_sat(c, D), out, n, max);
            around(wsel_kit_edge_sat(d[i], M), out, n, max);
        }
        return;
    }
    uint64_t G[WSEL_MAX_ITEMS], D = 0, GM = 0;
    for (uint32_t g = 0; g < set->n_groups; g++) {
        const wsel_group *grp = &set->groups[g];
        uint64_t s = 0, m = 0, c = 0;
        for (uint32_t j = 0; j < grp->count; j++) {
            s += d[grp->first + j];
            m = d[grp->first + j] > m ? d[grp->first + j] : m;
        }
        for (uint32_t j = 0; j < grp->count && s; j++) {
            c += d[grp->first + j];
            around(wsel_kit_edge_sat(c, s), out, n, max);
            around(wsel_kit_edge_sat(d[grp->first + j], m), out, n, max);
        }
        G[g] = s;
        D += s;
        GM = s > GM ? s : GM;
    }
    uint64_t c = 0;
    for (uint32_t g = 0; g < set->n_groups; g++) {
        c += G[g];
        around(wsel_kit_edge_sat(c, D), out, n, max);
        around(wsel_kit_edge_sat(G[g], GM), out, n, max);
    }
}

/* ---- canonical answer text ---------------------------------------------------------- */

void wsel_kit_weighted_canon(const wsel_resource *res, const wsel_answer *ans, char *buf,
                             size_t len)
{
    size_t pos = 0;
    buf[0] = '\0';
    for (uint32_t s = 0; s < ans->n_sets && s < res->n_sets && pos < len; s++) {
        wsel_answer one = { 0 };
        one.n_sets = 1;
        one.set[0] = ans->set[s];
        one.failed = ans->set[s].failed;
        one.ttl = ans->set[s].ttl;
        wsel_resource r1 = *res;
        r1.sets = &res->sets[s];
        r1.n_sets = 1;
        if (s) {
            int k = snprintf(buf + pos, len - pos, " | ");
            pos += k > 0 ? (size_t)k : 0;
        }
        if (pos < len)
            wsel_kit_format_answer(&r1, &one, buf + pos, len - pos);
        pos += strlen(buf + pos);
    }
    if (pos < len)
        snprintf(buf + pos, len - pos, " = %c %u", ans->failed ? 'F' : '-', (unsigned)ans->ttl);
}

/* ---- the system-table entry ------------------------------------------------------- */

typedef struct wcase {
    char *text;
    wsel_config *cfg;
    wsel_state *st;
    size_t nrv;
    const char *vname[WSEL_KIT_MAX_VARIANTS];
    wsel_resolver *rv[WSEL_KIT_MAX_VARIANTS];
    const wsel_resource *last_res;
    wsel_answer last;
} wcase;

static void w_case_free(void *p)
{
    wcase *c = p;
    if (!c)
        return;
    for (size_t i = 0; i < c->nrv; i++)
        wsel_resolver_free(c->rv[i]);
    wsel_state_free(c->st);
    wsel_config_free(c->cfg);
    free(c->text);
    free(c);
}

/* Queries read the config and the state only (const in resolve.h): a reset drops the
 * resolvers made on first use and the last answer. */
static int w_case_reset(void *p)
{
    wcase *c = p;
    for (size_t i = 0; i < c->nrv; i++)
        wsel_resolver_free(c->rv[i]);
    c->nrv = 0;
    c->last_res = NULL;
    return WSEL_OK;
}

static void *w_case_new(uint64_t seed, char *why, size_t len)
{
    wcase *c = calloc(1, sizeof *c);
    wsel_error err;
    wsel_error_clear(&err);
    /* Small cases (wsel_kit_cases_small, the fuzz target's bound on one input's work):
     * 1..3 resources, sets of at most 8 items or 8 groups of at most 8 addresses. */
    wsel_kit_weighted_opts small = { .resources = 1 + (unsigned)((seed >> 8) % 3),
                                     .max_items = 8, .max_group = 8, .mode = -1 };
    const wsel_kit_weighted_opts *o = wsel_kit_cases_are_small() ? &small : NULL;
    if (!c || !(c->text = wsel_kit_weighted_gen_config(seed, o))) {
        snprintf(why, len, "out of memory");
        w_case_free(c);
        return NULL;
    }
    wsel_load_opts opts = { 0 };
    opts.input = WSEL_INPUT_STANZA;
    opts.flags = WSEL_LOAD_NO_INCLUDE;
    int rc = wsel_config_load_buffer("generated.conf", c->text, strlen(c->text), &opts,
                                     &c->cfg, &err);
    if (rc == WSEL_OK)
        rc = wsel_state_new(c->cfg, &c->st, &err);
    if (rc == WSEL_OK)
        rc = wsel_kit_weighted_random_state(c->st, c->cfg, seed, 0.3, true, &err);
    return wsel_kit_case_done(c, rc, w_case_free, seed, &err, why, len);
}

static const char *w_case_text(const void *p)
{
    return ((const wcase *)p)->text;
}

static size_t w_queries(const void *p)
{
    return wsel_config_resource_count(((const wcase *)p)->cfg);
}

static size_t w_words(const void *p, size_t q)
{
    return wsel_resource_words(wsel_config_resource(((const wcase *)p)->cfg, q));
}

/* The resolver of `variant`, made on first use; NULL with *rc set when it cannot be. */
static wsel_resolver *w_resolver(wcase *c, const char *variant, int *rc)
{
    size_t i = 0;
    while (i < c->nrv && strcmp(c->vname[i], variant) != 0)
        i++;
    if (i < c->nrv)
        return c->rv[i];
    if (i == WSEL_KIT_MAX_VARIANTS) {
        *rc = WSEL_E_ARG;
        return NULL;
    }
    wsel_error err;
    wsel_error_clear(&err);
    *rc = wsel_kit_resolver_new(c->cfg, c->st, variant, &c->rv[i], &err);
    if (*rc != WSEL_OK)
        return NULL;
    c->vname[i] = variant;
    c->nrv++;
    return c->rv[i];
}

static int w_query(void *p, const char *variant, size_t q, wsel_rng *rng)
{
    wcase *c = p;
    const wsel_resource *res = wsel_config_resource(c->cfg, q);
    int rc = WSEL_OK;
    c->last_res = NULL;
    if (!variant) {
        rc = wsel_ref_resolve(res, c->st, rng, &c->last);
    } else {
        wsel_resolver *r = w_resolver(c, variant, &rc);
        if (r)
            rc = wsel_resolve(r, res, rng, &c->last);
    }
    if (rc == WSEL_OK)
        c->last_res = res;
    return rc;
}

static int w_run(void *p, const char *variant, size_t q, wsel_rng *rng, char *out, size_t len)
{
    wcase *c = p;
    memset(&c->last, 0xa5, sizeof c->last);
    int rc = w_query(c, variant, q, rng);
    if (rc != WSEL_OK) {
        snprintf(out, len, "%s%s: %s", variant ? "variant " : "reference",
                 variant ? variant : "", wsel_strerror(rc));
        return rc;
    }
    wsel_kit_weighted_canon(c->last_res, &c->last, out, len);
    return WSEL_OK;
}

static const char *w_check(const void *p, char *buf, size_t len)
{
    const wcase *c = p;
    if (!c->last_res) {
        snprintf(buf, len, "no answer to check");
        return buf;
    }
    return wsel_kit_weighted_check(c->last_res, c->st, &c->last, buf, len);
}

static size_t w_boundary(const void *p, size_t q, uint64_t *out, size_t max)
{
    const wcase *c = p;
    const wsel_resource *res = wsel_config_resource(c->cfg, q);
    size_t n = 0;
    for (uint32_t s = 0; s < res->n_sets; s++)
        wsel_kit_weighted_edges(&res->sets[s], c->st, out, &n, max);
    return n;
}

const wsel_kit_system wsel_kit_system_weighted = {
    .name = "weighted",
    .case_new = w_case_new,
    .case_free = w_case_free,
    .case_reset = w_case_reset,
    .case_text = w_case_text,
    .queries = w_queries,
    .words = w_words,
    .run = w_run,
    .query = w_query,
    .check = w_check,
    .boundary = w_boundary,
};
