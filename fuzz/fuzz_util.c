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
    va_list ap;
    va_start(ap, fmt);
    wsel_kit_sb_vprintf(b, fmt, ap);
    va_end(ap);
    FUZZ_ASSERT_MSG(!b->oom, "out of memory writing text");
}
