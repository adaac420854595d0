#!/bin/sh
# bin/wsel ring run: a scenario value of the wrong kind exits 1 with one line
# FILE:LINE:COL: PATH: message at the value (doc/ring.md section 11); the column is where
# the offending text starts in the one-line scenario (awk's index, not a run). A host
# given as a bare name string is accepted (man/wsel.1, RING SCENARIO).
. "$(dirname "$0")/tap.sh"
bad_sc() { # bad_sc JSON NEEDLE PATH MESSAGE-FIXED-TEXT NAME
    printf '%s\n' "$1" >"$TMP/s.json"
    col=$(awk -v s="$1" -v n="$2" 'BEGIN { print index(s, n) }')
    run ring run "$TMP/s.json" --json
    want="s.json:1:$col: $3: $4"
    fails_with 1 "$want" "$5"
}
bad_sc '{"hosts": [{"name": ""}]}' '""' '$.hosts[0].name' 'expected a non-empty string of at most 253 bytes' "an empty host name"
bad_sc '{"hosts": [{"name": 5}]}' '5' '$.hosts[0].name' 'expected a non-empty string of at most 253 bytes' "a host name that is a number"
bad_sc '{"hosts": [""]}' '""' '$.hosts[0]' 'expected a non-empty host name of at most 253 bytes' "an empty bare host name"
bad_sc '{"hosts": [5]}' '5' '$.hosts[0]' 'expected a host name or {name, port, weight}' "a host that is neither name nor object"
bad_sc '{"dns": {"a.test": {"fail": 5}}}' '5' '$.dns["a.test"].fail' 'expected "nxdomain", "servfail" or "timeout"' "a failure kind that is no string"
bad_sc '{"dns": {"": {"A": [{"address": "10.0.0.1"}]}}}' '""' '$.dns[""]' 'expected a name of 1..253 bytes' "an empty DNS name"
bad_sc '{"dns": {"a.test": {"A": [{"address": "banana"}]}}}' '"banana"' '$.dns["a.test"].A[0].address' "'banana' is not an IPv4 address" "an A record that is no address"
bad_sc '{"ops": [{"op": "status", "ip": "10.0.0.1", "available": "no"}]}' '"no"' '$.ops[0].available' 'expected true or false, got a string' "status: availability as text"
bad_sc '{"ops": [{"op": "status", "ip": "10.0.0.1", "port": 0, "available": false}]}' '0,' '$.ops[0].port' 'expected an integer in 1..65535, got 0' "status: port 0"
bad_sc '{"ops": [{"op": "status", "ip": "10.0.0.1", "hostname": 7, "available": false}]}' '7' '$.ops[0].hostname' 'expected a non-empty string of at most 253 bytes' "status: a host name that is a number"
bad_sc '{"ops": [{"op": "advance", "seconds": -1}]}' '-1' '$.ops[0].seconds' 'expected a number in 0..1000000000, got -1' "advance: negative seconds"
bad_sc '{"ops": [{"op": "peers", "floats": [-0.5]}]}' '-0.5' '$.ops[0].floats[0]' 'expected a number in [0,1)' "peers: a negative float key"
bad_sc '{"order": "x"}' '"x"' '$.order' 'expected an array of at most 16777216 elements, got a string' "order that is no array"
bad_sc '{"wheelSize": 2, "order": [1, "two"]}' '"two"' '$.order[1]' 'expected a number, got a string' "order with a string"

printf '{"wheelSize": 4, "hosts": ["10.0.0.1", "10.0.0.2"], "ops": [{"op": "snapshot"}]}\n' >"$TMP/s.json"
run ring run "$TMP/s.json" --json
is_rc 0 "hosts as bare names: accepted"
jqok '[.initial.addresses[] | [.address, .weight, (.slots | length)]] == [["10.0.0.1:80",10,2],["10.0.0.2:80",10,2]]' "bare names: port 80, weight 10, two slots each"
done_testing
