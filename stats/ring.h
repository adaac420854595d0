/* The ring balancer's statistics (doc/ring.md section 14): balance of the slot counts
 * against the weights, movement on changes, realistic key populations hashed as Kong
 * hashes them, round-robin counts. Each family checks the engine against an independent
 * model of the apportionment (ring_model.c, written from doc/ring.md section 5, never
 * calling the engine's redistribution). */
#ifndef WSEL_STATS_RING_H
#define WSEL_STATS_RING_H

#include "run.h"

/* Runs every ring family; `gen` scales the number of generated configurations. */
void run_ring(const run_opts *o, unsigned gen);

/* The families (ring_balance.c, ring_movement.c, ring_keys.c). */
void ring_balance_run(const run_opts *o, unsigned configs, bool large);
void ring_movement_run(const run_opts *o, unsigned worlds, unsigned changes);
void ring_keys_run(const run_opts *o, unsigned wheels, uint64_t keys);
void ring_rr_run(const run_opts *o, unsigned configs);
/* ring_keys.c: plot data of two per-address columns (report mode). */
void ring_plot_pair(const run_opts *o, const char *base, const char *title, const char *ylabel,
                    const char *const cols[2], const double *v1, const double *v2, size_t na,
                    const wsel_ring *r);

/* ---- ring_model.c: the independent model ---- */

#define RM_KEY 48

typedef struct rm_addr {
    char key[RM_KEY];      /* "ip:port", as wsel_ring_address gives them */
    uint32_t weight;
    bool gone;             /* removed by this change: weight 0 now, deleted after */
    uint32_t *slots;       /* acquisition order; the last is dropped first */
    uint32_t n, cap;
} rm_addr;

typedef struct rm_host {
    char name[32];
    uint16_t port;
    rm_addr *a;
    size_t n, cap;
} rm_host;

typedef struct ring_model {
    uint32_t N;
    uint32_t *free;        /* the free stack; top = last */
    uint32_t nfree;
    rm_host *h;
    size_t nh, caph;
} ring_model;

/* A model of an empty wheel of n slots with the default order list (computed here from
 * MT19937 via GSL, doc/ring.md section 3). */
void rm_init(ring_model *m, uint32_t n);
void rm_free(ring_model *m);
rm_host *rm_host_add(ring_model *m, const char *name, uint16_t port);
rm_addr *rm_addr_add(rm_host *h, const char *key, uint32_t weight);
/* Section 5's two passes over the current addresses (gone ones at weight 0), then the
 * gone addresses and the hosts left without any are deleted. */
void rm_redistribute(ring_model *m);
size_t rm_count(const ring_model *m);                 /* addresses, in iteration order */
rm_addr *rm_at(const ring_model *m, size_t i);

/* NULL when the ring's wheel is the model's, slot for slot and in acquisition order;
 * else what differs (written to buf). */
const char *rm_compare(const ring_model *m, const wsel_ring *r, char *buf, size_t len);

/* An IP-literal host key "10.x.y.z" for address number i (i < 62500). */
void rm_ip_name(size_t i, char *buf, size_t len);

/* ---- generated configurations (ring_model.c) ---- */

enum { RW_UNIFORM, RW_WIDE, RW_EQUAL, RW_HEAVY, RW_POW2, RW_TIES, RW_KINDS };
extern const char *const ring_weight_kind[RW_KINDS];

typedef struct ring_cfg {
    uint32_t N;
    size_t na;
    uint32_t *w;           /* address i is IP host rm_ip_name(i):80 with weight w[i] */
    int kind;
} ring_cfg;

/* A configuration of the given weight kind: wheel size and address count drawn from rs
 * (up to 65536 slots; up to 1000 addresses when `large`, else up to 64). */
void ring_cfg_gen(ring_cfg *c, int kind, uint64_t *rs, bool large);
void ring_cfg_free(ring_cfg *c);

/* A resolver that fails every name (IP-literal hosts never reach it). */
wsel_ring_dns ring_no_dns(void);
/* Builds the configuration on a ring (addHost in order, one redistribution each) and
 * on the model alike; on failure records a violation in t and returns -1. */
int ring_build(const ring_cfg *c, bool strict, wsel_ring **r, ring_model *m, test *t);

#endif
