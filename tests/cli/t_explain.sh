#!/bin/sh
# bin/wsel explain: exact odds against the page's worked examples and hand-computed
# synopsis values, under monitoring states given with --state/--down/--up.
. "$(dirname "$0")/tap.sh"
SYN="$EXAMPLES/synopsis.conf"
# jq helper: near(a; b) -- equal within 1e-12.
J='def near(a; b): ((a - b) | if . < 0 then -. else . end) < 1e-12;'
jqn() { jqok "$J $1" "$2"; }

# Page, ungrouped single: 45/60/75 -> 45/180, 60/180, 75/180.
run explain "$DATA/single3.conf" --json
is_rc 0 "single3: exit 0"
jqn '.resources[0].answers | length == 3' "single3: three answers"
jqn '.resources[0].answers | map(.labels) == [["lb01"],["lb02"],["lb03"]]' "single3: answers by label"
jqn '.resources[0].answers | (near(.[0].p; 0.25) and near(.[1].p; 1/3) and near(.[2].p; 5/12))' "single3: 25% / 33.3% / 41.7%"
jqn '.resources[0].answers | map(.p_exact) == ["1/4","1/3","5/12"]' "single3: exact 1/4, 1/3, 5/12"
jqn '.resources[0].answers | map(.addresses) == [["192.0.2.1"],["192.0.2.1"],["192.0.2.1"]]' "single3: duplicate addresses kept apart by label"

# Page, ungrouped multi: 45/60/60 -> {lb01,lb02,lb03} 75%, {lb02,lb03} 25%.
run explain "$DATA/multi3.conf" --json
jqn '.resources[0].answers | length == 2' "multi3: two answers"
jqn '[.resources[0].answers[] | select(.labels == ["lb01","lb02","lb03"]) | .p] as $a | near($a[0]; 0.75)' "multi3: {lb01,lb02,lb03} 0.75"
jqn '[.resources[0].answers[] | select(.labels == ["lb02","lb03"]) | .p] as $a | near($a[0]; 0.25)' "multi3: {lb02,lb03} 0.25"
jqn '.resources[0].items | map(.p_included_exact) == ["3/4","1/1","1/1"]' "multi3: inclusion 45/60, 1, 1"

# Synopsis, all UP.
run explain "$SYN" --json
is_rc 0 "synopsis: exit 0"
jqn '[.resources[] | .resource] == ["corpwww","frontwww6","pubwww","cdnwww","mixed","cn"]' "all resources in config order"
jqn '.resources[0].items | (near(.[0].p_included; 99/115) and near(.[1].p_included; 15/115) and near(.[2].p_included; 1/115))' "corpwww: 99/115, 15/115, 1/115"
jqn '.resources[0].items | map(.p_included_exact) == ["99/115","3/23","1/115"]' "corpwww: exact fractions (15/115 = 3/23)"
jqn '.resources[0].items | map(.address) == ["lb01.example.org.","lb02.example.org.","lb03.example.org."]' "corpwww: CNAME targets as addresses"
# frontwww6: weights 4,1,2, max 4: inclusion 1, 1/4, 1/2.
jqn '.resources[1].items | map(.p_included_exact) == ["1/1","1/4","1/2"]' "frontwww6: inclusion 4/4, 1/4, 2/4"
jqn '.resources[1].answers | map({key: (.labels | join(",")), value: .p_exact}) | from_entries ==
     {"wwwhost01":"3/8","wwwhost01,wwwhost02":"1/8","wwwhost01,wwwhost02,wwwhost03":"1/8","wwwhost01,wwwhost03":"3/8"}' "frontwww6: answer sets 3/8 1/8 1/8 3/8"
jqn '.resources[1].sets[0].sizes as $s | near($s[1]; 3/8) and near($s[2]; 1/2) and near($s[3]; 1/8)' "frontwww6: sizes 1:3/8 2:1/2 3:1/8"
jqn '.resources[2].items | map(.p_included_exact) == ["4/7","1/7","1/7","1/7"]' "pubwww: 44/77 = 4/7, 11/77 = 1/7"
# cdnwww: groups 4 and 5 of 9; inside dc2 (max 2) d2-lb3 with 1/2.
jqn '.resources[3].sets[0].groups | map([.label, .p_exact]) == [["datacenter1","4/9"],["datacenter2","5/9"]]' "cdnwww: groups 4/9, 5/9"
jqn '.resources[3].answers | map([(.labels | join(",")), .p_exact]) == [["datacenter1/d1-lb1,datacenter1/d1-lb2","4/9"],["datacenter2/d2-lb1,datacenter2/d2-lb2","5/18"],["datacenter2/d2-lb1,datacenter2/d2-lb2,datacenter2/d2-lb3","5/18"]]' "cdnwww: answers 4/9, 5/18, 5/18 (grouped-single never mixes groups)"
# mixed: v4 1/2 each; v6 both groups always (5 = max 5), one of 4/5 vs 1/5 each.
jqn '.resources[4].answers | length == 8' "mixed: 2 x 4 combined answers"
jqn '.resources[4].answers[0] | .labels == ["addrs_v4/lb1","addrs_v6/www6set1/lb01","addrs_v6/www6set2/lb01"] and .p_exact == "8/25" and .addresses == ["127.0.0.3","2001:db8::123","2001:db8::789"]' "mixed: first combined answer v4 first, p 1/2 * 16/25"
jqn '([.resources[4].answers[] | .p] | add) as $t | near($t; 1)' "mixed: combined answers sum to 1"
jqn '.resources[4].sets[1].answers | map(.p_exact) == ["16/25","4/25","4/25","1/25"]' "mixed v6: per-set answers 16/25 4/25 4/25 1/25"
jqn '.resources[4].sets[1].groups | map(.p_exact) == ["1/1","1/1"]' "mixed v6: both groups always included"
jqn '.resources[5].items | map(.p_included_exact) == ["33/38","5/38"]' "cn: 99/114 = 33/38, 15/114 = 5/38"
jqn '[.resources[] | .failed] | all(. == false)' "all UP: nothing failed"
jqn '[.resources[] | .ttl] | all(. == 268435455)' "all UP: ttl 2^28-1"

# Monitoring state.
run explain "$SYN" pubwww --down 192.0.2.1 --json
jqn '.resources | length == 1' "naming a resource explains only it"
jqn '.resources[0].items | map(.p_included_exact) == ["0/1","1/3","1/3","1/3"]' "pubwww, pubhost01 DOWN: 0, 1/3, 1/3, 1/3"
jqn '.resources[0].items | map(.up) == [false,true,true,true]' "pubwww: up flags"
jqn '.resources[0].failed == false and .resources[0].sets[0].dyn_sum == 33' "pubwww: dynamic sum 33 >= 1, not failed"
run explain "$SYN" pubwww --state web_check="$DATA/pub1_down.state" --json
is_rc 0 "--state SERVICE=FILE accepted"
jqn '.resources[0].items[0].up == false and .resources[0].ttl == 30' "--state: DOWN/30 gives DOWN and state ttl 30"
run explain "$SYN" pubwww --down 192.0.2.1 --up 192.0.2.1 --json
jqn '.resources[0].items | map(.p_included_exact) == ["4/7","1/7","1/7","1/7"]' "--up after --down restores (options apply in order)"
run explain "$SYN" pubwww --down 192.0.2.1 --down 192.0.2.2 --down 192.0.2.3 --down 192.0.2.4 --json
jqn '.resources[0].failed == true and .resources[0].sets[0].dyn_sum == 0' "pubwww all DOWN: failed"
jqn '.resources[0].items | map(.p_included_exact) == ["4/7","1/7","1/7","1/7"]' "pubwww all DOWN: odds as if all UP"
run explain "$SYN" pubwww --down 192.0.2.1 --down 192.0.2.2 --down 192.0.2.3 --down 192.0.2.4
has "$TMP/out" 'dynamic sum 0 of T = 77, threshold 1: FAILED' "text: FAILED status"
run explain "$SYN" cdnwww --down 127.0.0.1 --json
jqn '.resources[0].sets[0].groups | map(.p_exact) == ["2/7","5/7"]' "cdnwww, d1-lb1 DOWN: groups 2/7, 5/7"
jqn '.resources[0].items | map(.p_included_exact) == ["0/1","2/7","5/7","5/7","5/14"]' "cdnwww: d1-lb2 alone in its group 2/7; dc2 5/7, d2-lb3 5/7*1/2"
run explain "$SYN" cn --down LB01.Example.ORG. --json
jqn '.resources[0].items | map(.up) == [false,true]' "CNAME state keys are case-insensitive"
# foo DOWN leaves 15 < ceil(114*0.5) = 57: failover, odds as all UP.
jqn '.resources[0].failed == true and .resources[0].sets[0].dyn_sum == 15' "cn: 15 < 57 fails over"
jqn '.resources[0].items | map(.p_included_exact) == ["33/38","5/38"]' "cn: failover keeps the all-UP odds"

# up_thresh corners (doc/weighted.md §5.2: T=100, up_thresh 0.07 -> threshold 8; equality holds).
run explain "$DATA/thresh.conf" --down 192.0.2.93 --down 198.51.100.1 --json
jqn '.resources[0] | .sets[0].threshold == 8 and .sets[0].dyn_sum == 7 and .failed == true' "t7: 7 < ceil(100*0.07)=8 fails over"
jqn '.resources[0].items | near(.[0].p_included; 0.07) and near(.[1].p_included; 0.93)' "t7: reset odds 7/100, 93/100"
jqn '.resources[1] | .sets[0].threshold == 1 and .sets[0].dyn_sum == 1 and .failed == false' "eq: sum equal to threshold does not fail over"
jqn '.resources[1].items | map(.p_included) == [0, 1]' "eq: the DOWN item is never chosen"

# A whole config with $include{dir}: weights 2 and 5 of the included CNAME resource.
run explain "$DATA/whole_include.conf" incb --json
is_rc 0 "whole config with \$include{}: exit 0"
jqn '.resources[0].items | map(.p_included_exact) == ["2/7","5/7"]' "included resource: 2/7, 5/7"

# More than 4096 answers: no list, but per-item odds (h_i: i/14) and sizes.
run explain "$DATA/big_multi.conf" --json
jqn '.resources[0] | .enumerable == false and .answers == null' "big_multi: answers not enumerated"
jqn '.resources[0].items | map(.p_included_exact) | .[0] == "1/14" and .[6] == "1/2" and .[13] == "1/1"' "big_multi: inclusion i/14"
jqn '(.resources[0].sets[0].sizes | add) as $t | near($t; 1)' "big_multi: size distribution sums to 1"

# JSON string escaping: \001 is U+0001, \009 a tab, UTF-8 passes through, and the
# stray byte 128 (not UTF-8) becomes U+0080.
run explain "$DATA/escape.conf" --json
is_rc 0 "escape.conf: exit 0"
jqok '.resources[0].items | map(.label) == ["q\"b\\c\u0001t\t", "h\u00e9llo", "bad\u0080byte"]' "labels escaped into valid JSON"
run sample "$DATA/escape.conf" r -n 10 --json
jqok '.answers | length == 3' "sample --json with escaped labels parses"

# Text output.
run explain "$SYN" corpwww
is_rc 0 "text explain: exit 0"
has "$TMP/out" '^      lb01  lb01\.example\.org\.  99  UP  99  0\.86086956521739[0-9]* \(99/115\)$' "text: item line with exact fraction"
has "$TMP/out" '\(3/23\)  lb02  \[lb02\.example\.org\.\]$' "text: answer line"
done_testing
