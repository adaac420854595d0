/* The ring's fast engine against the known answers of doc/ring.md section 12: tests/test_ring.c, every ring
 * of it with a fast engine attached (tests/ring_fast_wrap.h), so each pick it checks is
 * the fast engine's and each layout it checks is followed by a check of the fast view. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#define FW_FAST(k) ((void)(k), 1)
#define RING_EXTRA_TESTS cmocka_unit_test(test_full_width_hashes),
#include "ring_fast_wrap.h"
#include "support/support.h"

static void test_full_width_hashes(void **u);
#include "test_ring.c"

/* Hashes over the whole 64-bit range and large retry counts: the fast engine reduces
 * them without dividing, so check its start slot against 1 + ((h mod N + r mod N) mod N)
 * computed here with the % operator, for wheel sizes around powers of two and primes.
 * One address owns the whole wheel, so the start slot is the slot returned. */
static void test_full_width_hashes(void **u)
{
    (void)u;
    static const uint32_t sizes[] = {1, 2, 3, 7, 64, 65, 1000, 4093, 65535, 65536, 65537, 100003};
    static const uint64_t hashes[] = {0, 1, 2, 63, 64, 999, 4294967295u, 4294967296u,
                                      9007199254740991u, 9007199254740992u,
                                      0x8000000000000000u, 0xfffffffffffffffeu,
                                      0xffffffffffffffffu, 0x123456789abcdef0u};
    static const uint32_t retries[] = {0, 1, 2, 1000, 65536, 4294967295u};
    uint64_t st = 5;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        mock m = {0};
        wsel_ring_opts o = mock_opts(&m, sizes[i]);
        wsel_ring *r = mk(&o);
        add(r, "10.0.0.1", 80, 1);
        for (size_t k = 0; k < 200; k++) {
            uint64_t h = k < sizeof hashes / sizeof hashes[0] ? hashes[k] : wsel_kit_mix(&st);
            for (size_t j = 0; j < sizeof retries / sizeof retries[0]; j++) {
                if (k % 2 && retries[j] % sizes[i]) /* sums landing exactly on N */
                    h = sizes[i] - retries[j] % sizes[i] + (uint64_t)sizes[i] * wsel_kit_mix(&st) / 4294967296u * (k % 4 == 1);
                wsel_ring_handle hd = {.mode = WSEL_RING_HASH, .hash = h, .retries = retries[j]};
                wsel_ring_peer p;
                assert_int_equal(wsel_ring_pick(r, &hd, true, &p, NULL), WSEL_OK);
                uint64_t n = sizes[i];
                if (p.slot != 1 + (h % n + retries[j] % n) % n)
                    fail_msg("N=%u hash %llu retries %u: slot %u", sizes[i],
                             (unsigned long long)h, retries[j], p.slot);
            }
        }
        wsel_ring_free(r);
    }
}
