/* Names of modes and parameter levels, and canonical state keys. */
#include <arpa/inet.h>
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "../internal.h"

const char *wsel_mode_name(wsel_mode m)
{
    switch (m) {
    case WSEL_MODE_UNGROUPED_SINGLE: return "ungrouped-single";
    case WSEL_MODE_UNGROUPED_MULTI: return "ungrouped-multi";
    case WSEL_MODE_GROUPED_SINGLE: return "grouped-single";
    case WSEL_MODE_GROUPED_MULTI: return "grouped-multi";
    case WSEL_MODE_CNAME: return "cname";
    }
    return "unknown";
}

const char *wsel_level_name(wsel_level l)
{
    switch (l) {
    case WSEL_LEVEL_DEFAULT: return "default";
    case WSEL_LEVEL_TOP: return "top";
    case WSEL_LEVEL_RESOURCE: return "resource";
    case WSEL_LEVEL_STANZA: return "stanza";
    }
    return "unknown";
}

bool wsel__canon_key(const char *text, char *out, size_t len)
{
    unsigned char bin[16];
    char buf[INET6_ADDRSTRLEN];
    if (inet_pton(AF_INET, text, bin) == 1) {
        inet_ntop(AF_INET, bin, buf, sizeof buf);
    } else if (inet_pton(AF_INET6, text, bin) == 1) {
        inet_ntop(AF_INET6, bin, buf, sizeof buf);
    } else {
        size_t n = strlen(text);
        if (n + 1 > len)
            return false;
        for (size_t i = 0; i <= n; i++)
            out[i] = (char)tolower((unsigned char)text[i]);
        return true;
    }
    if (strlen(buf) + 1 > len)
        return false;
    memcpy(out, buf, strlen(buf) + 1);
    return true;
}
