/* bin/wsel: `wsel sample` -- draw answers with a resolver and hold the counts against
 * the exact odds with a chi-squared test (the library's goodness of fit,
 * odds/weighted/weighted_fit.h, which the verification kit's tests use too).
 *
 * One function per job: reading the command line (sample_args), setting up config,
 * state, odds and resolver (sample_setup), drawing and counting (sample_draw), the
 * goodness of fit (sample_fit), and the two outputs (sample_json, sample_text). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "weighted_amap.h"
#include "weighted_answers.h"
#include "../../odds/weighted/weighted_fit.h"

#define SAMPLE_MAX_N 10000000000ULL /* 10^10 */
#define SAMPLE_DEFAULT_SEED 1ULL
#define PROGRESS_MIN_N 1000000ULL
#define MAX_UNEXPECTED 1024
#define MAX_DISTINCT (1u << 20) /* distinct answers listed when not enumerable */
#define TEXT_TOP 20             /* most frequent answers shown in text, not enumerable */

static const char sample_usage[] =
    "usage: wsel sample CONFIG RESOURCE -n N [--seed S] [--engine ENGINE] [state options]\n"
    "                   [--stanza|--whole] [--json]\n"
    "Draws N answers (1 <= N <= 10^10) for RESOURCE and prints each answer's count beside\n"
    "its expected count, with a chi-squared goodness-of-fit p-value.\n"
    "  -n N, --n N           number of draws\n"
    "  --seed S              seed of the default generator (0 .. 2^64-1; default 1)\n"
    "  --engine ENGINE       ref, fast (default), fast-scalar, fast-sse2, fast-avx2\n"
    "  --state SERVICE=FILE  load gdnsd extfile state for SERVICE (repeatable)\n"
    "  --admin-state FILE    load gdnsd admin_state overrides (THING/SERVICE => UP|DOWN)\n"
    "  --down ADDR_OR_NAME   force DOWN for every service type: ADDR_OR_NAME/* => DOWN\n"
    "  --up ADDR_OR_NAME     force UP likewise (repeatable)\n"
    "  --stanza / --whole    force how CONFIG is read (default: detect)\n"
    "  --json                print one JSON document on stdout\n";

static const char *const cmd = "sample";

/* Out of memory is a resource failure (exit 3), not bad input. */
static int oom(void)
{
    return cli_nomem(cmd);
}

/* ---- the command line ---- */

typedef struct sample_args {
    const char *config, *resname, *engine;
    unsigned long long n, seed;
    int json;
    wsel_input input;
    cli_stateopts so;
} sample_args;

/* Fills `a`; returns CLI_OK to go on, CLI_USAGE on error, or -1 after --help. */
static int sample_args_parse(int argc, char **argv, sample_args *a)
{
    int have_n = 0, opts_done = 0;
    a->engine = "fast";
    a->seed = SAMPLE_DEFAULT_SEED;
    a->input = WSEL_INPUT_AUTO;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!opts_done && arg[0] == '-' && arg[1]) {
            int k;
            const char *v;
            int common = cli_common_opt(arg, &opts_done, &a->json, &a->input, sample_usage);
            if (common == CLI_OPT_HELP) {
                return -1;
            } else if (common == CLI_OPT_TAKEN) {
                /* shared option, handled */
            } else if (cli_opt_is(arg, "-n") || cli_opt_is(arg, "--n")) {
                if (!(v = cli_optval(cmd, argc, argv, &i, arg[1] == 'n' ? "-n" : "--n")))
                    return CLI_USAGE;
                if (!cli_parse_u64(v, &a->n) || a->n < 1 || a->n > SAMPLE_MAX_N)
                    return cli_die(cmd, "-n expects an integer from 1 to 10000000000, got '%s'", v);
                have_n = 1;
            } else if (cli_opt_is(arg, "--seed")) {
                if (!(v = cli_optval(cmd, argc, argv, &i, "--seed")))
                    return CLI_USAGE;
                if (!cli_parse_u64(v, &a->seed))
                    return cli_die(cmd, "--seed expects an integer from 0 to 2^64-1, got '%s'", v);
            } else if (cli_opt_is(arg, "--engine")) {
                if (!(v = cli_optval(cmd, argc, argv, &i, "--engine")))
                    return CLI_USAGE;
                a->engine = v;
            } else if ((k = cli_stateopt_parse(cmd, &a->so, argc, argv, &i)) != 0) {
                if (k < 0)
                    return -k;
            } else {
                return cli_die(cmd, "unknown option '%s' (see wsel sample --help)", arg);
            }
        } else if (!a->config) {
            a->config = arg;
        } else if (!a->resname) {
            a->resname = arg;
        } else {
            return cli_die(cmd, "unexpected argument '%s' (see wsel sample --help)", arg);
        }
    }
    if (!a->config || !a->resname)
        return cli_die(cmd, "missing %s (see wsel sample --help)",
                       a->config ? "RESOURCE" : "CONFIG");
    if (!have_n)
        return cli_die(cmd, "missing -n N (see wsel sample --help)");
    int vc = wsel_variant_check(a->engine);
    if (vc == WSEL_E_ARG)
        return cli_die(cmd, "unknown engine '%s' (expected ref, fast, fast-scalar, fast-sse2 or "
                            "fast-avx2)", a->engine);
    if (vc != WSEL_OK)
        return cli_die(cmd, "engine '%s' is not available on this CPU or build", a->engine);
    return CLI_OK;
}

/* ---- what a run holds ---- */

typedef struct unexpected {
    uint32_t count[2];
    uint16_t items[2][WSEL_ANSWER_MAX];
    unsigned long long n;
} unexpected;

typedef struct sample_run {
    wsel_config *cfg;
    wsel_state *st;
    wsel_resolver *r;
    wsel_odds *o;
    const wsel_resource *res;
    /* Enumerable: every possible answer (combo) with its count, and answers the odds
     * call impossible. Otherwise: every distinct answer drawn (am). */
    int en;
    cli_combo *combo;
    size_t ncombo;
    unsigned long long *ccount;
    unexpected *unx;
    size_t nunx;
    unsigned long long unx_other;
    amap am;
    unsigned long long *icount[2]; /* per-item inclusion counts */
    uint32_t ttl;                  /* the smallest answer TTL drawn (all are equal: the
                                      state does not change during a run) */
    /* Not enumerable: per set, draws per group (grouped sets; item_group maps an item to
     * its group), and answer counts of a set the odds enumerate on its own. */
    unsigned long long *gcount[2];
    uint8_t *item_group[2];
    unsigned long long *acount[2];
} sample_run;

/* The fit: one test over the resource's answer sets when they are enumerable, else
 * the sub-tests per set (odds/weighted/weighted_fit.h) combined with Sidak's correction. */
typedef struct sample_fit {
    const char *test;  /* "answer-sets" or "subtests" */
    double chi2, p;    /* chi2 and df: the sums over the sub-tests with df > 0 */
    size_t df;
    int impossible;
    size_t nsub, counted; /* sub-tests run; those with df > 0 (the correction's m) */
    wsel__subtest sub[2 * WSEL__MAX_SUBTESTS];
} sample_fit;

static void sample_run_free(sample_run *s)
{
    amap_free(&s->am);
    free(s->unx);
    free(s->ccount);
    for (int k = 0; k < 2; k++) {
        free(s->icount[k]);
        free(s->gcount[k]);
        free(s->item_group[k]);
        free(s->acount[k]);
    }
    free(s->combo);
    if (s->o)
        wsel_odds_free(s->o);
    if (s->r)
        wsel_resolver_free(s->r);
    if (s->st)
        wsel_state_free(s->st);
    if (s->cfg)
        wsel_config_free(s->cfg);
}

/* ---- setting up ---- */

static int sample_setup(sample_args *a, sample_run *s)
{
    int rc = cli_load_config(cmd, a->config, a->input, &s->cfg, NULL);
    if (rc != CLI_OK)
        return rc;
    s->res = wsel_config_find(s->cfg, a->resname);
    if (!s->res)
        return cli_die(cmd, "no resource '%s' in %s", a->resname, a->config);
    if ((rc = cli_stateopt_apply(cmd, &a->so, s->cfg, &s->st)) != CLI_OK)
        return rc;
    wsel_error err;
    wsel_error_clear(&err);
    char ebuf[2048];
    int wrc = wsel_odds_compute(s->res, s->st, &s->o, &err);
    if (wrc != WSEL_OK) {
        cli_die(cmd, "%s", wsel_error_format(&err, ebuf, sizeof ebuf));
        return wrc == WSEL_E_NOMEM ? CLI_RESOURCE : CLI_USAGE;
    }
    /* The fast engine prepares the sampled resource only (issue 14 item 8). */
    wrc = wsel_resolver_new_for(s->cfg, s->st, a->engine, s->res, &s->r, &err);
    if (wrc != WSEL_OK) {
        cli_die(cmd, "engine '%s': %s", a->engine, wsel_error_format(&err, ebuf, sizeof ebuf));
        return wrc == WSEL_E_NOMEM ? CLI_RESOURCE : CLI_USAGE;
    }
    s->en = cli_combine(s->o, &s->combo, &s->ncombo);
    if (s->en < 0)
        return oom();
    if (s->en && (!(s->ccount = calloc(s->ncombo, sizeof *s->ccount)) ||
                  !(s->unx = calloc(MAX_UNEXPECTED, sizeof *s->unx))))
        return oom();
    for (uint32_t k = 0; k < s->res->n_sets; k++) {
        const wsel_set *set = &s->res->sets[k];
        if (!(s->icount[k] = calloc(set->n_items, sizeof *s->icount[k])))
            return oom();
        if (s->en)
            continue;
        if (s->o->sets[k].enumerable &&
            !(s->acount[k] = calloc(s->o->sets[k].n_answers + 1, sizeof *s->acount[k])))
            return oom();
        if (!set->grouped)
            continue;
        if (!(s->gcount[k] = calloc(set->n_groups, sizeof *s->gcount[k])) ||
            !(s->item_group[k] = malloc(set->n_items)))
            return oom();
        for (uint32_t g = 0; g < set->n_groups; g++)
            for (uint32_t j = 0; j < set->groups[g].count; j++)
                s->item_group[k][set->groups[g].first + j] = (uint8_t)g;
    }
    return CLI_OK;
}

/* ---- drawing and counting ---- */

static void progress(unsigned long long done, unsigned long long n)
{
    int pct = (int)((double)done * 100.0 / (double)n);
    int bar = pct / 2;
    fprintf(stderr, "\r[");
    for (int k = 0; k < 50; k++)
        fputc(k < bar ? '#' : ' ', stderr);
    fprintf(stderr, "] %3d%%", pct);
    fflush(stderr);
}

/* Counts one answer the odds enumerate, or keeps it among the impossible ones. */
static void count_enumerated(sample_run *s, const wsel_answer *ans)
{
    const wsel_odds *o = s->o;
    size_t idx = 0;
    int found = 1;
    for (uint32_t k = 0; k < o->n_sets; k++) {
        long x = wsel__odds_find_answer(&o->sets[k], ans->set[k].items, ans->set[k].count);
        if (x < 0) {
            found = 0;
            break;
        }
        idx = idx * o->sets[k].n_answers + (size_t)x;
    }
    if (found) {
        s->ccount[idx]++;
        return;
    }
    size_t u = 0;
    for (; u < s->nunx; u++) {
        int same = 1;
        for (uint32_t k = 0; k < o->n_sets && same; k++)
            same = s->unx[u].count[k] == ans->set[k].count &&
                   memcmp(s->unx[u].items[k], ans->set[k].items,
                          ans->set[k].count * sizeof(uint16_t)) == 0;
        if (same)
            break;
    }
    if (u == s->nunx) {
        if (s->nunx == MAX_UNEXPECTED) {
            s->unx_other++;
            return;
        }
        for (uint32_t k = 0; k < o->n_sets; k++) {
            s->unx[u].count[k] = ans->set[k].count;
            memcpy(s->unx[u].items[k], ans->set[k].items, ans->set[k].count * sizeof(uint16_t));
        }
        s->nunx++;
    }
    s->unx[u].n++;
}

/* Not enumerable: each set's answer (when its own odds enumerate it) and the groups it
 * drew. Items come in config order, so one group's addresses are adjacent. */
static void count_sets(sample_run *s, const wsel_answer *ans)
{
    for (uint32_t k = 0; k < ans->n_sets && k < s->res->n_sets; k++) {
        const wsel_set_answer *a = &ans->set[k];
        if (s->acount[k]) {
            long x = wsel__odds_find_answer(&s->o->sets[k], a->items, a->count);
            /* an answer outside the list is impossible: the draw loop's distinct
             * answers say so; the last slot only keeps the totals honest */
            s->acount[k][x < 0 ? s->o->sets[k].n_answers : (uint32_t)x]++;
        }
        if (!s->gcount[k])
            continue;
        int last = -1;
        for (uint32_t i = 0; i < a->count; i++) {
            if (a->items[i] >= s->res->sets[k].n_items)
                continue;
            int g = s->item_group[k][a->items[i]];
            if (g != last)
                s->gcount[k][g]++;
            last = g;
        }
    }
}

static int sample_draw(const sample_args *a, sample_run *s)
{
    wsel_prng prng;
    wsel_prng_seed(&prng, a->seed);
    wsel_rng rng = wsel_prng_rng(&prng);
    int show = isatty(STDERR_FILENO) && a->n >= PROGRESS_MIN_N;
    unsigned long long step = a->n / 100 ? a->n / 100 : 1;
    const wsel_resource *res = s->res;
    wsel_answer ans;
    int rc = CLI_OK;
    s->ttl = WSEL_MAX_TTL;
    for (unsigned long long d = 0; d < a->n; d++) {
        if (show && d % step == 0)
            progress(d, a->n);
        int qrc = wsel_resolve(s->r, res, &rng, &ans);
        if (qrc != WSEL_OK) {
            if (show)
                fputc('\n', stderr);
            return cli_die(cmd, "resolve failed: %s", wsel_strerror(qrc));
        }
        if (ans.ttl < s->ttl)
            s->ttl = ans.ttl;
        for (uint32_t k = 0; k < ans.n_sets && k < res->n_sets; k++)
            for (uint32_t i = 0; i < ans.set[k].count; i++)
                if (ans.set[k].items[i] < res->sets[k].n_items)
                    s->icount[k][ans.set[k].items[i]]++;
        if (s->en) {
            count_enumerated(s, &ans);
        } else if (count_sets(s, &ans), amap_add(&s->am, &ans) < 0) {
            rc = oom();
            break;
        }
    }
    if (show)
        fputs(rc == CLI_OK ? "\r\033[K" : "\n", stderr);
    amap_sort(&s->am);
    return rc;
}

/* ---- the goodness of fit ---- */

static void am_ans(const amap *m, size_t k, cli_ans *a)
{
    a->n_sets = m->e[k].n_sets;
    for (uint32_t s = 0; s < a->n_sets; s++) {
        a->count[s] = m->e[k].count[s];
        a->items[s] = amap_items(m, k, s);
    }
}

/* Enumerable: chi-squared over the resource's answer sets (the one pooling rule, odds/stat.h).
 * Otherwise: per set, the sub-tests for its mode (or over the set's own answers
 * when its odds enumerate them), combined with Sidak's correction. An answer the odds
 * call impossible makes p 0. */
static int sample_fit_run(const sample_args *a, const sample_run *s, sample_fit *f)
{
    memset(f, 0, sizeof *f);
    f->test = s->en ? "answer-sets" : "subtests";
    f->p = NAN;
    double N = (double)a->n;
    if (s->en) {
        double *obs = malloc((s->ncombo ? s->ncombo : 1) * sizeof *obs);
        double *exp = malloc((s->ncombo ? s->ncombo : 1) * sizeof *exp);
        if (!obs || !exp) {
            free(obs);
            free(exp);
            return oom();
        }
        for (size_t k = 0; k < s->ncombo; k++) {
            exp[k] = (double)((long double)a->n * s->combo[k].p);
            obs[k] = (double)s->ccount[k];
        }
        wsel__stat r = wsel__chisq_gof(obs, exp, s->ncombo);
        free(obs);
        free(exp);
        f->sub[0] = (wsel__subtest){ "answer-sets", UINT32_MAX, -1, N, r };
        f->nsub = 1;
        f->impossible = s->nunx > 0 || s->unx_other > 0;
    } else {
        for (uint32_t k = 0; k < s->o->n_sets; k++) {
            const wsel_set *set = &s->res->sets[k];
            size_t na = s->acount[k] ? s->o->sets[k].n_answers : 0;
            size_t ng = set->grouped ? set->n_groups : 0;
            size_t len = set->n_items + na + ng;
            double *buf = malloc((len ? len : 1) * sizeof *buf);
            if (!buf)
                return oom();
            for (uint32_t i = 0; i < set->n_items; i++)
                buf[i] = (double)s->icount[k][i];
            for (size_t x = 0; x < na; x++)
                buf[set->n_items + x] = (double)s->acount[k][x];
            for (size_t g = 0; g < ng; g++)
                buf[set->n_items + na + g] = (double)s->gcount[k][g];
            wsel__set_counts c = { na ? buf + set->n_items : NULL, buf,
                                      ng ? buf + set->n_items + na : NULL };
            f->nsub += wsel__weighted_set_fit(&s->o->sets[k], k, N, &c, f->sub + f->nsub);
            free(buf);
        }
        for (size_t k = 0; k < s->am.n && !f->impossible; k++) {
            cli_ans ca;
            am_ans(&s->am, k, &ca);
            f->impossible = cli_answer_p(s->o, &ca) <= 0;
        }
    }
    for (size_t k = 0; k < f->nsub; k++) /* a sub-test that could not allocate did not run */
        if (f->sub[k].r.nomem)
            return oom();
    wsel__stat r = wsel__subtests_combine(f->sub, f->nsub);
    if (r.nomem)
        return oom();
    for (size_t k = 0; k < f->nsub; k++)
        f->counted += f->sub[k].r.df > 0;
    f->chi2 = r.stat;
    f->df = r.df;
    f->impossible |= r.impossible > 0;
    if (f->impossible) {
        f->chi2 = INFINITY;
        f->p = 0;
    } else if (f->df > 0) {
        f->p = r.p;
    }
    return CLI_OK;
}

/* ---- output ---- */

static void unexpected_ans(const sample_run *s, size_t u, cli_ans *a)
{
    a->n_sets = s->o->n_sets;
    for (uint32_t k = 0; k < s->o->n_sets; k++) {
        a->count[k] = s->unx[u].count[k];
        a->items[k] = s->unx[u].items[k];
    }
}

static void json_answer(wsel__jw *j, const wsel_resource *res, const cli_ans *a,
                        unsigned long long count, double expected)
{
    wsel__jw_obj_begin(j);
    cli_json_ans(j, res, a);
    wsel__jw_key(j, "count");
    wsel__jw_u64(j, count);
    wsel__jw_key(j, "expected");
    wsel__jw_num(j, expected);
    wsel__jw_obj_end(j);
}

static void json_subtest(wsel__jw *j, const wsel_resource *res, const wsel__subtest *t)
{
    wsel__jw_obj_begin(j);
    wsel__jw_key(j, "kind");
    wsel__jw_str(j, t->kind);
    wsel__jw_key(j, "set");
    if (t->set < res->n_sets)
        wsel__jw_u64(j, t->set);
    else
        wsel__jw_null(j);
    wsel__jw_key(j, "group");
    if (t->group >= 0)
        wsel__jw_str(j, res->sets[t->set].groups[t->group].label);
    else
        wsel__jw_null(j);
    wsel__jw_key(j, "draws");
    wsel__jw_num(j, t->draws);
    wsel__jw_key(j, "chi2");
    wsel__jw_num(j, t->r.stat);
    wsel__jw_key(j, "df");
    wsel__jw_u64(j, t->r.df);
    wsel__jw_key(j, "p");
    wsel__jw_num(j, t->r.df ? t->r.p : NAN);
    wsel__jw_obj_end(j);
}

static void sample_json(const sample_args *a, const sample_run *s, const sample_fit *f)
{
    const wsel_resource *res = s->res;
    const wsel_odds *o = s->o;
    unsigned long long n = a->n;
    wsel__jw j;
    wsel__jw_init(&j, stdout);
    wsel__jw_obj_begin(&j);
    wsel__jw_key(&j, "resource");
    wsel__jw_str(&j, res->name);
    wsel__jw_key(&j, "n");
    wsel__jw_u64(&j, n);
    wsel__jw_key(&j, "seed");
    wsel__jw_u64(&j, a->seed);
    wsel__jw_key(&j, "engine");
    wsel__jw_str(&j, wsel_resolver_variant(s->r));
    wsel__jw_key(&j, "ttl");
    wsel__jw_u64(&j, s->ttl);
    wsel__jw_key(&j, "test");
    wsel__jw_str(&j, f->test);
    wsel__jw_key(&j, "answers");
    wsel__jw_arr_begin(&j);
    cli_ans ca;
    for (size_t k = 0; s->en && k < s->ncombo; k++) {
        cli_combo_ans(o, &s->combo[k], &ca);
        json_answer(&j, res, &ca, s->ccount[k], (double)((long double)n * s->combo[k].p));
    }
    for (size_t u = 0; u < s->nunx; u++) {
        unexpected_ans(s, u, &ca);
        json_answer(&j, res, &ca, s->unx[u].n, 0);
    }
    for (size_t k = 0; k < s->am.n; k++) {
        am_ans(&s->am, k, &ca);
        json_answer(&j, res, &ca, s->am.e[k].n, (double)((long double)n * cli_answer_p(o, &ca)));
    }
    wsel__jw_arr_end(&j);
    if (!s->en) {
        wsel__jw_key(&j, "distinct_answers");
        wsel__jw_u64(&j, s->am.n);
        wsel__jw_key(&j, "unlisted_draws");
        wsel__jw_u64(&j, s->am.other);
    }
    wsel__jw_key(&j, "items");
    wsel__jw_arr_begin(&j);
    char path[600];
    for (uint32_t k = 0; k < res->n_sets; k++) {
        const wsel_set *set = &res->sets[k];
        for (uint32_t i = 0; i < set->n_items; i++) {
            wsel__jw_obj_begin(&j);
            wsel__jw_key(&j, "label");
            wsel__jw_str(&j, cli_item_path(set, &set->items[i], path, sizeof path));
            wsel__jw_key(&j, "address");
            wsel__jw_str(&j, set->items[i].value);
            wsel__jw_key(&j, "count");
            wsel__jw_u64(&j, s->icount[k][i]);
            wsel__jw_key(&j, "expected");
            wsel__jw_num(&j, (double)((long double)n * o->sets[k].item_p[i].p));
            wsel__jw_obj_end(&j);
        }
    }
    wsel__jw_arr_end(&j);
    wsel__jw_key(&j, "impossible");
    wsel__jw_bool(&j, f->impossible);
    wsel__jw_key(&j, "chi2");
    wsel__jw_num(&j, f->chi2);
    wsel__jw_key(&j, "df");
    wsel__jw_u64(&j, f->df);
    wsel__jw_key(&j, "p");
    wsel__jw_num(&j, f->p);
    wsel__jw_key(&j, "correction");
    wsel__jw_str(&j, f->counted > 1 ? "sidak" : "none");
    wsel__jw_key(&j, "subtests_counted");
    wsel__jw_u64(&j, f->counted);
    wsel__jw_key(&j, "subtests");
    wsel__jw_arr_begin(&j);
    for (size_t k = 0; k < f->nsub; k++)
        json_subtest(&j, res, &f->sub[k]);
    wsel__jw_arr_end(&j);
    wsel__jw_obj_end(&j);
    cli_json_end(&j);
}

static const amap *count_map; /* qsort has no context argument */

static int cmp_count(const void *x, const void *y)
{
    size_t a = *(const size_t *)x, b = *(const size_t *)y;
    unsigned long long na = count_map->e[a].n, nb = count_map->e[b].n;
    if (na != nb)
        return na > nb ? -1 : 1;
    return (a > b) - (a < b);
}

static void text_enumerated(const sample_args *a, const sample_run *s)
{
    cli_ans ca;
    printf("  %12s  %20s  answer\n", "count", "expected");
    for (size_t k = 0; k < s->ncombo; k++) {
        cli_combo_ans(s->o, &s->combo[k], &ca);
        printf("  %12llu  %20.6f  ", s->ccount[k], (double)((long double)a->n * s->combo[k].p));
        cli_print_ans(stdout, s->res, &ca);
        putchar('\n');
    }
    for (size_t u = 0; u < s->nunx; u++) {
        unexpected_ans(s, u, &ca);
        printf("  %12llu  %20s  ", s->unx[u].n, "IMPOSSIBLE");
        cli_print_ans(stdout, s->res, &ca);
        putchar('\n');
    }
    if (s->unx_other)
        printf("  %12llu  %20s  (other impossible answers)\n", s->unx_other, "IMPOSSIBLE");
}

static int text_items(const sample_args *a, const sample_run *s)
{
    const amap *am = &s->am;
    char path[600];
    printf("  more than %u possible answers: per-item inclusion counts\n", WSEL_ODDS_MAX_ANSWERS);
    printf("  %zu distinct answers drawn, most frequent first%s:\n", am->n,
           am->n > TEXT_TOP ? " (top 20)" : "");
    size_t *order = malloc((am->n ? am->n : 1) * sizeof *order);
    if (!order)
        return oom();
    for (size_t k = 0; k < am->n; k++)
        order[k] = k;
    if (am->n > 1) {
        count_map = am;
        qsort(order, am->n, sizeof *order, cmp_count);
        count_map = NULL;
    }
    printf("  %12s  %20s  answer\n", "count", "expected");
    for (size_t k = 0; k < am->n && k < TEXT_TOP; k++) {
        cli_ans ca;
        am_ans(am, order[k], &ca);
        printf("  %12llu  %20.6f  ", am->e[order[k]].n,
               (double)((long double)a->n * cli_answer_p(s->o, &ca)));
        cli_print_ans(stdout, s->res, &ca);
        putchar('\n');
    }
    free(order);
    printf("  %12s  %20s  item\n", "count", "expected");
    for (uint32_t k = 0; k < s->res->n_sets; k++) {
        const wsel_set *set = &s->res->sets[k];
        for (uint32_t i = 0; i < set->n_items; i++)
            printf("  %12llu  %20.6f  %s  [%s]\n", s->icount[k][i],
                   (double)((long double)a->n * s->o->sets[k].item_p[i].p),
                   cli_item_path(set, &set->items[i], path, sizeof path), set->items[i].value);
    }
    return CLI_OK;
}

static void text_subtests(const sample_run *s, const sample_fit *f)
{
    printf("sub-tests, each valid for its set's mode (chi-squared; bins expecting < %g "
           "merged, binomial terms expecting < %g skipped):\n", WSEL__MIN_EXPECTED,
           WSEL__MIN_EXPECTED);
    printf("  %-11s  %3s  %-20s  %12s  %12s  %4s  %12s\n", "kind", "set", "group", "draws",
           "chi2", "df", "p");
    for (size_t k = 0; k < f->nsub; k++) {
        const wsel__subtest *t = &f->sub[k];
        const char *g = t->group >= 0 ? s->res->sets[t->set].groups[t->group].label : "-";
        printf("  %-11s  %3u  %-20s  %12.0f  %12.6g  %4u  ", t->kind, t->set, g, t->draws,
               t->r.stat, t->r.df);
        if (t->r.df)
            printf("%12.6g\n", t->r.p);
        else
            printf("%12s\n", "-");
    }
}

static int sample_text(const sample_args *a, const sample_run *s, const sample_fit *f)
{
    printf("resource %s: %llu draws, seed %llu, engine %s\n", s->res->name, a->n, a->seed,
           wsel_resolver_variant(s->r));
    printf("answer ttl %lu\n", (unsigned long)s->ttl);
    if (s->en)
        text_enumerated(a, s);
    else if (text_items(a, s) != CLI_OK)
        return CLI_RESOURCE; /* its only failure is out of memory */
    if (s->en) {
        printf("chi-squared over answer sets (bins expecting < %g merged): ",
               WSEL__MIN_EXPECTED);
    } else {
        text_subtests(s, f);
        printf("%zu sub-test%s, combined with %s: ", f->counted, f->counted == 1 ? "" : "s",
               f->counted > 1 ? "Sidak's correction, p = 1 - (1 - min p)^m" : "no correction");
    }
    if (f->impossible)
        printf("an impossible answer was drawn: p = 0\n");
    else if (f->df == 0)
        printf("chi2 %.6g, df 0: nothing to test (only one possible outcome)\n", f->chi2);
    else
        printf("chi2 %.6g, df %zu, p %.6g\n", f->chi2, f->df, f->p);
    return CLI_OK;
}

/* ---- the command ---- */

int cli_sample(int argc, char **argv)
{
    sample_args a;
    memset(&a, 0, sizeof a);
    sample_run s;
    memset(&s, 0, sizeof s);
    amap_init(&s.am, MAX_DISTINCT);
    sample_fit f;
    int rc = sample_args_parse(argc, argv, &a);
    if (rc < 0)
        rc = CLI_OK; /* --help */
    else if (rc == CLI_OK && (rc = sample_setup(&a, &s)) == CLI_OK &&
             (rc = sample_draw(&a, &s)) == CLI_OK && (rc = sample_fit_run(&a, &s, &f)) == CLI_OK)
        rc = a.json ? (sample_json(&a, &s, &f), CLI_OK) : sample_text(&a, &s, &f);
    sample_run_free(&s);
    cli_stateopt_free(&a.so);
    return rc;
}
