/* bin/wsel gslb inputs: an inputs template for a config (doc/gslb.md §3): every virtual
 * server of the wide IPs named (all when none) listed up, each metric a configured method
 * reads as an explicit null, and a "_needs" note (the inputs reader accepts and ignores
 * it) of which method reads which metric, what reads the LDNS and the random words, and
 * which monitors probe which virtual server. The template is read by `wsel gslb resolve`
 * as it is. */
#include <stdlib.h>
#include <string.h>

#include "../../core/gslb/gslb_internal.h"
#include "gslb_cli.h"

static const char inputs_usage[] =
    "usage: wsel gslb inputs CONFIG [WIDEIP...] [--type A|AAAA]\n"
    "Prints an inputs template (JSON) for the wide IPs named (all when none; a name stands\n"
    "for its A and its AAAA wide IP unless --type picks one): every virtual\n"
    "server of their pools and last-resort pools (and their depends-on targets; with no\n"
    "WIDEIP, every pool and virtual server) up, not over limit, each metric\n"
    "a configured method reads as null, each pool neither held down nor over limit, and\n"
    "\"_needs\": which pool step reads each metric, what reads the LDNS and the random\n"
    "words, and each monitor the config names against the virtual servers it probes.\n"
    "resolve reads it as it is; fill in the nulls and query.ldns.\n";

/* What the template covers. */
typedef struct scope {
    const wsel_gslb_config *cfg;
    uint8_t *pool, *vs, *wideip;
} scope;

static void take_pool(scope *sc, long p)
{
    if (p < 0 || sc->pool[p])
        return;
    sc->pool[p] = 1;
    const wsel_gslb_pool *pl = &sc->cfg->pools[p];
    for (size_t m = 0; m < pl->n_members; m++)
        if (pl->members[m].vs >= 0)
            sc->vs[pl->members[m].vs] = 1;
}

/* The wide IPs idx[0..n) (all when n is 0), their pools and last-resort pools, the
 * virtual servers of their members and every depends-on target of those, transitively. */
static void scope_fill(scope *sc, const long *idx, size_t n)
{
    const wsel_gslb_config *cfg = sc->cfg;
    for (size_t k = 0; k < (n ? n : cfg->n_wideips); k++)
        sc->wideip[n ? (size_t)idx[k] : k] = 1;
    for (size_t w = 0; w < cfg->n_wideips; w++) {
        if (!sc->wideip[w])
            continue;
        for (size_t i = 0; i < cfg->wideips[w].n_pools; i++)
            take_pool(sc, cfg->wideips[w].pools[i].pool);
        take_pool(sc, cfg->wideips[w].lrp);
    }
    if (!n) { /* the whole config: every pool and virtual server */
        memset(sc->pool, 1, cfg->n_pools);
        memset(sc->vs, 1, cfg->n_vs);
    }
    for (bool grew = true; grew;) { /* depends-on targets, until nothing is added */
        grew = false;
        for (size_t v = 0; v < cfg->n_vs; v++)
            for (size_t d = 0; sc->vs[v] && d < cfg->vs[v].n_depends; d++) {
                long t = cfg->vs[v].depends[d];
                if (t >= 0 && !sc->vs[t]) {
                    sc->vs[t] = 1;
                    grew = true;
                }
            }
    }
}

/* The metrics some step in scope reads of virtual server v. */
static unsigned vs_metrics(const scope *sc, size_t v)
{
    const wsel_gslb_config *cfg = sc->cfg;
    unsigned mask = 0;
    for (size_t p = 0; p < cfg->n_pools; p++) {
        if (!sc->pool[p])
            continue;
        unsigned steps = 0;
        for (int s = 0; s < 3; s++)
            steps |= wsel_gslb_step_metrics(&cfg->pools[p], s);
        for (size_t m = 0; steps && m < cfg->pools[p].n_members; m++)
            if (cfg->pools[p].members[m].vs == (long)v)
                mask |= steps;
    }
    return mask;
}

static const char *const step_names[3] = {"preferred", "alternate", "fallback"};

/* One monitor named in a rule, and a virtual server it probes through one object. */
typedef struct mon_use {
    char *name;       /* the monitor */
    size_t vs, order; /* the virtual server; the order found (sort tie-break) */
    char via[560];    /* "server S", "virtual server", "pool P", "member of pool P" */
} mon_use;

typedef struct mon_list {
    mon_use *u;
    size_t n, cap;
    bool nomem;
} mon_list;

/* Adds a use for every monitor a rule names: its tokens but the rule's own words
 * (`min N of`, `require N from M`, `and`, braces) and `none` (doc/gslb.md §3). */
static void mon_add(mon_list *l, const char *rule, size_t vs, const char *via, const char *via_name)
{
    if (!rule || l->nomem)
        return;
    char *copy = strdup(rule);
    if (!copy) {
        l->nomem = true;
        return;
    }
    size_t skip = !strncmp(rule, "min ", 4) ? 3 : !strncmp(rule, "require ", 8) ? 4 : 0;
    char *save = NULL;
    for (char *t = strtok_r(copy, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        if (skip) {
            skip--;
            continue;
        }
        if (!strcmp(t, "and") || !strcmp(t, "{") || !strcmp(t, "}") || !strcmp(t, "none"))
            continue;
        if (!wsel__grow(&l->u, &l->cap, l->n + 1, sizeof *l->u) || !(l->u[l->n].name = strdup(t))) {
            l->nomem = true;
            break;
        }
        mon_use *u = &l->u[l->n];
        u->vs = vs;
        u->order = l->n++;
        snprintf(u->via, sizeof u->via, "%s%s%s", via, via_name ? " " : "", via_name ? via_name : "");
    }
    free(copy);
}

static int mon_cmp(const void *a, const void *b)
{
    const mon_use *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->order > y->order) - (x->order < y->order);
}

/* "monitors": {MONITOR: ["SERVER:VS via OBJECT", ...]}: each monitor the config names on a
 * server, virtual server, pool or member in scope, against the virtual servers it probes
 * (a server's: each of its virtual servers; a pool's: each member's). false: no memory. */
static bool monitors_json(wsel__jw *j, const scope *sc)
{
    const wsel_gslb_config *cfg = sc->cfg;
    mon_list l = {0};
    for (size_t v = 0; v < cfg->n_vs; v++) {
        if (!sc->vs[v])
            continue;
        const wsel_gslb_server *s = &cfg->servers[cfg->vs[v].server];
        mon_add(&l, s->monitor, v, "server", s->name);
        mon_add(&l, cfg->vs[v].monitor, v, "virtual server", NULL);
    }
    for (size_t p = 0; p < cfg->n_pools; p++)
        for (size_t m = 0; sc->pool[p] && m < cfg->pools[p].n_members; m++) {
            const wsel_gslb_member *mb = &cfg->pools[p].members[m];
            if (mb->vs < 0)
                continue;
            mon_add(&l, cfg->pools[p].monitor, (size_t)mb->vs, "pool", wsel__gslb_pool_key(cfg, p));
            mon_add(&l, mb->monitor, (size_t)mb->vs, "member of pool", wsel__gslb_pool_key(cfg, p));
        }
    if (!l.nomem) {
        qsort(l.u, l.n, sizeof *l.u, mon_cmp);
        wsel__jw_kobj_begin(j, "monitors");
        for (size_t i = 0; i < l.n; i++) {
            if (i == 0 || strcmp(l.u[i].name, l.u[i - 1].name))
                wsel__jw_karr_begin(j, l.u[i].name);
            const wsel_gslb_vs *vs = &cfg->vs[l.u[i].vs];
            char what[1200];
            snprintf(what, sizeof what, "%s:%s via %s", cfg->servers[vs->server].name, vs->name, l.u[i].via);
            wsel__jw_str(j, what);
            if (i + 1 == l.n || strcmp(l.u[i].name, l.u[i + 1].name))
                wsel__jw_arr_end(j);
        }
        wsel__jw_obj_end(j);
    }
    for (size_t i = 0; i < l.n; i++)
        free(l.u[i].name);
    free(l.u);
    return !l.nomem;
}

/* "_needs": {"METRIC": ["POOL STEP METHOD", ...], "ldns": [...], "random": [...],
 * "monitors": {...}}. false: out of memory. */
static bool needs_json(wsel__jw *j, const scope *sc)
{
    const wsel_gslb_config *cfg = sc->cfg;
    char what[600];
    wsel__jw_kobj_begin(j, "_needs");
    for (int m = 0; m < WSEL_GSLB_METRIC_COUNT_; m++) {
        bool open = false;
        for (size_t p = 0; p < cfg->n_pools; p++)
            for (int s = 0; sc->pool[p] && s < 3; s++)
                if (wsel_gslb_step_metrics(&cfg->pools[p], s) & (1u << m)) {
                    if (!open)
                        wsel__jw_karr_begin(j, wsel_gslb_metric_key((wsel_gslb_metric)m));
                    open = true;
                    snprintf(what, sizeof what, "pool %s %s %s", cfg->pools[p].name, step_names[s],
                             wsel_gslb_method_get(cfg->pools[p].mode[s])->token);
                    wsel__jw_str(j, what);
                }
        if (open)
            wsel__jw_arr_end(j);
    }
    wsel__jw_karr_begin(j, "ldns");
    for (size_t w = 0; w < cfg->n_wideips; w++) {
        const wsel_gslb_wideip *wi = &cfg->wideips[w];
        if (sc->wideip[w] && wi->lb_mode == WSEL_GSLB_TOPOLOGY) {
            snprintf(what, sizeof what, "wideip %s pool-lb-mode topology", wi->name);
            wsel__jw_str(j, what);
        }
        if (sc->wideip[w] && wi->persistence) {
            snprintf(what, sizeof what, "wideip %s persistence", wi->name);
            wsel__jw_str(j, what);
        }
    }
    for (size_t p = 0; p < cfg->n_pools; p++)
        for (int s = 0; sc->pool[p] && s < 3; s++) {
            wsel_gslb_method m = cfg->pools[p].mode[s];
            if (m == WSEL_GSLB_TOPOLOGY || m == WSEL_GSLB_STATIC_PERSISTENCE ||
                (m == WSEL_GSLB_QOS && cfg->pools[p].qos[WSEL_GSLB_QOS_TOPOLOGY])) {
                snprintf(what, sizeof what, "pool %s %s %s", cfg->pools[p].name, step_names[s],
                         wsel_gslb_method_get(m)->token);
                wsel__jw_str(j, what);
            }
        }
    wsel__jw_arr_end(j);
    wsel__jw_karr_begin(j, "random");
    for (size_t w = 0; w < cfg->n_wideips; w++)
        if (sc->wideip[w] && cfg->wideips[w].lb_mode == WSEL_GSLB_RANDOM &&
            cfg->wideips[w].n_pools > 1) {
            snprintf(what, sizeof what, "wideip %s pool-lb-mode random: one word a query", cfg->wideips[w].name);
            wsel__jw_str(j, what);
        }
    wsel__jw_arr_end(j);
    bool ok = monitors_json(j, sc);
    wsel__jw_obj_end(j);
    return ok;
}

/* false: out of memory (the caller reports it; the output is then cut short). */
static bool template_json(wsel__jw *j, const scope *sc, const char *qname, wsel_gslb_type qtype)
{
    const wsel_gslb_config *cfg = sc->cfg;
    wsel__jw_obj_begin(j);
    if (!needs_json(j, sc))
        return false;
    wsel__jw_ku64(j, "now", 0);
    wsel__jw_kobj_begin(j, "query");
    wsel__jw_kstr(j, "name", qname);
    wsel__jw_kstr(j, "type", wsel_gslb_type_name(qtype));
    wsel__jw_obj_end(j);
    wsel__jw_kobj_begin(j, "members");
    for (size_t v = 0; v < cfg->n_vs; v++) {
        if (!sc->vs[v])
            continue;
        char key[600];
        snprintf(key, sizeof key, "%s:%s", cfg->servers[cfg->vs[v].server].name, cfg->vs[v].name);
        wsel__jw_kobj_begin(j, key);
        wsel__jw_kbool(j, "up", 1);
        wsel__jw_kbool(j, "limit_exceeded", 0);
        unsigned mask = vs_metrics(sc, v);
        for (int m = 0; m < WSEL_GSLB_METRIC_COUNT_; m++)
            if (mask & (1u << m)) {
                wsel__jw_key(j, wsel_gslb_metric_key((wsel_gslb_metric)m));
                wsel__jw_null(j);
            }
        wsel__jw_obj_end(j);
    }
    wsel__jw_obj_end(j);
    wsel__jw_kobj_begin(j, "pools");
    for (size_t p = 0; p < cfg->n_pools; p++)
        if (sc->pool[p]) {
            wsel__jw_kobj_begin(j, wsel__gslb_pool_key(cfg, p)); /* */
            wsel__jw_kbool(j, "held_down", 0);
            wsel__jw_kbool(j, "limit_exceeded", 0);
            wsel__jw_obj_end(j);
        }
    wsel__jw_obj_end(j);
    wsel__jw_kobj_begin(j, "geo");
    wsel__jw_obj_end(j);
    wsel__jw_karr_begin(j, "persistence");
    wsel__jw_arr_end(j);
    wsel__jw_karr_begin(j, "random");
    wsel__jw_arr_end(j);
    wsel__jw_obj_end(j);
    return true;
}

int cli_gslb_inputs(int argc, char **argv)
{
    const char *cmd = "gslb inputs";
    cli_gslb_target t; /* the template is JSON with or without --json */
    int rc = cli_gslb_open_wideips(cmd, argc, argv, inputs_usage, &t);
    if (rc)
        return rc < 0 ? CLI_OK : rc;
    const wsel_gslb_config *cfg = t.cfg;
    scope sc = {cfg, calloc(cfg->n_pools + 1, 1), calloc(cfg->n_vs + 1, 1), calloc(cfg->n_wideips + 1, 1)};
    if (!sc.pool || !sc.vs || !sc.wideip) {
        rc = cli_nomem(cmd);
    } else {
        scope_fill(&sc, t.idx, t.n);
        const char *qname = "";
        wsel_gslb_type qtype = WSEL_GSLB_TYPE_A;
        if (t.n || cfg->n_wideips) { /* the first wide IP's name without its folder, its type */
            const wsel_gslb_wideip *w = &cfg->wideips[t.n ? (size_t)t.idx[0] : 0];
            qname = strrchr(w->name, '/') ? strrchr(w->name, '/') + 1 : w->name;
            qtype = w->type;
        }
        wsel__jw j;
        wsel__jw_init(&j, stdout);
        if (!template_json(&j, &sc, qname, qtype))
            rc = cli_nomem(cmd);
        cli_json_end(&j);
    }
    free(sc.pool);
    free(sc.vs);
    free(sc.wideip);
    wsel_gslb_config_free(t.cfg);
    return rc;
}
