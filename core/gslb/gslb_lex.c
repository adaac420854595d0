/* GSLB config reader, lexical part (doc/gslb.md §1): braces, quoted strings, bare words,
 * '#' comments; every token with its line and column. */
#include <stdlib.h>
#include <string.h>

#include "gslb_parse.h"

static int push(wsel__gslb_lexer *lx, int type, char *text, unsigned line, unsigned col)
{
    if (lx->n >= WSEL_GSLB_MAX_TOKENS)
        return WSEL_E_LIMIT;
    if (!wsel__grow(&lx->t, &lx->cap, lx->n + 1, sizeof *lx->t))
        return WSEL_E_NOMEM;
    lx->t[lx->n++] = (wsel__gslb_tok){type, text, line, col};
    return 0;
}

static int push_fail(wsel_error *err, int rc, const char *file, unsigned line, unsigned col)
{
    if (rc == WSEL_E_LIMIT)
        return wsel__fail(err, rc, file, line, col, NULL, NULL, NULL,
                          "more than %u tokens in the config", WSEL_GSLB_MAX_TOKENS);
    return wsel__fail(err, rc, file, 0, 0, NULL, NULL, NULL, "out of memory");
}

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

int wsel__gslb_lex(wsel__gslb_lexer *lx, const char *file, const char *src, size_t len,
                   char **version, wsel_error *err)
{
    memset(lx, 0, sizeof *lx);
    /* every token's text fits in its source span plus a NUL */
    lx->store = malloc(len * 2 + 2);
    if (!lx->store)
        return wsel__fail(err, WSEL_E_NOMEM, file, 0, 0, NULL, NULL, NULL, "out of memory");
    char *out = lx->store;
    unsigned line = 1, col = 1;
    size_t i = 0;
    int rc;
#define ADV()                                                                              \
    do {                                                                                   \
        if (src[i] == '\n') {                                                              \
            line++;                                                                        \
            col = 1;                                                                       \
        } else                                                                             \
            col++;                                                                         \
        i++;                                                                               \
    } while (0)
    while (i < len) {
        char c = src[i];
        if (c == '\0')
            return wsel__fail(err, WSEL_E_SYNTAX, file, line, col, NULL, NULL, NULL,
                              "NUL byte in the config");
        if (is_space(c)) {
            ADV();
            continue;
        }
        unsigned tl = line, tc = col;
        if (c == '#') {
            size_t s = i;
            while (i < len && src[i] != '\n')
                ADV();
            static const char tag[] = "#TMSH-VERSION:";
            if (version && !*version && i - s > sizeof tag - 1 &&
                memcmp(src + s, tag, sizeof tag - 1) == 0) {
                size_t a = s + sizeof tag - 1;
                while (a < i && (src[a] == ' ' || src[a] == '\t'))
                    a++;
                size_t b = i;
                while (b > a && is_space(src[b - 1]))
                    b--;
                *version = malloc(b - a + 1);
                if (!*version)
                    return wsel__fail(err, WSEL_E_NOMEM, file, 0, 0, NULL, NULL, NULL,
                                      "out of memory");
                memcpy(*version, src + a, b - a);
                (*version)[b - a] = '\0';
            }
            continue;
        }
        if (c == '{' || c == '}') {
            ADV();
            if ((rc = push(lx, c == '{' ? WSEL__TOK_LBRACE : WSEL__TOK_RBRACE,
                           c == '{' ? "{" : "}", tl, tc)))
                return push_fail(err, rc, file, tl, tc);
            continue;
        }
        char *text = out;
        if (c == '"') {
            ADV();
            for (;;) {
                if (i >= len)
                    return wsel__fail(err, WSEL_E_SYNTAX, file, tl, tc, NULL, NULL, NULL,
                                      "unterminated quoted string");
                if (src[i] == '\0')
                    return wsel__fail(err, WSEL_E_SYNTAX, file, line, col, NULL, NULL, NULL,
                                      "NUL byte in a quoted string");
                if (src[i] == '"') {
                    ADV();
                    break;
                }
                if (src[i] == '\\' && i + 1 < len && (src[i + 1] == '"' || src[i + 1] == '\\')) {
                    ADV();
                    *out++ = src[i];
                    ADV();
                    continue;
                }
                *out++ = src[i];
                ADV();
            }
            *out++ = '\0';
            if ((rc = push(lx, WSEL__TOK_STRING, text, tl, tc)))
                return push_fail(err, rc, file, tl, tc);
            continue;
        }
        while (i < len && !is_space(src[i]) && src[i] != '{' && src[i] != '}' &&
               src[i] != '"' && src[i] != '\0') {
            *out++ = src[i];
            ADV();
        }
        *out++ = '\0';
        if ((rc = push(lx, WSEL__TOK_WORD, text, tl, tc)))
            return push_fail(err, rc, file, tl, tc);
    }
#undef ADV
    if ((rc = push(lx, WSEL__TOK_EOF, "end of file", line, col)))
        return push_fail(err, rc, file, line, col);
    return 0;
}

void wsel__gslb_lex_free(wsel__gslb_lexer *lx)
{
    free(lx->t);
    free(lx->store);
    memset(lx, 0, sizeof *lx);
}
