/* Replaced published data, kept until a quiet point (fast/retire.h). */
#include <stdlib.h>

#include "retire.h"

bool wsel__retire_reserve(wsel__retired *r, size_t more)
{
    return r->n <= SIZE_MAX - more && wsel__grow(&r->v, &r->cap, r->n + more, sizeof *r->v);
}

void wsel__retire(wsel__retired *r, void *p)
{
    if (p && r->n < r->cap)
        r->v[r->n++] = p;
}

size_t wsel__reclaim(wsel__retired *r, void (*take)(void *ctx, void *p), void *ctx)
{
    size_t n = r->n;
    for (size_t i = 0; i < n; i++)
        take(ctx, r->v[i]);
    r->n = 0;
    return n;
}

void wsel__retired_free(wsel__retired *r, void (*take)(void *ctx, void *p), void *ctx)
{
    wsel__reclaim(r, take, ctx);
    free(r->v);
    r->v = NULL;
    r->cap = 0;
}
