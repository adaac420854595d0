#!/bin/sh
# wsel check: each warning of man/wsel.1 (check) fires on a config that has the mistake,
# and stays silent on the nearest config that does not. Every case is a stanza-only
# config with exactly the one mistake (or none): the warning count is asserted too, so a
# warning that fires too widely fails the silent case.
. "$(dirname "$0")/tap.sh"

# case NAME EXPECTED_WARNINGS REGEX CONFIG_TEXT [ZONE_TEXT]: checks the config (and the
# zone, for zone example.com.) and asserts the number of warnings and, when one is
# expected, that a warning matches REGEX.
case_() {
    printf '%s\n' "$4" >"$TMP/c.conf"
    set -- "$1" "$2" "$3" "$4" "${5-}"
    if [ -n "$5" ]; then
        printf '%s\n' "$5" >"$TMP/z.zone"
        run check "$TMP/c.conf" --stanza --zone "$TMP/z.zone" example.com. --json
    else
        run check "$TMP/c.conf" --stanza --json
    fi
    jqok ".valid and (.warnings | length) == $2" "$1: valid, $2 warning(s)"
    if [ "$2" -gt 0 ]; then
        jq -e --arg re "$3" '[.warnings[] | .message | test($re)] | any' "$TMP/out" >/dev/null
        r=$?
        [ $r -eq 0 ] || echo "# warnings: $(jq -c '[.warnings[].message]' "$TMP/out")"
        ok $r "$1: the warning says /$3/"
    fi
}

M='service_types = mon'

# 1. a label within edit distance 2 of a parameter name (case-insensitive)
case_ "label up_tresh (distance 1)" 1 "up_tresh.*up_thresh" \
    "r => { up_tresh => [ 192.0.2.1, 1 ] }"
case_ "label MULTI_ (distance 1, any case)" 1 "looks like a misspelling of the parameter 'multi'" \
    "r => { MULTI_ => [ 192.0.2.1, 1 ] }"
case_ "label adrs_v4x (distance 2)" 1 "addrs_v4" \
    "r => { adrs_v4x => [ 192.0.2.1, 1 ] }"
case_ "label muxxxi (distance 3): silent" 0 "" \
    "r => { muxxxi => [ 192.0.2.1, 1 ] }"

# 2. an item answered with probability below 1e-6 with everything UP
case_ "1/1048576 < 1e-6" 1 "probability 9\\.5" \
    "r => { a => [ 192.0.2.1, 1 ], b => [ 192.0.2.2, 1048575 ] }"
case_ "1/1000000 = 1e-6: silent" 0 "" \
    "r => { a => [ 192.0.2.1, 1 ], b => [ 192.0.2.2, 999999 ] }"

# 3. up_thresh that only fails over when every item is DOWN: threshold <= smallest weight
case_ "threshold 10 <= smallest 10" 1 "threshold 10 <= smallest weight 10" \
    "$M
r => { a => [ 192.0.2.1, 10 ], b => [ 192.0.2.2, 10 ] }"
case_ "threshold 11 > smallest 10 and not > T - smallest = 11: silent" 0 "" \
    "$M
r => { a => [ 192.0.2.1, 10 ], b => [ 192.0.2.2, 11 ] }"
case_ "one item: silent" 0 "" \
    "$M
r => { a => [ 192.0.2.1, 10 ] }"
case_ "service type up: silent" 0 "" \
    "r => { a => [ 192.0.2.1, 10 ], b => [ 192.0.2.2, 10 ] }"

# 4. up_thresh that fails over on any single DOWN item: threshold > T - smallest weight
case_ "threshold 20 > T - smallest = 10" 1 "threshold 20 > T - smallest weight = 20 - 10" \
    "$M
up_thresh = 1
r => { a => [ 192.0.2.1, 10 ], b => [ 192.0.2.2, 10 ] }"
case_ "threshold 16 > 20 - 5 at up_thresh 0.8 with 5 + 15" 1 "threshold 16 > T - smallest weight = 20 - 5" \
    "$M
up_thresh = 0.8
r => { a => [ 192.0.2.1, 5 ], b => [ 192.0.2.2, 15 ] }"
case_ "threshold 15 = T - smallest: silent" 0 "" \
    "$M
up_thresh = 0.75
r => { a => [ 192.0.2.1, 5 ], b => [ 192.0.2.2, 15 ] }"

# 4b. a set monitored by the built-in down type always fails over
case_ "service type down" 1 "down" \
    "r => { service_types => down, a => [ 192.0.2.1, 10 ], b => [ 192.0.2.2, 11 ] }"

# 5. the same address (canonical form) or CNAME twice in one set
case_ "2001:db8::1 and 2001:DB8:0::1" 1 "'2001:db8::1' appears 2 times" \
    "r => { a => [ 2001:db8::1, 1 ], b => [ 2001:DB8:0::1, 1 ] }"
case_ "CNAME twice, letter case aside" 1 "appears 2 times" \
    "r => { a => [ x.example.net., 1 ], b => [ X.Example.NET., 1 ] }"
case_ "the same address in two resources: silent" 0 "" \
    "r => { a => [ 192.0.2.1, 1 ] }
s => { a => [ 192.0.2.1, 1 ] }"

# 6. a weighted stanza without resources
case_ "no resources" 1 "resource" \
    "up_thresh = 0.5"
case_ "one resource: silent" 0 "" \
    "up_thresh = 0.5
r => { a => [ 192.0.2.1, 1 ] }"

# 7. an IPv4 address in an inet_aton spelling
case_ "127.1" 1 "127\\.1" \
    "r => { a => [ 127.1, 1 ] }"
case_ "0x7f.0.0.1" 1 "0x7f\\.0\\.0\\.1" \
    "r => { a => [ 0x7f.0.0.1, 1 ] }"
case_ "127.0.0.1: silent" 0 "" \
    "r => { a => [ 127.0.0.1, 1 ] }"

# 8. a CNAME holding a space, control or non-ASCII byte
case_ "CNAME with a space" 1 "" \
    "r => { a => [ \"a b.example.net.\", 1 ] }"
case_ "CNAME with a control byte" 1 "" \
    "r => { a => [ \"a\\001b.example.net.\", 1 ] }"
case_ "plain CNAME: silent" 0 "" \
    "r => { a => [ ab.example.net., 1 ] }"
case_ "CNAME with DEL (byte 127, the first past the printable ones)" 1 "byte .127 in label 1" \
    "r => { a => [ \"a\\127b.example.net.\", 1 ] }"
case_ "CNAME with ! and ~ (the printable bounds): silent" 0 "" \
    "r => { a => [ \"a!b~c.example.net.\", 1 ] }"

# 9. a parameter no set reads whose value would be an error where read
case_ "top up_thresh 2, overridden by every resource" 1 "up_thresh" \
    "up_thresh = 2
r => { up_thresh = 0.5, a => [ 192.0.2.1, 1 ] }"
case_ "top up_thresh 0.7, overridden: silent" 0 "" \
    "up_thresh = 0.7
r => { up_thresh = 0.5, a => [ 192.0.2.1, 1 ] }"
case_ "multi = maybe in a CNAME resource" 1 "multi" \
    "r => { multi = maybe, a => [ x.example.net., 1 ] }"
case_ "multi = true in a CNAME resource: silent" 0 "" \
    "r => { multi = true, a => [ x.example.net., 1 ] }"

# 10. a DYNC record naming an address resource
case_ "DYNC naming an address resource" 1 "DYNC weighted!r names an address resource" \
    "r => { a => [ 192.0.2.1, 1 ] }" "www 300 DYNC weighted!r"
case_ "DYNA naming it: silent" 0 "" \
    "r => { a => [ 192.0.2.1, 1 ] }" "www 300 DYNA weighted!r"

# --strict makes a warning an error
printf 'r => { a => [ 127.1, 1 ] }\n' >"$TMP/c.conf"
run check "$TMP/c.conf" --stanza --strict
is_rc 1 "--strict: a warning is an error"

done_testing
