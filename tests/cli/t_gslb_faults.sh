#!/bin/sh
# GSLB (doc/gslb.md, issue 27 classes 4-7): topology record precedence (longest match on
# and off, kinds, prefix lengths, ties), every outcome kind of `resolve` with its counts,
# member names SERVER:VS whose parts hold ':' or a path, and every trigger of the lint
# codes that have several, each with near misses. Expected values are worked out by hand
# from doc/gslb.md and the man page (GSLB lint codes), never taken from a run.
. "$(dirname "$0")/tap.sh"
C="$TMP/c.conf"
I="$TMP/i.json"
conf() { printf '%s\n' "$1" >"$C"; }
inputs() { printf '%s\n' "$1" >"$I"; }
res() { run gslb resolve "$C" "$@" --inputs "$I" --json; } # res WIDEIP [ARGS]

# ---- 4. topology: which record scores a candidate (A-35) ----
# One member, s1:v1 at 192.0.2.1 in DC1, in pool p (preferred topology): the score the log
# shows for it is the score of the first record, in evaluation order, matching both the
# LDNS (10.1.2.3, geo EU / DE / DE-BE / isp ispx) and the member. Every record has a
# distinct score, so the score names the record. With topology-longest-match on (the
# default): records by LDNS-side specificity (subnet by prefix length > region > isp >
# state > country > continent), then server side (subnet > pool > datacenter > region),
# then `order`, then file order; off: `order`, then file order.
TS='gtm server /Common/s1 { datacenter /Common/DC1 product bigip virtual-servers { v1 { destination 192.0.2.1:80 } } }
gtm pool a p { load-balancing-mode topology alternate-mode none fallback-mode none members { s1:v1 } }
gtm wideip a w { pools { p } }
gtm region /Common/r_net { region-members { subnet 10.0.0.0/8 { } } }
gtm region /Common/r_de { region-members { country DE { } } }
gtm region /Common/r_srv { region-members { subnet 192.0.2.0/24 { } } }'
inputs '{"now": 1, "query": {"name": "w", "type": "A", "ldns": "10.1.2.3"},
 "members": {"s1:v1": {"up": true}},
 "geo": {"10.1.2.3": {"continent": "EU", "country": "DE", "state": "DE-BE", "isp": "ispx"}}}'
score() { # score RECORDS NAME EXPECTED: the member's score under these records
    conf "$TS
$1"
    res w --log pool-member-selection
    jqok "[.queries[0].log[] | select(.event == \"pool-member-selection\") | .reason] == [\"score=$3\"]" "$2"
}
SRV='server: subnet 192.0.2.0/24'
# prefix lengths: /8 (order 1) and /16 (order 2) both match 10.1.2.3
R1="gtm topology ldns: subnet 10.0.0.0/8 $SRV { score 100 order 1 }
gtm topology ldns: subnet 10.1.0.0/16 $SRV { score 10 order 2 }
gtm topology ldns: subnet 10.1.2.0/24 server: subnet 198.51.100.0/24 { score 7 order 3 }"
score "$R1" "longest match on (default): /16 beats /8 (the /24 names another server)" 10
score "$R1
gtm global-settings load-balancing { topology-longest-match yes }" "longest match yes: /16" 10
score "$R1
gtm global-settings load-balancing { topology-longest-match no }" "longest match no: order 1 first (/8)" 100
# LDNS-side kinds, written least specific first with rising order: with longest match on
# the most specific present wins; off, always the first (continent, 11)
K_CONT="gtm topology ldns: continent EU $SRV { score 11 order 1 }"
K_CTRY="gtm topology ldns: country DE $SRV { score 12 order 2 }"
K_STATE="gtm topology ldns: state DE-BE $SRV { score 13 order 3 }"
K_ISP="gtm topology ldns: isp ispx $SRV { score 14 order 4 }"
K_REG="gtm topology ldns: region /Common/r_net $SRV { score 15 order 5 }"
K_SUB="gtm topology ldns: subnet 10.0.0.0/8 $SRV { score 16 order 6 }"
score "$K_CONT
$K_CTRY
$K_STATE
$K_ISP
$K_REG
$K_SUB" "LDNS side: subnet beats region, isp, state, country, continent" 16
score "$K_CONT
$K_CTRY
$K_STATE
$K_ISP
$K_REG" "LDNS side: region beats isp" 15
score "$K_CONT
$K_CTRY
$K_STATE
$K_ISP" "LDNS side: isp beats state" 14
score "$K_CONT
$K_CTRY
$K_STATE" "LDNS side: state beats country" 13
score "$K_CONT
$K_CTRY" "LDNS side: country beats continent" 12
score "$K_CONT
$K_CTRY
$K_STATE
$K_ISP
$K_REG
$K_SUB
gtm global-settings load-balancing { topology-longest-match no }" "longest match off: order decides (continent, order 1)" 11
# server-side kinds under one LDNS side (subnet 10.0.0.0/8 everywhere)
L='gtm topology ldns: subnet 10.0.0.0/8'
S_REG="$L server: region /Common/r_srv { score 21 order 1 }"
S_DC="$L server: datacenter /Common/DC1 { score 22 order 2 }"
S_POOL="$L server: pool /Common/p { score 23 order 3 }"
S_SUB="$L server: subnet 192.0.2.0/24 { score 24 order 4 }"
score "$S_REG
$S_DC
$S_POOL
$S_SUB" "server side: subnet beats pool, datacenter, region" 24
score "$S_REG
$S_DC
$S_POOL" "server side: pool beats datacenter" 23
score "$S_REG
$S_DC" "server side: datacenter beats region" 22
# the LDNS side decides before the server side: /16 with a region server side beats /8
# with a subnet server side
score "gtm topology ldns: subnet 10.0.0.0/8 server: subnet 192.0.2.0/24 { score 31 order 1 }
gtm topology ldns: subnet 10.1.0.0/16 server: region /Common/r_srv { score 32 order 2 }" \
    "LDNS side before server side" 32
# ties (same kinds on both sides): order, then file order
score "gtm topology ldns: region /Common/r_net $SRV { score 41 order 2 }
gtm topology ldns: region /Common/r_de $SRV { score 42 order 1 }" "tie: the lower order first" 42
score "gtm topology ldns: region /Common/r_net $SRV { score 43 order 3 }
gtm topology ldns: region /Common/r_de $SRV { score 44 order 3 }" "tie with equal order: file order" 43
score "gtm topology ldns: region /Common/r_de $SRV { score 45 order 3 }
gtm topology ldns: region /Common/r_net $SRV { score 46 order 3 }" "tie with equal order: file order (swapped)" 45
# wide-IP level (pool-lb-mode topology): pool p1's score comes from /16 (90) with longest
# match on, from the order-1 /8 record (5) with it off; p2 scores 50 either way. The
# higher score is tried first: p1 (10.0.1.1) on, p2 (10.0.2.1) off.
WT='gtm server /Common/s1 { datacenter /Common/DC1 product bigip virtual-servers {
  v1 { destination 10.0.1.1:80 } v2 { destination 10.0.2.1:80 } } }
gtm pool a p1 { members { s1:v1 } }
gtm pool a p2 { members { s1:v2 } }
gtm wideip a w { pool-lb-mode topology pools { p1 p2 } }
gtm topology ldns: subnet 10.0.0.0/8 server: pool /Common/p1 { score 5 order 1 }
gtm topology ldns: subnet 10.1.0.0/16 server: pool /Common/p1 { score 90 order 2 }
gtm topology ldns: subnet 0.0.0.0/0 server: pool /Common/p2 { score 50 order 3 }'
inputs '{"now": 1, "query": {"name": "w", "type": "A", "ldns": "10.1.2.3"},
 "members": {"s1:v1": {"up": true}, "s1:v2": {"up": true}}}'
conf "$WT"
res w
jqok '.queries[0].addresses == ["10.0.1.1"] and .queries[0].pool == "/Common/p1"' "wide IP topology, longest match: p1 (/16, 90)"
conf "$WT
gtm global-settings load-balancing { topology-longest-match no }"
res w
jqok '.queries[0].addresses == ["10.0.2.1"] and .queries[0].pool == "/Common/p2"' "wide IP topology, evaluation order: p2 (p1 scores 5)"

# ---- 5. every outcome kind, with its counts ----
# s1:v1 (10.0.0.1) and s1:v2 (10.0.0.2) up, s1:v3 (10.0.0.3) down. A pool whose preferred
# must fail while it is available uses topology with no record naming it (A-14: every
# score 0 fails) and alternate none, so its fallback decides (§4.3).
OC='gtm server /Common/s1 { datacenter /Common/DC1 product bigip virtual-servers {
  v1 { destination 10.0.0.1:80 } v2 { destination 10.0.0.2:80 } v3 { destination 10.0.0.3:80 } } }
gtm pool a p_ans { members { s1:v1 } }
gtm pool a p_drop { load-balancing-mode topology alternate-mode none fallback-mode drop-packet members { s1:v2 } }
gtm pool a p_fip { load-balancing-mode topology alternate-mode none fallback-mode fallback-ip fallback-ip 192.0.2.99 members { s1:v2 } }
gtm pool a p_empty { load-balancing-mode topology alternate-mode none fallback-mode fallback-ip members { s1:v2 } }
gtm pool a p_rtd { load-balancing-mode topology alternate-mode none fallback-mode return-to-dns members { s1:v2 } }
gtm pool a p_none { load-balancing-mode topology alternate-mode none fallback-mode none members { s1:v2 } }
gtm pool a p_down { members { s1:v3 } }
gtm pool a p_down2 { members { s1:v3 s1:v1 { disabled } } }
gtm wideip a w_ans { pools { p_ans } }
gtm wideip a w_drop { pools { p_drop } }
gtm wideip a w_fip { pools { p_fip } }
gtm wideip a w_empty { pools { p_empty } }
gtm wideip a w_rtd { pools { p_rtd } }
gtm wideip a w_nomore { pools { p_none } }
gtm wideip a w_off { disabled pools { p_ans } }
gtm wideip a w_agg { pools { p_down p_down2 } }
gtm wideip a w_rcode { failure-rcode-response enabled failure-rcode nxdomain failure-rcode-ttl 60 pools { p_down } }
gtm wideip a w_mix { pool-lb-mode round-robin pools { p_ans p_drop p_fip } }'
conf "$OC"
inputs '{"now": 1, "query": {"name": "w", "type": "A", "ldns": "10.1.2.3"},
 "members": {"s1:v1": {"up": true}, "s1:v2": {"up": true}, "s1:v3": {"up": false}}}'
res w_ans -n 3
jqok '.counts == {"outcomes": {"answer": 3}, "picks": {"10.0.0.1": 3}} and [.queries[].outcome] == ["answer","answer","answer"]' \
    "answer x3: outcomes and picks"
res w_drop -n 2
jqok '.counts == {"outcomes": {"drop": 2}, "picks": {}} and (.queries[0] | .outcome == "drop" and .addresses == [] and .step == "fallback")' \
    "drop x2: counted, no pick"
res w_fip -n 2
jqok '.counts == {"outcomes": {"fallback-ip": 2}, "picks": {"192.0.2.99": 2}} and .queries[0].addresses == ["192.0.2.99"]' \
    "fallback-ip x2: counted, and its address is a pick"
res w_empty -n 2
jqok '.counts == {"outcomes": {"empty": 2}, "picks": {}} and .queries[0].addresses == []' \
    "unset fallback-ip: empty x2 (A-28), no pick"
res w_rtd -n 2
jqok '.counts == {"outcomes": {"return-to-dns": 2}, "picks": {}} and .queries[0].reason == "return-to-dns"' \
    "pool fallback return-to-dns x2"
res w_nomore
jqok '.counts == {"outcomes": {"return-to-dns": 1}, "picks": {}} and .queries[0].reason == "no-more-pools"' \
    "none cascade: return-to-dns (no-more-pools)"
res w_off -n 2
jqok '.counts == {"outcomes": {"return-to-dns": 2}, "picks": {}} and .queries[0].reason == "wideip-disabled"' \
    "disabled wide IP: return-to-dns (wideip-disabled)"
# no attached pool available (A-26): the aggregate of every member written in the attached
# pools, disabled ones too, list order, deduplicated: 10.0.0.3, 10.0.0.1
res w_agg -n 2
jqok '.counts == {"outcomes": {"bind-aggregate": 2}, "picks": {}} and .queries[0].addresses == ["10.0.0.3","10.0.0.1"]' \
    "bind-aggregate x2: counted, its addresses no pick"
res w_rcode -n 2
jqok '.counts == {"outcomes": {"rcode": 2}, "picks": {}} and (.queries[0] | .rcode == "nxdomain" and .soa_ttl == 60)' \
    "rcode x2"
# round robin over three pools (first pick the first pool, A-23): p_ans answers, p_drop
# drops, p_fip answers its fallback-ip; five queries: ans, drop, fip, ans, drop. Outcome
# keys in the order first seen.
res w_mix -n 5
jqok '[.queries[].outcome] == ["answer","drop","fallback-ip","answer","drop"]' "mixed: outcomes in turn"
jqok '.counts.outcomes == {"answer": 2, "drop": 2, "fallback-ip": 1} and (.counts.outcomes | keys_unsorted) == ["answer","drop","fallback-ip"]' \
    "mixed: outcome counts, first-seen order"
jqok '.counts.picks == {"10.0.0.1": 2, "192.0.2.99": 1} and (.counts.picks | keys_unsorted) == ["10.0.0.1","192.0.2.99"]' \
    "mixed: picks of answers and fallback-ip"
run gslb resolve "$C" w_mix --inputs "$I" -n 5
has "$TMP/out" '^counts: answer 2 drop 2 fallback-ip 1$' "mixed, text: the counts line"
has "$TMP/out" '^  10\.0\.0\.1 2$' "mixed, text: the answer's pick count"
has "$TMP/out" '^  192\.0\.2\.99 1$' "mixed, text: the fallback-ip's pick count"

# the last-resort pool never runs twice (A-24): p_fail (available; its chain fails: topology
# without records, none, none) is attached at list position 1 and is the last-resort pool;
# p_down is unavailable. Step 4 runs p_fail (selected, then next-pool), step 5 skips it as
# already tried, step 6 gives return-to-dns (no-more-pools). A second run would log a
# pool-selection for the last resort and p_fail's traversal again.
# (generated mutant ref/gslb/gslb_decide.c@a70f583fb1:const:1:2:1: the "tried" bit of the
# wrong list position)
conf "$OC
gtm pool a p_fail { load-balancing-mode topology alternate-mode none fallback-mode none members { s1:v1 } }
gtm wideip a w_lr { last-resort-pool a p_fail pools { p_down p_fail } }"
res w_lr --log pool-selection,pool-traversal
jqok '.queries[0].reason == "no-more-pools" and ([.queries[0].log[] | select(.event == "pool-selection")] | length) == 1 and [.queries[0].log[] | select(.event == "pool-traversal" and .pool == "/Common/p_fail") | .result] == ["selected","next-pool","skipped"] and .queries[0].log[-2].reason == "already-tried"' \
    "last-resort pool already tried in step 4: skipped, not run twice"

# ---- 6. member names: SERVER:VS split at the first ':' (A-2) ----
# VS names holding ':' and a path (/Common/vs:1) or looking like an IPv6 address. The VS
# part is matched literally against the server's virtual-servers names, then as
# /Common/VS; the server part gets /Common/ when it has no leading '/'.
#   /Common/s1:/Common/vs:1  -> server /Common/s1, VS "/Common/vs:1" (literal)      10.6.0.1
#   s1:vs:1                  -> server /Common/s1, VS "vs:1" -> "/Common/vs:1"      10.6.0.1
#   s1:2001:db8::7           -> server /Common/s1, VS "2001:db8::7" (literal)       10.6.0.7
#   s1:db8::7, s1:2001       -> VS "db8::7", "2001": no such VS (G013)
#   s2:a:b                   -> server /Common/s2 (whose VS is "a:b"), not "s2:a"    10.6.0.2
MC='gtm server /Common/s1 { datacenter /Common/DC1 product bigip virtual-servers {
    /Common/vs:1 { destination 10.6.0.1:80 }
    2001:db8::7 { destination 10.6.0.7:80 }
} }
gtm server /Common/s2 { datacenter /Common/DC1 product bigip virtual-servers { a:b { destination 10.6.0.2:80 } } }
gtm pool a p1 { members { /Common/s1:/Common/vs:1 } }
gtm pool a p2 { members { s1:vs:1 } }
gtm pool a p3 { members { s1:2001:db8::7 } }
gtm pool a p4 { members { s2:a:b } }
gtm wideip a w1 { pools { p1 } }
gtm wideip a w2 { pools { p2 } }
gtm wideip a w3 { pools { p3 } }
gtm wideip a w4 { pools { p4 } }'
conf "$MC"
run gslb check "$C" --json
jqok '.findings == []' "names: every member resolves (no G013)"
# the inputs use the same split: keys spelled differently from the config's name the same VS
inputs '{"now": 1, "query": {"name": "w", "type": "A", "ldns": "10.1.2.3"},
 "members": {"s1:vs:1": {"up": true}, "/Common/s1:2001:db8::7": {"up": true}, "/Common/s2:a:b": {"up": true}}}'
for x in "w1 10.6.0.1" "w2 10.6.0.1" "w3 10.6.0.7" "w4 10.6.0.2"; do
    set -- $x
    res "$1"
    jqok ".queries[0].outcome == \"answer\" and .queries[0].addresses == [\"$2\"]" "names: $1 answers $2"
done
conf "$MC
gtm pool a p5 { members { s1:db8::7 s1:2001 } }"
run gslb check "$C" --json
jqok '[.findings[] | [.code, .object]] == [["G013","gtm pool a /Common/p5"],["G013","gtm pool a /Common/p5"]] and ([.findings[].message] | map(test("s1:db8::7|s1:2001")) | all)' \
    "names: s1:db8::7 and s1:2001 name no VS (split at the first ':')"
inputs '{"now": 1, "query": {"name": "w", "type": "A", "ldns": "10.1.2.3"}, "members": {"s1:2001:db8:0::7": {"up": true}}}'
conf "$MC"
res w3
one_line_error "names: inputs key s1:2001:db8:0::7 is no VS name (matched literally, not as an address)"

# ---- 7. every trigger of the lint codes with several, and near misses ----
# man wsel (GSLB lint codes) and doc/gslb.md §6 (Lint) and §8.2. `fires CODE SEV CONFIG
# NAME`: `check --json` lists CODE with severity SEV; `quiet CODE CONFIG NAME`: it does not.
S1='gtm server /Common/s1 { datacenter /Common/DC1 product bigip virtual-servers {
  v1 { destination 10.0.0.1:80 } v2 { destination 10.0.0.2:80 } } }'
G1='gtm server /Common/g1 { datacenter /Common/DC2 product generic-host virtual-servers { v1 { destination 10.0.1.1:80 } } }'
N1='gtm server /Common/n1 { datacenter /Common/DC3 virtual-servers { v1 { destination 10.0.2.1:80 } } }'
W='gtm wideip a w { pools { p } }'
P() { echo "gtm pool a p { $1 members { s1:v1 s1:v2 } }"; }
fires() {
    conf "$3"
    run gslb check "$C" --json
    jqok "[.findings[] | select(.code == \"$1\") | .severity] | length > 0 and all(. == \"$2\")" "$1 fires: $4"
}
quiet() {
    conf "$2"
    run gslb check "$C" --json
    jqok "[.findings[] | select(.code == \"$1\")] == []" "$1 quiet: $3"
}
# G001: fallback-ip as the preferred, the alternate or the fallback method, fallback-ip
# unset; unset includes 0.0.0.0, ::, any, any6 (A-4)
fires G001 error "$S1
$(P 'load-balancing-mode fallback-ip')
$W" "preferred fallback-ip, unset"
fires G001 error "$S1
$(P 'alternate-mode fallback-ip')
$W" "alternate fallback-ip, unset"
fires G001 error "$S1
$(P 'fallback-mode fallback-ip')
$W" "fallback fallback-ip, unset"
for u in 0.0.0.0 :: any any6; do
    fires G001 error "$S1
$(P "fallback-mode fallback-ip fallback-ip $u")
$W" "fallback-ip $u counts as unset"
done
quiet G001 "$S1
$(P 'alternate-mode fallback-ip fallback-ip 192.0.2.1')
$W" "alternate fallback-ip, set"
quiet G001 "$S1
$(P 'load-balancing-mode fallback-ip fallback-ip 192.0.2.1')
$W" "preferred fallback-ip, set"
quiet G001 "$S1
$(P 'fallback-mode return-to-dns')
$W" "unset fallback-ip that no step uses"
# G002: dynamic-ratio enabled, neither the preferred nor the fallback a dynamic-ratio method
fires G002 warning "$S1
$(P 'dynamic-ratio enabled load-balancing-mode ratio fallback-mode round-robin')
$W" "static preferred and fallback"
quiet G002 "$S1
$(P 'dynamic-ratio enabled fallback-mode lowest-round-trip-time')
$W" "dynamic-ratio method as fallback"
quiet G002 "$S1
$(P 'dynamic-ratio enabled load-balancing-mode completion-rate')
$W" "dynamic-ratio method as preferred"
quiet G002 "$S1
$(P 'dynamic-ratio disabled')
$W" "dynamic-ratio disabled"
# G003: preferred global-availability and a fallback other than none (the default
# return-to-dns counts)
fires G003 warning "$S1
$(P 'load-balancing-mode global-availability fallback-mode round-robin')
$W" "GA with fallback round-robin"
fires G003 warning "$S1
$(P 'load-balancing-mode global-availability')
$W" "GA with the default fallback"
quiet G003 "$S1
$(P 'alternate-mode global-availability')
$W" "GA as alternate only"
# G004: topology at both levels and the pool's fallback not none
TOP='gtm topology ldns: subnet 0.0.0.0/0 server: pool /Common/p { }'
fires G004 warning "$S1
$(P 'load-balancing-mode topology')
gtm wideip a w { pool-lb-mode topology pools { p } }
$TOP" "default fallback"
quiet G004 "$S1
$(P 'alternate-mode topology')
gtm wideip a w { pool-lb-mode topology pools { p } }
$TOP" "topology as the pool's alternate only"
quiet G004 "$S1
$(P 'load-balancing-mode topology')
gtm wideip a w { pool-lb-mode round-robin pools { p } }
$TOP" "wide IP not topology"
# G006: server methods need a BIG-IP server (an unknown or missing product is generic,
# A-3); path methods a BIG-IP in the member's data center; the preferred only
fires G006 warning "$G1
gtm pool a p { load-balancing-mode packet-rate members { g1:v1 } }
$W" "server method, generic-host"
fires G006 warning "$N1
gtm pool a p { load-balancing-mode cpu members { n1:v1 } }
$W" "server method, no product"
quiet G006 "$S1
gtm server /Common/r1 { datacenter /Common/DC9 product redundant-bigip virtual-servers { v1 { destination 10.0.9.1:80 } } }
gtm pool a p { load-balancing-mode kilobytes-per-second members { r1:v1 } }
$W" "server method, redundant-bigip"
fires G006 warning "$S1
$G1
gtm pool a p { load-balancing-mode completion-rate members { g1:v1 } }
$W" "path method, no BIG-IP in the member's data center"
quiet G006 "$S1
$G1
gtm server /Common/b2 { datacenter /Common/DC2 product bigip }
gtm pool a p { load-balancing-mode completion-rate members { g1:v1 } }
$W" "path method, a BIG-IP in the member's data center"
quiet G006 "$G1
gtm pool a p { alternate-mode packet-rate members { g1:v1 } }
$W" "server method as alternate only"
# G008: verify-member-availability disabled and a member-selecting fallback
fires G008 warning "$S1
$(P 'verify-member-availability disabled fallback-mode global-availability')
$W" "fallback global-availability"
for f in none return-to-dns drop-packet "fallback-ip fallback-ip 192.0.2.1"; do
    quiet G008 "$S1
$(P "verify-member-availability disabled fallback-mode $f")
$W" "fallback $f selects no member"
done
quiet G008 "$S1
$(P 'fallback-mode round-robin')
$W" "verify enabled (the default)"
# G009: fallback-ip as the preferred or the alternate
fires G009 info "$S1
$(P 'alternate-mode fallback-ip fallback-ip 192.0.2.1')
$W" "alternate fallback-ip"
fires G009 info "$S1
$(P 'load-balancing-mode fallback-ip fallback-ip 192.0.2.1')
$W" "preferred fallback-ip"
# G011: preferred return-to-dns or drop-packet
fires G011 info "$S1
$(P 'load-balancing-mode drop-packet')
$W" "preferred drop-packet"
fires G011 info "$S1
$(P 'load-balancing-mode return-to-dns')
$W" "preferred return-to-dns"
quiet G011 "$S1
$(P 'fallback-mode drop-packet')
$W" "fallback drop-packet"
# G013: member, depends-on, wide IP's pool, topology pool
fires G013 error "$S1
gtm pool a p { members { s1:v9 } }
$W" "member"
fires G013 error "gtm server /Common/s1 { virtual-servers { v1 { destination 10.0.0.1:80 depends-on { s1:v9 } } } }
gtm pool a p { members { s1:v1 } }
$W" "depends-on"
jqok '[.findings[] | select(.code == "G013") | .object] == ["gtm server /Common/s1 virtual-server v1"]' \
    "G013 for a depends-on entry names the virtual server holding it"
fires G013 error "$S1
$(P '')
gtm wideip a w { pools { p nope } }" "wide IP pool"
fires G013 error "$S1
$(P '')
$W
gtm topology ldns: subnet 0.0.0.0/0 server: pool /Common/nope { }" "topology pool"
quiet G013 "gtm server /Common/s1 { virtual-servers { v1 { destination 10.0.0.1:80 depends-on { /Common/s1:v2 } } v2 { destination 10.0.0.2:80 } } }
gtm pool a p { members { /Common/s1:v1 } }
gtm wideip a w { pools { /Common/p } }
gtm topology ldns: subnet 0.0.0.0/0 server: pool p { }" "every reference resolves (with and without /Common/)"
# G017: ratio in use at that level with all ratios equal (two or more), or a ratio 0; for a
# pool's members (ratio at any step) and a wide IP's pools
fires G017 info "$S1
$(P 'alternate-mode ratio')
$W" "pool: alternate ratio, member ratios all 1"
fires G017 info "$S1
gtm pool a p { fallback-mode ratio members { s1:v1 { ratio 0 } s1:v2 { ratio 2 } } }
$W" "pool: fallback ratio, a member ratio 0"
quiet G017 "$S1
gtm pool a p { load-balancing-mode ratio members { s1:v1 { ratio 3 } } }
$W" "pool: a single member"
quiet G017 "$S1
gtm pool a p { load-balancing-mode ratio members { s1:v1 { ratio 3 } s1:v2 { ratio 1 } } }
$W" "pool: ratios differ, none 0"
fires G017 info "$S1
$(P '')
gtm pool a p2 { members { s1:v2 } }
gtm wideip a w { pool-lb-mode ratio pools { p { ratio 2 } p2 { ratio 2 } } }" "wide IP: pool ratios equal"
fires G017 info "$S1
$(P '')
gtm pool a p2 { members { s1:v2 } }
gtm wideip a w { pool-lb-mode ratio pools { p { ratio 0 } p2 { ratio 2 } } }" "wide IP: a pool ratio 0"
quiet G017 "$S1
$(P '')
gtm pool a p2 { members { s1:v2 } }
gtm wideip a w { pool-lb-mode round-robin pools { p { ratio 0 } p2 { ratio 0 } } }" "wide IP: ratio not the pool-lb-mode"
# G018: topology that can never score > 0, at pool and at wide-IP level (where only pool
# conditions apply, A-34)
fires G018 warning "$S1
$(P '')
gtm pool a p2 { members { s1:v2 } }
gtm wideip a w { pool-lb-mode topology pools { p p2 } }
gtm topology ldns: subnet 0.0.0.0/0 server: datacenter /Common/DC1 { }" "wide IP: a datacenter record only"
quiet G018 "$S1
$(P '')
gtm pool a p2 { members { s1:v2 } }
gtm wideip a w { pool-lb-mode topology pools { p p2 } }
gtm region /Common/rp { region-members { pool /Common/p2 { } } }
gtm topology ldns: subnet 0.0.0.0/0 server: region /Common/rp { }" "wide IP: a pool through a region"
fires G018 warning "$S1
$(P 'load-balancing-mode topology fallback-mode none')
$W
gtm topology ldns: subnet 0.0.0.0/0 server: subnet 192.0.2.0/24 { }" "pool: no member in the record's subnet"
quiet G018 "$S1
$(P 'load-balancing-mode topology fallback-mode none')
$W
gtm topology ldns: subnet 0.0.0.0/0 server: subnet 10.0.0.0/30 { }" "pool: a member in the record's subnet"
# G021: a cycle of one, of two
fires G021 error "gtm server /Common/t { virtual-servers { a { destination 10.1.0.1:80 depends-on { t:a } } } }
gtm pool a p { members { t:a } }
$W" "a VS depending on itself"
# ... and exactly the VSs on the cycle: t:b and t:c depend on each other; t:a (the first
# VS, depending on nothing) and t:d (depending on the cycle, not on it) are not named
conf "gtm server /Common/t { virtual-servers { a { destination 10.1.0.1:80 }
 b { destination 10.1.0.2:80 depends-on { t:c } } c { destination 10.1.0.3:80 depends-on { t:b } }
 d { destination 10.1.0.4:80 depends-on { t:b } } } }
gtm pool a p { members { t:a t:b t:c t:d } }
$W"
run gslb check "$C" --json
jqok '[.findings[] | select(.code == "G021") | .object] == ["gtm server /Common/t virtual-server b", "gtm server /Common/t virtual-server c"]' \
    "G021 names the two VSs of a cycle of two, not the first VS nor one depending on the cycle"
# G028: static persistence with a /0 static-persist CIDR, IPv4 or IPv6
fires G028 warning "$S1
$(P 'load-balancing-mode static-persistence')
gtm global-settings load-balancing { static-persist-cidr-ipv6 0 }
$W" "IPv6 CIDR /0"
quiet G028 "$S1
$(P '')
gtm global-settings load-balancing { static-persist-cidr-ipv4 0 }
$W" "CIDR /0 without static persistence"
# G030: an unknown attribute, an out-of-scope statement, a pool of another type
fires G030 info "$S1
$(P '')
$W
gtm pool cname p6 { members { s1:v1 } }" "a pool cname"
fires G030 info "$S1
$(P '')
$W
ltm virtual /Common/x { destination 10.9.9.9:80 }" "an ltm statement"
quiet G030 "$S1
$(P 'description "x y" monitor /Common/http')
$W" "read-and-ignored attributes"
# G007: pool-lb-mode written with a single pool
fires G007 info "$S1
$(P '')
gtm wideip a w { pool-lb-mode global-availability pools { p } }" "written, one pool"
quiet G007 "$S1
$(P '')
$W" "one pool, pool-lb-mode left to its default"
quiet G007 "$S1
$(P '')
gtm pool a p2 { members { s1:v2 } }
gtm wideip a w { pool-lb-mode global-availability pools { p p2 } }" "written, two pools"
# G019: quality-of-service at any step with every coefficient 0
Q0='qos-rtt 0 qos-lcs 0 qos-hit-ratio 0 qos-kbps 0 qos-packet-rate 0'
fires G019 warning "$S1
$(P "fallback-mode quality-of-service $Q0")
$W" "QoS as the fallback, all 0"
quiet G019 "$S1
$(P "fallback-mode quality-of-service $Q0 qos-hops 1")
$W" "one coefficient (qos-hops) above 0"
quiet G019 "$S1
$(P "$Q0")
$W" "coefficients 0, QoS not used"
# G024: persistence enabled with ttl-persistence 0
quiet G024 "$S1
$(P '')
gtm wideip a w { persistence disabled ttl-persistence 0 pools { p } }" "persistence disabled"
# G029: datacenter records, topology at wide-IP level only; a pool's QoS with a topology
# coefficient counts as topology at member level
DC2W="$S1
gtm pool a p2 { members { s1:v2 } }
gtm wideip a w { pool-lb-mode topology pools { p p2 } }
gtm topology ldns: subnet 0.0.0.0/0 server: datacenter /Common/DC1 { }
gtm topology ldns: subnet 0.0.0.0/0 server: pool /Common/p { }"
fires G029 info "$(P '')
$DC2W" "no pool uses topology"
quiet G029 "$(P 'alternate-mode quality-of-service qos-topology 1')
$DC2W" "a pool's QoS weighs topology"
quiet G029 "$(P '')
$S1
gtm pool a p2 { members { s1:v2 } }
gtm wideip a w { pool-lb-mode topology pools { p p2 } }
gtm topology ldns: subnet 0.0.0.0/0 server: pool /Common/p { }" "no datacenter record"
# G023: max-answers-returned above the member count, only when written
quiet G023 "$S1
$(P 'max-answers-returned 2')
$W" "equal to the member count"
echo "1..$T_N"
[ "$T_FAIL" -eq 0 ]
