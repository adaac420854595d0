/* IP address text (core/addr.h). */
#include <arpa/inet.h>
#include <string.h>

#include "addr.h"

int wsel__addr_parse(const char *s, size_t len, bool brackets, uint8_t out[16])
{
    char buf[64];
    memset(out, 0, 16);
    if (!s || len >= sizeof buf || memchr(s, '\0', len))
        return 0;
    memcpy(buf, s, len);
    buf[len] = '\0';
    if (inet_pton(AF_INET, buf, out) == 1)
        return 4;
    const char *t = buf;
    if (brackets && len >= 2 && buf[0] == '[' && buf[len - 1] == ']') {
        buf[len - 1] = '\0';
        t = buf + 1;
    }
    if (inet_pton(AF_INET6, t, out) == 1)
        return 6;
    memset(out, 0, 16);
    return 0;
}

/* Dotted decimal by hand: inet_ntop formats IPv4 with sprintf, the costliest step of a
 * ring's address change. */
static size_t format4(const uint8_t b[4], char *out, size_t len)
{
    char txt[16], *o = txt;
    for (int i = 0; i < 4; i++) {
        unsigned v = b[i];
        if (v >= 100)
            *o++ = (char)('0' + v / 100);
        if (v >= 10)
            *o++ = (char)('0' + v / 10 % 10);
        *o++ = (char)('0' + v % 10);
        *o++ = i < 3 ? '.' : '\0';
    }
    size_t n = (size_t)(o - txt); /* with the NUL */
    if (n > len)
        return 0;
    memcpy(out, txt, n);
    return n - 1;
}

size_t wsel__addr_format(int family, const uint8_t bytes[16], char *out, size_t len)
{
    size_t n = 0;
    if (family == 4)
        n = format4(bytes, out, len);
    else if (family == 6 && len && inet_ntop(AF_INET6, bytes, out, (socklen_t)len))
        n = strlen(out);
    if (!n && len)
        out[0] = '\0';
    return n;
}
