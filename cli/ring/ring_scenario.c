/* bin/wsel ring: the scenario reader (jansson) and its in-memory resolver. Every fault
 * is reported with the JSON path of the value at fault; unknown keys are errors. */
#include <arpa/inet.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "../cli.h"
#include "ring_scenario.h"

typedef struct pool {
    void **p;
    size_t n, cap;
} pool;

typedef struct rd {
    const char *cmd, *file;
    pool *pool;
    int failed;
    int nomem; /* the failure was an allocation */
} rd;

static void *palloc(rd *r, size_t n)
{
    pool *p = r->pool;
    if (p->n == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 64;
        void **np = realloc(p->p, cap * sizeof *np);
        if (!np)
            return NULL;
        p->p = np;
        p->cap = cap;
    }
    void *m = calloc(1, n ? n : 1);
    if (m)
        p->p[p->n++] = m;
    return m;
}

static int bad(rd *r, const char *path, const char *fmt, ...) CLI_PRINTF(3, 4);
static int bad(rd *r, const char *path, const char *fmt, ...)
{
    if (r->failed)
        return -1;
    r->failed = 1;
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    wsel__escape_put(stderr, r->file);
    fputs(": ", stderr);
    wsel__escape_put(stderr, path);
    fputs(": ", stderr);
    wsel__escape_put(stderr, msg);
    fputc('\n', stderr);
    return -1;
}

/* An allocation failed: the scenario is not invalid, the run is out of resources. */
static int oom(rd *r, const char *path)
{
    r->nomem = 1;
    return bad(r, path, "out of memory");
}

static char *pstr(rd *r, const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = palloc(r, n);
    if (d)
        memcpy(d, s, n);
    return d;
}

static const char *type_name(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER: return "an integer";
    case JSON_REAL: return "a number";
    case JSON_TRUE:
    case JSON_FALSE: return "a boolean";
    case JSON_NULL: return "null";
    }
    return "something else";
}

/* path + tail, truncated to fit */
static void cat(char *out, size_t len, const char *path, const char *tail)
{
    size_t n = 0;
    for (const char *p = path; *p && n + 1 < len; p++)
        out[n++] = *p;
    for (const char *p = tail; *p && n + 1 < len; p++)
        out[n++] = *p;
    out[n] = '\0';
}

static void sub(char *out, size_t len, const char *path, const char *key)
{
    char t[260];
    t[0] = '.';
    cat(t + 1, sizeof t - 1, key, "");
    cat(out, len, path, t);
}

static void idx(char *out, size_t len, const char *path, size_t i)
{
    char t[32];
    snprintf(t, sizeof t, "[%zu]", i);
    cat(out, len, path, t);
}

/* Checks that obj has only the listed keys (NULL-terminated). */
static int only_keys(rd *r, const char *path, json_t *obj, const char *const *keys)
{
    const char *k;
    json_t *v;
    json_object_foreach(obj, k, v) {
        bool known = false;
        for (const char *const *p = keys; *p && !known; p++)
            known = strcmp(*p, k) == 0;
        if (!known) {
            char where[256];
            sub(where, sizeof where, path, k);
            return bad(r, where, "unknown key '%s'", k);
        }
    }
    return 0;
}

/* An integer in [lo, hi]; integral reals are accepted. */
static int get_int(rd *r, const char *path, json_t *v, long long lo, long long hi, long long *out)
{
    if (json_is_integer(v)) {
        long long x = json_integer_value(v);
        if (x < lo || x > hi)
            return bad(r, path, "expected an integer in %lld..%lld, got %lld", lo, hi, x);
        *out = x;
        return 0;
    }
    double d = json_is_real(v) ? json_real_value(v) : NAN;
    if (d == floor(d) && d >= (double)lo && d <= (double)hi) {
        *out = (long long)d;
        return 0;
    }
    if (json_is_real(v))
        return bad(r, path, "expected an integer in %lld..%lld, got %.17g", lo, hi,
                   json_real_value(v));
    return bad(r, path, "expected an integer in %lld..%lld, got %s", lo, hi, type_name(v));
}

static int opt_int(rd *r, const char *path, json_t *obj, const char *key, long long lo,
                   long long hi, long long dflt, long long *out)
{
    json_t *v = json_object_get(obj, key);
    if (!v) {
        *out = dflt;
        return 0;
    }
    char where[256];
    sub(where, sizeof where, path, key);
    return get_int(r, where, v, lo, hi, out);
}

static int req_int(rd *r, const char *path, json_t *obj, const char *key, long long lo,
                   long long hi, long long *out)
{
    if (!json_object_get(obj, key))
        return bad(r, path, "missing '%s'", key);
    return opt_int(r, path, obj, key, lo, hi, 0, out);
}

static int get_num(rd *r, const char *path, json_t *v, double *out)
{
    if (!json_is_number(v))
        return bad(r, path, "expected a number, got %s", type_name(v));
    *out = json_number_value(v);
    return 0;
}

static int req_str(rd *r, const char *path, json_t *obj, const char *key, char **out)
{
    json_t *v = json_object_get(obj, key);
    char where[256];
    sub(where, sizeof where, path, key);
    if (!v)
        return bad(r, path, "missing '%s'", key);
    if (!json_is_string(v) || json_string_length(v) == 0 || json_string_length(v) > 253 ||
        strlen(json_string_value(v)) != json_string_length(v))
        return bad(r, where, "expected a non-empty string of at most 253 bytes");
    *out = pstr(r, json_string_value(v));
    return *out ? 0 : oom(r, where);
}

static int get_bool(rd *r, const char *path, json_t *v, void *out)
{
    if (!json_is_boolean(v))
        return bad(r, path, "expected true or false, got %s", type_name(v));
    *(bool *)out = json_is_true(v);
    return 0;
}

static int get_secs(rd *r, const char *path, json_t *v, void *out)
{
    double *d = out;
    if (get_num(r, path, v, d))
        return -1;
    if (!(*d > 0))
        return bad(r, path, "expected a number of seconds > 0");
    return 0;
}

/* obj.key read by get() when present; absent, *out is left as it is. */
static int opt_get(rd *r, const char *path, json_t *obj, const char *key,
                   int (*get)(rd *, const char *, json_t *, void *), void *out)
{
    json_t *v = json_object_get(obj, key);
    if (!v)
        return 0;
    char where[256];
    sub(where, sizeof where, path, key);
    return get(r, where, v, out);
}

static int req_bool(rd *r, const char *path, json_t *obj, const char *key, bool *out)
{
    if (!json_object_get(obj, key))
        return bad(r, path, "missing '%s'", key);
    return opt_get(r, path, obj, key, get_bool, out);
}

/* `v`, which must be an array of `what`, and pool room for its *n elements of `size`
 * bytes each; NULL (error reported) when it is not an array or out of memory. */
static void *array_room(rd *r, const char *path, json_t *v, const char *what, size_t size,
                        size_t *n)
{
    if (!json_is_array(v)) {
        bad(r, path, "expected an array of %s, got %s", what, type_name(v));
        return NULL;
    }
    *n = json_array_size(v);
    void *room = palloc(r, *n * size);
    if (!room)
        oom(r, path);
    return room;
}

/* ---- DNS answers ------------------------------------------------------------------------ */

static int read_entries(rd *r, const char *path, json_t *arr, wsel_ring_rrtype t,
                        wsel_ring_entry **out, size_t *n)
{
    size_t k;
    wsel_ring_entry *e = array_room(r, path, arr, "records", sizeof *e, &k);
    if (!e)
        return -1;
    for (size_t i = 0; i < k; i++) {
        char p[256];
        idx(p, sizeof p, path, i);
        json_t *o = json_array_get(arr, i);
        if (!json_is_object(o))
            return bad(r, p, "expected a record object, got %s", type_name(o));
        long long x;
        char *s;
        if (t == WSEL_RING_SRV) {
            static const char *const keys[] = {"target", "port", "weight", "priority", "ttl", NULL};
            if (only_keys(r, p, o, keys) || req_str(r, p, o, "target", &s))
                return -1;
            e[i].address = s;
            if (req_int(r, p, o, "port", 0, 65535, &x))
                return -1;
            e[i].port = (uint32_t)x;
            if (req_int(r, p, o, "weight", 0, 65535, &x))
                return -1;
            e[i].weight = (uint32_t)x;
            if (req_int(r, p, o, "priority", 0, 65535, &x))
                return -1;
            e[i].priority = (uint32_t)x;
        } else {
            static const char *const keys[] = {"address", "ttl", NULL};
            if (only_keys(r, p, o, keys) || req_str(r, p, o, "address", &s))
                return -1;
            unsigned char bin[16];
            int fam = t == WSEL_RING_A ? AF_INET : AF_INET6;
            if (inet_pton(fam, s, bin) != 1) {
                char w[256];
                sub(w, sizeof w, p, "address");
                return bad(r, w, "'%s' is not an %s address", s,
                           t == WSEL_RING_A ? "IPv4" : "IPv6");
            }
            e[i].address = s;
        }
        if (opt_int(r, p, o, "ttl", 0, 2147483647, 300, &x))
            return -1;
        e[i].ttl = (uint32_t)x;
    }
    *out = e;
    *n = k;
    return 0;
}

/* A name's answer: {"A": [...], "AAAA": [...], "SRV": [...]} or {"fail": KIND}. With
 * `extra` (a dns op) the keys "op" and "name" are allowed too. */
static int read_answer(rd *r, const char *path, json_t *o, const char *name, bool op, rs_name *d)
{
    static const char *const keys[] = {"A", "AAAA", "SRV", "fail", NULL};
    static const char *const opkeys[] = {"op", "name", "A", "AAAA", "SRV", "fail", NULL};
    if (!json_is_object(o))
        return bad(r, path, "expected an object, got %s", type_name(o));
    if (only_keys(r, path, o, op ? opkeys : keys))
        return -1;
    memset(d, 0, sizeof *d);
    d->name = pstr(r, name);
    json_t *f = json_object_get(o, "fail");
    bool any = json_object_get(o, "A") || json_object_get(o, "AAAA") || json_object_get(o, "SRV");
    char p[256];
    if (f) {
        sub(p, sizeof p, path, "fail");
        const char *s = json_is_string(f) ? json_string_value(f) : "";
        if (strcmp(s, "nxdomain") && strcmp(s, "servfail") && strcmp(s, "timeout"))
            return bad(r, p, "expected \"nxdomain\", \"servfail\" or \"timeout\"");
        if (any)
            return bad(r, path, "'fail' cannot be given with records");
        d->fail = pstr(r, s);
        return d->fail && d->name ? 0 : oom(r, path);
    }
    if (!any)
        return bad(r, path, "expected 'A', 'AAAA', 'SRV' or 'fail'");
    if (!d->name)
        return oom(r, path);
    json_t *v;
    if ((v = json_object_get(o, "A"))) {
        sub(p, sizeof p, path, "A");
        if (read_entries(r, p, v, WSEL_RING_A, &d->a, &d->na))
            return -1;
    }
    if ((v = json_object_get(o, "AAAA"))) {
        sub(p, sizeof p, path, "AAAA");
        if (read_entries(r, p, v, WSEL_RING_AAAA, &d->aaaa, &d->naaaa))
            return -1;
    }
    if ((v = json_object_get(o, "SRV"))) {
        sub(p, sizeof p, path, "SRV");
        if (read_entries(r, p, v, WSEL_RING_SRV, &d->srv, &d->nsrv))
            return -1;
    }
    return 0;
}

int rs_set_name(rs_scenario *sc, const rs_name *d)
{
    for (size_t i = 0; i < sc->n_names; i++)
        if (strcmp(sc->names[i].name, d->name) == 0) {
            sc->names[i] = *d;
            return 0;
        }
    if (sc->n_names == sc->cap_names) {
        size_t cap = sc->cap_names ? 2 * sc->cap_names : 16;
        rs_name *nn = realloc(sc->names, cap * sizeof *nn);
        if (!nn)
            return -1;
        sc->names = nn;
        sc->cap_names = cap;
    }
    sc->names[sc->n_names++] = *d;
    return 0;
}

/* ---- ops ---------------------------------------------------------------------------------- */

static int read_op(rd *r, rs_scenario *sc, const char *path, json_t *o, rs_op *op)
{
    if (!json_is_object(o))
        return bad(r, path, "expected an op object, got %s", type_name(o));
    json_t *k = json_object_get(o, "op");
    if (!json_is_string(k))
        return bad(r, path, "missing 'op' (a string)");
    const char *kind = json_string_value(k);
    snprintf(op->path, sizeof op->path, "%s", path);
    long long x;
    char p[256];
    if (strcmp(kind, "add") == 0) {
        static const char *const keys[] = {"op", "name", "port", "weight", NULL};
        op->kind = RS_ADD;
        if (only_keys(r, path, o, keys) || req_str(r, path, o, "name", &op->name) ||
            opt_int(r, path, o, "port", 1, 65535, 80, &x))
            return -1;
        op->port = (uint32_t)x;
        if (opt_int(r, path, o, "weight", 1, WSEL_RING_MAX_WEIGHT, 10, &x))
            return -1;
        op->weight = (uint32_t)x;
    } else if (strcmp(kind, "remove") == 0) {
        static const char *const keys[] = {"op", "name", "port", NULL};
        op->kind = RS_REMOVE;
        if (only_keys(r, path, o, keys) || req_str(r, path, o, "name", &op->name) ||
            opt_int(r, path, o, "port", 1, 65535, 80, &x))
            return -1;
        op->port = (uint32_t)x;
    } else if (strcmp(kind, "status") == 0) {
        static const char *const keys[] = {"op", "ip", "port", "hostname", "available", NULL};
        op->kind = RS_STATUS;
        if (only_keys(r, path, o, keys) || req_str(r, path, o, "ip", &op->ip) ||
            opt_int(r, path, o, "port", 1, 65535, 80, &x) ||
            (json_object_get(o, "hostname") && req_str(r, path, o, "hostname", &op->hostname)) ||
            req_bool(r, path, o, "available", &op->available))
            return -1;
        op->port = (uint32_t)x;
    } else if (strcmp(kind, "hoststatus") == 0) {
        static const char *const keys[] = {"op", "name", "port", "available", NULL};
        op->kind = RS_HOSTSTATUS;
        if (only_keys(r, path, o, keys) || req_str(r, path, o, "name", &op->name) ||
            opt_int(r, path, o, "port", 1, 65535, 80, &x) ||
            req_bool(r, path, o, "available", &op->available))
            return -1;
        op->port = (uint32_t)x;
    } else if (strcmp(kind, "dns") == 0) {
        op->kind = RS_DNS;
        if (req_str(r, path, o, "name", &op->name) || read_answer(r, path, o, op->name, true, &op->dns))
            return -1;
    } else if (strcmp(kind, "advance") == 0) {
        static const char *const keys[] = {"op", "seconds", NULL};
        op->kind = RS_ADVANCE;
        json_t *v = json_object_get(o, "seconds");
        sub(p, sizeof p, path, "seconds");
        if (only_keys(r, path, o, keys))
            return -1;
        if (!v)
            return bad(r, path, "missing 'seconds'");
        if (get_num(r, p, v, &op->seconds))
            return -1;
        if (!(op->seconds >= 0 && op->seconds <= 1e9))
            return bad(r, p, "expected a number of seconds in 0..1e9");
    } else if (strcmp(kind, "snapshot") == 0) {
        static const char *const keys[] = {"op", NULL};
        op->kind = RS_SNAPSHOT;
        if (only_keys(r, path, o, keys))
            return -1;
    } else if (strcmp(kind, "peers") == 0) {
        static const char *const keys[] = {"op", "hashes", "floats", NULL};
        op->kind = RS_PEERS;
        if (only_keys(r, path, o, keys))
            return -1;
        json_t *h = json_object_get(o, "hashes"), *f = json_object_get(o, "floats");
        if (!h == !f)
            return bad(r, path, "expected exactly one of 'hashes' and 'floats'");
        json_t *arr = h ? h : f;
        sub(p, sizeof p, path, h ? "hashes" : "floats");
        if (!json_is_array(arr))
            return bad(r, p, "expected an array, got %s", type_name(arr));
        op->n_keys = json_array_size(arr);
        if (h && !(op->hashes = palloc(r, op->n_keys * sizeof *op->hashes)))
            return oom(r, p);
        if (f && !(op->floats = palloc(r, op->n_keys * sizeof *op->floats)))
            return oom(r, p);
        for (size_t i = 0; i < op->n_keys; i++) {
            char q[256];
            idx(q, sizeof q, p, i);
            json_t *v = json_array_get(arr, i);
            if (h) {
                if (get_int(r, q, v, 0, 9007199254740992ll, &x))
                    return -1;
                op->hashes[i] = (uint64_t)x;
            } else {
                if (get_num(r, q, v, &op->floats[i]))
                    return -1;
                if (!(op->floats[i] >= 0 && op->floats[i] < 1))
                    return bad(r, q, "expected a number in [0,1)");
            }
        }
    } else if (strcmp(kind, "rr") == 0) {
        static const char *const keys[] = {"op", "count", NULL};
        op->kind = RS_RR;
        if (only_keys(r, path, o, keys) || req_int(r, path, o, "count", 0, 10000000, &x))
            return -1;
        op->count = (uint64_t)x;
    } else if (strcmp(kind, "retry") == 0) {
        static const char *const keys[] = {"op", "hash", "count", NULL};
        op->kind = RS_RETRY;
        if (only_keys(r, path, o, keys) || req_int(r, path, o, "hash", 0, 9007199254740992ll, &x))
            return -1;
        op->hash = (uint64_t)x;
        if (req_int(r, path, o, "count", 0, 10000000, &x))
            return -1;
        op->count = (uint64_t)x;
    } else {
        sub(p, sizeof p, path, "op");
        return bad(r, p, "unknown op '%s' (expected add, remove, status, hoststatus, dns, "
                         "advance, snapshot, peers, rr or retry)", kind);
    }
    (void)sc;
    return 0;
}

/* ---- the whole file --------------------------------------------------------------------- */

static int read_top(rd *r, rs_scenario *sc, json_t *root)
{
    static const char *const keys[] = {"wheelSize", "order", "healthThreshold", "rrStart",
                                       "requery", "ttl0", "useSRVname", "hosts", "dns", "ops",
                                       "strict", NULL};
    if (!json_is_object(root))
        return bad(r, "$", "expected an object, got %s", type_name(root));
    if (only_keys(r, "$", root, keys))
        return -1;
    wsel_ring_opts *o = &sc->opts;
    wsel_ring_opts_init(o);
    long long x;
    json_t *v;
    if (opt_int(r, "$", root, "wheelSize", 1, WSEL_RING_MAX_SLOTS, o->wheel_size, &x))
        return -1;
    o->wheel_size = x;
    if ((v = json_object_get(root, "order"))) {
        if (!json_is_array(v))
            return bad(r, "$.order", "expected an array of numbers, got %s", type_name(v));
        size_t n = json_array_size(v);
        if (n < 1 || n > WSEL_RING_MAX_SLOTS)
            return bad(r, "$.order", "expected 1..%u numbers", WSEL_RING_MAX_SLOTS);
        if (!(sc->order = palloc(r, n * sizeof *sc->order)))
            return oom(r, "$.order");
        for (size_t i = 0; i < n; i++) {
            char p[64];
            idx(p, sizeof p, "$.order", i);
            if (get_num(r, p, json_array_get(v, i), &sc->order[i]))
                return -1;
        }
        o->order = sc->order;
        o->order_len = n;
        if (o->wheel_size >= 0 && (size_t)o->wheel_size != n)
            return bad(r, "$.order", "mismatch between size of 'order' (%zu) and 'wheelSize' (%lld)",
                       n, (long long)o->wheel_size);
    }
    if ((v = json_object_get(root, "healthThreshold"))) {
        if (get_num(r, "$.healthThreshold", v, &o->health_threshold))
            return -1;
        if (!(o->health_threshold >= 0 && o->health_threshold <= 100))
            return bad(r, "$.healthThreshold", "expected a number in the range 0-100");
    }
    if (opt_get(r, "$", root, "requery", get_secs, &o->requery) ||
        opt_get(r, "$", root, "ttl0", get_secs, &o->ttl0) ||
        opt_get(r, "$", root, "useSRVname", get_bool, &o->use_srv_name) ||
        opt_get(r, "$", root, "strict", get_bool, &o->strict))
        return -1;
    uint32_t n = o->wheel_size >= 0 ? (uint32_t)o->wheel_size
                 : o->order          ? (uint32_t)o->order_len
                                     : WSEL_RING_DEFAULT_SIZE;
    if (opt_int(r, "$", root, "rrStart", 1, n, o->rr_start, &x))
        return -1;
    o->rr_start = x;
    if ((v = json_object_get(root, "hosts"))) {
        size_t k;
        if (!(sc->hosts = array_room(r, "$.hosts", v, "hosts", sizeof *sc->hosts, &k)))
            return -1;
        for (size_t i = 0; i < k; i++) {
            char p[64];
            idx(p, sizeof p, "$.hosts", i);
            json_t *h = json_array_get(v, i);
            wsel_ring_host_spec *hs = &sc->hosts[i];
            hs->port = hs->weight = -1;
            if (json_is_string(h)) {
                if (json_string_length(h) == 0 || json_string_length(h) > 253)
                    return bad(r, p, "expected a non-empty host name of at most 253 bytes");
                hs->name = pstr(r, json_string_value(h));
                if (!hs->name)
                    return oom(r, p);
                continue;
            }
            static const char *const hk[] = {"name", "port", "weight", NULL};
            char *name;
            if (!json_is_object(h))
                return bad(r, p, "expected a host name or {name, port, weight}, got %s",
                           type_name(h));
            if (only_keys(r, p, h, hk) || req_str(r, p, h, "name", &name) ||
                opt_int(r, p, h, "port", 1, 65535, -1, &x))
                return -1;
            hs->name = name;
            hs->port = json_object_get(h, "port") ? x : -1;
            if (opt_int(r, p, h, "weight", 1, WSEL_RING_MAX_WEIGHT, -1, &x))
                return -1;
            hs->weight = json_object_get(h, "weight") ? x : -1;
        }
        o->hosts = sc->hosts;
        o->n_hosts = k;
    }
    if ((v = json_object_get(root, "dns"))) {
        if (!json_is_object(v))
            return bad(r, "$.dns", "expected an object of names, got %s", type_name(v));
        const char *name;
        json_t *a;
        json_object_foreach(v, name, a) {
            char p[300];
            sub(p, sizeof p, "$.dns", name);
            rs_name d;
            if (strlen(name) == 0 || strlen(name) > 253)
                return bad(r, p, "expected a name of 1..253 bytes");
            if (read_answer(r, p, a, name, false, &d))
                return -1;
            if (!d.name || rs_set_name(sc, &d))
                return oom(r, p);
        }
    }
    if ((v = json_object_get(root, "ops"))) {
        if (!(sc->ops = array_room(r, "$.ops", v, "ops", sizeof *sc->ops, &sc->n_ops)))
            return -1;
        for (size_t i = 0; i < sc->n_ops; i++) {
            char p[32];
            idx(p, sizeof p, "$.ops", i);
            if (read_op(r, sc, p, json_array_get(v, i), &sc->ops[i]))
                return -1;
        }
    }
    return 0;
}

/* jansson reports an allocation that fails inside its lexer as a syntax error; its
 * allocations go through here so that out of memory is told apart. */
static bool json_nomem;

static void *json_alloc(size_t n)
{
    void *p = malloc(n);
    if (!p)
        json_nomem = true;
    return p;
}

int rs_load(const char *cmd, const char *path, rs_scenario *sc)
{
    memset(sc, 0, sizeof *sc);
    pool *pl = calloc(1, sizeof *pl);
    if (!pl)
        return cli_nomem(cmd);
    sc->strings = pl;
    int rc = CLI_OK;
    FILE *f = cli_open_regular(cmd, "scenario", path, &rc);
    if (!f)
        return rc;
    json_error_t je;
    json_set_alloc_funcs(json_alloc, free);
    json_nomem = false;
    json_t *root = json_loadf(f, JSON_REJECT_DUPLICATES, &je);
    fclose(f);
    if (!root && json_nomem)
        return cli_nomem(cmd);
    if (!root) {
        char e[CLI_ESC_MAX];
        fprintf(stderr, "%s:%d:%d: ", wsel__escape(path, e, sizeof e), je.line, je.column);
        wsel__escape_put(stderr, je.text);
        fputc('\n', stderr);
        return CLI_INVALID;
    }
    rd r = {cmd, path, pl, 0, 0};
    rc = read_top(&r, sc, root);
    json_decref(root);
    return rc ? r.nomem ? CLI_RESOURCE : CLI_INVALID : CLI_OK;
}

void rs_free(rs_scenario *sc)
{
    pool *p = sc->strings;
    if (p) {
        for (size_t i = 0; i < p->n; i++)
            free(p->p[i]);
        free(p->p);
        free(p);
    }
    free(sc->names);
    memset(sc, 0, sizeof *sc);
}

/* ---- the resolver ------------------------------------------------------------------------ */

static const rs_name *lookup(const rs_scenario *sc, const char *name)
{
    for (size_t i = 0; i < sc->n_names; i++)
        if (strcmp(sc->names[i].name, name) == 0)
            return &sc->names[i];
    return NULL;
}

int rs_resolve(void *ctx, const char *name, wsel_ring_record *out)
{
    const rs_name *d = lookup(ctx, name);
    memset(out, 0, sizeof *out);
    if (!d || d->fail) {
        out->failed = true;
        out->message = d ? d->fail : "nxdomain";
    } else if (d->nsrv) {
        out->type = WSEL_RING_SRV;
        out->entries = d->srv;
        out->n_entries = d->nsrv;
    } else if (d->na) {
        out->type = WSEL_RING_A;
        out->entries = d->a;
        out->n_entries = d->na;
    } else {
        out->type = WSEL_RING_AAAA;
        out->entries = d->aaaa;
        out->n_entries = d->naaaa;
    }
    return 0;
}

int rs_toip(void *ctx, const char *name, uint16_t port, bool cache_only, char *ip, size_t iplen,
            uint16_t *port_out, char *msg, size_t msglen)
{
    (void)cache_only;
    unsigned char bin[16];
    if (inet_pton(AF_INET, name, bin) == 1 || inet_pton(AF_INET6, name, bin) == 1) {
        snprintf(ip, iplen, "%s", name);
        *port_out = port;
        return 0;
    }
    const rs_name *d = lookup(ctx, name);
    const wsel_ring_entry *e = d && !d->fail ? (d->na ? d->a : d->naaaa ? d->aaaa : NULL) : NULL;
    if (!e) {
        snprintf(msg, msglen, "%s: %s", name, d && d->fail ? d->fail : "nxdomain");
        return 1;
    }
    snprintf(ip, iplen, "%s", e[0].address);
    *port_out = port;
    return 0;
}
