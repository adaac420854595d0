/* The one JSON writer (core/json_write.c) on strings that are not plain ASCII, and on a
 * stream that cannot be written. Its rule (the comment in raw_string): valid UTF-8
 * passes through, every other byte >= 0x80 becomes its Latin-1 code point \u00XX, and
 * control bytes and DEL are escaped, so any byte string gives valid JSON. The expected
 * texts below apply that rule byte by byte, by hand (RFC 3629 for what is valid). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../core/json_write.h"

/* A writer into memory: open, write through o.j, then mem_close for the text. */
typedef struct mem {
    char *buf;
    size_t len;
    FILE *f;
    wsel__jw j;
} mem;

static void mem_open(mem *o)
{
    o->buf = NULL;
    o->len = 0;
    o->f = open_memstream(&o->buf, &o->len);
    assert_non_null(o->f);
    wsel__jw_init(&o->j, o->f);
}

/* The text written (free() it). */
static char *mem_close(mem *o)
{
    assert_int_equal(fclose(o->f), 0);
    return o->buf;
}

static void expect_str(const char *in, const char *want)
{
    mem o;
    mem_open(&o);
    wsel__jw *j = &o.j;
    wsel__jw_str(j, in);
    char *buf = mem_close(&o);
    if (strcmp(buf, want) != 0)
        fail_msg("wrote %s, want %s", buf, want);
    free(buf);
}

static void test_valid_utf8_passes(void **u)
{
    (void)u;
    expect_str("caf\xc3\xa9", "\"caf\xc3\xa9\"");                 /* U+00E9, 2 bytes */
    expect_str("\xdf\xbf", "\"\xdf\xbf\"");                       /* U+07FF, last of 2 */
    expect_str("\xe0\xa0\x80", "\"\xe0\xa0\x80\"");               /* U+0800, first of 3 */
    expect_str("\xe2\x82\xac", "\"\xe2\x82\xac\"");               /* U+20AC */
    expect_str("\xef\xbf\xbd", "\"\xef\xbf\xbd\"");               /* U+FFFD */
    expect_str("\xf0\x9f\x98\x80", "\"\xf0\x9f\x98\x80\"");       /* U+1F600, 4 bytes */
    expect_str("\xf4\x8f\xbf\xbf", "\"\xf4\x8f\xbf\xbf\"");       /* U+10FFFF, the last */
}

static void test_invalid_bytes_become_latin1(void **u)
{
    (void)u;
    /* overlong forms: C0/C1 never start a sequence; E0 80 80 and F0 80 80 80 encode 0 */
    expect_str("\xc0\x80", "\"\\u00c0\\u0080\"");
    expect_str("\xc1\xbf", "\"\\u00c1\\u00bf\"");
    expect_str("\xe0\x80\x80", "\"\\u00e0\\u0080\\u0080\"");
    expect_str("\xf0\x80\x80\x80", "\"\\u00f0\\u0080\\u0080\\u0080\"");
    /* a surrogate (U+D800), past U+10FFFF (F4 90 ...), a lead byte above F4 */
    expect_str("\xed\xa0\x80", "\"\\u00ed\\u00a0\\u0080\"");
    expect_str("\xf4\x90\x80\x80", "\"\\u00f4\\u0090\\u0080\\u0080\"");
    expect_str("\xf5\x80", "\"\\u00f5\\u0080\"");
    /* a continuation byte alone, a sequence cut short by ASCII or by the end */
    expect_str("\x80x", "\"\\u0080x\"");
    expect_str("\xe2(\xa1", "\"\\u00e2(\\u00a1\"");
    expect_str("\xe2\x82", "\"\\u00e2\\u0082\"");
    expect_str("a\xf0\x9f\x98", "\"a\\u00f0\\u009f\\u0098\"");
}

static void test_controls_escaped(void **u)
{
    (void)u;
    expect_str("\"\\\b\f\n\r\t", "\"\\\"\\\\\\b\\f\\n\\r\\t\"");
    expect_str("\x01\x1f\x7f ~", "\"\\u0001\\u001f\\u007f ~\"");
    expect_str(NULL, "\"\"");
}

/* A stream the writer cannot flush: finish reports the system's reason. */
static void test_finish_reports_write_error(void **u)
{
    (void)u;
    FILE *f = fopen("/dev/full", "w");
    if (!f) {
        skip();
        return;
    }
    wsel__jw j;
    wsel__jw_init(&j, f);
    wsel__jw_obj_begin(&j);
    wsel__jw_kstr(&j, "k", "v");
    wsel__jw_obj_end(&j);
    assert_int_equal(wsel__jw_finish(&j), ENOSPC);
    fclose(f);
}

/* Nesting deeper than the writer's table of depths (WSEL__JW_MAX_DEPTH) stays within
 * the table: 40 empty arrays inside each other are still written as 40 '[' and 40 ']',
 * without a comma (no container holds two values), and a close with nothing open does
 * not move the depth below 0 (the writer keeps writing what it is told). */
static void test_deep_nesting_stays_in_table(void **u)
{
    (void)u;
    mem o;
    mem_open(&o);
    wsel__jw *j = &o.j;
    for (int i = 0; i < 40; i++)
        wsel__jw_arr_begin(j);
    for (int i = 0; i < 40; i++)
        wsel__jw_arr_end(j);
    assert_int_equal(j->depth, 0);
    char *buf = mem_close(&o);
    char want[81];
    memset(want, '[', 40);
    memset(want + 40, ']', 40);
    want[80] = '\0';
    assert_string_equal(buf, want);
    free(buf);
}

/* Up to the table's 31 levels inside the top one every container keeps its own comma
 * state: 31 arrays inside each other, the innermost holding 1 and 2, each of the others
 * its inner array and then a 0: "[[...[1,2],0]...,0]". */
static void test_nesting_within_table(void **u)
{
    (void)u;
    mem o;
    mem_open(&o);
    wsel__jw *j = &o.j;
    for (int i = 0; i < WSEL__JW_MAX_DEPTH - 1; i++)
        wsel__jw_arr_begin(j);
    wsel__jw_u64(j, 1);
    wsel__jw_u64(j, 2);
    for (int i = 0; i < WSEL__JW_MAX_DEPTH - 1; i++) {
        wsel__jw_arr_end(j);
        if (i < WSEL__JW_MAX_DEPTH - 2)
            wsel__jw_u64(j, 0);
    }
    char *buf = mem_close(&o);
    char want[256] = "";
    for (int i = 0; i < WSEL__JW_MAX_DEPTH - 1; i++)
        strcat(want, "[");
    strcat(want, "1,2");
    for (int i = 0; i < WSEL__JW_MAX_DEPTH - 2; i++)
        strcat(want, "],0");
    strcat(want, "]");
    assert_string_equal(buf, want);
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_valid_utf8_passes),
        cmocka_unit_test(test_invalid_bytes_become_latin1),
        cmocka_unit_test(test_controls_escaped),
        cmocka_unit_test(test_finish_reports_write_error),
        cmocka_unit_test(test_deep_nesting_stays_in_table),
        cmocka_unit_test(test_nesting_within_table),
    };
    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests_name("json writer", tests, NULL, NULL);
}
