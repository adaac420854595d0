/* Shared pieces of the fuzz targets: always-on assertions and a data producer.
 *
 * Assertions must hold in every build (release builds define NDEBUG, which would
 * silence assert()), and must say what broke, since a crash report is often all a
 * reader gets. */
#ifndef WSEL_FUZZ_H
#define WSEL_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/kit.h"

#if defined(__GNUC__)
#define FUZZ_NORETURN __attribute__((noreturn))
#define FUZZ_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define FUZZ_NORETURN
#define FUZZ_PRINTF(a, b)
#endif

FUZZ_NORETURN void fuzz_fail(const char *file, int line, const char *cond,
                             const char *fmt, ...) FUZZ_PRINTF(4, 5);

#define FUZZ_ASSERT_MSG(c, ...) \
    do { if (!(c)) fuzz_fail(__FILE__, __LINE__, #c, __VA_ARGS__); } while (0)
#define FUZZ_ASSERT(c) FUZZ_ASSERT_MSG(c, "%s", "")

/* Reads parameters from the front of the input. When the input runs out every read
 * returns 0, so short inputs still describe a valid (small) case: the fuzzer needs no
 * magic length to reach the interesting code. */
typedef struct fuzz_producer {
    const uint8_t *p;
    size_t left;
} fuzz_producer;

static inline fuzz_producer fuzz_producer_make(const uint8_t *data, size_t size)
{
    fuzz_producer fp = { data, size };
    return fp;
}

static inline uint64_t fuzz_bits(fuzz_producer *fp, unsigned nbytes)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < nbytes; i++) {
        v <<= 8;
        if (fp->left) {
            v |= *fp->p++;
            fp->left--;
        }
    }
    return v;
}

/* A value in [lo, hi], spending as few bytes as the range needs. */
static inline uint64_t fuzz_range(fuzz_producer *fp, uint64_t lo, uint64_t hi)
{
    uint64_t span = hi - lo;
    if (span == 0)
        return lo;
    unsigned nbytes = 0;
    for (uint64_t s = span; s; s >>= 8)
        nbytes++;
    uint64_t v = fuzz_bits(fp, nbytes);
    if (span != UINT64_MAX)
        v %= span + 1;
    return lo + v;
}

static inline int fuzz_bool(fuzz_producer *fp)
{
    return (int)(fuzz_bits(fp, 1) & 1);
}

/* A growing text buffer (config text written by the targets): the kit's, with running
 * out of memory a failure. */
typedef wsel_kit_sbuf sbuf;

void sb_printf(sbuf *b, const char *fmt, ...) FUZZ_PRINTF(2, 3);

/* The entry point every target defines (libFuzzer's name, so the same object links
 * against libFuzzer, AFL++'s driver, or fuzz/replay_main.c). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
