/* wsel: weighted answer selection as three systems define it -- gdnsd's `weighted` plugin,
 * lua-resty-dns-client's ring balancer and BIG-IP DNS's GSLB chain.
 *
 *   systems.h  the systems and their engine variants
 *   config.h   load gdnsd weighted configs; the resource model
 *   state.h    monitoring state (UP/DOWN + TTL per service type)
 *   rng.h      the random source and the default generator
 *   resolve.h  the random-word contract, answers, engines (ref, fast) and resolvers
 *   odds.h     exact odds, computed independently of the engines
 *   ring.h     the ring balancer (lua-resty-dns-client's consistent-hashing wheel)
 *   gslb.h     the BIG-IP DNS GSLB chain: wide IP -> pool -> member (doc/gslb.md)
 *
 * Every exported name starts with wsel_. The library never prints and never exits:
 * every failure is a status code plus a filled wsel_error. */
#ifndef WSEL_H
#define WSEL_H

#include "wsel/common.h"
#include "wsel/systems.h"
#include "wsel/config.h"
#include "wsel/state.h"
#include "wsel/rng.h"
#include "wsel/resolve.h"
#include "wsel/odds.h"
#include "wsel/ring.h"
#include "wsel/gslb.h"

#define WSEL_VERSION "0.1.0"

#endif
