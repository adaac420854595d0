/* The default generator: four interleaved xoshiro256++ lanes (see rng.h for the
 * word order). The scalar code here defines the stream; SIMD fills must match it. */
#include <string.h>

#include "internal.h"
#include "prng_internal.h"

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static inline uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

void wsel_prng_seed(wsel_prng *p, uint64_t seed)
{
    if (!p)
        return;
    uint64_t x = seed;
    for (int l = 0; l < 4; l++)
        for (int k = 0; k < 4; k++)
            p->s[k][l] = splitmix64(&x);
    p->pos = 4;
}

/* One step of all four lanes: out[l] = lane l's next output. */
void wsel__prng_block_scalar(uint64_t s[4][4], uint64_t out[4])
{
    for (int l = 0; l < 4; l++) {
        out[l] = rotl(s[0][l] + s[3][l], 23) + s[0][l];
        uint64_t t = s[1][l] << 17;
        s[2][l] ^= s[0][l];
        s[3][l] ^= s[1][l];
        s[1][l] ^= s[2][l];
        s[0][l] ^= s[3][l];
        s[2][l] ^= t;
        s[3][l] = rotl(s[3][l], 45);
    }
}

void wsel__prng_blocks_portable(uint64_t s[4][4], uint64_t *out, size_t blocks)
{
    for (size_t b = 0; b < blocks; b++)
        wsel__prng_block_scalar(s, out + 4 * b);
}

wsel__blocks_fn wsel__prng_blocks_for(wsel__isa isa)
{
#if defined(WSEL__HAVE_AVX2)
    if (isa == WSEL__ISA_AVX2)
        return wsel__prng_blocks_avx2;
#endif
    (void)isa;
    return wsel__prng_blocks_portable;
}

void wsel__prng_blocks(uint64_t s[4][4], uint64_t *out, size_t blocks)
{
    wsel__prng_blocks_for(wsel__isa_selected())(s, out, blocks);
}

uint64_t wsel_prng_next(wsel_prng *p)
{
    if (!p)
        return 0;
    if (p->pos >= 4)
        wsel__prng_refill_portable(p);
    return p->buf[p->pos++];
}

/* wsel_prng_fill() without the argument check: the fill op of wsel_prng_rng(). */
static inline void prng_fill(wsel_prng *p, uint64_t *out, size_t n)
{
    while (n && p->pos < 4) {
        *out++ = p->buf[p->pos++];
        n--;
    }
    size_t blocks = n / 4;
    if (blocks) {
        wsel__prng_blocks(p->s, out, blocks);
        out += blocks * 4;
        n -= blocks * 4;
    }
    if (n) {
        wsel__prng_refill_portable(p);
        while (n--)
            *out++ = p->buf[p->pos++];
    }
}

void wsel_prng_fill(wsel_prng *p, uint64_t *out, size_t n)
{
    if (p && out) /* nothing to fill (n 0) needs no out */
        prng_fill(p, out, n);
}

static void prng_fill_cb(void *ctx, uint64_t *out, size_t n)
{
    prng_fill(ctx, out, n);
}

void wsel__prng_take_portable_fn(wsel_prng *p, uint64_t *w, size_t n)
{
    wsel__prng_take_portable(p, w, n);
}

void wsel__prng_take(void *ctx, uint64_t *w, size_t n)
{
#if defined(WSEL__HAVE_AVX2)
    if (wsel__isa_selected() == WSEL__ISA_AVX2) {
        wsel__prng_take_avx2_fn(ctx, w, n);
        return;
    }
#endif
    wsel__prng_take_portable_fn(ctx, w, n);
}

wsel_rng wsel_prng_rng(wsel_prng *p)
{
    wsel_rng r = { prng_fill_cb, p, wsel__prng_take };
    if (!p)
        r = (wsel_rng){ NULL, NULL, NULL }; /* no source: engines refuse it (WSEL_E_ARG) */
    return r;
}
