/* Internal interface of the default generator, for SIMD fills and fast paths. */
#ifndef WSEL_PRNG_INTERNAL_H
#define WSEL_PRNG_INTERNAL_H

#include "cpu.h"

/* Advance all four lanes one step; out[l] = output of lane l. Defines the stream. */
void wsel__prng_block_scalar(uint64_t s[4][4], uint64_t out[4]);
/* `blocks` consecutive steps, writing 4 * blocks words, with the bulk fill of the fast
 * variant in use (wsel__variant_fast(): SIMD unless forced otherwise). */
void wsel__prng_blocks(uint64_t s[4][4], uint64_t *out, size_t blocks);
/* The bulk fills the variants name (tests compare them). AVX2 exists where
 * WSEL__HAVE_AVX2 says so and may only run when the CPU has AVX2. */
void wsel__prng_blocks_portable(uint64_t s[4][4], uint64_t *out, size_t blocks);
void wsel__prng_blocks_avx2(uint64_t s[4][4], uint64_t *out, size_t blocks);
/* True when rng draws from a wsel_prng (rng->ctx is then the wsel_prng). */
bool wsel__rng_is_prng(const wsel_rng *rng);

#endif
