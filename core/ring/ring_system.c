/* The ring balancer (lua-resty-dns-client, doc/ring.md): its entry in the library's
 * table of systems (core/system.h). Its engines: the reference pick (ref/ring/) and the
 * lock-free fast engine (fast/ring/), include/wsel/ring.h. */
#include "../system.h"

static const wsel__variant_info variants[] = { {"ref", -1}, {"fast", -1} };

const wsel__system wsel__system_ring = WSEL__SYSTEM("ring", "doc/ring.md", variants);
