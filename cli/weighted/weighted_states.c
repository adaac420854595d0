/* bin/wsel: `wsel states` -- every (thing, service type) pair an admin_state line can
 * match, with its monitored, forced and resulting state (like `gdnsdctl states`). */
#include <stdlib.h>

#include "weighted_cli.h"

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

static void json_ms(wsel__jw *j, const char *key, wsel_mstate m)
{
    wsel__jw_kobj_begin(j, key);
    wsel__jw_kstr(j, "state", updown(m.up));
    wsel__jw_ku64(j, "ttl", m.ttl);
    wsel__jw_obj_end(j);
}

static void print_pairs(const wsel_state *st, int json, const char *config)
{
    size_t n = wsel_state_pair_count(st);
    if (json) {
        wsel__jw j;
        wsel__jw_init(&j, stdout);
        wsel__jw_obj_begin(&j);
        wsel__jw_kstr(&j, "config", config);
        wsel__jw_karr_begin(&j, "pairs");
        for (size_t i = 0; i < n; i++) {
            wsel_pair_info p;
            wsel_state_pair(st, i, &p);
            wsel__jw_obj_begin(&j);
            wsel__jw_kstr(&j, "thing", p.thing);
            wsel__jw_kstr(&j, "service", p.service);
            json_ms(&j, "monitored", p.monitored);
            wsel__jw_key(&j, "forced");
            if (p.forced) {
                wsel__jw_obj_begin(&j);
                wsel__jw_kstr(&j, "state", updown(p.forced_up));
                /* without a written TTL the override forces WSEL_MAX_TTL, as gdnsd
                 * 3.8.1 does (doc/weighted.md §6.5, D21) */
                wsel__jw_ku64(&j, "ttl", p.ttl_forced);
                wsel__jw_obj_end(&j);
            } else {
                wsel__jw_null(&j);
            }
            wsel__jw_kstr(&j, "state", updown(p.effective.up));
            wsel__jw_ku64(&j, "ttl", p.effective.ttl);
            wsel__jw_obj_end(&j);
        }
        wsel__jw_arr_end(&j);
        wsel__jw_obj_end(&j);
        cli_json_end(&j);
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
        else
            snprintf(forced, sizeof forced, "%s/%u", updown(p.forced_up), p.ttl_forced);
        snprintf(res, sizeof res, "%s/%u", updown(p.effective.up), p.effective.ttl);
        printf("%-40s %-22s %-15s %s\n", wsel__escape(key, e, sizeof e), mon, forced, res);
    }
}

int cli_states(int argc, char **argv)
{
    cli_statecmd c;
    int rc = cli_statecmd_open("states", states_usage, argc, argv, 1, &c);
    if (rc == CLI_OK)
        print_pairs(c.st, c.json, c.pos[0]);
    cli_statecmd_free(&c);
    return rc < 0 ? CLI_OK : rc;
}
