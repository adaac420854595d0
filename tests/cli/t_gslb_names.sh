#!/bin/sh
# bin/wsel gslb and query names (doc/gslb.md §1, A-41): explain and resolve take a wide
# IP's aliases and the names its wildcards match; explain lists the aliases; check reports
# G033 and G034 at the claim. Expected values worked out from A-41 and the configs.
. "$(dirname "$0")/tap.sh"
EX="$EXAMPLES/gslb/bigip_gtm.conf"
EXIN="$EXAMPLES/gslb/inputs.json"

# the example's wide IP answers for its alias and for a name its wildcard alias matches
for q in www.example.com web.example.com WEB.example.com. img.www.example.com a.b.www.example.com; do
    run gslb resolve "$EX" "$q" --inputs "$EXIN" --json
    jqok '.queries[0].wideip == "/Common/www.example.com" and .queries[0].outcome == "answer"' \
        "resolve $q: the example's wide IP"
done
run gslb resolve "$EX" www.example.org --inputs "$EXIN"
one_line_error "resolve www.example.org: no wide IP (exit 2, one line)"
run gslb resolve "$EX" example.com --inputs "$EXIN"
one_line_error "resolve example.com: '*.www.example.com' needs its dot"

run gslb explain "$EX" web.example.com --type A --json
jqok '.wideips | length == 1 and .[0].aliases == ["web.example.com", "*.www.example.com"]' \
    "explain by alias (--type A): one wide IP, its aliases in text order"
run gslb explain "$EX" web.example.com --json
jqok '[.wideips[] | .type] == ["A","AAAA"] and .wideips[1].aliases == ["web.example.com"]' \
    "explain by alias: the A and the AAAA wide IP claiming it (one name space per type)"
run gslb explain "$EX"
has "$TMP/out" '^  aliases web\.example\.com \*\.www\.example\.com$' "explain text: the aliases line"

# the most specific wildcard answers; two claims of one name and a shadowed wildcard are
# reported where the later claim and the shadowed wildcard stand
cat >"$TMP/w.conf" <<'CONF'
gtm server s { virtual-servers { v1 { destination 192.0.2.1:80 } v2 { destination 192.0.2.2:80 } } }
gtm pool a p1 { members { s:v1 } }
gtm pool a p2 { members { s:v2 } }
gtm wideip a any.example.com {
    aliases {
        *.example.com
    }
    pools { p1 }
}
gtm wideip a eu.example.com {
    aliases {
        *.eu.example.com
        any.example.com
    }
    pools { p2 }
}
CONF
echo '{"members": {"s:v1": {"up": true}, "s:v2": {"up": true}}}' >"$TMP/w.json"
run gslb resolve "$TMP/w.conf" x.eu.example.com --inputs "$TMP/w.json" --json
jqok '.queries[0].wideip == "/Common/eu.example.com" and .queries[0].addresses == ["192.0.2.2"]' \
    "x.eu.example.com: the more specific wildcard (15 literal characters over 12)"
run gslb resolve "$TMP/w.conf" x.example.com --inputs "$TMP/w.json" --json
jqok '.queries[0].wideip == "/Common/any.example.com"' "x.example.com: only *.example.com matches"
run gslb resolve "$TMP/w.conf" any.example.com --inputs "$TMP/w.json" --json
jqok '.queries[0].wideip == "/Common/any.example.com"' "any.example.com: a name before an alias"
run gslb check "$TMP/w.conf" --json
is_rc 1 "check: G033 is an error"
jqok '[.findings[] | select(.code == "G033")] | length == 1 and .[0].line == 13 and (.[0].object | test("eu.example.com"))' \
    "G033 at the later claim (line 13)"
jqok '[.findings[] | select(.code == "G034")] | length == 1 and .[0].line == 6 and (.[0].message | test("\\*\\.eu\\.example\\.com"))' \
    "G034 at the shadowed wildcard (line 6), naming the one shadowing it"

# an empty name is no wide IP's (not the first one, not an error of the config)
usage_err "wsel: gslb resolve: no wide IP '' in $EX" "resolve of an empty name: exit 2, no wide IP ''" \
    gslb resolve "$EX" "" --inputs "$EXIN"

done_testing
