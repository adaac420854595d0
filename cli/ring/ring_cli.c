/* bin/wsel: the ring system's commands (doc/ring.md): run, show, diff over a scenario. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../cli.h"
#include "ring_scenario.h"

/* ---- shared: options, building, snapshots ------------------------------------------------ */

typedef struct ring_args {
    const char *scenario;
    int json;
    int fast; /* --engine fast */
} ring_args;

static int parse_args(const char *cmd, const char *usage, int argc, char **argv, ring_args *a)
{
    memset(a, 0, sizeof *a);
    int opts_done = 0;
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        if (!opts_done && s[0] == '-' && s[1]) {
            if (strcmp(s, "--") == 0) {
                opts_done = 1;
            } else if (strcmp(s, "-h") == 0 || strcmp(s, "--help") == 0) {
                fputs(usage, stdout);
                return -1;
            } else if (strcmp(s, "--json") == 0) {
                a->json = 1;
            } else if (cli_opt_is(s, "--engine")) {
                const char *v = cli_optval(cmd, argc, argv, &i, "--engine");
                if (!v)
                    return CLI_USAGE;
                if (strcmp(v, "ref") == 0 || strcmp(v, "fast") == 0) {
                    a->fast = strcmp(v, "fast") == 0;
                    continue;
                }
                return cli_die(cmd, "unknown engine '%s' (expected ref or fast)", v);
            } else {
                return cli_die(cmd, "unknown option '%s' (see wsel %s --help)", s, cmd + 5);
            }
        } else if (!a->scenario) {
            a->scenario = s;
        } else {
            return cli_die(cmd, "unexpected argument '%s' (see wsel %s --help)", s, cmd + 5);
        }
    }
    if (!a->scenario)
        return cli_die(cmd, "missing SCENARIO (see wsel %s --help)", cmd + 5);
    return 0;
}

/* What every command shares: its options, the scenario they name (loaded, then freed
 * whatever happens) and the exit status of `body`, which runs on them. */
static int ring_main(int argc, char **argv, const char *cmd, const char *usage,
                     int (*body)(const char *cmd, const ring_args *a, rs_scenario *sc))
{
    ring_args a;
    int rc = parse_args(cmd, usage, argc, argv, &a);
    if (rc)
        return rc < 0 ? CLI_OK : rc;
    rs_scenario sc;
    if ((rc = rs_load(cmd, a.scenario, &sc)) == CLI_OK)
        rc = body(cmd, &a, &sc);
    rs_free(&sc);
    return rc;
}

/* Builds the ring; prints the error with the scenario path of the fault. */
static int build(const char *file, rs_scenario *sc, wsel_ring **out)
{
    sc->opts.dns.resolve = rs_resolve;
    sc->opts.dns.toip = rs_toip;
    sc->opts.dns.ctx = sc;
    wsel_error err;
    wsel_error_clear(&err);
    int rc = wsel_ring_new(&sc->opts, out, &err);
    if (rc == WSEL_OK)
        return CLI_OK;
    char e[CLI_ESC_MAX], m[CLI_ESC_MAX];
    wsel__escape(err.message, m, sizeof m);
    if (err.key[0])
        fprintf(stderr, "%s: $.hosts: %s\n", wsel__escape(file, e, sizeof e), m);
    else
        fprintf(stderr, "%s: $%s%s: %s\n", wsel__escape(file, e, sizeof e),
                err.path[0] ? "." : "", err.path, m);
    return rc == WSEL_E_NOMEM ? CLI_RESOURCE : CLI_INVALID;
}

/* "a.b.c.d:port", "[v6]:port" or "name:port" */
static const char *fmt_peer(const char *ip, unsigned port, char *buf, size_t len)
{
    if (strchr(ip, ':'))
        snprintf(buf, len, "[%s]:%u", ip, port);
    else
        snprintf(buf, len, "%s:%u", ip, port);
    return buf;
}

/* One address of a snapshot. */
typedef struct snap_addr {
    char *label;       /* "ip:port" */
    char *key;         /* identity: host name, host port, address, occurrence */
    char *host;        /* "name:port" of the owning host */
    uint32_t weight;
    size_t slots;
    bool available;
} snap_addr;

typedef struct snap {
    uint32_t n;
    size_t na;
    snap_addr *addr;   /* [na] */
    long *owner;       /* [1..n] */
} snap;

static void snap_free(snap *s)
{
    for (size_t i = 0; s->addr && i < s->na; i++) {
        free(s->addr[i].label);
        free(s->addr[i].key);
        free(s->addr[i].host);
    }
    free(s->addr);
    free(s->owner);
    memset(s, 0, sizeof *s);
}

static char *dup(const char *s)
{
    char *d = malloc(strlen(s) + 1);
    if (d)
        strcpy(d, s);
    return d;
}

static int snap_take(const wsel_ring *r, snap *s)
{
    memset(s, 0, sizeof *s);
    s->n = wsel_ring_size(r);
    s->na = wsel_ring_address_count(r);
    s->addr = calloc(s->na ? s->na : 1, sizeof *s->addr);
    s->owner = calloc((size_t)s->n + 1, sizeof *s->owner);
    if (!s->addr || !s->owner)
        return -1;
    for (size_t i = 0; i < s->na; i++) {
        wsel_ring_address a;
        wsel_ring_address_get(r, i, &a);
        char buf[600], pb[300];
        s->addr[i].label = dup(fmt_peer(a.ip, a.port, pb, sizeof pb));
        snprintf(buf, sizeof buf, "%s:%u", a.host, a.host_port);
        s->addr[i].host = dup(buf);
        if (!s->addr[i].label || !s->addr[i].host)
            return -1;
        unsigned occ = 0;
        for (size_t k = 0; k < i; k++)
            occ += strcmp(s->addr[k].host, s->addr[i].host) == 0 &&
                   strcmp(s->addr[k].label, s->addr[i].label) == 0;
        snprintf(buf, sizeof buf, "%s:%u|%s#%u", a.host, a.host_port, s->addr[i].label, occ);
        s->addr[i].key = dup(buf);
        if (!s->addr[i].key)
            return -1;
        s->addr[i].weight = a.weight;
        s->addr[i].slots = a.n_slots;
        s->addr[i].available = a.available;
    }
    for (uint32_t k = 1; k <= s->n; k++)
        s->owner[k] = wsel_ring_owner(r, k);
    return 0;
}

/* -1 when out of memory (the document is then incomplete). */
static int json_snapshot(wsel__jw *j, const wsel_ring *r)
{
    uint32_t n = wsel_ring_size(r);
    wsel__jw_karr_begin(j, "wheel");
    char pb[300];
    size_t na = wsel_ring_address_count(r);
    for (uint32_t k = 1; k <= n; k++) {
        long o = wsel_ring_owner(r, k);
        if (o < 0) {
            wsel__jw_null(j);
            continue;
        }
        wsel_ring_address a;
        wsel_ring_address_get(r, (size_t)o, &a);
        wsel__jw_str(j, fmt_peer(a.ip, a.port, pb, sizeof pb));
    }
    wsel__jw_arr_end(j);
    wsel__jw_karr_begin(j, "addresses");
    uint32_t *slots = malloc(((size_t)n + 1) * sizeof *slots);
    if (!slots)
        return -1;
    for (size_t i = 0; i < na; i++) {
        wsel_ring_address a;
        wsel_ring_address_get(r, i, &a);
        wsel__jw_obj_begin(j);
        wsel__jw_kstr(j, "address", fmt_peer(a.ip, a.port, pb, sizeof pb));
        wsel__jw_key(j, "host");
        snprintf(pb, sizeof pb, "%s:%u", a.host, a.host_port);
        wsel__jw_str(j, pb);
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
    return 0;
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
                wsel__escape(fmt_peer(a.ip, a.port, pb, sizeof pb), e, sizeof e),
                wsel__escape(a.host, eh, sizeof eh), a.host_port, a.weight, a.n_slots,
                a.available ? "" : "  (unavailable)");
    }
}

/* run and diff write their output to a buffer, so that an error leaves stdout empty. */
typedef struct outbuf {
    char *buf;
    size_t len;
    FILE *f;
} outbuf;

static bool begin_output(outbuf *o)
{
    o->buf = NULL;
    o->len = 0;
    o->f = open_memstream(&o->buf, &o->len);
    return o->f != NULL;
}

/* Closes the JSON document's results array and object when j is given, then the buffer;
 * its text goes to stdout only when rc is CLI_OK and the buffer holds all of it. Returns
 * rc, or CLI_RESOURCE when the buffer could not grow. */
static int end_output(const char *cmd, int rc, wsel__jw *j, outbuf *o)
{
    if (j) {
        wsel__jw_arr_end(j);
        wsel__jw_obj_end(j);
        cli_json_end(j);
    }
    bool lost = fflush(o->f) != 0 || ferror(o->f);
    /* glibc's fclose shrinks the buffer with realloc and leaves NULL when that fails */
    lost |= fclose(o->f) != 0 || !o->buf;
    if (rc == CLI_OK && lost)
        rc = cli_nomem(cmd);
    if (rc == CLI_OK)
        fwrite(o->buf, 1, o->len, stdout);
    free(o->buf);
    return rc;
}

/* ---- applying one op ------------------------------------------------------------------------- */

typedef struct runner {
    const char *file;
    rs_scenario *sc;
    wsel_ring *r;
    wsel_ring_fast *f; /* --engine fast: picks go through it, synced after every change */
    double now;
    wsel__jw *j;   /* results written here when non-NULL */
    FILE *text;    /* or as text here when non-NULL */
} runner;

static void out_pick(runner *ru, const wsel_ring_peer *p, const char *what)
{
    char pb[300];
    if (ru->j) {
        if (p->outcome == WSEL_RING_PEER) {
            wsel__jw_str(ru->j, fmt_peer(p->ip, p->port, pb, sizeof pb));
        } else {
            wsel__jw_obj_begin(ru->j);
            wsel__jw_kstr(ru->j, "error", wsel_ring_outcome_name(p->outcome));
            wsel__jw_obj_end(ru->j);
        }
    }
    char e[CLI_ESC_MAX];
    if (ru->text)
        fprintf(ru->text, "  %s -> %s\n", what,
                p->outcome == WSEL_RING_PEER
                    ? wsel__escape(fmt_peer(p->ip, p->port, pb, sizeof pb), e, sizeof e)
                    : wsel_ring_outcome_name(p->outcome));
}

static int op_fail(runner *ru, const rs_op *op, int code, const wsel_error *err)
{
    char e[CLI_ESC_MAX];
    fprintf(stderr, "%s: ", wsel__escape(ru->file, e, sizeof e));
    fprintf(stderr, "%s: ", wsel__escape(op->path, e, sizeof e));
    fprintf(stderr, "%s\n", wsel__escape(err->message, e, sizeof e));
    return code == WSEL_E_NOMEM ? CLI_RESOURCE : CLI_INVALID;
}

/* A pick (retry: count one retry first) by the engine chosen. */
static int pick(runner *ru, wsel_ring_handle *h, bool retry, wsel_ring_peer *p, wsel_error *err)
{
    if (!ru->f)
        return (retry ? wsel_ring_retry : wsel_ring_pick)(ru->r, h, false, p, err);
    if (retry)
        h->retries++;
    return wsel_ring_fast_pick_refresh(ru->f, h, false, p, err);
}

static const char *const op_names[] = {"add", "remove", "status", "hoststatus", "dns",
                                       "advance", "snapshot", "peers", "rr", "retry"};

static int apply(runner *ru, rs_op *op)
{
    wsel_error err;
    wsel_error_clear(&err);
    wsel__jw *j = ru->j;
    int rc = WSEL_OK;
    bool found = false;
    char e[CLI_ESC_MAX];
    const char *name = op->name ? wsel__escape(op->name, e, sizeof e) : "";
    if (j) {
        wsel__jw_obj_begin(j);
        wsel__jw_kstr(j, "op", op_names[op->kind]);
    }
    if (ru->text)
        wsel__escape_put(ru->text, op->path);
    if (ru->text)
        fprintf(ru->text, " %s", op_names[op->kind]);
    switch (op->kind) {
    case RS_ADD:
        rc = wsel_ring_add_host(ru->r, op->name, op->port, op->weight, &err);
        if (ru->text)
            fprintf(ru->text, " %s:%u weight %u\n", name, op->port, op->weight);
        break;
    case RS_REMOVE:
        rc = wsel_ring_remove_host(ru->r, op->name, op->port, &found, &err);
        if (j) {
            wsel__jw_kbool(j, "found", found);
        }
        if (ru->text)
            fprintf(ru->text, " %s:%u%s\n", name, op->port, found ? "" : " (not present)");
        break;
    case RS_STATUS:
        rc = wsel_ring_set_address_status(ru->r, op->ip, op->port, op->hostname, op->available,
                                          &err);
        if (ru->text)
            fprintf(ru->text, " %s:%u %s\n", wsel__escape(op->ip, e, sizeof e), op->port,
                    op->available ? "up" : "down");
        break;
    case RS_HOSTSTATUS:
        rc = wsel_ring_set_host_status(ru->r, op->name, op->port, op->available, &err);
        if (ru->text)
            fprintf(ru->text, " %s:%u %s\n", name, op->port, op->available ? "up" : "down");
        break;
    case RS_DNS:
        if (rs_set_name(ru->sc, &op->dns)) {
            wsel_error_clear(&err);
            snprintf(err.message, sizeof err.message, "out of memory");
            rc = WSEL_E_NOMEM;
        } else {
            rc = wsel_ring_refresh(ru->r, op->name, &err);
        }
        if (ru->text)
            fprintf(ru->text, " %s\n", name);
        break;
    case RS_ADVANCE:
        ru->now += op->seconds;
        rc = wsel_ring_tick(ru->r, ru->now, &err);
        if (j) {
            wsel__jw_knum(j, "now", ru->now);
        }
        if (ru->text)
            fprintf(ru->text, " to %g s\n", ru->now);
        break;
    case RS_SNAPSHOT:
        if (j && json_snapshot(j, ru->r)) {
            snprintf(err.message, sizeof err.message, "out of memory");
            rc = WSEL_E_NOMEM;
        }
        if (ru->text) {
            fputc('\n', ru->text);
            text_snapshot(ru->text, ru->r);
        }
        break;
    case RS_PEERS:
        if (j) {
            wsel__jw_karr_begin(j, "peers");
        }
        if (ru->text)
            fputc('\n', ru->text);
        for (size_t i = 0; i < op->n_keys && rc == WSEL_OK; i++) {
            wsel_ring_handle h = {.mode = op->hashes ? WSEL_RING_HASH : WSEL_RING_FLOAT};
            char what[64];
            if (op->hashes) {
                h.hash = op->hashes[i];
                snprintf(what, sizeof what, "hash %llu", (unsigned long long)h.hash);
            } else {
                h.u = op->floats[i];
                snprintf(what, sizeof what, "float %g", h.u);
            }
            wsel_ring_peer p;
            rc = pick(ru, &h, false, &p, &err);
            if (rc == WSEL_OK)
                out_pick(ru, &p, what);
        }
        if (j)
            wsel__jw_arr_end(j);
        break;
    case RS_RR:
    case RS_RETRY:
        if (j) {
            wsel__jw_karr_begin(j, "picks");
        }
        if (ru->text)
            fputc('\n', ru->text);
        {
            wsel_ring_handle h = {.mode = op->kind == RS_RR ? WSEL_RING_RR : WSEL_RING_HASH,
                                  .hash = op->hash};
            uint64_t total = op->kind == RS_RR ? op->count : op->count + 1;
            for (uint64_t i = 0; i < total && rc == WSEL_OK; i++) {
                wsel_ring_peer p;
                if (op->kind != RS_RETRY || i == 0)
                    h.retries = 0;
                rc = pick(ru, &h, op->kind == RS_RETRY && i > 0, &p, &err);
                char what[64];
                snprintf(what, sizeof what, op->kind == RS_RR ? "pick %llu" : "retry %llu",
                         (unsigned long long)i);
                if (rc == WSEL_OK)
                    out_pick(ru, &p, what);
            }
        }
        if (j)
            wsel__jw_arr_end(j);
        break;
    }
    if (j)
        wsel__jw_obj_end(j);
    if (rc == WSEL_OK && ru->f)
        rc = wsel_ring_fast_sync(ru->f, &err);
    if (rc != WSEL_OK)
        return op_fail(ru, op, rc, &err);
    return CLI_OK;
}

/* ---- run ------------------------------------------------------------------------------------- */

static const char run_usage[] =
    "usage: wsel ring run SCENARIO [--engine ref|fast] [--json]\n"
    "Builds the ring a scenario file describes and applies its ops in order: host changes,\n"
    "DNS answers, availability, clock, snapshots and picks (see man wsel, RING SCENARIO).\n"
    "  --engine E     ref: the reference engine (default); fast: picks from the fast\n"
    "                 engine's published view, synced after every op (same results)\n"
    "  --json         {\"initial\": SNAPSHOT, \"results\": [one per op]}\n";

static int run_body(const char *cmd, const ring_args *a, rs_scenario *sc)
{
    int rc;
    wsel_ring *r = NULL;
    if ((rc = build(a->scenario, sc, &r)) != CLI_OK)
        return rc;
    outbuf out;
    if (!begin_output(&out)) {
        wsel_ring_free(r);
        return cli_nomem(cmd);
    }
    wsel__jw j;
    runner ru = {a->scenario, sc, r, NULL, sc->opts.now, NULL, NULL};
    wsel_error ferr;
    if (a->fast && (rc = wsel_ring_fast_new(r, &ru.f, &ferr)) != WSEL_OK) {
        end_output(cmd, CLI_RESOURCE, NULL, &out);
        wsel_ring_free(r);
        return cli_fail(cmd, rc, "%s", ferr.message);
    }
    if (a->json) {
        wsel__jw_init(&j, out.f);
        ru.j = &j;
        wsel__jw_obj_begin(&j);
        wsel__jw_kobj_begin(&j, "initial");
        if (json_snapshot(&j, r))
            rc = cli_nomem(cmd);
        wsel__jw_obj_end(&j);
        wsel__jw_karr_begin(&j, "results");
    } else {
        ru.text = out.f;
        fprintf(out.f, "initial\n");
        text_snapshot(out.f, r);
    }
    for (size_t i = 0; i < sc->n_ops && rc == CLI_OK; i++)
        rc = apply(&ru, &sc->ops[i]);
    rc = end_output(cmd, rc, a->json ? &j : NULL, &out);
    wsel_ring_fast_free(ru.f);
    wsel_ring_free(r);
    return rc;
}

static int cmd_run(int argc, char **argv)
{
    return ring_main(argc, argv, "ring run", run_usage, run_body);
}

/* ---- show ------------------------------------------------------------------------------------ */

static const char show_usage[] =
    "usage: wsel ring show SCENARIO [--engine ref] [--json]\n"
    "The ring after the scenario's ops: per address its weight, slots, slot share against\n"
    "weight share and the deviation in slots; the largest deviation.\n";

static int run_all(const char *cmd, const char *file, rs_scenario *sc, wsel_ring **out,
                   int (*each)(void *ctx, const rs_op *op, const wsel_ring *r, const snap *before),
                   void *ctx)
{
    int rc = build(file, sc, out);
    if (rc)
        return rc;
    runner ru = {file, sc, *out, NULL, sc->opts.now, NULL, NULL};
    for (size_t i = 0; i < sc->n_ops; i++) {
        snap before;
        if (each && snap_take(*out, &before)) {
            snap_free(&before);
            return cli_nomem(cmd);
        }
        rc = apply(&ru, &sc->ops[i]);
        if (rc == CLI_OK && each)
            rc = each(ctx, &sc->ops[i], *out, &before);
        if (each)
            snap_free(&before);
        if (rc)
            return rc;
    }
    return CLI_OK;
}

static int show_body(const char *cmd, const ring_args *a, rs_scenario *sc)
{
    int rc;
    wsel_ring *r = NULL;
    if ((rc = run_all(cmd, a->scenario, sc, &r, NULL, NULL)) != CLI_OK) {
        wsel_ring_free(r);
        return rc;
    }
    uint32_t n = wsel_ring_size(r);
    double W = (double)wsel_ring_weight(r);
    size_t na = wsel_ring_address_count(r);
    wsel__jw j;
    wsel__jw_init(&j, stdout);
    if (a->json) {
        wsel__jw_obj_begin(&j);
        wsel__jw_ku64(&j, "wheelSize", n);
        wsel__jw_ku64(&j, "weight", (unsigned long long)W);
        wsel__jw_kbool(&j, "healthy", wsel_ring_healthy(r));
        wsel__jw_karr_begin(&j, "addresses");
    } else {
        printf("%u slots, total weight %.0f, %s\n", n, W, wsel_ring_healthy(r) ? "healthy" : "unhealthy");
        printf("%-28s %-24s %7s %8s %11s %12s %10s\n", "address", "host", "weight", "slots",
               "slot share", "weight share", "deviation");
    }
    double worst = -1, worst_dev = 0;
    size_t worst_i = 0;
    char pb[300], hb[300];
    for (size_t i = 0; i < na; i++) {
        wsel_ring_address ad;
        wsel_ring_address_get(r, i, &ad);
        double ss = (double)ad.n_slots / n, ws = W > 0 ? ad.weight / W : 0;
        double dev = (double)ad.n_slots - (double)n * ws; /* in slots */
        if (fabs(dev) > worst) {
            worst = fabs(dev);
            worst_dev = dev;
            worst_i = i;
        }
        fmt_peer(ad.ip, ad.port, pb, sizeof pb);
        snprintf(hb, sizeof hb, "%s:%u", ad.host, ad.host_port);
        if (a->json) {
            wsel__jw_obj_begin(&j);
            wsel__jw_kstr(&j, "address", pb);
            wsel__jw_kstr(&j, "host", hb);
            wsel__jw_ku64(&j, "weight", ad.weight);
            wsel__jw_kbool(&j, "available", ad.available);
            wsel__jw_ku64(&j, "slots", ad.n_slots);
            wsel__jw_knum(&j, "slotShare", ss);
            wsel__jw_knum(&j, "weightShare", ws);
            wsel__jw_knum(&j, "deviation", dev);
            wsel__jw_obj_end(&j);
        } else {
            char e[CLI_ESC_MAX], eh[CLI_ESC_MAX];
            printf("%-28s %-24s %7u %8zu %10.4f%% %11.4f%% %+10.3f\n", wsel__escape(pb, e, sizeof e),
                   wsel__escape(hb, eh, sizeof eh), ad.weight,
                   ad.n_slots, 100 * ss, 100 * ws, dev);
        }
    }
    if (a->json) {
        wsel__jw_arr_end(&j);
        wsel__jw_key(&j, "largestDeviation");
        if (na == 0) {
            wsel__jw_null(&j);
        } else {
            wsel_ring_address ad;
            wsel_ring_address_get(r, worst_i, &ad);
            wsel__jw_obj_begin(&j);
            wsel__jw_kstr(&j, "address", fmt_peer(ad.ip, ad.port, pb, sizeof pb));
            wsel__jw_knum(&j, "slots", worst_dev);
            wsel__jw_knum(&j, "share", worst_dev / n);
            wsel__jw_obj_end(&j);
        }
        wsel__jw_obj_end(&j);
        cli_json_end(&j);
    } else if (na) {
        wsel_ring_address ad;
        wsel_ring_address_get(r, worst_i, &ad);
        char e[CLI_ESC_MAX];
        printf("largest deviation: %s, %+.3f slots (%+.4f%% of the wheel)\n",
               wsel__escape(fmt_peer(ad.ip, ad.port, pb, sizeof pb), e, sizeof e), worst_dev,
               100 * worst_dev / n);
    }
    wsel_ring_free(r);
    return CLI_OK;
}

static int cmd_show(int argc, char **argv)
{
    return ring_main(argc, argv, "ring show", show_usage, show_body);
}

/* ---- diff ------------------------------------------------------------------------------------ */

static const char diff_usage[] =
    "usage: wsel ring diff SCENARIO [--engine ref] [--json]\n"
    "For each change op (add, remove, dns, advance): the slots that changed owner, the share\n"
    "of keys that move, the smallest share any assignment with the same counts for the\n"
    "addresses the change touched could move, and the slots that moved between addresses the\n"
    "change did not touch (the seed promises none; 5.2.3 sometimes moves one), and the\n"
    "largest distance of a count from its exact quota N w / W. Each change is shown twice:\n"
    "with 5.2.3's apportionment (the scenario's \"strict\" key is ignored) and, on a line\n"
    "\"strict:\" (JSON: \"strict\"), with the strict one (doc/ring.md section 8).\n";

/* One change's figures in one mode. */
typedef struct diffres {
    unsigned long long moved, minimal, untouched;
    double max_dev; /* largest |count - N w / W| after the change (0 when W = 0) */
} diffres;

typedef struct diffctx {
    wsel__jw *j;
    int json;
    FILE *f;
    const rs_op *ops;   /* the scenario's ops (op index = op - ops) */
    diffres *strict;    /* collecting: the strict pass writes here; printing: reads */
    bool collect;
} diffctx;

static long find_key(const snap *s, const char *key)
{
    for (size_t i = 0; i < s->na; i++)
        if (strcmp(s->addr[i].key, key) == 0)
            return (long)i;
    return -1;
}

/* An address is touched by an op when it belongs to the host the op names (add, remove: by
 * name and port; dns: by name), or exists on one side only. */
static bool touched(const rs_op *op, const snap *s, size_t i, const snap *other)
{
    if (find_key(other, s->addr[i].key) < 0)
        return true;
    char hb[300];
    if (op->kind == RS_ADD || op->kind == RS_REMOVE) {
        snprintf(hb, sizeof hb, "%s:%u", op->name, op->port);
        return strcmp(s->addr[i].host, hb) == 0;
    }
    if (op->kind == RS_DNS) {
        size_t n = strlen(op->name);
        return strncmp(s->addr[i].host, op->name, n) == 0 && s->addr[i].host[n] == ':' &&
               !strchr(s->addr[i].host + n + 1, ':');
    }
    return false;
}

static double max_quota_dev(const snap *a)
{
    double W = 0, worst = 0;
    for (size_t i = 0; i < a->na; i++)
        W += a->addr[i].weight;
    for (size_t i = 0; W > 0 && i < a->na; i++) {
        double d = fabs((double)a->addr[i].slots - (double)a->n * a->addr[i].weight / W);
        worst = d > worst ? d : worst;
    }
    return worst;
}

static void json_figures(wsel__jw *j, const diffres *d, uint32_t n)
{
    wsel__jw_ku64(j, "moved", d->moved);
    wsel__jw_knum(j, "movedShare", (double)d->moved / n);
    wsel__jw_ku64(j, "minimalMoved", d->minimal);
    wsel__jw_knum(j, "minimalShare", (double)d->minimal / n);
    wsel__jw_ku64(j, "untouchedMoves", d->untouched);
    wsel__jw_knum(j, "maxQuotaDeviation", d->max_dev);
}

static void text_figures(FILE *f, const char *mode, const diffres *d, uint32_t n)
{
    fprintf(f, "  %s%llu slots changed owner (%.4f%% of keys); smallest possible %llu (%.4f%%); "
               "%llu between untouched addresses; largest quota deviation %.3f slots\n",
            mode, d->moved, 100.0 * (double)d->moved / n, d->minimal,
            100.0 * (double)d->minimal / n, d->untouched, d->max_dev);
}

static int diff_each(void *vctx, const rs_op *op, const wsel_ring *r, const snap *b)
{
    diffctx *c = vctx;
    if (op->kind != RS_ADD && op->kind != RS_REMOVE && op->kind != RS_DNS && op->kind != RS_ADVANCE)
        return CLI_OK;
    snap a;
    if (snap_take(r, &a)) {
        snap_free(&a);
        return cli_nomem("ring diff");
    }
    uint32_t n = a.n;
    /* per address (identity key): touched or not, count before and after */
    unsigned long long gains = 0, losses = 0;
    diffres d = {0, 0, 0, max_quota_dev(&a)};
    for (size_t i = 0; i < a.na; i++)
        if (touched(op, &a, i, b)) {
            long k = find_key(b, a.addr[i].key);
            size_t old = k < 0 ? 0 : b->addr[k].slots;
            if (a.addr[i].slots > old)
                gains += a.addr[i].slots - old;
            else
                losses += old - a.addr[i].slots;
        }
    for (size_t k = 0; k < b->na; k++)
        if (find_key(&a, b->addr[k].key) < 0)
            losses += b->addr[k].slots;
    d.minimal = gains > losses ? gains : losses;
    wsel__jw *j = c->j;
    bool print = !c->collect;
    if (print && c->json) {
        wsel__jw_obj_begin(j);
        wsel__jw_kstr(j, "op", op->path);
        wsel__jw_kstr(j, "kind", op_names[op->kind]);
        wsel__jw_karr_begin(j, "slots");
    } else if (print) {
        wsel__escape_put(c->f, op->path);
        fprintf(c->f, " %s", op_names[op->kind]);
        if (op->name) {
            fputc(' ', c->f);
            wsel__escape_put(c->f, op->name);
        }
        if (op->kind == RS_ADD || op->kind == RS_REMOVE)
            fprintf(c->f, ":%u", op->port);
        fprintf(c->f, "\n");
    }
    for (uint32_t s = 1; s <= n; s++) {
        const char *from = b->owner[s] < 0 ? NULL : b->addr[b->owner[s]].key;
        const char *to = a.owner[s] < 0 ? NULL : a.addr[a.owner[s]].key;
        if ((from == NULL && to == NULL) || (from && to && strcmp(from, to) == 0))
            continue;
        d.moved++;
        bool between_untouched = false;
        if (from && to) {
            long ka = a.owner[s], kb = b->owner[s];
            between_untouched = !touched(op, &a, (size_t)ka, b) && !touched(op, b, (size_t)kb, &a);
        }
        d.untouched += between_untouched;
        if (!print)
            continue;
        const char *fl = from ? b->addr[b->owner[s]].label : NULL;
        const char *tl = to ? a.addr[a.owner[s]].label : NULL;
        if (c->json) {
            wsel__jw_obj_begin(j);
            wsel__jw_ku64(j, "slot", s);
            wsel__jw_key(j, "from");
            fl ? wsel__jw_str(j, fl) : wsel__jw_null(j);
            wsel__jw_key(j, "to");
            tl ? wsel__jw_str(j, tl) : wsel__jw_null(j);
            wsel__jw_kbool(j, "untouched", between_untouched);
            wsel__jw_obj_end(j);
        } else if (between_untouched) {
            char ef[CLI_ESC_MAX], et[CLI_ESC_MAX];
            fprintf(c->f, "  slot %u moved between untouched addresses: %s -> %s\n", s,
                    wsel__escape(fl, ef, sizeof ef), wsel__escape(tl, et, sizeof et));
        }
    }
    const diffres *st = &c->strict[op - c->ops];
    if (c->collect) {
        c->strict[op - c->ops] = d;
    } else if (c->json) {
        wsel__jw_arr_end(j);
        json_figures(j, &d, n);
        wsel__jw_kobj_begin(j, "strict");
        json_figures(j, st, n);
        wsel__jw_obj_end(j);
        wsel__jw_obj_end(j);
    } else {
        text_figures(c->f, "", &d, n);
        text_figures(c->f, "strict: ", st, n);
    }
    snap_free(&a);
    return CLI_OK;
}

static int diff_body(const char *cmd, const ring_args *a, rs_scenario *sc)
{
    int rc;
    wsel_ring *r = NULL;
    outbuf out;
    if (!begin_output(&out))
        return cli_nomem(cmd);
    wsel__jw j;
    wsel__jw_init(&j, out.f);
    diffctx c = {&j, a->json, out.f, sc->ops, calloc(sc->n_ops + 1, sizeof(diffres)), true};
    /* the strict pass first, on a fresh copy of the scenario (its DNS data changes) */
    rs_scenario sc2;
    wsel_ring *r2 = NULL;
    if (!c.strict)
        rc = cli_nomem(cmd);
    else if ((rc = rs_load(cmd, a->scenario, &sc2)) == CLI_OK) {
        sc2.opts.strict = true;
        c.ops = sc2.ops;
        rc = run_all(cmd, a->scenario, &sc2, &r2, diff_each, &c);
        wsel_ring_free(r2);
    }
    if (c.strict)
        rs_free(&sc2); /* loaded, or what a failed load left */
    sc->opts.strict = false;
    c.ops = sc->ops;
    c.collect = false;
    if (rc == CLI_OK && a->json) {
        wsel__jw_obj_begin(&j);
        wsel__jw_karr_begin(&j, "changes");
    }
    if (rc == CLI_OK)
        rc = run_all(cmd, a->scenario, sc, &r, diff_each, &c);
    rc = end_output(cmd, rc, rc == CLI_OK && a->json ? &j : NULL, &out);
    free(c.strict);
    wsel_ring_free(r);
    return rc;
}

static int cmd_diff(int argc, char **argv)
{
    return ring_main(argc, argv, "ring diff", diff_usage, diff_body);
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
