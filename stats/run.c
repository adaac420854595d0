/* One case, every engine: draw answers with the default generator and compare the
 * counts with the exact-odds calculator (weighted_draws.c); then drive the same resource with an
 * equidistributed word stream, where the random-word contract fixes the counts of
 * every single-word decision to within one (weighted_lattice.c); then feed each decision the
 * words at its edges, where the contract fixes the outcome exactly (weighted_boundary.c). */
#include "families.h"

#include "kit/kit.h"
#include "kit/kit_weighted.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void *stats_xcalloc(size_t n, size_t s)
{
    void *p = calloc(n ? n : 1, s);
    if (!p) {
        fprintf(stderr, "wsel-stats: out of memory\n");
        exit(2);
    }
    return p;
}

uint64_t hash_str(uint64_t h, const char *s)
{
    for (; *s; s++)
        h = wsel_kit_mix64(h ^ (unsigned char)*s);
    return h;
}

bool stats_is_choice(wsel_mode m)
{
    return m == WSEL_MODE_CNAME || m == WSEL_MODE_UNGROUPED_SINGLE;
}

const char *stats_item_label(const wsel_set *set, uint32_t i, char *buf, size_t len)
{
    const wsel_item *it = &set->items[i];
    if (set->grouped)
        snprintf(buf, len, "%s/%s", set->groups[it->group].label, it->label);
    else
        snprintf(buf, len, "%s", it->label);
    return buf;
}

int stats_resolve(const wsel_resolver *r, const wsel_resource *res, const wsel_state *st,
                       wsel_rng *rng, wsel_answer *ans)
{
    if (!r)
        return wsel_ref_resolve(res, st, rng, ans);
    return wsel_resolve(r, res, rng, ans);
}

static void run_resource(const stat_case *c, const run_opts *o, const wsel_config *cfg,
                         const wsel_state *st, const wsel_resource *res)
{
    char pfx[200];
    wsel_error err;
    wsel_odds *od = NULL;
    if (wsel_odds_compute(res, st, &od, &err) != WSEL_OK) {
        test *t = test_new(F_STRUCT, "%s:%s odds", c->name, res->name);
        test_violation(t, "wsel_odds_compute: %s", err.message);
        return;
    }
    if (c->n_hand) {
        test *t = test_new(F_STRUCT, "%s:%s calculator vs the page's worked odds", c->name, res->name);
        const wsel_set_odds *so = &od->sets[0];
        if (od->n_sets != 1 || so->set->n_items != c->n_hand)
            test_violation(t, "expected one set of %zu items", c->n_hand);
        for (size_t i = 0; i < c->n_hand && od->n_sets == 1 && i < so->set->n_items; i++) {
            test_row(t, "%s | %.6Lf | %.6f", so->set->items[i].label, so->item_p[i].p, c->hand_p[i]);
            if (fabsl(so->item_p[i].p - (long double)c->hand_p[i]) > 1e-12L)
                test_violation(t, "item %zu: calculator %.9Lf, page %.9f", i, so->item_p[i].p, c->hand_p[i]);
        }
    }
    uint64_t N = (uint64_t)((double)o->draws * c->draws);
    size_t total_items = 0;
    for (uint32_t s = 0; s < od->n_sets; s++)
        total_items += od->sets[s].set->n_items;
    double *freq[WSEL_KIT_MAX_VARIANTS];
    for (size_t e = 0; e < o->n_engines; e++) {
        const char *ename = o->engines[e];
        freq[e] = stats_xcalloc(total_items, sizeof *freq[e]);
        wsel_resolver *rv = NULL;
        if (strcmp(ename, "ref") != 0) { /* ref: the reference function itself */
            if (wsel_kit_resolver_new(cfg, st, ename, &rv, &err) != WSEL_OK) {
                test *t = test_new(F_STRUCT, "%s %s:%s resolver", ename, c->name, res->name);
                test_violation(t, "wsel_resolver_new: %s", err.message);
                continue;
            }
        }
        snprintf(pfx, sizeof pfx, "%s %s:%s", ename, c->name, res->name);
        test *st_test = test_new(F_STRUCT, "%s structure", pfx);
        set_acc acc[2];
        for (uint32_t s = 0; s < od->n_sets; s++)
            acc_init(&acc[s], od->sets[s].set, &od->sets[s], st, st_test, c->expect_failed);
        wsel_prng prng;
        wsel_prng_seed(&prng, hash_str(hash_str(o->seed, pfx), "draws"));
        wsel_rng rng = wsel_prng_rng(&prng);
        wsel_answer ans;
        for (uint64_t q = 0; q < N; q++) {
            int rc = stats_resolve(rv, res, st, &rng, &ans);
            if (rc != WSEL_OK) {
                test_violation(st_test, "resolve returned %d (%s)", rc, wsel_strerror(rc));
                break;
            }
            if (ans.n_sets != od->n_sets) {
                test_violation(st_test, "answer has %u sets, resource has %u", ans.n_sets, od->n_sets);
                continue;
            }
            uint32_t ttl = UINT32_MAX;
            bool failed = false;
            for (uint32_t s = 0; s < od->n_sets; s++) {
                acc_answer(&acc[s], &ans.set[s]);
                ttl = ans.set[s].ttl < ttl ? ans.set[s].ttl : ttl;
                failed = failed || ans.set[s].failed;
            }
            if (ans.ttl != ttl || ans.failed != failed)
                test_violation(st_test, "answer ttl/failed %u/%d, its sets give %u/%d", ans.ttl,
                               ans.failed, ttl, failed);
        }
        size_t off = 0;
        for (uint32_t s = 0; s < od->n_sets; s++) {
            char spfx[260];
            const wsel_set *set = od->sets[s].set;
            snprintf(spfx, sizeof spfx, "%s%s%s", pfx, set->stanza ? "/" : "", set->stanza ? set->stanza : "");
            set_tests(&acc[s], spfx, N);
            for (uint32_t i = 0; i < set->n_items; i++)
                freq[e][off++] = N ? (double)acc[s].item_cnt[i] / (double)N : 0.0;
            acc_free(&acc[s]);
        }
        lattice_run(pfx, rv, res, st, od, o->lattice_log, hash_str(o->seed, pfx));
        boundary_run(pfx, rv, res, st, od);
        if (rv)
            wsel_resolver_free(rv);
    }
    if (o->report_dir)
        plot_data(o, c, res, od, freq, o->n_engines);
    for (size_t e = 0; e < o->n_engines; e++)
        free(freq[e]);
    wsel_odds_free(od);
}

static int stats_fail(wsel_error *err, const char *msg)
{
    wsel_error_clear(err);
    err->code = WSEL_E_ARG;
    snprintf(err->message, sizeof err->message, "%s", msg);
    return WSEL_E_ARG;
}

int run_case(const stat_case *c, const run_opts *o)
{
    wsel_config *cfg = NULL;
    wsel_state *st = NULL;
    wsel_error err;
    int rc;
    char *gen = c->support_gen ? wsel_kit_weighted_gen_config(c->gen_seed, NULL) : NULL;
    const char *text = gen ? gen : c->text;
    if (c->file)
        rc = wsel_config_load_file(c->file, NULL, &cfg, &err);
    else if (text)
        rc = wsel_config_load_buffer(c->name, text, strlen(text), NULL, &cfg, &err);
    else
        rc = stats_fail(&err, "no config text (out of memory?)");
    free(gen);
    if (rc == WSEL_OK)
        rc = wsel_state_new(cfg, &st, &err);
    if (rc == WSEL_OK && c->support_gen)
        rc = wsel_kit_weighted_random_state(st, cfg, c->gen_seed, c->p_down, true, &err);
    for (size_t i = 0; rc == WSEL_OK && i < c->n_marks; i++) {
        const case_mark *m = &c->marks[i];
        size_t matched = 0;
        rc = wsel_state_set(st, m->service[0] ? m->service : NULL, m->key, m->up, m->ttl, &matched, &err);
        if (rc == WSEL_OK && matched == 0) {
            rc = WSEL_E_STATE;
            snprintf(err.message, sizeof err.message, "state key %s matched no item", m->key);
        }
    }
    if (rc != WSEL_OK) {
        char buf[1200];
        test *t = test_new(F_STRUCT, "%s setup", c->name);
        test_violation(t, "%s", wsel_error_format(&err, buf, sizeof buf));
        wsel_state_free(st);
        wsel_config_free(cfg);
        return -1;
    }
    size_t nr = wsel_config_resource_count(cfg);
    for (size_t i = 0; i < nr; i++) {
        const wsel_resource *res = wsel_config_resource(cfg, i);
        if (c->resource && strcmp(c->resource, res->name) != 0)
            continue;
        run_resource(c, o, cfg, st, res);
    }
    wsel_state_free(st);
    wsel_config_free(cfg);
    return 0;
}

