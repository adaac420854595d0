/* The ring's scenario (include/wsel/ring.h, doc/ring.md section 11): what the reader
 * (ring_scenario.c) builds and the runner (ring_scenario_run.c) runs. Not installed;
 * the scenario fuzz target reads it to check what the reader promises. */
#ifndef WSEL_CORE_RING_SCENARIO_H
#define WSEL_CORE_RING_SCENARIO_H

#include "wsel/ring.h"
#include "../json.h"

/* What a name of the scenario's resolver answers: SRV if it has SRV entries, else A,
 * else AAAA; or a failure. */
typedef struct wsel__ring_answer {
    const char *name;
    const char *fail;           /* "nxdomain", "servfail", "timeout", or NULL */
    wsel_ring_entry *a, *aaaa, *srv;
    size_t na, naaaa, nsrv;
} wsel__ring_answer;

/* One op: what callers see, and a dns op's answer. */
typedef struct wsel__ring_scenario_op {
    wsel_ring_op pub;
    wsel__ring_answer answer;   /* WSEL_RING_OP_DNS */
    char path[32];              /* "$.ops[N]": pub.path */
} wsel__ring_scenario_op;

/* Every block a scenario owns (strings, arrays), freed with it. */
typedef struct wsel__ring_blocks {
    void **block;
    size_t n, cap;
} wsel__ring_blocks;

struct wsel_ring_scenario {
    char *name;                 /* the file or buffer name, for errors */
    char *text;                 /* the text read (NUL-terminated), kept to place errors */
    size_t len;
    wsel_ring_opts opts;        /* dns empty; order and hosts point into blocks */
    wsel__ring_answer *names;   /* the resolver's table as $.dns gives it */
    size_t n_names;
    wsel__ring_scenario_op *ops;
    size_t n_ops;
    wsel__ring_blocks blocks;
};

/* Fills err with a fault of the scenario at JSON path `at` (NULL: the root), placed at
 * its LINE:COL in the text: code, and the message "PATH: msg". Returns code. */
int wsel__ring_scenario_fail(const wsel_ring_scenario *sc, const wsel__jpath *at, int code,
                             const char *msg, wsel_error *err);

#endif
