#!/bin/sh
# bin/wsel states, --admin-state, --down/--up as admin overrides (doc/weighted.md §6.5),
# and warnings for state-file lines that change nothing. Expected values by hand.
. "$(dirname "$0")/tap.sh"
SYN="$EXAMPLES/synopsis.conf"

# frontwww6 is watched only by the built-in `up` type: --down now drains it.
run explain "$SYN" frontwww6 --down 2001:db8::456 --json
is_rc 0 "--down on an address only 'up' watches: exit 0"
jqok '.resources[0].items | map(.up) == [true,false,true]' "--down: wwwhost02 DOWN"
# weights 4,0,2 (multi, max 4): inclusion 1, 0, 1/2
jqok '.resources[0].items | map(.p_included_exact)[0,2] | . as $x | ["1/1","1/2"] | index($x) != null' "--down: others 1 and 1/2"
jqok '.resources[0].items[1].p_included == 0' "--down: wwwhost02 never answered"

printf '# drain one\n"2001:db8::456/up" => DOWN/20\n' >"$TMP/a1"
run explain "$SYN" frontwww6 --admin-state "$TMP/a1" --json
is_rc 0 "--admin-state: exit 0"
jqok '.resources[0].items | map(.up) == [true,false,true]' "--admin-state: wwwhost02 DOWN"
jqok '.resources[0].ttl == 20' "--admin-state: forced TTL 20 is the answer's TTL"
[ ! -s "$TMP/err" ]; ok $? "--admin-state: nothing on stderr"

# a glob, then an exception: file order
printf '"*/up" => DOWN\n"2001:db8::789/up" => UP/15\n' >"$TMP/a2"
run explain "$SYN" frontwww6 --admin-state "$TMP/a2" --json
jqok '.resources[0].items | map(.up) == [false,false,true]' "glob then exception: only wwwhost03 UP"
# UP weight 2 < ceil(7 * 0.5) = 4: the set fails over
jqok '.resources[0].ttl == 15 and .resources[0].failed == true' "glob then exception: TTL 15, failed over"
printf '"2001:db8::789/up" => UP/15\n"*/up" => DOWN\n' >"$TMP/a3"
run explain "$SYN" frontwww6 --admin-state "$TMP/a3" --json
jqok '.resources[0].items | map(.up) == [false,false,false]' "exception then glob: the glob wins, all DOWN"

# --up forces UP over the built-in `down` type? synopsis has none; use a stanza
printf 'r => { service_types = down\n a = [ 192.0.2.1, 1 ]\n b = [ 192.0.2.2, 1 ] }\n' >"$TMP/d.conf"
run explain "$TMP/d.conf" --up 192.0.2.2 --json
jqok '.resources[0].items | map(.up) == [false,true]' "--up overrides the built-in down type"
jqok '.resources[0].failed == false' "--up: set no longer failed"

# unknown names: an option is an error, a file line a warning with its line
run explain "$SYN" --down 198.51.100.7
one_line_error "--down matching nothing: one-line error"
has "$TMP/err" 'no address or CNAME of this config matches' "--down matching nothing: says so"
printf '"2001:db8::456/up" => DOWN\n"198.51.100.7/*" => DOWN\n' >"$TMP/a4"
run explain "$SYN" frontwww6 --admin-state "$TMP/a4" --json
is_rc 0 "admin line matching nothing: exit 0"
has "$TMP/err" "warning: .*a4:2:1: '198.51.100.7/\\*' matches no" "admin line matching nothing: warning with file:line"
printf '192.0.2.1 => DOWN\n192.0.2.999 => DOWN\n' >"$TMP/ext"
run explain "$SYN" pubwww --state "web_check=$TMP/ext" --json
is_rc 0 "extfile line matching nothing: exit 0"
has "$TMP/err" "warning: .*ext:2: '192.0.2.999' matches no .*not a valid IPv4" "extfile line matching nothing: warning with file:line"
printf '\357\273\277192.0.2.1 => DOWN\n' >"$TMP/bom"
run explain "$SYN" pubwww --state "web_check=$TMP/bom"
one_line_error "extfile with a byte-order mark: one-line error"

# a bad admin file: one line naming file:line, nothing applied
printf '"2001:db8::456/up" => DOWN\n"2001:db8::789" => DOWN\n' >"$TMP/bad"
run explain "$SYN" --admin-state "$TMP/bad"
one_line_error "bad admin_state: one-line error"
has "$TMP/err" 'bad:2:1: .*THING/SERVICE_TYPE' "bad admin_state: file:line and what is expected"

# wsel states
run states "$SYN" --json
is_rc 0 "states: exit 0"
# corpwww 3 CNAMEs x up; frontwww6 3 x up; pubwww 4 x 2; cdnwww 5 x web_check;
# mixed v4 2 x up (new: cdnwww's are web_check) and v6 4 x up (::123/456/789 already
# counted with frontwww6, ::abc new); cn 2 x my_cn_check.
# distinct: 3 + 3 + 8 + 5 + 2 + 1 + 2 = 24
jqok '.pairs | length == 24' "states: 24 distinct THING/SERVICE_TYPE pairs"
jqok '[.pairs[] | select(.forced != null)] | length == 0' "states: nothing forced"
run states "$SYN" --admin-state "$TMP/a1" --json
jqok '.pairs[] | select(.thing == "2001:db8::456" and .service == "up") |
      .monitored.state == "UP" and .forced.state == "DOWN" and .forced.ttl == 20 and .state == "DOWN" and .ttl == 20' "states: a forced pair"
run states "$SYN" --down lb02.example.org. --json
jqok '[.pairs[] | select(.forced != null) | .service] == ["my_cn_check","up"]' "states: --down forces every service type of a CNAME"
jqok '[.pairs[] | select(.forced != null)][0].forced.ttl == 268435455' "states: --down forces the maximum TTL, as gdnsd"

# A forced state without /TTL has TTL 2^28 - 1 = 268435455, as gdnsd 3.8.1 reads the
# admin_state value (doc/weighted.md §6.5, D21): the monitored 200 no longer counts.
printf 'r => { service_types = mon\n a = [ 192.0.2.1, 1 ]\n b = [ 192.0.2.2, 3 ] }\n' >"$TMP/m.conf"
printf '192.0.2.1 => UP/200\n192.0.2.2 => UP/200\n' >"$TMP/m.ext"
printf '"*/mon" => UP\n' >"$TMP/m.up"
printf '"*/mon" => DOWN\n' >"$TMP/m.down"
run explain "$TMP/m.conf" --state "mon=$TMP/m.ext" --json
jqok '.resources[0].ttl == 200' "monitored UP/200: TTL 200"
run explain "$TMP/m.conf" --state "mon=$TMP/m.ext" --admin-state "$TMP/m.up" --json
jqok '.resources[0].ttl == 268435455 and .resources[0].failed == false' "forced UP without /TTL: TTL 268435455, not the monitored 200"
run explain "$TMP/m.conf" --state "mon=$TMP/m.ext" --admin-state "$TMP/m.down" --json
# both DOWN: UP weight 0 < ceil(4 * 0.5) = 2, failed over, odds 1/4 and 3/4
jqok '.resources[0].ttl == 268435455 and .resources[0].failed == true' "forced DOWN without /TTL: TTL 268435455, failed over"
run explain "$TMP/m.conf" --state "mon=$TMP/m.ext" --down 192.0.2.1 --json
jqok '.resources[0].ttl == 200 and (.resources[0].items | map(.up) == [false,true])' "--down 192.0.2.1: its TTL is the maximum, b's monitored 200 stays the set's"
run explain "$TMP/m.conf" --state "mon=$TMP/m.ext" --down 192.0.2.1 --down 192.0.2.2 --json
jqok '.resources[0].ttl == 268435455' "--down on both: TTL 268435455"
run explain "$TMP/m.conf" --state "mon=$TMP/m.ext" --admin-state "$TMP/m.up"
has "$TMP/out" 'state ttl 268435455' "explain text: state ttl 268435455"
run sample "$TMP/m.conf" r -n 100 --state "mon=$TMP/m.ext" --json
jqok '.ttl == 200' "sample: monitored UP/200: answers carry TTL 200"
for e in ref fast; do
    run sample "$TMP/m.conf" r -n 100 --engine $e --state "mon=$TMP/m.ext" --admin-state "$TMP/m.down" --json
    jqok '.ttl == 268435455' "sample --engine $e: forced DOWN without /TTL: answers carry TTL 268435455"
done
run sample "$TMP/m.conf" r -n 100 --state "mon=$TMP/m.ext" --admin-state "$TMP/m.up"
has "$TMP/out" '^answer ttl 268435455$' "sample text: answer ttl 268435455"
run states "$TMP/m.conf" --state "mon=$TMP/m.ext" --admin-state "$TMP/m.up"
has "$TMP/out" '^192\.0\.2\.1/mon +UP/200 +UP/268435455 +UP/268435455' "states text: monitored UP/200, forced UP/268435455"
run states "$TMP/m.conf" --state "mon=$TMP/m.ext" --admin-state "$TMP/m.down" --json
jqok '.pairs[0] | .monitored.ttl == 200 and .forced.state == "DOWN" and .forced.ttl == 268435455 and .state == "DOWN" and .ttl == 268435455' "states JSON: forced DOWN/268435455 over UP/200"
run states "$SYN"
has "$TMP/out" '^THING/SERVICE_TYPE +MONITORED +FORCED +RESULT' "states: text header"
has "$TMP/out" '^192\.0\.2\.4/foo +UP/268435455 +- +UP/268435455' "states: text row"
run states
one_line_error "states without CONFIG: one-line error"
done_testing
