/* The benchmark case matrix (bench/cases.c), shared by the Google Benchmark driver and
 * the callgrind instruction counter in bench/main.c. */
#ifndef WSEL_BENCH_CASES_H
#define WSEL_BENCH_CASES_H

#include <stddef.h>
#include <stdio.h>

/* Registers every case with the shim. Returns the number registered. */
size_t wsel_bench_cases_register(void);

/* The ring balancer's matrix, ring/<engine>/<operation>/<size>/<state> (bench/ring_cases.c). */
size_t wsel_bench_ring_register(void);

/* Runs `n` queries of the select/... case called `name` outside Google Benchmark, for
 * instruction counting. Returns 0, or -1 with a message on `errs`. */
int wsel_bench_cases_run_plain(const char *name, size_t n, FILE *errs);

/* Prints the names of the cases run_plain accepts. */
void wsel_bench_cases_list(FILE *out);

/* Frees every fixture built during the run. */
void wsel_bench_cases_free(void);

#endif
