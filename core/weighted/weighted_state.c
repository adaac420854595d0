/* Monitoring state (doc/weighted.md §6): raw UP/DOWN + TTL per (service type, key), the
 * combination rule per item, per-set version counters, and the extfile loader. */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "weighted_internal.h"
#include "weighted_model.h"
#include "../addr.h"
#include "weighted_state.h"

/* Longest key we canonicalise: a domain name in text form is at most 253 chars plus the
 * final dot; addresses are far shorter. Anything longer cannot match any item. */
#define KEY_MAX 320

/* Service indexes for the built-ins; interned names are >= 0. */
#define SVC_UP   (-1)
#define SVC_DOWN (-2)

typedef struct entry {
    int svc;
    char *key;              /* canonical */
    uint64_t hash;
    wsel_mstate ms;
    bool ttl_set;           /* forced entries: the admin_state line gave a TTL */
} entry;

/* Open addressing; key == NULL marks an empty slot. */
typedef struct table {
    entry *e;
    size_t cap, n;
} table;

/* One (thing, service type) pair the config monitors: what an admin_state key can
 * match (doc/weighted.md §6.5). */
typedef struct pair {
    const char *key;         /* canonical, owned by set_keys */
    int svc;
    const char *svc_name;
} pair;

/* One item of the config, filed under its canonical key so that a state change finds
 * every item (over all sets) it may affect. */
typedef struct keyref {
    const char *key;
    uint32_t set, item;
} keyref;

struct wsel_state {
    const wsel_config *cfg;
    bool whole;

    char **svc_names;        /* interned non-built-in service names */
    size_t n_svc, cap_svc;
    size_t n_svc_used;       /* the first n_svc_used names are those the config uses */
    const wsel__static_svc **fixed; /* per used name: its `static` definition, or NULL */

    table mon;               /* monitored state */
    table force;             /* admin overrides, built-ins included */
    pair *pairs;             /* every monitored pair, sorted by key then service name */
    size_t n_pairs;

    wsel_warn_fn warn;
    void *warn_ctx;

    size_t n_sets;
    int **set_svc;           /* per set: its service types as indexes */
    char ***set_keys;        /* per set, per item: canonical key (set_keys_new: one block) */
    uint64_t *version;       /* per set */

    keyref *refs;            /* sorted by key */
    size_t n_refs;
};

static uint64_t hash_entry(int svc, const char *key)
{
    uint64_t h = 1469598103934665603ull ^ (uint64_t)(uint32_t)svc;
    h *= 1099511628211ull;
    for (const unsigned char *p = (const unsigned char *)key; *p; p++) {
        h ^= *p;
        h *= 1099511628211ull;
    }
    return h;
}

static int svc_lookup(const wsel_state *st, const char *name)
{
    if (strcmp(name, "up") == 0)
        return SVC_UP;
    if (strcmp(name, "down") == 0)
        return SVC_DOWN;
    for (size_t i = 0; i < st->n_svc; i++)
        if (strcmp(st->svc_names[i], name) == 0)
            return (int)i;
    return -3;
}

/* Returns the index of `name`, adding it if new; -3 when out of memory. */
static int svc_intern(wsel_state *st, const char *name)
{
    int i = svc_lookup(st, name);
    if (i != -3)
        return i;
    if (!wsel__grow(&st->svc_names, &st->cap_svc, st->n_svc + 1, sizeof *st->svc_names))
        return -3;
    char *copy = strdup(name);
    if (!copy)
        return -3;
    st->svc_names[st->n_svc] = copy;
    return (int)st->n_svc++;
}

static entry *tab_find(const table *t, int svc, const char *key, uint64_t h)
{
    if (!t->cap)
        return NULL;
    size_t mask = t->cap - 1;
    for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
        entry *e = &t->e[i];
        if (!e->key)
            return NULL;
        if (e->hash == h && e->svc == svc && strcmp(e->key, key) == 0)
            return e;
    }
}

static bool tab_grow(table *t)
{
    size_t cap = t->cap ? t->cap * 2 : 64;
    entry *n = calloc(cap, sizeof *n);
    if (!n)
        return false;
    for (size_t i = 0; i < t->cap; i++) {
        entry *e = &t->e[i];
        if (!e->key)
            continue;
        size_t j = (size_t)e->hash & (cap - 1);
        while (n[j].key)
            j = (j + 1) & (cap - 1);
        n[j] = *e;
    }
    free(t->e);
    t->e = n;
    t->cap = cap;
    return true;
}

/* Stores an entry; *changed tells whether the stored value differs from before (a new
 * key compares with `absent`, what an unset key means). */
static int tab_put(table *t, int svc, const char *key, wsel_mstate ms, bool ttl_set,
                   const entry *absent, bool *changed)
{
    uint64_t h = hash_entry(svc, key);
    entry *e = tab_find(t, svc, key, h);
    if (e) {
        *changed = e->ms.up != ms.up || e->ms.ttl != ms.ttl || e->ttl_set != ttl_set;
        e->ms = ms;
        e->ttl_set = ttl_set;
        return WSEL_OK;
    }
    *changed = !absent || absent->ms.up != ms.up || absent->ms.ttl != ms.ttl
               || absent->ttl_set != ttl_set;
    if ((t->n + 1) * 2 > t->cap && !tab_grow(t))
        return WSEL_E_NOMEM;
    char *copy = strdup(key);
    if (!copy)
        return WSEL_E_NOMEM;
    size_t mask = t->cap - 1;
    size_t i = (size_t)h & mask;
    while (t->e[i].key)
        i = (i + 1) & mask;
    t->e[i] = (entry){ svc, copy, h, ms, ttl_set };
    t->n++;
    return WSEL_OK;
}

/* Removes an entry (backward-shift deletion keeps probe chains intact). */
static bool tab_del(table *t, int svc, const char *key)
{
    uint64_t h = hash_entry(svc, key);
    entry *e = tab_find(t, svc, key, h);
    if (!e)
        return false;
    free(e->key);
    size_t mask = t->cap - 1;
    size_t i = (size_t)(e - t->e);
    t->e[i].key = NULL;
    for (size_t j = (i + 1) & mask; t->e[j].key; j = (j + 1) & mask) {
        size_t home = (size_t)t->e[j].hash & mask;
        /* move j back to i when i lies cyclically in [home, j) */
        if (((j - home) & mask) >= ((j - i) & mask)) {
            t->e[i] = t->e[j];
            t->e[j].key = NULL;
            i = j;
        }
    }
    t->n--;
    return true;
}

static void tab_free(table *t)
{
    for (size_t i = 0; i < t->cap; i++)
        free(t->e[i].key);
    free(t->e);
    t->e = NULL;
    t->cap = t->n = 0;
}

/* The `static` definition of an interned service type, or NULL. */
static const wsel__static_svc *fixed_of(const wsel_state *st, int svc)
{
    return svc >= 0 && (size_t)svc < st->n_svc_used ? st->fixed[svc] : NULL;
}

/* What the monitor says: built-ins and `static` types fixed, others as set (unset is UP,
 * WSEL_MAX_TTL). */
static wsel_mstate monitored(const wsel_state *st, int svc, const char *key)
{
    if (svc == SVC_UP)
        return (wsel_mstate){ true, WSEL_MAX_TTL };
    if (svc == SVC_DOWN)
        return (wsel_mstate){ false, WSEL_MAX_TTL };
    const wsel__static_svc *fx = fixed_of(st, svc);
    if (fx)
        return (wsel_mstate){ fx->up, fx->ttl };
    if (svc >= 0) {
        const entry *e = tab_find(&st->mon, svc, key, hash_entry(svc, key));
        if (e)
            return e->ms;
    }
    return (wsel_mstate){ true, WSEL_MAX_TTL };
}

/* The state that counts: an admin override replaces the monitored state, verdict and
 * TTL both; an override written without a TTL forces WSEL_MAX_TTL, as gdnsd 3.8.1 does
 * (doc/weighted.md §6.5, D21). */
static wsel_mstate raw_state(const wsel_state *st, int svc, const char *key)
{
    wsel_mstate m = monitored(st, svc, key);
    if (svc >= 0 || svc == SVC_UP || svc == SVC_DOWN) {
        const entry *f = tab_find(&st->force, svc, key, hash_entry(svc, key));
        if (f)
            m = f->ms;
    }
    return m;
}

static int cmp_ref(const void *a, const void *b)
{
    const keyref *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    if (c)
        return c;
    if (x->set != y->set)
        return x->set < y->set ? -1 : 1;
    return x->item < y->item ? -1 : x->item > y->item;
}

static const char *svc_name(const wsel_state *st, int svc)
{
    return svc == SVC_UP ? "up" : svc == SVC_DOWN ? "down" : st->svc_names[svc];
}

static int cmp_pair(const void *a, const void *b)
{
    const pair *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    return c ? c : strcmp(x->svc_name, y->svc_name);
}

/* Every distinct (key, service type) the sets monitor, built-ins included. */
static bool build_pairs(wsel_state *st)
{
    size_t n = 0;
    for (size_t s = 0; s < st->n_sets; s++) {
        const wsel_set *set = wsel_config_set(st->cfg, s);
        n += (size_t)set->n_items * set->n_services;
    }
    st->pairs = calloc(n ? n : 1, sizeof *st->pairs);
    if (!st->pairs)
        return false;
    for (size_t s = 0; s < st->n_sets; s++) {
        const wsel_set *set = wsel_config_set(st->cfg, s);
        for (uint32_t i = 0; i < set->n_items; i++)
            for (uint32_t k = 0; k < set->n_services; k++)
                st->pairs[st->n_pairs++] = (pair){ st->set_keys[s][i], st->set_svc[s][k],
                                                   svc_name(st, st->set_svc[s][k]) };
    }
    qsort(st->pairs, st->n_pairs, sizeof *st->pairs, cmp_pair);
    size_t w = 0;
    for (size_t r = 0; r < st->n_pairs; r++)
        if (!w || cmp_pair(&st->pairs[w - 1], &st->pairs[r]) != 0)
            st->pairs[w++] = st->pairs[r];
    st->n_pairs = w;
    return true;
}

void wsel_state_free(wsel_state *st)
{
    if (!st)
        return;
    for (size_t i = 0; i < st->n_svc; i++)
        free(st->svc_names[i]);
    free(st->svc_names);
    free(st->fixed);
    tab_free(&st->mon);
    tab_free(&st->force);
    free(st->pairs);
    for (size_t s = 0; s < st->n_sets; s++) {
        free(st->set_svc ? st->set_svc[s] : NULL);
        /* Each key list ends with a NULL, so freeing never reads the config: a state
         * may be freed after its config (include/wsel/state.h). */
        free(st->set_keys ? st->set_keys[s] : NULL);
    }
    free(st->set_svc);
    free(st->set_keys);
    free(st->version);
    free(st->refs);
    free(st);
}

/* Item i's canonical key (its monitoring name) in buf (KEY_MAX bytes). */
static void item_key(const wsel_set *set, uint32_t i, char *buf)
{
    const char *src = set->items[i].key ? set->items[i].key : set->items[i].value;
    if (!wsel__canon_key(src, buf, KEY_MAX))
        snprintf(buf, KEY_MAX, "%s", src);
}

/* One set's canonical item keys in one block: the list of n_items pointers and a NULL,
 * then the texts they point to (one allocation per set, not one per item); NULL when out
 * of memory. */
static char **set_keys_new(const wsel_set *set)
{
    char buf[KEY_MAX];
    size_t head = ((size_t)set->n_items + 1) * sizeof(char *), len = 0;
    for (uint32_t i = 0; i < set->n_items; i++) {
        item_key(set, i, buf);
        len += strlen(buf) + 1;
    }
    char **keys = malloc(head + len);
    if (!keys)
        return NULL;
    char *p = (char *)keys + head;
    for (uint32_t i = 0; i < set->n_items; i++) {
        item_key(set, i, buf);
        size_t n = strlen(buf) + 1;
        memcpy(p, buf, n);
        keys[i] = p;
        p += n;
    }
    keys[set->n_items] = NULL;
    return keys;
}

int wsel_state_new(const wsel_config *cfg, wsel_state **out, wsel_error *err)
{
    if (out)
        *out = NULL;
    if (!cfg || !out)
        return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, NULL, NULL, NULL,
                          "wsel_state_new: config and output pointer are required");
    wsel_state *st = calloc(1, sizeof *st);
    if (!st)
        goto nomem;
    st->cfg = cfg;
    st->whole = wsel_config_is_whole(cfg);
    st->n_sets = wsel_config_set_count(cfg);
    size_t n_sets = st->n_sets;
    st->set_svc = calloc(n_sets ? n_sets : 1, sizeof *st->set_svc);
    st->set_keys = calloc(n_sets ? n_sets : 1, sizeof *st->set_keys);
    st->version = calloc(n_sets ? n_sets : 1, sizeof *st->version);
    if (!st->set_svc || !st->set_keys || !st->version)
        goto nomem;

    size_t n_refs = 0;
    for (size_t s = 0; s < n_sets; s++) {
        const wsel_set *set = wsel_config_set(cfg, s);
        n_refs += set->n_items;
        st->set_svc[s] = calloc(set->n_services ? set->n_services : 1, sizeof(int));
        st->set_keys[s] = set_keys_new(set);
        if (!st->set_svc[s] || !st->set_keys[s])
            goto nomem;
        for (uint32_t k = 0; k < set->n_services; k++) {
            int idx = svc_intern(st, set->services[k]);
            if (idx == -3)
                goto nomem;
            st->set_svc[s][k] = idx;
        }
    }
    st->n_svc_used = st->n_svc;
    st->fixed = calloc(st->n_svc ? st->n_svc : 1, sizeof *st->fixed);
    if (!st->fixed)
        goto nomem;
    for (size_t k = 0; k < st->n_svc; k++)
        st->fixed[k] = wsel__config_static(cfg, st->svc_names[k]);

    st->refs = calloc(n_refs ? n_refs : 1, sizeof *st->refs);
    if (!st->refs)
        goto nomem;
    for (size_t s = 0; s < n_sets; s++) {
        const wsel_set *set = wsel_config_set(cfg, s);
        for (uint32_t i = 0; i < set->n_items; i++)
            st->refs[st->n_refs++] = (keyref){ st->set_keys[s][i], (uint32_t)s, i };
    }
    qsort(st->refs, st->n_refs, sizeof *st->refs, cmp_ref);
    if (!build_pairs(st))
        goto nomem;
    *out = st;
    return WSEL_OK;
nomem:
    wsel_state_free(st);
    return wsel__fail(err, WSEL_E_NOMEM, NULL, 0, 0, NULL, NULL, NULL,
                      "out of memory creating monitoring state");
}

const wsel_config *wsel_state_config(const wsel_state *st)
{
    return st ? st->cfg : NULL;
}

/* First ref with this key, or n_refs. */
static size_t refs_lower(const wsel_state *st, const char *key)
{
    size_t lo = 0, hi = st->n_refs;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(st->refs[mid].key, key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static bool set_has_svc(const wsel_state *st, size_t set, int svc)
{
    const wsel_set *s = wsel_config_set(st->cfg, set);
    for (uint32_t k = 0; k < s->n_services; k++) {
        int v = st->set_svc[set][k];
        if (svc == -3 ? v >= 0 && !fixed_of(st, v) : v == svc)
            return true;
    }
    return false;
}

/* Checks a service name for wsel_state_set / extfile. *svc gets its index, or -3 for
 * "every non-built-in service the config uses" (name NULL). New names are interned only
 * for stanza-only configs, where no list of defined service types exists. */
static int check_service(wsel_state *st, const char *service, int *svc, const char *file,
                         unsigned line, wsel_error *err)
{
    if (!service) {
        *svc = -3;
        return WSEL_OK;
    }
    if (strcmp(service, "up") == 0 || strcmp(service, "down") == 0)
        return wsel__fail(err, WSEL_E_STATE, file, line, 0, NULL, NULL, service,
                          "service type '%s' is built in and its state cannot be set; "
                          "expected a monitored service type", service);
    int idx = svc_lookup(st, service);
    const wsel__static_svc *fx = fixed_of(st, idx);
    if (fx)
        return wsel__fail(err, WSEL_E_STATE, file, line, 0, NULL, NULL, service,
                          "service type '%s' uses the static plugin, whose state comes from "
                          "the config (%s/%u); expected a service type whose monitor is fed "
                          "from outside, such as extfile", service, fx->up ? "UP" : "DOWN",
                          fx->ttl);
    if (idx >= 0 && (size_t)idx < st->n_svc_used) {
        *svc = idx;
        return WSEL_OK;
    }
    if (st->whole)
        return wsel__fail(err, WSEL_E_STATE, file, line, 0, NULL, NULL, service,
                          "service type '%s' is not used by any weighted resource of "
                          "this config; expected one of the service types the config uses",
                          service);
    idx = svc_intern(st, service);
    if (idx == -3)
        return wsel__fail(err, WSEL_E_NOMEM, file, line, 0, NULL, NULL, service,
                          "out of memory");
    *svc = idx;
    return WSEL_OK;
}

/* Applies an already validated change. */
static int apply(wsel_state *st, int svc, const char *ckey, wsel_mstate ms, size_t *matched)
{
    static const entry unset = { 0, NULL, 0, { true, WSEL_MAX_TTL }, false };
    bool changed = false;
    if (svc == -3) {
        for (size_t k = 0; k < st->n_svc_used; k++) {
            if (st->fixed[k])
                continue; /* static: fed by the config only */
            bool c = false;
            int rc = tab_put(&st->mon, (int)k, ckey, ms, false, &unset, &c);
            if (rc)
                return rc;
            changed |= c;
        }
    } else {
        int rc = tab_put(&st->mon, svc, ckey, ms, false, &unset, &changed);
        if (rc)
            return rc;
    }
    size_t count = 0;
    uint32_t last_bumped = UINT32_MAX;
    for (size_t i = refs_lower(st, ckey); i < st->n_refs && strcmp(st->refs[i].key, ckey) == 0;
         i++) {
        const keyref *r = &st->refs[i];
        if (!set_has_svc(st, r->set, svc))
            continue;
        count++;
        /* refs are sorted by set within one key, so one bump per set */
        if (changed && r->set != last_bumped) {
            st->version[r->set]++;
            last_bumped = r->set;
        }
    }
    if (matched)
        *matched = count;
    return WSEL_OK;
}

int wsel_state_set(wsel_state *st, const char *service, const char *key, bool up,
                   uint32_t ttl, size_t *matched, wsel_error *err)
{
    if (matched)
        *matched = 0;
    if (!st || !key)
        return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, NULL, NULL, NULL,
                          "wsel_state_set: state and key are required");
    if (ttl > WSEL_MAX_TTL)
        return wsel__fail(err, WSEL_E_STATE, NULL, 0, 0, NULL, NULL, key,
                          "TTL %u for '%s' is out of range; expected 0 .. %u", ttl, key,
                          WSEL_MAX_TTL);
    char ckey[KEY_MAX];
    if (!wsel__canon_key(key, ckey, sizeof ckey))
        return wsel__fail(err, WSEL_E_STATE, NULL, 0, 0, NULL, NULL, NULL,
                          "state key is too long (%zu bytes); expected an address or a "
                          "domain name", strlen(key));
    int svc;
    int rc = check_service(st, service, &svc, NULL, 0, err);
    if (rc)
        return rc;
    rc = apply(st, svc, ckey, (wsel_mstate){ up, ttl }, matched);
    if (rc)
        return wsel__fail(err, rc, NULL, 0, 0, NULL, NULL, key, "out of memory");
    return WSEL_OK;
}

wsel_mstate wsel_state_get(const wsel_state *st, const char *service, const char *key)
{
    wsel_mstate up = { true, WSEL_MAX_TTL };
    if (!service)
        return up;
    if (strcmp(service, "down") == 0)
        return (wsel_mstate){ false, WSEL_MAX_TTL };
    if (!st || !key || strcmp(service, "up") == 0)
        return up;
    char ckey[KEY_MAX];
    if (!wsel__canon_key(key, ckey, sizeof ckey))
        return up;
    return raw_state(st, svc_lookup(st, service), ckey);
}

wsel_mstate wsel_state_item(const wsel_state *st, const wsel_set *set, const wsel_item *item)
{
    wsel_mstate res = { true, WSEL_MAX_TTL };
    if (!set || !item)
        return res;
    for (uint32_t k = 0; k < set->n_services; k++) {
        wsel_mstate m;
        if (st && set->id < st->n_sets && wsel_config_set(st->cfg, set->id) == set) {
            m = raw_state(st, st->set_svc[set->id][k], st->set_keys[set->id][item->index]);
        } else {
            /* a set of another config, or no state: only the built-ins can say DOWN */
            const char *name = set->services[k];
            m = (wsel_mstate){ strcmp(name, "down") != 0, WSEL_MAX_TTL };
        }
        if (!m.up)
            res.up = false;
        if (m.ttl < res.ttl)
            res.ttl = m.ttl;
    }
    return res;
}

uint64_t wsel_state_set_version(const wsel_state *st, const wsel_set *set)
{
    if (!st || !set || set->id >= st->n_sets)
        return 0;
    return st->version[set->id];
}

/* ---- admin overrides (doc/weighted.md §6.5) ---------------------------------------- */

void wsel_state_set_warn(wsel_state *st, wsel_warn_fn fn, void *ctx)
{
    if (!st)
        return;
    st->warn = fn;
    st->warn_ctx = ctx;
}

void wsel__state_warn(const wsel_state *st, const char *file, unsigned line, unsigned col,
                      const char *item, const char *fmt, ...)
{
    if (!st->warn)
        return;
    wsel_error w;
    wsel_error_clear(&w);
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    wsel__fail(&w, WSEL_OK, file, line, col, NULL, NULL, item, "%s", msg);
    st->warn(st->warn_ctx, &w);
}

static void bump_pair(wsel_state *st, const pair *pr)
{
    uint32_t last = UINT32_MAX;
    for (size_t i = refs_lower(st, pr->key);
         i < st->n_refs && strcmp(st->refs[i].key, pr->key) == 0; i++) {
        const keyref *r = &st->refs[i];
        if (r->set != last && set_has_svc(st, r->set, pr->svc)) {
            st->version[r->set]++;
            last = r->set;
        }
    }
}

static bool has_glob(const char *s)
{
    return strpbrk(s, "*?[") != NULL;
}

/* Splits "THING/SERVICE" at its last '/' into canonical or lower-cased thing pattern and
 * service pattern. */
static int split_pattern(const char *pattern, char *thing, size_t tlen, char *svc,
                         size_t slen, wsel_error *err)
{
    const char *slash = strrchr(pattern, '/');
    if (!slash || slash == pattern || !slash[1])
        return wsel__fail(err, WSEL_E_STATE, NULL, 0, 0, NULL, NULL, pattern,
                          "'%s' is not THING/SERVICE_TYPE; expected an address or CNAME "
                          "(or a glob), '/', and a service type (or a glob)", pattern);
    size_t n = (size_t)(slash - pattern);
    if (n + 1 > tlen || strlen(slash + 1) + 1 > slen)
        return wsel__fail(err, WSEL_E_STATE, NULL, 0, 0, NULL, NULL, NULL,
                          "override key is too long (%zu bytes)", strlen(pattern));
    char raw[KEY_MAX];
    memcpy(raw, pattern, n);
    raw[n] = '\0';
    if (has_glob(raw)) {
        for (size_t i = 0; i <= n; i++)
            thing[i] = (char)tolower((unsigned char)raw[i]);
    } else if (!wsel__canon_key(raw, thing, tlen)) {
        return wsel__fail(err, WSEL_E_STATE, NULL, 0, 0, NULL, NULL, NULL,
                          "override key is too long (%zu bytes)", strlen(pattern));
    }
    memcpy(svc, slash + 1, strlen(slash + 1) + 1);
    return WSEL_OK;
}

static bool pair_matches(const wsel_state *st, const pair *pr, const char *thing,
                         const char *svc)
{
    (void)st;
    return fnmatch(thing, pr->key, 0) == 0 && fnmatch(svc, pr->svc_name, 0) == 0;
}

int wsel__state_check_pattern(const char *pattern, wsel_error *err)
{
    char thing[KEY_MAX], svc[KEY_MAX];
    return split_pattern(pattern, thing, sizeof thing, svc, sizeof svc, err);
}

/* Forces (force == true) or unforces every pair matching `pattern`. */
static int force_common(wsel_state *st, const char *pattern, bool force, bool up,
                        bool has_ttl, uint32_t ttl, size_t *matched, wsel_error *err)
{
    if (matched)
        *matched = 0;
    if (!st || !pattern)
        return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, NULL, NULL, NULL,
                          "wsel_state_force: state and pattern are required");
    if (force && has_ttl && ttl > WSEL_MAX_TTL)
        return wsel__fail(err, WSEL_E_STATE, NULL, 0, 0, NULL, NULL, pattern,
                          "TTL %u for '%s' is out of range; expected 0 .. %u", ttl, pattern,
                          WSEL_MAX_TTL);
    char thing[KEY_MAX], svc[KEY_MAX];
    int rc = split_pattern(pattern, thing, sizeof thing, svc, sizeof svc, err);
    if (rc)
        return rc;
    size_t count = 0;
    for (size_t i = 0; i < st->n_pairs; i++) {
        const pair *pr = &st->pairs[i];
        if (!pair_matches(st, pr, thing, svc))
            continue;
        count++;
        bool changed;
        if (force) {
            rc = tab_put(&st->force, pr->svc, pr->key, (wsel_mstate){ up, ttl }, has_ttl,
                         NULL, &changed);
            if (rc)
                return wsel__fail(err, rc, NULL, 0, 0, NULL, NULL, pattern, "out of memory");
        } else {
            changed = tab_del(&st->force, pr->svc, pr->key);
        }
        if (changed)
            bump_pair(st, pr);
    }
    if (matched)
        *matched = count;
    return WSEL_OK;
}

int wsel_state_force(wsel_state *st, const char *pattern, bool up, bool has_ttl,
                     uint32_t ttl, size_t *matched, wsel_error *err)
{
    return force_common(st, pattern, true, up, has_ttl, has_ttl ? ttl : WSEL_MAX_TTL, matched,
                        err);
}

int wsel_state_unforce(wsel_state *st, const char *pattern, size_t *matched, wsel_error *err)
{
    return force_common(st, pattern, false, false, false, 0, matched, err);
}

void wsel_state_clear_forced(wsel_state *st)
{
    if (!st || !st->force.n)
        return;
    for (size_t i = 0; i < st->n_pairs; i++)
        if (tab_del(&st->force, st->pairs[i].svc, st->pairs[i].key))
            bump_pair(st, &st->pairs[i]);
    tab_free(&st->force);
}

size_t wsel_state_pair_count(const wsel_state *st)
{
    return st ? st->n_pairs : 0;
}

bool wsel_state_pair(const wsel_state *st, size_t i, wsel_pair_info *out)
{
    if (!st || !out || i >= st->n_pairs)
        return false;
    const pair *pr = &st->pairs[i];
    memset(out, 0, sizeof *out);
    out->thing = pr->key;
    out->service = pr->svc_name;
    out->monitored = monitored(st, pr->svc, pr->key);
    const entry *f = tab_find(&st->force, pr->svc, pr->key, hash_entry(pr->svc, pr->key));
    if (f) {
        out->forced = true;
        out->forced_up = f->ms.up;
        out->forced_ttl = f->ttl_set;
        out->ttl_forced = f->ms.ttl;
    }
    out->effective = raw_state(st, pr->svc, pr->key);
    return true;
}

/* ---- extfile ---------------------------------------------------------------------- */

/* Keys live in one growing buffer (a file of short lines must not cost KEY_MAX bytes a
 * line); `key` is set from `off` once the buffer stops moving. */
typedef struct ext_line {
    const char *key;         /* canonical */
    size_t off;
    wsel_mstate ms;
    unsigned line;
    bool unmatched;
} ext_line;

static int cmp_ext_line(const void *a, const void *b)
{
    const ext_line *x = a, *y = b;
    return x->line < y->line ? -1 : x->line > y->line;
}

static int cmp_ext(const void *a, const void *b)
{
    const ext_line *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    if (c)
        return c;
    return x->line < y->line ? -1 : x->line > y->line;
}

static bool is_key_char(char c)
{
    return c && !isspace((unsigned char)c) && c != '=' && c != '#' && c != ';' && c != ','
           && c != '"';
}

/* One extfile line being read: [p, end) is what is left of it, start its first byte. */
typedef struct ext_cursor {
    const char *p, *end, *start;
    const char *name;        /* the file, for errors */
    unsigned line;
    wsel_error *err;
    char raw[KEY_MAX];       /* the key as written (once read) */
} ext_cursor;

/* A failure at q (1-based column), about the key when one was read. */
static int ext_fail(const ext_cursor *c, const char *q, const char *key, const char *fmt, ...)
    WSEL_PRINTF(4, 5);
static int ext_fail(const ext_cursor *c, const char *q, const char *key, const char *fmt, ...)
{
    char msg[sizeof c->err->message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return wsel__fail(c->err, WSEL_E_STATE, c->name, c->line, (unsigned)(q - c->start) + 1,
                      NULL, NULL, key, "%s", msg);
}

static void ext_skip(ext_cursor *c, const char *blanks)
{
    while (c->p < c->end && *c->p && strchr(blanks, *c->p))
        c->p++;
}

/* The key, quoted or bare, into c->raw, and its canonical form into ckey. */
static int ext_key(ext_cursor *c, char *ckey, size_t ckey_len)
{
    size_t n = 0;
    const char *kstart = c->p;
    bool quoted = *c->p == '"';
    if (quoted)
        c->p++;
    while (c->p < c->end && (quoted ? *c->p != '"' : is_key_char(*c->p))) {
        if (n + 1 >= sizeof c->raw)
            return ext_fail(c, kstart, NULL, "key is too long; expected an address or a name");
        c->raw[n++] = *c->p++;
    }
    if (quoted && c->p == c->end)
        return ext_fail(c, kstart, NULL, "unterminated quoted key; expected a closing '\"'");
    if (quoted)
        c->p++;
    c->raw[n] = '\0';
    if (n == 0)
        return ext_fail(c, kstart, NULL, "expected an address or name at the start of the line");
    if (!wsel__canon_key(c->raw, ckey, ckey_len))
        return ext_fail(c, kstart, c->raw, "key '%s' is too long", c->raw);
    return WSEL_OK;
}

/* "=>" (or "="), then UP or DOWN, then an optional /TTL, into *ms. */
static int ext_state(ext_cursor *c, wsel_mstate *ms)
{
    ext_skip(c, " \t");
    if (c->p + 1 < c->end && c->p[0] == '=' && c->p[1] == '>')
        c->p += 2;
    else if (c->p < c->end && c->p[0] == '=')
        c->p += 1;
    else
        return ext_fail(c, c->p, c->raw, "expected '=>' after '%s'", c->raw);
    ext_skip(c, " \t");
    const char *wstart = c->p;
    while (c->p < c->end && isalpha((unsigned char)*c->p))
        c->p++;
    size_t wlen = (size_t)(c->p - wstart);
    if (wlen == 2 && strncasecmp(wstart, "up", 2) == 0)
        ms->up = true;
    else if (wlen == 4 && strncasecmp(wstart, "down", 4) == 0)
        ms->up = false;
    else
        return ext_fail(c, wstart, c->raw, "bad state for '%s'; expected UP or DOWN, "
                        "optionally followed by /TTL", c->raw);
    ms->ttl = WSEL_MAX_TTL;
    if (c->p >= c->end || *c->p != '/')
        return WSEL_OK;
    const char *tstart = ++c->p;
    uint64_t v = 0;
    while (c->p < c->end && isdigit((unsigned char)*c->p)) {
        if (v <= WSEL_MAX_TTL)
            v = v * 10 + (uint64_t)(*c->p - '0');
        c->p++;
    }
    if (c->p == tstart)
        return ext_fail(c, tstart, c->raw, "bad TTL for '%s'; expected decimal seconds after "
                        "'/'", c->raw);
    if (v > WSEL_MAX_TTL)
        return ext_fail(c, tstart, c->raw, "TTL %.*s for '%s' is out of range; expected 0 .. %u",
                        (int)(c->p - tstart), tstart, c->raw, WSEL_MAX_TTL);
    ms->ttl = (uint32_t)v;
    return WSEL_OK;
}

/* Parses one line [p, end). Returns WSEL_OK with *have set when it holds an entry. */
static int parse_ext_line(const char *p, const char *end, const char *name, unsigned line,
                          ext_line *out, char *ckey, size_t ckey_len, bool *have,
                          wsel_error *err)
{
    ext_cursor c = {.p = p, .end = end, .start = p, .name = name, .line = line, .err = err};
    *have = false;
    while (c.p < end && isspace((unsigned char)*c.p))
        c.p++;
    if (c.p == end || *c.p == '#' || *c.p == ';')
        return WSEL_OK;
    int rc = ext_key(&c, ckey, ckey_len);
    if (!rc)
        rc = ext_state(&c, &out->ms);
    if (rc)
        return rc;
    ext_skip(&c, " \t\r");
    if (c.p < end && *c.p == ',') {
        c.p++;
        ext_skip(&c, " \t\r");
    }
    if (c.p < end && *c.p != '#' && *c.p != ';')
        return ext_fail(&c, c.p, c.raw, "unexpected text after the state of '%s'; expected "
                        "end of line or a comment", c.raw);
    out->line = line;
    *have = true;
    return WSEL_OK;
}

/* A line whose key matches no item (monitored by this service type) changes nothing:
 * say so, with what the key probably was meant to be. */
static void warn_unmatched(const wsel_state *st, const char *file, unsigned line,
                           const char *key, const char *service)
{
    const char *why = "";
    size_t n = strlen(key);
    bool numeric = n > 0 && strspn(key, "0123456789.") == n;
    char dotted[KEY_MAX];
    uint8_t bin[16];
    if (numeric && wsel__addr_parse(key, n, false, bin) != 4)
        why = " (it is not a valid IPv4 address)";
    else if (n && key[n - 1] != '.' && n + 2 <= sizeof dotted) {
        memcpy(dotted, key, n);
        dotted[n] = '.';
        dotted[n + 1] = '\0';
        if (refs_lower(st, dotted) < st->n_refs
            && strcmp(st->refs[refs_lower(st, dotted)].key, dotted) == 0)
            why = " (a CNAME needs its final dot)";
    }
    wsel__state_warn(st, file, line, 0, key, "'%s' matches no address or CNAME %s%s%s; "
                     "the line changes nothing%s", key,
                     service ? "monitored by service type '" : "of this config",
                     service ? service : "", service ? "'" : "", why);
}

/* The entries of an extfile: its lines that hold one, their keys in one buffer. */
typedef struct ext_file {
    const char *name;
    ext_line *lines;
    size_t n, cap;
    char *keys;
    size_t klen, kcap;
} ext_file;

static int ext_nomem(const ext_file *f, wsel_error *err)
{
    return wsel__fail(err, WSEL_E_NOMEM, f->name, 0, 0, NULL, NULL, NULL, "out of memory");
}

/* Reads every line of data[0..len) into f (entries in file order, keys not yet set). */
static int ext_read(ext_file *f, const char *data, size_t len, wsel_error *err)
{
    if (len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0)
        return wsel__fail(err, WSEL_E_STATE, f->name, 1, 1, NULL, NULL, NULL,
                          "the file starts with a UTF-8 byte-order mark; expected plain "
                          "text (save it without the mark)");
    const char *p = data, *end = data + len;
    unsigned lineno = 0;
    while (p < end) {
        lineno++;
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol)
            eol = end;
        if (memchr(p, '\0', (size_t)(eol - p)))
            return wsel__fail(err, WSEL_E_STATE, f->name, lineno, 0, NULL, NULL, NULL,
                              "NUL byte in state file; expected text lines");
        if (!wsel__grow(&f->lines, &f->cap, f->n + 1, sizeof *f->lines))
            return ext_nomem(f, err);
        bool have;
        char ckey[KEY_MAX];
        int rc = parse_ext_line(p, eol, f->name, lineno, &f->lines[f->n], ckey, sizeof ckey,
                                &have, err);
        if (rc)
            return rc;
        if (have) {
            size_t kl = strlen(ckey) + 1;
            if (!wsel__grow(&f->keys, &f->kcap, f->klen + kl, 1))
                return ext_nomem(f, err);
            memcpy(f->keys + f->klen, ckey, kl);
            f->lines[f->n].off = f->klen;
            f->klen += kl;
            f->n++;
        }
        p = eol < end ? eol + 1 : end;
    }
    for (size_t i = 0; i < f->n; i++)
        f->lines[i].key = f->keys + f->lines[i].off;
    return WSEL_OK;
}

/* gdnsd reads these files as a config hash, where a repeated key is an error; the check
 * is on canonical keys since two spellings of one address are one entry. Sorts the
 * entries by key. */
static int ext_unique(ext_file *f, wsel_error *err)
{
    if (f->n == 0)
        return WSEL_OK; /* no entry, maybe no array (qsort wants one) */
    qsort(f->lines, f->n, sizeof *f->lines, cmp_ext);
    for (size_t i = 1; i < f->n; i++) {
        const ext_line *l = &f->lines[i];
        if (strcmp(l->key, l[-1].key) == 0)
            return wsel__fail(err, WSEL_E_STATE, f->name, l->line, 0, NULL, NULL, l->key,
                              "'%s' is listed again (first on line %u); expected each "
                              "address or name once", l->key, l[-1].line);
    }
    return WSEL_OK;
}

int wsel_state_load_extfile_buffer(wsel_state *st, const char *service, const char *name,
                                   const char *data, size_t len, wsel_error *err)
{
    if (!name)
        name = "<buffer>";
    if (!st || (!data && len))
        return wsel__fail(err, WSEL_E_ARG, name, 0, 0, NULL, NULL, NULL,
                          "wsel_state_load_extfile_buffer: state and data are required");
    int svc;
    int rc = check_service(st, service, &svc, name, 0, err);
    if (rc)
        return rc;
    ext_file f = {.name = name};
    rc = ext_read(&f, data ? data : "", len, err);
    if (!rc)
        rc = ext_unique(&f, err);
    for (size_t i = 0; i < f.n && !rc; i++) {
        size_t matched = 0;
        rc = apply(st, svc, f.lines[i].key, f.lines[i].ms, &matched);
        f.lines[i].unmatched = matched == 0;
        if (rc)
            rc = wsel__fail(err, rc, name, f.lines[i].line, 0, NULL, NULL, NULL,
                            "out of memory");
    }
    if (!rc && f.n) {
        qsort(f.lines, f.n, sizeof *f.lines, cmp_ext_line);
        for (size_t i = 0; i < f.n; i++)
            if (f.lines[i].unmatched)
                warn_unmatched(st, name, f.lines[i].line, f.lines[i].key, service);
    }
    free(f.lines);
    free(f.keys);
    return rc;
}

int wsel_state_load_extfile(wsel_state *st, const char *service, const char *path,
                            wsel_error *err)
{
    if (!st || !path)
        return wsel__fail(err, WSEL_E_ARG, path, 0, 0, NULL, NULL, NULL,
                          "wsel_state_load_extfile: state and path are required");
    /* The config reader's file code: a FIFO or device is refused before it could block,
     * every failure names the file and the reason. */
    char *buf = NULL;
    size_t len = 0;
    int rc = wsel__read_file(path, "state file", WSEL__STATE_MAX_FILE, NULL, &buf, &len, err);
    if (rc == WSEL_OK)
        rc = wsel_state_load_extfile_buffer(st, service, path, buf, len, err);
    free(buf);
    return rc;
}
