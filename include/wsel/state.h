/* wsel: monitoring state (doc/weighted.md §6).
 *
 * A wsel_state holds, per service type and per state key (canonical address text or
 * lower-cased CNAME, see wsel_item.key), an UP/DOWN verdict with a TTL. Anything not
 * set is UP with WSEL_MAX_TTL. The built-in service types `up` (always UP) and `down`
 * (always DOWN) cannot be set by a monitor, nor can a service type of gdnsd's `static`
 * monitoring plugin, whose state and TTL come from its definition in a whole config
 * (doc/weighted.md §6.1). On top of the monitored state, admin
 * overrides (gdnsd's admin_state file, doc/weighted.md §6.5) force the state of any
 * (thing, service type) pair, built-ins included. A wsel_state is plain data and not
 * thread-safe: one writer changes it, and engines pick changes up with
 * wsel_resolver_sync(). */
#ifndef WSEL_STATE_H
#define WSEL_STATE_H

#include "config.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct wsel_mstate {
    bool up;
    uint32_t ttl;            /* 0 .. WSEL_MAX_TTL */
} wsel_mstate;

typedef struct wsel_state wsel_state;

/* A state for `cfg`: everything UP with WSEL_MAX_TTL but what `down` and `static`
 * service types watch. Every use of the state needs `cfg` alive except wsel_state_free,
 * which never reads the config: state and config may be freed in either order. */
WSEL_API int wsel_state_new(const wsel_config *cfg, wsel_state **out, wsel_error *err);
WSEL_API void wsel_state_free(wsel_state *st);

/* Set the state of `key` (an address in any textual form, or a CNAME) for one service
 * type, or for every non-built-in, non-static service type used in the config when
 * service is NULL. The key is canonicalised the way wsel_item.key is. *matched (if
 * non-NULL) receives the number of items (over all sets) whose state this may change.
 * Errors: WSEL_E_STATE for a TTL above WSEL_MAX_TTL, a built-in or `static` service
 * type, or (whole configs only) a service type that no set of the config uses (defined
 * but unused types included: such a state could never change an answer, so it is more
 * likely a mistake). */
WSEL_API int wsel_state_set(wsel_state *st, const char *service, const char *key,
                            bool up, uint32_t ttl, size_t *matched, wsel_error *err);

/* Load gdnsd extfile-format lines for one service type (NULL: every non-built-in,
 * non-static service type of the config, as in wsel_state_set):
 *     ADDRESS_OR_NAME => UP|DOWN[/TTL]      # comment
 * Blank lines and comments (# or ;) are allowed; UP/DOWN is case-insensitive; a missing
 * TTL means WSEL_MAX_TTL. Errors carry file and line; nothing is applied unless the whole
 * input is valid. */
WSEL_API int wsel_state_load_extfile(wsel_state *st, const char *service, const char *path,
                                     wsel_error *err);
WSEL_API int wsel_state_load_extfile_buffer(wsel_state *st, const char *service,
                                            const char *name, const char *data, size_t len,
                                            wsel_error *err);

/* The state of `key` for one service type (built-ins included) as it counts: the
 * monitored state with any admin override applied. A NULL st (or key, or service) reads
 * as a state with nothing set: UP with WSEL_MAX_TTL, except the built-in `down`, as the
 * engines and the odds read a NULL state (with no config to read, `static` types too
 * read as nothing set then). */
WSEL_API wsel_mstate wsel_state_get(const wsel_state *st, const char *service, const char *key);

/* The combined state of one item: DOWN if any of its set's service types says DOWN,
 * TTL the smallest of them; UP with WSEL_MAX_TTL when the set has no service types
 * (or when set or item is NULL; a NULL st reads as in wsel_state_get). */
WSEL_API wsel_mstate wsel_state_item(const wsel_state *st, const wsel_set *set,
                                     const wsel_item *item);

/* A counter that changes whenever the combined state of any item of `set` may have
 * changed. Engines compare it to the value they last saw to recompute only what changed. */
WSEL_API uint64_t wsel_state_set_version(const wsel_state *st, const wsel_set *set);

WSEL_API const wsel_config *wsel_state_config(const wsel_state *st);

/* ---- warnings ----
 * Loaders report lines that are valid but change nothing (a key that matches no item
 * of the config, an override that matches no pair) through this hook; `warning` has
 * code WSEL_OK, file, line and message. Without a hook they are not reported. */
typedef void (*wsel_warn_fn)(void *ctx, const wsel_error *warning);
WSEL_API void wsel_state_set_warn(wsel_state *st, wsel_warn_fn fn, void *ctx);

/* ---- admin overrides (gdnsd(8) ADMIN STATE FILE; doc/weighted.md §6.5) ----
 * A pair is (thing, service type): every item's state key with every service type of
 * its set, built-in `up` / `down` included. `pattern` is "THING/SERVICE_TYPE", split at
 * its last '/'; either part may be a shell glob (fnmatch). A THING without glob
 * characters is canonicalised like wsel_item.key; a glob THING is matched lower-cased
 * against canonical keys. A forced state replaces the monitored state of every
 * matching pair, verdict and TTL: the TTL is `ttl` when has_ttl, else WSEL_MAX_TTL, as
 * gdnsd 3.8.1 reads an admin_state value without /TTL (doc/weighted.md §6.5, D21).
 * Later calls override earlier ones. *matched receives the number of pairs the pattern
 * matched (0 is not an error). */
WSEL_API int wsel_state_force(wsel_state *st, const char *pattern, bool up, bool has_ttl,
                              uint32_t ttl, size_t *matched, wsel_error *err);
/* Removes the override of every pair matching `pattern`. */
WSEL_API int wsel_state_unforce(wsel_state *st, const char *pattern, size_t *matched,
                                wsel_error *err);
/* Removes every override. */
WSEL_API void wsel_state_clear_forced(wsel_state *st);

/* Loads an admin_state file: a config-language hash (no $include) of
 *     "THING/SERVICE_TYPE" => UP|DOWN[/TTL]
 * applied in file order on top of the overrides already present (call
 * wsel_state_clear_forced() first for gdnsd's reload behaviour). Nothing is applied
 * unless the whole input is valid; errors carry file and line. A key that matches no
 * pair is a warning (wsel_state_set_warn). */
WSEL_API int wsel_state_load_admin(wsel_state *st, const char *path, wsel_error *err);
WSEL_API int wsel_state_load_admin_buffer(wsel_state *st, const char *name, const char *data,
                                          size_t len, wsel_error *err);

/* The pairs an override can match, sorted by thing then service type
 * (the counterpart of `gdnsdctl states`). */
typedef struct wsel_pair_info {
    const char *thing;       /* canonical state key */
    const char *service;     /* service type name */
    wsel_mstate monitored;   /* what the monitor says (built-ins: fixed) */
    bool forced;             /* an override applies */
    bool forced_up;          /* forced: its state */
    bool forced_ttl;         /* forced: the override was given a TTL */
    uint32_t ttl_forced;     /* forced: its TTL (WSEL_MAX_TTL when none was given) */
    wsel_mstate effective;   /* what selection uses */
} wsel_pair_info;
WSEL_API size_t wsel_state_pair_count(const wsel_state *st);
WSEL_API bool wsel_state_pair(const wsel_state *st, size_t i, wsel_pair_info *out);

#ifdef __cplusplus
}
#endif
#endif
