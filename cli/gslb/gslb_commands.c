/* bin/wsel gslb: the GSLB system's commands (BIG-IP DNS wide IP -> pool -> member):
 * check and resolve here, explain in gslb_explain.c. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gslb_cli.h"

int cli_gslb_load(const char *cmd, const char *path, wsel_gslb_config **out)
{
    wsel_error err;
    wsel_error_clear(&err);
    int rc = wsel_gslb_config_load_file(path, out, &err);
    if (rc == WSEL_OK)
        return CLI_OK;
    char buf[2048];
    wsel_error_format(&err, buf, sizeof buf);
    if (rc == WSEL_E_IO && err.line == 0) {
        cli_die(cmd, "%s", buf);
        return CLI_USAGE;
    }
    fprintf(stderr, "%s\n", buf);
    return CLI_INVALID;
}

/* name without a leading /Common/ and a trailing dot, for comparing wide IP names */
static size_t bare(const char *name, const char **start)
{
    if (!strncmp(name, "/Common/", 8))
        name += 8;
    size_t n = strlen(name);
    if (n && name[n - 1] == '.')
        n--;
    *start = name;
    return n;
}

int cli_gslb_find_wideip(const char *cmd, const wsel_gslb_config *cfg, const char *name,
                         const char *path, long *out)
{
    if ((*out = wsel_gslb_find_wideip(cfg, name)) >= 0)
        return CLI_OK;
    const char *want, *have;
    size_t nw = bare(name, &want);
    for (size_t i = 0; i < cfg->n_unknown; i++) {
        const wsel_gslb_unknown *u = &cfg->unknown[i];
        const char *last = strrchr(u->object, ' ');
        if (strncmp(u->object, "gtm wideip ", 11) || !last)
            continue;
        size_t nh = bare(last + 1, &have);
        if (nh == nw && !strncasecmp(have, want, nw))
            return cli_die(cmd, "%s:%u:%u: %s: this type is not supported (A wide IPs only; lint G030)",
                           path, u->pos.line, u->pos.col, u->object);
    }
    return cli_die(cmd, "no wide IP '%s' in %s", name, path);
}

const char *cli_gslb_severity(wsel_gslb_severity s)
{
    return s == WSEL_GSLB_ERROR ? "error" : s == WSEL_GSLB_WARNING ? "warning" : "info";
}

static int json_print(json_t *root)
{
    char *s = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(root);
    if (!s)
        return cli_nomem(NULL);
    puts(s);
    free(s);
    return CLI_OK;
}

int cli_gslb_arg(const char *a, int *done, int *json, const char *usage)
{
    if (*done || a[0] != '-' || !a[1])
        return CLI_GSLB_OPERAND;
    if (!strcmp(a, "--")) {
        *done = 1;
        return CLI_GSLB_TAKEN;
    }
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
        fputs(usage, stdout);
        return CLI_GSLB_HELP;
    }
    if (!strcmp(a, "--json")) {
        *json = 1;
        return CLI_GSLB_TAKEN;
    }
    return CLI_GSLB_OPTION;
}

/* ---- check ---- */

static const char check_usage[] =
    "usage: wsel gslb check CONFIG [--json]\n"
    "Reads a bigip_gtm.conf subset (gtm server, gtm pool a, gtm wideip a, gtm region,\n"
    "gtm topology, gtm global-settings load-balancing) and runs the checks G001-G030.\n"
    "Exit status: 0 valid (warnings and info allowed), 1 parse error or an error finding,\n"
    "2 usage.\n";

int cli_gslb_check(int argc, char **argv)
{
    const char *path = NULL;
    int json = 0, done = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int k = cli_gslb_arg(a, &done, &json, check_usage);
        if (k == CLI_GSLB_HELP)
            return CLI_OK;
        if (k == CLI_GSLB_OPTION)
            return cli_die("gslb check", "unknown option '%s'", a);
        if (k == CLI_GSLB_OPERAND) {
            if (path)
                return cli_die("gslb check", "unexpected argument '%s'", a);
            path = a;
        }
    }
    if (!path)
        return cli_die("gslb check", "missing CONFIG (see wsel gslb check --help)");
    wsel_gslb_config *cfg;
    int rc = cli_gslb_load("gslb check", path, &cfg);
    if (rc)
        return rc;
    wsel_gslb_finding *f;
    size_t n;
    wsel_error err;
    if (wsel_gslb_lint(cfg, &f, &n, &err)) {
        wsel_gslb_config_free(cfg);
        return cli_die("gslb check", "%s", err.message);
    }
    size_t count[3] = {0};
    for (size_t i = 0; i < n; i++)
        count[f[i].severity]++;
    if (json) {
        json_t *root = json_object(), *arr = json_array();
        for (size_t i = 0; i < n; i++) {
            json_t *e = json_object();
            char code[8];
            snprintf(code, sizeof code, "G%03u", f[i].code);
            json_object_set_new(e, "code", json_string(code));
            json_object_set_new(e, "severity", json_string(cli_gslb_severity(f[i].severity)));
            json_object_set_new(e, "object", json_string(f[i].object));
            json_object_set_new(e, "file", json_string(cfg->file));
            json_object_set_new(e, "line", json_integer(f[i].pos.line));
            json_object_set_new(e, "message", json_string(f[i].message));
            json_array_append_new(arr, e);
        }
        json_object_set_new(root, "findings", arr);
        json_print(root);
    } else {
        printf("%s: %zu servers (%zu virtual servers), %zu pools, %zu wide IPs, %zu regions, "
               "%zu topology records",
               cfg->file, cfg->n_servers, cfg->n_vs, cfg->n_pools, cfg->n_wideips, cfg->n_regions,
               cfg->n_topo);
        if (cfg->version)
            printf(", TMSH-VERSION %s", cfg->version);
        printf("\n");
        if (cfg->skipped_statements)
            printf("skipped: %zu out-of-scope statements (see G030)\n", cfg->skipped_statements);
        for (size_t i = 0; i < n; i++)
            printf("%s:%u:%u: %s: G%03u %s: %s\n", cfg->file, f[i].pos.line, f[i].pos.col,
                   cli_gslb_severity(f[i].severity), f[i].code, f[i].object, f[i].message);
        printf("%s: %zu errors, %zu warnings, %zu info\n", count[WSEL_GSLB_ERROR] ? "invalid" : "valid",
               count[WSEL_GSLB_ERROR], count[WSEL_GSLB_WARNING], count[WSEL_GSLB_INFO]);
    }
    free(f);
    wsel_gslb_config_free(cfg);
    return count[WSEL_GSLB_ERROR] ? CLI_INVALID : CLI_OK;
}

/* ---- resolve ---- */

static const char resolve_usage[] =
    "usage: wsel gslb resolve CONFIG WIDEIP --inputs FILE [--ldns ADDR] [-n N]\n"
    "                         [--log FLAGS] [--json]\n"
    "Runs N (default 1) queries for WIDEIP in sequence, carrying method state and the\n"
    "persistence table from one to the next. --inputs: availability, metrics, LDNS, geo,\n"
    "persistence, method state (JSON, man wsel). --ldns overrides query.ldns.\n"
    "--log: comma-separated pool-selection, pool-traversal, pool-member-selection,\n"
    "pool-member-traversal, all, none (default: the wide IP's\n"
    "load-balancing-decision-log-verbosity); the result line is always logged.\n";

typedef struct logbuf {
    char **lines;
    size_t n, cap;
    int oom;
} logbuf;

static void log_collect(void *ctx, unsigned flag, const char *line)
{
    (void)flag;
    logbuf *b = ctx;
    if (b->oom)
        return;
    if (b->n == b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 16;
        char **l = realloc(b->lines, cap * sizeof *l);
        if (!l) {
            b->oom = 1;
            return;
        }
        b->lines = l;
        b->cap = cap;
    }
    size_t len = strlen(line) + 1;
    char *d = malloc(len);
    if (!d) {
        b->oom = 1;
        return;
    }
    memcpy(d, line, len);
    b->lines[b->n++] = d;
}

static void log_clear(logbuf *b)
{
    for (size_t i = 0; i < b->n; i++)
        free(b->lines[i]);
    b->n = 0;
}

/* "event k=v k=v ..." -> {"event": ..., "k": "v", ...}; words without '=' continue the
 * previous value, and "detail" takes the rest of the line. */
static json_t *log_json(const char *line)
{
    json_t *o = json_object();
    char *copy = strdup(line);
    if (!o || !copy) {
        free(copy);
        json_decref(o);
        return NULL;
    }
    char *save = NULL, *w = strtok_r(copy, " ", &save);
    json_object_set_new(o, "event", json_string(w ? w : ""));
    char key[64] = "", val[1024] = "";
    while ((w = strtok_r(NULL, " ", &save))) {
        char *eq = strchr(w, '=');
        if (eq && strcmp(key, "detail") != 0) {
            if (key[0])
                json_object_set_new(o, key, json_string(val));
            *eq = '\0';
            snprintf(key, sizeof key, "%s", w);
            snprintf(val, sizeof val, "%s", eq + 1);
        } else {
            size_t l = strlen(val);
            snprintf(val + l, sizeof val - l, " %s", w);
        }
    }
    if (key[0])
        json_object_set_new(o, key, json_string(val));
    free(copy);
    return o;
}

static int parse_log_flags(const char *s, unsigned *out)
{
    static const char *const names[] = {"pool-selection", "pool-traversal", "pool-member-selection",
                                        "pool-member-traversal"};
    unsigned f = 0;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", s);
    char *save = NULL;
    for (char *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
        if (!strcmp(w, "all"))
            f |= 15;
        else if (!strcmp(w, "none"))
            ;
        else {
            int k = -1;
            for (int i = 0; i < 4; i++)
                if (!strcmp(w, names[i]))
                    k = i;
            if (k < 0)
                return -1;
            f |= 1u << k;
        }
    }
    *out = f;
    return 0;
}

static void count_add(json_t *obj, const char *key)
{
    json_t *v = json_object_get(obj, key);
    json_object_set_new(obj, key, json_integer(v ? json_integer_value(v) + 1 : 1));
}

int cli_gslb_resolve(int argc, char **argv)
{
    const char *cmd = "gslb resolve";
    const char *path = NULL, *wname = NULL, *inputs = NULL, *ldns = NULL, *logs = NULL;
    unsigned long long n = 1;
    int json = 0, done = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int k = cli_gslb_arg(a, &done, &json, resolve_usage);
        if (k == CLI_GSLB_HELP)
            return CLI_OK;
        if (k == CLI_GSLB_TAKEN)
            continue;
        if (k == CLI_GSLB_OPERAND) {
            if (path && wname)
                return cli_die(cmd, "unexpected argument '%s'", a);
            *(path ? &wname : &path) = a;
        } else if (cli_opt_is(a, "--inputs")) {
            if (!(inputs = cli_optval(cmd, argc, argv, &i, "--inputs")))
                return CLI_USAGE;
        } else if (cli_opt_is(a, "--ldns")) {
            if (!(ldns = cli_optval(cmd, argc, argv, &i, "--ldns")))
                return CLI_USAGE;
        } else if (cli_opt_is(a, "--log")) {
            if (!(logs = cli_optval(cmd, argc, argv, &i, "--log")))
                return CLI_USAGE;
        } else if (cli_opt_is(a, "-n")) {
            const char *v = cli_optval(cmd, argc, argv, &i, "-n");
            if (!v)
                return CLI_USAGE;
            if (!cli_parse_u64(v, &n) || n < 1 || n > 10000000)
                return cli_die(cmd, "-n needs an integer in 1..10000000, not '%s'", v);
        } else
            return cli_die(cmd, "unknown option '%s'", a);
    }
    if (!path || !wname)
        return cli_die(cmd, "missing CONFIG or WIDEIP (see wsel gslb resolve --help)");
    if (!inputs)
        return cli_die(cmd, "missing --inputs FILE (see man wsel, GSLB INPUTS)");
    unsigned log_flags = 0;
    if (logs && parse_log_flags(logs, &log_flags))
        return cli_die(cmd, "--log: unknown flag in '%s' (pool-selection, pool-traversal, "
                            "pool-member-selection, pool-member-traversal, all, none)", logs);
    wsel_gslb_config *cfg;
    int rc = cli_gslb_load(cmd, path, &cfg);
    if (rc)
        return rc;
    long wi;
    wsel_gslb_inputs *in = NULL;
    wsel_gslb_state *st = NULL;
    wsel_error err;
    char ebuf[2048];
    if ((rc = cli_gslb_find_wideip(cmd, cfg, wname, path, &wi)))
        goto out;
    if (wsel_gslb_inputs_load_file(cfg, inputs, &in, &err)) {
        rc = cli_die(cmd, "%s", wsel_error_format(&err, ebuf, sizeof ebuf));
        goto out;
    }
    if (ldns) {
        wsel_gslb_addr a;
        if (!wsel_gslb_addr_parse(ldns, &a)) {
            rc = cli_die(cmd, "--ldns: '%s' is not an IPv4/IPv6 address", ldns);
            goto out;
        }
        wsel_gslb_inputs_set_ldns(in, &a, NULL);
    }
    if (wsel_gslb_state_new(cfg, in, &st, &err)) {
        rc = cli_die(cmd, "%s", err.message);
        goto out;
    }
    logbuf lb = {0};
    wsel_gslb_log log = {.flags = (logs ? log_flags : cfg->wideips[wi].log_flags) | WSEL_GSLB_LOG_RESULT,
                         .fn = log_collect, .ctx = &lb};
    json_t *root = json_object(), *queries = json_array(), *counts = json_object(),
           *c_out = json_object(), *c_pick = json_object();
    wsel_gslb_outcome *o = malloc(sizeof *o);
    if (!o) {
        rc = cli_nomem(cmd);
        goto out;
    }
    for (unsigned long long q = 0; q < n; q++) {
        log_clear(&lb);
        if (wsel_gslb_resolve(cfg, wi, in, st, &log, o, &err)) {
            rc = cli_die(cmd, "query %llu: %s", q + 1, wsel_error_format(&err, ebuf, sizeof ebuf));
            break;
        }
        char a0[64] = "";
        if (o->n_addrs)
            wsel_gslb_addr_str(&o->addrs[0], a0, sizeof a0);
        count_add(c_out, wsel_gslb_outcome_name(o->kind));
        if (o->kind == WSEL_GSLB_O_ANSWER || o->kind == WSEL_GSLB_O_FALLBACK_IP)
            count_add(c_pick, a0);
        if (json) {
            json_t *e = json_object(), *addrs = json_array();
            json_object_set_new(e, "outcome", json_string(wsel_gslb_outcome_name(o->kind)));
            for (size_t k = 0; k < o->n_addrs; k++) {
                char a[64];
                json_array_append_new(addrs, json_string(wsel_gslb_addr_str(&o->addrs[k], a, sizeof a)));
            }
            json_object_set_new(e, "addresses", addrs);
            json_object_set_new(e, "wideip", json_string(cfg->wideips[wi].name));
            if (o->pool >= 0)
                json_object_set_new(e, "pool", json_string(cfg->pools[o->pool].name));
            if (o->step != WSEL_GSLB_STEP_NONE)
                json_object_set_new(e, "step", json_string(wsel_gslb_step_name(o->step)));
            if (o->method >= 0)
                json_object_set_new(e, "method",
                                    json_string(wsel_gslb_method_get((wsel_gslb_method)o->method)->token));
            if (o->kind == WSEL_GSLB_O_RCODE) {
                json_object_set_new(e, "rcode", json_string(wsel_gslb_rcode_name(o->rcode)));
                json_object_set_new(e, "soa_ttl", json_integer(o->soa_ttl));
            }
            if (o->kind == WSEL_GSLB_O_ANSWER || o->kind == WSEL_GSLB_O_FALLBACK_IP)
                json_object_set_new(e, "ttl", json_integer(o->ttl));
            if (o->reason)
                json_object_set_new(e, "reason", json_string(o->reason));
            json_t *la = json_array();
            for (size_t k = 0; k < lb.n; k++)
                json_array_append_new(la, log_json(lb.lines[k]));
            json_object_set_new(e, "log", la);
            json_array_append_new(queries, e);
        } else {
            printf("query %llu: %s", q + 1, wsel_gslb_outcome_name(o->kind));
            for (size_t k = 0; k < o->n_addrs; k++) {
                char a[64];
                printf("%s%s", k ? "," : " ", wsel_gslb_addr_str(&o->addrs[k], a, sizeof a));
            }
            if (o->pool >= 0)
                printf(" pool %s", cfg->pools[o->pool].name);
            if (o->step != WSEL_GSLB_STEP_NONE)
                printf(" step %s", wsel_gslb_step_name(o->step));
            if (o->method >= 0)
                printf(" method %s", wsel_gslb_method_get((wsel_gslb_method)o->method)->token);
            if (o->kind == WSEL_GSLB_O_ANSWER || o->kind == WSEL_GSLB_O_FALLBACK_IP)
                printf(" ttl %u", o->ttl);
            if (o->kind == WSEL_GSLB_O_RCODE)
                printf(" rcode %s soa_ttl %u", wsel_gslb_rcode_name(o->rcode), o->soa_ttl);
            if (o->reason)
                printf(" reason %s", o->reason);
            printf("\n");
            for (size_t k = 0; k < lb.n; k++)
                printf("  %s\n", lb.lines[k]);
        }
    }
    free(o);
    log_clear(&lb);
    free(lb.lines);
    if (!rc) {
        char *sj = wsel_gslb_state_json(st);
        json_t *state = sj ? json_loads(sj, 0, NULL) : NULL;
        json_object_set_new(counts, "outcomes", c_out);
        json_object_set_new(counts, "picks", c_pick);
        if (json) {
            json_object_set_new(root, "queries", queries);
            json_object_set_new(root, "counts", counts);
            if (state)
                json_object_set_new(root, "state", state);
            json_print(root);
            root = NULL;
        } else {
            printf("counts:");
            const char *k;
            json_t *v;
            json_object_foreach(c_out, k, v)
                printf(" %s %lld", k, (long long)json_integer_value(v));
            printf("\n");
            json_object_foreach(c_pick, k, v)
                printf("  %s %lld\n", k, (long long)json_integer_value(v));
            printf("state: %s\n", sj ? sj : "null");
            json_decref(state);
            json_decref(queries);
            json_decref(counts);
        }
        free(sj);
    } else {
        json_decref(queries);
        json_decref(c_out);
        json_decref(c_pick);
        json_decref(counts);
    }
    json_decref(root);
out:
    wsel_gslb_state_free(st);
    wsel_gslb_inputs_free(in);
    wsel_gslb_config_free(cfg);
    return rc;
}
