/* The default generator's four lanes in one AVX2 register per state word: s[k] holds
 * state word k of lanes 0..3, so one vector step is one block of the scalar stream
 * (wsel__prng_block_scalar), and the output vector is words 4b .. 4b+3 in order.
 * Built with -mavx2; compiles to nothing elsewhere. */
#include "prng_internal.h"

#if defined(WSEL__HAVE_AVX2) && defined(__AVX2__)
#include "prng_avx2.h"

void wsel__prng_blocks_avx2(uint64_t s[4][4], uint64_t *out, size_t blocks)
{
    __m256i s0 = _mm256_loadu_si256((const __m256i *)s[0]);
    __m256i s1 = _mm256_loadu_si256((const __m256i *)s[1]);
    __m256i s2 = _mm256_loadu_si256((const __m256i *)s[2]);
    __m256i s3 = _mm256_loadu_si256((const __m256i *)s[3]);
    for (size_t b = 0; b < blocks; b++)
        _mm256_storeu_si256((__m256i *)(out + 4 * b), wsel__xoshiro4_step(&s0, &s1, &s2, &s3));
    _mm256_storeu_si256((__m256i *)s[0], s0);
    _mm256_storeu_si256((__m256i *)s[1], s1);
    _mm256_storeu_si256((__m256i *)s[2], s2);
    _mm256_storeu_si256((__m256i *)s[3], s3);
}

void wsel__prng_take_avx2_fn(wsel_prng *p, uint64_t *w, size_t n)
{
    wsel__prng_take_avx2(p, w, n);
}

#else
typedef int wsel__prng_avx2_unused;
#endif
