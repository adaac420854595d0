/* The BIG-IP DNS GSLB chain (doc/gslb.md): its entry in the library's table of systems
 * (core/system.h). Its one engine is the reference (ref/gslb/), include/wsel/gslb.h. */
#include "../system.h"

static const wsel__variant_info variants[] = { {"ref", -1} };

const wsel__system wsel__system_gslb = WSEL__SYSTEM("gslb", "doc/gslb.md", variants);
