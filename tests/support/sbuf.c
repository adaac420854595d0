#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "sbuf.h"

void wsel_test_sb_printf(wsel_test_sbuf *b, const char *fmt, ...)
{
    if (b->oom)
        return;
    for (;;) {
        size_t room = b->s ? b->cap - b->len : 0;
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(b->s ? b->s + b->len : NULL, room, fmt, ap);
        va_end(ap);
        if (n < 0) {
            b->oom = true;
            return;
        }
        if ((size_t)n < room) {
            b->len += (size_t)n;
            return;
        }
        size_t cap = b->cap ? b->cap * 2 : 4096;
        while (cap < b->len + (size_t)n + 1)
            cap *= 2;
        char *s = realloc(b->s, cap);
        if (!s) {
            b->oom = true;
            return;
        }
        b->s = s;
        b->cap = cap;
    }
}
