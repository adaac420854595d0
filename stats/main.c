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

#include "cases.h"
#include "kit/kit.h"
#include "run.h"
#include "suite.h"

#define POWER 0.9

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

static double detect_of(const test *t, const comp *c, double alpha)
{
    switch (t->family) {
    case F_CHOICE:
    case F_SIZES:
    case F_ANSWERS:
        return wsel_kit_detect_gof(c->pref, c->draws, c->r.df, alpha, POWER);
    case F_INCL:
    case F_GROUPS:
        return wsel_kit_detect_binom(c->pref, c->draws, alpha, POWER);
    case F_INDEP:
        return wsel_kit_detect_indep(c->draws, alpha, POWER);
    case F_PRNG:
        if (c->pref == 0.5)
            return wsel_kit_detect_binom(0.5, c->draws, alpha, POWER);
        if (c->pref > 0)
            return wsel_kit_detect_gof(c->pref, c->draws, c->r.df, alpha, POWER);
        /* lag correlation rho shifts the z statistic by rho * sqrt(n), as a fair
         * coin's bias e/2 does in the binomial test: same threshold */
        return wsel_kit_detect_binom(0.5, c->draws, alpha, POWER);
    default:
        return INFINITY;
    }
}

static int dcmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void html_escape(FILE *f, const char *s, size_t n)
{
    for (size_t i = 0; i < n && s[i]; i++) {
        switch (s[i]) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        default: fputc(s[i], f);
        }
    }
}

static void html_table(FILE *f, const char *table)
{
    fputs("<table class=t>\n", f);
    const char *line = table;
    while (line && *line) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        fputs("<tr>", f);
        const char *cell = line;
        while (cell < line + len) {
            const char *sep = strstr(cell, " | ");
            size_t cl = (sep && sep < line + len) ? (size_t)(sep - cell) : (size_t)(line + len - cell);
            fputs("<td>", f);
            html_escape(f, cell, cl);
            fputs("</td>", f);
            cell += cl + ((sep && sep < line + len) ? 3 : 0);
            if (!(sep && sep < line + len))
                break;
        }
        fputs("</tr>\n", f);
        line = end ? end + 1 : NULL;
    }
    fputs("</table>\n", f);
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

    /* ref, then every fast variant this build and CPU can run */
    const char *all[WSEL_KIT_MAX_VARIANTS];
    size_t nall = wsel_kit_variants(all, WSEL_KIT_MAX_VARIANTS, false);
    for (size_t i = 0; i < nall; i++) {
        const char *name = all[i];
        if (engines) { /* "fast" must not select "fast-avx2": match whole names */
            const char *p = engines;
            bool hit = false;
            size_t nl = strlen(name);
            while ((p = strstr(p, name)) != NULL) {
                if ((p == engines || p[-1] == ',') && (p[nl] == ',' || p[nl] == '\0'))
                    hit = true;
                p += nl;
            }
            if (!hit)
                continue;
        }
        o.engines[o.n_engines++] = name;
    }

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
    if (prng && !only)
        run_prng_battery(prng_words, o.seed);
    cases_free(cases, nc);
    if (o.plots)
        fclose(o.plots);

    /* One family over every statistical test (weighted Bonferroni): each of the T tests
     * with components gets alpha / T, split evenly over its k components, so the chance
     * of any false alarm in the whole run is at most alpha whatever their dependence. */
    size_t n = suite_count(), M = 0, T = 0;
    for (size_t i = 0; i < n; i++) {
        M += suite_test(i)->nc;
        T += suite_test(i)->nc > 0;
    }
    double alpha_c = T ? alpha / (double)T : alpha;

    printf("1..%zu\n", n);
    printf("# wsel-stats: %zu cases, engines:", ran);
    for (size_t e = 0; e < o.n_engines; e++)
        printf(" %s", o.engines[e]);
    printf("\n# draws per case and engine %llu (x case factor), lattice 2^%u queries, prng %llu words, seed %#llx\n",
           (unsigned long long)o.draws, o.lattice_log, (unsigned long long)prng_words,
           (unsigned long long)o.seed);
    printf("# family-wise false-alarm rate <= %g (Bonferroni): each of %zu statistical tests at level %.3g,\n"
           "# split evenly over its components (%zu in all); deterministic checks have no false alarms\n",
           alpha, T, alpha_c, M);

    FILE *html = NULL;
    if (o.report_dir) {
        char path[1024];
        snprintf(path, sizeof path, "%s/index.html", o.report_dir);
        html = fopen(path, "w");
        if (html)
            fprintf(html, "<!doctype html><html><head><meta charset=utf-8><title>wsel statistical conformance</title>"
                          "<style>body{font-family:sans-serif;font-size:13px} .fail{color:#b00;font-weight:bold}"
                          " table.t td{border:1px solid #ccc;padding:1px 6px;font-family:monospace}"
                          " table.s td{padding:1px 8px}</style></head><body>\n"
                          "<h1>wsel statistical conformance</h1>\n<p>Family-wise false-alarm rate at most %g (Bonferroni"
                          " over %zu statistical tests, each at level %.3g split evenly over its components). Draws per case and engine %llu; lattice 2<sup>%u</sup>"
                          " queries; seed %#llx.</p>\n",
                    alpha, T, alpha_c, (unsigned long long)o.draws, o.lattice_log, (unsigned long long)o.seed);
    }

    size_t failed = 0;
    size_t fam_tests[F_COUNT] = { 0 }, fam_fail[F_COUNT] = { 0 };
    double *det[F_COUNT];
    size_t ndet[F_COUNT] = { 0 };
    for (int f = 0; f < F_COUNT; f++)
        det[f] = calloc(M + 1, sizeof *det[f]);
    if (html)
        fputs("<h2>Tests</h2>\n", html);
    for (size_t i = 0; i < n; i++) {
        test *t = suite_test(i);
        double pmin = 1.0, level = t->nc ? alpha_c / (double)t->nc : alpha_c;
        const comp *worst = NULL;
        bool nan_p = false;
        for (size_t k = 0; k < t->nc; k++) {
            nan_p = nan_p || isnan(t->c[k].r.p);
            if (t->c[k].r.p < pmin || !worst) {
                pmin = t->c[k].r.p;
                worst = &t->c[k];
            }
            double d = detect_of(t, &t->c[k], level);
            if (isfinite(d) && det[t->family])
                det[t->family][ndet[t->family]++] = d;
        }
        bool ok = t->violations == 0 && pmin >= level && !nan_p;
        fam_tests[t->family]++;
        if (!ok) {
            failed++;
            fam_fail[t->family]++;
        }
        printf("%s %zu - %s\n", ok ? "ok" : "not ok", i + 1, t->name);
        if (t->violations)
            printf("#   %zu violation(s); first: %s\n", t->violations, t->viol);
        if (worst && (!ok || tables))
            printf("#   %zu component(s) at level %.3g each; smallest p = %.4g (%s: statistic %.4g, df %u)%s\n",
                   t->nc, level, pmin,
                   worst->label, worst->r.stat, worst->r.df, pmin < level ? " BELOW the level" : "");
        if (t->note[0] && tables)
            printf("#   %s\n", t->note);
        if ((tables || !ok) && t->table) {
            printf("#   observed vs expected:\n");
            const char *line = t->table;
            size_t rows = 0;
            while (*line && rows < (tables ? 40u : 12u)) {
                const char *end = strchr(line, '\n');
                printf("#     %.*s\n", (int)(end ? end - line : (long)strlen(line)), line);
                rows++;
                line = end ? end + 1 : line + strlen(line);
            }
            if (rows < t->trows)
                printf("#     ... %zu more rows%s\n", t->trows - rows, o.report_dir ? " in index.html" : "");
        }
        if (html) {
            fprintf(html, "<details><summary><span class=%s>%s</span> %zu ", ok ? "ok" : "fail", ok ? "ok" : "NOT OK", i + 1);
            html_escape(html, t->name, sizeof t->name);
            fprintf(html, " &mdash; %zu component(s), min p %.4g", t->nc, pmin);
            if (worst)
                fprintf(html, " (statistic %.4g, df %u)", worst->r.stat, worst->r.df);
            if (t->violations) {
                fprintf(html, ", %zu violation(s): ", t->violations);
                html_escape(html, t->viol, sizeof t->viol);
            }
            fputs("</summary>\n", html);
            if (t->note[0])
                fprintf(html, "<p>%s</p>\n", t->note);
            if (t->table)
                html_table(html, t->table);
            fputs("</details>\n", html);
        }
    }

    printf("# per family: tests (failed); smallest relative deviation of one outcome's odds detected\n"
           "# with power %.2f at each component's level (min / median / max over components; for\n"
           "# independence: the phi coefficient)\n", POWER);
    if (html)
        fprintf(html, "<h2>Families</h2><table class=s><tr><th>family</th><th>tests</th><th>failed</th>"
                      "<th colspan=3>detectable deviation, power %.2f (min / median / max)</th></tr>\n", POWER);
    for (int f = 0; f < F_COUNT; f++) {
        if (!fam_tests[f])
            continue;
        printf("#   %-12s %5zu (%zu)", family_name[f], fam_tests[f], fam_fail[f]);
        if (html)
            fprintf(html, "<tr><td>%s</td><td>%zu</td><td>%zu</td>", family_name[f], fam_tests[f], fam_fail[f]);
        if (ndet[f]) {
            qsort(det[f], ndet[f], sizeof *det[f], dcmp);
            double lo = det[f][0], med = det[f][ndet[f] / 2], hi = det[f][ndet[f] - 1];
            printf("  %.3g%% / %.3g%% / %.3g%%", 100 * lo, 100 * med, 100 * hi);
            if (html)
                fprintf(html, "<td>%.3g%%</td><td>%.3g%%</td><td>%.3g%%</td>", 100 * lo, 100 * med, 100 * hi);
        } else if (f == F_LATTICE || f == F_STRUCT || f == F_BOUNDARY) {
            printf("  exact");
            if (html)
                fputs("<td colspan=3>exact</td>", html);
        }
        printf("\n");
        if (html)
            fputs("</tr>\n", html);
        free(det[f]);
    }
    for (int f = 0; f < F_COUNT; f++)
        if (!fam_tests[f])
            free(det[f]);
    /* Reference figures at this run's level: the smallest relative change of one
     * outcome's odds p (others rescaled) each kind of test catches with power 0.9. */
    static const double ps[] = { 0.5, 0.25, 0.1, 0.01 };
    double dN = (double)o.draws;
    printf("# power %.2f at level %.3g (a one-component test), %llu draws: detectable relative change\n"
           "# of one outcome's odds p\n",
           POWER, alpha_c, (unsigned long long)o.draws);
    printf("#   %-28s %9s %9s %9s %9s\n", "test", "p=0.5", "p=0.25", "p=0.1", "p=0.01");
    static const unsigned dfs[] = { 1, 2, 8, 63 };
    for (size_t k = 0; k < sizeof dfs / sizeof dfs[0]; k++) {
        printf("#   chi-squared, df %-11u", dfs[k]);
        for (size_t i = 0; i < 4; i++)
            printf(" %8.3g%%", 100 * wsel_kit_detect_gof(ps[i], dN, dfs[k], alpha_c, POWER));
        printf("\n");
    }
    printf("#   %-28s", "binomial inclusion");
    for (size_t i = 0; i < 4; i++)
        printf(" %8.3g%%", 100 * wsel_kit_detect_binom(ps[i], dN, alpha_c, POWER));
    printf("\n#   independence: phi >= %.3g; prng bytes (df 255, p=1/256): %.3g%% over %llu words\n",
           wsel_kit_detect_indep(dN, alpha_c, POWER),
           100 * wsel_kit_detect_gof(1.0 / 256, (double)prng_words, 255, alpha_c, POWER),
           (unsigned long long)prng_words);
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    printf("# %zu of %zu tests failed; %.1f s CPU\n", failed, n, secs);
    if (html) {
        fputs("</table>\n<h2>Plots</h2>\n", html);
        char path[1024];
        snprintf(path, sizeof path, "%s/plots.list", o.report_dir);
        FILE *pl = fopen(path, "r");
        char line[512];
        while (pl && fgets(line, sizeof line, pl)) {
            line[strcspn(line, "\n")] = '\0';
            fprintf(html, "<h3>%s</h3><img src=\"%s.png\" alt=\"%s\">\n", line, line, line);
        }
        if (pl)
            fclose(pl);
        fputs("</body></html>\n", html);
        fclose(html);
    }
    suite_free();
    return failed ? 1 : 0;
}
