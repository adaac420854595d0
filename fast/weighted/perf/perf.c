/* Quick timing of the fast engine: ns per wsel_resolve() for the shapes of the
 * performance targets, per available variant, next to the "floor" (drawing the same
 * number of words from the default generator with no selection work). Each figure is
 * the best of many short batches, which filters out the noise of a shared machine.
 * Not a replacement for the bench/ harness; `make fast-perf` runs it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "wsel.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static size_t put(char *buf, size_t len, size_t cap, const char *fmt, int a, int b, int c)
{
    int n = snprintf(buf + len, cap - len, fmt, a, b, c);
    return n > 0 ? len + (size_t)n : len;
}

static size_t add_ungrouped(char *t, size_t len, size_t cap, const char *name, int n,
                            bool multi, bool cname, int net)
{
    len += (size_t)snprintf(t + len, cap - len, "%s => { %s\n", name,
                            multi ? "multi => true" : "");
    for (int i = 0; i < n; i++) {
        if (cname) {
            len = put(t, len, cap, " a%d => [ h%d.example.com., %d ]\n", i, i, 1000 + i * 37);
        } else {
            len = put(t, len, cap, " a%d => [ 10.%d.0.%d, ", i, net, i + 1);
            len = put(t, len, cap, "%d ]\n", 1000 + i * 37, 0, 0);
        }
    }
    return len + (size_t)snprintf(t + len, cap - len, "}\n");
}

static size_t add_grouped(char *t, size_t len, size_t cap, const char *name, bool multi,
                          int net, int size)
{
    len += (size_t)snprintf(t + len, cap - len, "%s => { %s\n", name,
                            multi ? "multi => true" : "");
    for (int g = 0; g < size; g++) {
        len = put(t, len, cap, " g%d => {\n", g, 0, 0);
        for (int i = 0; i < size; i++) {
            len = put(t, len, cap, "  a%d => [ 10.%d.%d.", i, net, g);
            len = put(t, len, cap, "%d, %d ]\n", i + 1, 1 + (i * 7919 + g * 104729) % 1000, 0);
        }
        len = put(t, len, cap, " }\n", 0, 0, 0);
    }
    return len + (size_t)snprintf(t + len, cap - len, "}\n");
}

int main(int argc, char **argv)
{
    long batch = argc > 1 ? atol(argv[1]) : 2000;
    int reps = argc > 2 ? atoi(argv[2]) : 300;
    static char text[1 << 20];
    size_t cap = sizeof text, len = 0;
    len = add_ungrouped(text, len, cap, "single64", 64, false, false, 1);
    len = add_ungrouped(text, len, cap, "cname64", 64, false, true, 0);
    len = add_ungrouped(text, len, cap, "multi64", 64, true, false, 2);
    len = add_grouped(text, len, cap, "gsingle8x8", false, 3, 8);
    len = add_grouped(text, len, cap, "gmulti8x8", true, 4, 8);
    len = add_grouped(text, len, cap, "gsingle64x64", false, 7, 64);
    len = add_grouped(text, len, cap, "gmulti64x64", true, 8, 64);
    len = add_ungrouped(text, len, cap, "single4", 4, false, false, 5);
    len = add_ungrouped(text, len, cap, "multi8", 8, true, false, 6);
    len = add_ungrouped(text, len, cap, "multi4", 4, true, false, 9);
    const char *names[] = { "single64", "cname64", "multi64", "gsingle8x8", "gmulti8x8",
                            "single4", "multi8", "multi4", "gsingle64x64", "gmulti64x64" };

    wsel_config *cfg;
    wsel_error err;
    wsel_load_opts o = { 0 };
    o.input = WSEL_INPUT_STANZA;
    if (wsel_config_load_buffer("perf", text, len, &o, &cfg, &err) != WSEL_OK) {
        char b[2048];
        fprintf(stderr, "%s\n", wsel_error_format(&err, b, sizeof b));
        return 1;
    }
    wsel_state *st;
    if (wsel_state_new(cfg, &st, &err) != WSEL_OK)
        return 1;
    unsigned long sink = 0;
    printf("%-13s %7s", "ns/query", "floor");
    /* the fast variants, then ref */
    size_t nv = wsel_variant_count();
    for (size_t e = 1; e <= nv; e++)
        printf(" %11s", wsel_variant_name(e % nv));
    printf("\n");
    for (size_t m = 0; m < sizeof names / sizeof names[0]; m++) {
        const wsel_resource *res = wsel_config_find(cfg, names[m]);
        wsel_prng p;
        wsel_prng_seed(&p, 1);
        uint64_t w[WSEL_WORDS_MAX];
        size_t nw = wsel_resource_words(res);
        double floor_best = 1e9;
        for (int rep = 0; rep < reps; rep++) {
            double t0 = now();
            for (long i = 0; i < batch; i++) {
                wsel_prng_fill(&p, w, nw);
                sink += w[0];
            }
            double t = now() - t0;
            floor_best = t < floor_best ? t : floor_best;
        }
        printf("%-13s %7.2f", names[m], floor_best / (double)batch * 1e9);
        for (size_t e = 1; e <= nv; e++) {
            const char *name = wsel_variant_name(e % nv);
            wsel_resolver *r;
            if (!wsel_variant_available(name) ||
                wsel_resolver_new_variant(cfg, st, name, &r, NULL) != WSEL_OK) {
                printf(" %11s", "-");
                continue;
            }
            wsel_rng rng = wsel_prng_rng(&p);
            wsel_answer a;
            double best = 1e9;
            long n = wsel_resolver_engine(r) == WSEL_ENGINE_REF ? batch / 10 + 1 : batch;
            for (int rep = 0; rep < reps; rep++) {
                double t0 = now();
                for (long i = 0; i < n; i++) {
                    wsel_resolve(r, res, &rng, &a);
                    sink += a.set[0].count + a.set[0].items[0];
                }
                double t = now() - t0;
                best = t < best ? t : best;
            }
            printf(" %11.2f", best / (double)n * 1e9);
            wsel_resolver_free(r);
        }
        printf("\n");
    }
    printf("# dispatched: %s; checksum %lu\n", wsel_fast_selected(), sink & 1);
    wsel_state_free(st);
    wsel_config_free(cfg);
    return 0;
}
