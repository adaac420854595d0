/* The ring balancer (lua-resty-dns-client, doc/ring.md): its entry in the library seam
 * (core/system.h). Its engines keep their own interface (include/wsel/ring.h): picks are
 * keyed by a hash, a float or a round-robin position, not by the random-word contract,
 * so the word-contract operations of the table stay NULL. */
#include "../system.h"

const wsel__system wsel__system_ring = {
    .name = "ring",
    .doc = "doc/ring.md",
};
