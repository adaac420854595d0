/* bin/wsel gslb: what the GSLB command files share. */
#ifndef WSEL_CLI_GSLB_H
#define WSEL_CLI_GSLB_H

#include "../cli.h"

/* Loads a GSLB config; prints the error and returns CLI_INVALID (bad config) or
 * CLI_USAGE (unreadable file). */
int cli_gslb_load(const char *cmd, const char *path, wsel_gslb_config **out);
const char *cli_gslb_severity(wsel_gslb_severity s);
/* The wide IP `name` of cfg into *out, or prints why there is none and returns CLI_USAGE:
 * a wide IP of another type (gtm wideip aaaa ...) is named as unsupported, with its
 * position. */
int cli_gslb_find_wideip(const char *cmd, const wsel_gslb_config *cfg, const char *name,
                         const char *path, long *out);

/* The arguments every gslb command reads alike: `--` (then only operands), -h/--help
 * (prints usage), --json (sets *json). Returns which kind `a` is. */
enum { CLI_GSLB_TAKEN, CLI_GSLB_HELP, CLI_GSLB_OPTION, CLI_GSLB_OPERAND };
int cli_gslb_arg(const char *a, int *done, int *json, const char *usage);

int cli_gslb_check(int argc, char **argv);
int cli_gslb_explain(int argc, char **argv);
int cli_gslb_resolve(int argc, char **argv);

#endif
