/* bin/wsel ring (doc/ring.md): what the ring commands' files share. The library reads
 * and runs the scenario (include/wsel/ring.h); these files only print. */
#ifndef WSEL_CLI_RING_H
#define WSEL_CLI_RING_H

#include <stdbool.h>
#include <stdio.h>

#include "../cli.h"
#include "../../core/io.h"

/* A command's output, kept in memory until the command is done, so that a failed run
 * leaves stdout empty. --json documents are written with the one writer (`j`). */
typedef struct cli_ring_out {
    char *buf;
    size_t len;
    FILE *f;
    bool json;
    wsel__jw j;
} cli_ring_out;

/* Opens the buffer; false when out of memory. */
bool cli_ring_out_begin(cli_ring_out *o, bool json);
/* Whether everything written so far reached the buffer (false: out of memory). */
bool cli_ring_out_ok(const cli_ring_out *o);
/* Closes the buffer (and ends the JSON document) and, when rc is CLI_OK and nothing was
 * lost, writes it to stdout: the first failed write stops it, and its reason is left to
 * main's final check of stdout (one line, exit 3). Returns rc, or CLI_RESOURCE. */
int cli_ring_out_end(const char *cmd, int rc, cli_ring_out *o);

/* Runs the scenario with fn hearing every step; prints a failure (one line) and returns
 * the exit status. A step function stops the run with WSEL_E_NOMEM when its output
 * could not grow. */
int cli_ring_run(const char *cmd, const wsel_ring_scenario *sc, const wsel_ring_run_opts *ro,
                 wsel_ring_step_fn fn, void *ctx);

/* "a.b.c.d:port", "[v6]:port" or "name:port" into buf. */
const char *cli_ring_peer(const char *ip, unsigned port, char *buf, size_t len);

/* The command line every ring command takes. */
typedef struct cli_ring_args {
    const char *scenario;
    bool json;
    bool fast; /* --engine fast */
} cli_ring_args;

/* What every command does: reads its options and the scenario they name, runs
 * body(cmd, args, scenario), frees the scenario; the exit status. */
int cli_ring_main(int argc, char **argv, const char *cmd, const char *usage,
                  int (*body)(const char *cmd, const cli_ring_args *a,
                              const wsel_ring_scenario *sc));

/* ring_diff.c */
extern const char cli_ring_diff_usage[];
int cli_ring_diff_body(const char *cmd, const cli_ring_args *a, const wsel_ring_scenario *sc);

#endif
