/* The suite's report (report.h): TAP lines, family summary, power table, HTML page. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "suite.h"

#define POWER 0.9

typedef struct rep {
    const report_opts *r;
    size_t n, M, T;         /* tests; statistical components; tests with components */
    double alpha_c;         /* level of each test with components */
    FILE *html;
    size_t failed;
    size_t fam_tests[F_COUNT], fam_fail[F_COUNT];
    double *det[F_COUNT];   /* detectable deviations per family */
    size_t ndet[F_COUNT];
} rep;

static double detect_of(const test *t, const comp *c, double alpha)
{
    switch (t->family) {
    case F_CHOICE:
    case F_RING_KEYS:
    case F_SIZES:
    case F_ANSWERS:
        return wsel_kit_detect_gof(c->pref, c->draws, c->r.df, alpha, POWER);
    case F_INCL:
    case F_GROUPS:
        return wsel_kit_detect_binom(c->pref, c->draws, alpha, POWER);
    case F_INDEP:
        return wsel_kit_detect_indep(c->draws, alpha, POWER);
    case F_PRNG:
        if (c->pref < 0)
            return INFINITY; /* KS: no power figure here */
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

/* The plan and the run's parameters as TAP comments. */
static void report_header(rep *x)
{
    const report_opts *r = x->r;
    const run_opts *o = r->run;
    (void)o;
    /* One family over every statistical test (weighted Bonferroni): each of the x->T tests
     * with components gets r->alpha / x->T, split evenly over its k components, so the chance
     * of any false alarm in the whole run is at most r->alpha whatever their dependence. */
    x->n = suite_count();
    for (size_t i = 0; i < x->n; i++) {
        x->M += suite_test(i)->nc;
        x->T += suite_test(i)->nc > 0;
    }
    x->alpha_c = wsel_kit_bonferroni(r->alpha, x->T);

    printf("1..%zu\n", x->n);
    printf("# wsel-stats: %zu cases, engines:", r->cases_ran);
    for (size_t e = 0; e < o->n_engines; e++)
        printf(" %s", o->engines[e]);
    printf("\n# draws per case and engine %llu (x case factor), lattice 2^%u queries, prng %llu words, seed %#llx\n",
           (unsigned long long)o->draws, o->lattice_log, (unsigned long long)r->prng_words,
           (unsigned long long)o->seed);
    printf("# family-wise false-alarm rate <= %g (Bonferroni): each of %zu statistical tests at level %.3g,\n"
           "# split evenly over its components (%zu in all); deterministic checks have no false alarms\n",
           r->alpha, x->T, x->alpha_c, x->M);

}

static void html_open(rep *x)
{
    const report_opts *r = x->r;
    const run_opts *o = r->run;
    (void)o;
    if (o->report_dir) {
        char path[1024];
        snprintf(path, sizeof path, "%s/index.html", o->report_dir);
        x->html = fopen(path, "w");
        if (x->html)
            fprintf(x->html, "<!doctype html><html><head><meta charset=utf-8><title>wsel statistical conformance</title>"
                          "<style>body{font-family:sans-serif;font-size:13px} .fail{color:#b00;font-weight:bold}"
                          " table.t td{border:1px solid #ccc;padding:1px 6px;font-family:monospace}"
                          " table.s td{padding:1px 8px}</style></head><body>\n"
                          "<h1>wsel statistical conformance</h1>\n<p>Family-wise false-alarm rate at most %g (Bonferroni"
                          " over %zu statistical tests, each at level %.3g split evenly over its components). Draws per case and engine %llu; lattice 2<sup>%u</sup>"
                          " queries; seed %#llx.</p>\n",
                    r->alpha, x->T, x->alpha_c, (unsigned long long)o->draws, o->lattice_log, (unsigned long long)o->seed);
    }

}

/* One TAP line per test, with what went wrong below a failing one. */
static void report_tests(rep *x)
{
    const report_opts *r = x->r;
    const run_opts *o = r->run;
    (void)o;
    for (int f = 0; f < F_COUNT; f++)
        x->det[f] = calloc(x->M + 1, sizeof *x->det[f]);
    if (x->html)
        fputs("<h2>Tests</h2>\n", x->html);
    for (size_t i = 0; i < x->n; i++) {
        test *t = suite_test(i);
        double pmin = 1.0, level = t->nc ? x->alpha_c / (double)t->nc : x->alpha_c;
        const comp *worst = NULL;
        bool nan_p = false;
        for (size_t k = 0; k < t->nc; k++) {
            nan_p = nan_p || isnan(t->c[k].r.p);
            if (t->c[k].r.p < pmin || !worst) {
                pmin = t->c[k].r.p;
                worst = &t->c[k];
            }
            double d = detect_of(t, &t->c[k], level);
            if (isfinite(d) && x->det[t->family])
                x->det[t->family][x->ndet[t->family]++] = d;
        }
        bool ok = t->violations == 0 && pmin >= level && !nan_p;
        x->fam_tests[t->family]++;
        if (!ok) {
            x->failed++;
            x->fam_fail[t->family]++;
        }
        printf("%s %zu - %s\n", ok ? "ok" : "not ok", i + 1, t->name);
        if (t->violations)
            printf("#   %zu violation(s); first: %s\n", t->violations, t->viol);
        if (worst && (!ok || r->tables))
            printf("#   %zu component(s) at level %.3g each; smallest p = %.4g (%s: statistic %.4g, df %u)%s\n",
                   t->nc, level, pmin,
                   worst->label, worst->r.stat, worst->r.df, pmin < level ? " BELOW the level" : "");
        if (t->note[0] && r->tables)
            printf("#   %s\n", t->note);
        if ((r->tables || !ok) && t->table) {
            printf("#   observed vs expected:\n");
            const char *line = t->table;
            size_t rows = 0;
            while (*line && rows < (r->tables ? 40u : 12u)) {
                const char *end = strchr(line, '\n');
                printf("#     %.*s\n", (int)(end ? end - line : (long)strlen(line)), line);
                rows++;
                line = end ? end + 1 : line + strlen(line);
            }
            if (rows < t->trows)
                printf("#     ... %zu more rows%s\n", t->trows - rows, o->report_dir ? " in index.html" : "");
        }
        if (x->html) {
            fprintf(x->html, "<details><summary><span class=%s>%s</span> %zu ", ok ? "ok" : "fail", ok ? "ok" : "NOT OK", i + 1);
            html_escape(x->html, t->name, sizeof t->name);
            fprintf(x->html, " &mdash; %zu component(s), min p %.4g", t->nc, pmin);
            if (worst)
                fprintf(x->html, " (statistic %.4g, df %u)", worst->r.stat, worst->r.df);
            if (t->violations) {
                fprintf(x->html, ", %zu violation(s): ", t->violations);
                html_escape(x->html, t->viol, sizeof t->viol);
            }
            fputs("</summary>\n", x->html);
            if (t->note[0])
                fprintf(x->html, "<p>%s</p>\n", t->note);
            if (t->table)
                html_table(x->html, t->table);
            fputs("</details>\n", x->html);
        }
    }

}

/* Tests and failures per family, with the deviations each detects. */
static void report_families(rep *x)
{
    const report_opts *r = x->r;
    const run_opts *o = r->run;
    (void)o;
    printf("# per family: tests (failed); smallest relative deviation of one outcome's odds detected\n"
           "# with power %.2f at each component's level (min / median / max over components; for\n"
           "# independence: the phi coefficient)\n", POWER);
    if (x->html)
        fprintf(x->html, "<h2>Families</h2><table class=s><tr><th>family</th><th>tests</th><th>failed</th>"
                      "<th colspan=3>detectable deviation, power %.2f (min / median / max)</th></tr>\n", POWER);
    for (int f = 0; f < F_COUNT; f++) {
        if (!x->fam_tests[f])
            continue;
        printf("#   %-12s %5zu (%zu)", family_name[f], x->fam_tests[f], x->fam_fail[f]);
        if (x->html)
            fprintf(x->html, "<tr><td>%s</td><td>%zu</td><td>%zu</td>", family_name[f], x->fam_tests[f], x->fam_fail[f]);
        if (x->ndet[f]) {
            qsort(x->det[f], x->ndet[f], sizeof *x->det[f], dcmp);
            double lo = x->det[f][0], med = x->det[f][x->ndet[f] / 2], hi = x->det[f][x->ndet[f] - 1];
            printf("  %.3g%% / %.3g%% / %.3g%%", 100 * lo, 100 * med, 100 * hi);
            if (x->html)
                fprintf(x->html, "<td>%.3g%%</td><td>%.3g%%</td><td>%.3g%%</td>", 100 * lo, 100 * med, 100 * hi);
        } else if (f == F_LATTICE || f == F_STRUCT || f == F_BOUNDARY || f == F_RING_BALANCE ||
                   f == F_RING_MOVE || f == F_RING_RR) {
            printf("  exact");
            if (x->html)
                fputs("<td colspan=3>exact</td>", x->html);
        }
        printf("\n");
        if (x->html)
            fputs("</tr>\n", x->html);
        free(x->det[f]);
    }
    for (int f = 0; f < F_COUNT; f++)
        if (!x->fam_tests[f])
            free(x->det[f]);
}

/* Reference figures at this run's level. */
static void report_power(rep *x)
{
    const report_opts *r = x->r;
    const run_opts *o = r->run;
    (void)o;
    /* Reference figures at this run's level: the smallest relative change of one
     * outcome's odds p (others rescaled) each kind of test catches with power 0.9. */
    static const double ps[] = { 0.5, 0.25, 0.1, 0.01 };
    double dN = (double)o->draws;
    printf("# power %.2f at level %.3g (a one-component test), %llu draws: detectable relative change\n"
           "# of one outcome's odds p\n",
           POWER, x->alpha_c, (unsigned long long)o->draws);
    printf("#   %-28s %9s %9s %9s %9s\n", "test", "p=0.5", "p=0.25", "p=0.1", "p=0.01");
    static const unsigned dfs[] = { 1, 2, 8, 63 };
    for (size_t k = 0; k < sizeof dfs / sizeof dfs[0]; k++) {
        printf("#   chi-squared, df %-11u", dfs[k]);
        for (size_t i = 0; i < 4; i++)
            printf(" %8.3g%%", 100 * wsel_kit_detect_gof(ps[i], dN, dfs[k], x->alpha_c, POWER));
        printf("\n");
    }
    printf("#   %-28s", "binomial inclusion");
    for (size_t i = 0; i < 4; i++)
        printf(" %8.3g%%", 100 * wsel_kit_detect_binom(ps[i], dN, x->alpha_c, POWER));
    printf("\n#   independence: phi >= %.3g; prng bytes (df 255, p=1/256): %.3g%% over %llu words\n",
           wsel_kit_detect_indep(dN, x->alpha_c, POWER),
           100 * wsel_kit_detect_gof(1.0 / 256, (double)r->prng_words, 255, x->alpha_c, POWER),
           (unsigned long long)r->prng_words);
}

size_t report_all(const report_opts *r, double secs)
{
    static rep x0;
    memset(&x0, 0, sizeof x0);
    rep *x = &x0;
    x->r = r;
    const run_opts *o = r->run;
    report_header(x);
    if (o->report_dir)
        html_open(x);
    report_tests(x);
    report_families(x);
    report_power(x);
    printf("# %zu of %zu tests failed; %.1f s CPU\n", x->failed, x->n, secs);
    if (x->html) {
        fputs("</table>\n<h2>Plots</h2>\n", x->html);
        char path[1024];
        snprintf(path, sizeof path, "%s/plots.list", o->report_dir);
        FILE *pl = fopen(path, "r");
        char line[512];
        while (pl && fgets(line, sizeof line, pl)) {
            line[strcspn(line, "\n")] = '\0';
            fprintf(x->html, "<h3>%s</h3><img src=\"%s.png\" alt=\"%s\">\n", line, line, line);
        }
        if (pl)
            fclose(pl);
        fputs("</body></html>\n", x->html);
        fclose(x->html);
    }
    return x->failed;
}
