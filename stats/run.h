/* Running one case against every engine and turning the counts into tests. */
#ifndef WSEL_STATS_RUN_H
#define WSEL_STATS_RUN_H

#include <stdio.h>

#include "weighted_cases.h"
#include "suite.h"
#include "wsel.h"
#include "kit/kit.h"

typedef struct run_opts {
    uint64_t draws;         /* base draws per (case, engine) */
    unsigned lattice_log;   /* lattice run of 2^lattice_log queries */
    uint64_t seed;
    size_t n_engines;
    const char *engines[WSEL_KIT_MAX_VARIANTS]; /* variant names (wsel_kit_variants) */
    const char *report_dir; /* NULL: no plot data */
    FILE *plots;            /* list of plot scripts written (report mode) */
} run_opts;

/* Runs the case; adds its tests to the suite. Returns 0, or -1 when the case could
 * not even be set up (which is itself recorded as a failing test). */
int run_case(const stat_case *c, const run_opts *o);

/* The generic loop over systems x engine variants (systems.c): for every system of the
 * kit's table, `cases` generated cases whose every query target must give the
 * reference's answer in every variant (uniform and boundary words) and pass the
 * system's invariants. One deterministic test per system. */
void run_systems(const run_opts *o, unsigned cases);

/* Runs the default generator's battery. `words` per test. */
void run_prng_battery(uint64_t words, uint64_t seed);

#endif
