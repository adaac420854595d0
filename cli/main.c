/* bin/wsel: command dispatch. */
#include <string.h>

#include "cli.h"

static const char usage[] =
    "usage: wsel COMMAND [ARGS...]\n"
    "Weighted DNS answer selection as gdnsd's `weighted` plugin defines it.\n"
    "\n"
    "Commands:\n"
    "  check CONFIG [--zone ZONEFILE ORIGIN]...   validate a config, list its resources,\n"
    "                                             warn about likely mistakes\n"
    "  explain CONFIG [RESOURCE...]               exact answer odds under a state\n"
    "  sample CONFIG RESOURCE -n N [--seed S] [--engine E]\n"
    "                                             draw answers, compare with the odds\n"
    "\n"
    "Common options: --json, --stanza, --whole; explain and sample also take\n"
    "--state SERVICE=FILE, --down ADDR_OR_NAME, --up ADDR_OR_NAME.\n"
    "`wsel COMMAND --help` for details; man wsel for the JSON output contract.\n"
    "Exit status: 0 ok, 1 invalid config or zone record, 2 usage or input error.\n";

int main(int argc, char **argv)
{
    if (argc < 2)
        return cli_die(NULL, "missing COMMAND (expected check, explain or sample; see "
                             "wsel --help)");
    const char *c = argv[1];
    if (strcmp(c, "--help") == 0 || strcmp(c, "-h") == 0 || strcmp(c, "help") == 0) {
        fputs(usage, stdout);
        return CLI_OK;
    }
    if (strcmp(c, "--version") == 0 || strcmp(c, "version") == 0) {
        printf("wsel %s\n", WSEL_VERSION);
        return CLI_OK;
    }
    if (strcmp(c, "check") == 0)
        return cli_check(argc - 1, argv + 1);
    if (strcmp(c, "explain") == 0)
        return cli_explain(argc - 1, argv + 1);
    if (strcmp(c, "sample") == 0)
        return cli_sample(argc - 1, argv + 1);
    return cli_die(NULL, "unknown command '%s' (expected check, explain or sample; see "
                         "wsel --help)", c);
}
