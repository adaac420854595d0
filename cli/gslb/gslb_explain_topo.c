/* bin/wsel gslb explain: the topology that applies to a wide IP (doc/gslb.md §8.1): the
 * records that can score one of its candidates, in evaluation order, each with the
 * places it applies at, then every region they name, expanded (the regions inside a
 * region follow it), with what a region mixing is and is not matches (A-40). */
#include <stdlib.h>
#include <string.h>

#include "../../core/gslb/gslb_internal.h"
#include "gslb_cli.h"

/* What one wide IP's topology explanation works on. */
typedef struct topo_view {
    const wsel_gslb_config *cfg;
    const wsel_gslb_wideip *w;
    wsel__gslb_can can;
    uint8_t *applies;      /* per record: bit 0 the wide IP, bit 1 some pool of it */
    size_t *regions, n_regions; /* the regions named, in the order they are listed */
    uint8_t *listed;       /* per region: already in regions[] */
    long pools[WSEL_GSLB_MAX_POOLS + 1]; /* the wide IP's resolved pools, then its */
    size_t n_pools;                      /* last-resort pool when not one of them */
} topo_view;

static bool uses_topology(const wsel_gslb_pool *p)
{
    for (int s = 0; s < 3; s++)
        if (p->mode[s] == WSEL_GSLB_TOPOLOGY ||
            (p->mode[s] == WSEL_GSLB_QOS && p->qos[WSEL_GSLB_QOS_TOPOLOGY]))
            return true;
    return false;
}

/* Pool pi (a pool of the wide IP) chooses its members by topology, record t can score one
 * of them. */
static bool applies_to_pool(topo_view *v, size_t t, long pi)
{
    if (pi < 0 || !uses_topology(&v->cfg->pools[pi]))
        return false;
    v->can.rcan_ok = false;
    return wsel__gslb_can_match(&v->can, &v->cfg->topo[t].server, pi, NULL);
}

static void list_region(topo_view *v, const wsel_gslb_cond *c)
{
    if (c->type != WSEL_GSLB_T_REGION || c->ref < 0 || v->listed[c->ref])
        return;
    v->listed[c->ref] = 1;
    v->regions[v->n_regions++] = (size_t)c->ref;
}

/* Which records apply and which regions they name (inner ones after their region). */
static void view_build(topo_view *v)
{
    const wsel_gslb_config *cfg = v->cfg;
    for (size_t t = 0; t < cfg->n_topo; t++) {
        if (v->w->lb_mode == WSEL_GSLB_TOPOLOGY) {
            v->can.rcan_ok = false;
            v->applies[t] |= wsel__gslb_can_match(&v->can, &cfg->topo[t].server, -1, v->w);
        }
        for (size_t i = 0; i < v->n_pools; i++)
            if (applies_to_pool(v, t, v->pools[i]))
                v->applies[t] |= 2;
        if (v->applies[t]) {
            list_region(v, &cfg->topo[t].ldns);
            list_region(v, &cfg->topo[t].server);
        }
    }
    for (size_t k = 0; k < v->n_regions; k++) { /* grows as it goes: every nested region */
        const wsel_gslb_region *rg = &cfg->regions[v->regions[k]];
        for (size_t e = 0; e < rg->n_entries; e++)
            list_region(v, &rg->entries[e]);
    }
}

static void view_free(topo_view *v)
{
    wsel__gslb_can_free(&v->can);
    free(v->applies);
    free(v->regions);
    free(v->listed);
}

static int view_open(topo_view *v, const wsel_gslb_config *cfg, size_t wi)
{
    *v = (topo_view){.cfg = cfg, .w = &cfg->wideips[wi]};
    int rc = wsel__gslb_can_init(&v->can, cfg);
    v->applies = calloc(cfg->n_topo + 1, 1);
    v->regions = calloc(cfg->n_regions + 1, sizeof *v->regions);
    v->listed = calloc(cfg->n_regions + 1, 1);
    if (rc || !v->applies || !v->regions || !v->listed) {
        view_free(v);
        return -1;
    }
    bool lrp_listed = false;
    for (size_t i = 0; i < v->w->n_pools && v->n_pools < WSEL_GSLB_MAX_POOLS; i++)
        if (v->w->pools[i].pool >= 0) {
            v->pools[v->n_pools++] = v->w->pools[i].pool;
            lrp_listed |= v->w->pools[i].pool == v->w->lrp;
        }
    if (v->w->lrp >= 0 && !lrp_listed)
        v->pools[v->n_pools++] = v->w->lrp;
    view_build(v);
    return 0;
}

/* "[not ]TYPE VALUE" */
static void cond_text(char *buf, size_t len, const wsel_gslb_cond *c)
{
    snprintf(buf, len, "%s%s %s", c->negate ? "not " : "", wsel__gslb_topo_type_name(c->type),
             c->value ? c->value : "");
}

/* Where record t applies: "wide IP" and/or the pools of the wide IP that use topology and
 * that it can score. */
static void applies_text(topo_view *v, size_t t, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = '\0';
    if (v->applies[t] & 1)
        at += (size_t)snprintf(buf, len, "wide IP");
    for (size_t i = 0; i < v->n_pools && at < len; i++)
        if (applies_to_pool(v, t, v->pools[i]))
            at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? ", " : "",
                                   v->cfg->pools[v->pools[i]].name);
}

static void region_text(const topo_view *v, size_t r)
{
    const wsel_gslb_region *rg = &v->cfg->regions[r];
    cli_gslb_printf(stdout, "    region %s (line %u):", rg->name, rg->pos.line);
    for (size_t e = 0; e < rg->n_entries; e++) {
        char c[600];
        cond_text(c, sizeof c, &rg->entries[e]);
        cli_gslb_printf(stdout, "%s %s", e ? "," : "", c);
    }
    if (!rg->n_entries)
        cli_gslb_printf(stdout, " (no entries: matches nothing)");
    bool mixed = wsel__gslb_region_mixed(rg) > 0;
    cli_gslb_printf(stdout, "%s\n", mixed ? " !G032" : "");
    if (mixed)
        cli_gslb_printf(stdout, "      matches what one of its is entries matches, unless one of "
                                "its is-not entries matches it too (A-40)\n");
}

static void topology_text(topo_view *v)
{
    const wsel_gslb_config *cfg = v->cfg;
    cli_gslb_printf(stdout, "  topology: the records that can score a candidate, in evaluation order "
                            "(topology-longest-match %s); the first that matches gives the score\n",
                    cfg->longest_match ? "yes" : "no");
    size_t shown = 0;
    for (size_t t = 0; t < cfg->n_topo; t++) {
        if (!v->applies[t])
            continue;
        const wsel_gslb_topo *r = &cfg->topo[t];
        char l[600], s[600], at[1024];
        cond_text(l, sizeof l, &r->ldns);
        cond_text(s, sizeof s, &r->server);
        applies_text(v, t, at, sizeof at);
        cli_gslb_printf(stdout, "    line %u: ldns: %s  server: %s  order %u score %u  [%s]\n",
                        r->pos.line, l, s, r->order, r->score, at);
        shown++;
    }
    if (!shown)
        cli_gslb_printf(stdout, "    none: no record can score a candidate here\n");
    for (size_t k = 0; k < v->n_regions; k++)
        region_text(v, v->regions[k]);
}

static void topology_json(topo_view *v, wsel__jw *j)
{
    const wsel_gslb_config *cfg = v->cfg;
    wsel__jw_kobj_begin(j, "topology");
    wsel__jw_kbool(j, "longest_match", cfg->longest_match);
    wsel__jw_karr_begin(j, "records");
    for (size_t t = 0; t < cfg->n_topo; t++) {
        if (!v->applies[t])
            continue;
        const wsel_gslb_topo *r = &cfg->topo[t];
        char c[600];
        wsel__jw_obj_begin(j);
        wsel__jw_ku64(j, "line", r->pos.line);
        cond_text(c, sizeof c, &r->ldns);
        wsel__jw_kstr(j, "ldns", c);
        cond_text(c, sizeof c, &r->server);
        wsel__jw_kstr(j, "server", c);
        wsel__jw_ku64(j, "order", r->order);
        wsel__jw_ku64(j, "score", r->score);
        wsel__jw_karr_begin(j, "applies");
        if (v->applies[t] & 1)
            wsel__jw_str(j, "wideip");
        for (size_t i = 0; i < v->n_pools; i++)
            if (applies_to_pool(v, t, v->pools[i]))
                wsel__jw_str(j, cfg->pools[v->pools[i]].name);
        wsel__jw_arr_end(j);
        wsel__jw_obj_end(j);
    }
    wsel__jw_arr_end(j);
    wsel__jw_karr_begin(j, "regions");
    for (size_t k = 0; k < v->n_regions; k++) {
        const wsel_gslb_region *rg = &cfg->regions[v->regions[k]];
        wsel__jw_obj_begin(j);
        wsel__jw_kstr(j, "name", rg->name);
        wsel__jw_ku64(j, "line", rg->pos.line);
        wsel__jw_karr_begin(j, "entries");
        for (size_t e = 0; e < rg->n_entries; e++) {
            char c[600];
            cond_text(c, sizeof c, &rg->entries[e]);
            wsel__jw_str(j, c);
        }
        wsel__jw_arr_end(j);
        wsel__jw_kbool(j, "mixes_not", wsel__gslb_region_mixed(rg) > 0);
        wsel__jw_obj_end(j);
    }
    wsel__jw_arr_end(j);
    wsel__jw_obj_end(j);
}

int cli_gslb_explain_topology(const wsel_gslb_config *cfg, size_t wi, wsel__jw *j)
{
    topo_view v;
    if (view_open(&v, cfg, wi) < 0)
        return -1;
    bool used = v.w->lb_mode == WSEL_GSLB_TOPOLOGY;
    for (size_t i = 0; i < v.n_pools; i++)
        used |= uses_topology(&cfg->pools[v.pools[i]]);
    if (used && j)
        topology_json(&v, j);
    else if (used)
        topology_text(&v);
    view_free(&v);
    return 0;
}
