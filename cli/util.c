/* bin/wsel: small helpers every system's commands share. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

static void vdie(const char *cmd, const char *fmt, va_list ap) CLI_PRINTF(2, 0);
static void vdie(const char *cmd, const char *fmt, va_list ap)
{
    char msg[4096];
    vsnprintf(msg, sizeof msg, fmt, ap);
    fputs("wsel: ", stderr);
    if (cmd)
        fprintf(stderr, "%s: ", cmd);
    wsel__escape_put(stderr, msg);
    fputc('\n', stderr);
}

int cli_die(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vdie(cmd, fmt, ap);
    va_end(ap);
    return CLI_USAGE;
}

int cli_exit_status(int code, unsigned line, cli_role role)
{
    switch (wsel_error_kind_of(code)) {
    case WSEL_ERROR_NONE:
        return CLI_OK;
    case WSEL_ERROR_NOMEM:
        return CLI_RESOURCE;
    case WSEL_ERROR_ARG:
    case WSEL_ERROR_UNSUPPORTED:
        return CLI_USAGE;
    case WSEL_ERROR_IO:
        if (!line)
            return CLI_USAGE;
        break;
    default:
        break;
    }
    return role == CLI_ROLE_CHECKED ? CLI_INVALID : CLI_USAGE;
}

int cli_report(const char *cmd, const wsel_error *err, cli_role role)
{
    int rc = cli_exit_status(err->code, err->line, role);
    char buf[2048];
    wsel_error_format(err, buf, sizeof buf);
    if (rc == CLI_INVALID || (rc == CLI_USAGE && err->file[0] && err->line)) {
        wsel__escape_put(stderr, buf);
        fputc('\n', stderr);
    } else {
        cli_die(cmd, "%s%s", buf,
                rc == CLI_RESOURCE ? " (resource failure, not invalid input)" : "");
    }
    return rc;
}

int cli_fail(const char *cmd, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vdie(cmd, fmt, ap);
    va_end(ap);
    return cli_exit_status(code, 0, CLI_ROLE_INPUT);
}

int cli_nomem(const char *cmd)
{
    return cli_fail(cmd, WSEL_E_NOMEM, "out of memory");
}

int cli_parse_u64(const char *s, unsigned long long *out)
{
    if (!s || !*s)
        return 0;
    for (const char *p = s; *p; p++)
        if (!isdigit((unsigned char)*p))
            return 0;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end)
        return 0;
    *out = v;
    return 1;
}

int cli_opt_is(const char *arg, const char *name)
{
    size_t n = strlen(name);
    return strncmp(arg, name, n) == 0 && (arg[n] == '\0' || arg[n] == '=');
}

const char *cli_optval(const char *cmd, int argc, char **argv, int *i, const char *name)
{
    const char *arg = argv[*i];
    size_t n = strlen(name);
    if (arg[n] == '=')
        return arg + n + 1;
    if (*i + 1 >= argc) {
        cli_die(cmd, "option %s needs a value", name);
        return NULL;
    }
    (*i)++;
    return argv[*i];
}

int cli_write_errno;

void cli_json_end(wsel__jw *j)
{
    if (wsel__jw_finish(j))
        cli_write_errno = j->err; /* main reports it after the command */
}
