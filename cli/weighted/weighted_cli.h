/* bin/wsel: the weighted system's commands (gdnsd's weighted plugin) -- what its files
 * share beyond cli/cli.h. */
#ifndef WSEL_CLI_WEIGHTED_H
#define WSEL_CLI_WEIGHTED_H

#include "../cli.h"
#include "../../core/internal.h"

/* ---- weighted_cli.c: config, labels, options ---- */

/* Loads a config; on failure prints the error (one line, plus a spelling hint when the
 * offending key looks like a misspelled parameter) and returns CLI_INVALID, or
 * CLI_USAGE for an unreadable file. */
int cli_load_config(const char *cmd, const char *path, wsel_input input, wsel_config **out,
                    wsel_error *err_out);

/* An item's key path from its resource: [stanza/][group/]label. Written to buf. */
const char *cli_item_path(const wsel_set *set, const wsel_item *item, char *buf, size_t len);
/* A group's key path: [stanza/]group. */
const char *cli_group_path(const wsel_set *set, const wsel_group *g, char *buf, size_t len);

const char *cli_kind_name(wsel_kind k);

/* Options every weighted command shares: "--" (ends options), -h/--help (prints `usage`),
 * --json, --stanza, --whole. Returns CLI_OPT_NONE when `arg` is none of them. */
enum { CLI_OPT_NONE = 0, CLI_OPT_TAKEN, CLI_OPT_HELP };
int cli_common_opt(const char *arg, int *opts_done, int *json, wsel_input *input,
                   const char *usage);

/* The keys that identify a set: "stanza" (null for an automatic resource), "family",
 * "mode". */
void cli_json_set_id(wsel__jw *j, const wsel_set *set);

/* ---- weighted_stateopt.c: --state / --down / --up ---- */

typedef struct cli_stateop {
    enum { STATEOP_FILE, STATEOP_DOWN, STATEOP_UP, STATEOP_ADMIN } kind;
    const char *service; /* STATEOP_FILE: the service type (points into a copy) */
    const char *arg;     /* file path, or the address/name (a glob allowed) */
} cli_stateop;

typedef struct cli_stateopts {
    cli_stateop *ops;
    size_t n, cap;
} cli_stateopts;

/* Consumes a state option at argv[*i] if there is one: returns 1 (consumed), 0 (not a
 * state option) or, after printing the error, minus the exit status (-CLI_USAGE, or
 * -CLI_RESOURCE when out of memory). */
int cli_stateopt_parse(const char *cmd, cli_stateopts *so, int argc, char **argv, int *i);
/* Builds the state: all UP, then every option in command-line order (--state sets
 * monitored state; --admin-state, --down and --up force pairs). Prints one line and
 * returns CLI_USAGE on error (CLI_RESOURCE when out of memory); lines of state files that
 * change nothing are warnings on stderr. */
int cli_stateopt_apply(const char *cmd, const cli_stateopts *so, const wsel_config *cfg,
                       wsel_state **out);
void cli_stateopt_free(cli_stateopts *so);

/* A command that takes CONFIG, state options and the shared options (explain, states):
 * its command line, config and state. */
typedef struct cli_statecmd {
    cli_stateopts so;
    int json;
    wsel_input input;
    const char **pos;  /* the positional arguments in order; pos[0] is CONFIG */
    size_t npos;
    wsel_config *cfg;
    wsel_state *st;
} cli_statecmd;

/* Reads the command line (at most max_pos positional arguments), loads CONFIG and builds
 * its state from the options in order. Returns CLI_OK, -1 (--help: usage printed) or the
 * exit status (message printed); cli_statecmd_free(c) is due in every case. */
int cli_statecmd_open(const char *cmd, const char *usage, int argc, char **argv,
                      size_t max_pos, cli_statecmd *c);
void cli_statecmd_free(cli_statecmd *c);

/* ---- weighted_zone.c ---- */

/* Errors and warnings collected by check (config warnings and zone records alike);
 * the caller prints them as text or JSON. An issue's two strings are one allocation, the
 * block file points to (cli_zone_report_free frees it). */
typedef struct zone_issue {
    char *file;
    unsigned line, col;
    int is_error;
    char *message;
} zone_issue;

typedef struct zone_report {
    zone_issue *issues;
    size_t n, cap;
    size_t records;   /* weighted records seen */
    size_t errors, warnings;
    int nomem;        /* an allocation failed: the report is incomplete */
} zone_report;

/* Appends an issue whose message is printf(fmt, ...) (copies the strings); -1 (and nomem
 * set) when out of memory. cli_issue_vadd takes the arguments as a va_list. */
int cli_issue_add(zone_report *rep, const char *file, unsigned line, unsigned col,
                  int is_error, const char *fmt, ...) CLI_PRINTF(6, 7);
int cli_issue_vadd(zone_report *rep, const char *file, unsigned line, unsigned col,
                   int is_error, const char *fmt, va_list ap) CLI_PRINTF(6, 0);

/* Returns 0, or CLI_USAGE when the zone file cannot be read, CLI_RESOURCE when out of
 * memory (message printed). */
int cli_zone_check(const char *cmd, const wsel_config *cfg, const char *path,
                   const char *origin, zone_report *rep);
void cli_zone_report_free(zone_report *rep);

/* ---- commands ---- */
int cli_check(int argc, char **argv);
int cli_explain(int argc, char **argv);
int cli_sample(int argc, char **argv);
int cli_states(int argc, char **argv);

#endif
