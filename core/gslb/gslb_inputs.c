/* GSLB engine inputs (doc/gslb.md §3): the JSON reader and setters.
 * The reader lives in the library, not the CLI, so that tests, the engine fuzz target and
 * other callers share one strict reader (doc/gslb.md §3). It reads through the one JSON
 * layer (core/json.h): syntax errors at their FILE:LINE:COL, every other error at the
 * JSON path of the offending value (and that value's line and column), the layer's one
 * policy for unknown and duplicate keys. Every member, pool and wide-IP name must
 * resolve against the config. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../json.h"
#include "gslb_internal.h"

/* One read: the parsed document (file, text, error record), the config names resolve
 * against, the inputs being filled. */
typedef struct inputs_reader {
    const wsel__json *doc;
    const wsel_gslb_config *cfg;
    wsel_gslb_inputs *in;
    /* the key that named each virtual server (members), pool (pools, state.pool) and wide
     * IP (state.wideip) so far: one object named two ways (s:v and /Common/s:/Common/v)
     * is an error, not last-wins */
    const char **vs_key, **pool_key, **st_pool_key, **wideip_key;
} inputs_reader;

/* The object at p (named `name`) is the one `seen[i]` already named: an error naming the
 * earlier key; else it records the name. */
static int once(const inputs_reader *ir, const wsel__jpath *p, const char **seen, size_t i,
                const char *name, const char *what)
{
    if (seen[i])
        return wsel__json_fail_key(ir->doc, p, WSEL_E_DUPKEY,
                                   "names the same %s as \"%s\" (one entry each)", what, seen[i]);
    seen[i] = name;
    return 0;
}

/* A fresh generation number, unique across all inputs objects of the process: a state
 * caches availability per (inputs, generation), and a freed inputs' address may be
 * reused by a new one. */
static _Atomic uint64_t generations;

static void bump(wsel_gslb_inputs *in)
{
    in->gen = atomic_fetch_add(&generations, 1) + 1;
}

static int nomem(const inputs_reader *ir)
{
    return wsel__fail(ir->doc->err, WSEL_E_NOMEM, ir->doc->name, 0, 0, NULL, NULL, NULL,
                      "out of memory");
}

/* ---- walking objects ---- */

/* A member of a known key: reads v (at p) into what ctx points at. */
typedef int (*field_fn)(inputs_reader *ir, const wsel__jpath *p, const json_t *v, void *ctx);

typedef struct field {
    const char *name;
    field_fn fn;
} field;

#define MAX_FIELDS 16

/* The object v at p: every key must be one of fields[0..n) (the layer's unknown-key
 * policy); each member goes to its field's function, in text order. */
static int read_fields(inputs_reader *ir, const wsel__jpath *p, const json_t *v,
                       const field *fields, size_t n, void *ctx)
{
    const char *keys[MAX_FIELDS + 1];
    for (size_t i = 0; i < n; i++)
        keys[i] = fields[i].name;
    keys[n] = NULL;
    int rc = wsel__json_obj(ir->doc, p, v);
    if (rc || (rc = wsel__json_keys(ir->doc, p, v, keys)))
        return rc;
    const char *k;
    json_t *e;
    json_object_foreach((json_t *)v, k, e) {
        wsel__jpath kp = wsel__jkey(p, k);
        for (size_t i = 0; i < n; i++)
            if (!strcmp(k, fields[i].name) && (rc = fields[i].fn(ir, &kp, e, ctx)))
                return rc;
    }
    return 0;
}

/* A member of an object keyed by names (members, pools, geo, state): `name` is its key. */
typedef int (*named_fn)(inputs_reader *ir, const wsel__jpath *p, const char *name,
                        const json_t *v, void *ctx);

static int read_named(inputs_reader *ir, const wsel__jpath *p, const json_t *v, named_fn fn,
                      void *ctx)
{
    int rc = wsel__json_obj(ir->doc, p, v);
    if (rc)
        return rc;
    const char *k;
    json_t *e;
    json_object_foreach((json_t *)v, k, e) {
        wsel__jpath kp = wsel__jkey(p, k);
        if ((rc = fn(ir, &kp, k, e, ctx)))
            return rc;
    }
    return 0;
}

/* A string at p that is an IPv4/IPv6 address (or, with `subnet`, ADDRESS/LENGTH too). */
static int read_addr(inputs_reader *ir, const wsel__jpath *p, const json_t *v, bool subnet,
                     wsel_gslb_addr *a)
{
    const char *s;
    unsigned prefix;
    int rc = wsel__json_str(ir->doc, p, v, &s);
    if (rc || wsel__gslb_parse_addr(s, a) ||
        (subnet && strchr(s, '/') && wsel__gslb_parse_subnet(s, a, &prefix)))
        return rc;
    return wsel__json_fail(ir->doc, p, WSEL_E_RANGE, "'%s' is not an IPv4/IPv6 address", s);
}

/* ---- query ---- */

/* query.name: a domain name of at most 255 bytes; query.type: A or AAAA (any case). */
static int q_text(inputs_reader *ir, const wsel__jpath *p, const json_t *v, void *ctx)
{
    (void)ctx;
    const char *s;
    int rc = wsel__json_str(ir->doc, p, v, &s);
    if (rc)
        return rc;
    if (!strcmp(p->key, "type")) {
        int t = wsel_gslb_type_find(s);
        if (t < 0)
            return wsel__json_fail(ir->doc, p, WSEL_E_RANGE,
                                   "query type '%s' not supported (A or AAAA)", s);
        wsel__gslb_fmt(ir->in->qtype, sizeof ir->in->qtype, "%s",
                       wsel_gslb_type_name((wsel_gslb_type)t));
    } else if (strlen(s) >= sizeof ir->in->qname) {
        return wsel__json_fail(ir->doc, p, WSEL_E_RANGE,
                               "expected a domain name of at most %zu bytes",
                               sizeof ir->in->qname - 1);
    } else {
        memcpy(ir->in->qname, s, strlen(s) + 1);
    }
    return 0;
}

static int q_ldns(inputs_reader *ir, const wsel__jpath *p, const json_t *v, void *ctx)
{
    (void)ctx;
    return read_addr(ir, p, v, false, &ir->in->ldns);
}

static int q_ecs(inputs_reader *ir, const wsel__jpath *p, const json_t *v, void *ctx)
{
    (void)ctx;
    return json_is_null(v) ? 0 : read_addr(ir, p, v, true, &ir->in->ecs); /* ECS: a subnet */
}

static const field query_fields[] = {
    {"name", q_text}, {"type", q_text}, {"ldns", q_ldns}, {"ecs", q_ecs}};

/* ---- members.SERVER:VS, pools.NAME ---- */

static int m_flag(inputs_reader *ir, const wsel__jpath *p, const json_t *v, void *ctx)
{
    wsel__gslb_vsin *vi = ctx;
    return wsel__json_bool(ir->doc, p, v, p->key[0] == 'u' ? &vi->up : &vi->limit);
}

/* A metric: a number in 0..1e15, or null = not acquired. */
static int m_metric(inputs_reader *ir, const wsel__jpath *p, const json_t *v, void *ctx)
{
    wsel__gslb_vsin *vi = ctx;
    int m = 0;
    while (m < WSEL_GSLB_METRIC_COUNT_ - 1 && strcmp(p->key, wsel_gslb_metric_key(m)))
        m++;
    if (json_is_null(v)) {
        vi->have &= (uint16_t)~(1u << m);
        return 0;
    }
    if (!json_is_number(v))
        return wsel__json_fail(ir->doc, p, WSEL_E_TYPE, "expected a number in 0..1e+15 or null");
    double d;
    int rc = wsel__json_num(ir->doc, p, v, 0, 1e15, &d);
    if (rc)
        return rc;
    wsel_gslb_inputs_set_metric(ir->in, (size_t)(vi - ir->in->vs), (wsel_gslb_metric)m, d);
    return 0;
}

static const field member_fields[] = {
    {"up", m_flag},          {"limit_exceeded", m_flag},  {"rtt_us", m_metric},
    {"completion_rate", m_metric}, {"hops", m_metric},    {"cpu_pct", m_metric},
    {"kbps", m_metric},      {"connections", m_metric},   {"pps", m_metric},
    {"vs_capacity", m_metric}, {"vs_score", m_metric},    {"link_capacity", m_metric}};

static int member(inputs_reader *ir, const wsel__jpath *p, const char *name, const json_t *v,
                  void *ctx)
{
    (void)ctx;
    long vs = wsel__gslb_find_vs(ir->cfg, name);
    if (vs < 0)
        return wsel__json_fail_key(ir->doc, p, WSEL_E_REFERENCE,
                                   "names no configured virtual server (SERVER:VS)");
    int rc = once(ir, p, ir->vs_key, (size_t)vs, name, "virtual server");
    if (rc)
        return rc;
    return read_fields(ir, p, v, member_fields, sizeof member_fields / sizeof member_fields[0],
                       &ir->in->vs[vs]);
}

static int p_flag(inputs_reader *ir, const wsel__jpath *p, const json_t *v, void *ctx)
{
    size_t pool = *(const size_t *)ctx;
    bool *flags = p->key[0] == 'h' ? ir->in->pool_held : ir->in->pool_limit;
    return wsel__json_bool(ir->doc, p, v, &flags[pool]);
}

static const field pool_fields[] = {{"held_down", p_flag}, {"limit_exceeded", p_flag}};

/* The fields of an object about a pool, each given the pool's index. */
typedef struct pool_fieldset {
    const field *fields;
    size_t n;
    const char **seen;   /* the key that named each pool so far */
} pool_fieldset;

/* pools.NAME, state.pool.NAME: NAME must name a configured pool; ctx: the fields. */
static int pool(inputs_reader *ir, const wsel__jpath *p, const char *name, const json_t *v,
                void *ctx)
{
    const pool_fieldset *fs = ctx;
    long pl = wsel__gslb_find_pool_key(ir->cfg, name, -1); /* */
    if (pl < 0)
        return wsel__json_fail_key(ir->doc, p, WSEL_E_REFERENCE, "names no configured pool");
    int rc = once(ir, p, fs->seen, (size_t)pl, name, "pool");
    if (rc)
        return rc;
    size_t index = (size_t)pl;
    return read_fields(ir, p, v, fs->fields, fs->n, &index);
}

/* ---- geo.ADDRESS ---- */

/* continent, country, state, isp: a string, or null = unknown. */
static int g_attr(inputs_reader *ir, const wsel__jpath *p, const json_t *v, void *ctx)
{
    static const char *const attrs[4] = {"continent", "country", "state", "isp"};
    wsel__gslb_geo *ge = ctx;
    int i = 0;
    while (i < 3 && strcmp(p->key, attrs[i]))
        i++;
    if (json_is_null(v))
        return 0;
    if (!json_is_string(v))
        return wsel__json_fail(ir->doc, p, WSEL_E_TYPE, "expected a string or null");
    const char *s;
    int rc = wsel__json_str(ir->doc, p, v, &s);
    if (rc)
        return rc;
    return (ge->attr[i] = wsel__gslb_strdup(s)) ? 0 : nomem(ir);
}

static const field geo_fields[] = {
    {"continent", g_attr}, {"country", g_attr}, {"state", g_attr}, {"isp", g_attr}};

static int geo_entry(inputs_reader *ir, const wsel__jpath *p, const char *name,
                     const json_t *v, void *ctx)
{
    (void)ctx;
    wsel__gslb_geo *ge = &ir->in->geo[ir->in->n_geo++];
    if (!wsel__gslb_parse_addr(name, &ge->addr))
        return wsel__json_fail_key(ir->doc, p, WSEL_E_RANGE, "'%s' is not an IPv4/IPv6 address",
                                   name);
    return read_fields(ir, p, v, geo_fields, 4, ge);
}

static int t_geo(inputs_reader *ir, const wsel__jpath *p, const json_t *v, void *ctx)
{
    (void)ctx;
    size_t n = json_is_object(v) ? json_object_size(v) : 0;
    if (n && !(ir->in->geo = calloc(n, sizeof *ir->in->geo)))
        return nomem(ir);
    return read_named(ir, p, v, geo_entry, NULL);
}

/* ---- persistence: [{wideip, key, pool, member, expires}] ---- */

static long member_in_pool(const wsel_gslb_config *cfg, size_t pool, const char *key)
{
    long vs = wsel__gslb_find_vs(cfg, key);
    const wsel_gslb_pool *p = &cfg->pools[pool];
    for (size_t m = 0; m < p->n_members; m++)
        if (vs >= 0 ? p->members[m].vs == vs : !strcmp(p->members[m].key, key))
            return (long)m;
    return -1;
}

/* The string member `key` of the record at p: *s, and its path in *kp. */
static int record_str(inputs_reader *ir, const wsel__jpath *p, const json_t *rec,
                      const char *key, wsel__jpath *kp, const char **s)
{
    const json_t *v;
    *kp = wsel__jkey(p, key);
    int rc = wsel__json_member(ir->doc, p, rec, key, true, &v);
    return rc ? rc : wsel__json_str(ir->doc, kp, v, s);
}

static int persistence_record(inputs_reader *ir, const wsel__jpath *p, const json_t *rec,
                              wsel__gslb_prec *pr)
{
    static const char *const keys[] = {"wideip", "key", "pool", "member", "expires", NULL};
    const json_t *exp;
    const char *wname, *key, *pname, *mname;
    wsel__jpath kw, kk, kp, km, ke = wsel__jkey(p, "expires");
    int rc = wsel__json_obj(ir->doc, p, rec);
    if (rc || (rc = wsel__json_keys(ir->doc, p, rec, keys)) ||
        (rc = record_str(ir, p, rec, "wideip", &kw, &wname)) ||
        (rc = record_str(ir, p, rec, "key", &kk, &key)) ||
        (rc = record_str(ir, p, rec, "pool", &kp, &pname)) ||
        (rc = record_str(ir, p, rec, "member", &km, &mname)) ||
        (rc = wsel__json_member(ir->doc, p, rec, "expires", true, &exp)))
        return rc;
    long wi = wsel__gslb_find_wideip_key(ir->cfg, wname, -1); /* */
    if (wi < 0)
        return wsel__json_fail(ir->doc, &kw, WSEL_E_REFERENCE, "'%s' names no configured wide IP",
                               wname);
    if (!strchr(key, '/') || !wsel__gslb_parse_subnet(key, &pr->net, &pr->prefix))
        return wsel__json_fail(ir->doc, &kk, WSEL_E_RANGE,
                               "'%s' is not ADDRESS/LENGTH (the length is required)", key);
    long pl = wsel__gslb_find_pool_key(ir->cfg, pname, (int)ir->cfg->wideips[wi].type);
    if (pl < 0)
        return wsel__json_fail(ir->doc, &kp, WSEL_E_REFERENCE, "'%s' names no configured pool",
                               pname);
    long m = member_in_pool(ir->cfg, (size_t)pl, mname);
    if (m < 0)
        return wsel__json_fail(ir->doc, &km, WSEL_E_REFERENCE, "'%s' is not a member of pool %s",
                               mname, ir->cfg->pools[pl].name);
    if ((rc = wsel__json_u64(ir->doc, &ke, exp, &pr->expires)))
        return rc;
    pr->wideip = (size_t)wi;
    pr->pool = (size_t)pl;
    pr->member = (size_t)m;
    return 0;
}

/* An array at p: room for its n elements of `size` bytes (zeroed), stored at once into
 * the array pointer at `dest` (the address of a pointer of any element type, as
 * wsel__grow takes it; the inputs free it, also after a failure), then item() on each,
 * counted in *count as it is read. */
typedef int (*item_fn)(inputs_reader *ir, const wsel__jpath *p, const json_t *v, void *elem);

static int read_array(inputs_reader *ir, const wsel__jpath *p, const json_t *v, void *dest,
                      size_t size, size_t *count, item_fn item)
{
    size_t n;
    int rc = wsel__json_arr(ir->doc, p, v, SIZE_MAX, &n);
    if (rc || !n)
        return rc;
    char *room = calloc(n, size);
    if (!room)
        return nomem(ir);
    memcpy(dest, &room, sizeof room);
    for (size_t i = 0; i < n; i++) {
        wsel__jpath ip = wsel__jidx(p, i);
        if ((rc = item(ir, &ip, json_array_get(v, i), room + i * size)))
            return rc;
        (*count)++;
    }
    return 0;
}

static int persistence_item(inputs_reader *ir, const wsel__jpath *p, const json_t *v,
                            void *elem)
{
    return persistence_record(ir, p, v, elem);
}

/* A record's (wide IP, key) and its place in the file. */
typedef struct prec_at {
    const wsel__gslb_prec *r;
    size_t i;
} prec_at;

/* By wide IP, then key (family, length, network); 0 when both are equal. */
static int cmp_key(const wsel__gslb_prec *x, const wsel__gslb_prec *y)
{
    if (x->wideip != y->wideip)
        return x->wideip < y->wideip ? -1 : 1;
    if (x->net.family != y->net.family)
        return x->net.family < y->net.family ? -1 : 1;
    if (x->prefix != y->prefix)
        return x->prefix < y->prefix ? -1 : 1;
    return memcmp(x->net.bytes, y->net.bytes, sizeof x->net.bytes);
}

static int cmp_prec(const void *a, const void *b)
{
    const prec_at *x = a, *y = b;
    int c = cmp_key(x->r, y->r);
    return c ? c : x->i < y->i ? -1 : 1;
}

/* Two records for one (wide IP, key) (keys compared as networks: 192.0.2.9/24 is
 * 192.0.2.0/24): an error at the key of the first record that repeats an earlier one. */
static int persistence_unique(inputs_reader *ir, const wsel__jpath *p)
{
    size_t n = ir->in->n_prec, dup = SIZE_MAX, orig = 0;
    prec_at *ix = malloc((n ? n : 1) * sizeof *ix);
    if (!ix)
        return nomem(ir);
    for (size_t i = 0; i < n; i++)
        ix[i] = (prec_at){&ir->in->prec[i], i};
    qsort(ix, n, sizeof *ix, cmp_prec);
    for (size_t k = 1; k < n; k++)
        if (!cmp_key(ix[k - 1].r, ix[k].r) && ix[k].i < dup) {
            dup = ix[k].i;
            orig = ix[k - 1].i;
        }
    free(ix);
    if (dup == SIZE_MAX)
        return 0;
    wsel__jpath ip = wsel__jidx(p, dup), kp = wsel__jkey(&ip, "key");
    return wsel__json_fail(ir->doc, &kp, WSEL_E_DUPKEY,
                           "a second record for wide IP %s and this key (the first: $.persistence[%zu])",
                           ir->cfg->wideips[ir->in->prec[dup].wideip].name, orig);
}

static int t_persistence(inputs_reader *ir, const wsel__jpath *p, const json_t *v, void *ctx)
{
    (void)ctx;
    int rc = read_array(ir, p, v, &ir->in->prec, sizeof *ir->in->prec, &ir->in->n_prec,
                        persistence_item);
    return rc ? rc : persistence_unique(ir, p);
}

/* ---- state: method state {"rr": N, "ratio": {NAME: {"w": N, "cur": N}}} ---- */

/* One wide IP's or one (pool, step)'s method state: its n candidates, named among the
 * wide IP's pools (wideip) or the pool's members. */
typedef struct step_target {
    wsel__gslb_stepst *st;
    size_t n;
    const wsel_gslb_wideip *wideip;
    size_t pool;
} step_target;

static int s_rr(inputs_reader *ir, const wsel__jpath *p, const json_t *v, void *ctx)
{
    step_target *t = ctx;
    long long rr;
    int rc = wsel__json_int(ir->doc, p, v, -1, (long long)t->n - 1, &rr);
    if (!rc)
        t->st->rr = (long)rr;
    return rc;
}

/* The candidate `name` names: a pool of the wide IP, or a member of the pool; -1. */
static long candidate(const inputs_reader *ir, const step_target *t, const char *name)
{
    if (!t->wideip)
        return member_in_pool(ir->cfg, t->pool, name);
    long p = wsel__gslb_find_pool_key(ir->cfg, name, (int)t->wideip->type);
    for (size_t i = 0; p >= 0 && i < t->wideip->n_pools; i++)
        if (t->wideip->pools[i].pool == p)
            return (long)i;
    return -1;
}

static int s_ratio_entry(inputs_reader *ir, const wsel__jpath *p, const char *name,
                         const json_t *v, void *ctx)
{
    static const char *const keys[] = {"w", "cur", NULL};
    step_target *t = ctx;
    long i = candidate(ir, t, name);
    if (i < 0)
        return wsel__json_fail_key(ir->doc, p, WSEL_E_REFERENCE, "'%s' is not a candidate here (%s)",
                                   name, t->wideip ? "a pool of the wide IP" : "a member of the pool");
    const json_t *w, *cur;
    long long wv, cv;
    wsel__jpath wp = wsel__jkey(p, "w"), cp = wsel__jkey(p, "cur");
    int rc = wsel__json_obj(ir->doc, p, v);
    if (rc || (rc = wsel__json_keys(ir->doc, p, v, keys)) ||
        (rc = wsel__json_member(ir->doc, p, v, "w", true, &w)) ||
        (rc = wsel__json_member(ir->doc, p, v, "cur", true, &cur)) ||
        (rc = wsel__json_int(ir->doc, &wp, w, 0, 0xffffffffll, &wv)) ||
        (rc = wsel__json_int(ir->doc, &cp, cur, -(1ll << 52), 1ll << 52, &cv)))
        return rc;
    t->st->wrr.w[i] = (uint32_t)wv;
    t->st->wrr.cur[i] = (int64_t)cv;
    t->st->wrr.used = true;
    return 0;
}

static int s_ratio(inputs_reader *ir, const wsel__jpath *p, const json_t *v, void *ctx)
{
    return read_named(ir, p, v, s_ratio_entry, ctx);
}

static const field step_fields[] = {{"rr", s_rr}, {"ratio", s_ratio}};

static int st_wideip(inputs_reader *ir, const wsel__jpath *p, const char *name,
                     const json_t *v, void *ctx)
{
    (void)ctx;
    long wi = wsel__gslb_find_wideip_key(ir->cfg, name, -1); /* */
    if (wi < 0)
        return wsel__json_fail_key(ir->doc, p, WSEL_E_REFERENCE, "names no configured wide IP");
    int rc = once(ir, p, ir->wideip_key, (size_t)wi, name, "wide IP");
    if (rc)
        return rc;
    const wsel_gslb_wideip *w = &ir->cfg->wideips[wi];
    step_target t = {&ir->in->wideip_st[wi], w->n_pools, w, 0};
    return read_fields(ir, p, v, step_fields, 2, &t);
}

static int st_pool_step(inputs_reader *ir, const wsel__jpath *p, const json_t *v, void *ctx)
{
    size_t pl = *(const size_t *)ctx;
    size_t s = !strcmp(p->key, "preferred") ? 0 : !strcmp(p->key, "alternate") ? 1 : 2;
    step_target t = {&ir->in->pool_st[pl * 3 + s], ir->cfg->pools[pl].n_members, NULL, pl};
    return read_fields(ir, p, v, step_fields, 2, &t);
}

static const field pool_step_fields[] = {
    {"preferred", st_pool_step}, {"alternate", st_pool_step}, {"fallback", st_pool_step}};

static int st_wideips(inputs_reader *ir, const wsel__jpath *p, const json_t *v, void *ctx)
{
    return read_named(ir, p, v, st_wideip, ctx);
}

/* An object keyed by pool names, each pool's object with these fields. */
static int pools_with(inputs_reader *ir, const wsel__jpath *p, const json_t *v,
                      const field *fields, size_t n, const char **seen)
{
    pool_fieldset fs = {fields, n, seen};
    return read_named(ir, p, v, pool, &fs);
}

static int st_pools(inputs_reader *ir, const wsel__jpath *p, const json_t *v, void *ctx)
{
    (void)ctx;
    return pools_with(ir, p, v, pool_step_fields, 3, ir->st_pool_key);
}

static const field state_fields[] = {{"wideip", st_wideips}, {"pool", st_pools}};

/* ---- the top level ---- */

static int t_now(inputs_reader *ir, const wsel__jpath *p, const json_t *v, void *ctx)
{
    (void)ctx;
    return wsel__json_u64(ir->doc, p, v, &ir->in->now);
}

static int t_query(inputs_reader *ir, const wsel__jpath *p, const json_t *v, void *ctx)
{
    return read_fields(ir, p, v, query_fields, 4, ctx);
}

static int t_members(inputs_reader *ir, const wsel__jpath *p, const json_t *v, void *ctx)
{
    return read_named(ir, p, v, member, ctx);
}

static int t_pools(inputs_reader *ir, const wsel__jpath *p, const json_t *v, void *ctx)
{
    (void)ctx;
    return pools_with(ir, p, v, pool_fields, 2, ir->pool_key);
}

static int t_state(inputs_reader *ir, const wsel__jpath *p, const json_t *v, void *ctx)
{
    return read_fields(ir, p, v, state_fields, 2, ctx);
}

static int random_item(inputs_reader *ir, const wsel__jpath *p, const json_t *v, void *elem)
{
    return wsel__json_u64(ir->doc, p, v, elem);
}

static int t_random(inputs_reader *ir, const wsel__jpath *p, const json_t *v, void *ctx)
{
    (void)ctx;
    return read_array(ir, p, v, &ir->in->random, sizeof *ir->in->random, &ir->in->n_random,
                      random_item);
}

/* "_needs": the note `wsel gslb inputs` writes (which method reads which metric); an
 * object, not read further (doc/gslb.md §3). */
static int t_note(inputs_reader *ir, const wsel__jpath *p, const json_t *v, void *ctx)
{
    (void)ctx;
    return wsel__json_obj(ir->doc, p, v);
}

static const field root_fields[] = {
    {"_needs", t_note}, {"now", t_now},  {"query", t_query},           {"members", t_members}, {"pools", t_pools},
    {"geo", t_geo},  {"persistence", t_persistence}, {"state", t_state},     {"random", t_random}};

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
                                 const char *data, size_t len, wsel_gslb_inputs **out,
                                 wsel_error *err)
{
    if (out)
        *out = NULL;
    if (!name)
        name = "(inputs)";
    if (!cfg || !out || (!data && len))
        return wsel__fail(err, WSEL_E_ARG, name, 0, 0, NULL, NULL, NULL, "no inputs given");
    if (len > WSEL_GSLB_MAX_FILE)
        return wsel__fail(err, WSEL_E_LIMIT, name, 0, 0, NULL, NULL, NULL,
                          "inputs larger than %u bytes", WSEL_GSLB_MAX_FILE);
    wsel__json doc;
    int rc = wsel__json_parse(&doc, name, data, len, err);
    if (rc)
        return rc;
    wsel_gslb_inputs *in = NULL;
    rc = wsel_gslb_inputs_new(cfg, &in, err);
    if (!rc) {
        inputs_reader ir = {&doc, cfg, in, NULL, NULL, NULL, NULL};
        ir.vs_key = calloc(cfg->n_vs + 1, sizeof *ir.vs_key);
        ir.pool_key = calloc(cfg->n_pools + 1, sizeof *ir.pool_key);
        ir.st_pool_key = calloc(cfg->n_pools + 1, sizeof *ir.st_pool_key);
        ir.wideip_key = calloc(cfg->n_wideips + 1, sizeof *ir.wideip_key);
        wsel__jpath root = WSEL__JROOT;
        if (!ir.vs_key || !ir.pool_key || !ir.st_pool_key || !ir.wideip_key)
            rc = nomem(&ir);
        else
            rc = read_fields(&ir, &root, doc.root, root_fields,
                             sizeof root_fields / sizeof root_fields[0], NULL);
        free(ir.vs_key);
        free(ir.pool_key);
        free(ir.st_pool_key);
        free(ir.wideip_key);
    }
    wsel__json_free(&doc);
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
    if (!cfg || !path || !out)
        return wsel__fail(err, WSEL_E_ARG, path, 0, 0, NULL, NULL, NULL,
                          !cfg ? "no config given" : "no file given");
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

wsel_gslb_type wsel_gslb_inputs_qtype(const wsel_gslb_inputs *in)
{
    int t = in ? wsel_gslb_type_find(in->qtype) : -1;
    return t < 0 ? WSEL_GSLB_TYPE_A : (wsel_gslb_type)t;
}

const char *wsel_gslb_inputs_qname(const wsel_gslb_inputs *in)
{
    return in ? in->qname : NULL;
}
