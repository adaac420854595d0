/* Strict apportionment (doc/ring.md section 8) over the generated scenarios of
 * tests/test_ring_gen.c: every ring strict, the twin with a fast engine
 * (tests/ring_fast_wrap.h). After every operation: no slot moved between two addresses
 * the operation did not touch, the invariants, the twins identical, slots moved ==
 * gains, prefixes kept; and the distance of each count from its exact quota is
 * measured (printed as a TAP comment). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#define RING_GEN_STRICT 1
#define FW_FAST(k) ((k) % 2 == 1)
#include "ring_fast_wrap.h"
#include "test_ring_gen.c"
