/* GSLB engine inputs (doc/gslb.md §3): the JSON reader (jansson) and setters.
 * The reader lives in the library, not the CLI, so that tests, the engine fuzz target and
 * other callers share one strict reader (doc/gslb.md, "Inputs"). Every key must be known;
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

static int read_query(R *r, json_t *q)
{
    if (!json_is_object(q))
        return bad(r, NULL, "query", "'query' must be an object");
    const char *k;
    json_t *v;
    json_object_foreach(q, k, v) {
        int rc = 0;
        if (!strcmp(k, "name")) {
            if (!json_is_string(v) || strlen(json_string_value(v)) >= sizeof r->in->qname)
                return bad(r, "query", k, "'name' must be a domain name string");
            snprintf(r->in->qname, sizeof r->in->qname, "%s", json_string_value(v));
        } else if (!strcmp(k, "type")) {
            if (!json_is_string(v))
                return bad(r, "query", k, "'type' must be a string");
            if (strcasecmp(json_string_value(v), "A") != 0)
                return bad(r, "query", k, "query type '%s' not supported (A only)", json_string_value(v));
            snprintf(r->in->qtype, sizeof r->in->qtype, "A");
        } else if (!strcmp(k, "ldns")) {
            rc = want_addr(r, "query", k, v, &r->in->ldns);
        } else if (!strcmp(k, "ecs")) {
            if (!json_is_null(v))
                rc = want_addr(r, "query", k, v, &r->in->ecs);
        } else
            return bad(r, "query", k, "unknown key '%s'", k);
        if (rc)
            return rc;
    }
    return 0;
}

static int read_members(R *r, json_t *ms)
{
    if (!json_is_object(ms))
        return bad(r, NULL, "members", "'members' must be an object keyed by SERVER:VS");
    const char *k;
    json_t *e;
    json_object_foreach(ms, k, e) {
        long vs = wsel__gslb_find_vs(r->cfg, k);
        if (vs < 0)
            return bad(r, "members", k, "'%s' names no configured virtual server (SERVER:VS)", k);
        if (!json_is_object(e))
            return bad(r, "members", k, "'%s' must be an object", k);
        wsel__gslb_vsin *vi = &r->in->vs[vs];
        const char *a;
        json_t *v;
        json_object_foreach(e, a, v) {
            int rc = 0;
            if (!strcmp(a, "up"))
                rc = want_bool(r, k, a, v, &vi->up);
            else if (!strcmp(a, "limit_exceeded"))
                rc = want_bool(r, k, a, v, &vi->limit);
            else {
                int m = -1;
                for (int i = 0; i < WSEL_GSLB_METRIC_COUNT_; i++)
                    if (!strcmp(a, metric_keys[i]))
                        m = i;
                if (m < 0)
                    return bad(r, k, a, "unknown key '%s'", a);
                if (json_is_null(v))
                    vi->have &= (uint16_t)~(1u << m);
                else if (json_is_number(v) && json_number_value(v) >= 0 &&
                         json_number_value(v) <= 1e15)
                    wsel_gslb_inputs_set_metric(r->in, (size_t)vs, (wsel_gslb_metric)m,
                                                json_number_value(v));
                else
                    return bad(r, k, a, "'%s' must be a number in 0..1e15 or null", a);
            }
            if (rc)
                return rc;
        }
    }
    return 0;
}

static int read_pools(R *r, json_t *ps)
{
    if (!json_is_object(ps))
        return bad(r, NULL, "pools", "'pools' must be an object keyed by pool name");
    const char *k;
    json_t *e;
    json_object_foreach(ps, k, e) {
        long p = wsel__gslb_find_pool(r->cfg, k);
        if (p < 0)
            return bad(r, "pools", k, "'%s' names no configured pool", k);
        if (!json_is_object(e))
            return bad(r, "pools", k, "'%s' must be an object", k);
        const char *a;
        json_t *v;
        json_object_foreach(e, a, v) {
            int rc;
            if (!strcmp(a, "held_down"))
                rc = want_bool(r, k, a, v, &r->in->pool_held[p]);
            else if (!strcmp(a, "limit_exceeded"))
                rc = want_bool(r, k, a, v, &r->in->pool_limit[p]);
            else
                return bad(r, k, a, "unknown key '%s'", a);
            if (rc)
                return rc;
        }
    }
    return 0;
}

static int read_geo(R *r, json_t *g)
{
    static const char *const attrs[4] = {"continent", "country", "state", "isp"};
    if (!json_is_object(g))
        return bad(r, NULL, "geo", "'geo' must be an object keyed by address");
    size_t n = json_object_size(g);
    if (n && !(r->in->geo = calloc(n, sizeof *r->in->geo)))
        return wsel__fail(r->err, WSEL_E_NOMEM, r->file, 0, 0, NULL, NULL, NULL, "out of memory");
    const char *k;
    json_t *e;
    json_object_foreach(g, k, e) {
        wsel__gslb_geo *ge = &r->in->geo[r->in->n_geo++];
        if (!wsel__gslb_parse_addr(k, &ge->addr))
            return bad(r, "geo", k, "'%s' is not an IPv4/IPv6 address", k);
        if (!json_is_object(e))
            return bad(r, "geo", k, "'%s' must be an object", k);
        const char *a;
        json_t *v;
        json_object_foreach(e, a, v) {
            int i = -1;
            for (int j = 0; j < 4; j++)
                if (!strcmp(a, attrs[j]))
                    i = j;
            if (i < 0)
                return bad(r, k, a, "unknown key '%s' (continent, country, state, isp)", a);
            if (json_is_null(v))
                continue;
            if (!json_is_string(v))
                return bad(r, k, a, "'%s' must be a string or null", a);
            if (!(ge->attr[i] = wsel__gslb_strdup(json_string_value(v))))
                return wsel__fail(r->err, WSEL_E_NOMEM, r->file, 0, 0, NULL, NULL, NULL, "out of memory");
        }
    }
    return 0;
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

static int read_persistence(R *r, json_t *a)
{
    if (!json_is_array(a))
        return bad(r, NULL, "persistence", "'persistence' must be an array of records");
    size_t n = json_array_size(a);
    if (n && !(r->in->prec = calloc(n, sizeof *r->in->prec)))
        return wsel__fail(r->err, WSEL_E_NOMEM, r->file, 0, 0, NULL, NULL, NULL, "out of memory");
    size_t i;
    json_t *e;
    json_array_foreach(a, i, e) {
        if (!json_is_object(e))
            return bad(r, NULL, "persistence", "persistence record %zu must be an object", i);
        json_t *w = json_object_get(e, "wideip"), *key = json_object_get(e, "key"),
               *pool = json_object_get(e, "pool"), *mem = json_object_get(e, "member"),
               *exp = json_object_get(e, "expires");
        if (json_object_size(e) != 5 || !json_is_string(w) || !json_is_string(key) ||
            !json_is_string(pool) || !json_is_string(mem) || !exp)
            return bad(r, NULL, "persistence",
                       "persistence record %zu must have exactly wideip, key, pool, member (strings) and expires", i);
        wsel__gslb_prec *pr = &r->in->prec[r->in->n_prec];
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
    }
    return 0;
}

/* {"rr": N, "ratio": {NAME: {"w": N, "cur": N}}}; name(i) gives candidate i's name. */
static int read_stepst(R *r, const char *obj, json_t *o, wsel__gslb_stepst *st, size_t n,
                       long (*find)(const wsel_gslb_config *, const void *, const char *),
                       const void *ctx)
{
    if (!json_is_object(o))
        return bad(r, obj, obj, "method state of '%s' must be an object", obj);
    const char *k;
    json_t *v;
    json_object_foreach(o, k, v) {
        if (!strcmp(k, "rr")) {
            if (!json_is_integer(v) || json_integer_value(v) < -1 ||
                json_integer_value(v) >= (json_int_t)n)
                return bad(r, obj, k, "'rr' must be an integer in -1..%zu", n ? n - 1 : 0);
            st->rr = (long)json_integer_value(v);
        } else if (!strcmp(k, "ratio")) {
            if (!json_is_object(v))
                return bad(r, obj, k, "'ratio' must be an object");
            const char *name;
            json_t *e;
            json_object_foreach(v, name, e) {
                long i = find(r->cfg, ctx, name);
                if (i < 0)
                    return bad(r, obj, name, "'%s' is not a candidate here", name);
                json_t *w = json_object_get(e, "w"), *cur = json_object_get(e, "cur");
                if (!json_is_object(e) || json_object_size(e) != 2 || !json_is_integer(w) ||
                    !json_is_integer(cur) || json_integer_value(w) < 0 ||
                    json_integer_value(w) > 0xffffffffll ||
                    json_integer_value(cur) > (1ll << 52) || json_integer_value(cur) < -(1ll << 52))
                    return bad(r, obj, name, "ratio entry '%s' must be {\"w\": 0..2^32-1, \"cur\": integer}", name);
                st->wrr.w[i] = (uint32_t)json_integer_value(w);
                st->wrr.cur[i] = (int64_t)json_integer_value(cur);
                st->wrr.used = true;
            }
        } else
            return bad(r, obj, k, "unknown key '%s' (rr, ratio)", k);
    }
    return 0;
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

static int read_state(R *r, json_t *s)
{
    if (!json_is_object(s))
        return bad(r, NULL, "state", "'state' must be an object");
    const char *k;
    json_t *v;
    json_object_foreach(s, k, v) {
        const char *name;
        json_t *e;
        if (!strcmp(k, "wideip")) {
            if (!json_is_object(v))
                return bad(r, "state", k, "'wideip' must be an object");
            json_object_foreach(v, name, e) {
                long w = wsel_gslb_find_wideip(r->cfg, name);
                if (w < 0)
                    return bad(r, "state", name, "'%s' names no configured wide IP", name);
                int rc = read_stepst(r, name, e, &r->in->wideip_st[w], r->cfg->wideips[w].n_pools,
                                     find_wpool, &r->cfg->wideips[w]);
                if (rc)
                    return rc;
            }
        } else if (!strcmp(k, "pool")) {
            if (!json_is_object(v))
                return bad(r, "state", k, "'pool' must be an object");
            json_object_foreach(v, name, e) {
                long p = wsel__gslb_find_pool(r->cfg, name);
                if (p < 0)
                    return bad(r, "state", name, "'%s' names no configured pool", name);
                if (!json_is_object(e))
                    return bad(r, "state", name, "'%s' must be an object", name);
                const char *step;
                json_t *so;
                json_object_foreach(e, step, so) {
                    int si = !strcmp(step, "preferred") ? 0 : !strcmp(step, "alternate") ? 1
                             : !strcmp(step, "fallback") ? 2 : -1;
                    if (si < 0)
                        return bad(r, name, step, "unknown step '%s' (preferred, alternate, fallback)", step);
                    int rc = read_stepst(r, name, so, &r->in->pool_st[(size_t)p * 3 + (size_t)si],
                                         r->cfg->pools[p].n_members, find_member, &r->cfg->pools[p]);
                    if (rc)
                        return rc;
                }
            }
        } else
            return bad(r, "state", k, "unknown key '%s' (wideip, pool)", k);
    }
    return 0;
}

static int read_random(R *r, json_t *a)
{
    if (!json_is_array(a))
        return bad(r, NULL, "random", "'random' must be an array of non-negative integers");
    size_t n = json_array_size(a);
    if (n && !(r->in->random = calloc(n, sizeof *r->in->random)))
        return wsel__fail(r->err, WSEL_E_NOMEM, r->file, 0, 0, NULL, NULL, NULL, "out of memory");
    size_t i;
    json_t *e;
    json_array_foreach(a, i, e) {
        int rc = want_uint(r, NULL, "random", e, &r->in->random[i]);
        if (rc)
            return rc;
        r->in->n_random++;
    }
    return 0;
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
    if (!json_is_object(root))
        rc = bad(&r, NULL, NULL, "inputs must be a JSON object");
    const char *k;
    json_t *v;
    if (!rc)
        json_object_foreach(root, k, v) {
            if (!strcmp(k, "now"))
                rc = want_uint(&r, NULL, k, v, &in->now);
            else if (!strcmp(k, "query"))
                rc = read_query(&r, v);
            else if (!strcmp(k, "members"))
                rc = read_members(&r, v);
            else if (!strcmp(k, "pools"))
                rc = read_pools(&r, v);
            else if (!strcmp(k, "geo"))
                rc = read_geo(&r, v);
            else if (!strcmp(k, "persistence"))
                rc = read_persistence(&r, v);
            else if (!strcmp(k, "state"))
                rc = read_state(&r, v);
            else if (!strcmp(k, "random"))
                rc = read_random(&r, v);
            else
                rc = bad(&r, NULL, k,
                         "unknown key '%s' (now, query, members, pools, geo, persistence, state, random)", k);
            if (rc)
                break;
        }
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
    char *buf;
    size_t n;
    int rc = wsel__gslb_read_file(path, out != NULL, "inputs", &buf, &n, err);
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
