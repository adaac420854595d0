#include "suite.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const family_name[F_COUNT] = {
    "structure", "choice", "inclusion", "groups", "sizes", "answers", "independence",
    "lattice", "boundary", "prng", "ring-balance", "ring-move", "ring-keys", "ring-rr",
};

static test **tests;
static size_t n_tests, cap_tests;

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n);
    if (!q) {
        fprintf(stderr, "wsel-stats: out of memory\n");
        exit(2);
    }
    return q;
}

test *test_new(int family, const char *fmt, ...)
{
    test *t = xrealloc(NULL, sizeof *t);
    memset(t, 0, sizeof *t);
    t->family = family;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->name, sizeof t->name, fmt, ap);
    va_end(ap);
    if (n_tests == cap_tests) {
        cap_tests = cap_tests ? 2 * cap_tests : 256;
        tests = xrealloc(tests, cap_tests * sizeof *tests);
    }
    tests[n_tests++] = t;
    return t;
}

void test_comp(test *t, const char *label, wsel_kit_stat r, double pref, double draws)
{
    if (t->nc == t->capc) {
        t->capc = t->capc ? 2 * t->capc : 8;
        t->c = xrealloc(t->c, t->capc * sizeof *t->c);
    }
    comp *c = &t->c[t->nc++];
    snprintf(c->label, sizeof c->label, "%s", label);
    c->r = r;
    c->pref = pref;
    c->draws = draws;
}

void test_violation(test *t, const char *fmt, ...)
{
    if (t->violations++ == 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(t->viol, sizeof t->viol, fmt, ap);
        va_end(ap);
    }
}

void test_row(test *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if (t->tlen + (size_t)n + 2 > t->tcap) {
        size_t cap = t->tcap ? t->tcap : 512;
        while (cap < t->tlen + (size_t)n + 2)
            cap *= 2;
        t->table = xrealloc(t->table, cap);
        t->tcap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(t->table + t->tlen, t->tcap - t->tlen, fmt, ap);
    va_end(ap);
    t->tlen += (size_t)n;
    t->table[t->tlen++] = '\n';
    t->table[t->tlen] = '\0';
    t->trows++;
}

size_t suite_count(void)
{
    return n_tests;
}

test *suite_test(size_t i)
{
    return tests[i];
}

void suite_free(void)
{
    for (size_t i = 0; i < n_tests; i++) {
        free(tests[i]->c);
        free(tests[i]->table);
        free(tests[i]);
    }
    free(tests);
    tests = NULL;
    n_tests = cap_tests = 0;
}
