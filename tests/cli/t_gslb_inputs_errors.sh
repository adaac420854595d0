#!/bin/sh
# bin/wsel gslb resolve --inputs: a wrong value in the inputs JSON exits 2 with one line
# FILE:LINE:COL: PATH: message (doc/gslb.md section 3), at the value at fault; for a name
# that names nothing configured, at the name. Each case is one line of JSON; the column
# expected is where the offending text starts in it (found here with awk's index, not
# taken from a run).
. "$(dirname "$0")/tap.sh"
RR="$DATA/../../data/gslb/rr.conf"
bad_in() { # bad_in JSON NEEDLE PATH MESSAGE-FIXED-TEXT NAME
    printf '%s\n' "$1" >"$TMP/in.json"
    col=$(awk -v s="$1" -v n="$2" 'BEGIN { print index(s, n) }')
    run gslb resolve "$RR" rr.example.com --inputs "$TMP/in.json"
    want="in.json:1:$col: $3: $4"
    fails_with 2 "$want" "$5"
}
P='"key": "10.0.0.0/8", "pool": "/Common/p_rr", "member": "s1:v1"'
bad_in '{"members": {"s1:v1": {"up": true, "rtt_us": "fast"}}}' '"fast"' '$.members["s1:v1"].rtt_us' 'expected a number in 0..1e+15 or null' "a metric that is text"
bad_in '{"persistence": [{"wideip": "nosuch", '"$P"', "expires": 5}]}' '"nosuch"' '$.persistence[0].wideip' "'nosuch' names no configured wide IP" "persistence: an unknown wide IP"
bad_in '{"persistence": [{"wideip": 5, '"$P"', "expires": 5}]}' '5,' '$.persistence[0].wideip' 'expected a string, got 5' "persistence: a wide IP that is no string"
bad_in '{"persistence": [{"wideip": "rr.example.com", "key": "10.0.0.0/99", "pool": "/Common/p_rr", "member": "s1:v1", "expires": 5}]}' '"10.0.0.0/99"' '$.persistence[0].key' "'10.0.0.0/99' is not ADDRESS/LENGTH" "persistence: a prefix too long"
bad_in '{"persistence": [{"wideip": "rr.example.com", "key": "10.0.0.0/8", "pool": "/Common/nosuch", "member": "s1:v1", "expires": 5}]}' '"/Common/nosuch"' '$.persistence[0].pool' "'/Common/nosuch' names no configured pool" "persistence: an unknown pool"
bad_in '{"persistence": [{"wideip": "rr.example.com", '"$P"', "expires": -1}]}' '-1' '$.persistence[0].expires' 'expected a non-negative integer, got -1' "persistence: a negative expiry"
bad_in '{"state": {"wideip": {"nosuch": {}}}}' '"nosuch"' '$.state.wideip.nosuch' 'names no configured wide IP' "state: an unknown wide IP"
bad_in '{"state": {"pool": {"/Common/p_rr": {"sideways": {}}}}}' '"sideways"' '$.state.pool["/Common/p_rr"].sideways' "unknown key 'sideways'" "state: a step that is none of preferred, alternate, fallback"
bad_in '{"geo": 5}' '5' '$.geo' 'expected an object, got 5' "geo that is no object"
bad_in '{"query": {"name": 5}}' '5' '$.query.name' 'expected a string, got 5' "a query name that is no string"
bad_in '{"query": {"ldns": "10.0.0.1/8"}}' '"10.0.0.1/8"' '$.query.ldns' "'10.0.0.1/8' is not an IPv4/IPv6 address" "an LDNS with a prefix"

# null is "not acquired" for a metric and "none" for ECS: accepted
printf '{"members": {"s1:v1": {"up": true, "rtt_us": null}}, "query": {"ecs": null}}\n' >"$TMP/in.json"
run gslb resolve "$RR" rr.example.com --inputs "$TMP/in.json"
is_rc 0 "null metric and null ECS are accepted"
done_testing
