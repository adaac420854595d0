/* bin/wsel: checking the DYNA / DYNC weighted!RES records of a zone file.
 *
 * Only what check needs of the zone format: one record per line, or several lines
 * joined by parentheses (`www 300 DYNA (` / `    weighted!pubwww )` is one record),
 * `;` comments (outside quotes), `$` directives skipped, a record being
 *     [NAME] [TTL] [IN] TYPE RDATA...
 * Only DYNA and DYNC records naming the `weighted` plugin are examined. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../cli.h"

#define MAX_TOKENS 32

typedef struct token {
    const char *s;
    size_t len;
    unsigned line, col;
} token;

/* A record's tokens, gathered over the lines its parentheses span; text[] holds copies of
 * the tokens (the lines themselves are not kept). */
typedef struct record {
    token tok[MAX_TOKENS];
    size_t off[MAX_TOKENS];
    size_t n;
    char *text;
    size_t len, cap;
    unsigned line;     /* where the record starts */
    int has_name;      /* its first line does not start with blank space */
    int directive;     /* a $ line */
} record;

static char *dupn(const char *s, size_t n)
{
    char *p = malloc(n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}

int cli_issue_add(zone_report *rep, const char *file, unsigned line, unsigned col,
                  int is_error, const char *name, const char *res, int rrtype,
                  const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = cli_issue_vadd(rep, file, line, col, is_error, name, res, rrtype, fmt, ap);
    va_end(ap);
    return rc;
}

int cli_issue_vadd(zone_report *rep, const char *file, unsigned line, unsigned col,
                   int is_error, const char *name, const char *res, int rrtype,
                   const char *fmt, va_list ap)
{
    char msg[2048];
    vsnprintf(msg, sizeof msg, fmt, ap);
    if (rep->n == rep->cap) {
        size_t cap = rep->cap ? rep->cap * 2 : 8;
        zone_issue *p = realloc(rep->issues, cap * sizeof *p);
        if (!p) {
            rep->nomem = 1;
            return -1;
        }
        rep->issues = p;
        rep->cap = cap;
    }
    zone_issue *z = &rep->issues[rep->n];
    z->file = dupn(file, strlen(file));
    z->message = dupn(msg, strlen(msg));
    z->name = dupn(name, strlen(name));
    z->resource = dupn(res, strlen(res));
    if (!z->file || !z->message || !z->name || !z->resource) {
        free(z->file);
        free(z->message);
        free(z->name);
        free(z->resource);
        rep->nomem = 1;
        return -1;
    }
    z->line = line;
    z->col = col;
    z->is_error = is_error;
    z->rrtype = rrtype;
    rep->n++;
    if (is_error)
        rep->errors++;
    else
        rep->warnings++;
    return 0;
}

/* Adds one line's tokens to the record; a quoted string is one token; `;` outside quotes
 * ends the line. Tracks parentheses across lines in *paren. -1 when out of memory. */
static int tokenize(const char *line, unsigned lineno, record *r, int *paren)
{
    const char *p = line;
    while (*p) {
        if (*p == ';')
            break;
        if (isspace((unsigned char)*p)) {
            p++;
            continue;
        }
        if (*p == '(' || *p == ')') {
            *paren += *p == '(' ? 1 : -1;
            p++;
            continue;
        }
        const char *start = p;
        if (*p == '"') {
            p++;
            while (*p && *p != '"') {
                if (*p == '\\' && p[1])
                    p++;
                p++;
            }
            if (*p == '"')
                p++;
        } else {
            while (*p && !isspace((unsigned char)*p) && *p != ';' && *p != '(' && *p != ')') {
                if (*p == '\\' && p[1])
                    p++;
                p++;
            }
        }
        if (r->n < MAX_TOKENS) {
            size_t tl = (size_t)(p - start);
            if (r->len + tl + 1 > r->cap) {
                size_t cap = r->cap ? r->cap : 256;
                while (r->len + tl + 1 > cap)
                    cap *= 2;
                char *nt = realloc(r->text, cap);
                if (!nt)
                    return -1;
                r->text = nt;
                r->cap = cap;
            }
            memcpy(r->text + r->len, start, tl);
            r->off[r->n] = r->len;
            r->len += tl;
            r->text[r->len++] = '\0';
            r->tok[r->n].len = tl;
            r->tok[r->n].line = lineno;
            r->tok[r->n].col = (unsigned)(start - line) + 1;
            r->n++;
        }
    }
    return 0;
}

static int tok_eq(const token *t, const char *s)
{
    return t->len == strlen(s) && strncasecmp(t->s, s, t->len) == 0;
}

static int is_ttl(const token *t)
{
    size_t i = 0;
    if (t->len == 0)
        return 0;
    /* gdnsd TTLs: digits, optionally with unit suffixes like 1h30m. */
    while (i < t->len) {
        if (!isdigit((unsigned char)t->s[i]))
            return 0;
        while (i < t->len && isdigit((unsigned char)t->s[i]))
            i++;
        if (i < t->len && strchr("smhdwSMHDW", t->s[i]))
            i++;
    }
    return 1;
}

static int check_record(const wsel_config *cfg, const char *path, const char *origin,
                        record *r, zone_report *rep)
{
    token *tok = r->tok;
    size_t n = r->n, ti = 0;
    for (size_t k = 0; k < n; k++)
        tok[k].s = r->text + r->off[k];
    for (; ti < n; ti++)
        if (tok_eq(&tok[ti], "DYNA") || tok_eq(&tok[ti], "DYNC"))
            break;
    if (ti == n)
        return 0;
    int rrtype = tok_eq(&tok[ti], "DYNA") ? WSEL_RR_DYNA : WSEL_RR_DYNC;
    const char *tname = rrtype == WSEL_RR_DYNA ? "DYNA" : "DYNC";
    /* The owner name is present unless the record's line starts with blank space. */
    int has_name = r->has_name;
    char name[512] = "";
    if (has_name && ti > 0)
        snprintf(name, sizeof name, "%.*s", (int)tok[0].len, tok[0].s);
    for (size_t k = has_name ? 1 : 0; k < ti; k++) {
        if (!is_ttl(&tok[k]) && !tok_eq(&tok[k], "IN"))
            return cli_issue_add(rep, path, tok[k].line, tok[k].col, 1, name, "", rrtype,
                                 "expected a TTL or class IN before %s, got '%.*s'", tname,
                                 (int)tok[k].len, tok[k].s);
    }
    if (ti + 1 >= n)
        return cli_issue_add(rep, path, tok[ti].line, tok[ti].col, 1, name, "", rrtype,
                             "%s record without PLUGIN!RESOURCE", tname);
    const token *rd = &tok[ti + 1];
    const char *bang = memchr(rd->s, '!', rd->len);
    size_t plen = bang ? (size_t)(bang - rd->s) : rd->len;
    if (plen != strlen("weighted") || strncmp(rd->s, "weighted", plen) != 0)
        return 0; /* another plugin's record */
    if (!bang || bang + 1 == rd->s + rd->len)
        return cli_issue_add(rep, path, rd->line, rd->col, 1, name, "", rrtype,
                             "%s record: expected weighted!RESOURCE, got '%.*s'", tname,
                             (int)rd->len, rd->s);
    rep->records++;
    char res[512];
    snprintf(res, sizeof res, "%.*s", (int)(rd->s + rd->len - bang - 1), bang + 1);
    unsigned col = rd->col + (unsigned)plen + 1;
    bool deprecated = false;
    wsel_error err;
    wsel_error_clear(&err);
    int rc = wsel_config_check_record(cfg, res, (wsel_rrtype)rrtype, origin, &deprecated, &err);
    if (rc != WSEL_OK)
        return cli_issue_add(rep, path, rd->line, col, 1, name, res, rrtype,
                             "%s weighted!%s: %s", tname, res,
                             err.message[0] ? err.message : wsel_strerror(rc));
    if (deprecated)
        return cli_issue_add(rep, path, rd->line, col, 0, name, res, rrtype,
                             "DYNC weighted!%s names an address resource: accepted (it "
                             "answers addresses) but deprecated; use DYNA", res);
    return 0;
}

int cli_zone_check(const char *cmd, const wsel_config *cfg, const char *path,
                   const char *origin, zone_report *rep)
{
    int rc = 0;
    FILE *f = cli_open_regular(cmd, "zone file", path, &rc);
    if (!f)
        return rc;
    char *line = NULL;
    size_t cap = 0, len = 0;
    unsigned lineno = 0;
    int paren = 0;
    int c;
    record rec;
    memset(&rec, 0, sizeof rec);
    for (;;) {
        len = 0;
        while ((c = fgetc(f)) != EOF && c != '\n') {
            if (len + 2 > cap) {
                size_t ncap = cap ? cap * 2 : 256;
                if (ncap > (1u << 20)) {
                    rc = cli_die(cmd, "%s:%u: line too long", path, lineno + 1);
                    goto out;
                }
                char *p = realloc(line, ncap);
                if (!p) {
                    rc = cli_nomem(cmd);
                    goto out;
                }
                line = p;
                cap = ncap;
            }
            line[len++] = (char)c;
        }
        if (c == EOF && len == 0)
            break;
        lineno++;
        if (!line) {
            continue; /* empty line before any allocation */
        }
        line[len] = '\0';
        if (memchr(line, '\0', len)) {
            rc = cli_die(cmd, "%s:%u: NUL byte in zone file", path, lineno);
            goto out;
        }
        if (paren == 0) { /* a new record starts on this line */
            rec.n = rec.len = 0;
            rec.line = lineno;
            rec.has_name = !isspace((unsigned char)line[0]);
            rec.directive = line[0] == '$';
        }
        if (tokenize(line, lineno, &rec, &paren) < 0) {
            rc = cli_nomem(cmd);
            goto out;
        }
        if (paren < 0)
            paren = 0;
        if (paren == 0 && !rec.directive && check_record(cfg, path, origin, &rec, rep) < 0) {
            rc = cli_nomem(cmd);
            goto out;
        }
        if (c == EOF)
            break;
    }
    if (paren > 0 && !ferror(f)) {
        if (cli_issue_add(rep, path, lineno, 1, 1, "", "", -1,
                          "'(' of the record at line %u is never closed", rec.line) < 0 ||
            (!rec.directive && check_record(cfg, path, origin, &rec, rep) < 0)) {
            rc = cli_nomem(cmd);
            goto out;
        }
    }
    if (ferror(f))
        rc = cli_die(cmd, "error reading zone file '%s': %s", path, strerror(errno));
out:
    free(line);
    free(rec.text);
    fclose(f);
    return rc;
}

void cli_zone_report_free(zone_report *rep)
{
    for (size_t i = 0; i < rep->n; i++) {
        free(rep->issues[i].file);
        free(rep->issues[i].message);
        free(rep->issues[i].name);
        free(rep->issues[i].resource);
    }
    free(rep->issues);
    memset(rep, 0, sizeof *rep);
}
