/* bin/wsel: `wsel explain` -- exact odds per resource and set under a monitoring state. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "weighted_answers.h"

static const char explain_usage[] =
    "usage: wsel explain CONFIG [RESOURCE...] [state options] [--stanza|--whole] [--json]\n"
    "Prints the exact answer odds of each RESOURCE (default: all) under a monitoring\n"
    "state: per-address inclusion probability, per-group odds, the answer-size\n"
    "distribution, every possible answer when there are at most 4096, and the\n"
    "up_thresh status.\n"
    "State options (applied in order; everything starts UP):\n"
    "  --state SERVICE=FILE  load gdnsd extfile lines (ADDR_OR_NAME => UP|DOWN[/TTL])\n"
    "                        for service type SERVICE (repeatable)\n"
    "  --admin-state FILE    load gdnsd admin_state overrides\n"
    "                        (\"THING/SERVICE_TYPE\" => UP|DOWN[/TTL], globs allowed)\n"
    "  --down ADDR_OR_NAME   force DOWN for every service type, built-ins included:\n"
    "                        ADDR_OR_NAME/* => DOWN (repeatable)\n"
    "  --up ADDR_OR_NAME     force UP likewise (repeatable)\n"
    "  --stanza / --whole    force how CONFIG is read (default: detect)\n"
    "  --json                print one JSON document on stdout\n";

static void json_prob(wsel__jw *j, const char *key, const char *exact_key, const wsel_prob *p)
{
    wsel__jw_knum(j, key, (double)p->p);
    cli_json_exact(j, exact_key, p->exact, p->num, p->den);
}

static void json_set_answers(wsel__jw *j, const wsel_resource *res, const wsel_odds *o,
                             uint32_t s)
{
    const wsel_set_odds *so = &o->sets[s];
    for (uint32_t k = 0; k < so->n_answers; k++) {
        cli_ans a = {.n_sets = 0};
        /* Per-set answer: address only this set, with the other set empty. */
        a.n_sets = s + 1;
        a.count[0] = 0;
        a.count[s] = so->answers[k].count;
        a.items[s] = so->answers[k].items;
        wsel__jw_obj_begin(j);
        cli_json_ans(j, res, &a);
        json_prob(j, "p", "p_exact", &so->answers[k].p);
        wsel__jw_obj_end(j);
    }
}

static void json_resource(wsel__jw *j, const wsel_resource *res, const wsel_odds *o,
                          const cli_combo *combo, size_t ncombo, int enumerable)
{
    char path[600];
    bool failed = false;
    uint32_t ttl = WSEL_MAX_TTL;
    for (uint32_t s = 0; s < o->n_sets; s++) {
        failed |= o->sets[s].failed;
        if (o->sets[s].ttl < ttl)
            ttl = o->sets[s].ttl;
    }
    wsel__jw_obj_begin(j);
    wsel__jw_kstr(j, "resource", res->name);
    wsel__jw_kbool(j, "failed", failed);
    wsel__jw_ku64(j, "ttl", ttl);
    wsel__jw_kbool(j, "enumerable", enumerable);
    wsel__jw_key(j, "answers");
    if (enumerable) {
        wsel__jw_arr_begin(j);
        for (size_t k = 0; k < ncombo; k++) {
            cli_ans a;
            cli_combo_ans(o, &combo[k], &a);
            wsel__jw_obj_begin(j);
            cli_json_ans(j, res, &a);
            wsel__jw_knum(j, "p", (double)combo[k].p);
            cli_json_exact(j, "p_exact", combo[k].exact, combo[k].num, combo[k].den);
            wsel__jw_obj_end(j);
        }
        wsel__jw_arr_end(j);
    } else {
        wsel__jw_null(j);
    }
    wsel__jw_karr_begin(j, "items");
    for (uint32_t s = 0; s < o->n_sets; s++) {
        const wsel_set_odds *so = &o->sets[s];
        const wsel_set *set = so->set;
        for (uint32_t i = 0; i < set->n_items; i++) {
            wsel__jw_obj_begin(j);
            wsel__jw_kstr(j, "label", cli_item_path(set, &set->items[i], path, sizeof path));
            wsel__jw_kstr(j, "address", set->items[i].value);
            wsel__jw_ku64(j, "weight", set->items[i].weight);
            wsel__jw_kbool(j, "up", so->up[i]);
            wsel__jw_ku64(j, "dyn_weight", so->dyn_weight[i]);
            json_prob(j, "p_included", "p_included_exact", &so->item_p[i]);
            wsel__jw_obj_end(j);
        }
    }
    wsel__jw_arr_end(j);
    wsel__jw_karr_begin(j, "sets");
    for (uint32_t s = 0; s < o->n_sets; s++) {
        const wsel_set_odds *so = &o->sets[s];
        const wsel_set *set = so->set;
        wsel__jw_obj_begin(j);
        cli_json_set_id(j, set);
        wsel__jw_knum(j, "up_thresh", set->up_thresh);
        wsel__jw_ku64(j, "total", so->total);
        wsel__jw_ku64(j, "dyn_sum", so->dyn_sum);
        wsel__jw_ku64(j, "threshold", so->threshold);
        wsel__jw_kbool(j, "failed", so->failed);
        wsel__jw_ku64(j, "ttl", so->ttl);
        wsel__jw_karr_begin(j, "groups");
        for (uint32_t g = 0; g < set->n_groups; g++) {
            wsel__jw_obj_begin(j);
            wsel__jw_kstr(j, "label", cli_group_path(set, &set->groups[g], path, sizeof path));
            wsel__jw_ku64(j, "total", set->groups[g].total);
            json_prob(j, "p", "p_exact", &so->group_p[g]);
            wsel__jw_obj_end(j);
        }
        wsel__jw_arr_end(j);
        wsel__jw_karr_begin(j, "sizes");
        for (uint32_t k = 0; k < so->n_sizes; k++)
            wsel__jw_num(j, (double)so->size_p[k]);
        wsel__jw_arr_end(j);
        wsel__jw_kbool(j, "enumerable", so->enumerable);
        wsel__jw_key(j, "answers");
        if (so->enumerable) {
            wsel__jw_arr_begin(j);
            json_set_answers(j, res, o, s);
            wsel__jw_arr_end(j);
        } else {
            wsel__jw_null(j);
        }
        wsel__jw_obj_end(j);
    }
    wsel__jw_arr_end(j);
    wsel__jw_obj_end(j);
}

static void text_resource(const wsel_resource *res, const wsel_odds *o, const cli_combo *combo,
                          size_t ncombo, int enumerable)
{
    char path[600], e[CLI_ESC_MAX], e2[CLI_ESC_MAX];
    printf("resource %s\n", wsel__escape(res->name, e, sizeof e));
    for (uint32_t s = 0; s < o->n_sets; s++) {
        const wsel_set_odds *so = &o->sets[s];
        const wsel_set *set = so->set;
        printf("  %s: %s, %s, up_thresh %.17g\n",
               wsel__escape(set->stanza ? set->stanza : "set", e, sizeof e),
               wsel_mode_name(set->mode), cli_kind_name(set->kind), set->up_thresh);
        printf("    dynamic sum %llu of T = %llu, threshold %llu: %s\n",
               (unsigned long long)so->dyn_sum, (unsigned long long)so->total,
               (unsigned long long)so->threshold,
               so->failed ? "FAILED (below threshold: all weights reset, failed flag raised)"
                          : "ok");
        printf("    state ttl %u\n", so->ttl);
        printf("    items (label, address, weight, state, dynamic weight, P(included)):\n");
        for (uint32_t i = 0; i < set->n_items; i++) {
            printf("      %s  %s  %u  %s  %u  ",
                   wsel__escape(cli_item_path(set, &set->items[i], path, sizeof path), e, sizeof e),
                   wsel__escape(set->items[i].value, e2, sizeof e2),
                   set->items[i].weight, so->up[i] ? "UP" : "DOWN", so->dyn_weight[i]);
            cli_print_prob(stdout, &so->item_p[i]);
            putchar('\n');
        }
        if (set->n_groups) {
            printf("    groups (%s):\n",
                   set->mode == WSEL_MODE_GROUPED_SINGLE ? "P(chosen)" : "P(included)");
            for (uint32_t g = 0; g < set->n_groups; g++) {
                printf("      %s  ", wsel__escape(cli_group_path(set, &set->groups[g], path,
                                                            sizeof path), e, sizeof e));
                cli_print_prob(stdout, &so->group_p[g]);
                putchar('\n');
            }
        }
        printf("    answer size distribution:");
        for (uint32_t k = 0; k < so->n_sizes; k++)
            if (so->size_p[k] > 0)
                printf(" %u: %.17g", k, (double)so->size_p[k]);
        putchar('\n');
        if (!so->enumerable) {
            printf("    answers: more than %u possible, not listed\n", WSEL_ODDS_MAX_ANSWERS);
            continue;
        }
        printf("    answers (%u):\n", so->n_answers);
        for (uint32_t k = 0; k < so->n_answers; k++) {
            cli_ans a = {.n_sets = s + 1};
            a.count[0] = 0;
            a.count[s] = so->answers[k].count;
            a.items[s] = so->answers[k].items;
            printf("      ");
            cli_print_prob(stdout, &so->answers[k].p);
            printf("  ");
            cli_print_ans(stdout, res, &a);
            putchar('\n');
        }
    }
    if (o->n_sets == 2) {
        if (!enumerable) {
            printf("  combined answers: more than %u, not listed\n", WSEL_ODDS_MAX_ANSWERS);
        } else {
            printf("  combined answers, v4 and v6 (%zu):\n", ncombo);
            for (size_t k = 0; k < ncombo; k++) {
                cli_ans a;
                cli_combo_ans(o, &combo[k], &a);
                wsel_prob p = {combo[k].p, combo[k].exact, combo[k].num, combo[k].den};
                printf("    ");
                cli_print_prob(stdout, &p);
                printf("  ");
                cli_print_ans(stdout, res, &a);
                putchar('\n');
            }
        }
    }
}

int cli_explain(int argc, char **argv)
{
    const char *cmd = "explain";
    cli_statecmd c;
    int rc = cli_statecmd_open(cmd, explain_usage, argc, argv, SIZE_MAX, &c);
    if (rc != CLI_OK) {
        rc = rc < 0 ? CLI_OK : rc;
        goto out;
    }
    const char *config = c.pos[0];
    const char **names = c.pos + 1;
    size_t nn = c.npos - 1;
    const wsel_config *cfg = c.cfg;
    const wsel_state *st = c.st;
    int json = c.json;
    rc = CLI_USAGE;
    for (size_t k = 0; k < nn; k++) {
        if (!wsel_config_find(cfg, names[k])) {
            cli_die(cmd, "no resource '%s' in %s", names[k], config);
            goto out;
        }
    }

    size_t count = nn ? nn : wsel_config_resource_count(cfg);
    wsel__jw j;
    wsel__jw_init(&j, stdout);
    if (json) {
        wsel__jw_obj_begin(&j);
        wsel__jw_kstr(&j, "config", config);
        wsel__jw_karr_begin(&j, "resources");
    }
    for (size_t k = 0; k < count; k++) {
        const wsel_resource *res =
            nn ? wsel_config_find(cfg, names[k]) : wsel_config_resource(cfg, k);
        wsel_odds *o = NULL;
        wsel_error err;
        wsel_error_clear(&err);
        int orc = wsel_odds_compute(res, st, &o, &err);
        if (orc != WSEL_OK) {
            char buf[2048];
            rc = cli_fail(cmd, orc, "resource '%s': %s", res->name,
                          wsel_error_format(&err, buf, sizeof buf));
            goto out;
        }
        cli_combo *combo = NULL;
        size_t ncombo = 0;
        int en = cli_combine(o, &combo, &ncombo);
        if (en < 0) {
            wsel_odds_free(o);
            rc = cli_nomem(cmd);
            goto out;
        }
        if (json)
            json_resource(&j, res, o, combo, ncombo, en);
        else
            text_resource(res, o, combo, ncombo, en);
        free(combo);
        wsel_odds_free(o);
    }
    if (json) {
        wsel__jw_arr_end(&j);
        wsel__jw_obj_end(&j);
        cli_json_end(&j);
    }
    rc = CLI_OK;
out:
    cli_statecmd_free(&c);
    return rc;
}
