/* Lexer for gdnsd's config language: punctuation, strings with escapes, comments. */
#include <stdlib.h>
#include <string.h>

#include "weighted_lex.h"

void wsel__lex_init(wsel__lexer *lx, const char *data, size_t len, const char *file,
                    size_t max_string, wsel__arena *arena, wsel_error *err)
{
    memset(lx, 0, sizeof *lx);
    lx->p = data;
    lx->end = data + len;
    lx->file = file;
    lx->line = 1;
    lx->col = 1;
    lx->max_string = max_string;
    lx->arena = arena;
    lx->err = err;
}

void wsel__lex_fini(wsel__lexer *lx)
{
    free(lx->buf);
    lx->buf = NULL;
    lx->cap = 0;
}

const char *wsel__tok_name(wsel__tok_type t)
{
    switch (t) {
    case WSEL__T_EOF: return "end of file";
    case WSEL__T_LBRACE: return "'{'";
    case WSEL__T_RBRACE: return "'}'";
    case WSEL__T_LBRACK: return "'['";
    case WSEL__T_RBRACK: return "']'";
    case WSEL__T_COMMA: return "','";
    case WSEL__T_ASSIGN: return "'=>'";
    case WSEL__T_STRING: return "a string";
    case WSEL__T_INCLUDE: return "$include";
    }
    return "?";
}

static int peek(const wsel__lexer *lx)
{
    return lx->p < lx->end ? (unsigned char)*lx->p : -1;
}

static void advance(wsel__lexer *lx)
{
    if (*lx->p == '\n') {
        lx->line++;
        lx->col = 1;
    } else {
        lx->col++;
    }
    lx->p++;
}

static bool is_space(int c)
{
    /* CR counts as whitespace so that CRLF files read like LF files. */
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static bool ends_unquoted(int c)
{
    return c < 0 || is_space(c) || strchr("{}[];#,\"=", c) != NULL || c == '\0';
}

static int fail(wsel__lexer *lx, int code, unsigned line, unsigned col, const char *fmt,
                const char *arg)
{
    return wsel__fail(lx->err, code, lx->file, line, col, NULL, NULL, NULL, fmt, arg);
}

/* Appends the k bytes at s to the string being decoded (*n bytes so far, never more
 * than the limit). */
static int put_run(wsel__lexer *lx, size_t *n, const char *s, size_t k, unsigned line,
                   unsigned col)
{
    if (k > lx->max_string - *n)
        return wsel__fail(lx->err, WSEL_E_LIMIT, lx->file, line, col, NULL, NULL, NULL,
                          "string longer than the limit of %zu bytes", lx->max_string);
    if (!wsel__grow(&lx->buf, &lx->cap, *n + k, 1))
        return fail(lx, WSEL_E_NOMEM, line, col, "out of memory%s", "");
    memcpy(lx->buf + *n, s, k);
    *n += k;
    return WSEL_OK;
}

static int put(wsel__lexer *lx, size_t *n, char c, unsigned line, unsigned col)
{
    return put_run(lx, n, &c, 1, line, col);
}

/* Takes the plain characters from lx->p up to `stop` (none of them a newline) as one
 * run: appended to the string, the position moved past them. */
static int take_run(wsel__lexer *lx, size_t *n, const char *stop, const wsel__token *tok)
{
    if (stop == lx->p)
        return WSEL_OK;
    int rc = put_run(lx, n, lx->p, (size_t)(stop - lx->p), tok->line, tok->col);
    lx->col += (unsigned)(stop - lx->p);
    lx->p = stop;
    return rc;
}

/* Decodes the escape whose backslash is at lx->p: \X is X, \DDD is the byte DDD. */
static int escape(wsel__lexer *lx, size_t *n, unsigned tline, unsigned tcol)
{
    unsigned line = lx->line, col = lx->col;
    advance(lx);
    int c = peek(lx);
    if (c < 0)
        return fail(lx, WSEL_E_ESCAPE, line, col,
                    "backslash at end of file; expected an escaped character or three "
                    "decimal digits%s", "");
    if (c >= '0' && c <= '9') {
        unsigned v = 0;
        for (int i = 0; i < 3; i++) {
            c = peek(lx);
            if (c < '0' || c > '9')
                return fail(lx, WSEL_E_ESCAPE, line, col,
                            "bad escape: expected exactly three decimal digits 000-199 "
                            "after the backslash%s", "");
            v = v * 10 + (unsigned)(c - '0');
            advance(lx);
        }
        /* gdnsd 3.8.1's scanner takes \000-\199 only (measured: \200-\255 are syntax
         * errors there), so a byte above 199 cannot be written as an escape
         * (doc/weighted.md §2.4). */
        if (v > 199)
            return wsel__fail(lx->err, WSEL_E_ESCAPE, lx->file, line, col, NULL, NULL, NULL,
                              "bad escape \\%03u: expected a decimal byte value 000-199 "
                              "(gdnsd refuses \\200-\\255)", v);
        return put(lx, n, (char)v, tline, tcol);
    }
    /* Everything else, backslash-newline included, stands for itself. */
    advance(lx);
    return put(lx, n, (char)c, tline, tcol);
}

/* The decoded text; when the string held an escape, its raw text (between the quotes)
 * follows the decoded text's NUL, for values gdnsd reads with other escape rules (a
 * CNAME, doc/weighted.md §3.5). */
static int finish_string(wsel__lexer *lx, wsel__token *tok, size_t n, const char *raw,
                         bool escaped)
{
    size_t rawlen = (size_t)(lx->p - raw) - (*raw == '"');
    if (*raw == '"')
        raw++;
    tok->type = WSEL__T_STRING;
    tok->len = n;
    tok->raw = memchr(raw, '\0', rawlen) ? WSEL__RAW_NUL
             : escaped ? WSEL__RAW_KEPT : WSEL__RAW_SAME;
    size_t extra = tok->raw == WSEL__RAW_KEPT ? rawlen + 1 : 0;
    tok->str = wsel__arena_alloc(lx->arena, n + 1 + extra);
    if (!tok->str)
        return fail(lx, WSEL_E_NOMEM, tok->line, tok->col, "out of memory%s", "");
    if (n)
        memcpy(tok->str, lx->buf, n);
    tok->str[n] = '\0';
    if (extra) {
        memcpy(tok->str + n + 1, raw, rawlen);
        tok->str[n + 1 + rawlen] = '\0';
    }
    return WSEL_OK;
}

static int quoted(wsel__lexer *lx, wsel__token *tok)
{
    size_t n = 0;
    const char *raw = lx->p;
    bool escaped = false;
    advance(lx);
    for (;;) {
        /* a run of characters that stand for themselves first */
        const char *stop = lx->p;
        while (stop < lx->end && *stop != '"' && *stop != '\\' && *stop != '\n')
            stop++;
        int rc = take_run(lx, &n, stop, tok);
        if (rc)
            return rc;
        int c = peek(lx);
        if (c < 0)
            return fail(lx, WSEL_E_SYNTAX, tok->line, tok->col,
                        "unterminated quoted string; expected a closing '\"'%s", "");
        if (c == '"') {
            rc = finish_string(lx, tok, n, raw, escaped);
            advance(lx);
            return rc;
        }
        if (c == '\\') {
            escaped = true;
            rc = escape(lx, &n, tok->line, tok->col);
        } else {
            rc = put(lx, &n, (char)c, tok->line, tok->col);
            advance(lx);
        }
        if (rc)
            return rc;
    }
}

static int unquoted(wsel__lexer *lx, wsel__token *tok)
{
    size_t n = 0;
    const char *raw = lx->p;
    bool escaped = false;
    for (;;) {
        /* a run of characters that stand for themselves first (a newline ends it) */
        const char *stop = lx->p;
        while (stop < lx->end && *stop != '\\' && !ends_unquoted((unsigned char)*stop))
            stop++;
        int rc = take_run(lx, &n, stop, tok);
        if (rc)
            return rc;
        if (peek(lx) != '\\')
            return finish_string(lx, tok, n, raw, escaped);
        escaped = true;
        rc = escape(lx, &n, tok->line, tok->col);
        if (rc)
            return rc;
    }
}

static int skip_blanks(wsel__lexer *lx)
{
    for (;;) {
        int c = peek(lx);
        if (is_space(c)) {
            advance(lx);
        } else if (c == '#' || c == ';') {
            unsigned line = lx->line, col = lx->col;
            while (peek(lx) >= 0 && peek(lx) != '\n')
                advance(lx);
            /* gdnsd 3.8.1 refuses a file that ends inside a comment (doc/weighted.md
             * §2.3, formerly D5) */
            if (peek(lx) < 0)
                return wsel__fail(lx->err, WSEL_E_SYNTAX, lx->file, line, col, NULL, NULL,
                                  NULL, "the file ends inside this comment (no newline "
                                  "after it), which gdnsd refuses; expected a newline at "
                                  "the end of the file");
        } else {
            return WSEL_OK;
        }
    }
}

static const char include_word[] = "$include";

int wsel__lex_next(wsel__lexer *lx, wsel__token *tok)
{
    memset(tok, 0, sizeof *tok);
    int rc = skip_blanks(lx);
    if (rc)
        return rc;
    tok->line = lx->line;
    tok->col = lx->col;
    int c = peek(lx);
    static const char punct[] = "{}[],";
    static const wsel__tok_type punct_type[] = { WSEL__T_LBRACE, WSEL__T_RBRACE,
                                                 WSEL__T_LBRACK, WSEL__T_RBRACK,
                                                 WSEL__T_COMMA };
    if (c < 0) {
        tok->type = WSEL__T_EOF;
        return WSEL_OK;
    }
    const char *pc = c ? strchr(punct, c) : NULL;
    if (pc) {
        tok->type = punct_type[pc - punct];
        advance(lx);
        return WSEL_OK;
    }
    if (c == '=') {
        advance(lx);
        if (peek(lx) == '>')
            advance(lx);
        tok->type = WSEL__T_ASSIGN;
        return WSEL_OK;
    }
    if (c == '"')
        return quoted(lx, tok);
    if (c == '\0')
        return fail(lx, WSEL_E_SYNTAX, tok->line, tok->col,
                    "NUL byte in the input; expected text (write \\000 for a NUL)%s", "");
    if (c == '$') {
        size_t wl = sizeof include_word - 1;
        if ((size_t)(lx->end - lx->p) >= wl && memcmp(lx->p, include_word, wl) == 0) {
            const char *after = lx->p + wl;
            int nc = after < lx->end ? (unsigned char)*after : -1;
            if (nc == '{' || is_space(nc)) {
                for (size_t i = 0; i < wl; i++)
                    advance(lx);
                tok->type = WSEL__T_INCLUDE;
                return WSEL_OK;
            }
        }
        return fail(lx, WSEL_E_SYNTAX, tok->line, tok->col,
                    "unquoted string starts with '$'; expected $include{ PATH }, or quote "
                    "the string%s", "");
    }
    return unquoted(lx, tok);
}
