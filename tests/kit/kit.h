/* wsel's verification kit: what tests/, stats/, fuzz/ and bench/ share (bin/wsel does
 * not link it: what `wsel sample` needs too is the library's, tests/kit/README.md).
 *
 * A small library of its own ($(BUILD)/libwsel-kit.a, mk/kit.mk) that links no test
 * framework: it never fails a test itself, it returns a status or a reason string, and
 * each tool turns that into its own kind of failure (tests/support wraps it for cmocka).
 *
 *   random sources   replay, fixed and counting wsel_rng; splitmix64 for test-side
 *                    randomness; planting a word in the default generator
 *   boundary words   ceil(c * 2^64 / D), the first word of a CHOOSE bucket / INCLUDE no
 *   text             a growable string, answers as text
 *   variants         the engine variants this build and CPU can run, by name
 *   systems          one wsel_kit_system per line of core/systems.def (kit_system.h)
 *   statistics       kit_stat.h */
#ifndef WSEL_KIT_H
#define WSEL_KIT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wsel.h"

/* ---- random sources -------------------------------------------------------------- */

/* Replays words[0..n-1]; requests past the end are served as 0 and counted in overrun. */
typedef struct wsel_kit_replay {
    const uint64_t *words;
    size_t n, pos;
    size_t overrun;
} wsel_kit_replay;

wsel_rng wsel_kit_replay_rng(wsel_kit_replay *r, const uint64_t *words, size_t n);

/* Up to WSEL_WORDS_MAX words held by value (set w[] and n); past them 0. `used` counts
 * every word handed out, past the end included. */
typedef struct wsel_kit_fixed {
    uint64_t w[WSEL_WORDS_MAX];
    size_t n, used;
} wsel_kit_fixed;

wsel_rng wsel_kit_fixed_rng(wsel_kit_fixed *f);

/* Forwards to `inner`, counting words and fill calls. */
typedef struct wsel_kit_counter {
    wsel_rng inner;
    uint64_t words, calls;
} wsel_kit_counter;

wsel_rng wsel_kit_counting_rng(wsel_kit_counter *c, wsel_rng inner);

/* splitmix64 step: a tiny generator independent of the library's, for test inputs. */
uint64_t wsel_kit_mix(uint64_t *state);
/* Uniform in [lo, hi] (inclusive), from wsel_kit_mix (modulo bias irrelevant here). */
uint64_t wsel_kit_range(uint64_t *state, uint64_t lo, uint64_t hi);
/* splitmix64's output function on z + golden gamma, as a stateless hash step. */
uint64_t wsel_kit_mix64(uint64_t z);
/* A uniform double in [0, 1) from the top 53 bits of a word. */
double wsel_kit_unit(uint64_t w);

/* Puts the default generator p in a state (random, from `state`) whose next words have
 * `word` at position i (0-based), the first k (0..3) of them coming from its buffer:
 * the direct paths that draw from a wsel_prng can then be probed at chosen words, as
 * replayed words probe the others. Every other word is pseudo-random. */
void wsel_kit_prng_plant(wsel_prng *p, uint64_t *state, unsigned k, size_t i, uint64_t word);

/* True when running under valgrind (its preload library is in LD_PRELOAD), so long
 * statistical loops can shrink to keep VALGRIND=1 runs within minutes. */
bool wsel_kit_under_valgrind(void);

/* Path of a file below the source root: $WSEL_SRCDIR/rel when set, else rel when
 * readable, else ../rel. Returns a static buffer. */
const char *wsel_kit_srcpath(const char *rel);

/* ---- boundary words ----------------------------------------------------------------- */

/* *out = ceil(c * 2^64 / D) (D > 0): the first word CHOOSE maps at or past cumulative
 * weight c, and the first word at which INCLUDE of weight c under layer max D says no.
 * Computed by 128-bit division, not by the engines' multiplication. False when the
 * value is 2^64 or more (does not fit a word). */
bool wsel_kit_edge(uint64_t c, uint64_t D, uint64_t *out);
/* The same, saturated at UINT64_MAX. */
uint64_t wsel_kit_edge_sat(uint64_t c, uint64_t D);

/* ---- text --------------------------------------------------------------------------- */

/* A growable string. Zero-initialise, append with wsel_kit_sb_printf(), then use `s`
 * (NUL-terminated once anything was written) and free() it. After a failed allocation
 * `oom` is set and further appends do nothing. */
typedef struct wsel_kit_sbuf {
    char *s;
    size_t len, cap;
    bool oom;
} wsel_kit_sbuf;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void wsel_kit_sb_printf(wsel_kit_sbuf *b, const char *fmt, ...);
void wsel_kit_sb_vprintf(wsel_kit_sbuf *b, const char *fmt, va_list ap);

/* An answer as text: "a,b,c|d,e F ttl" -- item labels per set joined by ',' (grouped:
 * group/item), sets separated by '|', then 'F' if failed else '-', then the TTL. */
void wsel_kit_format_answer(const wsel_resource *res, const wsel_answer *ans, char *buf,
                            size_t len);

/* Lexicographic order of two item lists (the order wsel_odds answers are sorted in):
 * <0, 0 or >0. The library's wsel__odds_items_cmp (odds/weighted/weighted_fit.h). */
int wsel_kit_items_cmp(const uint16_t *a, uint32_t na, const uint16_t *b, uint32_t nb);
/* The index of the answer with these items among a set's odds answers (sorted in
 * wsel_kit_items_cmp order), or -1 when the odds list none such. The library's
 * wsel__odds_find_answer. */
long wsel_kit_find_answer(const wsel_set_odds *so, const uint16_t *items, uint32_t count);
/* The largest of v[0..n-1] (0 when n is 0). */
uint64_t wsel_kit_max(const uint64_t *v, size_t n);

/* ---- engine variants ------------------------------------------------------------------ */

/* The kit's one view of the library's engine list: every engine variant this build and
 * CPU can run, by name, the reference first. Fills names[0..max-1], returns the count.
 * `with_auto` also lists "fast" (the variant the library picks itself). */
size_t wsel_kit_variants(const char **names, size_t max, bool with_auto);
/* WSEL_OK when `name` is a variant this build and CPU run; WSEL_E_ARG for an unknown
 * name, WSEL_E_UNSUPPORTED for one this CPU or build cannot run (wsel_variant_check). */
int wsel_kit_variant_check(const char *name);
/* A resolver of cfg/st through the variant `name`. WSEL_E_ARG for an unknown name,
 * WSEL_E_UNSUPPORTED for one this CPU or build cannot run. */
int wsel_kit_resolver_new(const wsel_config *cfg, const wsel_state *st, const char *name,
                          wsel_resolver **out, wsel_error *err);
/* Makes "fast" resolve to the variant `name` for resolvers created afterwards (NULL:
 * back to the library's own choice). WSEL_E_UNSUPPORTED when this CPU cannot run it. */
int wsel_kit_force_variant(const char *name);
/* Name of the variant "fast" resolves to on this CPU (after any override). */
const char *wsel_kit_auto_variant(void);
/* Name of the variant a resolver runs. */
const char *wsel_kit_resolver_variant(const wsel_resolver *r);

#define WSEL_KIT_MAX_VARIANTS 8

/* ---- ring balancer -------------------------------------------------------------------- */

/* A ring resolver (wsel_ring_dns.resolve) for rings of IP-literal hosts, which never
 * reach it: any name it is asked about fails. */
int wsel_kit_ring_literals_only(void *ctx, const char *name, wsel_ring_record *out);
/* Options for a ring of `slots` slots (0: the default) built from the n IP-literal hosts
 * h at construction, resolved by wsel_kit_ring_literals_only. */
void wsel_kit_ring_literal_opts(wsel_ring_opts *o, int64_t slots, const wsel_ring_host_spec *h,
                                size_t n);

/* The benchmarks' ring (bench/ring_cases.c, fast/ring/perf/ring_change_perf.c): `hosts`
 * IP-literal hosts, host i named by wsel_kit_ring_bench_name (10.a.b.c), port 80, weights
 * 1..100 drawn from seed 17, given at construction to a wheel of `slots`; NULL when it
 * cannot be built. */
wsel_ring *wsel_kit_ring_bench(uint32_t slots, uint32_t hosts);
void wsel_kit_ring_bench_name(uint32_t i, char *buf, size_t len);

/* Whether rings a and b are in the same state as far as any later change can tell (the
 * batch build's proof, doc/ring.md section 2): the same addresses in the same order
 * (text, port, weight, availability, host), each holding the same slots acquired in the
 * same order, and the same free stack (read from the model, core/ring/ring_model.h).
 * NULL, or the first difference written into buf. */
const char *wsel_kit_ring_same_state(const wsel_ring *a, const wsel_ring *b, char *buf,
                                     size_t len);

/* Whether the fast engine's view pick vp (wsel_ring_fast_pick_view, status rcv) says what
 * the pick p says (status rcp: the reference's wsel_ring_pick, or a copying pick made on
 * the same state with the same handle and cache_only): the same status, outcome and slot,
 * and for a peer the same address -- ip, port and host name as p gives them. A named
 * target, which a view pick hands back unresolved, must instead be the name p's pick
 * resolved: p is then WSEL_RING_PEER or WSEL_RING_DNS (toip's answer, not compared) with
 * the same slot and host name. With r (the ring the view was published from, as it still
 * is), a peer's target must also be the address r says owns its slot: text, port and
 * type. NULL, or the first difference written into buf. */
const char *wsel_kit_ring_view_agrees(int rcv, const wsel_ring_view_pick *vp, int rcp,
                                      const wsel_ring_peer *p, const wsel_ring *r, char *buf,
                                      size_t len);

/* The strict-mode counts of doc/ring.md section 8, modelled independently of core/ring/ring_model.c
 * (tests/kit/ring_strict.c): one address of a redistribution, in iteration order. */
typedef struct wsel_kit_strict_addr {
    uint32_t weight;      /* now; 0 when the address is being removed */
    uint32_t prev_weight; /* at the last redistribution (unused when fresh) */
    bool fresh;           /* new: not part of the last redistribution */
    uint32_t count;       /* slots held before this redistribution */
} wsel_kit_strict_addr;

/* Which rules of section 8 a redistribution went through (the *path bits). */
#define WSEL_KIT_STRICT_LEFTOVER 1u     /* the ranges could not absorb all N slots */
#define WSEL_KIT_STRICT_TO_UNTOUCHED 2u /* ... and no touched address kept weight */
#define WSEL_KIT_STRICT_EXCESS 4u       /* the ranges' bottoms held more than N */

/* Target counts of a wheel of n slots into out[0..na-1]; NULL, or the reason it could
 * not compute them. */
const char *wsel_kit_ring_strict_counts(uint32_t n, const wsel_kit_strict_addr *a, size_t na,
                                        uint32_t *out, unsigned *path);

#endif
