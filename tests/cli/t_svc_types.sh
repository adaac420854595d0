#!/bin/sh
# bin/wsel check on a whole config's service_types (doc/weighted.md 2.8 and 6.1): what
# gdnsd refuses is an error at the definition or the value (FILE:LINE:COL, the column
# found with awk's index in the one-line definition), naming the service type; a
# 6-letter plugin other than static is not read as static.
. "$(dirname "$0")/tap.sh"
P='plugins => { static => { }, weighted => { r => { service_types = sd, a = [ 192.0.2.1, 1 ] } } }'
svc_bad() { # svc_bad DEFINITION NEEDLE MESSAGE-FIXED-TEXT NAME
    printf 'service_types => { %s }\n%s\n' "$1" "$P" >"$TMP/w.conf"
    col=$(awk -v s="service_types => { $1 }" -v n="$2" 'BEGIN { print index(s, n) }')
    run check "$TMP/w.conf"
    want="w.conf:1:$col: service type $3"
    [ "$RC" -eq 1 ] && grep -qF -- "$want" "$TMP/err"; r=$?
    [ $r -eq 0 ] || echo "# exit $RC, want '$want', got: $(head -c 300 "$TMP/err")"
    ok $r "$4"
}
svc_bad 'down => { plugin => static }' 'down' "'down' is built in and cannot be defined" "defining the built-in down"
svc_bad 'sd => { plugin => [ static ] }' 'sd' "'sd' has no 'plugin' (a monitoring plugin's name)" "a plugin that is no name"
svc_bad 'sd => { plugin => static, state => "U\000P" }' '"U' "'sd' (plugin static): 'state' is 'U'; expected UP or DOWN" "a static state with a NUL byte"
svc_bad 'sd => { plugin => static, state => [ UP ] }' '[ UP' "'sd' (plugin static): 'state' is an array; expected UP or DOWN" "a static state that is an array"
svc_bad 'sd => { plugin => static, ttl => "1\0002" }' '"1' "'sd' (plugin static): 'ttl' '1' is not an integer" "a static TTL with a NUL byte"
printf 'service_types => { sd => { plugin => extmon, state => DOWN } }\n%s\n' "$P" >"$TMP/w.conf"
run explain "$TMP/w.conf" --json
is_rc 0 "extmon (six letters, not static): its options are not read"
jqok '.resources[0].items[0].up == true' "extmon: the address stays UP (no state read from the config)"
done_testing
