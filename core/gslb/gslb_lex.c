/* GSLB config reader, lexical part (doc/gslb.md §1): braces, quoted strings, bare words,
 * '#' comments; every token with its line and column. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "gslb_parse.h"

static int push(wsel__gslb_lexer *lx, int type, const char *text, unsigned line, unsigned col)
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

/* Where the lexer is in the source: offset, line and column (1-based). */
typedef struct lex_cursor {
    const char *file, *src;
    size_t len, i;
    unsigned line, col;
    wsel_error *err;
} lex_cursor;

/* A line ends at LF, at CR LF (counted once, at the LF) and at a CR alone (old Mac
 * files: without it every token of a CR-only file would be on line 1). */
static bool line_end(const lex_cursor *c)
{
    return c->src[c->i] == '\n' ||
           (c->src[c->i] == '\r' && (c->i + 1 >= c->len || c->src[c->i + 1] != '\n'));
}

static void advance(lex_cursor *c)
{
    if (line_end(c)) {
        c->line++;
        c->col = 1;
    } else {
        c->col++;
    }
    c->i++;
}

/* A '#' comment to the end of its line; the first "#TMSH-VERSION: X" gives *version. */
static int comment(lex_cursor *c, char **version)
{
    static const char tag[] = "#TMSH-VERSION:";
    size_t s = c->i;
    while (c->i < c->len && !line_end(c))
        advance(c);
    if (!version || *version || c->i - s <= sizeof tag - 1 ||
        memcmp(c->src + s, tag, sizeof tag - 1) != 0)
        return 0;
    size_t a = s + sizeof tag - 1, b = c->i;
    while (a < b && (c->src[a] == ' ' || c->src[a] == '\t'))
        a++;
    while (b > a && is_space(c->src[b - 1]))
        b--;
    if (!(*version = malloc(b - a + 1)))
        return wsel__fail(c->err, WSEL_E_NOMEM, c->file, 0, 0, NULL, NULL, NULL, "out of memory");
    memcpy(*version, c->src + a, b - a);
    (*version)[b - a] = '\0';
    return 0;
}

/* A quoted string from its opening '"' (at tl:tc): its text, with \" and \\ unescaped,
 * written at *out. */
static int quoted(lex_cursor *c, char **out, unsigned tl, unsigned tc)
{
    advance(c);
    for (;;) {
        if (c->i >= c->len)
            return wsel__fail(c->err, WSEL_E_SYNTAX, c->file, tl, tc, NULL, NULL, NULL,
                              "unterminated quoted string");
        char ch = c->src[c->i];
        if (ch == '\0')
            return wsel__fail(c->err, WSEL_E_SYNTAX, c->file, c->line, c->col, NULL, NULL, NULL,
                              "NUL byte in a quoted string");
        if (ch == '"') {
            advance(c);
            break;
        }
        if (ch == '\\' && c->i + 1 < c->len &&
            (c->src[c->i + 1] == '"' || c->src[c->i + 1] == '\\'))
            advance(c);
        *(*out)++ = c->src[c->i];
        advance(c);
    }
    *(*out)++ = '\0';
    return 0;
}

/* A bare word: up to a blank, a brace, a quote or a NUL. */
static void word(lex_cursor *c, char **out)
{
    while (c->i < c->len && !is_space(c->src[c->i]) && c->src[c->i] != '{' &&
           c->src[c->i] != '}' && c->src[c->i] != '"' && c->src[c->i] != '\0') {
        *(*out)++ = c->src[c->i];
        advance(c);
    }
    *(*out)++ = '\0';
}

/* The next token (or comment, or blank) at the cursor. */
static int token(wsel__gslb_lexer *lx, lex_cursor *c, char **out, char **version)
{
    char ch = c->src[c->i];
    unsigned tl = c->line, tc = c->col;
    int rc = 0;
    if (ch == '\0')
        return wsel__fail(c->err, WSEL_E_SYNTAX, c->file, c->line, c->col, NULL, NULL, NULL,
                          "NUL byte in the config");
    if (is_space(ch)) {
        advance(c);
        return 0;
    }
    if (ch == '#')
        return comment(c, version);
    const char *text = *out;
    int type = WSEL__TOK_WORD;
    if (ch == '{' || ch == '}') {
        advance(c);
        type = ch == '{' ? WSEL__TOK_LBRACE : WSEL__TOK_RBRACE;
        text = ch == '{' ? "{" : "}";
    } else if (ch == '"') {
        type = WSEL__TOK_STRING;
        rc = quoted(c, out, tl, tc);
    } else {
        word(c, out);
    }
    if (!rc && (rc = push(lx, type, text, tl, tc)))
        return push_fail(c->err, rc, c->file, tl, tc);
    return rc;
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
    lex_cursor c = {file, src, len, 0, 1, 1, err};
    int rc;
    while (c.i < len)
        if ((rc = token(lx, &c, &out, version)))
            return rc;
    if ((rc = push(lx, WSEL__TOK_EOF, "end of file", c.line, c.col)))
        return push_fail(err, rc, file, c.line, c.col);
    return 0;
}

void wsel__gslb_lex_free(wsel__gslb_lexer *lx)
{
    free(lx->t);
    free(lx->store);
    memset(lx, 0, sizeof *lx);
}
