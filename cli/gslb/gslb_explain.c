/* bin/wsel gslb explain: the resolved chain per wide IP (doc/gslb.md §8.1), every default
 * labelled "(default)", each layer's meaning in one line, the lint findings in place. */
#include <stdlib.h>
#include <string.h>

#include "../../core/gslb/gslb_internal.h"
#include "gslb_cli.h"

static const char explain_usage[] =
    "usage: wsel gslb explain CONFIG [WIDEIP...] [--type A|AAAA] [--json]\n"
    "Prints, per wide IP (all when none is named; a name stands for its A and its AAAA\n"
    "wide IP unless --type picks one): pool-lb-mode, persistence, last-resort\n"
    "pool, failure rcode and the terminal fall-through, then each pool in traversal order\n"
    "with its chain preferred -> alternate -> fallback. Values not written in the config\n"
    "are tagged (default); lint findings appear as !Gnnn where they fire. --json: the same\n"
    "as one document ({\"wideips\": [...]}, each value as {\"value\", \"default\"}).\n";

#define DEF(written, bit) (((written) & (bit)) ? "" : " (default)")

static const char *kind_tag(const wsel_gslb_pool *p, int step, char *buf, size_t len)
{
    wsel_gslb_method m = p->mode[step];
    const wsel_gslb_method_info *mi = wsel_gslb_method_get(m);
    const char *dr = p->dynamic_ratio && mi->dynamic_ratio ? ", dynamic-ratio" : "";
    switch (mi->kind) {
    case WSEL_GSLB_KIND_STATIC: snprintf(buf, len, "[static]"); break;
    case WSEL_GSLB_KIND_SRV: snprintf(buf, len, "[srv%s]", dr); break;
    case WSEL_GSLB_KIND_PATH: snprintf(buf, len, "[path%s]", dr); break;
    case WSEL_GSLB_KIND_ROUTING:
        snprintf(buf, len, step == 1 ? "[skip to fallback]" : "[next pool]");
        break;
    case WSEL_GSLB_KIND_TERMINAL:
        if (m == WSEL_GSLB_DROP_PACKET)
            snprintf(buf, len, "[drop the query]");
        else if (m == WSEL_GSLB_RETURN_TO_DNS)
            snprintf(buf, len, "[hand back to BIND]");
        else if (p->fallback_ip.family == 0)
            snprintf(buf, len, "[unset => EMPTY]");
        else {
            char a[64];
            snprintf(buf, len, "[answers %s, unmonitored]", wsel_gslb_addr_str(&p->fallback_ip, a, sizeof a));
        }
        break;
    }
    return buf;
}

static const char *wide_meaning(wsel_gslb_method m)
{
    switch (m) {
    case WSEL_GSLB_ROUND_ROBIN: return "pools in sequence, one per query";
    case WSEL_GSLB_RATIO: return "pools by the ratios in 'pools' (weighted round robin)";
    case WSEL_GSLB_TOPOLOGY: return "the pool whose topology record scores highest for the LDNS";
    case WSEL_GSLB_GLOBAL_AVAILABILITY:
        return "the first available pool in list order: primary site, then DR";
    case WSEL_GSLB_RANDOM: return "a random available pool (version-dependent)";
    default: return "";
    }
}

static void findings_for(const wsel_gslb_finding *f, size_t n, const char *object, char *codes,
                         size_t len)
{
    codes[0] = '\0';
    for (size_t i = 0; i < n; i++)
        if (!strcmp(f[i].object, object)) {
            size_t l = strlen(codes);
            snprintf(codes + l, len - l, " !G%03u", f[i].code);
        }
}

static void print_findings(const wsel_gslb_finding *f, size_t n, const char *object,
                           const char *indent)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(f[i].object, object))
            cli_gslb_printf(stdout, "%s!G%03u %s: %s\n", indent, f[i].code, cli_gslb_severity(f[i].severity),
                   f[i].message);
}

static void explain_pool(const wsel_gslb_config *cfg, size_t pi, const wsel_gslb_finding *f,
                         size_t nf, const char *indent)
{
    const wsel_gslb_pool *p = &cfg->pools[pi];
    char obj[400], codes[200], t0[80], t1[80], t2[80];
    wsel__gslb_obj_pool(cfg, pi, obj, sizeof obj);
    findings_for(f, nf, obj, codes, sizeof codes);
    cli_gslb_printf(stdout, "%sverify-member-availability %s%s  ttl %u%s  max-answers %u%s  members %zu%s%s\n", indent,
           p->verify ? "enabled" : "disabled", DEF(p->written, WSEL_GSLB_P_VERIFY), p->ttl,
           DEF(p->written, WSEL_GSLB_P_TTL), p->max_answers, DEF(p->written, WSEL_GSLB_P_MAXANS),
           p->n_members, p->enabled ? "" : "  DISABLED", codes);
    cli_gslb_printf(stdout, "%s  preferred %s%s %s -> alternate %s%s %s\n%s  -> fallback %s%s %s\n", indent,
           wsel_gslb_method_get(p->mode[0])->token, DEF(p->written, WSEL_GSLB_P_PREFERRED),
           kind_tag(p, 0, t0, sizeof t0), wsel_gslb_method_get(p->mode[1])->token,
           DEF(p->written, WSEL_GSLB_P_ALTERNATE), kind_tag(p, 1, t1, sizeof t1), indent,
           wsel_gslb_method_get(p->mode[2])->token, DEF(p->written, WSEL_GSLB_P_FALLBACK),
           kind_tag(p, 2, t2, sizeof t2));
    for (int s = 0; s < 3; s++) {
        const wsel_gslb_method_info *mi = wsel_gslb_method_get(p->mode[s]);
        if (mi->kind == WSEL_GSLB_KIND_STATIC || mi->kind == WSEL_GSLB_KIND_SRV ||
            mi->kind == WSEL_GSLB_KIND_PATH)
            cli_gslb_printf(stdout, "%s    %s %s fails when: %s\n", indent, s == 0 ? "preferred" : s == 1 ? "alternate" : "fallback",
                   mi->token, mi->fails);
    }
    const wsel_gslb_method_info *fm = wsel_gslb_method_get(p->mode[2]);
    if (fm->kind != WSEL_GSLB_KIND_TERMINAL && fm->kind != WSEL_GSLB_KIND_ROUTING)
        cli_gslb_printf(stdout, "%s    fallback %s\n", indent,
               p->verify ? "checks availability like the other steps (verify-member-availability); "
                           "if it fails too, the next pool runs"
                         : "ignores monitors, limits and dependencies (verify disabled): it may answer "
                           "with a member marked down");
    {
        static const char *const minup[] = {"off", "at-least", "percent"};
        char fip[64] = "unset";
        if (p->fallback_ip.family)
            wsel_gslb_addr_str(&p->fallback_ip, fip, sizeof fip);
        cli_gslb_printf(stdout, "%s  fallback-ip %s%s  dynamic-ratio %s%s  min-members-up %s%s", indent, fip,
               DEF(p->written, WSEL_GSLB_P_FALLBACK_IP), p->dynamic_ratio ? "enabled" : "disabled",
               DEF(p->written, WSEL_GSLB_P_DYNRATIO), minup[p->min_up_mode],
               DEF(p->written, WSEL_GSLB_P_MINUP));
        if (p->min_up_mode != WSEL_GSLB_MINUP_OFF)
            cli_gslb_printf(stdout, " %u%s", p->min_up_value, DEF(p->written, WSEL_GSLB_P_MINUPV));
        cli_gslb_printf(stdout, "  manual-resume %s%s\n", p->manual_resume ? "enabled" : "disabled",
               DEF(p->written, WSEL_GSLB_P_MANUAL));
        bool qos = false;
        for (int s = 0; s < 3; s++)
            qos |= p->mode[s] == WSEL_GSLB_QOS;
        if (qos) {
            static const char *const qn[WSEL_GSLB_QOS_COUNT_] = {
                "rtt", "lcs", "hit-ratio", "kilobytes-second", "packet-rate", "hops", "topology",
                "vs-capacity", "vs-score"};
            cli_gslb_printf(stdout, "%s  qos", indent);
            for (int k = 0; k < WSEL_GSLB_QOS_COUNT_; k++)
                cli_gslb_printf(stdout, " %s %u%s", qn[k], p->qos[k], DEF(p->qos_written, 1u << k));
            cli_gslb_printf(stdout, "\n");
        }
    }
    print_findings(f, nf, obj, indent);
    for (size_t m = 0; m < p->n_members; m++) {
        const wsel_gslb_member *mb = &p->members[m];
        char a[64] = "?";
        if (mb->vs >= 0)
            wsel_gslb_addr_str(&cfg->vs[mb->vs].addr, a, sizeof a);
        cli_gslb_printf(stdout, "%s    member %zu %s -> %s  member-order %u%s ratio %u%s%s\n", indent, m + 1, mb->key, a,
               mb->order, mb->order_written ? "" : " (default)", mb->ratio,
               mb->ratio_written ? "" : " (default)", mb->enabled ? "" : "  DISABLED");
    }
}

static int explain_wideip(const wsel_gslb_config *cfg, size_t wi, const wsel_gslb_finding *f,
                          size_t nf)
{
    const wsel_gslb_wideip *w = &cfg->wideips[wi];
    char obj[400], codes[200];
    wsel__gslb_obj_wideip(cfg, wi, obj, sizeof obj);
    findings_for(f, nf, obj, codes, sizeof codes);
    cli_gslb_printf(stdout, "wideip %s %s  pool-lb-mode %s%s  persistence %s%s",
                    wsel__gslb_type_word(w->type), w->name,
           wsel_gslb_method_get(w->lb_mode)->token, DEF(w->written, WSEL_GSLB_W_LBMODE),
           w->persistence ? "enabled" : "disabled", DEF(w->written, WSEL_GSLB_W_PERSIST));
    cli_gslb_printf(stdout, " ttl %u%s cidr /%u%s, /%u%s", w->ttl_persistence, DEF(w->written, WSEL_GSLB_W_TTLP),
           w->cidr4, DEF(w->written, WSEL_GSLB_W_CIDR4), w->cidr6, DEF(w->written, WSEL_GSLB_W_CIDR6));
    cli_gslb_printf(stdout, "%s%s\n", w->enabled ? "" : "  DISABLED => return-to-dns (wideip-disabled)", codes);
    for (size_t a = 0; a < w->n_aliases; a++) /* more names it answers */
        cli_gslb_printf(stdout, a ? " %s" : "  aliases %s", w->aliases[a]);
    if (w->n_aliases)
        cli_gslb_printf(stdout, "\n");
    cli_gslb_printf(stdout, "  wide-IP layer: picks one available pool: %s%s\n", wide_meaning(w->lb_mode),
           w->n_pools == 1 ? " (irrelevant: one pool)" : "");
    cli_gslb_printf(stdout, "  pool layer: preferred; the alternate only when it fails; the fallback only when the "
           "alternate fails too\n");
    if (w->lrp_name)
        cli_gslb_printf(stdout, "  last-resort %s %s", w->lrp_type, w->lrp_name);
    else
        cli_gslb_printf(stdout, "  last-resort none (default)");
    cli_gslb_printf(stdout, "  failure-rcode-response %s%s", w->rcode_response ? "enabled" : "disabled",
           DEF(w->written, WSEL_GSLB_W_RCODE_ON));
    cli_gslb_printf(stdout, " rcode %s%s ttl %u%s", wsel_gslb_rcode_name(w->rcode), DEF(w->written, WSEL_GSLB_W_RCODE),
           w->rcode_ttl, DEF(w->written, WSEL_GSLB_W_RCODE_TTL));
    if (w->rcode_response)
        cli_gslb_printf(stdout, " => fall-through: rcode %s\n", wsel_gslb_rcode_name(w->rcode));
    else
        cli_gslb_printf(stdout, " => fall-through: BIND aggregate (every pool unavailable) | return-to-dns\n");
    static const char *const lognames[] = {"pool-selection", "pool-traversal", "pool-member-selection",
                                           "pool-member-traversal"};
    cli_gslb_printf(stdout, "  decision log:");
    if (!w->log_flags)
        cli_gslb_printf(stdout, " none");
    for (int i = 0; i < 4; i++)
        if (w->log_flags & (1u << i))
            cli_gslb_printf(stdout, " %s", lognames[i]);
    cli_gslb_printf(stdout, "%s  topology-prefer-edns0-client-subnet %s%s\n", DEF(w->written, WSEL_GSLB_W_LOG),
           w->ecs ? "enabled" : "disabled", DEF(w->written, WSEL_GSLB_W_ECS));
    print_findings(f, nf, obj, "  ");
    for (size_t i = 0; i < w->n_pools; i++) {
        const wsel_gslb_wpool *wp = &w->pools[i];
        cli_gslb_printf(stdout, "  %zu %s order %u%s ratio %u%s\n", i + 1,
               wp->pool >= 0 ? cfg->pools[wp->pool].name : wp->name, wp->order,
               wp->order_written ? "" : " (default)", wp->ratio, wp->ratio_written ? "" : " (default)");
        if (wp->pool < 0)
            cli_gslb_printf(stdout, "      unresolved: no gtm pool %s %s\n",
                            wsel__gslb_type_word(w->type), wp->name);
        else
            explain_pool(cfg, (size_t)wp->pool, f, nf, "      ");
    }
    if (w->lrp >= 0) {
        bool listed = false;
        for (size_t i = 0; i < w->n_pools; i++)
            listed |= w->pools[i].pool == w->lrp;
        cli_gslb_printf(stdout, "  last-resort %s%s\n", cfg->pools[w->lrp].name,
               listed ? " (already listed above: runs once only)" : " (runs its whole chain even when unavailable)");
        if (!listed)
            explain_pool(cfg, (size_t)w->lrp, f, nf, "      ");
    }
    return cli_gslb_explain_topology(cfg, wi, NULL);
}

/* ---- --json: the same content through the one writer ---- */

/* KEY: {"value": V, "default": true|false} */
static void val_s(wsel__jw *j, const char *key, const char *v, int is_default)
{
    wsel__jw_kobj_begin(j, key);
    wsel__jw_kstr(j, "value", v);
    wsel__jw_kbool(j, "default", is_default);
    wsel__jw_obj_end(j);
}

static void val_u(wsel__jw *j, const char *key, unsigned long long v, int is_default)
{
    wsel__jw_kobj_begin(j, key);
    wsel__jw_ku64(j, "value", v);
    wsel__jw_kbool(j, "default", is_default);
    wsel__jw_obj_end(j);
}

/* "findings": the codes of the findings about `object`. */
static void codes_for(wsel__jw *j, const wsel_gslb_finding *f, size_t n, const char *object)
{
    wsel__jw_karr_begin(j, "findings");
    for (size_t i = 0; i < n; i++)
        if (!strcmp(f[i].object, object)) {
            char c[16];
            snprintf(c, sizeof c, "G%03u", f[i].code);
            wsel__jw_str(j, c);
        }
    wsel__jw_arr_end(j);
}

#define ISDEF(written, bit) (((written) & (bit)) == 0)

static void chain_json(wsel__jw *j, const wsel_gslb_pool *p)
{
    static const char *const kinds[] = {"static", "terminal", "routing", "srv", "path"};
    static const char *const steps[] = {"preferred", "alternate", "fallback"};
    wsel__jw_karr_begin(j, "chain");
    for (int s = 0; s < 3; s++) {
        const wsel_gslb_method_info *mi = wsel_gslb_method_get(p->mode[s]);
        wsel__jw_obj_begin(j);
        wsel__jw_kstr(j, "step", steps[s]);
        val_s(j, "method", mi->token, ISDEF(p->written, (unsigned)WSEL_GSLB_P_PREFERRED << s));
        wsel__jw_kstr(j, "kind", kinds[mi->kind]);
        wsel__jw_kstr(j, "fails", mi->fails);
        wsel__jw_obj_end(j);
    }
    wsel__jw_arr_end(j);
}

/* The members of pool pi's object (the caller opens and closes it). */
static void pool_json(wsel__jw *j, const wsel_gslb_config *cfg, size_t pi,
                      const wsel_gslb_finding *f, size_t nf)
{
    const wsel_gslb_pool *p = &cfg->pools[pi];
    char obj[400], fip[64] = "";
    wsel__gslb_obj_pool(cfg, pi, obj, sizeof obj);
    wsel__jw_kstr(j, "name", p->name);
    wsel__jw_kstr(j, "type", wsel_gslb_type_name(p->type));
    chain_json(j, p);
    if (p->fallback_ip.family)
        wsel_gslb_addr_str(&p->fallback_ip, fip, sizeof fip);
    val_s(j, "fallback_ip", p->fallback_ip.family ? fip : "unset",
          ISDEF(p->written, WSEL_GSLB_P_FALLBACK_IP));
    val_u(j, "verify_member_availability", p->verify, ISDEF(p->written, WSEL_GSLB_P_VERIFY));
    val_u(j, "dynamic_ratio", p->dynamic_ratio, ISDEF(p->written, WSEL_GSLB_P_DYNRATIO));
    val_u(j, "ttl", p->ttl, ISDEF(p->written, WSEL_GSLB_P_TTL));
    val_u(j, "max_answers_returned", p->max_answers, ISDEF(p->written, WSEL_GSLB_P_MAXANS));
    wsel__jw_kbool(j, "enabled", p->enabled);
    wsel__jw_karr_begin(j, "members");
    for (size_t m = 0; m < p->n_members; m++) {
        const wsel_gslb_member *mb = &p->members[m];
        char a[64];
        wsel__jw_obj_begin(j);
        wsel__jw_kstr(j, "key", mb->key);
        if (mb->vs >= 0) /* unresolved: omitted */
            wsel__jw_kstr(j, "address", wsel_gslb_addr_str(&cfg->vs[mb->vs].addr, a, sizeof a));
        val_u(j, "member_order", mb->order, !mb->order_written);
        val_u(j, "ratio", mb->ratio, !mb->ratio_written);
        wsel__jw_kbool(j, "enabled", mb->enabled);
        wsel__jw_obj_end(j);
    }
    wsel__jw_arr_end(j);
    codes_for(j, f, nf, obj);
}

static int wideip_json(wsel__jw *j, const wsel_gslb_config *cfg, size_t wi,
                       const wsel_gslb_finding *f, size_t nf)
{
    const wsel_gslb_wideip *w = &cfg->wideips[wi];
    char obj[400];
    wsel__gslb_obj_wideip(cfg, wi, obj, sizeof obj);
    wsel__jw_obj_begin(j);
    wsel__jw_kstr(j, "name", w->name);
    wsel__jw_kstr(j, "type", wsel_gslb_type_name(w->type));
    wsel__jw_karr_begin(j, "aliases");
    for (size_t a = 0; a < w->n_aliases; a++)
        wsel__jw_str(j, w->aliases[a]);
    wsel__jw_arr_end(j);
    val_s(j, "pool_lb_mode", wsel_gslb_method_get(w->lb_mode)->token, ISDEF(w->written, WSEL_GSLB_W_LBMODE));
    val_u(j, "persistence", w->persistence, ISDEF(w->written, WSEL_GSLB_W_PERSIST));
    val_u(j, "ttl_persistence", w->ttl_persistence, ISDEF(w->written, WSEL_GSLB_W_TTLP));
    val_u(j, "persist_cidr_ipv4", w->cidr4, ISDEF(w->written, WSEL_GSLB_W_CIDR4));
    val_u(j, "persist_cidr_ipv6", w->cidr6, ISDEF(w->written, WSEL_GSLB_W_CIDR6));
    if (w->lrp_name) /* none: omitted */
        wsel__jw_kstr(j, "last_resort_pool", w->lrp_name);
    val_u(j, "failure_rcode_response", w->rcode_response, ISDEF(w->written, WSEL_GSLB_W_RCODE_ON));
    val_s(j, "failure_rcode", wsel_gslb_rcode_name(w->rcode), ISDEF(w->written, WSEL_GSLB_W_RCODE));
    val_u(j, "failure_rcode_ttl", w->rcode_ttl, ISDEF(w->written, WSEL_GSLB_W_RCODE_TTL));
    wsel__jw_kstr(j, "fall_through", w->rcode_response ? "rcode" : "bind-aggregate|return-to-dns");
    wsel__jw_kbool(j, "enabled", w->enabled);
    wsel__jw_karr_begin(j, "pools");
    for (size_t i = 0; i < w->n_pools; i++) {
        const wsel_gslb_wpool *wp = &w->pools[i];
        wsel__jw_obj_begin(j);
        if (wp->pool >= 0)
            pool_json(j, cfg, (size_t)wp->pool, f, nf);
        else
            wsel__jw_kstr(j, "name", wp->name);
        val_u(j, "order", wp->order, !wp->order_written);
        val_u(j, "pool_ratio", wp->ratio, !wp->ratio_written);
        wsel__jw_kbool(j, "resolved", wp->pool >= 0);
        wsel__jw_obj_end(j);
    }
    wsel__jw_arr_end(j);
    int rc = cli_gslb_explain_topology(cfg, wi, j);
    codes_for(j, f, nf, obj);
    wsel__jw_obj_end(j);
    return rc;
}

/* ---- the command ---- */

/* The global settings and the findings not shown under a wide IP. */
static void explain_global(const wsel_gslb_config *cfg, const wsel_gslb_finding *f, size_t nf)
{
    printf("global: topology-longest-match %s%s  static-persist-cidr /%u%s, /%u%s\n",
           cfg->longest_match ? "yes" : "no", (cfg->global_written & 1) ? "" : " (default)",
           cfg->sp_cidr4, (cfg->global_written & 2) ? "" : " (default)", cfg->sp_cidr6,
           (cfg->global_written & 4) ? "" : " (default)");
    for (size_t i = 0; i < nf; i++)
        if (f[i].code == 30 || (f[i].code == 13 && !strncmp(f[i].object, "gtm topology", 12)) ||
            f[i].code == 29 || f[i].code == 21 || !strncmp(f[i].object, "gtm server", 10))
            cli_gslb_printf(stdout, "!G%03u %s: %s: %s\n", f[i].code,
                            cli_gslb_severity(f[i].severity), f[i].object, f[i].message);
}

/* The wide IPs named (idx[0..n)), or all when n is 0. 0, or -1 when out of memory. */
static int explain_all(const wsel_gslb_config *cfg, const long *idx, size_t n, int json,
                       const wsel_gslb_finding *f, size_t nf)
{
    wsel__jw j;
    if (json) {
        wsel__jw_init(&j, stdout);
        wsel__jw_obj_begin(&j);
        wsel__jw_karr_begin(&j, "wideips");
    }
    int rc = 0;
    for (size_t k = 0; k < (n ? n : cfg->n_wideips) && !rc; k++) {
        size_t w = n ? (size_t)idx[k] : k;
        rc = json ? wideip_json(&j, cfg, w, f, nf) : explain_wideip(cfg, w, f, nf);
    }
    if (rc)
        return rc;
    if (json) {
        wsel__jw_arr_end(&j);
        wsel__jw_obj_end(&j);
        cli_json_end(&j);
    } else if (!n) {
        explain_global(cfg, f, nf);
    }
    return 0;
}

int cli_gslb_explain(int argc, char **argv)
{
    const char *cmd = "gslb explain";
    cli_gslb_target t;
    int rc = cli_gslb_open_wideips(cmd, argc, argv, explain_usage, &t);
    if (rc)
        return rc < 0 ? CLI_OK : rc;
    wsel_gslb_finding *f = NULL;
    size_t nf = 0;
    if (!(rc = cli_gslb_lint(cmd, t.cfg, &f, &nf)) && explain_all(t.cfg, t.idx, t.n, t.json, f, nf))
        rc = cli_nomem(cmd);
    wsel_free(f);
    wsel_gslb_config_free(t.cfg);
    return rc;
}
