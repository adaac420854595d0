/* GSLB names (doc/gslb.md §1, A-2): the config's name index. Every lookup by name --
 * the reader's duplicate checks, its references (pools, servers, regions), the inputs'
 * names, a query name's wide IP -- goes through one open-addressing hash table per name
 * space, so reading a config with N objects costs O(N), not O(N^2) (issue 24). Keys are
 * the config's own strings (never copied); values are indexes into its arrays. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gslb_internal.h"

typedef struct name_slot {
    const char *key;          /* NULL: empty */
    size_t val;
} name_slot;

typedef struct name_map {
    name_slot *slot;
    size_t cap, n;            /* cap a power of two (or 0), n <= cap / 2 */
} name_map;

/* A wide IP's name (last path part) or alias holding '*' or '?'. */
typedef struct name_pattern {
    const char *pat;
    size_t wideip, literal, stars, seq; /* seq: the claim's place in file order */
} name_pattern;

struct wsel_gslb_name_index {
    name_map map[WSEL__GSLB_NS_COUNT_];
    name_pattern *pats;       /* most specific first */
    size_t n_pats;
    size_t compares;          /* key comparisons while counting (the reader's) */
    bool counting;
};

/* Wide-IP name spaces (both types) compare as DNS names: ASCII case ignored. */
static bool folds(int ns)
{
    return ns >= WSEL__GSLB_NS_WIDEIP;
}

static uint64_t hash(const char *s, bool fold)
{
    uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a 64 */
    for (; *s; s++) {
        int c = (unsigned char)*s;
        h = (h ^ (uint64_t)(fold ? wsel__gslb_fold(c) : c)) * 0x100000001b3ull;
    }
    return h;
}

/* The slot holding key, or the empty slot where it would go. */
static name_slot *probe(struct wsel_gslb_name_index *ix, const name_map *m, const char *key,
                        bool fold)
{
    size_t mask = m->cap - 1, i = (size_t)hash(key, fold) & mask;
    for (;; i = (i + 1) & mask) {
        name_slot *s = &m->slot[i];
        if (!s->key)
            return s;
        if (ix->counting)
            ix->compares++;
        if (fold ? !strcasecmp(s->key, key) : !strcmp(s->key, key))
            return s;
    }
}

static bool grow(struct wsel_gslb_name_index *ix, name_map *m, bool fold)
{
    size_t cap = m->cap ? m->cap * 2 : 64;
    name_slot *old = m->slot, *fresh = calloc(cap, sizeof *fresh);
    if (!fresh)
        return false;
    size_t old_cap = m->cap;
    m->slot = fresh;
    m->cap = cap;
    bool counting = ix->counting;
    ix->counting = false; /* moving keys compares none: they are distinct */
    for (size_t i = 0; i < old_cap; i++)
        if (old[i].key)
            *probe(ix, m, old[i].key, fold) = old[i];
    ix->counting = counting;
    free(old);
    return true;
}

int wsel__gslb_names_add(wsel_gslb_config *cfg, int ns, const char *key, size_t val)
{
    if (!cfg->index) {
        if (!(cfg->index = calloc(1, sizeof *cfg->index)))
            return WSEL_E_NOMEM;
        cfg->index->counting = true; /* until the reader is done */
    }
    struct wsel_gslb_name_index *ix = cfg->index;
    name_map *m = &ix->map[ns];
    if ((m->n + 1) * 2 > m->cap && !grow(ix, m, folds(ns)))
        return WSEL_E_NOMEM;
    name_slot *s = probe(ix, m, key, folds(ns));
    if (!s->key) { /* the first object of a name keeps it */
        *s = (name_slot){key, val};
        m->n++;
    }
    return 0;
}

long wsel__gslb_names_find(const wsel_gslb_config *cfg, int ns, const char *key)
{
    struct wsel_gslb_name_index *ix = cfg->index;
    if (!ix || !ix->map[ns].cap)
        return -1;
    const name_slot *s = probe(ix, &ix->map[ns], key, folds(ns));
    return s->key ? (long)s->val : -1;
}

void wsel__gslb_names_done(wsel_gslb_config *cfg)
{
    if (cfg->index)
        cfg->index->counting = false;
}

size_t wsel__gslb_names_compares(const wsel_gslb_config *cfg)
{
    return cfg->index ? cfg->index->compares : 0;
}

void wsel__gslb_names_free(wsel_gslb_config *cfg)
{
    if (!cfg->index)
        return;
    for (int i = 0; i < WSEL__GSLB_NS_COUNT_; i++)
        free(cfg->index->map[i].slot);
    free(cfg->index->pats);
    free(cfg->index);
    cfg->index = NULL;
}

/* ---- query names: aliases and wildcards (doc/gslb.md §1, A-41) ---- */

bool wsel__gslb_is_pattern(const char *name)
{
    return strpbrk(name, "*?") != NULL;
}

/* `*` any run of characters (dots too, none at all), `?` one character, the rest
 * itself ignoring ASCII case. Greedy with one backtrack point: linear in practice. */
bool wsel__gslb_glob(const char *pat, const char *s)
{
    const char *star = NULL, *resume = NULL;
    while (*s) {
        if (*pat == '*') {
            star = pat++;
            resume = s;
        } else if (*pat && (*pat == '?' || wsel__gslb_fold((unsigned char)*pat) ==
                                                wsel__gslb_fold((unsigned char)*s))) {
            pat++;
            s++;
        } else if (star) {
            pat = star + 1;
            s = ++resume;
        } else {
            return false;
        }
    }
    while (*pat == '*')
        pat++;
    return !*pat;
}

/* more literal characters first, then fewer stars, then file order. */
static int cmp_pattern(const void *a, const void *b)
{
    const name_pattern *x = a, *y = b;
    if (x->literal != y->literal)
        return x->literal > y->literal ? -1 : 1;
    if (x->stars != y->stars)
        return x->stars < y->stars ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int add_pattern(struct wsel_gslb_name_index *ix, size_t *cap, const char *pat, size_t w)
{
    if (!wsel__grow(&ix->pats, cap, ix->n_pats + 1, sizeof *ix->pats))
        return WSEL_E_NOMEM;
    name_pattern *np = &ix->pats[ix->n_pats];
    *np = (name_pattern){pat, w, 0, 0, ix->n_pats};
    for (const char *c = pat; *c; c++) {
        np->stars += *c == '*';
        np->literal += *c != '*' && *c != '?';
    }
    ix->n_pats++;
    return 0;
}

int wsel__gslb_names_queries(wsel_gslb_config *cfg)
{
    size_t cap = 0;
    for (size_t w = 0; w < cfg->n_wideips; w++) {
        const wsel_gslb_wideip *wi = &cfg->wideips[w];
        const char *leaf = strrchr(wi->name, '/') + 1;
        if (wsel__gslb_is_pattern(leaf) && add_pattern(cfg->index, &cap, leaf, w))
            return WSEL_E_NOMEM;
        for (size_t a = 0; a < wi->n_aliases; a++)
            if (wsel__gslb_names_add(cfg, wsel__gslb_ns(WSEL__GSLB_NS_ALIAS, wi->type),
                                     wi->aliases[a], w) ||
                (wsel__gslb_is_pattern(wi->aliases[a]) &&
                 add_pattern(cfg->index, &cap, wi->aliases[a], w)))
                return WSEL_E_NOMEM;
    }
    if (cfg->index && cfg->index->n_pats)
        qsort(cfg->index->pats, cfg->index->n_pats, sizeof *cfg->index->pats, cmp_pattern);
    return 0;
}

long wsel__gslb_names_match(const wsel_gslb_config *cfg, const char *qname, wsel_gslb_type t)
{
    const struct wsel_gslb_name_index *ix = cfg->index;
    for (size_t i = 0; ix && i < ix->n_pats; i++)
        if (cfg->wideips[ix->pats[i].wideip].type == t && wsel__gslb_glob(ix->pats[i].pat, qname))
            return (long)ix->pats[i].wideip;
    return -1;
}

size_t wsel__gslb_names_pattern(const wsel_gslb_config *cfg, size_t i, const char **pat,
                               size_t *wideip)
{
    const struct wsel_gslb_name_index *ix = cfg->index;
    size_t n = ix ? ix->n_pats : 0;
    if (i < n) {
        *pat = ix->pats[i].pat;
        *wideip = ix->pats[i].wideip;
    }
    return n;
}
