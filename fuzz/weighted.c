/* The weighted fuzz targets' shared data producer (weighted.h). */
#include <arpa/inet.h>
#include <math.h>
#include <stdarg.h>

#include "weighted.h"

__extension__ typedef unsigned __int128 u128;

const char *const svc_names[NSVC] = { "s1", "s2", "s3" };

/* Parameter settings a level may carry; -1 = not set at this level. */
typedef struct params {
    int multi;      /* 0/1 */
    int ut;         /* index into ut_values */
    int svc;        /* index into svc_lists */
} params;

static const double ut_values[] = { 0.5, 1.0, 0.07, 0.01, 1e-9, 0.9999999999, 0.25, 0.75, 0.333 };
#define N_UT (sizeof ut_values / sizeof ut_values[0])

const svc_list svc_lists[] = {
    { "up", 1, { "up", NULL } },
    { "down", 1, { "down", NULL } },
    { "[]", 0, { NULL, NULL } },
    { "s1", 1, { "s1", NULL } },
    { "[ s1, s2 ]", 2, { "s1", "s2" } },
    { "[ s2 s3 ]", 2, { "s2", "s3" } },
    { "[ up, s3 ]", 2, { "up", "s3" } },
    { "[ s3 ]", 1, { "s3", NULL } },
};
const size_t n_svc_lists = sizeof svc_lists / sizeof svc_lists[0];
#define N_SVC_LISTS n_svc_lists

static void case_free(fcase *c)
{
    for (uint32_t s = 0; s < c->n_sets; s++)
        free(c->sets[s].items);
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

/* The case's item budget (weighted.h, MAX_CASE_ITEMS). A count is read from the input
 * the same way whether or not the budget cuts it. take: n >= 1 items (or groups of at
 * least one), at least 1 once the budget is spent; take_more: n >= 0 items more. */
static uint32_t take_more(fcase *c, uint32_t n)
{
    if (n > c->items_left)
        n = c->items_left;
    c->items_left -= n;
    return n;
}

static uint32_t take(fcase *c, uint32_t n)
{
    n = take_more(c, n);
    return n ? n : 1;
}

/* One set's items (after its parameters): ungrouped items, or groups of addresses. */
static void gen_items(fcase *c, fuzz_producer *fp, sbuf *b, exp_set *es, unsigned style)
{
    uint32_t prev = 0;
    char text[96], label[32];
    es->n_groups = es->grouped ? take(c, (uint32_t)fuzz_range(fp, 1, 64)) : 0;
    uint32_t n_items = 0;
    if (es->grouped) {
        for (uint32_t g = 0; g < es->n_groups; g++) {
            es->gsize[g] = 1 + take_more(c, (uint32_t)fuzz_range(fp, 0, 63));
            n_items += es->gsize[g];
        }
    } else {
        n_items = take(c, (uint32_t)fuzz_range(fp, 1, 64));
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
    /* One static table (make_key clears each entry it takes): no per-input allocation. */
    static key_ent keys[MAX_KEYS];
    memset(c, 0, sizeof *c);
    c->keys = keys;
    c->items_left = MAX_CASE_ITEMS;
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

static uint64_t boundary_word(wordgen *wg, uint64_t k, uint64_t den)
{
    uint64_t w = wsel_kit_edge_sat(k, den); /* smallest w with w * den >= k * 2^64 */
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

/* Combined state of each item, computed from the case's own record plus the built-in
 * types' raw state as the library reports it. */
void wfz_set_state(const fcase *c, const exp_set *es, const wsel_state *st,
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

#define max_of wsel_kit_max

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
    uint64_t gw[64] = { 0 };
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

size_t wfz_contract_words(const exp_set *es)
{
    if (!es->grouped)
        return es->multi ? es->n_items : 1;
    uint32_t A = 0;
    for (uint32_t g = 0; g < es->n_groups; g++)
        if (es->gsize[g] > A)
            A = es->gsize[g];
    return es->multi ? 2 * (size_t)es->n_groups : 1 + (size_t)A;
}


/* ---- the run ---- */

static void run_phase(wfz *w, fuzz_producer *fp, const wfz_target *t)
{
    const fcase *c = &w->c;
    for (uint32_t s = 0; s < c->n_sets; s++)
        wfz_set_state(c, &c->sets[s], w->st, wsel_config_set(w->cfg, s), &w->truth[s]);
    if (t->phase_begin)
        t->phase_begin(w);

    static wordgen wg;
    memset(&wg, 0, sizeof wg);
    uint64_t seed = fuzz_bits(fp, 8);
    wsel_prng_seed(&wg.prng, seed);
    wsel_prng_seed(&w->direct, seed ^ 0x9e3779b97f4a7c15u);
    wg.boundary = (int)fuzz_range(fp, 0, 3) * 33;
    uint32_t nq = (uint32_t)fuzz_range(fp, 1, MAX_QUERIES);
    for (uint32_t q = 0; t->query && q < nq; q++) {
        static wfz_query qu;
        memset(&qu, 0, sizeof qu);
        qu.q = q;
        qu.r = q % c->n_res;
        qu.res = wsel_config_resource(w->cfg, qu.r);
        uint32_t s0 = qu.res->sets[0].id;
        qu.want.n_sets = qu.res->n_sets;
        qu.want.ttl = WSEL_MAX_TTL;
        wg.n = 0;
        for (uint32_t k = 0; k < qu.res->n_sets; k++) {
            const exp_set *es = &c->sets[s0 + k];
            size_t before = wg.n;
            oracle_set(es, &w->truth[s0 + k], &wg, &qu.want.set[k]);
            FUZZ_ASSERT_MSG(wg.n - before == wfz_contract_words(es),
                            "oracle used %zu words, not %zu", wg.n - before,
                            wfz_contract_words(es));
            qu.nwords += wfz_contract_words(es);
            if (qu.want.set[k].ttl < qu.want.ttl)
                qu.want.ttl = qu.want.set[k].ttl;
            qu.want.failed = qu.want.failed || qu.want.set[k].failed;
        }
        qu.words = wg.words;
        t->query(w, &qu);
    }
    if (t->phase_end)
        t->phase_end(w);
}

int wfz_run(const uint8_t *data, size_t size, const wfz_target *t)
{
    fuzz_producer fp = fuzz_producer_make(data, size);
    static wfz w;
    /* One text buffer for every input, grown as needed: no per-input allocation. */
    sbuf text = { .s = w.text.s, .cap = w.text.cap };
    memset(&w, 0, sizeof w);
    w.text = text;
    gen_case(&w.c, &fp, &w.text);
    /* FUZZ_DUMP=1 shows the case as config text (replay a reproducer to read it). */
    const char *dump = getenv("FUZZ_DUMP");
    if (dump && dump[0] == '1')
        fprintf(stderr, "%.*s", (int)w.text.len, w.text.s);

    wsel_error err;
    int rc;
    /* wfz_target.keep_config: the last input's config and the text it was loaded from */
    static wsel_config *kept;
    static sbuf kept_text;
    if (t->keep_config && kept && kept_text.len == w.text.len &&
        memcmp(kept_text.s, w.text.s, w.text.len) == 0) {
        w.cfg = kept;
    } else {
        wsel_load_opts opts;
        memset(&opts, 0, sizeof opts);
        opts.input = WSEL_INPUT_WHOLE;
        opts.flags = WSEL_LOAD_NO_INCLUDE;
        rc = wsel_config_load_buffer("weighted.conf", w.text.s, w.text.len, &opts, &w.cfg, &err);
        if (rc != WSEL_OK) {
            char msg[2048];
            fprintf(stderr, "generated config:\n%.*s\n", (int)w.text.len, w.text.s);
            FUZZ_ASSERT_MSG(0, "a valid generated config was rejected: %s",
                            wsel_error_format(&err, msg, sizeof msg));
        }
        if (t->keep_config) {
            wsel_config_free(kept);
            kept = w.cfg;
            kept_text.len = 0;
            sb_printf(&kept_text, "%.*s", (int)w.text.len, w.text.s);
        }
    }
    if (t->loaded)
        t->loaded(&w);

    rc = wsel_state_new(w.cfg, &w.st, &err);
    FUZZ_ASSERT_MSG(rc == WSEL_OK, "state_new: %d", rc);
    gen_state(&w.c, &fp, w.st);
    if (t->state_set)
        t->state_set(&w);

    if (t->resolvers) {
        const char *names[MAX_RESOLVERS];
        size_t nv = wsel_kit_variants(names, MAX_RESOLVERS, true), v0 = 0;
        if (t->one_variant && nv) {
            v0 = size ? data[size - 1] % nv : 0;
            nv = v0 + 1;
        }
        for (size_t v = v0; v < nv; v++) {
            rc = wsel_kit_resolver_new(w.cfg, w.st, names[v], &w.rv[w.nrv], &err);
            FUZZ_ASSERT_MSG(rc == WSEL_OK, "resolver_new(%s): %d %s", names[v], rc, err.message);
            w.rv_name[w.nrv++] = names[v];
        }
    }

    run_phase(&w, &fp, t);

    /* A state change, published to the resolvers; they must answer by the new state. */
    gen_state(&w.c, &fp, w.st);
    if (t->state_set)
        t->state_set(&w);
    for (size_t e = 0; e < w.nrv; e++)
        FUZZ_ASSERT(wsel_resolver_sync(w.rv[e]) == WSEL_OK);
    run_phase(&w, &fp, t);

    for (size_t e = 0; e < w.nrv; e++)
        wsel_resolver_free(w.rv[e]);
    wsel_state_free(w.st);
    if (w.cfg != kept)
        wsel_config_free(w.cfg);
    case_free(&w.c);
    return 0;
}
