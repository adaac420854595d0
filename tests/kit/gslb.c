/* The GSLB chain's part of the kit (doc/gslb.md) and its system-table entry.
 *
 * A generated case is one wide IP over 1..4 pools of 1..6 members each, every pool with
 * a static method (round-robin, ratio, global-availability) and a static alternate, and
 * some members marked down in the inputs. The engine draws no random words (static
 * methods are deterministic; their state moves from query to query), so a query
 * consumes 0 words. The chain has only its reference engine: the generic loops check its
 * answers against the invariants below (doc/gslb.md §9, the properties of the verification
 * suite), not against other variants. */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit_gslb.h"
#include "kit_system.h"

#define G_POOLS 4
#define G_MEMBERS 6

typedef struct gcase {
    char text[4224];                       /* the config, then the inputs, for reports */
    wsel_gslb_config *cfg;
    wsel_gslb_inputs *in;
    wsel_gslb_state *st;
    bool up[G_POOLS][G_MEMBERS];           /* what the inputs say, per pool and member */
    unsigned n_members[G_POOLS];
    wsel_gslb_outcome last;
    bool have_last;
} gcase;

static void g_case_free(void *p)
{
    gcase *c = p;
    if (!c)
        return;
    wsel_gslb_state_free(c->st);
    wsel_gslb_inputs_free(c->in);
    wsel_gslb_config_free(c->cfg);
    free(c);
}

/* Appends to buf (len bytes) at *pos; false when it does not fit. */
static bool put(char *buf, size_t len, size_t *pos, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + *pos, len - *pos, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= len - *pos)
        return false;
    *pos += (size_t)n;
    return true;
}

static void *g_case_new(uint64_t seed, char *why, size_t len)
{
    static const char *const modes[] = {"round-robin", "ratio", "global-availability"};
    static const char *const alternates[] = {"drop-packet", "return-to-dns", "none"};
    gcase *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(why, len, "out of memory");
        return NULL;
    }
    uint64_t rs = seed ^ 0x65b1d0c4;
    unsigned np = (unsigned)wsel_kit_range(&rs, 1, G_POOLS);
    char conf[3072], json[1024];
    size_t cp = 0, jp = 0;
    bool ok = put(conf, sizeof conf, &cp,
                  "gtm server /Common/s1 { datacenter /Common/DC1 product bigip "
                  "virtual-servers {\n");
    for (unsigned v = 0; ok && v < G_POOLS * G_MEMBERS; v++)
        ok = put(conf, sizeof conf, &cp, "  v%u { destination 10.0.%u.%u:80 }\n", v + 1,
                 v / 200, 1 + v % 200);
    ok = ok && put(conf, sizeof conf, &cp, "} }\n");
    ok = ok && put(json, sizeof json, &jp, "{\"members\": {");
    bool first_json = true;
    for (unsigned p = 0; ok && p < np; p++) {
        c->n_members[p] = (unsigned)wsel_kit_range(&rs, 1, G_MEMBERS);
        ok = put(conf, sizeof conf, &cp,
                 "gtm pool a p%u { load-balancing-mode %s alternate-mode %s members {", p,
                 modes[wsel_kit_range(&rs, 0, 2)], alternates[wsel_kit_range(&rs, 0, 2)]);
        for (unsigned m = 0; ok && m < c->n_members[p]; m++) {
            unsigned vs = 1 + p * G_MEMBERS + m;
            c->up[p][m] = wsel_kit_range(&rs, 0, 3) != 0;
            ok = put(conf, sizeof conf, &cp, " s1:v%u { ratio %u }", vs,
                     (unsigned)wsel_kit_range(&rs, 0, 4)) &&
                 put(json, sizeof json, &jp, "%s\"s1:v%u\": {\"up\": %s}", first_json ? "" : ", ",
                     vs, c->up[p][m] ? "true" : "false");
            first_json = false;
        }
        ok = ok && put(conf, sizeof conf, &cp, " } }\n");
    }
    ok = ok && put(conf, sizeof conf, &cp, "gtm wideip a w { pool-lb-mode %s pools {",
                   modes[wsel_kit_range(&rs, 0, 2)]);
    for (unsigned p = 0; ok && p < np; p++)
        ok = put(conf, sizeof conf, &cp, " p%u { order %u }", p, p);
    ok = ok && put(conf, sizeof conf, &cp, " } }\n") && put(json, sizeof json, &jp, "}}");
    if (!ok) {
        snprintf(why, len, "seed %llu: generated case too long", (unsigned long long)seed);
        g_case_free(c);
        return NULL;
    }
    size_t tp = 0;
    put(c->text, sizeof c->text, &tp, "%s-- inputs: %s", conf, json);

    wsel_error err;
    wsel_error_clear(&err);
    int rc = wsel_gslb_config_load_buffer("kit-gslb", conf, cp, &c->cfg, &err);
    if (rc == WSEL_OK)
        rc = wsel_gslb_inputs_load_buffer(c->cfg, "kit-gslb-inputs", json, jp, &c->in, &err);
    if (rc == WSEL_OK)
        rc = wsel_gslb_state_new(c->cfg, c->in, &c->st, &err);
    return wsel_kit_case_done(c, rc, g_case_free, seed, &err, why, len);
}

/* A query moves the state (round-robin pointers and the like); the config and the
 * inputs it only reads: a reset starts a new state from them and drops the last
 * outcome. */
static int g_case_reset(void *p)
{
    gcase *c = p;
    wsel_gslb_state_free(c->st);
    c->st = NULL;
    c->have_last = false;
    wsel_error err;
    return wsel_gslb_state_new(c->cfg, c->in, &c->st, &err);
}

static const char *g_case_text(const void *p)
{
    return ((const gcase *)p)->text;
}

static size_t g_queries(const void *p)
{
    (void)p;
    return 1; /* the wide IP */
}

static size_t g_words(const void *p, size_t q)
{
    (void)p;
    (void)q;
    return 0;
}

static int g_query(void *p, const char *variant, size_t q, wsel_rng *rng)
{
    gcase *c = p;
    (void)rng;
    c->have_last = false;
    if (variant || q != 0)
        return WSEL_E_UNSUPPORTED;
    wsel_error err;
    int rc = wsel_gslb_resolve(c->cfg, 0, c->in, c->st, NULL, &c->last, &err);
    c->have_last = rc == WSEL_OK;
    return rc;
}

static int g_run(void *p, const char *variant, size_t q, wsel_rng *rng, char *out, size_t len)
{
    gcase *c = p;
    int rc = g_query(c, variant, q, rng);
    if (rc != WSEL_OK) {
        snprintf(out, len, "%s", wsel_strerror(rc));
        return rc;
    }
    size_t pos = 0;
    put(out, len, &pos, "%s", wsel_gslb_outcome_name(c->last.kind));
    if (c->last.kind == WSEL_GSLB_O_ANSWER) {
        put(out, len, &pos, " pool p%ld %s", c->last.pool, wsel_gslb_step_name(c->last.step));
        for (size_t i = 0; i < c->last.n_addrs; i++) {
            char a[64];
            put(out, len, &pos, " %s", wsel_gslb_addr_str(&c->last.addrs[i], a, sizeof a));
        }
    }
    return WSEL_OK;
}

/* Every answer names members of the pool that answered; a pool's preferred and
 * alternate steps never answer with a member the inputs mark down. */
static const char *g_check(const void *p, char *buf, size_t len)
{
    const gcase *c = p;
    if (!c->have_last)
        return NULL;
    const wsel_gslb_outcome *o = &c->last;
    if (o->kind != WSEL_GSLB_O_ANSWER)
        return NULL;
    if (o->pool < 0 || o->pool >= G_POOLS || o->n_addrs == 0) {
        snprintf(buf, len, "answer from pool %ld with %zu addresses", o->pool, o->n_addrs);
        return buf;
    }
    for (size_t i = 0; i < o->n_addrs; i++) {
        long m = o->members[i];
        if (m < 0 || (unsigned long)m >= c->n_members[o->pool]) {
            snprintf(buf, len, "answer names member %ld of pool p%ld (%u members)", m, o->pool,
                     c->n_members[o->pool]);
            return buf;
        }
        bool chain_step = o->pool_step == WSEL_GSLB_STEP_PREFERRED ||
                          o->pool_step == WSEL_GSLB_STEP_ALTERNATE;
        if (chain_step && !c->up[o->pool][m]) {
            snprintf(buf, len, "pool p%ld's %s step answered member %ld, which is down",
                     o->pool, wsel_gslb_step_name(o->pool_step), m);
            return buf;
        }
    }
    return NULL;
}

static size_t g_boundary(const void *p, size_t q, uint64_t *out, size_t max)
{
    (void)p;
    (void)q;
    (void)out;
    (void)max;
    return 0; /* no random words, so no word edges */
}

const wsel_kit_system wsel_kit_system_gslb = {
    .name = "gslb",
    .case_new = g_case_new,
    .case_free = g_case_free,
    .case_reset = g_case_reset,
    .case_text = g_case_text,
    .queries = g_queries,
    .words = g_words,
    .run = g_run,
    .query = g_query,
    .check = g_check,
    .boundary = g_boundary,
};

/* ---- round trip: render the model, read it again (doc/gslb.md §9, property 14) ---- */

static void r_name(wsel_kit_sbuf *b, const char *s)
{
    wsel_kit_sb_printf(b, "\"");
    for (; *s; s++)
        wsel_kit_sb_printf(b, "%s%c", *s == '"' || *s == '\\' ? "\\" : "", *s);
    wsel_kit_sb_printf(b, "\"");
}

static void r_addr(wsel_kit_sbuf *b, const wsel_gslb_addr *a)
{
    char t[64];
    wsel_kit_sb_printf(b, "%s", wsel_gslb_addr_str(a, t, sizeof t));
}

static void r_flag(wsel_kit_sbuf *b, bool on)
{
    wsel_kit_sb_printf(b, " %s", on ? "enabled" : "disabled");
}

static void r_server(wsel_kit_sbuf *b, const wsel_gslb_config *c, size_t si)
{
    const wsel_gslb_server *s = &c->servers[si];
    wsel_kit_sb_printf(b, "gtm server ");
    r_name(b, s->name);
    wsel_kit_sb_printf(b, " {");
    r_flag(b, s->enabled);
    if (s->datacenter) {
        wsel_kit_sb_printf(b, " datacenter ");
        r_name(b, s->datacenter);
    }
    if (s->product) {
        wsel_kit_sb_printf(b, " product ");
        r_name(b, s->product);
    }
    if (s->n_vs) {
        wsel_kit_sb_printf(b, "\n  virtual-servers {\n");
        for (size_t v = s->first_vs; v < s->first_vs + s->n_vs; v++) {
            const wsel_gslb_vs *vs = &c->vs[v];
            wsel_kit_sb_printf(b, "    ");
            r_name(b, vs->name);
            wsel_kit_sb_printf(b, " { destination ");
            r_addr(b, &vs->addr);
            wsel_kit_sb_printf(b, "%c%u", vs->addr.family == 6 ? '.' : ':', vs->port);
            r_flag(b, vs->enabled);
            if (vs->n_depends) {
                wsel_kit_sb_printf(b, " depends-on {");
                for (size_t d = 0; d < vs->n_depends; d++) {
                    wsel_kit_sb_printf(b, " ");
                    r_name(b, vs->depends_text[d]);
                }
                wsel_kit_sb_printf(b, " }");
            }
            wsel_kit_sb_printf(b, " }\n");
        }
        wsel_kit_sb_printf(b, "  }\n");
    }
    wsel_kit_sb_printf(b, "}\n");
}

/* A scalar attribute the renderer writes when its bit of `written` is set:
 * "KEY enabled|disabled" for a bool field, "KEY N" for an unsigned one. */
typedef struct rattr {
    unsigned bit;
    const char *key;
    bool is_bool;
    size_t off;
} rattr;

static void r_scalars(wsel_kit_sbuf *b, const rattr *t, size_t n, const void *obj,
                      unsigned written)
{
    for (size_t i = 0; i < n; i++) {
        if (!(written & t[i].bit))
            continue;
        const void *f = (const char *)obj + t[i].off;
        if (t[i].is_bool)
            wsel_kit_sb_printf(b, " %s %s", t[i].key, *(const bool *)f ? "enabled" : "disabled");
        else
            wsel_kit_sb_printf(b, " %s %u", t[i].key, *(const unsigned *)f);
    }
}

/* " NAME { [ORDER_KEY N] [ratio N] }" of a member or a wide IP's pool. */
static void r_entry(wsel_kit_sbuf *b, const char *name, const char *flag_or_null,
                    const char *order_key, bool order_written, unsigned order,
                    bool ratio_written, unsigned ratio)
{
    wsel_kit_sb_printf(b, "    ");
    r_name(b, name);
    wsel_kit_sb_printf(b, " {%s", flag_or_null ? flag_or_null : "");
    if (order_written)
        wsel_kit_sb_printf(b, " %s %u", order_key, order);
    if (ratio_written)
        wsel_kit_sb_printf(b, " ratio %u", ratio);
    wsel_kit_sb_printf(b, " }\n");
}

static void r_pool(wsel_kit_sbuf *b, const wsel_gslb_pool *pl)
{
    static const char *const steps[3] = {"load-balancing-mode", "alternate-mode", "fallback-mode"};
    static const char *const qos[WSEL_GSLB_QOS_COUNT_] = {
        "qos-rtt", "qos-lcs", "qos-hit-ratio", "qos-kilobytes-second", "qos-packet-rate",
        "qos-hops", "qos-topology", "qos-vs-capacity", "qos-vs-score"};
    static const char *const minup[3] = {"off", "at-least", "percent"};
#define P_(f) offsetof(wsel_gslb_pool, f)
    static const rattr pool_scalars[] = {
        {WSEL_GSLB_P_VERIFY, "verify-member-availability", true, P_(verify)},
        {WSEL_GSLB_P_DYNRATIO, "dynamic-ratio", true, P_(dynamic_ratio)},
        {WSEL_GSLB_P_MANUAL, "manual-resume", true, P_(manual_resume)},
        {WSEL_GSLB_P_MAXANS, "max-answers-returned", false, P_(max_answers)},
        {WSEL_GSLB_P_TTL, "ttl", false, P_(ttl)}};
    static const rattr minup_value = {WSEL_GSLB_P_MINUPV, "min-members-up-value", false,
                                      P_(min_up_value)};
#undef P_
    unsigned w = pl->written;
    wsel_kit_sb_printf(b, "gtm pool %s ", pl->type == WSEL_GSLB_TYPE_AAAA ? "aaaa" : "a");
    r_name(b, pl->name);
    wsel_kit_sb_printf(b, " {\n ");
    if (w & WSEL_GSLB_P_ENABLED)
        r_flag(b, pl->enabled);
    for (int s = 0; s < 3; s++)
        if (w & (WSEL_GSLB_P_PREFERRED << s))
            wsel_kit_sb_printf(b, " %s %s", steps[s], wsel_gslb_method_get(pl->mode[s])->token);
    if (w & WSEL_GSLB_P_FALLBACK_IP) {
        wsel_kit_sb_printf(b, " fallback-ip ");
        if (pl->fallback_ip.family)
            r_addr(b, &pl->fallback_ip);
        else
            wsel_kit_sb_printf(b, "any");
    }
    r_scalars(b, pool_scalars, sizeof pool_scalars / sizeof pool_scalars[0], pl, w);
    if (w & WSEL_GSLB_P_MINUP)
        wsel_kit_sb_printf(b, " min-members-up-mode %s", minup[pl->min_up_mode]);
    r_scalars(b, &minup_value, 1, pl, w);
    for (int q = 0; q < WSEL_GSLB_QOS_COUNT_; q++)
        if (pl->qos_written & (1u << q))
            wsel_kit_sb_printf(b, " %s %u", qos[q], pl->qos[q]);
    wsel_kit_sb_printf(b, "\n  members {\n");
    for (size_t m = 0; m < pl->n_members; m++) {
        const wsel_gslb_member *mb = &pl->members[m];
        r_entry(b, mb->key, mb->enabled ? " enabled" : " disabled", "member-order",
                mb->order_written, mb->order, mb->ratio_written, mb->ratio);
    }
    wsel_kit_sb_printf(b, "  }\n}\n");
}

static void r_wideip(wsel_kit_sbuf *b, const wsel_gslb_wideip *wi)
{
    static const char *const rcodes[] = {"noerror", "formerr", "servfail", "nxdomain",
                                         "notimpl", "refused", "yxdomain", "yxrrset",
                                         "nxrrset", "notauth", "notzone"};
    static const char *const logs[4] = {"pool-selection", "pool-traversal",
                                        "pool-member-selection", "pool-member-traversal"};
#define W_(f) offsetof(wsel_gslb_wideip, f)
    static const rattr scalars[] = {
        {WSEL_GSLB_W_PERSIST, "persistence", true, W_(persistence)},
        {WSEL_GSLB_W_TTLP, "ttl-persistence", false, W_(ttl_persistence)},
        {WSEL_GSLB_W_CIDR4, "persist-cidr-ipv4", false, W_(cidr4)},
        {WSEL_GSLB_W_CIDR6, "persist-cidr-ipv6", false, W_(cidr6)},
        {WSEL_GSLB_W_RCODE_ON, "failure-rcode-response", true, W_(rcode_response)}};
    static const rattr scalars_after[] = {
        {WSEL_GSLB_W_RCODE_TTL, "failure-rcode-ttl", false, W_(rcode_ttl)},
        {WSEL_GSLB_W_ECS, "topology-prefer-edns0-client-subnet", true, W_(ecs)}};
#undef W_
    unsigned w = wi->written;
    wsel_kit_sb_printf(b, "gtm wideip %s ", wi->type == WSEL_GSLB_TYPE_AAAA ? "aaaa" : "a");
    r_name(b, wi->name);
    wsel_kit_sb_printf(b, " {\n ");
    if (w & WSEL_GSLB_W_ENABLED)
        r_flag(b, wi->enabled);
    if (w & WSEL_GSLB_W_LBMODE)
        wsel_kit_sb_printf(b, " pool-lb-mode %s", wsel_gslb_method_get(wi->lb_mode)->token);
    r_scalars(b, scalars, sizeof scalars / sizeof scalars[0], wi, w);
    if (w & WSEL_GSLB_W_RCODE)
        wsel_kit_sb_printf(b, " failure-rcode %s", rcodes[wi->rcode]);
    r_scalars(b, scalars_after, sizeof scalars_after / sizeof scalars_after[0], wi, w);
    if (w & WSEL_GSLB_W_LOG) {
        wsel_kit_sb_printf(b, " load-balancing-decision-log-verbosity {");
        for (unsigned i = 0; i < 4; i++)
            if (wi->log_flags & (1u << i))
                wsel_kit_sb_printf(b, " %s", logs[i]);
        wsel_kit_sb_printf(b, "%s }", wi->log_flags ? "" : " none");
    }
    if (w & WSEL_GSLB_W_LRP) {
        wsel_kit_sb_printf(b, " last-resort-pool ");
        if (wi->lrp_type) {
            r_name(b, wi->lrp_type);
            wsel_kit_sb_printf(b, " ");
            r_name(b, wi->lrp_name);
        } else {
            wsel_kit_sb_printf(b, "none");
        }
    }
    wsel_kit_sb_printf(b, "\n  pools {\n");
    for (size_t k = 0; k < wi->n_pools; k++) {
        const wsel_gslb_wpool *wp = &wi->pools[k];
        r_entry(b, wp->name, NULL, "order", wp->order_written, wp->order, wp->ratio_written,
                wp->ratio);
    }
    wsel_kit_sb_printf(b, "  }\n}\n");
}

bool wsel_kit_gslb_render(const wsel_gslb_config *c, wsel_kit_sbuf *b)
{
    if (c->n_topo || c->n_regions || c->global_written || c->n_unknown ||
        c->skipped_statements || c->version)
        return false;
    for (size_t w = 0; w < c->n_wideips; w++)
        if (c->wideips[w].has_rules)
            return false;
    for (size_t s = 0; s < c->n_servers; s++)
        r_server(b, c, s);
    for (size_t p = 0; p < c->n_pools; p++)
        r_pool(b, &c->pools[p]);
    for (size_t w = 0; w < c->n_wideips; w++)
        r_wideip(b, &c->wideips[w]);
    return !b->oom;
}

#define D_DIFF(cond, ...)                                                                \
    do {                                                                                 \
        if (cond) {                                                                      \
            snprintf(buf, len, __VA_ARGS__);                                             \
            return buf;                                                                  \
        }                                                                                \
    } while (0)

static bool str_eq(const char *x, const char *y)
{
    return (!x && !y) || (x && y && !strcmp(x, y));
}

static bool addr_eq(const wsel_gslb_addr *x, const wsel_gslb_addr *y)
{
    return x->family == y->family && !memcmp(x->bytes, y->bytes, sizeof x->bytes);
}

const char *wsel_kit_gslb_diff(const wsel_gslb_config *a, const wsel_gslb_config *b, char *buf,
                               size_t len)
{
    D_DIFF(a->n_servers != b->n_servers || a->n_vs != b->n_vs || a->n_pools != b->n_pools ||
               a->n_wideips != b->n_wideips,
           "object counts differ");
    for (size_t s = 0; s < a->n_servers; s++) {
        const wsel_gslb_server *x = &a->servers[s], *y = &b->servers[s];
        D_DIFF(!str_eq(x->name, y->name) || !str_eq(x->datacenter, y->datacenter) ||
                   !str_eq(x->product, y->product) || x->enabled != y->enabled ||
                   x->first_vs != y->first_vs || x->n_vs != y->n_vs,
               "server %s differs", x->name);
    }
    for (size_t v = 0; v < a->n_vs; v++) {
        const wsel_gslb_vs *x = &a->vs[v], *y = &b->vs[v];
        D_DIFF(!str_eq(x->name, y->name) || x->server != y->server || !addr_eq(&x->addr, &y->addr) ||
                   x->port != y->port || x->enabled != y->enabled || x->n_depends != y->n_depends,
               "virtual server %s differs", x->name);
        for (size_t d = 0; d < x->n_depends; d++)
            D_DIFF(!str_eq(x->depends_text[d], y->depends_text[d]) || x->depends[d] != y->depends[d],
                   "virtual server %s: depends-on %zu differs", x->name, d);
    }
    for (size_t p = 0; p < a->n_pools; p++) {
        const wsel_gslb_pool *x = &a->pools[p], *y = &b->pools[p];
        D_DIFF(!str_eq(x->name, y->name) || memcmp(x->mode, y->mode, sizeof x->mode) ||
                   !addr_eq(&x->fallback_ip, &y->fallback_ip) || x->verify != y->verify ||
                   x->dynamic_ratio != y->dynamic_ratio || x->enabled != y->enabled ||
                   x->manual_resume != y->manual_resume || x->max_answers != y->max_answers ||
                   x->ttl != y->ttl || memcmp(x->qos, y->qos, sizeof x->qos) ||
                   x->min_up_mode != y->min_up_mode || x->min_up_value != y->min_up_value ||
                   x->n_members != y->n_members || x->written != y->written ||
                   x->qos_written != y->qos_written || x->type != y->type,
               "pool %s differs", x->name);
        for (size_t m = 0; m < x->n_members; m++) {
            const wsel_gslb_member *u = &x->members[m], *t = &y->members[m];
            D_DIFF(!str_eq(u->key, t->key) || u->vs != t->vs || u->order != t->order ||
                       u->ratio != t->ratio || u->enabled != t->enabled ||
                       u->order_written != t->order_written || u->ratio_written != t->ratio_written,
                   "pool %s: member %zu (%s) differs", x->name, m, u->key);
        }
    }
    for (size_t w = 0; w < a->n_wideips; w++) {
        const wsel_gslb_wideip *x = &a->wideips[w], *y = &b->wideips[w];
        D_DIFF(!str_eq(x->name, y->name) || x->lb_mode != y->lb_mode || x->n_pools != y->n_pools ||
                   x->persistence != y->persistence || x->rcode_response != y->rcode_response ||
                   x->ecs != y->ecs || x->enabled != y->enabled ||
                   x->ttl_persistence != y->ttl_persistence || x->cidr4 != y->cidr4 ||
                   x->cidr6 != y->cidr6 || !str_eq(x->lrp_type, y->lrp_type) ||
                   !str_eq(x->lrp_name, y->lrp_name) || x->lrp != y->lrp || x->rcode != y->rcode ||
                   x->rcode_ttl != y->rcode_ttl || x->log_flags != y->log_flags ||
                   x->written != y->written || x->type != y->type,
               "wide IP %s differs", x->name);
        for (size_t k = 0; k < x->n_pools; k++) {
            const wsel_gslb_wpool *u = &x->pools[k], *t = &y->pools[k];
            D_DIFF(!str_eq(u->name, t->name) || u->pool != t->pool || u->order != t->order ||
                       u->ratio != t->ratio || u->order_written != t->order_written ||
                       u->ratio_written != t->ratio_written,
                   "wide IP %s: pool %zu (%s) differs", x->name, k, u->name);
        }
    }
    return NULL;
}

/* One attribute the round-trip generator may write: KEY CHOICE or KEY N (lo..hi); no key:
 * the choice alone (a flag). `alt`: another spelling of the key, used half the time. */
typedef struct gattr {
    const char *key;
    const char *const *choices;
    unsigned n_choices, lo, hi;
    const char *alt;
} gattr;

/* Writes each attribute of tab or not, at random. */
static void g_attrs(wsel_kit_sbuf *b, uint64_t *r, const gattr *tab, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const gattr *a = &tab[i];
        if (!wsel_kit_range(r, 0, 1))
            continue;
        const char *key = a->alt && wsel_kit_range(r, 0, 1) ? a->alt : a->key;
        wsel_kit_sb_printf(b, " %s%s", key ? key : "", key ? " " : "");
        if (a->choices)
            wsel_kit_sb_printf(b, "%s", a->choices[wsel_kit_range(r, 0, a->n_choices - 1)]);
        else
            wsel_kit_sb_printf(b, "%u", (unsigned)wsel_kit_range(r, a->lo, a->hi));
    }
}

/* A list entry " NAME { attributes }", NAME with or without /Common/ at random. */
static void g_entry(wsel_kit_sbuf *b, uint64_t *r, const char *name, const gattr *tab, size_t n)
{
    wsel_kit_sb_printf(b, " %s%s {", wsel_kit_range(r, 0, 1) ? "/Common/" : "", name);
    g_attrs(b, r, tab, n);
    wsel_kit_sb_printf(b, " }");
}

/* A config for the round trip: 1..3 servers of 1..4 virtual servers (IPv4 and IPv6, some
 * disabled, some depending on another), 1..4 pools and 1..3 wide IPs, each attribute
 * written or left to its default at random, names with and without /Common/. */
void wsel_kit_gslb_gen_config(uint64_t seed, wsel_kit_sbuf *b)
{
    static const char *const pm[] = {"round-robin", "ratio", "global-availability", "topology",
                                     "static-persistence", "lowest-round-trip-time",
                                     "quality-of-service", "completion-rate", "virtual-server-score"};
    static const char *const am[] = {"round-robin", "ratio", "global-availability", "none",
                                     "drop-packet", "return-to-dns", "fallback-ip", "packet-rate"};
    static const char *const wm[] = {"round-robin", "ratio", "topology", "global-availability"};
    static const char *const rc[] = {"noerror", "servfail", "nxdomain", "refused"};
    static const char *const onoff[] = {"enabled", "disabled"};
    static const char *const fip[] = {"192.0.2.9", "any", "2001:db8::9"};
    static const char *const minup[] = {"at-least", "percent"};
    static const char *const logs[] = {"{ pool-selection pool-member-traversal }", "{ none }"};
    static const gattr pool_attrs[] = {
        {NULL, onoff, 2, 0, 0, NULL},           {"load-balancing-mode", pm, 9, 0, 0, NULL},
        {"alternate-mode", am, 8, 0, 0, NULL},  {"fallback-mode", am, 8, 0, 0, NULL},
        {"fallback-ip", fip, 3, 0, 0, NULL},    {"verify-member-availability", onoff, 2, 0, 0, NULL},
        {"dynamic-ratio", onoff, 2, 0, 0, NULL}, {"max-answers-returned", NULL, 0, 1, 500, NULL},
        {"ttl", NULL, 0, 0, 86400, NULL},       {"min-members-up-mode", minup, 2, 0, 0, NULL},
        {"min-members-up-value", NULL, 0, 0, 100, NULL}, {"qos-rtt", NULL, 0, 0, 99, NULL},
        {"qos-kilobytes-second", NULL, 0, 0, 9, "qos-kbps"}};
    static const gattr member_attrs[] = {
        {"member-order", NULL, 0, 0, 3, "order"}, {"ratio", NULL, 0, 0, 5, NULL},
        {NULL, onoff, 2, 0, 0, NULL}};
    static const gattr wideip_attrs[] = {
        {"pool-lb-mode", wm, 4, 0, 0, NULL},           {"persistence", onoff, 2, 0, 0, NULL},
        {"ttl-persistence", NULL, 0, 0, 7200, NULL},   {"persist-cidr-ipv4", NULL, 0, 0, 32, NULL},
        {"failure-rcode-response", onoff, 2, 0, 0, NULL}, {"failure-rcode", rc, 4, 0, 0, NULL},
        {"failure-rcode-ttl", NULL, 0, 0, 600, NULL},  {"load-balancing-decision-log-verbosity", logs, 2, 0, 0, NULL},
        {NULL, onoff, 2, 0, 0, NULL}};
    static const gattr wpool_attrs[] = {{"order", NULL, 0, 0, 3, NULL}, {"ratio", NULL, 0, 0, 9, NULL}};
    uint64_t r = seed ^ 0x9d1c3a5e;
    unsigned ns = (unsigned)wsel_kit_range(&r, 1, 3), nvs[3];
    for (unsigned s = 0; s < ns; s++) {
        nvs[s] = (unsigned)wsel_kit_range(&r, 1, 4);
        wsel_kit_sb_printf(b, "gtm server %ss%u {%s datacenter DC%u%s virtual-servers {\n",
                           wsel_kit_range(&r, 0, 1) ? "/Common/" : "", s,
                           wsel_kit_range(&r, 0, 1) ? " disabled" : "", s,
                           wsel_kit_range(&r, 0, 1) ? " product bigip" : "");
        for (unsigned v = 0; v < nvs[s]; v++) {
            unsigned port = (unsigned)wsel_kit_range(&r, 1, 65535);
            if (wsel_kit_range(&r, 0, 1))
                wsel_kit_sb_printf(b, "  v%u { destination 2001:db8::%u:%u.%u", v, s, v + 1, port);
            else
                wsel_kit_sb_printf(b, "  v%u { destination 10.%u.0.%u:%s", v, s, v + 1,
                                   port & 1 ? "80" : "https");
            if (wsel_kit_range(&r, 0, 1))
                wsel_kit_sb_printf(b, " disabled");
            if (v && wsel_kit_range(&r, 0, 1))
                wsel_kit_sb_printf(b, " depends-on { s%u:v%u }", s, v - 1);
            wsel_kit_sb_printf(b, " }\n");
        }
        wsel_kit_sb_printf(b, "} }\n");
    }
    unsigned np = (unsigned)wsel_kit_range(&r, 1, 4);
    for (unsigned p = 0; p < np; p++) {
        wsel_kit_sb_printf(b, "gtm pool a p%u {", p);
        g_attrs(b, &r, pool_attrs, sizeof pool_attrs / sizeof pool_attrs[0]);
        wsel_kit_sb_printf(b, " members {");
        unsigned nm = (unsigned)wsel_kit_range(&r, 0, 5);
        for (unsigned m = 0; m < nm; m++) {
            unsigned s = (unsigned)wsel_kit_range(&r, 0, ns - 1);
            unsigned v = (unsigned)wsel_kit_range(&r, 0, nvs[s]); /* nvs[s]: unresolved */
            char name[32];
            snprintf(name, sizeof name, "s%u:v%u", s, v);
            g_entry(b, &r, name, member_attrs, sizeof member_attrs / sizeof member_attrs[0]);
        }
        wsel_kit_sb_printf(b, " } }\n");
    }
    unsigned nw = (unsigned)wsel_kit_range(&r, 1, 3);
    for (unsigned w = 0; w < nw; w++) {
        wsel_kit_sb_printf(b, "gtm wideip a w%u.example.com {", w);
        g_attrs(b, &r, wideip_attrs, sizeof wideip_attrs / sizeof wideip_attrs[0]);
        if (wsel_kit_range(&r, 0, 1))
            wsel_kit_sb_printf(b, " last-resort-pool a p%u", (unsigned)wsel_kit_range(&r, 0, np));
        wsel_kit_sb_printf(b, " pools {");
        for (unsigned p = 0; p < np; p++) {
            if (wsel_kit_range(&r, 0, 1))
                continue;
            char name[16];
            snprintf(name, sizeof name, "p%u", p);
            g_entry(b, &r, name, wpool_attrs, sizeof wpool_attrs / sizeof wpool_attrs[0]);
        }
        wsel_kit_sb_printf(b, " } }\n");
    }
}
