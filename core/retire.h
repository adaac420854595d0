/* What the fast engines share: the list of published data a writer has replaced
 * (weighted's resource snapshots, the ring's views). Readers take published data with
 * one acquire load and announce nothing, so the writer cannot know when a reader has
 * let go of a replaced one: it keeps them here until the caller's own quiet point
 * (wsel_resolver_reclaim, wsel_ring_fast_reclaim). In core/ because the fast engines of
 * two systems use it. Not installed. */
#ifndef WSEL_FAST_RETIRE_H
#define WSEL_FAST_RETIRE_H

#include "internal.h"

typedef struct wsel__retired {
    void **v;
    size_t n, cap;
} wsel__retired;

/* Room for `more` retirements; asked before a publish, so that publishing cannot fail
 * half-way. False when out of memory (the list unchanged). */
bool wsel__retire_reserve(wsel__retired *r, size_t more);
/* Keeps p (room reserved; NULL is not kept). */
void wsel__retire(wsel__retired *r, void *p);
/* Writer's quiet point: hands every kept pointer to take(ctx, p) -- which frees it or
 * keeps it for reuse -- and empties the list; returns how many it handed over. */
size_t wsel__reclaim(wsel__retired *r, void (*take)(void *ctx, void *p), void *ctx);
/* At the end: reclaims everything into take, then frees the list itself, leaving it
 * empty (it may be freed again, or used anew). */
void wsel__retired_free(wsel__retired *r, void (*take)(void *ctx, void *p), void *ctx);

#endif
