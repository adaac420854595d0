/* fuzz_gslb_config: the GSLB config reader (bigip_gtm.conf subset) and lint.
 *
 * The input is the config text. The reader never crashes, hangs or leaks. A rejection
 * carries a known status code, a non-empty message and a line within the input (0 only
 * for whole-input errors). An accepted config is well formed: every member and depends-on
 * reference is -1 or a valid index, members are ordered by (member-order, text order),
 * each wide IP's pools by (order, text order), every enum in range, max-answers-returned
 * in 1..500; lint runs and every finding has a code 1..32, a location and a message; a
 * second load of the same text gives the same model counts and the same findings; and
 * (property 14, doc/gslb.md §9) when the kit's writer covers the config, the
 * rendered text reads back as the same chain. */
#include "fuzz.h"
#include "kit/kit_gslb.h"
#include "wsel.h"

static void round_trip(const wsel_gslb_config *c)
{
    wsel_kit_sbuf r = {0};
    if (wsel_kit_gslb_render(c, &r)) {
        wsel_gslb_config *b = NULL;
        wsel_error err;
        int rc = wsel_gslb_config_load_buffer("rendered.conf", r.s, r.len, &b, &err);
        FUZZ_ASSERT_MSG(rc == 0 || rc == WSEL_E_NOMEM, "rendered config refused: %s\n%s",
                        err.message, r.s);
        char why[300];
        const char *d = rc ? NULL : wsel_kit_gslb_diff(c, b, why, sizeof why);
        FUZZ_ASSERT_MSG(!d, "rendered config reads back differently: %s\n%s", d, r.s);
        wsel_gslb_config_free(b);
    }
    free(r.s);
}

static void check_model(const wsel_gslb_config *c)
{
    for (size_t p = 0; p < c->n_pools; p++) {
        const wsel_gslb_pool *pl = &c->pools[p];
        FUZZ_ASSERT(pl->max_answers >= 1 && pl->max_answers <= 500);
        FUZZ_ASSERT(pl->n_members <= WSEL_GSLB_MAX_MEMBERS);
        for (int s = 0; s < 3; s++)
            FUZZ_ASSERT((unsigned)pl->mode[s] < WSEL_GSLB_METHOD_COUNT_);
        for (size_t m = 0; m < pl->n_members; m++) {
            const wsel_gslb_member *mb = &pl->members[m];
            FUZZ_ASSERT(mb->vs >= -1 && mb->vs < (long)c->n_vs);
            FUZZ_ASSERT(mb->order <= 65535 && mb->ratio <= 65535);
            if (m)
                FUZZ_ASSERT_MSG(pl->members[m - 1].order < mb->order ||
                                    (pl->members[m - 1].order == mb->order &&
                                     pl->members[m - 1].text_index < mb->text_index),
                                "pool %s: members out of order at %zu", pl->name, m);
        }
    }
    for (size_t v = 0; v < c->n_vs; v++) {
        FUZZ_ASSERT(c->vs[v].server < c->n_servers);
        FUZZ_ASSERT(c->vs[v].addr.family == 4 || c->vs[v].addr.family == 6);
        for (size_t d = 0; d < c->vs[v].n_depends; d++)
            FUZZ_ASSERT(c->vs[v].depends[d] >= -1 && c->vs[v].depends[d] < (long)c->n_vs);
    }
    for (size_t w = 0; w < c->n_wideips; w++) {
        const wsel_gslb_wideip *wi = &c->wideips[w];
        FUZZ_ASSERT(wsel_gslb_method_get(wi->lb_mode)->at_wideip);
        FUZZ_ASSERT(wi->lrp >= -1 && wi->lrp < (long)c->n_pools);
        FUZZ_ASSERT(wi->cidr4 <= 32 && wi->cidr6 <= 128);
        for (size_t k = 0; k < wi->n_pools; k++) {
            FUZZ_ASSERT(wi->pools[k].pool >= -1 && wi->pools[k].pool < (long)c->n_pools);
            if (k)
                FUZZ_ASSERT(wi->pools[k - 1].order < wi->pools[k].order ||
                            (wi->pools[k - 1].order == wi->pools[k].order &&
                             wi->pools[k - 1].text_index < wi->pools[k].text_index));
        }
        FUZZ_ASSERT(wsel_gslb_find_wideip_type(c, wi->name, wi->type) >= 0);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    wsel_gslb_config *c = NULL;
    wsel_error err;
    int rc = wsel_gslb_config_load_buffer("fuzz.conf", (const char *)data, size, &c, &err);
    size_t lines = 1; /* a line ends at LF, CR LF or a lone CR (doc/gslb.md §1) */
    for (size_t i = 0; i < size; i++)
        lines += data[i] == '\n' || (data[i] == '\r' && (i + 1 == size || data[i + 1] != '\n'));
    if (rc) {
        FUZZ_ASSERT(c == NULL);
        FUZZ_ASSERT_MSG(rc == WSEL_E_SYNTAX || rc == WSEL_E_PARAM || rc == WSEL_E_DUPKEY ||
                            rc == WSEL_E_LIMIT || rc == WSEL_E_ADDR || rc == WSEL_E_NOMEM,
                        "unexpected status %d: %s", rc, err.message);
        FUZZ_ASSERT(err.message[0] != '\0');
        FUZZ_ASSERT_MSG(err.line <= lines, "error line %u past the input's %zu lines", err.line, lines);
        return 0;
    }
    FUZZ_ASSERT(c != NULL);
    check_model(c);
    round_trip(c);
    wsel_gslb_finding *f = NULL;
    size_t n = 0;
    FUZZ_ASSERT(wsel_gslb_lint(c, &f, &n, NULL) == 0);
    for (size_t i = 0; i < n; i++) {
        FUZZ_ASSERT(f[i].code >= 1 && f[i].code <= 36);
        FUZZ_ASSERT(f[i].message[0] && f[i].object[0]);
    }
    wsel_gslb_config *c2 = NULL;
    FUZZ_ASSERT(wsel_gslb_config_load_buffer("fuzz.conf", (const char *)data, size, &c2, NULL) == 0);
    FUZZ_ASSERT(c2->n_pools == c->n_pools && c2->n_vs == c->n_vs && c2->n_wideips == c->n_wideips &&
                c2->n_unknown == c->n_unknown && c2->n_topo == c->n_topo);
    wsel_gslb_finding *f2 = NULL;
    size_t n2 = 0;
    FUZZ_ASSERT(wsel_gslb_lint(c2, &f2, &n2, NULL) == 0);
    FUZZ_ASSERT(n2 == n);
    for (size_t i = 0; i < n; i++)
        FUZZ_ASSERT(f2[i].code == f[i].code && !strcmp(f2[i].message, f[i].message));
    wsel_free(f);
    wsel_free(f2);
    wsel_gslb_config_free(c2);
    wsel_gslb_config_free(c);
    return 0;
}
