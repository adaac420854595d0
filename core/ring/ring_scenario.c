/* The ring's scenario reader (include/wsel/ring.h; man/wsel.1, RING SCENARIO): the file
 * through core/io.h, the JSON through yajl's callback parser into a flat table of the
 * decoded values (below), addresses through core/addr.h. Every value is checked against
 * its documented range and every fault reported at its JSON path, through core/json.h's
 * paths, typed reads and locator; unknown keys are errors. The run is
 * ring_scenario_run.c's.
 *
 * The text is read as core/json.h's wsel__json_parse reads it (jansson, duplicate keys
 * refused), and refused exactly when that refuses it: a text this reader finds at fault
 * (yajl's error, or one of the places where yajl is laxer than jansson: bytes that are
 * not strict UTF-8, control bytes, \u escapes of NUL or of a lone surrogate, integers
 * beyond long long, reals beyond double, nesting beyond jansson's depth, a repeated key,
 * a top value that is not an object, something after it) is handed to wsel__json_parse
 * for its message, or read from jansson's tree when jansson takes it after all. The
 * checks then walk the table in the order the jansson-based reader walked its tree
 * (doc/ring.md section 17), so every text gets the same scenario or the same error. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yajl/yajl_parse.h>

#include "../addr.h"
#include "../io.h"
#include "ring_scenario.h"

#define NAME_MAX_BYTES 253
#define HASH_MAX 9007199254740992ll /* 2^53: hashes are exact in a double */
#define COUNT_MAX 10000000ll        /* picks of one rr or retry op */
#define TTL_MAX 2147483647ll
#define ADVANCE_MAX 1e9             /* seconds of one advance op */
#define JANSSON_DEPTH 2048          /* jansson's JSON_PARSER_MAX_DEPTH: values nest this deep */
#define SMALL_OBJECT 16             /* members compared one by one for repeats; beyond: hashed */
#define STR_CHUNK 262144            /* bytes of one block of decoded strings, at most */
#define FIRST_CHUNK 1024            /* the first block of either kind; each next one twice */
#define YAJL_BLOCKS 32              /* yajl's live allocations (it holds about six) */
#define SMALL_BLOCK 256             /* arrays of up to this many bytes share zeroed blocks */
#define SMALL_CHUNK 65536           /* of up to this many bytes */

/* One decoded value. The table lists them in text order, each container followed by
 * what it holds; `skip` steps to the next sibling. Strings and member names are
 * NUL-terminated copies in blocks the scenario owns. */
typedef struct rnode {
    const char *key;   /* member name; NULL for an array element and the root */
    union {
        long long i;   /* JSON_INTEGER */
        double r;      /* JSON_REAL */
        const char *s; /* JSON_STRING */
    } v;
    uint32_t n;        /* a string's bytes, a container's members or elements */
    uint32_t skip;     /* nodes in this value, itself included */
    uint32_t keylen;
    uint8_t type;      /* json_type */
} rnode;

/* Where the next small array goes (a zeroed block kept with the scenario), and the room
 * left there: the one small block a record list or a short array takes is carved from
 * a shared one instead of a malloc of its own. */
typedef struct small_room {
    char *at;
    size_t left, next; /* next: the size of the next block (0: FIRST_CHUNK) */
} small_room;

/* The size of the next shared block: FIRST_CHUNK, then twice the last, up to max (small
 * texts, a fuzzer's, take small blocks). */
static size_t next_chunk(size_t *next, size_t max)
{
    size_t n = *next ? *next : FIRST_CHUNK;
    *next = n < max ? 2 * n : max;
    return n;
}

/* The parsed document being read and the scenario it fills. */
typedef struct scenario_doc {
    const wsel__json *json;
    wsel_ring_scenario *sc;
    const rnode *root;
    small_room *small;
} scenario_doc;

/* ---- memory: every block the scenario owns ------------------------------------------ */

/* Keeps block m (NULL: out of memory) with the scenario; m, or NULL when it cannot. */
static void *block_keep(wsel_ring_scenario *sc, void *m)
{
    wsel__ring_blocks *b = &sc->blocks;
    if (!m || !wsel__grow(&b->block, &b->cap, b->n + 1, sizeof *b->block)) {
        free(m);
        return NULL;
    }
    b->block[b->n++] = m;
    return m;
}

/* n zeroed elements of `size` bytes, freed with the scenario; NULL when out of memory. */
static void *block_new(wsel_ring_scenario *sc, small_room *room, size_t n, size_t size)
{
    size_t bytes = (n ? n : 1) * size;
    if (!room || n > SMALL_BLOCK || bytes > SMALL_BLOCK)
        return block_keep(sc, calloc(n ? n : 1, size));
    bytes = (bytes + 15) & ~(size_t)15;
    if (room->left < bytes) {
        size_t size = next_chunk(&room->next, SMALL_CHUNK);
        room->at = block_keep(sc, calloc(1, size));
        room->left = room->at ? size : 0;
        if (!room->at)
            return NULL;
    }
    void *m = room->at;
    room->at += bytes;
    room->left -= bytes;
    return m;
}

static int nomem(const scenario_doc *d)
{
    return wsel__fail(d->json->err, WSEL_E_NOMEM, d->sc->name, 0, 0, NULL, NULL, NULL,
                      "out of memory reading the scenario");
}

/* ---- the table of values, built by yajl's callbacks --------------------------------- */

enum { FAULT_NONE, FAULT_TEXT, FAULT_NOMEM };

typedef struct tape {
    wsel_ring_scenario *sc;  /* owns the strings */
    const char *text;
    size_t len;
    yajl_handle yh;
    rnode *node;
    size_t n, cap;
    size_t *open;            /* the containers not yet closed, outermost first */
    size_t depth, open_cap;
    const char *key;         /* the member name the next value goes under */
    uint32_t keylen;
    char *chunk;             /* where the next string goes, and the room left there */
    size_t room, next_chunk;
    size_t root_end;         /* the offset just past the top value */
    struct hslot *hash;      /* repeated keys of large objects: (object, member) pairs */
    size_t hash_cap, hash_n;
    const char *seen[64];    /* member names met before, by a hash of theirs: kept once */
    jmp_buf *out_of_memory;  /* where yajl's allocator goes when malloc fails */
    void *yajl_block[YAJL_BLOCKS];
    int fault;
} tape;

static int tape_nomem(tape *t)
{
    t->fault = FAULT_NOMEM;
    return 0;
}

static int tape_refuse(tape *t)
{
    t->fault = FAULT_TEXT;
    return 0;
}

/* A NUL-terminated copy of s[0..n) kept with the scenario; NULL when out of memory. */
static const char *tape_str(tape *t, const char *s, size_t n)
{
    char *c;
    if (n + 1 > FIRST_CHUNK / 4) {
        c = block_keep(t->sc, malloc(n + 1));
    } else {
        if (t->room < n + 1) {
            size_t size = next_chunk(&t->next_chunk, STR_CHUNK);
            t->chunk = block_keep(t->sc, malloc(size));
            t->room = t->chunk ? size : 0;
        }
        c = t->chunk;
        if (c) {
            t->chunk += n + 1;
            t->room -= n + 1;
        }
    }
    if (c) {
        memcpy(c, s, n);
        c[n] = '\0';
    }
    return c;
}

/* jansson accepts exactly strict UTF-8 (no overlong forms, surrogates or code points past
 * U+10FFFF) and, outside strings as inside, no control bytes but the JSON white space;
 * yajl checks neither so closely (overlong forms pass, and \v and \f are white space). */
static bool text_ok(const unsigned char *s, size_t len)
{
    const uint64_t high = 0x8080808080808080ull, space = 0x2020202020202020ull;
    for (size_t i = 0; i < len;) {
        uint64_t w;
        if (len - i >= 8 && (memcpy(&w, s + i, 8), !((w | ((w - space) & ~w)) & high))) {
            i += 8; /* eight bytes of 0x20..0x7F */
            continue;
        }
        unsigned c = s[i];
        if (c < 0x80) {
            if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
                return false;
            i++;
            continue;
        }
        size_t k = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3
                 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
        if (!k || len - i < k)
            return false;
        uint32_t cp = c & (0x7F >> k);
        for (size_t m = 1; m < k; m++) {
            if ((s[i + m] & 0xC0) != 0x80)
                return false;
            cp = cp << 6 | (s[i + m] & 0x3F);
        }
        if ((k == 3 && cp < 0x800) || (k == 4 && cp < 0x10000) || cp > 0x10FFFF ||
            (cp >= 0xD800 && cp <= 0xDFFF))
            return false;
        i += k;
    }
    return true;
}

static long hex4(const char *s)
{
    long v = 0;
    for (int k = 0; k < 4; k++) {
        int c = (unsigned char)s[k];
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    return v;
}

/* The \u escapes of the string token that ends just before the parser's position (yajl
 * has checked its syntax): jansson refuses \u0000 (no JSON_ALLOW_NUL), a low surrogate
 * alone, and a high one not followed by a low one; yajl decodes all of them somehow. */
static bool escapes_ok(const tape *t)
{
    size_t end = yajl_get_bytes_consumed(t->yh);
    size_t at = wsel__json_key_start(t->text, t->len, end);
    if (at == SIZE_MAX)
        return false;
    for (size_t i = at + 1; i + 1 < end; i++) {
        if (t->text[i] != '\\')
            continue;
        if (t->text[++i] != 'u')
            continue;
        long cp = end - i >= 5 ? hex4(t->text + i + 1) : -1;
        i += 4;
        if (cp <= 0 || (cp >= 0xDC00 && cp <= 0xDFFF))
            return false;
        if (cp >= 0xD800 && cp <= 0xDBFF) {
            long lo = end - i >= 8 && t->text[i + 1] == '\\' && t->text[i + 2] == 'u'
                          ? hex4(t->text + i + 3) : -1;
            if (lo < 0xDC00 || lo > 0xDFFF)
                return false;
            i += 6;
        }
    }
    return true;
}

/* s[0..n) as the parser gave it: within the text when it had no escapes, else decoded. */
static bool decoded_ok(const tape *t, const char *s)
{
    return (s >= t->text && s < t->text + t->len) || escapes_ok(t);
}

/* Room for one more node (not zeroed: every node is written whole). The first guess is
 * one node for every 8 bytes of text, so that a usual text never grows the table. */
static bool tape_room(tape *t)
{
    if (t->n < t->cap)
        return true;
    size_t cap = t->cap ? 2 * t->cap : t->len / 8 + 64;
    rnode *x = cap <= SIZE_MAX / sizeof *x ? realloc(t->node, cap * sizeof *x) : NULL;
    if (!x)
        return tape_nomem(t);
    t->node = x;
    t->cap = cap;
    return true;
}

/* A new value of `type`: its node, under the pending member name or as the next
 * element; NULL when the text is refused or memory runs out (t->fault says). */
static rnode *tape_value(tape *t, uint8_t type)
{
    if (t->depth >= JANSSON_DEPTH || (t->depth == 0 && type != JSON_OBJECT &&
                                      type != JSON_ARRAY)) {
        tape_refuse(t);
        return NULL;
    }
    if (!tape_room(t))
        return NULL;
    rnode *x = &t->node[t->n++];
    *x = (rnode){.key = t->key, .keylen = t->keylen, .type = type, .skip = 1};
    t->key = NULL;
    t->keylen = 0;
    if (t->depth)
        t->node[t->open[t->depth - 1]].n++;
    return x;
}

static int cb_null(void *ctx)
{
    return tape_value(ctx, JSON_NULL) != NULL;
}

static int cb_bool(void *ctx, int b)
{
    return tape_value(ctx, b ? JSON_TRUE : JSON_FALSE) != NULL;
}

/* As jansson reads numbers: an integer when it has no fraction and no exponent (refused
 * beyond long long), else a double (refused when it overflows; underflow is fine). */
static int cb_number(void *ctx, const char *s, size_t n)
{
    tape *t = ctx;
    char small[64], *buf = n < sizeof small ? small : malloc(n + 1);
    if (!buf)
        return tape_nomem(t);
    memcpy(buf, s, n);
    buf[n] = '\0';
    bool real = strpbrk(buf, ".eE") != NULL, ok;
    errno = 0;
    long long i = 0;
    double r = 0;
    if (real) {
        r = strtod(buf, NULL);
        ok = !((r == HUGE_VAL || r == -HUGE_VAL) && errno == ERANGE);
    } else {
        i = strtoll(buf, NULL, 10);
        ok = errno != ERANGE;
    }
    if (buf != small)
        free(buf);
    if (!ok)
        return tape_refuse(t);
    rnode *x = tape_value(t, real ? JSON_REAL : JSON_INTEGER);
    if (x && real)
        x->v.r = r;
    else if (x)
        x->v.i = i;
    return x != NULL;
}

static int cb_string(void *ctx, const unsigned char *s, size_t n)
{
    tape *t = ctx;
    if (!decoded_ok(t, (const char *)s))
        return tape_refuse(t);
    const char *c = tape_str(t, (const char *)s, n);
    if (!c)
        return tape_nomem(t);
    rnode *x = tape_value(t, JSON_STRING);
    if (x) {
        x->v.s = c;
        x->n = (uint32_t)n;
    }
    return x != NULL;
}

static int open_container(tape *t, uint8_t type)
{
    size_t at = t->n;
    if (!tape_value(t, type))
        return 0;
    if (!wsel__grow(&t->open, &t->open_cap, t->depth + 1, sizeof *t->open))
        return tape_nomem(t);
    t->open[t->depth++] = at;
    return 1;
}

static int close_container(void *ctx)
{
    tape *t = ctx;
    size_t at = t->open[--t->depth];
    t->node[at].skip = (uint32_t)(t->n - at);
    if (t->depth == 0)
        t->root_end = yajl_get_bytes_consumed(t->yh);
    return 1;
}

static int cb_start_map(void *ctx)
{
    return open_container(ctx, JSON_OBJECT);
}

static int cb_start_array(void *ctx)
{
    return open_container(ctx, JSON_ARRAY);
}

/* ---- repeated keys: compared one by one in small objects, hashed in large ones ---- */

static uint64_t key_hash(size_t obj, const char *k, size_t n)
{
    uint64_t h = 1469598103934665603ull ^ obj;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)k[i]) * 1099511628211ull;
    return h;
}

/* An entry of the hash table: a member's name hashed with its object; mem 0: free. */
struct hslot {
    uint64_t h;
    uint32_t obj, mem;
};

static bool same_key(const rnode *m, const char *k, size_t n)
{
    return m->keylen == n && memcmp(m->key, k, n) == 0;
}

/* Enters member node `mem` of object node `obj`; false when the object already has a
 * member of that name (or memory runs out: t->fault). */
static bool hash_enter(tape *t, size_t obj, size_t mem)
{
    if (2 * (t->hash_n + 1) > t->hash_cap) {
        size_t cap = t->hash_cap ? 2 * t->hash_cap : 1024;
        struct hslot *h = calloc(cap, sizeof *h);
        if (!h) {
            tape_nomem(t);
            return false;
        }
        for (size_t i = 0; i < t->hash_cap; i++) {
            if (!t->hash[i].mem)
                continue;
            size_t s = t->hash[i].h & (cap - 1);
            while (h[s].mem)
                s = (s + 1) & (cap - 1);
            h[s] = t->hash[i];
        }
        free(t->hash);
        t->hash = h;
        t->hash_cap = cap;
    }
    const rnode *x = &t->node[mem];
    uint64_t hv = key_hash(obj, x->key, x->keylen);
    size_t s = hv & (t->hash_cap - 1);
    for (; t->hash[s].mem; s = (s + 1) & (t->hash_cap - 1))
        if (t->hash[s].h == hv && t->hash[s].obj == obj &&
            same_key(&t->node[t->hash[s].mem], x->key, x->keylen))
            return false;
    t->hash[s] = (struct hslot){hv, (uint32_t)obj, (uint32_t)mem};
    t->hash_n++;
    return true;
}

/* The member name k[0..n): refused when the open object has it already. Its value's
 * node (the next one) carries it; a large object's members are hashed as they come. */
static int cb_map_key(void *ctx, const unsigned char *s, size_t n)
{
    tape *t = ctx;
    const char *k = (const char *)s;
    if (!decoded_ok(t, k))
        return tape_refuse(t);
    size_t obj = t->open[t->depth - 1];
    uint32_t members = t->node[obj].n;
    if (members < SMALL_OBJECT) {
        for (size_t m = obj + 1; m < t->n; m += t->node[m].skip)
            if (same_key(&t->node[m], k, n))
                return tape_refuse(t);
    }
    const char **seen = &t->seen[(n * 31 + (n ? (unsigned char)k[0] * 7 + (unsigned char)k[n - 1]
                                                : 0)) & 63];
    if (!*seen || strncmp(*seen, k, n) != 0 || (*seen)[n] != '\0')
        *seen = tape_str(t, k, n);
    if (!(t->key = *seen))
        return tape_nomem(t);
    t->keylen = (uint32_t)n;
    if (members + 1 < SMALL_OBJECT)
        return 1;
    /* the value is not there yet: enter its name through a provisional node */
    if (!tape_room(t))
        return 0;
    t->node[t->n] = (rnode){.key = t->key, .keylen = t->keylen};
    if (members + 1 == SMALL_OBJECT)
        for (size_t m = obj + 1; m < t->n; m += t->node[m].skip)
            if (!hash_enter(t, obj, m))
                return 0;
    if (!hash_enter(t, obj, t->n))
        return t->fault ? 0 : tape_refuse(t);
    return 1;
}

/* ---- yajl's memory: yajl does not check what its allocator returns, so a failure
 * leaves the parse (longjmp) and the blocks it holds are freed here ---- */

static void **yajl_slot(tape *t, const void *p)
{
    for (size_t i = 0; i < YAJL_BLOCKS; i++)
        if (t->yajl_block[i] == p)
            return &t->yajl_block[i];
    return NULL;
}

static void *yajl_realloc_cb(void *ctx, void *p, size_t n)
{
    tape *t = ctx;
    void **slot = yajl_slot(t, p);
    void *q = slot ? realloc(p, n ? n : 1) : NULL;
    if (!q)
        longjmp(*t->out_of_memory, 1);
    *slot = q;
    return q;
}

static void *yajl_malloc_cb(void *ctx, size_t n)
{
    return yajl_realloc_cb(ctx, NULL, n);
}

static void yajl_free_cb(void *ctx, void *p)
{
    void **slot = p ? yajl_slot(ctx, p) : NULL;
    if (slot) {
        free(p);
        *slot = NULL;
    }
}

static const yajl_callbacks tape_callbacks = {
    cb_null, cb_bool, NULL, NULL, cb_number, cb_string, cb_start_map, cb_map_key,
    close_container, cb_start_array, close_container,
};

/* Builds the table of text[0..len) into t; FAULT_NONE, FAULT_TEXT or FAULT_NOMEM. */
static int tape_build(tape *t)
{
    if (!text_ok((const unsigned char *)t->text, t->len))
        return FAULT_TEXT;
    jmp_buf out;
    yajl_alloc_funcs funcs = {yajl_malloc_cb, yajl_realloc_cb, yajl_free_cb, t};
    t->out_of_memory = &out;
    if (setjmp(out)) {
        for (size_t i = 0; i < YAJL_BLOCKS; i++)
            free(t->yajl_block[i]);
        return FAULT_NOMEM;
    }
    t->yh = yajl_alloc(&tape_callbacks, &funcs, t);
    yajl_status st = yajl_parse(t->yh, (const unsigned char *)t->text, t->len);
    if (st == yajl_status_ok)
        st = yajl_complete_parse(t->yh);
    yajl_free(t->yh);
    t->yh = NULL;
    if (t->fault)
        return t->fault;
    if (st != yajl_status_ok || t->n == 0 || t->node[0].type != JSON_OBJECT)
        return FAULT_TEXT;
    /* yajl lets a token cut short by the end of the text pass after the top value */
    for (size_t i = t->root_end; i < t->len; i++)
        if (!strchr(" \t\n\r", t->text[i]))
            return FAULT_TEXT;
    return FAULT_NONE;
}

/* The table of a text jansson read (root at v), for the texts this reader's own parse
 * refused: jansson accepts a few yajl does not (a NUL byte right after a number or a
 * literal is dropped by its lexer's one-byte look-ahead), and any text jansson reads
 * must read the same here. Values nest at most 2048 deep (jansson's limit). */
static bool tape_from_tree(tape *t, const json_t *v, const char *key)
{
    if (!tape_room(t))
        return false;
    size_t at = t->n++;
    rnode x = {.key = key, .keylen = key ? (uint32_t)strlen(key) : 0,
               .type = (uint8_t)json_typeof(v), .skip = 1};
    if (json_is_integer(v))
        x.v.i = json_integer_value(v);
    else if (json_is_real(v))
        x.v.r = json_real_value(v);
    else if (json_is_string(v)) {
        x.n = (uint32_t)json_string_length(v);
        if (!(x.v.s = tape_str(t, json_string_value(v), x.n)))
            return tape_nomem(t);
    } else if (json_is_array(v)) {
        x.n = (uint32_t)json_array_size(v);
        for (size_t i = 0; i < x.n; i++)
            if (!tape_from_tree(t, json_array_get(v, i), NULL))
                return false;
    } else if (json_is_object(v)) {
        x.n = (uint32_t)json_object_size(v);
        json_t *o = (json_t *)v; /* jansson's iterators take no const; nothing is changed */
        for (void *it = json_object_iter(o); it; it = json_object_iter_next(o, it)) {
            const char *k = json_object_iter_key(it);
            const char *kc = tape_str(t, k, strlen(k));
            if (!kc)
                return tape_nomem(t);
            if (!tape_from_tree(t, json_object_iter_value(it), kc))
                return false;
        }
    }
    x.skip = (uint32_t)(t->n - at);
    t->node[at] = x;
    return true;
}

static void tape_free(tape *t)
{
    free(t->node);
    free(t->open);
    free(t->hash);
}

/* ---- reading the table ---------------------------------------------------------------- */

static wsel__jval jv(const rnode *x)
{
    wsel__jval v = {(json_type)x->type, 0, 0, NULL, x->n};
    if (x->type == JSON_INTEGER)
        v.i = x->v.i;
    else if (x->type == JSON_REAL)
        v.r = x->v.r;
    else if (x->type == JSON_STRING)
        v.s = x->v.s;
    return v;
}

/* x for core/json.h's typed reads (x NULL: nothing), in *buf. */
static const wsel__jval *jvp(const rnode *x, wsel__jval *buf)
{
    if (!x)
        return NULL;
    *buf = jv(x);
    return buf;
}

static bool is_type(const rnode *x, uint8_t type)
{
    return x && x->type == type;
}

/* The first member or element of container c (check c->n first), and the next one. */
static const rnode *first(const rnode *c)
{
    return c + 1;
}

static const rnode *next(const rnode *x)
{
    return x + x->skip;
}

/* Member `key` of object o, or NULL. */
static const rnode *member(const rnode *o, const char *key)
{
    if (!is_type(o, JSON_OBJECT))
        return NULL;
    const rnode *m = first(o);
    for (uint32_t i = 0; i < o->n; i++, m = next(m))
        if (strcmp(m->key, key) == 0)
            return m;
    return NULL;
}

/* As wsel__json_member. */
static int get_member(const scenario_doc *d, const wsel__jpath *p, const rnode *o,
                      const char *key, bool required, const rnode **out)
{
    *out = member(o, key);
    return *out || !required ? WSEL_OK : wsel__json_missing(d->json, p, key);
}

/* As wsel__json_keys. */
static int check_keys(const scenario_doc *d, const wsel__jpath *p, const rnode *o,
                      const char *const *keys)
{
    const rnode *m = first(o);
    int rc = WSEL_OK;
    for (uint32_t i = 0; i < o->n && rc == WSEL_OK; i++, m = next(m))
        rc = wsel__json_key_check(d->json, p, m->key, keys);
    return rc;
}

/* ---- values ---------------------------------------------------------------------------- */

/* A name (host, address, SRV target): a string of 1..253 bytes without NUL (the table's
 * strings are kept with the scenario: no copy). */
static int get_name(const scenario_doc *d, const wsel__jpath *p, const rnode *v,
                    const char **out)
{
    size_t n = is_type(v, JSON_STRING) ? v->n : 0;
    if (n == 0 || n > NAME_MAX_BYTES || strlen(v->v.s) != n)
        return wsel__json_fail(d->json, p, is_type(v, JSON_STRING) ? WSEL_E_RANGE : WSEL_E_TYPE,
                               "expected a non-empty string of at most %d bytes",
                               NAME_MAX_BYTES);
    *out = v->v.s;
    return WSEL_OK;
}

/* Member `key` of the object o at p as a name; absent: an error when required, else
 * *out stays. */
static int name_member(const scenario_doc *d, const wsel__jpath *p, const rnode *o,
                       const char *key, bool required, const char **out)
{
    const rnode *v;
    int rc = get_member(d, p, o, key, required, &v);
    if (rc || !v)
        return rc;
    wsel__jpath kp = wsel__jkey(p, key);
    return get_name(d, &kp, v, out);
}

/* Member `key` as an integer in [lo, hi]; absent: an error when required, else *out =
 * dflt. */
static int int_member(const scenario_doc *d, const wsel__jpath *p, const rnode *o,
                      const char *key, bool required, long long lo, long long hi,
                      long long dflt, long long *out)
{
    const rnode *v;
    *out = dflt;
    int rc = get_member(d, p, o, key, required, &v);
    if (rc || !v)
        return rc;
    wsel__jpath kp = wsel__jkey(p, key);
    wsel__jval b;
    return wsel__jv_int(d->json, &kp, jvp(v, &b), lo, hi, out);
}

/* As int_member, for the uint32_t fields of ops and records. */
static int u32_member(const scenario_doc *d, const wsel__jpath *p, const rnode *o,
                      const char *key, bool required, long long lo, long long hi,
                      long long dflt, uint32_t *out)
{
    long long x;
    int rc = int_member(d, p, o, key, required, lo, hi, dflt, &x);
    *out = (uint32_t)x;
    return rc;
}

/* Member `key`, required, an integer in 0..hi. */
static int u64_member(const scenario_doc *d, const wsel__jpath *p, const rnode *o,
                      const char *key, long long hi, uint64_t *out)
{
    long long x;
    int rc = int_member(d, p, o, key, true, 0, hi, 0, &x);
    *out = (uint64_t)x;
    return rc;
}

/* A port 1..65535, 80 when absent. */
static int port_member(const scenario_doc *d, const wsel__jpath *p, const rnode *o,
                       uint32_t *out)
{
    return u32_member(d, p, o, "port", false, 1, 65535, 80, out);
}

static int bool_member(const scenario_doc *d, const wsel__jpath *p, const rnode *o,
                       const char *key, bool required, bool *out)
{
    const rnode *v;
    int rc = get_member(d, p, o, key, required, &v);
    if (rc || !v)
        return rc;
    wsel__jpath kp = wsel__jkey(p, key);
    wsel__jval b;
    return wsel__jv_bool(d->json, &kp, jvp(v, &b), out);
}

/* The array v at p, and room for its *n elements of `size` bytes each. */
static void *array_room(const scenario_doc *d, const wsel__jpath *p, const rnode *v,
                        size_t size, size_t *n, int *rc)
{
    wsel__jval b;
    if ((*rc = wsel__jv_arr(d->json, p, jvp(v, &b), SIZE_MAX, n)))
        return NULL;
    void *room = block_new(d->sc, d->small, *n, size);
    if (!room)
        *rc = nomem(d);
    return room;
}

/* Reads element i of an array (at path p, its value v) into elem; arg: the reader's own. */
typedef int (*elem_reader)(const scenario_doc *d, const wsel__jpath *p, size_t i,
                           const rnode *v, void *elem, int arg);

/* The array v at p: *n elements of `size` bytes each into *out (freed with the scenario),
 * each read by `read`. */
static int read_array(const scenario_doc *d, const wsel__jpath *p, const rnode *v, size_t size,
                      elem_reader read, int arg, void **out, size_t *n)
{
    int rc;
    char *room = array_room(d, p, v, size, n, &rc);
    const rnode *e = room ? first(v) : NULL;
    for (size_t i = 0; room && i < *n && rc == WSEL_OK; i++, e = next(e)) {
        wsel__jpath ip = wsel__jidx(p, i);
        rc = read(d, &ip, i, e, room + i * size, arg);
    }
    *out = room;
    return rc;
}

/* Member `key` of the root (NULL when absent), its path into *p. */
static const rnode *top_member(const scenario_doc *d, const char *key, wsel__jpath *p)
{
    *p = wsel__jkey(NULL, key);
    return member(d->root, key);
}

/* Member `key` of the root, a number of seconds > 0; absent: *out stays. */
static int seconds_member(const scenario_doc *d, const char *key, double *out)
{
    wsel__jpath kp;
    const rnode *v = top_member(d, key, &kp);
    double x;
    wsel__jval b;
    int rc = v ? wsel__jv_num(d->json, &kp, jvp(v, &b), -INFINITY, INFINITY, &x) : WSEL_OK;
    if (rc || !v)
        return rc;
    if (!(x > 0))
        return wsel__json_fail(d->json, &kp, WSEL_E_RANGE, "expected a number of seconds > 0");
    *out = x;
    return WSEL_OK;
}

/* ---- the ring's options ---------------------------------------------------------------- */

static int read_order(const scenario_doc *d)
{
    wsel_ring_opts *o = &d->sc->opts;
    wsel__jpath op;
    const rnode *v = top_member(d, "order", &op);
    size_t n;
    wsel__jval b;
    int rc = v ? wsel__jv_arr(d->json, &op, jvp(v, &b), WSEL_RING_MAX_SLOTS, &n) : WSEL_OK;
    if (rc || !v)
        return rc;
    if (n == 0)
        return wsel__json_fail(d->json, &op, WSEL_E_RANGE, "expected 1..%u numbers",
                               WSEL_RING_MAX_SLOTS);
    double *order = block_new(d->sc, d->small, n, sizeof *order);
    if (!order)
        return nomem(d);
    const rnode *e = first(v);
    for (size_t i = 0; i < n && rc == WSEL_OK; i++, e = next(e)) {
        wsel__jpath ip = wsel__jidx(&op, i);
        rc = wsel__jv_num(d->json, &ip, jvp(e, &b), -INFINITY, INFINITY, &order[i]);
    }
    if (rc)
        return rc;
    o->order = order;
    o->order_len = n;
    if (o->wheel_size >= 0 && (size_t)o->wheel_size != n)
        return wsel__json_fail(d->json, &op, WSEL_E_RANGE,
                               "mismatch between size of 'order' (%zu) and 'wheelSize' (%lld)",
                               n, (long long)o->wheel_size);
    return WSEL_OK;
}

/* wheelSize, order, healthThreshold, requery, ttl0, useSRVname, strict, rrStart. */
static int read_options(const scenario_doc *d, const rnode *root)
{
    wsel_ring_opts *o = &d->sc->opts;
    long long x;
    int rc = int_member(d, NULL, root, "wheelSize", false, 1, WSEL_RING_MAX_SLOTS,
                        o->wheel_size, &x);
    o->wheel_size = x;
    rc = rc ? rc : read_order(d);
    wsel__jpath tp;
    const rnode *v = top_member(d, "healthThreshold", &tp);
    wsel__jval b;
    if (!rc && v)
        rc = wsel__jv_num(d->json, &tp, jvp(v, &b), 0, 100, &o->health_threshold);
    rc = rc ? rc : seconds_member(d, "requery", &o->requery);
    rc = rc ? rc : seconds_member(d, "ttl0", &o->ttl0);
    rc = rc ? rc : bool_member(d, NULL, root, "useSRVname", false, &o->use_srv_name);
    rc = rc ? rc : bool_member(d, NULL, root, "strict", false, &o->strict);
    if (rc)
        return rc;
    uint32_t n = o->wheel_size >= 0 ? (uint32_t)o->wheel_size
                 : o->order          ? (uint32_t)o->order_len
                                     : WSEL_RING_DEFAULT_SIZE;
    rc = int_member(d, NULL, root, "rrStart", false, 1, n, o->rr_start, &x);
    o->rr_start = x;
    return rc;
}

/* A host: "name", or {"name", "port", "weight"} (absent port and weight: -1). */
static int read_host(const scenario_doc *d, const wsel__jpath *p, size_t i, const rnode *h,
                     void *elem, int arg)
{
    wsel_ring_host_spec *hs = elem;
    (void)i, (void)arg;
    static const char *const keys[] = {"name", "port", "weight", NULL};
    hs->port = hs->weight = -1;
    if (is_type(h, JSON_STRING)) {
        size_t n = h->n;
        if (n == 0 || n > NAME_MAX_BYTES)
            return wsel__json_fail(d->json, p, WSEL_E_RANGE,
                                   "expected a non-empty host name of at most %d bytes",
                                   NAME_MAX_BYTES);
        return get_name(d, p, h, &hs->name);
    }
    if (!is_type(h, JSON_OBJECT))
        return wsel__json_fail(d->json, p, WSEL_E_TYPE,
                               "expected a host name or {name, port, weight}");
    long long port, weight;
    int rc = check_keys(d, p, h, keys);
    rc = rc ? rc : name_member(d, p, h, "name", true, &hs->name);
    rc = rc ? rc : int_member(d, p, h, "port", false, 1, 65535, -1, &port);
    rc = rc ? rc : int_member(d, p, h, "weight", false, 1, WSEL_RING_MAX_WEIGHT, -1, &weight);
    if (rc == WSEL_OK) {
        hs->port = port;
        hs->weight = weight;
    }
    return rc;
}

static int read_hosts(const scenario_doc *d)
{
    wsel__jpath hp;
    const rnode *v = top_member(d, "hosts", &hp);
    void *hosts;
    int rc = v ? read_array(d, &hp, v, sizeof(wsel_ring_host_spec), read_host, 0, &hosts,
                            &d->sc->opts.n_hosts)
               : WSEL_OK;
    if (v)
        d->sc->opts.hosts = hosts;
    return rc;
}

/* ---- DNS answers ------------------------------------------------------------------------- */

/* Entry i of an A, AAAA or SRV record (arg: its wsel_ring_rrtype). */
static int read_record(const scenario_doc *d, const wsel__jpath *p, size_t i, const rnode *o,
                       void *elem, int arg)
{
    wsel_ring_entry *e = elem;
    wsel_ring_rrtype type = (wsel_ring_rrtype)arg;
    (void)i;
    static const char *const srv_keys[] = {"target", "port", "weight", "priority", "ttl", NULL};
    static const char *const ip_keys[] = {"address", "ttl", NULL};
    wsel__jval b;
    int rc = wsel__jv_obj(d->json, p, jvp(o, &b));
    rc = rc ? rc : check_keys(d, p, o, type == WSEL_RING_SRV ? srv_keys : ip_keys);
    if (type == WSEL_RING_SRV) {
        rc = rc ? rc : name_member(d, p, o, "target", true, &e->address);
        rc = rc ? rc : u32_member(d, p, o, "port", true, 0, 65535, 0, &e->port);
        rc = rc ? rc : u32_member(d, p, o, "weight", true, 0, 65535, 0, &e->weight);
        rc = rc ? rc : u32_member(d, p, o, "priority", true, 0, 65535, 0, &e->priority);
    } else if (!rc && !(rc = name_member(d, p, o, "address", true, &e->address))) {
        uint8_t bin[16];
        int fam = wsel__addr_parse(e->address, strlen(e->address), false, bin);
        if (fam != (type == WSEL_RING_A ? 4 : 6)) {
            wsel__jpath ap = wsel__jkey(p, "address");
            return wsel__json_fail(d->json, &ap, WSEL_E_RANGE, "'%s' is not an %s address",
                                   e->address, type == WSEL_RING_A ? "IPv4" : "IPv6");
        }
    }
    return rc ? rc : u32_member(d, p, o, "ttl", false, 0, TTL_MAX, 300, &e->ttl);
}

/* Member `key` (A, AAAA, SRV) of the answer o at p, when present: its records. */
static int read_records(const scenario_doc *d, const wsel__jpath *p, const rnode *o,
                        const char *key, wsel_ring_rrtype type, wsel_ring_entry **out,
                        size_t *n)
{
    const rnode *v = member(o, key);
    if (!v)
        return WSEL_OK;
    wsel__jpath kp = wsel__jkey(p, key);
    void *e;
    int rc = read_array(d, &kp, v, sizeof(wsel_ring_entry), read_record, (int)type, &e, n);
    *out = e;
    return rc;
}

static int read_fail(const scenario_doc *d, const wsel__jpath *p, const rnode *f,
                     const char **out)
{
    static const char *const kinds[] = {"nxdomain", "servfail", "timeout"};
    wsel__jpath fp = wsel__jkey(p, "fail");
    for (size_t i = 0; is_type(f, JSON_STRING) && i < sizeof kinds / sizeof kinds[0]; i++)
        if (strcmp(f->v.s, kinds[i]) == 0) {
            *out = kinds[i];
            return WSEL_OK;
        }
    return wsel__json_fail(d->json, &fp, is_type(f, JSON_STRING) ? WSEL_E_RANGE : WSEL_E_TYPE,
                           "expected \"nxdomain\", \"servfail\" or \"timeout\"");
}

/* A name's answer: {"A": [...], "AAAA": [...], "SRV": [...]} or {"fail": KIND}; in a dns
 * op (is_op) beside the op's own keys. name is kept with the scenario. */
static int read_answer(const scenario_doc *d, const wsel__jpath *p, const rnode *o,
                       const char *name, bool is_op, wsel__ring_answer *ans)
{
    static const char *const keys[] = {"A", "AAAA", "SRV", "fail", NULL};
    static const char *const op_keys[] = {"op", "name", "A", "AAAA", "SRV", "fail", NULL};
    wsel__jval b;
    int rc = wsel__jv_obj(d->json, p, jvp(o, &b));
    rc = rc ? rc : check_keys(d, p, o, is_op ? op_keys : keys);
    if (rc)
        return rc;
    ans->name = name;
    const rnode *fail = member(o, "fail");
    bool any = member(o, "A") || member(o, "AAAA") || member(o, "SRV");
    if (fail && (rc = read_fail(d, p, fail, &ans->fail)))
        return rc;
    if (fail && any)
        return wsel__json_fail(d->json, p, WSEL_E_TYPE, "'fail' cannot be given with records");
    if (!fail && !any)
        return wsel__json_fail(d->json, p, WSEL_E_TYPE, "expected 'A', 'AAAA', 'SRV' or 'fail'");
    rc = read_records(d, p, o, "A", WSEL_RING_A, &ans->a, &ans->na);
    rc = rc ? rc : read_records(d, p, o, "AAAA", WSEL_RING_AAAA, &ans->aaaa, &ans->naaaa);
    return rc ? rc : read_records(d, p, o, "SRV", WSEL_RING_SRV, &ans->srv, &ans->nsrv);
}

static int read_dns(const scenario_doc *d)
{
    wsel__jpath dp;
    const rnode *v = top_member(d, "dns", &dp);
    wsel__jval b;
    int rc = v ? wsel__jv_obj(d->json, &dp, jvp(v, &b)) : WSEL_OK;
    if (rc || !v)
        return rc;
    wsel_ring_scenario *sc = d->sc;
    if (!(sc->names = block_new(sc, d->small, v->n, sizeof *sc->names)))
        return nomem(d);
    const rnode *answer = first(v);
    for (uint32_t i = 0; i < v->n; i++, answer = next(answer)) {
        const char *name = answer->key;
        wsel__jpath np = wsel__jkey(&dp, name);
        if (strlen(name) == 0 || strlen(name) > NAME_MAX_BYTES)
            return wsel__json_fail_key(d->json, &np, WSEL_E_RANGE,
                                       "expected a name of 1..%d bytes", NAME_MAX_BYTES);
        if ((rc = read_answer(d, &np, answer, name, false, &sc->names[sc->n_names])))
            return rc;
        sc->n_names++;
    }
    return WSEL_OK;
}

/* ---- ops ------------------------------------------------------------------------------------ */

typedef int (*op_reader)(const scenario_doc *d, const wsel__jpath *p, const rnode *o,
                         wsel__ring_scenario_op *op);

/* add, remove, hoststatus: the host (name, port) */
static int read_host_op(const scenario_doc *d, const wsel__jpath *p, const rnode *o,
                        wsel__ring_scenario_op *op)
{
    wsel_ring_op *w = &op->pub;
    int rc = name_member(d, p, o, "name", true, &w->name);
    rc = rc ? rc : port_member(d, p, o, &w->port);
    if (w->kind == WSEL_RING_OP_ADD)
        rc = rc ? rc
                : u32_member(d, p, o, "weight", false, 1, WSEL_RING_MAX_WEIGHT, 10, &w->weight);
    if (w->kind == WSEL_RING_OP_HOSTSTATUS)
        rc = rc ? rc : bool_member(d, p, o, "available", true, &w->available);
    return rc;
}

static int read_status_op(const scenario_doc *d, const wsel__jpath *p, const rnode *o,
                          wsel__ring_scenario_op *op)
{
    wsel_ring_op *w = &op->pub;
    int rc = name_member(d, p, o, "ip", true, &w->ip);
    rc = rc ? rc : port_member(d, p, o, &w->port);
    rc = rc ? rc : name_member(d, p, o, "hostname", false, &w->hostname);
    return rc ? rc : bool_member(d, p, o, "available", true, &w->available);
}

static int read_dns_op(const scenario_doc *d, const wsel__jpath *p, const rnode *o,
                       wsel__ring_scenario_op *op)
{
    int rc = name_member(d, p, o, "name", true, &op->pub.name);
    return rc ? rc : read_answer(d, p, o, op->pub.name, true, &op->answer);
}

static int read_advance_op(const scenario_doc *d, const wsel__jpath *p, const rnode *o,
                           wsel__ring_scenario_op *op)
{
    const rnode *v;
    int rc = get_member(d, p, o, "seconds", true, &v);
    wsel__jpath sp = wsel__jkey(p, "seconds");
    wsel__jval b;
    return rc ? rc : wsel__jv_num(d->json, &sp, jvp(v, &b), 0, ADVANCE_MAX, &op->pub.seconds);
}

static int read_snapshot_op(const scenario_doc *d, const wsel__jpath *p, const rnode *o,
                            wsel__ring_scenario_op *op)
{
    (void)d, (void)p, (void)o, (void)op;
    return WSEL_OK;
}

/* Key i of a peers op: a hash 0..2^53 into hashes, or a float in [0,1) into floats. */
static int read_key(const scenario_doc *d, const wsel__jpath *p, const rnode *v,
                    uint64_t *hashes, double *floats, size_t i)
{
    long long x = 0;
    wsel__jval b;
    if (hashes) {
        int rc = wsel__jv_int(d->json, p, jvp(v, &b), 0, HASH_MAX, &x);
        hashes[i] = (uint64_t)x;
        return rc;
    }
    int rc = wsel__jv_num(d->json, p, jvp(v, &b), -INFINITY, INFINITY, &floats[i]);
    if (!rc && !(floats[i] >= 0 && floats[i] < 1))
        return wsel__json_fail(d->json, p, WSEL_E_RANGE, "expected a number in [0,1)");
    return rc;
}

static int read_peers_op(const scenario_doc *d, const wsel__jpath *p, const rnode *o,
                         wsel__ring_scenario_op *op)
{
    wsel_ring_op *w = &op->pub;
    const rnode *h = member(o, "hashes"), *f = member(o, "floats");
    if (!h == !f)
        return wsel__json_fail(d->json, p, WSEL_E_TYPE,
                               "expected exactly one of 'hashes' and 'floats'");
    wsel__jpath kp = wsel__jkey(p, h ? "hashes" : "floats");
    int rc;
    uint64_t *hashes = NULL;
    double *floats = NULL;
    if (h)
        w->hashes = hashes = array_room(d, &kp, h, sizeof *hashes, &w->n_keys, &rc);
    else
        w->floats = floats = array_room(d, &kp, f, sizeof *floats, &w->n_keys, &rc);
    const rnode *e = hashes || floats ? first(h ? h : f) : NULL;
    for (size_t i = 0; (hashes || floats) && i < w->n_keys && rc == WSEL_OK; i++, e = next(e)) {
        wsel__jpath ip = wsel__jidx(&kp, i);
        rc = read_key(d, &ip, e, hashes, floats, i);
    }
    return rc;
}

static int read_rr_op(const scenario_doc *d, const wsel__jpath *p, const rnode *o,
                      wsel__ring_scenario_op *op)
{
    return u64_member(d, p, o, "count", COUNT_MAX, &op->pub.count);
}

static int read_retry_op(const scenario_doc *d, const wsel__jpath *p, const rnode *o,
                         wsel__ring_scenario_op *op)
{
    int rc = u64_member(d, p, o, "hash", HASH_MAX, &op->pub.hash);
    return rc ? rc : read_rr_op(d, p, o, op);
}

/* Each op's keys ("op" first) and its reader; NULL keys: the reader checks them. */
#define OP_KEYS(...) ((const char *const[]){"op", __VA_ARGS__, NULL})
static const struct op_form {
    wsel_ring_op_kind kind;
    const char *const *keys;
    op_reader read;
} op_forms[] = {
    {WSEL_RING_OP_ADD, OP_KEYS("name", "port", "weight"), read_host_op},
    {WSEL_RING_OP_REMOVE, OP_KEYS("name", "port"), read_host_op},
    {WSEL_RING_OP_STATUS, OP_KEYS("ip", "port", "hostname", "available"), read_status_op},
    {WSEL_RING_OP_HOSTSTATUS, OP_KEYS("name", "port", "available"), read_host_op},
    {WSEL_RING_OP_DNS, NULL, read_dns_op},
    {WSEL_RING_OP_ADVANCE, OP_KEYS("seconds"), read_advance_op},
    {WSEL_RING_OP_SNAPSHOT, (const char *const[]){"op", NULL}, read_snapshot_op},
    {WSEL_RING_OP_PEERS, OP_KEYS("hashes", "floats"), read_peers_op},
    {WSEL_RING_OP_RR, OP_KEYS("count"), read_rr_op},
    {WSEL_RING_OP_RETRY, OP_KEYS("hash", "count"), read_retry_op},
};
#define N_OP_FORMS (sizeof op_forms / sizeof op_forms[0])

static const char *const op_names[N_OP_FORMS] = {
    "add", "remove", "status", "hoststatus", "dns", "advance", "snapshot", "peers", "rr", "retry",
};

const char *wsel_ring_op_kind_name(wsel_ring_op_kind kind)
{
    return (size_t)kind < N_OP_FORMS ? op_names[kind] : "unknown";
}

/* Op i, at path p. */
static int read_op(const scenario_doc *d, const wsel__jpath *p, size_t i, const rnode *o,
                   void *elem, int arg)
{
    wsel__ring_scenario_op *op = elem;
    wsel__jpath kp = wsel__jkey(p, "op");
    (void)arg;
    snprintf(op->path, sizeof op->path, "$.ops[%zu]", i);
    op->pub.path = op->path;
    const rnode *k;
    wsel__jval b;
    const char *kind;
    int rc = wsel__jv_obj(d->json, p, jvp(o, &b));
    rc = rc ? rc : get_member(d, p, o, "op", true, &k);
    if (rc || (rc = wsel__jv_str(d->json, &kp, jvp(k, &b), &kind)))
        return rc;
    for (size_t f = 0; f < N_OP_FORMS; f++) {
        if (strcmp(kind, op_names[f]) != 0)
            continue;
        op->pub.kind = op_forms[f].kind;
        if (op_forms[f].keys && (rc = check_keys(d, p, o, op_forms[f].keys)))
            return rc;
        return op_forms[f].read(d, p, o, op);
    }
    return wsel__json_fail(d->json, &kp, WSEL_E_RANGE,
                           "unknown op '%s' (expected add, remove, status, hoststatus, dns, "
                           "advance, snapshot, peers, rr or retry)", kind);
}

static int read_ops(const scenario_doc *d)
{
    wsel__jpath op;
    const rnode *v = top_member(d, "ops", &op);
    void *ops;
    int rc = v ? read_array(d, &op, v, sizeof(wsel__ring_scenario_op), read_op, 0, &ops,
                            &d->sc->n_ops)
               : WSEL_OK;
    if (v)
        d->sc->ops = ops;
    return rc;
}

/* ---- the whole file ------------------------------------------------------------------------- */

static int read_scenario(const scenario_doc *d)
{
    static const char *const keys[] = {"wheelSize", "order", "healthThreshold", "rrStart",
                                       "requery", "ttl0", "useSRVname", "hosts", "dns", "ops",
                                       "strict", NULL};
    const rnode *root = d->root;
    wsel_ring_opts_init(&d->sc->opts);
    int rc = check_keys(d, NULL, root, keys);
    rc = rc ? rc : read_options(d, root);
    rc = rc ? rc : read_hosts(d);
    rc = rc ? rc : read_dns(d);
    return rc ? rc : read_ops(d);
}

/* Reads the scenario from text[0..len) (malloc'd, NUL-terminated; the scenario keeps
 * it, or it is freed). */
static int load_text(const char *name, char *text, size_t len, wsel_ring_scenario **out,
                     wsel_error *err)
{
    wsel_ring_scenario *sc = calloc(1, sizeof *sc);
    size_t nl = strlen(name) + 1;
    char *nm = sc ? malloc(nl) : NULL;
    if (!nm) {
        free(sc);
        free(text);
        return wsel__fail(err, WSEL_E_NOMEM, name, 0, 0, NULL, NULL, NULL,
                          "out of memory reading the scenario");
    }
    sc->name = memcpy(nm, name, nl);
    sc->text = text;
    sc->len = len;
    tape t = {.sc = sc, .text = text, .len = len};
    int fault = tape_build(&t), rc;
    if (fault == FAULT_NONE) {
        wsel__json json = {sc->name, text, len, NULL, err};
        small_room small = {NULL, 0, 0};
        scenario_doc d = {&json, sc, t.node, &small};
        rc = read_scenario(&d);
    } else if (fault == FAULT_NOMEM) {
        rc = wsel__fail(err, WSEL_E_NOMEM, sc->name, 0, 0, NULL, NULL, NULL,
                        "out of memory reading the scenario");
    } else {
        /* the JSON layer's verdict: its own words for what is wrong with the text, or
         * (a text jansson reads and yajl does not) the table from jansson's tree */
        wsel__json json;
        rc = wsel__json_parse(&json, sc->name, text, len, err);
        t.n = 0;
        if (rc == WSEL_OK && !tape_from_tree(&t, json.root, NULL))
            rc = wsel__fail(err, WSEL_E_NOMEM, sc->name, 0, 0, NULL, NULL, NULL,
                            "out of memory reading the scenario");
        wsel__json_free(&json);
        if (rc == WSEL_OK) {
            wsel__json j = {sc->name, text, len, NULL, err};
            small_room small = {NULL, 0, 0};
            scenario_doc d = {&j, sc, t.node, &small};
            rc = read_scenario(&d);
        }
    }
    tape_free(&t);
    if (rc != WSEL_OK) {
        wsel_ring_scenario_free(sc);
        return rc;
    }
    *out = sc;
    return WSEL_OK;
}

int wsel_ring_scenario_load_file(const char *path, wsel_ring_scenario **out, wsel_error *err)
{
    if (out)
        *out = NULL;
    if (!path || !out)
        return wsel__fail(err, WSEL_E_ARG, path, 0, 0, NULL, NULL, NULL,
                          "ring: scenario load needs a path and an output pointer");
    char *text;
    size_t len;
    int rc = wsel__read_file(path, "scenario", WSEL_RING_SCENARIO_MAX_SIZE, NULL, &text, &len,
                             err);
    return rc ? rc : load_text(path, text, len, out, err);
}

int wsel_ring_scenario_load_buffer(const char *name, const char *data, size_t len,
                                   wsel_ring_scenario **out, wsel_error *err)
{
    if (out)
        *out = NULL;
    if (!name)
        name = "(scenario)";
    if (!out || (!data && len))
        return wsel__fail(err, WSEL_E_ARG, name, 0, 0, NULL, NULL, NULL,
                          "ring: scenario load needs the data and an output pointer");
    if (len > WSEL_RING_SCENARIO_MAX_SIZE)
        return wsel__fail(err, WSEL_E_LIMIT, name, 0, 0, NULL, NULL, NULL,
                          "scenario '%s' is larger than the limit of %u bytes", name,
                          WSEL_RING_SCENARIO_MAX_SIZE);
    char *text = malloc(len + 1);
    if (!text)
        return wsel__fail(err, WSEL_E_NOMEM, name, 0, 0, NULL, NULL, NULL,
                          "out of memory reading the scenario");
    if (len)
        memcpy(text, data, len);
    text[len] = '\0';
    return load_text(name, text, len, out, err);
}

void wsel_ring_scenario_free(wsel_ring_scenario *sc)
{
    if (!sc)
        return;
    for (size_t i = 0; i < sc->blocks.n; i++)
        free(sc->blocks.block[i]);
    free(sc->blocks.block);
    free(sc->text);
    free(sc->name);
    free(sc);
}

const wsel_ring_opts *wsel_ring_scenario_opts(const wsel_ring_scenario *sc)
{
    return sc ? &sc->opts : NULL;
}

size_t wsel_ring_scenario_op_count(const wsel_ring_scenario *sc)
{
    return sc ? sc->n_ops : 0;
}

const wsel_ring_op *wsel_ring_scenario_op(const wsel_ring_scenario *sc, size_t i)
{
    return sc && i < sc->n_ops ? &sc->ops[i].pub : NULL;
}

int wsel__ring_scenario_fail(const wsel_ring_scenario *sc, const wsel__jpath *at, int code,
                             const char *msg, wsel_error *err)
{
    wsel__json json = {sc->name, sc->text, sc->len, NULL, err};
    return wsel__json_fail(&json, at, code, "%s", msg);
}
