/* fuzz_config: arbitrary bytes fed to the config loader.
 *
 * Property: wsel_config_load_buffer() (includes disabled) never crashes, hangs, leaks
 * or trips a sanitizer, in stanza mode, whole-config mode and auto mode. It either
 *   - fails with a status code in range, a position (line >= 1), a non-empty message
 *     and *out == NULL, or
 *   - succeeds with a model that obeys every rule of doc/weighted.md §3: 1..64 items per
 *     set and addresses per group, weights in 1..2^20-1, up_thresh in (0,1],
 *     threshold = ceil((double)T * up_thresh), totals that are sums, ids and indices
 *     that count, keys in canonical form, modes consistent with grouped/multi/kind,
 *     v4 before v6, and lookups that find what the listing shows.
 * Auto mode must agree with one of the two explicit modes. A loaded config must also
 * accept a fresh state and per-resource record checks without error other than the
 * documented ones, and printing its model as a stanza (every string quoted and
 * escaped, parameters where they take effect) must load back as the same model. */
#include <arpa/inet.h>
#include <ctype.h>
#include <math.h>

#include "fuzz.h"
#include "wsel.h"

static void check_error(const wsel_error *err, int rc, const char *what)
{
    FUZZ_ASSERT_MSG(rc > 0 && rc < WSEL_STATUS_COUNT_, "%s: status %d out of range", what, rc);
    FUZZ_ASSERT_MSG(err->code == rc, "%s: err.code %d != returned %d", what, err->code, rc);
    FUZZ_ASSERT_MSG(err->message[0] != '\0', "%s: empty error message (code %d)", what, rc);
    /* Every rejection points at the text that caused it, except running out of memory
     * and a whole config without a weighted stanza (what is missing has no place). */
    if (rc != WSEL_E_NOMEM && rc != WSEL_E_NOSTANZA)
        FUZZ_ASSERT_MSG(err->line >= 1, "%s: error without a line: code %d \"%s\"",
                        what, rc, err->message);
    FUZZ_ASSERT(memchr(err->message, '\0', sizeof err->message) != NULL);
    char buf[2048];
    wsel_error_format(err, buf, sizeof buf);
    FUZZ_ASSERT(buf[0] != '\0');
    FUZZ_ASSERT(wsel_strerror(rc) != NULL);
}

static void check_key(const wsel_set *set, const wsel_item *it)
{
    FUZZ_ASSERT(it->value && it->key && it->label);
    if (set->kind == WSEL_KIND_CNAME) {
        /* the value is the name gdnsd answers in presentation form (doc/weighted.md
         * §3.5): lower case, every byte a label may not show escaped, fully qualified,
         * at most 255 octets in wire form; with no escape in it, the key (the decoded
         * config text lower-cased) is the same text */
        size_t n = strlen(it->value), wire = 1, label = 0;
        bool escaped = false, last_dot = false;
        for (size_t i = 0; i < n; i++) {
            unsigned char c = (unsigned char)it->value[i];
            FUZZ_ASSERT_MSG(c > ' ' && c < 0x7f && c != '"' && !(c >= 'A' && c <= 'Z'),
                            "CNAME \"%s\" shows byte %u unescaped", it->value, c);
            last_dot = false;
            if (c == '\\') {
                escaped = true;
                c = (unsigned char)it->value[++i];
                if (c >= '0' && c <= '9')
                    i += 2;
                else
                    FUZZ_ASSERT_MSG(c == '.' || c == '\\' || c == '"',
                                    "CNAME \"%s\": escape of '%c'",
                                    it->value, c);
                label++;
            } else if (c == '.') {
                FUZZ_ASSERT_MSG(label >= 1 || n == 1, "CNAME \"%s\": empty label", it->value);
                wire += label + (n > 1);
                label = 0;
                last_dot = true;
            } else {
                label++;
            }
            FUZZ_ASSERT_MSG(label <= 63, "CNAME \"%s\": label over 63 octets", it->value);
        }
        FUZZ_ASSERT_MSG(n >= 1 && last_dot, "CNAME \"%s\" not fully qualified", it->value);
        FUZZ_ASSERT_MSG(wire <= 255, "CNAME \"%s\" longer than a domain name can be",
                        it->value);
        for (size_t i = 0; it->key[i]; i++)
            FUZZ_ASSERT_MSG(!(it->key[i] >= 'A' && it->key[i] <= 'Z'),
                            "CNAME key \"%s\" is not lower-cased", it->key);
        if (!escaped)
            FUZZ_ASSERT_MSG(strcmp(it->key, it->value) == 0,
                            "CNAME key \"%s\" is not its value \"%s\"", it->key, it->value);
        for (size_t i = 0; i < 16; i++)
            FUZZ_ASSERT_MSG(it->addr[i] == 0, "CNAME item with a non-zero address");
        return;
    }
    int af = set->kind == WSEL_KIND_V4 ? AF_INET : AF_INET6;
    char text[INET6_ADDRSTRLEN];
    FUZZ_ASSERT(inet_ntop(af, it->addr, text, sizeof text) != NULL);
    /* with an IPv6 scope id the key carries it after a '%' (doc/weighted.md §3.5) */
    size_t klen = strcspn(it->key, "%");
    FUZZ_ASSERT_MSG(strlen(text) == klen && strncmp(text, it->key, klen) == 0,
                    "address key \"%s\" is not canonical \"%s\"", it->key, text);
    if (af == AF_INET)
        for (size_t i = 4; i < 16; i++)
            FUZZ_ASSERT_MSG(it->addr[i] == 0, "IPv4 item with bytes past addr[3]");
    /* The loader may accept more spellings than inet_pton (doc/weighted.md §8, D1), but
     * when inet_pton understands the value it must mean the same address. */
    uint8_t bin[16] = { 0 };
    if (inet_pton(af, it->value, bin) == 1)
        FUZZ_ASSERT_MSG(memcmp(bin, it->addr, af == AF_INET ? 4 : 16) == 0,
                        "address \"%s\" stored as a different address", it->value);
}

static void check_set(const wsel_config *cfg, const wsel_resource *res, const wsel_set *set,
                      uint32_t *next_id)
{
    FUZZ_ASSERT(set->resource == res);
    FUZZ_ASSERT_MSG(set->id == *next_id, "set id %u, expected %u", set->id, *next_id);
    FUZZ_ASSERT(wsel_config_set(cfg, set->id) == set);
    (*next_id)++;
    FUZZ_ASSERT(set->kind == WSEL_KIND_V4 || set->kind == WSEL_KIND_V6 ||
                set->kind == WSEL_KIND_CNAME);
    FUZZ_ASSERT((set->kind == WSEL_KIND_CNAME) == res->is_cname);
    if (set->kind == WSEL_KIND_CNAME) {
        FUZZ_ASSERT(set->mode == WSEL_MODE_CNAME && !set->grouped && !set->multi);
    } else {
        wsel_mode m = set->grouped ? (set->multi ? WSEL_MODE_GROUPED_MULTI : WSEL_MODE_GROUPED_SINGLE)
                                   : (set->multi ? WSEL_MODE_UNGROUPED_MULTI : WSEL_MODE_UNGROUPED_SINGLE);
        FUZZ_ASSERT_MSG(set->mode == m, "mode %d does not match grouped=%d multi=%d",
                        (int)set->mode, set->grouped, set->multi);
    }
    if (res->explicit_families) {
        FUZZ_ASSERT(set->stanza != NULL);
        FUZZ_ASSERT(strcmp(set->stanza, set->kind == WSEL_KIND_V4 ? "addrs_v4" : "addrs_v6") == 0);
    } else {
        FUZZ_ASSERT(set->stanza == NULL);
    }
    FUZZ_ASSERT_MSG(set->up_thresh > 0.0 && set->up_thresh <= 1.0, "up_thresh %.17g",
                    set->up_thresh);
    FUZZ_ASSERT(set->multi_from <= WSEL_LEVEL_STANZA && set->up_thresh_from <= WSEL_LEVEL_STANZA &&
                set->services_from <= WSEL_LEVEL_STANZA);
    if (!res->explicit_families)
        FUZZ_ASSERT(set->multi_from != WSEL_LEVEL_STANZA && set->up_thresh_from != WSEL_LEVEL_STANZA &&
                    set->services_from != WSEL_LEVEL_STANZA);
    if (set->up_thresh_from == WSEL_LEVEL_DEFAULT)
        FUZZ_ASSERT(set->up_thresh == 0.5);
    FUZZ_ASSERT(set->n_services == 0 || set->services != NULL);
    for (uint32_t i = 0; i < set->n_services; i++)
        FUZZ_ASSERT(set->services[i] != NULL);

    FUZZ_ASSERT(set->n_items >= 1 && set->items != NULL);
    uint64_t total = 0;
    for (uint32_t i = 0; i < set->n_items; i++) {
        const wsel_item *it = &set->items[i];
        FUZZ_ASSERT_MSG(it->weight >= 1 && it->weight <= WSEL_MAX_WEIGHT, "weight %u", it->weight);
        FUZZ_ASSERT_MSG(it->index == i, "item index %u at position %u", it->index, i);
        FUZZ_ASSERT(it->loc.line >= 1);
        check_key(set, it);
        total += it->weight;
    }
    FUZZ_ASSERT_MSG(set->total == total, "set total %llu, items sum to %llu",
                    (unsigned long long)set->total, (unsigned long long)total);
    uint64_t thr = (uint64_t)ceil((double)set->total * set->up_thresh);
    FUZZ_ASSERT_MSG(set->threshold == thr, "threshold %llu, ceil(T*up_thresh) = %llu",
                    (unsigned long long)set->threshold, (unsigned long long)thr);

    if (!set->grouped) {
        FUZZ_ASSERT_MSG(set->n_items <= WSEL_MAX_ITEMS, "%u items in an ungrouped set", set->n_items);
        FUZZ_ASSERT(set->n_groups == 0 && set->max_group == 0);
        for (uint32_t i = 0; i < set->n_items; i++)
            FUZZ_ASSERT(set->items[i].group == 0);
        return;
    }
    FUZZ_ASSERT_MSG(set->n_groups >= 1 && set->n_groups <= WSEL_MAX_ITEMS, "%u groups", set->n_groups);
    FUZZ_ASSERT(set->groups != NULL);
    uint32_t first = 0, maxg = 0;
    for (uint32_t g = 0; g < set->n_groups; g++) {
        const wsel_group *gr = &set->groups[g];
        FUZZ_ASSERT(gr->label != NULL);
        FUZZ_ASSERT_MSG(gr->first == first, "group %u starts at %u, expected %u", g, gr->first, first);
        FUZZ_ASSERT_MSG(gr->count >= 1 && gr->count <= WSEL_MAX_ITEMS, "group of %u", gr->count);
        uint32_t gt = 0;
        for (uint32_t i = gr->first; i < gr->first + gr->count; i++) {
            FUZZ_ASSERT(i < set->n_items);
            FUZZ_ASSERT_MSG(set->items[i].group == g, "item %u in group %u says group %u", i, g,
                            set->items[i].group);
            gt += set->items[i].weight;
        }
        FUZZ_ASSERT_MSG(gr->total == gt, "group total %u, addresses sum to %u", gr->total, gt);
        if (gr->count > maxg)
            maxg = gr->count;
        first += gr->count;
    }
    FUZZ_ASSERT_MSG(first == set->n_items, "groups cover %u of %u items", first, set->n_items);
    FUZZ_ASSERT(set->max_group == maxg);
}

static void check_model(const wsel_config *cfg)
{
    size_t nres = wsel_config_resource_count(cfg);
    uint32_t next_id = 0;
    for (size_t r = 0; r < nres; r++) {
        const wsel_resource *res = wsel_config_resource(cfg, r);
        FUZZ_ASSERT(res != NULL && res->name != NULL);
        FUZZ_ASSERT(res->index == r);
        FUZZ_ASSERT_MSG(wsel_config_find(cfg, res->name) == res, "find(\"%s\") misses", res->name);
        FUZZ_ASSERT_MSG(res->n_sets == 1 || (res->n_sets == 2 && res->explicit_families),
                        "resource with %u sets", res->n_sets);
        FUZZ_ASSERT(res->sets != NULL);
        if (res->n_sets == 2)
            FUZZ_ASSERT(res->sets[0].kind == WSEL_KIND_V4 && res->sets[1].kind == WSEL_KIND_V6);
        if (res->explicit_families)
            FUZZ_ASSERT(!res->is_cname);
        for (uint32_t s = 0; s < res->n_sets; s++)
            check_set(cfg, res, &res->sets[s], &next_id);

        /* Record checks may refuse, but only with their documented codes. */
        for (int t = 0; t < 2; t++) {
            wsel_error err;
            bool dep = false;
            int rc = wsel_config_check_record(cfg, res->name, t ? WSEL_RR_DYNC : WSEL_RR_DYNA,
                                              "example.com.", &dep, &err);
            FUZZ_ASSERT_MSG(rc == WSEL_OK || rc == WSEL_E_RECORD, "check_record: %d", rc);
            if (rc == WSEL_OK && dep)
                FUZZ_ASSERT(t == 1 && !res->is_cname);
            if (rc == WSEL_E_RECORD)
                FUZZ_ASSERT(err.message[0] != '\0');
            if (!res->is_cname && rc != WSEL_OK)
                FUZZ_ASSERT_MSG(0, "address resource refused by a %s record", t ? "DYNC" : "DYNA");
            if (res->is_cname && t == 0)
                FUZZ_ASSERT_MSG(rc == WSEL_E_RECORD, "DYNA on a CNAME resource accepted");
        }
    }
    FUZZ_ASSERT_MSG(wsel_config_set_count(cfg) == next_id, "set_count %zu, listed %u",
                    wsel_config_set_count(cfg), next_id);
    double ut = wsel_config_top_up_thresh(cfg);
    FUZZ_ASSERT(ut > 0.0 && ut <= 1.0);

    wsel_state *st = NULL;
    wsel_error err;
    int rc = wsel_state_new(cfg, &st, &err);
    FUZZ_ASSERT_MSG(rc == WSEL_OK || rc == WSEL_E_NOMEM, "state_new: %d", rc);
    if (rc == WSEL_OK) {
        FUZZ_ASSERT(wsel_state_config(st) == cfg);
        wsel_state_free(st);
    }
}

/* ---- round trip: print the model as a stanza, load it, compare ---- */

/* A quoted string that reads back as exactly `s`: quotes and backslashes escaped,
 * every other byte outside printable ASCII as \DDD, except bytes above 199, which
 * the language cannot escape (doc/weighted.md §2.4) and which stand for themselves. */
static void put_str(sbuf *b, const char *s)
{
    sb_printf(b, "\"");
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            sb_printf(b, "\\%c", *p);
        else if (*p < 0x20 || (*p >= 0x7f && *p <= 199))
            sb_printf(b, "\\%03u", *p);
        else
            sb_printf(b, "%c", *p);
    }
    sb_printf(b, "\"");
}

/* Parameters written where they take effect, so only effective values must survive. */
static void put_params(sbuf *b, const wsel_set *set)
{
    if (set->kind != WSEL_KIND_CNAME)
        sb_printf(b, "multi => %s\n", set->multi ? "true" : "false");
    sb_printf(b, "up_thresh => %.17g\nservice_types => [", set->up_thresh);
    for (uint32_t i = 0; i < set->n_services; i++) {
        sb_printf(b, " ");
        put_str(b, set->services[i]);
    }
    sb_printf(b, " ]\n");
}

/* A CNAME's value is zone-file text, which gdnsd reads raw (doc/weighted.md §3.5):
 * written between quotes as it is, but for \DDD above 199, which the config language
 * refuses, written as the raw byte. */
static void put_cname(sbuf *b, const char *v)
{
    sb_printf(b, "\"");
    for (size_t i = 0; v[i]; i++) {
        if (v[i] == '\\' && isdigit((unsigned char)v[i + 1]) &&
            (v[i + 1] - '0') * 100 + (v[i + 2] - '0') * 10 + (v[i + 3] - '0') > 199) {
            sb_printf(b, "%c", (char)((v[i + 1] - '0') * 100 + (v[i + 2] - '0') * 10 +
                                      (v[i + 3] - '0')));
            i += 3;
        } else if (v[i] == '\\') {
            sb_printf(b, "%c%c", v[i], v[i + 1]);
            i++;
        } else {
            sb_printf(b, "%c", v[i]);
        }
    }
    sb_printf(b, "\"");
}

static void put_items(sbuf *b, const wsel_set *set, uint32_t first, uint32_t count)
{
    for (uint32_t i = first; i < first + count; i++) {
        put_str(b, set->items[i].label);
        sb_printf(b, " => [ ");
        if (set->kind == WSEL_KIND_CNAME)
            put_cname(b, set->items[i].value);
        else if (strchr(set->items[i].key, '%'))
            put_str(b, set->items[i].key); /* IPv6 with its scope id: the value drops it */
        else
            put_str(b, set->items[i].value);
        sb_printf(b, ", %u ]\n", set->items[i].weight);
    }
}

static void put_set(sbuf *b, const wsel_set *set)
{
    put_params(b, set);
    if (!set->grouped) {
        put_items(b, set, 0, set->n_items);
        return;
    }
    for (uint32_t g = 0; g < set->n_groups; g++) {
        put_str(b, set->groups[g].label);
        sb_printf(b, " => {\n");
        put_items(b, set, set->groups[g].first, set->groups[g].count);
        sb_printf(b, "}\n");
    }
}

static void same_set(const wsel_set *a, const wsel_set *b)
{
    FUZZ_ASSERT(a->kind == b->kind && a->mode == b->mode && a->grouped == b->grouped &&
                a->multi == b->multi);
    FUZZ_ASSERT_MSG(a->up_thresh == b->up_thresh, "up_thresh %.17g read back as %.17g",
                    a->up_thresh, b->up_thresh);
    FUZZ_ASSERT(a->total == b->total && a->threshold == b->threshold);
    FUZZ_ASSERT(a->n_services == b->n_services);
    for (uint32_t i = 0; i < a->n_services; i++)
        FUZZ_ASSERT_MSG(strcmp(a->services[i], b->services[i]) == 0,
                        "service type \"%s\" read back as \"%s\"", a->services[i], b->services[i]);
    FUZZ_ASSERT(a->n_items == b->n_items && a->n_groups == b->n_groups &&
                a->max_group == b->max_group);
    for (uint32_t i = 0; i < a->n_items; i++) {
        const wsel_item *x = &a->items[i], *y = &b->items[i];
        FUZZ_ASSERT_MSG(strcmp(x->label, y->label) == 0, "label \"%s\" read back as \"%s\"",
                        x->label, y->label);
        FUZZ_ASSERT_MSG(strcmp(x->value, y->value) == 0, "value \"%s\" read back as \"%s\"",
                        x->value, y->value);
        FUZZ_ASSERT(strcmp(x->key, y->key) == 0);
        FUZZ_ASSERT(memcmp(x->addr, y->addr, sizeof x->addr) == 0);
        FUZZ_ASSERT(x->weight == y->weight && x->group == y->group);
    }
    for (uint32_t g = 0; g < a->n_groups; g++) {
        FUZZ_ASSERT(strcmp(a->groups[g].label, b->groups[g].label) == 0);
        FUZZ_ASSERT(a->groups[g].first == b->groups[g].first &&
                    a->groups[g].count == b->groups[g].count &&
                    a->groups[g].total == b->groups[g].total);
    }
}

static void round_trip(const wsel_config *cfg)
{
    sbuf b = { 0 };
    sb_printf(&b, "# printed from a loaded model\n");
    for (size_t r = 0; r < wsel_config_resource_count(cfg); r++) {
        const wsel_resource *res = wsel_config_resource(cfg, r);
        put_str(&b, res->name);
        sb_printf(&b, " => {\n");
        if (res->explicit_families) {
            for (uint32_t s = 0; s < res->n_sets; s++) {
                sb_printf(&b, "%s => {\n", res->sets[s].stanza);
                put_set(&b, &res->sets[s]);
                sb_printf(&b, "}\n");
            }
        } else {
            put_set(&b, &res->sets[0]);
        }
        sb_printf(&b, "}\n");
    }
    wsel_load_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.input = WSEL_INPUT_STANZA;
    opts.flags = WSEL_LOAD_NO_INCLUDE;
    wsel_config *again = NULL;
    wsel_error err;
    int rc = wsel_config_load_buffer("roundtrip.conf", b.s, b.len, &opts, &again, &err);
    if (rc != WSEL_OK) {
        char msg[2048];
        fprintf(stderr, "printed model:\n%.*s\n", (int)b.len, b.s);
        FUZZ_ASSERT_MSG(0, "the printed model does not load: %s",
                        wsel_error_format(&err, msg, sizeof msg));
    }
    FUZZ_ASSERT(wsel_config_resource_count(again) == wsel_config_resource_count(cfg));
    for (size_t r = 0; r < wsel_config_resource_count(cfg); r++) {
        const wsel_resource *x = wsel_config_resource(cfg, r), *y = wsel_config_resource(again, r);
        FUZZ_ASSERT_MSG(strcmp(x->name, y->name) == 0, "resource \"%s\" read back as \"%s\"",
                        x->name, y->name);
        FUZZ_ASSERT(x->explicit_families == y->explicit_families && x->is_cname == y->is_cname &&
                    x->n_sets == y->n_sets);
        for (uint32_t s = 0; s < x->n_sets; s++)
            same_set(&x->sets[s], &y->sets[s]);
    }
    wsel_config_free(again);
    free(b.s);
}

/* Loads in one mode; returns the status and, on success, the resource count. */
static int load(const uint8_t *data, size_t size, wsel_input mode, size_t *nres)
{
    wsel_load_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.input = mode;
    opts.flags = WSEL_LOAD_NO_INCLUDE;
    wsel_config *cfg = (wsel_config *)&opts; /* must be overwritten with NULL on failure */
    wsel_error err;
    memset(&err, 0x5a, sizeof err);
    int rc = wsel_config_load_buffer("fuzz.conf", (const char *)data, size, &opts, &cfg, &err);
    static const char *const names[] = { "auto", "whole", "stanza" };
    if (rc != WSEL_OK) {
        FUZZ_ASSERT_MSG(cfg == NULL, "%s: failed load left *out set", names[mode]);
        check_error(&err, rc, names[mode]);
        *nres = 0;
        return rc;
    }
    FUZZ_ASSERT(cfg != NULL);
    if (mode == WSEL_INPUT_WHOLE)
        FUZZ_ASSERT(wsel_config_is_whole(cfg));
    if (mode == WSEL_INPUT_STANZA)
        FUZZ_ASSERT(!wsel_config_is_whole(cfg));
    check_model(cfg);
    if (mode != WSEL_INPUT_AUTO)
        round_trip(cfg);
    *nres = wsel_config_resource_count(cfg);
    wsel_config_free(cfg);
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t n_whole, n_stanza, n_auto;
    int r_whole = load(data, size, WSEL_INPUT_WHOLE, &n_whole);
    int r_stanza = load(data, size, WSEL_INPUT_STANZA, &n_stanza);
    int r_auto = load(data, size, WSEL_INPUT_AUTO, &n_auto);
    FUZZ_ASSERT_MSG((r_auto == r_whole && n_auto == n_whole) ||
                    (r_auto == r_stanza && n_auto == n_stanza),
                    "auto mode (%d, %zu resources) agrees with neither whole (%d, %zu) "
                    "nor stanza (%d, %zu)", r_auto, n_auto, r_whole, n_whole, r_stanza, n_stanza);
    return 0;
}
