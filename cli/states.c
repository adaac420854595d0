/* bin/wsel: `wsel states` -- every (thing, service type) pair an admin_state line can
 * match, with its monitored, forced and resulting state (like `gdnsdctl states`). */
#include <stdlib.h>

#include "cli.h"

static const char states_usage[] =
    "usage: wsel states CONFIG [state options] [--stanza|--whole] [--json]\n"
    "Lists every THING/SERVICE_TYPE pair of the config (each address or CNAME with\n"
    "each service type of its set, built-in up/down included): the state its monitor\n"
    "gives, the admin override if any, and the resulting state and TTL.\n"
    "State options (applied in order; everything starts UP):\n"
    "  --state SERVICE=FILE  load gdnsd extfile lines (ADDR_OR_NAME => UP|DOWN[/TTL])\n"
    "                        for service type SERVICE (repeatable)\n"
    "  --admin-state FILE    load gdnsd admin_state overrides\n"
    "                        (\"THING/SERVICE_TYPE\" => UP|DOWN[/TTL], globs allowed)\n"
    "  --down ADDR_OR_NAME   force DOWN for every service type: ADDR_OR_NAME/* => DOWN\n"
    "  --up ADDR_OR_NAME     force UP likewise\n"
    "  --stanza / --whole    force how CONFIG is read (default: detect)\n"
    "  --json                print one JSON document on stdout\n";

static const char *updown(bool up)
{
    return up ? "UP" : "DOWN";
}

static void json_ms(jw_out *j, const char *key, wsel_mstate m)
{
    jw_key(j, key);
    jw_obj_begin(j);
    jw_kstr(j, "state", updown(m.up));
    jw_ku64(j, "ttl", m.ttl);
    jw_obj_end(j);
}

static void print_pairs(const wsel_state *st, int json, const char *config)
{
    size_t n = wsel_state_pair_count(st);
    if (json) {
        jw_out j;
        jw_init(&j, stdout);
        jw_obj_begin(&j);
        jw_kstr(&j, "config", config);
        jw_key(&j, "pairs");
        jw_arr_begin(&j);
        for (size_t i = 0; i < n; i++) {
            wsel_pair_info p;
            wsel_state_pair(st, i, &p);
            jw_obj_begin(&j);
            jw_kstr(&j, "thing", p.thing);
            jw_kstr(&j, "service", p.service);
            json_ms(&j, "monitored", p.monitored);
            jw_key(&j, "forced");
            if (p.forced) {
                jw_obj_begin(&j);
                jw_kstr(&j, "state", updown(p.forced_up));
                jw_key(&j, "ttl");
                if (p.forced_ttl)
                    jw_u64(&j, p.ttl_forced);
                else
                    jw_null(&j);
                jw_obj_end(&j);
            } else {
                jw_null(&j);
            }
            jw_kstr(&j, "state", updown(p.effective.up));
            jw_ku64(&j, "ttl", p.effective.ttl);
            jw_obj_end(&j);
        }
        jw_arr_end(&j);
        jw_obj_end(&j);
        jw_finish(&j);
        return;
    }
    printf("%-40s %-22s %-15s %s\n", "THING/SERVICE_TYPE", "MONITORED", "FORCED",
           "RESULT");
    for (size_t i = 0; i < n; i++) {
        wsel_pair_info p;
        wsel_state_pair(st, i, &p);
        char key[600], e[CLI_ESC_MAX], mon[32], forced[32], res[32];
        snprintf(key, sizeof key, "%s/%s", p.thing, p.service);
        snprintf(mon, sizeof mon, "%s/%u", updown(p.monitored.up), p.monitored.ttl);
        if (!p.forced)
            snprintf(forced, sizeof forced, "-");
        else if (p.forced_ttl)
            snprintf(forced, sizeof forced, "%s/%u", updown(p.forced_up), p.ttl_forced);
        else
            snprintf(forced, sizeof forced, "%s", updown(p.forced_up));
        snprintf(res, sizeof res, "%s/%u", updown(p.effective.up), p.effective.ttl);
        printf("%-40s %-22s %-15s %s\n", cli_esc(key, e, sizeof e), mon, forced, res);
    }
}

int cli_states(int argc, char **argv)
{
    const char *cmd = "states";
    const char *pos[2] = { NULL, NULL };
    wsel_input input = WSEL_INPUT_AUTO;
    int json = 0;
    int rc = CLI_USAGE;
    cli_stateopts so = {0};
    wsel_config *cfg = NULL;
    wsel_state *st = NULL;
    size_t npos = 0;
    const char **all = calloc((size_t)argc, sizeof *all);
    if (!all)
        return cli_nomem(cmd);
    int k = cli_stateopt_args(cmd, states_usage, argc, argv, &so, &json, &input, all, &npos);
    if (npos > 1 && k == CLI_OK) {
        cli_die(cmd, "unexpected argument '%s' (see wsel states --help)", all[1]);
        k = CLI_USAGE;
    }
    pos[0] = npos ? all[0] : NULL;
    free(all);
    if (k != CLI_OK) {
        rc = k < 0 ? CLI_OK : k;
        goto out;
    }
    rc = cli_stateopt_load(cmd, pos[0], input, &so, &cfg, &st);
    if (rc != CLI_OK)
        goto out;
    print_pairs(st, json, pos[0]);
    rc = CLI_OK;
out:
    wsel_state_free(st);
    wsel_config_free(cfg);
    cli_stateopt_free(&so);
    return rc;
}
