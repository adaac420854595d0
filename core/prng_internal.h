/* Internal interface of the default generator: its bulk fills and the ways engines take
 * its words ("take": the next n words of the stream, in the layout vector code reads
 * fastest). Everything that knows the generator's state -- buffer, position, lanes --
 * is here or in core/prng*.c; engines only call these. */
#ifndef WSEL_PRNG_INTERNAL_H
#define WSEL_PRNG_INTERNAL_H

#include <string.h>

#include "wsel.h"
#include "isa.h"

/* Advance all four lanes one step; out[l] = output of lane l. Defines the stream. */
void wsel__prng_block_scalar(uint64_t s[4][4], uint64_t out[4]);
/* `blocks` consecutive steps, writing 4 * blocks words, with the bulk fill of the
 * instruction-set level in use (wsel__isa_selected(): SIMD unless forced otherwise). */
void wsel__prng_blocks(uint64_t s[4][4], uint64_t *out, size_t blocks);
/* The bulk fills, one per level that has its own (AVX2 exists where WSEL__HAVE_AVX2
 * says so and may only run when the CPU has AVX2), and the one a level uses. */
void wsel__prng_blocks_portable(uint64_t s[4][4], uint64_t *out, size_t blocks);
void wsel__prng_blocks_avx2(uint64_t s[4][4], uint64_t *out, size_t blocks);
typedef void (*wsel__blocks_fn)(uint64_t s[4][4], uint64_t *out, size_t blocks);
wsel__blocks_fn wsel__prng_blocks_for(wsel__isa isa);

/* The default generator's `take` op (wsel_rng.take of wsel_prng_rng()): the take of the
 * level in use. */
void wsel__prng_take(void *ctx, uint64_t *w, size_t n);
/* The takes: the portable one and the AVX2 one (WSEL__HAVE_AVX2). */
void wsel__prng_take_portable_fn(wsel_prng *p, uint64_t *w, size_t n);
void wsel__prng_take_avx2_fn(wsel_prng *p, uint64_t *w, size_t n);

/* The generator behind rng when it is the default one, else NULL: lets an engine use
 * the inline takes below instead of a call through rng->take. */
static inline wsel_prng *wsel__prng_of(const wsel_rng *rng)
{
    return rng->take == wsel__prng_take ? (wsel_prng *)rng->ctx : NULL;
}

/* Words past a take's last one that vector code may load: defined (their lanes are
 * masked off, but sanitizers and valgrind look). */
#define WSEL__TAKE_PAD 8u

/* The generic take, for any source: its own take op, else fill and zero padding. */
static inline void wsel__rng_take(wsel_rng *rng, uint64_t *w, size_t n)
{
    if (rng->take) {
        rng->take(rng->ctx, w, n);
        return;
    }
    rng->fill(rng->ctx, w, n);
    memset(w + n, 0, WSEL__TAKE_PAD * sizeof w[0]);
}

/* Refills the emptied buffer with the stream's next block (pos 0): the scalar
 * definition's step. */
static inline void wsel__prng_refill_portable(wsel_prng *p)
{
    wsel__prng_block_scalar(p->s, p->buf);
    p->pos = 0;
}

/* The portable take: short takes come straight out of the buffer (refilled by one
 * scalar block), longer ones through the bulk fill; then WSEL__TAKE_PAD zero words. */
static inline void wsel__prng_take_portable(wsel_prng *p, uint64_t *w, size_t n)
{
    memset(w + n, 0, WSEL__TAKE_PAD * sizeof w[0]);
    if (n > 4) {
        wsel_prng_fill(p, w, n);
        return;
    }
    size_t i = 0;
    for (; i < n && p->pos < 4; i++)
        w[i] = p->buf[p->pos++];
    if (i < n) {
        wsel__prng_refill_portable(p);
        for (; i < n; i++)
            w[i] = p->buf[p->pos++];
    }
}

#endif
