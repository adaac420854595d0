/* gdnsd's admin_state file (gdnsd(8), ADMIN STATE FILE; doc/weighted.md §6.5): a hash of
 * "THING/SERVICE_TYPE" => UP|DOWN[/TTL], read with the project's own config parser and
 * applied in file order through wsel_state_force(). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "weighted_include.h"
#include "weighted_tree.h"
#include "weighted_state.h"

typedef struct admin_line {
    const char *pattern;
    bool up, has_ttl;
    uint32_t ttl;
    wsel__pos pos;
} admin_line;

/* Parses "UP", "DOWN", "UP/30" (any letter case). */
static int parse_value(const wsel__entry *e, admin_line *out, wsel_error *err)
{
    const wsel__node *v = e->val;
    if (v->type != WSEL__N_SIMPLE)
        return wsel__fail(err, WSEL_E_STATE, v->pos.file, v->pos.line, v->pos.col, NULL, NULL,
                          e->key, "the value of '%s' is %s; expected UP or DOWN, "
                          "optionally followed by /TTL", e->key, wsel__ntype_name(v->type));
    const char *s = v->str;
    size_t n = strcspn(s, "/");
    if (n == 2 && strncasecmp(s, "up", 2) == 0)
        out->up = true;
    else if (n == 4 && strncasecmp(s, "down", 4) == 0)
        out->up = false;
    else
        return wsel__fail(err, WSEL_E_STATE, v->pos.file, v->pos.line, v->pos.col, NULL, NULL,
                          e->key, "bad state '%s' for '%s'; expected UP or DOWN, optionally "
                          "followed by /TTL", s, e->key);
    out->has_ttl = false;
    out->ttl = 0;
    if (s[n] == '/') {
        const char *t = s + n + 1;
        uint64_t x = 0;
        size_t k = 0;
        for (; isdigit((unsigned char)t[k]); k++)
            if (x <= WSEL_MAX_TTL)
                x = x * 10 + (uint64_t)(t[k] - '0');
        if (k == 0 || t[k] || v->len != strlen(s))
            return wsel__fail(err, WSEL_E_STATE, v->pos.file, v->pos.line, v->pos.col, NULL,
                              NULL, e->key, "bad TTL in '%s' for '%s'; expected decimal "
                              "seconds after '/'", s, e->key);
        if (x > WSEL_MAX_TTL)
            return wsel__fail(err, WSEL_E_STATE, v->pos.file, v->pos.line, v->pos.col, NULL,
                              NULL, e->key, "TTL %s for '%s' is out of range; expected "
                              "0 .. %u", t, e->key, WSEL_MAX_TTL);
        out->has_ttl = true;
        out->ttl = (uint32_t)x;
    } else if (v->len != strlen(s)) {
        return wsel__fail(err, WSEL_E_STATE, v->pos.file, v->pos.line, v->pos.col, NULL, NULL,
                          e->key, "NUL byte in the state of '%s'", e->key);
    }
    return WSEL_OK;
}

static int load_tree(wsel_state *st, const wsel__node *root, wsel_error *err)
{
    if (root->type != WSEL__N_HASH)
        return wsel__fail(err, WSEL_E_STATE, root->pos.file, root->pos.line, root->pos.col,
                          NULL, NULL, NULL, "admin_state file holds %s; expected "
                          "\"THING/SERVICE_TYPE\" => UP|DOWN[/TTL] entries",
                          wsel__ntype_name(root->type));
    admin_line *lines = calloc(root->len ? root->len : 1, sizeof *lines);
    if (!lines)
        return wsel__fail(err, WSEL_E_NOMEM, root->pos.file, 0, 0, NULL, NULL, NULL,
                          "out of memory");
    int rc = WSEL_OK;
    for (size_t i = 0; i < root->len && rc == WSEL_OK; i++) {
        const wsel__entry *e = &root->entries[i];
        lines[i].pattern = e->key;
        lines[i].pos = e->kpos;
        if (e->klen != strlen(e->key)) {
            rc = wsel__fail(err, WSEL_E_STATE, e->kpos.file, e->kpos.line, e->kpos.col, NULL,
                            NULL, NULL, "NUL byte in an admin_state key");
            break;
        }
        wsel_error perr;
        rc = wsel__state_check_pattern(e->key, &perr);
        if (rc) {
            /* the check knows no position: add it */
            rc = wsel__fail(err, rc, e->kpos.file, e->kpos.line, e->kpos.col, NULL, NULL,
                            e->key, "%s", perr.message);
            break;
        }
        rc = parse_value(e, &lines[i], err);
    }
    /* Everything is valid: apply in file order (only running out of memory can stop it
     * now). */
    for (size_t i = 0; i < root->len && rc == WSEL_OK; i++) {
        size_t matched = 0;
        rc = wsel_state_force(st, lines[i].pattern, lines[i].up, lines[i].has_ttl,
                              lines[i].ttl, &matched, err);
        if (rc == WSEL_OK && matched == 0)
            wsel__state_warn(st, lines[i].pos.file, lines[i].pos.line, lines[i].pos.col,
                             lines[i].pattern, "'%s' matches no (address or CNAME, service "
                             "type) pair of this config; the line changes nothing",
                             lines[i].pattern);
    }
    free(lines);
    return rc;
}

/* The state-file limit (64 MiB) and the config loader's defaults for the rest. */
static const wsel__parse_opts admin_opts = {
    .flags = WSEL_LOAD_NO_INCLUDE,
    .max_file_size = WSEL__STATE_MAX_FILE,
    .max_string = (size_t)64 << 10,
    .max_total_size = WSEL__STATE_MAX_FILE,
    .max_nodes = (size_t)8 << 20,
    .max_depth = 64,
    .max_includes = 0,
};

int wsel_state_load_admin_buffer(wsel_state *st, const char *name, const char *data,
                                 size_t len, wsel_error *err)
{
    if (!name)
        name = "<buffer>";
    if (!st || (!data && len))
        return wsel__fail(err, WSEL_E_ARG, name, 0, 0, NULL, NULL, NULL,
                          "wsel_state_load_admin_buffer: state and data are required");
    wsel__arena arena = { 0 };
    wsel__node *root = NULL;
    int rc = wsel__parse_text(&arena, &admin_opts, data ? data : "", len, name, NULL, &root,
                              err);
    if (rc == WSEL_OK)
        rc = load_tree(st, root, err);
    wsel__arena_free(&arena);
    return rc;
}

int wsel_state_load_admin(wsel_state *st, const char *path, wsel_error *err)
{
    if (!st || !path)
        return wsel__fail(err, WSEL_E_ARG, path, 0, 0, NULL, NULL, NULL,
                          "wsel_state_load_admin: state and path are required");
    char *data;
    size_t len;
    int rc = wsel__read_file(path, "admin_state file", admin_opts.max_file_size, NULL, &data, &len, err);
    if (rc)
        return rc;
    rc = wsel_state_load_admin_buffer(st, path, data, len, err);
    free(data);
    return rc;
}
