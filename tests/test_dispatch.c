/* The fast engine's automatic choice is the widest variant this CPU and this build allow
 * (include/wsel/resolve.h, wsel_fast_selected; README "The random-word contract").
 *
 * The expectation is worked out here without the library's detection (core/cpu.c):
 * the CPUID instruction read through <cpuid.h>, with the OS's XCR0 for AVX state, and
 * the build's -DWSEL_NO_SSE2 / -DWSEL_NO_AVX2 switches, which reach this file too.
 * Identical answers from every variant mean no other test notices a narrower choice. */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "support/support.h"

#if defined(__x86_64__)
#include <cpuid.h>

/* SSE2: CPUID.1:EDX bit 26. AVX2: CPUID.(7,0):EBX bit 5, usable only if the OS saves
 * the YMM state: CPUID.1:ECX OSXSAVE (bit 27) and AVX (bit 28), XCR0 bits 1 and 2. */
static bool cpu_sse2(void)
{
    unsigned a, b, c, d;
    return __get_cpuid(1, &a, &b, &c, &d) && (d >> 26 & 1u);
}

static bool cpu_avx2(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c >> 27 & 1u) || !(c >> 28 & 1u))
        return false;
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    (void)hi;
    if ((lo & 6u) != 6u)
        return false;
    if (__get_cpuid_max(0, NULL) < 7)
        return false;
    __cpuid_count(7, 0, a, b, c, d);
    return b >> 5 & 1u;
}
#endif

/* Whether this CPU and this build can run variant i of `order` (narrow to wide). */
static const char *const order[] = { "fast-scalar", "fast-sse2", "fast-avx2" };

static bool runs(size_t i)
{
    switch (i) {
    case 0:
        return true;
#if defined(__x86_64__) && !defined(WSEL_NO_SSE2)
    case 1:
        return cpu_sse2();
#endif
#if defined(__x86_64__) && !defined(WSEL_NO_AVX2)
    case 2:
        return cpu_avx2();
#endif
    default:
        return false;
    }
}

/* The widest variant that runs. */
static const char *widest(void)
{
    size_t best = 0;
    for (size_t i = 0; i < 3; i++)
        if (runs(i))
            best = i;
    return order[best];
}

static void automatic_is_widest(void **state)
{
    (void)state;
    const char *want = widest();
    print_message("# CPU and build allow %s\n", want);
    assert_string_equal(wsel_fast_selected(), want);

    wsel_error err;
    wsel_config *cfg;
    static const char text[] = "r => { a => [ 192.0.2.1, 1 ] }\n";
    wsel_load_opts o = { .input = WSEL_INPUT_STANZA };
    assert_int_equal(wsel_config_load_buffer("t", text, sizeof text - 1, &o, &cfg, &err),
                     WSEL_OK);
    wsel_state *st;
    assert_int_equal(wsel_state_new(cfg, &st, &err), WSEL_OK);
    wsel_resolver *r;
    assert_int_equal(wsel_resolver_new(cfg, st, WSEL_ENGINE_FAST, &r, &err), WSEL_OK);
    assert_string_equal(wsel_resolver_variant(r), want);
    wsel_resolver_free(r);
    assert_int_equal(wsel_resolver_new_variant(cfg, st, "fast", &r, &err), WSEL_OK);
    assert_string_equal(wsel_resolver_variant(r), want);
    wsel_resolver_free(r);
    wsel_state_free(st);
    wsel_config_free(cfg);
}

/* wsel_variant_available names exactly the variants that run. */
static void availability_matches(void **state)
{
    (void)state;
    for (size_t i = 0; i < 3; i++) {
        if (wsel_variant_available(order[i]) != runs(i))
            print_error("%s: available %d, expected %d\n", order[i],
                        wsel_variant_available(order[i]), runs(i));
        assert_true(wsel_variant_available(order[i]) == runs(i));
    }
}

int main(void)
{
    /* The automatic choice, not an override from the environment. */
    unsetenv("WSEL_FAST_KERNEL");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(automatic_is_widest),
        cmocka_unit_test(availability_matches),
    };
    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests_name("dispatch", tests, NULL, NULL);
}
