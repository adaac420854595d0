/* The JSON reading layer (core/json.h): parse errors, the locator, paths, typed getters,
 * the unknown-key policy, out of memory.
 *
 * Every expected line:col below was counted by hand from the test's own text (the count
 * is written next to it); none was copied from the code's output. */
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../core/json.h"
#include "support/nomem.h"

/* ---- helpers ---- */

static void parse_ok(wsel__json *j, const char *text, wsel_error *err)
{
    int rc = wsel__json_parse(j, "t.json", text, strlen(text), err);
    if (rc)
        fail_msg("parse failed: %d %s", rc, err->message);
    assert_non_null(j->root);
}

static void check_err(const wsel_error *err, int code, unsigned line, unsigned col,
                      const char *message)
{
    if (err->code != code || err->line != line || err->col != col ||
        (message && strcmp(err->message, message) != 0))
        fail_msg("got %d %u:%u \"%s\"\nwant %d %u:%u \"%s\"", err->code, err->line, err->col,
                 err->message, code, line, col, message ? message : "(any)");
}

/* The error of parsing text. */
static int parse_fails(const char *text, wsel_error *err)
{
    wsel__json j;
    int rc = wsel__json_parse(&j, "t.json", text, strlen(text), err);
    assert_int_not_equal(rc, 0);
    assert_int_equal(rc, err->code);
    assert_null(j.root);
    wsel__json_free(&j);
    return rc;
}

static const json_t *get(const json_t *o, const char *k)
{
    const json_t *v = json_object_get(o, k);
    assert_non_null(v);
    return v;
}

/* ---- parse errors ---- */

static void t_syntax_error(void **state)
{
    (void)state;
    wsel_error err;
    /* line 3 "  \"b\": }": ' '1 ' '2 '"'3 b4 '"'5 :6 ' '7 }8 */
    parse_fails("{\n  \"a\": 1,\n  \"b\": }\n", &err);
    check_err(&err, WSEL_E_SYNTAX, 3, 8, "unexpected token near '}'");
    assert_string_equal(err.file, "t.json");
    /* {1 "2 é3 "4 :5 ' '6 x7: jansson counts the two bytes of é as one column too */
    parse_fails("{\"\xc3\xa9\": x}", &err);
    check_err(&err, WSEL_E_SYNTAX, 1, 7, "invalid token near 'x'");
    /* An invalid token right after a key's colon is bad text, not a failed allocation,
     * even where jansson's position, miscounted after NUL bytes, lands just past the
     * key's closing quote (found by fuzz_ring_scenario). */
    static const char nuls[] = "{\"a\": 1\0\t, \"b\": 2\0\t, \"k\":&}";
    wsel__json j;
    assert_int_equal(wsel__json_parse(&j, "t.json", nuls, sizeof nuls - 1, &err), WSEL_E_SYNTAX);
    assert_string_equal(err.message, "invalid token near '&'");
    wsel__json_free(&j);
    /* {1 "2 a3 "4 :5 ' '6 and twenty digits 7..26 */
    parse_fails("{\"a\": 99999999999999999999}", &err);
    check_err(&err, WSEL_E_RANGE, 1, 26, NULL);
    /* an empty text: jansson says column 0 (before the first character); columns are
     * 1-based wherever there is a line */
    parse_fails("", &err);
    check_err(&err, WSEL_E_SYNTAX, 1, 1, NULL);
}

static void t_top_not_object(void **state)
{
    (void)state;
    wsel_error err;
    parse_fails("[1]", &err);
    check_err(&err, WSEL_E_TYPE, 1, 1, "$: expected an object, got an array");
    assert_string_equal(err.path, "$");
    /* line 2 " [": ' '1 [2 */
    parse_fails("  \n [1]", &err);
    check_err(&err, WSEL_E_TYPE, 2, 2, NULL);
}

static void t_bad_args(void **state)
{
    (void)state;
    wsel_error err;
    wsel__json j;
    assert_int_equal(wsel__json_parse(&j, "x", NULL, 3, &err), WSEL_E_ARG);
    assert_null(j.root);
    /* an argument error has no place in the text (include/wsel/common.h: line and col 0) */
    assert_string_equal(err.file, "x");
    assert_int_equal(err.line, 0);
    assert_int_equal(err.col, 0);
    assert_string_equal(err.message, "no JSON text given");
    assert_int_equal(wsel__json_parse(NULL, "x", "{}", 2, &err), WSEL_E_ARG);
    assert_int_equal(err.line, 0);
    assert_int_equal(err.col, 0);
    /* text NULL with len 0 is the empty text */
    assert_int_equal(wsel__json_parse(&j, "x", NULL, 0, &err), WSEL_E_SYNTAX);
    /* not NUL-terminated: only len bytes are read */
    char buf[4] = {'{', '}', '}', '}'};
    assert_int_equal(wsel__json_parse(&j, "x", buf, 2, &err), 0);
    wsel__json_free(&j);
    assert_null(j.root);
}

static void t_depth_limit(void **state)
{
    (void)state;
    /* jansson allows 2048 levels: the 2049th '[' (column 2049) is refused */
    size_t n = 3000;
    char *t = malloc(2 * n + 1);
    assert_non_null(t);
    memset(t, '[', n);
    memset(t + n, ']', n);
    t[2 * n] = '\0';
    wsel_error err;
    parse_fails(t, &err);
    check_err(&err, WSEL_E_LIMIT, 1, 2049, NULL);
    free(t);
}

/* ---- duplicate keys ---- */

static void t_dup_simple(void **state)
{
    (void)state;
    wsel_error err;
    /* line 2 " \"a\"": ' '1 "2 */
    parse_fails("{\"a\": 1,\n \"a\": 2}", &err);
    check_err(&err, WSEL_E_DUPKEY, 2, 2, "$: duplicate key 'a'");
    assert_string_equal(err.path, "$");
    assert_string_equal(err.key, "a");
}

static void t_dup_elsewhere(void **state)
{
    (void)state;
    wsel_error err;
    /* {1 "2 a3 "4 :5 {6 "7 k8 "9 :10 1 11 }12 ,13 "14 b15 "16 :17 {18 "19 k20 "21 :22
     * 1 23 ,24 "25: the third "k", not the first (another object) nor the second */
    parse_fails("{\"a\":{\"k\":1},\"b\":{\"k\":1,\"k\":2}}", &err);
    check_err(&err, WSEL_E_DUPKEY, 1, 25, "$.b: duplicate key 'k'");
    assert_string_equal(err.path, "$.b");
    assert_string_equal(err.object, "$.b");
    assert_string_equal(err.key, "k");
    /* the text ends right after the repeated key: the objects holding it run to the end
     * {1 "2 o3 "4 :5 [6 {7 "8 k9 "10 :11 1 12 ,13 "14 */
    parse_fails("{\"o\":[{\"k\":1,\"k\"", &err);
    check_err(&err, WSEL_E_DUPKEY, 1, 14, "$.o[0]: duplicate key 'k'");
}

/* A repeated key under a path longer than the error's fields: the path is cut to 255
 * bytes, in err.path and in the message alike (wsel__json_path_at cuts to its buffer). */
static void t_dup_long_path(void **state)
{
    (void)state;
    char text[1024] = "", full[512] = "$", tail[64];
    for (int d = 0; d < 8; d++) {
        char key[48];
        snprintf(key, sizeof key, "level%d_0123456789012345678901234567890123", d);
        snprintf(tail, sizeof tail, "{\"%s\":", key);
        strcat(text, tail);
        strcat(full, ".");
        strcat(full, key);
    }
    strcat(text, "{\"k\":1,\"k\":2}}}}}}}}}");
    assert_true(strlen(full) > 300);
    wsel_error err;
    parse_fails(text, &err);
    char want[512];
    snprintf(want, sizeof want, "%.255s: duplicate key 'k'", full);
    assert_string_equal(err.message, want);
    assert_int_equal(strlen(err.path), 255);
    assert_memory_equal(err.path, full, 255);
    /* and a repeated key longer than that: cut to 255 bytes in the message and err.key */
    char big[300], text2[700];
    memset(big, 'q', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    snprintf(text2, sizeof text2, "{\"%s\":1,\"%s\":2}", big, big);
    parse_fails(text2, &err);
    snprintf(want, sizeof want, "$: duplicate key '%.255s'", big);
    assert_string_equal(err.message, want);
    assert_int_equal(strlen(err.key), 255);
}

static void t_dup_escaped(void **state)
{
    (void)state;
    wsel_error err;
    /* {1 "2 x3 "4 :5 [6 {7 "8 k9 \10 "11 q12 "13 :14 1 15 ,16 "17 */
    parse_fails("{\"x\":[{\"k\\\"q\":1,\"k\\\"q\":2}]}", &err);
    check_err(&err, WSEL_E_DUPKEY, 1, 17, "$.x[0]: duplicate key 'k\"q'");
    assert_string_equal(err.key, "k\"q");
    /* a key ending in an escaped backslash: {1 "2 a3 \4 \5 "6 :7 1 8 ,9 "10 */
    parse_fails("{\"a\\\\\":1,\"a\\\\\":2}", &err);
    check_err(&err, WSEL_E_DUPKEY, 1, 10, NULL);
    assert_string_equal(err.key, "a\\");
    /* two spellings of é: {1 "2 é3 "4 :5 1 6 ,7 "8 */
    parse_fails("{\"\xc3\xa9\":1,\"\\u00e9\":2}", &err);
    check_err(&err, WSEL_E_DUPKEY, 1, 8, NULL);
    assert_string_equal(err.key, "\xc3\xa9");
    assert_string_equal(err.path, "$");
}

static void t_dup_multibyte_lines(void **state)
{
    (void)state;
    wsel_error err;
    /* line 2 "\"x\":{\"α\":1, \"α\":2}}}": "1 x2 "3 :4 {5 "6 α7 "8 :9 1 10 ,11 ' '12 "13 */
    parse_fails("{\"\xc3\xbc\":{\"\xc3\x9f\":1,\n\"x\":{\"\xce\xb1\":1, \"\xce\xb1\":2}}}", &err);
    check_err(&err, WSEL_E_DUPKEY, 2, 13, "$[\"\xc3\xbc\"].x: duplicate key '\xce\xb1'");
    assert_string_equal(err.path, "$[\"\xc3\xbc\"].x");
}

/* ---- paths ---- */

static void check_path(const wsel__jpath *p, const char *want)
{
    char buf[256];
    size_t n = wsel__jpath_format(p, buf, sizeof buf);
    assert_string_equal(buf, want);
    assert_int_equal(n, strlen(want));
}

static void t_path_format(void **state)
{
    (void)state;
    wsel__jpath root = WSEL__JROOT;
    check_path(&root, "$");
    check_path(NULL, "$");
    wsel__jpath ops = wsel__jkey(&root, "ops"), o3 = wsel__jidx(&ops, 3),
                w = wsel__jkey(&o3, "weight");
    check_path(&w, "$.ops[3].weight");
    wsel__jpath m = wsel__jkey(NULL, "members"), vs = wsel__jkey(&m, "/Common/s1:vs1"),
                up = wsel__jkey(&vs, "up");
    check_path(&up, "$.members[\"/Common/s1:vs1\"].up");
    wsel__jpath q = wsel__jkey(&root, "a\"b\\c");
    check_path(&q, "$[\"a\\\"b\\\\c\"]");
    wsel__jpath c = wsel__jkey(&root, "\x01\n\x7f" "x");
    check_path(&c, "$[\"\\u0001\\u000a\\u007fx\"]");
    wsel__jpath u = wsel__jkey(&root, "caf\xc3\xa9");
    check_path(&u, "$[\"caf\xc3\xa9\"]");
    wsel__jpath id = wsel__jkey(&root, "_a-1_B"), dig = wsel__jkey(&id, "1a"),
                dash = wsel__jkey(&dig, "-a"), empty = wsel__jkey(&dash, ""),
                i0 = wsel__jidx(&empty, 0), i12 = wsel__jidx(&i0, 12);
    check_path(&i12, "$._a-1_B[\"1a\"][\"-a\"][\"\"][0][12]");
    wsel__jpath top = wsel__jidx(NULL, 7);
    check_path(&top, "$[7]");
    /* every digit 0-9 after the first character keeps the dotted form */
    wsel__jpath d09 = wsel__jkey(&root, "k0123456789");
    check_path(&d09, "$.k0123456789");
}

static void t_path_cut_short(void **state)
{
    (void)state;
    wsel__jpath root = WSEL__JROOT, ops = wsel__jkey(&root, "ops"), o3 = wsel__jidx(&ops, 3),
                w = wsel__jkey(&o3, "weight");
    char buf[8];
    memset(buf, 'Z', sizeof buf);
    assert_int_equal(wsel__jpath_format(&w, buf, sizeof buf), 15);
    assert_string_equal(buf, "$.ops[3");
    char one[1] = {'Z'};
    assert_int_equal(wsel__jpath_format(&w, one, 1), 15);
    assert_int_equal(one[0], '\0');
    assert_int_equal(wsel__jpath_format(&w, NULL, 0), 15);
    /* a long quoted key cut inside */
    wsel__jpath k = wsel__jkey(&root, "a/b/c/d");
    char six[6];
    assert_int_equal(wsel__jpath_format(&k, six, sizeof six), 12);
    assert_string_equal(six, "$[\"a/");
}

/* ---- failing at a path ---- */

static void t_locate_array_of_objects(void **state)
{
    (void)state;
    /* A decoy string holding "weight" and brackets comes first. */
    static const char text[] = "{\"note\": \"x\\\"weight\\\": [{\",\n"
                               " \"ops\": [\n"
                               "  {\"op\": \"add\", \"weight\": 1},\n"
                               "  {\"op\": \"add\",\n"
                               "   \"weight\": 0.5}\n"
                               "]}\n";
    wsel_error err;
    wsel__json j;
    parse_ok(&j, text, &err);
    wsel__jpath root = WSEL__JROOT, ops = wsel__jkey(&root, "ops"), o1 = wsel__jidx(&ops, 1),
                w = wsel__jkey(&o1, "weight");
    const json_t *v = get(json_array_get(get(j.root, "ops"), 1), "weight");
    long long x;
    assert_int_equal(wsel__json_int(&j, &w, v, 1, 65535, &x), WSEL_E_TYPE);
    /* line 5 "   \"weight\": 0.5}": ' '1-3 "4 weight5-10 "11 :12 ' '13 0 14 */
    check_err(&err, WSEL_E_TYPE, 5, 14,
              "$.ops[1].weight: expected an integer in 1..65535, got 0.5");
    assert_string_equal(err.path, "$.ops[1].weight");
    assert_string_equal(err.key, "weight");
    assert_string_equal(err.file, "t.json");
    assert_int_equal(wsel__json_fail_key(&j, &w, WSEL_E_RANGE, "x%d", 1), WSEL_E_RANGE);
    check_err(&err, WSEL_E_RANGE, 5, 4, "$.ops[1].weight: x1");
    /* ops[0].weight: line 3 "  {\"op\": \"add\", \"weight\": 1},": ' '1-2 {3 "4 op5-6 "7
     * :8 ' '9 "10 add11-13 "14 ,15 ' '16 "17 weight18-23 "24 :25 ' '26 1 27 */
    wsel__jpath o0 = wsel__jidx(&ops, 0), w0 = wsel__jkey(&o0, "weight");
    wsel__json_fail(&j, &w0, WSEL_E_RANGE, "m");
    check_err(&err, WSEL_E_RANGE, 3, 27, "$.ops[0].weight: m");
    wsel__json_fail_key(&j, &w0, WSEL_E_RANGE, "m");
    check_err(&err, WSEL_E_RANGE, 3, 17, NULL);
    /* the array element itself: line 4 "  {": {3; the array: line 2 " \"ops\": [": [9 */
    wsel__json_fail(&j, &o1, WSEL_E_RANGE, "m");
    check_err(&err, WSEL_E_RANGE, 4, 3, "$.ops[1]: m");
    assert_string_equal(err.key, "");
    wsel__json_fail(&j, &ops, WSEL_E_RANGE, "m");
    check_err(&err, WSEL_E_RANGE, 2, 9, NULL);
    wsel__json_fail(&j, &root, WSEL_E_RANGE, "m");
    check_err(&err, WSEL_E_RANGE, 1, 1, "$: m");
    /* not in the text: the deepest part that is (ops[7] -> the array at 2:9) */
    wsel__jpath o7 = wsel__jidx(&ops, 7), w7 = wsel__jkey(&o7, "weight");
    wsel__json_fail(&j, &w7, WSEL_E_RANGE, "m");
    check_err(&err, WSEL_E_RANGE, 2, 9, "$.ops[7].weight: m");
    wsel__json_free(&j);
}

static void t_locate_escaped_keys(void **state)
{
    (void)state;
    /* {1 "2 c3 a4 f5 \6 u7 0 8 0 9 e10 9 11 "12 :13 ' '14 {15 "16 a17 \18 "19 b20 "21
     * :22 ' '23 7 24 */
    static const char text[] = "{\"caf\\u00e9\": {\"a\\\"b\": 7}, "
                               "\"\\ud83d\\ude00\": [true], \"ab\": 1, \"\\u0061\": null}";
    wsel_error err;
    wsel__json j;
    parse_ok(&j, text, &err);
    wsel__jpath root = WSEL__JROOT, cafe = wsel__jkey(&root, "caf\xc3\xa9"),
                ab = wsel__jkey(&cafe, "a\"b");
    bool b;
    assert_int_equal(wsel__json_bool(&j, &ab, get(get(j.root, "caf\xc3\xa9"), "a\"b"), &b),
                     WSEL_E_TYPE);
    check_err(&err, WSEL_E_TYPE, 1, 24,
              "$[\"caf\xc3\xa9\"][\"a\\\"b\"]: expected true or false, got 7");
    assert_string_equal(err.key, "a\"b");
    wsel__json_fail_key(&j, &ab, WSEL_E_SYNTAX, "m");
    check_err(&err, WSEL_E_SYNTAX, 1, 16, NULL);
    /* U+1F600 by a surrogate pair: }25 ,26 ' '27 "28 \ud83d\ude00 29-40 "41 :42 ' '43
     * [44 t45 */
    wsel__jpath smile = wsel__jkey(&root, "\xf0\x9f\x98\x80"), s0 = wsel__jidx(&smile, 0);
    wsel__json_fail(&j, &s0, WSEL_E_TYPE, "m");
    check_err(&err, WSEL_E_TYPE, 1, 45, NULL);
    /* "a" is spelled \u0061, after "ab" (a longer key with the same start): true45-48
     * ]49 ,50 ' '51 "52 a53 b54 "55 :56 ' '57 1 58 ,59 ' '60 "61 \u0061 62-67 "68 :69
     * ' '70 n71 */
    wsel__jpath a = wsel__jkey(&root, "a");
    wsel__json_fail(&j, &a, WSEL_E_TYPE, "m");
    check_err(&err, WSEL_E_TYPE, 1, 71, NULL);
    wsel__json_fail_key(&j, &a, WSEL_E_TYPE, "m");
    check_err(&err, WSEL_E_TYPE, 1, 61, NULL);
    wsel__json_free(&j);
}

static void t_columns_after_utf8(void **state)
{
    (void)state;
    /* {1 "2 s3 "4 :5 ' '6 "7 α8 😀9 α10 "11 ,12 ' '13 "14 x15 "16 :17 ' '18 t19 */
    static const char text[] = "{\"s\": \"\xce\xb1\xf0\x9f\x98\x80\xce\xb1\", \"x\": true}";
    wsel_error err;
    wsel__json j;
    parse_ok(&j, text, &err);
    wsel__jpath root = WSEL__JROOT, x = wsel__jkey(&root, "x");
    long long n;
    assert_int_equal(wsel__json_int(&j, &x, get(j.root, "x"), 0, 9, &n), WSEL_E_TYPE);
    check_err(&err, WSEL_E_TYPE, 1, 19, "$.x: expected an integer in 0..9, got true");
    wsel__json_free(&j);
    unsigned line, col;
    /* bytes {0 "1 s2 "3 :4 ' '5 "6 α7-8 😀9-12 α13-14 "15 ,16: the comma is column 12 */
    wsel__json_linecol(text, strlen(text), 16, &line, &col);
    assert_int_equal(line, 1);
    assert_int_equal(col, 12);
    wsel__json_linecol("a\nbc\n", 5, 4, &line, &col);
    assert_int_equal(line, 2);
    assert_int_equal(col, 3);
    wsel__json_linecol("a\nbc\n", 5, 99, &line, &col); /* clamped: just past the last \n */
    assert_int_equal(line, 3);
    assert_int_equal(col, 1);
}

static void t_fail_without_err(void **state)
{
    (void)state;
    wsel__json j;
    wsel_error err;
    parse_ok(&j, "{}", &err);
    j.err = NULL;
    assert_int_equal(wsel__json_fail(&j, NULL, WSEL_E_RANGE, "x"), WSEL_E_RANGE);
    assert_int_equal(wsel__json_fail(NULL, NULL, WSEL_E_TYPE, "x"), WSEL_E_TYPE);
    long long x = 5;
    assert_int_equal(wsel__json_int(&j, NULL, j.root, 0, 1, &x), WSEL_E_TYPE);
    assert_int_equal(x, 5);
    wsel__json_free(&j);
}

/* ---- typed getters ---- */

/* One member a line: the value of "NAME" on line L is at column strlen(NAME) + 5. */
static const char getters_text[] = "{\n"
                                   "\"b\": 1,\n"          /* 2 */
                                   "\"i\": 0.5,\n"        /* 3 */
                                   "\"r\": 0,\n"          /* 4 */
                                   "\"one\": 1.0,\n"      /* 5 */
                                   "\"big\": 70000,\n"    /* 6 */
                                   "\"neg\": -1,\n"       /* 7 */
                                   "\"s\": 5,\n"          /* 8 */
                                   "\"n\": \"x\",\n"      /* 9 */
                                   "\"f\": 1e300,\n"      /* 10 */
                                   "\"a\": [1, 2, 3],\n"  /* 11 */
                                   "\"o\": {},\n"         /* 12 */
                                   "\"t\": true,\n"       /* 13 */
                                   "\"z\": null\n"        /* 14 */
                                   "}\n";

typedef struct gt {
    wsel__json j;
    wsel_error err;
    wsel__jpath root;
} gt;

static int gt_setup(void **state)
{
    gt *g = calloc(1, sizeof *g);
    assert_non_null(g);
    parse_ok(&g->j, getters_text, &g->err);
    g->root = WSEL__JROOT;
    *state = g;
    return 0;
}

static int gt_teardown(void **state)
{
    gt *g = *state;
    wsel__json_free(&g->j);
    free(g);
    return 0;
}

#define AT(name) wsel__jkey(&g->root, name)
#define VAL(name) get(g->j.root, name)

static void t_get_bool(void **state)
{
    gt *g = *state;
    wsel__jpath p = AT("b"), t = AT("t");
    bool b = false;
    assert_int_equal(wsel__json_bool(&g->j, &p, VAL("b"), &b), WSEL_E_TYPE);
    check_err(&g->err, WSEL_E_TYPE, 2, 6, "$.b: expected true or false, got 1");
    assert_int_equal(wsel__json_bool(&g->j, &t, VAL("t"), &b), 0);
    assert_true(b);
}

static void t_get_int(void **state)
{
    gt *g = *state;
    wsel__jpath i = AT("i"), r = AT("r"), one = AT("one"), big = AT("big"), n = AT("n"),
                z = AT("z");
    long long x = -7;
    assert_int_equal(wsel__json_int(&g->j, &i, VAL("i"), 1, 65535, &x), WSEL_E_TYPE);
    check_err(&g->err, WSEL_E_TYPE, 3, 6, "$.i: expected an integer in 1..65535, got 0.5");
    assert_int_equal(wsel__json_int(&g->j, &r, VAL("r"), 1, 65535, &x), WSEL_E_RANGE);
    check_err(&g->err, WSEL_E_RANGE, 4, 6, "$.r: expected an integer in 1..65535, got 0");
    assert_int_equal(wsel__json_int(&g->j, &one, VAL("one"), 0, 9, &x), WSEL_E_TYPE);
    check_err(&g->err, WSEL_E_TYPE, 5, 8, "$.one: expected an integer in 0..9, got 1.0");
    assert_int_equal(wsel__json_int(&g->j, &n, VAL("n"), 0, LLONG_MAX, &x), WSEL_E_TYPE);
    check_err(&g->err, WSEL_E_TYPE, 9, 6, "$.n: expected an integer >= 0, got a string");
    assert_int_equal(wsel__json_int(&g->j, &z, VAL("z"), LLONG_MIN, 5, &x), WSEL_E_TYPE);
    check_err(&g->err, WSEL_E_TYPE, 14, 6, "$.z: expected an integer <= 5, got null");
    assert_int_equal(wsel__json_int(&g->j, &big, VAL("big"), 0, 69999, &x), WSEL_E_RANGE);
    check_err(&g->err, WSEL_E_RANGE, 6, 8, "$.big: expected an integer in 0..69999, got 70000");
    assert_int_equal(x, -7);
    assert_int_equal(wsel__json_int(&g->j, &big, VAL("big"), 70000, 70000, &x), 0);
    assert_int_equal(x, 70000);
    assert_int_equal(wsel__json_int(&g->j, &big, VAL("big"), LLONG_MIN, LLONG_MAX, &x), 0);
    /* a value that is not there: got nothing, at the object that lacks it (1:1) */
    wsel__jpath none = AT("none");
    assert_int_equal(wsel__json_int(&g->j, &none, NULL, LLONG_MIN, LLONG_MAX, &x), WSEL_E_TYPE);
    check_err(&g->err, WSEL_E_TYPE, 1, 1, "$.none: expected an integer, got nothing");
}

static void t_get_u64(void **state)
{
    gt *g = *state;
    wsel__jpath neg = AT("neg"), n = AT("n"), big = AT("big");
    uint64_t u = 3;
    assert_int_equal(wsel__json_u64(&g->j, &neg, VAL("neg"), &u), WSEL_E_RANGE);
    check_err(&g->err, WSEL_E_RANGE, 7, 8, "$.neg: expected a non-negative integer, got -1");
    assert_int_equal(wsel__json_u64(&g->j, &n, VAL("n"), &u), WSEL_E_TYPE);
    check_err(&g->err, WSEL_E_TYPE, 9, 6, "$.n: expected a non-negative integer, got a string");
    assert_int_equal(u, 3);
    assert_int_equal(wsel__json_u64(&g->j, &big, VAL("big"), &u), 0);
    assert_int_equal(u, 70000);
}

static void t_get_num(void **state)
{
    gt *g = *state;
    wsel__jpath n = AT("n"), f = AT("f"), i = AT("i"), big = AT("big"), r = AT("r");
    double d = -1;
    assert_int_equal(wsel__json_num(&g->j, &n, VAL("n"), 0, 100, &d), WSEL_E_TYPE);
    check_err(&g->err, WSEL_E_TYPE, 9, 6, "$.n: expected a number in 0..100, got a string");
    assert_int_equal(wsel__json_num(&g->j, &f, VAL("f"), 0, 1e15, &d), WSEL_E_RANGE);
    check_err(&g->err, WSEL_E_RANGE, 10, 6, "$.f: expected a number in 0..1e+15, got 1e+300");
    assert_int_equal(wsel__json_num(&g->j, &i, VAL("i"), 0.75, INFINITY, &d), WSEL_E_RANGE);
    check_err(&g->err, WSEL_E_RANGE, 3, 6, "$.i: expected a number >= 0.75, got 0.5");
    assert_int_equal(wsel__json_num(&g->j, &big, VAL("big"), -INFINITY, 0.5, &d), WSEL_E_RANGE);
    check_err(&g->err, WSEL_E_RANGE, 6, 8, "$.big: expected a number <= 0.5, got 70000");
    assert_true(d == -1);
    assert_int_equal(wsel__json_num(&g->j, &i, VAL("i"), 0, 1, &d), 0);
    assert_true(d == 0.5);
    assert_int_equal(wsel__json_num(&g->j, &r, VAL("r"), -INFINITY, INFINITY, &d), 0);
    assert_true(d == 0);
    /* a hand-made non-finite real is out of any range */
    json_t *inf = json_real(INFINITY);
    if (inf) { /* jansson refuses non-finite reals: then there is nothing to test */
        assert_int_equal(wsel__json_num(&g->j, &i, inf, -INFINITY, INFINITY, &d), WSEL_E_RANGE);
        json_decref(inf);
    }
}

static void t_get_str_obj_arr(void **state)
{
    gt *g = *state;
    wsel__jpath s = AT("s"), n = AT("n"), a = AT("a"), o = AT("o");
    const char *str = NULL;
    assert_int_equal(wsel__json_str(&g->j, &s, VAL("s"), &str), WSEL_E_TYPE);
    check_err(&g->err, WSEL_E_TYPE, 8, 6, "$.s: expected a string, got 5");
    assert_null(str);
    assert_int_equal(wsel__json_str(&g->j, &n, VAL("n"), &str), 0);
    assert_string_equal(str, "x");
    json_t *nul = json_stringn("a\0b", 3);
    assert_non_null(nul);
    assert_int_equal(wsel__json_str(&g->j, &n, nul, &str), WSEL_E_RANGE);
    check_err(&g->err, WSEL_E_RANGE, 9, 6, "$.n: expected a string without NUL characters");
    json_decref(nul);

    assert_int_equal(wsel__json_obj(&g->j, &a, VAL("a")), WSEL_E_TYPE);
    check_err(&g->err, WSEL_E_TYPE, 11, 6, "$.a: expected an object, got an array");
    assert_int_equal(wsel__json_obj(&g->j, &o, VAL("o")), 0);

    size_t k = 99;
    assert_int_equal(wsel__json_arr(&g->j, &a, VAL("a"), 2, &k), WSEL_E_LIMIT);
    check_err(&g->err, WSEL_E_LIMIT, 11, 6, "$.a: expected an array of at most 2 elements, got 3");
    assert_int_equal(wsel__json_arr(&g->j, &o, VAL("o"), SIZE_MAX, &k), WSEL_E_TYPE);
    check_err(&g->err, WSEL_E_TYPE, 12, 6, "$.o: expected an array, got an object");
    assert_int_equal(k, 99);
    assert_int_equal(wsel__json_arr(&g->j, &a, VAL("a"), 3, &k), 0);
    assert_int_equal(k, 3);
    assert_int_equal(wsel__json_arr(&g->j, &a, VAL("a"), 3, NULL), 0);
    /* an element: line 11 "\"a\": [1, 2, 3],": [6 1 7 ,8 ' '9 2 10 ,11 ' '12 3 13 */
    wsel__jpath a2 = wsel__jidx(&a, 2);
    bool b;
    assert_int_equal(wsel__json_bool(&g->j, &a2, json_array_get(VAL("a"), 2), &b), WSEL_E_TYPE);
    check_err(&g->err, WSEL_E_TYPE, 11, 13, "$.a[2]: expected true or false, got 3");
}

static void t_member(void **state)
{
    gt *g = *state;
    const json_t *v = NULL;
    assert_int_equal(wsel__json_member(&g->j, &g->root, g->j.root, "big", true, &v), 0);
    assert_ptr_equal(v, VAL("big"));
    assert_int_equal(wsel__json_member(&g->j, &g->root, g->j.root, "zz", false, &v), 0);
    assert_null(v);
    assert_int_equal(wsel__json_member(&g->j, &g->root, g->j.root, "zz", true, &v), WSEL_E_TYPE);
    check_err(&g->err, WSEL_E_TYPE, 1, 1, "$: missing 'zz'");
    assert_string_equal(g->err.key, "zz");
    /* in a nested object: line 12 "\"o\": {}," {6 */
    wsel__jpath o = AT("o");
    assert_int_equal(wsel__json_member(&g->j, &o, VAL("o"), "k", true, &v), WSEL_E_TYPE);
    check_err(&g->err, WSEL_E_TYPE, 12, 6, "$.o: missing 'k'");
}

/* ---- the unknown-key policy ---- */

static void t_unknown_keys(void **state)
{
    (void)state;
    /* line 3 and 4 "    {\"op\": \"add\", \"": ' '1-4 {5 "6 op7-8 "9 :10 ' '11 "12 add13-15
     * "16 ,17 ' '18 "19 */
    static const char text[] = "{\n"
                               "  \"ops\": [\n"
                               "    {\"op\": \"add\", \"wieght\": 5},\n"
                               "    {\"op\": \"add\", \"zzz\": 1, \"Port\": 1}\n"
                               "  ],\n"
                               "  \"A\": {\"x\": 1, \"a\": 2, \"wegt\": 3, \"wgt\": 4}\n"
                               "}\n";
    static const char *const opkeys[] = {"op", "name", "port", "weight", NULL};
    wsel_error err;
    wsel__json j;
    parse_ok(&j, text, &err);
    wsel__jpath root = WSEL__JROOT, ops = wsel__jkey(&root, "ops"), o0 = wsel__jidx(&ops, 0),
                o1 = wsel__jidx(&ops, 1), A = wsel__jkey(&root, "A");
    const json_t *arr = get(j.root, "ops");
    /* a swap of neighbours is one edit */
    assert_int_equal(wsel__json_keys(&j, &o0, json_array_get(arr, 0), opkeys), WSEL_E_SYNTAX);
    check_err(&err, WSEL_E_SYNTAX, 3, 19,
              "$.ops[0].wieght: unknown key 'wieght' (did you mean 'weight'?)");
    assert_string_equal(err.path, "$.ops[0].wieght");
    assert_string_equal(err.key, "wieght");
    /* far from everything: no hint; the first unknown key in the text is the one told */
    assert_int_equal(wsel__json_keys(&j, &o1, json_array_get(arr, 1), opkeys), WSEL_E_SYNTAX);
    check_err(&err, WSEL_E_SYNTAX, 4, 19, "$.ops[1].zzz: unknown key 'zzz'");
    static const char *const with_zzz[] = {"op", "port", "zzz", NULL};
    /* case only: 0 edits ignoring case. line 4: ... "zzz"19-23 :24 ' '25 1 26 ,27 ' '28 "29 */
    assert_int_equal(wsel__json_keys(&j, &o1, json_array_get(arr, 1), with_zzz), WSEL_E_SYNTAX);
    check_err(&err, WSEL_E_SYNTAX, 4, 29,
              "$.ops[1].Port: unknown key 'Port' (did you mean 'port'?)");
    static const char *const all[] = {"op", "zzz", "Port", NULL};
    assert_int_equal(wsel__json_keys(&j, &o1, json_array_get(arr, 1), all), 0);
    /* "x" is 1 edit from "A" but that is all of it: no hint; "a" is 'A' ignoring case;
     * "wegt" is 2 edits from "weight". Line 6 "  \"A\": {\"x\"": ' '1-2 "3 A4 "5
     * :6 ' '7 {8 "9 */
    static const char *const rr[] = {"A", "weight", NULL};
    assert_int_equal(wsel__json_keys(&j, &A, get(j.root, "A"), rr), WSEL_E_SYNTAX);
    check_err(&err, WSEL_E_SYNTAX, 6, 9, "$.A.x: unknown key 'x'");
    static const char *const rx[] = {"A", "weight", "x", NULL};
    assert_int_equal(wsel__json_keys(&j, &A, get(j.root, "A"), rx), WSEL_E_SYNTAX);
    assert_string_equal(err.message, "$.A.a: unknown key 'a' (did you mean 'A'?)");
    static const char *const rxa[] = {"A", "weight", "x", "a", NULL};
    assert_int_equal(wsel__json_keys(&j, &A, get(j.root, "A"), rxa), WSEL_E_SYNTAX);
    assert_string_equal(err.message, "$.A.wegt: unknown key 'wegt' (did you mean 'weight'?)");
    /* "wgt" is 3 edits from "weight", 1 from "wegt" */
    static const char *const rxaw[] = {"A", "weight", "x", "a", "wegt", NULL};
    assert_int_equal(wsel__json_keys(&j, &A, get(j.root, "A"), rxaw), WSEL_E_SYNTAX);
    assert_string_equal(err.message, "$.A.wgt: unknown key 'wgt' (did you mean 'wegt'?)");
    static const char *const rxaw2[] = {"A", "weight", "x", "a", "wegt", "wgt", NULL};
    assert_int_equal(wsel__json_keys(&j, &A, get(j.root, "A"), rxaw2), 0);
    static const char *const top[] = {"ops", NULL};
    assert_int_equal(wsel__json_keys(&j, &root, j.root, top), WSEL_E_SYNTAX);
    check_err(&err, WSEL_E_SYNTAX, 6, 3, "$.A: unknown key 'A'");
    wsel__json_free(&j);
}

static void t_unknown_key_hint_nearest(void **state)
{
    (void)state;
    wsel_error err;
    wsel__json j;
    parse_ok(&j, "{\"portt\": 1}", &err);
    wsel__jpath root = WSEL__JROOT;
    /* "ports" is 1 edit away, "pot" 2: the nearest wins whatever the order */
    static const char *const keys[] = {"pot", "ports", NULL};
    assert_int_equal(wsel__json_keys(&j, &root, j.root, keys), WSEL_E_SYNTAX);
    assert_string_equal(err.message, "$.portt: unknown key 'portt' (did you mean 'ports'?)");
    static const char *const keys2[] = {"ports", "pot", NULL};
    assert_int_equal(wsel__json_keys(&j, &root, j.root, keys2), WSEL_E_SYNTAX);
    assert_string_equal(err.message, "$.portt: unknown key 'portt' (did you mean 'ports'?)");
    /* two swaps of neighbours are 2 edits (4 without swaps) */
    wsel__json_free(&j);
    parse_ok(&j, "{\"ewihgt\": 1}", &err);
    static const char *const w[] = {"port", "weight", NULL};
    assert_int_equal(wsel__json_keys(&j, &root, j.root, w), WSEL_E_SYNTAX);
    assert_string_equal(err.message, "$.ewihgt: unknown key 'ewihgt' (did you mean 'weight'?)");
    wsel__json_free(&j);
    /* two letters left out far apart ('h' of "health", 'o' of "Threshold") are 2 edits:
     * the distance must carry each insertion along the row, not only substitutions */
    parse_ok(&j, "{\"healtThreshld\": 1}", &err);
    static const char *const ht[] = {"hosts", "healthThreshold", NULL};
    assert_int_equal(wsel__json_keys(&j, &root, j.root, ht), WSEL_E_SYNTAX);
    assert_string_equal(err.message,
                        "$.healtThreshld: unknown key 'healtThreshld' (did you mean 'healthThreshold'?)");
    wsel__json_free(&j);
    parse_ok(&j, "{\"portt\": 1}", &err);
    /* 3 edits: no hint */
    static const char *const far[] = {"pt", NULL};
    assert_int_equal(wsel__json_keys(&j, &root, j.root, far), WSEL_E_SYNTAX);
    assert_string_equal(err.message, "$.portt: unknown key 'portt'");
    /* a long unknown key is compared with nothing */
    wsel__json_free(&j);
    char big[200];
    memset(big, 'a', sizeof big);
    memcpy(big, "{\"", 2);
    memcpy(big + sizeof big - 6, "\": 1}", 6);
    parse_ok(&j, big, &err);
    static const char *const ka[] = {"aaa", NULL};
    assert_int_equal(wsel__json_keys(&j, &root, j.root, ka), WSEL_E_SYNTAX);
    assert_null(strstr(err.message, "did you mean"));
    wsel__json_free(&j);
}

/* ---- the locator alone ---- */

static void t_locator_deep(void **state)
{
    (void)state;
    /* 3000 arrays, then {"a": 1}: the key at byte 3001, its value at 3006 */
    size_t n = 3000, len = 2 * n + 8;
    char *t = malloc(len);
    wsel__jpath *p = malloc((n + 2) * sizeof *p);
    assert_non_null(t);
    assert_non_null(p);
    memset(t, '[', n);
    memcpy(t + n, "{\"a\": 1}", 8);
    memset(t + n + 8, ']', n);
    p[0] = WSEL__JROOT;
    for (size_t i = 1; i <= n; i++)
        p[i] = wsel__jidx(&p[i - 1], 0);
    p[n + 1] = wsel__jkey(&p[n], "a");
    size_t off = 0;
    assert_true(wsel__json_locate(t, len, &p[n + 1], false, &off));
    assert_int_equal(off, 3006);
    assert_true(wsel__json_locate(t, len, &p[n + 1], true, &off));
    assert_int_equal(off, 3001);
    unsigned line, col;
    wsel__json_linecol(t, len, off, &line, &col);
    assert_int_equal(line, 1);
    assert_int_equal(col, 3002);
    /* the element after the last one is not there: the deepest array found (byte 2999) */
    wsel__jpath miss = wsel__jidx(&p[n - 1], 1);
    assert_false(wsel__json_locate(t, len, &miss, false, &off));
    assert_int_equal(off, 2999);
    /* the path back from the offset of 1: "$" + 3000 "[0]" + ".a" */
    char buf[64];
    assert_int_equal(wsel__json_path_at(t, len, 3006, buf, sizeof buf), 1 + 3 * n + 2);
    assert_int_equal(strlen(buf), 63);
    assert_memory_equal(buf, "$[0][0][0]", 10);
    char all[9100];
    assert_int_equal(wsel__json_path_at(t, len, 3006, all, sizeof all), 9003);
    assert_string_equal(all + 9000, "].a");
    /* formatting the 3002-node path */
    assert_int_equal(wsel__jpath_format(&p[n + 1], all, sizeof all), 9003);
    assert_string_equal(all + 8995, "[0][0].a");
    free(p);
    free(t);
}

static void t_locator_key_start(void **state)
{
    (void)state;
    /* "a\"" at 0..4 ("1 a2 \3 "4 "5 in columns): closing quote at 4 */
    static const char t1[] = "\"a\\\"\":1";
    assert_int_equal(wsel__json_key_start(t1, strlen(t1), 5), 0);
    /* "a\\" at 3..7 */
    static const char t2[] = "{ \"\"a\\\\\"";
    assert_int_equal(wsel__json_key_start(t2, strlen(t2), 8), 3);
    /* not just past a quote / no opening quote / out of range */
    assert_int_equal(wsel__json_key_start(t1, strlen(t1), 3), SIZE_MAX);
    assert_int_equal(wsel__json_key_start("\\\"", 2, 2), SIZE_MAX);
    assert_int_equal(wsel__json_key_start("\"\"", 2, 3), SIZE_MAX);
    assert_int_equal(wsel__json_key_start("\"\"", 2, 2), 0);
    assert_int_equal(wsel__json_key_start(NULL, 0, 0), SIZE_MAX);
}

static void t_locator_path_at(void **state)
{
    (void)state;
    /* bytes: {0 "1 a2 "3 :4 [5 1 6 ,7 {8 "9 k10 "11 :12 "13 v14 "15 }16 ]17 ,18 "19 b20 "21
     * :22 t23-26 }27 */
    static const char t[] = "{\"a\":[1,{\"k\":\"v\"}],\"b\":true}";
    size_t len = strlen(t);
    char buf[64];
    static const struct {
        size_t off;
        const char *path;
    } cases[] = {
        {0, "$"},          {1, "$"},         {3, "$"},      {4, "$"},       {5, "$.a"},
        {6, "$.a[0]"},     {7, "$.a"},       {8, "$.a[1]"}, {9, "$.a[1]"},  {12, "$.a[1]"},
        {13, "$.a[1].k"},  {15, "$.a[1].k"}, {16, "$.a[1]"}, {17, "$.a"},   {18, "$"},
        {21, "$"},         {23, "$.b"},      {26, "$.b"},   {27, "$"},      {28, "$"},
        {999, "$"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t n = wsel__json_path_at(t, len, cases[i].off, buf, sizeof buf);
        if (strcmp(buf, cases[i].path) != 0 || n != strlen(cases[i].path))
            fail_msg("offset %zu: got %s, want %s", cases[i].off, buf, cases[i].path);
    }
    /* keys written as paths are: {"a b":{"\u00e9\"":[0]}} -> the 0 at byte 20 */
    static const char q[] = "{\"a b\":{\"\\u00e9\\\"\":[0]}}";
    assert_int_equal(q[20], '0');
    wsel__json_path_at(q, strlen(q), 20, buf, sizeof buf);
    assert_string_equal(buf, "$[\"a b\"][\"\xc3\xa9\\\"\"][0]");
    char s[8];
    assert_int_equal(wsel__json_string_at(q, strlen(q), 8, s, sizeof s), 3);
    assert_string_equal(s, "\xc3\xa9\"");
    assert_int_equal(wsel__json_string_at(q, strlen(q), 2, s, sizeof s), 0);
    /* surrogates (RFC 8259 section 7): a high one and a low one are one character (U+1F600:
     * F0 9F 98 80); a surrogate without its partner, which jansson refuses, is written as
     * the three bytes of its code point (ED A0 BD for U+D83D, ED B0 80 for U+DC00; WTF-8)
     * and what follows it is read on its own: a letter, another escape, a \u escape that
     * is not a low surrogate (U+0041 below the range, U+E000 above it), or the end */
    static const struct {
        const char *json, *want;
    } sur[] = {
        {"\"\\ud83d\\ude00\"", "\xf0\x9f\x98\x80"},
        {"\"\\ud83dx\"", "\xed\xa0\xbdx"},
        {"\"\\ud83d\\n\"", "\xed\xa0\xbd\n"},
        {"\"\\ud83d\\u0041\"", "\xed\xa0\xbd" "A"},
        {"\"\\ud83d\\ue000\"", "\xed\xa0\xbd\xee\x80\x80"},
        {"\"\\ud83d\"", "\xed\xa0\xbd"},
        {"\"\\udc00y\"", "\xed\xb0\x80y"},
        /* hex digits in either case (U+00C9 is C3 89); a \u without four hex digits,
         * because one is not hex or the text ends first, is an invalid escape: its letter
         * 'u' is copied and what follows is read on its own */
        {"\"\\u00C9\"", "\xc3\x89"},
        {"\"\\u00c9\"", "\xc3\x89"},
        {"\"\\u0100\"", "\xc4\x80"}, /* a two-byte form whose lead byte is even */
        {"\"\\uFFFD\"", "\xef\xbf\xbd"},
        {"\"\\u00g1\"", "u00g1"},
        {"\"\\u00", "u00"},
        {"\"\\u", "u"},
    };
    for (size_t i = 0; i < sizeof sur / sizeof sur[0]; i++) {
        char o[16];
        size_t n = wsel__json_string_at(sur[i].json, strlen(sur[i].json), 0, o, sizeof o);
        if (strcmp(o, sur[i].want) != 0 || n != strlen(sur[i].want))
            fail_msg("%s: got %zu bytes, want %zu", sur[i].json, n, strlen(sur[i].want));
    }
}

/* Every prefix of a document, and the document with one byte changed, scanned from heap
 * blocks of exactly their size: nothing reads past the end (ASan, valgrind). */
static void t_locator_bounds(void **state)
{
    (void)state;
    static const char doc[] = "{\"a\\\"\":[1,{\"k\\u00e9\":\"v\\\\\"},-2.5e3,null],\n"
                              "\"\\ud83d\\ude00\":{\"x\":[[],{}]},\"t\":true}";
    size_t n = strlen(doc);
    wsel__jpath root = WSEL__JROOT, a = wsel__jkey(&root, "a\""), a1 = wsel__jidx(&a, 1),
                k = wsel__jkey(&a1, "k\xc3\xa9"), sm = wsel__jkey(&root, "\xf0\x9f\x98\x80"),
                x = wsel__jkey(&sm, "x"), x1 = wsel__jidx(&x, 1), t = wsel__jkey(&root, "t");
    const wsel__jpath *paths[] = {&root, &a, &a1, &k, &sm, &x, &x1, &t};
    size_t off, full;
    /* on the whole text every path is found */
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++)
        assert_true(wsel__json_locate(doc, n, paths[i], i % 2, &full));
    static const char junk[] = "\"\\{}[],:u0 a";
    for (size_t cut = 0; cut <= n; cut++) {
        for (size_t j = 0; j <= sizeof junk - 1; j++) {
            char *b = malloc(cut ? cut : 1);
            assert_non_null(b);
            memcpy(b, doc, cut);
            if (j < sizeof junk - 1 && cut)
                b[cut / 2] = junk[j]; /* and one byte changed */
            for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
                wsel__json_locate(b, cut, paths[i], true, &off);
                assert_true(off <= cut);
                wsel__json_locate(b, cut, paths[i], false, &off);
                assert_true(off <= cut);
            }
            char buf[32];
            for (size_t o = 0; o <= cut + 1; o++) {
                wsel__json_path_at(b, cut, o, buf, sizeof buf);
                size_t ks = wsel__json_key_start(b, cut, o);
                assert_true(ks == SIZE_MAX || ks < o);
                wsel__json_string_at(b, cut, o, buf, sizeof buf);
            }
            free(b);
        }
    }
}

/* ---- memory ---- */

static void t_free_zeroed(void **state)
{
    (void)state;
    wsel__json j;
    memset(&j, 0, sizeof j);
    wsel__json_free(&j);
    wsel__json_free(&j);
    wsel__json_free(NULL);
    assert_null(j.root);
}

#ifndef NOMEM_SKIP
/* Allocation k of a parse fails, k = 0, 1, ...: WSEL_E_NOMEM "out of memory" without a
 * position, and nothing left allocated, until a parse meets no failure. (Tokens are kept
 * under 15 bytes: jansson drops a byte of a token silently when its token buffer cannot
 * grow, which no caller can see.) */
static void t_nomem(void **state)
{
    (void)state;
    if (!nomem_injection_works()) {
        print_message("# malloc is replaced (valgrind?): no failure injection, not checked\n");
        return;
    }
    static const char text[] = "{\"ab\": [1, 2.5, \"xy\", true, null, {\"c\": \"d\"}],\n"
                               " \"e\": {}, \"f\": [], \"g\": {\"h\": {\"i\": [\"j\"]}},"
                               " \"k1\": 1, \"k2\": 2, \"k3\": 3, \"k4\": 4, \"k5\": 5,"
                               " \"k6\": 6, \"k7\": 7, \"k8\": 8, \"k9\": 9}";
    wsel__json j;
    wsel_error err;
    parse_ok(&j, text, &err); /* once, so what the C library caches is not counted */
    wsel__json_free(&j);
    long base = live, k, failures = 0;
    for (k = 0; k < 100000; k++) {
        arm(k);
        int rc = wsel__json_parse(&j, "t.json", text, strlen(text), &err);
        int failed = disarm();
        if (!failed) {
            assert_int_equal(rc, 0);
            wsel__json_free(&j);
            break;
        }
        failures++;
        if (rc != WSEL_E_NOMEM)
            fail_msg("allocation %ld failed: status %d \"%s\", want WSEL_E_NOMEM", k, rc,
                     err.message);
        check_err(&err, WSEL_E_NOMEM, 0, 0, "out of memory");
        assert_null(j.root);
        if (live != base)
            fail_msg("allocation %ld failed: %ld blocks left allocated", k, live - base);
    }
    assert_int_equal(live, base);
    print_message("# %ld allocation failures, each WSEL_E_NOMEM\n", failures);
    assert_true(failures > 20);
}
#else
static void t_nomem(void **state)
{
    (void)state;
    print_message("# allocator owned by a sanitizer or not glibc: not checked\n");
}
#endif

/* a test that reads the getters' document (gt_setup) */
#define WITH_DOC(t) cmocka_unit_test_setup_teardown(t, gt_setup, gt_teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_syntax_error),
        cmocka_unit_test(t_top_not_object),
        cmocka_unit_test(t_bad_args),
        cmocka_unit_test(t_depth_limit),
        cmocka_unit_test(t_dup_simple),
        cmocka_unit_test(t_dup_elsewhere),
        cmocka_unit_test(t_dup_long_path),
        cmocka_unit_test(t_dup_escaped),
        cmocka_unit_test(t_dup_multibyte_lines),
        cmocka_unit_test(t_path_format),
        cmocka_unit_test(t_path_cut_short),
        cmocka_unit_test(t_locate_array_of_objects),
        cmocka_unit_test(t_locate_escaped_keys),
        cmocka_unit_test(t_columns_after_utf8),
        cmocka_unit_test(t_fail_without_err),
        WITH_DOC(t_get_bool),
        WITH_DOC(t_get_int),
        cmocka_unit_test_setup_teardown(t_get_u64, gt_setup, gt_teardown),
        WITH_DOC(t_get_num),
        WITH_DOC(t_get_str_obj_arr),
        WITH_DOC(t_member),
        cmocka_unit_test(t_unknown_keys),
        cmocka_unit_test(t_unknown_key_hint_nearest),
        cmocka_unit_test(t_locator_deep),
        cmocka_unit_test(t_locator_key_start),
        cmocka_unit_test(t_locator_path_at),
        cmocka_unit_test(t_locator_bounds),
        cmocka_unit_test(t_free_zeroed),
        cmocka_unit_test(t_nomem),
    };
    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests_name("json", tests, NULL, NULL);
}
