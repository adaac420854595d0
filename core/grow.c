/* Growing arrays (core/internal.h): the one growth helper of the library. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

bool wsel__grow(void *pp, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return true;
    if (size == 0 || need > SIZE_MAX / size)
        return false;
    size_t c = *cap > 16 ? *cap : 16;
    while (c < need)
        c = c > SIZE_MAX / 2 ? need : c * 2;
    if (c > SIZE_MAX / size)
        c = need;
    void *p;
    memcpy(&p, pp, sizeof p);
    char *q = realloc(p, c * size);
    if (!q)
        return false;
    memset(q + *cap * size, 0, (c - *cap) * size);
    memcpy(pp, &q, sizeof q);
    *cap = c;
    return true;
}
