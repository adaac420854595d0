/* Allocation-failure injection for the out-of-memory tests (glibc only): malloc,
 * calloc, realloc, aligned_alloc and free are replaced for the whole test program.
 * arm(n) lets n more allocations succeed and fails the next one; disarm() stops and
 * says whether that failure happened; `live` counts the blocks allocated, so a call that
 * fails can be held to leave it where it found it. Under a sanitizer or another C
 * library NOMEM_SKIP is defined and nothing is replaced (the tests then skip).
 * Include it from exactly one file of a test program. */
#ifndef WSEL_TEST_NOMEM_H
#define WSEL_TEST_NOMEM_H

#include <stddef.h>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define NOMEM_SKIP 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer) || \
    __has_feature(thread_sanitizer) || __has_feature(leak_sanitizer)
#define NOMEM_SKIP 1
#endif
#endif
#if !defined(__GLIBC__)
#define NOMEM_SKIP 1
#endif

#ifndef NOMEM_SKIP
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

/* -1: never fail. n >= 0: let n more allocations succeed, fail the next one. */
static long countdown = -1;
static int hit;

static inline int fail_now(void)
{
    if (countdown < 0)
        return 0;
    if (countdown == 0) {
        countdown = -1;
        hit = 1;
        return 1;
    }
    countdown--;
    return 0;
}

/* Blocks currently allocated: a call that fails must leave this where it found it. */
static long live;

static inline void *counted(void *p)
{
    if (p)
        live++;
    return p;
}

void *malloc(size_t n)
{
    return fail_now() ? NULL : counted(__libc_malloc(n));
}

void *calloc(size_t n, size_t m)
{
    return fail_now() ? NULL : counted(__libc_calloc(n, m));
}

void *realloc(void *p, size_t n)
{
    if (!p)
        return malloc(n);
    if (n == 0) {
        live--;
        return __libc_realloc(p, 0);
    }
    return fail_now() ? NULL : __libc_realloc(p, n);
}

void *aligned_alloc(size_t align, size_t n)
{
    return fail_now() ? NULL : counted(__libc_memalign(align, n));
}

void free(void *p)
{
    if (p)
        live--;
    __libc_free(p);
}

static inline void arm(long n)
{
    hit = 0;
    countdown = n;
}

static inline int disarm(void)
{
    countdown = -1;
    return hit;
}

/* Counting without failing: count_begin(), the calls, then count_end() gives how many
 * allocations they made (none of them refused). */
#define NOMEM_COUNT_FROM (1L << 40)
static inline void count_begin(void)
{
    arm(NOMEM_COUNT_FROM);
}

static inline long count_end(void)
{
    long made = NOMEM_COUNT_FROM - countdown;
    disarm();
    return made;
}

/* False when malloc is not ours (valgrind replaces it wherever it is defined): no
 * failure injection then, and a test should skip. */
static inline int nomem_injection_works(void)
{
    void *(*volatile m)(size_t) = malloc;
    arm(0);
    void *p = m(16);
    disarm();
    free(p);
    return p == NULL;
}

#endif /* NOMEM_SKIP */

/* The main() of a program whose tests all need failure injection: one skipped TAP
 * result where it cannot work (a sanitizer's or valgrind's allocator), else the cmocka
 * tests given (cmocka_unit_test(...), ...) under `name`. */
#define NOMEM_SKIP_LINE(name, why) printf("1..1\nok 1 - %s # SKIP %s\n", name, why)
#ifdef NOMEM_SKIP
#define NOMEM_MAIN(name, ...)                                                            \
    int main(void)                                                                       \
    {                                                                                    \
        NOMEM_SKIP_LINE(name, "allocator owned by a sanitizer or not glibc");            \
        return 0;                                                                        \
    }
#else
#define NOMEM_MAIN(name, ...)                                                            \
    int main(void)                                                                       \
    {                                                                                    \
        if (!nomem_injection_works()) {                                                  \
            NOMEM_SKIP_LINE(name, "malloc is replaced (valgrind?); no failure injection"); \
            return 0;                                                                    \
        }                                                                                \
        const struct CMUnitTest tests[] = {__VA_ARGS__};                                 \
        cmocka_set_message_output(CM_OUTPUT_TAP);                                        \
        return cmocka_run_group_tests_name(name, tests, NULL, NULL);                     \
    }
#endif

#endif
