/* GSLB system: what the reader, lint and inputs share, and the inputs' data the engine
 * reads (the engine's own state and caches: ref/gslb/gslb_engine.h). Not installed. */
#ifndef WSEL_CORE_GSLB_INTERNAL_H
#define WSEL_CORE_GSLB_INTERNAL_H

#include <stdio.h>

#include "../internal.h"
#include "../io.h"
#include "wsel/gslb.h"

/* Per virtual server inputs (doc/gslb.md §3). Missing member entry = up false. */
typedef struct wsel__gslb_vsin {
    bool up, limit;
    uint16_t have;                       /* bit m: metric m acquired */
    double metric[WSEL_GSLB_METRIC_COUNT_];
} wsel__gslb_vsin;

typedef struct wsel__gslb_geo {
    wsel_gslb_addr addr;
    char *attr[4];                        /* continent, country, state, isp; NULL = unknown */
} wsel__gslb_geo;

typedef struct wsel__gslb_prec {          /* persistence record (doc/gslb.md §4.2 step 2) */
    size_t wideip;
    wsel_gslb_addr net;                   /* masked LDNS */
    unsigned prefix;
    size_t pool, member;                  /* pool index, member index in that pool */
    uint64_t expires;
} wsel__gslb_prec;

/* Smooth weighted round-robin counters of one (object, step): n entries. */
typedef struct wsel__gslb_wrr {
    uint32_t *w;                          /* weight used at the previous pick; 0 = not in E */
    int64_t *cur;
    bool used;                            /* a pick happened (w is meaningful) */
    uint64_t epoch;                       /* the state's epoch at the last pick; 0 never */
} wsel__gslb_wrr;

typedef struct wsel__gslb_stepst {
    long rr;                              /* index of the last pick, -1 initially */
    wsel__gslb_wrr wrr;
} wsel__gslb_stepst;

struct wsel_gslb_inputs {
    const wsel_gslb_config *cfg;
    uint64_t gen;                         /* bumped by every change (availability caches) */
    uint64_t now;
    char qname[256], qtype[16];
    wsel_gslb_addr ldns, ecs;
    wsel__gslb_vsin *vs;                  /* cfg->n_vs */
    bool *pool_held, *pool_limit;         /* cfg->n_pools */
    size_t n_geo;
    wsel__gslb_geo *geo;
    size_t n_prec;
    wsel__gslb_prec *prec;
    /* initial method state, copied into a new wsel_gslb_state */
    wsel__gslb_stepst *wideip_st;         /* cfg->n_wideips */
    wsel__gslb_stepst *pool_st;           /* cfg->n_pools * 3 */
    size_t n_random;
    uint64_t *random;
};

/* snprintf through vsnprintf: names are bounded by their buffers and a cut name in a
 * message is acceptable, so truncation is not diagnosed here. */
void wsel__gslb_fmt(char *buf, size_t len, const char *fmt, ...) WSEL_PRINTF(3, 4);

/* A malloc'd copy of s; NULL when out of memory. */
char *wsel__gslb_strdup(const char *s);
/* The method table (doc/gslb.md §2). */
extern const wsel_gslb_method_info wsel__gslb_methods[WSEL_GSLB_METHOD_COUNT_];

/* "/Common/" + name when the name has no leading '/', into buf. */
const char *wsel__gslb_norm(const char *name, char *buf, size_t len);
/* The name index (core/gslb/gslb_names.c): one hash table per name space. Servers,
 * pools and regions compare exactly; wide-IP names (full path), their last path parts and
 * their aliases ignore ASCII case (DNS names). */
enum {
    WSEL__GSLB_NS_SERVER, WSEL__GSLB_NS_POOL, WSEL__GSLB_NS_REGION, WSEL__GSLB_NS_POOL6,
    WSEL__GSLB_NS_WIDEIP, WSEL__GSLB_NS_LEAF, WSEL__GSLB_NS_ALIAS,
    WSEL__GSLB_NS_WIDEIP6, WSEL__GSLB_NS_LEAF6, WSEL__GSLB_NS_ALIAS6, WSEL__GSLB_NS_COUNT_
};
/* The name space of kind ns (POOL, WIDEIP, LEAF, ALIAS: the A ones) for objects of type t:
 * each type has its own (doc/gslb.md §1); other spaces are not typed. */
static inline int wsel__gslb_ns(int ns, wsel_gslb_type t)
{
    if (t != WSEL_GSLB_TYPE_AAAA)
        return ns;
    return ns == WSEL__GSLB_NS_POOL ? WSEL__GSLB_NS_POOL6
                                    : ns >= WSEL__GSLB_NS_WIDEIP && ns <= WSEL__GSLB_NS_ALIAS
                                          ? ns - WSEL__GSLB_NS_WIDEIP + WSEL__GSLB_NS_WIDEIP6
                                          : ns;
}
/* "a" or "aaaa": the type's word in tmsh statement heads and object labels. */
const char *wsel__gslb_type_word(wsel_gslb_type t);
/* Adds key (a string the config owns, kept by pointer) -> val; an existing key keeps its
 * first value. 0 or WSEL_E_NOMEM. */
int wsel__gslb_names_add(wsel_gslb_config *cfg, int ns, const char *key, size_t val);
/* The value of key in name space ns; -1 if none. */
long wsel__gslb_names_find(const wsel_gslb_config *cfg, int ns, const char *key);
/* Key comparisons the index made while the config was being read (a test's measure of
 * the reader's cost); the reader stops counting when it is done (wsel__gslb_names_done),
 * so a published config is never written by a lookup. */
size_t wsel__gslb_names_compares(const wsel_gslb_config *cfg);
void wsel__gslb_names_done(wsel_gslb_config *cfg);
void wsel__gslb_names_free(wsel_gslb_config *cfg);
/* After the parse: every wide IP's aliases into WSEL__GSLB_NS_ALIAS, and its wildcard
 * names and aliases (holding '*' or '?') into the list of patterns, most specific first
 * . 0 or WSEL_E_NOMEM. */
int wsel__gslb_names_queries(wsel_gslb_config *cfg);
/* The wide IP of type t of the most specific pattern matching qname; -1 if none. */
long wsel__gslb_names_match(const wsel_gslb_config *cfg, const char *qname, wsel_gslb_type t);
/* The wide IP of type t a query name reaches without wildcards, in wsel_gslb_find_wideip's
 * order (path as written, with /Common/, last path part, alias), or -1: who owns a claimed
 * name (lint G033). wsel_gslb_find_wideip_type is this, then the wildcards. */
long wsel__gslb_find_claim(const wsel_gslb_config *cfg, const char *name, wsel_gslb_type t);
/* c in lower case when an ASCII capital (DNS names compare ignoring ASCII case). */
static inline int wsel__gslb_fold(int c)
{
    return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}
/* How many of region rg's entries are `not` entries when it mixes them with positive ones
 * (lint G032, A-40), else 0. */
size_t wsel__gslb_region_mixed(const wsel_gslb_region *rg);
/* How many patterns there are; pattern i of A-41's order (0 the most specific) into *pat
 * (the config's string) and *wideip when i is below that. */
size_t wsel__gslb_names_pattern(const wsel_gslb_config *cfg, size_t i, const char **pat,
                               size_t *wideip);
/* Does name hold a wildcard ('*' or '?')? Does pattern pat match s? */
bool wsel__gslb_is_pattern(const char *name);
bool wsel__gslb_glob(const char *pat, const char *s);

/* Finds a pool of type t / a server by name; -1 if none. */
long wsel__gslb_find_pool(const wsel_gslb_config *cfg, const char *name, wsel_gslb_type t);
/* A pool or wide IP as the inputs and the state name it: "aaaa NAME" or "a NAME"
 * name one of that type; a bare NAME one of type `deflt`, or with deflt -1 the A one,
 * else the AAAA one. -1 if none. */
long wsel__gslb_find_pool_key(const wsel_gslb_config *cfg, const char *key, int deflt);
long wsel__gslb_find_wideip_key(const wsel_gslb_config *cfg, const char *key, int deflt);
/* How the state writes pool p / wide IP w: its name; "aaaa NAME" for an AAAA one. */
static inline const char *wsel__gslb_pool_key(const wsel_gslb_config *cfg, size_t p)
{
    return cfg->pools[p].key ? cfg->pools[p].key : cfg->pools[p].name;
}
static inline const char *wsel__gslb_wideip_key(const wsel_gslb_config *cfg, size_t w)
{
    return cfg->wideips[w].key ? cfg->wideips[w].key : cfg->wideips[w].name;
}
long wsel__gslb_find_server(const wsel_gslb_config *cfg, const char *name);
long wsel__gslb_find_region(const wsel_gslb_config *cfg, const char *name);
/* Resolves "SERVER:VS" (split at the first ':'; VS literally, then /Common/VS); -1. */
long wsel__gslb_find_vs(const wsel_gslb_config *cfg, const char *key);
/* The regions in an order where every region comes after the regions its region-members
 * name (an iterative depth-first post-order, roots in file order: linear in the region
 * graph, any depth), into order[cfg->n_regions]. Returns 0; 1 on a cycle, with *cycle the
 * root (file order) from which the first cycle was reached (order then still lists every
 * region, a back edge ignored); -1 when out of memory. A-39. */
int wsel__gslb_region_order(const wsel_gslb_config *cfg, size_t *order, size_t *cycle);

/* The metric each QoS factor reads, in wsel_gslb_pool.qos order; -1 the topology score. */
extern const int wsel__gslb_qos_metric[WSEL_GSLB_QOS_COUNT_];

/* The tmsh word of a topology condition's type ("subnet", "region", ...; "?" if none). */
const char *wsel__gslb_topo_type_name(wsel_gslb_topo_type t);

/* Could a topology condition match some candidate (gslb_lint.c; lint G018, explain)?
 * pool >= 0: the members of that pool; w: the pools of that wide IP. Conservative
 * (true) where the inputs decide (geo, a `not` entry). Regions once per candidate:
 * set rcan_ok false before the first condition of each new candidate. */
typedef struct wsel__gslb_can {
    const wsel_gslb_config *cfg;
    size_t *rorder;           /* regions inner first (A-39) */
    uint8_t *rcan;            /* per region: could match, for the current candidate */
    bool rcan_ok;             /* rcan worked out for the current candidate */
} wsel__gslb_can;
int wsel__gslb_can_init(wsel__gslb_can *k, const wsel_gslb_config *cfg); /* -1: no memory */
void wsel__gslb_can_free(wsel__gslb_can *k);
bool wsel__gslb_can_match(wsel__gslb_can *k, const wsel_gslb_cond *x, long pool,
                          const wsel_gslb_wideip *w);

/* IPv4/IPv6 text -> address; false if neither. Route domain "%N" suffix accepted. */
bool wsel__gslb_parse_addr(const char *s, wsel_gslb_addr *a);
/* "ADDR/LEN" -> network and prefix; false when malformed. */
bool wsel__gslb_parse_subnet(const char *s, wsel_gslb_addr *net, unsigned *prefix);
/* a masked to `prefix` bits. */
wsel_gslb_addr wsel__gslb_mask(const wsel_gslb_addr *a, unsigned prefix);
bool wsel__gslb_addr_eq(const wsel_gslb_addr *a, const wsel_gslb_addr *b);
bool wsel__gslb_in_subnet(const wsel_gslb_addr *a, const wsel_gslb_addr *net, unsigned prefix);

/* Object label for messages: "gtm pool a /Common/p", "gtm wideip aaaa /Common/w". */
const char *wsel__gslb_obj_pool(const wsel_gslb_config *cfg, size_t p, char *buf, size_t len);
const char *wsel__gslb_obj_wideip(const wsel_gslb_config *cfg, size_t w, char *buf, size_t len);

/* Method state arrays sized for cfg; copied from src when non-NULL. */
int wsel__gslb_stepst_alloc(const wsel_gslb_config *cfg, wsel__gslb_stepst **wideip_st,
                            wsel__gslb_stepst **pool_st);
void wsel__gslb_stepst_free(const wsel_gslb_config *cfg, wsel__gslb_stepst *wideip_st,
                            wsel__gslb_stepst *pool_st);
void wsel__gslb_stepst_copy(const wsel_gslb_config *cfg, wsel__gslb_stepst *dw,
                            wsel__gslb_stepst *dp, const wsel__gslb_stepst *sw,
                            const wsel__gslb_stepst *sp);

#endif
