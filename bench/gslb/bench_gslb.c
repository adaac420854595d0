/* GSLB resolve timing and allocation count (issue 18 speed target: a wide IP with 4 pools
 * of 8 members, all static methods, allocates nothing and costs <= 100 ns).
 *
 *   make bench-gslb [GSLB_BENCH_N=N]
 *   bench_gslb [N [CASE]]          (one case: for callgrind instruction counts)
 *
 * Cases gslb/<case>: static-rr (4 round-robin pools under a round-robin wide IP),
 * static-mixed (ratio, global-availability, static-persistence, round-robin pools under a
 * ratio wide IP), dynamic-rtt (lowest-round-trip-time, winner takes all),
 * dynamic-ratio-qos (quality-of-service with dynamic-ratio), topology (topology at both
 * levels), topology-64-pools (the same over a wide IP of 64 pools: every available pool
 * is scored). Each case: median over 7 runs of N resolves, ns per resolve; and the number
 * of malloc/calloc/realloc calls during the timed runs (counted by wrapping the
 * allocator of this program). */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "wsel.h"

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);

static volatile int counting;
static unsigned long allocs;

void *malloc(size_t n)
{
    if (counting)
        allocs++;
    return __libc_malloc(n);
}
void *calloc(size_t a, size_t b)
{
    if (counting)
        allocs++;
    return __libc_calloc(a, b);
}
void *realloc(void *p, size_t n)
{
    if (counting)
        allocs++;
    return __libc_realloc(p, n);
}
void free(void *p)
{
    __libc_free(p);
}

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmpd(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* n_pools pools x 8 members on 4 servers; pool i uses modes[i % 4] and server i % 4.
 * aaaa: IPv6 destinations (2001:db8:S::V+1, tmsh's ADDR.PORT form), AAAA pools and an
 * AAAA wide IP, the same chain otherwise. */
static char *make_config(int n_pools, const char *wide_mode, const char *const modes[4],
                         const char *extra, bool aaaa)
{
    size_t cap = 1 << 16;
    char *t = malloc(cap);
    t[0] = '\0';
    for (int s = 0; s < 4; s++) {
        size_t l = strlen(t);
        l += (size_t)snprintf(t + l, cap - l,
                              "gtm server /Common/s%d { datacenter /Common/DC%d product bigip virtual-servers {\n",
                              s, s);
        for (int v = 0; v < 8; v++)
            l += (size_t)snprintf(t + l, cap - l,
                                  aaaa ? "  v%d { destination 2001:db8:%d::%d.80 }\n"
                                       : "  v%d { destination 10.%d.0.%d:80 }\n",
                                  v, s, v + 1);
        snprintf(t + l, cap - l, "} }\n");
    }
    for (int p = 0; p < n_pools; p++) {
        size_t l = strlen(t);
        l += (size_t)snprintf(t + l, cap - l, "gtm pool %s /Common/p%d { %s members {\n",
                              aaaa ? "aaaa" : "a", p, modes[p % 4]);
        for (int v = 0; v < 8; v++)
            l += (size_t)snprintf(t + l, cap - l, "  s%d:v%d { ratio %d }\n", p % 4, v, 1 + v % 3);
        snprintf(t + l, cap - l, "} }\n");
    }
    /* the wide IP's pool ratios: 3, 1, 2, 1 (no ratio written), over and over */
    static const char *const pool_ratio[4] = {" { ratio 3 }", " { ratio 1 }", " { ratio 2 }", ""};
    size_t l = strlen(t);
    l += (size_t)snprintf(t + l, cap - l, "gtm wideip %s /Common/w.example.com { pool-lb-mode %s pools {",
                          aaaa ? "aaaa" : "a", wide_mode);
    for (int p = 0; p < n_pools; p++)
        l += (size_t)snprintf(t + l, cap - l, " /Common/p%d%s", p, pool_ratio[p % 4]);
    snprintf(t + l, cap - l, " } }\n%s", extra ? extra : "");
    return t;
}

static char *make_inputs(void)
{
    size_t cap = 1 << 16;
    char *t = malloc(cap);
    size_t l = (size_t)snprintf(t, cap, "{\"now\": 1, \"query\": {\"ldns\": \"198.51.100.7\"}, \"members\": {");
    for (int s = 0; s < 4; s++)
        for (int v = 0; v < 8; v++)
            l += (size_t)snprintf(t + l, cap - l,
                                  "%s\"s%d:v%d\": {\"up\": %s, \"rtt_us\": %d, \"link_capacity\": %d, "
                                  "\"completion_rate\": 99, \"kbps\": %d, \"pps\": %d}",
                                  s || v ? ", " : "", s, v, v == 2 ? "false" : "true", 40 + 7 * v,
                                  100 + v, 500 + v, 100 + 3 * v);
    snprintf(t + l, cap - l, "}}");
    return t;
}

static void bench_case(const char *name, const char *conf_text, long n)
{
    wsel_gslb_config *cfg;
    wsel_gslb_inputs *in;
    wsel_gslb_state *st;
    wsel_error err;
    char *inputs = make_inputs();
    if (wsel_gslb_config_load_buffer(name, conf_text, strlen(conf_text), &cfg, &err) ||
        wsel_gslb_inputs_load_buffer(cfg, "inputs", inputs, strlen(inputs), &in, &err) ||
        wsel_gslb_state_new(cfg, in, &st, &err)) {
        fprintf(stderr, "%s: %s\n", name, err.message);
        exit(1);
    }
    free(inputs);
    static wsel_gslb_outcome o;
    for (long i = 0; i < n / 10; i++) /* warm up */
        wsel_gslb_resolve(cfg, 0, in, st, NULL, &o, NULL);
    double runs[7];
    unsigned long answers = 0;
    allocs = 0;
    counting = 1;
    for (int r = 0; r < 7; r++) {
        double t0 = now_ns();
        for (long i = 0; i < n; i++) {
            wsel_gslb_resolve(cfg, 0, in, st, NULL, &o, NULL);
            answers += o.n_addrs;
        }
        runs[r] = (now_ns() - t0) / (double)n;
    }
    counting = 0;
    qsort(runs, 7, sizeof runs[0], cmpd);
    printf("gslb/%-18s %8.1f ns/resolve (min %.1f)  allocations %lu  (last: %s %zu addr)\n", name,
           runs[3], runs[0], allocs, wsel_gslb_outcome_name(o.kind), o.n_addrs);
    (void)answers;
    wsel_gslb_state_free(st);
    wsel_gslb_inputs_free(in);
    wsel_gslb_config_free(cfg);
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 200000;
    static const char *const rr[4] = {"", "", "", ""};
    static const char *const mixed[4] = {"load-balancing-mode ratio",
                                         "load-balancing-mode global-availability",
                                         "load-balancing-mode static-persistence",
                                         "load-balancing-mode round-robin max-answers-returned 2"};
    static const char *const rtt[4] = {"load-balancing-mode lowest-round-trip-time",
                                       "load-balancing-mode lowest-round-trip-time",
                                       "load-balancing-mode lowest-round-trip-time",
                                       "load-balancing-mode lowest-round-trip-time"};
    static const char *const qos[4] = {"load-balancing-mode quality-of-service dynamic-ratio enabled",
                                       "load-balancing-mode quality-of-service dynamic-ratio enabled",
                                       "load-balancing-mode quality-of-service dynamic-ratio enabled",
                                       "load-balancing-mode quality-of-service dynamic-ratio enabled"};
    static const char *const topo[4] = {"load-balancing-mode topology", "load-balancing-mode topology",
                                        "load-balancing-mode topology", "load-balancing-mode topology"};
    const char *topo_records =
        "gtm topology ldns: subnet 198.51.100.0/24 server: pool /Common/p1 { score 50 }\n"
        "gtm topology ldns: subnet 0.0.0.0/0 server: pool /Common/p0 { score 10 }\n"
        "gtm topology ldns: subnet 198.51.100.0/24 server: datacenter /Common/DC1 { score 20 }\n"
        "gtm topology ldns: subnet 0.0.0.0/0 server: subnet 10.0.0.0/8 { score 5 }\n";
    struct { const char *name, *wide; const char *const *modes; const char *extra; int pools; bool aaaa; } cases[] = {
        {"static-rr", "round-robin", rr, NULL, 4, false},
        {"static-mixed", "ratio", mixed, NULL, 4, false},
        {"dynamic-rtt", "round-robin", rtt, NULL, 4, false},
        {"dynamic-ratio-qos", "round-robin", qos, NULL, 4, false},
        {"topology", "topology", topo, topo_records, 4, false},
        {"topology-64-pools", "topology", topo, topo_records, 64, false},
        {"static-mixed-aaaa", "ratio", mixed, NULL, 4, true},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        if (argc > 2 && strcmp(argv[2], cases[c].name))
            continue;
        char *t = make_config(cases[c].pools, cases[c].wide, cases[c].modes, cases[c].extra, cases[c].aaaa);
        bench_case(cases[c].name, t, n);
        free(t);
    }
    return 0;
}
