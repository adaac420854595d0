/* bin/wsel: command dispatch over the systems of core/systems.def. */
#define _GNU_SOURCE /* fopencookie */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static const cli_system *const systems[] = {
#define WSEL_SYSTEM(id) &cli_system_##id,
#include "../core/systems.def"
#undef WSEL_SYSTEM
};
#define N_SYSTEMS (sizeof systems / sizeof systems[0])

/* One system's commands, for `wsel --help` and `wsel SYSTEM --help`. */
static void usage_system(FILE *f, const cli_system *sys)
{
    fprintf(f, "\n%s: %s\n", sys->name, sys->summary);
    for (size_t c = 0; c < sys->n_commands; c++) {
        const cli_command *cmd = &sys->commands[c];
        char head[160];
        snprintf(head, sizeof head, "%s%s%s %s", sys->top_level ? "" : sys->name,
                 sys->top_level ? "" : " ", cmd->name, cmd->synopsis);
        if (strlen(head) > 42)
            fprintf(f, "  %s\n  %-42s %s\n", head, "", cmd->summary);
        else
            fprintf(f, "  %-42s %s\n", head, cmd->summary);
    }
}

static void usage(FILE *f)
{
    fputs("usage: wsel COMMAND [ARGS...]\n"
          "       wsel SYSTEM COMMAND [ARGS...]\n"
          "What a selection config will actually do: exact odds, checks, samples.\n",
          f);
    for (size_t s = 0; s < N_SYSTEMS; s++)
        usage_system(f, systems[s]);
    fputs("\n`wsel COMMAND --help` or `wsel SYSTEM COMMAND --help` for a command's options;\n"
          "man wsel for the JSON output contract.\n"
          "Exit status: 0 ok, 1 invalid config or zone record, 2 usage or input error,\n"
          "3 out of memory or output not written.\n",
          f);
}

/* The version, then each system of the library's table (include/wsel/systems.h) with
 * its engine variants; a variant this build or CPU cannot run is marked. */
static void version(FILE *f)
{
    fprintf(f, "wsel %s\n", WSEL_VERSION);
    for (size_t s = 0; s < wsel_system_count(); s++) {
        fprintf(f, "%-9s %-16s", wsel_system_name(s), wsel_system_doc(s));
        for (size_t v = 0; v < wsel_system_variant_count(s); v++)
            fprintf(f, " %s%s", wsel_system_variant_name(s, v),
                    wsel_system_variant_available(s, v) ? "" : "(not here)");
        fputc('\n', f);
    }
    fprintf(f, "weighted fast variant in use: %s\n", wsel_fast_selected());
}

static bool is_help(const char *a)
{
    return strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0 || strcmp(a, "help") == 0;
}

static const cli_command *find_command(const cli_system *sys, const char *name)
{
    for (size_t c = 0; c < sys->n_commands; c++)
        if (strcmp(sys->commands[c].name, name) == 0)
            return &sys->commands[c];
    return NULL;
}

/* Standard output goes through write(2) here, so that the reason of the first failed
 * write (disk full, closed descriptor, broken pipe) is known exactly, whichever command
 * wrote and whenever the stream flushed. */
static int out_errno;

static ssize_t out_write(void *cookie, const char *buf, size_t n)
{
    (void)cookie;
    size_t done = 0;
    while (done < n) {
        ssize_t w = write(STDOUT_FILENO, buf + done, n - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            if (!out_errno)
                out_errno = w < 0 ? errno : EIO;
            return done ? (ssize_t)done : -1;
        }
        done += (size_t)w;
    }
    return (ssize_t)n;
}

static int out_close(void *cookie)
{
    (void)cookie;
    if (close(STDOUT_FILENO) != 0 && errno != EBADF) {
        if (!out_errno)
            out_errno = errno;
        return -1;
    }
    return 0;
}

/* Puts stdout on out_write (line-buffered on a terminal, as stdio would); keeps the
 * plain stream when that cannot be set up. */
static void open_output(void)
{
    FILE *f = fopencookie(NULL, "w", (cookie_io_functions_t){NULL, out_write, NULL, out_close});
    if (!f)
        return;
    setvbuf(f, NULL, isatty(STDOUT_FILENO) ? _IOLBF : _IOFBF, BUFSIZ);
    stdout = f;
}

/* Every command writes its result to stdout; a result that did not reach it must not end
 * in a success status. Checked once here, after the command, including the final flush
 * and close, with the reason of the first failed write. */
static int finish_output(int rc)
{
    errno = 0;
    bool bad = fflush(stdout) != 0 || ferror(stdout);
    int e = out_errno ? out_errno : cli_write_errno ? cli_write_errno : bad ? errno : 0;
    if (bad && !e && fcntl(STDOUT_FILENO, F_GETFD) == -1)
        e = errno; /* the plain stream (open_output failed) on a closed descriptor */
    if (fclose(stdout) != 0 && !bad) {
        bad = true;
        e = out_errno ? out_errno : errno;
    }
    if (!bad)
        return rc;
    fprintf(stderr, "wsel: cannot write the output: %s\n",
            e ? strerror(e) : "the system gave no reason");
    return rc == CLI_OK || rc == CLI_INVALID ? CLI_RESOURCE : rc;
}

/* WSEL_FAST_KERNEL names a fast variant without its "fast-" prefix; the library keeps
 * its automatic choice when the name is unknown or cannot run here, so say so. */
static void check_kernel_env(void)
{
    const char *env = getenv("WSEL_FAST_KERNEL");
    if (!env)
        return;
    char name[64];
    snprintf(name, sizeof name, "fast-%s", env);
    int rc = wsel_variant_check(name);
    if (rc == WSEL_OK)
        return;
    fputs("wsel: warning: WSEL_FAST_KERNEL='", stderr);
    wsel__escape_put(stderr, env);
    fprintf(stderr, "' %s; the widest variant this CPU runs is used\n",
            rc == WSEL_E_UNSUPPORTED ? "cannot run on this CPU"
                                     : "names no fast variant (scalar, sse2, avx2)");
}

static int run(int argc, char **argv)
{
    check_kernel_env();
    if (argc < 2)
        return cli_die(NULL, "missing COMMAND (see wsel --help)");
    const char *c = argv[1];
    if (is_help(c)) {
        usage(stdout);
        return CLI_OK;
    }
    if (strcmp(c, "--version") == 0 || strcmp(c, "version") == 0) {
        version(stdout);
        return CLI_OK;
    }
    for (size_t s = 0; s < N_SYSTEMS; s++) {
        const cli_system *sys = systems[s];
        if (strcmp(c, sys->name) == 0) {
            if (argc < 3)
                return cli_die(sys->name, "missing COMMAND (see wsel %s --help)", sys->name);
            if (is_help(argv[2])) {
                fprintf(stdout, "usage: wsel %s COMMAND [ARGS...]\n", sys->name);
                usage_system(stdout, sys);
                return CLI_OK;
            }
            const cli_command *cmd = find_command(sys, argv[2]);
            if (!cmd)
                return cli_die(sys->name, "unknown command '%s' (see wsel %s --help)", argv[2],
                               sys->name);
            return cmd->run(argc - 2, argv + 2);
        }
    }
    for (size_t s = 0; s < N_SYSTEMS; s++) {
        const cli_command *cmd = systems[s]->top_level ? find_command(systems[s], c) : NULL;
        if (cmd)
            return cmd->run(argc - 1, argv + 1);
    }
    return cli_die(NULL, "unknown command '%s' (see wsel --help)", c);
}

int main(int argc, char **argv)
{
    /* A closed pipe (`wsel ... | head`) is a failed write like any other: reported once,
     * exit 3, never death by SIGPIPE. Blocked rather than ignored: the write fails with
     * EPIPE all the same, and a sanitizer's run-time preloaded for a leak check (which
     * wraps signal() and sigaction()) has nothing to say about it. */
    sigset_t pipe_only;
    sigemptyset(&pipe_only);
    sigaddset(&pipe_only, SIGPIPE);
    sigprocmask(SIG_BLOCK, &pipe_only, NULL);
    open_output();
    return finish_output(run(argc, argv));
}
