/* The boundary family: each weighted decision fed the words at its edges, where the
 * contract fixes the outcome exactly (statistics alone cannot see a map that is wrong
 * on a few words in 2^64: word % D, an edge off by one word). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "families.h"
#include "kit/kit.h"
#include "kit/kit_weighted.h"

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
    int rc = stats_resolve(p->rv, p->res, p->st, rng, &p->ans);
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

/* One weighted set under test: its words start at p->f.w + base, v[] its dynamic weights,
 * nw its words per query. */
typedef struct boundary_set_ctx {
    probe_ctx *p;
    uint32_t s;
    size_t base;
    const wsel_set *set;
    const uint64_t *v;
    uint64_t *w;
    size_t nw;
} boundary_set_ctx;

/* cname and ungrouped-single: each item at its first and last CHOOSE word. */
static void boundary_choice(const boundary_set_ctx *b)
{
    char lb[160];
    const wsel_set_answer *a;
    for (uint32_t i = 0; i < b->set->n_items; i++) {
        if (!b->v[i])
            continue;
        uint64_t lo, hi;
        choose_range(b->v, b->set->n_items, i, &lo, &hi);
        uint64_t probe_w[2] = { lo, hi };
        for (int e = 0; e < 2; e++) {
            b->w[0] = probe_w[e];
            if ((a = probe(b->p, b->s)) && (a->count != 1 || a->items[0] != i))
                test_violation(b->p->t, "word %#llx should choose %s (%s edge)",
                               (unsigned long long)b->w[0],
                               stats_item_label(b->set, i, lb, sizeof lb),
                               e ? "last" : "first");
        }
    }
}

/* ungrouped-multi: each item at its last included and first excluded word, replayed
 * and planted in the default generator. */
static void boundary_multi(const boundary_set_ctx *b)
{
    char lb[160];
    const wsel_set_answer *a;
    uint32_t n = b->set->n_items;
    uint64_t *w = b->w;
    uint64_t M = 0;
    for (uint32_t i = 0; i < n; i++)
        M = b->v[i] > M ? b->v[i] : M;
    for (uint32_t i = 0; i < n; i++)
        for (int in = 0; in < 2; in++) {
            for (size_t j = 0; j < b->nw; j++)
                w[j] = UINT64_MAX;
            if (!include_edge(b->v[i], M, in, &w[i]))
                continue;
            for (int via = 0; via < 2; via++) {
                a = via ? probe_planted(b->p, b->s, b->base + i, w[i]) : probe(b->p, b->s);
                if (a && has_item(a, i) != in)
                    test_violation(b->p->t, "word %#llx%s should %s %s (weight %llu of max %llu)",
                                   (unsigned long long)w[i], via ? " (from the generator)" : "",
                                   in ? "include" : "exclude",
                                   stats_item_label(b->set, i, lb, sizeof lb),
                                   (unsigned long long)b->v[i], (unsigned long long)M);
            }
        }
}

/* grouped-single: each group at its CHOOSE edges, then each address of it at its
 * INCLUDE edges within the group. */
static void boundary_grouped_single(const boundary_set_ctx *b, const uint64_t *gv)
{
    char lb[160];
    const wsel_set_answer *a;
    const wsel_set *set = b->set;
    uint64_t *w = b->w;
    for (uint32_t g = 0; g < set->n_groups; g++) {
        if (!gv[g])
            continue;
        const wsel_group *grp = &set->groups[g];
        uint64_t lo, hi;
        choose_range(gv, set->n_groups, g, &lo, &hi);
        uint64_t probe_w[2] = { lo, hi };
        for (int e = 0; e < 2; e++) {
            for (size_t j = 0; j < b->nw; j++)
                w[j] = 0;
            w[0] = probe_w[e];
            if ((a = probe(b->p, b->s)) && (a->count < 1 || !has_group(set, a, g)))
                test_violation(b->p->t, "word %#llx should choose group %s (%s edge)",
                               (unsigned long long)w[0], grp->label, e ? "last" : "first");
        }
        uint64_t M = 0;
        for (uint32_t j = 0; j < grp->count; j++)
            M = b->v[grp->first + j] > M ? b->v[grp->first + j] : M;
        for (uint32_t j = 0; j < grp->count; j++)
            for (int in = 0; in < 2; in++) {
                for (size_t k = 0; k < b->nw; k++)
                    w[k] = UINT64_MAX;
                w[0] = lo;
                if (!include_edge(b->v[grp->first + j], M, in, &w[1 + j]))
                    continue;
                if ((a = probe(b->p, b->s)) && has_item(a, grp->first + j) != in)
                    test_violation(b->p->t, "word %#llx should %s %s",
                                   (unsigned long long)w[1 + j], in ? "include" : "exclude",
                                   stats_item_label(set, grp->first + j, lb, sizeof lb));
            }
    }
}

/* grouped-multi: each group at its INCLUDE edges, then each address of an included
 * group at its CHOOSE edges within the group. */
static void boundary_grouped_multi(const boundary_set_ctx *b, const uint64_t *gv, uint64_t GM)
{
    char lb[160];
    const wsel_set_answer *a;
    const wsel_set *set = b->set;
    uint32_t G = set->n_groups;
    uint64_t *w = b->w;
    for (uint32_t g = 0; g < G; g++) {
        const wsel_group *grp = &set->groups[g];
        for (int in = 0; in < 2; in++) {
            for (size_t k = 0; k < b->nw; k++)
                w[k] = UINT64_MAX;
            if (!include_edge(gv[g], GM, in, &w[g]))
                continue;
            if ((a = probe(b->p, b->s)) && has_group(set, a, g) != in)
                test_violation(b->p->t, "word %#llx should %s group %s (weight %llu of max %llu)",
                               (unsigned long long)w[g], in ? "include" : "exclude", grp->label,
                               (unsigned long long)gv[g], (unsigned long long)GM);
        }
        if (!gv[g])
            continue;
        for (uint32_t j = 0; j < grp->count; j++) {
            if (!b->v[grp->first + j])
                continue;
            uint64_t lo, hi;
            choose_range(b->v + grp->first, grp->count, j, &lo, &hi);
            uint64_t probe_w[2] = { lo, hi };
            for (int e = 0; e < 2; e++) {
                for (size_t k = 0; k < b->nw; k++)
                    w[k] = UINT64_MAX;
                w[g] = 0; /* group g is in (its weight is not 0) */
                w[G + g] = probe_w[e];
                if ((a = probe(b->p, b->s)) && !has_item(a, grp->first + j))
                    test_violation(b->p->t, "word %#llx should choose %s within its group (%s edge)",
                                   (unsigned long long)w[G + g],
                                   stats_item_label(set, grp->first + j, lb, sizeof lb),
                                   e ? "last" : "first");
            }
        }
    }
}

static void boundary_set(probe_ctx *p, uint32_t s, size_t base, const wsel_set_odds *so)
{
    const wsel_set *set = so->set;
    uint64_t v[WSEL_MAX_ITEMS * WSEL_MAX_ITEMS];
    for (uint32_t i = 0; i < set->n_items; i++)
        v[i] = so->dyn_weight[i];
    boundary_set_ctx b = { p, s, base, set, v, p->f.w + base, wsel_set_words(set) };
    if (stats_is_choice(set->mode)) {
        boundary_choice(&b);
        return;
    }
    if (set->mode == WSEL_MODE_UNGROUPED_MULTI) {
        boundary_multi(&b);
        return;
    }
    uint64_t gv[WSEL_MAX_ITEMS];
    uint64_t GM = 0;
    for (uint32_t g = 0; g < set->n_groups; g++) {
        gv[g] = 0;
        for (uint32_t j = 0; j < set->groups[g].count; j++)
            gv[g] += v[set->groups[g].first + j];
        GM = gv[g] > GM ? gv[g] : GM;
    }
    if (set->mode == WSEL_MODE_GROUPED_SINGLE)
        boundary_grouped_single(&b, gv);
    else
        boundary_grouped_multi(&b, gv, GM);
}

void boundary_run(const char *prefix, const wsel_resolver *rv, const wsel_resource *res,
                         const wsel_state *st, const wsel_odds *od)
{
    probe_ctx *p = stats_xcalloc(1, sizeof *p);
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

