/* One case, every engine: draw answers with the default generator and compare the
 * counts with the exact-odds calculator; then drive the same resource with an
 * equidistributed word stream, where the random-word contract fixes the counts of
 * every single-word decision to within one; then feed each decision the words at its
 * edges, where the contract fixes the outcome exactly. Statistics alone cannot see a
 * map that is wrong on a few words in 2^64 (word % D, an edge off by one word). */
#include "run.h"

#include "kit/kit.h"
#include "kit/kit_weighted.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PAIR_ITEMS 12   /* pairwise independence: all pairs among this many uncertain items */

static void *xcalloc(size_t n, size_t s)
{
    void *p = calloc(n ? n : 1, s);
    if (!p) {
        fprintf(stderr, "wsel-stats: out of memory\n");
        exit(2);
    }
    return p;
}

static uint64_t hash_str(uint64_t h, const char *s)
{
    for (; *s; s++)
        h = wsel_kit_mix64(h ^ (unsigned char)*s);
    return h;
}

static bool is_choice_mode(wsel_mode m)
{
    return m == WSEL_MODE_CNAME || m == WSEL_MODE_UNGROUPED_SINGLE;
}

/* ---- answers of the calculator, in our own order for lookup ---- */

static int ans_cmp_items(const uint16_t *a, uint32_t na, const uint16_t *b, uint32_t nb)
{
    uint32_t n = na < nb ? na : nb;
    for (uint32_t i = 0; i < n; i++)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    return (na > nb) - (na < nb);
}

static int ans_qcmp(const void *x, const void *y)
{
    const wsel_odds_answer *a = *(const wsel_odds_answer *const *)x;
    const wsel_odds_answer *b = *(const wsel_odds_answer *const *)y;
    return ans_cmp_items(a->items, a->count, b->items, b->count);
}

/* ---- per-set accumulation ---- */

typedef struct set_acc {
    const wsel_set *set;
    const wsel_set_odds *so;
    uint64_t *item_cnt, *group_cnt;
    uint64_t size_cnt[WSEL_ANSWER_MAX + 2];
    const wsel_odds_answer **ans_sorted;   /* so->answers ordered by ans_qcmp */
    uint64_t *ans_cnt;                     /* indexed like ans_sorted */
    size_t n_pairs;
    uint16_t (*pair)[2];
    uint64_t *pair11;
    bool pairs_on_groups;
    test *st;                              /* structure test: violations go there */
    int expect_failed;
} set_acc;

static void acc_init(set_acc *a, const wsel_set *set, const wsel_set_odds *so, test *st,
                     int expect_failed)
{
    memset(a, 0, sizeof *a);
    a->set = set;
    a->so = so;
    a->st = st;
    a->expect_failed = expect_failed;
    a->item_cnt = xcalloc(set->n_items, sizeof *a->item_cnt);
    a->group_cnt = xcalloc(set->n_groups, sizeof *a->group_cnt);
    if (so->enumerable && so->n_answers) {
        a->ans_sorted = xcalloc(so->n_answers, sizeof *a->ans_sorted);
        a->ans_cnt = xcalloc(so->n_answers, sizeof *a->ans_cnt);
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
        a->pair = xcalloc(np * (np - 1) / 2, sizeof *a->pair);
        a->pair11 = xcalloc(np * (np - 1) / 2, sizeof *a->pair11);
        for (size_t i = 0; i < np; i++)
            for (size_t j = i + 1; j < np; j++) {
                a->pair[a->n_pairs][0] = pick[i];
                a->pair[a->n_pairs][1] = pick[j];
                a->n_pairs++;
            }
    }
}

static void acc_free(set_acc *a)
{
    free(a->item_cnt);
    free(a->group_cnt);
    free(a->ans_sorted);
    free(a->ans_cnt);
    free(a->pair);
    free(a->pair11);
}

static const char *item_label(const wsel_set *set, uint32_t i, char *buf, size_t len)
{
    const wsel_item *it = &set->items[i];
    if (set->grouped)
        snprintf(buf, len, "%s/%s", set->groups[it->group].label, it->label);
    else
        snprintf(buf, len, "%s", it->label);
    return buf;
}

static void acc_answer(set_acc *a, const wsel_set_answer *sa)
{
    const wsel_set *set = a->set;
    const wsel_set_odds *so = a->so;
    test *st = a->st;
    if (sa->count < 1 || sa->count > WSEL_ANSWER_MAX) {
        test_violation(st, "answer with %u items (expected 1..%u)", sa->count, WSEL_ANSWER_MAX);
        return;
    }
    if (sa->failed != so->failed)
        test_violation(st, "failed flag %d, calculator says %d", sa->failed, so->failed);
    if (a->expect_failed >= 0 && sa->failed != (a->expect_failed != 0))
        test_violation(st, "failed flag %d, the case is built to give %d", sa->failed,
                       a->expect_failed);
    if (sa->ttl != so->ttl)
        test_violation(st, "ttl %u, calculator says %u", sa->ttl, so->ttl);
    if (is_choice_mode(set->mode) && sa->count != 1)
        test_violation(st, "%s answer with %u items", wsel_mode_name(set->mode), sa->count);
    int prev = -1;
    uint64_t gmask = 0, pmask = 0;
    uint32_t g0 = 0;
    for (unsigned k = 0; k < sa->count; k++) {
        uint32_t idx = sa->items[k];
        if (idx >= set->n_items) {
            test_violation(st, "item index %u out of range (%u items)", idx, set->n_items);
            return;
        }
        if ((int)idx <= prev) {
            test_violation(st, "items not in config order (%d then %u)", prev, idx);
            return;
        }
        prev = (int)idx;
        char lb[160];
        if (so->item_p[idx].p <= 0)
            test_violation(st, "item %s answered but its odds are 0", item_label(set, idx, lb, sizeof lb));
        a->item_cnt[idx]++;
        uint32_t g = set->items[idx].group;
        if (set->mode == WSEL_MODE_GROUPED_SINGLE) {
            if (k == 0) {
                g0 = g;
                if (g < set->n_groups)
                    a->group_cnt[g]++;
            } else if (g != g0) {
                test_violation(st, "grouped-single answer mixes groups %u and %u", g0, g);
            }
        } else if (set->mode == WSEL_MODE_GROUPED_MULTI && g < set->n_groups) {
            if (g < 64 && (gmask >> g & 1))
                test_violation(st, "grouped-multi answer has two addresses of group %u", g);
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
            int c = ans_cmp_items(a->ans_sorted[mid]->items, a->ans_sorted[mid]->count, sa->items,
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

static void set_tests(set_acc *a, const char *prefix, uint64_t N)
{
    const wsel_set *set = a->set;
    const wsel_set_odds *so = a->so;
    char lb[200];
    double dN = (double)N;
    if (a->expect_failed >= 0 && so->failed != (a->expect_failed != 0))
        test_violation(a->st, "calculator: failed %d, the case is built to give %d", so->failed,
                       a->expect_failed);

    if (is_choice_mode(set->mode) || set->mode == WSEL_MODE_GROUPED_SINGLE) {
        bool groups = set->mode == WSEL_MODE_GROUPED_SINGLE;
        size_t n = groups ? set->n_groups : set->n_items;
        double *obs = xcalloc(n, sizeof *obs), *exp = xcalloc(n, sizeof *exp);
        const char **labels = xcalloc(n, sizeof *labels);
        char (*names)[160] = xcalloc(n, sizeof *names);
        for (size_t i = 0; i < n; i++) {
            obs[i] = (double)(groups ? a->group_cnt[i] : a->item_cnt[i]);
            exp[i] = dN * (double)(groups ? so->group_p[i].p : so->item_p[i].p);
            if (groups)
                snprintf(names[i], sizeof names[i], "%s", set->groups[i].label);
            else
                item_label(set, (uint32_t)i, names[i], sizeof names[i]);
            labels[i] = names[i];
        }
        test *t = test_new(F_CHOICE, "%s %s", prefix, groups ? "group-choice" : "choice");
        gof_test(t, obs, exp, labels, n, dN);
        free(obs);
        free(exp);
        free(labels);
        free(names);
    }
    if (!is_choice_mode(set->mode)) {
        test *t = test_new(F_INCL, "%s inclusion", prefix);
        for (uint32_t i = 0; i < set->n_items; i++)
            binom_comp(t, item_label(set, i, lb, sizeof lb), a->item_cnt[i], N,
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

        if (a->ans_sorted && so->n_answers >= 2) {
            size_t n = so->n_answers;
            double *o = xcalloc(n, sizeof *o), *e = xcalloc(n, sizeof *e);
            const char **l = xcalloc(n, sizeof *l);
            char (*nm)[96] = xcalloc(n, sizeof *nm);
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
            t = test_new(F_ANSWERS, "%s answer-sets", prefix);
            gof_test(t, o, e, l, n, dN);
            free(o);
            free(e);
            free(l);
            free(nm);
        }

        if (a->n_pairs) {
            t = test_new(F_INDEP, "%s independence(%s)", prefix, a->pairs_on_groups ? "groups" : "items");
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
    }
    /* certain outcomes hold exactly, whatever the draws */
    for (uint32_t i = 0; i < set->n_items; i++) {
        double p = (double)so->item_p[i].p;
        if (p >= 1 && a->item_cnt[i] != N)
            test_violation(a->st, "item %s has odds 1 but was answered %llu of %llu times",
                           item_label(set, i, lb, sizeof lb), (unsigned long long)a->item_cnt[i],
                           (unsigned long long)N);
    }
}

/* ---- the equidistributed word stream ---- */

typedef struct lat_rng {
    uint64_t t, W;
    unsigned logn;
    uint64_t mult[WSEL_WORDS_MAX], off[WSEL_WORDS_MAX];
} lat_rng;

/* Query q's word j is (q * mult[j] mod 2^logn) * 2^(64-logn) + off[j]: over 2^logn
 * queries each word position takes every point of an evenly spaced grid exactly once,
 * so each single-word decision lands on its outcome within one of N * odds. */
static void lat_fill(void *ctx, uint64_t *out, size_t n)
{
    lat_rng *L = ctx;
    uint64_t mask = (1ull << L->logn) - 1;
    for (size_t i = 0; i < n; i++, L->t++) {
        uint64_t q = L->t / L->W, j = L->t % L->W;
        uint64_t k = (q * L->mult[j]) & mask;
        out[i] = (k << (64 - L->logn)) + L->off[j];
    }
}

__extension__ typedef unsigned __int128 u128;

static bool lattice_ok(uint64_t cnt, uint64_t N, const wsel_prob *p)
{
    if (p->exact && p->den) {
        /* |cnt - N num/den| < 1  <=>  |cnt*den - N*num| < den, in 128 bits */
        u128 a = (u128)cnt * p->den, b = (u128)N * p->num;
        u128 d = a > b ? a - b : b - a;
        return d < p->den;
    }
    long double e = (long double)N * p->p;
    return fabsl((long double)cnt - e) < 1.0L + 1e-6L;
}

static int resolve_any(const wsel_resolver *r, const wsel_resource *res, const wsel_state *st,
                       wsel_rng *rng, wsel_answer *ans)
{
    if (!r)
        return wsel_ref_resolve(res, st, rng, ans);
    return wsel_resolve(r, res, rng, ans);
}

static void lattice_run(const char *prefix, const wsel_resolver *rv, const wsel_resource *res,
                        const wsel_state *st, const wsel_odds *od, unsigned logn, uint64_t seed)
{
    test *t = test_new(F_LATTICE, "%s lattice", prefix);
    lat_rng *L = xcalloc(1, sizeof *L);
    L->W = wsel_resource_words(res);
    L->logn = logn;
    if (L->W == 0 || L->W > WSEL_WORDS_MAX) {
        test_violation(t, "wsel_resource_words = %llu", (unsigned long long)L->W);
        free(L);
        return;
    }
    for (uint64_t j = 0; j < L->W; j++) {
        L->mult[j] = wsel_kit_mix64(seed ^ (j * 0x632be59bd9b4e019u)) | 1;
        L->off[j] = wsel_kit_mix64(seed + j) >> logn;
    }
    wsel_rng rng = { lat_fill, L };
    uint64_t N = 1ull << logn;
    uint64_t *cnt[2];
    for (uint32_t s = 0; s < od->n_sets; s++) {
        const wsel_set *set = od->sets[s].set;
        cnt[s] = xcalloc(set->n_items > set->n_groups ? set->n_items : set->n_groups, sizeof *cnt[s]);
    }
    wsel_answer ans;
    for (uint64_t q = 0; q < N; q++) {
        memset(&ans, 0, sizeof ans);
        int rc = resolve_any(rv, res, st, &rng, &ans);
        if (rc != WSEL_OK) {
            test_violation(t, "resolve returned %d", rc);
            break;
        }
        if (L->t != (q + 1) * L->W) {
            test_violation(t, "query %llu consumed %llu words; the contract says %llu",
                           (unsigned long long)q, (unsigned long long)(L->t - q * L->W),
                           (unsigned long long)L->W);
            L->t = (q + 1) * L->W;
        }
        if (ans.n_sets != od->n_sets)
            continue;
        for (uint32_t s = 0; s < od->n_sets; s++) {
            const wsel_set *set = od->sets[s].set;
            const wsel_set_answer *sa = &ans.set[s];
            for (unsigned k = 0; k < sa->count && k < WSEL_ANSWER_MAX; k++) {
                uint32_t idx = sa->items[k];
                if (idx >= set->n_items)
                    continue;
                if (set->grouped) {
                    if (k == 0 || set->mode == WSEL_MODE_GROUPED_MULTI)
                        cnt[s][set->items[idx].group]++;
                } else {
                    cnt[s][idx]++;
                }
            }
        }
    }
    char lb[160];
    for (uint32_t s = 0; s < od->n_sets; s++) {
        const wsel_set *set = od->sets[s].set;
        const wsel_set_odds *so = &od->sets[s];
        bool groups = set->grouped;
        size_t n = groups ? set->n_groups : set->n_items;
        for (size_t i = 0; i < n; i++) {
            const wsel_prob *p = groups ? &so->group_p[i] : &so->item_p[i];
            const char *name = groups ? set->groups[i].label : item_label(set, (uint32_t)i, lb, sizeof lb);
            test_row(t, "%s%s | %llu | %.3Lf", set->stanza ? set->stanza : "", name,
                     (unsigned long long)cnt[s][i], (long double)N * p->p);
            if (!lattice_ok(cnt[s][i], N, p))
                test_violation(t, "%s%s%s: %llu of %llu equidistributed queries; exact odds give %.3Lf",
                               set->stanza ? set->stanza : "", set->stanza ? ":" : "", name,
                               (unsigned long long)cnt[s][i], (unsigned long long)N,
                               (long double)N * p->p);
        }
        free(cnt[s]);
    }
    free(L);
}


/* ---- words at the edges of every decision ---- */

/* First and last word that CHOOSE maps to member i of weights v (v[i] > 0). */
static void choose_range(const uint64_t *v, uint32_t k, uint32_t i, uint64_t *lo, uint64_t *hi)
{
    uint64_t D = 0, c = 0;
    for (uint32_t j = 0; j < k; j++)
        D += v[j];
    for (uint32_t j = 0; j < i; j++)
        c += v[j];
    if (!wsel_kit_edge(c, D, lo))
        *lo = UINT64_MAX;
    uint64_t e;
    *hi = wsel_kit_edge(c + v[i], D, &e) ? e - 1 : UINT64_MAX;
}

typedef struct probe_ctx {
    test *t;
    const wsel_resolver *rv;
    const wsel_resource *res;
    const wsel_state *st;
    wsel_kit_fixed f;
    wsel_answer ans;
    size_t probes;
    uint64_t plant_rs; /* test-side randomness for wsel_kit_prng_plant */
} probe_ctx;

/* One query from `rng`; set s of the answer, or NULL (a violation is recorded). */
static const wsel_set_answer *probe_rng(probe_ctx *p, uint32_t s, wsel_rng *rng)
{
    p->probes++;
    memset(&p->ans, 0, sizeof p->ans);
    int rc = resolve_any(p->rv, p->res, p->st, rng, &p->ans);
    if (rc != WSEL_OK || p->ans.n_sets <= s) {
        test_violation(p->t, "resolve returned %d", rc);
        return NULL;
    }
    return &p->ans.set[s];
}

/* The query fed the words of p->f. */
static const wsel_set_answer *probe(probe_ctx *p, uint32_t s)
{
    p->f.used = 0;
    wsel_rng rng = wsel_kit_fixed_rng(&p->f);
    return probe_rng(p, s, &rng);
}

/* The same decision through the default generator (whose direct paths -- the AVX2
 * kernel's fused draw of ungrouped-multi -- replayed words never reach): `word` planted
 * at position i of a wsel_prng's stream, after 0..3 buffered words; the rest random. */
static const wsel_set_answer *probe_planted(probe_ctx *p, uint32_t s, size_t i, uint64_t word)
{
    wsel_prng g;
    wsel_kit_prng_plant(&g, &p->plant_rs, (unsigned)(p->probes % 4), i, word);
    wsel_rng rng = wsel_prng_rng(&g);
    return probe_rng(p, s, &rng);
}

static bool has_item(const wsel_set_answer *a, uint32_t idx)
{
    for (unsigned k = 0; k < a->count && k < WSEL_ANSWER_MAX; k++)
        if (a->items[k] == idx)
            return true;
    return false;
}

static bool has_group(const wsel_set *set, const wsel_set_answer *a, uint32_t g)
{
    for (unsigned k = 0; k < a->count && k < WSEL_ANSWER_MAX; k++)
        if (a->items[k] < set->n_items && set->items[a->items[k]].group == g)
            return true;
    return false;
}

/* Word that INCLUDE with weight v in a layer of max M maps to `in` (true: the last
 * word included; false: the first word excluded). False when no such word exists. */
static bool include_edge(uint64_t v, uint64_t M, bool in, uint64_t *w)
{
    if (v == 0) {
        *w = 0;
        return !in;
    }
    if (v >= M) {
        *w = UINT64_MAX;
        return in;
    }
    uint64_t b = 0;
    wsel_kit_edge(v, M, &b); /* v < M: below 2^64 */
    *w = in ? b - 1 : b;
    return true;
}

static void boundary_set(probe_ctx *p, uint32_t s, size_t base, const wsel_set_odds *so)
{
    const wsel_set *set = so->set;
    uint64_t v[WSEL_MAX_ITEMS * WSEL_MAX_ITEMS];
    uint64_t *w = p->f.w + base;
    char lb[160];
    uint32_t n = set->n_items;
    for (uint32_t i = 0; i < n; i++)
        v[i] = so->dyn_weight[i];
    size_t nw = wsel_set_words(set);
    const wsel_set_answer *a;

    if (is_choice_mode(set->mode)) {
        for (uint32_t i = 0; i < n; i++) {
            if (!v[i])
                continue;
            uint64_t lo, hi;
            choose_range(v, n, i, &lo, &hi);
            uint64_t probe_w[2] = { lo, hi };
            for (int e = 0; e < 2; e++) {
                w[0] = probe_w[e];
                if ((a = probe(p, s)) && (a->count != 1 || a->items[0] != i))
                    test_violation(p->t, "word %#llx should choose %s (%s edge)",
                                   (unsigned long long)w[0], item_label(set, i, lb, sizeof lb),
                                   e ? "last" : "first");
            }
        }
        return;
    }
    if (set->mode == WSEL_MODE_UNGROUPED_MULTI) {
        uint64_t M = 0;
        for (uint32_t i = 0; i < n; i++)
            M = v[i] > M ? v[i] : M;
        for (uint32_t i = 0; i < n; i++)
            for (int in = 0; in < 2; in++) {
                for (size_t j = 0; j < nw; j++)
                    w[j] = UINT64_MAX;
                if (!include_edge(v[i], M, in, &w[i]))
                    continue;
                for (int via = 0; via < 2; via++) {
                    a = via ? probe_planted(p, s, base + i, w[i]) : probe(p, s);
                    if (a && has_item(a, i) != in)
                        test_violation(p->t, "word %#llx%s should %s %s (weight %llu of max %llu)",
                                       (unsigned long long)w[i], via ? " (from the generator)" : "",
                                       in ? "include" : "exclude",
                                       item_label(set, i, lb, sizeof lb), (unsigned long long)v[i],
                                       (unsigned long long)M);
                }
            }
        return;
    }
    uint32_t G = set->n_groups;
    uint64_t gv[WSEL_MAX_ITEMS];
    uint64_t GM = 0;
    for (uint32_t g = 0; g < G; g++) {
        gv[g] = 0;
        for (uint32_t j = 0; j < set->groups[g].count; j++)
            gv[g] += v[set->groups[g].first + j];
        GM = gv[g] > GM ? gv[g] : GM;
    }
    if (set->mode == WSEL_MODE_GROUPED_SINGLE) {
        for (uint32_t g = 0; g < G; g++) {
            if (!gv[g])
                continue;
            const wsel_group *grp = &set->groups[g];
            uint64_t lo, hi;
            choose_range(gv, G, g, &lo, &hi);
            uint64_t probe_w[2] = { lo, hi };
            for (int e = 0; e < 2; e++) {
                for (size_t j = 0; j < nw; j++)
                    w[j] = 0;
                w[0] = probe_w[e];
                if ((a = probe(p, s)) && (a->count < 1 || !has_group(set, a, g)))
                    test_violation(p->t, "word %#llx should choose group %s (%s edge)",
                                   (unsigned long long)w[0], grp->label, e ? "last" : "first");
            }
            uint64_t M = 0;
            for (uint32_t j = 0; j < grp->count; j++)
                M = v[grp->first + j] > M ? v[grp->first + j] : M;
            for (uint32_t j = 0; j < grp->count; j++)
                for (int in = 0; in < 2; in++) {
                    for (size_t k = 0; k < nw; k++)
                        w[k] = UINT64_MAX;
                    w[0] = lo;
                    if (!include_edge(v[grp->first + j], M, in, &w[1 + j]))
                        continue;
                    if ((a = probe(p, s)) && has_item(a, grp->first + j) != in)
                        test_violation(p->t, "word %#llx should %s %s", (unsigned long long)w[1 + j],
                                       in ? "include" : "exclude",
                                       item_label(set, grp->first + j, lb, sizeof lb));
                }
        }
        return;
    }
    /* grouped multi */
    for (uint32_t g = 0; g < G; g++) {
        const wsel_group *grp = &set->groups[g];
        for (int in = 0; in < 2; in++) {
            for (size_t k = 0; k < nw; k++)
                w[k] = UINT64_MAX;
            if (!include_edge(gv[g], GM, in, &w[g]))
                continue;
            if ((a = probe(p, s)) && has_group(set, a, g) != in)
                test_violation(p->t, "word %#llx should %s group %s (weight %llu of max %llu)",
                               (unsigned long long)w[g], in ? "include" : "exclude", grp->label,
                               (unsigned long long)gv[g], (unsigned long long)GM);
        }
        if (!gv[g])
            continue;
        for (uint32_t j = 0; j < grp->count; j++) {
            if (!v[grp->first + j])
                continue;
            uint64_t lo, hi;
            choose_range(v + grp->first, grp->count, j, &lo, &hi);
            uint64_t probe_w[2] = { lo, hi };
            for (int e = 0; e < 2; e++) {
                for (size_t k = 0; k < nw; k++)
                    w[k] = UINT64_MAX;
                w[g] = 0; /* group g is in (its weight is not 0) */
                w[G + g] = probe_w[e];
                if ((a = probe(p, s)) && !has_item(a, grp->first + j))
                    test_violation(p->t, "word %#llx should choose %s within its group (%s edge)",
                                   (unsigned long long)w[G + g],
                                   item_label(set, grp->first + j, lb, sizeof lb), e ? "last" : "first");
            }
        }
    }
}

static void boundary_run(const char *prefix, const wsel_resolver *rv, const wsel_resource *res,
                         const wsel_state *st, const wsel_odds *od)
{
    probe_ctx *p = xcalloc(1, sizeof *p);
    p->t = test_new(F_BOUNDARY, "%s boundary", prefix);
    p->rv = rv;
    p->res = res;
    p->st = st;
    p->f.n = wsel_resource_words(res);
    p->plant_rs = p->f.n;
    if (p->f.n > WSEL_WORDS_MAX) {
        test_violation(p->t, "wsel_resource_words = %zu", p->f.n);
        free(p);
        return;
    }
    size_t base = 0;
    for (uint32_t s = 0; s < od->n_sets; s++) {
        memset(p->f.w, 0, sizeof p->f.w);
        boundary_set(p, s, base, &od->sets[s]);
        base += wsel_set_words(od->sets[s].set);
    }
    snprintf(p->t->note, sizeof p->t->note, "%zu probes at decision edges", p->probes);
    free(p);
}

/* ---- one case ---- */

static void plot_data(const run_opts *o, const stat_case *c, const wsel_resource *res,
                      const wsel_odds *od, double **freq, size_t ne)
{
    char path[1024], base[256];
    snprintf(base, sizeof base, "%s-%s", c->name, res->name);
    for (char *p = base; *p; p++)
        if (*p == '/' || *p == ' ')
            *p = '_';
    snprintf(path, sizeof path, "%s/%s.dat", o->report_dir, base);
    FILE *f = fopen(path, "w");
    if (!f)
        return;
    size_t rows = 0, off = 0;
    char lb[200];
    fprintf(f, "# item expected");
    for (size_t e = 0; e < ne; e++)
        fprintf(f, " %s", o->engines[e]);
    fprintf(f, "\n");
    for (uint32_t s = 0; s < od->n_sets; s++) {
        const wsel_set *set = od->sets[s].set;
        for (uint32_t i = 0; i < set->n_items; i++, off++) {
            if (rows++ >= 128)
                continue; /* a plot of thousands of bars shows nothing */
            item_label(set, i, lb, sizeof lb);
            fprintf(f, "\"%s%s%s\" %.6Lg", set->stanza ? set->stanza : "", set->stanza ? ":" : "", lb,
                    od->sets[s].item_p[i].p);
            for (size_t e = 0; e < ne; e++)
                fprintf(f, " %.6g", freq[e][off]);
            fprintf(f, "\n");
        }
    }
    fclose(f);
    snprintf(path, sizeof path, "%s/%s.gp", o->report_dir, base);
    f = fopen(path, "w");
    if (!f)
        return;
    fprintf(f, "set terminal png size 1100,480\nset output '%s.png'\n", base);
    fprintf(f, "set title \"%s: how often each item is in the answer%s\" noenhanced\n", base,
            rows > 128 ? " (first 128 items)" : "");
    fprintf(f, "set style data histograms\nset style histogram clustered gap 1\n"
               "set style fill solid 0.8 border -1\nset boxwidth 0.9\nset key outside right\n"
               "set xtics rotate by -60 noenhanced font ',7'\nset yrange [0:*]\n"
               "set ylabel 'frequency (answers containing the item / draws)'\n");
    fprintf(f, "plot '%s.dat' using 2:xtic(1) title 'expected (calculator)'", base);
    for (size_t e = 0; e < ne; e++)
        fprintf(f, ", '' using %zu title '%s'", e + 3, o->engines[e]);
    fprintf(f, "\n");
    fclose(f);
    if (o->plots)
        fprintf(o->plots, "%s\n", base);
}

static void run_resource(const stat_case *c, const run_opts *o, const wsel_config *cfg,
                         const wsel_state *st, const wsel_resource *res)
{
    char pfx[200];
    wsel_error err;
    wsel_odds *od = NULL;
    if (wsel_odds_compute(res, st, &od, &err) != WSEL_OK) {
        test *t = test_new(F_STRUCT, "%s:%s odds", c->name, res->name);
        test_violation(t, "wsel_odds_compute: %s", err.message);
        return;
    }
    if (c->n_hand) {
        test *t = test_new(F_STRUCT, "%s:%s calculator vs the page's worked odds", c->name, res->name);
        const wsel_set_odds *so = &od->sets[0];
        if (od->n_sets != 1 || so->set->n_items != c->n_hand)
            test_violation(t, "expected one set of %zu items", c->n_hand);
        for (size_t i = 0; i < c->n_hand && od->n_sets == 1 && i < so->set->n_items; i++) {
            test_row(t, "%s | %.6Lf | %.6f", so->set->items[i].label, so->item_p[i].p, c->hand_p[i]);
            if (fabsl(so->item_p[i].p - (long double)c->hand_p[i]) > 1e-12L)
                test_violation(t, "item %zu: calculator %.9Lf, page %.9f", i, so->item_p[i].p, c->hand_p[i]);
        }
    }
    uint64_t N = (uint64_t)((double)o->draws * c->draws);
    size_t total_items = 0;
    for (uint32_t s = 0; s < od->n_sets; s++)
        total_items += od->sets[s].set->n_items;
    double *freq[WSEL_KIT_MAX_VARIANTS];
    for (size_t e = 0; e < o->n_engines; e++) {
        const char *ename = o->engines[e];
        freq[e] = xcalloc(total_items, sizeof *freq[e]);
        wsel_resolver *rv = NULL;
        if (strcmp(ename, "ref") != 0) { /* ref: the reference function itself */
            if (wsel_kit_resolver_new(cfg, st, ename, &rv, &err) != WSEL_OK) {
                test *t = test_new(F_STRUCT, "%s %s:%s resolver", ename, c->name, res->name);
                test_violation(t, "wsel_resolver_new: %s", err.message);
                continue;
            }
        }
        snprintf(pfx, sizeof pfx, "%s %s:%s", ename, c->name, res->name);
        test *st_test = test_new(F_STRUCT, "%s structure", pfx);
        set_acc acc[2];
        for (uint32_t s = 0; s < od->n_sets; s++)
            acc_init(&acc[s], od->sets[s].set, &od->sets[s], st_test, c->expect_failed);
        wsel_prng prng;
        wsel_prng_seed(&prng, hash_str(hash_str(o->seed, pfx), "draws"));
        wsel_rng rng = wsel_prng_rng(&prng);
        wsel_answer ans;
        for (uint64_t q = 0; q < N; q++) {
            int rc = resolve_any(rv, res, st, &rng, &ans);
            if (rc != WSEL_OK) {
                test_violation(st_test, "resolve returned %d (%s)", rc, wsel_strerror(rc));
                break;
            }
            if (ans.n_sets != od->n_sets) {
                test_violation(st_test, "answer has %u sets, resource has %u", ans.n_sets, od->n_sets);
                continue;
            }
            uint32_t ttl = UINT32_MAX;
            bool failed = false;
            for (uint32_t s = 0; s < od->n_sets; s++) {
                acc_answer(&acc[s], &ans.set[s]);
                ttl = ans.set[s].ttl < ttl ? ans.set[s].ttl : ttl;
                failed = failed || ans.set[s].failed;
            }
            if (ans.ttl != ttl || ans.failed != failed)
                test_violation(st_test, "answer ttl/failed %u/%d, its sets give %u/%d", ans.ttl,
                               ans.failed, ttl, failed);
        }
        size_t off = 0;
        for (uint32_t s = 0; s < od->n_sets; s++) {
            char spfx[260];
            const wsel_set *set = od->sets[s].set;
            snprintf(spfx, sizeof spfx, "%s%s%s", pfx, set->stanza ? "/" : "", set->stanza ? set->stanza : "");
            set_tests(&acc[s], spfx, N);
            for (uint32_t i = 0; i < set->n_items; i++)
                freq[e][off++] = N ? (double)acc[s].item_cnt[i] / (double)N : 0.0;
            acc_free(&acc[s]);
        }
        lattice_run(pfx, rv, res, st, od, o->lattice_log, hash_str(o->seed, pfx));
        boundary_run(pfx, rv, res, st, od);
        if (rv)
            wsel_resolver_free(rv);
    }
    if (o->report_dir)
        plot_data(o, c, res, od, freq, o->n_engines);
    for (size_t e = 0; e < o->n_engines; e++)
        free(freq[e]);
    wsel_odds_free(od);
}

static int stats_fail(wsel_error *err, const char *msg)
{
    wsel_error_clear(err);
    err->code = WSEL_E_ARG;
    snprintf(err->message, sizeof err->message, "%s", msg);
    return WSEL_E_ARG;
}

int run_case(const stat_case *c, const run_opts *o)
{
    wsel_config *cfg = NULL;
    wsel_state *st = NULL;
    wsel_error err;
    int rc;
    char *gen = c->support_gen ? wsel_kit_weighted_gen_config(c->gen_seed, NULL) : NULL;
    const char *text = gen ? gen : c->text;
    if (c->file)
        rc = wsel_config_load_file(c->file, NULL, &cfg, &err);
    else if (text)
        rc = wsel_config_load_buffer(text, strlen(text), c->name, NULL, &cfg, &err);
    else
        rc = stats_fail(&err, "no config text (out of memory?)");
    free(gen);
    if (rc == WSEL_OK)
        rc = wsel_state_new(cfg, &st, &err);
    if (rc == WSEL_OK && c->support_gen)
        rc = wsel_kit_weighted_random_state(st, cfg, c->gen_seed, c->p_down, true, &err);
    for (size_t i = 0; rc == WSEL_OK && i < c->n_marks; i++) {
        const case_mark *m = &c->marks[i];
        size_t matched = 0;
        rc = wsel_state_set(st, m->service[0] ? m->service : NULL, m->key, m->up, m->ttl, &matched, &err);
        if (rc == WSEL_OK && matched == 0) {
            rc = WSEL_E_STATE;
            snprintf(err.message, sizeof err.message, "state key %s matched no item", m->key);
        }
    }
    if (rc != WSEL_OK) {
        char buf[1200];
        test *t = test_new(F_STRUCT, "%s setup", c->name);
        test_violation(t, "%s", wsel_error_format(&err, buf, sizeof buf));
        wsel_state_free(st);
        wsel_config_free(cfg);
        return -1;
    }
    size_t nr = wsel_config_resource_count(cfg);
    for (size_t i = 0; i < nr; i++) {
        const wsel_resource *res = wsel_config_resource(cfg, i);
        if (c->resource && strcmp(c->resource, res->name) != 0)
            continue;
        run_resource(c, o, cfg, st, res);
    }
    wsel_state_free(st);
    wsel_config_free(cfg);
    return 0;
}
