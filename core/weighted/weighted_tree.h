/* The parse tree of gdnsd's config language: hashes, arrays and simples, each with the
 * place it was written. Nodes live in a wsel__arena. */
#ifndef WSEL_CORE_PARSE_TREE_H
#define WSEL_CORE_PARSE_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../internal.h"
#include "../io.h"
#include "weighted_arena.h"

typedef enum wsel__ntype {
    WSEL__N_SIMPLE = 0,
    WSEL__N_ARRAY,
    WSEL__N_HASH
} wsel__ntype;

typedef wsel__at wsel__pos; /* core/io.h */

/* What a simple value keeps of its raw text (the bytes between its quotes, escapes not
 * decoded), which gdnsd reads under other escape rules for a CNAME (doc/weighted.md
 * §3.5): nothing when it held no escape (the raw text is the value), the raw text after
 * the value's NUL, or only the fact that it held a raw NUL byte. */
enum { WSEL__RAW_SAME = 0, WSEL__RAW_KEPT, WSEL__RAW_NUL };

typedef struct wsel__node wsel__node;

typedef struct wsel__entry {
    const char *key;      /* NUL-terminated; may also hold NULs from \000 escapes */
    size_t klen;
    wsel__pos kpos;
    wsel__node *val;
} wsel__entry;

/* Kept small: a load may hold millions of nodes (doc/weighted.md §2.9 bounds them). */
struct wsel__node {
    wsel__pos pos;
    union {
        const char *str;      /* simple: NUL-terminated value */
        wsel__node **elems;   /* array */
        wsel__entry *entries; /* hash, in config order (includes merged in place) */
    };
    uint32_t len;             /* simple: bytes; array: elements; hash: entries */
    unsigned char type;       /* wsel__ntype */
    unsigned char raw;        /* simple: WSEL__RAW_* */
};

/* The raw text of a simple node (NUL-terminated), or NULL when it held a raw NUL. */
static inline const char *wsel__node_raw(const wsel__node *n)
{
    return n->raw == WSEL__RAW_SAME ? n->str
         : n->raw == WSEL__RAW_KEPT ? n->str + n->len + 1 : NULL;
}

typedef struct wsel__parse_opts {
    unsigned flags;
    size_t max_file_size, max_string, max_total_size, max_nodes;
    unsigned max_depth, max_includes;
} wsel__parse_opts;

/* Parses a whole file's text into *out (an implicit top-level hash, or an explicit
 * top-level array). `name` is used in positions; relative includes resolve against
 * its directory. `real` (may be NULL) is the file's canonical path for cycle checks. */
int wsel__parse_text(wsel__arena *arena, const wsel__parse_opts *opts, const char *data,
                     size_t len, const char *name, const char *real, wsel__node **out,
                     wsel_error *err);

/* Reads and parses a file. */
int wsel__parse_file(wsel__arena *arena, const wsel__parse_opts *opts, const char *path,
                     wsel__node **out, wsel_error *err);

/* The entry for `key` in a hash node, or NULL. */
const wsel__entry *wsel__hash_get(const wsel__node *hash, const char *key);

/* "a hash", "an array" or "a simple value", for messages. */
const char *wsel__ntype_name(wsel__ntype t);

#endif
