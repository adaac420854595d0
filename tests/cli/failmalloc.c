/* Out-of-memory injection for the CLI tests (t_hardening.sh), loaded with LD_PRELOAD
 * into bin/wsel (glibc only). With WSEL_FAILMALLOC=N the first N allocations succeed and
 * every later one fails, as when memory is really exhausted (with WSEL_FAILMALLOC_ONCE set
 * as well, only the next one fails and later ones succeed again: a passing shortage, which
 * a caller that gives up must report rather than go on); WSEL_FAILMALLOC_COUNT=FILE
 * writes the number of allocations made to FILE at exit, so a test knows how many
 * failure points a command has. Built by the test itself, never linked into anything.
 *
 * The fault covers the program's run, up to the return from main; once main has returned,
 * allocations are granted again and no longer counted. What runs then is not wsel's: in a
 * COVERAGE=1 build the gcov runtime writes its .gcda files from a destructor of the
 * executable and does not check its own malloc, so refusing it turned every sweep run into
 * a crash (exit 139) after wsel had already exited 3 with its message. main is reached
 * through __libc_start_main, which the executable calls through the PLT, so it is wrapped
 * here (the whole sweep needs glibc anyway). */
#define _GNU_SOURCE
#include <dlfcn.h>
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
static int once;       /* refuse the (N+1)th allocation alone, grant the later ones */
static int after_main; /* main has returned: grant every allocation, count none */

static int refuse(void)
{
    if (after_main)
        return 0;
    if (budget == -2) {
        const char *s = getenv("WSEL_FAILMALLOC");
        budget = s ? strtol(s, NULL, 10) : -1;
        once = getenv("WSEL_FAILMALLOC_ONCE") != NULL;
    }
    if (budget == -1) {
        made++;
        return 0;
    }
    if (made >= budget && (!once || made == budget)) {
        if (once)
            made++; /* WSEL_FAILMALLOC_ONCE: only the allocation after the first N fails */
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

typedef int main_fn(int, char **, char **);
typedef int start_fn(main_fn *, int, char **, void (*)(void), void (*)(void), void (*)(void),
                     void *);
static main_fn *real_main;

static int wrapped_main(int argc, char **argv, char **envp)
{
    int rc = real_main(argc, argv, envp);
    after_main = 1;
    return rc;
}

int __libc_start_main(main_fn *main_, int argc, char **argv, void (*init)(void),
                      void (*fini)(void), void (*rtld_fini)(void), void *stack_end)
{
    after_main = 1; /* the lookup below is ours, not the program's */
    start_fn *real = (start_fn *)(size_t)dlsym(RTLD_NEXT, "__libc_start_main");
    after_main = 0;
    if (!real)
        abort();
    real_main = main_;
    return real(wrapped_main, argc, argv, init, fini, rtld_fini, stack_end);
}

__attribute__((destructor)) static void report(void)
{
    const char *path = getenv("WSEL_FAILMALLOC_COUNT");
    if (!path)
        return;
    long n = made;
    after_main = 1; /* fopen below must not fail */
    FILE *f = fopen(path, "w");
    if (f) {
        fprintf(f, "%ld\n", n);
        fclose(f);
    }
}
