/* bin/wsel: whole-resource answers shared by explain and sample. */
#ifndef WSEL_CLI_ANSWERS_H
#define WSEL_CLI_ANSWERS_H

#include "weighted_cli.h"

/* One answer of a whole resource: per set, the index into that set's odds answers. */
typedef struct cli_combo {
    uint32_t idx[2];
    long double p;           /* product of the sets' probabilities (sets draw independently) */
    bool exact;
    uint64_t num, den;
} cli_combo;

/* A resource answer as item lists per set (v4 first). */
typedef struct cli_ans {
    uint32_t n_sets;
    uint32_t count[2];
    const uint16_t *items[2];
} cli_ans;

/* The whole-resource answer distribution when every set is enumerable and the product
 * has at most WSEL_ODDS_MAX_ANSWERS outcomes: returns 1 and a malloc'ed list (v4 answer
 * major, so the list is in lexicographic order); 0 when not enumerable; -1 on ENOMEM. */
int cli_combine(const wsel_odds *o, cli_combo **out, size_t *n);
void cli_combo_ans(const wsel_odds *o, const cli_combo *c, cli_ans *a);

/* "labels": [...], "addresses": [...] inside the current JSON object. */
void cli_json_ans(wsel__jw *j, const wsel_resource *res, const cli_ans *a);
/* "label label  [address address]" */
void cli_print_ans(FILE *f, const wsel_resource *res, const cli_ans *a);
/* "0.25 (1/4)" */
void cli_print_prob(FILE *f, const wsel_prob *p);
/* key: "num/den" or null */
void cli_json_exact(wsel__jw *j, const char *key, bool exact, uint64_t num, uint64_t den);

/* P(the resource answers exactly `a`), computed from the per-set odds by the page's
 * rules; for answers of sets too large to enumerate. */
long double cli_answer_p(const wsel_odds *o, const cli_ans *a);

#endif
