/* bin/wsel ring: the scenario file (doc/ring.md section 11, man/wsel.1) and the
 * in-memory resolver it drives. */
#ifndef WSEL_CLI_RING_SCENARIO_H
#define WSEL_CLI_RING_SCENARIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wsel.h"

/* What a name resolves to: SRV if given, else A, else AAAA; or a failure. */
typedef struct rs_name {
    char *name;
    char *fail;                   /* "nxdomain", "servfail", "timeout", or NULL */
    wsel_ring_entry *a, *aaaa, *srv;
    size_t na, naaaa, nsrv;
} rs_name;

typedef enum rs_opkind {
    RS_ADD, RS_REMOVE, RS_STATUS, RS_HOSTSTATUS, RS_DNS, RS_ADVANCE, RS_SNAPSHOT, RS_PEERS,
    RS_RR, RS_RETRY
} rs_opkind;

typedef struct rs_op {
    rs_opkind kind;
    char path[32];                /* "$.ops[3]" */
    char *name, *ip, *hostname;
    uint32_t port, weight;
    bool available;
    rs_name dns;                  /* RS_DNS: the name's new answer */
    double seconds;
    uint64_t *hashes;             /* RS_PEERS (hashes) */
    double *floats;               /* RS_PEERS (floats) */
    size_t n_keys;
    uint64_t hash;                /* RS_RETRY */
    uint64_t count;               /* RS_RR, RS_RETRY */
} rs_op;

typedef struct rs_scenario {
    wsel_ring_opts opts;          /* dns left to the caller */
    double *order;
    wsel_ring_host_spec *hosts;
    rs_name *names;               /* the resolver's table (changed by dns ops) */
    size_t n_names, cap_names;
    rs_op *ops;
    size_t n_ops;
    void *strings;                /* every string the scenario owns */
} rs_scenario;

/* Reads and validates a scenario file. On error prints one line to stderr
 * ("FILE: $.path: message", or "FILE:LINE:COL: message" for JSON syntax) and returns 1
 * (invalid scenario), 2 (unreadable file, or not a regular file) or 3 (out of memory). */
int rs_load(const char *cmd, const char *path, rs_scenario *sc);
void rs_free(rs_scenario *sc);

/* The resolver over sc->names (ctx = the scenario). */
int rs_resolve(void *ctx, const char *name, wsel_ring_record *out);
int rs_toip(void *ctx, const char *name, uint16_t port, bool cache_only, char *ip, size_t iplen,
            uint16_t *port_out, char *msg, size_t msglen);
/* Replaces what `d->name` resolves to (shares d's arrays). -1 when out of memory. */
int rs_set_name(rs_scenario *sc, const rs_name *d);

#endif
