/* Reading input files: the one file reader of every system (doc/architecture.md). Not
 * installed. */
#ifndef WSEL_CORE_IO_H
#define WSEL_CORE_IO_H

#include <stdio.h>

#include "internal.h"

/* Where a file was named, for errors about it: an $include{} inside another file, or
 * NULL for a file named directly (by the caller, or on the command line). */
typedef struct wsel__at {
    const char *file;
    unsigned line, col;
} wsel__at;

/* Reads the whole file `path` into a malloc'd, NUL-terminated *data of *len bytes.
 * The file must be a regular file: a directory, FIFO, socket or device is refused at
 * once (a FIFO is never waited on, /dev/zero never read); then its size is checked
 * against max_size before anything is read (files whose size stat() does not know, as
 * in /proc, are cut off at max_size + 1 bytes). Every message names the file as `what`
 * ("config", "scenario", ...; NULL: "file") and carries the system's reason (strerror):
 *   WSEL_E_IO     cannot open / is a directory / is a FIFO / cannot read: REASON
 *   WSEL_E_LIMIT  larger than the limit of N bytes
 *   WSEL_E_NOMEM  out of memory
 * The error is placed at `at` when given, else in the file itself without a position;
 * *data is then NULL and *len 0. */
int wsel__read_file(const char *path, const char *what, size_t max_size, const wsel__at *at,
                    char **data, size_t *len, wsel_error *err);

/* Text built in memory (open_memstream), for output that must appear whole or not at
 * all. wsel__memout_close flushes and closes f and hands over the text (NUL-terminated,
 * *len bytes without the NUL); false when any write or the close failed -- for want of
 * memory: glibc's close shrinks the buffer with realloc and can leave it NULL -- with
 * nothing left to free. */
FILE *wsel__memout_open(char **text, size_t *len);
bool wsel__memout_close(FILE *f, char **text, size_t *len);

#endif
