/* The draw family: answers drawn from the default generator, checked one by one
 * (structure) and counted; the counts tested against the exact-odds calculator:
 * chi-squared over choices, sizes and answer sets, binomial per inclusion, 2x2
 * independence of inclusions. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "families.h"
#include "kit/kit.h"
#include "kit/kit_weighted.h"

#define PAIR_ITEMS 12   /* pairwise independence: all pairs among this many uncertain items */

/* ---- answers of the calculator, in our own order for lookup ---- */

static int ans_qcmp(const void *x, const void *y)
{
    const wsel_odds_answer *a = *(const wsel_odds_answer *const *)x;
    const wsel_odds_answer *b = *(const wsel_odds_answer *const *)y;
    return wsel_kit_items_cmp(a->items, a->count, b->items, b->count);
}

/* ---- per-set accumulation ---- */


void acc_init(set_acc *a, const wsel_set *set, const wsel_set_odds *so, const wsel_state *state,
              test *st, int expect_failed)
{
    memset(a, 0, sizeof *a);
    a->set = set;
    a->truth = stats_xcalloc(1, sizeof *a->truth);
    wsel_kit_weighted_truth_of(set, state, a->truth);
    a->so = so;
    a->st = st;
    a->expect_failed = expect_failed;
    a->item_cnt = stats_xcalloc(set->n_items, sizeof *a->item_cnt);
    a->group_cnt = stats_xcalloc(set->n_groups, sizeof *a->group_cnt);
    if (so->enumerable && so->n_answers) {
        a->ans_sorted = stats_xcalloc(so->n_answers, sizeof *a->ans_sorted);
        a->ans_cnt = stats_xcalloc(so->n_answers, sizeof *a->ans_cnt);
        for (uint32_t i = 0; i < so->n_answers; i++)
            a->ans_sorted[i] = &so->answers[i];
        qsort(a->ans_sorted, so->n_answers, sizeof *a->ans_sorted, ans_qcmp);
    }
    /* Independence pairs: items of an ungrouped multi set, or groups of a grouped multi
     * set, whose inclusion is uncertain. */
    uint16_t pick[PAIR_ITEMS];
    size_t np = 0;
    if (set->mode == WSEL_MODE_UNGROUPED_MULTI && set->n_items <= 64) {
        for (uint32_t i = 0; i < set->n_items && np < PAIR_ITEMS; i++)
            if (so->item_p[i].p > 0 && so->item_p[i].p < 1)
                pick[np++] = (uint16_t)i;
    } else if (set->mode == WSEL_MODE_GROUPED_MULTI && set->n_groups <= 64) {
        a->pairs_on_groups = true;
        for (uint32_t g = 0; g < set->n_groups && np < PAIR_ITEMS; g++)
            if (so->group_p[g].p > 0 && so->group_p[g].p < 1)
                pick[np++] = (uint16_t)g;
    }
    if (np >= 2) {
        a->pair = stats_xcalloc(np * (np - 1) / 2, sizeof *a->pair);
        a->pair11 = stats_xcalloc(np * (np - 1) / 2, sizeof *a->pair11);
        for (size_t i = 0; i < np; i++)
            for (size_t j = i + 1; j < np; j++) {
                a->pair[a->n_pairs][0] = pick[i];
                a->pair[a->n_pairs][1] = pick[j];
                a->n_pairs++;
            }
    }
}

void acc_free(set_acc *a)
{
    free(a->truth);
    free(a->item_cnt);
    free(a->group_cnt);
    free(a->ans_sorted);
    free(a->ans_cnt);
    free(a->pair);
    free(a->pair11);
}

void acc_answer(set_acc *a, const wsel_set_answer *sa)
{
    const wsel_set *set = a->set;
    const wsel_set_odds *so = a->so;
    test *st = a->st;
    /* the answer invariants (the kit's, from the state), then the calculator's figures */
    char why[400];
    if (wsel_kit_weighted_check_truth(set, a->truth, sa, why, sizeof why)) {
        test_violation(st, "%s", why);
        return;
    }
    if (sa->failed != so->failed)
        test_violation(st, "failed flag %d, calculator says %d", sa->failed, so->failed);
    if (a->expect_failed >= 0 && sa->failed != (a->expect_failed != 0))
        test_violation(st, "failed flag %d, the case is built to give %d", sa->failed,
                       a->expect_failed);
    if (sa->ttl != so->ttl)
        test_violation(st, "ttl %u, calculator says %u", sa->ttl, so->ttl);
    uint64_t gmask = 0, pmask = 0;
    for (unsigned k = 0; k < sa->count; k++) {
        uint32_t idx = sa->items[k];
        char lb[160];
        if (so->item_p[idx].p <= 0)
            test_violation(st, "item %s answered but its odds are 0", stats_item_label(set, idx, lb, sizeof lb));
        a->item_cnt[idx]++;
        uint32_t g = set->items[idx].group;
        if (set->mode == WSEL_MODE_GROUPED_SINGLE) {
            if (k == 0 && g < set->n_groups)
                a->group_cnt[g]++;
        } else if (set->mode == WSEL_MODE_GROUPED_MULTI && g < set->n_groups) {
            if (g < 64)
                gmask |= 1ull << g;
            a->group_cnt[g]++;
        }
        if (!a->pairs_on_groups && idx < 64)
            pmask |= 1ull << idx;
    }
    if (a->pairs_on_groups)
        pmask = gmask;
    a->size_cnt[sa->count]++;
    for (size_t i = 0; i < a->n_pairs; i++)
        if ((pmask >> a->pair[i][0] & 1) && (pmask >> a->pair[i][1] & 1))
            a->pair11[i]++;
    if (a->ans_sorted) {
        size_t lo = 0, hi = so->n_answers;
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            int c = wsel_kit_items_cmp(a->ans_sorted[mid]->items, a->ans_sorted[mid]->count, sa->items,
                                  sa->count);
            if (c == 0) {
                a->ans_cnt[mid]++;
                return;
            }
            if (c < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        test_violation(st, "an answer set the calculator gives odds 0 (%u items, first %u)",
                       sa->count, sa->items[0]);
    }
}

/* ---- turning counts into tests ---- */

static void gof_test(test *t, const double *obs, const double *exp, const char *const *labels,
                     size_t n, double N)
{
    wsel_kit_stat r = wsel_kit_chisq_gof(obs, exp, n);
    double pmax = 0;
    for (size_t i = 0; i < n; i++) {
        if (exp[i] / N > pmax && exp[i] < N)
            pmax = exp[i] / N;
        test_row(t, "%s | %.0f | %.2f", labels[i], obs[i], exp[i]);
    }
    if (r.impossible)
        test_violation(t, "%zu draws fell on outcomes with odds 0", r.impossible);
    if (r.df == 0)
        snprintf(t->note, sizeof t->note, "one outcome after merging: nothing to test");
    else
        test_comp(t, "chi2", r, pmax, N);
}

static void binom_comp(test *t, const char *label, uint64_t k, uint64_t N, double p)
{
    if (p <= 0) {
        if (k)
            test_violation(t, "%s: %llu of %llu, odds 0", label, (unsigned long long)k,
                           (unsigned long long)N);
        test_row(t, "%s | %llu | 0 | - | -", label, (unsigned long long)k);
        return;
    }
    if (p >= 1) {
        if (k != N)
            test_violation(t, "%s: %llu of %llu, odds 1", label, (unsigned long long)k,
                           (unsigned long long)N);
        test_row(t, "%s | %llu | %llu | - | -", label, (unsigned long long)k,
                 (unsigned long long)N);
        return;
    }
    wsel_kit_stat r = wsel_kit_binom(k, N, p);
    test_comp(t, label, r, p, (double)N);
    test_row(t, "%s | %llu | %.2f | z=%.3f | p=%.3g", label, (unsigned long long)k, (double)N * p,
             r.stat, r.p);
}

/* gof_test over n outcomes whose arrays (and their label texts, `names`) were allocated
 * for it: frees them after. */
static void gof_owned(test *t, double *obs, double *exp, const char **labels, void *names,
                      size_t n, double dN)
{
    gof_test(t, obs, exp, labels, n, dN);
    free(obs);
    free(exp);
    free(labels);
    free(names);
}

/* The choice among items (cname, ungrouped-single) or groups (grouped-single). */
static void choice_test(set_acc *a, const char *prefix, double dN)
{
    const wsel_set *set = a->set;
    const wsel_set_odds *so = a->so;
    bool groups = set->mode == WSEL_MODE_GROUPED_SINGLE;
    size_t n = groups ? set->n_groups : set->n_items;
    double *obs = stats_xcalloc(n, sizeof *obs), *exp = stats_xcalloc(n, sizeof *exp);
    const char **labels = stats_xcalloc(n, sizeof *labels);
    char (*names)[160] = stats_xcalloc(n, sizeof *names);
    for (size_t i = 0; i < n; i++) {
        obs[i] = (double)(groups ? a->group_cnt[i] : a->item_cnt[i]);
        exp[i] = dN * (double)(groups ? so->group_p[i].p : so->item_p[i].p);
        if (groups)
            snprintf(names[i], sizeof names[i], "%s", set->groups[i].label);
        else
            stats_item_label(set, (uint32_t)i, names[i], sizeof names[i]);
        labels[i] = names[i];
    }
    gof_owned(test_new(F_CHOICE, "%s %s", prefix, groups ? "group-choice" : "choice"), obs, exp,
              labels, names, n, dN);
}

/* Multi and grouped sets: item and group inclusions, and the answer sizes. */
static void inclusion_tests(set_acc *a, const char *prefix, uint64_t N)
{
    const wsel_set *set = a->set;
    const wsel_set_odds *so = a->so;
    char lb[200];
    double dN = (double)N;
    test *t = test_new(F_INCL, "%s inclusion", prefix);
    for (uint32_t i = 0; i < set->n_items; i++)
        binom_comp(t, stats_item_label(set, i, lb, sizeof lb), a->item_cnt[i], N,
                   (double)so->item_p[i].p);
    if (t->nc == 0 && !t->note[0])
        snprintf(t->note, sizeof t->note, "every inclusion is certain: checked exactly");

    if (set->mode == WSEL_MODE_GROUPED_MULTI) {
        t = test_new(F_GROUPS, "%s group-inclusion", prefix);
        for (uint32_t g = 0; g < set->n_groups; g++)
            binom_comp(t, set->groups[g].label, a->group_cnt[g], N, (double)so->group_p[g].p);
        if (t->nc == 0)
            snprintf(t->note, sizeof t->note, "every group inclusion is certain: checked exactly");
    }

    size_t ns = WSEL_ANSWER_MAX + 1;
    double obs[WSEL_ANSWER_MAX + 1], exp[WSEL_ANSWER_MAX + 1];
    char names[WSEL_ANSWER_MAX + 1][8];
    const char *labels[WSEL_ANSWER_MAX + 1];
    for (size_t k = 0; k < ns; k++) {
        obs[k] = (double)a->size_cnt[k];
        exp[k] = k < so->n_sizes ? dN * (double)so->size_p[k] : 0.0;
        snprintf(names[k], sizeof names[k], "%zu", k);
        labels[k] = names[k];
    }
    while (ns > 2 && obs[ns - 1] == 0 && exp[ns - 1] == 0)
        ns--; /* rows past the largest possible size say nothing */
    t = test_new(F_SIZES, "%s sizes", prefix);
    gof_test(t, obs, exp, labels, ns, dN);
}

/* The answer sets, when the odds enumerate at least two. */
static void answer_sets_test(set_acc *a, const char *prefix, double dN)
{
    const wsel_set_odds *so = a->so;
    size_t n = so->n_answers;
    double *o = stats_xcalloc(n, sizeof *o), *e = stats_xcalloc(n, sizeof *e);
    const char **l = stats_xcalloc(n, sizeof *l);
    char (*nm)[96] = stats_xcalloc(n, sizeof *nm);
    for (size_t i = 0; i < n; i++) {
        const wsel_odds_answer *an = a->ans_sorted[i];
        o[i] = (double)a->ans_cnt[i];
        e[i] = dN * (double)an->p.p;
        size_t off = 0;
        for (uint32_t k = 0; k < an->count && off + 8 < sizeof nm[i]; k++)
            off += (size_t)snprintf(nm[i] + off, sizeof nm[i] - off, "%s%u", k ? "," : "{",
                                    an->items[k]);
        snprintf(nm[i] + off, sizeof nm[i] - off, "}");
        l[i] = nm[i];
    }
    gof_owned(test_new(F_ANSWERS, "%s answer-sets", prefix), o, e, l, nm, n, dN);
}

/* Independence of the chosen pairs of items (or groups). */
static void independence_test(set_acc *a, const char *prefix, double dN)
{
    const wsel_set_odds *so = a->so;
    char lb[200];
    test *t = test_new(F_INDEP, "%s independence(%s)", prefix, a->pairs_on_groups ? "groups" : "items");
    for (size_t i = 0; i < a->n_pairs; i++) {
        uint16_t x = a->pair[i][0], y = a->pair[i][1];
        double cx = (double)(a->pairs_on_groups ? a->group_cnt[x] : a->item_cnt[x]);
        double cy = (double)(a->pairs_on_groups ? a->group_cnt[y] : a->item_cnt[y]);
        double px = (double)(a->pairs_on_groups ? so->group_p[x].p : so->item_p[x].p);
        double py = (double)(a->pairs_on_groups ? so->group_p[y].p : so->item_p[y].p);
        double emin = dN * fmin(fmin(px * py, px * (1 - py)), fmin((1 - px) * py, (1 - px) * (1 - py)));
        if (emin < WSEL_KIT_MIN_EXPECTED)
            continue; /* too few draws in a cell for the chi-squared approximation */
        double n11 = (double)a->pair11[i];
        wsel_kit_stat r = wsel_kit_indep2x2(n11, cx - n11, cy - n11, dN - cx - cy + n11);
        snprintf(lb, sizeof lb, "%u&%u", x, y);
        test_comp(t, lb, r, 0, dN);
        test_row(t, "%s | n11=%.0f | %.2f | chi2=%.3f | p=%.3g", lb, n11, cx * cy / dN, r.stat, r.p);
    }
    if (t->nc == 0)
        snprintf(t->note, sizeof t->note, "no pair with every cell expectation >= 5");
}

void set_tests(set_acc *a, const char *prefix, uint64_t N)
{
    const wsel_set *set = a->set;
    const wsel_set_odds *so = a->so;
    char lb[200];
    double dN = (double)N;
    if (a->expect_failed >= 0 && so->failed != (a->expect_failed != 0))
        test_violation(a->st, "calculator: failed %d, the case is built to give %d", so->failed,
                       a->expect_failed);
    if (stats_is_choice(set->mode) || set->mode == WSEL_MODE_GROUPED_SINGLE)
        choice_test(a, prefix, dN);
    if (!stats_is_choice(set->mode)) {
        inclusion_tests(a, prefix, N);
        if (a->ans_sorted && so->n_answers >= 2)
            answer_sets_test(a, prefix, dN);
        if (a->n_pairs)
            independence_test(a, prefix, dN);
    }
    /* certain outcomes hold exactly, whatever the draws */
    for (uint32_t i = 0; i < set->n_items; i++) {
        double p = (double)so->item_p[i].p;
        if (p >= 1 && a->item_cnt[i] != N)
            test_violation(a->st, "item %s has odds 1 but was answered %llu of %llu times",
                           stats_item_label(set, i, lb, sizeof lb), (unsigned long long)a->item_cnt[i],
                           (unsigned long long)N);
    }
}

