/* Loading entry points and read-only accessors of a wsel_config. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "weighted_model.h"

/* The parser recurses once per nesting level and once per nested include. With these
 * caps (values 256 deep, includes 128 deep: core/weighted/weighted_parse.c) a load fits in the stack budget
 * of doc/weighted.md §2.9 (256 KiB), tested on a thread of that size
 * (tests/test_hardening.c). */
#define DEPTH_CAP 256u

static void resolve_opts(const wsel_load_opts *in, wsel_input *input, wsel__parse_opts *po)
{
    wsel_load_opts o = { 0 };
    if (in)
        o = *in;
    *input = o.input;
    po->flags = o.flags;
    po->max_file_size = o.max_file_size ? o.max_file_size : (size_t)16 << 20;
    po->max_string = o.max_string ? o.max_string : (size_t)64 << 10;
    po->max_depth = o.max_depth ? o.max_depth : 64;
    if (po->max_depth > DEPTH_CAP)
        po->max_depth = DEPTH_CAP;
    po->max_includes = o.max_includes ? o.max_includes : 1024;
    po->max_total_size = o.max_total_size ? o.max_total_size : (size_t)64 << 20;
    po->max_nodes = o.max_nodes ? o.max_nodes : (size_t)8 << 20;
    /* Node lengths are 32-bit (core/weighted/weighted_tree.h). */
    if (po->max_nodes > UINT32_MAX - 1)
        po->max_nodes = UINT32_MAX - 1;
    if (po->max_string > UINT32_MAX - 1)
        po->max_string = UINT32_MAX - 1;
}

static int check_input(wsel_input input, wsel_error *err)
{
    if (input != WSEL_INPUT_AUTO && input != WSEL_INPUT_WHOLE && input != WSEL_INPUT_STANZA)
        return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, NULL, NULL, NULL,
                          "bad wsel_load_opts.input %d; expected AUTO, WHOLE or STANZA",
                          (int)input);
    return WSEL_OK;
}

/* Builds the model from a parse tree held in `tree`, which is freed here. */
static int finish(wsel__arena *tree, int rc, const wsel__node *root, wsel_input input,
                  wsel_config **out, wsel_error *err)
{
    wsel_config *cfg = NULL;
    if (rc == WSEL_OK) {
        cfg = calloc(1, sizeof *cfg);
        if (!cfg)
            rc = wsel__fail(err, WSEL_E_NOMEM, NULL, 0, 0, NULL, NULL, NULL, "out of memory");
        else
            rc = wsel__model_build(cfg, root, input, err);
    }
    wsel__arena_free(tree);
    if (rc != WSEL_OK) {
        wsel_config_free(cfg);
        cfg = NULL;
    } else {
        wsel_error_clear(err);
    }
    *out = cfg;
    return rc;
}

/* One load, from the file `path` or (path NULL) from data/len named `name`; `bad` names
 * a missing argument of the caller, checked after `out`. */
static int load(const char *path, const char *data, size_t len, const char *name,
                const char *bad, const wsel_load_opts *opts, wsel_config **out, wsel_error *err)
{
    if (!out)
        return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, NULL, NULL, NULL, "out is NULL");
    *out = NULL;
    if (bad)
        return wsel__fail(err, WSEL_E_ARG, NULL, 0, 0, NULL, NULL, NULL, "%s", bad);
    wsel_input input;
    wsel__parse_opts po;
    resolve_opts(opts, &input, &po);
    int rc = check_input(input, err);
    if (rc)
        return rc;
    wsel__arena tree = { 0 };
    wsel__node *root = NULL;
    if (path)
        rc = wsel__parse_file(&tree, &po, path, &root, err);
    else
        rc = wsel__parse_text(&tree, &po, data, len, name, NULL, &root, err);
    return finish(&tree, rc, root, input, out, err);
}

int wsel_config_load_file(const char *path, const wsel_load_opts *opts, wsel_config **out,
                          wsel_error *err)
{
    return load(path, NULL, 0, NULL, path ? NULL : "path is NULL", opts, out, err);
}

int wsel_config_load_buffer(const char *name, const char *data, size_t len,
                            const wsel_load_opts *opts, wsel_config **out, wsel_error *err)
{
    return load(NULL, data ? data : "", len, name ? name : "<buffer>",
                !data && len ? "data is NULL" : NULL, opts, out, err);
}

void wsel_config_free(wsel_config *cfg)
{
    if (!cfg)
        return;
    wsel__arena_free(&cfg->arena);
    free(cfg);
}

size_t wsel_config_resource_count(const wsel_config *cfg)
{
    return cfg ? cfg->n_resources : 0;
}

const wsel_resource *wsel_config_resource(const wsel_config *cfg, size_t i)
{
    return cfg && i < cfg->n_resources ? &cfg->resources[i] : NULL;
}

const wsel_resource *wsel_config_find(const wsel_config *cfg, const char *name)
{
    if (!cfg || !name)
        return NULL;
    for (size_t i = 0; i < cfg->n_resources; i++)
        if (strcmp(cfg->resources[i].name, name) == 0)
            return &cfg->resources[i];
    return NULL;
}

size_t wsel_config_set_count(const wsel_config *cfg)
{
    return cfg ? cfg->n_sets : 0;
}

const wsel_set *wsel_config_set(const wsel_config *cfg, size_t id)
{
    return cfg && id < cfg->n_sets ? cfg->sets[id] : NULL;
}

bool wsel_config_is_whole(const wsel_config *cfg)
{
    return cfg && cfg->whole;
}

bool wsel_config_top_multi(const wsel_config *cfg)
{
    return cfg && cfg->top_multi;
}

double wsel_config_top_up_thresh(const wsel_config *cfg)
{
    return cfg ? cfg->top_up_thresh : 0.0; /* no config: a value no config has */
}

const wsel__static_svc *wsel__config_static(const wsel_config *cfg, const char *name)
{
    if (!cfg || !name)
        return NULL;
    for (size_t i = 0; i < cfg->n_statics; i++)
        if (strcmp(cfg->statics[i].name, name) == 0)
            return &cfg->statics[i];
    return NULL;
}
