/* GSLB engine state: made for a config (and initialised from the inputs' "state",
 * "persistence" and "random"), freed, and written as JSON in the shape the inputs reader
 * takes under "state" and "persistence" (doc/gslb.md §3), so that one run's output
 * state feeds the next run. The JSON goes through the one writer (core/json_write.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/io.h"
#include "../../core/json_write.h"
#include "gslb_engine.h"

/* ---- new, free ---- */

void wsel_gslb_state_free(wsel_gslb_state *st)
{
    if (!st)
        return;
    if (st->wideip_st || st->pool_st)
        wsel__gslb_stepst_free(st->cfg, st->wideip_st, st->pool_st);
    free(st->prec);
    free(st->random);
    free(st->vs_mark);
    free(st->vs_dep);
    free(st->pool_mark);
    free(st->elig);
    free(st->elig_off);
    free(st->elig_mark);
    free(st->w_avail);
    free(st->w_ok);
    free(st->w_n_avail);
    free(st->w_mark);
    if (st->sp)
        for (size_t p = 0; p < st->cfg->n_pools; p++)
            free(st->sp[p].order);
    free(st->sp);
    free(st->region_order);
    free(st->region_in);
    wsel__gslb_topo_prep_free(&st->topo);
    free(st);
}

/* The caches, sized once for cfg (a resolve allocates nothing). False when out of memory. */
static bool alloc_caches(wsel_gslb_state *st, const wsel_gslb_config *cfg)
{
    size_t np = cfg->n_pools ? cfg->n_pools : 1, nw = cfg->n_wideips ? cfg->n_wideips : 1;
    size_t n_members = 0;
    st->vs_mark = calloc(cfg->n_vs ? cfg->n_vs : 1, 1);
    st->vs_dep = calloc(cfg->n_vs ? cfg->n_vs : 1, 1);
    st->pool_mark = calloc(np, 1);
    st->sp = calloc(np, sizeof *st->sp);
    st->elig_off = calloc(np, sizeof *st->elig_off);
    for (size_t p = 0; st->elig_off && p < cfg->n_pools; p++) {
        st->elig_off[p] = n_members;
        n_members += cfg->pools[p].n_members;
    }
    st->elig = calloc(n_members ? 2 * n_members : 1, sizeof *st->elig);
    st->elig_mark = calloc(np, 1);
    st->w_avail = calloc(nw, WSEL_GSLB_MAX_POOLS);
    st->w_ok = calloc(nw * WSEL_GSLB_MAX_POOLS, sizeof *st->w_ok);
    st->w_n_avail = calloc(nw, 1);
    st->w_mark = calloc(nw, 1);
    st->region_order = calloc(cfg->n_regions ? cfg->n_regions : 1, sizeof *st->region_order);
    st->region_in = calloc(cfg->n_regions ? 2 * cfg->n_regions : 1, 1);
    if (!st->vs_mark || !st->vs_dep || !st->pool_mark || !st->sp || !st->elig_off || !st->elig ||
        !st->elig_mark || !st->w_avail || !st->w_ok || !st->w_n_avail || !st->w_mark ||
        !st->region_order || !st->region_in)
        return false;
    /* inner regions first; a cycle (not from the reader, which refuses one) leaves
     * its back edge reading "no match" */
    if (wsel__gslb_region_order(cfg, st->region_order, NULL) < 0)
        return false;
    if (!wsel__gslb_topo_prepare(st, cfg))
        return false;
    for (size_t p = 0; p < cfg->n_pools; p++)
        if (!(st->sp[p].order = calloc(cfg->pools[p].n_members ? cfg->pools[p].n_members : 1,
                                       sizeof *st->sp[p].order)))
            return false;
    return true;
}

/* The inputs' method state, persistence records and random words, copied. */
static bool copy_inputs(wsel_gslb_state *st, const wsel_gslb_inputs *in)
{
    wsel__gslb_stepst_copy(st->cfg, st->wideip_st, st->pool_st, in->wideip_st, in->pool_st);
    if (in->n_prec) {
        if (!(st->prec = malloc(in->n_prec * sizeof *st->prec)))
            return false;
        memcpy(st->prec, in->prec, in->n_prec * sizeof *st->prec);
        st->n_prec = st->cap_prec = in->n_prec;
    }
    if (in->n_random) {
        if (!(st->random = malloc(in->n_random * sizeof *st->random)))
            return false;
        memcpy(st->random, in->random, in->n_random * sizeof *st->random);
        st->n_random = in->n_random;
    }
    return true;
}

int wsel_gslb_state_new(const wsel_gslb_config *cfg, const wsel_gslb_inputs *in,
                        wsel_gslb_state **out, wsel_error *err)
{
    if (out)
        *out = NULL;
    if (!cfg || !out || (in && in->cfg != cfg))
        return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, NULL, NULL, NULL, "state: bad arguments");
    wsel_gslb_state *st = calloc(1, sizeof *st);
    if (!st)
        return wsel__fail(err, WSEL_E_NOMEM, NULL, 0, 0, NULL, NULL, NULL, "out of memory");
    st->cfg = cfg;
    if (!alloc_caches(st, cfg) || wsel__gslb_stepst_alloc(cfg, &st->wideip_st, &st->pool_st) ||
        (in && !copy_inputs(st, in))) {
        wsel_gslb_state_free(st);
        return wsel__fail(err, WSEL_E_NOMEM, NULL, 0, 0, NULL, NULL, NULL, "out of memory");
    }
    *out = st;
    return 0;
}

/* ---- JSON ---- */

/* Object keys are written sorted (strcmp, as before: a run's state reads the same from
 * run to run): a name and what it stands for. */
typedef struct named {
    const char *name;
    size_t i;
} named;

static int cmp_named(const void *a, const void *b)
{
    return strcmp(((const named *)a)->name, ((const named *)b)->name);
}

static bool stepst_initial(const wsel__gslb_stepst *st)
{
    return st->rr == -1 && !st->wrr.used;
}

/* sorted[0..n) = names 0..n-1 (name(ctx, i)) in strcmp order. */
static void sort_names(named *sorted, size_t n, const char *(*name)(const void *, size_t),
                       const void *ctx)
{
    for (size_t i = 0; i < n; i++)
        sorted[i] = (named){name(ctx, i), i};
    qsort(sorted, n, sizeof *sorted, cmp_named);
}

static const char *pool_name(const void *ctx, size_t i) /* "aaaa NAME" for AAAA */
{
    return wsel__gslb_pool_key(ctx, i);
}

static const char *wideip_name(const void *ctx, size_t i)
{
    return wsel__gslb_wideip_key(ctx, i);
}

static const char *wpool_name(const void *ctx, size_t i)
{
    return ((const wsel_gslb_wideip *)ctx)->pools[i].name;
}

static const char *member_name(const void *ctx, size_t i)
{
    return ((const wsel_gslb_pool *)ctx)->members[i].key;
}

/* {"ratio": {NAME: {"cur", "w"}}, "rr": N}: name(ctx, i) is candidate i's name; the ratio
 * entries are the candidates of the last pick's set (weight > 0), in name order. */
static void stepst_json(wsel__jw *j, const wsel__gslb_stepst *st, size_t n, const char *(*name)(
                            const void *, size_t), const void *ctx)
{
    named sorted[WSEL__GSLB_NMAX];
    sort_names(sorted, st->wrr.used ? n : 0, name, ctx);
    wsel__jw_obj_begin(j);
    wsel__jw_kobj_begin(j, "ratio");
    for (size_t e = 0; st->wrr.used && e < n; e++) {
        size_t i = sorted[e].i;
        if (!st->wrr.w[i])
            continue;
        wsel__jw_kobj_begin(j, sorted[e].name);
        wsel__jw_ki64(j, "cur", st->wrr.cur[i]);
        wsel__jw_ku64(j, "w", st->wrr.w[i]);
        wsel__jw_obj_end(j);
    }
    wsel__jw_obj_end(j);
    wsel__jw_ki64(j, "rr", st->rr);
    wsel__jw_obj_end(j);
}

static void persistence_json(wsel__jw *j, const wsel_gslb_state *st)
{
    const wsel_gslb_config *cfg = st->cfg;
    wsel__jw_karr_begin(j, "persistence");
    for (size_t i = 0; i < st->n_prec; i++) {
        const wsel__gslb_prec *r = &st->prec[i];
        char a[64], key[80];
        wsel_gslb_addr_str(&r->net, a, sizeof a);
        wsel__gslb_fmt(key, sizeof key, "%s/%u", a, r->prefix);
        wsel__jw_obj_begin(j);
        wsel__jw_ku64(j, "expires", r->expires);
        wsel__jw_kstr(j, "key", key);
        wsel__jw_kstr(j, "member", cfg->pools[r->pool].members[r->member].key);
        wsel__jw_kstr(j, "pool", wsel__gslb_pool_key(cfg, r->pool));
        wsel__jw_kstr(j, "wideip", wsel__gslb_wideip_key(cfg, r->wideip));
        wsel__jw_obj_end(j);
    }
    wsel__jw_arr_end(j);
}

/* "pool": {POOL: {"alternate"|"fallback"|"preferred": STEP}} for the pools whose state
 * moved, in name order (sorted[] holds room for every pool). */
static void pools_json(wsel__jw *j, const wsel_gslb_state *st, named *sorted)
{
    static const char *const steps[3] = {"alternate", "fallback", "preferred"};
    static const size_t step_of[3] = {1, 2, 0};
    const wsel_gslb_config *cfg = st->cfg;
    sort_names(sorted, cfg->n_pools, pool_name, cfg);
    wsel__jw_kobj_begin(j, "pool");
    for (size_t k = 0; k < cfg->n_pools; k++) {
        size_t p = sorted[k].i;
        const wsel__gslb_stepst *ps = &st->pool_st[p * 3];
        if (stepst_initial(&ps[0]) && stepst_initial(&ps[1]) && stepst_initial(&ps[2]))
            continue;
        wsel__jw_kobj_begin(j, wsel__gslb_pool_key(cfg, p));
        for (size_t s = 0; s < 3; s++)
            if (!stepst_initial(&ps[step_of[s]])) {
                wsel__jw_key(j, steps[s]);
                stepst_json(j, &ps[step_of[s]], cfg->pools[p].n_members, member_name,
                            &cfg->pools[p]);
            }
        wsel__jw_obj_end(j);
    }
    wsel__jw_obj_end(j);
}

/* "wideip": {WIDEIP: STEP} for the wide IPs whose state moved, in name order. */
static void wideips_json(wsel__jw *j, const wsel_gslb_state *st, named *sorted)
{
    const wsel_gslb_config *cfg = st->cfg;
    sort_names(sorted, cfg->n_wideips, wideip_name, cfg);
    wsel__jw_kobj_begin(j, "wideip");
    for (size_t k = 0; k < cfg->n_wideips; k++) {
        size_t w = sorted[k].i;
        if (stepst_initial(&st->wideip_st[w]))
            continue;
        wsel__jw_key(j, wsel__gslb_wideip_key(cfg, w));
        stepst_json(j, &st->wideip_st[w], cfg->wideips[w].n_pools, wpool_name,
                    &cfg->wideips[w]);
    }
    wsel__jw_obj_end(j);
}

char *wsel_gslb_state_json(const wsel_gslb_state *st)
{
    if (!st)
        return NULL;
    const wsel_gslb_config *cfg = st->cfg;
    size_t n = cfg->n_pools > cfg->n_wideips ? cfg->n_pools : cfg->n_wideips;
    named *sorted = malloc((n ? n : 1) * sizeof *sorted);
    char *text = NULL;
    size_t size = 0;
    FILE *f = sorted ? wsel__memout_open(&text, &size) : NULL;
    if (!f) {
        free(sorted);
        return NULL;
    }
    wsel__jw j;
    wsel__jw_init(&j, f);
    wsel__jw_obj_begin(&j);
    persistence_json(&j, st);
    pools_json(&j, st, sorted);
    if (st->n_random)
        wsel__jw_ku64(&j, "random_used", st->random_pos);
    wideips_json(&j, st, sorted);
    wsel__jw_obj_end(&j);
    int werr = wsel__jw_finish(&j); /* a failed write: out of memory */
    free(sorted);
    if (!wsel__memout_close(f, &text, &size) || werr || !size) {
        free(text);
        return NULL;
    }
    text[size - 1] = '\0'; /* the writer's closing newline */
    return text;
}
