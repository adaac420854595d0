/* Plot data of the report (make stats): per item, expected and observed frequency per
 * engine, and a gnuplot script. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "families.h"
#include "kit/kit.h"
#include "kit/kit_weighted.h"

void plot_data(const run_opts *o, const stat_case *c, const wsel_resource *res,
                      const wsel_odds *od, double **freq, size_t ne)
{
    char path[1024], base[256];
    snprintf(base, sizeof base, "%s-%s", c->name, res->name);
    for (char *p = base; *p; p++)
        if (*p == '/' || *p == ' ')
            *p = '_';
    snprintf(path, sizeof path, "%s/%s.dat", o->report_dir, base);
    FILE *f = fopen(path, "w");
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
    snprintf(path, sizeof path, "%s/%s.gp", o->report_dir, base);
    f = fopen(path, "w");
    if (!f)
        return;
    fprintf(f, "set terminal png size 1100,480\nset output '%s.png'\n", base);
    fprintf(f, "set title \"%s: how often each item is in the answer%s\" noenhanced\n", base,
            rows > 128 ? " (first 128 items)" : "");
    fprintf(f, "set style data histograms\nset style histogram clustered gap 1\n"
               "set style fill solid 0.8 border -1\nset boxwidth 0.9\nset key outside right\n"
               "set xtics rotate by -60 noenhanced font ',7'\nset yrange [0:*]\n"
               "set ylabel 'frequency (answers containing the item / draws)'\n");
    fprintf(f, "plot '%s.dat' using 2:xtic(1) title 'expected (calculator)'", base);
    for (size_t e = 0; e < ne; e++)
        fprintf(f, ", '' using %zu title '%s'", e + 3, o->engines[e]);
    fprintf(f, "\n");
    fclose(f);
    if (o->plots)
        fprintf(o->plots, "%s\n", base);
}

