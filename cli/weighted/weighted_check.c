/* bin/wsel: `wsel check` -- validate a config (and zone records), list what it means,
 * and warn about likely mistakes. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "weighted_cli.h"

static const char check_usage[] =
    "usage: wsel check CONFIG [--zone ZONEFILE ORIGIN]... [--stanza|--whole] [--json]\n"
    "Validates a gdnsd config (or a weighted stanza), lists each resource's sets with\n"
    "their mode and effective parameters, and warns about likely mistakes.\n"
    "  --zone ZONEFILE ORIGIN  also check the DYNA/DYNC weighted!RES records of a zone\n"
    "                          file for zone ORIGIN (repeatable)\n"
    "  --stanza                CONFIG holds only the weighted stanza's contents\n"
    "  --whole                 CONFIG is a whole gdnsd config (plugins => { weighted ... })\n"
    "  --strict                treat warnings as errors (exit 1 when there are any)\n"
    "  --json                  print one JSON document on stdout\n"
    "Exit 0 means gdnsd 3.8.1 would accept the weighted plugin's part of the config and\n"
    "the service types it uses (wsel checks only the syntax of everything else).\n"
    "Exit status: 0 valid (warnings allowed), 1 invalid, 2 usage error or unreadable file,\n"
    "3 out of memory or output not written.\n";

#define ODDS_WARN_BELOW 1e-6

typedef struct zone_arg {
    const char *file, *origin;
} zone_arg;

static int warn(zone_report *w, const wsel_loc *loc, const char *fmt, ...) CLI_PRINTF(3, 4);

static int warn(zone_report *w, const wsel_loc *loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = cli_issue_vadd(w, loc && loc->file ? loc->file : "", loc ? loc->line : 0,
                            loc ? loc->col : 0, 0, fmt, ap);
    va_end(ap);
    return rc;
}

static void warn_label(zone_report *w, const wsel_resource *res, const char *what,
                       const char *label, const wsel_loc *loc)
{
    const char *p = wsel_config_key_hint(label);
    if (p)
        warn(w, loc,
             "resource '%s': %s label '%s' looks like a misspelling of the parameter '%s'",
             res->name, what, label, p);
}

static int cmp_item_key(const void *a, const void *b)
{
    const wsel_item *x = *(const wsel_item *const *)a, *y = *(const wsel_item *const *)b;
    int c = strcmp(x->key, y->key);
    if (c)
        return c;
    return (x->index > y->index) - (x->index < y->index);
}

static void warn_duplicates(zone_report *w, const wsel_resource *res, const wsel_set *set)
{
    const wsel_item **v = malloc(set->n_items * sizeof *v);
    if (!v) {
        w->nomem = 1;
        return;
    }
    for (uint32_t i = 0; i < set->n_items; i++)
        v[i] = &set->items[i];
    qsort(v, set->n_items, sizeof *v, cmp_item_key);
    char a[600], b[600];
    for (uint32_t i = 0; i + 1 < set->n_items;) {
        uint32_t j = i + 1;
        while (j < set->n_items && strcmp(v[i]->key, v[j]->key) == 0)
            j++;
        if (j - i > 1) {
            cli_item_path(set, v[i], a, sizeof a);
            cli_item_path(set, v[i + 1], b, sizeof b);
            warn(w, &v[i + 1]->loc,
                 "resource '%s': %s '%s' appears %u times in one set (first as '%s', "
                 "again as '%s'); duplicates are answered as duplicates",
                 res->name, set->kind == WSEL_KIND_CNAME ? "CNAME" : "address", v[i]->key,
                 (unsigned)(j - i), a, b);
        }
        i = j;
    }
    free(v);
}

/* up_thresh makes a set fail over when its dynamic sum drops below
 * threshold = ceil(T * up_thresh). Two settings make it pointless or harmful:
 *  - threshold <= the smallest weight: any one UP item keeps the sum at or above it, so
 *    failover happens only when every item is DOWN -- which fails over for every
 *    up_thresh, so the setting changes nothing;
 *  - threshold > T - the smallest weight: one DOWN item of any weight already fails
 *    over, so DOWN items keep being answered and monitoring never removes anything.
 * Both only matter when items can be DOWN (a service type other than `up`), and not in a
 * one-item set, where nothing could be removed anyway. */
static void warn_threshold(zone_report *w, const wsel_resource *res, const wsel_set *set)
{
    int can_down = 0, always_down = 0;
    for (uint32_t s = 0; s < set->n_services; s++) {
        if (strcmp(set->services[s], "down") == 0)
            always_down = 1;
        if (strcmp(set->services[s], "up") != 0)
            can_down = 1;
    }
    const char *sn = set->stanza ? set->stanza : "";
    const char *sep = set->stanza ? " " : "";
    if (always_down) {
        warn(w, &set->loc,
             "resource '%s'%s%s: service type 'down' makes every item DOWN, so the set "
             "always fails over (answers as if all were UP, failed flag raised)",
             res->name, sep, sn);
        return;
    }
    if (!can_down || set->n_items < 2)
        return;
    uint64_t wmin = UINT64_MAX;
    for (uint32_t i = 0; i < set->n_items; i++)
        if (set->items[i].weight < wmin)
            wmin = set->items[i].weight;
    if (set->threshold <= wmin)
        warn(w, &set->loc,
             "resource '%s'%s%s: up_thresh %.17g gives threshold %llu <= smallest weight "
             "%llu: failover happens only when every item is DOWN, as it would for any "
             "up_thresh",
             res->name, sep, sn, set->up_thresh, (unsigned long long)set->threshold,
             (unsigned long long)wmin);
    else if (set->threshold > set->total - wmin)
        warn(w, &set->loc,
             "resource '%s'%s%s: up_thresh %.17g gives threshold %llu > T - smallest "
             "weight = %llu - %llu: any single DOWN item triggers failover, so DOWN items "
             "keep being answered",
             res->name, sep, sn, set->up_thresh, (unsigned long long)set->threshold,
             (unsigned long long)set->total, (unsigned long long)wmin);
}

static void warn_odds(zone_report *w, const wsel_resource *res, const wsel_state *st)
{
    wsel_odds *o = NULL;
    wsel_error err;
    wsel_error_clear(&err);
    int rc = wsel_odds_compute(res, st, &o, &err);
    if (rc == WSEL_E_NOMEM)
        w->nomem = 1;
    if (rc != WSEL_OK)
        return;
    char path[600];
    for (uint32_t s = 0; s < o->n_sets; s++) {
        const wsel_set_odds *so = &o->sets[s];
        for (uint32_t i = 0; i < so->set->n_items; i++) {
            double p = (double)so->item_p[i].p;
            if (p < ODDS_WARN_BELOW)
                warn(w, &so->set->items[i].loc,
                     "resource '%s': item '%s' is answered with probability %.3g "
                     "(below %g) even with everything UP",
                     res->name, cli_item_path(so->set, &so->set->items[i], path, sizeof path),
                     p, ODDS_WARN_BELOW);
        }
    }
    wsel_odds_free(o);
}

static void collect_warnings(const wsel_config *cfg, const char *path, zone_report *w)
{
    wsel_state *st = NULL;
    wsel_error err;
    wsel_error_clear(&err);
    if (wsel_state_new(cfg, &st, &err) != WSEL_OK) {
        w->nomem = 1; /* its only failure with a valid config */
        return;
    }
    /* the loader's own warnings: input gdnsd accepts but reads unexpectedly */
    for (size_t k = 0; k < wsel_config_warning_count(cfg); k++) {
        const wsel_error *cw = wsel_config_warning(cfg, k);
        cli_issue_add(w, cw->file, cw->line, cw->col, 0, "%s", cw->message);
    }
    size_t nres = wsel_config_resource_count(cfg);
    if (nres == 0)
        cli_issue_add(w, path, 0, 0, 0, "the weighted stanza defines no resources");
    for (size_t r = 0; r < nres; r++) {
        const wsel_resource *res = wsel_config_resource(cfg, r);
        warn_label(w, res, "resource", res->name, &res->loc);
        for (uint32_t s = 0; s < res->n_sets; s++) {
            const wsel_set *set = &res->sets[s];
            for (uint32_t g = 0; g < set->n_groups; g++)
                warn_label(w, res, "group", set->groups[g].label, &set->groups[g].loc);
            for (uint32_t i = 0; i < set->n_items; i++)
                warn_label(w, res, "item", set->items[i].label, &set->items[i].loc);
            warn_threshold(w, res, set);
            warn_duplicates(w, res, set);
        }
        warn_odds(w, res, st);
    }
    wsel_state_free(st);
}

static void print_services(FILE *f, const wsel_set *set)
{
    if (set->n_services == 1) {
        wsel__escape_put(f, set->services[0]);
        return;
    }
    fputc('[', f);
    for (uint32_t s = 0; s < set->n_services; s++) {
        fputs(s ? ", " : "", f);
        wsel__escape_put(f, set->services[s]);
    }
    fputc(']', f);
}

static void text_listing(const wsel_config *cfg, const char *path)
{
    size_t nres = wsel_config_resource_count(cfg);
    char e[CLI_ESC_MAX];
    printf("%s: %s, %zu resource%s, %zu set%s\n", wsel__escape(path, e, sizeof e),
           wsel_config_is_whole(cfg) ? "whole gdnsd config" : "weighted stanza", nres,
           nres == 1 ? "" : "s", wsel_config_set_count(cfg),
           wsel_config_set_count(cfg) == 1 ? "" : "s");
    for (size_t r = 0; r < nres; r++) {
        const wsel_resource *res = wsel_config_resource(cfg, r);
        printf("resource %s: %s\n", wsel__escape(res->name, e, sizeof e),
               res->is_cname ? "CNAMEs (DYNC only)"
               : res->n_sets == 2 ? "IPv4 and IPv6 addresses (DYNA or DYNC)"
                                  : "addresses (DYNA or DYNC)");
        for (uint32_t s = 0; s < res->n_sets; s++) {
            const wsel_set *set = &res->sets[s];
            printf("  %s: %s, %s, %u item%s",
                   wsel__escape(set->stanza ? set->stanza : "set", e, sizeof e),
                   wsel_mode_name(set->mode), cli_kind_name(set->kind), set->n_items,
                   set->n_items == 1 ? "" : "s");
            if (set->grouped)
                printf(" in %u group%s", set->n_groups, set->n_groups == 1 ? "" : "s");
            if (set->kind == WSEL_KIND_CNAME)
                printf("\n    multi ignored for CNAMEs, ");
            else
                printf("\n    multi %s (%s), ", set->multi ? "true" : "false",
                       wsel_level_name(set->multi_from));
            printf("up_thresh %.17g (%s), service_types ", set->up_thresh,
                   wsel_level_name(set->up_thresh_from));
            print_services(stdout, set);
            printf(" (%s)\n", wsel_level_name(set->services_from));
            printf("    threshold ceil(%llu * %.17g) = %llu of T = %llu\n",
                   (unsigned long long)set->total, set->up_thresh,
                   (unsigned long long)set->threshold, (unsigned long long)set->total);
        }
    }
}

static void json_level(wsel__jw *j, const char *key, wsel_level from)
{
    wsel__jw_kstr(j, key, wsel_level_name(from));
}

static void json_listing(wsel__jw *j, const wsel_config *cfg)
{
    wsel__jw_kbool(j, "whole", wsel_config_is_whole(cfg));
    wsel__jw_karr_begin(j, "resources");
    for (size_t r = 0; r < wsel_config_resource_count(cfg); r++) {
        const wsel_resource *res = wsel_config_resource(cfg, r);
        wsel__jw_obj_begin(j);
        wsel__jw_kstr(j, "name", res->name);
        wsel__jw_kbool(j, "cname", res->is_cname);
        wsel__jw_kbool(j, "explicit_families", res->explicit_families);
        wsel__jw_karr_begin(j, "sets");
        for (uint32_t s = 0; s < res->n_sets; s++) {
            const wsel_set *set = &res->sets[s];
            wsel__jw_obj_begin(j);
            cli_json_set_id(j, set);
            wsel__jw_kbool(j, "multi", set->multi);
            json_level(j, "multi_from", set->multi_from);
            wsel__jw_knum(j, "up_thresh", set->up_thresh);
            json_level(j, "up_thresh_from", set->up_thresh_from);
            wsel__jw_karr_begin(j, "service_types");
            for (uint32_t k = 0; k < set->n_services; k++)
                wsel__jw_str(j, set->services[k]);
            wsel__jw_arr_end(j);
            json_level(j, "service_types_from", set->services_from);
            wsel__jw_ku64(j, "total", set->total);
            wsel__jw_ku64(j, "threshold", set->threshold);
            wsel__jw_ku64(j, "items", set->n_items);
            wsel__jw_ku64(j, "groups", set->n_groups);
            wsel__jw_obj_end(j);
        }
        wsel__jw_arr_end(j);
        wsel__jw_obj_end(j);
    }
    wsel__jw_arr_end(j);
}

static void json_issues(wsel__jw *j, const char *key, const zone_report *rep, int errors)
{
    wsel__jw_karr_begin(j, key);
    for (size_t i = 0; i < rep->n; i++) {
        const zone_issue *z = &rep->issues[i];
        if (z->is_error != errors)
            continue;
        wsel__jw_obj_begin(j);
        wsel__jw_kstr(j, "file", z->file);
        wsel__jw_ku64(j, "line", z->line);
        wsel__jw_ku64(j, "col", z->col);
        wsel__jw_kstr(j, "message", z->message);
        wsel__jw_obj_end(j);
    }
    wsel__jw_arr_end(j);
}

static void print_issue(const zone_issue *z)
{
    char e[CLI_ESC_MAX];
    if (z->file[0] && z->line)
        fprintf(stderr, "%s:%u:%u: ", wsel__escape(z->file, e, sizeof e), z->line, z->col);
    else if (z->file[0])
        fprintf(stderr, "%s: ", wsel__escape(z->file, e, sizeof e));
    fputs(z->is_error ? "" : "warning: ", stderr);
    wsel__escape_put(stderr, z->message);
    fputc('\n', stderr);
}

/* The command line of check. */
typedef struct check_args {
    const char *config;
    wsel_input input;
    int json, strict;
    zone_arg *zones;     /* --zone ZONEFILE ORIGIN, in order */
    size_t nz;
} check_args;

/* Fills `a` (a->zones has room for argc entries); CLI_OK to go on, -1 after --help,
 * else the exit status (message printed). */
static int check_args_parse(int argc, char **argv, check_args *a)
{
    const char *cmd = "check";
    int opts_done = 0;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!opts_done && arg[0] == '-' && arg[1]) {
            int common = cli_common_opt(arg, &opts_done, &a->json, &a->input, check_usage);
            if (common == CLI_OPT_HELP) {
                return -1;
            } else if (common == CLI_OPT_TAKEN) {
                /* shared option, handled */
            } else if (strcmp(arg, "--strict") == 0) {
                a->strict = 1;
            } else if (strcmp(arg, "--zone") == 0) {
                if (i + 2 >= argc)
                    return cli_die(cmd, "--zone needs ZONEFILE and ORIGIN");
                a->zones[a->nz].file = argv[i + 1];
                a->zones[a->nz].origin = argv[i + 2];
                a->nz++;
                i += 2;
            } else {
                return cli_die(cmd, "unknown option '%s' (see wsel check --help)", arg);
            }
        } else if (!a->config) {
            a->config = arg;
        } else {
            return cli_die(cmd, "unexpected argument '%s' (see wsel check --help)", arg);
        }
    }
    if (!a->config)
        return cli_die(cmd, "missing CONFIG (see wsel check --help)");
    return CLI_OK;
}

/* --json for a config that does not load: its one error, no warnings. */
static void json_load_error(const char *config, const wsel_error *err)
{
    char buf[2048];
    wsel__jw j;
    wsel__jw_init(&j, stdout);
    wsel__jw_obj_begin(&j);
    wsel__jw_kstr(&j, "file", config);
    wsel__jw_kbool(&j, "valid", 0);
    wsel__jw_karr_begin(&j, "errors");
    wsel__jw_obj_begin(&j);
    wsel__jw_kstr(&j, "file", err->file);
    wsel__jw_ku64(&j, "line", err->line);
    wsel__jw_ku64(&j, "col", err->col);
    wsel__jw_kstr(&j, "code", wsel_strerror(err->code));
    wsel__jw_kstr(&j, "resource", err->object);
    wsel__jw_kstr(&j, "stanza", err->path);
    wsel__jw_kstr(&j, "item", err->key);
    wsel__jw_kstr(&j, "message", wsel_error_format(err, buf, sizeof buf));
    wsel__jw_obj_end(&j);
    wsel__jw_arr_end(&j);
    wsel__jw_karr_begin(&j, "warnings");
    wsel__jw_arr_end(&j);
    wsel__jw_obj_end(&j);
    cli_json_end(&j);
}

/* The verdict on a config that loaded, with its listing and every issue. */
static void print_report(const check_args *a, const wsel_config *cfg, const zone_report *rep)
{
    const char *checked = wsel_config_is_whole(cfg)
                              ? "the weighted plugin stanza and the service types it uses; "
                                "the rest of the config for syntax only"
                              : "the weighted plugin stanza";
    if (a->json) {
        wsel__jw j;
        wsel__jw_init(&j, stdout);
        wsel__jw_obj_begin(&j);
        wsel__jw_kstr(&j, "file", a->config);
        wsel__jw_kbool(&j, "valid", rep->errors == 0);
        wsel__jw_kstr(&j, "checked", checked);
        json_listing(&j, cfg);
        wsel__jw_ku64(&j, "records", rep->records);
        json_issues(&j, "errors", rep, 1);
        json_issues(&j, "warnings", rep, 0);
        wsel__jw_obj_end(&j);
        cli_json_end(&j);
        return;
    }
    text_listing(cfg, a->config);
    fflush(stdout);
    for (size_t i = 0; i < rep->n; i++)
        print_issue(&rep->issues[i]);
    if (a->nz)
        printf("zone records: %zu weighted record%s checked\n", rep->records,
               rep->records == 1 ? "" : "s");
    printf("checked: %s\n", checked);
    printf("%s: %zu error%s, %zu warning%s\n", rep->errors ? "INVALID" : "valid", rep->errors,
           rep->errors == 1 ? "" : "s", rep->warnings, rep->warnings == 1 ? "" : "s");
}

/* Loads the config, gathers warnings and zone issues into rep, prints the verdict.
 * Returns the exit status. */
static int check_run(const check_args *a, wsel_config **cfg, zone_report *rep)
{
    const char *cmd = "check";
    wsel_error err;
    int rc = cli_load_config(cmd, a->config, a->input, cfg, &err);
    if (rc == CLI_INVALID && a->json)
        json_load_error(a->config, &err);
    if (rc != CLI_OK)
        return rc;
    collect_warnings(*cfg, a->config, rep);
    for (size_t z = 0; z < a->nz && !rep->nomem; z++)
        if ((rc = cli_zone_check(cmd, *cfg, a->zones[z].file, a->zones[z].origin, rep)) != 0)
            return rc;
    if (rep->nomem) /* a report with a warning missing must not pass for the whole verdict */
        return cli_nomem(cmd);
    if (a->strict) {
        for (size_t i = 0; i < rep->n; i++)
            rep->issues[i].is_error = 1;
        rep->errors += rep->warnings;
        rep->warnings = 0;
    }
    print_report(a, *cfg, rep);
    return rep->errors ? CLI_INVALID : CLI_OK;
}

int cli_check(int argc, char **argv)
{
    check_args a = {.input = WSEL_INPUT_AUTO};
    if (!(a.zones = calloc((size_t)argc, sizeof *a.zones)))
        return cli_nomem("check");
    wsel_config *cfg = NULL;
    zone_report rep = {0};
    int rc = check_args_parse(argc, argv, &a);
    if (rc < 0)
        rc = CLI_OK; /* --help */
    else if (rc == CLI_OK)
        rc = check_run(&a, &cfg, &rep);
    cli_zone_report_free(&rep);
    wsel_config_free(cfg);
    free(a.zones);
    return rc;
}
