/* The suite's report: one TAP line per test, the per-family summary, the power table
 * and, with --report, an HTML page. */
#ifndef WSEL_STATS_REPORT_H
#define WSEL_STATS_REPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "run.h"

typedef struct report_opts {
    const run_opts *run;
    double alpha;          /* family-wise false-alarm rate */
    bool tables;           /* observed vs expected rows for every test */
    uint64_t prng_words;
    size_t cases_ran;
} report_opts;

/* Prints the TAP stream of every test in the suite (and writes the HTML page when
 * run->report_dir is set). Returns the number of failed tests. */
size_t report_all(const report_opts *r, double cpu_seconds);

#endif
