/* bin/wsel gslb: the GSLB system's command table (core/systems.def). */
#include "gslb_cli.h"

static const cli_command commands[] = {
    {"check", cli_gslb_check, "CONFIG [--json]", "read a bigip_gtm.conf subset, run the lint checks G001-G036"},
    {"explain", cli_gslb_explain, "CONFIG [WIDEIP...] [--json]",
     "the resolved chain per wide IP, defaults labelled, lint in place"},
    {"resolve", cli_gslb_resolve,
     "CONFIG WIDEIP --inputs FILE [--ldns ADDR] [-n N] [--log FLAGS] [--json]",
     "N queries in sequence: answers, counts, decision log, next state"},
    {"inputs", cli_gslb_inputs, "CONFIG [WIDEIP...]",
     "an inputs template: virtual servers up, the metrics each method reads as null"},
};

CLI_SYSTEM(gslb, 0, "BIG-IP DNS (GTM) GSLB chain: wide IP -> pool -> member");
