/* bin/wsel: a hash map from answers (item lists per set) to counts. */
#include <stdlib.h>
#include <string.h>

#include "weighted_amap.h"

void amap_init(amap *m, size_t max)
{
    memset(m, 0, sizeof *m);
    m->max = max;
}

static uint64_t hash_answer(const wsel_answer *a)
{
    uint64_t h = 0x9e3779b97f4a7c15u ^ a->n_sets;
    for (uint32_t s = 0; s < a->n_sets; s++) {
        h = (h ^ (0x100u + a->set[s].count)) * 0x100000001b3u;
        for (uint32_t i = 0; i < a->set[s].count; i++)
            h = (h ^ a->set[s].items[i]) * 0x100000001b3u;
    }
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9u;
    return h ^ (h >> 32);
}

static int same(const amap *m, const amap_entry *e, const wsel_answer *a)
{
    const uint16_t *k = m->arena + e->off;
    if (e->n_sets != a->n_sets)
        return 0;
    for (uint32_t s = 0; s < a->n_sets; s++) {
        if (e->count[s] != a->set[s].count ||
            memcmp(k, a->set[s].items, a->set[s].count * sizeof *k) != 0)
            return 0;
        k += e->count[s];
    }
    return 1;
}

static uint64_t hash_entry(const amap *m, const amap_entry *e)
{
    wsel_answer a;
    a.n_sets = e->n_sets;
    const uint16_t *k = m->arena + e->off;
    for (uint32_t s = 0; s < a.n_sets; s++) {
        a.set[s].count = (uint8_t)e->count[s];
        memcpy(a.set[s].items, k, e->count[s] * sizeof *k);
        k += e->count[s];
    }
    return hash_answer(&a);
}

static int grow_slots(amap *m)
{
    size_t ns = m->nslot ? m->nslot * 2 : 1024;
    uint32_t *slot = calloc(ns, sizeof *slot);
    if (!slot)
        return -1;
    for (size_t k = 0; k < m->n; k++) {
        size_t h = (size_t)hash_entry(m, &m->e[k]) & (ns - 1);
        while (slot[h])
            h = (h + 1) & (ns - 1);
        slot[h] = (uint32_t)k + 1;
    }
    free(m->slot);
    m->slot = slot;
    m->nslot = ns;
    return 0;
}

int amap_add(amap *m, const wsel_answer *a)
{
    if (a->n_sets < 1 || a->n_sets > 2)
        return -1;
    if (m->nslot == 0 && grow_slots(m) < 0)
        return -1;
    size_t h = (size_t)hash_answer(a) & (m->nslot - 1);
    while (m->slot[h]) {
        amap_entry *e = &m->e[m->slot[h] - 1];
        if (same(m, e, a)) {
            e->n++;
            return 0;
        }
        h = (h + 1) & (m->nslot - 1);
    }
    if (m->n >= m->max) {
        m->other++;
        return 0;
    }
    size_t need = 0;
    for (uint32_t s = 0; s < a->n_sets; s++)
        need += a->set[s].count;
    if (!wsel__grow(&m->arena, &m->acap, m->alen + need, sizeof *m->arena) ||
        !wsel__grow(&m->e, &m->cap, m->n + 1, sizeof *m->e))
        return -1;
    amap_entry *e = &m->e[m->n];
    e->off = (uint32_t)m->alen;
    e->n_sets = a->n_sets;
    e->count[0] = e->count[1] = 0;
    e->n = 1;
    for (uint32_t s = 0; s < a->n_sets; s++) {
        e->count[s] = a->set[s].count;
        memcpy(m->arena + m->alen, a->set[s].items, a->set[s].count * sizeof(uint16_t));
        m->alen += a->set[s].count;
    }
    m->slot[h] = (uint32_t)m->n + 1;
    m->n++;
    /* Keep the load factor at or below one half. */
    if (m->n * 2 > m->nslot && grow_slots(m) < 0)
        return -1;
    return 0;
}

const uint16_t *amap_items(const amap *m, size_t k, uint32_t s)
{
    const uint16_t *p = m->arena + m->e[k].off;
    return s ? p + m->e[k].count[0] : p;
}

static const amap *sort_map; /* qsort has no context argument */

static int cmp_entry(const void *x, const void *y)
{
    const amap_entry *a = x, *b = y;
    const uint16_t *ka = sort_map->arena + a->off, *kb = sort_map->arena + b->off;
    for (uint32_t s = 0; s < 2; s++) {
        uint32_t n = a->count[s] < b->count[s] ? a->count[s] : b->count[s];
        for (uint32_t i = 0; i < n; i++)
            if (ka[i] != kb[i])
                return ka[i] < kb[i] ? -1 : 1;
        if (a->count[s] != b->count[s])
            return a->count[s] < b->count[s] ? -1 : 1;
        ka += a->count[s];
        kb += b->count[s];
    }
    return 0;
}

void amap_sort(amap *m)
{
    if (m->n > 1) {
        sort_map = m;
        qsort(m->e, m->n, sizeof *m->e, cmp_entry);
        sort_map = NULL;
    }
    /* The slots point at old positions: drop them; the map is read-only from here. */
    free(m->slot);
    m->slot = NULL;
    m->nslot = 0;
}

void amap_free(amap *m)
{
    free(m->e);
    free(m->slot);
    free(m->arena);
    memset(m, 0, sizeof *m);
}
