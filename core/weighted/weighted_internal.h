/* What the weighted system's library files (core/weighted, ref/weighted, fast/weighted,
 * odds/weighted) share beyond core/internal.h: the canonical state key and the one
 * validator of a set. Not installed. */
#ifndef WSEL_CORE_WEIGHTED_INTERNAL_H
#define WSEL_CORE_WEIGHTED_INTERNAL_H

#include "../internal.h"

/* Canonical state key of an address or name: inet_ntop form for IPv4/IPv6 addresses,
 * otherwise the text lower-cased. Returns false if it does not fit in `len`. */
bool wsel__canon_key(const char *text, char *out, size_t len);

/* NULL when `set` obeys the model's rules (what the loader builds: sizes, group layout,
 * weights, totals, threshold), else what is wrong. The one validator of a hand-made
 * model; every engine and the odds calculator refuse a set it faults. */
const char *wsel__set_problem(const wsel_set *set);

#endif
