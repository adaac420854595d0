/* The answer-count test of `make conformance` (tests/conformance/conformance.py): reads
 * lines "OBSERVED EXPECTED" (one per answer set) on stdin and runs the verification
 * kit's chi-squared goodness of fit on them -- the project's one statistics module,
 * with its one pooling rule. Arguments: ALPHA M, the family-wise false-alarm rate and
 * the number of tests in the family (Bonferroni, the kit's). Prints
 * "STAT DF P IMPOSSIBLE LEVEL" on one line. */
#include <stdio.h>
#include <stdlib.h>

#include "kit/kit_stat.h"

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: chisq ALPHA M < counts\n");
        return 2;
    }
    double alpha = strtod(argv[1], NULL);
    size_t m = strtoul(argv[2], NULL, 10);
    size_t n = 0, cap = 64;
    double *obs = malloc(cap * sizeof *obs), *exp = malloc(cap * sizeof *exp);
    if (!obs || !exp)
        return 2;
    double o, e;
    while (scanf("%lf %lf", &o, &e) == 2) {
        if (n == cap) {
            cap *= 2;
            double *a = realloc(obs, cap * sizeof *obs);
            if (!a)
                return 2;
            obs = a;
            double *b = realloc(exp, cap * sizeof *exp);
            if (!b)
                return 2;
            exp = b;
        }
        obs[n] = o;
        exp[n] = e;
        n++;
    }
    wsel_kit_stat st = wsel_kit_chisq_gof(obs, exp, n);
    printf("%.17g %u %.17g %zu %.17g\n", st.stat, st.df, st.p, st.impossible,
           wsel_kit_bonferroni(alpha, m ? m : 1));
    free(obs);
    free(exp);
    return 0;
}
