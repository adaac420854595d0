/* AVX2 kernel: 8 prefix sums or 4 thresholds per compare. Built with -mavx2 (see the
 * Makefile); selected only when the CPU has AVX2 (core/isa.c). AVX2 has no unsigned
 * compare, hence the biased layout of weighted_fast.h. Compiles to nothing elsewhere. */
#include "weighted_query.h"

#if defined(WSEL__HAVE_AVX2) && defined(__AVX2__)
#include <immintrin.h>

#include "../../core/prng_avx2.h"

/* Bit i set when p[i] > ub, for 8 biased prefix sums. */
static inline unsigned gt_mask8(const uint32_t *p, int32_t ub)
{
    __m256i v = _mm256_loadu_si256((const __m256i *)p);
    return (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(
        _mm256_cmpgt_epi32(v, _mm256_set1_epi32(ub))));
}

static inline uint32_t choose_in_group(const wsel__snap *s, uint32_t g, uint64_t u)
{
    return wsel__choose_in_group8(s, g, u, gt_mask8);
}

/* choose_in_group for a group of at most 8 addresses: one compare, no block summary. */
static inline uint32_t choose_in_group_le8(const wsel__snap *s, uint32_t g, uint64_t u)
{
    return (uint32_t)__builtin_ctz(gt_mask8(s->ipre + s->gfirst[g], wsel__bias_u(u)));
}

static inline uint32_t choose_top(const wsel__snap *s, uint64_t u)
{
    return wsel__choose_top8(s, u, gt_mask8);
}

static inline uint64_t include_mask(const uint64_t *thr, const uint64_t *w, uint32_t n)
{
    if (n < 4)
        return wsel__include_words(thr, w, n);
    uint64_t gt = 0;
    uint32_t i = 0;
    const __m256i bias = _mm256_set1_epi64x((long long)WSEL__BIAS64);
    for (; i + 8 <= n; i += 8) {
        __m256i w0 = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(w + i)), bias);
        __m256i w1 = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(w + i + 4)), bias);
        __m256i g0 = _mm256_cmpgt_epi64(w0, _mm256_loadu_si256((const __m256i *)(thr + i)));
        __m256i g1 = _mm256_cmpgt_epi64(w1, _mm256_loadu_si256((const __m256i *)(thr + i + 4)));
        unsigned b = (unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(g0)) |
                     (unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(g1)) << 4;
        gt |= (uint64_t)b << i;
    }
    /* the tail four at a time: no load reaches past the drawn words' last vector */
    for (; i < n; i += 4) {
        __m256i w0 = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(w + i)), bias);
        __m256i g0 = _mm256_cmpgt_epi64(w0, _mm256_loadu_si256((const __m256i *)(thr + i)));
        gt |= (uint64_t)(unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(g0)) << i;
    }
    return ~gt & wsel__low_bits(n);
}

/* Appends base + the positions of the set bits of byte b at items[c..] (base in every
 * 16-bit lane); returns the new count. Stores 8 indices whatever b holds: the caller
 * keeps c + 8 <= 64. */
static inline uint32_t emit8v(uint16_t *items, uint32_t c, unsigned b, __m128i base)
{
    __m128i pos = _mm_cvtepu8_epi16(_mm_loadl_epi64((const __m128i *)wsel__bit_pos[b]));
    _mm_storeu_si128((__m128i *)(items + c), _mm_add_epi16(pos, base));
    return c + (uint32_t)__builtin_popcount(b);
}

static inline uint32_t emit8(uint16_t *items, uint32_t c, unsigned b, uint32_t base)
{
    return emit8v(items, c, b, _mm_set1_epi16((short)base));
}

/* Appends base + position of every set bit, in order, 8 positions per step. Before byte
 * k at most 8k indices exist, so no store passes items[63]. */
static inline uint32_t emit(uint16_t *items, uint64_t mask, uint32_t base)
{
    uint32_t c = 0;
    for (uint32_t k = 0; mask; k += 8, mask >>= 8)
        c = emit8(items, c, (unsigned)(mask & 0xff), base + k);
    return c;
}

/* floor(w * g / 2^64) for four 64-bit words and four g < 2^32, exactly:
 * w * g = wh * g * 2^32 + wl * g, and wh * g + floor(wl * g / 2^32) < 2^64. */
static inline __m256i mulhi32(__m256i w, __m256i g)
{
    __m256i lo = _mm256_srli_epi64(_mm256_mul_epu32(w, g), 32);
    __m256i hi = _mm256_mul_epu32(_mm256_srli_epi64(w, 32), g);
    return _mm256_srli_epi64(_mm256_add_epi64(hi, lo), 32);
}

/* u_g = floor(w[g] * G_g / 2^64) of 8 groups' words and sums, as 8 biased dwords in
 * group order: the CHOOSE value of each group of a grouped-multi set at once. */
static inline __m256i group_u8(const uint64_t *w, const uint32_t *gsum)
{
    __m256i g4a = _mm256_cvtepu32_epi64(_mm_loadu_si128((const __m128i *)gsum));
    __m256i g4b = _mm256_cvtepu32_epi64(_mm_loadu_si128((const __m128i *)(gsum + 4)));
    __m256i ua = mulhi32(_mm256_loadu_si256((const __m256i *)w), g4a);
    __m256i ub = mulhi32(_mm256_loadu_si256((const __m256i *)(w + 4)), g4b);
    /* low dwords of ua's and ub's lanes -> 8 dwords in group order */
    const __m256i even = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
    __m256i u = _mm256_permute2x128_si256(_mm256_permutevar8x32_epi32(ua, even),
                                          _mm256_permutevar8x32_epi32(ub, even), 0x20);
    return _mm256_xor_si256(u, _mm256_set1_epi32((int)WSEL__BIAS32));
}

/* Stores, from items[c] on, the lanes of idx (flat item indices, one per group) whose bit
 * is set in m, in order; returns the new count. Writes 8 items whatever m holds: the
 * caller keeps c + 8 <= 64. */
static inline uint32_t compact8(uint16_t *items, uint32_t c, __m256i idx, unsigned m)
{
    __m256i perm = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)wsel__bit_pos[m]));
    idx = _mm256_permutevar8x32_epi32(idx, perm);
    __m128i packed = _mm_packus_epi32(_mm256_castsi256_si128(idx), _mm256_extracti128_si256(idx, 1));
    _mm_storeu_si128((__m128i *)(items + c), packed);
    return c + (uint32_t)__builtin_popcount(m);
}

/* Grouped-multi with <= 8 groups of <= 8 addresses: every group's CHOOSE at once (u per
 * group in one lane, compared against tpre row by row: all 8 rows, those past the
 * largest group padded with sums never <= u), then the included groups' picks compacted
 * into place with the bit-position table. */
static inline uint32_t gmulti_small(const wsel__snap *s, const uint64_t *w, unsigned gm,
                                    uint16_t *items)
{
    __m256i u = group_u8(w, s->gsum);
    __m256i idx = _mm256_add_epi32(_mm256_set1_epi32(8),
                                   _mm256_loadu_si256((const __m256i *)s->gfirst));
    const __m256i *row = (const __m256i *)s->tpre;
    __m256i a = _mm256_add_epi32(_mm256_cmpgt_epi32(_mm256_load_si256(row + 0), u),
                                 _mm256_cmpgt_epi32(_mm256_load_si256(row + 1), u));
    __m256i b = _mm256_add_epi32(_mm256_cmpgt_epi32(_mm256_load_si256(row + 2), u),
                                 _mm256_cmpgt_epi32(_mm256_load_si256(row + 3), u));
    a = _mm256_add_epi32(a, _mm256_add_epi32(_mm256_cmpgt_epi32(_mm256_load_si256(row + 4), u),
                                             _mm256_cmpgt_epi32(_mm256_load_si256(row + 5), u)));
    b = _mm256_add_epi32(b, _mm256_add_epi32(_mm256_cmpgt_epi32(_mm256_load_si256(row + 6), u),
                                             _mm256_cmpgt_epi32(_mm256_load_si256(row + 7), u)));
    return compact8(items, 0, _mm256_add_epi32(idx, _mm256_add_epi32(a, b)), gm & 0xff);
}

/* One halving of the 8 groups' binary searches: q is the spre index of the last sum
 * known <= u (the group's row start - 1 at the start), step the halving's width in every
 * lane; a probe never leaves the group's row (its padding is never <= u). One gather
 * for the 8 groups. */
static inline __m256i search_step8(const uint32_t *spre, __m256i q, __m256i u, __m256i step)
{
    __m256i v = _mm256_i32gather_epi32((const int *)spre, _mm256_add_epi32(q, step), 4);
    return _mm256_add_epi32(q, _mm256_andnot_si256(_mm256_cmpgt_epi32(v, u), step));
}

/* Grouped-multi, any other set of 3 or more groups: 8 groups at a time, each group's
 * CHOOSE a branch-free binary search over its row of spre (steps gstep .. 1, one gather
 * for all 8 per step), blocks with no included group skipped. Lanes past the last group
 * search rows of padding and are never stored. */
static inline uint32_t gmulti_blocks(const wsel__snap *s, const uint64_t *w, uint64_t gm,
                                     uint16_t *items)
{
    const __m256i top = _mm256_set1_epi32((int)s->gstep);
    const unsigned h = s->gshift; /* <= 6 */
    /* each lane's row start - 1 within a block of 8 groups, and a block's rows */
    const __m256i lane = _mm256_sub_epi32(
        _mm256_sll_epi32(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), _mm_cvtsi32_si128((int)h)),
        _mm256_set1_epi32(1));
    uint32_t c = 0;
    for (uint32_t b = 0; gm; b += 8, gm >>= 8) {
        unsigned m = (unsigned)(gm & 0xff);
        if (!m)
            continue;
        __m256i u = group_u8(w + b, s->gsum + b);
        __m256i q0 = _mm256_add_epi32(lane, _mm256_set1_epi32((int)(b << h)));
        __m256i q = q0, step = top;
        /* halvings counted down from h (gstep = 2^(h-1)), each then halving step */
        switch (h) {
        case 6: q = search_step8(s->spre, q, u, step); step = _mm256_srli_epi32(step, 1);
        /* fall through */
        case 5: q = search_step8(s->spre, q, u, step); step = _mm256_srli_epi32(step, 1);
        /* fall through */
        case 4: q = search_step8(s->spre, q, u, step); step = _mm256_srli_epi32(step, 1);
        /* fall through */
        case 3: q = search_step8(s->spre, q, u, step); step = _mm256_srli_epi32(step, 1);
        /* fall through */
        case 2: q = search_step8(s->spre, q, u, step); step = _mm256_srli_epi32(step, 1);
        /* fall through */
        case 1: q = search_step8(s->spre, q, u, step);
        /* fall through */
        default: break;
        }
        /* the index within the row, plus the group's first item */
        __m256i first = _mm256_loadu_si256((const __m256i *)(s->gfirst + b));
        c = compact8(items, c, _mm256_add_epi32(_mm256_sub_epi32(q, q0), first), m);
    }
    return c;
}

/* Grouped-multi's second layer: one pass over all groups when they are small (3..8
 * groups of <= 8: one compare per address position for all groups), 8 groups at a time
 * by binary search from 3 groups on otherwise; for 1 or 2 groups, one group at a time
 * (the 8-lane paths' longer dependency chains cost more there: 2x2 18 against 14 ns). */
static inline uint32_t pick(const wsel__snap *s, const uint64_t *w, uint64_t gm,
                            uint16_t *items)
{
    if (s->small)
        return gmulti_small(s, w, (unsigned)gm, items);
    if (s->n >= 3)
        return gmulti_blocks(s, w, gm, items);
    if (s->gmax <= 8)
        return wsel__pick_each(s, w, gm, items, choose_in_group_le8);
    return wsel__pick_each(s, w, gm, items, choose_in_group);
}

static WSEL__ALWAYS_INLINE void kernel(const wsel__snap *s, const uint64_t *w,
                                       wsel_set_answer *out)
{
    wsel__kernel_with(s, w, out, choose_top, include_mask, emit, pick);
}


static inline bool fusable(const wsel__snap *s)
{
    return s->mode == WSEL_MODE_UNGROUPED_MULTI && s->n >= 8;
}

/* Bit i set when word i of one block of four is above its threshold (not included). */
static inline unsigned gt4(__m256i o, const uint64_t *thr)
{
    const __m256i bias = _mm256_set1_epi64x((long long)WSEL__BIAS64);
    __m256i gt = _mm256_cmpgt_epi64(_mm256_xor_si256(o, bias),
                                    _mm256_loadu_si256((const __m256i *)thr));
    return (unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(gt));
}

/* Ungrouped-multi drawing from the default generator: each block of four words is
 * compared with its thresholds as it is generated, instead of being stored and read
 * back, and every 8 words' include bits are expanded into indices as soon as they are
 * known, so that work overlaps the generator's serial chain instead of following it.
 * The words consumed and the generator's state afterwards are exactly those of
 * wsel_prng_fill(): first the h (< 4) words its buffer still holds, then whole blocks,
 * and a last partial block whose unused words stay in the buffer. acc holds the include
 * bits of words done.. (word `done` at bit 0); while whole pairs of blocks remain, it
 * holds exactly h bits between pairs. Returns the answer's count. */
static WSEL__ALWAYS_INLINE uint32_t multi_fused(wsel_prng *p, const wsel__snap *s,
                                                uint16_t *items)
{
    const uint32_t n = s->n;
    const uint64_t nz = s->nz; /* no bit at or past n: masks the last block's extra words */
    wsel__prng4 g;
    const uint64_t *head;
    const uint32_t h = wsel__prng4_begin(&g, p, &head); /* n >= 8 > h */
    uint64_t acc = wsel__include_words(s->thr, head, h), nzd = nz; /* nzd = nz >> done */
    uint32_t i = h, done = 0, c = 0;
    __m128i base = _mm_setzero_si128(); /* done, in every lane */
    for (; i + 8 <= n; i += 8, done += 8) {
        __m256i o0 = wsel__prng4_next(&g);
        __m256i o1 = wsel__prng4_next(&g);
        unsigned gt = gt4(o0, s->thr + i) | gt4(o1, s->thr + i + 4) << 4;
        acc |= (uint64_t)(~gt & 0xffu) << h;
        c = emit8v(items, c, (unsigned)(acc & nzd & 0xff), base);
        acc >>= 8;
        nzd >>= 8;
        base = _mm_add_epi16(base, _mm_set1_epi16(8));
    }
    /* fewer than 8 words left: at most two blocks, the last one maybe partly kept */
    for (; i < n; i += 4) {
        __m256i o = wsel__prng4_next(&g);
        if (n - i < 4)
            wsel__prng4_keep(&g, o, n - i);
        acc |= (uint64_t)(~gt4(o, s->thr + i) & 0xfu) << (i - done); /* i - done < 8 */
    }
    wsel__prng4_end(&g);
    /* acc: the bits of words done .. n-1, fewer than 11; done <= 56 before each */
    for (; done < n; done += 8, acc >>= 8)
        c = emit8(items, c, (unsigned)(acc & (nz >> done) & 0xff), done);
    return c;
}

/* Every query but the short path's (weighted_query.h). Ungrouped-multi sets of 8 or more
 * items (both of a dual-family resource) take the fused path in turn: filling n0 words
 * and then n1 is filling n0 + n1. */
static WSEL__NOINLINE int answer(const wsel__rsnap *rs, wsel_rng *rng, wsel_answer *ans)
{
    const wsel__snap *s0 = &rs->set[0];
    wsel_prng *p = wsel__prng_of(rng);
    if (p && fusable(s0) && (rs->n_sets == 1 || fusable(&rs->set[1]))) {
        wsel__answer_head(rs, ans);
        ans->set[0].count = (uint8_t)multi_fused(p, s0, ans->set[0].items);
        if (rs->n_sets == 2)
            ans->set[1].count = (uint8_t)multi_fused(p, &rs->set[1], ans->set[1].items);
        return WSEL_OK;
    }
    return wsel__answer_with(rs, rng, ans, kernel, wsel__prng_take_avx2);
}

int wsel__query_avx2(const wsel_resolver *r, const wsel_resource *res, wsel_rng *rng,
                     wsel_answer *ans)
{
    /* the AVX2 refill is inline code, no call: the short path keeps it */
    return wsel__query_with(r, res, rng, ans, choose_top, wsel__prng_refill_avx2, NULL, answer);
}

#else
/* ISO C forbids an empty translation unit. */
typedef int wsel__kernel_avx2_unused;
#endif
