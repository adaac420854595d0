/* bin/wsel: declarations shared by the command-line tool's files. */
#ifndef WSEL_CLI_H
#define WSEL_CLI_H

#include <stdarg.h>
#include <stdio.h>

#include "wsel.h"
#include "../core/escape.h"
#include "../core/json_write.h"

#if defined(__GNUC__)
#define CLI_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define CLI_PRINTF(a, b)
#endif

/* Exit codes (documented in man/wsel.1). */
enum {
    CLI_OK = 0,       /* success; check: the config is valid (warnings allowed) */
    CLI_INVALID = 1,  /* the config or a zone record is invalid */
    CLI_USAGE = 2,    /* bad command line or other bad input; one line on stderr */
    CLI_RESOURCE = 3  /* out of memory, or the output could not be written */
};

/* ---- util.c ---- */

/* Room for an escaped label, group path or address (core/escape.h: every text the
 * commands print goes through wsel__escape or wsel__escape_put): 4 bytes per byte of the
 * 600-byte paths the commands build. */
#define CLI_ESC_MAX 2400

/* "wsel: CMD: message" on stderr (control bytes escaped); returns CLI_USAGE so callers can `return cli_die(...)`. */
int cli_die(const char *cmd, const char *fmt, ...) CLI_PRINTF(2, 3);
/* ---- errors and exit status: the one mapping (man/wsel.1, EXIT STATUS) ----
 * What a failed library call means for the exit status depends on the error's kind
 * (wsel_error_kind_of) and on the role of the input it is about: */
typedef enum cli_role {
    CLI_ROLE_CHECKED, /* the input the command passes a verdict on (a config, a zone
                         record, the ring's scenario): bad content exits 1 */
    CLI_ROLE_INPUT    /* anything else the command reads (state files, GSLB inputs,
                         options): bad content exits 2 */
} cli_role;
/* The exit status for a failed call: out of memory 3; a bad call, an unsupported
 * variant, or a file that cannot be read as such (I/O without a position) 2; bad content
 * 1 for CLI_ROLE_CHECKED and 2 for CLI_ROLE_INPUT. An I/O error at a position inside the
 * checked input (an $include{} that cannot be read) is bad content. */
int cli_exit_status(int code, unsigned line, cli_role role);
/* Prints err as one line on stderr and returns cli_exit_status(). Bad content prints as
 * the compiler-style "FILE:LINE:COL: message"; the others as "wsel: CMD: message", out of
 * memory with " (resource failure, not invalid input)". Control bytes are escaped. */
int cli_report(const char *cmd, const wsel_error *err, cli_role role);
/* "wsel: CMD: message" for a failed call without an error record: returns
 * cli_exit_status(code, 0, CLI_ROLE_INPUT). */
int cli_fail(const char *cmd, int code, const char *fmt, ...) CLI_PRINTF(3, 4);
/* "wsel: CMD: out of memory"; returns CLI_RESOURCE. */
int cli_nomem(const char *cmd);

/* Opens `path` for reading when it is a regular file (a FIFO is refused at once, never
 * waited on); otherwise prints why, naming it as `what` ("zone file"), and returns NULL
 * with *rc set to the exit status. */
FILE *cli_open_regular(const char *cmd, const char *what, const char *path, int *rc);

/* Parses a whole unsigned decimal string into *out; false on junk or overflow. */
int cli_parse_u64(const char *s, unsigned long long *out);

/* An option's value: "--name=VALUE" or the next argument. Advances *i when it takes
 * the next argument. NULL (with a message printed) when missing. */
const char *cli_optval(const char *cmd, int argc, char **argv, int *i, const char *name);

/* True when argv[i] is exactly `name` or starts with "name=". */
int cli_opt_is(const char *arg, const char *name);

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

/* Options every command shares: "--" (ends options), -h/--help (prints `usage`),
 * --json, --stanza, --whole. Returns CLI_OPT_NONE when `arg` is none of them. */
enum { CLI_OPT_NONE = 0, CLI_OPT_TAKEN, CLI_OPT_HELP };
int cli_common_opt(const char *arg, int *opts_done, int *json, wsel_input *input,
                   const char *usage);

/* ---- JSON output: the one writer, core/json_write.h ---- */

/* Ends a --json document (wsel__jw_finish); a failed write leaves its errno in
 * cli_write_errno for main's final check of stdout. */
void cli_json_end(wsel__jw *j);
extern int cli_write_errno;
/* The keys that identify a set: "stanza" (null for an automatic resource), "family",
 * "mode". */
void cli_json_set_id(wsel__jw *j, const wsel_set *set);

/* ---- stateopt.c: --state / --down / --up ---- */

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

/* ---- zone.c ---- */

/* Errors and warnings collected by check (config warnings and zone records alike);
 * the caller prints them as text or JSON. */
typedef struct zone_issue {
    char *file;
    unsigned line, col;
    int is_error;
    char *message;
    char *name, *resource;
    int rrtype;
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
                  int is_error, const char *name, const char *res, int rrtype,
                  const char *fmt, ...) CLI_PRINTF(9, 10);
int cli_issue_vadd(zone_report *rep, const char *file, unsigned line, unsigned col,
                   int is_error, const char *name, const char *res, int rrtype,
                   const char *fmt, va_list ap) CLI_PRINTF(9, 0);

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

/* ---- systems: the CLI side of the seam (core/systems.def, doc/architecture.md) ----
 * Each system defines `const cli_system cli_system_ID` in its own cli/ID.c. Its commands
 * run as `wsel ID COMMAND ...`; a top-level system's commands also run as
 * `wsel COMMAND ...` (weighted's check, explain and sample). A command's run() gets
 * argv[0] = the command name, as a plain main() would. */
typedef struct cli_command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *synopsis;   /* "CONFIG [RESOURCE...]": what follows the command name */
    const char *summary;    /* one line for `wsel --help` */
} cli_command;

typedef struct cli_system {
    const char *name;       /* the system id, as in core/systems.def */
    const char *summary;    /* one line: what the system is */
    int top_level;          /* commands also reachable without the system name */
    size_t n_commands;
    const cli_command *commands;
} cli_system;

/* Defines cli_system_ID in the system's file from its `static const cli_command
 * commands[]` table: CLI_SYSTEM(ring, 0, "summary"); */
#define CLI_SYSTEM(id, top, summary_)                                                    \
    const cli_system cli_system_##id = {#id, summary_, top,                              \
                                        sizeof commands / sizeof commands[0], commands}

#define WSEL_SYSTEM(id) extern const cli_system cli_system_##id;
#include "../core/systems.def"
#undef WSEL_SYSTEM

#endif
