/* Names of modes and parameter levels, and canonical state keys. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "../addr.h"
#include "weighted_internal.h"

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
    uint8_t bin[16];
    char buf[WSEL__ADDR_TEXT];
    int fam = wsel__addr_parse(text, strlen(text), false, bin);
    if (fam) {
        wsel__addr_format(fam, bin, buf, sizeof buf);
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
