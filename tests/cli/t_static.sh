#!/bin/sh
# Service types of gdnsd's `static` monitoring plugin (doc/weighted.md §6.1): explain,
# states and sample read their state and TTL from the config; --state cannot feed
# them; bad values are one-line errors naming file:line:col and the type. Expected
# values by hand from gdnsd's rules.
. "$(dirname "$0")/tap.sh"
cat >"$TMP/s.conf" <<'CONF'
service_types => {
  sd => { plugin => static, state => DOWN, ttl => 120 }
  s0 => { plugin => static }
}
plugins => { static => { }, weighted => {
  r => { service_types = sd, a = [ 192.0.2.1, 1 ], b = [ 192.0.2.2, 3 ] }
  z => { service_types = s0, a = [ 192.0.2.9, 1 ] }
} }
CONF

# r: both DOWN/120: UP weight 0 < ceil(4 * 0.5) = 2, failover: a 1/4, b 3/4, TTL 120
run explain "$TMP/s.conf" r --json
is_rc 0 "static DOWN: exit 0"
jqok '.resources[0] | .ttl == 120 and .failed == true' "static DOWN/120: TTL 120, failed over"
jqok '.resources[0].items | map(.up) == [false,false]' "static DOWN: both items DOWN"
jqok '.resources[0].items | map(.p_included_exact) == ["1/4","3/4"]' "static DOWN: odds 1/4, 3/4 after failover"
# z: s0 has neither state nor ttl: gdnsd's defaults UP and 2^28 - 1
run explain "$TMP/s.conf" z --json
jqok '.resources[0] | .ttl == 268435455 and .failed == false and .items[0].up == true' "static defaults: UP/268435455"

# the issue's case: "192.0.2.2/sd" => UP: a DOWN (0), b UP (3) >= 2: b always; TTL
# min(120, 268435455) = 120
printf '"192.0.2.2/sd" => UP\n' >"$TMP/adm"
run explain "$TMP/s.conf" r --admin-state "$TMP/adm" --json
jqok '.resources[0] | .ttl == 120 and .failed == false' "static DOWN + b forced UP: TTL 120, no failover"
jqok '.resources[0].items | map(.p_included_exact) == ["0/1","1/1"]' "static DOWN + b forced UP: b always"
run sample "$TMP/s.conf" r -n 2000 --admin-state "$TMP/adm" --json
jqok '[.answers[] | {l: .labels, c: .count}] == [{"l":["b"],"c":2000}]' "sample: b in all 2000 draws"
jqok '.ttl == 120' "sample: answers carry the static TTL 120"
run sample "$TMP/s.conf" z -n 10 --json
jqok '.ttl == 268435455' "sample: static defaults: TTL 268435455"
run sample "$TMP/s.conf" r -n 2000 --engine ref --admin-state "$TMP/adm" --json
jqok '[.answers[] | {l: .labels, c: .count}] == [{"l":["b"],"c":2000}]' "sample --engine ref: b in all 2000 draws"
run sample "$TMP/s.conf" r -n 4000 --json
jqok '[.answers[] | .labels[0]] | sort == ["a","b"]' "sample without override: a and b both drawn (1/4, 3/4)"

run states "$TMP/s.conf" --admin-state "$TMP/adm"
has "$TMP/out" '^192\.0\.2\.1/sd +DOWN/120 +- +DOWN/120' "states: static DOWN/120 as the monitored state"
has "$TMP/out" '^192\.0\.2\.2/sd +DOWN/120 +UP/268435455 +UP/268435455' "states: forced UP over static DOWN/120"
has "$TMP/out" '^192\.0\.2\.9/s0 +UP/268435455 +- +UP/268435455' "states: static defaults"

# --state cannot feed a static type
printf '192.0.2.1 => UP\n' >"$TMP/ext"
run explain "$TMP/s.conf" --state "sd=$TMP/ext"
one_line_error "--state for a static type: one-line error"
has "$TMP/err" "service type 'sd' uses the static plugin" "--state for a static type: says why"

# bad values: file:line:col and the service type
bad() { # bad DEF COL REGEX NAME
    printf 'service_types => {\n  %s\n}\nplugins => { static => { }, weighted => { r => { service_types = sd, a = [ 192.0.2.1, 1 ] } } }\n' "$1" >"$TMP/b.conf"
    run check "$TMP/b.conf"
    is_rc 1 "$4: exit 1"
    has "$TMP/err" "b\\.conf:2:$2: service type 'sd' .*$3" "$4: file:line:col, type, reason"
}
bad 'sd => { plugin => static, state => SIDEWAYS }' 38 "'SIDEWAYS'; expected UP or DOWN" "state => SIDEWAYS"
bad 'sd => { plugin => static, ttl => -1 }' 36 "out of range; expected an integer from 0 to 268435455" "ttl => -1"
bad 'sd => { plugin => static, ttl => 1h }' 36 "not an integer" "ttl => 1h"
printf 'service_types => { sd => { plugin => static } }\nplugins => { weighted => { r => { a = [ 192.0.2.1, 1 ] } } }\n' >"$TMP/n.conf"
run check "$TMP/n.conf"
is_rc 1 "static type without plugins => { static }: exit 1 (gdnsd refuses it)"
has "$TMP/err" "n\\.conf:1:38: service type 'sd' uses the static plugin" "static without its stanza: file:line:col"
done_testing
