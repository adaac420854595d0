/* Shared helpers for wsel's tests (linked into every tests/test_*.c program).
 *
 *   replay rng      an array-backed wsel_rng that hands out given words in order
 *   counting rng    wraps another wsel_rng and counts the words drawn
 *   loaders         config text -> wsel_config, failing the current cmocka test on error
 *   generator       seeded random *valid* stanza config text covering every mode
 *   random state    seeded random DOWN/TTL patterns for a config
 *
 * Include after <cmocka.h> is not required; support.c includes cmocka itself. */
#ifndef WSEL_TEST_SUPPORT_H
#define WSEL_TEST_SUPPORT_H

#include <stdio.h>

#include "wsel.h"

/* ---- random sources -------------------------------------------------------------- */

/* Replays words[0..n-1]; requests past the end are served as 0 and counted in overrun. */
typedef struct wsel_test_replay {
    const uint64_t *words;
    size_t n, pos;
    size_t overrun;
} wsel_test_replay;

wsel_rng wsel_test_replay_rng(wsel_test_replay *r, const uint64_t *words, size_t n);

/* Forwards to `inner`, counting words and fill calls. */
typedef struct wsel_test_counter {
    wsel_rng inner;
    uint64_t words, calls;
} wsel_test_counter;

wsel_rng wsel_test_counting_rng(wsel_test_counter *c, wsel_rng inner);

/* splitmix64 step: a tiny independent generator for test-side randomness. */
uint64_t wsel_test_mix(uint64_t *state);
/* Uniform in [lo, hi] (inclusive), from wsel_test_mix. */
uint64_t wsel_test_range(uint64_t *state, uint64_t lo, uint64_t hi);

/* Puts the default generator p in a state (random, from `state`) whose next words have
 * `word` at position i (0-based), the first k (0..3) of them coming from its buffer:
 * the direct paths that draw from a wsel_prng can then be probed at chosen words, as
 * replayed words probe the others. Every other word is pseudo-random. */
void wsel_test_prng_plant(wsel_prng *p, uint64_t *state, unsigned k, size_t i, uint64_t word);

/* True when running under valgrind (its preload library is in LD_PRELOAD), so long
 * statistical loops can shrink to keep VALGRIND=1 runs within minutes. */
bool wsel_test_under_valgrind(void);

/* ---- loading ---------------------------------------------------------------------- */

/* Loads `text` as a stanza-only config (the contents of plugins => { weighted => {...} })
 * with $include{} disabled. On failure the current cmocka test fails with the formatted
 * error (so it never returns NULL inside a test). Free with wsel_config_free(). */
wsel_config *wsel_test_load(const char *text);
/* Same, with an explicit input kind (WSEL_INPUT_WHOLE / _STANZA / _AUTO). */
wsel_config *wsel_test_load_as(const char *text, wsel_input input);
/* Non-asserting: returns the status; *out is NULL on failure, err filled. */
int wsel_test_try_load(const char *text, wsel_input input, wsel_config **out,
                       wsel_error *err);
/* examples/synopsis.conf, the page's synopsis as a whole config. The directory holding
 * `examples/` is $WSEL_SRCDIR when set, else the current directory, else "..". */
wsel_config *wsel_test_load_synopsis(void);
/* Path of a file below the source root (see above); returns a static buffer. */
const char *wsel_test_srcpath(const char *rel);

/* ---- random config text ----------------------------------------------------------- */

/* Service type names the generator may use (besides the built-in "up"); NULL-ended.
 * Stanza-only configs accept any names, so no top-level service_types hash is needed. */
extern const char *const wsel_test_gen_services[];

typedef struct wsel_test_gen_opts {
    unsigned resources;     /* resources per config; 0 = random 1..6 */
    unsigned max_items;     /* items per set cap, 1..64; 0 = 64 */
    unsigned max_group;     /* addresses per group cap, 1..64; 0 = 64 */
    int mode;               /* force a wsel_mode for every set; -1 = any (default if opts NULL) */
    bool no_services;       /* only the built-in `up` (never DOWN) */
    bool no_explicit;       /* no addrs_v4/addrs_v6 resources */
    bool max_shape;         /* every set at the caps: max_items items, or max_items
                               groups of max_group addresses (64 x 64 by default) */
} wsel_test_gen_opts;

/* A valid stanza-only config text, deterministic in `seed`. Covers CNAMEs and the four
 * address modes, both families, explicit addrs_v4/addrs_v6 with per-stanza parameters,
 * inherited parameters, 1..64 items and 1..64 addresses per group (biased small, with
 * the extremes), weights 1..1048575 (often 1 or 1048575), up_thresh values from 0.001
 * to 1 including 0.07 and 1, duplicate addresses and upper-case IPv6 text.
 * Returns malloc'ed text (free()), or NULL when out of memory. */
char *wsel_test_gen_config(uint64_t seed, const wsel_test_gen_opts *opts);

/* ---- random state ------------------------------------------------------------------ */

/* For every item key of cfg and every non-built-in service of its set: DOWN with
 * probability p_down, else UP; TTL random in 0..WSEL_MAX_TTL (or WSEL_MAX_TTL when
 * random_ttl is false). Deterministic in seed. Fails the current test on error. */
void wsel_test_random_state(wsel_state *st, const wsel_config *cfg, uint64_t seed,
                            double p_down, bool random_ttl);

/* ---- monitoring state ------------------------------------------------------------- */

/* The combined state of item i of the first set of resource `name` (fails the current
 * test when there is no such item). */
wsel_mstate wsel_test_item_state(const wsel_state *st, const wsel_config *cfg,
                                 const char *name, unsigned i);
/* Asserts a state: UP-ness and TTL. */
#define WSEL_ASSERT_MS(ms, u, t)                                                       \
    do {                                                                               \
        wsel_mstate m_ = (ms);                                                         \
        assert_int_equal(m_.up, (u));                                                  \
        assert_int_equal(m_.ttl, (t));                                                 \
    } while (0)

/* Writes an answer as text: "a,b,c|d,e F ttl" -- item labels per set joined by ',',
 * sets separated by '|', then 'F' if failed else '-', then the TTL. */
void wsel_test_format_answer(const wsel_resource *res, const wsel_answer *ans, char *buf,
                             size_t len);

#endif
