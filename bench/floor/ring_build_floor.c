/* The floor of the ring's build (doc/ring.md section 13, "Missed, and why"): the work any
 * exact build of the bench's ring (65 536 slots, 1000 hosts of weights 1..100 given at
 * construction) must do, each part alone, timed in CPU time (the minimum of REPS runs).
 *
 *   cc -O2 -o /tmp/ring-floor bench/floor/ring_build_floor.c -lgsl -lgslcblas -lm
 *   /tmp/ring-floor [reps]
 *
 * gsl:    the 131 072 MT19937 outputs of the default order list, through GSL's type;
 * serial: section 5's counts of the 1000 adds (500 500 chain evaluations) one by one;
 * sse2x8: eight adds side by side in four SSE2 vectors of two lanes (the library's way);
 * avx8:   eight adds in two AVX vectors of four lanes (only where the CPU has AVX).
 * Each lane makes the scalar chain's operations, so every mode's counts are the same: the
 * program checks it. It reads no wsel code, so it is built apart from the bench.
 * Instructions: valgrind --tool=callgrind /tmp/ring-floor 1, then callgrind_annotate
 * --inclusive=yes (run_gsl, run_serial, run_sse2x8, run_avx8). */
#define _POSIX_C_SOURCE 199309L
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gsl/gsl_rng.h>

#define SLOTS 65536u
#define HOSTS 1000
#define LANES 8

typedef double v2d __attribute__((vector_size(16)));
typedef int32_t v2i __attribute__((vector_size(8)));
typedef double v4d __attribute__((vector_size(32)));
typedef int32_t v4i __attribute__((vector_size(16)));

static uint32_t weight[HOSTS];
static uint32_t counts[HOSTS][HOSTS]; /* [add][address]: add a (0-based) has a + 1 addresses */
static uint64_t total[HOSTS + 1];     /* total[i]: the weight of the addresses before i */

static double cpu_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* One add's counts (every address counted: with 65 536 slots none is skipped). */
static void count_add(int add)
{
    double W = (double)total[add + 1];
    uint32_t L = SLOTS;
    for (int i = 0; i <= add; i++) {
        uint32_t c = (uint32_t)((double)L * ((double)weight[i] / W) + 0.0001);
        counts[add][i] = c;
        L -= c;
        W -= weight[i];
    }
}

__attribute__((noinline)) static void run_serial(void)
{
    for (int a = 0; a < HOSTS; a++)
        count_add(a);
}

/* Adds a..a+7 over the addresses all of them have, [0, a + 1); the rest one by one. */
static void tail(int a, const double *L, const double *W)
{
    for (int k = 0; k < LANES; k++) {
        uint32_t l = (uint32_t)L[k];
        double w = W[k];
        for (int i = a + 1; i <= a + k; i++) {
            uint32_t c = (uint32_t)((double)l * ((double)weight[i] / w) + 0.0001);
            counts[a + k][i] = c;
            l -= c;
            w -= weight[i];
        }
    }
}

__attribute__((noinline)) static void run_sse2x8(void)
{
    int a = 0;
    for (; a + LANES <= HOSTS; a += LANES) {
        v2d L[4], W[4];
        const v2d eps = {0.0001, 0.0001};
        for (int k = 0; k < 4; k++) {
            L[k] = (v2d){SLOTS, SLOTS};
            W[k] = (v2d){(double)total[a + 2 * k + 1], (double)total[a + 2 * k + 2]};
        }
        for (int i = 0; i <= a; i++) {
            double wi = weight[i];
            v2d w = {wi, wi};
#pragma GCC unroll 4
            for (int k = 0; k < 4; k++) {
                v2d x = L[k] * (w / W[k]);
                x = x + eps;
                v2i c = __builtin_convertvector(x, v2i); /* counts are below 2^31 */
                counts[a + 2 * k][i] = (uint32_t)c[0];
                counts[a + 2 * k + 1][i] = (uint32_t)c[1];
                L[k] = L[k] - __builtin_convertvector(c, v2d);
                W[k] = W[k] - w;
            }
        }
        double Ls[LANES], Ws[LANES];
        for (int k = 0; k < LANES; k++) {
            Ls[k] = L[k / 2][k % 2];
            Ws[k] = W[k / 2][k % 2];
        }
        tail(a, Ls, Ws);
    }
    for (; a < HOSTS; a++)
        count_add(a);
}

__attribute__((noinline, target("avx"))) static void run_avx8(void)
{
    int a = 0;
    for (; a + LANES <= HOSTS; a += LANES) {
        v4d L[2], W[2];
        const v4d eps = {0.0001, 0.0001, 0.0001, 0.0001};
        for (int k = 0; k < 2; k++) {
            L[k] = (v4d){SLOTS, SLOTS, SLOTS, SLOTS};
            W[k] = (v4d){(double)total[a + 4 * k + 1], (double)total[a + 4 * k + 2],
                         (double)total[a + 4 * k + 3], (double)total[a + 4 * k + 4]};
        }
        for (int i = 0; i <= a; i++) {
            double wi = weight[i];
            v4d w = {wi, wi, wi, wi};
            for (int k = 0; k < 2; k++) {
                v4d x = L[k] * (w / W[k]);
                x = x + eps;
                v4i c = __builtin_convertvector(x, v4i); /* counts are below 2^31 */
                for (int j = 0; j < 4; j++)
                    counts[a + 4 * k + j][i] = (uint32_t)c[j];
                L[k] = L[k] - __builtin_convertvector(c, v4d);
                W[k] = W[k] - w;
            }
        }
        double Ls[LANES], Ws[LANES];
        for (int k = 0; k < LANES; k++) {
            Ls[k] = L[k / 4][k % 4];
            Ws[k] = W[k / 4][k % 4];
        }
        tail(a, Ls, Ws);
    }
    for (; a < HOSTS; a++)
        count_add(a);
}

static double run_gsl(void)
{
    const gsl_rng_type *t = gsl_rng_mt19937;
    void *state = malloc(t->size);
    if (!state)
        exit(1);
    t->set(state, 158841259ul);
    unsigned long x = 0;
    double a = cpu_ms();
    for (uint32_t i = 0; i < 2 * SLOTS; i++)
        x ^= t->get(state);
    double b = cpu_ms();
    free(state);
    if (x == 1)
        puts(""); /* keeps the draws */
    return b - a;
}

static double timed(void (*fn)(void))
{
    double a = cpu_ms();
    fn();
    return cpu_ms() - a;
}

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 50;
    uint64_t st = 17;
    for (int i = 0; i < HOSTS; i++) {
        st = st * 6364136223846793005ull + 1442695040888963407ull;
        weight[i] = 1 + (uint32_t)((st >> 33) % 100);
        total[i + 1] = total[i] + weight[i];
    }
    static uint32_t want[HOSTS][HOSTS];
    run_serial();
    memcpy(want, counts, sizeof want);
    bool avx = __builtin_cpu_supports("avx");
    double best[4] = {1e9, 1e9, 1e9, 1e9};
    for (int r = 0; r < reps; r++) {
        double t[4] = {run_gsl(), timed(run_serial), timed(run_sse2x8),
                       avx ? timed(run_avx8) : 1e9};
        for (int k = 0; k < 4; k++)
            best[k] = t[k] < best[k] ? t[k] : best[k];
        if (memcmp(counts, want, sizeof want)) {
            fprintf(stderr, "the lanes' counts differ from the serial ones\n");
            return 1;
        }
    }
    printf("gsl %.3f ms, serial %.3f ms, sse2x8 %.3f ms, avx8 ", best[0], best[1], best[2]);
    if (avx)
        printf("%.3f ms", best[3]);
    else
        printf("(no AVX)");
    printf(" (minimum of %d runs, CPU time)\n", reps);
    return 0;
}
