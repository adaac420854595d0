/* Resolvers: a variant bound to a config and a state (resolve.h). The engine-neutral
 * part -- argument checks, the choice of variant, the calls into the engine's ops
 * (core/weighted/weighted_variant.h) -- for every engine; the fast engine's snapshots are in
 * fast/weighted/weighted_snapshots.c. */
#include <stdlib.h>
#include <string.h>

#include "weighted_resolver.h"

void wsel_resolver_free(wsel_resolver *r)
{
    if (!r)
        return;
    if (r->variant->ops && r->variant->ops->detach)
        r->variant->ops->detach(r);
    free(r);
}

/* The query of a one-resource resolver (wsel_resolver_new_for): any other resource is
 * refused here, so the shared query path pays nothing for the case, and the fast
 * engine's kernels only ever see the resource whose snapshot was built. */
static int query_only(const wsel_resolver *r, const wsel_resource *res, wsel_rng *rng,
                      wsel_answer *ans)
{
    if (res != r->only)
        return WSEL_E_ARG;
    return r->variant->query(r, res, rng, ans);
}

static int resolver_new(const wsel_config *cfg, const wsel_state *st,
                        const wsel__variant *v, const wsel_resource *only,
                        wsel_resolver **out, wsel_error *err)
{
    const wsel__engine_ops *ops = v->ops;
    if (ops && ops->check) {
        int rc = ops->check(cfg, err);
        if (rc != WSEL_OK)
            return rc;
    }
    wsel_resolver *r = calloc(1, sizeof *r);
    if (!r)
        return wsel__fail(err, WSEL_E_NOMEM, NULL, 0, 0, NULL, NULL, NULL, "out of memory");
    r->cfg = cfg;
    r->st = st;
    r->variant = v;
    r->query = only ? query_only : v->query;
    r->only = only;
    if (ops && ops->attach && ops->attach(r) != WSEL_OK) {
        wsel_resolver_free(r);
        return wsel__fail(err, WSEL_E_NOMEM, NULL, 0, 0, NULL, NULL, NULL,
                          "out of memory while preparing the %s engine",
                          wsel_engine_name(v->engine));
    }
    *out = r;
    return WSEL_OK;
}

static int check_args(const wsel_config *cfg, const wsel_state *st, wsel_resolver **out,
                      wsel_error *err)
{
    if (out)
        *out = NULL;
    if (!cfg || !st || !out)
        return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, NULL, NULL, NULL,
                          "wsel_resolver_new: expected a config, a state and an output pointer");
    if (wsel_state_config(st) != cfg)
        return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, NULL, NULL, NULL,
                          "wsel_resolver_new: the state was created for a different config");
    return WSEL_OK;
}

/* The variant a name stands for: "fast" is the fast engine's choice. */
static const wsel__variant *variant_named(const char *name)
{
    return name && strcmp(name, "fast") == 0 ? wsel__variant_fast() : wsel__variant_find(name);
}

int wsel_variant_check(const char *name)
{
    const wsel__variant *v = variant_named(name);
    if (!v)
        return WSEL_E_ARG;
    return wsel__variant_runs(v) ? WSEL_OK : WSEL_E_UNSUPPORTED;
}

static int new_variant(const wsel_config *cfg, const wsel_state *st, const char *variant,
                       const wsel_resource *only, wsel_resolver **out, wsel_error *err)
{
    const wsel__variant *v = variant_named(variant);
    if (!v)
        return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, NULL, NULL, NULL,
                          "wsel_resolver_new: unknown engine '%s'", variant ? variant : "(null)");
    if (!wsel__variant_runs(v))
        return wsel__fail(err, WSEL_E_UNSUPPORTED, NULL, 0, 0, NULL, NULL, NULL,
                          "engine %s is not available in this build or on this CPU", v->info.name);
    return resolver_new(cfg, st, v, only, out, err);
}

int wsel_resolver_new_variant(const wsel_config *cfg, const wsel_state *st,
                              const char *variant, wsel_resolver **out, wsel_error *err)
{
    int rc = check_args(cfg, st, out, err);
    if (rc != WSEL_OK)
        return rc;
    return new_variant(cfg, st, variant, NULL, out, err);
}

int wsel_resolver_new_for(const wsel_config *cfg, const wsel_state *st, const char *variant,
                          const wsel_resource *res, wsel_resolver **out, wsel_error *err)
{
    int rc = check_args(cfg, st, out, err);
    if (rc != WSEL_OK)
        return rc;
    if (!res || res->index >= wsel_config_resource_count(cfg) ||
        wsel_config_resource(cfg, res->index) != res)
        return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, NULL, NULL, NULL,
                          "wsel_resolver_new_for: expected a resource of the config");
    return new_variant(cfg, st, variant, res, out, err);
}

int wsel_resolver_new(const wsel_config *cfg, const wsel_state *st, wsel_engine_id engine,
                      wsel_resolver **out, wsel_error *err)
{
    int rc = check_args(cfg, st, out, err);
    if (rc != WSEL_OK)
        return rc;
    if (engine != WSEL_ENGINE_REF && engine != WSEL_ENGINE_FAST)
        return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, NULL, NULL, NULL,
                          "wsel_resolver_new: unknown engine id %d", (int)engine);
    return resolver_new(cfg, st, engine == WSEL_ENGINE_REF ? wsel__variant_at(0)
                                                           : wsel__variant_fast(), NULL, out,
                        err);
}

int wsel_resolver_sync(wsel_resolver *r)
{
    if (!r)
        return WSEL_E_ARG;
    const wsel__engine_ops *ops = r->variant->ops;
    return ops && ops->sync ? ops->sync(r) : WSEL_OK;
}

size_t wsel_resolver_reclaim(wsel_resolver *r)
{
    if (!r)
        return 0;
    const wsel__engine_ops *ops = r->variant->ops;
    return ops && ops->reclaim ? ops->reclaim(r) : 0;
}

wsel_engine_id wsel_resolver_engine(const wsel_resolver *r)
{
    return r ? r->variant->engine : WSEL_ENGINE_REF;
}

const char *wsel_resolver_variant(const wsel_resolver *r)
{
    return r ? r->variant->info.name : NULL;
}

int wsel_resolve(const wsel_resolver *r, const wsel_resource *res, wsel_rng *rng,
                 wsel_answer *ans)
{
    if (!r || !res || !rng || !rng->fill || !ans)
        return WSEL_E_ARG;
    return r->query(r, res, rng, ans);
}
