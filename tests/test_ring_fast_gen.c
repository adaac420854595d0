/* The ring's fast engine against the reference over generated scenarios:
 * tests/test_ring_gen.c, whose twin rings become one reference ring and one with a fast
 * engine (tests/ring_fast_wrap.h). After every operation the fast view is checked slot by
 * slot against its ring and the two rings against each other; every pick, retry and
 * round-robin call is compared between the reference and the fast engine. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#define FW_FAST(k) ((k) % 2 == 1)
#include "ring_fast_wrap.h"
#include "test_ring_gen.c"
