/* The cases the conformance suite runs: configs (as text or a file), the monitoring
 * state to apply, and what is known about them by construction. */
#ifndef WSEL_STATS_WEIGHTED_CASES_H
#define WSEL_STATS_WEIGHTED_CASES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct case_mark {
    char service[32];   /* "" = every non-built-in service type of the config */
    char key[64];       /* address or CNAME */
    bool up;
    uint32_t ttl;
} case_mark;

#define CASE_MAX_MARKS 4200

typedef struct stat_case {
    char name[96];
    char *text;             /* config text, or NULL when `file` is set */
    const char *file;
    const char *resource;   /* the resource to test; NULL = every resource */
    size_t n_marks;
    case_mark *marks;
    int expect_failed;      /* -1: not fixed by construction; else every set's flag */
    double draws;           /* multiplier of the base draw count */
    bool support_gen;       /* config text from the kit's weighted generator (gen_seed), */
    uint64_t gen_seed;      /* with its random DOWN/TTL state at odds p_down */
    double p_down;
    size_t n_hand;          /* item odds worked out by hand from the page (all UP) */
    double hand_p[8];
} stat_case;

/* Builds every case. `gen_count` generated configs from `seed`. Returns the count. */
size_t cases_build(stat_case **out, uint64_t seed, unsigned gen_count);
void cases_free(stat_case *cases, size_t n);

#endif
