/* SSE2 kernel: 4 prefix sums or 2 thresholds per compare. SSE2 has no 64-bit compare, so
 * a 64-bit "greater" is assembled from 32-bit ones: high halves signed (the layout is
 * biased), low halves unsigned. Built with -msse2; compiles to nothing off x86-64. */
#include "weighted_query.h"

#if defined(WSEL__HAVE_SSE2) && defined(__SSE2__)
#include <emmintrin.h>

/* Bit i set when p[i] > ub, for 8 biased prefix sums. */
static inline unsigned gt8(const uint32_t *p, int32_t ub)
{
    __m128i u = _mm_set1_epi32(ub);
    __m128i v0 = _mm_loadu_si128((const __m128i *)p);
    __m128i v1 = _mm_loadu_si128((const __m128i *)(p + 4));
    return (unsigned)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpgt_epi32(v0, u))) |
           (unsigned)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpgt_epi32(v1, u))) << 4;
}

static inline uint32_t choose_top(const wsel__snap *s, uint64_t u)
{
    return wsel__choose_top8(s, u, gt8);
}

/* Signed 64-bit a > b per lane; lobias flips the low halves' sign bits so the 32-bit
 * signed compare orders them as unsigned. */
static inline unsigned gt64(__m128i a, __m128i b, __m128i lobias)
{
    a = _mm_xor_si128(a, lobias);
    b = _mm_xor_si128(b, lobias);
    __m128i gt = _mm_cmpgt_epi32(a, b);
    __m128i eq = _mm_cmpeq_epi32(a, b);
    __m128i hi_gt = _mm_shuffle_epi32(gt, _MM_SHUFFLE(3, 3, 1, 1));
    __m128i hi_eq = _mm_shuffle_epi32(eq, _MM_SHUFFLE(3, 3, 1, 1));
    __m128i lo_gt = _mm_shuffle_epi32(gt, _MM_SHUFFLE(2, 2, 0, 0));
    __m128i r = _mm_or_si128(hi_gt, _mm_and_si128(hi_eq, lo_gt));
    return (unsigned)_mm_movemask_pd(_mm_castsi128_pd(r));
}

static inline uint64_t include_mask(const uint64_t *thr, const uint64_t *w, uint32_t n)
{
    /* Words get the 64-bit bias in their high half; thresholds are stored biased. */
    const __m128i wbias = _mm_set_epi32((int)WSEL__BIAS32, 0, (int)WSEL__BIAS32, 0);
    const __m128i lobias = _mm_set_epi32(0, (int)WSEL__BIAS32, 0, (int)WSEL__BIAS32);
    if (n < 4)
        return wsel__include_words(thr, w, n);
    uint64_t gt = 0;
    for (uint32_t i = 0; i < n; i += 4) {
        __m128i w0 = _mm_xor_si128(_mm_loadu_si128((const __m128i *)(w + i)), wbias);
        __m128i w1 = _mm_xor_si128(_mm_loadu_si128((const __m128i *)(w + i + 2)), wbias);
        unsigned b = gt64(w0, _mm_loadu_si128((const __m128i *)(thr + i)), lobias) |
                     gt64(w1, _mm_loadu_si128((const __m128i *)(thr + i + 2)), lobias) << 2;
        gt |= (uint64_t)b << i;
    }
    return ~gt & wsel__low_bits(n);
}

static inline uint32_t emit(uint16_t *items, uint64_t mask, uint32_t base)
{
    const __m128i zero = _mm_setzero_si128();
    uint32_t c = 0;
    for (uint32_t k = 0; mask; k += 8, mask >>= 8) {
        unsigned b = (unsigned)(mask & 0xff);
        __m128i pos = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)wsel__bit_pos[b]), zero);
        pos = _mm_add_epi16(pos, _mm_set1_epi16((short)(base + k)));
        _mm_storeu_si128((__m128i *)(items + c), pos);
        c += (uint32_t)__builtin_popcount(b);
    }
    return c;
}

/* Grouped-multi's second layer: each included group's binary search in its row of
 * spre (weighted_query.h): fewer instructions than two 8-wide compares per group. */
static inline uint32_t pick(const wsel__snap *s, const uint64_t *w, uint64_t gm,
                            uint16_t *items)
{
    return wsel__pick_rows(s, w, gm, items);
}

WSEL__GROUPWISE_VARIANT(wsel__query_sse2, choose_top, include_mask, emit, pick,
                        wsel__prng_take_portable, wsel__prng_refill_portable)

#else
typedef int wsel__kernel_sse2_unused;
#endif
