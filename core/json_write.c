/* The one JSON writer (core/json_write.h): streaming, compact (RFC 8259). */
#include <errno.h>
#include <math.h>

#include "json_write.h"

void wsel__jw_init(wsel__jw *j, FILE *f)
{
    j->f = f;
    j->depth = 0;
    j->first[0] = 1;
    j->after_key = 0;
    j->err = 0;
}

/* Comma handling: every value or key inside a container is preceded by ',' except the
 * first; a value directly after its key needs nothing. */
static void before_value(wsel__jw *j)
{
    if (j->after_key) {
        j->after_key = 0;
        return;
    }
    if (!j->first[j->depth])
        fputc(',', j->f);
    j->first[j->depth] = 0;
}

static void open(wsel__jw *j, char c)
{
    before_value(j);
    fputc(c, j->f);
    if (j->depth + 1 < WSEL__JW_MAX_DEPTH)
        j->depth++;
    j->first[j->depth] = 1;
}

static void close_(wsel__jw *j, char c)
{
    fputc(c, j->f);
    if (j->depth > 0)
        j->depth--;
}

void wsel__jw_obj_begin(wsel__jw *j) { open(j, '{'); }
void wsel__jw_obj_end(wsel__jw *j) { close_(j, '}'); }
void wsel__jw_arr_begin(wsel__jw *j) { open(j, '['); }
void wsel__jw_arr_end(wsel__jw *j) { close_(j, ']'); }

/* Length of the valid UTF-8 sequence starting at p (a byte >= 0x80), or 0. */
static size_t utf8_len(const unsigned char *p)
{
    size_t n;
    unsigned min;
    unsigned cp;
    if (p[0] >= 0xc2 && p[0] <= 0xdf) {
        n = 2; cp = p[0] & 0x1fu; min = 0x80;
    } else if (p[0] >= 0xe0 && p[0] <= 0xef) {
        n = 3; cp = p[0] & 0x0fu; min = 0x800;
    } else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
        n = 4; cp = p[0] & 0x07u; min = 0x10000;
    } else {
        return 0;
    }
    for (size_t i = 1; i < n; i++) {
        if ((p[i] & 0xc0) != 0x80)
            return 0;
        cp = (cp << 6) | (p[i] & 0x3fu);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return n;
}

static void raw_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\b': fputs("\\b", f); break;
        case '\f': fputs("\\f", f); break;
        case '\n': fputs("\\n", f); break;
        case '\r': fputs("\\r", f); break;
        case '\t': fputs("\\t", f); break;
        default:
            if (*p < 0x20 || *p == 0x7f)
                fprintf(f, "\\u%04x", *p);
            else if (*p >= 0x80) {
                /* Config strings are bytes (\DDD escapes make any byte): valid UTF-8
                 * passes through, any other byte becomes its Latin-1 code point, so
                 * the output is always valid JSON. */
                size_t n = utf8_len(p);
                if (n) {
                    fwrite(p, 1, n, f);
                    p += n - 1;
                } else {
                    fprintf(f, "\\u%04x", *p);
                }
            } else
                fputc(*p, f);
        }
    }
    fputc('"', f);
}

void wsel__jw_key(wsel__jw *j, const char *key)
{
    before_value(j);
    raw_string(j->f, key);
    fputc(':', j->f);
    j->after_key = 1;
}

void wsel__jw_str(wsel__jw *j, const char *s)
{
    before_value(j);
    raw_string(j->f, s);
}

void wsel__jw_num(wsel__jw *j, double v)
{
    before_value(j);
    if (!isfinite(v))
        fputs("null", j->f);
    else if (v == 0)
        fputs("0", j->f); /* never "-0" */
    else
        fprintf(j->f, "%.17g", v);
}

void wsel__jw_u64(wsel__jw *j, unsigned long long v)
{
    before_value(j);
    fprintf(j->f, "%llu", v);
}

void wsel__jw_i64(wsel__jw *j, long long v)
{
    before_value(j);
    fprintf(j->f, "%lld", v);
}

void wsel__jw_ki64(wsel__jw *j, const char *key, long long v)
{
    wsel__jw_key(j, key);
    wsel__jw_i64(j, v);
}

void wsel__jw_bool(wsel__jw *j, int v)
{
    before_value(j);
    fputs(v ? "true" : "false", j->f);
}

void wsel__jw_null(wsel__jw *j)
{
    before_value(j);
    fputs("null", j->f);
}

void wsel__jw_kstr(wsel__jw *j, const char *key, const char *s)
{
    wsel__jw_key(j, key);
    wsel__jw_str(j, s);
}

void wsel__jw_knum(wsel__jw *j, const char *key, double v)
{
    wsel__jw_key(j, key);
    wsel__jw_num(j, v);
}

void wsel__jw_ku64(wsel__jw *j, const char *key, unsigned long long v)
{
    wsel__jw_key(j, key);
    wsel__jw_u64(j, v);
}

void wsel__jw_kbool(wsel__jw *j, const char *key, int v)
{
    wsel__jw_key(j, key);
    wsel__jw_bool(j, v);
}

void wsel__jw_karr_begin(wsel__jw *j, const char *key)
{
    wsel__jw_key(j, key);
    wsel__jw_arr_begin(j);
}

void wsel__jw_kobj_begin(wsel__jw *j, const char *key)
{
    wsel__jw_key(j, key);
    wsel__jw_obj_begin(j);
}

int wsel__jw_finish(wsel__jw *j)
{
    fputc('\n', j->f);
    errno = 0;
    if (fflush(j->f) != 0 || ferror(j->f))
        j->err = errno ? errno : EIO;
    return j->err;
}

void wsel__jw_raw(wsel__jw *j, const char *json)
{
    before_value(j);
    fputs(json, j->f);
}
