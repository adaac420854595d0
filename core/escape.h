/* The one escaper for text output (doc/architecture.md): names, tokens and messages may
 * hold any byte, and none of it reaches a terminal raw. Control bytes (0x00-0x1f, 0x7f)
 * are written as \DDD, the weighted config language's own escape (three decimal
 * digits); every other byte is written as it is. The CLI passes every text line it
 * prints through it; JSON output has its own escaping (core/json_write.h). Not
 * installed. */
#ifndef WSEL_CORE_ESCAPE_H
#define WSEL_CORE_ESCAPE_H

#include <stddef.h>
#include <stdio.h>

/* Longest escape of one byte ("\\127" is 4 bytes). */
#define WSEL__ESC_PER_BYTE 4

/* s escaped into buf (cut short, at a whole escape, to fit len - 1 bytes, then
 * NUL-terminated); returns buf. NULL s is "". */
const char *wsel__escape(const char *s, char *buf, size_t len);
/* s escaped, written to f. */
void wsel__escape_put(FILE *f, const char *s);

#endif
