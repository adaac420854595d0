/* bin/wsel: the monitoring-state options of explain and sample. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static int push(const char *cmd, cli_stateopts *so, cli_stateop op)
{
    if (so->n == so->cap) {
        size_t cap = so->cap ? so->cap * 2 : 8;
        cli_stateop *p = realloc(so->ops, cap * sizeof *p);
        if (!p) {
            cli_die(cmd, "out of memory");
            return -1;
        }
        so->ops = p;
        so->cap = cap;
    }
    so->ops[so->n++] = op;
    return 1;
}

int cli_stateopt_parse(const char *cmd, cli_stateopts *so, int argc, char **argv, int *i)
{
    const char *arg = argv[*i];
    cli_stateop op = {0};
    if (cli_opt_is(arg, "--state")) {
        const char *v = cli_optval(cmd, argc, argv, i, "--state");
        if (!v)
            return -1;
        const char *eq = strchr(v, '=');
        if (!eq || eq == v || !eq[1]) {
            cli_die(cmd, "--state expects SERVICE=FILE, got '%s'", v);
            return -1;
        }
        char *svc = malloc((size_t)(eq - v) + 1);
        if (!svc) {
            cli_die(cmd, "out of memory");
            return -1;
        }
        memcpy(svc, v, (size_t)(eq - v));
        svc[eq - v] = '\0';
        op.kind = STATEOP_FILE;
        op.service = svc;
        op.arg = eq + 1;
        if (push(cmd, so, op) < 0) {
            free(svc);
            return -1;
        }
        return 1;
    }
    if (cli_opt_is(arg, "--down") || cli_opt_is(arg, "--up")) {
        int down = cli_opt_is(arg, "--down");
        const char *v = cli_optval(cmd, argc, argv, i, down ? "--down" : "--up");
        if (!v)
            return -1;
        if (!*v) {
            cli_die(cmd, "%s expects an address or name", down ? "--down" : "--up");
            return -1;
        }
        op.kind = down ? STATEOP_DOWN : STATEOP_UP;
        op.arg = v;
        return push(cmd, so, op);
    }
    return 0;
}

int cli_stateopt_apply(const char *cmd, const cli_stateopts *so, const wsel_config *cfg,
                       wsel_state **out)
{
    wsel_error err;
    wsel_error_clear(&err);
    char buf[2048];
    wsel_state *st = NULL;
    if (wsel_state_new(cfg, &st, &err) != WSEL_OK)
        return cli_die(cmd, "%s", wsel_error_format(&err, buf, sizeof buf));
    for (size_t k = 0; k < so->n; k++) {
        const cli_stateop *op = &so->ops[k];
        int rc;
        if (op->kind == STATEOP_FILE) {
            rc = wsel_state_load_extfile(st, op->service, op->arg, &err);
            if (rc != WSEL_OK) {
                wsel_error_format(&err, buf, sizeof buf);
                wsel_state_free(st);
                return cli_die(cmd, "--state %s=%s: %s", op->service, op->arg, buf);
            }
            continue;
        }
        size_t matched = 0;
        int up = op->kind == STATEOP_UP;
        rc = wsel_state_set(st, NULL, op->arg, up, WSEL_MAX_TTL, &matched, &err);
        if (rc != WSEL_OK) {
            wsel_error_format(&err, buf, sizeof buf);
            wsel_state_free(st);
            return cli_die(cmd, "%s %s: %s", up ? "--up" : "--down", op->arg, buf);
        }
        if (matched == 0) {
            /* Probably a typo, or an item only the built-in `up` type monitors: the
             * option changes nothing, which the user should hear about. */
            wsel_state_free(st);
            return cli_die(cmd,
                           "%s %s: no address or CNAME with a non-built-in service type "
                           "matches", up ? "--up" : "--down", op->arg);
        }
    }
    *out = st;
    return CLI_OK;
}

void cli_stateopt_free(cli_stateopts *so)
{
    for (size_t k = 0; k < so->n; k++)
        if (so->ops[k].kind == STATEOP_FILE)
            free((char *)so->ops[k].service);
    free(so->ops);
    so->ops = NULL;
    so->n = so->cap = 0;
}
