/* The GSLB chain's test helpers beyond the system table (tests/kit/gslb.c). */
#ifndef WSEL_KIT_GSLB_H
#define WSEL_KIT_GSLB_H

#include "kit.h"

/* Writes the chain of cfg (servers and their virtual servers, pools, wide IPs) back as
 * bigip_gtm.conf text into b, every name quoted, every attribute the reader recorded as
 * written and no other (so defaults stay defaults). Written independently of the reader:
 * from the model's fields and the syntax in doc/gslb.md. False when cfg holds what this
 * writer does not cover (topology records, regions, global settings, kept unknowns,
 * skipped statements, rules, a version line): those configs are not round-tripped. */
bool wsel_kit_gslb_render(const wsel_gslb_config *cfg, wsel_kit_sbuf *b);

/* NULL when a and b hold the same resolved chain (every field but source positions and
 * text indexes); otherwise the first difference, in buf. */
const char *wsel_kit_gslb_diff(const wsel_gslb_config *a, const wsel_gslb_config *b, char *buf,
                               size_t len);

/* Appends to b a generated config for the round trip (seeded; every attribute of the
 * chain written or left to its default at random). It may name members that do not exist
 * and repeat a member; the reader may refuse some (the caller skips those). */
void wsel_kit_gslb_gen_config(uint64_t seed, wsel_kit_sbuf *b);

#endif
