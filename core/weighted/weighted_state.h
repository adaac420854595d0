/* What core/weighted/weighted_state.c shares with the admin_state loader (core/weighted/weighted_admin_state.c). */
#ifndef WSEL_CORE_STATE_INTERNAL_H
#define WSEL_CORE_STATE_INTERNAL_H

#include "../internal.h"
#include "weighted_include.h"

/* The largest state file (extfile or admin_state) read, in bytes: 64 MiB is accepted,
 * one byte more is not (man/wsel.1, LIMITS). */
#define WSEL__STATE_MAX_FILE ((size_t)64 << 20)

/* Hands a warning (file, line, column, item, message) to the state's warning hook, if
 * one is set (wsel_state_set_warn). */
void wsel__state_warn(const wsel_state *st, const char *file, unsigned line, unsigned col,
                      const char *item, const char *fmt, ...) WSEL_PRINTF(6, 7);

/* WSEL_OK when `pattern` is a well-formed THING/SERVICE_TYPE override key. */
int wsel__state_check_pattern(const char *pattern, wsel_error *err);

#endif
