/* A C face for Google Benchmark, so the benchmark cases can be written in C.
 *
 * The shim (bench/shim.cc) maps these calls onto benchmark::RegisterBenchmark and
 * benchmark::State. A case is a function taking the run state and an opaque pointer;
 * it loops with wsel_bench_keep_running_batch() and does one unit of work (one query)
 * per counted iteration. Batching keeps the per-iteration cost of crossing into C++
 * out of the figures: at a few nanoseconds per query, a call per iteration would
 * show up in the result. */
#ifndef WSEL_BENCH_SHIM_H
#define WSEL_BENCH_SHIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct wsel_bench_state wsel_bench_state; /* a benchmark::State */
typedef struct wsel_bench_def wsel_bench_def;     /* a registered benchmark */
typedef void (*wsel_bench_fn)(wsel_bench_state *st, void *arg);

/* Registers a case; the name is copied. Returns NULL on failure. */
wsel_bench_def *wsel_bench_register(const char *name, wsel_bench_fn fn, void *arg);

/* Options of a registered case (each returns `d` for chaining). */
typedef enum wsel_bench_unit { WSEL_BENCH_NS, WSEL_BENCH_US, WSEL_BENCH_MS } wsel_bench_unit;
wsel_bench_def *wsel_bench_unit_set(wsel_bench_def *d, wsel_bench_unit u);
wsel_bench_def *wsel_bench_threads_add(wsel_bench_def *d, int threads); /* once per count */
wsel_bench_def *wsel_bench_real_time(wsel_bench_def *d);

/* Adds a key/value pair to the "context" block of the output (before wsel_bench_run). */
void wsel_bench_context(const char *key, const char *value);

/* Runs the registered cases with Google Benchmark's command line (--benchmark_*).
 * Returns 0 on success, 2 on an unrecognised argument. */
int wsel_bench_run(int argc, char **argv);

/* Loop driver: counts n iterations per call; true while the run wants more. The loop
 * must go on until it returns false. */
bool wsel_bench_keep_running_batch(wsel_bench_state *st, size_t n);
bool wsel_bench_keep_running(wsel_bench_state *st);

void wsel_bench_pause(wsel_bench_state *st);
void wsel_bench_resume(wsel_bench_state *st);
/* Marks the run failed with `msg` (it is reported, not timed). Call before the loop,
 * or after it ended; the loop then ends at once. */
void wsel_bench_skip(wsel_bench_state *st, const char *msg);
bool wsel_bench_skipped(const wsel_bench_state *st);

int wsel_bench_thread_index(const wsel_bench_state *st);
int wsel_bench_thread_count(const wsel_bench_state *st);
uint64_t wsel_bench_iterations(const wsel_bench_state *st);

/* Counters: flags combine the values below (plain value when 0). */
#define WSEL_BENCH_RATE      0x1u /* divide by the elapsed time: per second */
#define WSEL_BENCH_PER_ITER  0x2u /* divide by the iteration count: per query */
#define WSEL_BENCH_THREAD_AVG 0x4u /* average over threads instead of summing */
void wsel_bench_counter(wsel_bench_state *st, const char *name, double value, unsigned flags);
void wsel_bench_items(wsel_bench_state *st, uint64_t items);   /* items_per_second */
void wsel_bench_bytes(wsel_bench_state *st, uint64_t bytes);   /* bytes_per_second */
void wsel_bench_label(wsel_bench_state *st, const char *label);

/* Keeps the compiler from discarding a computation whose result is only stored at p,
 * like benchmark::DoNotOptimize, without a function call. */
#if defined(__GNUC__)
static inline void wsel_bench_do_not_optimize(const void *p)
{
    __asm__ __volatile__("" : : "r"(p) : "memory");
}
static inline void wsel_bench_clobber(void)
{
    __asm__ __volatile__("" : : : "memory");
}
#else
void wsel_bench_do_not_optimize(const void *p);
void wsel_bench_clobber(void);
#endif

#ifdef __cplusplus
}
#endif
#endif
