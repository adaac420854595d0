/* A growable string for building config text in tests, the stats suite and benchmarks.
 * Zero-initialise, append with wsel_test_sb_printf(), then use `s` (NUL-terminated once
 * anything was written) and free() it. After a failed allocation `oom` is set and
 * further appends do nothing. */
#ifndef WSEL_TEST_SBUF_H
#define WSEL_TEST_SBUF_H

#include <stdbool.h>
#include <stddef.h>

typedef struct wsel_test_sbuf {
    char *s;
    size_t len, cap;
    bool oom;
} wsel_test_sbuf;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void wsel_test_sb_printf(wsel_test_sbuf *b, const char *fmt, ...);

#endif
