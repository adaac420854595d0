/* bin/wsel ring diff (doc/ring.md, decisions 12 and 16): the slots each change op moves,
 * against the fewest it could, with 5.2.3's apportionment and with strict mode. The
 * scenario runs twice: strict first, collecting its figures, then 5.2.3's, printing
 * both. Around every change op the ring is read into a snapshot before and after. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ring_cli.h"

const char cli_ring_diff_usage[] =
    "usage: wsel ring diff SCENARIO [--engine ref] [--json]\n"
    "For each change op (add, remove, dns, advance): the slots that changed owner, the share\n"
    "of keys that move, the smallest share any assignment with the same counts for the\n"
    "addresses the change touched could move, and the slots that moved between addresses the\n"
    "change did not touch (the seed promises none; 5.2.3 sometimes moves one), and the\n"
    "largest distance of a count from its exact quota N w / W. Each change is shown twice:\n"
    "with 5.2.3's apportionment (the scenario's \"strict\" key is ignored) and, on a line\n"
    "\"strict:\" (JSON: \"strict\"), with the strict one (doc/ring.md section 8).\n";

/* ---- snapshots: who owns what, by identity ------------------------------------------------ */

/* One address of a snapshot. */
typedef struct snap_addr {
    char *label;       /* "ip:port" */
    char *key;         /* identity: host name, host port, address, occurrence */
    char *host;        /* "name:port" of the owning host */
    uint32_t weight;
    size_t slots;
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
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    return d ? memcpy(d, s, n) : NULL;
}

/* Address i of r into s->addr[i]: its texts, and its identity, which counts the earlier
 * addresses of the same host with the same text. false when out of memory. */
static bool snap_addr_take(const wsel_ring *r, size_t i, snap *s)
{
    wsel_ring_address a;
    wsel_ring_address_get(r, i, &a);
    snap_addr *sa = &s->addr[i];
    char buf[600], pb[300];
    sa->label = dup(cli_ring_peer(a.ip, a.port, pb, sizeof pb));
    snprintf(buf, sizeof buf, "%s:%u", a.host, a.host_port);
    sa->host = dup(buf);
    if (!sa->label || !sa->host)
        return false;
    unsigned occ = 0;
    for (size_t k = 0; k < i; k++)
        occ += strcmp(s->addr[k].host, sa->host) == 0 && strcmp(s->addr[k].label, sa->label) == 0;
    snprintf(buf, sizeof buf, "%s:%u|%s#%u", a.host, a.host_port, sa->label, occ);
    sa->weight = a.weight;
    sa->slots = a.n_slots;
    return (sa->key = dup(buf)) != NULL;
}

/* false when out of memory (s is then to be freed all the same). */
static bool snap_take(const wsel_ring *r, snap *s)
{
    memset(s, 0, sizeof *s);
    s->n = wsel_ring_size(r);
    s->na = wsel_ring_address_count(r);
    s->addr = calloc(s->na ? s->na : 1, sizeof *s->addr);
    s->owner = calloc((size_t)s->n + 1, sizeof *s->owner);
    if (!s->addr || !s->owner)
        return false;
    for (size_t i = 0; i < s->na; i++)
        if (!snap_addr_take(r, i, s))
            return false;
    for (uint32_t k = 1; k <= s->n; k++)
        s->owner[k] = wsel_ring_owner(r, k);
    return true;
}

static long find_key(const snap *s, const char *key)
{
    for (size_t i = 0; i < s->na; i++)
        if (strcmp(s->addr[i].key, key) == 0)
            return (long)i;
    return -1;
}

/* ---- one change's figures ------------------------------------------------------------------ */

/* One change's figures in one mode. */
typedef struct diffres {
    unsigned long long moved, minimal, untouched;
    double max_dev; /* largest |count - N w / W| after the change (0 when W = 0) */
} diffres;

static bool is_change(wsel_ring_op_kind k)
{
    return k == WSEL_RING_OP_ADD || k == WSEL_RING_OP_REMOVE || k == WSEL_RING_OP_DNS ||
           k == WSEL_RING_OP_ADVANCE;
}

/* An address is touched by an op when it belongs to the host the op names (add, remove: by
 * name and port; dns: by name), or exists on one side only. */
static bool touched(const wsel_ring_op *op, const snap *s, size_t i, const snap *other)
{
    if (find_key(other, s->addr[i].key) < 0)
        return true;
    char hb[300];
    if (op->kind == WSEL_RING_OP_ADD || op->kind == WSEL_RING_OP_REMOVE) {
        snprintf(hb, sizeof hb, "%s:%u", op->name, op->port);
        return strcmp(s->addr[i].host, hb) == 0;
    }
    if (op->kind == WSEL_RING_OP_DNS) {
        size_t n = strlen(op->name);
        return strncmp(s->addr[i].host, op->name, n) == 0 && s->addr[i].host[n] == ':' &&
               !strchr(s->addr[i].host + n + 1, ':');
    }
    return false;
}

static double max_quota_dev(const snap *a)
{
    double w = 0, worst = 0;
    for (size_t i = 0; i < a->na; i++)
        w += a->addr[i].weight;
    for (size_t i = 0; w > 0 && i < a->na; i++) {
        double d = fabs((double)a->addr[i].slots - (double)a->n * a->addr[i].weight / w);
        worst = d > worst ? d : worst;
    }
    return worst;
}

/* The fewest slots any assignment could move: the larger of the touched addresses' gains
 * and losses (b before the change, a after). */
static unsigned long long minimal_moves(const wsel_ring_op *op, const snap *b, const snap *a)
{
    unsigned long long gains = 0, losses = 0;
    for (size_t i = 0; i < a->na; i++)
        if (touched(op, a, i, b)) {
            long k = find_key(b, a->addr[i].key);
            size_t old = k < 0 ? 0 : b->addr[k].slots;
            if (a->addr[i].slots > old)
                gains += a->addr[i].slots - old;
            else
                losses += old - a->addr[i].slots;
        }
    for (size_t k = 0; k < b->na; k++)
        if (find_key(a, b->addr[k].key) < 0)
            losses += b->addr[k].slots;
    return gains > losses ? gains : losses;
}

/* ---- printing ---------------------------------------------------------------------------------- */

/* A change's head: the JSON object with its op and kind, "slots" opened; or a text line. */
static void print_head(cli_ring_out *o, const wsel_ring_op *op)
{
    if (o->json) {
        wsel__jw_obj_begin(&o->j);
        wsel__jw_kstr(&o->j, "op", op->path);
        wsel__jw_kstr(&o->j, "kind", wsel_ring_op_kind_name(op->kind));
        wsel__jw_karr_begin(&o->j, "slots");
        return;
    }
    wsel__escape_put(o->f, op->path);
    fprintf(o->f, " %s", wsel_ring_op_kind_name(op->kind));
    if (op->name) {
        fputc(' ', o->f);
        wsel__escape_put(o->f, op->name);
    }
    if (op->kind == WSEL_RING_OP_ADD || op->kind == WSEL_RING_OP_REMOVE)
        fprintf(o->f, ":%u", op->port);
    fprintf(o->f, "\n");
}

/* Slot s moved from `from` to `to` (labels; NULL: free); text shows only the moves
 * between untouched addresses. */
static void print_slot(cli_ring_out *o, uint32_t s, const char *from, const char *to,
                       bool between_untouched)
{
    wsel__jw *j = &o->j;
    if (o->json) {
        wsel__jw_obj_begin(j);
        wsel__jw_ku64(j, "slot", s);
        wsel__jw_key(j, "from");
        from ? wsel__jw_str(j, from) : wsel__jw_null(j);
        wsel__jw_key(j, "to");
        to ? wsel__jw_str(j, to) : wsel__jw_null(j);
        wsel__jw_kbool(j, "untouched", between_untouched);
        wsel__jw_obj_end(j);
    } else if (between_untouched) {
        char ef[CLI_ESC_MAX], et[CLI_ESC_MAX];
        fprintf(o->f, "  slot %u moved between untouched addresses: %s -> %s\n", s,
                wsel__escape(from, ef, sizeof ef), wsel__escape(to, et, sizeof et));
    }
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

/* A change's tail: its figures in both modes (JSON: the object closed). */
static void print_tail(cli_ring_out *o, const diffres *d, const diffres *strict, uint32_t n)
{
    if (!o->json) {
        text_figures(o->f, "", d, n);
        text_figures(o->f, "strict: ", strict, n);
        return;
    }
    wsel__jw_arr_end(&o->j);
    json_figures(&o->j, d, n);
    wsel__jw_kobj_begin(&o->j, "strict");
    json_figures(&o->j, strict, n);
    wsel__jw_obj_end(&o->j);
    wsel__jw_obj_end(&o->j);
}

/* ---- the passes -------------------------------------------------------------------------------- */

/* One run of the scenario: the strict one collects its figures, the 5.2.3 one prints. */
typedef struct diff_pass {
    cli_ring_out *out;  /* printing: where; NULL while collecting */
    diffres *strict;    /* [op index]: written while collecting, read while printing */
    snap before;        /* the ring before the change op being applied */
} diff_pass;

/* Counts (and, printing, shows) the slots whose owner changed from b to a. */
static void slot_moves(const diff_pass *c, const wsel_ring_op *op, const snap *b, const snap *a,
                       diffres *d)
{
    for (uint32_t s = 1; s <= a->n; s++) {
        long kb = b->owner[s], ka = a->owner[s];
        const char *from = kb < 0 ? NULL : b->addr[kb].key;
        const char *to = ka < 0 ? NULL : a->addr[ka].key;
        if ((from == NULL && to == NULL) || (from && to && strcmp(from, to) == 0))
            continue;
        d->moved++;
        bool between_untouched = from && to && !touched(op, a, (size_t)ka, b) &&
                                 !touched(op, b, (size_t)kb, a);
        d->untouched += between_untouched;
        if (c->out)
            print_slot(c->out, s, from ? b->addr[kb].label : NULL,
                       to ? a->addr[ka].label : NULL, between_untouched);
    }
}

/* Change op `st->op` was applied: its figures against the snapshot before it. */
static int diff_change(diff_pass *c, const wsel_ring_step *st)
{
    snap a;
    if (!snap_take(st->ring, &a)) {
        snap_free(&a);
        return WSEL_E_NOMEM;
    }
    diffres d = {0, minimal_moves(st->op, &c->before, &a), 0, max_quota_dev(&a)};
    if (c->out)
        print_head(c->out, st->op);
    slot_moves(c, st->op, &c->before, &a, &d);
    if (c->out)
        print_tail(c->out, &d, &c->strict[st->index], a.n);
    else
        c->strict[st->index] = d;
    snap_free(&a);
    return !c->out || cli_ring_out_ok(c->out) ? 0 : WSEL_E_NOMEM;
}

static int diff_step(void *ctx, const wsel_ring_step *st)
{
    diff_pass *c = ctx;
    if (!st->op || !is_change(st->op->kind))
        return 0;
    if (st->kind == WSEL_RING_STEP_BEGIN) {
        snap_free(&c->before);
        return snap_take(st->ring, &c->before) ? 0 : WSEL_E_NOMEM;
    }
    if (st->kind == WSEL_RING_STEP_END && st->status == WSEL_OK)
        return diff_change(c, st);
    return 0;
}

/* The printing pass, with 5.2.3's apportionment. */
static int diff_print(const char *cmd, const cli_ring_args *a, const wsel_ring_scenario *sc,
                      diff_pass *c)
{
    cli_ring_out out;
    if (!cli_ring_out_begin(&out, a->json))
        return cli_nomem(cmd);
    c->out = &out;
    if (a->json) {
        wsel__jw_obj_begin(&out.j);
        wsel__jw_karr_begin(&out.j, "changes");
    }
    wsel_ring_run_opts ro = {WSEL_RING_ENGINE_REF, WSEL_RING_APPORTION_5_2_3};
    int rc = cli_ring_run(cmd, sc, &ro, diff_step, c);
    if (rc == CLI_OK && a->json) {
        wsel__jw_arr_end(&out.j);
        wsel__jw_obj_end(&out.j);
    }
    return cli_ring_out_end(cmd, rc, &out);
}

int cli_ring_diff_body(const char *cmd, const cli_ring_args *a, const wsel_ring_scenario *sc)
{
    diff_pass c = {NULL, calloc(wsel_ring_scenario_op_count(sc) + 1, sizeof(diffres)), {0}};
    if (!c.strict)
        return cli_nomem(cmd);
    wsel_ring_run_opts ro = {WSEL_RING_ENGINE_REF, WSEL_RING_APPORTION_STRICT};
    int rc = cli_ring_run(cmd, sc, &ro, diff_step, &c);
    snap_free(&c.before);
    if (rc == CLI_OK)
        rc = diff_print(cmd, a, sc, &c);
    snap_free(&c.before);
    free(c.strict);
    return rc;
}
