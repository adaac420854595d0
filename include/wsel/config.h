/* wsel: loading gdnsd weighted configs, and the resource model they produce.
 *
 * The model structs are read-only views owned by the wsel_config; they stay valid
 * until wsel_config_free(). Everything is in config order; a resource with both
 * families lists its addrs_v4 set before its addrs_v6 set. */
#ifndef WSEL_CONFIG_H
#define WSEL_CONFIG_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Limits of the gdnsd weighted plugin (doc/weighted.md §3.6). 64 * 64 * 1048575 < 2^32,
 * so every sum of weights in one set fits in 32 bits. */
#define WSEL_MAX_WEIGHT 1048575u   /* 2^20 - 1 */
#define WSEL_MAX_ITEMS  64u        /* items per set, addresses per group */
#define WSEL_MAX_TTL    268435455u /* 2^28 - 1 */


typedef enum wsel_kind {
    WSEL_KIND_V4 = 1,
    WSEL_KIND_V6 = 2,
    WSEL_KIND_CNAME = 3
} wsel_kind;

typedef enum wsel_mode {
    WSEL_MODE_UNGROUPED_SINGLE = 0,
    WSEL_MODE_UNGROUPED_MULTI,
    WSEL_MODE_GROUPED_SINGLE,
    WSEL_MODE_GROUPED_MULTI,
    WSEL_MODE_CNAME
} wsel_mode;

/* Where an effective parameter value came from. */
typedef enum wsel_level {
    WSEL_LEVEL_DEFAULT = 0, /* built-in default */
    WSEL_LEVEL_TOP,         /* top of the weighted stanza */
    WSEL_LEVEL_RESOURCE,    /* the resource's own hash */
    WSEL_LEVEL_STANZA       /* the addrs_v4 / addrs_v6 stanza */
} wsel_level;

/* "ungrouped-single", ..., "cname"; "default", "top", "resource", "stanza". */
WSEL_API const char *wsel_mode_name(wsel_mode m);
WSEL_API const char *wsel_level_name(wsel_level l);

typedef struct wsel_loc {
    const char *file;       /* path as given / resolved for includes */
    unsigned line, col;     /* 1-based */
} wsel_loc;

/* One address or CNAME. */
typedef struct wsel_item {
    const char *label;      /* its key in the config */
    const char *value;      /* what gdnsd answers: the address as configured (an inet_aton
                               spelling as its dotted quad, without an IPv6 scope id), or
                               the CNAME in lower-case presentation form (doc/weighted.md
                               §3.5) */
    const char *key;        /* state key: canonical address text (inet_ntop form; with a
                               scope id getnameinfo's), or the CNAME's decoded text
                               lower-cased; what monitoring state is keyed by */
    uint8_t addr[16];       /* binary address (IPv4 in addr[0..3]); zero for CNAMEs */
    uint32_t weight;        /* configured weight, 1..WSEL_MAX_WEIGHT */
    uint16_t group;         /* index of its group in the set (0 in ungrouped sets) */
    uint16_t index;         /* flat index within the set (config order) */
    wsel_loc loc;
} wsel_item;

/* A group of addresses (grouped modes). Its addresses are items[first .. first+count-1]. */
typedef struct wsel_group {
    const char *label;
    uint32_t first, count;  /* 1..64 addresses */
    uint32_t total;         /* sum of configured weights */
    wsel_loc loc;
} wsel_group;

struct wsel_resource;

/* A set: the top of an automatic resource, or one addrs_v4 / addrs_v6 stanza.
 * The unit that selection, up_thresh and the failed flag apply to. */
typedef struct wsel_set {
    const struct wsel_resource *resource;
    uint32_t id;                 /* index among all sets of the config, 0-based */
    wsel_kind kind;
    wsel_mode mode;
    bool grouped, multi;         /* multi is false for CNAME sets */
    const char *stanza;          /* "addrs_v4" / "addrs_v6", or NULL for an automatic resource */
    double up_thresh;            /* effective, in (0, 1] */
    uint64_t total;              /* T: sum of all configured weights in the set */
    uint64_t threshold;          /* ceil((double)T * up_thresh), as gdnsd computes it */
    uint32_t n_services;
    const char *const *services; /* effective service_types (may be empty: never DOWN) */
    wsel_level multi_from, up_thresh_from, services_from;
    uint32_t n_items;            /* all addresses/CNAMEs (flattened over groups in grouped sets) */
    const wsel_item *items;
    uint32_t n_groups;           /* 0 in ungrouped sets */
    const wsel_group *groups;
    uint32_t max_group;          /* largest group's address count (grouped sets), else 0 */
    wsel_loc loc;
} wsel_set;

typedef struct wsel_resource {
    const char *name;
    uint32_t index;              /* position in the config, 0-based */
    bool explicit_families;      /* true when configured with addrs_v4 / addrs_v6 */
    bool is_cname;
    uint32_t n_sets;             /* 1 or 2 */
    const wsel_set *sets;        /* v4 before v6 */
    wsel_loc loc;
} wsel_resource;

typedef struct wsel_config wsel_config;

typedef enum wsel_input {
    WSEL_INPUT_AUTO = 0, /* whole gdnsd config if the top level has a `plugins` key, else stanza */
    WSEL_INPUT_WHOLE,    /* a whole gdnsd config: plugins => { weighted => { ... } } */
    WSEL_INPUT_STANZA    /* a file holding only the weighted stanza's contents */
} wsel_input;

#define WSEL_LOAD_NO_INCLUDE 0x1u /* reject $include{} (for untrusted buffers, fuzzing) */

/* Load options; a NULL pointer or zero fields mean the defaults shown. */
typedef struct wsel_load_opts {
    wsel_input input;
    unsigned flags;          /* WSEL_LOAD_* */
    size_t max_file_size;    /* per file, default 16 MiB */
    size_t max_string;       /* per string, default 64 KiB */
    unsigned max_depth;      /* value nesting, default 64 (the top-level hash is depth 1);
                                values above 256 count as 256, so that a load
                                fits in 256 KiB of stack (doc/weighted.md §2.9) */
    unsigned max_includes;   /* files included in total, default 1024; independently,
                                includes nest at most 128 files deep */
    size_t max_total_size;   /* bytes of all files of one load together (the top file and
                                every include), default 64 MiB */
    size_t max_nodes;        /* values (strings, arrays, hashes) of one load together,
                                default 8 Mi (8388608); with max_total_size this bounds
                                the memory of a load (doc/weighted.md §2.9) */
} wsel_load_opts;

/* Load a config from a file, or from memory. `name` names the buffer in errors and
 * locations; relative $include{} paths in a buffer resolve against dirname(name)
 * (the current directory if name has no '/'). On failure *out is NULL and err is filled:
 * err->file/line/col point at the offending token (in an included file when the error
 * is there; an $include{} that cannot be read is reported where it is written), and the
 * message names resource, stanza and item and says what was expected. Loading stops at
 * the first error found: the whole text is parsed first, then the model is checked
 * resource by resource (a hash's parameters before its items). */
WSEL_API int wsel_config_load_file(const char *path, const wsel_load_opts *opts,
                                   wsel_config **out, wsel_error *err);
WSEL_API int wsel_config_load_buffer(const char *name, const char *data, size_t len,
                                     const wsel_load_opts *opts,
                                     wsel_config **out, wsel_error *err);
WSEL_API void wsel_config_free(wsel_config *cfg);

WSEL_API size_t wsel_config_resource_count(const wsel_config *cfg);
WSEL_API const wsel_resource *wsel_config_resource(const wsel_config *cfg, size_t i);
WSEL_API const wsel_resource *wsel_config_find(const wsel_config *cfg, const char *name);
WSEL_API size_t wsel_config_set_count(const wsel_config *cfg);   /* all sets, ids 0..n-1 */
WSEL_API const wsel_set *wsel_config_set(const wsel_config *cfg, size_t id);
/* True when loaded from a whole gdnsd config (service type names are then checked). */
WSEL_API bool wsel_config_is_whole(const wsel_config *cfg);
/* Effective top-of-stanza parameters and where they came from (DEFAULT or TOP); a NULL
 * config gives false and 0 (an up_thresh no config has). */
WSEL_API bool wsel_config_top_multi(const wsel_config *cfg);
WSEL_API double wsel_config_top_up_thresh(const wsel_config *cfg);

/* Warnings of the loader: input gdnsd 3.8.1 accepts that is likely a mistake, or that
 * is read differently from how it looks (an IPv4 address in an inet_aton spelling, a
 * parameter no set reads that would be invalid where read). Each has code WSEL_OK, a
 * position and a message; doc/weighted.md §8 lists them. */
WSEL_API size_t wsel_config_warning_count(const wsel_config *cfg);
WSEL_API const wsel_error *wsel_config_warning(const wsel_config *cfg, size_t i);

/* The weighted-stanza keyword (service_types, multi, up_thresh, addrs_v4, addrs_v6) that
 * `key` is probably a misspelling of (1 or 2 edits, ignoring case), or NULL. The loader
 * adds it to errors as "did you mean ...?"; tools can use it to warn about labels. */
WSEL_API const char *wsel_config_key_hint(const char *key);

/* Zone records that use resources: NAME TTL DYNA weighted!RES / DYNC weighted!RES. */
typedef enum wsel_rrtype { WSEL_RR_DYNA = 0, WSEL_RR_DYNC } wsel_rrtype;

/* Check one record's use of resource `name`. zone_origin is the zone holding the
 * record (e.g. "example.com." -- trailing dot optional), used for the rule that a DYNC
 * may not point a CNAME into its own zone. Returns WSEL_OK, WSEL_E_NORESOURCE or
 * WSEL_E_RECORD (err filled; on WSEL_OK err, if given, is cleared). *deprecated (if
 * non-NULL) is set when the use is accepted but deprecated (a DYNC naming an address
 * resource). */
WSEL_API int wsel_config_check_record(const wsel_config *cfg, const char *name,
                                      wsel_rrtype type, const char *zone_origin,
                                      bool *deprecated, wsel_error *err);

#ifdef __cplusplus
}
#endif
#endif
