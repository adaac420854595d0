/* bin/wsel: whole-resource answers -- combining the per-set distributions of a
 * resource with two sets, and printing an answer's labels and addresses. */
#include <stdlib.h>
#include <string.h>

#include "weighted_answers.h"

static uint64_t gcd64(uint64_t a, uint64_t b)
{
    return b ? gcd64(b, a % b) : a;
}

/* Exact product of two fractions when it fits in 64 bits (after reducing). */
static bool mul_frac(const wsel_prob *x, const wsel_prob *y, uint64_t *num, uint64_t *den)
{
    if (!x->exact || !y->exact || x->den == 0 || y->den == 0)
        return false;
    uint64_t a = x->num, b = x->den, c = y->num, d = y->den;
    uint64_t g = gcd64(a, d);
    if (g > 1) {
        a /= g;
        d /= g;
    }
    g = gcd64(c, b);
    if (g > 1) {
        c /= g;
        b /= g;
    }
    if ((a && c > UINT64_MAX / a) || (b && d > UINT64_MAX / b))
        return false;
    *num = a * c;
    *den = b * d;
    return true;
}

int cli_combine(const wsel_odds *o, cli_combo **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    size_t total = 1;
    for (uint32_t s = 0; s < o->n_sets; s++) {
        if (!o->sets[s].enumerable || o->sets[s].n_answers == 0)
            return 0;
        total *= o->sets[s].n_answers;
        if (total > WSEL_ODDS_MAX_ANSWERS)
            return 0;
    }
    cli_combo *c = calloc(total, sizeof *c);
    if (!c)
        return -1;
    for (size_t k = 0; k < total; k++) {
        size_t rest = k;
        c[k].p = 1;
        c[k].exact = true;
        c[k].num = 1;
        c[k].den = 1;
        /* v4 set is the major index, so the list stays in lexicographic order. */
        for (uint32_t s = o->n_sets; s-- > 0;) {
            uint32_t na = o->sets[s].n_answers;
            c[k].idx[s] = (uint32_t)(rest % na);
            rest /= na;
        }
        for (uint32_t s = 0; s < o->n_sets; s++) {
            const wsel_prob *p = &o->sets[s].answers[c[k].idx[s]].p;
            c[k].p *= p->p;
            if (c[k].exact) {
                wsel_prob acc = {.p = 0, .exact = true, .num = c[k].num, .den = c[k].den};
                c[k].exact = mul_frac(&acc, p, &c[k].num, &c[k].den);
            }
        }
    }
    *out = c;
    *n = total;
    return 1;
}

void cli_combo_ans(const wsel_odds *o, const cli_combo *c, cli_ans *a)
{
    a->n_sets = o->n_sets;
    for (uint32_t s = 0; s < o->n_sets; s++) {
        const wsel_odds_answer *oa = &o->sets[s].answers[c->idx[s]];
        a->count[s] = oa->count;
        a->items[s] = oa->items;
    }
}

void cli_json_ans(wsel__jw *j, const wsel_resource *res, const cli_ans *a)
{
    char path[600];
    wsel__jw_karr_begin(j, "labels");
    for (uint32_t s = 0; s < a->n_sets; s++) {
        const wsel_set *set = &res->sets[s];
        for (uint32_t i = 0; i < a->count[s]; i++)
            wsel__jw_str(j, cli_item_path(set, &set->items[a->items[s][i]], path, sizeof path));
    }
    wsel__jw_arr_end(j);
    wsel__jw_karr_begin(j, "addresses");
    for (uint32_t s = 0; s < a->n_sets; s++) {
        const wsel_set *set = &res->sets[s];
        for (uint32_t i = 0; i < a->count[s]; i++)
            wsel__jw_str(j, set->items[a->items[s][i]].value);
    }
    wsel__jw_arr_end(j);
}

void cli_print_ans(FILE *f, const wsel_resource *res, const cli_ans *a)
{
    char path[600];
    const char *sep = "";
    for (uint32_t s = 0; s < a->n_sets; s++) {
        const wsel_set *set = &res->sets[s];
        for (uint32_t i = 0; i < a->count[s]; i++) {
            fputs(sep, f);
            wsel__escape_put(f, cli_item_path(set, &set->items[a->items[s][i]], path,
                                             sizeof path));
            sep = " ";
        }
    }
    fputs("  [", f);
    sep = "";
    for (uint32_t s = 0; s < a->n_sets; s++) {
        const wsel_set *set = &res->sets[s];
        for (uint32_t i = 0; i < a->count[s]; i++) {
            fputs(sep, f);
            wsel__escape_put(f, set->items[a->items[s][i]].value);
            sep = " ";
        }
    }
    fputc(']', f);
}

void cli_print_prob(FILE *f, const wsel_prob *p)
{
    fprintf(f, "%.17g", (double)p->p);
    if (p->exact)
        fprintf(f, " (%llu/%llu)", (unsigned long long)p->num, (unsigned long long)p->den);
}

void cli_json_exact(wsel__jw *j, const char *key, bool exact, uint64_t num, uint64_t den)
{
    char buf[64];
    wsel__jw_key(j, key);
    if (!exact) {
        wsel__jw_null(j);
        return;
    }
    snprintf(buf, sizeof buf, "%llu/%llu", (unsigned long long)num, (unsigned long long)den);
    wsel__jw_str(j, buf);
}

/* P(one set answers exactly `items`), straight from the page's rules applied to the
 * dynamic weights (after any reset) the odds calculator reports. Used to give an
 * expected count to answers drawn from sets too large to enumerate. */
static long double set_answer_p(const wsel_set_odds *so, const uint16_t *items, uint32_t count)
{
    const wsel_set *set = so->set;
    uint32_t n = set->n_items;
    bool in[WSEL_MAX_ITEMS * WSEL_MAX_ITEMS] = {false};
    if (n > WSEL_MAX_ITEMS * WSEL_MAX_ITEMS)
        return 0;
    for (uint32_t i = 0; i < count; i++) {
        if (items[i] >= n || in[items[i]])
            return 0;
        in[items[i]] = true;
    }
    switch (set->mode) {
    case WSEL_MODE_CNAME:
    case WSEL_MODE_UNGROUPED_SINGLE:
        return count == 1 ? so->item_p[items[0]].p : 0;
    case WSEL_MODE_UNGROUPED_MULTI: {
        long double p = 1;
        for (uint32_t i = 0; i < n; i++)
            p *= in[i] ? so->item_p[i].p : 1 - so->item_p[i].p;
        return p;
    }
    case WSEL_MODE_GROUPED_SINGLE: {
        if (count == 0)
            return 0;
        uint32_t g = set->items[items[0]].group;
        const wsel_group *gr = &set->groups[g];
        uint32_t max = 0;
        for (uint32_t i = gr->first; i < gr->first + gr->count; i++)
            if (so->dyn_weight[i] > max)
                max = so->dyn_weight[i];
        for (uint32_t i = 0; i < count; i++)
            if (set->items[items[i]].group != g)
                return 0;
        if (max == 0)
            return 0;
        long double p = so->group_p[g].p;
        for (uint32_t i = gr->first; i < gr->first + gr->count; i++) {
            long double q = (long double)so->dyn_weight[i] / max;
            p *= in[i] ? q : 1 - q;
        }
        return p;
    }
    case WSEL_MODE_GROUPED_MULTI: {
        long double p = 1;
        for (uint32_t g = 0; g < set->n_groups; g++) {
            const wsel_group *gr = &set->groups[g];
            uint64_t sum = 0;
            uint32_t chosen = 0, pick = 0;
            for (uint32_t i = gr->first; i < gr->first + gr->count; i++) {
                sum += so->dyn_weight[i];
                if (in[i]) {
                    chosen++;
                    pick = i;
                }
            }
            if (chosen > 1)
                return 0;
            if (chosen == 0)
                p *= 1 - so->group_p[g].p;
            else if (sum == 0)
                return 0;
            else
                p *= so->group_p[g].p * so->dyn_weight[pick] / (long double)sum;
        }
        return p;
    }
    }
    return 0;
}

long double cli_answer_p(const wsel_odds *o, const cli_ans *a)
{
    long double p = 1;
    if (a->n_sets != o->n_sets)
        return 0;
    for (uint32_t s = 0; s < o->n_sets; s++)
        p *= set_answer_p(&o->sets[s], a->items[s], a->count[s]);
    return p;
}
