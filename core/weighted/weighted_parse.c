/* Recursive-descent parser for gdnsd's config language, with $include{} handling.
 *
 *   file    := array EOF | entries EOF           (implicit top-level hash)
 *   entries := { (KEY ASSIGN value | include) [','] }
 *   value   := '{' entries '}' | '[' { value [','] } ']' | STRING | include
 *   include := $include '{' STRING '}'
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "weighted_include.h"
#include "weighted_lex.h"

/* Each nested include adds parser stack frames even when the value depth does not grow
 * (hash-merge includes), so nesting gets its own bound. */
#define MAX_INCLUDE_NESTING 128u

typedef struct frame {
    const char *name; /* as shown in positions */
    char *real;       /* canonical path (malloc'd), NULL for a buffer */
    wsel__pos at;     /* the $include{} that brought it in (file NULL for the top) */
} frame;

/* Buffers of finished lists kept for the next ones: a load builds a list (and an index)
 * per hash and array, most of them short, and reusing the buffers spares an allocation
 * per list and the copies of regrowing each from nothing. */
#define SPARES 8
typedef struct spares {
    void *v[SPARES];  /* wsel__arena_vec_resize buffers */
    size_t n;
} spares;

typedef struct ctx {
    wsel__arena *arena;
    spares ents, tabs, elems; /* hash entries, hash indexes, array elements */
    const wsel__parse_opts *opts;
    wsel_error *err;
    unsigned n_includes;
    size_t n_nodes;     /* values created so far, across all files */
    size_t total_bytes; /* bytes of input read so far, across all files */
    frame *stack;     /* files being parsed, outermost first */
    size_t depth, cap;
} ctx;

typedef struct fstate {
    ctx *c;
    wsel__lexer lx;
    wsel__token tok;
    const char *name;
    const char *key;  /* key of the entry whose value is being parsed, or NULL */
} fstate;

/* A hash under construction, with an index for finding duplicate keys quickly. */
typedef struct hbuild {
    wsel__entry *v;
    size_t n, cap;
    uint32_t *tab;    /* open addressing; entry index + 1, 0 = empty */
    size_t tcap;
    const char *owner; /* key whose value this hash is, for messages; NULL at the top */
} hbuild;

static int parse_value(fstate *fs, unsigned level, wsel__node **out);
static int parse_entries(fstate *fs, unsigned level, wsel__tok_type end, hbuild *hb);
static int parse_text(ctx *c, const char *data, size_t len, const char *name,
                      unsigned level, hbuild *merge, const char *owner, wsel__node **out);

const char *wsel__ntype_name(wsel__ntype t)
{
    switch (t) {
    case WSEL__N_SIMPLE: return "a simple value";
    case WSEL__N_ARRAY: return "an array";
    case WSEL__N_HASH: return "a hash";
    }
    return "?";
}

const wsel__entry *wsel__hash_get(const wsel__node *hash, const char *key)
{
    if (!hash || hash->type != WSEL__N_HASH)
        return NULL;
    size_t kl = strlen(key);
    for (size_t i = 0; i < hash->len; i++) {
        const wsel__entry *e = &hash->entries[i];
        if (e->klen == kl && memcmp(e->key, key, kl) == 0)
            return e;
    }
    return NULL;
}

static int nomem(fstate *fs)
{
    return wsel__fail(fs->c->err, WSEL_E_NOMEM, fs->name, fs->tok.line, fs->tok.col, NULL,
                      NULL, NULL, "out of memory");
}

static int next(fstate *fs)
{
    return wsel__lex_next(&fs->lx, &fs->tok);
}

static int expected(fstate *fs, const char *what)
{
    const wsel__token *t = &fs->tok;
    if (t->type == WSEL__T_STRING)
        return wsel__fail(fs->c->err, WSEL_E_SYNTAX, fs->name, t->line, t->col, NULL, NULL,
                          NULL, "unexpected string '%.200s'; expected %s", t->str, what);
    const char *name = wsel__tok_name(t->type);
    if (t->type == WSEL__T_ASSIGN) /* written '=' or '=>': the lexer stops right after it */
        name = fs->lx.p[-1] == '>' ? "'=>'" : "'='";
    return wsel__fail(fs->c->err, WSEL_E_SYNTAX, fs->name, t->line, t->col, NULL, NULL, NULL,
                      "unexpected %s; expected %s", name, what);
}

/* ---- list buffers ---- */

/* A buffer of at least `bytes` bytes for a list that has none yet: a spare one when
 * there is one (grown if short), else a new one; NULL when out of memory. */
static void *spare_take(spares *sp, size_t bytes)
{
    void *p = sp->n ? sp->v[--sp->n] : NULL;
    if (p && wsel__arena_vec_cap(p) >= bytes)
        return p;
    void *np = wsel__arena_vec_resize(p, bytes);
    if (!np)
        wsel__arena_vec_free(p);
    return np;
}

/* Keeps a list's buffer (NULL: none) for the next list: small ones only, so that the
 * spares stay below SPARES * SPARE_MAX bytes of each kind (doc/weighted.md §2.9). */
#define SPARE_MAX ((size_t)4096)
static void spare_give(spares *sp, void *data)
{
    if (!data)
        return;
    if (sp->n < SPARES && wsel__arena_vec_cap(data) <= SPARE_MAX)
        sp->v[sp->n++] = data;
    else
        wsel__arena_vec_free(data);
}

static void spares_free(spares *sp)
{
    while (sp->n)
        wsel__arena_vec_free(sp->v[--sp->n]);
}

/* ---- hash builder ---- */

static uint64_t hash_key(const char *k, size_t n)
{
    uint64_t h = 1469598103934665603u; /* FNV-1a */
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)k[i];
        h *= 1099511628211u;
    }
    return h;
}

static const wsel__entry *hb_find(const hbuild *hb, const char *k, size_t n)
{
    if (!hb->tcap)
        return NULL;
    size_t mask = hb->tcap - 1;
    for (size_t i = (size_t)hash_key(k, n) & mask;; i = (i + 1) & mask) {
        uint32_t slot = hb->tab[i];
        if (!slot)
            return NULL;
        const wsel__entry *e = &hb->v[slot - 1];
        if (e->klen == n && memcmp(e->key, k, n) == 0)
            return e;
    }
}

static void hb_index(hbuild *hb, size_t idx)
{
    size_t mask = hb->tcap - 1;
    const wsel__entry *e = &hb->v[idx];
    size_t i = (size_t)hash_key(e->key, e->klen) & mask;
    while (hb->tab[i])
        i = (i + 1) & mask;
    hb->tab[i] = (uint32_t)(idx + 1);
}

static bool hb_push(ctx *c, hbuild *hb, const wsel__entry *e)
{
    if (hb->n >= UINT32_MAX - 1)
        return false;
    if (hb->n == hb->cap) {
        wsel__entry *nv = hb->v ? wsel__arena_vec_resize(hb->v, 2 * hb->cap * sizeof *nv)
                                : spare_take(&c->ents, 8 * sizeof *nv);
        if (!nv)
            return false;
        hb->v = nv;
        hb->cap = wsel__arena_vec_cap(nv) / sizeof *nv;
    }
    hb->v[hb->n++] = *e;
    if (2 * hb->n > hb->tcap) {
        size_t tcap = hb->tcap ? hb->tcap * 2 : 16;
        while (2 * hb->n > tcap)
            tcap *= 2;
        uint32_t *nt = spare_take(&c->tabs, tcap * sizeof *nt);
        if (!nt)
            return false;
        memset(nt, 0, tcap * sizeof *nt);
        spare_give(&c->tabs, hb->tab);
        hb->tab = nt;
        hb->tcap = tcap;
        for (size_t i = 0; i < hb->n; i++)
            hb_index(hb, i);
    } else {
        hb_index(hb, hb->n - 1);
    }
    return true;
}

static void hb_free(ctx *c, hbuild *hb)
{
    spare_give(&c->ents, hb->v);
    spare_give(&c->tabs, hb->tab);
    memset(hb, 0, sizeof *hb);
}

static bool same_pos(const wsel__pos *a, const wsel__pos *b)
{
    return a->line == b->line && a->col == b->col && strcmp(a->file, b->file) == 0;
}

static int hb_add(fstate *fs, hbuild *hb, const wsel__entry *e)
{
    const wsel__entry *old = hb_find(hb, e->key, e->klen);
    const frame *top = &fs->c->stack[fs->c->depth - 1];
    if (old && same_pos(&old->kpos, &e->kpos) && top->at.file)
        /* The same text twice: one file included twice into this hash. */
        return wsel__fail(fs->c->err, WSEL_E_DUPKEY, top->at.file, top->at.line,
                          top->at.col, NULL, NULL, e->key,
                          "'%.200s' is included a second time into %s%.200s%s here: its key "
                          "'%.200s' (%.200s:%u:%u) is already there; expected each file "
                          "included once per hash", e->kpos.file,
                          hb->owner ? "the hash of '" : "the top-level hash",
                          hb->owner ? hb->owner : "", hb->owner ? "'" : "", e->key,
                          e->kpos.file, e->kpos.line, e->kpos.col);
    if (old)
        return wsel__fail(fs->c->err, WSEL_E_DUPKEY, e->kpos.file, e->kpos.line, e->kpos.col,
                          NULL, NULL, e->key,
                          "duplicate key '%.200s' in %s%.200s%s (first at %.200s:%u:%u); "
                          "expected each key once per hash", e->key,
                          hb->owner ? "the hash of '" : "the top-level hash",
                          hb->owner ? hb->owner : "", hb->owner ? "'" : "", old->kpos.file,
                          old->kpos.line, old->kpos.col);
    if (!hb_push(fs->c, hb, e))
        return nomem(fs);
    return WSEL_OK;
}

/* A new node in *out, counted against the whole load's limit on values. */
static int new_node(fstate *fs, wsel__ntype type, unsigned line, unsigned col,
                    wsel__node **out)
{
    ctx *c = fs->c;
    if (++c->n_nodes > c->opts->max_nodes)
        return wsel__fail(c->err, WSEL_E_LIMIT, fs->name, line, col, NULL, NULL, NULL,
                          "more than the limit of %zu values (strings, arrays and hashes) "
                          "in the whole load, includes counted", c->opts->max_nodes);
    wsel__node *n = wsel__arena_alloc_aligned(c->arena, sizeof *n, _Alignof(wsel__node));
    if (!n)
        return nomem(fs);
    n->type = (unsigned char)type;
    n->raw = WSEL__RAW_SAME;
    n->pos.file = fs->name;
    n->pos.line = line;
    n->pos.col = col;
    *out = n;
    return WSEL_OK;
}

static int hb_finish(fstate *fs, hbuild *hb, wsel__node *node)
{
    node->len = (uint32_t)hb->n; /* n <= max_nodes <= UINT32_MAX */
    if (hb->n) {
        void *v = hb->v;
        node->entries = wsel__arena_vec_adopt(fs->c->arena, &v, hb->n * sizeof *hb->v);
        if (!node->entries)
            return nomem(fs);
        if (!v) { /* handed over whole */
            hb->v = NULL;
            hb->cap = 0;
        }
    }
    return WSEL_OK;
}

static int too_deep(fstate *fs, unsigned line, unsigned col)
{
    return wsel__fail(fs->c->err, WSEL_E_LIMIT, fs->name, line, col, NULL, NULL, NULL,
                      "values nested deeper than the limit of %u", fs->c->opts->max_depth);
}

/* ---- includes ---- */

static int cycle_error(fstate *fs, const wsel__pos *at, size_t from, const char *target)
{
    ctx *c = fs->c;
    /* On the heap: compilers inline this into the recursion, where a local buffer would
     * cost its size on every nested include (doc/weighted.md §2.9, stack). */
    enum { CHAIN = 900 };
    char *chain = malloc(CHAIN);
    if (!chain)
        return nomem(fs);
    size_t used = 0;
    chain[0] = '\0';
    for (size_t i = from; i < c->depth && used < CHAIN; i++)
        used += (size_t)snprintf(chain + used, CHAIN - used, "%s -> ", c->stack[i].name);
    if (used < CHAIN)
        snprintf(chain + used, CHAIN - used, "%s", target);
    int rc = wsel__fail(c->err, WSEL_E_INCLUDE_CYCLE, at->file, at->line, at->col, NULL,
                        NULL, NULL, "include cycle: %s; expected files not to include "
                        "themselves", chain);
    free(chain);
    return rc;
}

static int include_one(fstate *fs, const wsel__pos *at, const char *path, unsigned level,
                       hbuild *merge, wsel__node **out)
{
    ctx *c = fs->c;
    char *real = realpath(path, NULL);
    if (!real)
        return wsel__fail(c->err, errno == ENOMEM ? WSEL_E_NOMEM : WSEL_E_IO, at->file,
                          at->line, at->col, NULL, NULL, NULL,
                          "cannot resolve included file '%s': %s", path, strerror(errno));
    for (size_t i = 0; i < c->depth; i++) {
        if (c->stack[i].real && strcmp(c->stack[i].real, real) == 0) {
            free(real);
            return cycle_error(fs, at, i, path);
        }
    }
    if (c->depth >= MAX_INCLUDE_NESTING) {
        free(real);
        return wsel__fail(c->err, WSEL_E_LIMIT, at->file, at->line, at->col, NULL, NULL,
                          NULL, "includes nested deeper than the limit of %u files",
                          MAX_INCLUDE_NESTING);
    }
    if (++c->n_includes > c->opts->max_includes) {
        free(real);
        return wsel__fail(c->err, WSEL_E_LIMIT, at->file, at->line, at->col, NULL, NULL,
                          NULL, "more than the limit of %u included files",
                          c->opts->max_includes);
    }
    const char *name = wsel__arena_strdup(c->arena, path);
    if (!name) {
        free(real);
        return nomem(fs);
    }
    char *data;
    size_t len;
    int rc = wsel__read_file(path, NULL, c->opts->max_file_size, at, &data, &len, c->err);
    if (!rc && (c->total_bytes += len) > c->opts->max_total_size) {
        free(data);
        rc = wsel__fail(c->err, WSEL_E_LIMIT, at->file, at->line, at->col, NULL, NULL, NULL,
                        "including '%s' makes the load larger than the limit of %zu bytes "
                        "in total", path, c->opts->max_total_size);
    }
    if (rc) {
        free(real);
        return rc;
    }
    if (!wsel__grow(&c->stack, &c->cap, c->depth + 1, sizeof *c->stack)) {
        free(real);
        free(data);
        return nomem(fs);
    }
    c->stack[c->depth].name = name;
    c->stack[c->depth].real = real;
    c->stack[c->depth].at = *at;
    c->depth++;
    rc = parse_text(c, data, len, name, level, merge, fs->key, out);
    c->depth--;
    free(c->stack[c->depth].real);
    free(data);
    return rc;
}

/* Moves to the next token, which must be of `type` (else an error: expected `what`). */
static int next_is(fstate *fs, wsel__tok_type type, const char *what)
{
    int rc = next(fs);
    if (!rc && fs->tok.type != type)
        rc = expected(fs, what);
    return rc;
}

/* At $include: reads `{ PATH }`, then parses the files either as one value (merge NULL)
 * or as entries merged into the enclosing hash. */
static int parse_include(fstate *fs, unsigned level, hbuild *merge, wsel__node **out)
{
    wsel__pos at = { fs->name, fs->tok.line, fs->tok.col };
    int rc = next_is(fs, WSEL__T_LBRACE, "'{' after $include");
    if (!rc)
        rc = next_is(fs, WSEL__T_STRING, "a path in $include{ PATH }");
    if (rc)
        return rc;
    const char *path = fs->tok.str;
    if (strlen(path) != fs->tok.len)
        return wsel__fail(fs->c->err, WSEL_E_INCLUDE, fs->name, fs->tok.line, fs->tok.col,
                          NULL, NULL, NULL, "$include{} path holds a NUL byte; expected a "
                          "file name");
    if ((rc = next_is(fs, WSEL__T_RBRACE, "'}' closing $include{ PATH }")) || (rc = next(fs)))
        return rc;
    if (fs->c->opts->flags & WSEL_LOAD_NO_INCLUDE)
        return wsel__fail(fs->c->err, WSEL_E_INCLUDE, at.file, at.line, at.col, NULL, NULL,
                          NULL, "$include{%s} is not allowed here (includes are disabled); "
                          "expected a config without includes", path);
    wsel__pathlist files;
    rc = wsel__include_expand(fs->name, path, &at, &files, fs->c->err);
    if (rc)
        return rc;
    if (!merge && files.n != 1) {
        if (files.n == 0)
            rc = wsel__fail(fs->c->err, WSEL_E_INCLUDE, at.file, at.line, at.col, NULL,
                            NULL, NULL, "$include{%s} as a value: the directory holds no "
                            "file; expected exactly one file", path);
        else
            rc = wsel__fail(fs->c->err, WSEL_E_INCLUDE, at.file, at.line, at.col, NULL,
                            NULL, NULL, "$include{%s} as a value matches %zu files ('%s', "
                            "'%s', ...); expected exactly one file", path, files.n,
                            files.v[0], files.v[1]);
    }
    for (size_t i = 0; !rc && i < files.n; i++)
        rc = include_one(fs, &at, files.v[i], level, merge, out);
    wsel__pathlist_free(&files);
    return rc;
}

/* ---- grammar ---- */

static int parse_entries(fstate *fs, unsigned level, wsel__tok_type end, hbuild *hb)
{
    int rc;
    for (;;) {
        if (fs->tok.type == end)
            return WSEL_OK;
        if (fs->tok.type == WSEL__T_INCLUDE) {
            if ((rc = parse_include(fs, level, hb, NULL)))
                return rc;
        } else if (fs->tok.type == WSEL__T_STRING) {
            wsel__entry e = { fs->tok.str, fs->tok.len, { fs->name, fs->tok.line,
                                                          fs->tok.col }, NULL };
            const wsel__entry *old = hb_find(hb, e.key, e.klen);
            if (old)
                return hb_add(fs, hb, &e); /* reports the duplicate */
            if ((rc = next_is(fs, WSEL__T_ASSIGN, "'=>' or '=' after a key")) || (rc = next(fs)))
                return rc;
            const char *outer = fs->key;
            fs->key = e.key;
            rc = parse_value(fs, level, &e.val);
            fs->key = outer;
            if (rc)
                return rc;
            if ((rc = hb_add(fs, hb, &e)))
                return rc;
        } else if (end == WSEL__T_EOF) {
            return expected(fs, "a key or end of file");
        } else {
            return expected(fs, "a key or '}'");
        }
        if (fs->tok.type == WSEL__T_COMMA && (rc = next(fs)))
            return rc;
    }
}

/* Opens a hash or an array at the current token, one level below `level`: *out is the
 * new node (untouched on error). */
static int open_node(fstate *fs, unsigned level, wsel__ntype type, wsel__node **out)
{
    unsigned line = fs->tok.line, col = fs->tok.col;
    if (level + 1 > fs->c->opts->max_depth)
        return too_deep(fs, line, col);
    return new_node(fs, type, line, col, out);
}

static int parse_hash(fstate *fs, unsigned level, wsel__node **out)
{
    hbuild hb = { .owner = fs->key };
    int rc = open_node(fs, level, WSEL__N_HASH, out);
    if (rc)
        return rc;
    wsel__node *node = *out;
    rc = next(fs);
    if (!rc)
        rc = parse_entries(fs, level + 1, WSEL__T_RBRACE, &hb);
    if (!rc)
        rc = hb_finish(fs, &hb, node);
    hb_free(fs->c, &hb);
    if (!rc)
        rc = next(fs);
    return rc;
}

static int parse_array(fstate *fs, unsigned level, wsel__node **out)
{
    wsel__node **v = NULL;
    size_t n = 0, cap = 0;
    int rc = open_node(fs, level, WSEL__N_ARRAY, out);
    if (rc)
        return rc;
    wsel__node *node = *out;
    unsigned line = node->pos.line, col = node->pos.col;
    rc = next(fs);
    while (!rc && fs->tok.type != WSEL__T_RBRACK) {
        if (fs->tok.type == WSEL__T_EOF) {
            rc = wsel__fail(fs->c->err, WSEL_E_SYNTAX, fs->name, fs->tok.line, fs->tok.col,
                            NULL, NULL, NULL, "end of file inside the array opened at %u:%u; "
                            "expected ']'", line, col);
            break;
        }
        if (n == cap) {
            wsel__node **nv = v ? wsel__arena_vec_resize(v, 2 * cap * sizeof *nv)
                                : spare_take(&fs->c->elems, 4 * sizeof *nv);
            if (!nv) {
                rc = nomem(fs);
                break;
            }
            v = nv;
            cap = wsel__arena_vec_cap(nv) / sizeof *nv;
        }
        const char *owner = fs->key;
        rc = parse_value(fs, level + 1, &v[n]);
        fs->key = owner;
        if (rc)
            break;
        n++;
        if (fs->tok.type == WSEL__T_COMMA)
            rc = next(fs);
    }
    if (!rc && n) {
        void *kept = v;
        node->elems = wsel__arena_vec_adopt(fs->c->arena, &kept, n * sizeof *v);
        if (!node->elems)
            rc = nomem(fs);
        else
            v = kept; /* NULL when handed over whole */
    }
    spare_give(&fs->c->elems, v);
    node->len = (uint32_t)n;
    if (!rc)
        rc = next(fs);
    return rc;
}

static int parse_value(fstate *fs, unsigned level, wsel__node **out)
{
    wsel__node *n;
    int rc;
    switch (fs->tok.type) {
    case WSEL__T_LBRACE:
        return parse_hash(fs, level, out);
    case WSEL__T_LBRACK:
        return parse_array(fs, level, out);
    case WSEL__T_INCLUDE:
        return parse_include(fs, level, NULL, out);
    case WSEL__T_STRING:
        if ((rc = new_node(fs, WSEL__N_SIMPLE, fs->tok.line, fs->tok.col, &n)))
            return rc;
        n->str = fs->tok.str;
        n->len = (uint32_t)fs->tok.len; /* len <= max_string <= UINT32_MAX */
        n->raw = fs->tok.raw;
        *out = n;
        return next(fs);
    default:
        return expected(fs, "a value (string, '{' or '[')");
    }
}

/* Parses one file's text: as a value (merge NULL) or as entries merged into `merge`. */
static int parse_text(ctx *c, const char *data, size_t len, const char *name,
                      unsigned level, hbuild *merge, const char *owner, wsel__node **out)
{
    fstate fs = { .c = c, .name = name, .key = owner };
    /* A UTF-8 byte-order mark (as some editors write) is not part of the first key. */
    if (len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0) {
        data += 3;
        len -= 3;
    }
    wsel__lex_init(&fs.lx, data, len, name, c->opts->max_string, c->arena, c->err);
    int rc = next(&fs);
    if (rc)
        goto done;
    if (fs.tok.type == WSEL__T_LBRACK) {
        if (merge) {
            rc = wsel__fail(c->err, WSEL_E_TYPE, name, fs.tok.line, fs.tok.col, NULL, NULL,
                            NULL, "file included into a hash holds an array; expected hash "
                            "entries (key => value)");
            goto done;
        }
        if ((rc = parse_array(&fs, level, out)))
            goto done;
        if (fs.tok.type != WSEL__T_EOF)
            rc = expected(&fs, "end of file after the top-level array");
        goto done;
    }
    if (merge) {
        rc = parse_entries(&fs, level, WSEL__T_EOF, merge);
        goto done;
    }
    if (level + 1 > c->opts->max_depth) {
        rc = too_deep(&fs, 1, 1);
        goto done;
    }
    wsel__node *node;
    if ((rc = new_node(&fs, WSEL__N_HASH, 1, 1, &node)))
        goto done;
    hbuild hb = { .owner = owner };
    rc = parse_entries(&fs, level + 1, WSEL__T_EOF, &hb);
    if (!rc)
        rc = hb_finish(&fs, &hb, node);
    hb_free(c, &hb);
    *out = node;
done:
    wsel__lex_fini(&fs.lx);
    return rc;
}

static int parse_top(wsel__arena *arena, const wsel__parse_opts *opts, const char *data,
                     size_t len, const char *name, char *real, wsel__node **out,
                     wsel_error *err)
{
    ctx c = { .arena = arena, .opts = opts, .err = err, .total_bytes = len };
    *out = NULL;
    if (len > opts->max_file_size) {
        free(real);
        return wsel__fail(err, WSEL_E_LIMIT, name, 0, 0, NULL, NULL, NULL,
                          "input of %zu bytes is larger than the limit of %zu bytes", len,
                          opts->max_file_size);
    }
    c.stack = malloc(8 * sizeof *c.stack);
    if (!c.stack) {
        free(real);
        return wsel__fail(err, WSEL_E_NOMEM, name, 0, 0, NULL, NULL, NULL, "out of memory");
    }
    c.cap = 8;
    c.stack[0].name = name;
    c.stack[0].real = real;
    c.stack[0].at = (wsel__pos){ NULL, 0, 0 };
    c.depth = 1;
    wsel__node *root = NULL;
    int rc = parse_text(&c, data, len, name, 0, NULL, NULL, &root);
    spares_free(&c.ents);
    spares_free(&c.tabs);
    spares_free(&c.elems);
    free(c.stack[0].real);
    free(c.stack);
    if (rc == WSEL_OK)
        *out = root;
    return rc;
}

int wsel__parse_text(wsel__arena *arena, const wsel__parse_opts *opts, const char *data,
                     size_t len, const char *name, const char *real, wsel__node **out,
                     wsel_error *err)
{
    char *r = NULL;
    if (real && !(r = strdup(real)))
        return wsel__fail(err, WSEL_E_NOMEM, name, 0, 0, NULL, NULL, NULL, "out of memory");
    const char *nm = wsel__arena_strdup(arena, name);
    if (!nm) {
        free(r);
        return wsel__fail(err, WSEL_E_NOMEM, name, 0, 0, NULL, NULL, NULL, "out of memory");
    }
    return parse_top(arena, opts, data, len, nm, r, out, err);
}

int wsel__parse_file(wsel__arena *arena, const wsel__parse_opts *opts, const char *path,
                     wsel__node **out, wsel_error *err)
{
    *out = NULL;
    char *data;
    size_t len;
    int rc = wsel__read_file(path, NULL, opts->max_file_size, NULL, &data, &len, err);
    if (rc)
        return rc;
    char *real = realpath(path, NULL);
    const char *nm = wsel__arena_strdup(arena, path);
    if (!nm) {
        free(real);
        free(data);
        return wsel__fail(err, WSEL_E_NOMEM, path, 0, 0, NULL, NULL, NULL, "out of memory");
    }
    rc = parse_top(arena, opts, data, len, nm, real, out, err);
    free(data);
    return rc;
}
