/* Plot data of the report (make stats): per item, expected and observed frequency per
 * engine, and a gnuplot script. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "families.h"
#include "kit/kit.h"
#include "kit/kit_weighted.h"

FILE *plot_open(const run_opts *o, const char *base, const char *ext)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.%s", o->report_dir, base, ext);
    return fopen(path, "w");
}

void plot_histogram(const run_opts *o, const char *base, const char *title, const char *ylabel,
                    const char *const *cols, size_t ncols)
{
    FILE *f = plot_open(o, base, "gp");
    if (!f)
        return;
    fprintf(f, "set terminal png size 1100,480\nset output '%s.png'\n", base);
    fprintf(f, "set title \"%s\" noenhanced\n", title);
    fprintf(f, "set style data histograms\nset style histogram clustered gap 1\n"
               "set style fill solid 0.8 border -1\nset boxwidth 0.9\nset key outside right\n"
               "set xtics rotate by -60 noenhanced font ',7'\nset yrange [0:*]\n"
               "set ylabel '%s'\n", ylabel);
    for (size_t k = 0; k < ncols; k++) {
        if (k == 0)
            fprintf(f, "plot '%s.dat' using 2:xtic(1) title '%s'", base, cols[0]);
        else
            fprintf(f, ", '' using %zu title '%s'", k + 2, cols[k]);
    }
    fprintf(f, "\n");
    fclose(f);
    if (o->plots)
        fprintf(o->plots, "%s\n", base);
}

void plot_data(const run_opts *o, const stat_case *c, const wsel_resource *res,
                      const wsel_odds *od, double **freq, size_t ne)
{
    char base[256];
    snprintf(base, sizeof base, "%s-%s", c->name, res->name);
    for (char *p = base; *p; p++)
        if (*p == '/' || *p == ' ')
            *p = '_';
    FILE *f = plot_open(o, base, "dat");
    if (!f)
        return;
    size_t rows = 0, off = 0;
    char lb[200];
    fprintf(f, "# item expected");
    for (size_t e = 0; e < ne; e++)
        fprintf(f, " %s", o->engines[e]);
    fprintf(f, "\n");
    for (uint32_t s = 0; s < od->n_sets; s++) {
        const wsel_set *set = od->sets[s].set;
        for (uint32_t i = 0; i < set->n_items; i++, off++) {
            if (rows++ >= 128)
                continue; /* a plot of thousands of bars shows nothing */
            stats_item_label(set, i, lb, sizeof lb);
            fprintf(f, "\"%s%s%s\" %.6Lg", set->stanza ? set->stanza : "", set->stanza ? ":" : "", lb,
                    od->sets[s].item_p[i].p);
            for (size_t e = 0; e < ne; e++)
                fprintf(f, " %.6g", freq[e][off]);
            fprintf(f, "\n");
        }
    }
    fclose(f);
    char title[400];
    snprintf(title, sizeof title, "%s: how often each item is in the answer%s", base,
             rows > 128 ? " (first 128 items)" : "");
    const char *cols[1 + 16];
    size_t nc = 0;
    cols[nc++] = "expected (calculator)";
    for (size_t e = 0; e < ne && nc < sizeof cols / sizeof cols[0]; e++)
        cols[nc++] = o->engines[e];
    plot_histogram(o, base, title, "frequency (answers containing the item / draws)", cols, nc);
}

