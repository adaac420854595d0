/* bin/wsel: declarations every system's commands share. A system's own declarations are
 * in its folder (cli/weighted/weighted_cli.h, ...). */
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

/* Parses a whole unsigned decimal string into *out; false on junk or overflow. */
int cli_parse_u64(const char *s, unsigned long long *out);

/* An option's value: "--name=VALUE" or the next argument. Advances *i when it takes
 * the next argument. NULL (with a message printed) when missing. */
const char *cli_optval(const char *cmd, int argc, char **argv, int *i, const char *name);

/* True when argv[i] is exactly `name` or starts with "name=". */
int cli_opt_is(const char *arg, const char *name);

/* ---- JSON output: the one writer, core/json_write.h ---- */

/* Ends a --json document (wsel__jw_finish); a failed write leaves its errno in
 * cli_write_errno for main's final check of stdout. */
void cli_json_end(wsel__jw *j);
extern int cli_write_errno;
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
