/* Internal interface of the default generator, for SIMD fills and fast paths. */
#ifndef WSEL_PRNG_INTERNAL_H
#define WSEL_PRNG_INTERNAL_H

#include "wsel/rng.h"

/* Advance all four lanes one step; out[l] = output of lane l. Defines the stream. */
void wsel__prng_block_scalar(uint64_t s[4][4], uint64_t out[4]);
/* `blocks` consecutive steps, writing 4 * blocks words; picks SIMD when available. */
void wsel__prng_blocks(uint64_t s[4][4], uint64_t *out, size_t blocks);
/* True when rng draws from a wsel_prng (rng->ctx is then the wsel_prng). */
bool wsel__rng_is_prng(const wsel_rng *rng);

#endif
