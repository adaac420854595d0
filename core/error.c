/* Status strings and the error record. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static const char *const status_text[WSEL_STATUS_COUNT_] = {
    [WSEL_OK] = "success",
    [WSEL_E_NOMEM] = "out of memory",
    [WSEL_E_ARG] = "invalid argument",
    [WSEL_E_IO] = "cannot read file",
    [WSEL_E_LIMIT] = "input exceeds a limit",
    [WSEL_E_SYNTAX] = "syntax error",
    [WSEL_E_ESCAPE] = "bad escape sequence",
    [WSEL_E_DUPKEY] = "duplicate key",
    [WSEL_E_INCLUDE] = "bad include",
    [WSEL_E_INCLUDE_CYCLE] = "include cycle",
    [WSEL_E_NOSTANZA] = "no weighted plugin stanza",
    [WSEL_E_TYPE] = "value of the wrong type",
    [WSEL_E_PARAM] = "bad parameter value",
    [WSEL_E_SVCTYPE] = "unknown service type",
    [WSEL_E_WEIGHT] = "bad weight",
    [WSEL_E_COUNT] = "wrong number of items",
    [WSEL_E_ADDR] = "bad address",
    [WSEL_E_CNAME] = "bad CNAME",
    [WSEL_E_MIXED] = "mixed item types",
    [WSEL_E_LEGACY] = "legacy cnames stanza",
    [WSEL_E_ITEM] = "bad item",
    [WSEL_E_NORESOURCE] = "no such resource",
    [WSEL_E_RECORD] = "bad use from a zone record",
    [WSEL_E_STATE] = "bad monitoring state",
    [WSEL_E_UNSUPPORTED] = "not supported on this CPU or build",
    [WSEL_E_RANGE] = "value out of range",
    [WSEL_E_REFERENCE] = "reference to nothing configured",
};

static const unsigned char status_kind[WSEL_STATUS_COUNT_] = {
    [WSEL_OK] = WSEL_ERROR_NONE,
    [WSEL_E_NOMEM] = WSEL_ERROR_NOMEM,
    [WSEL_E_ARG] = WSEL_ERROR_ARG,
    [WSEL_E_IO] = WSEL_ERROR_IO,
    [WSEL_E_LIMIT] = WSEL_ERROR_LIMIT,
    [WSEL_E_SYNTAX] = WSEL_ERROR_SYNTAX,
    [WSEL_E_ESCAPE] = WSEL_ERROR_SYNTAX,
    [WSEL_E_DUPKEY] = WSEL_ERROR_DUPLICATE,
    [WSEL_E_INCLUDE] = WSEL_ERROR_REFERENCE,
    [WSEL_E_INCLUDE_CYCLE] = WSEL_ERROR_REFERENCE,
    [WSEL_E_NOSTANZA] = WSEL_ERROR_REFERENCE,
    [WSEL_E_TYPE] = WSEL_ERROR_TYPE,
    [WSEL_E_PARAM] = WSEL_ERROR_RANGE,
    [WSEL_E_SVCTYPE] = WSEL_ERROR_REFERENCE,
    [WSEL_E_WEIGHT] = WSEL_ERROR_RANGE,
    [WSEL_E_COUNT] = WSEL_ERROR_RANGE,
    [WSEL_E_ADDR] = WSEL_ERROR_RANGE,
    [WSEL_E_CNAME] = WSEL_ERROR_RANGE,
    [WSEL_E_MIXED] = WSEL_ERROR_TYPE,
    [WSEL_E_LEGACY] = WSEL_ERROR_SYNTAX,
    [WSEL_E_ITEM] = WSEL_ERROR_TYPE,
    [WSEL_E_NORESOURCE] = WSEL_ERROR_REFERENCE,
    [WSEL_E_RECORD] = WSEL_ERROR_REFERENCE,
    [WSEL_E_STATE] = WSEL_ERROR_STATE,
    [WSEL_E_UNSUPPORTED] = WSEL_ERROR_UNSUPPORTED,
    [WSEL_E_RANGE] = WSEL_ERROR_RANGE,
    [WSEL_E_REFERENCE] = WSEL_ERROR_REFERENCE,
};

static const char *const kind_text[WSEL_ERROR_KIND_COUNT_] = {
    [WSEL_ERROR_NONE] = "none",
    [WSEL_ERROR_NOMEM] = "out of memory",
    [WSEL_ERROR_ARG] = "argument",
    [WSEL_ERROR_IO] = "input/output",
    [WSEL_ERROR_LIMIT] = "limit",
    [WSEL_ERROR_SYNTAX] = "syntax",
    [WSEL_ERROR_TYPE] = "type",
    [WSEL_ERROR_RANGE] = "range",
    [WSEL_ERROR_REFERENCE] = "reference",
    [WSEL_ERROR_DUPLICATE] = "duplicate",
    [WSEL_ERROR_STATE] = "state",
    [WSEL_ERROR_UNSUPPORTED] = "unsupported",
};

wsel_error_kind wsel_error_kind_of(int code)
{
    if (code < 0 || code >= WSEL_STATUS_COUNT_)
        return WSEL_ERROR_ARG;
    return (wsel_error_kind)status_kind[code];
}

const char *wsel_error_kind_name(wsel_error_kind kind)
{
    if ((int)kind < 0 || kind >= WSEL_ERROR_KIND_COUNT_)
        return "unknown";
    return kind_text[kind];
}

const char *wsel_strerror(int code)
{
    if (code < 0 || code >= WSEL_STATUS_COUNT_ || !status_text[code])
        return "unknown error";
    return status_text[code];
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
