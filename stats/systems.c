/* The generic loop over systems x engine variants (run.h): it never names a mode; what
 * a system is comes from the kit's table (tests/kit/kit_system.h). */
#include <stdlib.h>

#include "run.h"
#include "kit/kit_system.h"

#define QUERIES_PER_TARGET 16

void run_systems(const run_opts *o, unsigned cases)
{
    size_t nsys;
    const wsel_kit_system *const *sys = wsel_kit_systems(&nsys);
    static uint64_t pool[16384];
    uint64_t w[WSEL_WORDS_MAX];
    for (size_t si = 0; si < nsys; si++) {
        const wsel_kit_system *s = sys[si];
        test *t = test_new(F_BOUNDARY, "%s generated cases: every variant answers as the "
                           "reference, invariants hold", s->name);
        uint64_t rs = o->seed ^ si;
        size_t queries = 0;
        for (unsigned k = 0; k < cases; k++) {
            char why[1024];
            void *c = s->case_new(wsel_kit_mix(&rs), why, sizeof why);
            if (!c) {
                test_violation(t, "case %u: %s", k, why);
                continue;
            }
            for (size_t q = 0; q < s->queries(c); q++) {
                size_t n = s->words(c, q);
                size_t np = s->boundary(c, q, pool, sizeof pool / sizeof pool[0]);
                if (n > WSEL_WORDS_MAX || (n > 0 && np == 0)) {
                    test_violation(t, "case %u target %zu: %zu words, %zu boundary words", k, q,
                                   n, np);
                    continue;
                }
                for (unsigned j = 0; j < QUERIES_PER_TARGET; j++, queries++) {
                    for (size_t i = 0; i < n; i++)
                        w[i] = j % 2 ? wsel_kit_mix(&rs) : pool[wsel_kit_range(&rs, 0, np - 1)];
                    const char *bad = wsel_kit_identity(s, c, q, w, n, why, sizeof why);
                    if (bad)
                        test_violation(t, "case %u: %s", k, bad);
                }
            }
            s->case_free(c);
        }
        snprintf(t->note, sizeof t->note, "%zu queries over %u generated cases", queries, cases);
    }
}
