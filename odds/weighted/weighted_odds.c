/* The exact-odds calculator: what the page's rules (doc/weighted.md §5) say the answer
 * distribution of a set is. Deliberately shares nothing with ref/ or fast/: it reads
 * the model and the state, and works with probabilities instead of random words, so
 * that tests can hold the engines against it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/weighted/weighted_internal.h"

__extension__ typedef unsigned __int128 wide;

/* An exact rational when ok; otherwise only the long double is meaningful. */
typedef struct rat {
    uint64_t n, d;
    bool ok;
} rat;

static uint64_t gcd64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static rat rat_of(uint64_t n, uint64_t d)
{
    if (d == 0)
        return (rat){ 0, 1, false };
    if (n == 0)
        return (rat){ 0, 1, true };
    uint64_t g = gcd64(n, d);
    return (rat){ n / g, d / g, true };
}

static rat rat_mul(rat a, rat b)
{
    if (!a.ok || !b.ok)
        return (rat){ 0, 1, false };
    if (a.n == 0 || b.n == 0)
        return (rat){ 0, 1, true };
    uint64_t g1 = gcd64(a.n, b.d), g2 = gcd64(b.n, a.d);
    wide n = (wide)(a.n / g1) * (b.n / g2);
    wide d = (wide)(a.d / g2) * (b.d / g1);
    if (n > UINT64_MAX || d > UINT64_MAX)
        return (rat){ 0, 1, false };
    return (rat){ (uint64_t)n, (uint64_t)d, true };
}

/* A probability carried both ways: exactly (when it fits) and as a long double. */
typedef struct pr {
    long double p;
    rat r;
} pr;

static pr pr_frac(uint64_t n, uint64_t d)
{
    return (pr){ d ? (long double)n / (long double)d : 0.0L, rat_of(n, d) };
}

static pr pr_mul(pr a, pr b)
{
    return (pr){ a.p * b.p, rat_mul(a.r, b.r) };
}

static wsel_prob to_prob(pr x)
{
    wsel_prob o = { x.p, x.r.ok, 0, 0 };
    if (x.r.ok) {
        o.num = x.r.n;
        o.den = x.r.d;
    }
    return o;
}

/* Storage behind one wsel_set_odds (its public pointers are const): the per-item
 * arrays in one block that starts with size_p, the enumerated answers and their items
 * in another that starts with answers (set_alloc, enumerate_answers). */
typedef struct set_store {
    uint32_t *dyn;
    bool *up;
    wsel_prob *item_p, *group_p;
    long double *size_p;
    wsel_odds_answer *answers;
    uint16_t *answer_items;
} set_store;

typedef struct odds_box {
    wsel_odds pub; /* first, so a wsel_odds * is the box */
    set_store store[2];
} odds_box;

/* ---- enumeration of answers ------------------------------------------------------- */

/* One independent choice contributing to an answer: pick exactly one option; option k
 * adds item items[k] (or nothing when items[k] < 0) with probability p[k]. The option
 * arrays live in the set's pool (factors_alloc), as many as the factor can have. */
typedef struct factor {
    uint32_t n_opts;
    int32_t *items;
    pr *p;
} factor;

typedef struct enum_ctx {
    wsel_odds_answer *answers;
    uint16_t *items;       /* slab: answer k uses items[k * stride ..] */
    size_t stride, n;
    uint16_t stack[WSEL_MAX_ITEMS];
    bool none_from[WSEL_MAX_ITEMS + 1]; /* every factor from d on can add nothing */
} enum_ctx;

/* The answers are produced in their sorted order (wsel_set_odds.answers), no sort
 * needed: an answer's items are increasing, and every item option of a factor is below
 * every item option of a later factor (each factor covers an item range of its own, in
 * set order). So among the completions of a prefix by factors d.., the one that adds
 * nothing comes first (it is a prefix of every other); then, for d' = d, d+1, ... as
 * long as the factors before d' can add nothing, those whose next item x comes from
 * factor d', x increasing. The prefix-only answer's slot is taken first and filled
 * last, when the walk over d' has multiplied in every factor's nothing-probability.
 * The probabilities are multiplied in factor order, as a plain walk would. */
static void enumerate_from(enum_ctx *c, const factor *f, uint32_t nf, uint32_t depth,
                           uint32_t len, pr acc)
{
    size_t slot = c->none_from[depth] ? c->n++ : SIZE_MAX;
    for (uint32_t d = depth; d < nf; d++) {
        int32_t none = -1;
        for (uint32_t k = 0; k < f[d].n_opts; k++) {
            if (f[d].items[k] < 0) {
                none = (int32_t)k;
                continue;
            }
            c->stack[len] = (uint16_t)f[d].items[k];
            enumerate_from(c, f, nf, d + 1, len + 1, pr_mul(acc, f[d].p[k]));
        }
        if (none < 0)
            break;
        acc = pr_mul(acc, f[d].p[none]);
    }
    if (slot != SIZE_MAX) {
        uint16_t *dst = c->items + slot * c->stride;
        memcpy(dst, c->stack, len * sizeof *dst);
        c->answers[slot] = (wsel_odds_answer){ len, dst, to_prob(acc) };
    }
}

static void enumerate(enum_ctx *c, const factor *f, uint32_t nf, pr acc)
{
    c->none_from[nf] = true;
    for (uint32_t d = nf; d-- > 0;) {
        bool none = false;
        for (uint32_t k = 0; k < f[d].n_opts; k++)
            none = none || f[d].items[k] < 0;
        c->none_from[d] = none && c->none_from[d + 1];
    }
    enumerate_from(c, f, nf, 0, 0, acc);
}

/* Product of option counts, saturating just above the enumeration limit. */
static uint64_t outcomes(const factor *f, uint32_t nf)
{
    uint64_t n = 1;
    for (uint32_t i = 0; i < nf; i++) {
        n *= f[i].n_opts;
        if (n > WSEL_ODDS_MAX_ANSWERS)
            return WSEL_ODDS_MAX_ANSWERS + 1;
    }
    return n;
}

/* Inclusion of one item with probability d/m, as a factor (options with p = 0 left out). */
static void bernoulli_factor(factor *f, int32_t item, uint64_t d, uint64_t m)
{
    f->n_opts = 0;
    if (d > 0) {
        f->items[f->n_opts] = item;
        f->p[f->n_opts++] = pr_frac(d, m);
    }
    if (d < m) {
        f->items[f->n_opts] = -1;
        f->p[f->n_opts++] = pr_frac(m - d, m);
    }
}

/* Poisson-binomial: dist[0..n] = P(k successes) of independent Bernoulli(q[i]). */
static void poisson_binomial(const long double *q, uint32_t n, long double *dist)
{
    dist[0] = 1.0L;
    for (uint32_t k = 1; k <= n; k++)
        dist[k] = 0.0L;
    for (uint32_t i = 0; i < n; i++) {
        for (uint32_t k = i + 1; k >= 1; k--)
            dist[k] = dist[k] * (1.0L - q[i]) + dist[k - 1] * q[i];
        dist[0] *= 1.0L - q[i];
    }
}

static uint64_t max_u64(const uint64_t *v, uint32_t n)
{
    uint64_t m = 0;
    for (uint32_t i = 0; i < n; i++)
        if (v[i] > m)
            m = v[i];
    return m;
}

/* ---- one set ---------------------------------------------------------------------- */

/* What the per-mode steps share: the factors of the answer (one per independent
 * decision), scratch for the Poisson-binomial sizes, group weights, and the count and
 * longest length of the possible answers. */
typedef struct work {
    uint32_t G;                 /* groups (0 in ungrouped sets) */
    uint64_t gw[WSEL_MAX_ITEMS]; /* group weights: sums of their addresses' dynamic weights */
    factor *fac;
    int32_t *opt_items;         /* the factors' option arrays (factors_alloc) */
    pr *opt_p;
    long double *q, *tmp;
    uint64_t count;             /* possible answers, saturated */
    uint32_t max_len;
} work;

/* The result arrays of one set, owned by ss and shown through so: one block, the
 * arrays of the widest elements first (each size a multiple of the next's alignment). */
static int set_alloc(const wsel_set *set, uint32_t G, wsel_set_odds *so, set_store *ss)
{
    size_t n = set->n_items, ng = G ? G : 1;
    _Static_assert(sizeof(long double) % _Alignof(wsel_prob) == 0 &&
                       sizeof(wsel_prob) % _Alignof(uint32_t) == 0,
                   "set_alloc's layout");
    size_t o_item = (n + 1) * sizeof(long double), o_group = o_item + n * sizeof(wsel_prob),
           o_dyn = o_group + ng * sizeof(wsel_prob), o_up = o_dyn + n * sizeof(uint32_t);
    memset(so, 0, sizeof *so);
    so->set = set;
    char *b = calloc(1, o_up + n * sizeof(bool));
    if (!b)
        return WSEL_E_NOMEM;
    so->size_p = ss->size_p = (long double *)(void *)b;
    so->item_p = ss->item_p = (wsel_prob *)(void *)(b + o_item);
    ss->group_p = (wsel_prob *)(void *)(b + o_group);
    so->group_p = G ? ss->group_p : NULL;
    so->dyn_weight = ss->dyn = (uint32_t *)(void *)(b + o_dyn);
    so->up = ss->up = (bool *)(b + o_up);
    return WSEL_OK;
}

/* Monitoring state to dynamic weights: UP/DOWN and TTL per item, the totals, the
 * up_thresh test and its reset. */
static void dynamic_weights(const wsel_set *set, const wsel_state *st, wsel_set_odds *so,
                            set_store *ss)
{
    uint32_t n = set->n_items;
    uint64_t total = 0, dyn_sum = 0;
    uint32_t ttl = WSEL_MAX_TTL;
    for (uint32_t i = 0; i < n; i++) {
        const wsel_item *it = &set->items[i];
        wsel_mstate ms = wsel_state_item(st, set, it);
        ss->up[i] = ms.up;
        if (ms.ttl < ttl)
            ttl = ms.ttl;
        total += it->weight;
        if (ms.up)
            dyn_sum += it->weight;
    }
    so->total = total;
    so->dyn_sum = dyn_sum;
    so->threshold = (uint64_t)ceil((double)total * set->up_thresh);
    so->failed = dyn_sum < so->threshold;
    so->ttl = ttl;
    for (uint32_t i = 0; i < n; i++)
        ss->dyn[i] = (ss->up[i] || so->failed) ? set->items[i].weight : 0;
}

/* The answer of nf independent decisions (factors 0..nf-1, inclusion odds q): its size
 * is Poisson-binomial, its outcomes the product of the factors'. */
static void independent_layer(wsel_set_odds *so, set_store *ss, work *wk, uint32_t nf)
{
    so->n_sizes = nf + 1;
    poisson_binomial(wk->q, nf, ss->size_p);
    wk->count = outcomes(wk->fac, nf);
    wk->max_len = nf;
}

/* cname, ungrouped-single: one CHOOSE among all items. */
static void odds_choose_one(const wsel_set *set, wsel_set_odds *so, set_store *ss, work *wk)
{
    uint32_t n = set->n_items;
    factor *fac = wk->fac;
    uint64_t D = 0;
    for (uint32_t i = 0; i < n; i++)
        D += ss->dyn[i];
    fac[0].n_opts = 0;
    for (uint32_t i = 0; i < n; i++) {
        pr p = pr_frac(ss->dyn[i], D);
        ss->item_p[i] = to_prob(p);
        if (ss->dyn[i]) {
            fac[0].items[fac[0].n_opts] = (int32_t)i;
            fac[0].p[fac[0].n_opts++] = p;
        }
    }
    so->n_sizes = 2;
    ss->size_p[1] = 1.0L;
    wk->count = outcomes(fac, 1);
}

/* ungrouped-multi: one INCLUDE per item against the largest weight. */
static void odds_ungrouped_multi(const wsel_set *set, wsel_set_odds *so, set_store *ss,
                                 work *wk)
{
    uint32_t n = set->n_items;
    uint64_t dv[WSEL_MAX_ITEMS];
    for (uint32_t i = 0; i < n; i++)
        dv[i] = ss->dyn[i];
    uint64_t M = max_u64(dv, n);
    for (uint32_t i = 0; i < n; i++) {
        pr p = pr_frac(dv[i], M);
        ss->item_p[i] = to_prob(p);
        wk->q[i] = p.p;
        bernoulli_factor(&wk->fac[i], (int32_t)i, dv[i], M);
    }
    independent_layer(so, ss, wk, n);
}

/* grouped-single: CHOOSE a group, then INCLUDE each of its addresses. */
static void odds_grouped_single(const wsel_set *set, wsel_set_odds *so, set_store *ss,
                                work *wk)
{
    uint32_t G = wk->G;
    uint64_t D = 0;
    for (uint32_t g = 0; g < G; g++)
        D += wk->gw[g];
    uint32_t A = 0;
    for (uint32_t g = 0; g < G; g++)
        if (set->groups[g].count > A)
            A = set->groups[g].count;
    so->n_sizes = A + 1;
    for (uint32_t g = 0; g < G; g++) {
        const wsel_group *grp = &set->groups[g];
        pr pg = pr_frac(wk->gw[g], D);
        ss->group_p[g] = to_prob(pg);
        uint64_t dv[WSEL_MAX_ITEMS];
        for (uint32_t j = 0; j < grp->count; j++)
            dv[j] = ss->dyn[grp->first + j];
        uint64_t M = max_u64(dv, grp->count);
        for (uint32_t j = 0; j < grp->count; j++) {
            pr p = M ? pr_mul(pg, pr_frac(dv[j], M)) : pr_frac(0, 1);
            ss->item_p[grp->first + j] = to_prob(p);
            wk->q[j] = M ? (long double)dv[j] / (long double)M : 0.0L;
            bernoulli_factor(&wk->fac[j], (int32_t)(grp->first + j), dv[j], M);
        }
        if (wk->gw[g] == 0)
            continue;
        poisson_binomial(wk->q, grp->count, wk->tmp);
        for (uint32_t k = 0; k <= grp->count; k++)
            ss->size_p[k] += pg.p * wk->tmp[k];
        wk->count += outcomes(wk->fac, grp->count);
        if (grp->count > wk->max_len)
            wk->max_len = grp->count;
    }
}

/* grouped-multi: INCLUDE each group against the largest group weight, then CHOOSE one
 * address in each included group. */
static void odds_grouped_multi(const wsel_set *set, wsel_set_odds *so, set_store *ss,
                               work *wk)
{
    uint32_t G = wk->G;
    uint64_t M = max_u64(wk->gw, G);
    for (uint32_t g = 0; g < G; g++) {
        const wsel_group *grp = &set->groups[g];
        uint64_t gwg = wk->gw[g];
        pr pg = pr_frac(gwg, M);
        ss->group_p[g] = to_prob(pg);
        wk->q[g] = pg.p;
        factor *f = &wk->fac[g];
        f->n_opts = 0;
        if (gwg < M) {
            f->items[f->n_opts] = -1;
            f->p[f->n_opts++] = pr_frac(M - gwg, M);
        }
        for (uint32_t j = 0; j < grp->count; j++) {
            uint32_t i = grp->first + j;
            pr p = gwg ? pr_mul(pg, pr_frac(ss->dyn[i], gwg)) : pr_frac(0, 1);
            ss->item_p[i] = to_prob(p);
            if (ss->dyn[i]) {
                f->items[f->n_opts] = (int32_t)i;
                f->p[f->n_opts++] = p;
            }
        }
    }
    independent_layer(so, ss, wk, G);
}

/* Every possible answer with its probability, sorted, when there are few enough. */
static int enumerate_answers(const wsel_set *set, wsel_set_odds *so, set_store *ss,
                             work *wk)
{
    so->enumerable = wk->count <= WSEL_ODDS_MAX_ANSWERS;
    if (!so->enumerable || wk->count == 0)
        return WSEL_OK;
    uint32_t G = wk->G, max_len = wk->max_len;
    factor *fac = wk->fac;
    /* one block: every answer is written below, and of its items slot only the first
     * `count` entries, the ones it shows */
    _Static_assert(sizeof(wsel_odds_answer) % _Alignof(uint16_t) == 0, "answers' layout");
    ss->answers = malloc(wk->count * (sizeof *ss->answers + max_len * sizeof(uint16_t)));
    if (!ss->answers)
        return WSEL_E_NOMEM;
    ss->answer_items = (uint16_t *)(void *)(ss->answers + wk->count);
    enum_ctx c = { .answers = ss->answers, .items = ss->answer_items, .stride = max_len };
    pr one = pr_frac(1, 1);
    if (set->mode == WSEL_MODE_GROUPED_SINGLE) {
        /* the factors were overwritten group by group: rebuild each group's */
        uint64_t D = 0;
        for (uint32_t g = 0; g < G; g++)
            D += wk->gw[g];
        for (uint32_t g = 0; g < G; g++) {
            const wsel_group *grp = &set->groups[g];
            if (wk->gw[g] == 0)
                continue;
            uint64_t M = 0;
            for (uint32_t j = 0; j < grp->count; j++)
                if (ss->dyn[grp->first + j] > M)
                    M = ss->dyn[grp->first + j];
            for (uint32_t j = 0; j < grp->count; j++)
                bernoulli_factor(&fac[j], (int32_t)(grp->first + j),
                                 ss->dyn[grp->first + j], M);
            enumerate(&c, fac, grp->count, pr_frac(wk->gw[g], D));
        }
    } else {
        uint32_t nf = set->mode == WSEL_MODE_UNGROUPED_MULTI ? set->n_items
                      : set->mode == WSEL_MODE_GROUPED_MULTI ? G : 1;
        enumerate(&c, fac, nf, one);
    }
    so->n_answers = (uint32_t)c.n;
    so->answers = ss->answers;
    return WSEL_OK;
}

/* The factors of a set and their options, as many as its mode can use: one CHOOSE of
 * up to n options (cname, ungrouped-single); n INCLUDEs of 2 (ungrouped-multi); per
 * address position of the largest group an INCLUDE of 2, reused group by group
 * (grouped-single); per group an INCLUDE of it or nothing, then a CHOOSE among its
 * addresses: 1 + its size options (grouped-multi). Sized by the set, not by
 * WSEL_MAX_ITEMS: the weighted fuzz targets compute odds for every input. */
static int factors_alloc(const wsel_set *set, work *wk, char *small, size_t small_len)
{
    uint32_t n = set->n_items, nf = 1;
    switch (set->mode) {
    case WSEL_MODE_UNGROUPED_MULTI: nf = n; break;
    case WSEL_MODE_GROUPED_MULTI: nf = wk->G; break;
    case WSEL_MODE_GROUPED_SINGLE:
        for (uint32_t g = 0; g < wk->G; g++)
            if (set->groups[g].count > nf)
                nf = set->groups[g].count;
        break;
    default: break;
    }
    size_t n_opts = 2 * (size_t)n + wk->G + 1; /* at least what any mode assigns below */
    /* one block, the widest elements first: the caller's `small` when it fits (every
     * set of up to 64 items), else allocated (wk->q, which compute_set frees) */
    _Static_assert(sizeof(long double) % _Alignof(pr) == 0 && sizeof(pr) % _Alignof(factor) == 0 &&
                       sizeof(factor) % _Alignof(int32_t) == 0,
                   "factors_alloc's layout");
    size_t o_tmp = (size_t)n * sizeof(long double), o_p = o_tmp + ((size_t)n + 1) * sizeof(long double),
           o_fac = o_p + n_opts * sizeof(pr), o_items = o_fac + (nf ? nf : 1) * sizeof(factor);
    size_t len = o_items + n_opts * sizeof(int32_t);
    char *b = len <= small_len ? memset(small, 0, len) : calloc(1, len);
    if (!b)
        return WSEL_E_NOMEM;
    wk->q = (long double *)(void *)b;
    wk->tmp = (long double *)(void *)(b + o_tmp);
    wk->opt_p = (pr *)(void *)(b + o_p);
    wk->fac = (factor *)(void *)(b + o_fac);
    wk->opt_items = (int32_t *)(void *)(b + o_items);
    size_t used = 0;
    for (uint32_t f = 0; f < nf; f++) {
        uint32_t cap = 2;
        if (set->mode == WSEL_MODE_CNAME || set->mode == WSEL_MODE_UNGROUPED_SINGLE)
            cap = n;
        else if (set->mode == WSEL_MODE_GROUPED_MULTI)
            cap = 1 + set->groups[f].count;
        wk->fac[f].items = wk->opt_items + used;
        wk->fac[f].p = wk->opt_p + used;
        used += cap;
    }
    return WSEL_OK;
}

typedef void (*mode_fn)(const wsel_set *set, wsel_set_odds *so, set_store *ss, work *wk);
static const mode_fn by_mode[] = {
    [WSEL_MODE_CNAME] = odds_choose_one,
    [WSEL_MODE_UNGROUPED_SINGLE] = odds_choose_one,
    [WSEL_MODE_UNGROUPED_MULTI] = odds_ungrouped_multi,
    [WSEL_MODE_GROUPED_SINGLE] = odds_grouped_single,
    [WSEL_MODE_GROUPED_MULTI] = odds_grouped_multi,
};

static int compute_set(const wsel_set *set, const wsel_state *st, wsel_set_odds *so,
                       set_store *ss)
{
    if (wsel__set_problem(set))
        return WSEL_E_ARG;
    work wk = { .G = set->grouped ? set->n_groups : 0, .max_len = 1 };
    int rc = set_alloc(set, wk.G, so, ss);
    if (rc != WSEL_OK)
        return rc;
    dynamic_weights(set, st, so, ss);
    for (uint32_t g = 0; g < wk.G; g++)
        for (uint32_t j = 0; j < set->groups[g].count; j++)
            wk.gw[g] += ss->dyn[set->groups[g].first + j];

    union {
        long double align;
        char b[16384];
    } small;
    rc = factors_alloc(set, &wk, small.b, sizeof small.b);
    if (rc == WSEL_OK) {
        by_mode[set->mode](set, so, ss, &wk); /* a valid set's mode has an entry */
        rc = enumerate_answers(set, so, ss, &wk);
    }
    if ((char *)wk.q != small.b)
        free(wk.q);
    return rc;
}

void wsel_odds_free(wsel_odds *o)
{
    if (!o)
        return;
    odds_box *box = (odds_box *)o;
    for (int s = 0; s < 2; s++) {
        set_store *ss = &box->store[s];
        free(ss->size_p);
        free(ss->answers);
    }
    free(box);
}

int wsel_odds_compute(const wsel_resource *res, const wsel_state *st, wsel_odds **out,
                      wsel_error *err)
{
    if (out)
        *out = NULL;
    if (!res || !out || res->n_sets < 1 || res->n_sets > 2)
        return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, res ? res->name : NULL, NULL, NULL,
                          "wsel_odds_compute: a resource with one or two sets and an "
                          "output pointer are required");
    odds_box *box = calloc(1, sizeof *box);
    if (!box)
        return wsel__fail(err, WSEL_E_NOMEM, NULL, 0, 0, res->name, NULL, NULL,
                          "out of memory");
    box->pub.resource = res;
    box->pub.n_sets = res->n_sets;
    for (uint32_t s = 0; s < res->n_sets; s++) {
        int rc = compute_set(&res->sets[s], st, &box->pub.sets[s], &box->store[s]);
        if (rc) {
            wsel_odds_free(&box->pub);
            return wsel__fail(err, rc, NULL, 0, 0, res->name, res->sets[s].stanza, NULL,
                              rc == WSEL_E_NOMEM ? "out of memory computing odds"
                                                 : "invalid set: %s",
                              wsel__set_problem(&res->sets[s]));
        }
    }
    *out = &box->pub;
    return WSEL_OK;
}
