/* The BIG-IP DNS GSLB chain (doc/gslb.md): its entry in the library seam
 * (core/system.h). Its engine keeps its own interface (include/wsel/gslb.h): decisions
 * follow the config, the inputs and the carried method state, not the random-word
 * contract, so the word-contract operations of the table stay NULL. */
#include "../system.h"

const wsel__system wsel__system_gslb = {
    .name = "gslb",
    .doc = "doc/gslb.md",
};
