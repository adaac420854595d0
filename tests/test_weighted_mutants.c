/* Tests written for generated mutants of the weighted code (scripts/mutgen.py, `make
 * mutants-sample`; README, *Mutation testing*) that survived the other tests. Each case
 * names the mutant id it kills; expectations come from doc/weighted.md, not from a run. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "support/support.h"

static const char *const cfg_text = "R => { service_types => svc\n"
                                    "  a = [ 10.0.0.1, 1 ]\n  b = [ 10.0.0.2, 1 ] }\n";

typedef struct warns {
    unsigned n, line[4];
} warns;

static void count_warn(void *ctx, const wsel_error *w)
{
    warns *ws = ctx;
    if (ws->n < 4)
        ws->line[ws->n] = w->line;
    ws->n++;
}

/* A key of `n` bytes: a name of `n` letters (upper case, so canonicalisation changes it)
 * with a dot every 60 bytes. */
static void long_key(char *out, size_t n)
{
    for (size_t i = 0; i < n; i++)
        out[i] = (char)(i % 61 == 60 ? '.' : 'A' + (int)(i % 26));
    out[n] = '\0';
}

/* core/state.c@45aecf49c3:const:1:2:1 -- doc/weighted.md §6.4: an extfile key is at most
 * 319 bytes. The longest key is accepted (it names nothing here: a warning for its line)
 * and the lines after it apply; one byte more is an error at the key. The mutant copies
 * strlen + 2 bytes of the 320-byte canonical-key buffer, one past its end for a 319-byte
 * key: a stack over-read that only ASan reports (CI runs this program under ASan). */
static void test_extfile_longest_key(void **state)
{
    (void)state;
    wsel_config *cfg = wsel_test_load(cfg_text);
    wsel_state *st;
    assert_int_equal(wsel_state_new(cfg, &st, NULL), WSEL_OK);
    warns ws = {0};
    wsel_state_set_warn(st, count_warn, &ws);

    char key[330], text[800];
    wsel_error err;
    for (int quoted = 0; quoted <= 1; quoted++) {
        long_key(key, 319);
        snprintf(text, sizeof text, "%s%s%s => UP\n10.0.0.%d => DOWN/30\n",
                 quoted ? "\"" : "", key, quoted ? "\"" : "", quoted + 1);
        ws.n = 0;
        wsel_error_clear(&err);
        assert_int_equal(wsel_state_load_extfile_buffer(st, "svc", text, strlen(text),
                                                        "ext.state", &err), WSEL_OK);
        assert_int_equal(ws.n, 1);
        assert_int_equal(ws.line[0], 1);
        WSEL_ASSERT_MS(wsel_test_item_state(st, cfg, "R", (unsigned)quoted), false, 30);

        long_key(key, 320);
        snprintf(text, sizeof text, "%s%s%s => UP\n", quoted ? "\"" : "", key,
                 quoted ? "\"" : "");
        wsel_error_clear(&err);
        assert_int_equal(wsel_state_load_extfile_buffer(st, "svc", text, strlen(text),
                                                        "ext.state", &err), WSEL_E_STATE);
        assert_int_equal(err.line, 1);
        assert_int_equal(err.col, 1);
        assert_non_null(strstr(err.message, "too long"));
    }
    wsel_state_free(st);
    wsel_config_free(cfg);
}

WSEL_TEST_MAIN("weighted_mutants", cmocka_unit_test(test_extfile_longest_key))
