/* The default generator in AVX2 registers: one step of its four lanes (s_k = state word
 * k of lanes 0..3) returns the block's four output words in stream order. The bulk fill
 * (core/prng_avx2.c), the AVX2 take and the block-by-block take below are all built on
 * it, so the stream and the fill semantics (buffered words first, unused words of the
 * last block kept) are written once for SIMD code. Include only from files built with
 * -mavx2. */
#ifndef WSEL_PRNG_AVX2_H
#define WSEL_PRNG_AVX2_H

#include <immintrin.h>

#include "prng_internal.h"

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

/* w = the k (< 4) buffered words of prev followed by the first 4 - k words of cur. */
static inline __m256i wsel__prng_join(__m256i prev, __m256i cur, unsigned k)
{
    __m256i t = _mm256_permute2x128_si256(prev, cur, 0x21); /* p2 p3 c0 c1 */
    switch (k) {
    case 1: return _mm256_alignr_epi8(cur, t, 8);           /* p3 c0 c1 c2 */
    case 2: return t;
    case 3: return _mm256_alignr_epi8(t, prev, 8);          /* p1 p2 p3 c0 */
    default: return cur;
    }
}

/* wsel__prng_refill_portable() with the lanes in registers: the next block into the
 * emptied buffer, pos 0. */
static inline void wsel__prng_refill_avx2(wsel_prng *p)
{
    __m256i s0 = _mm256_loadu_si256((const __m256i *)p->s[0]);
    __m256i s1 = _mm256_loadu_si256((const __m256i *)p->s[1]);
    __m256i s2 = _mm256_loadu_si256((const __m256i *)p->s[2]);
    __m256i s3 = _mm256_loadu_si256((const __m256i *)p->s[3]);
    _mm256_storeu_si256((__m256i *)p->buf, wsel__xoshiro4_step(&s0, &s1, &s2, &s3));
    _mm256_storeu_si256((__m256i *)p->s[0], s0);
    _mm256_storeu_si256((__m256i *)p->s[1], s1);
    _mm256_storeu_si256((__m256i *)p->s[2], s2);
    _mm256_storeu_si256((__m256i *)p->s[3], s3);
    p->pos = 0;
}

/* The AVX2 take's loop for k (0..3, a constant where it is inlined) words still in the
 * buffer, at least one word more than k wanted. */
static inline __attribute__((always_inline)) void
wsel__prng_take_avx2_k(wsel_prng *p, uint64_t *w, size_t n, unsigned k)
{
    __m256i s0 = _mm256_loadu_si256((const __m256i *)p->s[0]);
    __m256i s1 = _mm256_loadu_si256((const __m256i *)p->s[1]);
    __m256i s2 = _mm256_loadu_si256((const __m256i *)p->s[2]);
    __m256i s3 = _mm256_loadu_si256((const __m256i *)p->s[3]);
    __m256i prev = _mm256_loadu_si256((const __m256i *)p->buf);
    size_t i = 0, blocks = 0;
    for (; i < n; i += 4) {
        if (n - i <= k) {
            /* the last words all come from the previous block's tail */
            _mm256_storeu_si256((__m256i *)(w + i), wsel__prng_join(prev, prev, k));
            break;
        }
        __m256i cur = wsel__xoshiro4_step(&s0, &s1, &s2, &s3);
        _mm256_storeu_si256((__m256i *)(w + i), wsel__prng_join(prev, cur, k));
        prev = cur;
        blocks++;
    }
    size_t end = (n + 3) / 4 * 4;
    _mm256_storeu_si256((__m256i *)(w + end), _mm256_setzero_si256());
    _mm256_storeu_si256((__m256i *)(w + end + 4), _mm256_setzero_si256());
    _mm256_storeu_si256((__m256i *)p->buf, prev);
    p->pos = (unsigned)(4 - (k + 4 * blocks - n));
    _mm256_storeu_si256((__m256i *)p->s[0], s0);
    _mm256_storeu_si256((__m256i *)p->s[1], s1);
    _mm256_storeu_si256((__m256i *)p->s[2], s2);
    _mm256_storeu_si256((__m256i *)p->s[3], s3);
}

/* The AVX2 take: the words written to w as whole vectors aligned to w[0], so that vector
 * loads of them forward from the stores (a 32-byte load of four separately stored words
 * waits for all four to reach the cache); the k words still in the buffer are joined to
 * the head of each new block across registers, by a loop made for that k. Up to 3 words
 * past n, then WSEL__TAKE_PAD zero words, on the same 32-byte grid. Consumes words and
 * leaves the state exactly as wsel_prng_fill() does. */
static inline void wsel__prng_take_avx2(wsel_prng *p, uint64_t *w, size_t n)
{
    unsigned k = p->pos < 4 ? 4u - p->pos : 0u;
    if (n <= k) {
        for (size_t i = 0; i < n; i++)
            w[i] = p->buf[p->pos++];
        memset(w + n, 0, WSEL__TAKE_PAD * sizeof w[0]);
        return;
    }
    switch (k) {
    case 0: wsel__prng_take_avx2_k(p, w, n, 0); return;
    case 1: wsel__prng_take_avx2_k(p, w, n, 1); return;
    case 2: wsel__prng_take_avx2_k(p, w, n, 2); return;
    default: wsel__prng_take_avx2_k(p, w, n, 3); return;
    }
}

/* Taking words block by block, for code that uses each block of four in registers as the
 * lanes produce it (the fast engine's fused compare). The protocol keeps
 * wsel_prng_fill()'s semantics: begin (the words still buffered come first), next for
 * each block, keep for a last block whose tail is not used, end. */
typedef struct wsel__prng4 {
    __m256i s0, s1, s2, s3;
    wsel_prng *p;
} wsel__prng4;

/* Loads the lanes; *head = the k (< 4) words still in the buffer, now taken. Returns k.
 * Read them before wsel__prng4_keep(), which reuses the buffer. */
static inline unsigned wsel__prng4_begin(wsel__prng4 *g, wsel_prng *p, const uint64_t **head)
{
    unsigned k = p->pos < 4 ? 4u - p->pos : 0u;
    *head = p->buf + 4 - k;
    p->pos = 4;
    g->p = p;
    g->s0 = _mm256_loadu_si256((const __m256i *)p->s[0]);
    g->s1 = _mm256_loadu_si256((const __m256i *)p->s[1]);
    g->s2 = _mm256_loadu_si256((const __m256i *)p->s[2]);
    g->s3 = _mm256_loadu_si256((const __m256i *)p->s[3]);
    return k;
}

/* The next block of four words. */
static inline __m256i wsel__prng4_next(wsel__prng4 *g)
{
    return wsel__xoshiro4_step(&g->s0, &g->s1, &g->s2, &g->s3);
}

/* Of the last block, only the first `used` (1..3) words were taken: the rest stay
 * buffered for the next take. */
static inline void wsel__prng4_keep(wsel__prng4 *g, __m256i block, unsigned used)
{
    _mm256_storeu_si256((__m256i *)g->p->buf, block);
    g->p->pos = used;
}

/* Stores the lanes back. */
static inline void wsel__prng4_end(wsel__prng4 *g)
{
    _mm256_storeu_si256((__m256i *)g->p->s[0], g->s0);
    _mm256_storeu_si256((__m256i *)g->p->s[1], g->s1);
    _mm256_storeu_si256((__m256i *)g->p->s[2], g->s2);
    _mm256_storeu_si256((__m256i *)g->p->s[3], g->s3);
}

#endif
