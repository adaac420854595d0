/* The GSLB chain's part of the kit (doc/gslb.md) and its system-table entry.
 *
 * A generated case is one wide IP over 1..4 pools of 1..6 members each, every pool with
 * a static method (round-robin, ratio, global-availability) and a static alternate, and
 * some members marked down in the inputs. The engine draws no random words (static
 * methods are deterministic; their state moves from query to query), so a query
 * consumes 0 words. The chain has only its reference engine: the generic loops check its
 * answers against the invariants below (doc/gslb.md, properties of the verification
 * suite), not against other variants. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    if (rc == WSEL_OK)
        return c;
    g_case_free(c);
    return wsel_kit_case_failed(seed, &err, why, len);
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

static bool g_has_variant(const char *variant)
{
    (void)variant;
    return false;
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
    .case_text = g_case_text,
    .queries = g_queries,
    .words = g_words,
    .has_variant = g_has_variant,
    .run = g_run,
    .query = g_query,
    .check = g_check,
    .boundary = g_boundary,
};
