/* bin/wsel gslb: what the GSLB command files share. */
#ifndef WSEL_CLI_GSLB_H
#define WSEL_CLI_GSLB_H

#include "cli.h"

/* Loads a GSLB config; prints the error and returns CLI_INVALID (bad config) or
 * CLI_USAGE (unreadable file). */
int cli_gslb_load(const char *cmd, const char *path, wsel_gslb_config **out);
const char *cli_gslb_severity(wsel_gslb_severity s);

int cli_gslb_check(int argc, char **argv);
int cli_gslb_explain(int argc, char **argv);
int cli_gslb_resolve(int argc, char **argv);

#endif
