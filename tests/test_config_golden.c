/* Golden files for the config loader: every tests/data/config/NN_topic.conf is loaded and
 * compared with NN_topic.expect beside it. Each .expect was written by hand and holds
 * either the expected error or a compact description of the model:
 *
 *   input stanza|whole|auto            how to load (default auto)
 *   max_includes N                     wsel_load_opts.max_includes (default 0: the default)
 *   error WSEL_E_CODE LINE:COL         expected failure ...
 *   file SUFFIX                        ... in a file whose path ends in SUFFIX
 *   contains TEXT                      ... whose message contains TEXT (any number)
 *
 *   resource NAME [explicit] [cname]   expected model, one line per resource, set,
 *   set ID KIND MODE [stanza=S] T=N threshold=N multi=B@LEVEL up_thresh=X@LEVEL
 *       services=A,B@LEVEL             (all on one line; X printed with %g)
 *   group LABEL count=N total=N        group, followed by its items
 *   item LABEL VALUE WEIGHT [key=K]    key= only when the state key differs from VALUE
 *
 * '#' starts a comment line; indentation is ignored.
 *
 * tests/data/lang/ holds the config language's corners in the same notation, and also
 * monitoring state files: a NN_topic.state is loaded as extfile lines for the service type
 * `svc` over the config lang/state_base.conf; its .expect holds an `error` line or lines
 *   state KEY up|down TTL              the state of KEY for `svc` after the load */
#include <dirent.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "support/support.h"

#define MAX_CASES 256

static const char *const code_names[WSEL_STATUS_COUNT_] = {
    "WSEL_OK", "WSEL_E_NOMEM", "WSEL_E_ARG", "WSEL_E_IO", "WSEL_E_LIMIT", "WSEL_E_SYNTAX",
    "WSEL_E_ESCAPE", "WSEL_E_DUPKEY", "WSEL_E_INCLUDE", "WSEL_E_INCLUDE_CYCLE",
    "WSEL_E_NOSTANZA", "WSEL_E_TYPE", "WSEL_E_PARAM", "WSEL_E_SVCTYPE", "WSEL_E_WEIGHT",
    "WSEL_E_COUNT", "WSEL_E_ADDR", "WSEL_E_CNAME", "WSEL_E_MIXED", "WSEL_E_LEGACY",
    "WSEL_E_ITEM", "WSEL_E_NORESOURCE", "WSEL_E_RECORD", "WSEL_E_STATE", "WSEL_E_UNSUPPORTED",
};

typedef struct text {
    char *s;
    size_t n, cap;
} text;

static void add(text *t, const char *fmt, ...)
{
    char line[2048];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    assert_true(n >= 0 && (size_t)n < sizeof line);
    if (t->n + (size_t)n + 1 > t->cap) {
        t->cap = (t->cap + (size_t)n + 1) * 2;
        t->s = realloc(t->s, t->cap);
        assert_non_null(t->s);
    }
    memcpy(t->s + t->n, line, (size_t)n + 1);
    t->n += (size_t)n;
}

static const char *kind_name(wsel_kind k)
{
    return k == WSEL_KIND_V4 ? "v4" : k == WSEL_KIND_V6 ? "v6" : "cname";
}

static void describe_item(text *t, const wsel_item *it)
{
    add(t, "item %s %s %u", it->label, it->value, it->weight);
    if (strcmp(it->key, it->value) != 0)
        add(t, " key=%s", it->key);
    add(t, "\n");
}

/* The model in the .expect notation. */
static void describe(text *t, const wsel_config *cfg)
{
    for (size_t r = 0; r < wsel_config_resource_count(cfg); r++) {
        const wsel_resource *res = wsel_config_resource(cfg, r);
        add(t, "resource %s%s%s\n", res->name, res->explicit_families ? " explicit" : "",
            res->is_cname ? " cname" : "");
        for (uint32_t k = 0; k < res->n_sets; k++) {
            const wsel_set *s = &res->sets[k];
            add(t, "set %u %s %s", s->id, kind_name(s->kind), wsel_mode_name(s->mode));
            if (s->stanza)
                add(t, " stanza=%s", s->stanza);
            add(t, " T=%llu threshold=%llu multi=%s@%s up_thresh=%g@%s services=",
                (unsigned long long)s->total, (unsigned long long)s->threshold,
                s->multi ? "true" : "false", wsel_level_name(s->multi_from), s->up_thresh,
                wsel_level_name(s->up_thresh_from));
            for (uint32_t i = 0; i < s->n_services; i++)
                add(t, "%s%s", i ? "," : "", s->services[i]);
            add(t, "@%s\n", wsel_level_name(s->services_from));
            if (!s->grouped) {
                for (uint32_t i = 0; i < s->n_items; i++)
                    describe_item(t, &s->items[i]);
                continue;
            }
            for (uint32_t g = 0; g < s->n_groups; g++) {
                const wsel_group *gr = &s->groups[g];
                add(t, "group %s count=%u total=%u\n", gr->label, gr->count, gr->total);
                for (uint32_t i = gr->first; i < gr->first + gr->count; i++)
                    describe_item(t, &s->items[i]);
            }
        }
    }
}

/* Next meaningful line of an .expect file: leading blanks, comments and blank lines
 * skipped; trailing blanks cut. Returns NULL at the end. */
static char *next_line(char **cur)
{
    while (**cur) {
        char *line = *cur;
        char *nl = strchr(line, '\n');
        *cur = nl ? nl + 1 : line + strlen(line);
        if (nl)
            *nl = '\0';
        while (*line == ' ' || *line == '\t')
            line++;
        size_t n = strlen(line);
        while (n && (line[n - 1] == ' ' || line[n - 1] == '\t' || line[n - 1] == '\r'))
            line[--n] = '\0';
        if (n && line[0] != '#')
            return line;
    }
    return NULL;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n + 4096 + 1 > cap) {
            cap = (cap + 4096 + 1) * 2;
            buf = realloc(buf, cap);
            assert_non_null(buf);
        }
        size_t got = fread(buf + n, 1, 4096, f);
        n += got;
        if (!got)
            break;
    }
    fclose(f);
    buf[n] = '\0';
    return buf;
}

/* For a state case: the `state KEY ...` lines of the expectation, each with what the
 * loaded state says of KEY for service type `svc`. */
static void describe_state(text *t, const wsel_state *st, const char *want)
{
    for (const char *p = want; (p = strstr(p, "state ")) != NULL;) {
        char key[256];
        assert_int_equal(sscanf(p + 6, "%255s", key), 1);
        wsel_mstate m = wsel_state_get(st, "svc", key);
        add(t, "state %s %s %u\n", key, m.up ? "up" : "down", (unsigned)m.ttl);
        p += 6;
    }
}

typedef struct gcase {
    bool is_state;
    char name[128];
    char conf[512];
    char expect[512];
} gcase;

static int code_of(const char *name)
{
    for (int i = 0; i < WSEL_STATUS_COUNT_; i++)
        if (strcmp(code_names[i], name) == 0)
            return i;
    return -1;
}

/* What a case's .expect says: directives, and the model (or state) text it lists. */
typedef struct gexpect {
    wsel_load_opts o;
    int want_code;
    unsigned want_line, want_col;
    const char *want_file;
    const char *contains[16];
    size_t n_contains;
    text want;
} gexpect;

/* Reads the expectation text exp (modified in place; x points into it). */
static void read_expect(const gcase *c, char *exp, gexpect *x)
{
    x->o.input = WSEL_INPUT_AUTO;
    x->want_code = WSEL_OK;
    add(&x->want, "%s", "");
    char *cur = exp;
    for (char *line; (line = next_line(&cur));) {
        if (strncmp(line, "input ", 6) == 0) {
            const char *v = line + 6;
            assert_true(strcmp(v, "stanza") == 0 || strcmp(v, "whole") == 0 ||
                        strcmp(v, "auto") == 0);
            x->o.input = strcmp(v, "stanza") == 0  ? WSEL_INPUT_STANZA
                         : strcmp(v, "whole") == 0 ? WSEL_INPUT_WHOLE
                                                   : WSEL_INPUT_AUTO;
        } else if (strncmp(line, "max_includes ", 13) == 0) {
            assert_int_equal(sscanf(line + 13, "%u", &x->o.max_includes), 1);
        } else if (strncmp(line, "error ", 6) == 0) {
            char name[64];
            assert_int_equal(sscanf(line + 6, "%63s %u:%u", name, &x->want_line, &x->want_col), 3);
            x->want_code = code_of(name);
            if (x->want_code <= 0)
                print_error("%s: unknown code %s\n", c->expect, name);
            assert_true(x->want_code > 0);
        } else if (strncmp(line, "file ", 5) == 0) {
            x->want_file = line + 5;
        } else if (strncmp(line, "contains ", 9) == 0) {
            assert_true(x->n_contains < 16);
            x->contains[x->n_contains++] = line + 9;
        } else {
            add(&x->want, "%s\n", line);
        }
    }
}

/* A case that must fail: where, in which file, and what its message says. */
static void check_error(const gcase *c, const gexpect *x, const wsel_config *cfg,
                        const wsel_error *err)
{
    if (!c->is_state)
        assert_null(cfg);
    if (err->line != x->want_line || err->col != x->want_col)
        print_error("%s: error at %u:%u, want %u:%u (%s)\n", c->name, err->line, err->col,
                    x->want_line, x->want_col, err->message);
    assert_int_equal(err->line, x->want_line);
    assert_int_equal(err->col, x->want_col);
    const char *file = x->want_file ? x->want_file : strrchr(c->conf, '/') + 1;
    size_t fl = strlen(err->file), sl = strlen(file);
    if (fl < sl || strcmp(err->file + fl - sl, file) != 0)
        print_error("%s: error in '%s', want '...%s'\n", c->name, err->file, file);
    assert_true(fl >= sl && strcmp(err->file + fl - sl, file) == 0);
    for (size_t i = 0; i < x->n_contains; i++) {
        if (!strstr(err->message, x->contains[i]))
            print_error("%s: message '%s' lacks '%s'\n", c->name, err->message,
                        x->contains[i]);
        assert_non_null(strstr(err->message, x->contains[i]));
    }
}

static void run_case(void **state)
{
    const gcase *c = *state;
    char *exp = slurp(c->expect);
    if (!exp)
        print_error("missing %s\n", c->expect);
    assert_non_null(exp);

    /* Directives first. */
    gexpect x = { 0 };
    read_expect(c, exp, &x);

    wsel_config *cfg = NULL;
    wsel_state *st = NULL;
    wsel_error err;
    int rc;
    if (c->is_state) {
        char base[600];
        snprintf(base, sizeof base, "%.*s/state_base.conf",
                 (int)(strrchr(c->conf, '/') - c->conf), c->conf);
        wsel_load_opts so = { .input = WSEL_INPUT_STANZA };
        assert_int_equal(wsel_config_load_file(base, &so, &cfg, &err), WSEL_OK);
        assert_int_equal(wsel_state_new(cfg, &st, &err), WSEL_OK);
        rc = wsel_state_load_extfile(st, "svc", c->conf, &err);
    } else {
        rc = wsel_config_load_file(c->conf, &x.o, &cfg, &err);
    }
    char buf[2048];
    if (rc != x.want_code)
        print_error("%s: got %s (%s), want %s\n", c->name, code_names[rc],
                    wsel_error_format(&err, buf, sizeof buf), code_names[x.want_code]);
    assert_int_equal(rc, x.want_code);
    if (x.want_code != WSEL_OK) {
        check_error(c, &x, cfg, &err);
    } else {
        text got = { 0 };
        add(&got, "%s", "");
        if (c->is_state)
            describe_state(&got, st, x.want.s);
        else
            describe(&got, cfg);
        if (strcmp(got.s, x.want.s) != 0)
            print_error("%s: model differs\n--- got\n%s--- want\n%s", c->name, got.s, x.want.s);
        assert_string_equal(got.s, x.want.s);
        free(got.s);
    }
    wsel_state_free(st);
    wsel_config_free(cfg);
    free(x.want.s);
    free(exp);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const gcase *)a)->name, ((const gcase *)b)->name);
}

/* Adds the cases of one folder: every *.conf with its .expect, and with `states` every
 * *.state too. Returns the new count. */
static size_t scan(gcase *cases, size_t n, const char *sub, bool states)
{
    char dir[400];
    snprintf(dir, sizeof dir, "%s", wsel_kit_srcpath(sub));
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));) {
        size_t l = strlen(e->d_name);
        bool conf = l > 5 && strcmp(e->d_name + l - 5, ".conf") == 0 &&
                    strcmp(e->d_name, "state_base.conf") != 0;
        bool state = states && l > 6 && strcmp(e->d_name + l - 6, ".state") == 0;
        if ((!conf && !state) || l >= 100 || n == MAX_CASES)
            continue;
        size_t stem = l - (conf ? 5 : 6);
        gcase *c = &cases[n];
        c->is_state = state;
        int k1 = snprintf(c->name, sizeof c->name, "%s/%.*s", strrchr(sub, '/') + 1,
                          (int)stem, e->d_name);
        int k2 = snprintf(c->conf, sizeof c->conf, "%s/%s", dir, e->d_name);
        int k3 = snprintf(c->expect, sizeof c->expect, "%s/%.*s.expect", dir, (int)stem,
                          e->d_name);
        if (k1 < 0 || k2 < 0 || k3 < 0 || (size_t)k1 >= sizeof c->name ||
            (size_t)k2 >= sizeof c->conf || (size_t)k3 >= sizeof c->expect)
            continue;
        n++;
    }
    if (d)
        closedir(d);
    return n;
}

int main(void)
{
    static gcase cases[MAX_CASES];
    static struct CMUnitTest tests[MAX_CASES];
    size_t n_config = scan(cases, 0, "tests/data/config", false);
    size_t n = scan(cases, n_config, "tests/data/lang", true);
    qsort(cases, n, sizeof cases[0], by_name);
    for (size_t i = 0; i < n; i++)
        tests[i] = (struct CMUnitTest){ cases[i].name, run_case, NULL, NULL, &cases[i] };
    cmocka_set_message_output(CM_OUTPUT_TAP);
    if (n_config == 0 || n == n_config) {
        /* An empty folder means the data went missing: fail loudly. */
        printf("1..1\nnot ok 1 - no golden files found in tests/data/config or tests/data/lang\n");
        return 1;
    }
    return _cmocka_run_group_tests("config_golden", tests, n, NULL, NULL);
}
