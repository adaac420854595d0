/* The ring's key and round-robin families (doc/ring.md section 14.3-14.4).
 *
 * keys: getPeer with key populations a user would hash -- client IPv4 addresses from a
 * few /24 networks, sequential user ids, random strings -- hashed as Kong hashes them
 * (CRC-32 of the key text, zlib's crc32; the hash picks slot 1 + hash mod N): the
 * counts per address against K * slots_i / N (slots from the independent model), a
 * chi-squared test per population and wheel. Reference and fast engine must pick the
 * same peer for every key.
 *
 * round-robin: from any start slot, N consecutive picks give every address exactly its
 * slot count, and 3N picks three times it (exact). */
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "families.h"
#include "ring.h"

enum { KP_IPV4, KP_USERS, KP_STRINGS, KP_COUNT };
static const char *const kp_name[KP_COUNT] = {"client IPv4 addresses from a few /24s",
                                              "sequential user ids", "random strings"};

/* Key number i of a population, written to buf; returns its length. */
static size_t key_text(int kind, uint64_t i, uint64_t nets, uint64_t *rs, char *buf, size_t len)
{
    int n;
    if (kind == KP_IPV4) {
        uint64_t net = i / 254 % nets;
        n = snprintf(buf, len, "%u.%u.%u.%u", (unsigned)(203 - net % 7 * 20),
                     (unsigned)(net * 37 % 256), (unsigned)(net * 11 % 256 + 1),
                     (unsigned)(1 + i % 254));
    } else if (kind == KP_USERS) {
        n = snprintf(buf, len, "%llu", (unsigned long long)(100000 + i));
    } else {
        static const char al[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
        size_t l = (size_t)wsel_kit_range(rs, 8, 24);
        for (size_t k = 0; k < l && k + 1 < len; k++)
            buf[k] = al[wsel_kit_range(rs, 0, sizeof al - 2)];
        buf[l < len ? l : len - 1] = '\0';
        n = (int)strlen(buf);
    }
    return n < 0 ? 0 : (size_t)n;
}

/* Plot data of a per-address pair of columns (the first 128 addresses). */
void ring_plot_pair(const run_opts *o, const char *base, const char *title, const char *ylabel,
                    const char *const cols[2], const double *v1, const double *v2, size_t na,
                    const wsel_ring *r)
{
    FILE *f = plot_open(o, base, "dat");
    if (!f)
        return;
    fprintf(f, "# address %s | %s\n", cols[0], cols[1]);
    for (size_t i = 0; i < na && i < 128; i++) {
        wsel_ring_address a;
        wsel_ring_address_get(r, i, &a);
        fprintf(f, "\"%s\" %.6g %.6g\n", a.ip, v1[i], v2[i]);
    }
    fclose(f);
    plot_histogram(o, base, title, ylabel, cols, 2);
}

static const char *same_pick(const wsel_ring_peer *a, const wsel_ring_peer *b)
{
    if (a->outcome != b->outcome)
        return "outcome";
    if (a->outcome == WSEL_RING_PEER && (a->slot != b->slot || strcmp(a->ip, b->ip) != 0 ||
                                         a->port != b->port))
        return "peer";
    return NULL;
}

/* One wheel, one population: counts per address, chi-squared against slot shares. */
static void keys_one(const run_opts *o, const ring_cfg *c, int kind, uint64_t K, uint64_t *rs,
                     unsigned idx)
{
    test *t = test_new(F_RING_KEYS, "ring keys, %s: CRC-32 picks on N=%u, %zu addresses "
                       "(%s weights) spread as the slots", kp_name[kind], c->N, c->na,
                       ring_weight_kind[c->kind]);
    wsel_ring *r = NULL;
    wsel_ring_fast *f = NULL;
    ring_model m;
    wsel_error err;
    if (ring_build(c, false, &r, &m, t) != 0) {
        wsel_ring_free(r);
        rm_free(&m);
        return;
    }
    if (wsel_ring_fast_new(r, &f, &err) != WSEL_OK)
        test_violation(t, "wsel_ring_fast_new: %s", err.message);
    size_t na = rm_count(&m);
    double *obs = stats_xcalloc(na, sizeof *obs), *exp = stats_xcalloc(na, sizeof *exp);
    for (size_t i = 0; i < na; i++)
        exp[i] = (double)K * rm_at(&m, i)->n / c->N;
    uint64_t nets = 3 + (uint64_t)idx % 4;
    if (kind == KP_IPV4)
        K = nets * 254; /* every client of the networks once */
    for (size_t i = 0; i < na; i++)
        exp[i] = (double)K * rm_at(&m, i)->n / c->N;
    char buf[64];
    for (uint64_t i = 0; i < K; i++) {
        size_t l = key_text(kind, i, nets, rs, buf, sizeof buf);
        uint32_t crc = (uint32_t)crc32(0L, (const Bytef *)buf, (uInt)l);
        wsel_ring_handle h = {WSEL_RING_HASH, crc, 0, 0}, hf = h;
        wsel_ring_peer p, pf;
        if (wsel_ring_pick(r, &h, true, &p, &err) != WSEL_OK || p.outcome != WSEL_RING_PEER) {
            test_violation(t, "key %s: pick failed (%s)", buf, err.message);
            break;
        }
        if (f) {
            const char *d = wsel_ring_fast_pick(f, &hf, true, &pf, &err) == WSEL_OK
                                ? same_pick(&p, &pf) : "error";
            if (d)
                test_violation(t, "key %s: fast engine differs (%s)", buf, d);
        }
        long a = wsel_ring_owner(r, p.slot);
        if (p.slot != 1 + crc % c->N || a < 0 || (size_t)a >= na)
            test_violation(t, "key %s (crc %u): slot %u, expected %u", buf, crc, p.slot,
                           1 + crc % c->N);
        else
            obs[a]++;
    }
    wsel_kit_stat s = wsel_kit_chisq_gof(obs, exp, na);
    double pmin = 1;
    for (size_t i = 0; i < na; i++)
        if (exp[i] > 0 && exp[i] / (double)K < pmin)
            pmin = exp[i] / (double)K;
    /* the power figure is about the largest address's share (the report's convention:
     * one outcome's odds moved by a relative e) */
    double pmax = 0;
    for (size_t i = 0; i < na; i++)
        pmax = exp[i] / (double)K > pmax ? exp[i] / (double)K : pmax;
    test_comp(t, "addresses", s, pmax, (double)K);
    if (s.impossible)
        test_violation(t, "%zu keys on addresses that own no slot", s.impossible);
    for (size_t i = 0; i < na && i < 16; i++)
        test_row(t, "%s | %.0f | %.2f", rm_at(&m, i)->key, obs[i], exp[i]);
    snprintf(t->note, sizeof t->note, "%llu keys, chi-squared %.4g, df %u, p %.4g",
             (unsigned long long)K, s.stat, s.df, s.p);
    if (o->report_dir && idx == 0) {
        char base[64], title[200];
        snprintf(base, sizeof base, "ring-keys-%d", kind);
        snprintf(title, sizeof title, "ring keys: %s, CRC-32, N = %u, %llu keys", kp_name[kind],
                 c->N, (unsigned long long)K);
        ring_plot_pair(o, base, title, "keys",
                       (const char *const[2]){"expected (slot share)", "observed"}, exp, obs, na,
                       r);
    }
    free(obs);
    free(exp);
    wsel_ring_fast_free(f);
    wsel_ring_free(r);
    rm_free(&m);
}

void ring_keys_run(const run_opts *o, unsigned wheels, uint64_t K)
{
    uint64_t rs = o->seed ^ 0xc5c32ull;
    for (unsigned w = 0; w < wheels; w++) {
        ring_cfg c;
        ring_cfg_gen(&c, w % 2 ? RW_UNIFORM : RW_WIDE, &rs, false);
        if (c.N < 100)
            c.N = 1000; /* a few slots per address at least */
        for (int kind = 0; kind < KP_COUNT; kind++)
            keys_one(o, &c, kind, K, &rs, w);
        ring_cfg_free(&c);
    }
}

void ring_rr_run(const run_opts *o, unsigned configs)
{
    test *t = test_new(F_RING_RR, "ring round-robin: N picks give every address exactly its "
                       "slot count, 3N picks three times it (reference and fast engine)");
    uint64_t rs = o->seed ^ 0x22ull;
    uint64_t picks = 0;
    for (unsigned k = 0; k < configs; k++) {
        ring_cfg c;
        ring_cfg_gen(&c, (int)(k % RW_KINDS), &rs, false);
        wsel_ring_opts op;
        wsel_ring_opts_init(&op);
        op.dns = ring_no_dns();
        op.wheel_size = c.N;
        op.rr_start = (int64_t)wsel_kit_range(&rs, 1, c.N);
        wsel_ring *r = NULL;
        wsel_ring_fast *f = NULL;
        ring_model m;
        wsel_error err;
        wsel_error_clear(&err);
        /* the model from ring_build; the ring again with the chosen start slot */
        if (ring_build(&c, false, &r, &m, t) == 0) {
            wsel_ring_free(r);
            r = NULL;
            int rc = wsel_ring_new(&op, &r, &err);
            for (size_t i = 0; rc == WSEL_OK && i < c.na; i++) {
                char name[32];
                rm_ip_name(i, name, sizeof name);
                rc = wsel_ring_add_host(r, name, 80, c.w[i], &err);
            }
            if (rc == WSEL_OK)
                rc = wsel_ring_fast_new(r, &f, &err);
            if (rc != WSEL_OK)
                test_violation(t, "N=%u: %s", c.N, err.message);
            size_t na = rm_count(&m);
            uint64_t *cnt = stats_xcalloc(2 * na, sizeof *cnt);
            for (uint64_t q = 0; rc == WSEL_OK && q < 3ull * c.N; q++) {
                wsel_ring_handle h = {WSEL_RING_RR, 0, 0, 0}, hf = h;
                wsel_ring_peer p, pf;
                if (wsel_ring_pick(r, &h, true, &p, &err) != WSEL_OK ||
                    wsel_ring_fast_pick(f, &hf, true, &pf, &err) != WSEL_OK ||
                    p.outcome != WSEL_RING_PEER || pf.outcome != WSEL_RING_PEER) {
                    test_violation(t, "N=%u pick %llu failed", c.N, (unsigned long long)q);
                    break;
                }
                picks += 2;
                long a = wsel_ring_owner(r, p.slot), b = wsel_ring_owner(r, pf.slot);
                if (a >= 0 && (size_t)a < na)
                    cnt[a]++;
                if (b >= 0 && (size_t)b < na)
                    cnt[na + (size_t)b]++;
                if (q + 1 == c.N || q + 1 == 3ull * c.N) {
                    uint64_t times = q + 1 == c.N ? 1 : 3;
                    for (size_t i = 0; i < na; i++)
                        for (int e = 0; e < 2; e++)
                            if (cnt[(size_t)e * na + i] != times * rm_at(&m, i)->n)
                                test_violation(t, "%s N=%u start %lld: %s got %llu of %llu "
                                               "picks, owns %u slots", e ? "fast" : "ref", c.N,
                                               (long long)op.rr_start, rm_at(&m, i)->key,
                                               (unsigned long long)cnt[(size_t)e * na + i],
                                               (unsigned long long)(q + 1), rm_at(&m, i)->n);
                }
            }
            free(cnt);
        }
        wsel_ring_fast_free(f);
        wsel_ring_free(r);
        rm_free(&m);
        ring_cfg_free(&c);
    }
    snprintf(t->note, sizeof t->note, "%u configurations, %llu picks", configs,
             (unsigned long long)picks);
}

void run_ring(const run_opts *o, unsigned gen)
{
    bool large = gen > 20;
    if (wsel_kit_under_valgrind() && gen > 4)
        gen /= 4; /* valgrind checks memory, not balance: a quarter of the configurations */
    ring_balance_run(o, 5 * gen, large);
    ring_movement_run(o, 2 * gen, 12);
    ring_keys_run(o, large ? 6 : 3, o->draws / 4);
    ring_rr_run(o, 2 * gen);
}
