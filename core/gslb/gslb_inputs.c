/* GSLB engine inputs (doc/gslb.md §3): the JSON reader (jansson) and setters.
 * The reader lives in the library, not the CLI, so that tests, the engine fuzz target and
 * other callers share one strict reader (doc/gslb.md §3). Every key must be known;
 * every member and pool name must resolve against the config. */
#include <errno.h>
#include <stdarg.h>
#include <jansson.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gslb_internal.h"

typedef struct R {
    const wsel_gslb_config *cfg;
    const char *file, *text;
    size_t len;
    wsel_error *err;
    wsel_gslb_inputs *in;
} R;

/* Position of the first occurrence of "key" (quoted) in the text: jansson keeps no
 * positions for decoded values, so errors point at the key's first spelling. */
static void locate(const R *r, const char *key, unsigned *line, unsigned *col)
{
    *line = 0;
    *col = 0;
    if (!key || !*key)
        return;
    size_t kl = strlen(key);
    for (size_t i = 0; i + kl + 2 <= r->len; i++) {
        if (r->text[i] == '"' && memcmp(r->text + i + 1, key, kl) == 0 && r->text[i + 1 + kl] == '"') {
            unsigned l = 1, c = 1;
            for (size_t j = 0; j < i; j++) {
                if (r->text[j] == '\n') {
                    l++;
                    c = 1;
                } else
                    c++;
            }
            *line = l;
            *col = c;
            return;
        }
    }
}

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static int bad(R *r, const char *object, const char *key, const char *fmt, ...)
{
    char msg[900];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    unsigned line, col;
    locate(r, key, &line, &col);
    return wsel__fail(r->err, WSEL_E_STATE, r->file, line, col, object, NULL, key, "%s%s%s",
                      object ? object : "", object ? ": " : "", msg);
}

/* A fresh generation number, unique across all inputs objects of the process: a state
 * caches availability per (inputs, generation), and a freed inputs' address may be
 * reused by a new one. */
static _Atomic uint64_t generations;

static void bump(wsel_gslb_inputs *in)
{
    in->gen = atomic_fetch_add(&generations, 1) + 1;
}

static const char *const metric_keys[WSEL_GSLB_METRIC_COUNT_] = {
    "rtt_us", "completion_rate", "hops", "cpu_pct", "kbps", "connections", "pps",
    "vs_capacity", "vs_score", "link_capacity"};

static int want_bool(R *r, const char *obj, const char *key, json_t *v, bool *out)
{
    if (!json_is_boolean(v))
        return bad(r, obj, key, "'%s' must be true or false", key);
    *out = json_is_true(v);
    return 0;
}

static int want_uint(R *r, const char *obj, const char *key, json_t *v, uint64_t *out)
{
    if (!json_is_integer(v) || json_integer_value(v) < 0)
        return bad(r, obj, key, "'%s' must be a non-negative integer", key);
    *out = (uint64_t)json_integer_value(v);
    return 0;
}

static int want_addr(R *r, const char *obj, const char *key, json_t *v, wsel_gslb_addr *a)
{
    if (!json_is_string(v))
        return bad(r, obj, key, "'%s' must be an IP address string", key);
    const char *s = json_string_value(v);
    unsigned prefix;
    if (wsel__gslb_parse_addr(s, a))
        return 0;
    if (strchr(s, '/') && wsel__gslb_parse_subnet(s, a, &prefix)) /* ECS as a subnet */
        return 0;
    return bad(r, obj, key, "'%s' is not an IPv4/IPv6 address", s);
}

/* ---- one walker for every JSON object of the inputs ---- */

/* Where a value sits: the object's name (for messages) and the config index it resolved
 * to (virtual server, pool, geo entry, wide IP; -1 when none). */
typedef struct at {
    const char *name;
    long idx;
    void *p;
} at;

typedef int (*read_fn)(R *r, const at *where, const char *key, json_t *v);

typedef struct field {
    const char *name;
    read_fn fn;
} field;

/* Walks the JSON object v, named `key` inside `obj` (NULL: the top level): each of its keys
 * goes to the field of tab[0..n-1] with that name, else to `other` (keys that name
 * something of the config), else is an error listing `known`. A value that is not an
 * object is an error: "'KEY' must be an object" + `what`. */
static int walk(R *r, const char *obj, const char *key, json_t *v, const char *what,
                const field *tab, size_t n, read_fn other, const char *known, const at *where)
{
    if (!json_is_object(v))
        return bad(r, obj, key, "'%s' must be an object%s", key ? key : "inputs", what);
    at here = where ? *where : (at){key, -1, NULL};
    const char *k;
    json_t *e;
    json_object_foreach(v, k, e) {
        read_fn fn = other;
        for (size_t i = 0; i < n; i++)
            if (!strcmp(k, tab[i].name))
                fn = tab[i].fn;
        int rc = fn ? fn(r, &here, k, e) : bad(r, key, k, "unknown key '%s'%s", k, known);
        if (rc)
            return rc;
    }
    return 0;
}

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

/* query */

static int q_name(R *r, const at *w, const char *k, json_t *v)
{
    if (!json_is_string(v) || strlen(json_string_value(v)) >= sizeof r->in->qname)
        return bad(r, w->name, k, "'name' must be a domain name string");
    snprintf(r->in->qname, sizeof r->in->qname, "%s", json_string_value(v));
    return 0;
}

static int q_type(R *r, const at *w, const char *k, json_t *v)
{
    if (!json_is_string(v))
        return bad(r, w->name, k, "'type' must be a string");
    if (strcasecmp(json_string_value(v), "A") != 0)
        return bad(r, w->name, k, "query type '%s' not supported (A only)", json_string_value(v));
    snprintf(r->in->qtype, sizeof r->in->qtype, "A");
    return 0;
}

static int q_ldns(R *r, const at *w, const char *k, json_t *v)
{
    return want_addr(r, w->name, k, v, &r->in->ldns);
}

static int q_ecs(R *r, const at *w, const char *k, json_t *v)
{
    return json_is_null(v) ? 0 : want_addr(r, w->name, k, v, &r->in->ecs);
}

static const field query_fields[] = {{"name", q_name}, {"type", q_type}, {"ldns", q_ldns}, {"ecs", q_ecs}};

/* members.KEY and pools.NAME fields: w->idx is the virtual server or the pool */

static int m_flag(R *r, const at *w, const char *k, json_t *v) /* up, limit_exceeded */
{
    wsel__gslb_vsin *vi = &r->in->vs[w->idx];
    return want_bool(r, w->name, k, v, k[0] == 'u' ? &vi->up : &vi->limit);
}

static int m_metric(R *r, const at *w, const char *k, json_t *v)
{
    int m = -1;
    for (int i = 0; i < WSEL_GSLB_METRIC_COUNT_; i++)
        if (!strcmp(k, metric_keys[i]))
            m = i;
    if (m < 0)
        return bad(r, w->name, k, "unknown key '%s'", k);
    if (json_is_null(v))
        r->in->vs[w->idx].have &= (uint16_t)~(1u << m);
    else if (json_is_number(v) && json_number_value(v) >= 0 && json_number_value(v) <= 1e15)
        wsel_gslb_inputs_set_metric(r->in, (size_t)w->idx, (wsel_gslb_metric)m, json_number_value(v));
    else
        return bad(r, w->name, k, "'%s' must be a number in 0..1e15 or null", k);
    return 0;
}

static const field member_fields[] = {{"up", m_flag}, {"limit_exceeded", m_flag}};

static int p_flag(R *r, const at *w, const char *k, json_t *v) /* held_down, limit_exceeded */
{
    bool *f = k[0] == 'h' ? r->in->pool_held : r->in->pool_limit;
    return want_bool(r, w->name, k, v, &f[w->idx]);
}

static const field pool_fields[] = {{"held_down", p_flag}, {"limit_exceeded", p_flag}};

/* members.KEY or pools.NAME (w->name says which): the key resolves to a virtual server
 * or a pool, whose fields follow */
static int vs_or_pool(R *r, const at *w, const char *k, json_t *v)
{
    bool vs = !strcmp(w->name, "members");
    long i = vs ? wsel__gslb_find_vs(r->cfg, k) : wsel__gslb_find_pool(r->cfg, k);
    if (i < 0)
        return bad(r, w->name, k, "'%s' names no configured %s", k,
                   vs ? "virtual server (SERVER:VS)" : "pool");
    at here = {k, i, NULL};
    if (vs)
        return walk(r, w->name, k, v, "", member_fields, N_OF(member_fields), m_metric, "", &here);
    return walk(r, w->name, k, v, "", pool_fields, N_OF(pool_fields), NULL, "", &here);
}

/* geo.ADDRESS: w->p is the entry */

static int g_attr(R *r, const at *w, const char *k, json_t *v)
{
    static const char *const attrs[4] = {"continent", "country", "state", "isp"};
    wsel__gslb_geo *ge = w->p;
    int i = -1;
    for (int j = 0; j < 4; j++)
        if (!strcmp(k, attrs[j]))
            i = j;
    if (i < 0)
        return bad(r, w->name, k, "unknown key '%s' (continent, country, state, isp)", k);
    if (json_is_null(v))
        return 0;
    if (!json_is_string(v))
        return bad(r, w->name, k, "'%s' must be a string or null", k);
    if (!(ge->attr[i] = wsel__gslb_strdup(json_string_value(v))))
        return wsel__fail(r->err, WSEL_E_NOMEM, r->file, 0, 0, NULL, NULL, NULL, "out of memory");
    return 0;
}

static int geo(R *r, const at *w, const char *k, json_t *v)
{
    wsel__gslb_geo *ge = &r->in->geo[r->in->n_geo++];
    if (!wsel__gslb_parse_addr(k, &ge->addr))
        return bad(r, w->name, k, "'%s' is not an IPv4/IPv6 address", k);
    at here = {k, -1, ge};
    return walk(r, w->name, k, v, "", NULL, 0, g_attr, "", &here);
}

static int read_geo(R *r, json_t *g)
{
    size_t n = json_is_object(g) ? json_object_size(g) : 0;
    if (n && !(r->in->geo = calloc(n, sizeof *r->in->geo)))
        return wsel__fail(r->err, WSEL_E_NOMEM, r->file, 0, 0, NULL, NULL, NULL, "out of memory");
    return walk(r, NULL, "geo", g, " keyed by address", NULL, 0, geo, "", NULL);
}

static long member_in_pool(const wsel_gslb_config *cfg, size_t pool, const char *key)
{
    long vs = wsel__gslb_find_vs(cfg, key);
    const wsel_gslb_pool *p = &cfg->pools[pool];
    for (size_t m = 0; m < p->n_members; m++)
        if (vs >= 0 ? p->members[m].vs == vs : !strcmp(p->members[m].key, key))
            return (long)m;
    return -1;
}

/* The arrays of the inputs (persistence, random): room for every item in *room (`size`
 * bytes each, zeroed; the caller keeps it, also on failure), then item(r, *room, i, e)
 * for each; `what` follows "must be an array of". */
static int walk_array(R *r, const char *key, json_t *a, const char *what, void **room,
                      size_t size, int (*item)(R *r, void *room, size_t i, json_t *e))
{
    if (!json_is_array(a))
        return bad(r, NULL, key, "'%s' must be an array of %s", key, what);
    size_t n = json_array_size(a);
    if (n && !(*room = calloc(n, size)))
        return wsel__fail(r->err, WSEL_E_NOMEM, r->file, 0, 0, NULL, NULL, NULL, "out of memory");
    size_t i;
    json_t *e;
    json_array_foreach(a, i, e) {
        int rc = item(r, *room, i, e);
        if (rc)
            return rc;
    }
    return 0;
}

static int persistence_record(R *r, void *room, size_t i, json_t *e)
{
    if (!json_is_object(e))
        return bad(r, NULL, "persistence", "persistence record %zu must be an object", i);
    json_t *w = json_object_get(e, "wideip"), *key = json_object_get(e, "key"),
           *pool = json_object_get(e, "pool"), *mem = json_object_get(e, "member"),
           *exp = json_object_get(e, "expires");
    if (json_object_size(e) != 5 || !json_is_string(w) || !json_is_string(key) ||
        !json_is_string(pool) || !json_is_string(mem) || !exp)
        return bad(r, NULL, "persistence",
                   "persistence record %zu must have exactly wideip, key, pool, member (strings) and expires", i);
    wsel__gslb_prec *pr = (wsel__gslb_prec *)room + i;
    long wi = wsel_gslb_find_wideip(r->cfg, json_string_value(w));
    if (wi < 0)
        return bad(r, "persistence", json_string_value(w), "'%s' names no configured wide IP",
                   json_string_value(w));
    if (!wsel__gslb_parse_subnet(json_string_value(key), &pr->net, &pr->prefix))
        return bad(r, "persistence", json_string_value(key), "key '%s' is not ADDRESS/LENGTH",
                   json_string_value(key));
    long pl = wsel__gslb_find_pool(r->cfg, json_string_value(pool));
    if (pl < 0)
        return bad(r, "persistence", json_string_value(pool), "'%s' names no configured pool",
                   json_string_value(pool));
    long m = member_in_pool(r->cfg, (size_t)pl, json_string_value(mem));
    if (m < 0)
        return bad(r, "persistence", json_string_value(mem), "'%s' is not a member of %s",
                   json_string_value(mem), json_string_value(pool));
    int rc = want_uint(r, "persistence", "expires", exp, &pr->expires);
    if (rc)
        return rc;
    pr->wideip = (size_t)wi;
    pr->pool = (size_t)pl;
    pr->member = (size_t)m;
    r->in->n_prec++;
    return 0;
}

static int read_persistence(R *r, json_t *a)
{
    void *room = NULL;
    int rc = walk_array(r, "persistence", a, "records", &room, sizeof *r->in->prec, persistence_record);
    r->in->prec = room;
    return rc;
}

/* Method state {"rr": N, "ratio": {NAME: {"w": N, "cur": N}}} of one wide IP or one
 * (pool, step): w->p is the step state, w->idx the number of candidates, and the ratio
 * names resolve among the wide IP's pools (w->name a wide IP) or the pool's members. */
typedef struct stepctx {
    wsel__gslb_stepst *st;
    size_t n;
    long (*find)(const wsel_gslb_config *, const void *, const char *);
    const void *ctx;
} stepctx;

static int s_rr(R *r, const at *w, const char *k, json_t *v)
{
    const stepctx *sc = w->p;
    if (!json_is_integer(v) || json_integer_value(v) < -1 || json_integer_value(v) >= (json_int_t)sc->n)
        return bad(r, w->name, k, "'rr' must be an integer in -1..%zu", sc->n ? sc->n - 1 : 0);
    sc->st->rr = (long)json_integer_value(v);
    return 0;
}

static int s_ratio_entry(R *r, const at *w, const char *name, json_t *e)
{
    const stepctx *sc = w->p;
    long i = sc->find(r->cfg, sc->ctx, name);
    if (i < 0)
        return bad(r, w->name, name, "'%s' is not a candidate here", name);
    json_t *wt = json_object_get(e, "w"), *cur = json_object_get(e, "cur");
    if (!json_is_object(e) || json_object_size(e) != 2 || !json_is_integer(wt) ||
        !json_is_integer(cur) || json_integer_value(wt) < 0 || json_integer_value(wt) > 0xffffffffll ||
        json_integer_value(cur) > (1ll << 52) || json_integer_value(cur) < -(1ll << 52))
        return bad(r, w->name, name, "ratio entry '%s' must be {\"w\": 0..2^32-1, \"cur\": -2^52..2^52}", name);
    sc->st->wrr.w[i] = (uint32_t)json_integer_value(wt);
    sc->st->wrr.cur[i] = (int64_t)json_integer_value(cur);
    sc->st->wrr.used = true;
    return 0;
}

static int s_ratio(R *r, const at *w, const char *k, json_t *v)
{
    return walk(r, w->name, k, v, "", NULL, 0, s_ratio_entry, "", w);
}

static const field step_fields[] = {{"rr", s_rr}, {"ratio", s_ratio}};

static int read_stepst(R *r, const char *obj, const char *name, json_t *o, stepctx *sc)
{
    at here = {name, -1, sc};
    return walk(r, obj, name, o, " (method state)", step_fields, N_OF(step_fields), NULL,
                " (rr, ratio)", &here);
}

static long find_wpool(const wsel_gslb_config *cfg, const void *ctx, const char *name)
{
    const wsel_gslb_wideip *w = ctx;
    long p = wsel__gslb_find_pool(cfg, name);
    for (size_t i = 0; i < w->n_pools; i++)
        if (w->pools[i].pool == p && p >= 0)
            return (long)i;
    return -1;
}

static long find_member(const wsel_gslb_config *cfg, const void *ctx, const char *name)
{
    const wsel_gslb_pool *p = ctx;
    return member_in_pool(cfg, (size_t)(p - cfg->pools), name);
}

static int st_wideip(R *r, const at *w, const char *name, json_t *e)
{
    long wi = wsel_gslb_find_wideip(r->cfg, name);
    if (wi < 0)
        return bad(r, w->name, name, "'%s' names no configured wide IP", name);
    stepctx sc = {&r->in->wideip_st[wi], r->cfg->wideips[wi].n_pools, find_wpool, &r->cfg->wideips[wi]};
    return read_stepst(r, w->name, name, e, &sc);
}

static int st_pool_step(R *r, const at *w, const char *step, json_t *so)
{
    int si = !strcmp(step, "preferred") ? 0 : !strcmp(step, "alternate") ? 1 : !strcmp(step, "fallback") ? 2 : -1;
    if (si < 0)
        return bad(r, w->name, step, "unknown step '%s' (preferred, alternate, fallback)", step);
    stepctx sc = {&r->in->pool_st[(size_t)w->idx * 3 + (size_t)si], r->cfg->pools[w->idx].n_members,
                  find_member, &r->cfg->pools[w->idx]};
    return read_stepst(r, w->name, w->name, so, &sc);
}

static int st_pool(R *r, const at *w, const char *name, json_t *e)
{
    long p = wsel__gslb_find_pool(r->cfg, name);
    if (p < 0)
        return bad(r, w->name, name, "'%s' names no configured pool", name);
    at here = {name, p, NULL};
    return walk(r, w->name, name, e, "", NULL, 0, st_pool_step, "", &here);
}

static int st_wideips(R *r, const at *w, const char *k, json_t *v)
{
    return walk(r, w->name, k, v, "", NULL, 0, st_wideip, "", w);
}

static int st_pools(R *r, const at *w, const char *k, json_t *v)
{
    return walk(r, w->name, k, v, "", NULL, 0, st_pool, "", w);
}

static const field state_fields[] = {{"wideip", st_wideips}, {"pool", st_pools}};

static int random_word(R *r, void *room, size_t i, json_t *e)
{
    int rc = want_uint(r, NULL, "random", e, (uint64_t *)room + i);
    r->in->n_random += !rc;
    return rc;
}

static int read_random(R *r, json_t *a)
{
    void *room = NULL;
    int rc = walk_array(r, "random", a, "non-negative integers", &room, sizeof *r->in->random,
                        random_word);
    r->in->random = room;
    return rc;
}

int wsel_gslb_inputs_new(const wsel_gslb_config *cfg, wsel_gslb_inputs **out, wsel_error *err)
{
    if (out)
        *out = NULL;
    if (!cfg || !out)
        return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, NULL, NULL, NULL, "no config given");
    wsel_gslb_inputs *in = calloc(1, sizeof *in);
    if (!in)
        return wsel__fail(err, WSEL_E_NOMEM, NULL, 0, 0, NULL, NULL, NULL, "out of memory");
    in->cfg = cfg;
    bump(in);
    in->vs = calloc(cfg->n_vs ? cfg->n_vs : 1, sizeof *in->vs);
    in->pool_held = calloc(cfg->n_pools ? cfg->n_pools : 1, sizeof *in->pool_held);
    in->pool_limit = calloc(cfg->n_pools ? cfg->n_pools : 1, sizeof *in->pool_limit);
    if (!in->vs || !in->pool_held || !in->pool_limit ||
        wsel__gslb_stepst_alloc(cfg, &in->wideip_st, &in->pool_st)) {
        wsel_gslb_inputs_free(in);
        return wsel__fail(err, WSEL_E_NOMEM, NULL, 0, 0, NULL, NULL, NULL, "out of memory");
    }
    *out = in;
    return 0;
}

void wsel_gslb_inputs_free(wsel_gslb_inputs *in)
{
    if (!in)
        return;
    for (size_t i = 0; i < in->n_geo; i++)
        for (int j = 0; j < 4; j++)
            free(in->geo[i].attr[j]);
    free(in->geo);
    free(in->prec);
    free(in->random);
    free(in->vs);
    free(in->pool_held);
    free(in->pool_limit);
    if (in->wideip_st || in->pool_st)
        wsel__gslb_stepst_free(in->cfg, in->wideip_st, in->pool_st);
    free(in);
}

/* the top level */

static int t_now(R *r, const at *w, const char *k, json_t *v)
{
    return want_uint(r, w->name, k, v, &r->in->now);
}

static int t_query(R *r, const at *w, const char *k, json_t *v)
{
    return walk(r, w->name, k, v, "", query_fields, N_OF(query_fields), NULL, "", NULL);
}

static int t_members(R *r, const at *w, const char *k, json_t *v)
{
    return walk(r, w->name, k, v, " keyed by SERVER:VS", NULL, 0, vs_or_pool, "", NULL);
}

static int t_pools(R *r, const at *w, const char *k, json_t *v)
{
    return walk(r, w->name, k, v, " keyed by pool name", NULL, 0, vs_or_pool, "", NULL);
}

static int t_geo(R *r, const at *w, const char *k, json_t *v)
{
    (void)w;
    (void)k;
    return read_geo(r, v);
}

static int t_persistence(R *r, const at *w, const char *k, json_t *v)
{
    (void)w;
    (void)k;
    return read_persistence(r, v);
}

static int t_state(R *r, const at *w, const char *k, json_t *v)
{
    return walk(r, w->name, k, v, "", state_fields, N_OF(state_fields), NULL, " (wideip, pool)", NULL);
}

static int t_random(R *r, const at *w, const char *k, json_t *v)
{
    (void)w;
    (void)k;
    return read_random(r, v);
}

static const field root_fields[] = {
    {"now", t_now},     {"query", t_query},           {"members", t_members}, {"pools", t_pools},
    {"geo", t_geo},     {"persistence", t_persistence}, {"state", t_state},     {"random", t_random}};

int wsel_gslb_inputs_load_buffer(const wsel_gslb_config *cfg, const char *name,
                                 const char *text, size_t len, wsel_gslb_inputs **out,
                                 wsel_error *err)
{
    if (out)
        *out = NULL;
    if (!name)
        name = "(inputs)";
    if (!cfg || !out || (!text && len))
        return wsel__fail(err, WSEL_E_ARG, name, 0, 0, NULL, NULL, NULL, "no inputs given");
    if (len > WSEL_GSLB_MAX_FILE)
        return wsel__fail(err, WSEL_E_LIMIT, name, 0, 0, NULL, NULL, NULL,
                          "inputs larger than %u bytes", WSEL_GSLB_MAX_FILE);
    json_error_t je;
    json_t *root = json_loadb(text ? text : "", len, JSON_REJECT_DUPLICATES, &je);
    /* jansson out of memory: its own code, or (when its lexer could not start) no text */
    if (!root && (json_error_code(&je) == json_error_out_of_memory || !je.text[0]))
        return wsel__fail(err, WSEL_E_NOMEM, name, 0, 0, NULL, NULL, NULL, "out of memory");
    if (!root)
        return wsel__fail(err, WSEL_E_STATE, name, (unsigned)(je.line > 0 ? je.line : 0),
                          (unsigned)(je.column > 0 ? je.column : 0), NULL, NULL, NULL,
                          "inputs are not valid JSON: %s", je.text);
    wsel_gslb_inputs *in;
    int rc = wsel_gslb_inputs_new(cfg, &in, err);
    if (rc) {
        json_decref(root);
        return rc;
    }
    R r = {.cfg = cfg, .file = name, .text = text, .len = len, .err = err, .in = in};
    rc = walk(&r, NULL, NULL, root, "", root_fields, N_OF(root_fields), NULL,
              " (now, query, members, pools, geo, persistence, state, random)", NULL);
    json_decref(root);
    if (rc) {
        wsel_gslb_inputs_free(in);
        return rc;
    }
    bump(in);
    *out = in;
    return 0;
}

int wsel_gslb_inputs_load_file(const wsel_gslb_config *cfg, const char *path,
                               wsel_gslb_inputs **out, wsel_error *err)
{
    if (out)
        *out = NULL;
    if (!path || !out)
        return wsel__fail(err, WSEL_E_ARG, path, 0, 0, NULL, NULL, NULL, "no file given");
    char *buf;
    size_t n;
    int rc = wsel__read_file(path, "inputs", WSEL_GSLB_MAX_FILE, NULL, &buf, &n, err);
    rc = rc ? rc : wsel_gslb_inputs_load_buffer(cfg, path, buf, n, out, err);
    free(buf);
    return rc;
}

void wsel_gslb_inputs_set_up(wsel_gslb_inputs *in, size_t vs, bool up, bool limit)
{
    if (in && vs < in->cfg->n_vs) {
        bump(in);
        in->vs[vs].up = up;
        in->vs[vs].limit = limit;
    }
}

void wsel_gslb_inputs_set_metric(wsel_gslb_inputs *in, size_t vs, wsel_gslb_metric m, double v)
{
    if (in && vs < in->cfg->n_vs && (unsigned)m < WSEL_GSLB_METRIC_COUNT_) {
        bump(in);
        in->vs[vs].metric[m] = v;
        in->vs[vs].have |= (uint16_t)(1u << m);
    }
}

void wsel_gslb_inputs_set_pool(wsel_gslb_inputs *in, size_t pool, bool held, bool limit)
{
    if (in && pool < in->cfg->n_pools) {
        bump(in);
        in->pool_held[pool] = held;
        in->pool_limit[pool] = limit;
    }
}

void wsel_gslb_inputs_set_ldns(wsel_gslb_inputs *in, const wsel_gslb_addr *ldns,
                               const wsel_gslb_addr *ecs)
{
    if (!in)
        return;
    bump(in);
    memset(&in->ldns, 0, sizeof in->ldns);
    memset(&in->ecs, 0, sizeof in->ecs);
    if (ldns)
        in->ldns = *ldns;
    if (ecs)
        in->ecs = *ecs;
}

void wsel_gslb_inputs_set_now(wsel_gslb_inputs *in, uint64_t now)
{
    if (in) {
        bump(in);
        in->now = now;
    }
}

const char *wsel_gslb_inputs_qname(const wsel_gslb_inputs *in)
{
    return in ? in->qname : "";
}
