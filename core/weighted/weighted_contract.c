/* The random-word contract's bookkeeping and the answer comparison every engine, test and
 * tool shares (resolve.h): how many words a query consumes, and when two answers are
 * the same. */
#include "../internal.h"

size_t wsel_set_words(const wsel_set *set)
{
    if (!set)
        return 0;
    switch (set->mode) {
    case WSEL_MODE_CNAME:
    case WSEL_MODE_UNGROUPED_SINGLE:
        return 1;
    case WSEL_MODE_UNGROUPED_MULTI:
        return set->n_items;
    case WSEL_MODE_GROUPED_SINGLE:
        return 1 + (size_t)set->max_group;
    case WSEL_MODE_GROUPED_MULTI:
        return 2 * (size_t)set->n_groups;
    }
    return 0;
}

size_t wsel_resource_words(const wsel_resource *res)
{
    size_t n = 0;
    if (!res)
        return 0;
    for (uint32_t s = 0; s < res->n_sets; s++)
        n += wsel_set_words(&res->sets[s]);
    return n;
}

bool wsel_answer_equal(const wsel_answer *a, const wsel_answer *b)
{
    if (!a || !b)
        return a == b;
    if (a->n_sets != b->n_sets || a->ttl != b->ttl || a->failed != b->failed)
        return false;
    if (a->n_sets > 2)
        return false;
    for (uint32_t s = 0; s < a->n_sets; s++) {
        const wsel_set_answer *x = &a->set[s], *y = &b->set[s];
        if (x->ttl != y->ttl || x->failed != y->failed || x->count != y->count)
            return false;
        if (x->count > WSEL_ANSWER_MAX)
            return false;
        for (unsigned i = 0; i < x->count; i++)
            if (x->items[i] != y->items[i])
                return false;
    }
    return true;
}
