#!/bin/sh
# bin/wsel check --zone: how a zone file's lines become records (tests/cli/data/
# tokens.zone with tests/cli/data/clean.conf): quoted and backslash-escaped text is one
# token (a DYNA inside it is no record), TTLs with unit suffixes in either case, an
# owner-less line, a record spread over lines by parentheses, an unclosed '(', and the
# errors of a malformed DYNA line at the offending token's line and column (counted by
# hand from the file).
. "$(dirname "$0")/tap.sh"
Z="$DATA/tokens.zone"
run check "$DATA/clean.conf" --zone "$Z" example.com.
is_rc 1 "tokens.zone: invalid"
has "$TMP/out" '^zone records: 4 weighted records checked$' "four weighted records: 1h30m, 2W owner-less, the parenthesised one, the unclosed one"
has "$TMP/out" '^INVALID: 5 errors, 0 warnings$' "five errors"
grep -q 'tokens\.zone:[34]:' "$TMP/err"; [ $? -ne 0 ]; ok $? "a DYNA inside quotes or escaped blanks is text, not a record"
grep -q 'tokens\.zone:[56]:' "$TMP/err"; [ $? -ne 0 ]; ok $? "TTL 1h30m and an owner-less line with 2W are accepted"
has "$TMP/err" "tokens\\.zone:7:14: expected a TTL or class IN before DYNA, got 'XX'" "an unknown class: at the token"
has "$TMP/err" 'tokens\.zone:8:13: DYNA record without PLUGIN!RESOURCE' "DYNA with nothing after it"
has "$TMP/err" "tokens\\.zone:9:15: DYNA record: expected weighted!RESOURCE, got 'weighted'" "weighted without a resource"
has "$TMP/err" "tokens\\.zone:11:26: DYNA weighted!nosuch2: resource 'nosuch2' is not defined" "a record over two lines: the error on the second, at the resource name"
has "$TMP/err" "tokens\\.zone:12:1: '\\(' of the record at line 12 is never closed" "an unclosed parenthesis"
# the same in JSON: the five are errors, none a warning (the unknown class too)
run check "$DATA/clean.conf" --zone "$Z" example.com. --json
is_rc 1 "tokens.zone --json: invalid"
jqok '(.errors | length) == 5 and (.warnings | length) == 0' "--json: five errors, no warning"
jqok 'any(.errors[]; .line == 7 and .col == 14 and (.message | test("got .XX.")))' "--json: the unknown class is an error"
done_testing
