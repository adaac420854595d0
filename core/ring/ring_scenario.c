/* The ring's scenario reader (include/wsel/ring.h; man/wsel.1, RING SCENARIO): the file
 * through core/io.h, the JSON through core/json.h, addresses through core/addr.h. Every
 * value is checked against its documented range and every fault reported at its JSON
 * path; unknown keys are errors. The run is ring_scenario_run.c's. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../addr.h"
#include "../io.h"
#include "ring_scenario.h"

#define NAME_MAX_BYTES 253
#define HASH_MAX 9007199254740992ll /* 2^53: hashes are exact in a double */
#define COUNT_MAX 10000000ll        /* picks of one rr or retry op */
#define TTL_MAX 2147483647ll
#define ADVANCE_MAX 1e9             /* seconds of one advance op */

/* The parsed document being read and the scenario it fills. */
typedef struct scenario_doc {
    const wsel__json *json;
    wsel_ring_scenario *sc;
} scenario_doc;

/* ---- memory: every block the scenario owns ------------------------------------------ */

/* n zeroed elements of `size` bytes, freed with the scenario; NULL when out of memory. */
static void *block_new(wsel_ring_scenario *sc, size_t n, size_t size)
{
    wsel__ring_blocks *b = &sc->blocks;
    if (!wsel__grow(&b->block, &b->cap, b->n + 1, sizeof *b->block))
        return NULL;
    void *m = calloc(n ? n : 1, size);
    if (m)
        b->block[b->n++] = m;
    return m;
}

static int nomem(const scenario_doc *d)
{
    return wsel__fail(d->json->err, WSEL_E_NOMEM, d->sc->name, 0, 0, NULL, NULL, NULL,
                      "out of memory reading the scenario");
}

static int copy_str(const scenario_doc *d, const char *s, const char **out)
{
    size_t n = strlen(s) + 1;
    char *c = block_new(d->sc, n, 1);
    if (!c)
        return nomem(d);
    memcpy(c, s, n);
    *out = c;
    return WSEL_OK;
}

/* ---- values ---------------------------------------------------------------------------- */

/* A name (host, address, SRV target): a string of 1..253 bytes without NUL, copied. */
static int get_name(const scenario_doc *d, const wsel__jpath *p, const json_t *v,
                    const char **out)
{
    size_t n = json_is_string(v) ? json_string_length(v) : 0;
    if (n == 0 || n > NAME_MAX_BYTES || strlen(json_string_value(v)) != n)
        return wsel__json_fail(d->json, p, json_is_string(v) ? WSEL_E_RANGE : WSEL_E_TYPE,
                               "expected a non-empty string of at most %d bytes",
                               NAME_MAX_BYTES);
    return copy_str(d, json_string_value(v), out);
}

/* Member `key` of the object o at p as a name; absent: an error when required, else
 * *out stays. */
static int name_member(const scenario_doc *d, const wsel__jpath *p, const json_t *o,
                       const char *key, bool required, const char **out)
{
    const json_t *v;
    int rc = wsel__json_member(d->json, p, o, key, required, &v);
    if (rc || !v)
        return rc;
    wsel__jpath kp = wsel__jkey(p, key);
    return get_name(d, &kp, v, out);
}

/* Member `key` as an integer in [lo, hi]; absent: an error when required, else *out =
 * dflt. */
static int int_member(const scenario_doc *d, const wsel__jpath *p, const json_t *o,
                      const char *key, bool required, long long lo, long long hi,
                      long long dflt, long long *out)
{
    const json_t *v;
    *out = dflt;
    int rc = wsel__json_member(d->json, p, o, key, required, &v);
    if (rc || !v)
        return rc;
    wsel__jpath kp = wsel__jkey(p, key);
    return wsel__json_int(d->json, &kp, v, lo, hi, out);
}

/* As int_member, for the uint32_t fields of ops and records. */
static int u32_member(const scenario_doc *d, const wsel__jpath *p, const json_t *o,
                      const char *key, bool required, long long lo, long long hi,
                      long long dflt, uint32_t *out)
{
    long long x;
    int rc = int_member(d, p, o, key, required, lo, hi, dflt, &x);
    *out = (uint32_t)x;
    return rc;
}

/* Member `key`, required, an integer in 0..hi. */
static int u64_member(const scenario_doc *d, const wsel__jpath *p, const json_t *o,
                      const char *key, long long hi, uint64_t *out)
{
    long long x;
    int rc = int_member(d, p, o, key, true, 0, hi, 0, &x);
    *out = (uint64_t)x;
    return rc;
}

/* A port 1..65535, 80 when absent. */
static int port_member(const scenario_doc *d, const wsel__jpath *p, const json_t *o,
                       uint32_t *out)
{
    return u32_member(d, p, o, "port", false, 1, 65535, 80, out);
}

static int bool_member(const scenario_doc *d, const wsel__jpath *p, const json_t *o,
                       const char *key, bool required, bool *out)
{
    const json_t *v;
    int rc = wsel__json_member(d->json, p, o, key, required, &v);
    if (rc || !v)
        return rc;
    wsel__jpath kp = wsel__jkey(p, key);
    return wsel__json_bool(d->json, &kp, v, out);
}

/* The array v at p, and room for its *n elements of `size` bytes each. */
static void *array_room(const scenario_doc *d, const wsel__jpath *p, const json_t *v,
                        size_t size, size_t *n, int *rc)
{
    if ((*rc = wsel__json_arr(d->json, p, v, SIZE_MAX, n)))
        return NULL;
    void *room = block_new(d->sc, *n, size);
    if (!room)
        *rc = nomem(d);
    return room;
}

/* Reads element i of an array (at path p, its value v) into elem; arg: the reader's own. */
typedef int (*elem_reader)(const scenario_doc *d, const wsel__jpath *p, size_t i,
                           const json_t *v, void *elem, int arg);

/* The array v at p: *n elements of `size` bytes each into *out (freed with the scenario),
 * each read by `read`. */
static int read_array(const scenario_doc *d, const wsel__jpath *p, const json_t *v, size_t size,
                      elem_reader read, int arg, void **out, size_t *n)
{
    int rc;
    char *room = array_room(d, p, v, size, n, &rc);
    for (size_t i = 0; room && i < *n && rc == WSEL_OK; i++) {
        wsel__jpath ip = wsel__jidx(p, i);
        rc = read(d, &ip, i, json_array_get(v, i), room + i * size, arg);
    }
    *out = room;
    return rc;
}

/* Member `key` of the root (NULL when absent), its path into *p. */
static const json_t *top_member(const scenario_doc *d, const char *key, wsel__jpath *p)
{
    *p = wsel__jkey(NULL, key);
    return json_object_get(d->json->root, key);
}

/* Member `key` of the root, a number of seconds > 0; absent: *out stays. */
static int seconds_member(const scenario_doc *d, const char *key, double *out)
{
    wsel__jpath kp;
    const json_t *v = top_member(d, key, &kp);
    double x;
    int rc = v ? wsel__json_num(d->json, &kp, v, -INFINITY, INFINITY, &x) : WSEL_OK;
    if (rc || !v)
        return rc;
    if (!(x > 0))
        return wsel__json_fail(d->json, &kp, WSEL_E_RANGE, "expected a number of seconds > 0");
    *out = x;
    return WSEL_OK;
}

/* ---- the ring's options ---------------------------------------------------------------- */

static int read_order(const scenario_doc *d)
{
    wsel_ring_opts *o = &d->sc->opts;
    wsel__jpath op;
    const json_t *v = top_member(d, "order", &op);
    size_t n;
    int rc = v ? wsel__json_arr(d->json, &op, v, WSEL_RING_MAX_SLOTS, &n) : WSEL_OK;
    if (rc || !v)
        return rc;
    if (n == 0)
        return wsel__json_fail(d->json, &op, WSEL_E_RANGE, "expected 1..%u numbers",
                               WSEL_RING_MAX_SLOTS);
    double *order = block_new(d->sc, n, sizeof *order);
    if (!order)
        return nomem(d);
    for (size_t i = 0; i < n && rc == WSEL_OK; i++) {
        wsel__jpath ip = wsel__jidx(&op, i);
        rc = wsel__json_num(d->json, &ip, json_array_get(v, i), -INFINITY, INFINITY, &order[i]);
    }
    if (rc)
        return rc;
    o->order = order;
    o->order_len = n;
    if (o->wheel_size >= 0 && (size_t)o->wheel_size != n)
        return wsel__json_fail(d->json, &op, WSEL_E_RANGE,
                               "mismatch between size of 'order' (%zu) and 'wheelSize' (%lld)",
                               n, (long long)o->wheel_size);
    return WSEL_OK;
}

/* wheelSize, order, healthThreshold, requery, ttl0, useSRVname, strict, rrStart. */
static int read_options(const scenario_doc *d, const json_t *root)
{
    wsel_ring_opts *o = &d->sc->opts;
    long long x;
    int rc = int_member(d, NULL, root, "wheelSize", false, 1, WSEL_RING_MAX_SLOTS,
                        o->wheel_size, &x);
    o->wheel_size = x;
    rc = rc ? rc : read_order(d);
    wsel__jpath tp;
    const json_t *v = top_member(d, "healthThreshold", &tp);
    if (!rc && v)
        rc = wsel__json_num(d->json, &tp, v, 0, 100, &o->health_threshold);
    rc = rc ? rc : seconds_member(d, "requery", &o->requery);
    rc = rc ? rc : seconds_member(d, "ttl0", &o->ttl0);
    rc = rc ? rc : bool_member(d, NULL, root, "useSRVname", false, &o->use_srv_name);
    rc = rc ? rc : bool_member(d, NULL, root, "strict", false, &o->strict);
    if (rc)
        return rc;
    uint32_t n = o->wheel_size >= 0 ? (uint32_t)o->wheel_size
                 : o->order          ? (uint32_t)o->order_len
                                     : WSEL_RING_DEFAULT_SIZE;
    rc = int_member(d, NULL, root, "rrStart", false, 1, n, o->rr_start, &x);
    o->rr_start = x;
    return rc;
}

/* A host: "name", or {"name", "port", "weight"} (absent port and weight: -1). */
static int read_host(const scenario_doc *d, const wsel__jpath *p, size_t i, const json_t *h,
                     void *elem, int arg)
{
    wsel_ring_host_spec *hs = elem;
    (void)i, (void)arg;
    static const char *const keys[] = {"name", "port", "weight", NULL};
    hs->port = hs->weight = -1;
    if (json_is_string(h)) {
        size_t n = json_string_length(h);
        if (n == 0 || n > NAME_MAX_BYTES)
            return wsel__json_fail(d->json, p, WSEL_E_RANGE,
                                   "expected a non-empty host name of at most %d bytes",
                                   NAME_MAX_BYTES);
        return get_name(d, p, h, &hs->name);
    }
    if (!json_is_object(h))
        return wsel__json_fail(d->json, p, WSEL_E_TYPE,
                               "expected a host name or {name, port, weight}");
    long long port, weight;
    int rc = wsel__json_keys(d->json, p, h, keys);
    rc = rc ? rc : name_member(d, p, h, "name", true, &hs->name);
    rc = rc ? rc : int_member(d, p, h, "port", false, 1, 65535, -1, &port);
    rc = rc ? rc : int_member(d, p, h, "weight", false, 1, WSEL_RING_MAX_WEIGHT, -1, &weight);
    if (rc == WSEL_OK) {
        hs->port = port;
        hs->weight = weight;
    }
    return rc;
}

static int read_hosts(const scenario_doc *d)
{
    wsel__jpath hp;
    const json_t *v = top_member(d, "hosts", &hp);
    void *hosts;
    int rc = v ? read_array(d, &hp, v, sizeof(wsel_ring_host_spec), read_host, 0, &hosts,
                            &d->sc->opts.n_hosts)
               : WSEL_OK;
    if (v)
        d->sc->opts.hosts = hosts;
    return rc;
}

/* ---- DNS answers ------------------------------------------------------------------------- */

/* Entry i of an A, AAAA or SRV record (arg: its wsel_ring_rrtype). */
static int read_record(const scenario_doc *d, const wsel__jpath *p, size_t i, const json_t *o,
                       void *elem, int arg)
{
    wsel_ring_entry *e = elem;
    wsel_ring_rrtype type = (wsel_ring_rrtype)arg;
    (void)i;
    static const char *const srv_keys[] = {"target", "port", "weight", "priority", "ttl", NULL};
    static const char *const ip_keys[] = {"address", "ttl", NULL};
    int rc = wsel__json_obj(d->json, p, o);
    rc = rc ? rc : wsel__json_keys(d->json, p, o, type == WSEL_RING_SRV ? srv_keys : ip_keys);
    if (type == WSEL_RING_SRV) {
        rc = rc ? rc : name_member(d, p, o, "target", true, &e->address);
        rc = rc ? rc : u32_member(d, p, o, "port", true, 0, 65535, 0, &e->port);
        rc = rc ? rc : u32_member(d, p, o, "weight", true, 0, 65535, 0, &e->weight);
        rc = rc ? rc : u32_member(d, p, o, "priority", true, 0, 65535, 0, &e->priority);
    } else if (!rc && !(rc = name_member(d, p, o, "address", true, &e->address))) {
        uint8_t bin[16];
        int fam = wsel__addr_parse(e->address, strlen(e->address), false, bin);
        if (fam != (type == WSEL_RING_A ? 4 : 6)) {
            wsel__jpath ap = wsel__jkey(p, "address");
            return wsel__json_fail(d->json, &ap, WSEL_E_RANGE, "'%s' is not an %s address",
                                   e->address, type == WSEL_RING_A ? "IPv4" : "IPv6");
        }
    }
    return rc ? rc : u32_member(d, p, o, "ttl", false, 0, TTL_MAX, 300, &e->ttl);
}

/* Member `key` (A, AAAA, SRV) of the answer o at p, when present: its records. */
static int read_records(const scenario_doc *d, const wsel__jpath *p, const json_t *o,
                        const char *key, wsel_ring_rrtype type, wsel_ring_entry **out,
                        size_t *n)
{
    const json_t *v = json_object_get(o, key);
    if (!v)
        return WSEL_OK;
    wsel__jpath kp = wsel__jkey(p, key);
    void *e;
    int rc = read_array(d, &kp, v, sizeof(wsel_ring_entry), read_record, (int)type, &e, n);
    *out = e;
    return rc;
}

static int read_fail(const scenario_doc *d, const wsel__jpath *p, const json_t *f,
                     const char **out)
{
    static const char *const kinds[] = {"nxdomain", "servfail", "timeout"};
    wsel__jpath fp = wsel__jkey(p, "fail");
    for (size_t i = 0; json_is_string(f) && i < sizeof kinds / sizeof kinds[0]; i++)
        if (strcmp(json_string_value(f), kinds[i]) == 0) {
            *out = kinds[i];
            return WSEL_OK;
        }
    return wsel__json_fail(d->json, &fp, json_is_string(f) ? WSEL_E_RANGE : WSEL_E_TYPE,
                           "expected \"nxdomain\", \"servfail\" or \"timeout\"");
}

/* A name's answer: {"A": [...], "AAAA": [...], "SRV": [...]} or {"fail": KIND}; in a dns
 * op (is_op) beside the op's own keys. */
static int read_answer(const scenario_doc *d, const wsel__jpath *p, const json_t *o,
                       const char *name, bool is_op, wsel__ring_answer *ans)
{
    static const char *const keys[] = {"A", "AAAA", "SRV", "fail", NULL};
    static const char *const op_keys[] = {"op", "name", "A", "AAAA", "SRV", "fail", NULL};
    int rc = wsel__json_obj(d->json, p, o);
    rc = rc ? rc : wsel__json_keys(d->json, p, o, is_op ? op_keys : keys);
    rc = rc ? rc : copy_str(d, name, &ans->name);
    if (rc)
        return rc;
    const json_t *fail = json_object_get(o, "fail");
    bool any = json_object_get(o, "A") || json_object_get(o, "AAAA") || json_object_get(o, "SRV");
    if (fail && (rc = read_fail(d, p, fail, &ans->fail)))
        return rc;
    if (fail && any)
        return wsel__json_fail(d->json, p, WSEL_E_TYPE, "'fail' cannot be given with records");
    if (!fail && !any)
        return wsel__json_fail(d->json, p, WSEL_E_TYPE, "expected 'A', 'AAAA', 'SRV' or 'fail'");
    rc = read_records(d, p, o, "A", WSEL_RING_A, &ans->a, &ans->na);
    rc = rc ? rc : read_records(d, p, o, "AAAA", WSEL_RING_AAAA, &ans->aaaa, &ans->naaaa);
    return rc ? rc : read_records(d, p, o, "SRV", WSEL_RING_SRV, &ans->srv, &ans->nsrv);
}

static int read_dns(const scenario_doc *d)
{
    wsel__jpath dp;
    const json_t *v = top_member(d, "dns", &dp);
    int rc = v ? wsel__json_obj(d->json, &dp, v) : WSEL_OK;
    if (rc || !v)
        return rc;
    wsel_ring_scenario *sc = d->sc;
    if (!(sc->names = block_new(sc, json_object_size(v), sizeof *sc->names)))
        return nomem(d);
    const char *name;
    json_t *answer;
    json_object_foreach((json_t *)v, name, answer) {
        wsel__jpath np = wsel__jkey(&dp, name);
        if (strlen(name) == 0 || strlen(name) > NAME_MAX_BYTES)
            return wsel__json_fail_key(d->json, &np, WSEL_E_RANGE,
                                       "expected a name of 1..%d bytes", NAME_MAX_BYTES);
        if ((rc = read_answer(d, &np, answer, name, false, &sc->names[sc->n_names])))
            return rc;
        sc->n_names++;
    }
    return WSEL_OK;
}

/* ---- ops ------------------------------------------------------------------------------------ */

typedef int (*op_reader)(const scenario_doc *d, const wsel__jpath *p, const json_t *o,
                         wsel__ring_scenario_op *op);

/* add, remove, hoststatus: the host (name, port) */
static int read_host_op(const scenario_doc *d, const wsel__jpath *p, const json_t *o,
                        wsel__ring_scenario_op *op)
{
    wsel_ring_op *w = &op->pub;
    int rc = name_member(d, p, o, "name", true, &w->name);
    rc = rc ? rc : port_member(d, p, o, &w->port);
    if (w->kind == WSEL_RING_OP_ADD)
        rc = rc ? rc
                : u32_member(d, p, o, "weight", false, 1, WSEL_RING_MAX_WEIGHT, 10, &w->weight);
    if (w->kind == WSEL_RING_OP_HOSTSTATUS)
        rc = rc ? rc : bool_member(d, p, o, "available", true, &w->available);
    return rc;
}

static int read_status_op(const scenario_doc *d, const wsel__jpath *p, const json_t *o,
                          wsel__ring_scenario_op *op)
{
    wsel_ring_op *w = &op->pub;
    int rc = name_member(d, p, o, "ip", true, &w->ip);
    rc = rc ? rc : port_member(d, p, o, &w->port);
    rc = rc ? rc : name_member(d, p, o, "hostname", false, &w->hostname);
    return rc ? rc : bool_member(d, p, o, "available", true, &w->available);
}

static int read_dns_op(const scenario_doc *d, const wsel__jpath *p, const json_t *o,
                       wsel__ring_scenario_op *op)
{
    int rc = name_member(d, p, o, "name", true, &op->pub.name);
    return rc ? rc : read_answer(d, p, o, op->pub.name, true, &op->answer);
}

static int read_advance_op(const scenario_doc *d, const wsel__jpath *p, const json_t *o,
                           wsel__ring_scenario_op *op)
{
    const json_t *v;
    int rc = wsel__json_member(d->json, p, o, "seconds", true, &v);
    wsel__jpath sp = wsel__jkey(p, "seconds");
    return rc ? rc : wsel__json_num(d->json, &sp, v, 0, ADVANCE_MAX, &op->pub.seconds);
}

static int read_snapshot_op(const scenario_doc *d, const wsel__jpath *p, const json_t *o,
                            wsel__ring_scenario_op *op)
{
    (void)d, (void)p, (void)o, (void)op;
    return WSEL_OK;
}

/* Key i of a peers op: a hash 0..2^53 into hashes, or a float in [0,1) into floats. */
static int read_key(const scenario_doc *d, const wsel__jpath *p, const json_t *v,
                    uint64_t *hashes, double *floats, size_t i)
{
    long long x = 0;
    if (hashes) {
        int rc = wsel__json_int(d->json, p, v, 0, HASH_MAX, &x);
        hashes[i] = (uint64_t)x;
        return rc;
    }
    int rc = wsel__json_num(d->json, p, v, -INFINITY, INFINITY, &floats[i]);
    if (!rc && !(floats[i] >= 0 && floats[i] < 1))
        return wsel__json_fail(d->json, p, WSEL_E_RANGE, "expected a number in [0,1)");
    return rc;
}

static int read_peers_op(const scenario_doc *d, const wsel__jpath *p, const json_t *o,
                         wsel__ring_scenario_op *op)
{
    wsel_ring_op *w = &op->pub;
    const json_t *h = json_object_get(o, "hashes"), *f = json_object_get(o, "floats");
    if (!h == !f)
        return wsel__json_fail(d->json, p, WSEL_E_TYPE,
                               "expected exactly one of 'hashes' and 'floats'");
    wsel__jpath kp = wsel__jkey(p, h ? "hashes" : "floats");
    int rc;
    uint64_t *hashes = NULL;
    double *floats = NULL;
    if (h)
        w->hashes = hashes = array_room(d, &kp, h, sizeof *hashes, &w->n_keys, &rc);
    else
        w->floats = floats = array_room(d, &kp, f, sizeof *floats, &w->n_keys, &rc);
    for (size_t i = 0; (hashes || floats) && i < w->n_keys && rc == WSEL_OK; i++) {
        wsel__jpath ip = wsel__jidx(&kp, i);
        rc = read_key(d, &ip, json_array_get(h ? h : f, i), hashes, floats, i);
    }
    return rc;
}

static int read_rr_op(const scenario_doc *d, const wsel__jpath *p, const json_t *o,
                      wsel__ring_scenario_op *op)
{
    return u64_member(d, p, o, "count", COUNT_MAX, &op->pub.count);
}

static int read_retry_op(const scenario_doc *d, const wsel__jpath *p, const json_t *o,
                         wsel__ring_scenario_op *op)
{
    int rc = u64_member(d, p, o, "hash", HASH_MAX, &op->pub.hash);
    return rc ? rc : read_rr_op(d, p, o, op);
}

/* Each op's keys ("op" first) and its reader; NULL keys: the reader checks them. */
#define OP_KEYS(...) ((const char *const[]){"op", __VA_ARGS__, NULL})
static const struct op_form {
    wsel_ring_op_kind kind;
    const char *const *keys;
    op_reader read;
} op_forms[] = {
    {WSEL_RING_OP_ADD, OP_KEYS("name", "port", "weight"), read_host_op},
    {WSEL_RING_OP_REMOVE, OP_KEYS("name", "port"), read_host_op},
    {WSEL_RING_OP_STATUS, OP_KEYS("ip", "port", "hostname", "available"), read_status_op},
    {WSEL_RING_OP_HOSTSTATUS, OP_KEYS("name", "port", "available"), read_host_op},
    {WSEL_RING_OP_DNS, NULL, read_dns_op},
    {WSEL_RING_OP_ADVANCE, OP_KEYS("seconds"), read_advance_op},
    {WSEL_RING_OP_SNAPSHOT, (const char *const[]){"op", NULL}, read_snapshot_op},
    {WSEL_RING_OP_PEERS, OP_KEYS("hashes", "floats"), read_peers_op},
    {WSEL_RING_OP_RR, OP_KEYS("count"), read_rr_op},
    {WSEL_RING_OP_RETRY, OP_KEYS("hash", "count"), read_retry_op},
};
#define N_OP_FORMS (sizeof op_forms / sizeof op_forms[0])

static const char *const op_names[N_OP_FORMS] = {
    "add", "remove", "status", "hoststatus", "dns", "advance", "snapshot", "peers", "rr", "retry",
};

const char *wsel_ring_op_kind_name(wsel_ring_op_kind kind)
{
    return (size_t)kind < N_OP_FORMS ? op_names[kind] : "unknown";
}

/* Op i, at path p. */
static int read_op(const scenario_doc *d, const wsel__jpath *p, size_t i, const json_t *o,
                   void *elem, int arg)
{
    wsel__ring_scenario_op *op = elem;
    wsel__jpath kp = wsel__jkey(p, "op");
    (void)arg;
    snprintf(op->path, sizeof op->path, "$.ops[%zu]", i);
    op->pub.path = op->path;
    const json_t *k;
    const char *kind;
    int rc = wsel__json_obj(d->json, p, o);
    rc = rc ? rc : wsel__json_member(d->json, p, o, "op", true, &k);
    if (rc || (rc = wsel__json_str(d->json, &kp, k, &kind)))
        return rc;
    for (size_t f = 0; f < N_OP_FORMS; f++) {
        if (strcmp(kind, op_names[f]) != 0)
            continue;
        op->pub.kind = op_forms[f].kind;
        if (op_forms[f].keys && (rc = wsel__json_keys(d->json, p, o, op_forms[f].keys)))
            return rc;
        return op_forms[f].read(d, p, o, op);
    }
    return wsel__json_fail(d->json, &kp, WSEL_E_RANGE,
                           "unknown op '%s' (expected add, remove, status, hoststatus, dns, "
                           "advance, snapshot, peers, rr or retry)", kind);
}

static int read_ops(const scenario_doc *d)
{
    wsel__jpath op;
    const json_t *v = top_member(d, "ops", &op);
    void *ops;
    int rc = v ? read_array(d, &op, v, sizeof(wsel__ring_scenario_op), read_op, 0, &ops,
                            &d->sc->n_ops)
               : WSEL_OK;
    if (v)
        d->sc->ops = ops;
    return rc;
}

/* ---- the whole file ------------------------------------------------------------------------- */

static int read_scenario(const scenario_doc *d)
{
    static const char *const keys[] = {"wheelSize", "order", "healthThreshold", "rrStart",
                                       "requery", "ttl0", "useSRVname", "hosts", "dns", "ops",
                                       "strict", NULL};
    const json_t *root = d->json->root;
    wsel_ring_opts_init(&d->sc->opts);
    int rc = wsel__json_keys(d->json, NULL, root, keys);
    rc = rc ? rc : read_options(d, root);
    rc = rc ? rc : read_hosts(d);
    rc = rc ? rc : read_dns(d);
    return rc ? rc : read_ops(d);
}

/* Reads the scenario from text[0..len) (malloc'd, NUL-terminated; the scenario keeps
 * it, or it is freed). */
static int load_text(const char *name, char *text, size_t len, wsel_ring_scenario **out,
                     wsel_error *err)
{
    wsel_ring_scenario *sc = calloc(1, sizeof *sc);
    size_t nl = strlen(name) + 1;
    char *nm = sc ? malloc(nl) : NULL;
    if (!nm) {
        free(sc);
        free(text);
        return wsel__fail(err, WSEL_E_NOMEM, name, 0, 0, NULL, NULL, NULL,
                          "out of memory reading the scenario");
    }
    sc->name = memcpy(nm, name, nl);
    sc->text = text;
    sc->len = len;
    wsel__json json;
    int rc = wsel__json_parse(&json, sc->name, text, len, err);
    if (rc == WSEL_OK) {
        scenario_doc d = {&json, sc};
        rc = read_scenario(&d);
    }
    wsel__json_free(&json);
    if (rc != WSEL_OK) {
        wsel_ring_scenario_free(sc);
        return rc;
    }
    *out = sc;
    return WSEL_OK;
}

int wsel_ring_scenario_load_file(const char *path, wsel_ring_scenario **out, wsel_error *err)
{
    if (out)
        *out = NULL;
    if (!path || !out)
        return wsel__fail(err, WSEL_E_ARG, path, 0, 0, NULL, NULL, NULL,
                          "ring: scenario load needs a path and an output pointer");
    char *text;
    size_t len;
    int rc = wsel__read_file(path, "scenario", WSEL_RING_SCENARIO_MAX_SIZE, NULL, &text, &len,
                             err);
    return rc ? rc : load_text(path, text, len, out, err);
}

int wsel_ring_scenario_load_buffer(const char *name, const char *data, size_t len,
                                   wsel_ring_scenario **out, wsel_error *err)
{
    if (out)
        *out = NULL;
    if (!name)
        name = "(scenario)";
    if (!out || (!data && len))
        return wsel__fail(err, WSEL_E_ARG, name, 0, 0, NULL, NULL, NULL,
                          "ring: scenario load needs the data and an output pointer");
    if (len > WSEL_RING_SCENARIO_MAX_SIZE)
        return wsel__fail(err, WSEL_E_LIMIT, name, 0, 0, NULL, NULL, NULL,
                          "scenario '%s' is larger than the limit of %u bytes", name,
                          WSEL_RING_SCENARIO_MAX_SIZE);
    char *text = malloc(len + 1);
    if (!text)
        return wsel__fail(err, WSEL_E_NOMEM, name, 0, 0, NULL, NULL, NULL,
                          "out of memory reading the scenario");
    if (len)
        memcpy(text, data, len);
    text[len] = '\0';
    return load_text(name, text, len, out, err);
}

void wsel_ring_scenario_free(wsel_ring_scenario *sc)
{
    if (!sc)
        return;
    for (size_t i = 0; i < sc->blocks.n; i++)
        free(sc->blocks.block[i]);
    free(sc->blocks.block);
    free(sc->text);
    free(sc->name);
    free(sc);
}

const wsel_ring_opts *wsel_ring_scenario_opts(const wsel_ring_scenario *sc)
{
    return sc ? &sc->opts : NULL;
}

size_t wsel_ring_scenario_op_count(const wsel_ring_scenario *sc)
{
    return sc ? sc->n_ops : 0;
}

const wsel_ring_op *wsel_ring_scenario_op(const wsel_ring_scenario *sc, size_t i)
{
    return sc && i < sc->n_ops ? &sc->ops[i].pub : NULL;
}

int wsel__ring_scenario_fail(const wsel_ring_scenario *sc, const wsel__jpath *at, int code,
                             const char *msg, wsel_error *err)
{
    wsel__json json = {sc->name, sc->text, sc->len, NULL, err};
    return wsel__json_fail(&json, at, code, "%s", msg);
}
