/* bin/wsel: the weighted system's commands (gdnsd's weighted plugin), and the helpers
 * they share: loading the config, key paths of items and groups, the options every
 * weighted command takes, a set's identity in JSON. */
#include <string.h>

#include "weighted_cli.h"

static const cli_command commands[] = {
    {"check", cli_check, "CONFIG [--zone ZONEFILE ORIGIN]...",
     "validate a config, list its resources, warn about likely mistakes"},
    {"explain", cli_explain, "CONFIG [RESOURCE...]", "exact answer odds under a state"},
    {"sample", cli_sample, "CONFIG RESOURCE -n N [--seed S] [--engine E]",
     "draw answers, compare with the odds"},
    {"states", cli_states, "CONFIG [--admin-state FILE] [--down X]...",
     "every THING/SERVICE_TYPE pair: monitored, forced and resulting state"},
};

CLI_SYSTEM(weighted, 1, "gdnsd's weighted plugin: addresses or a CNAME by weight");

int cli_load_config(const char *cmd, const char *path, wsel_input input, wsel_config **out,
                    wsel_error *err_out)
{
    wsel_load_opts opts = {0};
    opts.input = input;
    wsel_error err;
    wsel_error_clear(&err);
    int rc = wsel_config_load_file(path, &opts, out, &err);
    if (err_out)
        *err_out = err;
    if (rc == WSEL_OK)
        return CLI_OK;
    /* a misspelt parameter is the likeliest cause of many errors: say which one */
    const char *hint = wsel_config_key_hint(err.key);
    size_t ml = strlen(err.message);
    if (hint && cli_exit_status(rc, err.line, CLI_ROLE_CHECKED) == CLI_INVALID &&
        !strstr(err.message, "did you mean") && ml < sizeof err.message)
        snprintf(err.message + ml, sizeof err.message - ml, " (did you mean '%s'?)", hint);
    return cli_report(cmd, &err, CLI_ROLE_CHECKED);
}

const char *cli_kind_name(wsel_kind k)
{
    static const char *const names[] = {
        [WSEL_KIND_V4] = "ipv4", [WSEL_KIND_V6] = "ipv6", [WSEL_KIND_CNAME] = "cname"};
    size_t i = (size_t)k;
    return i < sizeof names / sizeof names[0] && names[i] ? names[i] : "unknown";
}

const char *cli_group_path(const wsel_set *set, const wsel_group *g, char *buf, size_t len)
{
    if (set->stanza)
        snprintf(buf, len, "%s/%s", set->stanza, g->label);
    else
        snprintf(buf, len, "%s", g->label);
    return buf;
}

const char *cli_item_path(const wsel_set *set, const wsel_item *item, char *buf, size_t len)
{
    const char *st = set->stanza ? set->stanza : "";
    const char *sep1 = set->stanza ? "/" : "";
    if (set->grouped && item->group < set->n_groups)
        snprintf(buf, len, "%s%s%s/%s", st, sep1, set->groups[item->group].label, item->label);
    else
        snprintf(buf, len, "%s%s%s", st, sep1, item->label);
    return buf;
}

int cli_common_opt(const char *arg, int *opts_done, int *json, wsel_input *input,
                   const char *usage)
{
    if (strcmp(arg, "--") == 0)
        *opts_done = 1;
    else if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
        fputs(usage, stdout);
        return CLI_OPT_HELP;
    } else if (strcmp(arg, "--json") == 0)
        *json = 1;
    else if (strcmp(arg, "--stanza") == 0)
        *input = WSEL_INPUT_STANZA;
    else if (strcmp(arg, "--whole") == 0)
        *input = WSEL_INPUT_WHOLE;
    else
        return CLI_OPT_NONE;
    return CLI_OPT_TAKEN;
}

void cli_json_set_id(wsel__jw *j, const wsel_set *set)
{
    wsel__jw_key(j, "stanza");
    if (set->stanza)
        wsel__jw_str(j, set->stanza);
    else
        wsel__jw_null(j);
    wsel__jw_kstr(j, "family", cli_kind_name(set->kind));
    wsel__jw_kstr(j, "mode", wsel_mode_name(set->mode));
}
