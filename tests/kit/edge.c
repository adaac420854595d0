/* Boundary words (kit.h): where the contract's word-to-outcome maps change value. */
#include "kit.h"

__extension__ typedef unsigned __int128 u128;

bool wsel_kit_edge(uint64_t c, uint64_t D, uint64_t *out)
{
    u128 num = (u128)c << 64;
    u128 q = num / D + (num % D != 0);
    if (q >> 64)
        return false;
    *out = (uint64_t)q;
    return true;
}

uint64_t wsel_kit_edge_sat(uint64_t c, uint64_t D)
{
    uint64_t e;
    return wsel_kit_edge(c, D, &e) ? e : UINT64_MAX;
}
