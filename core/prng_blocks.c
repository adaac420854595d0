/* Bulk generation for wsel_prng_fill, dispatched once per process: the AVX2 version
 * (core/prng_avx2.c) when the CPU has it, else the portable one. Both produce the stream
 * wsel__prng_block_scalar defines; tests compare them word for word. */
#include <stdatomic.h>

#include "prng_internal.h"

void wsel__prng_blocks_portable(uint64_t s[4][4], uint64_t *out, size_t blocks)
{
    for (size_t b = 0; b < blocks; b++)
        wsel__prng_block_scalar(s, out + 4 * b);
}

typedef void (*blocks_fn)(uint64_t s[4][4], uint64_t *out, size_t blocks);

static blocks_fn pick(void)
{
#if defined(WSEL__PRNG_HAVE_AVX2)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2"))
        return wsel__prng_blocks_avx2;
#endif
    return wsel__prng_blocks_portable;
}

/* Only a code address is published, no data, so relaxed ordering suffices; racing first
 * callers pick the same function. */
static _Atomic(blocks_fn) chosen;

void wsel__prng_blocks(uint64_t s[4][4], uint64_t *out, size_t blocks)
{
    blocks_fn f = atomic_load_explicit(&chosen, memory_order_relaxed);
    if (!f) {
        f = pick();
        atomic_store_explicit(&chosen, f, memory_order_relaxed);
    }
    f(s, out, blocks);
}
