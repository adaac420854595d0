/* IP addresses as text: the one parser and formatter of every system. Not installed. */
#ifndef WSEL_CORE_ADDR_H
#define WSEL_CORE_ADDR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Room for any address this module formats, NUL included (INET6_ADDRSTRLEN). */
#define WSEL__ADDR_TEXT 46

/* The family of s[0..len) read strictly (inet_pton's forms: a dotted quad of four
 * decimal numbers, or IPv6 text of RFC 4291; no zone, no prefix): 4 or 6, with the
 * address in out[16] (IPv4 in out[0..3]; the rest zero), or 0 with out zeroed. With
 * `brackets`, IPv6 may be written "[...]" (as in URLs and the ring's host names). s need
 * not be NUL-terminated; a NUL inside it makes it no address. */
int wsel__addr_parse(const char *s, size_t len, bool brackets, uint8_t out[16]);

/* The canonical text of an address of `family` (4: dotted decimal; 6: RFC 5952, as
 * inet_ntop writes it) into out; its length, or 0 (out "") when family is neither or
 * the text does not fit in len. */
size_t wsel__addr_format(int family, const uint8_t bytes[16], char *out, size_t len);

#endif
