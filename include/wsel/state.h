/* wsel: monitoring state (doc/weighted.md §6).
 *
 * A wsel_state holds, per service type and per state key (canonical address text or
 * lower-cased CNAME, see wsel_item.key), an UP/DOWN verdict with a TTL. Anything not
 * set is UP with WSEL_MAX_TTL. The built-in service types `up` (always UP) and `down`
 * (always DOWN) cannot be set. A wsel_state is plain data and not thread-safe: one
 * writer changes it, and engines pick changes up with wsel_resolver_sync(). */
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

/* A state for `cfg` (which must outlive it): everything UP with WSEL_MAX_TTL. */
WSEL_API int wsel_state_new(const wsel_config *cfg, wsel_state **out, wsel_error *err);
WSEL_API void wsel_state_free(wsel_state *st);

/* Set the state of `key` (an address in any textual form, or a CNAME) for one service
 * type, or for every non-built-in service type used in the config when service is NULL.
 * The key is canonicalised the way wsel_item.key is. *matched (if non-NULL) receives the
 * number of items (over all sets) whose state this may change. Errors: WSEL_E_STATE for
 * a TTL above WSEL_MAX_TTL, a built-in service type, or (whole configs only) a service
 * type that no set of the config uses (defined but unused types included: such a
 * state could never change an answer, so it is more likely a mistake). */
WSEL_API int wsel_state_set(wsel_state *st, const char *service, const char *key,
                            bool up, uint32_t ttl, size_t *matched, wsel_error *err);

/* Load gdnsd extfile-format lines for one service type:
 *     ADDRESS_OR_NAME => UP|DOWN[/TTL]      # comment
 * Blank lines and comments (# or ;) are allowed; UP/DOWN is case-insensitive; a missing
 * TTL means WSEL_MAX_TTL. Errors carry file and line; nothing is applied unless the whole
 * input is valid. */
WSEL_API int wsel_state_load_extfile(wsel_state *st, const char *service, const char *path,
                                     wsel_error *err);
WSEL_API int wsel_state_load_extfile_buffer(wsel_state *st, const char *service,
                                            const char *data, size_t len, const char *name,
                                            wsel_error *err);

/* The raw state of `key` for one service type (built-ins included). */
WSEL_API wsel_mstate wsel_state_get(const wsel_state *st, const char *service, const char *key);

/* The combined state of one item: DOWN if any of its set's service types says DOWN,
 * TTL the smallest of them; UP with WSEL_MAX_TTL when the set has no service types. */
WSEL_API wsel_mstate wsel_state_item(const wsel_state *st, const wsel_set *set,
                                     const wsel_item *item);

/* A counter that changes whenever the combined state of any item of `set` may have
 * changed. Engines compare it to the value they last saw to recompute only what changed. */
WSEL_API uint64_t wsel_state_set_version(const wsel_state *st, const wsel_set *set);

WSEL_API const wsel_config *wsel_state_config(const wsel_state *st);

#ifdef __cplusplus
}
#endif
#endif
