/* bin/wsel: a small streaming JSON writer (RFC 8259), compact output. */
#include <errno.h>
#include <math.h>

#include "cli.h"

void jw_init(jw_out *j, FILE *f)
{
    j->f = f;
    j->depth = 0;
    j->first[0] = 1;
    j->after_key = 0;
}

/* Comma handling: every value or key inside a container is preceded by ',' except the
 * first; a value directly after its key needs nothing. */
static void before_value(jw_out *j)
{
    if (j->after_key) {
        j->after_key = 0;
        return;
    }
    if (!j->first[j->depth])
        fputc(',', j->f);
    j->first[j->depth] = 0;
}

static void open(jw_out *j, char c)
{
    before_value(j);
    fputc(c, j->f);
    if (j->depth + 1 < JSON_MAX_DEPTH)
        j->depth++;
    j->first[j->depth] = 1;
}

static void close_(jw_out *j, char c)
{
    fputc(c, j->f);
    if (j->depth > 0)
        j->depth--;
}

void jw_obj_begin(jw_out *j) { open(j, '{'); }
void jw_obj_end(jw_out *j) { close_(j, '}'); }
void jw_arr_begin(jw_out *j) { open(j, '['); }
void jw_arr_end(jw_out *j) { close_(j, ']'); }

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

void jw_key(jw_out *j, const char *key)
{
    before_value(j);
    raw_string(j->f, key);
    fputc(':', j->f);
    j->after_key = 1;
}

void jw_str(jw_out *j, const char *s)
{
    before_value(j);
    raw_string(j->f, s);
}

void jw_num(jw_out *j, double v)
{
    before_value(j);
    if (!isfinite(v))
        fputs("null", j->f);
    else if (v == 0)
        fputs("0", j->f); /* never "-0" */
    else
        fprintf(j->f, "%.17g", v);
}

void jw_u64(jw_out *j, unsigned long long v)
{
    before_value(j);
    fprintf(j->f, "%llu", v);
}

void jw_bool(jw_out *j, int v)
{
    before_value(j);
    fputs(v ? "true" : "false", j->f);
}

void jw_null(jw_out *j)
{
    before_value(j);
    fputs("null", j->f);
}

void jw_kstr(jw_out *j, const char *key, const char *s)
{
    jw_key(j, key);
    jw_str(j, s);
}

void jw_knum(jw_out *j, const char *key, double v)
{
    jw_key(j, key);
    jw_num(j, v);
}

void jw_ku64(jw_out *j, const char *key, unsigned long long v)
{
    jw_key(j, key);
    jw_u64(j, v);
}

void jw_kbool(jw_out *j, const char *key, int v)
{
    jw_key(j, key);
    jw_bool(j, v);
}

void jw_karr_begin(jw_out *j, const char *key)
{
    jw_key(j, key);
    jw_arr_begin(j);
}

void jw_kobj_begin(jw_out *j, const char *key)
{
    jw_key(j, key);
    jw_obj_begin(j);
}

int cli_write_errno;

void jw_finish(jw_out *j)
{
    fputc('\n', j->f);
    if (fflush(j->f) != 0)
        cli_write_errno = errno; /* main reports it after the command */
}

void cli_json_set_id(jw_out *j, const wsel_set *set)
{
    jw_key(j, "stanza");
    if (set->stanza)
        jw_str(j, set->stanza);
    else
        jw_null(j);
    jw_kstr(j, "family", cli_kind_name(set->kind));
    jw_kstr(j, "mode", wsel_mode_name(set->mode));
}
