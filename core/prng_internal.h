/* Internal interface of the default generator, for SIMD fills and fast paths. */
#ifndef WSEL_PRNG_INTERNAL_H
#define WSEL_PRNG_INTERNAL_H

#include "wsel/rng.h"

/* Advance all four lanes one step; out[l] = output of lane l. Defines the stream. */
void wsel__prng_block_scalar(uint64_t s[4][4], uint64_t out[4]);
/* `blocks` consecutive steps, writing 4 * blocks words; picks SIMD when available. */
void wsel__prng_blocks(uint64_t s[4][4], uint64_t *out, size_t blocks);
/* The variants wsel__prng_blocks dispatches to (tests compare them). AVX2 exists on
 * x86-64 builds without -DWSEL_NO_AVX2 and may only run when the CPU has AVX2. */
void wsel__prng_blocks_portable(uint64_t s[4][4], uint64_t *out, size_t blocks);
#if defined(__x86_64__) && !defined(WSEL_NO_AVX2)
#define WSEL__PRNG_HAVE_AVX2 1
void wsel__prng_blocks_avx2(uint64_t s[4][4], uint64_t *out, size_t blocks);
#endif
/* True when rng draws from a wsel_prng (rng->ctx is then the wsel_prng). */
bool wsel__rng_is_prng(const wsel_rng *rng);

#endif
