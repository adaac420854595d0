/* The ring's movement family (doc/ring.md section 14.2): random changes of each kind --
 * add a host, remove one, change a host's weight, a DNS update of a named host (one
 * address replaced, added or removed, or two replaced) -- on generated wheels. Per change:
 *   - the wheel equals the independent model's, slot for slot (exact);
 *   - the slots that change owner equal sum max(0, new_i - old_i) over all addresses
 *     (doc/ring.md section 8, point 2; exact);
 *   - against the fewest any apportionment must move (the larger of what the touched
 *     addresses gain and what they lose), and how often slots move between two
 *     addresses the change did not touch (reported; the default keeps 5.2.3's moves);
 *   - the same changes on a strict ring (doc/ring.md section 8) never move a slot between
 *     untouched addresses (exact). */
#include <stdlib.h>
#include <string.h>

#include "families.h"
#include "ring.h"

#define DNS_NAME "svc.test"
#define DNS_PORT 8080
#define DNS_MAX 8

enum { MK_ADD, MK_REMOVE, MK_WEIGHT, MK_DNS, MK_KINDS };
static const char *const mk_name[MK_KINDS] = {"add host", "remove host", "weight change",
                                              "DNS update"};

typedef struct mdns {
    char addr[DNS_MAX][16];
    size_t n;
    wsel_ring_entry e[DNS_MAX];
} mdns;

static int mdns_resolve(void *ctx, const char *name, wsel_ring_record *out)
{
    mdns *d = ctx;
    memset(out, 0, sizeof *out);
    if (strcmp(name, DNS_NAME) != 0) {
        out->failed = true;
        out->message = "nxdomain";
        return 0;
    }
    for (size_t i = 0; i < d->n; i++) {
        memset(&d->e[i], 0, sizeof d->e[i]);
        d->e[i].address = d->addr[i];
        d->e[i].ttl = 86400;
    }
    out->type = WSEL_RING_A;
    out->entries = d->e;
    out->n_entries = d->n;
    return 0;
}

typedef struct mv_acc {
    test *t;
    uint64_t changes, moved, minimal, slots, untouched_changes, untouched_slots, strict_changes;
    uint64_t untouched_max;
} mv_acc;

typedef struct world {
    wsel_ring *r, *s;            /* default and strict rings, fed the same changes */
    ring_model m;
    mdns dns;
    uint32_t N;
    size_t next_ip;              /* the next IP host's number */
    size_t n_ip;
    size_t ip[256];              /* numbers of the IP hosts present */
    uint32_t dns_weight;
    uint64_t *rs;
} world;

/* Owner keys of every slot ("" for a free slot), and each address's count. */
typedef struct snap {
    char (*key)[RM_KEY];
    size_t na;
    char (*akey)[RM_KEY];
    size_t *cnt;
} snap;

static void snap_take(const wsel_ring *r, snap *s)
{
    uint32_t N = wsel_ring_size(r);
    s->na = wsel_ring_address_count(r);
    s->key = stats_xcalloc((size_t)N + 1, sizeof *s->key);
    s->akey = stats_xcalloc(s->na, sizeof *s->akey);
    s->cnt = stats_xcalloc(s->na, sizeof *s->cnt);
    for (size_t i = 0; i < s->na; i++) {
        wsel_ring_address a;
        wsel_ring_address_get(r, i, &a);
        snprintf(s->akey[i], RM_KEY, "%s:%u", a.ip, (unsigned)a.port);
        s->cnt[i] = a.n_slots;
    }
    for (uint32_t k = 1; k <= N; k++) {
        long o = wsel_ring_owner(r, k);
        if (o >= 0 && (size_t)o < s->na)
            memcpy(s->key[k], s->akey[o], RM_KEY);
        else if (o >= 0)
            snprintf(s->key[k], RM_KEY, "?owner %ld", o); /* a wheel the check rejects */
    }
}

static void snap_free(snap *s)
{
    free(s->key);
    free(s->akey);
    free(s->cnt);
}

static size_t snap_count(const snap *s, const char *key)
{
    for (size_t i = 0; i < s->na; i++)
        if (!strcmp(s->akey[i], key))
            return s->cnt[i];
    return 0;
}

static bool in_set(char (*set)[RM_KEY], size_t n, const char *key)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(set[i], key))
            return true;
    return false;
}

/* What a change did to a ring, given the addresses it touched. */
typedef struct moves {
    uint64_t moved, gain, touched_gain, touched_loss, untouched;
} moves;

static moves measure(const snap *a, const snap *b, char (*touched)[RM_KEY], size_t nt, uint32_t N)
{
    moves mv;
    memset(&mv, 0, sizeof mv);
    for (uint32_t k = 1; k <= N; k++) {
        if (strcmp(a->key[k], b->key[k]) == 0)
            continue;
        mv.moved++;
        if (a->key[k][0] && b->key[k][0] && !in_set(touched, nt, a->key[k]) &&
            !in_set(touched, nt, b->key[k]))
            mv.untouched++;
    }
    /* sum of gains over every address before or after */
    for (size_t i = 0; i < b->na; i++) {
        size_t before = snap_count(a, b->akey[i]), after = b->cnt[i];
        if (after > before) {
            mv.gain += after - before;
            if (in_set(touched, nt, b->akey[i]))
                mv.touched_gain += after - before;
        }
    }
    for (size_t i = 0; i < a->na; i++) {
        size_t before = a->cnt[i], after = snap_count(b, a->akey[i]);
        if (before > after && in_set(touched, nt, a->akey[i]))
            mv.touched_loss += before - after;
    }
    return mv;
}

static rm_host *model_host(ring_model *m, const char *name)
{
    for (size_t i = 0; i < m->nh; i++)
        if (!strcmp(m->h[i].name, name))
            return &m->h[i];
    return NULL;
}

static int cmp_str(const void *x, const void *y)
{
    return strcmp((const char *)x, (const char *)y);
}

/* Applies one change of kind k to both rings and the model; fills the touched keys. */
static int apply(world *w, int k, char (*touched)[RM_KEY], size_t *nt, char *what, size_t wlen,
                 wsel_error *err)
{
    int rc = WSEL_OK;
    *nt = 0;
    if (k == MK_ADD || (k == MK_REMOVE && w->n_ip < 2)) {
        char name[32];
        size_t id = w->next_ip++;
        uint32_t wt = (uint32_t)wsel_kit_range(w->rs, 1, 100);
        rm_ip_name(id, name, sizeof name);
        snprintf(what, wlen, "add %s weight %u", name, wt);
        rc = wsel_ring_add_host(w->r, name, 80, wt, err);
        if (rc == WSEL_OK)
            rc = wsel_ring_add_host(w->s, name, 80, wt, err);
        snprintf(touched[(*nt)++], RM_KEY, "%s:80", name);
        rm_addr_add(rm_host_add(&w->m, name, 80), touched[0], wt);
        w->ip[w->n_ip++] = id;
    } else if (k == MK_REMOVE) {
        size_t j = (size_t)wsel_kit_range(w->rs, 0, w->n_ip - 1);
        char name[32];
        rm_ip_name(w->ip[j], name, sizeof name);
        w->ip[j] = w->ip[--w->n_ip];
        snprintf(what, wlen, "remove %s", name);
        rc = wsel_ring_remove_host(w->r, name, 80, NULL, err);
        if (rc == WSEL_OK)
            rc = wsel_ring_remove_host(w->s, name, 80, NULL, err);
        rm_host *h = model_host(&w->m, name);
        for (size_t i = 0; h && i < h->n; i++) {
            h->a[i].gone = true;
            snprintf(touched[(*nt)++], RM_KEY, "%s", h->a[i].key);
        }
        if (h)
            h->name[0] = '\0';
    } else if (k == MK_WEIGHT) {
        size_t j = (size_t)wsel_kit_range(w->rs, 0, w->n_ip);
        char name[32];
        uint32_t port = 80;
        if (j == w->n_ip) {
            snprintf(name, sizeof name, "%s", DNS_NAME);
            port = DNS_PORT;
        } else {
            rm_ip_name(w->ip[j], name, sizeof name);
        }
        rm_host *h = model_host(&w->m, name);
        uint32_t old = h && h->n ? h->a[0].weight : 0, wt;
        do
            wt = (uint32_t)wsel_kit_range(w->rs, 1, 100);
        while (wt == old);
        snprintf(what, wlen, "%s weight %u -> %u", name, old, wt);
        rc = wsel_ring_add_host(w->r, name, port, wt, err);
        if (rc == WSEL_OK)
            rc = wsel_ring_add_host(w->s, name, port, wt, err);
        if (port == DNS_PORT)
            w->dns_weight = wt;
        for (size_t i = 0; h && i < h->n; i++) {
            h->a[i].weight = wt;
            snprintf(touched[(*nt)++], RM_KEY, "%s", h->a[i].key);
        }
    } else {
        /* DNS: replace one, add one, remove one, or replace two of svc.test's addresses */
        mdns *d = &w->dns;
        unsigned how = (unsigned)wsel_kit_range(w->rs, 0, 3);
        if (how == 1 && d->n == DNS_MAX)
            how = 0;
        if (how == 2 && d->n < 2)
            how = 1;
        if (how == 3 && d->n < 2)
            how = 0;
        char old[DNS_MAX][16];
        size_t nold = d->n;
        memcpy(old, d->addr, sizeof old);
        unsigned reps = how == 3 ? 2 : how == 0 ? 1 : 0;
        for (unsigned x = 0; x < reps || how == 1; x++) {
            /* a fresh address not in the set */
            char fresh[16];
            bool dup;
            do {
                snprintf(fresh, sizeof fresh, "192.0.2.%u", (unsigned)wsel_kit_range(w->rs, 1, 254));
                dup = false;
                for (size_t i = 0; i < d->n; i++)
                    dup = dup || !strcmp(d->addr[i], fresh);
                for (size_t i = 0; i < nold; i++)
                    dup = dup || !strcmp(old[i], fresh);
            } while (dup);
            if (how == 1) {
                memcpy(d->addr[d->n++], fresh, sizeof fresh);
                break;
            }
            size_t j = (size_t)wsel_kit_range(w->rs, 0, d->n - 1);
            while (x == 1 && strcmp(d->addr[j], old[j]) != 0) /* replace two distinct ones */
                j = (j + 1) % d->n;
            memcpy(d->addr[j], fresh, sizeof fresh);
        }
        if (how == 2) {
            size_t j = (size_t)wsel_kit_range(w->rs, 0, d->n - 1);
            memmove(d->addr[j], d->addr[j + 1], (d->n - j - 1) * sizeof d->addr[0]);
            d->n--;
        }
        static const char *const hows[] = {"one replaced", "one added", "one removed",
                                           "two replaced"};
        snprintf(what, wlen, "DNS %s: %s (%zu addresses)", DNS_NAME, hows[how], d->n);
        rc = wsel_ring_refresh(w->r, DNS_NAME, err);
        if (rc == WSEL_OK)
            rc = wsel_ring_refresh(w->s, DNS_NAME, err);
        /* the model, by doc/ring.md section 7.3 (same type): kept addresses stay, the
         * others are disabled in place, new ones are appended in sorted order */
        rm_host *h = model_host(&w->m, DNS_NAME);
        char fresh[DNS_MAX][16];
        size_t nf = 0;
        for (size_t i = 0; i < d->n; i++) {
            bool seen = false;
            for (size_t j = 0; j < nold; j++)
                seen = seen || !strcmp(old[j], d->addr[i]);
            if (!seen)
                memcpy(fresh[nf++], d->addr[i], sizeof fresh[0]);
        }
        qsort(fresh, nf, sizeof fresh[0], cmp_str);
        for (size_t i = 0; h && i < h->n; i++) {
            bool kept = false;
            for (size_t j = 0; j < d->n; j++) {
                char key[RM_KEY];
                snprintf(key, sizeof key, "%s:%u", d->addr[j], DNS_PORT);
                kept = kept || !strcmp(key, h->a[i].key);
            }
            if (!kept) {
                h->a[i].gone = true;
                snprintf(touched[(*nt)++], RM_KEY, "%s", h->a[i].key);
            }
        }
        for (size_t i = 0; h && i < nf; i++) {
            char key[RM_KEY];
            snprintf(key, sizeof key, "%s:%u", fresh[i], DNS_PORT);
            rm_addr_add(h, key, w->dns_weight);
            snprintf(touched[(*nt)++], RM_KEY, "%s", key);
        }
    }
    rm_redistribute(&w->m);
    return rc;
}

static void movement_world(mv_acc *acc, const run_opts *o, uint64_t *rs, unsigned changes)
{
    static const uint32_t sizes[] = {10, 19, 60, 100, 1000, 5000, 10000};
    world w;
    memset(&w, 0, sizeof w);
    w.rs = rs;
    w.N = sizes[wsel_kit_range(rs, 0, sizeof sizes / sizeof sizes[0] - 1)];
    bool equal = wsel_kit_range(rs, 0, 2) == 0;
    size_t nip = (size_t)wsel_kit_range(rs, 1, 24);
    uint32_t eqw = (uint32_t)wsel_kit_range(rs, 1, 100);
    w.dns.n = (size_t)wsel_kit_range(rs, 1, 4);
    for (size_t i = 0; i < w.dns.n; i++)
        snprintf(w.dns.addr[i], sizeof w.dns.addr[i], "192.0.2.%u", (unsigned)(100 + i * 7));
    w.dns_weight = equal ? eqw : (uint32_t)wsel_kit_range(rs, 1, 100);
    wsel_ring_opts op;
    wsel_ring_opts_init(&op);
    op.dns.resolve = mdns_resolve;
    op.dns.ctx = &w.dns;
    op.wheel_size = w.N;
    wsel_error err;
    wsel_error_clear(&err);
    int rc = wsel_ring_new(&op, &w.r, &err);
    op.strict = true;
    if (rc == WSEL_OK)
        rc = wsel_ring_new(&op, &w.s, &err);
    rm_init(&w.m, w.N);
    char touched[2 * DNS_MAX + 2][RM_KEY];
    size_t nt;
    char what[128];
    /* the base: IP hosts, then the named host */
    for (size_t i = 0; rc == WSEL_OK && i < nip; i++) {
        char name[32], key[RM_KEY];
        uint32_t wt = equal ? eqw : (uint32_t)wsel_kit_range(rs, 1, 100);
        size_t id = w.next_ip++;
        rm_ip_name(id, name, sizeof name);
        rc = wsel_ring_add_host(w.r, name, 80, wt, &err);
        if (rc == WSEL_OK)
            rc = wsel_ring_add_host(w.s, name, 80, wt, &err);
        snprintf(key, sizeof key, "%s:80", name);
        rm_addr_add(rm_host_add(&w.m, name, 80), key, wt);
        rm_redistribute(&w.m);
        w.ip[w.n_ip++] = id;
    }
    if (rc == WSEL_OK)
        rc = wsel_ring_add_host(w.r, DNS_NAME, DNS_PORT, w.dns_weight, &err);
    if (rc == WSEL_OK)
        rc = wsel_ring_add_host(w.s, DNS_NAME, DNS_PORT, w.dns_weight, &err);
    rm_host *dh = rm_host_add(&w.m, DNS_NAME, DNS_PORT);
    char sorted[DNS_MAX][16];
    memcpy(sorted, w.dns.addr, sizeof sorted);
    qsort(sorted, w.dns.n, sizeof sorted[0], cmp_str);
    for (size_t i = 0; i < w.dns.n; i++) {
        char key[RM_KEY];
        snprintf(key, sizeof key, "%s:%u", sorted[i], DNS_PORT);
        rm_addr_add(dh, key, w.dns_weight);
    }
    rm_redistribute(&w.m);
    for (unsigned c = 0; rc == WSEL_OK && c < changes; c++) {
        int k = (int)wsel_kit_range(rs, 0, MK_KINDS - 1);
        if (k == MK_ADD && w.n_ip >= 250)
            k = MK_REMOVE;
        snap a, as, b, bs;
        snap_take(w.r, &a);
        snap_take(w.s, &as);
        rc = apply(&w, k, touched, &nt, what, sizeof what, &err);
        if (rc != WSEL_OK) {
            test_violation(acc[k].t, "N=%u, %s: %s", w.N, what, err.message);
            snap_free(&a);
            snap_free(&as);
            break;
        }
        snap_take(w.r, &b);
        snap_take(w.s, &bs);
        char why[320];
        if (wsel_ring_check(w.r, &err) != WSEL_OK || wsel_ring_check(w.s, &err) != WSEL_OK)
            test_violation(acc[k].t, "N=%u, after %s: %s", w.N, what, err.message);
        const char *bad = rm_compare(&w.m, w.r, why, sizeof why);
        if (bad)
            test_violation(acc[k].t, "N=%u, after %s: wheel differs from the model: %s", w.N,
                           what, bad);
        moves mv = measure(&a, &b, touched, nt, w.N);
        moves ms = measure(&as, &bs, touched, nt, w.N);
        if (mv.moved != mv.gain)
            test_violation(acc[k].t, "N=%u, %s: %llu slots changed owner, the gains sum to %llu",
                           w.N, what, (unsigned long long)mv.moved, (unsigned long long)mv.gain);
        if (ms.untouched)
            test_violation(acc[k].t, "strict, N=%u, %s: %llu slot(s) moved between untouched "
                           "addresses", w.N, what, (unsigned long long)ms.untouched);
        uint64_t least = mv.touched_gain > mv.touched_loss ? mv.touched_gain : mv.touched_loss;
        mv_acc *m = &acc[k];
        m->changes++;
        m->moved += mv.moved;
        m->minimal += least;
        m->slots += w.N;
        if (mv.untouched) {
            m->untouched_changes++;
            m->untouched_slots += mv.untouched;
            if (mv.untouched > m->untouched_max)
                m->untouched_max = mv.untouched;
            if (m->untouched_changes <= 8)
                test_row(m->t, "N=%u | %s | moved %llu | fewest %llu | between untouched %llu",
                         w.N, what, (unsigned long long)mv.moved, (unsigned long long)least,
                         (unsigned long long)mv.untouched);
        }
        snap_free(&a);
        snap_free(&as);
        snap_free(&b);
        snap_free(&bs);
    }
    if (rc != WSEL_OK && !w.r)
        test_violation(acc[0].t, "wsel_ring_new: %s", err.message);
    (void)o;
    wsel_ring_free(w.r);
    wsel_ring_free(w.s);
    rm_free(&w.m);
}

void ring_movement_run(const run_opts *o, unsigned worlds, unsigned changes)
{
    mv_acc acc[MK_KINDS];
    memset(acc, 0, sizeof acc);
    for (int k = 0; k < MK_KINDS; k++)
        acc[k].t = test_new(F_RING_MOVE, "ring movement, %s: the wheel is the model's, owner "
                            "changes = sum of gains, strict mode moves nothing between "
                            "untouched addresses", mk_name[k]);
    uint64_t rs = o->seed ^ 0x30fe3e47ull;
    for (unsigned i = 0; i < worlds; i++)
        movement_world(acc, o, &rs, changes);
    for (int k = 0; k < MK_KINDS; k++) {
        mv_acc *m = &acc[k];
        double share = m->slots ? 100.0 * (double)m->moved / (double)m->slots : 0.0;
        double least = m->slots ? 100.0 * (double)m->minimal / (double)m->slots : 0.0;
        snprintf(m->t->note, sizeof m->t->note,
                 "%llu changes: %.4g%% of keys moved, fewest possible %.4g%%; slots moved "
                 "between untouched addresses in %llu changes",
                 (unsigned long long)m->changes, share, least,
                 (unsigned long long)m->untouched_changes);
        test_row(m->t, "summary | %llu changes | keys moved %.4g%% | fewest possible %.4g%% | "
                 "ratio %.4f | changes moving slots between untouched addresses %llu (%llu "
                 "slots, at most %llu in one)", (unsigned long long)m->changes, share, least,
                 m->minimal ? (double)m->moved / (double)m->minimal : 1.0,
                 (unsigned long long)m->untouched_changes, (unsigned long long)m->untouched_slots,
                 (unsigned long long)m->untouched_max);
    }
}
