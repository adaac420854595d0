/* wsel: common definitions -- status codes, the error record, limits. */
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

/* Limits of the gdnsd weighted plugin (doc/weighted.md §3.6). 64 * 64 * 1048575 < 2^32,
 * so every sum of weights in one set fits in 32 bits. */
#define WSEL_MAX_WEIGHT 1048575u   /* 2^20 - 1 */
#define WSEL_MAX_ITEMS  64u        /* items per set, addresses per group */
#define WSEL_MAX_TTL    268435455u /* 2^28 - 1 */

/* Status codes. 0 is success; every failure is a positive code. */
typedef enum wsel_status {
    WSEL_OK = 0,
    WSEL_E_NOMEM,         /* out of memory */
    WSEL_E_ARG,           /* bad argument to an API call */
    WSEL_E_IO,            /* file cannot be opened or read */
    WSEL_E_LIMIT,         /* input too large or too deep (file size, nesting, string length, includes) */
    WSEL_E_SYNTAX,        /* config language syntax error */
    WSEL_E_ESCAPE,        /* bad backslash escape */
    WSEL_E_DUPKEY,        /* a key repeated in one hash */
    WSEL_E_INCLUDE,       /* $include{} matches nothing, or several files in value position */
    WSEL_E_INCLUDE_CYCLE, /* $include{} cycle */
    WSEL_E_NOSTANZA,      /* whole gdnsd config without plugins => { weighted => {...} } */
    WSEL_E_TYPE,          /* value of the wrong type (hash/array/simple) */
    WSEL_E_PARAM,         /* bad parameter value (multi, up_thresh, service_types) */
    WSEL_E_SVCTYPE,       /* unknown service type name */
    WSEL_E_WEIGHT,        /* weight not an integer in 1..1048575 */
    WSEL_E_COUNT,         /* set or group holds 0 or more than 64 items */
    WSEL_E_ADDR,          /* bad IP address, or address of the wrong family */
    WSEL_E_CNAME,         /* bad CNAME target (not a legal, fully qualified name) */
    WSEL_E_MIXED,         /* items of different shape or family in one set; mixed direct items beside addrs_v* */
    WSEL_E_LEGACY,        /* legacy cnames sub-stanza */
    WSEL_E_ITEM,          /* item not of the form [ VALUE, WEIGHT ] */
    WSEL_E_NORESOURCE,    /* no such resource */
    WSEL_E_RECORD,        /* resource used wrongly from a zone record (DYNA on CNAMEs, CNAME into own zone) */
    WSEL_E_STATE,         /* bad monitoring state input (extfile line, unknown service, TTL range) */
    WSEL_E_UNSUPPORTED,   /* engine variant not available on this CPU or build */
    WSEL_STATUS_COUNT_
} wsel_status;

/* Short fixed description of a status code ("syntax error"). Never NULL. */
WSEL_API const char *wsel_strerror(int code);

/* The error record every fallible call fills (when given a non-NULL pointer).
 * Fields that do not apply are empty strings / 0. `message` is complete on its own:
 * it names the resource, stanza and item where they apply, and says what was expected. */
typedef struct wsel_error {
    int code;               /* wsel_status */
    char file[512];         /* file (or buffer name) where the error was found */
    unsigned line, col;     /* 1-based; 0 when no position applies */
    char resource[256];     /* resource name, if any */
    char stanza[64];        /* "addrs_v4", "addrs_v6", group label path, or "" */
    char item[256];         /* item label / key, if any */
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
