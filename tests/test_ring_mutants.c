/* Tests written for generated mutants of the ring library (ref/ring*.c, fast/ring*.c) that
 * survived the other tests (scripts/mutgen.py, `make mutants-sample`) and are best reached
 * through the API. Each test names the mutant id it kills; expectations come from
 * include/wsel/ring.h and doc/ring.md, worked by hand in the comments. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "ring_mock.h"

static void must(int rc, const wsel_error *err, const char *what)
{
    if (rc != WSEL_OK)
        fail_msg("%s: %s", what, err->message);
}

/* fast/ring/ring_fast.c@5d978ecb75:guard:if (!rec || strcmp(rec->ip, a->ip) != 0 :;:1 --
 * wsel_ring_fast_check reports an address the published view has no record for
 * (ring.h: "each address's text and port"; WSEL_E_STATE with the first difference), even
 * when that address owns no slot, so that no slot of the view differs.
 * By hand (doc/ring.md section 5, 5.2.3's apportionment): 2 slots; host a.test (weight 1)
 * resolves to 10.0.0.1, then 10.0.0.9 (weight 1000) is added: 10.0.0.1 gets
 * floor(2 * 1/1001 + 0.0001) = 0 slots, 10.0.0.9 both. a.test then answers 10.0.0.1 and
 * 10.0.0.2 (each of weight 1, before 10.0.0.9 in iteration order): 10.0.0.1 gets
 * floor(2/1002 + 0.0001) = 0, 10.0.0.2 floor(2/1001 + 0.0001) = 0, 10.0.0.9 both again.
 * No slot, availability, health or clock changed, only a new address without a record. */
static void test_fast_check_unsynced_address(void **u)
{
    (void)u;
    static const char *const one[] = {"10.0.0.1", NULL};
    static const char *const two[] = {"10.0.0.1", "10.0.0.2", NULL};
    mock m = {0};
    mock_addr(&m, "a.test", WSEL_RING_A, 300, one);
    wsel_ring_opts o = mock_opts(&m, 2);
    wsel_ring *r = NULL;
    wsel_ring_fast *f = NULL;
    wsel_error err;
    must(wsel_ring_new(&o, &r, &err), &err, "new");
    must(wsel_ring_add_host(r, "a.test", 80, 1, &err), &err, "add a.test");
    must(wsel_ring_add_host(r, "10.0.0.9", 80, 1000, &err), &err, "add 10.0.0.9");
    must(wsel_ring_fast_new(r, &f, &err), &err, "fast_new");
    must(wsel_ring_fast_check(f, &err), &err, "check after attaching");

    mock_addr(&m, "a.test", WSEL_RING_A, 300, two);
    must(wsel_ring_refresh(r, "a.test", &err), &err, "refresh");
    assert_int_equal(wsel_ring_address_count(r), 3);
    for (size_t i = 0; i < 3; i++) {
        wsel_ring_address ad;
        wsel_ring_address_get(r, i, &ad);
        assert_int_equal(ad.n_slots, i == 2 ? 2 : 0);
    }
    assert_int_equal(wsel_ring_fast_check(f, &err), WSEL_E_STATE);
    assert_non_null(strstr(err.message, "10.0.0.2"));

    must(wsel_ring_fast_sync(f, &err), &err, "sync");
    must(wsel_ring_fast_check(f, &err), &err, "check after the sync");
    wsel_ring_fast_free(f);
    wsel_ring_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fast_check_unsynced_address),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
