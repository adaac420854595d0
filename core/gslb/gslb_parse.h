/* GSLB config reader: tokens (gslb_lex.c) for the schema-driven parser (gslb_parse.c). */
#ifndef WSEL_CORE_GSLB_PARSE_H
#define WSEL_CORE_GSLB_PARSE_H

#include "gslb_internal.h"

enum { WSEL__TOK_WORD, WSEL__TOK_STRING, WSEL__TOK_LBRACE, WSEL__TOK_RBRACE, WSEL__TOK_EOF };

typedef struct wsel__gslb_tok {
    int type;
    const char *text;
    unsigned line, col;
} wsel__gslb_tok;

typedef struct wsel__gslb_lex {
    wsel__gslb_tok *t;
    size_t n, cap;
    char *store;
} wsel__gslb_lexer;

/* Splits src into tokens (the last one EOF). `*version` receives a "#TMSH-VERSION:" value. */
int wsel__gslb_lex(wsel__gslb_lexer *lx, const char *file, const char *src, size_t len,
                   char **version, wsel_error *err);
void wsel__gslb_lex_free(wsel__gslb_lexer *lx);

#endif
