/* fuzz_weighted_model: the loaded model and the stored state are what was written.
 *
 * Property: for a valid generated whole config (weighted.h's producer), the loader's
 * model holds exactly the resources, sets, modes, parameters (multi, up_thresh after
 * inheritance, service_types lists), group sizes, weights and canonical keys the case
 * wrote, in config order; and after every state change, wsel_state_get() reports for
 * each key and custom service type the UP/DOWN and TTL last set through any spelling. */
#include "weighted.h"

static void check_model(wfz *w)
{
    const fcase *c = &w->c;
    const wsel_config *cfg = w->cfg;
    FUZZ_ASSERT_MSG(wsel_config_resource_count(cfg) == c->n_res, "%zu resources, wrote %u",
                    wsel_config_resource_count(cfg), c->n_res);
    FUZZ_ASSERT(wsel_config_set_count(cfg) == c->n_sets);
    uint32_t s = 0;
    for (uint32_t r = 0; r < c->n_res; r++) {
        const wsel_resource *res = wsel_config_resource(cfg, r);
        FUZZ_ASSERT(res->n_sets == c->res_sets[r]);
        for (uint32_t k = 0; k < res->n_sets; k++, s++) {
            const wsel_set *set = &res->sets[k];
            const exp_set *es = &c->sets[s];
            FUZZ_ASSERT(set->kind == es->kind && set->grouped == es->grouped &&
                        set->multi == es->multi);
            FUZZ_ASSERT_MSG(set->up_thresh == es->ut, "up_thresh %.17g, wrote %.17g",
                            set->up_thresh, es->ut);
            FUZZ_ASSERT(set->n_items == es->n_items && set->n_groups == es->n_groups);
            const svc_list *sl = &svc_lists[es->svc];
            FUZZ_ASSERT_MSG(set->n_services == (uint32_t)sl->n,
                            "set %u: %u service types, configured \"%s\"", s, set->n_services,
                            sl->text);
            for (int i = 0; i < sl->n; i++)
                FUZZ_ASSERT(strcmp(set->services[i], sl->names[i]) == 0);
            for (uint32_t g = 0; g < es->n_groups; g++)
                FUZZ_ASSERT(set->groups[g].count == es->gsize[g]);
            for (uint32_t i = 0; i < es->n_items; i++) {
                FUZZ_ASSERT(set->items[i].weight == es->items[i].weight);
                FUZZ_ASSERT(set->items[i].group == es->items[i].group);
                FUZZ_ASSERT_MSG(strcmp(set->items[i].key, c->keys[es->items[i].key].canon) == 0,
                                "key \"%s\", expected \"%s\"", set->items[i].key,
                                c->keys[es->items[i].key].canon);
            }
        }
    }
}

static void check_state(wfz *w)
{
    for (uint32_t k = 0; k < w->c.n_keys; k++) {
        const key_ent *ke = &w->c.keys[k];
        for (int s = 0; s < NSVC; s++) {
            if (!ke->set[s])
                continue;
            wsel_mstate ms = wsel_state_get(w->st, svc_names[s], ke->canon);
            FUZZ_ASSERT_MSG(ms.up == ke->up[s] && ms.ttl == ke->ttl[s],
                            "state_get(%s, %s) = %s/%u, last set %s/%u", svc_names[s],
                            ke->canon, ms.up ? "UP" : "DOWN", ms.ttl,
                            ke->up[s] ? "UP" : "DOWN", ke->ttl[s]);
        }
    }
}

static const wfz_target target = { .loaded = check_model, .state_set = check_state };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return wfz_run(data, size, &target);
}
