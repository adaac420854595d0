/* The one JSON reading layer (jansson) every system's reader uses. Not installed.
 *
 * A reader parses its text once (wsel__json_parse), walks the jansson values it wants,
 * carrying the JSON path of where it is (wsel__jpath, built on the stack as it descends),
 * and reads each value with a typed getter. Every failure goes into the document's
 * wsel_error with the file name, the line and column of the value at fault in the text,
 * the formatted path ("$.ops[3].weight") and a message that starts with that path and
 * says what was expected. jansson keeps no positions for the values it decodes: the
 * locator scans the original text again to find them (iteratively, any depth, never
 * past the text's end, even when the text is not valid JSON).
 *
 * Nothing here allocates except jansson in wsel__json_parse; there is no global
 * mutable state. */
#ifndef WSEL_CORE_JSON_H
#define WSEL_CORE_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "internal.h"

/* One parsed document. */
typedef struct wsel__json {
    const char *name; /* file or buffer name for messages (not copied: the caller keeps it) */
    const char *text; /* the text parsed (not copied), kept to locate values */
    size_t len;
    json_t *root;     /* an object */
    wsel_error *err;  /* where failures go (may be NULL) */
} wsel__json;

/* Parses text[0..len) (need not be NUL-terminated; NULL only with len 0) into *j, whose
 * failures will go to err. On failure j->root is NULL and err says:
 *   WSEL_E_DUPKEY  a key repeated in one object (JSON_REJECT_DUPLICATES), at the start of
 *                  the repeated key; err->path and err->object: the path of the object
 *                  holding it; err->key: the key;
 *   WSEL_E_TYPE    the top value is not an object;
 *   WSEL_E_NOMEM   "out of memory", without line or column;
 *   WSEL_E_LIMIT   nested deeper than jansson's limit (JSON_PARSER_MAX_DEPTH);
 *   WSEL_E_RANGE   a number too large for jansson (integers: long long; reals: double);
 *   WSEL_E_SYNTAX  any other fault of the text, with jansson's line, column and text;
 *   WSEL_E_ARG     j NULL, or text NULL with len > 0. */
int wsel__json_parse(wsel__json *j, const char *name, const char *text, size_t len,
                     wsel_error *err);
/* Releases the document. NULL-safe; safe on a zeroed struct; leaves j zeroed. */
void wsel__json_free(wsel__json *j);

/* A JSON path, built on the stack as a reader descends (no allocation). A node whose
 * `up` is NULL is the root "$". */
typedef struct wsel__jpath {
    const struct wsel__jpath *up; /* NULL at the root "$" */
    const char *key;              /* object member name, or NULL for an array index */
    size_t index;
} wsel__jpath;

#define WSEL__JROOT ((wsel__jpath){NULL, NULL, 0})

/* The member `key` / the element `i` of the value at `up` (up NULL: of the root). The
 * key is not copied. */
wsel__jpath wsel__jkey(const wsel__jpath *up, const char *key);
wsel__jpath wsel__jidx(const wsel__jpath *up, size_t i);

/* Writes the path into buf: "$", "$.ops[3].weight", "$.members[\"/Common/s1:vs1\"].up".
 * A key that is an identifier ([A-Za-z_][A-Za-z0-9_-]*) is written .key, any other as
 * ["..."] with JSON string escaping: \" and \\, control bytes (and DEL) as \u00XX, other
 * bytes as they are. p NULL is the root. Cut short (still NUL-terminated) when buf is too
 * small. Returns the length of the whole path (like snprintf). */
size_t wsel__jpath_format(const wsel__jpath *p, char *buf, size_t len);

/* Fails at the value at path p: j->err gets code, j->name, the value's line:col in the
 * text (1-based; a UTF-8 character counts one column, like jansson), object and path =
 * the formatted path, key = p->key (or ""), message = "PATH: " + the printf text.
 * wsel__json_fail_key does the same at the position of the member NAME (its opening
 * quote) instead of its value, for "unknown key" and "names nothing" errors. When the
 * path is not in the text, the position is that of the deepest part of it that is (a
 * missing member: its object). Both return code (also when j or j->err is NULL). */
int wsel__json_fail(const wsel__json *j, const wsel__jpath *p, int code, const char *fmt, ...)
    WSEL_PRINTF(4, 5);
int wsel__json_fail_key(const wsel__json *j, const wsel__jpath *p, int code,
                        const char *fmt, ...) WSEL_PRINTF(4, 5);

/* A decoded value as the typed reads below see it, whichever parser decoded it (the
 * jansson tree, or the ring scenario's streaming reader): its jansson type, the number
 * (i for JSON_INTEGER, r for JSON_REAL), the string (s, NUL-terminated, n bytes) or
 * a container's size n. */
typedef struct wsel__jval {
    json_type type;
    long long i;
    double r;
    const char *s;
    size_t n;
} wsel__jval;

/* The typed reads of a wsel__jval (v NULL: "got nothing"): the same checks and
 * messages as the json_t reads below, which are these applied to the jansson value. */
int wsel__jv_bool(const wsel__json *j, const wsel__jpath *p, const wsel__jval *v, bool *out);
int wsel__jv_int(const wsel__json *j, const wsel__jpath *p, const wsel__jval *v, long long lo,
                 long long hi, long long *out);
int wsel__jv_num(const wsel__json *j, const wsel__jpath *p, const wsel__jval *v, double lo,
                 double hi, double *out);
int wsel__jv_str(const wsel__json *j, const wsel__jpath *p, const wsel__jval *v,
                 const char **out);
int wsel__jv_obj(const wsel__json *j, const wsel__jpath *p, const wsel__jval *v);
int wsel__jv_arr(const wsel__json *j, const wsel__jpath *p, const wsel__jval *v, size_t max,
                 size_t *n);
/* wsel__json_member's failure for a required member `key` absent from the object at p. */
int wsel__json_missing(const wsel__json *j, const wsel__jpath *p, const char *key);
/* wsel__json_keys' verdict on one member name k of the object at p: 0 when k is in
 * keys[], else its "unknown key" failure. */
int wsel__json_key_check(const wsel__json *j, const wsel__jpath *p, const char *k,
                         const char *const *keys);

/* Typed reads of the value v found at path p (v NULL reads as "got nothing"). Each fails
 * with a message naming what was expected and what was found ("$.ops[0].weight: expected
 * an integer in 1..65535, got 0.5"): WSEL_E_TYPE when the JSON type is wrong,
 * WSEL_E_RANGE when the value is outside its range. *out is set only on success. */
int wsel__json_bool(const wsel__json *j, const wsel__jpath *p, const json_t *v, bool *out);
/* An integer in [lo, hi]; a real (even 1.0) is a type error. */
int wsel__json_int(const wsel__json *j, const wsel__jpath *p, const json_t *v, long long lo,
                   long long hi, long long *out);
/* A non-negative integer (jansson's integers are long long: 0..LLONG_MAX). */
int wsel__json_u64(const wsel__json *j, const wsel__jpath *p, const json_t *v, uint64_t *out);
/* An integer or a real, finite, in [lo, hi]; lo -INFINITY / hi INFINITY: unbounded. */
int wsel__json_num(const wsel__json *j, const wsel__jpath *p, const json_t *v, double lo,
                   double hi, double *out);
/* A string without NUL characters (WSEL_E_RANGE when it has one). */
int wsel__json_str(const wsel__json *j, const wsel__jpath *p, const json_t *v, const char **out);
/* An object. */
int wsel__json_obj(const wsel__json *j, const wsel__jpath *p, const json_t *v);
/* An array of at most max elements (WSEL_E_LIMIT beyond); *n (n may be NULL) its size. */
int wsel__json_arr(const wsel__json *j, const wsel__jpath *p, const json_t *v, size_t max,
                   size_t *n);

/* Member `key` of the object obj at path p: *out is it, or NULL when absent. Absent and
 * required: WSEL_E_TYPE "PATH: missing 'KEY'" at the object, err->key = KEY. obj must be
 * an object (check with wsel__json_obj first). */
int wsel__json_member(const wsel__json *j, const wsel__jpath *p, const json_t *obj,
                      const char *key, bool required, const json_t **out);

/* The unknown-key policy, one for every reader: every member name of the object v at
 * path p must be in keys[] (NULL-terminated), else WSEL_E_SYNTAX "PATH.K: unknown key
 * 'K'" at the key's position (the first unknown key in text order), with " (did you
 * mean 'X'?)" when a known key X is at most 2 edits away ignoring case (insertion,
 * deletion, substitution, swap of neighbours), and fewer edits than X has characters
 * (no 'A' for 'x'). v must be an object. */
int wsel__json_keys(const wsel__json *j, const wsel__jpath *p, const json_t *v,
                    const char *const *keys);

/* ---- the locator (exposed for tests and fuzz targets) ----
 * These read text[0..len) only, in time linear in len (plus the path's depth), with no
 * recursion and no allocation; on text that is not valid JSON they give some offset in
 * 0..len or "not found", never more. */

/* Finds the value at path p (with key and p a member: the opening quote of its name).
 * Returns true when the whole path was found; *off is then its byte offset, else that of
 * the deepest part of the path found (the root value, at worst). */
bool wsel__json_locate(const char *text, size_t len, const wsel__jpath *p, bool key,
                       size_t *off);
/* The 1-based line and column of byte offset off (clamped to len): lines end at '\n';
 * the column counts characters (bytes that do not continue a UTF-8 sequence). */
void wsel__json_linecol(const char *text, size_t len, size_t off, unsigned *line,
                        unsigned *col);
/* The offset of the opening quote of the string whose closing quote is text[end - 1]
 * (escaped quotes inside it skipped); SIZE_MAX when there is none. */
size_t wsel__json_key_start(const char *text, size_t len, size_t end);
/* The path of the innermost value whose text holds byte offset off, written like
 * wsel__jpath_format (cut short to fit buf, NUL-terminated); an offset in a member's
 * name or just past it, or between members, belongs to the object holding it. Returns
 * the length of the whole path. */
size_t wsel__json_path_at(const char *text, size_t len, size_t off, char *buf, size_t buflen);
/* Decodes the JSON string at text[at] (its opening quote) into buf (cut short to fit,
 * NUL-terminated; \u0000 and invalid escapes copied as best it can). Returns the
 * length of the whole decoded string. */
size_t wsel__json_string_at(const char *text, size_t len, size_t at, char *buf, size_t buflen);

#endif
