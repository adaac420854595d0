/* The suite's test registry: every TAP line is a `test` holding zero or more
 * statistical components (each a p-value) and a count of deterministic violations.
 * All statistical tests of a run form one family for the Bonferroni correction. */
#ifndef WSEL_STATS_SUITE_H
#define WSEL_STATS_SUITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kit/kit_stat.h"

enum family {
    F_STRUCT,   /* deterministic: answer shape, flags, TTL, impossible/certain items */
    F_CHOICE,   /* chi-squared: single choice of an item or a group */
    F_INCL,     /* binomial: per-item inclusion */
    F_GROUPS,   /* binomial: per-group inclusion (grouped multi) */
    F_SIZES,    /* chi-squared: answer-set sizes */
    F_ANSWERS,  /* chi-squared: enumerated answer sets */
    F_INDEP,    /* 2x2 chi-squared: pairwise independence of inclusions */
    F_LATTICE,  /* deterministic: equidistributed words give the exact counts */
    F_BOUNDARY, /* deterministic: words at each decision's edges give the contract's outcome */
    F_PRNG,     /* the default generator's battery */
    F_RING_BALANCE, /* deterministic: ring slot counts vs the model and the quota bound */
    F_RING_MOVE,    /* deterministic: ring changes vs the model; moves reported */
    F_RING_KEYS,    /* chi-squared: CRC-32 keyed picks per address vs slot shares */
    F_RING_RR,      /* deterministic: round-robin counts = slot counts */
    F_COUNT
};

extern const char *const family_name[F_COUNT];

typedef struct comp {
    char label[96];
    wsel_kit_stat r;
    double pref;     /* odds of the outcome the power figure is about (GOF, binomial) */
    double draws;
} comp;

typedef struct test {
    char name[240];
    int family;
    comp *c;
    size_t nc, capc;
    size_t violations;
    char viol[320];
    char *table;     /* rows "label | observed | expected | ..." for the report */
    size_t tlen, tcap, trows;
    char note[160];
} test;

test *test_new(int family, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void test_comp(test *t, const char *label, wsel_kit_stat r, double pref, double draws);
void test_violation(test *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void test_row(test *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

size_t suite_count(void);
test *suite_test(size_t i);
void suite_free(void);

#endif
