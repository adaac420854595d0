/* wsel: the random source, and the default generator.
 *
 * Engines draw uniform 64-bit words from a caller-supplied source through a bulk fill
 * call. Which word feeds which decision is part of the API (see resolve.h, "random-word
 * contract", and doc/random-words.md): given the same word stream, every engine returns
 * the same answer. */
#ifndef WSEL_RNG_H
#define WSEL_RNG_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A source of uniform 64-bit words: fill(ctx, out, n) writes the next n words of the
 * stream. A query calls fill one or more times; only the order of words matters.
 *
 * take is optional (NULL: engines call fill). take(ctx, out, n) hands over the same
 * next n words as fill would, in out[0..n-1]; out has room for n + WSEL_RNG_SLACK
 * words, and take must leave out[n .. n + WSEL_RNG_SLACK - 1] defined (any values:
 * vector code loads them and ignores them). A source that can write its words in whole
 * vectors saves the engine a copy. The default generator provides it. */
typedef struct wsel_rng {
    void (*fill)(void *ctx, uint64_t *out, size_t n);
    void *ctx;
    void (*take)(void *ctx, uint64_t *out, size_t n);
} wsel_rng;

#define WSEL_RNG_SLACK 12u

/* The default generator: four interleaved xoshiro256++ streams ("lanes"). Word 4*b + l of
 * the output is the b-th output of lane l, so a 4-wide SIMD step and the scalar code give
 * the same stream. Lanes are seeded from splitmix64(seed): lane 0 takes the first four
 * splitmix64 outputs as s[0..3], lane 1 the next four, and so on (doc/random-words.md §6).
 * One generator per thread; there is no global state and no lock. */
typedef struct wsel_prng {
    uint64_t s[4][4];        /* s[k][l]: state word k of lane l */
    uint64_t buf[4];         /* outputs of the current block not handed out yet */
    unsigned pos;            /* next unused index in buf (4 = empty) */
} wsel_prng;

WSEL_API void wsel_prng_seed(wsel_prng *p, uint64_t seed);
WSEL_API uint64_t wsel_prng_next(wsel_prng *p);
/* Same stream as n calls of wsel_prng_next(); uses SIMD when the CPU has it. */
WSEL_API void wsel_prng_fill(wsel_prng *p, uint64_t *out, size_t n);
/* A wsel_rng drawing from p (NULL p: a source without fill, which every engine refuses
 * with WSEL_E_ARG). The seed, next and fill calls do nothing with a NULL p (next: 0). */
WSEL_API wsel_rng wsel_prng_rng(wsel_prng *p);

#ifdef __cplusplus
}
#endif
#endif
