/* The bump allocator behind parse trees and loaded configs. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "weighted_arena.h"

/* Blocks grow from FIRST_BLOCK, doubling up to BLOCK_SIZE: a config of a few lines takes
 * a few kilobytes, not 64 (the weighted fuzz targets load one per input). */
#define FIRST_BLOCK ((size_t)4 * 1024)
#define BLOCK_SIZE ((size_t)64 * 1024)
#define ALIGN (sizeof(max_align_t))

struct wsel__arena_block {
    wsel__arena_block *next;
    size_t used, cap;
    max_align_t data[];
};

/* Blocks and big requests always start ALIGN-aligned; smaller alignments let a parse
 * tree's many short strings and small nodes pack without padding. */
void *wsel__arena_alloc_aligned(wsel__arena *a, size_t n, size_t align)
{
    if (n == 0)
        n = 1;
    if (n > SIZE_MAX - ALIGN - sizeof(wsel__arena_block))
        return NULL;
    size_t need = n;
    wsel__arena_block *b = a->head;
    if (b && align > 1)
        b->used = (b->used + align - 1) / align * align;
    if (b && b->used > b->cap)
        b->used = b->cap;
    if (!b || b->cap - b->used < need) {
        /* The next block's size: twice the current one's, within FIRST_BLOCK ..
         * BLOCK_SIZE. Big requests get a block of their own behind the current one, so
         * the remaining space of the current block is not wasted. */
        size_t next = b && b->cap < BLOCK_SIZE / 2 ? 2 * b->cap : BLOCK_SIZE;
        if (next < FIRST_BLOCK || !b)
            next = FIRST_BLOCK;
        bool big = need > next / 4;
        size_t cap = big ? need : next;
        wsel__arena_block *nb = malloc(sizeof *nb + cap);
        if (!nb)
            return NULL;
        nb->used = 0;
        nb->cap = cap;
        if (b && big) {
            nb->next = b->next;
            b->next = nb;
        } else {
            nb->next = b;
            a->head = nb;
        }
        b = nb;
    }
    void *p = (char *)b->data + b->used;
    b->used += need;
    memset(p, 0, n);
    return p;
}

void *wsel__arena_alloc(wsel__arena *a, size_t n)
{
    return wsel__arena_alloc_aligned(a, n, ALIGN);
}

void *wsel__arena_array(wsel__arena *a, size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size)
        return NULL;
    return wsel__arena_alloc(a, count * size);
}

char *wsel__arena_strndup(wsel__arena *a, const char *s, size_t n)
{
    if (n == SIZE_MAX)
        return NULL;
    char *p = wsel__arena_alloc_aligned(a, n + 1, 1);
    if (p) {
        if (n)
            memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}

char *wsel__arena_strdup(wsel__arena *a, const char *s)
{
    return wsel__arena_strndup(a, s, strlen(s));
}

void wsel__arena_free(wsel__arena *a)
{
    wsel__arena_block *b = a->head;
    while (b) {
        wsel__arena_block *next = b->next;
        free(b);
        b = next;
    }
    a->head = NULL;
}

static wsel__arena_block *vec_block(void *data)
{
    return (wsel__arena_block *)(void *)((char *)data - offsetof(wsel__arena_block, data));
}

void *wsel__arena_vec_resize(void *data, size_t bytes)
{
    if (bytes > SIZE_MAX - sizeof(wsel__arena_block))
        return NULL;
    wsel__arena_block *b = realloc(data ? vec_block(data) : NULL, sizeof *b + bytes);
    if (!b)
        return NULL;
    b->next = NULL;
    b->used = b->cap = bytes;
    return b->data;
}

size_t wsel__arena_vec_cap(const void *data)
{
    return ((const wsel__arena_block *)(const void *)((const char *)data -
                                                      offsetof(wsel__arena_block, data)))->cap;
}

void *wsel__arena_vec_adopt(wsel__arena *a, void **data, size_t bytes)
{
    if (bytes < BLOCK_SIZE / 16) {
        /* Small lists (most of them) are copied: a block of their own would cost more in
         * headers than the copy does. */
        void *p = wsel__arena_alloc_aligned(a, bytes, sizeof(void *));
        if (p)
            memcpy(p, *data, bytes);
        return p;
    }
    wsel__arena_block *b = vec_block(*data);
    *data = NULL;
    wsel__arena_block *t = realloc(b, sizeof *b + bytes); /* a shrink: rarely moves */
    if (t)
        b = t;
    b->used = b->cap = bytes; /* full: the bump allocator never uses it */
    /* Behind the current block, whose free space stays in use. */
    if (a->head) {
        b->next = a->head->next;
        a->head->next = b;
    } else {
        b->next = NULL;
        a->head = b;
    }
    return b->data;
}

void wsel__arena_vec_free(void *data)
{
    if (data)
        free(vec_block(data));
}
