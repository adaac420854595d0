/* The loaded config: the resource model built from a parse tree. */
#ifndef WSEL_CORE_MODEL_H
#define WSEL_CORE_MODEL_H

#include "parse_tree.h"

struct wsel_config {
    wsel__arena arena;          /* owns everything below */
    wsel_resource *resources;
    size_t n_resources;
    const wsel_set **sets;      /* by id */
    size_t n_sets;
    bool whole;
    bool top_multi;
    double top_up_thresh;
};

/* Builds the model of `root` into cfg (whose arena receives all of it). */
int wsel__model_build(wsel_config *cfg, const wsel__node *root, wsel_input input,
                      wsel_error *err);

#endif
