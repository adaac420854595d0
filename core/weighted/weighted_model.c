/* Builds the resource model (doc/weighted.md §3) from a parse tree, validating every rule. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../addr.h"
#include "weighted_model.h"

#define DEFAULT_UP_THRESH 0.5

/* A parameter as written at one level. gdnsd reads a parameter only where a set uses
 * it (the deepest level that has it), so wsel validates it there too and only warns
 * about a value no set reads (doc/weighted.md §3.2, D2). */
typedef struct pslot {
    const wsel__entry *e;
    int which;
    wsel_level lvl;
    bool used;
    struct pslot *next;
} pslot;

typedef struct params {
    bool multi;
    double up_thresh;
    const char *const *svc;
    uint32_t n_svc;
    wsel_level multi_from, up_thresh_from, svc_from;
    pslot *raw[4];              /* by P_*: the deepest value written so far */
} params;

typedef struct builder {
    wsel_config *cfg;
    wsel_error *err;
    const wsel__node *svc_defs; /* top-level service_types hash of a whole config */
    const char *resource, *stanza, *group;
    const char *hint_key;       /* a direct key read as an item: may be a misspelled parameter */
    uint32_t n_sets;
    const char *file_src[8], *file_dst[8]; /* small cache of copied file names */
    unsigned file_next;
    pslot *slots, *last_slot;   /* every parameter written, in config order */
} builder;

enum { P_NONE = 0, P_SERVICES, P_MULTI, P_UP_THRESH };
static const char *const param_names[] = { NULL, "service_types", "multi", "up_thresh" };
static const char *const builtin_up[] = { "up" };

/* ---- errors ---- */

static void append(char *buf, size_t len, size_t *used, const char *fmt, const char *arg)
{
    if (*used >= len)
        return;
    int n = snprintf(buf + *used, len - *used, fmt, *used ? ", " : "", arg);
    if (n > 0)
        *used += (size_t)n;
}

static int WSEL_PRINTF(5, 6) bfail(builder *b, int code, const wsel__pos *pos,
                                   const char *item, const char *fmt, ...)
{
    char msg[640], where[360], stanza[64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    size_t used = 0;
    where[0] = '\0';
    if (!b->resource)
        append(where, sizeof where, &used, "%s%s", "weighted stanza");
    if (b->resource)
        append(where, sizeof where, &used, "%sresource '%.100s'", b->resource);
    if (b->stanza)
        append(where, sizeof where, &used, "%sstanza '%.20s'", b->stanza);
    if (b->group)
        append(where, sizeof where, &used, "%sgroup '%.80s'", b->group);
    if (item)
        append(where, sizeof where, &used, "%sitem '%.100s'", item);
    if (b->stanza && b->group)
        snprintf(stanza, sizeof stanza, "%s/%s", b->stanza, b->group);
    else
        snprintf(stanza, sizeof stanza, "%s", b->stanza ? b->stanza : b->group ? b->group : "");
    const char *hint = wsel_config_key_hint(b->hint_key);
    return wsel__fail(b->err, code, pos ? pos->file : NULL, pos ? pos->line : 0,
                      pos ? pos->col : 0, b->resource, stanza, item, "%s: %s%s%s%s", where,
                      msg, hint ? " (did you mean '" : "", hint ? hint : "", hint ? "'?)" : "");
}

static int nomem(builder *b)
{
    return wsel__fail(b->err, WSEL_E_NOMEM, NULL, 0, 0, b->resource, b->stanza, NULL,
                      "out of memory");
}

/* ---- small helpers ---- */

/* Records a loader warning (wsel_config_warning); false when out of memory. */
static bool WSEL_PRINTF(4, 5) bwarn(builder *b, const wsel__pos *pos, const char *item,
                                    const char *fmt, ...)
{
    wsel__warning *w = wsel__arena_alloc(&b->cfg->arena, sizeof *w);
    if (!w)
        return false;
    char msg[900];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    wsel__fail(&w->w, WSEL_OK, pos ? pos->file : NULL, pos ? pos->line : 0,
               pos ? pos->col : 0, b->resource, b->stanza, item, "%s", msg);
    w->next = NULL;
    if (b->cfg->last_warning)
        b->cfg->last_warning->next = w;
    else
        b->cfg->warnings = w;
    b->cfg->last_warning = w;
    b->cfg->n_warnings++;
    return true;
}

size_t wsel_config_warning_count(const wsel_config *cfg)
{
    return cfg ? cfg->n_warnings : 0;
}

const wsel_error *wsel_config_warning(const wsel_config *cfg, size_t i)
{
    if (!cfg || i >= cfg->n_warnings)
        return NULL;
    const wsel__warning *w = cfg->warnings;
    while (i--)
        w = w->next;
    return &w->w;
}

static bool has_nul(const char *s, size_t len)
{
    return strlen(s) != len;
}

static bool key_is(const wsel__entry *e, const char *k)
{
    return e->klen == strlen(k) && memcmp(e->key, k, e->klen) == 0;
}

static int param_of(const wsel__entry *e)
{
    for (int p = P_SERVICES; p <= P_UP_THRESH; p++)
        if (key_is(e, param_names[p]))
            return p;
    return P_NONE;
}

static const char *intern_file(builder *b, const char *f)
{
    if (!f)
        return NULL;
    for (unsigned i = 0; i < 8; i++)
        if (b->file_src[i] == f)
            return b->file_dst[i];
    const char *copy = wsel__arena_strdup(&b->cfg->arena, f);
    if (copy) {
        b->file_src[b->file_next] = f;
        b->file_dst[b->file_next] = copy;
        b->file_next = (b->file_next + 1) % 8;
    }
    return copy;
}

static bool set_loc(builder *b, wsel_loc *loc, const wsel__pos *pos)
{
    loc->file = intern_file(b, pos->file);
    loc->line = pos->line;
    loc->col = pos->col;
    return loc->file != NULL;
}

static const char *kind_text(wsel_kind k)
{
    return k == WSEL_KIND_V4 ? "IPv4 address" : k == WSEL_KIND_V6 ? "IPv6 address" : "CNAME";
}

/* ---- parameters ---- */

static int read_services(builder *b, const wsel__entry *e, wsel_level lvl, params *p)
{
    const wsel__node *v = e->val;
    size_t n = v->type == WSEL__N_ARRAY ? v->len : 1;
    if (v->type == WSEL__N_HASH)
        return bfail(b, WSEL_E_PARAM, &v->pos, "service_types",
                     "value is a hash; expected a service type name or an array of names");
    const char **list = wsel__arena_array(&b->cfg->arena, n ? n : 1, sizeof *list);
    if (!list)
        return nomem(b);
    for (size_t i = 0; i < n; i++) {
        const wsel__node *s = v->type == WSEL__N_ARRAY ? v->elems[i] : v;
        if (s->type != WSEL__N_SIMPLE)
            return bfail(b, WSEL_E_PARAM, &s->pos, "service_types",
                         "element %zu is %s; expected a service type name", i + 1,
                         wsel__ntype_name(s->type));
        if (s->len == 0 || has_nul(s->str, s->len))
            return bfail(b, WSEL_E_PARAM, &s->pos, "service_types",
                         "element %zu is empty or holds a NUL byte; expected a service "
                         "type name", i + 1);
        bool known = !b->cfg->whole || strcmp(s->str, "up") == 0 ||
                     strcmp(s->str, "down") == 0 || wsel__hash_get(b->svc_defs, s->str);
        if (!known)
            return bfail(b, WSEL_E_SVCTYPE, &s->pos, "service_types",
                         "service type '%.100s' is not defined; expected up, down or a name "
                         "from the top-level service_types hash", s->str);
        if (!(list[i] = wsel__arena_strdup(&b->cfg->arena, s->str)))
            return nomem(b);
    }
    p->svc = list;
    p->n_svc = (uint32_t)n;
    p->svc_from = lvl;
    return WSEL_OK;
}

/* strtod in the "C" locale: a host application's LC_NUMERIC (e.g. a comma decimal
 * separator) must not change what a config means. uselocale() is per thread. */
static double strtod_c(const char *s, char **end)
{
    locale_t c = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
    if (c == (locale_t)0)
        return strtod(s, end);
    locale_t old = uselocale(c);
    double d = strtod(s, end);
    uselocale(old);
    freelocale(c);
    return d;
}

static int read_param(builder *b, const wsel__entry *e, int which, wsel_level lvl, params *p)
{
    if (which == P_SERVICES)
        return read_services(b, e, lvl, p);
    const wsel__node *v = e->val;
    const char *name = param_names[which];
    if (v->type != WSEL__N_SIMPLE)
        return bfail(b, WSEL_E_PARAM, &v->pos, name, "value is %s; expected %s",
                     wsel__ntype_name(v->type),
                     which == P_MULTI ? "true or false" : "a number in (0.0, 1.0]");
    if (which == P_MULTI) {
        if (!has_nul(v->str, v->len) && strcasecmp(v->str, "true") == 0)
            p->multi = true;
        else if (!has_nul(v->str, v->len) && strcasecmp(v->str, "false") == 0)
            p->multi = false;
        else
            return bfail(b, WSEL_E_PARAM, &v->pos, name,
                         "value '%.100s' is not a boolean; expected true or false", v->str);
        p->multi_from = lvl;
        return WSEL_OK;
    }
    char *end = NULL;
    double d = 0.0;
    errno = 0;
    if (v->len && !has_nul(v->str, v->len))
        d = strtod_c(v->str, &end);
    if (!end || end == v->str || *end)
        return bfail(b, WSEL_E_PARAM, &v->pos, name,
                     "value '%.100s' is not a number; expected a number in (0.0, 1.0]", v->str);
    /* gdnsd refuses a value strtod reads only with a range error (a subnormal such as
     * 4.9e-324), so wsel does too (doc/weighted.md §3.1, formerly D3). */
    if (errno == ERANGE)
        return bfail(b, WSEL_E_PARAM, &v->pos, name,
                     "value '%.100s' is out of the range of a normal double (strtod range "
                     "error, refused by gdnsd); expected a number in (0.0, 1.0]", v->str);
    if (!(d > 0.0 && d <= 1.0))
        return bfail(b, WSEL_E_PARAM, &v->pos, name,
                     "value '%.100s' out of range; expected a number in (0.0, 1.0]", v->str);
    p->up_thresh = d;
    p->up_thresh_from = lvl;
    return WSEL_OK;
}

/* Records the parameters written in `hash`; they are read where a set uses them
 * (use_params). */
static int read_params(builder *b, const wsel__node *hash, wsel_level lvl, params *p)
{
    for (size_t i = 0; i < hash->len; i++) {
        int which = param_of(&hash->entries[i]);
        if (which == P_NONE)
            continue;
        pslot *s = wsel__arena_alloc(&b->cfg->arena, sizeof *s);
        if (!s)
            return nomem(b);
        *s = (pslot){ &hash->entries[i], which, lvl, false, NULL };
        if (b->last_slot)
            b->last_slot->next = s;
        else
            b->slots = s;
        b->last_slot = s;
        p->raw[which] = s;
    }
    return WSEL_OK;
}

/* Reads the parameters a set uses: all three, except multi in a CNAME set. */
static int use_params(builder *b, params *p, bool cname)
{
    for (int which = P_SERVICES; which <= P_UP_THRESH; which++) {
        pslot *s = p->raw[which];
        if (!s)
            continue;
        if (which == P_MULTI && cname) {
            p->multi_from = s->lvl; /* written there, and ignored (§4.2) */
            continue;
        }
        s->used = true;
        int rc = read_param(b, s->e, which, s->lvl, p);
        if (rc)
            return rc;
    }
    return WSEL_OK;
}

/* Whether a parameter no set read would be valid; its message in *why otherwise. */
static bool param_valid(builder *b, const pslot *s, wsel_error *why)
{
    wsel_error *save = b->err;
    const char *res = b->resource, *stanza = b->stanza, *group = b->group;
    b->err = why;
    b->resource = b->stanza = b->group = NULL;
    params tmp = { 0 };
    int rc = read_param(b, s->e, s->which, s->lvl, &tmp);
    b->err = save;
    b->resource = res;
    b->stanza = stanza;
    b->group = group;
    return rc == WSEL_OK;
}

/* ---- items ---- */

typedef struct setctx {
    wsel_kind kind;     /* 0 while unknown (a group whose first address is not an IP) */
    bool grouped;
    bool strict;        /* explicit addrs_v* stanza: wrong family is a bad address */
    const char *first;  /* item the shape and family were detected from */
} setctx;

static int read_weight(builder *b, const wsel__node *w, const char *label, uint32_t *out)
{
    char *end = NULL;
    long v = 0;
    errno = 0;
    if (w->len && !has_nul(w->str, w->len))
        v = strtol(w->str, &end, 0);
    if (!end || end == w->str || *end)
        return bfail(b, WSEL_E_WEIGHT, &w->pos, label,
                     "weight '%.100s' is not an integer; expected an integer 1..%u", w->str,
                     WSEL_MAX_WEIGHT);
    if (errno == ERANGE || v < 1 || v > (long)WSEL_MAX_WEIGHT)
        return bfail(b, WSEL_E_WEIGHT, &w->pos, label,
                     "weight '%.100s' out of range; expected an integer 1..%u", w->str,
                     WSEL_MAX_WEIGHT);
    *out = (uint32_t)v;
    return WSEL_OK;
}

/* The first space, control or non-ASCII byte of a CNAME's labels (wire form) draws a
 * warning (D6). */
static int warn_cname_bytes(builder *b, const wsel__node *a, const char *label,
                            const uint8_t *wire)
{
    for (size_t i = 0, nth = 1; wire[i]; i += (size_t)wire[i] + 1, nth++)
        for (size_t k = 1; k <= wire[i]; k++) {
            unsigned c = wire[i + k];
            if (c <= ' ' || c >= 0x7f)
                return bwarn(b, &a->pos, label, "CNAME holds the byte \\%03u in label %zu "
                             "(a space, control or non-ASCII byte): legal in DNS and accepted "
                             "by gdnsd, but rarely meant", c, nth) ? WSEL_OK : nomem(b);
        }
    return WSEL_OK;
}

/* For a CNAME, also its presentation text (what gdnsd answers) into cname[]. */
static int check_value(builder *b, const setctx *sc, const wsel__node *a, const char *label,
                       uint8_t addr[16], char cname[WSEL__DNAME_TEXT])
{
    int fam = wsel__ip_family(a->str, a->len, addr);
    if (sc->kind == WSEL_KIND_CNAME) {
        if (fam)
            return bfail(b, WSEL_E_MIXED, &a->pos, label,
                         "'%.100s' is an IP address but the set holds CNAMEs (detected from "
                         "item '%.100s'); expected a domain name", a->str, sc->first);
        /* gdnsd reads a CNAME from its raw text with zone-file escapes (D4 retired) */
        const char *raw = wsel__node_raw(a);
        if (!raw)
            return bfail(b, WSEL_E_CNAME, &a->pos, label,
                         "CNAME '%.100s' holds a raw NUL byte; expected text (write \\000 "
                         "for a NUL byte in a label)", a->str);
        uint8_t wire[WSEL__DNAME_WIRE];
        const char *why;
        size_t wlen = wsel__dname_wire(raw, strlen(raw), wire, &why);
        if (!wlen)
            return bfail(b, WSEL_E_CNAME, &a->pos, label,
                         "CNAME '%.100s' %s; expected a fully qualified domain name ending in "
                         "'.', labels of 1..63 octets, at most 255 octets in wire form",
                         raw, why);
        int rc = warn_cname_bytes(b, a, label, wire);
        if (!rc)
            wsel__dname_text(wire, cname);
        return rc;
    }
    int want = sc->kind == WSEL_KIND_V4 ? 4 : sc->kind == WSEL_KIND_V6 ? 6 : 0;
    if (fam && fam == want)
        return WSEL_OK;
    if (!want)
        return bfail(b, WSEL_E_ADDR, &a->pos, label,
                     "'%.100s' is not an IP address; expected an IPv4 or IPv6 address",
                     a->str);
    if (sc->strict)
        return bfail(b, WSEL_E_ADDR, &a->pos, label,
                     "'%.100s' is not an %s; expected only %ses in %s", a->str,
                     kind_text(sc->kind), kind_text(sc->kind), b->stanza);
    if (fam)
        return bfail(b, WSEL_E_MIXED, &a->pos, label,
                     "'%.100s' is an IPv%d address but the set holds %ses (detected from item "
                     "'%.100s'); expected one family per set (use addrs_v4 and addrs_v6 for "
                     "both)", a->str, fam, kind_text(sc->kind), sc->first);
    if (sc->grouped)
        return bfail(b, WSEL_E_ADDR, &a->pos, label,
                     "'%.100s' is not an IP address; expected an %s (groups hold addresses)",
                     a->str, kind_text(sc->kind));
    return bfail(b, WSEL_E_MIXED, &a->pos, label,
                 "'%.100s' is not an IP address but the set holds %ses (detected from item "
                 "'%.100s'); expected an %s", a->str, kind_text(sc->kind), sc->first,
                 kind_text(sc->kind));
}

static int read_item(builder *b, const setctx *sc, const wsel__entry *e, wsel_item *it)
{
    const char *label = e->key;
    const wsel__node *v = e->val;
    const char *shape = sc->kind == WSEL_KIND_CNAME ? "[ NAME, WEIGHT ]"
                        : sc->kind ? "[ ADDRESS, WEIGHT ]"
                                   : "[ ADDRESS, WEIGHT ] or a group { label => [ ADDRESS, "
                                     "WEIGHT ] ... }";
    if (has_nul(e->key, e->klen))
        return bfail(b, WSEL_E_ITEM, &e->kpos, label, "label holds a NUL byte; expected a name");
    if (v->type == WSEL__N_HASH)
        return bfail(b, WSEL_E_ITEM, &v->pos, label, "value is a hash; expected %s", shape);
    if (v->type != WSEL__N_ARRAY || v->len != 2)
        return bfail(b, WSEL_E_ITEM, &v->pos, label,
                     "value has %zu element%s; expected exactly 2: %s",
                     v->type == WSEL__N_ARRAY ? v->len : (size_t)1,
                     v->type == WSEL__N_ARRAY && v->len != 1 ? "s" : "", shape);
    for (int i = 0; i < 2; i++)
        if (v->elems[i]->type != WSEL__N_SIMPLE)
            return bfail(b, WSEL_E_ITEM, &v->elems[i]->pos, label,
                         "element %d is %s; expected %s", i + 1,
                         wsel__ntype_name(v->elems[i]->type), shape);
    const wsel__node *a = v->elems[0];
    char canon[WSEL__DNAME_TEXT];
    int rc = check_value(b, sc, a, label, it->addr, canon);
    if (!rc)
        rc = read_weight(b, v->elems[1], label, &it->weight);
    if (rc)
        return rc;
    char key[320];
    /* value: what gdnsd answers; keysrc: what gdnsd's monitoring names the item by */
    const char *value = a->str, *keysrc = a->str;
    uint8_t probe[16];
    if (sc->kind == WSEL_KIND_V4 && wsel__addr_parse(a->str, a->len, false, probe) != 4) {
        /* an inet_aton spelling gdnsd takes (D1): answer what gdnsd answers, say so */
        wsel__addr_format(4, it->addr, canon, sizeof canon);
        value = keysrc = canon;
        if (!bwarn(b, &a->pos, label, "'%.100s' is read as %s (inet_aton's rules, as gdnsd "
                   "reads it); write %s if that is what you mean", a->str, canon, canon))
            return nomem(b);
    } else if (sc->kind == WSEL_KIND_V6 && wsel__addr_parse(a->str, a->len, false, probe) != 6) {
        /* a scope id, which gdnsd takes (D1): not part of the answer; monitored with it */
        wsel__addr_format(6, it->addr, canon, sizeof canon);
        value = canon;
        if (!bwarn(b, &a->pos, label, "'%.100s' is answered as %s: the scope id names an "
                   "interface of the host that reads the config and is not part of a DNS "
                   "answer", a->str, canon))
            return nomem(b);
    } else if (sc->kind == WSEL_KIND_CNAME) {
        value = canon; /* check_value's presentation text */
    }
    if (!wsel__canon_key(keysrc, key, sizeof key))
        return bfail(b, WSEL_E_CNAME, &a->pos, label, "value too long");
    it->label = wsel__arena_strdup(&b->cfg->arena, label);
    it->value = wsel__arena_strdup(&b->cfg->arena, value);
    it->key = wsel__arena_strdup(&b->cfg->arena, key);
    if (!it->label || !it->value || !it->key || !set_loc(b, &it->loc, &e->kpos))
        return nomem(b);
    return WSEL_OK;
}

/* ---- sets ---- */

/* Detects kind and shape from the first item (doc/weighted.md §3.4). */
static int detect(builder *b, const wsel__entry *first, wsel_kind forced, setctx *sc)
{
    const wsel__node *v = first->val;
    uint8_t addr[16];
    sc->first = first->key;
    sc->kind = forced;
    sc->strict = forced != 0;
    if (v->type == WSEL__N_SIMPLE) {
        b->hint_key = first->key;
        return read_item(b, sc, first, &(wsel_item){ 0 }); /* reports the bad shape */
    }
    if (v->type == WSEL__N_HASH) {
        sc->grouped = true;
        if (!forced && v->len && v->entries[0].val->type == WSEL__N_ARRAY &&
            v->entries[0].val->len >= 1) {
            const wsel__node *a = v->entries[0].val->elems[0];
            if (a->type == WSEL__N_SIMPLE) {
                int fam = wsel__ip_family(a->str, a->len, addr);
                sc->kind = fam == 4 ? WSEL_KIND_V4 : fam == 6 ? WSEL_KIND_V6 : 0;
            }
        }
        return WSEL_OK;
    }
    if (!forced) {
        const wsel__node *a = v->len ? v->elems[0] : NULL;
        int fam = a && a->type == WSEL__N_SIMPLE ? wsel__ip_family(a->str, a->len, addr) : 0;
        sc->kind = fam == 4 ? WSEL_KIND_V4 : fam == 6 ? WSEL_KIND_V6 : WSEL_KIND_CNAME;
    }
    return WSEL_OK;
}

static int shape_mismatch(builder *b, const setctx *sc, const wsel__entry *e)
{
    b->hint_key = e->key;
    if (e->val->type == WSEL__N_SIMPLE)
        return read_item(b, sc, e, &(wsel_item){ 0 });
    if (sc->grouped)
        return bfail(b, WSEL_E_MIXED, &e->val->pos, e->key,
                     "value is an array but the set holds groups (detected from item "
                     "'%.100s'); expected a group { label => [ ADDRESS, WEIGHT ] ... }",
                     sc->first);
    return bfail(b, WSEL_E_MIXED, &e->val->pos, e->key,
                 "value is a group (hash) but the set holds ungrouped %ses (detected from "
                 "item '%.100s'); expected %s", kind_text(sc->kind), sc->first,
                 sc->kind == WSEL_KIND_CNAME ? "[ NAME, WEIGHT ]" : "[ ADDRESS, WEIGHT ]");
}

static int count_error(builder *b, const wsel__pos *pos, const char *item, size_t n,
                       const char *what)
{
    if (n == 0)
        return bfail(b, WSEL_E_COUNT, pos, item, "no %s; expected 1..%u", what,
                     WSEL_MAX_ITEMS);
    return bfail(b, WSEL_E_COUNT, pos, item, "more than %u %s; expected 1..%u",
                 WSEL_MAX_ITEMS, what, WSEL_MAX_ITEMS);
}

static int fill_group(builder *b, const setctx *sc, const wsel__entry *g, wsel_set *set,
                      wsel_item *items, uint32_t *n_items, wsel_group *grp)
{
    b->group = g->key;
    if (has_nul(g->key, g->klen))
        return bfail(b, WSEL_E_ITEM, &g->kpos, NULL, "label holds a NUL byte; expected a name");
    grp->label = wsel__arena_strdup(&b->cfg->arena, g->key);
    if (!grp->label || !set_loc(b, &grp->loc, &g->kpos))
        return nomem(b);
    grp->first = *n_items;
    grp->count = (uint32_t)g->val->len;
    for (size_t i = 0; i < g->val->len; i++) {
        wsel_item *it = &items[*n_items];
        int rc = read_item(b, sc, &g->val->entries[i], it);
        if (rc)
            return rc;
        it->group = (uint16_t)(grp - set->groups);
        it->index = (uint16_t)*n_items;
        grp->total += it->weight;
        (*n_items)++;
    }
    b->group = NULL;
    return WSEL_OK;
}

/* gdnsd's tcp_connect and http_status monitors cannot watch CNAMEs, and gdnsd refuses
 * to start when a CNAME set uses a service type of either (doc/weighted.md §6.1). */
static int check_cname_monitors(builder *b, const params *p, const wsel__node *hash)
{
    if (!b->svc_defs)
        return WSEL_OK;
    for (uint32_t k = 0; k < p->n_svc; k++) {
        const wsel__entry *def = wsel__hash_get(b->svc_defs, p->svc[k]);
        if (!def || def->val->type != WSEL__N_HASH)
            continue;
        const wsel__entry *plugin = wsel__hash_get(def->val, "plugin");
        if (!plugin || plugin->val->type != WSEL__N_SIMPLE)
            continue;
        const char *name = plugin->val->str;
        if (strcmp(name, "tcp_connect") != 0 && strcmp(name, "http_status") != 0)
            continue;
        const wsel__pos *pos = p->raw[P_SERVICES] ? &p->raw[P_SERVICES]->e->val->pos
                                                  : &hash->pos;
        return bfail(b, WSEL_E_SVCTYPE, pos, "service_types",
                     "service type '%.100s' uses the %s plugin, which cannot monitor CNAMEs "
                     "(gdnsd refuses to start); expected a service type of a plugin that "
                     "can, such as extfile, or up/down", p->svc[k], name);
    }
    return WSEL_OK;
}

/* The direct items of a set's hash are its non-parameter keys, in config order: at
 * least one, at most WSEL_MAX_ITEMS. Their count in *n, the first in *first. */
static int count_direct(builder *b, const wsel__node *hash, size_t *n,
                        const wsel__entry **first)
{
    *n = 0;
    *first = NULL;
    for (size_t i = 0; i < hash->len; i++) {
        const wsel__entry *e = &hash->entries[i];
        if (param_of(e) != P_NONE)
            continue;
        if (!*first)
            *first = e;
        if (++*n > WSEL_MAX_ITEMS) {
            b->hint_key = NULL;
            return count_error(b, &e->kpos, e->key, *n, "items");
        }
    }
    if (*n == 0)
        return count_error(b, &hash->pos, NULL, 0,
                           "items (addresses, groups or CNAMEs; parameters do not count)");
    return WSEL_OK;
}

/* Every direct item has the set's shape (a group's hash, or an item); the number of
 * items of the set, groups flattened, in *total. */
static int count_items(builder *b, const wsel__node *hash, const setctx *sc, size_t *total)
{
    *total = 0;
    for (size_t i = 0; i < hash->len; i++) {
        const wsel__entry *e = &hash->entries[i];
        if (param_of(e) != P_NONE)
            continue;
        if ((e->val->type == WSEL__N_HASH) != sc->grouped)
            return shape_mismatch(b, sc, e);
        if (sc->grouped) {
            b->hint_key = e->key;
            if (e->val->len == 0 || e->val->len > WSEL_MAX_ITEMS)
                return count_error(b, e->val->len ? &e->val->entries[WSEL_MAX_ITEMS].kpos
                                                  : &e->val->pos,
                                   e->key, e->val->len, "addresses in the group");
            *total += e->val->len;
        } else {
            (*total)++;
        }
    }
    return WSEL_OK;
}

/* Reads the items (and groups) of the set into the arrays set->items / set->groups,
 * counting them in set->n_items / set->n_groups. */
static int fill_items(builder *b, const wsel__node *hash, const setctx *sc, wsel_set *set,
                      wsel_item *items, wsel_group *groups)
{
    uint32_t n_items = 0, n_groups = 0;
    int rc = WSEL_OK;
    for (size_t i = 0; i < hash->len && !rc; i++) {
        const wsel__entry *e = &hash->entries[i];
        if (param_of(e) != P_NONE)
            continue;
        if (sc->grouped) {
            b->hint_key = NULL;
            rc = fill_group(b, sc, e, set, items, &n_items, &groups[n_groups]);
            n_groups++;
        } else {
            b->hint_key = e->key;
            rc = read_item(b, sc, e, &items[n_items]);
            items[n_items].index = (uint16_t)n_items;
            n_items++;
        }
    }
    set->n_items = n_items;
    set->n_groups = n_groups;
    return rc;
}

/* The set's mode, effective parameters, totals and threshold, from its items. */
static void finish_set(const setctx *sc, const params *p, wsel_set *set)
{
    set->kind = sc->kind;
    set->grouped = sc->grouped;
    set->multi = sc->kind != WSEL_KIND_CNAME && p->multi;
    if (sc->kind == WSEL_KIND_CNAME)
        set->mode = WSEL_MODE_CNAME;
    else if (sc->grouped)
        set->mode = p->multi ? WSEL_MODE_GROUPED_MULTI : WSEL_MODE_GROUPED_SINGLE;
    else
        set->mode = p->multi ? WSEL_MODE_UNGROUPED_MULTI : WSEL_MODE_UNGROUPED_SINGLE;
    set->up_thresh = p->up_thresh;
    set->n_services = p->n_svc;
    set->services = p->svc;
    set->multi_from = p->multi_from;
    set->up_thresh_from = p->up_thresh_from;
    set->services_from = p->svc_from;
    for (uint32_t i = 0; i < set->n_items; i++)
        set->total += set->items[i].weight;
    for (uint32_t g = 0; g < set->n_groups; g++)
        if (set->groups[g].count > set->max_group)
            set->max_group = set->groups[g].count;
    set->threshold = (uint64_t)ceil((double)set->total * set->up_thresh);
}

static int build_set(builder *b, const wsel__node *hash, wsel_kind forced, const params *pp,
                     const wsel__pos *loc, wsel_set *set)
{
    params pv = *pp;
    params *p = &pv;
    size_t n, total;
    const wsel__entry *first;
    int rc = count_direct(b, hash, &n, &first);
    if (rc)
        return rc;
    setctx sc = { 0 };
    rc = detect(b, first, forced, &sc);
    if (!rc)
        rc = use_params(b, p, sc.kind == WSEL_KIND_CNAME);
    if (!rc && sc.kind == WSEL_KIND_CNAME)
        rc = check_cname_monitors(b, p, hash);
    if (!rc)
        rc = count_items(b, hash, &sc, &total);
    if (rc)
        return rc;

    wsel_item *items = wsel__arena_array(&b->cfg->arena, total, sizeof *items);
    wsel_group *groups = sc.grouped ? wsel__arena_array(&b->cfg->arena, n, sizeof *groups)
                                    : NULL;
    if (!items || (sc.grouped && !groups))
        return nomem(b);
    set->items = items;
    set->groups = groups;
    if ((rc = fill_items(b, hash, &sc, set, items, groups)) != WSEL_OK)
        return rc;
    b->hint_key = NULL;
    finish_set(&sc, p, set);
    set->stanza = b->stanza ? wsel__arena_strdup(&b->cfg->arena, b->stanza) : NULL;
    set->id = b->n_sets++;
    if ((b->stanza && !set->stanza) || !set_loc(b, &set->loc, loc))
        return nomem(b);
    return WSEL_OK;
}

/* ---- resources ---- */

static int build_stanza(builder *b, const wsel__entry *e, wsel_kind kind, const params *rp,
                        wsel_set *set)
{
    b->stanza = kind == WSEL_KIND_V4 ? "addrs_v4" : "addrs_v6";
    if (e->val->type != WSEL__N_HASH)
        return bfail(b, WSEL_E_TYPE, &e->val->pos, NULL,
                     "value is %s; expected a hash of %ses or groups",
                     wsel__ntype_name(e->val->type), kind_text(kind));
    params p = *rp;
    int rc = read_params(b, e->val, WSEL_LEVEL_STANZA, &p);
    if (!rc)
        rc = build_set(b, e->val, kind, &p, &e->kpos, set);
    b->stanza = NULL;
    return rc;
}

static int build_resource(builder *b, const wsel__entry *e, const params *top,
                          wsel_resource *res)
{
    b->resource = e->key;
    b->stanza = b->group = NULL;
    b->hint_key = NULL;
    const wsel__node *v = e->val;
    if (has_nul(e->key, e->klen))
        return bfail(b, WSEL_E_TYPE, &e->kpos, NULL,
                     "resource name holds a NUL byte; expected a name");
    if (v->type != WSEL__N_HASH) {
        b->hint_key = e->key;
        return bfail(b, WSEL_E_TYPE, &v->pos, NULL,
                     "value is %s; expected a hash (a resource's addresses or CNAMEs)",
                     wsel__ntype_name(v->type));
    }
    res->name = wsel__arena_strdup(&b->cfg->arena, e->key);
    if (!res->name || !set_loc(b, &res->loc, &e->kpos))
        return nomem(b);
    params p = *top;
    int rc = read_params(b, v, WSEL_LEVEL_RESOURCE, &p);
    if (rc)
        return rc;
    const wsel__entry *v4 = wsel__hash_get(v, "addrs_v4");
    const wsel__entry *v6 = wsel__hash_get(v, "addrs_v6");
    for (size_t i = 0; i < v->len; i++) {
        const wsel__entry *x = &v->entries[i];
        if (key_is(x, "cnames"))
            return bfail(b, WSEL_E_LEGACY, &x->kpos, "cnames",
                         "legacy 'cnames' sub-stanza; expected CNAME items "
                         "label => [ NAME, WEIGHT ] directly in the resource");
        if ((v4 || v6) && x != v4 && x != v6 && param_of(x) == P_NONE) {
            b->hint_key = x->key;
            return bfail(b, WSEL_E_MIXED, &x->kpos, x->key,
                         "mixed direct item config beside addrs_v4/addrs_v6; expected only "
                         "service_types, multi, up_thresh, addrs_v4 and addrs_v6 here");
        }
    }
    res->n_sets = (v4 || v6) ? (uint32_t)(!!v4 + !!v6) : 1;
    wsel_set *sets = wsel__arena_array(&b->cfg->arena, res->n_sets, sizeof *sets);
    if (!sets)
        return nomem(b);
    res->sets = sets;
    res->explicit_families = v4 || v6;
    for (uint32_t i = 0; i < res->n_sets; i++)
        sets[i].resource = res;
    if (v4 && (rc = build_stanza(b, v4, WSEL_KIND_V4, &p, &sets[0])))
        return rc;
    if (v6 && (rc = build_stanza(b, v6, WSEL_KIND_V6, &p, &sets[v4 ? 1 : 0])))
        return rc;
    if (!v4 && !v6 && (rc = build_set(b, v, 0, &p, &e->kpos, &sets[0])))
        return rc;
    res->is_cname = sets[0].kind == WSEL_KIND_CNAME;
    b->resource = NULL;
    return WSEL_OK;
}

/* WSEL_OK when e's value is a hash, else the error naming `what` (e's key `name`), its
 * type and `expected`. */
static int want_hash(builder *b, const wsel__entry *e, const char *name, const char *what,
                     const char *expected)
{
    if (e->val->type == WSEL__N_HASH)
        return WSEL_OK;
    return wsel__fail(b->err, WSEL_E_TYPE, e->val->pos.file, e->val->pos.line, e->val->pos.col,
                      NULL, NULL, name, "%s is %s; expected %s", what,
                      wsel__ntype_name(e->val->type), expected);
}

/* A service type of the `static` monitoring plugin: its `state` (UP or DOWN, any letter
 * case; default UP) and `ttl` (strtoul over the whole value, 0 .. 2^28 - 1; default
 * 2^28 - 1), checked as gdnsd 3.8.1's plugin_static checks them, even for a type no
 * set uses; gdnsd also refuses the plugin without a `plugins => { static => {...} }`
 * hash (doc/weighted.md §6.1). */
static int read_static(builder *b, const wsel__entry *d, const wsel__entry *pl,
                       const wsel__node *plugins)
{
    wsel__static_svc *sv = &b->cfg->statics[b->cfg->n_statics];
    sv->up = true;
    sv->ttl = WSEL_MAX_TTL;
    if (!(sv->name = wsel__arena_strdup(&b->cfg->arena, d->key)))
        return nomem(b);
    const wsel__entry *ps = wsel__hash_get(plugins, "static");
    if (!ps)
        return wsel__fail(b->err, WSEL_E_SVCTYPE, pl->val->pos.file, pl->val->pos.line,
                          pl->val->pos.col, NULL, NULL, d->key, "service type '%.100s' uses "
                          "the static plugin, which gdnsd refuses to load without its own "
                          "stanza; expected plugins => { static => { } } beside weighted",
                          d->key);
    if (ps->val->type != WSEL__N_HASH)
        return wsel__fail(b->err, WSEL_E_TYPE, ps->val->pos.file, ps->val->pos.line,
                          ps->val->pos.col, NULL, NULL, "static", "the static plugin's "
                          "stanza is %s; expected a hash (plugins => { static => { } })",
                          wsel__ntype_name(ps->val->type));
    const wsel__entry *e = wsel__hash_get(d->val, "state");
    if (e) {
        const wsel__node *v = e->val;
        bool up = v->type == WSEL__N_SIMPLE && !has_nul(v->str, v->len)
                  && strcasecmp(v->str, "up") == 0;
        bool down = v->type == WSEL__N_SIMPLE && !has_nul(v->str, v->len)
                    && strcasecmp(v->str, "down") == 0;
        if (!up && !down)
            return wsel__fail(b->err, WSEL_E_SVCTYPE, v->pos.file, v->pos.line, v->pos.col,
                              NULL, NULL, d->key, "service type '%.100s' (plugin static): "
                              "'state' is %s%.40s%s; expected UP or DOWN", d->key,
                              v->type == WSEL__N_SIMPLE ? "'" : wsel__ntype_name(v->type),
                              v->type == WSEL__N_SIMPLE ? v->str : "",
                              v->type == WSEL__N_SIMPLE ? "'" : "");
        sv->up = up;
    }
    if ((e = wsel__hash_get(d->val, "ttl"))) {
        const wsel__node *v = e->val;
        const char *why = NULL;
        unsigned long x = 0;
        if (v->type != WSEL__N_SIMPLE || has_nul(v->str, v->len)) {
            why = "not an integer";
        } else {
            char *end;
            errno = 0;
            x = strtoul(v->str, &end, 0);
            if (end == v->str || *end || errno)
                why = "not an integer";
            else if (x > WSEL_MAX_TTL)
                why = "out of range"; /* "-1" too: strtoul reads it as ULONG_MAX */
        }
        if (why)
            return wsel__fail(b->err, WSEL_E_SVCTYPE, v->pos.file, v->pos.line, v->pos.col,
                              NULL, NULL, d->key, "service type '%.100s' (plugin static): "
                              "'ttl' %s%.40s%s is %s; expected an integer from 0 to %u "
                              "(seconds)", d->key,
                              v->type == WSEL__N_SIMPLE ? "'" : "(",
                              v->type == WSEL__N_SIMPLE ? v->str : wsel__ntype_name(v->type),
                              v->type == WSEL__N_SIMPLE ? "'" : ")", why, WSEL_MAX_TTL);
        sv->ttl = (uint32_t)x;
    }
    b->cfg->n_statics++;
    return WSEL_OK;
}

/* Finds the weighted stanza (and service type definitions) of a whole config. */
static int find_stanza(builder *b, const wsel__node *root, const wsel__node **stanza)
{
    const wsel__entry *plugins = wsel__hash_get(root, "plugins");
    if (!plugins)
        return wsel__fail(b->err, WSEL_E_NOSTANZA, root->pos.file, 0, 0, NULL, NULL, NULL,
                          "no plugins => { weighted => { ... } } in the config; expected a "
                          "whole gdnsd config with a weighted plugin stanza");
    int rc = want_hash(b, plugins, "plugins", "plugins", "a hash of plugin stanzas");
    if (rc)
        return rc;
    const wsel__entry *w = wsel__hash_get(plugins->val, "weighted");
    if (!w)
        return wsel__fail(b->err, WSEL_E_NOSTANZA, plugins->kpos.file, plugins->kpos.line,
                          plugins->kpos.col, NULL, NULL, "plugins",
                          "plugins has no weighted stanza; expected plugins => { weighted => "
                          "{ ... } }");
    if ((rc = want_hash(b, w, "weighted", "the weighted stanza", "a hash")))
        return rc;
    /* gdnsd 3.8.1 refuses any other top-level key */
    for (size_t i = 0; i < root->len; i++) {
        const wsel__entry *e = &root->entries[i];
        if (!key_is(e, "options") && !key_is(e, "service_types") && !key_is(e, "plugins"))
            return wsel__fail(b->err, WSEL_E_SYNTAX, e->kpos.file, e->kpos.line, e->kpos.col,
                              NULL, NULL, e->key, "invalid top-level key '%.100s' (gdnsd "
                              "refuses it); expected options, service_types or plugins",
                              e->key);
    }
    const wsel__entry *svc = wsel__hash_get(root, "service_types");
    if (svc) {
        if ((rc = want_hash(b, svc, "service_types", "top-level service_types",
                            "a hash of service type definitions")))
            return rc;
        b->svc_defs = svc->val;
        /* what gdnsd requires of every definition (doc/weighted.md §2.8) */
        for (size_t i = 0; i < svc->val->len; i++) {
            const wsel__entry *d = &svc->val->entries[i];
            const wsel__entry *pl = d->val->type == WSEL__N_HASH
                                        ? wsel__hash_get(d->val, "plugin") : NULL;
            const char *why = NULL;
            if (key_is(d, "up") || key_is(d, "down"))
                why = "is built in and cannot be defined";
            else if (d->val->type != WSEL__N_HASH)
                why = "is not defined by a hash";
            else if (!pl || pl->val->type != WSEL__N_SIMPLE)
                why = "has no 'plugin' (a monitoring plugin's name)";
            if (why)
                return wsel__fail(b->err, WSEL_E_SVCTYPE, d->kpos.file, d->kpos.line,
                                  d->kpos.col, NULL, NULL, d->key, "service type '%.100s' %s, "
                                  "which gdnsd refuses; expected NAME => { plugin => PLUGIN "
                                  "... }", d->key, why);
        }
        /* the static plugin's state comes from the config; the other monitoring
         * plugins' options are theirs (doc/weighted.md §6.1) */
        b->cfg->statics = wsel__arena_array(&b->cfg->arena, svc->val->len ? svc->val->len : 1,
                                            sizeof *b->cfg->statics);
        if (!b->cfg->statics)
            return nomem(b);
        for (size_t i = 0; i < svc->val->len; i++) {
            const wsel__entry *d = &svc->val->entries[i];
            const wsel__entry *pl = wsel__hash_get(d->val, "plugin");
            if (pl->val->len == 6 && strcmp(pl->val->str, "static") == 0
                && (rc = read_static(b, d, pl, plugins->val)))
                return rc;
        }
    }
    *stanza = w->val;
    return WSEL_OK;
}

int wsel__model_build(wsel_config *cfg, const wsel__node *root, wsel_input input,
                      wsel_error *err)
{
    builder b = { .cfg = cfg, .err = err };
    bool whole = input == WSEL_INPUT_WHOLE ||
                 (input == WSEL_INPUT_AUTO && wsel__hash_get(root, "plugins"));
    if (root->type != WSEL__N_HASH) {
        if (whole)
            return wsel__fail(err, WSEL_E_NOSTANZA, root->pos.file, root->pos.line,
                              root->pos.col, NULL, NULL, NULL,
                              "top level is an array, so there is no plugins => { weighted "
                              "=> { ... } }; expected a whole gdnsd config");
        return wsel__fail(err, WSEL_E_TYPE, root->pos.file, root->pos.line, root->pos.col,
                          NULL, NULL, NULL, "top level is an array; expected a hash (the "
                          "weighted stanza's contents)");
    }
    cfg->whole = whole;
    const wsel__node *stanza = root;
    int rc;
    if (whole && (rc = find_stanza(&b, root, &stanza)))
        return rc;

    params top = { .multi = false, .up_thresh = DEFAULT_UP_THRESH, .svc = builtin_up,
                   .n_svc = 1 };
    if ((rc = read_params(&b, stanza, WSEL_LEVEL_TOP, &top)))
        return rc;
    /* What `check` lists as the top level's values: the written ones when valid. */
    for (int which = P_MULTI; which <= P_UP_THRESH; which++) {
        wsel_error why;
        params one = top;
        if (top.raw[which] && param_valid(&b, top.raw[which], &why))
            read_param(&b, top.raw[which]->e, which, WSEL_LEVEL_TOP, &one);
        if (which == P_MULTI)
            cfg->top_multi = one.multi;
        else
            cfg->top_up_thresh = one.up_thresh;
    }

    size_t n = 0;
    for (size_t i = 0; i < stanza->len; i++)
        n += param_of(&stanza->entries[i]) == P_NONE;
    cfg->resources = wsel__arena_array(&cfg->arena, n ? n : 1, sizeof *cfg->resources);
    if (!cfg->resources)
        return nomem(&b);
    for (size_t i = 0; i < stanza->len; i++) {
        const wsel__entry *e = &stanza->entries[i];
        if (param_of(e) != P_NONE)
            continue;
        wsel_resource *res = &cfg->resources[cfg->n_resources];
        res->index = (uint32_t)cfg->n_resources;
        if ((rc = build_resource(&b, e, &top, res)))
            return rc;
        cfg->n_resources++;
    }
    /* gdnsd accepts a bad value no set reads; wsel warns (doc/weighted.md §3.2). */
    for (const pslot *s = b.slots; s; s = s->next) {
        wsel_error why;
        if (s->used || param_valid(&b, s, &why))
            continue;
        const char *msg = strstr(why.message, ": ");
        if (!bwarn(&b, &s->e->val->pos, NULL, "%s is never read (%s), so gdnsd accepts "
                   "it, but where read it would be an error: %s", param_names[s->which],
                   s->which == P_MULTI ? "every set below it overrides it or holds CNAMEs, "
                                         "which ignore multi"
                                       : "every set below it overrides it",
                   msg ? msg + 2 : why.message))
            return nomem(&b);
    }
    cfg->sets = wsel__arena_array(&cfg->arena, b.n_sets ? b.n_sets : 1, sizeof *cfg->sets);
    if (!cfg->sets)
        return nomem(&b);
    for (size_t r = 0; r < cfg->n_resources; r++)
        for (uint32_t s = 0; s < cfg->resources[r].n_sets; s++)
            cfg->sets[cfg->n_sets++] = &cfg->resources[r].sets[s];
    return WSEL_OK;
}
