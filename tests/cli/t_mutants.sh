#!/bin/sh
# Tests written for generated mutants that survived the other tests (scripts/mutgen.py,
# `make mutants-sample`; README, *Mutation testing*). Each case names the mutant id it
# kills; expectations come from the man page and doc/ring.md, not from a run.
. "$(dirname "$0")/tap.sh"

# gslb_bad NAME REGEX < CONFIG: `wsel gslb check` refuses the config: exit 1, one line on
# stderr, FILE:LINE:COL: OBJECT: MESSAGE matching REGEX (doc/gslb.md, *Errors*).
gslb_bad() {
    cat >"$TMP/gtm.conf"
    run gslb check "$TMP/gtm.conf"
    [ "$RC" -eq 1 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -Eq -- "$2" "$TMP/err"; r=$?
    [ $r -eq 0 ] || echo "# exit $RC: $(head -c 300 "$TMP/err")"
    ok $r "$1"
}
SRV='gtm server /Common/s1 { datacenter /Common/DC1 product bigip virtual-servers { v1 { destination 10.0.0.1:80 } } }'

# core/gslb/gslb_parse.c@2f69ecf195:const:1:2:1 -- a duplicate object of one kind is a parse
# error for each kind (doc/gslb.md: "duplicate object of one kind"); a pool named with and
# without /Common/ is the same pool (A-2).
gslb_bad "duplicate pool" "gtm.conf:3:12: gtm pool a /Common/p: duplicate gtm pool a '/Common/p'" <<EOF
$SRV
gtm pool a p { members { s1:v1 } }
gtm pool a /Common/p { members { s1:v1 } }
gtm wideip a w { pools { p } }
EOF
gslb_bad "duplicate server" "gtm.conf:2:.*duplicate gtm server '/Common/s1'" <<EOF
$SRV
$SRV
gtm pool a p { members { s1:v1 } }
gtm wideip a w { pools { p } }
EOF
gslb_bad "duplicate region" "gtm.conf:4:.*duplicate gtm region '/Common/r'" <<EOF
$SRV
gtm pool a p { members { s1:v1 } }
gtm region /Common/r { region-members { continent EU { } } }
gtm region r { region-members { continent NA { } } }
gtm wideip a w { pools { p } }
EOF

# in_bad SED NAME REGEX: the example's inputs edited by SED are refused by `gslb resolve`:
# exit 2, one line, FILE:LINE:COL: KEY: MESSAGE (doc/gslb.md, inputs file).
GEX="$EXAMPLES/gslb"
in_bad() {
    sed "$1" "$GEX/inputs.json" >"$TMP/in.json"
    run gslb resolve "$GEX/bigip_gtm.conf" www.example.com --inputs "$TMP/in.json"
    one_line_error "$2: exit 2, one line"
    has "$TMP/err" "$3" "$2: the message names the key"
}
# core/gslb/gslb_inputs.c@4a2d8a745a+3:guard:... -- a geo attribute must be a string or null
in_bad 's/"country": "DE"/"country": 5/' "geo country given as a number" \
    "in\\.json:11:[0-9]+: \\\$\\.geo\\[\"203\\.0\\.113\\.7\"\\]\\.country: expected a string or null"
in_bad 's/"isp": null/"isp": ["x"]/' "geo isp given as an array" "\\\$\\.geo\\[\"203\\.0\\.113\\.7\"\\]\\.isp: expected a string or null"
# core/gslb/gslb_inputs.c@2bdef3f092+2:guard:... -- state.wideip must be an object (an array
# would otherwise read as "no state")
in_bad 's/"wideip": {}/"wideip": []/' "state.wideip given as an array" "\\\$\\.state\\.wideip: expected an object, got an array"
in_bad 's/"wideip": {}/"wideip": "w"/' "state.wideip given as a string" "\\\$\\.state\\.wideip: expected an object, got a string"

# core/gslb/gslb_parse.c@fde390e18c+3:guard:... -- topology records of equal specificity are
# evaluated by `order`, then text order (doc/gslb.md A-35): the first record for p_dc1 by
# order scores 5, so p_dc2 (50) wins although p_dc1's first record in the text scores 100.
sed -e '/^gtm topology/d' "$GEX/bigip_gtm.conf" >"$TMP/topo.conf"
cat >>"$TMP/topo.conf" <<EOF
gtm topology ldns: subnet 0.0.0.0/0 server: pool /Common/p_dc1 { order 3 score 100 }
gtm topology ldns: subnet 0.0.0.0/0 server: pool /Common/p_dc1 { order 1 score 5 }
gtm topology ldns: subnet 0.0.0.0/0 server: pool /Common/p_dc2 { order 2 score 50 }
EOF
run gslb resolve "$TMP/topo.conf" www.example.com --inputs "$GEX/inputs.json" -n 1 --json
is_rc 0 "topology by order: resolves"
jqok '.queries[0].pool == "/Common/p_dc2" and (.queries[0].log[] | select(.event == "pool-selection") | .score) == "50"' \
    "topology records by order, not text order: p_dc2 with score 50"

# cli/weighted/weighted_stateopt.c@9d199c8c3d+3:stmt:wsel_state_free(st);:;:1 -- a refused --down/--up
# leaks nothing: exit 2.
long=$(awk 'BEGIN { while (n++ < 400) printf "a" }')
vg 2 "explain --down a/b: refused (exit 2) without a leak" \
    explain "$EXAMPLES/synopsis.conf" corpwww --down "a/b"
vg 2 "explain --down (400 bytes): refused (exit 2) without a leak" \
    explain "$EXAMPLES/synopsis.conf" corpwww --down "$long"

# ref/gslb/gslb_decide.c@3a25cd84eb:stmt:free(st->w_mark);:;:1 -- a GSLB run frees all it took:
# resolve with the bundled example and inputs, and check and explain.
vg 0 "gslb resolve example -n 3: clean, no leak" \
    gslb resolve "$EXAMPLES/gslb/bigip_gtm.conf" www.example.com --inputs "$EXAMPLES/gslb/inputs.json" -n 3 --json
vg 1 "gslb check example (exit 1: G001): clean, no leak" gslb check "$EXAMPLES/gslb/bigip_gtm.conf"
vg 0 "gslb explain example: clean, no leak" gslb explain "$EXAMPLES/gslb/bigip_gtm.conf"

# core/gslb/gslb_inputs.c@6b95012d64:const:0:1:1 -- the ranges of a ratio entry in the inputs'
# state (doc/gslb.md section 3, the man page's inputs): w 0..2^32-1 and cur -2^52..2^52,
# both ends accepted, one past either end refused with exit 2 naming file, position and
# entry.
ratio_in() { # W CUR: inputs with the three members up and p_ratio's counters
    printf '{"members": {"s1:v1": {"up": true}, "s1:v2": {"up": true}, "s1:v3": {"up": true}}, "state": {"pool": {"/Common/p_ratio": {"preferred": {"rr": -1, "ratio": {"s1:v1": {"w": %s, "cur": %s}, "s1:v2": {"w": 1, "cur": 0}, "s1:v3": {"w": 2, "cur": 0}}}}}}}\n' "$1" "$2" >"$TMP/ratio.json"
}
GR="$DATA/../../data/gslb/rr.conf"
for wc in "0 0" "4294967295 0" "3 4503599627370496" "3 -4503599627370496"; do
    # shellcheck disable=SC2086
    ratio_in $wc
    run gslb resolve "$GR" ratio.example.com --inputs "$TMP/ratio.json" -n 1 --json
    [ "$RC" -eq 0 ] && [ ! -s "$TMP/err" ]; r=$?
    [ $r -eq 0 ] || echo "# exit $RC: $(head -c 300 "$TMP/err")"
    ok $r "ratio entry w, cur = $wc: accepted"
done
for wc in "-1 0" "4294967296 0" "3 4503599627370497" "3 -4503599627370497"; do
    # shellcheck disable=SC2086
    ratio_in $wc
    run gslb resolve "$GR" ratio.example.com --inputs "$TMP/ratio.json" -n 1 --json
    [ "$RC" -eq 2 ] && [ ! -s "$TMP/out" ] && grep -Eq "ratio\.json:1:[0-9]+: \\\$\.state\.pool\[\"/Common/p_ratio\"\]\.preferred\.ratio\[\"s1:v1\"\]\.(w: expected an integer in 0\.\.4294967295|cur: expected an integer in -4503599627370496\.\.4503599627370496), got " "$TMP/err"; r=$?
    [ $r -eq 0 ] || echo "# exit $RC: $(head -c 300 "$TMP/err")"
    ok $r "ratio entry w, cur = $wc: refused, exit 2"
done

# cli/util.c@ab7ab03215:const:0:1:1 -- an input the command reads that has an error at a
# place exits 2 with the place first, FILE:LINE:COL: PATH: message, and no "wsel: CMD: "
# before it (wsel(1), gslb resolve --inputs), whatever the file's name: here one letter.
printf '%s\n' '{"members": 5}' >"$TMP/i"
cd "$TMP" || exit 1
run gslb resolve "$GR" ratio.example.com --inputs i
cd - >/dev/null || exit 1
fails_with 2 "i:1:13: \$.members: expected an object, got 5" "inputs file named 'i': its place first"
grep -q '^i:1:13: ' "$TMP/err"
ok $? "inputs file named 'i': no command prefix"

done_testing
