/* Internal helpers shared by the library's own files. Not installed. */
#ifndef WSEL_CORE_INTERNAL_H
#define WSEL_CORE_INTERNAL_H

#include "wsel.h"

#if defined(__GNUC__)
#define WSEL_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define WSEL_PRINTF(a, b)
#endif

/* Fill `err` (if non-NULL): code, location, context (object, path, key; NULL = empty,
 * include/wsel/common.h) and a printf-style message. Returns `code`, so callers can
 * `return wsel__fail(...)`. */
int wsel__fail(wsel_error *err, int code, const char *file, unsigned line, unsigned col,
               const char *object, const char *path, const char *key,
               const char *fmt, ...) WSEL_PRINTF(9, 10);

/* Makes room in the array *pp (of *cap elements of `size` bytes; pp is the address of the
 * array pointer, of any element type) for at least `need` elements: the capacity doubles,
 * from 16, until it holds `need`, and the new room is zeroed. False when out of memory or
 * when need * size does not fit in a size_t, with the array and *cap unchanged. The one
 * growth helper: every growing array of the library and the CLI goes through it. */
bool wsel__grow(void *pp, size_t *cap, size_t need, size_t size);

#endif
