/* The lexer of gdnsd's config language. */
#ifndef WSEL_CORE_PARSE_LEX_H
#define WSEL_CORE_PARSE_LEX_H

#include "weighted_tree.h"

typedef enum wsel__tok_type {
    WSEL__T_EOF = 0,
    WSEL__T_LBRACE,
    WSEL__T_RBRACE,
    WSEL__T_LBRACK,
    WSEL__T_RBRACK,
    WSEL__T_COMMA,
    WSEL__T_ASSIGN,  /* => or = */
    WSEL__T_STRING,  /* quoted or unquoted, escapes decoded */
    WSEL__T_INCLUDE  /* the word $include */
} wsel__tok_type;

typedef struct wsel__token {
    wsel__tok_type type;
    unsigned line, col;
    char *str;           /* STRING: decoded text in the arena (raw text after it, see
                            WSEL__RAW_* in weighted_tree.h) */
    size_t len;
    unsigned char raw;   /* STRING: WSEL__RAW_* */
} wsel__token;

typedef struct wsel__lexer {
    const char *p, *end;
    const char *file;
    unsigned line, col;
    size_t max_string;
    wsel__arena *arena;
    wsel_error *err;
    char *buf;           /* scratch for decoding a string */
    size_t cap;
} wsel__lexer;

void wsel__lex_init(wsel__lexer *lx, const char *data, size_t len, const char *file,
                    size_t max_string, wsel__arena *arena, wsel_error *err);
void wsel__lex_fini(wsel__lexer *lx);
/* Reads the next token. Returns WSEL_OK or an error code (err filled). */
int wsel__lex_next(wsel__lexer *lx, wsel__token *tok);
/* How a token type is written in messages: "'{'", "a string", "end of file". */
const char *wsel__tok_name(wsel__tok_type t);

#endif
