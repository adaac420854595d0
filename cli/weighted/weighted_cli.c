/* bin/wsel: the weighted system's commands (gdnsd's weighted plugin). */
#include "../cli.h"

static const cli_command commands[] = {
    {"check", cli_check, "CONFIG [--zone ZONEFILE ORIGIN]...",
     "validate a config, list its resources, warn about likely mistakes"},
    {"explain", cli_explain, "CONFIG [RESOURCE...]", "exact answer odds under a state"},
    {"sample", cli_sample, "CONFIG RESOURCE -n N [--seed S] [--engine E]",
     "draw answers, compare with the odds"},
    {"states", cli_states, "CONFIG [--admin-state FILE] [--down X]...",
     "every THING/SERVICE_TYPE pair: monitored, forced and resulting state"},
};

CLI_SYSTEM(weighted, 1, "gdnsd's weighted plugin: addresses or a CNAME by weight");
