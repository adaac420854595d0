/* fuzz_gslb_engine: the GSLB decision engine on a fuzzed config and fuzzed inputs.
 *
 * Input: CONFIG '\0' INPUTS-JSON '\0' PARAMS. Without a second part the inputs are "{}";
 * PARAMS bytes give the number of queries (1..16) and per query a new LDNS and one
 * member's up/down flip. For every wide IP, queries run on two states side by side, the
 * second with every log flag on. Properties (doc/gslb.md §9), as assertions:
 *  - determinism: both states give the same outcome, addresses and state JSON (so the
 *    unlogged fast path, with its availability and ratio caches, decides as the logged
 *    path that works everything out afresh);
 *  - an ANSWER has 1..max-answers-returned distinct addresses, the first the pick, each
 *    the address of the member reported; from persist, preferred or alternate (and from
 *    fallback when verify-member-availability is enabled) every member is available,
 *    checked here by an independent availability walk; a fallback answer with verify
 *    disabled is at least configured (enabled at server, VS and member level);
 *  - FALLBACK_IP answers only a set fallback-ip; with failure-rcode-response enabled the
 *    outcome is never RETURN_TO_DNS(no-more-pools) nor BIND_AGGREGATE. */
#include "fuzz.h"
#include "wsel.h"
#include "../core/gslb/gslb_internal.h"

static int vs_avail(const wsel_gslb_config *c, const wsel_gslb_inputs *in, long v, unsigned depth)
{
    if (v < 0 || depth > c->n_vs) /* unresolved, or a cycle */
        return 0;
    const wsel_gslb_vs *vs = &c->vs[v];
    if (!c->servers[vs->server].enabled || !vs->enabled || !in->vs[v].up || in->vs[v].limit)
        return 0;
    for (size_t d = 0; d < vs->n_depends; d++)
        if (!vs_avail(c, in, vs->depends[d], depth + 1))
            return 0;
    return 1;
}

static int configured(const wsel_gslb_config *c, const wsel_gslb_member *m)
{
    return m->vs >= 0 && m->enabled && c->vs[m->vs].enabled && c->servers[c->vs[m->vs].server].enabled;
}

static void check(const wsel_gslb_config *c, const wsel_gslb_inputs *in, long w,
                  const wsel_gslb_outcome *o)
{
    const wsel_gslb_wideip *wi = &c->wideips[w];
    if (wi->rcode_response)
        FUZZ_ASSERT(o->kind != WSEL_GSLB_O_BIND_AGGREGATE &&
                    !(o->kind == WSEL_GSLB_O_RETURN_TO_DNS && !strcmp(o->reason, "no-more-pools")));
    if (o->kind == WSEL_GSLB_O_FALLBACK_IP) {
        FUZZ_ASSERT(o->pool >= 0 && c->pools[o->pool].fallback_ip.family != 0 && o->n_addrs == 1);
        FUZZ_ASSERT(wsel__gslb_addr_eq(&o->addrs[0], &c->pools[o->pool].fallback_ip));
    }
    if (o->kind != WSEL_GSLB_O_ANSWER)
        return;
    FUZZ_ASSERT(o->pool >= 0 && (size_t)o->pool < c->n_pools);
    const wsel_gslb_pool *p = &c->pools[o->pool];
    FUZZ_ASSERT_MSG(o->n_addrs >= 1 && o->n_addrs <= p->max_answers, "%zu addresses, max %u",
                    o->n_addrs, p->max_answers);
    for (size_t i = 0; i < o->n_addrs; i++) {
        long m = o->members[i];
        FUZZ_ASSERT(m >= 0 && (size_t)m < p->n_members);
        const wsel_gslb_member *mb = &p->members[m];
        FUZZ_ASSERT(mb->vs >= 0 && wsel__gslb_addr_eq(&o->addrs[i], &c->vs[mb->vs].addr));
        for (size_t j = 0; j < i; j++)
            FUZZ_ASSERT(!wsel__gslb_addr_eq(&o->addrs[i], &o->addrs[j]));
        bool unverified = o->pool_step == WSEL_GSLB_STEP_FALLBACK && !p->verify;
        if (unverified)
            FUZZ_ASSERT(configured(c, mb));
        else
            FUZZ_ASSERT_MSG(configured(c, mb) && vs_avail(c, in, mb->vs, 0),
                            "member %s answered from step %s while unavailable", mb->key,
                            wsel_gslb_step_name(o->step));
    }
}

/* Every event renders as a line (into a buffer too small for most: cut, still
 * terminated) that starts with its event name; its reason renders as well. */
static void sink(void *ctx, const wsel_gslb_event *ev)
{
    const wsel_gslb_config *c = ctx;
    char line[48], reason[16];
    FUZZ_ASSERT(ev && (unsigned)ev->kind <= WSEL_GSLB_EV_RESULT);
    size_t n = wsel_gslb_event_format(c, ev, line, sizeof line);
    const char *name = wsel_gslb_event_name(ev->kind);
    FUZZ_ASSERT(n > strlen(name) && strlen(line) == (n < sizeof line ? n : sizeof line - 1));
    FUZZ_ASSERT(!strncmp(line, name, strlen(line) < strlen(name) ? strlen(line) : strlen(name)));
    n = wsel_gslb_event_reason(c, ev, reason, sizeof reason);
    FUZZ_ASSERT(strlen(reason) == (n < sizeof reason ? n : sizeof reason - 1));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    const uint8_t *nul = memchr(data, 0, size);
    size_t clen = nul ? (size_t)(nul - data) : size;
    const char *json = "{}";
    size_t jlen = 2;
    const uint8_t *params = NULL;
    size_t plen = 0;
    if (nul) {
        json = (const char *)nul + 1;
        const uint8_t *nul2 = memchr(nul + 1, 0, size - clen - 1);
        jlen = nul2 ? (size_t)(nul2 - nul - 1) : size - clen - 1;
        if (nul2) {
            params = nul2 + 1;
            plen = size - (size_t)(params - data);
        }
    }
    wsel_gslb_config *c = NULL;
    if (wsel_gslb_config_load_buffer("fuzz.conf", text, clen, &c, NULL))
        return 0;
    wsel_gslb_inputs *in = NULL;
    if (wsel_gslb_inputs_load_buffer(c, "fuzz.json", json, jlen, &in, NULL)) {
        wsel_gslb_config_free(c);
        return 0;
    }
    fuzz_producer fp = fuzz_producer_make(params ? params : (const uint8_t *)"", plen);
    unsigned nq = (unsigned)fuzz_range(&fp, 1, 16);
    static wsel_gslb_outcome o1, o2;
    for (size_t w = 0; w < c->n_wideips; w++) {
        wsel_gslb_state *s1 = NULL, *s2 = NULL;
        FUZZ_ASSERT(wsel_gslb_state_new(c, in, &s1, NULL) == 0);
        FUZZ_ASSERT(wsel_gslb_state_new(c, in, &s2, NULL) == 0);
        for (unsigned k = 0; k < nq; k++) {
            if (fuzz_range(&fp, 0, 1)) {
                wsel_gslb_addr a = {4, {0}};
                a.bytes[0] = (uint8_t)fuzz_bits(&fp, 1);
                a.bytes[3] = (uint8_t)fuzz_bits(&fp, 1);
                wsel_gslb_inputs_set_ldns(in, &a, NULL);
            }
            if (c->n_vs && fuzz_range(&fp, 0, 1)) {
                size_t v = (size_t)fuzz_range(&fp, 0, c->n_vs - 1);
                wsel_gslb_inputs_set_up(in, v, !in->vs[v].up, false);
            }
            int r1 = wsel_gslb_resolve(c, (long)w, in, s1, NULL, &o1, NULL);
            const wsel_gslb_log all = {WSEL_GSLB_LOG_ALL, sink, c};
            int r2 = wsel_gslb_resolve(c, (long)w, in, s2, &all, &o2, NULL);
            FUZZ_ASSERT(r1 == r2);
            if (r1) {
                FUZZ_ASSERT(r1 == WSEL_E_ARG && c->wideips[w].lb_mode == WSEL_GSLB_RANDOM);
                break;
            }
            FUZZ_ASSERT(o1.kind == o2.kind && o1.n_addrs == o2.n_addrs && o1.pool == o2.pool &&
                        o1.step == o2.step);
            for (size_t i = 0; i < o1.n_addrs; i++)
                FUZZ_ASSERT(wsel__gslb_addr_eq(&o1.addrs[i], &o2.addrs[i]));
            check(c, in, (long)w, &o1);
        }
        char *j1 = wsel_gslb_state_json(s1), *j2 = wsel_gslb_state_json(s2);
        FUZZ_ASSERT(j1 && j2 && !strcmp(j1, j2));
        wsel_free(j1);
        wsel_free(j2);
        wsel_gslb_state_free(s1);
        wsel_gslb_state_free(s2);
    }
    wsel_gslb_inputs_free(in);
    wsel_gslb_config_free(c);
    return 0;
}
