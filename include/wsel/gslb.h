/* wsel: the GSLB chain of BIG-IP DNS (wide IP -> pool -> member), doc/gslb.md.
 *
 *   config  a subset of bigip_gtm.conf (gtm server, gtm pool a|aaaa, gtm wideip a|aaaa,
 *           gtm region, gtm topology, gtm global-settings load-balancing), read into a
 *           read-only model
 *   lint    the deterministic checks G001-G036
 *   inputs  availability, metrics, LDNS, geo, persistence, method state (JSON)
 *   resolve the decision of doc/gslb.md section 4: one query -> one outcome, the next
 *           method state and a decision log (events, wsel_gslb_event)
 *
 * The model structs are read-only for callers; every name follows doc/gslb.md §1. */
#ifndef WSEL_GSLB_H
#define WSEL_GSLB_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Limits (the reader rejects larger inputs with WSEL_E_LIMIT). */
#define WSEL_GSLB_MAX_FILE     (16u << 20) /* config or inputs file size, bytes */
#define WSEL_GSLB_MAX_DEPTH    16u         /* brace nesting */
#define WSEL_GSLB_MAX_MEMBERS  256u        /* members per pool */
#define WSEL_GSLB_MAX_POOLS    64u         /* pools per wide IP */
#define WSEL_GSLB_MAX_DEPENDS  64u         /* depends-on entries per virtual server */
#define WSEL_GSLB_MAX_ALIASES  256u        /* aliases per wide IP */
#define WSEL_GSLB_MAX_VS       4096u       /* virtual servers in all */
#define WSEL_GSLB_MAX_TOKENS   (1u << 21)  /* tokens in one config */

/* Load-balancing methods (doc/gslb.md §2), in the order of its table. */
typedef enum wsel_gslb_method {
    WSEL_GSLB_ROUND_ROBIN = 0,
    WSEL_GSLB_RATIO,
    WSEL_GSLB_GLOBAL_AVAILABILITY,
    WSEL_GSLB_TOPOLOGY,
    WSEL_GSLB_STATIC_PERSISTENCE,
    WSEL_GSLB_RANDOM,
    WSEL_GSLB_DROP_PACKET,
    WSEL_GSLB_RETURN_TO_DNS,
    WSEL_GSLB_FALLBACK_IP,
    WSEL_GSLB_NONE,
    WSEL_GSLB_PACKET_RATE,
    WSEL_GSLB_VS_CAPACITY,
    WSEL_GSLB_VS_SCORE,
    WSEL_GSLB_CPU,
    WSEL_GSLB_KBPS,
    WSEL_GSLB_LEAST_CONNECTIONS,
    WSEL_GSLB_RTT,
    WSEL_GSLB_COMPLETION_RATE,
    WSEL_GSLB_HOPS,
    WSEL_GSLB_QOS,
    WSEL_GSLB_METHOD_COUNT_
} wsel_gslb_method;

/* Metric inputs (doc/gslb.md §3), in a fixed order. */
typedef enum wsel_gslb_metric {
    WSEL_GSLB_M_RTT = 0,       /* rtt_us          lower is better (path) */
    WSEL_GSLB_M_COMPLETION,    /* completion_rate higher (path) */
    WSEL_GSLB_M_HOPS,          /* hops            lower (path) */
    WSEL_GSLB_M_CPU,           /* cpu_pct         lower (srv) */
    WSEL_GSLB_M_KBPS,          /* kbps            lower (srv) */
    WSEL_GSLB_M_CONNECTIONS,   /* connections     lower (srv) */
    WSEL_GSLB_M_PPS,           /* pps             lower (srv) */
    WSEL_GSLB_M_VS_CAPACITY,   /* vs_capacity     higher (srv) */
    WSEL_GSLB_M_VS_SCORE,      /* vs_score        higher (srv) */
    WSEL_GSLB_M_LINK_CAPACITY, /* link_capacity   higher (link) */
    WSEL_GSLB_METRIC_COUNT_
} wsel_gslb_metric;

typedef enum wsel_gslb_kind {
    WSEL_GSLB_KIND_STATIC,   /* no measurements */
    WSEL_GSLB_KIND_TERMINAL, /* drop-packet, return-to-dns, fallback-ip */
    WSEL_GSLB_KIND_ROUTING,  /* none */
    WSEL_GSLB_KIND_SRV,      /* server-side statistics */
    WSEL_GSLB_KIND_PATH      /* path probes to the LDNS (QoS: path + srv + link) */
} wsel_gslb_kind;

/* Method facts (doc/gslb.md §2). `token` is the tmsh spelling. */
typedef struct wsel_gslb_method_info {
    const char *token, *name;
    wsel_gslb_kind kind;
    bool at_wideip, at_preferred, at_alternate, at_fallback;
    bool dynamic_ratio;      /* one of the 8 modes dynamic-ratio applies to */
    int metric;              /* wsel_gslb_metric the method ranks by, -1 if none (QoS: -1) */
    bool higher_better;
    const char *fails;       /* when it fails, one line */
} wsel_gslb_method_info;

/* The facts of method m; NULL when m is not a method. */
WSEL_API const wsel_gslb_method_info *wsel_gslb_method_get(wsel_gslb_method m);
/* The method whose token is `token`; -1 if none (or token NULL). */
WSEL_API int wsel_gslb_method_find(const char *token);
/* The inputs' key of metric m ("rtt_us", "cpu_pct", ...; doc/gslb.md §3); "?" when m is
 * not a metric. */
WSEL_API const char *wsel_gslb_metric_key(wsel_gslb_metric m);

typedef struct wsel_gslb_pos {
    unsigned line, col;
} wsel_gslb_pos;

typedef struct wsel_gslb_addr {
    uint8_t family;  /* 0 unset, 4, 6 */
    uint8_t bytes[16];
} wsel_gslb_addr;

/* Parses an IPv4/IPv6 address; false if it is neither. */
WSEL_API bool wsel_gslb_addr_parse(const char *text, wsel_gslb_addr *out);
/* Formats an address (inet_ntop form); "" when unset. */
WSEL_API const char *wsel_gslb_addr_str(const wsel_gslb_addr *a, char *buf, size_t len);

/* ---- model ---------------------------------------------------------------------- */

/* The record type of a pool or wide IP (`gtm pool a|aaaa`, `gtm wideip a|aaaa`) and of a
 * query. Each type has its own name space (doc/gslb.md §1): an A and an AAAA wide IP (or
 * pool) of one name are two objects. */
typedef enum wsel_gslb_type { WSEL_GSLB_TYPE_A = 0, WSEL_GSLB_TYPE_AAAA, WSEL_GSLB_TYPE_COUNT_ } wsel_gslb_type;

/* "A", "AAAA"; "?" when t is not a type. */
WSEL_API const char *wsel_gslb_type_name(wsel_gslb_type t);
/* The type named by text ("A", "AAAA", any case); -1 if none (or text NULL). */
WSEL_API int wsel_gslb_type_find(const char *text);

typedef struct wsel_gslb_vs {
    char *name;            /* as written in virtual-servers */
    size_t server;         /* index into cfg->servers */
    wsel_gslb_addr addr;   /* destination address: the answer */
    unsigned port;
    bool enabled;
    size_t n_depends;
    char **depends_text;   /* SERVER:VS as written */
    long *depends;         /* vs index, -1 unresolved (lint G013) */
    wsel_gslb_pos pos;
    char *monitor;         /* the monitor rule as written (tokens joined by one space), NULL if none */
} wsel_gslb_vs;

typedef struct wsel_gslb_server {
    char *name;            /* full path */
    char *datacenter;      /* NULL if unset */
    char *product;         /* NULL if unset */
    bool enabled;
    size_t first_vs, n_vs; /* range in cfg->vs */
    wsel_gslb_pos pos;
    char *monitor;         /* the monitor rule as written (tokens joined by one space), NULL if none */
} wsel_gslb_server;

typedef struct wsel_gslb_member {
    char *key;             /* SERVER:VS as written */
    long vs;               /* index into cfg->vs, -1 unresolved (lint G013) */
    unsigned order, ratio;
    bool enabled;
    bool order_written, ratio_written;
    size_t text_index;     /* position in the members block */
    wsel_gslb_pos pos;
    char *monitor;         /* the monitor rule as written (tokens joined by one space), NULL if none */
    bool wrong_family;     /* its VS's address is not of its pool's type (IPv4 in an AAAA
                              pool, IPv6 in an A pool): never a candidate */
} wsel_gslb_member;

/* Which attributes a pool or wide IP wrote (bit = attribute id); the others hold
 * their defaults and the explainer tags them "(default)". */
enum {
    WSEL_GSLB_P_PREFERRED = 1u << 0, WSEL_GSLB_P_ALTERNATE = 1u << 1,
    WSEL_GSLB_P_FALLBACK = 1u << 2, WSEL_GSLB_P_FALLBACK_IP = 1u << 3,
    WSEL_GSLB_P_VERIFY = 1u << 4, WSEL_GSLB_P_DYNRATIO = 1u << 5,
    WSEL_GSLB_P_MAXANS = 1u << 6, WSEL_GSLB_P_TTL = 1u << 7, WSEL_GSLB_P_QOS = 1u << 8,
    WSEL_GSLB_P_ENABLED = 1u << 9, WSEL_GSLB_P_MANUAL = 1u << 10,
    WSEL_GSLB_P_MINUP = 1u << 11, WSEL_GSLB_P_MINUPV = 1u << 12
};
enum {
    WSEL_GSLB_W_LBMODE = 1u << 0, WSEL_GSLB_W_PERSIST = 1u << 1, WSEL_GSLB_W_TTLP = 1u << 2,
    WSEL_GSLB_W_CIDR4 = 1u << 3, WSEL_GSLB_W_CIDR6 = 1u << 4, WSEL_GSLB_W_LRP = 1u << 5,
    WSEL_GSLB_W_RCODE_ON = 1u << 6, WSEL_GSLB_W_RCODE = 1u << 7, WSEL_GSLB_W_RCODE_TTL = 1u << 8,
    WSEL_GSLB_W_LOG = 1u << 9, WSEL_GSLB_W_ECS = 1u << 10, WSEL_GSLB_W_ENABLED = 1u << 11
};

typedef enum wsel_gslb_minup { WSEL_GSLB_MINUP_OFF, WSEL_GSLB_MINUP_AT_LEAST, WSEL_GSLB_MINUP_PERCENT } wsel_gslb_minup;

/* QoS coefficients in doc/gslb.md §2's factor order. */
enum { WSEL_GSLB_QOS_RTT, WSEL_GSLB_QOS_LCS, WSEL_GSLB_QOS_HIT, WSEL_GSLB_QOS_KBPS,
       WSEL_GSLB_QOS_PPS, WSEL_GSLB_QOS_HOPS, WSEL_GSLB_QOS_TOPOLOGY, WSEL_GSLB_QOS_VSCAP,
       WSEL_GSLB_QOS_VSSCORE, WSEL_GSLB_QOS_COUNT_ };

typedef struct wsel_gslb_pool {
    char *name;
    wsel_gslb_method mode[3];     /* preferred, alternate, fallback */
    wsel_gslb_addr fallback_ip;   /* family 0 = unset (::, any, any6, 0.0.0.0: A-4) */
    bool verify, dynamic_ratio, enabled, manual_resume;
    unsigned max_answers, ttl;
    unsigned qos[WSEL_GSLB_QOS_COUNT_];
    wsel_gslb_minup min_up_mode;
    unsigned min_up_value;
    size_t n_members;
    wsel_gslb_member *members;    /* sorted: member-order, then text order */
    unsigned written;             /* WSEL_GSLB_P_* */
    unsigned qos_written;         /* bit i: qos coefficient i written */
    wsel_gslb_pos pos;
    wsel_gslb_pos mode_pos[3];    /* where each step's attribute is written; {0, 0}: not */
    char *monitor;                /* the monitor rule as written (tokens joined by one space), NULL if none */
    wsel_gslb_type type;          /* gtm pool a | aaaa */
    char *key;                    /* AAAA: "aaaa NAME", its name in the inputs and the state
                                     (doc/gslb.md §3, A-45); NULL for A (the name itself) */
} wsel_gslb_pool;

typedef struct wsel_gslb_wpool {
    char *name;
    long pool;                    /* index into cfg->pools, -1 unresolved */
    unsigned order, ratio;
    bool ratio_written, order_written;
    size_t text_index;
    wsel_gslb_pos pos;
} wsel_gslb_wpool;

/* Decision-log flags (doc/gslb.md §7). RESULT is always on. */
enum {
    WSEL_GSLB_LOG_POOL_SELECTION = 1u << 0,
    WSEL_GSLB_LOG_POOL_TRAVERSAL = 1u << 1,
    WSEL_GSLB_LOG_MEMBER_SELECTION = 1u << 2,
    WSEL_GSLB_LOG_MEMBER_TRAVERSAL = 1u << 3,
    WSEL_GSLB_LOG_RESULT = 1u << 4,
    WSEL_GSLB_LOG_ALL = 0x1f
};

typedef struct wsel_gslb_wideip {
    char *name;
    wsel_gslb_method lb_mode;     /* round-robin, ratio, topology, global-availability, random */
    size_t n_pools;
    wsel_gslb_wpool *pools;       /* sorted: order, then text order */
    bool persistence, rcode_response, ecs, enabled, has_rules;
    unsigned ttl_persistence, cidr4, cidr6;
    char *lrp_type, *lrp_name;    /* NULL when none */
    long lrp;                     /* index into cfg->pools, -1 when none or unresolved */
    wsel_gslb_pos lrp_pos;
    unsigned rcode;               /* DNS rcode number */
    unsigned rcode_ttl;
    unsigned log_flags;           /* WSEL_GSLB_LOG_* configured (without RESULT); none by default */
    unsigned written;             /* WSEL_GSLB_W_* */
    wsel_gslb_pos pos;
    size_t n_aliases;
    char **aliases;               /* `aliases` as written, text order: more query names */
    wsel_gslb_pos *alias_pos;
    wsel_gslb_type type;          /* gtm wideip a | aaaa: its pools are pools of its type */
    char *key;                    /* AAAA: "aaaa NAME" (as wsel_gslb_pool.key); NULL for A */
} wsel_gslb_wideip;

/* Topology record sides and region entries: [not] TYPE VALUE. */
typedef enum wsel_gslb_topo_type {
    WSEL_GSLB_T_SUBNET, WSEL_GSLB_T_REGION, WSEL_GSLB_T_CONTINENT, WSEL_GSLB_T_COUNTRY,
    WSEL_GSLB_T_STATE, WSEL_GSLB_T_ISP, WSEL_GSLB_T_GEOIP_ISP, WSEL_GSLB_T_POOL,
    WSEL_GSLB_T_DATACENTER, WSEL_GSLB_T_COUNT_
} wsel_gslb_topo_type;

typedef struct wsel_gslb_cond {
    bool negate;
    wsel_gslb_topo_type type;
    char *value;
    wsel_gslb_addr net;            /* subnet: network */
    unsigned prefix;               /* subnet: prefix length */
    long ref;                      /* region: index into cfg->regions; pool: into pools (the
                                      A pool of that name); -1 */
    long ref_aaaa;                 /* pool: the AAAA pool of that name; -1 (a pool side names
                                      the pools of that name of either type, A-44) */
} wsel_gslb_cond;

typedef struct wsel_gslb_region {
    char *name;
    size_t n_entries;
    wsel_gslb_cond *entries;
    wsel_gslb_pos pos;
} wsel_gslb_region;

typedef struct wsel_gslb_topo {
    wsel_gslb_cond ldns, server;
    unsigned order, score;
    size_t text_index;
    wsel_gslb_pos pos;
} wsel_gslb_topo;

/* Something the reader kept but does not interpret: lint G030. */
typedef struct wsel_gslb_unknown {
    char *object;   /* "gtm pool a /Common/p" or the statement head */
    char *what;     /* the attribute, or "statement" */
    wsel_gslb_pos pos;
} wsel_gslb_unknown;

typedef struct wsel_gslb_config {
    char *file;
    char *version;                 /* from "#TMSH-VERSION: x", or NULL */
    size_t n_servers, n_vs, n_pools, n_wideips, n_regions, n_topo, n_unknown;
    wsel_gslb_server *servers;
    wsel_gslb_vs *vs;
    wsel_gslb_pool *pools;
    wsel_gslb_wideip *wideips;
    wsel_gslb_region *regions;
    wsel_gslb_topo *topo;          /* evaluation order */
    wsel_gslb_unknown *unknown;
    bool longest_match;
    unsigned sp_cidr4, sp_cidr6;
    unsigned global_written;       /* 1: longest-match, 2: cidr4, 4: cidr6 */
    size_t skipped_statements;     /* unknown top-level statements (counted only) */
    struct wsel_gslb_name_index *index; /* the reader's hash index of names (opaque) */
} wsel_gslb_config;

/* Reads a config from a file or a buffer (`name` labels errors). On failure fills err
 * (file, line, column, object in err->object, token in err->key) and sets *out NULL. */
WSEL_API int wsel_gslb_config_load_file(const char *path, wsel_gslb_config **out,
                                        wsel_error *err);
WSEL_API int wsel_gslb_config_load_buffer(const char *name, const char *data, size_t len,
                                          wsel_gslb_config **out, wsel_error *err);
WSEL_API void wsel_gslb_config_free(wsel_gslb_config *cfg);
/* Index of the A wide IP named `name`: its full path, or a name a client queries
 * (case-insensitive, the trailing dot ignored, /Common/ assumed): a wide IP's name, then
 * one of its aliases, then the most specific wildcard name or alias matching it
 * (doc/gslb.md §1, A-41); -1 if none. wsel_gslb_find_wideip_type(cfg, name,
 * WSEL_GSLB_TYPE_A). */
WSEL_API long wsel_gslb_find_wideip(const wsel_gslb_config *cfg, const char *name);
/* The same among the wide IPs of type `type` only (each type its own name space): what a
 * query of that type for `name` reaches; -1 if none (or type not a type). */
WSEL_API long wsel_gslb_find_wideip_type(const wsel_gslb_config *cfg, const char *name,
                                         wsel_gslb_type type);

/* ---- lint ------------------------------------------------------------------------ */

typedef enum wsel_gslb_severity { WSEL_GSLB_INFO, WSEL_GSLB_WARNING, WSEL_GSLB_ERROR } wsel_gslb_severity;

typedef struct wsel_gslb_finding {
    unsigned code;                 /* 1..36 for G001..G036 */
    wsel_gslb_severity severity;
    char object[300];              /* "gtm pool a /Common/p_dc2" */
    wsel_gslb_pos pos;
    char message[400];
} wsel_gslb_finding;

/* Runs every check; *out is an array of *n findings the caller releases with wsel_free()
 * (free() works too). Findings are ordered by object (servers, pools, wide IPs, other)
 * then code. cfg, out or n NULL: WSEL_E_ARG. */
WSEL_API int wsel_gslb_lint(const wsel_gslb_config *cfg, wsel_gslb_finding **out, size_t *n,
                            wsel_error *err);

/* ---- inputs, state, resolve -------------------------------------------------------- */

typedef struct wsel_gslb_inputs wsel_gslb_inputs;
typedef struct wsel_gslb_state wsel_gslb_state;

/* Reads the inputs JSON of doc/gslb.md §3 against a config (member, pool and wide-IP
 * names must name configured objects). Errors give the file, and for a fault of the text
 * its line and column: WSEL_E_SYNTAX (not JSON, or an unknown key), WSEL_E_DUPKEY (a key
 * repeated in one object), WSEL_E_TYPE (a value of the wrong JSON type, a required key
 * missing), WSEL_E_RANGE (a value outside its range: a number, an address, a query type),
 * WSEL_E_REFERENCE (a name that names nothing configured), WSEL_E_LIMIT (too large or too
 * deep); every one but a syntax error starts its message with the JSON path of the value
 * at fault ($.members["s1:v9"]) and has it in err->path, the offending key in err->key.
 * WSEL_E_NOMEM without a position; WSEL_E_IO (files) as the file cannot be read. */
WSEL_API int wsel_gslb_inputs_load_file(const wsel_gslb_config *cfg, const char *path,
                                        wsel_gslb_inputs **out, wsel_error *err);
WSEL_API int wsel_gslb_inputs_load_buffer(const wsel_gslb_config *cfg, const char *name,
                                          const char *data, size_t len,
                                          wsel_gslb_inputs **out, wsel_error *err);
/* Empty inputs: every member down, no metrics, LDNS unset (for tests and callers). */
WSEL_API int wsel_gslb_inputs_new(const wsel_gslb_config *cfg, wsel_gslb_inputs **out,
                                  wsel_error *err);
WSEL_API void wsel_gslb_inputs_free(wsel_gslb_inputs *in);

/* The metrics step `step` (0 preferred, 1 alternate, 2 fallback) of pool p reads: bit m
 * for wsel_gslb_metric m (QoS: every factor with a coefficient > 0, the topology score
 * aside); 0 for a method that reads none, or bad arguments. */
WSEL_API unsigned wsel_gslb_step_metrics(const wsel_gslb_pool *p, int step);
/* Whether the inputs give metric m of virtual server vs (not null, not absent), and its
 * value into *value (may be NULL). False when in is NULL or an index is out of range. */
WSEL_API bool wsel_gslb_inputs_metric(const wsel_gslb_inputs *in, size_t vs, wsel_gslb_metric m,
                                      double *value);

/* Programmatic setters (the JSON reader uses them too). vs = index into cfg->vs. Each
 * does nothing when `in` is NULL or an index is out of range. */
WSEL_API void wsel_gslb_inputs_set_up(wsel_gslb_inputs *in, size_t vs, bool up, bool limit_exceeded);
WSEL_API void wsel_gslb_inputs_set_metric(wsel_gslb_inputs *in, size_t vs, wsel_gslb_metric m,
                                          double v);
WSEL_API void wsel_gslb_inputs_set_pool(wsel_gslb_inputs *in, size_t pool, bool held_down,
                                        bool limit_exceeded);
WSEL_API void wsel_gslb_inputs_set_ldns(wsel_gslb_inputs *in, const wsel_gslb_addr *ldns,
                                        const wsel_gslb_addr *ecs);
WSEL_API void wsel_gslb_inputs_set_now(wsel_gslb_inputs *in, uint64_t now);
/* The query name of the inputs ("" if none given; NULL when in is NULL). */
WSEL_API const char *wsel_gslb_inputs_qname(const wsel_gslb_inputs *in);
/* The query type of the inputs (`query.type`; A when none given or in is NULL). */
WSEL_API wsel_gslb_type wsel_gslb_inputs_qtype(const wsel_gslb_inputs *in);

/* Method state + persistence table, initialised from the inputs' "state",
 * "persistence" and "random". */
WSEL_API int wsel_gslb_state_new(const wsel_gslb_config *cfg, const wsel_gslb_inputs *in,
                                 wsel_gslb_state **out, wsel_error *err);
WSEL_API void wsel_gslb_state_free(wsel_gslb_state *st);
/* The state as compact JSON text ({"persistence", "pool", "random_used", "wideip"},
 * every object's keys sorted), the shape the inputs take under "state" and
 * "persistence". The caller releases it with wsel_free(). NULL when st is NULL or memory
 * runs out (never a text with entries left out). */
WSEL_API char *wsel_gslb_state_json(const wsel_gslb_state *st);

typedef enum wsel_gslb_outcome_kind {
    WSEL_GSLB_O_ANSWER, WSEL_GSLB_O_FALLBACK_IP, WSEL_GSLB_O_EMPTY, WSEL_GSLB_O_DROP,
    WSEL_GSLB_O_RETURN_TO_DNS, WSEL_GSLB_O_BIND_AGGREGATE, WSEL_GSLB_O_RCODE
} wsel_gslb_outcome_kind;

typedef enum wsel_gslb_step {
    WSEL_GSLB_STEP_PREFERRED = 0, WSEL_GSLB_STEP_ALTERNATE, WSEL_GSLB_STEP_FALLBACK,
    WSEL_GSLB_STEP_PERSIST, WSEL_GSLB_STEP_LAST_RESORT, WSEL_GSLB_STEP_NONE
} wsel_gslb_step;

#define WSEL_GSLB_MAX_ADDRS 512u

typedef struct wsel_gslb_outcome {
    wsel_gslb_outcome_kind kind;
    long wideip;
    long pool;                  /* -1 when none */
    wsel_gslb_step step;        /* chain step; PERSIST; LAST_RESORT when the last-resort pool answered */
    wsel_gslb_step pool_step;   /* the pool's own step (preferred/alternate/fallback), NONE if n/a */
    int method;                 /* wsel_gslb_method, -1 when none */
    unsigned ttl;               /* ANSWER, FALLBACK_IP */
    unsigned rcode, soa_ttl;    /* RCODE */
    const char *reason;         /* RETURN_TO_DNS: wideip-disabled, no-more-pools, return-to-dns */
    size_t n_addrs;
    long members[WSEL_GSLB_MAX_ADDRS]; /* ANSWER: member indexes into the pool; -1 otherwise */
    wsel_gslb_addr addrs[WSEL_GSLB_MAX_ADDRS];
} wsel_gslb_outcome;

WSEL_API const char *wsel_gslb_outcome_name(wsel_gslb_outcome_kind k); /* "answer", "fallback-ip", ... */
WSEL_API const char *wsel_gslb_step_name(wsel_gslb_step s);            /* "preferred", ... */
WSEL_API const char *wsel_gslb_rcode_name(unsigned rcode);

/* ---- the decision log (doc/gslb.md §7) ----
 * The engine hands each event to the caller as a value: what happened (kind, result),
 * to what (wide IP, pool, step, member: indexes into the config), by which method, why
 * (reason) and the numbers behind it. wsel_gslb_event_format renders an event as the
 * text line of doc/gslb.md §7; a caller may render it any other way from the fields. */

/* What an event is about. Its flag (wsel_gslb_log.flags) is 1u << kind: the
 * WSEL_GSLB_LOG_* above. */
typedef enum wsel_gslb_event_kind {
    WSEL_GSLB_EV_POOL_SELECTION = 0, /* "pool-selection": the wide IP picked a pool (or none) */
    WSEL_GSLB_EV_POOL_TRAVERSAL,     /* "pool-traversal": a pool skipped, selected or done */
    WSEL_GSLB_EV_MEMBER_SELECTION,   /* "pool-member-selection": a step picked or passed on */
    WSEL_GSLB_EV_MEMBER_TRAVERSAL,   /* "pool-member-traversal": a candidate, or a failed step */
    WSEL_GSLB_EV_RESULT              /* "result": the outcome, the last event of every decision */
} wsel_gslb_event_kind;

/* What became of the pool or member a traversal event is about. */
typedef enum wsel_gslb_result {
    WSEL_GSLB_R_NONE = 0,   /* (selection and result events) */
    WSEL_GSLB_R_SKIPPED,    /* "skipped" */
    WSEL_GSLB_R_SELECTED,   /* "selected": the pool runs next */
    WSEL_GSLB_R_ELIGIBLE,   /* "eligible": the member is a candidate of the step */
    WSEL_GSLB_R_TERMINAL,   /* "terminal": the pool's chain ended the decision */
    WSEL_GSLB_R_NEXT_POOL,  /* "next-pool": the pool passed the query on */
    WSEL_GSLB_R_FAILED_STEP, /* "failed-step": the step's method found nothing */
    WSEL_GSLB_R_MATCHED     /* "matched": a topology record matched the candidate (RECORD) */
} wsel_gslb_result;

/* Why. The text each renders as (after "reason=") is in quotes; NUMBERS name the event
 * fields it shows. */
typedef enum wsel_gslb_reason {
    WSEL_GSLB_WHY_NONE = 0,              /* "" */
    /* pool selection */
    WSEL_GSLB_WHY_PERSIST,               /* "persist" key=KEY/PREFIX (method persistence) */
    WSEL_GSLB_WHY_SINGLE_POOL,           /* "single-pool" (pool-lb-mode not consulted) */
    WSEL_GSLB_WHY_FIRST_AVAILABLE,       /* "first-available" (also a member pick) */
    WSEL_GSLB_WHY_RR_NEXT,               /* "rr-next" (also a member pick) */
    WSEL_GSLB_WHY_RATIO,                 /* "ratio" [w=NUMBER] cur=CUR (w: member picks) */
    WSEL_GSLB_WHY_RANDOM,                /* "random" word=NUMBER */
    WSEL_GSLB_WHY_TOPOLOGY,              /* "topology" score=VALUE */
    WSEL_GSLB_WHY_NO_POOL_WITH_RATIO,    /* "no-pool-with-ratio" */
    WSEL_GSLB_WHY_NO_POOL_SCORES,        /* "no-pool-scores-above-0" */
    WSEL_GSLB_WHY_LAST_RESORT,           /* "last-resort" (method last-resort) */
    /* availability of pools (UP/OF) and members */
    WSEL_GSLB_WHY_AVAILABLE,             /* "available", pools "available(UP/OF up)" */
    WSEL_GSLB_WHY_UNAVAILABLE,           /* "unavailable(UP/OF up)" */
    WSEL_GSLB_WHY_MIN_MEMBERS,           /* "min-members(UP/OF up)" */
    WSEL_GSLB_WHY_UNRESOLVED,            /* "unresolved" */
    WSEL_GSLB_WHY_DISABLED,              /* "disabled" */
    WSEL_GSLB_WHY_HELD_DOWN,             /* "held-down" */
    WSEL_GSLB_WHY_LIMIT,                 /* "limit" */
    WSEL_GSLB_WHY_DOWN,                  /* "down" */
    WSEL_GSLB_WHY_DEPENDENCY,            /* "dependency:SERVER:VS" (DEPENDS), "dependency:cycle" */
    WSEL_GSLB_WHY_FALLBACK_UNVERIFIED,   /* "fallback-unverified" */
    /* the end of a pool's turn */
    WSEL_GSLB_WHY_OUTCOME,               /* the outcome's name ("answer", "drop", ...) */
    WSEL_GSLB_WHY_NONE_CASCADE,          /* "none-cascade" */
    WSEL_GSLB_WHY_ALREADY_TRIED,         /* "already-tried" (the last-resort pool) */
    /* a pool step */
    WSEL_GSLB_WHY_SKIP_TO_FALLBACK,      /* "skip-to-fallback" (none as alternate) */
    WSEL_GSLB_WHY_NEXT_POOL,             /* "next-pool" (none) */
    WSEL_GSLB_WHY_TERMINAL,              /* "terminal" (drop-packet, return-to-dns, fallback-ip) */
    WSEL_GSLB_WHY_FALLBACK_FAILED,       /* "fallback-failed-next-pool" */
    WSEL_GSLB_WHY_HASH_RANK,             /* "hash-rank=NUMBER" (static persistence) */
    WSEL_GSLB_WHY_SCORE,                 /* "score=NUMBER" (topology) */
    WSEL_GSLB_WHY_DYNAMIC_RATIO,         /* "dynamic-ratio" w=NUMBER */
    WSEL_GSLB_WHY_BEST,                  /* "best" METRIC=VALUE, or qos=VALUE (metric -1) */
    /* candidates and failed steps */
    WSEL_GSLB_WHY_RATIO_0,               /* "ratio-0" */
    WSEL_GSLB_WHY_SCORE_0,               /* "score-0" */
    WSEL_GSLB_WHY_NO_METRIC,             /* "no-metric", a candidate "no-metric:METRIC" */
    WSEL_GSLB_WHY_NO_ELIGIBLE_MEMBER,    /* "no-eligible-member" */
    WSEL_GSLB_WHY_NO_ELIGIBLE_WITH_RATIO,/* "no-eligible-member-with-ratio" */
    WSEL_GSLB_WHY_NO_LDNS,               /* "no-ldns" */
    WSEL_GSLB_WHY_NO_MEMBER_SCORES,      /* "no-member-scores-above-0" */
    WSEL_GSLB_WHY_NO_POSITIVE_WEIGHT,    /* "no-positive-weight" */
    /* topology: one record matching a candidate pool (pool-selection events) or member
     * (pool-member-traversal), every one in evaluation order, before the pick */
    WSEL_GSLB_WHY_RECORD,                /* "record" line=LINE score=NUMBER, then " used"
                                            (the first: the candidate's score) or
                                            " shadowed" (a later one, not used) */
    WSEL_GSLB_WHY_WRONG_FAMILY,          /* "wrong-family": the member's VS address is not of
                                            its pool's type */
    WSEL_GSLB_WHY_COUNT_
} wsel_gslb_reason;

/* One event. Fields that do not apply hold -1 (indexes, method, metric), 0 or false. */
typedef struct wsel_gslb_event {
    wsel_gslb_event_kind kind;
    long wideip;              /* the query's wide IP: index into cfg->wideips */
    long pool;                /* index into cfg->pools; -1: none, or an unresolved entry of
                                 the wide IP's pools (pool traversal: at `pos`) */
    long pos;                 /* pool traversal: position in the wide IP's pools; -1 the
                                 last-resort pool */
    wsel_gslb_step step;      /* member events: the pool's step; result: the outcome's */
    int method;               /* the wsel_gslb_method that decided; -1 none (a pool
                                 selection by persistence or as the last resort) */
    long member;              /* member events: index into the pool's members */
    wsel_gslb_result result;
    wsel_gslb_reason reason;
    size_t up, of;            /* pool availability: members available, of all */
    unsigned long long number; /* a ratio weight, the random word, a hash rank, a score */
    long long cur;            /* RATIO: the pick's smooth-WRR counter after the pick */
    double value;             /* TOPOLOGY: the pool's score; BEST: the best value */
    int metric;               /* BEST, NO_METRIC: the wsel_gslb_metric; -1 QoS or none */
    long depends;             /* DEPENDENCY: index into the member VS's depends-on (the
                                 failed entry), -1 the entry closing a cycle; else -1 */
    bool tie;                 /* SCORE, BEST: tied values, broken by round robin */
    bool unverified;          /* member selection: a fallback with verify disabled */
    wsel_gslb_addr ldns;      /* pool selection: the LDNS (family 0: none) */
    wsel_gslb_addr key;       /* PERSIST: the record's key, `prefix` bits */
    unsigned prefix;
    wsel_gslb_addr addr;      /* member selection: the answer's first address */
    size_t n_answers;         /* member selection: addresses in the answer */
    wsel_gslb_outcome_kind outcome; /* pool traversal (OUTCOME) and result: the outcome */
    const wsel_gslb_outcome *answer; /* result: the outcome being returned (the resolve's
                                         `out`: valid while that is) */
    long record;              /* RECORD: index into cfg->topo (its line: cfg->topo[i].pos) */
    bool shadowed;            /* RECORD: an earlier record gave the candidate's score */
} wsel_gslb_event;

/* Log sink: called with each event whose flag is in `flags` (the result always), in the
 * order of the decision. `ev` is valid during the call; its indexes, for as long as the
 * config. */
typedef void (*wsel_gslb_log_fn)(void *ctx, const wsel_gslb_event *ev);

typedef struct wsel_gslb_log {
    unsigned flags;
    wsel_gslb_log_fn fn;
    void *ctx;
} wsel_gslb_log;

/* The event as one line of doc/gslb.md §7, without newline: "pool-selection
 * wideip=/Common/w ldns=192.0.2.1 method=round-robin pool=/Common/p reason=rr-next".
 * Names come from cfg (the config the event's resolve ran on) as they are: a caller that
 * shows the line on a terminal escapes it. Written into buf (cut short to fit len,
 * NUL-terminated when len > 0); returns the length of the whole line, like snprintf (0
 * when cfg or ev is NULL). */
WSEL_API size_t wsel_gslb_event_format(const wsel_gslb_config *cfg, const wsel_gslb_event *ev,
                                       char *buf, size_t len);
/* The event's reason as the line shows it after "reason=", without the details that
 * follow it as their own key=value words (cur=, w=, word=, score=, key=, METRIC=, qos=)
 * and without " tie->rr" and " fallback-unverified": "available(2/3 up)", "hash-rank=0",
 * "dependency:s1:v2", "answer"; for the result event, what follows "detail=" (the
 * addresses, "nxdomain soa_ttl=60", the return-to-dns reason, "-"). Written and returned
 * like wsel_gslb_event_format. */
WSEL_API size_t wsel_gslb_event_reason(const wsel_gslb_config *cfg, const wsel_gslb_event *ev,
                                       char *buf, size_t len);
/* The names the line shows for the event's pool ("-" when none; an unresolved entry of a
 * wide IP's pools as written) and method ("persistence", "last-resort" for those pool
 * selections, "-" when none); "?" for an index cfg does not have. NULL arguments: "?". */
WSEL_API const char *wsel_gslb_event_pool(const wsel_gslb_config *cfg, const wsel_gslb_event *ev);
WSEL_API const char *wsel_gslb_event_method(const wsel_gslb_event *ev);
/* The config line of a RECORD event's topology record; 0 when the event names none. */
WSEL_API unsigned wsel_gslb_event_record_line(const wsel_gslb_config *cfg,
                                              const wsel_gslb_event *ev);
/* "pool-selection", ... ("?" for an unknown kind); "skipped", ... ("" for NONE). */
WSEL_API const char *wsel_gslb_event_name(wsel_gslb_event_kind kind);
WSEL_API const char *wsel_gslb_result_name(wsel_gslb_result result);

/* Resolves one query for wide IP `wideip` under `in`, updating `st` (method state,
 * persistence). `log` may be NULL. Deterministic: the same config, inputs and state give
 * the same outcome, log and next state. Allocates only when a new persistence record is
 * added. Fails (WSEL_E_ARG) on bad arguments or when pool-lb-mode random has no random
 * input word left. */
WSEL_API int wsel_gslb_resolve(const wsel_gslb_config *cfg, long wideip,
                               const wsel_gslb_inputs *in, wsel_gslb_state *st,
                               const wsel_gslb_log *log, wsel_gslb_outcome *out,
                               wsel_error *err);

#ifdef __cplusplus
}
#endif
#endif
