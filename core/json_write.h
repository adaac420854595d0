/* The one JSON writer of the project: streaming, compact output (RFC 8259), used by the
 * CLI for every --json output and by the library where it hands out JSON text
 * (wsel_gslb_state_json). Not installed.
 *
 * Strings are bytes (config languages can spell any byte): valid UTF-8 passes through,
 * control bytes become \uXXXX, any other byte its Latin-1 code point, so the output is
 * always valid JSON. Numbers: %.17g, never -0, null when not finite. Nothing allocates
 * except the stream itself; a write that fails is remembered (err) and reported by
 * wsel__jw_finish. */
#ifndef WSEL_CORE_JSON_WRITE_H
#define WSEL_CORE_JSON_WRITE_H

#include <stdio.h>

#define WSEL__JW_MAX_DEPTH 32

typedef struct wsel__jw {
    FILE *f;
    int depth;
    int first[WSEL__JW_MAX_DEPTH]; /* no element written yet at this depth */
    int after_key;                 /* a key was written; the value comes next */
    int err;                       /* errno of the first failed flush, 0 */
} wsel__jw;

void wsel__jw_init(wsel__jw *j, FILE *f);
void wsel__jw_obj_begin(wsel__jw *j);
void wsel__jw_obj_end(wsel__jw *j);
void wsel__jw_arr_begin(wsel__jw *j);
void wsel__jw_arr_end(wsel__jw *j);
void wsel__jw_key(wsel__jw *j, const char *key);
void wsel__jw_str(wsel__jw *j, const char *s);
void wsel__jw_num(wsel__jw *j, double v);
void wsel__jw_u64(wsel__jw *j, unsigned long long v);
void wsel__jw_i64(wsel__jw *j, long long v);
void wsel__jw_bool(wsel__jw *j, int v);
void wsel__jw_null(wsel__jw *j);
/* A value that already is JSON text (written as it is). */
void wsel__jw_raw(wsel__jw *j, const char *json);
/* A key and its value in one call. */
void wsel__jw_kstr(wsel__jw *j, const char *key, const char *s);
void wsel__jw_knum(wsel__jw *j, const char *key, double v);
void wsel__jw_ku64(wsel__jw *j, const char *key, unsigned long long v);
void wsel__jw_ki64(wsel__jw *j, const char *key, long long v);
void wsel__jw_kbool(wsel__jw *j, const char *key, int v);
void wsel__jw_karr_begin(wsel__jw *j, const char *key);
void wsel__jw_kobj_begin(wsel__jw *j, const char *key);
/* Ends the document with a newline and flushes: 0, or the errno of a failed write. */
int wsel__jw_finish(wsel__jw *j);

#endif
