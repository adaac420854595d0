/* A bump allocator: everything a config (or a parse tree) owns is freed at once. */
#ifndef WSEL_CORE_PARSE_ARENA_H
#define WSEL_CORE_PARSE_ARENA_H

#include <stddef.h>

typedef struct wsel__arena_block wsel__arena_block;

typedef struct wsel__arena {
    wsel__arena_block *head;
} wsel__arena;

/* Zeroed, suitably aligned memory, or NULL when out of memory (or n overflows). */
void *wsel__arena_alloc(wsel__arena *a, size_t n);
/* Zeroed memory aligned to `align` (a power of two up to alignof(max_align_t)). */
void *wsel__arena_alloc_aligned(wsel__arena *a, size_t n, size_t align);
/* Allocates count * size bytes, checking the product for overflow. */
void *wsel__arena_array(wsel__arena *a, size_t count, size_t size);
/* Copies n bytes of s and adds a terminating NUL. */
char *wsel__arena_strndup(wsel__arena *a, const char *s, size_t n);
char *wsel__arena_strdup(wsel__arena *a, const char *s);
void wsel__arena_free(wsel__arena *a);

/* A growable array (a parser's list of children) that an arena can later take over
 * without copying it. resize: NULL data starts one; NULL return = out of memory, data
 * still valid. cap: the bytes it holds (what resize was last asked for). adopt: makes
 * the first `bytes` of *data the arena's and returns where they now live: a big array
 * in place (*data becomes NULL: the arena owns it), a small one copied (*data stays
 * the caller's, to reuse or free); NULL = out of memory, *data still valid and still
 * the caller's. free: drops one never adopted. */
void *wsel__arena_vec_resize(void *data, size_t bytes);
size_t wsel__arena_vec_cap(const void *data);
void *wsel__arena_vec_adopt(wsel__arena *a, void **data, size_t bytes);
void wsel__arena_vec_free(void *data);

#endif
