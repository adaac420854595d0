/* The loaded config: the resource model built from a parse tree. */
#ifndef WSEL_CORE_MODEL_H
#define WSEL_CORE_MODEL_H

#include "weighted_internal.h"
#include "weighted_tree.h"

/* A service type of gdnsd's `static` monitoring plugin: its state comes from its
 * definition (`state`, default UP; `ttl`, default 2^28 - 1), the same for every address
 * or CNAME it watches (doc/weighted.md §6.1). */
typedef struct wsel__static_svc {
    const char *name;
    bool up;
    uint32_t ttl;
} wsel__static_svc;

struct wsel_config {
    wsel__arena arena;          /* owns everything below */
    wsel_resource *resources;
    size_t n_resources;
    const wsel_set **sets;      /* by id */
    size_t n_sets;
    bool whole;
    bool top_multi;
    double top_up_thresh;
    struct wsel__warning *warnings, *last_warning; /* in the arena, in config order */
    size_t n_warnings;
    wsel__static_svc *statics;  /* every `static` service type defined (whole configs) */
    size_t n_statics;
};

typedef struct wsel__warning {
    wsel_error w;
    struct wsel__warning *next;
} wsel__warning;

/* What gdnsd's numeric getaddrinfo reads from NUL-terminated `s` for `family`
 * (AF_INET, AF_INET6): true with the socket address in *out. */
struct sockaddr_storage;
bool wsel__numeric_host(const char *s, int family, struct sockaddr_storage *out);
/* 4 or 6 when s[0..len) is an IPv4 / IPv6 address (binary form in addr), else 0. */
int wsel__ip_family(const char *s, size_t len, uint8_t addr[16]);
/* Domain names read from zone-file text, as gdnsd reads a CNAME (weighted_model_check.c):
 * the wire form (at most 255 bytes) and the presentation text gdnsd answers with. */
#define WSEL__DNAME_WIRE 256
#define WSEL__DNAME_TEXT (4 * 255 + 2)
size_t wsel__dname_wire(const char *s, size_t len, uint8_t wire[WSEL__DNAME_WIRE],
                        const char **why);
size_t wsel__dname_text(const uint8_t *wire, char out[WSEL__DNAME_TEXT]);
bool wsel__dname_in_zone(const uint8_t *name, size_t nlen, const uint8_t *zone, size_t zlen);

/* The definition of service type `name` when it uses the `static` plugin, else NULL. */
const wsel__static_svc *wsel__config_static(const wsel_config *cfg, const char *name);

/* Builds the model of `root` into cfg (whose arena receives all of it). */
int wsel__model_build(wsel_config *cfg, const wsel__node *root, wsel_input input,
                      wsel_error *err);

#endif
