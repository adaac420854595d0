/* Reading config files and expanding $include{} paths. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "weighted_include.h"

static int fail_at(wsel_error *err, int code, const wsel__pos *at, const char *file,
                   const char *fmt, ...) WSEL_PRINTF(5, 6);

/* Fails at `at` (an $include{}), or, for the top file (at NULL), names `file`. */
static int fail_at(wsel_error *err, int code, const wsel__pos *at, const char *file,
                   const char *fmt, ...)
{
    char msg[sizeof err->message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return wsel__fail(err, code, at ? at->file : file, at ? at->line : 0, at ? at->col : 0,
                      NULL, NULL, NULL, "%s", msg);
}

void wsel__pathlist_free(wsel__pathlist *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    l->v = NULL;
    l->n = 0;
}

/* The directory part of `from` ("" when it has none), escaped for glob() when `esc`:
 * only the PATH written in $include{} is a pattern, never the directory it is
 * relative to. */
static char *dir_of(const char *from, bool esc)
{
    const char *slash = strrchr(from, '/');
    size_t dl = slash ? (size_t)(slash - from) + 1 : 0;
    char *s = malloc(2 * dl + 1);
    if (!s)
        return NULL;
    size_t j = 0;
    for (size_t i = 0; i < dl; i++) {
        if (esc && strchr("*?[]\\", from[i]))
            s[j++] = '\\';
        s[j++] = from[i];
    }
    s[j] = '\0';
    return s;
}

static char *concat(const char *a, const char *b)
{
    size_t al = strlen(a), bl = strlen(b);
    char *s = malloc(al + bl + 2);
    if (!s)
        return NULL;
    memcpy(s, a, al);
    if (al && a[al - 1] != '/' && bl)
        s[al++] = '/';
    memcpy(s + al, b, bl + 1);
    return s;
}

/* PATH resolved against the directory of `from`: literally (esc false) or as a glob
 * pattern whose directory part matches literally (esc true). */
static char *resolve(const char *from, const char *path, bool esc)
{
    if (path[0] == '/')
        return strdup(path);
    char *d = dir_of(from, esc);
    if (!d)
        return NULL;
    char *s = concat(d, path);
    free(d);
    return s;
}

static int push_path(wsel__pathlist *out, size_t *cap, const char *p)
{
    if (!wsel__grow(&out->v, cap, out->n + 1, sizeof *out->v))
        return WSEL_E_NOMEM;
    if (!(out->v[out->n] = strdup(p)))
        return WSEL_E_NOMEM;
    out->n++;
    return WSEL_OK;
}

static int cmp_str(const void *a, const void *b)
{
    return strcoll(*(char *const *)a, *(char *const *)b);
}

/* A match must be a regular file (checked again when it is opened). */
static int check_match(const char *path, const char *m, const wsel__pos *at, wsel_error *err)
{
    struct stat st;
    if (stat(m, &st) != 0)
        return fail_at(err, WSEL_E_IO, at, NULL, "$include{%s}: cannot read '%s'", path, m);
    if (S_ISDIR(st.st_mode))
        return fail_at(err, WSEL_E_INCLUDE, at, NULL,
                       "$include{%s} matches the directory '%s'; expected only files",
                       path, m);
    return WSEL_OK;
}

/* A directory's files (names not starting with '.'), sorted as glob sorts them. */
static int list_dir(const char *path, const char *dir, const wsel__pos *at,
                    wsel__pathlist *out, wsel_error *err)
{
    DIR *d = opendir(dir);
    if (!d)
        return fail_at(err, WSEL_E_IO, at, NULL,
                       "$include{%s}: cannot read the directory '%s': %s", path, dir,
                       strerror(errno));
    size_t cap = 0;
    int rc = WSEL_OK;
    for (;;) {
        errno = 0;
        struct dirent *de = readdir(d);
        if (!de) {
            if (errno)
                rc = fail_at(err, WSEL_E_IO, at, NULL,
                             "$include{%s}: cannot read the directory '%s': %s", path, dir,
                             strerror(errno));
            break;
        }
        if (de->d_name[0] == '.')
            continue;
        char *p = concat(dir, de->d_name);
        if (!p || push_path(out, &cap, p)) {
            free(p);
            rc = fail_at(err, WSEL_E_NOMEM, at, NULL, "out of memory");
            break;
        }
        free(p);
    }
    closedir(d);
    if (rc)
        return rc;
    if (out->n)
        qsort(out->v, out->n, sizeof *out->v, cmp_str);
    for (size_t i = 0; !rc && i < out->n; i++)
        rc = check_match(path, out->v[i], at, err);
    return rc;
}

/* glob() has no context argument for its error callback: per thread, so that loads in
 * several threads each learn their own failure. */
static _Thread_local int glob_errno, glob_failed_set;
static _Thread_local char glob_failed[512];

static int on_glob_error(const char *epath, int eerrno)
{
    glob_errno = eerrno;
    snprintf(glob_failed, sizeof glob_failed, "%s", epath);
    glob_failed_set = 1;
    return 1;
}

int wsel__include_expand(const char *from, const char *path, const wsel__pos *at,
                         wsel__pathlist *out, wsel_error *err)
{
    memset(out, 0, sizeof *out);
    if (!path[0])
        return fail_at(err, WSEL_E_INCLUDE, at, NULL,
                       "empty $include{} path; expected a file, directory or glob pattern");
    char *full = resolve(from, path, false);
    if (!full)
        return fail_at(err, WSEL_E_NOMEM, at, NULL, "out of memory");
    int rc = WSEL_OK;
    size_t cap = 0;
    struct stat st;
    /* A name that exists is taken literally, whatever characters it holds. */
    if (stat(full, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            out->dir = true;
            rc = list_dir(path, full, at, out, err);
        } else if (push_path(out, &cap, full)) {
            rc = fail_at(err, WSEL_E_NOMEM, at, NULL, "out of memory");
        }
        goto done;
    }
    if (errno != ENOENT || lstat(full, &st) == 0) {
        int e = errno;
        rc = fail_at(err, WSEL_E_INCLUDE, at, NULL, "$include{%s}: cannot use '%s': %s", path,
                     full,
                     S_ISLNK(st.st_mode) && e == ENOENT
                         ? "dangling symbolic link (its target does not exist)"
                         : strerror(e));
        goto done;
    }
    char *pattern = resolve(from, path, true);
    if (!pattern) {
        rc = fail_at(err, WSEL_E_NOMEM, at, NULL, "out of memory");
        goto done;
    }
    glob_t g;
    memset(&g, 0, sizeof g);
    glob_failed_set = 0;
    int grc = glob(pattern, GLOB_ERR, on_glob_error, &g);
    if (grc == GLOB_NOMATCH) {
        rc = fail_at(err, WSEL_E_INCLUDE, at, NULL,
                     "$include{%s}: no file matches '%s'; expected an existing file, "
                     "directory or matching glob pattern", path, full);
    } else if (grc == GLOB_NOSPACE) {
        rc = fail_at(err, WSEL_E_NOMEM, at, NULL, "out of memory expanding '%s'", full);
    } else if (grc != 0) {
        char why[700];
        if (glob_failed_set)
            snprintf(why, sizeof why, "'%s': %s", glob_failed, strerror(glob_errno));
        else
            snprintf(why, sizeof why, "a directory of '%s' cannot be read", full);
        rc = fail_at(err, WSEL_E_IO, at, NULL, "$include{%s}: cannot expand the pattern: %s",
                     path, why);
    } else {
        for (size_t i = 0; !rc && i < g.gl_pathc; i++) {
            rc = check_match(path, g.gl_pathv[i], at, err);
            if (!rc && push_path(out, &cap, g.gl_pathv[i]))
                rc = fail_at(err, WSEL_E_NOMEM, at, NULL, "out of memory");
        }
    }
    if (grc != GLOB_NOMATCH)
        globfree(&g);
    free(pattern);
done:
    free(full);
    if (rc)
        wsel__pathlist_free(out);
    return rc;
}
