/* bin/wsel gslb: what the GSLB command files share. */
#ifndef WSEL_CLI_GSLB_H
#define WSEL_CLI_GSLB_H

/* The GSLB command files use jansson for JSON, whose names (json_null, ...) clash with
 * cli.h's writer: so they include this header instead of cli.h, and only
 * cli/gslb_system.c (the cli_system table) includes cli.h. The declarations below repeat
 * cli.h's, which the compiler checks there. */
#include <stdio.h>

#include "wsel.h"

enum { CLI_GSLB_OK = 0, CLI_GSLB_INVALID = 1, CLI_GSLB_USAGE = 2 }; /* = CLI_OK, ... */
#define CLI_OK CLI_GSLB_OK
#define CLI_INVALID CLI_GSLB_INVALID
#define CLI_USAGE CLI_GSLB_USAGE

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
int cli_die(const char *cmd, const char *fmt, ...);
int cli_parse_u64(const char *s, unsigned long long *out);
const char *cli_optval(const char *cmd, int argc, char **argv, int *i, const char *name);
int cli_opt_is(const char *arg, const char *name);

/* Loads a GSLB config; prints the error and returns CLI_INVALID (bad config) or
 * CLI_USAGE (unreadable file). */
int cli_gslb_load(const char *cmd, const char *path, wsel_gslb_config **out);
const char *cli_gslb_severity(wsel_gslb_severity s);

int cli_gslb_check(int argc, char **argv);
int cli_gslb_explain(int argc, char **argv);
int cli_gslb_resolve(int argc, char **argv);

#endif
