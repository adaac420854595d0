/* A modest battery on the default generator: byte uniformity at three bit positions,
 * the first 65536 words as doubles against the uniform law (Kolmogorov-Smirnov),
 * every bit's balance, serial pairs at lag 1 (neighbouring lanes) and lag 4 (one lane),
 * the lag-1 correlation coefficient, and the bulk fill giving the word-by-word stream. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"
#include "kit/kit.h"

static void uniform_bytes(test *t, const uint64_t *w, size_t n, unsigned shift, const char *what)
{
    double obs[256] = { 0 }, exp[256];
    for (size_t i = 0; i < n; i++)
        obs[(w[i] >> shift) & 255]++;
    for (int b = 0; b < 256; b++)
        exp[b] = (double)n / 256;
    wsel_kit_stat r = wsel_kit_chisq_gof(obs, exp, 256);
    test_comp(t, what, r, 1.0 / 256, (double)n);
    test_row(t, "%s | chi2=%.2f | df=%u | p=%.3g", what, r.stat, r.df, r.p);
}

static void serial_pairs(test *t, const uint64_t *w, size_t n, size_t lag, const char *what)
{
    /* disjoint pairs (w[i], w[i+lag]) so the cells are independent under H0 */
    double obs[256] = { 0 }, exp[256];
    size_t pairs = 0;
    for (size_t base = 0; base + 2 * lag <= n; base += 2 * lag)
        for (size_t i = base; i < base + lag; i++, pairs++)
            obs[(w[i] >> 60) << 4 | (w[i + lag] >> 60)]++;
    for (int b = 0; b < 256; b++)
        exp[b] = (double)pairs / 256;
    wsel_kit_stat r = wsel_kit_chisq_gof(obs, exp, 256);
    test_comp(t, what, r, 1.0 / 256, (double)pairs);
    test_row(t, "%s | chi2=%.2f | df=%u | p=%.3g", what, r.stat, r.df, r.p);
}

void run_prng_battery(uint64_t words, uint64_t seed)
{
    static const uint64_t seeds[] = { 0, 1, 0x8000000000000000u };
    uint64_t *w = malloc(words * sizeof *w);
    if (!w) {
        test *t = test_new(F_PRNG, "prng setup");
        test_violation(t, "out of memory");
        return;
    }
    for (size_t si = 0; si < 4; si++) {
        uint64_t s = si < 3 ? seeds[si] : seed;
        wsel_prng p;
        wsel_prng_seed(&p, s);
        wsel_prng_fill(&p, w, (size_t)words);

        test *t = test_new(F_PRNG, "prng seed=%#llx fill equals next", (unsigned long long)s);
        wsel_prng q;
        wsel_prng_seed(&q, s);
        /* odd-sized fills straddle the 4-word blocks */
        uint64_t tmp[7];
        for (size_t i = 0; i < 4096; i++) {
            if (i % 7 == 0 && i + 7 <= 4096) {
                wsel_prng_fill(&q, tmp, 7);
                for (size_t k = 0; k < 7; k++)
                    if (tmp[k] != w[i + k])
                        test_violation(t, "word %zu differs", i + k);
                i += 6;
                continue;
            }
            if (wsel_prng_next(&q) != w[i])
                test_violation(t, "word %zu differs", i);
        }

        t = test_new(F_PRNG, "prng seed=%#llx byte uniformity", (unsigned long long)s);
        uniform_bytes(t, w, (size_t)words, 56, "bits 63..56");
        uniform_bytes(t, w, (size_t)words, 28, "bits 35..28");
        uniform_bytes(t, w, (size_t)words, 0, "bits 7..0");

        t = test_new(F_PRNG, "prng seed=%#llx uniform doubles (KS)", (unsigned long long)s);
        size_t nks = words < 65536 ? (size_t)words : 65536;
        double *u = malloc(nks * sizeof *u);
        if (!u) {
            test_violation(t, "out of memory");
        } else {
            for (size_t i = 0; i < nks; i++)
                u[i] = wsel_kit_unit(w[i]);
            wsel_kit_stat r = wsel_kit_ks_uniform(u, nks);
            free(u);
            test_comp(t, "KS", r, -1, (double)nks);
            test_row(t, "first %zu words as doubles | D=%.5f | p=%.3g", nks, r.stat, r.p);
        }

        t = test_new(F_PRNG, "prng seed=%#llx bit balance", (unsigned long long)s);
        uint64_t ones[64] = { 0 };
        for (size_t i = 0; i < words; i++)
            for (int b = 0; b < 64; b++)
                ones[b] += (w[i] >> b) & 1;
        for (int b = 0; b < 64; b++) {
            char lb[16];
            snprintf(lb, sizeof lb, "bit %d", b);
            wsel_kit_stat r = wsel_kit_binom(ones[b], words, 0.5);
            test_comp(t, lb, r, 0.5, (double)words);
            test_row(t, "%s | %llu | %.1f | z=%.3f | p=%.3g", lb, (unsigned long long)ones[b],
                     (double)words / 2, r.stat, r.p);
        }

        t = test_new(F_PRNG, "prng seed=%#llx serial", (unsigned long long)s);
        serial_pairs(t, w, (size_t)words, 1, "lag 1 top nibbles");
        serial_pairs(t, w, (size_t)words, 4, "lag 4 top nibbles");
        double sum = 0;
        for (size_t i = 0; i + 1 < words; i++)
            sum += ((double)(w[i] >> 11) * 0x1p-53 - 0.5) * ((double)(w[i + 1] >> 11) * 0x1p-53 - 0.5);
        /* under H0 each product has mean 0 and variance 1/144 */
        double z = sum / sqrt((double)(words - 1) / 144.0);
        wsel_kit_stat r = wsel_kit_ztest(z);
        test_comp(t, "lag 1 correlation", r, 0, (double)words);
        test_row(t, "lag 1 correlation | z=%.3f | p=%.3g", z, r.p);
    }
    free(w);
}
