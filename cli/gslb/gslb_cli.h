/* bin/wsel gslb: what the GSLB command files share. Every --json output goes through the
 * one writer (core/json_write.h), every text output through the escaper (core/escape.h,
 * cli_gslb_printf), every failure through cli_report / cli_fail (cli/cli.h: the one
 * mapping to exit statuses). */
#ifndef WSEL_CLI_GSLB_H
#define WSEL_CLI_GSLB_H

#include "../cli.h"

/* Loads a GSLB config: on failure prints the error and returns its exit status (the
 * config is the checked input: bad content 1, unreadable 2, out of memory 3). */
int cli_gslb_load(const char *cmd, const char *path, wsel_gslb_config **out);
const char *cli_gslb_severity(wsel_gslb_severity s);
/* The wide IP of type `type` a query for `name` reaches into *out, or prints why there is
 * none and returns CLI_USAGE: a wide IP of the other type named so, or one of a
 * type out of scope (gtm wideip cname ...: G030), with its position. */
int cli_gslb_find_wideip(const char *cmd, const wsel_gslb_config *cfg, const char *name,
                         const char *path, wsel_gslb_type type, long *out);
/* The lint findings of cfg into *f, *n; on failure prints why and returns the exit
 * status (out of memory 3). */
int cli_gslb_lint(const char *cmd, const wsel_gslb_config *cfg, wsel_gslb_finding **f,
                  size_t *n);

/* The arguments every gslb command reads alike: `--` (then only operands), -h/--help
 * (prints usage), --json (sets *json). Returns which kind `a` is. */
enum { CLI_GSLB_TAKEN, CLI_GSLB_HELP, CLI_GSLB_OPTION, CLI_GSLB_OPERAND };
int cli_gslb_arg(const char *a, int *done, int *json, const char *usage);

/* printf for text output: every %s argument (names, tokens, messages: config text) is
 * written through the escaper, control bytes as \DDD; the literal text of fmt and the
 * other conversions (d i u x c g with flags, width, precision and the length modifiers
 * h hh l ll z) as printf writes them. %s takes no width or precision. */
void cli_gslb_printf(FILE *f, const char *fmt, ...) CLI_PRINTF(2, 3);

/* explain: the topology that applies to wide IP wi (records, regions expanded), as text
 * (j NULL) or as the wide IP's "topology" member; nothing when it uses no topology. 0, or
 * -1 when out of memory. */
int cli_gslb_explain_topology(const wsel_gslb_config *cfg, size_t wi, wsel__jw *j);

/* CONFIG [WIDEIP...] [--type A|AAAA] [--json] (explain, inputs): the config, the wide IPs
 * named (at most 32 names; without --type each name stands for its A and its AAAA wide IP,
 * each one that exists) as indexes, --json. */
typedef struct cli_gslb_target {
    wsel_gslb_config *cfg;
    long idx[64];
    size_t n;
    int json;
} cli_gslb_target;
/* Reads the arguments and loads the config into *t: 0; -1 after --help; or the exit
 * status (message printed, t->cfg NULL). */
int cli_gslb_open_wideips(const char *cmd, int argc, char **argv, const char *usage,
                          cli_gslb_target *t);

int cli_gslb_check(int argc, char **argv);
int cli_gslb_explain(int argc, char **argv);
int cli_gslb_resolve(int argc, char **argv);
int cli_gslb_inputs(int argc, char **argv);

#endif
