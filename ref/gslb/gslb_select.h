/* GSLB engine: what ref/gslb/gslb_decide.c (the chain) and ref/gslb/gslb_select.c (the methods) share. */
#ifndef WSEL_REF_GSLB_SELECT_H
#define WSEL_REF_GSLB_SELECT_H

#include "../../core/gslb/gslb_internal.h"

typedef struct Q {
    const wsel_gslb_config *cfg;
    const wsel_gslb_inputs *in;
    wsel_gslb_state *st;
    const wsel_gslb_log *log;
    wsel_gslb_outcome *out;
    size_t wideip;
    wsel_error *err;
} Q;

void wsel__gslb_emit(Q *q, unsigned flag, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* True when a log sink wants events of `flag`. */
static inline bool wsel__gslb_logging(const Q *q, unsigned flag)
{
    return q->log && q->log->fn && (q->log->flags & flag);
}

/* Emits a log line; the arguments are not even evaluated unless a sink wants `flag`
 * (the result line goes to any sink). */
#define EMIT(q, flag, ...)                                                               \
    do {                                                                                 \
        if ((q)->log && (q)->log->fn &&                                                  \
            (((q)->log->flags & (flag)) || (flag) == WSEL_GSLB_LOG_RESULT))             \
            wsel__gslb_emit((q), (flag), __VA_ARGS__);                                   \
    } while (0)

bool wsel__gslb_member_configured(const Q *q, const wsel_gslb_member *m);
bool wsel__gslb_member_available(Q *q, const wsel_gslb_member *m);
const char *wsel__gslb_member_why(Q *q, const wsel_gslb_member *m, char *buf, size_t len);

/* Member selection by method m at step s of pool p over elig[] (doc/gslb.md §2). Returns
 * the picked member index or -1 (FAIL, reason says why); rank[] receives the method's
 * own order for filling max-answers-returned, the pick first. */
long wsel__gslb_select(Q *q, size_t p, int s, wsel_gslb_method m, const bool *elig, long *rank,
                       size_t *n_rank, char *reason, size_t rlen);

/* Wide-IP pool order (doc/gslb.md §4.2 step 3; A-23) over the available pools (avail[]: their
 * list positions in order; ok[i]: position i available): queue[] = the first pick, then
 * the traversal order of the rest (indexes into the wide IP's pools); *more set when the
 * queue holds the first pick only and wsel__gslb_wideip_rest appends the rest. n_queue 0
 * when the method fails (topology: no pool scores > 0). Nonzero only when pool-lb-mode
 * random has no random word left (q->err filled). */
int wsel__gslb_wideip_order(Q *q, const uint8_t *avail, const bool *ok, size_t n_avail,
                            size_t *queue, size_t *n_queue, bool *more, char *reason, size_t rlen);
void wsel__gslb_wideip_rest(Q *q, const uint8_t *avail, const bool *ok, size_t n_avail,
                            size_t *queue, size_t *n_queue);

#endif
