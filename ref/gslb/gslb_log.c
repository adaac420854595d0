/* GSLB engine: the decision log (doc/gslb.md §7). The engine hands each event to the
 * caller's sink as a value (include/wsel/gslb.h, wsel_gslb_event); the text line is
 * rendered from it here, the CLI's JSON from its fields. Nothing is parsed back. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../../core/addr.h"
#include "gslb_engine.h"

wsel_gslb_event wsel__gslb_event(const wsel__gslb_query *q, wsel_gslb_event_kind kind)
{
    wsel_gslb_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = kind;
    ev.wideip = (long)q->wideip;
    ev.pool = ev.pos = ev.member = ev.depends = ev.record = -1;
    ev.method = ev.metric = -1;
    ev.step = WSEL_GSLB_STEP_NONE;
    return ev;
}

void wsel__gslb_emit(const wsel__gslb_query *q, const wsel_gslb_event *ev)
{
    if (wsel__gslb_logging(q, 1u << ev->kind))
        q->log->fn(q->log->ctx, ev);
}

/* ---- names ---- */

const char *wsel_gslb_event_name(wsel_gslb_event_kind kind)
{
    static const char *const names[] = {"pool-selection", "pool-traversal",
                                        "pool-member-selection", "pool-member-traversal",
                                        "result"};
    return (unsigned)kind < sizeof names / sizeof names[0] ? names[kind] : "?";
}

const char *wsel_gslb_result_name(wsel_gslb_result result)
{
    static const char *const names[] = {"", "skipped", "selected", "eligible", "terminal",
                                        "next-pool", "failed-step", "matched"};
    return (unsigned)result < sizeof names / sizeof names[0] ? names[result] : "?";
}

/* The reasons' words; those with numbers are completed in reason_text. */
static const char *const reason_words[WSEL_GSLB_WHY_COUNT_] = {
    [WSEL_GSLB_WHY_NONE] = "",
    [WSEL_GSLB_WHY_PERSIST] = "persist",
    [WSEL_GSLB_WHY_SINGLE_POOL] = "single-pool",
    [WSEL_GSLB_WHY_FIRST_AVAILABLE] = "first-available",
    [WSEL_GSLB_WHY_RR_NEXT] = "rr-next",
    [WSEL_GSLB_WHY_RATIO] = "ratio",
    [WSEL_GSLB_WHY_RANDOM] = "random",
    [WSEL_GSLB_WHY_TOPOLOGY] = "topology",
    [WSEL_GSLB_WHY_NO_POOL_WITH_RATIO] = "no-pool-with-ratio",
    [WSEL_GSLB_WHY_NO_POOL_SCORES] = "no-pool-scores-above-0",
    [WSEL_GSLB_WHY_LAST_RESORT] = "last-resort",
    [WSEL_GSLB_WHY_AVAILABLE] = "available",
    [WSEL_GSLB_WHY_UNAVAILABLE] = "unavailable",
    [WSEL_GSLB_WHY_MIN_MEMBERS] = "min-members",
    [WSEL_GSLB_WHY_UNRESOLVED] = "unresolved",
    [WSEL_GSLB_WHY_DISABLED] = "disabled",
    [WSEL_GSLB_WHY_HELD_DOWN] = "held-down",
    [WSEL_GSLB_WHY_LIMIT] = "limit",
    [WSEL_GSLB_WHY_DOWN] = "down",
    [WSEL_GSLB_WHY_DEPENDENCY] = "dependency",
    [WSEL_GSLB_WHY_FALLBACK_UNVERIFIED] = "fallback-unverified",
    [WSEL_GSLB_WHY_WRONG_FAMILY] = "wrong-family",
    [WSEL_GSLB_WHY_OUTCOME] = "",
    [WSEL_GSLB_WHY_NONE_CASCADE] = "none-cascade",
    [WSEL_GSLB_WHY_ALREADY_TRIED] = "already-tried",
    [WSEL_GSLB_WHY_SKIP_TO_FALLBACK] = "skip-to-fallback",
    [WSEL_GSLB_WHY_NEXT_POOL] = "next-pool",
    [WSEL_GSLB_WHY_TERMINAL] = "terminal",
    [WSEL_GSLB_WHY_FALLBACK_FAILED] = "fallback-failed-next-pool",
    [WSEL_GSLB_WHY_HASH_RANK] = "hash-rank",
    [WSEL_GSLB_WHY_SCORE] = "score",
    [WSEL_GSLB_WHY_DYNAMIC_RATIO] = "dynamic-ratio",
    [WSEL_GSLB_WHY_BEST] = "best",
    [WSEL_GSLB_WHY_RATIO_0] = "ratio-0",
    [WSEL_GSLB_WHY_SCORE_0] = "score-0",
    [WSEL_GSLB_WHY_NO_METRIC] = "no-metric",
    [WSEL_GSLB_WHY_NO_ELIGIBLE_MEMBER] = "no-eligible-member",
    [WSEL_GSLB_WHY_NO_ELIGIBLE_WITH_RATIO] = "no-eligible-member-with-ratio",
    [WSEL_GSLB_WHY_NO_LDNS] = "no-ldns",
    [WSEL_GSLB_WHY_NO_MEMBER_SCORES] = "no-member-scores-above-0",
    [WSEL_GSLB_WHY_NO_POSITIVE_WEIGHT] = "no-positive-weight",
    [WSEL_GSLB_WHY_RECORD] = "record",
};

/* ---- rendering: a line written like snprintf ---- */

typedef struct line {
    char *buf;
    size_t len, at;  /* at: the whole length so far, also past len */
} line;

static void putf(line *l, const char *fmt, ...) WSEL_PRINTF(2, 3);
static void putf(line *l, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    bool room = l->buf && l->at < l->len;
    int n = vsnprintf(room ? l->buf + l->at : NULL, room ? l->len - l->at : 0, fmt, ap);
    va_end(ap);
    if (n > 0)
        l->at += (size_t)n;
}

/* The event's object names, "-" (or "?" for an index the config does not have). */
static const wsel_gslb_wideip *wideip_of(const wsel_gslb_config *cfg, const wsel_gslb_event *ev)
{
    return ev->wideip >= 0 && (size_t)ev->wideip < cfg->n_wideips ? &cfg->wideips[ev->wideip]
                                                                   : NULL;
}

const char *wsel_gslb_event_pool(const wsel_gslb_config *cfg, const wsel_gslb_event *ev)
{
    if (!cfg || !ev)
        return "?";
    const wsel_gslb_wideip *w = wideip_of(cfg, ev);
    if (ev->pool >= 0)
        return (size_t)ev->pool < cfg->n_pools ? cfg->pools[ev->pool].name : "?";
    if (ev->kind == WSEL_GSLB_EV_POOL_TRAVERSAL && ev->pos >= 0) /* an unresolved entry */
        return w && (size_t)ev->pos < w->n_pools ? w->pools[ev->pos].name : "?";
    return "-";
}

static const wsel_gslb_member *member_of(const wsel_gslb_config *cfg, const wsel_gslb_event *ev)
{
    if (ev->pool < 0 || (size_t)ev->pool >= cfg->n_pools || ev->member < 0 ||
        (size_t)ev->member >= cfg->pools[ev->pool].n_members)
        return NULL;
    return &cfg->pools[ev->pool].members[ev->member];
}

const char *wsel_gslb_event_method(const wsel_gslb_event *ev)
{
    if (!ev)
        return "?";
    if (ev->method >= 0 && ev->method < WSEL_GSLB_METHOD_COUNT_)
        return wsel__gslb_methods[ev->method].token;
    if (ev->reason == WSEL_GSLB_WHY_PERSIST)
        return "persistence";
    return ev->reason == WSEL_GSLB_WHY_LAST_RESORT ? "last-resort" : "-";
}

/* "dependency:SERVER:VS" names the member VS's failed depends-on entry. */
static const char *dependency(const wsel_gslb_config *cfg, const wsel_gslb_event *ev)
{
    const wsel_gslb_member *m = member_of(cfg, ev);
    if (ev->depends < 0)
        return "cycle";
    if (!m || m->vs < 0 || (size_t)ev->depends >= cfg->vs[m->vs].n_depends)
        return "?";
    return cfg->vs[m->vs].depends_text[ev->depends];
}

static void reason_text(line *l, const wsel_gslb_config *cfg, const wsel_gslb_event *ev)
{
    wsel_gslb_reason r = ev->reason;
    const char *word = (unsigned)r < WSEL_GSLB_WHY_COUNT_ ? reason_words[r] : "?";
    bool counts = r == WSEL_GSLB_WHY_UNAVAILABLE || r == WSEL_GSLB_WHY_MIN_MEMBERS ||
                  (r == WSEL_GSLB_WHY_AVAILABLE && ev->kind == WSEL_GSLB_EV_POOL_TRAVERSAL);
    if (counts)
        putf(l, "%s(%zu/%zu up)", word, ev->up, ev->of);
    else if (r == WSEL_GSLB_WHY_DEPENDENCY)
        putf(l, "%s:%s", word, dependency(cfg, ev));
    else if (r == WSEL_GSLB_WHY_NO_METRIC && ev->metric >= 0)
        putf(l, "%s:%s", word, wsel_gslb_metric_key((wsel_gslb_metric)ev->metric));
    else if (r == WSEL_GSLB_WHY_HASH_RANK || r == WSEL_GSLB_WHY_SCORE)
        putf(l, "%s=%llu", word, ev->number);
    else if (r == WSEL_GSLB_WHY_OUTCOME)
        putf(l, "%s", wsel_gslb_outcome_name(ev->outcome));
    else
        putf(l, "%s", word);
}

/* The reason's own key=value words, then the tie and fallback marks. */
static void reason_details(line *l, const wsel_gslb_config *cfg, const wsel_gslb_event *ev)
{
    bool member = ev->kind == WSEL_GSLB_EV_MEMBER_SELECTION;
    switch (ev->reason) {
    case WSEL_GSLB_WHY_PERSIST: {
        char a[WSEL__ADDR_TEXT];
        putf(l, " key=%s/%u", wsel_gslb_addr_str(&ev->key, a, sizeof a), ev->prefix);
        break;
    }
    case WSEL_GSLB_WHY_RATIO:
        if (member)
            putf(l, " w=%llu", ev->number);
        putf(l, " cur=%lld", ev->cur);
        break;
    case WSEL_GSLB_WHY_RANDOM: putf(l, " word=%llu", ev->number); break;
    case WSEL_GSLB_WHY_TOPOLOGY: putf(l, " score=%.0f", ev->value); break;
    case WSEL_GSLB_WHY_DYNAMIC_RATIO: putf(l, " w=%llu", ev->number); break;
    case WSEL_GSLB_WHY_RECORD:
        putf(l, " line=%u score=%llu %s", wsel_gslb_event_record_line(cfg, ev), ev->number,
             ev->shadowed ? "shadowed" : "used");
        break;
    case WSEL_GSLB_WHY_BEST:
        putf(l, " %s=%.6g",
             ev->metric >= 0 ? wsel_gslb_metric_key((wsel_gslb_metric)ev->metric) : "qos",
             ev->value);
        break;
    default: break;
    }
    if (ev->tie)
        putf(l, " tie->rr");
    if (ev->unverified)
        putf(l, " fallback-unverified");
}

/* result detail: the addresses, the rcode, the return-to-dns reason, or "-" */
static void result_detail(line *l, const wsel_gslb_outcome *o)
{
    if (o && o->kind == WSEL_GSLB_O_RCODE) {
        putf(l, "%s soa_ttl=%u", wsel_gslb_rcode_name(o->rcode), o->soa_ttl);
    } else if (o && o->kind == WSEL_GSLB_O_RETURN_TO_DNS) {
        putf(l, "%s", o->reason ? o->reason : "-");
    } else if (!o || !o->n_addrs) {
        putf(l, "-");
    } else {
        for (size_t i = 0; i < o->n_addrs && i < WSEL_GSLB_MAX_ADDRS; i++) {
            char a[WSEL__ADDR_TEXT];
            putf(l, "%s%s", i ? "," : "", wsel_gslb_addr_str(&o->addrs[i], a, sizeof a));
        }
    }
}

static void event_line(line *l, const wsel_gslb_config *cfg, const wsel_gslb_event *ev)
{
    const wsel_gslb_wideip *w = wideip_of(cfg, ev);
    const wsel_gslb_member *m = member_of(cfg, ev);
    const char *wname = w ? w->name : "?";
    char a[WSEL__ADDR_TEXT];
    putf(l, "%s", wsel_gslb_event_name(ev->kind));
    switch (ev->kind) {
    case WSEL_GSLB_EV_POOL_SELECTION:
        putf(l, " wideip=%s ldns=%s method=%s pool=%s", wname,
             ev->ldns.family ? wsel_gslb_addr_str(&ev->ldns, a, sizeof a) : "-",
             wsel_gslb_event_method(ev), wsel_gslb_event_pool(cfg, ev));
        if (ev->result != WSEL_GSLB_R_NONE) /* a topology record matching the pool */
            putf(l, " result=%s", wsel_gslb_result_name(ev->result));
        break;
    case WSEL_GSLB_EV_POOL_TRAVERSAL:
        putf(l, " wideip=%s pool=%s", wname, wsel_gslb_event_pool(cfg, ev));
        if (ev->pos >= 0)
            putf(l, " pos=%ld", ev->pos);
        else
            putf(l, " pos=last-resort");
        putf(l, " result=%s", wsel_gslb_result_name(ev->result));
        break;
    case WSEL_GSLB_EV_MEMBER_SELECTION:
    case WSEL_GSLB_EV_MEMBER_TRAVERSAL:
        putf(l, " pool=%s step=%s method=%s", wsel_gslb_event_pool(cfg, ev), wsel_gslb_step_name(ev->step),
             wsel_gslb_event_method(ev));
        if (ev->kind == WSEL_GSLB_EV_MEMBER_TRAVERSAL)
            putf(l, " member=%s result=%s", m ? m->key : "-", wsel_gslb_result_name(ev->result));
        else if (m)
            putf(l, " member=%s addr=%s n_answers=%zu", m->key,
                 wsel_gslb_addr_str(&ev->addr, a, sizeof a), ev->n_answers);
        break;
    case WSEL_GSLB_EV_RESULT:
        putf(l, " outcome=%s wideip=%s", wsel_gslb_outcome_name(ev->outcome), wname);
        if (ev->pool >= 0)
            putf(l, " pool=%s step=%s", wsel_gslb_event_pool(cfg, ev), wsel_gslb_step_name(ev->step));
        putf(l, " detail=");
        result_detail(l, ev->answer);
        return;
    }
    putf(l, " reason=");
    reason_text(l, cfg, ev);
    reason_details(l, cfg, ev);
}

unsigned wsel_gslb_event_record_line(const wsel_gslb_config *cfg, const wsel_gslb_event *ev)
{
    if (!cfg || !ev || ev->record < 0 || (size_t)ev->record >= cfg->n_topo)
        return 0;
    return cfg->topo[ev->record].pos.line;
}

/* The reason (the result: its detail). */
static void reason_or_detail(line *l, const wsel_gslb_config *cfg, const wsel_gslb_event *ev)
{
    if (ev->kind == WSEL_GSLB_EV_RESULT)
        result_detail(l, ev->answer);
    else
        reason_text(l, cfg, ev);
}

static size_t finish(line *l)
{
    if (l->buf && l->len)
        l->buf[l->at < l->len ? l->at : l->len - 1] = '\0';
    return l->at;
}

/* Renders with `part` into buf like snprintf. */
static size_t render(const wsel_gslb_config *cfg, const wsel_gslb_event *ev, char *buf,
                     size_t len,
                     void (*part)(line *, const wsel_gslb_config *, const wsel_gslb_event *))
{
    line l = {buf, len, 0};
    if (cfg && ev)
        part(&l, cfg, ev);
    return finish(&l);
}

size_t wsel_gslb_event_format(const wsel_gslb_config *cfg, const wsel_gslb_event *ev,
                              char *buf, size_t len)
{
    return render(cfg, ev, buf, len, event_line);
}

size_t wsel_gslb_event_reason(const wsel_gslb_config *cfg, const wsel_gslb_event *ev,
                              char *buf, size_t len)
{
    return render(cfg, ev, buf, len, reason_or_detail);
}
