/* bin/wsel gslb resolve: N queries for one wide IP in sequence, carrying method state and
 * persistence from each to the next; each outcome with its decision log, the counts and
 * the final state, as text or JSON. The log comes from the library as events
 * (include/wsel/gslb.h, wsel_gslb_event): the text line is the library's rendering, the
 * JSON object is written here from the event's fields. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/io.h"
#include "../../core/internal.h"
#include "gslb_cli.h"

static const char resolve_usage[] =
    "usage: wsel gslb resolve CONFIG WIDEIP --inputs FILE [--type A|AAAA] [--ldns ADDR]\n"
    "                         [-n N] [--log FLAGS] [--json]\n"
    "Runs N (default 1) queries for WIDEIP in sequence, carrying method state and the\n"
    "persistence table from one to the next. --inputs: availability, metrics, LDNS, geo,\n"
    "persistence, method state (JSON, man wsel). --type: the query type, the wide IP's\n"
    "(default: query.type of the inputs, else A). --ldns overrides query.ldns.\n"
    "--log: comma-separated pool-selection, pool-traversal, pool-member-selection,\n"
    "pool-member-traversal, all, none (default: the wide IP's\n"
    "load-balancing-decision-log-verbosity); the result line is always logged.\n";

/* The command line. */
typedef struct resolve_args {
    const char *path, *wname, *inputs, *ldns, *logs, *type;
    unsigned long long n;
    int json;
    unsigned log_flags;
} resolve_args;

/* What a run works on and what it has counted. The picks are counted per answering
 * member (pool p's member m: slot member_off[p] + m) and per fallback-ip (slot
 * n_members + p), so a query costs no search; the slots first seen are listed in order,
 * and the addresses merged when printed. */
typedef struct resolve_run {
    const char *cmd;
    wsel_gslb_config *cfg;
    long wideip;
    wsel_gslb_inputs *in;
    wsel_gslb_state *st;
    wsel_gslb_outcome *out;
    wsel_gslb_event *events;      /* the current query's log */
    size_t n_events, cap_events;
    bool events_nomem;
    size_t outcomes[WSEL_GSLB_O_RCODE + 1];
    int outcome_order[WSEL_GSLB_O_RCODE + 1], n_outcome_order;
    size_t *member_off, n_members;
    unsigned long long *slot_count;
    size_t *slot_order, n_slot_order;
} resolve_run;

static int parse_log_flags(const char *s, unsigned *out)
{
    static const char *const names[] = {"pool-selection", "pool-traversal", "pool-member-selection",
                                        "pool-member-traversal"};
    unsigned f = 0;
    while (*s) {
        size_t n = strcspn(s, ",");
        int k = -1;
        for (int i = 0; i < 4; i++)
            if (strlen(names[i]) == n && !strncmp(s, names[i], n))
                k = i;
        if (n == 3 && !strncmp(s, "all", 3))
            f |= 15;
        else if (k >= 0)
            f |= 1u << k;
        else if (n && !(n == 4 && !strncmp(s, "none", 4)))
            return -1;
        s += n + (s[n] == ',');
    }
    *out = f;
    return 0;
}

/* One option or operand at argv[*i]: 0, -1 (--help printed), or the exit status. */
static int resolve_arg(const char *cmd, int argc, char **argv, int *i, int *done,
                       resolve_args *a)
{
    const char *arg = argv[*i];
    int k = cli_gslb_arg(arg, done, &a->json, resolve_usage);
    if (k == CLI_GSLB_HELP)
        return -1;
    if (k == CLI_GSLB_TAKEN)
        return 0;
    if (k == CLI_GSLB_OPERAND) {
        if (a->path && a->wname)
            return cli_die(cmd, "unexpected argument '%s'", arg);
        *(a->path ? &a->wname : &a->path) = arg;
        return 0;
    }
    static const char *const valued[] = {"--inputs", "--ldns", "--log", "--type", "-n"};
    const char **dest[] = {&a->inputs, &a->ldns, &a->logs, &a->type, NULL};
    for (size_t o = 0; o < 5; o++) {
        if (!cli_opt_is(arg, valued[o]))
            continue;
        const char *v = cli_optval(cmd, argc, argv, i, valued[o]);
        if (!v)
            return CLI_USAGE;
        if (dest[o])
            *dest[o] = v;
        else if (!cli_parse_u64(v, &a->n) || a->n < 1 || a->n > 10000000)
            return cli_die(cmd, "-n needs an integer in 1..10000000, not '%s'", v);
        return 0;
    }
    return cli_die(cmd, "unknown option '%s'", arg);
}

static int resolve_args_read(const char *cmd, int argc, char **argv, resolve_args *a)
{
    int done = 0;
    *a = (resolve_args){.n = 1};
    for (int i = 1; i < argc; i++) {
        int rc = resolve_arg(cmd, argc, argv, &i, &done, a);
        if (rc)
            return rc;
    }
    if (!a->path || !a->wname)
        return cli_die(cmd, "missing CONFIG or WIDEIP (see wsel gslb resolve --help)");
    if (!a->inputs)
        return cli_die(cmd, "missing --inputs FILE (see man wsel, GSLB INPUTS)");
    if (a->logs && parse_log_flags(a->logs, &a->log_flags))
        return cli_die(cmd, "--log: unknown flag in '%s' (pool-selection, pool-traversal, "
                            "pool-member-selection, pool-member-traversal, all, none)", a->logs);
    return 0;
}

/* ---- the run ---- */

static void collect(void *ctx, const wsel_gslb_event *ev)
{
    resolve_run *r = ctx;
    if (r->events_nomem)
        return;
    if (!wsel__grow(&r->events, &r->cap_events, r->n_events + 1, sizeof *r->events)) {
        r->events_nomem = true;
        return;
    }
    r->events[r->n_events++] = *ev;
}

/* Pool p's steps that read a metric its member lacks in the inputs: one note on stderr
 * per (step, member, metric), at most `*left` of them; the rest counted in *more. */
static void pool_missing(const resolve_run *r, long p, unsigned *left, unsigned *more)
{
    static const char *const steps[3] = {"preferred", "alternate", "fallback"};
    const wsel_gslb_pool *pl = &r->cfg->pools[p];
    for (int s = 0; s < 3; s++) {
        unsigned mask = wsel_gslb_step_metrics(pl, s);
        for (size_t m = 0; mask && m < pl->n_members; m++)
            for (int k = 0; pl->members[m].vs >= 0 && k < WSEL_GSLB_METRIC_COUNT_; k++) {
                if (!(mask & (1u << k)) ||
                    wsel_gslb_inputs_metric(r->in, (size_t)pl->members[m].vs, (wsel_gslb_metric)k, NULL))
                    continue;
                if (!*left) {
                    (*more)++;
                    continue;
                }
                (*left)--;
                cli_gslb_printf(stderr, "wsel: %s: note: pool %s %s %s: member %s has no %s in the "
                                        "inputs (the step leaves it out)\n", r->cmd, pl->name, steps[s],
                                wsel_gslb_method_get(pl->mode[s])->token, pl->members[m].key,
                                wsel_gslb_metric_key((wsel_gslb_metric)k));
            }
    }
}

/* The metrics the wide IP's pools read that the inputs lack, said once before the run
 * (doc/gslb.md §3): which member lacks which metric for which step. */
static void missing_metrics(const resolve_run *r)
{
    const wsel_gslb_wideip *w = &r->cfg->wideips[r->wideip];
    unsigned left = 32, more = 0;
    for (size_t i = 0; i < w->n_pools; i++)
        if (w->pools[i].pool >= 0)
            pool_missing(r, w->pools[i].pool, &left, &more);
    bool listed = false;
    for (size_t i = 0; i < w->n_pools; i++)
        listed |= w->pools[i].pool == w->lrp;
    if (w->lrp >= 0 && !listed)
        pool_missing(r, w->lrp, &left, &more);
    if (more)
        fprintf(stderr, "wsel: %s: note: %u more metrics missing\n", r->cmd, more);
}

/* Config, wide IP, inputs (with --ldns), state and the counters. */
static int run_open(resolve_run *r, const resolve_args *a)
{
    wsel_error err;
    int type = a->type ? wsel_gslb_type_find(a->type) : 0;
    if (type < 0)
        return cli_die(r->cmd, "--type needs A or AAAA, not '%s'", a->type);
    int rc = cli_gslb_load(r->cmd, a->path, &r->cfg);
    if (rc)
        return rc;
    if (wsel_gslb_find_wideip_type(r->cfg, a->wname, WSEL_GSLB_TYPE_A) < 0 &&
        wsel_gslb_find_wideip_type(r->cfg, a->wname, WSEL_GSLB_TYPE_AAAA) < 0) /* before the inputs */
        return cli_gslb_find_wideip(r->cmd, r->cfg, a->wname, a->path, WSEL_GSLB_TYPE_A, &r->wideip);
    if (wsel_gslb_inputs_load_file(r->cfg, a->inputs, &r->in, &err))
        return cli_report(r->cmd, &err, CLI_ROLE_INPUT);
    if (!a->type) /* the inputs' query type, A when they give none */
        type = (int)wsel_gslb_inputs_qtype(r->in);
    if ((rc = cli_gslb_find_wideip(r->cmd, r->cfg, a->wname, a->path, (wsel_gslb_type)type,
                                   &r->wideip)))
        return rc;
    if (a->ldns) {
        wsel_gslb_addr addr;
        if (!wsel_gslb_addr_parse(a->ldns, &addr))
            return cli_die(r->cmd, "--ldns: '%s' is not an IPv4/IPv6 address", a->ldns);
        wsel_gslb_inputs_set_ldns(r->in, &addr, NULL);
    }
    if (wsel_gslb_state_new(r->cfg, r->in, &r->st, &err))
        return cli_report(r->cmd, &err, CLI_ROLE_INPUT);
    missing_metrics(r);
    const wsel_gslb_config *cfg = r->cfg;
    r->member_off = calloc(cfg->n_pools + 1, sizeof *r->member_off);
    for (size_t p = 0; r->member_off && p < cfg->n_pools; p++)
        r->member_off[p + 1] = r->member_off[p] + cfg->pools[p].n_members;
    r->n_members = r->member_off ? r->member_off[cfg->n_pools] : 0;
    size_t slots = r->n_members + cfg->n_pools + 1;
    r->slot_count = calloc(slots, sizeof *r->slot_count);
    r->slot_order = calloc(slots, sizeof *r->slot_order);
    r->out = malloc(sizeof *r->out);
    if (!r->member_off || !r->slot_count || !r->slot_order || !r->out)
        return cli_nomem(r->cmd);
    return CLI_OK;
}

static void run_close(resolve_run *r)
{
    free(r->events);
    free(r->member_off);
    free(r->slot_count);
    free(r->slot_order);
    free(r->out);
    wsel_gslb_state_free(r->st);
    wsel_gslb_inputs_free(r->in);
    wsel_gslb_config_free(r->cfg);
}

static void count(resolve_run *r, const wsel_gslb_outcome *o)
{
    if (!r->outcomes[o->kind]++)
        r->outcome_order[r->n_outcome_order++] = (int)o->kind;
    size_t slot;
    if (o->kind == WSEL_GSLB_O_ANSWER)
        slot = r->member_off[o->pool] + (size_t)o->members[0];
    else if (o->kind == WSEL_GSLB_O_FALLBACK_IP)
        slot = r->n_members + (size_t)o->pool;
    else
        return;
    if (!r->slot_count[slot]++)
        r->slot_order[r->n_slot_order++] = slot;
}

/* The address a pick slot answers with. */
static const wsel_gslb_addr *slot_addr(const resolve_run *r, size_t slot)
{
    const wsel_gslb_config *cfg = r->cfg;
    if (slot >= r->n_members)
        return &cfg->pools[slot - r->n_members].fallback_ip;
    size_t p = 0;
    while (r->member_off[p + 1] <= slot)
        p++;
    return &cfg->vs[cfg->pools[p].members[slot - r->member_off[p]].vs].addr;
}

/* The k-th pick in first-seen order, merged with the later slots of the same address:
 * its address into a (and true), or false when an earlier slot had the address. */
static bool pick_total(const resolve_run *r, size_t k, char *a, size_t len,
                       unsigned long long *total)
{
    const wsel_gslb_addr *x = slot_addr(r, r->slot_order[k]);
    for (size_t e = 0; e < k; e++) {
        const wsel_gslb_addr *y = slot_addr(r, r->slot_order[e]);
        if (x->family == y->family && !memcmp(x->bytes, y->bytes, sizeof x->bytes))
            return false;
    }
    *total = 0;
    for (size_t e = k; e < r->n_slot_order; e++) {
        const wsel_gslb_addr *y = slot_addr(r, r->slot_order[e]);
        if (x->family == y->family && !memcmp(x->bytes, y->bytes, sizeof x->bytes))
            *total += r->slot_count[r->slot_order[e]];
    }
    wsel_gslb_addr_str(x, a, len);
    return true;
}

/* ---- the log ---- */

/* "  LINE\n": the library's text line, escaped. -1 when out of memory. */
static int event_text(const wsel_gslb_config *cfg, const wsel_gslb_event *ev)
{
    char buf[1024], *line = buf;
    size_t n = wsel_gslb_event_format(cfg, ev, buf, sizeof buf);
    if (n >= sizeof buf) {
        if (!(line = malloc(n + 1)))
            return -1;
        wsel_gslb_event_format(cfg, ev, line, n + 1);
    }
    fputs("  ", stdout);
    wsel__escape_put(stdout, line);
    fputc('\n', stdout);
    if (line != buf)
        free(line);
    return 0;
}

static void kfmt(wsel__jw *j, const char *key, const char *fmt, ...) CLI_PRINTF(3, 4);
static void kfmt(wsel__jw *j, const char *key, const char *fmt, ...)
{
    char v[64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v, sizeof v, fmt, ap);
    va_end(ap);
    wsel__jw_kstr(j, key, v);
}

/* The numbers behind a reason, each its own key (as the text line's key=value words). */
static void reason_json(wsel__jw *j, const wsel_gslb_config *cfg, const wsel_gslb_event *ev)
{
    char a[64];
    switch (ev->reason) {
    case WSEL_GSLB_WHY_PERSIST:
        kfmt(j, "key", "%s/%u", wsel_gslb_addr_str(&ev->key, a, sizeof a), ev->prefix);
        break;
    case WSEL_GSLB_WHY_RATIO:
        if (ev->kind == WSEL_GSLB_EV_MEMBER_SELECTION)
            kfmt(j, "w", "%llu", ev->number);
        kfmt(j, "cur", "%lld", ev->cur);
        break;
    case WSEL_GSLB_WHY_RANDOM: kfmt(j, "word", "%llu", ev->number); break;
    case WSEL_GSLB_WHY_TOPOLOGY: kfmt(j, "score", "%.0f", ev->value); break;
    case WSEL_GSLB_WHY_DYNAMIC_RATIO: kfmt(j, "w", "%llu", ev->number); break;
    case WSEL_GSLB_WHY_RECORD:
        kfmt(j, "line", "%u", wsel_gslb_event_record_line(cfg, ev));
        kfmt(j, "score", "%llu", ev->number);
        wsel__jw_kstr(j, "match", ev->shadowed ? "shadowed" : "used");
        break;
    case WSEL_GSLB_WHY_BEST:
        kfmt(j, ev->metric >= 0 ? wsel_gslb_metric_key((wsel_gslb_metric)ev->metric) : "qos",
             "%.6g", ev->value);
        break;
    default: break;
    }
    if (ev->tie)
        wsel__jw_kstr(j, "tie", "rr");
    if (ev->unverified)
        wsel__jw_kstr(j, "fallback", "unverified");
}

/* The event as one JSON object: "event", then the keys of its text line in their order,
 * every value a string; the reason's numbers under their own keys. -1 when out of
 * memory. */
static int event_json(wsel__jw *j, const wsel_gslb_config *cfg, const wsel_gslb_event *ev)
{
    char buf[1024], *reason = buf, a[64];
    size_t n = wsel_gslb_event_reason(cfg, ev, buf, sizeof buf);
    if (n >= sizeof buf) {
        if (!(reason = malloc(n + 1)))
            return -1;
        wsel_gslb_event_reason(cfg, ev, reason, n + 1);
    }
    const char *pool = wsel_gslb_event_pool(cfg, ev), *method = wsel_gslb_event_method(ev);
    const char *wideip = cfg->wideips[ev->wideip].name, *step = wsel_gslb_step_name(ev->step);
    const char *member = ev->member >= 0 ? cfg->pools[ev->pool].members[ev->member].key : "-";
    wsel__jw_obj_begin(j);
    wsel__jw_kstr(j, "event", wsel_gslb_event_name(ev->kind));
    switch (ev->kind) {
    case WSEL_GSLB_EV_POOL_SELECTION:
        wsel__jw_kstr(j, "wideip", wideip);
        wsel__jw_kstr(j, "ldns", ev->ldns.family ? wsel_gslb_addr_str(&ev->ldns, a, sizeof a) : "-");
        wsel__jw_kstr(j, "method", method);
        wsel__jw_kstr(j, "pool", pool);
        if (ev->result != WSEL_GSLB_R_NONE)
            wsel__jw_kstr(j, "result", wsel_gslb_result_name(ev->result));
        break;
    case WSEL_GSLB_EV_POOL_TRAVERSAL:
        wsel__jw_kstr(j, "wideip", wideip);
        wsel__jw_kstr(j, "pool", pool);
        if (ev->pos >= 0)
            kfmt(j, "pos", "%ld", ev->pos);
        else
            wsel__jw_kstr(j, "pos", "last-resort");
        wsel__jw_kstr(j, "result", wsel_gslb_result_name(ev->result));
        break;
    case WSEL_GSLB_EV_MEMBER_SELECTION:
    case WSEL_GSLB_EV_MEMBER_TRAVERSAL:
        wsel__jw_kstr(j, "pool", pool);
        wsel__jw_kstr(j, "step", step);
        wsel__jw_kstr(j, "method", method);
        if (ev->kind == WSEL_GSLB_EV_MEMBER_TRAVERSAL || ev->member >= 0)
            wsel__jw_kstr(j, "member", member);
        if (ev->kind == WSEL_GSLB_EV_MEMBER_TRAVERSAL) {
            wsel__jw_kstr(j, "result", wsel_gslb_result_name(ev->result));
        } else if (ev->member >= 0) {
            wsel__jw_kstr(j, "addr", wsel_gslb_addr_str(&ev->addr, a, sizeof a));
            kfmt(j, "n_answers", "%zu", ev->n_answers);
        }
        break;
    case WSEL_GSLB_EV_RESULT:
        wsel__jw_kstr(j, "outcome", wsel_gslb_outcome_name(ev->outcome));
        wsel__jw_kstr(j, "wideip", wideip);
        if (ev->pool >= 0) {
            wsel__jw_kstr(j, "pool", pool);
            wsel__jw_kstr(j, "step", step);
        }
        break;
    }
    wsel__jw_kstr(j, ev->kind == WSEL_GSLB_EV_RESULT ? "detail" : "reason", reason);
    reason_json(j, cfg, ev);
    wsel__jw_obj_end(j);
    if (reason != buf)
        free(reason);
    return 0;
}

/* ---- each query ---- */

/* "query N: OUTCOME ADDR,... pool P step S method M ttl T ...", then the log lines. 0,
 * or -1 when out of memory. */
static int query_text(const resolve_run *r, unsigned long long q)
{
    const wsel_gslb_config *cfg = r->cfg;
    const wsel_gslb_outcome *o = r->out;
    printf("query %llu: %s", q + 1, wsel_gslb_outcome_name(o->kind));
    for (size_t k = 0; k < o->n_addrs; k++) {
        char a[64];
        printf("%s%s", k ? "," : " ", wsel_gslb_addr_str(&o->addrs[k], a, sizeof a));
    }
    if (o->pool >= 0)
        cli_gslb_printf(stdout, " pool %s", cfg->pools[o->pool].name);
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
    fputc('\n', stdout);
    for (size_t k = 0; k < r->n_events; k++)
        if (event_text(cfg, &r->events[k]))
            return -1;
    return 0;
}

/* {"outcome", "addresses", "wideip", "type", "pool", "step", "method", "rcode", "soa_ttl", "ttl",
 * "reason", "log"}: the fields that apply. 0, or -1 when out of memory. */
static int query_json(wsel__jw *j, const resolve_run *r)
{
    const wsel_gslb_config *cfg = r->cfg;
    const wsel_gslb_outcome *o = r->out;
    wsel__jw_obj_begin(j);
    wsel__jw_kstr(j, "outcome", wsel_gslb_outcome_name(o->kind));
    wsel__jw_karr_begin(j, "addresses");
    for (size_t k = 0; k < o->n_addrs; k++) {
        char a[64];
        wsel__jw_str(j, wsel_gslb_addr_str(&o->addrs[k], a, sizeof a));
    }
    wsel__jw_arr_end(j);
    wsel__jw_kstr(j, "wideip", cfg->wideips[r->wideip].name);
    wsel__jw_kstr(j, "type", wsel_gslb_type_name(cfg->wideips[r->wideip].type));
    if (o->pool >= 0)
        wsel__jw_kstr(j, "pool", cfg->pools[o->pool].name);
    if (o->step != WSEL_GSLB_STEP_NONE)
        wsel__jw_kstr(j, "step", wsel_gslb_step_name(o->step));
    if (o->method >= 0)
        wsel__jw_kstr(j, "method", wsel_gslb_method_get((wsel_gslb_method)o->method)->token);
    if (o->kind == WSEL_GSLB_O_RCODE) {
        wsel__jw_kstr(j, "rcode", wsel_gslb_rcode_name(o->rcode));
        wsel__jw_ku64(j, "soa_ttl", o->soa_ttl);
    }
    if (o->kind == WSEL_GSLB_O_ANSWER || o->kind == WSEL_GSLB_O_FALLBACK_IP)
        wsel__jw_ku64(j, "ttl", o->ttl);
    if (o->reason)
        wsel__jw_kstr(j, "reason", o->reason);
    wsel__jw_karr_begin(j, "log");
    for (size_t k = 0; k < r->n_events; k++)
        if (event_json(j, cfg, &r->events[k]))
            return -1;
    wsel__jw_arr_end(j);
    wsel__jw_obj_end(j);
    return 0;
}

/* Runs the queries, each written as it is decided (j NULL: as text). 0, or the exit
 * status (message printed). */
static int run_queries(resolve_run *r, const resolve_args *a, wsel__jw *j)
{
    unsigned flags = a->logs ? a->log_flags : r->cfg->wideips[r->wideip].log_flags;
    wsel_gslb_log log = {.flags = flags | WSEL_GSLB_LOG_RESULT, .fn = collect, .ctx = r};
    wsel_error err;
    for (unsigned long long q = 0; q < a->n; q++) {
        r->n_events = 0;
        if (wsel_gslb_resolve(r->cfg, r->wideip, r->in, r->st, &log, r->out, &err)) {
            char ebuf[2048];
            return cli_fail(r->cmd, err.code, "query %llu: %s", q + 1,
                            wsel_error_format(&err, ebuf, sizeof ebuf));
        }
        if (r->events_nomem)
            return cli_nomem(r->cmd);
        count(r, r->out);
        if ((j ? query_json(j, r) : query_text(r, q)) < 0)
            return cli_nomem(r->cmd);
        if (ferror(stdout)) { /* no reader left (EPIPE), disk full...: stop here; */
            if (!cli_write_errno)   /* main reports it with its reason (exit 3) */
                cli_write_errno = errno ? errno : EIO;
            return CLI_OK;
        }
    }
    return 0;
}

/* ---- the summary ---- */

static int run_text(resolve_run *r, const resolve_args *a)
{
    int rc = run_queries(r, a, NULL);
    if (rc || ferror(stdout))
        return rc;
    printf("counts:");
    for (int k = 0; k < r->n_outcome_order; k++)
        printf(" %s %zu", wsel_gslb_outcome_name((wsel_gslb_outcome_kind)r->outcome_order[k]),
               r->outcomes[r->outcome_order[k]]);
    fputc('\n', stdout);
    for (size_t k = 0; k < r->n_slot_order; k++) {
        char addr[64];
        unsigned long long total;
        if (pick_total(r, k, addr, sizeof addr, &total))
            printf("  %s %llu\n", addr, total);
    }
    char *state = wsel_gslb_state_json(r->st);
    if (!state)
        return cli_nomem(r->cmd);
    printf("state: %s\n", state);
    wsel_free(state);
    return CLI_OK;
}

static void counts_json(wsel__jw *j, const resolve_run *r)
{
    wsel__jw_kobj_begin(j, "counts");
    wsel__jw_kobj_begin(j, "outcomes");
    for (int k = 0; k < r->n_outcome_order; k++)
        wsel__jw_ku64(j, wsel_gslb_outcome_name((wsel_gslb_outcome_kind)r->outcome_order[k]),
                      r->outcomes[r->outcome_order[k]]);
    wsel__jw_obj_end(j);
    wsel__jw_kobj_begin(j, "picks");
    for (size_t k = 0; k < r->n_slot_order; k++) {
        char addr[64];
        unsigned long long total;
        if (pick_total(r, k, addr, sizeof addr, &total))
            wsel__jw_ku64(j, addr, total);
    }
    wsel__jw_obj_end(j);
    wsel__jw_obj_end(j);
}

/* Every query of the run without output, on a state of its own: 0 when each succeeds,
 * else the exit status (message printed). */
static int dry_run(resolve_run *r, const resolve_args *a)
{
    wsel_gslb_state *st;
    wsel_error err;
    if (wsel_gslb_state_new(r->cfg, r->in, &st, &err))
        return cli_report(r->cmd, &err, CLI_ROLE_INPUT);
    int rc = 0;
    for (unsigned long long q = 0; !rc && q < a->n; q++)
        if (wsel_gslb_resolve(r->cfg, r->wideip, r->in, st, NULL, r->out, &err)) {
            char ebuf[2048];
            rc = cli_fail(r->cmd, err.code, "query %llu: %s", q + 1,
                          wsel_error_format(&err, ebuf, sizeof ebuf));
        }
    wsel_gslb_state_free(st);
    return rc;
}

/* The document is streamed: each query is written as it is decided and forgotten, so
 * memory does not grow with N (man wsel). A query can fail (a random word missing, no
 * memory): the whole run goes once without output first, so a failing run leaves stdout
 * empty, one line on stderr. The decision is deterministic (doc/gslb.md §4), so the
 * second run decides what the first did. */
static int run_json(resolve_run *r, const resolve_args *a)
{
    int rc = dry_run(r, a);
    if (rc)
        return rc;
    wsel__jw j;
    wsel__jw_init(&j, stdout);
    wsel__jw_obj_begin(&j);
    wsel__jw_karr_begin(&j, "queries");
    rc = run_queries(r, a, &j);
    if (!rc && ferror(stdout))
        return CLI_OK; /* main reports the write error (exit 3) */
    char *state = rc ? NULL : wsel_gslb_state_json(r->st);
    if (!rc && !state)
        rc = cli_nomem(r->cmd);
    if (rc) { /* out of memory only, after the dry run: exit 3, as documented */
        wsel_free(state);
        return rc;
    }
    wsel__jw_arr_end(&j);
    counts_json(&j, r);
    wsel__jw_key(&j, "state");
    wsel__jw_raw(&j, state);
    wsel__jw_obj_end(&j);
    cli_json_end(&j);
    wsel_free(state);
    return CLI_OK;
}

int cli_gslb_resolve(int argc, char **argv)
{
    const char *cmd = "gslb resolve";
    resolve_args a;
    int rc = resolve_args_read(cmd, argc, argv, &a);
    if (rc)
        return rc < 0 ? CLI_OK : rc;
    resolve_run r = {.cmd = cmd, .wideip = -1};
    rc = run_open(&r, &a);
    if (!rc)
        rc = a.json ? run_json(&r, &a) : run_text(&r, &a);
    run_close(&r);
    return rc;
}
