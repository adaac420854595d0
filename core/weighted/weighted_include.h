/* Files and paths for the parser: reading with a size limit, expanding $include{}. */
#ifndef WSEL_CORE_PARSE_INCLUDE_H
#define WSEL_CORE_PARSE_INCLUDE_H

#include "../io.h"
#include "weighted_tree.h"

typedef struct wsel__pathlist {
    char **v;     /* malloc'd paths, in include order */
    size_t n;
    bool dir;     /* PATH named a directory */
} wsel__pathlist;

/* Expands an $include{} PATH written in file `from`: a relative PATH is relative to the
 * directory of `from`; a directory yields its files in glob order; anything else is a glob
 * pattern that must match at least one file. Subdirectories are errors. */
int wsel__include_expand(const char *from, const char *path, const wsel__pos *at,
                         wsel__pathlist *out, wsel_error *err);
void wsel__pathlist_free(wsel__pathlist *l);

#endif
