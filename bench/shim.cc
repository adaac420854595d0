// Google Benchmark behind the C interface of bench/shim.h. Kept thin on purpose: every
// decision about what to measure lives in the C cases, this file only translates.
#include "shim.h"

#include <benchmark/benchmark.h>

#include <string>

namespace {

benchmark::State &S(wsel_bench_state *st) { return *reinterpret_cast<benchmark::State *>(st); }
const benchmark::State &S(const wsel_bench_state *st)
{
    return *reinterpret_cast<const benchmark::State *>(st);
}
benchmark::internal::Benchmark *B(wsel_bench_def *d)
{
    return reinterpret_cast<benchmark::internal::Benchmark *>(d);
}

} // namespace

extern "C" {

wsel_bench_def *wsel_bench_register(const char *name, wsel_bench_fn fn, void *arg)
{
    if (!name || !fn)
        return nullptr;
    try {
        auto *b = benchmark::RegisterBenchmark(name, [fn, arg](benchmark::State &st) {
            fn(reinterpret_cast<wsel_bench_state *>(&st), arg);
        });
        return reinterpret_cast<wsel_bench_def *>(b);
    } catch (...) {
        return nullptr;
    }
}

wsel_bench_def *wsel_bench_unit_set(wsel_bench_def *d, wsel_bench_unit u)
{
    static const benchmark::TimeUnit units[] = {benchmark::kNanosecond, benchmark::kMicrosecond,
                                                benchmark::kMillisecond};
    if (d)
        B(d)->Unit(units[u]);
    return d;
}

wsel_bench_def *wsel_bench_threads_add(wsel_bench_def *d, int threads)
{
    if (d && threads > 0)
        B(d)->Threads(threads);
    return d;
}

wsel_bench_def *wsel_bench_real_time(wsel_bench_def *d)
{
    if (d)
        B(d)->UseRealTime();
    return d;
}

void wsel_bench_context(const char *key, const char *value)
{
    benchmark::AddCustomContext(key ? key : "", value ? value : "");
}

int wsel_bench_run(int argc, char **argv)
{
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 2;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}

bool wsel_bench_keep_running_batch(wsel_bench_state *st, size_t n)
{
    return S(st).KeepRunningBatch(static_cast<benchmark::IterationCount>(n));
}

bool wsel_bench_keep_running(wsel_bench_state *st) { return S(st).KeepRunning(); }

void wsel_bench_pause(wsel_bench_state *st) { S(st).PauseTiming(); }
void wsel_bench_resume(wsel_bench_state *st) { S(st).ResumeTiming(); }
void wsel_bench_skip(wsel_bench_state *st, const char *msg) { S(st).SkipWithError(msg); }
bool wsel_bench_skipped(const wsel_bench_state *st) { return S(st).error_occurred(); }

int wsel_bench_thread_index(const wsel_bench_state *st) { return S(st).thread_index(); }
int wsel_bench_thread_count(const wsel_bench_state *st) { return S(st).threads(); }
uint64_t wsel_bench_iterations(const wsel_bench_state *st)
{
    return static_cast<uint64_t>(S(st).iterations());
}

void wsel_bench_counter(wsel_bench_state *st, const char *name, double value, unsigned flags)
{
    int f = benchmark::Counter::kDefaults;
    if (flags & WSEL_BENCH_RATE)
        f |= benchmark::Counter::kIsRate;
    if (flags & WSEL_BENCH_PER_ITER)
        f |= benchmark::Counter::kAvgIterations;
    if (flags & WSEL_BENCH_THREAD_AVG)
        f |= benchmark::Counter::kAvgThreads;
    S(st).counters[name] = benchmark::Counter(value, static_cast<benchmark::Counter::Flags>(f));
}

void wsel_bench_items(wsel_bench_state *st, uint64_t items)
{
    S(st).SetItemsProcessed(static_cast<int64_t>(items));
}

void wsel_bench_bytes(wsel_bench_state *st, uint64_t bytes)
{
    S(st).SetBytesProcessed(static_cast<int64_t>(bytes));
}

void wsel_bench_label(wsel_bench_state *st, const char *label) { S(st).SetLabel(label); }

#if !defined(__GNUC__)
void wsel_bench_do_not_optimize(const void *p) { benchmark::DoNotOptimize(p); }
void wsel_bench_clobber(void) { benchmark::ClobberMemory(); }
#endif

} // extern "C"
