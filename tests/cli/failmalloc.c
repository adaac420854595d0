/* Out-of-memory injection for the CLI tests (t_hardening.sh), loaded with LD_PRELOAD
 * into bin/wsel (glibc only). With WSEL_FAILMALLOC=N the first N allocations succeed and
 * every later one fails, as when memory is really exhausted; WSEL_FAILMALLOC_COUNT=FILE
 * writes the number of allocations made to FILE at exit, so a test knows how many
 * failure points a command has. Built by the test itself, never linked into anything. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

static long budget = -2; /* -2: not read yet; -1: never fail */
static long made;

static int refuse(void)
{
    if (budget == -2) {
        const char *s = getenv("WSEL_FAILMALLOC");
        budget = s ? strtol(s, NULL, 10) : -1;
    }
    if (budget == -1) {
        made++;
        return 0;
    }
    if (made >= budget) {
        errno = ENOMEM; /* as the real allocator does */
        return 1;
    }
    made++;
    return 0;
}

void *malloc(size_t n)
{
    return refuse() ? NULL : __libc_malloc(n);
}

void *calloc(size_t n, size_t m)
{
    return refuse() ? NULL : __libc_calloc(n, m);
}

void *realloc(void *p, size_t n)
{
    if (p && n == 0)
        return __libc_realloc(p, n); /* a free, never refused */
    return refuse() ? NULL : __libc_realloc(p, n);
}

void *aligned_alloc(size_t a, size_t n)
{
    return refuse() ? NULL : __libc_memalign(a, n);
}

int posix_memalign(void **out, size_t a, size_t n)
{
    void *p = refuse() ? NULL : __libc_memalign(a, n);
    if (!p)
        return 12; /* ENOMEM */
    *out = p;
    return 0;
}

__attribute__((destructor)) static void report(void)
{
    const char *path = getenv("WSEL_FAILMALLOC_COUNT");
    if (!path)
        return;
    long n = made;
    budget = -1; /* fopen below must not fail */
    FILE *f = fopen(path, "w");
    if (f) {
        fprintf(f, "%ld\n", n);
        fclose(f);
    }
}
