#!/bin/sh
# bin/wsel ring: run, show, diff over scenario files (tests/data/ring, examples/ring).
# Expected values are the known answers of doc/ring.md section 12, not the tool's output.
. "$(dirname "$0")/tap.sh"
R="$DATA/../../data/ring"
EX="$EXAMPLES/ring"

# -- section 3: the default order lists. A lone host takes every slot from the top of the
#    free stack, so its slot list is the order list reversed.
run ring run "$R/order3.json" --json;  jqok '.initial.addresses[0].slots | reverse == [1,2,3]' "order list N=3"
run ring run "$R/order10.json" --json; jqok '.initial.addresses[0].slots | reverse == [2,4,7,6,3,8,9,5,10,1]' "order list N=10"
run ring run "$R/order15.json" --json; jqok '.initial.addresses[0].slots | reverse == [2,6,11,8,4,12,9,5,15,13,10,14,1,3,7]' "order list N=15"
run ring run "$R/order19.json" --json; jqok '.initial.addresses[0].slots | reverse == [3,8,14,10,5,13,11,6,19,17,12,18,15,4,7,16,9,1,2]' "order list N=19"
run ring run "$R/order1000.json" --json
jqok '.initial.addresses[0].slots | reverse | .[0:20] == [120,374,698,504,258,684,552,312,986,857,542,912,776,200,177,500,467,189,411,570]' "order list N=1000, first 20"
jqok '.initial.addresses[0].slots | reverse | .[995:] == [294,295,298,299,307]' "order list N=1000, last 5"

# -- section 5: layouts K1-K6
run ring run "$R/k1.json" --json
jqok '.initial.addresses | map({(.address): .slots}) | add == {"1.2.3.4:80": [1,10,5,9,8], "1.2.3.5:80": [3,6,7,4,2]}' "K1"
run ring run "$EX/k2.json" --json
jqok '.results[2].addresses | map({(.address): .slots}) | add == {"1.2.3.4:80": [1,10], "1.2.3.5:80": [3,6], "[::1]:8080": [7,4,2,5,9,8]}' "K2 after addHost"
jqok '.results[4].addresses | map({(.address): .slots}) | add == {"1.2.3.4:80": [1,10,7,4,2], "1.2.3.5:80": [3,6,5,9,8]}' "K2 after removeHost"
run ring run "$R/k3.json" --json
jqok '.initial.addresses | map({(.address|sub(":80$";"")): .slots}) | add == {"1.2.3.1": [2], "1.2.3.10": [1,9], "1.2.3.2": [16,7], "1.2.3.3": [4,15], "1.2.3.4": [18,12], "1.2.3.5": [17,19], "1.2.3.6": [6,11], "1.2.3.7": [13,5], "1.2.3.8": [10,14], "1.2.3.9": [8,3]}' "K3"
jqok '[.initial.addresses[].address] | .[0:3] == ["1.2.3.1:80","1.2.3.10:80","1.2.3.2:80"]' "K3: addresses sorted byte-wise"
run ring run "$EX/k4.json" --json
jqok '.initial.addresses | map({(.address): .slots}) | add == {"5.6.7.8:321": [7,3,1,14,10], "1.2.3.4:123": [13,15,5,9,12,4,8,11,6,2]}' "K4 slots"
jqok '[.initial.wheel[] | if . == "5.6.7.8:321" then "G" else "M" end] | join("") == "GMGMMMGMMGMMMGM"' "K4 owners of slots 1..15"
jqok '[.results[0].picks[] | select(. == "1.2.3.4:123")] | length == 20' "K4: 30 round-robin picks give 20 x 1.2.3.4"
jqok '[.results[0].picks[] | select(. == "5.6.7.8:321")] | length == 10' "K4: and 10 x 5.6.7.8"
jqok '[.results[1].peers[] | select(. == "1.2.3.4:123")] | length == 10' "K4: hashes 1..15 give 10 x 1.2.3.4 and 5 x 5.6.7.8"
jqok '.results[3].peers == ["1.2.3.4:123","1.2.3.4:123","1.2.3.4:123"]' "unavailable host: its keys fall through"
jqok '.results[5].addresses[0].slots == [7,3,1,14,10] and .results[5].addresses[0].available == false and .results[5].unavailableWeight == 50' "unavailable host keeps its slots"
run ring run "$R/k5big.json" --json
jqok '[.results[2].addresses[].slots | length] == [500,500,1000]' "K5: 500/500/1000 at N=2000"
run ring run "$R/k5.json" --json
jqok '[.results[2].addresses[].slots | length] == [20,20,20]' "K5: 20/20/20 at N=60"
jqok '[.results[4].addresses[].slots | length] == [25,25,10]' "K5: weight 25 -> 25/25/10"
run ring diff "$R/k5.json" --json
jqok '.changes[2].moved == 10 and ([.changes[2].slots[].from] | unique) == ["[::1]:80"]' "K5: 10 slots move, all from ::1"
run ring run "$R/k6.json" --json
jqok '.results[4].wheel == .results[2].wheel' "K6: an identical record moves nothing"
jqok '[.results[4].wheel, .results[6].wheel] | transpose | all(if .[0] == "1.2.3.4:80" then .[1] == "1.2.3.6:80" else .[0] == .[1] end)' "K6: {.4,.5} -> {.5,.6} gives .4's slots to .6"
jqok '[.results[6].wheel, .results[8].wheel] | transpose | all(if .[0] == "1.2.3.5:80" then .[1] == "1.2.3.7:80" elif .[0] == "1.2.3.6:80" then .[1] == "1.2.3.6:80" else .[0] == .[1] end)' "K6: {.5,.6} -> {.6,.7} keeps .6, gives .5's slots to .7"
jqok '[.results[10].wheel, .results[12].wheel] | transpose | all(if .[0] == "[::2]:80" then .[1] == "1.2.3.4:80" elif .[0] == "[::1]:80" then .[1] == "1.2.3.5:80" else .[0] == .[1] end)' "K6: AAAA {::1,::2} -> A {.4,.5}: ::2's slots to .4, ::1's to .5"

run ring run "$R/epsilon.json" --json
jqok '[.initial.addresses[].slots | length] == [15,7]' "22 * (15/22) is 14.999999999999998 in doubles: + 0.0001 makes it 15"

# -- section 8: counterexamples C1-C4 (diff reports the slots between untouched addresses)
run ring run "$R/c1.json" --json
jqok '.results[3].wheel == ["10.0.0.3:80","10.0.0.2:80","10.0.0.1:80"] and .results[5].wheel == ["10.0.0.2:80","10.0.0.2:80","10.0.0.9:80"]' "C1"
run ring diff "$R/c1.json" --json
jqok '.changes[3].untouchedMoves == 1 and .changes[3].moved == 2 and .changes[3].minimalMoved == 1' "C1: diff: 2 moved, 1 needed, 1 between untouched"
run ring diff "$R/c2.json" --json
jqok '[.changes[4].slots[] | select(.untouched)] == [{"slot":75,"from":"10.0.0.4:80","to":"10.0.0.3:80","untouched":true}]' "C2: slot 75 moves .4 -> .3"
jqok '[.changes[4].slots[] | select(.to == "10.0.0.5:80") | .slot] == [29,31]' "C2: slots 29, 31 go to the new one"
run ring run "$R/c3.json" --json
jqok '[.results[6].addresses[].slots | length] == [182,177,189,59,262,131] and [.results[8].addresses[].slots | length] == [182,176,188,58,263,130,3]' "C3 counts"
run ring diff "$R/c3.json" --json
jqok '[.changes[6].slots[] | select(.untouched) | [.slot,.from,.to]] == [[596,"10.0.0.6:80","10.0.0.5:80"]]' "C3: slot 596 moves .6 -> .5"
jqok '[.changes[6].slots[] | select(.to == "10.0.0.7:80") | .slot] == [365,405,554]' "C3: slots 365, 405, 554 go to the new one"
run ring diff "$R/c4.json" --json
jqok '[.changes[4].slots[] | [.slot,.from,.to,.untouched]] == [[65,"10.0.0.4:80","10.0.0.2:80",true]]' "C4: removing a 0-slot host moves slot 65 .4 -> .2"
run ring run "$R/c4.json" --json
jqok '[.results[4].addresses[].slots | length] == [50,34,0,16] and [.results[6].addresses[].slots | length] == [50,35,15]' "C4 counts"

# -- strict mode beside 5.2.3's (diff shows both): C1-C4 move nothing between untouched
#    addresses, the fewest slots possible, every count within one slot of its quota.
for c in c1 c2 c3 c4; do
    run ring diff "$R/$c.json" --json
    jqok '[.changes[].strict | .untouchedMoves == 0 and .moved == .minimalMoved and .maxQuotaDeviation < 1] | all' "$c: strict mode keeps the promise, within quota"
done
jqok '.changes[4].untouchedMoves == 1 and .changes[4].strict.moved == 0' "C4: strict mode moves nothing when a 0-slot host goes"
run ring diff "$R/c1.json"; has "$TMP/out" '^  strict: 0 slots changed owner' "diff (text) prints the strict line"
printf '{"wheelSize": 3, "strict": true, "hosts": [{"name": "10.0.0.1", "weight": 3}, {"name": "10.0.0.2", "weight": 5}, {"name": "10.0.0.3", "weight": 1}]}\n' >"$TMP/s.json"
run ring run "$TMP/s.json" --json
jqok '[.initial.addresses[].slots | length] == [1,2,0]' "\"strict\": true: 3,5,1 on 3 slots added in order -> 1/2/0"

# -- section 10: health at its boundary, and picks around unavailable addresses
run ring run "$R/health.json" --json
jqok '.results[1].healthy == true and .results[1].unavailableWeight == 100' "2 of 3 up with threshold 50: healthy"
jqok '(.results[2].peers | map(select(. == "10.0.0.1:80")) | length) == 0 and (.results[2].peers | length) == 30' "no traffic to the unavailable address"
jqok '.results[4].healthy == false and .results[5].peers == [{"error":"UNHEALTHY"}] and .results[6].picks == [{"error":"UNHEALTHY"},{"error":"UNHEALTHY"}]' "1 of 3 up: unhealthy (strict >)"

# -- section 7: DNS kinds through the scenario's resolver
run ring run "$R/dns.json" --json
jqok '[.results[1].addresses[].slots | length] == [30,30]' "named and IP hosts 30/30"
jqok '[.results[3].addresses[] | .address] == ["10.0.0.1:80"] and (.results[3].addresses[0].slots | length) == 60' "a failed host gives its slots away: 0/60"
jqok '[.results[8].addresses[] | [.address, (.slots|length)]] == [["10.0.0.1:80",20],["7.7.7.7:80",40]]' "re-resolved with weight 20: 40/20"
jqok '[.results[10].addresses[] | select(.host == "srv.test:8000") | [.address, .weight]] == [["backend.test:8000",1]]' "SRV: lowest priority only; weight 0 -> 1, port 0 -> host port; named target unresolved"
jqok '[.results[11].peers[] | select(startswith("["))] | length == 2 and all(. == "[2001:db8::1]:8000")' "named SRV target resolved per pick, IPv6 canonical"
jqok '[.results[13].peers[] | select(type == "object")] == [{"error":"DNS"},{"error":"DNS"}]' "named target failing: DNS error"

run ring run "$R/clock.json" --json
jqok '[.results[0].addresses[] | [.address, (.slots|length)]] == [["10.0.0.1:80",10],["zero.test:80",10]]' "ttl=0 host: one unresolved entry named after the host"
jqok '.results[1].peers | (map(select(. == "10.5.0.1:80")) | length) > 0 and all(. == "10.5.0.1:80" or . == "10.0.0.1:80")' "float keys; the ttl=0 entry resolved per pick"
jqok '[.results[3].addresses[].address] == ["10.0.0.1:80"]' "a failed ttl=0 host gives its slots away"
jqok '.results[5].now == 2.4 and .results[7].now == 2.5 and .results[9].peers == ["10.0.0.1:80","10.0.0.1:80","10.0.0.1:80","10.0.0.1:80","10.0.0.1:80"]' "advance moves the clock"
run ring diff "$R/clock.json" --json
jqok '[.changes[] | [.kind, .moved]] == [["dns",10],["dns",0],["advance",0],["advance",0]]' "diff: dns and advance ops"
run ring run "$R/clock.json"; is_rc 0 "run (text) with every op kind"
has "$TMP/out" '^\$\.ops\[5\] advance to 2\.4' "run (text): advance"

# -- show and diff, text and JSON
run ring show "$R/c3.json" --json; is_rc 0 "show --json exits 0"
jqok '.wheelSize == 1000 and (.addresses | length) == 7 and .largestDeviation.address == "10.0.0.5:80"' "show: largest deviation"
jqok '[.addresses[].slots] | add == 1000' "show: slots add up to N"
run ring show "$R/c3.json"; is_rc 0 "show (text) exits 0"
has "$TMP/out" '^largest deviation: 10\.0\.0\.5:80' "show (text): largest deviation line"
has "$TMP/out" '^address +host +weight +slots +slot share +weight share +deviation$' "show (text): the column header"
# one address of weight 1: all of the weight (a total weight of 1 is a share like any other)
printf '{"wheelSize": 4, "hosts": [{"name": "10.0.0.1", "weight": 1}]}' > "$TMP/w1.json"
run ring show "$TMP/w1.json" --json; is_rc 0 "show of a weight-1 host exits 0"
jqok '.addresses[0].weightShare == 1 and .addresses[0].slotShare == 1 and .addresses[0].deviation == 0' "show: a total weight of 1 is a weight share of 1"
run ring diff "$R/c1.json"; is_rc 0 "diff (text) exits 0"
has "$TMP/out" 'slot 1 moved between untouched addresses: 10\.0\.0\.3:80 -> 10\.0\.0\.2:80' "diff (text): names the slot"
run ring run "$EX/k4.json"; is_rc 0 "run (text) exits 0"
has "$TMP/out" '^\$\.ops\[1\] peers' "run (text): ops by path"
run ring run "$EX/k4.json" --engine ref --json; is_rc 0 "--engine ref"

# -- determinism: the same scenario twice, byte for byte
"$WSEL" ring run "$R/dns.json" --json >"$TMP/a"; "$WSEL" ring run "$R/dns.json" --json >"$TMP/b"
cmp -s "$TMP/a" "$TMP/b"; ok $? "two runs are identical"

# -- bad scenarios: exit 1, one line naming the JSON path
bad() { # bad JSON PATH_REGEX NAME
    printf '%s\n' "$1" >"$TMP/bad.json"
    run ring run "$TMP/bad.json" --json
    [ "$RC" -eq 1 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] && [ ! -s "$TMP/out" ] && grep -Eq -- "$2" "$TMP/err"; r=$?
    [ $r -eq 0 ] || echo "# exit $RC: $(head -c 300 "$TMP/err")"
    ok $r "$3"
}
bad '{"strict": 1}' '\$\.strict: expected true or false' "strict must be a boolean"
bad '{"ops": [{"op": "add", "name": "10.0.0.1", "weight": 0}]}' 'ops\[0\]\.weight: .*1\.\.65535' "weight 0"
bad '{"ops": [{"op": "add", "name": "10.0.0.1", "weight": 0.5}]}' 'ops\[0\]\.weight' "weight 0.5"
bad '{"ops": [{"op": "add", "name": "10.0.0.1", "weight": 65536}]}' 'ops\[0\]\.weight' "weight above 65535"
bad '{"hosts": [{"name": "10.0.0.1", "weight": -1}]}' 'hosts\[0\]\.weight' "host weight -1"
bad '{"ops": [{"op": "add", "name": "10.0.0.1", "port": 0}]}' 'ops\[0\]\.port' "port 0"
bad '{"ops": [{"op": "add", "name": "10.0.0.1", "port": 65536}]}' 'ops\[0\]\.port' "port 65536"
bad '{"wheelSize": 0}' '\$\.wheelSize' "wheel size 0"
bad '{"wheelSize": 3, "order": [1, 2]}' '\$\.order: mismatch' "order of the wrong length"
bad '{"order": [3, 1, 3]}' '\$\.order: .*duplicates' "order with duplicates"
bad '{"wheelSize": 3, "frob": 1}' '\$\.frob: unknown key' "unknown key"
bad '{"ops": [{"op": "add", "name": "x", "wieght": 3}]}' 'ops\[0\]\.wieght: unknown key' "misspelled op key"
bad '{"ops": [{"op": "teleport"}]}' 'ops\[0\]\.op: unknown op' "unknown op"
bad '{"dns": {"a.test": {"A": [{"address": "::1"}]}}}' 'dns\["a\.test"\]\.A\[0\]\.address' "A record with an IPv6 address"
bad '{"dns": {"a.test": {"fail": "refused"}}}' 'dns\["a\.test"\]\.fail' "unknown failure kind"
bad '{"dns": {"a.test": {"SRV": [{"target": "b.test", "port": 80, "weight": 1}]}}}' "missing 'priority'" "SRV without priority"
bad '{"healthThreshold": 101}' '\$\.healthThreshold' "threshold above 100"
bad '{"rrStart": 1001}' '\$\.rrStart' "rrStart beyond the wheel"
bad '{"ops": [{"op": "hoststatus", "name": "10.0.0.7", "port": 80, "available": false}]}' 'ops\[0\]: .*no host' "hoststatus of an unknown host"
bad '{"ops": [{"op": "peers", "hashes": [-1]}]}' 'ops\[0\]\.hashes\[0\]' "negative hash"
bad '{"ops": [{"op": "peers", "floats": [1.0]}]}' 'ops\[0\]\.floats\[0\]' "float key 1.0"
bad '{"wheelSize": 3,' 'bad\.json:[0-9]+:[0-9]+: ' "JSON syntax error with line and column"
bad '{"wheelSize": 3, "wheelSize": 4}' 'duplicate' "duplicate key"
# -- a status op that names no address (an unknown one, or IPv6 without the brackets 5.2.3
#    stores it in) is an error result of that op, as 5.2.3's setAddressStatus returns one,
#    and the run goes on: "[::1]" then marks v6.test down, so both picks are 10.0.0.1's
run ring run "$R/status_miss.json" --json
[ "$RC" -eq 0 ] && [ ! -s "$TMP/err" ]; ok $? "status of no address: exit 0"
jqok '.results[0] == {"op": "status", "error": "ring: no peer found by name '"'10.0.0.7'"' and address 10.0.0.7:80"}' "status of an unknown address: an error result"
jqok '.results[1].error == "ring: no peer found by name '"'v6.test'"' and address ::1:80"' "status of an unbracketed IPv6 address: an error result"
jqok '.results[2] == {"op": "status"} and .results[3].picks == ["10.0.0.1:80", "10.0.0.1:80"]' "... and the run goes on"
run ring run "$R/status_miss.json"
has "$TMP/out" '^\$\.ops\[0\] status 10\.0\.0\.7:80 down -> error: ring: no peer found by name .10\.0\.0\.7. and address 10\.0\.0\.7:80$' "status of no address: the error on the op's text line"
has "$TMP/out" '^\$\.ops\[2\] status \[::1\]:80 down$' "... and the next ops' lines follow"
run ring run "$R/no-such.json";           one_line_error "unreadable scenario: exit 2"
run ring run;                             one_line_error "run without SCENARIO"
run ring run "$R/k1.json" --engine turbo; one_line_error "unknown engine"
# -- the fast engine gives the reference's output, op for op, for every scenario here
for f in "$R"/*.json "$EX"/*.json; do
    "$WSEL" ring run "$f" --json >"$TMP/ref.json" 2>&1
    "$WSEL" ring run "$f" --json --engine fast >"$TMP/fast.json" 2>&1
    cmp -s "$TMP/ref.json" "$TMP/fast.json"; ok $? "--engine fast = ref: $(basename "$f")"
done
# -- I/O errors say why (issue 23): a file that cannot be read is no syntax error, and a
#    closed pipe is a failed write (exit 3, one line with the reason), not death by SIGPIPE
run ring run /proc/self/mem;              one_line_error "unreadable scenario (read fails): exit 2"
has "$TMP/err" "cannot read scenario '/proc/self/mem': Input/output error" "... with the system's reason"
printf '{"hosts": ["10.0.0.1"], "ops": [{"op": "rr", "count": 20000}]}\n' >"$TMP/many.json"
for fmt in "" --json; do # about 500 KB of output, far more than a pipe holds
    rc=$(bash -c '"$1" ring run "$2" $3 2>"$4" | head -c 10 >/dev/null; echo "${PIPESTATUS[0]}"' \
        _ "$WSEL" "$TMP/many.json" "$fmt" "$TMP/err")
    [ "$rc" = 3 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] &&
        grep -q '^wsel: cannot write the output: Broken pipe$' "$TMP/err"; r=$?
    [ $r -eq 0 ] || echo "# exit $rc: $(head -c 300 "$TMP/err")"
    ok $r "ring run $fmt into a closed pipe: exit 3, one line with the reason"
done
run ring run "$R/k1.json" --bogus;        one_line_error "unknown option"
run ring frob;                            one_line_error "unknown ring command"
run ring run --help; is_rc 0 "ring run --help"
has "$TMP/out" '^usage: wsel ring run' "ring run --help prints its usage"
run --help
has "$TMP/out" '^  ring run SCENARIO' "wsel --help lists ring run"
done_testing
