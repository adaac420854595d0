/* Text helpers of the kit (kit.h): a growable string and answers as text. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "kit.h"
#include "../../odds/weighted/weighted_fit.h"

void wsel_kit_sb_printf(wsel_kit_sbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    wsel_kit_sb_vprintf(b, fmt, ap);
    va_end(ap);
}

void wsel_kit_sb_vprintf(wsel_kit_sbuf *b, const char *fmt, va_list ap0)
{
    if (b->oom)
        return;
    for (;;) {
        size_t room = b->s ? b->cap - b->len : 0;
        va_list ap;
        va_copy(ap, ap0);
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

void wsel_kit_format_answer(const wsel_resource *res, const wsel_answer *ans, char *buf,
                            size_t len)
{
    size_t pos = 0;
    buf[0] = '\0';
#define PUT(...)                                                                        \
    do {                                                                                \
        if (pos < len) {                                                                \
            int n_ = snprintf(buf + pos, len - pos, __VA_ARGS__);                       \
            pos += n_ > 0 ? (size_t)n_ : 0;                                             \
        }                                                                               \
    } while (0)
    for (uint32_t s = 0; s < ans->n_sets && s < res->n_sets; s++) {
        const wsel_set *set = &res->sets[s];
        const wsel_set_answer *sa = &ans->set[s];
        if (s)
            PUT("|");
        for (unsigned i = 0; i < sa->count; i++) {
            if (sa->items[i] >= set->n_items) {
                PUT("%s#%u", i ? "," : "", (unsigned)sa->items[i]);
                continue;
            }
            const wsel_item *it = &set->items[sa->items[i]];
            if (set->n_groups)
                PUT("%s%s/%s", i ? "," : "", set->groups[it->group].label, it->label);
            else
                PUT("%s%s", i ? "," : "", it->label);
        }
    }
    PUT(" %c %u", ans->failed ? 'F' : '-', (unsigned)ans->ttl);
#undef PUT
}

int wsel_kit_items_cmp(const uint16_t *a, uint32_t na, const uint16_t *b, uint32_t nb)
{
    return wsel__odds_items_cmp(a, na, b, nb);
}

long wsel_kit_find_answer(const wsel_set_odds *so, const uint16_t *items, uint32_t count)
{
    return wsel__odds_find_answer(so, items, count);
}

uint64_t wsel_kit_max(const uint64_t *v, size_t n)
{
    uint64_t m = 0;
    while (n--)
        m = v[n] > m ? v[n] : m;
    return m;
}
