#!/bin/sh
# bin/wsel gslb and AAAA (doc/gslb.md §1, A-43..A-46): AAAA pools and wide IPs read beside
# the A ones, one name space per type, a member answering only with a VS address of its
# pool's type, the query type in resolve (--type, query.type) and in the JSON outputs,
# IPv6 LDNS in persistence, topology and static persistence, lint G035/G036. Expected
# values worked out by hand from tests/data/gslb/aaaa.conf (round robin in member text
# order, A-31; persistence keys masked to persist-cidr-ipv6; static persistence by A-33's
# FNV-1a computed here in Python, independently of the engine).
. "$(dirname "$0")/tap.sh"
G="$DATA/../../data/gslb"
C="$G/aaaa.conf"
IN="$G/aaaa.inputs.json"

# ---- reading: types, name spaces, what stays out of scope ----
run gslb check "$C" --json
is_rc 1 "aaaa.conf: G035 and G020 are errors => exit 1"
jqok '[.findings[] | "\(.code):\(.line)"] | sort ==
      ["G006:14","G006:16","G020:14","G030:8","G030:9","G035:5","G036:4"]' \
    "aaaa.conf: findings G036 (IPv4 member of pool aaaa p), G035 (p4), G020 (p6), G030 (cname, mx)"
jqok '[.findings[] | select(.code == "G030") | .message | test("type not supported \\(A and AAAA only\\)")] == [true, true]' \
    "aaaa.conf: CNAME and MX keep their G030 line"
jqok '[.findings[] | select(.code == "G035" or .code == "G036") | .object] ==
      ["gtm pool aaaa /Common/p", "gtm pool aaaa /Common/p4"] or
      [.findings[] | select(.code == "G035" or .code == "G036") | .object] ==
      ["gtm pool aaaa /Common/p4", "gtm pool aaaa /Common/p"]' "G035/G036 name the AAAA pools"
# their messages name both families (doc/gslb.md A-43): the members' and the pool's
jqok '[.findings[] | select(.code == "G035" or .code == "G036") | .message] | sort ==
      ["member '"'s:v'"' has an IPv4 virtual server in a pool aaaa: it never answers (the pool answers IPv6 only)",
       "type mismatch: every member'"'"'s virtual server is IPv4 (s:v first), a pool aaaa answers IPv6 only: its members never answer"]' \
    "G035/G036 on AAAA pools: IPv4 members, the pool answers IPv6 only"
printf '%s\n' 'gtm server /Common/s6 { datacenter /Common/DC1 product bigip virtual-servers { v { destination 2001:db8::1.80 } w { destination 10.0.0.1:80 } } }' \
    'gtm pool a /Common/pa { members { s6:v } }' 'gtm pool a /Common/pb { members { s6:v s6:w } }' \
    'gtm wideip a /Common/w.example.com { pools { pa pb } }' >"$TMP/a6.conf"
run gslb check "$TMP/a6.conf" --json
jqok '[.findings[] | select(.code == "G035" or .code == "G036") | .message] ==
      ["type mismatch: every member'"'"'s virtual server is IPv6 (s6:v first), a pool a answers IPv4 only: its members never answer",
       "member '"'s6:v'"' has an IPv6 virtual server in a pool a: it never answers (the pool answers IPv4 only)"]' \
    "G035/G036 on A pools: IPv6 members, the pool answers IPv4 only"
run gslb check "$C"
has "$TMP/out" '5 virtual servers\), 7 pools, 7 wide IPs' "7 pools and 7 wide IPs read (A and AAAA of one name are two)"
# one name space per type: an A and an AAAA pool of one name are two, two A pools are one twice
printf 'gtm server s { virtual-servers { v { destination 10.0.0.1:80 } } }\ngtm pool a p { members { s:v } }\ngtm pool aaaa p { }\n' >"$TMP/two.conf"
run gslb check "$TMP/two.conf"
has "$TMP/out" '2 pools' "pool a p and pool aaaa p: two objects"
printf 'gtm pool aaaa p { }\ngtm pool aaaa /Common/p { }\n' >"$TMP/dup.conf"
run gslb check "$TMP/dup.conf"
is_rc 1 "pool aaaa p twice: a parse error (exit 1)"
has "$TMP/err" 'dup\.conf:2:15: gtm pool aaaa /Common/p: duplicate gtm pool aaaa' "the duplicate at its name, FILE:LINE:COL"

# ---- resolve: the query type picks the wide IP ----
run gslb resolve "$C" w.example.com --inputs "$IN" -n 4 --json
jqok '[.queries[] | .addresses[0]] == ["2001:db8::1","2001:db8::2","2001:db8::3","2001:db8::1"]' \
    "query.type AAAA: round robin over the IPv6 members, the IPv4 one left out"
jqok '[.queries[] | .type] == ["AAAA","AAAA","AAAA","AAAA"]' "resolve --json: each query carries its type"
run gslb resolve "$C" w.example.com --inputs "$IN" --type A --json
jqok '.queries[0].addresses == ["10.0.0.1"] and .queries[0].type == "A"' "--type A: the A wide IP of that name"
run gslb resolve "$C" w.example.com --inputs "$IN" --type AAAA --log all
has "$TMP/out" 'member=s:v result=skipped reason=wrong-family' "log: the IPv4 member skipped, wrong-family"
run gslb resolve "$C" v6only.example.com --inputs "$IN" --type a
one_line_error "A query for a name only an AAAA wide IP has: exit 2, one line"
has "$TMP/err" "no A wide IP answers 'v6only\\.example\\.com' .*aaaa\\.conf:7:1: gtm wideip aaaa /Common/w\\.example\\.com does \\(query type AAAA: --type AAAA\\)" \
    "the message names the AAAA wide IP and its position"
run gslb resolve "$C" v6only.example.com --inputs "$IN"
has "$TMP/out" '^query 1: answer 2001:db8::1 ' "the alias of the AAAA wide IP, query type from the inputs"
run gslb resolve "$C" w.example.com --inputs "$IN" --type MX
one_line_error "--type MX: exit 2"

# ---- the family of answers ----
echo '{"query": {"type": "AAAA"}, "members": {"s:v": {"up": true}}}' >"$TMP/v4up.json"
run gslb resolve "$C" w.example.com --inputs "$TMP/v4up.json" --json
jqok '.queries[0].outcome == "bind-aggregate" and .queries[0].addresses == ["2001:db8::1","2001:db8::2","2001:db8::3"]' \
    "only the IPv4 member up: pool unavailable, the aggregate lists the IPv6 members only"
run gslb resolve "$C" bad.example.com --inputs "$IN" --json
jqok '.queries[0].outcome == "bind-aggregate" and .queries[0].addresses == []' \
    "an AAAA pool of IPv4 members (G035): never available, nothing aggregated"
run gslb resolve "$C" six.example.com --inputs "$IN" --type A --json
jqok '.queries[0].outcome == "empty" and .queries[0].addresses == []' \
    "pool a with an IPv6 fallback-ip (G020): the fallback gives an empty answer"
run gslb resolve "$C" four.example.com --inputs "$IN" --type A --json
jqok '.queries[0].outcome == "fallback-ip" and .queries[0].addresses == ["192.0.2.99"]' \
    "near miss: an IPv4 fallback-ip in pool a answers"

# ---- IPv6 LDNS: persistence keys, state fed back, topology, static persistence ----
run gslb resolve "$C" w.example.com --inputs "$IN" --ldns 2001:db8:1:5::1 --json
jqok '.state.persistence == [{"expires":3600,"key":"2001:db8:1::/48","member":"s:v6","pool":"aaaa /Common/p","wideip":"aaaa /Common/w.example.com"}]' \
    "persistence: the IPv6 LDNS masked to persist-cidr-ipv6 48, typed names (A-45)"
jq --slurpfile s "$TMP/out" '. + {state: {wideip: $s[0].state.wideip, pool: $s[0].state.pool}, persistence: $s[0].state.persistence}' "$IN" >"$TMP/fed.json"
run gslb resolve "$C" w.example.com --inputs "$TMP/fed.json" --ldns 2001:db8:1:77::9 --json
jqok '.queries[0].step == "persist" and .queries[0].addresses == ["2001:db8::1"]' "state fed back: same /48, a persistence hit"
run gslb resolve "$C" w.example.com --inputs "$TMP/fed.json" --json
jqok '.queries[0].step == "preferred" and .queries[0].addresses == ["2001:db8::2"]' "state fed back, no LDNS: round robin continues after ::1"
run gslb resolve "$C" t.example.com --inputs "$IN" --ldns 2001:db8:1:5::1 --json
jqok '.queries[0].step == "preferred" and .queries[0].addresses == ["2001:db8::2"]' "topology: IPv6 LDNS and server subnets, the scored member"
run gslb resolve "$C" t.example.com --inputs "$IN" --ldns 2001:db8:2::1 --json
jqok '.queries[0].step == "alternate" and .queries[0].addresses == ["2001:db8::1"]' "topology: an LDNS outside the record: no score, the alternate"
# static persistence: the member with the highest FNV-1a over [6][LDNS masked /32][0][/Common/s:VS]
sp_expect() {
    python3 - "$1" <<'PY'
import ipaddress, sys
net = ipaddress.ip_network(sys.argv[1] + "/32", strict=False).network_address.packed
def fnv(data, h=0xcbf29ce484222325):
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
    return h
base = bytes([6]) + net + bytes([0])
addr = {"v6": "2001:db8::1", "v6b": "2001:db8::2", "v6c": "2001:db8::3"}
best = max(["v6", "v6b", "v6c"], key=lambda v: (fnv(base + ("/Common/s:" + v).encode()), -list(addr).index(v)))
print(addr[best])
PY
}
for l in 2001:db8:1:5::1 2001:db8:ffff::9 2001:db9::1 2001:dead::1; do
    want=$(sp_expect "$l")
    run gslb resolve "$C" sp.example.com --inputs "$IN" --ldns "$l" --json
    jqok ".queries[0].addresses == [\"$want\"]" "static persistence, LDNS $l: $want (static-persist-cidr-ipv6 32)"
done

# ---- explain and inputs address both types ----
run gslb explain "$C" w.example.com --json
jqok '[.wideips[] | .type] == ["A","AAAA"] and [.wideips[] | .pools[0].type] == ["A","AAAA"]' \
    "explain NAME: its A and its AAAA wide IP, each with its type"
run gslb explain "$C" w.example.com --type AAAA --json
jqok '[.wideips[] | .type] == ["AAAA"]' "explain --type AAAA: the AAAA one only"
run gslb explain "$C" w.example.com --type AAAA
has "$TMP/out" '^wideip aaaa /Common/w\.example\.com ' "explain text: wideip aaaa"
run gslb inputs "$C" w.example.com --type AAAA
jqok '.query.type == "AAAA" and (.pools | keys) == ["aaaa /Common/p"] and (.members | keys) == ["/Common/s:v","/Common/s:v6","/Common/s:v6b","/Common/s:v6c"]' \
    "inputs --type AAAA: query type AAAA, the pool by its typed name"
cp "$TMP/out" "$TMP/tpl.json"
run gslb resolve "$C" w.example.com --inputs "$TMP/tpl.json" --json
jqok '.queries[0].type == "AAAA" and .queries[0].addresses == ["2001:db8::1"]' "the template read back: an AAAA query"
run gslb inputs "$C" w.example.com
jqok '.query.type == "A" and (.pools | keys) == ["/Common/p","aaaa /Common/p"]' "inputs NAME: both types' pools"

done_testing
