/* The conformance suite's test families for the weighted system, one file each, and
 * what they share: the draw family (weighted_draws.c: chi-squared, binomial and
 * independence tests of counts against the exact-odds calculator), the equidistributed
 * lattice (weighted_lattice.c), the boundary words of the weighted decisions
 * (weighted_boundary.c) and the report's plot data (plot.c); run.c drives them case by
 * case over weighted_cases.c. */
#ifndef WSEL_STATS_FAMILIES_H
#define WSEL_STATS_FAMILIES_H

#include "run.h"
#include "kit/kit_weighted.h"

/* calloc that ends the run (exit 2) when memory runs out. */
void *stats_xcalloc(size_t n, size_t s);
/* h folded with every byte of s (splitmix64 steps): seeds named after a test. */
uint64_t hash_str(uint64_t h, const char *s);
/* Modes whose answer is one item chosen among all (CNAME, ungrouped single). */
bool stats_is_choice(wsel_mode m);
/* "label" or "group/label" of item i. */
const char *stats_item_label(const wsel_set *set, uint32_t i, char *buf, size_t len);
/* One query through resolver r, or through wsel_ref_resolve when r is NULL. */
int stats_resolve(const wsel_resolver *r, const wsel_resource *res, const wsel_state *st,
                  wsel_rng *rng, wsel_answer *ans);

/* ---- weighted_draws.c ---- */

typedef struct set_acc {
    const wsel_set *set;
    const wsel_set_odds *so;
    wsel_kit_weighted_truth *truth;        /* what the state makes of the set */
    uint64_t *item_cnt, *group_cnt;
    uint64_t size_cnt[WSEL_ANSWER_MAX + 2];
    const wsel_odds_answer **ans_sorted;   /* so->answers ordered by item lists */
    uint64_t *ans_cnt;                     /* indexed like ans_sorted */
    size_t n_pairs;
    uint16_t (*pair)[2];
    uint64_t *pair11;
    bool pairs_on_groups;
    test *st;                              /* structure test: violations go there */
    int expect_failed;
} set_acc;

void acc_init(set_acc *a, const wsel_set *set, const wsel_set_odds *so, const wsel_state *state,
              test *st, int expect_failed);
/* Checks one answer of the set (its invariants and the calculator's figures) and counts it. */
void acc_answer(set_acc *a, const wsel_set_answer *sa);
void acc_free(set_acc *a);
/* Turns the counts of N draws into the family's tests, named after prefix. */
void set_tests(set_acc *a, const char *prefix, uint64_t N);

/* ---- weighted_lattice.c, weighted_boundary.c, plot.c ---- */

void lattice_run(const char *prefix, const wsel_resolver *rv, const wsel_resource *res,
                 const wsel_state *st, const wsel_odds *od, unsigned logn, uint64_t seed);
void boundary_run(const char *prefix, const wsel_resolver *rv, const wsel_resource *res,
                  const wsel_state *st, const wsel_odds *od);
void plot_data(const run_opts *o, const stat_case *c, const wsel_resource *res,
               const wsel_odds *od, double **freq, size_t ne);
/* The report's plot files (plot.c, also used by the ring families): plot_open opens
 * REPORT_DIR/BASE.EXT for writing (NULL when it cannot); plot_histogram writes BASE.gp,
 * a clustered histogram of BASE.dat (column 1 the x labels, then one column per title
 * in COLS), and lists it in the report's plots. */
FILE *plot_open(const run_opts *o, const char *base, const char *ext);
void plot_histogram(const run_opts *o, const char *base, const char *title, const char *ylabel,
                    const char *const *cols, size_t ncols);

#endif
