/* GSLB config reader (doc/gslb.md §1): schema-driven parse of the bigip_gtm.conf subset
 * into the model of include/wsel/gslb.h, then name resolution and ordering.
 * '#' starting a token comments to end of line; each known key has a fixed shape; an
 * unknown key takes exactly one value (A-38: a block, a token and a block it opens, or
 * nothing) and is kept for G030. */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gslb_parse.h"

typedef wsel__gslb_tok tok;

/* The parse of one config: the token stream and where it is, the config being built,
 * the object being read (for messages and repeated keys) and the capacities of the
 * arrays growing as it reads (wsel__grow). A list (a pool's members, a wide IP's pools,
 * a VS's depends-on, a region's members) belongs to one object, which has one of it, and
 * is read in one go: one capacity per kind of list serves, back to 0 whenever a list
 * starts with its object's array still empty (NULL). */
typedef struct conf_parser {
    const char *file;
    tok *t;
    size_t i;
    unsigned depth;
    wsel_gslb_config *cfg;
    wsel_error *err;
    char obj[320];                 /* current object: "gtm pool a /Common/p" */
    const char *seen[128];         /* keys seen in the current (sub)object */
    size_t n_seen;
    size_t cap_servers, cap_vs, cap_pools, cap_wideips, cap_regions, cap_topo, cap_unknown;
    size_t cap_depends, cap_members, cap_wpools, cap_entries, cap_aliases;
    size_t *skip_kinds, n_skip_kinds, cap_skip_kinds; /* cfg->unknown entries counting skipped statements */
} conf_parser;

static int fail(conf_parser *p, const tok *t, int code, const char *fmt, const char *a, const char *b)
{
    char msg[800];
    wsel__gslb_fmt(msg, sizeof msg, fmt, a ? a : "", b ? b : "");
    return wsel__fail(p->err, code, p->file, t ? t->line : 0, t ? t->col : 0, p->obj, NULL,
                      t ? t->text : NULL, "%s%s%s", p->obj, p->obj[0] ? ": " : "", msg);
}

static int nomem(conf_parser *p)
{
    return wsel__fail(p->err, WSEL_E_NOMEM, p->file, 0, 0, p->obj, NULL, NULL, "out of memory");
}

/* Grows *arr (of element size sz) so that index n fits. */
static tok *peek(conf_parser *p) { return &p->t[p->i]; }
static tok *next(conf_parser *p)
{
    tok *t = &p->t[p->i];
    if (t->type != WSEL__TOK_EOF)
        p->i++;
    return t;
}
static int is_val(const tok *t) { return t->type == WSEL__TOK_WORD || t->type == WSEL__TOK_STRING; }

static int expect_lbrace(conf_parser *p)
{
    tok *t = next(p);
    if (t->type != WSEL__TOK_LBRACE)
        return fail(p, t, WSEL_E_SYNTAX, "expected '{', found '%s'", t->text, NULL);
    if (++p->depth > WSEL_GSLB_MAX_DEPTH)
        return fail(p, t, WSEL_E_LIMIT, "braces nested deeper than 16", NULL, NULL);
    return 0;
}

/* After '{' has been consumed: skips to the matching '}'. Its braces count on top of the
 * p->depth levels around it: 16 levels in all, wherever the block stands (§1). */
static int skip_block(conf_parser *p, const tok *open)
{
    unsigned d = 1;
    if (p->depth + d > WSEL_GSLB_MAX_DEPTH)
        return fail(p, open, WSEL_E_LIMIT, "braces nested deeper than 16", NULL, NULL);
    for (;;) {
        tok *t = next(p);
        if (t->type == WSEL__TOK_EOF)
            return fail(p, open, WSEL_E_SYNTAX, "unterminated '{' (no matching '}')", NULL, NULL);
        if (t->type == WSEL__TOK_LBRACE && p->depth + ++d > WSEL_GSLB_MAX_DEPTH)
            return fail(p, t, WSEL_E_LIMIT, "braces nested deeper than 16", NULL, NULL);
        if (t->type == WSEL__TOK_RBRACE && --d == 0)
            return 0;
    }
}

/* The names an object's reader knows (doc/gslb.md §1): those it reads and those it reads
 * and ignores; a name ending in '-' stands for every name it starts (limit-max-bps). */
typedef struct known_names {
    const char *const *names;
    size_t n;
} known_names;

static bool is_known(const known_names *k, const char *name)
{
    for (size_t i = 0; k && i < k->n; i++) {
        size_t len = strlen(k->names[i]);
        if (k->names[i][len - 1] == '-' ? strncmp(name, k->names[i], len) == 0
                                        : strcmp(name, k->names[i]) == 0)
            return true;
    }
    return false;
}

/* Consumes a '{' block at the cursor, if there is one. */
static int opt_block(conf_parser *p)
{
    if (peek(p)->type != WSEL__TOK_LBRACE)
        return 0;
    tok *o = next(p);
    return skip_block(p, o);
}

/* The rest of a monitor rule after its first token (doc/gslb.md §1, A-38):
 * `min N of { ... }`, `require N from M { ... }`, `A and B and C`. */
static int monitor_rest(conf_parser *p, const tok *first)
{
    static const char *const shape_min[] = {"N", "of"}, *const shape_req[] = {"N", "from", "M"};
    const char *const *shape = NULL;
    size_t n = 0;
    if (first->type == WSEL__TOK_WORD && !strcmp(first->text, "min")) {
        shape = shape_min;
        n = 2;
    } else if (first->type == WSEL__TOK_WORD && !strcmp(first->text, "require")) {
        shape = shape_req;
        n = 3;
    }
    for (size_t i = 0; i < n; i++) {
        tok *t = next(p);
        bool placeholder = strlen(shape[i]) == 1; /* N, M: any token */
        if (!is_val(t) || (!placeholder && strcmp(t->text, shape[i])))
            return fail(p, t, WSEL_E_SYNTAX, "monitor: expected '%s', found '%s'", shape[i], t->text);
    }
    if (n)
        return peek(p)->type == WSEL__TOK_LBRACE
                   ? opt_block(p)
                   : fail(p, peek(p), WSEL_E_SYNTAX, "monitor: expected '{', found '%s'%s",
                          peek(p)->text, NULL);
    while (peek(p)->type == WSEL__TOK_WORD && !strcmp(peek(p)->text, "and")) {
        next(p);
        tok *t = next(p);
        if (!is_val(t))
            return fail(p, t, WSEL_E_SYNTAX, "monitor: expected a monitor after 'and', found '%s'%s",
                        t->text, NULL);
    }
    return 0;
}

/* A key read and ignored (doc/gslb.md §1): its value is a block, or one token (a monitor:
 * its whole rule) and a block right after it; nothing when '}' follows. */
static int skip_known(conf_parser *p, const tok *key)
{
    tok *t = peek(p);
    if (t->type == WSEL__TOK_LBRACE)
        return opt_block(p);
    if (!is_val(t))
        return 0;
    next(p);
    int rc = !strcmp(key->text, "monitor") ? monitor_rest(p, t) : 0;
    return rc ? rc : opt_block(p);
}

/* An unknown key: followed by '{', it takes that block; by a bare word on a later
 * line (the multi-line form writes one attribute per line) or a word the object knows as
 * an attribute, nothing (a flag: the word is the next attribute); by any other word or a
 * quoted string, that token and a block right after it. Never more. */
static int skip_unknown(conf_parser *p, const tok *key, const known_names *known)
{
    tok *t = peek(p);
    if (t->type == WSEL__TOK_LBRACE)
        return opt_block(p);
    if (!is_val(t))
        return 0;
    if (t->type == WSEL__TOK_WORD && (t->line != key->line || is_known(known, t->text)))
        return 0;
    next(p);
    return opt_block(p);
}

static int add_unknown(conf_parser *p, const char *object, const char *what, const tok *at)
{
    wsel_gslb_config *c = p->cfg;
    if (!wsel__grow(&c->unknown, &p->cap_unknown, c->n_unknown + 1, sizeof *c->unknown))
        return nomem(p);
    wsel_gslb_unknown *u = &c->unknown[c->n_unknown];
    u->object = wsel__gslb_strdup(object);
    u->what = wsel__gslb_strdup(what);
    u->pos = (wsel_gslb_pos){at->line, at->col};
    c->n_unknown++;
    if (!u->object || !u->what)
        return nomem(p);
    return 0;
}

static int unknown_key(conf_parser *p, const tok *key, const known_names *known)
{
    int rc = add_unknown(p, p->obj, key->text, key);
    return rc ? rc : skip_unknown(p, key, known);
}

/* Records `key` as seen in the current object; error on a repeat. */
static int seen(conf_parser *p, const tok *key, const char *name)
{
    for (size_t i = 0; i < p->n_seen; i++)
        if (strcmp(p->seen[i], name) == 0)
            return fail(p, key, WSEL_E_DUPKEY, "attribute '%s' given twice", name, NULL);
    if (p->n_seen < sizeof p->seen / sizeof p->seen[0])
        p->seen[p->n_seen++] = name;
    return 0;
}

/* A `monitor` attribute (doc/gslb.md §1, §3): read by its shape (skip_known) and kept as
 * written, its tokens joined by one space ("/Common/http and /Common/tcp", "min 1 of {
 * /Common/a /Common/b }"), for `wsel gslb inputs` to list against what it probes. Given
 * twice in one object: an error, as any attribute. */
static int monitor_attr(conf_parser *p, const tok *key, char **rule)
{
    int rc = seen(p, key, key->text);
    size_t from = p->i;
    if (rc || (rc = skip_known(p, key)))
        return rc;
    size_t len = 1;
    for (size_t i = from; i < p->i; i++)
        len += strlen(p->t[i].text) + 1;
    free(*rule);
    if (!(*rule = malloc(len)))
        return nomem(p);
    char *o = *rule;
    for (size_t i = from; i < p->i; i++) {
        size_t n = strlen(p->t[i].text);
        if (i > from)
            *o++ = ' ';
        memcpy(o, p->t[i].text, n);
        o += n;
    }
    *o = '\0';
    return 0;
}

/* The value of `key`: the token after it, on its line (tmsh writes a key and its value on
 * one line in both forms, §1). A token on a later line is the next attribute, so the
 * error stands at the key that lacks its value, not at that token. */
static int value(conf_parser *p, const tok *key, tok **v)
{
    *v = peek(p);
    if ((*v)->line != key->line) {
        char found[300];
        wsel__gslb_fmt(found, sizeof found, "'%s' on line %u", (*v)->text, (*v)->line);
        return fail(p, key, WSEL_E_SYNTAX, "'%s' needs a value on its line, found %s", key->text,
                    found);
    }
    next(p);
    if (!is_val(*v))
        return fail(p, *v, WSEL_E_SYNTAX, "'%s' needs a value, found '%s'", key->text, (*v)->text);
    return 0;
}

static int uint_value(conf_parser *p, const tok *key, unsigned long lo, unsigned long hi, unsigned *out)
{
    tok *v;
    int rc = value(p, key, &v);
    if (rc)
        return rc;
    const char *s = v->text;
    unsigned long long x = 0;
    if (!*s)
        goto bad;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            goto bad;
        x = x * 10 + (unsigned)(*s - '0');
        if (x > 0xffffffffull)
            goto bad;
    }
    if (x < lo || x > hi)
        goto bad;
    *out = (unsigned)x;
    return 0;
bad:;
    char range[64];
    wsel__gslb_fmt(range, sizeof range, "%lu..%lu", lo, hi);
    return fail(p, v, WSEL_E_PARAM, "'%s' must be an integer in %s", key->text, range);
}

static int enum_value(conf_parser *p, const tok *key, const char *const *names, size_t n, unsigned *out)
{
    tok *v;
    int rc = value(p, key, &v);
    if (rc)
        return rc;
    for (size_t i = 0; i < n; i++)
        if (strcmp(names[i], v->text) == 0) {
            *out = (unsigned)i;
            return 0;
        }
    char list[400] = "";
    for (size_t i = 0; i < n; i++) {
        strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
        strncat(list, names[i], sizeof list - strlen(list) - 1);
    }
    char msg[200];
    wsel__gslb_fmt(msg, sizeof msg, "'%s' cannot be '%s'", key->text, v->text);
    return fail(p, v, WSEL_E_PARAM, "%s (expected one of: %s)", msg, list);
}

static int bool_value(conf_parser *p, const tok *key, bool *out)
{
    static const char *const names[] = {"disabled", "enabled"};
    unsigned x;
    int rc = enum_value(p, key, names, 2, &x);
    if (!rc)
        *out = x == 1;
    return rc;
}

static int method_value(conf_parser *p, const tok *key, int step, wsel_gslb_method *out)
{
    tok *v;
    int rc = value(p, key, &v);
    if (rc)
        return rc;
    int m = wsel_gslb_method_find(v->text);
    if (m < 0)
        return fail(p, v, WSEL_E_PARAM, "'%s': unknown load-balancing method '%s'", key->text,
                    v->text);
    const wsel_gslb_method_info *mi = &wsel__gslb_methods[m];
    /* step 0..2 = preferred/alternate/fallback, 3 = wide IP. Known tokens the step's
     * grammar excludes are kept for lint where a check names them (G005, G010);
     * the others are errors. */
    if (step == 3 && !mi->at_wideip)
        return fail(p, v, WSEL_E_PARAM,
                    "pool-lb-mode cannot be '%s' (expected round-robin, ratio, topology, "
                    "global-availability; random is version-dependent)%s", v->text, NULL);
    if (step < 3 && m == WSEL_GSLB_RANDOM)
        return fail(p, v, WSEL_E_PARAM, "'%s': random is a wide-IP pool-lb-mode only%s",
                    key->text, NULL);
    *out = (wsel_gslb_method)m;
    return 0;
}

static int addr_port(conf_parser *p, tok *v, wsel_gslb_addr *a, unsigned *port)
{
    char buf[128];
    wsel__gslb_fmt(buf, sizeof buf, "%s", v->text);
    /* IPv4:port, or IPv6.port (v6 separates the port with '.', as tmsh writes it), or
     * [IPv6].port and [IPv6]:port (the address in brackets) */
    char *sep = NULL, *addr = buf;
    if (buf[0] == '[') {
        char *close = strchr(buf, ']');
        if (!close || (close[1] != '.' && close[1] != ':'))
            goto bad;
        *close = '\0';
        addr = buf + 1;
        sep = close + 1;
    } else if (strchr(buf, ':') && strchr(buf, ':') == strrchr(buf, ':') && strchr(buf, '.'))
        sep = strrchr(buf, ':');
    else
        sep = strrchr(buf, '.');
    if (!sep)
        return fail(p, v, WSEL_E_ADDR, "destination '%s' is not ADDRESS:PORT (IPv4) or ADDRESS.PORT (IPv6)",
                    v->text, NULL);
    *sep = '\0';
    const char *ps = sep + 1;
    unsigned long pv = 0;
    if (strcmp(ps, "any") == 0)
        pv = 0;
    else if (strcmp(ps, "http") == 0)
        pv = 80;
    else if (strcmp(ps, "https") == 0)
        pv = 443;
    else {
        if (!*ps || strlen(ps) > 5)
            goto bad;
        for (const char *s = ps; *s; s++) {
            if (*s < '0' || *s > '9')
                goto bad;
            pv = pv * 10 + (unsigned)(*s - '0');
        }
        if (pv > 65535)
            goto bad;
    }
    if (!wsel__gslb_parse_addr(addr, a) || (addr != buf && a->family != 6))
        goto bad;
    *port = (unsigned)pv;
    return 0;
bad:
    return fail(p, v, WSEL_E_ADDR, "destination '%s' is not ADDRESS:PORT (IPv4) or ADDRESS.PORT (IPv6)",
                v->text, NULL);
}

static int starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Body keys of the form `key` followed by `{ ENTRY [{...}] ... }`: calls entry() for each
 * entry name with the parser positioned after it. */
typedef int (*entry_fn)(conf_parser *p, tok *name, void *ctx);

static int list_block(conf_parser *p, entry_fn fn, void *ctx)
{
    int rc = expect_lbrace(p);
    if (rc)
        return rc;
    for (;;) {
        tok *t = next(p);
        if (t->type == WSEL__TOK_RBRACE)
            break;
        if (t->type == WSEL__TOK_EOF)
            return fail(p, t, WSEL_E_SYNTAX, "unterminated list (no matching '}')", NULL, NULL);
        if (!is_val(t))
            return fail(p, t, WSEL_E_SYNTAX, "expected a list entry, found '%s'", t->text, NULL);
        if ((rc = fn(p, t, ctx)))
            return rc;
    }
    p->depth--;
    return 0;
}

/* An entry's optional `{ attrs }`: calls attr() per key. */
typedef int (*attr_fn)(conf_parser *p, tok *key, void *ctx);

static int attr_block(conf_parser *p, attr_fn fn, void *ctx)
{
    int rc = expect_lbrace(p);
    if (rc)
        return rc;
    const char *saved[128];
    size_t n_saved = p->n_seen;
    memcpy(saved, p->seen, sizeof saved);
    p->n_seen = 0;
    for (;;) {
        tok *t = next(p);
        if (t->type == WSEL__TOK_RBRACE)
            break;
        if (t->type == WSEL__TOK_EOF)
            return fail(p, t, WSEL_E_SYNTAX, "unterminated block (no matching '}')", NULL, NULL);
        if (t->type == WSEL__TOK_LBRACE)
            return fail(p, t, WSEL_E_SYNTAX, "unexpected '{'", NULL, NULL);
        if ((rc = fn(p, t, ctx)))
            return rc;
    }
    p->depth--;
    memcpy(p->seen, saved, sizeof saved);
    p->n_seen = n_saved;
    return 0;
}

/* A list entry's optional `{ attrs }`, read with the current object named "OBJ WHAT NAME". */
static int entry_attrs(conf_parser *p, const char *what, const tok *name, attr_fn fn, void *ctx)
{
    if (peek(p)->type != WSEL__TOK_LBRACE)
        return 0;
    char saved[320];
    memcpy(saved, p->obj, sizeof saved);
    wsel__gslb_fmt(p->obj, sizeof p->obj, "%s %s %s", saved, what, name->text);
    int rc = attr_block(p, fn, ctx);
    memcpy(p->obj, saved, sizeof saved);
    return rc;
}

static int flag_attr(conf_parser *p, tok *key, bool *enabled, unsigned *written, unsigned bit)
{
    if (strcmp(key->text, "enabled") && strcmp(key->text, "disabled"))
        return 1;
    int rc = seen(p, key, "enabled");
    if (rc)
        return rc;
    *enabled = key->text[0] == 'e';
    if (written)
        *written |= bit;
    return 0;
}

/* A scalar attribute of an object: a bool (enabled/disabled) or an unsigned integer in
 * [lo, hi], stored at `off` in the object, with `bit` set in its `written` mask (pools,
 * wide IPs) or the bool at `woff` set (members and a wide IP's pool entries: 0 = none).
 * `as`: the name duplicates are counted under (an alternate spelling), NULL = name. */
#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

typedef struct {
    const char *name;
    bool is_bool;
    unsigned long lo, hi;
    size_t off;
    unsigned bit;
    size_t woff;
    const char *as;
} scalar_attr;

/* 1: `key` is not in the table; otherwise 0 or the error of reading its value. */
static int scalar_attr_read(conf_parser *p, tok *key, const scalar_attr *t, size_t n, void *obj,
                            unsigned *written)
{
    for (size_t i = 0; i < n; i++) {
        if (strcmp(key->text, t[i].name))
            continue;
        char *field = (char *)obj + t[i].off;
        int rc = seen(p, key, t[i].as ? t[i].as : t[i].name);
        if (!rc && t[i].woff)
            *(bool *)(void *)((char *)obj + t[i].woff) = true;
        if (!rc)
            rc = t[i].is_bool ? bool_value(p, key, (bool *)(void *)field)
                              : uint_value(p, key, t[i].lo, t[i].hi, (unsigned *)(void *)field);
        if (!rc && written)
            *written |= t[i].bit;
        return rc;
    }
    return 1;
}

/* A top-level object's `{ attrs }`: `enabled`/`disabled` sets *enabled (when the object has
 * one) and `bit` in *written; every other key goes to attr(). */
static int object_body(conf_parser *p, bool *enabled, unsigned *written, unsigned bit, attr_fn fn, void *ctx)
{
    int rc = expect_lbrace(p);
    if (rc)
        return rc;
    p->n_seen = 0;
    for (;;) {
        tok *key = next(p);
        if (key->type == WSEL__TOK_RBRACE)
            break;
        if (!is_val(key))
            return fail(p, key, WSEL_E_SYNTAX, "expected an attribute, found '%s'", key->text, NULL);
        rc = enabled ? flag_attr(p, key, enabled, written, bit) : 1;
        if (rc < 0 || rc > 1)
            return rc;
        if (rc == 1 && (rc = fn(p, key, ctx)))
            return rc;
    }
    p->depth--;
    return 0;
}

/* Every attribute each object's reader knows (read, or read and ignored), for A-38. */
#define KNOWN(a) {a, N_OF(a)}

static const char *const vs_names[] = {
    "enabled", "disabled", "destination", "depends-on", "translation-", "limit-", "monitor",
    "description", "metadata", "explicit-link-name", "link", "ltm-name",
};
static const known_names vs_known = KNOWN(vs_names);

static const char *const server_names[] = {
    "enabled", "disabled", "datacenter", "product", "virtual-servers", "addresses", "devices",
    "monitor", "limit-", "translation-", "virtual-server-discovery", "prober-", "iq-allow-",
    "description", "metadata", "link-discovery", "expose-route-domains",
};
static const known_names server_known = KNOWN(server_names);

static const char *const member_names[] = {
    "enabled", "disabled", "member-order", "order", "ratio", "depends-on", "monitor", "limit-",
    "description", "metadata",
};
static const known_names member_known = KNOWN(member_names);

static const char *const pool_names[] = {
    "enabled", "disabled", "qos-", "load-balancing-mode", "alternate-mode", "fallback-mode",
    "fallback-ip", "verify-member-availability", "dynamic-ratio", "manual-resume",
    "max-answers-returned", "ttl", "min-members-up-value", "min-members-up-mode", "members",
    "limit-", "monitor", "description", "metadata", "app-service",
};
static const known_names pool_known = KNOWN(pool_names);

static const char *const wpool_names[] = {
    "order", "ratio",
};
static const known_names wpool_known = KNOWN(wpool_names);

static const char *const wideip_names[] = {
    "enabled", "disabled", "pool-lb-mode", "pools", "persistence", "ttl-persistence",
    "persist-cidr-ipv4", "persist-cidr-ipv6", "failure-rcode-response", "failure-rcode-ttl",
    "last-resort-pool", "failure-rcode", "load-balancing-decision-log-verbosity",
    "topology-prefer-edns0-client-subnet", "rules", "aliases", "minimal-response", "metadata",
    "description", "pools-cname", "app-service",
};
static const known_names wideip_known = KNOWN(wideip_names);

static const char *const region_names[] = {
    "region-members", "description", "metadata",
};
static const known_names region_known = KNOWN(region_names);

static const char *const topo_names[] = {
    "order", "score", "weight",
};
static const known_names topo_known = KNOWN(topo_names);

static const char *const global_names[] = {
    "topology-longest-match", "static-persist-cidr-ipv4", "static-persist-cidr-ipv6",
};
static const known_names global_known = KNOWN(global_names);

/* ---- depends-on lists (server VS and pool member) ---- */

static int depends_entry(conf_parser *p, tok *name, void *ctx)
{
    wsel_gslb_vs *vs = ctx;
    if (vs && vs->n_depends >= WSEL_GSLB_MAX_DEPENDS)
        return fail(p, name, WSEL_E_LIMIT, "more than 64 depends-on entries%s", NULL, NULL);
    if (peek(p)->type == WSEL__TOK_LBRACE) {
        tok *o = next(p);
        int rc = skip_block(p, o);
        if (rc)
            return rc;
    }
    if (!vs)
        return 0;
    if (!strchr(name->text, ':') || name->text[0] == ':')
        return fail(p, name, WSEL_E_PARAM, "depends-on entry '%s' is not SERVER:VS", name->text, NULL);
    if (!vs->depends_text)
        p->cap_depends = 0;
    if (!wsel__grow(&vs->depends_text, &p->cap_depends, vs->n_depends + 1,
                    sizeof *vs->depends_text))
        return nomem(p);
    if (!(vs->depends_text[vs->n_depends] = wsel__gslb_strdup(name->text)))
        return nomem(p);
    vs->n_depends++;
    return 0;
}

/* ---- gtm server ---- */

static int vs_attr(conf_parser *p, tok *key, void *ctx)
{
    wsel_gslb_vs *vs = ctx;
    int rc = flag_attr(p, key, &vs->enabled, NULL, 0);
    if (rc <= 0)
        return rc;
    const char *k = key->text;
    if (strcmp(k, "destination") == 0) {
        tok *v;
        if ((rc = seen(p, key, k)) || (rc = value(p, key, &v)))
            return rc;
        return addr_port(p, v, &vs->addr, &vs->port);
    }
    if (strcmp(k, "depends-on") == 0) {
        if ((rc = seen(p, key, k)))
            return rc;
        return list_block(p, depends_entry, vs);
    }
    if (!strcmp(k, "monitor"))
        return monitor_attr(p, key, &vs->monitor);
    if (starts(k, "translation-") || starts(k, "limit-") ||
        !strcmp(k, "description") || !strcmp(k, "metadata") || !strcmp(k, "explicit-link-name") ||
        !strcmp(k, "link") || !strcmp(k, "ltm-name"))
        return skip_known(p, key);
    return unknown_key(p, key, &vs_known);
}

typedef struct srvctx {
    size_t server;
    char name_obj[320];
} srvctx;

static int vs_entry(conf_parser *p, tok *name, void *ctx)
{
    srvctx *sc = ctx;
    wsel_gslb_config *c = p->cfg;
    wsel_gslb_server *s = &c->servers[sc->server];
    for (size_t i = 0; i < s->n_vs; i++)
        if (strcmp(c->vs[s->first_vs + i].name, name->text) == 0)
            return fail(p, name, WSEL_E_DUPKEY, "virtual server '%s' listed twice", name->text, NULL);
    if (c->n_vs >= WSEL_GSLB_MAX_VS)
        return fail(p, name, WSEL_E_LIMIT, "more than 4096 virtual servers in all%s", NULL, NULL);
    if (!wsel__grow(&c->vs, &p->cap_vs, c->n_vs + 1, sizeof *c->vs))
        return nomem(p);
    wsel_gslb_vs *vs = &c->vs[c->n_vs++];
    s->n_vs++;
    vs->server = sc->server;
    vs->enabled = true;
    vs->pos = (wsel_gslb_pos){name->line, name->col};
    if (!(vs->name = wsel__gslb_strdup(name->text)))
        return nomem(p);
    char saved[320];
    memcpy(saved, p->obj, sizeof saved);
    wsel__gslb_fmt(p->obj, sizeof p->obj, "%s virtual-server %s", sc->name_obj, name->text);
    int rc = 0;
    if (peek(p)->type == WSEL__TOK_LBRACE)
        rc = attr_block(p, vs_attr, vs);
    if (!rc && vs->addr.family == 0)
        rc = fail(p, name, WSEL_E_PARAM, "virtual server '%s' has no destination", name->text, NULL);
    memcpy(p->obj, saved, sizeof saved);
    return rc;
}

static int server_body(conf_parser *p, size_t si)
{
    wsel_gslb_config *c = p->cfg;
    srvctx sc = {.server = si};
    wsel__gslb_fmt(sc.name_obj, sizeof sc.name_obj, "%s", p->obj);
    int rc = expect_lbrace(p);
    if (rc)
        return rc;
    p->n_seen = 0;
    c->servers[si].first_vs = c->n_vs;
    for (;;) {
        tok *key = next(p);
        wsel_gslb_server *s = &c->servers[si];
        if (key->type == WSEL__TOK_RBRACE)
            break;
        if (!is_val(key))
            return fail(p, key, WSEL_E_SYNTAX, "expected an attribute, found '%s'", key->text, NULL);
        rc = flag_attr(p, key, &s->enabled, NULL, 0);
        if (rc < 0 || rc > 1)
            return rc;
        if (rc == 0)
            continue;
        const char *k = key->text;
        tok *v;
        if (!strcmp(k, "datacenter") || !strcmp(k, "product")) {
            if ((rc = seen(p, key, k)) || (rc = value(p, key, &v)))
                return rc;
            char buf[600];
            char *d = wsel__gslb_strdup(k[0] == 'd' ? wsel__gslb_norm(v->text, buf, sizeof buf) : v->text);
            if (!d)
                return nomem(p);
            if (k[0] == 'd')
                s->datacenter = d;
            else
                s->product = d;
        } else if (!strcmp(k, "virtual-servers")) {
            if ((rc = seen(p, key, k)))
                return rc;
            if (s->n_vs)
                return fail(p, key, WSEL_E_DUPKEY, "attribute '%s' given twice", k, NULL);
            if ((rc = list_block(p, vs_entry, &sc)))
                return rc;
        } else if (!strcmp(k, "monitor")) {
            if ((rc = monitor_attr(p, key, &s->monitor)))
                return rc;
        } else if (!strcmp(k, "addresses") || starts(k, "limit-") ||
                   starts(k, "translation-") || !strcmp(k, "virtual-server-discovery") ||
                   starts(k, "prober-") || starts(k, "iq-allow-") || !strcmp(k, "description") ||
                   !strcmp(k, "devices") ||
                   !strcmp(k, "metadata") || !strcmp(k, "link-discovery") ||
                   !strcmp(k, "expose-route-domains")) {
            if ((rc = skip_known(p, key)))
                return rc;
        } else if ((rc = unknown_key(p, key, &server_known)))
            return rc;
    }
    p->depth--;
    return 0;
}

/* ---- gtm pool a ---- */

#define M_(f) offsetof(wsel_gslb_member, f)
static const scalar_attr member_scalars[] = {
    {"member-order", false, 0, 65535, M_(order), 0, M_(order_written), NULL},
    {"order", false, 0, 65535, M_(order), 0, M_(order_written), "member-order"}, /* v11 */
    {"ratio", false, 0, 65535, M_(ratio), 0, M_(ratio_written), NULL},
};
#undef M_

static int member_attr(conf_parser *p, tok *key, void *ctx)
{
    wsel_gslb_member *m = ctx;
    int rc = flag_attr(p, key, &m->enabled, NULL, 0);
    if (rc <= 0)
        return rc;
    const char *k = key->text;
    if ((rc = scalar_attr_read(p, key, member_scalars, N_OF(member_scalars), m, NULL)) != 1)
        return rc;
    if (!strcmp(k, "depends-on")) {
        if ((rc = seen(p, key, k)))
            return rc;
        return list_block(p, depends_entry, NULL);
    }
    if (!strcmp(k, "monitor"))
        return monitor_attr(p, key, &m->monitor);
    if (starts(k, "limit-") || !strcmp(k, "description") || !strcmp(k, "metadata"))
        return skip_known(p, key);
    return unknown_key(p, key, &member_known);
}

static int member_entry(conf_parser *p, tok *name, void *ctx)
{
    wsel_gslb_pool *pl = ctx;
    for (size_t i = 0; i < pl->n_members; i++)
        if (strcmp(pl->members[i].key, name->text) == 0)
            return fail(p, name, WSEL_E_DUPKEY, "member '%s' listed twice", name->text, NULL);
    if (pl->n_members >= WSEL_GSLB_MAX_MEMBERS)
        return fail(p, name, WSEL_E_LIMIT, "more than 256 members%s", NULL, NULL);
    if (!strchr(name->text, ':') || name->text[0] == ':')
        return fail(p, name, WSEL_E_PARAM, "member '%s' is not SERVER:VS", name->text, NULL);
    if (!pl->members)
        p->cap_members = 0;
    if (!wsel__grow(&pl->members, &p->cap_members, pl->n_members + 1, sizeof *pl->members))
        return nomem(p);
    wsel_gslb_member *m = &pl->members[pl->n_members];
    m->ratio = 1;
    m->enabled = true;
    m->vs = -1;
    m->text_index = pl->n_members;
    m->pos = (wsel_gslb_pos){name->line, name->col};
    pl->n_members++;
    if (!(m->key = wsel__gslb_strdup(name->text)))
        return nomem(p);
    return entry_attrs(p, "member", name, member_attr, m);
}

static const char *const qos_keys[WSEL_GSLB_QOS_COUNT_] = {
    "qos-rtt", "qos-lcs", "qos-hit-ratio", "qos-kilobytes-second", "qos-packet-rate",
    "qos-hops", "qos-topology", "qos-vs-capacity", "qos-vs-score"};
static const unsigned qos_defaults[WSEL_GSLB_QOS_COUNT_] = {50, 30, 5, 3, 1, 0, 0, 0, 0};

static const scalar_attr pool_scalars[] = {
    {"verify-member-availability", true, 0, 1, offsetof(wsel_gslb_pool, verify), WSEL_GSLB_P_VERIFY, 0, NULL},
    {"dynamic-ratio", true, 0, 1, offsetof(wsel_gslb_pool, dynamic_ratio), WSEL_GSLB_P_DYNRATIO, 0, NULL},
    {"manual-resume", true, 0, 1, offsetof(wsel_gslb_pool, manual_resume), WSEL_GSLB_P_MANUAL, 0, NULL},
    {"max-answers-returned", false, 1, 500, offsetof(wsel_gslb_pool, max_answers), WSEL_GSLB_P_MAXANS, 0, NULL},
    {"ttl", false, 0, 0xffffffffu, offsetof(wsel_gslb_pool, ttl), WSEL_GSLB_P_TTL, 0, NULL},
    {"min-members-up-value", false, 0, 0xffffffffu, offsetof(wsel_gslb_pool, min_up_value),
     WSEL_GSLB_P_MINUPV, 0, NULL},
};

static int pool_attr(conf_parser *p, tok *key, void *ctx)
{
    wsel_gslb_pool *pl = ctx;
    int rc;
    const char *k = key->text;
    tok *v;
    int q = -1;
    for (int i = 0; i < WSEL_GSLB_QOS_COUNT_; i++)
        if (!strcmp(k, qos_keys[i]))
            q = i;
    if (!strcmp(k, "qos-kbps")) /* A-5 alias */
        q = WSEL_GSLB_QOS_KBPS;
    if (q >= 0) {
        if ((rc = seen(p, key, qos_keys[q])) ||
            (rc = uint_value(p, key, 0, 0xffffffffu, &pl->qos[q])))
            return rc;
        pl->written |= WSEL_GSLB_P_QOS;
        pl->qos_written |= 1u << q;
        return 0;
    }
    static const char *const steps[3] = {"load-balancing-mode", "alternate-mode", "fallback-mode"};
    int st = -1;
    for (int i = 0; i < 3; i++)
        if (!strcmp(k, steps[i]))
            st = i;
    if (st >= 0) {
        if ((rc = seen(p, key, k)) || (rc = method_value(p, key, st, &pl->mode[st])))
            return rc;
        pl->written |= (unsigned)WSEL_GSLB_P_PREFERRED << st;
        pl->mode_pos[st] = (wsel_gslb_pos){key->line, key->col};
    } else if (!strcmp(k, "fallback-ip")) {
        if ((rc = seen(p, key, k)) || (rc = value(p, key, &v)))
            return rc;
        pl->written |= WSEL_GSLB_P_FALLBACK_IP;
        if (!strcmp(v->text, "any") || !strcmp(v->text, "any6"))
            memset(&pl->fallback_ip, 0, sizeof pl->fallback_ip);
        else if (!wsel__gslb_parse_addr(v->text, &pl->fallback_ip))
            return fail(p, v, WSEL_E_ADDR, "fallback-ip '%s' is not an IPv4/IPv6 address, any or any6",
                        v->text, NULL);
        else {
            static const uint8_t zero[16];
            if (memcmp(pl->fallback_ip.bytes, zero, 16) == 0) /* :: or 0.0.0.0: unset, A-4 */
                memset(&pl->fallback_ip, 0, sizeof pl->fallback_ip);
        }
    } else if ((rc = scalar_attr_read(p, key, pool_scalars, N_OF(pool_scalars), pl,
                                      &pl->written)) != 1) {
        if (rc)
            return rc;
    } else if (!strcmp(k, "min-members-up-mode")) {
        static const char *const modes[] = {"off", "at-least", "percent", "number"};
        unsigned x;
        if ((rc = seen(p, key, k)) || (rc = enum_value(p, key, modes, 4, &x)))
            return rc;
        pl->min_up_mode = x == 3 ? WSEL_GSLB_MINUP_AT_LEAST : (wsel_gslb_minup)x; /* */
        pl->written |= WSEL_GSLB_P_MINUP;
    } else if (!strcmp(k, "members")) {
        if ((rc = seen(p, key, k)) || (rc = list_block(p, member_entry, pl)))
            return rc;
    } else if (!strcmp(k, "monitor")) {
        if ((rc = monitor_attr(p, key, &pl->monitor)))
            return rc;
    } else if (starts(k, "limit-") || !strcmp(k, "description") ||
               !strcmp(k, "metadata") || !strcmp(k, "app-service")) {
        if ((rc = skip_known(p, key)))
            return rc;
    } else if ((rc = unknown_key(p, key, &pool_known)))
        return rc;
    return 0;
}

static int pool_body(conf_parser *p, wsel_gslb_pool *pl)
{
    return object_body(p, &pl->enabled, &pl->written, WSEL_GSLB_P_ENABLED, pool_attr, pl);
}

/* ---- gtm wideip a ---- */

#define W_(f) offsetof(wsel_gslb_wpool, f)
static const scalar_attr wpool_scalars[] = {
    {"order", false, 0, 65535, W_(order), 0, W_(order_written), NULL},
    {"ratio", false, 0, 0xffffffffu, W_(ratio), 0, W_(ratio_written), NULL},
};
#undef W_

static int wpool_attr(conf_parser *p, tok *key, void *ctx)
{
    int rc = scalar_attr_read(p, key, wpool_scalars, N_OF(wpool_scalars), ctx, NULL);
    return rc == 1 ? unknown_key(p, key, &wpool_known) : rc;
}

static int wpool_entry(conf_parser *p, tok *name, void *ctx)
{
    wsel_gslb_wideip *wi = ctx;
    char a[600], b[600];
    wsel__gslb_norm(name->text, a, sizeof a);
    for (size_t i = 0; i < wi->n_pools; i++)
        if (!strcmp(wsel__gslb_norm(wi->pools[i].name, b, sizeof b), a))
            return fail(p, name, WSEL_E_DUPKEY, "pool '%s' listed twice", name->text, NULL);
    if (wi->n_pools >= WSEL_GSLB_MAX_POOLS)
        return fail(p, name, WSEL_E_LIMIT, "more than 64 pools%s", NULL, NULL);
    if (!wi->pools)
        p->cap_wpools = 0;
    if (!wsel__grow(&wi->pools, &p->cap_wpools, wi->n_pools + 1, sizeof *wi->pools))
        return nomem(p);
    wsel_gslb_wpool *w = &wi->pools[wi->n_pools];
    w->ratio = 1;
    w->pool = -1;
    w->text_index = wi->n_pools;
    w->pos = (wsel_gslb_pos){name->line, name->col};
    wi->n_pools++;
    if (!(w->name = wsel__gslb_strdup(name->text)))
        return nomem(p);
    return entry_attrs(p, "pool", name, wpool_attr, w);
}

static int log_entry(conf_parser *p, tok *name, void *ctx)
{
    unsigned *flags = ctx;
    static const char *const names[] = {"pool-selection", "pool-traversal",
                                        "pool-member-selection", "pool-member-traversal"};
    if (peek(p)->type == WSEL__TOK_LBRACE) {
        tok *o = next(p);
        int rc = skip_block(p, o);
        if (rc)
            return rc;
    }
    if (!strcmp(name->text, "none"))
        return 0;
    for (unsigned i = 0; i < 4; i++)
        if (!strcmp(name->text, names[i])) {
            *flags |= 1u << i;
            return 0;
        }
    return fail(p, name, WSEL_E_PARAM,
                "load-balancing-decision-log-verbosity: unknown flag '%s' (expected pool-selection, "
                "pool-traversal, pool-member-selection, pool-member-traversal or none)%s",
                name->text, NULL);
}

/* One entry of a wide IP's `aliases`: a query name (wildcards allowed, A-41); the same
 * alias twice in one wide IP is an error, in two wide IPs lint G033. */
static int alias_entry(conf_parser *p, tok *name, void *ctx)
{
    wsel_gslb_wideip *w = ctx;
    int rc = opt_block(p);
    if (rc)
        return rc;
    for (size_t i = 0; i < w->n_aliases; i++)
        if (!strcasecmp(w->aliases[i], name->text))
            return fail(p, name, WSEL_E_DUPKEY, "alias '%s' listed twice", name->text, NULL);
    if (w->n_aliases >= WSEL_GSLB_MAX_ALIASES)
        return fail(p, name, WSEL_E_LIMIT, "more than 256 aliases%s", NULL, NULL);
    if (!w->aliases)
        p->cap_aliases = 0;
    size_t cap = p->cap_aliases;
    if (!wsel__grow(&w->aliases, &p->cap_aliases, w->n_aliases + 1, sizeof *w->aliases) ||
        !wsel__grow(&w->alias_pos, &cap, w->n_aliases + 1, sizeof *w->alias_pos))
        return nomem(p);
    w->alias_pos[w->n_aliases] = (wsel_gslb_pos){name->line, name->col};
    if (!(w->aliases[w->n_aliases] = wsel__gslb_strdup(name->text)))
        return nomem(p);
    w->n_aliases++;
    return 0;
}

static int rules_entry(conf_parser *p, tok *name, void *ctx)
{
    (void)name;
    *(bool *)ctx = true;
    if (peek(p)->type == WSEL__TOK_LBRACE) {
        tok *o = next(p);
        return skip_block(p, o);
    }
    return 0;
}

static const scalar_attr wideip_scalars[] = {
    {"persistence", true, 0, 1, offsetof(wsel_gslb_wideip, persistence), WSEL_GSLB_W_PERSIST, 0, NULL},
    {"ttl-persistence", false, 0, 0xffffffffu, offsetof(wsel_gslb_wideip, ttl_persistence),
     WSEL_GSLB_W_TTLP, 0, NULL},
    {"persist-cidr-ipv4", false, 0, 32, offsetof(wsel_gslb_wideip, cidr4), WSEL_GSLB_W_CIDR4, 0, NULL},
    {"persist-cidr-ipv6", false, 0, 128, offsetof(wsel_gslb_wideip, cidr6), WSEL_GSLB_W_CIDR6, 0, NULL},
    {"failure-rcode-response", true, 0, 1, offsetof(wsel_gslb_wideip, rcode_response),
     WSEL_GSLB_W_RCODE_ON, 0, NULL},
    {"failure-rcode-ttl", false, 0, 0xffffffffu, offsetof(wsel_gslb_wideip, rcode_ttl),
     WSEL_GSLB_W_RCODE_TTL, 0, NULL},
};

static int wideip_attr(conf_parser *p, tok *key, void *ctx)
{
    wsel_gslb_wideip *w = ctx;
    int rc;
    const char *k = key->text;
    tok *v;
    if (!strcmp(k, "pool-lb-mode")) {
        if ((rc = seen(p, key, k)) || (rc = method_value(p, key, 3, &w->lb_mode)))
            return rc;
        w->written |= WSEL_GSLB_W_LBMODE;
    } else if (!strcmp(k, "pools")) {
        if ((rc = seen(p, key, k)) || (rc = list_block(p, wpool_entry, w)))
            return rc;
    } else if ((rc = scalar_attr_read(p, key, wideip_scalars, N_OF(wideip_scalars), w,
                                      &w->written)) != 1) {
        if (rc)
            return rc;
    } else if (!strcmp(k, "last-resort-pool")) {
        if ((rc = seen(p, key, k)) || (rc = value(p, key, &v)))
            return rc;
        w->written |= WSEL_GSLB_W_LRP;
        w->lrp_pos = (wsel_gslb_pos){v->line, v->col};
        if (strcmp(v->text, "none") != 0) {
            tok *n2;
            if ((rc = value(p, key, &n2)))
                return rc;
            if (!(w->lrp_type = wsel__gslb_strdup(v->text)) || !(w->lrp_name = wsel__gslb_strdup(n2->text)))
                return nomem(p);
        }
    } else if (!strcmp(k, "failure-rcode")) {
        static const char *const rc_names[] = {"noerror", "formerr", "servfail", "nxdomain",
                                               "notimpl", "refused", "yxdomain", "yxrrset",
                                               "nxrrset", "notauth", "notzone"}; /* */
        if ((rc = seen(p, key, k)) || (rc = enum_value(p, key, rc_names, 11, &w->rcode)))
            return rc;
        w->written |= WSEL_GSLB_W_RCODE;
    } else if (!strcmp(k, "load-balancing-decision-log-verbosity")) {
        if ((rc = seen(p, key, k)) || (rc = list_block(p, log_entry, &w->log_flags)))
            return rc;
        w->written |= WSEL_GSLB_W_LOG;
    } else if (!strcmp(k, "topology-prefer-edns0-client-subnet")) {
        if ((rc = seen(p, key, k)))
            return rc;
        w->ecs = true;
        tok *n2 = peek(p);
        if (is_val(n2) && n2->line == key->line &&
            (!strcmp(n2->text, "enabled") || !strcmp(n2->text, "disabled"))) {
            next(p);
            w->ecs = n2->text[0] == 'e';
        }
        w->written |= WSEL_GSLB_W_ECS;
    } else if (!strcmp(k, "rules")) {
        if ((rc = seen(p, key, k)) || (rc = list_block(p, rules_entry, &w->has_rules)))
            return rc;
    } else if (!strcmp(k, "aliases")) {
        if ((rc = seen(p, key, k)) || (rc = list_block(p, alias_entry, w)))
            return rc;
    } else if (!strcmp(k, "minimal-response") ||
               !strcmp(k, "metadata") || !strcmp(k, "description") ||
               !strcmp(k, "pools-cname") || !strcmp(k, "app-service")) {
        if (!strcmp(k, "pools-cname") && (rc = add_unknown(p, p->obj, "pools-cname (CNAME pools are out of scope)", key)))
            return rc;
        if ((rc = skip_known(p, key)))
            return rc;
    } else if ((rc = unknown_key(p, key, &wideip_known)))
        return rc;
    return 0;
}

static int wideip_body(conf_parser *p, wsel_gslb_wideip *w)
{
    return object_body(p, &w->enabled, &w->written, WSEL_GSLB_W_ENABLED, wideip_attr, w);
}

/* ---- topology conditions, regions, global settings ---- */

static const char *const topo_types[WSEL_GSLB_T_COUNT_] = {
    "subnet", "region", "continent", "country", "state", "isp", "geoip-isp", "pool", "datacenter"};

const char *wsel__gslb_topo_type_name(wsel_gslb_topo_type t)
{
    return (unsigned)t < WSEL_GSLB_T_COUNT_ ? topo_types[t] : "?";
}

/* [not] TYPE VALUE from the token stream; server side allows pool and datacenter. */
static int cond(conf_parser *p, bool server_side, wsel_gslb_cond *c)
{
    tok *t = next(p);
    if (is_val(t) && !strcmp(t->text, "not")) {
        c->negate = true;
        t = next(p);
    }
    if (!is_val(t))
        return fail(p, t, WSEL_E_SYNTAX, "expected a condition type, found '%s'", t->text, NULL);
    int type = -1;
    for (int i = 0; i < WSEL_GSLB_T_COUNT_; i++)
        if (!strcmp(t->text, topo_types[i]))
            type = i;
    if (type < 0 || (!server_side && type >= WSEL_GSLB_T_POOL))
        return fail(p, t, WSEL_E_PARAM, "unknown %s condition type '%s'",
                    server_side ? "server-side" : "LDNS-side", t->text);
    c->type = (wsel_gslb_topo_type)type;
    c->ref = -1;
    c->ref_aaaa = -1;
    tok *v;
    int rc = value(p, t, &v);
    if (rc)
        return rc;
    char buf[600];
    const char *val = v->text;
    if (c->type == WSEL_GSLB_T_REGION || c->type == WSEL_GSLB_T_POOL ||
        c->type == WSEL_GSLB_T_DATACENTER)
        val = wsel__gslb_norm(v->text, buf, sizeof buf);
    if (!(c->value = wsel__gslb_strdup(val)))
        return nomem(p);
    if (c->type == WSEL_GSLB_T_SUBNET && !wsel__gslb_parse_subnet(v->text, &c->net, &c->prefix))
        return fail(p, v, WSEL_E_ADDR, "subnet '%s' is not ADDRESS/LENGTH", v->text, NULL);
    return 0;
}

static int region_entry_list(conf_parser *p, wsel_gslb_region *r)
{
    int rc = expect_lbrace(p);
    if (rc)
        return rc;
    for (;;) {
        tok *t = peek(p);
        if (t->type == WSEL__TOK_RBRACE) {
            next(p);
            break;
        }
        if (t->type == WSEL__TOK_EOF)
            return fail(p, t, WSEL_E_SYNTAX, "unterminated region-members%s", NULL, NULL);
        if (!r->entries)
            p->cap_entries = 0;
        if (!wsel__grow(&r->entries, &p->cap_entries, r->n_entries + 1, sizeof *r->entries))
            return nomem(p);
        r->n_entries++;
        if ((rc = cond(p, true, &r->entries[r->n_entries - 1])))
            return rc;
        if (peek(p)->type == WSEL__TOK_LBRACE) {
            tok *o = next(p);
            if ((rc = skip_block(p, o)))
                return rc;
        }
    }
    p->depth--;
    return 0;
}

static int region_attr(conf_parser *p, tok *key, void *ctx)
{
    int rc;
    if (!strcmp(key->text, "region-members")) {
        if ((rc = seen(p, key, key->text)) || (rc = region_entry_list(p, ctx)))
            return rc;
    } else if (!strcmp(key->text, "description") || !strcmp(key->text, "metadata")) {
        if ((rc = skip_known(p, key)))
            return rc;
    } else if ((rc = unknown_key(p, key, &region_known)))
        return rc;
    return 0;
}

static int region_body(conf_parser *p, wsel_gslb_region *r)
{
    return object_body(p, NULL, NULL, 0, region_attr, r);
}

static int topo_attr(conf_parser *p, tok *key, void *ctx)
{
    wsel_gslb_topo *t = ctx;
    int rc;
    if (!strcmp(key->text, "order")) {
        if ((rc = seen(p, key, "order")))
            return rc;
        return uint_value(p, key, 0, 0xffffffffu, &t->order);
    }
    if (!strcmp(key->text, "score") || !strcmp(key->text, "weight")) {
        if ((rc = seen(p, key, "score")))
            return rc;
        return uint_value(p, key, 0, 0xffffffffu, &t->score);
    }
    return unknown_key(p, key, &topo_known);
}

static const scalar_attr global_scalars[] = {
    {"static-persist-cidr-ipv4", false, 0, 32, offsetof(wsel_gslb_config, sp_cidr4), 2, 0, NULL},
    {"static-persist-cidr-ipv6", false, 0, 128, offsetof(wsel_gslb_config, sp_cidr6), 4, 0, NULL},
};

static int global_attr(conf_parser *p, tok *key, void *ctx)
{
    wsel_gslb_config *c = ctx;
    int rc;
    const char *k = key->text;
    if (!strcmp(k, "topology-longest-match")) {
        static const char *const yn[] = {"no", "yes"};
        unsigned x;
        if ((rc = seen(p, key, k)) || (rc = enum_value(p, key, yn, 2, &x)))
            return rc;
        c->longest_match = x == 1;
        c->global_written |= 1;
    } else if ((rc = scalar_attr_read(p, key, global_scalars, N_OF(global_scalars), c,
                                      &c->global_written)) != 1) {
        if (rc)
            return rc;
    } else if ((rc = unknown_key(p, key, &global_known)))
        return rc;
    return 0;
}

static int global_body(conf_parser *p)
{
    return object_body(p, NULL, NULL, 0, global_attr, p->cfg);
}

/* ---- top level ---- */

/* The kinds of named objects: their statement heads. A pool or wide IP of each type is a
 * kind of its own, with its own name space (doc/gslb.md §1). */
enum { OBJ_SERVER, OBJ_POOL, OBJ_REGION, OBJ_WIDEIP, OBJ_POOL6, OBJ_WIDEIP6 };
static const char *const object_kinds[] = {"gtm server", "gtm pool a", "gtm region",
                                           "gtm wideip a", "gtm pool aaaa", "gtm wideip aaaa"};

/* The name space of each kind in the name index (core/gslb/gslb_names.c). */
static const int object_ns[] = {WSEL__GSLB_NS_SERVER, WSEL__GSLB_NS_POOL, WSEL__GSLB_NS_REGION,
                                WSEL__GSLB_NS_WIDEIP, WSEL__GSLB_NS_POOL6,
                                WSEL__GSLB_NS_WIDEIP6};

/* The NAME token of a new object of `kind`: its full name into norm, the current
 * object "KIND NAME" for messages; an error when another object of the kind has that
 * name (wide IPs: ignoring case, as DNS names). One hashed lookup. */
static int object_name(conf_parser *p, const tok *name, int kind, char *norm, size_t len)
{
    wsel__gslb_norm(name->text, norm, len);
    wsel__gslb_fmt(p->obj, sizeof p->obj, "%s %s", object_kinds[kind], norm);
    if (wsel__gslb_names_find(p->cfg, object_ns[kind], norm) >= 0)
        return fail(p, name, WSEL_E_DUPKEY, "duplicate %s '%s'", object_kinds[kind], norm);
    return 0;
}

/* Enters object i of `kind`, named `name` (the config's copy), in the name index; a wide
 * IP under its last path part too (a bare query name, wsel_gslb_find_wideip). */
static int index_object(conf_parser *p, int kind, const char *name, size_t i)
{
    if (wsel__gslb_names_add(p->cfg, object_ns[kind], name, i) ||
        ((kind == OBJ_WIDEIP || kind == OBJ_WIDEIP6) &&
         wsel__gslb_names_add(p->cfg,
                              kind == OBJ_WIDEIP6 ? WSEL__GSLB_NS_LEAF6 : WSEL__GSLB_NS_LEAF,
                              strrchr(name, '/') + 1, i)))
        return nomem(p);
    return 0;
}

/* Counts a skipped statement under its head words (without the name). */
static int skipped(conf_parser *p, tok **head, size_t nh)
{
    char kind[200] = "";
    size_t words = nh > 1 ? nh - 1 : nh;
    if (words > 3)
        words = 3;
    for (size_t i = 0; i < words; i++) {
        strncat(kind, i ? " " : "", sizeof kind - strlen(kind) - 1);
        strncat(kind, head[i]->text, sizeof kind - strlen(kind) - 1);
    }
    if (!kind[0]) /* a head of empty quoted strings */
        wsel__gslb_fmt(kind, sizeof kind, "\"\"");
    wsel_gslb_config *c = p->cfg;
    c->skipped_statements++;
    for (size_t k = 0; k < p->n_skip_kinds; k++) { /* the kinds seen so far: few */
        wsel_gslb_unknown *u = &c->unknown[p->skip_kinds[k]];
        if (!strcmp(u->object, kind)) {
            unsigned long n = strtoul(u->what + 20, NULL, 10) + 1;
            char buf[64];
            wsel__gslb_fmt(buf, sizeof buf, "statements skipped: %lu", n);
            char *d = wsel__gslb_strdup(buf);
            if (!d)
                return nomem(p);
            free(u->what);
            u->what = d;
            return 0;
        }
    }
    if (!wsel__grow(&p->skip_kinds, &p->cap_skip_kinds, p->n_skip_kinds + 1,
                    sizeof *p->skip_kinds))
        return nomem(p);
    p->skip_kinds[p->n_skip_kinds++] = c->n_unknown;
    return add_unknown(p, kind, "statements skipped: 1", head[0]);
}

/* The head of a statement: its words up to the '{' (at least one, at most 16). */
static int statement_head(conf_parser *p, tok **head, size_t *nh)
{
    tok *first = peek(p);
    *nh = 0;
    for (;;) {
        tok *t = peek(p);
        if (t->type == WSEL__TOK_LBRACE)
            break;
        if (!is_val(t))
            return fail(p, t, WSEL_E_SYNTAX, "expected a statement (HEAD... NAME { ... }), found '%s'",
                        t->text, NULL);
        if (*nh == 16)
            return fail(p, t, WSEL_E_LIMIT, "statement head longer than 16 words%s", NULL, NULL);
        head[(*nh)++] = next(p);
    }
    if (*nh == 0)
        return fail(p, first, WSEL_E_SYNTAX, "expected a statement (HEAD... NAME { ... }), found '%s'",
                    first->text, NULL);
    return 0;
}

/* "aaaa NAME": an AAAA object's name in the inputs and the state; NULL: no memory. */
static char *typed_key(const char *name)
{
    char buf[620];
    wsel__gslb_fmt(buf, sizeof buf, "aaaa %s", name);
    return wsel__gslb_strdup(buf);
}

/* gtm server NAME, gtm pool a|aaaa NAME, gtm wideip a|aaaa NAME, gtm region NAME { ... }: a named
 * object of `kind` appended with its defaults (doc/gslb.md §1; the seed's), then its
 * body. */
static int stmt_object(conf_parser *p, int kind, const tok *first, const tok *name)
{
    wsel_gslb_config *c = p->cfg;
    char norm[600];
    int rc = object_name(p, name, kind, norm, sizeof norm);
    char *copy = rc ? NULL : wsel__gslb_strdup(norm);
    if (rc || !copy)
        return rc ? rc : nomem(p);
    wsel_gslb_pos pos = {first->line, first->col};
    if (kind == OBJ_SERVER &&
        wsel__grow(&c->servers, &p->cap_servers, c->n_servers + 1, sizeof *c->servers)) {
        size_t si = c->n_servers++; /* counted first: the config owns the name */
        c->servers[si] = (wsel_gslb_server){.name = copy, .enabled = true, .pos = pos};
        rc = index_object(p, kind, copy, si);
        return rc ? rc : server_body(p, si);
    }
    bool pool = kind == OBJ_POOL || kind == OBJ_POOL6, wideip = kind == OBJ_WIDEIP || kind == OBJ_WIDEIP6;
    wsel_gslb_type type = kind == OBJ_POOL6 || kind == OBJ_WIDEIP6 ? WSEL_GSLB_TYPE_AAAA : WSEL_GSLB_TYPE_A;
    if (pool && wsel__grow(&c->pools, &p->cap_pools, c->n_pools + 1, sizeof *c->pools)) {
        wsel_gslb_pool *pl = &c->pools[c->n_pools++];
        *pl = (wsel_gslb_pool){.name = copy, .verify = true, .enabled = true, .max_answers = 1,
                               .ttl = 30, .pos = pos, .type = type};
        pl->mode[0] = pl->mode[1] = WSEL_GSLB_ROUND_ROBIN; /* (seed) */
        pl->mode[2] = WSEL_GSLB_RETURN_TO_DNS;               /* (seed) */
        memcpy(pl->qos, qos_defaults, sizeof pl->qos);
        if (type == WSEL_GSLB_TYPE_AAAA && !(pl->key = typed_key(norm)))
            return nomem(p);
        rc = index_object(p, kind, copy, c->n_pools - 1);
        return rc ? rc : pool_body(p, pl);
    }
    if (wideip &&
        wsel__grow(&c->wideips, &p->cap_wideips, c->n_wideips + 1, sizeof *c->wideips)) {
        wsel_gslb_wideip *w = &c->wideips[c->n_wideips++];
        *w = (wsel_gslb_wideip){.name = copy, .lb_mode = WSEL_GSLB_ROUND_ROBIN,
                                .ttl_persistence = 3600, .cidr4 = 32, .cidr6 = 128,
                                .enabled = true, .lrp = -1, .pos = pos, .type = type};
        if (type == WSEL_GSLB_TYPE_AAAA && !(w->key = typed_key(norm)))
            return nomem(p);
        rc = index_object(p, kind, copy, c->n_wideips - 1);
        return rc ? rc : wideip_body(p, w);
    }
    if (kind == OBJ_REGION &&
        wsel__grow(&c->regions, &p->cap_regions, c->n_regions + 1, sizeof *c->regions)) {
        wsel_gslb_region *r = &c->regions[c->n_regions++];
        *r = (wsel_gslb_region){.name = copy, .pos = pos};
        rc = index_object(p, kind, copy, c->n_regions - 1);
        return rc ? rc : region_body(p, r);
    }
    free(copy);
    return nomem(p);
}

/* gtm pool|wideip cname|mx|naptr|srv NAME { ... }: out of scope (doc/gslb.md §1) */
static int stmt_other_type(conf_parser *p, tok **head)
{
    wsel__gslb_fmt(p->obj, sizeof p->obj, "gtm %s %s %s", head[1]->text, head[2]->text,
                   head[3]->text);
    int rc = add_unknown(p, p->obj, "type not supported (A and AAAA only)", head[0]);
    if (rc)
        return rc;
    tok *o = next(p);
    return skip_block(p, o);
}

/* gtm topology ldns: COND server: COND { ... }: the head is read again as conditions. */
static int stmt_topology(conf_parser *p, size_t nh)
{
    wsel_gslb_config *c = p->cfg;
    tok *first = &p->t[p->i - nh];
    int rc;
    wsel__gslb_fmt(p->obj, sizeof p->obj, "gtm topology (line %u)", first->line);
    if (!wsel__grow(&c->topo, &p->cap_topo, c->n_topo + 1, sizeof *c->topo))
        return nomem(p);
    wsel_gslb_topo *t = &c->topo[c->n_topo++];
    t->score = 1;
    t->text_index = c->n_topo - 1;
    t->pos = (wsel_gslb_pos){first->line, first->col};
    size_t end = p->i;
    p->i -= nh - 2;
    tok *l = next(p);
    if (strcmp(l->text, "ldns:"))
        return fail(p, l, WSEL_E_SYNTAX, "expected 'ldns:' in a topology record, found '%s'", l->text, NULL);
    if ((rc = cond(p, false, &t->ldns)))
        return rc;
    tok *s = next(p);
    if (strcmp(s->text, "server:"))
        return fail(p, s, WSEL_E_SYNTAX, "expected 'server:' in a topology record, found '%s'", s->text, NULL);
    if ((rc = cond(p, true, &t->server)))
        return rc;
    if (p->i != end)
        return fail(p, peek(p), WSEL_E_SYNTAX, "unexpected '%s' before '{' in a topology record",
                    peek(p)->text, NULL);
    p->n_seen = 0;
    return attr_block(p, topo_attr, t);
}

static int statement(conf_parser *p)
{
    tok *head[16];
    size_t nh;
    int rc = statement_head(p, head, &nh);
    if (rc)
        return rc;
    p->obj[0] = '\0';
#define HEAD(i, s) (nh > (i) && !strcmp(head[i]->text, s))
    bool gtm = HEAD(0, "gtm");
    if (gtm && HEAD(1, "server") && nh == 3)
        return stmt_object(p, OBJ_SERVER, head[0], head[2]);
    if (gtm && (HEAD(1, "pool") || HEAD(1, "wideip")) && nh == 4 && !HEAD(2, "a") &&
        !HEAD(2, "aaaa"))
        return stmt_other_type(p, head);
    if (gtm && HEAD(1, "pool") && nh == 4)
        return stmt_object(p, HEAD(2, "a") ? OBJ_POOL : OBJ_POOL6, head[0], head[3]);
    if (gtm && HEAD(1, "wideip") && nh == 4)
        return stmt_object(p, HEAD(2, "a") ? OBJ_WIDEIP : OBJ_WIDEIP6, head[0], head[3]);
    if (gtm && HEAD(1, "region") && nh == 3)
        return stmt_object(p, OBJ_REGION, head[0], head[2]);
    if (gtm && HEAD(1, "global-settings") && HEAD(2, "load-balancing") && nh == 3) {
        wsel__gslb_fmt(p->obj, sizeof p->obj, "gtm global-settings load-balancing");
        return global_body(p);
    }
    if (gtm && HEAD(1, "topology"))
        return stmt_topology(p, nh);
#undef HEAD
    if ((rc = skipped(p, head, nh)))
        return rc;
    tok *o = next(p);
    return skip_block(p, o);
}

/* ---- after the parse: references, ordering ---- */

static int cmp_member(const void *a, const void *b)
{
    const wsel_gslb_member *x = a, *y = b;
    if (x->order != y->order)
        return x->order < y->order ? -1 : 1;
    return x->text_index < y->text_index ? -1 : x->text_index > y->text_index;
}

static int cmp_wpool(const void *a, const void *b)
{
    const wsel_gslb_wpool *x = a, *y = b;
    if (x->order != y->order)
        return x->order < y->order ? -1 : 1;
    return x->text_index < y->text_index ? -1 : x->text_index > y->text_index;
}

/* specificity of one side for longest-match ordering (larger = more specific). */
static unsigned specificity(const wsel_gslb_cond *c)
{
    switch (c->type) {
    case WSEL_GSLB_T_SUBNET: return 1000 + c->prefix;
    case WSEL_GSLB_T_POOL: return 950;
    case WSEL_GSLB_T_DATACENTER: return 940;
    case WSEL_GSLB_T_REGION: return 900;
    case WSEL_GSLB_T_ISP:
    case WSEL_GSLB_T_GEOIP_ISP: return 800;
    case WSEL_GSLB_T_STATE: return 700;
    case WSEL_GSLB_T_COUNTRY: return 600;
    case WSEL_GSLB_T_CONTINENT: return 500;
    default: return 0;
    }
}

static int cmp_topo_order(const wsel_gslb_topo *x, const wsel_gslb_topo *y)
{
    if (x->order != y->order)
        return x->order < y->order ? -1 : 1;
    return x->text_index < y->text_index ? -1 : x->text_index > y->text_index;
}

static int cmp_topo_plain(const void *a, const void *b)
{
    return cmp_topo_order(a, b);
}

static int cmp_topo_longest(const void *a, const void *b)
{
    const wsel_gslb_topo *x = a, *y = b;
    {
        unsigned sx = specificity(&x->ldns), sy = specificity(&y->ldns);
        if (sx != sy)
            return sx > sy ? -1 : 1;
        sx = specificity(&x->server);
        sy = specificity(&y->server);
        if (sx != sy)
            return sx > sy ? -1 : 1;
    }
    return cmp_topo_order(x, y);
}

static int resolve_cond(conf_parser *p, wsel_gslb_cond *x, wsel_gslb_pos pos, const char *obj)
{
    wsel_gslb_config *c = p->cfg;
    if (x->type == WSEL_GSLB_T_REGION) {
        x->ref = wsel__gslb_find_region(c, x->value);
        if (x->ref < 0)
            return wsel__fail(p->err, WSEL_E_PARAM, p->file, pos.line, pos.col, obj, NULL, x->value,
                              "%s: unknown region '%s'", obj, x->value);
    } else if (x->type == WSEL_GSLB_T_POOL) { /* the pools of that name, either type */
        x->ref = wsel__gslb_find_pool(c, x->value, WSEL_GSLB_TYPE_A); /* none: lint G013 */
        x->ref_aaaa = wsel__gslb_find_pool(c, x->value, WSEL_GSLB_TYPE_AAAA);
    }
    return 0;
}

static int finish(conf_parser *p)
{
    wsel_gslb_config *c = p->cfg;
    int rc;
    for (size_t i = 0; i < c->n_vs; i++) {
        wsel_gslb_vs *vs = &c->vs[i];
        if (vs->n_depends && !(vs->depends = malloc(vs->n_depends * sizeof *vs->depends)))
            return nomem(p);
        for (size_t d = 0; d < vs->n_depends; d++)
            vs->depends[d] = wsel__gslb_find_vs(c, vs->depends_text[d]);
    }
    for (size_t i = 0; i < c->n_pools; i++) {
        wsel_gslb_pool *pl = &c->pools[i];
        for (size_t m = 0; m < pl->n_members; m++) {
            wsel_gslb_member *mb = &pl->members[m];
            mb->vs = wsel__gslb_find_vs(c, mb->key);
            /* a member answers with its VS's address, of its pool's type only */
            mb->wrong_family = mb->vs >= 0 &&
                               c->vs[mb->vs].addr.family != (pl->type == WSEL_GSLB_TYPE_AAAA ? 6 : 4);
        }
        if (pl->n_members)
            qsort(pl->members, pl->n_members, sizeof *pl->members, cmp_member);
    }
    for (size_t i = 0; i < c->n_wideips; i++) {
        wsel_gslb_wideip *w = &c->wideips[i];
        for (size_t k = 0; k < w->n_pools; k++) /* pools of the wide IP's type */
            w->pools[k].pool = wsel__gslb_find_pool(c, w->pools[k].name, w->type);
        if (w->n_pools)
            qsort(w->pools, w->n_pools, sizeof *w->pools, cmp_wpool);
        if (w->lrp_name && !strcmp(w->lrp_type, wsel__gslb_type_word(w->type)))
            w->lrp = wsel__gslb_find_pool(c, w->lrp_name, w->type);
        /* BIND aggregate and answers must fit one outcome */
        size_t total = 0;
        for (size_t k = 0; k < w->n_pools; k++)
            if (w->pools[k].pool >= 0)
                total += c->pools[w->pools[k].pool].n_members;
        if (total > WSEL_GSLB_MAX_ADDRS)
            return wsel__fail(p->err, WSEL_E_LIMIT, p->file, w->pos.line, w->pos.col, w->name, NULL,
                              NULL, "gtm wideip %s %s: its pools hold more than %u members in all",
                              wsel__gslb_type_word(w->type), w->name, WSEL_GSLB_MAX_ADDRS);
    }
    for (size_t r = 0; r < c->n_regions; r++)
        for (size_t e = 0; e < c->regions[r].n_entries; e++) {
            char obj[320];
            wsel__gslb_fmt(obj, sizeof obj, "gtm region %s", c->regions[r].name);
            if ((rc = resolve_cond(p, &c->regions[r].entries[e], c->regions[r].pos, obj)))
                return rc;
        }
    if (c->n_regions) { /* a cycle is an error; any depth is read */
        size_t *order = malloc(c->n_regions * sizeof *order), r = 0;
        int cyc = order ? wsel__gslb_region_order(c, order, &r) : -1;
        free(order);
        if (cyc < 0)
            return nomem(p);
        if (cyc)
            return wsel__fail(p->err, WSEL_E_PARAM, p->file, c->regions[r].pos.line,
                              c->regions[r].pos.col, c->regions[r].name, NULL, NULL,
                              "gtm region %s: region-members nest in a cycle", c->regions[r].name);
    }
    for (size_t t = 0; t < c->n_topo; t++) {
        char obj[320];
        wsel__gslb_fmt(obj, sizeof obj, "gtm topology (line %u)", c->topo[t].pos.line);
        if ((rc = resolve_cond(p, &c->topo[t].ldns, c->topo[t].pos, obj)) ||
            (rc = resolve_cond(p, &c->topo[t].server, c->topo[t].pos, obj)))
            return rc;
    }
    if (c->n_topo)
        qsort(c->topo, c->n_topo, sizeof *c->topo,
              c->longest_match ? cmp_topo_longest : cmp_topo_plain);
    return wsel__gslb_names_queries(c) ? nomem(p) : 0;
}

int wsel_gslb_config_load_buffer(const char *name, const char *data, size_t len,
                                 wsel_gslb_config **out, wsel_error *err)
{
    if (out)
        *out = NULL;
    if (!out || (!data && len))
        return wsel__fail(err, WSEL_E_ARG, name, 0, 0, NULL, NULL, NULL, "no config given");
    if (!name)
        name = "(buffer)";
    if (len > WSEL_GSLB_MAX_FILE)
        return wsel__fail(err, WSEL_E_LIMIT, name, 0, 0, NULL, NULL, NULL,
                          "config larger than %u bytes", WSEL_GSLB_MAX_FILE);
    wsel_gslb_config *c = calloc(1, sizeof *c);
    if (!c || !(c->file = wsel__gslb_strdup(name))) {
        free(c);
        return wsel__fail(err, WSEL_E_NOMEM, name, 0, 0, NULL, NULL, NULL, "out of memory");
    }
    c->longest_match = true; /* [AS3]; A-13 for the CIDR defaults */
    c->sp_cidr4 = 32;
    c->sp_cidr6 = 128;
    wsel__gslb_lexer lx;
    int rc = wsel__gslb_lex(&lx, name, data ? data : "", len, &c->version, err);
    conf_parser p = {.file = name, .t = lx.t, .cfg = c, .err = err};
    while (!rc && peek(&p)->type != WSEL__TOK_EOF) {
        p.depth = 0;
        rc = statement(&p);
    }
    if (!rc)
        rc = finish(&p);
    wsel__gslb_names_done(c);
    free(p.skip_kinds);
    wsel__gslb_lex_free(&lx);
    if (rc) {
        wsel_gslb_config_free(c);
        return rc;
    }
    *out = c;
    return 0;
}

int wsel_gslb_config_load_file(const char *path, wsel_gslb_config **out, wsel_error *err)
{
    if (out)
        *out = NULL;
    if (!path || !out)
        return wsel__fail(err, WSEL_E_ARG, path, 0, 0, NULL, NULL, NULL, "no file given");
    char *buf;
    size_t n;
    int rc = wsel__read_file(path, "config", WSEL_GSLB_MAX_FILE, NULL, &buf, &n, err);
    rc = rc ? rc : wsel_gslb_config_load_buffer(path, buf, n, out, err);
    free(buf);
    return rc;
}
