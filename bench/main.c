/* wsel-bench: the benchmark driver.
 *
 *   wsel-bench [--benchmark_* flags]   run the matrix with Google Benchmark
 *   wsel-bench --list                  names of the select/... cases
 *   wsel-bench --instr NAME N          run N queries of one select case without timing,
 *                                      for instruction counting under callgrind */
#include "cases.h"
#include "shim.h"

#include <wsel.h>
#include "kit/kit.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "model name" of the first CPU, or "unknown". */
static void cpu_model(char *out, size_t len)
{
    snprintf(out, len, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) != 0)
            continue;
        const char *v = strchr(line, ':');
        if (!v)
            break;
        v++;
        while (*v == ' ' || *v == '\t')
            v++;
        size_t n = strcspn(v, "\n");
        while (n > 0 && isspace((unsigned char)v[n - 1]))
            n--;
        snprintf(out, len, "%.*s", (int)n, v);
        break;
    }
    fclose(f);
}

/* The compiler of this program (and of the library, built by the same make), and the
 * C flags mk/bench.mk passes down; both go into the JSON's context. */
#if defined(__clang__)
#define BENCH_COMPILER "clang " __clang_version__
#elif defined(__GNUC__)
#define BENCH_COMPILER "gcc " __VERSION__
#else
#define BENCH_COMPILER "unknown"
#endif
#ifndef WSEL_BENCH_CFLAGS
#define WSEL_BENCH_CFLAGS "unknown"
#endif
#ifndef WSEL_BENCH_KERNEL_FLAGS
#define WSEL_BENCH_KERNEL_FLAGS ""
#endif

/* The CPU's feature flags ("flags" on x86, "Features" on arm), or "unknown". */
static char *cpu_flags(void)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char *out = NULL;
    size_t cap = 0;
    if (f) {
        char *line = NULL;
        while (getline(&line, &cap, f) > 0) {
            if (strncmp(line, "flags", 5) != 0 && strncmp(line, "Features", 8) != 0)
                continue;
            const char *v = strchr(line, ':');
            if (!v)
                break;
            v++;
            v += strspn(v, " \t");
            size_t n = strcspn(v, "\n");
            out = malloc(n + 1);
            if (out) {
                memcpy(out, v, n);
                out[n] = '\0';
            }
            break;
        }
        free(line);
        fclose(f);
    }
    return out;
}

int main(int argc, char **argv)
{
    wsel_bench_cases_register();
    int rc = 0;
    if (argc >= 2 && strcmp(argv[1], "--list") == 0) {
        wsel_bench_cases_list(stdout);
    } else if (argc >= 2 && strcmp(argv[1], "--instr") == 0) {
        if (argc != 4) {
            fprintf(stderr, "usage: %s --instr NAME QUERIES\n", argv[0]);
            rc = 2;
        } else {
            char *end;
            unsigned long long n = strtoull(argv[3], &end, 10);
            if (*end || end == argv[3]) {
                fprintf(stderr, "%s: bad query count '%s'\n", argv[0], argv[3]);
                rc = 2;
            } else if (wsel_bench_cases_run_plain(argv[2], (size_t)n, stderr) != 0) {
                rc = 1;
            } else {
                printf("%s %llu fast=%s\n", argv[2], n,
                       wsel_kit_auto_variant());
            }
        }
    } else {
        char model[256];
        cpu_model(model, sizeof model);
        wsel_bench_context("cpu_model", model);
        wsel_bench_context("wsel_fast_kernel", wsel_kit_auto_variant());
        wsel_bench_context("wsel_version", WSEL_VERSION);
        wsel_bench_context("compiler", BENCH_COMPILER);
        wsel_bench_context("cflags", WSEL_BENCH_CFLAGS);
        wsel_bench_context("kernel_flags", WSEL_BENCH_KERNEL_FLAGS);
        char *flags = cpu_flags();
        wsel_bench_context("cpu_flags", flags ? flags : "unknown");
        free(flags);
        rc = wsel_bench_run(argc, argv);
    }
    wsel_bench_cases_free();
    return rc;
}
