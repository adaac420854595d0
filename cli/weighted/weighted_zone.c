/* bin/wsel: checking the DYNA / DYNC weighted!RES records of a zone file.
 *
 * Only what check needs of the zone format: one record per line, or several lines
 * joined by parentheses (`www 300 DYNA (` / `    weighted!pubwww )` is one record),
 * `;` comments (outside quotes), `$` directives skipped, a record being
 *     [NAME] [TTL] [IN] TYPE RDATA...
 * Only DYNA and DYNC records naming the `weighted` plugin are examined. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "weighted_cli.h"
#include "../../core/io.h"

#define MAX_TOKENS 32
#define ZONE_MAX_SIZE ((size_t)1 << 30) /* a zone file: at most 1 GiB */
#define ZONE_MAX_LINE ((size_t)1 << 20) /* a line of it: less than 1 MiB */

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

int cli_issue_add(zone_report *rep, const char *file, unsigned line, unsigned col,
                  int is_error, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = cli_issue_vadd(rep, file, line, col, is_error, fmt, ap);
    va_end(ap);
    return rc;
}

int cli_issue_vadd(zone_report *rep, const char *file, unsigned line, unsigned col,
                   int is_error, const char *fmt, va_list ap)
{
    char msg[2048];
    vsnprintf(msg, sizeof msg, fmt, ap);
    if (!wsel__grow(&rep->issues, &rep->cap, rep->n + 1, sizeof *rep->issues)) {
        rep->nomem = 1;
        return -1;
    }
    zone_issue *z = &rep->issues[rep->n];
    /* both strings in one block, which z->file points to */
    size_t lf = strlen(file) + 1, lm = strlen(msg) + 1;
    char *b = malloc(lf + lm);
    if (!b) {
        rep->nomem = 1;
        return -1;
    }
    z->file = memcpy(b, file, lf);
    z->message = memcpy(b + lf, msg, lm);
    z->line = line;
    z->col = col;
    z->is_error = is_error;
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
            if (!wsel__grow(&r->text, &r->cap, r->len + tl + 1, 1))
                return -1;
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
    for (size_t k = has_name ? 1 : 0; k < ti; k++) {
        if (!is_ttl(&tok[k]) && !tok_eq(&tok[k], "IN"))
            return cli_issue_add(rep, path, tok[k].line, tok[k].col, 1,
                                 "expected a TTL or class IN before %s, got '%.*s'", tname,
                                 (int)tok[k].len, tok[k].s);
    }
    if (ti + 1 >= n)
        return cli_issue_add(rep, path, tok[ti].line, tok[ti].col, 1,
                             "%s record without PLUGIN!RESOURCE", tname);
    const token *rd = &tok[ti + 1];
    const char *bang = memchr(rd->s, '!', rd->len);
    size_t plen = bang ? (size_t)(bang - rd->s) : rd->len;
    if (plen != strlen("weighted") || strncmp(rd->s, "weighted", plen) != 0)
        return 0; /* another plugin's record */
    if (!bang || bang + 1 == rd->s + rd->len)
        return cli_issue_add(rep, path, rd->line, rd->col, 1,
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
        return cli_issue_add(rep, path, rd->line, col, 1,
                             "%s weighted!%s: %s", tname, res,
                             err.message[0] ? err.message : wsel_strerror(rc));
    if (deprecated)
        return cli_issue_add(rep, path, rd->line, col, 0,
                             "DYNC weighted!%s names an address resource: accepted (it "
                             "answers addresses) but deprecated; use DYNA", res);
    return 0;
}

/* One pass over a zone file's lines. */
typedef struct zone_scan {
    const char *cmd, *path, *origin;
    const wsel_config *cfg;
    zone_report *rep;
    record rec;          /* the record being gathered */
    int paren;           /* parentheses open across lines */
    unsigned lineno;
} zone_scan;

/* One line (NUL-terminated, len bytes before the NUL): adds it to the record, and checks
 * the record once its parentheses close. 0, or the exit status (message printed). */
static int zone_line(zone_scan *z, char *line, size_t len)
{
    z->lineno++;
    if (len >= ZONE_MAX_LINE)
        return cli_die(z->cmd, "%s:%u: line too long", z->path, z->lineno);
    if (memchr(line, '\0', len))
        return cli_die(z->cmd, "%s:%u: NUL byte in zone file", z->path, z->lineno);
    record *rec = &z->rec;
    if (z->paren == 0) { /* a new record starts on this line */
        rec->n = rec->len = 0;
        rec->line = z->lineno;
        rec->has_name = !isspace((unsigned char)line[0]);
        rec->directive = line[0] == '$';
    }
    if (tokenize(line, z->lineno, rec, &z->paren) < 0)
        return cli_nomem(z->cmd);
    if (z->paren < 0)
        z->paren = 0;
    if (z->paren == 0 && !rec->directive &&
        check_record(z->cfg, z->path, z->origin, rec, z->rep) < 0)
        return cli_nomem(z->cmd);
    return 0;
}

int cli_zone_check(const char *cmd, const wsel_config *cfg, const char *path,
                   const char *origin, zone_report *rep)
{
    char *data;
    size_t len;
    wsel_error err;
    wsel_error_clear(&err);
    if (wsel__read_file(path, "zone file", ZONE_MAX_SIZE, NULL, &data, &len, &err) != WSEL_OK)
        return cli_report(cmd, &err, CLI_ROLE_INPUT);
    zone_scan z = {.cmd = cmd, .path = path, .origin = origin, .cfg = cfg, .rep = rep};
    int rc = 0;
    /* Lines end at '\n'; a last line without one counts, an empty end does not. */
    for (size_t pos = 0; rc == 0 && pos < len;) {
        char *line = data + pos;
        char *nl = memchr(line, '\n', len - pos);
        size_t n = nl ? (size_t)(nl - line) : len - pos;
        line[n] = '\0';
        pos += n + 1;
        rc = zone_line(&z, line, n);
    }
    if (rc == 0 && z.paren > 0 &&
        (cli_issue_add(rep, path, z.lineno, 1, 1,
                       "'(' of the record at line %u is never closed", z.rec.line) < 0 ||
         (!z.rec.directive && check_record(cfg, path, origin, &z.rec, rep) < 0)))
        rc = cli_nomem(cmd);
    free(data);
    free(z.rec.text);
    return rc;
}

void cli_zone_report_free(zone_report *rep)
{
    for (size_t i = 0; i < rep->n; i++)
        free(rep->issues[i].file); /* the block of both its strings */
    free(rep->issues);
    memset(rep, 0, sizeof *rep);
}
