/* The ring's balance family (doc/ring.md section 14.1): over generated configurations,
 * every address's slot count against its exact quota q = N w / W.
 *
 * The bound (proved in doc/ring.md): with delta = 0.0001 and W_j the weight of the
 * addresses from the j-th on (iteration order),
 *     floor(q_i) <= count_i <= q_i + delta + (1 - delta) w_i sum_{j=2..i} 1 / W_j
 * (the lower end is doc/ring.md section 5's observed property; the upper end follows
 * from the floors). Each count must also equal the independent model's, slot for slot. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "families.h"
#include "ring.h"

typedef struct bal_acc {
    test *t;
    size_t configs, addresses;
    double max_dev, max_ratio;   /* largest |share - weight share|; largest (c - q) / (U - q) */
    double sum_abs;
} bal_acc;

static void plot_balance(const run_opts *o, const ring_cfg *c, const wsel_ring *r, int kind)
{
    char base[64], title[200];
    snprintf(base, sizeof base, "ring-balance-%d", kind);
    snprintf(title, sizeof title, "ring balance, %s weights, N = %u: slot share vs weight share",
             ring_weight_kind[kind], c->N);
    double *ws = malloc((c->na ? c->na : 1) * sizeof *ws);
    double *ss = malloc((c->na ? c->na : 1) * sizeof *ss);
    double W = 0;
    for (size_t i = 0; i < c->na; i++)
        W += c->w[i];
    for (size_t i = 0; ws && ss && i < c->na; i++) {
        wsel_ring_address a;
        wsel_ring_address_get(r, i, &a);
        ws[i] = c->w[i] / W;
        ss[i] = (double)a.n_slots / c->N;
    }
    if (ws && ss)
        ring_plot_pair(o, base, title, "share of the wheel",
                       (const char *const[2]){"weight share", "slot share"}, ws, ss, c->na, r);
    free(ws);
    free(ss);
}

static void balance_one(bal_acc *b, const ring_cfg *c)
{
    wsel_ring *r = NULL;
    ring_model m;
    char why[320];
    int rc = ring_build(c, false, &r, &m, b->t);
    if (rc == 0 && wsel_ring_address_count(r) != c->na) {
        test_violation(b->t, "N=%u: %zu addresses on the ring, %zu added", c->N,
                       wsel_ring_address_count(r), c->na);
    } else if (rc == 0) {
        const char *bad = rm_compare(&m, r, why, sizeof why);
        if (bad)
            test_violation(b->t, "N=%u, %zu addresses: wheel differs from the model: %s", c->N,
                           c->na, bad);
        uint64_t W = 0;
        for (size_t i = 0; i < c->na; i++)
            W += c->w[i];
        const double delta = 0.0001;
        double tail = 0; /* sum_{j=2..i} 1 / W_j */
        uint64_t Wj = W;
        size_t cmin = SIZE_MAX, cmax = 0;
        for (size_t i = 0; i < c->na; i++) {
            if (i > 0) {
                Wj -= c->w[i - 1];
                tail += Wj ? 1.0 / (double)Wj : 0.0; /* Wj = 0: only weight-0 addresses left */
            }
            wsel_ring_address a;
            wsel_ring_address_get(r, i, &a);
            uint64_t num = (uint64_t)c->N * c->w[i];
            long double q = (long double)num / W;
            long double slack = delta + (1 - delta) * c->w[i] * (long double)tail;
            if (a.n_slots < num / W)
                test_violation(b->t, "N=%u: %s weight %u owns %zu slots, below floor(quota %.4Lf)",
                               c->N, a.ip, c->w[i], a.n_slots, q);
            if ((long double)a.n_slots > q + slack + 1e-9L)
                test_violation(b->t, "N=%u: %s weight %u owns %zu slots, above the bound %.4Lf",
                               c->N, a.ip, c->w[i], a.n_slots, q + slack);
            double dev = fabs((double)a.n_slots / c->N - (double)c->w[i] / (double)W);
            b->max_dev = dev > b->max_dev ? dev : b->max_dev;
            b->sum_abs += dev;
            double ratio = (double)(((long double)a.n_slots - q) / slack);
            b->max_ratio = ratio > b->max_ratio ? ratio : b->max_ratio;
            cmin = a.n_slots < cmin ? a.n_slots : cmin;
            cmax = a.n_slots > cmax ? a.n_slots : cmax;
        }
        if (c->kind == RW_EQUAL && cmax - cmin > 1)
            test_violation(b->t, "N=%u, %zu equal weights: counts %zu..%zu differ by more than 1",
                           c->N, c->na, cmin, cmax);
        wsel_error err;
        if (wsel_ring_check(r, &err) != WSEL_OK)
            test_violation(b->t, "N=%u: %s", c->N, err.message);
        if (b->configs < 12)
            test_row(b->t, "N=%u | %zu addresses | counts %zu..%zu | model %s", c->N, c->na, cmin,
                     cmax, bad ? "DIFFERS" : "equal");
        b->configs++;
        b->addresses += c->na;
    }
    wsel_ring_free(r);
    rm_free(&m);
}

void ring_balance_run(const run_opts *o, unsigned configs, bool large)
{
    for (int kind = 0; kind < RW_KINDS; kind++) {
        bal_acc b;
        memset(&b, 0, sizeof b);
        b.t = test_new(F_RING_BALANCE, "ring balance, %s weights: each count is the model's and "
                       "within floor(quota) .. the apportionment's bound", ring_weight_kind[kind]);
        uint64_t rs = o->seed ^ (0xba1a9ceull * (unsigned)(kind + 1));
        for (unsigned k = 0; k < configs; k++) {
            ring_cfg c;
            ring_cfg_gen(&c, kind, &rs, large);
            balance_one(&b, &c);
            if (k == 0 && o->report_dir) {
                wsel_ring *r = NULL;
                ring_model m;
                test *scratch = b.t;
                if (ring_build(&c, false, &r, &m, scratch) == 0)
                    plot_balance(o, &c, r, kind);
                wsel_ring_free(r);
                rm_free(&m);
            }
            ring_cfg_free(&c);
        }
        snprintf(b.t->note, sizeof b.t->note,
                 "%zu configurations, %zu addresses: largest |slot share - weight share| %.3g, "
                 "mean %.3g; largest (count - quota) / bound %.3f",
                 b.configs, b.addresses, b.max_dev, b.addresses ? b.sum_abs / b.addresses : 0.0,
                 b.max_ratio);
    }
}
