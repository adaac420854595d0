/* Reading input files; text built in memory (core/io.h). */
#define _GNU_SOURCE /* open_memstream */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io.h"

typedef struct reader {
    const char *path, *what;
    const wsel__at *at;
    wsel_error *err;
} reader;

static int fail(const reader *r, int code, const char *fmt, ...) WSEL_PRINTF(3, 4);

/* "WHAT 'PATH'" + the message, at r->at or in the file itself. */
static int fail(const reader *r, int code, const char *fmt, ...)
{
    char msg[sizeof r->err->message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    const wsel__at *at = r->at;
    return wsel__fail(r->err, code, at ? at->file : r->path, at ? at->line : 0,
                      at ? at->col : 0, NULL, NULL, NULL, "%s", msg);
}

/* A socket is named for completeness: open() of a UNIX socket's path fails (ENXIO)
 * before fstat, so no path reaches that branch today. */
static const char *kind_of(mode_t m)
{
    return S_ISDIR(m)                  ? "a directory"
           : S_ISFIFO(m)               ? "a FIFO (named pipe)"
           : S_ISSOCK(m)               ? "a socket"
           : S_ISCHR(m) || S_ISBLK(m)  ? "a device"
                                       : "not a regular file";
}

/* Opens a regular file: O_NONBLOCK keeps the open from waiting for a FIFO's writer,
 * fstat refuses what is not a regular file before any read; *size: its size then.
 * -1 with the error filled. */
static int open_regular(const reader *r, size_t max_size, size_t *size, int *rc)
{
    int fd = open(r->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        *rc = fail(r, WSEL_E_IO, "cannot open %s '%s': %s", r->what, r->path, strerror(errno));
        return -1;
    }
    struct stat st;
    int fl;
    if (fstat(fd, &st) != 0 || (fl = fcntl(fd, F_GETFL)) < 0 ||
        fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0)
        *rc = fail(r, WSEL_E_IO, "cannot read %s '%s': %s", r->what, r->path, strerror(errno));
    else if (!S_ISREG(st.st_mode))
        *rc = fail(r, WSEL_E_IO, "%s '%s' is %s; expected a regular file", r->what, r->path,
                   kind_of(st.st_mode));
    else if ((unsigned long long)st.st_size > max_size)
        *rc = fail(r, WSEL_E_LIMIT, "%s '%s' is larger than the limit of %zu bytes", r->what,
                   r->path, max_size);
    else {
        *size = (size_t)st.st_size;
        return fd;
    }
    close(fd);
    return -1;
}

/* Reads fd to its end, at most max_size + 1 bytes; size: what fstat said (the buffer
 * is that large at first, not grown from small and zeroed: a 10 MB scenario spent a
 * tenth of its reading time there). */
static int read_all(const reader *r, int fd, size_t max_size, size_t size, char **data,
                    size_t *len)
{
    size_t cap = size ? size + 2 : 0, n = 0;
    char *buf = cap ? malloc(cap) : NULL;
    if (!buf)
        cap = 0;
    for (;;) {
        if (n + 1 >= cap && !wsel__grow(&buf, &cap, n + 4096 + 1, 1)) {
            free(buf);
            return fail(r, WSEL_E_NOMEM, "out of memory reading %s '%s'", r->what, r->path);
        }
        size_t want = cap - 1 - n;
        if (want > max_size + 1 - n)
            want = max_size + 1 - n;
        ssize_t got = want ? read(fd, buf + n, want) : 0;
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            int e = errno;
            free(buf);
            return fail(r, WSEL_E_IO, "cannot read %s '%s': %s", r->what, r->path, strerror(e));
        }
        n += (size_t)got;
        if (got == 0 || n > max_size)
            break;
    }
    if (n > max_size) {
        free(buf);
        return fail(r, WSEL_E_LIMIT, "%s '%s' is larger than the limit of %zu bytes", r->what,
                    r->path, max_size);
    }
    buf[n] = '\0';
    *data = buf;
    *len = n;
    return WSEL_OK;
}

int wsel__read_file(const char *path, const char *what, size_t max_size, const wsel__at *at,
                    char **data, size_t *len, wsel_error *err)
{
    *data = NULL;
    *len = 0;
    if (max_size > SIZE_MAX / 2)
        max_size = SIZE_MAX / 2;
    reader r = {path, what ? what : "file", at, err};
    int rc = WSEL_OK;
    size_t size = 0;
    int fd = open_regular(&r, max_size, &size, &rc);
    if (fd < 0)
        return rc;
    rc = read_all(&r, fd, max_size, size, data, len);
    close(fd);
    return rc;
}

FILE *wsel__memout_open(char **text, size_t *len)
{
    *text = NULL;
    *len = 0;
    return open_memstream(text, len);
}

bool wsel__memout_close(FILE *f, char **text, size_t *len)
{
    bool bad = fflush(f) != 0 || ferror(f);
    bad |= fclose(f) != 0 || !*text;
    if (bad) {
        free(*text);
        *text = NULL;
        *len = 0;
    }
    return !bad;
}
