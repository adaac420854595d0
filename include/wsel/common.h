/* wsel: what every system shares -- API conventions, status codes, the error record. */
#ifndef WSEL_COMMON_H
#define WSEL_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) && !defined(WSEL_STATIC_ONLY)
#define WSEL_API __attribute__((visibility("default")))
#else
#define WSEL_API
#endif

/* API conventions: the same for every system's header.
 *
 * Names      every exported name starts with wsel_; a system's own calls with
 *            wsel_<system>_ (wsel_ring_, wsel_gslb_; the weighted plugin's, being the
 *            first, wsel_config_, wsel_state_, wsel_resolve...).
 * Errors     every call that can fail returns a wsel_status (0 = WSEL_OK) and, given a
 *            non-NULL `wsel_error *err` (always the last parameter), fills it. The
 *            library never prints, never exits and never aborts.
 * Handles    a call that takes an object (wsel_config *, wsel_ring *, ...) and is
 *            given NULL returns WSEL_E_ARG, or, when it returns no status: 0 for a count
 *            or size, NULL for a pointer, false for a predicate, -1 for an index, and
 *            does nothing when it returns nothing. A NULL required out pointer is
 *            WSEL_E_ARG as well.
 * Ownership  an object a call creates (*_new, *_load_*) goes to the caller through its
 *            `out` parameter (set to NULL on failure) and is released with the matching
 *            *_free, which accepts NULL. Plain memory handed out (an array of lint
 *            findings, a JSON text) is released with wsel_free(). Pointers into an object
 *            (names, model structs) stay valid until the object is freed, unless its
 *            header says a change ends them sooner. Objects built on others (a state on
 *            a config, a resolver on both) need them alive for as long as they live.
 *            Text and arrays passed in are copied when they are kept.
 * Buffers    every loader from memory takes (name, data, len) in that order, after the
 *            object it loads into or against: `name` labels errors and locations (it is
 *            never opened), `data` need not be NUL-terminated and may hold len bytes of
 *            anything. Its file twin takes `path` in the same place.
 * Threads    objects are plain data, used by one thread at a time, unless their header
 *            says otherwise (resolvers, the ring's fast engine). */

/* Releases memory the library handed out as plain memory (see Ownership); NULL is fine. */
WSEL_API void wsel_free(void *p);

/* Status codes. 0 is success; every failure is a positive code. Each code belongs to one
 * generic kind (wsel_error_kind below), the same for every system: a caller that only
 * needs to know what sort of failure it was (out of memory? bad input? a file that cannot
 * be read?) asks wsel_error_kind_of(code). The codes refine the kinds with what the
 * weighted plugin's config language needs to tell apart; the other systems use the
 * generic codes (WSEL_E_SYNTAX, WSEL_E_TYPE, WSEL_E_RANGE, WSEL_E_REFERENCE, ...). */
typedef enum wsel_status {
    WSEL_OK = 0,
    WSEL_E_NOMEM,         /* out of memory */
    WSEL_E_ARG,           /* bad argument to an API call */
    WSEL_E_IO,            /* file cannot be opened or read */
    WSEL_E_LIMIT,         /* input too large or too deep (file size, nesting, string length, includes) */
    WSEL_E_SYNTAX,        /* syntax error in the input's language (config, JSON) */
    WSEL_E_ESCAPE,        /* bad backslash escape */
    WSEL_E_DUPKEY,        /* a key repeated in one hash or JSON object */
    WSEL_E_INCLUDE,       /* $include{} matches nothing, or several files in value position */
    WSEL_E_INCLUDE_CYCLE, /* $include{} cycle */
    WSEL_E_NOSTANZA,      /* whole gdnsd config without plugins => { weighted => {...} } */
    WSEL_E_TYPE,          /* value of the wrong type (hash/array/simple; JSON object/number/...) */
    WSEL_E_PARAM,         /* bad parameter value (multi, up_thresh, service_types) */
    WSEL_E_SVCTYPE,       /* unknown service type name */
    WSEL_E_WEIGHT,        /* weight outside its range */
    WSEL_E_COUNT,         /* set or group holds 0 or more than 64 items */
    WSEL_E_ADDR,          /* bad IP address, or address of the wrong family */
    WSEL_E_CNAME,         /* bad CNAME target (not a legal, fully qualified name) */
    WSEL_E_MIXED,         /* items of different shape or family in one set; mixed direct items beside addrs_v* */
    WSEL_E_LEGACY,        /* legacy cnames sub-stanza */
    WSEL_E_ITEM,          /* item not of the form [ VALUE, WEIGHT ] */
    WSEL_E_NORESOURCE,    /* no such resource */
    WSEL_E_RECORD,        /* resource used wrongly from a zone record (DYNA on CNAMEs, CNAME into own zone) */
    WSEL_E_STATE,         /* bad monitoring state (extfile line, unknown service, TTL range),
                             or an object whose invariants do not hold (wsel_ring_check) */
    WSEL_E_UNSUPPORTED,   /* engine variant not available on this CPU or build */
    WSEL_E_RANGE,         /* a value outside its allowed range or set of values */
    WSEL_E_REFERENCE,     /* a name that names nothing configured, or the wrong kind of thing */
    WSEL_STATUS_COUNT_
} wsel_status;

/* The generic kinds of failure. */
typedef enum wsel_error_kind {
    WSEL_ERROR_NONE = 0,    /* WSEL_OK */
    WSEL_ERROR_NOMEM,       /* out of memory: never a verdict on the input */
    WSEL_ERROR_ARG,         /* the call itself is wrong (NULL handle, bad option) */
    WSEL_ERROR_IO,          /* a file cannot be opened or read */
    WSEL_ERROR_LIMIT,       /* the input exceeds a size, depth or count limit */
    WSEL_ERROR_SYNTAX,      /* the text cannot be read in its language */
    WSEL_ERROR_TYPE,        /* a value of the wrong shape */
    WSEL_ERROR_RANGE,       /* a value outside what it may be */
    WSEL_ERROR_REFERENCE,   /* a name that names nothing, or the wrong thing */
    WSEL_ERROR_DUPLICATE,   /* something given twice where once is the rule */
    WSEL_ERROR_STATE,       /* monitoring state or invariants */
    WSEL_ERROR_UNSUPPORTED, /* not available in this build or on this CPU */
    WSEL_ERROR_KIND_COUNT_
} wsel_error_kind;

/* Short fixed description of a status code ("syntax error"). Never NULL. */
WSEL_API const char *wsel_strerror(int code);
/* The kind a status code belongs to (WSEL_ERROR_NONE for WSEL_OK, WSEL_ERROR_ARG for an
 * unknown code), and the kind's name ("syntax", "out of memory", ...; never NULL). */
WSEL_API wsel_error_kind wsel_error_kind_of(int code);
WSEL_API const char *wsel_error_kind_name(wsel_error_kind kind);

/* The error record every fallible call fills (when given a non-NULL pointer).
 * Fields that do not apply are empty strings / 0. `message` is complete on its own: it
 * names the object and says what was expected. The context fields say the same for
 * programs, in the words of the system the error is about:
 *
 *   system    object                          path                     key
 *   weighted  resource name                   stanza / group path      item label or key
 *   gslb      "gtm pool a /Common/p" ...      --                       the offending token
 *   JSON      the JSON path of the value      the JSON path            the offending key
 *   ring      host name                       option name              -- */
typedef struct wsel_error {
    int code;               /* wsel_status */
    char file[512];         /* file (or buffer name) where the error was found */
    unsigned line, col;     /* 1-based; 0 when no position applies */
    char object[256];       /* the object the error is about, if any */
    char path[256];         /* where inside it, if anything more precise applies */
    char key[256];          /* the offending key, label or token, if any */
    char message[1024];
} wsel_error;

/* Formats "FILE:LINE:COL: message" (omitting parts that are empty/0) into buf.
 * Returns buf. */
WSEL_API char *wsel_error_format(const wsel_error *err, char *buf, size_t len);

/* Clears an error record to "no error". */
WSEL_API void wsel_error_clear(wsel_error *err);

#ifdef __cplusplus
}
#endif
#endif
