/* wsel: the exact-odds calculator.
 *
 * Computes, for a resource under a monitoring state, what the page's rules say the
 * answer distribution is. It is written independently of the resolvers (it never calls
 * them), so tests can hold the engines against it. */
#ifndef WSEL_ODDS_H
#define WSEL_ODDS_H

#include "state.h"

#ifdef __cplusplus
extern "C" {
#endif

#define WSEL_ODDS_MAX_ANSWERS 4096u

/* A probability: p always; num/den too when exact (the value is exactly num/den). */
typedef struct wsel_prob {
    long double p;
    bool exact;
    uint64_t num, den;
} wsel_prob;

/* One possible answer of a set: `count` flat item indices in config order. */
typedef struct wsel_odds_answer {
    uint32_t count;
    const uint16_t *items;
    wsel_prob p;
} wsel_odds_answer;

typedef struct wsel_set_odds {
    const wsel_set *set;
    uint64_t total;              /* T */
    uint64_t dyn_sum;            /* sum of dynamic weights before any reset */
    uint64_t threshold;          /* ceil((double)T * up_thresh), computed here independently */
    bool failed;                 /* dyn_sum < threshold: weights were reset */
    uint32_t ttl;                /* smallest combined TTL over every item */
    const uint32_t *dyn_weight;  /* per item, after any reset */
    const bool *up;              /* per item, combined state */
    const wsel_prob *item_p;     /* per item: probability it is in the answer */
    const wsel_prob *group_p;    /* per group (grouped sets): single: chosen; multi: included */
    uint32_t n_sizes;            /* size_p[k], k = 0 .. n_sizes-1: P(answer has k items) */
    const long double *size_p;
    bool enumerable;             /* at most WSEL_ODDS_MAX_ANSWERS possible answers */
    uint32_t n_answers;          /* possible answers (p > 0) when enumerable, else 0 */
    const wsel_odds_answer *answers; /* sorted by items lexicographically */
} wsel_set_odds;

typedef struct wsel_odds {
    const wsel_resource *resource;
    uint32_t n_sets;
    wsel_set_odds sets[2];
} wsel_odds;

/* Odds of `res` under `st`; st may be NULL, meaning every item UP with WSEL_MAX_TTL. */
WSEL_API int wsel_odds_compute(const wsel_resource *res, const wsel_state *st,
                               wsel_odds **out, wsel_error *err);
WSEL_API void wsel_odds_free(wsel_odds *o);

#ifdef __cplusplus
}
#endif
#endif
