#!/bin/sh
# bin/wsel gslb: check (lint, exit codes, JSON contract), explain (defaults labelled,
# findings in place), resolve (answers, counts, state carried, decision log, JSON
# contract). Expected values are worked out by hand from doc/gslb.md and the configs.
. "$(dirname "$0")/tap.sh"
EX="$EXAMPLES/gslb/bigip_gtm.conf"
EXIN="$EXAMPLES/gslb/inputs.json"
G="$DATA/../../data/gslb"
RR="$G/rr.conf"
RRIN="$G/rr.inputs.json"

# ---- check ----
run gslb check "$EX"
is_rc 1 "example: G001 is an error finding => exit 1"
has "$TMP/out" 'bigip_gtm\.conf:24:1: error: G001 gtm pool a /Common/p_dc2: fallback-ip method selected but fallback-ip is unset' "G001 on p_dc2 at its line"
has "$TMP/out" 'warning: G006 gtm pool a /Common/p_dc2: preferred lowest-round-trip-time has no metrics source' "G006 on p_dc2"
has "$TMP/out" 'info: G016 gtm wideip a /Common/www\.example\.com' "G016 on the wide IP"
has "$TMP/out" 'info: G032 gtm region /Common/r_eu: mixes is and is not' "G032 on the example's region (A-40)"
has "$TMP/out" '^invalid: 1 errors, 1 warnings, 2 info$' "summary: exactly the four findings of doc/gslb.md §8.2"

run gslb check "$EX" --json
is_rc 1 "example --json: exit 1"
jqok '[.findings[].code] == ["G001","G006","G016","G032"]' "json: codes G001, G006, G016, G032 (doc/gslb.md §8.2; no G004)"
jqok '[.findings[].severity] == ["error","warning","info","info"]' "json: severities"
jqok '[.findings[].line] == [24, 24, 38, 46]' "json: lines (pool p_dc2 at 24, last-resort-pool at 38, region r_eu at 46)"
jqok '.findings[0] | keys == ["code","file","line","message","object","severity"]' "json: finding keys exactly as the contract"
jqok '.findings[2].object == "gtm wideip a /Common/www.example.com"' "json: object names kind and path"
jqok '(keys == ["findings"])' "json: one top-level key"

run gslb check "$RR"
is_rc 0 "rr.conf: no error finding => exit 0"
has "$TMP/out" '^valid: 0 errors' "rr.conf: valid"

for f in bad_mode bad_unterminated; do
    (cd "$G" && "$WSEL" gslb check "$f.conf" >"$TMP/out" 2>"$TMP/err"); RC=$?
    is_rc 1 "$f: parse error => exit 1"
    diff "$G/$f.expect" "$TMP/err" >/dev/null; ok $? "$f: error line FILE:LINE:COL: object: message (golden)"
done

run gslb check /nonexistent/gtm.conf
one_line_error "unreadable config: exit 2, one line"
run gslb check
one_line_error "missing CONFIG: exit 2"
fails_with 2 "missing CONFIG (see wsel gslb check --help)" "missing CONFIG: says so"
for c in explain inputs; do
    run gslb $c
    fails_with 2 "missing CONFIG (see wsel gslb $c --help)" "gslb $c without CONFIG: exit 2, says so"
done
run gslb frobnicate
one_line_error "unknown gslb command: exit 2"

# ---- explain ----
run gslb explain "$EX"
is_rc 0 "explain example: exit 0"
has "$TMP/out" '^wideip a /Common/www\.example\.com  pool-lb-mode topology  persistence enabled ttl 3600 \(default\) cidr /24, /128 \(default\) !G016$' "wide IP line: ttl 3600 and /128 labelled default"
has "$TMP/out" 'last-resort a /Common/p_dc2  failure-rcode-response disabled \(default\) rcode noerror \(default\) ttl 0 \(default\) => fall-through: BIND aggregate' "last resort, rcode default, fall-through"
has "$TMP/out" '^  1 /Common/p_dc1 order 0 ratio 1 \(default\)$' "pool 1: ratio default"
has "$TMP/out" 'verify-member-availability enabled \(default\)  ttl 30 \(default\)  max-answers 2  members 2 !G001 !G006$' "pool 2: defaults labelled, findings in place"
has "$TMP/out" 'preferred lowest-round-trip-time \[path, dynamic-ratio\] -> alternate round-robin \(default\) \[static\]' "pool 2 chain: kinds, alternate default"
has "$TMP/out" '-> fallback fallback-ip \[unset => EMPTY\]' "pool 2 fallback: unset => EMPTY"
has "$TMP/out" 'preferred topology \[static\] -> alternate none \[skip to fallback\]' "pool 1: none at alternate skips"
has "$TMP/out" '-> fallback none \[next pool\]' "pool 1: none at fallback = next pool"
has "$TMP/out" 'preferred lowest-round-trip-time fails when: no rtt_us' "what failing means"
has "$TMP/out" 'global: topology-longest-match yes \(default\)  static-persist-cidr /32 \(default\), /128 \(default\)' "globals labelled default"
# every default that explain shows is tagged (default) (doc/gslb.md §9 property 14)
run gslb explain "$G/minimal.conf"
is_rc 0 "explain minimal: exit 0"
has "$TMP/out" '^wideip a /Common/w  pool-lb-mode round-robin \(default\)  persistence disabled \(default\) ttl 3600 \(default\) cidr /32 \(default\), /128 \(default\)' "minimal: wide IP defaults"
has "$TMP/out" 'last-resort none \(default\)  failure-rcode-response disabled \(default\) rcode noerror \(default\) ttl 0 \(default\)' "minimal: last resort and rcode defaults"
has "$TMP/out" 'decision log: none \(default\)  topology-prefer-edns0-client-subnet disabled \(default\)' "minimal: log and ECS defaults"
has "$TMP/out" '^  1 /Common/p order 0 \(default\) ratio 1 \(default\)$' "minimal: pool entry defaults"
has "$TMP/out" 'verify-member-availability enabled \(default\)  ttl 30 \(default\)  max-answers 1 \(default\)' "minimal: pool defaults"
has "$TMP/out" 'alternate round-robin \(default\) \[static\]' "minimal: alternate default"
has "$TMP/out" '-> fallback return-to-dns \(default\) \[hand back to BIND\]' "minimal: fallback default"
has "$TMP/out" 'fallback-ip unset \(default\)  dynamic-ratio disabled \(default\)  min-members-up off \(default\)  manual-resume disabled \(default\)' "minimal: other pool defaults"
has "$TMP/out" 'qos rtt 50 \(default\) lcs 30 \(default\) hit-ratio 5 \(default\) kilobytes-second 3 \(default\) packet-rate 1 \(default\) hops 0 \(default\) topology 0 \(default\) vs-capacity 0 \(default\) vs-score 0 \(default\)' "minimal: QoS coefficient defaults"
has "$TMP/out" 'member 1 s:v -> 10\.0\.0\.1  member-order 0 \(default\) ratio 1 \(default\)' "minimal: member defaults"
has "$TMP/out" 'global: topology-longest-match yes \(default\)  static-persist-cidr /32 \(default\), /128 \(default\)' "minimal: global defaults"
# explainer goldens: the rendered chains, reviewed line by line against the configs and
# doc/gslb.md §1 and §8.1 (defaults, kinds, failure meanings, findings in place)
run gslb explain "$G/minimal.conf"
diff "$G/minimal.explain.expect" "$TMP/out" >/dev/null; ok $? "explain minimal: golden"
(cd "$EXAMPLES/gslb" && "$WSEL" gslb explain bigip_gtm.conf >"$TMP/out" 2>"$TMP/err"); RC=$?
diff "$G/example.explain.expect" "$TMP/out" >/dev/null; ok $? "explain example: golden"
run gslb explain "$EX" --json
is_rc 0 "explain --json: exit 0"
jqok '.wideips | length == 2 and [.[].name] == ["/Common/www.example.com","/Common/www.example.com"] and [.[].type] == ["A","AAAA"]' "explain json: the A and the AAAA wide IP of one name"
jqok '.wideips[0] | .pool_lb_mode == {"value":"topology","default":false} and .ttl_persistence == {"value":3600,"default":true} and .findings == ["G016"]' "explain json: written vs default values, wide-IP findings"
jqok '.wideips[0].pools[1] | [.chain[].method.value] == ["lowest-round-trip-time","round-robin","fallback-ip"] and [.chain[].method.default] == [false,true,false] and .findings == ["G001","G006"]' "explain json: p_dc2 chain and findings"
jqok '.wideips[0].pools[1].chain[0].kind == "path" and .wideips[0].pools[0].chain[1].kind == "routing"' "explain json: method kinds"
jqok '.wideips[0].pools[1].members | map(.ratio) == [{"value":3,"default":false},{"value":1,"default":true}]' "explain json: member ratios"
run gslb explain "$EX" nosuch.example.com
one_line_error "explain unknown wide IP: exit 2"

# ---- resolve ----
run gslb resolve "$EX" www.example.com --inputs "$EXIN" -n 3 --json
is_rc 0 "resolve example: exit 0"
jqok '.queries[0] | .outcome == "answer" and .addresses == ["192.0.2.100"] and .pool == "/Common/p_dc1" and .step == "preferred" and .method == "topology"' "EU LDNS: topology picks p_dc1 (score 100), its only member"
jqok '.queries[1].step == "persist" and .queries[2].step == "persist" and (.queries[1] | has("method") | not)' "then persistence answers (no method)"
jqok '.counts.outcomes.answer == 3 and .counts.picks["192.0.2.100"] == 3' "counts"
jqok '.state.persistence == [{"wideip":"/Common/www.example.com","key":"203.0.113.0/24","pool":"/Common/p_dc1","member":"/Common/bigip-dc1:/Common/vs_web","expires":1700003600}]' "state: persistence record keyed by the /24"
jqok '.queries[0].log | map(.event) == ["pool-selection","pool-selection","pool-selection","pool-member-selection","result"]' "log: the wide IP's configured verbosity plus result"
jqok '.queries[0].log[2] | .reason == "topology" and .score == "100" and .pool == "/Common/p_dc1"' "log JSON: key=value pairs (reason=topology score=100)"
# the topology records matching each candidate pool (the EU LDNS is in r_eu: line 47 for
# p_dc1, the catch-all line 48 for p_dc2), before the pick
jqok '[.queries[0].log[0:2][] | [.pool, .result, .reason, .line, .score, .match]] == [["/Common/p_dc1","matched","record","47","100","used"],["/Common/p_dc2","matched","record","48","10","used"]]' "log JSON: each candidate pool's matching records (line, score, used)"

# RR and ratio over whole cycles (doc/gslb.md §9 properties 2, 3)
run gslb resolve "$RR" rr.example.com --inputs "$RRIN" -n 6 --json
jqok '[.queries[].addresses[0]] == ["10.0.0.1","10.0.0.2","10.0.0.1","10.0.0.2","10.0.0.1","10.0.0.2"]' "rr: v3 down, alternating"
jqok '.counts.picks == {"10.0.0.1": 3, "10.0.0.2": 3}' "rr: counts"
jqok '.state.pool["/Common/p_rr"].preferred.rr == 1' "rr: state cursor at v2 (index 1)"
cat > "$TMP/ratio.json" <<'JSON'
{ "members": { "s1:v1": { "up": true }, "s1:v2": { "up": true }, "s1:v3": { "up": true } } }
JSON
run gslb resolve "$RR" ratio.example.com --inputs "$TMP/ratio.json" -n 12 --json
jqok '.counts.picks == {"10.0.0.1": 6, "10.0.0.2": 2, "10.0.0.3": 4}' "ratio 3:1:2 over two cycles: 6, 2, 4"
jqok '[.queries[0:6][].addresses[0]] == ["10.0.0.1","10.0.0.3","10.0.0.1","10.0.0.2","10.0.0.3","10.0.0.1"]' "ratio: smooth WRR order by hand"

# state carried across runs: run 1 query, feed its state back, the next pick continues
run gslb resolve "$RR" rr.example.com --inputs "$RRIN" -n 1 --json
jq '.state as $s | input | .state = {wideip: $s.wideip, pool: $s.pool}' "$TMP/out" "$RRIN" >"$TMP/next.json"
run gslb resolve "$RR" rr.example.com --inputs "$TMP/next.json" -n 1 --json
jqok '.queries[0].addresses == ["10.0.0.2"]' "state round trip: the second run continues the cycle"

# absent fields are omitted, not invented
run gslb resolve "$RR" off.example.com --inputs "$RRIN" --json
jqok '.queries[0] | keys == ["addresses","log","outcome","reason","type","wideip"] and .outcome == "return-to-dns" and .reason == "wideip-disabled"' "disabled wide IP: return-to-dns, no pool/step/method"
run gslb resolve "$RR" rcode.example.com --inputs "$RRIN" --json
jqok '.queries[0] | .outcome == "rcode" and .rcode == "nxdomain" and .soa_ttl == 60 and (has("pool") | not)' "all pools down with failure-rcode-response: rcode nxdomain"

# ---- explain: the topology that applies, regions expanded ----
# Longest match off: records by order. Line 9 (server pool q) can score q, a pool of the
# wide IP (pool-lb-mode topology); q itself picks by round robin. Line 10 names DC9,
# where no member is; line 11 (DC1) scores p's members (p picks by topology) and does
# not apply at wide-IP level (A-34). Regions: R (named by line 9), then Inner, named in
# R; Unused is named only by line 10, which applies nowhere.
cat >"$TMP/tx.conf" <<'CONF'
gtm server s { datacenter DC1 virtual-servers { v1 { destination 10.0.0.1:80 } v2 { destination 10.0.0.2:80 } } }
gtm pool a p { load-balancing-mode topology alternate-mode none fallback-mode none members { s:v1 s:v2 } }
gtm pool a q { members { s:v2 } }
gtm wideip a t.example.com { pool-lb-mode topology pools { p q } }
gtm region R { region-members { subnet 192.0.2.0/24 { } not subnet 192.0.2.128/25 { } region Inner { } } }
gtm region Inner { region-members { country DE { } } }
gtm region Unused { region-members { country FR { } } }
gtm global-settings load-balancing { topology-longest-match no }
gtm topology ldns: region R server: pool q { order 1 score 30 }
gtm topology ldns: region Unused server: datacenter DC9 { order 2 score 20 }
gtm topology ldns: subnet 0.0.0.0/0 server: datacenter DC1 { order 3 score 5 }
CONF
run gslb explain "$TMP/tx.conf" --json
jqok '.wideips[0].topology | .longest_match == false and ([.records[] | [.line, .ldns, .server, .score, .applies]] == [[9, "region /Common/R", "pool /Common/q", 30, ["wideip"]], [11, "subnet 0.0.0.0/0", "datacenter /Common/DC1", 5, ["/Common/p"]]])' "explain --json: the records that apply, where (DC9 scores no member; datacenter not at wide-IP level)"
jqok '[.wideips[0].topology.regions[] | [.name, .entries, .mixes_not]] == [["/Common/R", ["subnet 192.0.2.0/24", "not subnet 192.0.2.128/25", "region /Common/Inner"], true], ["/Common/Inner", ["country DE"], false]]' "explain --json: regions named by those records, nested ones expanded (not Unused)"
run gslb explain "$TMP/tx.conf"
has "$TMP/out" '^    line 9: ldns: region /Common/R  server: pool /Common/q  order 1 score 30  \[wide IP\]$' "explain: a record and where it applies"
has "$TMP/out" '^    region /Common/R \(line 5\): subnet 192\.0\.2\.0/24, not subnet 192\.0\.2\.128/25, region /Common/Inner !G032$' "explain: a region expanded, G032 in place"
grep -q 'line 10:' "$TMP/out"; [ $? -ne 0 ]; ok $? "explain: a record that can score no candidate is not listed"

# ---- inputs: a template resolve reads as it is ----
# The example: p_dc2 prefers lowest-round-trip-time, so its two members get rtt_us null;
# p_dc1 (topology) and the wide IP (topology, persistence) read the LDNS; vs_db is listed
# as the depends-on target of web2.
run gslb inputs "$EX"
is_rc 0 "inputs: exit 0"
cp "$TMP/out" "$TMP/tmpl.json"
jqok '.members | keys == ["/Common/bigip-dc1-v6:vs_web6","/Common/bigip-dc1-v6:vs_web6b","/Common/bigip-dc1:/Common/vs_db","/Common/bigip-dc1:/Common/vs_web","/Common/host-dc2:web2","/Common/host-dc2:web3"] and all(.[]; .up == true and .limit_exceeded == false)' "inputs: every virtual server listed up"
jqok '[.members[] | has("rtt_us")] == [false,false,true,true,false,false] and .members["/Common/host-dc2:web2"].rtt_us == null' "inputs: rtt_us null on the members of the pool that reads it, on no other"
jqok '._needs.rtt_us == ["pool /Common/p_dc2 preferred lowest-round-trip-time"] and ._needs.ldns == ["wideip /Common/www.example.com pool-lb-mode topology","wideip /Common/www.example.com persistence","pool /Common/p_dc1 preferred topology"] and ._needs.random == []' "inputs: _needs says which step reads which metric and what reads the LDNS"
jqok '.query == {"name":"www.example.com","type":"A"} and (.pools | keys) == ["/Common/p_dc1","/Common/p_dc2","aaaa /Common/p_dc1"]' "inputs: query name, pools not held down (the AAAA pool by its typed name)"
run gslb resolve "$EX" www.example.com --inputs "$TMP/tmpl.json"
is_rc 0 "inputs: the template is read by resolve as it is"
has "$TMP/err" '^wsel: gslb resolve: note: pool /Common/p_dc2 preferred lowest-round-trip-time: member /Common/host-dc2:web2 has no rtt_us in the inputs' "resolve: which member lacks which metric for which step"
[ "$(grep -c 'note: ' "$TMP/err")" -eq 2 ]; ok $? "resolve: one note per member lacking the metric (web2, web3)"
run gslb resolve "$EX" www.example.com --inputs "$EXIN"
[ ! -s "$TMP/err" ]; ok $? "resolve: no note when every metric read is given"
# QoS with its default coefficients reads rtt, link capacity, hit ratio (completion_rate),
# kbps and packet rate (doc/gslb.md §2); naming a wide IP keeps to its pools
cat >"$TMP/q.conf" <<'CONF'
gtm server s { product bigip virtual-servers { v1 { destination 10.0.0.1:80 } v2 { destination 10.0.0.2:80 } v3 { destination 10.0.0.3:80 } } }
gtm pool a q { load-balancing-mode quality-of-service fallback-mode cpu members { s:v1 } }
gtm pool a r { members { s:v2 } }
gtm wideip a q.example.com { pools { q } }
gtm wideip a r.example.com { pools { r } }
CONF
run gslb inputs "$TMP/q.conf" q.example.com
cp "$TMP/out" "$TMP/q.json"
jqok '(.members | keys) == ["/Common/s:v1"] and (.members["/Common/s:v1"] | keys) == ["completion_rate","cpu_pct","kbps","limit_exceeded","link_capacity","pps","rtt_us","up"]' "inputs WIDEIP: its members only; QoS's five metrics and the fallback's cpu_pct"
jqok '._needs.cpu_pct == ["pool /Common/q fallback cpu"] and ._needs.link_capacity == ["pool /Common/q preferred quality-of-service"]' "inputs: each metric's reader"
run gslb resolve "$TMP/q.conf" q.example.com --inputs "$TMP/q.json"
is_rc 0 "inputs: the QoS template is read by resolve"
run gslb inputs "$TMP/q.conf" nope.example.com
is_rc 2 "inputs: an unknown wide IP is an error (exit 2)"
# Monitors listed against what they probe (doc/gslb.md §3): a server's monitor probes each
# of its virtual servers, a pool's each member's, a VS's and a member's their own; the
# rule's words (min N of, require N from M, and, braces) are not monitors. Naming
# www.example.com keeps to p1 (s1:v1, s2:v3): s1:v2 (of p2 only) is left out.
cat >"$TMP/mon.conf" <<'CONF'
gtm server /Common/s1 {
    monitor /Common/bigip
    virtual-servers {
        v1 { destination 192.0.2.1:80 monitor /Common/http and /Common/tcp }
        v2 { destination 192.0.2.2:80 }
    }
}
gtm server /Common/s2 { virtual-servers { v3 { destination 192.0.2.3:80 } } }
gtm pool a /Common/p1 {
    monitor min 1 of { /Common/http /Common/https }
    members {
        /Common/s1:v1 { member-order 0 }
        /Common/s2:v3 { member-order 1 monitor require 1 from 2 { /Common/tcp /Common/gateway_icmp } }
    }
}
gtm pool a /Common/p2 { members { /Common/s1:v2 { } } }
gtm wideip a /Common/www.example.com { pools { /Common/p1 { order 0 } } }
gtm wideip a /Common/x.example.com { pools { /Common/p2 { order 0 } } }
CONF
run gslb inputs "$TMP/mon.conf" www.example.com
is_rc 0 "inputs: a config with monitors"
jqok '._needs.monitors == {"/Common/bigip": ["/Common/s1:v1 via server /Common/s1"], "/Common/gateway_icmp": ["/Common/s2:v3 via member of pool /Common/p1"], "/Common/http": ["/Common/s1:v1 via virtual server", "/Common/s1:v1 via pool /Common/p1", "/Common/s2:v3 via pool /Common/p1"], "/Common/https": ["/Common/s1:v1 via pool /Common/p1", "/Common/s2:v3 via pool /Common/p1"], "/Common/tcp": ["/Common/s1:v1 via virtual server", "/Common/s2:v3 via member of pool /Common/p1"]}' "inputs: each monitor against the virtual servers it probes and through what"
run gslb inputs "$TMP/mon.conf" x.example.com
jqok '._needs.monitors == {"/Common/bigip": ["/Common/s1:v2 via server /Common/s1"]}' "inputs WIDEIP: only the monitors of its pools' virtual servers"
run gslb inputs "$TMP/mon.conf" www.example.com
cp "$TMP/out" "$TMP/mon.json"
run gslb resolve "$TMP/mon.conf" www.example.com --inputs "$TMP/mon.json"
is_rc 0 "inputs: the template with monitors is read by resolve as it is"
run gslb inputs "$EX"
jqok '._needs.monitors == {}' "inputs: no monitor in the config, an empty monitors note"
printf 'gtm pool a p { monitor /Common/a monitor /Common/b members { s:v } }\n' >"$TMP/mon2.conf"
run gslb check "$TMP/mon2.conf"
is_rc 1 "monitor given twice in one object: an error"
has "$TMP/err" "mon2.conf:1:[0-9]+: .*attribute 'monitor' given twice" "monitor twice: the error names the attribute and its position"

# ---- topology you can debug: every matching record per candidate, in evaluation order ----
# Longest match off: records by order. LDNS 192.0.2.7 is in R (its /24, not its upper
# /25, A-40): v1 (10.0.0.1, DC1) matches line 7 (R, DC1, 20) then line 8 (any, 10.0.0.0/24,
# 5); v2 (10.0.0.2) matches line 6 (30), 7 and 8. Each candidate's first record is its
# score, the later ones are shadowed; v2 wins with 30. From 192.0.2.200 (excluded from R)
# v1 has line 8 only.
cat >"$TMP/topo.conf" <<'CONF'
gtm server s { datacenter DC1 virtual-servers { v1 { destination 10.0.0.1:80 } v2 { destination 10.0.0.2:80 } } }
gtm pool a p { load-balancing-mode topology alternate-mode none fallback-mode none members { s:v1 s:v2 } }
gtm wideip a t.example.com { pools { p } }
gtm region R { region-members { subnet 192.0.2.0/24 { } not subnet 192.0.2.128/25 { } } }
gtm global-settings load-balancing { topology-longest-match no }
gtm topology ldns: subnet 192.0.2.0/24 server: subnet 10.0.0.2/32 { order 1 score 30 }
gtm topology ldns: region R server: datacenter DC1 { order 2 score 20 }
gtm topology ldns: subnet 0.0.0.0/0 server: subnet 10.0.0.0/24 { order 3 score 5 }
CONF
printf '{"query": {"ldns": "192.0.2.7"}, "members": {"s:v1": {"up": true}, "s:v2": {"up": true}}}' >"$TMP/topo.json"
run gslb resolve "$TMP/topo.conf" t.example.com --inputs "$TMP/topo.json" --log pool-member-traversal,pool-member-selection
T='pool-member-traversal pool=/Common/p step=preferred method=topology member='
cat >"$TMP/topo.expect" <<EXPECT
  ${T}s:v1 result=eligible reason=available
  ${T}s:v1 result=matched reason=record line=7 score=20 used
  ${T}s:v1 result=matched reason=record line=8 score=5 shadowed
  ${T}s:v2 result=eligible reason=available
  ${T}s:v2 result=matched reason=record line=6 score=30 used
  ${T}s:v2 result=matched reason=record line=7 score=20 shadowed
  ${T}s:v2 result=matched reason=record line=8 score=5 shadowed
  pool-member-selection pool=/Common/p step=preferred method=topology member=s:v2 addr=10.0.0.2 n_answers=1 reason=score=30
EXPECT
grep 'pool-member' "$TMP/out" | diff "$TMP/topo.expect" - >"$TMP/diff"; r=$?
[ $r -eq 0 ] || sed 's/^/# /' "$TMP/diff"
ok $r "resolve --log: each member's matching records in evaluation order, score, used or shadowed; the winner"
run gslb resolve "$TMP/topo.conf" t.example.com --inputs "$TMP/topo.json" --ldns 192.0.2.200 --log all --json
jqok '[.queries[0].log[] | select(.reason == "record") | [.member, .line, .score, .match]] == [["s:v1","8","5","used"],["s:v2","6","30","used"],["s:v2","8","5","shadowed"]]' "resolve --json: an LDNS excluded from R matches neither line 7 (A-40)"
# a member lacking the method's metric is skipped once, never listed eligible first
cat >"$TMP/rtt.conf" <<'CONF'
gtm server s { product bigip virtual-servers { v1 { destination 10.0.0.1:80 } v2 { destination 10.0.0.2:80 } } }
gtm pool a p { load-balancing-mode lowest-round-trip-time members { s:v1 s:v2 } }
gtm wideip a r.example.com { pools { p } }
CONF
printf '{"query": {"ldns": "192.0.2.7"}, "members": {"s:v1": {"up": true}, "s:v2": {"up": true, "rtt_us": 40}}}' >"$TMP/rtt.json"
run gslb resolve "$TMP/rtt.conf" r.example.com --inputs "$TMP/rtt.json" --log pool-member-traversal
grep 'step=preferred .*member=s:v1' "$TMP/out" >"$TMP/v1"
[ "$(cat "$TMP/v1")" = "  pool-member-traversal pool=/Common/p step=preferred method=lowest-round-trip-time member=s:v1 result=skipped reason=no-metric:rtt_us" ]
ok $? "resolve --log: a member without rtt_us is skipped no-metric:rtt_us, one line, not eligible first"

# decision log golden (text), written by hand
run gslb resolve "$RR" ga.example.com --inputs "$RRIN" -n 2
diff "$G/ga.log.expect" "$TMP/out" >/dev/null; ok $? "ga: decision log and state (golden, by hand)"
run gslb resolve "$RR" ga.example.com --inputs "$RRIN" --log all --json
jqok '[.queries[0].log[].event] | index("pool-member-traversal") != null' "--log all adds member traversal"
jqok '[.queries[0].log[] | select(.event == "pool-member-traversal") | .reason] == ["available","available","down"]' "member traversal reasons"

# errors
run gslb resolve "$RR" rr.example.com --inputs "$G/bad_inputs.json"
one_line_error "inputs naming an unknown member: exit 2, one line"
has "$TMP/err" 'bad_inputs\.json:2:16: \$\.members\["s1:v9"\]: names no configured virtual server' "inputs error: file:line:col and the JSON path of the key"
# an error at a key spelled twice is placed at the offending spelling: the second "up"
# (line 3: two blanks, "s1:v2" at column 3, its value 1 at column 20), not the first
printf '{ "now": 100,\n  "members": { "s1:v1": { "up": true },\n  "s1:v2": { "up": 1 } } }\n' >"$TMP/dup.json"
run gslb resolve "$RR" rr.example.com --inputs "$TMP/dup.json"
one_line_error "inputs with a bad value: exit 2, one line"
has "$TMP/err" 'dup\.json:3:20: \$\.members\["s1:v2"\]\.up: expected true or false, got 1' "inputs error at the repeated key's offending spelling (3:20), not its first (2:26)"
run gslb resolve "$RR" rr.example.com
one_line_error "missing --inputs: exit 2"
run gslb resolve "$RR" nosuch.example.com --inputs "$RRIN"
one_line_error "unknown wide IP: exit 2"

# ---- CNAME, MX, SRV, NAPTR: not supported (A and AAAA only), said with its position
# (AAAA itself: t_gslb_aaaa.sh) ----
run gslb resolve "$G/aaaa.conf" m.example.com --inputs "$RRIN"
one_line_error "resolve of an MX wide IP: exit 2, one line"
has "$TMP/err" 'aaaa\.conf:9:1: gtm wideip mx /Common/m\.example\.com: this type is not supported \(A and AAAA wide IPs only; lint G030\)' "MX wide IP: FILE:LINE:COL, the object, not supported"
run gslb explain "$G/aaaa.conf" /Common/m.example.com.
one_line_error "explain of an MX wide IP: exit 2, one line"
has "$TMP/err" 'aaaa\.conf:9:1: gtm wideip mx' "explain: the same positioned message"
run gslb resolve "$RR" rr.example.com --inputs "$RRIN" --log bogus
one_line_error "bad --log flag: exit 2"
# --log replaces the wide IP's verbosity (the example logs pool-selection and
# pool-member-selection): none leaves the result line alone; none joined with a flag is
# that flag; a word of none's or all's length that is neither is refused
run gslb resolve "$EX" www.example.com --inputs "$EXIN" --json --log none
jqok '[.queries[0].log[].event] == ["result"]' "resolve --log none: the result line only"
run gslb resolve "$EX" www.example.com --inputs "$EXIN" --json --log none,pool-member-selection
jqok '[.queries[0].log[].event] == ["pool-member-selection", "result"]' "resolve --log none,pool-member-selection: that flag and the result"
usage_err "unknown flag in 'nope'" "bad --log flag of four letters: exit 2" gslb resolve "$EX" www.example.com --inputs "$EXIN" --log nope
usage_err "unknown flag in 'al'" "bad --log flag, a prefix of all: exit 2" gslb resolve "$EX" www.example.com --inputs "$EXIN" --log al
usage_err "unknown flag in 'any'" "bad --log flag of three letters: exit 2" gslb resolve "$EX" www.example.com --inputs "$EXIN" --log any
usage_err "-n needs an integer in 1..10000000, not ''" "resolve -n= (empty): exit 2" gslb resolve "$EX" www.example.com --inputs "$EXIN" -n=
usage_err "-n needs an integer in 1..10000000, not '18446744073709551616'" "resolve -n 2^64 (past 64 bits): exit 2" gslb resolve "$EX" www.example.com --inputs "$EXIN" -n 18446744073709551616
run gslb resolve "$RR" rr.example.com --inputs "$RRIN" --ldns 1.2.3
one_line_error "bad --ldns: exit 2"

# ---- files that are not regular: refused at once, exit 2 (never waited on, never read) ----
mkfifo "$TMP/fifo"
for args in "check $TMP/fifo" "explain $TMP/fifo" "resolve $TMP/fifo rr.example.com --inputs $RRIN" \
            "resolve $RR rr.example.com --inputs $TMP/fifo"; do
    # shellcheck disable=SC2086
    timeout 5 "$WSEL" gslb $args >"$TMP/out" 2>"$TMP/err"; RC=$?
    [ "$RC" -eq 2 ] && grep -q "is a FIFO (named pipe); expected a regular file" "$TMP/err"; r=$?
    [ $r -eq 0 ] || echo "# exit $RC: $(head -c 300 "$TMP/err")"
    ok $r "gslb ${args%% *} with a FIFO ($(echo "$args" | grep -q -- "--inputs $TMP/fifo" && echo inputs || echo config)): refused at once, exit 2"
done
for dev in /dev/null /dev/zero; do
    timeout 5 "$WSEL" gslb check "$dev" >"$TMP/out" 2>"$TMP/err"; RC=$?
    [ "$RC" -eq 2 ] && grep -q "is a device; expected a regular file" "$TMP/err"; r=$?
    [ $r -eq 0 ] || echo "# exit $RC: $(head -c 300 "$TMP/err")"
    ok $r "gslb check $dev: not a regular file, exit 2"
    timeout 5 "$WSEL" gslb resolve "$RR" rr.example.com --inputs "$dev" >"$TMP/out" 2>"$TMP/err"; RC=$?
    [ "$RC" -eq 2 ] && grep -q "is a device; expected a regular file" "$TMP/err"; r=$?
    ok $r "gslb resolve --inputs $dev: not a regular file, exit 2"
done

# ---- control bytes from the config and the inputs never reach the terminal raw ----
# ESC and BEL in a server, pool and member name, the #TMSH-VERSION line, an unknown
# attribute, and (parse error) a method name: shown as \027 and \007 (man wsel).
ESC=$(printf '\033') BEL=$(printf '\007')
{
    printf '#TMSH-VERSION: 15.1%s[31m%s\n' "$ESC" "$BEL"
    printf 'gtm server /Common/s%sx { datacenter /Common/DC1 product bigip virtual-servers { v1 { destination 10.0.0.1:80 } } }\n' "$ESC"
    printf 'gtm pool a /Common/p%s { members { s%sx:v1 } frob%snicate 1 }\n' "$BEL" "$ESC" "$ESC"
    printf 'gtm wideip a /Common/w.example.com { pools { /Common/p%s } load-balancing-decision-log-verbosity { pool-selection pool-traversal pool-member-selection pool-member-traversal } }\n' "$BEL"
} >"$TMP/esc.conf"
printf '{"now": 1, "members": {"s\\u001bx:v1": {"up": true}}}\n' >"$TMP/esc.json"
printf 'gtm pool a /Common/p { load-balancing-mode fast%sest%s }\n' "$ESC" "$BEL" >"$TMP/escbad.conf"
no_raw() { # NAME: neither ESC nor BEL on stdout or stderr
    ! grep -q "[$ESC$BEL]" "$TMP/out" "$TMP/err"; r=$?
    [ $r -eq 0 ] || echo "# raw control bytes in: $(grep -l "[$ESC$BEL]" "$TMP/out" "$TMP/err" | xargs -n1 basename | tr '\n' ' ')"
    ok $r "$1"
}
run gslb check "$TMP/esc.conf"
no_raw "check: no raw control bytes (names, TMSH-VERSION, unknown attribute)"
has "$TMP/out" 'TMSH-VERSION 15\.1\\027\[31m\\007$' "check: the TMSH-VERSION line escaped"
has "$TMP/out" 'G030 gtm pool a /Common/p\\007: ignored by this tool: frob\\027nicate$' "check: object and unknown attribute escaped"
run gslb explain "$TMP/esc.conf"
no_raw "explain: no raw control bytes"
has "$TMP/out" 'member 1 s\\027x:v1 -> 10\.0\.0\.1' "explain: the member name escaped"
run gslb resolve "$TMP/esc.conf" w.example.com --inputs "$TMP/esc.json"
no_raw "resolve: no raw control bytes (outcome line, decision log)"
has "$TMP/out" '^query 1: answer 10\.0\.0\.1 pool /Common/p\\007 step preferred' "resolve: the pool name escaped in the outcome line"
has "$TMP/out" 'pool-member-selection pool=/Common/p\\007 step=preferred method=round-robin member=s\\027x:v1 addr=10\.0\.0\.1' "resolve: names escaped in the log"
run gslb resolve "$TMP/esc.conf" w.example.com --inputs "$TMP/esc.json" --json
jqok '.queries[0].log[] | select(.event == "pool-member-selection") | .pool == "/Common/p\u0007" and .member == "s\u001bx:v1"' "resolve --json: names as JSON strings"
run gslb check "$TMP/escbad.conf"
no_raw "parse error: no raw control bytes"
has "$TMP/err" "unknown load-balancing method 'fast\\\\027est\\\\007'" "parse error: the method name escaped"
is_rc 1 "parse error: exit 1"

# ---- a reader that goes away: resolve stops at once, exit 3 with the reason ----
# (10 million queries with their log take half a minute; the closed pipe is noticed
# after the first)
( timeout 10 "$WSEL" gslb resolve "$EX" www.example.com --inputs "$EXIN" -n 10000000 --log all \
      2>"$TMP/err"; echo $? >"$TMP/rc" ) | head -c 10 >/dev/null
RC=$(cat "$TMP/rc")
[ "$RC" -eq 3 ] && grep -q "cannot write the output: Broken pipe" "$TMP/err"; r=$?
[ $r -eq 0 ] || echo "# exit $RC: $(head -c 300 "$TMP/err")"
ok $r "resolve -n 10000000 into a closed pipe: stops at once, exit 3 naming the reason"

# ---- resolve --json streams its queries: memory does not grow with N (man wsel) ----
if [ -x /usr/bin/time ]; then
    for n in 200 20000; do
        /usr/bin/time -f %M -o "$TMP/mem$n" "$WSEL" gslb resolve "$EX" www.example.com \
            --inputs "$EXIN" -n $n --log all --json >"$TMP/out$n" 2>"$TMP/err"
    done
    jq -e '(.queries | length) == 20000 and .counts.outcomes.answer == 20000' "$TMP/out20000" >/dev/null
    ok $? "resolve --json -n 20000: one JSON document holding the 20000 queries"
    a=$(tail -n 1 "$TMP/mem200"); b=$(tail -n 1 "$TMP/mem20000")
    [ "$b" -le $((a + 4096)) ]; r=$?
    [ $r -eq 0 ] || echo "# peak RSS $a KB at -n 200, $b KB at -n 20000"
    ok $r "resolve --json: peak memory at -n 20000 within 4 MB of -n 200 (kept whole: 19 MB at -n 20000)"
else
    ok 0 "# SKIP /usr/bin/time is needed to measure the peak memory"
fi
# a run whose third query fails (pool-lb-mode random, two words) prints nothing on stdout
cat >"$TMP/rand.conf" <<'CONF'
gtm server s { virtual-servers { v1 { destination 10.0.0.1:80 } v2 { destination 10.0.0.2:80 } } }
gtm pool a p1 { members { s:v1 } }
gtm pool a p2 { members { s:v2 } }
gtm wideip a w.example.com { pool-lb-mode random pools { p1 p2 } }
CONF
printf '{"members": {"s:v1": {"up": true}, "s:v2": {"up": true}}, "random": [1, 2]}' >"$TMP/rand.json"
run gslb resolve "$TMP/rand.conf" w.example.com --inputs "$TMP/rand.json" -n 3 --json
is_rc 2 "resolve --json: the third query has no random word left (exit 2)"
[ ! -s "$TMP/out" ] && grep -q "query 3" "$TMP/err"; ok $? "resolve --json: a failing run leaves stdout empty, the error names query 3"
run gslb resolve "$TMP/rand.conf" w.example.com --inputs "$TMP/rand.json" -n 2 --json
jqok '(.queries | length) == 2 and .state.random_used == 2' "resolve --json: two queries, two words used"

# ---- out of memory: exit 3 or the whole output, never a verdict or a silent success ----
# each command under tests/cli/failmalloc.c (oom_sweep in tap.sh, as t_hardening.sh):
# with the first N allocations granted and every later one refused, it exits as without
# the fault with the same output, or exits 3 saying "out of memory".
if oom_setup; then
    for args in "check $EX --json" "check $EX" "explain $EX --json" "explain $EX" "inputs $EX" \
                "resolve $EX www.example.com --inputs $EXIN -n 3 --log all --json" \
                "resolve $EX www.example.com --inputs $EXIN -n 3 --log all" \
                "resolve $RR ratio.example.com --inputs $RRIN -n 4 --json"; do
        # shellcheck disable=SC2086
        oom_sweep "gslb ${args%% /*}" gslb $args
    done
else
    ok 0 "# SKIP out-of-memory injection needs a glibc build without sanitizers"
fi

# a geo server side is read from the inputs at query time (doc/gslb.md §10: a geo
# attribute of the VS address is a "live" record, never decided from the config alone):
# continent EU scores v2 (EU) 100 and v1 (NA) nothing, so topology answers v2 every time
cat >"$TMP/geo.conf" <<'CONF'
gtm server s { product bigip virtual-servers { v1 { destination 10.0.0.1:80 } v2 { destination 10.0.0.2:80 } } }
gtm pool a p { load-balancing-mode topology alternate-mode none fallback-mode none members { s:v1 { member-order 0 } s:v2 { member-order 1 } } }
gtm wideip a g.example.com { pools { p } }
gtm topology ldns: subnet 0.0.0.0/0 server: continent EU { score 100 }
CONF
printf '%s\n' '{"query": {"ldns": "198.51.100.7"}, "members": {"s:v1": {"up": true}, "s:v2": {"up": true}},' \
    ' "geo": {"10.0.0.1": {"continent": "NA"}, "10.0.0.2": {"continent": "EU"}}}' >"$TMP/geo.json"
run gslb resolve "$TMP/geo.conf" g.example.com --inputs "$TMP/geo.json" -n 3 --json
jqok '[.queries[].addresses[0]] == ["10.0.0.2","10.0.0.2","10.0.0.2"]' "topology: a server-side continent read from the inputs' geo at query time"

done_testing
