/* One step of the default generator's four lanes in AVX2 registers (s_k = state word k
 * of lanes 0..3), returning the block's four output words in stream order. Shared by the
 * bulk fill (core/prng_avx2.c) and the fast engine's fused draw-and-compare path, so the
 * stream is defined once for SIMD code. Include only from files built with -mavx2. */
#ifndef WSEL_PRNG_AVX2_H
#define WSEL_PRNG_AVX2_H

#include <immintrin.h>

static inline __m256i wsel__rotl_avx2(__m256i x, int k)
{
    return _mm256_or_si256(_mm256_slli_epi64(x, k), _mm256_srli_epi64(x, 64 - k));
}

static inline __m256i wsel__xoshiro4_step(__m256i *s0, __m256i *s1, __m256i *s2, __m256i *s3)
{
    __m256i o = _mm256_add_epi64(wsel__rotl_avx2(_mm256_add_epi64(*s0, *s3), 23), *s0);
    __m256i t = _mm256_slli_epi64(*s1, 17);
    *s2 = _mm256_xor_si256(*s2, *s0);
    *s3 = _mm256_xor_si256(*s3, *s1);
    *s1 = _mm256_xor_si256(*s1, *s2);
    *s0 = _mm256_xor_si256(*s0, *s3);
    *s2 = _mm256_xor_si256(*s2, t);
    *s3 = wsel__rotl_avx2(*s3, 45);
    return o;
}

#endif
