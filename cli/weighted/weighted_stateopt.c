/* bin/wsel: the monitoring-state options of explain, sample and states. */
#include <stdlib.h>
#include <string.h>

#include "weighted_cli.h"

static int push(const char *cmd, cli_stateopts *so, cli_stateop op)
{
    if (!wsel__grow(&so->ops, &so->cap, so->n + 1, sizeof *so->ops))
        return -cli_nomem(cmd);
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
            return -CLI_USAGE;
        const char *eq = strchr(v, '=');
        if (!eq || eq == v || !eq[1])
            return -cli_die(cmd, "--state expects SERVICE=FILE, got '%s'", v);
        char *svc = malloc((size_t)(eq - v) + 1);
        if (!svc)
            return -cli_nomem(cmd);
        memcpy(svc, v, (size_t)(eq - v));
        svc[eq - v] = '\0';
        op.kind = STATEOP_FILE;
        op.service = svc;
        op.arg = eq + 1;
        int k = push(cmd, so, op);
        if (k < 0)
            free(svc);
        return k;
    }
    if (cli_opt_is(arg, "--admin-state")) {
        const char *v = cli_optval(cmd, argc, argv, i, "--admin-state");
        if (!v)
            return -CLI_USAGE;
        if (!*v)
            return -cli_die(cmd, "--admin-state expects a file");
        op.kind = STATEOP_ADMIN;
        op.arg = v;
        return push(cmd, so, op);
    }
    if (cli_opt_is(arg, "--down") || cli_opt_is(arg, "--up")) {
        int down = cli_opt_is(arg, "--down");
        const char *v = cli_optval(cmd, argc, argv, i, down ? "--down" : "--up");
        if (!v)
            return -CLI_USAGE;
        if (!*v)
            return -cli_die(cmd, "%s expects an address or name", down ? "--down" : "--up");
        op.kind = down ? STATEOP_DOWN : STATEOP_UP;
        op.arg = v;
        return push(cmd, so, op);
    }
    return 0;
}

/* State files report lines that change nothing as warnings (man/wsel.1, STATE INPUT). */
static void print_warning(void *ctx, const wsel_error *w)
{
    char buf[2048];
    fprintf(stderr, "wsel: %s: warning: ", (const char *)ctx);
    wsel__escape_put(stderr, wsel_error_format(w, buf, sizeof buf));
    fputc('\n', stderr);
}

int cli_stateopt_apply(const char *cmd, const cli_stateopts *so, const wsel_config *cfg,
                       wsel_state **out)
{
    wsel_error err;
    wsel_error_clear(&err);
    char buf[2048];
    wsel_state *st = NULL;
    int rc = wsel_state_new(cfg, &st, &err);
    if (rc != WSEL_OK)
        return cli_fail(cmd, rc, "%s", wsel_error_format(&err, buf, sizeof buf));
    wsel_state_set_warn(st, print_warning, (void *)cmd);
    for (size_t k = 0; k < so->n; k++) {
        const cli_stateop *op = &so->ops[k];
        if (op->kind == STATEOP_FILE || op->kind == STATEOP_ADMIN) {
            rc = op->kind == STATEOP_FILE
                     ? wsel_state_load_extfile(st, op->service, op->arg, &err)
                     : wsel_state_load_admin(st, op->arg, &err);
            if (rc != WSEL_OK) {
                wsel_error_format(&err, buf, sizeof buf);
                wsel_state_free(st);
                if (op->kind == STATEOP_FILE)
                    return cli_fail(cmd, rc, "--state %s=%s: %s", op->service, op->arg, buf);
                return cli_fail(cmd, rc, "--admin-state %s: %s", op->arg, buf);
            }
            continue;
        }
        /* --down X / --up X are the admin_state line X/<any service> => DOWN|UP: every
         * service type of every item X names, built-ins included (doc/weighted.md §6.5). */
        size_t matched = 0;
        int up = op->kind == STATEOP_UP;
        size_t len = strlen(op->arg) + 3;
        char *pattern = malloc(len);
        if (!pattern) {
            wsel_state_free(st);
            return cli_nomem(cmd);
        }
        snprintf(pattern, len, "%s/*", op->arg);
        rc = wsel_state_force(st, pattern, up, false, 0, &matched, &err);
        free(pattern);
        if (rc != WSEL_OK) {
            wsel_error_format(&err, buf, sizeof buf);
            wsel_state_free(st);
            return cli_fail(cmd, rc, "%s %s: %s", up ? "--up" : "--down", op->arg, buf);
        }
        if (matched == 0) {
            /* A typo most likely: an option names things of this config, so one that
             * names nothing is an error (a state file line is only a warning). */
            wsel_state_free(st);
            return cli_die(cmd, "%s %s: no address or CNAME of this config matches",
                           up ? "--up" : "--down", op->arg);
        }
    }
    wsel_state_set_warn(st, NULL, NULL);
    *out = st;
    return CLI_OK;
}

/* The shared options (cli_common_opt), state options and positional arguments, these
 * collected into pos[] (room for argc entries) in order; the first is CONFIG, which must
 * be there. Returns CLI_OK, -1 (--help: usage printed) or the exit status. */
static int stateopt_args(const char *cmd, const char *usage, int argc, char **argv,
                         cli_stateopts *so, int *json, wsel_input *input, const char **pos,
                         size_t *npos)
{
    int opts_done = 0;
    *npos = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!opts_done && a[0] == '-' && a[1]) {
            int k;
            int common = cli_common_opt(a, &opts_done, json, input, usage);
            if (common == CLI_OPT_HELP)
                return -1;
            if (common == CLI_OPT_TAKEN)
                continue;
            if ((k = cli_stateopt_parse(cmd, so, argc, argv, &i)) < 0)
                return -k;
            if (k == 0)
                return cli_die(cmd, "unknown option '%s' (see wsel %s --help)", a, cmd);
        } else {
            pos[(*npos)++] = a;
        }
    }
    if (*npos == 0)
        return cli_die(cmd, "missing CONFIG (see wsel %s --help)", cmd);
    return CLI_OK;
}

int cli_statecmd_open(const char *cmd, const char *usage, int argc, char **argv,
                      size_t max_pos, cli_statecmd *c)
{
    memset(c, 0, sizeof *c);
    c->input = WSEL_INPUT_AUTO;
    c->pos = calloc((size_t)argc, sizeof *c->pos);
    if (!c->pos)
        return cli_nomem(cmd);
    int rc = stateopt_args(cmd, usage, argc, argv, &c->so, &c->json, &c->input, c->pos,
                           &c->npos);
    if (rc != CLI_OK)
        return rc;
    if (c->npos > max_pos)
        return cli_die(cmd, "unexpected argument '%s' (see wsel %s --help)", c->pos[max_pos],
                       cmd);
    rc = cli_load_config(cmd, c->pos[0], c->input, &c->cfg, NULL);
    if (rc != CLI_OK)
        return rc;
    return cli_stateopt_apply(cmd, &c->so, c->cfg, &c->st);
}

void cli_statecmd_free(cli_statecmd *c)
{
    wsel_state_free(c->st);
    wsel_config_free(c->cfg);
    cli_stateopt_free(&c->so);
    free(c->pos);
    memset(c, 0, sizeof *c);
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
