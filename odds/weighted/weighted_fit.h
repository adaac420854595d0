/* The weighted system's goodness of fit: observed answers of a set held against its
 * exact odds (wsel_odds_compute). `wsel sample` runs it, and so do the tests through the
 * verification kit (tests/kit/kit_stat.h). Not installed.
 *
 * A weighted set's answer is not a list of independent items: in grouped sets the
 * addresses of one group come and go together. So a set that is not tested over its
 * enumerated answers is tested by sub-tests that are each valid for its mode
 * (doc/weighted.md §5.3-§5.6) and independent of one another:
 *   ungrouped single, CNAME  "items"        chi-squared over the one chosen item
 *   ungrouped multi          "items"        binomial terms summed: inclusions are
 *                                           independent (§5.4), one df per item
 *   grouped single           "groups"       chi-squared over the one chosen group
 *                            "group-items"  per group drawn: its addresses' inclusions
 *                                           among the draws that chose it, against
 *                                           d_j / M_g (§5.5), binomial terms summed
 *   grouped multi            "groups"       binomial terms summed over group inclusions
 *                            "group-items"  per group drawn: the one address chosen
 *                                           among the draws that took it, against
 *                                           d_j / G_g (§5.6), chi-squared
 * Conditional on the groups drawn, the address draws of different groups and draws are
 * independent, so the sub-tests are independent and wsel__sidak() combines them. */
#ifndef WSEL_ODDS_WEIGHTED_FIT_H
#define WSEL_ODDS_WEIGHTED_FIT_H

#include "wsel.h"

#include "../stat.h"

/* A set's counts over N draws. */
typedef struct wsel__set_counts {
    const double *answers; /* per so->answers[] (enumerable sets), or NULL: sub-tests */
    const double *items;   /* per item of the set: draws that answered it */
    const double *groups;  /* grouped sets, per group: draws answering any address of it */
} wsel__set_counts;

typedef struct wsel__subtest {
    const char *kind;      /* "answer-sets", "items", "groups", "group-items" */
    uint32_t set;          /* the set's index in its resource */
    int32_t group;         /* "group-items": the group's index, else -1 */
    double draws;          /* draws tested: N, or those that drew the group */
    wsel__stat r;          /* df 0: nothing to test (not counted by the combination) */
} wsel__subtest;

/* Most sub-tests one set gives: "groups" and one "group-items" per group. */
#define WSEL__MAX_SUBTESTS (1 + 64)

/* The sub-tests of set `set` of a resource (odds so, N draws, counts c): one
 * "answer-sets" test when c->answers is given, else the mode's sub-tests above.
 * Writes them to out[] (room for WSEL__MAX_SUBTESTS) and returns how many. A test's p
 * is 0 when a count falls where the odds say 0 or misses where they say 1. */
size_t wsel__weighted_set_fit(const wsel_set_odds *so, uint32_t set, double N,
                              const wsel__set_counts *c, wsel__subtest *out);

/* The combination of sub-tests t[0..n-1]: stat and df the sums over those with df > 0
 * (shown for information), p = wsel__sidak() over their p-values, impossible the sum
 * of theirs (p 0 then). p 0 and nomem when it cannot allocate. */
wsel__stat wsel__subtests_combine(const wsel__subtest *t, size_t n);

/* Lexicographic order of two item lists (the order wsel_odds answers are sorted in):
 * <0, 0 or >0. */
int wsel__odds_items_cmp(const uint16_t *a, uint32_t na, const uint16_t *b, uint32_t nb);
/* The index of the answer with these items among a set's odds answers, or -1 when the
 * odds list none such. */
long wsel__odds_find_answer(const wsel_set_odds *so, const uint16_t *items, uint32_t count);

#endif
