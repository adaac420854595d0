/* fuzz_differential: every engine gives the answer the random-word contract defines.
 *
 * The input is decoded (fuzz.h's producer) into a structured case: 1..3 resources, each
 * automatic (v4, v6 or CNAME) or explicit (addrs_v4 and/or addrs_v6); per set grouped or
 * not, multi or not, 1..64 items or groups of 1..64 addresses, weights (edge values
 * likely), up_thresh, service_types set at top / resource / stanza level, duplicated
 * addresses, non-canonical spellings; then a monitoring state over three service types,
 * a seed and up to 64 queries, then a state change and up to 64 more queries.
 *
 * The case is written as a whole gdnsd config in memory and loaded. Properties:
 *   - the loaded model is what was written (modes, weights, counts, parameters, keys);
 *   - a query consumes exactly the contract's word count, in every engine;
 *   - wsel_ref_resolve and every available resolver engine (ref, fast and each forced
 *     fast variant) return answers equal (wsel_answer_equal, and field by field) to an
 *     oracle written here from the contract text in resolve.h, both before and after
 *     a state change published with wsel_resolver_sync();
 *   - every answer obeys doc/weighted.md §5.7: >= 1 item, config order, no DOWN item unless
 *     the set failed, every max-weight item of a multi layer present, grouped-single
 *     within one group, grouped-multi at most one address per group, failed iff the
 *     dynamic sum is below ceil((double)T * up_thresh), ttl the minimum over all items.
 * The exact-odds calculator must agree on failed/ttl/dynamic weights and give every
 * answer a probability above 0 (and list it, when it enumerates answers).
 * Words are drawn from the default PRNG, or placed exactly on (or one below) the
 * boundary of the decision they feed, where off-by-one errors live. */
#include <arpa/inet.h>
#include <math.h>
#include <stdarg.h>

#include "fuzz.h"
#include "wsel.h"

__extension__ typedef unsigned __int128 u128;

#define MAX_SETS 6
#define MAX_KEYS 8192
#define NSVC 3

static const char *const svc_names[NSVC] = { "s1", "s2", "s3" };

/* ---- the case ---- */

/* Parameter settings a level may carry; -1 = not set at this level. */
typedef struct params {
    int multi;      /* 0/1 */
    int ut;         /* index into ut_values */
    int svc;        /* index into svc_lists */
} params;

static const double ut_values[] = { 0.5, 1.0, 0.07, 0.01, 1e-9, 0.9999999999, 0.25, 0.75, 0.333 };
#define N_UT (sizeof ut_values / sizeof ut_values[0])

typedef struct svc_list {
    const char *text;
    int n;
    const char *names[2];
} svc_list;

static const svc_list svc_lists[] = {
    { "up", 1, { "up", NULL } },
    { "down", 1, { "down", NULL } },
    { "[]", 0, { NULL, NULL } },
    { "s1", 1, { "s1", NULL } },
    { "[ s1, s2 ]", 2, { "s1", "s2" } },
    { "[ s2 s3 ]", 2, { "s2", "s3" } },
    { "[ up, s3 ]", 2, { "up", "s3" } },
    { "[ s3 ]", 1, { "s3", NULL } },
};
#define N_SVC_LISTS (sizeof svc_lists / sizeof svc_lists[0])

typedef struct exp_item {
    uint32_t weight;
    uint32_t key;          /* index into the key table */
    uint16_t group;
} exp_item;

typedef struct exp_set {
    wsel_kind kind;
    bool grouped, multi;
    double ut;
    int svc;               /* index into svc_lists */
    uint32_t n_items, n_groups;
    uint32_t gsize[64];
    exp_item *items;
} exp_set;

typedef struct key_ent {
    char canon[64];
    wsel_kind kind;
    /* The state this case set, per custom service type. */
    bool set[NSVC];
    bool up[NSVC];
    uint32_t ttl[NSVC];
} key_ent;

typedef struct fcase {
    uint32_t n_res;
    uint32_t res_sets[3];
    uint32_t n_sets;
    exp_set sets[MAX_SETS];
    uint32_t n_keys;
    key_ent *keys;
} fcase;

static void case_free(fcase *c)
{
    for (uint32_t s = 0; s < c->n_sets; s++)
        free(c->sets[s].items);
    free(c->keys);
}

static params read_params(fuzz_producer *fp)
{
    params p = { -1, -1, -1 };
    unsigned which = (unsigned)fuzz_bits(fp, 1);
    if (which & 1)
        p.multi = (which >> 3) & 1;
    if (which & 2)
        p.ut = (int)fuzz_range(fp, 0, N_UT - 1);
    if (which & 4)
        p.svc = (int)fuzz_range(fp, 0, N_SVC_LISTS - 1);
    return p;
}

static void write_params(sbuf *b, const params *p, unsigned style)
{
    const char *as = (style & 1) ? " = " : " => ";
    const char *sep = (style & 2) ? ",\n" : "\n";
    if (p->multi >= 0)
        sb_printf(b, "multi%s%s%s", as, p->multi ? ((style & 4) ? "TRUE" : "true") : "false", sep);
    if (p->ut >= 0)
        sb_printf(b, "up_thresh%s%.17g%s", as, ut_values[p->ut], sep);
    if (p->svc >= 0)
        sb_printf(b, "service_types%s%s%s", as, svc_lists[p->svc].text, sep);
}

static void inherit(params *eff, const params *lvl)
{
    if (lvl->multi >= 0)
        eff->multi = lvl->multi;
    if (lvl->ut >= 0)
        eff->ut = lvl->ut;
    if (lvl->svc >= 0)
        eff->svc = lvl->svc;
}

static uint32_t read_weight(fuzz_producer *fp, uint32_t prev)
{
    switch (fuzz_bits(fp, 1) & 7) {
    case 0: return 1 + (uint32_t)fuzz_range(fp, 0, 7);
    case 1: return WSEL_MAX_WEIGHT;
    case 2: return prev ? prev : 1;
    case 3: return 1;
    case 4: return WSEL_MAX_WEIGHT - (uint32_t)fuzz_range(fp, 0, 3);
    case 5: return 1 + (uint32_t)fuzz_range(fp, 0, 99);
    default: return 1 + (uint32_t)fuzz_range(fp, 0, WSEL_MAX_WEIGHT - 1);
    }
}

/* Picks an item's address or name: usually new, sometimes one used before (duplicates
 * are legal and share state). Writes its spelling to `text`, returns its key index. */
static uint32_t make_key(fcase *c, fuzz_producer *fp, wsel_kind kind, char *text, size_t len)
{
    unsigned b = (unsigned)fuzz_bits(fp, 1);
    uint32_t k = UINT32_MAX;
    if ((b & 7) == 7) {
        uint32_t pick = (uint32_t)fuzz_range(fp, 0, c->n_keys ? c->n_keys - 1 : 0);
        for (uint32_t i = 0; i < c->n_keys; i++) {
            uint32_t j = (pick + i) % c->n_keys;
            if (c->keys[j].kind == kind) {
                k = j;
                break;
            }
        }
    }
    if (k == UINT32_MAX) {
        FUZZ_ASSERT(c->n_keys < MAX_KEYS);
        k = c->n_keys++;
        memset(&c->keys[k], 0, sizeof c->keys[k]);
        c->keys[k].kind = kind;
        uint32_t id = k + 1;
        if (kind == WSEL_KIND_V4)
            snprintf(c->keys[k].canon, sizeof c->keys[k].canon, "10.%u.%u.%u",
                     (id >> 16) & 255, (id >> 8) & 255, id & 255);
        else if (kind == WSEL_KIND_V6)
            snprintf(c->keys[k].canon, sizeof c->keys[k].canon, "fd00::%x:%x", id >> 4, id);
        else
            snprintf(c->keys[k].canon, sizeof c->keys[k].canon, "c%u.example.net.", id);
        if (kind != WSEL_KIND_CNAME) {
            /* Canonical form by the C library, not by hand: it decides ::x:y folding. */
            uint8_t bin[16];
            int af = kind == WSEL_KIND_V4 ? AF_INET : AF_INET6;
            FUZZ_ASSERT(inet_pton(af, c->keys[k].canon, bin) == 1);
            FUZZ_ASSERT(inet_ntop(af, bin, c->keys[k].canon, sizeof c->keys[k].canon));
        }
    }
    const char *canon = c->keys[k].canon;
    if ((b & 0x18) == 0x18 && kind != WSEL_KIND_V4) {
        /* Non-canonical spelling: upper case (and for v6, every group written out). */
        if (kind == WSEL_KIND_V6) {
            uint8_t bin[16];
            FUZZ_ASSERT(inet_pton(AF_INET6, canon, bin) == 1);
            snprintf(text, len, "%X:%X:%X:%X:%X:%X:%X:%X",
                     bin[0] << 8 | bin[1], bin[2] << 8 | bin[3], bin[4] << 8 | bin[5],
                     bin[6] << 8 | bin[7], bin[8] << 8 | bin[9], bin[10] << 8 | bin[11],
                     bin[12] << 8 | bin[13], bin[14] << 8 | bin[15]);
        } else {
            size_t n = strlen(canon);
            FUZZ_ASSERT(n < len);
            for (size_t i = 0; i <= n; i++)
                text[i] = (i % 2 && canon[i] >= 'a' && canon[i] <= 'z') ? (char)(canon[i] - 32)
                                                                        : canon[i];
        }
    } else {
        snprintf(text, len, "%s", canon);
    }
    return k;
}

static void write_item(sbuf *b, const char *label, const char *text, uint32_t weight,
                       unsigned style)
{
    const char *as = (style & 1) ? " = " : " => ";
    if (style & 8)
        sb_printf(b, "%s%s[ \"%s\", %u ]%s", label, as, text, weight, (style & 2) ? ",\n" : "\n");
    else
        sb_printf(b, "%s%s[ %s %u ]\n", label, as, text, weight);
}

/* One set's items (after its parameters): ungrouped items, or groups of addresses. */
static void gen_items(fcase *c, fuzz_producer *fp, sbuf *b, exp_set *es, unsigned style)
{
    uint32_t prev = 0;
    char text[96], label[32];
    es->n_groups = es->grouped ? (uint32_t)fuzz_range(fp, 1, 64) : 0;
    uint32_t n_items = 0;
    if (es->grouped) {
        for (uint32_t g = 0; g < es->n_groups; g++) {
            es->gsize[g] = (uint32_t)fuzz_range(fp, 1, 64);
            n_items += es->gsize[g];
        }
    } else {
        n_items = (uint32_t)fuzz_range(fp, 1, 64);
    }
    es->n_items = n_items;
    es->items = calloc(n_items, sizeof *es->items);
    FUZZ_ASSERT(es->items != NULL);
    const char *as = (style & 1) ? " = " : " => ";
    uint32_t i = 0;
    for (uint32_t g = 0; g < (es->grouped ? es->n_groups : 1); g++) {
        uint32_t cnt = es->grouped ? es->gsize[g] : n_items;
        if (es->grouped)
            sb_printf(b, "g%u%s{\n", g, as);
        for (uint32_t j = 0; j < cnt; j++, i++) {
            exp_item *it = &es->items[i];
            it->key = make_key(c, fp, es->kind, text, sizeof text);
            it->weight = read_weight(fp, prev);
            it->group = (uint16_t)g;
            prev = it->weight;
            snprintf(label, sizeof label, "i%u", j);
            write_item(b, label, text, it->weight, style);
        }
        if (es->grouped)
            sb_printf(b, "}\n");
    }
}

static void gen_case(fcase *c, fuzz_producer *fp, sbuf *b)
{
    memset(c, 0, sizeof *c);
    c->keys = calloc(MAX_KEYS, sizeof *c->keys);
    FUZZ_ASSERT(c->keys != NULL);
    unsigned style = (unsigned)fuzz_bits(fp, 1);
    const char *as = (style & 1) ? " = " : " => ";
    sb_printf(b, "options => { listen => [ 127.0.0.1 ] }\nservice_types => {\n");
    for (int s = 0; s < NSVC; s++)
        sb_printf(b, "  %s => { plugin => extfile, file => %s, def_down => false }\n",
                  svc_names[s], svc_names[s]);
    sb_printf(b, "}\nplugins => {\n weighted => {\n");
    params top = read_params(fp);
    write_params(b, &top, style);
    params eff_top = { 0, 0, 0 };
    inherit(&eff_top, &top);

    c->n_res = (uint32_t)fuzz_range(fp, 1, 3);
    for (uint32_t r = 0; r < c->n_res; r++) {
        unsigned shape = (unsigned)fuzz_range(fp, 0, 5);
        sb_printf(b, "r%u%s{\n", r, as);
        params rp = read_params(fp);
        write_params(b, &rp, style);
        params eff_r = eff_top;
        inherit(&eff_r, &rp);
        if (shape <= 2) {
            /* Automatic: v4, v6 or CNAMEs straight in the resource. */
            exp_set *es = &c->sets[c->n_sets++];
            es->kind = shape == 0 ? WSEL_KIND_V4 : shape == 1 ? WSEL_KIND_V6 : WSEL_KIND_CNAME;
            es->grouped = es->kind != WSEL_KIND_CNAME && fuzz_bool(fp);
            es->multi = es->kind != WSEL_KIND_CNAME && eff_r.multi;
            es->ut = ut_values[eff_r.ut];
            es->svc = eff_r.svc;
            gen_items(c, fp, b, es, style);
            c->res_sets[r] = 1;
        } else {
            /* Explicit: addrs_v4, addrs_v6, or both. */
            c->res_sets[r] = 0;
            for (int fam = 0; fam < 2; fam++) {
                if ((shape == 3 && fam == 1) || (shape == 4 && fam == 0))
                    continue;
                exp_set *es = &c->sets[c->n_sets++];
                es->kind = fam ? WSEL_KIND_V6 : WSEL_KIND_V4;
                sb_printf(b, "addrs_v%d%s{\n", fam ? 6 : 4, as);
                params sp = read_params(fp);
                write_params(b, &sp, style);
                params eff_s = eff_r;
                inherit(&eff_s, &sp);
                es->grouped = fuzz_bool(fp);
                es->multi = eff_s.multi;
                es->ut = ut_values[eff_s.ut];
                es->svc = eff_s.svc;
                gen_items(c, fp, b, es, style);
                sb_printf(b, "}\n");
                c->res_sets[r]++;
            }
        }
        sb_printf(b, "}\n");
    }
    sb_printf(b, " }\n}\n");
}

static bool svc_used(const fcase *c, const char *name)
{
    for (uint32_t s = 0; s < c->n_sets; s++) {
        const svc_list *sl = &svc_lists[c->sets[s].svc];
        for (int i = 0; i < sl->n; i++)
            if (strcmp(sl->names[i], name) == 0)
                return true;
    }
    return false;
}

/* Applies state changes read from the input to both the library state and the case's
 * own record of it. */
static void gen_state(fcase *c, fuzz_producer *fp, wsel_state *st)
{
    uint32_t n = (uint32_t)fuzz_range(fp, 0, 2 * c->n_keys);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t k = (uint32_t)fuzz_range(fp, 0, c->n_keys - 1);
        unsigned s = (unsigned)fuzz_range(fp, 0, NSVC - 1);
        unsigned what = (unsigned)fuzz_bits(fp, 1);
        bool up = (what & 1) != 0;
        uint32_t ttl;
        switch ((what >> 1) & 3) {
        case 0: ttl = WSEL_MAX_TTL; break;
        case 1: ttl = 0; break;
        case 2: ttl = (uint32_t)fuzz_range(fp, 0, 600); break;
        default: ttl = (uint32_t)fuzz_range(fp, 0, WSEL_MAX_TTL); break;
        }
        key_ent *ke = &c->keys[k];
        /* Set through the canonical text or, for CNAMEs, an upper-case spelling:
         * keys are canonicalised on the way in. */
        char text[64];
        snprintf(text, sizeof text, "%s", ke->canon);
        if ((what & 8) && ke->kind == WSEL_KIND_CNAME)
            for (char *p = text; *p; p++)
                if (*p >= 'a' && *p <= 'z')
                    *p = (char)(*p - 32);
        wsel_error err;
        size_t matched = 0;
        int rc = wsel_state_set(st, svc_names[s], text, up, ttl, &matched, &err);
        /* state.h: only a service type the config does not define is refused. The
         * loader refuses one that is defined but used by no set; tolerated here since
         * no answer depends on it (reported to the state owner). */
        if (rc == WSEL_E_STATE && !svc_used(c, svc_names[s]))
            continue;
        FUZZ_ASSERT_MSG(rc == WSEL_OK, "state_set(%s, %s): %d %s", svc_names[s], text, rc,
                        err.message);
        ke->set[s] = true;
        ke->up[s] = up;
        ke->ttl[s] = ttl;
        wsel_mstate ms = wsel_state_get(st, svc_names[s], text);
        FUZZ_ASSERT(ms.up == up && ms.ttl == ttl);
    }
}

/* ---- model check ---- */

static void check_model(const fcase *c, const wsel_config *cfg)
{
    FUZZ_ASSERT_MSG(wsel_config_resource_count(cfg) == c->n_res, "%zu resources, wrote %u",
                    wsel_config_resource_count(cfg), c->n_res);
    FUZZ_ASSERT(wsel_config_set_count(cfg) == c->n_sets);
    uint32_t s = 0;
    for (uint32_t r = 0; r < c->n_res; r++) {
        const wsel_resource *res = wsel_config_resource(cfg, r);
        FUZZ_ASSERT(res->n_sets == c->res_sets[r]);
        for (uint32_t k = 0; k < res->n_sets; k++, s++) {
            const wsel_set *set = &res->sets[k];
            const exp_set *es = &c->sets[s];
            FUZZ_ASSERT(set->kind == es->kind && set->grouped == es->grouped &&
                        set->multi == es->multi);
            FUZZ_ASSERT_MSG(set->up_thresh == es->ut, "up_thresh %.17g, wrote %.17g",
                            set->up_thresh, es->ut);
            FUZZ_ASSERT(set->n_items == es->n_items && set->n_groups == es->n_groups);
            const svc_list *sl = &svc_lists[es->svc];
            FUZZ_ASSERT_MSG(set->n_services == (uint32_t)sl->n,
                            "set %u: %u service types, configured \"%s\"", s, set->n_services,
                            sl->text);
            for (int i = 0; i < sl->n; i++)
                FUZZ_ASSERT(strcmp(set->services[i], sl->names[i]) == 0);
            for (uint32_t g = 0; g < es->n_groups; g++)
                FUZZ_ASSERT(set->groups[g].count == es->gsize[g]);
            for (uint32_t i = 0; i < es->n_items; i++) {
                FUZZ_ASSERT(set->items[i].weight == es->items[i].weight);
                FUZZ_ASSERT(set->items[i].group == es->items[i].group);
                FUZZ_ASSERT_MSG(strcmp(set->items[i].key, c->keys[es->items[i].key].canon) == 0,
                                "key \"%s\", expected \"%s\"", set->items[i].key,
                                c->keys[es->items[i].key].canon);
            }
        }
    }
}

/* ---- the oracle: the contract of resolve.h, written from its text ---- */

/* The word source the oracle draws from. In boundary mode a word is placed exactly on
 * (or one below) the smallest word value giving some outcome of the decision it feeds. */
typedef struct wordgen {
    wsel_prng prng;
    fuzz_producer *fp;
    int boundary;           /* percent of words placed on boundaries */
    uint64_t words[WSEL_WORDS_MAX];
    size_t n;
} wordgen;

static uint64_t ceil_div_2_64(uint64_t k, uint64_t den)
{
    /* smallest w with w * den >= k * 2^64 */
    u128 num = (u128)k << 64;
    u128 q = num / den;
    if (q * den < num)
        q++;
    return q > UINT64_MAX ? UINT64_MAX : (uint64_t)q;
}

static uint64_t boundary_word(wordgen *wg, uint64_t k, uint64_t den)
{
    uint64_t w = ceil_div_2_64(k, den);
    if (wsel_prng_next(&wg->prng) & 1)
        w -= w ? 1 : 0;
    return w;
}

static bool want_boundary(wordgen *wg)
{
    return wg->boundary && (int)(wsel_prng_next(&wg->prng) % 100) < wg->boundary;
}

/* A word for CHOOSE among prefix sums (D = total). */
static uint64_t word_choose(wordgen *wg, const uint64_t *prefix, uint32_t n, uint64_t D)
{
    uint64_t w;
    if (want_boundary(wg)) {
        uint64_t k = prefix[wsel_prng_next(&wg->prng) % n];
        w = boundary_word(wg, k >= D ? D - 1 : k, D);
    } else {
        w = wsel_prng_next(&wg->prng);
    }
    FUZZ_ASSERT(wg->n < WSEL_WORDS_MAX);
    wg->words[wg->n++] = w;
    return w;
}

static uint64_t word_include(wordgen *wg, uint64_t d, uint64_t M)
{
    uint64_t w = want_boundary(wg) && M ? boundary_word(wg, d, M) : wsel_prng_next(&wg->prng);
    FUZZ_ASSERT(wg->n < WSEL_WORDS_MAX);
    wg->words[wg->n++] = w;
    return w;
}

static uint32_t choose(wordgen *wg, const uint64_t *d, uint32_t n)
{
    uint64_t prefix[64], D = 0;
    for (uint32_t i = 0; i < n; i++) {
        D += d[i];
        prefix[i] = D;
    }
    FUZZ_ASSERT(D > 0);
    uint64_t w = word_choose(wg, prefix, n, D);
    uint64_t u = (uint64_t)(((u128)w * D) >> 64);
    for (uint32_t i = 0; i < n; i++)
        if (u < prefix[i])
            return i;
    FUZZ_ASSERT_MSG(0, "CHOOSE fell off the end");
}

static bool include(wordgen *wg, uint64_t d, uint64_t M)
{
    uint64_t w = word_include(wg, d, M);
    return (u128)w * M < ((u128)d << 64);
}

typedef struct set_truth {
    uint64_t dyn[4096];
    bool up[4096];
    uint64_t dyn_sum;
    bool failed;
    uint32_t ttl;
} set_truth;

/* Combined state of each item, computed from the case's own record plus the built-in
 * types' raw state as the library reports it. */
static void set_state(const fcase *c, const exp_set *es, const wsel_state *st,
                      const wsel_set *set, set_truth *t)
{
    const svc_list *sl = &svc_lists[es->svc];
    t->ttl = WSEL_MAX_TTL;
    t->dyn_sum = 0;
    for (uint32_t i = 0; i < es->n_items; i++) {
        const key_ent *ke = &c->keys[es->items[i].key];
        bool up = true;
        uint32_t ttl = WSEL_MAX_TTL;
        for (int s = 0; s < sl->n; s++) {
            bool u;
            uint32_t tt;
            if (strcmp(sl->names[s], "up") == 0 || strcmp(sl->names[s], "down") == 0) {
                wsel_mstate ms = wsel_state_get(st, sl->names[s], ke->canon);
                FUZZ_ASSERT_MSG(ms.up == (sl->names[s][0] == 'u'), "built-in %s says %s",
                                sl->names[s], ms.up ? "UP" : "DOWN");
                u = ms.up;
                tt = ms.ttl;
            } else {
                int idx = sl->names[s][1] - '1';
                u = ke->set[idx] ? ke->up[idx] : true;
                tt = ke->set[idx] ? ke->ttl[idx] : WSEL_MAX_TTL;
            }
            up = up && u;
            if (tt < ttl)
                ttl = tt;
        }
        wsel_mstate comb = wsel_state_item(st, set, &set->items[i]);
        FUZZ_ASSERT_MSG(comb.up == up && comb.ttl == ttl,
                        "state_item(%s) = %s/%u, expected %s/%u", ke->canon,
                        comb.up ? "UP" : "DOWN", comb.ttl, up ? "UP" : "DOWN", ttl);
        t->up[i] = up;
        t->dyn[i] = up ? es->items[i].weight : 0;
        t->dyn_sum += t->dyn[i];
        if (ttl < t->ttl)
            t->ttl = ttl;
    }
    uint64_t T = 0;
    for (uint32_t i = 0; i < es->n_items; i++)
        T += es->items[i].weight;
    uint64_t thr = (uint64_t)ceil((double)T * es->ut);
    t->failed = t->dyn_sum < thr;
    if (t->failed)
        for (uint32_t i = 0; i < es->n_items; i++)
            t->dyn[i] = es->items[i].weight;
}

static uint64_t max_of(const uint64_t *v, uint32_t n)
{
    uint64_t m = 0;
    for (uint32_t i = 0; i < n; i++)
        if (v[i] > m)
            m = v[i];
    return m;
}

static void oracle_set(const exp_set *es, const set_truth *t, wordgen *wg, wsel_set_answer *a)
{
    memset(a, 0, sizeof *a);
    a->ttl = t->ttl;
    a->failed = t->failed;
    uint32_t n = es->n_items;
    if (!es->grouped && !es->multi) {
        a->items[a->count++] = (uint16_t)choose(wg, t->dyn, n);
        return;
    }
    if (!es->grouped) {
        uint64_t M = max_of(t->dyn, n);
        for (uint32_t i = 0; i < n; i++)
            if (include(wg, t->dyn[i], M))
                a->items[a->count++] = (uint16_t)i;
        return;
    }
    uint32_t G = es->n_groups, first[64] = { 0 }, A = 0;
    uint64_t gw[64];
    for (uint32_t g = 0, f = 0; g < G; g++) {
        first[g] = f;
        gw[g] = 0;
        for (uint32_t j = 0; j < es->gsize[g]; j++)
            gw[g] += t->dyn[f + j];
        if (es->gsize[g] > A)
            A = es->gsize[g];
        f += es->gsize[g];
    }
    if (!es->multi) {
        uint32_t g = choose(wg, gw, G);
        const uint64_t *d = &t->dyn[first[g]];
        uint64_t M = max_of(d, es->gsize[g]);
        for (uint32_t j = 0; j < A; j++) {
            if (j < es->gsize[g]) {
                if (include(wg, d[j], M))
                    a->items[a->count++] = (uint16_t)(first[g] + j);
            } else {
                word_include(wg, 0, 0); /* unused word */
            }
        }
        return;
    }
    uint64_t M = max_of(gw, G);
    bool inc[64];
    for (uint32_t g = 0; g < G; g++)
        inc[g] = include(wg, gw[g], M);
    for (uint32_t g = 0; g < G; g++) {
        if (inc[g] && gw[g] > 0) {
            a->items[a->count++] = (uint16_t)(first[g] + choose(wg, &t->dyn[first[g]], es->gsize[g]));
        } else {
            /* Unused word. A group can only be included with G_g = 0 if M = 0, which the
             * threshold rule prevents (the dynamic sum is then below any threshold > 0). */
            FUZZ_ASSERT(!inc[g]);
            word_include(wg, 0, 0);
        }
    }
}

static size_t contract_words(const exp_set *es)
{
    if (!es->grouped)
        return es->multi ? es->n_items : 1;
    uint32_t A = 0;
    for (uint32_t g = 0; g < es->n_groups; g++)
        if (es->gsize[g] > A)
            A = es->gsize[g];
    return es->multi ? 2 * (size_t)es->n_groups : 1 + (size_t)A;
}

/* ---- doc/weighted.md §5.7 invariants, on any engine's answer ---- */

static void check_invariants(const exp_set *es, const set_truth *t, const wsel_set_answer *a)
{
    FUZZ_ASSERT_MSG(a->count >= 1 && a->count <= es->n_items, "answer of %u items", a->count);
    FUZZ_ASSERT(a->failed == t->failed);
    FUZZ_ASSERT_MSG(a->ttl == t->ttl, "ttl %u, expected %u", a->ttl, t->ttl);
    bool in[4096] = { false };
    for (uint32_t k = 0; k < a->count; k++) {
        FUZZ_ASSERT(a->items[k] < es->n_items);
        if (k)
            FUZZ_ASSERT_MSG(a->items[k] > a->items[k - 1], "answer not in config order");
        in[a->items[k]] = true;
        if (!t->failed)
            FUZZ_ASSERT_MSG(t->up[a->items[k]], "DOWN item %u answered without failover",
                            a->items[k]);
    }
    if (!es->grouped) {
        if (!es->multi) {
            FUZZ_ASSERT(a->count == 1);
            return;
        }
        uint64_t M = max_of(t->dyn, es->n_items);
        for (uint32_t i = 0; i < es->n_items; i++)
            if (t->dyn[i] == M)
                FUZZ_ASSERT_MSG(in[i], "max-weight item %u missing from a multi answer", i);
        return;
    }
    uint32_t per_group[64] = { 0 };
    for (uint32_t k = 0; k < a->count; k++)
        per_group[es->items[a->items[k]].group]++;
    if (!es->multi) {
        uint16_t g = es->items[a->items[0]].group;
        FUZZ_ASSERT_MSG(per_group[g] == a->count, "grouped-single answer mixes groups");
        uint32_t first = 0;
        for (uint16_t h = 0; h < g; h++)
            first += es->gsize[h];
        uint64_t M = max_of(&t->dyn[first], es->gsize[g]);
        for (uint32_t j = 0; j < es->gsize[g]; j++)
            if (t->dyn[first + j] == M)
                FUZZ_ASSERT_MSG(in[first + j], "max-weight address missing from chosen group");
        return;
    }
    uint64_t gw[64] = { 0 };
    for (uint32_t i = 0; i < es->n_items; i++)
        gw[es->items[i].group] += t->dyn[i];
    uint64_t M = max_of(gw, es->n_groups);
    for (uint32_t g = 0; g < es->n_groups; g++) {
        FUZZ_ASSERT_MSG(per_group[g] <= 1, "grouped-multi answer holds 2 addresses of group %u", g);
        if (gw[g] == M)
            FUZZ_ASSERT_MSG(per_group[g] == 1, "max-weight group %u missing", g);
    }
}

/* ---- replaying recorded words into an engine ---- */

typedef struct replay_src {
    const uint64_t *words;
    size_t n, pos;
    bool overrun;
} replay_src;

static void replay_fill(void *ctx, uint64_t *out, size_t n)
{
    replay_src *r = ctx;
    for (size_t i = 0; i < n; i++) {
        if (r->pos < r->n) {
            out[i] = r->words[r->pos++];
        } else {
            r->overrun = true;
            out[i] = 0;
        }
    }
}

static void compare(const char *engine, const wsel_answer *want, const wsel_answer *got,
                    const replay_src *src, size_t nwords, uint32_t q)
{
    FUZZ_ASSERT_MSG(!src->overrun && src->pos == nwords,
                    "%s: query %u consumed %zu%s words, contract says %zu", engine, q, src->pos,
                    src->overrun ? "+" : "", nwords);
    FUZZ_ASSERT_MSG(want->n_sets == got->n_sets, "%s: n_sets %u vs %u", engine, got->n_sets,
                    want->n_sets);
    for (uint32_t s = 0; s < want->n_sets; s++) {
        const wsel_set_answer *a = &want->set[s], *b = &got->set[s];
        FUZZ_ASSERT_MSG(a->failed == b->failed, "%s: query %u set %u failed %d, oracle %d",
                        engine, q, s, b->failed, a->failed);
        FUZZ_ASSERT_MSG(a->ttl == b->ttl, "%s: query %u set %u ttl %u, oracle %u", engine, q, s,
                        b->ttl, a->ttl);
        FUZZ_ASSERT_MSG(a->count == b->count, "%s: query %u set %u: %u items, oracle %u", engine,
                        q, s, b->count, a->count);
        for (uint32_t k = 0; k < a->count; k++)
            FUZZ_ASSERT_MSG(a->items[k] == b->items[k],
                            "%s: query %u set %u item %u: %u, oracle %u", engine, q, s, k,
                            b->items[k], a->items[k]);
    }
    FUZZ_ASSERT_MSG(want->ttl == got->ttl && want->failed == got->failed,
                    "%s: overall ttl/failed %u/%d, oracle %u/%d", engine, got->ttl, got->failed,
                    want->ttl, want->failed);
    FUZZ_ASSERT_MSG(wsel_answer_equal(want, got) && wsel_answer_equal(got, want),
                    "%s: wsel_answer_equal disagrees with a field-by-field match", engine);
}

#define MAX_RESOLVERS 16

/* The odds calculator, written apart from the engines, must agree on the state
 * figures and allow every answer the engines give. */
static void check_odds_state(const wsel_odds *o, const exp_set *es, const set_truth *t,
                             uint32_t k)
{
    const wsel_set_odds *so = &o->sets[k];
    FUZZ_ASSERT_MSG(so->failed == t->failed && so->ttl == t->ttl,
                    "odds: failed %d ttl %u, expected %d %u", so->failed, so->ttl, t->failed, t->ttl);
    for (uint32_t i = 0; i < es->n_items; i++) {
        FUZZ_ASSERT_MSG(so->dyn_weight[i] == t->dyn[i] && so->up[i] == t->up[i],
                        "odds: item %u dyn %u up %d, expected %llu %d", i, so->dyn_weight[i],
                        so->up[i], (unsigned long long)t->dyn[i], t->up[i]);
        FUZZ_ASSERT(so->item_p[i].p >= 0 && so->item_p[i].p <= 1.0L);
    }
}

static void check_odds_answer(const wsel_odds *o, const wsel_set_answer *a, uint32_t k,
                              uint32_t n_items)
{
    const wsel_set_odds *so = &o->sets[k];
    bool in[4096] = { false };
    for (uint32_t j = 0; j < a->count; j++)
        in[a->items[j]] = true;
    for (uint32_t i = 0; i < n_items; i++) {
        const wsel_prob *p = &so->item_p[i];
        if (in[i])
            FUZZ_ASSERT_MSG(p->p > 0, "answer holds item %u, odds give it probability 0", i);
        else if (p->exact)
            FUZZ_ASSERT_MSG(p->num != p->den, "answer lacks item %u, odds say it is certain", i);
    }
    if (!so->enumerable)
        return;
    for (uint32_t j = 0; j < so->n_answers; j++) {
        const wsel_odds_answer *oa = &so->answers[j];
        if (oa->count == a->count && memcmp(oa->items, a->items, a->count * sizeof *a->items) == 0) {
            FUZZ_ASSERT(oa->p.p > 0);
            return;
        }
    }
    FUZZ_ASSERT_MSG(0, "answer of %u items is not among the %u answers the odds list", a->count,
                    so->n_answers);
}

static void run_queries(const fcase *c, fuzz_producer *fp, const wsel_config *cfg,
                        const wsel_state *st, wsel_resolver *const *rv, size_t nrv)
{
    static set_truth truth[MAX_SETS];
    for (uint32_t s = 0; s < c->n_sets; s++)
        set_state(c, &c->sets[s], st, wsel_config_set(cfg, s), &truth[s]);

    wsel_odds *odds[3] = { NULL, NULL, NULL };
    for (uint32_t r = 0; r < c->n_res; r++) {
        const wsel_resource *res = wsel_config_resource(cfg, r);
        wsel_error err;
        int rc = wsel_odds_compute(res, st, &odds[r], &err);
        FUZZ_ASSERT_MSG(rc == WSEL_OK, "odds_compute(%s): %d %s", res->name, rc, err.message);
        FUZZ_ASSERT(odds[r]->resource == res && odds[r]->n_sets == res->n_sets);
        for (uint32_t k = 0; k < res->n_sets; k++)
            check_odds_state(odds[r], &c->sets[res->sets[k].id], &truth[res->sets[k].id], k);
    }

    wordgen wg;
    memset(&wg, 0, sizeof wg);
    uint64_t seed = fuzz_bits(fp, 8);
    wsel_prng_seed(&wg.prng, seed);
    /* The default generator itself, shared by the queries so its buffer position moves:
     * the fast variants take its words by paths of their own (fast/README.md), which
     * replayed words never reach; each must answer as ref does on a copy of it and
     * leave the generator as ref leaves it. */
    wsel_prng direct;
    wsel_prng_seed(&direct, seed ^ 0x9e3779b97f4a7c15u);
    wg.boundary = (int)fuzz_range(fp, 0, 3) * 33;
    uint32_t nq = (uint32_t)fuzz_range(fp, 1, 64);
    for (uint32_t q = 0; q < nq; q++) {
        uint32_t r = q % c->n_res;
        const wsel_resource *res = wsel_config_resource(cfg, r);
        uint32_t s0 = res->sets[0].id;
        wsel_answer want;
        memset(&want, 0, sizeof want);
        want.n_sets = res->n_sets;
        want.ttl = WSEL_MAX_TTL;
        wg.n = 0;
        size_t nwords = 0;
        for (uint32_t k = 0; k < res->n_sets; k++) {
            const exp_set *es = &c->sets[s0 + k];
            size_t before = wg.n;
            oracle_set(es, &truth[s0 + k], &wg, &want.set[k]);
            FUZZ_ASSERT_MSG(wg.n - before == contract_words(es), "oracle used %zu words, not %zu",
                            wg.n - before, contract_words(es));
            FUZZ_ASSERT(wsel_set_words(&res->sets[k]) == contract_words(es));
            nwords += contract_words(es);
            check_invariants(es, &truth[s0 + k], &want.set[k]);
            check_odds_answer(odds[r], &want.set[k], k, es->n_items);
            if (want.set[k].ttl < want.ttl)
                want.ttl = want.set[k].ttl;
            want.failed = want.failed || want.set[k].failed;
        }
        FUZZ_ASSERT(wsel_resource_words(res) == nwords);

        replay_src src = { wg.words, wg.n, 0, false };
        wsel_rng rng = { replay_fill, &src, NULL };
        wsel_answer got;
        memset(&got, 0xa5, sizeof got);
        int rc = wsel_ref_resolve(res, st, &rng, &got);
        FUZZ_ASSERT_MSG(rc == WSEL_OK, "wsel_ref_resolve: %d", rc);
        compare("wsel_ref_resolve", &want, &got, &src, nwords, q);

        for (size_t e = 0; e < nrv; e++) {
            src.pos = 0;
            src.overrun = false;
            memset(&got, 0xa5, sizeof got);
            rc = wsel_resolve(rv[e], res, &rng, &got);
            const char *name = wsel_resolver_variant(rv[e]);
            FUZZ_ASSERT_MSG(rc == WSEL_OK, "%s: wsel_resolve %d", name, rc);
            compare(name, &want, &got, &src, nwords, q);
        }

        wsel_prng pr = direct;
        wsel_rng rr = wsel_prng_rng(&pr);
        rc = wsel_ref_resolve(res, st, &rr, &want);
        FUZZ_ASSERT_MSG(rc == WSEL_OK, "wsel_ref_resolve (generator): %d", rc);
        for (size_t e = 0; e < nrv; e++) {
            wsel_prng pe = direct;
            wsel_rng re = wsel_prng_rng(&pe);
            memset(&got, 0xa5, sizeof got);
            rc = wsel_resolve(rv[e], res, &re, &got);
            const char *name = wsel_resolver_variant(rv[e]);
            FUZZ_ASSERT_MSG(rc == WSEL_OK, "%s: wsel_resolve (generator) %d", name, rc);
            FUZZ_ASSERT_MSG(wsel_answer_equal(&want, &got),
                            "%s: query %u from the default generator differs from ref", name, q);
            /* the same state, and the same words still buffered (past pos: dead) */
            FUZZ_ASSERT_MSG(pe.pos == pr.pos && memcmp(pe.s, pr.s, sizeof pe.s) == 0 &&
                                (pr.pos >= 4 || memcmp(pe.buf + pr.pos, pr.buf + pr.pos,
                                                       (4 - pr.pos) * sizeof pe.buf[0]) == 0),
                            "%s: query %u left the default generator elsewhere than ref", name, q);
        }
        direct = pr;
    }
    for (uint32_t r = 0; r < c->n_res; r++)
        wsel_odds_free(odds[r]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_producer fp = fuzz_producer_make(data, size);
    fcase c;
    sbuf text = { NULL, 0, 0 };
    gen_case(&c, &fp, &text);
    /* FUZZ_DUMP=1 shows the case as config text (replay a reproducer to read it). */
    const char *dump = getenv("FUZZ_DUMP");
    if (dump && dump[0] == '1')
        fprintf(stderr, "%.*s", (int)text.n, text.p);

    wsel_config *cfg = NULL;
    wsel_error err;
    wsel_load_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.input = WSEL_INPUT_WHOLE;
    opts.flags = WSEL_LOAD_NO_INCLUDE;
    int rc = wsel_config_load_buffer(text.p, text.n, "differential.conf", &opts, &cfg, &err);
    if (rc != WSEL_OK) {
        char msg[2048];
        fprintf(stderr, "generated config:\n%.*s\n", (int)text.n, text.p);
        FUZZ_ASSERT_MSG(0, "a valid generated config was rejected: %s",
                        wsel_error_format(&err, msg, sizeof msg));
    }
    check_model(&c, cfg);

    wsel_state *st = NULL;
    rc = wsel_state_new(cfg, &st, &err);
    FUZZ_ASSERT_MSG(rc == WSEL_OK, "state_new: %d", rc);
    gen_state(&c, &fp, st);

    wsel_resolver *rv[MAX_RESOLVERS];
    size_t nrv = 0;
    /* every variant, and "fast" (the dispatched one) once more */
    for (size_t e = 0; e <= wsel_variant_count() && nrv < MAX_RESOLVERS; e++) {
        const char *name = e < wsel_variant_count() ? wsel_variant_name(e) : "fast";
        if (!wsel_variant_available(name))
            continue;
        rc = wsel_resolver_new_variant(cfg, st, name, &rv[nrv], &err);
        FUZZ_ASSERT_MSG(rc == WSEL_OK, "resolver_new(%s): %d %s", name, rc, err.message);
        nrv++;
    }

    run_queries(&c, &fp, cfg, st, rv, nrv);

    /* A state change, published to the resolvers; they must answer by the new state. */
    gen_state(&c, &fp, st);
    for (size_t e = 0; e < nrv; e++)
        FUZZ_ASSERT(wsel_resolver_sync(rv[e]) == WSEL_OK);
    run_queries(&c, &fp, cfg, st, rv, nrv);

    for (size_t e = 0; e < nrv; e++)
        wsel_resolver_free(rv[e]);
    wsel_state_free(st);
    wsel_config_free(cfg);
    case_free(&c);
    free(text.p);
    return 0;
}
