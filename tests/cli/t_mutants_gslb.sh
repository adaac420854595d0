#!/bin/sh
# Tests written for generated mutants of the GSLB code (core/gslb_*.c, ref/gslb*.c,
# cli/*gslb*.c) that survived the other tests (scripts/mutgen.py; README, *Mutation
# testing*). Each case names the mutant id it kills; expectations are worked out by hand
# from doc/gslb.md and the man page, not taken from a run.
. "$(dirname "$0")/tap.sh"
G="$DATA/../../data/gslb"

# core/gslb/gslb_model.c@00d9b035b6:stmt:*net = wsel__gslb_mask(net, p);:;:1 -- a subnet
# written with host bits set stands for its network (doc/gslb.md §1 and §3): in a topology
# record on both sides, and as a persistence key, which the state writes back as the
# network.
cat >"$TMP/sub.conf" <<'EOF'
gtm server /Common/s1 { datacenter /Common/DC1 product bigip virtual-servers { v1 { destination 10.0.0.1:80 } v2 { destination 10.0.0.2:80 } } }
gtm pool a /Common/p { load-balancing-mode topology alternate-mode none fallback-mode none members { s1:v1 s1:v2 } }
gtm wideip a /Common/w.example.com { persistence enabled persist-cidr-ipv4 24 pools { p } }
gtm topology ldns: subnet 192.0.2.200/24 server: subnet 10.0.0.3/31 { score 100 }
EOF
# 192.0.2.200/24 = 192.0.2.0/24 holds the LDNS 192.0.2.7; 10.0.0.3/31 = 10.0.0.2/31 holds
# v2 (10.0.0.2) and not v1: v2 scores 100, v1 0, so topology answers v2. Unmasked, no
# record matches, topology fails, and with alternate and fallback none nothing answers.
cat >"$TMP/sub.json" <<'EOF'
{"now": 100, "query": {"ldns": "192.0.2.7"}, "members": {"s1:v1": {"up": true}, "s1:v2": {"up": true}}}
EOF
run gslb resolve "$TMP/sub.conf" w.example.com --inputs "$TMP/sub.json" --json
is_rc 0 "subnet with host bits: resolves"
jqok '.queries[0] | .outcome == "answer" and .addresses == ["10.0.0.2"] and .step == "preferred" and .method == "topology"' \
    "topology subnets 192.0.2.200/24 and 10.0.0.3/31 match as 192.0.2.0/24 and 10.0.0.2/31"
# A record keyed 192.0.2.99/24 is the record of 192.0.2.0/24: the LDNS 192.0.2.7 (masked
# by persist-cidr-ipv4 24) hits it and gets v1 (step persist, not topology's v2); the hit
# refreshes it to now + ttl-persistence (100 + 3600, default) under the key 192.0.2.0/24.
cat >"$TMP/sub2.json" <<'EOF'
{"now": 100, "query": {"ldns": "192.0.2.7"}, "members": {"s1:v1": {"up": true}, "s1:v2": {"up": true}},
 "persistence": [{"wideip": "w.example.com", "key": "192.0.2.99/24", "pool": "p", "member": "s1:v1", "expires": 200}]}
EOF
run gslb resolve "$TMP/sub.conf" w.example.com --inputs "$TMP/sub2.json" --json
is_rc 0 "persistence key with host bits: resolves"
jqok '.queries[0] | .outcome == "answer" and .addresses == ["10.0.0.1"] and .step == "persist"' \
    "persistence key 192.0.2.99/24 is hit by the LDNS 192.0.2.7"
jqok '.state.persistence == [{"wideip": "/Common/w.example.com", "key": "192.0.2.0/24", "pool": "/Common/p", "member": "s1:v1", "expires": 3700}]' \
    "the state writes the key back as 192.0.2.0/24"

# ref/gslb/gslb_select.c@806f99b5ce+2:const:1:0:1 (the 'long best = -1;' of the smooth-WRR
# repeat, now wsel__gslb_wrr_repeat in ref/gslb/gslb_engine.h) -- a member whose ratio weight is 0 is never
# picked, whatever counter the state gives it (A-8; §9 property 7: no unavailable member
# from the preferred step), also on the repeated picks of one run. v1 is down (weight 0)
# with cur 100; v2 and v3 keep their weights 1, 2 and counters 0, so smooth WRR goes on
# without a reset: (cur v2, v3) +w -> (1, 2) pick v3 -> (1, -1); (2, 1) v2 -> (-1, 1);
# (0, 3) v3 -> (0, 0); then again: v3 v2 v3.
printf '%s\n' '{"members": {"s1:v1": {"up": false}, "s1:v2": {"up": true}, "s1:v3": {"up": true}}, "state": {"pool": {"/Common/p_ratio": {"preferred": {"rr": -1, "ratio": {"s1:v1": {"w": 0, "cur": 100}, "s1:v2": {"w": 1, "cur": 0}, "s1:v3": {"w": 2, "cur": 0}}}}}}}' >"$TMP/ratio0.json"
run gslb resolve "$G/rr.conf" ratio.example.com --inputs "$TMP/ratio0.json" -n 6 --json
is_rc 0 "ratio state with a weight-0 entry: resolves"
jqok '[.queries[].addresses[0]] == ["10.0.0.3","10.0.0.2","10.0.0.3","10.0.0.3","10.0.0.2","10.0.0.3"]' \
    "weight 0 with cur 100 is never picked: v3 v2 v3 v3 v2 v3"

# core/gslb/gslb_parse.c@6a7f8a7c37:ror:==:!=:1 -- min-members-up-mode, each spelling (doc/gslb.md
# §4.1, A-6): pool pa (v1 up, v2 down: 1 of 2 up) is available when at-least: 1 >= value,
# percent: 100*1 >= value*2, number = at-least, off: always; a global-availability wide IP
# answers from pa (10.0.0.1) when it is available, else from pb (10.0.0.3).
minup() { # MODE VALUE EXPECTED-ADDRESS
    cat >"$TMP/minup.conf" <<EOF
gtm server /Common/s1 { datacenter /Common/DC1 product bigip virtual-servers { v1 { destination 10.0.0.1:80 } v2 { destination 10.0.0.2:80 } v3 { destination 10.0.0.3:80 } } }
gtm pool a /Common/pa { min-members-up-mode $1 min-members-up-value $2 members { s1:v1 s1:v2 } }
gtm pool a /Common/pb { members { s1:v3 } }
gtm wideip a /Common/w.example.com { pool-lb-mode global-availability pools { pa { order 0 } pb { order 1 } } }
EOF
    printf '%s\n' '{"members": {"s1:v1": {"up": true}, "s1:v2": {"up": false}, "s1:v3": {"up": true}}}' >"$TMP/minup.json"
    run gslb resolve "$TMP/minup.conf" w.example.com --inputs "$TMP/minup.json" --json
    jqok ".queries[0].addresses == [\"$3\"]" "min-members-up-mode $1, value $2, 1 of 2 up: answer $3"
}
minup at-least 1 10.0.0.1
minup at-least 2 10.0.0.3
minup number 1 10.0.0.1
minup number 2 10.0.0.3
minup percent 50 10.0.0.1
minup percent 51 10.0.0.3
minup off 2 10.0.0.1

# core/gslb/gslb_model.c@9f16c148c1:negc:(vs[0] != '/'):(!(vs[0] != '/')):1 -- a member
# SERVER:VS whose VS is not among the server's names literally is matched as /Common/VS
# (doc/gslb.md §1, A-2), in the config and in the inputs.
cat >"$TMP/vs.conf" <<'EOF'
gtm server /Common/s1 { datacenter /Common/DC1 product bigip virtual-servers { /Common/vs_a { destination 10.0.0.1:80 } } }
gtm pool a p { members { s1:vs_a } }
gtm wideip a w { pools { p } }
EOF
run gslb check "$TMP/vs.conf"
is_rc 0 "member s1:vs_a names the VS /Common/vs_a: valid (no G013)"
printf '%s\n' '{"members": {"s1:vs_a": {"up": true}}}' >"$TMP/vs.json"
run gslb resolve "$TMP/vs.conf" w --inputs "$TMP/vs.json" --json
jqok '.queries[0].addresses == ["10.0.0.1"]' "inputs key s1:vs_a is /Common/s1:/Common/vs_a: it answers"

# core/gslb/gslb_parse.c@a71d848854+3:negc:((rc = skip_rest(p, key))):... (and its siblings
# @a71d848854, +2, +4 in the server, pool and region readers) -- an ignored
# attribute's block (`description {`) left open is a parse error at its '{', in each kind
# of object (doc/gslb.md §1: "unterminated block"), not swallowed.
gslb_unterminated() { # HEAD COL
    printf '%s description {\n  x y\n' "$1" >"$TMP/u.conf"
    run gslb check "$TMP/u.conf"
    [ "$RC" -eq 1 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] &&
        grep -q "u\.conf:1:$2: .*: unterminated '{' (no matching '}')" "$TMP/err"; r=$?
    [ $r -eq 0 ] || echo "# exit $RC: $(head -c 300 "$TMP/err")"
    ok $r "'$1 description {' unterminated: error at 1:$2"
}
gslb_unterminated 'gtm server /Common/s1 {' 37
gslb_unterminated 'gtm pool a p {' 28
gslb_unterminated 'gtm wideip a w {' 30
gslb_unterminated 'gtm region r {' 28

# ref/gslb/gslb_dynamic.c@7b2ca57d0a:const:1:2:2 -- a dynamic-ratio weight that rounds down
# to 0 counts as 1 (doc/gslb.md A-17: max(1, floor(1e6*min/v)), lower better). RTT 1 us
# against 20 000 000 us: v1 weighs 1e6, v2 floor(0.05) = 0 -> 1. One smooth-WRR pick adds
# the weights to the zero counters, picks v1 and takes the total 1 000 001 off it: the
# output state holds v1 {w 1000000, cur -1} and v2 {w 1, cur 1}. (This weight only picks
# v2 once in a million queries, so the state is where a test sees it.)
cat >"$TMP/dyn.conf" <<'EOF2'
gtm server /Common/s1 { datacenter /Common/DC1 product bigip virtual-servers { v1 { destination 10.0.0.1:80 } v2 { destination 10.0.0.2:80 } } }
gtm pool a /Common/p { load-balancing-mode lowest-round-trip-time dynamic-ratio enabled alternate-mode none fallback-mode none members { s1:v1 s1:v2 } }
gtm wideip a /Common/w.example.com { pools { p } }
EOF2
printf '%s\n' '{"members": {"s1:v1": {"up": true, "rtt_us": 1}, "s1:v2": {"up": true, "rtt_us": 20000000}}}' >"$TMP/dyn.json"
run gslb resolve "$TMP/dyn.conf" w.example.com --inputs "$TMP/dyn.json" --json
is_rc 0 "dynamic ratio, RTT 1 against 20 000 000: resolves"
jqok '.queries[0].addresses == ["10.0.0.1"] and .state.pool["/Common/p"].preferred.ratio ==
      {"s1:v1": {"w": 1000000, "cur": -1}, "s1:v2": {"w": 1, "cur": 1}}' \
    "a dynamic-ratio weight below 1 counts as 1: the state holds w 1 and cur 1 for v2"

# ref/gslb/gslb_wideip.c@f1790d42d1:aor:+:-:2 -- a wide IP's pools after the one its method
# picked are tried in list order from there, wrapping round to the first (doc/gslb.md §4,
# A-23). p2 and p3 fall through (topology without records, alternate and fallback none:
# next-pool); p1 answers. Round robin starts query 1 at p1 and query 2 at p2, which then
# tries p3 and wraps to p1.
cat >"$TMP/rest.conf" <<'EOF2'
gtm server /Common/s1 { datacenter /Common/DC1 product bigip virtual-servers { v1 { destination 10.0.0.1:80 } v2 { destination 10.0.0.2:80 } v3 { destination 10.0.0.3:80 } } }
gtm pool a /Common/p1 { load-balancing-mode round-robin alternate-mode none fallback-mode none members { s1:v1 } }
gtm pool a /Common/p2 { load-balancing-mode topology alternate-mode none fallback-mode none members { s1:v2 } }
gtm pool a /Common/p3 { load-balancing-mode topology alternate-mode none fallback-mode none members { s1:v3 } }
gtm wideip a /Common/w.example.com { pool-lb-mode round-robin pools { p1 p2 p3 } }
EOF2
printf '%s\n' '{"members": {"s1:v1": {"up": true}, "s1:v2": {"up": true}, "s1:v3": {"up": true}}}' >"$TMP/rest.json"
run gslb resolve "$TMP/rest.conf" w.example.com --inputs "$TMP/rest.json" -n 2 --json --log pool-traversal
is_rc 0 "three pools, two falling through: resolves"
jqok '[.queries[] | [.log[] | select(.result == "selected") | .pool]] ==
      [["/Common/p1"], ["/Common/p2", "/Common/p3", "/Common/p1"]] and [.queries[].addresses[0]] == ["10.0.0.1", "10.0.0.1"]' \
    "pools after the picked one in list order, wrapping: p1; then p2, p3, p1"

# core/gslb/gslb_lint.c@b8b51e04db:const:3:2:1 -- findings are ordered by object: servers,
# pools, wide IPs, then the others (include/wsel/gslb.h, wsel_gslb_lint), so a topology
# record's G013 comes after every wide IP's, even a wide IP later in the list (w2, the
# second) than the record's index (the first record).
cat >"$TMP/l13.conf" <<'EOF2'
gtm server /Common/s1 { datacenter /Common/DC1 product bigip virtual-servers { v1 { destination 10.0.0.1:80 } } }
gtm pool a /Common/p { members { s1:v1 } }
gtm wideip a /Common/w1.example.com { pools { p } }
gtm wideip a /Common/w2.example.com { pools { p nope } }
gtm topology ldns: subnet 0.0.0.0/0 server: pool /Common/nope { score 1 }
EOF2
run gslb check "$TMP/l13.conf" --json
jqok '[.findings[] | select(.code == "G013") | .object] == ["gtm wideip a /Common/w2.example.com", "gtm topology (line 5)"]' \
    "lint order: the second wide IP's G013, then the first topology record's"

# ref/gslb/gslb_select.c@a1def4987e:ror:!=:==:1 -- answers beyond the first come from the
# method's own order (doc/gslb.md A-36): for lowest-round-trip-time, by RTT. RTTs 30, 10,
# 20, 40 with max-answers-returned 3: v2 (10), then v3 (20), then v1 (30).
cat >"$TMP/mx.conf" <<'EOF2'
gtm server /Common/s1 { datacenter /Common/DC1 product bigip virtual-servers { v1 { destination 10.0.0.1:80 } v2 { destination 10.0.0.2:80 } v3 { destination 10.0.0.3:80 } v4 { destination 10.0.0.4:80 } } }
gtm pool a /Common/p { load-balancing-mode lowest-round-trip-time max-answers-returned 3 alternate-mode none fallback-mode none members { s1:v1 s1:v2 s1:v3 s1:v4 } }
gtm wideip a /Common/w.example.com { pools { p } }
EOF2
printf '%s\n' '{"members": {"s1:v1": {"up": true, "rtt_us": 30}, "s1:v2": {"up": true, "rtt_us": 10}, "s1:v3": {"up": true, "rtt_us": 20}, "s1:v4": {"up": true, "rtt_us": 40}}}' >"$TMP/mx.json"
run gslb resolve "$TMP/mx.conf" w.example.com --inputs "$TMP/mx.json" --json
jqok '.queries[0].addresses == ["10.0.0.2", "10.0.0.3", "10.0.0.1"]' \
    "max-answers-returned 3 by lowest RTT: 10, 20, 30 (v2, v3, v1)"

# core/gslb/gslb_parse.c@00fab88f43:ror:>:>=:1 -- a 32-bit attribute (a topology record's
# score and order, QoS coefficients) takes 0..4294967295 (doc/gslb.md §1): the largest is
# read, one more is the error that names the range.
for v in 4294967295 4294967296; do
    printf '%s\n' 'gtm server /Common/s1 { datacenter /Common/DC1 product bigip virtual-servers { v1 { destination 10.0.0.1:80 } } }' \
        'gtm pool a /Common/p { load-balancing-mode topology members { s1:v1 } }' \
        'gtm wideip a /Common/w.example.com { pools { p } }' \
        "gtm topology ldns: subnet 0.0.0.0/0 server: pool /Common/p { score $v }" >"$TMP/score.conf"
    run gslb check "$TMP/score.conf"
    if [ "$v" = 4294967295 ]; then
        is_rc 0 "topology score 4294967295: read"
    else
        fails_with 1 "'score' must be an integer in 0..4294967295" "topology score 4294967296: the range error"
    fi
done

# core/gslb/gslb_lex.c@9d15e373a4:ror:<=:<:1 -- the first "#TMSH-VERSION: X" comment with a
# value gives the version `check` reports; the tag alone, with nothing after it, is an
# ordinary comment.
printf '%s\n' '#TMSH-VERSION:' '#TMSH-VERSION: 15.1.0' \
    'gtm server /Common/s1 { datacenter /Common/DC1 product bigip virtual-servers { v1 { destination 10.0.0.1:80 } } }' \
    'gtm pool a /Common/p { members { s1:v1 } }' 'gtm wideip a /Common/w.example.com { pools { p } }' >"$TMP/ver.conf"
run gslb check "$TMP/ver.conf"
holds ", TMSH-VERSION 15.1.0" "a bare #TMSH-VERSION: tag is passed over; the next one gives 15.1.0"

done_testing
