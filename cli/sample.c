/* bin/wsel: `wsel sample` -- draw answers with a resolver and hold the counts against
 * the exact odds with a chi-squared test. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gsl/gsl_cdf.h>

#include "amap.h"
#include "answers.h"

#define SAMPLE_MAX_N 10000000000ULL /* 10^10 */
#define SAMPLE_DEFAULT_SEED 1ULL
#define PROGRESS_MIN_N 1000000ULL
#define MAX_UNEXPECTED 1024
#define MIN_EXPECTED 5.0
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
    "  --down ADDR_OR_NAME   mark DOWN for every non-built-in service type (repeatable)\n"
    "  --up ADDR_OR_NAME     mark UP likewise (repeatable)\n"
    "  --stanza / --whole    force how CONFIG is read (default: detect)\n"
    "  --json                print one JSON document on stdout\n";

typedef struct unexpected {
    uint32_t count[2];
    uint16_t items[2][WSEL_ANSWER_MAX];
    unsigned long long n;
} unexpected;

typedef struct bin {
    double expected;
    unsigned long long observed;
} bin;

static int cmp_bin(const void *a, const void *b)
{
    double x = ((const bin *)a)->expected, y = ((const bin *)b)->expected;
    return (x > y) - (x < y);
}

/* Pearson's statistic over bins, after pooling the smallest bins until each pooled bin
 * expects at least MIN_EXPECTED draws. Sorts `b`. Returns the number of bins used. */
static size_t chi2_pooled(bin *b, size_t n, double *chi2)
{
    qsort(b, n, sizeof *b, cmp_bin);
    size_t out = 0;
    bin pool = {0, 0};
    for (size_t k = 0; k < n; k++) {
        pool.expected += b[k].expected;
        pool.observed += b[k].observed;
        if (pool.expected >= MIN_EXPECTED) {
            b[out++] = pool;
            pool.expected = 0;
            pool.observed = 0;
        }
    }
    if (pool.expected > 0 || pool.observed > 0) {
        if (out > 0) {
            b[out - 1].expected += pool.expected;
            b[out - 1].observed += pool.observed;
        } else {
            b[out++] = pool;
        }
    }
    double s = 0;
    for (size_t k = 0; k < out; k++) {
        double d = (double)b[k].observed - b[k].expected;
        s += d * d / b[k].expected;
    }
    *chi2 = s;
    return out;
}

static void am_ans(const amap *m, size_t k, cli_ans *a)
{
    a->n_sets = m->e[k].n_sets;
    for (uint32_t s = 0; s < a->n_sets; s++) {
        a->count[s] = m->e[k].count[s];
        a->items[s] = amap_items(m, k, s);
    }
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

static void sort_by_count(const amap *m, size_t *order)
{
    if (m->n < 2)
        return;
    count_map = m;
    qsort(order, m->n, sizeof *order, cmp_count);
    count_map = NULL;
}

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

int cli_sample(int argc, char **argv)
{
    const char *cmd = "sample";
    const char *config = NULL, *resname = NULL, *engine_name = "fast";
    unsigned long long n = 0, seed = SAMPLE_DEFAULT_SEED;
    int have_n = 0, json = 0, opts_done = 0;
    wsel_input input = WSEL_INPUT_AUTO;
    cli_stateopts so = {0};
    wsel_config *cfg = NULL;
    wsel_state *st = NULL;
    wsel_resolver *r = NULL;
    wsel_odds *o = NULL;
    cli_combo *combo = NULL;
    size_t ncombo = 0;
    unsigned long long *ccount = NULL, *icount[2] = {NULL, NULL};
    unexpected *unx = NULL;
    size_t nunx = 0;
    unsigned long long unx_other = 0;
    bin *bins = NULL;
    size_t *order = NULL;
    amap am;
    amap_init(&am, MAX_DISTINCT);
    int rc = CLI_USAGE;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!opts_done && a[0] == '-' && a[1]) {
            int k;
            const char *v;
            int common = cli_common_opt(a, &opts_done, &json, &input, sample_usage);
            if (common == CLI_OPT_HELP) {
                rc = CLI_OK;
                goto out;
            } else if (common == CLI_OPT_TAKEN) {
                /* shared option, handled */
            } else if (cli_opt_is(a, "-n") || cli_opt_is(a, "--n")) {
                if (!(v = cli_optval(cmd, argc, argv, &i, a[1] == 'n' ? "-n" : "--n")))
                    goto out;
                if (!cli_parse_u64(v, &n) || n < 1 || n > SAMPLE_MAX_N) {
                    cli_die(cmd, "-n expects an integer from 1 to 10000000000, got '%s'", v);
                    goto out;
                }
                have_n = 1;
            } else if (cli_opt_is(a, "--seed")) {
                if (!(v = cli_optval(cmd, argc, argv, &i, "--seed")))
                    goto out;
                if (!cli_parse_u64(v, &seed)) {
                    cli_die(cmd, "--seed expects an integer from 0 to 2^64-1, got '%s'", v);
                    goto out;
                }
            } else if (cli_opt_is(a, "--engine")) {
                if (!(v = cli_optval(cmd, argc, argv, &i, "--engine")))
                    goto out;
                engine_name = v;
            } else if ((k = cli_stateopt_parse(cmd, &so, argc, argv, &i)) != 0) {
                if (k < 0)
                    goto out;
            } else {
                cli_die(cmd, "unknown option '%s' (see wsel sample --help)", a);
                goto out;
            }
        } else if (!config) {
            config = a;
        } else if (!resname) {
            resname = a;
        } else {
            cli_die(cmd, "unexpected argument '%s' (see wsel sample --help)", a);
            goto out;
        }
    }
    if (!config || !resname) {
        cli_die(cmd, "missing %s (see wsel sample --help)", config ? "RESOURCE" : "CONFIG");
        goto out;
    }
    if (!have_n) {
        cli_die(cmd, "missing -n N (see wsel sample --help)");
        goto out;
    }
    bool known = strcmp(engine_name, "fast") == 0;
    for (size_t i = 0; !known && i < wsel_variant_count(); i++)
        known = strcmp(engine_name, wsel_variant_name(i)) == 0;
    if (!known) {
        cli_die(cmd, "unknown engine '%s' (expected ref, fast, fast-scalar, fast-sse2 or "
                     "fast-avx2)", engine_name);
        goto out;
    }
    if (!wsel_variant_available(engine_name)) {
        cli_die(cmd, "engine '%s' is not available on this CPU or build", engine_name);
        goto out;
    }
    rc = cli_load_config(cmd, config, input, &cfg, NULL);
    if (rc != CLI_OK)
        goto out;
    rc = CLI_USAGE;
    const wsel_resource *res = wsel_config_find(cfg, resname);
    if (!res) {
        cli_die(cmd, "no resource '%s' in %s", resname, config);
        goto out;
    }
    if (cli_stateopt_apply(cmd, &so, cfg, &st) != CLI_OK)
        goto out;
    wsel_error err;
    wsel_error_clear(&err);
    char ebuf[2048];
    if (wsel_odds_compute(res, st, &o, &err) != WSEL_OK) {
        cli_die(cmd, "%s", wsel_error_format(&err, ebuf, sizeof ebuf));
        goto out;
    }
    if (wsel_resolver_new_variant(cfg, st, engine_name, &r, &err) != WSEL_OK) {
        cli_die(cmd, "engine '%s': %s", engine_name, wsel_error_format(&err, ebuf, sizeof ebuf));
        goto out;
    }
    int en = cli_combine(o, &combo, &ncombo);
    if (en < 0)
        goto nomem;
    if (en) {
        if (!(ccount = calloc(ncombo, sizeof *ccount)) ||
            !(unx = calloc(MAX_UNEXPECTED, sizeof *unx)))
            goto nomem;
    }
    for (uint32_t s = 0; s < res->n_sets; s++)
        if (!(icount[s] = calloc(res->sets[s].n_items, sizeof *icount[s])))
            goto nomem;

    wsel_prng prng;
    wsel_prng_seed(&prng, seed);
    wsel_rng rng = wsel_prng_rng(&prng);
    int show = isatty(STDERR_FILENO) && n >= PROGRESS_MIN_N;
    unsigned long long step = n / 100 ? n / 100 : 1;
    wsel_answer ans;
    for (unsigned long long d = 0; d < n; d++) {
        if (show && d % step == 0)
            progress(d, n);
        int qrc = wsel_resolve(r, res, &rng, &ans);
        if (qrc != WSEL_OK) {
            if (show)
                fputc('\n', stderr);
            cli_die(cmd, "resolve failed: %s", wsel_strerror(qrc));
            goto out;
        }
        for (uint32_t s = 0; s < ans.n_sets && s < res->n_sets; s++)
            for (uint32_t i = 0; i < ans.set[s].count; i++)
                if (ans.set[s].items[i] < res->sets[s].n_items)
                    icount[s][ans.set[s].items[i]]++;
        if (!en) {
            if (amap_add(&am, &ans) < 0) {
                if (show)
                    fputc('\n', stderr);
                goto nomem;
            }
            continue;
        }
        size_t idx = 0;
        int found = 1;
        for (uint32_t s = 0; s < o->n_sets; s++) {
            long k = cli_find_answer(&o->sets[s], ans.set[s].items, ans.set[s].count);
            if (k < 0) {
                found = 0;
                break;
            }
            idx = idx * o->sets[s].n_answers + (size_t)k;
        }
        if (found) {
            ccount[idx]++;
            continue;
        }
        size_t u = 0;
        for (; u < nunx; u++) {
            int same = 1;
            for (uint32_t s = 0; s < o->n_sets && same; s++)
                same = unx[u].count[s] == ans.set[s].count &&
                       memcmp(unx[u].items[s], ans.set[s].items,
                              ans.set[s].count * sizeof(uint16_t)) == 0;
            if (same)
                break;
        }
        if (u == nunx) {
            if (nunx == MAX_UNEXPECTED) {
                unx_other++;
                continue;
            }
            for (uint32_t s = 0; s < o->n_sets; s++) {
                unx[u].count[s] = ans.set[s].count;
                memcpy(unx[u].items[s], ans.set[s].items, ans.set[s].count * sizeof(uint16_t));
            }
            nunx++;
        }
        unx[u].n++;
    }
    if (show)
        fputs("\r\033[K", stderr);
    amap_sort(&am);

    /* Goodness of fit. */
    double chi2 = 0, pval = NAN;
    size_t df = 0;
    int impossible = 0;
    if (en) {
        if (!(bins = calloc(ncombo, sizeof *bins)))
            goto nomem;
        for (size_t k = 0; k < ncombo; k++) {
            bins[k].expected = (double)((long double)n * combo[k].p);
            bins[k].observed = ccount[k];
        }
        size_t nb = chi2_pooled(bins, ncombo, &chi2);
        df = nb > 0 ? nb - 1 : 0;
        impossible = nunx > 0 || unx_other > 0;
    } else {
        for (uint32_t s = 0; s < o->n_sets; s++) {
            for (uint32_t i = 0; i < res->sets[s].n_items; i++) {
                long double p = o->sets[s].item_p[i].p;
                double o_ = (double)icount[s][i];
                double e = (double)((long double)n * p);
                if (p <= 0) {
                    impossible |= icount[s][i] > 0;
                } else if (p >= 1) {
                    impossible |= icount[s][i] != n;
                } else if (e >= MIN_EXPECTED && (double)n - e >= MIN_EXPECTED) {
                    chi2 += (o_ - e) * (o_ - e) / (e * (double)(1 - p));
                    df++;
                }
            }
        }
        for (size_t k = 0; k < am.n && !impossible; k++) {
            cli_ans a;
            am_ans(&am, k, &a);
            impossible = cli_answer_p(o, &a) <= 0;
        }
    }
    if (impossible) {
        chi2 = INFINITY;
        pval = 0;
    } else if (df > 0) {
        pval = gsl_cdf_chisq_Q(chi2, (double)df);
    }
    const char *test = en ? "answer-sets" : "items";
    const char *used = wsel_resolver_variant(r);

    if (json) {
        json_out j;
        json_init(&j, stdout);
        json_obj_begin(&j);
        json_key(&j, "resource");
        json_str(&j, res->name);
        json_key(&j, "n");
        json_u64(&j, n);
        json_key(&j, "seed");
        json_u64(&j, seed);
        json_key(&j, "engine");
        json_str(&j, used);
        json_key(&j, "test");
        json_str(&j, test);
        json_key(&j, "answers");
        json_arr_begin(&j);
        for (size_t k = 0; en && k < ncombo; k++) {
            cli_ans a;
            cli_combo_ans(o, &combo[k], &a);
            json_obj_begin(&j);
            cli_json_ans(&j, res, &a);
            json_key(&j, "count");
            json_u64(&j, ccount[k]);
            json_key(&j, "expected");
            json_num(&j, (double)((long double)n * combo[k].p));
            json_obj_end(&j);
        }
        for (size_t u = 0; u < nunx; u++) {
            cli_ans a = {.n_sets = o->n_sets};
            for (uint32_t s = 0; s < o->n_sets; s++) {
                a.count[s] = unx[u].count[s];
                a.items[s] = unx[u].items[s];
            }
            json_obj_begin(&j);
            cli_json_ans(&j, res, &a);
            json_key(&j, "count");
            json_u64(&j, unx[u].n);
            json_key(&j, "expected");
            json_num(&j, 0);
            json_obj_end(&j);
        }
        for (size_t k = 0; k < am.n; k++) {
            cli_ans a;
            am_ans(&am, k, &a);
            json_obj_begin(&j);
            cli_json_ans(&j, res, &a);
            json_key(&j, "count");
            json_u64(&j, am.e[k].n);
            json_key(&j, "expected");
            json_num(&j, (double)((long double)n * cli_answer_p(o, &a)));
            json_obj_end(&j);
        }
        json_arr_end(&j);
        if (!en) {
            json_key(&j, "distinct_answers");
            json_u64(&j, am.n);
            json_key(&j, "unlisted_draws");
            json_u64(&j, am.other);
        }
        json_key(&j, "items");
        json_arr_begin(&j);
        char path[600];
        for (uint32_t s = 0; s < res->n_sets; s++) {
            const wsel_set *set = &res->sets[s];
            for (uint32_t i = 0; i < set->n_items; i++) {
                json_obj_begin(&j);
                json_key(&j, "label");
                json_str(&j, cli_item_path(set, &set->items[i], path, sizeof path));
                json_key(&j, "address");
                json_str(&j, set->items[i].value);
                json_key(&j, "count");
                json_u64(&j, icount[s][i]);
                json_key(&j, "expected");
                json_num(&j, (double)((long double)n * o->sets[s].item_p[i].p));
                json_obj_end(&j);
            }
        }
        json_arr_end(&j);
        json_key(&j, "impossible");
        json_bool(&j, impossible);
        json_key(&j, "chi2");
        json_num(&j, chi2);
        json_key(&j, "df");
        json_u64(&j, df);
        json_key(&j, "p");
        json_num(&j, pval);
        json_obj_end(&j);
        json_finish(&j);
    } else {
        printf("resource %s: %llu draws, seed %llu, engine %s\n", res->name, n, seed, used);
        if (en) {
            printf("  %12s  %20s  answer\n", "count", "expected");
            for (size_t k = 0; k < ncombo; k++) {
                cli_ans a;
                cli_combo_ans(o, &combo[k], &a);
                printf("  %12llu  %20.6f  ", ccount[k], (double)((long double)n * combo[k].p));
                cli_print_ans(stdout, res, &a);
                putchar('\n');
            }
            for (size_t u = 0; u < nunx; u++) {
                cli_ans a = {.n_sets = o->n_sets};
                for (uint32_t s = 0; s < o->n_sets; s++) {
                    a.count[s] = unx[u].count[s];
                    a.items[s] = unx[u].items[s];
                }
                printf("  %12llu  %20s  ", unx[u].n, "IMPOSSIBLE");
                cli_print_ans(stdout, res, &a);
                putchar('\n');
            }
            if (unx_other)
                printf("  %12llu  %20s  (other impossible answers)\n", unx_other, "IMPOSSIBLE");
        } else {
            char path[600];
            printf("  more than %u possible answers: per-item inclusion counts\n",
                   WSEL_ODDS_MAX_ANSWERS);
            printf("  %zu distinct answers drawn, most frequent first%s:\n", am.n,
                   am.n > TEXT_TOP ? " (top 20)" : "");
            if (!(order = malloc((am.n ? am.n : 1) * sizeof *order)))
                goto nomem;
            for (size_t k = 0; k < am.n; k++)
                order[k] = k;
            sort_by_count(&am, order);
            printf("  %12s  %20s  answer\n", "count", "expected");
            for (size_t k = 0; k < am.n && k < TEXT_TOP; k++) {
                cli_ans a;
                am_ans(&am, order[k], &a);
                printf("  %12llu  %20.6f  ", am.e[order[k]].n,
                       (double)((long double)n * cli_answer_p(o, &a)));
                cli_print_ans(stdout, res, &a);
                putchar('\n');
            }
            printf("  %12s  %20s  item\n", "count", "expected");
            for (uint32_t s = 0; s < res->n_sets; s++) {
                const wsel_set *set = &res->sets[s];
                for (uint32_t i = 0; i < set->n_items; i++)
                    printf("  %12llu  %20.6f  %s  [%s]\n", icount[s][i],
                           (double)((long double)n * o->sets[s].item_p[i].p),
                           cli_item_path(set, &set->items[i], path, sizeof path),
                           set->items[i].value);
            }
        }
        if (en)
            printf("chi-squared over answer sets (bins expecting < %g merged): ", MIN_EXPECTED);
        else
            printf("chi-squared over per-item inclusion counts (binomial terms summed as if "
                   "independent; items expecting < %g skipped): ", MIN_EXPECTED);
        if (impossible)
            printf("an impossible answer was drawn: p = 0\n");
        else if (df == 0)
            printf("chi2 %.6g, df 0: nothing to test (only one possible outcome)\n", chi2);
        else
            printf("chi2 %.6g, df %zu, p %.6g\n", chi2, df, pval);
    }
    rc = CLI_OK;
    goto out;
nomem:
    cli_die(cmd, "out of memory");
    rc = CLI_USAGE;
out:
    amap_free(&am);
    free(order);
    free(bins);
    free(unx);
    free(ccount);
    free(icount[0]);
    free(icount[1]);
    free(combo);
    if (o)
        wsel_odds_free(o);
    if (r)
        wsel_resolver_free(r);
    if (st)
        wsel_state_free(st);
    if (cfg)
        wsel_config_free(cfg);
    cli_stateopt_free(&so);
    return rc;
}
