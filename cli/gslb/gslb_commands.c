/* bin/wsel gslb: what the GSLB commands share, and `gslb check` (resolve in
 * gslb_resolve.c, explain in gslb_explain.c). */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../../core/gslb/gslb_internal.h"
#include "gslb_cli.h"

int cli_gslb_load(const char *cmd, const char *path, wsel_gslb_config **out)
{
    wsel_error err;
    wsel_error_clear(&err);
    if (wsel_gslb_config_load_file(path, out, &err) == WSEL_OK)
        return CLI_OK;
    return cli_report(cmd, &err, CLI_ROLE_CHECKED);
}

int cli_gslb_lint(const char *cmd, const wsel_gslb_config *cfg, wsel_gslb_finding **f,
                  size_t *n)
{
    wsel_error err;
    wsel_error_clear(&err);
    if (wsel_gslb_lint(cfg, f, n, &err) == WSEL_OK)
        return CLI_OK;
    return cli_report(cmd, &err, CLI_ROLE_CHECKED);
}

/* name without a leading /Common/ and a trailing dot, for comparing wide IP names */
static size_t bare(const char *name, const char **start)
{
    if (!strncmp(name, "/Common/", 8))
        name += 8;
    size_t n = strlen(name);
    if (n && name[n - 1] == '.')
        n--;
    *start = name;
    return n;
}

int cli_gslb_find_wideip(const char *cmd, const wsel_gslb_config *cfg, const char *name,
                         const char *path, wsel_gslb_type type, long *out)
{
    if ((*out = wsel_gslb_find_wideip_type(cfg, name, type)) >= 0)
        return CLI_OK;
    wsel_gslb_type other = type == WSEL_GSLB_TYPE_A ? WSEL_GSLB_TYPE_AAAA : WSEL_GSLB_TYPE_A;
    long o = wsel_gslb_find_wideip_type(cfg, name, other);
    if (o >= 0) { /* each type its own names; such a query meets no wide IP */
        const wsel_gslb_wideip *w = &cfg->wideips[o];
        return cli_die(cmd, "no %s wide IP answers '%s' in %s; %s:%u:%u: gtm wideip %s %s does "
                       "(query type %s: --type %s)", wsel_gslb_type_name(type), name, path, path,
                       w->pos.line, w->pos.col, wsel__gslb_type_word(other),
                       w->name, wsel_gslb_type_name(other), wsel_gslb_type_name(other));
    }
    const char *want, *have;
    size_t nw = bare(name, &want);
    for (size_t i = 0; i < cfg->n_unknown; i++) {
        const wsel_gslb_unknown *u = &cfg->unknown[i];
        const char *last = strrchr(u->object, ' ');
        if (strncmp(u->object, "gtm wideip ", 11) || !last)
            continue;
        size_t nh = bare(last + 1, &have);
        if (nh == nw && !strncasecmp(have, want, nw))
            return cli_die(cmd, "%s:%u:%u: %s: this type is not supported (A and AAAA wide IPs only; lint G030)",
                           path, u->pos.line, u->pos.col, u->object);
    }
    return cli_die(cmd, "no wide IP '%s' in %s", name, path);
}

const char *cli_gslb_severity(wsel_gslb_severity s)
{
    return s == WSEL_GSLB_ERROR ? "error" : s == WSEL_GSLB_WARNING ? "warning" : "info";
}

int cli_gslb_arg(const char *a, int *done, int *json, const char *usage)
{
    if (*done || a[0] != '-' || !a[1])
        return CLI_GSLB_OPERAND;
    if (!strcmp(a, "--")) {
        *done = 1;
        return CLI_GSLB_TAKEN;
    }
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
        fputs(usage, stdout);
        return CLI_GSLB_HELP;
    }
    if (!strcmp(a, "--json")) {
        *json = 1;
        return CLI_GSLB_TAKEN;
    }
    return CLI_GSLB_OPTION;
}

/* ---- text output ---- */

/* One conversion other than %s and %%: spec[] holds it (flags, width, precision, length,
 * conversion); its argument is taken from ap by its length modifier. The GSLB commands'
 * formats use only %u (%03u) and %zu besides %s: the double, int, long and long long
 * branches are reached by no input, kept so that any printf format works here. */
static void put_conversion(FILE *f, const char *spec, va_list *ap)
{
    size_t n = strlen(spec);
    char conv = spec[n - 1];
    bool ll = strstr(spec, "ll") != NULL, l = !ll && strchr(spec, 'l'), z = strchr(spec, 'z');
    bool is_signed = conv == 'd' || conv == 'i';
    if (conv == 'g' || conv == 'f' || conv == 'e')
        fprintf(f, spec, va_arg(*ap, double));
    else if (conv == 'c' || (!ll && !l && !z && is_signed)) /* h and hh promote to int */
        fprintf(f, spec, va_arg(*ap, int));
    else if (!ll && !l && !z)
        fprintf(f, spec, va_arg(*ap, unsigned));
    else if (z)
        fprintf(f, spec, va_arg(*ap, size_t));
    else if (l && is_signed)
        fprintf(f, spec, va_arg(*ap, long));
    else if (l)
        fprintf(f, spec, va_arg(*ap, unsigned long));
    else if (is_signed)
        fprintf(f, spec, va_arg(*ap, long long));
    else
        fprintf(f, spec, va_arg(*ap, unsigned long long));
}

void cli_gslb_printf(FILE *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    const char *p = fmt;
    while (*p) {
        size_t lit = strcspn(p, "%");
        fwrite(p, 1, lit, f);
        p += lit;
        if (!*p)
            break;
        const char *start = p++;
        while (*p && strchr("-+ #0", *p))
            p++;
        while (isdigit((unsigned char)*p) || *p == '.')
            p++;
        while (*p && strchr("hlz", *p))
            p++;
        if (!*p)
            break;
        char conv = *p++;
        if (conv == '%') {
            fputc('%', f);
        } else if (conv == 's') {
            const char *s = va_arg(ap, const char *);
            wsel__escape_put(f, s);
        } else {
            char spec[32];
            size_t n = (size_t)(p - start) < sizeof spec ? (size_t)(p - start) : sizeof spec - 1;
            memcpy(spec, start, n);
            spec[n] = '\0';
            put_conversion(f, spec, &ap);
        }
    }
    va_end(ap);
}

/* ---- check ---- */

static const char check_usage[] =
    "usage: wsel gslb check CONFIG [--json]\n"
    "Reads a bigip_gtm.conf subset (gtm server, gtm pool a|aaaa, gtm wideip a|aaaa,\n"
    "gtm region, gtm topology, gtm global-settings load-balancing) and runs the checks\n"
    "G001-G036.\n"
    "Exit status: 0 valid (warnings and info allowed), 1 parse error or an error finding,\n"
    "2 usage, 3 out of memory or the output cannot be written.\n";

static void check_json(const wsel_gslb_config *cfg, const wsel_gslb_finding *f, size_t n)
{
    wsel__jw j;
    wsel__jw_init(&j, stdout);
    wsel__jw_obj_begin(&j);
    wsel__jw_karr_begin(&j, "findings");
    for (size_t i = 0; i < n; i++) {
        char code[16];
        snprintf(code, sizeof code, "G%03u", f[i].code);
        wsel__jw_obj_begin(&j);
        wsel__jw_kstr(&j, "code", code);
        wsel__jw_kstr(&j, "severity", cli_gslb_severity(f[i].severity));
        wsel__jw_kstr(&j, "object", f[i].object);
        wsel__jw_kstr(&j, "file", cfg->file);
        wsel__jw_ku64(&j, "line", f[i].pos.line);
        wsel__jw_kstr(&j, "message", f[i].message);
        wsel__jw_obj_end(&j);
    }
    wsel__jw_arr_end(&j);
    wsel__jw_obj_end(&j);
    cli_json_end(&j);
}

static void check_text(const wsel_gslb_config *cfg, const wsel_gslb_finding *f, size_t n,
                       const size_t *count)
{
    cli_gslb_printf(stdout, "%s: %zu servers (%zu virtual servers), %zu pools, %zu wide IPs, "
                            "%zu regions, %zu topology records",
                    cfg->file, cfg->n_servers, cfg->n_vs, cfg->n_pools, cfg->n_wideips,
                    cfg->n_regions, cfg->n_topo);
    if (cfg->version)
        cli_gslb_printf(stdout, ", TMSH-VERSION %s", cfg->version);
    fputc('\n', stdout);
    if (cfg->skipped_statements)
        printf("skipped: %zu out-of-scope statements (see G030)\n", cfg->skipped_statements);
    for (size_t i = 0; i < n; i++)
        cli_gslb_printf(stdout, "%s:%u:%u: %s: G%03u %s: %s\n", cfg->file, f[i].pos.line,
                        f[i].pos.col, cli_gslb_severity(f[i].severity), f[i].code, f[i].object,
                        f[i].message);
    printf("%s: %zu errors, %zu warnings, %zu info\n", count[WSEL_GSLB_ERROR] ? "invalid" : "valid",
           count[WSEL_GSLB_ERROR], count[WSEL_GSLB_WARNING], count[WSEL_GSLB_INFO]);
}

int cli_gslb_check(int argc, char **argv)
{
    const char *cmd = "gslb check";
    const char *path = NULL;
    int json = 0, done = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int k = cli_gslb_arg(a, &done, &json, check_usage);
        if (k == CLI_GSLB_HELP)
            return CLI_OK;
        if (k == CLI_GSLB_OPTION)
            return cli_die(cmd, "unknown option '%s'", a);
        if (k == CLI_GSLB_OPERAND) {
            if (path)
                return cli_die(cmd, "unexpected argument '%s'", a);
            path = a;
        }
    }
    if (!path)
        return cli_die(cmd, "missing CONFIG (see wsel gslb check --help)");
    wsel_gslb_config *cfg;
    int rc = cli_gslb_load(cmd, path, &cfg);
    if (rc)
        return rc;
    wsel_gslb_finding *f;
    size_t n;
    if ((rc = cli_gslb_lint(cmd, cfg, &f, &n))) {
        wsel_gslb_config_free(cfg);
        return rc;
    }
    size_t count[3] = {0};
    for (size_t i = 0; i < n; i++)
        count[f[i].severity]++;
    if (json)
        check_json(cfg, f, n);
    else
        check_text(cfg, f, n, count);
    wsel_free(f);
    wsel_gslb_config_free(cfg);
    return count[WSEL_GSLB_ERROR] ? CLI_INVALID : CLI_OK;
}

int cli_gslb_open_wideips(const char *cmd, int argc, char **argv, const char *usage,
                          cli_gslb_target *t)
{
    const char *path = NULL, *names[64];
    int done = 0, type = -1;
    wsel_gslb_config **cfg = &t->cfg;
    size_t *n = &t->n;
    long *idx = t->idx;
    int *json = &t->json;
    *cfg = NULL;
    *n = 0;
    *json = 0;
    for (int i = 1; i < argc; i++) {
        int k = cli_gslb_arg(argv[i], &done, json, usage);
        if (k == CLI_GSLB_HELP)
            return -1;
        if (k == CLI_GSLB_TAKEN)
            continue;
        if (k == CLI_GSLB_OPTION && cli_opt_is(argv[i], "--type")) {
            const char *v = cli_optval(cmd, argc, argv, &i, "--type");
            if (!v)
                return CLI_USAGE;
            if ((type = wsel_gslb_type_find(v)) < 0)
                return cli_die(cmd, "--type needs A or AAAA, not '%s'", v);
            continue;
        }
        if (k == CLI_GSLB_OPTION)
            return cli_die(cmd, "unknown option '%s'", argv[i]);
        if (!path)
            path = argv[i];
        else if (*n < 32)
            names[(*n)++] = argv[i];
        else
            return cli_die(cmd, "more than 32 wide IPs named");
    }
    if (!path)
        return cli_die(cmd, "missing CONFIG (see wsel %s --help)", cmd);
    int rc = cli_gslb_load(cmd, path, cfg);
    size_t named = *n;
    *n = 0;
    for (size_t k = 0; !rc && k < named; k++) {
        /* without --type a name stands for its A and its AAAA wide IP, each that exists */
        long a = type < 0 ? wsel_gslb_find_wideip_type(*cfg, names[k], WSEL_GSLB_TYPE_A) : -1;
        long b = type < 0 ? wsel_gslb_find_wideip_type(*cfg, names[k], WSEL_GSLB_TYPE_AAAA) : -1;
        if (a >= 0 || b >= 0) {
            if (a >= 0)
                idx[(*n)++] = a;
            if (b >= 0)
                idx[(*n)++] = b;
        } else {
            rc = cli_gslb_find_wideip(cmd, *cfg, names[k], path,
                                      type < 0 ? WSEL_GSLB_TYPE_A : (wsel_gslb_type)type, &idx[*n]);
            (*n)++;
        }
    }
    if (rc) {
        wsel_gslb_config_free(*cfg);
        *cfg = NULL;
    }
    return rc;
}
