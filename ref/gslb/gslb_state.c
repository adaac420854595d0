/* GSLB engine state as JSON: the same shape the inputs reader takes under "state" and
 * "persistence" (doc/gslb.md §3), so that one run's output state feeds the next run. */
#include <jansson.h>
#include <stdlib.h>

#include "../../core/gslb/gslb_internal.h"

static json_t *stepst_json(const wsel__gslb_stepst *st, size_t n, const char *(*name)(const void *, size_t),
                           const void *ctx)
{
    json_t *o = json_object(), *r = json_object();
    if (!o || !r) {
        json_decref(o);
        json_decref(r);
        return NULL;
    }
    json_object_set_new(o, "rr", json_integer(st->rr));
    if (st->wrr.used)
        for (size_t i = 0; i < n; i++)
            if (st->wrr.w[i]) {
                json_t *e = json_object();
                json_object_set_new(e, "w", json_integer(st->wrr.w[i]));
                json_object_set_new(e, "cur", json_integer(st->wrr.cur[i]));
                json_object_set_new(r, name(ctx, i), e);
            }
    json_object_set_new(o, "ratio", r);
    return o;
}

static const char *wpool_name(const void *ctx, size_t i)
{
    const wsel_gslb_wideip *w = ctx;
    return w->pools[i].name;
}

static const char *member_name(const void *ctx, size_t i)
{
    const wsel_gslb_pool *p = ctx;
    return p->members[i].key;
}

static bool stepst_initial(const wsel__gslb_stepst *st)
{
    return st->rr == -1 && !st->wrr.used;
}

char *wsel_gslb_state_json(const wsel_gslb_state *st)
{
    if (!st)
        return NULL;
    const wsel_gslb_config *cfg = st->cfg;
    json_t *root = json_object(), *wo = json_object(), *po = json_object(), *pa = json_array();
    if (!root || !wo || !po || !pa) {
        json_decref(root);
        json_decref(wo);
        json_decref(po);
        json_decref(pa);
        return NULL;
    }
    for (size_t i = 0; i < cfg->n_wideips; i++)
        if (!stepst_initial(&st->wideip_st[i]))
            json_object_set_new(wo, cfg->wideips[i].name,
                                stepst_json(&st->wideip_st[i], cfg->wideips[i].n_pools, wpool_name,
                                            &cfg->wideips[i]));
    static const char *const steps[3] = {"preferred", "alternate", "fallback"};
    for (size_t p = 0; p < cfg->n_pools; p++) {
        json_t *pj = NULL;
        for (size_t s = 0; s < 3; s++) {
            const wsel__gslb_stepst *ss = &st->pool_st[p * 3 + s];
            if (stepst_initial(ss))
                continue;
            if (!pj)
                pj = json_object();
            json_object_set_new(pj, steps[s],
                                stepst_json(ss, cfg->pools[p].n_members, member_name, &cfg->pools[p]));
        }
        if (pj)
            json_object_set_new(po, cfg->pools[p].name, pj);
    }
    for (size_t i = 0; i < st->n_prec; i++) {
        const wsel__gslb_prec *r = &st->prec[i];
        char a[64], key[80];
        wsel_gslb_addr_str(&r->net, a, sizeof a);
        wsel__gslb_fmt(key, sizeof key, "%s/%u", a, r->prefix);
        json_t *e = json_object();
        json_object_set_new(e, "wideip", json_string(cfg->wideips[r->wideip].name));
        json_object_set_new(e, "key", json_string(key));
        json_object_set_new(e, "pool", json_string(cfg->pools[r->pool].name));
        json_object_set_new(e, "member", json_string(cfg->pools[r->pool].members[r->member].key));
        json_object_set_new(e, "expires", json_integer((json_int_t)r->expires));
        json_array_append_new(pa, e);
    }
    json_object_set_new(root, "wideip", wo);
    json_object_set_new(root, "pool", po);
    json_object_set_new(root, "persistence", pa);
    if (st->n_random)
        json_object_set_new(root, "random_used", json_integer((json_int_t)st->random_pos));
    char *s = json_dumps(root, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(root);
    return s;
}
