/* bin/wsel: counting distinct answers of a resource (sample, non-enumerable case). */
#ifndef WSEL_CLI_AMAP_H
#define WSEL_CLI_AMAP_H

#include "weighted_cli.h"

typedef struct amap_entry {
    uint32_t off;            /* key position in the arena */
    uint32_t n_sets;
    uint32_t count[2];       /* items per set */
    unsigned long long n;    /* times drawn */
} amap_entry;

typedef struct amap {
    amap_entry *e;           /* entries in first-seen order */
    size_t n, cap, max;      /* max: distinct answers kept; later new ones go to `other` */
    uint32_t *slot;          /* open addressing: entry index + 1, 0 = empty */
    size_t nslot;
    uint16_t *arena;
    size_t alen, acap;
    unsigned long long other;
} amap;

void amap_init(amap *m, size_t max);
/* Counts one answer; -1 when out of memory. */
int amap_add(amap *m, const wsel_answer *a);
/* The item list of entry k for set s. */
const uint16_t *amap_items(const amap *m, size_t k, uint32_t s);
/* Sorts entries by their item lists (set 0 first), as wsel_odds answers are sorted. */
void amap_sort(amap *m);
void amap_free(amap *m);

#endif
