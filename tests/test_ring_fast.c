/* The ring's fast engine against the spec's known answers: tests/test_ring.c, every ring
 * of it with a fast engine attached (tests/ring_fast_wrap.h), so each pick it checks is
 * the fast engine's and each layout it checks is followed by a check of the fast view. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#define FW_FAST(k) ((void)(k), 1)
#include "ring_fast_wrap.h"
#include "test_ring.c"
