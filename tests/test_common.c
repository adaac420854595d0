/* What every system shares (include/wsel/common.h, include/wsel/systems.h): each status
 * code has a text and belongs to one generic kind, the kinds the CLI's exit status is
 * mapped from (cli/util.c, man/wsel.1 EXIT STATUS); the table of systems names three
 * systems whose semantics pages exist in the repo, each with "ref" first, and agrees
 * with the weighted plugin's own variant API. Expected values are written out here from
 * the headers' comments, not read back from the library. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "wsel.h"
#include "../core/addr.h"
#include "../core/escape.h"
#include "../core/internal.h"
#include "../core/io.h"
#include "../core/isa.h"
#include "../core/retire.h"

/* The kinds the exit status depends on: out of memory (3), the call or the build (2),
 * a file that cannot be read (2), bad content (1 or 2 by role). */
static void kinds_of_codes(void)
{
    static const struct { int code; wsel_error_kind kind; } want[] = {
        {WSEL_E_NOMEM, WSEL_ERROR_NOMEM},       {WSEL_E_ARG, WSEL_ERROR_ARG},
        {WSEL_E_UNSUPPORTED, WSEL_ERROR_UNSUPPORTED}, {WSEL_E_IO, WSEL_ERROR_IO},
        {WSEL_E_LIMIT, WSEL_ERROR_LIMIT},       {WSEL_E_SYNTAX, WSEL_ERROR_SYNTAX},
        {WSEL_E_ESCAPE, WSEL_ERROR_SYNTAX},     {WSEL_E_DUPKEY, WSEL_ERROR_DUPLICATE},
        {WSEL_E_TYPE, WSEL_ERROR_TYPE},         {WSEL_E_ITEM, WSEL_ERROR_TYPE},
        {WSEL_E_RANGE, WSEL_ERROR_RANGE},       {WSEL_E_WEIGHT, WSEL_ERROR_RANGE},
        {WSEL_E_ADDR, WSEL_ERROR_RANGE},        {WSEL_E_REFERENCE, WSEL_ERROR_REFERENCE},
        {WSEL_E_NORESOURCE, WSEL_ERROR_REFERENCE}, {WSEL_E_SVCTYPE, WSEL_ERROR_REFERENCE},
        {WSEL_E_STATE, WSEL_ERROR_STATE},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        assert_int_equal(wsel_error_kind_of(want[i].code), want[i].kind);
}

static void error_format(void)
{
    wsel_error e;
    wsel_error_clear(&e);
    char buf[64];
    e.code = WSEL_E_SYNTAX;
    assert_string_equal(wsel_error_format(&e, buf, sizeof buf), "syntax error");
    snprintf(e.file, sizeof e.file, "f.json");
    e.line = 3;
    e.col = 7;
    snprintf(e.message, sizeof e.message, "$.a: expected true or false");
    assert_string_equal(wsel_error_format(&e, buf, sizeof buf), "f.json:3:7: $.a: expected true or false");
    assert_string_equal(wsel_error_format(NULL, buf, sizeof buf), "");
    /* the parts that are empty or 0 are left out, with their separator (common.h) */
    e.col = 0;
    assert_string_equal(wsel_error_format(&e, buf, sizeof buf), "f.json:3: $.a: expected true or false");
    e.line = 0;
    assert_string_equal(wsel_error_format(&e, buf, sizeof buf), "f.json: $.a: expected true or false");
    /* no room: nothing is written, buf is returned as it is */
    char keep[4] = "xyz";
    assert_ptr_equal(wsel_error_format(&e, keep, 0), keep);
    assert_string_equal(keep, "xyz");
    assert_null(wsel_error_format(&e, NULL, 16));
    wsel_free(NULL);
    wsel_free(malloc(16));
}

static void test_every_code_has_text_and_kind(void **unused)
{
    (void)unused;
    for (int c = 0; c < WSEL_STATUS_COUNT_; c++) {
        assert_string_not_equal(wsel_strerror(c), "unknown error");
        wsel_error_kind k = wsel_error_kind_of(c);
        assert_true(k < WSEL_ERROR_KIND_COUNT_);
        assert_true((c == WSEL_OK) == (k == WSEL_ERROR_NONE));
        assert_string_not_equal(wsel_error_kind_name(k), "unknown");
    }
    assert_string_equal(wsel_strerror(-1), "unknown error");
    assert_string_equal(wsel_strerror(WSEL_STATUS_COUNT_), "unknown error");
    assert_int_equal(wsel_error_kind_of(WSEL_STATUS_COUNT_), WSEL_ERROR_ARG);
    assert_string_equal(wsel_error_kind_name(WSEL_ERROR_KIND_COUNT_), "unknown");
    assert_int_equal(wsel_error_kind_of(-1), WSEL_ERROR_ARG);
    assert_string_equal(wsel_error_kind_name((wsel_error_kind)-1), "unknown");
    kinds_of_codes();
    error_format();
}

static void test_systems(void **unused)
{
    (void)unused;
    static const char *const names[] = {"weighted", "ring", "gslb"};
    assert_int_equal(wsel_system_count(), 3);
    for (size_t i = 0; i < 3; i++) {
        assert_string_equal(wsel_system_name(i), names[i]);
        assert_int_equal(wsel_system_find(names[i]), (long)i);
        char doc[64];
        snprintf(doc, sizeof doc, "doc/%s.md", names[i]);
        assert_string_equal(wsel_system_doc(i), doc);
        assert_int_equal(access(doc, R_OK), 0); /* make check runs at the top of the tree */
        assert_true(wsel_system_variant_count(i) >= 1);
        assert_string_equal(wsel_system_variant_name(i, 0), "ref");
        assert_true(wsel_system_variant_available(i, 0));
        size_t n = wsel_system_variant_count(i);
        assert_null(wsel_system_variant_name(i, n));
        assert_false(wsel_system_variant_available(i, n));
    }
    assert_null(wsel_system_name(3));
    assert_null(wsel_system_doc(3));
    assert_int_equal(wsel_system_variant_count(3), 0);
    assert_int_equal(wsel_system_find("maglev"), -1);
    assert_int_equal(wsel_system_find(NULL), -1);
    /* the ring's engines: the reference pick and the lock-free fast engine */
    assert_int_equal(wsel_system_variant_count(1), 2);
    assert_string_equal(wsel_system_variant_name(1, 1), "fast");
    assert_int_equal(wsel_system_variant_count(2), 1);
    /* the weighted plugin's list is its variant API's list, availability included */
    assert_int_equal(wsel_system_variant_count(0), wsel_variant_count());
    for (size_t v = 0; v < wsel_variant_count(); v++) {
        assert_string_equal(wsel_system_variant_name(0, v), wsel_variant_name(v));
        assert_int_equal(wsel_system_variant_available(0, v),
                         wsel_variant_available(wsel_variant_name(v)));
    }
}

/* The instruction-set levels every system's fast path shares (core/isa.h), by the names
 * WSEL_FAST_KERNEL takes (man/wsel.1): scalar runs everywhere; a number outside the
 * levels has no name, never runs and cannot be forced. */
static void test_isa_levels(void **unused)
{
    (void)unused;
    assert_string_equal(wsel__isa_name(WSEL__ISA_SCALAR), "scalar");
    assert_string_equal(wsel__isa_name(WSEL__ISA_SSE2), "sse2");
    assert_string_equal(wsel__isa_name(WSEL__ISA_AVX2), "avx2");
    assert_null(wsel__isa_name(-1));
    assert_null(wsel__isa_name(WSEL__ISA_COUNT_));
    assert_true(wsel__isa_runs(WSEL__ISA_SCALAR));
    assert_false(wsel__isa_runs(-1));
    assert_false(wsel__isa_runs(WSEL__ISA_COUNT_));
    assert_false(wsel__isa_force(WSEL__ISA_COUNT_));
    assert_true(wsel__isa_force(WSEL__ISA_SCALAR));
    assert_int_equal(wsel__isa_selected(), WSEL__ISA_SCALAR);
    assert_true(wsel__isa_force(-1)); /* back to the automatic choice */
}

/* The one address parser and formatter (core/addr.h): its contract, case by case. The
 * expected bytes and texts are written out by hand (RFC 4291 forms in, RFC 5952 and
 * dotted decimal out). */
static void test_addr_text(void **unused)
{
    (void)unused;
    uint8_t b[16];
    static const uint8_t v4[16] = {192, 0, 2, 1};
    static const uint8_t v6[16] = {0x20, 0x01, 0x0d, 0xb8, [15] = 1};
    static const uint8_t zero[16] = {0};
    assert_int_equal(wsel__addr_parse("192.0.2.1", 9, false, b), 4);
    assert_memory_equal(b, v4, 16);
    assert_int_equal(wsel__addr_parse("192.0.2.1x", 9, false, b), 4); /* len bounds it */
    assert_int_equal(wsel__addr_parse("2001:db8::1", 11, false, b), 6);
    assert_memory_equal(b, v6, 16);
    assert_int_equal(wsel__addr_parse("[2001:db8::1]", 13, true, b), 6);
    assert_memory_equal(b, v6, 16);
    /* brackets only where asked, and only as a pair around the whole text */
    assert_int_equal(wsel__addr_parse("[2001:db8::1]", 13, false, b), 0);
    assert_memory_equal(b, zero, 16);
    assert_int_equal(wsel__addr_parse("[2001:db8::1", 12, true, b), 0);
    assert_int_equal(wsel__addr_parse("2001:db8::1]", 12, true, b), 0);
    assert_int_equal(wsel__addr_parse("[", 1, true, b), 0);
    assert_int_equal(wsel__addr_parse("[]", 2, true, b), 0);
    /* no address: NULL, a NUL inside, too long for any address, a zone, a prefix */
    assert_int_equal(wsel__addr_parse(NULL, 0, false, b), 0);
    assert_int_equal(wsel__addr_parse("192.0.2.1\0", 10, false, b), 0);
    assert_memory_equal(b, zero, 16);
    char longtext[80];
    memset(longtext, '1', sizeof longtext);
    assert_int_equal(wsel__addr_parse(longtext, sizeof longtext, false, b), 0);
    assert_int_equal(wsel__addr_parse("fe80::1%lo", 10, false, b), 0);
    assert_int_equal(wsel__addr_parse("192.0.2.0/24", 12, false, b), 0);
    assert_int_equal(wsel__addr_parse("", 0, true, b), 0);

    char out[WSEL__ADDR_TEXT];
    static const uint8_t v4max[16] = {255, 255, 255, 255}, v4small[16] = {10, 0, 9, 99};
    assert_int_equal(wsel__addr_format(4, v4max, out, sizeof out), 15);
    assert_string_equal(out, "255.255.255.255");
    assert_int_equal(wsel__addr_format(4, v4small, out, sizeof out), 9);
    assert_string_equal(out, "10.0.9.99");
    /* exactly the room for "10.0.9.99" and its NUL, then one byte less */
    assert_int_equal(wsel__addr_format(4, v4small, out, 10), 9);
    assert_int_equal(wsel__addr_format(4, v4small, out, 9), 0);
    assert_string_equal(out, "");
    assert_int_equal(wsel__addr_format(6, v6, out, sizeof out), 11);
    assert_string_equal(out, "2001:db8::1");
    assert_int_equal(wsel__addr_format(6, v6, out, 11), 0); /* no room for the NUL */
    assert_string_equal(out, "");
    assert_int_equal(wsel__addr_format(6, v6, out, 0), 0);
    assert_int_equal(wsel__addr_format(5, v6, out, sizeof out), 0);
    assert_string_equal(out, "");
}

/* Text for a terminal (core/escape.h): control bytes and DEL as \DDD (three decimal
 * digits), every other byte itself; a buffer too small keeps whole escapes only. */
static void test_escape(void **unused)
{
    (void)unused;
    char buf[32];
    assert_string_equal(wsel__escape("a\tb\x7f" "c\x1b", buf, sizeof buf), "a\\009b\\127c\\027");
    assert_string_equal(wsel__escape("\xc3\xa9", buf, sizeof buf), "\xc3\xa9"); /* UTF-8 kept */
    assert_string_equal(wsel__escape("ab\ncd", buf, 6), "ab"); /* "\010" would not fit */
    assert_string_equal(wsel__escape("ab\ncd", buf, 7), "ab\\010");
    assert_string_equal(wsel__escape(NULL, buf, sizeof buf), "");
    buf[0] = 'x';
    wsel__escape("abc", buf, 0); /* no room at all: nothing written */
    assert_int_equal(buf[0], 'x');
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    wsel__escape_put(f, "q\r");
    wsel__escape_put(f, NULL);
    assert_int_equal(fclose(f), 0);
    assert_string_equal(text, "q\\013");
    free(text);
}

/* The one growth rule of the library's arrays (core/internal.h): nothing to do when the
 * capacity holds `need`; at least 16, doubling; a size whose bytes overflow is refused
 * with the array and its capacity untouched. */
static void test_grow(void **unused)
{
    (void)unused;
    int *a = NULL;
    size_t cap = 0;
    assert_true(wsel__grow(&a, &cap, 1, sizeof *a));
    assert_int_equal(cap, 16);
    a[15] = 7;
    assert_true(wsel__grow(&a, &cap, 16, sizeof *a)); /* fits: unchanged */
    assert_int_equal(cap, 16);
    assert_true(wsel__grow(&a, &cap, 17, sizeof *a));
    assert_int_equal(cap, 32);
    assert_int_equal(a[15], 7);
    assert_int_equal(a[16], 0); /* the new part is zeroed */
    assert_true(wsel__grow(&a, &cap, 100, sizeof *a));
    assert_int_equal(cap, 128);
    int *before = a;
    assert_false(wsel__grow(&a, &cap, SIZE_MAX / 2, sizeof *a));
    assert_false(wsel__grow(&a, &cap, 200, 0));
    assert_ptr_equal(a, before);
    assert_int_equal(cap, 128);
    free(a);
}

/* The weighted system's variant choice by name (include/wsel/resolve.h): "fast" always
 * runs and is not listed; "ref" and unknown names cannot be forced; forcing a variant
 * that runs makes it the one "fast" resolves to, and NULL or "fast" restores the
 * automatic choice. */
static void test_fast_force_by_name(void **unused)
{
    (void)unused;
    const char *automatic = wsel_fast_selected();
    assert_true(wsel_variant_available("fast"));
    assert_false(wsel_variant_available(NULL));
    assert_false(wsel_variant_available("nope"));
    assert_null(wsel_variant_name(wsel_variant_count()));
    assert_int_equal(wsel_fast_force("ref"), WSEL_E_ARG);
    assert_int_equal(wsel_fast_force("nope"), WSEL_E_ARG);
    assert_int_equal(wsel_fast_force("fast-scalar"), WSEL_OK);
    assert_string_equal(wsel_fast_selected(), "fast-scalar");
    assert_int_equal(wsel_fast_force(NULL), WSEL_OK);
    assert_string_equal(wsel_fast_selected(), automatic);
    assert_int_equal(wsel_fast_force("fast-scalar"), WSEL_OK);
    assert_int_equal(wsel_fast_force("fast"), WSEL_OK);
    assert_string_equal(wsel_fast_selected(), automatic);
    for (size_t i = 0; i < wsel_variant_count(); i++) {
        const char *n = wsel_variant_name(i);
        int rc = wsel_fast_force(n);
        if (strcmp(n, "ref") == 0)
            assert_int_equal(rc, WSEL_E_ARG);
        else
            assert_int_equal(rc, wsel_variant_available(n) ? WSEL_OK : WSEL_E_UNSUPPORTED);
    }
    assert_int_equal(wsel_fast_force(NULL), WSEL_OK);
}

/* The one file reader (core/io.h) given descriptor 0: with standard input closed, open()
 * hands the file the lowest free descriptor, 0, which is a good one; the file is read.
 * And with the largest limit a caller can ask. */
static void test_read_file_on_fd0(void **unused)
{
    (void)unused;
    char path[] = "/tmp/wsel-test-fd0-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "abc\n", 4), 4);
    close(fd);
    int saved = dup(0);
    assert_true(saved >= 0);
    close(0);
    char *data = NULL;
    size_t len = 0;
    wsel_error err;
    int rc = wsel__read_file(path, "file", 100, NULL, &data, &len, &err);
    assert_int_equal(dup2(saved, 0), 0);
    close(saved);
    unlink(path);
    assert_int_equal(rc, WSEL_OK);
    assert_non_null(data);
    assert_int_equal(len, 4);
    assert_string_equal(data, "abc\n");
    free(data);
    /* no limit worth the name (a caller's SIZE_MAX): the whole file all the same */
    char path2[] = "/tmp/wsel-test-max-XXXXXX";
    fd = mkstemp(path2);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "xyz", 3), 3);
    close(fd);
    rc = wsel__read_file(path2, "file", SIZE_MAX, NULL, &data, &len, &err);
    unlink(path2);
    assert_int_equal(rc, WSEL_OK);
    assert_int_equal(len, 3);
    assert_string_equal(data, "xyz");
    free(data);
    /* a failure leaves no data: *data NULL and *len 0 (core/io.h), whatever they held */
    data = (char *)path2;
    len = 7;
    rc = wsel__read_file(path2, "file", 100, NULL, &data, &len, &err); /* unlinked above */
    assert_int_equal(rc, WSEL_E_IO);
    assert_null(data);
    assert_int_equal(len, 0);
}

/* A weighted resolver by engine id (include/wsel/resolve.h): the reference engine is the
 * variant "ref", the fast one the variant "fast" resolves to; any other id is a bad
 * argument. sync and reclaim on no resolver do nothing and say so. */
static void test_resolver_by_engine(void **unused)
{
    (void)unused;
    static const char conf[] = "plugins => { weighted => { r => { a => [ 192.0.2.1, 1 ] } } }\n";
    wsel_config *cfg = NULL;
    wsel_state *st = NULL;
    wsel_resolver *r = NULL;
    wsel_error err;
    assert_int_equal(wsel_config_load_buffer("t", conf, sizeof conf - 1, NULL, &cfg, &err), WSEL_OK);
    assert_int_equal(wsel_state_new(cfg, &st, &err), WSEL_OK);
    assert_int_equal(wsel_resolver_new(cfg, st, WSEL_ENGINE_REF, &r, &err), WSEL_OK);
    assert_string_equal(wsel_resolver_variant(r), "ref");
    wsel_resolver_free(r);
    assert_int_equal(wsel_resolver_new(cfg, st, WSEL_ENGINE_FAST, &r, &err), WSEL_OK);
    assert_string_equal(wsel_resolver_variant(r), wsel_fast_selected());
    wsel_resolver_free(r);
    r = NULL;
    assert_int_equal(wsel_resolver_new(cfg, st, (wsel_engine_id)7, &r, &err), WSEL_E_ARG);
    assert_null(r);
    assert_non_null(strstr(err.message, "unknown engine id 7"));
    assert_int_equal(wsel_resolver_sync(NULL), WSEL_E_ARG);
    assert_int_equal(wsel_resolver_reclaim(NULL), 0);
    wsel_state_free(st);
    wsel_config_free(cfg);
}

/* take() for test_retired_list: records each pointer handed over, in order. */
static void take_note(void *ctx, void *p)
{
    char *seen = ctx;
    size_t n = strlen(seen);
    seen[n] = *(char *)p;
    seen[n + 1] = '\0';
}

/* core/retire.h: only reserved room keeps a pointer (NULL never); a reclaim hands every
 * kept pointer over in the order kept and empties the list; the final free hands over
 * the rest and leaves an empty list, which may be freed again or used anew. */
static void test_retired_list(void **state)
{
    (void)state;
    static char a = 'a', b = 'b', c = 'c', d = 'd';
    char seen[16] = "";
    wsel__retired r = {NULL, 0, 0};
    wsel__retire(&r, &a); /* no room reserved: not kept */
    assert_int_equal(r.n, 0);
    assert_true(wsel__retire_reserve(&r, 2));
    wsel__retire(&r, &a);
    wsel__retire(&r, NULL);
    wsel__retire(&r, &b);
    assert_int_equal(r.n, 2);
    assert_false(wsel__retire_reserve(&r, SIZE_MAX)); /* n + more would overflow */
    assert_int_equal(wsel__reclaim(&r, take_note, seen), 2);
    assert_string_equal(seen, "ab");
    assert_int_equal(r.n, 0);
    assert_int_equal(wsel__reclaim(&r, take_note, seen), 0);
    assert_true(wsel__retire_reserve(&r, 2));
    wsel__retire(&r, &c);
    wsel__retire(&r, &d);
    wsel__retired_free(&r, take_note, seen);
    assert_string_equal(seen, "abcd");
    assert_null(r.v);
    assert_int_equal(r.n, 0);
    assert_int_equal(r.cap, 0);
    wsel__retired_free(&r, take_note, seen); /* again: nothing handed over, nothing freed */
    assert_string_equal(seen, "abcd");
    assert_true(wsel__retire_reserve(&r, 1)); /* and used anew */
    wsel__retire(&r, &a);
    wsel__retired_free(&r, take_note, seen);
    assert_string_equal(seen, "abcda");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_code_has_text_and_kind),
        cmocka_unit_test(test_systems),
        cmocka_unit_test(test_isa_levels),
        cmocka_unit_test(test_retired_list),
        cmocka_unit_test(test_addr_text),
        cmocka_unit_test(test_escape),
        cmocka_unit_test(test_grow),
        cmocka_unit_test(test_fast_force_by_name),
        cmocka_unit_test(test_resolver_by_engine),
        cmocka_unit_test(test_read_file_on_fd0),
    };
    return cmocka_run_group_tests_name("common", tests, NULL, NULL);
}
