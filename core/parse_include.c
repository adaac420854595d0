/* Reading config files and expanding $include{} paths. */
#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "parse_include.h"

static int fail_at(wsel_error *err, int code, const wsel__pos *at, const char *fmt,
                   const char *a, const char *b)
{
    return wsel__fail(err, code, at ? at->file : a, at ? at->line : 0, at ? at->col : 0,
                      NULL, NULL, NULL, fmt, a, b);
}

int wsel__read_file(const char *path, size_t max_size, const wsel__pos *at, char **data,
                    size_t *len, wsel_error *err)
{
    *data = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return fail_at(err, WSEL_E_IO, at, "cannot open '%s': %s", path, strerror(errno));
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap + 1);
    int rc = WSEL_OK;
    while (buf) {
        if (n == cap) {
            if (cap > max_size) /* already read more than the limit */
                break;
            size_t ncap = cap * 2;
            char *nb = realloc(buf, ncap + 1);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap = ncap;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    if (!buf) {
        rc = fail_at(err, WSEL_E_NOMEM, at, "out of memory reading '%s'%s", path, "");
    } else if (ferror(f)) {
        rc = fail_at(err, WSEL_E_IO, at, "cannot read '%s': %s", path, strerror(errno));
    } else if (n > max_size) {
        char lim[64];
        snprintf(lim, sizeof lim, "%zu", max_size);
        rc = fail_at(err, WSEL_E_LIMIT, at, "file '%s' is larger than the limit of %s bytes",
                     path, lim);
    }
    fclose(f);
    if (rc) {
        free(buf);
        return rc;
    }
    buf[n] = '\0';
    *data = buf;
    *len = n;
    return WSEL_OK;
}

void wsel__pathlist_free(wsel__pathlist *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    l->v = NULL;
    l->n = 0;
}

static char *join_dir(const char *from, const char *path)
{
    if (path[0] == '/')
        return strdup(path);
    const char *slash = strrchr(from, '/');
    size_t dl = slash ? (size_t)(slash - from) : 0;
    if (slash && dl == 0)
        dl = 1; /* the root directory keeps its slash */
    size_t pl = strlen(path);
    char *s = malloc(dl + 1 + pl + 1);
    if (!s)
        return NULL;
    if (dl) {
        memcpy(s, from, dl);
        if (s[dl - 1] != '/')
            s[dl++] = '/';
    }
    memcpy(s + dl, path, pl + 1);
    return s;
}

/* A directory's own name may hold glob characters; they must match literally. */
static char *glob_escape_dir(const char *dir)
{
    size_t n = strlen(dir);
    char *s = malloc(2 * n + 3);
    if (!s)
        return NULL;
    size_t j = 0;
    for (size_t i = 0; i < n; i++) {
        if (strchr("*?[]\\", dir[i]))
            s[j++] = '\\';
        s[j++] = dir[i];
    }
    if (j == 0 || s[j - 1] != '/')
        s[j++] = '/';
    s[j++] = '*';
    s[j] = '\0';
    return s;
}

int wsel__include_expand(const char *from, const char *path, const wsel__pos *at,
                         wsel__pathlist *out, wsel_error *err)
{
    memset(out, 0, sizeof *out);
    if (!path[0])
        return fail_at(err, WSEL_E_INCLUDE, at,
                       "empty $include{} path; expected a file, directory or glob pattern%s%s",
                       "", "");
    char *full = join_dir(from, path);
    if (!full)
        return fail_at(err, WSEL_E_NOMEM, at, "out of memory%s%s", "", "");
    struct stat st;
    char *pattern = full;
    if (stat(full, &st) == 0 && S_ISDIR(st.st_mode)) {
        out->dir = true;
        pattern = glob_escape_dir(full);
        if (!pattern) {
            free(full);
            return fail_at(err, WSEL_E_NOMEM, at, "out of memory%s%s", "", "");
        }
    }
    glob_t g;
    memset(&g, 0, sizeof g);
    int grc = glob(pattern, 0, NULL, &g);
    int rc = WSEL_OK;
    if (grc == GLOB_NOMATCH) {
        if (!out->dir)
            rc = fail_at(err, WSEL_E_INCLUDE, at,
                         "$include{%s}: no file matches '%s'; expected an existing file, "
                         "directory or matching glob pattern", path, full);
    } else if (grc == GLOB_NOSPACE) {
        rc = fail_at(err, WSEL_E_NOMEM, at, "out of memory expanding '%s'%s", full, "");
    } else if (grc != 0) {
        rc = fail_at(err, WSEL_E_IO, at, "$include{%s}: cannot read the directory of '%s'",
                     path, full);
    } else {
        out->v = calloc(g.gl_pathc ? g.gl_pathc : 1, sizeof *out->v);
        if (!out->v)
            rc = fail_at(err, WSEL_E_NOMEM, at, "out of memory%s%s", "", "");
        for (size_t i = 0; !rc && i < g.gl_pathc; i++) {
            const char *m = g.gl_pathv[i];
            if (stat(m, &st) == 0 && S_ISDIR(st.st_mode)) {
                rc = fail_at(err, WSEL_E_INCLUDE, at,
                             "$include{%s} matches the directory '%s'; expected only files",
                             path, m);
                break;
            }
            out->v[out->n] = strdup(m);
            if (!out->v[out->n])
                rc = fail_at(err, WSEL_E_NOMEM, at, "out of memory%s%s", "", "");
            else
                out->n++;
        }
    }
    if (grc != GLOB_NOMATCH)
        globfree(&g);
    if (pattern != full)
        free(pattern);
    free(full);
    if (rc)
        wsel__pathlist_free(out);
    return rc;
}
