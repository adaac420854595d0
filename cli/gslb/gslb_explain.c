/* bin/wsel gslb explain: the resolved chain per wide IP (doc/gslb.md §8.1), every default
 * labelled "(default)", each layer's meaning in one line, the lint findings in place. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "gslb_cli.h"

static const char explain_usage[] =
    "usage: wsel gslb explain CONFIG [WIDEIP...] [--json]\n"
    "Prints, per wide IP (all when none is named): pool-lb-mode, persistence, last-resort\n"
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
            printf("%s!G%03u %s: %s\n", indent, f[i].code, cli_gslb_severity(f[i].severity),
                   f[i].message);
}

static void explain_pool(const wsel_gslb_config *cfg, size_t pi, const wsel_gslb_finding *f,
                         size_t nf, const char *indent)
{
    const wsel_gslb_pool *p = &cfg->pools[pi];
    char obj[400], codes[200], t0[80], t1[80], t2[80];
    snprintf(obj, sizeof obj, "gtm pool a %s", p->name);
    findings_for(f, nf, obj, codes, sizeof codes);
    printf("%sverify-member-availability %s%s  ttl %u%s  max-answers %u%s  members %zu%s%s\n", indent,
           p->verify ? "enabled" : "disabled", DEF(p->written, WSEL_GSLB_P_VERIFY), p->ttl,
           DEF(p->written, WSEL_GSLB_P_TTL), p->max_answers, DEF(p->written, WSEL_GSLB_P_MAXANS),
           p->n_members, p->enabled ? "" : "  DISABLED", codes);
    printf("%s  preferred %s%s %s -> alternate %s%s %s\n%s  -> fallback %s%s %s\n", indent,
           wsel_gslb_method_get(p->mode[0])->token, DEF(p->written, WSEL_GSLB_P_PREFERRED),
           kind_tag(p, 0, t0, sizeof t0), wsel_gslb_method_get(p->mode[1])->token,
           DEF(p->written, WSEL_GSLB_P_ALTERNATE), kind_tag(p, 1, t1, sizeof t1), indent,
           wsel_gslb_method_get(p->mode[2])->token, DEF(p->written, WSEL_GSLB_P_FALLBACK),
           kind_tag(p, 2, t2, sizeof t2));
    for (int s = 0; s < 3; s++) {
        const wsel_gslb_method_info *mi = wsel_gslb_method_get(p->mode[s]);
        if (mi->kind == WSEL_GSLB_KIND_STATIC || mi->kind == WSEL_GSLB_KIND_SRV ||
            mi->kind == WSEL_GSLB_KIND_PATH)
            printf("%s    %s %s fails when: %s\n", indent, s == 0 ? "preferred" : s == 1 ? "alternate" : "fallback",
                   mi->token, mi->fails);
    }
    const wsel_gslb_method_info *fm = wsel_gslb_method_get(p->mode[2]);
    if (fm->kind != WSEL_GSLB_KIND_TERMINAL && fm->kind != WSEL_GSLB_KIND_ROUTING)
        printf("%s    fallback %s\n", indent,
               p->verify ? "checks availability like the other steps (verify-member-availability); "
                           "if it fails too, the next pool runs"
                         : "ignores monitors, limits and dependencies (verify disabled): it may answer "
                           "with a member marked down");
    {
        static const char *const minup[] = {"off", "at-least", "percent"};
        char fip[64] = "unset";
        if (p->fallback_ip.family)
            wsel_gslb_addr_str(&p->fallback_ip, fip, sizeof fip);
        printf("%s  fallback-ip %s%s  dynamic-ratio %s%s  min-members-up %s%s", indent, fip,
               DEF(p->written, WSEL_GSLB_P_FALLBACK_IP), p->dynamic_ratio ? "enabled" : "disabled",
               DEF(p->written, WSEL_GSLB_P_DYNRATIO), minup[p->min_up_mode],
               DEF(p->written, WSEL_GSLB_P_MINUP));
        if (p->min_up_mode != WSEL_GSLB_MINUP_OFF)
            printf(" %u%s", p->min_up_value, DEF(p->written, WSEL_GSLB_P_MINUPV));
        printf("  manual-resume %s%s\n", p->manual_resume ? "enabled" : "disabled",
               DEF(p->written, WSEL_GSLB_P_MANUAL));
        bool qos = false;
        for (int s = 0; s < 3; s++)
            qos |= p->mode[s] == WSEL_GSLB_QOS;
        if (qos) {
            static const char *const qn[WSEL_GSLB_QOS_COUNT_] = {
                "rtt", "lcs", "hit-ratio", "kilobytes-second", "packet-rate", "hops", "topology",
                "vs-capacity", "vs-score"};
            printf("%s  qos", indent);
            for (int k = 0; k < WSEL_GSLB_QOS_COUNT_; k++)
                printf(" %s %u%s", qn[k], p->qos[k], DEF(p->qos_written, 1u << k));
            printf("\n");
        }
    }
    print_findings(f, nf, obj, indent);
    for (size_t m = 0; m < p->n_members; m++) {
        const wsel_gslb_member *mb = &p->members[m];
        char a[64] = "?";
        if (mb->vs >= 0)
            wsel_gslb_addr_str(&cfg->vs[mb->vs].addr, a, sizeof a);
        printf("%s    member %zu %s -> %s  member-order %u%s ratio %u%s%s\n", indent, m + 1, mb->key, a,
               mb->order, mb->order_written ? "" : " (default)", mb->ratio,
               mb->ratio_written ? "" : " (default)", mb->enabled ? "" : "  DISABLED");
    }
}

static void explain_wideip(const wsel_gslb_config *cfg, size_t wi, const wsel_gslb_finding *f,
                           size_t nf)
{
    const wsel_gslb_wideip *w = &cfg->wideips[wi];
    char obj[400], codes[200];
    snprintf(obj, sizeof obj, "gtm wideip a %s", w->name);
    findings_for(f, nf, obj, codes, sizeof codes);
    printf("wideip a %s  pool-lb-mode %s%s  persistence %s%s", w->name,
           wsel_gslb_method_get(w->lb_mode)->token, DEF(w->written, WSEL_GSLB_W_LBMODE),
           w->persistence ? "enabled" : "disabled", DEF(w->written, WSEL_GSLB_W_PERSIST));
    printf(" ttl %u%s cidr /%u%s, /%u%s", w->ttl_persistence, DEF(w->written, WSEL_GSLB_W_TTLP),
           w->cidr4, DEF(w->written, WSEL_GSLB_W_CIDR4), w->cidr6, DEF(w->written, WSEL_GSLB_W_CIDR6));
    printf("%s%s\n", w->enabled ? "" : "  DISABLED => return-to-dns (wideip-disabled)", codes);
    printf("  wide-IP layer: picks one available pool: %s%s\n", wide_meaning(w->lb_mode),
           w->n_pools == 1 ? " (irrelevant: one pool)" : "");
    printf("  pool layer: preferred; the alternate only when it fails; the fallback only when the "
           "alternate fails too\n");
    if (w->lrp_name)
        printf("  last-resort %s %s", w->lrp_type, w->lrp_name);
    else
        printf("  last-resort none (default)");
    printf("  failure-rcode-response %s%s", w->rcode_response ? "enabled" : "disabled",
           DEF(w->written, WSEL_GSLB_W_RCODE_ON));
    printf(" rcode %s%s ttl %u%s", wsel_gslb_rcode_name(w->rcode), DEF(w->written, WSEL_GSLB_W_RCODE),
           w->rcode_ttl, DEF(w->written, WSEL_GSLB_W_RCODE_TTL));
    if (w->rcode_response)
        printf(" => fall-through: rcode %s\n", wsel_gslb_rcode_name(w->rcode));
    else
        printf(" => fall-through: BIND aggregate (every pool unavailable) | return-to-dns\n");
    static const char *const lognames[] = {"pool-selection", "pool-traversal", "pool-member-selection",
                                           "pool-member-traversal"};
    printf("  decision log:");
    if (!w->log_flags)
        printf(" none");
    for (int i = 0; i < 4; i++)
        if (w->log_flags & (1u << i))
            printf(" %s", lognames[i]);
    printf("%s  topology-prefer-edns0-client-subnet %s%s\n", DEF(w->written, WSEL_GSLB_W_LOG),
           w->ecs ? "enabled" : "disabled", DEF(w->written, WSEL_GSLB_W_ECS));
    print_findings(f, nf, obj, "  ");
    for (size_t i = 0; i < w->n_pools; i++) {
        const wsel_gslb_wpool *wp = &w->pools[i];
        printf("  %zu %s order %u%s ratio %u%s\n", i + 1,
               wp->pool >= 0 ? cfg->pools[wp->pool].name : wp->name, wp->order,
               wp->order_written ? "" : " (default)", wp->ratio, wp->ratio_written ? "" : " (default)");
        if (wp->pool < 0)
            printf("      unresolved: no gtm pool a %s\n", wp->name);
        else
            explain_pool(cfg, (size_t)wp->pool, f, nf, "      ");
    }
    if (w->lrp >= 0) {
        bool listed = false;
        for (size_t i = 0; i < w->n_pools; i++)
            listed |= w->pools[i].pool == w->lrp;
        printf("  last-resort %s%s\n", cfg->pools[w->lrp].name,
               listed ? " (already listed above: runs once only)" : " (runs its whole chain even when unavailable)");
        if (!listed)
            explain_pool(cfg, (size_t)w->lrp, f, nf, "      ");
    }
}

/* ---- --json ---- */

static json_t *val_s(const char *v, int is_default)
{
    json_t *o = json_object();
    json_object_set_new(o, "value", json_string(v));
    json_object_set_new(o, "default", json_boolean(is_default));
    return o;
}

static json_t *val_u(unsigned long long v, int is_default)
{
    json_t *o = json_object();
    json_object_set_new(o, "value", json_integer((json_int_t)v));
    json_object_set_new(o, "default", json_boolean(is_default));
    return o;
}

static json_t *codes_for(const wsel_gslb_finding *f, size_t n, const char *object)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++)
        if (!strcmp(f[i].object, object)) {
            char c[8];
            snprintf(c, sizeof c, "G%03u", f[i].code);
            json_array_append_new(a, json_string(c));
        }
    return a;
}

#define ISDEF(written, bit) (((written) & (bit)) == 0)

static json_t *pool_json(const wsel_gslb_config *cfg, size_t pi, const wsel_gslb_finding *f, size_t nf)
{
    const wsel_gslb_pool *p = &cfg->pools[pi];
    static const char *const kinds[] = {"static", "terminal", "routing", "srv", "path"};
    static const char *const steps[] = {"preferred", "alternate", "fallback"};
    json_t *o = json_object(), *chain = json_array(), *mem = json_array();
    char obj[400], fip[64] = "";
    snprintf(obj, sizeof obj, "gtm pool a %s", p->name);
    json_object_set_new(o, "name", json_string(p->name));
    for (int s = 0; s < 3; s++) {
        const wsel_gslb_method_info *mi = wsel_gslb_method_get(p->mode[s]);
        json_t *e = json_object();
        json_object_set_new(e, "step", json_string(steps[s]));
        json_object_set_new(e, "method", val_s(mi->token, ISDEF(p->written, (unsigned)WSEL_GSLB_P_PREFERRED << s)));
        json_object_set_new(e, "kind", json_string(kinds[mi->kind]));
        json_object_set_new(e, "fails", json_string(mi->fails));
        json_array_append_new(chain, e);
    }
    json_object_set_new(o, "chain", chain);
    if (p->fallback_ip.family)
        wsel_gslb_addr_str(&p->fallback_ip, fip, sizeof fip);
    json_object_set_new(o, "fallback_ip", val_s(p->fallback_ip.family ? fip : "unset",
                                                ISDEF(p->written, WSEL_GSLB_P_FALLBACK_IP)));
    json_object_set_new(o, "verify_member_availability", val_u(p->verify, ISDEF(p->written, WSEL_GSLB_P_VERIFY)));
    json_object_set_new(o, "dynamic_ratio", val_u(p->dynamic_ratio, ISDEF(p->written, WSEL_GSLB_P_DYNRATIO)));
    json_object_set_new(o, "ttl", val_u(p->ttl, ISDEF(p->written, WSEL_GSLB_P_TTL)));
    json_object_set_new(o, "max_answers_returned", val_u(p->max_answers, ISDEF(p->written, WSEL_GSLB_P_MAXANS)));
    json_object_set_new(o, "enabled", json_boolean(p->enabled));
    for (size_t m = 0; m < p->n_members; m++) {
        const wsel_gslb_member *mb = &p->members[m];
        json_t *e = json_object();
        char a[64];
        json_object_set_new(e, "key", json_string(mb->key));
        if (mb->vs >= 0) /* unresolved: omitted */
            json_object_set_new(e, "address", json_string(wsel_gslb_addr_str(&cfg->vs[mb->vs].addr, a, sizeof a)));
        json_object_set_new(e, "member_order", val_u(mb->order, !mb->order_written));
        json_object_set_new(e, "ratio", val_u(mb->ratio, !mb->ratio_written));
        json_object_set_new(e, "enabled", json_boolean(mb->enabled));
        json_array_append_new(mem, e);
    }
    json_object_set_new(o, "members", mem);
    json_object_set_new(o, "findings", codes_for(f, nf, obj));
    return o;
}

static json_t *wideip_json(const wsel_gslb_config *cfg, size_t wi, const wsel_gslb_finding *f, size_t nf)
{
    const wsel_gslb_wideip *w = &cfg->wideips[wi];
    json_t *o = json_object(), *pools = json_array();
    char obj[400];
    snprintf(obj, sizeof obj, "gtm wideip a %s", w->name);
    json_object_set_new(o, "name", json_string(w->name));
    json_object_set_new(o, "pool_lb_mode", val_s(wsel_gslb_method_get(w->lb_mode)->token, ISDEF(w->written, WSEL_GSLB_W_LBMODE)));
    json_object_set_new(o, "persistence", val_u(w->persistence, ISDEF(w->written, WSEL_GSLB_W_PERSIST)));
    json_object_set_new(o, "ttl_persistence", val_u(w->ttl_persistence, ISDEF(w->written, WSEL_GSLB_W_TTLP)));
    json_object_set_new(o, "persist_cidr_ipv4", val_u(w->cidr4, ISDEF(w->written, WSEL_GSLB_W_CIDR4)));
    json_object_set_new(o, "persist_cidr_ipv6", val_u(w->cidr6, ISDEF(w->written, WSEL_GSLB_W_CIDR6)));
    if (w->lrp_name) /* none: omitted */
        json_object_set_new(o, "last_resort_pool", json_string(w->lrp_name));
    json_object_set_new(o, "failure_rcode_response", val_u(w->rcode_response, ISDEF(w->written, WSEL_GSLB_W_RCODE_ON)));
    json_object_set_new(o, "failure_rcode", val_s(wsel_gslb_rcode_name(w->rcode), ISDEF(w->written, WSEL_GSLB_W_RCODE)));
    json_object_set_new(o, "failure_rcode_ttl", val_u(w->rcode_ttl, ISDEF(w->written, WSEL_GSLB_W_RCODE_TTL)));
    json_object_set_new(o, "fall_through", json_string(w->rcode_response ? "rcode" : "bind-aggregate|return-to-dns"));
    json_object_set_new(o, "enabled", json_boolean(w->enabled));
    for (size_t i = 0; i < w->n_pools; i++) {
        const wsel_gslb_wpool *wp = &w->pools[i];
        json_t *e = wp->pool >= 0 ? pool_json(cfg, (size_t)wp->pool, f, nf) : json_object();
        if (wp->pool < 0)
            json_object_set_new(e, "name", json_string(wp->name));
        json_object_set_new(e, "order", val_u(wp->order, !wp->order_written));
        json_object_set_new(e, "pool_ratio", val_u(wp->ratio, !wp->ratio_written));
        json_object_set_new(e, "resolved", json_boolean(wp->pool >= 0));
        json_array_append_new(pools, e);
    }
    json_object_set_new(o, "pools", pools);
    json_object_set_new(o, "findings", codes_for(f, nf, obj));
    return o;
}

int cli_gslb_explain(int argc, char **argv)
{
    const char *cmd = "gslb explain";
    const char *path = NULL;
    const char *names[64];
    size_t n_names = 0;
    int done = 0, json = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int k = cli_gslb_arg(a, &done, &json, explain_usage);
        if (k == CLI_GSLB_HELP)
            return CLI_OK;
        if (k == CLI_GSLB_TAKEN)
            continue;
        if (k == CLI_GSLB_OPTION) {
            return cli_die(cmd, "unknown option '%s'", a);
        } else if (!path) {
            path = a;
        } else if (n_names < 64) {
            names[n_names++] = a;
        } else
            return cli_die(cmd, "more than 64 wide IPs named");
    }
    if (!path)
        return cli_die(cmd, "missing CONFIG (see wsel gslb explain --help)");
    wsel_gslb_config *cfg;
    int rc = cli_gslb_load(cmd, path, &cfg);
    if (rc)
        return rc;
    long idx[64];
    for (size_t k = 0; k < n_names; k++)
        if ((rc = cli_gslb_find_wideip(cmd, cfg, names[k], path, &idx[k]))) {
            wsel_gslb_config_free(cfg);
            return rc;
        }
    wsel_gslb_finding *f;
    size_t nf;
    wsel_error err;
    if (wsel_gslb_lint(cfg, &f, &nf, &err)) {
        wsel_gslb_config_free(cfg);
        return cli_die(cmd, "%s", err.message);
    }
    if (json) {
        json_t *root = json_object(), *arr = json_array();
        if (n_names)
            for (size_t k = 0; k < n_names; k++)
                json_array_append_new(arr, wideip_json(cfg, (size_t)idx[k], f, nf));
        else
            for (size_t w = 0; w < cfg->n_wideips; w++)
                json_array_append_new(arr, wideip_json(cfg, w, f, nf));
        json_object_set_new(root, "wideips", arr);
        char *text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
        json_decref(root);
        free(f);
        wsel_gslb_config_free(cfg);
        if (!text)
            return cli_nomem(cmd);
        puts(text);
        free(text);
        return CLI_OK;
    }
    if (n_names)
        for (size_t k = 0; k < n_names; k++)
            explain_wideip(cfg, (size_t)idx[k], f, nf);
    else
        for (size_t w = 0; w < cfg->n_wideips; w++)
            explain_wideip(cfg, w, f, nf);
    if (!n_names) {
        printf("global: topology-longest-match %s%s  static-persist-cidr /%u%s, /%u%s\n",
               cfg->longest_match ? "yes" : "no", (cfg->global_written & 1) ? "" : " (default)",
               cfg->sp_cidr4, (cfg->global_written & 2) ? "" : " (default)", cfg->sp_cidr6,
               (cfg->global_written & 4) ? "" : " (default)");
        for (size_t i = 0; i < nf; i++)
            if (f[i].code == 30 || (f[i].code == 13 && !strncmp(f[i].object, "gtm topology", 12)) ||
                f[i].code == 29 || f[i].code == 21 || !strncmp(f[i].object, "gtm server", 10))
                printf("!G%03u %s: %s: %s\n", f[i].code, cli_gslb_severity(f[i].severity),
                       f[i].object, f[i].message);
    }
    free(f);
    wsel_gslb_config_free(cfg);
    return CLI_OK;
}
