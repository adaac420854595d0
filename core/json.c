/* The one JSON reading layer (core/json.h): parsing with jansson, JSON paths, the
 * locator that finds a decoded value's position in the original text again, failures
 * at a path, typed getters and the unknown-key policy. */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

#define NOT_FOUND SIZE_MAX

/* ---- scanning the text -------------------------------------------------------------
 * Every function reads t[0..len) only, and every loop moves forward by at least one
 * byte or stops, so any text (valid JSON or not) is scanned in bounded time. */

static bool is_ws(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static size_t skip_ws(const char *t, size_t len, size_t i)
{
    while (i < len && is_ws(t[i]))
        i++;
    return i;
}

/* t[i] is a string's opening quote: the offset just past its closing quote (len when it
 * has none). */
static size_t skip_string(const char *t, size_t len, size_t i)
{
    for (i++; i < len; i++) {
        if (t[i] == '\\')
            i++;
        else if (t[i] == '"')
            return i + 1;
    }
    return len;
}

/* The end of the number or literal at t[i]. */
static size_t skip_scalar(const char *t, size_t len, size_t i)
{
    while (i < len && !is_ws(t[i]) && !strchr(",:[]{}\"", t[i]))
        i++;
    return i;
}

/* The end of the value at t[i]: a string, a scalar, or an object or array with all it
 * holds (brackets counted, strings skipped; no stack). */
static size_t skip_value(const char *t, size_t len, size_t i)
{
    if (i >= len)
        return len;
    if (t[i] == '"')
        return skip_string(t, len, i);
    if (t[i] != '{' && t[i] != '[')
        return skip_scalar(t, len, i);
    size_t depth = 0;
    while (i < len) {
        char c = t[i];
        if (c == '"') {
            i = skip_string(t, len, i);
            continue;
        }
        if (c == '{' || c == '[')
            depth++;
        else if ((c == '}' || c == ']') && --depth == 0)
            return i + 1;
        i++;
    }
    return len;
}

/* The 4 hex digits at t[i..i+4) as a number, or -1. */
static long hex4(const char *t, size_t len, size_t i)
{
    if (i > len || len - i < 4)
        return -1;
    long v = 0;
    for (size_t k = i; k < i + 4; k++) {
        int c = (unsigned char)t[k], d;
        if (c >= '0' && c <= '9')
            d = c - '0';
        else if (c >= 'a' && c <= 'f')
            d = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F')
            d = c - 'A' + 10;
        else
            return -1;
        v = v * 16 + d;
    }
    return v;
}

static size_t utf8_put(long cp, unsigned char out[4])
{
    if (cp < 0x80) {
        out[0] = (unsigned char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (unsigned char)(0xC0 | (cp >> 6));
        out[1] = (unsigned char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (unsigned char)(0xE0 | (cp >> 12));
        out[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (unsigned char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (unsigned char)(0xF0 | (cp >> 18));
    out[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (unsigned char)(0x80 | (cp & 0x3F));
    return 4;
}

/* One character of a string's body at t[*i] (*i < len, not its closing quote), decoded
 * as jansson decodes it (escapes, \uXXXX, surrogate pairs) into out; returns its byte
 * count (1..4) and moves *i past it. What jansson would refuse decodes somehow. */
static size_t str_char(const char *t, size_t len, size_t *i, unsigned char out[4])
{
    static const char names[] = "\"\\/bfnrt", values[] = "\"\\/\b\f\n\r\t";
    size_t at = *i;
    if (t[at] != '\\' || len - at < 2) {
        out[0] = (unsigned char)t[at];
        *i = at + 1;
        return 1;
    }
    char e = t[at + 1];
    long cp = e == 'u' ? hex4(t, len, at + 2) : -1;
    if (cp < 0) {
        const char *s = e ? strchr(names, e) : NULL;
        out[0] = (unsigned char)(s ? values[s - names] : e);
        *i = at + 2;
        return 1;
    }
    *i = at + 6;
    if (cp >= 0xD800 && cp <= 0xDBFF && len - *i >= 6 && t[*i] == '\\' && t[*i + 1] == 'u') {
        long lo = hex4(t, len, *i + 2);
        if (lo >= 0xDC00 && lo <= 0xDFFF) {
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            *i += 6;
        }
    }
    return utf8_put(cp, out);
}

/* ---- keys as byte sequences, and writing paths ---- */

/* The decoded bytes of a key: a C string (s), or a JSON string in a text (t, at its
 * opening quote). */
typedef struct kcur {
    const char *s;
    const char *t;
    size_t len, i;
    unsigned char pend[4];
    size_t npend, ipend;
} kcur;

static kcur kcur_str(const char *s)
{
    return (kcur){.s = s ? s : ""};
}

static kcur kcur_json(const char *t, size_t len, size_t at)
{
    return (kcur){.t = t, .len = len, .i = at + 1};
}

/* The next byte of the key into *b; false at its end. */
static bool kcur_next(kcur *c, unsigned char *b)
{
    if (c->s) {
        if (!*c->s)
            return false;
        *b = (unsigned char)*c->s++;
        return true;
    }
    if (c->ipend == c->npend) {
        if (c->i >= c->len || c->t[c->i] == '"')
            return false;
        c->npend = str_char(c->t, c->len, &c->i, c->pend);
        c->ipend = 0;
    }
    *b = c->pend[c->ipend++];
    return true;
}

static bool ident_byte(unsigned char b, bool first)
{
    if ((b >= 'A' && b <= 'Z') || (b >= 'a' && b <= 'z') || b == '_')
        return true;
    return !first && ((b >= '0' && b <= '9') || b == '-');
}

/* [A-Za-z_][A-Za-z0-9_-]* */
static bool key_is_ident(kcur c)
{
    unsigned char b;
    size_t n = 0;
    while (kcur_next(&c, &b))
        if (!ident_byte(b, n++ == 0))
            return false;
    return n > 0;
}

/* Output into buf[0..len): `at` counts every byte put, also those that did not fit. */
typedef struct wbuf {
    char *buf;
    size_t len, at;
} wbuf;

static void put(wbuf *w, char c)
{
    if (w->buf && w->len && w->at < w->len - 1)
        w->buf[w->at] = c;
    w->at++;
}

static void puts_(wbuf *w, const char *s)
{
    while (*s)
        put(w, *s++);
}

static void finish(wbuf *w)
{
    if (w->buf && w->len)
        w->buf[w->at < w->len ? w->at : w->len - 1] = '\0';
}

/* .key or ["k\"e\u0001y"] */
static void put_key(wbuf *w, kcur c)
{
    unsigned char b;
    if (key_is_ident(c)) {
        put(w, '.');
        while (kcur_next(&c, &b))
            put(w, (char)b);
        return;
    }
    puts_(w, "[\"");
    while (kcur_next(&c, &b)) {
        if (b == '"' || b == '\\') {
            put(w, '\\');
            put(w, (char)b);
        } else if (b < 0x20 || b == 0x7F) {
            char u[8];
            snprintf(u, sizeof u, "\\u%04x", b);
            puts_(w, u);
        } else
            put(w, (char)b);
    }
    puts_(w, "\"]");
}

static void put_index(wbuf *w, size_t i)
{
    char s[32];
    snprintf(s, sizeof s, "[%zu]", i);
    puts_(w, s);
}

static void put_step(wbuf *w, const wsel__jpath *p)
{
    if (!p->up)
        put(w, '$');
    else if (p->key)
        put_key(w, kcur_str(p->key));
    else
        put_index(w, p->index);
}

/* ---- paths ---- */

static const wsel__jpath root_path = {NULL, NULL, 0};

wsel__jpath wsel__jkey(const wsel__jpath *up, const char *key)
{
    return (wsel__jpath){up ? up : &root_path, key ? key : "", 0};
}

wsel__jpath wsel__jidx(const wsel__jpath *up, size_t i)
{
    return (wsel__jpath){up ? up : &root_path, NULL, i};
}

/* Steps below the root. */
static size_t path_depth(const wsel__jpath *p)
{
    size_t d = 0;
    for (; p && p->up; p = p->up)
        d++;
    return d;
}

/* The steps are linked leaf to root; the text is written root first. Each step is
 * measured, then written at its place from the leaf up, so no stack is needed. */
size_t wsel__jpath_format(const wsel__jpath *p, char *buf, size_t len)
{
    wbuf m = {NULL, 0, 0};
    for (const wsel__jpath *s = p; s; s = s->up)
        put_step(&m, s);
    if (!p)
        put(&m, '$');
    size_t total = m.at, end = total;
    wbuf w = {buf, len, 0};
    for (const wsel__jpath *s = p; s; s = s->up) {
        wbuf one = {NULL, 0, 0};
        put_step(&one, s);
        end -= one.at;
        w.at = end;
        if (end < len)
            put_step(&w, s);
    }
    if (!p) {
        w.at = 0;
        put(&w, '$');
    }
    w.at = total;
    finish(&w);
    return total;
}

/* ---- the locator ---- */

/* Whether the JSON string at t[at] (its opening quote) decodes to key. */
static bool key_equals(const char *t, size_t len, size_t at, const char *key)
{
    kcur c = kcur_json(t, len, at);
    unsigned char b;
    const unsigned char *k = (const unsigned char *)key;
    while (kcur_next(&c, &b))
        if (!*k || *k++ != b)
            return false;
    return !*k && c.i < len; /* and the string was closed */
}

/* The value (or with want_key the name) of member `key` of the object at t[pos]. */
static size_t step_object(const char *t, size_t len, size_t pos, const char *key, bool want_key)
{
    if (pos >= len || t[pos] != '{')
        return NOT_FOUND;
    for (pos++;;) {
        pos = skip_ws(t, len, pos);
        if (pos >= len || t[pos] != '"')
            return NOT_FOUND;
        size_t ks = pos;
        bool match = key_equals(t, len, ks, key);
        pos = skip_ws(t, len, skip_string(t, len, ks));
        if (pos >= len || t[pos] != ':')
            return NOT_FOUND;
        pos = skip_ws(t, len, pos + 1);
        if (match)
            return want_key ? ks : pos;
        pos = skip_ws(t, len, skip_value(t, len, pos));
        if (pos >= len || t[pos] != ',')
            return NOT_FOUND;
        pos++;
    }
}

/* Element `index` of the array at t[pos]. */
static size_t step_array(const char *t, size_t len, size_t pos, size_t index)
{
    if (pos >= len || t[pos] != '[')
        return NOT_FOUND;
    pos = skip_ws(t, len, pos + 1);
    for (size_t i = 0;; i++) {
        if (pos >= len || t[pos] == ']')
            return NOT_FOUND;
        if (i == index)
            return pos;
        pos = skip_ws(t, len, skip_value(t, len, pos));
        if (pos >= len || t[pos] != ',')
            return NOT_FOUND;
        pos = skip_ws(t, len, pos + 1);
    }
}

#define CHUNK 32

/* The steps are visited root first, CHUNK at a time: each chunk is gathered by walking
 * up from the leaf, so a path of any depth costs depth^2 / CHUNK pointer steps. */
bool wsel__json_locate(const char *text, size_t len, const wsel__jpath *p, bool key,
                       size_t *off)
{
    size_t depth = path_depth(p), pos = text ? skip_ws(text, len, 0) : 0;
    const wsel__jpath *chunk[CHUNK];
    *off = pos;
    if (!text)
        return false;
    for (size_t lvl = 0; lvl < depth;) {
        size_t n = depth - lvl < CHUNK ? depth - lvl : CHUNK;
        const wsel__jpath *s = p;
        for (size_t up = depth - (lvl + n); up; up--)
            s = s->up;
        for (size_t k = n; k-- > 0; s = s->up)
            chunk[k] = s;
        for (size_t k = 0; k < n; k++, lvl++) {
            const wsel__jpath *st = chunk[k];
            size_t next = st->key ? step_object(text, len, pos, st->key, key && lvl + 1 == depth)
                                  : step_array(text, len, pos, st->index);
            if (next == NOT_FOUND)
                return false;
            *off = pos = next;
        }
    }
    return true;
}

void wsel__json_linecol(const char *text, size_t len, size_t off, unsigned *line, unsigned *col)
{
    unsigned l = 1, c = 1;
    if (off > len)
        off = len;
    for (size_t i = 0; text && i < off; i++) {
        if (text[i] == '\n') {
            l += l < UINT_MAX;
            c = 1;
        } else if (((unsigned char)text[i] & 0xC0) != 0x80)
            c += c < UINT_MAX;
    }
    *line = l;
    *col = c;
}

size_t wsel__json_key_start(const char *text, size_t len, size_t end)
{
    if (!text || end < 2 || end > len || text[end - 1] != '"')
        return NOT_FOUND;
    for (size_t i = end - 1; i-- > 0;) {
        if (text[i] != '"')
            continue;
        size_t j = i;
        while (j > 0 && text[j - 1] == '\\')
            j--;
        if ((i - j) % 2 == 0)
            return i;
    }
    return NOT_FOUND;
}

/* In the object at t[pos], the member whose value's text holds off: writes its step and
 * returns its value's offset; NOT_FOUND when off is in the object itself (in a member's
 * name or just past it, between members, or past the last). A value that runs to the
 * end of the text (cut short) holds every offset from its start. */
static size_t member_at(const char *t, size_t len, size_t pos, size_t off, wbuf *w)
{
    for (pos++;;) {
        pos = skip_ws(t, len, pos);
        if (pos >= len || t[pos] != '"')
            return NOT_FOUND;
        size_t ks = pos;
        pos = skip_ws(t, len, skip_string(t, len, ks));
        if (pos >= len || t[pos] != ':')
            return NOT_FOUND;
        size_t vs = skip_ws(t, len, pos + 1);
        if (off < vs)
            return NOT_FOUND;
        size_t ve = skip_value(t, len, vs);
        if (off < ve || ve >= len) {
            put_key(w, kcur_json(t, len, ks));
            return vs;
        }
        pos = skip_ws(t, len, ve);
        if (pos >= len || t[pos] != ',')
            return NOT_FOUND;
        pos++;
    }
}

/* In the array at t[pos], the element whose text holds off (as member_at). */
static size_t element_at(const char *t, size_t len, size_t pos, size_t off, wbuf *w)
{
    pos = skip_ws(t, len, pos + 1);
    for (size_t i = 0;; i++) {
        if (pos >= len || t[pos] == ']' || off < pos)
            return NOT_FOUND;
        size_t ve = skip_value(t, len, pos);
        if (off < ve || ve >= len) {
            put_index(w, i);
            return pos;
        }
        pos = skip_ws(t, len, ve);
        if (pos >= len || t[pos] != ',')
            return NOT_FOUND;
        pos = skip_ws(t, len, pos + 1);
    }
}

size_t wsel__json_path_at(const char *text, size_t len, size_t off, char *buf, size_t buflen)
{
    wbuf w = {buf, buflen, 0};
    put(&w, '$');
    size_t pos = text ? skip_ws(text, len, 0) : len;
    while (pos < len && pos < off && (text[pos] == '{' || text[pos] == '[')) {
        size_t next = text[pos] == '{' ? member_at(text, len, pos, off, &w)
                                        : element_at(text, len, pos, off, &w);
        if (next == NOT_FOUND)
            break;
        pos = next;
    }
    finish(&w);
    return w.at;
}

size_t wsel__json_string_at(const char *text, size_t len, size_t at, char *buf, size_t buflen)
{
    wbuf w = {buf, buflen, 0};
    if (text && at < len && text[at] == '"') {
        kcur c = kcur_json(text, len, at);
        unsigned char b;
        while (kcur_next(&c, &b))
            put(&w, (char)b);
    }
    finish(&w);
    return w.at;
}

/* ---- parsing ---- */

/* The message is `what`, bare or followed by the text of a string token: " near '\"...'"
 * (jansson adds the token's text when it is at most 20 bytes long). */
static bool said_of_string(const char *msg, const char *what)
{
    size_t n = strlen(what);
    return strncmp(msg, what, n) == 0 && (!msg[n] || strncmp(msg + n, " near '\"", 8) == 0);
}

/* jansson reports an allocation that fails in its lexer (the buffer of a string token)
 * as "invalid token" or "string or '}' expected" just past that string, a string that
 * lexed well, naming that string's text if it names any: a string that does not lex
 * gets its own message first, and jansson keeps the first message. No other fault of
 * the text is reported there with those words (an invalid token right after a string,
 * as in '"k":&', names '&'). */
static bool lexer_nomem(const json_error_t *je, const char *text, size_t len)
{
    if (json_error_code(je) != json_error_invalid_syntax || je->position <= 0 ||
        (size_t)je->position > len)
        return false;
    if (!said_of_string(je->text, "invalid token") &&
        !said_of_string(je->text, "string or '}' expected"))
        return false;
    return wsel__json_key_start(text, len, (size_t)je->position) != NOT_FOUND;
}

/* jansson stops just past the repeated key: report it at its start, with the path of
 * the object holding it. */
static int dup_key(const wsel__json *j, const json_error_t *je)
{
    size_t end = je->position > 0 ? (size_t)je->position : 0;
    size_t ks = wsel__json_key_start(j->text, j->len, end);
    if (ks == NOT_FOUND)
        return wsel__fail(j->err, WSEL_E_DUPKEY, j->name, je->line > 0 ? (unsigned)je->line : 0,
                          je->column > 0 ? (unsigned)je->column : 0, NULL, NULL, NULL, "%s",
                          je->text);
    char path[256], key[256];
    unsigned line, col;
    wsel__json_path_at(j->text, j->len, end, path, sizeof path);
    wsel__json_string_at(j->text, j->len, ks, key, sizeof key);
    wsel__json_linecol(j->text, j->len, ks, &line, &col);
    return wsel__fail(j->err, WSEL_E_DUPKEY, j->name, line, col, path, path, key,
                      "%s: duplicate key '%s'", path, key);
}

static int parse_error(const wsel__json *j, const json_error_t *je)
{
    enum json_error_code code = json_error_code(je);
    /* Out of memory: jansson's own code; no text (it could not even start, or an
     * allocation failed where it sets no message); or the lexer's string buffer. */
    if (!je->text[0] || code == json_error_out_of_memory || lexer_nomem(je, j->text, j->len))
        return wsel__fail(j->err, WSEL_E_NOMEM, j->name, 0, 0, NULL, NULL, NULL, "out of memory");
    if (code == json_error_duplicate_key)
        return dup_key(j, je);
    int rc = code == json_error_stack_overflow     ? WSEL_E_LIMIT
             : code == json_error_numeric_overflow ? WSEL_E_RANGE
                                                   : WSEL_E_SYNTAX;
    /* jansson's column 0 is the start of a line, before its first character: 1 here,
     * where columns are 1-based whenever there is a line */
    unsigned line = je->line > 0 ? (unsigned)je->line : 0;
    unsigned col = je->column > 0 ? (unsigned)je->column : line ? 1 : 0;
    return wsel__fail(j->err, rc, j->name, line, col, NULL, NULL, NULL, "%s", je->text);
}

static const char *got(const json_t *v, char *buf, size_t len);

int wsel__json_parse(wsel__json *j, const char *name, const char *text, size_t len,
                     wsel_error *err)
{
    if (!j || (!text && len)) {
        if (j)
            memset(j, 0, sizeof *j);
        return wsel__fail(err, WSEL_E_ARG, name, 0, 0, NULL, NULL, NULL, "no JSON text given");
    }
    *j = (wsel__json){name, text ? text : "", len, NULL, err};
    json_error_t je;
    memset(&je, 0, sizeof je);
    json_t *root = json_loadb(j->text, len, JSON_REJECT_DUPLICATES, &je);
    if (!root)
        return parse_error(j, &je);
    if (!json_is_object(root)) {
        char g[64];
        int rc = wsel__json_fail(j, NULL, WSEL_E_TYPE, "expected an object, got %s",
                                 got(root, g, sizeof g));
        json_decref(root);
        return rc;
    }
    j->root = root;
    return 0;
}

void wsel__json_free(wsel__json *j)
{
    if (!j)
        return;
    json_decref(j->root);
    memset(j, 0, sizeof *j);
}

/* ---- failing at a path ---- */

static int fail_at(const wsel__json *j, const wsel__jpath *p, bool at_key, const char *key,
                   int code, const char *fmt, va_list ap) WSEL_PRINTF(6, 0);
static int fail_at(const wsel__json *j, const wsel__jpath *p, bool at_key, const char *key,
                   int code, const char *fmt, va_list ap)
{
    if (!j || !j->err)
        return code;
    char path[256], msg[1024];
    size_t off;
    unsigned line = 0, col = 0;
    wsel__jpath_format(p, path, sizeof path);
    vsnprintf(msg, sizeof msg, fmt, ap);
    if (j->text) {
        wsel__json_locate(j->text, j->len, p, at_key, &off);
        wsel__json_linecol(j->text, j->len, off, &line, &col);
    }
    return wsel__fail(j->err, code, j->name, line, col, path, path, key, "%s: %s", path, msg);
}

static const char *path_key(const wsel__jpath *p)
{
    return p && p->up ? p->key : NULL;
}

/* wsel__json_fail and wsel__json_fail_key: the same but for where they point. */
#define JSON_FAIL(name, at_key)                                                          \
    int name(const wsel__json *j, const wsel__jpath *p, int code, const char *fmt, ...) \
    {                                                                                    \
        va_list ap;                                                                      \
        va_start(ap, fmt);                                                               \
        int rc = fail_at(j, p, (at_key), path_key(p), code, fmt, ap);                     \
        va_end(ap);                                                                      \
        return rc;                                                                       \
    }
JSON_FAIL(wsel__json_fail, false)
JSON_FAIL(wsel__json_fail_key, true)

/* At the value at p, with err->key = key instead of p's own. */
static int fail_named(const wsel__json *j, const wsel__jpath *p, const char *key, int code,
                      const char *fmt, ...) WSEL_PRINTF(5, 6);
static int fail_named(const wsel__json *j, const wsel__jpath *p, const char *key, int code,
                      const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = fail_at(j, p, false, key, code, fmt, ap);
    va_end(ap);
    return rc;
}

/* ---- typed getters ---- */

/* The shortest %g spelling that reads back as d. */
static void fmt_g(double d, char *buf, size_t len)
{
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, len, "%.*g", prec, d);
        if (!isfinite(d) || strtod(buf, NULL) == d)
            return;
    }
}

/* A real as found: 1.0 keeps its ".0", so that it does not read as an integer. */
static void fmt_real(double d, char *buf, size_t len)
{
    if (isfinite(d) && d == floor(d) && fabs(d) < 1e15)
        snprintf(buf, len, "%.1f", d);
    else
        fmt_g(d, buf, len);
}

/* A bound as written in a range: 100, 0.5, 1e+15. */
static void fmt_bound(double d, char *buf, size_t len)
{
    if (isfinite(d) && d == floor(d) && fabs(d) < 1e15)
        snprintf(buf, len, "%.0f", d);
    else
        fmt_g(d, buf, len);
}

/* v as the typed reads see it. */
static wsel__jval jval_of(const json_t *v)
{
    wsel__jval x = {json_typeof(v), 0, 0, NULL, 0};
    if (json_is_integer(v))
        x.i = json_integer_value(v);
    else if (json_is_real(v))
        x.r = json_real_value(v);
    else if (json_is_string(v)) {
        x.s = json_string_value(v);
        x.n = json_string_length(v);
    } else if (json_is_array(v))
        x.n = json_array_size(v);
    else if (json_is_object(v))
        x.n = json_object_size(v);
    return x;
}

/* What v is, for "got ...": its value when it is a number or literal. */
static const char *got_v(const wsel__jval *v, char *buf, size_t len)
{
    if (!v)
        return "nothing";
    switch (v->type) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER:
        snprintf(buf, len, "%lld", v->i);
        return buf;
    case JSON_REAL:
        fmt_real(v->r, buf, len);
        return buf;
    case JSON_TRUE: return "true";
    case JSON_FALSE: return "false";
    case JSON_NULL: return "null";
    }
    return "something else";
}

static const char *got(const json_t *v, char *buf, size_t len)
{
    wsel__jval x = v ? jval_of(v) : (wsel__jval){0};
    return got_v(v ? &x : NULL, buf, len);
}

/* The json_t read `name` as the wsel__jval read `jv` of the same value. */
#define JV_WRAP(name, jv, params, args)                                                  \
    int name(const wsel__json *j, const wsel__jpath *p, const json_t *v WSEL__UNPAREN params) \
    {                                                                                    \
        wsel__jval x = v ? jval_of(v) : (wsel__jval){0};                                 \
        return jv(j, p, v ? &x : NULL WSEL__UNPAREN args);                               \
    }
#define WSEL__UNPAREN(...) __VA_ARGS__

int wsel__jv_bool(const wsel__json *j, const wsel__jpath *p, const wsel__jval *v, bool *out)
{
    char g[64];
    if (!v || (v->type != JSON_TRUE && v->type != JSON_FALSE))
        return wsel__json_fail(j, p, WSEL_E_TYPE, "expected true or false, got %s",
                               got_v(v, g, sizeof g));
    *out = v->type == JSON_TRUE;
    return 0;
}
JV_WRAP(wsel__json_bool, wsel__jv_bool, (, bool *out), (, out))

/* "an integer in 1..65535", "an integer >= 0", "an integer" */
static const char *int_want(long long lo, long long hi, char *buf, size_t len)
{
    if (lo == LLONG_MIN && hi == LLONG_MAX)
        snprintf(buf, len, "an integer");
    else if (hi == LLONG_MAX)
        snprintf(buf, len, "an integer >= %lld", lo);
    else if (lo == LLONG_MIN)
        snprintf(buf, len, "an integer <= %lld", hi);
    else
        snprintf(buf, len, "an integer in %lld..%lld", lo, hi);
    return buf;
}

int wsel__jv_int(const wsel__json *j, const wsel__jpath *p, const wsel__jval *v, long long lo,
                 long long hi, long long *out)
{
    char g[64], w[96];
    if (!v || v->type != JSON_INTEGER)
        return wsel__json_fail(j, p, WSEL_E_TYPE, "expected %s, got %s",
                               int_want(lo, hi, w, sizeof w), got_v(v, g, sizeof g));
    long long x = v->i;
    if (x < lo || x > hi)
        return wsel__json_fail(j, p, WSEL_E_RANGE, "expected %s, got %lld",
                               int_want(lo, hi, w, sizeof w), x);
    *out = x;
    return 0;
}
JV_WRAP(wsel__json_int, wsel__jv_int, (, long long lo, long long hi, long long *out),
        (, lo, hi, out))

int wsel__json_u64(const wsel__json *j, const wsel__jpath *p, const json_t *v, uint64_t *out)
{
    char g[64];
    if (!json_is_integer(v))
        return wsel__json_fail(j, p, WSEL_E_TYPE, "expected a non-negative integer, got %s",
                               got(v, g, sizeof g));
    if (json_integer_value(v) < 0)
        return wsel__json_fail(j, p, WSEL_E_RANGE, "expected a non-negative integer, got %s",
                               got(v, g, sizeof g));
    *out = (uint64_t)json_integer_value(v);
    return 0;
}

/* "a number in 0..1e+15", "a number >= 0", "a number" */
static const char *num_want(double lo, double hi, char *buf, size_t len)
{
    char l[40], h[40];
    fmt_bound(lo, l, sizeof l);
    fmt_bound(hi, h, sizeof h);
    if (isinf(lo) && isinf(hi))
        snprintf(buf, len, "a number");
    else if (isinf(hi))
        snprintf(buf, len, "a number >= %s", l);
    else if (isinf(lo))
        snprintf(buf, len, "a number <= %s", h);
    else
        snprintf(buf, len, "a number in %s..%s", l, h);
    return buf;
}

int wsel__jv_num(const wsel__json *j, const wsel__jpath *p, const wsel__jval *v, double lo,
                 double hi, double *out)
{
    char g[64], w[100];
    if (!v || (v->type != JSON_INTEGER && v->type != JSON_REAL))
        return wsel__json_fail(j, p, WSEL_E_TYPE, "expected %s, got %s",
                               num_want(lo, hi, w, sizeof w), got_v(v, g, sizeof g));
    double d = v->type == JSON_INTEGER ? (double)v->i : v->r;
    if (!isfinite(d) || !(d >= lo && d <= hi))
        return wsel__json_fail(j, p, WSEL_E_RANGE, "expected %s, got %s",
                               num_want(lo, hi, w, sizeof w), got_v(v, g, sizeof g));
    *out = d;
    return 0;
}
JV_WRAP(wsel__json_num, wsel__jv_num, (, double lo, double hi, double *out), (, lo, hi, out))

int wsel__jv_str(const wsel__json *j, const wsel__jpath *p, const wsel__jval *v,
                 const char **out)
{
    char g[64];
    if (!v || v->type != JSON_STRING)
        return wsel__json_fail(j, p, WSEL_E_TYPE, "expected a string, got %s",
                               got_v(v, g, sizeof g));
    if (strlen(v->s) != v->n)
        return wsel__json_fail(j, p, WSEL_E_RANGE, "expected a string without NUL characters");
    *out = v->s;
    return 0;
}
JV_WRAP(wsel__json_str, wsel__jv_str, (, const char **out), (, out))

int wsel__jv_obj(const wsel__json *j, const wsel__jpath *p, const wsel__jval *v)
{
    char g[64];
    if (!v || v->type != JSON_OBJECT)
        return wsel__json_fail(j, p, WSEL_E_TYPE, "expected an object, got %s",
                               got_v(v, g, sizeof g));
    return 0;
}
JV_WRAP(wsel__json_obj, wsel__jv_obj, (), ())

int wsel__jv_arr(const wsel__json *j, const wsel__jpath *p, const wsel__jval *v, size_t max,
                 size_t *n)
{
    char g[64], w[80] = "";
    if (max != SIZE_MAX)
        snprintf(w, sizeof w, " of at most %zu elements", max);
    if (!v || v->type != JSON_ARRAY)
        return wsel__json_fail(j, p, WSEL_E_TYPE, "expected an array%s, got %s", w,
                               got_v(v, g, sizeof g));
    if (v->n > max)
        return wsel__json_fail(j, p, WSEL_E_LIMIT, "expected an array%s, got %zu", w, v->n);
    if (n)
        *n = v->n;
    return 0;
}
JV_WRAP(wsel__json_arr, wsel__jv_arr, (, size_t max, size_t *n), (, max, n))

int wsel__json_member(const wsel__json *j, const wsel__jpath *p, const json_t *obj,
                      const char *key, bool required, const json_t **out)
{
    *out = json_is_object(obj) && key ? json_object_get(obj, key) : NULL;
    if (*out || !required)
        return 0;
    return wsel__json_missing(j, p, key);
}

int wsel__json_missing(const wsel__json *j, const wsel__jpath *p, const char *key)
{
    return fail_named(j, p, key ? key : "", WSEL_E_TYPE, "missing '%s'", key ? key : "");
}

/* ---- the unknown-key policy ---- */

static unsigned char lower(unsigned char c)
{
    return c >= 'A' && c <= 'Z' ? (unsigned char)(c - 'A' + 'a') : c;
}

#define HINT_MAX 64

/* Optimal string alignment distance ignoring (ASCII) case: insertions, deletions,
 * substitutions and swaps of neighbours cost 1 each. Three rolling rows; keys longer
 * than HINT_MAX are far from everything. */
static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > HINT_MAX || lb > HINT_MAX)
        return SIZE_MAX;
    size_t rows[3][HINT_MAX + 1];
    size_t *r2 = rows[0], *r1 = rows[1], *r = rows[2];
    for (size_t k = 0; k <= lb; k++)
        r1[k] = k;
    for (size_t i = 1; i <= la; i++) {
        unsigned char ca = lower((unsigned char)a[i - 1]);
        r[0] = i;
        for (size_t k = 1; k <= lb; k++) {
            unsigned char cb = lower((unsigned char)b[k - 1]);
            size_t v = r1[k - 1] + (ca != cb);
            if (r1[k] + 1 < v)
                v = r1[k] + 1;
            if (r[k - 1] + 1 < v)
                v = r[k - 1] + 1;
            if (i > 1 && k > 1 && ca == lower((unsigned char)b[k - 2]) &&
                lower((unsigned char)a[i - 2]) == cb && r2[k - 2] + 1 < v)
                v = r2[k - 2] + 1;
            r[k] = v;
        }
        size_t *t = r2;
        r2 = r1;
        r1 = r;
        r = t;
    }
    return r1[lb];
}

/* The known key nearest to k: at most 2 edits, fewer than it has characters; the first
 * listed among the nearest. NULL when none is. */
static const char *key_hint(const char *const *keys, const char *k)
{
    const char *best = NULL;
    size_t best_d = 3;
    for (const char *const *p = keys; *p; p++) {
        size_t d = edit_distance(k, *p);
        if (d < best_d && d < strlen(*p)) {
            best = *p;
            best_d = d;
        }
    }
    return best;
}

static bool is_known(const char *const *keys, const char *k)
{
    for (const char *const *p = keys; *p; p++)
        if (!strcmp(*p, k))
            return true;
    return false;
}

int wsel__json_key_check(const wsel__json *j, const wsel__jpath *p, const char *k,
                         const char *const *keys)
{
    if (is_known(keys, k))
        return 0;
    const char *hint = key_hint(keys, k);
    wsel__jpath kp = wsel__jkey(p, k);
    return wsel__json_fail_key(j, &kp, WSEL_E_SYNTAX, "unknown key '%s'%s%s%s", k,
                               hint ? " (did you mean '" : "", hint ? hint : "",
                               hint ? "'?)" : "");
}

int wsel__json_keys(const wsel__json *j, const wsel__jpath *p, const json_t *v,
                    const char *const *keys)
{
    json_t *o = (json_t *)v; /* jansson's iterators take no const; nothing is changed */
    for (void *it = json_object_iter(o); it; it = json_object_iter_next(o, it)) {
        int rc = wsel__json_key_check(j, p, json_object_iter_key(it), keys);
        if (rc)
            return rc;
    }
    return 0;
}
