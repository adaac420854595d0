/* Status strings and the error record. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Each code's fixed text and the generic kind it belongs to. */
static const struct {
    const char *text;
    wsel_error_kind kind;
} status[WSEL_STATUS_COUNT_] = {
    [WSEL_OK] = {"success", WSEL_ERROR_NONE},
    [WSEL_E_NOMEM] = {"out of memory", WSEL_ERROR_NOMEM},
    [WSEL_E_ARG] = {"invalid argument", WSEL_ERROR_ARG},
    [WSEL_E_IO] = {"cannot read file", WSEL_ERROR_IO},
    [WSEL_E_LIMIT] = {"input exceeds a limit", WSEL_ERROR_LIMIT},
    [WSEL_E_SYNTAX] = {"syntax error", WSEL_ERROR_SYNTAX},
    [WSEL_E_ESCAPE] = {"bad escape sequence", WSEL_ERROR_SYNTAX},
    [WSEL_E_DUPKEY] = {"duplicate key", WSEL_ERROR_DUPLICATE},
    [WSEL_E_INCLUDE] = {"bad include", WSEL_ERROR_REFERENCE},
    [WSEL_E_INCLUDE_CYCLE] = {"include cycle", WSEL_ERROR_REFERENCE},
    [WSEL_E_NOSTANZA] = {"no weighted plugin stanza", WSEL_ERROR_REFERENCE},
    [WSEL_E_TYPE] = {"value of the wrong type", WSEL_ERROR_TYPE},
    [WSEL_E_PARAM] = {"bad parameter value", WSEL_ERROR_RANGE},
    [WSEL_E_SVCTYPE] = {"unknown service type", WSEL_ERROR_REFERENCE},
    [WSEL_E_WEIGHT] = {"bad weight", WSEL_ERROR_RANGE},
    [WSEL_E_COUNT] = {"wrong number of items", WSEL_ERROR_RANGE},
    [WSEL_E_ADDR] = {"bad address", WSEL_ERROR_RANGE},
    [WSEL_E_CNAME] = {"bad CNAME", WSEL_ERROR_RANGE},
    [WSEL_E_MIXED] = {"mixed item types", WSEL_ERROR_TYPE},
    [WSEL_E_LEGACY] = {"legacy cnames stanza", WSEL_ERROR_SYNTAX},
    [WSEL_E_ITEM] = {"bad item", WSEL_ERROR_TYPE},
    [WSEL_E_NORESOURCE] = {"no such resource", WSEL_ERROR_REFERENCE},
    [WSEL_E_RECORD] = {"bad use from a zone record", WSEL_ERROR_REFERENCE},
    [WSEL_E_STATE] = {"bad monitoring state", WSEL_ERROR_STATE},
    [WSEL_E_UNSUPPORTED] = {"not supported on this CPU or build", WSEL_ERROR_UNSUPPORTED},
    [WSEL_E_RANGE] = {"value out of range", WSEL_ERROR_RANGE},
    [WSEL_E_REFERENCE] = {"reference to nothing configured", WSEL_ERROR_REFERENCE},
};

/* The kinds' names, in wsel_error_kind's order. */
static const char *const kind_text[WSEL_ERROR_KIND_COUNT_] = {
    "none", "out of memory", "argument", "input/output", "limit", "syntax", "type", "range",
    "reference", "duplicate", "state", "unsupported"};

wsel_error_kind wsel_error_kind_of(int code)
{
    if (code < 0 || code >= WSEL_STATUS_COUNT_)
        return WSEL_ERROR_ARG;
    return status[code].kind;
}

const char *wsel_error_kind_name(wsel_error_kind kind)
{
    if ((int)kind < 0 || kind >= WSEL_ERROR_KIND_COUNT_)
        return "unknown";
    return kind_text[kind];
}

const char *wsel_strerror(int code)
{
    if (code < 0 || code >= WSEL_STATUS_COUNT_ || !status[code].text)
        return "unknown error";
    return status[code].text;
}

void wsel_error_clear(wsel_error *err)
{
    if (err)
        memset(err, 0, sizeof *err);
}

static void copy_field(char *dst, size_t len, const char *src)
{
    snprintf(dst, len, "%s", src ? src : "");
}

int wsel__fail(wsel_error *err, int code, const char *file, unsigned line, unsigned col,
               const char *object, const char *path, const char *key,
               const char *fmt, ...)
{
    if (!err)
        return code;
    wsel_error_clear(err);
    err->code = code;
    copy_field(err->file, sizeof err->file, file);
    err->line = line;
    err->col = col;
    copy_field(err->object, sizeof err->object, object);
    copy_field(err->path, sizeof err->path, path);
    copy_field(err->key, sizeof err->key, key);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    return code;
}

char *wsel_error_format(const wsel_error *err, char *buf, size_t len)
{
    if (!buf || !len)
        return buf;
    buf[0] = '\0';
    if (!err)
        return buf;
    const char *msg = err->message[0] ? err->message : wsel_strerror(err->code);
    if (err->file[0] && err->line && err->col)
        snprintf(buf, len, "%s:%u:%u: %s", err->file, err->line, err->col, msg);
    else if (err->file[0] && err->line)
        snprintf(buf, len, "%s:%u: %s", err->file, err->line, msg);
    else if (err->file[0])
        snprintf(buf, len, "%s: %s", err->file, msg);
    else
        snprintf(buf, len, "%s", msg);
    return buf;
}

void wsel_free(void *p)
{
    free(p);
}
