/* Escaping text for output (core/escape.h). */
#include <string.h>

#include "escape.h"

/* One byte as the terminal may see it: itself, or a control byte as \DDD. Returns the
 * length written to out. */
static size_t esc_byte(unsigned char c, char out[WSEL__ESC_PER_BYTE + 1])
{
    if (c < 0x20 || c == 0x7f) {
        out[0] = '\\';
        out[1] = (char)('0' + c / 100);
        out[2] = (char)('0' + c / 10 % 10);
        out[3] = (char)('0' + c % 10);
        out[4] = '\0';
        return 4;
    }
    out[0] = (char)c;
    out[1] = '\0';
    return 1;
}

const char *wsel__escape(const char *s, char *buf, size_t len)
{
    size_t n = 0;
    char e[WSEL__ESC_PER_BYTE + 1];
    for (; s && *s; s++) {
        size_t k = esc_byte((unsigned char)*s, e);
        if (n + k >= len)
            break;
        memcpy(buf + n, e, k);
        n += k;
    }
    if (len)
        buf[n] = '\0';
    return buf;
}

void wsel__escape_put(FILE *f, const char *s)
{
    char e[WSEL__ESC_PER_BYTE + 1];
    for (; s && *s; s++) {
        esc_byte((unsigned char)*s, e);
        fputs(e, f);
    }
}
