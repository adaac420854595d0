/* Instruction sets: what this build compiles SIMD code for, what this CPU has (detected
 * once, core/cpu.c), and the one choice of level every SIMD path follows (core/isa.c):
 * the weighted fast engine's kernels and the default generator's bulk fill. Not
 * installed.
 *
 * The choice is the widest level that runs, unless WSEL_FAST_KERNEL (read once:
 * scalar|sse2|avx2) or a force (wsel_fast_force, through wsel__isa_force) names another;
 * forcing "scalar" leaves no SIMD code running anywhere. */
#ifndef WSEL_CORE_ISA_H
#define WSEL_CORE_ISA_H

#include <stdbool.h>

/* Instruction sets this build compiles code for (x86-64 unless -DWSEL_NO_SSE2 /
 * -DWSEL_NO_AVX2); the files built with -msse2 / -mavx2 compile to nothing without. */
#if defined(__x86_64__) && !defined(WSEL_NO_SSE2)
#define WSEL__HAVE_SSE2 1
#endif
#if defined(__x86_64__) && !defined(WSEL_NO_AVX2)
#define WSEL__HAVE_AVX2 1
#endif

/* CPU feature bits. */
#define WSEL__CPU_SSE2 1u
#define WSEL__CPU_AVX2 2u

/* The features of this CPU that this build has code for; detected once, cached. */
unsigned wsel__cpu_features(void);
/* Tests only: report the CPU without `features` (WSEL__CPU_* bits; 0 shows them all
 * again), so the paths of a CPU without SSE2 or AVX2 run on one with them. Whether a
 * variant or level runs is asked anew each time; the automatic level, once chosen, is
 * kept. */
void wsel__cpu_hide(unsigned features);

/* The levels, narrowest first. */
typedef enum wsel__isa {
    WSEL__ISA_SCALAR = 0,
    WSEL__ISA_SSE2,
    WSEL__ISA_AVX2,
    WSEL__ISA_COUNT_
} wsel__isa;

/* "scalar", "sse2", "avx2"; NULL for anything else. */
const char *wsel__isa_name(int isa);
/* Compiled into this build and the CPU has what it needs (scalar always). */
bool wsel__isa_runs(int isa);
/* The level in use now: forced, else WSEL_FAST_KERNEL when it names a level that runs,
 * else the widest that runs. */
wsel__isa wsel__isa_selected(void);
/* Forces a level (-1: back to the automatic choice); false when it cannot run here. */
bool wsel__isa_force(int isa);

#endif
