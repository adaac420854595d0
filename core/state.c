/* Monitoring state (doc/weighted.md §6): raw UP/DOWN + TTL per (service type, key), the
 * combination rule per item, per-set version counters, and the extfile loader. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "internal.h"

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
} entry;

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

    entry *tab;              /* open addressing; key == NULL marks an empty slot */
    size_t tab_cap, tab_n;

    size_t n_sets;
    int **set_svc;           /* per set: its service types as indexes */
    char ***set_keys;        /* per set, per item: canonical key */
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
    if (st->n_svc == st->cap_svc) {
        size_t cap = st->cap_svc ? st->cap_svc * 2 : 8;
        char **n = realloc(st->svc_names, cap * sizeof *n);
        if (!n)
            return -3;
        st->svc_names = n;
        st->cap_svc = cap;
    }
    char *copy = strdup(name);
    if (!copy)
        return -3;
    st->svc_names[st->n_svc] = copy;
    return (int)st->n_svc++;
}

static entry *tab_find(const wsel_state *st, int svc, const char *key, uint64_t h)
{
    if (!st->tab_cap)
        return NULL;
    size_t mask = st->tab_cap - 1;
    for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
        entry *e = &st->tab[i];
        if (!e->key)
            return NULL;
        if (e->hash == h && e->svc == svc && strcmp(e->key, key) == 0)
            return e;
    }
}

static bool tab_grow(wsel_state *st)
{
    size_t cap = st->tab_cap ? st->tab_cap * 2 : 64;
    entry *t = calloc(cap, sizeof *t);
    if (!t)
        return false;
    for (size_t i = 0; i < st->tab_cap; i++) {
        entry *e = &st->tab[i];
        if (!e->key)
            continue;
        size_t j = (size_t)e->hash & (cap - 1);
        while (t[j].key)
            j = (j + 1) & (cap - 1);
        t[j] = *e;
    }
    free(st->tab);
    st->tab = t;
    st->tab_cap = cap;
    return true;
}

/* Stores the raw state; *changed tells whether the stored verdict differs from before. */
static int tab_put(wsel_state *st, int svc, const char *key, wsel_mstate ms, bool *changed)
{
    uint64_t h = hash_entry(svc, key);
    entry *e = tab_find(st, svc, key, h);
    if (e) {
        *changed = e->ms.up != ms.up || e->ms.ttl != ms.ttl;
        e->ms = ms;
        return WSEL_OK;
    }
    /* Unset means UP/WSEL_MAX_TTL, so storing that value for a new key changes nothing
     * observable, but it is stored anyway to keep the table a plain record of calls. */
    *changed = !ms.up || ms.ttl != WSEL_MAX_TTL;
    if ((st->tab_n + 1) * 2 > st->tab_cap && !tab_grow(st))
        return WSEL_E_NOMEM;
    char *copy = strdup(key);
    if (!copy)
        return WSEL_E_NOMEM;
    size_t mask = st->tab_cap - 1;
    size_t i = (size_t)h & mask;
    while (st->tab[i].key)
        i = (i + 1) & mask;
    st->tab[i] = (entry){ svc, copy, h, ms };
    st->tab_n++;
    return WSEL_OK;
}

static wsel_mstate raw_state(const wsel_state *st, int svc, const char *key)
{
    if (svc == SVC_UP)
        return (wsel_mstate){ true, WSEL_MAX_TTL };
    if (svc == SVC_DOWN)
        return (wsel_mstate){ false, WSEL_MAX_TTL };
    if (svc >= 0) {
        const entry *e = tab_find(st, svc, key, hash_entry(svc, key));
        if (e)
            return e->ms;
    }
    return (wsel_mstate){ true, WSEL_MAX_TTL };
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

void wsel_state_free(wsel_state *st)
{
    if (!st)
        return;
    for (size_t i = 0; i < st->n_svc; i++)
        free(st->svc_names[i]);
    free(st->svc_names);
    for (size_t i = 0; i < st->tab_cap; i++)
        free(st->tab[i].key);
    free(st->tab);
    for (size_t s = 0; s < st->n_sets; s++) {
        free(st->set_svc ? st->set_svc[s] : NULL);
        if (st->set_keys && st->set_keys[s]) {
            const wsel_set *set = wsel_config_set(st->cfg, s);
            for (size_t i = 0; i < set->n_items; i++)
                free(st->set_keys[s][i]);
            free(st->set_keys[s]);
        }
    }
    free(st->set_svc);
    free(st->set_keys);
    free(st->version);
    free(st->refs);
    free(st);
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
        st->set_keys[s] = calloc(set->n_items ? set->n_items : 1, sizeof(char *));
        if (!st->set_svc[s] || !st->set_keys[s])
            goto nomem;
        for (uint32_t k = 0; k < set->n_services; k++) {
            int idx = svc_intern(st, set->services[k]);
            if (idx == -3)
                goto nomem;
            st->set_svc[s][k] = idx;
        }
        for (uint32_t i = 0; i < set->n_items; i++) {
            char buf[KEY_MAX];
            const char *src = set->items[i].key ? set->items[i].key : set->items[i].value;
            if (!wsel__canon_key(src, buf, sizeof buf))
                snprintf(buf, sizeof buf, "%s", src);
            st->set_keys[s][i] = strdup(buf);
            if (!st->set_keys[s][i])
                goto nomem;
        }
    }
    st->n_svc_used = st->n_svc;

    st->refs = calloc(n_refs ? n_refs : 1, sizeof *st->refs);
    if (!st->refs)
        goto nomem;
    for (size_t s = 0; s < n_sets; s++) {
        const wsel_set *set = wsel_config_set(cfg, s);
        for (uint32_t i = 0; i < set->n_items; i++)
            st->refs[st->n_refs++] = (keyref){ st->set_keys[s][i], (uint32_t)s, i };
    }
    qsort(st->refs, st->n_refs, sizeof *st->refs, cmp_ref);
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
        if (svc == -3 ? v >= 0 : v == svc)
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
    bool changed = false;
    if (svc == -3) {
        for (size_t k = 0; k < st->n_svc_used; k++) {
            bool c = false;
            int rc = tab_put(st, (int)k, ckey, ms, &c);
            if (rc)
                return rc;
            changed |= c;
        }
    } else {
        int rc = tab_put(st, svc, ckey, ms, &changed);
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

/* ---- extfile ---------------------------------------------------------------------- */

/* Keys live in one growing buffer (a file of short lines must not cost KEY_MAX bytes a
 * line); `key` is set from `off` once the buffer stops moving. */
typedef struct ext_line {
    const char *key;         /* canonical */
    size_t off;
    wsel_mstate ms;
    unsigned line;
} ext_line;

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

/* Parses one line [p, end). Returns WSEL_OK with *have set when it holds an entry. */
static int parse_ext_line(const char *p, const char *end, const char *name, unsigned line,
                          ext_line *out, char *ckey, size_t ckey_len, bool *have,
                          wsel_error *err)
{
    const char *start = p;
#define COL(q) ((unsigned)((q) - start) + 1)
    *have = false;
    while (p < end && isspace((unsigned char)*p))
        p++;
    if (p == end || *p == '#' || *p == ';')
        return WSEL_OK;

    char raw[KEY_MAX];
    size_t n = 0;
    const char *kstart = p;
    if (*p == '"') {
        p++;
        while (p < end && *p != '"') {
            if (n + 1 >= sizeof raw)
                return wsel__fail(err, WSEL_E_STATE, name, line, COL(kstart), NULL, NULL,
                                  NULL, "key is too long; expected an address or a name");
            raw[n++] = *p++;
        }
        if (p == end)
            return wsel__fail(err, WSEL_E_STATE, name, line, COL(kstart), NULL, NULL, NULL,
                              "unterminated quoted key; expected a closing '\"'");
        p++;
    } else {
        while (p < end && is_key_char(*p)) {
            if (n + 1 >= sizeof raw)
                return wsel__fail(err, WSEL_E_STATE, name, line, COL(kstart), NULL, NULL,
                                  NULL, "key is too long; expected an address or a name");
            raw[n++] = *p++;
        }
    }
    raw[n] = '\0';
    if (n == 0)
        return wsel__fail(err, WSEL_E_STATE, name, line, COL(kstart), NULL, NULL, NULL,
                          "expected an address or name at the start of the line");
    if (!wsel__canon_key(raw, ckey, ckey_len))
        return wsel__fail(err, WSEL_E_STATE, name, line, COL(kstart), NULL, NULL, raw,
                          "key '%s' is too long", raw);

    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    if (p + 1 < end && p[0] == '=' && p[1] == '>')
        p += 2;
    else if (p < end && p[0] == '=')
        p += 1;
    else
        return wsel__fail(err, WSEL_E_STATE, name, line, COL(p), NULL, NULL, raw,
                          "expected '=>' after '%s'", raw);
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;

    const char *wstart = p;
    while (p < end && isalpha((unsigned char)*p))
        p++;
    size_t wlen = (size_t)(p - wstart);
    if (wlen == 2 && strncasecmp(wstart, "up", 2) == 0)
        out->ms.up = true;
    else if (wlen == 4 && strncasecmp(wstart, "down", 4) == 0)
        out->ms.up = false;
    else
        return wsel__fail(err, WSEL_E_STATE, name, line, COL(wstart), NULL, NULL, raw,
                          "bad state for '%s'; expected UP or DOWN, optionally followed "
                          "by /TTL", raw);
    out->ms.ttl = WSEL_MAX_TTL;
    if (p < end && *p == '/') {
        p++;
        const char *tstart = p;
        uint64_t v = 0;
        while (p < end && isdigit((unsigned char)*p)) {
            if (v <= WSEL_MAX_TTL)
                v = v * 10 + (uint64_t)(*p - '0');
            p++;
        }
        if (p == tstart)
            return wsel__fail(err, WSEL_E_STATE, name, line, COL(tstart), NULL, NULL, raw,
                              "bad TTL for '%s'; expected decimal seconds after '/'", raw);
        if (v > WSEL_MAX_TTL)
            return wsel__fail(err, WSEL_E_STATE, name, line, COL(tstart), NULL, NULL, raw,
                              "TTL %.*s for '%s' is out of range; expected 0 .. %u",
                              (int)(p - tstart), tstart, raw, WSEL_MAX_TTL);
        out->ms.ttl = (uint32_t)v;
    }
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
        p++;
    if (p < end && *p == ',') {
        p++;
        while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
            p++;
    }
    if (p < end && *p != '#' && *p != ';')
        return wsel__fail(err, WSEL_E_STATE, name, line, COL(p), NULL, NULL, raw,
                          "unexpected text after the state of '%s'; expected end of line "
                          "or a comment", raw);
    out->line = line;
    *have = true;
    return WSEL_OK;
#undef COL
}

int wsel_state_load_extfile_buffer(wsel_state *st, const char *service, const char *data,
                                   size_t len, const char *name, wsel_error *err)
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

    size_t cap = 16, n = 0, kcap = 1024, klen = 0;
    ext_line *lines = malloc(cap * sizeof *lines);
    char *keys = malloc(kcap);
    if (!lines || !keys) {
        rc = wsel__fail(err, WSEL_E_NOMEM, name, 0, 0, NULL, NULL, NULL, "out of memory");
        goto out;
    }
    const char *p = data, *end = data + len;
    unsigned lineno = 0;
    while (p < end) {
        lineno++;
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol)
            eol = end;
        if (memchr(p, '\0', (size_t)(eol - p))) {
            rc = wsel__fail(err, WSEL_E_STATE, name, lineno, 0, NULL, NULL, NULL,
                            "NUL byte in state file; expected text lines");
            goto out;
        }
        if (n == cap) {
            ext_line *nl = realloc(lines, cap * 2 * sizeof *lines);
            if (!nl) {
                rc = wsel__fail(err, WSEL_E_NOMEM, name, 0, 0, NULL, NULL, NULL,
                                "out of memory");
                goto out;
            }
            lines = nl;
            cap *= 2;
        }
        bool have;
        char ckey[KEY_MAX];
        rc = parse_ext_line(p, eol, name, lineno, &lines[n], ckey, sizeof ckey, &have, err);
        if (rc)
            goto out;
        if (have) {
            size_t kl = strlen(ckey) + 1;
            if (klen + kl > kcap) {
                char *nk = realloc(keys, (kcap + kl) * 2);
                if (!nk) {
                    rc = wsel__fail(err, WSEL_E_NOMEM, name, 0, 0, NULL, NULL, NULL,
                                    "out of memory");
                    goto out;
                }
                keys = nk;
                kcap = (kcap + kl) * 2;
            }
            memcpy(keys + klen, ckey, kl);
            lines[n].off = klen;
            klen += kl;
            n++;
        }
        p = eol < end ? eol + 1 : end;
    }
    for (size_t i = 0; i < n; i++)
        lines[i].key = keys + lines[i].off;

    /* gdnsd reads these files as a config hash, where a repeated key is an error; the
     * check is on canonical keys since two spellings of one address are one entry. */
    qsort(lines, n, sizeof *lines, cmp_ext);
    for (size_t i = 1; i < n; i++) {
        if (strcmp(lines[i].key, lines[i - 1].key) == 0) {
            rc = wsel__fail(err, WSEL_E_STATE, name, lines[i].line, 0, NULL, NULL,
                            lines[i].key, "'%s' is listed again (first on line %u); expected "
                            "each address or name once", lines[i].key, lines[i - 1].line);
            goto out;
        }
    }
    for (size_t i = 0; i < n; i++) {
        rc = apply(st, svc, lines[i].key, lines[i].ms, NULL);
        if (rc) {
            rc = wsel__fail(err, rc, name, lines[i].line, 0, NULL, NULL, NULL,
                            "out of memory");
            goto out;
        }
    }
out:
    free(lines);
    free(keys);
    return rc;
}

int wsel_state_load_extfile(wsel_state *st, const char *service, const char *path,
                            wsel_error *err)
{
    if (!st || !path)
        return wsel__fail(err, WSEL_E_ARG, path, 0, 0, NULL, NULL, NULL,
                          "wsel_state_load_extfile: state and path are required");
    FILE *f = fopen(path, "rb");
    if (!f)
        return wsel__fail(err, WSEL_E_IO, path, 0, 0, NULL, NULL, NULL,
                          "cannot open state file: %s", strerror(errno));
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    int rc = WSEL_OK;
    while (buf) {
        if (len == cap) {
            if (cap >= ((size_t)64 << 20)) {
                rc = wsel__fail(err, WSEL_E_LIMIT, path, 0, 0, NULL, NULL, NULL,
                                "state file larger than 64 MiB");
                break;
            }
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0) {
            if (ferror(f))
                rc = wsel__fail(err, WSEL_E_IO, path, 0, 0, NULL, NULL, NULL,
                                "error reading state file");
            break;
        }
    }
    fclose(f);
    if (!buf)
        return wsel__fail(err, WSEL_E_NOMEM, path, 0, 0, NULL, NULL, NULL, "out of memory");
    if (rc == WSEL_OK)
        rc = wsel_state_load_extfile_buffer(st, service, buf, len, path, err);
    free(buf);
    return rc;
}
