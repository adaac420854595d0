/* bin/wsel: the ring system's commands (doc/ring.md): run and show over a scenario (diff
 * in ring_diff.c). The library reads the scenario and runs it (include/wsel/ring.h);
 * these commands print what each step reports, as text or JSON. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ring_cli.h"

/* ---- shared: options, the scenario, output ---------------------------------------------- */

static int parse_engine(const char *cmd, int argc, char **argv, int *i, cli_ring_args *a)
{
    const char *v = cli_optval(cmd, argc, argv, i, "--engine");
    if (!v)
        return CLI_USAGE;
    if (strcmp(v, "ref") != 0 && strcmp(v, "fast") != 0)
        return cli_die(cmd, "unknown engine '%s' (expected ref or fast)", v);
    a->fast = strcmp(v, "fast") == 0;
    return CLI_OK;
}

/* CLI_OK, -1 after --help (usage printed), or the exit status of a bad command line. */
static int parse_args(const char *cmd, const char *usage, int argc, char **argv,
                      cli_ring_args *a)
{
    memset(a, 0, sizeof *a);
    bool opts_done = false;
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        int rc = CLI_OK;
        if (opts_done || s[0] != '-' || !s[1]) {
            if (a->scenario)
                return cli_die(cmd, "unexpected argument '%s' (see wsel %s --help)", s, cmd);
            a->scenario = s;
        } else if (strcmp(s, "--") == 0) {
            opts_done = true;
        } else if (strcmp(s, "-h") == 0 || strcmp(s, "--help") == 0) {
            fputs(usage, stdout);
            return -1;
        } else if (strcmp(s, "--json") == 0) {
            a->json = true;
        } else if (cli_opt_is(s, "--engine")) {
            rc = parse_engine(cmd, argc, argv, &i, a);
        } else {
            rc = cli_die(cmd, "unknown option '%s' (see wsel %s --help)", s, cmd);
        }
        if (rc)
            return rc;
    }
    if (!a->scenario)
        return cli_die(cmd, "missing SCENARIO (see wsel %s --help)", cmd);
    return CLI_OK;
}

int cli_ring_main(int argc, char **argv, const char *cmd, const char *usage,
                  int (*body)(const char *cmd, const cli_ring_args *a,
                              const wsel_ring_scenario *sc))
{
    cli_ring_args a;
    int rc = parse_args(cmd, usage, argc, argv, &a);
    if (rc)
        return rc < 0 ? CLI_OK : rc;
    wsel_ring_scenario *sc;
    wsel_error err;
    wsel_error_clear(&err);
    if (wsel_ring_scenario_load_file(a.scenario, &sc, &err) != WSEL_OK)
        return cli_report(cmd, &err, CLI_ROLE_CHECKED);
    rc = body(cmd, &a, sc);
    wsel_ring_scenario_free(sc);
    return rc;
}

int cli_ring_run(const char *cmd, const wsel_ring_scenario *sc, const wsel_ring_run_opts *ro,
                 wsel_ring_step_fn fn, void *ctx)
{
    wsel_error err;
    wsel_error_clear(&err);
    int rc = wsel_ring_scenario_run(sc, ro, fn, ctx, &err);
    if (rc == WSEL_OK)
        return CLI_OK;
    if (!err.code) /* a step function stopped the run: its output could not grow */
        return cli_nomem(cmd);
    return cli_report(cmd, &err, CLI_ROLE_CHECKED);
}

bool cli_ring_out_begin(cli_ring_out *o, bool json)
{
    memset(o, 0, sizeof *o);
    o->json = json;
    o->f = wsel__memout_open(&o->buf, &o->len);
    if (o->f && json)
        wsel__jw_init(&o->j, o->f);
    return o->f != NULL;
}

bool cli_ring_out_ok(const cli_ring_out *o)
{
    return !ferror(o->f) && !(o->json && o->j.err);
}

int cli_ring_out_end(const char *cmd, int rc, cli_ring_out *o)
{
    bool lost = o->json && rc == CLI_OK && wsel__jw_finish(&o->j) != 0;
    lost |= !wsel__memout_close(o->f, &o->buf, &o->len);
    if (rc == CLI_OK && lost)
        rc = cli_nomem(cmd);
    if (rc == CLI_OK) {
        /* main reports a failed write once, with this reason, after the command */
        errno = 0;
        if (fwrite(o->buf, 1, o->len, stdout) != o->len || fflush(stdout) != 0)
            cli_write_errno = errno ? errno : EIO;
    }
    free(o->buf);
    return rc;
}

const char *cli_ring_peer(const char *ip, unsigned port, char *buf, size_t len)
{
    if (strchr(ip, ':'))
        snprintf(buf, len, "[%s]:%u", ip, port);
    else
        snprintf(buf, len, "%s:%u", ip, port);
    return buf;
}

/* ---- snapshots ---------------------------------------------------------------------------- */

/* The owner of every slot, then every address. false when out of memory. */
static bool json_snapshot(wsel__jw *j, const wsel_ring *r)
{
    uint32_t n = wsel_ring_size(r);
    char pb[300];
    wsel__jw_karr_begin(j, "wheel");
    for (uint32_t k = 1; k <= n; k++) {
        long o = wsel_ring_owner(r, k);
        wsel_ring_address a;
        if (o < 0) {
            wsel__jw_null(j);
            continue;
        }
        wsel_ring_address_get(r, (size_t)o, &a);
        wsel__jw_str(j, cli_ring_peer(a.ip, a.port, pb, sizeof pb));
    }
    wsel__jw_arr_end(j);
    uint32_t *slots = malloc(((size_t)n + 1) * sizeof *slots);
    if (!slots)
        return false;
    wsel__jw_karr_begin(j, "addresses");
    for (size_t i = 0; i < wsel_ring_address_count(r); i++) {
        wsel_ring_address a;
        wsel_ring_address_get(r, i, &a);
        wsel__jw_obj_begin(j);
        wsel__jw_kstr(j, "address", cli_ring_peer(a.ip, a.port, pb, sizeof pb));
        snprintf(pb, sizeof pb, "%s:%u", a.host, a.host_port);
        wsel__jw_kstr(j, "host", pb);
        wsel__jw_ku64(j, "weight", a.weight);
        wsel__jw_kbool(j, "available", a.available);
        wsel__jw_karr_begin(j, "slots");
        wsel_ring_address_slots(r, i, slots);
        for (size_t k = 0; k < a.n_slots; k++)
            wsel__jw_u64(j, slots[k]);
        wsel__jw_arr_end(j);
        wsel__jw_obj_end(j);
    }
    free(slots);
    wsel__jw_arr_end(j);
    wsel__jw_kbool(j, "healthy", wsel_ring_healthy(r));
    wsel__jw_ku64(j, "weight", wsel_ring_weight(r));
    wsel__jw_ku64(j, "unavailableWeight", wsel_ring_unavailable_weight(r));
    return true;
}

static void text_snapshot(FILE *f, const wsel_ring *r)
{
    char pb[300], e[CLI_ESC_MAX], eh[CLI_ESC_MAX];
    fprintf(f, "  %u slots, weight %llu, unavailable %llu, %s\n", wsel_ring_size(r),
            (unsigned long long)wsel_ring_weight(r),
            (unsigned long long)wsel_ring_unavailable_weight(r),
            wsel_ring_healthy(r) ? "healthy" : "unhealthy");
    for (size_t i = 0; i < wsel_ring_address_count(r); i++) {
        wsel_ring_address a;
        wsel_ring_address_get(r, i, &a);
        fprintf(f, "  %-28s host %s:%u  weight %u  slots %zu%s\n",
                wsel__escape(cli_ring_peer(a.ip, a.port, pb, sizeof pb), e, sizeof e),
                wsel__escape(a.host, eh, sizeof eh), a.host_port, a.weight, a.n_slots,
                a.available ? "" : "  (unavailable)");
    }
}

/* ---- run ------------------------------------------------------------------------------------- */

static const char run_usage[] =
    "usage: wsel ring run SCENARIO [--engine ref|fast] [--json]\n"
    "Builds the ring a scenario file describes and applies its ops in order: host changes,\n"
    "DNS answers, availability, clock, snapshots and picks (see man wsel, RING SCENARIO).\n"
    "  --engine E     ref: the reference engine (default); fast: picks from the fast\n"
    "                 engine's published view, synced after every op (same results)\n"
    "  --json         {\"initial\": SNAPSHOT, \"results\": [one per op]}\n";

static bool has_picks(wsel_ring_op_kind k)
{
    return k == WSEL_RING_OP_PEERS || k == WSEL_RING_OP_RR || k == WSEL_RING_OP_RETRY;
}

/* The ring as built: "initial". */
static bool print_initial(cli_ring_out *o, const wsel_ring *r)
{
    if (!o->json) {
        fprintf(o->f, "initial\n");
        text_snapshot(o->f, r);
        return true;
    }
    wsel__jw_obj_begin(&o->j);
    wsel__jw_kobj_begin(&o->j, "initial");
    bool ok = json_snapshot(&o->j, r);
    wsel__jw_obj_end(&o->j);
    wsel__jw_karr_begin(&o->j, "results");
    return ok;
}

/* An op's result begins: its path and kind; "peers" or "picks" opened. */
static void print_begin(cli_ring_out *o, const wsel_ring_op *op)
{
    const char *kind = wsel_ring_op_kind_name(op->kind);
    if (o->json) {
        wsel__jw_obj_begin(&o->j);
        wsel__jw_kstr(&o->j, "op", kind);
        if (has_picks(op->kind))
            wsel__jw_karr_begin(&o->j, op->kind == WSEL_RING_OP_PEERS ? "peers" : "picks");
        return;
    }
    wsel__escape_put(o->f, op->path);
    fprintf(o->f, " %s", kind);
    if (has_picks(op->kind))
        fputc('\n', o->f);
}

static void print_pick(cli_ring_out *o, const wsel_ring_step *st)
{
    const wsel_ring_peer *p = st->peer;
    char pb[300], what[64], e[CLI_ESC_MAX];
    if (o->json && p->outcome == WSEL_RING_PEER) {
        wsel__jw_str(&o->j, cli_ring_peer(p->ip, p->port, pb, sizeof pb));
    } else if (o->json) {
        wsel__jw_obj_begin(&o->j);
        wsel__jw_kstr(&o->j, "error", wsel_ring_outcome_name(p->outcome));
        wsel__jw_obj_end(&o->j);
    }
    if (o->json)
        return;
    if (st->op->kind == WSEL_RING_OP_PEERS && st->op->hashes)
        snprintf(what, sizeof what, "hash %llu", (unsigned long long)st->handle->hash);
    else if (st->op->kind == WSEL_RING_OP_PEERS)
        snprintf(what, sizeof what, "float %g", st->handle->u);
    else
        snprintf(what, sizeof what, st->op->kind == WSEL_RING_OP_RR ? "pick %llu" : "retry %llu",
                 (unsigned long long)st->pick);
    fprintf(o->f, "  %s -> %s\n", what,
            p->outcome == WSEL_RING_PEER
                ? wsel__escape(cli_ring_peer(p->ip, p->port, pb, sizeof pb), e, sizeof e)
                : wsel_ring_outcome_name(p->outcome));
}

/* The rest of an op's text line, after "PATH KIND". */
static void text_end(FILE *f, const wsel_ring_step *st)
{
    const wsel_ring_op *op = st->op;
    char e[CLI_ESC_MAX];
    const char *name = op->name ? wsel__escape(op->name, e, sizeof e) : "";
    switch (op->kind) {
    case WSEL_RING_OP_ADD:
        fprintf(f, " %s:%u weight %u\n", name, op->port, op->weight);
        break;
    case WSEL_RING_OP_REMOVE:
        fprintf(f, " %s:%u%s\n", name, op->port, st->found ? "" : " (not present)");
        break;
    case WSEL_RING_OP_STATUS:
        fprintf(f, " %s:%u %s\n", wsel__escape(op->ip, e, sizeof e), op->port,
                op->available ? "up" : "down");
        break;
    case WSEL_RING_OP_HOSTSTATUS:
        fprintf(f, " %s:%u %s\n", name, op->port, op->available ? "up" : "down");
        break;
    case WSEL_RING_OP_DNS:
        fprintf(f, " %s\n", name);
        break;
    case WSEL_RING_OP_ADVANCE:
        fprintf(f, " to %g s\n", st->now);
        break;
    case WSEL_RING_OP_SNAPSHOT:
        fputc('\n', f);
        text_snapshot(f, st->ring);
        break;
    default:
        break;
    }
}

/* An op's result ends: what it adds (found, now, the snapshot), the object closed. */
static bool print_end(cli_ring_out *o, const wsel_ring_step *st)
{
    wsel__jw *j = &o->j;
    bool ok = true;
    if (!o->json) {
        text_end(o->f, st);
        return true;
    }
    if (has_picks(st->op->kind))
        wsel__jw_arr_end(j);
    else if (st->op->kind == WSEL_RING_OP_REMOVE)
        wsel__jw_kbool(j, "found", st->found);
    else if (st->op->kind == WSEL_RING_OP_ADVANCE)
        wsel__jw_knum(j, "now", st->now);
    else if (st->op->kind == WSEL_RING_OP_SNAPSHOT)
        ok = json_snapshot(j, st->ring);
    wsel__jw_obj_end(j);
    return ok;
}

/* A status op that named no address: its error, and the run goes on. */
static void print_status_error(cli_ring_out *o, const wsel_ring_step *st)
{
    if (o->json) {
        wsel__jw_kstr(&o->j, "error", st->error->message);
        wsel__jw_obj_end(&o->j);
        return;
    }
    char e[CLI_ESC_MAX], em[CLI_ESC_MAX];
    fprintf(o->f, " %s:%u %s -> error: %s\n", wsel__escape(st->op->ip, e, sizeof e),
            st->op->port, st->op->available ? "up" : "down",
            wsel__escape(st->error->message, em, sizeof em));
}

static int run_step(void *ctx, const wsel_ring_step *st)
{
    cli_ring_out *o = ctx;
    bool ok = true;
    switch (st->kind) {
    case WSEL_RING_STEP_BUILT:
        ok = print_initial(o, st->ring);
        break;
    case WSEL_RING_STEP_BEGIN:
        print_begin(o, st->op);
        break;
    case WSEL_RING_STEP_PICK:
        print_pick(o, st);
        break;
    case WSEL_RING_STEP_END:
        if (st->status == WSEL_OK)
            ok = print_end(o, st);
        else if (st->op->kind == WSEL_RING_OP_STATUS)
            print_status_error(o, st);
        break;
    case WSEL_RING_STEP_DONE:
        if (o->json) {
            wsel__jw_arr_end(&o->j);
            wsel__jw_obj_end(&o->j);
        }
        break;
    }
    return ok && cli_ring_out_ok(o) ? 0 : WSEL_E_NOMEM;
}

static int run_body(const char *cmd, const cli_ring_args *a, const wsel_ring_scenario *sc)
{
    cli_ring_out out;
    if (!cli_ring_out_begin(&out, a->json))
        return cli_nomem(cmd);
    wsel_ring_run_opts ro = {a->fast ? WSEL_RING_ENGINE_FAST : WSEL_RING_ENGINE_REF,
                             WSEL_RING_APPORTION_SCENARIO};
    int rc = cli_ring_run(cmd, sc, &ro, run_step, &out);
    return cli_ring_out_end(cmd, rc, &out);
}

static int cmd_run(int argc, char **argv)
{
    return cli_ring_main(argc, argv, "ring run", run_usage, run_body);
}

/* ---- show ------------------------------------------------------------------------------------ */

static const char show_usage[] =
    "usage: wsel ring show SCENARIO [--engine ref] [--json]\n"
    "The ring after the scenario's ops: per address its weight, slots, slot share against\n"
    "weight share and the deviation in slots; the largest deviation.\n";

/* One address's slots against its weight's share of the wheel. */
typedef struct share {
    wsel_ring_address ad;
    char peer[300], host[300];
    double slot_share, weight_share;
    double dev;                 /* in slots */
} share;

static void share_of(const wsel_ring *r, size_t i, share *s)
{
    uint32_t n = wsel_ring_size(r);
    double w = (double)wsel_ring_weight(r);
    wsel_ring_address_get(r, i, &s->ad);
    s->slot_share = (double)s->ad.n_slots / n;
    s->weight_share = w > 0 ? s->ad.weight / w : 0;
    s->dev = (double)s->ad.n_slots - (double)n * s->weight_share;
    cli_ring_peer(s->ad.ip, s->ad.port, s->peer, sizeof s->peer);
    snprintf(s->host, sizeof s->host, "%s:%u", s->ad.host, s->ad.host_port);
}

static void show_share(cli_ring_out *o, const share *s)
{
    wsel__jw *j = &o->j;
    if (o->json) {
        wsel__jw_obj_begin(j);
        wsel__jw_kstr(j, "address", s->peer);
        wsel__jw_kstr(j, "host", s->host);
        wsel__jw_ku64(j, "weight", s->ad.weight);
        wsel__jw_kbool(j, "available", s->ad.available);
        wsel__jw_ku64(j, "slots", s->ad.n_slots);
        wsel__jw_knum(j, "slotShare", s->slot_share);
        wsel__jw_knum(j, "weightShare", s->weight_share);
        wsel__jw_knum(j, "deviation", s->dev);
        wsel__jw_obj_end(j);
        return;
    }
    char e[CLI_ESC_MAX], eh[CLI_ESC_MAX];
    fprintf(o->f, "%-28s %-24s %7u %8zu %10.4f%% %11.4f%% %+10.3f\n",
            wsel__escape(s->peer, e, sizeof e), wsel__escape(s->host, eh, sizeof eh),
            s->ad.weight, s->ad.n_slots, 100 * s->slot_share, 100 * s->weight_share, s->dev);
}

/* The address farthest from its share (na > 0 addresses), or JSON null when none. */
static void show_largest(cli_ring_out *o, const share *worst, size_t na, uint32_t n)
{
    char e[CLI_ESC_MAX];
    if (!o->json) {
        if (na)
            fprintf(o->f, "largest deviation: %s, %+.3f slots (%+.4f%% of the wheel)\n",
                    wsel__escape(worst->peer, e, sizeof e), worst->dev, 100 * worst->dev / n);
        return;
    }
    wsel__jw *j = &o->j;
    wsel__jw_arr_end(j);
    wsel__jw_key(j, "largestDeviation");
    if (na == 0) {
        wsel__jw_null(j);
    } else {
        wsel__jw_obj_begin(j);
        wsel__jw_kstr(j, "address", worst->peer);
        wsel__jw_knum(j, "slots", worst->dev);
        wsel__jw_knum(j, "share", worst->dev / n);
        wsel__jw_obj_end(j);
    }
    wsel__jw_obj_end(j);
}

static void show_ring(cli_ring_out *o, const wsel_ring *r)
{
    uint32_t n = wsel_ring_size(r);
    double w = (double)wsel_ring_weight(r);
    size_t na = wsel_ring_address_count(r);
    if (o->json) {
        wsel__jw_obj_begin(&o->j);
        wsel__jw_ku64(&o->j, "wheelSize", n);
        wsel__jw_ku64(&o->j, "weight", (unsigned long long)w);
        wsel__jw_kbool(&o->j, "healthy", wsel_ring_healthy(r));
        wsel__jw_karr_begin(&o->j, "addresses");
    } else {
        fprintf(o->f, "%u slots, total weight %.0f, %s\n", n, w,
                wsel_ring_healthy(r) ? "healthy" : "unhealthy");
        fprintf(o->f, "%-28s %-24s %7s %8s %11s %12s %10s\n", "address", "host", "weight",
                "slots", "slot share", "weight share", "deviation");
    }
    share s, worst;
    memset(&worst, 0, sizeof worst);
    double most = -1;
    for (size_t i = 0; i < na; i++) {
        share_of(r, i, &s);
        if (fabs(s.dev) > most) {
            most = fabs(s.dev);
            worst = s;
        }
        show_share(o, &s);
    }
    show_largest(o, &worst, na, n);
}

static int show_step(void *ctx, const wsel_ring_step *st)
{
    cli_ring_out *o = ctx;
    if (st->kind == WSEL_RING_STEP_DONE)
        show_ring(o, st->ring);
    return cli_ring_out_ok(o) ? 0 : WSEL_E_NOMEM;
}

static int show_body(const char *cmd, const cli_ring_args *a, const wsel_ring_scenario *sc)
{
    cli_ring_out out;
    if (!cli_ring_out_begin(&out, a->json))
        return cli_nomem(cmd);
    int rc = cli_ring_run(cmd, sc, NULL, show_step, &out);
    return cli_ring_out_end(cmd, rc, &out);
}

static int cmd_show(int argc, char **argv)
{
    return cli_ring_main(argc, argv, "ring show", show_usage, show_body);
}

static int cmd_diff(int argc, char **argv)
{
    return cli_ring_main(argc, argv, "ring diff", cli_ring_diff_usage, cli_ring_diff_body);
}

static const cli_command commands[] = {
    {"run", cmd_run, "SCENARIO [--engine ref|fast] [--json]",
     "apply a scenario's ops to a ring, print each result"},
    {"show", cmd_show, "SCENARIO [--json]", "slots per address against weight shares"},
    {"diff", cmd_diff, "SCENARIO [--json]",
     "slots that move on each change, against the least possible; 5.2.3 and strict mode"},
};

CLI_SYSTEM(ring, 0,
           "lua-resty-dns-client's ring balancer (consistent hashing over a wheel of slots)");
