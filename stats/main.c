/* wsel-stats: the statistical conformance suite. Prints TAP.
 *
 *   wsel-stats                    quick suite (what `make check` runs)
 *   wsel-stats --large --report report/stats --tables     `make stats`
 *
 * Every engine (ref and each available fast variant) answers every case; the counts
 * are held against the exact-odds calculator. All statistical components of the run
 * form one family (weighted Bonferroni) that keeps the family-wise
 * false-alarm rate at --alpha. Seeds are fixed, so a run is deterministic. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gsl/gsl_errno.h>

#include "weighted_cases.h"
#include "kit/kit.h"
#include "run.h"
#include "report.h"
#include "ring.h"
#include "suite.h"

int power_check(double level, unsigned draws, unsigned reps);

static void usage(void)
{
    fprintf(stderr,
            "usage: wsel-stats [--large] [--draws N] [--lattice-log L] [--prng-words N]\n"
            "                  [--gen N] [--seed S] [--alpha A] [--engines ref,fast-avx2,...]\n"
            "                  [--case SUBSTRING] [--report DIR] [--tables] [--no-prng]\n"
            "       wsel-stats [--draws N] --power-check LEVEL\n");
    exit(2);
}

/* ref, then every fast variant this build and CPU can run; with a list, only the
 * variants it names ("fast" must not select "fast-avx2": whole names match). */
static void select_engines(run_opts *o, const char *list)
{
    const char *all[WSEL_KIT_MAX_VARIANTS];
    size_t nall = wsel_kit_variants(all, WSEL_KIT_MAX_VARIANTS, false);
    for (size_t i = 0; i < nall; i++) {
        const char *name = all[i];
        if (list) {
            const char *p = list;
            bool hit = false;
            size_t nl = strlen(name);
            while ((p = strstr(p, name)) != NULL) {
                if ((p == list || p[-1] == ',') && (p[nl] == ',' || p[nl] == '\0'))
                    hit = true;
                p += nl;
            }
            if (!hit)
                continue;
        }
        o->engines[o->n_engines++] = name;
    }
}

int main(int argc, char **argv)
{
    run_opts o;
    memset(&o, 0, sizeof o);
    /* GSL's default handler aborts; a CDF that fails returns NaN instead, which the
     * tests handle (wsel_kit_binom) or report as a failure (never as a pass). */
    gsl_set_error_handler_off();
    o.draws = 1u << 18;
    o.lattice_log = 14;
    o.seed = 0x5eed2026;
    uint64_t prng_words = 1u << 22;
    unsigned gen = 20;
    double alpha = 0.001;
    const char *only = NULL, *engines = NULL;
    bool tables = false, prng = true, large = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--large")) {
            large = true;
        } else if (!strcmp(a, "--tables")) {
            tables = true;
        } else if (v && !strcmp(a, "--power-check")) {
            /* simulation check of the power formulas at the given level */
            return power_check(strtod(v, NULL), (unsigned)o.draws, 2000);
        } else if (!strcmp(a, "--no-prng")) {
            prng = false;
        } else if (v && !strcmp(a, "--draws")) {
            o.draws = strtoull(v, NULL, 0), i++;
        } else if (v && !strcmp(a, "--lattice-log")) {
            o.lattice_log = (unsigned)strtoul(v, NULL, 0), i++;
        } else if (v && !strcmp(a, "--prng-words")) {
            prng_words = strtoull(v, NULL, 0), i++;
        } else if (v && !strcmp(a, "--gen")) {
            gen = (unsigned)strtoul(v, NULL, 0), i++;
        } else if (v && !strcmp(a, "--seed")) {
            o.seed = strtoull(v, NULL, 0), i++;
        } else if (v && !strcmp(a, "--alpha")) {
            alpha = strtod(v, NULL), i++;
        } else if (v && !strcmp(a, "--case")) {
            only = v, i++;
        } else if (v && !strcmp(a, "--engines")) {
            engines = v, i++;
        } else if (v && !strcmp(a, "--report")) {
            o.report_dir = v, i++;
        } else {
            usage();
        }
    }
    if (!large && wsel_kit_under_valgrind()) {
        /* VALGRIND=1 checks memory, not odds: 1/16 of the work keeps it to minutes */
        o.draws /= 16;
        prng_words /= 16;
        o.lattice_log -= 2;
        printf("# under valgrind: draws, lattice and PRNG words reduced\n");
    }
    if (large) {
        o.draws *= 8;
        o.lattice_log += 4;
        prng_words *= 8;
        gen *= 2;
    }
    if (o.lattice_log < 4 || o.lattice_log > 30 || !(alpha > 0 && alpha < 1) || !o.draws)
        usage();

    select_engines(&o, engines);

    if (o.report_dir) {
        char path[1024];
        snprintf(path, sizeof path, "%s/plots.list", o.report_dir);
        o.plots = fopen(path, "w");
        if (!o.plots) {
            fprintf(stderr, "wsel-stats: cannot write %s (does the directory exist?)\n", path);
            return 2;
        }
    }

    clock_t t0 = clock();
    stat_case *cases = NULL;
    size_t nc = cases_build(&cases, o.seed, gen);
    size_t ran = 0;
    for (size_t i = 0; i < nc; i++) {
        if (only && !strstr(cases[i].name, only))
            continue;
        run_case(&cases[i], &o);
        ran++;
    }
    if (!only)
        run_systems(&o, gen);
    if (!only || !strcmp(only, "ring")) /* --case ring: the ring's families alone */
        run_ring(&o, gen);
    if (prng && !only)
        run_prng_battery(prng_words, o.seed);
    cases_free(cases, nc);
    if (o.plots)
        fclose(o.plots);

    report_opts ro = { &o, alpha, tables, prng_words, ran };
    size_t failed = report_all(&ro, (double)(clock() - t0) / CLOCKS_PER_SEC);
    suite_free();
    return failed ? 1 : 0;
}
