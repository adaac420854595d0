/* Names of modes and parameter levels, and canonical state keys. */
#include <ctype.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <stdio.h>
#include <string.h>

#include "../addr.h"
#include "weighted_internal.h"
#include "weighted_model.h"

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

/* IPv6 text with a scope id as gdnsd's monitoring prints it (getnameinfo of what a
 * numeric getaddrinfo reads: `fe80::1%1` is `fe80::1%lo` where interface 1 is lo). */
static bool scoped_text(const char *text, char *buf, size_t len)
{
    struct sockaddr_storage ss;
    return wsel__numeric_host(text, AF_INET6, &ss) &&
           getnameinfo((const struct sockaddr *)(const void *)&ss,
                        sizeof(struct sockaddr_in6), buf, (socklen_t)len, NULL, 0,
                        NI_NUMERICHOST) == 0;
}

bool wsel__canon_key(const char *text, char *out, size_t len)
{
    uint8_t bin[16];
    char buf[WSEL__ADDR_TEXT + 64]; /* room for a scope id */
    int fam = wsel__addr_parse(text, strlen(text), false, bin);
    if (fam) {
        wsel__addr_format(fam, bin, buf, sizeof buf);
    } else if (strchr(text, '%') && scoped_text(text, buf, sizeof buf)) {
        /* IPv6 with a scope id: named as gdnsd's monitoring names it (D1) */
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
