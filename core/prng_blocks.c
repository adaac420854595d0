/* Bulk generation for wsel_prng_fill. Portable version; the fast engine's work may
 * replace this with a CPU-dispatched one (identical stream). */
#include "prng_internal.h"

void wsel__prng_blocks(uint64_t s[4][4], uint64_t *out, size_t blocks)
{
    for (size_t b = 0; b < blocks; b++)
        wsel__prng_block_scalar(s, out + 4 * b);
}
