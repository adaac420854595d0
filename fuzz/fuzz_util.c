/* Support code linked into every fuzz target. */
#include "fuzz.h"

#include <stdarg.h>

void fuzz_fail(const char *file, int line, const char *cond, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "\nFUZZ ASSERTION FAILED at %s:%d: %s\n  ", file, line, cond);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    fflush(stderr);
    abort();
}

void sb_printf(sbuf *b, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(b->p ? b->p + b->n : NULL, b->p ? b->cap - b->n : 0, fmt, ap);
        va_end(ap);
        FUZZ_ASSERT(k >= 0);
        if (b->p && b->n + (size_t)k < b->cap) {
            b->n += (size_t)k;
            return;
        }
        size_t cap = b->cap ? b->cap : 4096;
        while (cap <= b->n + (size_t)k)
            cap *= 2;
        char *np = realloc(b->p, cap);
        FUZZ_ASSERT(np != NULL);
        b->p = np;
        b->cap = cap;
    }
}
